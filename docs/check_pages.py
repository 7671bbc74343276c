"""Load every page of the built site in headless Chromium and check it as a reader sees it.

Usage: ``python3 docs/check_pages.py BUILD_DIR [--screenshots DIR]``, where
BUILD_DIR is the HTML output of ``sphinx -b html docs BUILD_DIR``.

The browser is Debian's Chromium driven by Playwright (the ``browser`` extra),
which launches it with ``executable_path``: nothing is downloaded.  For each
page the check fails when the page does not load, when the page throws or logs
anything to the console (JavaScript errors, resources that fail to load), when
a board or dice picture is missing or drawn with no size, when a board's
text is drawn smaller than 11 pixels, when a table or a row of pictures runs
past the right edge of the text, when a table heading is split inside a
word, or when a spec example that belongs on the page is not there.  Every
game's pages are checked so: Can't Stop's, and those of the finish-line race
(``finishline/``) and Off to the Tower (``tower/``), whose boards are drawn
by their own games.  On Can't Stop's questions page each question must have
its anchor, a board and its explanation; on the other games' questions pages
each question of the spec must be there with its examples, drawn.  Then, on
the search page, a search for each rule's title words, of every game, must
list a page with a rule of that title first.

Every page is also looked at on a phone, 390 pixels wide (:data:`PHONE`):
each board and dice picture must lie within the text's edges, and each
board's text must still be drawn at 11 pixels or more.  And on every board
no text may touch another drawing: the ink of each label, caption and
number, measured in the browser, is tested against every other text and
against every shape of the picture, point by point round its edge
(``isPointInFill``, ``isPointInStroke``); a shape lying wholly inside it
touches it too.  A text may stand on one shape drawn before it that holds
it whole, such as the paper or a badge of its own group, and on nothing
else.  A board drawn alike on several pages is looked at once.

With ``--screenshots DIR`` it also saves a full-page PNG of the main pages,
and, at phone width, a PNG of the screen scrolled to the first board of some
of each game's pages (:data:`PHONE_PAGES`).  Pages whose pictures are drawn by their own script
(the "Try it" board) are checked once it has drawn them.  The exit status is
0 when every page passes.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import ConsoleMessage, Page, ViewportSize, sync_playwright
from playwright.sync_api import Error as PlaywrightError

#: The pages screenshotted with ``--screenshots``, and the file name of each picture.
MAIN_PAGES: dict[str, str] = {
    "index.html": "index.png",
    "questions.html": "questions.png",
    "sources.html": "sources.png",
    "glossary.html": "glossary.png",
    "explain.html": "explain.png",
    "rules/index.html": "rules.png",
    "rules/05-playing-a-sum.html": "rules-05-playing-a-sum.png",
    "rules/10-bust.html": "rules-10-bust.png",
    "notation.html": "notation.png",
    "probabilities.html": "probabilities.png",
    "proofs.html": "proofs.png",
    "ports.html": "ports.png",
    "protocol.html": "protocol.png",
    "api.html": "api.png",
    "tryit.html": "tryit.png",
    "games.html": "games.png",
    "finishline/index.html": "finishline-index.png",
    "finishline/rules/06-moving.html": "finishline-rules-06-moving.png",
    "finishline/questions.html": "finishline-questions.png",
    "tower/index.html": "tower-index.png",
    "tower/rules/07-capture.html": "tower-rules-07-capture.png",
    "tower/questions.html": "tower-questions.png",
    "tower/boards.html": "tower-boards.png",
}

#: The pages saved at phone width with ``--screenshots``, scrolled to their first board.
PHONE_PAGES: dict[str, str] = {
    "index.html": "phone-cantstop-index.png",
    "rules/05-playing-a-sum.html": "phone-cantstop-rules-05.png",
    "tryit.html": "phone-cantstop-tryit.png",
    "finishline/index.html": "phone-finishline-index.png",
    "finishline/rules/06-moving.html": "phone-finishline-rules-06.png",
    "tower/index.html": "phone-tower-index.png",
    "tower/rules/09-obstacle.html": "phone-tower-rules-09.png",
    "tower/boards.html": "phone-tower-boards.png",
}

#: The window of a phone: every picture fits it, its text still legible.
PHONE: ViewportSize = {"width": 390, "height": 844}
#: The window the pages are first checked in.
DESKTOP: ViewportSize = {"width": 1280, "height": 900}

#: The games on the site other than Can't Stop: the package of each, which is also the
#: directory of its pages, whose layout follows the game's spec directory.
GAMES = ("finishline", "tower")

#: The class of the root element of each game's board pictures.
BOARD_CLASSES = ("cantstop-board", "finishline-board", "tower-board")

#: Pages that draw their boards with a script, and what appears once it has drawn them.
SCRIPTED = {"tryit.html": "#cs-board svg.cantstop-board"}

#: Pages that must hold a board picture besides those of their spec examples.
PICTURE_PAGES = ("index.html", "finishline/index.html", "tower/index.html", "tower/boards.html")

#: The page of questions, and the least number of questions it must hold.
QUESTIONS_PAGE, QUESTIONS = "questions.html", 30

#: The smallest size, in CSS pixels, at which a board may draw its text.
MIN_TEXT_PX = 11

_BOARD = re.compile(r'<svg [^>]*class="(?:' + "|".join(BOARD_CLASSES) + ')"')
_BOARDS = ", ".join(f"svg.{name}" for name in BOARD_CLASSES)

_PROBE = r"""(() => {
  const boards = 'BOARDS';
  const pictures = [...document.querySelectorAll(boards + ', svg.cantstop-dice')];
  const empty = pictures.filter(p => {
    const r = p.getBoundingClientRect();
    return !(r.width > 0 && r.height > 0);
  }).length;
  const images = [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).length;
  const examples = [...document.querySelectorAll('.cs-example')].map(e => e.id);
  const h1 = document.querySelector('h1');
  // The smallest text of each board, in CSS pixels, as drawn.
  const smallest = [...document.querySelectorAll(boards)].map(svg => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const sizes = [...svg.querySelectorAll('text')].map(t => +t.getAttribute('font-size'));
    return Math.min(...sizes) * scale;
  });
  // A table wider than the text, or pictures past its right edge, are cut off.
  const main = (document.querySelector('[role=main]') || document.body).getBoundingClientRect();
  const wide = [...document.querySelectorAll('[role=main] table')]
    .filter(t => t.getBoundingClientRect().width > main.width + 1).length
    + [...document.querySelectorAll('[role=main] .cs-figures')]
    .filter(f => f.getBoundingClientRect().right > main.right + 1).length;
  // A heading of a table whose word is split across two lines (Second / s).
  const split = [...document.querySelectorAll('[role=main] th')].filter(th => {
    const texts = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      for (const word of node.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) return true;
      }
    }
    return false;
  }).map(th => th.textContent.trim());
  const questions = [...document.querySelectorAll('section[id^="q-"]')].map(s => ({
    id: s.id,
    boards: s.querySelectorAll('.cs-position svg.cantstop-board').length,
    lines: s.querySelectorAll('.cs-explain p.cs-line').length,
    command: (s.querySelector('.cs-command') || {}).textContent || '',
  }));
  // Each section under a third-level heading: its title, its examples and their boards.
  const entries = [...document.querySelectorAll('[role=main] section')]
    .filter(s => s.querySelector(':scope > h3'))
    .map(s => ({
      title: s.querySelector(':scope > h3').firstChild.textContent.trim(),
      examples: s.querySelectorAll('.cs-example').length,
      boards: s.querySelectorAll('.cs-example ' + boards.split(', ').join(', .cs-example ')).length,
    }));
  return JSON.stringify({
    title: document.title, h1: h1 ? h1.textContent : null,
    boards: document.querySelectorAll(boards).length,
    dice: document.querySelectorAll('svg.cantstop-dice').length,
    empty: empty, brokenImages: images, examples: examples,
    height: document.documentElement.scrollHeight,
    smallest: smallest, wide: wide, split: split, questions: questions, entries: entries,
  });
})()""".replace("BOARDS", _BOARDS)


_PHONE_PROBE = r"""(() => {
  const boards = 'BOARDS';
  const main = (document.querySelector('[role=main]') || document.body).getBoundingClientRect();
  const right = Math.min(main.right, document.documentElement.clientWidth);
  const name = svg => (svg.querySelector('title') || {}).textContent || svg.getAttribute('class');
  const cut = [...document.querySelectorAll(boards + ', svg.cantstop-dice')].filter(svg => {
    const r = svg.getBoundingClientRect();
    return r.width > 0 && (r.left < main.left - 1 || r.right > right + 1);
  }).map(svg => {
    const r = svg.getBoundingClientRect();
    return `${name(svg)}: ${Math.round(r.left)}-${Math.round(r.right)} px, ` +
      `the text ${Math.round(main.left)}-${Math.round(right)} px`;
  });
  const smallest = [...document.querySelectorAll(boards)].map(svg => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const sizes = [...svg.querySelectorAll('text')].map(t => +t.getAttribute('font-size'));
    return Math.min(...sizes) * scale;
  });
  return JSON.stringify({cut: cut, smallest: smallest});
})()""".replace("BOARDS", _BOARDS)

#: Each board's texts that touch another drawing: a list of sentences per board.  Given the
#: keys of the boards already looked at (a hash of their markup), it skips those, and it
#: returns the keys of the others.
OVERLAPS = r"""((seen) => {
  const key = svg => {  // FNV-1a of the markup: the same drawing has the same key
    let h = 0x811c9dc5;
    const text = svg.outerHTML;
    for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 16777619);
    return (h >>> 0).toString(16) + ':' + text.length;
  };
  const skip = new Set(seen), keys = [];
  const pen = document.createElement('canvas').getContext('2d');
  // The ink of a text, in its picture's units: from the start of its first glyph, on its
  // baseline, the extent the canvas measures for the same string in the same font.  The
  // canvas gives whole units, so the box is taken half a unit in on every side.
  const ink = t => {
    const style = getComputedStyle(t);
    pen.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const m = pen.measureText(t.textContent);
    const start = t.getStartPositionOfChar(0);
    const left = start.x - m.actualBoundingBoxLeft, top = start.y - m.actualBoundingBoxAscent;
    const w = m.actualBoundingBoxLeft + m.actualBoundingBoxRight;
    const h = m.actualBoundingBoxAscent + m.actualBoundingBoxDescent;
    return {x: left + 0.5, y: top + 0.5, w: Math.max(w - 1, 0.5), h: Math.max(h - 1, 0.5)};
  };
  const meets = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  const found = [];
  document.querySelectorAll('BOARDS').forEach(svg => {
    const mine = key(svg);
    if (skip.has(mine)) return;
    skip.add(mine);
    keys.push(mine);
    const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim());
    // Each shape once: its paint and its box, widened by its stroke.
    const shapes = [...svg.querySelectorAll(
      'circle, rect, ellipse, line, polyline, polygon, path')].map(s => {
      const style = getComputedStyle(s);
      const width = style.stroke !== 'none' ? parseFloat(style.strokeWidth) || 0 : 0;
      const r = s.getBBox();
      return {s: s, fill: style.fill !== 'none', width: width,
              around: {x: r.x - width, y: r.y - width, w: r.width + 2 * width,
                       h: r.height + 2 * width}};
    });
    const boxes = texts.map(ink);
    const said = t => JSON.stringify(t.textContent.trim().slice(0, 24));
    const what = s => {
      const group = s.parentNode === svg ? null : s.closest('[class]');
      const data = group ? Object.values(group.dataset).filter(v => v) : [];
      return [s.tagName, ...(group ? ['of the', group.getAttribute('class'), ...data] : [])]
        .join(' ');
    };
    const point = svg.createSVGPoint();
    const problems = [];
    texts.forEach((t, i) => {
      const b = boxes[i];
      texts.slice(i + 1).forEach((u, k) => {
        if (meets(b, boxes[i + 1 + k]))
          problems.push(`the text ${said(t)} touches the text ${said(u)}`);
      });
      // The ink box's edge, a point every unit: a shape's outline that reaches into the box
      // crosses it, unless the whole shape lies inside the box.
      const edge = [];
      const across = Math.max(1, Math.ceil(b.w)), down = Math.max(1, Math.ceil(b.h));
      for (let k = 0; k <= across; k++)
        edge.push([b.x + b.w * k / across, b.y], [b.x + b.w * k / across, b.y + b.h]);
      for (let k = 1; k < down; k++)
        edge.push([b.x, b.y + b.h * k / down], [b.x + b.w, b.y + b.h * k / down]);
      shapes.forEach(({s, fill, width, around}) => {
        if (!meets(b, around)) return;
        const inside = around.x >= b.x && around.y >= b.y
          && around.x + around.w <= b.x + b.w && around.y + around.h <= b.y + b.h;
        let filled = 0, stroked = 0;
        for (const [x, y] of edge) {
          point.x = x; point.y = y;
          if (fill && s.isPointInFill(point)) filled++;
          if (width > 0 && s.isPointInStroke(point)) stroked++;
        }
        if (!filled && !stroked && !inside) return;
        const before = t.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_PRECEDING;
        const ground = before && !inside && !stroked && filled === edge.length
          && (s.parentNode === t.parentNode || s.parentNode === svg);
        const where = before ? 'over' : 'under';
        if (!ground) problems.push(`the text ${said(t)} sits ${where} the ${what(s)}`);
      });
    });
    if (problems.length) {
      const name = (svg.querySelector('title') || {}).textContent || svg.getAttribute('class');
      found.push({board: name.length > 60 ? name.slice(0, 57) + '...' : name, problems});
    }
  });
  return JSON.stringify({found: found, keys: keys});
})""".replace("BOARDS", _BOARDS)


def phone_problems(page: Page) -> list[str]:
    """Return what does not fit a phone on the page loaded in ``page``, already at phone width."""
    facts = json.loads(page.evaluate(_PHONE_PROBE))
    problems = [
        f"at {PHONE['width']} px, a picture runs past the text: {cut}" for cut in facts["cut"]
    ]
    small = [size for size in facts["smallest"] if size < MIN_TEXT_PX]
    if small:
        problems.append(
            f"at {PHONE['width']} px, {len(small)} boards draw text at {min(small):.1f}px, "
            f"under {MIN_TEXT_PX}px"
        )
    return problems


def overlap_problems(page: Page, seen: set[str] | None = None) -> list[str]:
    """Return, for each board on the page loaded in ``page``, each text touching another drawing.

    Boards whose markup has a key in ``seen`` were looked at already and are
    skipped; the keys of the others are added to it.
    """
    found = json.loads(page.evaluate(OVERLAPS, sorted(seen or ())))
    if seen is not None:
        seen.update(found["keys"])
    return [
        f"board {board['board']!r}: {problem}"
        for board in found["found"]
        for problem in board["problems"]
    ]


#: How long a page may take to load, in milliseconds.
TIMEOUT_MS = 30_000


def _specs() -> list[tuple[str, Any]]:
    """Return each game's spec with the directory of its pages (``""`` for Can't Stop)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from cantstop.spec import load_spec
    from dicekit.spec import load_game_spec

    specs: list[tuple[str, Any]] = [("", load_spec())]
    for name in GAMES:
        game = importlib.import_module(name).GAME
        specs.append((f"{name}/", load_game_spec(game)))
    return specs


def _expected_examples() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Return, per page, the anchors of the examples it must show and of those it must draw."""
    pages: dict[str, list[str]] = {}
    boards: dict[str, list[str]] = {}
    for directory, spec in _specs():
        for example in spec.examples:
            page = directory + example.path.removesuffix(".md") + ".html"
            pages.setdefault(page, []).append(example.id.lower())
            if example.get("state") is not None:
                boards.setdefault(page, []).append(example.id.lower())
    return pages, boards


def _expected_entries() -> dict[str, dict[str, tuple[int, int]]]:
    """Return, for each other game's questions page, each question with its examples.

    A question is a third-level heading of the spec's ``questions.md``; for
    each, the number of example blocks under it and of those with a state,
    each of which draws at least one board.
    """
    entries: dict[str, dict[str, tuple[int, int]]] = {}
    root = Path(__file__).resolve().parent.parent
    for name in GAMES:
        questions: dict[str, tuple[int, int]] = {}
        current = None
        block: list[str] | None = None
        for line in (root / name / "spec" / "questions.md").read_text("utf-8").splitlines():
            if line.startswith("### "):
                current = line[4:].strip()
                questions[current] = (0, 0)
            elif line.strip() == "```example":
                block = []
            elif line.strip() == "```" and block is not None:
                if current is not None:
                    examples, drawn = questions[current]
                    has_state = any(item.startswith("state:") for item in block)
                    questions[current] = (examples + 1, drawn + has_state)
                block = None
            elif block is not None:
                block.append(line)
        entries[f"{name}/questions.html"] = questions
    return entries


def check_site(root: Path, page: Page, screenshots: Path | None) -> list[str]:
    """Check every HTML page under ``root``; return one line per problem found."""
    problems: list[str] = []
    expected, boards_for = _expected_examples()
    entries = _expected_entries()
    seen: list[str] = []
    drawn: set[str] = set()  # the boards whose texts have been looked at

    def console(message: ConsoleMessage) -> None:
        seen.append(f"console.{message.type}: {message.text}")

    page.on("console", console)
    page.on("pageerror", lambda error: seen.append(f"uncaught exception: {error}"))
    page.on("requestfailed", lambda request: seen.append(f"failed to load {request.url}"))
    pages = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html"))
    pages = [p for p in pages if not p.startswith("_")]
    for name in pages:
        page.set_viewport_size(DESKTOP)
        seen.clear()
        try:
            page.goto((root / name).resolve().as_uri(), wait_until="load", timeout=TIMEOUT_MS)
            if name in SCRIPTED:
                page.wait_for_selector(SCRIPTED[name], timeout=TIMEOUT_MS)
        except PlaywrightError as exc:
            problems.append(f"{name}: did not finish loading: {exc}")
            continue
        page.wait_for_timeout(300)
        problems.extend(f"{name}: {p}" for p in seen)
        facts = json.loads(page.evaluate(_PROBE))
        if not facts["h1"] and name != "search.html":
            problems.append(f"{name}: no heading; the page did not render")
        if facts["empty"]:
            problems.append(f"{name}: {facts['empty']} pictures are drawn with no size")
        if facts["brokenImages"]:
            problems.append(f"{name}: {facts['brokenImages']} images did not load")
        in_html = len(_BOARD.findall((root / name).read_text(encoding="utf-8")))
        in_html += 1 if name in SCRIPTED else 0  # the board its script draws
        if facts["boards"] != in_html:
            problems.append(f"{name}: the browser shows {facts['boards']} of {in_html} boards")
        wanted = max(len(boards_for.get(name, [])), 1 if name in PICTURE_PAGES else 0)
        if facts["boards"] < wanted:
            problems.append(f"{name}: {facts['boards']} board pictures, expected {wanted} or more")
        small = [size for size in facts["smallest"] if size < MIN_TEXT_PX]
        if small:
            problems.append(
                f"{name}: {len(small)} boards draw text at {min(small):.1f}px, "
                f"under {MIN_TEXT_PX}px"
            )
        if facts["wide"]:
            problems.append(f"{name}: {facts['wide']} tables or pictures run past the text")
        if facts["split"]:
            problems.append(f"{name}: table headings split inside a word: {facts['split']}")
        if name == QUESTIONS_PAGE:
            problems.extend(_question_problems(name, facts["questions"]))
        if name in entries:
            problems.extend(_entry_problems(name, entries[name], facts["entries"]))
        missing = [ex for ex in expected.get(name, []) if ex not in facts["examples"]]
        if missing:
            problems.append(f"{name}: spec examples missing: {', '.join(missing)}")
        problems.extend(f"{name}: {p}" for p in overlap_problems(page, drawn))
        print(
            f"{name}: {facts['boards']} boards, {facts['dice']} dice, "
            f"{len(facts['examples'])} examples"
        )
        if screenshots is not None and name in MAIN_PAGES:
            page.set_viewport_size({"width": 1280, "height": min(int(facts["height"]), 6000)})
            screenshots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(screenshots / MAIN_PAGES[name]))
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(100)
        problems.extend(f"{name}: {p}" for p in phone_problems(page))
        if screenshots is not None and name in PHONE_PAGES and facts["boards"]:
            screenshots.mkdir(parents=True, exist_ok=True)
            page.locator(_BOARDS).first.scroll_into_view_if_needed()
            page.screenshot(path=str(screenshots / PHONE_PAGES[name]))
    unseen = sorted(set(expected) - set(pages))
    problems.extend(f"{name}: page missing from the site" for name in unseen)
    for name in [QUESTIONS_PAGE, *entries]:
        if name not in pages:
            problems.append(f"{name}: page missing from the site")
    problems.extend(_search_problems(root, page))
    return problems


def _question_problems(page: str, questions: list[dict[str, Any]]) -> list[str]:
    """Check that each question has an anchor, a board and its explanation."""
    problems = []
    if len(questions) < QUESTIONS:
        problems.append(f"{page}: {len(questions)} questions, expected {QUESTIONS} or more")
    for question in questions:
        if not question["boards"] or not question["lines"]:
            problems.append(f"{page}#{question['id']}: no board or no explanation")
        if not question["command"].startswith("cantstop explain '"):
            problems.append(f"{page}#{question['id']}: no cantstop explain command")
    print(f"{page}: {len(questions)} questions")
    return problems


def _entry_problems(
    page: str, wanted: dict[str, tuple[int, int]], shown: list[dict[str, Any]]
) -> list[str]:
    """Check that each question of a game's spec is on its page with its examples, drawn."""
    problems = []
    found = {entry["title"]: entry for entry in shown}
    for title, (examples, drawn) in wanted.items():
        entry = found.get(title)
        if entry is None:
            problems.append(f"{page}: question missing: {title!r}")
        elif entry["examples"] < max(examples, 1) or entry["boards"] < drawn:
            problems.append(
                f"{page}: {title!r} shows {entry['examples']} examples and {entry['boards']} "
                f"boards, expected {max(examples, 1)} and {drawn} or more"
            )
    print(f"{page}: {len(wanted) - len(problems)} of {len(wanted)} questions with their examples")
    return problems


_SEARCH = """((queries) => queries.map(q => {
  const [query, terms, excluded, highlight, objects] = Search._parseQuery(q);
  const found = Search._performSearch(query, terms, excluded, highlight, objects);
  return found.length ? found[found.length - 1][0] : null;  // the first result shown
}))(%s)"""


def _search_problems(root: Path, page: Page) -> list[str]:
    """Search each rule's title words; the first result must be a page with that title.

    Rules of every game count: a title that two games share may find either.
    """
    pages: dict[str, set[str]] = {}
    for directory, spec in _specs():
        for rule in spec.rules.values():
            pages.setdefault(rule.title, set()).add(directory + rule.path.removesuffix(".md"))
    page.goto((root / "search.html").resolve().as_uri(), timeout=TIMEOUT_MS)
    try:
        page.wait_for_function(
            "typeof Search !== 'undefined' && Search._index !== null", timeout=TIMEOUT_MS
        )
    except PlaywrightError:
        return ["search.html: the search index did not load"]
    titles = sorted(pages)
    expression = _SEARCH % json.dumps(titles)
    firsts = page.evaluate(expression)
    problems = [
        f"search.html: {title!r} lists {first} first, not {' or '.join(sorted(pages[title]))}"
        for title, first in zip(titles, firsts, strict=True)
        if first not in pages[title]
    ]
    print(f"search.html: {len(titles) - len(problems)} of {len(titles)} rule titles found first")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Run the check; print the problems and return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path, help="the HTML output directory of the site")
    parser.add_argument("--screenshots", type=Path, help="save PNGs of the main pages here")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args(argv)
    if not (args.build / "index.html").is_file():
        print(f"check_pages: {args.build} holds no built site (index.html)", file=sys.stderr)
        return 2
    if not Path(args.chromium).is_file():
        print(
            f"check_pages: no Chromium at {args.chromium}; install it "
            f"(apt-get install -y chromium) or pass --chromium",
            file=sys.stderr,
        )
        return 2
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium)
        try:
            problems = check_site(args.build, browser.new_page(), args.screenshots)
        finally:
            browser.close()
    for problem in problems:
        print("PROBLEM", problem)
    print(f"check_pages: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
