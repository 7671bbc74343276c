"""The checks of the generic case kinds: the requests each kind sends, and the answers due.

Every game's vectors may hold these kinds (``spec/protocol.md``, "The
generic case families"): ``example``, ``moves``, ``apply``, ``chance``,
``game``, ``state``, ``action`` and ``new``.  Each check sends a case's
requests to the port and raises :class:`~dicekit.conformance.compare.Mismatch`
when an answer differs from the case's expectation, saying what was asked
and what differs.  The helpers :func:`ok`, :func:`expect_error` and
:func:`asked` are shared with the checks a game writes for its own kinds.

>>> asked({"op": "apply", "state": "0,0/5/0d", "action": "hold"})
'apply of hold to 0,0/5/0d'
>>> asked({"op": "new", "config": {"players": 3}, "first_player": 1})
'new with config {"players": 3} and first player 1'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from dicekit.conformance.compare import Mismatch, check_same, printable, same_json
from dicekit.conformance.suite import Case, Check, Message, Requester

__all__ = [
    "GENERIC_CHECKS",
    "MoreCheck",
    "MovesCheck",
    "asked",
    "example_check",
    "expect_error",
    "moves_check",
    "moves_difference",
    "ok",
    "refused",
    "replay",
]


def asked(message: Message) -> str:
    """Return what a request asked, in words: ``apply of 7+10 to -/- - 0c3455``."""
    op = message.get("op")
    if op == "apply":
        return f"apply of {message.get('action')} to {message.get('state')}"
    if op == "explain" and "action" in message:
        return f"explain of {message['action']} in {message.get('state')}"
    if "state" in message:
        return f"{op} of {message['state']}"
    if "text" in message:
        return f"{op} of {json.dumps(message['text'])}"
    if "json" in message:
        return f"{op} of the JSON form {printable(json.dumps(message['json']), 200)}"
    if op == "new":
        key = "rules" if "rules" in message else "config"
        given = json.dumps(message.get(key, {}))
        first = message.get("first_player", 0)
        return f"new with {key} {printable(given, 200)} and first player {first}"
    return str(op)


def refused(message: Message, answer: Message) -> str:
    """Return the failure line of a refused request: what was asked, the rule and the reason."""
    error = answer.get("error")
    rule = error.get("rule") if isinstance(error, dict) else None
    text = error.get("message") if isinstance(error, dict) else error
    why = printable(text if isinstance(text, str) else json.dumps(text), 300)
    under = f"under rule {printable(json.dumps(rule), 40)}" if rule is not None else "with no rule"
    return f"{asked(message)} was refused {under}: {why}"


def ok(port: Requester, message: Message) -> Message:
    """Send ``message`` and return the answer; raise ``Mismatch`` if the port refuses it."""
    answer = port.request(message)
    if answer.get("ok") is not True:
        raise Mismatch(refused(message, answer))
    return answer


def expect_error(port: Requester, message: Message, rule: str, at: int | None = None) -> None:
    """Send ``message``; raise ``Mismatch`` unless the port refuses it under ``rule``.

    With ``at``, an ``at`` in the port's error must be that position.
    """
    answer = port.request(message)
    if answer.get("ok") is not False:
        shown = {k: v for k, v in answer.items() if k not in ("seq", "json")}
        raise Mismatch(
            f"{asked(message)} should be rejected under {rule}, but the port accepted it: "
            f"{printable(json.dumps(shown), 200)}",
            [f"expected: rejection under rule {rule}"],
        )
    error = answer.get("error")
    got = error.get("rule") if isinstance(error, dict) else None
    if got != rule:
        text = error.get("message") if isinstance(error, dict) else error
        raise Mismatch(
            f"{asked(message)} was rejected under rule {printable(json.dumps(got), 40)}, "
            f"expected rule {rule}",
            [f"port's message: {printable(text if isinstance(text, str) else json.dumps(text))}"],
        )
    if at is not None and isinstance(error, dict) and "at" in error:
        where = error["at"]
        if type(where) is not int or where != at:
            raise Mismatch(
                f"the error points at position {printable(json.dumps(where), 40)}, expected {at}"
            )


def moves_difference(got: object, want: list[str], order: str = "the game's order") -> str:
    """Say how a list of actions differs from the expected one: missing, not legal, or order.

    >>> moves_difference(["hold", "r2"], ["hold"])
    'not legal r2'
    >>> moves_difference(["b", "a"], ["a", "b"])
    "the moves are right but not in the game's order: got b a"
    """
    if not isinstance(got, list):
        return f"the port sent {json.dumps(got)[:100]} instead of a list of moves"
    missing = [m for m in want if m not in got]
    extra = [m for m in got if m not in want]
    if not missing and not extra:
        return f"the moves are right but not in {order}: got {' '.join(map(str, got))}"
    parts = []
    if missing:
        parts.append(f"missing {' '.join(missing)}")
    if extra:
        parts.append(f"not legal {' '.join(map(str, extra))}")
    return ", ".join(parts)


def moves_check(order: str = "the game's order") -> Check:
    """Return the check of ``moves`` cases: the legal actions, listed in ``order`` (its name)."""

    def run(port: Requester, case: Case) -> None:
        got = ok(port, {"op": "moves", "state": case["state"]}).get("moves")
        want = case["expect"]["moves"]
        if not same_json(got, want):
            raise Mismatch(f"legal moves of {case['state']}: {moves_difference(got, want, order)}")

    return run


def _run_apply(port: Requester, case: Case) -> None:
    message = {"op": "apply", "state": case["state"], "action": case["action"]}
    expect = case["expect"]
    if "error" in expect:
        expect_error(port, message, expect["error"])
        return
    answer = ok(port, message)
    where = f"{case['action']} in {case['state']}"
    check_same(f"state after {where}", answer.get("state"), expect["state"])
    if "event" in expect:
        check_same(f"event of {where}", answer.get("event"), expect["event"])


def _outcomes(value: object) -> object:
    """Return chance outcomes sorted by action, to compare them whatever their order."""
    if isinstance(value, list) and all(isinstance(o, dict) for o in value):
        return sorted(value, key=lambda o: json.dumps(o.get("action")))
    return value


def _run_chance(port: Requester, case: Case) -> None:
    got = ok(port, {"op": "chance", "state": case["state"]}).get("outcomes")
    want = case["expect"]["outcomes"]
    if not same_json(_outcomes(got), _outcomes(want)):
        theirs = printable(json.dumps(got), 300)
        raise Mismatch(
            f"chance outcomes of {case['state']}: got {theirs}",
            [f"expected: {printable(json.dumps(want), 300)}"],
        )


def _run_game(port: Requester, case: Case) -> None:
    expect = case["expect"]
    start = ok(port, {"op": "new", **case["new"]})
    check_same("the opening state", start.get("state"), expect["start"])
    events = expect.get("events", [None] * len(case["actions"]))
    replay(port, expect["start"], zip(case["actions"], expect["states"], events, strict=True))


def _gave(got: list[Any], after: Any, event: Any) -> str:
    """Say what an action gave and what was expected: the state, and the event when one is."""
    return (
        f"gave {' '.join(str(part) for part in got if part is not None)!r}, "
        f"expected {' '.join(str(part) for part in (after, event) if part is not None)!r}"
    )


def replay(
    port: Requester,
    state: Any,
    steps: Iterable[tuple[Any, Any, Any]],
    gave: Callable[[list[Any], Any, Any], str] = _gave,
) -> None:
    """Apply each action of ``steps`` on the port, from ``state``, and check what each gives.

    A step is the action, the state expected after it and the event expected
    (``None`` when the case expects none, and then the port's is not asked
    for).  A refused action, or another state or event, raises
    :class:`~dicekit.conformance.compare.Mismatch`; ``gave`` words the
    second from what the port gave (its state and event), the state and the
    event expected.
    """
    for index, (action, after, event) in enumerate(steps, start=1):
        answer = port.request({"op": "apply", "state": state, "action": action})
        if answer.get("ok") is not True:
            error = answer.get("error") or {}
            raise Mismatch(
                f"action {index} ({action} in {state}) was refused under rule "
                f"{error.get('rule')}: {error.get('message')}",
                [f"expected: {event or 'success'}, giving {after}"],
            )
        got = [answer.get("state"), answer.get("event") if event is not None else None]
        if not same_json(got, [after, event]):
            raise Mismatch(f"action {index} ({action} in {state}) {gave(got, after, event)}")
        state = after


def _run_new(port: Requester, case: Case) -> None:
    message = {"op": "new", **case["new"]}
    if "error" in case["expect"]:
        expect_error(port, message, case["expect"]["error"])
    else:
        check_same("the opening state", ok(port, message).get("state"), case["expect"]["state"])


def _run_parse(op: str) -> Check:
    def run(port: Requester, case: Case) -> None:
        message: Message = {"op": op}
        for key in ("text", "json"):
            if key in case:
                message[key] = case[key]
        expect = case["expect"]
        if "error" in expect:
            expect_error(port, message, expect["error"], expect.get("at"))
            return
        answer = ok(port, message)
        check_same(f"canonical {op}", answer.get(op), expect[op])
        check_same(f"JSON form of the {op}", answer.get("json"), expect["json"])

    return run


#: How an example's expected moves are checked: ``(port, state, moves)``.
MovesCheck = Callable[[Requester, str, list[str]], None]
#: A game's own expectations of an example: ``(port, state, expect)``.
MoreCheck = Callable[[Requester, str, Mapping[str, Any]], None]


def _moves_in_any_order(port: Requester, state: str, want: list[str]) -> None:
    """Check an example's moves in any order, as the spec lists them (``moves`` cases check it)."""
    got = ok(port, {"op": "moves", "state": state}).get("moves")
    mine = sorted(map(str, got)) if isinstance(got, list) else got
    if not same_json(mine, sorted(want)):
        raise Mismatch(f"legal moves of {state}: {moves_difference(got, want)}")


def example_check(moves: MovesCheck = _moves_in_any_order, more: MoreCheck | None = None) -> Check:
    """Return the check of spec examples (``example`` cases).

    An example opens a game (``new``), or reads a text that must be refused
    (``text``, ``action_text``), or plays ``actions`` from ``state``; then it
    compares what it expects: the events, the resulting state, the legal
    ``moves`` (with ``moves``, by default in any order), the game's own
    expectations (``more``, given the state reached and ``expect``), and the
    JSON forms of the state and of the first action.
    """

    def run(port: Requester, case: Case) -> None:
        expect = case["expect"]
        if "new" in case:
            _run_new(port, {"new": case["new"], "expect": expect})
            return
        for key, op in (("text", "state"), ("action_text", "action")):
            if key in case:
                expect_error(port, {"op": op, "text": case[key]}, expect["error"], expect.get("at"))
                return
        state = case["state"]
        check_same("canonical state", ok(port, {"op": "state", "text": state}).get("state"), state)
        actions = case.get("actions", [])
        events = []
        for index, action in enumerate(actions):
            message = {"op": "apply", "state": state, "action": action}
            if index == len(actions) - 1 and "error" in expect:
                expect_error(port, message, expect["error"])
                return
            answer = ok(port, message)
            state = answer.get("state")
            events.append(answer.get("event"))
        if "events" in expect:
            check_same("events", events, expect["events"])
        if "event" in expect:
            check_same("event", events[-1:], [expect["event"]])
        if "state" in expect:
            check_same("resulting state", state, expect["state"])
        if "moves" in expect:
            moves(port, state, expect["moves"])
        if more is not None:
            more(port, state, expect)
        if "json" in expect:
            answer = ok(port, {"op": "state", "text": state})
            check_same(f"JSON form of {state}", answer.get("json"), expect["json"])
            answer = ok(port, {"op": "state", "json": expect["json"]})
            check_same("state read from the JSON form", answer.get("state"), state)
        if "action_json" in expect:
            answer = ok(port, {"op": "action", "text": actions[0]})
            check_same(f"JSON form of {actions[0]}", answer.get("json"), expect["action_json"])
            answer = ok(port, {"op": "action", "json": expect["action_json"]})
            check_same("action read from the JSON form", answer.get("action"), actions[0])

    return run


#: The check of each generic kind of case.
GENERIC_CHECKS: dict[str, Callable[[Requester, Case], None]] = {
    "example": example_check(),
    "moves": moves_check(),
    "apply": _run_apply,
    "chance": _run_chance,
    "game": _run_game,
    "new": _run_new,
    "state": _run_parse("state"),
    "action": _run_parse("action"),
}
