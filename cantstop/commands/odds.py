"""The ``odds`` command: the exact odds of a state's next roll, or the three-column table."""

from __future__ import annotations

import argparse
from fractions import Fraction

from cantstop.commands.options import add_command, examples, read_state
from cantstop.commands.report import UsageError
from cantstop.odds import (
    bust_probability,
    column_chances,
    expected_gain,
    format_percent,
    three_column_report,
)

__all__ = ["add_commands"]


def _percent(p: Fraction) -> str:
    return format_percent(p, 2)


def _odds(args: argparse.Namespace) -> int:
    if args.table:
        if args.state is not None:
            raise UsageError("give a state or --table, not both")
        print(three_column_report())
        return 0
    if args.state is None:
        raise UsageError("give a state in notation, or --table")
    state = read_state(args.state)
    bust = bust_probability(state)
    print(f"bust on the next roll: {bust} ({_percent(bust)})")
    gain = expected_gain(state)
    print(f"expected spaces climbed by the next roll: {gain} ({float(gain):.3f})")
    print("chance the next roll can advance each column:")
    for column, chance in column_chances(state).items():
        print(f"  {column:>2}  {chance!s:>9}  {format_percent(chance, 2):>7}")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``odds``: the exact odds of a state's next roll."""
    p = add_command(sub, "odds", _odds, "exact odds of the next roll from a state")
    p.add_argument("state", nargs="?", help="a state about to roll, e.g. '-/- 6:1,7:1,8:1 0d'")
    p.add_argument(
        "--table",
        action="store_true",
        help="print the three-column table instead: for markers on three columns, "
        "the chance to advance and the chance to bust",
    )
    p.epilog = examples("cantstop odds '-/- 6:1,7:1,8:1 0d'", "cantstop odds --table")
