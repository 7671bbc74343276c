"""The board as data: the board file (N4), the rules of a playable board (R2) and routes.

A :class:`Board` is read from its JSON form by :func:`board_from_json`, which
checks the form of the file (N4.1 to N4.5) and then the rules of R2 in the
order of N4.6, and raises :class:`~tower.errors.InvalidBoard` naming the
first rule broken.  The shipped boards (R2.7) are files in ``tower/boards/``
and :func:`load_board` reads them by name.  A board's canonical JSON text
(N4.7) is what state notation embeds, and two boards are equal exactly when
their canonical texts are.

Each colour's *route* (R2.6) is the list of fields its stones walk: step 0
is the start, steps 1 to length - 1 are fields, and the last step, the
length, is the goal.

>>> board = load_board('small')
>>> board.route('B')
(0, 11, 2, 3, 4, 5, 6, 7, 4, 8, 9, 22)
>>> board.crossing, board.length('G')
(4, 10)
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dicekit.boarddata import NAME, BoardFiles, canonical_text
from tower.errors import InvalidBoard, shown

__all__ = [
    "BOARD_FILES",
    "FORMAT",
    "Board",
    "Colour",
    "Field",
    "board_from_json",
    "board_to_json",
    "load_board",
]

#: The value of ``format`` in a board file (N4.1).
FORMAT = "tower-board/1"
#: The shipped boards (R2.7): ``tower/boards/NAME.json``.
BOARD_FILES = BoardFiles(Path(__file__).resolve().parent / "boards")

_NUMBER = re.compile(r"[1-9][0-9]{0,2}")
_TEXT = re.compile(r"[ -~]{1,200}")
_LETTER = re.compile(r"[A-Z]")
_COLOUR_NAME = re.compile(r"[a-z ]{1,20}")
_PAINT = re.compile(r"#[0-9a-f]{6}")
_MAX_AT = 100_000
_KEYS = ("format", "name", "title", "note", "start", "fields", "track", "colours")
_REQUIRED = ("format", "name", "title", "fields", "track", "colours")
_FIELD_KEYS = ("colour", "star", "at")
_COLOUR_KEYS = ("name", "paint", "way_in", "entry", "gate", "goal")


@dataclass(frozen=True, slots=True)
class Field:
    """A field of the board (R2.1): number, colour (a letter or ``None``), star, drawing point."""

    number: int
    colour: str | None = None
    star: bool = False
    at: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Colour:
    """A colour of the board (R2.3): its letter, name, paint, way in, entry, gate and goal."""

    letter: str
    name: str
    paint: str
    way_in: tuple[int, ...]
    entry: int
    gate: int
    goal: int


@dataclass(frozen=True, eq=False)
class Board:
    """A board that meets every rule of R2: see :func:`board_from_json` and :func:`load_board`.

    ``fields`` maps each field number to its :class:`Field`, in increasing
    order; ``track`` lists field numbers in the order of travel; ``colours``
    are in the board's order.  Equality and hashing go by the canonical text.
    """

    name: str
    title: str
    fields: Mapping[int, Field]
    track: tuple[int, ...]
    colours: tuple[Colour, ...]
    note: str | None = None
    start: tuple[int, int] | None = None
    _text: str = field(default="", repr=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other._text == self._text

    def __hash__(self) -> int:
        return hash(self._text)

    def __repr__(self) -> str:
        shipped = self.shipped_name()
        return f"Board({shipped!r})" if shipped else f"Board(<embedded {self.name!r}>)"

    @functools.cached_property
    def crossing(self) -> int:
        """The field number of the crossing, the one field the track passes twice (R2.2)."""
        return next(number for number, n in Counter(self.track).items() if n == 2)

    @functools.cached_property
    def letters(self) -> tuple[str, ...]:
        """The colour letters, in the board's order (R2.3)."""
        return tuple(c.letter for c in self.colours)

    def colour(self, letter: str) -> Colour:
        """Return the colour ``letter``; raise ``KeyError`` if the board lacks it."""
        for colour in self.colours:
            if colour.letter == letter:
                return colour
        raise KeyError(letter)

    @functools.cached_property
    def routes(self) -> Mapping[str, tuple[int, ...]]:
        """Each colour's route: the field of each step, 0 for the start, the goal last (R2.6)."""
        return {
            c.letter: (0, *c.way_in, *self.track[c.entry - 1 : c.gate], c.goal)
            for c in self.colours
        }

    def route(self, letter: str) -> tuple[int, ...]:
        """Return the field of each step of ``letter``'s route, the goal last (R2.6)."""
        return self.routes[letter]

    def length(self, letter: str) -> int:
        """Return the number of steps of ``letter``'s route: the step of its goal."""
        return len(self.route(letter)) - 1

    def shipped_name(self) -> str | None:
        """Return the name of the shipped board equal to this one, or ``None``."""
        return self._shipped

    @functools.cached_property
    def _shipped(self) -> str | None:
        if self.name in BOARD_FILES.names() and load_board(self.name) == self:
            return self.name
        return None

    @property
    def text(self) -> str:
        """The canonical JSON text of the board (N4.7)."""
        return self._text


@functools.cache
def load_board(name: str) -> Board:
    """Return the shipped board ``name`` (R2.7); an unknown name raises ``InvalidBoard`` (R12.3).

    >>> load_board('ours').length('R'), load_board('ours').crossing
    (33, 10)
    """
    try:
        data = BOARD_FILES.read(name)
    except KeyError:
        names = ", ".join(BOARD_FILES.names())
        raise InvalidBoard(
            f"there is no shipped board {shown(name)}; the boards are {names}", "R12.3"
        ) from None
    return board_from_json(data)


def board_to_json(board: Board) -> dict[str, Any]:
    """Return the JSON form of ``board``, keys in canonical order (N4.7)."""
    data: dict[str, Any] = {"format": FORMAT, "name": board.name, "title": board.title}
    if board.note is not None:
        data["note"] = board.note
    if board.start is not None:
        data["start"] = list(board.start)
    fields: dict[str, Any] = {}
    for number, f in board.fields.items():
        item: dict[str, Any] = {}
        if f.colour is not None:
            item["colour"] = f.colour
        if f.star:
            item["star"] = True
        if f.at is not None:
            item["at"] = list(f.at)
        fields[str(number)] = item
    data["fields"] = fields
    data["track"] = list(board.track)
    data["colours"] = {
        c.letter: {
            "name": c.name,
            "paint": c.paint,
            "way_in": list(c.way_in),
            "entry": c.entry,
            "gate": c.gate,
            "goal": c.goal,
        }
        for c in board.colours
    }
    return data


def board_from_json(data: object) -> Board:
    """Return the board of a JSON value; raise ``InvalidBoard`` naming the first rule broken (N4.6).

    >>> from dicekit.boarddata import change
    >>> small = board_to_json(load_board('small'))
    >>> board_from_json(change(small, 'fields.4.star=false'))
    Traceback (most recent call last):
    ...
    tower.errors.InvalidBoard: the crossing, field 4, bears no star (rule R2.2)
    """
    board = _read_form(data)
    _check_rules(board)
    return board


# -- the form of the file (N4.1 to N4.5) ------------------------------------------


def _fail(message: str, rule: str) -> InvalidBoard:
    return InvalidBoard(message, rule)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: object, what: str, rule: str) -> str:
    if not isinstance(value, str) or not _TEXT.fullmatch(value):
        raise _fail(f"{what} must be 1 to 200 printable ASCII characters, not {shown(value)}", rule)
    return value


def _point(value: object, what: str, rule: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(_is_int(v) and 0 <= v <= _MAX_AT for v in value)
    ):
        raise _fail(f"{what} must be two integers from 0 to {_MAX_AT}, not {shown(value)}", rule)
    return (value[0], value[1])


def _check_keys(
    data: dict[str, object], known: tuple[str, ...], required: tuple[str, ...], what: str, rule: str
) -> None:
    """Refuse a key of ``data`` that is not ``known`` and a ``required`` key it lacks."""
    for key in data:
        if key not in known:
            raise _fail(f"unknown key {shown(key)} in {what}", rule)
    for key in required:
        if key not in data:
            raise _fail(f"{what} needs the key {shown(key)}", rule)


def _read_form(data: object) -> Board:
    if not isinstance(data, dict):
        raise _fail(f"a board is a JSON object, not {type(data).__name__}", "N4.1")
    _check_keys(data, _KEYS, _REQUIRED, "a board", "N4.1")
    if data["format"] != FORMAT:
        raise _fail(f"the format must be {FORMAT!r}, not {shown(data['format'])}", "N4.1")
    name = data["name"]
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise _fail(
            f"a board's name is a lower-case letter and up to 31 lower-case letters, "
            f"digits and hyphens, not {shown(name)}",
            "N4.2",
        )
    title = _text(data["title"], "the title", "N4.2")
    note = _text(data["note"], "the note", "N4.2") if "note" in data else None
    start = _point(data["start"], "the start", "N4.1") if "start" in data else None
    fields = _read_fields(data["fields"])
    track = _read_numbers(data["track"], fields, "the track", "N4.4")
    colours = _read_colours(data["colours"], fields)
    board = Board(name, title, fields, tuple(track), colours, note, start)
    object.__setattr__(board, "_text", "")
    object.__setattr__(board, "_text", canonical_text(board_to_json(board)))
    return board


def _read_fields(value: object) -> dict[int, Field]:
    if not isinstance(value, dict):
        raise _fail("the fields are a JSON object from field number to field", "N4.3")
    fields: dict[int, Field] = {}
    for key, item in value.items():
        if not isinstance(key, str) or not _NUMBER.fullmatch(key):
            raise _fail(
                f"a field number is 1 to 999 without a leading zero, not {shown(key)}", "N4.3"
            )
        if not isinstance(item, dict):
            raise _fail(f"field {key} must be a JSON object", "N4.3")
        _check_keys(item, _FIELD_KEYS, (), f"field {key}", "N4.3")
        colour = item.get("colour")
        if colour is not None and (not isinstance(colour, str) or not _LETTER.fullmatch(colour)):
            raise _fail(f"the colour of field {key} must be a capital letter or null", "N4.3")
        star = item.get("star", False)
        if not isinstance(star, bool):
            raise _fail(f"the star of field {key} must be true or false, not {shown(star)}", "N4.3")
        at = _point(item["at"], f"the point of field {key}", "N4.3") if "at" in item else None
        fields[int(key)] = Field(int(key), colour, star, at)
    drawn = [f.number for f in fields.values() if f.at is not None]
    if drawn and len(drawn) != len(fields):
        missing = min(n for n, f in fields.items() if f.at is None)
        raise _fail(
            f"field {missing} has no point to draw it at, but other fields have; "
            f"give every field a point or none",
            "N4.3",
        )
    return dict(sorted(fields.items()))


def _read_numbers(value: object, fields: Mapping[int, Field], what: str, rule: str) -> list[int]:
    if not isinstance(value, list):
        raise _fail(f"{what} must be a list of field numbers", rule)
    for number in value:
        if not _is_int(number) or number not in fields:
            raise _fail(f"{what} names {shown(number)}, which is not a field of the board", rule)
    return list(value)


def _read_colours(value: object, fields: Mapping[int, Field]) -> tuple[Colour, ...]:
    if not isinstance(value, dict):
        raise _fail("the colours are a JSON object from colour letter to colour", "N4.5")
    colours = []
    for letter, item in value.items():
        if not _LETTER.fullmatch(letter):
            raise _fail(f"a colour is named by one capital letter, not {shown(letter)}", "N4.5")
        if not isinstance(item, dict):
            raise _fail(f"colour {letter} must be a JSON object", "N4.5")
        _check_keys(item, _COLOUR_KEYS, _COLOUR_KEYS, f"colour {letter}", "N4.5")
        name, paint = item["name"], item["paint"]
        if not isinstance(name, str) or not _COLOUR_NAME.fullmatch(name):
            raise _fail(
                f"the name of colour {letter} is 1 to 20 lower-case letters and spaces", "N4.5"
            )
        if not isinstance(paint, str) or not _PAINT.fullmatch(paint):
            raise _fail(
                f"the paint of colour {letter} is #rrggbb in lower case, not {shown(paint)}", "N4.5"
            )
        way_in = _read_numbers(item["way_in"], fields, f"the way in of colour {letter}", "N4.5")
        for k in ("entry", "gate"):
            if not _is_int(item[k]):
                raise _fail(f"the {k} of colour {letter} is a track position", "N4.5")
        goal = item["goal"]
        if not _is_int(goal) or goal not in fields:
            raise _fail(
                f"the goal of colour {letter} names {shown(goal)}, which is not a field", "N4.5"
            )
        colours.append(
            Colour(letter, name, paint, tuple(way_in), item["entry"], item["gate"], goal)
        )
    return tuple(colours)


# -- the rules of a playable board (R2), in the order of N4.6 -----------------------


def _check_rules(board: Board) -> None:
    count = len(board.colours)
    if not 2 <= count <= 4:
        raise _fail(f"a board has two to four colours, not {count}", "R2.3")
    letters = {c.letter for c in board.colours}
    for f in board.fields.values():
        if f.colour is not None and f.colour not in letters:
            raise _fail(f"field {f.number} has colour {f.colour}, which the board lacks", "R2.1")
        if f.star and f.colour is not None:
            raise _fail(f"field {f.number} bears a star, so it has no colour", "R2.1")
    _check_track(board)
    on_track = set(board.track)
    goals = {c.goal for c in board.colours}
    for c in board.colours:
        for number in c.way_in:
            if number in on_track or number in goals:
                where = "on the track" if number in on_track else "a goal"
                raise _fail(f"field {number} of {c.name}'s way in is {where}", "R2.4")
        if not 1 <= c.entry <= len(board.track):
            raise _fail(
                f"{c.name}'s entry {c.entry} is not a track position (1 to {len(board.track)})",
                "R2.4",
            )
        if not c.entry <= c.gate <= len(board.track):
            raise _fail(
                f"{c.name}'s gate {c.gate} must be a track position from its entry "
                f"{c.entry} to {len(board.track)}",
                "R2.5",
            )
        goal = board.fields[c.goal]
        if goal.colour != c.letter:
            raise _fail(f"{c.name}'s goal, field {c.goal}, is not {c.name}", "R2.5")
        if c.goal in on_track or any(c.goal in other.way_in for other in board.colours):
            raise _fail(f"{c.name}'s goal, field {c.goal}, lies on a route", "R2.5")
        if sum(1 for other in board.colours if other.goal == c.goal) > 1:
            raise _fail(f"field {c.goal} is the goal of two colours", "R2.5")
        _check_route(board, c)


def _check_track(board: Board) -> None:
    counts = Counter(board.track)
    thrice = sorted(n for n, k in counts.items() if k > 2)
    if thrice:
        raise _fail(f"field {thrice[0]} appears {counts[thrice[0]]} times on the track", "R2.2")
    twice = sorted(n for n, k in counts.items() if k == 2)
    if len(twice) != 1:
        found = "no field" if not twice else f"fields {', '.join(map(str, twice))}"
        raise _fail(
            f"the track must pass exactly one field twice, its crossing; {found} does", "R2.2"
        )
    crossing = twice[0]
    first = board.track.index(crossing)
    second = board.track.index(crossing, first + 1)
    if second - first - 1 < 2:
        raise _fail(
            f"the loop between the two passes of the crossing, field {crossing}, "
            f"holds {second - first - 1} field; it needs at least two",
            "R2.2",
        )
    if not board.fields[crossing].star:
        raise _fail(f"the crossing, field {crossing}, bears no star", "R2.2")


def _check_route(board: Board, colour: Colour) -> None:
    route = board.route(colour.letter)
    fields = route[1:-1]
    counts = Counter(fields)
    for number, n in counts.items():
        if n > 1 and number != board.crossing:
            raise _fail(f"{colour.name}'s route visits field {number} {n} times", "R2.6")
    if len(fields) < 6 or not board.fields[fields[5]].star:
        raise _fail(f"step 6 of {colour.name}'s route must be a field with a star", "R2.6")
