"""What a game's proofs state, as data: invariants, properties of steps, and broken models.

An :class:`Invariant` is a statement about one state, proven by induction:
it holds in every opening state, and every transition keeps it, from any
state that satisfies all the invariants.  A :class:`StepProperty` is a
statement about one transition taken from such a state.  Each names the
spec rules it covers and, for the non-vacuity witnesses, a *focus*: a
situation in which it has something to say.  A :class:`Mutant` is a
mistake switched on in a game's model, with the check that must catch it.

The classes are generic in the game's model, its state and its step (what a
focus reads: a state, or a transition taken), which the game names in its
annotations, such as ``Invariant[Model, Vars, Vars]``.

>>> props = (Invariant("R1.1 one", "R1.1", _never), Invariant("R2.1 two", "R2.1", _never))
>>> named(props, "R2").name
'R2.1 two'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from dicekit.proofs.solver import Term

__all__ = ["Invariant", "Mutant", "StepProperty", "everywhere", "named"]

_Model = TypeVar("_Model")
_State = TypeVar("_State")
_Step = TypeVar("_Step")
_Focus = TypeVar("_Focus")


def everywhere(config: object) -> bool:
    """Whether a property is stated for ``config``: the default, for every configuration."""
    return True


def _never(model: object, state: object) -> Term:
    return False


@dataclass(frozen=True)
class Invariant(Generic[_Model, _State, _Focus]):
    """A statement about every reachable state."""

    #: Short name, starting with the main rule id.
    name: str
    #: The spec rules it covers, as space-separated ids.
    rules: str
    #: The statement, for one state.
    holds: Callable[[_Model, _State], Term]
    #: A situation in which the statement says something (a state or a step), or ``None``.
    focus: Callable[[_Model, _Focus], Term] | None = None
    #: Which configurations it is stated for.
    applies: Callable[[Any], bool] = everywhere


@dataclass(frozen=True)
class StepProperty(Generic[_Model, _Step]):
    """A statement about every transition from a state that satisfies the invariants."""

    #: Short name, starting with the main rule id.
    name: str
    #: The spec rules it covers, as space-separated ids.
    rules: str
    #: The transitions it speaks about.
    transitions: tuple[str, ...]
    #: The statement, for one transition taken.
    holds: Callable[[_Model, _Step], Term]
    #: A situation in which the statement says something, or ``None``.
    focus: Callable[[_Model, _Step], Term] | None = None
    #: Which configurations it is stated for.
    applies: Callable[[Any], bool] = everywhere


class _Named(Protocol):
    @property
    def name(self) -> str: ...


_P = TypeVar("_P", bound=_Named)


def named(props: Iterable[_P], prefix: str) -> _P:
    """Return the one property whose name starts with ``prefix``; else raise ``LookupError``."""
    found = [prop for prop in props if prop.name.startswith(prefix)]
    if len(found) != 1:
        raise LookupError(f"no single property named {prefix!r}: {[p.name for p in found]}")
    return found[0]


@dataclass(frozen=True)
class Mutant:
    """A broken model and the check that must catch it."""

    #: The mistake switched on in the model.
    mutation: str
    #: What the broken rules do, in words.
    description: str
    #: The name of the property whose check must find a counterexample.
    property: str
    #: The transition of that check.
    transition: str
    #: The configuration, by name among the game's proof configurations.
    config: str
