"""A cursor over a line of notation text that reports a fault at the character it lies on.

A game's notation reader extends :class:`TextReader` with what its notation
has of its own (numbers, cells, columns); the cursor, a look at the next
character, an expected character and the error pointing at the text are the
same in every game.  :attr:`TextReader.error` is the game's notation error.

>>> reader = TextReader("r34")
>>> reader.expect("r", "N2.1", "'r'")
>>> reader.peek(), reader.pos
('3', 1)
>>> reader.expect("x", "N2.1", "'x'")
Traceback (most recent call last):
...
dicekit.errors.NotationError: at position 1: expected 'x', found '3' (rule N2.1)
"""

from __future__ import annotations

from typing import ClassVar

from dicekit.errors import NotationError

__all__ = ["TextReader"]


class TextReader:
    """A position in a text, and the notation error of a fault at it."""

    #: The error raised for a fault; a game may name its own subclass.
    error: ClassVar[type[NotationError]] = NotationError

    def __init__(self, text: str) -> None:
        #: The text being read.
        self.text = text
        #: The index of the next character to read.
        self.pos = 0

    def fail(self, message: str, rule: str, pos: int | None = None) -> NotationError:
        """Return the error of ``message`` breaking ``rule`` at ``pos`` (by default the cursor)."""
        return self.error(message, self.text, self.pos if pos is None else pos, rule)

    def peek(self) -> str:
        """Return the next character, or ``""`` at the end of the text."""
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def found(self) -> str:
        """Return what lies at the cursor, for a message: the character quoted, or ``the end``."""
        return repr(self.peek()) if self.peek() else "the end"

    def expect(self, char: str, rule: str, what: str) -> None:
        """Step over ``char``, or fail with ``expected WHAT, found ...`` breaking ``rule``."""
        if self.peek() != char:
            raise self.fail(f"expected {what}, found {self.found()}", rule)
        self.pos += 1
