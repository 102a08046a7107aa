//! Benchmark runner (stub)
