"""A tiny dice game for the layer's tests: roll one die to a target, hold or roll on, a 1 busts.

The game (its rules are in ``tests/dicekit/toy/spec/``) is small enough to
read at a glance and has what the layer must handle: a configuration, chance
with exact probabilities, a state where the player may either act (hold) or
let chance act (roll on), events, refusals under rules, notation with error
positions, JSON forms, the rule tags of :class:`dicekit.protocol.Tagging`
and the numbering of :class:`dicekit.protocol.ActionSpace`.
Nothing in the layer knows it.

>>> state = TOY.new_game(TOY.config(2))
>>> TOY.format_state(state)
'0,0/0/0r'
>>> state = TOY.apply(state, TOY.parse_action("r5"))
>>> TOY.format_state(state), [TOY.format_action(a) for a in TOY.legal_actions(state)]
('0,0/5/0d', ['hold'])
>>> TOY.format_state(TOY.apply(state, TOY.parse_action("hold")))
'5,0/0/1r'
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from dicekit.errors import IllegalAction, InvalidConfig, InvalidState, NotationError
from dicekit.protocol import CHANCE, Bot, Capability, Chance, GameInfo, Step
from dicekit.rewards import winner_returns

__all__ = ["TOY", "Hold", "Roll", "Toy", "ToyConfig", "ToyState"]

DEFAULT_TARGET = 10
PHASES = {"r": "roll", "d": "decide", "x": "over"}
LETTERS = {name: letter for letter, name in PHASES.items()}


@dataclass(frozen=True, slots=True)
class ToyConfig:
    """How many play (R1.1) and the score that wins (R1.2)."""

    players: int = 2
    target: int = DEFAULT_TARGET


@dataclass(frozen=True, slots=True)
class ToyState:
    """The scores, the points of the turn so far, whose turn it is and its phase."""

    config: ToyConfig
    scores: tuple[int, ...]
    total: int
    player: int
    phase: str


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance's action: the die shows ``die``."""

    die: int


@dataclass(frozen=True, slots=True)
class Hold:
    """The player's action: bank the points of the turn."""


Action = Roll | Hold


def _config(players: object, target: object) -> ToyConfig:
    if type(players) is not int or not 2 <= players <= 3:
        raise InvalidConfig(f"players are 2 or 3, not {players!r}", "R1.1")
    if type(target) is not int or not 5 <= target <= 30:
        raise InvalidConfig(f"the target is from 5 to 30, not {target!r}", "R1.2")
    return ToyConfig(players, target)


def _check(state: ToyState) -> ToyState:
    config = state.config
    if len(state.scores) != config.players:
        raise InvalidState(f"{config.players} players need {config.players} scores", "R4.1")
    if not 0 <= state.player < config.players:
        raise InvalidState(f"there is no player {state.player}", "R4.1")
    if state.total < 0 or any(score < 0 for score in state.scores):
        raise InvalidState("scores and totals are never negative", "R4.1")
    if state.phase != "decide" and state.total != 0:
        raise InvalidState("a turn's points are only held in the decide phase", "R4.2")
    if state.phase == "decide" and state.total < 2:
        raise InvalidState("a player who decides has rolled at least 2", "R4.2")
    winners = [p for p, score in enumerate(state.scores) if score >= config.target]
    if state.phase == "over" and winners != [state.player]:
        raise InvalidState("a finished game has one player at the target: the winner", "R4.3")
    if state.phase != "over" and winners:
        raise InvalidState("a player at the target has won: the game is over", "R4.3")
    return state


def _refuse(state: ToyState, action: Action, reason: str, rule: str) -> IllegalAction:
    return IllegalAction(reason, rule, TOY.format_state(state), action)


_STATE = re.compile(r"(\d{1,4}(?:,\d{1,4})*)/(\d{1,4})/(\d)([rdx])(?: t(\d{1,4}))?\Z")
#: What may begin a state's text: the index of the first character that cannot is the error's.
_BEGINNING = re.compile(r"\d+(,\d+)*,?|\d+(,\d+)*/(\d+(/(\d([rdx]( (t\d*)?)?)?)?)?)?")


class Toy:
    """The toy game: a :class:`~dicekit.protocol.Game`, with ``Stepping``, ``Tagging`` and more."""

    info = GameInfo(
        "toy",
        "The toy game",
        2,
        3,
        Path(__file__).resolve().parent / "spec",
        frozenset(
            {
                Capability.STEPPING,
                Capability.TAGGING,
                Capability.ACTION_SPACE,
                Capability.CHANCE_BY_CHOICE,
            }
        ),
    )
    events = ("rolled", "busted", "held", "won")

    def config(self, players: int) -> ToyConfig:
        """Return the standard configuration for ``players`` players."""
        return _config(players, DEFAULT_TARGET)

    def config_from_json(self, data: Any) -> ToyConfig:
        """Return the configuration of a JSON object (N3.3)."""
        if not isinstance(data, dict) or set(data) - {"players", "target"}:
            raise NotationError("a configuration has players and target only", "", 0, "N3.3")
        return _config(data.get("players", 2), data.get("target", DEFAULT_TARGET))

    def config_to_json(self, config: ToyConfig) -> Any:
        """Return the JSON object of ``config``: only the fields that differ from the default."""
        out: dict[str, int] = {}
        if config.players != 2:
            out["players"] = config.players
        if config.target != DEFAULT_TARGET:
            out["target"] = config.target
        return out

    def player_count(self, config: ToyConfig) -> int:
        """Return how many play (R1.1)."""
        return config.players

    def new_game(self, config: ToyConfig, first_player: int = 0) -> ToyState:
        """Return the opening state (R1.3, R1.4)."""
        if type(first_player) is not int or not 0 <= first_player < config.players:
            raise InvalidConfig(f"there is no player {first_player!r} to begin", "R1.3")
        return ToyState(config, (0,) * config.players, 0, first_player, "roll")

    def player(self, state: ToyState) -> int:
        """Return whose turn it is."""
        return state.player

    def is_over(self, state: ToyState) -> bool:
        """Return whether the game has ended (R3.1)."""
        return state.phase == "over"

    def winner(self, state: ToyState) -> int | None:
        """Return the winner of a finished game."""
        return state.player if state.phase == "over" else None

    def returns(self, state: ToyState) -> tuple[float, ...]:
        """Return the layer's returns for the winner (R3.1)."""
        return winner_returns(state.config.players, self.winner(state))

    def chance_outcomes(self, state: ToyState) -> Sequence[tuple[Action, Fraction]]:
        """Return the six faces of the die, each 1/6, where the player rolls (R2.1)."""
        if state.phase == "over":
            return ()
        return tuple((Roll(face), Fraction(1, 6)) for face in range(1, 7))

    def action_space(self, config: ToyConfig) -> Sequence[Action]:
        """Return every action a player may take, numbered once: the hold (R2.4)."""
        return (Hold(),)

    def legal_actions(self, state: ToyState) -> Sequence[Action]:
        """Return the hold where the turn has points (R2.4); rolling is chance's."""
        return (Hold(),) if state.phase == "decide" else ()

    def chance_by_choice(self, state: ToyState) -> bool:
        """Return whether rolling on is the player's choice: after a roll that scored (R2.4)."""
        return state.phase == "decide"

    def step(self, state: ToyState, action: Action) -> Step[ToyState]:
        """Return the state after ``action`` and its event; refuse an illegal one."""
        rules = self.action_rules(state, action)
        if state.phase == "over":
            raise _refuse(state, action, "the game is over", "R3.2")
        following = (state.player + 1) % state.config.players
        if isinstance(action, Roll):
            if action.die == 1:
                return Step(ToyState(state.config, state.scores, 0, following, "roll"), "busted")
            total = state.total + action.die
            after = ToyState(state.config, state.scores, total, state.player, "decide")
            return Step(after, "rolled")
        if "R2.5" in rules:
            raise _refuse(state, action, "there are no points to hold", "R2.5")
        scores = list(state.scores)
        scores[state.player] += state.total
        if scores[state.player] >= state.config.target:
            return Step(ToyState(state.config, tuple(scores), 0, state.player, "over"), "won")
        return Step(ToyState(state.config, tuple(scores), 0, following, "roll"), "held")

    def apply(self, state: ToyState, action: Action) -> ToyState:
        """Return the state after ``action``."""
        return self.step(state, action).state

    def check(self, state: ToyState) -> None:
        """Raise ``InvalidState`` if ``state`` breaks an invariant (R4)."""
        _check(state)

    # -- tags ----------------------------------------------------------------------------
    def action_rules(self, state: ToyState, action: Action) -> tuple[str, ...]:
        """Return the rules that decide what ``action`` does; a refusal's rule first.

        R3.1 is named where a hold reaches the target: where winning is decided.
        """
        if state.phase == "over":
            return ("R3.2",)
        if isinstance(action, Roll):
            return ("R2.1", "R2.2") if action.die == 1 else ("R2.1", "R2.3")
        if state.phase != "decide":
            return ("R2.5",)
        wins = state.scores[state.player] + state.total >= state.config.target
        return ("R2.4", "R3.1") if wins else ("R2.4",)

    def choice_rules(self, state: ToyState) -> tuple[str, ...]:
        """Return the rules that decide what may be done in ``state``."""
        if state.phase == "over":
            return ("R3.2",)
        return ("R2.1", "R2.4") if state.phase == "decide" else ("R2.1", "R2.5")

    # -- notation and JSON ---------------------------------------------------------------
    def format_state(self, state: ToyState) -> str:
        """Return the notation of ``state`` (N1)."""
        scores = ",".join(map(str, state.scores))
        text = f"{scores}/{state.total}/{state.player}{LETTERS[state.phase]}"
        target = state.config.target
        return text if target == DEFAULT_TARGET else f"{text} t{target}"

    def parse_state(self, text: str) -> ToyState:
        """Return the state ``text`` denotes (N1)."""
        match = _STATE.match(text)
        if match is None:
            at = _first_bad(text)
            raise NotationError("not SCORES/TOTAL/PLAYER PHASE [tTARGET]", text, at, "N1.1")
        scores, total, player, letter, target = match.groups()
        if target is not None and int(target) == DEFAULT_TARGET:
            raise NotationError("the standard target is not written", text, match.start(5), "N1.2")
        counted = scores.split(",")
        try:
            config = _config(len(counted), DEFAULT_TARGET if target is None else int(target))
            state = ToyState(
                config, tuple(map(int, counted)), int(total), int(player), PHASES[letter]
            )
            return _check(state)
        except (InvalidConfig, InvalidState) as exc:
            raise NotationError(exc.reason, text, 0, exc.rule) from None

    def format_action(self, action: Action) -> str:
        """Return the notation of ``action`` (N2)."""
        return f"r{action.die}" if isinstance(action, Roll) else "hold"

    def parse_action(self, text: str) -> Action:
        """Return the action ``text`` denotes (N2)."""
        if text == "hold":
            return Hold()
        if len(text) == 2 and text[0] == "r" and text[1] in "123456":
            return Roll(int(text[1]))
        at = 1 if text[:1] == "r" else 0
        raise NotationError("an action is r1 to r6, or hold", text, at, "N2.1")

    def state_to_json(self, state: ToyState) -> Any:
        """Return the JSON form of ``state`` (N3.1)."""
        return {
            "config": {"players": state.config.players, "target": state.config.target},
            "scores": list(state.scores),
            "total": state.total,
            "player": state.player,
            "phase": state.phase,
        }

    def state_from_json(self, data: Any) -> ToyState:
        """Return the state of a JSON form (N3.1)."""
        keys = {"config", "scores", "total", "player", "phase"}
        if not isinstance(data, dict) or set(data) != keys:
            raise NotationError(f"a state has the fields {sorted(keys)}", _brief(data), 0, "N3.1")
        scores, total, player = data["scores"], data["total"], data["player"]
        if (
            not isinstance(scores, list)
            or not all(type(s) is int for s in scores)
            or type(total) is not int
            or type(player) is not int
            or data["phase"] not in LETTERS
        ):
            raise NotationError("a field of the state has the wrong type", _brief(data), 0, "N3.1")
        try:
            state = ToyState(
                self.config_from_json(data["config"]), tuple(scores), total, player, data["phase"]
            )
            return _check(state)
        except (InvalidConfig, InvalidState) as exc:
            raise NotationError(exc.reason, _brief(data), 0, exc.rule) from None

    def action_to_json(self, action: Action) -> Any:
        """Return the JSON form of ``action`` (N3.2)."""
        return {"type": "roll", "die": action.die} if isinstance(action, Roll) else {"type": "hold"}

    def action_from_json(self, data: Any) -> Action:
        """Return the action of a JSON form (N3.2)."""
        if data == {"type": "hold"}:
            return Hold()
        if (
            isinstance(data, dict)
            and set(data) == {"type", "die"}
            and data["type"] == "roll"
            and type(data["die"]) is int
            and 1 <= data["die"] <= 6
        ):
            return Roll(data["die"])
        raise NotationError("an action is a roll of 1 to 6 or a hold", _brief(data), 0, "N3.2")

    # -- pictures and players ------------------------------------------------------------
    def state_svg(self, state: ToyState) -> str:
        """Return the state's text in an SVG document."""
        text = self.format_state(state)
        return f'<svg xmlns="http://www.w3.org/2000/svg"><text>{text}</text></svg>'

    def bots(self) -> Mapping[str, Callable[[], Bot[ToyState, Action]]]:
        """Return the one built-in player, ``random``."""
        return {"random": _RandomBot}

    def __reduce__(self) -> str:
        """Pickle :data:`TOY` by its name, so that a copy is the one game object."""
        return "TOY"


class _RandomBot:
    name = "random"

    def act(self, state: ToyState, rng: random.Random) -> Action | Chance:
        return Hold() if state.phase == "decide" and rng.random() < 0.4 else CHANCE


def _first_bad(text: str) -> int:
    """Return the index of the first character that cannot begin a longer valid state."""
    for end in range(len(text), 0, -1):
        if _BEGINNING.fullmatch(text[:end]):
            return end
    return 0


def _brief(data: object) -> str:
    try:
        text = json.dumps(data)
    except (TypeError, ValueError, RecursionError):
        text = type(data).__name__
    return text[:60]


#: The toy game.
TOY = Toy()
