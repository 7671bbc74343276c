"""The documentation site, all three games: a -n -W build, doctests, examples, tables, a browser."""

from __future__ import annotations

import ast
import doctest
import importlib
import itertools
import os
import pkgutil
import posixpath
import re
import shutil
import subprocess
import sys
import zlib
from collections.abc import Iterator
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from cantstop.spec import load_spec
from dicekit.spec import Spec, load_game_spec
from tests.docsite import built_site
from tests.extras import CHROMIUM_REASON, require

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: The games beside Can't Stop, each with its section of the site in the directory of its name.
GAMES = ("finishline", "tower")


def game_spec(name: str) -> Spec:
    """Return the spec of the game ``name`` (a package with its ``GAME``), as the layer reads it."""
    return load_game_spec(importlib.import_module(name).GAME)


require("sphinx")
require("myst_parser")


def sphinx(
    source: Path, out: Path, builder: str = "html", *, strict: bool = True
) -> subprocess.CompletedProcess[str]:
    flags = ["-E", "-n", "-W"] if strict else ["-E"]
    return subprocess.run(
        [sys.executable, "-m", "sphinx", *flags, "-q", "-b", builder, str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_site(tmp_path_factory)


class Tables(HTMLParser):
    """Collect the text of every table cell, row by row, table by table."""

    # The three handlers override HTMLParser's; they are documented there.

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:  # noqa: D102
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:  # noqa: D102
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:  # noqa: D102
        if self._cell is not None:
            self._cell.append(data)


def tables(page: Path) -> list[list[list[str]]]:
    parser = Tables()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.tables


def sums(dice: tuple[int, ...]) -> set[int]:
    """Every sum some pairing of four dice makes (R4.2), counted here from scratch."""
    a, b, c, d = dice
    return {a + b, c + d, a + c, b + d, a + d, b + c}


def all_rolls() -> Iterator[tuple[int, ...]]:
    return itertools.product(range(1, 7), repeat=4)


def test_the_site_builds_nitpicky_with_warnings_as_errors(site: Path) -> None:
    pages = ("index", "rules/index", "notation", "perft", "api", "proofs", "ports", "explain")
    for page in (*pages, "questions", "glossary", "sources", "games"):
        assert (site / f"{page}.html").is_file(), page
    assert (site / "probabilities.html").is_file()
    for game in GAMES:
        for page in ("index", "rules/index", "notation", "questions", "sources", "proofs"):
            assert (site / game / f"{page}.html").is_file(), (game, page)
        for chapter in sorted((ROOT / game / "spec" / "rules").glob("*.md")):
            assert (site / game / "rules" / f"{chapter.stem}.html").is_file(), chapter
    assert (site / "tower" / "board.html").is_file()
    assert (site / "tower" / "boards.html").is_file()


def test_the_doctest_builder_passes(tmp_path: Path) -> None:
    run = sphinx(DOCS, tmp_path, "doctest")
    assert run.returncode == 0, run.stdout + run.stderr
    report = (tmp_path / "output.txt").read_text(encoding="utf-8")
    assert re.search(r"\b0 failures in tests", report), report
    assert not re.search(r"^\s*0 tests\b", report, re.MULTILINE), report


#: Run in a fresh interpreter where the research frameworks cannot be imported, as with the
#: docs extra alone: read docs/conf.py, then import every module a page documents, under the
#: mocks conf.py chose, as autodoc does.  Print the mocks, then one line per failed import.
WITHOUT_FRAMEWORKS = """
import importlib, runpy, sys
from importlib.abc import MetaPathFinder
BLOCKED = set(sys.argv[1].split(","))

class Blocker(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Blocker())
from sphinx.ext.autodoc.mock import mock
conf = runpy.run_path(sys.argv[2])
print(",".join(conf["autodoc_mock_imports"]))
with mock(conf["autodoc_mock_imports"]):
    for name in sys.argv[3:]:
        try:
            importlib.import_module(name)
        except Exception as exc:
            print(f"{name}: {type(exc).__name__}: {exc}")
"""


def test_the_docs_extra_installs_no_framework_and_the_pages_need_none() -> None:
    """The docs extra installs Sphinx and its readers only; every documented module imports.

    OpenSpiel, Gymnasium, PettingZoo, numba, numpy and Ray are not in it (they
    weigh over 600 MB); docs/conf.py has autodoc mock each one that is missing,
    and with all of them missing every module a page documents still imports,
    as autodoc imports it.  The whole build without them is checked by hand with
    the README's command in a fresh venv.
    """
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    names = {re.split(r"[<>=\[ ]", r)[0].lower() for r in extras["docs"]}
    assert names == {"sphinx", "myst-parser", "furo", "hypothesis"}
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    frameworks = re.search(r"^FRAMEWORKS = \((.*)\)$", conf, re.MULTILINE)
    assert frameworks is not None
    blocked = [name.strip().strip('"') for name in frameworks.group(1).split(",")]
    assert {"numpy", "numba", "pyspiel", "gymnasium", "pettingzoo", "ray"} <= set(blocked)
    pages = "".join(path.read_text(encoding="utf-8") for path in DOCS.rglob("*.md"))
    modules = sorted(set(re.findall(r"^\.\. automodule:: ([\w.]+)$", pages, re.MULTILINE)))
    assert {"cantstop.openspiel", "cantstop.envs.gymnasium", "cantstop.solve"} <= set(modules)
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            WITHOUT_FRAMEWORKS,
            ",".join(blocked),
            str(DOCS / "conf.py"),
            *modules,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    mocked, *failed = run.stdout.splitlines()
    assert sorted(mocked.split(",")) == sorted(blocked)
    assert failed == []


def test_every_spec_example_is_on_its_page_with_its_pictures(site: Path) -> None:
    spec = load_spec()
    pages: dict[str, str] = {}
    cards: dict[str, str] = {}
    for example in spec.examples:
        page = example.path.removesuffix(".md") + ".html"
        if page not in pages:
            pages[page] = (site / page).read_text(encoding="utf-8")
            for chunk in pages[page].split('<div class="cs-example docutils container" id="')[1:]:
                cards[page + "#" + chunk[: chunk.index('"')]] = chunk
        card = cards.get(f"{page}#{example.id.lower()}", "")
        assert card, f"{example.id} is not on {page}"
        assert "ran against the engine: passed" in card, example.id
        if example.get("state") is not None:
            assert 'class="cantstop-board"' in card, example.id
        rolls = [a for a in (example.get("actions") or example.get("action") or "").split()]
        if any(a.startswith("r") for a in rolls):
            assert 'class="cantstop-dice"' in card, example.id
        if example.get("result") is not None and example.get("error") is None:
            assert card.count('class="cantstop-board"') >= 2, example.id
    assert len(cards) == len(spec.examples)
    for html in pages.values():
        assert "FAILED" not in html


def cards_of(html: str) -> dict[str, str]:
    """Return the HTML of each example card of a page, by the card's anchor."""
    chunks = html.split('<div class="cs-example docutils container" id="')[1:]
    return {chunk[: chunk.index('"')]: chunk[: chunk.find("</dl>")] for chunk in chunks}


@pytest.mark.parametrize("game", GAMES)
def test_every_example_of_the_other_games_is_on_its_page_with_its_drawings(
    site: Path, game: str
) -> None:
    """Each example of the game's spec is on the page of its file, passed, drawn by the game.

    A page of the section mirrors a file of the spec (``rules/05-placing.md`` is
    ``finishline/rules/05-placing.html``); an example with a state shows it
    drawn, and one with a result and no error the state after as well.
    """
    spec = game_spec(game)
    board = f'class="{game}-board"'
    pages: dict[str, str] = {}
    seen = 0
    for example in spec.examples:
        page = f"{game}/{example.path.removesuffix('.md')}.html"
        if page not in pages:
            pages[page] = (site / page).read_text(encoding="utf-8")
        card = cards_of(pages[page]).get(example.id.lower(), "")
        assert card, f"{game} {example.id} is not on {page}"
        assert "ran against the engine: passed" in card, (game, example.id)
        if example.get("state") is not None:
            assert board in card, (game, example.id)
        if example.get("result") is not None and example.get("error") is None:
            assert card.count(board) >= 2, (game, example.id)
        if example.get("error") is not None:
            assert f">{example.get('error')}</a>" in card, (game, example.id)
        seen += 1
    assert seen == len(spec.examples) == sum(len(cards_of(html)) for html in pages.values())
    for html in pages.values():
        assert "FAILED" not in html


class Entries(HTMLParser):
    """Collect each section under a third-level heading: its title and the examples in it."""

    # The handlers override HTMLParser's; they are documented there.

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[str, list[str]] = {}
        self._open: list[str | None] = []  # for each open section, the entry it is, if any
        self._title: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:  # noqa: D102
        found = dict(attrs)
        if tag == "section":
            self._open.append(None)
        elif tag == "h3" and self._open:
            self._title = []
        elif tag == "div" and "cs-example" in (found.get("class") or "").split():
            entry = next((e for e in reversed(self._open) if e is not None), None)
            if entry is not None:
                self.entries[entry].append(str(found.get("id")))

    def handle_endtag(self, tag: str) -> None:  # noqa: D102
        if tag == "section" and self._open:
            self._open.pop()
        elif tag == "h3" and self._title is not None:
            title = "".join(self._title).strip().rstrip("\N{PILCROW SIGN}").strip()
            self.entries[title] = []
            self._open[-1] = title
            self._title = None

    def handle_data(self, data: str) -> None:  # noqa: D102
        if self._title is not None:
            self._title.append(data)


@pytest.mark.parametrize("game", GAMES)
def test_each_questions_page_of_the_other_games_has_every_entry(site: Path, game: str) -> None:
    """Every question of the game's questions.md is on its page, with the examples under it."""
    wanted: dict[str, list[str]] = {}
    current = None
    for line in (ROOT / game / "spec" / "questions.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            current = line[4:].strip()
            wanted[current] = []
        elif line.startswith("id: E") and current is not None:
            wanted[current].append(line[4:].strip().lower())
    assert len(wanted) >= 15
    assert all(wanted.values()), "each question has an example"
    parser = Entries()
    parser.feed((site / game / "questions.html").read_text(encoding="utf-8"))
    assert parser.entries == wanted


def rule_links(page: Path, site: Path) -> set[str]:
    """Return where each rule link of ``page`` leads: a page of the site and the anchor."""
    html = page.read_text(encoding="utf-8")
    here = page.relative_to(site).parent.as_posix()
    found = set()
    for href in re.findall(r'class="cs-rule reference internal" href="([^"]+)"', html):
        path, _, anchor = href.partition("#")
        target = page.relative_to(site).as_posix() if not path else f"{here}/{path}"
        found.add(posixpath.normpath(target) + "#" + anchor)
    return found


def test_rule_ids_link_to_the_rules_of_the_pages_own_game(site: Path) -> None:
    """R5.2 means another rule in each game: each page's rule ids link to its own game's rules."""
    for game in GAMES:
        pages = sorted((site / game).rglob("*.html"))
        assert pages
        for page in pages:
            for link in rule_links(page, site):
                assert link.startswith(f"{game}/"), (page, link)
    moving = rule_links(site / "finishline" / "rules" / "06-moving.html", site)
    assert "finishline/rules/01-equipment.html#rule-r1-2" in moving  # R1.2 The finish line
    assert "finishline/rules/06-moving.html#rule-r6-4" in moving
    sources = rule_links(site / "tower" / "sources.html", site)
    assert "tower/rules/02-board.html#rule-r2-7" in sources  # R2.7 The shipped boards
    for page in [*sorted((site / "rules").glob("*.html")), site / "questions.html"]:
        for link in rule_links(page, site):
            assert not link.startswith(tuple(f"{game}/" for game in GAMES)), (page, link)
    assert "rules/05-playing-a-sum.html#rule-r5-2" in rule_links(site / "questions.html", site)


@pytest.mark.parametrize("game", GAMES)
def test_the_other_games_rule_pages_list_the_proof_checks_that_cite_them(
    site: Path, game: str
) -> None:
    """Every rule a check of the game's results file cites lists it, linked to the game's table."""
    import json

    results = json.loads((ROOT / game / "proofs" / "results.json").read_text(encoding="utf-8"))
    proofs = (site / game / "proofs.html").read_text(encoding="utf-8")
    spec = game_spec(game)
    cited: dict[str, set[str]] = {}
    for check in results["checks"]:
        for rule in check["rules"]:
            cited.setdefault(rule, set()).add(check["property"])
    assert cited
    for rule, properties in cited.items():
        path = site / game / (spec.rules[rule].path.removesuffix(".md") + ".html")
        html = path.read_text(encoding="utf-8")
        section = html[html.index(f'<section id="rule-{rule.lower().replace(".", "-")}"') :]
        box = section[section.index("Proof checks that cite this rule") :]
        box = box[: box.index("</details>")]
        up = "../" * (len(path.relative_to(site / game).parts) - 1)
        for prop in properties:
            anchor = "proof-" + re.sub(r"[^a-z0-9]+", "-", prop.lower()).strip("-")
            assert f'href="{up}proofs.html#{anchor}"' in box, (game, rule, prop)
            assert f'id="{anchor}"' in proofs, (game, prop)
    assert f"{len(results['checks'])} checks with z3" in proofs


def test_each_shipped_board_is_drawn_from_its_file(site: Path) -> None:
    """The boards page draws each file of tower/boards/ with its fields, as our own construction."""
    import json

    from tower.board import BOARD_FILES

    html = (site / "tower" / "boards.html").read_text(encoding="utf-8")
    names = BOARD_FILES.names()
    assert names == ("ours", "small")
    for name in names:
        data = json.loads((ROOT / "tower" / "boards" / f"{name}.json").read_text("utf-8"))
        start = html.index(f'<span class="pre">tower/boards/{name}.json</span>')
        box = html[start : html.index("</table>", start)]
        assert (
            "the project's own construction, not the published board" in html[start : start + 600]
        )
        svg = box[box.index('<svg xmlns="http://www.w3.org/2000/svg" class="tower-board"') :]
        svg = svg[: svg.index("</svg>")]
        assert f"@{name}</title>" in svg
        drawn = re.findall(r'<g class="field" data-field="(\d+)">', svg)
        assert sorted(map(int, drawn)) == sorted(map(int, data["fields"])), name
        # The table has a row per colour of the file, with its goal field.
        for letter, colour in data["colours"].items():
            assert f"<p>{colour['name']} ({letter})</p>" in box, (name, letter)
            assert f"<p>{colour['goal']}</p>" in box, (name, letter)


def test_the_other_games_name_their_source_and_its_readings(site: Path) -> None:
    """Each game's Sources page says what its source is and links the rules of its readings."""
    for game, number, readings in (("finishline", "003", 6), ("tower", "002", 8)):
        html = (site / game / "sources.html").read_text(encoding="utf-8")
        assert f"source {number}" in html, game
        section = html[html.index('id="the-readings-the-spec-took"') :]
        assert section.count("<li><p><strong>") >= readings, game
        linked = set(re.findall(r'class="cs-rule reference internal" href="([^"]+)"', section))
        assert len(linked) >= readings, game


def test_the_front_page_and_the_games_page_lead_to_every_game(site: Path) -> None:
    """Can't Stop's pages come first; a second part of the navigation holds the other games."""
    index = (site / "index.html").read_text(encoding="utf-8")
    toctrees = index[index.index('class="toctree-wrapper') :]
    links = re.findall(r'<a class="reference internal" href="([^"#]+)"', toctrees)
    assert links[0] == "questions.html"
    assert links.index("games.html") > links.index("ports.html")
    for game in GAMES:
        assert f"{game}/index.html" in links
        assert f'href="{game}/index.html"' in index[: index.index('class="toctree-wrapper')]
    games = (site / "games.html").read_text(encoding="utf-8")
    for target in ("index.html", "finishline/index.html", "tower/index.html"):
        assert f'href="{target}"' in games, target
    for step in ("Numbered rules with clarifications.", "Examples that run.", "Hypothesis"):
        assert step in games, step


def documented(site: Path) -> set[str]:
    """Return the Python names in the site's inventory (objects.inv)."""
    raw = (site / "objects.inv").read_bytes()
    body = zlib.decompress(raw.split(b"\n", 4)[4]).decode()
    return {line.split(" ", 1)[0] for line in body.splitlines() if " py:" in line}


def test_the_api_reference_documents_every_public_module_and_name(site: Path) -> None:
    import cantstop

    names = documented(site)
    modules = [
        info.name
        for info in pkgutil.walk_packages(cantstop.__path__, "cantstop.")
        if not any(part.startswith("_") for part in info.name.split("."))
    ]
    assert "cantstop.svg" in modules
    for name in ["cantstop", *modules]:
        module = importlib.import_module(name)
        assert name in names, f"module {name} is not in the API reference"
        for public in getattr(module, "__all__", []):
            exported = public in cantstop.__all__ and getattr(cantstop, public) is getattr(
                module, public
            )
            assert (
                f"{name}.{public}" in names
                or (exported and f"cantstop.{public}" in names)
                or _documented_elsewhere(module, public, names)
            ), f"{name}.{public} is not in the API reference"


def _documented_elsewhere(module: ModuleType, public: str, names: set[str]) -> bool:
    """Whether ``module.public`` is the very object a documented module of its home exports.

    Its home is ``dicekit`` (the layer), or ``cantstop`` for a module kept at
    an old path as an alias of the module that now holds its names.
    """
    value = getattr(module, public)
    return any(
        getattr(sys.modules[home], public, None) is value and f"{home}.{public}" in names
        for home in list(sys.modules)
        if home.startswith(("dicekit", "cantstop")) and home != module.__name__
    )


def test_rule_headings_are_anchored_and_rule_ids_link_to_them(site: Path) -> None:
    html = (site / "rules" / "05-playing-a-sum.html").read_text(encoding="utf-8")
    assert 'id="rule-r5-2"' in html
    # R13.1 is cited in R5.1's text and lives on another page.
    assert 'href="13-sharing.html#rule-r13-1"' in html


def test_the_three_column_table_matches_a_count_of_all_1296_rolls(site: Path) -> None:
    (table,) = [t for t in tables(site / "probabilities.html") if len(t) == 166]
    header, *rows = table
    assert header[1] == "Columns"
    seen = set()
    for row in rows:
        columns = tuple(int(c) for c in row[1].split())
        busts = sum(1 for roll in all_rolls() if not sums(roll) & set(columns))
        assert Fraction(row[2]) == Fraction(busts, 1296), row
        assert Fraction(row[4]) == 1 - Fraction(busts, 1296), row
        seen.add(columns)
    assert seen == set(itertools.combinations(range(2, 13), 3))
    chances = [Fraction(row[2]) for row in rows]
    assert chances == sorted(chances)  # safest first
    # The best-known figure of the game: 6, 7, 8 make at least one sum 92% of the time.
    assert rows[0][1] == "6 7 8"
    assert rows[0][3] == "8.02 %"
    # The per cent sign stays on the line of its number: a no-break space holds them.
    assert "<p>8.02\N{NO-BREAK SPACE}%</p>" in (site / "probabilities.html").read_text("utf-8")


def test_the_single_column_table_matches_a_count_of_all_1296_rolls(site: Path) -> None:
    (table,) = [t for t in tables(site / "probabilities.html") if len(t) == 12]
    for row in table[1:]:
        column = int(row[0])
        makes = sum(1 for roll in all_rolls() if column in sums(roll))
        assert Fraction(row[1]) == Fraction(makes, 1296), row


def mini_site(tmp_path: Path, page: str, spec_files: dict[str, str]) -> Path:
    """Return the source directory of a small site that uses the extension on its own spec."""
    source = tmp_path / "src"
    (source / "spec" / "rules").mkdir(parents=True)
    for name, text in spec_files.items():
        (source / "spec" / "rules" / name).write_text(text, encoding="utf-8")
    (source / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(DOCS / '_ext')!r})\n"
        "extensions = ['myst_parser', 'cantstop_spec']\n"
        "cantstop_spec_dir = 'spec'\n"
        "cantstop_proof_results = 'results.json'\n"
        "exclude_patterns = ['spec']\n",
        encoding="utf-8",
    )
    (source / "index.md").write_text(page, encoding="utf-8")
    return source


CHAPTER = """# A chapter

## R1 Chapter

### R1.1 A rule
Text of the rule, which cites R1.1.

```example
id: E001
title: A stop passes the turn
rules: R1.1
state: -/- 7:3 0d
action: stop
event: stopped
result: 7:3/- - 1r
```

```example
id: E002
title: An example whose expected state is wrong
rules: R1.1
state: -/- 7:3 0d
action: stop
result: 7:4/- - 1r
```
"""

INCLUDE = "```{include} spec/rules/01-chapter.md\n```\n"


@pytest.mark.parametrize("strict", [True, False], ids=["-W", "no -W"])
def test_a_failing_example_fails_the_build_naming_it(tmp_path: Path, strict: bool) -> None:
    source = mini_site(tmp_path, INCLUDE, {"01-chapter.md": CHAPTER})
    build = sphinx(source, tmp_path / "out", strict=strict)
    output = build.stdout + build.stderr
    assert build.returncode != 0
    assert "spec example failed: E002 (rules/01-chapter.md:" in output
    assert "expected state '7:4/- - 1r', got '7:3/- - 1r'" in output
    assert "E001" not in output  # the passing example is not blamed
    assert "Traceback" not in output


def test_an_example_left_off_the_site_fails_the_build(tmp_path: Path) -> None:
    good = CHAPTER[: CHAPTER.index("```example\nid: E002")]
    other = "# Other\n\n## R2 Other\n\n### R2.1 Rule\n\n```example\nid: E003\ntitle: t\n"
    other += "rules: R2.1\nstate: -/- - 0r\nmoves: none\n```\n"
    source = mini_site(tmp_path, INCLUDE, {"01-chapter.md": good, "02-other.md": other})
    build = sphinx(source, tmp_path / "out")
    output = build.stdout + build.stderr
    assert build.returncode != 0
    assert "examples not on any page: E003 (rules/02-other.md)" in output
    assert "rules without a heading on any page: R2, R2.1" in output


RESULTS = """{"z3_version": "4.15.4", "generated_by": "python -m proofs --json x",
 "checks": [
  {"name": "markers-at-most-three/stop", "group": "induction", "property": "R16.1",
   "transition": "stop", "config": "2 players", "result": "proved", "seconds": 0.25,
   "detail": ""},
  {"name": "fourth-marker", "group": "mutation", "property": "R16.1", "transition": null,
   "config": "2 players", "result": "counterexample", "seconds": 1.5, "detail": "not caught"}
 ]}"""


def test_the_proofs_table_is_generated_from_the_results_file(tmp_path: Path) -> None:
    page = "# Proofs\n\n```{cantstop-proof-results}\n```\n"
    source = mini_site(tmp_path, page, {})
    (source / "results.json").write_text(RESULTS, encoding="utf-8")
    build = sphinx(source, tmp_path / "out")
    assert build.returncode == 0, build.stdout + build.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    (table,) = tables(tmp_path / "out" / "index.html")
    assert [row[1] for row in table[1:]] == ["markers-at-most-three/stop", "fourth-marker"]
    assert table[1][5] == "proved (ok)"
    assert table[2][5] == "counterexample (FAILED)"  # a mutation must be caught
    assert "2 checks with z3 4.15.4" in html
    assert "1 failed" in html


def test_without_a_results_file_the_proofs_page_says_so(tmp_path: Path) -> None:
    page = "# Proofs\n\n```{cantstop-proof-results}\n```\n"
    source = mini_site(tmp_path, page, {})
    build = sphinx(source, tmp_path / "out")
    assert build.returncode == 0, build.stdout + build.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "No results file was found at" in html


def test_a_malformed_results_file_fails_the_build(tmp_path: Path) -> None:
    page = "# Proofs\n\n```{cantstop-proof-results}\n```\n"
    source = mini_site(tmp_path, page, {})
    (source / "results.json").write_text(RESULTS.replace('"proved"', '"probably"'), "utf-8")
    build = sphinx(source, tmp_path / "out")
    assert build.returncode != 0
    assert "checks[0]: unknown result 'probably'" in build.stdout + build.stderr


def test_the_pages_load_in_chromium_with_their_pictures_and_no_console_errors(
    site: Path, tmp_path: Path
) -> None:
    require("playwright")  # check_pages.py drives Chromium through Playwright
    if not Path(CHROMIUM).is_file():
        if os.environ.get("CI") == "true":
            pytest.fail("the browser check needs Chromium: apt-get install -y chromium")
        pytest.skip(CHROMIUM_REASON)
    run = subprocess.run(
        [sys.executable, str(DOCS / "check_pages.py"), str(site)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    # Each example with a state draws it, and the state after its actions unless rejected:
    # Can't Stop's pages, and the sections of the other games.
    boards: dict[str, int] = {}
    specs: list[tuple[str, Any]] = [("", load_spec())]
    specs += [(f"{game}/", game_spec(game)) for game in GAMES]
    for directory, spec in specs:
        for example in spec.examples:
            if example.get("state") is not None:
                page = directory + example.path.removesuffix(".md") + ".html"
                after = bool(example.get("actions") or example.get("action"))
                after = after and example.get("error") is None
                boards[page] = boards.get(page, 0) + 1 + after
    assert any(page.startswith("tower/") for page in boards)
    for page, count in boards.items():
        assert f"{page}: {count} boards," in run.stdout, page
    for game in GAMES:
        questions = len(
            re.findall(
                r"^### ",
                (ROOT / game / "spec" / "questions.md").read_text(encoding="utf-8"),
                re.MULTILINE,
            )
        )
        assert f"{game}/questions.html: {questions} of {questions} questions" in run.stdout
    assert re.search(r"search.html: (\d+) of \1 rule titles found first", run.stdout)


#: A page with three boards: one whose labels sit on their own badge and on the paper, one
#: whose number sits under the next field and over the track, and one too wide for a phone.
CRAFTED = """<!doctype html><html><body><div role="main" style="margin: 0 16px">
<svg xmlns="http://www.w3.org/2000/svg" class="tower-board" viewBox="0 0 200 100" width="200">
<title>clean</title><rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="20" font-size="13">caption</text>
<g class="field" data-field="1"><circle cx="100" cy="60" r="18" fill="#eee" stroke="#000"/>
<text x="100" y="65" font-size="13" text-anchor="middle">1</text></g>
</svg>
<svg xmlns="http://www.w3.org/2000/svg" class="tower-board" viewBox="0 0 200 100" width="200">
<title>crowded</title><rect width="100%" height="100%" fill="#fff"/>
<polyline points="20,35 180,35" fill="none" stroke="#888" stroke-width="6"/>
<g class="field" data-field="13"><circle cx="60" cy="70" r="12" fill="#eee" stroke="#000"/>
<text x="95" y="40" font-size="13" text-anchor="middle">13</text></g>
<g class="field" data-field="14"><circle cx="100" cy="36" r="12" fill="#eee" stroke="#000"/>
</g></svg>
<svg xmlns="http://www.w3.org/2000/svg" class="tower-board" viewBox="0 0 600 100"
  style="width: 600px"><title>wide</title><text x="10" y="20" font-size="13">wide</text></svg>
</div></body></html>"""


def test_the_browser_check_sees_labels_on_other_drawings_and_boards_past_a_phone(
    tmp_path: Path,
) -> None:
    """check_pages' geometric check and phone check, on boards drawn to fail them.

    The clean board's number stands on its own field's fill and its caption on
    the paper: nothing is said.  The crowded board's 13 sits under field 14's
    circle (drawn after it) and over the track: both are named.  At 390 pixels
    the 600-pixel board runs past the text.
    """
    require("playwright")
    if not Path(CHROMIUM).is_file():
        if os.environ.get("CI") == "true":
            pytest.fail("the browser check needs Chromium: apt-get install -y chromium")
        pytest.skip(CHROMIUM_REASON)
    from playwright.sync_api import sync_playwright

    spec = importlib.util.spec_from_file_location("check_pages", DOCS / "check_pages.py")
    assert spec is not None
    assert spec.loader is not None
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    page_file = tmp_path / "crafted.html"
    page_file.write_text(CRAFTED, encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            page = browser.new_page(viewport=check.PHONE)
            page.goto(page_file.as_uri())
            overlaps = check.overlap_problems(page)
            phone = check.phone_problems(page)
        finally:
            browser.close()
    assert overlaps == [
        "board 'crowded': the text \"13\" sits over the polyline",
        "board 'crowded': the text \"13\" sits under the circle of the field 14",
    ]
    # The text runs from the body's margin (8 px) and the frame's (16 px) to as far from the right.
    assert phone == ["at 390 px, a picture runs past the text: wide: 24-624 px, the text 24-366 px"]


CITED = """{"z3_version": "4.15.4", "generated_by": "python -m proofs --json x",
 "checks": [
  {"name": "R1.1 a rule holds | stop | 2p", "group": "induction",
   "property": "R1.1 a rule holds", "transition": "stop", "config": "2p", "result": "proved",
   "seconds": 0.25, "detail": "", "rules": ["R1.1"]},
  {"name": "R1.1 a rule holds | move | 2p", "group": "induction",
   "property": "R1.1 a rule holds", "transition": "move", "config": "2p", "result": "proved",
   "seconds": 0.5, "detail": "", "rules": ["R1.1"]},
  {"name": "R1.1 a rule holds | move | 2p | mutant m", "group": "mutation",
   "property": "R1.1 a rule holds", "transition": "move", "config": "2p",
   "result": "caught", "seconds": 0.5, "detail": "", "rules": ["R1.1"]},
  {"name": "premises | init | 2p", "group": "non-vacuity", "property": "premises",
   "transition": "init", "config": "2p", "result": "witness", "seconds": 0.1, "detail": "",
   "rules": []}
 ]}"""


def test_each_rule_lists_the_proof_checks_that_cite_it(tmp_path: Path) -> None:
    """Under a rule, its page links each property that cites it to that row of the table."""
    good = CHAPTER[: CHAPTER.index("```example\nid: E002")]
    page = INCLUDE + "\n# Proofs\n\n```{cantstop-proof-results}\n```\n"
    source = mini_site(tmp_path, page, {"01-chapter.md": good})
    (source / "results.json").write_text(CITED, encoding="utf-8")
    build = sphinx(source, tmp_path / "out")
    assert build.returncode == 0, build.stdout + build.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    rule = html[html.index('id="rule-r1-1"') :]
    listing = rule[rule.index("Proof checks that cite this rule") : rule.index("</ul>")]
    assert 'href="#proof-r1-1-a-rule-holds"' in listing
    assert "induction 2 proved; mutation 1 caught" in listing
    assert "premises" not in listing  # it names no rule
    # The link's target is the first row of that property; every row has its own anchor.
    assert re.search(r'<td[^>]* id="proof-r1-1-a-rule-holds"', html)
    for name in ("r1-1-a-rule-holds-stop-2p", "premises-init-2p"):
        assert re.search(rf'<tr[^>]* id="check-{name}"', html), name
    (table,) = tables(tmp_path / "out" / "index.html")
    assert [row[6] for row in table[1:]] == ["R1.1", "R1.1", "R1.1", ""]


def test_the_rule_pages_link_to_every_proof_that_cites_them(site: Path) -> None:
    """Every rule named in proofs/results.json lists, on its page, each property citing it."""
    import json

    results = json.loads((ROOT / "proofs" / "results.json").read_text(encoding="utf-8"))
    proofs = (site / "proofs.html").read_text(encoding="utf-8")
    spec = load_spec()
    pages: dict[str, str] = {}
    cited: dict[str, set[str]] = {}
    for check in results["checks"]:
        for rule in check["rules"]:
            cited.setdefault(rule, set()).add(check["property"])
    assert cited
    for rule, properties in cited.items():
        chapter = f"{int(rule[1:].split('.')[0]):02d}"
        (path,) = (site / "rules").glob(f"{chapter}-*.html")
        html = pages.setdefault(rule, path.read_text(encoding="utf-8"))
        section = html[html.index(f'<section id="rule-{rule.lower().replace(".", "-")}"') :]
        box = section[section.index("Proof checks that cite this rule") :]
        box = box[: box.index("</details>")]
        for prop in properties:
            anchor = "proof-" + re.sub(r"[^a-z0-9]+", "-", prop.lower()).strip("-")
            assert f'href="../proofs.html#{anchor}"' in box, (rule, prop)
            assert f'id="{anchor}"' in proofs, prop
        assert rule in spec.rules


def test_the_proof_checks_under_a_rule_are_folded(site: Path) -> None:
    """Each rule's list of proof checks is a collapsed <details> block with a count."""
    html = (site / "rules" / "05-playing-a-sum.html").read_text(encoding="utf-8")
    folded = re.findall(r'<details class="cs-proofs"[^>]*>\s*<summary>([^<]*)</summary>', html)
    assert folded
    for summary in folded:
        assert re.fullmatch(
            r"Proof checks that cite this rule: \d+ propert(y|ies), \d+ checks?", summary
        ), summary
    assert "<details open" not in html


def site_text(site: Path) -> dict[str, str]:
    return {
        page.relative_to(site).as_posix(): page.read_text(encoding="utf-8")
        for page in [*site.rglob("*.html"), site / "searchindex.js"]
        if not page.relative_to(site).as_posix().startswith("_")
    }


def test_the_sources_are_named_and_described(site: Path) -> None:
    """No page shows a source by its file number; the Sources page names all three."""
    number = re.compile(r"\bseeds? 00[014]\b", re.IGNORECASE)
    for page, html in site_text(site).items():
        assert not number.search(html), (page, number.search(html))
    sources = (site / "sources.html").read_text(encoding="utf-8")
    for name in ("The write-up", "The rules guide", "The FAQ", "When the sources disagree"):
        assert name in sources, name
    # Each source: what kind of text it is, what it covers, and the rules it decided, linked.
    for anchor in ("source-write-up", "source-rules-guide", "source-faq"):
        section = sources[sources.index(f'<section id="{anchor}">') :]
        section = section[: section.index("</section>")]
        for part in ("What it is.", "What it covers.", "What the spec took from it."):
            assert part in section, (anchor, part)
        cited = re.findall(r'class="cs-rule reference internal" href="([^"]+)"', section)
        assert len(set(cited)) >= 8, anchor
    # The example titles that the conformance vectors keep word for word are shown by name.
    turn = (site / "rules" / "03-turn.html").read_text(encoding="utf-8")
    assert "Worked turn of the write-up, played in one go" in turn


def test_commands_survive_copy_and_paste(site: Path) -> None:
    """No curly quotes or dashes in the text: the proofs command keeps its two hyphens."""
    for page, html in site_text(site).items():
        assert "\u2013" not in html, page  # en dash
        assert "\u2014" not in html, page  # em dash
    proofs = (site / "proofs.html").read_text(encoding="utf-8")
    generated = proofs[proofs.index("Generated by") :][:400]
    assert '<span class="pre">--json</span>' in generated


class Positions(HTMLParser):
    """Collect, for each question section, its id, its command and its explanation lines."""

    # The handlers override HTMLParser's; they are documented there.

    def __init__(self) -> None:
        super().__init__()
        self.questions: list[dict[str, object]] = []
        self._in: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:  # noqa: D102
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag == "section" and (found.get("id") or "").startswith("q-"):
            self.questions.append({"id": found["id"], "command": "", "lines": []})
        elif self.questions and tag == "div" and "cs-command" in classes:
            self._in, self._text = "command", []
        elif self.questions and tag == "p" and "cs-line" in classes:
            depth = next(int(c[len("cs-depth-") :]) for c in classes if c.startswith("cs-depth-"))
            self._in, self._text = "line", ["  " * depth]

    def handle_endtag(self, tag: str) -> None:  # noqa: D102
        if self._in == "line" and tag == "p":
            self.questions[-1]["lines"].append("".join(self._text))  # type: ignore[attr-defined]
            self._in = None
        elif self._in == "command" and tag == "pre":
            self.questions[-1]["command"] = "".join(self._text).strip()
            self._in = None

    def handle_data(self, data: str) -> None:  # noqa: D102
        if self._in is not None:
            self._text.append(data)


def test_each_question_shows_what_cantstop_explain_prints(site: Path) -> None:
    """30 or more questions with stable anchors; each explanation is the command's output."""
    import shlex

    from cantstop import explain, parse_action, parse_state

    html = (site / "questions.html").read_text(encoding="utf-8")
    parser = Positions()
    parser.feed(html)
    questions = parser.questions
    assert len(questions) >= 30
    assert len({q["id"] for q in questions}) == len(questions)
    for anchor in ("q-both-sums", "q-four-sixes", "q-top-then-bust", "q-yellow-first-roll"):
        assert anchor in {q["id"] for q in questions}, anchor
    for question in questions:
        words = shlex.split(str(question["command"]))
        assert words[:2] == ["cantstop", "explain"], question
        state = parse_state(words[2])
        action = parse_action(words[3]) if len(words) > 3 else None
        expected = explain(state, action).text().splitlines()
        assert question["lines"] == expected, question["id"]
    assert 'href="glossary.html#term-' in html  # the game's words link to their definitions
    assert 'href="rules/06-forced-play.html#rule-r6-1"' in html


def test_the_questions_come_first_and_the_index_links_to_them(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    link = r'<a class="reference internal" href="questions.html">.*Settle a question'
    assert re.search(link, index)
    toctree = index[index.index('class="toctree-wrapper') :]
    first = re.search(r'<a class="reference internal" href="([^"#]+)"', toctree)
    assert first is not None
    assert first.group(1) == "questions.html"


def test_a_rule_title_is_an_index_entry_on_its_page(site: Path) -> None:
    """The search ranks index entries first; each rule's title is one, pointing at the rule."""
    index = (site / "genindex.html").read_text(encoding="utf-8")
    assert 'href="rules/09-won-columns.html#rule-r9"><strong>Won columns</strong>' in index
    # R16.4 has the same title as the chapter: it is listed under it with its id.
    assert 'href="rules/16-invariants.html#rule-r16-4"><strong>(R16.4)</strong>' in index
    assert 'href="rules/05-playing-a-sum.html#rule-r5-2"><strong>Placing</strong>' in index


QUESTION = """# Questions

```{{cantstop-explain}} 7:2/- - 0c3455
:action: 7
:legal: {legal}
:rule: {rule}
:moves: 7+10 8+9
```
"""


@pytest.mark.parametrize(
    ("legal", "rule", "complaint"),
    [
        ("yes", "R6.1", "the engine says the action is not legal"),
        ("no", "R6.3", "the engine refuses it under R6.1, not R6.3"),
    ],
)
def test_an_answer_the_engine_contradicts_fails_the_build(
    tmp_path: Path, legal: str, rule: str, complaint: str
) -> None:
    source = mini_site(tmp_path, QUESTION.format(legal=legal, rule=rule), {})
    build = sphinx(source, tmp_path / "out", strict=False)
    output = build.stdout + build.stderr
    assert build.returncode != 0
    assert "the answer about '7:2/- - 0c3455' does not hold" in output
    assert complaint in output


def test_an_answer_the_engine_confirms_builds(tmp_path: Path) -> None:
    source = mini_site(tmp_path, QUESTION.format(legal="no", rule="R6.1"), {})
    # Without -W: the small site has no rule pages for the explanation's rule ids to link to.
    build = sphinx(source, tmp_path / "out", strict=False)
    assert build.returncode == 0, build.stdout + build.stderr
    assert "does not hold" not in build.stdout + build.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "7 is not legal: pairing 1 makes 7 with 10" in html


def tryit_links(html: str) -> list[dict[str, str]]:
    """Return the fields of each "Try it" link's URL fragment on a page."""
    links = re.findall(r'<a class="cs-tryit-link" href="(?:\.\./)*tryit\.html#([^"]*)"', html)
    return [
        {
            key: value.replace("_", " ")
            for key, _, value in (p.partition("=") for p in f.split("&amp;"))
        }
        for f in links
    ]


def test_every_example_and_question_links_to_its_position_on_the_board(site: Path) -> None:
    """Each passing spec example with a state, and each question, opens the board there."""
    from cantstop import format_state, parse_state

    assert (site / "tryit.html").is_file()
    for example in load_spec().examples:
        state = example.get("state")
        if state is None or example.get("notation") is not None:
            continue
        page = (site / (example.path.removesuffix(".md") + ".html")).read_text(encoding="utf-8")
        card = page[page.index(f'id="{example.id.lower()}"') :]
        card = card[: card.index("</dl>")]
        (link,) = tryit_links(card)
        assert link["s"] == state, example.id
        actions = (example.get("actions") or example.get("action") or "").split()
        if example.get("error") is not None and actions:
            # The rejected action is the one the board explains, after the others are played.
            assert link.get("x") == actions[-1], example.id
            actions = actions[:-1]
        assert link.get("a", "").split() == actions, example.id
    questions = (site / "questions.html").read_text(encoding="utf-8")
    parser = Positions()
    parser.feed(questions)
    links = tryit_links(questions)
    assert len(links) == len(parser.questions)
    for question, link in zip(parser.questions, links, strict=True):
        words = str(question["command"]).split("'")
        assert format_state(parse_state(link["s"])) == words[1], question["id"]
        assert link.get("x") == (words[2].strip() or None), question["id"]


def tryit_extension() -> ModuleType:
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        return importlib.import_module("cantstop_tryit")
    finally:
        sys.path.remove(str(DOCS / "_ext"))


def test_a_tryit_fragment_keeps_the_notation_readable() -> None:
    """The link holds the state and actions as written, with "_" for a space."""
    tryit = tryit_extension()
    assert tryit.fragment("-/- - 0r", ["r3455", "7+10"], "stop") == (
        "s=-/-_-_0r&a=r3455_7+10&x=stop"
    )
    assert tryit.fragment("7:2/- - 0c3455 h7:13 w2 B") == "s=7:2/-_-_0c3455_h7:13_w2_B"


def test_the_tryit_bundle_holds_the_browser_modules_and_reads_only_known_forms() -> None:
    """The page's modules, each after those it imports; an unknown export stops the build."""
    from sphinx.errors import ExtensionError

    tryit = tryit_extension()
    assert tryit.module_closure() == ["rules.js", "notation.js", "board.js", "explain.js"]
    bundle = tryit.bundle()
    assert "port.js" not in bundle  # the Node-only protocol loop stays out
    for name in ("rules.js", "notation.js", "board.js", "explain.js"):
        lines = (tryit.PORT / name).read_text(encoding="utf-8").splitlines()
        # After its imports, the module's text is in the bundle as it is.
        last = max((i for i, line in enumerate(lines) if line.startswith("import ")), default=-1)
        assert "\n".join(lines[last + 1 : last + 200]) in bundle, name
    with pytest.raises(ExtensionError, match=r"a\.js: line 1: an import or export"):
        tryit.classic_module("a.js", "export default 1;\n")
    module = tryit.classic_module(
        "b.js", "import { x as y } from './a.js';\nexport function f() {}\nexport { y as z };\n"
    )
    assert 'const { x: y } = __modules["a.js"];' in module
    assert "return { z: y, f };" in module


def extension_module(name: str) -> ModuleType:
    """Import a module of the documentation's extensions (``docs/_ext``)."""
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(DOCS / "_ext"))


def test_the_docstring_examples_of_the_extensions_hold() -> None:
    """The doctests of docs/_ext run here, since pytest collects none from docs/."""
    names = ["specsite.rules", "specsite.proofs", "specsite.markup", "cantstop_spec"]
    names += ["cantstop_tryit", "dicekit_site", "tower_spec", "cantstop_commands"]
    for name in names:
        result = doctest.testmod(extension_module(name), optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0, name
        assert result.failed == 0, name


def imports_of(path: Path) -> set[str]:
    """Return the top-level modules that the module at ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


def test_the_spec_extension_imports_no_game() -> None:
    """specsite, the game-neutral part of the docs extension, imports Sphinx and itself only."""
    modules = sorted((DOCS / "_ext" / "specsite").glob("*.py"))
    assert len(modules) >= 8
    allowed = {"specsite", "sphinx", "docutils", *sys.stdlib_module_names}
    for path in modules:
        assert imports_of(path) <= allowed, (path.name, imports_of(path) - allowed)
    # The site of any game on the layer imports the layer, and still no game.
    layer = imports_of(DOCS / "_ext" / "dicekit_site.py")
    assert "dicekit" in layer
    assert layer <= allowed | {"dicekit"}, layer - allowed


TOY_CONF = """
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, {ext!r})
from specsite import setup_site

extensions = ["myst_parser"]
exclude_patterns = ["spec"]
toy_spec_dir = "spec"
toy_proof_results = "results.json"


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    path: str

    @property
    def is_chapter(self):
        return "." not in self.id


@dataclass(frozen=True)
class Example:
    id: str
    rules: tuple
    path: str
    line: int
    fields: dict

    def get(self, key):
        return self.fields.get(key)


@dataclass
class Spec:
    rules: dict = field(default_factory=dict)
    examples: list = field(default_factory=list)


class Counting:
    # A toy game: a state is a number, '+N' adds N to it, and no state is past 10 (T1.2).
    example_keys = {{"id": "the id of the example", "action": "a number to add, as +N"}}

    def load_spec(self, root):
        spec, block = Spec(), None
        for path in sorted(root.glob("*.md")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                heading = re.match(r"^#{{2,3}} (T[0-9.]+) (.+)$", line)
                if heading:
                    spec.rules[heading[1]] = Rule(heading[1], heading[2], path.name)
                elif line == "```example":
                    block, start = {{}}, number
                elif line == "```" and block is not None:
                    rules = tuple(block["rules"].split())
                    spec.examples.append(Example(block["id"], rules, path.name, start, block))
                    block = None
                elif block is not None:
                    key, _, value = line.partition(": ")
                    block[key] = value
        return spec

    def run_example(self, example):
        total = int(example.get("state")) + int(example.get("action").removeprefix("+"))
        if str(total) != example.get("result"):
            wanted = example.get("result")
            raise AssertionError(f"{{example.id}}: expected {{wanted}}, got {{total}}")

    def shown(self, text):
        return text.upper()

    def figures(self, example, failure):
        return '<div class="toy-figure">' + example.get("state") + "</div>"

    def links(self, example, docname):
        return []

    def message(self, example):
        return None

    def fact_note(self, example, key):
        return ""


def setup(app):
    setup_site(app, Counting(), "toy")
    games = ("cantstop", "dicekit", "cantstop_spec", "cantstop_tryit")
    loaded = lambda: " ".join(sorted(m for m in sys.modules if m.split(".")[0] in games))
    written = lambda app, exc: Path(app.outdir, "games.txt").write_text(loaded())
    app.connect("build-finished", written)
"""

TOY_SPEC = """# Counting

## T1 Counting

### T1.1 Adding

A move adds its number to the state; no state is past 10 (T1.2).

```example
id: E001
title: Two and three make five
rules: T1.1
state: 2
action: +3
result: 5
```

### T1.2 The limit

No state is past 10.

```{{toy-example-keys}}
```
"""


def toy_site(tmp_path: Path, result: str) -> Path:
    """Return the source of a site that puts a toy game's spec on its page through specsite."""
    source = tmp_path / "src"
    (source / "spec").mkdir(parents=True)
    (source / "conf.py").write_text(TOY_CONF.format(ext=str(DOCS / "_ext")), encoding="utf-8")
    spec = TOY_SPEC.format().replace("result: 5", f"result: {result}")
    (source / "spec" / "01-counting.md").write_text(spec, encoding="utf-8")
    (source / "index.md").write_text("```{include} spec/01-counting.md\n```\n", encoding="utf-8")
    return source


def test_the_spec_extension_puts_another_games_spec_on_a_site(tmp_path: Path) -> None:
    """The spec extension shows a toy game's rules and examples, loading no Can't Stop module."""
    build = sphinx(toy_site(tmp_path, "5"), tmp_path / "out")
    assert build.returncode == 0, build.stdout + build.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    card = html[html.index('<div class="cs-example docutils container" id="e001">') :]
    card = card[: card.index("</dl>")]
    assert "TWO AND THREE MAKE FIVE" in card  # the game's own rendering of a title
    assert "ran against the engine: passed" in card
    assert '<div class="toy-figure">2</div>' in card  # the game's pictures
    assert '<a class="cs-rule reference internal" href="#rule-t1-1">T1.1</a>' in card
    assert 'id="rule-t1-2"' in html
    assert '<a class="cs-rule reference internal" href="#rule-t1-2">T1.2</a>' in html
    (keys,) = tables(tmp_path / "out" / "index.html")
    assert keys[1:] == [["id", "the id of the example"], ["action", "a number to add, as +N"]]
    assert (tmp_path / "out" / "games.txt").read_text(encoding="utf-8") == ""


def test_another_games_failing_example_fails_the_build(tmp_path: Path) -> None:
    """The toy game's runner decides, and the generic extension fails the build naming it."""
    build = sphinx(toy_site(tmp_path, "6"), tmp_path / "out", strict=False)
    output = build.stdout + build.stderr
    assert build.returncode != 0
    assert "spec example failed: E001: expected 6, got 5" in output
    assert "toy spec check failed" in output


OTHER_SPEC = """# Other counting

## T1 Other counting

### T1.1 Adding again

The other game adds too; its limit is T1.2.

```example
id: E001
title: One and one
rules: T1.1
state: 1
action: +1
result: {result}
```

### T1.2 The other limit

No state is past 20.
"""


def two_game_site(tmp_path: Path, result: str) -> Path:
    """Return the source of a site with two toy games, the second on the pages under other/."""
    source = toy_site(tmp_path, "5")
    conf = (source / "conf.py").read_text(encoding="utf-8")
    conf = conf.replace(
        'exclude_patterns = ["spec"]',
        'exclude_patterns = ["spec", "spec2"]\nother_spec_dir = "spec2"\n'
        'other_proof_results = "results.json"',
    )
    conf = conf.replace(
        '    setup_site(app, Counting(), "toy")\n',
        '    setup_site(app, Counting(), "toy")\n'
        '    setup_site(app, Counting(), "other", pages="other/")\n',
    )
    (source / "conf.py").write_text(conf, encoding="utf-8")
    (source / "spec2").mkdir()
    (source / "spec2" / "01-counting.md").write_text(
        OTHER_SPEC.format(result=result), encoding="utf-8"
    )
    (source / "other").mkdir()
    (source / "other" / "index.md").write_text(
        "```{include} ../spec2/01-counting.md\n```\n", encoding="utf-8"
    )
    index = (source / "index.md").read_text(encoding="utf-8")
    index += "\nSee T1.2.\n\n```{toctree}\nother/index\n```\n"
    (source / "index.md").write_text(index, encoding="utf-8")
    return source


def test_two_games_on_one_site_keep_their_own_rules_and_examples(tmp_path: Path) -> None:
    """Two games with the same rule and example ids: each page runs and links its own game's."""
    build = sphinx(two_game_site(tmp_path, "2"), tmp_path / "out")
    assert build.returncode == 0, build.stdout + build.stderr
    first = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    other = (tmp_path / "out" / "other" / "index.html").read_text(encoding="utf-8")
    assert "TWO AND THREE MAKE FIVE" in first
    assert "TWO AND THREE MAKE FIVE" not in other
    assert "ONE AND ONE" in other
    for html in (first, other):
        links = re.findall(r'class="cs-rule reference internal" href="([^"]+)"', html)
        assert links
        assert set(links) <= {"#rule-t1-1", "#rule-t1-2"}, links
        assert 'id="rule-t1-2"' in html
        assert len(cards_of(html)) == 1
        assert "ran against the engine: passed" in html


def test_the_second_games_failing_example_is_reported_with_its_game(tmp_path: Path) -> None:
    """A failing example of the second game fails the build under that game's name only."""
    build = sphinx(two_game_site(tmp_path, "3"), tmp_path / "out", strict=False)
    output = build.stdout + build.stderr
    assert build.returncode != 0
    assert "other spec check failed" in output
    assert "spec example failed: E001: expected 3, got 2" in output
    assert "toy spec check failed" not in output
