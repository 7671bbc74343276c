"""Sphinx extension: positions explained by ``cantstop explain``, each checked against the engine.

The directive ``cantstop-explain`` draws a position, shows the command that
explains it and the explanation line by line, links the position to the "Try
it" board, and checks what the page claims about it while the page is read:
a claim that the engine or the explanation contradicts fails the build.  The
questions page is made of these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from cantstop_pictures import action_picture
from cantstop_tryit import tryit_link
from docutils import nodes
from docutils.parsers.rst import directives
from specsite.markup import figure, figures_row, joined, rejected, transition
from specsite.rules import rule_ref
from specsite.store import record_failure
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from cantstop.actions import Action, Roll
from cantstop.errors import CantStopError, IllegalAction
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.state import State
from cantstop.svg import state_svg

__all__ = ["ExplainedPosition", "setup"]

logger = logging.getLogger(__name__)


def _yes_no(argument: str) -> str:
    return str(directives.choice(argument, ("yes", "no")))


class ExplainedPosition(SphinxDirective):
    """Draw a position, run ``cantstop explain`` on it, and check the answer against the engine.

    The argument is a state in notation; ``:action:`` an action in notation.
    The options ``:legal:`` (``yes`` or ``no``), ``:rule:`` (the rule that
    refuses the action), ``:moves:`` (the legal moves of the dice explained,
    ``none`` for a bust) and ``:shows:`` (kinds of statement the explanation
    must hold) state what the answer claims: each is checked against the
    engine (:meth:`State.apply <cantstop.State.apply>` and
    :meth:`~cantstop.State.legal_moves`) and the explanation while the page
    is read, and a claim that does not hold fails the build.
    """

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "action": directives.unchanged_required,
        "legal": _yes_no,
        "rule": directives.unchanged_required,
        "moves": directives.unchanged_required,
        "shows": directives.unchanged_required,
    }

    def run(self) -> list[nodes.Node]:
        """Return the pictures, the command and its explanation."""
        from cantstop import explain

        text = self.arguments[0]
        try:
            state = parse_state(text)
            action = parse_action(self.options["action"]) if "action" in self.options else None
            found = explain(state, action)
        except CantStopError as exc:
            raise self.error(f"cannot explain {text!r}: {exc}") from None
        problems = self._check(state, action, found)
        if problems:
            message = f"the answer about {text!r} does not hold: " + "; ".join(problems)
            logger.error(message, location=self.get_location())
            record_failure(self.env, self.env.docname, message)
        box = nodes.container(classes=["cs-position"])
        box += nodes.raw("", self._pictures(state, action, found), format="html")
        command = f"cantstop explain '{text}'" + (
            "" if action is None else f" {format_action(action)}"
        )
        box += nodes.literal_block(command, command, language="sh", classes=["cs-command"])
        try_it = nodes.paragraph(classes=["cs-tryit-line"])
        try_it += tryit_link(
            self.env.docname,
            format_state(state),
            explain=None if action is None else format_action(action),
        )
        box += try_it
        lines = nodes.container(classes=["cs-explain"])
        for statement in found.statements:
            line = nodes.paragraph(classes=["cs-line", f"cs-depth-{statement.depth}"])
            line += nodes.Text(statement.text[:-1] + " (")
            line.extend(joined((rule_ref(r) for r in statement.rules), ", "))
            line += nodes.Text(").")
            lines += line
        box += lines
        return [box]

    def _check(self, state: State, action: Action | None, found: Any) -> list[str]:
        """Return what the options claim that the engine or the explanation contradicts."""
        problems = []
        refused = None
        if action is not None:
            try:
                state.apply(action)
            except IllegalAction as exc:
                refused = exc.rule
        legal = self.options.get("legal")
        if legal is not None and (legal == "yes") != (refused is None):
            problems.append(f"the engine says the action is {'not ' if refused else ''}legal")
        rule = self.options.get("rule")
        if rule is not None and rule != refused:
            problems.append(f"the engine refuses it under {refused}, not {rule}")
        if (refused is None) != (found.legal is not False):
            problems.append("the explanation and the engine disagree on the action")
        moves = self.options.get("moves")
        if moves is not None:
            dice_state = state
            if isinstance(action, Roll) and refused is None:
                dice_state = state.step(action).state
            engine = [format_action(m) for m in dice_state.legal_moves()]
            wanted = [] if moves.split() == ["none"] else moves.split()
            if engine != wanted:
                problems.append(f"the legal moves are {' '.join(engine) or 'none'}")
            if found.moves is None or [format_action(m) for m in found.moves] != wanted:
                problems.append("the explanation derives other moves")
        kinds = {s.kind for s in found.statements}
        for kind in self.options.get("shows", "").split():
            if kind not in kinds:
                problems.append(f"the explanation has no statement {kind}")
        return problems

    def _pictures(self, state: State, action: Action | None, found: Any) -> str:
        pictures = [figure("", state_svg(state), "state")]
        if action is not None:
            pictures.append(transition(action_picture(action)))
            if found.legal:
                pictures.append(figure("", state_svg(state.apply(action)), "state"))
            else:
                pictures.append(rejected(found.statements[1].rules[0]))
        return figures_row(pictures)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the ``cantstop-explain`` directive; return the extension's metadata."""
    app.add_directive("cantstop-explain", ExplainedPosition)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
