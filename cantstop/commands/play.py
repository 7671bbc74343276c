"""The ``play`` command: a new game or a resumed one, its record, and the terminal game.

The game itself is :func:`cantstop.play.play`; this module reads the options,
opens or resumes the game record (``spec/record.md``) and reports what the
record or the options get wrong.  ``--game NAME`` plays another game
(:mod:`cantstop.commands.games`) through the layer's terminal game,
:func:`dicekit.play.play`, with the same seats, seed, record and delay;
Can't Stop's rules options and ``--resume`` are Can't Stop's alone.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import shlex
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cantstop.commands.games import DEFAULT, add_game_option, load_game
from cantstop.commands.options import (
    add_command,
    add_players_option,
    add_seed_option,
    bot_names,
    examples,
    int_option,
    player_names,
    seconds_option,
)
from cantstop.commands.report import UsageError, quoted, report_warning
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
from cantstop.savedgames import Replay, SavedGame, create_in_folder, create_record, games_folder
from cantstop.state import Phase, State, new_game
from dicekit import play as layer
from dicekit import record as layer_record
from dicekit.errors import GameError

__all__ = ["add_commands"]


def _seats(names: Sequence[str]) -> list[Player | None]:
    return [None if n == HUMAN else PLAYERS[n]() for n in names]


def _seat_names(text: str) -> tuple[str, ...]:
    return player_names(text, human=True)


def _use_color(choice: str, stream: TextIO) -> bool:
    if choice != "auto":
        return choice == "always"
    return stream.isatty() and not os.environ.get("NO_COLOR")


def _continue_hint(path: Path) -> str:
    """Return the exact command that continues the game saved at ``path``."""
    return f"cantstop play --resume {shlex.quote(os.path.abspath(path))}"


def _file_argument(path: Path, option: str) -> None:
    """Refuse a ``path`` that stands for stdin or stdout, or names a folder."""
    if str(path) == "-":
        raise UsageError(f"{option} takes a file; - (stdin or stdout) is not supported here")
    if path.is_dir():
        raise UsageError(f"{option} takes a file, and {path} is a folder")


@dataclass
class _Game:
    """A game ready to play: where it stands and where it is written."""

    state: State
    seats: tuple[str, ...]
    seed: int
    path: Path
    file: TextIO
    writer: RecordWriter
    played: int


def _open_new(path: Path, force: bool) -> TextIO:
    try:
        return create_record(path, replace=force)
    except FileExistsError:
        raise UsageError(
            f"{path} exists; give --force to replace it, "
            f"or continue its game with: {_continue_hint(path)}"
        ) from None
    except OSError as exc:
        raise UsageError(f"cannot create the record {path}: {exc.strerror or exc}") from None


def _open_in_games_folder() -> tuple[Path, TextIO]:
    folder = games_folder()
    try:
        return create_in_folder(folder)
    except FileExistsError:
        raise UsageError(f"cannot find a free file name in {folder}") from None


def _seed(args: argparse.Namespace) -> int:
    """Return the seed the options give, or a fresh one from the system."""
    return args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)


def _open_record(args: argparse.Namespace) -> tuple[Path, TextIO]:
    """Open the new game's record: ``--record FILE``, or a new file in the games folder."""
    if args.record is not None:
        _file_argument(args.record, "--record")
        return args.record, _open_new(args.record, args.force)
    return _open_in_games_folder()


def _new_game(args: argparse.Namespace) -> _Game:
    seats = _seat_names(args.players if args.players is not None else f"{HUMAN},rule28")
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
    seed = _seed(args)
    path, file = _open_record(args)
    setup = PlaySetup(seats, seed)
    writer = RecordWriter(file, rules, first_player=first, play=setup)
    return _Game(state, seats, seed, path, file, writer, 0)


def _contradictions(args: argparse.Namespace, header: RecordHeader) -> list[str]:
    """Return the options given with ``--resume`` that the record contradicts, with reasons."""
    found = []
    rules = header.rules
    if args.record is not None:
        found.append("--record names the file of a new game; a resumed game stays in its record")
    if args.force:
        found.append("--force applies to a new game's --record")
    if args.first_player is not None and args.first_player != header.first_player:
        found.append(
            f"--first-player {args.first_player}: the game was begun by "
            f"player {header.first_player}"
        )
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
        if args.players is not None and _seat_names(args.players) != header.play.seats:
            found.append(
                f"--players {args.players}: the record seats {','.join(header.play.seats)}"
            )
        if args.seed is not None and args.seed != header.play.seed:
            found.append(f"--seed {args.seed}: the game's seed is {header.play.seed}")
    elif args.players is not None and len(_seat_names(args.players)) != rules.players:
        found.append(
            f"--players names {len(_seat_names(args.players))} seats for a game of "
            f"{rules.players} players"
        )
    return found


def _check_resumable(path: Path) -> None:
    """Refuse a ``--resume`` path that is missing, a folder, or a device, pipe or socket."""
    _file_argument(path, "--resume")
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


def _resume(args: argparse.Namespace, console: Console) -> _Game | None:
    """Load the game of ``args.resume``; return it ready to go on, or ``None`` if it is over."""
    path: Path = args.resume
    _check_resumable(path)
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
    if replay.torn is not None:
        report_warning(
            "play",
            f"the last line of {path} was cut short while it was written and is dropped "
            f"({len(replay.torn.decode('utf-8', 'replace'))} characters); "
            f"the {replay.actions} actions before it are kept",
        )
    console.say(
        f"resuming {path}: {replay.actions} actions; seats "
        + ", ".join(f"{p} {name}" for p, name in enumerate(seats))
        + f"; seed {seed}"
    )
    state = replay.state
    if state.phase is Phase.OVER:
        _keep_finished(path, replay, header)
        console.say(draw_board(state, console))
        winner = state.player  # the player who won is the one to move in the final state
        console.say(f"this game is over: player {winner} ({seats[winner]}) won")
        return None
    file, writer = _written(path, replay)
    return _Game(state, seats, seed, path, file, writer, replay.actions)


def _setup(
    args: argparse.Namespace, header: RecordHeader, console: Console
) -> tuple[tuple[str, ...], int]:
    """Return the seats and the seed of a resumed game: the record's, or the options'."""
    if header.play is not None:
        seats, seed = header.play.seats, header.play.seed
    else:
        n = header.rules.players
        seats = _seat_names(args.players) if args.players is not None else (HUMAN,) * n
        seed = _seed(args)
        if args.players is None:
            console.say(f"the record does not say who plays: {n} human seats (see --players)")
    unknown = [s for s in seats if s != HUMAN and s not in PLAYERS]
    if unknown:
        raise UsageError(
            f"the record seats {quoted(unknown[0])}, which is not one of "
            f"{', '.join((HUMAN, *PLAYERS))}"
        )
    return seats, seed


def _written(path: Path, replay: Replay) -> tuple[TextIO, RecordWriter]:
    """Put a replayed record in its place; a file that cannot be written is a usage error."""
    try:
        return replay.keep()
    except OSError as exc:
        raise UsageError(f"cannot write the record {path}: {exc.strerror or exc}") from None


def _keep_finished(path: Path, replay: Replay, header: RecordHeader) -> None:
    """Leave a finished game's record as it is, but for a torn last line, which goes."""
    if replay.torn is None:
        replay.discard()
    elif header.play is not None:
        _written(path, replay)[0].close()
    else:
        # The header said nothing of the seats: the repaired record says nothing either.
        replay.discard()
        with SavedGame(path) as saved:
            _written(path, saved.replay(None))[0].close()


#: The options of ``play`` that set Can't Stop's rules or read its records.
_CANT_STOP_ONLY = (
    ("resume", "--resume"),
    ("columns_to_win", "--columns-to-win"),
    ("variant", "--variant"),
)


def _play_game(args: argparse.Namespace) -> int:
    """Play a game other than Can't Stop in the terminal, through the layer."""
    game = load_game(args.game)
    for field, option in _CANT_STOP_ONLY:
        if getattr(args, field) is not None:
            raise UsageError(f"{option} is an option of Can't Stop; {game.info.title} has none")
    seats = bot_names(game, args.players, human=True)
    try:
        config = game.config(len(seats))
        first = 0 if args.first_player is None else args.first_player
        state = game.new_game(config, first)
    except GameError as exc:
        raise UsageError(f"these options do not make a game: {exc}") from None
    seed = _seed(args)
    path, file = _open_record(args)
    makers = game.bots()
    bots = [None if name == HUMAN else makers[name]() for name in seats]
    console = layer.Console(sys.stdin, sys.stdout)
    with file:
        writer = layer_record.RecordWriter(
            file, game, config, first_player=first, play={"seats": list(seats), "seed": seed}
        )
        console.say(f"{game.info.title}; game record: {path} (seed {seed})")
        console.say("type help at a prompt for the commands, q to leave")
        try:
            final = layer.play(game, state, bots, seats, seed, console, writer, args.delay)
        except KeyboardInterrupt:
            console.say()
            console.say(f"game interrupted; its actions so far are recorded in {path}")
            raise
    if game.is_over(final):
        console.say(f"the game is recorded in {path}")
    else:
        console.say(f"the game so far is recorded in {path}")
    return 0


def _play(args: argparse.Namespace) -> int:
    if isinstance(sys.stdin, io.TextIOWrapper) and sys.stdin.errors == "strict":
        # An answer that is not text in the terminal's encoding is read as not a choice.
        sys.stdin.reconfigure(errors="replace")
    if args.game != DEFAULT:
        return _play_game(args)
    console = Console(sys.stdin, sys.stdout, _use_color(args.color, sys.stdout))
    if args.resume is not None:
        game = _resume(args, console)
        if game is None:
            return 0
    else:
        game = _new_game(args)
    with game.file:
        console.say(f"game record: {game.path} (seed {game.seed})")
        console.say("type help at a prompt for the commands, q to save and leave")
        try:
            final = play(
                game.state,
                _seats(game.seats),
                game.seed,
                console,
                game.writer,
                args.delay,
                game.played,
            )
        except KeyboardInterrupt:
            console.say()
            hint = _continue_hint(game.path)
            console.say(f"game interrupted and saved; continue it with: {hint}")
            raise
    if final.phase is not Phase.OVER:
        console.say(f"the game is saved; continue it with: {_continue_hint(game.path)}")
    else:
        console.say(f"the game is recorded in {game.path}")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    p = add_command(sub, "play", _play, "play a game in the terminal")
    add_players_option(p, f"{HUMAN},rule28", human=True)
    add_seed_option(p, "the dice and of the built-in players", default=None)
    p.add_argument(
        "--record",
        type=Path,
        default=None,
        metavar="FILE",
        help="the file of the game record (a new file)",
    )
    p.add_argument("--force", action="store_true", help="let --record replace a file that exists")
    p.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="FILE",
        help="continue the game in this record, with its seats, rules and seed",
    )
    p.add_argument(
        "--first-player",
        type=int_option(0, 3),
        default=None,
        metavar="N",
        help="the player who begins (R2.2; default: 0)",
    )
    p.add_argument(
        "--columns-to-win",
        type=int_option(1, 11),
        default=None,
        metavar="N",
        help="columns needed to win (R12.1; default: 3)",
    )
    p.add_argument("--variant", choices=["A", "B"], default=None, help="play a variant (R14)")
    p.add_argument(
        "--delay",
        type=seconds_option(60),
        default=0.0,
        metavar="SECONDS",
        help="seconds to pause after a built-in player's decision (0 to 60)",
    )
    p.add_argument(
        "--color", choices=["auto", "always", "never"], default="auto", help="colour output"
    )
    add_game_option(p)
    p.description = (
        "Play Can't Stop in the terminal, against built-in players or other people "
        "at the same keyboard. Every action is saved at once to a game record "
        "(spec/record.md) that holds the seats, the rules and the seed; "
        "--resume FILE continues the game. Without --record the record goes to the "
        "per-user data folder: $XDG_DATA_HOME/cantstop/games (default "
        "~/.local/share/cantstop/games) on Linux, ~/Library/Application Support/"
        "cantstop/games on macOS, %LOCALAPPDATA%\\cantstop\\games on Windows."
    )
    p.epilog = examples(
        "cantstop play --players human,greedy --seed 7",
        "cantstop play --game finishline --players human,racer",
    )
