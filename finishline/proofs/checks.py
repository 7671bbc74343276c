"""The inductive proofs and their non-vacuity witnesses.

For every configuration of :data:`CONFIGS`, every invariant is checked
against the opening state (``init``) and against each transition
separately; every step property against each transition it names.  The
premise of a step is the conjunction of all invariants in the state before,
and the transition's guard.  A witness shows a concrete state that satisfies
the premise (and, where it can, the property's focus), so that no proof
passes because its premise cannot hold.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass

import z3

from finishline.proofs.model import (
    TRANSITIONS,
    Z3,
    Config,
    Model,
    PlayChoice,
    Term,
    Vars,
)
from finishline.proofs.properties import (
    INVARIANTS,
    STEP_PROPERTIES,
    Invariant,
    Step,
    StepProperty,
)
from finishline.proofs.render import describe
from finishline.proofs.solve import Outcome, Solver

__all__ = [
    "CONFIGS",
    "Check",
    "check_step",
    "invariant_premise",
    "premise",
    "prove_all",
    "step_text",
    "take",
    "witnesses",
]

#: The configurations the proofs cover: every player count with its counters, and one counter each.
CONFIGS: dict[str, Config] = {
    "2p": Config(2, 6),
    "3p": Config(3, 5),
    "4p": Config(4, 4),
    "2p-n1": Config(2, 1),
}


@dataclass
class Check:
    """One line of the results: what was checked, where, and how it came out."""

    name: str
    #: ``"induction"``, ``"non-vacuity"``, ``"mutation"`` or ``"link"``.
    group: str
    property: str
    #: The transition, ``"init"`` for the opening state, or ``None``.
    transition: str | None
    config: str
    #: ``"proved"``, ``"counterexample"``, ``"unknown"``, ``"witness"``, ``"caught"``,
    #: ``"missed"``, ``"agree"`` or ``"disagree"``.
    result: str
    seconds: float
    #: A counterexample, a witness or a summary, in the game's notation.
    detail: str = ""

    @builtins.property
    def ok(self) -> bool:
        """Whether this result is the one expected for its group."""
        expected = {
            "induction": "proved",
            "non-vacuity": "witness",
            "mutation": "caught",
            "link": "agree",
        }
        return self.result == expected[self.group]

    def as_json(self) -> dict[str, object]:
        """Return the check as a JSON object (the rows of ``results.json``)."""
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        return data


def invariant_premise(model: Model, s: Vars) -> Term:
    """Return the conjunction of every invariant, for state ``s``."""
    return model.ops.all(inv.holds(model, s) for inv in INVARIANTS)


def _choice(name: str) -> PlayChoice:
    return PlayChoice(
        *(
            z3.Int(f"{name}.{part}")
            for part in ("order", "kind1", "row1", "col1", "kind2", "row2", "col2")
        )
    )


def take(model: Model, s: Vars, transition: str, name: str = "a") -> Step:
    """Return ``transition`` taken from ``s`` with fresh symbolic choices."""
    if transition in ("roll", "forfeit"):
        dice = (z3.Int(f"{name}.d1"), z3.Int(f"{name}.d2"))
        t = model.roll(s, dice) if transition == "roll" else model.forfeit(s, dice)
        return Step(transition, s, t.after, t.guard)
    if transition == "play":
        choice = _choice(name)
        t = model.play(s, choice)
        return Step(transition, s, t.after, t.guard, choice)
    if transition == "sideways":
        t = model.sideways(s, z3.Int(f"{name}.row"), z3.Int(f"{name}.col"), z3.Int(f"{name}.to"))
        return Step(transition, s, t.after, t.guard)
    if transition == "double":
        t = model.double(s, z3.Int(f"{name}.row"), z3.Int(f"{name}.col"))
        return Step(transition, s, t.after, t.guard)
    raise ValueError(f"no transition {transition!r}")


def premise(model: Model, transition: str) -> tuple[Solver, Step]:
    """Return a solver holding the premise of the induction step for ``transition``."""
    step = take(model, model.fresh("s"), transition)
    solver = Solver()
    solver.add(invariant_premise(model, step.before), step.guard)
    return solver, step


def step_text(model: Model, found: Outcome, step: Step) -> str:
    """Return ``before --(transition)--> after`` in the notation, from a satisfying assignment."""
    before = describe(model.config, found.state(step.before))
    after = describe(model.config, found.state(step.after))
    return f"{before} --({step.transition})--> {after}"


def _state_text(config: Config, s: Vars, found: Outcome) -> str:
    return describe(config, found.state(s))


def _result(outcome: Outcome, text: str, rules: str) -> tuple[str, str]:
    if outcome.status == "unsat":
        return "proved", f"covers {rules}"
    if outcome.status == "sat":
        return "counterexample", text
    return "unknown", f"the solver gave up: {outcome.reason}"


def _initial(model: Model) -> tuple[Vars, Term]:
    player = z3.Int("init.player")
    return model.initial(player), model.ops.all([player >= 0, player < model.config.players])


def check_init(model: Model, inv: Invariant) -> tuple[Outcome, str]:
    """Check ``inv`` in every opening state; return the outcome and any counterexample."""
    s, condition = _initial(model)
    solver = Solver()
    solver.add(condition)
    outcome = solver.check(model.ops.not_(inv.holds(model, s)))
    text = describe(model.config, outcome.state(s)) if outcome.status == "sat" else ""
    return outcome, text


def check_step(
    model: Model, transition: str, prop: Invariant | StepProperty
) -> tuple[Outcome, str]:
    """Check one induction step or step property; return the outcome and any counterexample."""
    solver, step = premise(model, transition)
    goal = prop.holds(model, step.after) if isinstance(prop, Invariant) else prop.holds(model, step)
    outcome = solver.check(model.ops.not_(goal))
    text = step_text(model, outcome, step) if outcome.status == "sat" else ""
    return outcome, text


def prove_all(configs: dict[str, Config] | None = None) -> Iterator[Check]:
    """Run every induction check of every configuration, with a premise witness per transition."""
    for config_name, config in (configs or CONFIGS).items():
        model = Model(config, Z3)
        s, condition = _initial(model)
        solver = Solver()
        solver.add(condition)
        yield _witness(
            solver,
            True,
            "premises",
            "init",
            config_name,
            functools.partial(_state_text, config, s),
        )
        for inv in INVARIANTS:
            outcome, text = check_init(model, inv)
            result, detail = _result(outcome, text, inv.rules)
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
            solver, step = premise(model, transition)
            yield _witness(
                solver,
                True,
                "premises",
                transition,
                config_name,
                functools.partial(step_text, model, step=step),
            )
            goals = [(inv.name, inv.rules, inv.holds(model, step.after)) for inv in INVARIANTS]
            goals += [
                (p.name, p.rules, p.holds(model, step))
                for p in STEP_PROPERTIES
                if transition in p.transitions
            ]
            for name, rules, goal in goals:
                outcome = solver.check(model.ops.not_(goal))
                text = step_text(model, outcome, step) if outcome.status == "sat" else ""
                result, detail = _result(outcome, text, rules)
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
    """Focused witnesses: per property and transition, a premise state where it says something.

    Each property is shown on the first configuration, with its focus: for
    an invariant, in the state before or after; for a step property, on the
    step.  Where the focus cannot hold, the detail says the premises alone
    were satisfied.
    """
    configs = configs or CONFIGS
    config_name, config = next(iter(configs.items()))
    model = Model(config, Z3)
    for transition in TRANSITIONS:
        solver, step = premise(model, transition)
        props: list[Invariant | StepProperty] = [*INVARIANTS, *STEP_PROPERTIES]
        for prop in props:
            if isinstance(prop, Invariant):
                focus = model.ops.any(
                    [prop.focus(model, step.before), prop.focus(model, step.after)]
                )
            elif transition in prop.transitions:
                focus = prop.focus(model, step)
            else:
                continue
            yield _witness(
                solver,
                focus,
                prop.name,
                transition,
                config_name,
                functools.partial(step_text, model, step=step),
            )


def _witness(
    solver: Solver,
    focus: Term,
    name: str,
    transition: str,
    config_name: str,
    show: Callable[[Outcome], str],
) -> Check:
    outcome = solver.check(focus)
    seconds = outcome.seconds
    note = ""
    if outcome.status != "sat":
        outcome = solver.check()
        seconds += outcome.seconds
        note = "(no state in focus; premises only) "
    if outcome.status == "sat":
        result, detail = "witness", note + show(outcome)
    else:
        result, detail = "unknown", f"the premises cannot be satisfied ({outcome.status})"
    return Check(
        f"witness {name} | {transition} | {config_name}",
        "non-vacuity",
        name,
        transition,
        config_name,
        result,
        seconds,
        detail,
    )
