//! Reading terminating samples and header states off instrumented traces.

use crate::solve::Derivation;
use crate::instrument::{ClauseRole, Instrumented, TransitionKind};
use crate::term::{Valuation, Value};
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// One header visit of a trace: the program state and the number of loop
/// iterations (transitions from the header into the body) still ahead in
/// the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderVisit {
    pub state: BTreeMap<String, BigInt>,
    pub remaining: BigInt,
}

/// The header visits of the last entry into the loop in a derivation of the
/// instrumented system, entry first. For a T_term trace these are the
/// terminating samples: the trace ends with the loop's exit.
pub fn header_visits(inst: &Instrumented, var_names: &[String], d: &Derivation) -> Vec<HeaderVisit> {
    let chain = d.chain();
    let role = |n: &Derivation| inst.roles.get(n.clause).copied();
    let start = chain
        .iter()
        .rposition(|n| matches!(role(n), Some(ClauseRole::Step { kind: TransitionKind::Entry, .. } | ClauseRole::AnyEntry)))
        .unwrap_or(0);
    let mut visits: Vec<(usize, BTreeMap<String, BigInt>)> = Vec::new();
    for (pos, n) in chain.iter().enumerate().skip(start) {
        let head_pred = inst.system.clauses.get(n.clause).and_then(|c| c.head.as_ref()).map(|h| h.pred);
        if head_pred == Some(inst.header_pred) {
            let mut state = BTreeMap::new();
            for (name, v) in var_names.iter().zip(n.head_values.iter()) {
                if let Value::Int(i) = v {
                    state.insert(name.clone(), i.clone());
                }
            }
            visits.push((pos, state));
        }
    }
    let decrement_positions: Vec<usize> = chain
        .iter()
        .enumerate()
        .filter(|(_, n)| matches!(role(n), Some(ClauseRole::Step { kind: TransitionKind::Decrement, .. }) | Some(ClauseRole::IterationError { .. })))
        .map(|(p, _)| p)
        .collect();
    visits
        .into_iter()
        .map(|(pos, state)| {
            // The transition that leaves this visit is at pos + 1.
            let remaining = decrement_positions.iter().filter(|&&p| p > pos).count();
            HeaderVisit { state, remaining: BigInt::from(remaining) }
        })
        .collect()
}

/// The states along a derivation chain, with the clause of each step: the
/// stem of a non-termination witness.
pub fn chain_states(inst: &Instrumented, var_names: &[String], d: &Derivation) -> Vec<(usize, Valuation)> {
    d.chain()
        .iter()
        .filter(|n| inst.system.clauses.get(n.clause).is_some_and(|c| c.head.is_some()))
        .map(|n| {
            let mut v = Valuation::new();
            for (name, val) in var_names.iter().zip(n.head_values.iter()) {
                v.insert(name.clone(), val.clone());
            }
            (n.clause, v)
        })
        .collect()
}
