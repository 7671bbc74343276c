"""The link between the model that was proven and the engine: they agree on concrete states.

The model's formulas, evaluated by the Python backend on a concrete board
(:class:`~tower.proofs.model.ShippedBoard`), are compared with the engine:

- on the small board with two players, on the states the rules can reach
  from the opening (found by a breadth-first search over all throws and
  moves; every one of them, or the first ``max_states``): for a
  state about to throw, the state after each of the 21 sorted throws (a throw
  and its reverse lead to one state, which the tests check); for a state
  choosing a move, the legal moves and the state after each;
- on the small board and on our board, on the states of seeded random games.

>>> report = reachable_agree(max_states=50)
>>> report.agree, report.cases > 0
(True, True)
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from dicekit.dice import ORDERED_THROWS
from dicekit.proofs import verdicts
from tower.actions import Move, Throw
from tower.config import Config, make_config
from tower.errors import IllegalAction
from tower.notation import format_state
from tower.proofs.model import CHOOSE, OVER, PY, THROW, Model, Shape, ShippedBoard, Vars
from tower.state import Phase, State, new_game

__all__ = ["LinkReport", "random_agree", "reachable_agree", "state_agrees", "to_vars"]

_PHASES = {Phase.THROW: THROW, Phase.CHOOSE: CHOOSE, Phase.OVER: OVER}
_SORTED_THROWS = [(a, b) for a, b in ORDERED_THROWS if a <= b]


@dataclass
class LinkReport(verdicts.LinkReport):
    """How many comparisons were made and states met, and any disagreement."""

    #: How many states were met.
    states: int = 0


def model_of(config: Config) -> Model:
    """Return the model of ``config``'s shape on its concrete board, Python backend."""
    return Model(Shape(config.players, config.stones), ShippedBoard(config), PY)


def to_vars(state: State) -> Vars:
    """Return the model's view of an engine state: counts, and the stones on fields in slots."""
    config = state.config
    start, goal, tower, on, at = [], [], [], [], []
    for p, places in enumerate(state.stones):
        length = config.lengths[p]
        track = [x for x in places if 0 < x < length]
        start.append(places.count(0))
        goal.append(places.count(length))
        tower.append(1 if state.tower == p else 0)
        on.append(tuple([True] * len(track) + [False] * (config.stones - len(track))))
        at.append(tuple(track + [0] * (config.stones - len(track))))
    return Vars(
        player=state.player,
        phase=_PHASES[state.phase],
        dice=state.dice or (0, 0),
        start=tuple(start),
        goal=tuple(goal),
        tower=tuple(tower),
        on=tuple(on),
        at=tuple(at),
    )


def _normal(v: Vars) -> tuple[object, ...]:
    """Return a model state in a form that does not depend on which slot holds which stone."""
    tracks = tuple(
        tuple(sorted(a for o, a in zip(on, at, strict=True) if o))
        for on, at in zip(v.on, v.at, strict=True)
    )
    return (v.player, v.phase, v.dice, v.start, v.goal, v.tower, tracks)


def state_agrees(model: Model, state: State, report: LinkReport) -> list[State]:
    """Compare engine and model on every transition from ``state``; return the states reached."""
    report.states += 1
    me = state.player
    v = to_vars(state)
    text = format_state(state)
    reached: list[State] = []
    if state.phase is Phase.THROW:
        for a, b in _SORTED_THROWS:
            report.cases += 1
            after = state.apply(Throw((a, b)))
            thrown = model.thrown(v, me, a, b)
            expected = thrown if model.any_move(thrown, me) else model.forfeited(thrown, me)
            if _normal(expected) != _normal(to_vars(after)):
                report.disagreements.append(f"t{a}{b} from {text}: engine {format_state(after)}")
            reached.append(after)
    elif state.phase is Phase.CHOOSE:
        report.cases += 1
        engine = [(m.step, m.points) for m in state.legal_moves()]
        if model.moves(v, me) != engine:
            report.disagreements.append(
                f"moves of {text}: engine {engine}, model {model.moves(v, me)}"
            )
        for c in model.choices():
            moving = model.moving(v, me, c)
            if not moving.legal:
                continue
            report.cases += 1
            try:
                after = state.apply(Move(moving.source, moving.points))
            except IllegalAction as error:
                report.disagreements.append(f"{moving.source}+{moving.points}: engine: {error}")
                continue
            if _normal(model.moved(v, me, moving)) != _normal(to_vars(after)):
                report.disagreements.append(
                    f"{moving.source}+{moving.points} from {text}: engine {format_state(after)}"
                )
            reached.append(after)
    return reached


def reachable_agree(config: Config | None = None, max_states: int | None = None) -> LinkReport:
    """Compare engine and model on every state reachable on ``config`` (small board, 2 players)."""
    config = config or make_config("small", 2)
    model = model_of(config)
    report = LinkReport()
    starts = [new_game(config, first) for first in range(config.players)]
    seen = set(starts)
    queue = deque(starts)
    while queue and (max_states is None or report.states < max_states):
        for after in state_agrees(model, queue.popleft(), report):
            if after not in seen:
                seen.add(after)
                queue.append(after)
    return report


def random_agree(configs: Iterable[Config], seeds: Iterable[int], actions: int = 300) -> LinkReport:
    """Compare engine and model on the states of seeded random games."""
    report = LinkReport()
    seeds = list(seeds)
    for config in configs:
        model = model_of(config)
        for seed in seeds:
            rng = random.Random(seed)
            state = new_game(config, seed % config.players)
            for _ in range(actions):
                reached = state_agrees(model, state, report)
                if not reached:
                    break
                state = rng.choice(reached)
    return report
