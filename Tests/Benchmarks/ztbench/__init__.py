"""Benchmarks of the real ztprov binary against the radio-free harness (Tests/Benchmarks/run-benchmarks)."""
