"""``cantstop serve`` answers every line, however hostile, with its documented error."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cantstop.conformance.serve import handle, serve

ROOT = Path(__file__).resolve().parent.parent


def _strict(text: str) -> Any:
    """Read an answer as strict JSON: ``NaN`` and ``Infinity`` are refused."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def _serve(lines: list[bytes]) -> list[Any]:
    """Return the answers of :func:`serve` to ``lines``, each read as strict JSON."""
    out = io.StringIO()
    assert serve(io.BytesIO(b"".join(line + b"\n" for line in lines)), out) == 0
    return [_strict(text) for text in out.getvalue().splitlines()]


HELLO = b'{"seq": 77, "op": "hello", "protocol": 1}'

#: Hostile lines, the seq their answer carries, and what its message says (rule null for all).
HOSTILE: dict[str, tuple[bytes, int | None, str]] = {
    "empty line": (b"", None, "malformed request: an empty line"),
    "blanks": (b" \t ", None, "malformed request: an empty line"),
    "a carriage return": (b"\r", None, "malformed request: an empty line"),
    "not UTF-8": (
        b'{"seq": 5, "op": "\xff"}',
        None,
        "malformed request: a line that is not UTF-8: byte 0xff at position 18",
    ),
    "UTF-16 surrogate in UTF-8": (b'"\xed\xa0\x80"', None, "not UTF-8: byte 0xed at position 1"),
    "4,301-digit seq": (b'{"seq": ' + b"1" * 4301 + b', "op": "hello"}', None, "out of range"),
    "seq 1e999": (b'{"seq": 1e999, "op": "hello"}', None, "a number out of range: 1e999"),
    "seq -1e999": (b'{"seq": -1e999, "op": "hello"}', None, "a number out of range: -1e999"),
    "seq NaN": (b'{"seq": NaN, "op": "hello"}', None, "NaN is not JSON"),
    "seq Infinity": (b'{"seq": Infinity, "op": "hello"}', None, "Infinity is not JSON"),
    "seq 2**53": (b'{"seq": 9007199254740992, "op": "hello"}', None, "out of range"),
    "seq true": (b'{"seq": true, "op": "hello"}', None, "seq must be an integer"),
    "seq a string": (b'{"seq": "5", "op": "hello"}', None, "seq must be an integer"),
    "seq 1.5": (b'{"seq": 1.5, "op": "hello"}', None, "seq must be an integer"),
    "no seq": (b'{"op": "hello"}', None, "the request has no seq"),
    "huge first_player": (
        b'{"seq": 6, "op": "new", "first_player": ' + b"9" * 5000 + b"}",
        6,
        "a number out of range: 999999999999...999999 (5,000 characters)",
    ),
    "1e999 in a state": (
        b'{"seq": 7, "op": "state", "json": {"player": 1e999}}',
        7,
        "a number out of range: 1e999",
    ),
    "nested 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, None, "nested more than 64 levels"),
    "objects nested 5,000 deep": (
        b'{"a":' * 5000 + b"1" + b"}" * 5000,
        None,
        "JSON nested more than 64 levels deep",
    ),
    "nested 100 deep in a field": (
        b'{"seq": 8, "op": "state", "json": ' + b"[" * 100 + b"]" * 100 + b"}",
        8,
        "JSON nested more than 64 levels deep",
    ),
    "over-long line": (
        b'{"seq": 9, "op": "state", "text": "' + b"7" * 2_000_000 + b'"}',
        None,
        "malformed request: a line longer than 1,048,576 bytes",
    ),
    "not JSON": (b'{"seq": 16, "op"', None, "malformed request: a line that is not JSON: "),
    "not an object": (b"[1, 2]", None, "the request is not a JSON object: [1, 2]"),
    "unknown op": (b'{"seq": 15, "op": "jump"}', 15, 'unknown op "jump"'),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_line_gets_its_error_and_serve_goes_on(name: str) -> None:
    """One strict JSON answer with ``ok: false``; the next request is still answered."""
    line, seq, message = HOSTILE[name]
    first, second = _serve([line, HELLO])
    assert first["seq"] == seq
    assert first["ok"] is False
    assert first["error"]["rule"] is None
    assert message in first["error"]["message"]
    assert second["seq"] == 77
    assert second["ok"] is True


def test_every_line_of_a_hostile_stream_is_answered_in_order() -> None:
    """All hostile lines in one stream: as many answers as lines, then quit ends the session."""
    lines = [HOSTILE[name][0] for name in sorted(HOSTILE)]
    answers = _serve([*lines, b'{"seq": 99, "op": "quit"}', HELLO])
    assert [a["seq"] for a in answers] == [HOSTILE[name][1] for name in sorted(HOSTILE)] + [99]
    assert answers[-1] == {"seq": 99, "ok": True}


def test_quit_with_a_bad_seq_does_not_end_the_session() -> None:
    """A refused ``quit`` is no quit: the requests after it are answered."""
    answers = _serve([b'{"seq": "x", "op": "quit"}', HELLO])
    assert [a["seq"] for a in answers] == [None, 77]


def test_an_exception_in_an_answer_is_an_internal_error() -> None:
    """A defect behind the request boundary is answered, named, and does not end serve."""

    def broken(request: object) -> dict[str, Any]:
        if isinstance(request, dict) and request.get("op") == "moves":
            raise ZeroDivisionError("division by zero")
        return handle(request)

    out = io.StringIO()
    requests = b'{"seq": 1, "op": "moves", "state": "-/- - 0c3455"}\n' + HELLO + b"\n"
    serve(io.BytesIO(requests), out, answer=broken)
    first, second = (_strict(text) for text in out.getvalue().splitlines())
    assert first == {
        "seq": 1,
        "ok": False,
        "error": {
            "rule": None,
            "message": 'internal error answering op "moves": ZeroDivisionError: division by zero',
        },
    }
    assert second["seq"] == 77


def test_an_answer_that_is_not_json_is_an_internal_error() -> None:
    """An answer holding NaN is never written as ``NaN``: an internal error goes instead."""
    out = io.StringIO()
    serve(io.BytesIO(HELLO + b"\n"), out, answer=lambda r: {"seq": 77, "ok": True, "x": 1e999})
    answer = _strict(out.getvalue())
    assert answer["seq"] == 77
    assert answer["error"]["message"].startswith("internal error")


def test_serve_reads_bytes_whatever_the_locale() -> None:
    """Under strict UTF-8 decoding of stdin, a bad byte is still one answered line."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    done = subprocess.run(
        [sys.executable, "-m", "cantstop", "serve"],
        input=b'{"seq": 1, "op": "\xff"}\n' + HELLO + b"\n\n",
        capture_output=True,
        env=env,
        check=False,
    )
    answers = [_strict(line) for line in done.stdout.decode("ascii").splitlines()]
    assert done.returncode == 0
    assert [a["seq"] for a in answers] == [None, 77, None]
    assert "not UTF-8" in answers[0]["error"]["message"]
    assert done.stderr == b""


def test_the_fuzz_harness_finds_no_protocol_problem() -> None:
    """A short run of ``tools/fuzz_serve.py``: every hostile line answered, serve exits 0."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "fuzz_serve.py"), "--lines", "1500", "--seed", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "lines answered:    1,500" in done.stdout
    assert "protocol problems: 0" in done.stdout
    assert "exit status:       0" in done.stdout
    # Every refusal is accounted for by a rule or the protocol, never by an internal error.
    assert "internal error" not in done.stdout
