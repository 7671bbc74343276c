"""A port with switchable single-rule bugs, for measuring how well the suite names a rule.

``cantstop serve --mutant NAME`` speaks the protocol of ``spec/protocol.md``
like ``cantstop serve``, but with one rule implemented wrongly: the bug
:data:`MUTANTS` names.  Each bug is one that a port author can plausibly make
(several are found in published implementations of the game), and each
belongs to one rule, the *rule at fault*.  The seeded-bug study
(:mod:`cantstop.study`) runs the conformance suite against every
mutant and records whether the suite catches the bug and where the diagnosis
ranks the rule at fault.

A mutant port passes every request to the reference port
(:func:`cantstop.conformance.serve.handle`) and changes only what its bug
changes: a bug is a :class:`Mutant` whose answer rewrites the request it is
given, the reference's answer, or both (:mod:`~cantstop.conformance.mutant_rewrites`).
Bugs in what a roll offers answer ``moves``, ``rolls``, ``perft`` and the
``apply`` of a roll or a move from the engine's decision for each sum, with
their :class:`Flaw` switched in at one point
(:mod:`~cantstop.conformance.mutant_rolls`).  With no bug the port is the
reference.

>>> port = MutantPort("forced-play")
>>> port.handle({"seq": 1, "op": "moves", "state": "-/- - 0c3455"})["moves"]
['7', '7+10', '8', '8+9', '9', '10']
>>> MutantPort(None).handle({"seq": 1, "op": "moves", "state": "-/- - 0c3455"})["moves"]
['7+10', '8+9']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from cantstop.conformance import mutant_rewrites as rewrite
from cantstop.conformance.mutant_rolls import ROLL_OPS, Flaw, Handler, Message, Respond, roll_bug
from cantstop.conformance.serve import handle as reference

__all__ = ["MUTANTS", "Flaw", "Mutant", "MutantPort"]


@dataclass(frozen=True, slots=True)
class Mutant:
    """One seeded bug: its name, the rule it breaks, what the port does wrong, and how.

    For a request of the ops ``ops``, ``respond`` gives the answer from the
    request and the reference port (which it may ask a rewritten request, and
    whose answer it may rewrite); any other request goes to the reference.

    >>> MUTANTS["top-advances"].rule
    'R8.1'
    """

    #: The name given to ``cantstop serve --mutant``.
    name: str
    #: The rule at fault: the spec rule the bug breaks.
    rule: str
    #: What the port gets wrong, in one line.
    summary: str
    ops: frozenset[str] = frozenset()
    respond: Respond | None = field(default=None, compare=False)

    def answer(self, request: Message, reference: Handler) -> Message:
        """Return the answer to ``request`` with the bug switched in."""
        if request.get("op") not in self.ops or self.respond is None:
            return reference(request)
        return self.respond(request, reference)


def _bug(name: str, rule: str, summary: str, ops: str, respond: Respond) -> Mutant:
    return Mutant(name, rule, summary, frozenset(ops.split()), respond)


def _flaw(name: str, rule: str, summary: str, flaw: Flaw) -> Mutant:
    return Mutant(name, rule, summary, ROLL_OPS, roll_bug(flaw))


_PLAY = "moves apply rolls perft"

_LIST: tuple[Mutant, ...] = (
    _bug(
        "short-columns",
        "R1.1",
        "every column of the standard board is one space short",
        f"new state {_PLAY}",
        rewrite.short_columns,
    ),
    _bug(
        "first-player-ignored",
        "R2.2",
        "a new game always starts with player 0",
        "new",
        rewrite.first_player_ignored,
    ),
    _bug(
        "turn-passes-backwards",
        "R2.3",
        "the turn passes to the previous player",
        "apply",
        rewrite.turn_backwards,
    ),
    _bug(
        "stop-with-dice-on-table",
        "R3.3",
        "a stop is accepted before the roll is played",
        "apply",
        rewrite.stop_anytime("c"),
    ),
    _flaw(
        "two-pairings",
        "R4.2",
        "only two of the three pairings of the dice are considered",
        Flaw.TWO_PAIRINGS,
    ),
    _flaw(
        "placed-on-space-one",
        "R5.2",
        "a placed marker goes on space 1, ignoring own squares",
        Flaw.PLACED_ON_SPACE_ONE,
    ),
    _flaw("four-markers", "R5.3", "a fourth marker can be placed", Flaw.FOUR_MARKERS),
    _flaw(
        "forced-play",
        "R6.1",
        "either sum may be played alone when both can be played",
        Flaw.FORCED_PLAY,
    ),
    _flaw(
        "two-new-columns",
        "R6.3",
        "with one free marker for two new columns, only the first",
        Flaw.TWO_NEW_COLUMNS,
    ),
    _flaw(
        "moves-listed-twice",
        "R6.6",
        "a move offered by two pairings is listed twice",
        Flaw.LISTED_TWICE,
    ),
    _flaw(
        "double-on-new-column",
        "R7.2",
        "equal sums on a new column place the marker only",
        Flaw.DOUBLE_ON_NEW_COLUMN,
    ),
    _flaw(
        "double-past-top",
        "R7.3",
        "equal sums offer both steps when the first reaches the top",
        Flaw.DOUBLE_PAST_TOP,
    ),
    _flaw("top-advances", "R8.1", "a marker on the top space can still advance", Flaw.TOP_ADVANCES),
    _flaw(
        "won-column-open",
        "R9.2",
        "a won column stays open to the players who lost it",
        Flaw.WON_COLUMN_OPEN,
    ),
    _bug(
        "won-column-not-cleared",
        "R9.3",
        "winning a column leaves the others' squares in it",
        "apply",
        rewrite.won_not_cleared,
    ),
    _flaw(
        "bust-on-first-pairing",
        "R10.1",
        "a roll busts when its first pairing plays nothing",
        Flaw.BUST_ON_FIRST_PAIRING,
    ),
    _bug(
        "bust-keeps-turn",
        "R10.2",
        "after a bust the same player rolls again",
        "apply",
        rewrite.bust_keeps_turn,
    ),
    _bug(
        "stop-before-rolling",
        "R11.1",
        "a stop is accepted at the start of a turn",
        "apply",
        rewrite.stop_anytime("r"),
    ),
    _bug(
        "squares-stay-low",
        "R11.2",
        "a stop does not move a square that is already there",
        "apply",
        rewrite.squares_stay_low,
    ),
    _bug(
        "win-needs-one-more",
        "R12.1",
        "the game is won only with one column more than needed",
        "apply",
        rewrite.win_target(lambda state: state.rules.columns_to_win + 1),
    ),
    _flaw(
        "shared-space-skips",
        "R13.1",
        "markers skip other players' squares without Variant A",
        Flaw.ALWAYS_SKIPS,
    ),
    _flaw(
        "variant-a-skips-once",
        "R14.1",
        "under Variant A only a placement skips, not an advance",
        Flaw.ADVANCE_DOES_NOT_SKIP,
    ),
    _bug(
        "variant-b-ignored",
        "R14.2",
        "under Variant B a stop on a shared space is accepted",
        "apply",
        rewrite.variant_b_ignored,
    ),
    _bug(
        "columns-to-win-ignored",
        "R15.2",
        "the game is always won with three columns",
        "apply",
        rewrite.win_target(lambda state: 3),
    ),
    _bug(
        "marker-on-own-square",
        "R16.3",
        "a state whose marker is not above the square is read",
        "state",
        rewrite.marker_on_own_square,
    ),
    _bug(
        "markers-in-play-order",
        "N1.3",
        "markers are written in the order they were placed",
        "apply",
        rewrite.markers_in_play_order,
    ),
    _bug(
        "roll-text-sorted",
        "N2.2",
        "a roll is written with its dice sorted",
        "action",
        rewrite.roll_text_sorted,
    ),
    _bug(
        "json-needs-won",
        "N3.1",
        "the JSON reader refuses a state without won and winner",
        "state",
        rewrite.json_needs_won,
    ),
    _bug(
        "json-double-once",
        "N3.2",
        "the JSON form of a move 7+7 lists the column once",
        "action",
        rewrite.json_double_once,
    ),
)

#: Every seeded bug, by name.
MUTANTS: Mapping[str, Mutant] = {m.name: m for m in _LIST}


class MutantPort:
    """The reference port with the bug ``name`` switched on (``None``: no bug).

    :meth:`handle` answers one request object, as :func:`cantstop.conformance.serve.handle`.
    """

    def __init__(self, name: str | None) -> None:
        if name is not None and name not in MUTANTS:
            raise ValueError(f"no seeded bug is called {name!r}; see cantstop serve --help")
        self.bug = None if name is None else MUTANTS[name]

    def handle(self, request: object) -> Message:
        """Return the response to one request object (see ``spec/protocol.md``)."""
        if self.bug is None or not isinstance(request, dict):
            return reference(request)
        answer = self.bug.answer(request, reference)
        if request.get("op") == "hello" and answer.get("ok") is True:
            answer["name"] = f"{answer['name']} with the seeded bug {self.bug.name}"
        return answer
