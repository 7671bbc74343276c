"""A second implementation of the rules of Off to the Tower, written separately from the engine.

It reads the board from its JSON form (``board_to_json``), builds each
route itself, and works field by field: a stone is a (player, place) pair,
and every question (who stands where, what a move passes, what it lands on)
is answered by walking the route.  It shares no code with ``tower.state`` or
``tower.decide`` beyond the state's plain fields, so that the tests can
compare the two on every state they meet.

Every function takes ``flaws``, names of :data:`tower.tags.READINGS`:
with a flaw, the oracle plays that other reading of its rule instead.  The
tests of the rule tags compare the oracle with and without each flaw: the
readings whose flaw changes an answer are the ones the engine must record.
"""

from __future__ import annotations

from dataclasses import dataclass

from tower import Move, State, Throw, board_to_json

#: A position as the oracle sees it: player to act, phase letter, dice, places per player, tower.
Position = tuple[int, str, tuple[int, int] | None, tuple[tuple[int, ...], ...], int | None]
#: What an action answers: ("refused", rule) or ("ok", the position after it).
Answer = tuple[str, object]

NONE: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Table:
    """The board as the oracle reads it: routes by player, field colours and stars, the crossing."""

    routes: tuple[tuple[int, ...], ...]
    colour_of: dict[int, str | None]
    star: frozenset[int]
    letters: tuple[str, ...]
    crossing: int
    stones: int
    #: For each player, the step of the crossing's first track position (or -1 if off the route).
    first_pass: tuple[int, ...]


def table(state: State) -> Table:
    """Return the oracle's reading of the board and configuration of ``state``."""
    data = board_to_json(state.config.board)
    track = data["track"]
    crossing = next(n for n in track if track.count(n) == 2)
    first_position = track.index(crossing) + 1
    routes, first_pass = [], []
    for letter in state.config.colours:
        c = data["colours"][letter]
        walk = list(c["way_in"])
        first = -1
        position = c["entry"]
        while position <= c["gate"]:
            walk.append(track[position - 1])
            if position == first_position:
                first = len(walk)
            position += 1
        routes.append((0, *walk, c["goal"]))
        first_pass.append(first)
    colour_of = {int(k): v.get("colour") for k, v in data["fields"].items()}
    star = frozenset(int(k) for k, v in data["fields"].items() if v.get("star"))
    players = len(state.config.colours)
    return Table(
        tuple(routes),
        colour_of,
        star,
        state.config.colours,
        crossing,
        1 if players == 4 else 2,
        tuple(first_pass),
    )


def position(state: State) -> Position:
    """Return the engine's state as a plain position."""
    letter = {"throw": "t", "choose": "c", "over": "x"}[state.phase.value]
    return (state.player, letter, state.dice, state.stones, state.tower)


def _standing(t: Table, stones: tuple[tuple[int, ...], ...]) -> dict[int, tuple[int, int]]:
    """Return field to (player, place) for every stone on a field."""
    found = {}
    for p, places in enumerate(stones):
        for place in places:
            if 0 < place < len(t.routes[p]) - 1:
                found[t.routes[p][place]] = (p, place)
    return found


def _next(me: int, players: int, flaws: frozenset[str]) -> int:
    if "turn-no-wrap" in flaws:
        return me + 1  # the last player's turn goes to a player who is not there
    return (me - 1) % players if "turn-backwards" in flaws else (me + 1) % players


def _first_broken(
    t: Table, pos: Position, place: int, points: int, flaws: frozenset[str]
) -> str | None:
    """Return the first rule of R5.5's tests (then a flaw's refusal) the move breaks, or None."""
    me, _, dice, stones, tower = pos
    assert dice is not None
    route = t.routes[me]
    goal = len(route) - 1
    from_tower = "tower-stone-moves" in flaws and place == 0 and tower == me
    if not (place in stones[me] and place != goal) and not (from_tower and 0 not in stones[me]):
        return "R5.2"
    added = "dice-added" in flaws and points == dice[0] + dice[1]
    if points not in dice and not added:
        return "R4.2"
    end = place + points
    if end > goal and "goal-overshoot" not in flaws:
        return "R10.2"
    standing = _standing(t, stones)
    mover = route[place] if place > 0 else None
    if end < goal and "twin-allowed" not in flaws:
        there = standing.get(route[end])
        if there is not None and there[0] == me and route[end] != mover:
            return "R5.4"
    passed_steps = [k for k in range(place + 1, min(end, goal))]
    passes = [k for k in passed_steps if route[k] == t.crossing]
    holder = standing.get(t.crossing)
    if passes and holder is not None and holder[0] != me and "no-obstacle" not in flaws:
        blocked = True
        if "first-pass-only" in flaws:
            on_first = holder[1] == t.first_pass[holder[0]]
            blocked = on_first and t.first_pass[me] in passes
        if blocked:
            return "R9.1"
    victim = standing.get(route[end]) if end < goal else None
    if victim is not None and victim[0] == me:
        victim = None
    if victim is not None:
        if "no-capture" in flaws:
            return "R7.1"
        field = route[end]
        safe = field in t.star or t.colour_of[field] == t.letters[victim[0]]
        if "safe-fields" in flaws and safe:
            return "R7.2"
        if "obstacle-untouchable" in flaws and field == t.crossing:
            return "R9.3"
    if holder is not None and holder[0] != me and "obstacle-blocks-all" in flaws:
        return "R9.1"
    if (
        "own-obstacle-blocks" in flaws
        and holder is not None
        and holder[0] == me
        and mover != t.crossing
        and passes
    ):
        return "R9.4"
    if "goal-holds-one" in flaws and end == goal and goal in stones[me]:
        return "R10.3"
    return None


def moves(t: Table, pos: Position, flaws: frozenset[str] = NONE) -> list[tuple[int, int]]:
    """Return the legal moves (step, points) for the dice of ``pos`` (R5.5), in order."""
    me, _, dice, stones, tower = pos
    assert dice is not None
    goal = len(t.routes[me]) - 1
    sources = sorted({p for p in stones[me] if p != goal})
    if "tower-stone-moves" in flaws and tower == me and 0 not in sources:
        sources.insert(0, 0)
    numbers = sorted(set(dice))
    if "dice-added" in flaws:
        numbers.append(dice[0] + dice[1])
    found = [
        (place, points)
        for place in sources
        for points in numbers
        if _first_broken(t, pos, place, points, flaws) is None
    ]
    starts = [m for m in found if m[0] == 0]
    if "priority-per-die" in flaws:
        found = [m for m in found if m[0] == 0 or all(s[1] != m[1] for s in starts)]
    elif starts and "no-priority" not in flaws:
        found = starts
    found.sort(key=(lambda m: (m[1], m[0])) if "points-first" in flaws else None)
    if "double-listed-twice" in flaws and dice[0] == dice[1]:
        found = [m for m in found for _ in range(2)]
    return found


def throw(t: Table, pos: Position, dice: tuple[int, int], flaws: frozenset[str] = NONE) -> Position:
    """Return the position after throwing ``dice`` (R4, R8.3)."""
    me, _, _, stones, tower = pos
    shown = (dice[0], dice[1]) if "unsorted-dice" in flaws else (min(dice), max(dice))
    places = [list(p) for p in stones]
    if 6 in dice and tower is not None:
        if tower == me and "six-frees-nothing" not in flaws:
            places[me].append(0)
            tower = None
        elif tower != me and "any-six-frees" in flaws:
            places[tower].append(0)
            tower = None
    after = tuple(tuple(sorted(p)) for p in places)
    if not moves(t, (me, "c", shown, after, tower), flaws):
        player = me if "forfeit-keeps-turn" in flaws else _next(me, len(stones), flaws)
        return (player, "t", None, after, tower)
    return (me, "c", shown, after, tower)


def _capture(
    places: list[list[int]], tower: int | None, q: int, place: int, flaws: frozenset[str]
) -> int | None:
    """Take player ``q``'s stone off ``place`` and return the tower after it (R7.1, R8.2)."""
    places[q].remove(place)
    if "captured-to-start" in flaws or (tower is not None and "full-tower-refuses" in flaws):
        places[q].append(0)
        return tower
    if tower is not None:
        places[tower].append(0)
    return q


def move(t: Table, pos: Position, step: int, points: int, flaws: frozenset[str] = NONE) -> Position:
    """Return the position after a legal move (R5 to R11)."""
    me, _, _, stones, tower = pos
    players = len(stones)
    places = [list(p) for p in stones]
    route = t.routes[me]
    goal = len(route) - 1
    letter = t.letters[me]
    end = step + points - (1 if "short-step" in flaws else 0)
    end = min(end, goal)
    if step == 0 and 0 not in places[me]:  # the stone in the tower, under its flaw
        tower = None
    else:
        places[me].remove(step)
    places[me].append(end)
    passed = [route[k] for k in range(step + 1, min(end, goal))]
    if "jump-captures" in flaws:
        for field in passed:
            there = _standing(t, tuple(tuple(p) for p in places)).get(field)
            if there is not None and there[0] != me:
                tower = _capture(places, tower, there[0], there[1], flaws)
    again = False
    if end == goal:
        home = len(places[me]) == t.stones and all(p == goal for p in places[me])
        if home or "first-home-wins" in flaws:
            if "winner-throws-again" not in flaws:
                return (me, "x", None, tuple(tuple(sorted(p)) for p in places), tower)
            again = True
        else:
            again = "goal-no-again" not in flaws
    elif end > 0:
        field = route[end]
        victim = None
        for q in range(players):
            if q == me:
                continue
            for place in places[q]:
                on_field = 0 < place < len(t.routes[q]) - 1
                if "steps-compared" in flaws:
                    hit = on_field and place == end
                else:
                    hit = on_field and t.routes[q][place] == field
                if hit and victim is None:
                    victim = (q, place)
        if victim is not None:
            tower = _capture(places, tower, victim[0], victim[1], flaws)
        colour = t.colour_of[field]
        again = colour == letter
        if "own-colour-no-again" in flaws and colour == letter:
            again = False
        if "any-colour-again" in flaws and colour is not None:
            again = True
        if "star-again" in flaws and field in t.star:
            again = True
        if "capture-ends-turn" in flaws and victim is not None:
            again = False
        if "passing-counts" in flaws and any(t.colour_of[f] == letter for f in passed):
            again = True
    player = me if again else _next(me, players, flaws)
    return (player, "t", None, tuple(tuple(sorted(p)) for p in places), tower)


def refusal(
    t: Table, pos: Position, step: int, points: int, flaws: frozenset[str] = NONE
) -> str | None:
    """Return the rule that refuses the move, or None if it is legal."""
    if pos[1] == "t":
        return "R3.4"
    if pos[1] == "x":
        return "R11.2"
    broken = _first_broken(t, pos, step, points, flaws)
    if broken is not None:
        return broken
    return None if (step, points) in moves(t, pos, flaws) else "R5.3"


def answer(t: Table, pos: Position, action: Move | Throw, flaws: frozenset[str] = NONE) -> Answer:
    """Return what the action answers: the refusing rule, or the position after it."""
    if isinstance(action, Throw):
        if pos[1] == "c":
            return ("refused", "R3.4")
        if pos[1] == "x":
            return ("refused", "R11.2")
        return ("ok", throw(t, pos, action.dice, flaws))
    rule = refusal(t, pos, action.step, action.points, flaws)
    if rule is not None:
        return ("refused", rule)
    return ("ok", move(t, pos, action.step, action.points, flaws))
