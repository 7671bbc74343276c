"""``python -m tower.proofs``: run every check, print the table, exit 1 on any failure.

Options: ``--json PATH`` writes the results file (``tower/proofs/results.json``);
``-v`` prints every detail (counterexamples, witnesses); ``--group NAME``
(repeatable) runs only some groups; ``--full`` compares the engine and the
model on every reachable state of the small board instead of the states
nearest the opening (about 146,000 states; minutes, for a nightly run).
A usage error exits 2.  The command is the layer's
(:func:`dicekit.proofs.command.main`), run on :data:`tower.proofs.suite.SUITE`.
"""

import sys

from dicekit.proofs.command import main

if __name__ == "__main__":
    sys.exit(
        main(
            "tower.proofs",
            group_help="run one group (repeatable)",
            verbose_help="print every detail",
        )
    )
