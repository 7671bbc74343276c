"""Can't Stop's ``play`` command: a new game or one resumed from Can't Stop's own record.

The command line (:mod:`cantstop.commands.play`) hands ``play`` over here
through Can't Stop's hooks (:mod:`cantstop.commandline`): the game itself is
:func:`cantstop.play.play`; this module reads the options, opens or resumes
the game record (``spec/record.md``) and reports what the record or the
options get wrong.  The records, seats and seeds are handled as for every
game (:mod:`cantstop.commands.playany`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cantstop.commands.playany import (
    abandon,
    check_resumable,
    open_record,
    play_session,
    say_resumed,
    seat_names,
    seed_of,
    setup_options,
    written,
)
from cantstop.commands.report import UsageError, quoted
from cantstop.config import Rules, Variant
from cantstop.errors import CantStopError
from cantstop.play import HUMAN, Console, draw_board, play
from cantstop.players import PLAYERS, Player
from cantstop.record import (
    PlaySetup,
    RecordError,
    RecordHeader,
    RecordWriter,
)
from cantstop.savedgames import Replay, SavedGame
from cantstop.state import Phase, State, new_game

__all__ = ["play_command"]


def _seats(names: Sequence[str]) -> list[Player | None]:
    return [None if n == HUMAN else PLAYERS[n]() for n in names]


def _use_color(choice: str, stream: TextIO) -> bool:
    if choice != "auto":
        return choice == "always"
    return stream.isatty() and not os.environ.get("NO_COLOR")


@dataclass
class _Game:
    """A game ready to play: where it stands and where it is written."""

    state: State
    seats: tuple[str, ...]
    players: list[Player | None]
    seed: int
    path: Path
    file: TextIO
    writer: RecordWriter
    played: int


def _new_game(args: argparse.Namespace) -> _Game:
    seats = seat_names(args.players if args.players is not None else f"{HUMAN},rule28")
    try:
        rules = Rules(
            players=len(seats),
            columns_to_win=3 if args.columns_to_win is None else args.columns_to_win,
            variant=None if args.variant is None else Variant(args.variant),
        )
        first = 0 if args.first_player is None else args.first_player
        state = new_game(rules, first)
    except CantStopError as exc:
        raise UsageError(f"these options do not make a game: {exc}") from None
    seed = seed_of(args)
    players = _seats(seats)  # a player that cannot start stops the game before its record
    path, file = open_record(args)
    try:
        writer = RecordWriter(file, rules, first_player=first, play=PlaySetup(seats, seed))
    except BaseException:
        abandon(path, file)
        raise
    return _Game(state, seats, players, seed, path, file, writer, 0)


def _contradictions(args: argparse.Namespace, header: RecordHeader) -> list[str]:
    """Return the options given with ``--resume`` that the record contradicts, with reasons."""
    found = setup_options(args, header.first_player)
    rules = header.rules
    if args.columns_to_win is not None and args.columns_to_win != rules.columns_to_win:
        found.append(
            f"--columns-to-win {args.columns_to_win}: the game is played to "
            f"{rules.columns_to_win} columns"
        )
    variant = None if rules.variant is None else rules.variant.value
    if args.variant is not None and args.variant != variant:
        played = "standard rules" if variant is None else f"variant {variant}"
        found.append(f"--variant {args.variant}: the game is played under {played}")
    if header.play is not None:
        if args.players is not None and seat_names(args.players) != header.play.seats:
            found.append(
                f"--players {args.players}: the record seats {','.join(header.play.seats)}"
            )
        if args.seed is not None and args.seed != header.play.seed:
            found.append(f"--seed {args.seed}: the game's seed is {header.play.seed}")
    elif args.players is not None and len(seat_names(args.players)) != rules.players:
        found.append(
            f"--players names {len(seat_names(args.players))} seats for a game of "
            f"{rules.players} players"
        )
    return found


def _resume(args: argparse.Namespace, console: Console) -> _Game | None:
    """Load the game of ``args.resume``; return it ready to go on, or ``None`` if it is over."""
    path: Path = args.resume
    check_resumable(path)
    try:
        saved = SavedGame(path)
    except RecordError as exc:
        raise CantStopError(f"{path}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot read the record {path}: {exc.strerror or exc}") from None
    try:
        with saved:
            header = saved.header
            problems = _contradictions(args, header)
            if problems:
                raise UsageError(f"the record {path} says otherwise: " + "; ".join(problems))
            seats, seed = _setup(args, header, console)
            replay = saved.replay(PlaySetup(seats, seed) if header.play is None else header.play)
    except RecordError as exc:
        raise CantStopError(f"{path}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot resume the record {path}: {exc.strerror or exc}") from None
    say_resumed(path, replay.torn, replay.actions, seats, seed, console)
    state = replay.state
    if state.phase is Phase.OVER:
        _keep_finished(path, replay, header)
        console.say(draw_board(state, console))
        winner = state.player  # the player who won is the one to move in the final state
        console.say(f"this game is over: player {winner} ({seats[winner]}) won")
        return None
    try:
        players = _seats(seats)
    except BaseException:
        replay.discard()
        raise
    file, writer = written(path, replay)
    return _Game(state, seats, players, seed, path, file, writer, replay.actions)


def _setup(
    args: argparse.Namespace, header: RecordHeader, console: Console
) -> tuple[tuple[str, ...], int]:
    """Return the seats and the seed of a resumed game: the record's, or the options'."""
    if header.play is not None:
        seats, seed = header.play.seats, header.play.seed
    else:
        n = header.rules.players
        seats = seat_names(args.players) if args.players is not None else (HUMAN,) * n
        seed = seed_of(args)
        if args.players is None:
            console.say(f"the record does not say who plays: {n} human seats (see --players)")
    unknown = [s for s in seats if s != HUMAN and s not in PLAYERS]
    if unknown:
        raise UsageError(
            f"the record seats {quoted(unknown[0])}, which is not one of "
            f"{', '.join((HUMAN, *PLAYERS))}"
        )
    return seats, seed


def _keep_finished(path: Path, replay: Replay, header: RecordHeader) -> None:
    """Leave a finished game's record as it is, but for a torn last line, which goes."""
    if replay.torn is None:
        replay.discard()
    elif header.play is not None:
        written(path, replay)[0].close()
    else:
        # The header said nothing of the seats: the repaired record says nothing either.
        replay.discard()
        with SavedGame(path) as saved:
            written(path, saved.replay(None))[0].close()


def play_command(args: argparse.Namespace) -> int:
    """Play a new game of Can't Stop, or one resumed from its own record; return the status."""
    console = Console(sys.stdin, sys.stdout, _use_color(args.color, sys.stdout))
    if args.resume is not None:
        game = _resume(args, console)
        if game is None:
            return 0
    else:
        game = _new_game(args)

    def play_game() -> bool:
        final = play(
            game.state,
            game.players,
            game.seed,
            console,
            game.writer,
            args.delay,
            game.played,
        )
        return final.phase is Phase.OVER

    opening = f"game record: {game.path} (seed {game.seed})"
    return play_session(console, game.path, game.file, opening, play_game)
