"""The link between the proven model and the engine in :mod:`finishline`.

The formulas of :class:`~finishline.proofs.model.Model` are evaluated with the
Python backend (:data:`~finishline.proofs.model.PY`): the very code z3 reasons
about, run on concrete states, and compared with the engine.

- :func:`rolls_reduce`: a roll and the same dice in the other order lead to
  the same state and event in the engine, so the model's sorted dice stand
  for all 36 rolls.
- :func:`rolls_agree`: from every ROLL state met, each of the 21 rolls
  forfeits in the model exactly when it does in the engine, with the same
  state after.
- :func:`actions_agree`: in every CHOOSE state met, the model's legal
  actions (every choice of its ``play``, ``sideways`` and ``double``
  transitions whose guard holds) are the engine's, each leading to the same
  state.  A step's cell must lie in its die's row (the guard says so), so
  only such cells are tried for a play, and only after a first step that
  the guard's own test of it accepts.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator

from dicekit.proofs.verdicts import LinkReport
from finishline import Config as EngineConfig
from finishline import Phase, Roll, State, format_action, format_state, new_game
from finishline.board import CELLS
from finishline.proofs.model import BOARD, MOVE, NONE, PLACE, PY, Config, Model, PlayChoice, Vars
from finishline.proofs.render import state_text, values_of

__all__ = [
    "action_text",
    "actions_agree",
    "engine_config",
    "model_actions",
    "nearest_states",
    "random_states",
    "rolls_agree",
    "rolls_reduce",
]

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def random_states(config: EngineConfig, seeds: Iterable[int]) -> Iterator[State]:
    """Yield every state of games of uniformly random legal play, one game per seed."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(config, rng.randrange(config.players))
        yield state
        while state.phase is not Phase.OVER:
            if state.phase is Phase.ROLL:
                state = state.apply(Roll((rng.randint(1, 6), rng.randint(1, 6))))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
            yield state


def nearest_states(config: EngineConfig, count: int | None = None) -> list[State]:
    """Return the ``count`` reachable states nearest the opening, breadth first; all if ``None``.

    The search starts from the opening of every first player and follows
    each of the 21 rolls from a ROLL state and each legal action from a
    CHOOSE state, so every state returned is compared on all its rolls or
    actions by the checks below.

    >>> len(nearest_states(EngineConfig(2, 1), 5))
    5
    """
    starts = [new_game(config, first) for first in range(config.players)]
    seen = set(starts)
    queue = deque(starts)
    found: list[State] = []
    while queue and (count is None or len(found) < count):
        state = queue.popleft()
        found.append(state)
        if state.phase is Phase.ROLL:
            after = [state.apply(Roll(dice)) for dice in ROLLS]
        else:
            after = [state.apply(action) for action in state.legal_actions()]
        for reached in after:
            if reached not in seen:
                seen.add(reached)
                queue.append(reached)
    return found


def _projection(s: Vars) -> tuple[object, ...]:
    """Return the state without the ghost flag, which the engine does not keep."""
    return (s.player, s.phase, s.dice, s.cells, s.hand, s.across)


def action_text(kind: str, values: tuple[int, ...]) -> str:
    """Write a concrete choice of the model as the action it is, in the notation (N2).

    A play is written by what happens to each counter: a placement followed
    by a move of the same cell is ``+C5^``, two moves of one counter ``C6^^``.
    """

    def name(row: int, col: int) -> str:
        return CELLS[(row - 1) * 4 + col].name

    if kind == "sideways":
        row, col, to = values
        return f"{name(row, col)}-{name(row, to)}"
    if kind == "double":
        row, col = values
        return f"double:{name(row, col)}"
    _, k1, r1, c1, k2, r2, c2 = values
    first = (k1 == PLACE, name(r1, c1), 0 if k1 == PLACE else 1)
    if k2 == NONE:
        moves = [first]
    elif k1 == PLACE and k2 == MOVE and (r1, c1) == (r2, c2):
        moves = [(True, name(r1, c1), 1)]
    elif k1 == MOVE and k2 == MOVE and r1 > 1 and (r1 - 1, c1) == (r2, c2):
        moves = [(False, name(r1, c1), 2)]
    else:
        moves = [first, (k2 == PLACE, name(r2, c2), 0 if k2 == PLACE else 1)]
    moves.sort(key=lambda m: (m[0], (int(m[1][1]) - 1) * 4 + "ABCD".index(m[1][0])))
    return ",".join(("+" if enter else "") + cell + "^" * rows for enter, cell, rows in moves)


def model_actions(model: Model, s: Vars) -> dict[str, Vars]:
    """Return every action the model allows in the CHOOSE state ``s``, with the state after it."""
    found: dict[str, Vars] = {}
    d1, d2 = s.dice
    hand = model.per_player(s.player, lambda p: s.hand[p])
    for order in (0, 1):
        first, second = (d1, d2) if order == 0 else (d2, d1)
        for k1 in (PLACE, MOVE):
            for c1 in range(4):
                # The guard holds only if the first step does: skip the others early.
                if not model._chosen_ok(s, s.cells, hand, k1, first, c1, first):
                    continue
                for k2 in (NONE, PLACE, MOVE):
                    for c2 in range(4) if k2 != NONE else (0,):
                        values = (order, k1, first, c1, k2, second, c2)
                        choice = PlayChoice(*values)
                        if model.play_guard(s, choice):
                            _add(found, action_text("play", values), model.play(s, choice).after)
    for r, c in BOARD:
        for to in (c - 1, c + 1):
            if model.sideways_guard(s, r, c, to):
                after = model.sideways(s, r, c, to).after
                _add(found, action_text("sideways", (r, c, to)), after)
        t = model.double(s, r, c)
        if t.guard:
            _add(found, action_text("double", (r, c)), t.after)
    return found


def _add(found: dict[str, Vars], text: str, after: Vars) -> None:
    if text in found and _projection(found[text]) != _projection(after):
        raise AssertionError(f"the model gives two states for {text}")
    found[text] = after


def rolls_reduce(states: Iterable[State]) -> LinkReport:
    """Check that a roll and its dice in the other order give the same step (R4.1, R4.4)."""
    problems: list[str] = []
    cases = 0
    for state in states:
        if state.phase is not Phase.ROLL:
            continue
        for a in range(1, 7):
            for b in range(a + 1, 7):
                cases += 1
                if state.step(Roll((a, b))) != state.step(Roll((b, a))):
                    problems.append(f"{format_state(state)}: r{a}{b} and r{b}{a} differ")
    return LinkReport(cases, problems)


def _compare(
    config: Config,
    states: Iterable[State],
    phase: Phase,
    mutations: frozenset[str],
    check: Callable[[Model, State], tuple[int, list[str]]],
) -> LinkReport:
    """Run ``check`` on the model of ``config``, broken by ``mutations``, at each ``phase`` state.

    ``check`` returns how many cases it compared and the problems it found.
    """
    model = Model(config, PY, mutations)
    problems: list[str] = []
    cases = 0
    for state in states:
        if state.phase is phase:
            model.forget()
            compared, found = check(model, state)
            cases += compared
            problems.extend(found)
    return LinkReport(cases, problems)


def rolls_agree(
    config: Config, states: Iterable[State], mutations: frozenset[str] = frozenset()
) -> LinkReport:
    """Check every roll from every ROLL state: forfeit exactly when the engine does (R9.1).

    ``mutations`` breaks the model as in :data:`~finishline.proofs.mutations.MUTANTS`.
    """
    return _compare(config, states, Phase.ROLL, mutations, _roll_problems)


def _roll_problems(model: Model, state: State) -> tuple[int, list[str]]:
    s = values_of(state)
    problems: list[str] = []
    for d1, d2 in ROLLS:
        step = state.step(Roll((d1, d2)))
        rolled = model.roll(s, (d1, d2))
        forfeit = model.forfeit(s, (d1, d2))
        if bool(rolled.guard) == bool(forfeit.guard):
            problems.append(
                f"{format_state(state)} r{d1}{d2}: roll and forfeit both {rolled.guard}"
            )
            continue
        after = rolled.after if rolled.guard else forfeit.after
        expected = values_of(step.state)
        if _projection(after) != _projection(expected):
            problems.append(
                f"{format_state(state)} r{d1}{d2}: engine {format_state(step.state)}, "
                f"model {state_text(model.config, after)}"
            )
    return len(ROLLS), problems


def actions_agree(
    config: Config, states: Iterable[State], mutations: frozenset[str] = frozenset()
) -> LinkReport:
    """Check every CHOOSE state: the same legal actions, each to the same state (R4 to R8).

    The model is broken by ``mutations``, named as in :data:`~finishline.proofs.mutations.MUTANTS`.
    """
    return _compare(config, states, Phase.CHOOSE, mutations, _action_problems)


def _action_problems(model: Model, state: State) -> tuple[int, list[str]]:
    found = model_actions(model, values_of(state))
    engine = {format_action(a): state.apply(a) for a in state.legal_actions()}
    if set(found) != set(engine):
        return len(engine), [
            f"{format_state(state)}: only the engine has {sorted(set(engine) - set(found))}, "
            f"only the model {sorted(set(found) - set(engine))}"
        ]
    return len(engine), [
        f"{format_state(state)} {text}: engine {format_state(after)}, "
        f"model {state_text(model.config, found[text])}"
        for text, after in engine.items()
        if _projection(found[text]) != _projection(values_of(after))
    ]


def engine_config(config: Config) -> EngineConfig:
    """Return the engine's configuration for a model configuration."""
    return EngineConfig(config.players, config.counters)
