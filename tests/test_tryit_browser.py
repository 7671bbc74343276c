"""The "Try it" page in Chromium: scripted games with typed dice, from file:// and a server.

The expected states are worked out by hand from the rules (each step says
which); bust chances are counted over the 1296 rolls with the Python engine,
and the board must be the picture :func:`cantstop.svg.state_svg` draws.
``CANTSTOP_SCREENSHOTS=DIR`` saves pictures of the page mid-game, after a bust
and at phone width.
"""

from __future__ import annotations

import functools
import http.server
import itertools
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cantstop import IllegalAction, Roll, Stop, parse_state
from cantstop.svg import state_svg
from tests.docsite import built_site
from tests.extras import CHROMIUM_REASON, require

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

require("playwright")
require("pytest_playwright")
if not Path(CHROMIUM).is_file():
    if os.environ.get("CI") == "true":
        pytest.fail("the browser tests need Chromium: apt-get install -y chromium")
    pytest.skip(CHROMIUM_REASON, allow_module_level=True)

from playwright.sync_api import BrowserContext, Page, Request, Route, ViewportSize  # noqa: E402

PHONE: ViewportSize = {"width": 375, "height": 812}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium: no browser can be downloaded here."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture(scope="session")
def base_url() -> None:
    """Give pages no base URL; this also stands in for pytest-playwright's own fixture.

    That one is a method of a plugin class, which pytest 9 deprecates with a
    warning, and the suite turns warnings into errors.
    """
    return None


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": DESKTOP, "accept_downloads": True}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_site(tmp_path_factory)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Log nothing: the tests read no server log."""


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    """Serve the built site from a static HTTP server on the loopback interface."""
    handler = functools.partial(_Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(params=["file", "http"])
def base(request: pytest.FixtureRequest, site: Path) -> str:
    """Return the site's address: opened from disk, or from the static server."""
    if request.param == "file":
        return site.resolve().as_uri() + "/"
    served: str = request.getfixturevalue("server")
    return served


@pytest.fixture
def file_base(site: Path) -> str:
    return site.resolve().as_uri() + "/"


@pytest.fixture
def watched(context: BrowserContext, page: Page) -> Iterator[Page]:
    """Yield the page; fail the test on any console message, page error or network request."""
    problems: list[str] = []
    local = ("file://", "http://127.0.0.1:", "blob:", "data:", "about:")

    def route(route: Route) -> None:
        if route.request.url.startswith(local):
            route.continue_()
        else:
            problems.append(f"network request: {route.request.url}")
            route.abort()

    def request(req: Request) -> None:
        if not req.url.startswith(local):
            problems.append(f"network request: {req.url}")

    context.route("**/*", route)
    page.on("request", request)
    page.on("console", lambda m: problems.append(f"console.{m.type}: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    yield page
    assert problems == []


class Board:
    """The page's board, driven as a reader drives it, with typed dice."""

    def __init__(self, page: Page, base: str) -> None:
        self.page = page
        self.base = base

    def open(self, fragment: str = "") -> None:
        """Open the page with the URL fragment ``fragment``."""
        self.page.goto(self.base + "tryit.html" + (f"#{fragment}" if fragment else ""))
        self.page.wait_for_selector("#cs-board svg")

    def state(self) -> str:
        """Return the notation of the state on the board."""
        found = self.page.get_attribute("#cs-board", "data-state")
        assert found is not None
        return found

    def new_game(self, players: int = 2, to_win: int = 3, variant: str = "") -> None:
        """Start a new game with these rules."""
        self.page.select_option("#cs-players", str(players))
        self.page.fill("#cs-to-win", str(to_win))
        self.page.select_option("#cs-variant", variant)
        self.page.click("#cs-new-game button")

    def roll(self, dice: str) -> None:
        """Type ``dice`` and roll them."""
        self.page.fill("#cs-dice", dice)
        self.page.click("#cs-roll-typed")

    def move(self, move: str) -> None:
        """Click the button of the legal move ``move``."""
        self.page.click(f'#cs-moves button[data-move="{move}"]')

    def stop(self) -> None:
        """Click Stop."""
        self.page.click("#cs-stop")

    def legal(self) -> list[str]:
        """Return the legal moves that have a button."""
        found = self.page.eval_on_selector_all(
            "#cs-moves button.cs-move", "bs => bs.map(b => b.dataset.move)"
        )
        return [str(m) for m in found]

    def refused(self) -> dict[str, str]:
        """Return, for each move the dice do not allow, the reason shown."""
        found = self.page.eval_on_selector_all(
            "#cs-moves ul.cs-refused li",
            "ls => ls.map(l => [l.dataset.move, l.textContent])",
        )
        return {str(m): str(text) for m, text in found}

    def text(self, selector: str) -> str:
        """Return the text of ``selector``."""
        return self.page.inner_text(selector)

    def history(self) -> list[str]:
        """Return the actions the history lists."""
        found = self.page.eval_on_selector_all(
            "#cs-history li code", "cs => cs.map(c => c.textContent)"
        )
        return [str(a) for a in found]

    def check_picture(self) -> None:
        """Check that the board on the page is the picture cantstop.svg draws for its state."""
        expected = state_svg(parse_state(self.state()))
        as_html = self.page.evaluate(
            "svg => { const d = document.createElement('div'); "
            "d.innerHTML = svg; return d.innerHTML; }",
            expected,
        )
        assert self.page.inner_html("#cs-board") == as_html

    def shot(self, name: str, full: bool = False) -> None:
        """Save a screenshot as ``name`` when ``CANTSTOP_SCREENSHOTS`` names a folder."""
        folder = os.environ.get("CANTSTOP_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(folder) / name), full_page=full)


def check_chance(board: Board, state: str) -> None:
    """Check the chance the page shows that the next roll busts, before the decision.

    Only after a move is there a decision to make: at the start of a turn the
    chance is shown without "Before you decide".
    """
    chance = bust_chance(state)
    shown = board.text("#cs-chance")
    deciding = parse_state(state).phase.value == "decide"
    assert shown.startswith("Before you decide: ") is deciding, shown
    if chance == "0/1":
        assert "none of the 1296 rolls busts" in shown
    else:
        assert f"the chance of a bust is {chance} (" in shown


@functools.cache
def bust_chance(state: str) -> str:
    """Return the chance that the next roll from ``state`` busts, counted by the Python engine."""
    position = parse_state(state)
    busts = sum(
        position.step(Roll((a, b, c, d))).event.value == "busted"
        for a, b, c, d in itertools.product(range(1, 7), repeat=4)
    )
    chance = Fraction(busts, 1296)
    return f"{chance.numerator}/{chance.denominator}"


# The game every scripted test starts with: two players, two columns to win.
# Each step: the action, and the state after it as the rules give it.
GAME: list[tuple[str, str]] = [
    # 1-1-1-1: every pairing makes 2 and 2; both steps fit in column 2 (3 spaces, R7.1).
    ("r1111", "-/- - 0c1111 w2"),
    ("2+2", "-/- 2:2 0d w2"),
    # Again 2 and 2: the first step reaches the top, the second is forfeit (R7.3).
    ("r1111", "-/- 2:2 0c1111 w2"),
    ("2", "-/- 2:3 0d w2"),
    # The stop turns the marker on the top space into a won column (R11.3).
    ("stop", "2:3/- - 1r w2"),
    ("r6666", "2:3/- - 1c6666 w2"),
    ("12+12", "2:3/- 12:2 1d w2"),
    ("r6666", "2:3/- 12:2 1c6666 w2"),
    ("12", "2:3/- 12:3 1d w2"),
    ("stop", "2:3/12:3 - 0r w2"),
    # 1-1-1-2 makes 2 and 3 in every pairing; column 2 is won, so only 3 plays (R9.2, R6.2).
    ("r1112", "2:3/12:3 - 0c1112 w2"),
    ("3", "2:3/12:3 3:1 0d w2"),
    # 1-1-1-1 makes only 2s, and column 2 is won: a bust, the marker comes off (R10).
    ("r1111", "2:3/12:3 - 1r w2"),
    # 5-6-5-6 (sorted 5566 in the notation): 11 and 11, or 10 and 12 (12 won, so 10 alone).
    ("r5656", "2:3/12:3 - 1c5566 w2"),
    ("11+11", "2:3/12:3 11:2 1d w2"),
    ("r5656", "2:3/12:3 11:2 1c5566 w2"),
    ("11+11", "2:3/12:3 11:4 1d w2"),
    ("r5656", "2:3/12:3 11:4 1c5566 w2"),
    ("11", "2:3/12:3 11:5 1d w2"),
    # Player 1 then holds 11 and 12, the two columns to win (R12.1).
    ("stop", "2:3/11:5,12:3 - 1x w2"),
]


def play(board: Board, action: str) -> None:
    if action.startswith("r"):
        board.roll(action[1:])
    elif action == "stop":
        board.stop()
    else:
        board.move(action)


def test_a_scripted_game_moves_stops_busts_wins_a_column_and_the_game(
    watched: Page, base: str, tmp_path: Path
) -> None:
    """A game with typed dice, ending in a download that ``cantstop verify`` accepts."""
    board = Board(watched, base)
    board.open()
    assert board.state() == "-/- - 0r"
    board.new_game(players=2, to_win=2)
    assert board.state() == "-/- - 0r w2"
    board.check_picture()
    for index, (action, after) in enumerate(GAME):
        before = board.state()
        if parse_state(before).phase.value in ("roll", "decide"):
            # The exact chance is on the page before the decision.
            check_chance(board, before)
        play(board, action)
        assert board.state() == after, (index, action)
        assert board.text("#cs-message") == ""
        if index == 0:
            assert board.legal() == ["2+2"]
            refused = board.refused()
            assert "2 is not legal" in refused["2"]
            assert "(R7.1)" in refused["2"]
        if index == 2:
            assert board.legal() == ["2"]
            assert "(R7.3)" in board.refused()["2+2"]
            board.shot("tryit-mid-game.png", full=True)
        if action == "stop" and index == 4:
            assert "Column 2 would be won" in board.text("#cs-last")
        if index == 10:
            assert board.legal() == ["3"]
            assert "won by player 0" in board.refused()["2"]
        if index == 12:
            assert "Bust: r1111" in board.text("#cs-last")
            assert "No pairing plays anything, so the roll is a bust" in board.text("#cs-last")
            board.shot("tryit-bust.png", full=True)
        if index == 13:
            assert board.legal() == ["10", "11+11"]
    assert "has won" in board.text("#cs-status")
    assert board.page.is_hidden("#cs-roll")
    board.check_picture()
    assert board.history() == [action for action, _ in GAME]
    check_download(board.page, tmp_path)


def check_download(page: Page, folder: Path) -> None:
    """Download the game; check that ``cantstop verify`` replays it to the same end."""
    with page.expect_download() as download:
        page.click("#cs-download")
    saved = folder / "game.jsonl"
    download.value.save_as(saved)
    run = subprocess.run(
        [sys.executable, "-m", "cantstop", "verify", str(saved)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"valid: {len(GAME)} actions; final state '{GAME[-1][1]}'" in run.stdout
    lines = saved.read_text(encoding="utf-8").splitlines()
    assert '"bust":true' in lines[13]  # the claims are written, and verify checked them


def test_variant_b_refuses_a_stop_on_a_shared_space(watched: Page, file_base: str) -> None:
    board = Board(watched, file_base)
    board.open()
    board.new_game(variant="B")
    for action in ("r1111", "2+2", "stop", "r1111", "2+2"):
        play(board, action)
    # Player 1's marker stands on space 2 of column 2, where player 0 has a square (R14.2).
    assert board.state() == "2:2/- 2:2 1d B"
    board.stop()
    assert board.state() == "2:2/- 2:2 1d B"
    message = board.text("#cs-message")
    assert "stop is not legal under Variant B" in message
    assert "(R14.2)" in message
    assert watched.get_attribute("#cs-message a", "href") == "rules/14-variants.html#rule-r14-2"
    with pytest.raises(IllegalAction) as refused:  # the Python engine agrees
        parse_state(board.state()).apply(Stop())
    assert refused.value.rule == "R14.2"


def test_undo_and_redo(watched: Page, file_base: str) -> None:
    board = Board(watched, file_base)
    board.open()
    for action in ("r1111", "2+2", "r1111"):
        play(board, action)
    assert board.state() == "-/- 2:2 0c1111"
    watched.click("#cs-undo")
    assert board.state() == "-/- 2:2 0d"
    watched.click("#cs-undo")
    assert board.state() == "-/- - 0c1111"
    assert board.history() == ["r1111", "2+2", "r1111"]
    assert watched.locator("#cs-history li.cs-undone").count() == 2
    watched.click("#cs-redo")
    assert board.state() == "-/- 2:2 0d"
    # A new action drops the undone ones.
    board.roll("3455")
    assert board.state() == "-/- 2:2 0c3455"
    assert board.history() == ["r1111", "2+2", "r3455"]
    assert watched.is_disabled("#cs-redo")


def test_a_shared_link_reloads_the_same_position(
    watched: Page, base: str, context: BrowserContext
) -> None:
    board = Board(watched, base)
    board.open()
    board.new_game(players=3, to_win=2, variant="A")
    for action in ("r3455", "7+10", "stop", "r1111"):
        play(board, action)
    state = board.state()
    assert state == "7:1,10:1/-/- - 1c1111 w2 A"
    link = watched.input_value("#cs-link")
    assert link == watched.url
    assert link.endswith("#s=-/-/-_-_0r_w2_A&a=r3455_7+10_stop_r1111")
    watched.reload()
    watched.wait_for_selector("#cs-board svg")
    assert board.state() == state
    assert board.history() == ["r3455", "7+10", "stop", "r1111"]
    other = Board(context.new_page(), base)
    other.page.goto(link)
    other.page.wait_for_selector("#cs-board svg")
    assert other.state() == state
    other.page.close()


def test_a_position_shows_its_exact_bust_chance_and_cannot_be_downloaded(
    watched: Page, file_base: str
) -> None:
    board = Board(watched, file_base)
    state = "-/- 2:1,3:1,12:1 0d"
    board.open("s=" + state.replace(" ", "_"))
    assert board.state() == state
    assert bust_chance(state) != "0/1"
    check_chance(board, state)
    # A record starts at the opening (spec/record.md); this game does not.
    assert watched.is_disabled("#cs-download")
    assert "starts at the opening" in board.text("#cs-download-note")


def test_the_board_is_played_with_the_keyboard_alone(watched: Page, file_base: str) -> None:
    board = Board(watched, file_base)
    board.open()
    keys = watched.keyboard

    def tab_to(selector: str) -> None:
        for _ in range(80):
            keys.press("Tab")
            if watched.evaluate(f"document.activeElement.matches({selector!r})"):
                return
        raise AssertionError(f"Tab never reaches {selector}")

    tab_to("#cs-dice")
    keys.type("3455")
    keys.press("Enter")
    assert board.state() == "-/- - 0c3455"
    # The first legal move has the focus; Tab goes on to the next one.
    assert watched.evaluate("document.activeElement.dataset.move") == "7+10"
    keys.press("Tab")
    keys.press("Enter")
    assert board.state() == "-/- 8:1,9:1 0d"
    # The dice have the focus again: roll again, then stop.
    assert watched.evaluate("document.activeElement.id") == "cs-dice"
    keys.type("1111")
    keys.press("Enter")
    keys.press("Enter")  # the only legal move, 2+2
    assert board.state() == "-/- 2:2,8:1,9:1 0d"
    tab_to("#cs-stop")
    keys.press("Space")
    assert board.state() == "2:2,8:1,9:1/- - 1r"
    tab_to("#cs-undo")
    keys.press("Enter")
    assert board.state() == "-/- 2:2,8:1,9:1 0d"


def test_the_page_fits_a_phone(watched: Page, file_base: str) -> None:
    watched.set_viewport_size(PHONE)
    board = Board(watched, file_base)
    board.open("s=7:2,10:7/7:4,8:3_7:5,8:2,11:1_0c2346")
    board.check_picture()
    # Opened from a link, the board is in view and its title below the theme's header.
    assert in_view(watched, "#cs-board svg")
    title = watched.locator("#cs-board-title").bounding_box()
    header = watched.locator(".mobile-header").bounding_box()
    assert title is not None
    assert header is not None
    assert title["y"] >= header["y"] + header["height"]
    width = watched.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    box = watched.locator("#cs-board svg").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    # The board's smallest text stays legible: 11 CSS pixels or more.
    smallest = watched.evaluate(
        """() => { const svg = document.querySelector('#cs-board svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Math.min(...[...svg.querySelectorAll('text')]
          .map(t => +t.getAttribute('font-size'))) * scale; }"""
    )
    assert smallest >= 10
    board.shot("tryit-phone.png", full=True)


def open_link(page: Page, selector: str) -> None:
    page.click(selector)
    page.wait_for_selector("#cs-board svg")


def in_view(page: Page, selector: str, text: str = "") -> bool:
    """Whether the first element of ``selector`` holding ``text`` is wholly in the window."""
    return bool(
        page.evaluate(
            """([selector, text]) => {
              const found = [...document.querySelectorAll(selector)]
                .find((e) => e.textContent.includes(text));
              if (!found) return false;
              const box = found.getBoundingClientRect();
              return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
            }""",
            [selector, text],
        )
    )


def test_a_spec_example_opens_at_its_position(watched: Page, server: str) -> None:
    """E008's link plays its roll on the board; a rejected action is explained, not played."""
    watched.goto(server + "rules/02-setup.html")
    open_link(watched, "#e008 a.cs-tryit-link")
    board = Board(watched, server)
    assert board.state() == "-/- - 0c3455"
    assert board.history() == ["r3455"]
    assert board.legal() == ["7+10", "8+9"]
    # The link lands on the board, not at the top of the page.
    assert in_view(watched, "#cs-board svg")


def test_a_question_opens_at_its_position_with_its_answer(watched: Page, file_base: str) -> None:
    watched.goto(file_base + "questions.html")
    open_link(watched, "#q-both-sums a.cs-tryit-link")
    board = Board(watched, file_base)
    assert board.state() == "7:2/- - 0c3455"
    answer = board.text("#cs-answer")
    assert "7 is not legal" in answer
    assert "(R6.1)" in answer
    assert watched.input_value("#cs-action") == "7"
    # In a 1280x900 window the board and the answer to the question are both in view.
    assert watched.viewport_size == DESKTOP
    assert in_view(watched, "#cs-board svg")
    assert in_view(watched, "#cs-answer p", "7 is not legal")
    assert in_view(watched, "#cs-answer p", "may play 7+10 or 8+9 instead")


def test_an_example_is_opened_from_the_list(watched: Page, file_base: str) -> None:
    board = Board(watched, file_base)
    board.open()
    options = watched.eval_on_selector_all(
        "#cs-example-choice option", "os => os.map(o => [o.value, o.textContent])"
    )
    value = next(v for v, text in options if str(text).startswith("E008 "))
    watched.select_option("#cs-example-choice", str(value))
    watched.click("#cs-example button")
    assert board.state() == "-/- - 0c3455"


def test_bad_links_and_dice_say_what_is_wrong(watched: Page, file_base: str) -> None:
    board = Board(watched, file_base)
    board.open("s=7:2/-_-_0c3455&a=7")
    assert board.state() == "7:2/- - 0c3455"
    message = board.text("#cs-start-message")
    assert "Action 1" in message
    assert "R6.1" in message  # 7 alone, when 7+10 can be played together
    assert in_view(watched, "#cs-start-message")  # the link lands where it says why
    board.open("s=7:2/-_-_0q")
    assert board.state() == "-/- - 0r"
    assert "The state could not be read" in board.text("#cs-start-message")
    # The phase letter q is character 9 of the state (counted from 0).
    assert "'7:2/- - 0q'" in board.text("#cs-start-message")
    assert "at character 9 ('q')" in board.text("#cs-start-message")


@pytest.mark.parametrize(
    ("typed", "where"),
    [
        # A die of 7 breaks the roll (N2.2: four dice 1 to 6): the third character typed.
        ("1279", "expected four dice 1 to 6 at character 2 ('7')"),
        ("2457", "expected four dice 1 to 6 at character 3 ('7')"),
        # The "r", spaces and dashes typed are counted as typed: the 7 is character 8.
        ("r 2-4-5-7", "expected four dice 1 to 6 at character 8 ('7')"),
        # A fifth die: the roll was complete before it.
        ("24567", "a roll is exactly four dice at character 4 ('7')"),
        # Three dice: the fourth is missing where the text ends.
        ("245", "expected four dice 1 to 6 at the end"),
    ],
)
def test_bad_dice_are_quoted_and_counted_as_typed(
    watched: Page, file_base: str, typed: str, where: str
) -> None:
    board = Board(watched, file_base)
    board.open()
    board.roll(typed)
    assert board.state() == "-/- - 0r"
    message = board.text("#cs-message")
    assert message == f"Type four dice from 1 to 6, like 2455: '{typed}': {where} (rule N2.2)"
    assert watched.get_attribute("#cs-message a", "href") == "notation.html#rule-n2-2"
