"""Benchmark scripts (run each as a script; see docs/benchmarks.md for the latest results)."""
