"""A plain value iteration over every solitaire state of a tiny board, from the engine alone.

It is the check of :mod:`cantstop.solve` that shares nothing with it: the
states are the engine's :class:`~cantstop.State` values, found by playing
every roll of :func:`~cantstop.roll_outcomes` and every legal move from
every start of a turn; a bust, a stop and a win are what :meth:`State.step`
reports.  Values are then improved, all states at once, until they settle:
the expected number of turns to win, the turn in progress included.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import product

from cantstop import Event, Phase, Rules, State, Stop, roll_outcomes
from cantstop.players import Player, may_stop


@dataclass
class Graph:
    """Every state in which the player rolls or decides, and where each roll leads."""

    rules: Rules
    #: The starts of a turn (phase roll) and the positions after a move (phase decide).
    states: list[State] = field(default_factory=list)
    #: For each state, one entry per roll: its chance, the state choosing a move (None for a
    #: bust) and the state each legal move leads to, in the order of ``legal_moves()``.
    rolls: dict[State, list[tuple[float, State | None, tuple[State, ...]]]] = field(
        default_factory=dict
    )
    #: For each deciding state, the start it stops to, or None when the stop wins.
    stops: dict[State, State | None] = field(default_factory=dict)
    #: For each deciding state, whether the rules allow a stop.
    may_stop: dict[State, bool] = field(default_factory=dict)


def build(rules: Rules) -> Graph:
    """Return the graph of every reachable solitaire state of ``rules``, from every anchor."""
    graph = Graph(rules)
    outcomes = [(roll, float(chance)) for roll, chance in roll_outcomes()]
    columns = rules.columns
    todo: list[State] = []
    for squares in product(*(range(rules.heights[c] + 1) for c in columns)):
        own = {c: s for c, s in zip(columns, squares, strict=True) if s}
        try:
            start = State(rules, 0, Phase.ROLL, squares=(own,))
        except ValueError:
            continue  # the game is over: no turn starts here
        todo.append(start)
    seen = set(todo)
    while todo:
        state = todo.pop()
        graph.states.append(state)
        entries: list[tuple[float, State | None, tuple[State, ...]]] = []
        for roll, chance in outcomes:
            step = state.step(roll)
            if step.event is Event.BUSTED:
                entries.append((chance, None, ()))
                continue
            after = tuple(step.state.apply(move) for move in step.state.legal_moves())
            entries.append((chance, step.state, after))
            for nxt in after:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        graph.rolls[state] = entries
        if state.phase is Phase.DECIDE:
            graph.may_stop[state] = may_stop(state)
            step = state.step(Stop())
            graph.stops[state] = None if step.event is Event.WON else step.state
    return graph


def anchor_of(state: State) -> State:
    """Return the start of the turn that ``state`` belongs to."""
    return State(state.rules, 0, Phase.ROLL, squares=state.squares)


def value_iteration(graph: Graph, tolerance: float = 1e-13) -> dict[State, float]:
    """Return the optimal expected turns to win from every state of ``graph``."""
    return _iterate(graph, tolerance, None)


def player_values(graph: Graph, player: Player, tolerance: float = 1e-13) -> dict[State, float]:
    """Return the expected turns to win from every state when ``player`` plays (deterministic)."""
    return _iterate(graph, tolerance, player)


def random_values(graph: Graph, stop_chance: float) -> dict[State, float]:
    """Return the expected turns to win from every state for the random player.

    Each legal move is as likely, and a stop is taken with ``stop_chance``
    where the rules allow one.  Within a turn the states form no cycle but
    the bust, back to the turn's start: each state's value is affine in the
    start's, ``alpha + beta * x``, found from its successors, and the start's
    value solves ``x = alpha + beta * x``.  Starts are solved in decreasing
    order of the squares held, so a stop always reaches a start already solved.
    """
    value: dict[State, float] = {}
    starts = [state for state in graph.states if state.phase is Phase.ROLL]
    starts.sort(key=lambda state: -sum(state.squares[0].values()))
    for start in starts:
        affine: dict[State, tuple[float, float]] = {}

        def of(
            state: State, affine: dict[State, tuple[float, float]] = affine
        ) -> tuple[float, float]:
            found = affine.get(state)
            if found is not None:
                return found
            alpha, beta = 0.0, 0.0
            for chance, choosing, after in graph.rolls[state]:
                if choosing is None:
                    alpha += chance
                    beta += chance
                    continue
                for nxt in after:
                    a, b = of(nxt)
                    alpha += chance * a / len(after)
                    beta += chance * b / len(after)
            if state.phase is Phase.DECIDE and graph.may_stop[state]:
                stopped = graph.stops[state]
                stopping = 1.0 if stopped is None else 1.0 + value[stopped]
                alpha = stop_chance * stopping + (1.0 - stop_chance) * alpha
                beta = (1.0 - stop_chance) * beta
            affine[state] = (alpha, beta)
            return alpha, beta

        alpha, beta = of(start)
        value[start] = alpha / (1.0 - beta)
        for state, (a, b) in affine.items():
            value[state] = a + b * value[start]
    return value


def _iterate(graph: Graph, tolerance: float, player: Player | None) -> dict[State, float]:
    rng = random.Random(0)
    states = graph.states[::-1]  # successors, found later, first: fewer sweeps
    number = {state: i for i, state in enumerate(states)}
    # Per state: the chance of a bust, the rolls grouped by the states their moves reach,
    # whether the player may (or, for a player, does) stop, and what a stop is worth then.
    plans: list[tuple[int, float, list[tuple[tuple[int, ...], float]], int | None, bool]] = []
    for state in states:
        bust = 0.0
        groups: dict[tuple[int, ...], float] = {}
        for chance, choosing, after in graph.rolls[state]:
            if choosing is None:
                bust += chance
                continue
            if player is None:
                reach = tuple(number[nxt] for nxt in after)
            else:
                move = player.choose(choosing, rng)
                reach = (number[after[choosing.legal_moves().index(move)]],)
            groups[reach] = groups.get(reach, 0.0) + chance
        stop = False
        target: int | None = None
        if state.phase is Phase.DECIDE:
            stop = graph.may_stop[state] and (player is None or player.stops(state, rng))
            stopped = graph.stops[state]
            target = None if stopped is None else number[stopped]
        anchor = number[anchor_of(state)]
        plans.append((anchor, bust, list(groups.items()), target, stop))
    value = [0.0] * len(states)
    while True:
        change = 0.0
        for i, (home, busting, reaches, target, stop) in enumerate(plans):
            new = busting * (1.0 + value[home])
            for reach, chance in reaches:
                new += chance * min(value[j] for j in reach)
            if stop:
                stopping = 1.0 if target is None else 1.0 + value[target]
                new = stopping if player is not None else min(new, stopping)
            change = max(change, abs(new - value[i]))
            value[i] = new
        if change < tolerance:
            return dict(zip(states, value, strict=True))
