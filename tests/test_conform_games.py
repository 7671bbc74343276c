"""``cantstop conform``, ``serve`` and ``verify`` for every game: ``--game``, and hello naming it.

The finish-line race stands for "another game" here: its three exchanges of
``finishline/spec/protocol.md`` make a small suite of its own, which its
reference port (``cantstop serve --game finishline``) and its JavaScript port
both pass, and which the summary names.  A port of one game is refused by the
suite of another before any case runs.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cantstop.cli import main
from dicekit.conformance import vectors
from dicekit.conformance.vectorfiles import render
from tests.extras import NODE_REASON

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
SERVE = [sys.executable, "-m", "cantstop", "serve"]
FINISHLINE_PORT = [NODE or "node", str(ROOT / "finishline" / "ports" / "javascript" / "port.js")]

#: The exchanges of ``finishline/spec/protocol.md``, as cases of the generic kinds.
FINISHLINE_CASES = [
    {
        "id": "new-00001",
        "rules": ["R2.4"],
        "kind": "new",
        "needs": ["players=3"],
        "new": {"config": {"players": 3}, "first_player": 2},
        "expect": {"state": "..../..../..../..../..../.... 0/0/0 2r"},
    },
    {
        "id": "illegal-00001",
        "rules": ["R4.5"],
        "kind": "apply",
        "needs": ["players=2"],
        "state": "..../..0./..../..../01../...1 0/0 0c24",
        "action": "C2^",
        "expect": {"error": "R4.5"},
    },
    {
        "id": "apply-00001",
        "rules": ["R3.3"],
        "kind": "apply",
        "needs": ["players=2"],
        "state": "..../1.../0.../..../..../.... 5/0 0r",
        "action": "r53",
        "expect": {"state": "..../1.../0.../..../..../.... 5/0 1r", "event": "forfeited"},
    },
]


@pytest.fixture
def finishline_suite(tmp_path: Path) -> Path:
    """Write the three cases as version 1 of a finish-line suite; return its folder."""
    folder = tmp_path / "v1"
    folder.mkdir()
    text = render(
        "finishline-conformance",
        1,
        "protocol",
        "the exchanges of its protocol page",
        FINISHLINE_CASES,
    )
    (folder / "protocol.json").write_text(text, encoding="utf-8")
    return folder


def _exchange(command: list[str], *requests: dict[str, object]) -> list[dict[str, object]]:
    lines = "".join(json.dumps({"seq": n, **r}) + "\n" for n, r in enumerate(requests, start=1))
    done = subprocess.run(
        command, input=lines, capture_output=True, text=True, check=True, cwd=ROOT
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_serve_answers_for_the_game_it_is_given() -> None:
    """``serve --game finishline`` names its game in hello and answers the generic ops by rule."""
    hello, moves, chance = _exchange(
        [*SERVE, "--game", "finishline"],
        {"op": "hello", "protocol": 1, "game": "finishline", "suite_version": 1},
        {"op": "apply", "state": "..../1.../0.../..../..../.... 5/0 0r", "action": "r53"},
        {"op": "chance", "state": "..../..../..../..../..../.... 0/0 0r"},
    )
    assert hello["game"] == "finishline"
    assert hello["supports"] == {"players": [2, 3, 4]}
    assert (moves["state"], moves["event"]) == ("..../1.../0.../..../..../.... 5/0 1r", "forfeited")
    outcomes = chance["outcomes"]
    assert isinstance(outcomes, list)
    # Two dice: 6 doubles of 1/36 and 15 other pairs of 2/36 (1/18) each, whatever their order.
    assert sorted(tuple(o["p"]) for o in outcomes) == [(1, 18)] * 15 + [(1, 36)] * 6


def test_cant_stops_serve_names_its_game_and_keeps_its_answers() -> None:
    """Can't Stop's reference port now says it is Can't Stop; moves stay the moves of a roll."""
    hello, moves, decide = _exchange(
        SERVE,
        {"op": "hello", "protocol": 1},
        {"op": "moves", "state": "-/- - 0c3455"},
        {"op": "moves", "state": "-/- 7:1 0d"},
    )
    assert (hello["game"], hello["name"]) == ("cantstop", "cantstop reference engine (Python)")
    assert moves["moves"] == ["7+10", "8+9"]
    assert decide["moves"] == []  # a stop is not a move (R3.4): empty outside CHOOSE


@pytest.mark.parametrize(
    "port",
    [
        pytest.param([*SERVE, "--game", "finishline"], id="reference"),
        pytest.param(
            FINISHLINE_PORT,
            id="javascript",
            marks=pytest.mark.skipif(NODE is None, reason=NODE_REASON),
        ),
    ],
)
def test_conform_runs_another_games_suite_and_names_it(
    port: list[str], finishline_suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both finish-line ports pass its small suite; the output names the game and the version."""
    status = main(
        ["conform", "--game", "finishline", "--vectors", str(finishline_suite), "--", *port]
    )
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert out[0].startswith("Running 3 cases of finishline suite v1 against: ")
    assert out[-1] == "3 passed, 0 failed (finishline suite v1)"


def test_a_port_of_another_game_stops_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    """Can't Stop's suite against the finish-line port: one error line, status 2, no case run."""
    status = main(["conform", "--run", "spec-E001", "--", *SERVE, "--game", "finishline"])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.count("\n") == 1
    assert "it implements the game 'finishline', not 'cantstop'" in captured.err
    assert "passed" not in captured.out


def test_a_game_without_vectors_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No version folder: status 2, and the way to write them, before any port starts."""
    monkeypatch.setattr(vectors, "suite_root", lambda game: tmp_path / "none")
    status = main(["conform", "--game", "tower", "--", sys.executable, "-c", "raise SystemExit(3)"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("cantstop conform: error: Off to the Tower has no conformance vectors")
    assert err.rstrip().endswith("cantstop conform --game tower --regenerate")


def test_the_mutants_are_cant_stops(capsys: pytest.CaptureFixture[str]) -> None:
    """``serve --mutant`` seeds Can't Stop's bugs: with another game it is a usage error."""
    assert main(["serve", "--game", "tower", "--mutant", "two-pairings"]) == 2
    assert capsys.readouterr().err == (
        "cantstop serve: error: --mutant seeds bugs in Can't Stop's rules, not in tower's\n"
    )


def test_an_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """--game takes the names of the registry; another is refused with the list."""
    for command in (["conform", "--game", "chess"], ["serve", "--game", "chess"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"cantstop {command[0]}: error: ")
        assert "chess" in err


def test_regenerating_a_released_version_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--regenerate into a frozen version is refused before a file is written: status 2."""
    v1 = ROOT / "spec" / "conformance" / "v1"
    assert main(["conform", "--regenerate", "--vectors", str(v1)]) == 2
    assert "is a released version of the suite, which is frozen" in capsys.readouterr().err


def test_the_reference_ports_own_exchanges_are_what_it_answers() -> None:
    """The exchanges of spec/protocol.md only the reference port speaks (``text`` blocks)."""
    text = (ROOT / "spec" / "protocol.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```text\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)
    lines = [line for block in blocks for line in block.strip().splitlines()]
    assert lines
    assert len(lines) % 2 == 0
    pairs = list(zip(lines[::2], lines[1::2], strict=True))
    requests = [json.loads(request) for request, _ in pairs]
    answers = _exchange(SERVE, *({k: v for k, v in r.items() if k != "seq"} for r in requests))
    for (request, shown), answer in zip(pairs, answers, strict=True):
        answer["seq"] = json.loads(request)["seq"]
        assert json.dumps(answer).startswith(shown.split("...")[0].rstrip(", ")), request
