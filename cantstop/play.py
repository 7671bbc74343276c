"""``cantstop play``: a game in the terminal, for 1 to 4 seats, human or built-in.

The board (the mountain of columns) is drawn in colour when the output is a
terminal and ``NO_COLOR`` is not set.  Humans choose a move by its number or
its notation (``7+10``), and before each decision to roll again they see the
exact chance of busting (:func:`cantstop.odds.bust_probability`).  Every action
is appended to a game record (``spec/record.md``) and flushed at once, so a
game survives the process dying; ``--resume FILE`` picks it up again.

>>> import io
>>> from cantstop.players import Rule28Player
>>> out = io.StringIO()
>>> final = play(
...     new_game(Rules(players=2)),
...     [Rule28Player(), Rule28Player()],
...     random.Random(4),
...     Console(io.StringIO(), out, color=False),
... )
>>> final.phase is Phase.OVER, "wins" in out.getvalue()
(True, True)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cantstop.actions import Action, Move, Stop
from cantstop.errors import CantStopError
from cantstop.game import Event, Phase, State, new_game
from cantstop.notation import format_action, parse_action
from cantstop.odds import bust_probability
from cantstop.players import PLAYERS, Player, may_stop
from cantstop.record import RecordWriter, read_record
from cantstop.rules import Rules, Variant
from cantstop.simulate import roll_dice

__all__ = ["HUMAN", "Console", "add_commands", "draw_board", "play"]

#: The seat name of a person at the keyboard.
HUMAN = "human"

#: ANSI colours of players 0 to 3: red, blue, green, yellow.
_PLAYER_COLOURS = ("31", "34", "32", "33")
_RESET = "\033[0m"
_QUIT = {"q", "quit", "exit"}


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
        return f"\033[{code}m{text}{_RESET}" if self.color else text

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
    """Return a picture of the board: one line per space, top first, players in colour.

    A cell shows each player's square by their number and a neutral marker as
    ``^``; ``.`` is an empty space.  Below the columns, ``*N`` marks a column
    won by player N.

    >>> import io
    >>> from cantstop import parse_state
    >>> console = Console(io.StringIO(), io.StringIO())
    >>> print(draw_board(parse_state('2:3/3:1 4:1 1d h2:3,3:2,4:2 w2'), console))
         2   3   4
      3  0
      2  .   .   .
      1  .   1   ^
         *0
    """
    heights = state.rules.heights
    lines = ["   " + "".join(f"  {c:<2}" for c in heights).rstrip()]
    for row in range(max(heights.values()), 0, -1):
        cells = []
        for column, height in heights.items():
            if row > height:
                cells.append("    ")
                continue
            marks = [
                (str(p), _PLAYER_COLOURS[p])
                for p, squares in enumerate(state.squares)
                if squares.get(column) == row
            ]
            if state.markers.get(column) == row:
                marks.append(("^", "1"))
            if not marks:
                marks = [(".", "2")]
            text = "".join(console.paint(t, code) for t, code in marks)
            width = sum(len(t) for t, _ in marks)
            cells.append("  " + text + " " * max(0, 2 - width))
        lines.append(f"{row:>3}" + "".join(cells).rstrip())
    owners = [
        console.paint(f"*{state.won[c]}", _PLAYER_COLOURS[state.won[c]]) if c in state.won else "  "
        for c in heights
    ]
    if state.won:
        lines.append(("   " + "".join(f"  {o}" for o in owners)).rstrip())
    return "\n".join(lines)


def _name(seats: Sequence[Player | None], player: int) -> str:
    seat = seats[player]
    return f"player {player} ({HUMAN if seat is None else seat.name})"


def _choose(state: State, console: Console) -> Move:
    moves = state.legal_moves()
    console.say("  " + "   ".join(f"{i}) {format_action(m)}" for i, m in enumerate(moves, 1)))
    while True:
        answer = console.ask(f"  your move [1-{len(moves)}]: ")
        if answer.isdigit() and 1 <= int(answer) <= len(moves):
            return moves[int(answer) - 1]
        try:
            action = parse_action(answer)
        except CantStopError:
            action = None
        if isinstance(action, Move) and action in moves:
            return action
        if isinstance(action, Move):
            console.say(
                f"  {answer} is not legal with these dice; "
                f"the choices are {', '.join(format_action(m) for m in moves)}"
            )
        else:
            console.say(
                f"  {answer!r} is not a choice: type a number from 1 to {len(moves)}, "
                f"a move such as {format_action(moves[0])}, or q to quit"
            )


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
            continue
        console.say(f"  {answer!r} is not a choice: type r to roll again, s to stop, q to quit")


def _odds_line(state: State) -> str:
    bust = bust_probability(state)
    if not bust:
        return "  no roll can bust now"
    rolls = bust * 1296
    return f"  chance of busting on the next roll: {float(bust):.1%} ({rolls} of the 1296 rolls)"


def play(
    state: State,
    seats: Sequence[Player | None],
    rng: random.Random,
    console: Console,
    writer: RecordWriter | None = None,
    delay: float = 0.0,
) -> State:
    """Play from ``state`` until the game ends or a human quits; return the last state.

    ``seats`` holds a built-in player, or ``None`` for a human, for each
    player.  Dice come from ``rng``; each action is appended to ``writer``.
    """
    try:
        while state.phase is not Phase.OVER:
            me = seats[state.player]
            action: Action
            if state.phase is Phase.ROLL:
                console.say()
                console.say(draw_board(state, console))
                console.say(console.paint(f"{_name(seats, state.player)} to play", "1"))
                action = roll_dice(rng)
            elif state.phase is Phase.CHOOSE:
                dice = " ".join(map(str, state.dice or ()))
                console.say(f"  dice: {console.paint(dice, '1')}")
                if me is None:
                    action = _choose(state, console)
                else:
                    action = me.choose(state, rng)
                    console.say(f"  {me.name} plays {format_action(action)}")
            else:
                if me is None:
                    console.say(draw_board(state, console))
                console.say(_odds_line(state))
                if me is None:
                    stops = _decide(state, console)
                else:
                    stops = me.stops(state, rng) and may_stop(state)
                    console.say(f"  {me.name} {'stops' if stops else 'rolls again'}")
                    if delay:
                        time.sleep(delay)
                action = Stop() if stops else roll_dice(rng)
            state, event = state.step(action)
            if writer is not None:
                writer.append(action, state)
            if event is Event.BUSTED:
                console.say(console.paint("  bust! the markers come off", "1"))
            elif event is Event.WON:
                console.say()
                console.say(draw_board(state, console))
                console.say(console.paint(f"{_name(seats, state.player)} wins!", "1"))
    except (_Quit, KeyboardInterrupt):
        console.say("game left unfinished")
    return state


def _seats(text: str, players: int | None) -> list[Player | None]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    kinds = (HUMAN, *PLAYERS)
    if not names or any(n not in kinds for n in names) or len(names) > 4:
        raise ValueError(f"--players takes 1 to 4 of {', '.join(kinds)}, comma-separated")
    if players is not None and len(names) != players:
        raise ValueError(f"the record is a game for {players} players; name {players} seats")
    return [None if n == HUMAN else PLAYERS[n]() for n in names]


def _use_color(choice: str, stream: TextIO) -> bool:
    if choice != "auto":
        return choice == "always"
    return stream.isatty() and not os.environ.get("NO_COLOR")


def _resume(path: Path) -> tuple[State, RecordWriter, TextIO]:
    """Replay the record at ``path``; return its last state, a writer appending to it, its file.

    The record is written afresh, with every claim, to a file beside it that
    then takes its place; the writer keeps that file open to append the rest.
    """
    with path.open(encoding="utf-8") as file:
        rules, first, lines = read_record(file)
        actions = [action for _, action in lines]
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    out = os.fdopen(handle, "w", encoding="utf-8")
    try:
        writer = RecordWriter(out, rules, first_player=first)
        state = new_game(rules, first)
        for action in actions:
            state = state.apply(action)
            writer.append(action, state)
    except BaseException:
        out.close()
        os.unlink(tmp)
        raise
    os.replace(tmp, path)
    return state, writer, out


def _run(args: argparse.Namespace) -> int:
    console = Console(sys.stdin, sys.stdout, _use_color(args.color, sys.stdout))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    try:
        if args.resume is not None:
            if not args.resume.exists():
                print(f"cantstop play: no such record: {args.resume}", file=sys.stderr)
                return 2
            state, writer, file = _resume(args.resume)
            path = args.resume
            n = state.rules.players
            try:
                seats = _seats(args.players if args.players is not None else _human_seats(n), n)
            except ValueError:
                file.close()
                raise
            console.say(f"resuming {path} ({n} players)")
            if state.phase is Phase.OVER:
                console.say(draw_board(state, console))
                console.say(f"this game is over: player {state.winner} won")
        else:
            seats = _seats(args.players if args.players is not None else f"{HUMAN},rule28", None)
            variant = None if args.variant is None else Variant(args.variant)
            rules = Rules(players=len(seats), columns_to_win=args.columns_to_win, variant=variant)
            path = args.record or Path(time.strftime("cantstop-%Y%m%d-%H%M%S.jsonl"))
            state = new_game(rules, args.first_player)
            file = path.open("w", encoding="utf-8")
            writer = RecordWriter(file, rules, first_player=args.first_player)
    except CantStopError as exc:
        print(f"cantstop play: {args.resume or 'setup'}: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"cantstop play: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"cantstop play: cannot write the record: {exc}", file=sys.stderr)
        return 1
    with file:
        console.say(f"game record: {path} (seed {seed}); type q at a prompt to leave")
        final = play(state, seats, rng, console, writer, args.delay)
        if final.phase is not Phase.OVER:
            console.say(f"the game is saved; continue it with: cantstop play --resume {path}")
    return 0


def _human_seats(players: int) -> str:
    """Return the ``--players`` text of ``players`` human seats."""
    return ",".join([HUMAN] * players)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument(
        "--players",
        default=None,
        help=f"comma-separated seats, each {HUMAN} or one of {', '.join(PLAYERS)} "
        f"(default: {HUMAN},rule28)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the dice (default: random)")
    p.add_argument("--record", type=Path, default=None, help="where to save the game record")
    p.add_argument("--resume", type=Path, default=None, help="continue the game in this record")
    p.add_argument("--first-player", type=int, default=0, help="the player who begins (R2.2)")
    p.add_argument("--columns-to-win", type=int, default=3, help="columns needed to win (R12.1)")
    p.add_argument("--variant", choices=["A", "B"], default=None, help="play a variant (R14)")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause after a bot's turn")
    p.add_argument(
        "--color", choices=["auto", "always", "never"], default="auto", help="colour output"
    )
    p.set_defaults(run=_run)
