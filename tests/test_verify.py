"""``cantstop verify``: the bundled record, tampered records, malformed lines, constant memory."""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path

import pytest

from cantstop import Action, Move, Phase, Roll, Rules, Stop, new_game
from cantstop.cli import main
from cantstop.conformance import sample
from cantstop.conformance.verify import verify_record
from cantstop.record import RecordWriter

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "records" / "sample-game.jsonl"


def run_verify(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    status = main(["verify", str(path)])
    return status, capsys.readouterr().out.strip().splitlines()


def tampered(tmp_path: Path, edits: dict[int, str | None]) -> Path:
    """Copy the sample with some lines (1-based) replaced, or removed when ``None``."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    out: list[str] = []
    for number, line in enumerate(lines, start=1):
        new = edits.get(number, line)
        if new is not None:
            out.append(new)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def test_the_bundled_record_verifies(capsys: pytest.CaptureFixture[str]) -> None:
    """The sample record is a whole valid game: exit 0 and a game that is over."""
    status, out = run_verify(SAMPLE, capsys)
    assert status == 0
    assert out[-1].startswith("sample-game.jsonl: valid: ")
    assert out[-1].endswith(" 0x'")


def test_the_bundled_record_is_what_its_command_writes(tmp_path: Path) -> None:
    """``python -m cantstop.conformance.sample`` writes the bundled record again, byte for byte."""
    path = tmp_path / "again.jsonl"
    assert sample.main([str(path)]) == 0
    assert path.read_bytes() == SAMPLE.read_bytes()


def test_the_sample_opening_is_as_recorded() -> None:
    """Line 2 rolls 1-3-5-5: pairings 4+10 and 6+8 twice (R4.2), so two moves, no bust."""
    line = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[1])
    assert line["action"] == {"type": "roll", "dice": [1, 3, 5, 5]}
    assert line["moves"] == ["4+10", "6+8"]
    assert line["bust"] is False


def test_a_tampered_roll_is_rejected_at_the_next_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dice changed to 1-1-1-1 (claims removed) make line 3's 6+8 illegal: R4.3, legal 2+2."""
    path = tampered(tmp_path, {2: '{"action":{"type":"roll","dice":[1,1,1,1]}}'})
    status, out = run_verify(path, capsys)
    assert status == 1
    assert out[0].startswith("game.jsonl:3: 6+8 is not legal: ")
    assert out[0].endswith("(rule R4.3)")
    assert out[1] == "  state: -/- - 0c1111"
    assert out[2] == "  legal: 2+2"


def test_a_tampered_roll_with_claims_is_rejected_at_its_own_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same tampering with the claims left in fails on line 2: the claimed moves are wrong."""
    original = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[1])
    original["action"]["dice"] = [1, 1, 1, 1]
    del original["state"]
    path = tampered(tmp_path, {2: json.dumps(original)})
    status, out = run_verify(path, capsys)
    assert status == 1
    assert out[0].startswith("game.jsonl:2: the claimed legal moves after r1111 are wrong")
    assert "(rule R6.6)" in out[0]


def test_a_removed_line_is_caught(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without the move on line 3, line 4 (a roll or stop) comes while choosing: R3.3."""
    path = tampered(tmp_path, {3: None})
    status, out = run_verify(path, capsys)
    assert status == 1
    assert out[0].startswith("game.jsonl:3: ")
    assert "(rule R3.3)" in out[0]
    assert out[2] == "  legal: 4+10 6+8"


def test_a_malformed_line_names_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line that is not JSON gets a clear error with its line number and exit status 1."""
    path = tampered(tmp_path, {5: '{"action": {"type": "stop"'})
    status, out = run_verify(path, capsys)
    assert status == 1
    assert out == [out[0]]
    assert out[0].startswith("game.jsonl:5: not valid JSON")


def test_a_wrong_state_claim_is_caught(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A claimed state that differs from the replay is reported at its line."""
    line = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[2])
    line["state"] = "-/- 6:2,8:1 0d"
    status, out = run_verify(tampered(tmp_path, {3: json.dumps(line)}), capsys)
    assert status == 1
    assert out[0] == (
        "game.jsonl:3: after 6+8 the state is '-/- 6:1,8:1 0d', not the claimed '-/- 6:2,8:1 0d'"
    )


def test_missing_file_and_binary_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing file is a usage error (2); bytes that are not UTF-8 are an invalid record (1)."""
    assert main(["verify", str(tmp_path / "absent.jsonl")]) == 2
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage\n")
    status, out = run_verify(binary, capsys)
    assert status == 1
    assert out[0].startswith("binary.jsonl:1: not UTF-8 text: byte 0xff at byte 1 of the line ")


def test_a_bad_byte_deep_in_the_record_names_its_line_and_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A byte that is not UTF-8 on line 40 is reported there, at its offset in the file."""
    data = SAMPLE.read_bytes()
    starts = [0] + [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    offset = starts[39] + 5  # the sixth byte of line 40
    path = tmp_path / "game.jsonl"
    path.write_bytes(data[:offset] + b"\xc3(" + data[offset + 2 :])
    status, out = run_verify(path, capsys)
    assert status == 1
    assert out == [
        f"game.jsonl:40: not UTF-8 text: byte 0xc3 at byte 6 of the line (offset {offset} "
        "in the file): invalid continuation byte"
    ]


def test_the_legal_moves_are_listed_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An illegal move's report lists the legal moves on its 'legal:' line only."""
    original = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[2])
    original["action"]["columns"] = [4]  # after 1-3-5-5, 4 alone drops the 10 (R6.1)
    del original["state"]
    status, out = run_verify(tampered(tmp_path, {3: json.dumps(original)}), capsys)
    assert status == 1
    assert out[0] == (
        "game.jsonl:3: 4 is not legal: pairing 1 makes 4 with 10, and both can be played "
        "together, so 4 alone is not allowed (rule R6.1)"
    )
    assert out[2] == "  legal: 4+10 6+8"
    assert sum(line.count("4+10") for line in out) == 1


def test_one_action_is_one_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record of one action says '1 action', not '1 actions'."""
    path = tampered(tmp_path, {})
    path.write_text("\n".join(SAMPLE.read_text(encoding="utf-8").splitlines()[:2]) + "\n")
    status, out = run_verify(path, capsys)
    assert status == 0
    assert out[0].startswith("game.jsonl: valid: 1 action; ")


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ('{"record":"cantstop","version":true,"rules":{}}', "record version true"),
        ('{"action":' + "[" * 3000 + "]" * 3000 + "}", "nested too deeply"),
        ('{"action":{"type":"stop"},"x":' + "7" * 5000 + "}", "more than 4,300 digits"),
        ('{"action":{"type":"roll","dice":[NaN,1,1,1]}}', "NaN is not a JSON number"),
    ],
)
def test_hostile_lines_are_reported_at_their_line(
    line: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A boolean version, deep nesting, a huge number or NaN: exit 1 and the line named."""
    number = 1 if line.startswith('{"record"') else 2
    status, out = run_verify(tampered(tmp_path, {number: line}), capsys)
    assert status == 1
    assert out[0].startswith(f"game.jsonl:{number}: ")
    assert fragment in out[0]


def _long_record(path: Path, turns: int) -> None:
    """Write a solitaire game on one tall column: ``turns`` times roll 1-1-1-2, play 2, stop."""
    rules = Rules(players=1, columns_to_win=1, heights={2: 999})
    state = new_game(rules)
    with path.open("w", encoding="utf-8") as file:
        writer = RecordWriter(file, rules)
        for _ in range(turns):
            actions: list[Action] = [Roll((1, 1, 1, 2)), Move((2,)), Stop()]
            for action in actions:
                state = state.apply(action)
                writer.append(action, state)
            assert state.phase is Phase.ROLL


def _peak_memory(path: Path) -> int:
    tracemalloc.start()
    try:
        assert verify_record(path, io.StringIO()) == 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_verifying_streams_in_constant_memory(tmp_path: Path) -> None:
    """Peak memory barely moves when the record is nine times longer (300 to 2700 lines).

    Holding the lines would take far more than the bound: the longer record alone
    is over 200 kB of text.
    """
    short, long = tmp_path / "short.jsonl", tmp_path / "long.jsonl"
    _long_record(short, 100)
    _long_record(long, 900)
    assert long.stat().st_size > 200_000
    # A first pass fills the interpreter's free lists, which tracemalloc counts as in use.
    _peak_memory(long)
    assert _peak_memory(long) - _peak_memory(short) < 16_000


def _record_md_blocks() -> list[list[str]]:
    """Return the fenced blocks of ``spec/record.md`` that start with a header line."""
    text = (SAMPLE.parents[2] / "spec" / "record.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip().splitlines() for b in text.split("```\n")[1::2]]
    return [b for b in blocks if b and b[0].startswith('{"record"')]


def test_the_examples_of_the_record_format_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The records shown in ``spec/record.md`` are valid, and the tampering it shows fails so."""
    blocks = _record_md_blocks()
    # The header, a header with the optional play field, a game; a finish-line race's opening.
    assert len(blocks) == 4
    assert '"game":"finishline"' in blocks[3][0]
    for index, block in enumerate(blocks):
        path = tmp_path / f"record{index}.jsonl"
        path.write_text("\n".join(block) + "\n", encoding="utf-8")
        assert run_verify(path, capsys)[0] == 0
    game = blocks[2]
    path = tmp_path / "GAME.jsonl"
    path.write_text(
        "\n".join([game[0], '{"action":{"type":"roll","dice":[1,1,1,1]}}', *game[2:]]) + "\n",
        encoding="utf-8",
    )
    status, out = run_verify(path, capsys)
    assert status == 1
    assert (
        out[0]
        == "GAME.jsonl:3: 7+10 is not legal: no pairing of 1-1-1-1 makes 7 and 10 (rule R4.3)"
    )
    assert out[1:] == ["  state: -/- - 0c1111", "  legal: 2+2"]
