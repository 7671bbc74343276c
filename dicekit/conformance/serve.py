"""The reference port of any game: answers the protocol of ``spec/protocol.md`` through the game.

:class:`Server` answers the generic ops every game has (``hello``, ``new``,
``state``, ``action``, ``moves``, ``apply``, ``chance``, ``quit``) by asking
a :class:`~dicekit.protocol.Game`; a game adds its own ops (``rolls``,
``perft`` and ``explain``, say), or answers a generic op its own way,
by handing :class:`Server` a mapping of ops.  A game object may offer them
itself by providing :class:`ServesOps`.  :func:`serve` reads requests from
one stream and writes the answers to another until ``quit`` or the end of
input.  Neither ever raises on what it is given: every line read gets exactly
one answer, an error answer if the line is not a request.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable, Mapping
from typing import IO, Any, Protocol, TextIO

from dicekit.conformance.lines import MAX_SAFE_INTEGER, LineError, decode, lines
from dicekit.errors import GameError, NotationError, RuleError
from dicekit.protocol import JSON, Capability, Game, capable

__all__ = [
    "PROTOCOL_VERSION",
    "BadRequest",
    "Message",
    "Op",
    "Server",
    "ServesOps",
    "field",
    "refusal",
    "serve",
]

#: The protocol version the layer speaks.
PROTOCOL_VERSION = 1

#: One request or answer of the protocol, as JSON.
Message = dict[str, Any]
#: Answers one request: returns the fields of a successful answer, or raises a
#: :class:`~dicekit.errors.RuleError` (a refusal under a rule) or :class:`BadRequest`.
Op = Callable[[Message], Message]


class BadRequest(Exception):
    """A request that does not follow the protocol (not a rules question): ``rule`` is null."""


class ServesOps(Protocol):
    """:attr:`~dicekit.protocol.Capability.SERVES_OPS`: ops of the game's own for its port.

    ``port_ops`` returns the game's ops by name (they may replace generic
    ones); ``port_supports`` the ``supports`` object of the reference port's
    ``hello``.
    """

    def port_ops(self) -> Mapping[str, Op]:
        """Return the game's own ops by name."""
        ...

    def port_supports(self) -> Mapping[str, JSON]:
        """Return what the reference port declares in ``hello`` under ``supports``."""
        ...


def field(request: Message, key: str, kind: type) -> Any:
    """Return ``request[key]`` if it is a ``kind``; raise :class:`BadRequest` naming it otherwise.

    >>> field({"op": "moves", "state": "x"}, "state", str)
    'x'
    >>> field({"op": "moves"}, "state", str)
    Traceback (most recent call last):
    ...
    dicekit.conformance.serve.BadRequest: op 'moves' needs 'state' (str)
    """
    value = request.get(key)
    if not isinstance(value, kind):
        raise BadRequest(f"op {request.get('op')!r} needs {key!r} ({kind.__name__})")
    return value


def refusal(seq: int | None, message: str, rule: str | None = None) -> Message:
    """Return the answer that refuses a request: ``ok`` false, the ``rule`` and the message.

    >>> refusal(None, "an empty line")
    {'seq': None, 'ok': False, 'error': {'rule': None, 'message': 'an empty line'}}
    """
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


class Server:
    """The reference port of ``game``: the generic ops, and the game's own in ``ops``.

    ``name`` is the port's name in ``hello`` (by default the game's name and
    ``reference engine (Python)``), ``supports`` its ``supports`` object (by
    default the player counts of the game), ``program`` the name an internal
    error is logged under on standard error.  When ``ops`` is not given and
    the game declares :class:`ServesOps`, the game's ops and supports are used.
    """

    def __init__(
        self,
        game: Game[Any, Any, Any],
        *,
        ops: Mapping[str, Op] | None = None,
        supports: Mapping[str, JSON] | None = None,
        name: str | None = None,
        program: str = "serve",
    ) -> None:
        self.game = game
        info = game.info
        own = capable(game, Capability.SERVES_OPS)
        if ops is None and own is not None:
            ops = own.port_ops()
            supports = own.port_supports() if supports is None else supports
        self.name = name or f"{info.name} reference engine (Python)"
        players = list(range(info.min_players, info.max_players + 1))
        self.supports: Mapping[str, JSON] = {"players": players} if supports is None else supports
        self.program = program
        self.ops: dict[str, Op] = {
            "hello": self._hello,
            "new": self._new,
            "state": self._state,
            "action": self._action,
            "moves": self._moves,
            "apply": self._apply,
            "chance": self._chance,
            "quit": lambda request: {},
            **(ops or {}),
        }

    # -- the generic ops ---------------------------------------------------------------
    def _hello(self, request: Message) -> Message:
        return {
            "protocol": PROTOCOL_VERSION,
            "name": self.name,
            "game": self.game.info.name,
            "supports": dict(self.supports),
        }

    def _new(self, request: Message) -> Message:
        game = self.game
        config = game.config_from_json(request.get("config", {}))
        return {"state": game.format_state(game.new_game(config, request.get("first_player", 0)))}

    def _state(self, request: Message) -> Message:
        game = self.game
        if "json" in request:
            state = game.state_from_json(request["json"])
        else:
            state = game.parse_state(field(request, "text", str))
        return {"state": game.format_state(state), "json": game.state_to_json(state)}

    def _action(self, request: Message) -> Message:
        game = self.game
        if "json" in request:
            action = game.action_from_json(request["json"])
        else:
            action = game.parse_action(field(request, "text", str))
        return {"action": game.format_action(action), "json": game.action_to_json(action)}

    def _moves(self, request: Message) -> Message:
        game = self.game
        state = game.parse_state(field(request, "state", str))
        return {"moves": [game.format_action(a) for a in game.legal_actions(state)]}

    def _apply(self, request: Message) -> Message:
        game = self.game
        state = game.parse_state(field(request, "state", str))
        action = game.parse_action(field(request, "action", str))
        stepper = capable(game, Capability.STEPPING)
        if stepper is not None:
            after, event = stepper.step(state, action)
            return {"state": game.format_state(after), "event": event}
        return {"state": game.format_state(game.apply(state, action))}

    def _chance(self, request: Message) -> Message:
        game = self.game
        state = game.parse_state(field(request, "state", str))
        return {
            "outcomes": [
                {"action": game.format_action(a), "p": [p.numerator, p.denominator]}
                for a, p in game.chance_outcomes(state)
            ]
        }

    # -- answering -----------------------------------------------------------------------
    def handle(self, request: object) -> Message:
        """Return the response to one request object (``spec/protocol.md``); never raise.

        A request that is not an object, or whose ``seq`` is not an integer, gets
        ``"seq": null``.  An exception that is not a rules error (a defect of the
        engine) is answered as an internal error and logged on standard error.
        """
        if not isinstance(request, dict):
            return refusal(None, f"the request is not a JSON object: {_shown(request)}")
        seq = request.get("seq")
        if not _valid_seq(seq):
            return refusal(
                None,
                f"seq must be an integer within ±(2**53 - 1), not {_shown(seq)}"
                if "seq" in request
                else "the request has no seq",
            )
        op = request.get("op")
        answer = self.ops.get(op) if isinstance(op, str) else None
        try:
            if answer is None:
                raise BadRequest(f"unknown op {_shown(op)}")
            result = answer(request)
        except RuleError as exc:
            error: Message = {"rule": exc.rule, "message": str(exc)}
            if isinstance(exc, NotationError) and op in ("state", "action") and "text" in request:
                error["at"] = exc.position
            return {"seq": seq, "ok": False, "error": error}
        except (BadRequest, GameError) as exc:
            return refusal(seq, str(exc))
        except Exception as exc:  # the request boundary: every request gets an answer
            return internal_error(seq, op, exc, self.program)
        return {"seq": seq, "ok": True, **result}


def internal_error(seq: object, op: object, exc: BaseException, program: str) -> Message:
    """Answer, and log on standard error under ``program``, an exception no rule accounts for."""
    where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
    place = f" at {where[0].filename}:{where[0].lineno}" if where else ""
    try:
        detail = str(exc)[:200]
    except Exception:  # a message that cannot be shown is left out
        detail = ""
    text = f"internal error answering op {_shown(op)}: {type(exc).__name__}: {detail}"
    print(f"{program}: {text}{place}", file=sys.stderr, flush=True)
    return refusal(seq if type(seq) is int and _valid_seq(seq) else None, text)


def _respond(
    line: bytes | LineError, answer: Callable[[object], Message], program: str
) -> tuple[str, bool]:
    """Return the answer line to one input line, and whether it ends the session."""
    try:
        if isinstance(line, LineError):
            raise line
        request = decode(line)
    except LineError as exc:
        return _encode(refusal(exc.seq, f"malformed request: {exc.message}"), program), False
    try:
        response = answer(request)
    except Exception as exc:  # a custom ``answer`` may raise; the port still answers
        seq = request.get("seq") if isinstance(request, dict) else None
        op = request.get("op") if isinstance(request, dict) else None
        response = internal_error(seq, op, exc, program)
    done = isinstance(request, dict) and request.get("op") == "quit" and response.get("ok") is True
    return _encode(response, program), done


def _encode(response: Message, program: str) -> str:
    """Return ``response`` as one line of strict JSON (ASCII, no ``NaN``), or an internal error."""
    try:
        return json.dumps(response, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        seq = response.get("seq") if isinstance(response, dict) else None
        fallback = internal_error(seq, None, exc, program)
        return json.dumps(fallback, separators=(",", ":"))


def serve(
    answer: Callable[[object], Message],
    stdin: IO[bytes] | None = None,
    stdout: TextIO | None = None,
    *,
    program: str = "serve",
) -> int:
    r"""Answer requests line by line with ``answer`` until ``quit`` or the end of input; return 0.

    ``stdin`` is read as bytes (``sys.stdin.buffer`` by default), so the
    locale plays no part: a line that is not UTF-8 is answered like any other
    malformed line.  ``answer`` answers one request object
    (:meth:`Server.handle`); an internal error is logged under ``program``.

    >>> import io
    >>> out = io.StringIO()
    >>> def answer(request):
    ...     return {"seq": 1, "ok": True}
    >>> serve(answer, io.BytesIO(b'{"seq": 1, "op": "quit"}\n\n'), out)
    0
    >>> print(out.getvalue(), end="")
    {"seq":1,"ok":true}
    """
    source = sys.stdin.buffer if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout
    for line in lines(source):
        text, done = _respond(line, answer, program)
        sink.write(text + "\n")
        sink.flush()
        if done:
            break
    return 0
