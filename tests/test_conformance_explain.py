"""Explain cases of the conformance suite: the ``explain`` op, its capability, and wrong answers."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from cantstop import Phase, explain, parse_action, parse_state
from cantstop.cli import main
from cantstop.conformance import generate, harness
from cantstop.conformance.serve import handle
from cantstop.explanation import TEMPLATES
from dicekit.conformance.heldout import copy_port
from tests import independent
from tests.extras import NODE_REASON

NODE = shutil.which("node")
JS_PORT = Path(__file__).resolve().parent.parent / "examples" / "ports" / "javascript"
CASES = harness.load_cases(generate.vectors_dir())
EXPLAIN = [c for c in CASES if c["kind"] == "explain"]
#: A few explain cases of every phase, a refused action and an unreadable state among them.
SAMPLE = harness.select(EXPLAIN, ["explain-000*", "explain-001*", "explain-error-00*"], [])


def _port(tmp_path: Path, body: str) -> list[str]:
    """Return the command of a Python port that answers as ``cantstop serve``, then runs ``body``.

    ``body`` may change ``q`` (the request) and ``a`` (the answer) before it is printed.
    """
    script = tmp_path / "port.py"
    script.write_text(
        "import json, sys\n"
        "from cantstop.conformance.serve import handle\n"
        "for line in sys.stdin:\n"
        "    q = json.loads(line)\n"
        "    a = handle(q)\n"
        + "".join(f"    {line}\n" for line in body.splitlines())
        + "    print(json.dumps(a), flush=True)\n",
        encoding="utf-8",
    )
    return [sys.executable, str(script)]


# -- the op ----------------------------------------------------------------------------


def test_hello_declares_explain() -> None:
    """The reference port declares the explain capability in its handshake."""
    answer = handle({"seq": 1, "op": "hello", "protocol": 1})
    assert answer["supports"]["explain"] is True


def test_explain_op_answers_the_json_form() -> None:
    """A refused single sum (spec/explain.md X2.3: 7 alone from 3-4-5-5 breaks R6.1)."""
    answer = handle({"seq": 2, "op": "explain", "state": "7:2/- - 0c3455", "action": "7"})
    assert answer["ok"] is True
    got = answer["explanation"]
    assert (got["format"], got["state"], got["action"]) == (
        "cantstop-explain/1",
        "7:2/- - 0c3455",
        "7",
    )
    assert got["legal"] is False
    assert got["moves"] == ["7+10", "8+9"]  # 3+4 with 5+5, and 3+5 with 4+5
    verdict = got["statements"][1]
    assert (verdict["kind"], verdict["rules"]) == ("illegal.one-sum", ["R6.1"])
    assert got == explain(parse_state("7:2/- - 0c3455"), parse_action("7")).to_json()


def test_explain_op_without_an_action() -> None:
    """Without an action the explanation has ``action`` and ``legal`` null."""
    answer = handle({"seq": 3, "op": "explain", "state": "-/- - 0r"})
    got = answer["explanation"]
    assert (got["action"], got["legal"], got["moves"]) == (None, None, None)
    assert got["statements"][0]["kind"] == "position.roll"


@pytest.mark.parametrize(
    ("request_fields", "rule"),
    [
        ({"state": "7:2/- - 0c345"}, "N1.4"),  # three dice
        ({"state": "7:2/- - 0c3455", "action": "7+"}, "N2.3"),
        ({"state": "7:2/- - 0c3455", "action": 7}, None),  # not notation: a protocol error
        ({}, None),
    ],
)
def test_explain_op_refuses_what_it_cannot_read(
    request_fields: dict[str, Any], rule: str | None
) -> None:
    """An unreadable state or action is refused with its rule; a missing field with none."""
    answer = handle({"seq": 4, "op": "explain", **request_fields})
    assert answer["ok"] is False
    assert answer["error"]["rule"] == rule


# -- the vectors --------------------------------------------------------------------------


def test_explain_cases_need_the_capability() -> None:
    """Every explain case needs ``explain`` first, then the options of its rules."""
    assert len(EXPLAIN) >= 500
    for case in EXPLAIN:
        assert case["needs"][0] == "explain", case["id"]
        if "explanation" in case["expect"]:
            rules = parse_state(case["state"]).rules
            assert case["needs"][1:] == generate.needs(rules), case["id"]


def test_explain_cases_show_every_sentence_and_fragment() -> None:
    """Every sentence and fragment of the template table (spec/explain.md X4.2) appears."""
    seen: set[str] = set()
    for case in EXPLAIN:
        if "explanation" in case["expect"]:
            seen |= generate.explanation_features(case["expect"]["explanation"])
    assert seen == set(TEMPLATES)


def test_explain_cases_are_tagged_with_the_rules_their_statements_cite() -> None:
    """A case names exactly the rules its statements apply."""
    for case in EXPLAIN:
        if "explanation" in case["expect"]:
            cited = {r for s in case["expect"]["explanation"]["statements"] for r in s["rules"]}
            assert set(case["rules"]) == cited, case["id"]


def test_explained_moves_agree_with_the_independent_implementation() -> None:
    """The moves of every explained CHOOSE state match ``tests/independent.py``."""
    checked = 0
    for case in EXPLAIN:
        explanation = case["expect"].get("explanation")
        if explanation is None or parse_state(case["state"]).phase is not Phase.CHOOSE:
            continue
        pos = independent.read_state(case["state"])
        dice = tuple(int(d) for d in case["state"].split(" ")[2][2:6])
        want = ["+".join(map(str, m)) for m in independent.legal_moves(pos, dice)]
        assert explanation["moves"] == want, case["id"]
        checked += 1
    assert checked >= 100


# -- the harness ---------------------------------------------------------------------------


def test_both_ports_pass_the_explain_sample() -> None:
    """The reference port passes the sample (the JavaScript port is run below, with Node)."""
    run = harness.run_suite([sys.executable, "-m", "cantstop", "serve"], SAMPLE)
    assert run.count("passed") == len(SAMPLE)
    assert run.exit_status() == 0


def test_a_port_without_the_capability_skips_the_explain_cases(tmp_path: Path) -> None:
    """Undeclared, explain cases are skipped and counted; the other cases still run."""
    port = _port(tmp_path, "if q.get('op') == 'hello':\n    del a['supports']['explain']")
    spec = harness.select(CASES, ["spec-E00*"], [])
    run = harness.run_suite(port, spec + SAMPLE)
    skipped = [r for r in run.results if r.status == "skipped"]
    assert [r.id for r in skipped] == [c["id"] for c in SAMPLE]
    assert {r.message for r in skipped} == {"the port does not support explain"}
    assert run.count("passed") == len(spec)
    assert run.exit_status() == 0
    assert (
        f"{len(SAMPLE)} skipped, for what the port does not support: "
        f"the capability explain ({len(SAMPLE)})"
    ) in run.summary_lines()


def test_a_port_that_declares_explain_false_skips_them_and_all_skipped_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run of explain cases alone against a port without the capability is not a pass."""
    port = _port(tmp_path, "if q.get('op') == 'hello':\n    a['supports']['explain'] = False")
    status = main(["conform", "--run", "explain-0000*", "--", *port])
    out, err = capsys.readouterr()
    assert status == 2
    assert "no case ran: the port supports none of the 9 selected cases" in err
    assert out.splitlines()[-1] == "0 passed, 0 failed (suite v3)"


def test_a_wrong_sentence_is_caught_and_shown(tmp_path: Path) -> None:
    """A port whose sum statements lose their full stop fails, with both lines shown."""
    body = (
        "if q.get('op') == 'explain' and a.get('ok'):\n"
        "    for s in a['explanation']['statements']:\n"
        "        if s['kind'] == 'sum.place':\n"
        "            s['text'] = s['text'].replace(' on space ', ' to space ')"
    )
    run = harness.run_suite(_port(tmp_path, body), SAMPLE)
    failed = [r for r in run.results if r.status == "failed"]
    assert failed
    first = failed[0]
    assert "differs in its text" in first.message
    got, expected = first.diagnosis[:2]
    assert got.startswith("got:      [sum.place] ")
    assert " to space " in got
    assert expected.startswith("expected: [sum.place] ")
    assert " on space " in expected
    run.diagnose(SAMPLE)
    assert run.suspects()[0][0] == "R5.2"  # the rule a place statement cites


def test_an_explanation_with_keys_in_another_order_passes(tmp_path: Path) -> None:
    """The answer is compared as a JSON value: the order of an object's keys does not count."""
    body = (
        "if q.get('op') == 'explain' and a.get('ok'):\n"
        "    a['explanation'] = dict(reversed(list(a['explanation'].items())))"
    )
    run = harness.run_suite(_port(tmp_path, body), SAMPLE)
    assert run.count("passed") == len(SAMPLE)


def test_true_is_not_one() -> None:
    """``legal: 1`` is not ``legal: true``."""
    want = {"format": "cantstop-explain/1", "legal": True, "statements": []}
    assert harness.explanation_difference({**want, "legal": 1}, want) == (
        "the field legal: got 1, expected true",
        [],
    )
    assert harness.explanation_difference(dict(want), want) is None


def test_a_port_that_refuses_explain_fails_the_cases(tmp_path: Path) -> None:
    """A port that declares explain but does not know the op fails every explain case."""
    body = (
        "if q.get('op') == 'explain':\n"
        "    a = {'seq': q['seq'], 'ok': False, 'error': {'rule': None, 'message': 'unknown op'}}"
    )
    run = harness.run_suite(_port(tmp_path, body), SAMPLE)
    assert run.count("failed") == len(SAMPLE)
    assert run.exit_status() == 1


#: Mistakes in the JavaScript port's explain.js, and the rule the diagnosis must put first.
EXPLAIN_MISTAKES: dict[str, tuple[str, str, str]] = {
    "the top space not said": (
        "if (examined.top) fragments.push('where.top');",
        "",
        "R8.1",
    ),
    "a won column on a bust not said": (
        "if (space === s.rules.heights[column]) out.say('bust.top', { column }, { column });",
        "",
        "R8.2",
    ),
}


@pytest.mark.skipif(NODE is None, reason=NODE_REASON)
def test_the_javascript_port_declares_and_passes_explain() -> None:
    """The bundled JavaScript port declares the capability and passes the sample."""
    assert NODE is not None
    run = harness.run_suite([NODE, str(JS_PORT / "port.js")], SAMPLE)
    assert run.hello is not None
    assert run.hello["supports"]["explain"] is True
    assert run.count("passed") == len(SAMPLE)


@pytest.mark.skipif(NODE is None, reason=NODE_REASON)
@pytest.mark.parametrize("mistake", sorted(EXPLAIN_MISTAKES))
def test_an_explain_mistake_is_named(mistake: str, tmp_path: Path) -> None:
    """Each mistake patched into explain.js fails the run, and the diagnosis names its rule."""
    old, new, rule = EXPLAIN_MISTAKES[mistake]
    copy = copy_port(JS_PORT, tmp_path / "port")
    source = copy / "explain.js"
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the patch no longer applies: {old!r}"
    source.write_text(text.replace(old, new), encoding="utf-8")
    assert NODE is not None
    port = [NODE, str(copy / "port.js")]
    run = harness.run_suite(port, EXPLAIN)
    assert not run.ok
    assert run.starts == 1
    run.diagnose(EXPLAIN)
    assert run.suspects()[0][0] == rule
    report = json.dumps(run.report())
    assert rule in report
