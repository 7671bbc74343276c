"""The link between the proven model and the engine in ``cantstop/``.

The formulas of :class:`~proofs.model.Model` are evaluated here with the
Python backend (:data:`~proofs.model.PY`): the same code that z3 reasons
about, run on concrete states, and compared with the engine.

- :func:`ordered_rolls_reduce`: the 1296 ordered rolls reduce to the 126
  sorted ones, in the engine (a roll and its sorted form lead to the same
  state) and in the model (a roll and its sorted form have the same pairings).
- :func:`exhaustive_moves`: for every sorted roll and every abstract situation
  of the columns its sums name (:data:`SITUATIONS`), with 0 to 3 free markers,
  the engine's legal moves (or bust) equal the model's (657,927 cases under
  the standard rules, as many under Variant A).
- :func:`transitions_agree`: from one concrete state, every transition (roll,
  bust, move, stop, win) leads to the same state and event in both.
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from cantstop import (
    STANDARD_HEIGHTS,
    Event,
    IllegalAction,
    Phase,
    Roll,
    Rules,
    State,
    Stop,
    Variant,
    format_state,
    new_game,
    roll_outcomes,
)
from cantstop.dice import sorted_dice
from proofs.model import DECIDE, PY, TRANSITIONS, Config, Model, Vars, all_dice
from proofs.properties import Action
from proofs.render import state_text, values_of

__all__ = [
    "SITUATIONS",
    "LinkReport",
    "columns_of",
    "comparisons",
    "exhaustive_moves",
    "model_moves",
    "ordered_rolls_reduce",
    "random_states",
    "situation_cases",
    "situation_state",
    "transitions_agree",
]

#: The abstract situations of the column a sum names, as far as a roll cares:
#: won by some player; holding the marker with 0, 1, or 2 or more steps left
#: below the top space; holding no marker, with a placement that would land on
#: the top space or below it.
SITUATIONS = ("won", "top", "one-left", "two-left", "place-top", "place-below")

_MARKER_SITUATIONS = frozenset({"top", "one-left", "two-left"})


@dataclass
class LinkReport:
    """What a link check compared, and every disagreement found."""

    #: How many cases were compared.
    cases: int
    #: One line per disagreement, in the notation; empty when engine and model agree.
    disagreements: list[str]

    @property
    def agree(self) -> bool:
        """Whether engine and model agreed on every case."""
        return not self.disagreements


def _pairs(dice: Sequence[int]) -> list[tuple[int, int]]:
    return sorted((min(a, b), max(a, b)) for a, b in Model.pairings_of(dice))


def ordered_rolls_reduce(states: Sequence[State]) -> LinkReport:
    """Check that only the sorted dice matter, for every one of the 1296 ordered rolls.

    In the model, the pairings of a roll (R4.2) are those of its sorted form.
    In the engine, applying a roll and applying its sorted form to each of
    ``states`` give the same event and the same state.
    """
    problems: list[str] = []
    cases = 0
    for dice in all_dice():
        ordered = tuple(dice)
        ranked = sorted_dice(dice)
        cases += 1
        if _pairs(ordered) != _pairs(ranked):
            problems.append(f"model: r{''.join(map(str, ordered))} pairs differently when sorted")
        for state in states:
            cases += 1
            a = state.step(Roll(dice))
            b = state.step(Roll(ranked))
            if a != b:
                problems.append(
                    f"engine: {format_state(state)} r{''.join(map(str, ordered))} gives "
                    f"{format_state(a.state)} ({a.event.value}) but sorted gives "
                    f"{format_state(b.state)} ({b.event.value})"
                )
    return LinkReport(cases, problems)


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
                f"{_moves_text(engine)}, model {_moves_text(mine)}"
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


def _moves_text(moves: Iterable[tuple[int, ...]]) -> str:
    return " ".join("+".join(map(str, m)) for m in sorted(moves)) or "bust"


def _action_for(model: Model, s: Vars, name: str, dice: tuple[int, int, int, int]) -> list[Action]:
    """Every concrete action of the model for transition ``name``."""
    if name != "move":
        return [Action(dice, 0, False, False)]
    return [
        Action(dice, i, ua, ub)
        for i in range(3)
        for ua, ub in ((True, True), (True, False), (False, True), (False, False))
    ]


def transitions_agree(state: State, dice: tuple[int, int, int, int]) -> LinkReport:
    """Compare every transition from ``state`` in engine and model; ``dice`` is the roll tried.

    A roll (ROLL or DECIDE phase) must be a roll in exactly one of the two
    (a roll with a legal move or a bust) with the same result; in the CHOOSE
    phase the legal moves must be the same and each must lead to the same
    state; in the DECIDE phase a stop must be refused by both (Variant B) or
    lead to the same state, with the event ``won`` exactly when the model
    takes ``win``.  In the OVER phase nothing is enabled in the model.
    """
    config = Config.of(state.rules)
    model = Model(config, PY)
    s = values_of(state)
    problems: list[str] = []
    cases = 0
    ranked = sorted_dice(dice)
    where = format_state(state)
    enabled: dict[str, list[tuple[Action, Vars]]] = {}
    for name in TRANSITIONS:
        for action in _action_for(model, s, name, ranked):
            t = action.transition(model, s, name)
            if t.guard:
                enabled.setdefault(name, []).append((action, t.after))
    if state.phase in (Phase.ROLL, Phase.DECIDE):
        cases += 1
        step = state.step(Roll(dice))
        kind = "bust" if step.event is Event.BUSTED else "roll"
        other = "roll" if kind == "bust" else "bust"
        got = enabled.get(kind, [])
        if (
            other in enabled
            or len(got) != 1
            or state_text(config, got[0][1]) != format_state(step.state)
        ):
            problems.append(
                f"{where} r{''.join(map(str, dice))}: engine {step.event.value} to "
                f"{format_state(step.state)}, model {_enabled_text(config, enabled)}"
            )
    if state.phase is Phase.CHOOSE:
        engine_moves = {m.columns: state.apply(m) for m in state.legal_moves()}
        model_moves: dict[tuple[int, ...], list[Vars]] = {}
        pairs = model.pairings(s.dice)
        for action, after in enabled.get("move", []):
            a, b = pairs[action.pairing]
            sums = tuple(sorted([a] * action.use_a + [b] * action.use_b))
            model_moves.setdefault(sums, []).append(after)
        cases += 1
        if set(engine_moves) != set(model_moves):
            problems.append(
                f"{where}: engine moves {_moves_text(set(engine_moves))}, "
                f"model moves {_moves_text(set(model_moves))}"
            )
        for columns, result in engine_moves.items():
            for after in model_moves.get(columns, []):
                cases += 1
                if state_text(config, after) != format_state(result):
                    problems.append(
                        f"{where} {'+'.join(map(str, columns))}: engine {format_state(result)}, "
                        f"model {state_text(config, after)}"
                    )
    if state.phase is Phase.DECIDE:
        cases += 1
        try:
            step = state.step(Stop())
        except IllegalAction as exc:
            if "stop" in enabled or "win" in enabled:
                problems.append(
                    f"{where} stop: engine refuses ({exc.rule}), model "
                    f"{_enabled_text(config, enabled)}"
                )
        else:
            kind = "win" if step.event is Event.WON else "stop"
            got = enabled.get(kind, [])
            if len(got) != 1 or state_text(config, got[0][1]) != format_state(step.state):
                problems.append(
                    f"{where} stop: engine {step.event.value} to {format_state(step.state)}, "
                    f"model {_enabled_text(config, enabled)}"
                )
    if state.phase is Phase.OVER:
        cases += 1
        if enabled:
            problems.append(f"{where}: the game is over, model {_enabled_text(config, enabled)}")
    return LinkReport(cases, problems)


def _enabled_text(config: Config, enabled: dict[str, list[tuple[Action, Vars]]]) -> str:
    if not enabled:
        return "has no transition"
    return "; ".join(
        f"{name} to {', '.join(sorted({state_text(config, after) for _, after in found}))}"
        for name, found in enabled.items()
    )


def random_states(rules: Rules, seed: int, limit: int = 400) -> Iterator[State]:
    """Yield the states of random legal play from a new game (fixed ``seed``)."""
    rng = random.Random(seed)
    state = new_game(rules, first_player=rng.randrange(rules.players))
    for _ in range(limit):
        yield state
        if state.phase is Phase.OVER:
            return
        if state.phase is Phase.CHOOSE:
            state = state.apply(rng.choice(state.legal_moves()))
            continue
        if state.phase is Phase.DECIDE and rng.random() < 0.3:
            try:
                state = state.apply(Stop())
                continue
            except IllegalAction:
                pass
        dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
        state = state.apply(Roll(dice))
