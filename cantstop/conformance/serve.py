"""The reference engine as a port: answers the JSON-lines protocol of ``spec/protocol.md``.

:func:`handle` answers one request object; :func:`serve` reads requests from
one stream and writes the answers to another until ``quit`` or the end of input.
Neither ever raises on what it is given: every line read gets exactly one
answer, an error answer if the line is not a request (``spec/protocol.md``,
"Lines").

>>> handle({"seq": 1, "op": "moves", "state": "-/- - 0c3455"})
{'seq': 1, 'ok': True, 'moves': ['7+10', '8+9']}
>>> handle({"seq": 2, "op": "apply", "state": "-/- - 0c3455", "action": "7+9"})["error"]["rule"]
'R4.3'
>>> handle({"seq": True, "op": "hello"})["error"]
{'rule': None, 'message': 'seq must be an integer within ±(2**53 - 1), not true'}
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from typing import IO, Any, TextIO

from cantstop.dice import ORDERED_ROLLS
from cantstop.errors import CantStopError, IllegalAction, NotationError, RuleError
from cantstop.explanation import explain
from cantstop.game import Phase, new_game, perft
from cantstop.jsonform import (
    action_from_json,
    action_to_json,
    rules_from_json,
    state_from_json,
    state_to_json,
)
from cantstop.notation import format_action, format_state, parse_action, parse_state
from dicekit.conformance.lines import MAX_SAFE_INTEGER, LineError, decode, lines

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
        "supports": {
            "players": [1, 2, 3, 4],
            "variants": ["A", "B"],
            "heights": True,
            "explain": True,
        },
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


def _explain(request: Message) -> Message:
    state = parse_state(_field(request, "state", str))
    action = parse_action(_field(request, "action", str)) if "action" in request else None
    return {"explanation": explain(state, action).to_json()}


_OPS: dict[str, Callable[[Message], Message]] = {
    "hello": _hello,
    "new": _new,
    "state": _state,
    "action": _action,
    "moves": _moves,
    "apply": _apply,
    "rolls": _rolls,
    "perft": _perft,
    "explain": _explain,
    "quit": lambda request: {},
}


def _refusal(seq: int | None, message: str, rule: str | None = None) -> Message:
    return {"seq": seq, "ok": False, "error": {"rule": rule, "message": message}}


def _shown(value: object) -> str:
    """``value`` as JSON for a message, cut short; never raises."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _valid_seq(seq: object) -> bool:
    return type(seq) is int and -MAX_SAFE_INTEGER <= seq <= MAX_SAFE_INTEGER


def handle(request: object) -> Message:
    """Return the response to one request object (see ``spec/protocol.md``); never raise.

    A request that is not an object, or whose ``seq`` is not an integer, gets
    ``"seq": null``.  An exception that is not a rules error (a defect of the
    engine) is answered as an internal error and logged on standard error.
    """
    if not isinstance(request, dict):
        return _refusal(None, f"the request is not a JSON object: {_shown(request)}")
    seq = request.get("seq")
    if not _valid_seq(seq):
        return _refusal(
            None,
            f"seq must be an integer within ±(2**53 - 1), not {_shown(seq)}"
            if "seq" in request
            else "the request has no seq",
        )
    op = request.get("op")
    answer = _OPS.get(op) if isinstance(op, str) else None
    try:
        if answer is None:
            raise _BadRequest(f"unknown op {_shown(op)}")
        result = answer(request)
    except (RuleError, NotationError, IllegalAction) as exc:
        error: Message = {"rule": exc.rule, "message": str(exc)}
        if isinstance(exc, NotationError) and op in ("state", "action") and "text" in request:
            error["at"] = exc.position
        return {"seq": seq, "ok": False, "error": error}
    except (_BadRequest, CantStopError) as exc:
        return _refusal(seq, str(exc))
    except Exception as exc:  # the request boundary: every request gets an answer
        return _internal_error(seq, op, exc)
    return {"seq": seq, "ok": True, **result}


def _internal_error(seq: object, op: object, exc: BaseException) -> Message:
    """Answer, and log on standard error, an exception no rule accounts for."""
    where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
    place = f" at {where[0].filename}:{where[0].lineno}" if where else ""
    try:
        detail = str(exc)[:200]
    except Exception:  # a message that cannot be shown is left out
        detail = ""
    text = f"internal error answering op {_shown(op)}: {type(exc).__name__}: {detail}"
    print(f"cantstop serve: {text}{place}", file=sys.stderr, flush=True)
    return _refusal(seq if type(seq) is int and _valid_seq(seq) else None, text)


def _respond(line: bytes | LineError, answer: Callable[[object], Message]) -> tuple[str, bool]:
    """Return the answer line to one input line, and whether it ends the session."""
    try:
        if isinstance(line, LineError):
            raise line
        request = decode(line)
    except LineError as exc:
        return _encode(_refusal(exc.seq, f"malformed request: {exc.message}")), False
    try:
        response = answer(request)
    except Exception as exc:  # a custom ``answer`` may raise; the port still answers
        seq = request.get("seq") if isinstance(request, dict) else None
        op = request.get("op") if isinstance(request, dict) else None
        response = _internal_error(seq, op, exc)
    done = isinstance(request, dict) and request.get("op") == "quit" and response.get("ok") is True
    return _encode(response), done


def _encode(response: Message) -> str:
    """Return ``response`` as one line of strict JSON (ASCII, no ``NaN``), or an internal error."""
    try:
        return json.dumps(response, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        seq = response.get("seq") if isinstance(response, dict) else None
        fallback = _internal_error(seq, None, exc)
        return json.dumps(fallback, separators=(",", ":"))


def serve(
    stdin: IO[bytes] | None = None,
    stdout: TextIO | None = None,
    answer: Callable[[object], Message] = handle,
) -> int:
    r"""Answer requests line by line until ``quit`` or the end of input; return 0.

    ``stdin`` is read as bytes (``sys.stdin.buffer`` by default), so the
    locale plays no part: a line that is not UTF-8 is answered like any other
    malformed line.  ``answer`` answers one request object (:func:`handle`).

    >>> import io
    >>> out = io.StringIO()
    >>> serve(io.BytesIO(b'{"seq": 1, "op": "hello", "protocol": 1}\n\n'), out)
    0
    >>> print(out.getvalue(), end="")  # doctest: +ELLIPSIS
    {"seq":1,"ok":true,"protocol":1,...}
    {"seq":null,"ok":false,"error":{"rule":null,"message":"malformed request: an empty line"}}
    """
    source = sys.stdin.buffer if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout
    for line in lines(source):
        text, done = _respond(line, answer)
        sink.write(text + "\n")
        sink.flush()
        if done:
            break
    return 0


if __name__ == "__main__":  # pragma: no cover - exercised through the command line
    sys.exit(serve())
