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
    let counters: Vec<String> = p.vars.iter().map(|v| v.name.clone()).filter(|v| !relevant.contains(v) && is_counter(&p, v)).collect();
    relevant.extend(counters);
    for e in &mut p.edges {
        e.actions.retain(|a| match a {
            Action::Assign(v, _) | Action::Havoc(v) => relevant.contains(v),
            Action::Assume(_) => true,
        });
    }
    p.vars.retain(|v| relevant.contains(&v.name));
    p.edges = merge_parallel_tests(std::mem::take(&mut p.edges));
    p
}

fn relevant_variables(p: &Program) -> BTreeSet<String> {
    let mut relevant: BTreeSet<String> = BTreeSet::new();
    for e in &p.edges {
        for a in &e.actions {
            if let Action::Assume(t) = a {
                relevant.extend(t.free_vars().into_iter().map(|d| d.name));
            }
        }
    }
    loop {
        let before = relevant.len();
        for e in &p.edges {
            for a in &e.actions {
                if let Action::Assign(v, t) = a {
                    if relevant.contains(v) {
                        relevant.extend(t.free_vars().into_iter().map(|d| d.name));
                    }
                }
            }
        }
        if relevant.len() == before {
            return relevant;
        }
    }
}

/// Every assignment to `v` is a constant or `v + constant` (and it is
/// never havocked).
fn is_counter(p: &Program, v: &str) -> bool {
    p.edges.iter().flat_map(|e| &e.actions).all(|a| match a {
        Action::Havoc(x) => x != v,
        Action::Assign(x, t) if x == v => match t {
            Term::Int(_) => true,
            Term::App(crate::term::Op::Add, args) => {
                args.len() == 2
                    && args.iter().any(|a| matches!(a, Term::Var(n, _) if n == v))
                    && args.iter().any(|a| matches!(a, Term::Int(_)))
            }
            _ => false,
        },
        _ => true,
    })
}

fn merge_parallel_tests(edges: Vec<Edge>) -> Vec<Edge> {
    let only_tests = |e: &Edge| e.actions.iter().all(|a| matches!(a, Action::Assume(_)));
    let mut groups: BTreeMap<(usize, usize), Vec<Term>> = BTreeMap::new();
    let mut out = Vec::new();
    for e in edges {
        if only_tests(&e) {
            let cond = Term::and(e.actions.iter().filter_map(|a| if let Action::Assume(t) = a { Some(t.clone()) } else { None }).collect());
            groups.entry((e.from, e.to)).or_default().push(cond);
        } else {
            out.push(e);
        }
    }
    for ((from, to), conds) in groups {
        let cond = if conds.len() == 1 { conds.into_iter().next().unwrap_or(Term::tt()) } else { Term::or(conds) };
        let actions = if cond == Term::tt() { vec![] } else { vec![Action::Assume(cond)] };
        out.push(Edge { from, to, actions });
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::ir::IntSemantics;

    #[test]
    fn a_variable_that_never_reaches_a_condition_is_dropped() {
        let src = "int main() { int x = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int();\n\
                   while (n > 0) { x = x > 3 ? x - 1 : x + 1; n--; } return x; }";
        let p = super::drop_irrelevant(crate::c::parse_source("t.c", src, IntSemantics::Math).expect("lowers"));
        assert!(p.var("n").is_some());
        assert!(p.var("x").is_none(), "x only feeds itself: {:?}", p.vars);
    }

    #[test]
    fn a_variable_read_by_a_condition_stays() {
        let src = "int main() { int x = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int();\n\
                   while (n > 0) { x = x + n; n--; if (x > 10) n = 0; } return 0; }";
        let p = super::drop_irrelevant(crate::c::parse_source("t.c", src, IntSemantics::Math).expect("lowers"));
        assert!(p.var("x").is_some() && p.var("n").is_some());
    }

    #[test]
    fn an_irrelevant_counter_stays_for_the_fitter() {
        let src = "int main() { int x = __VERIFIER_nondet_int(); int c = 0;\n\
                   while (x > 1) { x = x / 2; c = c + 1; } return c; }";
        let p = super::drop_irrelevant(crate::c::parse_source("t.c", src, IntSemantics::Math).expect("lowers"));
        assert!(p.var("c").is_some(), "{:?}", p.vars);
    }
}
