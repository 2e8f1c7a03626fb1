"""Benchmarks the project keeps: `python -m benchmarks.run` (see benchmarks/README.md)."""
