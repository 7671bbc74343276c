"""The command ``python -m GAME.proofs``: run a game's suite, print its table, file its results.

A game's ``proofs/__main__.py`` calls :func:`main` with the name of its
proofs package, whose ``suite`` module holds ``SUITE`` (a
:class:`~dicekit.proofs.runner.Suite`).  :func:`command` runs the stages of
the groups asked for, prints one line per check as it comes and a summary
per group, writes the results file if asked (``--json PATH``), and returns
the exit status: 0 when every result is the expected one, 1 when one is
not, 2 for a usage error, a results file that cannot be written, or z3
missing (the ``proofs`` extra), each said in one line on stderr.

This module imports z3 only through the suite, so that without the extra
it still says, in one line, what to install.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dicekit.proofs.results import Check
    from dicekit.proofs.runner import Suite

__all__ = ["command", "main"]


#: The help of ``--group`` and ``-v`` unless a game words its own.
GROUP_HELP = "run only this group (repeatable)"
VERBOSE_HELP = "print every detail (counterexamples, witnesses, counts)"


def main(
    package: str,
    argv: Sequence[str] | None = None,
    *,
    group_help: str = GROUP_HELP,
    verbose_help: str = VERBOSE_HELP,
) -> int:
    """Run ``python -m PACKAGE`` for the proofs package ``package``; return the exit status.

    ``PACKAGE.suite`` must define ``SUITE``.  Without z3 the status is 2,
    with one line on stderr naming the extra to install.  ``group_help`` and
    ``verbose_help`` word the help of ``--group`` and ``-v`` (a game keeps the
    help its command has always printed).
    """
    prog = f"python -m {package}"
    try:
        suite: Suite = importlib.import_module(f"{package}.suite").SUITE
    except ModuleNotFoundError as missing:
        if missing.name != "z3":
            raise
        print(f"{prog}: error: {missing.msg}", file=sys.stderr)
        return 2
    return command(suite, argv, prog, group_help=group_help, verbose_help=verbose_help)


def parser_for(
    suite: Suite, prog: str, group_help: str = GROUP_HELP, verbose_help: str = VERBOSE_HELP
) -> argparse.ArgumentParser:
    """Return the command's argument parser: ``--json``, ``--group``, ``--full`` if any, ``-v``."""
    parser = argparse.ArgumentParser(
        prog=prog, description=f"Run the z3 proofs of {suite.subject}."
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the results file")
    parser.add_argument("--group", action="append", choices=suite.groups, help=group_help)
    if suite.has_full:
        parser.add_argument("--full", action="store_true", help=suite.full_help)
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help=verbose_help,
    )
    return parser


def command(
    suite: Suite,
    argv: Sequence[str] | None = None,
    prog: str = "python -m proofs",
    *,
    group_help: str = GROUP_HELP,
    verbose_help: str = VERBOSE_HELP,
) -> int:
    """Run the command for ``suite``; return 0 if every result is as expected, 1 if not, 2 on error.

    A usage error exits from argparse with status 2, as every command does.
    """
    args = parser_for(suite, prog, group_help, verbose_help).parse_args(argv)
    start = time.perf_counter()
    table = suite.table
    checks: list[Check] = []
    for check in suite.run(args.group, full=getattr(args, "full", False)):
        checks.append(check)
        print(table.line(check), flush=True)
        if check.detail and (args.verbose or not check.ok):
            print(f"    {check.detail}", flush=True)
    failures = [c for c in checks if not c.ok]
    counts = Counter(c.group for c in checks)
    seconds = {g: sum(c.seconds for c in checks if c.group == g) for g in counts}
    failed = Counter(c.group for c in failures)
    for line in table.summary(counts, seconds, failed):
        print(line)
    print(f"{len(checks)} checks, {len(failures)} failed, {time.perf_counter() - start:.1f}s")
    if args.json is not None:
        try:
            suite.write_results(checks, args.json)
        except OSError as error:
            reason = error.strerror or str(error)
            print(f"{prog}: error: cannot write {args.json}: {reason}", file=sys.stderr)
            return 2
        if table.say_written:
            print(f"wrote {args.json}")
    return 1 if failures else 0
