"""The statements of stopping, of busting and of the end of the game (R10, R11, R12, R14.2)."""

from __future__ import annotations

from fractions import Fraction

from cantstop.decide import decide_stop
from cantstop.explanation._statements import Writer, cells, column_map, columns_text, held_text
from cantstop.odds import bust_probability, format_percent
from cantstop.refusals import shares_text, stop_blockers
from cantstop.state import State

__all__ = ["ROLLS", "say_bust", "say_chance", "say_over", "say_stop"]

#: Every ordered roll of four dice, for the chance of a bust.
ROLLS = 1296


def say_stop(out: Writer, state: State) -> None:
    """Say what a stop would do now (R11, R9.3, R12.1), or why it is refused (R14.2)."""
    me = state.player
    shares = stop_blockers(state.rules, state.markers, state.squares, me)
    if shares:
        out.say(
            "stop.refused",
            {"shares": [{"column": c, "space": s, "player": p} for c, s, p in shares]},
            {"player": me, "shares": shares_text(shares)},
        )
        return
    found = decide_stop(state)
    out.say(
        "stop.square" if len(state.markers) == 1 else "stop.squares",
        {"squares": column_map(found.squares[me])},
        {"player": me, "cells": cells(state.markers)},
    )
    for column in found.claimed:
        out.say("stop.column", {"column": column}, {"column": column})
        for lost_column, other, space in found.lost:
            if lost_column == column:
                out.say(
                    "stop.removes",
                    {"column": column, "player": other, "space": space},
                    {"other": other, "space": space, "column": column},
                )
    held = found.held
    target = state.rules.columns_to_win
    values = {"player": me, "held": held_text(held), "target": target, "next": found.player}
    if found.wins:
        out.say("stop.wins", {"held": held, "target": target, "next": None}, values)
    else:
        out.say("stop.passes", {"held": held, "target": target, "next": found.player}, values)


def say_chance(out: Writer, state: State) -> int:
    """Say the chance that the next roll busts (R10.1); return the number of busting rolls."""
    chance = bust_probability(state)
    busts = chance.numerator * ROLLS // chance.denominator
    data = {"busts": busts, "rolls": ROLLS, "chance": f"{chance.numerator}/{chance.denominator}"}
    if busts == 0:
        out.say("chance.none", data, {"player": state.player})
    else:
        values = {
            "player": state.player,
            "chance": data["chance"],
            "busts": busts,
            "percent": format_percent(Fraction(busts, ROLLS)),
        }
        out.say("chance.some", data, values)
    return busts


def say_bust(out: Writer, state: State) -> None:
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


def say_over(out: Writer, state: State) -> None:
    """Say who won with which columns, and who else holds columns (R12.1, R9.1)."""
    me = state.player
    players = range(state.rules.players)
    held = {p: [c for c, owner in state.won.items() if owner == p] for p in players}
    out.say(
        "over.won",
        {"player": me, "columns": held[me], "target": state.rules.columns_to_win},
        {"player": me, "columns": columns_text(held[me]), "target": state.rules.columns_to_win},
    )
    for player, columns in held.items():
        if player != me and columns:
            out.say(
                "over.holds",
                {"player": player, "columns": columns},
                {"player": player, "columns": columns_text(columns)},
            )
