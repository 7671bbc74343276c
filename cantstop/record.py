"""Can't Stop's game records: one game as JSON lines, written, read and replayed (spec/record.md).

A record is a header line naming the rules and the first player, then one line
per action with explicit dice.  A writer may add claims to each line (the state
after the action, the legal moves after a roll, whether a roll busted); a
reader checks every claim it is given.  Reading streams: one line at a time, so
a record of any length replays in constant memory.

The records go through the layer (:mod:`dicekit.record`: its line reader,
replay, writer and report); what is Can't Stop's own is its format,
:data:`FORMAT`, a :class:`dicekit.record.RecordFormat` (the header's
``rules`` and ``play`` fields, the ``bust`` and ``moves`` claims and their
rules, ``r....`` for any roll), which :data:`cantstop.layer.GAME` declares
as its own.  A header that names no game is read in it.

>>> import io
>>> from cantstop import Move, Roll, Rules, Stop
>>> out = io.StringIO()
>>> final = write_record(out, Rules(), [Roll((3, 4, 5, 5)), Move((7, 10)), Stop()])
>>> final
State('7:1,10:1/- - 1r')
>>> import json
>>> json.loads(out.getvalue().splitlines()[1])["moves"]
['7+10', '8+9']
>>> rules, first, actions = read_record(io.StringIO(out.getvalue()))
>>> [line for line, _ in actions]
[2, 3, 4]
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TextIO

from cantstop.actions import Action, Roll
from cantstop.config import Rules
from cantstop.errors import CantStopError, IllegalAction, NotationError
from cantstop.jsonform import action_from_json, action_to_json, rules_from_json, rules_to_json
from cantstop.layer import GAME
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.state import Event, Phase, State, new_game
from dicekit import record as layer
from dicekit import recordlines
from dicekit.errors import GameError
from dicekit.protocol import JSON, Game
from dicekit.quote import brief, brief_json, brief_names

__all__ = [
    "FORMAT",
    "MAX_LINE_BYTES",
    "MAX_SEED",
    "RECORDS",
    "RECORD_VERSION",
    "CantStopRecords",
    "PlaySetup",
    "RecordError",
    "RecordHeader",
    "RecordLine",
    "RecordWriter",
    "check_line",
    "iter_record",
    "legal_alternatives",
    "read_header",
    "read_record",
    "replay_record",
    "write_record",
]

#: The value of a header's ``record`` field.
FORMAT = "cantstop"
#: The version of the record format that this module writes and reads.
RECORD_VERSION = 1

#: The largest seed a header's ``play`` field may hold (seeds are below 2**64).
MAX_SEED = 2**64 - 1

_HEADER_KEYS = {"record", "version", "rules", "first_player", "play"}
_PLAY_KEYS = {"seats", "seed"}
_LINE_KEYS = {"action", "state", "bust", "moves"}


class RecordError(CantStopError, layer.RecordError):
    """A record that is malformed, or whose action or claim the rules reject.

    ``line`` is the 1-based line number, ``reason`` the message alone, ``rule``
    the spec rule broken (``None`` for a line that breaks only the record
    format), ``state`` the state before the line's action (``None`` when the
    line could not be read) and ``alternatives`` the legal actions in that
    state, in notation.  It is the layer's :class:`dicekit.recordlines.RecordError`
    too, so that the layer's verifier reports it as it reports any game's.
    """

    def __init__(
        self,
        line: int,
        reason: str,
        rule: str | None = None,
        state: State | None = None,
        alternatives: tuple[str, ...] = (),
    ) -> None:
        text = f"line {line}: {reason}"
        if rule is not None:
            text += f" (rule {rule})"
        if state is not None:
            text += f" in state {format_state(state)!r}"
        GameError.__init__(self, text)
        self.line = line
        self.reason = reason
        self.rule = rule
        self.rules = () if rule is None else (rule,)
        self.state = state
        self.state_text = None if state is None else format_state(state)
        self.alternatives = alternatives


@dataclass(frozen=True)
class PlaySetup:
    """How a game is set up to be played on: the optional ``play`` field of a header.

    ``seats`` names who plays each seat, in player order: ``"human"`` or a
    built-in player such as ``"rule28"``; ``seed`` (0 to :data:`MAX_SEED`) is
    what the program draws its dice and its players' choices from.  A record
    is valid with or without it; a program that continues a game reads it.
    """

    #: One name per player: ``"human"`` or the name of a built-in player.
    seats: tuple[str, ...]
    #: The seed of the game's dice and of its built-in players' draws.
    seed: int

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form of the field.

        >>> PlaySetup(("human", "rule28"), 7).to_json()
        {'seats': ['human', 'rule28'], 'seed': 7}
        """
        return {"seats": list(self.seats), "seed": self.seed}


@dataclass(frozen=True)
class RecordHeader:
    """What a record's header line says: the rules, the first player, the optional setup."""

    #: The rules of the game (N3.1).
    rules: Rules
    #: The player who begins (R2.2).
    first_player: int = 0
    #: How the game is set up to be played on, if the header says.
    play: PlaySetup | None = None

    @property
    def config(self) -> Rules:
        """The rules, as the layer's replay calls a game's configuration."""
        return self.rules


@dataclass(frozen=True)
class RecordLine:
    """One action line of a record: its number, its action and the claims it makes."""

    #: The 1-based line number in the file.
    line: int
    #: The action the line records.
    action: Action
    #: The claimed state after the action, in notation, if given.
    state: str | None = None
    #: Whether the roll is claimed to bust, if given.
    bust: bool | None = None
    #: The claimed legal moves after the action, in notation, if given.
    moves: tuple[str, ...] | None = field(default=None)


class RecordWriter(layer.RecordWriter):
    """Write a record to ``file``: the header at once, then one line per :meth:`append`.

    With ``claims`` (the default) each line also gives the state after the
    action, and a roll line says whether it busted and lists the legal moves.
    ``play`` adds the header's ``play`` field (the seats and the seed).  Each
    line is flushed as it is written; :meth:`sync` also forces the lines to
    the disk.  It is the layer's writer (:class:`dicekit.record.RecordWriter`)
    in Can't Stop's format.

    >>> import io
    >>> from cantstop import Roll, Rules, new_game
    >>> out = io.StringIO()
    >>> writer = RecordWriter(out, Rules(players=3), first_player=1, claims=False)
    >>> writer.append(Roll((1, 1, 1, 1)), new_game(Rules(players=3), 1).apply(Roll((1, 1, 1, 1))))
    >>> print(out.getvalue(), end="")
    {"record":"cantstop","version":1,"rules":{"players":3,"columns_to_win":3,"heights":{"2":3,"3":5,"4":7,"5":9,"6":11,"7":13,"8":11,"9":9,"10":7,"11":5,"12":3},"variant":null},"first_player":1}
    {"action":{"type":"roll","dice":[1,1,1,1]}}
    """

    def __init__(
        self,
        file: TextIO,
        rules: Rules,
        *,
        first_player: int = 0,
        claims: bool = True,
        play: PlaySetup | None = None,
    ) -> None:
        super().__init__(file, GAME, rules, first_player=first_player, claims=claims, play=play)

    def sync(self) -> None:
        """Force the lines written so far to the disk (``os.fsync``), past a crash of the machine.

        The file must be a real file, with a descriptor.
        """
        self._file.flush()
        os.fsync(self._file.fileno())

    def append(self, action: Action, after: State, event: str | None = None) -> None:
        """Write the line of ``action``, whose result is ``after``, and flush the file."""
        super().append(action, after, event)


def write_record(
    file: TextIO,
    rules: Rules,
    actions: Iterable[Action],
    *,
    first_player: int = 0,
    claims: bool = True,
) -> State:
    """Play ``actions`` from the opening state, write them as a record, and return the end state.

    An illegal action raises :class:`~cantstop.IllegalAction` after the lines
    before it have been written.
    """
    final: State = layer.write_record(
        file, GAME, rules, actions, first_player=first_player, claims=claims
    )
    return final


#: The longest line a reader takes, in bytes with its line end: a record's lines are far shorter.
MAX_LINE_BYTES = layer.MAX_LINE_BYTES


def _header_values(number: int, obj: dict[str, Any]) -> None:
    """Refuse header fields and values that the header's reader would misread or quote in full.

    ``true == 1`` and ``1.0 == 1`` in Python, but the version and the first
    player are integers in a record; unknown fields are named briefly, however
    long their names.
    """
    if obj.get("record") != "cantstop":
        return
    extra = obj.keys() - _HEADER_KEYS
    if extra:
        word = "field" if len(extra) == 1 else "fields"
        raise RecordError(number, f"the header has the unknown {word} {brief_names(extra)}")
    version = obj.get("version", RECORD_VERSION)
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(
            number,
            f"record version {brief_json(version)} is not supported (only {RECORD_VERSION})",
        )
    first = obj.get("first_player", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not -1000 < first < 1000:
        raise RecordError(number, f"bad first_player: {brief_json(first)} is not a player", "R2.2")


def _check_play(number: int, obj: object, rules: Rules) -> PlaySetup:
    """Read a header's ``play`` field; raise :class:`RecordError` naming what is wrong."""
    if not isinstance(obj, dict) or obj.keys() != _PLAY_KEYS:
        raise RecordError(number, "the header's 'play' field is an object with 'seats' and 'seed'")
    seats = obj["seats"]
    if (
        not isinstance(seats, list)
        or len(seats) != rules.players
        or not all(isinstance(seat, str) and seat for seat in seats)
    ):
        raise RecordError(
            number,
            f"the header's 'play' seats are a list of {rules.players} names, "
            "one for each player of the rules",
        )
    seed = obj["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise RecordError(number, "the header's 'play' seed is an integer from 0 to 2**64 - 1")
    return PlaySetup(tuple(seats), seed)


def _header(number: int, obj: dict[str, Any]) -> RecordHeader:
    if obj.get("record") != "cantstop":
        raise RecordError(number, 'the first line must be the header {"record": "cantstop", ...}')
    extra = obj.keys() - _HEADER_KEYS
    if extra:
        raise RecordError(number, f"the header has unknown fields {sorted(extra)}")
    if obj.get("version") != RECORD_VERSION:
        raise RecordError(
            number, f"record version {obj.get('version')!r} is not supported (only 1)"
        )
    try:
        rules = rules_from_json(obj.get("rules", {}))
    except NotationError as exc:
        raise RecordError(number, f"bad rules: {exc.reason}", exc.rule) from None
    first = obj.get("first_player", 0)
    try:
        new_game(rules, first)
    except CantStopError as exc:
        raise RecordError(number, f"bad first_player: {exc}") from None
    play = _check_play(number, obj["play"], rules) if "play" in obj else None
    return RecordHeader(rules, first, play)


def _action_line(number: int, obj: dict[str, Any]) -> RecordLine:
    extra = obj.keys() - _LINE_KEYS
    if extra:
        word = "field" if len(extra) == 1 else "fields"
        raise RecordError(number, f"the line has the unknown {word} {brief_names(extra)}")
    if "action" not in obj:
        raise RecordError(number, "an action line needs an 'action' field")
    try:
        action = action_from_json(obj["action"])
    except NotationError as exc:
        raise RecordError(number, f"bad action: {exc.reason}", exc.rule) from None
    state = obj.get("state")
    if state is not None and not isinstance(state, str):
        raise RecordError(number, "the claimed 'state' must be a string in state notation")
    bust = obj.get("bust")
    if bust is not None and not isinstance(bust, bool):
        raise RecordError(number, "the claimed 'bust' must be true or false")
    moves = obj.get("moves")
    if moves is not None and (
        not isinstance(moves, list) or not all(isinstance(m, str) for m in moves)
    ):
        raise RecordError(number, "the claimed 'moves' must be a list of moves in notation")
    return RecordLine(number, action, state, bust, None if moves is None else tuple(moves))


def read_header(file: Iterable[str] | BinaryIO) -> tuple[RecordHeader, Iterator[RecordLine]]:
    """Read the header of ``file``; return it and the action lines to come.

    The lines are read lazily, as the iterator is consumed.  A malformed line
    raises :class:`RecordError` with its line number when it is reached.
    ``file`` is a binary file (best: a byte that is not UTF-8 is then reported
    at its line and offset, and a line longer than :data:`MAX_LINE_BYTES` is
    refused before it is read in full) or any source of text lines.

    >>> import io
    >>> text = '{"record":"cantstop","version":1,"rules":{},"play":{"seats":["human","rule28"],'
    >>> text += '"seed":7}}'
    >>> header, lines = read_header(io.StringIO(text))
    >>> header.play, header.rules.players, list(lines)
    (PlaySetup(seats=('human', 'rule28'), seed=7), 2, [])
    """
    header, lines = layer.read_record(GAME, file, RECORDS)
    return header, lines


def iter_record(file: Iterable[str] | BinaryIO) -> tuple[Rules, int, Iterator[RecordLine]]:
    """Read the header of ``file`` and return the rules, first player and the lines to come.

    As :func:`read_header`, which also gives the header's ``play`` field.
    """
    header, lines = read_header(file)
    return header.rules, header.first_player, lines


def read_record(file: Iterable[str] | BinaryIO) -> tuple[Rules, int, Iterator[tuple[int, Action]]]:
    """Return the rules, first player and the (line number, action) pairs of a record.

    Claims are not checked here; :func:`replay_record` checks them.
    """
    rules, first, lines = iter_record(file)
    return rules, first, ((line.line, line.action) for line in lines)


def legal_alternatives(state: State) -> tuple[str, ...]:
    """Return the actions that are legal in ``state``, in notation; any roll is ``r....``.

    They are the decisions :meth:`State.decisions <cantstop.State.decisions>` lists.

    >>> from cantstop import new_game, parse_state
    >>> legal_alternatives(new_game()), legal_alternatives(parse_state('-/- 7:1 0d'))
    (('r....',), ('r....', 'stop'))
    """
    found = state.decisions()
    return (
        *(format_action(m) for m in found.moves),
        *(("r....",) if found.may_roll else ()),
        *(("stop",) if found.may_stop else ()),
    )


class CantStopRecords:
    """Can't Stop's record format (see the module docstring); :data:`RECORDS` is its instance."""

    describe = staticmethod(brief_json)

    def max_line_bytes(self) -> int:
        """Return :data:`MAX_LINE_BYTES`."""
        return MAX_LINE_BYTES

    def error(self, line: int, reason: str) -> recordlines.RecordError:
        """Return the error for a line that is not a record line: no rule, no state."""
        return RecordError(line, reason)

    def read_header(self, game: Game[Any, Any, Any], number: int, obj: dict[str, Any]) -> Any:
        """Return the header of line ``number``: the rules, the first player, the setup."""
        _header_values(number, obj)
        return _header(number, obj)

    def read_line(self, game: Game[Any, Any, Any], number: int, obj: dict[str, Any]) -> Any:
        """Return action line ``number``: the action and its claims."""
        return _action_line(number, obj)

    def header(
        self, game: Game[Any, Any, Any], config: Rules, first_player: int, play: Any
    ) -> dict[str, JSON]:
        """Return the header of a new record; the setup and ``play`` are checked first."""
        new_game(config, first_player)  # checks the setup (R15, R2.2)
        header: dict[str, JSON] = {
            "record": FORMAT,
            "version": RECORD_VERSION,
            "rules": rules_to_json(config),
            "first_player": first_player,
        }
        if play is not None:
            _check_play(1, play.to_json(), config)  # the header is line 1
            header["play"] = play.to_json()
        return header

    def line(
        self, game: Game[Any, Any, Any], action: Any, after: Any, event: str | None, claims: bool
    ) -> dict[str, JSON]:
        """Return the line of ``action``; its claims: the state, and a roll's bust and moves."""
        obj: dict[str, JSON] = {"action": action_to_json(action)}
        if claims:
            obj["state"] = format_state(after)
            if isinstance(action, Roll):
                # A roll that can be played leads to CHOOSE; a bust passes the turn (R10.2).
                obj["bust"] = after.phase is not Phase.CHOOSE
                obj["moves"] = [format_action(m) for m in after.legal_moves()]
        return obj

    def check_line(self, game: Game[Any, Any, Any], state: Any, line: Any) -> Any:
        """Apply the action of ``line``, check its claims; return the new state."""
        try:
            step = state.step(line.action)
        except IllegalAction as exc:
            raise RecordError(
                line.line,
                exc.reason,  # it names the action: "7+10 is not legal: ..."
                exc.rule,
                state,
                legal_alternatives(state),
            ) from None
        after = step.state
        if line.bust is not None:
            busted = step.event is Event.BUSTED
            if line.bust != busted:
                claim = "busts" if line.bust else "does not bust"
                truth = "busts" if busted else "can be played"
                raise RecordError(
                    line.line,
                    f"the line claims roll {format_action(line.action)} {claim}, but it {truth}",
                    "R10.1",
                    state,
                    legal_alternatives(state),
                )
        if line.state is not None and line.state != format_state(after):
            try:
                same = parse_state(line.state) == after
            except NotationError as exc:
                raise RecordError(
                    line.line, f"the claimed state is not valid notation: {exc.reason}", exc.rule
                ) from None
            if not same:
                raise RecordError(
                    line.line,
                    f"after {format_action(line.action)} the state is "
                    f"{format_state(after)!r}, not the claimed {brief(line.state)}",
                    None,
                    state,
                    legal_alternatives(state),
                )
        if line.moves is not None:
            claimed: set[Action] = set()
            for text in line.moves:
                try:
                    claimed.add(parse_action(text))
                except NotationError as exc:
                    raise RecordError(
                        line.line,
                        f"the claimed move {brief(text)} is not valid notation: {exc.reason}",
                    ) from None
            actual = set(after.legal_moves())
            if claimed != actual:
                missing = " ".join(format_action(m) for m in sorted(actual - claimed)) or "none"
                wrong = " ".join(sorted(format_action(m) for m in claimed - actual)) or "none"
                raise RecordError(
                    line.line,
                    f"the claimed legal moves after {format_action(line.action)} are wrong: "
                    f"missing {missing}; not legal {wrong}",
                    "R6.6",
                    after,
                    tuple(format_action(m) for m in after.legal_moves()),
                )
        return after


#: Can't Stop's record format.
RECORDS = CantStopRecords()


def check_line(state: State, line: RecordLine) -> State:
    """Apply the action of ``line`` to ``state``, check its claims, and return the new state."""
    after: State = RECORDS.check_line(GAME, state, line)
    return after


def replay_record(path: str | os.PathLike[str]) -> State:
    """Replay the record at ``path``, checking every action and claim; return the final state.

    Raises :class:`RecordError` (with the line number, the rule id where one
    applies and the state) at the first bad line.
    """
    with open(path, "rb") as file:
        state: State = layer.replay(GAME, file, RECORDS)[0]
    return state
