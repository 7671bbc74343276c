"""The commands that look at one state given in notation: ``show``, ``moves`` and ``perft``.

Each takes ``--game NAME`` (:mod:`cantstop.commands.games`).  A game that
does one its own way (:meth:`dicekit.commandline.CommandHooks.run`; Can't
Stop's board and legend, moves and counts of rolls and busts) does; for
any other game ``show`` prints the game's picture of the state
(:class:`~dicekit.protocol.TextPicture`) and its notation, ``moves`` the
legal actions, and ``perft`` the layer's whole-chance counts
(:func:`dicekit.perft.perft`).

>>> from cantstop.commands import main
>>> main(['perft', '-/- - 0r'])
choices=2826 busts=0
0
>>> main(['perft', '--game', 'tower', 'R31,32/B0,0 - 0t @ours'])
choices=22 no-decision=16 weight=36
0
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from cantstop.commands.games import add_game_option, add_own_options, default_game, game_runner
from cantstop.commands.options import add_command, examples, read_game_state
from dicekit.demo import picture
from dicekit.perft import perft as layer_perft
from dicekit.protocol import Game

__all__ = ["add_commands"]

#: A command's run: the parsed arguments to the exit status.
Run = Callable[[argparse.Namespace], int]


def _nothing_to_do(game: Game[Any, Any, Any], state: Any) -> str:
    """Say why a state of any game has no legal action to list."""
    if game.is_over(state):
        return f"the game is over: player {game.winner(state)} won; no action to choose"
    return f"player {game.player(state)} waits for the dice; no action to choose before them"


def _show(game: Game[Any, Any, Any], state: Any) -> None:
    print(picture(game, state))
    print(f"position: {game.format_state(state)}")


def _moves(game: Game[Any, Any, Any], state: Any) -> None:
    legal = game.legal_actions(state)
    print(" ".join(map(game.format_action, legal)) if legal else _nothing_to_do(game, state))


def _perft(game: Game[Any, Any, Any], state: Any) -> None:
    found = layer_perft(game, state)
    print(f"choices={found.choices} no-decision={found.no_decision} weight={found.weight}")


def _command(name: str, show: Callable[[Game[Any, Any, Any], Any], None]) -> Run:
    """Return the run of the command ``name``: the game's own, or ``show`` of the state read."""

    def run(game: Game[Any, Any, Any], args: argparse.Namespace) -> int:
        show(game, read_game_state(game, args.state))
        return 0

    return game_runner(name, run)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``show``, ``moves`` and ``perft``."""
    title = default_game().info.title
    perft_text = (
        f"Count, over every outcome of chance weighted by its odds (for {title} "
        "the 1296 rolls), the legal moves after it and the outcomes that leave no choice "
        f"({title}'s busts). Other games print choices=N no-decision=M weight=W."
    )
    for name, run, summary, example, other, description in (
        (
            "show",
            _command("show", _show),
            "draw a state given in notation",
            "7:2/- 7:3 0d",
            "tower 'R0,12/B5 B 1c35 @ours'",
            None,
        ),
        (
            "moves",
            _command("moves", _moves),
            "list the legal moves of a state",
            "-/- - 0c3455",
            "finishline '..../..../..../..../..../.... 0/0 0c34'",
            None,
        ),
        (
            "perft",
            _command("perft", _perft),
            "count moves and busts over all 1296 rolls",
            "-/- - 0r",
            "tower 'R31,32/B0,0 - 0t @ours'",
            perft_text,
        ),
    ):
        command = add_command(sub, name, run, summary, description)
        command.add_argument("state", help=f"a state in notation, e.g. '{example}'")
        add_own_options(name, command)
        add_game_option(command)
        command.epilog = examples(f"cantstop {name} '{example}'", f"cantstop {name} --game {other}")
