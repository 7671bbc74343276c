"""Run the conformance vectors against a port that speaks ``spec/protocol.md``.

The port is one long-lived process.  Each case sends one or more requests and
compares the answers with the case's expectations.  A port that crashes,
hangs, prints something that is not a response, or closes its output fails the
case at hand; the harness then starts it again and goes on with the next case.
A port that cannot start, fails the handshake, or fails
:data:`~dicekit.conformance.run.MAX_PORT_FAILURES` cases in a row that
way stops the run: the result says why (``Run.stopped``), and
:meth:`Run.exit_status` is 2.

Whatever the port prints, the harness reads it as a line of the protocol
(:mod:`dicekit.conformance.lines`): an empty line, a line that is not
UTF-8 or not JSON, JSON nested too deeply, a number out of range or a line
too long fails the case with the reason.  An answer that comes twice is
blamed on the request it answers, not on the case that happens to read it.

Count mismatches are diagnosed like perft "divide": the harness asks the port
for the legal moves of every roll and names the rolls (and moves) that differ,
together with the rules that decide them.  After a run,
:meth:`Run.diagnose` asks the failing cases again and ranks the rules they
point at (:mod:`cantstop.conformance.diagnose`).

The run loop, the port process and the vector files are game-neutral
(:mod:`dicekit.conformance`); this module hands them Can't Stop's
suite (:data:`cantstop.conformance.suite.SUITE`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from cantstop.conformance.checks import explanation_difference
from cantstop.conformance.suite import SUITE
from dicekit.conformance import cases as _cases
from dicekit.conformance import run as _run
from dicekit.conformance.cases import (
    HarnessError,
    files_version,
    is_glob,
    read_known_failures,
    select,
    unmatched_entries,
)
from dicekit.conformance.compare import Mismatch
from dicekit.conformance.port import Port, PortFailure
from dicekit.conformance.run import CaseResult, Run
from dicekit.conformance.suite import Case

__all__ = [
    "DIAGNOSIS_PORT_FAILURES",
    "MAX_PORT_FAILURES",
    "CaseResult",
    "HarnessError",
    "Mismatch",
    "Port",
    "PortFailure",
    "Run",
    "explanation_difference",
    "files_version",
    "handshake",
    "is_glob",
    "load_cases",
    "read_known_failures",
    "run_suite",
    "select",
    "unmatched_entries",
]


#: How many cases in a row may end in a port failure (each followed by a restart)
#: before the run stops; twice as many requests unanswered in all stop it too.
MAX_PORT_FAILURES = _run.MAX_PORT_FAILURES
#: How many port failures the diagnosis puts up with while it asks the failing cases again.
DIAGNOSIS_PORT_FAILURES = _run.DIAGNOSIS_PORT_FAILURES


def load_cases(directory: Path) -> list[Case]:
    """Read the cases of every vector file in ``directory`` (all ``*.json`` but the schema).

    Raise :class:`HarnessError` if ``directory`` is not a directory, holds no
    vector file, or holds a file that is not one (``spec/protocol.md``, "The
    vectors").
    """
    return _cases.load_cases(directory, SUITE.checks)


def run_suite(
    command: Sequence[str],
    cases: list[Case],
    *,
    timeout: float = 10.0,
    known: Sequence[str] = (),
    progress: Callable[[CaseResult], None] | None = None,
    max_port_failures: int = MAX_PORT_FAILURES,
    version: int | None = None,
) -> Run:
    """Run ``cases`` against the port started by ``command``; return the results.

    The run stops early (``Run.stopped``) when the port cannot start or
    fails the handshake the first time, or when ``max_port_failures`` cases in
    a row end in a port failure.  ``known`` holds known-failures entries
    (:func:`read_known_failures`); ``version`` is the suite version the cases
    come from, which the summary names.
    """
    return _run.run_suite(
        command,
        cases,
        SUITE,
        timeout=timeout,
        known=known,
        progress=progress,
        max_port_failures=max_port_failures,
        version=version,
    )


def handshake(
    command: Sequence[str], timeout: float = 10.0, version: int | None = None
) -> dict[str, object]:
    """Start the port, shake hands and stop it; return its ``hello`` answer.

    The ``hello`` names the game and, when given, the suite ``version`` the
    harness means to run.  Raise :class:`PortFailure` when the port cannot
    start or fails the handshake.
    """
    return _run.handshake(command, SUITE, timeout, version)
