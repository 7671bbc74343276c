"""Why an action is refused: the one tree of refusal reasons, its rule ids and its sentences.

:func:`refusal` decides, for any action in any state, whether the rules
refuse it and why, as a :class:`Refusal`: its kind, the rule that refuses
it and the values it speaks of.  :meth:`State.apply <cantstop.State.apply>`
words its :class:`~cantstop.IllegalAction` from it, and
:func:`cantstop.explain` its verdict statements, from the same sentences
(:data:`REFUSAL_TEMPLATES`, the ``illegal.*`` and ``reason.*`` rows of the
table of ``spec/explain.md``).  :func:`stop_blockers` is the one statement of
Variant B's stop rule (R14.2).

>>> from cantstop import Move, parse_state
>>> found = refusal(parse_state('7:2/- - 0c3455'), Move((7,)))
>>> found.kind, found.rule
(<RefusalKind.ONE_SUM: 'one-sum'>, 'R6.1')
>>> print(found.text())
7 is not legal: pairing 1 makes 7 with 10, and both can be played together,
so 7 alone is not allowed.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from cantstop.actions import Action, Move, Roll, Stop
from cantstop.analysis import PairingAnalysis, Play, SumPlay, analyse_roll
from cantstop.config import Rules, Variant
from cantstop.errors import IllegalAction, InvalidState
from cantstop.phase import Phase

if TYPE_CHECKING:
    from cantstop.state import State

__all__ = [
    "REASONS",
    "REFUSAL_TEMPLATES",
    "Refusal",
    "RefusalKind",
    "Share",
    "dice_text",
    "listed",
    "refusal",
    "shares_text",
    "stop_blockers",
]

#: The sentence of each refusal (``illegal.*``) and of each reason a sum is dropped
#: (``reason.*``), with the rule ids it cites: these rows of the table of
#: ``spec/explain.md`` (X4.2).  ``illegal.dropped`` takes its rule from its reason.
REFUSAL_TEMPLATES: Mapping[str, tuple[str, tuple[str, ...]]] = {
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
    "reason.won": ("column {x} has been won by player {owner}", ("R9.2",)),
    "reason.top": ("the marker in column {x} is on the top space", ("R8.1",)),
    "reason.no-marker": ("column {x} has no marker and all three are in use", ("R5.3",)),
    "reason.no-column": ("the board has no column {x}", ("R15.3",)),
}

#: The ``reason.*`` sentence of each way of dropping a sum (R5.3).
REASONS: Mapping[Play, str] = {
    Play.WON: "reason.won",
    Play.TOP: "reason.top",
    Play.NO_MARKER: "reason.no-marker",
    Play.NO_COLUMN: "reason.no-column",
}


class RefusalKind(enum.Enum):
    """Why an action is refused: one value per branch of the tree of :func:`refusal`.

    The value is the name of its sentence: ``illegal.`` and the value is its key
    in :data:`REFUSAL_TEMPLATES`.
    """

    #: Any action once the game is over (R12.3).
    GAME_OVER = "game-over"
    #: A roll or a stop while dice are on the table (R3.3).
    DICE_WAITING = "dice-waiting"
    #: A move before the turn's first roll (R3.2).
    MOVE_BEFORE_ROLL = "move-before-roll"
    #: A stop before the turn's first roll (R11.1).
    STOP_BEFORE_ROLL = "stop-before-roll"
    #: A move after the roll has been played (R3.4).
    MOVE_AFTER_MOVE = "move-after-move"
    #: A stop while a marker shares a space, under Variant B (R14.2).
    STOP_SHARING = "stop-sharing"
    #: Two sums that no pairing of the dice makes (R4.3).
    NO_PAIRING_TWO = "no-pairing-two"
    #: A sum that no pairing of the dice makes (R4.3).
    NO_PAIRING_ONE = "no-pairing-one"
    #: A sum that cannot be played (R5.3, with the rule of its case).
    DROPPED = "dropped"
    #: The second step of equal sums, past the top space (R7.3).
    SECOND_STEP = "second-step"
    #: Two sums that each need a new marker, with one free (R6.3).
    ONE_FREE = "one-free"
    #: One step of equal sums when both can be played (R7.1).
    ONE_STEP = "one-step"
    #: One sum when its pairing's two can be played together (R6.1).
    ONE_SUM = "one-sum"


class Share(NamedTuple):
    """A marker on the same space as another player's square (R13.1)."""

    #: The column.
    column: int
    #: The space the marker and the square share.
    space: int
    #: The player whose square it is.
    player: int


def stop_blockers(
    rules: Rules, markers: Mapping[int, int], squares: Sequence[Mapping[int, int]], player: int
) -> tuple[Share, ...]:
    """Return what forbids ``player`` to stop now: empty when a stop is allowed (R14.2).

    Only Variant B forbids a stop: while a marker shares a space with another
    player's square, each such marker and square is returned, in column order
    and then player order.

    >>> from cantstop import Rules, Variant
    >>> stop_blockers(Rules(variant=Variant.B), {3: 1, 7: 1}, ({}, {7: 1}), 0)
    (Share(column=7, space=1, player=1),)
    >>> stop_blockers(Rules(), {3: 1, 7: 1}, ({}, {7: 1}), 0)
    ()
    """
    if rules.variant is not Variant.B:
        return ()
    return tuple(
        Share(column, space, p)
        for column, space in markers.items()
        for p, theirs in enumerate(squares)
        if p != player and theirs.get(column) == space
    )


# -- the words -------------------------------------------------------------------------


def listed(items: Sequence[str], joiner: str = "and") -> str:
    """Join ``items`` as a list in a sentence: ``a``, ``a and b``, ``a, b and c`` (X4.1).

    >>> listed(['7', '8', '9']), listed(['7+10', '8+9'], 'or')
    ('7, 8 and 9', '7+10 or 8+9')
    """
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {joiner} {items[-1]}"


def dice_text(dice: Sequence[int]) -> str:
    """Return dice as the sentences write them: ``3-4-5-5``."""
    return "-".join(str(d) for d in dice)


def shares_text(shares: Sequence[Share]) -> str:
    """Return the markers that share a space, as the sentences of R14.2 name them (X4.1)."""
    return listed(
        [
            f"the marker in column {share.column} shares space {share.space} "
            f"with player {share.player}'s square"
            for share in shares
        ]
    )


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the rules refuse an action in a state: the answer of :func:`refusal`.

    >>> from cantstop import Stop, parse_state
    >>> found = refusal(parse_state('-/7:1 3:1,7:1 0d B'), Stop())
    >>> found.kind, found.rule, found.shares
    (<RefusalKind.STOP_SHARING: 'stop-sharing'>, 'R14.2', (Share(column=7, space=1, player=1),))
    """

    #: The state the action is refused in.
    state: State
    #: The refused action.
    action: Action
    #: Which refusal it is.
    kind: RefusalKind
    #: The id of the rule that refuses it.
    rule: str
    #: The (first) sum the refusal speaks of.
    x: int | None = None
    #: The other sum it speaks of.
    y: int | None = None
    #: The number of the pairing it speaks of (1 to 3).
    pairing: int | None = None
    #: The sum that cannot be played, for :attr:`RefusalKind.DROPPED`.
    dropped: SumPlay | None = None
    #: The markers that share a space, for :attr:`RefusalKind.STOP_SHARING`.
    shares: tuple[Share, ...] = ()

    @property
    def key(self) -> str:
        """The key of the refusal's sentence in :data:`REFUSAL_TEMPLATES`: ``illegal.one-sum``."""
        return f"illegal.{self.kind.value}"

    @property
    def reason(self) -> str | None:
        """The key of the reason a dropped sum gives (``reason.won``), or ``None``."""
        return None if self.dropped is None else REASONS[self.dropped.play]

    def values(self) -> dict[str, object]:
        """Return the values of the sentence's placeholders, written as X4.1 says."""
        from cantstop.notation import format_action

        values: dict[str, object] = {
            "action": format_action(self.action),
            "player": self.state.player,
        }
        if self.state.dice is not None:
            values["dice"] = dice_text(self.state.dice)
        if self.x is not None:
            values["x"] = self.x
        if self.y is not None:
            values["y"] = self.y
        if self.pairing is not None:
            values["n"] = self.pairing
        if self.dropped is not None:
            values["x"] = self.dropped.column
            values["owner"] = self.dropped.owner
        if self.shares:
            values["shares"] = shares_text(self.shares)
        return values

    def text(self) -> str:
        """Return the sentence that says why the action is refused, ending with a full stop."""
        values = self.values()
        if self.reason is not None:
            values["reason"] = REFUSAL_TEMPLATES[self.reason][0].format(**values)
        return REFUSAL_TEMPLATES[self.key][0].format(**values)

    def error(self) -> IllegalAction:
        """Return the :class:`~cantstop.IllegalAction` that refuses the action.

        Its reason is :meth:`text` without the full stop, followed while dice
        are on the table by the legal moves.

        >>> from cantstop import Move, parse_state
        >>> print(refusal(parse_state('-/- - 0c3455'), Move((7, 9))).error())
        7+9 is not legal: no pairing of 3-4-5-5 makes 7 and 9; legal moves: 7+10, 8+9
        (rule R4.3) in state '-/- - 0c3455'
        """
        from cantstop.notation import format_action

        message = self.text()[:-1]
        moves = self.state.legal_moves()
        if moves:
            message += "; legal moves: " + ", ".join(format_action(m) for m in moves)
        return IllegalAction(message, self.rule, self.state, self.action)


# -- the tree -------------------------------------------------------------------------


def refusal(state: State, action: Action) -> Refusal | None:
    """Return why the rules refuse ``action`` in ``state``, or ``None`` if they allow it.

    The refusals, in the order they are checked (``spec/explain.md``, X2.3):
    a finished game (R12.3); a roll or a stop while dice are on the table
    (R3.3); a move or a stop before the first roll (R3.2, R11.1); a move after
    the roll is played (R3.4); a stop that Variant B forbids (R14.2); and for
    a move with dice on the table, what the pairings say
    (:func:`_move_refusal`).  :meth:`State.apply <cantstop.State.apply>`
    raises exactly for the actions refused here, under the same rule.

    >>> from cantstop import Move, Roll, Stop, parse_state
    >>> refusal(parse_state('-/- - 0r'), Stop()).rule
    'R11.1'
    >>> refusal(parse_state('-/- - 0r'), Roll((1, 2, 3, 4))) is None
    True
    """
    from cantstop.state import State

    if not isinstance(state, State):
        raise InvalidState(f"refusal needs a State, not {type(state).__name__!r}", "R16.5")
    kind = type(action)
    if kind is not Roll and kind is not Move and kind is not Stop:
        raise IllegalAction(
            f"{action!r} is not an action: use Roll, Move or Stop", "R3.1", state, action
        )
    phase = state.phase
    if phase is Phase.OVER:
        return Refusal(state, action, RefusalKind.GAME_OVER, "R12.3")
    if phase is Phase.CHOOSE:
        if kind is not Move:
            return Refusal(state, action, RefusalKind.DICE_WAITING, "R3.3")
        if action in state.legal_moves():
            return None
        return _move_refusal(state, action)  # type: ignore[arg-type]
    if kind is Move:
        if phase is Phase.ROLL:
            return Refusal(state, action, RefusalKind.MOVE_BEFORE_ROLL, "R3.2")
        return Refusal(state, action, RefusalKind.MOVE_AFTER_MOVE, "R3.4")
    if kind is Stop:
        if phase is Phase.ROLL:
            return Refusal(state, action, RefusalKind.STOP_BEFORE_ROLL, "R11.1")
        shares = stop_blockers(state.rules, state.markers, state.squares, state.player)
        if shares:
            return Refusal(state, action, RefusalKind.STOP_SHARING, "R14.2", shares=shares)
    return None


def _move_refusal(state: State, move: Move) -> Refusal:
    """Return why ``move``, which is not among the legal moves of the dice, is refused.

    A *matching* pairing makes the move's two sums, or its one sum; the first
    one decides (X2.3 item 5).
    """
    assert state.dice is not None
    found = analyse_roll(state, state.dice)
    columns = move.columns
    x = columns[0]
    matching: list[PairingAnalysis]
    if len(columns) == 2:
        matching = [p for p in found.pairings if p.sums == columns]
    else:
        matching = [p for p in found.pairings if x in p.sums]
    if not matching:
        if len(columns) == 2:
            return Refusal(state, move, RefusalKind.NO_PAIRING_TWO, "R4.3", x, columns[1])
        return Refusal(state, move, RefusalKind.NO_PAIRING_ONE, "R4.3", x)
    pairing = matching[0]
    alone = pairing.first if pairing.first.column == x else pairing.second
    assert alone is not None  # a pairing of different sums examines both
    if not alone.plays:
        return _dropped(state, move, alone)
    if len(columns) == 2:
        y = columns[1]
        if x == y:
            return Refusal(state, move, RefusalKind.SECOND_STEP, "R7.3", x, y)
        assert pairing.second is not None
        if pairing.second.plays:
            return Refusal(state, move, RefusalKind.ONE_FREE, "R6.3", x, y)
        return _dropped(state, move, pairing.second)
    x_, y_ = pairing.sums
    if x_ == y_:
        return Refusal(state, move, RefusalKind.ONE_STEP, "R7.1", x, pairing=pairing.number)
    other = y_ if x_ == x else x_
    return Refusal(state, move, RefusalKind.ONE_SUM, "R6.1", x, other, pairing.number)


def _dropped(state: State, move: Move, dropped: SumPlay) -> Refusal:
    rule = dropped.drop_rule
    assert rule is not None
    return Refusal(state, move, RefusalKind.DROPPED, rule, dropped=dropped)
