"""The seeded-bug study of the finish-line race: the suite against each bug of the JavaScript port.

The bundled port (``finishline/ports/javascript/port.js``) carries seeded
bugs, each breaking one rule, listed in ``bugs.json`` beside it and switched
on by ``node port.js --bug NAME``.  The study runs the game's conformance
vectors against each of them with the layer's study
(:mod:`dicekit.conformance.study`) and checks the targets: every bug caught,
the rule at fault named first for at least 90 % of the bugs and among the
first three for all.

``python -m finishline.study --json finishline/spec/conformance/study.json``
runs it on every vector of the newest version and writes the results file;
``--bug NAME`` (repeatable) runs only those bugs, and ``--markdown`` prints
the committed results as a Markdown table.  ``python -m finishline.study
--held-out [--json FILE] [--markdown]`` runs the held-out study instead
(:mod:`dicekit.conformance.heldout`): one line of the port deleted for each
rule that decides something, listed in
``finishline/spec/conformance/heldout-bugs.json``, its results in
``heldout.json`` beside it.  Exit status: 0 when the targets are met, 1 when
not, 2 for a usage error (no Node.js, an unknown bug), with one line on
stderr.  The command is the layer's
(:class:`dicekit.conformance.study.PortStudy`) with this game's port.

>>> [bug.name for bug in BUGS][:2]
['one-die-optional', 'hand-unlimited']
>>> port_command("anticlockwise", node="node")[-2:]
['--bug', 'anticlockwise']
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from dicekit.conformance.gamesuite import GameVectorsSuite
from dicekit.conformance.study import Bug, PortStudy
from dicekit.conformance.study import load_bugs as _load_bugs
from dicekit.conformance.suite import Case
from finishline.layer import GAME

__all__ = [
    "BUGS",
    "PORT",
    "STUDY",
    "Bug",
    "load_bugs",
    "main",
    "newest_cases",
    "port_command",
    "results_path",
    "suite",
]

#: The bundled JavaScript port.
PORT = Path(__file__).parent / "ports" / "javascript" / "port.js"


def load_bugs(path: Path = PORT.parent / "bugs.json") -> tuple[Bug, ...]:
    """Return the seeded bugs listed in ``path`` (the port's ``bugs.json``), in its order."""
    return _load_bugs(path)


#: The seeded bugs of the bundled port.
BUGS = load_bugs()

#: The study of the bundled port.
STUDY = PortStudy(GAME, PORT, BUGS, "the finish-line race")


def port_command(bug: str, node: str | None = None) -> list[str]:
    """Return the command that runs the bundled port with the seeded bug ``bug``."""
    return STUDY.port_command(bug, node)


def suite() -> GameVectorsSuite:
    """Return the game's conformance suite (the layer's generic suite of :data:`GAME`)."""
    return STUDY.suite()


def results_path() -> Path:
    """Return the study's committed results file, ``study.json`` beside the versions."""
    return STUDY.results_path()


def newest_cases() -> tuple[int, list[Case]]:
    """Return the newest version of the game's suite and its cases."""
    return STUDY.newest_cases()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the study, print its table and optionally write the results file."""
    return STUDY.main(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
