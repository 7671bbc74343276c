"""The command lines of the conformance suite's two maintainer tools.

``python -m cantstop.conformance.generate`` (:func:`generate_main`) writes the
vectors with :mod:`cantstop.conformance.generate`, and ``python -m
cantstop.conformance.study`` (:func:`study_main`) runs the seeded-bug study
of :mod:`cantstop.study`.  The options are read here; the work is
done by those modules.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from cantstop import study
from cantstop.conformance import generate
from cantstop.conformance.mutants import MUTANTS

__all__ = ["generate_main", "study_main"]


def generate_main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the vectors; print the number of cases per file."""
    parser = argparse.ArgumentParser(prog="python -m cantstop.conformance.generate")
    parser.add_argument("--out", type=Path, help="directory to write (default: the spec's)")
    args = parser.parse_args(argv)
    if args.out is None:
        counts, folder = generate.write_next_version()
    else:
        counts, folder = generate.write(args.out), args.out
    if not counts:
        print(f"nothing written: the vectors are those of {folder}, released")
        return 0
    for name, count in counts.items():
        print(f"{name}: {count} cases")
    print(f"{sum(counts.values())} cases in total")
    return 0


def study_main(argv: Sequence[str] | None = None) -> int:
    """Run the study, print its table and optionally write the results file.

    With ``--held-out`` first, run the held-out study
    (:data:`cantstop.study.HELD_OUT`).  Exit status 0 when the
    targets are met, 1 when not.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--held-out"]:
        return study.HELD_OUT.main(argv[1:])
    parser = argparse.ArgumentParser(
        prog="python -m cantstop.conformance.study",
        description="Run the conformance suite against every seeded bug and rank the rule "
        "at fault.",
    )
    parser.add_argument("--subset", choices=("all", "fast"), default="all")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the results file")
    parser.add_argument("--jobs", type=int, default=2, metavar="N", help="ports run at a time")
    parser.add_argument(
        "--mutant", action="append", choices=list(MUTANTS), metavar="NAME", help="only these"
    )
    args = parser.parse_args(argv)
    return study.run(args.subset, args.mutant or list(MUTANTS), args.jobs, args.json)
