"""The ``play`` command: a new game or a resumed one, its record, and the terminal game.

Every game is played alike: ``--game NAME`` picks the game
(:mod:`cantstop.commands.games`), and a game that plays its own way
(:meth:`dicekit.commandline.CommandHooks.run`, Can't Stop's terminal game
and records among them) is handed the command; any other is played by the
layer's terminal game, :func:`dicekit.play.play`, with the same seats,
seed, record and delay (:mod:`cantstop.commands.playany`).  ``--resume
FILE`` plays on any game's record: one whose header names its game is
played on by that game, one that names none by the game of the records from
before the layer's format
(:func:`~cantstop.commands.games.unnamed_record_game`).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from cantstop.commands.games import (
    add_game_option,
    add_own_options,
    default_game,
    hooks,
    load_game,
    unnamed_record_game,
)
from cantstop.commands.options import (
    add_command,
    add_players_option,
    add_seed_option,
    default_seats,
    examples,
    int_option,
    seconds_option,
)
from cantstop.commands.playany import (
    check_resumable,
    named_game,
    play_game,
    resume_game,
)
from cantstop.commands.report import UsageError

__all__ = ["add_commands"]


def _play(args: argparse.Namespace) -> int:
    if isinstance(sys.stdin, io.TextIOWrapper) and sys.stdin.errors == "strict":
        # An answer that is not text in the terminal's encoding is read as not a choice.
        sys.stdin.reconfigure(errors="replace")
    if args.resume is not None:
        check_resumable(args.resume)
        named = named_game(args.resume)
        if named is not None:
            return resume_game(args, named)
        game = unnamed_record_game()
        if args.game != game.info.name:
            raise UsageError(
                f"--game {args.game}, but the header of {args.resume} names no game "
                f"(a {game.info.title} record)"
            )
    else:
        game = load_game(args.game)
    own = hooks(game).run("play", args)
    if own is not None:
        return own
    return resume_game(args, game.info.name) if args.resume is not None else play_game(args)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    p = add_command(sub, "play", _play, "play a game in the terminal")
    add_players_option(p, default_seats(default_game(), "play", human=True), human=True)
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
        help="continue the game in this record (of any game), with its seats, rules and seed",
    )
    p.add_argument(
        "--first-player",
        type=int_option(0, 3),
        default=None,
        metavar="N",
        help="the player who begins (R2.2; default: 0)",
    )
    add_own_options("play", p)
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
        f"Play {default_game().info.title} in the terminal, against built-in players or other "
        "people at the same keyboard. Every action is saved at once to a game record "
        "(spec/record.md) that holds the seats, the rules and the seed; "
        "--resume FILE continues the game, whichever game the record is of. "
        "Without --record the record goes to the "
        "per-user data folder: $XDG_DATA_HOME/cantstop/games (default "
        "~/.local/share/cantstop/games) on Linux, ~/Library/Application Support/"
        "cantstop/games on macOS, %LOCALAPPDATA%\\cantstop\\games on Windows."
    )
    p.epilog = examples(
        "cantstop play --players human,greedy --seed 7",
        "cantstop play --game finishline --players human,racer",
    )
