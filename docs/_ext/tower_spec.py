"""Sphinx extension: Off to the Tower's spec on the site, under ``tower/``, and its shipped boards.

The game's :class:`~dicekit_site.LayerSpec` (spec read and examples run by
:mod:`dicekit.spec` on :data:`tower.GAME`, states drawn by the game) is
registered with :mod:`specsite` under the prefix ``tower``: configuration
values ``tower_spec_dir``, ``tower_proof_results`` and ``tower_pages``,
directives ``tower-example-keys`` and ``tower-proof-results``.  An example
that changes a shipped board shows the engine's message for the changed
board, and whole-throw counts the chance of a forfeit over the 36 ordered
throws.

The directive ``tower-board`` draws a state given in notation, and
``tower-shipped-board NAME`` draws a shipped board from its file, with
the opening position of as many players as it has colours (four at most),
says that it is the project's own construction, and lists what the rules
make of its data: the crossing, the sixth field and each colour's route.
"""

from __future__ import annotations

from typing import Any

from dicekit_site import LayerSpec, chance_note, draw, position_directive
from docutils import nodes
from specsite import setup_site
from specsite.markup import Cell, figures_row, table
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from dicekit.boarddata import change
from dicekit.errors import RuleError
from dicekit.spec import Example
from tower import GAME, Board, board_to_json, load_board, make_config, new_game
from tower.board import BOARD_FILES

__all__ = ["SITE_GAME", "ShippedBoard", "TowerSpec", "board_facts", "setup"]


class TowerSpec(LayerSpec):
    """Off to the Tower as the spec extension shows it; a changed board is shown refused."""

    def message(self, example: Example) -> str | None:
        """Return the message the engine gives for an example that expects an error."""
        words = example.get("board-change")
        if words is None:
            return super().message(example)
        try:
            data = change(board_to_json(load_board(example.get("board") or "")), words)
            GAME.config_from_json({"board": data})
        except RuleError as exc:
            return str(exc)
        return None


#: Off to the Tower as the spec extension shows it.
SITE_GAME = TowerSpec(GAME, {"perft": chance_note("forfeits", 36, "forfeit chance")})


def _fields(numbers: tuple[int, ...]) -> str:
    return ", ".join(str(n) for n in numbers) or "none"


def board_facts(board: Board) -> tuple[str, list[list[Cell]]]:
    """Return what the rules make of a board's data: a sentence, and a row per colour.

    >>> sentence, rows = board_facts(load_board("small"))
    >>> for part in sentence.replace("; ", ". ").split(". "):
    ...     print(part)
    17 fields: 9 on the track (10 track positions), 4 on the ways in, 4 goals
    The crossing is field 4, at track positions 4 and 8
    the sixth field of every route is field 6, a star.
    >>> rows[1]
    ['blue (B)', '11', '2 (field 2)', '10 (field 9)', '22', '11']
    """
    track = set(board.track)
    ways = {n for colour in board.colours for n in colour.way_in}
    goals = {colour.goal for colour in board.colours}
    crossing = board.crossing
    positions = [i for i, n in enumerate(board.track, start=1) if n == crossing]
    sixth = {board.route(colour.letter)[6] for colour in board.colours}
    sixth_text = (
        f"the sixth field of every route is field {sixth.pop()}, a star"
        if len(sixth) == 1
        else "the sixth fields of the routes are fields " + _fields(tuple(sorted(sixth)))
    )
    sentence = (
        f"{len(board.fields)} fields: {len(track)} on the track ({len(board.track)} track "
        f"positions), {len(ways)} on the ways in, {len(goals)} goals. The crossing is field "
        f"{crossing}, at track positions {positions[0]} and {positions[1]}; {sixth_text}."
    )
    rows: list[list[Cell]] = [
        [
            f"{colour.name} ({colour.letter})",
            _fields(colour.way_in),
            f"{colour.entry} (field {board.track[colour.entry - 1]})",
            f"{colour.gate} (field {board.track[colour.gate - 1]})",
            str(colour.goal),
            str(board.length(colour.letter)),
        ]
        for colour in board.colours
    ]
    return sentence, rows


class ShippedBoard(SphinxDirective):
    """Draw the shipped board named by the argument from its file, with what its data says."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        """Return the drawing, its label and the table of its colours' routes."""
        name = self.arguments[0]
        if name not in BOARD_FILES.names():
            raise self.error(f"no shipped board {name!r}; the boards are {BOARD_FILES.names()}")
        board = load_board(name)
        path = f"tower/boards/{name}.json"
        self.env.note_dependency(str(BOARD_FILES.directory / f"{name}.json"))
        players = min(4, len(board.colours))
        state = new_game(make_config(name, players=players))
        caption = f"{path}, with the opening position of {players} players"
        box = nodes.container(classes=["cs-board-file"])
        label = nodes.paragraph(classes=["cs-board-label"])
        label += nodes.strong("", board.title)
        label += nodes.Text(" (board ")
        label += nodes.literal("", name)
        label += nodes.Text(", file ")
        label += nodes.literal("", path)
        label += nodes.Text(
            "): the project's own construction, not the published board, whose layout "
            "the source does not give. Drawn from the file when this site was built."
        )
        if board.note:
            label += nodes.Text(" The file's note: ")
            label += nodes.emphasis("", board.note)
        box += label
        box += nodes.raw("", figures_row([draw(GAME, state, caption)]), format="html")
        sentence, rows = board_facts(board)
        box += nodes.paragraph("", sentence)
        headers = ["Colour", "Way in", "Entry", "Gate", "Goal", "Route steps"]
        box += table(headers, rows)
        return [box]


def setup(app: Sphinx) -> dict[str, Any]:
    """Put Off to the Tower's spec on the pages under ``tower/``; return the metadata."""
    setup_site(app, SITE_GAME, "tower", pages="tower/")
    app.add_directive("tower-board", position_directive(GAME))
    app.add_directive("tower-shipped-board", ShippedBoard)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
