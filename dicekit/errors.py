"""The errors every game on the layer raises: each names the spec rule it enforces.

A game's own exception classes derive from these, so that the layer (the
harness, the verifier, the command line) can report any game's refusals
without knowing the game.  Each class also derives from the built-in
exception it stands for (:class:`ValueError`), as callers may catch either.
"""

from __future__ import annotations

__all__ = [
    "GameError",
    "IllegalAction",
    "InvalidConfig",
    "InvalidState",
    "NotationError",
    "RuleError",
    "hypothesis_missing",
]


class GameError(Exception):
    """Root of every error a game on the layer raises deliberately."""


class RuleError(GameError, ValueError):
    """A value that breaks a spec rule: ``rule`` is its id, ``reason`` the message alone.

    >>> error = RuleError("a counter is on row 9; rows are 1 to 6", "R1.2")
    >>> error.rule, str(error)
    ('R1.2', 'a counter is on row 9; rows are 1 to 6 (rule R1.2)')
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} (rule {rule})")
        self.rule = rule
        self.reason = message


class InvalidConfig(RuleError):
    """A configuration that the game's spec does not allow."""


class InvalidState(RuleError):
    """A state that breaks one of the invariants of the game's spec."""


class IllegalAction(RuleError):
    """An action the rules do not allow in a state.

    ``state_text`` is the state in the game's notation, ``action`` the refused
    action; the message ends with the state, so that it reads on its own.
    """

    def __init__(self, message: str, rule: str, state_text: str, action: object) -> None:
        GameError.__init__(self, f"{message} (rule {rule}) in state {state_text!r}")
        self.rule = rule
        self.reason = message
        self.state_text = state_text
        self.action = action


class NotationError(RuleError):
    """Text that is not valid notation, or a JSON value that is not a valid form.

    ``text`` is the input, ``position`` the index of the offending character
    (0 for a JSON form, which has none), ``rule`` the notation or game rule it
    breaks.
    """

    def __init__(self, message: str, text: str, position: int, rule: str) -> None:
        GameError.__init__(self, f"at position {position}: {message} (rule {rule})")
        self.rule = rule
        self.reason = message
        self.text = text
        self.position = position


def hypothesis_missing(module: str) -> str:
    """Return the message of the ``ImportError`` of ``module``, which needs Hypothesis to import.

    The package is installed from a clone, not an index, so the message says
    how to install the test extra there, or Hypothesis alone.

    >>> hypothesis_missing("pkg.strategies").split(": ")[0]
    'pkg.strategies needs Hypothesis'
    """
    return (
        f"{module} needs Hypothesis: in a clone of the repository, install the "
        "test extra with: python3 -m pip install -e '.[test]' (or Hypothesis alone: "
        "python3 -m pip install hypothesis)"
    )
