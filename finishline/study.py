"""The seeded-bug study of the finish-line race: the suite against each bug of the JavaScript port.

The bundled port (``finishline/ports/javascript/port.js``) carries seeded
bugs, each breaking one rule, listed in ``bugs.json`` beside it and switched
on by ``node port.js --bug NAME``.  The study runs the game's conformance
vectors against each of them with the layer's study
(:mod:`dicekit.conformance.study`) and checks the targets: every bug caught,
the rule at fault named first for at least 90 % of the bugs and among the
first three for all.

``python -m finishline.study --json finishline/spec/conformance/study.json``
runs it on every vector of the newest version and writes the results file;
``--bug NAME`` (repeatable) runs only those bugs.  Exit status: 0 when the
targets are met, 1 when not, 2 for a usage error (no Node.js, an unknown
bug), with one line on stderr.

>>> [bug.name for bug in BUGS][:2]
['one-die-optional', 'hand-unlimited']
>>> port_command("anticlockwise", node="node")[-2:]
['--bug', 'anticlockwise']
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dicekit.conformance.cases import load_cases
from dicekit.conformance.gamesuite import GameVectorsSuite
from dicekit.conformance.study import FIRST_SHARE, TOP, misses, run_study, table_lines
from dicekit.conformance.suite import Case
from dicekit.conformance.vectors import vectors_dir, versions
from finishline.game import GAME

__all__ = [
    "BUGS",
    "PORT",
    "Bug",
    "load_bugs",
    "main",
    "newest_cases",
    "port_command",
    "results_path",
    "suite",
]

#: The bundled JavaScript port.
PORT = Path(__file__).parent / "ports" / "javascript" / "port.js"


@dataclass(frozen=True)
class Bug:
    """A seeded bug of the port: its name, the rule it breaks and what it does."""

    name: str
    rule: str
    description: str


def load_bugs(path: Path = PORT.parent / "bugs.json") -> tuple[Bug, ...]:
    """Return the seeded bugs listed in ``path`` (the port's ``bugs.json``), in its order."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(Bug(b["name"], b["rule"], b["description"]) for b in data)


#: The seeded bugs of the bundled port.
BUGS = load_bugs()


def port_command(bug: str, node: str | None = None) -> list[str]:
    """Return the command that runs the bundled port with the seeded bug ``bug``."""
    return [node or shutil.which("node") or "node", str(PORT), "--bug", bug]


def suite() -> GameVectorsSuite:
    """Return the game's conformance suite (the layer's generic suite of :data:`GAME`)."""
    return GameVectorsSuite(GAME)


def results_path() -> Path:
    """Return the study's committed results file, ``study.json`` beside the versions."""
    return vectors_dir(GAME, 1).parent / "study.json"


def newest_cases() -> tuple[int, list[Case]]:
    """Return the newest version of the game's suite and its cases."""
    version = versions(GAME)[-1]
    return version, load_cases(vectors_dir(GAME, version), suite().checks)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the study, print its table and optionally write the results file."""
    parser = argparse.ArgumentParser(
        prog="python -m finishline.study",
        description="Run the finish-line race's conformance suite against each seeded bug of "
        "its JavaScript port and rank the rule at fault.",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the results file")
    parser.add_argument("--jobs", type=int, default=2, metavar="N", help="ports run at a time")
    names = [b.name for b in BUGS]
    parser.add_argument("--bug", action="append", choices=names, metavar="NAME", help="only these")
    args = parser.parse_args(argv)
    if shutil.which("node") is None:
        print("finishline study: error: Node.js (node) is not on PATH", file=sys.stderr)
        return 2
    version, cases = newest_cases()
    chosen = {b.name: b.rule for b in BUGS if not args.bug or b.name in args.bug}
    outcomes = run_study(
        suite(),
        cases,
        chosen,
        port_command,
        jobs=args.jobs,
        progress=lambda o: print(f"{o.mutant}: rank {o.rank}", file=sys.stderr, flush=True),
    )
    for line in table_lines(outcomes):
        print(line)
    if args.json:
        said = {b.name: b.description for b in BUGS}
        data = {
            "generated_by": f"python -m finishline.study --json {args.json.as_posix()}",
            "vectors": f"v{version}",
            "cases": len(cases),
            "targets": {"first_share": FIRST_SHARE, "top": TOP},
            "outcomes": [o.to_json(said[o.mutant]) for o in outcomes],
        }
        args.json.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    missed = misses(outcomes)
    for line in missed:
        print(f"target missed: {line}")
    return 1 if missed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
