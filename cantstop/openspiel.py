"""Can't Stop as an OpenSpiel game: ``python_cant_stop`` (extra ``openspiel``).

Importing this module registers the game with OpenSpiel, so that
``pyspiel.load_game("python_cant_stop")`` loads it.  The engine plays every
rule: the game asks it for the legal moves and the next state and writes no
rule of its own.

**Parameters** (all optional):

=====================  ==========  ==============================================
name                   default     meaning
=====================  ==========  ==============================================
``players``            2           1 (solitaire) to 4 (R15.1)
``columns_to_win``     3           columns a player must hold to win (R15.2)
``variant``            ``none``    ``none``, ``A`` or ``B`` (R14)
``heights``            ``""``      a custom board, ``column:spaces;...`` such as
                                   ``5:2;6:1;7:3``; empty for the standard board
                                   (R15.3).  Commas are read as semicolons; the
                                   game string (``str(game)``) has semicolons,
                                   since OpenSpiel splits parameters at commas
``max_turns``          1000        the turn limit: the game ends, a draw, once
                                   this many turns (all players' turns counted)
                                   have ended without a winner
``solitaire_reward``   ``turns``   alone, ``turns`` returns minus the turns the
                                   game took; ``win`` returns 1 for the win
=====================  ==========  ==============================================

**Bounded games.**  A turn holds at most
:func:`~cantstop.envs.max_moves_per_turn` moves (35 on the standard board),
each followed by one decision, so ``max_game_length()`` is
``max_turns * 2 * max_moves_per_turn``: a true bound on the player decisions
of any game, however its players play (:func:`max_game_length`).

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
dice are awaited, the word ``roll`` follows it, and once the turn limit has
ended the game, the word ``limit``.  An action that is not legal raises an
error that names the rule and the state: the engine's
:class:`~cantstop.IllegalAction` for a move, stop or roll the rules forbid,
:class:`ValueError` for a number out of range.

**A position to start from.**  ``game.new_initial_state(text)`` starts from
the state that ``text`` writes in the state notation (the game's own
configuration; a trailing ``roll`` as in ``str(state)``), with the turn limit
counted from there.

**Observation.** The observation tensor is :func:`cantstop.envs.observation`
(its fields are listed there), seen from the observing player; the
observation string is the state text.  The information state string (a
perfect-recall observation) is the history of actions, after the starting
position when the game did not start at the opening; there is no
information state tensor.

**Returns.** Nothing until the game ends.  With 2 to 4 players the winner
then gets 1 and every other player ``-1 / (players - 1)``, so the game is
zero-sum, and a game the turn limit ends gives everyone 0; the environments
of :mod:`cantstop.envs` pay the same.  A solitaire game returns minus the
number of turns it took (``-max_turns`` if cut short), or, with
``solitaire_reward=win``, 1 for the win and 0 if cut short.

**Serialization** is OpenSpiel's: ``state.serialize()`` and
``pyspiel.serialize_game_and_state`` keep the history and the engine state,
and ``game.deserialize_state`` restores them.  ``state.clone()`` shares the
engine state, which is immutable, and copies the rest.

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
from cantstop.board import STANDARD_HEIGHTS
from cantstop.config import MAX_PLAYERS, MIN_PLAYERS, Rules, Variant
from cantstop.dice import roll_outcomes, sorted_dice
from cantstop.envs import (
    MAX_TURNS,
    NUM_ACTIONS,
    ROLL,
    action_index,
    decision,
    legal_decisions,
    max_moves_per_turn,
    observation,
    observation_fields,
    observation_size,
    stop_allowed,
)
from cantstop.notation import format_action, format_state, parse_state
from cantstop.players import Player
from cantstop.state import Phase, State, new_game
from dicekit.protocol import CHANCE
from dicekit.rewards import (
    check_max_turns,
    check_solitaire_reward,
    outcome_returns,
    return_range,
)

__all__ = [
    "GAME_NAME",
    "MAX_GAME_LENGTH",
    "CantStopGame",
    "CantStopState",
    "PlayerBot",
    "max_game_length",
    "roll_action",
    "rules_of",
]

#: The name the game is registered under.
GAME_NAME = "python_cant_stop"

_OUTCOMES = roll_outcomes()
_ROLLS: tuple[Roll, ...] = tuple(roll for roll, _ in _OUTCOMES)
_CHANCE = [(i, float(p)) for i, (_, p) in enumerate(_OUTCOMES)]
_OUTCOME_OF: dict[tuple[int, int, int, int], int] = {roll.dice: i for i, roll in enumerate(_ROLLS)}
_STOP = Stop()
_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "columns_to_win": 3,
    "variant": "none",
    "heights": "",
    "max_turns": MAX_TURNS,
    "solitaire_reward": "turns",
}


def max_game_length(rules: Rules, max_turns: int) -> int:
    """Return the most player decisions a game under ``rules`` can have within ``max_turns`` turns.

    Each turn holds at most :func:`~cantstop.envs.max_moves_per_turn` moves,
    and each move two decisions: the move, then stop or roll again.

    >>> max_game_length(Rules(), 1000)
    70000
    >>> max_game_length(Rules(heights={7: 2, 8: 1}, columns_to_win=1), max_turns=1)
    6
    """
    return max_turns * 2 * max_moves_per_turn(rules)


#: ``max_game_length()`` of the standard game under the default turn limit.
MAX_GAME_LENGTH = max_game_length(Rules(), MAX_TURNS)


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
        provides_information_state_string=True,
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
    variants = {"none": None, "A": Variant.A, "B": Variant.B}
    if values["variant"] not in variants:
        raise ValueError(f"variant must be 'none', 'A' or 'B', not {values['variant']!r}")
    variant = variants[values["variant"]]
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
        variant=variant,
    )


class CantStopGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: load it with ``pyspiel.load_game("python_cant_stop", params)``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = rules_of(params)
        values = {**_DEFAULTS, **params}
        #: The turn limit.
        self.max_turns = check_max_turns(values["max_turns"])
        #: ``"turns"`` or ``"win"``: what a solitaire game returns.
        self.solitaire_reward = check_solitaire_reward(values["solitaire_reward"])
        players = self.rules.players
        utility = (
            pyspiel.GameType.Utility.ZERO_SUM
            if players > 1
            else pyspiel.GameType.Utility.GENERAL_SUM
        )
        low, high = return_range(players, self.solitaire_reward, self.max_turns)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(_OUTCOMES),
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if players > 1 else None,
            max_game_length=max_game_length(self.rules, self.max_turns),
        )
        values["heights"] = ";".join(_cells(values["heights"])) if values["heights"] else ""
        super().__init__(_game_type(utility), info, values)
        # States are values: every game starts from this one, checked once.
        self._opening = new_game(self.rules)

    def new_initial_state(self, text: str | None = None) -> CantStopState:
        """Return the opening state (player 0 to roll), or the state ``text`` writes.

        ``text`` is in the state notation, under this game's configuration,
        and may end in ``roll`` as ``str(state)`` does (see the module
        docstring).  Text that is not a state raises
        :class:`~cantstop.NotationError`; a state of another configuration,
        :class:`ValueError`.
        """
        if text is None:
            return CantStopState(self)
        body = text.removesuffix(" roll")
        start = parse_state(body)
        if start.rules != self.rules:
            raise ValueError(
                f"{text!r} is a state of {start.rules!r}, not of this game's {self.rules!r}"
            )
        awaiting = body != text
        if awaiting and start.phase is not Phase.DECIDE:
            raise ValueError(
                f"'roll' follows only a state deciding whether to roll again (phase d), "
                f"not {body!r}"
            )
        state = CantStopState(self, start)
        state.awaiting_dice = awaiting
        state.start_text = text
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """Return the observer OpenSpiel asks for.

        Without a type, or for a public observation without perfect recall:
        the observation tensor and string.  For perfect recall (the
        information state): the history.  For private information only:
        nothing, since the game has none.
        """
        if params:
            raise ValueError(f"the observation takes no parameters, not {params!r}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self.rules.players)
        return _RecallObserver(public=iig_obs_type.public_info)


class CantStopState(pyspiel.State):  # type: ignore[misc]
    """A state of the OpenSpiel game: an engine :class:`~cantstop.State` and a little more.

    :attr:`engine_state` is the engine's state.  ``awaiting_dice`` is true
    once the player has chosen to roll again, until chance throws the dice;
    ``turns_ended`` counts the turns that have ended, for the turn limit.
    """

    def __init__(self, game: CantStopGame, start: State | None = None) -> None:
        super().__init__(game)
        #: The engine's state.
        self.engine_state: State = game._opening if start is None else start
        #: Whether the player chose to roll again and the dice are awaited.
        self.awaiting_dice = False
        #: The turns ended so far: by a stop, a bust or the win.
        self.turns_ended = 0
        #: The text the game started from, or ``None`` for the opening.
        self.start_text: str | None = None
        self._max_turns = game.max_turns
        self._solitaire_reward = game.solitaire_reward

    def _cut_short(self) -> bool:
        return self.turns_ended >= self._max_turns and self.engine_state.phase is not Phase.OVER

    def current_player(self) -> int:
        """Return the player to act, or OpenSpiel's chance or terminal id."""
        state = self.engine_state
        if state.phase is Phase.OVER or self.turns_ended >= self._max_turns:
            return int(pyspiel.PlayerId.TERMINAL)
        if state.phase is Phase.ROLL or self.awaiting_dice:
            return int(pyspiel.PlayerId.CHANCE)
        return state.player

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal():
            return []
        return legal_decisions(self.engine_state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return the 126 sorted rolls with their probabilities (a new list: callers shuffle it)."""
        return list(_CHANCE) if self.is_chance_node() else []

    def _refuse(self, what: str) -> ValueError:
        return ValueError(f"{what}, in state {str(self)!r}")

    def _apply_action(self, action: int) -> None:
        state = self.engine_state
        if self.is_terminal():
            over = "somebody has won (R12.3)" if state.phase is Phase.OVER else "the turn limit"
            raise self._refuse(f"no action after the end of the game ({over}), not {action}")
        if state.phase is Phase.ROLL or self.awaiting_dice:
            if not 0 <= action < len(_ROLLS):
                raise self._refuse(
                    f"chance outcomes are numbered 0 to {len(_ROLLS) - 1} "
                    f"(the sorted rolls, see roll_action), not {action}"
                )
            new = state.apply(_ROLLS[action])
            self.awaiting_dice = False
        else:
            if not 0 <= action < NUM_ACTIONS:
                raise self._refuse(f"decisions are numbered 0 to {NUM_ACTIONS - 1}, not {action}")
            chosen = decision(action)
            if chosen is CHANCE:
                if state.phase is not Phase.DECIDE:
                    # The engine refuses the roll and names the rule (R3.3).
                    state.apply(_ROLLS[0])
                self.awaiting_dice = True
                return
            new = state.apply(chosen)
        if new.phase is Phase.ROLL or new.phase is Phase.OVER:
            self.turns_ended += 1
        self.engine_state = new

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return format_action(_ROLLS[action])
        chosen = decision(action)
        return "roll" if chosen is CHANCE else format_action(chosen)

    def is_terminal(self) -> bool:
        """Return whether somebody has won or the turn limit has ended the game."""
        return self.engine_state.phase is Phase.OVER or self.turns_ended >= self._max_turns

    def returns(self) -> list[float]:
        """Return each player's return: 0 until the end (see the module docstring)."""
        state = self.engine_state
        n = state.rules.players
        if not self.is_terminal():
            return [0.0] * n
        return outcome_returns(n, state.winner, self.turns_ended, self._solitaire_reward)

    def __str__(self) -> str:
        text = format_state(self.engine_state)
        if self.awaiting_dice:
            return f"{text} roll"
        if self._cut_short():
            return f"{text} limit"
        return text


class _Observer:
    """The observation of :func:`cantstop.envs.observation`, in OpenSpiel's observer protocol."""

    def __init__(self, players: int) -> None:
        self.tensor = np.zeros(observation_size(players), np.float32)
        self.dict = {name: self.tensor[part] for name, part in observation_fields(players).items()}

    def set_from(self, state: CantStopState, player: int) -> None:
        self.tensor[:] = observation(state.engine_state, player, awaiting_dice=state.awaiting_dice)

    def string_from(self, state: CantStopState, player: int) -> str:
        return str(state)


class _RecallObserver:
    """A perfect-recall observation: the history of actions, and no tensor.

    In a game of perfect information everything is public, so the history
    (after the starting position, when the game did not start at the
    opening) is the information state of every player.  An observer of
    private information alone sees nothing.
    """

    def __init__(self, public: bool) -> None:
        self.public = public
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: CantStopState, player: int) -> None:
        """Nothing to set: there is no tensor."""

    def string_from(self, state: CantStopState, player: int) -> str:
        if not self.public:
            return ""
        history = state.history_str()
        return history if state.start_text is None else f"{state.start_text}; {history}"


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
