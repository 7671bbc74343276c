"""The exhaustive link for legal moves: every sorted roll in every situation of its columns.

For each of the 126 sorted rolls, the columns its sums name are given every
combination of the abstract situations a roll cares about (:data:`SITUATIONS`),
with every number of free markers; each case is realised as a concrete
standard-board state (:func:`situation_state`), and the engine's legal moves
(or bust) for the roll must equal the model's (:func:`exhaustive_moves`):
657,927 cases under the standard rules, as many under Variant A.  Rolls share
states, each case still compared exactly once (:func:`comparisons` lists
them); the model is asked pairing by pairing on the projection of the state
that a pairing reads (:func:`model_moves`).
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from cantstop import (
    STANDARD_HEIGHTS,
    Event,
    Phase,
    Roll,
    Rules,
    State,
    Variant,
    format_state,
    roll_outcomes,
)
from dicekit.proofs.solver import PY
from dicekit.proofs.verdicts import LinkReport
from proofs.model import Model
from proofs.render import moves_text
from proofs.state import DECIDE, Config, Vars

__all__ = [
    "SITUATIONS",
    "columns_of",
    "comparisons",
    "exhaustive_moves",
    "model_moves",
    "situation_cases",
    "situation_state",
]

#: The abstract situations of the column a sum names, as far as a roll cares:
#: won by some player; holding the marker with 0, 1, or 2 or more steps left
#: below the top space; holding no marker, with a placement that would land on
#: the top space or below it.
SITUATIONS = ("won", "top", "one-left", "two-left", "place-top", "place-below")

_MARKER_SITUATIONS = frozenset({"top", "one-left", "two-left"})


def _pieces(situation: str, h: int, skip: bool) -> tuple[int | None, int | None, int | None]:
    """Where ``situation`` puts the pieces of a column of height ``h`` that nobody has won.

    The result is the spaces of the marker, of player 0's square and of
    player 1's square (``None``: no such piece).  With ``skip`` (Variant A)
    the steps left and the placement are realised with the opponent's square
    in the way, so that skipping (R14.1) decides them.
    """
    if situation == "top":
        return h, None, None
    if situation == "one-left":  # under A, one step skips the opponent's square onto the top
        return (h - 2, None, h - 1) if skip else (h - 1, None, None)
    if situation == "two-left":  # under A, one step skips one square and stays below the top
        return (h - 3, None, h - 2) if skip and h >= 4 else (h - 2, None, None)
    if situation == "place-top":  # under A, the placement skips the opponent's square
        return (None, h - 2, h - 1) if skip else (None, h - 1, None)
    if situation == "place-below":
        return None, None, None
    raise ValueError(f"unknown situation {situation!r}")


def situation_state(
    situations: Mapping[int, str], free: int, variant: Variant | None = None
) -> State:
    """Return a standard-board state, player 0 to roll, with ``situations`` and ``free`` markers.

    ``situations`` maps columns to one of :data:`SITUATIONS`.  Won columns
    are shared out between the two players, and the target is set above what
    either holds.  Markers not needed by the situations are put on space 1 of
    the lowest other columns, so that exactly ``free`` are free.  Under
    Variant A, the steps left and the placement are realised with the
    opponent's squares in the way, so that skipping (R14.1) decides them
    wherever the column is tall enough.  The state is made by the public
    constructor, which checks it (R16).

    >>> from cantstop import format_state
    >>> format_state(situation_state({7: "won", 8: "one-left", 9: "place-top"}, 1))
    '9:8/7:13 2:1,8:10 0d'
    """
    heights = STANDARD_HEIGHTS
    squares: tuple[dict[int, int], dict[int, int]] = ({}, {})
    markers: dict[int, int] = {}
    owner = 1
    held = [0, 0]
    skip = variant is Variant.A
    for column, situation in situations.items():
        h = heights[column]
        if situation == "won":
            squares[owner][column] = h
            held[owner] += 1
            owner = 1 - owner
            continue
        marker, mine, theirs = _pieces(situation, h, skip)
        if marker is not None:
            markers[column] = marker
        if mine is not None:
            squares[0][column] = mine
        if theirs is not None:
            squares[1][column] = theirs
    fillers = 3 - free - len(markers)
    if fillers < 0:
        raise ValueError(f"{len(markers)} markers in the situations leave no {free} free")
    for column in heights:
        if fillers == 0:
            break
        if column not in situations:
            markers[column] = 1
            fillers -= 1
    rules = _rules(max(3, max(held) + 1), variant)
    phase = Phase.DECIDE if markers else Phase.ROLL
    return State(rules, 0, phase, None, markers, squares)


@functools.cache
def _rules(target: int, variant: Variant | None) -> Rules:
    return Rules(players=2, columns_to_win=target, variant=variant)


def columns_of(dice: Sequence[int]) -> tuple[int, ...]:
    """Return the distinct columns the sums of ``dice`` name, in increasing order.

    >>> columns_of((1, 2, 3, 5))
    (3, 4, 5, 6, 7, 8)
    """
    return tuple(sorted({total for pair in Model.pairings_of(dice) for total in pair}))


def situation_cases(columns: Sequence[int]) -> Iterator[tuple[dict[int, str], int]]:
    """Every assignment of :data:`SITUATIONS` to ``columns``, with each free-marker count.

    The free-marker count runs over 0 to 3, less the markers the situations
    themselves put on the board.

    >>> sum(1 for _ in situation_cases((2,)))  # won, place-top, place-below: 0-3; the others: 0-2
    21
    """
    for combo in itertools.product(SITUATIONS, repeat=len(columns)):
        used = sum(1 for s in combo if s in _MARKER_SITUATIONS)
        for free in range(0, 4 - used):
            yield dict(zip(columns, combo, strict=True)), free


@dataclass(frozen=True)
class _Host:
    """Rolls naming exactly ``columns``, and the rolls that ride along on their states.

    A rider (dice, and the host's columns it does not name) names a subset
    of ``columns``; a state of the host is one of the rider's when each
    column the rider does not name is "place-below": the rider's columns are
    then in their own situations, and the case is the rider's too.
    """

    columns: tuple[int, ...]
    rolls: tuple[tuple[int, int, int, int], ...]
    riders: tuple[tuple[tuple[int, int, int, int], frozenset[int]], ...]


@dataclass(frozen=True)
class _Chunk:
    """A share of the work: the cases of one host, or of two that share states.

    Only the cases whose first shared column is in situation ``first`` belong
    to the chunk.
    """

    hosts: tuple[_Host, ...]
    first: str
    variant: Variant | None
    mutations: frozenset[str]


def _plan(
    rolls: Sequence[tuple[int, int, int, int]],
    variant: Variant | None,
    mutations: frozenset[str],
) -> list[_Chunk]:
    """Share the cases of ``rolls`` out into chunks, each case of each roll in exactly one.

    Rolls are grouped by the columns they name.  A group whose columns lie
    within those of a larger group rides along with the first such group
    (every case of it is a case of the larger group with "place-below" on the
    extra columns); the others are hosts, with states of their own.  Two
    hosts of the same size that share at most half their columns share
    states too (see :func:`_cases`).
    """
    groups: dict[tuple[int, ...], list[tuple[int, int, int, int]]] = {}
    for dice in rolls:
        groups.setdefault(columns_of(dice), []).append(dice)
    order = sorted(groups, key=lambda cols: (-len(cols), cols))
    tops = [cols for cols in order if not any(set(cols) < set(other) for other in order)]
    riders: dict[tuple[int, ...], list[tuple[tuple[int, int, int, int], frozenset[int]]]] = {
        cols: [] for cols in tops
    }
    for cols in order:
        if cols not in riders:
            top = next(h for h in tops if set(cols) < set(h))
            extra = frozenset(top) - set(cols)
            riders[top] += [(dice, extra) for dice in groups[cols]]
    hosts = {cols: _Host(cols, tuple(groups[cols]), tuple(riders[cols])) for cols in tops}
    shares: list[tuple[_Host, ...]] = []
    left = list(tops)
    while left:
        cols = left.pop(0)
        mates = [other for other in left if len(other) == len(cols) and set(cols) & set(other)]
        if mates:
            mate = max(mates, key=lambda other: len(set(cols) & set(other)))
            left.remove(mate)
            shares.append((hosts[cols], hosts[mate]))
        else:
            shares.append((hosts[cols],))
    return [_Chunk(share, first, variant, mutations) for share in shares for first in SITUATIONS]


def _markers(combo: Iterable[str]) -> int:
    return sum(1 for s in combo if s in _MARKER_SITUATIONS)


def _cases(chunk: _Chunk) -> Iterator[tuple[dict[int, str], int, list[tuple[int, int, int, int]]]]:
    """Yield the states of ``chunk``: situations, free markers, and the rolls to compare.

    Each case of each roll of the chunk's hosts (and their riders) comes
    exactly once.  For one host, every assignment of situations to its
    columns with every free-marker count is a state.  Two hosts share
    states: for each assignment to their common columns and each number of
    markers on the board, the assignments to the first host's other columns
    are matched with those to the second's, so that the markers of both fit
    in the number (the rest are put on columns neither names); a state then
    holds a case of each.  Assignments left unmatched get states alone.
    """
    first, *rest = chunk.hosts
    if not rest:
        for combo in itertools.product(SITUATIONS, repeat=len(first.columns) - 1):
            situations = dict(zip(first.columns, (chunk.first, *combo), strict=True))
            used = _markers(situations.values())
            rolls = _rolls_of(first, situations)
            for free in range(0, 4 - used):
                yield situations, free, rolls
        return
    (second,) = rest
    common = sorted(set(first.columns) & set(second.columns))
    own = [sorted(set(h.columns) - set(common)) for h in (first, second)]
    spare = len(STANDARD_HEIGHTS) - len(set(first.columns) | set(second.columns))
    by_count: list[dict[int, list[tuple[str, ...]]]] = [{}, {}]
    for side in (0, 1):
        for combo in itertools.product(SITUATIONS, repeat=len(own[side])):
            by_count[side].setdefault(_markers(combo), []).append(combo)
    for combo in itertools.product(SITUATIONS, repeat=len(common) - 1):
        shared = dict(zip(common, (chunk.first, *combo), strict=True))
        used = _markers(shared.values())
        for total in range(used, 4):
            room = total - used
            waiting = {k: list(found) for k, found in by_count[1].items() if k <= room}
            for k1 in sorted(by_count[0], reverse=True):
                if k1 > room:
                    continue
                for mine in by_count[0][k1]:
                    situations = {**shared, **dict(zip(own[0], mine, strict=True))}
                    hosts = [first]
                    for k2 in sorted(waiting, reverse=True):
                        if waiting[k2] and k1 + k2 <= room <= k1 + k2 + spare:
                            theirs = waiting[k2].pop(0)
                            situations.update(zip(own[1], theirs, strict=True))
                            hosts.append(second)
                            break
                    rolls = [r for h in hosts for r in _rolls_of(h, situations)]
                    yield situations, 3 - total, rolls
            for k2 in sorted(waiting):
                for theirs in waiting[k2]:
                    situations = {**shared, **dict(zip(own[1], theirs, strict=True))}
                    yield situations, 3 - total, _rolls_of(second, situations)


def _rolls_of(host: _Host, situations: Mapping[int, str]) -> list[tuple[int, int, int, int]]:
    """Return the rolls of ``host``, and of its riders, that a state with ``situations`` serves."""
    below = {c for c, s in situations.items() if s == "place-below"}
    return [*host.rolls, *(dice for dice, extra in host.riders if extra <= below)]


#: In each process: the model's moves for a pairing, by what it reads (:func:`_model_moves`).
_PAIRING_MOVES: dict[
    tuple[Rules, frozenset[str]], dict[tuple[object, ...], frozenset[tuple[int, ...]]]
] = {}
_MODELS: dict[tuple[Rules, frozenset[str]], Model] = {}
_ROLLS: dict[tuple[int, int, int, int], Roll] = {}

#: What a column holds, as the model reads it: the marker's space, then each player's square's.
_Cell = tuple[int, ...]


def _model_moves(
    rules: Rules,
    mutations: frozenset[str],
    player: int,
    a: int,
    b: int,
    cells: Mapping[int, _Cell],
    markers: int,
) -> frozenset[tuple[int, ...]]:
    """Return the model's legal moves for the pairing ``a``, ``b``, ``player`` to move.

    ``cells`` gives what columns ``a`` and ``b`` hold, and ``markers`` is how
    many markers are on the board.  :meth:`Model.offers` for a pairing reads
    those columns and, for R5.2, how many markers are on the board; nothing
    else.  So it is evaluated on the projection of the state that keeps
    exactly that: the two columns, and the other markers moved to columns
    that are not on the board (where no rule about a real column can read
    them; a read of any other column fails).  The answer is kept by that
    projection, which many cases share.
    """
    cols = (a,) if a == b else (a, b)
    here = tuple(cells[c] for c in cols)
    others = markers - sum(1 for cell in here if cell[0])
    known = _PAIRING_MOVES.get((rules, mutations))
    if known is None:
        known = _PAIRING_MOVES[rules, mutations] = {}
    key = (player, a, b, others, here)
    found = known.get(key)
    if found is not None:
        return found
    model = _MODELS.get((rules, mutations))
    if model is None:
        model = _MODELS[rules, mutations] = Model(Config.of(rules), PY, mutations)
    board = [(c, cell) for c, cell in zip(cols, here, strict=True) if c in rules.heights]
    projected = {c: cell[0] for c, cell in board}
    projected.update({-1 - i: 1 for i in range(others)})
    s = Vars(
        player,
        DECIDE,
        (0, 0, 0, 0),
        projected,
        tuple({c: cell[1 + p] for c, cell in board} for p in range(rules.players)),
    )
    moves: set[tuple[int, ...]] = set()
    for ua, ub in ((True, True), (True, False), (False, True)):
        model.forget()
        if model.offers(s, a, b, ua, ub):
            moves.add(tuple(sorted([a] * ua + [b] * ub)))
    model.forget()
    found = known[key] = frozenset(moves)
    return found


def _cells(state: State, columns: Iterable[int]) -> dict[int, _Cell]:
    """Return what each of ``columns`` holds in ``state``: the marker's space, then the squares'."""
    on = dict(state.markers)
    squares = [dict(own) for own in state.squares]
    return {c: (on.get(c, 0), *(own.get(c, 0) for own in squares)) for c in columns}


def model_moves(
    state: State, dice: tuple[int, int, int, int], mutations: frozenset[str] = frozenset()
) -> frozenset[tuple[int, ...]]:
    """Return the model's legal moves for ``dice`` in ``state``, pairing by pairing.

    This is how :func:`exhaustive_moves` asks the model; it must equal
    :meth:`Model.legal_moves` on the whole state, which the tests check.

    >>> from cantstop import new_game
    >>> sorted(model_moves(new_game(), (3, 4, 5, 5)))
    [(7, 10), (8, 9)]
    """
    cells = _cells(state, columns_of(dice))
    return frozenset().union(
        *(
            _model_moves(state.rules, mutations, state.player, a, b, cells, len(state.markers))
            for a, b in Model.pairings_of(dice)
        )
    )


def _compare_rolls(
    state: State,
    columns: Iterable[int],
    rolls: Iterable[tuple[int, int, int, int]],
    mutations: frozenset[str],
) -> Iterator[str]:
    """Roll each of ``rolls`` on the engine from ``state`` (player 0 to move) and on the model.

    ``columns`` are every column the rolls name.  Yield a line for each roll
    on which engine and model disagree.
    """
    cells = _cells(state, columns)
    markers = len(state.markers)
    by_pair: dict[tuple[int, int], frozenset[tuple[int, ...]]] = {}
    for dice in rolls:
        roll = _ROLLS.get(dice)
        if roll is None:
            roll = _ROLLS[dice] = Roll(dice)
        step = state.step(roll)
        engine = (
            frozenset()
            if step.event is Event.BUSTED
            else frozenset(m.columns for m in step.state.legal_moves())
        )
        # The model busts exactly when no pairing offers a move (Model.has_move,
        # checked against R10.1 by the proofs).
        mine: set[tuple[int, ...]] = set()
        for pair in Model.pairings_of(dice):
            moves = by_pair.get(pair)
            if moves is None:
                moves = by_pair[pair] = _model_moves(
                    state.rules, mutations, state.player, pair[0], pair[1], cells, markers
                )
            mine |= moves
        if engine != mine:
            yield (
                f"{format_state(state)} r{''.join(map(str, dice))}: engine "
                f"{moves_text(engine)}, model {moves_text(mine)}"
            )


def _run_chunk(chunk: _Chunk) -> tuple[int, list[str]]:
    """Compare every case of ``chunk``: return how many, and the disagreements."""
    cases = 0
    problems: list[str] = []
    columns = sorted({c for host in chunk.hosts for c in host.columns})
    for situations, free, rolls in _cases(chunk):
        state = situation_state(situations, free, chunk.variant)
        cases += len(rolls)
        problems += _compare_rolls(state, columns, rolls, chunk.mutations)
    return cases, problems


def comparisons(
    rolls: Sequence[tuple[int, int, int, int]],
) -> Iterator[tuple[tuple[int, int, int, int], dict[int, str], int]]:
    """Yield each comparison :func:`exhaustive_moves` makes, without making it.

    Each is the dice, the situations of the columns they name in the state
    rolled from, and the number of free markers in it.

    >>> made = comparisons([(1, 1, 1, 1)])
    >>> sorted(free for _, situations, free in made if situations[2] == "won")
    [0, 1, 2, 3]
    """
    for chunk in _plan(rolls, None, frozenset()):
        for situations, free, checked in _cases(chunk):
            for dice in checked:
                yield dice, {c: situations[c] for c in columns_of(dice)}, free


def exhaustive_moves(
    rolls: Sequence[tuple[int, int, int, int]] | None = None,
    variant: Variant | None = None,
    mutations: frozenset[str] = frozenset(),
    workers: int = 1,
) -> LinkReport:
    """Compare the legal moves of engine and model for every roll and every situation.

    ``rolls`` defaults to the 126 sorted rolls.  For each, every assignment of
    :data:`SITUATIONS` to the distinct columns its sums name, with every
    possible number of free markers (:func:`situation_cases`), is realised by
    :func:`situation_state`; rolls share states, each case still compared
    exactly once (:func:`_plan`, :func:`_cases`; :func:`comparisons` lists
    them).  The engine rolls the dice from that state (a bust, or the legal
    moves of the CHOOSE state); the model computes its legal moves for the
    same dice and state, pairing by pairing (:func:`model_moves`).  ``mutations`` break the model
    (see :mod:`proofs.mutations`), to show that the comparison can fail.
    ``workers`` processes share the work; the report is the same for any
    number.
    """
    if rolls is None:
        rolls = [r.dice for r, _ in roll_outcomes()]
    chunks = _plan(rolls, variant, mutations)
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.map(_run_chunk, chunks, chunksize=1)
    else:
        results = [_run_chunk(chunk) for chunk in chunks]
    return LinkReport(
        sum(cases for cases, _ in results), [p for _, found in results for p in found]
    )
