"""The conformance suite for ports: vectors, the port protocol, the harness and the verifier.

The game-neutral parts live in :mod:`dicekit.conformance` (the port
process, the run loop, the JSON comparison, the ranking of suspect rules,
vector files); they import no Can't Stop code and take the game's suite as
a value.  Can't Stop's own parts:

- :mod:`cantstop.conformance.generate` writes the vectors under ``spec/conformance/``,
  drawing the cases of :mod:`~cantstop.conformance.playcases`,
  :mod:`~cantstop.conformance.textcases` and :mod:`~cantstop.conformance.explaincases`
  from the state pool of :mod:`~cantstop.conformance.pool`;
- :mod:`cantstop.conformance.serve` is the reference engine speaking the protocol
  of ``spec/protocol.md``;
- :mod:`cantstop.conformance.harness` runs the vectors against a port, with the
  checks of :mod:`~cantstop.conformance.checks` and the suite of
  :mod:`~cantstop.conformance.suite`;
- :mod:`cantstop.tags` names the rules that decide each answer (the
  vectors' rule tags), and :mod:`cantstop.conformance.diagnose` ranks the rules a
  failing port most likely gets wrong, from the evidence of
  :mod:`~cantstop.conformance.evidence` and :mod:`~cantstop.conformance.blame`,
  reading the port's states with :mod:`~cantstop.conformance.positions`;
- :mod:`cantstop.conformance.mutants` is a port with switchable single-rule bugs, and
  :mod:`cantstop.study` measures the diagnosis on them;
- :mod:`cantstop.conformance.verify` checks a game record (``spec/record.md``);
- :mod:`cantstop.conformance.cli` adds ``conform``, ``serve`` and ``verify`` to
  the ``cantstop`` command.
"""
