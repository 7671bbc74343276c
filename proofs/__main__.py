"""``python -m proofs``: run every check, print the table, exit non-zero on any failure.

Options: ``--json PATH`` writes the results file (``proofs/results.json``);
``-v`` prints every detail (counterexamples, witnesses, traces);
``--group NAME`` (repeatable) runs only some groups.  The command is the
layer's (:func:`dicekit.proofs.command.main`), run on :data:`proofs.suite.SUITE`.
"""

import sys

from dicekit.proofs.command import main

if __name__ == "__main__":
    sys.exit(main("proofs", verbose_help="print every counterexample and witness"))
