"""The examples of ``tower/spec/`` run through the layer's runner, and the spec is complete.

The spec is read and its examples are run by the game-neutral reader and
runner (:mod:`dicekit.spec`) on :data:`tower.GAME`: the events of its
``step``, the order of its legal moves (R5.5), and its own keys ``perft``,
``board`` and ``board-change`` (the last two state a board to be refused
before anything else of the example is read).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from dicekit.protocol import Capability
from dicekit.spec import (
    EXAMPLE_KEYS,
    Example,
    ExampleFailure,
    game_keys,
    iter_failures,
    load_game_spec,
    run_example,
)
from tower import GAME

SPEC = load_game_spec(GAME)
EXAMPLES = SPEC.examples
#: The spec's rules by id (``test_proofs.py`` checks the rules the proofs cite against it).
RULES = SPEC.rules


def example(example_id: str) -> Example:
    """Return the spec's example ``example_id``."""
    return next(ex for ex in EXAMPLES if ex.id == example_id)


def changed(example_id: str, **fields: str | None) -> Example:
    """Return the example ``example_id`` with ``fields`` set (``None`` removes a key)."""
    ex = example(example_id)
    values = {**ex.fields, **{k.replace("_", "-"): v for k, v in fields.items()}}
    return replace(ex, fields={k: v for k, v in values.items() if v is not None})


@pytest.mark.parametrize("ex", EXAMPLES, ids=[ex.id for ex in EXAMPLES])
def test_example(ex: Example) -> None:
    """Each spec example holds for the engine, run by the layer's runner."""
    run_example(GAME, ex)


def test_the_game_reports_events_and_orders_its_moves() -> None:
    """The runner checks events and the order of legal moves because the game says it can."""
    assert GAME.info.provides(Capability.STEPPING)
    assert GAME.info.provides(Capability.ORDERS_MOVES)
    assert GAME.events == ("thrown", "forfeited", "moved", "again", "won")


def test_every_example_passes_and_none_is_lost() -> None:
    """All 166 examples run and pass; each kind of example is among them."""
    assert len(EXAMPLES) == 166
    assert list(iter_failures(GAME, SPEC)) == []
    for key in ("state", "setup", "notation", "action-text", "board-change", "perft", "json"):
        assert any(ex.get(key) is not None for ex in EXAMPLES), key


def test_ids_are_unique_and_in_order() -> None:
    """Example ids are E001, E002, ... in the order of the files, each once."""
    ids = [ex.id for ex in EXAMPLES]
    assert ids == [f"E{n:03d}" for n in range(1, len(ids) + 1)]


def test_every_rule_has_an_example_and_text() -> None:
    """Every rule (not chapter) has text and is illustrated by at least one example."""
    cited = {rule for ex in EXAMPLES for rule in ex.rules}
    rules = [rule for rule in SPEC.rules.values() if not rule.is_chapter]
    assert [r.id for r in rules if not r.text.strip()] == []
    assert [r.id for r in rules if r.id not in cited] == []


def test_rule_ids_cited_by_the_engine_exist() -> None:
    """Every rule id quoted in the package's source is defined in the spec."""
    package = GAME.info.spec_dir.parent
    cited: set[str] = set()
    for path in package.glob("*.py"):
        cited.update(re.findall(r'"((?:R|N)\d+\.\d+)"', path.read_text()))
    assert cited
    assert sorted(cited - SPEC.rules.keys()) == []


def test_readme_lists_every_example_key() -> None:
    """tower/spec/README.md documents exactly the layer's keys and the game's own."""
    text = (GAME.info.spec_dir / "README.md").read_text()
    documented = set(re.findall(r"^\| `([a-z-]+)`(?: / `([a-z-]+)`)? \|", text, re.M))
    keys = {k for pair in documented for k in pair if k}
    assert keys == set(EXAMPLE_KEYS) | set(game_keys(GAME))
    assert set(game_keys(GAME)) == {"perft", "board", "board-change"}


@pytest.mark.parametrize(
    ("example_id", "fields", "message"),
    [
        ("E001", {"moves": "0+3"}, "expected legal actions 0+3"),
        ("E001", {"moves": "0+5 0+3"}, "in the order 0+5 0+3"),
        ("E001", {"event": "again"}, "expected events again, got thrown"),
        ("E001", {"result": "R0,0/B0,0 - 1t @ours"}, "expected state"),
        ("E145", {"error": "R4.3"}, "expected rule R4.3, got rule R4.2"),
        ("E163", {"error": "R12.1"}, "expected rule R12.1, got rule R3.2"),
        ("E112", {"error": "N4.2"}, "expected rule N4.2, got rule N4.1"),
        ("E112", {"board_change": 'format="tower-board/1"'}, "to be rejected under N4.1"),
        ("E112", {"board_change": "nowhere.5=1"}, "cannot change board small"),
        ("E112", {"board": "hexagon"}, "cannot change board hexagon"),
        ("E112", {"board": None}, "board-change needs board"),
        ("E112", {"board_change": None}, "give both"),
        ("E112", {"error": None}, "needs an error"),
    ],
)
def test_a_wrong_expectation_fails(
    example_id: str, fields: dict[str, str | None], message: str
) -> None:
    """The runner is not vacuous: a wrong value of any kind fails, naming the example."""
    with pytest.raises(ExampleFailure, match=example_id) as failure:
        run_example(GAME, changed(example_id, **fields))
    assert message in str(failure.value)


def test_a_wrong_perft_fails() -> None:
    """The game's perft key checks the counts, and needs a state about to throw."""
    ex = next(ex for ex in EXAMPLES if ex.get("perft") is not None)
    counts = ex.get("perft") or ""
    wrong = counts.replace("forfeits=", "forfeits=1")
    with pytest.raises(ExampleFailure, match=f"expected {wrong}, got {counts}"):
        run_example(GAME, replace(ex, fields={**ex.fields, "perft": wrong}))
    choosing = changed("E001", perft=counts)  # E001 ends choosing a move
    with pytest.raises(ExampleFailure, match="perft needs a state about to throw"):
        run_example(GAME, choosing)


def test_setup_colours_are_read_as_a_list() -> None:
    """A setup's colours, letters separated by commas, reach the configuration as a list."""
    with pytest.raises(ExampleFailure, match=r"to be rejected under R12\.2"):
        run_example(GAME, changed("E163", setup="players=2 colours=R,B", error="R12.2"))
