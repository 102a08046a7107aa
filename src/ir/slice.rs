//! Slicing: variables that never influence control flow are removed.
//!
//! A variable is *relevant* when an `assume` reads it, or when a relevant
//! variable is assigned from it. Every other variable only feeds other
//! irrelevant ones, so dropping its assignments changes no path the program
//! can take: termination (and every witness over the remaining variables)
//! is unchanged. This keeps computations that do not matter, such as a chain
//! of `x = x > k ? x - 1 : x + 1` beside a counting loop, away from the
//! engines.

use super::{Action, Edge, Program};
use crate::term::Term;
use std::collections::{BTreeMap, BTreeSet};

/// The program without its irrelevant variables, and with parallel edges
/// that only test conditions merged into one (a long `else if` chain whose
/// arms did only irrelevant work becomes one edge).
pub fn drop_irrelevant(mut p: Program) -> Program {
    let relevant = relevant_variables(&p);
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
}
