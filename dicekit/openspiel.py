"""Any game on the layer as an OpenSpiel game (extra ``openspiel``): :func:`register`.

``register(game, "python_NAME")`` registers a :class:`~dicekit.protocol.Game`
with OpenSpiel, so that ``pyspiel.load_game("python_NAME", params)`` loads
it; a game's package does it in its own ``openspiel`` module.  The game
object plays every rule: this module asks it for the player's decisions
(:mod:`dicekit.nodes`), chance's outcomes, the next state and the returns,
and decides nothing.  What is a game's own (its parameters, an observation
tensor) is a small :class:`Hook` the game gives to :func:`register`.

**Parameters.**  Without a hook (:data:`DEFAULT_HOOK`): ``players`` (the
game's smallest count, or 2), ``config`` (the configuration's JSON form,
``""`` for the standard one of ``players``; OpenSpiel splits parameters at
commas, so its commas are written as semicolons) and ``max_decisions``
(1000: after that many decisions of the players the game ends, a draw for
every player).  A hook has parameters of its own, and may limit the turns
instead of the decisions (:class:`Setup`).

**Actions.**  A player's decisions are numbered once, by the game
(:class:`~dicekit.protocol.ActionSpace`: a game without it is refused,
since no search can list the actions of a game whose states never run
out).  The decision to let chance act (:data:`~dicekit.protocol.CHANCE`,
where the game leaves it to the player) has the number the game gives it in
its action space, or else the last.  Chance nodes list the outcomes of
``chance_outcomes``, numbered in its order, with their exact probabilities.
Actions print in the game's notation (the hook's word, ``throw`` by default,
for the chance decision), states in its state notation, followed by that
word while the dice are awaited and by ``limit`` once the limit ended the
game.  An action the rules forbid raises the game's
:class:`~dicekit.errors.IllegalAction`, naming the rule and the state; a
number out of range, :class:`ValueError`.

**A position to start from.**  With a hook that tells a state's
configuration, ``game.new_initial_state(text)`` starts from the state
``text`` writes (as ``str(state)`` does), with the limit counted from there.

**Returns** are the game's (:meth:`~dicekit.protocol.Core.returns`) once it
is over; a game the limit ends gives everyone 0; alone, with the hook's
``"turns"`` reward, minus the turns taken (:mod:`dicekit.rewards`).  Where
the returns depend on the turns, ``str(state)`` ends in ``turns N`` (the
turns ended), so that two states of one text have one return.

**Observation.** The observation string is the state's text; the tensor is
the hook's, if it has one.  The information state string is the history of
actions (after the starting position, when there is one).

**Limits.** ``max_game_length`` is the setup's bound on the players'
decisions.  ``max_chance_outcomes`` is the number of outcomes where chance
first acts in a seeded game from the opening; a chance node with more is
refused with a ``ValueError`` rather than reported past the bound.

**Pickling.**  A game and its states pickle, and unpickle in another
process: the game object and the hook travel with them, and the game is
registered there if it is not yet.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import pyspiel

from dicekit.openspiel_state import (
    LayerState,
    _Observer,
    _RecallObserver,
    _Shared,
    _start,
)
from dicekit.protocol import Bot, Capability, Game, capable
from dicekit.rewards import check_max_turns, return_range

__all__ = [
    "DEFAULT_HOOK",
    "MAX_DECISIONS",
    "BotAdapter",
    "Hook",
    "LayerGame",
    "LayerHook",
    "LayerState",
    "Observation",
    "Setup",
    "register",
]

#: The default limit on the players' decisions in one game.
MAX_DECISIONS = 1000


@dataclass(frozen=True)
class Setup:
    """What a game's parameters set: its configuration, its limit and its solitaire reward."""

    #: The configuration played.
    config: Any
    #: The most turns (``counts_turns``) or decisions a game has before it is cut short.
    limit: int
    #: Whether the limit counts turns (:func:`dicekit.nodes.turn_ends`) rather than decisions.
    counts_turns: bool
    #: A true bound on the players' decisions in one game, OpenSpiel's ``max_game_length``.
    max_game_length: int
    #: Alone, ``"win"`` (1 for the win) or ``"turns"`` (minus the turns taken).
    solitaire_reward: str = "win"


class Observation(Protocol):
    """An observation tensor of a game's states, seen by one player."""

    def fields(self, config: Any) -> Mapping[str, slice]:
        """Return where each named field lies in the tensor of ``config``."""
        ...

    def observe(self, state: Any, player: int, awaiting: bool) -> Any:
        """Return the tensor of ``state`` seen by ``player`` (``awaiting``: the dice are due)."""
        ...


class Hook(Protocol):
    """What a game adds to the adapter: its parameters, and an observation if it has one."""

    @property
    def defaults(self) -> Mapping[str, Any]:
        """The parameters and their defaults."""
        ...

    @property
    def chance_word(self) -> str:
        """The word of the decision to let chance act, in action and state strings."""
        ...

    @property
    def observation(self) -> Observation | None:
        """The observation tensor, or ``None``."""
        ...

    def setup(self, game: Game[Any, Any, Any], values: Mapping[str, Any]) -> Setup:
        """Return what ``values`` (the defaults, with the parameters given) set.

        A bad value raises ``ValueError`` (or the game's error) naming it.
        """
        ...

    def shown(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Return the values as the game's string writes them (no commas)."""
        ...

    def config_of(self, state: Any) -> Any | None:
        """Return the configuration of ``state``, or ``None`` if the hook cannot tell."""
        ...


def _config(game: Game[Any, Any, Any], values: Mapping[str, Any]) -> Any:
    """Return the configuration ``config`` and ``players`` describe; a bad one raises."""
    text = values["config"]
    if not text:
        return game.config(values["players"])
    try:
        data = json.loads(str(text).replace(";", ","))
    except ValueError as exc:
        raise ValueError(f"config must be the configuration's JSON form, not {text!r}") from exc
    config = game.config_from_json(data)
    if game.player_count(config) != values["players"]:
        raise ValueError(
            f"config {text!r} is for {game.player_count(config)} players, "
            f"not the {values['players']} of the players parameter"
        )
    return config


class LayerHook:
    """The adapter's own parameters, for a game without a hook: see the module docstring."""

    chance_word = "throw"
    observation = None

    def __init__(self, players: int) -> None:
        self.defaults: Mapping[str, Any] = {
            "players": players,
            "config": "",
            "max_decisions": MAX_DECISIONS,
        }

    def setup(self, game: Game[Any, Any, Any], values: Mapping[str, Any]) -> Setup:
        """Return the configuration of ``players`` and ``config``, and the decision limit."""
        limit = check_max_turns(values["max_decisions"])
        return Setup(_config(game, values), limit, False, limit)

    def shown(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Return the values with the configuration's commas as semicolons."""
        return {**values, "config": str(values["config"]).replace(",", ";")}

    def config_of(self, state: Any) -> None:
        """Return ``None``: the protocol does not tell a state's configuration."""
        return None


def _default_players(game: Game[Any, Any, Any]) -> int:
    return max(2, game.info.min_players) if game.info.max_players >= 2 else 1


#: Marks a hook to be made from the game's player counts (:class:`LayerHook`).
DEFAULT_HOOK = None


@dataclass(frozen=True)
class _Registration:
    """A registered game: the game object, its names and its hook."""

    game: Game[Any, Any, Any]
    short_name: str
    long_name: str
    hook: Hook
    #: The class of the games, when it is the game module's own (it is then pickled by name).
    cls: type[LayerGame] | None = None


_REGISTERED: dict[str, _Registration] = {}


def register(
    game: Game[Any, Any, Any],
    short_name: str,
    long_name: str | None = None,
    hook: Hook | None = DEFAULT_HOOK,
    cls: type[LayerGame] | None = None,
) -> type[LayerGame]:
    """Register ``game`` with OpenSpiel as ``short_name``; return the class of its games.

    ``hook`` gives the game's own parameters and observation; by default a
    :class:`LayerHook`.  ``cls``, a subclass of :class:`LayerGame` of the
    game's own module, is the class of its games, which may add names of
    the game's own; by default a subclass is made here.  Raises
    ``TypeError`` for a game that does not number its actions
    (:class:`~dicekit.protocol.ActionSpace`).  The registered type is the
    type of the game of the default parameters: zero-sum with 2 or more
    players, general-sum alone.
    """
    if not game.info.provides(Capability.ACTION_SPACE):
        raise TypeError(
            f"{game.info.name} has no action_space: an OpenSpiel game numbers every action "
            "once, and the game gives that numbering (dicekit.protocol.ActionSpace)"
        )
    chosen: Hook = LayerHook(_default_players(game)) if hook is None else hook
    title = long_name or f"Python {game.info.title}"
    registration = _Registration(game, short_name, title, chosen, cls)
    players = game.player_count(chosen.setup(game, chosen.defaults).config)
    if cls is None:
        cls = type(f"LayerGame_{short_name}", (LayerGame,), {})
    cls._registration = registration
    _REGISTERED[short_name] = registration
    pyspiel.register_game(_game_type(registration, _utility(players)), cls)
    return cls


def _utility(players: int) -> Any:
    if players > 1:
        return pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameType.Utility.GENERAL_SUM


def _game_type(registration: _Registration, utility: Any) -> Any:
    game, hook = registration.game, registration.hook
    return pyspiel.GameType(
        short_name=registration.short_name,
        long_name=registration.long_name,
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
        provides_observation_tensor=hook.observation is not None,
        parameter_specification=dict(hook.defaults),
    )


def _reload(registration: _Registration, text: str) -> LayerGame:
    """Return the game ``text`` names, registering it first in a process that has not."""
    if registration.short_name not in _REGISTERED:
        named = registration.game, registration.short_name, registration.long_name
        register(*named, registration.hook, registration.cls)
    loaded: LayerGame = pyspiel.load_game(text)
    return loaded


class LayerGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of a game object: each registered game has a subclass (:func:`register`).

    ``params`` are the game's parameters (see the module docstring).
    """

    #: The game object, its names and its hook (set on each registered subclass).
    _registration: _Registration

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        registration = self._registration
        hook, game = registration.hook, registration.game
        params = dict(params or {})
        unknown = sorted(set(params) - set(hook.defaults))
        if unknown:
            raise ValueError(
                f"{registration.short_name} has no parameter {unknown[0]!r}; "
                f"it has {sorted(hook.defaults)}"
            )
        values = {**hook.defaults, **params}
        setup = hook.setup(game, values)
        space = capable(game, Capability.ACTION_SPACE)
        assert space is not None  # register checked it
        #: The registration: the game object, its names and its hook.
        self.registration = registration
        #: What every state shares.
        self.shared = _Shared(registration, setup, space.action_space(setup.config))
        # The states' class holds the shared part, so that a clone does not copy it.
        self._state_class = type(
            f"LayerState_{registration.short_name}", (LayerState,), {"_shared": self.shared}
        )
        players = self.shared.players
        low, high = return_range(players, setup.solitaire_reward, setup.limit)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.shared.actions),
            max_chance_outcomes=self.shared.most_outcomes,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if players > 1 else None,
            max_game_length=setup.max_game_length,
        )
        super().__init__(_game_type(registration, _utility(players)), info, hook.shown(values))

    @property
    def layer(self) -> Game[Any, Any, Any]:
        """The game object on the layer."""
        return self.registration.game

    @property
    def config(self) -> Any:
        """The configuration played."""
        return self.shared.setup.config

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the game as its registration and its string, to load it anywhere."""
        return (_reload, (self.registration, str(self)))

    def new_initial_state(self, text: str | None = None) -> LayerState:
        """Return the opening state, or the state ``text`` writes as ``str(state)`` does.

        Starting from a text needs a hook that tells a state's configuration;
        text that is not a state raises the game's ``NotationError``, a state
        of another configuration (or one the hook cannot place) ``ValueError``.
        """
        if text is None:
            state: LayerState = self._state_class(self)
            return state
        return _start(self, text)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """Return the observer OpenSpiel asks for.

        Without a type, or for a public observation without perfect recall:
        the observation string and the hook's tensor.  For perfect recall
        (the information state): the history.  For private information only:
        nothing, since the game has none.
        """
        if params:
            raise ValueError(f"the observation takes no parameters, not {params!r}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self.shared)
        return _RecallObserver(public=iig_obs_type.public_info)


class BotAdapter(pyspiel.Bot):  # type: ignore[misc]
    """An OpenSpiel bot that plays a game's built-in player (a :class:`~dicekit.protocol.Bot`)."""

    def __init__(self, bot: Bot[Any, Any], seed: int | None = None) -> None:
        super().__init__()
        self.bot = bot
        self.rng = random.Random(seed)

    def step(self, state: LayerState) -> int:
        """Return the bot's decision in ``state``, by its number."""
        chosen = self.bot.act(state.engine_state, self.rng)
        return state._shared.number_of[chosen]

    def restart_at(self, state: LayerState) -> None:
        """Nothing to forget: the bot keeps no memory of the game."""

    def inform_action(self, state: LayerState, player_id: int, action: int) -> None:
        """Nothing to learn from others' actions."""
