"""The command lines of the vector generator and the seeded-bug study (``commands.vectors``).

``python -m cantstop.conformance.generate`` and ``python -m
cantstop.conformance.study`` read their options in the command-line module
and keep their help, their usage errors (status 2) and their names.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cantstop.commands import vectors
from cantstop.conformance import generate, study

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_the_generators_help_names_its_one_option() -> None:
    done = _run("cantstop.conformance.generate", "--help")
    assert done.returncode == 0
    assert (
        done.stdout.splitlines()[0]
        == "usage: python -m cantstop.conformance.generate [-h] [--out OUT]"
    )
    assert "--out OUT   directory to write (default: the spec's)" in done.stdout


def test_an_unknown_option_of_the_generator_is_a_usage_error() -> None:
    done = _run("cantstop.conformance.generate", "--bogus")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines()[-1] == (
        "python -m cantstop.conformance.generate: error: unrecognized arguments: --bogus"
    )


def test_the_study_refuses_an_unknown_seeded_bug() -> None:
    done = _run("cantstop.conformance.study", "--mutant", "no-such-bug")
    assert done.returncode == 2
    assert "argument --mutant: invalid choice: 'no-such-bug'" in done.stderr
    assert done.stderr.startswith("usage: python -m cantstop.conformance.study [-h]")


def test_the_studys_held_out_help_is_the_layers() -> None:
    done = _run("cantstop.conformance.study", "--held-out", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python -m cantstop.conformance.study --held-out [-h]")


@pytest.mark.parametrize(("module", "name"), [(generate, "generate_main"), (study, "study_main")])
def test_the_modules_mains_hand_over_to_the_command_line_module(
    module: object, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[list[str]] = []

    def handed(argv: list[str]) -> int:
        seen.append(list(argv))
        return 7

    monkeypatch.setattr(vectors, name, handed)
    assert module.main(["--x"]) == 7  # type: ignore[attr-defined]
    assert seen == [["--x"]]


def test_the_modules_parse_no_options_themselves() -> None:
    for module in (generate, study):
        assert "argparse" not in Path(module.__file__ or "").read_text(encoding="utf-8")
