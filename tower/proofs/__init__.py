"""The z3 proofs of Off to the Tower: invariants on every board, mutants, the link to the engine.

``python -m tower.proofs`` runs them; ``tower/proofs/README.md`` says what is
proven and how.  z3 comes with the ``proofs`` extra and is imported by the
layer's :mod:`dicekit.proofs.solver` only, as are the induction, witness and
mutant bookkeeping, the runner and the command; the engine never imports
this package.
"""
