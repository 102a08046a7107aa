//! Conditions on the values read inside a loop (an event loop under
//! `while (1)`, which the entry state does not decide): for a variable an
//! input is read into, the conditions over it alone with which the loop can
//! be left right after the read, each assumed after every such read and
//! proved on the re-encoded model (see [`super::Place::EveryRead`]).

use super::{all_ranked, names, Place, Precondition, PreconditionSource};
use crate::horn::encode::Encoding;
use crate::ir::{Action, LocId, Program};
use crate::solve::Budget;
use crate::term::Term;
use crate::termination::ProveOptions;
use std::collections::BTreeSet;

/// Conditions tried on the values read inside a loop, at most.
const READ_CANDIDATES: usize = 6;

/// A condition on every value one input inside loop `li` gives, under
/// which the program model (with the condition assumed after each read of
/// that input inside the loop) gets YES: the first that is proved among the
/// conditions, over the value alone, with which a path leaves the loop
/// after the read (`more == 0` for `while (1) { more = read(); if (!more
/// && idle) break; ... }`). Not said to be the weakest: a run may end
/// with other values too.
pub(super) fn inputs_restricted(program: &Program, enc: &Encoding, li: usize, opts: &ProveOptions, budget: &Budget) -> Option<Precondition> {
    let l = enc.loops.get(li)?;
    let names = names(enc);
    let leaves = leaving_points(program, l);
    let in_loop = |e: &crate::ir::Edge| l.body.contains(&e.from);
    // The inputs read inside the loop, in program order, each once (a
    // read is copied onto every path of a large block through it).
    let mut inputs: Vec<&String> = Vec::new();
    for a in program.edges.iter().filter(|e| in_loop(e)).flat_map(|e| &e.actions) {
        if let Action::Havoc(v) = a {
            if names.get(v).is_some() && !inputs.contains(&v) {
                inputs.push(v);
            }
        }
    }
    let mut tried = 0;
    for v in inputs {
        for condition in leaving_conditions(program, l, &leaves, v) {
            if tried >= READ_CANDIDATES || budget.expired() {
                return None;
            }
            tried += 1;
            let mut model = program.clone();
            for e in model.edges.iter_mut().filter(|e| l.body.contains(&e.from)) {
                let reads: Vec<usize> = e.actions.iter().enumerate().filter(|(_, a)| matches!(a, Action::Havoc(x) if x == v)).map(|(i, _)| i).collect();
                for i in reads.into_iter().rev() {
                    e.actions.insert(i + 1, Action::Assume(condition.clone()));
                }
            }
            // Steps whose own conditions on the value read contradict the
            // restriction are dropped before the model is encoded: on an
            // event loop around a large step function (eca-rers), only the
            // way out is left, and the proof does not wade through the rest.
            model.edges.retain(|e| !l.body.contains(&e.from) || !read_contradicts(e, v, budget));
            let Ok(restricted) = crate::horn::encode::encode(&model) else { continue };
            let ok = all_ranked(&restricted, opts, budget);
            if opts.verbose {
                eprintln!("[precondition] every value read into {v} with {condition}: {}", if ok { "proved" } else { "not proved" });
            }
            if ok {
                let at = program.locations.get(l.header).and_then(|loc| loc.span.clone());
                return Some(Precondition {
                    loop_index: li,
                    place: Place::EveryRead { var: v.clone(), at, condition },
                    cases: Vec::new(),
                    witness_outside: false,
                    weakest: false,
                    source: PreconditionSource::LeftAtRead,
                    names,
                });
            }
        }
    }
    None
}

/// Whether a read into `v` on edge `e` is followed by conditions on `v`
/// alone (before `v` is written again) that no value satisfies.
fn read_contradicts(e: &crate::ir::Edge, v: &str, budget: &Budget) -> bool {
    let mut on_v: Vec<Term> = Vec::new();
    let mut reading = false;
    for a in &e.actions {
        match a {
            Action::Havoc(x) if x == v => {
                if !on_v.is_empty() && unsatisfiable(&on_v, budget) {
                    return true;
                }
                on_v.clear();
                reading = true;
            }
            Action::Assign(x, _) | Action::Choose(x) if x == v => {
                if !on_v.is_empty() && unsatisfiable(&on_v, budget) {
                    return true;
                }
                on_v.clear();
                reading = false;
            }
            Action::Assume(g) if reading => {
                on_v.extend(g.conjuncts().into_iter().filter(|c| c.free_vars().iter().map(|d| d.name.as_str()).eq([v])));
            }
            _ => {}
        }
    }
    !on_v.is_empty() && unsatisfiable(&on_v, budget)
}

fn unsatisfiable(conjuncts: &[Term], budget: &Budget) -> bool {
    let s = crate::smt::solver_for(budget);
    s.assert(&crate::smt::bool_of(&Term::and(conjuncts.to_vec())));
    crate::smt::check(&s, budget) == crate::smt::Sat::Unsat
}

/// Whether `g` is `a <= x && x <= b` with constants `a` and `b`.
fn is_two_sided_bound(g: &Term) -> bool {
    use crate::term::Op;
    let bound = |t: &Term| matches!(t, Term::App(Op::Le, xs) if xs.len() == 2 && (matches!(xs[0], Term::Int(_)) != matches!(xs[1], Term::Int(_))));
    matches!(g, Term::App(Op::And, xs) if xs.len() == 2 && xs.iter().all(bound))
}

/// The locations of loop `l` from which a path inside it leaves it
/// without coming back to its header first.
fn leaving_points(program: &Program, l: &crate::ir::loops::Loop) -> BTreeSet<LocId> {
    let inside = |x: LocId| l.body.contains(&x);
    let mut out: BTreeSet<LocId> = BTreeSet::new();
    let mut todo: Vec<LocId> = program.edges.iter().filter(|e| inside(e.from) && !inside(e.to)).map(|e| e.from).collect();
    while let Some(x) = todo.pop() {
        if !out.insert(x) || x == l.header {
            continue;
        }
        todo.extend(program.edges.iter().filter(|e| e.to == x && inside(e.from)).map(|e| e.from));
    }
    out
}

/// The conditions over `v` alone that steps inside loop `l` assume and
/// after which the loop can be left (`leaves`), each once, in program
/// order; not the range of `v`'s type assumed right after it is read.
fn leaving_conditions(program: &Program, l: &crate::ir::loops::Loop, leaves: &BTreeSet<LocId>, v: &str) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::new();
    let leads_out = |to: LocId| !l.body.contains(&to) || (to != l.header && leaves.contains(&to));
    for e in program.edges.iter().filter(|e| l.body.contains(&e.from) && leads_out(e.to)) {
        for (i, a) in e.actions.iter().enumerate() {
            let Action::Assume(g) = a else { continue };
            // The range of v's type, assumed right after the read
            // (`lo <= v && v <= hi`; under mathematical integers there is
            // none, and a condition of the program's may come right after).
            let after_read = i > 0 && matches!(&e.actions[i - 1], Action::Havoc(x) if x == v) && is_two_sided_bound(g);
            // What the step assumes of v alone (`c == 0` of `c == 0 && x > 0`).
            let only_v: Vec<Term> = g.conjuncts().into_iter().filter(|c| c.free_vars().iter().map(|d| d.name.as_str()).eq([v])).collect();
            let on_v = Term::and(only_v);
            if after_read || on_v == Term::Bool(true) || out.contains(&on_v) {
                continue;
            }
            out.push(on_v);
        }
    }
    out
}
