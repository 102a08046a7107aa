//! The layer below the engines: what every solver of Horn clauses shares,
//! from the SMT calls up to the report. [`budget`] holds the limits a run
//! gets (deadline, cancellation), [`answer`] the answer it gives (verdict
//! and evidence). It depends only on `term`, so `smt`, `horn` and the
//! engines can use it without importing `engine` (which sits above them).

pub mod answer;
pub mod budget;
pub mod memory;

pub use answer::{interp_of, Derivation, Invariant, Verdict};
pub use budget::{Budget, Cancel, ContextGuard, Watchdog};
