"""The z3 proofs of Off to the Tower: invariants on every board, mutants, the link to the engine.

``python -m tower.proofs`` runs them; ``tower/proofs/README.md`` says what is
proven and how.  z3 comes with the ``proofs`` extra and is imported by
:mod:`tower.proofs.model` only; the engine never imports this package.
"""
