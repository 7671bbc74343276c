"""Any game on the layer as an OpenSpiel game (extra ``openspiel``): :func:`register`.

``register(game, "python_NAME")`` registers a :class:`~dicekit.protocol.Game`
with OpenSpiel, so that ``pyspiel.load_game("python_NAME", params)`` loads
it; a game's package does it in its own ``openspiel`` module (the finish-line
race's ``finishline.openspiel``, Off to the Tower's ``tower.openspiel``).
The game object plays every rule: this module asks it for the legal actions,
chance's outcomes and the next state, and decides nothing.

**Parameters** (all optional): ``players`` (the game's smallest count, or 2),
``config`` (the configuration's JSON form, ``""`` for the standard one of
``players``; OpenSpiel splits parameters at commas, so its commas are
written as semicolons) and ``max_decisions`` (1000: after that many
decisions of the players the game ends, a draw for every player).

**Actions.**  A player's actions are numbered once, by the game
(:class:`~dicekit.protocol.ActionSpace`: a game without ``action_space`` is
refused, since no search can list the actions of a game whose states never
run out), and one
more number, the last, lets chance act where the game allows it beside
the legal actions (:data:`~dicekit.protocol.CHANCE`, Can't Stop's roll
again): the dice are then thrown at a chance node.  Chance nodes list the
outcomes of ``chance_outcomes``, numbered in its order, with their exact
probabilities.  Actions print in the game's notation (``throw`` for the
chance decision), states in its state notation, followed by ``throw`` while
the dice are awaited and by ``limit`` once the decision limit ended the game.

**Returns** are :mod:`dicekit.rewards`'s: with 2 or more players zero-sum,
the winner 1 and the others ``-1 / (players - 1)``, and 0 for everyone in a
game the limit ends; alone, 1 for the win.

**Observation.** The observation string is the state's text; the
information state string is the history of actions.  There are no tensors:
the protocol knows no vector form of a state.

**Limits.** ``max_game_length`` is ``max_decisions``: OpenSpiel counts the
players' decisions, not chance's outcomes.  ``max_chance_outcomes`` is the
number of outcomes where chance first acts in a seeded game from the
opening (the dice a game throws do not change in the games of the layer);
a chance node with more outcomes is refused with a ``ValueError`` rather
than reported past the bound.

A game's package registers it in its own ``openspiel`` module, and the
example there loads it and plays (``finishline.openspiel``,
``tower.openspiel``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pyspiel

from dicekit.playing import player_count
from dicekit.protocol import CHANCE, ActionSpace, Bot, Game
from dicekit.rewards import check_max_turns, outcome_returns, return_range

__all__ = ["MAX_DECISIONS", "BotAdapter", "LayerGame", "LayerState", "register"]

#: The default limit on the players' decisions in one game.
MAX_DECISIONS = 1000

#: The word of the decision that lets chance act.
THROW = "throw"


def register(game: Game[Any, Any, Any], short_name: str, long_name: str | None = None) -> None:
    """Register ``game`` with OpenSpiel as ``short_name`` (see the module docstring).

    Raises ``TypeError`` for a game that does not number its actions
    (:class:`~dicekit.protocol.ActionSpace`).
    """
    if not isinstance(game, ActionSpace):
        raise TypeError(
            f"{game.info.name} has no action_space: an OpenSpiel game numbers every action "
            "once, and the game gives that numbering (dicekit.protocol.ActionSpace)"
        )
    players = max(2, game.info.min_players) if game.info.max_players >= 2 else 1
    defaults: dict[str, Any] = {"players": players, "config": "", "max_decisions": MAX_DECISIONS}
    game_type = _game_type(game, short_name, long_name, defaults, pyspiel.GameType.Utility.ZERO_SUM)

    class Registered(LayerGame):
        def __init__(self, params: Mapping[str, Any] | None = None) -> None:
            super().__init__(game, short_name, long_name, defaults, params)

    Registered.__name__ = Registered.__qualname__ = f"LayerGame_{short_name}"
    pyspiel.register_game(game_type, Registered)


def _game_type(
    game: Game[Any, Any, Any],
    short_name: str,
    long_name: str | None,
    defaults: Mapping[str, Any],
    utility: Any,
) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name or f"Python {game.info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.info.max_players,
        min_num_players=game.info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=dict(defaults),
    )


def _config(game: Game[Any, Any, Any], values: Mapping[str, Any]) -> Any:
    """Return the configuration the parameters describe; a bad one raises ``ValueError``."""
    text = values["config"]
    if not text:
        return game.config(values["players"])
    try:
        data = json.loads(str(text).replace(";", ","))
    except ValueError as exc:
        raise ValueError(f"config must be the configuration's JSON form, not {text!r}") from exc
    config = game.config_from_json(data)
    if player_count(game, config) != values["players"]:
        raise ValueError(
            f"config {text!r} is for {player_count(game, config)} players, "
            f"not the {values['players']} of the players parameter"
        )
    return config


class LayerGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of a game object; :func:`register` makes one class per game."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        short_name: str,
        long_name: str | None,
        defaults: Mapping[str, Any],
        params: Mapping[str, Any] | None,
    ) -> None:
        params = dict(params or {})
        unknown = sorted(set(params) - set(defaults))
        if unknown:
            raise ValueError(
                f"{short_name} has no parameter {unknown[0]!r}; it has {sorted(defaults)}"
            )
        values = {**defaults, **params}
        #: The game object on the layer.
        self.layer = game
        #: The configuration played.
        self.config = _config(game, values)
        #: The most decisions a game has before it is cut short.
        self.max_decisions = check_max_turns(values["max_decisions"])
        #: The game and its numbered actions; number ``len(numbered.actions)`` lets chance act.
        space: ActionSpace[Any, Any] = game  # type: ignore[assignment]  # register checked it
        self.numbered = _Numbered(game, tuple(space.action_space(self.config)))
        self._opening = game.new_game(self.config)
        players = player_count(game, self.config)
        low, high = return_range(players, "win", self.max_decisions)
        utility = (
            pyspiel.GameType.Utility.ZERO_SUM
            if players > 1
            else pyspiel.GameType.Utility.GENERAL_SUM
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.numbered.actions) + 1,
            max_chance_outcomes=_most_outcomes(game, self._opening),
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if players > 1 else None,
            max_game_length=self.max_decisions,
        )
        values["config"] = str(values["config"]).replace(",", ";")
        super().__init__(_game_type(game, short_name, long_name, defaults, utility), info, values)

    def new_initial_state(self) -> LayerState:
        """Return the opening state."""
        return LayerState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """Return the observer OpenSpiel asks for: the state's text, or the history for recall."""
        if params:
            raise ValueError(f"the observation takes no parameters, not {params!r}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(history=False, public=True)
        return _Observer(history=True, public=iig_obs_type.public_info)


def _most_outcomes(game: Game[Any, Any, Any], opening: Any) -> int:
    """Return how many outcomes chance has where it first acts in seeded play from the opening."""
    state = opening
    rng = random.Random(0)
    for _ in range(1000):
        outcomes = game.chance_outcomes(state)
        if outcomes:
            return len(outcomes)
        legal = game.legal_actions(state)
        if not legal:
            break
        state = game.apply(state, legal[rng.randrange(len(legal))])
    return 1


class _Numbered:
    """The game object, its numbered actions and the number of each, shared by every state.

    OpenSpiel clones a state by deep copy; none of these ever changes, so a
    copy is the same object rather than thousands of copied actions.
    """

    def __init__(self, game: Game[Any, Any, Any], actions: tuple[Any, ...]) -> None:
        self.game = game
        self.actions = actions
        self.number_of: dict[Any, int] = {a: i for i, a in enumerate(actions)}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Numbered:
        return self


class LayerState(pyspiel.State):  # type: ignore[misc]
    """A state of the OpenSpiel game: the game's state, and whether the dice are awaited.

    ``awaiting_dice`` is true once the player has chosen to let chance act,
    until it does; ``decisions`` counts the players' decisions, for the limit.
    """

    def __init__(self, game: LayerGame) -> None:
        super().__init__(game)
        #: The game's state.
        self.engine_state: Any = game._opening
        #: Whether the player chose to let chance act and the dice are awaited.
        self.awaiting_dice = False
        #: The players' decisions so far.
        self.decisions = 0
        self._numbered = game.numbered
        self._max_decisions = game.max_decisions
        self._most_outcomes = game.max_chance_outcomes()

    @property
    def layer(self) -> Game[Any, Any, Any]:
        """Return the game object on the layer."""
        return self._numbered.game

    def _chance_acts(self) -> bool:
        state = self.engine_state
        return self.awaiting_dice or not self.layer.legal_actions(state)

    def current_player(self) -> int:
        """Return the player to act, or OpenSpiel's chance or terminal id."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._chance_acts():
            return int(pyspiel.PlayerId.CHANCE)
        return int(self.layer.player(self.engine_state))

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or self._chance_acts():
            return []
        state = self.engine_state
        numbers = sorted(self._number(action) for action in self.layer.legal_actions(state))
        if self.layer.chance_outcomes(state):
            numbers.append(len(self._numbered.actions))
        return numbers

    def _number(self, action: Any) -> int:
        number = self._numbered.number_of.get(action)
        if number is None:
            raise ValueError(
                f"the legal action {self.layer.format_action(action)!r} has no number: "
                "the game's action_space leaves it out"
            )
        return number

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return chance's outcomes, numbered in order, with their probabilities."""
        if not self.is_chance_node():
            return []
        outcomes = self.layer.chance_outcomes(self.engine_state)
        if len(outcomes) > self._most_outcomes:
            raise self._refuse(
                f"chance has {len(outcomes)} outcomes here, more than the "
                f"{self._most_outcomes} of max_chance_outcomes"
            )
        return [(i, float(p)) for i, (_, p) in enumerate(outcomes)]

    def _refuse(self, what: str) -> ValueError:
        return ValueError(f"{what}, in state {str(self)!r}")

    def _apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise self._refuse(f"no action after the end of the game, not {action}")
        state = self.engine_state
        if self._chance_acts():
            outcomes = self.layer.chance_outcomes(state)
            if not 0 <= action < len(outcomes):
                raise self._refuse(f"chance's outcomes are numbered 0 to {len(outcomes) - 1}")
            self.engine_state = self.layer.apply(state, outcomes[action][0])
            self.awaiting_dice = False
            return
        if not 0 <= action <= len(self._numbered.actions):
            last = len(self._numbered.actions)
            raise self._refuse(f"decisions are numbered 0 to {last}, not {action}")
        if action == len(self._numbered.actions):
            if not self.layer.chance_outcomes(state):
                raise self._refuse("chance may not act here: the player must choose an action")
            self.awaiting_dice = True
        else:
            self.engine_state = self.layer.apply(state, self._numbered.actions[action])
        self.decisions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = self.layer.chance_outcomes(self.engine_state)
            return str(self.layer.format_action(outcomes[action][0]))
        if action == len(self._numbered.actions):
            return THROW
        return str(self.layer.format_action(self._numbered.actions[action]))

    def is_terminal(self) -> bool:
        """Return whether somebody has won or the decision limit has ended the game."""
        return bool(self.layer.is_over(self.engine_state)) or self.decisions >= self._max_decisions

    def returns(self) -> list[float]:
        """Return each player's return: 0 until the end (see the module docstring)."""
        n = self.get_game().num_players()
        if not self.is_terminal():
            return [0.0] * n
        return outcome_returns(n, self.layer.winner(self.engine_state), self.decisions, "win")

    def __str__(self) -> str:
        text = str(self.layer.format_state(self.engine_state))
        if self.awaiting_dice:
            return f"{text} {THROW}"
        if self.is_terminal() and not self.layer.is_over(self.engine_state):
            return f"{text} limit"
        return text


class _Observer:
    """The observation string (the state's text) or the history; no tensor."""

    def __init__(self, history: bool, public: bool) -> None:
        self.history = history
        self.public = public
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: LayerState, player: int) -> None:
        """Nothing to set: there is no tensor."""

    def string_from(self, state: LayerState, player: int) -> str:
        if not self.public:
            return ""
        return str(state.history_str()) if self.history else str(state)


class BotAdapter(pyspiel.Bot):  # type: ignore[misc]
    """An OpenSpiel bot that plays a game's built-in player (a :class:`~dicekit.protocol.Bot`)."""

    def __init__(self, bot: Bot[Any, Any], seed: int | None = None) -> None:
        super().__init__()
        self.bot = bot
        self.rng = random.Random(seed)

    def step(self, state: LayerState) -> int:
        """Return the bot's action in ``state``, by its number."""
        chosen = self.bot.act(state.engine_state, self.rng)
        if chosen is CHANCE:
            return len(state._numbered.actions)
        return state._number(chosen)

    def restart_at(self, state: LayerState) -> None:
        """Nothing to forget: the bot keeps no memory of the game."""

    def inform_action(self, state: LayerState, player_id: int, action: int) -> None:
        """Nothing to learn from others' actions."""
