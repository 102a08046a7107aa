//! The per-loop algorithm (Algorithms 1 and 2 of the paper): candidates from
//! the loop guard and the constraint-based synthesis, then each combination
//! strategy's refinement loop (T_term samples, T_rank checks, recurrent
//! sets for NO), raced on threads under one loop's budget.

use super::{certificate, guards, samples, scheme_of, synthesis, witness, LoopProof, ProveOptions, Strategy};
use crate::engine::EngineKind;
use crate::solve::{Budget, Verdict};
use crate::horn::encode::Encoding;
use crate::instrument::{instrument, ClauseRole, CounterScheme, Instrumented, Mode};
use crate::ranking::{Combination, PieceBuilder, RankingCandidate, TerminatingSample};
use super::certificate::{NonTerminationWitness, StemStep};
use crossbeam_channel::unbounded;
use super::invariants::{strengthen, with_facts, Facts};
use super::samples::HeaderVisit;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

pub(super) enum LoopResult {
    Ranked(LoopProof),
    NonTerminating(NonTerminationWitness, &'static str),
    Unknown(String),
}

enum StrategyResult {
    Done(LoopResult),
    /// The single-piece phase needs a second piece: the strategies diverge.
    NeedsPieces(Vec<Vec<HeaderVisit>>),
}

/// Paths of a loop beyond which no recurrent set is searched symbolically
/// before the ranking functions.
const MAX_SYMBOLIC_NO_PATHS: usize = 300;

/// Time for checking execution's bound of one loop on the model.
const HINT_CHECK_TIME: Duration = Duration::from_secs(1);

/// The strategy name of a loop proved by execution's bound.
pub const BOUND_FROM_EXECUTION: &str = "bound found by execution, checked on the model";

/// The bound execution found for this loop (one more than its most
/// iterations in an entry, so that the check has slack), if the execution
/// has answered: by the loop statement's place, or for a recursion by its
/// function's deepest nesting.
fn hinted_bound(cx: &LoopContext<'_>) -> Option<u64> {
    let hints = cx.opts.hints.as_ref()?.bounds.get()?;
    let header = cx.enc.loops.get(cx.li)?.header;
    if let Some(f) = cx.enc.recursions.get(&header) {
        return hints.recursions.iter().find(|(g, _)| g == f).map(|(_, depth)| *depth as u64 + 1);
    }
    let (line, col) = cx.at?;
    hints.loops.iter().find(|(l, c, _)| *l == line && *c == col).map(|(_, _, k)| k + 1)
}

/// Execution's bound of this loop (see [`hinted_bound`]), once: one short
/// T_rank check of the constant. `Some` when it settles the loop (ranked,
/// or a run of the model that does not terminate); a bound the model
/// cannot confirm is reported on the hint board.
fn execution_bound(cx: LoopContext<'_>, budget: &Budget, queries: &mut usize) -> Option<LoopResult> {
    let hints = cx.opts.hints.as_ref()?;
    // Tried once, when the bound is known (it may arrive during the guard's
    // candidates).
    let bound = hinted_bound(&cx)?;
    if cx.tried_hint.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let t0 = Instant::now();
    let candidate = RankingCandidate::single(crate::ranking::AffinePiece::constant(num_rational::BigRational::from_integer(bound.into())));
    let mut run = StrategyRun::new(cx, Strategy::Piecewise, budget.sub_budget(HINT_CHECK_TIME), false);
    let result = run.validate(candidate.clone(), scheme_of(&candidate), 70);
    *queries += run.queries;
    if cx.opts.verbose {
        let shown = match &result {
            LoopResult::Ranked(_) => "holds".to_string(),
            LoopResult::NonTerminating(..) => "fails: the model has a run that does not terminate".to_string(),
            LoopResult::Unknown(r) => r.clone(),
        };
        eprintln!("[loop {} execution's bound] {candidate}: {shown} ({:.2} s)", cx.li, t0.elapsed().as_secs_f64());
    }
    match result {
        LoopResult::Ranked(mut proof) => {
            proof.strategy = BOUND_FROM_EXECUTION;
            Some(LoopResult::Ranked(proof))
        }
        no @ LoopResult::NonTerminating(..) => Some(no),
        LoopResult::Unknown(_) => {
            hints.missed.store(true, std::sync::atomic::Ordering::Relaxed);
            None
        }
    }
}

/// Time for running a loop to a repeated state (see `witness::simulated_lasso`).
const LASSO_TIME: Duration = Duration::from_secs(3);

pub(super) fn prove_loop(cx: LoopContext<'_>, budget: &Budget) -> (LoopResult, usize) {
    let LoopContext { enc, li, opts, facts, no_model, .. } = cx;
    // All three combinations agree while the candidate has a single piece:
    // run that shared phase once, then race the strategies from its samples.
    let mut queries = 0;
    // Guard and order candidates whose check ran out of its time without
    // refuting them: checked again beside the sampling race, with the time
    // that is left (on a loaded machine a 2 s check of a list walk's order
    // takes more than its 4 s share).
    let mut unfinished: Vec<(usize, RankingCandidate, &'static str)> = Vec::new();
    if opts.strategy == Strategy::Portfolio {
        // The guard's slack first: one cheap decrease check, before the search
        // for a recurrent set (which on a terminating loop with cut-points
        // inside spends its whole share before it gives up).
        // Numbered apart from the sampling iterations in `--emit-horn` files.
        // Then, where the program follows links in the order of allocation,
        // that order (`p.base` for a walk to older blocks).
        // A walk along links (`p = p->next`) is ranked by the order, not by
        // the in-bounds slacks of the pointer it moves (`p.off + 1`): those
        // come after it.
        let header_facts = facts.get(&enc.loops[li].header).map(|f| f.as_slice()).unwrap_or(&[]);
        let order: Vec<_> = guards::allocation_order_candidates(enc, li, header_facts).into_iter().map(|c| (c, ORDER_OF_ALLOCATION)).collect();
        let (extents, guard): (Vec<_>, Vec<_>) = guards::guard_candidates(enc, li)
            .into_iter()
            .map(|c| (c, "linear (slack of the loop guard)"))
            .partition(|(c, _)| !order.is_empty() && guards::over_pointer_extents_only(enc, c));
        let views = guards::unsigned_view_candidates(enc, li).into_iter().map(|c| (c, "linear (a signed variable converted to unsigned)"));
        for (k, (candidate, strategy)) in guard.into_iter().chain(views).chain(order).chain(extents).enumerate() {
            // Execution's bound after the first candidate (the guard's
            // slack reads better and is cheap on integer loops; the later
            // candidates take seconds to fail on a list walk).
            if k == 1 {
                if let Some(done) = execution_bound(cx, budget, &mut queries) {
                    return (done, queries);
                }
            }
            let t0 = Instant::now();
            let (proof, timed_out) = check_guard_candidate(cx, budget, &candidate, strategy, k, GUARD_CHECK_TIME, ORDER_RANK_TIME, &mut queries);
            if opts.verbose {
                eprintln!("[loop {li} guard] {candidate}: {} ({:.2} s)", if proof.is_some() { "decreases" } else { "no" }, t0.elapsed().as_secs_f64());
            }
            if proof.is_none() && timed_out {
                unfinished.push((k, candidate.clone(), strategy));
            }
            if let Some(proof) = proof {
                return (LoopResult::Ranked(proof), queries);
            }
        }
        // A walk along links has no other argument the sampling finds: the
        // order candidates whose check ran out of time (on a loaded machine
        // a 2 s check takes more than its share) are checked again once
        // every candidate had its turn, with up to half the time left.
        let (walks, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut unfinished).into_iter().partition(|(_, _, s)| *s == ORDER_OF_ALLOCATION);
        unfinished = rest;
        if let Some(proof) = check_again(cx, budget, &walks, |r| r / 2, &mut queries) {
            return (LoopResult::Ranked(proof), queries);
        }
    }
    // Where there was no second candidate, or another strategy was asked for.
    if let Some(done) = execution_bound(cx, budget, &mut queries) {
        return (done, queries);
    }
    // Loops that can always go on are caught before any other ranking function is sought.
    // Not on a loop of hundreds of paths (a reactive program's step
    // function): there the symbolic checks run for seconds without an
    // answer, and the concrete search (`super::lasso`) is the way to NO.
    let symbolic_no = |e: &Encoding| certificate::loop_region(e, li).is_some_and(|r| r.transitions.len() <= MAX_SYMBOLIC_NO_PATHS);
    if let Some(no_enc) = no_model.filter(|e| symbolic_no(e)) {
        // A loop with cut-points inside needs a search for its sets: more time.
        let simple = certificate::self_transitions(no_enc, li).is_some();
        let quick = budget.sub_budget(Duration::from_secs(if simple { 2 } else { 6 }));
        let header_facts: &[crate::term::Term] = facts.get(&enc.loops[li].header).map(|f| f.as_slice()).unwrap_or(&[]);
        queries += 1;
        // Each search's witness goes through the certificate checker.
        let attempt = |what: &str, search: &dyn Fn() -> Result<NonTerminationWitness, String>| {
            let t0 = Instant::now();
            let found = search().and_then(|w| witness::checked(no_enc, w, budget));
            if opts.verbose {
                let shown = found.as_ref().map(|_| "found".to_string()).unwrap_or_else(|e| e.clone());
                eprintln!("[loop {li} {what}] {shown} ({:.2} s)", t0.elapsed().as_secs_f64());
            }
            found.ok()
        };
        if let Some(w) = attempt("recurrence", &|| witness::guard_recurrence(no_enc, li, opts.engine, &quick, header_facts)) {
            return (LoopResult::NonTerminating(w, "recurrent guard"), queries);
        }
        if let Some(w) = attempt("lasso", &|| witness::simulated_lasso(no_enc, li, None, &budget.sub_budget(LASSO_TIME))) {
            return (LoopResult::NonTerminating(w, "a run of the loop that comes back to a state it was in"), queries);
        }
    }
    // The portfolio also asks the constraint-based synthesis once (see
    // `synthesis`): loops with simple linear arguments whose iteration
    // counts are not affine are proved here, without sampling.
    if opts.strategy == Strategy::Portfolio {
        let t0 = Instant::now();
        let found = synthesis::candidates(enc, li, facts, &budget.sub_budget(Duration::from_secs(2)));
        if opts.verbose {
            let shown: Vec<String> = found.iter().map(|c| c.to_string()).collect();
            eprintln!("[loop {li} synthesis] candidates [{}] ({:.2} s)", shown.join(", "), t0.elapsed().as_secs_f64());
        }
        for (k, candidate) in found.into_iter().enumerate() {
            let strategy = match candidate.combination {
                Combination::Piecewise => Strategy::Piecewise,
                Combination::Lexicographic => Strategy::Lexicographic,
                Combination::Multiphase => Strategy::Multiphase,
            };
            let mut run = StrategyRun::new(cx, strategy, budget.clone(), false);
            // Synthesised candidates are likely right: more time for the
            // invariant their check needs.
            let proof = run.try_decrease(&candidate, &scheme_of(&candidate), 80 + k, SYNTHESIS_CHECK_TIME);
            queries += run.queries;
            if let Some(mut proof) = proof {
                proof.strategy = match strategy {
                    Strategy::Lexicographic => "lexicographic (Farkas synthesis)",
                    Strategy::Multiphase => "multiphase (Farkas synthesis)",
                    _ => "linear (Farkas synthesis)",
                };
                return (LoopResult::Ranked(proof), queries);
            }
        }
    }
    // Portfolio: the shared phase runs as piecewise and stops at a second piece.
    let (strategy, single_piece_only) = match opts.strategy {
        Strategy::Portfolio => (Strategy::Piecewise, true),
        s => (s, false),
    };
    let mut run = StrategyRun::new(cx, strategy, budget.clone(), single_piece_only);
    let first = run.run(vec![]);
    queries += run.queries;
    let traces = match first {
        StrategyResult::Done(r) => return (r, queries),
        StrategyResult::NeedsPieces(t) => t,
    };
    // Race: first definitive answer wins; the others are cancelled.
    let (tx, rx) = unbounded();
    let race_cancel = budget.cancel.child();
    let strategies = [Strategy::Piecewise, Strategy::Lexicographic, Strategy::Multiphase];
    let result = std::thread::scope(|s| {
        for st in strategies {
            let tx = tx.clone();
            let traces = traces.clone();
            let b = Budget { deadline: budget.deadline, cancel: race_cancel.clone() };
            s.spawn(move || {
                if st == Strategy::Multiphase {
                    crate::solve::budget::lower_thread_priority(MULTIPHASE_NICE);
                }
                let mut run = StrategyRun::new(cx, st, b, false);
                let r = run.run(traces);
                let _ = tx.send((r, run.queries));
            });
        }
        if !unfinished.is_empty() {
            let tx = tx.clone();
            let b = Budget { deadline: budget.deadline, cancel: race_cancel.clone() };
            let unfinished = &unfinished;
            s.spawn(move || {
                let mut queries = 0;
                let found = check_again(cx, &b, unfinished, |r| r, &mut queries);
                let result = match found {
                    Some(proof) => StrategyResult::Done(LoopResult::Ranked(proof)),
                    None => StrategyResult::NeedsPieces(Vec::new()),
                };
                let _ = tx.send((result, queries));
            });
        }
        drop(tx);
        let mut reasons = Vec::new();
        let mut winner = None;
        for (r, q) in rx.iter() {
            queries += q;
            match r {
                StrategyResult::Done(LoopResult::Unknown(why)) => reasons.push(why),
                StrategyResult::Done(r) => {
                    race_cancel.cancel();
                    winner = Some(r);
                    break;
                }
                // (The checks of the guard's candidates again: nothing to add.)
                StrategyResult::NeedsPieces(t) if t.is_empty() => {}
                StrategyResult::NeedsPieces(_) => reasons.push("strategy stopped early".into()),
            }
        }
        // Drain the cancelled runs' query counts.
        for (_, q) in rx.iter() {
            queries += q;
        }
        winner.unwrap_or_else(|| LoopResult::Unknown(reasons.join(" / ")))
    });
    (result, queries)
}

/// Guard or order candidates whose check ran out of time, checked again in
/// turn, each with `share` of the time left (at most [`GUARD_RETRY_TIME`]):
/// the first proof.
fn check_again(
    cx: LoopContext<'_>,
    budget: &Budget,
    candidates: &[(usize, RankingCandidate, &'static str)],
    share: impl Fn(Duration) -> Duration,
    queries: &mut usize,
) -> Option<LoopProof> {
    for (k, candidate, strategy) in candidates {
        if budget.expired() {
            break;
        }
        let time = budget.remaining().map_or(GUARD_RETRY_TIME, &share).min(GUARD_RETRY_TIME);
        let t0 = Instant::now();
        let (proof, _) = check_guard_candidate(cx, budget, candidate, strategy, 300 + k, time, time, queries);
        if cx.opts.verbose {
            eprintln!("[loop {} guard again] {candidate}: {} ({:.2} s)", cx.li, if proof.is_some() { "decreases" } else { "no" }, t0.elapsed().as_secs_f64());
        }
        if proof.is_some() {
            return proof;
        }
    }
    None
}

/// The decrease check of a candidate read off the loop's guard or the
/// order of allocation (for a walk to newer blocks whose check ran out of
/// time, T_rank after it). The proof, and whether the last check ran out of time
/// rather than refuting the candidate.
#[allow(clippy::too_many_arguments)]
fn check_guard_candidate(
    cx: LoopContext<'_>,
    budget: &Budget,
    candidate: &RankingCandidate,
    strategy: &'static str,
    k: usize,
    decrease_time: Duration,
    rank_time: Duration,
    queries: &mut usize,
) -> (Option<LoopProof>, bool) {
    let mut run = StrategyRun::new(cx, Strategy::Piecewise, budget.clone(), false);
    let scheme = scheme_of(candidate);
    let mut proof = run.try_decrease(candidate, &scheme, 90 + k, decrease_time);
    // (Where the decrease check found an iteration that does not lower
    // the candidate, T_rank has so far never shown it: only after a time
    // out.)
    if proof.is_none() && run.last_timed_out && strategy == ORDER_OF_ALLOCATION && guards::climbs_allocation_order(cx.enc, candidate) && !budget.expired() {
        proof = run.try_check(Check::Rank, candidate, &scheme, 190 + k, rank_time);
    }
    *queries += run.queries;
    if let Some(p) = &mut proof {
        p.strategy = strategy;
    }
    (proof, run.last_timed_out)
}

/// What every strategy run on one loop shares.
#[derive(Clone, Copy)]
pub(super) struct LoopContext<'a> {
    pub(super) enc: &'a Encoding,
    pub(super) li: usize,
    pub(super) opts: &'a ProveOptions,
    pub(super) facts: &'a Facts,
    /// The model non-termination witnesses are searched and checked on,
    /// when a NO may be answered (the program model is exact where the
    /// loop's runs go).
    pub(super) no_model: Option<&'a Encoding>,
    /// The loop's place in the source (line, column), if it has one.
    pub(super) at: Option<(usize, usize)>,
    /// Execution's bound was tried for this loop already.
    pub(super) tried_hint: &'a std::sync::atomic::AtomicBool,
}

/// One strategy's refinement loop for one loop of the program.
struct StrategyRun<'a> {
    cx: LoopContext<'a>,
    strategy: Strategy,
    budget: Budget,
    single_piece_only: bool,
    var_names: Vec<String>,
    queries: usize,
    any_state_rounds: usize,
    /// The last check's engines ran out of time (no proof, no refutation).
    last_timed_out: bool,
}

impl<'a> StrategyRun<'a> {
    fn new(cx: LoopContext<'a>, strategy: Strategy, budget: Budget, single_piece_only: bool) -> Self {
        let var_names = cx.enc.vars.iter().map(|v| v.name.clone()).collect();
        StrategyRun { cx, strategy, budget, single_piece_only, var_names, queries: 0, any_state_rounds: 0, last_timed_out: false }
    }

    fn expired(&self) -> bool {
        self.budget.expired()
    }

    /// Fitting variables: C variables first (ranking functions read best over
    /// them), the front end's temporaries last.
    fn fit_vars(&self) -> Vec<String> {
        let mut v = self.var_names.clone();
        v.sort_by_key(|n| !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        v
    }

    fn run(&mut self, seed: Vec<Vec<HeaderVisit>>) -> StrategyResult {
        let mut builder = PieceBuilder::new(self.strategy.combination(), &self.fit_vars());
        let mut traces = seed;
        for t in &traces {
            builder.add_trace(&to_samples(t));
        }
        let mut candidate = builder.candidate();
        for iter in 0..self.cx.opts.max_refinements {
            if self.expired() {
                return StrategyResult::Done(LoopResult::Unknown("time limit".into()));
            }
            if self.single_piece_only && candidate.pieces.len() > 1 {
                return StrategyResult::NeedsPieces(traces);
            }
            // Tuple counters grow with the square of the pieces (nested
            // `ite`s of `⊖` and resets); past a handful the queries only
            // burn the time and memory the other strategies could use.
            if candidate.combination != Combination::Piecewise && candidate.pieces.len() > MAX_TUPLE_PIECES {
                return StrategyResult::Done(LoopResult::Unknown(format!(
                    "{} candidate with more than {MAX_TUPLE_PIECES} pieces ({candidate}); strategy stopped",
                    self.strategy.name()
                )));
            }
            let scheme = scheme_of(&candidate);
            if !candidate.is_zero() {
                if let Some(proof) = self.try_decrease(&candidate, &scheme, iter, SAMPLED_CHECK_TIME) {
                    return StrategyResult::Done(LoopResult::Ranked(proof));
                }
            }
            let t0 = Instant::now();
            let verdict = if self.cx.enc.too_large_whole() {
                // Sampling asks about the whole program from its start: on
                // a model this large no such query answered, and each one
                // normalized its own copy of the model (a gigabyte on a
                // product line's simulator). The candidate the runs seeded
                // goes to T_rank on the projection (`validate`).
                Sampled::Unknown("the model is too large to sample whole".into())
            } else {
                let inst = instrument(self.cx.enc, self.cx.li, &scheme, Mode::Term);
                let system = strengthen(&inst, self.cx.facts);
                self.emit(&system, iter, "term");
                self.sample_query(&inst, &system, &candidate, &scheme, iter)
            };
            self.log(&format!("T_term with {candidate}: {} ({:.2} s)", verdict.summary(), t0.elapsed().as_secs_f64()));
            match verdict {
                Sampled::Trace(visits) => {
                    if visits.is_empty() {
                        return StrategyResult::Done(LoopResult::Unknown("terminating trace without header visits".into()));
                    }
                    if self.cx.opts.verbose {
                        let shown: Vec<String> = visits
                            .iter()
                            .take(6)
                            .map(|v| {
                                let st: Vec<String> = v.state.iter().map(|(k, x)| format!("{k}={x}")).collect();
                                format!("({}) -> {}", st.join(" "), v.remaining)
                            })
                            .collect();
                        self.log(&format!("  samples: {}{}", shown.join(", "), if visits.len() > 6 { ", ..." } else { "" }));
                    }
                    builder.add_trace(&to_samples(&visits));
                    traces.push(visits);
                    let next = builder.candidate();
                    if next == candidate {
                        return StrategyResult::Done(LoopResult::Unknown(format!(
                            "no progress: the samples do not refine candidate {candidate}"
                        )));
                    }
                    candidate = next;
                }
                Sampled::NoneEscapes => return StrategyResult::Done(self.validate(candidate, scheme, iter)),
                Sampled::Ranked(proof) => return StrategyResult::Done(LoopResult::Ranked(*proof)),
                Sampled::Unknown(r) => {
                    // No sample and no proof that none exists: the candidate
                    // may still be a ranking function.
                    if candidate.is_zero() || self.expired() {
                        return StrategyResult::Done(LoopResult::Unknown(format!("T_term query: {r}")));
                    }
                    return StrategyResult::Done(match self.validate(candidate, scheme, iter) {
                        LoopResult::Unknown(r2) => LoopResult::Unknown(format!("T_term query: {r}; then {r2}")),
                        done => done,
                    });
                }
            }
        }
        StrategyResult::Done(LoopResult::Unknown(format!(
            "no ranking function after {} refinements (last candidate {candidate})",
            self.cx.opts.max_refinements
        )))
    }

    /// The cheap validation: is the candidate a classical ranking function
    /// (decreasing on every iteration from reachable states)? Only a quick
    /// look: failure sends the candidate on to T_term.
    fn try_decrease(&mut self, candidate: &RankingCandidate, scheme: &CounterScheme, iter: usize, time: Duration) -> Option<LoopProof> {
        self.try_check(Check::Decrease, candidate, scheme, iter, time)
    }

    /// One check of `candidate`, first on the projection (see
    /// [`Self::projection`]), then on the program.
    fn try_check(&mut self, check: Check, candidate: &RankingCandidate, scheme: &CounterScheme, iter: usize, time: Duration) -> Option<LoopProof> {
        let (small, projected_time, full_time) = self.projection(scheme, time);
        if let Some(small) = small {
            let proof = self.check_on(check, &small, &Facts::new(), candidate, scheme, iter, projected_time, "projected ");
            if proof.is_some() {
                return proof;
            }
        }
        if self.cx.enc.too_large_whole() {
            self.log(&format!("{candidate}: the model is too large to check whole"));
            return None;
        }
        self.check_on(check, self.cx.enc, self.cx.facts, candidate, scheme, iter, full_time, "")
    }

    /// The projection of the program onto what the candidate depends on
    /// (see `horn::project`), where it is much smaller, and how `time` is
    /// shared between a query on it and one on the program. On a loop
    /// around a whole inlined program the engine then looks for
    /// invariants over a few variables, not over a hundred. Queries on it
    /// go without the Houdini facts, which are inductive only all
    /// together; their proofs are checked on the whole program.
    fn projection(&self, scheme: &CounterScheme, time: Duration) -> (Option<Encoding>, Duration, Duration) {
        let seeds: BTreeSet<String> = scheme.pieces.iter().flat_map(|p| p.coeffs.keys().cloned()).collect();
        // On a program of hundreds of cut-points or a hundred variables (a
        // loop around a whole inlined product line) the check on the whole
        // program almost never ends in time; the projection gets the larger
        // share there.
        let large = self.cx.enc.cutpoints.len() > LARGE_PROGRAM_CUTPOINTS || self.cx.enc.vars.len() > LARGE_PROGRAM_VARS;
        let (projected_time, full_time) = if large { (time, time / 2) } else { (time / 2, time) };
        let small = crate::horn::project::smaller_projection(self.cx.enc, &seeds);
        (small, projected_time, full_time)
    }

    /// The decrease check or T_rank of `candidate` on `enc` (the program or
    /// a projection of it) within `time`, its certificate checked on the
    /// program: the proof when both agree, nothing concluded otherwise.
    #[allow(clippy::too_many_arguments)]
    fn check_on(
        &mut self,
        check: Check,
        enc: &Encoding,
        facts: &Facts,
        candidate: &RankingCandidate,
        scheme: &CounterScheme,
        iter: usize,
        time: Duration,
        what: &str,
    ) -> Option<LoopProof> {
        let (inst, name, shown) = match check {
            Check::Decrease => (crate::instrument::instrument_decrease(enc, self.cx.li, scheme), "decrease", "decrease"),
            Check::Rank => (instrument(enc, self.cx.li, scheme, Mode::Rank), "rank-quick", "quick T_rank"),
        };
        let system = strengthen(&inst, facts);
        self.emit(&system, iter, &format!("{}{name}", what.replace(' ', "-")));
        self.queries += 1;
        let quick = self.budget.sub_budget(time);
        let t0 = Instant::now();
        // On a projection (few variables, maybe hundreds of cut-points) the
        // comparisons Houdini tries are often all the invariant needed.
        let simple = if enc.vars.len() < self.cx.enc.vars.len() {
            let th = Instant::now();
            let r = crate::engine::houdini::solve(&system, &self.budget.sub_budget(QUICK_RANK_TIME));
            self.log(&format!("{what}houdini: {} ({:.2} s)", if r.is_some() { "safe" } else { "no" }, th.elapsed().as_secs_f64()));
            r
        } else {
            None
        };
        let verdict = match simple {
            Some(inv) => Verdict::Safe(inv),
            None => crate::engine::portfolio::prove_safe(&system, self.cx.opts.engine, &quick),
        };
        self.log(&format!("{what}{shown} with {candidate}: {} ({:.2} s)", verdict_summary(&verdict), t0.elapsed().as_secs_f64()));
        self.last_timed_out = matches!(verdict, Verdict::Unknown(_));
        let Verdict::Safe(inv) = verdict else { return None };
        let inv = with_facts(&inv, &inst, facts);
        let checked = match check {
            Check::Decrease => certificate::check_decrease(self.cx.enc, self.cx.li, scheme, &inv, &self.budget),
            Check::Rank => certificate::check_ranking(self.cx.enc, self.cx.li, scheme, &inv, &self.budget),
        };
        match checked {
            Ok(()) => Some(self.proof(candidate, scheme, &inst, &inv, check == Check::Decrease)),
            Err(e) => {
                self.log(&e);
                None
            }
        }
    }

    /// T_rank within `time` on the program.
    fn quick_rank(&mut self, candidate: &RankingCandidate, scheme: &CounterScheme, iter: usize, time: Duration) -> Option<LoopProof> {
        self.check_on(Check::Rank, self.cx.enc, self.cx.facts, candidate, scheme, iter, time, "")
    }

    /// The proof of this loop by `candidate`, checked with invariant `inv`
    /// of `inst` (`decreases`: by the decrease check, else by T_rank).
    fn proof(
        &self,
        candidate: &RankingCandidate,
        scheme: &CounterScheme,
        inst: &Instrumented,
        inv: &crate::solve::Invariant,
        decreases: bool,
    ) -> LoopProof {
        LoopProof {
            loop_index: self.cx.li,
            header: inst.header,
            span: None,
            ranking: candidate.clone(),
            invariant: crate::solve::interp_of(inv, inst.header_pred),
            scheme: scheme.clone(),
            strategy: self.strategy.name(),
            decreases,
            bound: None,
            nest_bound: None,
        }
    }

    /// T_rank: a safe answer is a ranking function (after the certificate
    /// check); an unsafe one a non-termination candidate.
    fn validate(&mut self, candidate: RankingCandidate, scheme: CounterScheme, iter: usize) -> LoopResult {
        if self.cx.enc.too_large_whole() {
            // T_rank on the projection only (see `try_check`), with the
            // time left: no NO comes from it (a failed check on a
            // projection is no run of the program).
            let time = self.budget.remaining().unwrap_or(LARGE_MODEL_RANK_TIME);
            return match self.try_check(Check::Rank, &candidate, &scheme, iter, time) {
                Some(proof) => LoopResult::Ranked(proof),
                None => LoopResult::Unknown(
                    "T_rank on the loop's projection did not prove the candidate ranking function (--verbose shows it), and the model is too large to check whole".into(),
                ),
            };
        }
        let inst = instrument(self.cx.enc, self.cx.li, &scheme, Mode::Rank);
        let system = strengthen(&inst, self.cx.facts);
        self.emit(&system, iter, "rank");
        self.queries += 1;
        let t0 = Instant::now();
        let verdict = crate::engine::portfolio::solve(&system, self.cx.opts.engine, &self.budget);
        self.log(&format!("T_rank with {candidate}: {} ({:.2} s)", verdict_summary(&verdict), t0.elapsed().as_secs_f64()));
        match verdict {
            Verdict::Safe(inv) => {
                let inv = with_facts(&inv, &inst, self.cx.facts);
                match certificate::check_ranking(self.cx.enc, self.cx.li, &scheme, &inv, &self.budget) {
                    Ok(()) => LoopResult::Ranked(self.proof(&candidate, &scheme, &inst, &inv, false)),
                    Err(e) => LoopResult::Unknown(e),
                }
            }
            Verdict::Unsafe(d) => {
                let Some(no_enc) = self.cx.no_model else {
                    // The candidate is in the model's words: --verbose shows
                    // it; the reason a user reads does not.
                    return LoopResult::Unknown(
                        "a candidate ranking function (--verbose shows it) does not bound every run, and the program model over-approximates, so no NO".into(),
                    );
                };
                let stem = stem_of(&inst, &self.var_names, &d);
                // Running the loop from the candidate state is cheap and
                // often returns to a state (a fixed point): try it first.
                let lasso = witness::simulated_lasso(no_enc, self.cx.li, Some(stem.clone()), &self.budget.sub_budget(LASSO_TIME))
                    .and_then(|w| witness::checked(no_enc, w, &self.budget));
                if let Ok(w) = lasso {
                    return LoopResult::NonTerminating(w, self.strategy.name());
                }
                match witness::find_witness(no_enc, self.cx.li, stem, self.cx.opts.engine, &self.budget) {
                    Ok(w) => match witness::checked(no_enc, w, &self.budget) {
                        Ok(w) => LoopResult::NonTerminating(w, self.strategy.name()),
                        Err(e) => LoopResult::Unknown(format!("non-termination witness rejected: {e}")),
                    },
                    Err(e) => LoopResult::Unknown(format!("a candidate ranking function (--verbose shows it) fails on some run; no witness: {e}")),
                }
            }
            Verdict::Unknown(r) => LoopResult::Unknown(format!("T_rank query: {r}")),
        }
    }

    /// T_term queries want a concrete trace fast: try bounded model checking
    /// briefly, then the proof engine.
    ///
    /// When no sample comes quickly, the candidate is often a ranking
    /// function already, and proving T_term safe (the exact bound at the
    /// exit) is much harder than T_rank (one iteration of slack): a short
    /// T_rank query comes first (3pieces: its last T_term query ran out of
    /// time after 4.6 s where T_rank needs 1 s).
    fn sample_query(
        &mut self,
        inst: &Instrumented,
        system: &crate::horn::System,
        candidate: &RankingCandidate,
        scheme: &CounterScheme,
        iter: usize,
    ) -> Sampled {
        self.queries += 1;
        let quick = self.budget.sub_budget(BMC_SAMPLE_TIME);
        if let Verdict::Unsafe(d) = crate::engine::portfolio::solve(system, EngineKind::Bmc, &quick) {
            return Sampled::Trace(samples::header_visits(inst, &self.var_names, &d));
        }
        if !candidate.is_zero() && !self.expired() {
            if let Some(proof) = self.quick_rank(candidate, scheme, iter, QUICK_RANK_TIME) {
                return Sampled::Ranked(Box::new(proof));
            }
        }
        // Every run from the start may be long: take short runs from any
        // header state instead (samples only; candidates are still checked
        // on the real program). A few rounds only, so that runs the start
        // cannot reach do not drive the refinement for long.
        if self.any_state_rounds < ANY_STATE_ROUNDS && !self.expired() {
            self.any_state_rounds += 1;
            self.queries += 1;
            let free = instrument(self.cx.enc, self.cx.li, scheme, Mode::AnyStateTerm);
            let quick = self.budget.sub_budget(Duration::from_millis(300));
            if let Verdict::Unsafe(d) = crate::engine::portfolio::solve(&strengthen(&free, self.cx.facts), EngineKind::Bmc, &quick) {
                let visits = samples::header_visits(&free, &self.var_names, &d);
                if !visits.is_empty() {
                    self.log("  (a run from a header state the start may not reach)");
                    return Sampled::Trace(visits);
                }
            }
        }
        if self.expired() {
            return Sampled::Unknown("time limit".into());
        }
        // Proving T_term safe can be much harder than validating the
        // candidate with T_rank (it needs the exact bound at the exit, where
        // T_rank allows one iteration of slack): keep time for T_rank.
        let share = self.budget.remaining().map_or(Duration::from_secs(4), |r| r.mul_f64(0.3).min(Duration::from_secs(4)));
        match crate::engine::portfolio::solve(system, self.cx.opts.engine, &self.budget.sub_budget(share)) {
            Verdict::Unsafe(d) => Sampled::Trace(samples::header_visits(inst, &self.var_names, &d)),
            Verdict::Safe(_) => Sampled::NoneEscapes,
            Verdict::Unknown(r) => Sampled::Unknown(r),
        }
    }

    fn log(&self, msg: &str) {
        if self.cx.opts.verbose {
            eprintln!("[loop {} {}] {msg}", self.cx.li, self.strategy.name());
        }
    }

    fn emit(&self, system: &crate::horn::System, iter: usize, what: &str) {
        if let Some(dir) = &self.cx.opts.emit_horn {
            let name = format!("loop{}-{}-{iter:02}-{what}.smt2", self.cx.li, self.strategy.name());
            let _ = std::fs::create_dir_all(dir);
            if let Err(e) = std::fs::write(dir.join(name), system.to_string()) {
                eprintln!("warning: cannot write Horn query to {}: {e}", dir.display());
            }
        }
    }
}

/// Time for the decrease check of a candidate from the synthesis, and of
/// one from samples (a quick look: failure sends it on to T_term).
/// Cut-points beyond which a program counts as large (see `projection`).
const LARGE_PROGRAM_CUTPOINTS: usize = 200;
const LARGE_PROGRAM_VARS: usize = 60;
const SYNTHESIS_CHECK_TIME: Duration = Duration::from_secs(3);
/// Time for the decrease check of a candidate read off the loop guard.
/// How a candidate is shown a ranking function by one query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// Every iteration decreases it (`instrument::decrease`).
    Decrease,
    /// T_rank: its counters bound every run.
    Rank,
}

/// The strategy name of a ranking function by the order of allocation.
const ORDER_OF_ALLOCATION: &str = "linear (order of allocation)";

/// Time for T_rank with a walk to newer blocks (a list built by
/// appending: 2 s for a plain walk alone, twice that beside another).
const ORDER_RANK_TIME: Duration = Duration::from_secs(6);

const GUARD_CHECK_TIME: Duration = Duration::from_secs(4);
/// The most time a guard or order candidate whose first check ran out of
/// time gets again, beside the sampling race.
const GUARD_RETRY_TIME: Duration = Duration::from_secs(12);
const SAMPLED_CHECK_TIME: Duration = Duration::from_millis(1500);
/// T_rank's time on the projection of a model too large to check whole,
/// when the caller set no time limit.
const LARGE_MODEL_RANK_TIME: Duration = Duration::from_secs(30);
/// Time for the T_rank query tried before a T_term query the quick engines
/// could not answer.
const QUICK_RANK_TIME: Duration = Duration::from_secs(1);

/// The bounded search for a sample of T_term. (A slice predicted from the
/// searches so far missed samples: the runs grow with the candidates, 2 to
/// 15 header visits on 3pieces, and each miss costs a quick T_rank.)
const BMC_SAMPLE_TIME: Duration = Duration::from_millis(300);

/// Most pieces a lexicographic or multiphase candidate may have (every
/// such proof on the benchmarks needed at most 4).
const MAX_TUPLE_PIECES: usize = 6;

/// The nice value the multiphase strategy races at. After the shared
/// single-piece phase, multiphase proved 1 of the 17 loops the race decided
/// on ../shared/bench/c (piecewise 11, lexicographic 5) while taking a third
/// of the processor: it now gets a small share while the other two run, and
/// all of it once they give up.
const MULTIPHASE_NICE: i32 = 10;

/// Rounds of any-header-state sampling per strategy run.
const ANY_STATE_ROUNDS: usize = 8;

/// What a T_term query gave.
enum Sampled {
    /// A terminating run that escapes the candidate, as header visits.
    Trace(Vec<HeaderVisit>),
    /// None exists: the candidate bounds every terminating run.
    NoneEscapes,
    /// No sample came quickly, and T_rank proved the candidate meanwhile.
    Ranked(Box<LoopProof>),
    Unknown(String),
}

impl Sampled {
    fn summary(&self) -> String {
        match self {
            Sampled::Trace(v) => format!("unsafe, {} header visits", v.len()),
            Sampled::NoneEscapes => "safe".into(),
            Sampled::Ranked(_) => "not asked: T_rank proved the candidate first".into(),
            Sampled::Unknown(r) => format!("unknown ({r})"),
        }
    }
}

fn verdict_summary(v: &Verdict) -> String {
    match v {
        Verdict::Safe(_) => "safe".into(),
        Verdict::Unsafe(d) => format!("unsafe, trace of {} steps", d.depth()),
        Verdict::Unknown(r) => format!("unknown ({r})"),
    }
}

fn to_samples(visits: &[HeaderVisit]) -> Vec<TerminatingSample> {
    visits.iter().map(|v| TerminatingSample { state: v.state.clone(), remaining: v.remaining.clone() }).collect()
}

/// The stem of a T_rank counterexample: the transitions and states from the
/// program start to the last state at the loop header.
fn stem_of(inst: &Instrumented, var_names: &[String], d: &crate::solve::Derivation) -> Vec<StemStep> {
    let mut stem = Vec::new();
    for n in d.chain() {
        if let Some(ClauseRole::Step { transition, .. }) = inst.roles.get(n.clause) {
            let mut state = crate::term::Valuation::new();
            for (name, v) in var_names.iter().zip(n.head_values.iter()) {
                state.insert(name.clone(), v.clone());
            }
            stem.push(StemStep { transition: *transition, state });
        }
    }
    stem
}
