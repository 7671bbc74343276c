"""``python -m proofs``: run every check, print the table, exit non-zero on any failure.

Options: ``--json PATH`` writes the results file (``proofs/results.json``);
``-v`` prints every detail (counterexamples, witnesses, traces);
``--group NAME`` (repeatable) runs only some groups.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from proofs.kit.runner import command
from proofs.suite import SUITE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the checks; return 0 if every result is the expected one, else 1."""
    return command(SUITE, argv)


if __name__ == "__main__":
    sys.exit(main())
