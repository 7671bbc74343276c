"""Can't Stop as an OpenSpiel game: ``python_cant_stop`` (extra ``openspiel``).

Importing this module registers the game with OpenSpiel through the layer's
adapter (:func:`dicekit.openspiel.register`, which serves every game of the
layer), so that ``pyspiel.load_game("python_cant_stop")`` loads it.  The
engine plays every rule: the adapter asks the game object
(:data:`cantstop.layer.GAME`) for the decisions and the next state and
writes no rule of its own.  What is Can't Stop's own is the adapter's hook
here: the parameters below and the observation tensor.

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
again, 2-12 a move playing one sum, 13-78 a move playing two sums (the
game object's :meth:`~cantstop.layer.CantStop.action_space`).
``action_to_string`` writes them in the action notation (``7+10``, ``5``,
``stop``, and ``roll`` for rolling again) and the chance outcomes as rolls
(``r3455``).  ``str(state)`` is the state in the state notation
(:func:`cantstop.format_state`); after a decision to roll again, while the
dice are awaited, the word ``roll`` follows it, and once the turn limit has
ended the game, the word ``limit``; in solitaire with the ``turns`` reward,
whose return is minus the turns taken, ``turns N`` ends it (the turns
ended so far), so that states with different returns have different texts.  An action that
is not legal raises an error that names the rule and the state: the engine's
:class:`~cantstop.IllegalAction` for a move, stop or roll the rules forbid,
:class:`ValueError` for a number out of range.

**A position to start from.**  ``game.new_initial_state(text)`` starts from
the state that ``text`` writes in the state notation (the game's own
configuration; a trailing ``roll`` or ``turns N`` as in ``str(state)``), with
the turn limit counted from there.

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
and ``game.deserialize_state`` restores them; games and states also pickle,
into other processes too.  ``state.clone()`` shares the engine state, which
is immutable, and copies the rest.

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

from collections.abc import Mapping
from typing import Any

from cantstop.board import STANDARD_HEIGHTS
from cantstop.config import Rules, Variant
from cantstop.dice import roll_outcomes, sorted_dice
from cantstop.envs import MAX_TURNS, max_moves_per_turn, observation, observation_fields
from cantstop.layer import GAME
from cantstop.layer import PlayerBot as LayerBot
from cantstop.players import Player
from cantstop.state import State
from dicekit.openspiel import BotAdapter, LayerGame, LayerState, Setup, register
from dicekit.protocol import Game
from dicekit.rewards import check_max_turns, check_solitaire_reward

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

_OUTCOME_OF: dict[tuple[int, int, int, int], int] = {
    roll.dice: i for i, (roll, _) in enumerate(roll_outcomes())
}
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


class _Observation:
    """The observation tensor: :func:`cantstop.envs.observation`, seen by one player."""

    def fields(self, config: Rules) -> Mapping[str, slice]:
        return observation_fields(config.players)

    def observe(self, state: State, player: int, awaiting: bool) -> Any:
        return observation(state, player, awaiting_dice=awaiting)


class _Hook:
    """Can't Stop's own part of the adapter: the parameters above and the observation."""

    defaults = _DEFAULTS
    chance_word = "roll"
    observation = _Observation()

    def setup(self, game: Game[Any, Any, Any], values: Mapping[str, Any]) -> Setup:
        rules = rules_of(values)
        max_turns = check_max_turns(values["max_turns"])
        reward = check_solitaire_reward(values["solitaire_reward"])
        return Setup(rules, max_turns, True, max_game_length(rules, max_turns), reward)

    def shown(self, values: Mapping[str, Any]) -> dict[str, Any]:
        heights = values["heights"]
        return {**values, "heights": ";".join(_cells(heights)) if heights else ""}

    def config_of(self, state: State) -> Rules:
        return state.rules


class CantStopGame(LayerGame):
    """The OpenSpiel game: load it with ``pyspiel.load_game("python_cant_stop", params)``."""

    @property
    def rules(self) -> Rules:
        """The rules played."""
        rules: Rules = self.config
        return rules

    @property
    def max_turns(self) -> int:
        """The turn limit."""
        return self.shared.setup.limit

    @property
    def solitaire_reward(self) -> str:
        """``"turns"`` or ``"win"``: what a solitaire game returns."""
        return self.shared.setup.solitaire_reward


register(GAME, GAME_NAME, "Python Can't Stop", _Hook(), CantStopGame)

#: A state of the OpenSpiel game: the layer's, whose ``engine_state`` is a :class:`~cantstop.State`.
CantStopState = LayerState


class PlayerBot(BotAdapter):
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
        super().__init__(LayerBot(player), seed)
        #: The player.
        self.player = player
