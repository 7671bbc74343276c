"""Can't Stop as the game-neutral layer sees it: :data:`GAME`, a :class:`dicekit.protocol.Game`.

Every method hands over to the engine, the notation, the JSON forms, the
drawing or the players; nothing here decides a rule.  Two things are
particular to Can't Stop:

- After a move the player may stop or roll again (R3.4).  Rolling again is
  letting chance act, so in :attr:`~cantstop.Phase.DECIDE` both
  :meth:`CantStop.legal_actions` (the stop, unless Variant B forbids it,
  R14.2) and :meth:`CantStop.chance_outcomes` (the 126 sorted rolls) are
  non-empty, and a bot that rolls returns :data:`dicekit.protocol.CHANCE`.
- Every transition reports its event (:class:`dicekit.protocol.Stepping`),
  since a bust leaves no mark on the board, and the spec's examples carry one
  key of the game's own, ``perft`` (:class:`dicekit.spec.HasExampleKeys`).

>>> from dicekit.protocol import Stepping, TextPicture
>>> isinstance(GAME, Stepping), isinstance(GAME, TextPicture), GAME.info.name
(True, True, 'cantstop')
>>> state = GAME.apply(GAME.new_game(GAME.config(2)), GAME.parse_action('r3455'))
>>> [GAME.format_action(a) for a in GAME.legal_actions(state)]
['7+10', '8+9']
>>> decide = GAME.apply(state, GAME.parse_action('7+10'))
>>> GAME.legal_actions(decide), len(GAME.chance_outcomes(decide))
((Stop(),), 126)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from cantstop import jsonform, notation
from cantstop.actions import Action, Move, Stop
from cantstop.config import MAX_PLAYERS, MIN_PLAYERS, Rules
from cantstop.dice import roll_outcomes
from cantstop.players import PLAYERS, Player
from cantstop.spec import PERFT, spec_dir
from cantstop.state import Event, Phase, State, new_game
from dicekit.protocol import CHANCE, JSON, Bot, Chance, GameInfo, Step
from dicekit.spec import ExampleKey

__all__ = ["GAME", "CantStop", "PlayerBot"]

_STOP = Stop()
_OUTCOMES: tuple[tuple[Action, Fraction], ...] = tuple(roll_outcomes())


class PlayerBot:
    """A Can't Stop :class:`~cantstop.players.Player` as a layer :class:`~dicekit.protocol.Bot`.

    It plays the player's move in CHOOSE; in DECIDE it stops where the player
    stops (and the rules allow it) and otherwise lets chance roll the dice.

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
        if (
            state.phase is Phase.DECIDE
            and state.decisions().may_stop
            and self.player.stops(state, rng)
        ):
            return _STOP
        return CHANCE


class CantStop:
    """Can't Stop on the game-neutral layer; :data:`GAME` is its one instance."""

    info = GameInfo(
        name="cantstop",
        title="Can't Stop",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        spec_dir=spec_dir(),
    )
    #: The events of :meth:`step`, as :class:`~cantstop.Event` names them.
    events = tuple(event.value for event in Event)

    # -- configuration -------------------------------------------------------------
    def config(self, players: int) -> Rules:
        """Return the standard rules for ``players`` players (R15.1)."""
        return Rules(players=players)

    def config_from_json(self, data: JSON) -> Rules:
        """Return the rules a JSON object describes (N3.1)."""
        return jsonform.rules_from_json(data)

    def config_to_json(self, config: Rules) -> JSON:
        """Return the JSON object of ``config``: only the fields that differ from the default."""
        return jsonform.rules_to_json(config)

    # -- states and turns ------------------------------------------------------------
    def new_game(self, config: Rules, first_player: int = 0) -> State:
        """Return the opening state (R2)."""
        return new_game(config, first_player)

    def player(self, state: State) -> int:
        """Return whose turn it is (the winner once the game is over)."""
        return state.player

    def is_over(self, state: State) -> bool:
        """Return whether the game has ended (R12)."""
        return state.phase is Phase.OVER

    def winner(self, state: State) -> int | None:
        """Return the winner, or ``None`` while the game goes on (R12.1)."""
        return state.winner

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, Fraction]]:
        """Return the 126 sorted rolls and their chances where the player may roll, else nothing."""
        return _OUTCOMES if state.decisions().may_roll else ()

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Return the legal moves (CHOOSE), or the stop where the rules allow it (DECIDE)."""
        decisions = state.decisions()
        if decisions.may_stop:
            return (_STOP,)
        return decisions.moves

    def apply(self, state: State, action: Action) -> State:
        """Return the state after ``action``; an illegal one raises ``IllegalAction``."""
        return state.apply(action)

    def step(self, state: State, action: Action) -> Step[State]:
        """Return the state after ``action`` and its event's name."""
        after, event = state.step(action)
        return Step(after, event.value)

    def check(self, state: State) -> None:
        """Raise ``InvalidState`` naming the rule if ``state`` breaks an invariant (R16)."""
        State(state.rules, state.player, state.phase, state.dice, state.markers, state.squares)

    # -- notation and JSON -----------------------------------------------------------
    def format_state(self, state: State) -> str:
        """Return the canonical notation of ``state`` (N1)."""
        return notation.format_state(state)

    def parse_state(self, text: str) -> State:
        """Return the state that ``text`` denotes (N1)."""
        return notation.parse_state(text)

    def format_action(self, action: Action) -> str:
        """Return the notation of ``action`` (N2)."""
        return notation.format_action(action)

    def parse_action(self, text: str) -> Action:
        """Return the action that ``text`` denotes (N2)."""
        return notation.parse_action(text)

    def state_to_json(self, state: State) -> JSON:
        """Return the JSON form of ``state`` (N3.1)."""
        return jsonform.state_to_json(state)

    def state_from_json(self, data: JSON) -> State:
        """Return the state of a JSON form (N3.1)."""
        return jsonform.state_from_json(data)

    def action_to_json(self, action: Action) -> JSON:
        """Return the JSON form of ``action`` (N3.2)."""
        return jsonform.action_to_json(action)

    def action_from_json(self, data: JSON) -> Action:
        """Return the action of a JSON form (N3.2)."""
        return jsonform.action_from_json(data)

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


def _bot_factory(make: Callable[[], Player]) -> Callable[[], Bot[State, Action]]:
    return lambda: PlayerBot(make())


#: Can't Stop on the layer.
GAME = CantStop()
