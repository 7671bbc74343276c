"""The induction proofs of a game, run: every property on every configuration, witnesses, mutants.

A game's proofs subclass :class:`Induction` and say three things: the
symbolic model of a configuration (:meth:`Induction.model`), the premise of
the checks of a transition (:meth:`Induction.premise`: a solver holding
every invariant in the state before and the transition's guard) and, if it
has one, the premise of the opening state (:meth:`Induction.opening`).  The
rest is the same for every game:

- :meth:`Induction.prove_all`: for every configuration, every invariant in
  the opening state and after each transition, every step property after
  the transitions it names, and a witness of each premise;
- :meth:`Induction.witnesses`: for every property, on the first
  configuration it is stated for, a premise state in its focus;
- :meth:`Induction.run_mutants`: every broken model caught by its check.

A game whose checks need more (a question per player, say) overrides
:meth:`Induction.check_step` and :meth:`Induction.check_on`.  The witnesses
and counterexamples z3 chooses depend on the order in which formulas are
built and questions asked; that order is fixed here, so a run prints the
same table every time.
"""

from __future__ import annotations

import functools
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from dicekit.proofs.properties import Invariant, Mutant, StepProperty
from dicekit.proofs.results import Check
from dicekit.proofs.runner import Stage
from dicekit.proofs.solver import Z3, Outcome, Solver, Term, int_var
from dicekit.proofs.verdicts import homes, mutant_verdict, proof, witness

__all__ = ["AnyFirstPlayer", "Induction", "OpensForAnyPlayer", "Premise", "Stepped"]

_Config = TypeVar("_Config")
_Model = TypeVar("_Model")
_State = TypeVar("_State")
_State_co = TypeVar("_State_co", covariant=True)
_Subject = TypeVar("_Subject")


class Stepped(Protocol[_State_co]):
    """A transition taken, as the induction sees it: the states before and after."""

    @property
    def before(self) -> _State_co:
        """The state the transition is taken from."""
        ...

    @property
    def after(self) -> _State_co:
        """The state the transition leads to."""
        ...


_Step = TypeVar("_Step", bound=Stepped[Any])


@dataclass
class Premise(Generic[_Subject]):
    """A solver holding the premises of some checks, and what those checks are about."""

    #: The solver, with the premises asserted.
    solver: Solver
    #: The symbolic opening state, or the transition taken.
    subject: _Subject
    #: Writes the subject from a satisfying assignment, in the game's notation.
    show: Callable[[Outcome], str]
    #: Conditions that make a witness easier to read, dropped when they cannot hold.
    tidy: Sequence[Term] = ()


class Induction(ABC, Generic[_Config, _Model, _State, _Step]):
    """A game's induction proofs: its configurations, transitions and properties, and how to ask."""

    #: How a mutant's check is named, with the fields of :class:`~dicekit.proofs.properties.Mutant`.
    mutant_name: ClassVar[str] = "{property} | {transition} | {config} | mutant {mutation}"
    #: The solver's time limit per question, in milliseconds.
    timeout_ms: ClassVar[int] = 60_000

    def __init__(
        self,
        configs: Mapping[str, _Config],
        transitions: Sequence[str],
        invariants: Sequence[Invariant[_Model, _State, Any]],
        step_properties: Sequence[StepProperty[_Model, _Step]],
    ) -> None:
        #: The configurations the proofs cover, by name.
        self.configs = configs
        #: The transitions, in the order the checks are reported.
        self.transitions = tuple(transitions)
        #: The invariants, proven together.
        self.invariants = tuple(invariants)
        #: The properties of single transitions.
        self.step_properties = tuple(step_properties)

    @property
    def properties(
        self,
    ) -> tuple[Invariant[_Model, _State, Any] | StepProperty[_Model, _Step], ...]:
        """Every property, invariants first."""
        return (*self.invariants, *self.step_properties)

    @property
    def rules(self) -> dict[str, str]:
        """The spec rules each property covers, by the property's name."""
        return {prop.name: prop.rules for prop in self.properties}

    def stages(self, mutants: Sequence[Mutant]) -> tuple[Stage, ...]:
        """Return the stages of a suite: the induction, the focused witnesses, ``mutants``."""
        return (
            Stage(frozenset({"induction", "non-vacuity"}), self.prove_all),
            Stage(frozenset({"non-vacuity"}), self.witnesses),
            Stage(frozenset({"mutation"}), functools.partial(self.run_mutants, mutants)),
        )

    # -- what the game says ------------------------------------------------------------

    @abstractmethod
    def model(self, config: _Config, mutations: frozenset[str] = frozenset()) -> _Model:
        """Return the symbolic model of ``config``, with the mistakes ``mutations`` switched on."""

    @abstractmethod
    def premise(self, model: _Model, transition: str) -> Premise[_Step]:
        """Return a solver holding the premises of the checks of ``transition``, and the step."""

    def opening(self, model: _Model) -> Premise[_State] | None:
        """Return a solver holding the opening states' condition, and the state; ``None``: none.

        Without one, the game overrides :meth:`check_opening`, and the
        opening has no premise witness.
        """
        return None

    def solver(self) -> Solver:
        """Return a new solver, with the time limit of these proofs."""
        return Solver(self.timeout_ms)

    def any_first_player(
        self,
        initial: Callable[[Term], _State],
        players: int,
        show: Callable[[_State, Outcome], str],
    ) -> Premise[_State]:
        """Return the premise of the opening: ``initial(player)`` for any of ``players`` first.

        ``show`` writes a state from a satisfying assignment; a game whose
        opening is one state per first player returns this from
        :meth:`opening`.
        """
        player = int_var("init.player")
        s = initial(player)
        solver = self.solver()
        solver.add(Z3.all([player >= 0, player < players]))
        return Premise(solver, s, functools.partial(show, s))

    def refute(self, model: _Model, premise: Premise[_Step], goal: Term) -> Outcome:
        """Ask for a state of ``premise`` where ``goal`` fails (a game may shrink the answer)."""
        return premise.solver.check(Z3.not_(goal))

    # -- the checks ------------------------------------------------------------------------

    def check_opening(
        self, model: _Model, invariant: Invariant[_Model, _State, Any]
    ) -> tuple[Outcome, str]:
        """Check ``invariant`` in every opening state; return the outcome and any counterexample."""
        premise = self.opening(model)
        if premise is None:
            raise NotImplementedError("a game without an opening premise checks the opening itself")
        outcome = premise.solver.check(Z3.not_(invariant.holds(model, premise.subject)))
        return outcome, premise.show(outcome) if outcome.status == "sat" else ""

    def check_step(
        self,
        model: _Model,
        transition: str,
        prop: Invariant[_Model, _State, Any] | StepProperty[_Model, _Step],
    ) -> tuple[Outcome, str]:
        """Check one induction step or step property; return the outcome and any counterexample."""
        (found,) = self.check_on(model, transition, self.premise(model, transition), [prop])
        return found

    def check_on(
        self,
        model: _Model,
        transition: str,
        premise: Premise[_Step],
        props: Sequence[Invariant[_Model, _State, Any] | StepProperty[_Model, _Step]],
    ) -> Iterator[tuple[Outcome, str]]:
        """Check each of ``props`` on ``transition``: one question each to ``premise``'s solver.

        Every goal is built before the first question is asked.
        """
        step = premise.subject
        goals = [
            prop.holds(model, step.after)
            if isinstance(prop, Invariant)
            else prop.holds(model, step)
            for prop in props
        ]
        for goal in goals:
            outcome = self.refute(model, premise, goal)
            yield outcome, premise.show(outcome) if outcome.status == "sat" else ""

    def prove_all(self, configs: Mapping[str, _Config] | None = None) -> Iterator[Check]:
        """Run every induction check of every configuration, with a witness of every premise."""
        for config_name, config in (configs or self.configs).items():
            model = self.model(config)
            invariants = [inv for inv in self.invariants if inv.applies(config)]
            steps = [prop for prop in self.step_properties if prop.applies(config)]
            opening = self.opening(model)
            if opening is not None:
                yield witness(
                    opening.solver,
                    True,
                    "premises",
                    "init",
                    config_name,
                    opening.show,
                    opening.tidy,
                )
            for inv in invariants:
                outcome, text = self.check_opening(model, inv)
                yield proof(inv.name, inv.rules, "init", config_name, outcome, text)
            for transition in self.transitions:
                # One premise per transition; each property is one question on it.
                premise = self.premise(model, transition)
                yield witness(
                    premise.solver,
                    True,
                    "premises",
                    transition,
                    config_name,
                    premise.show,
                    premise.tidy,
                )
                props: list[Invariant[_Model, _State, Any] | StepProperty[_Model, _Step]] = [
                    *invariants,
                    *(prop for prop in steps if transition in prop.transitions),
                ]
                found = self.check_on(model, transition, premise, props)
                for prop, (outcome, text) in zip(props, found, strict=True):
                    yield proof(prop.name, prop.rules, transition, config_name, outcome, text)

    def witnesses(self, configs: Mapping[str, _Config] | None = None) -> Iterator[Check]:
        """Focused non-vacuity witnesses, one per transition and property with a focus.

        :meth:`prove_all` already shows, for every configuration and
        transition, a state satisfying the premise that all checks of that
        pair share.  This adds, for every transition and property, on the
        first configuration the property is stated for, a premise state in
        which the property has something to say (its *focus*: for an
        invariant, in the state before or after; for a step property, on the
        step).  Where the focus cannot hold, the detail says that only the
        premises were satisfied.
        """
        configs = configs or self.configs
        home = homes(self.properties, configs)
        for config_name, config in configs.items():
            mine = [p for p in self.properties if home[p.name] == config_name]
            if not mine:
                continue
            model = self.model(config)
            for transition in self.transitions:
                premise = self.premise(model, transition)
                step = premise.subject
                for prop in mine:
                    if prop.focus is None:
                        continue
                    if isinstance(prop, Invariant):
                        focus = Z3.any(
                            [prop.focus(model, step.before), prop.focus(model, step.after)]
                        )
                    elif transition in prop.transitions:
                        focus = prop.focus(model, step)
                    else:
                        continue
                    yield witness(
                        premise.solver, focus, prop.name, transition, config_name, premise.show
                    )

    # -- the mutants -----------------------------------------------------------------------

    def mutated(self, mutant: Mutant) -> _Model:
        """Return the model ``mutant`` breaks: its configuration, with its mistake switched on."""
        return self.model(self.configs[mutant.config], frozenset({mutant.mutation}))

    def run_mutants(self, mutants: Iterable[Mutant]) -> Iterator[Check]:
        """Check every mutant; the result is ``caught`` when its check finds a counterexample."""
        by_name = {prop.name: prop for prop in self.properties}
        for mutant in mutants:
            start = time.perf_counter()
            model = self.mutated(mutant)
            outcome, text = self.check_step(model, mutant.transition, by_name[mutant.property])
            seconds = time.perf_counter() - start
            result, detail = mutant_verdict(outcome, text, mutant.description)
            yield Check(
                self.mutant_name.format(**asdict(mutant)),
                "mutation",
                mutant.property,
                mutant.transition,
                mutant.config,
                result,
                seconds,
                detail,
            )


class _Seats(Protocol):
    """A configuration as a model holds it: it seats some players."""

    @property
    def players(self) -> int: ...


class OpensForAnyPlayer(Protocol[_State_co]):
    """A model whose opening is one state per first player: ``initial(player)``."""

    @property
    def config(self) -> _Seats:
        """The configuration the model is of."""
        ...

    def initial(self, player: Term) -> _State_co:
        """Return the opening state with ``player`` to act first."""
        ...


_Opens = TypeVar("_Opens", bound=OpensForAnyPlayer[Any])


class AnyFirstPlayer(Induction[_Config, _Opens, _State, _Step]):
    """The proofs of a game whose opening state is the model's ``initial`` for any first player.

    The game says how a state the solver found is written
    (:meth:`describe_state`); its :meth:`opening` is the premise of
    :meth:`any_first_player`.
    """

    @abstractmethod
    def describe_state(self, model: _Opens, state: _State, found: Outcome) -> str:
        """Return ``state`` valued by the assignment ``found``, in notation."""

    def opening(self, model: _Opens) -> Premise[_State]:
        """Return a solver holding the opening states (any first player), and the state."""
        show = functools.partial(self.describe_state, model)
        return self.any_first_player(model.initial, model.config.players, show)
