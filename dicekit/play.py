"""The terminal game of any game: people at the keyboard against built-in players, recorded.

:func:`play` plays a game of any game object from a state until it ends or
a person leaves.  Each seat is a person (``None``) or a bot.  Action ``n``
of the game draws its dice, or its bot's choice, from
``random.Random(f"{seed}/{n}")``, so the seed alone fixes every throw and
every bot's move.  Every throw is shown with the event it caused (for a
game that reports events), every bot's action is told, and after each turn
the game draws its state (:func:`dicekit.demo.picture`), with its legend
under it where the game has one (:class:`~dicekit.protocol.Legend`).

A person chooses among the legal actions by letter (``a``, ``b``, ...) or by
typing the action in the game's notation; where the game leaves it to the
player to let chance act (:mod:`dicekit.nodes`), that is one more choice,
``throw the dice``.  ``board`` draws the state again, ``?`` shows the
rules that bear on the position (:func:`dicekit.explain.explain`), ``odds``
the chance of each kind of outcome of the throw after each choice
(:func:`dicekit.odds.after_each`), ``help`` lists the commands, and ``q``
(or the end of the input) leaves the game, which stays in its record.

Every action is written at once to a game record
(:class:`dicekit.record.RecordWriter`, the layer's record of any game): a
header naming the game, its configuration, the first player and, in its
``play`` field, the seats and the seed, then one line per action with its
claims, which ``cantstop verify`` replays through the game protocol.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from dicekit.demo import picture
from dicekit.explain import explain
from dicekit.nodes import decisions
from dicekit.odds import after_each
from dicekit.playing import next_action, throw
from dicekit.protocol import CHANCE, Bot, Capability, Game, capable
from dicekit.record import RecordWriter

__all__ = ["HUMAN", "MAX_ANSWER", "Console", "Quit", "choice_keys", "play", "read_answer"]

#: The seat name of a person at the keyboard.
HUMAN = "human"
#: The longest answer a prompt reads, in characters; a longer line is read in pieces and skipped.
MAX_ANSWER = 1000
#: The word that hands the decision over to chance, where the game allows it.
THROW = "throw the dice"
_QUIT = {"q", "quit", "exit"}
_HELP = {"help", "h"}


class Quit(Exception):
    """The person asked to leave the game, or the input ended."""


@dataclass
class Console:
    """Where the game reads answers and writes its story."""

    input: TextIO
    output: TextIO

    def say(self, text: str = "") -> None:
        """Write one line."""
        self.output.write(text + "\n")
        self.output.flush()

    def ask(self, prompt: str) -> str:
        """Ask until the answer is not empty; return it without surrounding space.

        ``q`` (``quit``, ``exit``, in any case) and the end of the input raise
        ``Quit``.  A line is read :data:`MAX_ANSWER` characters at a time,
        so a line of any length costs no more memory than that: a longer one
        is skipped, and so is one that is not text, each with a word why.
        """
        undecodable = "that line is not text in the terminal's encoding: type it again"
        return read_answer(self.input, self.output, prompt, undecodable)


def read_answer(source: TextIO, output: TextIO, prompt: str, undecodable: str) -> str:
    r"""Ask ``prompt`` on ``output`` until ``source`` gives a line that is not empty; return it.

    The answer is stripped of surrounding space.  ``q`` (``quit``, ``exit``,
    in any case) and the end of the input raise :class:`Quit`.  A line is read
    :data:`MAX_ANSWER` characters at a time: a longer one is skipped, and so
    is one that is not text, for which the line ``undecodable`` is written.

    >>> import io
    >>> out = io.StringIO()
    >>> read_answer(io.StringIO("\n  7+10 \n"), out, "? ", "not text"), out.getvalue()
    ('7+10', '? ? ')
    """
    while True:
        output.write(prompt)
        output.flush()
        try:
            line = source.readline(MAX_ANSWER + 1)
        except UnicodeDecodeError:
            _say(output, f"  {undecodable}")
            continue
        if not line:
            _say(output)
            raise Quit
        if len(line) > MAX_ANSWER and not line.endswith("\n"):
            while line and not line.endswith("\n"):
                with contextlib.suppress(UnicodeDecodeError):
                    line = source.readline(MAX_ANSWER + 1)
            _say(output, f"  that line is over {MAX_ANSWER:,} characters long: type a shorter one")
            continue
        answer = line.strip()
        if answer.lower() in _QUIT:
            raise Quit
        if answer:
            return answer


def _say(output: TextIO, text: str = "") -> None:
    output.write(text + "\n")
    output.flush()


def _board(game: Game[Any, Any, Any], state: Any) -> str:
    """Return the picture of ``state`` with its legend under it, for a game that has one."""
    keyed = capable(game, Capability.LEGEND)
    drawn = picture(game, state)
    return drawn if keyed is None else f"{drawn}\n{keyed.legend(state)}"


def choice_keys(count: int) -> list[str]:
    """Return the keys of ``count`` choices: ``a`` to ``z``, then ``aa``, ``ab``, ...

    >>> choice_keys(3), choice_keys(28)[-3:]
    (['a', 'b', 'c'], ['z', 'aa', 'ab'])
    """
    letters = "abcdefghijklmnopqrstuvwxyz"
    keys = list(letters[:count])
    for first in letters:
        for second in letters:
            if len(keys) >= count:
                return keys
            keys.append(first + second)
    return keys


def _rows(items: Sequence[str], width: int = 78) -> list[str]:
    """Return ``items`` laid out two spaces apart on lines of at most ``width`` characters."""
    rows: list[str] = []
    line = ""
    for item in items:
        if line and len(line) + 2 + len(item) > width:
            rows.append(line)
            line = ""
        line = f"{line}  {item}"
    return [*rows, line] if line else rows


def _indented(text: str) -> str:
    return "\n".join(f"  {line}" for line in text.splitlines())


def _choose(game: Game[Any, Any, Any], state: Any, console: Console) -> Any:
    """Ask a person for one of the decisions (:func:`dicekit.nodes.decisions`); return it."""
    options = list(decisions(game, state))
    texts = [THROW if option is CHANCE else game.format_action(option) for option in options]
    keys = choice_keys(len(texts))
    for line in _rows([f"{key}) {text}" for key, text in zip(keys, texts, strict=True)]):
        console.say(line)
    span = keys[0] if len(keys) == 1 else f"{keys[0]}-{keys[-1]}"
    while True:
        answer = console.ask(f"  your choice [{span}]: ")
        lowered = answer.lower()
        if lowered == "?":
            console.say(_indented(explain(game, state).text()))
        elif lowered == "odds":
            console.say(_indented("\n".join(after_each(game, state))))
        elif lowered in _HELP:
            console.say(
                "  type the letter of a choice, or the action in notation; ? shows the rules "
                "that bear on the position; odds the chances of the throw after each choice; "
                "board draws the state again; q saves the game and leaves"
            )
        elif lowered == "board":
            console.say(_board(game, state))
        elif lowered in keys or answer in texts or (lowered == "throw" and THROW in texts):
            index = keys.index(lowered) if lowered in keys else texts.index(answer)
            if lowered == "throw":
                index = len(texts) - 1
            return options[index]
        else:
            shown = answer if len(answer) <= 40 else f"{answer[:40]}… ({len(answer):,} characters)"
            console.say(f"  {shown!r} is not a choice: type a letter from {span}, or help")


def _told(name: str, action: str, by_chance: bool, decided: bool) -> str:
    """Say who did what: the player plays, the player throws, or chance throws for the player.

    >>> _told("human", "+A5,+A6", False, True), _told("human", "r56", True, False)
    ('human plays +A5,+A6', 'chance throws r56 for human')
    >>> _told("racer", "t34", True, True)
    'racer throws t34'
    """
    if not by_chance:
        return f"{name} plays {action}"
    if decided:
        return f"{name} throws {action}"
    return f"chance throws {action} for {name}"


def play(
    game: Game[Any, Any, Any],
    state: Any,
    seats: Sequence[Bot[Any, Any] | None],
    names: Sequence[str],
    seed: int,
    console: Console,
    writer: RecordWriter | None = None,
    delay: float = 0.0,
    played: int = 0,
) -> Any:
    """Play from ``state`` until the game ends or a person leaves; return the last state.

    ``seats`` holds a bot, or ``None`` for a person, for each player, and
    ``names`` the name shown for each.  ``played`` is the number of actions
    before ``state`` (see the module docstring for the seeds).  Ctrl-C
    (:class:`KeyboardInterrupt`) is passed on after the actions so far are
    written.
    """
    mover: int | None = None
    stepper = capable(game, Capability.STEPPING)
    try:
        while not game.is_over(state):
            player = game.player(state)
            if player != mover:
                mover = player
                console.say()
                console.say(_board(game, state))
                console.say(f"player {player} ({names[player]}) to play")
            rng = random.Random(f"{seed}/{played}")
            seat = seats[player]
            decided = bool(decisions(game, state))  # else chance acts of itself
            if seat is None and decided:
                if writer is not None:
                    writer.sync()
                chosen = _choose(game, state, console)
                action, by_chance = (
                    (throw(game, state, rng), True) if chosen is CHANCE else (chosen, False)
                )
            else:
                action, by_chance = next_action(game, state, seat, rng)
            if stepper is not None:
                after, event = stepper.step(state, action)
            else:
                after, event = game.apply(state, action), None
            played += 1
            if writer is not None:
                writer.append(action, after, event)
            console.say(
                f"  {_told(names[player], game.format_action(action), by_chance, decided)}"
                + (f": {event}" if by_chance and event is not None else "")
            )
            if seat is not None and not by_chance and delay:
                time.sleep(delay)
            state = after
        winner = game.winner(state)
        console.say()
        console.say(_board(game, state))
        console.say(f"player {winner} ({names[winner or 0]}) wins!")
    except Quit:
        console.say("game left unfinished")
    finally:
        if writer is not None:
            writer.sync()
    return state
