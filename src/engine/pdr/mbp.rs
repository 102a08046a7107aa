//! Model-based projection for linear integer arithmetic.
//!
//! `project(phi, model, keep)` returns a conjunction of literals `psi` over
//! the kept variables such that `model |= psi` and `psi => exists elim. phi`.
//! It is the model-based Cooper method (as in Spacer's MBP for LIA, by
//! Bjorner & Janota): take an implicant of `phi` true in the model, then
//! eliminate one variable at a time, substituting either an equality's
//! solution or the greatest lower bound (by the model) plus an offset that
//! keeps every divisibility constraint true. The result ranges over finitely
//! many formulas for a fixed `phi`, which makes PDR's predecessors
//! generalise (and would make quantifier elimination by enumerating
//! projections terminate).
//!
//! Where arithmetic is not linear in an eliminated variable, that variable
//! is replaced by its model value: still an exact under-approximation.

use super::lit::{affine_of, emod, eval_affine, lit_of_atom, Lit};
use crate::term::{Affine, Op, Sort, Term, Valuation, Value};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeSet;

/// Why a projection could not be computed (the model did not satisfy the
/// formula, or a value was missing): a bug in the caller, never silently
/// ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MbpError(pub String);

/// Project `phi` onto the variables for which `keep` holds, around `model`
/// (which must assign every free variable of `phi` and satisfy it).
pub fn project(phi: &Term, model: &Valuation, keep: &dyn Fn(&str) -> bool) -> Result<Vec<Lit>, MbpError> {
    let mut env = model.clone();
    let mut fresh = 0usize;
    let mut atoms = Vec::new();
    implicant(phi, true, &env, &mut atoms)?;
    let mut lits = Vec::new();
    let mut seen = BTreeSet::new();
    // Purification may add atoms (ite conditions, div/mod definitions).
    let mut queue = atoms;
    while let Some((atom, pol)) = queue.pop() {
        if !seen.insert((atom.clone(), pol)) {
            continue;
        }
        let mut extra = Vec::new();
        let atom = purify(&atom, &mut env, &mut fresh, &mut extra)?;
        queue.extend(extra);
        to_lits(&atom, pol, &env, &mut lits)?;
    }
    eliminate(lits, &mut env, keep)
}

/// Collect atoms with polarity, true in `env`, that imply `t` (or its
/// negation when `positive` is false).
fn implicant(t: &Term, positive: bool, env: &Valuation, out: &mut Vec<(Term, bool)>) -> Result<(), MbpError> {
    match t {
        Term::Bool(b) => {
            if *b == positive {
                Ok(())
            } else {
                Err(MbpError(format!("implicant: constant {b} required to be {positive}")))
            }
        }
        Term::Var(_, Sort::Bool) => {
            out.push((t.clone(), positive));
            Ok(())
        }
        Term::App(op, args) => match op {
            Op::Not if args.len() == 1 => implicant(&args[0], !positive, env, out),
            Op::And | Op::Or => {
                // A conjunction that must hold (or disjunction that must
                // fail) needs all children; otherwise one witness child.
                let all = (*op == Op::And) == positive;
                if all {
                    for a in args.iter() {
                        implicant(a, positive, env, out)?;
                    }
                    Ok(())
                } else {
                    for a in args.iter() {
                        if truth(a, env)? == positive {
                            return implicant(a, positive, env, out);
                        }
                    }
                    Err(MbpError(format!("implicant: no witness child in {t}")))
                }
            }
            Op::Implies if args.len() == 2 => {
                let rewritten = Term::app(Op::Or, vec![Term::app(Op::Not, vec![args[0].clone()]), args[1].clone()]);
                implicant(&rewritten, positive, env, out)
            }
            Op::Ite if args.len() == 3 => {
                let c = truth(&args[0], env)?;
                implicant(&args[0], c, env, out)?;
                implicant(if c { &args[1] } else { &args[2] }, positive, env, out)
            }
            Op::Eq if args.len() == 2 && args[0].sort() == Sort::Bool => {
                let a = truth(&args[0], env)?;
                let b = truth(&args[1], env)?;
                if (a == b) != positive {
                    return Err(MbpError(format!("implicant: {t} has the wrong value")));
                }
                implicant(&args[0], a, env, out)?;
                implicant(&args[1], b, env, out)
            }
            _ => {
                if truth(t, env)? != positive {
                    return Err(MbpError(format!("implicant: atom {t} is not {positive} in the model")));
                }
                out.push((t.clone(), positive));
                Ok(())
            }
        },
        Term::Int(_) | Term::Var(_, Sort::Int) => Err(MbpError(format!("implicant: integer term {t} used as a formula"))),
    }
}

fn truth(t: &Term, env: &Valuation) -> Result<bool, MbpError> {
    match t.eval(env) {
        Some(Value::Bool(b)) => Ok(b),
        _ => Err(MbpError(format!("cannot evaluate {t} in the model"))),
    }
}

fn int_value(t: &Term, env: &Valuation) -> Result<BigInt, MbpError> {
    match t.eval(env) {
        Some(Value::Int(i)) => Ok(i),
        _ => Err(MbpError(format!("cannot evaluate {t} in the model"))),
    }
}

/// Remove `ite` from integer subterms (choosing the branch the model takes
/// and recording its condition) and name `div`/`mod` by constants with fresh
/// variables defined by `t = d*q + r, 0 <= r < |d|`.
fn purify(t: &Term, env: &mut Valuation, fresh: &mut usize, extra: &mut Vec<(Term, bool)>) -> Result<Term, MbpError> {
    match t {
        Term::App(Op::Ite, args) if args.len() == 3 && t.sort() == Sort::Int => {
            let c = truth(&args[0], env)?;
            implicant(&args[0], c, env, extra)?;
            purify(if c { &args[1] } else { &args[2] }, env, fresh, extra)
        }
        Term::App(op @ (Op::Div | Op::Mod), args) if args.len() == 2 => {
            let num = purify(&args[0], env, fresh, extra)?;
            let den = purify(&args[1], env, fresh, extra)?;
            let d = match &den {
                Term::Int(d) if !d.is_zero() => d.clone(),
                _ => return Ok(Term::app(*op, vec![num, den])),
            };
            let a = int_value(&num, env)?;
            let r = emod(&a, &d);
            let q = (&a - &r) / &d;
            let qn = format!("!mbp!q{}", *fresh);
            let rn = format!("!mbp!r{}", *fresh);
            *fresh += 1;
            env.insert(qn.clone(), Value::Int(q));
            env.insert(rn.clone(), Value::Int(r));
            let (qv, rv) = (Term::var(qn), Term::var(rn));
            extra.push((
                Term::eq(num, Term::add(vec![Term::mul(Term::Int(d.clone()), qv.clone()), rv.clone()])),
                true,
            ));
            extra.push((Term::le(Term::int(0), rv.clone()), true));
            extra.push((Term::le(rv.clone(), Term::Int(d.abs() - 1)), true));
            Ok(if *op == Op::Div { qv } else { rv })
        }
        Term::App(op, args) => {
            let args = args.iter().map(|a| purify(a, env, fresh, extra)).collect::<Result<Vec<_>, _>>()?;
            Ok(Term::app(*op, args))
        }
        _ => Ok(t.clone()),
    }
}

fn to_lits(atom: &Term, pol: bool, env: &Valuation, out: &mut Vec<Lit>) -> Result<(), MbpError> {
    if let Some(r) = lit_of_atom(atom, pol) {
        match r {
            Ok(l) => out.push(l),
            Err(true) => {}
            Err(false) => return Err(MbpError(format!("literal {atom} ({pol}) is false"))),
        }
        return Ok(());
    }
    // A linear disequality: keep the side the model is on.
    if let Term::App(Op::Eq, args) = atom {
        if !pol && args.len() == 2 && args[0].sort() == Sort::Int {
            if affine_of(&args[0]).is_some() && affine_of(&args[1]).is_some() {
                let va = int_value(&args[0], env)?;
                let vb = int_value(&args[1], env)?;
                let side = if va < vb { Term::lt(args[0].clone(), args[1].clone()) } else { Term::gt(args[0].clone(), args[1].clone()) };
                return to_lits(&side, true, env, out);
            }
        }
    }
    out.push(Lit::Atom(atom.clone(), pol));
    Ok(())
}

/// Coefficient of `x` in a linear literal (None for atoms).
fn coeff(l: &Lit, x: &str) -> Option<BigInt> {
    match l {
        Lit::Le(e) | Lit::Eq(e) | Lit::Div(_, e) => e.coeffs.get(x).cloned(),
        Lit::Atom(..) => None,
    }
}

/// Push a rebuilt literal, dropping `true`; `false` is a bug.
fn push_lit(out: &mut Vec<Lit>, l: Result<Lit, bool>) -> Result<(), MbpError> {
    match l {
        Ok(l) => {
            out.push(l);
            Ok(())
        }
        Err(true) => Ok(()),
        Err(false) => Err(MbpError("projection produced false".into())),
    }
}

fn eliminate(mut lits: Vec<Lit>, env: &mut Valuation, keep: &dyn Fn(&str) -> bool) -> Result<Vec<Lit>, MbpError> {
    // Variables to eliminate, and those fixed to their model value because
    // they occur in non-linear atoms.
    let mut elim: BTreeSet<String> = BTreeSet::new();
    let mut fixed: BTreeSet<String> = BTreeSet::new();
    for l in &lits {
        for v in l.vars() {
            if !keep(&v) {
                if matches!(l, Lit::Atom(..)) {
                    fixed.insert(v.clone());
                }
                elim.insert(v);
            }
        }
    }
    if !fixed.is_empty() {
        let map = fixed
            .iter()
            .map(|v| env.get(v).map(|val| (v.clone(), val.term())).ok_or_else(|| MbpError(format!("no value for {v}"))))
            .collect::<Result<std::collections::BTreeMap<_, _>, _>>()?;
        let mut out = Vec::new();
        for l in lits {
            match l {
                Lit::Atom(t, pol) => {
                    let t2 = t.subst(&map);
                    match t2 {
                        Term::Bool(b) if b == pol => {}
                        Term::Bool(_) => return Err(MbpError("fixed atom became false".into())),
                        t2 => {
                            // After fixing, a non-linear atom may have become linear.
                            match lit_of_atom(&t2, pol) {
                                Some(r) => push_lit(&mut out, r)?,
                                None => out.push(Lit::Atom(t2, pol)),
                            }
                        }
                    }
                }
                Lit::Le(e) => push_lit(&mut out, Lit::le(fix_affine(&e, &fixed, env)?))?,
                Lit::Eq(e) => push_lit(&mut out, Lit::eq(fix_affine(&e, &fixed, env)?))?,
                Lit::Div(d, e) => push_lit(&mut out, Lit::div(d, fix_affine(&e, &fixed, env)?))?,
            }
        }
        lits = out;
        for v in &fixed {
            elim.remove(v);
        }
    }
    for x in elim {
        lits = eliminate_var(lits, &x, env)?;
    }
    lits.sort();
    lits.dedup();
    Ok(lits)
}

fn fix_affine(e: &Affine, fixed: &BTreeSet<String>, env: &Valuation) -> Result<Affine, MbpError> {
    let mut r = e.clone();
    for v in fixed {
        if let Some(c) = r.coeffs.remove(v) {
            match env.get(v) {
                Some(Value::Int(i)) => r.constant += c * i,
                _ => return Err(MbpError(format!("no integer value for {v}"))),
            }
        }
    }
    Ok(r)
}

/// Rebuild a literal of the same kind over a new expression.
fn same_kind(l: &Lit, e: Affine) -> Result<Lit, bool> {
    match l {
        Lit::Le(_) => Lit::le(e),
        Lit::Eq(_) => Lit::eq(e),
        Lit::Div(d, _) => Lit::div(d.clone(), e),
        Lit::Atom(..) => Err(true),
    }
}

fn eliminate_var(lits: Vec<Lit>, x: &str, env: &Valuation) -> Result<Vec<Lit>, MbpError> {
    let (with_x, mut out): (Vec<Lit>, Vec<Lit>) = lits.into_iter().partition(|l| coeff(l, x).is_some());
    if with_x.is_empty() {
        return Ok(out);
    }
    // 1. An equality with x: solve it (exact, with a divisibility side
    //    condition when the coefficient is not a unit).
    let eq_pos = with_x
        .iter()
        .enumerate()
        .filter(|(_, l)| matches!(l, Lit::Eq(_)))
        .min_by_key(|(_, l)| coeff(l, x).map(|c| c.abs()))
        .map(|(i, _)| i);
    if let Some(i) = eq_pos {
        let Lit::Eq(def) = &with_x[i] else { return Err(MbpError("not an equality".into())) };
        let a = def.coeffs.get(x).cloned().unwrap_or_else(BigInt::one);
        let mut rest = def.clone();
        rest.coeffs.remove(x);
        // a x + rest = 0, so (|a| x) = -sign(a) rest.
        let abs_a = a.abs();
        let ax = if a.is_positive() { rest.times(&-BigInt::one()) } else { rest.clone() };
        for (j, l) in with_x.iter().enumerate() {
            if j == i {
                continue;
            }
            let (b, e) = match l {
                Lit::Le(e) | Lit::Eq(e) | Lit::Div(_, e) => (e.coeffs.get(x).cloned().unwrap_or_default(), e),
                Lit::Atom(..) => continue,
            };
            // Multiply the literal by |a|, then replace |a| x by ax.
            let mut scaled = e.times(&abs_a);
            scaled.coeffs.remove(x);
            let scaled = scaled.plus(&ax.times(&b));
            let rebuilt = match l {
                Lit::Div(d, _) => Lit::div(d * &abs_a, scaled),
                other => same_kind(other, scaled),
            };
            push_lit(&mut out, rebuilt)?;
        }
        if !abs_a.is_one() {
            push_lit(&mut out, Lit::div(abs_a, rest))?;
        }
        return Ok(out);
    }
    // 2. Model-based Cooper. Scale every literal so x's coefficient is +-L,
    //    and work with y = L x.
    let l_all = with_x.iter().filter_map(|l| coeff(l, x)).fold(BigInt::one(), |acc, c| acc.lcm(&c));
    let xv = match env.get(x) {
        Some(Value::Int(i)) => i.clone(),
        _ => return Err(MbpError(format!("no integer value for {x}"))),
    };
    let yv = &l_all * &xv;
    // Each literal as (sign of y, rest) with y's coefficient +-1.
    let mut lowers: Vec<Affine> = Vec::new(); // y >= t
    let mut uppers: Vec<Affine> = Vec::new(); // y <= t
    let mut divs: Vec<(BigInt, Affine)> = Vec::new(); // d | y + t
    if !l_all.is_one() {
        divs.push((l_all.clone(), Affine::default()));
    }
    for l in &with_x {
        let c = coeff(l, x).unwrap_or_default();
        let k = &l_all / c.abs();
        let mut rest = match l {
            Lit::Le(e) | Lit::Div(_, e) => e.times(&k),
            _ => return Err(MbpError("unexpected literal kind".into())),
        };
        rest.coeffs.remove(x);
        let positive = c.is_positive();
        match l {
            // +y + rest <= 0  => y <= -rest ; -y + rest <= 0 => y >= rest
            Lit::Le(_) => {
                if positive {
                    uppers.push(rest.times(&-BigInt::one()));
                } else {
                    lowers.push(rest);
                }
            }
            Lit::Div(d, _) => {
                let d = d * &k;
                // d | -y + rest  <=>  d | y - rest
                let t = if positive { rest } else { rest.times(&-BigInt::one()) };
                divs.push((d, t));
            }
            _ => {}
        }
    }
    let modulus = divs.iter().fold(BigInt::one(), |acc, (d, _)| acc.lcm(d));
    let eval = |e: &Affine| eval_affine(e, env).ok_or_else(|| MbpError("cannot evaluate bound".into()));
    let y_term: Affine = if !lowers.is_empty() {
        let mut best = 0;
        let mut best_v = eval(&lowers[0])?;
        for (i, t) in lowers.iter().enumerate().skip(1) {
            let v = eval(t)?;
            if v > best_v {
                best = i;
                best_v = v;
            }
        }
        let r = emod(&(&yv - &best_v), &modulus);
        lowers[best].plus(&Affine::constant(r))
    } else if !uppers.is_empty() {
        let mut best = 0;
        let mut best_v = eval(&uppers[0])?;
        for (i, t) in uppers.iter().enumerate().skip(1) {
            let v = eval(t)?;
            if v < best_v {
                best = i;
                best_v = v;
            }
        }
        let r = emod(&(&best_v - &yv), &modulus);
        uppers[best].plus(&Affine::constant(-r))
    } else {
        Affine::constant(emod(&yv, &modulus))
    };
    let minus_one = -BigInt::one();
    for t in &lowers {
        // t <= y  <=>  t - y <= 0
        push_lit(&mut out, Lit::le(t.plus(&y_term.times(&minus_one))))?;
    }
    for t in &uppers {
        push_lit(&mut out, Lit::le(y_term.plus(&t.times(&minus_one))))?;
    }
    for (d, t) in &divs {
        push_lit(&mut out, Lit::div(d.clone(), y_term.plus(t)))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Budget;
    use crate::smt::{bool_of, check, solver_for, Sat};
    use crate::term::VarDecl;

    fn env(pairs: &[(&str, i64)]) -> Valuation {
        pairs.iter().map(|(n, v)| (n.to_string(), Value::Int(BigInt::from(*v)))).collect()
    }

    /// psi must hold in the model, and every point of psi must extend to a
    /// point of phi: checked with Z3 as `psi /\ forall elim. not phi` unsat,
    /// by sampling models of psi.
    fn check_projection(phi: &Term, m: &Valuation, keep: &[&str]) -> Vec<Lit> {
        let keepf = |v: &str| keep.contains(&v);
        let psi = project(phi, m, &keepf).expect("projection");
        for l in &psi {
            assert_eq!(l.eval(m), Some(true), "{l:?} false in model");
            for v in l.vars() {
                assert!(keep.contains(&v.as_str()), "{v} not eliminated");
            }
        }
        // Every model of psi (sampled a few times) extends to phi.
        let budget = Budget::unlimited();
        let s = solver_for(&budget);
        s.assert(bool_of(&super::super::lit::cube_term(&psi)));
        for _ in 0..8 {
            if check(&s, &budget) != Sat::Sat {
                break;
            }
            let model = s.get_model().expect("model");
            let mut fix = Vec::new();
            for k in keep {
                let v = crate::smt::value_in(&model, &VarDecl::int(*k)).expect("value");
                fix.push(Term::eq(Term::var(*k), v.term()));
            }
            let s2 = solver_for(&budget);
            s2.assert(bool_of(phi));
            s2.assert(bool_of(&Term::and(fix.clone())));
            assert_eq!(check(&s2, &budget), Sat::Sat, "psi point does not extend: {fix:?}");
            s.assert(bool_of(&Term::not(Term::and(fix))));
        }
        psi
    }

    #[test]
    fn equality_substitution() {
        // x' = x + 1 /\ x' <= 10, project x'
        let phi = Term::and(vec![
            Term::eq(Term::var("xp"), Term::add(vec![Term::var("x"), Term::int(1)])),
            Term::le(Term::var("xp"), Term::int(10)),
        ]);
        let psi = check_projection(&phi, &env(&[("x", 3), ("xp", 4)]), &["x"]);
        assert_eq!(psi.len(), 1);
    }

    #[test]
    fn non_unit_coefficients_need_divisibility() {
        // 2y = x /\ 0 <= y <= 5 : x even in [0, 10]
        let phi = Term::and(vec![
            Term::eq(Term::mul(Term::int(2), Term::var("y")), Term::var("x")),
            Term::le(Term::int(0), Term::var("y")),
            Term::le(Term::var("y"), Term::int(5)),
        ]);
        check_projection(&phi, &env(&[("x", 4), ("y", 2)]), &["x"]);
        // 3y >= x /\ 3y <= x + 1: (project y) x mod 3 in {0, 2}
        let phi = Term::and(vec![
            Term::ge(Term::mul(Term::int(3), Term::var("y")), Term::var("x")),
            Term::le(Term::mul(Term::int(3), Term::var("y")), Term::add(vec![Term::var("x"), Term::int(1)])),
        ]);
        check_projection(&phi, &env(&[("x", 5), ("y", 2)]), &["x"]);
        check_projection(&phi, &env(&[("x", 6), ("y", 2)]), &["x"]);
    }

    #[test]
    fn disjunctions_ite_and_mod() {
        let x = Term::var("x");
        let y = Term::var("y");
        let z = Term::var("z");
        let phi = Term::and(vec![
            Term::or(vec![Term::lt(x.clone(), y.clone()), Term::gt(x.clone(), Term::add(vec![y.clone(), Term::int(5)]))]),
            Term::eq(z.clone(), Term::ite(Term::ge(x.clone(), Term::int(0)), x.clone(), Term::neg(x.clone()))),
            Term::eq(Term::modulo(y.clone(), Term::int(3)), Term::int(1)),
            Term::not(Term::eq(z.clone(), Term::int(4))),
        ]);
        check_projection(&phi, &env(&[("x", -3), ("y", 7), ("z", 3)]), &["z"]);
        check_projection(&phi, &env(&[("x", 20), ("y", 1), ("z", 20)]), &["x", "z"]);
        check_projection(&phi, &env(&[("x", 20), ("y", 1), ("z", 20)]), &["y"]);
    }

    #[test]
    fn non_linear_falls_back_to_model_value() {
        let x = Term::var("x");
        let y = Term::var("y");
        let phi = Term::and(vec![Term::eq(Term::mul(x.clone(), y.clone()), Term::int(12)), Term::le(x.clone(), Term::int(5))]);
        check_projection(&phi, &env(&[("x", 3), ("y", 4)]), &["x"]);
    }
}
