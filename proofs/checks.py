"""The inductive proofs and their non-vacuity witnesses.

For every configuration in :data:`CONFIGS`, every invariant of
:mod:`proofs.properties` is checked against the opening state (``init``) and
against each transition separately; every property of single transitions is
checked against each transition it names.  The premise of an induction step
is the conjunction of all invariants in the state before, plus the
transition's guard; the conclusion is one invariant in the state after.

A non-vacuity witness shows, for each transition and property, a concrete
state that satisfies the premises and in which the property says something
(its *focus*: for example a marker on a top space for R16.2), so that no
proof can pass because its assumptions contradict each other.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from cantstop import Rules, Variant
from proofs.kit.results import Check
from proofs.kit.solver import Z3, Outcome, Solver, Term, bool_var, int_var, smallest
from proofs.kit.verdicts import homes, proof_verdict, witness
from proofs.model import Model
from proofs.properties import INVARIANTS, STEP_PROPERTIES, Action, Invariant, Step, StepProperty
from proofs.render import describe
from proofs.state import TRANSITIONS, Config, Vars

__all__ = [
    "CONFIGS",
    "action_text",
    "check_invariant_init",
    "check_step",
    "fresh_action",
    "invariant_premise",
    "prove_all",
    "step_text",
    "witnesses",
]

#: The configurations the proofs cover: every player count, both variants,
#: a longer game and two custom boards.
CONFIGS: dict[str, Config] = {
    "1p": Config.of(Rules(players=1)),
    "2p": Config.of(Rules()),
    "3p-w4": Config.of(Rules(players=3, columns_to_win=4)),
    "4p": Config.of(Rules(players=4)),
    "2p-A": Config.of(Rules(variant=Variant.A)),
    "3p-B": Config.of(Rules(players=3, variant=Variant.B)),
    "2p-tiny": Config.of(
        Rules(players=2, columns_to_win=2, heights={5: 2, 6: 1, 7: 3, 8: 2, 9: 1})
    ),
    "4p-small-A": Config.of(
        Rules(
            players=4,
            columns_to_win=1,
            heights={5: 2, 6: 3, 7: 4, 8: 3, 9: 2},
            variant=Variant.A,
        )
    ),
}


def fresh_action(name: str) -> Action:
    """Return an action of fresh z3 variables."""
    return Action(
        dice=(
            int_var(f"{name}.d1"),
            int_var(f"{name}.d2"),
            int_var(f"{name}.d3"),
            int_var(f"{name}.d4"),
        ),
        pairing=int_var(f"{name}.pairing"),
        use_a=bool_var(f"{name}.first"),
        use_b=bool_var(f"{name}.second"),
    )


def invariant_premise(model: Model, s: Vars) -> Term:
    """Return the conjunction of every invariant stated for the model's configuration."""
    return model.ops.all(inv.holds(model, s) for inv in INVARIANTS if inv.applies(model.config))


def action_text(model: Model, found: Outcome, step: Step) -> str:
    """Return the action of ``step`` in the notation (N2), from a satisfying assignment."""
    name = step.transition.name
    if name in ("roll", "bust"):
        return "r" + "".join(str(found.value(d)) for d in step.action.dice)
    if name == "move":
        a, b = model.move_sums(step.before.dice, step.action.pairing)
        sums = [found.value(a)] * found.value(step.action.use_a)
        sums += [found.value(b)] * found.value(step.action.use_b)
        return "+".join(map(str, sorted(sums))) or "(nothing)"
    return "stop"


def step_text(model: Model, found: Outcome, step: Step) -> str:
    """Return a transition taken, as ``before --action (transition)--> after`` in the notation."""
    before = describe(model.config, step.before.map(found.value))
    after = describe(model.config, step.after.map(found.value))
    return f"{before} --{action_text(model, found, step)} ({step.transition.name})--> {after}"


def _state_text(config: Config, s: Vars, found: Outcome) -> str:
    return describe(config, s.map(found.value))


def _initial(model: Model) -> tuple[Vars, Term]:
    """Return a symbolic opening state (any first player) and its condition."""
    player = int_var("init.player")
    return model.initial(player), model.ops.all([player >= 0, player < model.config.players])


def check_invariant_init(model: Model, inv: Invariant) -> tuple[Outcome, str]:
    """Check that ``inv`` holds in every opening state; return the outcome and any counterexample.

    The counterexample, if any, is the opening state in the notation.
    """
    s, condition = _initial(model)
    solver = Solver()
    solver.add(condition)
    outcome = solver.check(model.ops.not_(inv.holds(model, s)))
    text = describe(model.config, s.map(outcome.value)) if outcome.status == "sat" else ""
    return outcome, text


def check_step(
    model: Model, transition: str, prop: Invariant | StepProperty
) -> tuple[Outcome, str]:
    """Check one induction step or step property; return the outcome and any counterexample."""
    solver, step = _premise(model, transition)
    goal = prop.holds(model, step.after) if isinstance(prop, Invariant) else prop.holds(model, step)
    refuted = model.ops.not_(goal)
    outcome = smallest(solver, solver.check(refuted), [refuted], _cells(step.before))
    text = step_text(model, outcome, step) if outcome.status == "sat" else ""
    return outcome, text


def _cells(s: Vars) -> list[Term]:
    """Return the squares and markers of ``s``, to keep counterexamples small."""
    return [*s.markers.values(), *(v for own in s.squares for v in own.values())]


def prove_all(configs: dict[str, Config] | None = None) -> Iterator[Check]:
    """Run every induction check for every configuration, one :class:`Check` each.

    For each configuration and transition (and the opening state) it also
    yields a non-vacuity witness: a state satisfying the premise that every
    check of that pair shares.
    """
    for config_name, config in (configs or CONFIGS).items():
        model = Model(config, Z3)
        invariants = [inv for inv in INVARIANTS if inv.applies(config)]
        props = [p for p in STEP_PROPERTIES if p.applies(config)]
        s, condition = _initial(model)
        solver = Solver()
        solver.add(condition)
        yield witness(
            solver,
            True,
            "premises",
            "init",
            config_name,
            functools.partial(_state_text, config, s),
        )
        for inv in invariants:
            outcome, text = check_invariant_init(model, inv)
            result, detail = proof_verdict(outcome, text, inv.rules)
            yield Check(
                f"{inv.name} | init | {config_name}",
                "induction",
                inv.name,
                "init",
                config_name,
                result,
                outcome.seconds,
                detail,
            )
        for transition in TRANSITIONS:
            # One solver per transition; each property is one query on it.
            solver, step = _premise(model, transition)
            yield witness(
                solver,
                True,
                "premises",
                transition,
                config_name,
                functools.partial(step_text, model, step=step),
            )
            goals: list[tuple[str, str, Term]] = [
                (inv.name, inv.rules, inv.holds(model, step.after)) for inv in invariants
            ]
            goals += [
                (p.name, p.rules, p.holds(model, step))
                for p in props
                if transition in p.transitions
            ]
            for name, rules, goal in goals:
                refuted = model.ops.not_(goal)
                outcome = smallest(solver, solver.check(refuted), [refuted], _cells(step.before))
                text = step_text(model, outcome, step) if outcome.status == "sat" else ""
                result, detail = proof_verdict(outcome, text, rules)
                yield Check(
                    f"{name} | {transition} | {config_name}",
                    "induction",
                    name,
                    transition,
                    config_name,
                    result,
                    outcome.seconds,
                    detail,
                )


def witnesses(configs: dict[str, Config] | None = None) -> Iterator[Check]:
    """Focused non-vacuity witnesses, one per transition and property.

    :func:`prove_all` already shows, for every configuration and transition,
    a state satisfying the premise that all checks of that pair share.  This
    adds, for every transition and property, on the first configuration the
    property is stated for, a premise state in which the property has
    something to say (its *focus*: for R16.2 a marker on a top space, for R6.1
    a move that plays one sum only, and so on).  Where the focus cannot hold
    (no marker can be on the board right after a stop), the detail says that
    only the premises were satisfied.  A premise that cannot be satisfied is
    reported as ``unknown``, a failure.
    """
    configs = configs or CONFIGS
    props: list[Invariant | StepProperty] = [*INVARIANTS, *STEP_PROPERTIES]
    home = homes(props, configs)
    for config_name, config in configs.items():
        mine = [prop for prop in props if home[prop.name] == config_name]
        if not mine:
            continue
        model = Model(config, Z3)
        for transition in TRANSITIONS:
            solver, step = _premise(model, transition)
            o = model.ops
            for prop in mine:
                if isinstance(prop, Invariant):
                    focus = o.any([prop.focus(model, step.before), prop.focus(model, step.after)])
                elif transition in prop.transitions:
                    focus = prop.focus(model, step)
                else:
                    continue
                yield witness(
                    solver,
                    focus,
                    prop.name,
                    transition,
                    config_name,
                    functools.partial(step_text, model, step=step),
                )


def _premise(model: Model, transition: str) -> tuple[Solver, Step]:
    """Return a solver holding the premise of the induction checks for ``transition``."""
    s = model.fresh("s")
    action = fresh_action("a")
    step = Step(s, action, action.transition(model, s, transition))
    solver = Solver()
    solver.add(invariant_premise(model, s), step.transition.guard)
    return solver, step
