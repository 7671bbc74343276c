"""The newest conformance vectors (``spec/conformance/v3``): regeneration, schema, content, CLI."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from cantstop.cli import main
from cantstop.conformance import generate, harness
from cantstop.spec import load_spec
from tests import independent
from tests.extras import NODE_REASON

VECTORS = generate.vectors_dir()
REFERENCE = [sys.executable, "-m", "cantstop", "serve"]
NODE = shutil.which("node")


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    return harness.load_cases(VECTORS)


def _by_kind(cases: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    return [c for c in cases if c["id"].startswith(prefix)]


def test_regeneration_gives_the_committed_files() -> None:
    """The generator writes the newest vectors byte for byte; no stray file is left.

    The newest, v3, is being prepared: a difference here is a change to the
    suite, which ``cantstop conform --regenerate`` writes into v3 (list it in
    ``spec/CHANGES.md``); the released versions, v1 and v2, never change.
    """
    generated = generate.generate()
    committed = {p.name for p in VECTORS.glob("*.json")} - {"schema.json"}
    assert committed == set(generated)
    for name, text in generated.items():
        assert (VECTORS / name).read_bytes() == text.encode("utf-8"), (
            f"{name} differs from v{generate.SUITE_VERSION}: write the change into the next "
            "version with cantstop conform --regenerate and list it in spec/CHANGES.md"
        )


def test_every_file_validates_against_the_schema() -> None:
    """Each vector file is valid under ``schema.json`` (JSON Schema 2020-12)."""
    schema = json.loads((VECTORS / "schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sorted(VECTORS.glob("*.json")):
        if path.name != "schema.json":
            data = json.loads(path.read_text(encoding="utf-8"))
            errors = [e.message for e in validator.iter_errors(data)][:3]
            assert not errors, f"{path.name}: {errors}"
            assert data["count"] == len(data["cases"])


def test_the_schema_rejects_a_broken_case() -> None:
    """The schema is not vacuous: a case without rule ids or with a bad event is invalid."""
    schema = json.loads((VECTORS / "schema.json").read_text(encoding="utf-8"))
    good = {
        "id": "apply-1",
        "rules": ["R3.3"],
        "kind": "apply",
        "state": "-/- - 0r",
        "action": "r1234",
        "expect": {"state": "-/- - 0c1234", "event": "rolled"},
    }
    head = {
        "suite": "cantstop-conformance",
        "version": generate.SUITE_VERSION,
        "file": "x",
        "description": "",
        "count": 1,
    }
    jsonschema.validate({**head, "cases": [good]}, schema)
    for bad in (
        {**good, "rules": []},
        {**good, "expect": {"state": "x", "event": "jumped"}},
        {**good, "rules": ["7.1"]},
        {**good, "colour": "red"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**head, "cases": [bad]}, schema)


def test_size_and_ids(cases: list[dict[str, Any]]) -> None:
    """At least 10,000 cases, unique ids, files together under 15 MB."""
    assert len(cases) >= 10_000
    ids = [c["id"] for c in cases]
    assert len(set(ids)) == len(ids)
    assert sum(p.stat().st_size for p in VECTORS.glob("*.json")) < 15_000_000


def test_every_spec_example_is_a_case(cases: list[dict[str, Any]]) -> None:
    """The examples of the spec are all in the suite, with the rules they name."""
    examples = {f"spec-{ex.id}": ex for ex in load_spec().examples}
    got = {c["id"]: c for c in cases if c["kind"] == "example"}
    assert set(got) == set(examples)
    for case_id, ex in examples.items():
        assert set(got[case_id]["rules"]) == set(ex.rules)


def test_every_rule_id_exists(cases: list[dict[str, Any]]) -> None:
    """Every rule id a case names, or expects as an error, is a rule of the spec."""
    rules = set(load_spec().rules)
    for case in cases:
        assert set(case["rules"]) <= rules, case["id"]
        error = case["expect"].get("error")
        assert error is None or error in rules, case["id"]


def test_moves_agree_with_the_independent_implementation(cases: list[dict[str, Any]]) -> None:
    """The expected moves of a sample of cases match ``tests/independent.py``."""
    sample = random.Random(6).sample(_by_kind(cases, "moves-"), 300)
    for case in sample:
        pos = independent.read_state(case["state"])
        dice = tuple(int(d) for d in case["state"].split(" ")[2][2:6])
        want = ["+".join(map(str, m)) for m in independent.legal_moves(pos, dice)]
        assert case["expect"]["moves"] == want, case["id"]


def test_roll_tables_agree_with_the_independent_implementation(
    cases: list[dict[str, Any]],
) -> None:
    """The per-roll tables of a sample of cases match ``tests/independent.py``."""
    for case in random.Random(7).sample(_by_kind(cases, "rolls-"), 10):
        pos = independent.read_state(case["state"])
        for key, moves in case["expect"]["table"].items():
            dice = tuple(int(d) for d in key)
            want = ["+".join(map(str, m)) for m in independent.legal_moves(pos, dice)]
            assert moves == want, (case["id"], key)


def test_perft_counts_agree_with_the_independent_implementation(
    cases: list[dict[str, Any]],
) -> None:
    """Whole-roll counts of a sample of cases match ``tests/independent.py``."""
    for case in random.Random(8).sample(_by_kind(cases, "perft-"), 15):
        choices, busts = independent.whole_roll_counts(independent.read_state(case["state"]))
        assert case["expect"] == {"choices": choices, "busts": busts}, case["id"]


def test_games_agree_with_the_independent_implementation(cases: list[dict[str, Any]]) -> None:
    """Every transition of two whole games matches ``tests/independent.py``."""
    for case in _by_kind(cases, "game-2p-")[:2]:
        state = case["expect"]["start"]
        for action, after in zip(case["actions"], case["expect"]["states"], strict=True):
            pos = independent.read_state(state)
            if action.startswith("r"):
                a, b, c, d = (int(x) for x in action[1:])
                got = independent.roll_result(pos, (a, b, c, d))[0]
            elif action == "stop":
                got = independent.stop_result(pos)
            else:
                got = independent.move_result(pos, tuple(int(c) for c in action.split("+")))
            assert got == after, (case["id"], state, action)
            state = after


def test_reference_port_passes_the_spec_examples(capsys: pytest.CaptureFixture[str]) -> None:
    """``cantstop conform -- cantstop serve`` passes; the last line is the count."""
    status = main(["conform", "--run", "spec-*", "--", *REFERENCE])
    out = capsys.readouterr().out.strip().splitlines()
    assert status == 0
    assert out[-1] == f"{len(load_spec().examples)} passed, 0 failed (suite v3)"


@pytest.mark.skipif(NODE is None, reason=NODE_REASON)
def test_bundled_port_is_the_default(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """With no command, ``cantstop conform`` runs the bundled JavaScript port."""
    report = tmp_path / "report.json"
    status = main(
        ["conform", "--run", "spec-E0*", "--run", "illegal-000*", "--report", str(report)]
    )
    out = capsys.readouterr().out.strip().splitlines()
    assert status == 0
    assert "port.js" in out[0]
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["port"]["name"] == "cantstop JavaScript port"
    assert data["summary"]["failed"] == 0
    assert out[-1] == f"{data['summary']['passed']} passed, 0 failed (suite v3)"
    assert all(c["id"].startswith(("spec-E0", "illegal-000")) for c in data["cases"])


def test_run_and_skip_globs(cases: list[dict[str, Any]]) -> None:
    """``--run`` keeps matching ids (all when absent); ``--skip`` removes matching ids."""
    picked = harness.select(cases, ["spec-E00*"], ["spec-E001"])
    ids = {c["id"] for c in picked}
    assert ids == {c["id"] for c in cases if c["id"].startswith("spec-E00")} - {"spec-E001"}
    assert len(harness.select(cases, [], [])) == len(cases)


def test_unsupported_options_are_skipped(tmp_path: Path) -> None:
    """A port that supports only two players skips the cases needing more, and says so."""
    script = tmp_path / "two_players.py"
    script.write_text(
        "import json, sys\n"
        "from cantstop.conformance.serve import handle\n"
        "for line in sys.stdin:\n"
        "    q = json.loads(line)\n"
        "    a = handle(q)\n"
        "    if q.get('op') == 'hello':\n"
        "        a['supports'] = {'players': [2], 'variants': [], 'heights': False}\n"
        "    print(json.dumps(a), flush=True)\n",
        encoding="utf-8",
    )
    all_cases = harness.load_cases(VECTORS)
    chosen = [c for c in all_cases if c["id"] in ("game-2p-01", "game-3p-B-01", "game-tiny-01")]
    run = harness.run_suite([sys.executable, str(script)], chosen)
    assert [r.status for r in run.results] == ["passed", "skipped", "skipped"]
    assert run.ok
    assert list(run.summary_lines())[-1] == "1 passed, 0 failed"


def _protocol_exchanges() -> list[tuple[str, str]]:
    """Return the (request, response) line pairs shown in ``spec/protocol.md``."""
    text = (VECTORS.parents[1] / "protocol.md").read_text(encoding="utf-8")
    pairs = []
    blocks = re.findall(r"^```(\S*)\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)
    for info, block in blocks:
        lines = block.strip().splitlines()
        if not info and lines and lines[0].startswith('{"seq"'):
            assert len(lines) % 2 == 0, lines
            pairs += list(zip(lines[::2], lines[1::2], strict=True))
    return pairs


def _without_messages(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_messages(v) for k, v in value.items() if k not in ("message", "name")}
    return value


@pytest.mark.parametrize(
    "port",
    [
        pytest.param(REFERENCE, id="reference"),
        pytest.param(
            [NODE or "node", str(VECTORS.parents[2] / "examples/ports/javascript/port.js")],
            id="javascript",
            marks=pytest.mark.skipif(NODE is None, reason=NODE_REASON),
        ),
    ],
)
def test_the_protocol_examples_are_what_the_ports_answer(port: list[str]) -> None:
    """Both ports answer every exchange of ``spec/protocol.md`` as shown (but for free text)."""
    pairs = _protocol_exchanges()
    assert len(pairs) >= 15
    requests = "".join(request + "\n" for request, _ in pairs)
    done = subprocess.run(port, input=requests, capture_output=True, text=True, check=True)
    answers = done.stdout.splitlines()
    assert len(answers) == len(pairs)
    for (request, shown), answer in zip(pairs, answers, strict=True):
        if "..." in shown:
            assert json.dumps(json.loads(answer)).startswith(shown.split("...")[0]), request
        else:
            assert _without_messages(json.loads(answer)) == _without_messages(json.loads(shown))


#: Lines that are not requests, each answered with ``seq: null`` and ``rule: null``.
NOT_REQUESTS = [
    "",
    "   ",
    '{"seq": "7", "op": "hello"}',
    '{"seq": 1.5, "op": "hello"}',
    '{"seq": true, "op": "hello"}',
    '{"seq": 1e999, "op": "hello"}',
    '{"op": "hello"}',
    '{"op": "quit"}',
    "[1]",
    '"hello"',
    '{"seq": 16, "op"',
]


@pytest.mark.parametrize(
    "port",
    [
        pytest.param(REFERENCE, id="reference"),
        pytest.param(
            [NODE or "node", str(VECTORS.parents[2] / "examples/ports/javascript/port.js")],
            id="javascript",
            marks=pytest.mark.skipif(NODE is None, reason=NODE_REASON),
        ),
    ],
)
def test_both_ports_answer_every_line(port: list[str]) -> None:
    """Each line that is not a request gets one answer with seq null (spec/protocol.md, Lines)."""
    text = "".join(line + "\n" for line in NOT_REQUESTS) + '{"seq": 3, "op": "quit"}\n'
    done = subprocess.run(port, input=text, capture_output=True, text=True, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(NOT_REQUESTS) + 1
    for line, answer in zip(NOT_REQUESTS, answers, strict=False):
        assert answer["seq"] is None, line
        assert answer["ok"] is False, line
        assert answer["error"]["rule"] is None, line
    assert answers[-1] == {"seq": 3, "ok": True}
