//! T_term / T_rank instrumentation (stub)
