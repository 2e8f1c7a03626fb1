"""Benchmarks the project keeps: `python -m benchmarks.run` (see README, "Benchmark")."""
