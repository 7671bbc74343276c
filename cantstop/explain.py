"""Explanations: what the rules say about a position, statement by statement, with rule ids.

:func:`explain` tells the story of a position: for dice on the table, what each
pairing's sums do (advance, place, or a drop with its reason), whether the two
can be played together, which moves each pairing offers and why, and the legal
moves traced back to the pairings; for a player about to roll, what stopping
would do, the exact chance of a bust and what a bust would lose; for a
finished game, who won with which columns.  Given an action, it also says
whether the action is legal and, if not, under which rule, as
:class:`~cantstop.IllegalAction` would, in a full sentence.

The moves are derived here from the decision table of R5
(:meth:`State.play_of <cantstop.State.play_of>`), pairing by pairing as R6.6
describes, not read from :meth:`~cantstop.State.legal_moves`, so that the
tests can compare the two.  Every statement names the rules it applies.  The
statements, their sentences and the JSON form are fixed by ``spec/explain.md``;
:data:`~cantstop.explain.TEMPLATES` is that page's table of sentences.

On a custom board of two columns of height 1 (``h2:1,7:1``), 1-1-6-6:

>>> from cantstop import parse_state
>>> print(explain(parse_state('- - 0c1166 h2:1,7:1 w1')).text(), end='')
Player 0 has rolled 1-1-6-6 and must play it (R3.3).
No marker is on the board; all three are free (R1.4).
Pairing 1: 1+1 and 6+6 make 2 and 12 (R4.2).
  The 2 places a marker in column 2 on space 1, the top space (R5.2, R8.1).
  The 12 is dropped: the board has no column 12 (R15.3).
  Only the 2 can be played, so pairing 1 offers 2 alone and the 12 is lost (R6.2).
Pairing 2: 1+6 and 1+6 make 7 twice (R4.2, R4.4).
  The first 7 places a marker in column 7 on space 1, the top space (R5.2, R8.1).
  The second 7 is dropped: the marker in column 7 is on the top space (R7.3, R8.1).
  Only the first step can be played, so pairing 2 offers 7 alone (R7.3).
Pairing 3: 1+6 and 1+6 again, the same sums as pairing 2 (R4.2).
The legal moves are 2 and 7 (R6.6).
  2 comes from pairing 1 and leaves the markers in column 2 on space 1 (R6.6).
  7 comes from pairings 2 and 3 and leaves the markers in column 7 on space 1 (R6.6).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cantstop.actions import Action, Move, Roll, Stop
from cantstop.dice import pairings
from cantstop.errors import IllegalAction, InvalidState
from cantstop.game import Phase, Play, State
from cantstop.notation import format_action, format_state
from cantstop.rules import MARKERS, Variant

__all__ = ["FORMAT", "TEMPLATES", "Explanation", "Statement", "explain"]

#: The value of the ``format`` field of the JSON form.
FORMAT = "cantstop-explain/1"

#: The sentence of each kind of statement, and of each fragment (``where.*``,
#: ``reason.*``), with the rule ids it cites: the table of ``spec/explain.md``.
TEMPLATES: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "position.roll": ("Player {player} is about to roll; no marker is on the board.", ("R3.2",)),
    "position.choose": ("Player {player} has rolled {dice} and must play it.", ("R3.3",)),
    "position.decide": (
        "Player {player} has played the roll and may roll again or stop.",
        ("R3.4",),
    ),
    "position.over": (
        "The game is over: player {player} has won, and no action is possible any more.",
        ("R12.3",),
    ),
    "verdict.roll-first": ("{action} is legal: every turn starts with a roll.", ("R3.2",)),
    "verdict.roll-again": (
        "{action} is legal: after a move the player may roll again.",
        ("R3.4",),
    ),
    "verdict.stop": (
        "{action} is legal: the roll has been played, so player {player} may stop.",
        ("R11.1",),
    ),
    "verdict.move": ("{action} is legal: it comes from {pairings}.", ("R6.6",)),
    "illegal.game-over": ("{action} is not legal: the game is over.", ("R12.3",)),
    "illegal.dice-waiting": (
        "{action} is not legal: the dice {dice} must be played first.",
        ("R3.3",),
    ),
    "illegal.move-before-roll": (
        "{action} is not legal: there are no dice to play, since a turn starts with a roll.",
        ("R3.2",),
    ),
    "illegal.stop-before-roll": (
        "{action} is not legal: a player must roll at least once before stopping.",
        ("R11.1",),
    ),
    "illegal.move-after-move": (
        "{action} is not legal: the roll has already been played, "
        "so the player rolls again or stops.",
        ("R3.4",),
    ),
    "illegal.stop-sharing": ("{action} is not legal under Variant B: {shares}.", ("R14.2",)),
    "illegal.no-pairing-two": (
        "{action} is not legal: no pairing of {dice} makes {x} and {y}.",
        ("R4.3",),
    ),
    "illegal.no-pairing-one": ("{action} is not legal: no pairing of {dice} makes {x}.", ("R4.3",)),
    "illegal.dropped": ("{action} is not legal: {x} cannot be played, because {reason}.", ()),
    "illegal.second-step": (
        "{action} is not legal: after the first {x} the marker in column {x} is on the "
        "top space, so the second step is forfeit.",
        ("R7.3",),
    ),
    "illegal.one-free": (
        "{action} is not legal: {x} and {y} each need a new marker, and only one is free.",
        ("R6.3",),
    ),
    "illegal.one-step": (
        "{action} is not legal: pairing {n} makes {x} twice and both steps can be played, "
        "so one step alone is not allowed.",
        ("R7.1",),
    ),
    "illegal.one-sum": (
        "{action} is not legal: pairing {n} makes {x} with {y}, and both can be played "
        "together, so {x} alone is not allowed.",
        ("R6.1",),
    ),
    "alternatives": ("Player {player} may play {moves_or} instead.", ("R6.6",)),
    "markers.none": ("No marker is on the board; all three are free.", ("R1.4",)),
    "markers.one": ("One marker stands {cells}; {free}.", ("R1.4",)),
    "markers.some": ("The markers stand {cells}; {free}.", ("R1.4",)),
    "dice": (
        "The dice were thrown as {thrown}; sorted, they are {dice}, "
        "and their order does not matter.",
        ("R4.1",),
    ),
    "pairing": ("Pairing {n}: {pair1} and {pair2} make {x} and {y}.", ("R4.2",)),
    "pairing.double": ("Pairing {n}: {pair1} and {pair2} make {x} twice.", ("R4.2", "R4.4")),
    "pairing.same": (
        "Pairing {n}: {pair1} and {pair2} again, the same sums as pairing {m}.",
        ("R4.2",),
    ),
    "sum.advance": (
        "{subject} advances the marker in column {x} from space {from} to space {to}{where}.",
        ("R5.1",),
    ),
    "sum.place": ("{subject} places a marker in column {x} on space {to}{where}.", ("R5.2",)),
    "sum.dropped": ("{subject} is dropped: {reason}.", ()),
    "where.above": (", above player {player}'s square on space {square}", ()),
    "where.skip-one": (
        ", skipping space {spaces}, which holds another player's square",
        ("R14.1",),
    ),
    "where.skip-many": (
        ", skipping spaces {spaces}, which hold other players' squares",
        ("R14.1",),
    ),
    "where.top": (", the top space", ("R8.1",)),
    "reason.won": ("column {x} has been won by player {owner}", ("R9.2",)),
    "reason.top": ("the marker in column {x} is on the top space", ("R8.1",)),
    "reason.no-marker": ("column {x} has no marker and all three are in use", ("R5.3",)),
    "reason.no-column": ("the board has no column {x}", ("R15.3",)),
    "offer.both": (
        "Both sums can be played together, so pairing {n} offers {x}+{y} and not one sum alone.",
        ("R6.1",),
    ),
    "offer.either": (
        "Each sum needs a new marker and only one is free, so pairing {n} offers {x} or {y} alone.",
        ("R6.3",),
    ),
    "offer.one": (
        "Only the {x} can be played, so pairing {n} offers {x} alone and the {y} is lost.",
        ("R6.2",),
    ),
    "offer.none": ("Neither sum can be played, so pairing {n} offers no move.", ("R6.5",)),
    "offer.double": (
        "Both steps can be played, so pairing {n} offers {x}+{x} and not one step alone.",
        ("R7.1",),
    ),
    "offer.first-step": (
        "Only the first step can be played, so pairing {n} offers {x} alone.",
        ("R7.3",),
    ),
    "offer.no-step": (
        "Not even the first step can be played, so pairing {n} offers no move.",
        ("R6.5",),
    ),
    "moves.some": ("The legal moves are {moves}.", ("R6.6",)),
    "moves.one": ("The only legal move is {move}.", ("R6.6",)),
    "moves.bust": ("No pairing plays anything, so the roll is a bust.", ("R10.1",)),
    "move": ("{move} comes from {pairings} and leaves the markers {cells}.", ("R6.6",)),
    "result.choose": (
        "The state becomes {state}, and player {player} must choose a move.",
        ("R3.3",),
    ),
    "result.move": (
        "The state becomes {state}, and player {player} may roll again or stop.",
        ("R3.4",),
    ),
    "result.bust": ("The state becomes {state}, and it is player {next}'s turn.", ("R10.2",)),
    "result.stop": ("The state becomes {state}, and it is player {next}'s turn.", ("R11.4",)),
    "result.won": ("The state becomes {state}: player {player} has won the game.", ("R12.1",)),
    "stop.not-yet": ("Player {player} may not stop before rolling.", ("R11.1",)),
    "stop.refused": (
        "Player {player} may not stop now under Variant B, since {shares}; "
        "the next action must be a roll.",
        ("R14.2",),
    ),
    "stop.squares": ("If player {player} stops, the markers become squares {cells}.", ("R11.2",)),
    "stop.column": (
        "Column {column} would be won, since its marker is on the top space.",
        ("R11.3",),
    ),
    "stop.removes": (
        "Player {other}'s square on space {space} of column {column} would leave the board.",
        ("R9.3",),
    ),
    "stop.wins": (
        "Player {player} would then hold {held}, reaching the target of {target}, "
        "and win the game.",
        ("R12.1",),
    ),
    "stop.passes": (
        "Player {player} would then hold {held}, short of the target of {target}, "
        "and the turn would pass to player {next}.",
        ("R11.4",),
    ),
    "chance.none": ("If player {player} rolls, none of the 1296 rolls busts.", ("R10.1",)),
    "chance.some": (
        "If player {player} rolls, the chance of a bust is {chance} "
        "({busts} of the 1296 rolls), about {percent}.",
        ("R10.1",),
    ),
    "bust.nothing": (
        "A bust would lose nothing, since no marker is on the board, "
        "and the turn would pass to player {next}.",
        ("R10.2",),
    ),
    "bust.loss": (
        "On a bust the markers come off, the squares stay, and the turn passes to player {next}.",
        ("R10.2",),
    ),
    "bust.back": (
        "In column {column} the marker on space {space} comes off, "
        "and player {player}'s square stays on space {square}.",
        ("R10.2",),
    ),
    "bust.gone": (
        "In column {column} the marker on space {space} comes off, "
        "and player {player} keeps nothing there.",
        ("R10.2",),
    ),
    "bust.top": ("Column {column} is not won, although its marker is on the top space.", ("R8.2",)),
    "over.won": (
        "Player {player} won with {columns}, reaching the target of {target}.",
        ("R12.1",),
    ),
    "over.holds": ("Player {player} holds {columns}.", ("R9.1",)),
}

#: The depth of each kind of statement that is not at depth 0.
_DEPTHS: Mapping[str, int] = {
    "sum": 1,
    "offer": 1,
    "move": 1,
    "alternatives": 1,
    "stop.column": 1,
    "stop.wins": 1,
    "stop.passes": 1,
    "bust.back": 1,
    "bust.gone": 1,
    "over.won": 1,
    "over.holds": 1,
    "stop.removes": 2,
    "bust.top": 2,
}

#: Every ordered roll of four dice, for the chance of a bust.
_ROLLS = 1296

_REASONS: Mapping[Play, str] = {
    Play.WON: "reason.won",
    Play.TOP: "reason.top",
    Play.NO_MARKER: "reason.no-marker",
    Play.NO_COLUMN: "reason.no-column",
}

#: The play of a sum as the ``data`` of a sum statement writes it.
_PLAY_NAMES: Mapping[Play, str] = {
    Play.ADVANCE: "advance",
    Play.PLACE: "place",
    Play.WON: "won",
    Play.TOP: "top",
    Play.NO_MARKER: "no marker",
    Play.NO_COLUMN: "no column",
}


# -- the explanation as a value -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of an explanation: a sentence, the rules it applies and its facts.

    ``kind`` is the key of its sentence in :data:`~cantstop.explain.TEMPLATES`, ``depth`` its
    level of detail (0 for the whole position), ``text`` the sentence (ASCII,
    ending with a full stop, without rule ids), ``rules`` the rule ids it
    applies and ``data`` its facts as JSON values (spec/explain.md, X3).

    >>> from cantstop import parse_state
    >>> first = explain(parse_state('-/- - 0r')).statements[0]
    >>> first.kind, first.rules, first.line()
    ('position.roll', ('R3.2',), 'Player 0 is about to roll; no marker is on the board (R3.2).')
    """

    kind: str
    depth: int
    text: str
    rules: tuple[str, ...]
    data: Mapping[str, Any]

    def line(self) -> str:
        """Return the statement's line of the text form: indented, its rule ids in parentheses."""
        return f"{'  ' * self.depth}{self.text[:-1]} ({', '.join(self.rules)})."

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object: ``kind``, ``depth``, ``text``, ``rules`` and ``data``."""
        return {
            "kind": self.kind,
            "depth": self.depth,
            "text": self.text,
            "rules": list(self.rules),
            "data": dict(self.data),
        }


@dataclass(frozen=True, slots=True)
class Explanation:
    """What the rules say about ``state`` (and ``action``): the result of :func:`explain`.

    ``legal`` says whether ``action`` is legal (``None`` without an action);
    ``moves`` are the legal moves of the dice explained, as the explanation
    derives them (``()`` for a roll that busts, ``None`` when no dice are
    explained); ``statements`` are the statements in order.

    >>> from cantstop import Move, parse_state
    >>> why = explain(parse_state('7:2/- - 0c3455'), Move((7,)))
    >>> why.legal, why.moves
    (False, (Move(columns=(7, 10)), Move(columns=(8, 9))))
    >>> refusal = why.statements[1]
    >>> refusal.kind, refusal.rules, refusal.data['rule']
    ('illegal.one-sum', ('R6.1',), 'R6.1')
    >>> refusal.text[:58]
    '7 is not legal: pairing 1 makes 7 with 10, and both can be'
    """

    state: State
    action: Action | None
    legal: bool | None
    moves: tuple[Move, ...] | None
    statements: tuple[Statement, ...]

    def text(self) -> str:
        """Return the text form: one line per statement, each ending with a line feed."""
        return "".join(statement.line() + "\n" for statement in self.statements)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form as plain values (spec/explain.md, X1.3).

        >>> from cantstop import parse_state
        >>> data = explain(parse_state('7:2/- - 0c3455')).to_json()
        >>> data['format'], data['moves'], data['statements'][0]['kind']
        ('cantstop-explain/1', ['7+10', '8+9'], 'position.choose')
        """
        return {
            "format": FORMAT,
            "state": format_state(self.state),
            "action": None if self.action is None else format_action(self.action),
            "legal": self.legal,
            "moves": None if self.moves is None else [format_action(m) for m in self.moves],
            "statements": [statement.to_json() for statement in self.statements],
        }

    def to_json_text(self) -> str:
        """Return the canonical serialization of the JSON form: compact, fields in order.

        >>> from cantstop import parse_state
        >>> explain(parse_state('-/- - 0r')).to_json_text()[:60]
        '{"format":"cantstop-explain/1","state":"-/- - 0r","action":n'
        """
        return json.dumps(self.to_json(), separators=(",", ":"))

    def __str__(self) -> str:
        return self.text()


# -- sentences ----------------------------------------------------------------------


def _listed(items: Sequence[str], joiner: str = "and") -> str:
    """Join ``items`` as a list: ``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {joiner} {items[-1]}"


def _cells(positions: Mapping[int, int]) -> str:
    return _listed([f"in column {c} on space {s}" for c, s in sorted(positions.items())])


def _columns(columns: Sequence[int]) -> str:
    names = [str(c) for c in sorted(columns)]
    return ("column " if len(names) == 1 else "columns ") + _listed(names)


def _pairing_names(numbers: Sequence[int]) -> str:
    return ("pairing " if len(numbers) == 1 else "pairings ") + _listed([str(n) for n in numbers])


def _held(count: int) -> str:
    if count == 0:
        return "no won column"
    return f"{count} won column" + ("" if count == 1 else "s")


def _dice_text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def _percent(busts: int) -> str:
    tenths = (2000 * busts + _ROLLS) // (2 * _ROLLS)
    return f"{tenths // 10}.{tenths % 10}%"


class _Writer:
    """Collects statements, filling the templates in."""

    def __init__(self) -> None:
        self.statements: list[Statement] = []

    def say(
        self,
        kind: str,
        data: Mapping[str, Any],
        values: Mapping[str, Any] | None = None,
        *,
        fragments: Sequence[str] = (),
        extra: Sequence[str] = (),
    ) -> None:
        """Add the statement ``kind`` with ``data``; ``values`` fill its template.

        ``fragments`` are the ``where.*`` fragments to append (as ``{where}``)
        and the ``reason.*`` fragment (as ``{reason}``), in the order they are
        written; ``extra`` are the rules the statement adds after its template's.
        """
        fill = dict(values or {})
        rules = list(TEMPLATES[kind][1]) + list(extra)
        where = ""
        for fragment in fragments:
            text, cited = TEMPLATES[fragment]
            if fragment.startswith("reason."):
                fill["reason"] = text.format(**fill)
            else:
                where += text.format(**fill)
            rules.extend(cited)
        fill["where"] = where
        family = kind.split(".")[0]
        depth = _DEPTHS.get(kind, _DEPTHS.get(family, 0))
        self.statements.append(
            Statement(
                kind=kind,
                depth=depth,
                text=TEMPLATES[kind][0].format(**fill),
                rules=tuple(dict.fromkeys(rules)),
                data=data,
            )
        )


# -- what one sum does (the decision table of R5) --------------------------------------


@dataclass(frozen=True, slots=True)
class _Sum:
    """What one sum, or one step of equal sums, does in a position."""

    column: int
    step: int
    play: Play
    start: int | None  # the marker's space, or the player's square (0 for none)
    to: int | None  # where the marker lands
    skipped: tuple[int, ...]  # spaces passed over under Variant A (R14.1)
    owner: int | None  # the owner of a won column
    top: bool  # whether the marker lands on the top space

    @property
    def plays(self) -> bool:
        return self.play.plays


def _sum(state: State, markers: Mapping[int, int], column: int, step: int = 0) -> _Sum:
    """Return what a sum for ``column`` does with ``markers`` on the board (R5, R14.1)."""
    play = state.play_of(column, markers)
    if not play.plays:
        owner = state.won.get(column) if play is Play.WON else None
        return _Sum(column, step, play, None, None, (), owner, False)
    own = state.squares[state.player]
    start = markers[column] if play is Play.ADVANCE else own.get(column, 0)
    landing = start + 1
    skipped: list[int] = []
    if state.rules.variant is Variant.A:
        taken = {
            squares[column]
            for player, squares in enumerate(state.squares)
            if player != state.player and column in squares
        }
        while landing in taken:
            skipped.append(landing)
            landing += 1
    top = landing == state.rules.heights[column]
    return _Sum(column, step, play, start, landing, tuple(skipped), None, top)


def _after(markers: Mapping[int, int], played: _Sum) -> dict[int, int]:
    """Return ``markers`` with the marker of a sum that plays moved to where it lands."""
    assert played.to is not None
    moved = dict(markers)
    moved[played.column] = played.to
    return moved


# -- the pairings of a roll (R4.2, R6, R7) ------------------------------------------


@dataclass(frozen=True, slots=True)
class _Pairing:
    number: int
    pairs: tuple[tuple[int, int], tuple[int, int]]
    sums: tuple[int, int]
    same_as: int | None
    examined: tuple[_Sum, ...]  # the sum statements, in order
    offer: str  # the key of the offer statement
    offers: tuple[Move, ...]


def _pairs(dice: tuple[int, int, int, int]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Return the three splits of sorted dice into two pairs, as pairing statements write them."""
    a, b, c, d = dice
    splits = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
    # The pair with the smaller sum first; on equal sums, the pair holding the first die.
    return [
        (first, second) if sum(first) <= sum(second) else (second, first)
        for first, second in splits
    ]


def _examine(
    state: State, markers: Mapping[int, int], x: int, y: int
) -> tuple[tuple[_Sum, ...], str, tuple[Move, ...]]:
    """Examine the sums ``x <= y`` of one pairing: its sum statements and its offer (R6.6)."""
    if x != y:
        first, second = _sum(state, markers, x), _sum(state, markers, y)
        examined = (first, second)
        if first.plays and second.plays:
            if _sum(state, _after(markers, first), y).plays:
                return examined, "offer.both", (Move((x, y)),)
            return examined, "offer.either", (Move((x,)), Move((y,)))
        if first.plays:
            return examined, "offer.one", (Move((x,)),)
        if second.plays:
            return examined, "offer.one", (Move((y,)),)
        return examined, "offer.none", ()
    first = _sum(state, markers, x, 1)
    if not first.plays:
        return (first,), "offer.no-step", ()
    second = _sum(state, _after(markers, first), x, 2)
    if second.plays:
        return (first, second), "offer.double", (Move((x, x)),)
    return (first, second), "offer.first-step", (Move((x,)),)


def _analyse(state: State, dice: tuple[int, int, int, int]) -> list[_Pairing]:
    """Examine the three pairings of ``dice`` (sorted) in the position of ``state``."""
    found: list[_Pairing] = []
    markers = dict(state.markers)
    for index, ((pair1, pair2), sums) in enumerate(
        zip(_pairs(dice), pairings(dice), strict=True), start=1
    ):
        x, y = sums
        same = next((p for p in found if p.sums == sums), None)
        if same is not None:
            found.append(
                _Pairing(index, (pair1, pair2), sums, same.number, (), same.offer, same.offers)
            )
            continue
        examined, offer, offers = _examine(state, markers, x, y)
        found.append(_Pairing(index, (pair1, pair2), sums, None, examined, offer, offers))
    return found


def _legal_moves(found: Sequence[_Pairing]) -> tuple[Move, ...]:
    """Return the moves the pairings offer, each once, in the order of R6.6."""
    return tuple(sorted({move for pairing in found for move in pairing.offers}))


def _markers_after(state: State, move: Move) -> dict[int, int]:
    """Return the markers after ``move``, its sums played in increasing order (R5, R7)."""
    markers = dict(state.markers)
    for column in move.columns:
        markers = _after(markers, _sum(state, markers, column))
    return markers


# -- statements about a roll ----------------------------------------------------------


def _say_sum(out: _Writer, state: State, pairing: int, examined: _Sum, first: _Sum | None) -> None:
    x = examined.column
    subject = {0: f"The {x}", 1: f"The first {x}", 2: f"The second {x}"}[examined.step]
    extra: list[str] = []
    if examined.step == 2:
        assert first is not None
        if not examined.plays:
            extra.append("R7.3")
        else:
            extra.append("R7.2" if first.play is Play.PLACE else "R7.1")
    data = {
        "pairing": pairing,
        "sum": x,
        "step": examined.step,
        "play": _PLAY_NAMES[examined.play],
        "from": examined.start,
        "to": examined.to,
        "skipped": list(examined.skipped),
        "owner": examined.owner,
    }
    values: dict[str, Any] = {
        "subject": subject,
        "x": x,
        "from": examined.start,
        "to": examined.to,
        "owner": examined.owner,
        "player": state.player,
        "square": examined.start,
        "spaces": _listed([str(s) for s in examined.skipped]),
    }
    if not examined.plays:
        out.say("sum.dropped", data, values, fragments=[_REASONS[examined.play]], extra=extra)
        return
    fragments: list[str] = []
    if examined.top:
        fragments.append("where.top")
    if examined.play is Play.PLACE and examined.start:
        fragments.append("where.above")
    if examined.skipped:
        fragments.append("where.skip-one" if len(examined.skipped) == 1 else "where.skip-many")
    kind = "sum.advance" if examined.play is Play.ADVANCE else "sum.place"
    out.say(kind, data, values, fragments=fragments, extra=extra)


def _say_roll(out: _Writer, state: State, found: Sequence[_Pairing]) -> tuple[Move, ...]:
    """Say what each pairing does and which moves are legal; return the legal moves."""
    for pairing in found:
        (pair1, pair2), (x, y) = pairing.pairs, pairing.sums
        data = {
            "pairing": pairing.number,
            "pairs": [list(pair1), list(pair2)],
            "sums": [x, y],
            "same_as": pairing.same_as,
        }
        values = {
            "n": pairing.number,
            "m": pairing.same_as,
            "pair1": f"{pair1[0]}+{pair1[1]}",
            "pair2": f"{pair2[0]}+{pair2[1]}",
            "x": x,
            "y": y,
        }
        if pairing.same_as is not None:
            out.say("pairing.same", data, values)
            continue
        out.say("pairing.double" if x == y else "pairing", data, values)
        first: _Sum | None = None
        for examined in pairing.examined:
            _say_sum(out, state, pairing.number, examined, first)
            first = examined
        offer_values: dict[str, Any] = {"n": pairing.number, "x": x, "y": y}
        if pairing.offer == "offer.one":
            kept = pairing.offers[0].columns[0]
            offer_values.update(x=kept, y=y if kept == x else x)
        out.say(
            pairing.offer,
            {"pairing": pairing.number, "moves": [format_action(m) for m in pairing.offers]},
            offer_values,
        )
    moves = _legal_moves(found)
    names = [format_action(m) for m in moves]
    if not moves:
        out.say("moves.bust", {"moves": []})
    elif len(moves) == 1:
        out.say("moves.one", {"moves": names}, {"move": names[0]})
    else:
        out.say("moves.some", {"moves": names}, {"moves": _listed(names)})
    for move, name in zip(moves, names, strict=True):
        numbers = [p.number for p in found if move in p.offers]
        after = _markers_after(state, move)
        out.say(
            "move",
            {"move": name, "pairings": numbers, "markers": _column_map(after)},
            {"move": name, "pairings": _pairing_names(numbers), "cells": _cells(after)},
        )
    return moves


def _column_map(values: Mapping[int, int]) -> dict[str, int]:
    return {str(c): v for c, v in sorted(values.items())}


def _say_markers(out: _Writer, state: State) -> None:
    markers = state.markers
    data = {"markers": _column_map(markers), "free": MARKERS - len(markers)}
    if not markers:
        out.say("markers.none", data)
        return
    free = ("none is free", "one is free", "two are free")[MARKERS - len(markers)]
    kind = "markers.one" if len(markers) == 1 else "markers.some"
    out.say(kind, data, {"cells": _cells(markers), "free": free})


# -- stopping, busting, the end ------------------------------------------------------


def _shares(state: State) -> list[tuple[int, int, int]]:
    """Markers sharing a space with another player's square: (column, space, player)."""
    return [
        (column, space, player)
        for column, space in state.markers.items()
        for player, squares in enumerate(state.squares)
        if player != state.player and squares.get(column) == space
    ]


def _shares_text(shares: Sequence[tuple[int, int, int]]) -> str:
    return _listed(
        [
            f"the marker in column {column} shares space {space} with player {player}'s square"
            for column, space, player in shares
        ]
    )


def _say_stop(out: _Writer, state: State) -> None:
    """Say what a stop would do now (R11, R9.3, R12.1), or why it is refused (R14.2)."""
    me = state.player
    shares = _shares(state) if state.rules.variant is Variant.B else []
    if shares:
        out.say(
            "stop.refused",
            {"shares": [{"column": c, "space": s, "player": p} for c, s, p in shares]},
            {"player": me, "shares": _shares_text(shares)},
        )
        return
    squares = dict(state.squares[me])
    squares.update(state.markers)
    out.say(
        "stop.squares",
        {"squares": _column_map(squares)},
        {"player": me, "cells": _cells(state.markers)},
    )
    heights = state.rules.heights
    won_now = [c for c, p in state.markers.items() if p == heights[c]]
    for column in won_now:
        out.say("stop.column", {"column": column}, {"column": column})
        for other, theirs in enumerate(state.squares):
            if other != me and column in theirs:
                out.say(
                    "stop.removes",
                    {"column": column, "player": other, "space": theirs[column]},
                    {"other": other, "space": theirs[column], "column": column},
                )
    held = sum(1 for owner in state.won.values() if owner == me) + len(won_now)
    target = state.rules.columns_to_win
    nxt = (me + 1) % state.rules.players
    values = {"player": me, "held": _held(held), "target": target, "next": nxt}
    if held >= target:
        out.say("stop.wins", {"held": held, "target": target, "next": None}, values)
    else:
        out.say("stop.passes", {"held": held, "target": target, "next": nxt}, values)


def _say_chance(out: _Writer, state: State) -> int:
    """Say the chance that the next roll busts; return the number of busting rolls."""
    from cantstop.odds import bust_probability

    chance = bust_probability(state)
    busts = chance.numerator * _ROLLS // chance.denominator
    data = {"busts": busts, "rolls": _ROLLS, "chance": f"{chance.numerator}/{chance.denominator}"}
    if busts == 0:
        out.say("chance.none", data, {"player": state.player})
    else:
        values = {
            "player": state.player,
            "chance": data["chance"],
            "busts": busts,
            "percent": _percent(busts),
        }
        out.say("chance.some", data, values)
    return busts


def _say_bust(out: _Writer, state: State) -> None:
    """Say what a bust takes off and what it leaves (R10.2, R8.2)."""
    me = state.player
    nxt = (me + 1) % state.rules.players
    out.say("bust.loss", {"next": nxt}, {"next": nxt})
    own = state.squares[me]
    for column, space in state.markers.items():
        square = own.get(column)
        values = {"column": column, "space": space, "player": me, "square": square}
        data = {"column": column, "space": space, "square": square}
        out.say("bust.gone" if square is None else "bust.back", data, values)
        if space == state.rules.heights[column]:
            out.say("bust.top", {"column": column}, {"column": column})


def _say_over(out: _Writer, state: State) -> None:
    """Say who won with which columns, and who else holds columns (R12.1, R9.1)."""
    me = state.player
    players = range(state.rules.players)
    held = {p: [c for c, owner in state.won.items() if owner == p] for p in players}
    out.say(
        "over.won",
        {"player": me, "columns": held[me], "target": state.rules.columns_to_win},
        {"player": me, "columns": _columns(held[me]), "target": state.rules.columns_to_win},
    )
    for player, columns in held.items():
        if player != me and columns:
            out.say(
                "over.holds",
                {"player": player, "columns": columns},
                {"player": player, "columns": _columns(columns)},
            )


# -- verdicts ------------------------------------------------------------------------


def _verdict(
    state: State, action: Action, found: Sequence[_Pairing] | None
) -> tuple[str, dict[str, Any], Sequence[str], str | None]:
    """Return the verdict statement on ``action``: kind, values, fragments and refusing rule.

    The rule is ``None`` when the action is legal.
    """
    values: dict[str, Any] = {"action": format_action(action), "player": state.player}
    phase = state.phase
    if phase is Phase.OVER:
        return "illegal.game-over", values, (), "R12.3"
    if phase is Phase.CHOOSE:
        assert state.dice is not None
        assert found is not None
        values["dice"] = _dice_text(state.dice)
        if not isinstance(action, Move):
            return "illegal.dice-waiting", values, (), "R3.3"
        return _move_verdict(state, action, found, values)
    if isinstance(action, Move):
        if phase is Phase.ROLL:
            return "illegal.move-before-roll", values, (), "R3.2"
        return "illegal.move-after-move", values, (), "R3.4"
    if isinstance(action, Stop):
        if phase is Phase.ROLL:
            return "illegal.stop-before-roll", values, (), "R11.1"
        shares = _shares(state) if state.rules.variant is Variant.B else []
        if shares:
            values["shares"] = _shares_text(shares)
            return "illegal.stop-sharing", values, (), "R14.2"
        return "verdict.stop", values, (), None
    return ("verdict.roll-first" if phase is Phase.ROLL else "verdict.roll-again"), values, (), None


def _move_verdict(
    state: State, move: Move, found: Sequence[_Pairing], values: dict[str, Any]
) -> tuple[str, dict[str, Any], Sequence[str], str | None]:
    """Return the verdict on a move with dice on the table (spec/explain.md, X2.3 item 5)."""
    offering = [p.number for p in found if move in p.offers]
    if offering:
        values["pairings"] = _pairing_names(offering)
        return "verdict.move", values, (), None
    columns = move.columns
    if len(columns) == 2:
        matching = [p for p in found if p.sums == columns]
    else:
        matching = [p for p in found if columns[0] in p.sums]
    x = columns[0]
    values["x"] = x
    if not matching:
        if len(columns) == 2:
            values["y"] = columns[1]
            return "illegal.no-pairing-two", values, (), "R4.3"
        return "illegal.no-pairing-one", values, (), "R4.3"
    markers = dict(state.markers)
    first = _sum(state, markers, x)
    if not first.plays:
        return _dropped(first, values)
    if len(columns) == 2:
        y = columns[1]
        values["y"] = y
        if x == y:
            return "illegal.second-step", values, (), "R7.3"
        if _sum(state, markers, y).plays:
            return "illegal.one-free", values, (), "R6.3"
        return _dropped(_sum(state, _after(markers, first), y), values)
    pairing = matching[0]
    values["n"] = pairing.number
    if pairing.sums[0] == pairing.sums[1]:
        return "illegal.one-step", values, (), "R7.1"
    values["y"] = pairing.sums[1] if pairing.sums[0] == x else pairing.sums[0]
    return "illegal.one-sum", values, (), "R6.1"


def _dropped(
    examined: _Sum, values: dict[str, Any]
) -> tuple[str, dict[str, Any], Sequence[str], str | None]:
    values["x"] = examined.column
    values["owner"] = examined.owner
    reason = _REASONS[examined.play]
    return "illegal.dropped", values, (reason,), TEMPLATES[reason][1][0]


# -- the explanation -----------------------------------------------------------------


def explain(state: State, action: Action | None = None) -> Explanation:
    """Return the explanation of ``state``, and of ``action`` in it if given.

    Without an action the explanation tells the position: the pairings of the
    dice and the legal moves (CHOOSE), what stopping and rolling again would do
    (ROLL, DECIDE), or who won (OVER).  With an action it starts with whether
    the action is legal; a refused action names the rule that
    :class:`~cantstop.IllegalAction` names.  A roll in the ROLL or DECIDE
    phase is explained before it is applied: its pairings, its legal moves or
    its bust.  Nothing here changes ``state``.

    >>> from cantstop import Roll, parse_state
    >>> why = explain(parse_state('7:2/- 7:4,8:2,10:1 0d'), Roll((2, 1, 1, 1)))
    >>> why.legal, why.moves
    (True, ())
    >>> for statement in why.statements[-5:]:
    ...     print(statement.line())
    On a bust the markers come off, the squares stay, and the turn passes to player 1 (R10.2).
      In column 7 the marker on space 4 comes off, and player 0's square stays on space 2 (R10.2).
      In column 8 the marker on space 2 comes off, and player 0 keeps nothing there (R10.2).
      In column 10 the marker on space 1 comes off, and player 0 keeps nothing there (R10.2).
    The state becomes 7:2/- - 1r, and it is player 1's turn (R10.2).
    """
    if not isinstance(state, State):
        raise InvalidState(f"explain needs a State, not {_brief(state)}", "R16.5")
    if action is not None and not isinstance(action, Roll | Move | Stop):
        raise IllegalAction(
            f"{action!r} is not an action: use Roll, Move or Stop", "R3.1", state, action
        )
    out = _Writer()
    me = state.player
    phase = state.phase
    dice = state.dice
    position = {"player": me, "phase": phase.value, "dice": None if dice is None else list(dice)}
    if phase is Phase.CHOOSE:
        assert dice is not None
        out.say("position.choose", position, {"player": me, "dice": _dice_text(dice)})
    else:
        kind = {Phase.ROLL: "position.roll", Phase.DECIDE: "position.decide"}.get(
            phase, "position.over"
        )
        out.say(kind, position, {"player": me})

    found = _analyse(state, dice) if dice is not None else None
    moves: tuple[Move, ...] | None = None if found is None else _legal_moves(found)
    legal: bool | None = None
    if action is not None:
        kind, values, fragments, rule = _verdict(state, action, found)
        legal = rule is None
        data = {"action": format_action(action), "legal": legal, "rule": rule}
        out.say(kind, data, values, fragments=fragments)
        if not legal and moves:
            names = [format_action(m) for m in moves]
            out.say(
                "alternatives",
                {"moves": names},
                {"player": me, "moves_or": _listed(names, "or")},
            )

    if legal and isinstance(action, Roll):
        moves = _explain_roll(out, state, action)
    elif legal and isinstance(action, Stop):
        _say_markers(out, state)
        _say_stop(out, state)
        after = state.apply(action)
        text = format_state(after)
        if after.phase is Phase.OVER:
            out.say("result.won", {"state": text, "event": "won"}, {"state": text, "player": me})
        else:
            out.say(
                "result.stop",
                {"state": text, "event": "stopped"},
                {"state": text, "next": after.player},
            )
    elif phase is Phase.CHOOSE:
        assert found is not None
        _say_markers(out, state)
        _say_roll(out, state, found)
        if legal and isinstance(action, Move):
            text = format_state(state.apply(action))
            out.say("result.move", {"state": text, "event": "moved"}, {"state": text, "player": me})
    elif phase is Phase.ROLL:
        out.say("stop.not-yet", {}, {"player": me})
        if _say_chance(out, state):
            nxt = (me + 1) % state.rules.players
            out.say("bust.nothing", {"next": nxt}, {"next": nxt})
    elif phase is Phase.DECIDE:
        _say_markers(out, state)
        _say_stop(out, state)
        _say_chance(out, state)
        _say_bust(out, state)
    else:
        _say_over(out, state)
    return Explanation(state, action, legal, moves, tuple(out.statements))


def _explain_roll(out: _Writer, state: State, roll: Roll) -> tuple[Move, ...]:
    """Explain a roll before it is applied; return the legal moves it gives."""
    if state.phase is Phase.DECIDE:
        _say_markers(out, state)
    ordered = sorted(roll.dice)
    dice = (ordered[0], ordered[1], ordered[2], ordered[3])
    out.say(
        "dice",
        {"thrown": list(roll.dice), "dice": list(dice)},
        {"thrown": _dice_text(roll.dice), "dice": _dice_text(dice)},
    )
    moves = _say_roll(out, state, _analyse(state, dice))
    after, event = state.step(roll)
    data = {"state": format_state(after), "event": event.value}
    if not moves:
        _say_bust(out, state)
        out.say("result.bust", data, {"state": data["state"], "next": after.player})
    else:
        out.say("result.choose", data, {"state": data["state"], "player": after.player})
    return moves


def _brief(value: object) -> str:
    """Return a short description of an unexpected argument, for an error message."""
    name = type(value).__name__
    return f"an {name}" if name[0] in "aeiouAEIOU" else f"a {name}"
