"""A game object's notation and JSON methods, handed over to the game's own two modules.

Most games write their notation in one module and their JSON forms in
another, with functions named as the methods of
:class:`~dicekit.protocol.Forms` are.  Such a game's object inherits from
:class:`ModuleForms` the eight methods that read and write states and
actions, and gives it the two modules; it defines the two of the
configuration itself, since how a configuration is written short differs
from game to game.

>>> import types
>>> notation = types.SimpleNamespace(
...     format_state=str, parse_state=int, format_action=str, parse_action=int
... )
>>> jsonform = types.SimpleNamespace(
...     state_to_json=lambda s: {"n": s}, state_from_json=lambda d: d["n"],
...     action_to_json=lambda a: {"a": a}, action_from_json=lambda d: d["a"],
... )
>>> forms = ModuleForms(notation, jsonform)
>>> forms.format_state(3), forms.parse_action("4"), forms.state_to_json(5)
('3', 4, {'n': 5})
"""

from __future__ import annotations

from typing import Generic, Protocol

from dicekit.protocol import JSON, ActionT, StateT

__all__ = ["ModuleForms"]


class _Notation(Protocol[StateT, ActionT]):
    """A game's notation module: states and actions written on one line, and read back."""

    def format_state(self, state: StateT, /) -> str: ...
    def parse_state(self, text: str, /) -> StateT: ...
    def format_action(self, action: ActionT, /) -> str: ...
    def parse_action(self, text: str, /) -> ActionT: ...


class _Json(Protocol[StateT, ActionT]):
    """A game's JSON module: states and actions as JSON values, and read back."""

    def state_to_json(self, state: StateT, /) -> JSON: ...
    def state_from_json(self, data: JSON, /) -> StateT: ...
    def action_to_json(self, action: ActionT, /) -> JSON: ...
    def action_from_json(self, data: JSON, /) -> ActionT: ...


class ModuleForms(Generic[StateT, ActionT]):
    """The state and action methods of :class:`~dicekit.protocol.Forms`, read from two modules."""

    def __init__(
        self, notation: _Notation[StateT, ActionT], jsonform: _Json[StateT, ActionT]
    ) -> None:
        self._notation = notation
        self._jsonform = jsonform

    def format_state(self, state: StateT) -> str:
        """Return the one-line canonical notation of ``state``."""
        return self._notation.format_state(state)

    def parse_state(self, text: str) -> StateT:
        """Return the state that ``text`` denotes (the inverse of ``format_state``)."""
        return self._notation.parse_state(text)

    def format_action(self, action: ActionT) -> str:
        """Return the notation of ``action``."""
        return self._notation.format_action(action)

    def parse_action(self, text: str) -> ActionT:
        """Return the action that ``text`` denotes (the inverse of ``format_action``)."""
        return self._notation.parse_action(text)

    def state_to_json(self, state: StateT) -> JSON:
        """Return the JSON form of ``state``."""
        return self._jsonform.state_to_json(state)

    def state_from_json(self, data: JSON) -> StateT:
        """Return the state of a JSON form (the inverse of ``state_to_json``)."""
        return self._jsonform.state_from_json(data)

    def action_to_json(self, action: ActionT) -> JSON:
        """Return the JSON form of ``action``."""
        return self._jsonform.action_to_json(action)

    def action_from_json(self, data: JSON) -> ActionT:
        """Return the action of a JSON form (the inverse of ``action_to_json``)."""
        return self._jsonform.action_from_json(data)
