//! Tessera: termination of C programs via constrained Horn clauses and a
//! safety engine, by synthesizing ranking functions from bits and pieces
//! (Urban, Gurfinkel, Kahsai, TACAS 2016).
//!
//! Pipeline (each stage a module):
//! `c` (C text -> `ir::Program`; `its` reads integer transition systems into
//! the same) -> `horn::encode` (CHC) -> `instrument`
//! (T_term / T_rank) -> `engine` (PDR, BMC, Spacer) -> `ranking` (samples,
//! exact fit, combinations) -> `termination` (per-loop algorithm, portfolio,
//! certificates) -> `report` (text, JSON, competition formats).
//!
//! Below the engines, `solve` holds what `smt`, `horn` and the engines share
//! (the budget of a run, the answer of a Horn system); above the stages,
//! `session` is one run of the prover as the command line (`cli`) fills it.

pub mod bench;
pub mod c;
pub mod cli;
pub mod engine;
pub mod error;
pub mod horn;
pub mod instrument;
pub mod ir;
pub mod its;
pub mod ranking;
pub mod report;
pub mod session;
pub mod smt;
pub mod solve;
pub mod svcomp;
pub mod term;
pub mod termination;

pub use error::{Result, TesseraError};
