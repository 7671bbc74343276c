"""Off to the Tower as the layer runs it: :data:`GAME`, a :class:`dicekit.protocol.Game`.

Every method hands over to the engine (:mod:`tower.state`), the notation
(:mod:`tower.notation`) and the JSON forms (:mod:`tower.jsonform`); nothing
is decided here.  The game declares in its info
(:attr:`dicekit.protocol.GameInfo.capabilities`) that it reports the event
of each transition (:class:`dicekit.protocol.Stepping`), that its spec
examples list legal moves in the order of R5.5
(:attr:`~dicekit.protocol.Capability.ORDERS_MOVES`), and that it adds three
keys to them (:class:`dicekit.spec.HasExampleKeys`): ``perft``, and
``board`` with ``board-change``, which state a board to be refused without a
state, and that a throw has a form for each order its dice fall in
(:class:`dicekit.conformance.families.ChanceForms`).  It is also a
:class:`~dicekit.protocol.Tagging`, whose rule tags
:mod:`tower.tags` reads from the engine's decision records, a
:class:`~dicekit.protocol.TextPicture` with its :class:`~dicekit.protocol.Legend`
(:mod:`tower.text`) and an
:class:`~dicekit.protocol.ActionSpace`.

>>> from fractions import Fraction
>>> state = GAME.new_game(GAME.config(2))
>>> GAME.format_state(state), GAME.player(state)
('R0,0/B0,0 - 0t @ours', 0)
>>> outcomes = GAME.chance_outcomes(state)
>>> len(outcomes), sum(p for _, p in outcomes) == Fraction(1)
(21, True)
>>> state = GAME.apply(state, GAME.parse_action('t61'))
>>> [GAME.format_action(a) for a in GAME.legal_actions(state)]
['0+1', '0+6']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from dicekit.boarddata import change
from dicekit.dice import ORDERED_THROWS, sorted_outcomes
from dicekit.errors import RuleError
from dicekit.forms import ModuleForms
from dicekit.protocol import (
    JSON,
    METHOD_CAPABILITIES,
    Bot,
    Capability,
    Game,
    GameInfo,
    OutcomeKind,
    Step,
)
from dicekit.seated import SeatedGame
from dicekit.spec import SETTLED, ExampleFailure, ExampleKey, Played, Settled, expect_refusal
from dicekit.spec import Example as SpecExample
from tower import boardfaults, jsonform, notation, tags
from tower.actions import Action, Move, Throw
from tower.board import board_to_json, load_board
from tower.config import Config, make_config
from tower.invariants import check_state
from tower.state import Event, Phase, State, new_game, perft

__all__ = ["GAME", "TowerGame"]

_THROWS: tuple[tuple[Action, Fraction], ...] = tuple(
    (Throw((dice[0], dice[1])), chance) for dice, chance in sorted_outcomes(2)
)
_ORDERED: tuple[Action, ...] = tuple(Throw((dice[0], dice[1])) for dice in ORDERED_THROWS)


#: The kinds of outcome that an event names of itself.
_KINDS = {Event.FORFEITED: "forfeit", Event.AGAIN: "again", Event.WON: "win"}


class TowerGame(ModuleForms[State, Action], SeatedGame):
    """The :class:`~dicekit.protocol.Game` of Off to the Tower; use the instance :data:`GAME`."""

    info = GameInfo(
        name="tower",
        title="Off to the Tower",
        min_players=2,
        max_players=4,
        spec_dir=Path(__file__).resolve().parent / "spec",
        capabilities=METHOD_CAPABILITIES
        | {
            Capability.LEGEND,
            Capability.ORDERS_MOVES,
            Capability.BROKEN_SETUPS,
            Capability.CHANCE_FORMS,
            Capability.OUTCOMES,
        },
    )
    #: The events of :meth:`step`, in the order the spec lists them.
    events = tuple(event.value for event in Event)
    #: The kinds of outcome of :meth:`outcomes`, for the odds of a throw
    #: (:class:`dicekit.protocol.Outcomes`).
    outcome_kinds = (
        OutcomeKind("forfeit", "the throw offers no move: the turn passes", "R4.4"),
        OutcomeKind("capture", "a stone of another player is captured", "R7.1"),
        OutcomeKind("again", "the player throws again", "R6.1"),
        OutcomeKind("win", "the player's last stone reaches the goal: the game is won", "R11.1"),
    )

    # -- the core: configuration, states, chance, returns ----------------------------
    new_game = staticmethod(new_game)
    legal_actions = staticmethod(State.legal_moves)
    apply = staticmethod(State.apply)
    over = Phase.OVER
    check = staticmethod(check_state)
    action_rules = staticmethod(tags.action_rules)
    choice_rules = staticmethod(tags.choice_rules)

    def config(self, players: int) -> Config:
        """Return the standard configuration: our board, its first colours for ``players``."""
        return make_config(players=players)

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, Fraction]]:
        """Return the 21 sorted throws with their chances when the dice are to be thrown (R4.1)."""
        return _THROWS if state.phase is Phase.THROW else ()

    def chance_forms(self, state: State) -> Sequence[Action]:
        """Return the 36 throws in the order the dice fall, when the dice are to be thrown (R4.1).

        A throw keeps the order of its dice (``t53``); the state after it
        writes them sorted, so each throw of two different numbers has two
        forms, and :meth:`chance_outcomes` lists the sorted one.

        >>> [GAME.format_action(a) for a in GAME.chance_forms(GAME.new_game(GAME.config(2)))][:7]
        ['t11', 't12', 't13', 't14', 't15', 't16', 't21']
        """
        return _ORDERED if state.phase is Phase.THROW else ()

    def step(self, state: State, action: Action) -> Step[State]:
        """Return the state after ``action`` and its event's name."""
        after = state.step(action)
        return Step(after.state, after.event.value)

    def outcomes(self, state: State, action: Action) -> frozenset[str]:
        """Return the kinds of outcome of ``action``: read from the event and the stones after it.

        A move captures when another player's stones are not where they
        were: only a capture moves them (R7.1, R8.2).
        """
        after = state.step(action)
        kinds = {_KINDS[after.event]} if after.event in _KINDS else set()
        if isinstance(action, Move):
            me = state.player
            stones = after.state.stones
            if any(p != me and stones[p] != before for p, before in enumerate(state.stones)):
                kinds.add("capture")
        return frozenset(kinds)

    # -- notation and JSON (N1 to N3) ------------------------------------------------
    # (states and actions: :class:`~dicekit.forms.ModuleForms`, from the two modules)
    def __init__(self) -> None:
        super().__init__(notation, jsonform)

    config_from_json = staticmethod(jsonform.config_from_json)

    def config_to_json(self, config: Config) -> JSON:
        """Return the JSON object of ``config``: only what differs from the default."""
        return jsonform.config_to_json(config, full=False)

    # -- pictures, players and the research adapters -----------------------------------
    def state_svg(self, state: State) -> str:
        """Return a drawing of ``state`` and its board as a standalone SVG document."""
        from tower.svg import state_svg

        return state_svg(state)

    def state_text(self, state: State) -> str:
        """Return a picture of ``state`` in plain text, for a terminal (:mod:`tower.text`)."""
        from tower.text import state_text

        return state_text(state)

    def legend(self, state: State) -> str:
        """Return the key to the marks of :meth:`state_text` (:mod:`tower.text`)."""
        from tower.text import legend

        return legend(state)

    def action_space(self, config: Config) -> Sequence[Action]:
        """Return every move a player may make under ``config``: each step before the goal, 1 to 6.

        The numbering of the research adapters (:class:`dicekit.protocol.ActionSpace`),
        by step and then points: ``0+1`` is 0, ``0+6`` is 5, ``1+1`` is 6.
        """
        longest = max(config.lengths)
        return tuple(Move(step, points) for step in range(longest) for points in range(1, 7))

    def bots(self) -> Mapping[str, Callable[[], Bot[State, Action]]]:
        """Return the built-in players by name: ``random`` and ``runner``."""
        from tower.players import PLAYERS

        return PLAYERS

    def broken_setups(self) -> list[tuple[JSON, str, tuple[str, ...]]]:
        """Return boards each made to break one rule of R2 (:mod:`tower.boardfaults`)."""
        return list(boardfaults.broken_setups())

    def example_keys(self) -> Mapping[str, ExampleKey]:
        """Return the game's own example keys: ``perft``, ``board`` and ``board-change``."""
        return {
            "perft": ExampleKey(
                "whole-throw counts of a state about to throw: 'choices=N forfeits=M'", _perft
            ),
            "board": ExampleKey(
                "with board-change: the shipped board that is changed", None, _board
            ),
            "board-change": ExampleKey(
                "changes to that board's JSON form (PATH=VALUE words) that make a board "
                "to be refused under the example's error",
                None,
                _board_change,
            ),
        }

    def __reduce__(self) -> str:
        """Pickle :data:`GAME` by its name, so that a copy is the one game object."""
        return "GAME"


def _perft(played: Played, expected: str) -> None:
    try:
        counts = perft(played.state)
    except RuleError as exc:
        raise ExampleFailure(f"perft needs a state about to throw: {exc}") from None
    got = f"choices={counts.choices} forfeits={counts.forfeits}"
    if got != expected:
        raise ExampleFailure(f"expected {expected}, got {got}")


def _board(game: Game[Any, Any, Any], example: SpecExample, name: str) -> Game[Any, Any, Any]:
    if example.get("board-change") is None:
        raise ExampleFailure(f"board {name} names the board that board-change changes; give both")
    return game


def _board_change(game: Game[Any, Any, Any], example: SpecExample, words: str) -> Settled:
    name = example.get("board")
    if name is None:
        raise ExampleFailure("board-change needs board, the shipped board it changes")
    try:
        data = change(board_to_json(load_board(name)), words)
    except (RuleError, KeyError, IndexError, ValueError) as exc:
        raise ExampleFailure(f"cannot change board {name} by {words!r}: {exc!r}") from None
    expect_refusal(
        lambda: game.config_from_json({"board": data}),
        example.get("error"),
        f"board {name} changed by {words!r}",
    )
    return SETTLED


#: The game object of Off to the Tower.
GAME = TowerGame()
