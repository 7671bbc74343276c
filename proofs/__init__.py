"""Z3 proofs of the Can't Stop rules, tied to the engine in :mod:`cantstop`.

- :mod:`proofs.model`: the rules as formulas (the only module that imports z3);
- :mod:`proofs.properties`: what is proven, with the spec rules each covers;
- :mod:`proofs.checks`: the inductive proofs and their non-vacuity witnesses;
- :mod:`proofs.mutations`: broken models the proofs must catch;
- :mod:`proofs.bmc`: bounded model checking from the opening state;
- :mod:`proofs.link`: the model and the engine agree;
- :mod:`proofs.render`: model states in the project's notation;
- :mod:`proofs.suite` and ``python -m proofs``: run everything.
"""
