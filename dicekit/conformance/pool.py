"""The seeded games and reachable states that the generic case families of any game draw from.

A game's vectors are drawn from a fixed set of random games, one group per
:class:`Setup` (a configuration, its player count and what a port must
support to play it), each game seeded by name so that every run draws the
same ones.  A random game takes a legal action or lets chance act, chance
drawing its outcomes with their exact probabilities, until the game ends or
a number of actions is reached.

>>> import random
>>> pick_weighted([("a", 1), ("b", 3)], random.Random(1))
'b'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

from dicekit.conformance.ranking import rule_key
from dicekit.conformance.suite import Case
from dicekit.nodes import decisions
from dicekit.protocol import CHANCE, Capability, Game, capable

__all__ = [
    "PlayedMove",
    "Pool",
    "Setup",
    "VectorError",
    "default_setups",
    "make_case",
    "pick_weighted",
    "play_game",
    "state_pool",
]

T = TypeVar("T")


class VectorError(Exception):
    """The game cannot be given vectors as asked: it lacks what they need, or contradicts itself."""


@dataclass(frozen=True)
class Setup:
    """A configuration the vectors play, named in case ids, and what a port needs to play it."""

    #: A short name for case ids (``2p``, ``3p-t15``).
    name: str
    #: The game's configuration value.
    config: Any
    #: How many players it has: the first player of each game is drawn among them.
    players: int
    #: What a port must declare in ``hello`` to run its cases (``players=3``, ``counters``).
    needs: tuple[str, ...] = ()


def default_setups(game: Game[Any, Any, Any]) -> list[Setup]:
    """Return one standard setup for each player count the game allows, needing that count."""
    info = game.info
    return [
        Setup(f"{n}p", game.config(n), n, (f"players={n}",))
        for n in range(info.min_players, info.max_players + 1)
    ]


@dataclass(frozen=True)
class PlayedMove(Generic[T]):
    """One step of a random game: the state before, the action, the state after and its event."""

    before: Any
    action: T
    after: Any
    #: The event's name, for a game that reports events; otherwise ``None``.
    event: str | None


def pick_weighted(choices: Sequence[tuple[T, Fraction | int]], rng: random.Random) -> T:
    """Return one of ``choices`` drawn with its weight from ``rng`` (exact integer arithmetic)."""
    scale = math.lcm(*(Fraction(weight).denominator for _, weight in choices))
    weights = [int(Fraction(weight) * scale) for _, weight in choices]
    point = rng.randrange(sum(weights))
    for (choice, _), weight in zip(choices, weights, strict=True):
        if point < weight:
            return choice
        point -= weight
    raise AssertionError("unreachable: the weights cover the point")  # pragma: no cover


def random_action(game: Game[Any, Any, Any], state: Any, rng: random.Random, share: float) -> Any:
    """Return a random next action: one of the player's decisions, or chance's outcome.

    At a decision (:func:`dicekit.nodes.decisions`) where the player may let
    chance act, the player does so ``share`` of the time (always, if it is
    the only decision); otherwise a legal action is drawn uniformly.
    """
    options = decisions(game, state)
    chosen = bool(options) and options[-1] is CHANCE
    if not options or (chosen and (len(options) == 1 or rng.random() < share)):
        outcomes = game.chance_outcomes(state)
        if not outcomes:
            raise VectorError(
                f"{game.format_state(state)!r}: the game is not over, but no action is legal "
                "and chance cannot act"
            )
        return pick_weighted(list(outcomes), rng)
    legal = options[:-1] if chosen else options
    return legal[rng.randrange(len(legal))]


def play_game(
    game: Game[Any, Any, Any], setup: Setup, rng: random.Random, max_actions: int
) -> Iterator[PlayedMove[Any]]:
    """Yield the steps of one random game of ``setup`` drawn from ``rng``, up to ``max_actions``."""
    state = game.new_game(setup.config, rng.randrange(setup.players))
    share = rng.choice((0.5, 0.7, 0.85))  # how often chance acts where the player may hold
    stepper = capable(game, Capability.STEPPING)
    for _ in range(max_actions):
        if game.is_over(state):
            return
        action = random_action(game, state, rng, share)
        if stepper is not None:
            after, event = stepper.step(state, action)
            yield PlayedMove(state, action, after, event)
        else:
            after = game.apply(state, action)
            yield PlayedMove(state, action, after, None)
        state = after


@dataclass
class Pool:
    """The distinct states of the seeded games, in the order first reached, with their setups."""

    #: Each state's canonical text, in the order first reached.
    texts: list[str]
    #: The state of each text.
    states: dict[str, Any]
    #: The setup each state was reached under.
    setups: dict[str, Setup]
    #: Every distinct action seen (legal or chance's), by canonical text, sorted by text.
    actions: dict[str, Any]

    def where(self, keep: Callable[[Any], bool]) -> list[str]:
        """Return the texts of the states ``keep`` accepts, in the pool's order."""
        return [text for text in self.texts if keep(self.states[text])]


def state_pool(
    game: Game[Any, Any, Any], setups: Sequence[Setup], games: int, max_actions: int
) -> Pool:
    """Return the states of ``games`` seeded random games of every setup, and the actions seen."""
    pool = Pool([], {}, {}, {})
    seen_actions: dict[str, Any] = {}
    for setup in setups:
        for index in range(games):
            rng = random.Random(f"pool-{setup.name}-{index}")
            for move in play_game(game, setup, rng, max_actions):
                for state in (move.before, move.after):
                    text = game.format_state(state)
                    if text not in pool.states:
                        pool.texts.append(text)
                        pool.states[text] = state
                        pool.setups[text] = setup
                        for action in game.legal_actions(state):
                            seen_actions.setdefault(game.format_action(action), action)
                        for action, _ in game.chance_outcomes(state):
                            seen_actions.setdefault(game.format_action(action), action)
    pool.actions = dict(sorted(seen_actions.items()))
    return pool


def make_case(
    case_id: str, rules: Sequence[str], kind: str, needs: Sequence[str], **fields: Any
) -> Case:
    """Return a case: its id, its distinct rules in the spec's order, its kind, needs, ``fields``.

    >>> make_case("moves-1", ["R2.4", "R10.1", "R2.4"], "moves", ["players=3"])
    {'id': 'moves-1', 'rules': ['R2.4', 'R10.1'], 'kind': 'moves', 'needs': ['players=3']}
    """
    case: Case = {"id": case_id, "rules": sorted(set(rules), key=rule_key), "kind": kind}
    if needs:
        case["needs"] = list(needs)
    case.update(fields)
    return case
