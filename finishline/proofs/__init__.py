"""Z3 proofs of the finish-line race's invariants, tied to the engine in :mod:`finishline`.

The solver, its backends (the only module that imports z3), the induction,
witness and mutant bookkeeping, the runner and the command are the layer's
(:mod:`dicekit.proofs`); the rest is the finish-line race's:

- :mod:`finishline.proofs.model`: the rules as formulas;
- :mod:`finishline.proofs.properties`: what is proven, with the spec rules each covers;
- :mod:`finishline.proofs.checks`: the inductive proofs and their non-vacuity witnesses;
- :mod:`finishline.proofs.mutations`: broken models the proofs must catch;
- :mod:`finishline.proofs.link`: the model and the engine agree;
- :mod:`finishline.proofs.render`: model states in the game's notation;
- :mod:`finishline.proofs.suite` and ``python -m finishline.proofs``: run everything.
"""
