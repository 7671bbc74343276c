"""The protocol's readers, for every registered game: they raise only what the protocol says.

:class:`dicekit.protocol.Forms` promises that ``config_from_json``,
``state_from_json``, ``action_from_json``, ``parse_state`` and
``parse_action`` raise :class:`~dicekit.errors.NotationError` or
:class:`~dicekit.errors.InvalidConfig` for anything they refuse.  Each
game's written forms of states met in play are damaged one field or one
character at a time, and every refusal must be one of the two.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from dicekit import registry
from dicekit.errors import InvalidConfig, NotationError
from dicekit.playing import play_out

#: What a damaged field is set to: values of every JSON kind, in and out of range.
JUNK: list[Any] = [None, True, -1, 0, 1, 2, 7, 10**30, 1.5, "", "x", [], [0], [[]], {}, {"a": 1}]


def _states(game: Any, seed: int, count: int = 40) -> list[Any]:
    """Return states met in a few games between the game's first built-in players."""
    makers = list(game.bots().values())
    found = []
    rng = random.Random(seed)
    for _ in range(3):
        config = game.config(game.info.min_players if game.info.min_players > 1 else 2)
        players = game.player_count(config)
        bots = [makers[p % len(makers)]() for p in range(players)]
        state = game.new_game(config)
        found.append(state)
        for step in play_out(game, state, bots, rng, limit=200):
            found.append(step.after)
    return found[:: max(1, len(found) // count)]


def _damaged(value: Any) -> Iterator[Any]:
    """Yield ``value`` with one part changed or removed, down to two levels deep."""
    yield from JUNK
    if isinstance(value, dict):
        for key in value:
            less = dict(value)
            del less[key]
            yield less
            for part in _damaged_shallow(value[key]):
                yield {**value, key: part}
        yield {**value, "extra": 1}
    elif isinstance(value, list):
        for i in range(len(value)):
            yield value[:i] + value[i + 1 :]
            for part in _damaged_shallow(value[i]):
                yield [*value[:i], part, *value[i + 1 :]]
        yield [*value, 1]


def _damaged_shallow(value: Any) -> Iterator[Any]:
    yield from JUNK
    if isinstance(value, dict):
        for key in value:
            for junk in JUNK:
                yield {**value, key: junk}
    elif isinstance(value, list):
        for i in range(len(value)):
            for junk in JUNK:
                yield [*value[:i], junk, *value[i + 1 :]]


def _texts(text: str, rng: random.Random, count: int = 30) -> Iterator[str]:
    """Yield ``text`` with one character changed, dropped or doubled."""
    alphabet = "0123456789/,:-+ .abcdrtxyzRBGY@#^"
    for _ in range(count):
        i = rng.randrange(len(text) + 1)
        yield text[:i] + rng.choice(alphabet) + text[i + 1 :]
        yield text[:i] + text[i + 1 :]
        yield text[:i] + text[i:][:1] * 2 + text[i + 1 :]


def _refusals(read: Callable[[Any], Any], values: Iterator[Any]) -> list[str]:
    """Return what ``read`` raised, for each value, that is neither of the protocol's errors."""
    wrong = []
    for value in values:
        try:
            read(copy.deepcopy(value))
        except (NotationError, InvalidConfig):
            continue
        except Exception as exc:
            wrong.append(f"{type(exc).__name__} for {value!r:.120}: {exc}")
    return wrong


@pytest.mark.parametrize("name", registry.names())
def test_readers_raise_only_the_protocols_errors(name: str) -> None:
    game = registry.load_game(name)
    rng = random.Random(name)
    wrong: list[str] = []
    for state in _states(game, 1):
        wrong += _refusals(game.state_from_json, _damaged(game.state_to_json(state)))
        wrong += _refusals(game.parse_state, _texts(game.format_state(state), rng))
        for action in list(game.legal_actions(state))[:2]:
            wrong += _refusals(game.action_from_json, _damaged(game.action_to_json(action)))
            wrong += _refusals(game.parse_action, _texts(game.format_action(action), rng))
        for action, _ in list(game.chance_outcomes(state))[:2]:
            wrong += _refusals(game.action_from_json, _damaged(game.action_to_json(action)))
    config = game.config(game.info.max_players)
    wrong += _refusals(game.config_from_json, _damaged(game.config_to_json(config)))
    assert not wrong, f"{len(wrong)} refusals of other kinds, e.g.\n" + "\n".join(wrong[:5])
