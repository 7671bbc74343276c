"""The run loop of the conformance harness: every case against one port, and the results.

Each case sends one or more requests (the game's suite checks the answers)
and passes, fails, or is skipped when the port lacks what it needs.  A port
that crashes, hangs, prints something that is not a response, or closes its
output fails the case at hand; the harness then starts it again and goes on
with the next case.  A port that cannot start, fails the handshake, fails
:data:`MAX_PORT_FAILURES` cases in a row that way, or leaves twice that many
requests unanswered within the timeout in all stops the run: the result says
why (``Run.stopped``), and :meth:`Run.exit_status` is 2.  A failure of the
protocol blames no rule: it fails its case, and the ranking leaves it out.  A line
that is no answer asked for (an answer that comes twice, or before its request,
or any other line after an answer) is charged to the case whose answer it
follows, however many there are.  After a run, :meth:`Run.diagnose` asks the failing cases again
and ranks the rules they point at (:mod:`~dicekit.conformance.ranking`).
"""

from __future__ import annotations

import fnmatch
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicekit.conformance.cases import is_glob
from dicekit.conformance.compare import Mismatch, printable
from dicekit.conformance.port import STRAYS_KEPT, Port, PortFailure
from dicekit.conformance.ranking import Diagnosis, Suspect, diagnose, rank
from dicekit.conformance.suite import Case, GameSuite, Message

__all__ = [
    "DIAGNOSIS_PORT_FAILURES",
    "MAX_PORT_FAILURES",
    "CaseResult",
    "Run",
    "handshake",
    "open_port",
    "run_suite",
]

#: How many cases in a row may end in a port failure (each followed by a restart)
#: before the run stops: five hangs at the default timeout take under a minute.
MAX_PORT_FAILURES = 5

#: How many port failures the diagnosis puts up with while it asks the failing cases again.
DIAGNOSIS_PORT_FAILURES = 3


@dataclass
class CaseResult:
    """The outcome of one case.

    ``status`` is ``passed``, ``failed``, ``known`` (a listed failure that
    still fails) or ``skipped`` (the port does not support the options).
    """

    id: str
    status: str
    rules: list[str]
    message: str = ""
    diagnosis: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: For a skipped case, what it needs that the port lacks (``explain``, ``players=3``).
    need: str = ""
    #: Whether the case failed by breaking the protocol (a crash, a hang, a line that is
    #: not its answer) rather than by a wrong answer: no rule is to blame for it.
    protocol: bool = False

    def to_json(self) -> dict[str, Any]:
        """Return the result as a JSON object for the report."""
        out: dict[str, Any] = {"id": self.id, "status": self.status, "rules": self.rules}
        if self.protocol:
            out["protocol"] = True
        if self.message:
            out["message"] = self.message
        if self.diagnosis:
            out["diagnosis"] = self.diagnosis
        out["seconds"] = round(self.seconds, 4)
        return out


@dataclass
class Run:
    """A finished run: the results in case order and what the port said about itself.

    ``stopped`` says why the run ended before its last case (the port could
    not start, failed the handshake, or failed case after case), or is
    ``None``; ``selected`` is the number of cases the run was given.
    """

    results: list[CaseResult]
    hello: Message | None
    command: list[str]
    starts: int = 0
    stopped: str | None = None
    selected: int = 0
    #: The diagnosis, once :meth:`diagnose` has asked the failing cases again.
    diagnosis: Diagnosis | None = None
    #: The game's suite the cases belong to: it says how to ask them again.
    suite: GameSuite | None = field(default=None, repr=False)
    #: The version of the suite the cases come from, when known.
    version: int | None = None

    def count(self, status: str) -> int:
        """Return how many cases have ``status``."""
        return sum(r.status == status for r in self.results)

    @property
    def ok(self) -> bool:
        """Whether nothing failed."""
        return self.count("failed") == 0

    @property
    def ran(self) -> int:
        """Return how many cases ran: every case with a result but the skipped ones."""
        return len(self.results) - self.count("skipped")

    def exit_status(self) -> int:
        """Return the exit status of ``cantstop conform`` for this run (``spec/protocol.md``).

        0 when at least one case ran and none failed; 1 when a case failed;
        2 when the run stopped early or no case ran (all skipped).

        >>> Run([CaseResult("spec-E001", "passed", [])], None, []).exit_status()
        0
        >>> Run([CaseResult("spec-E001", "skipped", [])], None, []).exit_status()
        2
        """
        if self.stopped is not None or self.ran == 0:
            return 2
        return 0 if self.ok else 1

    def diagnose(self, cases: Iterable[Case], timeout: float = 10.0) -> Diagnosis:
        """Ask the failing cases again, rank the suspect rules, keep and return the diagnosis.

        The port is started once more for this; if it breaks, the cases not yet
        asked count by their rule tags alone.
        """
        suite = self._suite()
        failed = [r for r in self.results if r.status == "failed"]
        port = open_port(suite, self.command, timeout, self.version)
        broken = 0

        def ask(message: Message) -> Message | None:
            nonlocal broken
            if broken >= DIAGNOSIS_PORT_FAILURES:
                return None
            try:
                if not port.running:
                    port.begin_case()
                    port.start()
                port.begin_case()
                return port.request(message)
            except PortFailure:
                broken += 1
                port.stop()
                return None

        try:
            self.diagnosis = diagnose(self.results, cases, suite, ask if failed else None)
        finally:
            port.stop()
        return self.diagnosis

    def suspects(self) -> list[tuple[str, int, int]]:
        """Rules named by failing cases: (rule, failed, cases naming it), most suspicious first.

        The order is the diagnosis's (:func:`dicekit.conformance.ranking.diagnose`);
        before :meth:`diagnose` has run, it weighs the rule tags of the cases alone.
        """
        return [(s.rule, s.failed, s.cases) for s in self._suspects()]

    def _suspects(self) -> list[Suspect]:
        if self.diagnosis is not None:
            return self.diagnosis.suspects
        weights = self.suite.weights if self.suite is not None else None
        return rank(self.results, weights=weights)

    def _skipped_line(self) -> str:
        """Say how many cases were left out, and for what the port lacks."""
        needs = Counter(r.need for r in self.results if r.status == "skipped")
        words = self.suite.need_words if self.suite is not None else str
        parts = ", ".join(f"{words(need)} ({n:,})" for need, n in needs.most_common())
        return f"{self.count('skipped'):,} skipped, for what the port does not support: {parts}"

    def _suite(self) -> GameSuite:
        if self.suite is None:
            raise ValueError("this run has no suite to ask its failing cases again")
        return self.suite

    def _diagnosis(self) -> Diagnosis:
        if self.diagnosis is not None:
            return self.diagnosis
        titles = self.suite.rule_titles() if self.suite is not None else {}
        return Diagnosis(self._suspects(), titles=titles)

    def report(self) -> dict[str, Any]:
        """Return the JSON report of the run."""
        return {
            "suite": self.suite.name if self.suite is not None else None,
            "suite_version": self.version,
            "version": 1,
            "command": self.command,
            "port": self.hello,
            "port_starts": self.starts,
            "selected": self.selected,
            "stopped": self.stopped,
            "summary": {
                status: self.count(status) for status in ("passed", "failed", "known", "skipped")
            },
            "suspect_rules": Diagnosis(self._suspects()).to_json(),
            "cases": [r.to_json() for r in self.results],
        }

    def summary_lines(self, *, verbose: bool = False, limit: int = 50) -> Iterator[str]:
        """Yield the human summary; its last line is ``N passed, N failed``."""
        shown = 0
        for result in self.results:
            if result.status == "failed" or (verbose and result.status != "passed"):
                if result.status == "failed":
                    shown += 1
                    if shown > limit:
                        continue
                yield f"{result.status.upper()} {result.id} [{' '.join(result.rules)}]"
                yield f"  {result.message}"
                for line in result.diagnosis:
                    yield f"    {line}"
        if shown > limit:
            yield f"... and {_plural(shown - limit, 'more failure')} (see --report)"
        broken = sum(r.status == "failed" and r.protocol for r in self.results)
        if broken:
            yield (
                f"{_plural(broken, 'case')} failed by breaking the protocol; "
                "no rule is suspected for them."
            )
        if self.stopped is None:  # a stopped run shows port faults, not rules
            yield from self._diagnosis().lines()
        if self.starts > 1:
            yield f"The port was started {self.starts} times."
        if self.count("skipped"):
            yield self._skipped_line()
        if self.count("known"):
            known = self.count("known")
            yield f"{_plural(known, 'known failure')} still {'fails' if known == 1 else 'fail'}"
        if self.stopped is not None:
            yield f"The run stopped after {len(self.results)} of {_plural(self.selected, 'case')}."
        title = self.suite.title if self.suite is not None else ""
        words = f"suite v{self.version}" if self.version is not None else "suite"
        ran = f" ({title} {words})" if title else f" ({words})" if self.version is not None else ""
        yield f"{self.count('passed')} passed, {self.count('failed')} failed{ran}"


def open_port(
    suite: GameSuite, command: Sequence[str], timeout: float, version: int | None = None
) -> Port:
    """Return the (not yet started) port of ``command`` for ``suite``'s game and ``version``.

    Its ``hello`` names the game and the suite version, and its handshake
    checks the game the port names and what it declares it supports.
    """
    return Port(
        command,
        timeout,
        protocol=suite.protocol,
        supports=suite.supports_problem,
        game=suite.game,
        unnamed=suite.accepts_unnamed,
        suite_version=version,
    )


def handshake(
    command: Sequence[str], suite: GameSuite, timeout: float = 10.0, version: int | None = None
) -> Message:
    """Start the port, shake hands and stop it; return its ``hello`` answer.

    Raise :class:`~dicekit.conformance.port.PortFailure` when the port cannot
    start or fails the handshake (it names another game, another protocol).
    """
    port = open_port(suite, command, timeout, version)
    try:
        port.begin_case()
        return port.start()
    finally:
        port.stop()


def _plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, the noun in the plural unless ``n`` is 1: ``1 case``, ``2 cases``.

    >>> _plural(1, "case"), _plural(11163, "more failure")
    ('1 case', '11,163 more failures')
    """
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def _classify(results: list[CaseResult], known: Sequence[str]) -> None:
    """Apply the known-failures entries to the results (``spec/protocol.md``).

    A case listed by its id must fail: it becomes ``known``, or ``failed`` if
    it passes.  A case a glob matches may fail: it becomes ``known`` if it
    fails and stays ``passed`` if it passes.
    """
    ids = {e for e in known if not is_glob(e)}
    globs = [e for e in known if is_glob(e)]
    for result in results:
        if result.status == "skipped":
            continue
        listed = result.id in ids
        if listed or any(fnmatch.fnmatchcase(result.id, g) for g in globs):
            if result.status == "failed":
                result.status = "known"
            elif listed:
                result.status = "failed"
                result.message = "listed as a known failure, but it passes: remove it from the list"


def run_suite(
    command: Sequence[str],
    cases: list[Case],
    suite: GameSuite,
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
    (:func:`~dicekit.conformance.cases.read_known_failures`).
    """
    port = open_port(suite, command, timeout, version)
    results: list[CaseResult] = []
    hello: Message | None = None
    stopped: str | None = None
    in_a_row = hangs = 0
    try:
        for index, case in enumerate(cases):
            began = time.perf_counter()
            result = CaseResult(case["id"], "passed", list(case.get("rules", [])))
            port.tag = index
            try:
                if port.running:
                    port.collect()
                else:
                    port.begin_case()
                    try:
                        hello = port.start()
                    except PortFailure as exc:
                        if port.starts == 1:
                            port.stop(kill=True)
                            stopped = f"the port could not start: {exc}"
                            break
                        raise
                port.begin_case()
                lacking = suite.lacking(hello, case.get("needs", []))
                if lacking is not None:
                    result.status = "skipped"
                    result.message = f"the port does not support {lacking}"
                    result.need = lacking
                else:
                    suite.checks[case["kind"]](port, case)
                in_a_row = 0
            except Mismatch as exc:
                result.status = "failed"
                result.message = exc.message
                result.diagnosis = exc.lines
                in_a_row = 0
            except PortFailure as exc:
                result.status = "failed"
                result.message = f"port failure: {exc}"
                result.protocol = True
                port.stop(kill=True)
                in_a_row += 1
                hangs += exc.hang
            except Exception as exc:  # an answer of a shape no check foresaw: the case fails
                result.status = "failed"
                result.message = f"malformed answer: {type(exc).__name__}: {printable(str(exc))}"
                in_a_row = 0
            result.seconds = time.perf_counter() - began
            results.append(result)
            if progress is not None:
                progress(result)
            if in_a_row >= max_port_failures:
                stopped = (
                    f"{_plural(in_a_row, 'case')} in a row ended in a port failure, "
                    f"each followed by a restart; the last: {result.message}"
                )
                break
            if hangs >= 2 * max_port_failures:
                stopped = (
                    f"{_plural(hangs, 'request')} went unanswered within the timeout, "
                    f"each followed by a restart; the last: {result.message}"
                )
                break
        else:
            port.stop(collect=True)
    finally:
        port.stop(kill=True)
    for tag, message in port.strays:
        if tag is not None and tag < len(results):
            blamed = results[tag]
            if blamed.status == "passed":
                blamed.status = "failed"
                blamed.message = message
                blamed.protocol = True
            else:
                blamed.diagnosis.append(message)
    for tag, count in port.stray_counts.items():
        if tag is not None and tag < len(results) and count > STRAYS_KEPT:
            more = count - STRAYS_KEPT
            results[tag].diagnosis.append(f"... and {more:,} more lines after its answers")
    _classify(results, known)
    return Run(
        results,
        hello,
        list(command),
        port.starts,
        stopped,
        len(cases),
        suite=suite,
        version=version,
    )
