"""The terminal game of ``cantstop play``: the board, the prompts and the turn loop.

A game has 1 to 4 seats, each a person or a built-in player.  The board (the
mountain of columns) is drawn with a legend and the position in notation, in
colour when the output is a terminal and ``NO_COLOR`` is not set.  Every roll
is shown, and a roll that busts says why in one line
(:func:`bust_reason`, from the explanation of the roll).
A person chooses a move by its letter (``a``, ``b``, ...) or by writing its sums
in any order (``7+10``, ``10+7``, ``7 10``); ``odds`` shows, for each choice,
the exact chance of busting on the roll after it, and ``help`` lists the
commands.  Before each decision to roll again the exact chance of busting is
shown (:func:`cantstop.odds.bust_probability`).

Every game is kept.  Each action is appended to a game record
(``spec/record.md``) at once, the record is forced to the disk before every
question to a person (a built-in player's actions lost in a crash come again
the same from the seed), and the record's header holds the seats, the rules
and the seed, so ``cantstop play --resume FILE`` continues the game exactly:
the same seats, and the same dice and built-in players' choices the game would
have had without the pause.  Action ``n`` of a game (counted from 0) draws
from ``random.Random(f"{seed}/{n}")``.  Where records live, and how one is read
back and rewritten to resume it, is :mod:`cantstop.savedgames`.

>>> import io
>>> from cantstop import Phase, Rules, new_game
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

import contextlib
import io
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from cantstop import explain
from cantstop.actions import Action, Move, Roll, Stop
from cantstop.analysis import Play
from cantstop.board import COLUMNS
from cantstop.notation import format_action, format_state
from cantstop.odds import bust_probability, format_percent
from cantstop.players import Decision, Player, decide, may_stop
from cantstop.record import RecordWriter
from cantstop.refusals import REASONS, REFUSAL_TEMPLATES
from cantstop.savedgames import games_folder
from cantstop.simulate import roll_dice
from cantstop.state import Event, Phase, State
from cantstop.text import MARKER, board_lines, legend
from dicekit import play as layer
from dicekit.play import Quit, read_answer
from dicekit.quote import brief, brief_digits

__all__ = [
    "HUMAN",
    "MAX_ANSWER",
    "Console",
    "NotAChoice",
    "bust_reason",
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
_HELP = {"help", "h"}
#: How a built-in player's decision is told.
_DONE = {Decision.ROLL: "rolls again", Decision.STOP: "stops"}
#: The longest answer a prompt reads, in characters; a longer line is read in pieces and skipped.
MAX_ANSWER = layer.MAX_ANSWER
#: The keys of the choices of a roll: letters, which no column number can be mistaken for.
_KEYS = "abcdefghijklmnop"


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
        """Ask a question until the answer is not empty; return it stripped of space.

        ``q`` (``quit``, ``exit``, in any case) and the end of the input leave
        the game (the layer's :class:`dicekit.play.Quit`).  A line is read
        :data:`MAX_ANSWER` characters at a time, so a line of any length costs
        no more memory than that: a longer one is skipped, and so is one that
        is not text in the input's encoding, each with a word why.
        """
        encoding = getattr(self.input, "encoding", None) or "UTF-8"
        undecodable = f"that line is not {encoding} text: type the answer again"
        return read_answer(self.input, self.output, prompt, undecodable)


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


@dataclass(frozen=True)
class NotAChoice:
    """An answer that names none of the choices: why, as :func:`read_move` words it."""

    #: Why the answer is not a choice, and what would be one.
    reason: str

    def __str__(self) -> str:
        return self.reason


def read_move(text: str, moves: Sequence[Move]) -> Move | NotAChoice:
    """Return the move among ``moves`` that ``text`` names, or why none is (:class:`NotAChoice`).

    ``text`` is the letter of a choice (``a`` for the first) or the move's
    sums in any order and spacing: ``7+10``, ``10+7``, ``7 10`` and
    ``7, 10`` all name the same move.  A number is always a column, never a
    position in the list.

    >>> moves = (Move((4,)), Move((5,)), Move((7, 7)), Move((9,)), Move((10,)))
    >>> read_move('4', moves), read_move('D', moves), read_move('7 + 7', moves)
    (Move(columns=(4,)), Move(columns=(9,)), Move(columns=(7, 7)))
    >>> print(read_move('4+5', moves))
    4+5 is not a choice with these dice; the choices are a) 4  b) 5  c) 7+7  d) 9  e) 10
    """
    keys = _KEYS[: len(moves)]
    typed = text.strip()
    answer = typed.lower()
    if len(answer) == 1 and answer in keys:
        return moves[keys.index(answer)]
    if _SUMS.fullmatch(answer):
        numbers = re.findall(r"\d+", answer)
        wrong = [n for n in numbers if len(n) > 2 or int(n) not in COLUMNS]
        if wrong:
            number = brief_digits(wrong[0])
            return NotAChoice(f"{number} is not a column: the sum of two dice is 2 to 12")
        if len(numbers) > 2:
            return NotAChoice(
                f"{brief(typed)} names {len(numbers)} sums; a move plays one or two (rule R4.3)"
            )
        sums = [int(n) for n in numbers]
        move = Move((sums[0],)) if len(sums) == 1 else Move((sums[0], sums[1]))
        if move in moves:
            return move
        return NotAChoice(
            f"{format_action(move)} is not a choice with these dice; "
            f"the choices are {_listing(moves)}"
        )
    letters = "a" if len(keys) == 1 else f"a letter from a to {keys[-1]}"
    return NotAChoice(
        f"{brief(typed)} is not a choice: type {letters}, "
        f"a move such as {format_action(moves[-1])}, or help"
    )


def bust_reason(state: State, roll: Roll) -> str:
    """Return, in one line, why ``roll`` busts in ``state``: each sum and the rule that drops it.

    The sums come from the explanation of the roll (:func:`cantstop.explain`),
    and each reason is worded by its ``reason.*`` sentence of
    :data:`cantstop.refusals.REFUSAL_TEMPLATES`, as ``cantstop explain`` words it.

    >>> from cantstop import Roll, parse_state
    >>> print(bust_reason(parse_state('-/- 2:1,3:1,4:1 0d'), Roll((6, 5, 5, 5))))
    bust! column 10 has no marker and all three are in use (R5.3); column 11 has no marker
    and all three are in use (R5.3): no pairing plays (R10.1), so the markers come off
    >>> print(bust_reason(parse_state('2:3/- 7:13,8:1,9:1 0d'), Roll((1, 1, 6, 6))))
    bust! column 2 has been won by player 0 (R9.2); column 12 has no marker and all three are
    in use (R5.3); the marker in column 7 is on the top space (R8.1): no pairing plays (R10.1),
    so the markers come off
    """
    reasons: list[str] = []
    told: set[int] = set()
    bust_rules: tuple[str, ...] = ()
    for statement in explain(state, roll).statements:
        if statement.kind == "sum.dropped":
            data = statement.data
            if data["sum"] in told:
                continue
            told.add(data["sum"])
            template, rules = REFUSAL_TEMPLATES[REASONS[Play(data["play"])]]
            reason = template.format(x=data["sum"], owner=data["owner"])
            reasons.append(f"{reason} ({', '.join(rules)})")
        elif statement.kind == "moves.bust":
            bust_rules = statement.rules
    return (
        f"bust! {'; '.join(reasons)}: no pairing plays ({', '.join(bust_rules)}), "
        "so the markers come off"
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


def _decide(state: State, console: Console) -> Decision:
    """Ask a person whether to roll again or stop; return the decision."""
    allowed = may_stop(state)
    while True:
        typed = console.ask("  roll again or stop? [r/s]: ")
        answer = typed.lower()
        if answer in ("r", "roll"):
            return Decision.ROLL
        if answer in ("s", "stop"):
            if allowed:
                return Decision.STOP
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
                f"  {brief(typed)} is not a choice: type r to roll again, s to stop, "
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
    # A game taken up within a turn shows the board and whose turn it is, as a turn does.
    drawn = state.phase in (Phase.CHOOSE, Phase.DECIDE)
    try:
        if drawn:
            console.say()
            _turn_begins(state, seats, console)
        while state.phase is not Phase.OVER:
            me = seats[state.player]
            rng = random.Random(f"{seed}/{played}")
            action: Action
            if state.phase is Phase.ROLL:
                console.say()
                _turn_begins(state, seats, console)
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
                if me is None and not drawn:
                    console.say(draw_board(state, console))
                console.say(_odds_line(state))
                if me is None:
                    _save(writer)
                    decision = _decide(state, console)
                else:
                    decision = decide(me, state, rng)
                    console.say(f"  {me.name} {_DONE[decision]}")
                    if delay:
                        time.sleep(delay)
                action = Stop() if decision is Decision.STOP else roll_dice(rng)
            drawn = False
            before = state
            state, event = state.step(action)
            played += 1
            if writer is not None:
                writer.append(action, state)
            if event is Event.BUSTED and isinstance(action, Roll):
                dice = " ".join(map(str, action.dice))
                console.say(f"  dice: {console.paint(dice, _BOLD)}")
                console.say(console.paint(f"  {bust_reason(before, action)}", _BOLD))
            elif event is Event.WON:
                console.say()
                console.say(draw_board(state, console))
                console.say(console.paint(f"{_name(seats, state.player)} wins!", _BOLD))
    except Quit:
        console.say("game left unfinished")
    finally:
        _save(writer)
    return state


def _turn_begins(state: State, seats: Sequence[Player | None], console: Console) -> None:
    """Draw the board and say whose turn it is."""
    console.say(draw_board(state, console))
    console.say(console.paint(f"{_name(seats, state.player)} to play", _BOLD))


def _save(writer: RecordWriter | None) -> None:
    """Force the record to the disk: before every question to a person, and at the end.

    A built-in player's actions between two questions need no more: lost in a
    crash, they come again the same on resume, from the same seed.
    """
    if writer is not None:
        with contextlib.suppress(io.UnsupportedOperation):  # a record in memory has no disk
            writer.sync()
