"""A second implementation of the rules of Off to the Tower, written separately from the engine.

It reads the board from its JSON form (``board_to_json``), builds each
route itself, and works field by field: a stone is a (player, place) pair,
and every question (who stands where, what a move passes, what it lands on)
is answered by walking the route.  It shares no code with ``tower.game``
beyond the state's plain fields, so that the tests can compare the two on
every state they meet.
"""

from __future__ import annotations

from dataclasses import dataclass

from tower import State, board_to_json

#: A position as the oracle sees it: player to act, phase letter, dice, places per player, tower.
Position = tuple[int, str, tuple[int, int] | None, tuple[tuple[int, ...], ...], int | None]


@dataclass(frozen=True)
class Table:
    """The board as the oracle reads it: routes by player, field colours, stars, the crossing."""

    routes: tuple[tuple[int, ...], ...]
    colour_of: dict[int, str | None]
    letters: tuple[str, ...]
    crossing: int
    stones: int


def table(state: State) -> Table:
    """Return the oracle's reading of the board and configuration of ``state``."""
    data = board_to_json(state.config.board)
    track = data["track"]
    routes = []
    for letter in state.config.colours:
        c = data["colours"][letter]
        walk = list(c["way_in"])
        position = c["entry"]
        while position <= c["gate"]:
            walk.append(track[position - 1])
            position += 1
        routes.append((0, *walk, c["goal"]))
    crossing = next(n for n in track if track.count(n) == 2)
    colour_of = {int(k): v.get("colour") for k, v in data["fields"].items()}
    players = len(state.config.colours)
    return Table(tuple(routes), colour_of, state.config.colours, crossing, 1 if players == 4 else 2)


def position(state: State) -> Position:
    """Return the engine's state as a plain position."""
    letter = {"throw": "t", "choose": "c", "over": "x"}[state.phase.value]
    return (state.player, letter, state.dice, state.stones, state.tower)


def moves(t: Table, pos: Position) -> list[tuple[int, int]]:
    """Return the legal moves (step, points) for the dice of ``pos`` (R5.5), in order."""
    me, _, dice, stones, _ = pos
    assert dice is not None
    route = t.routes[me]
    goal = len(route) - 1
    standing: dict[int, int] = {}
    for p, places in enumerate(stones):
        for place in places:
            if 0 < place < len(t.routes[p]) - 1:
                standing[t.routes[p][place]] = p
    found = []
    for place in sorted(set(stones[me])):
        if place == goal:
            continue
        for points in sorted(set(dice)):
            end = place + points
            if end > goal:
                continue
            if end < goal and standing.get(route[end]) == me and route[end] != route[place]:
                continue
            passed = [route[k] for k in range(place + 1, end)]
            if t.crossing in passed and standing.get(t.crossing, me) != me:
                continue
            found.append((place, points))
    if any(step == 0 for step, _ in found):
        found = [m for m in found if m[0] == 0]
    return found


def throw(t: Table, pos: Position, dice: tuple[int, int]) -> Position:
    """Return the position after throwing ``dice`` (R4, R8.3)."""
    me, _, _, stones, tower = pos
    ordered = (min(dice), max(dice))
    places = [list(p) for p in stones]
    if tower == me and 6 in dice:
        places[me].append(0)
        tower = None
    after = tuple(tuple(sorted(p)) for p in places)
    if not moves(t, (me, "c", ordered, after, tower)):
        return ((me + 1) % len(stones), "t", None, after, tower)
    return (me, "c", ordered, after, tower)


def move(t: Table, pos: Position, step: int, points: int) -> Position:
    """Return the position after a legal move (R5 to R11)."""
    me, _, _, stones, tower = pos
    places = [list(p) for p in stones]
    route = t.routes[me]
    goal = len(route) - 1
    end = step + points
    places[me].remove(step)
    places[me].append(end)
    if end == goal:
        if all(p == goal for p in places[me]) and len(places[me]) == t.stones:
            return (me, "x", None, tuple(tuple(sorted(p)) for p in places), tower)
        again = True
    else:
        field = route[end]
        for q in range(len(places)):
            if q == me:
                continue
            for place in places[q]:
                if 0 < place < len(t.routes[q]) - 1 and t.routes[q][place] == field:
                    places[q].remove(place)
                    if tower is not None:
                        places[tower].append(0)
                    tower = q
                    break
        again = t.colour_of[field] == t.letters[me]
    player = me if again else (me + 1) % len(places)
    return (player, "t", None, tuple(tuple(sorted(p)) for p in places), tower)
