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

use crate::engine::{Budget, Invariant};
use crate::horn::System;
use crate::instrument::{ClauseRole, Instrumented};
use crate::horn::encode::{Encoding, Source};
use crate::ir::LocId;
use crate::smt::{bool_of, check, solver_for, Sat};
use crate::term::{Op, Sort, Term};
use std::collections::{BTreeMap, BTreeSet};

/// Name of the header-state copy in iteration summaries.
pub fn start_name(v: &str) -> String {
    format!("{v}#start")
}

/// One edge of a Houdini problem: from a node (or from nowhere: the facts
/// of the source are then only `context`) to a node, under `context`; the
/// target's facts are read through `target_subst`.
pub struct Edge {
    pub from: Option<LocId>,
    pub to: LocId,
    pub context: Term,
    pub target_subst: BTreeMap<String, Term>,
}

/// The greatest subset of each node's candidate facts that every edge
/// preserves. `None` when the solver gave up (out of time).
pub fn houdini(mut facts: BTreeMap<LocId, Vec<Term>>, edges: &[Edge], budget: &Budget) -> Option<BTreeMap<LocId, Vec<Term>>> {
    let _guard = budget.cancel.register_thread_context();
    // A worklist of edges: an edge needs another look only when the facts
    // at its source shrank (a smaller target set is still preserved). At
    // first only the edges from the start, and from nodes whose candidate
    // set is satisfiable, are queued: a node none of whose candidates has
    // been dropped yet holds contradictory candidates (`x >= 1`, `x <= 0`),
    // so the edges leaving it hold vacuously until its facts shrink, and
    // then they are queued. The checks then follow the program from its
    // start instead of the order of the edge list.
    let mut leaving: BTreeMap<LocId, Vec<usize>> = BTreeMap::new();
    for (i, e) in edges.iter().enumerate() {
        if let Some(f) = e.from {
            leaving.entry(f).or_default().push(i);
        }
    }
    let mut consistent: Vec<(Vec<Term>, bool)> = Vec::new();
    let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    let mut queued: Vec<bool> = vec![false; edges.len()];
    for (i, e) in edges.iter().enumerate() {
        let vacuous = match e.from {
            None => false,
            Some(f) => {
                let set = facts.get(&f).cloned().unwrap_or_default();
                let known = consistent.iter().find(|(s, _)| *s == set).map(|(_, c)| *c);
                let sat = known.unwrap_or_else(|| {
                    let solver = solver_for(budget);
                    solver.assert(bool_of(&Term::and(set.clone())));
                    // Unknown counts as satisfiable: the edge is checked.
                    let c = check(&solver, budget) != Sat::Unsat;
                    consistent.push((set, c));
                    c
                });
                !sat
            }
        };
        if !vacuous {
            queued[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        queued[i] = false;
        let e = &edges[i];
        // Building the queries is work outside Z3 too: stop on time.
        if budget.expired() {
            return None;
        }
        let Some(targets) = facts.get(&e.to).filter(|t| !t.is_empty()).cloned() else { continue };
        let mut pre = vec![e.context.clone()];
        if let Some(f) = e.from {
            pre.extend(facts.get(&f).cloned().unwrap_or_default());
        }
        let solver = solver_for(budget);
        solver.assert(bool_of(&Term::and(pre)));
        let mut kept: Vec<(Term, Term)> = targets.iter().map(|t| (t.clone(), t.subst(&e.target_subst))).collect();
        loop {
            if kept.is_empty() {
                break;
            }
            solver.push();
            solver.assert(bool_of(&Term::not(Term::and(kept.iter().map(|(_, t)| t.clone()).collect()))));
            let sat = check(&solver, budget);
            let model = if sat == Sat::Sat { solver.get_model() } else { None };
            solver.pop(1);
            match sat {
                Sat::Unsat => break,
                Sat::Unknown => return None,
                Sat::Sat => {}
            }
            let model = model?;
            let before = kept.len();
            kept.retain(|(_, t)| model.eval(&bool_of(t), true).and_then(|b| b.as_bool()) != Some(false));
            if kept.len() == before {
                // The model leaves every fact undetermined: give up on all.
                kept.clear();
            }
        }
        if kept.len() < targets.len() {
            facts.insert(e.to, kept.into_iter().map(|(t, _)| t).collect());
            for &j in leaving.get(&e.to).map(|v| v.as_slice()).unwrap_or(&[]) {
                if !queued[j] {
                    queued[j] = true;
                    queue.push_back(j);
                }
            }
        }
    }
    Some(facts)
}

const MAX_VARS_FOR_ORDER_FACTS: usize = 12;
const MAX_MINED_FACTS: usize = 40;

/// Every integer comparison inside `t`.
fn comparisons(t: &Term, f: &mut dyn FnMut(&Term)) {
    if let Term::App(op, args) = t {
        match op {
            Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq if args.iter().all(|a| a.sort() == Sort::Int) => f(t),
            _ => args.iter().for_each(|a| comparisons(a, f)),
        }
    }
}

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
        edges.push(Edge { from, to: t.to, context: Term::and(vec![facts_at(s), t.constraint.clone()]), target_subst });
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
