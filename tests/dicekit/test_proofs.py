"""The layer's proofs kit (``dicekit/proofs/``): induction, verdicts, the runner and the command.

The kit is run here on a counter modulo ``size``, a model that owes nothing
to any game: every invariant proved, every premise witnessed, a broken
model caught, a false property refuted.  The runner runs only the stages
asked for, and ``--full`` their slower variants; the command exits 1 on a
failure and 2 on a results file it cannot write.  The kit imports no game,
not even in a doctest; z3 is imported by ``dicekit/proofs/solver.py`` and by
no other module of any package; and without z3 the layer and the command
still import, the solver names the extra, and every game's ``python -m
GAME.proofs`` says so in one line and exits 2.
"""

from __future__ import annotations

import ast
import doctest
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.extras import require

require("z3")

from dicekit.proofs.command import command  # noqa: E402
from dicekit.proofs.induction import Induction, Premise  # noqa: E402
from dicekit.proofs.properties import Invariant, Mutant, StepProperty, named  # noqa: E402
from dicekit.proofs.results import Check  # noqa: E402
from dicekit.proofs.runner import Stage, Suite  # noqa: E402
from dicekit.proofs.solver import NEEDS_Z3, Z3, Outcome, Solver, Term, int_var  # noqa: E402
from dicekit.proofs.verdicts import witness  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "dicekit" / "proofs"
GAMES = ("cantstop", "finishline", "tower", "proofs")
#: Every tree whose modules may import z3, and the one module that does.
TREES = ("cantstop", "dicekit", "finishline", "tower", "proofs", "docs", "benchmarks", "tools")


# -- a model that is no game: a counter modulo its size -----------------------------------


@dataclass(frozen=True)
class CounterModel:
    """A counter that goes up by one and wraps to 0 at ``size``; ``overflow`` forgets to wrap."""

    size: int
    mutations: frozenset[str]

    def after(self, x: Term) -> Term:
        """Return the value after a tick from ``x``."""
        wrapped = x + 1 if "overflow" in self.mutations else Z3.ite(x + 1 == self.size, 0, x + 1)
        return wrapped


@dataclass(frozen=True)
class Tick:
    """A tick taken: the value before and after."""

    before: Term
    after: Term


def _in_range(model: CounterModel, x: Term) -> Term:
    return Z3.all([x >= 0, x < model.size])


def _moves(model: CounterModel, step: Tick) -> Term:
    return step.after != step.before


def _at_top(model: CounterModel, x: Term) -> Term:
    return x == model.size - 1


def _wraps(model: CounterModel, step: Tick) -> Term:
    return step.after == 0


INVARIANTS: tuple[Invariant[CounterModel, Term, Term], ...] = (
    Invariant("C1 in range", "C1", _in_range, _at_top),
)
STEPS: tuple[StepProperty[CounterModel, Tick], ...] = (
    StepProperty("C2 a tick moves", "C2", ("tick",), _moves, _wraps),
)


class CounterProofs(Induction[int, CounterModel, Term, Tick]):
    """The counter's proofs: an opening at 0, one transition."""

    def model(self, config: int, mutations: frozenset[str] = frozenset()) -> CounterModel:
        """Return the counter modulo ``config``."""
        return CounterModel(config, mutations)

    def opening(self, model: CounterModel) -> Premise[Term]:
        """Return the opening: the counter at 0."""
        x = int_var("x0")
        solver = Solver()
        solver.add(x == 0)
        return Premise(solver, x, lambda found: str(found.value(x)))

    def premise(self, model: CounterModel, transition: str) -> Premise[Tick]:
        """Return a tick from any value in range."""
        x = int_var("x")
        step = Tick(x, model.after(x))
        solver = Solver()
        solver.add(_in_range(model, x))
        return Premise(solver, step, lambda found: f"{found.value(x)} -> {found.value(step.after)}")


PROOFS = CounterProofs({"two": 2, "four": 4}, ("tick",), INVARIANTS, STEPS)


def test_the_induction_proves_every_property_with_a_witness_of_every_premise() -> None:
    """Each invariant at the opening and after each tick, each step property, each premise."""
    checks = list(PROOFS.prove_all())
    assert [(c.name, c.result) for c in checks] == [
        (f"{name} | {transition} | {config}", result)
        for config in ("two", "four")
        for name, transition, result in (
            ("witness premises", "init", "witness"),
            ("C1 in range", "init", "proved"),
            ("witness premises", "tick", "witness"),
            ("C1 in range", "tick", "proved"),
            ("C2 a tick moves", "tick", "proved"),
        )
    ]
    assert checks[1].detail == "covers C1"
    assert checks[0].detail == "0"


def test_focused_witnesses_are_sought_on_each_propertys_first_configuration() -> None:
    """The focus of C1 (the top value) and of C2 (a wrap to 0) are met on the size-2 counter."""
    found = {c.property: c for c in PROOFS.witnesses()}
    assert {name: (c.config, c.result) for name, c in found.items()} == {
        "C1 in range": ("two", "witness"),
        "C2 a tick moves": ("two", "witness"),
    }
    # The invariant's focus holds before or after the tick: 1 -> 0 or 0 -> 1.
    assert found["C1 in range"].detail in ("1 -> 0", "0 -> 1")
    assert found["C2 a tick moves"].detail == "1 -> 0"


def test_a_broken_model_is_caught_and_a_false_property_refuted() -> None:
    """The counter that forgets to wrap leaves its range; a tick that stays put is refuted."""
    (caught,) = PROOFS.run_mutants(
        [Mutant("overflow", "the counter does not wrap", "C1 in range", "tick", "four")]
    )
    assert (caught.name, caught.result) == (
        "C1 in range | tick | four | mutant overflow",
        "caught",
    )
    assert caught.detail == "the counter does not wrap: 3 -> 4"
    standing: StepProperty[CounterModel, Tick] = StepProperty(
        "C3 a tick stands", "C3", ("tick",), lambda m, t: t.after == t.before
    )
    wrong = CounterProofs({"two": 2}, ("tick",), INVARIANTS, (standing,))
    results = {c.property: (c.result, c.detail) for c in wrong.prove_all()}
    result, detail = results["C3 a tick stands"]
    assert result == "counterexample"
    before, after = detail.split(" -> ")
    assert (int(before) + 1) % 2 == int(after)


def test_a_witness_says_when_the_focus_or_the_premises_cannot_hold() -> None:
    """Premises only, with the focus missed; and a failure when the focus must be met."""
    x = int_var("w")
    solver = Solver()
    solver.add(x >= 0, x <= 2)

    def shown(found: Outcome) -> str:
        return str(found.value(x))

    missed = witness(solver, x > 5, "p", "t", "c", shown)
    assert (missed.result, missed.detail) == ("witness", "(no state in focus; premises only) 0")
    strict = witness(solver, x > 5, "p", "t", "c", shown, premises_only=False)
    assert strict.result == "unknown"
    assert not strict.ok
    tidy = witness(solver, x >= 1, "p", "t", "c", shown, tidy=[x == 2])
    assert tidy.detail == "2"
    untidy = witness(solver, x >= 1, "p", "t", "c", shown, tidy=[x == 7])
    assert untidy.result == "witness"


def test_a_property_is_named_by_a_unique_prefix() -> None:
    """``named`` finds the one property a prefix names, and refuses none or several."""
    props: list[Invariant[CounterModel, Term, Term] | StepProperty[CounterModel, Tick]]
    props = [*INVARIANTS, *STEPS]
    assert named(props, "C2").name == "C2 a tick moves"
    with pytest.raises(LookupError, match="no single property named 'C'"):
        named(props, "C")
    with pytest.raises(LookupError):
        named(INVARIANTS, "R1")


# -- the runner and the command ------------------------------------------------------------


def _stage(ran: list[str], name: str, *groups: str, result: str = "witness") -> Stage:
    def work() -> list[Check]:
        ran.append(name)
        return [Check(f"{name} {g}", g, name, None, "c", result, 0.0) for g in groups]

    return Stage(frozenset(groups), work)


def test_the_runner_runs_only_the_stages_of_the_groups_asked_for() -> None:
    """A stage runs when one of its groups is asked for; only checks of those groups come out."""
    ran: list[str] = []
    both = _stage(ran, "proofs", "induction", "non-vacuity")
    bmc = _stage(ran, "traces", "bmc")
    runs = Suite("a test suite", "none", (both, bmc))
    assert runs.groups == ("induction", "non-vacuity", "bmc")
    found = [c.name for c in runs.run(["non-vacuity"])]
    assert found == ["proofs non-vacuity"]
    assert ran == ["proofs"]
    with pytest.raises(ValueError, match="unknown groups \\['proof'\\]"):
        list(runs.run(["proof"]))


def test_full_runs_the_slower_variant_of_a_stage(capsys: pytest.CaptureFixture[str]) -> None:
    """``--full`` exists only for a suite with a full stage, and runs that stage's variant."""
    ran: list[str] = []
    quick = _stage(ran, "quick", "link", result="agree")
    slow = _stage(ran, "slow", "link", result="agree")
    plain = Suite("a plain suite", "none", (quick,))
    with pytest.raises(SystemExit) as usage:
        command(plain, ["--full"])
    assert usage.value.code == 2
    full = Suite("a suite", "none", (Stage(quick.groups, quick.run, slow.run),), full_help="slow")
    assert command(full, []) == 0
    assert command(full, ["--full"]) == 0
    assert ran == ["quick", "slow"]
    assert "--full" in capsys.readouterr().err


def test_the_command_exits_non_zero_on_a_failure(capsys: pytest.CaptureFixture[str]) -> None:
    """Any counterexample or unknown makes the command fail, and the table marks it."""

    def failing() -> list[Check]:
        return [Check("x | move | 2p", "induction", "x", "move", "2p", "unknown", 0.0, "gave up")]

    broken = Suite("a broken suite", "none", (Stage(frozenset({"induction"}), failing),))
    assert command(broken, []) == 1
    out = capsys.readouterr().out
    assert "1 checks, 1 failed" in out
    assert out.startswith("! unknown ")
    assert "    gave up" in out  # a failure's detail is printed without -v


def test_the_command_writes_the_results_file_or_says_why_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--json PATH`` writes every check with its rules; an unwritable path is status 2."""
    ran: list[str] = []
    suite = Suite(
        "a suite", "make it", (_stage(ran, "R1.2 p", "bmc"),), rules={"R1.2 p": "R1.2 R3"}
    )
    path = tmp_path / "results.json"
    assert command(suite, ["--json", str(path)], "python -m toy.proofs") == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) == {"z3_version", "generated_by", "checks"}
    assert data["generated_by"] == "make it"
    assert [c["rules"] for c in data["checks"]] == [["R1.2", "R3"]]
    assert f"wrote {path}" in capsys.readouterr().out
    missing = tmp_path / "no such folder" / "results.json"
    assert command(suite, ["--json", str(missing)], "python -m toy.proofs") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"python -m toy.proofs: error: cannot write {missing}: ")


# -- what the kit imports ------------------------------------------------------------------


def _imports(source: str) -> set[str]:
    """Return every module ``source`` imports, at any depth."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def _doctest_source(path: Path) -> str:
    """Return the code of every doctest example in the module at ``path``."""
    parser = doctest.DocTestParser()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    texts = [
        ast.get_docstring(node) or ""
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
    ]
    return "\n".join(example.source for text in texts for example in parser.get_examples(text))


def test_the_kit_imports_no_game_not_even_in_a_doctest() -> None:
    """A module of dicekit/proofs and its doctests import the layer, z3 or the standard library."""
    modules = sorted(KIT.glob("*.py"))
    assert {p.name for p in modules} >= {
        "solver.py",
        "results.py",
        "verdicts.py",
        "properties.py",
        "induction.py",
        "runner.py",
        "command.py",
    }
    doctests = 0
    for path in modules:
        examples = _doctest_source(path)
        doctests += bool(examples)
        named = _imports(path.read_text(encoding="utf-8")) | _imports(examples)
        tops = {name.split(".")[0] for name in named}
        assert not tops & set(GAMES), path.name
        assert tops <= {"dicekit", "z3", *sys.stdlib_module_names}, (path.name, tops)
    assert doctests >= 4


def test_the_check_finds_an_import_in_a_doctest(tmp_path: Path) -> None:
    """A game imported in a doctest is found, as one imported by the code."""
    sample = tmp_path / "sample.py"
    sample.write_text('"""A sample.\n\n>>> from tower import GAME\n"""\nimport json\n')
    assert _imports(_doctest_source(sample)) == {"tower"}
    assert _imports(sample.read_text()) == {"json"}


def test_z3_is_imported_by_the_kits_solver_alone() -> None:
    """No module of any package, the proofs or the tools imports z3 but dicekit/proofs/solver.py."""
    users = sorted(
        path.relative_to(ROOT).as_posix()
        for tree in TREES
        for path in (ROOT / tree).rglob("*.py")
        if "z3" in {name.split(".")[0] for name in _imports(path.read_text(encoding="utf-8"))}
    )
    assert users == ["dicekit/proofs/solver.py"]


# -- without z3 ----------------------------------------------------------------------------

#: Run in a fresh interpreter where ``import z3`` fails, as without the ``proofs`` extra.
_WITHOUT_Z3 = "import sys; sys.modules['z3'] = None\n"


def _without_z3(code: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _WITHOUT_Z3 + code, *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )


def test_without_z3_the_layer_imports_and_the_solver_names_the_extra() -> None:
    """``dicekit`` and ``dicekit.proofs`` import; the solver raises naming the proofs extra."""
    run = _without_z3(
        "import dicekit, dicekit.proofs, dicekit.proofs.command\n"
        "try:\n"
        "    import dicekit.proofs.solver\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error.name, error.msg)\n"
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"z3 {NEEDS_Z3}\n"
    assert "needs the 'proofs' extra" in NEEDS_Z3
    assert "pip install 'cantstop[proofs]'" in NEEDS_Z3


@pytest.mark.parametrize("package", ["proofs", "finishline.proofs", "tower.proofs"])
def test_without_z3_every_games_command_says_so_and_exits_2(package: str) -> None:
    """``python -m GAME.proofs`` without z3: one line on stderr, naming the extra; status 2."""
    run = _without_z3(
        "import runpy\nrunpy.run_module(sys.argv.pop(1), run_name='__main__')\n",
        package,
    )
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    assert run.stderr == f"python -m {package}: error: {NEEDS_Z3}\n"
