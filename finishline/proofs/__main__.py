"""``python -m finishline.proofs``: run every check, print the table, exit 1 on any failure.

Options: ``--json PATH`` writes the results file
(``finishline/proofs/results.json``); ``-v`` prints every detail
(counterexamples, witnesses, counts); ``--group NAME`` (repeatable) runs only
some groups; ``--full`` links engine and model on every reachable state of
two players with one counter each and on more random games (minutes, for a
nightly run) instead of the default's states nearest the opening and one
random game per configuration.  The command is the layer's
(:func:`dicekit.proofs.command.main`), run on
:data:`finishline.proofs.suite.SUITE`.
"""

import sys

from dicekit.proofs.command import main

if __name__ == "__main__":
    sys.exit(
        main(
            "finishline.proofs", group_help="run only this group", verbose_help="print every detail"
        )
    )
