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

How the checks are asked and reported is the layer's
(:class:`~dicekit.proofs.induction.Induction`); :class:`Proofs` says what
the model, the premises and a readable counterexample are for Can't Stop.
"""

from __future__ import annotations

import functools

from cantstop import Rules, Variant
from dicekit.proofs.induction import AnyFirstPlayer, Premise
from dicekit.proofs.properties import Mutant
from dicekit.proofs.solver import Z3, Outcome, Term, bool_var, int_var, smallest
from proofs.model import Model
from proofs.properties import INVARIANTS, STEP_PROPERTIES, Action, Step
from proofs.render import describe
from proofs.state import TRANSITIONS, Config, Vars

__all__ = [
    "CONFIGS",
    "PROOFS",
    "REFUSED",
    "STALLING",
    "Proofs",
    "action_text",
    "fresh_action",
    "invariant_premise",
    "step_text",
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

#: A configuration the rules refuse under R15.4: three columns, two players, target 3.
STALLING = Config(players=2, heights={5: 3, 7: 3, 9: 3}, target=3, variant=None)

#: Configurations the rules refuse, by name: a mutant naming one checks it unbroken.
REFUSED: dict[str, Config] = {"stalling-configuration": STALLING}


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


def _cells(s: Vars) -> list[Term]:
    """Return the squares and markers of ``s``, to keep counterexamples small."""
    return [*s.markers.values(), *(v for own in s.squares for v in own.values())]


class Proofs(AnyFirstPlayer[Config, Model, Vars, Step]):
    """The Can't Stop proofs: the symbolic model, the premises, and small counterexamples."""

    def model(self, config: Config, mutations: frozenset[str] = frozenset()) -> Model:
        """Return the symbolic model of ``config``, with any mistakes switched on."""
        return Model(config, Z3, mutations)

    def describe_state(self, model: Model, state: Vars, found: Outcome) -> str:
        """Return ``state`` valued by ``found``, in the notation."""
        return describe(model.config, state.map(found.value))

    def premise(self, model: Model, transition: str) -> Premise[Step]:
        """Return a solver holding every invariant before ``transition`` and its guard."""
        s = model.fresh("s")
        action = fresh_action("a")
        step = Step(s, action, action.transition(model, s, transition))
        solver = self.solver()
        solver.add(invariant_premise(model, s), step.transition.guard)
        return Premise(solver, step, functools.partial(step_text, model, step=step))

    def refute(self, model: Model, premise: Premise[Step], goal: Term) -> Outcome:
        """Ask for a counterexample, with as few pieces on the board as the solver finds."""
        refuted = model.ops.not_(goal)
        found = premise.solver.check(refuted)
        return smallest(premise.solver, found, [refuted], _cells(premise.subject.before))

    def mutated(self, mutant: Mutant) -> Model:
        """Return the model ``mutant`` breaks: a refused configuration unbroken, else its rules."""
        if mutant.config in REFUSED:
            return self.model(REFUSED[mutant.config])
        return super().mutated(mutant)


#: The proofs of every configuration of :data:`CONFIGS`.
PROOFS = Proofs(CONFIGS, TRANSITIONS, INVARIANTS, STEP_PROPERTIES)
