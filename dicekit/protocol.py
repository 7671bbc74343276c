"""The game protocol: what a game provides so that the layer can run it.

The model is OpenSpiel's game interface: a game has a configuration, an
initial state, and states that say whose decision it is or that chance acts
(with the chance outcomes and their exact probabilities), list their legal
actions and apply one.  Chance is an ordinary action, so a game replays
exactly from its actions.  On top, each game has a one-line notation and JSON
forms with exact round trips, an invariant check, and a drawing.  A game may
also name the event of each transition (:class:`Stepping`), where the next
state alone does not show what happened.

Usually a state either waits for a player's decision or for chance.  A game
may also let the player decide to hand over to chance: in Can't Stop, a
player who has played a roll may stop (a legal action) or roll again (chance
acts).  In such a state both :meth:`Game.legal_actions` and
:meth:`Game.chance_outcomes` are non-empty, and a player who chooses chance
is answered by one of its outcomes; a :class:`Bot` says so by returning
:data:`CHANCE`.

States and actions are the game's own immutable, hashable values; the layer
handles them only through the game object.  Every refusal raises an error of
:mod:`dicekit.errors` naming the spec rule.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, runtime_checkable

__all__ = [
    "CHANCE",
    "JSON",
    "ActionSpace",
    "ActionT",
    "Bot",
    "Chance",
    "ConfigT",
    "Game",
    "GameInfo",
    "StateT",
    "Step",
    "Stepping",
    "Tagging",
    "TextPicture",
]

#: A value as :func:`json.loads` returns it.
JSON = Any

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
ConfigT = TypeVar("ConfigT")
_StateIn = TypeVar("_StateIn", contravariant=True)
_ActionOut = TypeVar("_ActionOut", covariant=True)
_ActionIn = TypeVar("_ActionIn", contravariant=True)
_ConfigIn = TypeVar("_ConfigIn", contravariant=True)


class Chance(enum.Enum):
    """A player's decision to let chance act, where the game allows it beside legal actions."""

    #: The one value: see :data:`CHANCE`.
    ACT = "chance"


#: What a :class:`Bot` returns to let chance act (Can't Stop's roll again).
CHANCE = Chance.ACT


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the layer shows of a game: its names, its player counts and where its spec lives."""

    #: The name commands and the port protocol use (``--game NAME``, ``hello``): lower case.
    name: str
    #: The title shown to readers.
    title: str
    #: The fewest and most players a configuration may have.
    min_players: int
    max_players: int
    #: The directory of the game's spec: its rules chapters, notation and examples.
    spec_dir: Path


class Game(Protocol, Generic[StateT, ActionT, ConfigT]):
    """What a game gives the layer.

    Every method is a pure function of its arguments.  Methods that read
    input (``config_from_json``, ``parse_*``, ``*_from_json``) raise
    :class:`~dicekit.errors.NotationError` or
    :class:`~dicekit.errors.InvalidConfig`; ``apply`` raises
    :class:`~dicekit.errors.IllegalAction`; ``check`` raises
    :class:`~dicekit.errors.InvalidState`.  Each names the rule.
    """

    info: GameInfo

    # -- configuration ---------------------------------------------------------------
    def config(self, players: int) -> ConfigT:
        """Return the standard configuration for ``players`` players."""
        ...

    def config_from_json(self, data: JSON) -> ConfigT:
        """Return the configuration a JSON object describes; omitted fields take their default."""
        ...

    def config_to_json(self, config: ConfigT) -> JSON:
        """Return the JSON object of ``config``: only the fields that differ from the default."""
        ...

    # -- states and turns ------------------------------------------------------------
    def new_game(self, config: ConfigT, first_player: int = 0) -> StateT:
        """Return the opening state."""
        ...

    def player(self, state: StateT) -> int:
        """Return whose turn it is (during chance, the player the dice are thrown for)."""
        ...

    def is_over(self, state: StateT) -> bool:
        """Return whether the game has ended."""
        ...

    def winner(self, state: StateT) -> int | None:
        """Return the winner of a finished game, ``None`` while it goes on."""
        ...

    def chance_outcomes(self, state: StateT) -> Sequence[tuple[ActionT, Fraction]]:
        """Return chance's actions with their exact probabilities, or nothing if chance cannot act.

        The probabilities are exact and sum to 1.  Non-empty together with
        :meth:`legal_actions` where the player may choose to let chance act.
        """
        ...

    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        """Return the actions open to the player now, in the game's canonical order.

        Empty when only chance can act, and when the game is over.
        """
        ...

    def apply(self, state: StateT, action: ActionT) -> StateT:
        """Return the state after ``action``; an illegal one raises ``IllegalAction``."""
        ...

    def check(self, state: StateT) -> None:
        """Raise ``InvalidState`` naming the rule if ``state`` breaks an invariant of the spec."""
        ...

    # -- notation and JSON -----------------------------------------------------------
    def format_state(self, state: StateT) -> str:
        """Return the one-line canonical notation of ``state``."""
        ...

    def parse_state(self, text: str) -> StateT:
        """Return the state that ``text`` denotes (the inverse of ``format_state``)."""
        ...

    def format_action(self, action: ActionT) -> str:
        """Return the notation of ``action``."""
        ...

    def parse_action(self, text: str) -> ActionT:
        """Return the action that ``text`` denotes (the inverse of ``format_action``)."""
        ...

    def state_to_json(self, state: StateT) -> JSON:
        """Return the JSON form of ``state``."""
        ...

    def state_from_json(self, data: JSON) -> StateT:
        """Return the state of a JSON form (the inverse of ``state_to_json``)."""
        ...

    def action_to_json(self, action: ActionT) -> JSON:
        """Return the JSON form of ``action``."""
        ...

    def action_from_json(self, data: JSON) -> ActionT:
        """Return the action of a JSON form (the inverse of ``action_to_json``)."""
        ...

    # -- pictures and players --------------------------------------------------------
    def state_svg(self, state: StateT) -> str:
        """Return a drawing of ``state`` as a standalone SVG document."""
        ...

    def bots(self) -> Mapping[str, Callable[[], Bot[StateT, ActionT]]]:
        """Return the built-in players by name (at least ``random``)."""
        ...


class Step(NamedTuple, Generic[StateT]):
    """What :meth:`Stepping.step` returns: the state after an action and the event it caused.

    >>> Step("after", "moved")
    Step(state='after', event='moved')
    """

    #: The state after the action.
    state: StateT
    #: What the action did, one of the game's :attr:`Stepping.events`.
    event: str


@runtime_checkable
class Stepping(Protocol, Generic[StateT, _ActionIn]):
    """What a game may add to :class:`Game`: the event each transition causes.

    A game whose transitions differ in ways the next state alone does not
    show (a roll that passes the turn, a move that wins) names them as
    events.  The layer then checks events wherever it applies actions: the
    ``event`` and ``events`` keys of spec examples, the conformance vectors
    and game records.  A game without events leaves this out.
    """

    #: The names of the events, in the order the game's spec lists them.
    events: tuple[str, ...]

    def step(self, state: StateT, action: _ActionIn) -> Step[StateT]:
        """Return the state after ``action`` and its event; an illegal one raises ``IllegalAction``.

        ``step(state, action).state`` equals ``apply(state, action)``.
        """
        ...


@runtime_checkable
class Tagging(Protocol, Generic[_StateIn, _ActionIn]):
    """What a game may add to :class:`Game`: the rules that decide each answer, for the diagnosis.

    The conformance suite tags each case with the ids of the rules that
    decide its expected answer, and a port that fails cases is told which
    rules its failures have in common.  The tags come from the engine's own
    decisions (the same code that decides the answer records the rules it
    applied), never from a second reading of the rules.
    """

    def action_rules(self, state: _StateIn, action: _ActionIn) -> tuple[str, ...]:
        """Return the ids of the rules that decide what ``action`` does in ``state``.

        For an illegal action, the rule that refuses it comes first.
        """
        ...

    def choice_rules(self, state: _StateIn) -> tuple[str, ...]:
        """Return the ids of the rules that decide which actions are legal in ``state``."""
        ...


@runtime_checkable
class TextPicture(Protocol, Generic[_StateIn]):
    """What a game may add to :class:`Game`: a picture of a state for a terminal."""

    def state_text(self, state: _StateIn) -> str:
        """Return a picture of ``state`` in a few lines of plain text, for a terminal."""
        ...


class Bot(Protocol, Generic[_StateIn, _ActionOut]):
    """A built-in player: picks one of the legal actions, drawing only from ``rng``."""

    #: A short name for tables and prompts.
    name: str

    def act(self, state: _StateIn, rng: random.Random) -> _ActionOut | Chance:
        """Return one of the legal actions of ``state``, or :data:`CHANCE` to let chance act.

        :data:`CHANCE` is a choice only where chance may act beside the legal
        actions (see the module docstring).
        """
        ...


@runtime_checkable
class ActionSpace(Protocol[_ConfigIn, _ActionOut]):
    """What a game may add to :class:`Game`: every action a player may take, in a fixed order.

    The research adapters number a player's actions once and for all (an
    OpenSpiel game has a fixed count of distinct actions,
    :mod:`dicekit.openspiel`); a game gives the numbering here.
    """

    def action_space(self, config: _ConfigIn) -> Sequence[_ActionOut]:
        """Return every action a player may take under ``config``, each once, in a fixed order.

        Each legal action of every state of the configuration is in it;
        chance's actions are not.
        """
        ...
