"""Can't Stop's reference port: the layer's server with Can't Stop's ops (``spec/protocol.md``).

The generic ops (``state``, ``action``, ``apply``, ``chance``, ``quit``) are
answered by the game-neutral server of :mod:`dicekit.conformance.serve`
through :data:`cantstop.layer.GAME`; Can't Stop answers ``hello`` with its
options, reads ``new``'s configuration from ``rules``, lists under ``moves``
the legal moves of a roll (none outside CHOOSE: a stop is not a move), and
adds ``rolls``, ``perft`` and ``explain``.  :func:`handle` answers one
request object; :func:`serve` reads requests from one stream and writes the
answers to another until ``quit`` or the end of input.  Neither ever raises
on what it is given: every line read gets exactly one answer, an error answer
if the line is not a request (``spec/protocol.md``, "Lines").

>>> handle({"seq": 1, "op": "moves", "state": "-/- - 0c3455"})
{'seq': 1, 'ok': True, 'moves': ['7+10', '8+9']}
>>> handle({"seq": 2, "op": "apply", "state": "-/- - 0c3455", "action": "7+9"})["error"]["rule"]
'R4.3'
>>> handle({"seq": True, "op": "hello"})["error"]
{'rule': None, 'message': 'seq must be an integer within ±(2**53 - 1), not true'}
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import IO, TextIO

from cantstop.dice import ORDERED_ROLLS
from cantstop.errors import IllegalAction
from cantstop.explanation import explain
from cantstop.jsonform import rules_from_json
from cantstop.layer import GAME
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.state import Phase, new_game, perft
from dicekit.conformance import serve as _layer
from dicekit.conformance.serve import Message, Op, Server, field

__all__ = ["PROTOCOL_VERSION", "SERVER", "handle", "serve"]

#: The protocol version this module speaks.
PROTOCOL_VERSION = _layer.PROTOCOL_VERSION

#: What the reference port declares in ``hello``: every option and the ``explain`` capability.
SUPPORTS = {"players": [1, 2, 3, 4], "variants": ["A", "B"], "heights": True, "explain": True}


def _new(request: Message) -> Message:
    rules = rules_from_json(request.get("rules", {}))
    state = new_game(rules, request.get("first_player", 0))
    return {"state": format_state(state)}


def _moves(request: Message) -> Message:
    state = parse_state(field(request, "state", str))
    return {"moves": [format_action(m) for m in state.legal_moves()]}


def _rolls(request: Message) -> Message:
    state = parse_state(field(request, "state", str))
    if state.phase not in (Phase.ROLL, Phase.DECIDE):
        raise IllegalAction("only a state that is about to roll can roll", "R3.3", state, None)
    table = []
    for roll in ORDERED_ROLLS:
        after = state.step(roll).state
        table.append([format_action(m) for m in after.legal_moves()])
    return {"moves": table}


def _perft(request: Message) -> Message:
    counts = perft(parse_state(field(request, "state", str)))
    return {"choices": counts.choices, "busts": counts.busts}


def _explain(request: Message) -> Message:
    state = parse_state(field(request, "state", str))
    action = parse_action(field(request, "action", str)) if "action" in request else None
    return {"explanation": explain(state, action).to_json()}


#: Can't Stop's own ops, and the generic ops it answers its own way.
OPS: dict[str, Op] = {
    "new": _new,
    "moves": _moves,
    "rolls": _rolls,
    "perft": _perft,
    "explain": _explain,
}

#: The reference port of Can't Stop.
SERVER = Server(
    GAME,
    ops=OPS,
    supports=SUPPORTS,
    name="cantstop reference engine (Python)",
    program="cantstop serve",
)


def handle(request: object) -> Message:
    """Return the response to one request object (see ``spec/protocol.md``); never raise.

    A request that is not an object, or whose ``seq`` is not an integer, gets
    ``"seq": null``.  An exception that is not a rules error (a defect of the
    engine) is answered as an internal error and logged on standard error.
    """
    return SERVER.handle(request)


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
    return _layer.serve(answer, stdin, stdout, program="cantstop serve")


if __name__ == "__main__":  # pragma: no cover - exercised through the command line
    sys.exit(serve())
