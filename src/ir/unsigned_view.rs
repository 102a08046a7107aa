//! Unsigned views of signed variables: `(unsigned int) x` as a variable of
//! the model.
//!
//! SV-COMP's `id((unsigned int)x - 1)` on an `int` x goes down from any
//! negative x to `INT_MIN`, wraps to `INT_MAX` and goes on down to 0: it
//! ends, but no affine function of x ranks it, and no run from a negative
//! x is short enough to be sampled. `(unsigned int) x` ranks it: the
//! conversion goes down by one on every call. The model writes the
//! conversion as `x mod 2^32`; this pass gives such a term over a signed
//! variable a variable of its own (the *view*) that the ranking machinery
//! sees like any other:
//!
//! * it is assigned `x mod 2^w` at the entry and at the end of every edge
//!   that writes x, so it always equals the conversion;
//! * every edge that leaves a loop header first assumes that equation, so
//!   each step from a header knows it without an invariant to find (the
//!   decrease check of a candidate over the view is then a question about
//!   one step).
//!
//! Neither adds a constraint a run does not already satisfy: the runs of
//! the program, projected on its own variables, are the same, so a
//! ranking function over the view is one over x, and a witness of an
//! infinite run is one of the program. The view is shown as the C
//! expression it stands for.

use super::origin::Origin;
use super::{find_loops, Action, IntType, Program, Variable};
use crate::term::{Op, Term};
use num_bigint::BigInt;
use num_traits::One;
use std::collections::BTreeSet;

/// Most views a program gets: each is a variable at every loop header
/// where its variable is live.
const MOST_VIEWS: usize = 4;

/// A signed variable read through its conversion to unsigned.
#[derive(Clone, Debug, PartialEq, Eq)]
struct View {
    of: String,
    modulus: BigInt,
    name: String,
}

/// `p` with a view variable for each signed variable that a loop's code
/// reads as `x mod 2^w` (its conversion to the unsigned type of its width).
pub fn add_unsigned_views(mut p: Program) -> Program {
    // The conversions first (a walk over the terms), the loops only where
    // there are some: most programs have none.
    let mut found: Vec<(usize, String, BigInt)> = Vec::new();
    for (i, e) in p.edges.iter().enumerate() {
        for a in &e.actions {
            if let Action::Assume(t) | Action::Assign(_, t) = a {
                conversions(t, &p, &mut |of, modulus| found.push((i, of.to_string(), modulus)));
            }
        }
    }
    if found.is_empty() {
        return p;
    }
    let Ok(loops) = find_loops(&p) else { return p };
    let in_loop: BTreeSet<usize> = loops.iter().flat_map(|l| l.body.iter().copied()).collect();
    let headers: BTreeSet<usize> = loops.iter().map(|l| l.header).collect();
    let mut views: Vec<View> = Vec::new();
    for (i, of, modulus) in found {
        if in_loop.contains(&p.edges[i].from) && views.len() < MOST_VIEWS && !views.iter().any(|v| v.of == of) {
            views.push(View { of, modulus, name: String::new() });
        }
    }
    if views.is_empty() {
        return p;
    }
    for v in &mut views {
        let Some(x) = p.var(&v.of).cloned() else { continue };
        v.name = fresh_name(&p, &format!("{}%unsigned", x.name));
        let IntType::Int { bits, .. } = x.ty else { continue };
        p.vars.push(Variable {
            name: v.name.clone(),
            source_name: format!("(unsigned {}) {}", IntType::Int { bits, signed: true }, x.source_name),
            ty: IntType::Int { bits, signed: false },
            function: x.function.clone(),
            origin: Origin::UnsignedView,
            renamed: x.renamed.clone(),
        });
    }
    views.retain(|v| !v.name.is_empty());
    let value = |v: &View| Term::modulo(Term::var(v.of.as_str()), Term::Int(v.modulus.clone()));
    for e in &mut p.edges {
        let written: BTreeSet<&str> = e
            .actions
            .iter()
            .filter_map(|a| match a {
                Action::Assign(x, _) | Action::Havoc(x) | Action::Choose(x) => Some(x.as_str()),
                _ => None,
            })
            .collect();
        let assigned: Vec<Action> =
            views.iter().filter(|v| written.contains(v.of.as_str())).map(|v| Action::Assign(v.name.clone(), value(v))).collect();
        e.actions.extend(assigned);
        if headers.contains(&e.from) {
            let known = views.iter().map(|v| Action::Assume(Term::eq(Term::var(v.name.as_str()), value(v))));
            e.actions.splice(0..0, known);
        }
        if e.from == p.entry {
            let given = views.iter().map(|v| Action::Assign(v.name.clone(), value(v)));
            e.actions.splice(0..0, given);
        }
    }
    p
}

/// Calls `found(x, 2^w)` for every `x mod 2^w` in `t` with `x` a signed
/// variable of `w` bits.
fn conversions(t: &Term, p: &Program, found: &mut dyn FnMut(&str, BigInt)) {
    if let Term::App(op, args) = t {
        if *op == Op::Mod {
            if let [Term::Var(x, _), Term::Int(k)] = &args[..] {
                if let Some(IntType::Int { bits, signed: true }) = p.var(x).map(|v| v.ty) {
                    if *k == BigInt::one() << bits {
                        found(x, k.clone());
                    }
                }
            }
        }
        for a in args.iter() {
            conversions(a, p, found);
        }
    }
}

fn fresh_name(p: &Program, base: &str) -> String {
    let mut name = base.to_string();
    let mut k = 2;
    while p.var(&name).is_some() {
        name = format!("{base}{k}");
        k += 1;
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Edge, IntSemantics, Location, MachineModel};

    /// `while (x != 0) x = (int)((unsigned)x - 1);` as the model writes it.
    fn countdown() -> Program {
        let x = || Term::var("x");
        let w: BigInt = BigInt::one() << 32;
        let unsigned = Term::modulo(x(), Term::Int(w.clone()));
        let back = Term::sub(
            Term::modulo(Term::add(vec![Term::modulo(Term::sub(unsigned, Term::int(1)), Term::Int(w.clone())), Term::int(1i64 << 31)]), Term::Int(w)),
            Term::int(1i64 << 31),
        );
        Program {
            file: "t.c".into(),
            vars: vec![Variable {
                name: "x".into(),
                source_name: "x".into(),
                ty: IntType::INT,
                function: None,
                origin: Origin::Source,
                renamed: None,
            }],
            locations: vec![Location::default(); 3],
            edges: vec![
                Edge { from: 0, to: 1, actions: vec![Action::Havoc("x".into())] },
                Edge { from: 1, to: 1, actions: vec![Action::Assume(Term::neq(x(), Term::int(0))), Action::Assign("x".into(), back)] },
                Edge { from: 1, to: 2, actions: vec![Action::Assume(Term::eq(x(), Term::int(0)))] },
            ],
            entry: 0,
            exit: 2,
            semantics: IntSemantics::C,
            machine: MachineModel::default(),
            approximations: vec![],
            forbid_no: vec![],
            undefined: vec![],
            coalesced: vec![],
        }
    }

    #[test]
    fn a_conversion_in_a_loop_gets_a_view_kept_equal_to_it() {
        let p = add_unsigned_views(countdown());
        let view = p.vars.iter().find(|v| v.origin == Origin::UnsignedView).expect("a view");
        assert_eq!(view.source_name, "(unsigned int) x");
        let defined = Term::eq(Term::var(view.name.as_str()), Term::modulo(Term::var("x"), Term::Int(BigInt::one() << 32)));
        // Assigned where x is written (the entry's edge and the loop's), and
        // assumed on every edge out of the header.
        for e in &p.edges {
            let assigns = e.actions.iter().any(|a| matches!(a, Action::Assign(v, _) if *v == view.name));
            let writes_x = e.actions.iter().any(|a| matches!(a, Action::Assign(v, _) | Action::Havoc(v) if v == "x"));
            assert_eq!(assigns, writes_x, "{e:?}");
            if writes_x {
                let last_write = e.actions.iter().rposition(|a| matches!(a, Action::Assign(v, _) | Action::Havoc(v) if v == "x"));
                let view_set = e.actions.iter().rposition(|a| matches!(a, Action::Assign(v, _) if *v == view.name));
                assert!(view_set > last_write, "{e:?}");
            }
            if e.from == 1 {
                assert_eq!(e.actions.first(), Some(&Action::Assume(defined.clone())), "{e:?}");
            }
        }
    }

    #[test]
    fn a_program_without_conversions_is_unchanged() {
        let mut p = countdown();
        p.edges[1].actions[1] = Action::Assign("x".into(), Term::sub(Term::var("x"), Term::int(1)));
        assert_eq!(add_unsigned_views(p.clone()), p);
    }
}
