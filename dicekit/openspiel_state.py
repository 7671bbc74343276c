"""The states of any game's OpenSpiel game, and what they share: see :mod:`dicekit.openspiel`.

A state holds the game's state (:attr:`LayerState.engine_state`), whether
the dice are awaited after the player's decision to let chance act, and the
counts of decisions and of ended turns; who acts and the numbers of the
player's decisions are worked out once for each state the game reaches
(:mod:`dicekit.nodes`).  What every state of a game shares (the game object,
the numbering, the setup) is held by the game's own subclass of
:class:`LayerState`, so that a clone copies none of it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pyspiel

from dicekit.errors import RuleError
from dicekit.nodes import decider, decisions
from dicekit.protocol import CHANCE, Game
from dicekit.rewards import outcome_returns

if TYPE_CHECKING:
    from dicekit.openspiel import LayerGame, Setup, _Registration

__all__ = ["LayerState"]


def _reload_state(game: LayerGame, text: str) -> LayerState:
    state: LayerState = game.deserialize_state(text)
    return state


class _Shared:
    """What every state of one game shares: the game object, the numbering, the setup.

    OpenSpiel clones a state by deep copy; none of this ever changes, so a
    copy is the same object.
    """

    def __init__(self, registration: _Registration, setup: Setup, actions: Sequence[Any]) -> None:
        game = registration.game
        self.game = game
        self.hook = registration.hook
        self.setup = setup
        self.word = registration.hook.chance_word
        self.actions = tuple(actions)
        if CHANCE not in self.actions:
            self.actions = (*self.actions, CHANCE)
        self.number_of: dict[Any, int] = {a: i for i, a in enumerate(self.actions)}
        self.opening = game.new_game(setup.config)
        self.players = game.player_count(setup.config)
        self.solitaire_turns = self.players == 1 and setup.solitaire_reward == "turns"
        self.most_outcomes = _most_outcomes(game, self.opening)
        #: A decision to ask the game about, whose refusal names a rule.
        self.probe = next((a for a in self.actions if a is not CHANCE), None)
        #: The last state whose decisions were numbered, and their numbers.
        self.numbered: tuple[Any, tuple[int, ...]] = (None, ())
        #: Who acts at the opening (OpenSpiel's id), once a state has worked it out.
        self.opening_player: int | None = None
        # The game's methods a step calls, looked up once.
        self.decide = decider(game)
        self.is_over = game.is_over
        self.apply = game.apply
        self.player = game.player

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


def _start(game: LayerGame, text: str) -> LayerState:
    """Return the state of ``game`` that ``text`` writes (see ``new_initial_state``)."""
    shared = game.shared
    body, turns = text, 0
    head, _, count = body.rpartition(" turns ")
    if shared.solitaire_turns and head and count.isdigit():
        body, turns = head, int(count)
    awaiting = body.endswith(f" {shared.word}")
    body = body.removesuffix(f" {shared.word}")
    start = shared.game.parse_state(body)
    config = shared.hook.config_of(start)
    if config is None:
        raise ValueError(f"{game.registration.short_name} starts only from its opening")
    if config != shared.setup.config:
        raise ValueError(f"{text!r} is a state of {config!r}, not of this game's {game.config!r}")
    if awaiting and CHANCE not in decisions(shared.game, start):
        raise ValueError(
            f"{shared.word!r} follows only a state deciding whether to let chance act, not {body!r}"
        )
    state: LayerState = game._state_class(game, start)
    state.awaiting_dice = awaiting
    state.turns_ended = turns
    state.start_text = text
    state._update()
    return state


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


# OpenSpiel's ids of the terminal and chance "players" (pyspiel.PlayerId.TERMINAL and
# .CHANCE, which a test compares), written out so that the module also imports where
# the documentation build stands in for pyspiel.
_TERMINAL = -4
_CHANCE = -1


class LayerState(pyspiel.State):  # type: ignore[misc]
    """A state of the OpenSpiel game: the game's state, and what the adapter counts.

    :attr:`engine_state` is the game's state.  ``awaiting_dice`` is true
    once the player has chosen to let chance act, until it does;
    ``decisions`` counts the players' decisions and ``turns_ended`` the
    turns that have ended (:func:`dicekit.nodes.turn_ends`), for the limit
    and the solitaire reward.  Who acts, and the player's decisions, are
    worked out once for each state the game reaches: OpenSpiel asks for them
    several times a step.
    """

    #: What every state of the game shares (set on the game's own subclass).
    _shared: _Shared
    #: The text the game started from, or ``None`` for the opening.
    start_text: str | None = None

    def __init__(self, game: LayerGame, start: Any = None) -> None:
        super().__init__(game)
        shared = self._shared
        #: The game's state.
        self.engine_state: Any = shared.opening if start is None else start
        #: Whether the player chose to let chance act and the dice are awaited.
        self.awaiting_dice = False
        #: The players' decisions so far.
        self.decisions = 0
        #: The turns ended so far.
        self.turns_ended = 0
        # Who acts at the opening is worked out once: OpenSpiel clones by making a state.
        if start is None and shared.opening_player is not None:
            self._player = shared.opening_player
        else:
            self._update()
            if start is None:
                shared.opening_player = self._player

    def _update(self, over: bool | None = None, options: Sequence[Any] = ()) -> None:
        """Work out who acts now, given whether the game is over and the decisions, if known."""
        shared = self._shared
        state = self.engine_state
        if over is None:
            over = shared.is_over(state)
            options = () if over else shared.decide(state)
        if over or self._cut_short():
            self._player = _TERMINAL
        elif self.awaiting_dice:
            self._player = _CHANCE
        elif options:
            # Kept with the game, not the state: a clone then copies nothing more.
            shared.numbered = (state, self._numbered(options))
            self._player = shared.player(state)
        else:
            self._player = _CHANCE

    def _numbers(self) -> tuple[int, ...]:
        """Return the numbers of the player's decisions now, in increasing order."""
        if self._player < 0:
            return ()
        shared = self._shared
        state, numbers = shared.numbered
        if state is not self.engine_state:
            numbers = self._numbered(shared.decide(self.engine_state))
            shared.numbered = (self.engine_state, numbers)
        return numbers

    def _numbered(self, options: Sequence[Any]) -> tuple[int, ...]:
        try:
            return tuple(sorted(map(self._shared.number_of.__getitem__, options)))
        except KeyError as missing:
            raise ValueError(
                f"the decision {self._shared.game.format_action(missing.args[0])!r} has no "
                "number: the game's action_space leaves it out"
            ) from None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the state as its game and its serialization, to load it anywhere."""
        return (_reload_state, (self.get_game(), self.serialize()))

    @property
    def layer(self) -> Game[Any, Any, Any]:
        """The game object on the layer."""
        return self._shared.game

    def _cut_short(self) -> bool:
        setup = self._shared.setup
        counted = self.turns_ended if setup.counts_turns else self.decisions
        return counted >= setup.limit

    def is_terminal(self) -> bool:
        """Return whether somebody has won or the limit has ended the game."""
        return self._player == _TERMINAL

    def current_player(self) -> int:
        """Return the player to act, or OpenSpiel's chance or terminal id."""
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._numbers())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return chance's outcomes, numbered in order, with their probabilities (a new list)."""
        if self._player != _CHANCE:
            return []
        shared = self._shared
        outcomes = shared.game.chance_outcomes(self.engine_state)
        if len(outcomes) > shared.most_outcomes:
            raise self._refuse(
                f"chance has {len(outcomes)} outcomes here, more than the "
                f"{shared.most_outcomes} of max_chance_outcomes"
            )
        return [(i, float(p)) for i, (_, p) in enumerate(outcomes)]

    def _refuse(self, what: str) -> ValueError:
        return ValueError(f"{what}, in state {str(self)!r}")

    def _refusal(self, probe: Any) -> RuleError | None:
        """Return the game's refusal of ``probe`` here, which names the rule, or ``None``."""
        try:
            self._shared.game.apply(self.engine_state, probe)
        except RuleError as refusal:
            return refusal
        return None

    def _apply_action(self, action: int) -> None:
        shared = self._shared
        state, acting = self.engine_state, self._player
        if acting >= 0:
            actions = shared.actions
            if not 0 <= action < len(actions):
                raise self._refuse(f"decisions are numbered 0 to {len(actions) - 1}, not {action}")
            chosen = actions[action]
            if chosen is CHANCE:
                if action not in self._numbers():
                    raise self._chance_refused()
                self.awaiting_dice = True
                self.decisions += 1
                self._player = _CHANCE
                return
            after = shared.apply(state, chosen)
            self.decisions += 1
        elif acting == _CHANCE:
            outcomes = shared.game.chance_outcomes(state)
            if not 0 <= action < len(outcomes):
                raise self._refuse(
                    f"chance outcomes are numbered 0 to {len(outcomes) - 1}, not {action}"
                )
            after = shared.apply(state, outcomes[action][0])
            self.awaiting_dice = False
        else:
            raise self._ended(action)
        # A turn ends where the next state has no decision: the end, or dice the rules force.
        over = shared.is_over(after)
        options = () if over else shared.decide(after)
        if not options:
            self.turns_ended += 1
        self.engine_state = after
        self._update(over, options)

    def _ended(self, action: int) -> ValueError:
        """Return the error for an action after the end, naming the rule that ended the game."""
        shared = self._shared
        cut = not shared.is_over(self.engine_state)
        refusal = None if cut else self._refusal(shared.probe)
        why = "the turn limit" if cut else "somebody has won"
        if refusal is not None and refusal.rule is not None:
            why += f" ({refusal.rule})"
        return self._refuse(f"no action after the end of the game ({why}), not {action}")

    def _chance_refused(self) -> Exception:
        """Return the error for letting chance act where the player may not: the game's own."""
        outcomes = self._shared.game.chance_outcomes(self._shared.opening)
        refusal = self._refusal(outcomes[0][0]) if outcomes else None
        if refusal is not None:
            return refusal
        return self._refuse("chance may not act here: the player must choose an action")

    def _action_to_string(self, player: int, action: int) -> str:
        shared = self._shared
        if player == _CHANCE:
            outcomes = shared.game.chance_outcomes(self.engine_state)
            return str(shared.game.format_action(outcomes[action][0]))
        chosen = shared.actions[action]
        return shared.word if chosen is CHANCE else str(shared.game.format_action(chosen))

    def returns(self) -> list[float]:
        """Return each player's return: 0 until the end (see the module docstring)."""
        shared = self._shared
        if self._player != _TERMINAL:
            return [0.0] * shared.players
        game, state = shared.game, self.engine_state
        if game.is_over(state) and not shared.solitaire_turns:
            return [float(r) for r in game.returns(state)]
        winner = game.winner(state) if game.is_over(state) else None
        return outcome_returns(
            shared.players, winner, self.turns_ended, shared.setup.solitaire_reward
        )

    def __str__(self) -> str:
        shared = self._shared
        text = str(shared.game.format_state(self.engine_state))
        if self.awaiting_dice:
            text = f"{text} {shared.word}"
        elif self._player == _TERMINAL and not shared.game.is_over(self.engine_state):
            text = f"{text} limit"
        if shared.solitaire_turns:
            text = f"{text} turns {self.turns_ended}"
        return text


class _Observer:
    """The observation string (the state's text), and the hook's tensor if it has one."""

    def __init__(self, shared: _Shared) -> None:
        observation = shared.hook.observation
        self._observation = observation
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        if observation is not None:
            import numpy as np

            fields = observation.fields(shared.setup.config)
            size = max((part.stop for part in fields.values()), default=0)
            self.tensor = np.zeros(size, np.float32)
            self.dict = {name: self.tensor[part] for name, part in fields.items()}

    def set_from(self, state: LayerState, player: int) -> None:
        """Fill the tensor with the observation of ``state`` by ``player``."""
        if self._observation is not None:
            self.tensor[:] = self._observation.observe(
                state.engine_state, player, state.awaiting_dice
            )

    def string_from(self, state: LayerState, player: int) -> str:
        """Return the state's text."""
        return str(state)


class _RecallObserver:
    """A perfect-recall observation: the history of actions, and no tensor.

    In a game of perfect information everything is public, so the history
    (after the starting position, when the game did not start at the
    opening) is the information state of every player.  An observer of
    private information alone sees nothing.
    """

    def __init__(self, public: bool) -> None:
        self.public = public
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: LayerState, player: int) -> None:
        """Nothing to set: there is no tensor."""

    def string_from(self, state: LayerState, player: int) -> str:
        """Return the history, after the starting position if there is one."""
        if not self.public:
            return ""
        history = str(state.history_str())
        return history if state.start_text is None else f"{state.start_text}; {history}"
