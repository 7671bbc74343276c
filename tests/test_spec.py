"""The spec's examples run against the engine, and the spec is complete."""

from __future__ import annotations

import pytest

from cantstop.spec import Example, ExampleFailure, load_spec, run_example

SPEC = load_spec()


@pytest.mark.parametrize("example", SPEC.examples, ids=[ex.id for ex in SPEC.examples])
def test_example(example: Example) -> None:
    """Each spec example holds for the engine (a failure names the example's id)."""
    run_example(example)


def test_every_rule_has_an_example() -> None:
    """Every rule (not chapter) is illustrated by at least one example."""
    missing = [
        rule.id
        for rule in SPEC.rules.values()
        if not rule.is_chapter and not SPEC.examples_for(rule.id)
    ]
    assert missing == []


def test_at_least_eighty_examples() -> None:
    """The spec carries at least 80 examples."""
    assert len(SPEC.examples) >= 80


def test_no_rule_is_left_as_a_placeholder() -> None:
    """No rule text is empty or a TODO marker."""
    unfinished = [
        r.id for r in SPEC.rules.values() if not r.is_chapter and (not r.text or "TODO" in r.text)
    ]
    assert unfinished == []


def test_rule_ids_cited_by_the_engine_exist() -> None:
    """Every rule id quoted in the engine's source is defined in the spec."""
    import re
    from pathlib import Path

    import cantstop

    cited: set[str] = set()
    for path in Path(cantstop.__file__).parent.glob("*.py"):
        cited.update(re.findall(r'"((?:R|N)\d+\.\d+)"', path.read_text()))
    assert cited, "the engine cites no rule"
    assert sorted(cited - SPEC.rules.keys()) == []


def test_failing_example_names_its_id() -> None:
    """A wrong expectation is reported with the example's id."""
    bad = Example(
        "E999",
        ("R4.2",),
        {"id": "E999", "rules": "R4.2", "state": "-/- - 0c3455", "moves": "7+10"},
        "x.md",
        1,
    )
    with pytest.raises(ExampleFailure, match="E999"):
        run_example(bad)


def test_spec_readme_lists_every_example_key() -> None:
    """spec/README.md documents exactly the keys the example reader accepts."""
    import re

    from cantstop.spec import EXAMPLE_KEYS, spec_dir

    text = (spec_dir() / "README.md").read_text()
    documented = set(re.findall(r"^\| `([a-z-]+)`(?: / `([a-z-]+)`)? \|", text, re.M))
    keys = {k for pair in documented for k in pair if k}
    assert keys == set(EXAMPLE_KEYS)


def test_wrong_json_expectation_fails() -> None:
    """An example whose JSON does not match the engine's is reported."""
    fields = {"id": "E998", "rules": "N3.2", "state": "-/- - 0r", "action": "r1234"}
    bad = Example(
        "E998",
        ("N3.2",),
        {**fields, "action-json": '{"type": "roll", "dice": [4, 3, 2, 1]}'},
        "x.md",
        1,
    )
    with pytest.raises(ExampleFailure, match="E998"):
        run_example(bad)
