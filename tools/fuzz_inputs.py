"""Fuzz the readers of cantstop with hostile input and count what escapes.

``python tools/fuzz_inputs.py --count 1000000 --records 5000 --seed 1`` feeds
``--count`` inputs, round robin, to the text parsers (``parse_state``,
``parse_action``), the JSON readers (``state_from_json``, ``action_from_json``,
``rules_from_json``) and the value constructors (``Roll``, ``Move``,
``Rules``), then verifies ``--records`` tampered game records with
``verify_record``.  Inputs are valid texts and JSON forms with a few edits,
junk, numbers of thousands of digits, non-finite floats, booleans where numbers
go, characters that do not print, structures nested thousands deep, and records
with bad bytes, torn and swapped lines.

Each reader must either accept its input or raise its documented error: a
:class:`~cantstop.NotationError` from the parsers and JSON readers,
:class:`~cantstop.InvalidActionValue` from ``Roll`` and ``Move``,
:class:`~cantstop.InvalidRules` from ``Rules``.  An accepted text must be
canonical (it formats back to itself), an error must point inside its text and
its message must be short and quote no long number in full.  A rejected
record must be reported at a line.  Anything else is a finding: it is counted,
the first few are printed, and the exit status is 1.

The same seed always gives the same inputs and the same figures.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from cantstop import (
    CantStopError,
    InvalidActionValue,
    InvalidRules,
    Move,
    NotationError,
    Phase,
    Roll,
    Rules,
    State,
    Stop,
    Variant,
    action_from_json,
    action_to_json,
    format_action,
    format_state,
    new_game,
    parse_action,
    parse_state,
    rules_from_json,
    state_from_json,
    state_to_json,
)
from cantstop.actions import Action
from cantstop.conformance.verify import verify_record
from cantstop.record import write_record

#: The longest message a rejection may have: a reason, the rule, and a short quote or window.
MAX_MESSAGE = 700
#: A run of 16 digits or more, not cut with an ellipsis, is a number quoted in full.
LONG_DIGITS = re.compile(r"(?<![0-9])[0-9]{16,}(?![0-9…])")

#: Numbers and texts that Python handles badly: too many digits, not finite, not numbers.
HUGE = (10**4400 - 1) // 9  # 4,400 ones: int() and repr() refuse it
HOSTILE_SCALARS: tuple[object, ...] = (
    True,
    False,
    None,
    0,
    -1,
    1.0,
    2.5,
    float("nan"),
    float("inf"),
    float("-inf"),
    1e308,
    10**15,
    -(10**20),
    10**4299,
    HUGE,
    -HUGE,
    "",
    "7",
    "07",
    "\u0667",  # ARABIC-INDIC DIGIT SEVEN
    "\uff17",  # FULLWIDTH DIGIT SEVEN
    "1" * 4301,
    "x" * 5000,
    "\ud800",
    "\x00",
    b"\xff",
)

#: Characters to edit texts with: the notation's own, digits of other scripts, and ones that
#: do not print.
ALPHABET = "0123456789/:,-+ rcdxhwABstop" + "\t\n\x00\x7f\u00e9\u0663\uff17\u6f22\ud800\u200b\u0301"


def nested(depth: int, leaf: object = 1) -> object:
    """Return ``leaf`` inside ``depth`` lists or objects, alternating."""
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"7": value}
    return value


@dataclass
class Tally:
    """What one target did with its inputs."""

    inputs: int = 0
    accepted: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    findings: list[str] = field(default_factory=list)
    finding_count: int = 0

    def find(self, what: str) -> None:
        """Count a finding; keep the first few to print."""
        self.finding_count += 1
        if len(self.findings) < 5:
            self.findings.append(what)


def _short(value: object) -> str:
    try:
        text = repr(value)
    except Exception:  # an integer too long for repr, a list too deep for it
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 160 else text[:160] + "…"


class Fuzzer:
    """Make hostile inputs from one seed, and feed them to the readers."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.states = self._sample_states()
        self.state_texts = [format_state(s) for s in self.states]
        self.action_texts = ["stop", "r3455", "r6611", "7+10", "7+7", "5", "2+12", "12"]
        self.tallies: dict[str, Tally] = {}

    def _sample_states(self) -> list[State]:
        configs = [
            Rules(),
            Rules(players=3, variant=Variant.B),
            Rules(players=4, columns_to_win=2, variant=Variant.A),
            Rules(players=1, columns_to_win=1, heights={2: 3, 7: 5, 12: 999}),
        ]
        states: list[State] = []
        for number, rules in enumerate(configs):
            rng = random.Random(number)
            state = new_game(rules, rng.randrange(rules.players))
            for _ in range(400):
                states.append(state)
                if state.phase is Phase.OVER:
                    state = new_game(rules)
                elif state.phase is Phase.CHOOSE:
                    state = state.apply(rng.choice(state.legal_moves()))
                elif state.phase is Phase.DECIDE and rng.random() < 0.3:
                    try:
                        state = state.apply(Stop())
                    except CantStopError:
                        state = state.apply(_roll(rng))
                else:
                    state = state.apply(_roll(rng))
        return states

    # -- inputs -------------------------------------------------------------------

    def edited(self, text: str) -> str:
        """Return ``text`` with one to four edits: characters, long digit runs, repeats."""
        chars = list(text)
        for _ in range(self.rng.randint(1, 4)):
            i = self.rng.randrange(len(chars) + 1)
            how = self.rng.randrange(5)
            if how == 0:
                chars.insert(i, self.rng.choice(ALPHABET))
            elif how == 1 and i < len(chars):
                del chars[i]
            elif how == 2 and i < len(chars):
                chars[i] = self.rng.choice(ALPHABET)
            elif how == 3:
                chars.insert(i, "9" * self.rng.choice((4, 17, 4301, 6000)))
            elif i < len(chars):
                chars[i] = chars[i] * self.rng.randint(2, 3)
        return "".join(chars)

    def text(self, pool: list[str]) -> str:
        """Return a text from ``pool``, edited, junk, or repeated into a long line."""
        pick = self.rng.random()
        if pick < 0.15:
            return self.rng.choice(pool)
        if pick < 0.8:
            return self.edited(self.rng.choice(pool))
        if pick < 0.95:
            return "".join(self.rng.choice(ALPHABET) for _ in range(self.rng.randint(0, 30)))
        return self.rng.choice(pool) * self.rng.randint(50, 400)

    def hostile(self) -> object:
        """Return a value a reader must refuse cleanly: a hostile scalar, deep, long or odd."""
        pick = self.rng.random()
        if pick < 0.6:
            return self.rng.choice(HOSTILE_SCALARS)
        if pick < 0.75:
            return nested(self.rng.choice((2, 50, 990, 5000)), self.rng.choice(HOSTILE_SCALARS))
        if pick < 0.85:
            return [self.rng.choice(HOSTILE_SCALARS) for _ in range(self.rng.choice((0, 3, 4, 5)))]
        if pick < 0.95:
            key = self.rng.choice(("7", "07", "13", "1" * 4301, "", "x", "-7", "\uff17"))
            return {key: self.rng.choice(HOSTILE_SCALARS)}
        return list(range(self.rng.choice((4, 100_000))))

    def replace_somewhere(self, form: Any) -> Any:
        """Replace one value, at any depth, of a JSON form by a hostile one."""
        if not isinstance(form, dict | list) or not form or self.rng.random() < 0.3:
            return self.hostile()
        if isinstance(form, list):
            i = self.rng.randrange(len(form) + 1)
            copy = list(form)
            if i == len(form):
                copy.append(self.hostile())
            else:
                copy[i] = self.replace_somewhere(form[i])
            return copy
        copy_d = dict(form)
        if self.rng.random() < 0.15:
            key: Any = self.rng.choice(("extra", "1" * 4301, "07", "7", "13", 7, None))
            copy_d[key] = self.hostile()
        else:
            key = self.rng.choice(list(form))
            copy_d[key] = self.replace_somewhere(form[key])
        return copy_d

    def json_value(self, valid: Callable[[], Any]) -> Any:
        """Return a JSON form from ``valid``, changed, replaced, or read back with odd numbers."""
        pick = self.rng.random()
        if pick < 0.1:
            return valid()
        if pick < 0.8:
            return self.replace_somewhere(valid())
        if pick < 0.9:
            return self.hostile()
        # A valid form read back from JSON text with numbers written as huge or non-finite.
        text = json.dumps(valid())
        text = re.sub(
            r"\b1\b", self.rng.choice(("1e999", "NaN", "true", "1.0", "-0")), text, count=1
        )
        try:
            return json.loads(text)
        except ValueError:
            return text

    # -- targets ------------------------------------------------------------------

    def feed(
        self,
        name: str,
        reader: Callable[[Any], object],
        data: object,
        documented: type[Exception],
        check: Callable[[object, object], str | None] | None = None,
    ) -> None:
        """Give ``data`` to ``reader`` and tally what happens."""
        tally = self.tallies.setdefault(name, Tally())
        tally.inputs += 1
        try:
            result = reader(data)
        except documented as error:
            tally.rejected[getattr(error, "rule", "?")] += 1
            problem = _message_problem(error, data)
            if problem:
                tally.find(f"{problem}: {_short(data)} -> {_short(str(error))}")
        except Exception as error:  # a finding: an error outside the documented class
            tally.find(f"{type(error).__name__}: {_short(data)} -> {_short(str(error))}")
        else:
            tally.accepted += 1
            problem = check(data, result) if check else None
            if problem:
                tally.find(f"{problem}: {_short(data)}")

    def run_inputs(self, count: int) -> None:
        """Feed ``count`` inputs to the readers, in turn."""
        rng = self.rng
        for i in range(count):
            kind = i % 8
            if kind == 0:
                self.feed(
                    "parse_state", parse_state, self.text(self.state_texts), NotationError, _canon
                )
            elif kind == 1:
                self.feed(
                    "parse_action",
                    parse_action,
                    self.text(self.action_texts),
                    NotationError,
                    _canon,
                )
            elif kind == 2:
                state = rng.choice(self.states)
                data = self.json_value(partial(state_to_json, state))
                self.feed("state_from_json", state_from_json, data, NotationError)
            elif kind == 3:
                action = rng.choice(self.action_texts)
                data = self.json_value(partial(_action_form, action))
                self.feed("action_from_json", action_from_json, data, NotationError)
            elif kind == 4:
                state = rng.choice(self.states)
                data = self.json_value(partial(_rules_form, state))
                self.feed("rules_from_json", rules_from_json, data, NotationError)
            elif kind == 5:
                dice: Any = [rng.randint(1, 6) for _ in range(4)]
                dice = dice if rng.random() < 0.1 else self.replace_somewhere(dice)
                self.feed("Roll", Roll, dice, InvalidActionValue)
            elif kind == 6:
                columns: Any = sorted(rng.randint(2, 12) for _ in range(rng.randint(1, 2)))
                columns = columns if rng.random() < 0.1 else self.replace_somewhere(columns)
                self.feed("Move", Move, columns, InvalidActionValue)
            else:
                heights = {6: 11, 7: 13, 8: 11, 9: 9, 10: 7}
                fields = {"players": 2, "columns_to_win": 3, "heights": heights}
                changed = fields if rng.random() < 0.1 else self.replace_somewhere(fields)
                kwargs = changed if isinstance(changed, dict) else {"heights": changed}
                self.feed("Rules", _rules_from, kwargs, InvalidRules)

    # -- records ------------------------------------------------------------------

    def records(self, count: int, folder: Path) -> None:
        """Verify ``count`` tampered records, written one at a time in ``folder``."""
        tally = self.tallies.setdefault("verify", Tally())
        games = [self._game(seed) for seed in range(6)]
        path = folder / "game.jsonl"
        for _ in range(count):
            lines = list(self.rng.choice(games))
            self._tamper(lines)
            path.write_bytes(b"".join(lines))
            out = io.StringIO()
            tally.inputs += 1
            try:
                status = verify_record(path, out)
            except Exception as error:  # a finding: verify must report, not raise
                tally.find(f"{type(error).__name__}: {_short(b''.join(lines)[:300])}")
                continue
            first = out.getvalue().partition("\n")[0]
            if status == 0:
                tally.accepted += 1
                continue
            named = re.match(r"game\.jsonl:(\d+): ", first)
            if status != 1 or not named or not 1 <= int(named.group(1)) <= len(lines) + 1:
                tally.find(f"status {status}, no line named: {_short(first)}")
            elif len(first) > MAX_MESSAGE or LONG_DIGITS.search(first):
                tally.find(f"long report: {_short(first)}")
            else:
                rule = re.search(r"\(rule ([A-Z][0-9.]+)\)", first)
                tally.rejected[rule.group(1) if rule else "format"] += 1

    def _game(self, seed: int) -> list[bytes]:
        rng = random.Random(seed)
        rules = [Rules(), Rules(players=3, variant=Variant.A), Rules(players=1)][seed % 3]
        state = new_game(rules)
        actions: list[Action] = []
        while state.phase is not Phase.OVER and len(actions) < 120:
            action: Action
            if state.phase is Phase.CHOOSE:
                action = rng.choice(state.legal_moves())
            elif state.phase is Phase.DECIDE and rng.random() < 0.3:
                action = Stop()
                try:
                    state.apply(action)
                except CantStopError:
                    action = _roll(rng)
            else:
                action = _roll(rng)
            state = state.apply(action)
            actions.append(action)
        out = io.StringIO()
        write_record(out, rules, actions, claims=seed % 2 == 0)
        return [line.encode() for line in out.getvalue().splitlines(keepends=True)]

    def _tamper(self, lines: list[bytes]) -> None:
        rng = self.rng
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(lines))
            line = lines[i]
            how = rng.randrange(10)
            if how == 0:
                del lines[i]
                if not lines:
                    return
            elif how == 1:
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            elif how == 2:
                lines.insert(i, line)
            elif how == 3:  # a byte that is not UTF-8
                k = rng.randrange(len(line))
                lines[i] = line[:k] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80")) + line[k:]
            elif how == 4:  # a torn line
                lines[i] = line[: rng.randrange(len(line))]
            elif how == 5:  # a number made hostile
                new = rng.choice((b"true", b"1.0", b"1e999", b"NaN", b"-Infinity", b"9" * 5000))
                lines[i] = re.sub(rb"\b[0-9]\b", new, line, count=1)
            elif how == 6:  # deep nesting
                depth = rng.choice((100, 990, 3000))
                lines[i] = line.replace(b"{", b"[" * depth + b"{", 1).rstrip(b"\n") + (
                    b"]" * depth + b"\n"
                )
            elif how == 7:  # a character edited
                k = rng.randrange(len(line))
                lines[i] = (
                    line[:k] + rng.choice(ALPHABET).encode("utf-8", "surrogatepass") + line[k + 1 :]
                )
            elif how == 8:  # a field replaced by a hostile value
                try:
                    obj = json.loads(line)
                except (ValueError, RecursionError):  # a line an earlier edit broke or nested
                    continue
                changed = self.replace_somewhere(obj)
                try:
                    lines[i] = json.dumps(changed).encode("utf-8", "surrogatepass") + b"\n"
                except (TypeError, ValueError, RecursionError):
                    continue
            else:  # a dice value or column changed
                lines[i] = re.sub(rb"\b[1-6]\b", str(rng.randint(0, 13)).encode(), line, count=1)


def _roll(rng: random.Random) -> Roll:
    return Roll((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)))


def _action_form(text: str) -> Any:
    return action_to_json(parse_action(text))


def _rules_form(state: State) -> Any:
    return state_to_json(state)["rules"]


def _rules_from(kwargs: dict[Any, Any]) -> Rules:
    if not all(isinstance(key, str) for key in kwargs) or not kwargs.keys() <= {
        "players",
        "columns_to_win",
        "heights",
        "variant",
    }:
        kwargs = {"heights": kwargs}
    return Rules(**kwargs)


def _canon(text: object, result: object) -> str | None:
    """Check that an accepted text is the canonical text of what it was read as."""
    formatted = (
        format_state(result) if isinstance(result, State) else format_action(result)  # type: ignore[arg-type]
    )
    return None if formatted == text else f"accepted but not canonical ({formatted!r})"


def _message_problem(error: Exception, data: object) -> str | None:
    """Say what is wrong with a rejection's message and position, if anything."""
    message = str(error)
    if len(message) > MAX_MESSAGE:
        return f"message of {len(message)} characters"
    reason = getattr(error, "reason", message)
    if LONG_DIGITS.search(reason):
        return "reason quotes a long number in full"
    if (
        isinstance(error, NotationError)
        and error.pointed
        and isinstance(data, str)
        and not 0 <= error.position <= len(data)
    ):
        return f"position {error.position} outside the text"
    return None


def run(count: int, records: int, seed: int) -> dict[str, Tally]:
    """Fuzz with ``count`` reader inputs and ``records`` tampered records; return the tallies."""
    fuzzer = Fuzzer(seed)
    fuzzer.run_inputs(count)
    if records:
        with tempfile.TemporaryDirectory() as tmp:
            fuzzer.records(records, Path(tmp))
    return fuzzer.tallies


def report(tallies: dict[str, Tally], seconds: float, out: Any = sys.stdout) -> int:
    """Print the figures; return the number of findings."""
    total = sum(t.inputs for name, t in tallies.items() if name != "verify")
    findings = sum(t.finding_count for t in tallies.values())
    print(f"{'target':<18}{'inputs':>10}{'accepted':>10}{'rejected':>10}{'findings':>10}", file=out)
    for name, tally in tallies.items():
        rejected = sum(tally.rejected.values())
        print(
            f"{name:<18}{tally.inputs:>10,}{tally.accepted:>10,}{rejected:>10,}"
            f"{tally.finding_count:>10,}",
            file=out,
        )
    print(f"{total:,} reader inputs; {findings:,} findings; {seconds:.1f} s", file=out)
    for name, tally in tallies.items():
        for finding in tally.findings:
            print(f"  {name}: {finding}", file=out)
    return findings


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzer from the command line; exit 1 if anything escaped."""
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--count", type=int, default=100_000, help="inputs to the readers")
    parser.add_argument("--records", type=int, default=1_000, help="tampered records to verify")
    parser.add_argument("--seed", type=int, default=0, help="the seed of every input")
    args = parser.parse_args(argv)
    if args.count < 0 or args.records < 0:
        parser.error("--count and --records must not be negative")
    start = time.perf_counter()
    tallies = run(args.count, args.records, args.seed)
    return 1 if report(tallies, time.perf_counter() - start) else 0


if __name__ == "__main__":
    sys.exit(main())
