//! Slicing: variables that never influence control flow are removed.
//!
//! A variable is *relevant* when an `assume` reads it, or when a relevant
//! variable is assigned from it. Every other variable only feeds other
//! irrelevant ones, so dropping its assignments changes no path the program
//! can take: termination (and every witness over the remaining variables)
//! is unchanged. This keeps computations that do not matter, such as a chain
//! of `x = x > k ? x - 1 : x + 1` beside a counting loop, away from the
//! engines.
//!
//! Counters are kept although irrelevant: a variable only ever set to a
//! constant or moved by a constant (`c = 0; ... c = c + 1`) costs nothing
//! and counts iterations, which the sampling fitter can use (`y - 2*c`).

use super::{Action, Edge, Program};
use crate::term::Term;
use std::collections::{BTreeMap, BTreeSet};

/// The program without its irrelevant variables, and with parallel edges
/// that only test conditions merged into one (a long `else if` chain whose
/// arms did only irrelevant work becomes one edge).
pub fn drop_irrelevant(mut p: Program) -> Program {
    let mut relevant = relevant_variables(&p);
    relevant.extend(counters(&p));
    for e in &mut p.edges {
        let keep: Vec<bool> = e
            .actions
            .iter()
            .enumerate()
            .map(|(i, a)| match a {
                Action::Assign(v, _) | Action::Havoc(v) | Action::Choose(v) => relevant.contains(v),
                Action::Inexact => true,
                // A recursion mark is no step; the summaries were
                // applied before slicing.
                Action::Mark(_) => false,
                // The domain of a value that does not matter goes with it.
                Action::Assume(_) => domain_of(&e.actions, i).is_none_or(|v| relevant.contains(v)),
            })
            .collect();
        let mut keep = keep.into_iter();
        e.actions.retain(|_| keep.next().unwrap_or(true));
    }
    p.vars.retain(|v| relevant.contains(&v.name));
    collapse_tests(&mut p);
    p
}

/// The program where a run ends as soon as no cycle (loop or recursion)
/// lies ahead of it: every edge into a location from which no cycle can be
/// reached goes to the exit instead (with its actions, so the runs that
/// take it are the program's), and the code after such locations goes.
///
/// An infinite run never enters such a location, so it takes only edges
/// that are unchanged: the infinite runs, and the states they start from,
/// are the program's. Every other run is finite in both. So termination
/// (and every witness) is unchanged, while a long loop-free tail (a
/// sequentialized program's final checks, thousands of `if`s) no longer
/// reaches the encoding. Reaching the exit now means "no loop left to run",
/// so the undefined-behaviour checks, which ask whether a point is
/// reached, do not use this.
pub fn end_where_no_cycle_is_left(mut p: Program) -> Program {
    let settled = p.no_cycle_ahead();
    let (entry, exit) = (p.entry, p.exit);
    let is_settled = |l: usize| settled.get(l).copied().unwrap_or(false);
    // Runs sent to the exit must end there.
    if !is_settled(exit) {
        return p;
    }
    p.edges.retain(|e| !is_settled(e.from));
    for e in &mut p.edges {
        if is_settled(e.to) {
            e.to = exit;
            // What the edge does after its last test cannot matter at the
            // exit; its tests decide whether it is taken, so they stay.
            let tested = e.actions.iter().rposition(|a| matches!(a, Action::Assume(_))).map_or(0, |i| i + 1);
            e.actions.truncate(tested);
        }
    }
    if is_settled(entry) && entry != exit {
        p.edges.push(Edge { from: entry, to: exit, actions: vec![] });
    }
    // The tests of the arms that went on alike now lead to the exit side
    // by side (a loop's exit test and each arm of the `if` after it): one
    // edge, before relevance is decided.
    p.edges = merge_parallel_tests(std::mem::take(&mut p.edges));
    p
}

/// Merge parallel test-only edges (`c` and `!c` to one target become one
/// empty edge) and bypass locations whose only way out is an empty edge,
/// until nothing changes: an `else if` chain whose arms did only irrelevant
/// work folds away from its last arm up. Loop headers, entry and exit stay.
fn collapse_tests(p: &mut Program) {
    let headers: BTreeSet<usize> = match super::find_loops(p) {
        Ok(loops) => loops.iter().map(|l| l.header).collect(),
        Err(_) => {
            p.edges = merge_parallel_tests(std::mem::take(&mut p.edges));
            return;
        }
    };
    loop {
        p.edges = merge_parallel_tests(std::mem::take(&mut p.edges));
        let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (i, e) in p.edges.iter().enumerate() {
            out.entry(e.from).or_default().push(i);
        }
        let bypass: BTreeMap<usize, usize> = out
            .iter()
            .filter(|(l, es)| {
                **l != p.entry && **l != p.exit && !headers.contains(l) && es.len() == 1 && {
                    let e = &p.edges[es[0]];
                    e.actions.is_empty() && e.to != **l
                }
            })
            .map(|(l, es)| (*l, p.edges[es[0]].to))
            .collect();
        if bypass.is_empty() {
            return;
        }
        // Follow each chain of bypassed locations to its end in one round
        // (a chain has no cycle: every cycle passes a loop header, which
        // is never bypassed; the bound is a guard all the same).
        let end_of = |mut l: usize| {
            for _ in 0..=bypass.len() {
                match bypass.get(&l) {
                    Some(&t) => l = t,
                    None => return Some(l),
                }
            }
            None
        };
        let mut changed = false;
        for e in &mut p.edges {
            if bypass.contains_key(&e.to) && e.from != e.to {
                if let Some(t) = end_of(e.to) {
                    e.to = t;
                    changed = true;
                }
            }
        }
        if !changed {
            return;
        }
        // Locations no edge enters any more lose their way out too.
        let entered: BTreeSet<usize> = p.edges.iter().map(|e| e.to).collect();
        p.edges.retain(|e| e.from == p.entry || entered.contains(&e.from) || !bypass.contains_key(&e.from));
    }
}

/// When `actions[i]` is an assumption that only gives the value just
/// havocked or chosen its domain (`lo <= v <= hi`, `v == a || v == b`), a
/// domain that is never empty: the variable. Such an assumption never
/// blocks a run, so it makes nothing relevant by itself.
fn domain_of(actions: &[Action], i: usize) -> Option<&str> {
    let (Some(Action::Assume(t)), Some(Action::Havoc(v) | Action::Choose(v))) = (actions.get(i), i.checked_sub(1).and_then(|j| actions.get(j))) else {
        return None;
    };
    let is_v = |x: &Term| matches!(x, Term::Var(n, _) if n == v);
    let never_empty = match t {
        // Both bounds constant, in order.
        Term::App(crate::term::Op::And, args) if args.len() == 2 => {
            match (&args[0], &args[1]) {
                (Term::App(crate::term::Op::Le, a), Term::App(crate::term::Op::Le, b)) if a.len() == 2 && b.len() == 2 => {
                    matches!((&a[0], &b[1]), (Term::Int(lo), Term::Int(hi)) if lo <= hi) && is_v(&a[1]) && is_v(&b[0])
                }
                _ => false,
            }
        }
        // Some disjunct names a value for it.
        Term::App(crate::term::Op::Or, args) => args.iter().any(|d| match d {
            Term::App(crate::term::Op::Eq, xy) if xy.len() == 2 => {
                (is_v(&xy[0]) && !xy[1].free_vars().iter().any(|d| d.name == *v))
                    || (is_v(&xy[1]) && !xy[0].free_vars().iter().any(|d| d.name == *v))
            }
            _ => false,
        }),
        _ => false,
    };
    never_empty.then_some(v.as_str())
}

fn relevant_variables(p: &Program) -> BTreeSet<String> {
    let mut relevant: BTreeSet<String> = BTreeSet::new();
    // What each variable's values are computed from (assignments, and the
    // domains of havocked values): followed once per variable from the
    // tests that steer runs, instead of sweeping every edge until nothing
    // changes (many sweeps on drivers with long def-use chains).
    let mut sources: BTreeMap<&str, Vec<&Term>> = BTreeMap::new();
    for e in &p.edges {
        for (i, a) in e.actions.iter().enumerate() {
            match a {
                Action::Assign(v, t) => sources.entry(v.as_str()).or_default().push(t),
                Action::Assume(t) => match domain_of(&e.actions, i) {
                    Some(v) => sources.entry(v).or_default().push(t),
                    None => relevant.extend(t.free_vars().into_iter().map(|d| d.name)),
                },
                Action::Havoc(_) | Action::Choose(_) | Action::Inexact | Action::Mark(_) => {}
            }
        }
    }
    let mut work: Vec<String> = relevant.iter().cloned().collect();
    while let Some(v) = work.pop() {
        for t in sources.get(v.as_str()).into_iter().flatten() {
            for d in t.free_vars() {
                if relevant.insert(d.name.clone()) {
                    work.push(d.name);
                }
            }
        }
    }
    relevant
}

/// The variables `v` that some assignment steps (`v + constant`) and every
/// other one sets to a constant (never havocked).
fn counters(p: &Program) -> BTreeSet<String> {
    let steps = |v: &str, t: &Term| {
        matches!(t, Term::App(crate::term::Op::Add, args)
            if args.len() == 2
                && args.iter().any(|a| matches!(a, Term::Var(n, _) if n == v))
                && args.iter().any(|a| matches!(a, Term::Int(_))))
    };
    // One pass over the actions (a variable-by-variable scan is quadratic
    // on drivers with thousands of variables): which variables are stepped
    // by a constant somewhere, and which are assigned otherwise.
    let mut moved = BTreeSet::new();
    let mut other = BTreeSet::new();
    for a in p.edges.iter().flat_map(|e| &e.actions) {
        match a {
            Action::Havoc(x) | Action::Choose(x) => {
                other.insert(x.as_str());
            }
            Action::Assign(x, t) if steps(x, t) => {
                moved.insert(x.as_str());
            }
            Action::Assign(_, Term::Int(_)) => {}
            Action::Assign(x, _) => {
                other.insert(x.as_str());
            }
            Action::Assume(_) | Action::Inexact | Action::Mark(_) => {}
        }
    }
    moved.difference(&other).map(|v| v.to_string()).collect()
}

/// The conjunction of `lits` (flattened) without the disequalities an
/// equality among them implies (`term::simplify::implied_disequalities`): the arm of
/// an `else if` chain keeps `x == 15`, not the fifteen tests it failed
/// before.
fn without_implied_disequalities(lits: Vec<Term>) -> Term {
    use crate::term::Op;
    // Every round of `collapse_tests` comes here for every test-only edge:
    // the conjuncts are taken over as shared nodes, not rebuilt.
    fn conjuncts(t: Term, out: &mut Vec<Term>) {
        match t {
            Term::App(Op::And, args) => args.iter().for_each(|a| conjuncts(a.clone(), out)),
            Term::Bool(true) => {}
            t => out.push(t),
        }
    }
    let mut flat = Vec::new();
    lits.into_iter().for_each(|t| conjuncts(t, &mut flat));
    let lits = flat;
    let implied = crate::term::simplify::implied_disequalities(&lits.iter().collect::<Vec<_>>());
    Term::and(lits.into_iter().zip(implied).filter(|(_, i)| !i).map(|(t, _)| t).collect())
}

fn merge_parallel_tests(edges: Vec<Edge>) -> Vec<Edge> {
    let only_tests = |e: &Edge| e.actions.iter().all(|a| matches!(a, Action::Assume(_)));
    let mut groups: BTreeMap<(usize, usize), Vec<Term>> = BTreeMap::new();
    let mut out = Vec::new();
    for e in edges {
        if only_tests(&e) {
            // The tests are moved, not copied: this runs on every edge
            // in every round of `collapse_tests`.
            let cond = without_implied_disequalities(
                e.actions.into_iter().filter_map(|a| if let Action::Assume(t) = a { Some(t) } else { None }).collect(),
            );
            groups.entry((e.from, e.to)).or_default().push(cond);
        } else {
            out.push(e);
        }
    }
    for ((from, to), conds) in groups {
        let cond = if conds.len() == 1 { conds.into_iter().next().unwrap_or(Term::tt()) } else { either(conds) };
        let actions = if cond == Term::tt() { vec![] } else { vec![Action::Assume(cond)] };
        out.push(Edge { from, to, actions });
    }
    out
}

/// The disjunction of `conds` (two or more), `common` alone when each is
/// `common` and something more and two of the more are complementary
/// (`c && x > 3`, `c && !(x > 3)`: a loop's exit test followed by an `if`
/// whose arms both went on alike).
fn either(conds: Vec<Term>) -> Term {
    let lists: Vec<Vec<Term>> = conds.iter().map(|c| c.conjuncts()).collect();
    let sets: Vec<BTreeSet<&Term>> = lists.iter().map(|l| l.iter().collect()).collect();
    let common: BTreeSet<&Term> = lists[0].iter().filter(|t| sets[1..].iter().all(|s| s.contains(t))).collect();
    let rests: Vec<Term> = lists.iter().map(|l| Term::and(l.iter().filter(|t| !common.contains(t)).cloned().collect())).collect();
    let rest_set: BTreeSet<&Term> = rests.iter().collect();
    if rest_set.contains(&Term::tt()) || rests.iter().any(|r| rest_set.contains(&Term::not(r.clone()))) {
        Term::and(common.into_iter().cloned().collect())
    } else {
        Term::or(conds)
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::IntSemantics;

    #[test]
    fn a_variable_that_never_reaches_a_condition_is_dropped() {
        let src = "int main() { int x = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int();\n\
                   while (n > 0) { x = x > 3 ? x - 1 : x + 1; n--; } return x; }";
        let p = super::drop_irrelevant(crate::c::parse_source("t.c", src, IntSemantics::Math, crate::ir::MachineModel::lp64()).expect("lowers"));
        assert!(p.var("n").is_some());
        assert!(p.var("x").is_none(), "x only feeds itself: {:?}", p.vars);
    }

    #[test]
    fn a_variable_read_by_a_condition_stays() {
        let src = "int main() { int x = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int();\n\
                   while (n > 0) { x = x + n; n--; if (x > 10) n = 0; } return 0; }";
        let p = super::drop_irrelevant(crate::c::parse_source("t.c", src, IntSemantics::Math, crate::ir::MachineModel::lp64()).expect("lowers"));
        assert!(p.var("x").is_some() && p.var("n").is_some());
    }

    #[test]
    fn an_irrelevant_counter_stays_for_the_fitter() {
        let src = "int main() { int x = __VERIFIER_nondet_int(); int c = 0;\n\
                   while (x > 1) { x = x / 2; c = c + 1; } return c; }";
        let p = super::drop_irrelevant(crate::c::parse_source("t.c", src, IntSemantics::Math, crate::ir::MachineModel::lp64()).expect("lowers"));
        assert!(p.var("c").is_some(), "{:?}", p.vars);
    }

    fn lower(src: &str) -> crate::ir::Program {
        crate::c::parse_source("t.c", src, IntSemantics::Math, crate::ir::MachineModel::lp64()).expect("lowers")
    }

    #[test]
    fn checks_after_the_last_loop_end_at_the_exit() {
        let src = "int main() { int a = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int(); int b = 0;\n\
                   while (n > 0) n--;\n\
                   if (a > 3) b = 1; else b = 2;\n\
                   if (b == 1 && a < 7) return 1;\n\
                   if (a == 5) { b = a; } return b; }";
        let p = super::drop_irrelevant(super::end_where_no_cycle_is_left(lower(src)));
        assert!(p.var("n").is_some(), "{p}");
        assert!(p.var("a").is_none() && p.var("b").is_none(), "only the tail reads a and b: {p}");
        assert_eq!(crate::ir::find_loops(&p).expect("reducible").len(), 1, "{p}");
        // Only the loop's edges and one way into it and out of it are left.
        assert!(p.edges.len() <= 4, "{p}");
    }

    #[test]
    fn what_decides_whether_a_loop_is_reached_stays() {
        let src = "int main() { int a = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int();\n\
                   if (a > 3) { while (n > 0) n = n - a; }\n\
                   if (a < 9) return 1; return 0; }";
        let p = super::drop_irrelevant(super::end_where_no_cycle_is_left(lower(src)));
        assert!(p.var("a").is_some() && p.var("n").is_some(), "{p}");
        // Without the cycle the whole program goes: one edge from entry to exit.
        let acyclic = super::drop_irrelevant(super::end_where_no_cycle_is_left(lower(
            "int main() { int a = __VERIFIER_nondet_int(); if (a > 3) a = 1; if (a < 9) return 1; return 0; }",
        )));
        assert_eq!(acyclic.edges.len(), 1, "{acyclic}");
        assert!(acyclic.edges[0].from == acyclic.entry && acyclic.edges[0].to == acyclic.exit && acyclic.vars.is_empty(), "{acyclic}");
    }

    #[test]
    fn an_else_if_chain_of_irrelevant_work_folds_away() {
        let mut src = String::from("int main() { int x = __VERIFIER_nondet_int(); int y = 0; int n = __VERIFIER_nondet_int();\n while (n > 0) { if (x < 0) y = 1;\n");
        for i in 0..40 {
            src.push_str(&format!(" else if (x == {i}) y = {};\n", i % 7));
        }
        src.push_str(" n--; }\n return 0; }\n");
        let p = super::drop_irrelevant(crate::c::parse_source("t.c", &src, IntSemantics::Math, crate::ir::MachineModel::lp64()).expect("lowers"));
        assert!(p.to_string().len() < 4_000, "{p}");
    }
}
