"""The link between the proven model and the engine in ``cantstop/``: rolls and transitions.

The formulas of :class:`~proofs.model.Model` are evaluated here with the
Python backend (:data:`~dicekit.proofs.solver.PY`): the same code that z3 reasons
about, run on concrete states, and compared with the engine.

- :func:`ordered_rolls_reduce`: the 1296 ordered rolls reduce to the 126
  sorted ones, in the engine (a roll and its sorted form lead to the same
  state) and in the model (a roll and its sorted form have the same pairings).
- :func:`transitions_agree`: from one concrete state, every transition (roll,
  bust, move, stop, win) leads to the same state and event in both.

The exhaustive comparison of legal moves, every sorted roll in every
situation of its columns, is :mod:`proofs.situations`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

from cantstop import (
    Event,
    IllegalAction,
    Phase,
    Roll,
    Rules,
    State,
    Stop,
    format_state,
    new_game,
)
from cantstop.dice import sorted_dice
from dicekit.proofs.solver import PY
from dicekit.proofs.verdicts import LinkReport
from proofs.model import Model
from proofs.properties import Action
from proofs.render import moves_text, state_text, values_of
from proofs.state import TRANSITIONS, Config, Vars

__all__ = ["ordered_rolls_reduce", "random_states", "transitions_agree"]


def _all_dice() -> Iterator[tuple[int, int, int, int]]:
    """Every ordered roll of four dice (1296)."""
    return ((a, b, c, d) for a, b, c, d in itertools.product(range(1, 7), repeat=4))


def _pairs(dice: Sequence[int]) -> list[tuple[int, int]]:
    return sorted((min(a, b), max(a, b)) for a, b in Model.pairings_of(dice))


def ordered_rolls_reduce(states: Sequence[State]) -> LinkReport:
    """Check that only the sorted dice matter, for every one of the 1296 ordered rolls.

    In the model, the pairings of a roll (R4.2) are those of its sorted form.
    In the engine, applying a roll and applying its sorted form to each of
    ``states`` give the same event and the same state.
    """
    problems: list[str] = []
    cases = 0
    for dice in _all_dice():
        ordered = tuple(dice)
        ranked = sorted_dice(dice)
        cases += 1
        if _pairs(ordered) != _pairs(ranked):
            problems.append(f"model: r{''.join(map(str, ordered))} pairs differently when sorted")
        for state in states:
            cases += 1
            a = state.step(Roll(dice))
            b = state.step(Roll(ranked))
            if a != b:
                problems.append(
                    f"engine: {format_state(state)} r{''.join(map(str, ordered))} gives "
                    f"{format_state(a.state)} ({a.event.value}) but sorted gives "
                    f"{format_state(b.state)} ({b.event.value})"
                )
    return LinkReport(cases, problems)


def _action_for(model: Model, s: Vars, name: str, dice: tuple[int, int, int, int]) -> list[Action]:
    """Every concrete action of the model for transition ``name``."""
    if name != "move":
        return [Action(dice, 0, False, False)]
    return [
        Action(dice, i, ua, ub)
        for i in range(3)
        for ua, ub in ((True, True), (True, False), (False, True), (False, False))
    ]


def transitions_agree(state: State, dice: tuple[int, int, int, int]) -> LinkReport:
    """Compare every transition from ``state`` in engine and model; ``dice`` is the roll tried.

    A roll (ROLL or DECIDE phase) must be a roll in exactly one of the two
    (a roll with a legal move or a bust) with the same result; in the CHOOSE
    phase the legal moves must be the same and each must lead to the same
    state; in the DECIDE phase a stop must be refused by both (Variant B) or
    lead to the same state, with the event ``won`` exactly when the model
    takes ``win``.  In the OVER phase nothing is enabled in the model.
    """
    config = Config.of(state.rules)
    model = Model(config, PY)
    s = values_of(state)
    problems: list[str] = []
    cases = 0
    ranked = sorted_dice(dice)
    where = format_state(state)
    enabled: dict[str, list[tuple[Action, Vars]]] = {}
    for name in TRANSITIONS:
        for action in _action_for(model, s, name, ranked):
            t = action.transition(model, s, name)
            if t.guard:
                enabled.setdefault(name, []).append((action, t.after))
    if state.phase in (Phase.ROLL, Phase.DECIDE):
        cases += 1
        step = state.step(Roll(dice))
        kind = "bust" if step.event is Event.BUSTED else "roll"
        other = "roll" if kind == "bust" else "bust"
        got = enabled.get(kind, [])
        if (
            other in enabled
            or len(got) != 1
            or state_text(config, got[0][1]) != format_state(step.state)
        ):
            problems.append(
                f"{where} r{''.join(map(str, dice))}: engine {step.event.value} to "
                f"{format_state(step.state)}, model {_enabled_text(config, enabled)}"
            )
    if state.phase is Phase.CHOOSE:
        engine_moves = {m.columns: state.apply(m) for m in state.legal_moves()}
        model_moves: dict[tuple[int, ...], list[Vars]] = {}
        pairs = model.pairings(s.dice)
        for action, after in enabled.get("move", []):
            a, b = pairs[action.pairing]
            sums = tuple(sorted([a] * action.use_a + [b] * action.use_b))
            model_moves.setdefault(sums, []).append(after)
        cases += 1
        if set(engine_moves) != set(model_moves):
            problems.append(
                f"{where}: engine moves {moves_text(set(engine_moves))}, "
                f"model moves {moves_text(set(model_moves))}"
            )
        for columns, result in engine_moves.items():
            for after in model_moves.get(columns, []):
                cases += 1
                if state_text(config, after) != format_state(result):
                    problems.append(
                        f"{where} {'+'.join(map(str, columns))}: engine {format_state(result)}, "
                        f"model {state_text(config, after)}"
                    )
    if state.phase is Phase.DECIDE:
        cases += 1
        try:
            step = state.step(Stop())
        except IllegalAction as exc:
            if "stop" in enabled or "win" in enabled:
                problems.append(
                    f"{where} stop: engine refuses ({exc.rule}), model "
                    f"{_enabled_text(config, enabled)}"
                )
        else:
            kind = "win" if step.event is Event.WON else "stop"
            got = enabled.get(kind, [])
            if len(got) != 1 or state_text(config, got[0][1]) != format_state(step.state):
                problems.append(
                    f"{where} stop: engine {step.event.value} to {format_state(step.state)}, "
                    f"model {_enabled_text(config, enabled)}"
                )
    if state.phase is Phase.OVER:
        cases += 1
        if enabled:
            problems.append(f"{where}: the game is over, model {_enabled_text(config, enabled)}")
    return LinkReport(cases, problems)


def _enabled_text(config: Config, enabled: dict[str, list[tuple[Action, Vars]]]) -> str:
    if not enabled:
        return "has no transition"
    return "; ".join(
        f"{name} to {', '.join(sorted({state_text(config, after) for _, after in found}))}"
        for name, found in enabled.items()
    )


def random_states(rules: Rules, seed: int, limit: int = 400) -> Iterator[State]:
    """Yield the states of random legal play from a new game (fixed ``seed``)."""
    rng = random.Random(seed)
    state = new_game(rules, first_player=rng.randrange(rules.players))
    for _ in range(limit):
        yield state
        if state.phase is Phase.OVER:
            return
        if state.phase is Phase.CHOOSE:
            state = state.apply(rng.choice(state.legal_moves()))
            continue
        if state.phase is Phase.DECIDE and rng.random() < 0.3:
            try:
                state = state.apply(Stop())
                continue
            except IllegalAction:
                pass
        dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
        state = state.apply(Roll(dice))
