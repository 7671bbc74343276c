"""``cantstop play``: a game in the terminal, for 1 to 4 seats, human or built-in.

The board (the mountain of columns) is drawn with a legend and the position in
notation, in colour when the output is a terminal and ``NO_COLOR`` is not set.
A person chooses a move by its letter (``a``, ``b``, ...) or by writing its sums
in any order (``7+10``, ``10+7``, ``7 10``); ``odds`` shows, for each choice,
the exact chance of busting on the roll after it, and ``help`` lists the
commands.  Before each decision to roll again the exact chance of busting is
shown (:func:`cantstop.odds.bust_probability`).

Every game is kept.  Each action is appended to a game record
(``spec/record.md``) at once, the record is forced to the disk before every
question to a person (a built-in player's actions lost in a crash come again
the same from the seed), and the
record's header holds the seats, the rules and the seed, so ``cantstop play
--resume FILE`` continues the game exactly: the same seats, and the same dice
and built-in players' choices the game would have had without the pause.
Action ``n`` of a game (counted from 0) draws from
``random.Random(f"{seed}/{n}")``.  ``--record FILE`` names the record and never
replaces an existing file without ``--force``; without it the record goes to
the per-user folder of :func:`games_folder`.  A line cut short by a crash
while it was written is dropped, with a warning, when the game is resumed.

>>> import io
>>> from cantstop.players import Rule28Player
>>> out = io.StringIO()
>>> final = play(
...     new_game(Rules(players=2)),
...     [Rule28Player(), Rule28Player()],
...     4,
...     Console(io.StringIO(), out, color=False),
... )
>>> final.phase is Phase.OVER, "wins" in out.getvalue()
(True, True)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cantstop.actions import Action, Move, Stop
from cantstop.cli import UsageError, int_option, seconds_option
from cantstop.errors import CantStopError
from cantstop.game import Event, Phase, State, new_game
from cantstop.notation import format_action, format_state
from cantstop.odds import bust_probability, format_percent
from cantstop.players import PLAYERS, Player, may_stop
from cantstop.record import (
    MAX_SEED,
    PlaySetup,
    RecordError,
    RecordHeader,
    RecordWriter,
    check_line,
    read_header,
)
from cantstop.rules import COLUMNS, Rules, Variant
from cantstop.simulate import roll_dice
from cantstop.text import MARKER, board_lines, legend

__all__ = [
    "HUMAN",
    "Console",
    "add_commands",
    "draw_board",
    "games_folder",
    "play",
    "read_move",
]

#: The seat name of a person at the keyboard.
HUMAN = "human"

#: ANSI colours of players 0 to 3: red, blue, green, yellow.
_PLAYER_COLOURS = ("31", "34", "32", "33")
_BOLD = "1"
_DIM = "2"
_RESET = "\033[0m"
_QUIT = {"q", "quit", "exit"}
_HELP = {"help", "h"}
#: The keys of the choices of a roll: letters, which no column number can be mistaken for.
_KEYS = "abcdefghijklmnop"


class _Quit(Exception):
    """The person asked to leave the game (or the input ended)."""


@dataclass
class Console:
    """Where the game reads answers and writes the story; ``color`` turns ANSI colour on."""

    input: TextIO
    output: TextIO
    color: bool = False

    def paint(self, text: str, code: str) -> str:
        """Return ``text`` in the ANSI colour ``code`` when colour is on."""
        return f"\033[{code}m{text}{_RESET}" if self.color and text else text

    def mark(self, text: str, owner: int | str | None) -> str:
        """Paint one mark of the board: a player's colour, bold for a marker, dim for empty."""
        if isinstance(owner, int):
            return self.paint(text, _PLAYER_COLOURS[owner])
        return self.paint(text, _BOLD if owner == MARKER else _DIM)

    def say(self, text: str = "") -> None:
        """Write one line."""
        self.output.write(text + "\n")
        self.output.flush()

    def ask(self, prompt: str) -> str:
        """Ask a question; return the stripped answer, or raise :class:`_Quit`."""
        self.output.write(prompt)
        self.output.flush()
        line = self.input.readline()
        if not line:
            self.say()
            raise _Quit
        answer = line.strip()
        if answer.lower() in _QUIT:
            raise _Quit
        return answer


def draw_board(state: State, console: Console) -> str:
    """Return a picture of the board with its legend and the position in notation.

    The board is :func:`cantstop.text.board_lines`, painted when the console
    has colour: each player's squares in their colour, markers bold.  The last
    line is the state in notation, ready for ``cantstop odds`` or ``cantstop
    show``.

    >>> import io
    >>> from cantstop import parse_state
    >>> console = Console(io.StringIO(), io.StringIO())
    >>> print(draw_board(parse_state('2:3/3:1 4:1 1d h2:3,3:2,4:2 w2'), console))
         2   3   4
      3  0
      2  .   .   .
      1  .   1   ^
         *0
    legend: 0 1 squares of players 0 and 1, ^ neutral marker, . empty space, *N won by player N
    position: 2:3/3:1 4:1 1d h2:3,3:2,4:2 w2
    """
    lines = board_lines(state, console.mark)
    lines.append(legend(state.rules.players, console.mark))
    lines.append(f"position: {format_state(state)}")
    return "\n".join(lines)


def _name(seats: Sequence[Player | None], player: int) -> str:
    seat = seats[player]
    return f"player {player} ({HUMAN if seat is None else seat.name})"


_SUMS = re.compile(r"\d+(?:\s*[+,\s]\s*\d+)*")


def read_move(text: str, moves: Sequence[Move]) -> Move | str:
    """Return the move among ``moves`` that ``text`` names, or a message saying why none is.

    ``text`` is the letter of a choice (``a`` for the first) or the move's
    sums in any order and spacing: ``7+10``, ``10+7``, ``7 10`` and
    ``7, 10`` all name the same move.  A number is always a column, never a
    position in the list.

    >>> moves = (Move((4,)), Move((5,)), Move((7, 7)), Move((9,)), Move((10,)))
    >>> read_move('4', moves), read_move('D', moves), read_move('7 + 7', moves)
    (Move(columns=(4,)), Move(columns=(9,)), Move(columns=(7, 7)))
    >>> read_move('4+5', moves)
    '4+5 is not a choice with these dice; the choices are a) 4  b) 5  c) 7+7  d) 9  e) 10'
    """
    keys = _KEYS[: len(moves)]
    answer = text.strip().lower()
    if len(answer) == 1 and answer in keys:
        return moves[keys.index(answer)]
    if _SUMS.fullmatch(answer):
        numbers = re.findall(r"\d+", answer)
        wrong = [n for n in numbers if len(n) > 2 or int(n) not in COLUMNS]
        if wrong:
            return f"{wrong[0][:6]} is not a column: the sum of two dice is 2 to 12"
        if len(numbers) > 2:
            return f"{answer!r} names {len(numbers)} sums; a move plays one or two (rule R4.3)"
        sums = [int(n) for n in numbers]
        move = Move((sums[0],)) if len(sums) == 1 else Move((sums[0], sums[1]))
        if move in moves:
            return move
        return (
            f"{format_action(move)} is not a choice with these dice; "
            f"the choices are {_listing(moves)}"
        )
    letters = "a" if len(keys) == 1 else f"a letter from a to {keys[-1]}"
    return (
        f"{text.strip()[:30]!r} is not a choice: type {letters}, "
        f"a move such as {format_action(moves[-1])}, or help"
    )


def _listing(moves: Sequence[Move]) -> str:
    return "  ".join(f"{key}) {format_action(m)}" for key, m in zip(_KEYS, moves, strict=False))


def _commands(rows: Sequence[tuple[str, str]]) -> str:
    return "\n".join(["  commands:", *(f"    {keys:<16}{what}" for keys, what in rows)])


def _choose_help(state: State) -> str:
    last = _KEYS[len(state.legal_moves()) - 1]
    return _commands(
        [
            ("a" if last == "a" else f"a to {last}", "play the choice with that letter"),
            ("7+10, 10 7", "play a move by its sums, in any order"),
            ("odds", "the chance of busting on the roll after each choice"),
            ("board", "draw the board again"),
            ("?", "why these choices: each pairing of the dice, explained"),
            ("help", "this list"),
            ("q", "save the game and leave"),
        ]
    )


def _decide_help() -> str:
    return _commands(
        [
            ("r, roll", "roll again"),
            ("s, stop", "stop: the markers become your squares"),
            ("odds", "the chance of busting on the next roll"),
            ("board", "draw the board again"),
            ("help, ?", "this list"),
            ("q", "save the game and leave"),
        ]
    )


def _explain(state: State) -> str:
    """Return what ``?`` shows at a choice: the roll explained by :func:`cantstop.explain`."""
    from cantstop.explanation import explain

    lines = explain(state).text().splitlines()
    return "\n".join(["", *(f"  {line}" for line in lines), "  (help lists the commands)"])


def _chance(state: State) -> str:
    """Return the exact chance of busting on the next roll, as rolls and a percentage."""
    bust = bust_probability(state)
    return f"{bust * 1296} of the 1296 rolls ({format_percent(bust)})"


def _choice_odds(state: State) -> str:
    moves = state.legal_moves()
    width = max(len(format_action(m)) for m in moves)
    lines = ["  chance of busting on the roll after each choice:"]
    for key, move in zip(_KEYS, moves, strict=False):
        lines.append(f"    {key}) {format_action(move):<{width}}  {_chance(state.apply(move))}")
    return "\n".join(lines)


def _choose(state: State, console: Console) -> Move:
    moves = state.legal_moves()
    console.say("  " + _listing(moves))
    keys = _KEYS[: len(moves)]
    prompt = f"  your move [{keys[0]}-{keys[-1]}]: " if len(keys) > 1 else "  your move [a]: "
    while True:
        answer = console.ask(prompt)
        command = answer.lower()
        if command == "?":
            console.say(_explain(state))
        elif command in _HELP:
            console.say(_choose_help(state))
        elif command == "odds":
            console.say(_choice_odds(state))
        elif command == "board":
            console.say(draw_board(state, console))
        else:
            found = read_move(answer, moves)
            if isinstance(found, Move):
                return found
            console.say(f"  {found}")


def _decide(state: State, console: Console) -> bool:
    """Ask whether to stop; return True to stop."""
    allowed = may_stop(state)
    while True:
        answer = console.ask("  roll again or stop? [r/s]: ").lower()
        if answer in ("r", "roll"):
            return False
        if answer in ("s", "stop"):
            if allowed:
                return True
            console.say(
                "  under Variant B you may not stop while a marker shares a space "
                "with another player's square (rule R14.2): roll again"
            )
        elif answer in _HELP or answer == "?":
            console.say(_decide_help())
        elif answer == "odds":
            console.say(_odds_line(state))
        elif answer == "board":
            console.say(draw_board(state, console))
        else:
            console.say(
                f"  {answer[:30]!r} is not a choice: type r to roll again, s to stop, "
                "help for the commands"
            )


def _odds_line(state: State) -> str:
    if not bust_probability(state):
        return "  no roll can bust now"
    return f"  chance of busting on the next roll: {_chance(state)}"


def play(
    state: State,
    seats: Sequence[Player | None],
    seed: int,
    console: Console,
    writer: RecordWriter | None = None,
    delay: float = 0.0,
    played: int = 0,
) -> State:
    """Play from ``state`` until the game ends or a human quits; return the last state.

    ``seats`` holds a built-in player, or ``None`` for a human, for each
    player.  ``played`` is the number of actions the game has had before
    ``state``; action ``n`` takes its dice, or its built-in player's draws,
    from ``random.Random(f"{seed}/{n}")``, so a game continued later goes on
    as it would have without the pause.  Each action is appended to
    ``writer``.  Ctrl-C (:class:`KeyboardInterrupt`) is passed on, after the
    actions so far have been written.
    """
    try:
        while state.phase is not Phase.OVER:
            me = seats[state.player]
            rng = random.Random(f"{seed}/{played}")
            action: Action
            if state.phase is Phase.ROLL:
                console.say()
                console.say(draw_board(state, console))
                console.say(console.paint(f"{_name(seats, state.player)} to play", _BOLD))
                action = roll_dice(rng)
            elif state.phase is Phase.CHOOSE:
                dice = " ".join(map(str, state.dice or ()))
                console.say(f"  dice: {console.paint(dice, _BOLD)}")
                if me is None:
                    _save(writer)
                    action = _choose(state, console)
                else:
                    action = me.choose(state, rng)
                    console.say(f"  {me.name} plays {format_action(action)}")
            else:
                if me is None:
                    console.say(draw_board(state, console))
                console.say(_odds_line(state))
                if me is None:
                    _save(writer)
                    stops = _decide(state, console)
                else:
                    stops = me.stops(state, rng) and may_stop(state)
                    console.say(f"  {me.name} {'stops' if stops else 'rolls again'}")
                    if delay:
                        time.sleep(delay)
                action = Stop() if stops else roll_dice(rng)
            state, event = state.step(action)
            played += 1
            if writer is not None:
                writer.append(action, state)
            if event is Event.BUSTED:
                console.say(console.paint("  bust! the markers come off", _BOLD))
            elif event is Event.WON:
                console.say()
                console.say(draw_board(state, console))
                console.say(console.paint(f"{_name(seats, state.player)} wins!", _BOLD))
    except _Quit:
        console.say("game left unfinished")
    finally:
        _save(writer)
    return state


def _save(writer: RecordWriter | None) -> None:
    """Force the record to the disk: before every question to a person, and at the end.

    A built-in player's actions between two questions need no more: lost in a
    crash, they come again the same on resume, from the same seed.
    """
    if writer is not None:
        with contextlib.suppress(io.UnsupportedOperation):  # a record in memory has no disk
            writer.sync()


def games_folder() -> Path:
    r"""Return the per-user folder where ``cantstop play`` keeps games started without ``--record``.

    It follows the platform's convention for application data, with
    ``cantstop/games`` inside:

    - Linux and other Unix systems: ``$XDG_DATA_HOME/cantstop/games``, and
      ``~/.local/share/cantstop/games`` when ``XDG_DATA_HOME`` is unset or not
      an absolute path (the XDG Base Directory convention);
    - macOS: ``~/Library/Application Support/cantstop/games``;
    - Windows: ``%LOCALAPPDATA%\cantstop\games``.

    >>> games_folder().parts[-2:]
    ('cantstop', 'games')
    """
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share"
    return base / "cantstop" / "games"


def _seats(names: Sequence[str]) -> list[Player | None]:
    return [None if n == HUMAN else PLAYERS[n]() for n in names]


def _seat_names(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(","))
    kinds = (HUMAN, *PLAYERS)
    if not 1 <= len(names) <= 4 or any(n not in kinds for n in names):
        raise UsageError(
            f"--players takes 1 to 4 of {', '.join(kinds)}, comma-separated; got {text[:60]!r}"
        )
    return names


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
        return path.open("w" if force else "x", encoding="utf-8")
    except FileExistsError:
        raise UsageError(
            f"{path} exists; give --force to replace it, "
            f"or continue its game with: {_continue_hint(path)}"
        ) from None
    except OSError as exc:
        raise UsageError(f"cannot create the record {path}: {exc.strerror or exc}") from None


def _open_in_games_folder() -> tuple[Path, TextIO]:
    folder = games_folder()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        path = folder / (f"game-{stamp}.jsonl" if n == 1 else f"game-{stamp}-{n}.jsonl")
        try:
            return path, path.open("x", encoding="utf-8")
        except FileExistsError:
            continue
    raise UsageError(f"cannot find a free file name in {folder}")


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
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    if args.record is not None:
        _file_argument(args.record, "--record")
        path, file = args.record, _open_new(args.record, args.force)
    else:
        path, file = _open_in_games_folder()
    setup = PlaySetup(seats, seed)
    writer = RecordWriter(file, rules, first_player=first, play=setup)
    return _Game(state, seats, seed, path, file, writer, 0)


def _read_lines(path: Path) -> tuple[str, str | None]:
    """Return the text of the record at ``path`` and the torn last line, if there is one.

    A line is written whole, newline last, so a last line without its newline
    that is not a JSON value was cut short by a crash: it is split off.
    """
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        if b"\n" not in raw[exc.start :]:
            # The tear cut a character in two: only the last line is affected.
            text = raw[: raw.rfind(b"\n") + 1].decode("utf-8", errors="strict")
            return text, raw[raw.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")
        raise RecordError(line, f"not UTF-8 text: {exc.reason}") from None
    head, _, last = text.rpartition("\n")
    if last.strip():
        try:
            json.loads(last)
        except (ValueError, RecursionError):
            return head + "\n" if head else "", last
    return text, None


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


def _resume(args: argparse.Namespace, console: Console) -> _Game | None:
    """Load the game of ``args.resume``; return it ready to go on, or ``None`` if it is over."""
    path: Path = args.resume
    _file_argument(path, "--resume")
    if not path.exists():
        raise UsageError(f"no such record: {path}")
    try:
        text, torn = _read_lines(path)
        header, lines = read_header(io.StringIO(text))
        problems = _contradictions(args, header)
        if problems:
            raise UsageError(f"the record {path} says otherwise: " + "; ".join(problems))
        state = new_game(header.rules, header.first_player)
        actions: list[Action] = []
        for line in lines:
            state = check_line(state, line)
            actions.append(line.action)
    except OSError as exc:
        raise UsageError(f"cannot read the record {path}: {exc.strerror or exc}") from None
    except RecordError as exc:
        raise CantStopError(f"{path}: {exc}") from None
    if torn is not None:
        print(
            f"cantstop play: warning: the last line of {path} was cut short while it was "
            f"written and is dropped ({len(torn)} characters); the {len(actions)} actions "
            "before it are kept",
            file=sys.stderr,
        )
    if header.play is not None:
        seats, seed = header.play.seats, header.play.seed
    else:
        n = header.rules.players
        seats = _seat_names(args.players) if args.players is not None else (HUMAN,) * n
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        if args.players is None:
            console.say(f"the record does not say who plays: {n} human seats (see --players)")
    unknown = [s for s in seats if s != HUMAN and s not in PLAYERS]
    if unknown:
        raise UsageError(
            f"the record seats {unknown[0]!r}, which is not one of {', '.join((HUMAN, *PLAYERS))}"
        )
    console.say(
        f"resuming {path}: {len(actions)} actions; seats "
        + ", ".join(f"{p} {name}" for p, name in enumerate(seats))
        + f"; seed {seed}"
    )
    if state.phase is Phase.OVER:
        if torn is not None:
            _rewrite(path, header, actions, header.play)[0].close()
        console.say(draw_board(state, console))
        winner = state.player  # the player who won is the one to move in the final state
        console.say(f"this game is over: player {winner} ({seats[winner]}) won")
        return None
    file, writer = _rewrite(path, header, actions, PlaySetup(seats, seed))
    return _Game(state, seats, seed, path, file, writer, len(actions))


def _rewrite(
    path: Path, header: RecordHeader, actions: Sequence[Action], setup: PlaySetup | None
) -> tuple[TextIO, RecordWriter]:
    """Write the record afresh beside ``path`` and put it in its place; keep it open to append.

    The new file has every claim and the header's ``play`` field; it takes
    the old one's place in one step (``os.replace``), so a crash leaves one
    or the other whole.
    """
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    out = os.fdopen(handle, "w", encoding="utf-8")
    try:
        shutil.copymode(path, tmp)
        writer = RecordWriter(out, header.rules, first_player=header.first_player, play=setup)
        state = new_game(header.rules, header.first_player)
        for action in actions:
            state = state.apply(action)
            writer.append(action, state)
        writer.sync()
        os.replace(tmp, path)
    except BaseException:
        out.close()
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _sync_folder(path.parent)
    return out, writer


def _sync_folder(folder: Path) -> None:
    """Force a folder's entries (a file just renamed into it) to the disk, where possible."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename itself is still atomic
    finally:
        os.close(fd)


def _run(args: argparse.Namespace) -> int:
    console = Console(sys.stdin, sys.stdout, _use_color(args.color, sys.stdout))
    if args.resume is not None:
        game = _resume(args, console)
        if game is None:
            return 0
        # A turn begins with the board, and so does a person's decision to roll or stop.
        state = game.state
        if state.phase is Phase.CHOOSE or (
            state.phase is Phase.DECIDE and game.seats[state.player] != HUMAN
        ):
            console.say(draw_board(state, console))
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
    p = sub.add_parser(
        "play",
        help="play a game in the terminal",
        description="Play Can't Stop in the terminal, against built-in players or other people "
        "at the same keyboard. Every action is saved at once to a game record "
        "(spec/record.md) that holds the seats, the rules and the seed; "
        "--resume FILE continues the game. Without --record the record goes to the "
        "per-user data folder: $XDG_DATA_HOME/cantstop/games (default "
        "~/.local/share/cantstop/games) on Linux, ~/Library/Application Support/"
        "cantstop/games on macOS, %LOCALAPPDATA%\\cantstop\\games on Windows.",
        epilog="example: cantstop play --players human,greedy --seed 7",
    )
    p.add_argument(
        "--players",
        default=None,
        help=f"comma-separated seats, each {HUMAN} or one of {', '.join(PLAYERS)} "
        f"(default: {HUMAN},rule28)",
    )
    p.add_argument(
        "--seed",
        type=int_option(0, MAX_SEED),
        default=None,
        help="seed of the dice and of the built-in players (default: random)",
    )
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
    p.set_defaults(run=_run)
