"""``python -m proofs``: run every check, print the table, exit non-zero on any failure.

Options: ``--json PATH`` writes the results file (``proofs/results.json``);
``-v`` prints every detail (counterexamples, witnesses, traces);
``--group NAME`` (repeatable) runs only some groups.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from proofs.checks import Check
from proofs.suite import GROUPS, run, table_line, write_results


def main(argv: Sequence[str] | None = None) -> int:
    """Run the checks; return 0 if every result is the expected one, else 1."""
    parser = argparse.ArgumentParser(
        prog="python -m proofs", description="Run the z3 proofs of the Can't Stop rules."
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the results file")
    parser.add_argument(
        "--group", action="append", choices=GROUPS, help="run only this group (repeatable)"
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="print every counterexample and witness"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    checks: list[Check] = []
    for check in run(args.group or GROUPS):
        checks.append(check)
        print(table_line(check), flush=True)
        if check.detail and (args.verbose or not check.ok):
            print(f"    {check.detail}", flush=True)
    failures = [c for c in checks if not c.ok]
    by_group = Counter(c.group for c in checks)
    seconds = {g: sum(c.seconds for c in checks if c.group == g) for g in by_group}
    print()
    for group in GROUPS:
        if group in by_group:
            print(f"{group:<12} {by_group[group]:4} checks {seconds[group]:7.1f}s")
    print(f"{len(checks)} checks, {len(failures)} failed, {time.perf_counter() - start:.1f}s")
    if args.json is not None:
        write_results(checks, args.json)
        print(f"wrote {args.json}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
