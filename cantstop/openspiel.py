"""Can't Stop as an OpenSpiel game: ``python_cant_stop`` (extra ``openspiel``).

Importing this module registers the game with OpenSpiel, so that
``pyspiel.load_game("python_cant_stop")`` loads it.  The engine plays every
rule: the game asks it for the legal moves and the next state and writes no
rule of its own.

**Parameters** (all optional):

====================  ==========  ==============================================
name                  default     meaning
====================  ==========  ==============================================
``players``           2           1 (solitaire) to 4 (R15.1)
``columns_to_win``    3           columns a player must hold to win (R15.2)
``variant``           ``none``    ``none``, ``A`` or ``B`` (R14)
``heights``           ``""``      a custom board, ``column:spaces;...`` such as
                                  ``5:2;6:1;7:3``; empty for the standard board
                                  (R15.3).  Commas are read as semicolons; the
                                  game string (``str(game)``) has semicolons,
                                  since OpenSpiel splits parameters at commas
====================  ==========  ==============================================

**Chance.** A turn starts with a chance node, and so does each roll after a
decision to roll again: its 126 outcomes are the sorted rolls, numbered in
the order of :func:`cantstop.roll_outcomes`, each with its exact
probability (the number of ordered rolls it stands for over 1296).  A roll
that busts passes the turn, and the next node is the next player's roll.

**Player actions** are numbered as in :mod:`cantstop.envs`: 0 stop, 1 roll
again, 2-12 a move playing one sum, 13-78 a move playing two sums.
``action_to_string`` writes them in the action notation (``7+10``, ``5``,
``stop``, and ``roll`` for rolling again) and the chance outcomes as rolls
(``r3455``).  ``str(state)`` is the state in the state notation
(:func:`cantstop.format_state`); after a decision to roll again, while the
dice are awaited, the word ``roll`` follows it.

**Observation.** The observation tensor is :func:`cantstop.envs.observation`
(its fields are listed there), seen from the observing player; the
observation string is the state text.

**Returns.** Nothing until the game ends; then the winner gets 1 and every
other player ``-1 / (players - 1)``, so the game is zero-sum.  A solitaire
game always ends in a win and returns 1.

**Serialization** is OpenSpiel's: ``state.serialize()`` and
``pyspiel.serialize_game_and_state`` keep the history and the engine state,
and ``game.deserialize_state`` restores them.

>>> import pyspiel
>>> game = pyspiel.load_game("python_cant_stop", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 126)
>>> state.apply_action(roll_action((3, 4, 5, 5)))
>>> state.legal_actions(), [state.action_to_string(a) for a in state.legal_actions()]
([61, 65], ['7+10', '8+9'])
>>> state.apply_action(65)
>>> str(state), state.legal_actions()
('-/- 8:1,9:1 0d', [0, 1])
>>> state.apply_action(1)
>>> str(state), state.is_chance_node()
('-/- 8:1,9:1 0d roll', True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from cantstop.actions import Roll, Stop
from cantstop.dice import roll_outcomes, sorted_dice
from cantstop.envs import (
    NUM_ACTIONS,
    ROLL,
    action_index,
    decision,
    legal_decisions,
    observation,
    observation_fields,
    observation_size,
    stop_allowed,
)
from cantstop.game import Phase, State, new_game
from cantstop.notation import format_action, format_state
from cantstop.players import Player
from cantstop.rules import MAX_PLAYERS, MIN_PLAYERS, STANDARD_HEIGHTS, Rules, Variant

__all__ = [
    "GAME_NAME",
    "MAX_GAME_LENGTH",
    "CantStopGame",
    "CantStopState",
    "PlayerBot",
    "roll_action",
    "rules_of",
]

#: The name the game is registered under.
GAME_NAME = "python_cant_stop"

#: The bound OpenSpiel asks for on the number of player decisions in a game.
#: The rules set none (a player may bust for ever), so this is only a figure
#: far above any game played: uniformly random decisions on the standard
#: board, the longest games OpenSpiel's own checks play, take some hundreds.
MAX_GAME_LENGTH = 100_000

_OUTCOMES = roll_outcomes()
_ROLLS: tuple[Roll, ...] = tuple(roll for roll, _ in _OUTCOMES)
_CHANCE = [(i, float(p)) for i, (_, p) in enumerate(_OUTCOMES)]
_OUTCOME_OF: dict[tuple[int, int, int, int], int] = {roll.dice: i for i, roll in enumerate(_ROLLS)}
_STOP = Stop()
_DEFAULTS: dict[str, Any] = {"players": 2, "columns_to_win": 3, "variant": "none", "heights": ""}


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python Can't Stop",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=MIN_PLAYERS,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


def roll_action(dice: tuple[int, int, int, int]) -> int:
    """Return the chance outcome of four dice, in any order.

    >>> roll_action((1, 1, 1, 1)), roll_action((5, 3, 4, 5)), roll_action((6, 6, 6, 6))
    (0, 104, 125)
    """
    return _OUTCOME_OF[sorted_dice(dice)]


def _cells(heights: object) -> list[str]:
    return str(heights).replace(",", ";").split(";")


def rules_of(params: Mapping[str, Any]) -> Rules:
    """Return the :class:`~cantstop.Rules` that game parameters describe.

    Unknown or malformed parameters raise :class:`ValueError` naming them;
    a configuration the spec forbids raises :class:`~cantstop.InvalidRules`.

    >>> rules_of({"columns_to_win": 2, "variant": "B", "heights": "5:2;6:1;7:3;8:2;9:1"})
    Rules(players=2, columns_to_win=2, heights={5: 2, 6: 1, 7: 3, 8: 2, 9: 1}, variant=Variant.B)
    """
    unknown = sorted(set(params) - set(_DEFAULTS))
    if unknown:
        raise ValueError(f"{GAME_NAME} has no parameter {unknown[0]!r}; it has {sorted(_DEFAULTS)}")
    values = {**_DEFAULTS, **params}
    variant = {"none": None, "A": Variant.A, "B": Variant.B}.get(values["variant"], "bad")
    if variant == "bad":
        raise ValueError(f"variant must be 'none', 'A' or 'B', not {values['variant']!r}")
    text = values["heights"]
    heights: Mapping[int, int] = STANDARD_HEIGHTS
    if text:
        try:
            heights = {
                int(column): int(spaces)
                for column, spaces in (cell.split(":") for cell in _cells(text))
            }
        except ValueError:
            raise ValueError(
                f"heights must be written 'column:spaces;...' like '5:2;6:1;7:3', not {text!r}"
            ) from None
    return Rules(
        players=values["players"],
        columns_to_win=values["columns_to_win"],
        heights=heights,
        variant=variant,  # type: ignore[arg-type]
    )


class CantStopGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: load it with ``pyspiel.load_game("python_cant_stop", params)``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = rules_of(params)
        players = self.rules.players
        utility = (
            pyspiel.GameType.Utility.ZERO_SUM
            if players > 1
            else pyspiel.GameType.Utility.GENERAL_SUM
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(_OUTCOMES),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if players > 1 else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        values = {**_DEFAULTS, **params}
        values["heights"] = ";".join(_cells(values["heights"])) if values["heights"] else ""
        super().__init__(_game_type(utility), info, values)

    def new_initial_state(self, *args: Any) -> CantStopState:
        """Return the opening state: player 0 to roll."""
        return CantStopState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """Return the observer of the observation tensor and string."""
        if params:
            raise ValueError(f"the observation takes no parameters, not {params!r}")
        return _Observer(self.rules.players)


class CantStopState(pyspiel.State):  # type: ignore[misc]
    """A state of the OpenSpiel game: an engine :class:`~cantstop.State` and a flag.

    :attr:`engine_state` is the engine's state.  ``awaiting_dice`` is true
    once the player has chosen to roll again, until chance throws the dice.
    """

    def __init__(self, game: CantStopGame) -> None:
        super().__init__(game)
        #: The engine's state.
        self.engine_state: State = new_game(game.rules)
        #: Whether the player chose to roll again and the dice are awaited.
        self.awaiting_dice = False

    def current_player(self) -> int:
        """Return the player to act, or OpenSpiel's chance or terminal id."""
        state = self.engine_state
        if state.phase is Phase.OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        if state.phase is Phase.ROLL or self.awaiting_dice:
            return int(pyspiel.PlayerId.CHANCE)
        return state.player

    def _legal_actions(self, player: int) -> list[int]:
        return legal_decisions(self.engine_state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return the 126 sorted rolls with their probabilities (a new list: callers shuffle it)."""
        return list(_CHANCE)

    def _apply_action(self, action: int) -> None:
        state = self.engine_state
        if state.phase is Phase.ROLL or self.awaiting_dice:
            self.engine_state = state.apply(_ROLLS[action])
            self.awaiting_dice = False
            return
        chosen = decision(action)
        if chosen == "roll":
            if state.phase is not Phase.DECIDE:
                raise ValueError(f"roll again only after a move, not in {format_state(state)!r}")
            self.awaiting_dice = True
        else:
            assert not isinstance(chosen, str)
            self.engine_state = state.apply(chosen)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return format_action(_ROLLS[action])
        chosen = decision(action)
        return chosen if isinstance(chosen, str) else format_action(chosen)

    def is_terminal(self) -> bool:
        """Return whether somebody has won."""
        return self.engine_state.phase is Phase.OVER

    def returns(self) -> list[float]:
        """Return 1 for the winner and ``-1 / (players - 1)`` for the others, once over."""
        state = self.engine_state
        n = state.rules.players
        if state.winner is None:
            return [0.0] * n
        loss = -1.0 / (n - 1) if n > 1 else 0.0
        return [1.0 if p == state.winner else loss for p in range(n)]

    def __str__(self) -> str:
        text = format_state(self.engine_state)
        return f"{text} roll" if self.awaiting_dice else text


class _Observer:
    """The observation of :func:`cantstop.envs.observation`, in OpenSpiel's observer protocol."""

    def __init__(self, players: int) -> None:
        self.tensor = np.zeros(observation_size(players), np.float32)
        self.dict = {name: self.tensor[part] for name, part in observation_fields(players).items()}

    def set_from(self, state: CantStopState, player: int) -> None:
        self.tensor[:] = observation(state.engine_state, player, awaiting_dice=state.awaiting_dice)

    def string_from(self, state: CantStopState, player: int) -> str:
        return str(state)


class PlayerBot(pyspiel.Bot):  # type: ignore[misc]
    """An OpenSpiel bot that plays a :class:`cantstop.players.Player` (Rule of 28, greedy...).

    It makes the player's two decisions: its move when choosing, and stop or
    roll again when deciding (a stop the rules forbid is played as a roll).

    >>> import pyspiel
    >>> from cantstop.players import Rule28Player
    >>> game = pyspiel.load_game("python_cant_stop")
    >>> state = game.new_initial_state()
    >>> state.apply_action(roll_action((3, 4, 5, 5)))
    >>> state.action_to_string(PlayerBot(Rule28Player(), seed=1).step(state))
    '8+9'
    """

    def __init__(self, player: Player, seed: int | None = None) -> None:
        super().__init__()
        self.player = player
        self.rng = random.Random(seed)

    def step(self, state: CantStopState) -> int:
        """Return the player's action in ``state``."""
        position = state.engine_state
        if position.phase is Phase.CHOOSE:
            return action_index(self.player.choose(position, self.rng))
        if self.player.stops(position, self.rng) and stop_allowed(position):
            return action_index(_STOP)
        return ROLL

    def restart_at(self, state: CantStopState) -> None:
        """Nothing to forget: the player keeps no memory of the game."""

    def inform_action(self, state: CantStopState, player_id: int, action: int) -> None:
        """Nothing to learn from others' actions."""


pyspiel.register_game(_GAME_TYPE, CantStopGame)
