//! Searching a recurrent set for a non-termination candidate found by T_rank.
//!
//! From the candidate state `η` at the loop header we ask a safety engine
//! whether any loop exit is reachable when the loop starts in `η`. If not,
//! the engine's invariant is closed under iterations and contains `η`: the
//! candidate recurrent set. It is accepted only if every state in it has a
//! successor in it (checked with Z3), and then again by the certificate
//! checker before NO is printed.

use super::certificate::{loop_region, recurrence_holds, region_recurrence_holds, self_transitions, LoopRegion, NonTerminationWitness, StemStep};
use crate::ir::LocId;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;
use crate::engine::EngineKind;
use crate::solve::{Budget, Verdict};
use crate::horn::encode::{Encoding, Source};
use crate::horn::{Clause, PredApp, System};
use crate::smt::Sat;
use crate::term::{Term, Value};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};

pub fn find_witness(
    enc: &Encoding,
    loop_index: usize,
    stem: Vec<StemStep>,
    engine: EngineKind,
    budget: &Budget,
) -> Result<NonTerminationWitness, String> {
    let region = loop_region(enc, loop_index).ok_or("no such loop")?;
    // The search asks whether any run from the candidate state leaves the
    // loop; a witness only needs one run that stays. So the search follows
    // a strategy: first every input of the loop's body fixed at 0 (a
    // reactive loop that reaches an error on some inputs runs for ever on
    // others), then all inputs free; and when a run leaves the loop after
    // a step some other step could have replaced (a branch on an input),
    // that step is left out of the strategy and the search repeats. The
    // sets found are checked against every step of the loop below.
    let has_inputs = region.transitions.iter().any(|&t| !enc.transitions[t].havocs.is_empty());
    let modes: &[InputChoice] = if has_inputs { &[InputChoice::Zero, InputChoice::Any] } else { &[InputChoice::Any] };
    let mut failures = Vec::new();
    let mut found = None;
    'modes: for (m, &mode) in modes.iter().enumerate() {
        // Inputs at 0 is the likelier strategy: most of the time for it.
        let share = budget.remaining().map(|r| if m + 1 < modes.len() { r * 3 / 4 } else { r }).unwrap_or(Duration::from_secs(10));
        let mode_budget = budget.sub_budget(share);
        let mut left_out = BTreeSet::new();
        for _ in 0..MAX_STRATEGY_ROUNDS {
            match recurrent_sets(enc, &region, &stem, mode, &left_out, engine, &mode_budget) {
                Search::Found(sets) => {
                    found = Some(sets);
                    break 'modes;
                }
                Search::Leaves(path) => match avoidable_step(enc, &region, &left_out, &path, &mode_budget) {
                    Some(t) => {
                        left_out.insert(t);
                    }
                    None => {
                        failures.push(format!("{}: the loop can be left from the candidate state", mode.describe()));
                        continue 'modes;
                    }
                },
                Search::Failed(e) => {
                    failures.push(format!("{}: {e}", mode.describe()));
                    continue 'modes;
                }
            }
        }
        failures.push(format!("{}: no strategy that stays in the loop", mode.describe()));
    }
    let sets = found.ok_or_else(|| failures.join("; "))?;
    match region_recurrence_holds(enc, &region, &sets, budget) {
        Sat::Unsat => {
            let header = region.cutpoints[0];
            let recurrent_set = sets.get(&header).cloned().unwrap_or_else(Term::tt);
            let inner_sets = sets.into_iter().filter(|(c, _)| *c != header).collect();
            Ok(NonTerminationWitness { loop_index, stem, recurrent_set, inner_sets })
        }
        Sat::Sat => Err("some state of the candidate set has no successor in it".into()),
        Sat::Unknown => Err("recurrence check inconclusive".into()),
    }
}

/// Rounds of leaving steps out of the search's strategy.
const MAX_STRATEGY_ROUNDS: usize = 8;

/// How the loop's nondeterministic values are treated while searching.
#[derive(Clone, Copy, PartialEq, Eq)]
enum InputChoice {
    Any,
    Zero,
}

impl InputChoice {
    fn describe(self) -> &'static str {
        match self {
            InputChoice::Any => "with any inputs",
            InputChoice::Zero => "with the loop's inputs at 0",
        }
    }
}

enum Search {
    Found(BTreeMap<LocId, Term>),
    /// A run that leaves the loop: each step's transition and the state
    /// before it.
    Leaves(Vec<(usize, Vec<Value>)>),
    Failed(String),
}

/// From the stem's last state at the header, the engine's invariant (one
/// set per cut-point of the loop's region) of the runs that follow the
/// strategy (inputs per `inputs`, no transition of `left_out`), if none of
/// them leaves the region.
fn recurrent_sets(
    enc: &Encoding,
    region: &LoopRegion,
    stem: &[StemStep],
    inputs: InputChoice,
    left_out: &BTreeSet<usize>,
    engine: EngineKind,
    budget: &Budget,
) -> Search {
    let h = region.cutpoints[0];
    let Some(eta) = stem.last().map(|s| &s.state) else { return Search::Failed("empty stem".into()) };
    let mut sys = System::default();
    sys.comments.push("non-termination check of a loop: can the loop be left from the candidate state?".to_string());
    let preds: BTreeMap<LocId, usize> =
        region.cutpoints.iter().map(|&c| (c, sys.add_pred(format!("in_loop_L{c}"), enc.vars.clone()))).collect();
    let xs: Vec<Term> = enc.vars.iter().map(|v| v.term()).collect();
    let mut eq = Vec::new();
    for v in &enc.vars {
        let Some(val) = eta.get(&v.name) else { return Search::Failed("candidate state misses a variable".into()) };
        eq.push(Term::eq(v.term(), val.term()));
    }
    sys.clauses.push(Clause {
        vars: enc.vars.clone(),
        body: vec![],
        constraint: Term::and(eq),
        head: Some(PredApp { pred: preds[&h], args: xs.clone() }),
        label: "the candidate state".into(),
    });
    // Which transition each clause stands for.
    let mut clause_transition: Vec<Option<usize>> = vec![None];
    for (ti, t) in enc.transitions.iter().enumerate() {
        let Source::At(from) = t.from else { continue };
        let Some(&p) = preds.get(&from) else { continue };
        if left_out.contains(&ti) {
            continue;
        }
        let mut vars = enc.vars.clone();
        vars.extend(t.locals.iter().cloned());
        let body = vec![PredApp { pred: p, args: xs.clone() }];
        let mut constraint = t.constraint.clone();
        if inputs == InputChoice::Zero && !t.havocs.is_empty() {
            let mut conj = vec![constraint];
            conj.extend(t.havocs.iter().map(|h| Term::eq(Term::var(h.local.clone()), Term::int(0))));
            constraint = Term::and(conj);
        }
        let head = preds.get(&t.to).map(|&q| PredApp { pred: q, args: t.post.clone() });
        let label = if head.is_some() { "a step inside the loop" } else { "leaving the loop" };
        sys.clauses.push(Clause { vars, body, constraint, head, label: label.into() });
        clause_transition.push(Some(ti));
    }
    match crate::engine::portfolio::solve(&sys, engine, budget) {
        Verdict::Safe(inv) => Search::Found(preds.iter().map(|(&c, &p)| (c, crate::solve::interp_of(&inv, p))).collect()),
        Verdict::Unsafe(d) => {
            let chain = d.chain();
            let mut path = Vec::new();
            for k in 1..chain.len() {
                if let Some(Some(t)) = clause_transition.get(chain[k].clause) {
                    path.push((*t, chain[k - 1].head_values.clone()));
                }
            }
            Search::Leaves(path)
        }
        Verdict::Unknown(r) => Search::Failed(format!("recurrent set search: {r}")),
    }
}

/// The last step of a run leaving the loop that another step of the loop
/// (not left out) could replace in the same state: a step inside the loop
/// or the step that leaves it (a `break` on an input).
fn avoidable_step(enc: &Encoding, region: &LoopRegion, left_out: &BTreeSet<usize>, path: &[(usize, Vec<Value>)], budget: &Budget) -> Option<usize> {
    for (t, pre) in path.iter().rev() {
        let from = enc.transitions[*t].from;
        let state: BTreeMap<String, Term> = enc.vars.iter().map(|v| v.name.clone()).zip(pre.iter().map(|v| v.term())).collect();
        let alternative = region.transitions.iter().filter(|&&u| u != *t && !left_out.contains(&u) && enc.transitions[u].from == from).any(|&u| {
            let s = crate::smt::solver_for(budget);
            s.assert(crate::smt::bool_of(&enc.transitions[u].constraint.subst(&state)));
            crate::smt::check(&s, budget) == Sat::Sat
        });
        if alternative {
            return Some(*t);
        }
    }
    None
}


/// A cheap non-termination check before any ranking function is sought:
/// take as candidate recurrent set the states that satisfy the loop's
/// iteration guard (the pre-state part of the path conditions of one
/// iteration), check that every such state has a successor in the set, and
/// find a reachable state in it. Catches loops that can always go on, also
/// when going on needs the right nondeterministic choices.
///
/// When the guard alone is not recurrent (a state of it is stuck, but no
/// run gets there), the guard within `invariant`, facts that hold at the
/// header on every run, is tried too (the checker re-checks any witness).
pub fn guard_recurrence(
    enc: &Encoding,
    loop_index: usize,
    engine: EngineKind,
    budget: &Budget,
    invariant: &[Term],
) -> Result<NonTerminationWitness, String> {
    let lp = enc.loops.get(loop_index).ok_or("no such loop")?;
    let Some(self_ts) = self_transitions(enc, loop_index) else {
        // A loop with cut-points inside: from the first state that reaches
        // its header, search sets at all its cut-points that keep it going.
        let stem = stem_into(enc, lp.header, &Term::tt(), EngineKind::Bmc, budget)?;
        return find_witness(enc, loop_index, stem, engine, budget);
    };
    if self_ts.is_empty() {
        return Err("the loop has no iteration".into());
    }
    let guard = Term::or(self_ts.iter().map(|&t| enc.transitions[t].pre_state_guard()).collect());
    let within = Term::and(std::iter::once(guard.clone()).chain(invariant.iter().cloned()).collect());
    let set = if recurrence_holds(enc, &self_ts, &guard, budget) == Sat::Unsat {
        guard
    } else if !invariant.is_empty() && recurrence_holds(enc, &self_ts, &within, budget) == Sat::Unsat {
        within
    } else if let Some(side) = one_side_recurrent(enc, &self_ts, &within, budget) {
        side
    } else {
        return Err("the iteration guard is not a recurrent set".into());
    };
    let stem = stem_into(enc, lp.header, &set, engine, budget)?;
    Ok(NonTerminationWitness { loop_index, stem, recurrent_set: set, inner_sets: Vec::new() })
}

/// Disequalities of a guard tried one side at a time.
const MOST_SPLIT_DISEQUALITIES: usize = 4;

/// The guard (within the invariant) on one side of one of its
/// disequalities, where that is recurrent: `m != 0` is left at `m = 1`
/// after one step of `m - 1`, but `m < 0` never is (Ackermann called with a
/// negative `m`, `while (x != 0) x--` from a negative `x`).
fn one_side_recurrent(enc: &Encoding, trans: &[usize], within: &Term, budget: &Budget) -> Option<Term> {
    fn disequalities(t: &Term, out: &mut Vec<(Term, Term)>) {
        if let Term::App(op, args) = t {
            if *op == crate::term::Op::Not {
                if let Some(Term::App(crate::term::Op::Eq, ab)) = args.first() {
                    if ab.len() == 2 && ab[0].sort() == crate::term::Sort::Int && !out.contains(&(ab[0].clone(), ab[1].clone())) {
                        out.push((ab[0].clone(), ab[1].clone()));
                    }
                    return;
                }
            }
            args.iter().for_each(|a| disequalities(a, out));
        }
    }
    let mut found = Vec::new();
    disequalities(within, &mut found);
    for (a, b) in found.into_iter().take(MOST_SPLIT_DISEQUALITIES) {
        for side in [Term::lt(a.clone(), b.clone()), Term::gt(a.clone(), b.clone())] {
            if budget.expired() {
                return None;
            }
            let set = Term::and(vec![within.clone(), side]);
            if recurrence_holds(enc, trans, &set, budget) == Sat::Unsat {
                return Some(set);
            }
        }
    }
    None
}

/// Time for making a set found by running a loop more general, and for each
/// check while doing so.
const SEARCH_TIME: Duration = Duration::from_secs(1);
const GENERALIZE_TIME: Duration = Duration::from_secs(2);
const GENERALIZE_CHECK_TIME: Duration = Duration::from_millis(250);

/// States of a run beyond which its hull is tried before the states
/// themselves, and the time for checking the states themselves.
const LONG_RUN: usize = 64;
const EXACT_CHECK_TIME: Duration = Duration::from_secs(4);
const HULL_CHECK_TIME: Duration = Duration::from_secs(2);
/// Paths of a loop beyond which the states of a run are not generalized.
const MAX_GENERALIZED_PATHS: usize = 200;

/// Steps a run of the loop is followed for before [`simulated_lasso`] gives up.
const MAX_LASSO_STEPS: usize = 256;

/// A non-termination witness found by running the loop: from a reachable
/// state at the header where an iteration can start, the loop is run step
/// by step (nondeterministic values 0 where that allows a step, any value
/// otherwise) until a state repeats. The states met form the candidate
/// recurrent sets, one finite set per cut-point of the loop (each state has
/// its next one among them); they are checked like any other. Catches loops
/// that return to the same state, also where the step is non-linear or
/// wraps around (`x *= x` with `x == 1`, `y += 2 * input` with the input
/// 0), which costs the engines a long search.
pub fn simulated_lasso(enc: &Encoding, loop_index: usize, stem: Option<Vec<StemStep>>, budget: &Budget) -> Result<NonTerminationWitness, String> {
    let region = loop_region(enc, loop_index).ok_or("no such loop")?;
    let header = region.cutpoints[0];
    let stem = match stem {
        Some(s) => s,
        None => {
            let enters = Term::or(
                region
                    .transitions
                    .iter()
                    .filter(|&&t| enc.transitions[t].from == Source::At(header))
                    .map(|&t| enc.transitions[t].pre_state_guard())
                    .collect(),
            );
            let stem = stem_into(enc, header, &enters, EngineKind::Bmc, &budget.sub_budget(SEARCH_TIME))?;
            // The run from the smallest start that takes the same path
            // (the loop is followed from there: a small start makes a
            // small lasso).
            let path: Vec<usize> = stem.iter().map(|s| s.transition).collect();
            match super::smallest::smallest_run(enc, &path, super::smallest::End::In(&enters), &budget.sub_budget(GENERALIZE_TIME)) {
                Some(run) => path.into_iter().zip(run.states).map(|(transition, state)| StemStep { transition, state }).collect(),
                None => stem,
            }
        }
    };
    let first = stem.last().ok_or("empty stem")?;
    let start: Vec<Value> = enc.vars.iter().map(|v| first.state.get(&v.name).cloned()).collect::<Option<_>>().ok_or("the stem's state misses a variable")?;
    let searching = budget.sub_budget(SEARCH_TIME);
    let mut met: Vec<(LocId, Vec<Value>)> = vec![(header, start)];
    loop {
        let (at, state) = met.last().cloned().expect("met starts non-empty");
        let next = loop_step(enc, &region, at, &state, &searching)?;
        if met.contains(&next) {
            break;
        }
        if met.len() >= MAX_LASSO_STEPS {
            return Err(format!("no state repeats within {MAX_LASSO_STEPS} steps"));
        }
        met.push(next);
    }
    witness_from_run(enc, loop_index, stem, &met, budget)
}

/// The witness of a run of a loop that came back to a state it was in:
/// `stem` ends at the header in `met`'s first state, and `met` lists the
/// states of the cycle (each followed by the next, the last by one of
/// them), all at cut-points of the loop's region. The states met form the
/// candidate recurrent sets, which are then made general where they stay
/// recurrent.
pub fn witness_from_run(
    enc: &Encoding,
    loop_index: usize,
    stem: Vec<StemStep>,
    met: &[(LocId, Vec<Value>)],
    budget: &Budget,
) -> Result<NonTerminationWitness, String> {
    let region = loop_region(enc, loop_index).ok_or("no such loop")?;
    let header = region.cutpoints[0];
    let mut bounds = vec![Bound::Exact; enc.vars.len()];
    // A variable dead at a cut-point is written before it is read on every
    // path from there, so its value there does not change where a run goes:
    // dropping it keeps a set recurrent, and keeps the prover's
    // temporaries and other functions' locals out of the witness.
    let sets_for = |bounds: &[Bound], only_live: bool| -> BTreeMap<LocId, Term> {
        region
            .cutpoints
            .iter()
            .map(|&c| {
                let live = enc.live.get(c).filter(|_| only_live);
                let states = met.iter().filter(|(at, _)| *at == c).map(|(_, values)| {
                    Term::and(
                        enc.vars
                            .iter()
                            .zip(values)
                            .zip(bounds)
                            .filter(|((v, _), _)| live.is_none_or(|l| l.contains(&v.name)))
                            .filter_map(|((v, val), b)| b.constraint(v.term(), val.term()))
                            .collect(),
                    )
                });
                (c, Term::or(states.collect()))
            })
            .collect()
    };
    // A long run gives a long list of states; their hull per variable
    // (`i >= 1 && i <= 99 && i % 2 == 1`) reads better and is often
    // recurrent too. Made general per variable where it stays recurrent;
    // each check is short: with a value left free Z3 may need long.
    let from_hull = |only_live: bool, generalizing: &Budget| -> Option<NonTerminationWitness> {
        let check_sets = |sets: &BTreeMap<LocId, Term>| {
            region_recurrence_holds(enc, &region, sets, &generalizing.sub_budget(GENERALIZE_CHECK_TIME)) == Sat::Unsat
        };
        let hull = ValueHull::of(enc, &region.cutpoints, met, only_live);
        let mut bounds = vec![Bound::Exact; enc.vars.len()];
        // The first check decides whether the hull is recurrent at all:
        // the longer one.
        if region_recurrence_holds(enc, &region, &hull.sets(&bounds), &budget.sub_budget(HULL_CHECK_TIME)) != Sat::Unsat {
            return None;
        }
        for i in 0..bounds.len() {
            for weaker in [Bound::Free, Bound::AtLeast, Bound::AtMost] {
                if generalizing.expired() {
                    break;
                }
                let mut tried = bounds.clone();
                tried[i] = weaker;
                if check_sets(&hull.sets(&tried)) {
                    bounds = tried;
                    break;
                }
            }
        }
        let mut sets = hull.sets(&bounds);
        let recurrent_set = sets.remove(&header).unwrap_or_else(Term::tt);
        Some(NonTerminationWitness { loop_index, stem: stem.clone(), recurrent_set, inner_sets: sets.into_iter().collect() })
    };
    // A run of thousands of states: their disjunction is more than Z3
    // decides in time, the hull first.
    if met.len() > LONG_RUN {
        if let Some(w) = from_hull(true, &budget.sub_budget(GENERALIZE_TIME)) {
            return Ok(w);
        }
        // The hull per variable loses how the variables go together (which
        // node holds which message); the states grouped by the variables
        // of few values, each group with the hull of the others (a round
        // counter), keep that in a few disjuncts.
        let sets = grouped_hull(enc, &region.cutpoints, met);
        if region_recurrence_holds(enc, &region, &sets, &budget.sub_budget(EXACT_CHECK_TIME)) == Sat::Unsat {
            let mut sets = sets;
            let recurrent_set = sets.remove(&header).unwrap_or_else(Term::tt);
            return Ok(NonTerminationWitness { loop_index, stem, recurrent_set, inner_sets: sets.into_iter().collect() });
        }
    }
    let exact = budget.sub_budget(EXACT_CHECK_TIME);
    let only_live = region_recurrence_holds(enc, &region, &sets_for(&bounds, true), &exact) == Sat::Unsat;
    let sets_of = |bounds: &[Bound]| sets_for(bounds, only_live);
    let holds = if only_live { Sat::Unsat } else { region_recurrence_holds(enc, &region, &sets_of(&bounds), &exact) };
    match holds {
        Sat::Unsat => {
            // On a loop of hundreds of paths a set that is not a list of
            // states costs the checker seconds (a quantifier over every
            // path's inputs): the states themselves are the witness.
            if region.transitions.len() > MAX_GENERALIZED_PATHS {
                let sets = sets_of(&bounds);
                let recurrent_set = sets[&header].clone();
                let inner_sets = sets.into_iter().filter(|(c, _)| *c != header).collect();
                return Ok(NonTerminationWitness { loop_index, stem, recurrent_set, inner_sets });
            }
            let generalizing = budget.sub_budget(GENERALIZE_TIME);
            if met.len() > 4 && met.len() <= LONG_RUN {
                if let Some(w) = from_hull(only_live, &generalizing) {
                    return Ok(w);
                }
            }
            let check_sets = |sets: &BTreeMap<LocId, Term>| {
                region_recurrence_holds(enc, &region, sets, &generalizing.sub_budget(GENERALIZE_CHECK_TIME)) == Sat::Unsat
            };
            let check = |bounds: &[Bound]| check_sets(&sets_of(bounds));
            // Variables that are not the program's (temporaries, the model's
            // bookkeeping) are left free first.
            let not_the_programs: BTreeSet<&str> =
                enc.program_vars.iter().filter(|v| v.origin.is_internal()).map(|v| v.name.as_str()).collect();
            let internal: Vec<Bound> =
                enc.vars.iter().map(|v| if not_the_programs.contains(v.name.as_str()) { Bound::Free } else { Bound::Exact }).collect();
            if internal.contains(&Bound::Free) && check(&internal) {
                bounds = internal;
            }
            for i in 0..bounds.len() {
                if bounds[i] == Bound::Free {
                    continue;
                }
                for weaker in [Bound::Free, Bound::AtLeast, Bound::AtMost] {
                    if generalizing.expired() {
                        break;
                    }
                    let mut tried = bounds.clone();
                    tried[i] = weaker;
                    if check(&tried) {
                        bounds = tried;
                        break;
                    }
                }
            }
            let sets = sets_of(&bounds);
            let recurrent_set = sets[&header].clone();
            let inner_sets = sets.into_iter().filter(|(c, _)| *c != header).collect();
            Ok(NonTerminationWitness { loop_index, stem, recurrent_set, inner_sets })
        }
        Sat::Sat => Err("a state of the run has no successor among the states met".into()),
        Sat::Unknown => Err("recurrence check of the run inconclusive".into()),
    }
}

/// Per cut-point and variable, the values a run of a loop met there: their
/// least and greatest value and the gcd of their distances.
struct ValueHull {
    /// cut-point -> per variable (name, least, greatest, stride); `None`
    /// for a variable left out (dead there).
    at: BTreeMap<LocId, Vec<Option<(Term, BigInt, BigInt, BigInt)>>>,
}

impl ValueHull {
    fn of(enc: &Encoding, cutpoints: &[LocId], met: &[(LocId, Vec<Value>)], only_live: bool) -> ValueHull {
        let mut at = BTreeMap::new();
        for &c in cutpoints {
            let live = enc.live.get(c).filter(|_| only_live);
            let states: Vec<&Vec<Value>> = met.iter().filter(|(l, _)| *l == c).map(|(_, v)| v).collect();
            let per_var = enc
                .vars
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    if live.is_some_and(|l| !l.contains(&v.name)) {
                        return None;
                    }
                    let values: Vec<&BigInt> = states.iter().map(|s| s[i].as_int()).collect::<Option<_>>()?;
                    let lo = (*values.iter().min()?).clone();
                    let hi = (*values.iter().max()?).clone();
                    let stride = values.iter().fold(BigInt::zero(), |g, x| g.gcd(&(*x - &lo)));
                    Some((v.term(), lo, hi, stride))
                })
                .collect();
            at.insert(c, per_var);
        }
        ValueHull { at }
    }

    /// The sets: per variable its hull (`Exact`), one of its bounds, or
    /// nothing.
    fn sets(&self, bounds: &[Bound]) -> BTreeMap<LocId, Term> {
        self.at
            .iter()
            .map(|(&c, vars)| {
                let mut conj = Vec::new();
                for (part, b) in vars.iter().zip(bounds) {
                    let Some((v, lo, hi, stride)) = part else { continue };
                    let low = || Term::le(Term::int(lo.clone()), v.clone());
                    let high = || Term::le(v.clone(), Term::int(hi.clone()));
                    match b {
                        Bound::Exact if lo == hi => conj.push(Term::eq(v.clone(), Term::int(lo.clone()))),
                        Bound::Exact => {
                            conj.push(low());
                            conj.push(high());
                            if stride > &BigInt::one() {
                                let r = lo.mod_floor(stride);
                                conj.push(Term::eq(Term::modulo(v.clone(), Term::int(stride.clone())), Term::int(r)));
                            }
                        }
                        Bound::AtLeast => conj.push(low()),
                        Bound::AtMost => conj.push(high()),
                        Bound::Free => {}
                    }
                }
                (c, Term::and(conj))
            })
            .collect()
    }
}

/// Distinct values beyond which [`grouped_hull`] takes a variable's hull.
const WIDE: usize = 16;

/// Per cut-point, the states met there (live variables only) grouped by
/// the values of the variables that take at most [`WIDE`] values there:
/// each group those values and, per other variable, the hull of its
/// values in the group (least, greatest, stride).
fn grouped_hull(enc: &Encoding, cutpoints: &[LocId], met: &[(LocId, Vec<Value>)]) -> BTreeMap<LocId, Term> {
    cutpoints
        .iter()
        .map(|&c| {
            let live = enc.live.get(c);
            let states: Vec<&Vec<Value>> = met.iter().filter(|(l, _)| *l == c).map(|(_, v)| v).collect();
            let vars: Vec<usize> = (0..enc.vars.len()).filter(|&i| live.is_none_or(|l| l.contains(&enc.vars[i].name))).collect();
            let wide: BTreeSet<usize> = vars
                .iter()
                .copied()
                .filter(|&i| states.iter().map(|s| &s[i]).collect::<BTreeSet<_>>().len() > WIDE && states.iter().all(|s| s[i].as_int().is_some()))
                .collect();
            let mut groups: BTreeMap<Vec<&Value>, Vec<&Vec<Value>>> = BTreeMap::new();
            for s in &states {
                groups.entry(vars.iter().filter(|i| !wide.contains(i)).map(|&i| &s[i]).collect()).or_default().push(s);
            }
            let disjuncts = groups.into_values().map(|group| {
                let mut conj = Vec::new();
                for &i in &vars {
                    let v = enc.vars[i].term();
                    if !wide.contains(&i) {
                        conj.push(Term::eq(v, group[0][i].term()));
                        continue;
                    }
                    let values: Vec<&BigInt> = group.iter().filter_map(|s| s[i].as_int()).collect();
                    let (Some(lo), Some(hi)) = (values.iter().min().map(|x| (*x).clone()), values.iter().max().map(|x| (*x).clone())) else { continue };
                    let stride = values.iter().fold(BigInt::zero(), |g, x| g.gcd(&(*x - &lo)));
                    if lo == hi {
                        conj.push(Term::eq(v, Term::int(lo)));
                        continue;
                    }
                    conj.push(Term::le(Term::int(lo.clone()), v.clone()));
                    conj.push(Term::le(v.clone(), Term::int(hi)));
                    if stride > BigInt::one() {
                        conj.push(Term::eq(Term::modulo(v, Term::int(stride.clone())), Term::int(lo.mod_floor(&stride))));
                    }
                }
                Term::and(conj)
            });
            (c, Term::or(disjuncts.collect()))
        })
        .collect()
}

/// What a set found by running a loop keeps of a variable's value in each
/// state met.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    AtLeast,
    AtMost,
    Free,
}

impl Bound {
    fn constraint(self, var: Term, value: Term) -> Option<Term> {
        match self {
            Bound::Exact => Some(Term::eq(var, value)),
            Bound::AtLeast => Some(Term::ge(var, value)),
            Bound::AtMost => Some(Term::le(var, value)),
            Bound::Free => None,
        }
    }
}

/// One step of the loop's region from `state` at cut-point `at`: the
/// cut-point and state reached. Nondeterministic values are 0 where some
/// step allows it; a step that leaves the region is an error.
fn loop_step(enc: &Encoding, region: &LoopRegion, at: LocId, state: &[Value], budget: &Budget) -> Result<(LocId, Vec<Value>), String> {
    let pre: BTreeMap<String, Term> = enc.vars.iter().map(|v| v.name.clone()).zip(state.iter().map(|v| v.term())).collect();
    let steps: Vec<usize> = region.transitions.iter().copied().filter(|&t| enc.transitions[t].from == Source::At(at)).collect();
    for inputs in [InputChoice::Zero, InputChoice::Any] {
        for &ti in &steps {
            let t = &enc.transitions[ti];
            let mut conj = vec![t.constraint.subst(&pre)];
            if inputs == InputChoice::Zero {
                conj.extend(t.havocs.iter().map(|h| &h.local).chain(&t.choices).map(|h| Term::eq(Term::var(h.clone()), Term::int(0))));
            }
            let s = crate::smt::solver_for(budget);
            s.assert(crate::smt::bool_of(&Term::and(conj)));
            match crate::smt::check(&s, budget) {
                Sat::Sat => {}
                Sat::Unsat => continue,
                Sat::Unknown => return Err("a step of the run is undecided".into()),
            }
            let model = s.get_model().ok_or("no model for a step of the run")?;
            let post: Option<Vec<Value>> = t.post.iter().map(|e| crate::smt::eval_in(&model, &e.subst(&pre))).collect();
            return Ok((t.to, post.ok_or("a value of the run is undecided")?));
        }
    }
    let shown: Vec<String> = enc.vars.iter().zip(state).map(|(v, val)| format!("{} = {val}", v.name)).collect();
    Err(format!("the run leaves the loop from {}", shown.join(", ")))
}

/// A run from the program start to a state at `header` that satisfies `set`.
pub(super) fn stem_into(enc: &Encoding, header: LocId, set: &Term, engine: EngineKind, budget: &Budget) -> Result<Vec<StemStep>, String> {
    let mut sys = enc.plain_system();
    // Only this query: the plain system's own (the exit reached) would
    // answer with a run to the exit.
    sys.clauses.retain(|c| c.head.is_some());
    let header_pred = sys.pred_by_name(&enc.pred_name(header)).ok_or("no header predicate")?;
    let xs: Vec<Term> = enc.vars.iter().map(|v| v.term()).collect();
    sys.clauses.push(Clause {
        vars: enc.vars.clone(),
        body: vec![PredApp { pred: header_pred, args: xs }],
        constraint: set.clone(),
        head: None,
        label: "query: a header state in the candidate recurrent set".into(),
    });
    let d = match crate::engine::portfolio::solve(&sys, engine, budget) {
        Verdict::Unsafe(d) => d,
        Verdict::Safe(_) => return Err("no reachable state satisfies the iteration guard".into()),
        Verdict::Unknown(r) => return Err(format!("stem search: {r}")),
    };
    let n = enc.transitions.len();
    let stem: Vec<StemStep> = d
        .chain()
        .iter()
        .filter(|node| node.clause < n)
        .map(|node| StemStep {
            transition: node.clause,
            state: enc.vars.iter().map(|v| v.name.clone()).zip(node.head_values.iter().cloned()).collect(),
        })
        .collect();
    Ok(stem)
}

/// The witness as the certificate checker accepts it: without what its sets
/// say about dead variables (see [`without_dead_variables`]) where that
/// passes, else as found.
pub fn checked(enc: &Encoding, w: NonTerminationWitness, budget: &Budget) -> Result<NonTerminationWitness, String> {
    let slim = without_dead_variables(enc, &w);
    // The slimmer witness only reads better: a short look.
    let w = if slim != w && super::certificate::check_witness(enc, &slim, &budget.sub_budget(GENERALIZE_TIME)).is_ok() {
        slim
    } else {
        super::certificate::check_witness(enc, &w, budget)?;
        w
    };
    Ok(with_smallest_stem(enc, w, budget))
}

/// The witness with the stem along the same transitions but with the
/// smallest inputs found (see [`super::smallest`]), where the certificate
/// checker accepts it; else as it is. Only reads better: a short look.
fn with_smallest_stem(enc: &Encoding, w: NonTerminationWitness, budget: &Budget) -> NonTerminationWitness {
    let short = budget.sub_budget(GENERALIZE_TIME);
    let path: Vec<usize> = w.stem.iter().map(|s| s.transition).collect();
    let Some(run) = super::smallest::smallest_run(enc, &path, super::smallest::End::In(&w.recurrent_set), &short) else { return w };
    let stem: Vec<StemStep> = path.iter().zip(run.states).map(|(&transition, state)| StemStep { transition, state }).collect();
    if stem == w.stem {
        return w;
    }
    let small = NonTerminationWitness { stem, ..w.clone() };
    if super::certificate::check_witness(enc, &small, &short).is_ok() {
        small
    } else {
        w
    }
}

/// The witness with what its sets say about variables dead at their
/// cut-point left out (every conjunct that mentions one, also inside
/// disjuncts), so that it no longer speaks of the prover's temporaries or
/// of other functions' locals. A dead variable is written before it is read
/// on every path from there: projecting it out keeps a set recurrent.
/// Dropping a conjunct that also constrains live variables is weaker than
/// that projection and may not, so the caller checks the result like any
/// witness and keeps the original if it fails.
pub fn without_dead_variables(enc: &Encoding, w: &NonTerminationWitness) -> NonTerminationWitness {
    let region_header = enc.loops.get(w.loop_index).map(|l| l.header);
    let slim = |at: Option<LocId>, set: &Term| match at.and_then(|c| enc.live.get(c)) {
        Some(live) => live_part(set, live),
        None => set.clone(),
    };
    NonTerminationWitness {
        loop_index: w.loop_index,
        stem: w.stem.clone(),
        recurrent_set: slim(region_header, &w.recurrent_set),
        inner_sets: w.inner_sets.iter().map(|(c, s)| (*c, slim(Some(*c), s))).collect(),
    }
}

fn live_part(set: &Term, live: &BTreeSet<String>) -> Term {
    use crate::term::Op;
    match set {
        Term::App(Op::And, args) => Term::and(
            args.iter()
                .filter(|a| a.free_vars().iter().all(|v| live.contains(&v.name)))
                .map(|a| live_part(a, live))
                .collect(),
        ),
        Term::App(Op::Or, args) => Term::or(args.iter().map(|a| live_part(a, live)).collect()),
        _ => set.clone(),
    }
}
