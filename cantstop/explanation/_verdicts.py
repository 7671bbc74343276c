"""The verdict on an action: legal and why, or refused under which rule (spec/explain.md X2.3).

A refusal is the engine's (:func:`cantstop.refusals.refusal`), the decision
that :meth:`State.apply <cantstop.State.apply>` raises
:class:`~cantstop.IllegalAction` from, in the same words.
"""

from __future__ import annotations

from cantstop.actions import Action, Move, Roll
from cantstop.analysis import RollAnalysis
from cantstop.explanation._statements import Writer, pairing_names
from cantstop.notation import format_action
from cantstop.phase import Phase
from cantstop.refusals import listed, refusal
from cantstop.state import State

__all__ = ["say_verdict"]


def say_verdict(out: Writer, state: State, action: Action, found: RollAnalysis | None) -> bool:
    """Say whether ``action`` is legal, and after a refusal what may be played instead.

    ``found`` is the analysis of the dice on the table, if any.  Return whether
    the action is legal.
    """
    text = format_action(action)
    refused = refusal(state, action)
    data = {
        "action": text,
        "legal": refused is None,
        "rule": None if refused is None else refused.rule,
    }
    if refused is not None:
        reason = refused.reason
        out.say(refused.key, data, refused.values(), fragments=() if reason is None else [reason])
        moves = state.legal_moves()
        if moves:
            names = [format_action(m) for m in moves]
            out.say(
                "alternatives",
                {"moves": names},
                {"player": state.player, "moves_or": listed(names, "or")},
            )
        return False
    values: dict[str, object] = {"action": text, "player": state.player}
    if isinstance(action, Move):
        assert found is not None  # a legal move has dice on the table
        values["pairings"] = pairing_names(found.offering(action))
        out.say("verdict.move", data, values)
    elif isinstance(action, Roll):
        kind = "verdict.roll-first" if state.phase is Phase.ROLL else "verdict.roll-again"
        out.say(kind, data, values)
    else:
        out.say("verdict.stop", data, values)
    return True
