//! Runs along a given path of transitions with the smallest values that
//! take it: what a person reads in a NO's stem and in a warning's inputs.
//!
//! An engine's counterexample carries whatever values its solver picked
//! (`x = -1326635786` where `x = -1` does as well). Here the path is
//! unrolled with a copy of the state per step, and every input (the
//! transitions' nondeterministic values and the state the run starts in)
//! bounded by 0, 1, 4, 16, ... in absolute value until the path can be
//! taken. Nothing here is trusted: a stem found so is checked again by the
//! certificate checker like any other.

use crate::horn::encode::Encoding;
use crate::solve::Budget;
use crate::term::{Term, Valuation};
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// A run along a path: the state after each step, and the inputs read, in
/// order, each with the program variable it was stored in.
pub struct SmallRun {
    pub states: Vec<Valuation>,
    pub inputs: Vec<(String, String)>,
}

/// Bounds beyond which the search gives up on small values (and takes any).
const LARGEST_BOUND: u64 = 1 << 40;

/// Most term nodes the unrolled path may have. The search is a nicety
/// (the run it would improve is already an answer), and a lasso of a
/// reactive protocol found by execution can be thousands of steps over
/// hundreds of variables: unrolled whole, its formula took gigabytes in Z3
/// before the solver's time limit could stop anything.
const MOST_UNROLLED_NODES: usize = 400_000;

/// The size of `path` unrolled: per step its constraint, its updates and a
/// copy of every variable.
fn unrolled_size(enc: &Encoding, path: &[usize]) -> Option<usize> {
    let mut total = 0usize;
    for &ti in path {
        let t = enc.transitions.get(ti)?;
        total += t.constraint.size() + t.post.iter().map(Term::size).sum::<usize>() + enc.vars.len();
        if total > MOST_UNROLLED_NODES {
            return None;
        }
    }
    Some(total)
}

/// Where a run along a path must end.
pub enum End<'a> {
    /// In a state that satisfies this set (over `enc.vars`).
    In(&'a Term),
    /// In the state it had after this many steps: a lasso.
    BackTo(usize),
}

/// The run along `path` (indices of `enc`'s transitions, the first from
/// the start) that ends as `end` says, with the smallest inputs found.
/// `None` when the path cannot be taken, the solver gives up or the
/// unrolling would be too large ([`MOST_UNROLLED_NODES`]).
pub fn smallest_run(enc: &Encoding, path: &[usize], end: End, budget: &Budget) -> Option<SmallRun> {
    unrolled_size(enc, path)?;
    let at = |k: usize| -> BTreeMap<String, Term> { enc.vars.iter().map(|v| (v.name.clone(), Term::var(format!("{}@{k}", v.name)))).collect() };
    let mut conj = Vec::new();
    // The state the run starts in is an input too (variables read before
    // they are written).
    let mut inputs: Vec<(String, Term)> = Vec::new();
    let mut bounded: Vec<Term> = at(0).into_values().collect();
    for (k, &ti) in path.iter().enumerate() {
        let t = enc.transitions.get(ti)?;
        let mut map = at(k);
        for l in &t.locals {
            map.insert(l.name.clone(), Term::var(format!("{}@{k}", l.name)));
        }
        conj.push(t.constraint.subst(&map));
        let next = at(k + 1);
        for (v, post) in enc.vars.iter().zip(&t.post) {
            conj.push(Term::eq(next[&v.name].clone(), post.subst(&map)));
        }
        for h in &t.havocs {
            // An input read into a temporary (`int x = f()`) is named by
            // the variable that keeps it past the step, where one does.
            let local = Term::var(h.local.clone());
            let kept = enc.vars.iter().zip(&t.post).find(|(v, post)| {
                **post == local && enc.program_vars.iter().any(|pv| pv.name == v.name && pv.origin == crate::ir::Origin::Source)
            });
            let into = kept.map_or_else(|| h.into.clone(), |(v, _)| v.name.clone());
            inputs.push((into, map[&h.local].clone()));
            bounded.push(map[&h.local].clone());
        }
        bounded.extend(t.choices.iter().map(|c| map[c].clone()));
    }
    let last = at(path.len());
    match end {
        End::In(set) => conj.push(set.subst(&last)),
        End::BackTo(k) => {
            let back = at(k);
            conj.extend(enc.vars.iter().map(|v| Term::eq(last[&v.name].clone(), back[&v.name].clone())));
        }
    }
    let _guard = budget.cancel.register_thread_context();
    let s = crate::smt::solver_for(budget);
    s.assert(crate::smt::bool_of(&Term::and(conj)));
    let mut bound = BigInt::from(0);
    loop {
        s.push();
        if bound < BigInt::from(LARGEST_BOUND) {
            let within: Vec<Term> =
                bounded.iter().flat_map(|x| [Term::le(x.clone(), Term::Int(bound.clone())), Term::ge(x.clone(), Term::Int(-bound.clone()))]).collect();
            s.assert(crate::smt::bool_of(&Term::and(within)));
        }
        match crate::smt::check(&s, budget) {
            crate::smt::Sat::Sat => {
                let model = s.get_model()?;
                let value = |t: &Term| crate::smt::eval_in(&model, t);
                let states = (1..=path.len())
                    .map(|k| at(k).into_iter().map(|(v, t)| value(&t).map(|x| (v, x))).collect::<Option<Valuation>>())
                    .collect::<Option<Vec<_>>>()?;
                let inputs = inputs.iter().map(|(into, t)| value(t).map(|x| (into.clone(), x.to_string()))).collect::<Option<Vec<_>>>()?;
                return Some(SmallRun { states, inputs });
            }
            _ if bound >= BigInt::from(LARGEST_BOUND) || budget.expired() => return None,
            _ => {}
        }
        s.pop(1);
        bound = if bound == BigInt::from(0) { BigInt::from(1) } else { bound * 4 };
    }
}
