"""The finish-line race as the layer sees it: :data:`GAME`, a :class:`dicekit.protocol.Game`.

Every method hands over to the engine, the notation, the JSON forms, the
pictures or the players; nothing here decides a rule.  The game declares in
its info (:attr:`dicekit.protocol.GameInfo.capabilities`) that it reports
the event of each transition (:class:`dicekit.protocol.Stepping`), the
rules that decide each answer (:class:`dicekit.protocol.Tagging`, read from
the engine's own decisions), a picture for a terminal
(:class:`dicekit.protocol.TextPicture`) with its legend
(:class:`dicekit.protocol.Legend`) and the numbering of its actions
(:class:`dicekit.protocol.ActionSpace`), and adds one key to its spec
examples, ``perft`` (:class:`dicekit.spec.HasExampleKeys`).

>>> from dicekit.protocol import Capability
>>> GAME.info.name, sorted(c.name for c in GAME.info.capabilities)[:3]
('finishline', ['ACTION_SPACE', 'EXAMPLE_KEYS', 'LEGEND'])
>>> len(GAME.action_space(GAME.config(2)))
1280
>>> state = GAME.apply(GAME.new_game(GAME.config(3)), GAME.parse_action('r34'))
>>> GAME.format_state(state), len(GAME.legal_actions(state))
('..../..../..../..../..../.... 0/0/0 0c34', 16)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from dicekit.dice import sorted_outcomes
from dicekit.forms import ModuleForms
from dicekit.protocol import JSON, METHOD_CAPABILITIES, Bot, Capability, GameInfo, OutcomeKind, Step
from dicekit.seated import SeatedGame
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
    (Roll((a, b)), chance) for (a, b), chance in sorted_outcomes(2)
)


class FinishLine(ModuleForms[State, Action], SeatedGame):
    """The finish-line race on the game-neutral layer; :data:`GAME` is its one instance."""

    info = GameInfo(
        name="finishline",
        title="The finish-line race",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        spec_dir=Path(__file__).resolve().parent / "spec",
        capabilities=METHOD_CAPABILITIES
        | {
            Capability.LEGEND,
            Capability.OUTCOMES,
        },
    )
    #: The events of :meth:`step`, in the order the spec lists them.
    events = tuple(event.value for event in Event)
    #: The kinds of outcome of :meth:`outcomes`, for the odds of a roll
    #: (:class:`dicekit.protocol.Outcomes`).
    outcome_kinds = (
        OutcomeKind("forfeit", "the roll offers no action: the turn passes", "R9.1"),
        OutcomeKind("crossing", "a counter crosses the finish line", "R6.5"),
        OutcomeKind("win", "the player's last counter crosses: the game is won", "R10.1"),
    )

    # -- the core: configuration, states, chance, returns ----------------------------
    config = staticmethod(Config)
    new_game = staticmethod(new_game)
    legal_actions = staticmethod(State.legal_actions)
    apply = staticmethod(State.apply)
    over = Phase.OVER
    action_rules = staticmethod(tags.action_rules)
    choice_rules = staticmethod(tags.choice_rules)

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, Fraction]]:
        """Return the 21 rolls and their chances when the dice are to be thrown, else nothing."""
        return ROLL_OUTCOMES if state.phase is Phase.ROLL else ()

    def step(self, state: State, action: Action) -> Step[State]:
        """Return the state after ``action`` and its event's name."""
        after, event = state.step(action)
        return Step(after, event.value)

    def outcomes(self, state: State, action: Action) -> frozenset[str]:
        """Return the kinds of outcome of ``action``, read from its event and the counters."""
        after, event = state.step(action)
        kinds = {"forfeit"} if event is Event.FORFEITED else set()
        if after.across[state.player] > state.across[state.player]:
            kinds.add("crossing")
        if event is Event.WON:
            kinds.add("win")
        return frozenset(kinds)

    def check(self, state: State) -> None:
        """Raise ``InvalidState`` naming the rule if ``state`` breaks an invariant (R12)."""
        if not isinstance(state, State):
            raise InvalidState(f"not a state of this game: {brief(state)}", "R12.4")
        State(state.config, state.player, state.phase, state.dice, state.board, state.across)

    # -- notation and JSON (N1 to N3) ------------------------------------------------
    # (states and actions: :class:`~dicekit.forms.ModuleForms`, from the two modules)
    def __init__(self) -> None:
        super().__init__(notation, jsonform)

    config_from_json = staticmethod(jsonform.config_from_json)

    def config_to_json(self, config: Config) -> JSON:
        """Return the JSON object of ``config``: only the fields that differ from the default."""
        return jsonform.config_to_json(config, full=False)

    # -- pictures and players --------------------------------------------------------
    state_svg = staticmethod(svg.state_svg)
    state_text = staticmethod(text.state_text)
    legend = staticmethod(text.legend)

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

    def example_keys(self) -> Mapping[str, ExampleKey]:
        """Return the game's own example key: ``perft``, the whole-roll counts of a state."""
        return {"perft": ExampleKey("whole-roll counts: 'choices=N forfeits=M'", _check_perft)}

    def __reduce__(self) -> str:
        """Pickle :data:`GAME` by its name, so that a copy is the one game object."""
        return "GAME"


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
