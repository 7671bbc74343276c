"""From solver answers and comparisons to checks: proofs, witnesses, caught mutants, agreement.

The bookkeeping every game's proofs share:

- :func:`proof_verdict` and :func:`proof`: an induction step is ``proved``
  when its negation is unsatisfiable, else it has a ``counterexample`` (or
  the solver gave up);
- :func:`witness`: non-vacuity, a state that meets the premises and, where
  it can, the property's focus, so that no proof holds merely because its
  assumptions contradict each other;
- :func:`homes`: the configuration on which each property's focused witness
  is sought, the first it is stated for;
- :func:`mutant_verdict`: a deliberately broken model is ``caught`` when its
  check finds a counterexample;
- :class:`LinkReport` and :func:`agreement`: a comparison of model and
  engine, ``agree`` when it finds no disagreement.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from dicekit.proofs.results import Check
from dicekit.proofs.solver import Outcome, Solver, Term, readable

__all__ = [
    "FOCUS_MISSED",
    "LinkReport",
    "Stated",
    "agreement",
    "homes",
    "mutant_verdict",
    "proof",
    "proof_verdict",
    "witness",
]

#: How the detail of a witness begins when no state in the focus exists.
FOCUS_MISSED = "(no state in focus; premises only) "

_Config = TypeVar("_Config", contravariant=True)
_Report = TypeVar("_Report", bound="LinkReport")


def proof_verdict(outcome: Outcome, text: str, rules: str) -> tuple[str, str]:
    """Return the result and detail of an induction check from the solver's answer.

    ``text`` is the counterexample in the notation (when the answer is
    ``sat``), ``rules`` the spec rules the proof covers.

    >>> proof_verdict(Outcome("unsat", 0.1), "", "R16.1 R1.4")
    ('proved', 'covers R16.1 R1.4')
    """
    if outcome.status == "unsat":
        return "proved", f"covers {rules}"
    if outcome.status == "sat":
        return "counterexample", text
    return "unknown", f"the solver gave up: {outcome.reason}"


def proof(
    name: str, rules: str, transition: str, config_name: str, outcome: Outcome, text: str
) -> Check:
    """Return the induction check of property ``name`` on ``transition`` (:func:`proof_verdict`).

    >>> proof("R1 x", "R1", "init", "2p", Outcome("unsat", 0.1), "").name
    'R1 x | init | 2p'
    """
    result, detail = proof_verdict(outcome, text, rules)
    return Check(
        f"{name} | {transition} | {config_name}",
        "induction",
        name,
        transition,
        config_name,
        result,
        outcome.seconds,
        detail,
    )


def witness(
    solver: Solver,
    focus: Term,
    name: str,
    transition: str,
    config_name: str,
    show: Callable[[Outcome], str],
    tidy: Sequence[Term] = (),
    premises_only: bool = True,
) -> Check:
    """Return the non-vacuity check of the premises held by ``solver``.

    The solver is asked for a state in ``focus`` (meeting ``tidy`` too if it
    can: see :func:`~dicekit.proofs.solver.readable`); failing that, when
    ``premises_only``, for any state meeting the premises (the detail then
    starts with :data:`FOCUS_MISSED`).  ``show`` writes the state found.
    Premises, or a focus, that cannot be met are a failure, ``unknown``.
    """
    outcome = readable(solver, [focus], tidy)
    seconds = outcome.seconds
    note = ""
    if outcome.status != "sat" and premises_only:
        outcome = solver.check()
        seconds += outcome.seconds
        note = FOCUS_MISSED
    if outcome.status == "sat":
        detail = note + show(outcome)
        result = "witness"
    else:
        what = "the premises" if premises_only else "the premises and the focus"
        detail = f"{what} cannot be satisfied ({outcome.status})"
        result = "unknown"
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


class Stated(Protocol[_Config]):
    """A property as the bookkeeping sees it: a name, and the configurations it is stated for."""

    @property
    def name(self) -> str:
        """The property's name."""
        ...

    @property
    def applies(self) -> Callable[[_Config], bool]:
        """Whether the property is stated for a configuration."""
        ...


_C = TypeVar("_C")


def homes(props: Iterable[Stated[_C]], configs: Mapping[str, _C]) -> dict[str, str | None]:
    """Return, for each property, the first configuration it is stated for (``None``: none)."""
    return {
        prop.name: next((n for n, c in configs.items() if prop.applies(c)), None) for prop in props
    }


def mutant_verdict(outcome: Outcome, text: str, description: str) -> tuple[str, str]:
    """Return the result and detail of a mutant's check from the solver's answer.

    >>> mutant_verdict(Outcome("unsat", 0.1), "", "a fourth marker may be placed")
    ('proved', 'a fourth marker may be placed: NOT caught, the property still holds')
    """
    if outcome.status == "sat":
        return "caught", f"{description}: {text}"
    if outcome.status == "unsat":
        return "proved", f"{description}: NOT caught, the property still holds"
    return "unknown", f"{description}: the solver gave up ({outcome.reason})"


@dataclass
class LinkReport:
    """What a comparison of model and engine compared, and every disagreement found."""

    #: How many cases were compared.
    cases: int = 0
    #: One line per disagreement, in the notation; empty when engine and model agree.
    disagreements: list[str] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        """Whether engine and model agreed on every case."""
        return not self.disagreements


def agreement(
    prop: str,
    config: str,
    run: Callable[[], _Report],
    says: Callable[[_Report], str],
    name: str | None = None,
) -> Check:
    """Run a comparison of model and engine; return its check, with the first disagreements.

    ``says`` writes the detail of a comparison that agrees (what was
    compared, how many cases); the check is named ``name``, by default the
    property and the configuration.
    """
    start = time.perf_counter()
    report = run()
    seconds = time.perf_counter() - start
    if report.agree:
        detail = says(report)
    else:
        shown = "; ".join(report.disagreements[:5])
        detail = f"{len(report.disagreements)} of {report.cases} cases disagree: {shown}"
    return Check(
        name or f"{prop} | {config}",
        "link",
        prop,
        None,
        config,
        "agree" if report.agree else "counterexample",
        seconds,
        detail,
    )
