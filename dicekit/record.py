"""Game records of any game: one game as JSON lines, written, read and verified by replaying it.

A record is a header line naming the game, its configuration (the game's
JSON form) and the first player, then one line per action in its JSON form,
chance's actions included, so that any program that knows the rules replays
it exactly.  A line may add claims: the state after the action (``state``),
its event (``event``, for a game that reports events) and the legal actions
after it (``moves``); a verifier checks each claim it is given.  Reading
streams one line at a time, so a record of any length replays in constant
memory; the first bad line is reported with its number, the rule it breaks,
the state before it and the actions that were legal (``spec/record.md``).

Records of Can't Stop written before the header named the game have no
``game`` field; :func:`header_game` tells them apart, and ``cantstop.record``
reads them, on the line reader of this module (:func:`numbered_lines`).

>>> import io
>>> header = '{"record": "dicekit", "version": 1, "game": "toy", "config": {}}'
>>> header_game(io.StringIO(header)), header_game(io.StringIO('{"record": "cantstop"}'))
('toy', None)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from dicekit.errors import GameError, IllegalAction, NotationError, RuleError
from dicekit.protocol import JSON, Game, Stepping, Tagging

__all__ = [
    "FORMAT",
    "MAX_LINE_BYTES",
    "RECORD_VERSION",
    "RecordError",
    "RecordHeader",
    "RecordLine",
    "RecordWriter",
    "check_line",
    "header_game",
    "legal_alternatives",
    "load_object",
    "numbered_lines",
    "read_record",
    "replay",
    "report",
    "report_error",
    "verify_record",
    "write_record",
]

#: The value of a header's ``record`` field.
FORMAT = "dicekit"
#: The version of the record format that this module writes and reads.
RECORD_VERSION = 1
#: The longest line a reader takes, in bytes with its line end: a record's lines are far shorter.
MAX_LINE_BYTES = 1 << 20

_HEADER_KEYS = {"record", "version", "game", "config", "first_player", "play"}
_LINE_KEYS = {"action", "state", "event", "moves"}


class RecordError(GameError, ValueError):
    """A record that is malformed, or whose action or claim the rules reject.

    ``line`` is the 1-based line number, ``reason`` the message alone,
    ``rules`` the ids of the spec rules broken (empty for a line that breaks
    only the record format) and ``rule`` the first of them, ``state_text`` the
    state before the line's action in notation (``None`` when the line could
    not be read) and ``alternatives`` the actions that were legal there.

    >>> str(RecordError(3, "hold is not legal", ("R2.5",), "0,0/0/0r", ("r1", "r2")))
    "line 3: hold is not legal (rule R2.5) in state '0,0/0/0r'"
    """

    def __init__(
        self,
        line: int,
        reason: str,
        rules: Sequence[str] = (),
        state_text: str | None = None,
        alternatives: tuple[str, ...] = (),
    ) -> None:
        self.line = line
        self.reason = reason
        self.rules = tuple(rules)
        self.rule = self.rules[0] if self.rules else None
        self.state_text = state_text
        self.alternatives = alternatives
        super().__init__(self._text())

    def _text(self) -> str:
        text = f"line {self.line}: {self.reason}"
        if len(self.rules) == 1:
            text += f" (rule {self.rules[0]})"
        elif self.rules:
            text += f" (rules {', '.join(self.rules)})"
        if self.state_text is not None:
            text += f" in state {self.state_text!r}"
        return text


# -- reading lines -----------------------------------------------------------------------


def numbered_lines(
    file: Iterable[str] | BinaryIO, limit: int | None = None
) -> Iterator[tuple[int, str]]:
    """Yield the lines of ``file`` with their numbers from 1, decoding bytes line by line.

    Bytes are decoded one line at a time, so a byte that is not UTF-8 is
    reported at its line and its offset in the file; a text stream decodes
    ahead of the line being read, so such a byte is said to be at that line or
    after it.  A line longer than ``limit`` bytes (:data:`MAX_LINE_BYTES`) is
    refused before it is read whole.
    """
    limit = MAX_LINE_BYTES if limit is None else limit
    lines: Iterable[str | bytes]
    if isinstance(file, io.BufferedIOBase | io.RawIOBase):
        lines = iter(partial(file.readline, limit + 1), b"")
    else:
        lines = file
    number = 0
    offset = 0  # of the line's first byte in the file, when the file is bytes
    try:
        for line in lines:
            number += 1
            if len(line) > limit:
                raise RecordError(number, f"the line is longer than {limit:,} bytes")
            if isinstance(line, str):
                yield number, line
                continue
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(
                    number,
                    f"not UTF-8 text: byte 0x{line[exc.start]:02x} at byte {exc.start + 1} of "
                    f"the line (offset {offset + exc.start} in the file): {exc.reason}",
                ) from None
            offset += len(line)
            yield number, text
    except UnicodeDecodeError as exc:  # from a text stream's decoder, which reads ahead
        raise RecordError(
            number + 1, f"not UTF-8 text, at this line or after it: {exc.reason}"
        ) from None


class _NotJSON(ValueError):
    """Text that Python's decoder reads but JSON (RFC 8259) does not allow."""


def _no_constant(name: str) -> object:
    raise _NotJSON(f"{name} is not a JSON number")


def _brief(value: object) -> str:
    """Quote a JSON value briefly for a message; never raise."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def load_object(
    number: int, text: str, describe: Callable[[object], str] = _brief
) -> dict[str, Any]:
    """Return the JSON object of line ``number``; raise :class:`RecordError` saying what is wrong.

    ``describe`` quotes a value that is not an object.

    >>> load_object(2, '{"action": {"type": "hold"}}')
    {'action': {'type': 'hold'}}
    >>> load_object(2, '[1, NaN]')
    Traceback (most recent call last):
    ...
    dicekit.record.RecordError: line 2: not valid JSON: NaN is not a JSON number
    """
    try:
        obj = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        # The decoder's message may end with a dangling "at"; the column says where.
        reason = exc.msg.removesuffix(" at")
        raise RecordError(number, f"not valid JSON at column {exc.colno}: {reason}") from None
    except _NotJSON as exc:
        raise RecordError(number, f"not valid JSON: {exc}") from None
    except ValueError:  # int() refuses a number of more digits than the interpreter's limit
        most = sys.get_int_max_str_digits()
        raise RecordError(
            number, f"not valid JSON for a record: a number has more than {most:,} digits"
        ) from None
    except RecursionError:
        raise RecordError(number, "not valid JSON for a record: it is nested too deeply") from None
    if not isinstance(obj, dict):
        raise RecordError(number, f"a record line is a JSON object, not {describe(obj)}")
    return obj


def _objects(file: Iterable[str] | BinaryIO) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, text in numbered_lines(file):
        if text.strip():
            yield number, load_object(number, text)


def header_game(file: Iterable[str] | BinaryIO) -> str | None:
    """Return the game a record's header names, or ``None`` when it names none (Can't Stop's).

    Only the first line that is not blank is read.  A header that cannot be
    read names no game here: the reader of the record reports what is wrong.
    A ``game`` that is not a name raises :class:`RecordError`.
    """
    try:
        for number, header in _objects(file):
            game = header.get("game")
            if game is None or isinstance(game, str):
                return game
            raise RecordError(number, f"the header's 'game' is a game's name, not {_brief(game)}")
    except RecordError as exc:
        if exc.reason.startswith("the header's 'game'"):
            raise
    return None


# -- the record's lines --------------------------------------------------------------------


@dataclass(frozen=True)
class RecordHeader:
    """What a record's header says: the game, its configuration and the first player."""

    #: The game's name.
    game: str
    #: The game's configuration value.
    config: Any
    #: The player who begins.
    first_player: int = 0


@dataclass(frozen=True)
class RecordLine:
    """One action line of a record: its number, its action and the claims it makes."""

    #: The 1-based line number in the file.
    line: int
    #: The action the line records.
    action: Any
    #: The claimed state after the action, in notation, if given.
    state: str | None = None
    #: The claimed event of the action, if given.
    event: str | None = None
    #: The claimed legal actions after the action, in notation, if given.
    moves: tuple[str, ...] | None = None


def _names(keys: Iterable[str]) -> str:
    shown = sorted(_brief(key) for key in keys)
    listed = ", ".join(shown[:5])
    return listed if len(shown) <= 5 else f"{listed} and {len(shown) - 5} more"


def _header(game: Game[Any, Any, Any], number: int, obj: dict[str, Any]) -> RecordHeader:
    if obj.get("record") != FORMAT:
        wanted = f'{{"record": "{FORMAT}", ...}}'
        raise RecordError(number, f"the first line must be the header {wanted}")
    extra = obj.keys() - _HEADER_KEYS
    if extra:
        raise RecordError(number, f"the header has the unknown fields {_names(extra)}")
    version = obj.get("version")
    if type(version) is not int or version != RECORD_VERSION:
        raise RecordError(
            number, f"record version {_brief(version)} is not supported (only {RECORD_VERSION})"
        )
    name = game.info.name
    if obj.get("game") != name:
        named = _brief(obj.get("game"))
        raise RecordError(number, f"the record is of the game {named}, not {name!r}")
    try:
        config = game.config_from_json(obj.get("config", {}))
        first = obj.get("first_player", 0)
        game.new_game(config, first)
    except RuleError as exc:
        raise RecordError(number, f"bad setup: {exc.reason}", (exc.rule,)) from None
    return RecordHeader(name, config, first)


def _action_line(game: Game[Any, Any, Any], number: int, obj: dict[str, Any]) -> RecordLine:
    extra = obj.keys() - _LINE_KEYS
    if extra:
        raise RecordError(number, f"the line has the unknown fields {_names(extra)}")
    if "action" not in obj:
        raise RecordError(number, "an action line needs an 'action' field")
    try:
        action = game.action_from_json(obj["action"])
    except RuleError as exc:
        raise RecordError(number, f"bad action: {exc.reason}", (exc.rule,)) from None
    state, event, moves = obj.get("state"), obj.get("event"), obj.get("moves")
    if state is not None and not isinstance(state, str):
        raise RecordError(number, "the claimed 'state' must be a string in state notation")
    if event is not None and not isinstance(event, str):
        raise RecordError(number, "the claimed 'event' must be the name of an event")
    if moves is not None and not (
        isinstance(moves, list) and all(isinstance(m, str) for m in moves)
    ):
        raise RecordError(number, "the claimed 'moves' must be a list of actions in notation")
    return RecordLine(number, action, state, event, None if moves is None else tuple(moves))


def read_record(
    game: Game[Any, Any, Any], file: Iterable[str] | BinaryIO
) -> tuple[RecordHeader, Iterator[RecordLine]]:
    """Read the header of a record of ``game``; return it and the action lines to come.

    The lines are read lazily; a malformed line raises :class:`RecordError`
    with its number when it is reached.  ``file`` is best a binary file (see
    :func:`numbered_lines`).
    """
    lines = _objects(file)
    try:
        number, header = next(lines)
    except StopIteration:
        raise RecordError(1, "the record is empty: it needs a header line") from None
    return _header(game, number, header), (_action_line(game, n, obj) for n, obj in lines)


# -- writing ---------------------------------------------------------------------------


class RecordWriter:
    """Write a record of ``game`` to ``file``: the header at once, then one line per :meth:`append`.

    With ``claims`` (the default) each line also gives the state after the
    action, its event (for a game that reports events) and the legal actions
    after it.  ``play`` is the header's optional ``play`` field, written by a
    program that seats people and bots (``{"seats": [...], "seed": n}``).
    Each line is flushed as it is written.
    """

    def __init__(
        self,
        file: TextIO,
        game: Game[Any, Any, Any],
        config: Any,
        *,
        first_player: int = 0,
        claims: bool = True,
        play: Mapping[str, JSON] | None = None,
    ) -> None:
        game.new_game(config, first_player)  # checks the setup
        self._file = file
        self._game = game
        self._claims = claims
        header: dict[str, JSON] = {
            "record": FORMAT,
            "version": RECORD_VERSION,
            "game": game.info.name,
            "config": game.config_to_json(config),
            "first_player": first_player,
        }
        if play is not None:
            header["play"] = dict(play)
        self._write(header)

    def _write(self, obj: dict[str, Any]) -> None:
        self._file.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self._file.flush()

    def append(self, action: Any, after: Any, event: str | None = None) -> None:
        """Write the line of ``action``, whose result is ``after`` (and ``event``), and flush."""
        game = self._game
        obj: dict[str, JSON] = {"action": game.action_to_json(action)}
        if self._claims:
            obj["state"] = game.format_state(after)
            if event is not None:
                obj["event"] = event
            obj["moves"] = [game.format_action(a) for a in game.legal_actions(after)]
        self._write(obj)

    def sync(self) -> None:
        """Force what is written to the disk (nothing to do for a file that has no descriptor)."""
        with contextlib.suppress(io.UnsupportedOperation, AttributeError, ValueError):
            os.fsync(self._file.fileno())


def _step(game: Game[Any, Any, Any], state: Any, action: Any) -> tuple[Any, str | None]:
    if isinstance(game, Stepping):
        after, event = game.step(state, action)
        return after, event
    return game.apply(state, action), None


def write_record(
    file: TextIO,
    game: Game[Any, Any, Any],
    config: Any,
    actions: Iterable[Any],
    *,
    first_player: int = 0,
    claims: bool = True,
) -> Any:
    """Play ``actions`` from the opening state, write them as a record, and return the end state.

    An illegal action raises the game's ``IllegalAction`` after the lines
    before it have been written.
    """
    writer = RecordWriter(file, game, config, first_player=first_player, claims=claims)
    state = game.new_game(config, first_player)
    for action in actions:
        state, event = _step(game, state, action)
        writer.append(action, state, event)
    return state


# -- replaying -------------------------------------------------------------------------


def legal_alternatives(game: Game[Any, Any, Any], state: Any, shown: int = 12) -> tuple[str, ...]:
    """Return what could be played in ``state``, in notation: the legal actions, then chance's.

    Chance's outcomes are listed up to ``shown``; more are counted (``+30 more of chance's``).
    """
    legal = [game.format_action(a) for a in game.legal_actions(state)]
    chance = [game.format_action(a) for a, _ in game.chance_outcomes(state)]
    if len(chance) > shown:
        chance = [*chance[:shown], f"+{len(chance) - shown} more of chance's"]
    return (*legal, *chance)


def _rules(
    game: Game[Any, Any, Any], pick: Callable[[Tagging[Any, Any]], Sequence[str]]
) -> tuple[str, ...]:
    return tuple(pick(game)) if isinstance(game, Tagging) else ()


def check_line(game: Game[Any, Any, Any], state: Any, line: RecordLine) -> Any:
    """Apply the action of ``line`` to ``state``, check its claims, and return the new state.

    A false claim names the rules the game's tags (:class:`~dicekit.protocol.Tagging`)
    give for it: those of the action for its state and event, those of the
    choice after it for its legal actions.
    """
    before = game.format_state(state)
    action_text = game.format_action(line.action)
    try:
        after, event = _step(game, state, line.action)
    except IllegalAction as exc:
        alternatives = legal_alternatives(game, state)
        raise RecordError(line.line, exc.reason, (exc.rule,), before, alternatives) from None
    deciding = _rules(game, lambda tags: tags.action_rules(state, line.action))
    if line.event is not None and line.event != event:
        truth = "no event is reported in this game" if event is None else f"it is {event!r}"
        raise RecordError(
            line.line,
            f"the line claims the event {_brief(line.event)} for {action_text}, but {truth}",
            deciding,
            before,
            legal_alternatives(game, state),
        )
    if line.state is not None and line.state != game.format_state(after):
        try:
            same = game.parse_state(line.state) == after
        except NotationError as exc:
            reason = f"the claimed state is not valid notation: {exc.reason}"
            raise RecordError(line.line, reason, (exc.rule,)) from None
        if not same:
            raise RecordError(
                line.line,
                f"after {action_text} the state is {game.format_state(after)!r}, "
                f"not the claimed {_brief(line.state)}",
                deciding,
                before,
                legal_alternatives(game, state),
            )
    if line.moves is not None:
        _check_moves(game, after, line)
    return after


def _check_moves(game: Game[Any, Any, Any], after: Any, line: RecordLine) -> None:
    assert line.moves is not None
    claimed = set()
    for text in line.moves:
        try:
            claimed.add(game.format_action(game.parse_action(text)))
        except NotationError as exc:
            reason = f"the claimed action {_brief(text)} is not valid notation: {exc.reason}"
            raise RecordError(line.line, reason, (exc.rule,)) from None
    actual = [game.format_action(a) for a in game.legal_actions(after)]
    if claimed != set(actual):
        missing = " ".join(a for a in actual if a not in claimed) or "none"
        wrong = " ".join(sorted(claimed - set(actual))) or "none"
        raise RecordError(
            line.line,
            f"the claimed legal actions after {game.format_action(line.action)} are wrong: "
            f"missing {missing}; not legal {wrong}",
            _rules(game, lambda tags: tags.choice_rules(after)),
            game.format_state(after),
            tuple(actual),
        )


def replay(game: Game[Any, Any, Any], file: Iterable[str] | BinaryIO) -> tuple[Any, int]:
    """Replay a record of ``game`` from ``file``, checking every line; return the end and the count.

    Raise :class:`RecordError` at the first bad line.
    """
    header, lines = read_record(game, file)
    state = game.new_game(header.config, header.first_player)
    count = 0
    for line in lines:
        state = check_line(game, state, line)
        count += 1
    return state, count


def report(
    path: Path,
    replay_file: Callable[[BinaryIO], tuple[str, int]],
    out: TextIO,
    err: TextIO | None = None,
    program: str = "verify",
) -> int:
    """Replay the record at ``path`` with ``replay_file``; print the verdict; return 0, or 1 if bad.

    ``replay_file`` replays an open binary file and returns the final state in
    notation and the number of actions, or raises :class:`RecordError`.  A
    record that is not valid also gets one line ``PROGRAM: error: ...`` on ``err``.
    """
    name = path.name
    try:
        with path.open("rb") as file:
            final, actions = replay_file(file)
    except RecordError as exc:
        return report_error(name, exc, out, err, program)
    count = "1 action" if actions == 1 else f"{actions} actions"
    print(f"{name}: valid: {count}; final state {final!r}", file=out)
    return 0


def report_error(
    name: str, exc: RecordError, out: TextIO, err: TextIO | None = None, program: str = "verify"
) -> int:
    """Print the verdict on a bad record called ``name``: its line, rule, state; return 1.

    The line goes to ``out``, and to ``err`` as ``PROGRAM: error: ...``; the state
    before the line and what was legal there follow on ``out``.

    >>> import io
    >>> out = io.StringIO()
    >>> report_error("game.jsonl", RecordError(3, "hold is not legal", ("R2.5",), "0,0/0/0r"), out)
    1
    >>> print(out.getvalue(), end="")
    game.jsonl:3: hold is not legal (rule R2.5)
      state: 0,0/0/0r
      legal: none
    """
    # The legal alternatives get a line of their own; the engine's reason may list them too.
    listed = "; legal moves: " + ", ".join(exc.alternatives)
    reason = exc.reason.removesuffix(listed) if exc.alternatives else exc.reason
    text = f"{name}:{exc.line}: {reason}"
    if len(exc.rules) == 1:
        text += f" (rule {exc.rules[0]})"
    elif exc.rules:
        text += f" (rules {', '.join(exc.rules)})"
    print(text, file=out)
    if err is not None:
        print(f"{program}: error: {text}", file=err)
    if exc.state_text is not None:
        print(f"  state: {exc.state_text}", file=out)
        print(f"  legal: {' '.join(exc.alternatives) or 'none'}", file=out)
    return 1


def verify_record(
    game: Game[Any, Any, Any],
    path: str | os.PathLike[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    program: str = "verify",
) -> int:
    """Check the record of ``game`` at ``path``; print the verdict to ``out``; return 0 or 1."""

    def replay_file(file: BinaryIO) -> tuple[str, int]:
        final, count = replay(game, file)
        return game.format_state(final), count

    return report(Path(path), replay_file, sys.stdout if out is None else out, err, program)
