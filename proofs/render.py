"""Model states and moves in the project's notation, and conversion to and from the engine.

A counterexample to an induction step is usually not a state the engine
accepts (it satisfies the invariants assumed, but need not be reachable, and
the state after the step breaks one).  :func:`state_text` therefore writes any
concrete model state in the notation of ``spec/notation.md`` without
validating it; :func:`describe` adds the engine's verdict.

>>> from cantstop import Rules, parse_state
>>> from proofs.state import Config
>>> config = Config.of(Rules())
>>> state_text(config, values_of(parse_state('7:2/- 7:3,10:1 0c2346')))
'7:2/- 7:3,10:1 0c2346'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cantstop import CantStopError, Phase, State
from proofs.state import CHOOSE, DECIDE, OVER, PHASE_LETTERS, ROLL, Config, Vars

__all__ = ["describe", "engine_state", "moves_text", "state_text", "values_of"]

_PHASES = {ROLL: Phase.ROLL, CHOOSE: Phase.CHOOSE, DECIDE: Phase.DECIDE, OVER: Phase.OVER}
_NUMBERS = {phase: number for number, phase in _PHASES.items()}


def _cells(values: Mapping[int, int]) -> str:
    return ",".join(f"{c}:{v}" for c, v in sorted(values.items()) if v != 0) or "-"


def state_text(config: Config, s: Vars) -> str:
    """Write a concrete model state as notation text, without checking it (N1)."""
    squares = "/".join(_cells(own) for own in s.squares)
    letter = PHASE_LETTERS.get(s.phase, f"?{s.phase}")
    dice = "".join(map(str, s.dice)) if s.phase == CHOOSE or any(s.dice) else ""
    return f"{squares} {_cells(s.markers)} {s.player}{letter}{dice}{config.options()}"


def engine_state(config: Config, s: Vars) -> State:
    """Build the engine's :class:`~cantstop.State` for a concrete model state.

    Raises :class:`~cantstop.CantStopError` if the engine refuses it.
    """
    phase = _PHASES.get(s.phase)
    if phase is None:
        raise ValueError(f"phase number {s.phase} is not a phase")
    dice = tuple(s.dice) if phase is Phase.CHOOSE else None
    return State(
        config.rules(),
        s.player,
        phase,
        dice,
        {c: v for c, v in s.markers.items() if v != 0},
        tuple({c: v for c, v in own.items() if v != 0} for own in s.squares),
    )


def describe(config: Config, s: Vars) -> str:
    """Notation text of ``s``, marked if the engine does not accept it as a state."""
    text = state_text(config, s)
    try:
        engine_state(config, s)
    except (CantStopError, ValueError) as exc:
        reason = getattr(exc, "reason", str(exc))
        rule = getattr(exc, "rule", None)
        return f"{text}  [not a valid state: {reason}{f' ({rule})' if rule else ''}]"
    return text


def values_of(state: State) -> Vars:
    """Return the concrete model state of an engine :class:`~cantstop.State`."""
    cols = state.rules.columns
    dice = state.dice if state.dice is not None else (0, 0, 0, 0)
    return Vars(
        player=state.player,
        phase=_NUMBERS[state.phase],
        dice=(dice[0], dice[1], dice[2], dice[3]),
        markers={c: state.markers.get(c, 0) for c in cols},
        squares=tuple({c: own.get(c, 0) for c in cols} for own in state.squares),
    )


def moves_text(moves: Iterable[tuple[int, ...]]) -> str:
    """Return moves, each a tuple of sums, in the notation (N2.3), or ``bust`` for none.

    >>> moves_text([(8, 9), (7, 10)]), moves_text([])
    ('7+10 8+9', 'bust')
    """
    return " ".join("+".join(map(str, m)) for m in sorted(moves)) or "bust"
