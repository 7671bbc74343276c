"""The ``spec`` command: count the spec's rules and examples, and run the examples.

``cantstop spec --check`` prints each failing example on stdout, then the
counts, and when an example fails ends with the error line of the
convention on stderr and exit status 1.
"""

from __future__ import annotations

import argparse

from cantstop.commands.report import ExitStatus, report_error
from cantstop.spec import iter_failures, load_spec

__all__ = ["add_commands"]


def _spec(args: argparse.Namespace) -> int:
    spec = load_spec()
    rules = [r for r in spec.rules.values() if not r.is_chapter]
    chapters = len(spec.rules) - len(rules)
    print(f"{len(rules)} rules in {chapters} chapters, {len(spec.examples)} examples")
    if not args.check:
        return ExitStatus.SUCCESS
    failures = list(iter_failures(spec))
    for _, message in failures:
        print(message)
    print(f"{len(spec.examples) - len(failures)} passed, {len(failures)} failed")
    if not failures:
        return ExitStatus.SUCCESS
    first = failures[0][1].splitlines()[0] if failures[0][1] else ""
    noun = "example fails" if len(failures) == 1 else "examples fail"
    return report_error("spec", f"{len(failures)} {noun} against the engine; the first: {first}")


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``spec``."""
    spec = sub.add_parser("spec", help="count the spec's rules and examples")
    spec.add_argument(
        "--check", action="store_true", help="also run every example against the engine"
    )
    spec.set_defaults(run=_spec)
