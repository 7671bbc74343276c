"""The ``conform``, ``serve`` and ``verify`` subcommands of ``cantstop``."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

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


def _conform(args: argparse.Namespace) -> int:
    from cantstop.conformance import generate, harness

    if args.regenerate:
        counts = generate.write(args.vectors)
        print(f"{sum(counts.values())} cases written to {args.vectors or generate.vectors_dir()}")
        return 0
    command = list(args.port)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        found = bundled_port()
        if found is None:
            print(
                "cantstop conform: the bundled JavaScript port needs Node.js (`node` on the "
                "PATH); or give a port command: cantstop conform -- CMD ARGS...",
                file=sys.stderr,
            )
            return 2
        command = found
    directory = args.vectors or generate.vectors_dir()
    cases = harness.select(harness.load_cases(directory), args.run_globs, args.skip_globs)
    known = harness.read_known_failures(args.known_failures) if args.known_failures else []
    print(f"Running {len(cases)} cases against: {' '.join(command)}", flush=True)
    done = [0]

    def progress(result: harness.CaseResult) -> None:
        done[0] += 1
        if done[0] % 250 == 0 or done[0] == len(cases):
            print(f"\r{done[0]}/{len(cases)} cases", end="", file=sys.stderr, flush=True)
            if done[0] == len(cases):
                print(file=sys.stderr)

    interactive = sys.stderr.isatty()
    run = harness.run_suite(
        command,
        cases,
        timeout=args.timeout,
        known=known,
        progress=progress if interactive else None,
    )
    if not run.ok:
        run.diagnose(cases, timeout=args.timeout)  # asks the failing cases again
    if run.hello is not None:
        print(f"Port: {run.hello.get('name', '(unnamed)')}")
    if args.report:
        args.report.write_text(json.dumps(run.report(), indent=1) + "\n", encoding="utf-8")
    for line in run.summary_lines(verbose=args.verbose, limit=args.max_failures):
        print(line)
    return 0 if run.ok else 1


def _serve(args: argparse.Namespace) -> int:
    from cantstop.conformance.serve import serve

    if args.mutant is not None:
        from cantstop.conformance.mutants import MutantPort

        return serve(answer=MutantPort(args.mutant).handle)
    return serve()


def _verify(args: argparse.Namespace) -> int:
    from cantstop.conformance.verify import verify_record

    if not args.record.is_file():
        print(f"cantstop verify: no such file: {args.record}", file=sys.stderr)
        return 2
    return verify_record(args.record)


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
        help="case ids (or globs) expected to fail, one a line; a listed case that passes fails",
    )
    conform.add_argument("--report", type=Path, metavar="FILE", help="write a JSON report")
    conform.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time allowed for each case (default: 10)",
    )
    conform.add_argument(
        "--vectors", type=Path, metavar="DIR", help="directory of vector files (default: v1)"
    )
    conform.add_argument(
        "--max-failures",
        type=int,
        default=50,
        metavar="N",
        help="failures to describe (default: 50)",
    )
    conform.add_argument("--verbose", action="store_true", help="also list skipped cases")
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
