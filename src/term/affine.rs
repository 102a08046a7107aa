//! Affine expressions: the view of linear terms that ranking functions and
//! invariants are read and printed in.

use super::{Op, Sort, Term};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;
use std::fmt;

/// An affine expression over integer variables with integer coefficients; a
/// convenient view of linear terms (ranking functions, invariants).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Affine {
    pub coeffs: BTreeMap<String, BigInt>,
    pub constant: BigInt,
}

impl Affine {
    pub fn constant(c: BigInt) -> Affine {
        Affine { coeffs: BTreeMap::new(), constant: c }
    }
    pub fn to_term(&self) -> Term {
        let mut parts = Vec::new();
        for (v, c) in &self.coeffs {
            if !c.is_zero() {
                parts.push(Term::scale(c, Term::var(v.clone())));
            }
        }
        parts.push(Term::Int(self.constant.clone()));
        Term::add(parts)
    }
    /// Read a linear term as an affine expression (None if not linear);
    /// accepts n-ary `-` and `*` with at most one non-constant factor.
    pub fn from_term(t: &Term) -> Option<Affine> {
        let minus_one = -BigInt::one();
        match t {
            Term::Int(i) => Some(Affine::constant(i.clone())),
            Term::Var(n, Sort::Int) => {
                let mut a = Affine::default();
                a.coeffs.insert(n.to_string(), BigInt::one());
                Some(a)
            }
            Term::App(Op::Add, args) => {
                let mut acc = Affine::default();
                for a in args.iter() {
                    acc = acc.plus(&Affine::from_term(a)?);
                }
                Some(acc)
            }
            Term::App(Op::Sub, args) if !args.is_empty() => {
                let first = Affine::from_term(&args[0])?;
                if args.len() == 1 {
                    return Some(first.times(&minus_one));
                }
                let mut acc = first;
                for a in &args[1..] {
                    acc = acc.plus(&Affine::from_term(a)?.times(&minus_one));
                }
                Some(acc)
            }
            Term::App(Op::Neg, args) if args.len() == 1 => Some(Affine::from_term(&args[0])?.times(&minus_one)),
            Term::App(Op::Mul, args) => {
                let mut constant = BigInt::one();
                let mut var_part: Option<Affine> = None;
                for a in args.iter() {
                    let a = Affine::from_term(a)?;
                    if a.coeffs.is_empty() {
                        constant *= a.constant;
                    } else if var_part.is_none() {
                        var_part = Some(a);
                    } else {
                        return None;
                    }
                }
                Some(match var_part {
                    Some(v) => v.times(&constant),
                    None => Affine::constant(constant),
                })
            }
            _ => None,
        }
    }
    pub fn plus(&self, o: &Affine) -> Affine {
        let mut r = self.clone();
        for (v, c) in &o.coeffs {
            *r.coeffs.entry(v.clone()).or_insert_with(BigInt::zero) += c;
        }
        r.coeffs.retain(|_, c| !c.is_zero());
        r.constant += &o.constant;
        r
    }
    pub fn times(&self, k: &BigInt) -> Affine {
        let mut r = self.clone();
        for c in r.coeffs.values_mut() {
            *c *= k;
        }
        r.coeffs.retain(|_, c| !c.is_zero());
        r.constant *= k;
        r
    }
}

/// Prints in C-like infix form: `21 - x`, `2*x + y - 1`.
impl fmt::Display for Affine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `21 - x` reads better than `-x + 21`: lead with a positive constant
        // when every coefficient is negative.
        let all_negative = self.coeffs.values().all(|c| c.is_negative());
        if all_negative && !self.coeffs.is_empty() && self.constant.is_positive() {
            write!(f, "{}", self.constant)?;
            for (v, c) in &self.coeffs {
                let mag = c.abs();
                if mag.is_one() {
                    write!(f, " - {v}")?;
                } else {
                    write!(f, " - {mag}*{v}")?;
                }
            }
            return Ok(());
        }
        let mut first = true;
        for (v, c) in &self.coeffs {
            if c.is_zero() {
                continue;
            }
            let mag = c.abs();
            let sign = if c.is_negative() { "-" } else { "+" };
            if first {
                if c.is_negative() {
                    write!(f, "-")?;
                }
            } else {
                write!(f, " {sign} ")?;
            }
            if mag.is_one() {
                write!(f, "{v}")?;
            } else {
                write!(f, "{mag}*{v}")?;
            }
            first = false;
        }
        if first {
            write!(f, "{}", self.constant)
        } else if !self.constant.is_zero() {
            let sign = if self.constant.is_negative() { "-" } else { "+" };
            write!(f, " {sign} {}", self.constant.abs())
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{Valuation, Value};

    #[test]
    fn affine_round_trip_and_display() {
        let t = Term::sub(Term::int(21), Term::var("x"));
        let a = Affine::from_term(&t).expect("linear");
        assert_eq!(a.to_string(), "21 - x");
        let mut env = Valuation::new();
        env.insert("x".into(), Value::Int(BigInt::from(4)));
        assert_eq!(a.to_term().eval(&env), Some(Value::Int(BigInt::from(17))));
    }
}
