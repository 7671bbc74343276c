"""The ``conform``, ``serve`` and ``verify`` subcommands of ``cantstop``."""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from cantstop.conformance import harness

__all__ = ["add_commands", "bundled_port"]


def bundled_port() -> list[str] | None:
    """Return the command that runs the bundled JavaScript port, or ``None`` without Node.

    The port is looked for beside the package in a checkout, then inside the
    package (where a wheel puts it).
    """
    node = shutil.which("node")
    here = Path(__file__).resolve().parent.parent
    for candidate in (
        here.parent / "examples" / "ports" / "javascript" / "port.js",
        here / "_ports" / "javascript" / "port.js",
    ):
        if candidate.is_file():
            return None if node is None else [node, str(candidate)]
    raise FileNotFoundError("the bundled JavaScript port (examples/ports/javascript) is missing")


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

    def __call__(self, result: harness.CaseResult) -> None:
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
    except _UsageError as exc:
        print(f"cantstop conform: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cantstop conform: interrupted", file=sys.stderr)
        return 130


def _run_conform(args: argparse.Namespace) -> int:
    from cantstop.conformance import generate, harness

    if args.regenerate:
        counts = generate.write(args.vectors)
        print(f"{sum(counts.values())} cases written to {args.vectors or generate.vectors_dir()}")
        return 0
    timeout = _number("--timeout", args.timeout, float, MAX_TIMEOUT)
    limit = int(_number("--max-failures", args.max_failures, int))
    breaker = harness.MAX_PORT_FAILURES
    if args.max_port_failures is not None:
        breaker = int(_number("--max-port-failures", args.max_port_failures, int))
    if args.report is not None:
        _writable(args.report, "--report")
    if args.junit is not None:
        _writable(args.junit, "--junit")
    installed = generate.versions()
    version = None if args.suite_version is None else _version(args.suite_version, installed)
    if args.vectors is not None and version is not None:
        raise _UsageError("--vectors and --suite-version name two suites: give one")
    command = list(args.port)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        found = bundled_port()
        if found is None:
            raise _UsageError(
                "the bundled JavaScript port needs Node.js (`node` on the PATH); "
                "or give a port command: cantstop conform -- CMD ARGS..."
            )
        command = found
    known = _known(args)
    # The options are checked against the suite before the port starts: the chosen
    # version, else the newest, which runs unless the port names another in hello.
    tentative = version or (installed[-1] if installed else generate.SUITE_VERSION)
    cases, everything = _cases(args, known, tentative)
    if args.vectors is not None:
        version = harness.files_version(args.vectors)
    elif version is None:
        try:
            hello = harness.handshake(command, timeout)
        except harness.PortFailure as exc:
            print(f"cantstop conform: error: the port could not start: {exc}", file=sys.stderr)
            return 2
        version = _pinned(hello, installed) or tentative
        if version != tentative:
            cases, everything = _cases(args, known, version)
    print(
        f"Running {_plural(len(cases), 'case')} of suite v{version} against: {' '.join(command)}"
        if version is not None
        else f"Running {_plural(len(cases), 'case')} against: {' '.join(command)}",
        flush=True,
    )
    progress = _Progress(len(cases), sys.stderr) if sys.stderr.isatty() else None
    try:
        run = harness.run_suite(
            command,
            cases,
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
        for glob in (e for e in known if harness.is_glob(e)):
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
        suffix = f" (suite v{version})" if version is not None else ""
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
    from cantstop.conformance import harness

    if not args.known_failures:
        return []
    try:
        return harness.read_known_failures(args.known_failures)
    except harness.HarnessError as exc:
        raise _UsageError(str(exc)) from None


def _cases(
    args: argparse.Namespace, known: list[str], version: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the selected cases and all the cases of the suite; check the entries against them."""
    from cantstop.conformance import generate, harness

    directory = args.vectors or generate.vectors_dir(version)
    try:
        everything = harness.load_cases(directory)
    except harness.HarnessError as exc:
        raise _UsageError(str(exc)) from None
    unmatched = harness.unmatched_entries(known, everything)
    if unmatched:
        shown = ", ".join(repr(e) for e in unmatched[:5])
        more = f" and {len(unmatched) - 5} more" if len(unmatched) > 5 else ""
        raise _UsageError(
            f"{args.known_failures}: {_plural(len(unmatched), 'entry matches', 'entries match')} "
            f"no case of the suite: {shown}{more}"
        )
    cases = harness.select(everything, args.run_globs, args.skip_globs)
    if not cases:
        chosen = " ".join(f"--run {g!r}" for g in args.run_globs)
        chosen += "".join(f" --skip {g!r}" for g in args.skip_globs)
        raise _UsageError(f"no case selected: {chosen.strip()} leaves none of {len(everything):,}")
    return cases, everything


def _stale_glob(glob: str, everything: list[dict[str, Any]], run: harness.Run) -> str | None:
    """Say so when every case a known-failures glob matches ran and passed."""
    import fnmatch

    matching = {c["id"] for c in everything if fnmatch.fnmatchcase(c["id"], glob)}
    ran = [r for r in run.results if r.id in matching]
    if len(ran) == len(matching) and all(r.status == "passed" for r in ran):
        return f"Known failures: {glob!r} matches {_plural(len(ran), 'case')}, and none failed"
    return None


def _serve(args: argparse.Namespace) -> int:
    from cantstop.conformance.serve import serve

    if sys.stdout is None:
        return _error("serve", "standard output is closed")
    try:
        if args.mutant is not None:
            from cantstop.conformance.mutants import MutantPort

            return serve(answer=MutantPort(args.mutant).handle)
        return serve()
    except OSError as exc:  # the reader of the answers went away
        return _error("serve", f"cannot write the answers: {exc.strerror or exc}")


def _error(command: str, message: str) -> int:
    """Print ``cantstop COMMAND: error: MESSAGE`` on standard error, if it is open; return 2."""
    if sys.stderr is not None:
        print(f"cantstop {command}: error: {message}", file=sys.stderr)
    return 2


def _verify(args: argparse.Namespace) -> int:
    from cantstop.conformance.verify import verify_record

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
        return verify_record(path, err=sys.stderr)
    return _error("verify", problem)


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


def _mutant_names() -> list[str]:
    from cantstop.conformance.mutants import MUTANTS

    return list(MUTANTS)


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
    conform.add_argument(
        "--run",
        action="append",
        default=[],
        dest="run_globs",
        metavar="GLOB",
        help="run only matching case ids",
    )
    conform.add_argument(
        "--skip",
        action="append",
        default=[],
        dest="skip_globs",
        metavar="GLOB",
        help="skip matching case ids",
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
    conform.add_argument(
        "--regenerate", action="store_true", help="rewrite the vectors from the spec and engine"
    )
    conform.set_defaults(run=_conform)
    serve = sub.add_parser(
        "serve", help="answer the conformance protocol on stdin/stdout (the reference port)"
    )
    serve.add_argument(
        "--mutant",
        metavar="NAME",
        choices=_mutant_names(),
        help="answer with one seeded rule bug (cantstop.conformance.mutants), for studying "
        "the suite's diagnosis; NAME is one of: " + ", ".join(_mutant_names()),
    )
    serve.set_defaults(run=_serve)
    verify = sub.add_parser("verify", help="check a game record (JSON lines)")
    verify.add_argument(
        "record", type=Path, metavar="GAME.jsonl", help="a game record (spec/record.md)"
    )
    verify.set_defaults(run=_verify)
