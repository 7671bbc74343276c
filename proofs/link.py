"""The link between the proven model and the engine in ``cantstop/``.

The formulas of :class:`~proofs.model.Model` are evaluated here with the
Python backend (:data:`~proofs.model.PY`): the same code that z3 reasons
about, run on concrete states, and compared with the engine.

- :func:`ordered_rolls_reduce`: the 1296 ordered rolls reduce to the 126
  sorted ones, in the engine (a roll and its sorted form lead to the same
  state) and in the model (a roll and its sorted form have the same pairings).
- :func:`exhaustive_moves`: for every sorted roll and every abstract situation
  of the columns its sums name (:data:`SITUATIONS`), with 0 to 3 free markers,
  the engine's legal moves (or bust) equal the model's.
- :func:`transitions_agree`: from one concrete state, every transition (roll,
  bust, move, stop, win) leads to the same state and event in both.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from cantstop import (
    STANDARD_HEIGHTS,
    Event,
    IllegalAction,
    Phase,
    Roll,
    Rules,
    State,
    Stop,
    Variant,
    format_state,
    new_game,
    roll_outcomes,
)
from cantstop.dice import sorted_dice
from proofs.model import PY, TRANSITIONS, Config, Model, Vars, all_dice
from proofs.properties import Action
from proofs.render import state_text, values_of

__all__ = [
    "SITUATIONS",
    "LinkReport",
    "exhaustive_moves",
    "ordered_rolls_reduce",
    "random_states",
    "situation_cases",
    "situation_state",
    "transitions_agree",
]

#: The abstract situations of the column a sum names, as far as a roll cares:
#: won by some player; holding the marker with 0, 1, or 2 or more steps left
#: below the top space; holding no marker, with a placement that would land on
#: the top space or below it.
SITUATIONS = ("won", "top", "one-left", "two-left", "place-top", "place-below")

_MARKER_SITUATIONS = frozenset({"top", "one-left", "two-left"})


@dataclass
class LinkReport:
    """What a link check compared, and every disagreement found."""

    #: How many cases were compared.
    cases: int
    #: One line per disagreement, in the notation; empty when engine and model agree.
    disagreements: list[str]

    @property
    def agree(self) -> bool:
        """Whether engine and model agreed on every case."""
        return not self.disagreements


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
    for dice in all_dice():
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


def situation_state(
    dice: tuple[int, int, int, int],
    situations: dict[int, str],
    free: int,
    variant: Variant | None = None,
) -> State:
    """Return a standard-board state, player 0 to roll, with ``situations`` and ``free`` markers.

    ``situations`` maps each column a sum of ``dice`` names to one of
    :data:`SITUATIONS`.  Won columns are shared out between the two players,
    and the target is set above what either holds.  Markers not needed by
    the situations are put on columns the roll does not name, so that exactly
    ``free`` are free.  Under Variant A, the steps left and the placement are
    realised with the opponent's squares in the way, so that skipping
    (R14.1) decides them wherever the column is tall enough.
    """
    heights = STANDARD_HEIGHTS
    squares: list[dict[int, int]] = [{}, {}]
    markers: dict[int, int] = {}
    owners = itertools.cycle((1, 0))
    held = [0, 0]
    skip = variant is Variant.A
    for column, situation in situations.items():
        h = heights[column]
        if situation == "won":
            owner = next(owners)
            squares[owner][column] = h
            held[owner] += 1
        elif situation == "top":
            markers[column] = h
        elif situation == "one-left":
            if skip:  # one step skips the opponent's square onto the top
                markers[column] = h - 2
                squares[1][column] = h - 1
            else:
                markers[column] = h - 1
        elif situation == "two-left":
            if skip and h >= 4:  # one step skips one square and stays below the top
                markers[column] = h - 3
                squares[1][column] = h - 2
            else:
                markers[column] = h - 2
        elif situation == "place-top":
            if skip:  # the placement skips the opponent's square onto the top
                squares[0][column] = h - 2
                squares[1][column] = h - 1
            else:
                squares[0][column] = h - 1
        elif situation != "place-below":
            raise ValueError(f"unknown situation {situation!r}")
    fillers = [c for c in heights if c not in situations]
    for column in fillers[: 3 - free - len(markers)]:
        markers[column] = 1
    target = max(3, max(held) + 1)
    rules = _rules(target, variant)
    phase = Phase.DECIDE if markers else Phase.ROLL
    return State(rules, 0, phase, None, markers, (squares[0], squares[1]))


@functools.cache
def _rules(target: int, variant: Variant | None) -> Rules:
    return Rules(players=2, columns_to_win=target, variant=variant)


def situation_cases(
    dice: tuple[int, int, int, int], full: bool = False
) -> Iterator[tuple[dict[int, str], int]]:
    """Every assignment of situations to the columns ``dice`` name, with each free-marker count.

    A column that no pairing of the roll names twice is played at most once
    by any move of the roll, so for it only four situations can differ: won,
    a marker on the top space, a marker below it (one step left and two are
    alike for one step), and no marker (where a placement lands does not
    matter for one step).  All six of :data:`SITUATIONS` are used for the
    columns the roll doubles, and for every column when ``full`` is true.
    The free-marker count runs over 0 to 3, less the markers the situations
    themselves put on the board.
    """
    pairs = Model.pairings_of(dice)
    columns = sorted({total for pair in pairs for total in pair})
    doubled = {a for a, b in pairs if a == b}
    single = ("won", "top", "one-left", "place-below")
    choices = [SITUATIONS if full or c in doubled else single for c in columns]
    for combo in itertools.product(*choices):
        used = sum(1 for s in combo if s in _MARKER_SITUATIONS)
        for free in range(0, 4 - used):
            yield dict(zip(columns, combo, strict=True)), free


def exhaustive_moves(
    rolls: Sequence[tuple[int, int, int, int]] | None = None,
    variant: Variant | None = None,
    full: bool = False,
    mutations: frozenset[str] = frozenset(),
) -> LinkReport:
    """Compare the legal moves of engine and model for every roll and every situation.

    ``rolls`` defaults to the 126 sorted rolls.  For each, every assignment of
    situations to the distinct columns its sums name, with every possible
    number of free markers (:func:`situation_cases`; all six situations for
    every column when ``full``), is realised by :func:`situation_state`.
    The engine rolls the dice from that state (a bust, or the legal moves of
    the CHOOSE state); the model computes its legal moves for the same dice
    and state.  ``mutations`` break the model (see :mod:`proofs.mutations`), to
    show that the comparison can fail.
    """
    if rolls is None:
        rolls = [r.dice for r, _ in roll_outcomes()]
    problems: list[str] = []
    cases = 0
    models: dict[Rules, Model] = {}
    for dice in rolls:
        roll = Roll(dice)
        for situations, free in situation_cases(dice, full):
            state = situation_state(dice, situations, free, variant)
            model = models.get(state.rules)
            if model is None:
                model = models[state.rules] = Model(Config.of(state.rules), PY, mutations)
            model.forget()
            cases += 1
            step = state.step(roll)
            engine = (
                set()
                if step.event is Event.BUSTED
                else {m.columns for m in step.state.legal_moves()}
            )
            # The model busts exactly when it has no legal move: both come from
            # Model.offers, and the proofs check R10.1 against every pairing.
            mine = model.legal_moves(values_of(state), dice)
            if engine != mine:
                problems.append(
                    f"{format_state(state)} r{''.join(map(str, dice))}: engine "
                    f"{_moves_text(engine)}, model {_moves_text(mine)}"
                )
    return LinkReport(cases, problems)


def _moves_text(moves: Iterable[tuple[int, ...]]) -> str:
    return " ".join("+".join(map(str, m)) for m in sorted(moves)) or "bust"


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
                f"{where}: engine moves {_moves_text(set(engine_moves))}, "
                f"model moves {_moves_text(set(model_moves))}"
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
