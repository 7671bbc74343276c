"""The game-neutral machinery of the proofs: solver, results file, bookkeeping, runner and report.

Nothing here knows a game: a game's proofs (for Can't Stop, the modules of
:mod:`proofs` around it) write their rules as formulas over
:mod:`proofs.kit.solver`'s backends and hand their checks to a
:class:`~proofs.kit.runner.Suite`.

- :mod:`proofs.kit.solver`: the z3 and Python backends, the solver (the only module importing z3);
- :mod:`proofs.kit.results`: a check, the groups and their expected results, the results file;
- :mod:`proofs.kit.verdicts`: proofs, non-vacuity witnesses, caught mutants, agreement;
- :mod:`proofs.kit.runner`: the suite's stages, the table and the ``python -m proofs`` command.
"""
