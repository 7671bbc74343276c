"""The layer's record format: a header naming the game, and action lines with their claims.

The header names the format (``"record": "dicekit"``), its version, the
game, its configuration (the game's JSON form) and the first player; each
further line holds one action in its JSON form and, as claims, the state
after it (``state``), its event (``event``, for a game that reports events)
and the legal actions after it (``moves``).  A false claim is named with the
rules the game's tags give (:class:`~dicekit.protocol.Tagging`): those of the
action for its state and event, those of the choice after it for its legal
actions.  :data:`LAYER_FORMAT` is the format of every game that has none of
its own (``spec/record.md``, "The record of any game").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dicekit import recordlines
from dicekit.errors import IllegalAction, NotationError, RuleError
from dicekit.protocol import JSON, Capability, Game, Tagging, capable
from dicekit.recordlines import RecordError, brief

__all__ = [
    "FORMAT",
    "LAYER_FORMAT",
    "RECORD_VERSION",
    "LayerFormat",
    "RecordHeader",
    "RecordLine",
    "apply_with_event",
    "legal_alternatives",
]

#: The value of a header's ``record`` field in the layer's format.
FORMAT = "dicekit"
#: The version of the layer's record format that this module writes and reads.
RECORD_VERSION = 1

_HEADER_KEYS = {"record", "version", "game", "config", "first_player", "play"}
_LINE_KEYS = {"action", "state", "event", "moves"}


@dataclass(frozen=True)
class RecordHeader:
    """What a record's header says: the game, its configuration and the first player."""

    #: The game's name.
    game: str
    #: The game's configuration value.
    config: Any
    #: The player who begins.
    first_player: int = 0
    #: The header's ``play`` field as written (a program's seats and seed), or ``None``.
    play: Any = None


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
    shown = sorted(brief(key) for key in keys)
    listed = ", ".join(shown[:5])
    return listed if len(shown) <= 5 else f"{listed} and {len(shown) - 5} more"


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
    tagged = capable(game, Capability.TAGGING)
    return () if tagged is None else tuple(pick(tagged))


def apply_with_event(game: Game[Any, Any, Any], state: Any, action: Any) -> tuple[Any, str | None]:
    """Return the state after ``action`` and its event, ``None`` for a game without events."""
    stepper = capable(game, Capability.STEPPING)
    if stepper is not None:
        after, event = stepper.step(state, action)
        return after, event
    return game.apply(state, action), None


class LayerFormat:
    """The layer's format (see the module docstring); :data:`LAYER_FORMAT` is its one instance."""

    describe = staticmethod(brief)

    def max_line_bytes(self) -> int:
        """Return :data:`dicekit.recordlines.MAX_LINE_BYTES`."""
        return recordlines.MAX_LINE_BYTES

    def error(self, line: int, reason: str) -> recordlines.RecordError:
        """Return the error for line ``line``, which is not a record line."""
        return RecordError(line, reason)

    def read_header(self, game: Game[Any, Any, Any], number: int, obj: dict[str, Any]) -> Any:
        """Return the header of line ``number``: the game, its configuration, the first player."""
        if obj.get("record") != FORMAT:
            wanted = f'{{"record": "{FORMAT}", ...}}'
            raise RecordError(number, f"the first line must be the header {wanted}")
        extra = obj.keys() - _HEADER_KEYS
        if extra:
            raise RecordError(number, f"the header has the unknown fields {_names(extra)}")
        version = obj.get("version")
        if type(version) is not int or version != RECORD_VERSION:
            raise RecordError(
                number, f"record version {brief(version)} is not supported (only {RECORD_VERSION})"
            )
        name = game.info.name
        if obj.get("game") != name:
            named = brief(obj.get("game"))
            raise RecordError(number, f"the record is of the game {named}, not {name!r}")
        try:
            config = game.config_from_json(obj.get("config", {}))
            first = obj.get("first_player", 0)
            game.new_game(config, first)
        except RuleError as exc:
            raise RecordError(number, f"bad setup: {exc.reason}", (exc.rule,)) from None
        return RecordHeader(name, config, first, obj.get("play"))

    def read_line(self, game: Game[Any, Any, Any], number: int, obj: dict[str, Any]) -> Any:
        """Return action line ``number`` as a :class:`RecordLine`."""
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

    def header(
        self, game: Game[Any, Any, Any], config: Any, first_player: int, play: Any
    ) -> dict[str, JSON]:
        """Return the header; ``play`` (a mapping, or ``None``) is written as it is."""
        game.new_game(config, first_player)  # checks the setup
        header: dict[str, JSON] = {
            "record": FORMAT,
            "version": RECORD_VERSION,
            "game": game.info.name,
            "config": game.config_to_json(config),
            "first_player": first_player,
        }
        if play is not None:
            header["play"] = dict(play)
        return header

    def line(
        self, game: Game[Any, Any, Any], action: Any, after: Any, event: str | None, claims: bool
    ) -> dict[str, JSON]:
        """Return the line of ``action``; its claims: the state, the event, the legal actions."""
        obj: dict[str, JSON] = {"action": game.action_to_json(action)}
        if claims:
            obj["state"] = game.format_state(after)
            if event is not None:
                obj["event"] = event
            obj["moves"] = [game.format_action(a) for a in game.legal_actions(after)]
        return obj

    def check_line(self, game: Game[Any, Any, Any], state: Any, line: Any) -> Any:
        """Apply the action of ``line`` to ``state``, check its claims, and return the new state."""
        before = game.format_state(state)
        action_text = game.format_action(line.action)
        try:
            after, event = apply_with_event(game, state, line.action)
        except IllegalAction as exc:
            alternatives = legal_alternatives(game, state)
            raise RecordError(line.line, exc.reason, (exc.rule,), before, alternatives) from None
        deciding = _rules(game, lambda tags: tags.action_rules(state, line.action))
        if line.event is not None and line.event != event:
            truth = "no event is reported in this game" if event is None else f"it is {event!r}"
            raise RecordError(
                line.line,
                f"the line claims the event {brief(line.event)} for {action_text}, but {truth}",
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
                    f"not the claimed {brief(line.state)}",
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
            reason = f"the claimed action {brief(text)} is not valid notation: {exc.reason}"
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


#: The layer's record format.
LAYER_FORMAT = LayerFormat()
