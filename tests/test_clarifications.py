"""Every clarification of every game's spec names both readings: the one taken, the one refused.

A clarification is a paragraph that starts with ``**Reading.**``, in the
rules, the notation, the board file's spec and the questions page of each
game (Can't Stop's questions page is ``docs/questions.md``).  It says what the
source leaves open, then ``*Taken:*`` the reading the spec takes and why, then
``*Refused:*`` the reading (or readings) it refuses and why.  A paragraph that
weighs a reading without being one (``the other reading``, ``taken
literally``, ``reads ... as``) must stand in a section that holds a
clarification, or cite a rule whose section does: a questions page answers
briefly and sends the reader to the rule.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The files of each game's spec that may hold clarifications, and the least number of
#: clarifications each game's spec holds (so that a checker finding none fails).
GAMES: dict[str, tuple[tuple[str, ...], int]] = {
    "cantstop": (("spec/rules/*.md", "spec/notation.md", "docs/questions.md"), 8),
    "finishline": (
        (
            "finishline/spec/rules/*.md",
            "finishline/spec/notation.md",
            "finishline/spec/questions.md",
        ),
        6,
    ),
    "tower": (
        (
            "tower/spec/rules/*.md",
            "tower/spec/notation.md",
            "tower/spec/board.md",
            "tower/spec/questions.md",
        ),
        13,
    ),
}

MARK = "**Reading.**"
TAKEN, REFUSED = "*Taken:*", "*Refused:*"
#: Words that give a reason.
_WHY = re.compile(r"\b(because|since|would|as|so)\b")
#: Words that weigh a reading: a paragraph using them is, or points to, a clarification.
_WEIGHS = re.compile(
    r"\b(other|this|that|the) reading\b|\btaken literally\b|\bTaking it literally\b"
    r"|\breads? [^.]*?\bas\b|\bread here as\b|\bthe spec (takes|follows|departs)\b"
)
_RULE = re.compile(r"\b([RN]\d+\.\d+)\b")
_HEADING = re.compile(r"^(#{1,6}) (.*)$")


@dataclass
class Paragraph:
    """One paragraph of a spec file, with where it is and the section it belongs to."""

    path: Path
    line: int
    section: str  # the rule id of its heading, or the heading itself
    text: str


def paragraphs(path: Path) -> list[Paragraph]:
    """Return the paragraphs of a markdown file, leaving out fenced blocks and headings."""
    found: list[Paragraph] = []
    section, fenced = path.name, False
    block: list[str] = []
    start = 0
    lines = path.read_text(encoding="utf-8").splitlines()

    def flush() -> None:
        if block:
            found.append(Paragraph(path, start, section, " ".join(block)))
            block.clear()

    for number, line in enumerate(lines, start=1):
        if line.startswith("```"):
            flush()
            fenced = not fenced
            continue
        heading = _HEADING.match(line)
        if fenced:
            continue
        if heading or not line.strip():
            flush()
            if heading:
                title = heading.group(2).strip()
                rule = re.match(r"([RN]\d+(?:\.\d+)?) ", title)
                section = rule.group(1) if rule else f"{path.name}: {title}"
            continue
        if not block:
            start = number
        block.append(line.strip())
    flush()
    return found


def _words(text: str) -> int:
    return len(re.findall(r"\w+", text))


def check_reading(paragraph: Paragraph) -> list[str]:
    """Return what a clarification lacks: a reading taken, one refused, and why of each."""
    where = f"{paragraph.path.name}:{paragraph.line} ({paragraph.section})"
    text = paragraph.text
    if text.count(TAKEN) != 1:
        return [f"{where}: a clarification names the reading taken once, after {TAKEN}"]
    if REFUSED not in text:
        return [f"{where}: a clarification names the reading refused, after {REFUSED}"]
    question, rest = text.split(TAKEN)
    taken, refused = rest.split(REFUSED, 1)
    problems = []
    if _words(question.removeprefix(MARK)) < 6:
        problems.append(f"{where}: a clarification first says what the source leaves open")
    if _words(taken) < 6 or not _WHY.search(taken):
        problems.append(f"{where}: the reading taken is not given with why")
    if _words(refused) < 6 or not _WHY.search(refused):
        problems.append(f"{where}: the reading refused is not given with why")
    return problems


def check_spec(files: list[Path]) -> tuple[int, list[str]]:
    """Return the number of clarifications in ``files`` and what each spec file gets wrong."""
    every = [p for path in files for p in paragraphs(path)]
    readings = [p for p in every if p.text.startswith(MARK)]
    explained = {p.section for p in readings}
    problems = [problem for p in readings for problem in check_reading(p)]
    for p in every:
        if p.text.startswith(MARK):
            continue
        where = f"{p.path.name}:{p.line} ({p.section})"
        if TAKEN in p.text or REFUSED in p.text:
            problems.append(f"{where}: {TAKEN} and {REFUSED} belong in a {MARK} paragraph")
        elif _WEIGHS.search(p.text):
            cited = set(_RULE.findall(p.text))
            if p.section not in explained and not cited & explained:
                problems.append(
                    f"{where}: weighs a reading outside a clarification; start it with {MARK} "
                    f"or cite the rule whose clarification it follows"
                )
    return len(readings), problems


def _files(patterns: tuple[str, ...], root: Path = ROOT) -> list[Path]:
    files = [path for pattern in patterns for path in sorted(root.glob(pattern))]
    assert files, patterns
    return files


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_clarification_names_both_readings(game: str) -> None:
    """Each clarification names the reading taken and the one refused, each with why."""
    patterns, least = GAMES[game]
    count, problems = check_spec(_files(patterns))
    assert problems == []
    assert count >= least


def test_the_clarifications_asked_for_are_there() -> None:
    """Tower R8.3, R9.1 (twice: the short loop) and R9.3 are clarified; so is the race's R4.4."""
    tower = [p for path in _files(GAMES["tower"][0]) for p in paragraphs(path)]
    sections = [p.section for p in tower if p.text.startswith(MARK)]
    assert sections.count("R9.1") == 2
    assert {"R8.3", "R9.3"} <= set(sections)
    loop = next(
        p.text for p in tower if p.section == "R9.1" and "loop" in p.text and MARK in p.text
    )
    assert "E165" in loop


def _broken_tower(tmp_path: Path, old: str, new: str, name: str) -> list[str]:
    """Return the problems found in a copy of the tower's spec with ``old`` replaced in ``name``."""
    copy = tmp_path / "tower" / "spec"
    shutil.copytree(ROOT / "tower" / "spec", copy, ignore=shutil.ignore_patterns("conformance"))
    path = copy / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return check_spec(_files(GAMES["tower"][0], tmp_path))[1]


def test_a_clarification_without_the_reading_refused_fails(tmp_path: Path) -> None:
    """A broken copy: R4.3's clarification with its refused reading cut off is reported."""
    old = "*Refused:* a player may decline both dice"
    problems = _broken_tower(tmp_path, old, "A player may decline both dice", "rules/04-throw.md")
    assert problems == [
        "04-throw.md:68 (R4.3): a clarification names the reading refused, after *Refused:*"
    ]


def test_a_refused_reading_without_why_fails(tmp_path: Path) -> None:
    """A broken copy: a refused reading that gives no reason is reported."""
    old = """*Refused:* a rule that reads the players' ages,
because a state or record would then need the ages to say whose turn it is,
and two players of one age would leave the start undecided."""
    problems = _broken_tower(
        tmp_path, old, "*Refused:* a rule that reads the players' ages.", "rules/03-turn.md"
    )
    assert problems == ["03-turn.md:39 (R3.2): the reading refused is not given with why"]


def test_a_reading_weighed_outside_a_clarification_fails(tmp_path: Path) -> None:
    """A broken copy: a rule that weighs another reading without a clarification is reported."""
    old = "The number is fixed by the number of\nplayers and is not a separate option."
    new = old + " The other reading, a number chosen at setup, would change nothing."
    problems = _broken_tower(tmp_path, old, new, "rules/01-equipment.md")
    assert problems == [
        "01-equipment.md:31 (R1.2): weighs a reading outside a clarification; start it with "
        "**Reading.** or cite the rule whose clarification it follows"
    ]


def test_a_question_that_takes_a_reading_points_to_its_rule(tmp_path: Path) -> None:
    """A broken copy: an answer that reads the source, citing no clarified rule, is reported."""
    old = "Two with two or three players, one with four (R1.2)."
    new = "The spec reads the source's numbers as fixed: two, or one with four (R1.2)."
    problems = _broken_tower(tmp_path, old, new, "questions.md")
    assert len(problems) == 1
    assert problems[0].startswith("questions.md:302 (questions.md: How many stones")
