//! Searching a recurrent set for a non-termination candidate found by T_rank.
//!
//! From the candidate state `η` at the loop header we ask a safety engine
//! whether any loop exit is reachable when the loop starts in `η`. If not,
//! the engine's invariant is closed under iterations and contains `η`: the
//! candidate recurrent set. It is accepted only if every state in it has a
//! successor in it (checked with Z3), and then again by the certificate
//! checker before NO is printed.

use super::certificate::{recurrence_holds, self_transitions, NonTerminationWitness, StemStep};
use crate::engine::{Budget, EngineKind, Verdict};
use crate::horn::encode::{Encoding, Source};
use crate::horn::{Clause, PredApp, System};
use crate::smt::Sat;
use crate::term::Term;

pub fn find_witness(
    enc: &Encoding,
    loop_index: usize,
    stem: Vec<StemStep>,
    engine: EngineKind,
    budget: &Budget,
) -> Result<NonTerminationWitness, String> {
    let lp = enc.loops.get(loop_index).ok_or("no such loop")?;
    let h = lp.header;
    let self_ts = self_transitions(enc, loop_index).ok_or("the loop has inner loops or join points (NO only for simple loops)")?;
    let eta = &stem.last().ok_or("empty stem")?.state;
    let mut sys = System::default();
    sys.comments.push(format!("non-termination check of loop {loop_index}: can the loop exit from the candidate state?"));
    let p = sys.add_pred("from_eta", enc.vars.clone());
    let xs: Vec<Term> = enc.vars.iter().map(|v| v.term()).collect();
    let mut eq = Vec::new();
    for v in &enc.vars {
        let val = eta.get(&v.name).ok_or("candidate state misses a variable")?;
        eq.push(Term::eq(v.term(), val.term()));
    }
    sys.clauses.push(Clause {
        vars: enc.vars.clone(),
        body: vec![],
        constraint: Term::and(eq),
        head: Some(PredApp { pred: p, args: xs.clone() }),
        label: "the candidate state".into(),
    });
    for (ti, t) in enc.transitions.iter().enumerate() {
        if t.from != Source::At(h) {
            continue;
        }
        let mut vars = enc.vars.clone();
        vars.extend(t.locals.iter().cloned());
        let body = vec![PredApp { pred: p, args: xs.clone() }];
        if self_ts.contains(&ti) {
            sys.clauses.push(Clause {
                vars,
                body,
                constraint: t.constraint.clone(),
                head: Some(PredApp { pred: p, args: t.post.clone() }),
                label: "one iteration".into(),
            });
        } else {
            sys.clauses.push(Clause { vars, body, constraint: t.constraint.clone(), head: None, label: "loop exit".into() });
        }
    }
    let set = match crate::engine::portfolio::solve(&sys, engine, budget) {
        Verdict::Safe(inv) => inv.interp.first().cloned().unwrap_or_else(Term::tt),
        Verdict::Unsafe(_) => return Err("the loop can exit from the candidate state".into()),
        Verdict::Unknown(r) => return Err(format!("recurrent set search: {r}")),
    };
    match recurrence_holds(enc, &self_ts, &set, budget) {
        Sat::Unsat => Ok(NonTerminationWitness { loop_index, stem, recurrent_set: set }),
        Sat::Sat => Err("some state of the candidate set has no successor in it".into()),
        Sat::Unknown => Err("recurrence check inconclusive".into()),
    }
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
    let self_ts = self_transitions(enc, loop_index).ok_or("not a simple loop")?;
    if self_ts.is_empty() {
        return Err("the loop has no iteration".into());
    }
    let set = Term::or(self_ts.iter().map(|&t| pre_state_guard(&enc.transitions[t])).collect());
    if recurrence_holds(enc, &self_ts, &set, budget) != Sat::Unsat {
        return Err("the iteration guard is not a recurrent set".into());
    }
    // A reachable state at the header inside the set.
    let mut sys = enc.plain_system();
    let header_pred = sys.pred_by_name(&enc.pred_name(lp.header)).ok_or("no header predicate")?;
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
    Ok(NonTerminationWitness { loop_index, stem, recurrent_set: set })
}
