"""The conformance suite for ports: vectors, the port protocol, the harness and the verifier.

- :mod:`cantstop.conformance.generate` writes the vectors under ``spec/conformance/``;
- :mod:`cantstop.conformance.serve` is the reference engine speaking the protocol
  of ``spec/protocol.md``;
- :mod:`cantstop.conformance.harness` runs the vectors against a port;
- :mod:`cantstop.conformance.tags` names the rules that decide each answer (the
  vectors' rule tags), and :mod:`cantstop.conformance.diagnose` ranks the rules a
  failing port most likely gets wrong;
- :mod:`cantstop.conformance.mutants` is a port with switchable single-rule bugs, and
  :mod:`cantstop.conformance.study` measures the diagnosis on them;
- :mod:`cantstop.conformance.verify` checks a game record (``spec/record.md``);
- :mod:`cantstop.conformance.cli` adds ``conform``, ``serve`` and ``verify`` to
  the ``cantstop`` command.
"""
