"""Fuzz ``cantstop serve`` with hostile protocol lines and check that it answers every one.

    python tools/fuzz_serve.py [--lines N] [--seed S] [-- CMD ARGS...]

The lines are drawn from a seeded generator, so a run repeats exactly: valid
requests built from the conformance vectors, and the same requests spoiled in
the ways that have broken JSON-lines servers before: integers of thousands of
digits, arrays and objects nested thousands deep, ``1e999``, ``NaN``, bytes
that are not UTF-8, empty lines, lines over the protocol's length limit,
values of the wrong type, lone surrogates, and random byte edits.

The port (``cantstop serve`` by default, or CMD) reads them all on one
standard input.  The check is the protocol's (``spec/protocol.md``): exactly
one answer line per line sent, in order; each answer a strict JSON object
(no ``NaN`` or ``Infinity``) with ``seq`` and ``ok``, and an ``error`` object
with ``rule`` and ``message`` when ``ok`` is false; ``seq`` repeated when the
line was a request with a valid ``seq``, ``null`` when it was not a JSON
object; and the port still running until its input ends, then exiting with
status 0.  The figures are printed; the exit status is 0 when every check
held, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "spec" / "conformance" / "v1"

#: The protocol's limit on a line (spec/protocol.md); lines above it are sent as well.
MAX_LINE_BYTES = 1 << 20
SAFE = 2**53 - 1

#: What the answer's seq must be: an int, None (JSON null), or ANY when it cannot be known.
ANY = object()


@dataclass
class Line:
    """One line to send, its kind, and the ``seq`` its answer must carry."""

    kind: str
    data: bytes
    seq: object = ANY


def _requests() -> list[dict[str, Any]]:
    """Return valid requests (without ``seq``) built from the vector files."""
    requests: list[dict[str, Any]] = [{"op": "hello", "protocol": 1}]
    for name in ("notation.json", "invalid.json", "apply.json", "illegal.json", "moves.json"):
        data = json.loads((VECTORS / name).read_text(encoding="utf-8"))
        for case in data["cases"][::7]:
            kind = case["kind"]
            if kind in ("state", "action"):
                key = "text" if "text" in case else "json"
                requests.append({"op": kind, key: case[key]})
            elif kind == "new":
                requests.append({"op": "new", **case["new"]})
            elif kind == "apply":
                requests.append({"op": "apply", "state": case["state"], "action": case["action"]})
                requests.append({"op": "moves", "state": case["state"]})
            elif kind == "moves":
                requests.append({"op": "moves", "state": case["state"]})
    requests += [
        {"op": "perft", "state": "-/- - 0r"},
        {"op": "rolls", "state": "7:2/- 7:3,10:1 0d"},
        {"op": "new", "rules": {"players": 3, "variant": "B"}, "first_player": 1},
    ]
    return requests


_DIGITS = bytes(ord("0") + b % 10 for b in range(256))


def _huge_int(rng: random.Random) -> str:
    digits = rng.choice([17, 300, 4300, 4301, 5000, 20000])
    tail = rng.randbytes(digits - 1).translate(_DIGITS).decode("ascii")
    return rng.choice(["", "-"]) + "1" + tail


def _nested(rng: random.Random) -> str:
    depth = rng.choice([65, 100, 999, 1000, 1001, 5000, 100_000])
    if rng.random() < 0.5:
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


def _bad_number(rng: random.Random) -> str:
    return rng.choice(["1e999", "-1e999", "NaN", "Infinity", "-Infinity", "1E400", _huge_int(rng)])


def _odd_value(rng: random.Random) -> str:
    fixed = [
        "true",
        "false",
        "null",
        "[]",
        "{}",
        '"x"',
        "1.5",
        "-0",
        "1e-999",
        '"\\ud800"',
        '"\\u0000"',
        '"' + "7" * 10 + '"',
        '"' + "7" * 5000 + '"',
    ]
    pick = rng.randrange(len(fixed) + 3)
    if pick < len(fixed):
        return fixed[pick]
    if pick == len(fixed):
        return str(rng.randint(-(2**60), 2**60))
    return _bad_number(rng) if pick == len(fixed) + 1 else _nested(rng)


def _dump(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def _spoil_field(rng: random.Random, request: dict[str, Any], seq: int) -> Line:
    """Replace one value somewhere in the request (or its seq) with a hostile one."""
    request = {"seq": seq, **request}
    keys = list(request)
    key = rng.choice(keys)
    hostile = _odd_value(rng)
    # Put a placeholder where the value goes, then splice the raw hostile text in.
    request[key] = "\x00PLACEHOLDER\x00"
    text = _dump(request).replace('"\\u0000PLACEHOLDER\\u0000"', hostile)
    expect: object = ANY
    if key == "seq":
        try:
            value = _strict(hostile)
        except (ValueError, RecursionError):
            value = None
        expect = value if type(value) is int and -SAFE <= value <= SAFE else None
    return Line("hostile value", text.encode("utf-8", "surrogatepass"), expect)


def _spoil_inside(rng: random.Random, seq: int) -> Line:
    """Return a request whose rules or JSON form hide a huge number, a deep nest or a bad key."""
    choice = rng.randrange(6)
    if choice == 0:
        inner = f'{{"heights":{{"{"1" * rng.choice([4301, 6000])}":3}}}}'
        text = f'{{"seq":{seq},"op":"new","rules":{inner}}}'
    elif choice == 1:
        text = f'{{"seq":{seq},"op":"new","rules":{{"heights":{{"7":{_huge_int(rng)}}}}}}}'
    elif choice == 2:
        odd = _odd_value(rng)
        text = f'{{"seq":{seq},"op":"new","rules":{{"players":2}},"first_player":{odd}}}'
    elif choice == 3:
        text = f'{{"seq":{seq},"op":"state","json":{_nested(rng)}}}'
    elif choice == 4:
        text = (
            f'{{"seq":{seq},"op":"state","json":{{"rules":{{}},"player":{_odd_value(rng)},'
            f'"phase":"roll","markers":{{}},"squares":[{{}},{{}}]}}}}'
        )
    else:
        odd = _odd_value(rng)
        text = f'{{"seq":{seq},"op":"action","json":{{"type":"roll","dice":[{odd},1,1,1]}}}}'
    return Line("hostile inside", text.encode("utf-8", "surrogatepass"))


def _not_utf8(rng: random.Random, line: bytes) -> Line:
    bad = rng.choice([b"\xff", b"\xfe\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\x80"])
    at = rng.randrange(len(line) + 1)
    return Line("not UTF-8", line[:at] + bad + line[at:], None)


def _byte_edit(rng: random.Random, line: bytes) -> Line:
    data = bytearray(line)
    for _ in range(rng.randint(1, 4)):
        what = rng.randrange(4)
        at = rng.randrange(len(data) + 1)
        if what == 0 and data:
            del data[min(at, len(data) - 1)]
        elif what == 1:
            data.insert(at, rng.randrange(256))
        elif what == 2 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        else:
            data = data[:at]
    data = data.replace(b"\n", b" ")
    return Line("byte edits", bytes(data))


def generate(count: int, seed: int) -> list[Line]:
    """Return ``count`` lines, the same for the same seed."""
    rng = random.Random(seed)
    requests = _requests()
    out: list[Line] = []
    for seq in range(1, count + 1):
        request = rng.choice(requests)
        valid = _dump({"seq": seq, **request}).encode("utf-8")
        roll = rng.random()
        line: Line
        if roll < 0.15:
            line = Line("valid", valid, seq)
        elif roll < 0.30:
            line = _spoil_field(rng, request, seq)
        elif roll < 0.45:
            line = _spoil_inside(rng, seq)
        elif roll < 0.52:
            text = f'{{"seq":{_huge_int(rng)},"op":"hello"}}'
            line = Line("huge integer seq", text.encode(), None)
        elif roll < 0.57:
            text = f'{{"seq":{rng.choice(["1e999", "-1e999", "NaN", "Infinity"])},"op":"hello"}}'
            line = Line("non-finite seq", text.encode(), None)
        elif roll < 0.65:
            line = Line("deep nesting", _nested(rng).encode(), None)
        elif roll < 0.75:
            line = _not_utf8(rng, valid)
        elif roll < 0.80:
            line = Line("empty line", rng.choice([b"", b" ", b"\t", b"\r", b"  \t "]), None)
        elif roll < 0.85:
            line = Line("not an object", _odd_value(rng).encode("utf-8", "surrogatepass"), None)
        elif roll < 0.8505:
            size = MAX_LINE_BYTES + rng.choice([1, 1000, 500_000])
            text = f'{{"seq":{seq},"op":"state","text":"' + "7" * size + '"}'
            line = Line("over-long line", text.encode(), None)
        else:
            line = _byte_edit(rng, valid)
        if b'"quit"' in line.data:  # a quit would end the session early
            line = Line("valid", _dump({"seq": seq, "op": "hello", "protocol": 1}).encode(), seq)
        out.append(line)
    return out


def _strict(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


@dataclass
class Figures:
    """What a fuzz run saw."""

    sent: int = 0
    answered: int = 0
    generating: float = 0.0
    seconds: float = 0.0
    exit_status: int | None = None
    kinds: Counter[str] = field(default_factory=Counter)
    answers: Counter[str] = field(default_factory=Counter)
    internal: Counter[str] = field(default_factory=Counter)
    problem_kinds: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """Return the figures as text lines."""
        out = [
            f"lines sent:        {self.sent:,}",
            f"lines answered:    {self.answered:,}",
            f"exit status:       {self.exit_status}",
            f"time:              {self.seconds:.1f} s for the port "
            f"({self.sent / max(self.seconds, 1e-9):,.0f} lines/s), "
            f"{self.generating:.1f} s to generate the lines",
            f"protocol problems: {len(self.problems)}",
            "lines by kind:",
        ]
        out += [f"  {kind}: {n:,}" for kind, n in sorted(self.kinds.items())]
        out.append("answers:")
        out += [f"  {what}: {n:,}" for what, n in sorted(self.answers.items())]
        if self.internal:
            out.append("internal errors (answered, but no rule accounts for them):")
            out += [f"  {n:,} x {text}" for text, n in self.internal.most_common(10)]
        if self.problem_kinds:
            out.append("protocol problems by kind of line:")
            out += [f"  {kind}: {n:,}" for kind, n in sorted(self.problem_kinds.items())]
        out += [f"PROBLEM {p}" for p in self.problems[:20]]
        return out


def _check(line: Line, answer_text: str, index: int, figures: Figures) -> None:
    def problem(what: str) -> None:
        shown = answer_text[:160]
        figures.problem_kinds[line.kind] += 1
        figures.problems.append(f"line {index + 1} ({line.kind}): {what}; answer {shown!r}")

    try:
        answer = _strict(answer_text)
    except (ValueError, RecursionError) as exc:
        problem(f"the answer is not strict JSON: {exc}")
        return
    if not isinstance(answer, dict) or "seq" not in answer or "ok" not in answer:
        problem("the answer is not an object with seq and ok")
        return
    seq = answer["seq"]
    if line.seq is not ANY and seq != line.seq:
        problem(f"seq {seq!r}, expected {line.seq!r}")
    if not (seq is None or type(seq) is int):
        problem("seq is neither an integer nor null")
    if answer["ok"] is True:
        figures.answers["ok"] += 1
        return
    error = answer.get("error")
    if answer["ok"] is not False or not isinstance(error, dict):
        problem("ok is false without an error object")
        return
    rule, message = error.get("rule"), error.get("message")
    if not (rule is None or isinstance(rule, str)) or not isinstance(message, str):
        problem("the error lacks rule (string or null) and message (string)")
        return
    if message.startswith("internal error"):
        figures.internal[message[:120]] += 1
        figures.answers["internal error"] += 1
    elif rule is None:
        figures.answers["refused, rule null"] += 1
    else:
        figures.answers["refused under a rule"] += 1


def run(
    count: int, seed: int, command: list[str], report: Callable[[str], None] | None = None
) -> Figures:
    """Send ``count`` generated lines to the port ``command``; return the figures."""
    began = time.perf_counter()
    lines = generate(count, seed)
    figures = Figures(sent=len(lines), kinds=Counter(line.kind for line in lines))
    figures.generating = time.perf_counter() - began
    began = time.perf_counter()
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
    assert stdin is not None
    assert stdout is not None
    assert stderr is not None
    errors: list[bytes] = []

    def feed() -> None:
        try:
            for line in lines:
                stdin.write(line.data + b"\n")
            stdin.close()
        except OSError:
            pass  # the port died; the count of answers shows it

    def drain() -> None:
        errors.append(stderr.read())

    writer = threading.Thread(target=feed, daemon=True)
    reader = threading.Thread(target=drain, daemon=True)
    writer.start()
    reader.start()
    for index, raw in enumerate(stdout):
        if index >= len(lines):
            figures.problems.append(f"an extra answer: {raw[:160]!r}")
            continue
        figures.answered += 1
        _check(lines[index], raw.decode("utf-8", "replace").rstrip("\n"), index, figures)
        if report is not None and figures.answered % 10_000 == 0:
            report(f"{figures.answered:,} answered")
    figures.exit_status = proc.wait()
    writer.join()
    reader.join()
    figures.seconds = time.perf_counter() - began
    if figures.answered < figures.sent:
        figures.problems.insert(
            0,
            f"the port answered {figures.answered:,} of {figures.sent:,} lines; "
            f"the first unanswered is line {figures.answered + 1} ({lines[figures.answered].kind})",
        )
    if figures.exit_status != 0:
        tail = b"".join(errors).decode("utf-8", "replace").strip().splitlines()[-3:]
        figures.problems.insert(0, f"exit status {figures.exit_status}; stderr: {' | '.join(tail)}")
    return figures


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzer from the command line; return 0 when every check held."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000, help="lines to send (default 100000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generator (default 1)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the port's command")
    args = parser.parse_args(argv)
    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        command = [sys.executable, "-m", "cantstop", "serve"]
    if args.lines < 1:
        parser.error("--lines must be at least 1")
    figures = run(args.lines, args.seed, command, lambda text: print(text, file=sys.stderr))
    print(f"port: {' '.join(command)}  seed: {args.seed}")
    for text in figures.lines():
        print(text)
    return 1 if figures.problems else 0


if __name__ == "__main__":
    sys.exit(main())
