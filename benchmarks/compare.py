"""Before and after: the public-API figure of an older commit and of this tree, in one run.

``python -m benchmarks.compare REV`` exports the engine's packages of commit
``REV`` (``git archive`` of :data:`PACKAGES`, those the commit has) to a
temporary directory and times :mod:`benchmarks.public_api` against its
engine and against this tree's, alternately, several times, each in a fresh
``python -S`` process whose ``PYTHONPATH`` picks the engine, so that both
run under the same conditions.  It prints the best figure of each and the
ratio.  The engine needs nothing outside the standard library, so ``-S``
(no site-packages) loses nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(__file__).with_name("public_api.py")


#: The packages the engine is made of; an older commit may lack the later ones.
PACKAGES = ("cantstop", "dicekit")


def _export(rev: str, into: Path) -> None:
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "--name-only", rev, *PACKAGES],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, *listed],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def _measure(engine: Path, games: int, players: int) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-S", str(SCRIPT), str(games), str(players)],
        env={"PYTHONPATH": str(engine), "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(out[0]), float(out[1])


def main(argv: list[str] | None = None) -> int:
    """Time both engines alternately and print the best of each."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.compare", description=__doc__.split("\n")[0]
    )
    parser.add_argument("rev", help="the older commit, e.g. HEAD~3 or a hash")
    parser.add_argument("--games", type=int, default=300, help="games per timed round")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=4, help="alternations of the two")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp)
        _export(args.rev, old)
        best = {"before": (0.0, 0.0), "after": (0.0, 0.0)}
        for _ in range(args.repeats):
            for name, engine in (("before", old), ("after", ROOT)):
                figure = _measure(engine, args.games, args.players)
                best[name] = max(best[name], figure)
    for name, (games, actions) in best.items():
        label = args.rev if name == "before" else "this tree"
        print(f"{name:<7} {label:<12} {games:8,.0f} games/s {actions:10,.0f} actions/s")
    print(f"ratio   {best['after'][0] / best['before'][0]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
