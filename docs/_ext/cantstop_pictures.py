"""Sphinx extension: Can't Stop's pictures on the site, boards and dice drawn by cantstop.svg.

:func:`example_figures` draws a spec example: its state, each roll as four
dice and each other action as text, each over an arrow to the next picture,
and the state after the actions (or the rule that rejects the last one).
:func:`action_picture` draws one action.  The directive ``cantstop-board``
draws a state given in notation as its argument.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from specsite.markup import figure, figures_row, rejected, step, transition
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from cantstop.actions import Action, Roll
from cantstop.errors import CantStopError
from cantstop.notation import format_action, parse_action, parse_state
from cantstop.spec import Example
from cantstop.state import State
from cantstop.svg import dice_svg, state_svg

__all__ = ["Board", "action_picture", "example_figures", "setup"]


def action_picture(action: Action) -> str:
    """Return an action as the pictures show it: a roll as its dice, any other as its text."""
    if isinstance(action, Roll):
        return figure(f"Roll {format_action(action)}", dice_svg(action.dice), "dice")
    return step(format_action(action))


def example_figures(example: Example, failure: str | None) -> str:
    """Return the pictures of ``example`` (``""`` if it has no state); ``failure`` if it failed.

    Raises the engine's error when an action or the state cannot be read.
    """
    text = example.get("actions") or example.get("action") or ""
    actions: list[Action] = [parse_action(a) for a in text.split()]
    error = example.get("error")
    pictures: list[str] = []
    state_text = example.get("state")
    if state_text is not None:
        before = parse_state(state_text)
        state: State | None = before
        pictures.append(figure("Before" if actions else "The state", state_svg(before), "state"))
        for index, action in enumerate(actions):
            # Each action stands over the arrow that leads to the next state,
            # so that two boards and a roll fit on one line of the page.
            pictures.append(transition(action_picture(action)))
            last = index == len(actions) - 1
            if state is not None and not (last and error is not None):
                state = state.apply(action) if failure is None else None
        if actions and error is None and state is not None:
            event = (example.get("events") or example.get("event") or "").split()
            caption = f"After ({event[-1]})" if event else "After"
            pictures.append(figure(caption, state_svg(state), "state"))
        elif error is not None and actions:
            pictures.append(rejected(error))
    return figures_row(pictures) if pictures else ""


class Board(SphinxDirective):
    """Draw the state given in notation as the directive's argument."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        """Return the picture, or an error naming what is wrong with the notation."""
        try:
            state = parse_state(self.arguments[0])
        except CantStopError as exc:
            raise self.error(f"cannot draw {self.arguments[0]!r}: {exc}") from None
        row = figures_row([figure("", state_svg(state), "state")])
        return [nodes.raw("", row, format="html")]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the ``cantstop-board`` directive; return the extension's metadata."""
    app.add_directive("cantstop-board", Board)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
