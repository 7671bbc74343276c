"""The game-neutral machinery of every game's z3 proofs: solver, checks, verdicts, runner.

A game's proofs (``proofs/`` for Can't Stop, ``GAME/proofs/`` for the
others) write their rules as formulas over :mod:`dicekit.proofs.solver`'s
backends, state their properties and mutants with the classes here, and
hand their checks to a :class:`~dicekit.proofs.runner.Suite`, which
``python -m GAME.proofs`` runs (:func:`dicekit.proofs.command.main`).

- :mod:`dicekit.proofs.solver`: the z3 and Python backends and the solver (it alone imports z3);
- :mod:`dicekit.proofs.results`: a check, the groups and their expected results, the file;
- :mod:`dicekit.proofs.verdicts`: proofs, non-vacuity witnesses, caught mutants, agreement;
- :mod:`dicekit.proofs.properties`: invariants, step properties and mutants, as data;
- :mod:`dicekit.proofs.induction`: the induction checks, their witnesses and the mutants, run;
- :mod:`dicekit.proofs.runner`: a suite's stages, its table and its results file;
- :mod:`dicekit.proofs.command`: the command ``python -m GAME.proofs``.

z3 comes with the ``proofs`` extra.  Without it this package and
:mod:`dicekit.proofs.command` still import; every module built on the
solver raises :class:`ModuleNotFoundError` saying which extra to install,
and the command says so in one line and exits 2.  Nothing here knows a
game.
"""
