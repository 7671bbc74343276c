"""The finish-line race with one rule broken: mutated decisions, to check the engine's rule tags.

Each :class:`Mutant` breaks one rule of ``finishline/spec/`` in one way: a
plausible misreading (the row wraps round, a double gives another roll),
or the rule left out altogether.  :func:`answer` gives the answer a
protocol port would give to ``moves`` or ``apply`` with the mutant's rule
broken: the legal actions in order, the state and event after an action,
or the rule that refuses it.  With no mutant it is the spec's answer, which
the tests compare with the engine's.

The rules are worked out here from the notation, in the manner of
``oracle.py`` (whose reading and writing of states this module uses): every
play the notation can write from the counters on the board and the dice's
rows is walked step by step, in each order of its moves, and the dice each
walk uses are read off the rows it acts on.  Nothing is taken from the
engine.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, replace

from tests.finishline.oracle import CELLS, LETTERS, Position, ordered, write_state

__all__ = ["BY_RULE", "MUTANTS", "Answer", "Mutant", "answer"]


@dataclass(frozen=True)
class Mutant:
    """One way of breaking one rule."""

    name: str
    rule: str
    does: str


MUTANTS: tuple[Mutant, ...] = (
    Mutant("rolls-listed", "R3.2", "a state about to roll lists the 21 rolls as its moves"),
    Mutant("play-before-roll", "R3.2", "a play before the roll is taken as a pass"),
    Mutant("reroll", "R3.3", "a roll on dice that wait to be played throws them again"),
    Mutant("dice-not-kept", "R3.3", "a roll that can be played leaves the state about to roll"),
    Mutant("turn-stays", "R3.4", "the turn never passes"),
    Mutant("double-rolls-again", "R3.4", "a play on a double gives the player another turn"),
    Mutant("anticlockwise", "R2.5", "the turn passes to the previous player"),
    Mutant("thrown-order", "R4.1", "the dice stay in the order thrown"),
    Mutant("any-row", "R4.2", "a die acts on any row"),
    Mutant("low-first", "R4.4", "the lower die is always used first"),
    Mutant("high-first", "R4.4", "the higher die is always used first"),
    Mutant("one-die-too", "R4.5", "a play may leave a die unused that could be used"),
    Mutant("both-or-nothing", "R4.5", "a play must use both dice"),
    Mutant("checks-reversed", "R4.6", "a refused play's checks are made in the reverse order"),
    Mutant("steps-reversed", "R4.6", "a refused play's steps are taken in the reverse order"),
    Mutant("no-hand-check", "R5.1", "a counter is placed even with none in hand"),
    Mutant("place-on-occupied", "R5.2", "a counter is placed on an occupied cell, removing it"),
    Mutant("move-any-counter", "R6.1", "a die moves any player's counter of its row"),
    Mutant("no-moves", "R6.1", "a die never moves a counter"),
    Mutant("backward", "R6.1", "a die moves a counter one row away from the finish line"),
    Mutant("once-per-turn", "R6.3", "a counter moves at most once a turn"),
    Mutant("no-blocking", "R6.4", "a counter moves into an occupied cell, removing it"),
    Mutant("no-crossing", "R6.5", "a counter in row 1 cannot move"),
    Mutant("crossed-returns", "R6.5", "a counter that crosses the line is not counted across"),
    Mutant("no-sideways", "R7.1", "there is no sideways step"),
    Mutant("sideways-any-total", "R7.1", "the sideways step is open on any roll"),
    Mutant("sideways-any-counter", "R7.1", "the sideways step moves any player's counter"),
    Mutant("sideways-onto-occupied", "R7.1", "the sideways step goes onto an occupied cell"),
    Mutant("sideways-wraps", "R7.1", "the row wraps round: A and D are neighbours"),
    Mutant("sideways-unchecked", "R7.1", "any counter steps onto any neighbour on any roll"),
    Mutant("sideways-keeps-turn", "R7.2", "after a sideways step the player rolls again"),
    Mutant("seven-no-plays", "R7.4", "on a 7 with a sideways step the dice are not played"),
    Mutant("seven-forfeits", "R7.4", "a 7 whose dice cannot be played is forfeited"),
    Mutant("double-only-special", "R8.1", "a double offers only +X^ plays and double advances"),
    Mutant("no-place-and-move", "R8.2", "a counter placed in the play does not move"),
    Mutant("no-double-advance", "R8.3", "there is no double advance"),
    Mutant("double-advance-any-roll", "R8.3", "the double advance is open on any roll"),
    Mutant("double-advance-any-counter", "R8.3", "the double advance moves any counter"),
    Mutant("double-advance-unchecked", "R8.3", "any counter advances on any roll"),
    Mutant("double-advance-when-stuck", "R8.4", "the double advance only when no play exists"),
    Mutant("double-advance-only", "R8.4", "no play where a double advance is open"),
    Mutant("no-forfeit", "R9.1", "a roll with nothing to play waits to be played"),
    Mutant("forfeit-keeps-turn", "R9.2", "after a forfeit the player rolls again"),
    Mutant("never-won", "R10.1", "the game goes on when the last counter crosses"),
    Mutant("hand-ignored", "R10.1", "a player with no counter on the board and one across wins"),
    Mutant("finished-lists-rolls", "R10.2", "a finished game lists the 21 rolls as its moves"),
    Mutant("finished-goes-on", "R10.2", "a finished game takes a roll for its winner"),
    Mutant("reverse-order", "N2.6", "the legal actions are listed in the reverse order"),
)

#: The mutants of each rule.
BY_RULE: dict[str, tuple[Mutant, ...]] = {
    rule: tuple(m for m in MUTANTS if m.rule == rule)
    for rule in dict.fromkeys(m.rule for m in MUTANTS)
}

#: An answer: ``("moves", texts)``, ``("ok", state, event)`` or ``("refused", rule)``.
Answer = tuple[object, ...]

#: A move of a play: whether it places its counter, its cell, and the rows it moves.
_Move = tuple[bool, str, int]

_ROLLS = tuple(f"r{a}{b}" for a in range(1, 7) for b in range(a, 7))


def _row(cell: str) -> int:
    return int(cell[1])


def _next(cell: str, backward: bool) -> str | None:
    """Return the cell a counter moves to: ``None`` across the line, ``""`` off the board."""
    row = _row(cell) + (1 if backward else -1)
    if row == 0:
        return None
    return "" if row == 7 else f"{cell[0]}{row}"


def _text(moves: tuple[_Move, ...]) -> str:
    ordered_moves = sorted(moves, key=lambda m: (m[0], CELLS.index(m[1]), m[2]))
    return ",".join(("+" if e else "") + cell + "^" * rows for e, cell, rows in ordered_moves)


@dataclass
class _Walk:
    """The board while a play's steps are taken."""

    board: dict[str, int]
    across: list[int]
    hand: int
    dice: list[int]


def _walk(pos: Position, moves: tuple[_Move, ...], bug: str) -> _Walk | str:
    """Take the steps of ``moves`` in order; return the walk, or the rule of the first failure."""
    me = pos.player
    w = _Walk(dict(pos.board), list(pos.across), pos.hand(me), [])
    placed: set[str] = set()
    moved: set[str] = set()
    for enter, cell, rows in moves:
        at: str | None = cell
        if enter:
            if w.hand == 0 and bug != "no-hand-check":
                return "R5.1"
            if cell in w.board and bug != "place-on-occupied":
                return "R5.2"
            w.board[cell] = me
            w.hand -= 1
            w.dice.append(_row(cell))
            placed.add(cell)
        for _ in range(rows):
            assert at is not None
            owner = w.board.get(at)
            if bug == "no-moves" or owner is None or (owner != me and bug != "move-any-counter"):
                return "R6.1"
            if at in placed and bug == "no-place-and-move":
                return "R8.2"
            if at in moved and bug == "once-per-turn":
                return "R6.3"
            to = _next(at, bug == "backward")
            if to == "":
                return "R6.1"
            if to is not None and to in w.board and bug != "no-blocking":
                return "R6.4"
            if to is None and bug == "no-crossing":
                return "R6.5"
            w.dice.append(_row(at))
            del w.board[at]
            if to is None:
                if bug != "crossed-returns":
                    w.across[owner] += 1
            else:
                w.board[to] = owner
                moved.add(to)
                if at in placed:
                    placed.add(to)
            at = to
    return w


def _dice_fit(dice: list[int], roll: tuple[int, int], bug: str) -> bool:
    if bug == "any-row":
        return len(dice) <= 2
    return not Counter(dice) - Counter(roll)


def _order_fits(dice: list[int], roll: tuple[int, int], bug: str) -> bool:
    if len(dice) < 2 or roll[0] == roll[1]:
        return True
    if bug == "low-first":
        return dice[0] < dice[1]
    if bug == "high-first":
        return dice[0] > dice[1]
    return True


def _candidates(pos: Position, bug: str) -> list[_Move]:
    rows = set(range(1, 7)) if bug == "any-row" else set(pos.dice or ())
    out: list[_Move] = []
    for cell in CELLS:
        if _row(cell) not in rows:
            continue  # a step uses the die of the row it starts in
        out += [(True, cell, 0), (True, cell, 1)]
        if cell in pos.board:
            out.append((False, cell, 1))
            if _row(cell) > 1:
                out.append((False, cell, 2))
    return out


def _plays(pos: Position, bug: str, every: bool = False) -> dict[str, tuple[Position, int]]:
    """Return every legal play's text with the position it leaves and the dice it uses.

    With ``every``, also the plays whose steps work but that R4.5 (or the mutant) leaves out.
    """
    assert pos.dice is not None
    roll = pos.dice
    found: dict[str, tuple[Position, int]] = {}
    cands = _candidates(pos, bug)
    for size in (1, 2):
        for combo in itertools.combinations(cands, size):
            if size == 2 and combo[0][:2] == combo[1][:2]:
                continue
            for order in itertools.permutations(combo):
                done = _walk(pos, order, bug)
                if isinstance(done, str) or not _dice_fit(done.dice, roll, bug):
                    continue
                if not _order_fits(done.dice, roll, bug):
                    continue
                after = replace(pos, board=done.board, across=done.across)
                found[_text(combo)] = (after, len(done.dice))
                break
    if every:
        return found
    most = max((used for _, used in found.values()), default=0)
    if bug == "both-or-nothing":
        most = 2
    if bug != "one-die-too":
        found = {t: v for t, v in found.items() if v[1] == most}
    if bug == "double-only-special" and roll[0] == roll[1]:
        found = {t: v for t, v in found.items() if t.startswith("+") and t.endswith("^")}
    return found


def _sideways(pos: Position, bug: str) -> dict[str, Position]:
    assert pos.dice is not None
    unchecked = bug == "sideways-unchecked"
    if bug == "no-sideways" or (
        sum(pos.dice) != 7 and bug != "sideways-any-total" and not unchecked
    ):
        return {}
    found = {}
    for cell, owner in pos.board.items():
        if owner != pos.player and bug != "sideways-any-counter" and not unchecked:
            continue
        i = LETTERS.index(cell[0])
        sides = [j for j in (i - 1, i + 1) if 0 <= j < 4]
        if bug == "sideways-wraps":
            sides = [j % 4 for j in (i - 1, i + 1)]
        for j in sides:
            to = f"{LETTERS[j]}{cell[1]}"
            if to in pos.board and bug != "sideways-onto-occupied" and not unchecked:
                continue
            board = dict(pos.board)
            del board[cell]
            board[to] = owner
            found[f"{cell}-{to}"] = replace(pos, board=board)
    return found


def _advances(pos: Position, bug: str) -> dict[str, Position]:
    assert pos.dice is not None
    unchecked = bug == "double-advance-unchecked"
    a, b = pos.dice
    if bug == "no-double-advance" or (
        a != b and bug != "double-advance-any-roll" and not unchecked
    ):
        return {}
    found = {}
    for cell, owner in pos.board.items():
        if owner != pos.player and bug != "double-advance-any-counter" and not unchecked:
            continue
        # Of the mutants of moving, only blocking and crossing apply to the double advance.
        kept = bug if bug in ("no-blocking", "no-crossing", "crossed-returns") else ""
        done = _walk(replace(pos, player=owner), ((False, cell, 1),), kept)
        if not isinstance(done, str):
            found[f"double:{cell}"] = replace(pos, board=done.board, across=done.across)
    return found


def _legal(pos: Position, bug: str) -> dict[str, Position]:
    """Return every legal action of a choosing position with the position it leaves."""
    plays = {t: after for t, (after, _) in _plays(pos, bug).items()}
    sideways = _sideways(pos, bug)
    advances = _advances(pos, bug)
    if bug == "seven-no-plays" and sideways:
        plays = {}
    if bug == "seven-forfeits" and not plays:
        sideways = {}
    if bug == "double-advance-when-stuck" and plays:
        advances = {}
    if bug == "double-advance-only" and advances:
        plays = {}
    return {**plays, **sideways, **advances}


def _moves(pos: Position, bug: str) -> Answer:
    if pos.phase == "r":
        return ("moves", _ROLLS if bug == "rolls-listed" else ())
    if pos.phase == "x":
        return ("moves", _ROLLS if bug == "finished-lists-rolls" else ())
    texts = ordered(list(_legal(pos, bug)))
    return ("moves", tuple(reversed(texts) if bug == "reverse-order" else texts))


def _turn_after(pos: Position, bug: str, again: bool) -> int:
    if bug == "turn-stays" or again:
        return pos.player
    step = -1 if bug == "anticlockwise" else 1
    return (pos.player + step) % pos.players


def _roll(pos: Position, text: str, bug: str) -> Answer:
    thrown = (int(text[1]), int(text[2]))
    dice = thrown if bug == "thrown-order" else (min(thrown), max(thrown))
    choosing = replace(pos, phase="c", dice=(min(thrown), max(thrown)))
    if _legal(choosing, bug) or bug == "no-forfeit":
        if bug == "dice-not-kept":
            return ("ok", write_state(pos), "rolled")
        return ("ok", write_state(replace(choosing, dice=dice)), "rolled")
    if bug == "forfeit-keeps-turn":
        player = pos.player
    else:  # the turn is passed by R9.2, not by the action of R3.4
        player = _turn_after(pos, "" if bug == "turn-stays" else bug, False)
    return ("ok", write_state(replace(pos, player=player)), "forfeited")


def _refusal(pos: Position, text: str, bug: str) -> str:
    """Return the rule that refuses a player's action that is not in ``legal`` (R4.6)."""
    assert pos.dice is not None
    a, b = pos.dice
    me = pos.player
    if "-" in text:  # a sideways step: the total, the counter and the cell beside it
        cell, to = text.split("-")
        free = bug in ("sideways-unchecked",)
        if (a + b != 7 and bug != "sideways-any-total" and not free) or (
            (pos.board.get(cell) != me and bug != "sideways-any-counter" and not free)
            or (to in pos.board and bug != "sideways-onto-occupied" and not free)
        ):
            return "R7.1"
        return BY_RULE_OF[bug]
    if text.startswith("double:"):
        cell = text[7:]
        above = _next(cell, False)
        free = bug == "double-advance-unchecked"
        checks = [
            "R8.3" if a != b and bug != "double-advance-any-roll" and not free else None,
            "R8.3"
            if pos.board.get(cell) != me and bug != "double-advance-any-counter" and not free
            else None,
            "R6.4" if above and above in pos.board and bug != "no-blocking" else None,
        ]
        if bug == "checks-reversed":
            checks.reverse()
        return next((c for c in checks if c), BY_RULE_OF.get(bug, "R8.3"))
    moves = tuple(_read_move(m) for m in text.split(","))
    dice = [d for enter, cell, rows in moves for d in _move_dice(enter, cell, rows)]
    dice_check = None if _dice_fit(dice, (a, b), bug) else "R4.2"
    named = None
    for enter, cell, _ in moves:
        if not enter and pos.board.get(cell) != me and bug != "move-any-counter":
            named = "R6.1"
            break
    walked = _walk(pos, moves[::-1] if bug == "steps-reversed" else moves, bug)
    walk = walked if isinstance(walked, str) else None
    checks = [dice_check, named, walk]
    if bug == "checks-reversed":
        checks.reverse()
    found = next((c for c in checks if c), None)
    if found:
        return found
    # The steps work: another play uses more dice (R4.5), or the mutant leaves the play out.
    most = max((used for _, used in _plays(pos, bug, every=True).values()), default=0)
    if not bug or len(dice) < most:
        return "R4.5"
    return BY_RULE_OF[bug]


def _read_move(text: str) -> _Move:
    enter = text.startswith("+")
    body = text.lstrip("+")
    return (enter, body[:2], body.count("^"))


def _move_dice(enter: bool, cell: str, rows: int) -> list[int]:
    row = _row(cell)
    if enter:
        return [row] * (1 + rows)
    return [row - k for k in range(rows)]


#: The rule each mutant breaks, by name.
BY_RULE_OF: dict[str, str] = {m.name: m.rule for m in MUTANTS}


def answer(pos: Position, op: str, text: str = "", bug: str = "") -> Answer:
    """Return the answer to ``moves`` (``text`` unused) or ``apply`` of ``text``, with ``bug``."""
    if op == "moves":
        return _moves(pos, bug)
    if pos.phase == "x":
        if bug == "finished-goes-on" and text.startswith("r"):
            return _roll(replace(pos, phase="r"), text, bug)
        return ("refused", "R10.2")
    if text.startswith("r"):
        if pos.phase == "c":
            if bug == "reroll":
                return _roll(replace(pos, phase="r", dice=None), text, bug)
            return ("refused", "R3.3")
        return _roll(pos, text, bug)
    if pos.phase == "r":
        if bug == "play-before-roll":
            return ("ok", write_state(replace(pos, player=_turn_after(pos, "", False))), "played")
        return ("refused", "R3.2")
    legal = _legal(pos, bug)
    after = legal.get(text)
    if after is None:
        return ("refused", _refusal(pos, text, bug))
    me = pos.player
    board_mine = sum(1 for owner in after.board.values() if owner == me)
    won = after.across[me] == pos.counters and bug != "never-won"
    if bug == "hand-ignored" and after.across[me] > pos.across[me] and board_mine == 0:
        won = True
    if won:
        return ("ok", write_state(replace(after, phase="x", dice=None)), "won")
    again = (
        bug == "double-rolls-again" and pos.dice is not None and pos.dice[0] == pos.dice[1]
    ) or (bug == "sideways-keeps-turn" and "-" in text)
    player = _turn_after(pos, bug, again)
    return ("ok", write_state(replace(after, player=player, phase="r", dice=None)), "played")
