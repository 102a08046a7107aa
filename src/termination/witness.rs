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
