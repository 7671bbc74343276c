"""The statements of a roll: the markers, the dice, each pairing's sums and offer, and the moves.

Everything said here is read from the engine's analysis of the roll
(:func:`cantstop.analysis.analyse_roll`); nothing is decided again.
"""

from __future__ import annotations

from typing import Any

from cantstop.actions import Move, Roll
from cantstop.analysis import Offer, Play, RollAnalysis, SumPlay
from cantstop.board import MARKERS
from cantstop.explanation._statements import Writer, cells, column_map, pairing_names
from cantstop.notation import format_action
from cantstop.refusals import REASONS, dice_text, listed
from cantstop.state import State

__all__ = ["say_dice", "say_markers", "say_roll"]


def say_markers(out: Writer, state: State) -> None:
    """Say where the markers stand and how many are free (R1.4)."""
    markers = state.markers
    data = {"markers": column_map(markers), "free": MARKERS - len(markers)}
    if not markers:
        out.say("markers.none", data)
        return
    free = ("none is free", "one is free", "two are free")[MARKERS - len(markers)]
    kind = "markers.one" if len(markers) == 1 else "markers.some"
    out.say(kind, data, {"cells": cells(markers), "free": free})


def say_dice(out: Writer, roll: Roll) -> None:
    """Say the dice as thrown and sorted, once when they were thrown in order (R4.1)."""
    dice = sorted(roll.dice)
    kind = "dice.sorted" if list(roll.dice) == dice else "dice"
    out.say(
        kind,
        {"thrown": list(roll.dice), "dice": dice},
        {"thrown": dice_text(roll.dice), "dice": dice_text(dice)},
    )


def _say_sum(out: Writer, state: State, pairing: int, played: SumPlay, first: SumPlay) -> None:
    """Say what one sum, or one step of equal sums, does (X2.4)."""
    x = played.column
    subject = {0: f"The {x}", 1: f"The first {x}", 2: f"The second {x}"}[played.step]
    extra: list[str] = []
    if played.step == 2:
        if not played.plays:
            extra.append("R7.3")
        else:
            extra.append("R7.2" if first.play is Play.PLACE else "R7.1")
    data = {
        "pairing": pairing,
        "sum": x,
        "step": played.step,
        "play": played.play.value,
        "from": played.start,
        "to": played.landing,
        "skipped": list(played.skipped),
        "owner": played.owner,
    }
    values: dict[str, Any] = {
        "subject": subject,
        "x": x,
        "from": played.start,
        "to": played.landing,
        "owner": played.owner,
        "player": state.player,
        "square": played.start,
        "spaces": listed([str(s) for s in played.skipped]),
    }
    if not played.plays:
        out.say("sum.dropped", data, values, fragments=[REASONS[played.play]], extra=extra)
        return
    fragments: list[str] = []
    if played.top:
        fragments.append("where.top")
    if played.play is Play.PLACE and played.start:
        fragments.append("where.above")
    if played.skipped:
        fragments.append("where.skip-one" if len(played.skipped) == 1 else "where.skip-many")
    kind = "sum.advance" if played.play is Play.ADVANCE else "sum.place"
    out.say(kind, data, values, fragments=fragments, extra=extra)


def say_roll(out: Writer, state: State, found: RollAnalysis) -> None:
    """Say what each pairing of the roll does, and which moves are legal (X2.4)."""
    for pairing in found.pairings:
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
        _say_sum(out, state, pairing.number, pairing.first, pairing.first)
        if pairing.second is not None:
            _say_sum(out, state, pairing.number, pairing.second, pairing.first)
        offer_values: dict[str, Any] = {"n": pairing.number, "x": x, "y": y}
        if pairing.offer is Offer.ONE:
            kept = pairing.moves[0].columns[0]
            offer_values.update(x=kept, y=y if kept == x else x)
        out.say(
            f"offer.{pairing.offer.value}",
            {"pairing": pairing.number, "moves": [format_action(m) for m in pairing.moves]},
            offer_values,
        )
    _say_moves(out, found)


def _say_moves(out: Writer, found: RollAnalysis) -> None:
    """Say the legal moves, and for each the pairings it comes from and the markers it leaves."""
    moves: tuple[Move, ...] = found.moves
    names = [format_action(m) for m in moves]
    if not moves:
        out.say("moves.bust", {"moves": []})
    elif len(moves) == 1:
        out.say("moves.one", {"moves": names}, {"move": names[0]})
    else:
        out.say("moves.some", {"moves": names}, {"moves": listed(names)})
    for move, name in zip(moves, names, strict=True):
        numbers = list(found.offering(move))
        after = found.markers_after(move)
        out.say(
            "move.one-marker" if len(after) == 1 else "move",
            {"move": name, "pairings": numbers, "markers": column_map(after)},
            {"move": name, "pairings": pairing_names(numbers), "cells": cells(after)},
        )
