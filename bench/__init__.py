"""Benchmarks: scripts that print figures (never timed unit tests)."""
