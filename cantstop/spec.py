"""Can't Stop's rules spec (``spec/``): where it is, its example keys, and its examples run.

The spec's form (numbered rules in Markdown, ``example`` blocks of
``key: value`` lines) is every game's, and :mod:`dicekit.spec` reads it and
runs the examples through a game object; this module is that reader and
runner for Can't Stop.  :func:`load_spec` reads ``spec/`` with the one key
Can't Stop adds to the layer's, ``perft`` (:data:`PERFT`), and
:func:`run_example` runs an example on :data:`cantstop.layer.GAME`, so that
the tests, the docs and the conformance export all read and run the spec
the way any game's is read and run.

>>> spec = load_spec()
>>> spec.rules['R5.2'].title, spec.rules['R5'].is_chapter
('Placing', True)
>>> spec.examples[0].id, spec.examples[0].path
('E001', 'rules/01-equipment.md')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from dicekit import spec as layer
from dicekit.spec import Example, ExampleFailure, ExampleKey, Played, Rule, Spec

__all__ = [
    "EXAMPLE_KEYS",
    "PERFT",
    "Example",
    "ExampleFailure",
    "Rule",
    "Spec",
    "iter_failures",
    "load_spec",
    "parse_setup",
    "run_example",
    "spec_dir",
]


def _check_perft(played: Played, expected: str) -> None:
    from cantstop.state import perft

    counts = perft(played.state)
    got = f"choices={counts.choices} busts={counts.busts}"
    if got != expected:
        raise ExampleFailure(f"expected {expected}, got {got}")


#: Can't Stop's own example key, ``perft``: the whole-roll counts of the state (after the
#: actions), checked against :func:`cantstop.perft`.
PERFT = ExampleKey("whole-roll counts of the state: 'choices=N busts=M'", _check_perft)

#: What the layer's keys mean in Can't Stop's examples, where Can't Stop says more.
_MEANINGS: Mapping[str, str] = {
    "event": "the event the (last) action causes: rolled, busted, moved, stopped or won",
    "moves": "the exact legal moves of the state (after the actions, if any), or 'none'",
    "json": "the JSON form (N3.1) of the state after the action(s), on one line",
    "action-json": "the JSON form (N3.2) of the example's one action, on one line",
    "setup": "a game setup that must be rejected: key=value words for Rules and first_player",
}


def _keys() -> dict[str, str]:
    keys: dict[str, str] = {}
    for key, meaning in layer.EXAMPLE_KEYS.items():
        keys[key] = _MEANINGS.get(key, meaning)
        if key == "error":  # spec/README.md lists perft after the error it resembles
            keys["perft"] = PERFT.meaning
    return keys


#: The keys an example block may hold, and what each means: the layer's
#: (``dicekit.spec.EXAMPLE_KEYS``) in Can't Stop's words, and ``perft``.
EXAMPLE_KEYS: Mapping[str, str] = _keys()


def spec_dir() -> Path:
    """Return the spec directory: beside the package in a checkout, or inside it when installed."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "spec", here / "_spec"):
        if (candidate / "rules").is_dir():
            return candidate
    raise FileNotFoundError("the spec directory (spec/rules) was not found")


def load_spec(root: Path | None = None) -> Spec:
    """Read every Markdown file of the spec, in file-name order, and check its form.

    ``root`` is the spec directory, :func:`spec_dir` by default; a folder
    without spec files gives a spec without rules.  A malformed file raises
    :class:`ValueError` naming the file and line.

    >>> len(load_spec().examples_for('R5')) > 10
    True
    """
    try:
        return layer.load_spec(spec_dir() if root is None else root, ["perft"])
    except FileNotFoundError:
        return layer.spec_from_texts({}, ["perft"])  # a folder without spec files: no rules


def run_example(example: Example) -> None:
    """Check ``example`` against the engine; raise :class:`ExampleFailure` naming its id.

    >>> from dataclasses import replace
    >>> example = next(e for e in load_spec().examples if e.id == 'E008')
    >>> run_example(example)
    >>> wrong = replace(example, fields={**example.fields, 'moves': '7+10'})
    >>> run_example(wrong)
    Traceback (most recent call last):
    ...
    dicekit.spec.ExampleFailure: E008 (...): expected legal actions 7+10, got 7+10 8+9 ...
    """
    from cantstop.layer import GAME

    layer.run_example(GAME, example)


def iter_failures(spec: Spec) -> Iterator[tuple[Example, str]]:
    """Yield each example of ``spec`` that the engine fails, with the failure message.

    >>> list(iter_failures(load_spec()))
    []
    """
    from cantstop.layer import GAME

    return layer.iter_failures(GAME, spec)


def parse_setup(setup: str) -> tuple[dict[str, object], object]:
    """Split a ``setup`` example's ``key=value`` words into rules values and the first player.

    The words are read as :func:`dicekit.spec.parse_setup` reads them (numbers
    become ints, and every other value stays the text the example gives, so
    that examples can state values the engine must reject), and the columns
    of ``heights`` become ints, as :class:`~cantstop.Rules` takes them.

    >>> parse_setup('players=2 heights=7:3,8:2 variant=A first_player=1')
    ({'players': 2, 'heights': {7: 3, 8: 2}, 'variant': 'A'}, 1)
    """
    values, first_player = layer.parse_setup(setup)
    heights = values.get("heights")
    if isinstance(heights, dict):
        values["heights"] = {int(column): spaces for column, spaces in heights.items()}
    return values, first_player
