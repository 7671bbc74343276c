"""``python -m finishline.proofs``: run every check, print the table, exit 1 on any failure.

Options: ``--json PATH`` writes the results file
(``finishline/proofs/results.json``); ``-v`` prints every detail
(counterexamples, witnesses, counts); ``--group NAME`` (repeatable) runs only
some groups; ``--full`` links engine and model on every reachable state of
two players with one counter each and on more random games (minutes, for a
nightly run) instead of the default's states nearest the opening and one
random game per configuration.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from finishline.proofs.checks import Check
from finishline.proofs.suite import GROUPS, run, table_line, write_results


def main(argv: Sequence[str] | None = None) -> int:
    """Run the checks; return 0 if every result is the one expected, else 1."""
    parser = argparse.ArgumentParser(
        prog="python -m finishline.proofs",
        description="Run the z3 proofs of the finish-line race's rules.",
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the results file")
    parser.add_argument("--group", action="append", choices=GROUPS, help="run only this group")
    parser.add_argument(
        "--full",
        action="store_true",
        help="link engine and model on every reachable state of 2p-n1 (slow)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print every detail")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    checks: list[Check] = []
    for check in run(args.group or GROUPS, full=args.full):
        checks.append(check)
        print(table_line(check), flush=True)
        if check.detail and (args.verbose or not check.ok):
            print(f"    {check.detail}", flush=True)
    failures = [c for c in checks if not c.ok]
    counts = Counter(c.group for c in checks)
    seconds = {g: sum(c.seconds for c in checks if c.group == g) for g in counts}
    for group in GROUPS:
        if group in counts:
            bad = sum(1 for c in failures if c.group == group)
            print(f"{group}: {counts[group]} checks, {bad} failed, {seconds[group]:.1f}s")
    print(f"{len(checks)} checks, {len(failures)} failed, {time.perf_counter() - start:.1f}s")
    if args.json:
        write_results(checks, args.json)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
