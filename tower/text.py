"""A picture of a state in plain text, for a terminal: each player's route, the tower and the turn.

Each player has one line: the colour, the stones at the start, a strip of
the route's fields from step 1 to the last before the goal, and the stones
in the goal.  A cell of the strip shows the capital letter of a stone
standing on that field, whoever's it is, or else what the field is: its
colour in lower case, ``+`` for the crossing, ``*`` for another star, ``.``
for a plain field.  Routes may differ, so each strip is read along its own
player's route: a move ``12+3`` of that player goes from cell 12 to cell 15.
A ruler above the strips gives the step numbers.

>>> from tower import parse_state
>>> print(state_text(parse_state('R0,12/B5 B 1c35 @ours')))
Off to the Tower on ours: the crossing is field 10
                   1        10        20        30
red   R  start 1   rbgyB*rbg+yR.bgy*rbgy.r+bgyr.ygb   goal 0
blue  B  start 0   rbgyB*rbg+yR.bgy*rbgy.r+bgyr.ygb   goal 0   tower 1
blue (player 1) to move with 3 and 5: 5+3 5+5
"""

from __future__ import annotations

from tower.notation import format_action
from tower.state import Phase, State

__all__ = ["legend", "state_text"]


def _cell(state: State, number: int, standing: dict[int, str]) -> str:
    """Return the character of field ``number``: the stone on it, or what the field is."""
    if number in standing:
        return standing[number]
    board = state.config.board
    if number == board.crossing:
        return "+"
    field = board.fields[number]
    if field.star:
        return "*"
    return field.colour.lower() if field.colour else "."


def _ruler(width: int, indent: int) -> str:
    """Return a line that numbers steps 1, 10, 20, ... above cells starting at ``indent``."""
    line = [" "] * (indent + width)
    for step in [1, *range(10, width + 1, 10)]:
        label = str(step)
        at = indent + step - 1
        line[at : at + len(label)] = label
    return "".join(line).rstrip()


def _turn(state: State, names: list[str]) -> str:
    """Return the line that says whose turn it is and what they may do."""
    who = f"{names[state.player]} (player {state.player})"
    if state.phase is Phase.OVER:
        return f"{who} has won"
    if state.phase is Phase.THROW:
        return f"{who} to throw"
    assert state.dice is not None
    moves = " ".join(format_action(m) for m in state.legal_moves())
    return f"{who} to move with {state.dice[0]} and {state.dice[1]}: {moves}"


def state_text(state: State) -> str:
    """Return a picture of ``state`` in a few lines of plain text: routes, tower and turn."""
    config = state.config
    board = config.board
    names = [board.colour(letter).name for letter in config.colours]
    standing: dict[int, str] = {}
    for p, places in enumerate(state.stones):
        for place in places:
            if 0 < place < config.lengths[p]:
                standing[config.routes[p][place]] = config.colours[p]
    width = max(config.lengths) - 1
    name_width = max(len(name) for name in names)
    head = f"{'':{name_width}}  {'':1}  start 0   "
    lines = [
        f"Off to the Tower on {board.shipped_name() or board.name}: "
        f"the crossing is field {board.crossing}",
        _ruler(width, len(head)),
    ]
    for p, places in enumerate(state.stones):
        length = config.lengths[p]
        strip = "".join(_cell(state, n, standing) for n in config.routes[p][1:length])
        line = (
            f"{names[p]:{name_width}}  {config.colours[p]}  start {places.count(0)}   "
            f"{strip:{width}}   goal {places.count(length)}"
        )
        if state.tower == p:
            line += "   tower 1"
        lines.append(line)
    lines.append(_turn(state, names))
    return "\n".join(lines)


def legend(state: State) -> str:
    """Return the key to the marks of :func:`state_text`, printed under the picture.

    >>> from tower import parse_state
    >>> print(legend(parse_state('R0,12/B5 B 1c35 @ours')))
    legend: R B stones of red and blue; r b g y fields of those colours, + the crossing,
            * a star, . a plain field; each strip follows its own player's route
    """
    config = state.config
    board = config.board
    stones = " ".join(config.colours)
    names = [board.colour(letter).name for letter in config.colours]
    whose = " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
    fields = " ".join(c.letter.lower() for c in board.colours)
    return (
        f"legend: {stones} stones of {whose}; {fields} fields of those colours, "
        "+ the crossing,\n        "
        "* a star, . a plain field; each strip follows its own player's route"
    )
