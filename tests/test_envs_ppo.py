"""The masked PPO sketch of the research page runs end to end with the ``rl`` extra alone.

The section "A masked PPO sketch" of ``docs/research.md`` is run by itself,
in a fresh namespace, as Sphinx's doctest builder would run it: it makes the
batched environment, trains a linear softmax policy over the mask by
proximal policy optimisation in NumPy, and its last example checks that the
trained policy wins the small board in at least one turn fewer, on average
over 256 seeded games, than the uniform policy over the mask.  Only
Gymnasium (the ``rl`` extra) is needed; the test is skipped, naming the
extra, without it.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from tests.extras import require

require("gymnasium")

PAGE = Path(__file__).resolve().parent.parent / "docs" / "research.md"
HEADING = "## A masked PPO sketch"
FLAGS = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_TRUE_FOR_1


def _section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(HEADING)
    end = text.find("\n## ", start + len(HEADING))
    return text[start : end if end >= 0 else len(text)]


def test_the_sketch_imports_nothing_beyond_numpy_gymnasium_and_cantstop() -> None:
    imports = re.findall(r"^>>> (?:import|from) (\w+)", _section(), flags=re.MULTILINE)
    assert set(imports) == {"numpy", "gymnasium", "cantstop"}


def test_the_masked_ppo_sketch_learns_to_win_in_fewer_turns() -> None:
    blocks = re.findall(r"^```\{doctest\}\n(.*?)^```$", _section(), flags=re.MULTILINE | re.DOTALL)
    assert len(blocks) == 2
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "ppo", str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, clear_globs=False)
    summary = runner.summarize(verbose=False)
    assert summary.attempted >= 10
    assert summary.failed == 0, f"{summary.failed} of {summary.attempted} examples failed"
    # The claim the page makes, read from the namespace the sketch left.
    assert test.globs["after"] < test.globs["before"] - 1
