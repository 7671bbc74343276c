"""The sentences of the explanations: the template table of spec/explain.md, and the depths.

The refusals' sentences (``illegal.*``) and the reasons a sum is dropped
(``reason.*``) are the engine's own (:data:`cantstop.refusals.REFUSAL_TEMPLATES`),
which :class:`~cantstop.IllegalAction` messages are worded from too; the
table takes them from there.
"""

from __future__ import annotations

from collections.abc import Mapping

from cantstop.refusals import REFUSAL_TEMPLATES

__all__ = ["DEPTHS", "FORMAT", "TEMPLATES"]

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
    **{key: text for key, text in REFUSAL_TEMPLATES.items() if key.startswith("illegal.")},
    "alternatives": ("Player {player} may play {moves_or} instead.", ("R6.6",)),
    "markers.none": ("No marker is on the board; all three are free.", ("R1.4",)),
    "markers.one": ("One marker stands {cells}; {free}.", ("R1.4",)),
    "markers.some": ("The markers stand {cells}; {free}.", ("R1.4",)),
    "dice": (
        "The dice were thrown as {thrown}; sorted, they are {dice}, "
        "and their order does not matter.",
        ("R4.1",),
    ),
    "dice.sorted": (
        "The dice were thrown as {dice}, already sorted, and their order does not matter.",
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
    **{key: text for key, text in REFUSAL_TEMPLATES.items() if key.startswith("reason.")},
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
    "move.one-marker": (
        "{move} comes from {pairings} and leaves the marker {cells}.",
        ("R6.6",),
    ),
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
    "stop.square": ("If player {player} stops, the marker becomes a square {cells}.", ("R11.2",)),
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

#: The depth of each kind (or family) of statement that is not at depth 0 (X4.2).
DEPTHS: Mapping[str, int] = {
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
