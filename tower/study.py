"""The seeded-bug study of Off to the Tower: the suite against each bug of the JavaScript port.

The bundled port (``tower/ports/javascript/port.js``) carries seeded bugs,
each reading one rule wrongly, listed in ``bugs.json`` beside it and
switched on by ``node port.js --bug NAME``.  The study runs the game's
conformance vectors against each of them with the layer's study
(:class:`dicekit.conformance.study.PortStudy`) and checks the targets:
every bug caught, the rule at fault named first for at least 90 % of the
bugs and among the first three for all.

``python -m tower.study --json tower/spec/conformance/study.json`` runs it
on every vector of the newest version and writes the results file;
``--bug NAME`` (repeatable) runs only those bugs, and ``--markdown`` prints
the committed results as the Markdown table of ``docs/tower/ports.md``.
``python -m tower.study --held-out [--json FILE] [--markdown]`` runs the
held-out study instead (:mod:`dicekit.conformance.heldout`): one line of
the port deleted for each rule that decides something, listed in
``tower/spec/conformance/heldout-bugs.json``, its results in
``heldout.json`` beside it.  A copy of the port holds the shipped boards.
Exit status: 0 when the targets are met, 1 when not, 2 for a usage error
(no Node.js, an unknown bug), with one line on stderr.

>>> [bug.name for bug in STUDY.bugs][:2]
['unsorted-dice', 'dice-added']
>>> STUDY.port_command("dice-added", node="node")[-2:]
['--bug', 'dice-added']
>>> STUDY.results_path().relative_to(PORT.parents[2]).as_posix()
'spec/conformance/study.json'
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from dicekit.conformance.study import PortStudy, load_bugs
from tower.layer import GAME

__all__ = ["PORT", "STUDY", "main"]

#: The bundled JavaScript port.
PORT = Path(__file__).parent / "ports" / "javascript" / "port.js"

#: The study of the bundled port and its seeded bugs (``bugs.json``).
STUDY = PortStudy(
    GAME,
    PORT,
    load_bugs(PORT.parent / "bugs.json"),
    "Off to the Tower",
    (PORT.parents[2] / "boards",),
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the study, print its table and optionally write the results file; return the status."""
    return STUDY.main(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
