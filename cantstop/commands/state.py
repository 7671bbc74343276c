"""The commands that look at one state given in notation: ``show``, ``moves`` and ``perft``.

>>> from cantstop.commands import main
>>> main(['perft', '-/- - 0r'])
choices=2826 busts=0
0
"""

from __future__ import annotations

import argparse

from cantstop.commands.options import read_state
from cantstop.game import Phase, State, perft
from cantstop.notation import format_action
from cantstop.text import legend, render_board

__all__ = ["add_commands"]


def _show(args: argparse.Namespace) -> int:
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


def _moves(args: argparse.Namespace) -> int:
    state = read_state(args.state)
    if state.phase is not Phase.CHOOSE:
        print(_nothing_to_choose(state))
        return 0
    print(" ".join(format_action(m) for m in state.legal_moves()))
    return 0


def _perft(args: argparse.Namespace) -> int:
    counts = perft(read_state(args.state))
    print(f"choices={counts.choices} busts={counts.busts}")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``show``, ``moves`` and ``perft``."""
    show = sub.add_parser("show", help="draw a state given in notation")
    show.add_argument("state", help="a state in notation, e.g. '7:2/- 7:3 0d'")
    show.set_defaults(run=_show)
    moves = sub.add_parser("moves", help="list the legal moves of a state")
    moves.add_argument("state", help="a state in notation, e.g. '-/- - 0c3455'")
    moves.set_defaults(run=_moves)
    count = sub.add_parser("perft", help="count moves and busts over all 1296 rolls")
    count.add_argument("state", help="a state in notation, e.g. '-/- - 0r'")
    count.set_defaults(run=_perft)
