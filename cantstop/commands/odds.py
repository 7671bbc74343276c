"""The ``odds`` command: the exact odds of a state's next roll, or the three-column table.

``--game NAME`` picks the game (:mod:`cantstop.commands.games`): a game
that gives its odds its own way (:meth:`dicekit.commandline.CommandHooks.run`;
Can't Stop's exact odds of a roll, and its three-column table with
``--table``, an option of its own) does; for any other the odds of the
next throw come from the layer (:func:`dicekit.odds.throw_odds`): the
chance of each kind of outcome the game names.
"""

from __future__ import annotations

import argparse
from typing import Any

from cantstop.commands.games import (
    add_game_option,
    add_own_options,
    game_runner,
)
from cantstop.commands.options import add_command, examples, read_game_state
from cantstop.commands.report import UsageError
from dicekit.odds import throw_odds
from dicekit.protocol import Game

__all__ = ["add_commands"]


def _odds(game: Game[Any, Any, Any], args: argparse.Namespace) -> int:
    """Print the odds of the game's next throw, the layer's way."""
    if args.state is None:
        raise UsageError("give a state in notation")
    print(throw_odds(game, read_game_state(game, args.state)).text())
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``odds``: the exact odds of a state's next roll."""
    p = add_command(
        sub,
        "odds",
        game_runner("odds", _odds, "{option} is {owner}'s; {game} has none"),
        "exact odds of the next roll from a state",
    )
    p.add_argument("state", nargs="?", help="a state about to roll, e.g. '-/- 6:1,7:1,8:1 0d'")
    add_own_options("odds", p)
    add_game_option(p)
    p.epilog = examples(
        "cantstop odds '-/- 6:1,7:1,8:1 0d'",
        "cantstop odds --table",
        "cantstop odds --game tower 'R0,3/B0,0 - 0t @ours'",
    )
