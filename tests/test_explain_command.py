"""``cantstop explain``: text and JSON, refusals on stderr, errors worded as for every command."""

from __future__ import annotations

import json

import pytest

from cantstop import explain, parse_state
from cantstop.cli import main


def test_the_command_prints_the_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "7:2/- - 0c3455"]) == 0
    assert capsys.readouterr().out == explain(parse_state("7:2/- - 0c3455")).text()


def test_the_command_prints_the_canonical_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "7:2/- 7:3,10:1 0d", "r2346", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("}\n")
    assert out.count("\n") == 1
    data = json.loads(out)
    assert data["action"] == "r2346"
    assert data["legal"] is True
    assert data["moves"] == ["5+10", "6", "7+8", "9"]


def test_an_illegal_action_is_explained_and_reported_with_exit_status_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The explanation goes to stdout; the refusal, with its rule, is the error line on stderr."""
    assert main(["explain", "-/7:13 - 0c3455", "7+10"]) == 1
    captured = capsys.readouterr()
    refusal = "7+10 is not legal: 7 cannot be played, because column 7 has been won by player 1"
    assert refusal in captured.out
    assert captured.err == f"cantstop explain: error: {refusal} (rule R9.2)\n"
    assert main(["explain", "-/7:13 - 0c3455", "7+10", "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["legal"] is False
    assert captured.err == f"cantstop explain: error: {refusal} (rule R9.2)\n"


def test_bad_notation_is_worded_as_show_words_it(capsys: pytest.CaptureFixture[str]) -> None:
    """A state in bad notation is the same one line, and the same status, as ``show`` gives."""
    for text in ("7:2/- 7:99 0d", "-/- - 9r", "7:2/- 7:99 0d" + "x" * 120_000):
        assert main(["show", text]) == 1
        shown = capsys.readouterr().err
        assert main(["explain", text]) == 1
        explained = capsys.readouterr().err
        assert explained == shown.replace("cantstop show:", "cantstop explain:", 1)
        assert explained.count("\n") == 1
        assert len(explained) < 300
    assert main(["explain", "-/- - 0r", "7+10+3"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cantstop explain: error: at position 4: ")
    assert err.endswith("(rule N2.1)\n")


def test_stdin_is_a_usage_error_as_for_show(capsys: pytest.CaptureFixture[str]) -> None:
    """``explain -`` is refused with status 2, as ``show -`` and ``moves -`` are."""
    assert main(["explain", "-"]) == 2
    assert capsys.readouterr().err == (
        "cantstop explain: error: give the state in notation as an argument; stdin is not read\n"
    )


def test_a_missing_state_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cantstop explain: error: ")
    assert "state" in err
