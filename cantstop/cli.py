"""The ``cantstop`` command line.

``cantstop demo`` plays a demonstration game; ``cantstop spec`` counts (and with
``--check`` runs) the spec's rules and examples; ``cantstop show``, ``moves``
and ``perft`` inspect a state given in notation.

Every subcommand keeps one contract.  Exit status 0 means success, 1 that a
rule or a check failed, 2 a usage error (a bad option, a missing or unreadable
file) and 130 an interruption (Ctrl-C).  A usage error is one line on stderr,
``cantstop COMMAND: error: ...``, never a traceback; argparse's own complaints
take the same form.

>>> main(['moves', '-/- - 0c3455'])
7+10 8+9
0
>>> main(['perft', '--depth', '3'])  # stderr: cantstop perft: error: unrecognized arguments: ...
2
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from cantstop import __version__
from cantstop.errors import CantStopError
from cantstop.game import Phase, State
from cantstop.notation import format_action, parse_state
from cantstop.record import MAX_SEED

__all__ = [
    "COMMAND_MODULES",
    "INTERRUPTED",
    "UsageError",
    "build_parser",
    "int_option",
    "main",
    "read_state",
    "seconds_option",
]

#: Modules that add further subcommands. Each defines
#: ``add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None``
#: and sets ``run`` on each parser it adds, as the commands below do.  A command
#: raises :class:`UsageError` for a bad option; :func:`main` reports it.
COMMAND_MODULES: tuple[str, ...] = (
    "cantstop.conformance.cli",
    "cantstop.simulate",
    "cantstop.odds",
    "cantstop.play",
    "cantstop.explanation",
)

#: The exit status of a run stopped by Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130


class UsageError(Exception):
    """A command line that asks for something the command cannot do: exit status 2.

    The message is one line saying what is wrong and, where it helps, what
    would be right; :func:`main` prints it as ``cantstop COMMAND: error: ...``.
    """


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, ``PROG: error: MESSAGE``."""

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {text} (see {self.prog} --help)\n")


def _quoted(text: str, limit: int = 24) -> str:
    """``text`` quoted for a message, cut short if long (a 5,000-digit number, say)."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _bound(n: int) -> str:
    """``n`` for a message: ``2**64 - 1`` rather than twenty digits."""
    if n > 10**9 and (n + 1) & n == 0:
        return f"2**{n.bit_length()} - 1"
    return f"{n:,}"


def int_option(low: int, high: int) -> Callable[[str], int]:
    """Return an argparse ``type`` that accepts a whole number from ``low`` to ``high``.

    Anything else is a usage error that names the range:

    >>> int_option(1, 4)("3")
    3
    >>> int_option(1, 4)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: takes a whole number from 1 to 4, not '0'
    """

    def parse(text: str) -> int:
        digits = text.strip().removeprefix("-").removeprefix("+")
        value = int(text) if digits.isascii() and digits.isdecimal() and len(digits) <= 30 else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"takes a whole number from {_bound(low)} to {_bound(high)}, not {_quoted(text)}"
            )
        return value

    parse.__name__ = "whole number"
    return parse


def seconds_option(high: float) -> Callable[[str], float]:
    """Return an argparse ``type`` that accepts a number of seconds from 0 to ``high``.

    >>> seconds_option(60)("0.5")
    0.5
    >>> seconds_option(60)("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: takes seconds from 0 to 60, not 'nan'
    """

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not 0 <= value <= high:  # false for NaN as well
            raise argparse.ArgumentTypeError(
                f"takes seconds from 0 to {high:g}, not {_quoted(text)}"
            )
        return value

    parse.__name__ = "seconds"
    return parse


def read_state(text: str) -> State:
    """Return the state written ``text`` in notation; ``-`` (stdin) is a :class:`UsageError`.

    >>> read_state('-/- - 0r')
    State('-/- - 0r')
    """
    if text.strip() == "-":
        raise UsageError("give the state in notation as an argument; stdin is not read")
    return parse_state(text)


def _demo(args: argparse.Namespace) -> int:
    from cantstop.demo import PLAYERS, play_demo

    names = args.players.split(",")
    unknown = [n for n in names if n not in PLAYERS]
    if unknown or not 1 <= len(names) <= 4:
        raise UsageError(
            f"--players takes 1 to 4 of {', '.join(PLAYERS)}, comma-separated; got {args.players!r}"
        )
    for line in play_demo(tuple(PLAYERS[n] for n in names), args.seed):
        print(line)
    return 0


def _spec(args: argparse.Namespace) -> int:
    from cantstop.spec import iter_failures, load_spec

    spec = load_spec()
    rules = [r for r in spec.rules.values() if not r.is_chapter]
    chapters = len(spec.rules) - len(rules)
    print(f"{len(rules)} rules in {chapters} chapters, {len(spec.examples)} examples")
    if not args.check:
        return 0
    failures = list(iter_failures(spec))
    for _, message in failures:
        print(message)
    print(f"{len(spec.examples) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


def _show(args: argparse.Namespace) -> int:
    from cantstop.text import legend, render_board

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
    from cantstop.game import perft

    counts = perft(read_state(args.state))
    print(f"choices={counts.choices} busts={counts.busts}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``cantstop`` command."""
    parser = _Parser(
        prog="cantstop", description="Reference rules engine for the dice game Can't Stop."
    )
    parser.add_argument("--version", action="version", version=f"cantstop {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser("demo", help="play a demonstration game between built-in players")
    demo.add_argument(
        "--players",
        default="cautious,bold",
        help="comma-separated players (default: cautious,bold)",
    )
    demo.add_argument(
        "--seed", type=int_option(0, MAX_SEED), default=1, help="seed of the dice (default: 1)"
    )
    demo.set_defaults(run=_demo)
    spec = sub.add_parser("spec", help="count the spec's rules and examples")
    spec.add_argument(
        "--check", action="store_true", help="also run every example against the engine"
    )
    spec.set_defaults(run=_spec)
    show = sub.add_parser("show", help="draw a state given in notation")
    show.add_argument("state", help="a state in notation, e.g. '7:2/- 7:3 0d'")
    show.set_defaults(run=_show)
    moves = sub.add_parser("moves", help="list the legal moves of a state")
    moves.add_argument("state", help="a state in notation, e.g. '-/- - 0c3455'")
    moves.set_defaults(run=_moves)
    perft = sub.add_parser("perft", help="count moves and busts over all 1296 rolls")
    perft.add_argument("state", help="a state in notation, e.g. '-/- - 0r'")
    perft.set_defaults(run=_perft)
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(sub)
    return parser


def _os_error(exc: OSError) -> str:
    """Describe a failed file operation in one line: what, where and why."""
    why = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is None:
        return why
    return f"{exc.filename}: {why}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return its exit status.

    >>> main(['moves', '-/- - 0c3455'])
    7+10 8+9
    0
    """
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
    except SystemExit as exc:  # argparse after --help, --version or a usage error
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    command = f"cantstop {args.command}"
    if extra:
        # Left over after the subcommand took its own: the subcommand's error.
        print(
            f"{command}: error: unrecognized arguments: {' '.join(extra)} (see {command} --help)",
            file=sys.stderr,
        )
        return 2
    try:
        status: int = args.run(args)
    except UsageError as exc:
        print(f"{command}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except CantStopError as exc:
        first, *pointer = str(exc).splitlines()
        print(f"{command}: error: {first}", file=sys.stderr)
        if pointer and sys.stderr.isatty():
            # The quoted text and its caret, for a reader at a terminal; a
            # program reading stderr gets the one line of the convention.
            print("\n".join(pointer), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``cantstop demo | head``); that is not an error.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaced for the rest of the process
        return 0
    except OSError as exc:
        print(f"{command}: error: {_os_error(exc)}", file=sys.stderr)
        return 2
    return status
