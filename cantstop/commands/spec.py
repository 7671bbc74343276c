"""The ``spec`` command: count a game's rules and examples, and run the examples.

``cantstop spec --check`` prints each failing example on stdout, then the
counts, and when an example fails ends with the error line of the
convention on stderr and exit status 1.  ``--game NAME`` picks the game
(:mod:`cantstop.commands.games`); every game's spec, Can't Stop's too, is
read and run by :mod:`dicekit.spec` on the game object, with the game's own
example keys (:mod:`cantstop.spec` reads Can't Stop's the same way).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from cantstop.commands.games import add_game_option, load_game
from cantstop.commands.options import add_command, examples
from cantstop.commands.report import ExitStatus, report_error
from dicekit import spec as layer
from dicekit.spec import Example, Spec

__all__ = ["add_commands"]


def _read(name: str) -> tuple[Spec, Iterator[tuple[Example, str]]]:
    """Return the spec of game ``name``, and (lazily) its failing examples."""
    game = load_game(name)
    try:
        spec = layer.load_game_spec(game)
    except ValueError as exc:
        raise layer.ExampleFailure(f"the spec of {game.info.title} does not read: {exc}") from None
    return spec, layer.iter_failures(game, spec)


def _spec(args: argparse.Namespace) -> int:
    try:
        spec, failing = _read(args.game)
    except layer.ExampleFailure as exc:
        return report_error("spec", str(exc))
    rules = [r for r in spec.rules.values() if not r.is_chapter]
    chapters = len(spec.rules) - len(rules)
    print(f"{len(rules)} rules in {chapters} chapters, {len(spec.examples)} examples")
    if not args.check:
        return ExitStatus.SUCCESS
    failures = list(failing)
    for _, message in failures:
        print(message)
    print(f"{len(spec.examples) - len(failures)} passed, {len(failures)} failed")
    if not failures:
        return ExitStatus.SUCCESS
    first = failures[0][1].splitlines()[0] if failures[0][1] else ""
    noun = "example fails" if len(failures) == 1 else "examples fail"
    return report_error("spec", f"{len(failures)} {noun} against the engine; the first: {first}")


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``spec``."""
    spec = add_command(sub, "spec", _spec, "count the spec's rules and examples")
    spec.add_argument(
        "--check", action="store_true", help="also run every example against the engine"
    )
    add_game_option(spec)
    spec.epilog = examples("cantstop spec --check", "cantstop spec --game finishline --check")
