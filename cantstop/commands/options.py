"""The parser class, option types and argument readers that every command shares.

>>> int_option(1, 4)("3")
3
>>> read_state('-/- - 0r')
State('-/- - 0r')
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from cantstop.commands.games import default_game, hooks
from cantstop.commands.report import ExitStatus, UsageError, error_line, quoted
from dicekit.protocol import Game
from dicekit.saved import MAX_SEED

__all__ = [
    "HUMAN",
    "CommandParser",
    "add_command",
    "add_players_option",
    "add_seed_option",
    "bot_names",
    "chosen_seats",
    "default_bots",
    "default_seats",
    "examples",
    "int_option",
    "player_names",
    "read_game_state",
    "read_state",
    "seconds_option",
]

#: The seat name of a person at the keyboard, beside the built-in players' names.
HUMAN = "human"


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, as every command's errors are.

    The line is :func:`~cantstop.commands.report.error_line`'s, with a pointer to ``--help``.
    """

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: error: MESSAGE (see PROG --help)`` on stderr and exit with status 2."""
        command = self.prog.removeprefix("cantstop").strip()
        line = error_line(command, f"{message} (see {self.prog} --help)")
        self.exit(ExitStatus.USAGE, line + "\n")


def add_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    run: Callable[[argparse.Namespace], int],
    summary: str,
    description: str | None = None,
) -> argparse.ArgumentParser:
    """Return the new subcommand ``name``, which runs ``run`` on the parsed arguments.

    ``summary`` is the line ``cantstop --help`` shows for it.
    """
    parser = sub.add_parser(name, help=summary, description=description)
    parser.set_defaults(run=run)
    return parser


def examples(*commands: str) -> str:
    """Return the epilog of a command's help that shows ``commands`` as examples.

    >>> examples('cantstop odds --table')
    'example: cantstop odds --table'
    >>> examples('cantstop demo', 'cantstop demo --seed 7')
    'examples: cantstop demo; cantstop demo --seed 7'
    """
    label = "example" if len(commands) == 1 else "examples"
    return f"{label}: {'; '.join(commands)}"


def add_players_option(
    parser: argparse.ArgumentParser, default: str, *, human: bool = False
) -> None:
    """Add ``--players``, the seats of a game, to ``parser``; ``default`` is the default game's.

    The help names the players of the game played without ``--game``
    (:func:`~cantstop.commands.games.default_game`).  With ``human`` a seat
    may also be :data:`HUMAN` (read it with :func:`player_names` or
    :func:`bot_names` and ``human=True``).
    """
    game = default_game()
    players = ", ".join(game.bots())
    if human:
        text = (
            f"comma-separated seats, each {HUMAN} or one of {players} "
            f"(default: {default}); for another game, {HUMAN} or its own players "
            f"(default: {HUMAN} against its best)"
        )
    else:
        text = (
            f"comma-separated built-in players, {game.info.min_players} to "
            f"{game.info.max_players} of {players} "
            f"(default: {default}); for another game, its own players "
            "(default: its best against random)"
        )
    parser.add_argument("--players", default=None, help=text)


def add_seed_option(parser: argparse.ArgumentParser, seeds: str, default: int | None = 1) -> None:
    """Add ``--seed``, a whole number from 0 to ``MAX_SEED``, to ``parser``; it seeds ``seeds``.

    A ``default`` of ``None`` means a random seed, and the help says so.
    """
    parser.add_argument(
        "--seed",
        type=int_option(0, MAX_SEED),
        default=default,
        help=f"seed of {seeds} (default: {'random' if default is None else default})",
    )


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
                f"takes a whole number from {_bound(low)} to {_bound(high)}, not {quoted(text)}"
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
                f"takes seconds from 0 to {high:g}, not {quoted(text)}"
            )
        return value

    parse.__name__ = "seconds"
    return parse


def read_state(text: str) -> Any:
    """Return the default game's state written ``text`` in notation; ``-`` (stdin) is a usage error.

    ``-`` raises :class:`~cantstop.commands.report.UsageError`: a state is given as an argument.

    >>> read_state('-/- - 0r')
    State('-/- - 0r')
    """
    return read_game_state(default_game(), text)


def player_names(text: str, *, human: bool = False) -> tuple[str, ...]:
    """Return the seats of the default game named in ``text``, comma-separated.

    The names are those of its built-in players, and :data:`HUMAN` when
    ``human`` is true; the count is one the game allows.  Space around a name
    is ignored; an empty name or an unknown one raises
    :class:`~cantstop.commands.report.UsageError`.

    >>> player_names('rule28, greedy')
    ('rule28', 'greedy')
    >>> player_names('human,rule28')
    Traceback (most recent call last):
    ...
    cantstop.commands.report.UsageError: --players takes 1 to 4 of ...; got 'human,rule28'
    """
    return bot_names(default_game(), text, human=human)


def read_game_state(game: Game[Any, Any, Any], text: str) -> Any:
    """Return the state of ``game`` written ``text`` in its notation; ``-`` is a usage error.

    >>> from cantstop.commands.games import load_game
    >>> read_game_state(load_game('finishline'), '..../..../..../..../..../.... 0/0 0r')
    State('..../..../..../..../..../.... 0/0 0r')
    """
    if text.strip() == "-":
        raise UsageError("give the state in notation as an argument; stdin is not read")
    return game.parse_state(text)


def bot_names(
    game: Game[Any, Any, Any], text: str | None, *, human: bool = False
) -> tuple[str, ...]:
    """Return the seats named in ``text``, comma-separated: one per player of ``game``.

    The names are those of ``game.bots()``, and :data:`HUMAN` when ``human``
    is true; the count is one the game allows.  Space around a name is
    ignored; anything else raises :class:`~cantstop.commands.report.UsageError`.
    ``None`` (no ``--players``) names :func:`default_bots`; an empty ``text`` is refused.

    >>> from cantstop.commands.games import load_game
    >>> bot_names(load_game('tower'), 'runner, random')
    ('runner', 'random')
    >>> bot_names(load_game('tower'), 'runner')
    Traceback (most recent call last):
    ...
    cantstop.commands.report.UsageError: --players takes 2 to 4 of ...; got 'runner'
    """
    if text is None:
        text = default_bots(game, human=human)
    info = game.info
    kinds: Sequence[str] = (HUMAN, *game.bots()) if human else tuple(game.bots())
    names = tuple(name.strip() for name in text.split(","))
    if not info.min_players <= len(names) <= info.max_players or any(
        name not in kinds for name in names
    ):
        raise UsageError(
            f"--players takes {info.min_players} to {info.max_players} of {', '.join(kinds)}, "
            f"comma-separated; got {quoted(text)}"
        )
    return names


def chosen_seats(
    game: Game[Any, Any, Any], args: argparse.Namespace, command: str, *, human: bool = False
) -> tuple[str, ...]:
    """Return the seats ``--players`` names for ``command`` of ``game``, or its default seats.

    The names are checked as :func:`bot_names` checks them.
    """
    given: str | None = args.players
    text = default_seats(game, command, human=human) if given is None else given
    return bot_names(game, text, human=human)


def default_seats(game: Game[Any, Any, Any], command: str, *, human: bool = False) -> str:
    """Return the seats ``command`` gives ``game`` without ``--players``.

    The game's own (:meth:`dicekit.commandline.CommandHooks.default_seats`),
    or else :func:`default_bots`.

    >>> from cantstop.commands.games import load_game
    >>> default_seats(load_game('tower'), 'demo')
    'runner,random'
    """
    own = hooks(game).default_seats(command)
    return default_bots(game, human=human) if own is None else own


def default_bots(game: Game[Any, Any, Any], *, human: bool = False) -> str:
    """Return the seats a command gives ``game`` when ``--players`` is not given.

    The game's best-known built-in player (the first that does not play at
    random) against random play, or a person against it when ``human``.

    >>> from cantstop.commands.games import load_game
    >>> default_bots(load_game('finishline')), default_bots(load_game('tower'), human=True)
    ('racer,random', 'human,runner')
    """
    names = list(game.bots())
    best = next((name for name in names if name != "random"), names[0])
    seats = [HUMAN if human else best, best if human else "random"]
    seats += ["random"] * (game.info.min_players - len(seats))
    return ",".join(seats)
