"""The diagnosis of a conformance run: which rule the port most likely gets wrong.

Every case names the rules that decide its answer (:mod:`cantstop.conformance.tags`).
A failing case blames those rules, and the diagnosis weighs the blame by the
evidence:

- **What differs.**  After a run, the failing cases are asked again and the
  port's answers compared with the expected ones part by part; the blame goes
  to the rules of the parts that differ.  A move the port lists but the rules
  refuse blames the rule under which the engine refuses it; a legal move the
  port misses blames the rules that make it legal; a marker on the wrong
  space blames the rules of that marker's move; a count of whole rolls is
  divided roll by roll (perft "divide"), and each roll that differs blames
  the rules the decision table applies to it.
- **Specific cases weigh more.**  A failing case shares one unit of blame
  among the rules it names, so a case naming one rule gives it all; a whole
  game weighs a quarter of a case.
- **A rule whose other cases pass is less suspect.**  A rule's blame is
  multiplied by the share of the cases naming it that fail.

Without the port (:func:`rank` alone) the blame of a failing case is shared
among its rule tags.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cantstop.actions import Action, Move, Roll
from cantstop.conformance.tags import (
    action_aspects,
    illegal_move_rule,
    legal_move_rules,
    roll_rules,
    rule_key,
    sorted_rules,
    state_rules,
)
from cantstop.dice import ORDERED_ROLLS, sorted_dice
from cantstop.errors import CantStopError, NotationError
from cantstop.game import DROP_RULES, Event, Phase, State
from cantstop.notation import format_action, parse_action, parse_state

__all__ = [
    "EVIDENCE_LIMIT",
    "EVIDENCE_LIMITS",
    "GAME_WEIGHT",
    "Ask",
    "Diagnosis",
    "Evidence",
    "Suspect",
    "diagnose",
    "divide_lines",
    "evidence",
    "moves_blame",
    "rank",
    "reference_table",
    "step_blame",
]

Case = dict[str, Any]
Message = dict[str, Any]
Blame = dict[str, float]
Dice = tuple[int, int, int, int]
#: Sends one request to the port and returns its answer, or ``None`` if the port broke.
Ask = Callable[[Message], Message | None]

#: The weight of a failing whole game, against 1 for every other case.
GAME_WEIGHT = 0.25
#: How many failing cases of one kind are asked again, at most: whole games
#: and roll tables cost many requests, the others one or two.
EVIDENCE_LIMITS: Mapping[str, int] = {"game": 8, "perft": 10, "rolls": 10}
#: How many failing cases of any other kind are asked again, at most.
EVIDENCE_LIMIT = 400

#: Rules whose breach a port can only report by refusing the state it was given.
_READING = re.compile(r"^(R16\.\d|R9\.[13]|R12\.1|R10\.1|R4\.1|R1\.\d|R15\.\d|R14\.[13]|N\d\.\d)$")


class _Result(Protocol):
    """What the diagnosis reads of a case's result (a ``harness.CaseResult``)."""

    id: str
    status: str
    rules: list[str]


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a failing case shows when asked again: the parts that differ and their rules."""

    #: The case's id.
    case: str
    #: The share of the failure each rule explains; the shares add up to 1.
    blame: Blame
    #: What differs, in a few words.
    what: str
    #: The state the request is about, in the notation ("" for none).
    state: str = ""
    #: The request that shows the difference, the expected answer and the port's.
    request: Message = field(default_factory=dict)
    expected: Any = None
    got: Any = None


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

    def lines(self, top: int = 3, listed: int = 12) -> Iterator[str]:
        """Yield the summary: the ranked rules, and an example failure for the first ``top``."""
        if not self.suspects:
            return
        titles = _rule_titles()
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


def _rule_titles() -> dict[str, str]:
    """Return the title of every rule of the spec, or nothing if the spec cannot be read."""
    try:
        from cantstop.spec import load_spec

        return {rid: rule.title for rid, rule in load_spec().rules.items()}
    except (OSError, ValueError, AttributeError):  # pragma: no cover - a broken install
        return {}


# -- ranking -----------------------------------------------------------------------


def rank(
    results: Iterable[_Result],
    evidence: Mapping[str, Evidence] | None = None,
    kinds: Mapping[str, str] | None = None,
) -> list[Suspect]:
    """Return the suspect rules of a run's results, most suspicious first.

    ``evidence`` holds what the failing cases showed when asked again;
    ``kinds`` maps case ids to their kind (by default the id's prefix).

    >>> from types import SimpleNamespace as R
    >>> results = [R(id="moves-1", status="failed", rules=["R6.1", "R6.6"]),
    ...            R(id="moves-2", status="passed", rules=["R6.6"]),
    ...            R(id="illegal-1", status="failed", rules=["R6.1"])]
    >>> [(s.rule, s.failed, s.cases) for s in rank(results)]
    [('R6.1', 2, 2), ('R6.6', 1, 2)]
    """
    evidence = evidence or {}
    results = [r for r in results if r.status in ("passed", "failed")]
    blame_of = _extrapolate(results, evidence, kinds)
    blame: dict[str, float] = defaultdict(float)
    failing: Counter[str] = Counter()
    passing: Counter[str] = Counter()
    for result in results:
        if result.status == "passed":
            passing.update(set(result.rules))
            continue
        kind = _kind(result.id, kinds)
        weight = GAME_WEIGHT if kind == "game" else 1.0
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


def _uniform(rules: Iterable[str]) -> Blame:
    distinct = sorted_rules(rules)
    return {r: 1 / len(distinct) for r in distinct} if distinct else {}


def _extrapolate(
    results: Sequence[_Result], evidence: Mapping[str, Evidence], kinds: Mapping[str, str] | None
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
            {r: s / total for r, s in shares.items()} if total else _uniform(result.rules)
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


# -- asking the failing cases again --------------------------------------------------


def diagnose(
    results: Iterable[_Result],
    cases: Iterable[Case],
    ask: Ask | None = None,
) -> Diagnosis:
    """Return the diagnosis of a run: ask failing cases again through ``ask``, then rank.

    Without ``ask`` only the rule tags of the failing cases count.
    """
    results = list(results)
    by_id = {c["id"]: c for c in cases}
    kinds = {c["id"]: c["kind"] for c in by_id.values()}
    found: dict[str, Evidence] = {}
    if ask is not None:
        asked: Counter[str] = Counter()
        for result in results:
            case = by_id.get(result.id)
            if result.status != "failed" or case is None:
                continue
            kind = case["kind"]
            if asked[kind] >= EVIDENCE_LIMITS.get(kind, EVIDENCE_LIMIT):
                continue
            asked[kind] += 1
            try:
                e = evidence(case, ask)
            except _PortGone:
                continue  # its tags stand; ``ask`` gives up on a port that keeps breaking
            if e is not None:
                found[case["id"]] = e
    return Diagnosis(rank(results, found, kinds), found)


class _PortGone(Exception):
    """The port stopped answering while a case was asked again."""


def _answer(ask: Ask, request: Message) -> Message:
    answer = ask(request)
    if answer is None:
        raise _PortGone
    return answer


def evidence(case: Case, ask: Ask) -> Evidence | None:
    """Ask the port the requests of one failing case again; return what differs and its rules.

    Return ``None`` when the case's answers now agree (a port that is not
    deterministic) or the kind of case has no finer evidence than its tags.
    """
    kind = case["kind"]
    try:
        if kind == "moves":
            return _moves_evidence(case, ask)
        if kind == "apply":
            return _apply_evidence(case, ask)
        if kind in ("perft", "rolls"):
            return _table_evidence(case, ask)
        if kind == "game":
            return _game_evidence(case, ask)
        if kind in ("state", "action", "new"):
            return _notation_evidence(case, ask)
        if kind == "explain":
            return _explain_evidence(case, ask)
        if kind == "example" and "state" in case and not case.get("actions"):
            # A spec example about one position: its counts, or its legal moves.
            if "perft" in case["expect"]:
                return _table_evidence(case, ask)
            if "moves" in case["expect"] and parse_state(case["state"]).dice is not None:
                return _moves_evidence(case, ask)
    except (CantStopError, KeyError, TypeError, ValueError, AttributeError):
        return None  # a case the reference cannot explain further: its tags stand
    return None


def _moves_evidence(case: Case, ask: Ask) -> Evidence | None:
    request = {"op": "moves", "state": case["state"]}
    answer = _answer(ask, request)
    want = case["expect"]["moves"]
    got = answer.get("moves") if answer.get("ok") is True else answer.get("error")
    state = parse_state(case["state"])
    assert state.dice is not None
    if answer.get("ok") is not True:
        blame = _refusal_blame(state, answer, case["rules"])
        what = "the port refused the state"
    else:
        if got == want:
            return None
        blame, what = moves_blame(state, state.dice, got, want)
    return Evidence(case["id"], blame, what, case["state"], request, want, got)


def moves_blame(state: State, dice: Dice, got: object, want: Sequence[str]) -> tuple[Blame, str]:
    """Return the blame for a wrong list of legal moves of ``dice``, and what differs.

    A legal move that is missing blames the rules that make it legal; a move
    listed that the rules refuse blames the rule the engine refuses it under;
    the right moves in the wrong order, or listed twice, blame R6.6.
    """
    if not isinstance(got, list) or not all(isinstance(m, str) for m in got):
        return {"R6.6": 1.0}, "the answer is not a list of moves"
    choosing = _choosing(state, dice)
    missing = [m for m in want if m not in got]
    extra = list(dict.fromkeys(m for m in got if m not in want))
    if not missing and not extra:
        return {"R6.6": 1.0}, "the moves are right, but in another order or listed twice"
    blame: dict[str, float] = defaultdict(float)
    for text in missing:
        columns = _columns(text)
        if choosing is not None and columns is not None:
            _add(blame, legal_move_rules(choosing, columns))
    for text in extra:
        columns = _columns(text)
        if columns is None:
            _add(blame, ["N2.3"])
        elif choosing is None:
            # The roll busts: each sum of the move is dropped, for the reason R5.3 gives.
            dropped = [state.play_of(c) for c in columns]
            _add(blame, [DROP_RULES[p] for p in dropped if not p.plays] or roll_rules(state, dice))
        else:
            _add(blame, [illegal_move_rule(choosing, columns)])
    parts = []
    if missing:
        parts.append("missing " + " ".join(missing))
    if extra:
        parts.append("not legal " + " ".join(extra))
    return _normal(blame), ", ".join(parts)


def _columns(text: str) -> tuple[int, ...] | None:
    try:
        action = parse_action(text)
    except NotationError:
        return None
    return action.columns if isinstance(action, Move) else None


def _choosing(state: State, dice: Dice) -> State | None:
    if state.phase is Phase.CHOOSE:
        return state
    step = state.step(Roll(dice))
    return step.state if step.event is Event.ROLLED else None


def _add(blame: dict[str, float], rules: Sequence[str]) -> None:
    """Add one unit of blame, shared evenly among ``rules``."""
    distinct = sorted_rules(rules)
    for rule in distinct:
        blame[rule] += 1 / len(distinct)


def _normal(blame: Mapping[str, float]) -> Blame:
    total = sum(blame.values())
    return {r: s / total for r, s in sorted(blame.items(), key=lambda kv: rule_key(kv[0]))}


def _refusal_blame(state: State | None, answer: Message, tags: Sequence[str]) -> Blame:
    """Return the blame for a port that refused a request the rules accept.

    A refusal under a rule about reading states blames that rule together with
    the rules that decide how this state reads; any other refusal blames the
    case's tags.
    """
    error = answer.get("error")
    rule = error.get("rule") if isinstance(error, dict) else None
    if isinstance(rule, str) and _READING.match(rule):
        reading = state_rules(state) if state is not None else []
        blame: dict[str, float] = defaultdict(float)
        _add(blame, [rule, *reading])
        return _normal(blame)
    return _uniform(tags)


def _apply_evidence(case: Case, ask: Ask) -> Evidence | None:
    request = {"op": "apply", "state": case["state"], "action": case["action"]}
    answer = _answer(ask, request)
    expect = case["expect"]
    if "error" in expect:
        error = answer.get("error")
        got_rule = error.get("rule") if isinstance(error, dict) else None
        if answer.get("ok") is False and got_rule == expect["error"]:
            return None
        what = (
            f"refused under {got_rule} instead of {expect['error']}"
            if answer.get("ok") is False
            else f"accepted; the rules refuse it under {expect['error']}"
        )
        got = _shown(answer)
        return Evidence(
            case["id"], {expect["error"]: 1.0}, what, case["state"], request, expect, got
        )
    state = parse_state(case["state"])
    action = parse_action(case["action"])
    found = step_blame(state, action, answer, expect["state"], expect["event"])
    if found is None:
        return None
    blame, what = found
    return Evidence(case["id"], blame, what, case["state"], request, expect, _shown(answer))


def _shown(answer: Message) -> Any:
    """Return the part of an answer worth showing: the result, or the error."""
    if answer.get("ok") is True:
        return {k: v for k, v in answer.items() if k not in ("seq", "ok", "json")}
    error = answer.get("error")
    return {"error": error} if error is not None else answer


def step_blame(
    state: State, action: Action, answer: Message, want_state: str, want_event: str
) -> tuple[Blame, str] | None:
    """Return the blame for a wrong answer to a legal action, and what differs.

    The answer is compared with the expected state part by part (each marker,
    each square, the player, the phase, the dice, the event); the blame goes
    to the rules of the aspects (:func:`~cantstop.conformance.tags.action_aspects`)
    that decide the parts that differ.  Right content in a text the notation
    does not allow blames the notation rule of that part of the text.
    """
    aspects = action_aspects(state, action)
    if answer.get("ok") is not True:
        reading = _refusal_blame(state, answer, [])
        if reading:
            return reading, "the port refused the state"
        hit = [a for a in aspects if "refused" in a.fields] or aspects
        return _aspect_blame(hit), f"the port refused the legal action {format_action(action)}"
    got_state, got_event = answer.get("state"), answer.get("event")
    if got_state == want_state and got_event == want_event:
        return None
    if not isinstance(got_state, str):
        return _uniform(r for a in aspects for r in a.rules), "the answer has no state"
    want_fields = _fields(want_state)
    got_fields = _fields(got_state)
    if got_fields is None:
        return {"N1.1": 1.0}, f"the state {got_state!r} cannot be read"
    assert want_fields is not None
    differ = {
        k for k in want_fields.keys() | got_fields.keys() if want_fields.get(k) != got_fields.get(k)
    }
    if got_event != want_event:
        # Another event (a bust for a roll that plays, a win for a stop that
        # does not) changes the rest of the state with it: the event is the difference.
        differ = {"event"}
    if not differ:
        return {_notation_rule(want_state, got_state): 1.0}, "the state is written out of form"
    hit = [a for a in aspects if a.fields & differ] or aspects
    # A part whose absence gives exactly the port's values explains them alone.
    missed = [a for a in hit if a.without and all(got_fields.get(f) == v for f, v in a.without)]
    if missed:
        return _aspect_blame(missed), "missing: " + ", ".join(a.what for a in missed)
    return _aspect_blame(hit), "wrong: " + ", ".join(a.what for a in hit)


def _aspect_blame(aspects: Sequence[Any]) -> Blame:
    blame: dict[str, float] = defaultdict(float)
    for aspect in aspects:
        if aspect.rules:
            _add(blame, aspect.rules)
    return _normal(blame)


_TURN = re.compile(r"^(\d+)([rcdx])(\d*)$")


def _fields(text: str) -> dict[str, object] | None:
    """Read state text leniently into fields (``"marker 7"``, ``"player"``, ...), or ``None``."""
    parts = text.split(" ")
    if len(parts) < 3:
        return None
    out: dict[str, object] = {}
    try:
        for player, group in enumerate(parts[0].split("/")):
            for column, space in _cells(group):
                out[f"square {player} {column}"] = space
        for column, space in _cells(parts[1]):
            out[f"marker {column}"] = space
    except ValueError:
        return None
    turn = _TURN.match(parts[2])
    if turn is None:
        return None
    phase = {"r": "roll", "c": "choose", "d": "decide", "x": "over"}[turn.group(2)]
    out.update(player=int(turn.group(1)), phase=phase, dice=turn.group(3))
    out["options"] = " ".join(parts[3:])
    return out


def _cells(group: str) -> Iterator[tuple[int, int]]:
    if group == "-":
        return
    for cell in group.split(","):
        column, _, space = cell.partition(":")
        yield int(column), int(space)


def _notation_rule(want: str, got: str) -> str:
    """Return the notation rule of the first part of ``got`` written unlike ``want``."""
    want_parts, got_parts = want.split(" "), got.split(" ")
    for index, rule in enumerate(("N1.2", "N1.3", "N1.4")):
        if index >= len(got_parts) or want_parts[index] != got_parts[index]:
            return rule
    return "N1.5" if want_parts[3:] != got_parts[3:] else "N1.1"


def _table_evidence(case: Case, ask: Ask) -> Evidence | None:
    request = {"op": "rolls", "state": case["state"]}
    answer = _answer(ask, request)
    state = parse_state(case["state"])
    if case["kind"] == "rolls":
        table = case["expect"]["table"]
        want = [table["".join(map(str, sorted_dice(r.dice)))] for r in ORDERED_ROLLS]
    else:
        want = reference_table(state)
    if answer.get("ok") is not True:
        refused = _refusal_blame(state, answer, case["rules"])
        return Evidence(case["id"], refused, "the port refused the state", case["state"], request)
    got = answer.get("moves")
    groups = _differing(state, got, want)
    if groups is None:
        return None
    blame: dict[str, float] = defaultdict(float)
    for group in groups:
        for rule, share in group.blame.items():
            blame[rule] += share * len(group.rolls)
    first = groups[0]
    what = f"{sum(len(g.rolls) for g in groups)} of 1296 rolls differ; first {first.text()}"
    # The answer to "rolls" is 1296 lists: shown here for the first roll that differs.
    roll = first.rolls[0]
    return Evidence(
        case["id"],
        _normal(blame),
        what,
        case["state"],
        request,
        {roll: first.want},
        {roll: first.got},
    )


def reference_table(state: State) -> list[list[str]]:
    """Return the legal moves of every ordered roll of ``state``, from the reference engine."""
    cache: dict[Dice, list[str]] = {}
    table = []
    for roll in ORDERED_ROLLS:
        key = sorted_dice(roll.dice)
        if key not in cache:
            after = state.apply(roll)
            cache[key] = [format_action(m) for m in after.legal_moves()]
        table.append(cache[key])
    return table


@dataclass
class _Group:
    """The ordered rolls of one sorted roll whose moves differ, and what the rules say."""

    dice: Dice
    rolls: list[str]
    want: list[str]
    got: Any
    blame: Blame
    what: str

    def text(self) -> str:
        shown = " ".join(self.rolls[:4])
        if len(self.rolls) > 4:
            shown += f" +{len(self.rolls) - 4} more"
        expected = " ".join(self.want) or "bust"
        rules = " ".join(r for r, _ in sorted(self.blame.items(), key=lambda kv: -kv[1])[:3])
        return f"{shown}: {self.what} (expected {expected}; rule {rules})"


def _differing(state: State, got: object, want: Sequence[list[str]]) -> list[_Group] | None:
    """Group the ordered rolls whose moves differ by their sorted dice; ``None`` if none differ."""
    if not isinstance(got, list) or len(got) != len(ORDERED_ROLLS):
        return None
    groups: dict[tuple[Dice, str], _Group] = {}
    for roll, theirs, ours in zip(ORDERED_ROLLS, got, want, strict=True):
        if theirs == ours:
            continue
        dice = sorted_dice(roll.dice)
        key = (dice, json.dumps(theirs))
        if key not in groups:
            blame, what = moves_blame(state, dice, theirs, ours)
            groups[key] = _Group(dice, [], ours, theirs, blame, what)
        groups[key].rolls.append(format_action(roll))
    return sorted(groups.values(), key=lambda g: g.rolls[0]) or None


def divide_lines(
    state_text: str, got: object, want: Sequence[list[str]], limit: int = 8
) -> list[str]:
    """Name the rolls whose moves differ, like perft "divide", grouped by sorted dice.

    Each line holds the orderings of one sorted roll that give the same wrong
    answer, what differs, and the rule the decision table applies to that roll.
    """
    if not isinstance(got, list) or len(got) != len(ORDERED_ROLLS):
        return [f"rolls: the port did not send {len(ORDERED_ROLLS)} lists of moves"]
    groups = _differing(parse_state(state_text), got, want) or []
    lines = [f"roll {g.text()}" for g in groups[:limit]]
    if len(groups) > limit:
        rolls = sum(len(g.rolls) for g in groups)
        lines.append(f"... {len(groups) - limit} more sorted rolls differ ({rolls} of 1296)")
    return lines


def _game_evidence(case: Case, ask: Ask) -> Evidence | None:
    expect = case["expect"]
    new = case["new"]
    request: Message = {"op": "new", "rules": new["rules"], "first_player": new["first_player"]}
    answer = _answer(ask, request)
    if answer.get("state") != expect["start"]:
        blame = _setup_blame(expect["start"], answer, case["rules"])
        return Evidence(
            case["id"], blame, "wrong opening state", "", request, expect["start"], _shown(answer)
        )
    state = expect["start"]
    for action, after, event in zip(
        case["actions"], expect["states"], expect["events"], strict=True
    ):
        request = {"op": "apply", "state": state, "action": action}
        answer = _answer(ask, request)
        if answer.get("state") != after or answer.get("event") != event:
            found = step_blame(parse_state(state), parse_action(action), answer, after, event)
            if found is None:  # pragma: no cover - the answer differs, so something does
                return None
            blame, what = found
            expected = {"state": after, "event": event}
            return Evidence(case["id"], blame, what, state, request, expected, _shown(answer))
        state = after
    return None


def _setup_blame(want: str, answer: Message, tags: Sequence[str]) -> Blame:
    got = answer.get("state")
    want_fields = _fields(want)
    got_fields = _fields(got) if isinstance(got, str) else None
    if answer.get("ok") is not True or got_fields is None or want_fields is None:
        return _uniform(tags)
    if got_fields.get("player") != want_fields.get("player"):
        return {"R2.2": 1.0}
    if got_fields.get("options") != want_fields.get("options"):
        return _uniform([t for t in tags if t.startswith(("R15", "N1.5"))] or tags)
    return _uniform(tags)


def _notation_evidence(case: Case, ask: Ask) -> Evidence | None:
    kind = case["kind"]
    request: Message = {"op": kind}
    if kind == "new":
        request.update(case["new"])
    else:
        for key in ("text", "json"):
            if key in case:
                request[key] = case[key]
    answer = _answer(ask, request)
    expect = case["expect"]
    text = case.get("text")
    shown = text if isinstance(text, str) else ""
    got = _shown(answer)
    if "error" in expect:
        if answer.get("ok") is False and _error_rule(answer) == expect["error"]:
            return None
        what = "accepted" if answer.get("ok") is True else "refused under another rule"
        return Evidence(case["id"], {expect["error"]: 1.0}, what, shown, request, expect, got)
    if answer.get("ok") is not True:
        rule = _error_rule(answer)
        refused = {rule: 1.0} if rule is not None and rule in case["rules"] else None
        refused = refused or _uniform(case["rules"])
        return Evidence(case["id"], refused, "refused", shown, request, expect, got)
    if kind == "new":
        if answer.get("state") == expect["state"]:
            return None
        setup = _setup_blame(expect["state"], answer, case["rules"])
        return Evidence(case["id"], setup, "wrong opening state", "", request, expect, got)
    blame: dict[str, float] = defaultdict(float)
    if kind == "action":
        if answer.get("action") != expect["action"]:
            _add(blame, [r for r in case["rules"] if r in ("N2.2", "N2.3")] or ["N2.1"])
        if answer.get("json") != expect["json"]:
            _add(blame, ["N3.2"])
    else:
        got_text = answer.get("state")
        if got_text != expect["state"]:
            want_fields = _fields(expect["state"])
            got_fields = _fields(got_text) if isinstance(got_text, str) else None
            if isinstance(got_text, str) and got_fields is not None and got_fields == want_fields:
                _add(blame, [_notation_rule(expect["state"], got_text)])
            else:
                _add(blame, [r for r in case["rules"] if r.startswith("R")] or case["rules"])
        if answer.get("json") != expect["json"]:
            _add(blame, _json_rules(expect["json"], answer.get("json")))
    if not blame:
        return None
    return Evidence(case["id"], _normal(blame), f"wrong {kind}", shown, request, expect, got)


def _explain_evidence(case: Case, ask: Ask) -> Evidence | None:
    """Blame the rules of the first statement of an explanation that differs.

    Each statement cites the rules it applies (spec/explain.md), so the first
    one the port gets wrong names the rules it most likely misreads; a wrong
    list of moves blames the rules the statements about the moves cite.
    """
    request: Message = {"op": "explain", "state": case["state"]}
    if "action" in case:
        request["action"] = case["action"]
    answer = _answer(ask, request)
    expect = case["expect"]
    state = case["state"]
    if "error" in expect:
        if answer.get("ok") is False and _error_rule(answer) == expect["error"]:
            return None
        what = "accepted" if answer.get("ok") is True else "refused under another rule"
        blame = {expect["error"]: 1.0}
        return Evidence(case["id"], blame, what, "", request, expect, _shown(answer))
    if answer.get("ok") is not True:
        blame = _refusal_blame(parse_state(state), answer, case["rules"])
        return Evidence(case["id"], blame, "refused", state, request, None, _shown(answer))
    got = answer.get("explanation")
    want = expect["explanation"]
    if _same_json(got, want):
        return None
    mine = got.get("statements") if isinstance(got, dict) else None
    mine = mine if isinstance(mine, list) else []
    for index, statement in enumerate(want["statements"]):
        theirs = mine[index] if index < len(mine) else None
        if not _same_json(theirs, statement):
            what = f"statement {index + 1} ({statement['kind']}) differs"
            blame = _uniform(statement["rules"])
            return Evidence(case["id"], blame, what, state, request, statement, theirs)
    if isinstance(got, dict) and not _same_json(got.get("moves"), want["moves"]):
        cited = [
            r
            for statement in want["statements"]
            if statement["kind"].startswith("move")
            for r in statement["rules"]
        ]
        blame = _uniform(cited or case["rules"])
        return Evidence(case["id"], blame, "the legal moves", state, request, want["moves"], got)
    extra = mine[len(want["statements"]) :]
    what = "statements the rules do not give" if extra else "the fields of the explanation"
    shown = extra[0] if extra else got
    return Evidence(case["id"], _uniform(case["rules"]), what, state, request, None, shown)


def _same_json(got: object, want: object) -> bool:
    """Whether two JSON values are equal (``true`` is not ``1``; key order does not count)."""
    return json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def _error_rule(answer: Message) -> str | None:
    """Return the rule of an error answer, or ``None``."""
    error = answer.get("error")
    rule = error.get("rule") if isinstance(error, dict) else None
    return rule if isinstance(rule, str) else None


def _json_rules(want: dict[str, Any], got: object) -> list[str]:
    """Return the rules of the fields of a state's JSON form that differ."""
    if not isinstance(got, dict):
        return ["N3.1"]
    rules = ["N3.1"]
    if got.get("won") != want.get("won"):
        rules.append("R9.1")
    if got.get("winner") != want.get("winner"):
        rules.append("R12.1")
    return rules
