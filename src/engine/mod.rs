//! Safety engines for Horn clauses, behind one interface, each answer with
//! evidence: an inductive invariant for `Safe`, a concrete derivation for
//! `Unsafe`. Evidence is re-checked apart from solving by [`validate`].
//! The budget an engine runs under and the answer types live below, in
//! [`crate::solve`]; the engines a user can name are listed once, in
//! [`ENGINES`].

use crate::horn::System;
use crate::solve::{Budget, Verdict};
use std::fmt;

pub mod bmc;
pub mod houdini;
pub mod inline;
pub mod pdr;
pub mod portfolio;
pub mod spacer;
pub mod validate;

/// What every engine implements.
pub trait Engine {
    fn name(&self) -> &'static str;
    /// Decide the system. Must return `Unknown` (not hang) once the budget
    /// has expired or was cancelled.
    fn solve(&self, system: &System, budget: &Budget) -> Verdict;
}

/// An engine a user can name (`solve --engine`, `prove --engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineKind {
    Pdr,
    Bmc,
    Spacer,
    Portfolio,
}

/// One row of the engine registry.
pub struct EngineEntry {
    pub kind: EngineKind,
    /// The name on the command line and in reports.
    pub name: &'static str,
    /// What `--help` says about it.
    pub help: &'static str,
    /// Whether `prove --engine` offers it (BMC alone never proves safety,
    /// which every ranking check needs).
    pub proves: bool,
    /// Whether it races at a lower scheduling priority ([`BACKGROUND_NICE`])
    /// when other engines race too. Threads of one process share the
    /// processor time the process gets, so on a busy machine three racing
    /// engines each run at a third of the speed of one. BMC's
    /// counterexamples are also found by PDR, whose deep probe runs the same
    /// unrolling between its rounds, so BMC takes less of that time and
    /// Spacer and PDR more. A background engine also starts only after
    /// [`BACKGROUND_DELAY`]: most problems are decided before, and each
    /// engine's thread costs a Z3 context (7-14 ms, 17 MB of fresh memory).
    pub background: bool,
    /// How long it waits, when it races, before it starts, unless every
    /// engine that started at once has given up by then.
    pub start_delay: std::time::Duration,
    /// The engine; `None` for the portfolio, which races all the others.
    pub make: Option<fn() -> Box<dyn Engine + Send>>,
}

/// The engines by name: the one table the command line, the portfolio and
/// the reports read. The portfolio races the engines in this order.
pub const ENGINES: &[EngineEntry] = &[
    EngineEntry {
        kind: EngineKind::Pdr,
        name: "pdr",
        help: "Our property-directed reachability (IC3) engine (linear clauses)",
        proves: true,
        background: false,
        start_delay: std::time::Duration::ZERO,
        make: Some(|| Box::new(pdr::Pdr)),
    },
    EngineEntry {
        kind: EngineKind::Bmc,
        name: "bmc",
        help: "Bounded model checking: finds counterexamples only (linear clauses)",
        proves: false,
        background: true,
        start_delay: BACKGROUND_DELAY,
        make: Some(|| Box::new(bmc::Bmc)),
    },
    EngineEntry {
        kind: EngineKind::Spacer,
        name: "spacer",
        help: "Z3's Spacer through the fixedpoint API",
        proves: true,
        background: false,
        start_delay: SPACER_DELAY,
        make: Some(|| Box::new(spacer::Spacer)),
    },
    EngineEntry {
        kind: EngineKind::Portfolio,
        name: "portfolio",
        help: "Race PDR, BMC and Spacer; the first validated answer wins",
        proves: true,
        background: false,
        start_delay: std::time::Duration::ZERO,
        make: None,
    },
];

thread_local! {
    /// Whether this thread was started for one engine run and has not used
    /// Z3 yet (see [`mark_fresh_thread`]).
    static FRESH_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Mark the calling thread as started for one engine run, its Z3 context not
/// created yet: an engine that needs a fresh context (Spacer) may then run
/// on it instead of starting a thread of its own. Called by the race.
pub(crate) fn mark_fresh_thread() {
    FRESH_THREAD.with(|f| f.set(true));
}

/// Whether the calling thread was marked fresh; clears the mark (the caller
/// is about to use the thread's context).
pub(crate) fn take_fresh_thread() -> bool {
    FRESH_THREAD.with(|f| f.replace(false))
}

/// How long a background engine waits before it starts racing.
pub const BACKGROUND_DELAY: std::time::Duration = std::time::Duration::from_millis(100);

/// How long Spacer waits before it joins a race: not at all. A delay of
/// 25 ms (so that PDR alone decides the small queries) made PDR hang in
/// 4 of 8 runs of CHC-COMP's `s_mutants_06_m`: its thread spun in Z3
/// 4.8.12's solver timer (`sched_yield` inside `Z3_solver_check_assumptions`,
/// the timer's worker blocked on its mutex), five problems of
/// ../shared/bench/chc were lost that way. Starting both at once, as
/// before, it did not hang in 6 of 6.
pub const SPACER_DELAY: std::time::Duration = std::time::Duration::ZERO;

/// The nice value of a background engine's thread: its share of the
/// processor is about a third of a normal thread's (Linux weights 335 to 1024).
pub const BACKGROUND_NICE: i32 = 5;

impl EngineKind {
    /// This engine's row of [`ENGINES`].
    pub fn entry(self) -> &'static EngineEntry {
        ENGINES.iter().find(|e| e.kind == self).expect("every engine kind is in ENGINES")
    }
    pub fn name(self) -> &'static str {
        self.entry().name
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name())
    }
}
