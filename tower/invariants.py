"""The state invariants (R13): the check every state passes, and where a violation lies.

:func:`find_violation` returns the first invariant a candidate state breaks,
in the order of R13, as a :class:`Violation`: the rule, a message, and which
part of the state is at fault (a player's group, one of its places, the
tower or the turn), so that the notation reader can point at it (N1.6).
:func:`check_state` is the check of the :class:`~tower.state.State`
constructor: it normalises the fields and raises
:class:`~dicekit.errors.InvalidState`.

>>> from tower import make_config, Phase
>>> find_violation(make_config(), 0, Phase.THROW, None, ((5, 5), (0, 0)), None)
Violation(rule='R5.4', message='two red stones stand on field 5', part='place', player=0, nth=1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from dicekit.dice import FACES
from dicekit.turns import is_player
from tower.config import Config
from tower.errors import InvalidState, shown

if TYPE_CHECKING:
    from tower.state import Phase, State

__all__ = ["Violation", "check_state", "find_violation", "winners"]


class Violation(NamedTuple):
    """A broken invariant: its rule, a message, and the part of the state at fault.

    ``part`` is ``"group"`` (of ``player``), ``"place"`` (the ``nth`` of
    ``player``'s places), ``"tower"`` or ``"turn"``.
    """

    rule: str
    message: str
    part: str
    player: int = -1
    nth: int = -1


def winners(config: Config, stones: tuple[tuple[int, ...], ...], tower: int | None) -> list[int]:
    """Return the players whose stones are all in their goal (R11.1)."""
    return [
        p
        for p, places in enumerate(stones)
        if tower != p
        and len(places) == config.stones
        and all(place == config.lengths[p] for place in places)
    ]


def find_violation(
    config: Config,
    player: int,
    phase: Phase,
    dice: tuple[int, int] | None,
    stones: tuple[tuple[int, ...], ...],
    tower: int | None,
) -> Violation | None:
    """Return the first invariant of R13 that these fields break, or ``None``.

    The player is taken to exist and the stones to be one sorted tuple of
    whole numbers from 0 per player: the reader and the constructor check
    those forms first.
    """
    from tower.state import Phase, candidates

    names = [config.board.colour(letter).name for letter in config.colours]
    for p, places in enumerate(stones):  # R13.1
        held = len(places) + (tower == p)
        if held != config.stones:
            return Violation(
                "R13.1",
                f"{names[p]} has {held} stones at the start, on fields, in the tower and in "
                f"the goal; each player has {config.stones}",
                "group",
                p,
            )
    for p, places in enumerate(stones):  # R13.2
        for i, place in enumerate(places):
            if place > config.lengths[p]:
                return Violation(
                    "R13.2",
                    f"{names[p]}'s route has steps 1 to {config.lengths[p] - 1} and the goal "
                    f"{config.lengths[p]}; a stone on step {shown(place)} is off it",
                    "place",
                    p,
                    i,
                )
    if tower is not None and not 0 <= tower < config.players:  # R13.3
        return Violation(
            "R13.3", f"the stone in the tower belongs to no player: {shown(tower)}", "tower"
        )
    seen: dict[int, int] = {}
    for p, places in enumerate(stones):  # R13.4
        route, length = config.routes[p], config.lengths[p]
        for i, place in enumerate(places):
            if not 0 < place < length:
                continue
            spot = route[place]
            if spot in seen:
                other = seen[spot]
                if other == p:
                    message, rule = f"two {names[p]} stones stand on field {spot}", "R5.4"
                else:
                    message = f"a {names[other]} and a {names[p]} stone stand on field {spot}"
                    rule = "R7.4"
                return Violation(rule, message, "place", p, i)
            seen[spot] = p
    if (phase is Phase.CHOOSE) != (dice is not None):
        return Violation("R13.5", "dice are on the table exactly in the CHOOSE phase", "turn")
    done = winners(config, stones, tower)
    if len(done) > 1:
        return Violation(
            "R11.3", f"{names[done[0]]} and {names[done[1]]} both have every stone home", "turn"
        )
    if phase is Phase.OVER:
        if not done:
            return Violation(
                "R11.1", "the game is over only when a player's stones are all home", "turn"
            )
        if player != done[0]:
            return Violation("R13.5", f"a finished game's player is its winner, {done[0]}", "turn")
    elif done:
        return Violation(
            "R11.1", f"{names[done[0]]} has every stone home, so the game is over", "turn"
        )
    if dice is not None:
        if tower == player and FACES in dice:
            return Violation(
                "R8.3",
                f"a six frees {names[player]}'s stone from the tower before a move is chosen",
                "turn",
            )
        if not candidates(config, player, stones, dice):
            return Violation(
                "R4.4", "these dice have no legal move: the throw was forfeited", "turn"
            )
    return None


def check_state(state: State) -> None:
    """Normalise a newly built state's fields and raise ``InvalidState`` if it breaks R13."""
    from tower.state import Phase

    set_ = object.__setattr__
    config = state.config
    if not isinstance(config, Config):
        raise InvalidState(f"config must be a Config, not {shown(config)}", "R12.3")
    if not isinstance(state.phase, Phase):
        raise InvalidState(f"phase must be a Phase, not {shown(state.phase)}", "R13.5")
    player = state.player
    if not is_player(player, config.players):
        raise InvalidState(
            f"player must be from 0 to {config.players - 1}, not {shown(player)}", "R13.5"
        )
    stones = state.stones
    if not isinstance(stones, tuple | list) or len(stones) != config.players:
        raise InvalidState(
            f"stones must hold one group for each of {config.players} players", "R13.1"
        )
    normal = []
    for places in stones:
        if not isinstance(places, tuple | list) or not all(
            isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in places
        ):
            raise InvalidState(
                f"a player's places are whole numbers from 0, not {shown(places)}", "R13.2"
            )
        normal.append(tuple(sorted(places)))
    set_(state, "stones", tuple(normal))
    tower = state.tower
    if tower is not None and (not isinstance(tower, int) or isinstance(tower, bool)):
        raise InvalidState(
            f"the tower holds a player's stone or nothing, not {shown(tower)}", "R13.3"
        )
    dice = state.dice
    if dice is not None:
        if (
            not isinstance(dice, tuple | list)
            or len(dice) != 2
            or not all(
                isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= FACES for d in dice
            )
        ):
            raise InvalidState(f"the dice are two numbers from 1 to 6, not {shown(dice)}", "R13.5")
        set_(state, "dice", (min(dice), max(dice)))
    violation = find_violation(config, player, state.phase, state.dice, state.stones, tower)
    if violation is not None:
        raise InvalidState(violation.message, violation.rule)
