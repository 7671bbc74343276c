"""The conformance suite for ports: vectors, the port protocol, the harness and the verifier.

- :mod:`cantstop.conformance.generate` writes the vectors under ``spec/conformance/``;
- :mod:`cantstop.conformance.serve` is the reference engine speaking the protocol
  of ``spec/protocol.md``;
- :mod:`cantstop.conformance.harness` runs the vectors against a port;
- :mod:`cantstop.conformance.verify` checks a game record (``spec/record.md``);
- :mod:`cantstop.conformance.cli` adds ``conform``, ``serve`` and ``verify`` to
  the ``cantstop`` command.
"""
