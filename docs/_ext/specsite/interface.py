"""What the spec extension needs from a game: its spec, its example runner and its pictures.

The extension reads a spec whose rules are numbered headings (``### R5.2
Placing``) and whose examples are fenced ``example`` blocks of ``key: value``
lines (the format ``spec/README.md`` describes).  Everything that depends on
the game itself is asked of a :class:`SiteGame`: reading the spec directory,
running an example, and what an example's card shows beyond its keys (the
game's pictures, its links, the message its engine gives for a rejection,
and how its sources are named).  A game's spec is put on a site by passing
its :class:`SiteGame` to :func:`specsite.setup_site`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from docutils import nodes

__all__ = ["ExampleT", "ExampleView", "RuleView", "SiteGame", "SpecView"]


class RuleView(Protocol):
    """One numbered rule or chapter, as the extension reads it."""

    @property
    def id(self) -> str:
        """The rule's id, such as ``R5.2``; a chapter's id has one part (``R5``)."""
        ...

    @property
    def title(self) -> str:
        """The words of the rule's heading after its id."""
        ...

    @property
    def path(self) -> str:
        """The spec file holding the rule, relative to the spec directory."""
        ...

    @property
    def is_chapter(self) -> bool:
        """Whether the rule is a chapter heading."""
        ...


class ExampleView(Protocol):
    """One example block, as the extension reads it."""

    @property
    def id(self) -> str:
        """The example's stable id, such as ``E008``."""
        ...

    @property
    def rules(self) -> tuple[str, ...]:
        """The ids of the rules the example illustrates."""
        ...

    @property
    def path(self) -> str:
        """The spec file holding the example, relative to the spec directory."""
        ...

    @property
    def line(self) -> int:
        """The line of the example's block in that file."""
        ...

    def get(self, key: str) -> str | None:
        """Return the value of ``key`` in the block, or ``None`` when the block lacks it."""
        ...


ExampleT = TypeVar("ExampleT", bound=ExampleView)
_ExampleOut = TypeVar("_ExampleOut", bound=ExampleView, covariant=True)


class SpecView(Protocol[_ExampleOut]):
    """A whole spec: its rules by id, in order, and its examples, in order."""

    @property
    def rules(self) -> Mapping[str, RuleView]:
        """Every rule and chapter, by id, in the order of the spec."""
        ...

    @property
    def examples(self) -> Sequence[_ExampleOut]:
        """Every example, in the order of the spec."""
        ...


class SiteGame(Protocol[ExampleT]):
    """What a game gives the spec extension: the one interface between them.

    Every method is called while a page is read.  An exception from
    :meth:`run_example` is the example's failure: an :class:`AssertionError`
    is shown as its message alone (it names the example), any other one with
    the example's id, file and line.  An exception from :meth:`figures` for an
    example that failed leaves the card without pictures and facts.
    """

    #: The keys an example block may hold, and what each means (the example-keys table).
    example_keys: Mapping[str, str]

    def load_spec(self, root: Path | None) -> SpecView[ExampleT]:
        """Return the spec read from the directory ``root`` (``None``: the game's own spec)."""
        ...

    def run_example(self, example: ExampleT) -> None:
        """Run ``example`` against the game's engine; raise if it does not hold."""
        ...

    def shown(self, text: str) -> str:
        """Return an example's title or note as the site shows it (sources by name, say)."""
        ...

    def figures(self, example: ExampleT, failure: str | None) -> str:
        """Return the HTML of the example's pictures (``""`` for none); ``failure`` if it failed."""
        ...

    def links(self, example: ExampleT, docname: str) -> list[nodes.Node]:
        """Return the links the card of a passing example offers, from the page ``docname``."""
        ...

    def message(self, example: ExampleT) -> str | None:
        """Return the message the engine gives for an example that expects an error."""
        ...

    def fact_note(self, example: ExampleT, key: str) -> str:
        """Return words the card adds after the value of ``key`` (``""`` for none)."""
        ...
