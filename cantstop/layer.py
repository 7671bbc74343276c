"""Can't Stop as the game-neutral layer sees it: :data:`GAME`, a :class:`dicekit.protocol.Game`.

Every method hands over to the engine, the notation, the JSON forms, the
drawing or the players; nothing here decides a rule.  Two things are
particular to Can't Stop:

- After a move the player may stop or roll again (R3.4).  Rolling again is
  the player's decision to let chance act
  (:attr:`~dicekit.protocol.Capability.CHANCE_BY_CHOICE`), so in
  :attr:`~cantstop.Phase.DECIDE` the player's decisions are the stop (unless
  Variant B forbids it, R14.2) and :data:`dicekit.protocol.CHANCE`, and a
  bot that rolls returns :data:`dicekit.protocol.CHANCE`
  (:mod:`dicekit.nodes`).
- Every transition reports its event (:class:`dicekit.protocol.Stepping`),
  since a bust leaves no mark on the board, and the spec's examples carry one
  key of the game's own, ``perft`` (:class:`dicekit.spec.HasExampleKeys`).
- Its conformance suite is its own (:class:`dicekit.conformance.choice.OwnSuite`,
  :mod:`cantstop.conformance.choice`): versions, generator and ports older
  than the layer's generic suite.
- Its records have a format of their own, older than the layer's
  (:class:`dicekit.record.OwnRecords`, :mod:`cantstop.record`); the layer
  reads and writes them, and reads a header that names no game in it.
- It does most commands of the command line its own way, with options of
  its own (:class:`dicekit.commandline.CommandLine`, :mod:`cantstop.commandline`).

>>> from dicekit.protocol import Capability
>>> GAME.info.provides(Capability.STEPPING), GAME.info.provides(Capability.TEXT_PICTURE)
(True, True)
>>> state = GAME.apply(GAME.new_game(GAME.config(2)), GAME.parse_action('r3455'))
>>> [GAME.format_action(a) for a in GAME.legal_actions(state)]
['7+10', '8+9']
>>> from dicekit.nodes import decisions
>>> decide = GAME.apply(state, GAME.parse_action('7+10'))
>>> decisions(GAME, decide), len(GAME.chance_outcomes(decide))
((Stop(), <Chance.ACT: 'chance'>), 126)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from cantstop import jsonform, notation
from cantstop.actions import Action, Move, Stop
from cantstop.board import COLUMNS
from cantstop.config import MAX_PLAYERS, MIN_PLAYERS, Rules, Variant
from cantstop.dice import roll_outcomes
from cantstop.errors import IllegalAction
from cantstop.players import PLAYERS, Decision, Player, decide
from cantstop.spec import PERFT, spec_dir
from cantstop.state import Event, Phase, State, new_game
from dicekit.forms import ModuleForms
from dicekit.protocol import CHANCE, METHOD_CAPABILITIES, Bot, Capability, Chance, GameInfo, Step
from dicekit.seated import SeatedGame
from dicekit.spec import ExampleKey

if TYPE_CHECKING:
    from dicekit.commandline import CommandHooks
    from dicekit.conformance.choice import GameConformance
    from dicekit.record import RecordFormat

__all__ = ["GAME", "CantStop", "PlayerBot"]

_STOP = Stop()
_OUTCOMES: tuple[tuple[Action, Fraction], ...] = tuple(roll_outcomes())


class PlayerBot:
    """A Can't Stop :class:`~cantstop.players.Player` as a layer :class:`~dicekit.protocol.Bot`.

    It plays the player's move in CHOOSE; in DECIDE it stops where the player
    decides to (:func:`cantstop.players.decide`: asked first, and a stop the
    rules forbid is a roll) and otherwise lets chance roll the dice.

    >>> from cantstop.players import Rule28Player
    >>> bot = PlayerBot(Rule28Player())
    >>> bot.name, bot.act(new_game(), random.Random(1))
    ('rule28', <Chance.ACT: 'chance'>)
    """

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name

    def act(self, state: State, rng: random.Random) -> Action | Chance:
        """Return the player's move, a stop, or :data:`~dicekit.protocol.CHANCE` to roll."""
        if state.phase is Phase.CHOOSE:
            move: Move = self.player.choose(state, rng)
            return move
        if state.phase is Phase.DECIDE and decide(self.player, state, rng) is Decision.STOP:
            return _STOP
        return CHANCE


class CantStop(ModuleForms[State, Action], SeatedGame):
    """Can't Stop on the game-neutral layer; :data:`GAME` is its one instance."""

    info = GameInfo(
        name="cantstop",
        title="Can't Stop",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        spec_dir=spec_dir(),
        capabilities=METHOD_CAPABILITIES
        | {
            Capability.CHANCE_BY_CHOICE,
            Capability.OWN_RECORDS,
            Capability.OWN_SUITE,
            Capability.COMMAND_LINE,
        },
    )
    #: The events of :meth:`step`, as :class:`~cantstop.Event` names them.
    events = tuple(event.value for event in Event)

    # -- the core: configuration, states, chance, returns ----------------------------
    new_game = staticmethod(new_game)
    apply = staticmethod(State.apply)
    over = Phase.OVER

    def config(self, players: int) -> Rules:
        """Return the standard rules for ``players`` players (R15.1)."""
        return Rules(players=players)

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, Fraction]]:
        """Return the 126 sorted rolls and their chances where the player may roll, else nothing."""
        return _OUTCOMES if state.decisions().may_roll else ()

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Return the legal moves (CHOOSE), or the stop where the rules allow it (DECIDE)."""
        decisions = state.decisions()
        if decisions.may_stop:
            return (_STOP,)
        return decisions.moves

    def chance_by_choice(self, state: State) -> bool:
        """Return whether the player decides whether the dice are rolled: after a move (R3.4).

        The decision is the player's even where Variant B forbids the stop
        (R14.2) and rolling again is the only choice.
        """
        return state.phase is Phase.DECIDE

    def step(self, state: State, action: Action) -> Step[State]:
        """Return the state after ``action`` and its event's name."""
        after, event = state.step(action)
        return Step(after, event.value)

    def check(self, state: State) -> None:
        """Raise ``InvalidState`` naming the rule if ``state`` breaks an invariant (R16)."""
        State(state.rules, state.player, state.phase, state.dice, state.markers, state.squares)

    # -- rule tags and the numbered actions ---------------------------------------------
    def action_rules(self, state: State, action: Action) -> tuple[str, ...]:
        """Return the rules that decide what ``action`` does; for an illegal one, its rule.

        The rule of a refusal is the engine's (:class:`~cantstop.IllegalAction`);
        those of a legal action are :func:`cantstop.tags.action_rules`', read
        from the engine's analysis of rolls and stops.

        >>> state = GAME.parse_state('-/- - 0c3455')
        >>> GAME.action_rules(state, GAME.parse_action('7')), GAME.action_rules(state, _STOP)
        (('R6.1',), ('R3.3',))
        """
        from cantstop.tags import action_rules

        try:
            state.apply(action)
        except IllegalAction as refusal:
            return (refusal.rule,)
        return tuple(action_rules(state, action))

    def choice_rules(self, state: State) -> tuple[str, ...]:
        """Return the rules that decide which actions are legal in ``state``.

        The rules :meth:`State.decisions <cantstop.State.decisions>` follows:
        choosing, those of the roll's legal moves (:func:`cantstop.tags.roll_rules`);
        about to roll, R3.2; deciding, R3.4 and R11.1, and R14.2 under Variant
        B, which may forbid the stop; in a finished game, R12.3.

        >>> GAME.choice_rules(GAME.parse_state('-/- - 0c3455'))
        ('R4.2', 'R5.2', 'R6.1', 'R6.6')
        >>> GAME.choice_rules(GAME.parse_state('-/7:3 7:3 0d B'))
        ('R3.4', 'R11.1', 'R14.2')
        """
        from cantstop.tags import roll_rules

        phase = state.phase
        if phase is Phase.CHOOSE:
            assert state.dice is not None
            return tuple(roll_rules(state, state.dice))
        if phase is Phase.DECIDE:
            blocked = ("R14.2",) if state.rules.variant is Variant.B else ()
            return ("R3.4", "R11.1", *blocked)
        return ("R3.2",) if phase is Phase.ROLL else ("R12.3",)

    def action_space(self, config: Rules) -> tuple[Action | Chance, ...]:
        """Return every decision numbered as :mod:`cantstop.envs` numbers them.

        0 the stop, 1 rolling again (:data:`~dicekit.protocol.CHANCE`), 2 to 12
        a move of one sum, 13 to 78 a move of two sums, the pairs in order.
        The same for every configuration.
        """
        return _ACTION_SPACE

    # -- notation and JSON (N1 to N3) ------------------------------------------------
    # (states and actions: :class:`~dicekit.forms.ModuleForms`, from the two modules)
    def __init__(self) -> None:
        super().__init__(notation, jsonform)

    config_from_json = staticmethod(jsonform.rules_from_json)
    config_to_json = staticmethod(jsonform.rules_to_json)

    # -- pictures and players --------------------------------------------------------
    def state_svg(self, state: State) -> str:
        """Return the board picture of ``state`` as a standalone SVG document."""
        from cantstop.svg import state_svg

        return state_svg(state)

    def state_text(self, state: State) -> str:
        """Return the board as ``cantstop show`` draws it: the columns, the turn, the legend."""
        from cantstop.text import legend, render_board

        return f"{render_board(state)}\n{legend(state.rules.players)}"

    def bots(self) -> Mapping[str, Callable[[], Bot[State, Action]]]:
        """Return the built-in players by name, as layer bots."""
        return {name: _bot_factory(make) for name, make in PLAYERS.items()}

    # -- the spec ----------------------------------------------------------------------
    def example_keys(self) -> Mapping[str, ExampleKey]:
        """Return the game's own example key: ``perft``, the whole-roll counts of a state."""
        return {"perft": PERFT}

    def record_format(self) -> RecordFormat:
        """Return Can't Stop's record format (:mod:`cantstop.record`), older than the layer's."""
        from cantstop.record import RECORDS

        return RECORDS

    def conformance(self) -> GameConformance:
        """Return Can't Stop's own conformance suite (:mod:`cantstop.conformance.choice`)."""
        from cantstop.conformance.choice import cantstop_conformance

        return cantstop_conformance(self)

    def command_line(self) -> CommandHooks:
        """Return Can't Stop's own part of the command line (:mod:`cantstop.commandline`)."""
        from cantstop.commandline import CantStopCommands

        return CantStopCommands()

    def __reduce__(self) -> str:
        """Pickle :data:`GAME` by its name, so that a copy is the one game object."""
        return "GAME"


#: Every decision, numbered: see :meth:`CantStop.action_space`.
_ACTION_SPACE: tuple[Action | Chance, ...] = (
    _STOP,
    CHANCE,
    *(Move((column,)) for column in COLUMNS),
    *(Move((a, b)) for a in COLUMNS for b in COLUMNS if a <= b),
)


def _bot_factory(make: Callable[[], Player]) -> Callable[[], Bot[State, Action]]:
    return lambda: PlayerBot(make())


#: Can't Stop on the layer.
GAME = CantStop()
