"""Explanations: what the rules say about a position, statement by statement, with rule ids.

:func:`explain` tells the story of a position: for dice on the table, what each
pairing's sums do (advance, place, or a drop with its reason), whether the two
can be played together, which moves each pairing offers and why, and the legal
moves traced back to the pairings; for a player about to roll, what stopping
would do, the exact chance of a bust and what a bust would lose; for a
finished game, who won with which columns.  Given an action, it also says
whether the action is legal and, if not, under which rule, in the words of
the :class:`~cantstop.IllegalAction` that :meth:`State.apply
<cantstop.State.apply>` raises.

Nothing is decided here: the pairings, sums, offers and moves are the
engine's analysis of the roll (:func:`cantstop.analysis.analyse_roll`), the
refusals the engine's (:func:`cantstop.refusals.refusal`), what a stop would
do the engine's (:func:`cantstop.decide.decide_stop`), and what this
package adds is the sentences.  Every statement names the rules it applies.
The statements, their sentences and the JSON form are fixed by
``spec/explain.md``; :data:`TEMPLATES` is that page's table of sentences.
The package's modules: the sentences (``_templates``), the explanation as a
value (``_statements``), the statements of a roll (``_roll``), of stopping,
busting and the end (``_stopping``), and verdicts (``_verdicts``).

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
  2 comes from pairing 1 and leaves the marker in column 2 on space 1 (R6.6).
  7 comes from pairings 2 and 3 and leaves the marker in column 7 on space 1 (R6.6).
"""

from __future__ import annotations

from collections.abc import Mapping

from cantstop.actions import Action, Move, Roll, Stop
from cantstop.analysis import analyse_roll
from cantstop.errors import IllegalAction, InvalidState
from cantstop.explanation import _templates
from cantstop.explanation._roll import say_dice, say_markers, say_roll
from cantstop.explanation._statements import Explanation, Statement, Writer
from cantstop.explanation._stopping import say_bust, say_chance, say_over, say_stop
from cantstop.explanation._verdicts import say_verdict
from cantstop.notation import format_state
from cantstop.phase import Phase
from cantstop.refusals import dice_text
from cantstop.state import State

__all__ = ["FORMAT", "TEMPLATES", "Explanation", "Statement", "explain"]

#: The value of the ``format`` field of the JSON form.
FORMAT = _templates.FORMAT

#: The sentence of each kind of statement, and of each fragment (``where.*``,
#: ``reason.*``), with the rule ids it cites: the table of ``spec/explain.md``.
TEMPLATES: Mapping[str, tuple[str, tuple[str, ...]]] = _templates.TEMPLATES


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
    out = Writer()
    me = state.player
    phase = state.phase
    dice = state.dice
    position = {"player": me, "phase": phase.value, "dice": None if dice is None else list(dice)}
    if phase is Phase.CHOOSE:
        assert dice is not None
        out.say("position.choose", position, {"player": me, "dice": dice_text(dice)})
    else:
        kind = {Phase.ROLL: "position.roll", Phase.DECIDE: "position.decide"}.get(
            phase, "position.over"
        )
        out.say(kind, position, {"player": me})

    found = analyse_roll(state, dice) if dice is not None else None
    moves: tuple[Move, ...] | None = None if found is None else found.moves
    legal: bool | None = None
    if action is not None:
        legal = say_verdict(out, state, action, found)

    if legal and isinstance(action, Roll):
        moves = _explain_roll(out, state, action)
    elif legal and isinstance(action, Stop):
        say_markers(out, state)
        say_stop(out, state)
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
    elif found is not None:
        say_markers(out, state)
        say_roll(out, state, found)
        if legal and isinstance(action, Move):
            text = format_state(state.apply(action))
            out.say("result.move", {"state": text, "event": "moved"}, {"state": text, "player": me})
    elif phase is Phase.ROLL:
        out.say("stop.not-yet", {}, {"player": me})
        if say_chance(out, state):
            nxt = (me + 1) % state.rules.players
            out.say("bust.nothing", {"next": nxt}, {"next": nxt})
    elif phase is Phase.DECIDE:
        say_markers(out, state)
        say_stop(out, state)
        if say_chance(out, state):
            say_bust(out, state)
    else:
        say_over(out, state)
    return Explanation(state, action, legal, moves, tuple(out.statements))


def _explain_roll(out: Writer, state: State, roll: Roll) -> tuple[Move, ...]:
    """Explain a roll before it is applied; return the legal moves it gives."""
    if state.phase is Phase.DECIDE:
        say_markers(out, state)
    say_dice(out, roll)
    found = analyse_roll(state, roll)
    say_roll(out, state, found)
    after, event = state.step(roll)
    data = {"state": format_state(after), "event": event.value}
    if found.busts:
        say_bust(out, state)
        out.say("result.bust", data, {"state": data["state"], "next": after.player})
    else:
        out.say("result.choose", data, {"state": data["state"], "player": after.player})
    return found.moves


def _brief(value: object) -> str:
    """Return a short description of an unexpected argument, for an error message."""
    name = type(value).__name__
    return f"an {name}" if name[0] in "aeiouAEIOU" else f"a {name}"
