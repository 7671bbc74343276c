"""Read any game's rules spec and run its examples through the game protocol.

The spec's files and their form are :mod:`dicekit.specfile`'s, whose names
this module also gives (:func:`~dicekit.specfile.load_spec`,
:class:`~dicekit.specfile.Rule`, :class:`~dicekit.specfile.Example` and the
rest).  The keys every game shares are
:data:`~dicekit.specfile.EXAMPLE_KEYS`; a game adds its own (:class:`ExampleKey`) by providing
``example_keys()`` (:class:`HasExampleKeys`, declared in its info).  A game's key checks the state
its example reaches, or acts before anything else of the example is read: it
may supply the game (under a configuration of its own) that the example runs
on, or check the whole example itself.

The runner knows nothing of any game: it reads states and actions with the
game's parsers, applies actions with ``apply`` (or ``step``, for the
``event`` and ``events`` keys, when the game declares events:
:class:`~dicekit.protocol.Stepping`), and compares canonical texts and JSON
values.  Refusals are compared by the rule id of the
:class:`~dicekit.errors.RuleError` raised.
"""

from __future__ import annotations

import enum
import json
import re
import shlex
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from dicekit.errors import IllegalAction, NotationError, RuleError
from dicekit.protocol import JSON, Capability, Game, capable
from dicekit.specfile import EXAMPLE_KEYS, Example, Rule, Spec, load_spec, spec_from_texts

__all__ = [
    "EXAMPLE_KEYS",
    "SETTLED",
    "Example",
    "ExampleFailure",
    "ExampleKey",
    "HasExampleKeys",
    "Played",
    "Rule",
    "Settled",
    "Spec",
    "expect_refusal",
    "game_keys",
    "iter_failures",
    "load_game_spec",
    "load_spec",
    "parse_setup",
    "run_example",
    "spec_from_texts",
]

_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")


class ExampleFailure(AssertionError):
    """An example whose expectation the game does not meet."""


@dataclass(frozen=True)
class Played:
    """What running an example's actions gave: what a game's own key checks."""

    #: The game the example runs on.
    game: Game[Any, Any, Any]
    #: The example.
    example: Example
    #: The actions applied, read from ``action`` or ``actions``.
    actions: tuple[Any, ...]
    #: The state after the actions (the starting state when there are none).
    state: Any
    #: The event of each action, when the game reports events; otherwise ``None``.
    events: tuple[str, ...] | None


class Settled(enum.Enum):
    """What a key's ``before`` hook returns when it has checked its whole example itself."""

    #: The one value: see :data:`SETTLED`.
    SETTLED = "settled"


#: Returned by the ``before`` hook of an :class:`ExampleKey` that has checked the whole example.
SETTLED = Settled.SETTLED


@dataclass(frozen=True)
class ExampleKey:
    """A key a game adds to its examples: its meaning, and the checks it runs.

    ``check(played, value)`` raises :class:`ExampleFailure` when the game does
    not meet the expectation ``value``; it runs after the actions of an example
    with a ``state``.  ``before(game, example, value)`` runs first, before any
    other key of the example is read, and returns the game the rest of the
    example runs on (``game`` itself, or the game under a configuration the
    key supplies), or :data:`SETTLED` when it has checked the whole example
    itself (raising :class:`ExampleFailure` if it does not hold), so that
    nothing else runs.  The ``before`` hooks run in the order of the game's
    keys.  A key with neither (``None``) only informs.
    """

    meaning: str
    check: Callable[[Played, str], None] | None = None
    before: Callable[[Game[Any, Any, Any], Example, str], Game[Any, Any, Any] | Settled] | None = (
        None
    )


class HasExampleKeys(Protocol):
    """:attr:`~dicekit.protocol.Capability.EXAMPLE_KEYS`: examples with keys of the game's own.

    A game declares the capability in its info, and gives its keys here.
    """

    def example_keys(self) -> Mapping[str, ExampleKey]:
        """Return the game's own example keys by name."""
        ...


def game_keys(game: object) -> Mapping[str, ExampleKey]:
    """Return the example keys ``game`` adds (none unless it declares them in its info)."""
    keyed = capable(game, Capability.EXAMPLE_KEYS)
    if keyed is not None:
        keys = keyed.example_keys()
        clash = sorted(set(keys) & set(EXAMPLE_KEYS))
        if clash:
            raise ValueError(f"a game's example keys may not redefine the layer's: {clash}")
        return keys
    return {}


def load_game_spec(game: Game[Any, Any, Any]) -> Spec:
    """Read the spec of ``game`` from its ``info.spec_dir``, with the game's own keys."""
    return load_spec(game.info.spec_dir, game_keys(game))


# -- running ---------------------------------------------------------------------


def run_example(game: Game[Any, Any, Any], example: Example) -> None:
    """Check ``example`` against ``game``; raise :class:`ExampleFailure` naming its id."""
    try:
        _run(game, example)
    except ExampleFailure as exc:
        raise ExampleFailure(f"{example.id} ({example.path}:{example.line}): {exc}") from None


def iter_failures(game: Game[Any, Any, Any], spec: Spec) -> Iterator[tuple[Example, str]]:
    """Yield each example of ``spec`` that ``game`` fails, with the failure's message.

    An exception other than :class:`ExampleFailure` is a failure too, reported
    with its type.
    """
    for ex in spec.examples:
        try:
            run_example(game, ex)
        except ExampleFailure as exc:
            yield ex, str(exc)
        except Exception as exc:
            yield ex, f"{ex.id}: {type(exc).__name__}: {exc}"


def _run(game: Game[Any, Any, Any], ex: Example) -> None:
    keys = game_keys(game)
    for key, spec_key in keys.items():
        value = ex.get(key)
        if value is not None and spec_key.before is not None:
            outcome = spec_key.before(game, ex, value)
            if outcome is SETTLED:
                return
            game = outcome
    expected_error = ex.get("error")
    setup = ex.get("setup")
    if setup is not None:
        _run_setup(game, setup, expected_error)
        return
    for key, parse in (("notation", game.parse_state), ("action-text", game.parse_action)):
        text = ex.get(key)
        if text is not None:
            _expect_notation_error(parse, text, expected_error, ex.get("at"))
            return
    state_text = ex.get("state")
    if state_text is None:
        raise ExampleFailure("an example needs a state, a setup, a notation or an action-text")
    state = _read(game.parse_state, state_text, "state")
    if game.format_state(state) != state_text:
        raise ExampleFailure(
            f"state {state_text!r} is not canonical; it reads {game.format_state(state)!r}"
        )
    words = (ex.get("actions") or ex.get("action") or "").split()
    actions = tuple(_read(game.parse_action, word, "action") for word in words)
    stepper = capable(game, Capability.STEPPING)
    events: list[str] = []
    for index, action in enumerate(actions):
        if index == len(actions) - 1 and expected_error is not None:
            _expect_illegal(game, state, action, expected_error)
            return
        try:
            if stepper is not None:
                state, event = stepper.step(state, action)
                events.append(event)
            else:
                state = game.apply(state, action)
        except RuleError as exc:
            raise ExampleFailure(f"{game.format_action(action)} was rejected: {exc}") from None
    if expected_error is not None:
        raise ExampleFailure(f"expected an error under rule {expected_error}, but no action")
    played = Played(game, ex, actions, state, tuple(events) if stepper is not None else None)
    _check_events(played)
    result = ex.get("result")
    if result is not None and game.format_state(state) != result:
        raise ExampleFailure(f"expected state {result!r}, got {game.format_state(state)!r}")
    _check_moves(played)
    _check_json(played)
    for key, spec_key in keys.items():
        value = ex.get(key)
        if value is not None and spec_key.check is not None:
            spec_key.check(played, value)


def _read(parse: Callable[[str], Any], text: str, what: str) -> Any:
    try:
        return parse(text)
    except RuleError as exc:
        raise ExampleFailure(f"the {what} {text!r} does not read: {exc}") from None


def _check_events(played: Played) -> None:
    ex = played.example
    wanted = ex.get("events")
    last_only = wanted is None
    if last_only:
        wanted = ex.get("event")
    if wanted is None:
        return
    stepper = capable(played.game, Capability.STEPPING)
    if played.events is None or stepper is None:
        raise ExampleFailure("the game reports no events, so the example cannot name one")
    names = wanted.split()
    known = stepper.events
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ExampleFailure(f"unknown event {unknown[0]!r}; the game's are {' '.join(known)}")
    got = list(played.events[-1:] if last_only else played.events)
    if got != names:
        raise ExampleFailure(f"expected events {' '.join(names)}, got {' '.join(got) or 'none'}")


def _check_moves(played: Played) -> None:
    moves = played.example.get("moves")
    if moves is None:
        return
    game = played.game
    got = [game.format_action(a) for a in game.legal_actions(played.state)]
    want = [] if moves == "none" else moves.split()
    for text in want:
        action = _read(game.parse_action, text, "legal action")
        if game.format_action(action) != text:
            raise ExampleFailure(f"the legal action {text!r} is not written canonically")
    if len(set(want)) != len(want):
        raise ExampleFailure("the example lists a legal action twice")
    if sorted(got) != sorted(want):
        missing = sorted(set(want) - set(got))
        extra = sorted(set(got) - set(want))
        raise ExampleFailure(
            f"expected legal actions {moves}, got {' '.join(got) or 'none'}"
            f" (missing: {' '.join(missing) or '-'}; not expected: {' '.join(extra) or '-'})"
        )
    if game.info.provides(Capability.ORDERS_MOVES) and got != want:
        raise ExampleFailure(f"expected legal actions in the order {moves}, got {' '.join(got)}")


def _check_json(played: Played) -> None:
    game, ex = played.game, played.example
    want_state = ex.get("json")
    if want_state is not None:
        expected = _load_json(want_state)
        got = game.state_to_json(played.state)
        if got != expected:
            raise ExampleFailure(f"expected JSON {want_state}, got {json.dumps(got)}")
        back = _read(game.state_from_json, expected, "JSON state")
        if back != played.state:
            raise ExampleFailure(f"the JSON form reads back as {game.format_state(back)!r}")
    want_action = ex.get("action-json")
    if want_action is not None:
        if len(played.actions) != 1:
            raise ExampleFailure("action-json needs exactly one action")
        expected = _load_json(want_action)
        action = played.actions[0]
        got = game.action_to_json(action)
        if got != expected:
            raise ExampleFailure(f"expected action JSON {want_action}, got {json.dumps(got)}")
        if _read(game.action_from_json, expected, "JSON action") != action:
            raise ExampleFailure("the action's JSON form reads back as another action")


def _load_json(text: str) -> JSON:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ExampleFailure(f"malformed JSON in the example: {exc}") from None


def _expect_illegal(game: Game[Any, Any, Any], state: Any, action: Any, rule: str) -> None:
    before = game.format_state(state)
    try:
        after = game.apply(state, action)
    except IllegalAction as exc:
        if exc.rule != rule:
            raise ExampleFailure(f"expected rule {rule}, got rule {exc.rule}: {exc}") from None
        if game.format_state(state) != before:  # pragma: no cover - states are values
            raise ExampleFailure("the refused action changed the state") from None
        return
    raise ExampleFailure(
        f"expected {game.format_action(action)} to break {rule}, "
        f"but it gave {game.format_state(after)!r}"
    )


def _expect_notation_error(
    parse: Callable[[str], object], text: str, rule: str | None, at: str | None
) -> None:
    if rule is None:
        raise ExampleFailure("a notation example needs an error")
    try:
        got = parse(text)
    except RuleError as exc:
        if exc.rule != rule:
            raise ExampleFailure(f"expected rule {rule}, got rule {exc.rule}: {exc}") from None
        if at is not None:
            position = exc.position if isinstance(exc, NotationError) else None
            if position != int(at):
                raise ExampleFailure(
                    f"expected the error at position {at}, got {position}: {exc}"
                ) from None
        return
    raise ExampleFailure(f"expected {text!r} to be rejected under {rule}, but it read as {got!r}")


def parse_setup(setup: str) -> tuple[dict[str, JSON], JSON]:
    """Split a ``setup`` example's ``key=value`` words into a JSON configuration and a first player.

    A value is read as an integer when it is one, as an object when it is
    ``key:value`` pairs separated by commas (the values again integers when
    they are) or nothing at all (an empty object), as a list when it is
    other values separated by commas (each read as an integer or kept as
    text), and otherwise kept as text, so that an example can state a value
    the game must refuse.  ``first_player`` is taken out (0 when absent).

    >>> parse_setup('players=3 counters=x first_player=1')
    ({'players': 3, 'counters': 'x'}, 1)
    >>> parse_setup('heights=7:3,8:2 variant=A')
    ({'heights': {'7': 3, '8': 2}, 'variant': 'A'}, 0)
    >>> parse_setup('colours=R,B seats=2,0')
    ({'colours': ['R', 'B'], 'seats': [2, 0]}, 0)
    >>> parse_setup('heights=')
    ({'heights': {}}, 0)
    """
    values: dict[str, JSON] = {}
    first_player: JSON = 0
    for word in shlex.split(setup):
        key, _, text = word.partition("=")
        value = _setup_value(text)
        if key == "first_player":
            first_player = value
        else:
            values[key] = value
    return values, first_player


def _setup_value(text: str) -> JSON:
    if not text:
        return {}
    if _INTEGER.match(text):
        return int(text)
    pairs = [cell.partition(":") for cell in text.split(",")]
    if ":" in text and all(sep and key for key, sep, _ in pairs):
        return {key: _setup_value(value) for key, _, value in pairs}
    if "," in text and ":" not in text:
        return [int(cell) if _INTEGER.match(cell) else cell for cell in text.split(",")]
    return text


def _run_setup(game: Game[Any, Any, Any], setup: str, rule: str | None) -> None:
    config, first_player = parse_setup(setup)
    expect_refusal(
        lambda: game.new_game(game.config_from_json(config), first_player), rule, f"setup {setup!r}"
    )


def expect_refusal(call: Callable[[], object], rule: str | None, what: str) -> None:
    """Call ``call`` and check that it refuses ``what`` with a rule error under ``rule``.

    Raises :class:`ExampleFailure` when ``rule`` is ``None`` (the example
    names no error), when ``call`` returns, or when it names another rule.
    A game's own keys check their refusals with it.

    >>> def refuse() -> None:
    ...     raise RuleError("no", "R1.1")
    >>> expect_refusal(refuse, "R1.1", "the setup")
    >>> expect_refusal(refuse, "R1.2", "the setup")
    Traceback (most recent call last):
    ...
    dicekit.spec.ExampleFailure: expected rule R1.2, got rule R1.1: no (rule R1.1)
    """
    if rule is None:
        raise ExampleFailure(f"an example of {what} that must be rejected needs an error")
    try:
        call()
    except RuleError as exc:
        if exc.rule != rule:
            raise ExampleFailure(f"expected rule {rule}, got rule {exc.rule}: {exc}") from None
        return
    raise ExampleFailure(f"expected {what} to be rejected under {rule}")
