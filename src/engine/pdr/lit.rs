//! Literals of linear integer arithmetic in a canonical form: the currency of
//! cubes, lemmas and model-based projection.
//!
//! Every literal is normalised so that syntactically equal constraints
//! compare equal (`2x + 2 <= 4` and `x <= 1` are the same literal), which
//! makes subsumption between cubes a set inclusion.

use crate::term::{Affine, Op, Sort, Term, Valuation, Value};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;

/// One literal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lit {
    /// `e <= 0`.
    Le(Affine),
    /// `e = 0`.
    Eq(Affine),
    /// `d | e` with `d > 1`.
    Div(BigInt, Affine),
    /// Any other atom (Boolean variable, non-linear comparison) with its
    /// polarity.
    Atom(Term, bool),
}

/// Greatest common divisor of the coefficients (0 when there are none).
fn coeff_gcd(e: &Affine) -> BigInt {
    e.coeffs.values().fold(BigInt::zero(), |g, c| g.gcd(c))
}

/// Euclidean remainder, always in `[0, |d|)`.
pub fn emod(a: &BigInt, d: &BigInt) -> BigInt {
    a.mod_floor(&d.abs())
}

impl Lit {
    /// `e <= 0`, normalised (coefficients coprime; constant tightened), or
    /// a Boolean constant when `e` has no variables.
    pub fn le(e: Affine) -> Result<Lit, bool> {
        let mut e = e;
        e.coeffs.retain(|_, c| !c.is_zero());
        if e.coeffs.is_empty() {
            return Err(!e.constant.is_positive());
        }
        let g = coeff_gcd(&e);
        if !g.is_one() {
            for c in e.coeffs.values_mut() {
                *c = &*c / &g;
            }
            // sum a x + c <= 0  <=>  sum (a/g) x <= -c/g  <=>  ... <= floor(-c/g)
            e.constant = -((-&e.constant).div_floor(&g));
        }
        Ok(Lit::Le(e))
    }

    /// `e = 0`, normalised (coprime coefficients, first coefficient positive).
    pub fn eq(e: Affine) -> Result<Lit, bool> {
        let mut e = e;
        e.coeffs.retain(|_, c| !c.is_zero());
        if e.coeffs.is_empty() {
            return Err(e.constant.is_zero());
        }
        let g = coeff_gcd(&e);
        if !(&e.constant % &g).is_zero() {
            return Err(false);
        }
        let first_negative = e.coeffs.values().next().is_some_and(|c| c.is_negative());
        let g = if first_negative { -g } else { g };
        if !g.is_one() {
            for c in e.coeffs.values_mut() {
                *c = &*c / &g;
            }
            e.constant = &e.constant / &g;
        }
        Ok(Lit::Eq(e))
    }

    /// `d | e`, normalised (coefficients and constant reduced modulo `d`).
    pub fn div(d: BigInt, e: Affine) -> Result<Lit, bool> {
        let d = d.abs();
        if d.is_zero() {
            return Lit::eq(e);
        }
        if d.is_one() {
            return Err(true);
        }
        let mut e = e;
        for c in e.coeffs.values_mut() {
            *c = emod(c, &d);
        }
        e.coeffs.retain(|_, c| !c.is_zero());
        e.constant = emod(&e.constant, &d);
        if e.coeffs.is_empty() {
            return Err(e.constant.is_zero());
        }
        // Divide out a common factor of d, the coefficients and the constant.
        let g = coeff_gcd(&e).gcd(&e.constant).gcd(&d);
        if !g.is_one() {
            for c in e.coeffs.values_mut() {
                *c = &*c / &g;
            }
            e.constant = &e.constant / &g;
            return Lit::div(&d / &g, e);
        }
        Ok(Lit::Div(d, e))
    }

    pub fn vars(&self) -> Vec<String> {
        match self {
            Lit::Le(e) | Lit::Eq(e) | Lit::Div(_, e) => e.coeffs.keys().cloned().collect(),
            Lit::Atom(t, _) => t.free_vars().into_iter().map(|v| v.name).collect(),
        }
    }

    pub fn mentions(&self, x: &str) -> bool {
        match self {
            Lit::Le(e) | Lit::Eq(e) | Lit::Div(_, e) => e.coeffs.contains_key(x),
            Lit::Atom(t, _) => t.free_vars().iter().any(|v| v.name == x),
        }
    }

    /// The literal as a term (readable form: `(<= (+ x (* 2 y)) 5)`).
    pub fn to_term(&self) -> Term {
        match self {
            Lit::Le(e) => {
                let (lhs, rhs) = split_sides(e);
                Term::le(lhs, rhs)
            }
            Lit::Eq(e) => {
                let (lhs, rhs) = split_sides(e);
                Term::eq(lhs, rhs)
            }
            Lit::Div(d, e) => Term::eq(Term::modulo(e.to_term(), Term::Int(d.clone())), Term::int(0)),
            Lit::Atom(t, pol) => {
                if *pol {
                    t.clone()
                } else {
                    Term::not(t.clone())
                }
            }
        }
    }

    /// The negation as a term.
    pub fn negated_term(&self) -> Term {
        match self {
            Lit::Le(e) => {
                let (lhs, rhs) = split_sides(e);
                Term::gt(lhs, rhs)
            }
            Lit::Atom(t, pol) => {
                if *pol {
                    Term::not(t.clone())
                } else {
                    t.clone()
                }
            }
            other => Term::not(other.to_term()),
        }
    }

    /// Truth value on a valuation (None when a variable is missing).
    pub fn eval(&self, env: &Valuation) -> Option<bool> {
        match self {
            Lit::Le(e) => Some(!eval_affine(e, env)?.is_positive()),
            Lit::Eq(e) => Some(eval_affine(e, env)?.is_zero()),
            Lit::Div(d, e) => Some(emod(&eval_affine(e, env)?, d).is_zero()),
            Lit::Atom(t, pol) => match t.eval(env)? {
                Value::Bool(b) => Some(b == *pol),
                Value::Int(_) => None,
            },
        }
    }

    /// Rename variables (used to move cubes between predicate slots and
    /// clause-local names).
    pub fn rename(&self, f: &dyn Fn(&str) -> String) -> Lit {
        let ra = |e: &Affine| Affine {
            coeffs: e.coeffs.iter().map(|(v, c)| (f(v), c.clone())).collect(),
            constant: e.constant.clone(),
        };
        match self {
            Lit::Le(e) => Lit::Le(ra(e)),
            Lit::Eq(e) => Lit::Eq(ra(e)),
            Lit::Div(d, e) => Lit::Div(d.clone(), ra(e)),
            Lit::Atom(t, p) => Lit::Atom(t.rename(&|n| Some(f(n))), *p),
        }
    }
}

/// `e <= 0` printed as `positive part <= negated rest`, which reads like the
/// source program (`x + 1 <= n` rather than `x - n + 1 <= 0`).
fn split_sides(e: &Affine) -> (Term, Term) {
    let mut lhs = Vec::new();
    let mut rhs = Vec::new();
    for (v, c) in &e.coeffs {
        if c.is_positive() {
            lhs.push(Term::scale(c, Term::var(v.clone())));
        } else {
            rhs.push(Term::scale(&-c, Term::var(v.clone())));
        }
    }
    rhs.push(Term::Int(-&e.constant));
    let lhs = if lhs.is_empty() { Term::int(0) } else { Term::add(lhs) };
    (lhs, Term::add(rhs))
}

pub fn eval_affine(e: &Affine, env: &Valuation) -> Option<BigInt> {
    let mut acc = e.constant.clone();
    for (v, c) in &e.coeffs {
        match env.get(v)? {
            Value::Int(i) => acc += c * i,
            Value::Bool(_) => return None,
        }
    }
    Some(acc)
}

/// Read a linear integer term as an affine expression.
pub fn affine_of(t: &Term) -> Option<Affine> {
    Affine::from_term(t)
}

/// Convert an atom with a polarity to literals. Returns `Err(b)` for a
/// constant truth value. Disequalities need the model to pick a side, so they
/// come back as `None` from this function and are handled by the caller.
pub fn lit_of_atom(atom: &Term, positive: bool) -> Option<Result<Lit, bool>> {
    if let Term::App(op, args) = atom {
        if args.len() == 2 && matches!(op, Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq) && args[0].sort() == Sort::Int {
            // Divisibility atoms `(= (mod e d) 0)` stay linear.
            if *op == Op::Eq && positive {
                for (m, z) in [(&args[0], &args[1]), (&args[1], &args[0])] {
                    if let (Term::App(Op::Mod, margs), Term::Int(zero)) = (m, z) {
                        if zero.is_zero() && margs.len() == 2 {
                            if let (Some(e), Term::Int(d)) = (affine_of(&margs[0]), &margs[1]) {
                                if !d.is_zero() {
                                    return Some(Lit::div(d.clone(), e));
                                }
                            }
                        }
                    }
                }
            }
            let a = affine_of(&args[0])?;
            let b = affine_of(&args[1])?;
            let a_minus_b = a.plus(&b.times(&-BigInt::one()));
            let b_minus_a = b.plus(&a.times(&-BigInt::one()));
            let one = Affine::constant(BigInt::one());
            let lit = match (op, positive) {
                (Op::Le, true) | (Op::Gt, false) => Lit::le(a_minus_b),
                (Op::Lt, true) | (Op::Ge, false) => Lit::le(a_minus_b.plus(&one)),
                (Op::Ge, true) | (Op::Lt, false) => Lit::le(b_minus_a),
                (Op::Gt, true) | (Op::Le, false) => Lit::le(b_minus_a.plus(&one)),
                (Op::Eq, true) => Lit::eq(a_minus_b),
                _ => return None,
            };
            return Some(lit);
        }
    }
    None
}

/// Split equalities into two inequalities: cubes for generalisation, where
/// dropping one side of `x = 5` leaves the useful `x <= 5`.
pub fn split_equalities(lits: Vec<Lit>) -> Vec<Lit> {
    let mut out = Vec::with_capacity(lits.len());
    for l in lits {
        match l {
            Lit::Eq(e) => {
                let neg = e.times(&-BigInt::one());
                if let Ok(a) = Lit::le(e) {
                    out.push(a);
                }
                if let Ok(b) = Lit::le(neg) {
                    out.push(b);
                }
            }
            l => out.push(l),
        }
    }
    simplify_cube(out)
}

/// Keep only the tightest of several bounds on the same linear expression
/// (`x <= 5 /\ x <= 7` is `x <= 5`), and sort.
pub fn simplify_cube(lits: Vec<Lit>) -> Vec<Lit> {
    let mut tightest: BTreeMap<BTreeMap<String, BigInt>, BigInt> = BTreeMap::new();
    let mut out = Vec::new();
    for l in lits {
        match l {
            // e + c <= 0: a larger c is a tighter bound.
            Lit::Le(e) => {
                let entry = tightest.entry(e.coeffs).or_insert_with(|| e.constant.clone());
                if e.constant > *entry {
                    *entry = e.constant;
                }
            }
            l => out.push(l),
        }
    }
    for (coeffs, constant) in tightest {
        out.push(Lit::Le(Affine { coeffs, constant }));
    }
    out.sort();
    out.dedup();
    out
}

/// Conjunction of literals as a term.
pub fn cube_term(lits: &[Lit]) -> Term {
    Term::and(lits.iter().map(|l| l.to_term()).collect())
}

/// Negation of a cube (a lemma) as a term: the disjunction of negated
/// literals.
pub fn clause_term(lits: &[Lit]) -> Term {
    Term::or(lits.iter().map(|l| l.negated_term()).collect())
}

/// Rename map helper.
pub fn renamer(map: &BTreeMap<String, String>) -> impl Fn(&str) -> String + '_ {
    move |n: &str| map.get(n).cloned().unwrap_or_else(|| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aff(pairs: &[(&str, i64)], c: i64) -> Affine {
        Affine {
            coeffs: pairs.iter().map(|(v, k)| (v.to_string(), BigInt::from(*k))).collect(),
            constant: BigInt::from(c),
        }
    }

    #[test]
    fn le_is_tightened() {
        // 2x - 3 <= 0  <=>  x <= 1
        assert_eq!(Lit::le(aff(&[("x", 2)], -3)), Ok(Lit::Le(aff(&[("x", 1)], -1))));
        // -2x + 3 <= 0 <=> x >= 2 <=> -x + 2 <= 0
        assert_eq!(Lit::le(aff(&[("x", -2)], 3)), Ok(Lit::Le(aff(&[("x", -1)], 2))));
    }

    #[test]
    fn eq_without_integer_solution_is_false() {
        assert_eq!(Lit::eq(aff(&[("x", 2), ("y", 4)], 1)), Err(false));
        assert_eq!(Lit::eq(aff(&[("x", -2)], 4)), Ok(Lit::Eq(aff(&[("x", 1)], -2))));
    }

    #[test]
    fn divisibility_is_reduced() {
        assert_eq!(Lit::div(BigInt::from(2), aff(&[("x", 4)], 2)), Err(true));
        assert_eq!(Lit::div(BigInt::from(4), aff(&[("x", 2)], 2)), Ok(Lit::Div(BigInt::from(2), aff(&[("x", 1)], 1))));
    }

    #[test]
    fn atoms_become_literals() {
        let t = Term::lt(Term::var("x"), Term::add(vec![Term::var("y"), Term::int(3)]));
        assert_eq!(lit_of_atom(&t, true), Some(Lit::le(aff(&[("x", 1), ("y", -1)], -2))));
        assert_eq!(lit_of_atom(&t, false), Some(Lit::le(aff(&[("x", -1), ("y", 1)], 3))));
    }
}
