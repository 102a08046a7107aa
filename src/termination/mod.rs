//! The termination prover: the per-loop algorithm of Urban, Gurfinkel and
//! Kahsai (Algorithms 1 and 2), the race of the three combination
//! strategies, and certificates on every definitive answer.
//!
//! This file holds the whole-program proof ([`prove_program`]: the model,
//! its invariant facts, one loop after the other) and the counters of a
//! candidate ([`scheme_of`]); `loop_proof` the per-loop algorithm,
//! `outcome` the options and the answer.

pub mod bounds;
pub mod counting;
pub mod nest_bound;
pub mod certificate;
pub mod invariants;
pub mod lasso;
pub mod precondition;
pub mod samples;
pub mod synthesis;
pub mod guards;
pub mod smallest;
pub mod warnings;
pub mod witness;
mod loop_proof;
pub use loop_proof::BOUND_FROM_EXECUTION;
mod outcome;

pub use outcome::{Answer, ExecutionBounds, HintBoard, Hints, LoopProof, NoWitness, Outcome, ProveOptions, Strategy};

use crate::horn::encode::{encode, Encoding};
use crate::instrument::{CounterKind, CounterScheme};
use crate::ir::{LocId, Program};
use crate::ranking::{Combination, RankingCandidate};
use crate::solve::Budget;
use crate::term::Affine;
use loop_proof::{prove_loop, LoopContext, LoopResult};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::time::{Duration, Instant};

/// The program model the engines see: runs end where no cycle is left
/// ahead of them, variables that never influence control flow dropped,
/// variables that are never live together merged, and a loop's
/// conversions of signed variables to unsigned made variables a ranking
/// function can use (`ir/unsigned_view.rs`).
pub fn solved_model(p: Program) -> Program {
    crate::ir::unsigned_view::add_unsigned_views(reachability_model(crate::ir::slice::end_where_no_cycle_is_left(p)))
}

/// The model for questions of reaching a point (is an undefined operation
/// reached?): [`solved_model`] without cutting the code after the last
/// cycle, so reaching the exit keeps its meaning.
pub fn reachability_model(p: Program) -> Program {
    crate::ir::coalesce::coalesce_variables(crate::ir::slice::drop_irrelevant(p))
}

/// Prove termination of a whole program: every loop needs a checked ranking
/// function for YES; one checked non-termination witness gives NO.
pub fn prove_program(p: &Program, opts: &ProveOptions) -> Outcome {
    let start = Instant::now();
    let budget = Budget::with_timeout(opts.timeout);
    let watchdog = budget.watchdog();
    // A program without a cycle (no loop, no recursion) terminates: no
    // model to build (a large loop-free program's Horn encoding can take
    // gigabytes). `is_acyclic` is its own check, independent of the loop
    // finder the encoding uses.
    if p.is_acyclic() {
        if opts.verbose {
            eprintln!("[program] no cycle among its {} locations: every run is finite", p.locations.len());
        }
        return Outcome {
            answer: Answer::Yes { loops: Vec::new(), executed: None },
            // Checked like any program's: a warning is printed only where
            // a run gets there.
            warnings: warnings::checked_warnings(p, &budget),
            assumes_valid_accesses: p.assumes_valid_accesses(),
            ..Outcome::maybe(&p.file, "", start.elapsed().as_secs_f64())
        };
    }
    // Variables that never influence control flow cannot matter for
    // termination: the engines do not see them.
    // A recursive call's return branch assumes what is proven of every
    // call of its function that returns (checked again before a YES).
    let (summarized, summaries) = crate::ir::summary::summarize(p.clone(), &budget.sub_budget(Duration::from_secs(3)));
    if opts.verbose {
        for s in &summaries {
            let shown: Vec<String> = s.conjuncts.iter().map(|c| c.to_string()).collect();
            eprintln!("[program] summary of `{}`: {}", s.function, shown.join(" && "));
        }
    }
    let sliced = solved_model(summarized);
    let enc = match encode(&sliced) {
        Ok(e) => e,
        Err(e) => {
            return Outcome { warnings: p.undefined.clone(), ..Outcome::maybe(&p.file, e.to_string(), start.elapsed().as_secs_f64()) };
        }
    };
    // NO needs a model that is exact where it matters: no approximation
    // beyond unknown values, and no unknown value (`choose`) left after
    // slicing, that is none that can influence control flow.
    // Each unknown value with the location its edge leads to: it matters
    // for NO on a loop only where a run can still come back to the loop's
    // header (a value chosen after the last visit can neither make a stem
    // spurious nor decide an iteration).
    // A step that is not a run of the program (a recursive call that
    // returns) counts as one.
    let unknown_values: Vec<(LocId, &str)> = sliced
        .edges
        .iter()
        .flat_map(|e| e.actions.iter().map(move |a| (e.to, a)))
        .filter_map(|(to, a)| match a {
            crate::ir::Action::Choose(v) => Some((to, v.as_str())),
            crate::ir::Action::Inexact => Some((to, "a recursive call's return")),
            _ => None,
        })
        .collect();
    let may_answer_no = p.forbid_no.is_empty() && unknown_values.is_empty();
    let may_answer_no_on = |header: LocId| {
        p.forbid_no.is_empty() && {
            let reaching = sliced.reaching(header);
            unknown_values.iter().all(|&(to, _)| !reaching.get(to).copied().unwrap_or(true))
        }
    };
    if opts.verbose {
        eprintln!(
            "[program] {} variables, {} cut-points, {} transitions; NO {}",
            enc.vars.len(),
            enc.cutpoints.len(),
            enc.transitions.len(),
            match (p.forbid_no.first(), unknown_values.first()) {
                (Some((_, why)), _) => format!("not possible: {why}"),
                (None, Some((_, v))) => format!("only on runs that avoid unknown values ({} such as {v}) where they influence control flow", unknown_values.len()),
                (None, None) => "possible".to_string(),
            }
        );
    }
    // Where unknown values reach a loop, its NO is searched on the runs that
    // avoid them (see `Encoding::without_unknown_values`): a reactive
    // program that can always take a branch without abstracted calls
    // still gets its witness.
    let exact_model: Option<Encoding> =
        (p.forbid_no.is_empty() && !unknown_values.is_empty()).then(|| enc.without_unknown_values());
    // Per loop: whether NO may be answered on the model NO is searched on
    // (else on the runs that avoid unknown values, where there are any).
    let may_no: Vec<bool> = enc.loops.iter().map(|l| may_answer_no || may_answer_no_on(l.header)).collect();
    let spans: Vec<Option<crate::ir::Span>> = enc.loops.iter().map(|l| p.locations.get(l.header).and_then(|l| l.span.clone())).collect();
    let span_of = |li: usize| spans.get(li).cloned().flatten();
    // NO and YES race from the start: the loops are proved one after the
    // other on a thread of their own, while this one runs the program
    // concretely looking for a run that comes back to a state
    // (milliseconds on a reactive program). Whichever is certified first
    // stops the other; a witness is answered without waiting for the
    // proofs, some of whose steps (building a large model) cannot be
    // interrupted.
    // Per loop whose NO would be searched on the runs that avoid unknown
    // values: whether some step inside the loop avoids them. Where every
    // one goes through an unknown value (a load through a recursive
    // function's pointer parameter, a recursive call that returns), no
    // run of that model iterates the loop, and no NO is searched for it.
    let exact_iterates: Vec<bool> = match &exact_model {
        Some(exact) => exact
            .loops
            .iter()
            .map(|l| {
                exact.transitions.iter().any(|t| {
                    matches!(t.from, crate::horn::encode::Source::At(f) if l.body.contains(&f))
                        && l.body.contains(&t.to)
                        && t.constraint != crate::term::Term::ff()
                })
            })
            .collect(),
        None => Vec::new(),
    };
    let models = std::sync::Arc::new(Models { enc, exact_model, may_no, exact_iterates });
    let search_no = p.forbid_no.is_empty() && (0..models.enc.loops.len()).any(|li| models.no_model_of(li).is_some());
    let proof_budget = Budget { deadline: budget.deadline, cancel: budget.cancel.child() };
    let search_budget = Budget { deadline: budget.sub_budget(lasso_race_time(opts.timeout)).deadline, cancel: budget.cancel.child() };
    let (tx, rx) = crossbeam_channel::bounded(1);
    // Sent when the loops' proofs end (true: every loop ranked), before
    // their bounds are sought: the warnings are checked meanwhile.
    let (ranked_tx, ranked_rx) = crossbeam_channel::bounded(1);
    let proving = {
        let (models, opts, spans, proof_budget, search_cancel) =
            (models.clone(), opts.clone(), spans.clone(), proof_budget.clone(), search_budget.cancel.clone());
        std::thread::Builder::new().name("proofs".into()).stack_size(PROOF_STACK).spawn(move || {
            let _guard = proof_budget.cancel.register_thread_context();
            // Cheap invariants, assumed in every query and conjoined to
            // every certificate (where they are checked again); found here,
            // not before the search starts.
            let t0 = Instant::now();
            let facts = invariants::cutpoint_facts(&models.enc, &proof_budget.sub_budget(Duration::from_secs(2)));
            if opts.verbose {
                let n: usize = facts.values().map(|f| f.len()).sum();
                eprintln!("[program] {n} invariant facts at {} cut-points ({:.2} s)", facts.len(), t0.elapsed().as_secs_f64());
            }
            let span_of = |li: usize| spans.get(li).cloned().flatten();
            let mut loops = prove_loops(&models.enc, &facts, &opts, &|li| models.no_model_of(li), &span_of, &proof_budget);
            // The proofs' end stops the search.
            search_cancel.cancel();
            // With the ranking functions: the warnings' checks try the
            // counting facts they give (see `counting`).
            let _ = ranked_tx.send(match &loops {
                Loops::Ranked(proofs, _) => Some(counting::ranked_headers(proofs)),
                _ => None,
            });
            if let Loops::Ranked(proofs, _) = &mut loops {
                let (t0, bounds_budget) = (Instant::now(), proof_budget.sub_budget(BOUNDS_TIME));
                for (_, proof) in proofs.iter_mut() {
                    proof.bound = bounds::bound_of(&models.enc, &facts, proof, opts.engine, &bounds_budget);
                }
                if proofs.len() == models.enc.loops.len() && models.enc.recursions.is_empty() {
                    let nests = nest_bound::nest_bounds(&models.enc, &facts, proofs, opts.engine, &proof_budget.sub_budget(NEST_BOUNDS_TIME));
                    for (li, proof) in proofs.iter_mut() {
                        proof.nest_bound = nests.get(li).cloned();
                    }
                }
                if opts.verbose {
                    let n = proofs.iter().filter(|(_, p)| p.bound.is_some()).count();
                    eprintln!("[program] bounds for {n} of {} loops ({:.2} s)", proofs.len(), t0.elapsed().as_secs_f64());
                }
            }
            let _ = tx.send(loops);
        })
    };
    let Ok(proving) = proving else {
        return Outcome { warnings: p.undefined.clone(), ..Outcome::maybe(&p.file, "no thread for the proofs", start.elapsed().as_secs_f64()) };
    };
    let searched = search_no.then(|| {
        let _guard = search_budget.cancel.register_thread_context();
        // Its own deadline comes before the proof's: a solver call of the
        // search (a bounded model checking step) is interrupted there, not
        // at the end of the proof.
        let _watchdog = search_budget.watchdog();
        let t0 = Instant::now();
        let found = lasso::concrete_lasso(&sliced, &models.enc, &|li| models.no_model_of(li), &search_budget, opts.verbose);
        if opts.verbose {
            let shown = found.as_ref().map(|w| format!("found for loop {}", w.loop_index)).unwrap_or_else(|e| e.clone());
            eprintln!("[program concrete lasso] {shown} ({:.2} s)", t0.elapsed().as_secs_f64());
        }
        found
    });
    // Checked while the bounds are sought (a YES prints them; other answers
    // check their own).
    let pending_warnings =
        match &searched {
            Some(Ok(_)) => None,
            _ => ranked_rx.recv().ok().flatten().map(|ranked| (Instant::now(), warnings::start_checks(p, &budget, ranked))),
        };
    let loops = match &searched {
        Some(Ok(_)) => {
            // The proofs are stopped; what they certified already counts
            // (both a ranking function and a witness: an internal error).
            proof_budget.cancel.cancel();
            rx.try_recv().ok()
        }
        _ => rx.recv().ok(),
    };
    if loops.is_some() {
        let _ = proving.join();
    }
    let enc = std::sync::Arc::try_unwrap(models).map(|m| m.enc).unwrap_or_else(|m| m.enc.clone());
    let loops = loops.unwrap_or_else(|| Loops::Unknown(Vec::new(), vec!["the proofs were stopped by the witness".into()], 0));
    let (proofs, mut reasons, queries) = match (loops, searched) {
        (Loops::NonTerminating(witness, strategy, queries), _) => {
            drop(watchdog);
            let span = span_of(witness.loop_index);
            return non_terminating(p, enc, witness, span, strategy, queries, start, &budget);
        }
        (Loops::Ranked(proofs, queries), Some(Ok(_))) => {
            // Both certified: a bug somewhere; neither answer is given.
            (proofs, vec!["a ranking function and a non-termination witness were both certified (an internal error)".to_string()], queries)
        }
        (Loops::Unknown(_, _, queries), Some(Ok(witness))) => {
            drop(watchdog);
            let span = span_of(witness.loop_index);
            return non_terminating(p, enc, witness, span, "a run of the program model that comes back to a state it was in", queries, start, &budget);
        }
        (Loops::Ranked(proofs, queries), _) => (proofs, Vec::new(), queries),
        (Loops::Unknown(proofs, reasons, queries), _) => (proofs, reasons, queries),
    };
    let proofs: Vec<LoopProof> = proofs
        .into_iter()
        .map(|(li, mut proof)| {
            proof.span = span_of(li);
            proof
        })
        .collect();
    drop(watchdog);
    let (t0, pending_warnings) = pending_warnings.unwrap_or_else(|| (Instant::now(), warnings::start_checks(p, &budget, Vec::new())));
    let warnings = pending_warnings.wait();
    if opts.verbose {
        eprintln!("[program] {} warnings checked ({:.2} s)", warnings.len(), t0.elapsed().as_secs_f64());
    }
    // The summaries the model assumed, proved again in a fresh context.
    if reasons.is_empty() && proofs.len() == enc.loops.len() {
        if let Err(e) = certificate::check_summaries(p, &summaries, &budget) {
            reasons.push(e);
        }
    }
    let answer = if reasons.is_empty() && proofs.len() == enc.loops.len() {
        Answer::Yes { loops: proofs, executed: None }
    } else {
        if reasons.is_empty() {
            reasons.push("time limit".into());
        }
        if opts.verbose {
            for r in &reasons {
                eprintln!("[program] MAYBE: {r}");
            }
        }
        // One line per loop: the report shortens each to one phrase and
        // keeps the whole text for JSON's `details`.
        Answer::Maybe { reason: reasons.join("\n") }
    };
    let summaries = if matches!(answer, Answer::Yes { .. }) { summaries } else { Vec::new() };
    Outcome {
        answer,
        encoding: Some(enc),
        queries,
        warnings,
        summaries,
        assumes_valid_accesses: p.assumes_valid_accesses(),
        ..Outcome::maybe(&p.file, "", start.elapsed().as_secs_f64())
    }
}

/// The models the proofs and the search share: the program's, the one of
/// the runs that avoid unknown values, and per loop whether NO may be
/// answered on the first.
struct Models {
    enc: Encoding,
    exact_model: Option<Encoding>,
    may_no: Vec<bool>,
    /// Per loop: whether a step inside it avoids unknown values.
    exact_iterates: Vec<bool>,
}

impl Models {
    fn no_model_of(&self, li: usize) -> Option<&Encoding> {
        if self.may_no.get(li).copied().unwrap_or(false) {
            Some(&self.enc)
        } else {
            self.exact_model.as_ref().filter(|_| self.exact_iterates.get(li).copied().unwrap_or(false))
        }
    }
}

/// Time for tightening the iteration bounds of a YES, all loops together.
const BOUNDS_TIME: Duration = Duration::from_secs(2);
/// Time for the ceilings of the loop nests' bounds.
const NEST_BOUNDS_TIME: Duration = Duration::from_secs(2);

/// Stack of the thread the loops are proved on (deep terms).
const PROOF_STACK: usize = 256 * 1024 * 1024;

/// What proving the loops one after the other gave: a proof of each
/// (by loop index), a witness for one, or the reasons some got neither;
/// and the safety queries asked.
enum Loops {
    Ranked(Vec<(usize, LoopProof)>, usize),
    NonTerminating(certificate::NonTerminationWitness, &'static str, usize),
    Unknown(Vec<(usize, LoopProof)>, Vec<String>, usize),
}

fn prove_loops<'e>(
    enc: &Encoding,
    facts: &invariants::Facts,
    opts: &ProveOptions,
    no_model_of: &dyn Fn(usize) -> Option<&'e Encoding>,
    span_of: &dyn Fn(usize) -> Option<crate::ir::Span>,
    budget: &Budget,
) -> Loops {
    let mut proofs = Vec::new();
    let mut reasons = Vec::new();
    let mut queries = 0;
    for li in 0..enc.loops.len() {
        let at = span_of(li).map(|s| (s.line, s.col));
        let tried_hint = std::sync::atomic::AtomicBool::new(false);
        let cx = LoopContext { enc, li, opts, facts, no_model: no_model_of(li), at, tried_hint: &tried_hint };
        let (result, q) = prove_loop(cx, budget);
        queries += q;
        match result {
            LoopResult::Ranked(proof) => proofs.push((li, proof)),
            LoopResult::NonTerminating(witness, strategy) => return Loops::NonTerminating(witness, strategy, queries),
            LoopResult::Unknown(r) => {
                reasons.push((li, r));
                if budget.expired() || opts.stop_at_unknown {
                    break;
                }
            }
        }
    }
    if reasons.is_empty() && proofs.len() == enc.loops.len() {
        Loops::Ranked(proofs, queries)
    } else {
        let reasons = reasons
            .into_iter()
            .map(|(li, r)| {
                let at = span_of(li).map(|s| format!("line {}", s.line)).unwrap_or_else(|| format!("L{}", enc.loops[li].header));
                format!("loop {li} ({at}): {r}")
            })
            .collect();
        Loops::Unknown(proofs, reasons, queries)
    }
}

/// How long the concrete search for a lasso races the proofs of the loops:
/// a third of the time, at least 5 s (the proofs stop it when they end).
fn lasso_race_time(timeout: Duration) -> Duration {
    (timeout / 3).max(Duration::from_secs(5)).min(timeout)
}

/// The answer NO, with the warnings checked in what is left of the budget.
#[allow(clippy::too_many_arguments)]
fn non_terminating(
    p: &Program,
    enc: Encoding,
    witness: certificate::NonTerminationWitness,
    span: Option<crate::ir::Span>,
    strategy: &'static str,
    queries: usize,
    start: Instant,
    budget: &Budget,
) -> Outcome {
    let warnings = warnings::checked_warnings(p, budget);
    Outcome {
        answer: Answer::No { witness: NoWitness::Model(witness), span, strategy },
        encoding: Some(enc),
        queries,
        warnings,
        ..Outcome::maybe(&p.file, "", start.elapsed().as_secs_f64())
    }
}

/// The counters for a candidate: pieces scaled by the lcm of their
/// denominators so that they stay integral.
pub fn scheme_of(c: &RankingCandidate) -> CounterScheme {
    let kind = match c.combination {
        Combination::Piecewise => CounterKind::Max,
        Combination::Lexicographic => CounterKind::Lex,
        Combination::Multiphase => CounterKind::Phases,
    };
    if c.pieces.is_empty() {
        return CounterScheme { kind, ..CounterScheme::zero() };
    }
    let mut unit = BigInt::one();
    for p in &c.pieces {
        for q in p.coeffs.values().chain(std::iter::once(&p.constant)) {
            unit = unit.lcm(q.denom());
        }
    }
    let pieces = c
        .pieces
        .iter()
        .map(|p| {
            let mut a = Affine::default();
            for (v, q) in &p.coeffs {
                let k = (q * num_rational::BigRational::from_integer(unit.clone())).to_integer();
                if !k.is_zero() {
                    a.coeffs.insert(v.clone(), k);
                }
            }
            a.constant = (&p.constant * num_rational::BigRational::from_integer(unit.clone())).to_integer();
            a
        })
        .collect();
    CounterScheme { kind, pieces, unit }
}
