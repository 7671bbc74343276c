"""Write the newest conformance vectors under ``spec/conformance/vN/`` from the spec and the engine.

``python -m cantstop.conformance.generate`` (or ``cantstop conform --regenerate``)
rewrites every file of the newest version, :data:`SUITE_VERSION`; a released
version is frozen (its files are held to the hashes of
``spec/conformance/frozen.json``, :mod:`dicekit.conformance.frozen`), and a
change to any expected answer is a new version (``spec/CHANGES.md``).  The
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

import argparse
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
from dicekit.conformance.frozen import refuse_frozen
from dicekit.conformance.suite import Case
from dicekit.conformance.vectorfiles import render as _render
from dicekit.conformance.vectorfiles import write_files

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
    "state_pool",
    "suite_root",
    "vectors_dir",
    "versions",
    "write",
]

#: The name every vector file carries.
SUITE = "cantstop-conformance"
#: The newest version of the suite: the one the generator writes; also the directory name.
SUITE_VERSION = 2


#: The configurations whose games supply the generated states (:mod:`~cantstop.conformance.pool`).
CONFIGS = _pool.CONFIGS


def suite_root() -> Path:
    """Return the folder of every version of the suite (``spec/conformance``)."""
    return spec_dir() / "conformance"


def vectors_dir(version: int = SUITE_VERSION) -> Path:
    """Return the directory of the vector files of ``version`` (``spec/conformance/v2``)."""
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


def render(name: str, description: str, cases: list[Case]) -> str:
    """Return the text of one vector file: a JSON object with one case per line."""
    return _render(SUITE, SUITE_VERSION, name, description, cases)


def generate() -> dict[str, str]:
    """Return every vector file's name and text."""
    pool = state_pool()
    return {f"{name}.json": render(name, desc, build(pool)) for name, desc, build in FILES}


def write(directory: Path | None = None) -> dict[str, int]:
    """Write every vector file to ``directory`` (default: :func:`vectors_dir`).

    Return the number of cases in each file.  A released version is frozen
    (``spec/conformance/frozen.json``): writing into it raises
    :class:`~dicekit.conformance.frozen.FrozenError` before any file is touched.
    """
    target = vectors_dir() if directory is None else directory
    refuse_frozen(target)
    return write_files(target, generate())


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the vectors; print the number of cases per file."""
    parser = argparse.ArgumentParser(prog="python -m cantstop.conformance.generate")
    parser.add_argument("--out", type=Path, help="directory to write (default: the spec's)")
    args = parser.parse_args(argv)
    counts = write(args.out)
    for name, count in counts.items():
        print(f"{name}: {count} cases")
    print(f"{sum(counts.values())} cases in total")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
