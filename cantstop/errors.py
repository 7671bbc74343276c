"""The exceptions raised by :mod:`cantstop`.

Every exception the library raises on purpose derives from :class:`CantStopError`,
and each also derives from the built-in exception it stands for, so that callers
may catch either.  Errors about the game name the spec rule they enforce.  Each
class also derives from its counterpart in :mod:`dicekit.errors`, so that the
game-neutral layer reports Can't Stop's refusals as it reports any game's.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from dicekit import errors as layer

if TYPE_CHECKING:
    from cantstop.state import State

__all__ = [
    "CantStopError",
    "IllegalAction",
    "InvalidRules",
    "InvalidState",
    "NotationError",
    "RuleError",
]


class CantStopError(layer.GameError):
    """Root of every error that :mod:`cantstop` raises deliberately.

    >>> from cantstop import parse_state
    >>> try:
    ...     parse_state('7:2/- 7:1 0d')
    ... except CantStopError as exc:
    ...     print(type(exc).__name__, exc.rule)
    NotationError R16.3
    """


class RuleError(CantStopError, layer.RuleError):
    """A value that breaks a spec rule: ``rule`` is its id, ``reason`` the message alone."""

    def __init__(self, message: str, rule: str) -> None:
        layer.GameError.__init__(self, f"{message} (rule {rule})")
        self.rule = rule
        self.reason = message


class InvalidRules(RuleError, layer.InvalidConfig):
    """A :class:`~cantstop.Rules` value that the spec does not allow."""


class InvalidState(RuleError, layer.InvalidState):
    """A state that breaks one of the invariants of the spec."""


class IllegalAction(CantStopError, layer.IllegalAction):
    """An action that the rules do not allow in the given state.

    ``rule`` is the id of the spec rule that forbids it, ``action`` the rejected
    action, ``state`` the state it was applied to (which is unchanged) and
    ``reason`` the message without the rule and state.

    >>> from cantstop import Stop, parse_state
    >>> try:
    ...     parse_state('-/- - 0r').apply(Stop())
    ... except IllegalAction as exc:
    ...     print(exc.rule, '|', exc.reason)
    R11.1 | stop is not legal: a player must roll at least once before stopping
    """

    def __init__(self, message: str, rule: str, state: State, action: object) -> None:
        from cantstop.notation import format_state

        text = format_state(state)
        layer.GameError.__init__(self, f"{message} (rule {rule}) in state {text!r}")
        self.state_text = text
        self.rule = rule
        self.reason = message
        self.state = state
        self.action = action


class NotationError(CantStopError, layer.NotationError):
    """Text that is not valid state or action notation, or a JSON value that is not a valid form.

    ``text`` is the input, ``position`` the index of the offending character,
    ``rule`` the spec rule (a notation rule ``N...`` or a game rule ``R...``)
    that the text breaks and ``reason`` the message alone.  The message starts
    with the position and shows the text with a caret under that character (a
    long text is cut around it, and characters that do not print are escaped).

    >>> from cantstop import parse_action
    >>> try:
    ...     parse_action('10+7')
    ... except NotationError as exc:
    ...     print(exc.rule, exc.position)
    ...     print(exc)
    N2.3 3
    at position 3: the sums of a move are written in increasing order (rule N2.3)
      10+7
         ^

    An error in a JSON value (N3) has no character to point at: ``pointed`` is
    false, ``text`` is a short quote of the value, ``position`` is 0 and the
    message ends with the quote instead of a caret.
    """

    def __init__(
        self, message: str, text: str, position: int, rule: str, *, pointed: bool = True
    ) -> None:
        if pointed:
            shown, column = _window(text, position)
            full = f"at position {position}: {message} (rule {rule})\n  {shown}\n  {' ' * column}^"
        else:
            full = f"{message} (rule {rule}) in {text}"
        layer.GameError.__init__(self, full)
        self.reason = message
        self.text = text
        self.position = position
        self.rule = rule
        self.pointed = pointed


#: How many characters of a long text an error shows before and after the one it points at.
_BEFORE, _AFTER = 30, 40


def _window(text: str, position: int) -> tuple[str, int]:
    """Return the part of ``text`` to show around ``position``, and the caret's column in it."""
    start = max(0, position - _BEFORE)
    end = min(len(text), position + _AFTER)
    if start <= 10:  # too little would be cut at the start to be worth an ellipsis
        start = 0
    if len(text) - end <= 10:
        end = len(text)
    before = ("…" if start else "") + _printable(text[start:position])
    after = _printable(text[position:end]) + ("…" if end < len(text) else "")
    return before + after, _width(before)


def _printable(text: str) -> str:
    """Escape every character that does not print as itself in one column or two."""
    if text.isprintable() and text.isascii():
        return text
    return "".join(
        c if c.isprintable() and not unicodedata.combining(c) else repr(c)[1:-1] for c in text
    )


def _width(text: str) -> int:
    """Count the terminal columns ``text`` takes (wide East Asian characters take two)."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
