"""The commands that look at one state given in notation: ``show``, ``moves`` and ``perft``.

Each takes ``--game NAME`` (:mod:`cantstop.commands.games`).  Can't Stop's
are its own; for any other game ``show`` prints the game's picture of the
state (:class:`~dicekit.protocol.TextPicture`) and its notation, ``moves``
the legal actions, and ``perft`` the layer's whole-chance counts
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
from typing import Any

from cantstop.commands.games import DEFAULT, add_game_option, load_game
from cantstop.commands.options import add_command, examples, read_game_state, read_state
from cantstop.notation import format_action
from cantstop.state import Phase, State, perft
from cantstop.text import legend, render_board
from dicekit.demo import picture
from dicekit.perft import perft as layer_perft
from dicekit.protocol import Game

__all__ = ["add_commands"]


def _show(args: argparse.Namespace) -> int:
    if args.game != DEFAULT:
        game = load_game(args.game)
        state = read_game_state(game, args.state)
        print(picture(game, state))
        print(f"position: {game.format_state(state)}")
        return 0
    state = read_state(args.state)
    print(render_board(state))
    print(legend(state.rules.players))
    return 0


def _nothing_to_choose(state: State) -> str:
    """Say why ``state`` has no moves to list (it is not choosing a move)."""
    if state.phase is Phase.DECIDE:
        return f"player {state.player} is deciding whether to roll or stop; no move to choose"
    if state.phase is Phase.ROLL:
        return f"player {state.player} is about to roll; no move to choose before the dice"
    return f"the game is over: player {state.winner} won; no move to choose"


def _nothing_to_do(game: Game[Any, Any, Any], state: Any) -> str:
    """Say why a state of any game has no legal action to list."""
    if game.is_over(state):
        return f"the game is over: player {game.winner(state)} won; no action to choose"
    return f"player {game.player(state)} waits for the dice; no action to choose before them"


def _moves(args: argparse.Namespace) -> int:
    if args.game != DEFAULT:
        game = load_game(args.game)
        state = read_game_state(game, args.state)
        legal = game.legal_actions(state)
        print(" ".join(map(game.format_action, legal)) if legal else _nothing_to_do(game, state))
        return 0
    state = read_state(args.state)
    if state.phase is not Phase.CHOOSE:
        print(_nothing_to_choose(state))
        return 0
    print(" ".join(format_action(m) for m in state.legal_moves()))
    return 0


def _perft(args: argparse.Namespace) -> int:
    if args.game != DEFAULT:
        game = load_game(args.game)
        found = layer_perft(game, read_game_state(game, args.state))
        print(f"choices={found.choices} no-decision={found.no_decision} weight={found.weight}")
        return 0
    counts = perft(read_state(args.state))
    print(f"choices={counts.choices} busts={counts.busts}")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``show``, ``moves`` and ``perft``."""
    perft_text = (
        "Count, over every outcome of chance weighted by its odds (for Can't Stop "
        "the 1296 rolls), the legal moves after it and the outcomes that leave no choice "
        "(Can't Stop's busts). Other games print choices=N no-decision=M weight=W."
    )
    for name, run, summary, example, other, description in (
        (
            "show",
            _show,
            "draw a state given in notation",
            "7:2/- 7:3 0d",
            "tower 'R0,12/B5 B 1c35 @ours'",
            None,
        ),
        (
            "moves",
            _moves,
            "list the legal moves of a state",
            "-/- - 0c3455",
            "finishline '..../..../..../..../..../.... 0/0 0c34'",
            None,
        ),
        (
            "perft",
            _perft,
            "count moves and busts over all 1296 rolls",
            "-/- - 0r",
            "tower 'R31,32/B0,0 - 0t @ours'",
            perft_text,
        ),
    ):
        command = add_command(sub, name, run, summary, description)
        command.add_argument("state", help=f"a state in notation, e.g. '{example}'")
        add_game_option(command)
        command.epilog = examples(f"cantstop {name} '{example}'", f"cantstop {name} --game {other}")
