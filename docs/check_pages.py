"""Load every page of the built site in headless Chromium and check it as a reader sees it.

Usage: ``python3 docs/check_pages.py BUILD_DIR [--screenshots DIR]``, where
BUILD_DIR is the HTML output of ``sphinx -b html docs BUILD_DIR``.

The browser is driven through the DevTools protocol over a pipe
(``--remote-debugging-pipe``), with nothing but the standard library.  For each
page the check fails when the page does not load, when the page throws or logs
anything to the console (JavaScript errors, resources that fail to load), when
a board or dice picture is missing or drawn with no size, when a board's
text is drawn smaller than 11 pixels, when a table or a row of pictures runs
past the right edge of the text, or when a spec example that belongs on the
page is not there.  On the questions page each question must have its anchor,
a board and its explanation.  Then, on the search page, a search for each
rule's title words must list that rule's page first.  With ``--screenshots``
it also saves a full-page PNG of the main pages.  The exit status is 0 when
every page passes.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import fcntl
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

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
}

#: Pages that must hold a board picture besides those of their spec examples.
PICTURE_PAGES = ("index.html",)

#: The page of questions, and the least number of questions it must hold.
QUESTIONS_PAGE, QUESTIONS = "questions.html", 30

#: The smallest size, in CSS pixels, at which a board may draw its text.
MIN_TEXT_PX = 11

_BOARD = re.compile(r'<svg [^>]*class="cantstop-board"')

_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
]

_PROBE = """(() => {
  const pictures = [...document.querySelectorAll('svg.cantstop-board, svg.cantstop-dice')];
  const empty = pictures.filter(p => {
    const r = p.getBoundingClientRect();
    return !(r.width > 0 && r.height > 0);
  }).length;
  const images = [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).length;
  const examples = [...document.querySelectorAll('.cs-example')].map(e => e.id);
  const h1 = document.querySelector('h1');
  // The smallest text of each board, in CSS pixels, as drawn.
  const smallest = [...document.querySelectorAll('svg.cantstop-board')].map(svg => {
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
  const questions = [...document.querySelectorAll('section[id^="q-"]')].map(s => ({
    id: s.id,
    boards: s.querySelectorAll('.cs-position svg.cantstop-board').length,
    lines: s.querySelectorAll('.cs-explain p.cs-line').length,
    command: (s.querySelector('.cs-command') || {}).textContent || '',
  }));
  return JSON.stringify({
    title: document.title, h1: h1 ? h1.textContent : null,
    boards: document.querySelectorAll('svg.cantstop-board').length,
    dice: document.querySelectorAll('svg.cantstop-dice').length,
    empty: empty, brokenImages: images, examples: examples,
    height: document.documentElement.scrollHeight,
    smallest: smallest, wide: wide, questions: questions,
  });
})()"""


class Browser:
    """A headless Chromium process spoken to over the DevTools pipe."""

    def __init__(self, executable: str, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="cantstop-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire() -> None:  # in the child: the browser reads fd 3 and writes fd 4
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.process = subprocess.Popen(
            [executable, *_FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=wire,  # the only way to place the pipe on fds 3 and 4
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self._events: queue.Queue[dict[str, Any]] = queue.Queue()
        self._lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        while True:
            chunk = os.read(self._from_browser, 65536)
            if not chunk:
                with self._lock:
                    self._lock.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._lock:
                        self._replies[message["id"]] = message
                        self._lock.notify_all()
                else:
                    self._events.put(message)

    def send(self, method: str, params: dict[str, Any] | None = None, session: str = "") -> Any:
        """Send one command and return its result; raise ``RuntimeError`` on an error reply."""
        self._next_id += 1
        ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        with self._lock:
            while ident not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise RuntimeError(f"no answer from the browser to {method}")
                self._lock.wait(left)
            reply = self._replies.pop(ident)
        if "error" in reply:
            raise RuntimeError(f"{method} failed: {reply['error']}")
        return reply.get("result", {})

    def events(self, wait: float) -> list[dict[str, Any]]:
        """Return the events that arrive within ``wait`` seconds (all of those already queued)."""
        found: list[dict[str, Any]] = []
        deadline = time.monotonic() + wait
        while True:
            left = deadline - time.monotonic()
            try:
                found.append(self._events.get(timeout=max(left, 0.0)))
            except queue.Empty:
                return found

    def close(self) -> None:
        """End the browser process and remove its profile."""
        with contextlib.suppress(RuntimeError):
            self.send("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        shutil.rmtree(self.profile, ignore_errors=True)


def _problems_in(events: list[dict[str, Any]]) -> list[str]:
    """Return console messages, uncaught exceptions and failed loads among ``events``."""
    problems = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
            problems.append(f"console.{params.get('type')}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
            problems.append(f"uncaught exception: {text}")
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            problems.append(f"{entry.get('level')}: {entry.get('text')} {entry.get('url', '')}")
    return problems


def _expected_examples() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Return, per page, the anchors of the examples it must show and of those it must draw."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from cantstop.spec import load_spec

    pages: dict[str, list[str]] = {}
    boards: dict[str, list[str]] = {}
    for example in load_spec().examples:
        page = example.path.removesuffix(".md") + ".html"
        pages.setdefault(page, []).append(example.id.lower())
        if example.get("state") is not None:
            boards.setdefault(page, []).append(example.id.lower())
    return pages, boards


def check_site(root: Path, browser: Browser, screenshots: Path | None) -> list[str]:
    """Check every HTML page under ``root``; return one line per problem found."""
    problems: list[str] = []
    expected, boards_for = _expected_examples()
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
        "sessionId"
    ]
    for domain in ("Page", "Runtime", "Log"):
        browser.send(f"{domain}.enable", session=session)
    pages = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html"))
    pages = [p for p in pages if not p.startswith("_")]
    for page in pages:
        browser.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False},
            session=session,
        )
        browser.events(0)
        browser.send("Page.navigate", {"url": (root / page).resolve().as_uri()}, session=session)
        loaded = False
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + browser.timeout
        while not loaded and time.monotonic() < deadline:
            batch = browser.events(0.2)
            seen.extend(batch)
            loaded = any(e.get("method") == "Page.loadEventFired" for e in batch)
        if not loaded:
            problems.append(f"{page}: did not finish loading")
            continue
        seen.extend(browser.events(0.3))
        problems.extend(f"{page}: {p}" for p in _problems_in(seen))
        result = browser.send(
            "Runtime.evaluate", {"expression": _PROBE, "returnByValue": True}, session=session
        )
        facts = json.loads(result["result"]["value"])
        if not facts["h1"] and page != "search.html":
            problems.append(f"{page}: no heading; the page did not render")
        if facts["empty"]:
            problems.append(f"{page}: {facts['empty']} pictures are drawn with no size")
        if facts["brokenImages"]:
            problems.append(f"{page}: {facts['brokenImages']} images did not load")
        in_html = len(_BOARD.findall((root / page).read_text(encoding="utf-8")))
        if facts["boards"] != in_html:
            problems.append(f"{page}: the browser shows {facts['boards']} of {in_html} boards")
        wanted = max(len(boards_for.get(page, [])), 1 if page in PICTURE_PAGES else 0)
        if facts["boards"] < wanted:
            problems.append(f"{page}: {facts['boards']} board pictures, expected {wanted} or more")
        small = [size for size in facts["smallest"] if size < MIN_TEXT_PX]
        if small:
            problems.append(
                f"{page}: {len(small)} boards draw text at {min(small):.1f}px, "
                f"under {MIN_TEXT_PX}px"
            )
        if facts["wide"]:
            problems.append(f"{page}: {facts['wide']} tables or pictures run past the text")
        if page == QUESTIONS_PAGE:
            problems.extend(_question_problems(page, facts["questions"]))
        missing = [ex for ex in expected.get(page, []) if ex not in facts["examples"]]
        if missing:
            problems.append(f"{page}: spec examples missing: {', '.join(missing)}")
        print(
            f"{page}: {facts['boards']} boards, {facts['dice']} dice, "
            f"{len(facts['examples'])} examples"
        )
        if screenshots is not None and page in MAIN_PAGES:
            height = min(int(facts["height"]), 6000)
            browser.send(
                "Emulation.setDeviceMetricsOverride",
                {"width": 1280, "height": height, "deviceScaleFactor": 1, "mobile": False},
                session=session,
            )
            shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)
            screenshots.mkdir(parents=True, exist_ok=True)
            (screenshots / MAIN_PAGES[page]).write_bytes(base64.b64decode(shot["data"]))
    unseen = sorted(set(expected) - set(pages))
    problems.extend(f"{page}: page missing from the site" for page in unseen)
    if QUESTIONS_PAGE not in pages:
        problems.append(f"{QUESTIONS_PAGE}: page missing from the site")
    problems.extend(_search_problems(root, browser, session))
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


_SEARCH = """((queries) => queries.map(q => {
  const [query, terms, excluded, highlight, objects] = Search._parseQuery(q);
  const found = Search._performSearch(query, terms, excluded, highlight, objects);
  return found.length ? found[found.length - 1][0] : null;  // the first result shown
}))(%s)"""


def _search_problems(root: Path, browser: Browser, session: str) -> list[str]:
    """Search each rule's title words; the first result must be a page with that title."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from cantstop.spec import load_spec

    pages: dict[str, set[str]] = {}
    for rule in load_spec().rules.values():
        pages.setdefault(rule.title, set()).add(rule.path.removesuffix(".md"))
    browser.send("Page.navigate", {"url": (root / "search.html").as_uri()}, session=session)
    deadline = time.monotonic() + browser.timeout
    ready = "typeof Search !== 'undefined' && Search._index !== null"
    while time.monotonic() < deadline:
        result = browser.send(
            "Runtime.evaluate", {"expression": ready, "returnByValue": True}, session=session
        )
        if result["result"].get("value"):
            break
        time.sleep(0.1)
    else:
        return ["search.html: the search index did not load"]
    titles = sorted(pages)
    expression = _SEARCH % json.dumps(titles)
    result = browser.send(
        "Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=session
    )
    firsts = result["result"]["value"]
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
    browser = Browser(args.chromium)
    try:
        problems = check_site(args.build, browser, args.screenshots)
    finally:
        browser.close()
    for problem in problems:
        print("PROBLEM", problem)
    print(f"check_pages: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
