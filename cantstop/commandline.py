"""Can't Stop's own part of the command line: the hooks its layer object gives the commands.

The commands run every game through the layer; Can't Stop, older than the
layer, does most of them its own way, and says so here
(:class:`dicekit.commandline.CommandHooks`, returned by
:meth:`cantstop.layer.CantStop.command_line`): ``demo`` is
:func:`cantstop.demo.play_demo`, ``explain`` is :func:`cantstop.explain`,
``odds`` the exact odds of :mod:`cantstop.odds` or, with ``--table`` (an
option of its own), the three-column table, ``show`` the board with its
legend, ``moves`` and ``perft`` the engine's, ``simulate``
:func:`cantstop.simulate.simulate` and ``play`` the terminal game of
:mod:`cantstop.play` on Can't Stop's records (:mod:`cantstop.playcommand`,
with its own options ``--columns-to-win`` and ``--variant``); ``serve``
takes ``--mutant``, to answer with one of its seeded rule bugs.  One command
is Can't Stop's alone: ``solve``, the solitaire solver's
(:mod:`cantstop.solvecommand`).

>>> from cantstop.commands import main
>>> main(['perft', '-/- - 0r'])
choices=2826 busts=0
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from cantstop.commands.options import int_option, player_names, read_state
from cantstop.commands.report import ExitStatus, UsageError, report_error
from cantstop.state import Phase, State
from dicekit.commandline import CommandHooks

if TYPE_CHECKING:
    from cantstop.explanation import Explanation

__all__ = ["CantStopCommands"]


def _demo(args: argparse.Namespace) -> int:
    from cantstop.demo import play_demo
    from cantstop.players import PLAYERS

    names = player_names(args.players or "cautious,bold")
    for line in play_demo([PLAYERS[name]() for name in names], args.seed):
        print(line)
    return 0


def _refusal(found: Explanation) -> str:
    """Return the refusal of an explanation whose action is not legal: its sentence and rule."""
    for statement in found.statements:
        if statement.kind.startswith("illegal."):
            rule = statement.data["rule"]
            return f"{statement.text.removesuffix('.')} (rule {rule})"
    return "the action is not legal"


def _explain(args: argparse.Namespace) -> int:
    from cantstop import explain
    from cantstop.notation import parse_action

    state = read_state(args.state)
    action = None if args.action is None else parse_action(args.action)
    found = explain(state, action)
    if args.json:
        print(found.to_json_text())
    else:
        print(found.text(), end="")
    if found.legal is False:
        return report_error("explain", _refusal(found))
    return ExitStatus.SUCCESS


def _percent(p: Fraction) -> str:
    from cantstop.odds import format_percent

    return format_percent(p, 2)


def _odds(args: argparse.Namespace) -> int:
    from cantstop.odds import (
        bust_probability,
        column_chances,
        expected_gain,
        format_percent,
        three_column_report,
    )

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


def _show(args: argparse.Namespace) -> int:
    from cantstop.text import legend, render_board

    state: State = read_state(args.state)
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
    from cantstop.notation import format_action

    state: State = read_state(args.state)
    if state.phase is not Phase.CHOOSE:
        print(_nothing_to_choose(state))
        return 0
    print(" ".join(format_action(m) for m in state.legal_moves()))
    return 0


def _perft(args: argparse.Namespace) -> int:
    from cantstop.state import perft

    counts = perft(read_state(args.state))
    print(f"choices={counts.choices} busts={counts.busts}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from cantstop.jsonform import rules_from_json
    from cantstop.simulate import simulate

    show = args.progress if args.progress is not None else sys.stderr.isatty()
    bar = sys.stderr if show else None
    names = player_names("rule28,random" if args.players is None else args.players)
    rules = None
    if args.rules is not None:
        try:
            rules = rules_from_json(json.loads(args.rules))
        except ValueError as exc:
            raise UsageError(f"--rules takes the rules' JSON form: {exc}") from None
    print(simulate(names, args.games, args.seed, rules, args.processes, bar).table())
    return 0


def _serve(args: argparse.Namespace) -> int | None:
    """Answer the protocol with one seeded rule bug (``--mutant``); ``None`` without one."""
    if args.mutant is None:
        return None
    from cantstop.conformance.mutants import MutantPort
    from dicekit.conformance.serve import serve

    return serve(MutantPort(args.mutant).handle, program="cantstop serve")


def _play(args: argparse.Namespace) -> int:
    from cantstop.playcommand import play_command

    return play_command(args)


#: The commands Can't Stop runs its own way (``serve`` only with ``--mutant``).
_RUNS: dict[str, Callable[[argparse.Namespace], int | None]] = {
    "demo": _demo,
    "explain": _explain,
    "odds": _odds,
    "show": _show,
    "moves": _moves,
    "perft": _perft,
    "simulate": _simulate,
    "play": _play,
    "serve": _serve,
}

#: The seats of each command without ``--players``.
_SEATS = {"demo": "cautious,bold", "simulate": "rule28,random", "play": "human,rule28"}


class CantStopCommands(CommandHooks):
    """Can't Stop's hooks: its own options, seats and runs of the commands.

    >>> hooks = CantStopCommands()
    >>> hooks.default_seats('demo'), hooks.default_seats('show')
    ('cautious,bold', None)
    >>> hooks.add_options('play', argparse.ArgumentParser())
    ('--columns-to-win', '--variant')
    """

    def add_options(self, command: str, parser: argparse.ArgumentParser) -> tuple[str, ...]:
        """Add the options of Can't Stop's own: those of ``odds``, ``play`` and ``serve``."""
        if command == "odds":
            parser.add_argument(
                "--table",
                action="store_true",
                help="print the three-column table instead: for markers on three columns, "
                "the chance to advance and the chance to bust",
            )
            return ("--table",)
        if command == "play":
            parser.add_argument(
                "--columns-to-win",
                type=int_option(1, 11),
                default=None,
                metavar="N",
                help="columns needed to win (R12.1; default: 3)",
            )
            parser.add_argument(
                "--variant", choices=["A", "B"], default=None, help="play a variant (R14)"
            )
            return ("--columns-to-win", "--variant")
        if command == "serve":
            from cantstop.conformance.mutants import MUTANTS

            parser.add_argument(
                "--mutant",
                metavar="NAME",
                choices=list(MUTANTS),
                help="answer with one seeded rule bug (cantstop.conformance.mutants), for "
                "studying the suite's diagnosis; NAME is one of: " + ", ".join(MUTANTS),
            )
            return ("--mutant",)
        return ()

    def default_seats(self, command: str) -> str | None:
        """Return Can't Stop's seats of ``demo``, ``simulate`` and ``play``."""
        return _SEATS.get(command)

    def command_modules(self) -> tuple[str, ...]:
        """Return the module of Can't Stop's own command: ``solve``, the solitaire solver's."""
        return ("cantstop.solvecommand",)

    def run(self, command: str, args: argparse.Namespace) -> int | None:
        """Run a command Can't Stop's own way; ``serve`` only with ``--mutant``.

        The commands are ``demo``, ``explain``, ``odds``, ``show``, ``moves``,
        ``perft``, ``simulate``, ``play`` and ``serve``.
        """
        run = _RUNS.get(command)
        return None if run is None else run(args)
