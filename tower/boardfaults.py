"""Boards made to break one rule of R2 each: the shipped boards with one part changed or taken away.

A board is data (N4), and R2 says what a board must have to be played on.
The conformance suite asks a port to refuse boards that lack one of these,
under the rule the engine names: each of :func:`broken_setups` is a shipped
board given as data with one change, a change of the kind R2 refuses (a star
taken away, a star field coloured, a colour dropped or left alone, a way in
laid on the track or a goal, two goals swapped, the crossing's second pass
cut).  Which rule a board breaks is the engine's to say, not this module's:
the suite keeps the boards the engine refuses and expects the rule it names.

>>> setups = broken_setups()
>>> setups[0][1], setups[0][2]
('board small: the star of field 4 taken away', ('boards', 'players=2'))
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from tower.board import board_to_json, load_board

__all__ = ["SHIPPED", "broken_setups"]

#: The shipped boards the broken ones are made from.
SHIPPED = ("small", "ours")

#: What a port needs to be asked a configuration on a board given as data.
NEEDS = ("boards", "players=2")


def broken_setups() -> list[tuple[dict[str, Any], str, tuple[str, ...]]]:
    """Return two-player configurations on shipped boards each changed once, with the change.

    Each item is the configuration's JSON form, a few words on what was
    changed, and what a port needs to be asked it.
    """
    out: list[tuple[dict[str, Any], str, tuple[str, ...]]] = []
    for name in SHIPPED:
        board = board_to_json(load_board(name))
        for changed, words in _changes(board):
            out.append(({"board": changed, "players": 2}, f"board {name}: {words}", NEEDS))
    return out


def _changes(board: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
    fields: dict[str, dict[str, Any]] = board["fields"]
    colours: dict[str, dict[str, Any]] = board["colours"]
    letters = list(colours)
    stars = [key for key, field in fields.items() if field.get("star")]

    def changed() -> dict[str, Any]:
        return copy.deepcopy(board)

    for key in stars:
        new = changed()
        del new["fields"][key]["star"]
        yield new, f"the star of field {key} taken away"
    for key in stars:
        new = changed()
        new["fields"][key]["colour"] = letters[0]
        yield new, f"star field {key} coloured {letters[0]}"
    for letter in letters:
        new = changed()
        del new["colours"][letter]
        yield new, f"colour {letter} dropped"
    new = changed()
    new["colours"] = {letters[0]: colours[letters[0]]}
    yield new, f"colour {letters[0]} alone"
    for letter in letters:
        colour = colours[letter]
        for part in ("entry", "goal"):
            new = changed()
            new["colours"][letter]["way_in"] = [*colour["way_in"], colour[part]]
            yield new, f"{letter}'s way in ends on its {part}, field {colour[part]}"
    first, second = letters[0], letters[1]
    new = changed()
    new["colours"][first]["goal"] = colours[second]["goal"]
    new["colours"][second]["goal"] = colours[first]["goal"]
    yield new, f"the goals of {first} and {second} swapped"
    track: list[int] = board["track"]
    again = next((i for i, f in enumerate(track) if f in track[:i]), None)
    if again is not None:
        new = changed()
        new["track"] = track[:again] + track[again + 1 :]
        yield new, f"the track's second pass of the crossing, field {track[again]}, cut"
