"""What a game adds to the neutral example runner: keys that act first, and ordered moves.

A wrapper around the finish-line race's game object stands for a game with
keys of its own: one that hands the rest of the example to another game,
one that checks the whole example itself, and legal moves checked in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from dicekit.errors import RuleError
from dicekit.protocol import Capability
from dicekit.spec import (
    SETTLED,
    Example,
    ExampleFailure,
    ExampleKey,
    Settled,
    expect_refusal,
    game_keys,
    load_game_spec,
    parse_setup,
    run_example,
    spec_from_texts,
)
from finishline import GAME

EXAMPLES = {ex.id: ex for ex in load_game_spec(GAME).examples}


class Wrapped:
    """The finish-line race with keys of its own; ``calls`` lists the hooks run, in order."""

    def __init__(self, *, ordered: bool = False, silent: bool = False) -> None:
        ordering = {Capability.ORDERS_MOVES} if ordered else set()
        self.info = replace(GAME.info, capabilities=GAME.info.capabilities | ordering)
        self.silent = silent
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(GAME, name)

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """Return the game's legal actions, or none for the game a key hands over to."""
        return () if self.silent else GAME.legal_actions(state)

    def example_keys(self) -> Mapping[str, ExampleKey]:
        """Return three keys with hooks that act before the example's actions."""
        return {
            "first": ExampleKey("noted first", None, self._first),
            "silence": ExampleKey("run the rest on a game without legal actions", None, self._hand),
            "settle": ExampleKey("the key checks the whole example", None, self._settle),
        }

    def _first(self, game: Any, example: Example, value: str) -> Any:
        self.calls.append("first")
        return game

    def _hand(self, game: Any, example: Example, value: str) -> Any:
        self.calls.append("silence")
        silent = Wrapped(silent=True)
        silent.calls = self.calls
        return silent

    def _settle(self, game: Any, example: Example, value: str) -> Settled:
        self.calls.append("settle")
        if value != "holds":
            raise ExampleFailure(f"the key finds {value!r}")
        return SETTLED


def with_fields(example_id: str, **fields: str) -> Example:
    """Return the finish-line example ``example_id`` with ``fields`` added or replaced."""
    ex = EXAMPLES[example_id]
    return replace(ex, fields={**ex.fields, **fields})


def test_a_key_can_hand_the_example_to_another_game() -> None:
    """The game a ``before`` hook returns runs the rest: its legal actions are the ones checked."""
    game = Wrapped()
    example = with_fields("E118", silence="yes")  # D5 steps only to C5
    with pytest.raises(ExampleFailure, match="expected legal actions D5-C5, got none"):
        run_example(game, example)
    run_example(game, with_fields("E118", silence="yes", moves="none"))
    run_example(game, EXAMPLES["E118"])  # without the key, unchanged


def test_a_key_can_settle_an_example_and_nothing_else_runs() -> None:
    """A settling key checks the example alone: a state that does not read is never read."""
    game = Wrapped()
    broken = with_fields("E118", state="not a state", settle="holds")
    run_example(game, broken)
    with pytest.raises(ExampleFailure, match=r"E118 .*the key finds 'fails'"):
        run_example(game, with_fields("E118", settle="fails"))
    with pytest.raises(ExampleFailure, match="does not read"):
        run_example(game, with_fields("E118", state="not a state"))


def test_hooks_run_in_the_order_of_the_games_keys() -> None:
    """Each key the example holds runs its hook once, in the order the game lists its keys."""
    game = Wrapped()
    run_example(game, with_fields("E118", settle="holds", first="x"))
    assert game.calls == ["first", "settle"]
    game.calls.clear()
    example = with_fields("E118", settle="holds", silence="y", first="x")
    run_example(game, example)
    assert game.calls == ["first", "silence", "settle"]
    assert set(game_keys(game)) == {"first", "silence", "settle"}


def test_a_game_that_orders_its_moves_has_them_checked_in_order() -> None:
    """Listed in another order, the moves fail only for a game that says its order is checked."""
    example = EXAMPLES["E119"]
    state = GAME.parse_state(example.get("state") or "")
    in_order = [GAME.format_action(a) for a in GAME.legal_actions(state)]
    assert sorted(in_order) == sorted((example.get("moves") or "").split())
    listed = with_fields("E119", moves=" ".join(in_order))
    reordered = with_fields("E119", moves=" ".join(in_order[::-1]))
    run_example(Wrapped(ordered=False), reordered)
    run_example(Wrapped(ordered=True), listed)
    with pytest.raises(ExampleFailure, match="in the order"):
        run_example(Wrapped(ordered=True), reordered)


def test_keys_with_hooks_are_allowed_in_the_spec() -> None:
    """A game's key is a known key of its spec files, like any other."""
    text = "## R1 One\n### R1.1 One\nText.\n```example\nid: E001\nrules: R1.1\nsettle: x\n```\n"
    spec = spec_from_texts({"rules/01.md": text}, game_keys(Wrapped()))
    assert spec.examples[0].get("settle") == "x"


def test_expect_refusal_names_what_it_wanted() -> None:
    """A refusal under the rule passes; none, another rule or no rule to expect fail."""

    def refuse() -> None:
        raise RuleError("too many", "R2.1")

    expect_refusal(refuse, "R2.1", "the setup")
    with pytest.raises(ExampleFailure, match=r"expected rule R2\.2, got rule R2\.1"):
        expect_refusal(refuse, "R2.2", "the setup")
    with pytest.raises(ExampleFailure, match=r"expected the setup to be rejected under R2\.1"):
        expect_refusal(lambda: None, "R2.1", "the setup")
    with pytest.raises(ExampleFailure, match="needs an error"):
        expect_refusal(refuse, None, "the setup")


def test_setup_values_with_commas_are_lists() -> None:
    """Values separated by commas, without colons, become a list; pairs stay an object."""
    assert parse_setup("colours=R,B,G") == ({"colours": ["R", "B", "G"]}, 0)
    assert parse_setup("seats=2,0 board=x") == ({"seats": [2, 0], "board": "x"}, 0)
    assert parse_setup("heights=7:3,8:2") == ({"heights": {"7": 3, "8": 2}}, 0)
    assert parse_setup("colours=R") == ({"colours": "R"}, 0)
