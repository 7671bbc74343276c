"""Z3 proofs of the Can't Stop rules, tied to the engine in :mod:`cantstop`.

The game-neutral machinery is the layer's :mod:`dicekit.proofs` (the solver
and its backends, the results file, the induction, non-vacuity and mutant
bookkeeping, the runner and the command); the rest is Can't Stop's:

- :mod:`proofs.state`: the model's configuration and state;
- :mod:`proofs.model`: the rules as formulas;
- :mod:`proofs.properties`: what is proven, with the spec rules each covers;
- :mod:`proofs.checks`: the inductive proofs and their non-vacuity witnesses;
- :mod:`proofs.mutations`: broken models the proofs must catch;
- :mod:`proofs.bmc`: bounded model checking from the opening state;
- :mod:`proofs.link` and :mod:`proofs.situations`: the model and the engine agree;
- :mod:`proofs.render`: model states in the project's notation;
- :mod:`proofs.suite` and ``python -m proofs``: the suite, run.
"""
