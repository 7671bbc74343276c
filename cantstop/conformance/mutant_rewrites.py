"""Seeded bugs that rewrite a request before the reference port answers it, or its answer.

Each function is one bug's answer to a request, given the request and the
reference port (:data:`~cantstop.conformance.mutant_rolls.Respond`): it asks
the reference, perhaps with the request changed (a board one space short, a
first player ignored), and changes only what the bug changes in the answer
(the next player, a square left low, the text of a roll).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from cantstop.actions import Move
from cantstop.board import STANDARD_HEIGHTS
from cantstop.conformance.mutant_rolls import Handler, Message, Respond, position_of
from cantstop.conformance.positions import Position
from cantstop.errors import NotationError
from cantstop.notation import parse_action, parse_state
from cantstop.state import State

__all__ = [
    "bust_keeps_turn",
    "first_player_ignored",
    "json_double_once",
    "json_needs_won",
    "marker_on_own_square",
    "markers_in_play_order",
    "roll_text_sorted",
    "short_columns",
    "squares_stay_low",
    "stop_anytime",
    "turn_backwards",
    "variant_b_ignored",
    "win_target",
    "won_not_cleared",
]


def _ok(request: Message, **fields: Any) -> Message:
    return {"seq": request.get("seq"), "ok": True, **fields}


def _read(text: object) -> Position | None:
    return Position.read(text) if isinstance(text, str) else None


def _stop_of(request: Message) -> tuple[State, Position] | None:
    """Return the state of an ``apply`` of ``stop`` and its text's parts, if it reads."""
    if request.get("action") != "stop" or not isinstance(request.get("state"), str):
        return None
    try:
        state = parse_state(request["state"])
    except NotationError:
        return None
    return state, position_of(state)


def _accepted_stop(request: Message, answer: Message) -> tuple[State, Position, Position] | None:
    """Return a stop's state, its parts and the parts of the state after, if ``answer`` took it."""
    found = _stop_of(request)
    after = _read(answer.get("state"))
    if found is None or after is None or answer.get("ok") is not True:
        return None
    return found[0], found[1], after


def _rewritten(answer: Message, change: Callable[[Position], Position]) -> Message:
    """Return ``answer`` with its state's text changed by ``change``."""
    position = _read(answer.get("state"))
    if answer.get("ok") is not True or position is None:
        return answer
    return {**answer, "state": change(position).text()}


def _won_by(state: State, position: Position, player: int) -> int:
    """Return how many columns ``player`` holds on their top space in ``position``."""
    heights = state.rules.heights
    return sum(space == heights.get(column) for column, space in position.squares[player])


def _with_square(position: Position, player: int, column: int, space: int | None) -> Position:
    """Return ``position`` with ``player``'s square in ``column`` on ``space`` (``None``: none)."""
    cells = dict(position.squares[player])
    if space is None:
        cells.pop(column, None)
    else:
        cells[column] = space
    squares = list(position.squares)
    squares[player] = tuple(sorted(cells.items()))
    return replace(position, squares=tuple(squares))


def _others_kept(after: Position, before: Position, player: int, column: int) -> Position:
    """Return ``after`` with the squares of every player but ``player`` in ``column`` as before."""
    for other, cells in enumerate(before.squares):
        if other != player and column in dict(cells):
            after = _with_square(after, other, column, dict(cells)[column])
    return after


def _decided(state: State, answer: Message, position: Position, target: int) -> Message:
    """Return the answer of a stop whose game is won exactly when ``target`` columns are held."""
    me = state.player
    won = _won_by(state, position, me) >= target
    if won:
        position = position.with_turn(me, "x")
    elif answer.get("event") == "won" or position.phase == "x":
        position = position.with_turn((me + 1) % state.rules.players, "r")
    return {**answer, "state": position.text(), "event": "won" if won else "stopped"}


_SHORT = {column: height - 1 for column, height in STANDARD_HEIGHTS.items()}
_STANDARD = {str(column): height for column, height in STANDARD_HEIGHTS.items()}
_SHORT_OPTION = "h" + ",".join(f"{c}:{h}" for c, h in _SHORT.items())


def short_columns(request: Message, reference: Handler) -> Message:
    """Answer as if every column of the standard board were one space short (R1.1).

    The port reads a state as the reference does, then refuses a piece above
    the top of its short column (R16.2).  It counts a column as won by a square
    on the short top, and leaves the others' squares in it where they are.
    """
    sent = dict(request)
    kept: list[tuple[int, int, int]] = []
    for key in ("state", "text"):
        position = _read(request.get(key))
        if position is None or any(o.startswith("h") for o in position.options):
            continue
        short, kept = _shortened(position)
        try:
            parse_state(request[key])
            parse_state(short.text())
        except NotationError as exc:
            if exc.text != short.text():
                return reference(request)
            if exc.rule == "R10.1" and request.get("op") == "moves":
                return _ok(request, moves=[])  # no sum plays on the short board
            return reference({**request, key: short.text()} if exc.rule == "R16.2" else request)
        sent[key] = short.text()
    for key in ("rules", "json"):
        data = sent.get(key)
        inside = key == "json" and isinstance(data, dict)
        rules = data.get("rules") if inside and isinstance(data, dict) else data
        if isinstance(rules, dict) and rules.get("heights", _STANDARD) == _STANDARD:
            shortened = {**rules, "heights": _heights(_SHORT)}
            sent[key] = (
                {**data, "rules": shortened} if inside and isinstance(data, dict) else shortened
            )
    answer = reference(sent)
    position = _read(answer.get("state"))
    if position is not None and position.options[:1] == (_SHORT_OPTION,):
        position = replace(position, options=position.options[1:])
        for player, column, space in kept:
            if column not in dict(position.squares[player]):
                position = _with_square(position, player, column, space)
        answer["state"] = position.text()
    data = answer.get("json")
    rules = data.get("rules") if isinstance(data, dict) else None
    if isinstance(rules, dict) and rules.get("heights") == _heights(_SHORT):
        rules["heights"] = _STANDARD
    return answer


def _heights(heights: Mapping[int, int]) -> dict[str, int]:
    return {str(column): height for column, height in heights.items()}


def _shortened(position: Position) -> tuple[Position, list[tuple[int, int, int]]]:
    """Return ``position`` on the short board, without the squares left in won columns."""
    owners = {c: p for p, cells in enumerate(position.squares) for c, v in cells if v == _SHORT[c]}
    kept = [
        (p, c, v)
        for p, cells in enumerate(position.squares)
        for c, v in cells
        if c in owners and owners[c] != p
    ]
    short = replace(position, options=(_SHORT_OPTION, *position.options))
    for player, column, _ in kept:
        short = _with_square(short, player, column, None)
    return short, kept


def first_player_ignored(request: Message, reference: Handler) -> Message:
    """Start every new game with player 0 (R2.2)."""
    return reference({**request, "first_player": 0})


def turn_backwards(request: Message, reference: Handler) -> Message:
    """Pass the turn to the previous player after a stop or a bust (R2.3)."""
    answer = reference(request)
    if answer.get("event") not in ("stopped", "busted"):
        return answer
    return _rewritten(
        answer, lambda p: p.with_turn((p.player - 2) % len(p.squares), p.phase, p.dice)
    )


def bust_keeps_turn(request: Message, reference: Handler) -> Message:
    """Leave the turn with the player who busted (R10.2)."""
    answer = reference(request)
    before = _read(request.get("state"))
    if answer.get("event") != "busted" or before is None:
        return answer
    return _rewritten(answer, lambda p: p.with_turn(before.player, p.phase))


def stop_anytime(phase: str) -> Respond:
    """Return a bug that accepts a stop in ``phase``: the turn passes, progress kept."""

    def respond(request: Message, reference: Handler) -> Message:
        found = _stop_of(request)
        if found is None or found[1].phase != phase:
            return reference(request)
        state, position = found
        if position.markers:  # the stop of the markers on the board, as after a move
            return reference({**request, "state": position.with_turn(state.player, "d").text()})
        passed = position.with_turn((state.player + 1) % state.rules.players, "r")
        return _ok(request, state=passed.text(), event="stopped")

    return respond


def squares_stay_low(request: Message, reference: Handler) -> Message:
    """Leave a square that is already in a column where it was, at a stop (R11.2)."""
    answer = reference(request)
    stop = _accepted_stop(request, answer)
    if stop is None:
        return answer
    state, before, after = stop
    mine = dict(before.squares[state.player])
    for column, _ in before.markers:
        if column in mine:
            after = _with_square(after, state.player, column, mine[column])
            after = _others_kept(after, before, state.player, column)  # not won after all
    return _decided(state, answer, after, state.rules.columns_to_win)


def won_not_cleared(request: Message, reference: Handler) -> Message:
    """Leave the other players' squares in a column won by a stop (R9.3)."""
    answer = reference(request)
    stop = _accepted_stop(request, answer)
    if stop is None:
        return answer
    state, before, after = stop
    for column, space in before.markers:
        if space == state.rules.heights[column]:
            after = _others_kept(after, before, state.player, column)
    return {**answer, "state": after.text()}


def win_target(target: Callable[[State], int]) -> Respond:
    """Return a bug that ends the game when the stopping player holds ``target`` columns."""

    def respond(request: Message, reference: Handler) -> Message:
        answer = reference(request)
        stop = _accepted_stop(request, answer)
        if stop is None:
            return answer
        state, _, after = stop
        return _decided(state, answer, after, target(state))

    return respond


def variant_b_ignored(request: Message, reference: Handler) -> Message:
    """Accept a stop on a shared space under Variant B (R14.2)."""
    position = _read(request.get("state"))
    if request.get("action") != "stop" or position is None or "B" not in position.options:
        return reference(request)
    plain = replace(position, options=tuple(o for o in position.options if o != "B")).text()
    answer = reference({**request, "state": plain})
    return _rewritten(answer, lambda p: replace(p, options=(*p.options, "B")))


def marker_on_own_square(request: Message, reference: Handler) -> Message:
    """Read a state whose marker is not above its player's square (R16.3)."""
    answer = reference(request)
    error = answer.get("error")
    if "text" in request and isinstance(error, dict) and error.get("rule") == "R16.3":
        return _ok(request, state=request["text"], json=None)
    return answer


def markers_in_play_order(request: Message, reference: Handler) -> Message:
    """Write the markers after a move in the order they were placed (N1.3)."""
    answer = reference(request)
    before = _read(request.get("state"))
    if before is None or not isinstance(request.get("action"), str):
        return answer
    try:
        move = parse_action(request["action"])
    except NotationError:
        return answer
    if not isinstance(move, Move):
        return answer
    order = [c for c, _ in before.markers] + [c for c in move.columns]
    return _rewritten(
        answer,
        lambda p: replace(
            p, markers=tuple(sorted(p.markers, key=lambda cell: order.index(cell[0])))
        ),
    )


def roll_text_sorted(request: Message, reference: Handler) -> Message:
    """Write a roll with its dice sorted (N2.2)."""
    answer = reference(request)
    text = answer.get("action")
    if isinstance(text, str) and text.startswith("r"):
        answer["action"] = "r" + "".join(sorted(text[1:]))
    return answer


def json_needs_won(request: Message, reference: Handler) -> Message:
    """Refuse a state's JSON form without ``won`` and ``winner`` (N3.1)."""
    data = request.get("json")
    if isinstance(data, dict):
        for key in ("won", "winner"):
            if key not in data:
                error = {"rule": "N3.1", "message": f"a state needs {key!r}"}
                return {"seq": request.get("seq"), "ok": False, "error": error}
    return reference(request)


def json_double_once(request: Message, reference: Handler) -> Message:
    """Write the JSON form of a move of equal sums with the column once (N3.2)."""
    answer = reference(request)
    data = answer.get("json")
    if isinstance(data, dict) and data.get("type") == "move":
        data["columns"] = sorted(set(data["columns"]))
    return answer
