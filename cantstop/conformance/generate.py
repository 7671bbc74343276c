"""Write the newest conformance vectors under ``spec/conformance/vN/`` from the spec and the engine.

``python -m cantstop.conformance.generate`` (or ``cantstop conform --regenerate``)
writes the version the suite's next change goes into: the newest version,
:data:`SUITE_VERSION`, while it is being prepared.  A released version is
frozen (its files are held to the hashes of ``spec/conformance/frozen.json``,
:mod:`dicekit.conformance.frozen`): once the newest is released, the
generator writes nothing while its vectors come out the same, and the first
change to them opens the next version, ``vN+1``, with the newest's schema
renumbered (:func:`dicekit.conformance.vectorfiles.write_next`); the change
is then listed in ``spec/CHANGES.md`` and :data:`SUITE_VERSION` moves up.  The
output depends only on this package, the spec and the engine, never on the
clock or on hash seeds, so a second run gives the same bytes.  The case
kinds and their fields are described in ``spec/protocol.md`` and in
``schema.json``.  The cases of each file are drawn
by :mod:`~cantstop.conformance.playcases`,
:mod:`~cantstop.conformance.textcases` and
:mod:`~cantstop.conformance.explaincases` from the state pool of
:mod:`~cantstop.conformance.pool`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from cantstop.conformance import pool as _pool
from cantstop.conformance.explaincases import (
    explain_cases,
    explain_error_cases,
    explanation_features,
)
from cantstop.conformance.playcases import (
    apply_cases,
    game_cases,
    illegal_cases,
    moves_cases,
    perft_cases,
    rolls_cases,
    spec_examples,
)
from cantstop.conformance.pool import needs, play_game, state_pool
from cantstop.conformance.textcases import invalid_cases, notation_cases
from cantstop.spec import spec_dir
from cantstop.state import State
from dicekit.conformance.cases import suite_versions
from dicekit.conformance.frozen import FrozenError, refuse_frozen
from dicekit.conformance.suite import Case
from dicekit.conformance.vectorfiles import render as _render
from dicekit.conformance.vectorfiles import write_files, write_next

__all__ = [
    "CONFIGS",
    "SUITE",
    "SUITE_VERSION",
    "explanation_features",
    "generate",
    "main",
    "needs",
    "play_game",
    "render",
    "schema",
    "state_pool",
    "suite_root",
    "vectors_dir",
    "versions",
    "write",
    "write_next_version",
]

#: The name every vector file carries.
SUITE = "cantstop-conformance"
#: The newest version of the suite, the one a port that names no version runs; also the
#: directory name.  Version 3 is being prepared; version 2, released on 2026-12-04, is frozen.
SUITE_VERSION = 3


#: The configurations whose games supply the generated states (:mod:`~cantstop.conformance.pool`).
CONFIGS = _pool.CONFIGS


def suite_root() -> Path:
    """Return the folder of every version of the suite (``spec/conformance``)."""
    return spec_dir() / "conformance"


def vectors_dir(version: int = SUITE_VERSION) -> Path:
    """Return the directory of the vector files of ``version`` (``spec/conformance/v3``)."""
    return suite_root() / f"v{version}"


def versions() -> list[int]:
    """Return the suite versions installed, oldest first."""
    return suite_versions(suite_root())


#: The vector files: name, description, builder from the state pool.
FILES: tuple[tuple[str, str, Callable[[list[State]], list[Case]]], ...] = (
    (
        "spec-examples",
        "every example of the spec, with its own expectations",
        lambda pool: spec_examples(),
    ),
    (
        "moves",
        "legal moves of reachable states in the CHOOSE phase",
        lambda pool: moves_cases(pool, 3000),
    ),
    (
        "apply",
        "legal actions from reachable states: the state and event after each",
        lambda pool: apply_cases(pool, 3000),
    ),
    (
        "illegal",
        "illegal actions from reachable states, with the rule each breaks",
        lambda pool: illegal_cases(pool, 1800),
    ),
    ("perft", "whole-roll counts of reachable states", lambda pool: perft_cases(pool, 300)),
    (
        "rolls",
        "legal moves for every roll of reachable states",
        lambda pool: rolls_cases(pool, 100),
    ),
    ("games", "whole games: the state and event after every action", lambda pool: game_cases(8)),
    (
        "notation",
        "valid states and actions in text and JSON",
        lambda pool: notation_cases(pool, 400),
    ),
    (
        "invalid",
        "text, JSON and setups that must be rejected, with the rule each breaks",
        lambda pool: invalid_cases(pool, 1200),
    ),
    (
        "explain",
        "explanations of states and actions (spec/explain.md), for ports that declare explain",
        lambda pool: explain_cases(pool, 500) + explain_error_cases(pool, 20),
    ),
)


def render(name: str, description: str, cases: list[Case], version: int = SUITE_VERSION) -> str:
    """Return the text of one vector file of ``version``: a JSON object with one case per line."""
    return _render(SUITE, version, name, description, cases)


def _built() -> list[tuple[str, str, list[Case]]]:
    pool = state_pool()
    return [(name, desc, build(pool)) for name, desc, build in FILES]


def generate(version: int = SUITE_VERSION) -> dict[str, str]:
    """Return every vector file's name and text, as version ``version`` holds them."""
    return {f"{name}.json": render(name, desc, cases, version) for name, desc, cases in _built()}


def schema(version: int) -> str:
    """Return ``schema.json`` of ``version``: the newest version's, renumbered.

    The schema is written by hand; a new version starts from the newest's,
    with its number in the ``$id``, the title and the ``version`` it admits.
    """
    newest = vectors_dir(SUITE_VERSION)
    text = (newest / "schema.json").read_text(encoding="utf-8")
    for old, new in (
        (f"/v{SUITE_VERSION}/schema.json", f"/v{version}/schema.json"),
        (f'vectors, version {SUITE_VERSION}"', f'vectors, version {version}"'),
        (f'"version": {{"const": {SUITE_VERSION}}}', f'"version": {{"const": {version}}}'),
    ):
        if text.count(old) != 1:
            raise FrozenError(f"{newest}/schema.json does not hold {old!r} once")
        text = text.replace(old, new)
    return text


def write(directory: Path | None = None) -> dict[str, int]:
    """Write every vector file to ``directory``, or where the suite's next change goes.

    Return the number of cases in each file.  A released version is frozen
    (``spec/conformance/frozen.json``): writing into it raises
    :class:`~dicekit.conformance.frozen.FrozenError` before any file is
    touched.  Without ``directory``, see :func:`write_next_version`.
    """
    if directory is None:
        return write_next_version()[0]
    refuse_frozen(directory)
    return write_files(directory, generate())


def write_next_version() -> tuple[dict[str, int], Path]:
    """Write the vectors where the suite's next change goes; return the counts and the folder.

    While :data:`SUITE_VERSION` is being prepared, its files are rewritten.
    Once it is released, nothing is written while the vectors come out as it
    holds them (the counts are empty); otherwise version ``SUITE_VERSION + 1``
    is opened, its schema renumbered from the newest's.
    """
    built = _built()

    def texts(version: int) -> dict[str, str]:
        files = {f"{n}.json": render(n, d, cases, version) for n, d, cases in built}
        return files if version == SUITE_VERSION else {**files, "schema.json": schema(version)}

    return write_next(suite_root(), SUITE_VERSION, texts)


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the vectors as :func:`cantstop.commands.vectors.generate_main` says."""
    from cantstop.commands.vectors import generate_main

    return generate_main(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
