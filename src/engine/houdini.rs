//! Houdini (Flanagan and Leino): start from a fixed set of candidate facts
//! at every node and drop, until none is left to drop, each fact that some
//! edge does not preserve. What is left is the greatest inductive subset.
//!
//! Two uses: cheap invariants of the program model (`termination::invariants`)
//! and a quick engine for linear Horn systems whose invariants are simple
//! comparisons ([`solve`]): the decrease checks of loops around large
//! inlined bodies, where at every inner cut-point a counter equals its value
//! at the start of the iteration, are proved by Houdini in a fraction of
//! the time PDR needs to visit hundreds of predicates.

use crate::solve::{Budget, Invariant};
use crate::horn::System;
use crate::smt::{bool_of, check, solver_for, Sat};
use crate::term::{Op, Sort, Term};
use std::collections::{BTreeMap, BTreeSet};

/// Every integer comparison inside `t`.
pub fn comparisons(t: &Term, f: &mut dyn FnMut(&Term)) {
    if let Term::App(op, args) = t {
        match op {
            Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq if args.iter().all(|a| a.sort() == Sort::Int) => f(t),
            _ => args.iter().for_each(|a| comparisons(a, f)),
        }
    }
}


/// One edge of a Houdini problem: from a node (or from nowhere: the facts
/// of the source are then only `context`) to a node, under `context`; the
/// source's facts are read through `source_subst` and the target's through
/// `target_subst` (an empty map reads them as they are).
pub struct Edge {
    pub from: Option<Node>,
    pub to: Node,
    pub context: Term,
    pub source_subst: BTreeMap<String, Term>,
    pub target_subst: BTreeMap<String, Term>,
}

/// A node of a Houdini problem: a cut-point or a predicate.
pub type Node = usize;

/// The greatest subset of each node's candidate facts that every edge
/// preserves. `None` when the solver gave up (out of time).
pub fn houdini(mut facts: BTreeMap<Node, Vec<Term>>, edges: &[Edge], budget: &Budget) -> Option<BTreeMap<Node, Vec<Term>>> {
    let _guard = budget.cancel.register_thread_context();
    // A worklist of edges: an edge needs another look only when the facts
    // at its source shrank (a smaller target set is still preserved). At
    // first only the edges from the start, and from nodes whose candidate
    // set is satisfiable, are queued: a node none of whose candidates has
    // been dropped yet holds contradictory candidates (`x >= 1`, `x <= 0`),
    // so the edges leaving it hold vacuously until its facts shrink, and
    // then they are queued. The checks then follow the program from its
    // start instead of the order of the edge list.
    let mut leaving: BTreeMap<Node, Vec<usize>> = BTreeMap::new();
    for (i, e) in edges.iter().enumerate() {
        if let Some(f) = e.from {
            leaving.entry(f).or_default().push(i);
        }
    }
    // One solver for every check (push and pop): building one costs more
    // than most of the checks.
    let solver = solver_for(budget);
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
                    solver.push();
                    solver.assert(bool_of(&Term::and(set.clone())));
                    // Unknown counts as satisfiable: the edge is checked.
                    let c = check(&solver, budget) != Sat::Unsat;
                    solver.pop(1);
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
            pre.extend(facts.get(&f).into_iter().flatten().map(|t| t.subst(&e.source_subst)));
        }
        solver.push();
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
        solver.pop(1);
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


/// Comparison `a` (over a clause's variables) read over the parameters of a
/// predicate applied to `args`: each variable of `a` that is passed as an
/// argument becomes that parameter (every choice when it is passed twice,
/// at most a few readings); none when some variable is not passed.
fn over_parameters(a: &Term, args: &[Term], params: &[crate::term::VarDecl]) -> Vec<Term> {
    let mut at: BTreeMap<&str, Vec<Term>> = BTreeMap::new();
    for (p, arg) in params.iter().zip(args) {
        if let Term::Var(name, _) = arg {
            at.entry(name.as_str()).or_default().push(p.term());
        }
    }
    let mut readings: Vec<BTreeMap<String, Term>> = vec![BTreeMap::new()];
    for v in a.free_vars() {
        let Some(choices) = at.get(v.name.as_str()) else { return Vec::new() };
        let name = &v.name;
        readings = readings
            .iter()
            .flat_map(|m| {
                choices.iter().map(move |t| {
                    let mut m = m.clone();
                    m.insert(name.clone(), t.clone());
                    m
                })
            })
            .take(MAX_READINGS)
            .collect();
    }
    readings.iter().map(|m| a.subst(m)).collect()
}

/// Most readings of one comparison over a predicate's parameters.
const MAX_READINGS: usize = 4;

fn has_large_constant(t: &Term) -> bool {
    match t {
        Term::Int(c) => c.bits() > 16,
        Term::App(_, args) => args.iter().any(has_large_constant),
        _ => false,
    }
}

/// The large constants of `t` (see [`has_large_constant`]), at most a few.
fn large_constants(t: &Term, into: &mut BTreeSet<num_bigint::BigInt>) {
    match t {
        Term::Int(c) if c.bits() > 16 && into.len() < MAX_LARGE_CONSTANTS => {
            into.insert(c.clone());
        }
        Term::App(_, args) => args.iter().for_each(|a| large_constants(a, into)),
        _ => {}
    }
}

/// Most large constants tried as bounds of every parameter.
const MAX_LARGE_CONSTANTS: usize = 4;

/// Most parameters for which every pair gets order candidates.
const MAX_PARAMS_FOR_ORDER: usize = 16;
/// Most comparisons read off the clauses, per predicate.
const MAX_MINED: usize = 60;

/// A model of a linear Horn system made of comparisons, or `None` when the
/// candidates below do not make every query hold (or time runs out).
/// Candidates at a predicate, over its parameters: signs (`x >= 0`,
/// `x <= 0`, `x >= 1`), order between any two parameters (few parameters
/// only) and the program's own comparisons: those of each clause's
/// constraint, read over the parameters of the predicates the clause
/// applies, through their arguments (a variable passed as two arguments,
/// a value and its snapshot at the loop header, gives both readings).
/// The answer is an ordinary invariant: the caller validates it like any
/// engine's.
pub fn solve(system: &System, budget: &Budget) -> Option<Invariant> {
    solve_with(system, Ranges::Left, budget)
}

/// Whether [`solve_with`] also tries the ranges of the machine types.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ranges {
    /// Not as candidates: a decrease check or a T_rank query never needs
    /// them, and they double the candidates.
    Left,
    /// `x <= c` and `x >= c` for every parameter `x` and every large
    /// constant `c` of the clauses (`2147483647`): where every write is
    /// checked for overflow, each variable stays in its type's range, and
    /// an overflow check needs exactly that fact beside the program's own.
    Tried,
}

/// [`solve`], with the machine types' ranges as candidates or not.
pub fn solve_with(system: &System, ranges: Ranges, budget: &Budget) -> Option<Invariant> {
    solve_hinted(system, ranges, &BTreeMap::new(), budget)
}

/// [`solve_with`], with more candidates at some predicates (by index):
/// facts the caller has reason to expect, such as the counting facts of
/// ranked loops (`termination::counting`). Each is kept only where every
/// clause preserves it, like any candidate, and is carried along the
/// clauses like the program's own comparisons; those over a variable the
/// predicate does not have are left out.
pub fn solve_hinted(system: &System, ranges: Ranges, hints: &BTreeMap<usize, Vec<Term>>, budget: &Budget) -> Option<Invariant> {
    let inv = inductive_facts(system, ranges, hints, budget)?;
    blocks_queries(system, &inv, budget).then_some(inv)
}

/// The greatest inductive subset of the candidates of [`solve_hinted`],
/// whether or not it blocks the queries (an invariant of the reachable
/// states either way); `None` when time runs out.
pub fn inductive_facts(system: &System, ranges: Ranges, hints: &BTreeMap<usize, Vec<Term>>, budget: &Budget) -> Option<Invariant> {
    if system.clauses.iter().any(|c| c.body.len() > 1) {
        return None;
    }
    let mut mined: BTreeMap<usize, BTreeSet<Term>> = BTreeMap::new();
    for c in &system.clauses {
        let mut found = Vec::new();
        comparisons(&c.constraint, &mut |a| {
            // Range facts of the machine types (`x <= 2147483647`) hold or
            // fail on their own; the program's own comparisons are the
            // candidates worth their cost.
            if a.is_linear() && !has_large_constant(a) {
                found.push(a.clone());
            }
        });
        for app in c.body.iter().chain(c.head.as_ref()) {
            let into = mined.entry(app.pred).or_default();
            for a in &found {
                if into.len() >= MAX_MINED {
                    break;
                }
                into.extend(over_parameters(a, &app.args, &system.preds[app.pred].params));
            }
        }
    }
    // Carry each candidate along the clauses to the predicates they reach
    // (the loop's guard, read at its header, to the cut-points of the body,
    // which no clause's constraint mentions).
    let mut queue: std::collections::VecDeque<usize> = mined.keys().copied().collect();
    let mut queued: BTreeSet<usize> = queue.iter().copied().collect();
    while let Some(p) = queue.pop_front() {
        queued.remove(&p);
        let here: Vec<Term> = mined.get(&p).map(|m| m.iter().cloned().collect()).unwrap_or_default();
        for c in system.clauses.iter().filter(|c| c.body.first().is_some_and(|b| b.pred == p)) {
            let (Some(b), Some(h)) = (c.body.first(), c.head.as_ref()) else { continue };
            let from: BTreeMap<String, Term> =
                system.preds[p].params.iter().zip(&b.args).map(|(v, a)| (v.name.clone(), a.clone())).collect();
            let into = mined.entry(h.pred).or_default();
            let before = into.len();
            for a in &here {
                if into.len() >= MAX_MINED {
                    break;
                }
                into.extend(over_parameters(&a.subst(&from), &h.args, &system.preds[h.pred].params));
            }
            if into.len() > before && queued.insert(h.pred) {
                queue.push_back(h.pred);
            }
        }
    }
    let mut large = BTreeSet::new();
    if ranges == Ranges::Tried {
        for c in &system.clauses {
            large_constants(&c.constraint, &mut large);
        }
    }
    let mut facts: BTreeMap<Node, Vec<Term>> = BTreeMap::new();
    for (i, p) in system.preds.iter().enumerate() {
        let ints: Vec<Term> = p.params.iter().filter(|v| v.sort == Sort::Int).map(|v| v.term()).collect();
        let mut atoms: Vec<Term> = Vec::new();
        for (k, x) in ints.iter().enumerate() {
            atoms.push(Term::ge(x.clone(), Term::int(0)));
            atoms.push(Term::le(x.clone(), Term::int(0)));
            atoms.push(Term::ge(x.clone(), Term::int(1)));
            for c in &large {
                atoms.push(Term::le(x.clone(), Term::Int(c.clone())));
                atoms.push(Term::ge(x.clone(), Term::Int(c.clone())));
            }
            if ints.len() <= MAX_PARAMS_FOR_ORDER {
                for y in &ints[k + 1..] {
                    atoms.push(Term::ge(x.clone(), y.clone()));
                    atoms.push(Term::le(x.clone(), y.clone()));
                }
            }
        }
        for a in mined.get(&i).into_iter().flatten() {
            atoms.push(a.clone());
            atoms.push(Term::not(a.clone()));
        }
        let has = |t: &Term| t.free_vars().iter().all(|v| p.params.iter().any(|q| q.name == v.name));
        atoms.extend(hints.get(&i).into_iter().flatten().filter(|t| has(t)).cloned());
        let mut seen = BTreeSet::new();
        atoms.retain(|a| seen.insert(a.clone()));
        facts.insert(i, atoms);
    }
    let reads = |pred: usize, args: &[Term]| -> BTreeMap<String, Term> {
        system.preds[pred].params.iter().zip(args).map(|(p, a)| (p.name.clone(), a.clone())).collect()
    };
    let edges: Vec<Edge> = system
        .clauses
        .iter()
        .filter_map(|c| {
            let h = c.head.as_ref()?;
            let (from, source_subst) = match c.body.first() {
                Some(b) => (Some(b.pred), reads(b.pred, &b.args)),
                None => (None, BTreeMap::new()),
            };
            Some(Edge { from, to: h.pred, context: c.constraint.clone(), source_subst, target_subst: reads(h.pred, &h.args) })
        })
        .collect();
    let facts = houdini(facts, &edges, budget)?;
    let interp = (0..system.preds.len()).map(|i| Term::and(facts.get(&i).cloned().unwrap_or_default())).collect();
    Some(Invariant { interp })
}

/// Whether every query of `system` fails under `inv` (read at each query's
/// body).
pub fn blocks_queries(system: &System, inv: &Invariant, budget: &Budget) -> bool {
    system.clauses.iter().filter(|c| c.is_query()).all(|c| {
        let mut hyps = vec![c.constraint.clone()];
        for b in &c.body {
            let map: BTreeMap<String, Term> =
                system.preds[b.pred].params.iter().zip(&b.args).map(|(p, a)| (p.name.clone(), a.clone())).collect();
            hyps.push(inv.interp[b.pred].subst(&map));
        }
        let solver = solver_for(budget);
        solver.assert(bool_of(&Term::and(hyps)));
        check(&solver, budget) == Sat::Unsat
    })
}

/// `system` with `inv` (an inductive invariant of it) assumed wherever a
/// predicate is used: no run is lost, and an engine need not find `inv`
/// again. A model of the result conjoined with `inv` is one of `system`.
pub fn assuming(system: &System, inv: &Invariant) -> System {
    let mut out = system.clone();
    for c in &mut out.clauses {
        let mut extra: Vec<Term> = Vec::new();
        for b in &c.body {
            let map: BTreeMap<String, Term> =
                system.preds[b.pred].params.iter().zip(&b.args).map(|(p, a)| (p.name.clone(), a.clone())).collect();
            extra.push(inv.interp[b.pred].subst(&map));
        }
        if !extra.is_empty() {
            extra.insert(0, c.constraint.clone());
            c.constraint = Term::and(extra);
        }
    }
    out
}

/// The conjunction of two models of one system, predicate by predicate.
pub fn conjoined(a: &Invariant, b: &Invariant) -> Invariant {
    Invariant { interp: a.interp.iter().zip(&b.interp).map(|(x, y)| Term::and(vec![x.clone(), y.clone()])).collect() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::horn::smtlib::parse_system;

    /// Houdini proves the system, and its model passes validation.
    fn assert_proved(text: &str) {
        let sys = parse_system(text).expect("parses");
        let inv = solve(&sys, &Budget::unlimited()).expect("proved");
        assert_eq!(crate::engine::validate::validate(&sys, &crate::engine::Verdict::Safe(inv), &Budget::unlimited()), Ok(()));
    }

    #[test]
    fn a_counter_kept_through_an_inner_loop_is_proved() {
        // Header H(x, s), inner loop I(x, s): x is left alone inside, so
        // `x = s` at I is what the query needs.
        assert_proved(
            "(set-logic HORN)
             (declare-fun H (Int Int) Bool)
             (declare-fun I (Int Int) Bool)
             (assert (forall ((x Int)) (=> (>= x 0) (H x x))))
             (assert (forall ((x Int) (s Int)) (=> (H x s) (I x x))))
             (assert (forall ((x Int) (s Int) (y Int)) (=> (and (I x s) (> y 0)) (I x s))))
             (assert (forall ((x Int) (s Int)) (=> (and (I x s) (not (= x s))) false)))
             (check-sat)",
        );
    }

    #[test]
    fn the_guard_read_at_the_snapshot_reaches_the_cut_points_of_the_body() {
        // Header H(n, i, sn, si); the iteration takes the snapshot (sn, si)
        // under the guard `i < n - 1`; at C, inside the body, the query
        // needs `si < sn - 1`, which no clause into C mentions (the query
        // says it with constants too large to be mined).
        assert_proved(
            "(set-logic HORN)
             (declare-fun H (Int Int Int Int) Bool)
             (declare-fun B (Int Int Int Int) Bool)
             (declare-fun C (Int Int Int Int) Bool)
             (assert (forall ((n Int)) (=> (>= n 0) (H n 0 n 0))))
             (assert (forall ((n Int) (i Int) (sn Int) (si Int)) (=> (and (H n i sn si) (< i (- n 1))) (B n i n i))))
             (assert (forall ((n Int) (i Int) (sn Int) (si Int) (y Int)) (=> (and (B n i sn si) (> y 0)) (C n i sn si))))
             (assert (forall ((n Int) (i Int) (sn Int) (si Int)) (=> (C n i sn si) (H n (+ i 1) sn si))))
             (assert (forall ((n Int) (i Int) (sn Int) (si Int)) (=> (and (C n i sn si) (< (+ (- sn si) 100000) 100002)) false)))",
        );
    }

    #[test]
    fn a_query_that_holds_only_by_arithmetic_beyond_the_candidates_is_left_to_the_engines() {
        let sys = parse_system(
            "(set-logic HORN)
             (declare-fun H (Int) Bool)
             (assert (H 0))
             (assert (forall ((x Int)) (=> (H x) (H (+ x 2)))))
             (assert (forall ((x Int)) (=> (and (H x) (= x 7)) false)))
             (check-sat)",
        )
        .expect("parses");
        assert!(solve(&sys, &Budget::unlimited()).is_none());
    }
}
