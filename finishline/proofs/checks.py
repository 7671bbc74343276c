"""The inductive proofs and their non-vacuity witnesses.

For every configuration of :data:`CONFIGS`, every invariant is checked
against the opening state (``init``) and against each transition
separately; every step property against each transition it names.  The
premise of a step is the conjunction of all invariants in the state before,
and the transition's guard.  A witness shows a concrete state that satisfies
the premise (and, where it can, the property's focus), so that no proof
passes because its premise cannot hold.

How the checks are asked and reported is the layer's
(:class:`~dicekit.proofs.induction.Induction`); :class:`Proofs` says what
the model and the premises are for the finish-line race.
"""

from __future__ import annotations

import functools

from dicekit.proofs.induction import AnyFirstPlayer, Premise
from dicekit.proofs.solver import Z3, Outcome, Term, int_var
from finishline.proofs.model import TRANSITIONS, Config, Model, PlayChoice, Vars
from finishline.proofs.properties import INVARIANTS, STEP_PROPERTIES, Step
from finishline.proofs.render import describe

__all__ = [
    "CONFIGS",
    "PROOFS",
    "Proofs",
    "invariant_premise",
    "step_text",
    "take",
]

#: The configurations the proofs cover: every player count with its counters, and one counter each.
CONFIGS: dict[str, Config] = {
    "2p": Config(2, 6),
    "3p": Config(3, 5),
    "4p": Config(4, 4),
    "2p-n1": Config(2, 1),
}


def invariant_premise(model: Model, s: Vars) -> Term:
    """Return the conjunction of every invariant, for state ``s``."""
    return model.ops.all(inv.holds(model, s) for inv in INVARIANTS)


def _choice(name: str) -> PlayChoice:
    return PlayChoice(
        *(
            int_var(f"{name}.{part}")
            for part in ("order", "kind1", "row1", "col1", "kind2", "row2", "col2")
        )
    )


def take(model: Model, s: Vars, transition: str, name: str = "a") -> Step:
    """Return ``transition`` taken from ``s`` with fresh symbolic choices."""
    if transition in ("roll", "forfeit"):
        dice = (int_var(f"{name}.d1"), int_var(f"{name}.d2"))
        t = model.roll(s, dice) if transition == "roll" else model.forfeit(s, dice)
        return Step(transition, s, t.after, t.guard)
    if transition == "play":
        choice = _choice(name)
        t = model.play(s, choice)
        return Step(transition, s, t.after, t.guard, choice)
    if transition == "sideways":
        t = model.sideways(s, int_var(f"{name}.row"), int_var(f"{name}.col"), int_var(f"{name}.to"))
        return Step(transition, s, t.after, t.guard)
    if transition == "double":
        t = model.double(s, int_var(f"{name}.row"), int_var(f"{name}.col"))
        return Step(transition, s, t.after, t.guard)
    raise ValueError(f"no transition {transition!r}")


def step_text(model: Model, found: Outcome, step: Step) -> str:
    """Return ``before --(transition)--> after`` in the notation, from a satisfying assignment."""
    before = describe(model.config, step.before.map(found.value))
    after = describe(model.config, step.after.map(found.value))
    return f"{before} --({step.transition})--> {after}"


class Proofs(AnyFirstPlayer[Config, Model, Vars, Step]):
    """The proofs of the finish-line race: the symbolic model and the premises."""

    mutant_name = "mutant {mutation}"
    timeout_ms = 120_000

    def model(self, config: Config, mutations: frozenset[str] = frozenset()) -> Model:
        """Return the symbolic model of ``config``, with any mistakes switched on."""
        return Model(config, Z3, mutations)

    def describe_state(self, model: Model, state: Vars, found: Outcome) -> str:
        """Return ``state`` valued by ``found``, in the notation."""
        return describe(model.config, state.map(found.value))

    def premise(self, model: Model, transition: str) -> Premise[Step]:
        """Return a solver holding every invariant before ``transition`` and its guard."""
        step = take(model, model.fresh("s"), transition)
        solver = self.solver()
        solver.add(invariant_premise(model, step.before), step.guard)
        return Premise(solver, step, functools.partial(step_text, model, step=step))


#: The proofs of every configuration of :data:`CONFIGS`.
PROOFS = Proofs(CONFIGS, TRANSITIONS, INVARIANTS, STEP_PROPERTIES)
