"""A game on the dicekit layer as the spec extension shows it: read, run and drawn through its game.

:class:`LayerSpec` is the :class:`~specsite.interface.SiteGame` of any game
that satisfies :class:`dicekit.protocol.Game`: its spec is read by
:func:`dicekit.spec.load_spec` with the game's own example keys, each
example is run by :func:`dicekit.spec.run_example`, and the pictures are the
game's own drawings (``state_svg``): the state before, each action over an
arrow, and the state after the actions, or the rule that rejects the last
one.  Each picture is kept wide enough for its smallest text to stay legible
(:func:`specsite.markup.legible_width`).  A rejection is shown with the
message the engine gives.  :func:`position_directive` makes the directive
that draws a state given in the game's notation.  The module imports no
game: a game's own extension passes its game object.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from docutils import nodes
from specsite.markup import figure, figures_row, legible_width, rejected, step, transition
from sphinx.util.docutils import SphinxDirective

from dicekit.errors import RuleError
from dicekit.protocol import Game
from dicekit.spec import EXAMPLE_KEYS, Example, Spec, game_keys, load_spec, parse_setup, run_example

__all__ = ["LayerSpec", "chance_note", "draw", "position_directive"]


def draw(game: Game[Any, Any, Any], state: Any, caption: str) -> str:
    """Return the game's drawing of ``state`` as a figure that keeps its text legible."""
    svg = game.state_svg(state)
    return figure(caption, svg, "state", legible_width(svg))


def position_directive(game: Game[Any, Any, Any]) -> type[SphinxDirective]:
    """Return a directive that draws the state of ``game`` given in notation as its argument."""

    class Position(SphinxDirective):
        """Draw the state given in notation as the directive's argument."""

        required_arguments = 1
        final_argument_whitespace = True

        def run(self) -> list[nodes.Node]:
            """Return the drawing, or an error naming what is wrong with the notation."""
            try:
                state = game.parse_state(self.arguments[0])
            except RuleError as exc:
                raise self.error(f"cannot draw {self.arguments[0]!r}: {exc}") from None
            row = figures_row([draw(game, state, "")])
            return [nodes.raw("", row, format="html")]

    return Position


def chance_note(count: str, outcomes: int, words: str) -> Callable[[Example], str]:
    """Return a note for whole-roll counts: the chance that ``count`` of them stands for.

    ``count`` names the part of the ``perft`` value that counts outcomes
    (``forfeits``), of ``outcomes`` equally likely ones, and ``words`` says
    what that chance is.

    >>> note = chance_note("forfeits", 36, "forfeit chance")
    >>> note(Example("E001", ("R1.1",), {"perft": "choices=40 forfeits=9"}, "a.md", 1))
    ' (forfeit chance 1/4 = 25.00%)'
    """

    def note(example: Example) -> str:
        counts = dict(part.split("=", 1) for part in (example.get("perft") or "").split())
        chance = Fraction(int(counts.get(count, "0")), outcomes)
        return f" ({words} {chance} = {float(chance):.2%})"

    return note


class LayerSpec:
    """A game on the layer as :mod:`specsite` shows it: its spec, its runner and its drawings."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        notes: Mapping[str, Callable[[Example], str]] | None = None,
    ) -> None:
        #: The game object.
        self.game = game
        #: Words a card adds after a key's value, by key (the chance of a forfeit, say).
        self.notes: Mapping[str, Callable[[Example], str]] = notes or {}
        #: The keys an example may hold: the layer's, then the game's own, with their meanings.
        self.example_keys: Mapping[str, str] = {
            **EXAMPLE_KEYS,
            **{key: value.meaning for key, value in game_keys(game).items()},
        }

    def load_spec(self, root: Path | None) -> Spec:
        """Return the spec of ``root`` (``None``: the game's own), with the game's keys."""
        return load_spec(root or self.game.info.spec_dir, game_keys(self.game))

    def run_example(self, example: Example) -> None:
        """Run ``example`` on the game; raise ``ExampleFailure`` if it does not hold."""
        run_example(self.game, example)

    def shown(self, text: str) -> str:
        """Return ``text`` as it is: these specs cite their source by name already."""
        return text

    def figures(self, example: Example, failure: str | None) -> str:
        """Return the drawings of ``example`` (``""`` if it has no state); ``failure`` if it failed.

        Raises the game's error when an action or the state cannot be read.
        """
        game = self.game
        state_text = example.get("state")
        if state_text is None:
            return ""
        words = (example.get("actions") or example.get("action") or "").split()
        actions = [game.parse_action(word) for word in words]
        error = example.get("error")
        state: Any = game.parse_state(state_text)
        pictures = [draw(game, state, "Before" if actions else "The state")]
        for index, action in enumerate(actions):
            pictures.append(transition(step(game.format_action(action))))
            last = index == len(actions) - 1
            if state is not None and not (last and error is not None):
                state = game.apply(state, action) if failure is None else None
        if actions and error is None and state is not None:
            events = (example.get("events") or example.get("event") or "").split()
            pictures.append(draw(game, state, f"After ({events[-1]})" if events else "After"))
        elif error is not None and actions:
            pictures.append(rejected(error))
        return figures_row(pictures)

    def links(self, example: Example, docname: str) -> list[nodes.Node]:
        """Return no links: the "Try it" board plays Can't Stop only."""
        return []

    def message(self, example: Example) -> str | None:
        """Return the message the game gives for an example that expects an error."""
        game = self.game
        try:
            if example.get("setup") is not None:
                config, first_player = parse_setup(example.get("setup") or "")
                game.new_game(game.config_from_json(config), first_player)
            elif example.get("notation") is not None:
                game.parse_state(example.get("notation") or "")
            elif example.get("action-text") is not None:
                game.parse_action(example.get("action-text") or "")
            elif example.get("state") is not None:
                state = game.parse_state(example.get("state") or "")
                words = (example.get("actions") or example.get("action") or "").split()
                for word in words:
                    state = game.apply(state, game.parse_action(word))
        except RuleError as exc:
            return str(exc)
        return None

    def fact_note(self, example: Example, key: str) -> str:
        """Return the words the game adds after the value of ``key``, else ``""``."""
        note = self.notes.get(key)
        return "" if note is None else note(example)
