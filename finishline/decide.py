"""The rules' decisions: what each roll allows in a position, and why anything else is refused.

This module is where R4 to R8 are decided, once, on plain values: a board is
a tuple of 24 entries, one per cell in the order of :class:`~finishline.board.Cell`,
each the number of the player whose counter stands there or ``None``.  The
engine (:mod:`finishline.state`) asks it for the legal actions of a roll and
their outcomes, and for the reason an action is refused; nothing else in the
package decides a rule.

A *step* is one die's use: placing a counter on a cell (R5) or moving the
counter on a cell forward (R6).  Plays are found by trying every step of one
die and then every step of the other on the board the first leaves, in both
orders (R4.4); only the plays that use the most dice are kept (R4.5).

Given a :class:`Trace`, the same functions also record the rules their
decisions applied: the rules that refused an action that would otherwise be
offered, those that made each legal action legal, and those that decide the
list as a whole.  The rule tags of the conformance suite
(:meth:`finishline.state.State.action_rules`) are read from that record.

>>> board = (None,) * 24
>>> actions = legal_actions(board, 0, 6, 0, (3, 3))
>>> [format_move(a) for a in actions][:3], len(actions)
(['+A3,+B3', '+A3,+C3', '+A3,+D3'], 10)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from finishline.actions import Action, Double, Move, Play, Sideways
from finishline.board import CELLS, Board, Cell

__all__ = [
    "Board",
    "Outcome",
    "Trace",
    "diagnose",
    "format_move",
    "legal_actions",
    "play_key",
]

#: What an action leaves: the board, and the number of the player's counters across.
Outcome: TypeAlias = tuple[Board, int]

#: A step: whether it places a counter (or moves one), and the cell's index.
_Step: TypeAlias = tuple[bool, int]

#: A step refused, with the rule that refused it.
_Refusal: TypeAlias = tuple[str, _Step]

_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n.value for n in cell.neighbours) for cell in CELLS
)
_ROW_CELLS: dict[int, range] = {row: range((row - 1) * 4, row * 4) for row in range(1, 7)}


@dataclass(slots=True)
class Trace:
    """The rules that the decisions about one roll applied, recorded by :func:`legal_actions`.

    A rule is recorded where it decided something that could have gone the
    other way: it refused an action that would otherwise be offered, or it
    made an action legal or decided what the action leaves.

    >>> trace = Trace()
    >>> board = tuple(0 if c == 2 else None for c in range(24))   # player 0 on C1
    >>> [format_move(a) for a in legal_actions(board, 0, 0, 5, (1, 4), trace)]
    ['C1^']
    >>> sorted(trace.refused), sorted(trace.needed), sorted(trace.grants[Play((Move(Cell.C1),))])
    (['R5.1', 'R7.1', 'R8.3'], ['R4.5', 'R6.1', 'R6.5'], ['R4.5', 'R5.1', 'R6.1', 'R6.5'])
    """

    #: The rules that decide which actions the roll offers and in which order.
    choice: set[str] = field(default_factory=set)
    #: The rules that refused an action the roll would otherwise offer: each, broken
    #: alone, would offer one more.  When nothing is offered, they decide the forfeit.
    refused: set[str] = field(default_factory=set)
    #: The rules without any one of which the roll would offer nothing (R9.1).
    needed: set[str] = field(default_factory=set)
    #: For each legal action, the rules that make it legal and decide what it leaves.
    grants: dict[Action, set[str]] = field(default_factory=dict)
    #: The rules without any one of which no play would use both dice: where a play
    #: uses both, they decide that a play of one die is refused (R4.5).
    pairs_need: set[str] = field(default_factory=set)


def _steps(
    board: Board, me: int, hand: int, die: int, refused: list[_Refusal] | None = None
) -> list[_Step]:
    """Every use of one die (R4.2): a placement in its row (R5), or a counter of it moved (R6).

    With ``refused``, each step that a single rule refuses is added to it with that rule.
    """
    out: list[_Step] = []
    for c in _ROW_CELLS[die]:
        owner = board[c]
        if owner is None:
            if hand:
                out.append((True, c))
            elif refused is not None:
                refused.append(("R5.1", (True, c)))
            continue
        free = c < 4 or board[c - 4] is None  # row 1 crosses (R6.5)
        if owner == me:
            if free:
                out.append((False, c))
            elif refused is not None:
                refused.append(("R6.4", (False, c)))
        elif refused is not None and free:
            refused.append(("R6.1", (False, c)))
        if refused is not None and hand:
            refused.append(("R5.2", (True, c)))
    return out


def _step_rules(step: _Step) -> tuple[str, ...]:
    """Return the rules that decide where a step puts its counter: R6.1 moves it, R6.5 across."""
    enter, c = step
    if enter:
        return ()
    return ("R6.1", "R6.5") if c < 4 else ("R6.1",)


def _do(board: Board, me: int, hand: int, across: int, step: _Step) -> tuple[Board, int, int]:
    """Return the board, hand and count across after one step."""
    enter, c = step
    cells = list(board)
    if enter:
        cells[c] = me
        return tuple(cells), hand - 1, across
    cells[c] = None
    if c < 4:
        return tuple(cells), hand, across + 1
    cells[c - 4] = me
    return tuple(cells), hand, across


_MOVES: dict[tuple[int, int, int], Move] = {}
_PLAYS: dict[tuple[tuple[int, int, int], ...], Play] = {}


def _play(*keys: tuple[int, int, int]) -> Play:
    """Return the play of the moves with ``keys`` (enter, cell, rows), made once and reused."""
    ordered = tuple(sorted(keys))
    play = _PLAYS.get(ordered)
    if play is None:
        moves = []
        for key in ordered:
            move = _MOVES.get(key)
            if move is None:
                move = _MOVES[key] = Move(Cell(key[1]), enter=bool(key[0]), rows=key[2])
            moves.append(move)
        play = _PLAYS[ordered] = Play(tuple(moves))
    return play


def _joined(first: _Step, second: _Step) -> str | None:
    """Return the rule under which two steps move one counter (R8.2, R6.3), or ``None``."""
    enter, c = first
    enter2, c2 = second
    if enter2 or c2 != (c if enter else c - 4):
        return None
    if enter:
        return "R8.2"  # the placed counter moves on
    return "R6.3" if c >= 4 else None  # the same counter twice; from row 1 it is across


def _play_of(first: _Step, second: _Step | None) -> Play:
    """Name a sequence of steps by what each counter does (N2.3)."""
    enter, c = first
    if second is None:
        return _play((int(enter), c, 0 if enter else 1))
    joined = _joined(first, second)
    if joined is not None:
        return _play((1, c, 1) if joined == "R8.2" else (0, c, 2))
    enter2, c2 = second
    return _play((int(enter), c, 0 if enter else 1), (int(enter2), c2, 0 if enter2 else 1))


def _plays(
    board: Board,
    me: int,
    hand: int,
    across: int,
    dice: tuple[int, int],
    trace: Trace | None = None,
) -> dict[Action, Outcome]:
    """Return the legal plays of the dice and what each leaves (R4.2 to R4.5, R5, R6, R8)."""
    a, b = dice
    both: dict[Action, Outcome] = {}
    firsts: list[_Refusal] | None = None if trace is None else []
    seconds: list[tuple[str, Play]] = []
    orders: list[set[Action]] = []
    for first, second in ((a, b),) if a == b else ((a, b), (b, a)):
        found: set[Action] = set()
        for step in _steps(board, me, hand, first, firsts):
            board1, hand1, across1 = _do(board, me, hand, across, step)
            later: list[_Refusal] | None = None if trace is None else []
            for step2 in _steps(board1, me, hand1, second, later):
                board2, _, across2 = _do(board1, me, hand1, across1, step2)
                play = _play_of(step, step2)
                both[play] = (board2, across2)
                if trace is not None:
                    found.add(play)
                    trace.grants[play] = {
                        *_step_rules(step),
                        *_step_rules(step2),
                        *filter(None, [_joined(step, step2)]),
                    }
            if later:  # the play each refused second step would make (none places twice)
                seconds += [(rule, _play_of(step, s)) for rule, s in later if s != step]
        orders.append(found)
    if both:
        if trace is not None:
            trace.refused.update(rule for rule, play in seconds if play not in both)
            trace.pairs_need = set.intersection(*(trace.grants[play] for play in both))
            if len(orders) == 2:
                for single in orders[0] ^ orders[1]:  # legal in one order of the dice only
                    trace.grants[single].add("R4.4")
                if not orders[0] or not orders[1]:
                    trace.pairs_need.add("R4.4")
        return both
    one: dict[Action, Outcome] = {}
    stuck: set[int] = set()  # the dice that cannot be used at all
    for die in {a, b}:
        steps = _steps(board, me, hand, die)
        if not steps:
            stuck.add(die)
        for step in steps:
            board1, _, across1 = _do(board, me, hand, across, step)
            play = _play_of(step, None)
            one[play] = (board1, across1)
            if trace is not None:
                trace.grants[play] = {*_step_rules(step), "R4.5"}
    if trace is not None:
        assert firsts is not None
        trace.refused.update(rule for rule, _ in firsts)
        trace.refused.update(rule for rule, _ in seconds)
        # A play of one die is legal because no play uses both: the refusals of a second
        # step decide that, and so do those of a die with nothing to do where the step they
        # refuse would leave the other die something to do.
        pairing = {rule for rule, _ in seconds}
        for rule, step in firsts:
            if step[1] // 4 + 1 in stuck and rule not in pairing:
                board1, hand1, _ = _do(board, me, hand, across, step)
                if any(_steps(board1, me, hand1, die) for die in {a, b} - {step[1] // 4 + 1}):
                    pairing.add(rule)
        for single in one:
            trace.grants[single] |= pairing
    return one


def play_key(action: Action) -> tuple[object, ...]:
    """Return ``action``'s place in the order of legal actions (N2.6)."""
    if isinstance(action, Play):
        return (0, tuple(move.key for move in action.moves))
    if isinstance(action, Sideways):
        return (1, action.cell.value, action.to.value)
    if isinstance(action, Double):
        return (2, action.cell.value)
    raise TypeError(f"not a player's action: {action!r}")


def legal_actions(
    board: Board,
    me: int,
    hand: int,
    across: int,
    dice: tuple[int, int],
    trace: Trace | None = None,
) -> dict[Action, Outcome]:
    """Return every legal action for ``dice``, in the order of N2.6, with what each leaves.

    ``me`` is the player to act, ``hand`` and ``across`` that player's
    counters in hand and across.  An empty result means the roll forfeits
    the turn (R9.1).  With ``trace``, the rules the decisions applied are
    recorded in it.
    """
    found = _plays(board, me, hand, across, dice, trace)
    plays = list(found)
    a, b = dice
    mine = [c for c in range(24) if board[c] == me]
    if a + b == 7:  # R7.1
        for c in mine:
            for n in _NEIGHBOURS[c]:
                if board[n] is None:
                    cells = list(board)
                    cells[c], cells[n] = None, me
                    step = Sideways(CELLS[c], CELLS[n])
                    found[step] = (tuple(cells), across)
                    if trace is not None:  # with no play, R7.4 keeps the step from a forfeit
                        trace.grants[step] = {"R7.1", "R7.2"} if plays else {"R7.1", "R7.2", "R7.4"}
                elif trace is not None:
                    trace.refused.add("R7.1")  # onto an occupied cell
    elif trace is not None and any(board[n] is None for c in mine for n in _NEIGHBOURS[c]):
        trace.refused.add("R7.1")  # a sideways step needs a 7
    if (
        trace is not None
        and a + b == 7
        and any(
            owner not in (None, me) and any(board[n] is None for n in _NEIGHBOURS[c])
            for c, owner in enumerate(board)
        )
    ):
        trace.refused.add("R7.1")  # another player's counter
    if a == b:  # R8.3
        for c in mine:
            if c < 4 or board[c - 4] is None:
                after = _do(board, me, hand, across, (False, c))
                advance = Double(CELLS[c])
                found[advance] = (after[0], after[2])
                if trace is not None:  # beside a play, R8.4 keeps it open
                    trace.grants[advance] = {"R8.3", *_step_rules((False, c))[1:]}
                    if plays:
                        trace.grants[advance].add("R8.4")
            elif trace is not None:
                trace.refused.add("R6.4")
        if trace is not None and any(
            owner not in (None, me) and (c < 4 or board[c - 4] is None)
            for c, owner in enumerate(board)
        ):
            trace.refused.add("R8.3")  # another player's counter
    elif trace is not None and any(c < 4 or board[c - 4] is None for c in mine):
        trace.refused.add("R8.3")  # a double advance needs a double
    if trace is not None:
        _summarise(trace, board, me, hand, dice, plays, found)
    return {action: found[action] for action in sorted(found, key=play_key)}


def _placed_and_moved(action: Action) -> bool:
    """Whether ``action`` is a play of one counter placed and moved on with a double (R8.2)."""
    if not isinstance(action, Play) or len(action.moves) != 1:
        return False
    move = action.moves[0]
    return move.enter and move.rows == 1


def _summarise(
    trace: Trace,
    board: Board,
    me: int,
    hand: int,
    dice: tuple[int, int],
    plays: list[Action],
    found: Mapping[Action, Outcome],
) -> None:
    """Record the rules that decide the list of legal actions as a whole, and those it needs."""
    a, b = dice
    elsewhere = [s for row in _ROW_CELLS if row not in dice for s in _steps(board, me, hand, row)]
    if elsewhere:
        trace.refused.add("R4.2")  # a die acts on its own row only
        if plays and all(len(trace.grants[p] & {"R4.5"}) for p in plays):
            for step in elsewhere:  # a step elsewhere that would leave a die something to do
                board1, hand1, _ = _do(board, me, hand, 0, step)
                if any(_steps(board1, me, hand1, die) for die in dice):
                    for play in plays:
                        trace.grants[play].add("R4.2")
                    break
    choice = trace.choice
    choice.update(trace.refused)
    if plays:
        choice.add("R4.5")  # both dice when both can be used, else one
        if a == b and not all(map(_placed_and_moved, plays)):
            choice.add("R8.1")  # a double is played like two dice
            for play in plays:
                if not _placed_and_moved(play):
                    trace.grants[play].add("R8.1")
    sideways = [x for x in found if isinstance(x, Sideways)]
    doubles = [x for x in found if isinstance(x, Double)]
    if sideways:
        choice.add("R7.4")  # the step beside the plays, or instead of a forfeit
        for play in plays:
            trace.grants[play].add("R7.4")
    if doubles and plays:
        choice.add("R8.4")  # the plays beside the double advance
        for play in plays:
            trace.grants[play].add("R8.4")
    shown = {"R4.4", "R6.1", "R6.3", "R6.5", "R7.1", "R8.2", "R8.3"}
    for action in found:
        choice.update(trace.grants[action] & shown)
    if len(found) > 1:
        choice.add("N2.6")
    # The rules without one of which nothing would be offered: those of the only kind of
    # action there is, and of every first step where all are moves, or all crossings.
    needed = trace.needed
    if not found:
        return
    if sideways and not plays:
        needed.update(("R7.1", "R7.4"))
    if doubles and not plays:
        needed.add("R8.3")
    steps = [s for die in {a, b} for s in _steps(board, me, hand, die)]
    if (
        not sideways
        and all(not enter and c < 4 for enter, c in steps)
        and all(d.cell.row == 1 for d in doubles)
    ):
        needed.add("R6.5")  # every action takes a counter across
    if plays and not sideways and not doubles:
        if all(len(trace.grants[play] & {"R4.5"}) for play in plays):
            needed.add("R4.5")  # plays of one die only
        if not any(enter for enter, _ in steps):
            needed.add("R6.1")  # only moves of counters on the board
        if a == b and not any(map(_placed_and_moved, plays)):
            needed.add("R8.1")


def format_move(action: Action) -> str:
    """Return the notation of a player's action (N2.3 to N2.5)."""
    if isinstance(action, Play):
        return ",".join(move.text for move in action.moves)
    if isinstance(action, Sideways):
        return f"{action.cell.name}-{action.to.name}"
    if isinstance(action, Double):
        return f"double:{action.cell.name}"
    raise TypeError(f"not a player's action: {action!r}")


# -- why an action is refused ------------------------------------------------------


def diagnose(
    board: Board,
    me: int,
    hand: int,
    dice: tuple[int, int],
    action: Action,
    legal: Mapping[Action, Outcome],
    why: set[str] | None = None,
) -> tuple[str, str]:
    """Return the rule and the reason that refuse ``action``, which is not in ``legal``.

    The checks follow R4.6: for a play, the dice it needs (R4.2), the
    counters it names on the board (R6.1), its steps in the order written
    (R5.1, R5.2, R6.4), and the dice it leaves unused (R4.5); for a sideways
    step and a double advance, the roll, the counter and the cell it moves
    into (R7.1, R8.3, R6.4).  With ``why``, R4.6 is added to it where the
    order of the checks decides the rule: where the checks in the reverse
    order, or a play's steps taken in the reverse order, would name another.
    """
    a, b = dice
    if isinstance(action, Play):
        checks = _play_checks(board, me, hand, dice, action)
        rule, reason = next(found for found in checks if found is not None)
        if why is not None:
            backwards = _play_checks(board, me, hand, dice, action, backwards=True)
            reverse = [*checks[2::-1], checks[3]]
            if next(found for found in reverse if found is not None)[0] != rule or (
                next(found for found in backwards if found is not None)[0] != rule
            ):
                why.add("R4.6")
    elif isinstance(action, Sideways):
        if a + b != 7:
            rule, reason = "R7.1", f"a sideways step needs dice totalling 7, not {a} and {b}"
        elif board[action.cell] != me:
            rule, reason = "R7.1", f"{action.cell} holds no counter of player {me}"
        else:
            rule, reason = "R7.1", f"{action.to} is not empty"
    elif isinstance(action, Double):
        cell = action.cell
        blocked = cell >= 4 and board[cell - 4] is not None
        if a != b:
            rule, reason = "R8.3", f"a double advance needs a double, not {a} and {b}"
        elif board[cell] != me:
            rule, reason = "R8.3", f"{cell} holds no counter of player {me}"
        else:
            rule, reason = "R6.4", _blocked(cell)
        if why is not None and rule == "R8.3" and blocked:
            why.add("R4.6")  # checked first, the blocking would name R6.4
    else:  # pragma: no cover - the engine sends player's actions only
        raise TypeError(f"not a player's action: {action!r}")
    return rule, f"{format_move(action)} is refused: {reason}; legal: {_listing(legal)}"


def _play_checks(
    board: Board,
    me: int,
    hand: int,
    dice: tuple[int, int],
    play: Play,
    backwards: bool = False,
) -> list[tuple[str, str] | None]:
    """Return the outcome of each check of R4.6 on ``play``, in order: a refusal or ``None``.

    The checks are the dice it needs (R4.2), the counters it names (R6.1),
    its steps (the reverse of the written order if ``backwards``) and the
    dice it leaves unused (R4.5), which always refuses, since ``play`` is
    not legal.
    """
    needed = list(play.dice)
    left = list(dice)
    checks: list[tuple[str, str] | None] = [None, None]
    for die in needed:
        if die not in left:
            checks[0] = (
                "R4.2",
                (f"the play needs {_dice_words(needed)}, and the roll is {dice[0]} and {dice[1]}"),
            )
            break
        left.remove(die)
    for move in play.moves:
        if not move.enter and board[move.cell] != me:
            checks[1] = "R6.1", f"{move.cell} holds no counter of player {me}"
            break
    moves = play.moves[::-1] if backwards else play.moves
    checks.append(_walk(board, me, hand, moves))
    checks.append(("R4.5", "it leaves a die unused that can be used"))
    return checks


def _walk(board: Board, me: int, hand: int, moves: Sequence[Move]) -> tuple[str, str] | None:
    """Take the steps of ``moves`` in order; return the first refusal, or ``None``."""
    across = 0
    for move in moves:
        c = move.cell.value
        steps: list[_Step] = []
        if move.enter:
            steps.append((True, c))
            if move.rows:
                steps.append((False, c))
        else:
            steps.append((False, c))
            if move.rows == 2:
                steps.append((False, c - 4))
        for enter, cell in steps:
            name = CELLS[cell].name
            if enter:
                if hand == 0:
                    return "R5.1", f"player {me} has no counter in hand to place on {name}"
                if board[cell] is not None:
                    return "R5.2", f"{name} holds a counter"
            else:
                if board[cell] != me:
                    return "R6.1", f"{name} holds no counter of player {me}"
                if cell >= 4 and board[cell - 4] is not None:
                    return "R6.4", _blocked(CELLS[cell])
            board, hand, across = _do(board, me, hand, across, (enter, cell))
    return None


def _blocked(cell: Cell) -> str:
    above = cell.forward
    return f"{above}, directly above {cell}, holds a counter"


def _dice_words(dice: Sequence[int]) -> str:
    if len(dice) == 1:
        return f"a {dice[0]}"
    return f"a {dice[0]} and a {dice[1]}"


def _listing(legal: Mapping[Action, Outcome], most: int = 12) -> str:
    texts = [format_move(a) for a in legal]
    if len(texts) > most:
        return " ".join(texts[:most]) + f" and {len(texts) - most} more"
    return " ".join(texts) or "none"
