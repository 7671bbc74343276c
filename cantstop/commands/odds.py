"""The ``odds`` command: the exact odds of a state's next roll, or the three-column table.

With ``--game NAME`` the odds of another game's next throw come from the
layer (:func:`dicekit.odds.throw_odds`): the chance of each kind of outcome
the game names.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from cantstop.commands.games import DEFAULT, add_game_option, load_game
from cantstop.commands.options import add_command, examples, read_game_state, read_state
from cantstop.commands.report import UsageError
from cantstop.odds import (
    bust_probability,
    column_chances,
    expected_gain,
    format_percent,
    three_column_report,
)
from dicekit.odds import throw_odds

__all__ = ["add_commands"]


def _percent(p: Fraction) -> str:
    return format_percent(p, 2)


def _game_odds(args: argparse.Namespace) -> int:
    """Print the odds of another game's next throw, from the layer."""
    game = load_game(args.game)
    if args.table:
        raise UsageError(f"--table is Can't Stop's; {game.info.title} has none")
    if args.state is None:
        raise UsageError("give a state in notation")
    print(throw_odds(game, read_game_state(game, args.state)).text())
    return 0


def _odds(args: argparse.Namespace) -> int:
    if args.game != DEFAULT:
        return _game_odds(args)
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
    add_game_option(p)
    p.epilog = examples(
        "cantstop odds '-/- 6:1,7:1,8:1 0d'",
        "cantstop odds --table",
        "cantstop odds --game tower 'R0,3/B0,0 - 0t @ours'",
    )
