"""Concrete model states in the game's notation, and conversion to and from the engine.

A counterexample to an induction step need not be a state the engine accepts:
:func:`state_text` writes any concrete model state in the notation of
``finishline/spec/notation.md`` without checking it (a cell holding several
counters is written ``*``; counters off the board are listed after the text),
and :func:`describe` adds the engine's verdict.

>>> from finishline import parse_state
>>> from finishline.proofs.model import Config
>>> text = '..0./..../..../.0../01../...1 0/0 1c34'
>>> state_text(Config(2, 6), values_of(parse_state(text)))
'..0./..../..../.0../01../...1 0/0 1c34'
"""

from __future__ import annotations

from finishline import Config as EngineConfig
from finishline import GameError, Phase, State, parse_state
from finishline.config import DEFAULT_COUNTERS
from finishline.proofs.model import BOARD, CHOOSE, GRID, OVER, ROLL, Config, Vars

__all__ = ["config_of", "describe", "engine_state", "state_text", "values_of"]

_LETTERS = {ROLL: "r", CHOOSE: "c", OVER: "x"}
_PHASES = {ROLL: Phase.ROLL, CHOOSE: Phase.CHOOSE, OVER: Phase.OVER}
_NUMBERS = {phase: number for number, phase in _PHASES.items()}


def _mark(s: Vars, g: tuple[int, int]) -> str:
    owners = [(p, own[g]) for p, own in enumerate(s.cells) if own[g] != 0]
    if not owners:
        return "."
    if len(owners) == 1 and owners[0][1] == 1:
        return str(owners[0][0])
    return "*"


def state_text(config: Config, s: Vars) -> str:
    """Write a concrete model state as notation, without checking it (N1)."""
    rows = ["".join(_mark(s, (r, c)) for c in range(4)) for r in range(1, 7)]
    letter = _LETTERS.get(s.phase, f"?{s.phase}")
    dice = f"{s.dice[0]}{s.dice[1]}" if s.phase == CHOOSE or any(s.dice) else ""
    text = f"{'/'.join(rows)} {'/'.join(map(str, s.across))} {s.player}{letter}{dice}"
    if config.counters != DEFAULT_COUNTERS.get(config.players):
        text += f" n{config.counters}"
    off = [
        f"player {p} on row {g[0]} column {g[1]}"
        for p, own in enumerate(s.cells)
        for g in GRID
        if g not in BOARD and own[g] != 0
    ]
    odd_hand = [f"player {p} has {h} in hand" for p, h in enumerate(s.hand) if h < 0]
    notes = off + odd_hand
    return text + (f" {{{'; '.join(notes)}}}" if notes else "")


def engine_state(config: Config, s: Vars) -> State:
    """Return the engine's state for a concrete model state (which the engine may refuse)."""
    return parse_state(state_text(config, s))


def describe(config: Config, s: Vars) -> str:
    """Return the notation of ``s``, marked when the engine would refuse it as a state."""
    text = state_text(config, s)
    if any(own[g] != 0 for own in s.cells for g in GRID if g not in BOARD):
        return f"{text}  [not a valid state: a counter off the board (R12.1)]"
    if any(_mark(s, g) == "*" for g in BOARD):
        return f"{text}  [not a valid state: two counters on one cell (R12.2)]"
    if any(h < 0 for h in s.hand):
        return f"{text}  [not a valid state: a hand below zero (R12.3)]"
    try:
        parsed = parse_state(text)
    except GameError as exc:
        reason = getattr(exc, "reason", str(exc))
        return f"{text}  [not a valid state: {reason} ({getattr(exc, 'rule', '?')})]"
    if tuple(parsed.hand) != tuple(s.hand):
        return (
            f"{text}  [not a valid state: the hands {list(s.hand)} do not match the counters, "
            f"which leave {list(parsed.hand)} (R12.3)]"
        )
    return text


def values_of(state: State) -> Vars:
    """Return the concrete model state of an engine state.

    The ghost *played* flag is set for the players with a counter on the
    board or across: those have certainly finished a turn (R7.3).
    """
    n = state.config.players
    cells = tuple(
        {g: int(g in BOARD and state.board[(g[0] - 1) * 4 + g[1]] == p) for g in GRID}
        for p in range(n)
    )
    dice = state.dice if state.dice is not None else (0, 0)
    return Vars(
        player=state.player,
        phase=_NUMBERS[state.phase],
        dice=(dice[0], dice[1]),
        cells=cells,
        hand=tuple(state.hand),
        across=tuple(state.across),
        played=tuple(bool(state.cells_of(p)) or state.across[p] > 0 for p in range(n)),
    )


def config_of(config: EngineConfig) -> Config:
    """Return the model's configuration for an engine configuration."""
    return Config(config.players, config.counters)
