"""The reference engine as a port: answers the JSON-lines protocol of ``spec/protocol.md``.

:func:`handle` answers one request object; :func:`serve` reads requests from
one stream and writes the answers to another until ``quit`` or the end of input.

>>> handle({"seq": 1, "op": "moves", "state": "-/- - 0c3455"})
{'seq': 1, 'ok': True, 'moves': ['7+10', '8+9']}
>>> handle({"seq": 2, "op": "apply", "state": "-/- - 0c3455", "action": "7+9"})["error"]["rule"]
'R4.3'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from cantstop.dice import ORDERED_ROLLS
from cantstop.errors import CantStopError, IllegalAction, NotationError, RuleError
from cantstop.game import Phase, new_game, perft
from cantstop.jsonform import (
    action_from_json,
    action_to_json,
    rules_from_json,
    state_from_json,
    state_to_json,
)
from cantstop.notation import format_action, format_state, parse_action, parse_state

__all__ = ["PROTOCOL_VERSION", "handle", "serve"]

#: The protocol version this module speaks.
PROTOCOL_VERSION = 1

Message = dict[str, Any]


class _BadRequest(Exception):
    """A request that does not follow the protocol (not a rules question)."""


def _field(request: Message, key: str, kind: type) -> Any:
    value = request.get(key)
    if not isinstance(value, kind):
        raise _BadRequest(f"op {request.get('op')!r} needs {key!r} ({kind.__name__})")
    return value


def _hello(request: Message) -> Message:
    return {
        "protocol": PROTOCOL_VERSION,
        "name": "cantstop reference engine (Python)",
        "supports": {"players": [1, 2, 3, 4], "variants": ["A", "B"], "heights": True},
    }


def _new(request: Message) -> Message:
    rules = rules_from_json(request.get("rules", {}))
    state = new_game(rules, request.get("first_player", 0))
    return {"state": format_state(state)}


def _state(request: Message) -> Message:
    if "json" in request:
        state = state_from_json(request["json"])
    else:
        state = parse_state(_field(request, "text", str))
    return {"state": format_state(state), "json": state_to_json(state)}


def _action(request: Message) -> Message:
    if "json" in request:
        action = action_from_json(request["json"])
    else:
        action = parse_action(_field(request, "text", str))
    return {"action": format_action(action), "json": action_to_json(action)}


def _moves(request: Message) -> Message:
    state = parse_state(_field(request, "state", str))
    return {"moves": [format_action(m) for m in state.legal_moves()]}


def _apply(request: Message) -> Message:
    state = parse_state(_field(request, "state", str))
    action = parse_action(_field(request, "action", str))
    step = state.step(action)
    return {"state": format_state(step.state), "event": step.event.value}


def _rolls(request: Message) -> Message:
    state = parse_state(_field(request, "state", str))
    if state.phase not in (Phase.ROLL, Phase.DECIDE):
        raise IllegalAction("only a state that is about to roll can roll", "R3.3", state, None)
    table = []
    for roll in ORDERED_ROLLS:
        after = state.step(roll).state
        table.append([format_action(m) for m in after.legal_moves()])
    return {"moves": table}


def _perft(request: Message) -> Message:
    counts = perft(parse_state(_field(request, "state", str)))
    return {"choices": counts.choices, "busts": counts.busts}


_OPS: dict[str, Callable[[Message], Message]] = {
    "hello": _hello,
    "new": _new,
    "state": _state,
    "action": _action,
    "moves": _moves,
    "apply": _apply,
    "rolls": _rolls,
    "perft": _perft,
    "quit": lambda request: {},
}


def handle(request: object) -> Message:
    """Return the response to one request object (see ``spec/protocol.md``)."""
    if not isinstance(request, dict):
        return {"seq": None, "ok": False, "error": {"rule": None, "message": "not an object"}}
    seq = request.get("seq")
    op = request.get("op")
    answer = _OPS.get(op) if isinstance(op, str) else None
    try:
        if answer is None:
            raise _BadRequest(f"unknown op {op!r}")
        result = answer(request)
    except (RuleError, NotationError, IllegalAction) as exc:
        error: Message = {"rule": exc.rule, "message": str(exc)}
        if isinstance(exc, NotationError) and op in ("state", "action") and "text" in request:
            error["at"] = exc.position
        return {"seq": seq, "ok": False, "error": error}
    except (_BadRequest, CantStopError) as exc:
        return {"seq": seq, "ok": False, "error": {"rule": None, "message": str(exc)}}
    return {"seq": seq, "ok": True, **result}


def serve(
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    answer: Callable[[object], Message] = handle,
) -> int:
    """Answer requests line by line until ``quit`` or the end of input; return 0.

    ``answer`` answers one request; :class:`cantstop.conformance.mutants.MutantPort`
    gives one with a seeded bug.
    """
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            request = None
            response: Message = {
                "seq": None,
                "ok": False,
                "error": {"rule": None, "message": f"malformed JSON: {exc.msg}"},
            }
        else:
            response = answer(request)
        stdout.write(json.dumps(response, separators=(",", ":")) + "\n")
        stdout.flush()
        if isinstance(request, dict) and request.get("op") == "quit":
            break
    return 0


if __name__ == "__main__":  # pragma: no cover - exercised through the command line
    sys.exit(serve())
