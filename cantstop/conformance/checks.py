"""The checks of Can't Stop's conformance cases: the requests of each kind, and the answers due.

Each check sends a case's requests to the port (with the layer's helpers,
:mod:`dicekit.conformance.checks`, whose checks of the ``apply``, ``new``,
``state`` and ``action`` kinds are Can't Stop's too) and raises
:class:`~dicekit.conformance.compare.Mismatch` when an answer differs
from the case's expectation, with what was asked and what differs.  A wrong
count of whole rolls is divided roll by roll (perft "divide",
:func:`~cantstop.conformance.blame.divide_lines`); a wrong explanation is
shown as its first statement that differs (:func:`explanation_difference`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cantstop.conformance.blame import divide_lines, reference_table
from cantstop.dice import ORDERED_ROLLS, sorted_dice
from cantstop.notation import parse_state
from dicekit.conformance.checks import GENERIC_CHECKS, example_check, moves_check, replay
from dicekit.conformance.checks import asked as _asked
from dicekit.conformance.checks import expect_error as _expect_error
from dicekit.conformance.checks import ok as _ok
from dicekit.conformance.compare import Mismatch, check_same, printable, same_json
from dicekit.conformance.suite import Case, Check, Message, Requester

__all__ = ["CHECKS", "explanation_difference"]


#: Moves are listed in the order of R6.6.
_run_moves = moves_check("the order of R6.6")


def _run_perft(port: Requester, case: Case) -> None:
    answer = _ok(port, {"op": "perft", "state": case["state"]})
    got = (answer.get("choices"), answer.get("busts"))
    want = (case["expect"]["choices"], case["expect"]["busts"])
    if not same_json(got, want):
        lines: list[str] = []
        try:
            table = _ok(port, {"op": "rolls", "state": case["state"]}).get("moves")
            reference = reference_table(parse_state(case["state"]))
            lines = divide_lines(case["state"], table, reference)
        except Mismatch as exc:
            lines = [f"divide: {exc.message}"]
        raise Mismatch(
            f"whole-roll counts of {case['state']}: got choices={got[0]} busts={got[1]}, "
            f"expected choices={want[0]} busts={want[1]}",
            lines,
        )


def _run_rolls(port: Requester, case: Case) -> None:
    got = _ok(port, {"op": "rolls", "state": case["state"]}).get("moves")
    table = case["expect"]["table"]
    want = [table["".join(map(str, sorted_dice(r.dice)))] for r in ORDERED_ROLLS]
    if not same_json(got, want):
        raise Mismatch(
            f"legal moves per roll of {case['state']} differ",
            divide_lines(case["state"], got, want),
        )


def _run_game(port: Requester, case: Case) -> None:
    expect = case["expect"]
    new = case["new"]
    start = _ok(port, {"op": "new", "rules": new["rules"], "first_player": new["first_player"]})
    check_same("the opening state", start.get("state"), expect["start"])
    steps = zip(case["actions"], expect["states"], expect["events"], strict=True)
    replay(port, expect["start"], steps, _gave)


def _gave(got: list[Any], after: Any, event: Any) -> str:
    """Say what an action gave and what was expected: the event, then the state."""
    return f"gave {got[1]} {got[0]!r}, expected {event} {after!r}"


def _example_moves(port: Requester, state: str, want: list[str]) -> None:
    """Check an example's moves in the order of R6.6, as a ``moves`` case does."""
    _run_moves(port, {"state": state, "expect": {"moves": want}})


def _example_perft(port: Requester, state: str, expect: Mapping[str, Any]) -> None:
    """Check the whole-roll counts (``perft``) an example expects of the state it reaches."""
    if "perft" in expect:
        _run_perft(port, {"state": state, "expect": expect["perft"]})


def explanation_difference(got: object, want: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    """Say where an explanation's JSON form differs from the expected one, or return ``None``.

    The two are compared as JSON values (the order of an object's keys does not
    matter; ``true`` is not ``1``).  The answer is a sentence and lines that show
    the first statement that differs in its text form (spec/explain.md, X1.2).

    >>> want = {"format": "cantstop-explain/1", "moves": ["7"], "statements": []}
    >>> explanation_difference({**want, "moves": ["7", "8"]}, want)[0]
    'the field moves: got ["7", "8"], expected ["7"]'
    """
    if same_json(got, want):
        return None
    if not isinstance(got, dict):
        return f"the answer is not an explanation object: {printable(json.dumps(got), 200)}", []
    for key in want:
        if key != "statements" and not same_json(got.get(key), want[key]):
            shown = printable(json.dumps(got.get(key)), 200)
            return f"the field {key}: got {shown}, expected {json.dumps(want[key])}", []
    extra = sorted(set(got) - set(want))
    if extra:
        return f"fields the explanation does not have: {', '.join(map(str, extra))}", []
    mine = got.get("statements")
    theirs = want["statements"]
    if not isinstance(mine, list):
        return f"statements is not a list: {printable(json.dumps(mine), 200)}", []
    for index, expected in enumerate(theirs):
        if index >= len(mine):
            return (
                f"{len(mine)} statements, expected {len(theirs)}; the first missing",
                [f"expected: {_statement_line(expected)}"],
            )
        if not same_json(mine[index], expected):
            return _statement_difference(index, mine[index], expected)
    return (
        f"{len(mine)} statements, expected {len(theirs)}; the first extra",
        [f"got: {_statement_line(mine[len(theirs)])}"],
    )


def _statement_difference(
    index: int, got: object, want: Mapping[str, Any]
) -> tuple[str, list[str]]:
    """Say how the statement at ``index`` differs: the first field, and both lines."""
    field = next((k for k in want if not same_json(_get(got, k), want[k])), "fields it has")
    lines = [f"got:      {_statement_line(got)}", f"expected: {_statement_line(want)}"]
    if field == "data":
        lines.append(f"got data:      {printable(json.dumps(_get(got, 'data')), 300)}")
        lines.append(f"expected data: {json.dumps(want['data'])}")
    return f"statement {index + 1} differs in its {field}", lines


def _get(value: object, key: str) -> object:
    return value.get(key) if isinstance(value, dict) else None


def _statement_line(statement: object) -> str:
    """Return a statement as its line of the text form, shown safely whatever the port sent."""
    if not isinstance(statement, dict):
        return printable(json.dumps(statement), 300)
    depth = statement.get("depth")
    text = statement.get("text")
    rules = statement.get("rules")
    indent = "  " * depth if type(depth) is int and 0 <= depth < 10 else f"[depth {depth!r}] "
    said = text[:-1] if isinstance(text, str) and text.endswith(".") else json.dumps(text)
    cited = ", ".join(map(str, rules)) if isinstance(rules, list) else json.dumps(rules)
    kind = printable(str(statement.get("kind")), 40)
    return printable(f"[{kind}] {indent}{said} ({cited}).", 400)


def _run_explain(port: Requester, case: Case) -> None:
    message: Message = {"op": "explain", "state": case["state"]}
    if "action" in case:
        message["action"] = case["action"]
    expect = case["expect"]
    if "error" in expect:
        _expect_error(port, message, expect["error"])
        return
    got = _ok(port, message).get("explanation")
    differs = explanation_difference(got, expect["explanation"])
    if differs is not None:
        what, lines = differs
        raise Mismatch(f"{_asked(message)}: {what}", lines)


#: The check of each kind of case.
CHECKS: dict[str, Check] = {
    "moves": _run_moves,
    "apply": GENERIC_CHECKS["apply"],
    "perft": _run_perft,
    "rolls": _run_rolls,
    "game": _run_game,
    "new": GENERIC_CHECKS["new"],
    "state": GENERIC_CHECKS["state"],
    "action": GENERIC_CHECKS["action"],
    "example": example_check(_example_moves, _example_perft),
    "explain": _run_explain,
}
