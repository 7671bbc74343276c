"""The ``explain`` command: what the rules say about a state, and about an action in it.

``cantstop explain STATE [ACTION] [--json]`` prints the game's statements,
as text or as their JSON form.  An action the rules refuse is explained on
stdout and reported on stderr, ``cantstop explain: error: ...`` with its
rule, and the exit status is 1.  ``--game NAME`` picks the game
(:mod:`cantstop.commands.games`): a game that explains its own way
(:meth:`dicekit.commandline.CommandHooks.run`; Can't Stop's statements are
:func:`cantstop.explain`'s, in the form of ``spec/explain.md``) does, any
other is explained by the layer (:func:`dicekit.explain.explain`), from its
own decision tags.

>>> import contextlib, io
>>> from cantstop.commands import main
>>> with contextlib.redirect_stdout(io.StringIO()) as out:
...     status = main(['explain', '7:2/- - 0c3455'])
>>> status, out.getvalue().splitlines()[0]
(0, 'Player 0 has rolled 3-4-5-5 and must play it (R3.3).')
"""

from __future__ import annotations

import argparse
from typing import Any

from cantstop.commands.games import add_game_option, add_own_options, game_runner
from cantstop.commands.options import add_command, examples, read_game_state
from cantstop.commands.report import ExitStatus, report_error
from dicekit import explain as layer
from dicekit.protocol import Game

__all__ = ["add_commands"]


def _explain(game: Game[Any, Any, Any], args: argparse.Namespace) -> int:
    """Explain a state of the game, and an action in it, the layer's way."""
    state = read_game_state(game, args.state)
    action = None if args.action is None else game.parse_action(args.action)
    found = layer.explain(game, state, action)
    if args.json:
        print(found.to_json_text())
    else:
        print(found.text(), end="")
    if found.refusal is not None:
        reason, rule = found.refusal
        return report_error("explain", f"{found.action} is not legal: {reason} (rule {rule})")
    return ExitStatus.SUCCESS


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``explain``: what the rules say about a state, and an action in it."""
    p = add_command(
        sub,
        "explain",
        game_runner("explain", _explain),
        "explain a state, and an action in it, statement by statement with rule ids",
    )
    p.add_argument("state", help="a state in notation, e.g. '7:2/- - 0c3455'")
    p.add_argument("action", nargs="?", help="an action in notation: r3455, 7+10, 7, stop")
    p.add_argument(
        "--json",
        action="store_true",
        help="print the JSON form (spec/explain.md) instead of the text",
    )
    add_own_options("explain", p)
    add_game_option(p)
    p.description = (
        "Explain what the rules say about a state: the pairings of the dice and the "
        "legal moves, what stopping or rolling would do, or who won. With an action, "
        "say whether it is legal and under which rule; a roll is explained before it "
        "is applied. The exit status is 1 when the action is not legal."
    )
    p.epilog = examples(
        "cantstop explain '7:2/- - 0c3455' 7",
        "cantstop explain --game tower 'R0,3/B0,0 - 0c35 @ours' 0+5",
    )
