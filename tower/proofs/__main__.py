"""``python -m tower.proofs``: run every check, print the table, exit 1 on any failure.

Options: ``--json PATH`` writes the results file (``tower/proofs/results.json``);
``-v`` prints every detail (counterexamples, witnesses); ``--group NAME``
(repeatable) runs only some groups; ``--full`` compares the engine and the
model on every reachable state of the small board instead of the states
nearest the opening (about 146,000 states; minutes, for a nightly run).
A usage error exits 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from tower.proofs.checks import Check
from tower.proofs.suite import GROUPS, run, table_line, write_results


def main(argv: Sequence[str] | None = None) -> int:
    """Run the checks; return 0 if every result is the expected one, else 1."""
    parser = argparse.ArgumentParser(
        prog="python -m tower.proofs",
        description="Run the z3 proofs of the rules of Off to the Tower, on every board.",
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the results file")
    parser.add_argument(
        "--group", action="append", choices=GROUPS, help="run one group (repeatable)"
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="link engine and model on every reachable state of the small board (slow)",
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
    by_group = Counter(c.group for c in checks)
    print()
    for group in GROUPS:
        if group in by_group:
            seconds = sum(c.seconds for c in checks if c.group == group)
            print(f"{group:<12} {by_group[group]:4} checks {seconds:7.1f}s")
    print(f"{len(checks)} checks, {len(failures)} failed, {time.perf_counter() - start:.1f}s")
    if args.json is not None:
        write_results(checks, args.json)
        print(f"wrote {args.json}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
