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
use crate::engine::{Budget, EngineKind, Verdict};
use crate::horn::encode::{Encoding, Source};
use crate::horn::{Clause, PredApp, System};
use crate::smt::Sat;
use crate::term::{Term, Value};

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
            conj.extend(t.havocs.iter().map(|h| Term::eq(Term::var(h.clone()), Term::int(0))));
            constraint = Term::and(conj);
        }
        let head = preds.get(&t.to).map(|&q| PredApp { pred: q, args: t.post.clone() });
        let label = if head.is_some() { "a step inside the loop" } else { "leaving the loop" };
        sys.clauses.push(Clause { vars, body, constraint, head, label: label.into() });
        clause_transition.push(Some(ti));
    }
    match crate::engine::portfolio::solve(&sys, engine, budget) {
        Verdict::Safe(inv) => Search::Found(preds.iter().map(|(&c, &p)| (c, crate::engine::interp_of(&inv, p))).collect()),
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

/// The part of a transition's path condition that mentions only the
/// pre-state: a necessary condition for taking it.
pub(crate) fn pre_state_guard(t: &crate::horn::encode::Transition) -> Term {
    let locals: std::collections::BTreeSet<&str> = t.locals.iter().map(|l| l.name.as_str()).collect();
    Term::and(
        t.constraint
            .conjuncts()
            .into_iter()
            .filter(|c| c.free_vars().iter().all(|v| !locals.contains(v.name.as_str())))
            .collect(),
    )
}

/// A cheap non-termination check before any ranking function is sought:
/// take as candidate recurrent set the states that satisfy the loop's
/// iteration guard (the pre-state part of the path conditions of one
/// iteration), check that every such state has a successor in the set, and
/// find a reachable state in it. Catches loops that can always go on, also
/// when going on needs the right nondeterministic choices.
pub fn guard_recurrence(
    enc: &Encoding,
    loop_index: usize,
    engine: EngineKind,
    budget: &Budget,
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
    let set = Term::or(self_ts.iter().map(|&t| pre_state_guard(&enc.transitions[t])).collect());
    if recurrence_holds(enc, &self_ts, &set, budget) != Sat::Unsat {
        return Err("the iteration guard is not a recurrent set".into());
    }
    let stem = stem_into(enc, lp.header, &set, engine, budget)?;
    Ok(NonTerminationWitness { loop_index, stem, recurrent_set: set, inner_sets: Vec::new() })
}

/// A run from the program start to a state at `header` that satisfies `set`.
fn stem_into(enc: &Encoding, header: LocId, set: &Term, engine: EngineKind, budget: &Budget) -> Result<Vec<StemStep>, String> {
    let mut sys = enc.plain_system();
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
