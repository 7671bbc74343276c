"""The finish-line race as the layer sees it: :data:`GAME`, a :class:`dicekit.protocol.Game`.

Every method hands over to the engine, the notation, the JSON forms, the
pictures or the players; nothing here decides a rule.  The game reports the
event of each transition (:class:`dicekit.protocol.Stepping`), the rules
that decide each answer (:class:`dicekit.protocol.Tagging`, read from the
engine's own decisions) and a picture for a terminal
(:class:`dicekit.protocol.TextPicture`), and adds one key to its spec
examples, ``perft`` (:class:`dicekit.spec.HasExampleKeys`).

>>> from dicekit.protocol import ActionSpace, Game, Stepping, Tagging, TextPicture
>>> isinstance(GAME, Stepping), isinstance(GAME, Tagging), isinstance(GAME, TextPicture)
(True, True, True)
>>> GAME.info.name
'finishline'
>>> isinstance(GAME, ActionSpace), len(GAME.action_space(GAME.config(2)))
(True, 1280)
>>> state = GAME.apply(GAME.new_game(GAME.config(3)), GAME.parse_action('r34'))
>>> GAME.format_state(state), len(GAME.legal_actions(state))
('..../..../..../..../..../.... 0/0/0 0c34', 16)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from dicekit.protocol import JSON, Bot, GameInfo, Step
from dicekit.spec import ExampleFailure, ExampleKey, Played
from finishline import jsonform, notation, players, svg, tags, text
from finishline.actions import Action, Double, Move, Play, Roll, Sideways
from finishline.board import CELLS
from finishline.config import MAX_PLAYERS, MIN_PLAYERS, Config
from finishline.errors import InvalidState, brief
from finishline.state import Event, Phase, State, new_game, perft

__all__ = ["GAME", "ROLL_OUTCOMES", "FinishLine"]

#: The 21 distinct rolls, smaller die first, with their exact chances (R4.1).
ROLL_OUTCOMES: tuple[tuple[Roll, Fraction], ...] = tuple(
    (Roll((a, b)), Fraction(1 if a == b else 2, 36)) for a in range(1, 7) for b in range(a, 7)
)


class FinishLine:
    """The finish-line race on the game-neutral layer; :data:`GAME` is its one instance."""

    info = GameInfo(
        name="finishline",
        title="The finish-line race",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        spec_dir=Path(__file__).resolve().parent / "spec",
    )
    #: The events of :meth:`step`, in the order the spec lists them.
    events = tuple(event.value for event in Event)

    # -- configuration -------------------------------------------------------------
    def config(self, players: int) -> Config:
        """Return the standard configuration for ``players`` players (R2.2)."""
        return Config(players)

    def config_from_json(self, data: JSON) -> Config:
        """Return the configuration a JSON object describes (N3.1)."""
        return jsonform.config_from_json(data)

    def config_to_json(self, config: Config) -> JSON:
        """Return the JSON object of ``config``: only the fields that differ from the default."""
        return jsonform.config_to_json(config, full=False)

    # -- states and turns ------------------------------------------------------------
    def new_game(self, config: Config, first_player: int = 0) -> State:
        """Return the opening state (R2.3)."""
        return new_game(config, first_player)

    def player(self, state: State) -> int:
        """Return whose turn it is (the winner once the game is over)."""
        return state.player

    def is_over(self, state: State) -> bool:
        """Return whether the game has ended (R10.2)."""
        return state.phase is Phase.OVER

    def winner(self, state: State) -> int | None:
        """Return the winner, or ``None`` while the game goes on (R10.1)."""
        return state.winner

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, Fraction]]:
        """Return the 21 rolls and their chances when the dice are to be thrown, else nothing."""
        return ROLL_OUTCOMES if state.phase is Phase.ROLL else ()

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Return the player's legal actions, in the order of N2.6."""
        return state.legal_actions()

    def apply(self, state: State, action: Action) -> State:
        """Return the state after ``action``; an illegal one raises ``IllegalAction``."""
        return state.apply(action)

    def step(self, state: State, action: Action) -> Step[State]:
        """Return the state after ``action`` and its event's name."""
        after, event = state.step(action)
        return Step(after, event.value)

    def check(self, state: State) -> None:
        """Raise ``InvalidState`` naming the rule if ``state`` breaks an invariant (R12)."""
        if not isinstance(state, State):
            raise InvalidState(f"not a state of this game: {brief(state)}", "R12.4")
        State(state.config, state.player, state.phase, state.dice, state.board, state.across)

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

    # -- rule tags ---------------------------------------------------------------------
    def action_rules(self, state: State, action: Action) -> tuple[str, ...]:
        """Return the ids of the rules that decide what ``action`` does; a refusal's rule first.

        >>> GAME.action_rules(GAME.parse_state('..../..../..../..../..../.... 0/0 0c34'),
        ...                   GAME.parse_action('+A3'))
        ('R4.5',)
        """
        return tags.action_rules(state, action)

    def choice_rules(self, state: State) -> tuple[str, ...]:
        """Return the ids of the rules that decide which actions are legal in ``state``.

        >>> GAME.choice_rules(GAME.parse_state('..../..../..../..../..../.... 0/0 0c34'))
        ('R4.2', 'R4.5', 'N2.6')
        """
        return tags.choice_rules(state)

    # -- pictures and players --------------------------------------------------------
    def state_svg(self, state: State) -> str:
        """Return a drawing of ``state`` as a standalone SVG document."""
        return svg.state_svg(state)

    def state_text(self, state: State) -> str:
        """Return a picture of ``state`` in a few lines of plain text, for a terminal."""
        return text.state_text(state)

    def bots(self) -> Mapping[str, Callable[[], Bot[State, Action]]]:
        """Return the built-in players by name: ``random`` and ``racer``."""
        return players.PLAYERS

    def action_space(self, config: Config) -> Sequence[Action]:
        """Return every play, sideways step and double advance, each once, in a fixed order.

        The numbering of the research adapters (:class:`dicekit.protocol.ActionSpace`):
        the plays of one move, then of two, then the sideways steps and the
        double advances, each group in the order of its cells.  It is the same
        for every configuration.
        """
        return _ACTION_SPACE

    # -- the spec ----------------------------------------------------------------------
    def example_keys(self) -> Mapping[str, ExampleKey]:
        """Return the game's own example key: ``perft``, the whole-roll counts of a state."""
        return {"perft": ExampleKey("whole-roll counts: 'choices=N forfeits=M'", _check_perft)}


def _action_space() -> tuple[Action, ...]:
    """Return every well-formed play, sideways step and double advance (N2.3 to N2.5)."""
    shapes = ((True, 0), (True, 1), (False, 1), (False, 2))
    single = [
        Move(c, enter=e, rows=r) for c in CELLS for e, r in shapes if not (r == 2 and c.row == 1)
    ]
    one_die = [m for m in single if len(m.dice) == 1]
    plays = [Play((m,)) for m in single]
    plays += [Play(pair) for pair in itertools.combinations(one_die, 2)]
    sideways = [Sideways(c, to) for c in CELLS for to in c.neighbours]
    return (*plays, *sideways, *(Double(c) for c in CELLS))


_ACTION_SPACE = _action_space()


def _check_perft(played: Played, expected: str) -> None:
    state = played.state
    if not isinstance(state, State):  # pragma: no cover - the runner passes this game's states
        raise ExampleFailure(f"not a state of this game: {brief(state)}")
    counts = perft(state)
    got = f"choices={counts.choices} forfeits={counts.forfeits}"
    if got != expected:
        raise ExampleFailure(f"expected {expected}, got {got}")


#: The finish-line race, for the layer.
GAME = FinishLine()
