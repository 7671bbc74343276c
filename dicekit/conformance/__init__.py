"""The conformance method of the layer: vectors, the port protocol, the harness and the diagnosis.

Nothing here imports a game.  A game hands the harness its suite as a
:class:`~dicekit.conformance.suite.GameSuite` (its case kinds and their
checks, what a port's ``hello`` may declare, how a failing case is asked
again); a game that provides :class:`dicekit.protocol.Tagging` gets the
generic suite, :class:`~dicekit.conformance.gamesuite.GameVectorsSuite`, and
its vectors in one call, :func:`~dicekit.conformance.vectors.write_vectors`.

The protocol and the harness:

- :mod:`~dicekit.conformance.lines`: one protocol line, read defensively;
- :mod:`~dicekit.conformance.compare`: JSON comparison and text safe to show;
- :mod:`~dicekit.conformance.port`: the port process, its handshake and requests;
- :mod:`~dicekit.conformance.serve`: the reference port of any game;
- :mod:`~dicekit.conformance.cases`: vector files, known failures, selection;
- :mod:`~dicekit.conformance.run`: the run loop and its results;
- :mod:`~dicekit.conformance.ranking`: the suspect rules of a run;
- :mod:`~dicekit.conformance.report`: the JUnit XML report, written safely;
- :mod:`~dicekit.conformance.suite`: the interface a game's suite provides;
- :mod:`~dicekit.conformance.study`: the seeded-bug study of a game's port.

The vectors:

- :mod:`~dicekit.conformance.pool`: the seeded games and states cases are drawn from;
- :mod:`~dicekit.conformance.families`: the generic families of play;
- :mod:`~dicekit.conformance.textfamilies`: the generic families of notation;
- :mod:`~dicekit.conformance.checks`: the checks of the generic kinds;
- :mod:`~dicekit.conformance.gamesuite`: the generic suite, and its evidence from rule tags;
- :mod:`~dicekit.conformance.vectors`: a game's vectors in one call;
- :mod:`~dicekit.conformance.schema`: the JSON Schema of vector files;
- :mod:`~dicekit.conformance.vectorfiles`: writing vector files byte for byte;
- :mod:`~dicekit.conformance.frozen`: the frozen-hash list of released versions.
"""
