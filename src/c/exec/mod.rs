//! Executing the C program over all its runs: a decision procedure for
//! programs whose control flow does not depend on their inputs.
//!
//! The interpreter (`eval.rs` for expressions, `stmt.rs` for statements,
//! declarations and calls, `library.rs` for the C library functions it
//! knows exactly, `memory.rs` and `value.rs` for what it computes with)
//! runs the parsed C program with the types the typing layer decided
//! (`typing/elaborate.rs`: every expression's type, each
//! declarator's, each `sizeof`), and the integer operations of
//! [`crate::c::arith::Arith`], so a program means here what it means in
//! lowering. Values the program reads from outside (`__VERIFIER_nondet_*`)
//! are unknown: any value of their type. A run *forks* where the model has
//! a choice that matters to control: an allocation may fail, a condition
//! may be unknown. `runs.rs` explores every run depth first (each run
//! replayed from the start by its sequence of choices); when every run
//! ends, every execution of the program terminates: YES, with the number
//! of runs and, per loop, the most iterations met in one entry.
//!
//! A run that reaches undefined behaviour (under `--ints c`: signed
//! overflow; division by zero and bad shifts always) is not a C execution
//! and ends there. Anything not modelled exactly gives up with its place
//! (floats, unknown pointers dereferenced, calls of functions without a
//! body outside the library, `goto`, memory errors, budgets): the prover
//! then runs as if nothing happened. This only ever answers YES or steps
//! aside; the YES rests on this interpreter's semantics of C, as a YES by
//! ranking rests on lowering's.

mod checkpoint;
mod drift;
mod eval;
mod interp;
mod join;
mod lasso;
mod library;
mod memory;
mod path;
mod runs;
mod stmt;
mod symbolic;
mod value;

pub use lasso::{Lasso, LassoKind};
pub use runs::{Evidence, LoopBound, UndefinedEnding, Verdict};
pub(crate) use runs::explore_unit;

use crate::ir::Span;

/// Why a run stops before its end.
#[derive(Clone, Debug)]
pub(crate) enum Stop {
    /// The run ends: `exit`, `abort`, a failed assertion or assumption,
    /// or `main` returned.
    Ended,
    /// The run ends at undefined behaviour of `kind` (or where the machine
    /// `--ints machine` describes traps; see `c::meaning::consequence`):
    /// C gives it no meaning past there. Counted in the evidence, which
    /// says how many runs end so and where.
    Undefined { kind: crate::ir::Undefined, at: Option<Span> },
    /// Something not modelled exactly: no answer from execution.
    GiveUp { why: String, at: Option<Span> },
    /// A concrete run (`lasso.rs`) is back at a loop's head in a state it
    /// was in: it runs forever.
    Forever(interp::Repeat),
}

impl Stop {
    pub(crate) fn give_up(why: impl Into<String>) -> Stop {
        Stop::GiveUp { why: why.into(), at: None }
    }
    /// The place of a give-up that has none yet.
    pub(crate) fn at(self, span: Option<Span>) -> Stop {
        match self {
            Stop::GiveUp { why, at: None } => Stop::GiveUp { why, at: span },
            Stop::Undefined { kind, at: None } => Stop::Undefined { kind, at: span },
            other => other,
        }
    }
}

/// The limits of one exploration.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub steps_per_run: u64,
    /// Choices in one run (an unknown loop condition forks at each test).
    pub choices_per_run: usize,
    pub total_steps: u64,
    pub runs: usize,
    pub depth: usize,
    /// Steps between two checkpoints of a run (0: none; every run is
    /// replayed from the start).
    pub checkpoint_steps: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { steps_per_run: 20_000_000, choices_per_run: 10_000, total_steps: 60_000_000, runs: 20_000, depth: 2_000, checkpoint_steps: 1_000 }
    }
}
