//! Variables that are never live at the same time share one name.
//!
//! Inlining gives every call of a function its own copies of the callee's
//! locals (`f.x`, `f.x.2`, ...): a program whose loop calls a dozen small
//! functions from many places ends with hundreds of variables, each an
//! argument of every predicate, although only a few are live at any point.
//! As in register allocation, two variables that do not interfere (neither
//! is written while the other is live) can be one: the program's runs are
//! unchanged, and the engines see far fewer arguments. Only variables of one
//! type and one source name are merged, so that printed formulas keep the
//! program's names.

use super::liveness::{Bits, Liveness};
use super::{Action, Program};
use std::collections::BTreeMap;

/// The program with non-interfering variables of one source name and type
/// merged into the first of them.
pub fn coalesce_variables(mut p: Program) -> Program {
    let n = p.vars.len();
    if n < 2 {
        return p;
    }
    let Liveness { steps, live } = Liveness::of(&p);
    // Interference: a variable written while another is live after the write.
    let mut interferes = vec![Bits::new(n); n];
    for (e, edge_steps) in p.edges.iter().zip(&steps) {
        let mut l = live[e.to].clone();
        for s in edge_steps.iter().rev() {
            if let Some(w) = s.written {
                let mut others = l.clone();
                others.remove(w);
                interferes[w].union(&others);
                l.remove(w);
            }
            for &r in &s.reads {
                l.insert(r);
            }
        }
    }
    // Variables live at the entry hold their initial values together.
    let at_entry: Vec<usize> = live[p.entry].iter().collect();
    for &i in &at_entry {
        interferes[i].union(&live[p.entry]);
        interferes[i].remove(i);
    }
    // Symmetric closure.
    for i in 0..n {
        let row: Vec<usize> = interferes[i].iter().collect();
        for j in row {
            interferes[j].insert(i);
        }
    }
    // Greedy merging, in declaration order, within (source name, type).
    let mut classes: BTreeMap<(String, super::IntType), Vec<(usize, Bits)>> = BTreeMap::new();
    let mut rename: BTreeMap<String, String> = BTreeMap::new();
    for (i, v) in p.vars.iter().enumerate() {
        let group = classes.entry((v.source_name.clone(), v.ty)).or_default();
        match group.iter_mut().find(|(_, members)| !members.intersects(&interferes[i])) {
            Some((rep, members)) => {
                members.insert(i);
                rename.insert(v.name.clone(), p.vars[*rep].name.clone());
            }
            None => {
                let mut members = Bits::new(n);
                members.insert(i);
                group.push((i, members));
            }
        }
    }
    if rename.is_empty() {
        return p;
    }
    let subst: BTreeMap<String, crate::term::Term> =
        rename.iter().map(|(from, to)| (from.clone(), crate::term::Term::var(to.clone()))).collect();
    let renamed = |v: &String| rename.get(v).cloned().unwrap_or_else(|| v.clone());
    for e in &mut p.edges {
        for a in &mut e.actions {
            *a = match a {
                Action::Assume(t) => Action::Assume(t.subst(&subst)),
                Action::Assign(v, t) => Action::Assign(renamed(v), t.subst(&subst)),
                Action::Havoc(v) => Action::Havoc(renamed(v)),
                Action::Choose(v) => Action::Choose(renamed(v)),
                Action::Inexact => Action::Inexact,
                // Slicing dropped the marks; one left is no step at all.
                Action::Mark(m) => Action::Mark(m.clone()),
            };
        }
    }
    // A variable that now stands for locals of several functions belongs
    // to none of them: printed formulas may not give it a local's name.
    let function_of: BTreeMap<&String, &Option<String>> = p.vars.iter().map(|v| (&v.name, &v.function)).collect();
    let mixed: std::collections::BTreeSet<String> =
        rename.iter().filter(|(from, to)| function_of.get(from) != function_of.get(to)).map(|(_, to)| to.clone()).collect();
    p.vars.retain(|v| !rename.contains_key(&v.name));
    p.coalesced.extend(rename.into_iter());
    for v in &mut p.vars {
        if mixed.contains(&v.name) {
            v.function = Some(super::MIXED_FUNCTIONS.to_string());
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Edge, IntType, Variable};
    use crate::term::Term;

    fn var(name: &str, source: &str) -> Variable {
        Variable { name: name.into(), source_name: source.into(), ty: IntType::INT, function: None, origin: crate::ir::Origin::Source, renamed: None }
    }


    #[test]
    fn copies_of_a_local_from_two_calls_become_one_variable() {
        // f.x := 1; assume f.x > 0; f.x.2 := 2; assume f.x.2 > 1
        let gt = |v: &str, k: i64| Action::Assume(Term::lt(Term::int(k), Term::var(v)));
        let p = crate::ir::test_program(
            vec![var("f.x", "x"), var("f.x.2", "x")],
            3,
            vec![
                Edge { from: 0, to: 1, actions: vec![Action::Assign("f.x".into(), Term::int(1)), gt("f.x", 0)] },
                Edge { from: 1, to: 2, actions: vec![Action::Assign("f.x.2".into(), Term::int(2)), gt("f.x.2", 1)] },
            ],
        );
        let q = coalesce_variables(p);
        assert_eq!(q.vars.len(), 1);
        assert_eq!(q.edges[1].actions[0], Action::Assign("f.x".into(), Term::int(2)));
    }

    #[test]
    fn variables_live_together_stay_apart() {
        // a := 1; b := 2; assume a < b: both live at once.
        let p = crate::ir::test_program(
            vec![var("f.x", "x"), var("f.x.2", "x")],
            2,
            vec![Edge {
                from: 0,
                to: 1,
                actions: vec![
                    Action::Assign("f.x".into(), Term::int(1)),
                    Action::Assign("f.x.2".into(), Term::int(2)),
                    Action::Assume(Term::lt(Term::var("f.x"), Term::var("f.x.2"))),
                ],
            }],
        );
        assert_eq!(coalesce_variables(p).vars.len(), 2);
    }
}
