//! What a termination proof is asked and what it answers: the options of a
//! run ([`Strategy`], [`ProveOptions`]) and its [`Outcome`] (YES with a
//! checked ranking function per loop, NO with a checked witness, MAYBE with
//! the reason).

use crate::engine::EngineKind;
use crate::horn::encode::Encoding;
use crate::instrument::CounterScheme;
use crate::ir::{LocId, Span};
use crate::ranking::{Combination, RankingCandidate};
use crate::term::Term;
use super::certificate::NonTerminationWitness;
use std::path::PathBuf;
use std::time::Duration;

/// Which combination of affine pieces to synthesise (§4.2 of the paper).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Strategy {
    /// `max(r_1, ..., r_n)`: several paths in one loop.
    Piecewise,
    /// `lex(r_1, ..., r_n)`: unbounded non-determinism.
    Lexicographic,
    /// `phases(r_1, ..., r_n)`: loops that go through phases.
    Multiphase,
    /// Constraint-based synthesis first, then race all three on threads;
    /// the first checked answer wins.
    Portfolio,
}

impl Strategy {
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Piecewise => "piecewise",
            Strategy::Lexicographic => "lexicographic",
            Strategy::Multiphase => "multiphase",
            Strategy::Portfolio => "portfolio",
        }
    }
    pub(super) fn combination(self) -> Combination {
        match self {
            Strategy::Lexicographic => Combination::Lexicographic,
            Strategy::Multiphase => Combination::Multiphase,
            _ => Combination::Piecewise,
        }
    }
}

#[derive(Clone, Debug)]
pub struct ProveOptions {
    pub strategy: Strategy,
    pub timeout: Duration,
    /// Engine for the proof queries (T_term safe, T_rank, recurrent sets).
    pub engine: EngineKind,
    /// Write every Horn query asked into this folder.
    pub emit_horn: Option<PathBuf>,
    /// Refinements of one candidate before giving up on a loop.
    pub max_refinements: usize,
    /// Report every query and candidate on standard error.
    pub verbose: bool,
    /// Bounds that executing every run found, once it has (set while the
    /// proof runs): each loop tries its bound first, as a constant
    /// candidate checked by T_rank (see [`ExecutionBounds`]).
    pub hints: Option<Hints>,
    /// Give up at the first loop without a ranking function (where only
    /// a proof of every loop is of use: a precondition's).
    pub stop_at_unknown: bool,
}

/// What executing every run of the program found (see
/// [`crate::c::exec::Evidence`]): the most iterations of each loop in one
/// entry and the deepest nesting of each recursion. On the model each is a
/// candidate ranking function like any other (a constant, checked by
/// T_rank and the certificate checker): where every loop's holds, the
/// execution's YES is confirmed by the second semantics.
#[derive(Clone, Debug, Default)]
pub struct ExecutionBounds {
    /// Per loop statement: line, column, most iterations in one entry.
    pub loops: Vec<(usize, usize, u64)>,
    /// Per recursive function: most calls of it active at once.
    pub recursions: Vec<(String, usize)>,
}

impl ExecutionBounds {
    pub fn of(e: &crate::c::exec::Evidence) -> ExecutionBounds {
        ExecutionBounds {
            loops: e.loops.iter().map(|l| (l.line, l.column, l.iterations)).collect(),
            recursions: e.recursions.clone(),
        }
    }
}

/// Where the proof finds execution's bounds once they are known, and says
/// when one of them could not be confirmed (the answer then need not wait
/// for the model).
#[derive(Debug, Default)]
pub struct HintBoard {
    pub bounds: std::sync::OnceLock<ExecutionBounds>,
    pub missed: std::sync::atomic::AtomicBool,
}

pub type Hints = std::sync::Arc<HintBoard>;

impl Default for ProveOptions {
    fn default() -> Self {
        ProveOptions {
            strategy: Strategy::Portfolio,
            timeout: Duration::from_secs(30),
            engine: EngineKind::Portfolio,
            emit_horn: None,
            max_refinements: 40,
            verbose: false,
            hints: None,
            stop_at_unknown: false,
        }
    }
}

/// A checked termination argument for one loop.
#[derive(Clone, Debug)]
pub struct LoopProof {
    pub loop_index: usize,
    pub header: LocId,
    pub span: Option<Span>,
    pub ranking: RankingCandidate,
    pub scheme: CounterScheme,
    /// The invariant of the header in the T_rank system (program variables
    /// and counters `r#i`).
    pub invariant: Term,
    pub strategy: &'static str,
    /// Whether the ranking function decreases in every iteration (the
    /// direct check) or bounds the iterations from the loop entry (T_rank):
    /// the report and the witnesses print and rescale it accordingly.
    pub decreases: bool,
    /// At most how many iterations one entry of the loop takes (set once
    /// the program's answer is YES; `None` where the argument gives none).
    pub bound: Option<super::bounds::IterationBound>,
    /// For a loop with loops inside it: at most how many iterations it and
    /// they take in all, in one entry of it (see [`super::nest_bound`]).
    pub nest_bound: Option<super::nest_bound::NestBound>,
}

#[derive(Clone, Debug)]
pub enum Answer {
    /// `executed`: the YES comes from executing every run of the program
    /// (`c::exec`), not from ranking functions (`loops` is then empty).
    Yes { loops: Vec<LoopProof>, executed: Option<crate::c::exec::Evidence> },
    No { witness: NoWitness, span: Option<Span>, strategy: &'static str },
    Maybe { reason: String },
}

/// What a NO rests on.
#[derive(Clone, Debug)]
pub enum NoWitness {
    /// A stem and a recurrent set of the program model, checked on it by
    /// the certificate checker.
    Model(NonTerminationWitness),
    /// A run of the C program that comes back to a state it was in
    /// (`c::exec`, confirmed by replaying it and comparing whole states).
    Executed(crate::c::exec::Lasso),
}

impl NoWitness {
    /// The witness over the program model, if the NO has one.
    pub fn model(&self) -> Option<&NonTerminationWitness> {
        match self {
            NoWitness::Model(w) => Some(w),
            NoWitness::Executed(_) => None,
        }
    }
}

impl Answer {
    pub fn word(&self) -> &'static str {
        match self {
            Answer::Yes { .. } => "YES",
            Answer::No { .. } => "NO",
            Answer::Maybe { .. } => "MAYBE",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub answer: Answer,
    pub file: String,
    pub seconds: f64,
    /// Variable names of the program (states in witnesses are over these).
    pub encoding: Option<Encoding>,
    pub queries: usize,
    /// Operations whose undefined behaviour the answer assumes away (the
    /// answer is about the executions that never reach them).
    pub warnings: Vec<crate::ir::UndefinedSite>,
    /// The return summaries of recursive functions a YES assumed (each
    /// proved, and proved again by the certificate checker).
    pub summaries: Vec<crate::ir::summary::Summary>,
    /// The model assumed every memory access valid (a run that
    /// dereferences NULL or leaves an object's bounds ends there:
    /// `Approximation::MemorySafety`).
    pub assumes_valid_accesses: bool,
    /// A YES from execution that the program model confirmed: the proof on
    /// the model (its `loops`) came to YES as well.
    pub confirmed_on_model: bool,
    /// Why executing every run did not answer (with a MAYBE).
    pub execution_gave_up: Option<String>,
    /// With a NO: a proved condition under which every run ends.
    pub precondition: Option<super::precondition::Precondition>,
}

impl Outcome {
    /// YES from executing every run (see [`crate::c::exec`]).
    pub fn executed(file: impl Into<String>, evidence: crate::c::exec::Evidence, seconds: f64) -> Outcome {
        Outcome { answer: Answer::Yes { loops: Vec::new(), executed: Some(evidence) }, ..Outcome::maybe(file, "", seconds) }
    }
    /// NO from a run of the C program that repeats a state (see
    /// [`crate::c::exec`]).
    pub fn runs_forever(file: impl Into<String>, lasso: crate::c::exec::Lasso, seconds: f64) -> Outcome {
        let file = file.into();
        let span = Some(Span { file: file.clone(), line: lasso.line, col: lasso.column });
        Outcome { answer: Answer::No { witness: NoWitness::Executed(lasso), span, strategy: "execution" }, ..Outcome::maybe(file, "", seconds) }
    }
    /// MAYBE without a proof attempt behind it (an input error, a time
    /// limit reached by the supervisor).
    pub fn maybe(file: impl Into<String>, reason: impl Into<String>, seconds: f64) -> Outcome {
        Outcome {
            answer: Answer::Maybe { reason: reason.into() },
            file: file.into(),
            seconds,
            encoding: None,
            queries: 0,
            warnings: Vec::new(),
            summaries: Vec::new(),
            assumes_valid_accesses: false,
            confirmed_on_model: false,
            execution_gave_up: None,
            precondition: None,
        }
    }

    /// A YES from execution (`self`) confirmed by the proof's YES on the
    /// program model (`proof`): the execution's evidence with the model's
    /// ranking functions, invariants and assumptions.
    pub fn confirmed_by(self, proof: Outcome) -> Outcome {
        let Answer::Yes { executed: Some(evidence), .. } = self.answer else { return self };
        let Answer::Yes { loops, .. } = proof.answer else { return Outcome { answer: Answer::Yes { loops: Vec::new(), executed: Some(evidence) }, ..self } };
        Outcome {
            answer: Answer::Yes { loops, executed: Some(evidence) },
            seconds: self.seconds.max(proof.seconds),
            encoding: proof.encoding,
            queries: proof.queries,
            warnings: proof.warnings,
            summaries: proof.summaries,
            assumes_valid_accesses: proof.assumes_valid_accesses,
            confirmed_on_model: true,
            ..self
        }
    }
}
