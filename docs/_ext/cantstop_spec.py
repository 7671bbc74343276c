"""Sphinx extension: the Can't Stop spec on the site, through the game-neutral extension specsite.

:class:`CantStopSpec` is what :mod:`specsite` asks of the game: the spec
read by :func:`cantstop.spec.load_spec`, each example run by
:func:`cantstop.spec.run_example`, drawn by :mod:`cantstop_pictures`, linked
to the "Try it" board (:mod:`cantstop_tryit`), its rejections shown with the
engine's message, its whole-roll counts with the chance of a bust, and the
rules sources named rather than numbered (:func:`source_names`).

The extension registers the spec with the prefix ``cantstop`` (configuration
values ``cantstop_spec_dir`` and ``cantstop_proof_results``; directives
``cantstop-example-keys`` and ``cantstop-proof-results``), and with it the
game's own directives: ``cantstop-board`` (:mod:`cantstop_pictures`),
``cantstop-explain`` (:mod:`cantstop_questions`),
``cantstop-single-column-chances`` and ``cantstop-three-column-table``
(:mod:`cantstop_odds`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from cantstop_pictures import example_figures
from cantstop_tryit import example_link, tryit_link
from docutils import nodes
from specsite import setup_site
from specsite.markup import literal, table
from sphinx.application import Sphinx

from cantstop.actions import Action
from cantstop.errors import CantStopError
from cantstop.notation import parse_action, parse_state
from cantstop.spec import EXAMPLE_KEYS, Example, Spec, load_spec, run_example

__all__ = ["SOURCES", "CantStopSpec", "setup", "source_names"]

#: The rules sources by the number of their file, and the name the site gives them.
SOURCES: dict[str, str] = {"000": "the write-up", "001": "the rules guide", "004": "the FAQ"}
_SOURCE_NUMBER = re.compile(r"\b([Ss])eed (\d{3})\b")

# The study table's extension (cantstop_study) builds its table with these two.
_literal = literal
_table = table


def source_names(text: str) -> str:
    """Replace a source cited by number (``seed 000``) with its name (``the write-up``).

    The spec cites the sources by name; a few example titles, which the
    conformance vectors copy word for word, still cite them by number.

    >>> source_names("Seed 001's case")
    "The rules guide's case"
    """

    def name(match: re.Match[str]) -> str:
        found = SOURCES.get(match.group(2), match.group(0))
        return found[0].upper() + found[1:] if match.group(1) == "S" else found

    return _SOURCE_NUMBER.sub(name, text)


class CantStopSpec:
    """The Can't Stop spec as :mod:`specsite` shows it: its reader, its engine and its pictures."""

    #: The keys an example may hold (:data:`cantstop.spec.EXAMPLE_KEYS`).
    example_keys: Mapping[str, str] = EXAMPLE_KEYS

    def load_spec(self, root: Path | None) -> Spec:
        """Return the spec of ``root`` (``None``: the package's spec)."""
        return load_spec(root)

    def run_example(self, example: Example) -> None:
        """Run ``example`` against the engine; raise ``ExampleFailure`` if it does not hold."""
        run_example(example)

    def shown(self, text: str) -> str:
        """Return ``text`` with the sources named (:func:`source_names`)."""
        return source_names(text)

    def figures(self, example: Example, failure: str | None) -> str:
        """Return the board and dice pictures of ``example`` (:func:`example_figures`)."""
        return example_figures(example, failure)

    def links(self, example: Example, docname: str) -> list[nodes.Node]:
        """Return the link opening ``example`` on the "Try it" board, if the board can show it."""
        found = example_link(example)
        return [] if found is None else [tryit_link(docname, *found)]

    def message(self, example: Example) -> str | None:
        """Return the message the engine gives for an example that expects an error."""
        text = example.get("actions") or example.get("action") or ""
        try:
            if example.get("notation") is not None:
                parse_state(example.get("notation") or "")
            elif example.get("action-text") is not None:
                parse_action(example.get("action-text") or "")
            elif example.get("state") is not None:
                actions: list[Action] = [parse_action(a) for a in text.split()]
                state = parse_state(example.get("state") or "")
                for action in actions:
                    state = state.apply(action)
        except CantStopError as exc:
            return str(exc)
        return None

    def fact_note(self, example: Example, key: str) -> str:
        """Return the chance of a bust after the whole-roll counts (``perft``), else ``""``."""
        if key != "perft":
            return ""
        counts = dict(part.split("=") for part in (example.get("perft") or "").split())
        chance = Fraction(int(counts.get("busts", "0")), 1296)
        return f" (bust chance {chance} = {float(chance):.2%})"


def setup(app: Sphinx) -> dict[str, Any]:
    """Put the Can't Stop spec on the site, with the game's directives; return the metadata."""
    setup_site(app, CantStopSpec(), "cantstop")
    app.setup_extension("cantstop_pictures")
    app.setup_extension("cantstop_questions")
    app.setup_extension("cantstop_odds")
    return {
        "version": "2",
        "env_version": 2,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
