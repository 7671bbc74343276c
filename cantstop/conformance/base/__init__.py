"""The game-neutral parts of the conformance suite, which any game's suite runs on.

These modules import nothing of Can't Stop: a game hands its suite in as a
:class:`~cantstop.conformance.base.suite.GameSuite` (its case kinds and their
checks, what a port's ``hello`` may declare, how a failing case is asked
again).  They are written to move unchanged into the game-neutral layer
(``dicekit``):

- :mod:`~cantstop.conformance.base.lines`: one protocol line, read defensively;
- :mod:`~cantstop.conformance.base.compare`: JSON comparison and text safe to show;
- :mod:`~cantstop.conformance.base.port`: the port process and its requests;
- :mod:`~cantstop.conformance.base.cases`: vector files, known failures, selection;
- :mod:`~cantstop.conformance.base.run`: the run loop and its results;
- :mod:`~cantstop.conformance.base.ranking`: the suspect rules of a run;
- :mod:`~cantstop.conformance.base.report`: the JUnit XML report, written safely;
- :mod:`~cantstop.conformance.base.suite`: the interface a game's suite provides;
- :mod:`~cantstop.conformance.base.vectorfiles`: writing vector files.
"""
