"""Hypothesis strategies for any game on the layer: configurations, reachable states, actions.

Every strategy is built from the game protocol alone, so the same property
tests run on every game (``tests/dicekit/test_properties.py`` runs them on
all three of this distribution).  It needs `Hypothesis
<https://hypothesis.readthedocs.io>`_, which the ``test`` extra installs: in a
clone of the repository, ``python3 -m pip install -e '.[test]'``.

=============================  ==================================================
strategy                       draws
=============================  ==================================================
:func:`configs`                the standard configuration of a drawn player count
:func:`reachable_states`       a state reached by legal play, chance included
:func:`legal_actions`          an action a given state accepts: a legal action or
                               one of chance's outcomes
:func:`illegal_actions`        an action of the game that a given state refuses
=============================  ==================================================

Reachable states shrink towards the opening, and action by action towards
the first legal action, the first outcome of chance, and letting chance act
where the player may choose it (:mod:`dicekit.nodes`).  The examples play
the toy game of the layer's tests.

>>> from hypothesis import given, settings
>>> from tests.dicekit.toy import TOY as GAME  # the layer's toy game
>>> @settings(max_examples=20)
... @given(reachable_states(GAME, max_actions=20))
... def test_reachable_states_read_back(state):
...     assert GAME.parse_state(GAME.format_state(state)) == state
>>> test_reachable_states_read_back()
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from dicekit.errors import hypothesis_missing

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(hypothesis_missing("dicekit.strategies")) from exc

from dicekit.errors import RuleError
from dicekit.nodes import decisions
from dicekit.protocol import CHANCE, Game
from dicekit.seeded import play_out

__all__ = ["configs", "illegal_actions", "legal_actions", "reachable_states"]

_AnyGame = Game[Any, Any, Any]

#: How many steps of seeded play gather the actions :func:`illegal_actions` draws from.
_CORPUS_STEPS = 80


def configs(game: _AnyGame, players: int | Sequence[int] | None = None) -> st.SearchStrategy[Any]:
    """Return a strategy for the standard configuration of a player count the game allows.

    ``players`` is a count or the counts to choose from, by default every
    count from ``game.info.min_players`` to ``max_players``.  Shrinks
    towards the fewest players.

    >>> from hypothesis import given, settings
    >>> from tests.dicekit.toy import TOY as GAME
    >>> @settings(max_examples=10)
    ... @given(configs(GAME, [2, 3]))
    ... def test_two_or_three_players(config):
    ...     assert config == GAME.config(config.players) and config.players in (2, 3)
    >>> test_two_or_three_players()
    """
    info = game.info
    if players is None:
        counts: Sequence[int] = range(info.min_players, info.max_players + 1)
    elif isinstance(players, int):
        counts = (players,)
    else:
        counts = tuple(players)
    return st.sampled_from(tuple(counts)).map(game.config)


def _opening(game: _AnyGame, config: Any, first: int) -> Any:
    """Return the opening with ``first`` to begin, or player 0 when the game has fewer players."""
    try:
        return game.new_game(config, first)
    except RuleError:
        return game.new_game(config)


def reachable_states(
    game: _AnyGame, config: Any = None, *, max_actions: int = 60
) -> st.SearchStrategy[Any]:
    """Return a strategy for states reached by legal play from a new game of ``game``.

    ``config`` is a configuration, a strategy for one, or ``None`` for
    :func:`configs`.  The first player and up to ``max_actions`` actions are
    drawn: at a chance node, one of its outcomes; at a decision, one of the
    player's decisions (:func:`dicekit.nodes.decisions`), and one of chance's
    outcomes if the player lets chance act.  Every action is applied with
    ``game.apply``.

    A property over reached states; whatever Hypothesis draws, each state
    passes the game's invariants and reads back from its notation:

    >>> from hypothesis import given, settings
    >>> from tests.dicekit.toy import TOY as GAME
    >>> @settings(max_examples=20)
    ... @given(reachable_states(GAME))
    ... def test_a_reached_state_is_valid(state):
    ...     GAME.check(state)
    ...     assert GAME.parse_state(GAME.format_state(state)) == state
    >>> test_a_reached_state_is_valid()
    """
    if config is None:
        drawn_config: st.SearchStrategy[Any] = configs(game)
    elif isinstance(config, st.SearchStrategy):
        drawn_config = config
    else:
        drawn_config = st.just(config)

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        chosen = draw(drawn_config)
        state = _opening(game, chosen, draw(st.integers(0, game.info.max_players - 1)))
        for _ in range(draw(st.integers(0, max_actions))):
            if game.is_over(state):
                break
            # Letting chance act first, so that a decision shrinks towards it.
            options = sorted(decisions(game, state), key=lambda option: option is not CHANCE)
            action = draw(st.sampled_from(options)) if options else CHANCE
            if action is CHANCE:
                action = draw(st.sampled_from([a for a, _ in game.chance_outcomes(state)]))
            state = game.apply(state, action)
        return state

    return build()


def legal_actions(game: _AnyGame, state: Any) -> st.SearchStrategy[Any]:
    """Return a strategy for the actions ``state`` accepts: its legal actions and chance's outcomes.

    Empty (:func:`hypothesis.strategies.nothing`) for a finished game.

    >>> from hypothesis import given, settings
    >>> from tests.dicekit.toy import TOY as GAME
    >>> state = GAME.parse_state('0,0/4/1d')  # hold, or roll on: one of six faces
    >>> @settings(max_examples=10)
    ... @given(legal_actions(GAME, state))
    ... def test_a_hold_or_a_face(action):
    ...     assert GAME.format_action(action) in ('hold', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6')
    >>> test_a_hold_or_a_face()
    """
    choices = [*game.legal_actions(state), *(a for a, _ in game.chance_outcomes(state))]
    return st.sampled_from(choices) if choices else st.nothing()


class _Uniform:
    """A bot that draws one of the legal actions uniformly; chance acts only if none is legal."""

    name = "uniform"

    def __init__(self, game: _AnyGame) -> None:
        self.game = game

    def act(self, state: Any, rng: random.Random) -> Any:
        legal = self.game.legal_actions(state)
        return legal[rng.randrange(len(legal))] if legal else CHANCE


def _corpus(game: _AnyGame, state: Any) -> list[Any]:
    """Actions of the game met in seeded play: on from ``state``, and from the openings."""
    met: list[Any] = []
    bots = [_Uniform(game)] * game.info.max_players
    counts = sorted({game.info.min_players, game.info.max_players})
    starts = [state, *(game.new_game(game.config(n)) for n in counts)]
    for start in starts:
        for step in play_out(game, start, bots, random.Random(0), limit=_CORPUS_STEPS):
            met.extend(game.legal_actions(step.before))
            met.extend(a for a, _ in game.chance_outcomes(step.before))
    return met


def illegal_actions(game: _AnyGame, state: Any) -> st.SearchStrategy[Any]:
    """Return a strategy for actions of the game that ``state`` neither lists nor offers to chance.

    The actions are those met in seeded legal play (on from ``state``, and
    from the openings of the smallest and the largest configuration): the
    legal actions and chance's outcomes of the states passed, less the
    legal actions and chance's outcomes of ``state`` itself.  A game's
    ``apply`` refuses each of them with :class:`~dicekit.errors.IllegalAction`
    (a property the tests check for every game).  Empty when seeded play
    meets no such action.

    >>> import pytest
    >>> from hypothesis import given, settings
    >>> from tests.dicekit.toy import TOY as GAME
    >>> from dicekit.errors import IllegalAction
    >>> state = GAME.parse_state('0,0/0/0r')  # about to roll: a hold is refused
    >>> @settings(max_examples=10)
    ... @given(illegal_actions(GAME, state))
    ... def test_refused_before_a_roll(action):
    ...     with pytest.raises(IllegalAction) as refusal:
    ...         GAME.apply(state, action)
    ...     assert refusal.value.rule == 'R2.5'
    >>> test_refused_before_a_roll()
    """
    offered = [*game.legal_actions(state), *(a for a, _ in game.chance_outcomes(state))]
    found: dict[str, Any] = {}
    for action in _corpus(game, state):
        if action not in offered:
            found.setdefault(game.format_action(action), action)
    return st.sampled_from([found[text] for text in sorted(found)]) if found else st.nothing()
