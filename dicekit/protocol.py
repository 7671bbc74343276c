"""The game protocol: what a game provides so that the layer can run it.

A game gives the layer three protocols, each a :class:`typing.Protocol`:

* :class:`Core`, what a game-playing framework asks of a game (the model is
  OpenSpiel's game interface): a configuration and its player count, an
  initial state, and states that say whose decision it is or that chance
  acts (with the chance outcomes and their exact probabilities), list their
  legal actions, apply one and, once the game is over, give each player's
  return.  Chance is an ordinary action, so a game replays exactly from its
  actions.
* :class:`Forms`, the game's written forms: a one-line notation and JSON
  forms of configurations, states and actions, each with an exact round trip.
* :class:`Game`, the two together with an invariant check, a drawing and
  the built-in players: what every service of the layer takes.

A game may provide more, and says so in :attr:`GameInfo.capabilities`
(:class:`Capability`): the layer reads that data, and never probes a game
for methods.  Each capability brings the methods of its protocol class
(:class:`Stepping`, :class:`Tagging`, :class:`TextPicture`, :class:`Legend`,
:class:`ActionSpace`, :class:`ChanceByChoice`, and the protocols of
:mod:`dicekit.spec`, :mod:`dicekit.conformance.serve`, :mod:`dicekit.record`,
:mod:`dicekit.conformance.choice` and :mod:`dicekit.commandline`), and
:func:`capable` returns the game typed as that protocol.

**Node kinds.**  In the layer a state is one of three kinds: a player's
decision, chance's turn, or the end of the game (:mod:`dicekit.nodes`).  A
game where the player may decide to let chance act (to roll again, say, as
well as to stop) declares :attr:`Capability.CHANCE_BY_CHOICE`: in such a
state the player decides between the legal actions and :data:`CHANCE`, and
choosing :data:`CHANCE` leads to a chance node, whose outcomes are
``chance_outcomes`` of the same state.  Every loop of the layer reads node
kinds from :mod:`dicekit.nodes`, which alone knows this.

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
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    Literal,
    NamedTuple,
    Protocol,
    TypeVar,
    overload,
)

if TYPE_CHECKING:
    from dicekit.commandline import CommandLine
    from dicekit.conformance.choice import OwnSuite
    from dicekit.conformance.families import ChanceForms
    from dicekit.conformance.serve import ServesOps
    from dicekit.conformance.textfamilies import BrokenSetups
    from dicekit.record import OwnRecords
    from dicekit.spec import HasExampleKeys

__all__ = [
    "CHANCE",
    "JSON",
    "METHOD_CAPABILITIES",
    "ActionSpace",
    "ActionT",
    "Bot",
    "Capability",
    "Chance",
    "ChanceByChoice",
    "ConfigT",
    "Core",
    "Forms",
    "Game",
    "GameInfo",
    "Legend",
    "OutcomeKind",
    "Outcomes",
    "StateT",
    "Step",
    "Stepping",
    "Tagging",
    "TextPicture",
    "capable",
    "undeclared",
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
    """A player's decision to let chance act, where the game leaves that to the player."""

    #: The one value: see :data:`CHANCE`.
    ACT = "chance"


#: The decision that lets chance act: what a :class:`Bot` returns to roll again.
CHANCE = Chance.ACT


class Capability(enum.Enum):
    """What a game may provide beyond :class:`Game`, declared in :attr:`GameInfo.capabilities`.

    Each value names the protocol the capability brings and the members a
    game that declares it must have (:func:`undeclared` compares the two).
    """

    #: The event of each transition: :class:`Stepping`.
    STEPPING = ("Stepping", ("events", "step"))
    #: The rules that decide each answer: :class:`Tagging`.
    TAGGING = ("Tagging", ("action_rules", "choice_rules"))
    #: A picture of a state for a terminal: :class:`TextPicture`.
    TEXT_PICTURE = ("TextPicture", ("state_text",))
    #: A key to the marks of the text picture, printed under it: :class:`Legend`.
    LEGEND = ("Legend", ("legend",))
    #: Every action numbered once: :class:`ActionSpace`.
    ACTION_SPACE = ("ActionSpace", ("action_space",))
    #: States where the player may decide to let chance act: :class:`ChanceByChoice`.
    CHANCE_BY_CHOICE = ("ChanceByChoice", ("chance_by_choice",))
    #: Spec example keys of the game's own: :class:`dicekit.spec.HasExampleKeys`.
    EXAMPLE_KEYS = ("HasExampleKeys", ("example_keys",))
    #: The spec's examples list legal actions in the order of ``legal_actions`` (data alone).
    ORDERS_MOVES = ("OrdersMoves", ())
    #: Port ops of the game's own: :class:`dicekit.conformance.serve.ServesOps`.
    SERVES_OPS = ("ServesOps", ("port_ops", "port_supports"))
    #: A record format of the game's own: :class:`dicekit.record.OwnRecords`.
    OWN_RECORDS = ("OwnRecords", ("record_format",))
    #: A conformance suite of the game's own: :class:`dicekit.conformance.choice.OwnSuite`.
    OWN_SUITE = ("OwnSuite", ("conformance",))
    #: Setups each made to break one rule of the game's own data (a board given as data):
    #: :class:`dicekit.conformance.textfamilies.BrokenSetups`.
    BROKEN_SETUPS = ("BrokenSetups", ("broken_setups",))
    #: Chance's actions in the forms a port may be sent beside those of ``chance_outcomes``
    #: (dice in the order they fell): :class:`dicekit.conformance.families.ChanceForms`.
    CHANCE_FORMS = ("ChanceForms", ("chance_forms",))
    #: The kinds of outcome an action may have, for the odds of a throw: :class:`Outcomes`.
    OUTCOMES = ("Outcomes", ("outcome_kinds", "outcomes"))
    #: Command-line options and commands of the game's own:
    #: :class:`dicekit.commandline.CommandLine`.
    COMMAND_LINE = ("CommandLine", ("command_line",))

    @property
    def protocol(self) -> str:
        """The name of the protocol class the capability brings."""
        name: str = self.value[0]
        return name

    @property
    def members(self) -> tuple[str, ...]:
        """The attributes and methods a game that declares the capability has."""
        members: tuple[str, ...] = self.value[1]
        return members


#: What every game written by the method provides (a game declares these and its own more):
#: events for its transitions, rule tags for its answers, a text picture, its actions
#: numbered, and spec example keys of its own.
METHOD_CAPABILITIES = frozenset(
    {
        Capability.STEPPING,
        Capability.TAGGING,
        Capability.TEXT_PICTURE,
        Capability.ACTION_SPACE,
        Capability.EXAMPLE_KEYS,
    }
)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the layer knows of a game as data: its names, player counts, spec and capabilities.

    >>> info = GameInfo("coin", "Coin", 1, 2, Path("spec"), frozenset({Capability.STEPPING}))
    >>> info.provides(Capability.STEPPING), info.provides(Capability.TAGGING)
    (True, False)
    """

    #: The name commands and the port protocol use (``--game NAME``, ``hello``): lower case.
    name: str
    #: The title shown to readers.
    title: str
    #: The fewest and most players a configuration may have.
    min_players: int
    max_players: int
    #: The directory of the game's spec: its rules chapters, notation and examples.
    spec_dir: Path
    #: What the game provides beyond :class:`Game`.
    capabilities: frozenset[Capability] = frozenset()

    def provides(self, capability: Capability) -> bool:
        """Return whether the game declares ``capability``."""
        return capability in self.capabilities


class Core(Protocol, Generic[StateT, ActionT, ConfigT]):
    """What a game-playing framework asks of a game: configurations, states, chance, returns.

    Every method is a pure function of its arguments.  ``apply`` raises
    :class:`~dicekit.errors.IllegalAction` naming the rule.
    """

    info: GameInfo

    def config(self, players: int) -> ConfigT:
        """Return the standard configuration for ``players`` players."""
        ...

    def player_count(self, config: ConfigT) -> int:
        """Return the number of players of ``config``."""
        ...

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

    def returns(self, state: StateT) -> Sequence[float]:
        """Return each player's return: 0 for everyone while the game goes on.

        The returns are the game's: OpenSpiel asks a game for them, and a
        game whose rules score (points, a shared loss) says so here.  The
        games of this distribution name a winner and nothing more, so each
        gives the layer's convention for a winner
        (:func:`dicekit.rewards.winner_returns`: zero-sum, the winner 1; alone,
        1 for the win), written once so that every adapter pays alike.  What
        depends on more than the state (a turn limit, a reward for speed)
        is the adapter's, since the state does not hold it.
        """
        ...

    def chance_outcomes(self, state: StateT) -> Sequence[tuple[ActionT, Fraction]]:
        """Return chance's actions with their exact probabilities, or nothing if chance cannot act.

        The probabilities are exact and sum to 1.  For a game with
        :attr:`Capability.CHANCE_BY_CHOICE`, in a state where the player may
        let chance act, these are the outcomes once the player does.
        """
        ...

    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        """Return the actions open to the player now, in the game's canonical order.

        Empty when only chance can act, and when the game is over.  Letting
        chance act by choice (:data:`CHANCE`) is not among them.
        """
        ...

    def apply(self, state: StateT, action: ActionT) -> StateT:
        """Return the state after ``action``; an illegal one raises ``IllegalAction``."""
        ...


class Forms(Protocol, Generic[StateT, ActionT, ConfigT]):
    """A game's written forms: notation and JSON, each read back exactly.

    The readers (``config_from_json``, ``parse_*``, ``*_from_json``) raise
    :class:`~dicekit.errors.NotationError` or
    :class:`~dicekit.errors.InvalidConfig`, each naming the rule.
    """

    def config_from_json(self, data: JSON) -> ConfigT:
        """Return the configuration a JSON object describes; omitted fields take their default."""
        ...

    def config_to_json(self, config: ConfigT) -> JSON:
        """Return the JSON object of ``config``: only the fields that differ from the default."""
        ...

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


class Game(Core[StateT, ActionT, ConfigT], Forms[StateT, ActionT, ConfigT], Protocol):
    """What every service of the layer takes: :class:`Core` and :class:`Forms`, and three more.

    ``check`` raises :class:`~dicekit.errors.InvalidState` naming the rule.
    """

    def check(self, state: StateT) -> None:
        """Raise ``InvalidState`` naming the rule if ``state`` breaks an invariant of the spec."""
        ...

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


class Stepping(Protocol, Generic[StateT, _ActionIn]):
    """:attr:`Capability.STEPPING`: the event each transition causes.

    A game whose transitions differ in ways the next state alone does not
    show (a roll that passes the turn, a move that wins) names them as
    events.  The layer then checks events wherever it applies actions: the
    ``event`` and ``events`` keys of spec examples, the conformance vectors
    and game records.
    """

    #: The names of the events, in the order the game's spec lists them.
    events: tuple[str, ...]

    def step(self, state: StateT, action: _ActionIn) -> Step[StateT]:
        """Return the state after ``action`` and its event; an illegal one raises ``IllegalAction``.

        ``step(state, action).state`` equals ``apply(state, action)``.
        """
        ...


class Tagging(Protocol, Generic[_StateIn, _ActionIn]):
    """:attr:`Capability.TAGGING`: the rules that decide each answer, for the diagnosis.

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


class TextPicture(Protocol, Generic[_StateIn]):
    """:attr:`Capability.TEXT_PICTURE`: a picture of a state for a terminal."""

    def state_text(self, state: _StateIn) -> str:
        """Return a picture of ``state`` in a few lines of plain text, for a terminal."""
        ...


class Legend(Protocol, Generic[_StateIn]):
    """:attr:`Capability.LEGEND`: a key to the marks of the text picture (:class:`TextPicture`).

    The terminal game (:mod:`dicekit.play`) prints it under every picture it
    draws.  A game whose picture carries its key already declares nothing.
    """

    def legend(self, state: _StateIn) -> str:
        """Return what each mark of ``state``'s picture stands for, in a line or two."""
        ...


class ChanceByChoice(Protocol, Generic[_StateIn]):
    """:attr:`Capability.CHANCE_BY_CHOICE`: states where the player decides whether chance acts.

    In such a state the player's decisions are the legal actions and
    :data:`CHANCE`; the legal actions may be empty (a roll the rules force
    is still the player's decision to roll).  Chance's outcomes there are
    what it does once chosen.
    """

    def chance_by_choice(self, state: _StateIn) -> bool:
        """Return whether, in ``state``, chance acts only if the player decides so."""
        ...


class OutcomeKind(NamedTuple):
    """A kind of outcome a game names (:class:`Outcomes`): a forfeit, a capture, a win, ...

    >>> OutcomeKind("win", "the player wins the game", "R1.1").rule
    'R1.1'
    """

    #: A short name, one word, lower case.
    name: str
    #: What an action of this kind does, as a phrase for a reader.
    text: str
    #: The id of the rule that says so.
    rule: str


class Outcomes(Protocol, Generic[_StateIn, _ActionIn]):
    """:attr:`Capability.OUTCOMES`: the kinds of outcome an action may have, by name.

    The events of :class:`Stepping` say what a transition did as the game's
    flow sees it; some outcomes a player weighs (a capture, a counter over
    the line) are not events of their own.  A game names them here, each
    read from what the engine decided (the event, or the state after the
    action), and the layer's odds (:mod:`dicekit.odds`) count them over the
    throws.
    """

    #: The kinds, in the order the game lists them.
    outcome_kinds: tuple[OutcomeKind, ...]

    def outcomes(self, state: _StateIn, action: _ActionIn) -> frozenset[str]:
        """Return the names of the kinds that the legal ``action`` in ``state`` has.

        A throw may have kinds too (a throw that forfeits the turn).
        """
        ...


class Bot(Protocol, Generic[_StateIn, _ActionOut]):
    """A built-in player: picks one of the legal actions, drawing only from ``rng``."""

    #: A short name for tables and prompts.
    name: str

    def act(self, state: _StateIn, rng: random.Random) -> _ActionOut | Chance:
        """Return one of the player's decisions in ``state``: a legal action, or :data:`CHANCE`.

        :data:`CHANCE` is a decision only where the game leaves it to the
        player (:class:`ChanceByChoice`).
        """
        ...


class ActionSpace(Protocol[_ConfigIn, _ActionOut]):
    """:attr:`Capability.ACTION_SPACE`: every action a player may take, in a fixed order.

    The research adapters number a player's actions once and for all (an
    OpenSpiel game has a fixed count of distinct actions,
    :mod:`dicekit.openspiel`); a game gives the numbering here.
    """

    def action_space(self, config: _ConfigIn) -> Sequence[_ActionOut | Chance]:
        """Return every decision a player may take under ``config``, each once, in a fixed order.

        Each legal action of every state of the configuration is in it;
        chance's actions are not.  :data:`CHANCE` may be, where letting chance
        act has a number of its own; otherwise it is numbered after the rest.
        """
        ...


@overload
def capable(
    game: object, capability: Literal[Capability.STEPPING]
) -> Stepping[Any, Any] | None: ...
@overload
def capable(game: object, capability: Literal[Capability.TAGGING]) -> Tagging[Any, Any] | None: ...
@overload
def capable(
    game: object, capability: Literal[Capability.TEXT_PICTURE]
) -> TextPicture[Any] | None: ...
@overload
def capable(game: object, capability: Literal[Capability.LEGEND]) -> Legend[Any] | None: ...
@overload
def capable(
    game: object, capability: Literal[Capability.ACTION_SPACE]
) -> ActionSpace[Any, Any] | None: ...
@overload
def capable(
    game: object, capability: Literal[Capability.CHANCE_BY_CHOICE]
) -> ChanceByChoice[Any] | None: ...
@overload
def capable(
    game: object, capability: Literal[Capability.EXAMPLE_KEYS]
) -> HasExampleKeys | None: ...
@overload
def capable(game: object, capability: Literal[Capability.SERVES_OPS]) -> ServesOps | None: ...
@overload
def capable(game: object, capability: Literal[Capability.OWN_RECORDS]) -> OwnRecords | None: ...
@overload
def capable(game: object, capability: Literal[Capability.OWN_SUITE]) -> OwnSuite | None: ...
@overload
def capable(game: object, capability: Literal[Capability.BROKEN_SETUPS]) -> BrokenSetups | None: ...
@overload
def capable(game: object, capability: Literal[Capability.CHANCE_FORMS]) -> ChanceForms | None: ...
@overload
def capable(
    game: object, capability: Literal[Capability.OUTCOMES]
) -> Outcomes[Any, Any] | None: ...
@overload
def capable(game: object, capability: Literal[Capability.COMMAND_LINE]) -> CommandLine | None: ...
@overload
def capable(game: object, capability: Capability) -> object | None: ...
def capable(game: object, capability: Capability) -> object | None:
    """Return ``game``, typed as the protocol of ``capability``, if it declares it; else ``None``.

    The answer reads :attr:`GameInfo.capabilities` alone: the layer never
    looks for methods.

    >>> class Plain:
    ...     info = GameInfo("plain", "Plain", 2, 2, Path("spec"))
    >>> capable(Plain(), Capability.STEPPING) is None
    True
    """
    info: GameInfo = game.info  # type: ignore[attr-defined]
    return game if capability in info.capabilities else None


def undeclared(game: object) -> tuple[list[str], list[str]]:
    """Return what ``game`` declares but lacks, and what it has but does not declare.

    Each list names capabilities (``"TAGGING"``); a capability whose
    members the game has, all of them, is provided.  A capability of data
    alone (:attr:`Capability.ORDERS_MOVES`) is never said to be undeclared.
    The layer's tests hold every registered game to two empty lists.
    """
    info: GameInfo = game.info  # type: ignore[attr-defined]
    lacking, unsaid = [], []
    for capability in Capability:
        members = capability.members
        has = bool(members) and all(hasattr(game, member) for member in members)
        if capability in info.capabilities and members and not has:
            lacking.append(capability.name)
        elif has and capability not in info.capabilities:
            unsaid.append(capability.name)
    return lacking, unsaid
