"""The ``play`` command's records, and the games it plays through the layer, new or resumed.

A new game's record is opened here (``--record FILE`` or a new file in the
games folder) and removed again if the game fails to start; a ``--resume``
path is checked, and the game its header names found (:func:`named_game`).
A game that does not play its own way is played by the layer's terminal
game, :func:`dicekit.play.play`: a new one (:func:`play_game`), or one
played on from its record in the layer's format (:func:`resume_game`,
through :class:`dicekit.saved.SavedGame`), with its seats and seed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shlex
import stat
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from cantstop.commands.games import game_given, load_game, names, refuse_own_options
from cantstop.commands.options import bot_names, chosen_seats, player_names
from cantstop.commands.report import UsageError, quoted, report_warning
from cantstop.savedgames import create_in_folder, create_record, games_folder
from dicekit import play as layer
from dicekit import record as layer_record
from dicekit.demo import picture
from dicekit.errors import GameError
from dicekit.play import HUMAN
from dicekit.protocol import Bot, Game
from dicekit.saved import Replay as LayerReplay
from dicekit.saved import SavedGame as SavedLayerGame

__all__ = [
    "Says",
    "abandon",
    "check_resumable",
    "continue_hint",
    "file_argument",
    "named_game",
    "open_record",
    "play_game",
    "play_session",
    "resume_game",
    "say_resumed",
    "seat_names",
    "seed_of",
    "setup_options",
    "written",
]


def seat_names(text: str) -> tuple[str, ...]:
    """Return the seats ``--players`` names, people (``human``) among them."""
    return player_names(text, human=True)


def continue_hint(path: Path) -> str:
    """Return the exact command that continues the game saved at ``path``."""
    return f"cantstop play --resume {shlex.quote(os.path.abspath(path))}"


def file_argument(path: Path, option: str) -> None:
    """Refuse a ``path`` that stands for stdin or stdout, or names a folder."""
    if str(path) == "-":
        raise UsageError(f"{option} takes a file; - (stdin or stdout) is not supported here")
    if path.is_dir():
        raise UsageError(f"{option} takes a file, and {path} is a folder")


def _open_new(path: Path, force: bool) -> TextIO:
    try:
        return create_record(path, replace=force)
    except FileExistsError:
        raise UsageError(
            f"{path} exists; give --force to replace it, "
            f"or continue its game with: {continue_hint(path)}"
        ) from None
    except OSError as exc:
        raise UsageError(f"cannot create the record {path}: {exc.strerror or exc}") from None


def _open_in_games_folder() -> tuple[Path, TextIO]:
    folder = games_folder()
    try:
        return create_in_folder(folder)
    except FileExistsError:
        raise UsageError(f"cannot find a free file name in {folder}") from None


def seed_of(args: argparse.Namespace) -> int:
    """Return the seed the options give, or a fresh one from the system."""
    return args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)


def open_record(args: argparse.Namespace) -> tuple[Path, TextIO]:
    """Open the new game's record: ``--record FILE``, or a new file in the games folder."""
    if args.record is not None:
        file_argument(args.record, "--record")
        return args.record, _open_new(args.record, args.force)
    return _open_in_games_folder()


def abandon(path: Path, file: TextIO) -> None:
    """Remove the record of a game that failed to start: no record is left of it."""
    with contextlib.suppress(OSError):
        file.close()
    with contextlib.suppress(OSError):
        path.unlink()


def setup_options(args: argparse.Namespace, first_player: int) -> list[str]:
    """Return the options of a new game's setup given with ``--resume``, with reasons."""
    found = []
    if args.record is not None:
        found.append("--record names the file of a new game; a resumed game stays in its record")
    if args.force:
        found.append("--force applies to a new game's --record")
    if args.first_player is not None and args.first_player != first_player:
        found.append(
            f"--first-player {args.first_player}: the game was begun by player {first_player}"
        )
    return found


def check_resumable(path: Path) -> None:
    """Refuse a ``--resume`` path that is missing, a folder, or a device, pipe or socket."""
    file_argument(path, "--resume")
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise UsageError(f"no such record: {path}") from None
    except OSError as exc:
        raise UsageError(f"cannot read the record {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        kind = _FILE_KINDS.get(stat.S_IFMT(mode), "not a regular file")
        raise UsageError(f"--resume takes a record file, and {path} is {kind}")


#: What a path that is no regular file is, for a message.
_FILE_KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a named pipe",
    stat.S_IFSOCK: "a socket",
}


def written(path: Path, replay: LayerReplay[Any, Any]) -> tuple[TextIO, Any]:
    """Put a replayed record in its place; a file that cannot be written is a usage error."""
    try:
        return replay.keep()
    except OSError as exc:
        raise UsageError(f"cannot write the record {path}: {exc.strerror or exc}") from None


def _refuse_own_options(args: argparse.Namespace, game: Game[Any, Any, Any]) -> None:
    """Refuse the options another game has of its own (its rules, say) for ``game``."""
    refuse_own_options(args, game, "{option} is an option of {owner}; {game} has none")


def _bots(game: Game[Any, Any, Any], seats: Sequence[str]) -> list[Bot[Any, Any] | None]:
    """Return the bot of each seat, ``None`` for a person at the keyboard."""
    makers = game.bots()
    return [None if name == HUMAN else makers[name]() for name in seats]


def play_game(args: argparse.Namespace) -> int:
    """Play a new game in the terminal, through the layer."""
    game = load_game(args.game)
    _refuse_own_options(args, game)
    seats = chosen_seats(game, args, "play", human=True)
    try:
        config = game.config(len(seats))
        first = 0 if args.first_player is None else args.first_player
        state = game.new_game(config, first)
    except GameError as exc:
        raise UsageError(f"these options do not make a game: {exc}") from None
    seed = seed_of(args)
    bots = _bots(game, seats)  # a bot that cannot start stops the game before its record
    path, file = open_record(args)
    try:
        writer = layer_record.RecordWriter(
            file, game, config, first_player=first, play={"seats": list(seats), "seed": seed}
        )
    except BaseException:
        abandon(path, file)
        raise
    console = layer.Console(sys.stdin, sys.stdout)
    ready = _LayerGame(state, seats, bots, seed, path, file, writer, 0)
    return _play_layer(game, ready, console, args.delay)


@dataclass
class _LayerGame:
    """A game of the layer ready to play: where it stands, who plays and where it is written."""

    state: Any
    seats: Sequence[str]
    bots: list[Bot[Any, Any] | None]
    seed: int
    path: Path
    file: TextIO
    writer: layer_record.RecordWriter
    played: int


class Says(Protocol):
    """A terminal that says lines: the console of any game's terminal game."""

    def say(self, text: str = "") -> None:
        """Write one line."""
        ...


def play_session(
    console: Says, path: Path, file: TextIO, opening: str, play: Callable[[], bool]
) -> int:
    """Play a game whose record ``file`` at ``path`` is open, saying what becomes of it.

    ``opening`` is the first line said; ``play`` plays the game at the
    terminal and returns whether it is over.  An interrupted game is saved,
    and the command that continues it said, before the interruption goes on.
    Every game is played through this one loop.
    """
    with file:
        console.say(opening)
        console.say("type help at a prompt for the commands, q to save and leave")
        try:
            over = play()
        except KeyboardInterrupt:
            console.say()
            hint = continue_hint(path)
            console.say(f"game interrupted and saved; continue it with: {hint}")
            raise
    if over:
        console.say(f"the game is recorded in {path}")
    else:
        console.say(f"the game is saved; continue it with: {continue_hint(path)}")
    return 0


def _play_layer(
    game: Game[Any, Any, Any], ready: _LayerGame, console: layer.Console, delay: float
) -> int:
    """Play a game through the layer's terminal game, from where ``ready`` stands."""

    def play() -> bool:
        final = layer.play(
            game,
            ready.state,
            ready.bots,
            ready.seats,
            ready.seed,
            console,
            ready.writer,
            delay,
            ready.played,
        )
        return game.is_over(final)

    opening = f"{game.info.title}; game record: {ready.path} (seed {ready.seed})"
    return play_session(console, ready.path, ready.file, opening, play)


def named_game(path: Path) -> str | None:
    """Return the game a record's header names (``None``: none, a record of the older format)."""
    try:
        with path.open("rb") as file:
            return layer_record.header_game(file)
    except layer_record.RecordError as exc:
        raise GameError(f"{path}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot read the record {path}: {exc.strerror or exc}") from None


def resume_game(args: argparse.Namespace, name: str) -> int:
    """Play on the game of any game's record in the layer's format, through the layer."""
    path: Path = args.resume
    if game_given(args) and args.game != name:
        raise UsageError(f"--game {args.game}, but the record {path} is of the game {name!r}")
    if name not in names():
        problem = f"the header names the game {quoted(name)}; the games are {', '.join(names())}"
        raise GameError(f"{path}: {layer_record.RecordError(1, problem)}")
    game = load_game(name)
    _refuse_own_options(args, game)
    console = layer.Console(sys.stdin, sys.stdout)
    try:
        saved = SavedLayerGame(game, path)
    except layer_record.RecordError as exc:
        raise GameError(f"{path}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot read the record {path}: {exc.strerror or exc}") from None
    try:
        with saved:
            seats, seed = _layer_setup(args, game, saved, console)
            setup = {"seats": list(seats), "seed": seed}
            replay = saved.replay(setup if saved.play is None else saved.play)
    except layer_record.RecordError as exc:
        raise GameError(f"{path}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot resume the record {path}: {exc.strerror or exc}") from None
    say_resumed(path, replay.torn, replay.actions, seats, seed, console)
    if game.is_over(replay.state):
        if replay.torn is None:
            replay.discard()
        else:
            written(path, replay)[0].close()
        console.say(picture(game, replay.state))
        winner = game.winner(replay.state)
        console.say(f"this game is over: player {winner} ({seats[winner or 0]}) won")
        return 0
    try:
        bots = _bots(game, seats)
    except BaseException:
        replay.discard()
        raise
    file, writer = written(path, replay)
    ready = _LayerGame(replay.state, seats, bots, seed, path, file, writer, replay.actions)
    return _play_layer(game, ready, console, args.delay)


def _layer_setup(
    args: argparse.Namespace, game: Game[Any, Any, Any], saved: SavedLayerGame, console: Any
) -> tuple[tuple[str, ...], int]:
    """Return the seats and seed of a resumed game; refuse options the record contradicts."""
    header = saved.header
    players = game.player_count(header.config)
    found = setup_options(args, header.first_player)
    given = None if args.players is None else bot_names(game, args.players, human=True)
    if saved.play is not None:
        seats, seed = tuple(saved.play["seats"]), int(saved.play["seed"])
        if given is not None and given != seats:
            found.append(f"--players {args.players}: the record seats {','.join(seats)}")
        if args.seed is not None and args.seed != seed:
            found.append(f"--seed {args.seed}: the game's seed is {seed}")
    else:
        if given is not None and len(given) != players:
            found.append(f"--players names {len(given)} seats for a game of {players} players")
        seats, seed = given or (HUMAN,) * players, seed_of(args)
        if given is None:
            console.say(f"the record does not say who plays: {players} human seats (see --players)")
    if found:
        raise UsageError(f"the record {args.resume} says otherwise: " + "; ".join(found))
    known = (HUMAN, *game.bots())
    unknown = [s for s in seats if s not in known]
    if unknown:
        raise UsageError(
            f"the record seats {quoted(unknown[0])}, which is not one of {', '.join(known)}"
        )
    return seats, seed


def say_resumed(
    path: Path, torn: bytes | None, actions: int, seats: Sequence[str], seed: int, console: Any
) -> None:
    """Say what was read back: a torn last line dropped, the actions, seats and seed."""
    if torn is not None:
        report_warning(
            "play",
            f"the last line of {path} was cut short while it was written and is dropped "
            f"({len(torn.decode('utf-8', 'replace'))} characters); "
            f"the {actions} actions before it are kept",
        )
    console.say(
        f"resuming {path}: {actions} actions; seats "
        + ", ".join(f"{p} {name}" for p, name in enumerate(seats))
        + f"; seed {seed}"
    )
