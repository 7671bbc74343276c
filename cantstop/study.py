"""The seeded-bug study: how well the conformance suite names the rule a port gets wrong.

For every seeded bug of :mod:`cantstop.conformance.mutants`, the study runs the
conformance suite against ``cantstop serve --mutant NAME`` and records three
things: whether the suite caught the bug (some case failed), how many cases
failed, and the rank of the rule at fault in the diagnosis's list of suspect
rules (1 = named first).  The targets: every bug caught, the rule at fault
first for at least 90 % of the bugs, and among the first three for all.

``python -m cantstop.conformance.study --json spec/conformance/study.json``
runs the study on every vector and writes the results file that the port
guide of the documentation site shows; ``--subset fast`` runs it on the
subset that the tests run.

``python -m cantstop.conformance.study --held-out [--json FILE] [--markdown]``
runs the held-out study instead (:data:`HELD_OUT`, on the layer's
:mod:`dicekit.conformance.heldout`): for each rule that decides something,
one line of the JavaScript port (``examples/ports/javascript/``) deleted,
listed in ``spec/conformance/heldout-bugs.json``; its results are
``spec/conformance/heldout.json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cantstop.conformance import generate, harness
from cantstop.conformance.checks import CHECKS
from cantstop.conformance.mutants import MUTANTS, MutantPort
from cantstop.conformance.serve import handle as reference
from cantstop.conformance.suite import SUITE
from dicekit.conformance import study as _study
from dicekit.conformance.compare import same_json
from dicekit.conformance.heldout import HeldOutStudy
from dicekit.conformance.study import FIRST_SHARE, TOP, Outcome, misses, table_lines

__all__ = [
    "FAST_GAMES",
    "FAST_TABLES",
    "FIRST_SHARE",
    "HELD_OUT",
    "TOP",
    "Outcome",
    "changed_cases",
    "fast_subset",
    "main",
    "misses",
    "port_command",
    "reference_transcripts",
    "results_path",
    "run_mutant",
    "run_study",
]

Case = dict[str, Any]
Message = dict[str, Any]


def results_path() -> Path:
    """Return the committed results file of the study (``spec/conformance/study.json``)."""
    return generate.vectors_dir().parent / "study.json"


def port_command(mutant: str) -> list[str]:
    """Return the command that runs the reference port with the seeded bug ``mutant``."""
    return [sys.executable, "-m", "cantstop", "serve", "--mutant", mutant]


#: The configurations whose first whole game the fast subset keeps: two and three
#: players, Variant B (the spec examples and the other cases cover Variant A).
FAST_GAMES = ("2p", "3p-B")
#: How many roll tables (perft and rolls cases) the fast subset keeps.
FAST_TABLES = 12


def fast_subset(cases: Sequence[Case]) -> list[Case]:
    """Return the cases the fast study runs: one of each shape, and every spec example.

    A case's shape is its file, its rule tags and the fields it sends and
    expects (text or JSON, which JSON fields, an error or a result), so the
    subset still asks every question the suite asks, about every combination
    of rules it names.  Whole games and roll tables, which cost hundreds of
    requests or a whole-roll count each, are fewer: the first game of each
    configuration in :data:`FAST_GAMES`, and :data:`FAST_TABLES` tables.
    """
    kept: list[Case] = []
    shapes: set[tuple[Any, ...]] = set()
    games: set[str] = set()
    tables = 0
    for case in cases:
        kind = case["kind"]
        if kind == "example":
            kept.append(case)
            continue
        if kind == "game":
            config = case["id"].split("-", 1)[1].rsplit("-", 1)[0]
            if config in FAST_GAMES and config not in games:
                games.add(config)
                kept.append(case)
            continue
        shape = _shape(case)
        if shape in shapes:
            continue
        if kind in ("perft", "rolls"):
            if tables >= FAST_TABLES:
                continue
            tables += 1
        shapes.add(shape)
        kept.append(case)
    return kept


def _shape(case: Case) -> tuple[Any, ...]:
    sent = sorted(k for k in case if k not in ("id", "rules", "kind", "expect", "note", "_file"))
    data = case.get("json")
    fields = tuple(sorted(data)) if isinstance(data, dict) else None
    return (
        case["id"].split("-", 1)[0],
        tuple(case["rules"]),
        tuple(sent),
        fields,
        tuple(case["expect"]),
    )


#: A case's requests to the reference port and its answers, in order, by case id.
Transcripts = Mapping[str, Sequence[tuple[Message, Message]]]


class _Recorder:
    """Stands in for a port: answers with the reference port in process, noting each exchange."""

    def __init__(self) -> None:
        self.exchanges: list[tuple[Message, Message]] = []

    def request(self, message: Message) -> Message:
        answer = reference({"seq": 0, **message})
        self.exchanges.append((message, answer))
        return answer


def reference_transcripts(cases: Sequence[Case]) -> dict[str, list[tuple[Message, Message]]]:
    """Run every case against the reference port in process; return each case's exchanges.

    Raise :class:`~dicekit.conformance.compare.Mismatch` if the reference
    fails a case: the study's shortcut (:func:`changed_cases`) rests on its passing.
    """
    transcripts = {}
    for case in cases:
        recorder = _Recorder()
        CHECKS[case["kind"]](recorder, case)
        transcripts[case["id"]] = recorder.exchanges
    return transcripts


def changed_cases(mutant: str, cases: Sequence[Case], transcripts: Transcripts) -> list[Case]:
    """Return the cases whose requests the bug ``mutant`` answers otherwise than the reference.

    The port with the bug is asked, in process, each request the reference was
    asked for the case; a case whose answers are all the reference's makes the
    same requests and passes as the reference passes it.
    """
    port = MutantPort(mutant)
    ops = MUTANTS[mutant].ops
    changed = []
    for case in cases:
        for message, answer in transcripts[case["id"]]:
            if message.get("op") in ops and not same_json(
                port.handle({"seq": 0, **message}), answer
            ):
                changed.append(case)
                break
    return changed


def run_mutant(
    mutant: str,
    cases: list[Case],
    *,
    timeout: float = 10.0,
    transcripts: Transcripts | None = None,
) -> Outcome:
    """Run ``cases`` against the port with the seeded bug ``mutant``; return the outcome.

    With the reference's ``transcripts`` (:func:`reference_transcripts`), only
    the cases the bug answers otherwise are run through the port
    (:func:`changed_cases`); the others pass as they pass against the
    reference, and are counted as passed.  The outcome is the same.
    """
    asked = None if transcripts is None else changed_cases(mutant, cases, transcripts)
    return _study.run_bug(
        SUITE,
        cases,
        mutant,
        MUTANTS[mutant].rule,
        port_command(mutant),
        asked=asked,
        timeout=timeout,
    )


def run_study(
    cases: list[Case],
    mutants: Iterable[str] = MUTANTS,
    *,
    jobs: int = 2,
    timeout: float = 10.0,
    progress: Callable[[Outcome], None] | None = None,
    transcripts: Transcripts | None = None,
) -> list[Outcome]:
    """Run the study for ``mutants`` (all by default) on ``cases``, ``jobs`` ports at a time.

    With the reference's ``transcripts``, each bug runs the cases it changes
    (:func:`run_mutant`).
    """
    names = list(mutants)
    return _study.run_study(
        SUITE,
        cases,
        {name: MUTANTS[name].rule for name in names},
        port_command,
        jobs=jobs,
        timeout=timeout,
        asked=None if transcripts is None else lambda n: changed_cases(n, cases, transcripts),
        progress=progress,
    )


def _newest_cases() -> tuple[int, list[Case]]:
    """Return the newest version of the suite and its cases."""
    return generate.SUITE_VERSION, harness.load_cases(generate.vectors_dir())


#: The held-out study: the JavaScript port with one rule's line deleted, for each rule.
HELD_OUT = HeldOutStudy(
    "cantstop",
    SUITE,
    Path(__file__).resolve().parents[1] / "examples" / "ports" / "javascript" / "port.js",
    results_path().parent / "heldout-bugs.json",
    results_path().parent / "heldout.json",
    _newest_cases,
    prog="python -m cantstop.conformance.study --held-out",
)


def run(subset: str, mutants: Sequence[str], jobs: int, json_path: Path | None) -> int:
    """Run the study on the ``subset`` (``all`` or ``fast``) of the vectors; print its table.

    ``mutants`` are the seeded bugs to run, ``jobs`` the ports run at a time;
    with ``json_path``, the results file is written there.  Return 0 when
    the targets are met, 1 when not.
    """
    cases = harness.load_cases(generate.vectors_dir())
    if subset == "fast":
        cases = fast_subset(cases)
    outcomes = run_study(
        cases,
        list(mutants),
        jobs=jobs,
        progress=lambda o: print(f"{o.mutant}: rank {o.rank}", file=sys.stderr, flush=True),
    )
    for line in table_lines(outcomes):
        print(line)
    if json_path:
        command = ["python", "-m", "cantstop.conformance.study"]
        if subset != "all":
            command += ["--subset", subset]
        command += ["--json", json_path.as_posix()]
        data = {
            "generated_by": " ".join(command),
            "vectors": generate.vectors_dir().name,
            "subset": subset,
            "cases": len(cases),
            "targets": {"first_share": FIRST_SHARE, "top": TOP},
            "outcomes": [o.to_json(MUTANTS[o.mutant].summary) for o in outcomes],
        }
        json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    missed = misses(outcomes)
    for line in missed:
        print(f"target missed: {line}")
    return 1 if missed else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the study as :func:`cantstop.commands.vectors.study_main` says."""
    from cantstop.commands.vectors import study_main

    return study_main(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
