"""Benchmarks of the engine, separate from the tests: ``python -m benchmarks``."""
