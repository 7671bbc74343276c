"""The decisions of a turn, each recording what it decides: legal moves, throws and moves.

The engine (:mod:`tower.state`) asks these functions and nothing else: which
stone may use which die (:func:`judge`, the tests of R5.5), which of the
moves that pass are listed (:func:`prioritised`, R5.3), what a throw does
(:func:`throw_outcome`, R4, R8.3) and what a move does (:func:`settle`, R5.1
to R11).  Each answer carries the record of its decision: the rules that
refuse a move and the readings that would admit it (:class:`Reason`), and
the other readings of the rules (:mod:`tower.tags`) under which the
answer would differ.  The rule tags of :mod:`tower.tags` are read from these
records, so they come from the code that decides, not from a second reading
of the rules.

>>> from tower import make_config
>>> config = make_config('ours')
>>> seen = view(config, 0, ((8, 20), (0, 10)), None)   # blue stands on the crossing, field 10
>>> judge(seen, (3, 5), 8, 3).reasons                   # 8+3 would pass it
(Reason(rule='R9.1', lifted_by=('no-obstacle',)),)
>>> judge(seen, (3, 5), 20, 3).at_stake                 # 20+3 is legal, unless all must wait
('obstacle-blocks-all',)
>>> second = view(config, 0, ((8, 20), (0, 24)), None)  # blue on field 10's second pass
>>> judge(second, (3, 5), 8, 3).reasons
(Reason(rule='R9.1', lifted_by=('no-obstacle', 'first-pass-only')),)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dicekit.dice import FACES, usable_points
from dicekit.store import Store
from tower.config import Config

__all__ = [
    "Judged",
    "Reason",
    "Settled",
    "Thrown",
    "View",
    "freed",
    "judge",
    "listing_readings",
    "natural",
    "prioritised",
    "settle",
    "throw_outcome",
    "view",
    "would_be",
]

Stones = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Reason:
    """A rule that refuses a move, and the readings under which it would not (``lifted_by``)."""

    rule: str
    lifted_by: tuple[str, ...] = ()


_NO_STONE = Reason("R5.2")
_IN_TOWER = Reason("R5.2", ("tower-stone-moves",))
_NOT_ON_DICE = Reason("R4.2")
_ADDED = Reason("R4.2", ("dice-added",))
_PAST_GOAL = Reason("R10.2", ("goal-overshoot",))
_TWIN = Reason("R5.4", ("twin-allowed",))
_OBSTACLE = Reason("R9.1", ("no-obstacle", "first-pass-only"))
_OBSTACLE_FIRST_PASS = Reason("R9.1", ("no-obstacle",))


@dataclass(frozen=True, slots=True)
class Judged:
    """A stone and a number of points, judged by the tests of R5.5.

    ``reasons`` are the tests it fails, in R5.5's order (empty when it passes
    them all); a test that no reading lifts ends the list, since the tests
    after it could never decide.  ``at_stake`` are, for a move that passes,
    the readings under which it would be refused.
    """

    step: int
    points: int
    reasons: tuple[Reason, ...]
    at_stake: tuple[str, ...] = ()

    @property
    def passes(self) -> bool:
        """Whether the move passes every test of R5.5 (before the priority of R5.3)."""
        return not self.reasons


@dataclass(frozen=True, slots=True)
class View:
    """A position as the decisions read it: make one with :func:`view`."""

    config: Config
    me: int
    stones: Stones
    tower: int | None
    #: The mover's route, and its length (the step of its goal).
    route: tuple[int, ...]
    length: int
    #: Field to place, for the mover's stones on fields.
    own: dict[int, int]
    #: Field to (player, place), for the other players' stones on fields.
    others: dict[int, tuple[int, int]]
    #: Who stands on the crossing, and whether on the first track position of their route.
    holder: int | None
    holder_first: bool


def view(config: Config, me: int, stones: Stones, tower: int | None) -> View:
    """Return the position as :func:`judge` reads it, for player ``me``."""
    own: dict[int, int] = {}
    others: dict[int, tuple[int, int]] = {}
    crossing = config.board.crossing
    holder, holder_first = None, False
    for p, places in enumerate(stones):
        route, length = config.routes[p], config.lengths[p]
        for place in places:
            if 0 < place < length:
                number = route[place]
                if p == me:
                    own[number] = place
                else:
                    others[number] = (p, place)
                if number == crossing:
                    holder, holder_first = p, place == config.first_pass_steps[p]
    return View(
        config,
        me,
        stones,
        tower,
        config.routes[me],
        config.lengths[me],
        own,
        others,
        holder,
        holder_first,
    )


def judge(v: View, dice: tuple[int, int], step: int, points: int) -> Judged:
    """Return how the tests of R5.5 judge moving the stone on ``step`` by ``points``.

    In order: a stone on that step that may move (R5.2), points shown by a die
    (R4.2), not past the goal (R10.2), not onto the player's own stone
    (R5.4), not past another player's stone on the crossing (R9.1, R9.2).
    """
    me, length, route = v.me, v.length, v.route
    reasons: list[Reason] = []
    if not (step < length and step in v.stones[me]):
        if step != 0 or v.tower != me:
            return Judged(step, points, (_NO_STONE,))
        reasons.append(_IN_TOWER)  # the stone in the tower, and none at the start
    if points not in dice:
        if points != dice[0] + dice[1]:
            return Judged(step, points, (*reasons, _NOT_ON_DICE))
        reasons.append(_ADDED)
    target = step + points
    if target > length:
        reasons.append(_PAST_GOAL)
    elif target < length and v.own.get(route[target], step) != step:
        reasons.append(_TWIN)  # a stone leaving the crossing may come round onto it again
    config = v.config
    passed = [k for k in config.crossing_steps[me] if step < k < target]
    if passed and v.holder is not None and v.holder != me:
        first = v.holder_first and config.first_pass_steps[me] in passed
        reasons.append(_OBSTACLE_FIRST_PASS if first else _OBSTACLE)
    if reasons:
        return Judged(step, points, tuple(reasons))
    return Judged(step, points, (), _at_stake(v, step, target, bool(passed)))


def _at_stake(v: View, step: int, target: int, passes_crossing: bool) -> tuple[str, ...]:
    """Return the readings under which a move that passes R5.5's tests would be refused."""
    config = v.config
    crossing = config.board.crossing
    stake: list[str] = []
    if target < v.length:
        number = v.route[target]
        hit = v.others.get(number)
        if hit is not None:  # R7.1, R7.2, R9.3
            stake.append("no-capture")
            field = config.board.fields[number]
            if field.star or field.colour == config.colours[hit[0]]:
                stake.append("safe-fields")
            if number == crossing:
                stake.append("obstacle-untouchable")
    elif v.length in v.stones[v.me]:
        stake.append("goal-holds-one")  # R10.3: the twin is home already
    if v.holder is not None:
        if v.holder != v.me:
            stake.append("obstacle-blocks-all")  # R9.1: the track closed to every move
        elif passes_crossing and not (step and v.route[step] == crossing):
            stake.append("own-obstacle-blocks")  # R9.4: the twin on the crossing is passed
    return tuple(stake)


def natural(v: View, dice: tuple[int, int]) -> list[Judged]:
    """Return every stone that may move with the points of each die, judged, in R5.5's order."""
    places = sorted({p for p in v.stones[v.me] if p < v.length})  # R5.2
    return [judge(v, dice, place, points) for place in places for points in usable_points(dice)]


def would_be(v: View, dice: tuple[int, int]) -> list[Judged]:
    """Return the moves only a reading of :data:`~tower.tags.Kind.ADMIT` could make, judged.

    The dice added together, for every stone that may move (R4.2), and the
    stone in the tower as if at the start, when none is there (R5.2).
    """
    me = v.me
    places = sorted({p for p in v.stones[me] if p < v.length})
    found = [judge(v, dice, place, dice[0] + dice[1]) for place in places]
    if v.tower == me and 0 not in places:
        found += [judge(v, dice, 0, points) for points in usable_points(dice)]
    return found


def prioritised(passing: Iterable[Judged]) -> list[Judged]:
    """Return the moves that stay legal once stones at the start go first (R5.3), in order."""
    moves = sorted(passing, key=lambda j: (j.step, j.points))
    if any(j.step == 0 for j in moves):
        return [j for j in moves if j.step == 0]
    return moves


def listing_readings(
    passing: Sequence[Judged], listed: Sequence[Judged], dice: tuple[int, int]
) -> list[str]:
    """Return the readings of :data:`~tower.tags.Kind.LIST` under which ``listed`` would differ.

    ``passing`` are the moves that pass R5.5's tests and ``listed`` those
    :func:`prioritised` keeps: the priority of the start decided something
    (R5.3) when it dropped a move, die by die too when a dropped move's
    points move no stone from the start; R5.5's order decides when two
    stones' moves interleave by points; a double offers its points once (R4.5).
    """
    found = []
    if dice[0] == dice[1] and listed:
        found.append("double-listed-twice")
    if len(listed) < len(passing):
        found.append("no-priority")
        from_start = {j.points for j in listed}
        if any(j.points not in from_start for j in passing if j.step):
            found.append("priority-per-die")
    if sorted(listed, key=lambda j: (j.points, j.step)) != list(listed):
        found.append("points-first")
    return found


@dataclass(frozen=True, slots=True)
class Thrown:
    """What a throw does (:func:`throw_outcome`): stones, tower, legal moves, and its record."""

    stones: Stones
    tower: int | None
    #: The dice, sorted (R4.1).
    dice: tuple[int, int]
    #: The legal moves; none means the throw is forfeited (R4.4).
    moves: tuple[Judged, ...]
    #: The readings of :data:`~tower.tags.Kind.OUTCOME` under which it would end otherwise.
    readings: tuple[str, ...]


def freed(
    stones: Stones, tower: int | None, me: int, dice: Sequence[int]
) -> tuple[Stones, int | None, tuple[str, ...]]:
    """Return the stones and tower after a throw of ``dice`` by ``me`` (R8.3), and its record.

    A six frees the thrower's own stone from the tower, to the start; another
    player's six frees nothing.
    """
    if tower is None or FACES not in dice:
        return stones, tower, ()
    if tower != me:
        return stones, tower, ("any-six-frees",)
    left = Store(1, (me,)).take(me).pieces  # the owner's stone leaves the tower for the start
    return _with(stones, me, (0, *stones[me])), left[0] if left else None, ("six-frees-nothing",)


def throw_outcome(
    config: Config, me: int, stones: Stones, tower: int | None, dice: tuple[int, int]
) -> Thrown:
    """Return what a throw of ``dice`` (in the order thrown) by ``me`` does (R4.1, R4.4, R8.3)."""
    ordered = (dice[0], dice[1]) if dice[0] <= dice[1] else (dice[1], dice[0])
    stones, tower, readings = freed(stones, tower, me, ordered)
    v = view(config, me, stones, tower)
    moves = prioritised(j for j in natural(v, ordered) if j.passes)
    if not moves:  # R4.4, R3.3
        readings += ("forfeit-keeps-turn", *_passing_readings(config, me))
    elif ordered != dice:
        readings += ("unsorted-dice",)
    return Thrown(stones, tower, ordered, tuple(moves), readings)


@dataclass(frozen=True, slots=True)
class Settled:
    """What a legal move does (:func:`settle`): the stones and tower after it, and its record."""

    stones: Stones
    tower: int | None
    #: Whether the player throws again (R6).
    again: bool
    #: Whether the move wins the game (R11.1).
    won: bool
    #: The readings of :data:`~tower.tags.Kind.OUTCOME` under which it would end otherwise.
    readings: tuple[str, ...]


def settle(
    config: Config, me: int, stones: Stones, tower: int | None, step: int, points: int
) -> Settled:
    """Return what moving ``me``'s stone on ``step`` by ``points`` does; the move must be legal.

    The stone goes ``points`` steps on (R5.1).  In its goal it stays (R10.3)
    and wins if every stone of the player is home (R11.1), else the player
    throws again (R6.6).  On a field it captures another player's stone
    standing there, found by field and not by step (R2.6, R7.1), into the
    tower, whose stone goes back to its owner's start (R8.2); it captures
    nothing it passes (R7.3); and the player throws again on a field of
    their own colour, a capture there included (R6.1, R6.5), never on a star
    (R6.2).
    """
    readings = ["short-step"]
    route, length = config.routes[me], config.lengths[me]
    fields = config.board.fields
    letter = config.colours[me]
    target = step + points
    mine = list(stones[me])
    mine.remove(step)
    mine.append(target)
    after = _with(stones, me, tuple(mine))
    passed = [route[k] for k in range(step + 1, min(target, length))]
    v = view(config, me, stones, tower)
    if any(number in v.others for number in passed):
        readings.append("jump-captures")
    if target == length:  # R10.2, R10.3
        won = tower != me and all(place == length for place in after[me])  # R11.1
        readings += ["winner-throws-again"] if won else ["first-home-wins", "goal-no-again"]
        return Settled(after, tower, not won, won, tuple(readings))
    number = route[target]
    victim = v.others.get(number)
    if victim is not None:  # R7.1, R8.2
        q, place = victim
        theirs = list(after[q])
        theirs.remove(place)
        after = _with(after, q, tuple(theirs))
        store, out = Store(1, () if tower is None else (tower,)).put(q)
        if out is not None:  # the stone in the tower goes back to its owner's start
            after = _with(after, out, (0, *after[out]))
        if tower != q:
            readings.append("captured-to-start")
            if tower is not None:
                readings.append("full-tower-refuses")
        tower = store.pieces[0]
    if _same_step(config, me, stones, target) != victim:
        readings.append("steps-compared")
    field = fields[number]
    again = field.colour == letter  # R6.1, R6.2, R6.5
    if again:
        readings.append("own-colour-no-again")
        if victim is not None:
            readings.append("capture-ends-turn")
    elif field.star:
        readings.append("star-again")
    elif field.colour is not None:
        readings.append("any-colour-again")
    if not again:
        if any(fields[n].colour == letter for n in passed):
            readings.append("passing-counts")
        readings += _passing_readings(config, me)
    return Settled(after, tower, again, False, tuple(readings))


def _passing_readings(config: Config, me: int) -> tuple[str, ...]:
    """Return the readings under which the turn ``me`` passes would go to another player (R3.3).

    Backwards, it goes to another player when there are more than two; with
    no wrap-around, the last player's turn goes to nobody.
    """
    found = ("turn-backwards",) if config.players > 2 else ()
    return (*found, "turn-no-wrap") if me == config.players - 1 else found


def _same_step(config: Config, me: int, stones: Stones, step: int) -> tuple[int, int] | None:
    """Return the first other player's stone on a field whose step number is ``step``."""
    for q, places in enumerate(stones):
        if q != me and step in places and 0 < step < config.lengths[q]:
            return (q, step)
    return None


def _with(stones: Stones, player: int, places: tuple[int, ...]) -> Stones:
    return (*stones[:player], tuple(sorted(places)), *stones[player + 1 :])
