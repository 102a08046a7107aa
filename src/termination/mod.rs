//! Termination prover (stub)
