"""The suspect rules of a conformance run, most likely first, weighed by the evidence.

Every case names the rules that decide its answer.  A failing case blames
those rules, and the ranking weighs the blame by the evidence:

- **What differs.**  After a run, the failing cases are asked again (the game's
  suite says how, :meth:`~dicekit.conformance.suite.GameSuite.evidence`)
  and the blame goes to the rules of the parts of the answer that differ.
- **Specific cases weigh more.**  A failing case shares one unit of blame
  among the rules it names, so a case naming one rule gives it all; a kind of
  case may weigh less (a whole game weighs a quarter of a case).
- **A rule whose other cases pass is less suspect.**  A rule's blame is
  multiplied by the share of the cases naming it that fail.

A failing case that was not asked again takes the blame the asked cases of
its kind gave, on average, to the rules it names; failing that, it shares
its blame evenly among its rule tags.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from dicekit.conformance.suite import Ask, Blame, Case, Evidence, GameSuite, Message

__all__ = [
    "Diagnosis",
    "PortGone",
    "Result",
    "Suspect",
    "add_blame",
    "answer_of",
    "diagnose",
    "normal",
    "rank",
    "rule_key",
    "sorted_rules",
    "uniform",
]


def rule_key(rule: str) -> tuple[str, tuple[int, ...]]:
    """Return a sort key that orders rule ids as the spec does (R2 before R10, R before N).

    >>> sorted(["R10.1", "N1.1", "R2.3"], key=rule_key)
    ['R2.3', 'R10.1', 'N1.1']
    """
    key = _RULE_KEYS.get(rule)
    if key is None:
        key = _RULE_KEYS[rule] = (
            ("0" if rule[0] == "R" else "1"),
            tuple(int(p) for p in rule[1:].split(".")),
        )
    return key


_RULE_KEYS: dict[str, tuple[str, tuple[int, ...]]] = {}


def sorted_rules(rules: Iterable[str]) -> list[str]:
    """Return distinct rule ids in the spec's order."""
    return sorted(set(rules), key=rule_key)


class Result(Protocol):
    """What the diagnosis reads of a case's result (a ``harness.CaseResult``)."""

    id: str
    status: str
    rules: list[str]


@dataclass(frozen=True, slots=True)
class Suspect:
    """A rule the failures point at, with the evidence for it."""

    #: The rule id.
    rule: str
    #: How suspicious it is: the blame of the failing cases, weighed by the share that fail.
    score: float
    #: Failing cases that name or blame the rule, and all the cases that do.
    failed: int
    cases: int
    #: A failing case that shows the rule at work, when the port was asked again.
    example: Evidence | None = None


@dataclass
class Diagnosis:
    """The suspect rules of a run, most suspicious first."""

    suspects: list[Suspect]
    #: The evidence of the failing cases that were asked again, by case id.
    evidence: dict[str, Evidence] = field(default_factory=dict)
    #: The titles of the rules, by id, for the summary.
    titles: Mapping[str, str] = field(default_factory=dict)

    def lines(self, top: int = 3, listed: int = 12) -> Iterator[str]:
        """Yield the summary: the ranked rules, and an example failure for the first ``top``."""
        if not self.suspects:
            return
        titles = self.titles
        yield "Suspect rules, most likely first (failed/cases naming the rule):"
        for index, suspect in enumerate(self.suspects[:listed], start=1):
            title = titles.get(suspect.rule, "")
            yield f"  {index}. {suspect.rule} {title}: {suspect.failed}/{suspect.cases}".rstrip()
            if index <= top and suspect.example is not None:
                yield from _example_lines(suspect.example)

    def to_json(self) -> list[dict[str, Any]]:
        """Return the suspects as JSON objects for a report."""
        out = []
        for s in self.suspects:
            item: dict[str, Any] = {
                "rule": s.rule,
                "score": round(s.score, 4),
                "failed": s.failed,
                "cases": s.cases,
            }
            if s.example is not None:
                e = s.example
                item["example"] = {
                    "case": e.case,
                    "what": e.what,
                    "state": e.state,
                    "request": e.request,
                    "expected": e.expected,
                    "got": e.got,
                }
            out.append(item)
        return out


def _example_lines(e: Evidence) -> Iterator[str]:
    yield f"     e.g. {e.case}: {e.what}"
    if e.state:
        yield f"       state:    {e.state}"
    request = dict(e.request)
    if e.state and request.get("state") == e.state:
        request["state"] = "(the state above)"
    yield f"       request:  {_short(request)}"
    yield f"       expected: {_short(e.expected)}"
    yield f"       got:      {_short(e.got)}"


def _short(value: Any, width: int = 1000) -> str:
    text = json.dumps(value, separators=(", ", ": ")) if not isinstance(value, str) else value
    return text if len(text) <= width else text[: width - 3] + "..."


def _broke(result: Result) -> bool:
    """Whether a result failed by breaking the protocol (no rule to blame)."""
    return bool(getattr(result, "protocol", False))


# -- ranking ---


def rank(
    results: Iterable[Result],
    evidence: Mapping[str, Evidence] | None = None,
    kinds: Mapping[str, str] | None = None,
    weights: Mapping[str, float] | None = None,
) -> list[Suspect]:
    """Return the suspect rules of a run's results, most suspicious first.

    ``evidence`` holds what the failing cases showed when asked again;
    ``kinds`` maps case ids to their kind (by default the id's prefix), and
    ``weights`` the weight of a failing case of each kind (1 when absent).

    >>> from types import SimpleNamespace as R
    >>> results = [R(id="moves-1", status="failed", rules=["R6.1", "R6.6"]),
    ...            R(id="moves-2", status="passed", rules=["R6.6"]),
    ...            R(id="illegal-1", status="failed", rules=["R6.1"])]
    >>> [(s.rule, s.failed, s.cases) for s in rank(results)]
    [('R6.1', 2, 2), ('R6.6', 1, 2)]
    """
    evidence = evidence or {}
    results = [r for r in results if r.status in ("passed", "failed") and not _broke(r)]
    blame_of = _extrapolate(results, evidence, kinds)
    blame: dict[str, float] = defaultdict(float)
    failing: Counter[str] = Counter()
    passing: Counter[str] = Counter()
    for result in results:
        if result.status == "passed":
            passing.update(set(result.rules))
            continue
        kind = _kind(result.id, kinds)
        weight = (weights or {}).get(kind, 1.0)
        shares = blame_of[result.id]
        for rule, share in shares.items():
            blame[rule] += weight * share
        failing.update(set(result.rules) | set(shares))
    scores = {
        rule: blame[rule] * failing[rule] / (failing[rule] + passing[rule])
        for rule in blame
        if blame[rule] > 0
    }
    ranked = sorted(scores, key=lambda r: (-round(scores[r], 9), rule_key(r)))
    shown: set[str] = set()
    suspects = []
    for r in ranked:
        example = _pick_example(r, evidence, shown)
        if example is not None:
            shown.add(example.case)
        suspects.append(Suspect(r, scores[r], failing[r], failing[r] + passing[r], example))
    return suspects


def _kind(case_id: str, kinds: Mapping[str, str] | None) -> str:
    if kinds is not None and case_id in kinds:
        return kinds[case_id]
    return case_id.split("-", 1)[0]


def uniform(rules: Iterable[str]) -> Blame:
    """Return one unit of blame shared evenly among the distinct ``rules``."""
    distinct = sorted_rules(rules)
    return {r: 1 / len(distinct) for r in distinct} if distinct else {}


def _extrapolate(
    results: Sequence[Result], evidence: Mapping[str, Evidence], kinds: Mapping[str, str] | None
) -> dict[str, Blame]:
    """Return the blame of every failing case.

    A case asked again has its evidence.  Another failing case of the same kind
    takes the blame the asked cases of its kind gave, on average, to the rules
    it names; failing that, it shares the blame among its rules evenly.
    """
    average: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for case_id, found in evidence.items():
        for rule, share in found.blame.items():
            average[_kind(case_id, kinds)][rule] += share
    out: dict[str, Blame] = {}
    for result in results:
        if result.status != "failed":
            continue
        if result.id in evidence and evidence[result.id].blame:
            out[result.id] = evidence[result.id].blame
            continue
        pooled = average.get(_kind(result.id, kinds), {})
        shares = {r: pooled[r] for r in set(result.rules) if pooled.get(r, 0) > 0}
        total = sum(shares.values())
        out[result.id] = (
            {r: s / total for r, s in shares.items()} if total else uniform(result.rules)
        )
    return out


def _pick_example(rule: str, evidence: Mapping[str, Evidence], shown: set[str]) -> Evidence | None:
    """Return the failing case whose evidence gives ``rule`` the largest share.

    Cases already shown for a rule ranked higher, and whole games, come last.
    """
    best: tuple[bool, float, bool, str] | None = None
    found = None
    for case_id, e in evidence.items():
        share = e.blame.get(rule, 0.0)
        if share <= 0:
            continue
        key = (case_id in shown, -share, case_id.startswith("game-"), case_id)
        if best is None or key < best:
            best, found = key, e
    return found


# -- asking the failing cases again ---


def diagnose(
    results: Iterable[Result],
    cases: Iterable[Case],
    suite: GameSuite,
    ask: Ask | None = None,
) -> Diagnosis:
    """Return the diagnosis of a run: ask failing cases again through ``ask``, then rank.

    The game's ``suite`` says how a case of each kind is asked again, and how
    much a failing case of each kind weighs.  Without ``ask`` only the rule
    tags of the failing cases count.
    """
    results = list(results)
    by_id = {c["id"]: c for c in cases}
    kinds = {c["id"]: c["kind"] for c in by_id.values()}
    found: dict[str, Evidence] = {}
    if ask is not None:
        asked: Counter[str] = Counter()
        for result in results:
            case = by_id.get(result.id)
            if result.status != "failed" or case is None or _broke(result):
                continue
            kind = case["kind"]
            if asked[kind] >= suite.evidence_limits.get(kind, suite.default_limit):
                continue
            asked[kind] += 1
            try:
                e = suite.evidence(case, ask)
            except PortGone:
                continue  # its tags stand; ``ask`` gives up on a port that keeps breaking
            if e is not None:
                found[case["id"]] = e
    return Diagnosis(rank(results, found, kinds, suite.weights), found, suite.rule_titles())


class PortGone(Exception):
    """The port stopped answering while a case was asked again."""


def answer_of(ask: Ask, request: Message) -> Message:
    """Return the port's answer to ``request``; raise :class:`PortGone` if the port broke."""
    answer = ask(request)
    if answer is None:
        raise PortGone
    return answer


def add_blame(blame: dict[str, float], rules: Sequence[str]) -> None:
    """Add one unit of blame, shared evenly among ``rules``."""
    distinct = sorted_rules(rules)
    for rule in distinct:
        blame[rule] += 1 / len(distinct)


def normal(blame: Mapping[str, float]) -> Blame:
    """Return ``blame`` scaled to add up to 1, in the spec's order of rules."""
    total = sum(blame.values())
    return {r: s / total for r, s in sorted(blame.items(), key=lambda kv: rule_key(kv[0]))}
