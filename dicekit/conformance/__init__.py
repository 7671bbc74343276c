"""The game-neutral parts of the conformance suite, which any game's suite runs on.

These modules import nothing of Can't Stop: a game hands its suite in as a
:class:`~dicekit.conformance.suite.GameSuite` (its case kinds and their
checks, what a port's ``hello`` may declare, how a failing case is asked
again).  They are written to move unchanged into the game-neutral layer
(``dicekit``):

- :mod:`~dicekit.conformance.lines`: one protocol line, read defensively;
- :mod:`~dicekit.conformance.compare`: JSON comparison and text safe to show;
- :mod:`~dicekit.conformance.port`: the port process and its requests;
- :mod:`~dicekit.conformance.cases`: vector files, known failures, selection;
- :mod:`~dicekit.conformance.run`: the run loop and its results;
- :mod:`~dicekit.conformance.ranking`: the suspect rules of a run;
- :mod:`~dicekit.conformance.report`: the JUnit XML report, written safely;
- :mod:`~dicekit.conformance.suite`: the interface a game's suite provides;
- :mod:`~dicekit.conformance.vectorfiles`: writing vector files.
"""
