"""The ``conform``, ``serve`` and ``verify`` subcommands of ``cantstop``, for every game.

Each takes ``--game NAME`` (:mod:`cantstop.commands.games`; Can't Stop by
default): ``conform`` runs that game's suite against a port, by default its
bundled JavaScript port; ``serve`` answers the protocol as its reference
port; ``verify`` checks a record, whose header names its game (a header
without one is a Can't Stop record), and ``--game`` must agree with it.
What each game brings is found by :func:`~dicekit.conformance.choice.conformance_of`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from cantstop.commands.games import (
    add_game_option,
    add_own_options,
    default_game,
    hooks,
    load_game,
    names,
    refuse_own_options,
    unnamed_record_game,
)
from cantstop.commands.report import UsageError

if TYPE_CHECKING:
    from cantstop.conformance.choice import GameConformance
    from dicekit.conformance.run import CaseResult, Run
    from dicekit.record import RecordError

__all__ = ["add_commands", "bundled_port"]


def bundled_port() -> list[str] | None:
    """Return the command that runs Can't Stop's bundled JavaScript port, or ``None`` without Node.

    The port is looked for beside the package in a checkout, then inside the
    package (where a wheel puts it).
    """
    return _chosen(default_game().info.name).bundled_port()


def _chosen(name: str) -> GameConformance:
    """Return what the commands need of the game called ``name``."""
    from cantstop.conformance.choice import conformance_of

    return conformance_of(load_game(name))


class _UsageError(Exception):
    """A bad option or an unusable file: one line on stderr, exit status 2."""


#: The longest ``--timeout``: a day.
MAX_TIMEOUT = 86_400


def _number(
    option: str, text: str, kind: type[int] | type[float], most: float | None = None
) -> float:
    """Return the number ``text`` given to ``option``: finite, above 0 and at most ``most``."""
    try:
        value = kind(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0 and (most is None or value <= most)):
        what = "a whole number above 0" if kind is int else "a number of seconds above 0"
        if most is not None:
            what += f" and at most {most:,}"
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise _UsageError(f"{option} takes {what}, not {shown!r}")
    return value


def _writable(path: Path, option: str) -> None:
    """Check, before the run, that the report of ``option`` can be written at ``path``."""
    if path.is_dir():
        raise _UsageError(f"{option} {path}: it is a directory")
    folder = path.parent
    if not folder.is_dir():
        raise _UsageError(f"{option} {path}: no such directory {folder}")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise _UsageError(f"{option} {path}: permission denied")


class _Progress:
    """Cases done, rate and time left on one line of a terminal, redrawn a few times a second."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.done = 0
        self.began = time.monotonic()
        self.drawn = 0.0
        self.width = 0

    def __call__(self, result: CaseResult) -> None:
        self.done += 1
        now = time.monotonic()
        if now - self.drawn >= 0.2 or self.done == self.total:
            self.drawn = now
            self.draw(now - self.began)

    def draw(self, elapsed: float) -> None:
        """Redraw the line for ``elapsed`` seconds since the start."""
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        text = f"{self.done:,}/{self.total:,} cases, {rate:,.0f}/s, {_clock(left)} left"
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = len(text)

    def close(self) -> None:
        """Erase the line."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def _clock(seconds: float) -> str:
    """Return ``seconds`` as ``m:ss`` or ``h:mm:ss``.

    >>> _clock(75), _clock(3725)
    ('1:15', '1:02:05')
    """
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _plural(n: int, one: str, many: str | None = None) -> str:
    """Return ``n`` and the words for one or for many: ``1 case``, ``2 cases``."""
    return f"{n:,} {one}" if n == 1 else f"{n:,} {many or one + 's'}"


def _conform(args: argparse.Namespace) -> int:
    try:
        return _run_conform(args)
    except (_UsageError, UsageError) as exc:
        print(f"cantstop conform: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cantstop conform: interrupted", file=sys.stderr)
        return 130


def _suite_words(chosen: GameConformance, version: int | None) -> str:
    """Name a suite version as the output does: ``suite v2`` (Can't Stop's), ``tower suite v1``."""
    game = chosen.suite.title
    words = f"suite v{version}" if version is not None else "suite"
    return f"{game} {words}" if game else words


def _regenerate(chosen: GameConformance, directory: Path | None) -> int:
    from dicekit.conformance.frozen import FrozenError
    from dicekit.conformance.pool import VectorError

    try:
        counts, written = chosen.regenerate(directory)
    except (FrozenError, VectorError) as exc:
        raise _UsageError(f"--regenerate: {exc}") from None
    if not counts:
        print(f"nothing written: the vectors are those of {written}, released and unchanged")
        return 0
    print(f"{sum(counts.values())} cases written to {written}")
    return 0


def _run_conform(args: argparse.Namespace) -> int:
    from dicekit.conformance import run as runs
    from dicekit.conformance.port import PortFailure

    chosen = _chosen(args.game)
    if args.regenerate:
        return _regenerate(chosen, args.vectors)
    timeout = _number("--timeout", args.timeout, float, MAX_TIMEOUT)
    limit = int(_number("--max-failures", args.max_failures, int))
    breaker = runs.MAX_PORT_FAILURES
    if args.max_port_failures is not None:
        breaker = int(_number("--max-port-failures", args.max_port_failures, int))
    if args.report is not None:
        _writable(args.report, "--report")
    if args.junit is not None:
        _writable(args.junit, "--junit")
    installed = chosen.versions()
    if not installed and args.vectors is None:
        raise _UsageError(
            f"{chosen.title} has no conformance vectors installed (no version folder in "
            f"{chosen.root}): give --vectors DIR, or write them with "
            f"cantstop conform --game {args.game} --regenerate"
        )
    version = None if args.suite_version is None else _version(args.suite_version, installed)
    if args.vectors is not None and version is not None:
        raise _UsageError("--vectors and --suite-version name two suites: give one")
    command = list(args.port)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        found = chosen.bundled_port()
        if found is None:
            raise _UsageError(
                "the bundled JavaScript port needs Node.js (`node` on the PATH); "
                "or give a port command: cantstop conform -- CMD ARGS..."
            )
        command = found
    known = _known(args)
    # The options are checked against the suite before the port starts: the chosen
    # version, else the newest, which runs unless the port names another in hello.
    tentative = version or (installed[-1] if installed else chosen.newest or 1)
    cases, everything = _cases(args, known, tentative, chosen)
    if args.vectors is not None:
        from dicekit.conformance.cases import files_version

        version = files_version(args.vectors)
    elif version is None:
        try:
            hello = runs.handshake(command, chosen.suite, timeout, tentative)
        except PortFailure as exc:
            print(f"cantstop conform: error: the port could not start: {exc}", file=sys.stderr)
            return 2
        version = _pinned(hello, installed) or tentative
        if version != tentative:
            cases, everything = _cases(args, known, version, chosen)
    print(
        f"Running {_plural(len(cases), 'case')} of {_suite_words(chosen, version)} against: "
        f"{' '.join(command)}"
        if version is not None or chosen.suite.title
        else f"Running {_plural(len(cases), 'case')} against: {' '.join(command)}",
        flush=True,
    )
    progress = _Progress(len(cases), sys.stderr) if sys.stderr.isatty() else None
    try:
        run = runs.run_suite(
            command,
            cases,
            chosen.suite,
            timeout=timeout,
            known=known,
            progress=progress,
            max_port_failures=breaker,
            version=version,
        )
    finally:
        if progress is not None:
            progress.close()
    if run.exit_status() == 1:
        run.diagnose(cases, timeout=timeout)  # asks the failing cases again
    if run.hello is not None:
        print(f"Port: {run.hello.get('name', '(unnamed)')}")
        pinned = run.hello.get("suite_version")
        if args.suite_version is not None and pinned not in (None, version):
            print(f"The port targets suite v{pinned}; v{version} ran, as --suite-version asks.")
    if run.results:
        from dicekit.conformance.cases import is_glob

        for glob in (e for e in known if is_glob(e)):
            note = _stale_glob(glob, everything, run)
            if note:
                print(note)
        for line in run.summary_lines(verbose=args.verbose, limit=limit):
            print(line)
    # The reports come after the summary, so a full disk cannot hide it; each is
    # written whole or not at all.
    from dicekit.conformance.report import junit_xml, write_text

    if args.report:
        try:
            write_text(args.report, json.dumps(run.report(), indent=1) + "\n")
        except OSError as exc:
            raise _UsageError(f"--report {args.report}: {exc.strerror or exc}") from None
    if args.junit:
        try:
            write_text(args.junit, junit_xml(run))
        except OSError as exc:
            raise _UsageError(f"--junit {args.junit}: {exc.strerror or exc}") from None
    status = run.exit_status()
    if run.stopped is not None:
        print(f"cantstop conform: error: {run.stopped}", file=sys.stderr)
    elif status == 2:
        print(
            f"cantstop conform: error: no case ran: the port supports none of the "
            f"{_plural(len(cases), 'selected case')}",
            file=sys.stderr,
        )
    elif status == 1:
        words = _suite_words(chosen, version)
        suffix = f" ({words})" if version is not None or chosen.suite.title else ""
        print(
            f"cantstop conform: error: {run.count('failed'):,} of {run.ran:,} cases failed{suffix}",
            file=sys.stderr,
        )
    return status


def _version(text: str, installed: list[int]) -> int:
    """Return the suite version ``--suite-version`` names; it must be installed."""
    number = int(_number("--suite-version", text, int))
    if number not in installed:
        raise _UsageError(
            f"--suite-version {number}: this installation has suite {_versions(installed)}"
        )
    return number


def _versions(installed: list[int]) -> str:
    return ", ".join(f"v{v}" for v in installed) or "no version"


def _pinned(hello: dict[str, Any], installed: list[int]) -> int | None:
    """Return the suite version a port's ``hello`` names, or ``None`` when it names none."""
    pinned = hello.get("suite_version")
    if pinned is None:
        return None
    if type(pinned) is not int:
        shown = json.dumps(pinned)[:40]
        raise _UsageError(f"the port's hello names suite_version {shown}, not a version number")
    if pinned not in installed:
        raise _UsageError(
            f"the port targets suite v{pinned}, which this installation lacks "
            f"(it has {_versions(installed)}): install the cantstop release that has it, "
            "or run another version with --suite-version"
        )
    return pinned


def _known(args: argparse.Namespace) -> list[str]:
    from dicekit.conformance.cases import HarnessError, read_known_failures

    if not args.known_failures:
        return []
    try:
        return read_known_failures(args.known_failures)
    except HarnessError as exc:
        raise _UsageError(str(exc)) from None


def _cases(
    args: argparse.Namespace, known: list[str], version: int, chosen: GameConformance
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the selected cases and all the cases of the suite; check the entries against them."""
    from dicekit.conformance.cases import HarnessError, select, unmatched_entries

    directory = args.vectors or chosen.vectors_dir(version)
    try:
        everything = chosen.load(directory)
    except HarnessError as exc:
        raise _UsageError(str(exc)) from None
    unmatched = unmatched_entries(known, everything)
    if unmatched:
        shown = ", ".join(repr(e) for e in unmatched[:5])
        more = f" and {len(unmatched) - 5} more" if len(unmatched) > 5 else ""
        raise _UsageError(
            f"{args.known_failures}: {_plural(len(unmatched), 'entry matches', 'entries match')} "
            f"no case of the suite: {shown}{more}"
        )
    cases = select(everything, args.run_globs, args.skip_globs)
    if not cases:
        given = " ".join(f"--run {g!r}" for g in args.run_globs)
        given += "".join(f" --skip {g!r}" for g in args.skip_globs)
        raise _UsageError(f"no case selected: {given.strip()} leaves none of {len(everything):,}")
    return cases, everything


def _stale_glob(glob: str, everything: list[dict[str, Any]], run: Run) -> str | None:
    """Say so when every case a known-failures glob matches ran and passed."""
    import fnmatch

    matching = {c["id"] for c in everything if fnmatch.fnmatchcase(c["id"], glob)}
    ran = [r for r in run.results if r.id in matching]
    if len(ran) == len(matching) and all(r.status == "passed" for r in ran):
        return f"Known failures: {glob!r} matches {_plural(len(ran), 'case')}, and none failed"
    return None


def _serve(args: argparse.Namespace) -> int:
    from dicekit.conformance.serve import serve

    if sys.stdout is None:
        return _error("serve", "standard output is closed")
    try:
        game = load_game(args.game)
        refuse_own_options(args, game, "{option} seeds bugs in {owner}'s rules, not in {name}'s")
    except UsageError as exc:
        return _error("serve", str(exc))
    try:
        own = hooks(game).run("serve", args)  # a port of the game's own, seeded bugs say
        if own is not None:
            return own
        return serve(_chosen(args.game).answer, program="cantstop serve")
    except OSError as exc:  # the reader of the answers went away
        return _error("serve", f"cannot write the answers: {exc.strerror or exc}")


def _error(command: str, message: str) -> int:
    """Print ``cantstop COMMAND: error: MESSAGE`` on standard error, if it is open; return 2."""
    if sys.stderr is not None:
        print(f"cantstop {command}: error: {message}", file=sys.stderr)
    return 2


def _verify(args: argparse.Namespace) -> int:
    path = args.record
    if sys.stdout is None:
        return _error("verify", "standard output is closed")
    if str(path) == "-":
        problem = "- (stdin) is not read: give the record as a file"
    elif path.is_dir():
        problem = f"{str(path)!r} is a folder, not a record file"
    elif path.exists() and not path.is_file():
        problem = f"{str(path)!r} is not a regular file ({_kind_of(path)})"
    elif not path.is_file():
        problem = f"no such file: {str(path)!r}"
    else:
        return _verify_file(path, args.game)
    return _error("verify", problem)


def _verify_file(path: Path, option: str | None) -> int:
    """Verify the record at ``path`` as the game its header names; ``--game`` must agree."""
    from dicekit import record

    try:
        with path.open("rb") as file:
            readable, named = record.read_header(file)
    except record.RecordError as exc:
        return _invalid(path, exc)
    # A header that cannot be read is the record's fault, found by the reader of --game's game.
    unnamed = unnamed_record_game().info
    game = named or (option if option is not None and not readable else unnamed.name)
    if option is not None and option != game:
        header = (
            f"names the game {game!r}" if named else f"names no game (a {unnamed.title} record)"
        )
        return _error("verify", f"--game {option}, but the header of {path.name} {header}")
    if game not in names():
        known = ", ".join(names())
        problem = f"the header names the game {game!r}; the games are {known}"
        return _invalid(path, record.RecordError(1, problem))
    if named is None:
        from cantstop.conformance.verify import verify_record

        return verify_record(path, err=sys.stderr)
    return record.verify_record(load_game(game), path, err=sys.stderr, program="cantstop verify")


def _invalid(path: Path, exc: RecordError) -> int:
    """Report a record that cannot be verified (status 1): on stdout, and one line on stderr."""
    from dicekit.record import report_error

    return report_error(path.name, exc, sys.stdout, sys.stderr, "cantstop verify")


def _kind_of(path: Path) -> str:
    """Return what a path that is not a regular file is: ``a character device``, ``a pipe``."""
    if path.is_char_device():
        return "a character device"
    if path.is_block_device():
        return "a block device"
    if path.is_fifo():
        return "a pipe"
    if path.is_socket():
        return "a socket"
    return "not a file"


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``conform``, ``serve`` and ``verify`` to the ``cantstop`` command line."""
    conform = sub.add_parser(
        "conform",
        help="run the conformance suite against a port (default: the bundled JavaScript port)",
        description="Run the conformance vectors against a port that speaks spec/protocol.md. "
        "Without a command, the bundled JavaScript port runs (it needs Node.js). "
        "The last line of the output is 'N passed, N failed'.",
        epilog="exit status: 0 when at least one case ran and none failed; 1 when a case "
        "failed (a case listed as a known failure by its id fails if it passes); 2 for a "
        "usage or harness error: no case selected, vectors or known-failures file unreadable, "
        "a known-failures entry that matches no case, a report path that cannot be written "
        "(checked before the run), a port that cannot start or fails the handshake, "
        "N cases in a row ending in a port failure (--max-port-failures), or no case run "
        "because the port supports none. Example: cantstop conform --run 'spec-*' "
        "--report conformance.json -- ./my-port",
    )
    conform.add_argument(
        "port", nargs=argparse.REMAINDER, help="-- then the port's command and arguments"
    )
    for option, text in (("run", "run only matching case ids"), ("skip", "skip matching case ids")):
        conform.add_argument(
            f"--{option}",
            action="append",
            default=[],
            dest=f"{option}_globs",
            metavar="GLOB",
            help=text,
        )
    conform.add_argument(
        "--known-failures",
        type=Path,
        metavar="FILE",
        help="case ids or globs expected to fail, one a line (# starts a comment); a case "
        "listed by id must fail, a case a glob matches may; an entry matching no case is an "
        "error",
    )
    conform.add_argument(
        "--report", type=Path, metavar="FILE", help="write a JSON report (checked before the run)"
    )
    conform.add_argument(
        "--junit",
        type=Path,
        metavar="FILE",
        help="write a JUnit XML report for CI (one testcase per case; checked before the run)",
    )
    conform.add_argument(
        "--timeout",
        default="10",
        metavar="SECONDS",
        help="time allowed for each case (default: 10)",
    )
    conform.add_argument(
        "--vectors",
        type=Path,
        metavar="DIR",
        help="directory of vector files (default: the suite version the port names in hello, "
        "else the newest)",
    )
    conform.add_argument(
        "--suite-version",
        metavar="N",
        help="run version N of the suite (spec/conformance/vN), whatever the port names",
    )
    conform.add_argument(
        "--max-failures",
        default="50",
        metavar="N",
        help="failures to describe (default: 50)",
    )
    conform.add_argument(
        "--max-port-failures",
        metavar="N",
        help="stop the run (exit status 2) when N cases in a row end in a port failure: "
        "a crash, a hang, a line that is not an answer (default: 5)",
    )
    conform.add_argument(
        "--verbose", action="store_true", help="also list skipped cases and known failures"
    )
    add_game_option(conform)
    conform.add_argument(
        "--regenerate", action="store_true", help="rewrite the vectors from the spec and engine"
    )
    conform.set_defaults(run=_conform)
    serve = sub.add_parser(
        "serve", help="answer the conformance protocol on stdin/stdout (the reference port)"
    )
    add_own_options("serve", serve)
    add_game_option(serve)
    serve.set_defaults(run=_serve)
    verify = sub.add_parser("verify", help="check a game record (JSON lines)")
    verify.add_argument(
        "record", type=Path, metavar="GAME.jsonl", help="a game record (spec/record.md)"
    )
    verify.add_argument(
        "--game",
        choices=names(),
        metavar="NAME",
        help=f"the game of the record: {', '.join(names())}; it must agree with the record's "
        "header (default: the game the header names, Can't Stop when it names none)",
    )
    verify.set_defaults(run=_verify)
