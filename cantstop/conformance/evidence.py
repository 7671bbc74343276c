"""The evidence of a failing Can't Stop case: its requests asked again, and what differs.

After a run, the diagnosis (:mod:`~dicekit.conformance.ranking`) asks
the port the requests of each failing case again, through :func:`evidence`,
and compares each answer with the expected one part by part
(:mod:`~cantstop.conformance.blame`): the blame goes to the rules of the
parts that differ.  Whatever the port answers, it is read as data: a value
of the wrong type is a difference, never an exception.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from cantstop.conformance.blame import (
    differing_rolls,
    fields_of,
    is_internal_error,
    moves_blame,
    notation_rule,
    reading_blame,
    reference_table,
    refusal_blame,
    step_blame,
)
from cantstop.conformance.positions import Field, Part
from cantstop.dice import ORDERED_ROLLS, sorted_dice
from cantstop.notation import parse_action, parse_state
from cantstop.state import State
from dicekit.conformance.compare import same_json
from dicekit.conformance.ranking import add_blame, answer_of, normal, uniform
from dicekit.conformance.suite import Ask, Blame, Case, Evidence, Message

__all__ = ["evidence"]


def evidence(case: Case, ask: Ask) -> Evidence | None:
    """Ask the port the requests of one failing case again; return what differs and its rules.

    Return ``None`` when the case's answers now agree (a port that is not
    deterministic) or the kind of case has no finer evidence than its tags.
    """
    kind = case["kind"]
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
    if kind == "example" and ("text" in case or "action_text" in case):
        return _text_example_evidence(case, ask)
    if kind == "example" and "state" in case and not case.get("actions"):
        # A spec example about one position: its counts, or its legal moves.
        if "perft" in case["expect"]:
            return _table_evidence(case, ask)
        if "moves" in case["expect"] and parse_state(case["state"]).dice is not None:
            return _moves_evidence(case, ask)
    return None


def _moves_evidence(case: Case, ask: Ask) -> Evidence | None:
    request = {"op": "moves", "state": case["state"]}
    answer = answer_of(ask, request)
    want = case["expect"]["moves"]
    got = answer.get("moves") if answer.get("ok") is True else answer.get("error")
    state = parse_state(case["state"])
    assert state.dice is not None
    defect = _reading_defect(case["state"], state, answer, ask)
    if defect:
        blame, what = defect, _READING_DEFECT
    elif answer.get("ok") is not True:
        blame = refusal_blame(state, answer, case["rules"])
        what = "the port refused the state"
    else:
        if same_json(got, want):
            return None
        blame, what = moves_blame(state, state.dice, got, want)
    return Evidence(case["id"], blame, what, case["state"], request, want, got)


def _apply_evidence(case: Case, ask: Ask) -> Evidence | None:
    request = {"op": "apply", "state": case["state"], "action": case["action"]}
    answer = answer_of(ask, request)
    expect = case["expect"]
    defect = _reading_defect(case["state"], parse_state(case["state"]), answer, ask)
    if defect:
        return Evidence(
            case["id"], defect, _READING_DEFECT, case["state"], request, expect, _shown(answer)
        )
    if "error" in expect:
        error = answer.get("error")
        got_rule = error.get("rule") if isinstance(error, dict) else None
        if answer.get("ok") is False and got_rule == expect["error"]:
            return None
        refused = _state_refused(case["state"], answer, ask)
        if refused is not None:
            blame = refusal_blame(parse_state(case["state"]), refused, case["rules"])
            what = f"the port refused the state under {got_rule}"
            return Evidence(case["id"], blame, what, case["state"], request, expect, _shown(answer))
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


_READING_DEFECT = "the port fails with an internal error on reading the state"


def _reading_defect(text: str, state: State, answer: Message, ask: Ask) -> Blame | None:
    """Return the blame of an internal error that reading the state alone gives, or ``None``.

    When the port answers a request about a state with an internal error (a
    defect, spec/protocol.md), the state alone is read again (op ``state``):
    if that fails too, the defect lies in reading the state
    (:func:`~cantstop.conformance.blame.reading_blame`), not in the request.
    """
    if not is_internal_error(answer):
        return None
    if not is_internal_error(answer_of(ask, {"op": "state", "text": text})):
        return None
    return reading_blame(state) or None


def _state_refused(text: str, answer: Message, ask: Ask) -> Message | None:
    """Return the port's refusal of the state alone when it refused a request about it so.

    A port that refuses an action under a rule of its own, and refuses
    reading the state alone under the same rule, refused the state, not the
    action: the refusal says how it reads the state.
    """
    rule = _error_rule(answer)
    if answer.get("ok") is not False or rule is None:
        return None
    alone = answer_of(ask, {"op": "state", "text": text})
    return alone if alone.get("ok") is False and _error_rule(alone) == rule else None


def _shown(answer: Message) -> Any:
    """Return the part of an answer worth showing: the result, or the error."""
    if answer.get("ok") is True:
        return {k: v for k, v in answer.items() if k not in ("seq", "ok", "json")}
    error = answer.get("error")
    return {"error": error} if error is not None else answer


def _table_evidence(case: Case, ask: Ask) -> Evidence | None:
    request = {"op": "rolls", "state": case["state"]}
    answer = answer_of(ask, request)
    state = parse_state(case["state"])
    if case["kind"] == "rolls":
        table = case["expect"]["table"]
        want = [table["".join(map(str, sorted_dice(r.dice)))] for r in ORDERED_ROLLS]
    else:
        want = reference_table(state)
    defect = _reading_defect(case["state"], state, answer, ask)
    if defect:
        return Evidence(case["id"], defect, _READING_DEFECT, case["state"], request)
    if answer.get("ok") is not True:
        refused = refusal_blame(state, answer, case["rules"])
        return Evidence(case["id"], refused, "the port refused the state", case["state"], request)
    got = answer.get("moves")
    groups = differing_rolls(state, got, want)
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
        normal(blame),
        what,
        case["state"],
        request,
        {roll: first.want},
        {roll: first.got},
    )


def _game_evidence(case: Case, ask: Ask) -> Evidence | None:
    expect = case["expect"]
    new = case["new"]
    request: Message = {"op": "new", "rules": new["rules"], "first_player": new["first_player"]}
    answer = answer_of(ask, request)
    if not same_json(answer.get("state"), expect["start"]):
        blame = _setup_blame(expect["start"], answer, case["rules"])
        return Evidence(
            case["id"], blame, "wrong opening state", "", request, expect["start"], _shown(answer)
        )
    state = expect["start"]
    for action, after, event in zip(
        case["actions"], expect["states"], expect["events"], strict=True
    ):
        request = {"op": "apply", "state": state, "action": action}
        answer = answer_of(ask, request)
        if not same_json([answer.get("state"), answer.get("event")], [after, event]):
            defect = _reading_defect(state, parse_state(state), answer, ask)
            if defect:
                expected = {"state": after, "event": event}
                what, shown = _READING_DEFECT, _shown(answer)
                return Evidence(case["id"], defect, what, state, request, expected, shown)
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
    want_fields = fields_of(want)
    got_fields = fields_of(got) if isinstance(got, str) else None
    if answer.get("ok") is not True or got_fields is None or want_fields is None:
        return uniform(tags)
    if got_fields.get(Part.PLAYER) != want_fields.get(Part.PLAYER):
        return {"R2.2": 1.0}
    if got_fields.get(Part.OPTIONS) != want_fields.get(Part.OPTIONS):
        return uniform([t for t in tags if t.startswith(("R15", "N1.5"))] or tags)
    return uniform(tags)


def _notation_evidence(case: Case, ask: Ask) -> Evidence | None:
    kind = case["kind"]
    request: Message = {"op": kind}
    if kind == "new":
        request.update(case["new"])
    else:
        for key in ("text", "json"):
            if key in case:
                request[key] = case[key]
    answer = answer_of(ask, request)
    expect = case["expect"]
    text = case.get("text")
    shown = text if isinstance(text, str) else ""
    got = _shown(answer)
    if "error" in expect:
        if answer.get("ok") is False and _error_rule(answer) == expect["error"]:
            return _position_evidence(case["id"], request, answer, expect)
        what = "accepted" if answer.get("ok") is True else "refused under another rule"
        return Evidence(case["id"], {expect["error"]: 1.0}, what, shown, request, expect, got)
    if answer.get("ok") is not True:
        rule = _error_rule(answer)
        refused = {rule: 1.0} if rule is not None and rule in case["rules"] else None
        refused = refused or uniform(case["rules"])
        return Evidence(case["id"], refused, "refused", shown, request, expect, got)
    if kind == "new":
        if answer.get("state") == expect["state"]:
            return None
        setup = _setup_blame(expect["state"], answer, case["rules"])
        return Evidence(case["id"], setup, "wrong opening state", "", request, expect, got)
    blame: dict[str, float] = defaultdict(float)
    if kind == "action":
        if answer.get("action") != expect["action"]:
            add_blame(blame, [r for r in case["rules"] if r in ("N2.2", "N2.3")] or ["N2.1"])
        if answer.get("json") != expect["json"]:
            add_blame(blame, ["N3.2"])
    else:
        got_text = answer.get("state")
        if got_text != expect["state"]:
            want_fields = fields_of(expect["state"])
            got_fields = fields_of(got_text) if isinstance(got_text, str) else None
            if isinstance(got_text, str) and got_fields is not None and got_fields == want_fields:
                add_blame(blame, [notation_rule(expect["state"], got_text)])
            elif (
                got_fields is not None
                and want_fields is not None
                and _unsorted(got_fields, want_fields)
            ):
                add_blame(blame, ["R4.1"])
            else:
                add_blame(blame, [r for r in case["rules"] if r.startswith("R")] or case["rules"])
        if answer.get("json") != expect["json"]:
            add_blame(blame, _json_rules(expect["json"], answer.get("json")))
    if not blame:
        return None
    return Evidence(case["id"], normal(blame), f"wrong {kind}", shown, request, expect, got)


def _explain_evidence(case: Case, ask: Ask) -> Evidence | None:
    """Blame the rules of the first statement of an explanation that differs.

    Each statement cites the rules it applies (spec/explain.md), so the first
    one the port gets wrong names the rules it most likely misreads; a wrong
    list of moves blames the rules the statements about the moves cite.
    """
    request: Message = {"op": "explain", "state": case["state"]}
    if "action" in case:
        request["action"] = case["action"]
    answer = answer_of(ask, request)
    expect = case["expect"]
    state = case["state"]
    if "error" in expect:
        if answer.get("ok") is False and _error_rule(answer) == expect["error"]:
            return None
        what = "accepted" if answer.get("ok") is True else "refused under another rule"
        blame = {expect["error"]: 1.0}
        return Evidence(case["id"], blame, what, "", request, expect, _shown(answer))
    defect = _reading_defect(state, parse_state(state), answer, ask)
    if defect:
        return Evidence(case["id"], defect, _READING_DEFECT, state, request, None, _shown(answer))
    if answer.get("ok") is not True:
        blame = refusal_blame(parse_state(state), answer, case["rules"])
        return Evidence(case["id"], blame, "refused", state, request, None, _shown(answer))
    got = answer.get("explanation")
    want = expect["explanation"]
    if same_json(got, want):
        return None
    mine = got.get("statements") if isinstance(got, dict) else None
    mine = mine if isinstance(mine, list) else []
    for index, statement in enumerate(want["statements"]):
        theirs = mine[index] if index < len(mine) else None
        if not same_json(theirs, statement):
            what = f"statement {index + 1} ({statement['kind']}) differs"
            blame = uniform(statement["rules"])
            return Evidence(case["id"], blame, what, state, request, statement, theirs)
    if isinstance(got, dict) and not same_json(got.get("moves"), want["moves"]):
        cited = [
            r
            for statement in want["statements"]
            if statement["kind"].startswith("move")
            for r in statement["rules"]
        ]
        blame = uniform(cited or case["rules"])
        return Evidence(case["id"], blame, "the legal moves", state, request, want["moves"], got)
    extra = mine[len(want["statements"]) :]
    what = "statements the rules do not give" if extra else "the fields of the explanation"
    shown = extra[0] if extra else got
    return Evidence(case["id"], uniform(case["rules"]), what, state, request, None, shown)


def _text_example_evidence(case: Case, ask: Ask) -> Evidence | None:
    """Ask again a spec example about text that must be refused: the rule, then the position."""
    op, key = ("state", "text") if "text" in case else ("action", "action_text")
    request: Message = {"op": op, "text": case[key]}
    answer = answer_of(ask, request)
    expect = case["expect"]
    if answer.get("ok") is False and _error_rule(answer) == expect["error"]:
        return _position_evidence(case["id"], request, answer, expect)
    what = "accepted" if answer.get("ok") is True else "refused under another rule"
    return Evidence(
        case["id"], {expect["error"]: 1.0}, what, case[key], request, expect, _shown(answer)
    )


def _position_evidence(
    case_id: str, request: Message, answer: Message, expect: Mapping[str, Any]
) -> Evidence | None:
    """Blame N1.6 when text is refused under the right rule but the error points elsewhere."""
    error = answer.get("error")
    if "at" not in expect or not isinstance(error, dict) or "at" not in error:
        return None
    if same_json(error["at"], expect["at"]):
        return None
    what = f"the error points at {json.dumps(error['at'])[:40]}, expected {expect['at']}"
    text = request.get("text")
    shown = text if isinstance(text, str) else ""
    return Evidence(case_id, {"N1.6": 1.0}, what, shown, request, dict(expect), _shown(answer))


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
    dice = got.get("dice")
    if dice != want.get("dice") and isinstance(dice, list) and _same_dice(dice, want.get("dice")):
        rules.append("R4.1")  # the dice kept in another order than the state's
    if got.get("won") != want.get("won"):
        rules.append("R9.1")
    if got.get("winner") != want.get("winner"):
        rules.append("R12.1")
    return rules


def _same_dice(got: list[Any], want: object) -> bool:
    """Tell whether ``got`` holds the dice ``want`` holds, in any order."""
    if not isinstance(want, list) or not all(isinstance(d, int) for d in got):
        return False
    return sorted(got) == want


def _unsorted(got: Mapping[Field, object], want: Mapping[Field, object]) -> bool:
    """Tell whether a state's parts differ only in its dice, written in another order (R4.1).

    The state keeps its dice in non-decreasing order (R4.1): the same dice in
    another order are a roll's order kept, not another state.
    """
    if {k for k in want if got.get(k) != want[k]} | (got.keys() - want.keys()) != {Part.DICE}:
        return False
    dice, ours = got[Part.DICE], want[Part.DICE]
    return isinstance(dice, str) and isinstance(ours, str) and sorted(dice) == list(ours)
