//! Cheap invariants for the constraint-based synthesis (Houdini: start from
//! a fixed set of candidate facts at every node and drop, until none is
//! left to drop, each fact that some edge does not preserve).
//!
//! Two uses: sign and order facts at every cut-point of the program
//! (`x >= 0`, `x <= y`, ...), and loop-iteration summaries at the inner
//! cut-points of a loop, relating the state there to the header state at
//! the start of the iteration (`x = x#start`, `y >= y#start`, ...), which is
//! what makes an iteration of an outer loop one relation over header states.
//! The facts only shape candidates; proofs never rely on them unchecked.

use crate::engine::houdini::{comparisons, houdini, Edge};
use crate::solve::{Budget, Invariant};
use crate::horn::System;
use crate::instrument::{ClauseRole, Instrumented};
use crate::horn::encode::{Encoding, Source};
use crate::ir::LocId;
use crate::term::Term;
use std::collections::{BTreeMap, BTreeSet};

/// Name of the header-state copy in iteration summaries.
pub fn start_name(v: &str) -> String {
    format!("{v}#start")
}

const MAX_VARS_FOR_ORDER_FACTS: usize = 12;
const MAX_MINED_FACTS: usize = 40;
/// Candidate facts times transitions beyond which [`cutpoint_facts`] gives up
/// at once (email product lines: 400 candidates, 400 transitions, 7 s).
const MAX_FACT_WORK: usize = 60_000;

/// Sign and order facts at every cut-point of the program.
pub fn cutpoint_facts(enc: &Encoding, budget: &Budget) -> BTreeMap<LocId, Vec<Term>> {
    let xs: Vec<Term> = enc.vars.iter().map(|v| v.term()).collect();
    let mut atoms = Vec::new();
    for (i, x) in xs.iter().enumerate() {
        atoms.push(Term::ge(x.clone(), Term::int(0)));
        atoms.push(Term::le(x.clone(), Term::int(0)));
        atoms.push(Term::ge(x.clone(), Term::int(1)));
        // Order facts are quadratic in the variables: only for small states.
        if xs.len() > MAX_VARS_FOR_ORDER_FACTS {
            continue;
        }
        for y in &xs[i + 1..] {
            atoms.push(Term::ge(x.clone(), y.clone()));
            atoms.push(Term::le(x.clone(), y.clone()));
        }
    }
    // Mining only adds atoms: where the fixed shapes are already too much
    // work (see below), the mining (seconds on a reactive program of a
    // thousand paths) is not done either.
    if atoms.len() * enc.transitions.len() > MAX_FACT_WORK {
        return BTreeMap::new();
    }
    // The program's own comparisons (loop guards, branch conditions) and
    // their negations: bounds such as `x <= 10` that no fixed shape finds.
    let names: BTreeSet<&str> = enc.vars.iter().map(|v| v.name.as_str()).collect();
    let mut mined = BTreeSet::new();
    for t in &enc.transitions {
        comparisons(&t.constraint, &mut |a| {
            if a.is_linear() && a.free_vars().iter().all(|v| names.contains(v.name.as_str())) {
                mined.insert(a.clone());
            }
        });
    }
    for a in mined.into_iter().take(MAX_MINED_FACTS) {
        atoms.push(Term::not(a.clone()));
        atoms.push(a);
    }
    // On a program with a hundred variables and hundreds of transitions (an
    // inlined product line) Houdini does not finish in its budget and finds
    // nothing: skip it there.
    if atoms.len() * enc.transitions.len() > MAX_FACT_WORK {
        return BTreeMap::new();
    }
    let facts: BTreeMap<LocId, Vec<Term>> = enc.cutpoints.iter().map(|&c| (c, atoms.clone())).collect();
    let edges: Vec<Edge> = enc
        .transitions
        .iter()
        .map(|t| Edge {
            from: match t.from {
                Source::Start => None,
                Source::At(s) => Some(s),
            },
            to: t.to,
            context: t.constraint.clone(),
            source_subst: BTreeMap::new(),
            target_subst: enc.vars.iter().map(|v| v.name.clone()).zip(t.post.iter().cloned()).collect(),
        })
        .collect();
    houdini(facts, &edges, budget).unwrap_or_default()
}

/// Iteration summaries at the inner cut-points of loop `li`: facts over the
/// current state and the header state at the start of the iteration
/// (`x#start`), given the cut-point facts `at`.
pub fn iteration_summaries(
    enc: &Encoding,
    li: usize,
    at: &BTreeMap<LocId, Vec<Term>>,
    budget: &Budget,
) -> BTreeMap<LocId, Vec<Term>> {
    let lp = &enc.loops[li];
    let inner: Vec<LocId> = enc.cutpoints.iter().copied().filter(|&c| c != lp.header && lp.body.contains(&c)).collect();
    let mut atoms = Vec::new();
    for v in &enc.vars {
        let (x, x0) = (v.term(), Term::var(start_name(&v.name)));
        atoms.push(Term::eq(x.clone(), x0.clone()));
        atoms.push(Term::ge(x.clone(), x0.clone()));
        atoms.push(Term::le(x, x0));
    }
    let facts: BTreeMap<LocId, Vec<Term>> = inner.iter().map(|&c| (c, atoms.clone())).collect();
    let facts_at = |l: LocId| Term::and(at.get(&l).cloned().unwrap_or_default());
    let mut edges = Vec::new();
    for t in &enc.transitions {
        let Source::At(s) = t.from else { continue };
        if !inner.contains(&t.to) || !lp.body.contains(&s) {
            continue;
        }
        let mut target_subst: BTreeMap<String, Term> =
            enc.vars.iter().map(|v| v.name.clone()).zip(t.post.iter().cloned()).collect();
        let from = if s == lp.header {
            // The iteration starts here: the start state is the pre-state.
            for v in &enc.vars {
                target_subst.insert(start_name(&v.name), v.term());
            }
            None
        } else {
            Some(s)
        };
        edges.push(Edge { from, to: t.to, context: Term::and(vec![facts_at(s), t.constraint.clone()]), source_subst: BTreeMap::new(), target_subst });
    }
    houdini(facts, &edges, budget).unwrap_or_default()
}

/// Invariant facts per cut-point (inductive for the plain program).
pub type Facts = BTreeMap<LocId, Vec<Term>>;

/// The instrumented system with the facts assumed wherever a predicate is
/// used (and on the arbitrary header states of `Mode::AnyStateTerm`). The
/// facts hold on every reachable state, so no run is lost; the engines get
/// them for free instead of rediscovering them.
pub fn strengthen(inst: &Instrumented, facts: &Facts) -> System {
    let mut sys = inst.system.clone();
    let on = |pred: usize, args: &[Term]| -> Vec<Term> {
        let Some(loc) = inst.pred_loc.get(pred) else { return vec![] };
        let Some(fs) = facts.get(loc).filter(|f| !f.is_empty()) else { return vec![] };
        let names = &inst.system.preds[pred].params;
        let map: BTreeMap<String, Term> =
            names.iter().take(inst.n_vars).zip(args.iter()).map(|(p, a)| (p.name.clone(), a.clone())).collect();
        fs.iter().map(|f| f.subst(&map)).collect()
    };
    for (i, c) in sys.clauses.iter_mut().enumerate() {
        let mut extra: Vec<Term> = Vec::new();
        for app in &c.body {
            extra.extend(on(app.pred, &app.args));
        }
        if inst.roles.get(i) == Some(&ClauseRole::AnyEntry) {
            if let Some(h) = &c.head {
                extra.extend(on(h.pred, &h.args));
            }
        }
        if !extra.is_empty() {
            extra.insert(0, c.constraint.clone());
            c.constraint = Term::and(extra);
        }
    }
    sys
}

/// An invariant of the strengthened system, made one of the instrumented
/// system itself by conjoining the facts (inductive on their own).
pub fn with_facts(inv: &Invariant, inst: &Instrumented, facts: &Facts) -> Invariant {
    let interp = inv
        .interp
        .iter()
        .enumerate()
        .map(|(p, f)| {
            let mut conj = vec![f.clone()];
            if let Some(fs) = inst.pred_loc.get(p).and_then(|l| facts.get(l)) {
                conj.extend(fs.iter().cloned());
            }
            Term::and(conj)
        })
        .collect();
    Invariant { interp }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::horn::encode::encode;
    use std::time::Duration;

    #[test]
    fn facts_of_a_counting_loop() {
        let p = crate::c::parse_source(
            "t.c",
            "int main() { int i = 0, n = __VERIFIER_nondet_int(); if (n < 0) return 0; while (i < n) { i++; } return 0; }",
            crate::ir::IntSemantics::Math,
            crate::ir::MachineModel::lp64(),
        )
        .expect("lowers");
        let enc = encode(&p).expect("encodes");
        let at = cutpoint_facts(&enc, &Budget::with_timeout(Duration::from_secs(20)));
        let header = enc.loops[0].header;
        let facts = &at[&header];
        let (i, n) = (Term::var("i"), Term::var("n"));
        assert!(facts.contains(&Term::ge(i.clone(), Term::int(0))), "{facts:?}");
        assert!(facts.contains(&Term::le(i.clone(), n.clone())) || facts.contains(&Term::ge(n, i.clone())), "{facts:?}");
        assert!(!facts.contains(&Term::ge(i, Term::int(1))), "{facts:?}");
    }

    #[test]
    fn summary_of_an_inner_loop() {
        let p = crate::c::parse_source(
            "t.c",
            "int main() { int x = __VERIFIER_nondet_int(), y = 0;
               while (x > 0) { while (y < 10 && __VERIFIER_nondet_int()) { y++; } x--; } return 0; }",
            crate::ir::IntSemantics::Math,
            crate::ir::MachineModel::lp64(),
        )
        .expect("lowers");
        let enc = encode(&p).expect("encodes");
        let b = Budget::with_timeout(Duration::from_secs(20));
        let at = cutpoint_facts(&enc, &b);
        let outer = (0..enc.loops.len()).find(|&i| enc.loops[i].body.len() > enc.loops.iter().map(|l| l.body.len()).min().unwrap_or(0)).expect("outer loop");
        let sums = iteration_summaries(&enc, outer, &at, &b);
        let all: Vec<&Term> = sums.values().flatten().collect();
        // In the inner loop x is unchanged and y only grows.
        let (x, y) = (Term::var("x"), Term::var("y"));
        assert!(all.contains(&&Term::eq(x, Term::var(start_name("x")))), "{all:?}");
        assert!(all.contains(&&Term::ge(y, Term::var(start_name("y")))), "{all:?}");
    }
}
