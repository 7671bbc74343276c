"""The exceptions raised by :mod:`cantstop`.

Every exception the library raises on purpose derives from :class:`CantStopError`,
and each also derives from the built-in exception it stands for, so that callers
may catch either.  Errors about the game name the spec rule they enforce.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cantstop.game import State

__all__ = [
    "CantStopError",
    "IllegalAction",
    "InvalidRules",
    "InvalidState",
    "NotationError",
    "RuleError",
]


class CantStopError(Exception):
    """Root of every error that :mod:`cantstop` raises deliberately.

    >>> from cantstop import parse_state
    >>> try:
    ...     parse_state('7:2/- 7:1 0d')
    ... except CantStopError as exc:
    ...     print(type(exc).__name__, exc.rule)
    NotationError R16.3
    """


class RuleError(CantStopError, ValueError):
    """A value that breaks a spec rule: ``rule`` is its id, ``reason`` the message alone."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} (rule {rule})")
        self.rule = rule
        self.reason = message


class InvalidRules(RuleError):
    """A :class:`~cantstop.Rules` value that the spec does not allow."""


class InvalidState(RuleError):
    """A state that breaks one of the invariants of the spec."""


class IllegalAction(CantStopError, ValueError):
    """An action that the rules do not allow in the given state.

    ``rule`` is the id of the spec rule that forbids it, ``action`` the rejected
    action, ``state`` the state it was applied to (which is unchanged) and
    ``reason`` the message without the rule and state.

    >>> from cantstop import Stop, parse_state
    >>> try:
    ...     parse_state('-/- - 0r').apply(Stop())
    ... except IllegalAction as exc:
    ...     print(exc.rule, '|', exc.reason)
    R11.1 | a stop must follow a successful roll; the turn starts with a roll
    """

    def __init__(self, message: str, rule: str, state: State, action: object) -> None:
        from cantstop.notation import format_state

        super().__init__(f"{message} (rule {rule}) in state {format_state(state)!r}")
        self.rule = rule
        self.reason = message
        self.state = state
        self.action = action


class NotationError(CantStopError, ValueError):
    """Text that is not valid state or action notation.

    ``text`` is the input, ``position`` the index of the offending character
    ``rule`` the spec rule (a notation rule ``N...`` or a game rule ``R...``)
    that the text breaks and ``reason`` the message alone.

    >>> from cantstop import parse_action
    >>> try:
    ...     parse_action('10+7')
    ... except NotationError as exc:
    ...     print(exc.rule, exc.position)
    N2.3 3
    """

    def __init__(self, message: str, text: str, position: int, rule: str) -> None:
        caret = " " * position + "^"
        super().__init__(f"{message} at position {position} (rule {rule})\n  {text}\n  {caret}")
        self.reason = message
        self.text = text
        self.position = position
        self.rule = rule
