"""The shipped JavaScript ports copied alone, as their guides say, and their one line protocol.

Each port's README gives, under "Copying it", the commands that copy it out
of the repository.  The tests run those commands as written (``my-port``
made a folder of the test's own), check that the copy sits where nothing of
the checkout can be found from it, and run cases of the game's suite
against it.  The same ports laid out as an installed package lays them out
run too, and the three ports answer lines that are not requests alike: the
line protocol is one module, ``dicekit/ports/javascript/lineproto.js``.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cantstop.cli import main
from dicekit.conformance.heldout import copy_port
from tests.extras import NODE_REASON

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
SHARED = ROOT / "dicekit" / "ports" / "javascript" / "lineproto.js"

#: Each game's port folder, and the cases of its suite run against a copy.
PORTS: dict[str, tuple[Path, list[str]]] = {
    "cantstop": (
        ROOT / "examples" / "ports" / "javascript",
        ["spec-E00*", "moves-0000*", "apply-0000*", "explain-0000*"],
    ),
    "finishline": (
        ROOT / "finishline" / "ports" / "javascript",
        ["spec-E00*", "moves-0000*", "apply-0000*", "new-*"],
    ),
    "tower": (
        ROOT / "tower" / "ports" / "javascript",
        ["spec-E00*", "moves-0000*", "apply-0000*", "new-*"],
    ),
}

pytestmark = pytest.mark.skipif(NODE is None, reason=NODE_REASON)


def copy_commands(readme: Path) -> list[str]:
    """Return the commands of the ``sh`` block under the README's heading "Copying it"."""
    text = readme.read_text(encoding="utf-8")
    section = text.split("\n## Copying it\n", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None, f"{readme}: no sh block under 'Copying it'"
    return [line for line in block.group(1).splitlines() if line.strip()]


def copy_as_told(game: str, into: Path) -> Path:
    """Copy ``game``'s port into ``into/my-port`` by its README's commands; return the copy."""
    folder, _ = PORTS[game]
    commands = copy_commands(folder / "README.md")
    assert commands
    assert all(c.startswith("cp ") for c in commands), commands
    into.mkdir(parents=True, exist_ok=True)
    copy = into / "my-port"
    for command in commands:
        words = [copy.as_posix() if w == "my-port" else w for w in shlex.split(command)]
        words = [w.replace("my-port/", copy.as_posix() + "/") for w in words]
        subprocess.run(words, cwd=ROOT, check=True)
    return copy


@pytest.mark.parametrize("game", sorted(PORTS))
def test_a_port_copied_as_its_guide_says_runs(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The copy passes cases of its game's suite, with nothing of the checkout in reach."""
    copy = copy_as_told(game, tmp_path)
    assert (copy / "port.js").is_file()
    assert (copy / "lineproto.js").read_bytes() == SHARED.read_bytes()
    # Where a checkout keeps the shared module and the boards, the copy finds nothing.
    assert not (copy / "../../../dicekit/ports/javascript/lineproto.js").resolve().exists()
    assert not (copy / "../../boards").resolve().exists()
    _, chosen = PORTS[game]
    runs = [arg for glob in chosen for arg in ("--run", glob)]
    assert NODE is not None
    status = main(["conform", "--game", game, *runs, "--", NODE, str(copy / "port.js")])
    out = capsys.readouterr().out.splitlines()
    assert status == 0, out[-20:]
    passed = int(out[-1].split()[0])
    assert passed >= 20, out[-1]


@pytest.mark.parametrize("game", sorted(PORTS))
def test_a_copy_without_the_shared_module_names_it(game: str, tmp_path: Path) -> None:
    """A copy that leaves out ``lineproto.js`` stops at once, naming the file it lacks."""
    copy = copy_as_told(game, tmp_path)
    (copy / "lineproto.js").unlink()
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(copy / "port.js")],
        input='{"seq": 1, "op": "hello"}\n',
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert done.stdout == ""
    assert "lineproto.js" in done.stderr


@pytest.mark.parametrize(
    ("game", "installed"),
    [
        ("cantstop", "cantstop/_ports/javascript"),
        ("finishline", "finishline/ports/javascript"),
        ("tower", "tower/ports/javascript"),
    ],
)
def test_a_port_laid_out_as_installed_finds_the_shared_module(
    game: str, installed: str, tmp_path: Path
) -> None:
    """In a wheel's layout (``pyproject.toml``) each port finds ``lineproto.js`` in the layer."""
    folder, _ = PORTS[game]
    port = tmp_path / installed
    shutil.copytree(folder, port)
    shutil.copytree(SHARED.parent, tmp_path / "dicekit" / "ports" / "javascript")
    if game == "tower":
        shutil.copytree(ROOT / "tower" / "boards", tmp_path / "tower" / "boards")
    assert not (port / "lineproto.js").exists()
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(port / "port.js")],
        input='{"seq": 1, "op": "hello"}\n{"seq": 2, "op": "quit"}\n',
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    hello, bye = (json.loads(line) for line in done.stdout.splitlines())
    assert hello["game"] == game
    assert bye == {"seq": 2, "ok": True}


#: Lines that are no request, and what every port answers to each (``spec/protocol.md``, Lines).
NOT_REQUESTS: list[tuple[bytes, int | None, str]] = [
    (b"", None, "malformed request: an empty line"),
    (b" \t\r", None, "malformed request: an empty line"),
    (
        b'{"seq": 4, "op": "hello", "x": "\xff"}',
        None,
        "malformed request: a line that is not UTF-8: byte 0xff at position 32",
    ),
    (
        b'{"seq": 5, "op": "hello", "n": 1e999}',
        5,
        "malformed request: a number out of range: 1e999",
    ),
    (
        b'{"seq": 6, "x": ' + b"[" * 65 + b"]" * 65 + b"}",
        6,
        "malformed request: JSON nested more than 64 levels deep",
    ),
    (b'{"seq": 7, "op": NaN}', None, "malformed request: NaN is not JSON"),
    (b'{"seq": 8, "op"', None, "malformed request: a line that is not JSON: "),
    (b"[8]", None, "the request is not a JSON object: [8]"),
    (b'{"op": "hello"}', None, "the request has no seq"),
    (b'{"seq": 9.0, "op": "hello"}', None, "seq must be an integer within ±(2**53 - 1), not 9.0"),
    (b'{"seq": 10, "op": "jump"}', 10, 'unknown op "jump"'),
    (b'{"seq": 11, "op": 3}', 11, "unknown op of type number"),
    (b"7" * (1 << 20) + b"7", None, "malformed request: a line longer than 1,048,576 bytes"),
]


@pytest.mark.parametrize("game", sorted(PORTS))
def test_every_port_answers_lines_that_are_no_request_alike(game: str) -> None:
    """The three ports give each line that is no request the same answer, then end on quit."""
    folder, _ = PORTS[game]
    data = b"".join(line + b"\n" for line, _, _ in NOT_REQUESTS)
    data += b'{"seq": 12, "op": "quit"}\n{"seq": 13, "op": "hello"}\n'
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(folder / "port.js")], input=data, capture_output=True, timeout=60, check=True
    )
    answers = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert len(answers) == len(NOT_REQUESTS) + 1  # nothing after quit
    for (line, seq, message), got in zip(NOT_REQUESTS, answers, strict=False):
        assert got["seq"] == seq, line[:60]
        assert got["ok"] is False
        assert got["error"]["rule"] is None
        assert got["error"]["message"].startswith(message), (line[:60], got)
    assert answers[-1] == {"seq": 12, "ok": True}


@pytest.mark.parametrize("game", sorted(PORTS))
def test_an_integer_written_with_a_fraction_is_refused_by_every_port(game: str) -> None:
    """``players: 2.0`` is no integer (the reference refuses it): a rule, not an opening state."""
    folder, _ = PORTS[game]
    key = "rules" if game == "cantstop" else "config"
    line = f'{{"seq": 1, "op": "new", "{key}": {{"players": 2.0}}}}\n'
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(folder / "port.js")], input=line, capture_output=True, text=True, check=True
    )
    answer = json.loads(done.stdout)
    assert answer["ok"] is False
    assert answer["error"]["rule"] is not None
    reference = subprocess.run(
        [sys.executable, "-m", "cantstop", "serve", "--game", game],
        input=line,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert json.loads(reference.stdout)["error"]["rule"] == answer["error"]["rule"]


@pytest.mark.parametrize("game", sorted(PORTS))
def test_the_studies_copy_a_port_as_its_guide_does(game: str, tmp_path: Path) -> None:
    """:func:`~dicekit.conformance.heldout.copy_port` makes the README's copy, file for file."""
    folder, _ = PORTS[game]
    told = copy_as_told(game, tmp_path / "told")
    extras = (ROOT / "tower" / "boards",) if game == "tower" else ()
    made = copy_port(folder, tmp_path / "made", extras)

    def files(root: Path) -> dict[str, bytes]:
        return {
            p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()
        }

    assert files(made) == files(told)
