"""Records of any game (``dicekit/record.py``) on the toy game; ``cantstop verify`` for every game.

A record of the toy game is written, read back and replayed; every claim is
checked, and each kind of bad line is reported at its number with the rules
the game's tags give.  ``cantstop verify`` reads the game from the header:
a record of the finish-line race verifies as one, and a record without a
``game`` field is a Can't Stop record.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from cantstop.cli import main
from dicekit import record
from dicekit.conformance.pool import Setup, play_game
from dicekit.record import RecordError, header_game, read_record, replay, write_record
from finishline import GAME as FINISHLINE
from tests.dicekit.toy import TOY, Hold, Roll

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "records" / "sample-game.jsonl"


def _game(seed: int, players: int = 2) -> list[Any]:
    """Return the actions of a random toy game drawn from ``seed``."""
    setup = Setup("x", TOY.config(players), players)
    return [move.action for move in play_game(TOY, setup, random.Random(seed), 500)]


def _written(actions: list[Any], first: int = 0, claims: bool = True) -> list[str]:
    out = io.StringIO()
    write_record(out, TOY, TOY.config(2), actions, first_player=first, claims=claims)
    return out.getvalue().splitlines()


def _replayed(lines: list[str]) -> tuple[str, int]:
    final, count = replay(TOY, io.StringIO("\n".join(lines) + "\n"))
    return TOY.format_state(final), count


def _error(lines: list[str]) -> RecordError:
    with pytest.raises(RecordError) as info:
        _replayed(lines)
    return info.value


def test_records_round_trip_with_and_without_claims() -> None:
    """Twenty random games: written, read back action by action, replayed to the same end."""
    for seed in range(20):
        actions = _game(seed)
        for claims in (True, False):
            lines = _written(actions, claims=claims)
            header, read = read_record(TOY, io.StringIO("\n".join(lines)))
            assert (header.game, header.config, header.first_player) == ("toy", TOY.config(2), 0)
            assert [line.action for line in read] == actions
            state = TOY.new_game(TOY.config(2))
            for action in actions:
                state = TOY.apply(state, action)
            assert _replayed(lines) == (TOY.format_state(state), len(actions))


def test_the_header_names_the_format_the_game_its_configuration_and_first_player() -> None:
    """The header line as written, and each action line's claims as the rules give them."""
    lines = _written([Roll(5), Hold(), Roll(1)], first=1)
    assert json.loads(lines[0]) == {
        "record": "dicekit",
        "version": 1,
        "game": "toy",
        "config": {},
        "first_player": 1,
    }
    # Player 1 rolls 5 and holds it; player 0 rolls a 1: the turn passes back (R2.2).
    assert [json.loads(line) for line in lines[1:]] == [
        {
            "action": {"type": "roll", "die": 5},
            "state": "0,0/5/1d",
            "event": "rolled",
            "moves": ["hold"],
        },
        {"action": {"type": "hold"}, "state": "0,5/0/0r", "event": "held", "moves": []},
        {"action": {"type": "roll", "die": 1}, "state": "0,5/0/1r", "event": "busted", "moves": []},
    ]


def test_an_illegal_action_names_its_line_rule_state_and_alternatives() -> None:
    """A hold before any roll: line 2, R2.5, the opening state, and chance's six faces."""
    lines = _written([])
    lines.append('{"action": {"type": "hold"}}')
    error = _error(lines)
    assert (error.line, error.rules, error.state_text) == (2, ("R2.5",), "0,0/0/0r")
    assert error.alternatives == ("r1", "r2", "r3", "r4", "r5", "r6")


@pytest.mark.parametrize(
    ("claim", "value", "reason", "rules"),
    [
        (
            "state",
            "0,0/4/0d",
            "after r5 the state is '0,0/5/0d', not the claimed",
            ("R2.1", "R2.3"),
        ),
        (
            "event",
            "busted",
            "claims the event \"busted\" for r5, but it is 'rolled'",
            ("R2.1", "R2.3"),
        ),
        (
            "moves",
            [],
            "the claimed legal actions after r5 are wrong: missing hold",
            ("R2.1", "R2.4"),
        ),
        ("state", "0,0/5/0q", "the claimed state is not valid notation", ("N1.1",)),
    ],
)
def test_a_false_claim_names_the_rules_of_its_answer(
    claim: str, value: object, reason: str, rules: tuple[str, ...]
) -> None:
    """Each claim is checked; a false one names the rules the game's tags give for it."""
    lines = _written([Roll(5)])
    line = json.loads(lines[1])
    line[claim] = value
    error = _error([lines[0], json.dumps(line)])
    assert error.line == 2
    assert reason in error.reason
    assert error.rules == rules


@pytest.mark.parametrize(
    ("header", "reason", "rules"),
    [
        ('{"record": "cantstop", "version": 1}', 'the header {"record": "dicekit", ...}', ()),
        ('{"record": "dicekit", "version": 2, "game": "toy"}', "record version 2", ()),
        (
            '{"record": "dicekit", "version": 1, "game": "toy", "seed": 1}',
            'unknown fields "seed"',
            (),
        ),
        ('{"record": "dicekit", "version": 1, "game": "tower"}', 'of the game "tower", not', ()),
        (
            '{"record": "dicekit", "version": 1, "game": "toy", "config": {"players": 9}}',
            "bad setup",
            ("R1.1",),
        ),
        (
            '{"record": "dicekit", "version": 1, "game": "toy", "first_player": 4}',
            "bad setup",
            ("R1.3",),
        ),
        ("[]", "a record line is a JSON object, not []", ()),
    ],
)
def test_a_bad_header_is_refused_on_line_1(
    header: str, reason: str, rules: tuple[str, ...]
) -> None:
    """Each malformed header is named on its line, with the setup rule it breaks."""
    error = _error([header])
    assert error.line == 1
    assert reason in error.reason
    assert error.rules == rules


def test_bad_action_lines_are_named_at_their_line() -> None:
    """Unknown fields, a missing action, a bad action form, a claim of the wrong type."""
    header = _written([])[0]
    for line, reason in [
        ('{"action": {"type": "hold"}, "bust": true}', 'unknown fields "bust"'),
        ('{"state": "0,0/0/0r"}', "needs an 'action' field"),
        ('{"action": {"type": "roll", "die": 7}}', "bad action"),
        ('{"action": {"type": "roll", "die": 2}, "moves": "hold"}', "list of actions"),
    ]:
        error = _error([header, "", line])
        assert (error.line, reason in error.reason) == (3, True), line


def test_the_header_says_which_game_and_cant_stops_records_name_none() -> None:
    """header_game reads the first line only; a record without game is Can't Stop's."""
    assert header_game(io.StringIO("\n".join(_written([Roll(3)])))) == "toy"
    with SAMPLE.open("rb") as file:
        assert header_game(file) is None
    assert header_game(io.StringIO("not json")) is None  # its reader will say what is wrong
    with pytest.raises(RecordError, match="a game's name, not 5"):
        header_game(io.StringIO('{"record": "dicekit", "game": 5}'))


# -- cantstop verify, for every game --------------------------------------------------------


def _finishline_record(tmp_path: Path, seed: int = 4) -> Path:
    setup = Setup("2p", FINISHLINE.config(2), 2)
    actions = [move.action for move in play_game(FINISHLINE, setup, random.Random(seed), 60)]
    path = tmp_path / "race.jsonl"
    with path.open("w", encoding="utf-8") as file:
        write_record(file, FINISHLINE, setup.config, actions)
    return path


def test_verify_reads_the_game_from_the_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A finish-line record verifies with or without --game; the final state is the game's."""
    path = _finishline_record(tmp_path)
    with path.open("rb") as file:
        final, count = replay(FINISHLINE, file)
    shown = FINISHLINE.format_state(final)
    for extra in ([], ["--game", "finishline"]):
        assert main(["verify", *extra, str(path)]) == 0
        out = capsys.readouterr().out
        assert out == f"race.jsonl: valid: {count} actions; final state {shown!r}\n"


def test_verify_names_the_line_and_rule_of_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tampered finish-line record fails at its line with the rule: status 1, one stderr line."""
    path = _finishline_record(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[1])["action"]["type"] == "roll"
    lines[1] = json.dumps({"action": {"type": "roll", "dice": [9, 9]}})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("race.jsonl:2: bad action: ")
    assert captured.out.splitlines()[0].endswith("(rule R4.1)")
    assert captured.err.startswith("cantstop verify: error: race.jsonl:2: bad action: ")
    assert captured.err.count("\n") == 1


def test_verify_refuses_a_game_option_the_header_contradicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--game must agree with the header: a usage error, status 2, for either kind of record."""
    path = _finishline_record(tmp_path)
    assert main(["verify", "--game", "tower", str(path)]) == 2
    assert capsys.readouterr().err == (
        "cantstop verify: error: --game tower, but the header of race.jsonl names the game "
        "'finishline'\n"
    )
    assert main(["verify", "--game", "finishline", str(SAMPLE)]) == 2
    assert "names no game (a Can't Stop record)" in capsys.readouterr().err
    assert main(["verify", "--game", "cantstop", str(SAMPLE)]) == 0


@pytest.mark.parametrize("game", ["finishline", "tower"])
@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "the record is empty"),
        (b'{"record": "dicekit", "ga', "not valid JSON"),
        (b"\xff\xfe{}\n", "UTF-8"),
        (b"[1, 2]\n", "object"),
    ],
    ids=["empty", "truncated", "undecodable", "not-an-object"],
)
def test_verify_with_a_game_blames_an_unreadable_header_on_line_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, content: bytes, reason: str
) -> None:
    """A header that cannot be read is the record's fault (status 1, line 1), with --game too.

    Without --game the same file is refused the same way; --game only says which
    game's reader reports it, and cannot contradict a header that says nothing.
    """
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    assert main(["verify", "--game", game, str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("bad.jsonl:1: ")
    assert reason in captured.out
    assert captured.err == f"cantstop verify: error: {captured.out.splitlines()[0]}\n"
    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.startswith("bad.jsonl:1: ")


def test_read_header_tells_an_unreadable_header_from_one_without_a_game() -> None:
    """(readable, game): a header without 'game' is readable; an empty record or bad line is not."""
    assert record.read_header(io.BytesIO(b"\n  \n{}\n")) == (True, None)
    assert record.read_header(io.BytesIO(b'{"game": "tower"}\n')) == (True, "tower")
    assert record.read_header(io.BytesIO(b"")) == (False, None)
    assert record.read_header(io.BytesIO(b"{oops\n")) == (False, None)


def test_the_error_is_printed_once_when_output_and_errors_share_a_file(tmp_path: Path) -> None:
    """A verify 2>&1 (or a terminal showing both) shows the bad line once; apart, it is on each."""
    import subprocess
    import sys

    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"[1]\n")
    command = [sys.executable, "-m", "cantstop", "verify", str(path)]
    both = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    assert both.returncode == 1
    assert both.stdout.decode().count("bad.jsonl:1:") == 1
    apart = subprocess.run(command, capture_output=True, check=False)
    assert apart.stdout.decode().count("bad.jsonl:1:") == 1
    assert apart.stderr.decode().startswith("cantstop verify: error: bad.jsonl:1:")


def test_verify_refuses_a_game_it_does_not_have(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record of the toy game (not in the command line's registry) is invalid here: status 1."""
    path = tmp_path / "toy.jsonl"
    path.write_text("\n".join(_written([Roll(2)])) + "\n", encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("toy.jsonl:1: the header names the game 'toy'; the games are ")
    assert captured.err.startswith("cantstop verify: error: toy.jsonl:1: ")


def test_the_layer_verifier_reports_like_cantstop_verify(tmp_path: Path) -> None:
    """dicekit.record.verify_record prints the verdict and the state and alternatives."""
    path = tmp_path / "toy.jsonl"
    path.write_text("\n".join([*_written([]), '{"action": {"type": "hold"}}']) + "\n")
    out, err = io.StringIO(), io.StringIO()
    assert record.verify_record(TOY, path, out, err, program="toy verify") == 1
    assert out.getvalue().splitlines() == [
        "toy.jsonl:2: there are no points to hold (rule R2.5)",
        "  state: 0,0/0/0r",
        "  legal: r1 r2 r3 r4 r5 r6",
    ]
    assert (
        err.getvalue()
        == "toy verify: error: toy.jsonl:2: there are no points to hold (rule R2.5)\n"
    )


#: Characters that are white space to Python but not to JSON (RFC 8259).
NOT_JSON_SPACE = ["\x0c", "\x0b", "\xa0", "\x85", "\u2028", "\u3000"]


@pytest.mark.parametrize("odd", NOT_JSON_SPACE, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("kind", ["layer", "cantstop"])
def test_a_line_of_other_white_space_is_refused_as_serve_refuses_it(
    kind: str, odd: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only JSON's white space makes a blank line: verify and serve refuse the same line."""
    if kind == "layer":
        path = _finishline_record(tmp_path)
    else:
        path = tmp_path / "race.jsonl"
        path.write_bytes(SAMPLE.read_bytes())
    lines = path.read_text(encoding="utf-8").split("\n")
    blank = [*lines[:2], " \t\r", *lines[2:]]
    path.write_text("\n".join(blank), encoding="utf-8")
    assert main(["verify", str(path)]) == 0  # spaces, tabs and a carriage return: skipped
    capsys.readouterr()
    path.write_text("\n".join([*lines[:2], odd, *lines[2:]]), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cantstop verify: error: race.jsonl:3: not valid JSON at column 1"), err
    from dicekit.conformance.serve import serve

    out = io.StringIO()
    serve(lambda request: {}, io.BytesIO((odd + "\n").encode()), out)
    assert "not JSON" in out.getvalue()
