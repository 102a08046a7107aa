//! Formulas simplified for printing: negation normal form over normalised
//! linear atoms, duplicated conjuncts dropped, bounds on the same linear
//! expression merged (`x >= 0 && x <= 0` is `x == 0`), common conjuncts
//! of a disjunction factored out. The result is equivalent to the term
//! over the integers; printers (`report::cexpr`) decide what to show.

use super::{Affine, Op, Sort, Term};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, BTreeSet};
use Formula as F;

/// A formula in negation normal form over normalised linear atoms.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Formula {
    True,
    False,
    /// `e >= 0`, `e == 0` or `e != 0` with `e` integer affine, coefficients
    /// coprime (see `atom`).
    Ge(Affine),
    Eq(Affine),
    Ne(Affine),
    /// Anything else (non-linear atoms, Boolean variables), kept as is.
    Other(Term),
    And(Vec<F>),
    Or(Vec<F>),
}

/// Which conjuncts of `conj` a conjunct `x == c` makes redundant:
/// `x != d` (another constant `d`). The arm of an `else if (x == k)`
/// chain keeps its own test, not the `k` failed tests before it, so
/// such chains stay linear in the clauses (encoding) and in the merged
/// tests (slicing). A mask over `conj`, so that callers holding the
/// conjuncts by value drop them without copying.
pub fn implied_disequalities(conj: &[&Term]) -> Vec<bool> {
    fn equality(t: &Term) -> Option<(&Term, &Term)> {
        match t {
            Term::App(Op::Eq, a) if a.len() == 2 => match (&a[0], &a[1]) {
                (x, c @ Term::Int(_)) | (c @ Term::Int(_), x) if !matches!(x, Term::Int(_)) => Some((x, c)),
                _ => None,
            },
            _ => None,
        }
    }
    let fixed: std::collections::HashMap<&Term, &Term> = conj.iter().copied().filter_map(equality).collect();
    conj.iter()
        .map(|t| {
            !fixed.is_empty()
                && match t {
                    Term::App(Op::Not, a) if a.len() == 1 => equality(&a[0]).is_some_and(|(x, d)| fixed.get(x).is_some_and(|c| *c != d)),
                    _ => false,
                }
        })
        .collect()
}

/// `t` in negation normal form, simplified.
pub fn simplified(t: &Term) -> Formula {
    simplify(nnf(t, false))
}

/// The conjuncts of `f` (none for `true`).
pub fn conjuncts(f: Formula) -> Vec<Formula> {
    match f {
        F::And(cs) => cs,
        F::True => vec![],
        f => vec![f],
    }
}

/// Negation normal form; `neg` says whether `t` is under a negation.
fn nnf(t: &Term, neg: bool) -> F {
    match t {
        Term::Bool(b) => {
            if *b != neg {
                F::True
            } else {
                F::False
            }
        }
        Term::App(Op::Not, a) if a.len() == 1 => nnf(&a[0], !neg),
        Term::App(Op::And, a) => {
            let parts = a.iter().map(|x| nnf(x, neg)).collect();
            if neg {
                F::Or(parts)
            } else {
                F::And(parts)
            }
        }
        Term::App(Op::Or, a) => {
            let parts = a.iter().map(|x| nnf(x, neg)).collect();
            if neg {
                F::And(parts)
            } else {
                F::Or(parts)
            }
        }
        Term::App(Op::Implies, a) if a.len() == 2 => {
            let or = Term::or(vec![Term::not(a[0].clone()), a[1].clone()]);
            nnf(&or, neg)
        }
        Term::App(Op::Ite, a) if a.len() == 3 && a[1].sort() == Sort::Bool => {
            let or = Term::or(vec![
                Term::and(vec![a[0].clone(), a[1].clone()]),
                Term::and(vec![Term::not(a[0].clone()), a[2].clone()]),
            ]);
            nnf(&or, neg)
        }
        Term::App(op @ (Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq), a) if a.len() == 2 && a[0].sort() == Sort::Int => {
            match (Affine::from_term(&a[0]), Affine::from_term(&a[1])) {
                (Some(l), Some(r)) => atom(*op, l.plus(&r.times(&-BigInt::one())), neg),
                _ => other(t, neg),
            }
        }
        _ => other(t, neg),
    }
}

fn other(t: &Term, neg: bool) -> F {
    F::Other(if neg { Term::not(t.clone()) } else { t.clone() })
}

/// `e op 0` (negated when `neg`) as a normalised atom over the integers:
/// `e <= 0` is `-e >= 0`, `e < 0` is `-e - 1 >= 0`, `e > 0` is `e - 1 >= 0`;
/// an inequality is divided by the gcd of its coefficients with the
/// constant rounded down (`2x - 1 >= 0` is `x - 1 >= 0` on integers); an
/// equality with a first coefficient made positive.
fn atom(op: Op, e: Affine, neg: bool) -> F {
    let one = BigInt::one();
    let minus = |a: &Affine| a.times(&-BigInt::one());
    let ge = |a: Affine| normalise_ge(a);
    let eq = |a: Affine, negated: bool| normalise_eq(a, negated);
    match (op, neg) {
        (Op::Ge, false) | (Op::Lt, true) => ge(e),
        (Op::Gt, false) | (Op::Le, true) => ge(e.plus(&Affine::constant(-&one))),
        (Op::Le, false) | (Op::Gt, true) => ge(minus(&e)),
        (Op::Lt, false) | (Op::Ge, true) => ge(minus(&e).plus(&Affine::constant(-&one))),
        (_, negated) => eq(e, negated),
    }
}

fn normalise_ge(mut a: Affine) -> F {
    a.coeffs.retain(|_, c| !c.is_zero());
    if a.coeffs.is_empty() {
        return if a.constant.is_negative() { F::False } else { F::True };
    }
    let g = a.coeffs.values().fold(BigInt::zero(), |g, c| g.gcd(c));
    if !g.is_one() {
        for c in a.coeffs.values_mut() {
            *c /= &g;
        }
        a.constant = a.constant.div_floor(&g);
    }
    F::Ge(a)
}

fn normalise_eq(mut a: Affine, negated: bool) -> F {
    a.coeffs.retain(|_, c| !c.is_zero());
    if a.coeffs.is_empty() {
        return if a.constant.is_zero() != negated { F::True } else { F::False };
    }
    let g = a.coeffs.values().fold(BigInt::zero(), |g, c| g.gcd(c));
    if !(&a.constant % &g).is_zero() {
        // No integer solution: `e == 0` is false, `e != 0` true.
        return if negated { F::True } else { F::False };
    }
    let first_negative = a.coeffs.values().next().is_some_and(|c| c.is_negative());
    let g = if first_negative { -g } else { g };
    for c in a.coeffs.values_mut() {
        *c /= &g;
    }
    a.constant /= &g;
    if negated {
        F::Ne(a)
    } else {
        F::Eq(a)
    }
}

fn negate(f: &F) -> Option<F> {
    match f {
        F::Ge(a) => Some(normalise_ge(a.times(&-BigInt::one()).plus(&Affine::constant(-BigInt::one())))),
        F::Eq(a) => Some(F::Ne(a.clone())),
        F::Ne(a) => Some(F::Eq(a.clone())),
        F::True => Some(F::False),
        F::False => Some(F::True),
        _ => None,
    }
}

/// Linear part and constant of an inequality, for merging bounds.
fn split(a: &Affine) -> (BTreeMap<String, BigInt>, BigInt) {
    (a.coeffs.clone(), a.constant.clone())
}

/// `f` with conjunctions and disjunctions simplified (bounds merged,
/// common conjuncts factored out).
pub fn simplify(f: F) -> F {
    match f {
        F::And(cs) => simplify_and(cs.into_iter().map(simplify).collect()),
        F::Or(cs) => simplify_or(cs.into_iter().map(simplify).collect()),
        f => f,
    }
}

fn simplify_and(cs: Vec<F>) -> F {
    let mut flat = Vec::new();
    for c in cs {
        match c {
            F::True => {}
            F::False => return F::False,
            F::And(inner) => flat.extend(inner),
            c => flat.push(c),
        }
    }
    // Bounds on the same linear expression L: `L + k >= 0` is `L >= -k`;
    // `-L + k >= 0` is `L <= k`; `L + k == 0` pins it.
    let mut lower: BTreeMap<BTreeMap<String, BigInt>, BigInt> = BTreeMap::new();
    let mut rest = Vec::new();
    for c in flat {
        match c {
            F::Ge(a) => {
                let (l, k) = split(&a);
                let bound = -k;
                let e = lower.entry(l).or_insert_with(|| bound.clone());
                if bound > *e {
                    *e = bound;
                }
            }
            F::Eq(a) => {
                // L + k == 0 as L >= -k and -L >= k.
                let (l, k) = split(&a);
                for (lin, bound) in [(l.clone(), -k.clone()), (negated_lin(&l), k)] {
                    let e = lower.entry(lin).or_insert_with(|| bound.clone());
                    if bound > *e {
                        *e = bound;
                    }
                }
            }
            c => rest.push(c),
        }
    }
    let mut out: Vec<F> = Vec::new();
    let mut done: BTreeSet<BTreeMap<String, BigInt>> = BTreeSet::new();
    for (l, lo) in &lower {
        if done.contains(l) {
            continue;
        }
        let neg = negated_lin(l);
        done.insert(l.clone());
        done.insert(neg.clone());
        // Orient the pair so that the first coefficient is positive: `x >= 3
        // && x <= 5`, not `-x >= -5 && ...`.
        let (l, lo, upper) = if l.values().next().is_some_and(|c| c.is_negative()) {
            match lower.get(&neg) {
                Some(nlo) => (&neg, nlo, Some(-lo)),
                None => (l, lo, None),
            }
        } else {
            (l, lo, lower.get(&neg).map(|b| -b))
        };
        let lin = Affine { coeffs: l.clone(), constant: BigInt::zero() };
        match upper {
            Some(hi) if hi < *lo => return F::False,
            Some(hi) if hi == *lo => out.push(normalise_eq(lin.plus(&Affine::constant(-lo)), false)),
            Some(hi) => {
                out.push(F::Ge(lin.plus(&Affine::constant(-lo))));
                out.push(F::Ge(lin.times(&-BigInt::one()).plus(&Affine::constant(hi))));
            }
            None => out.push(F::Ge(lin.plus(&Affine::constant(-lo)))),
        }
    }
    for c in rest {
        // `e != 0` is implied when a bound excludes 0.
        if let F::Ne(a) = &c {
            let implied = out.iter().any(|o| matches!(o, F::Ge(_)) && negate(o).is_some_and(|n| n == F::Ge(a.clone())))
                || implied_ne(a, &lower);
            if implied {
                continue;
            }
        }
        if !out.contains(&c) {
            out.push(c);
        }
    }
    match out.len() {
        0 => F::True,
        1 => out.pop().unwrap_or(F::True),
        _ => F::And(out),
    }
}

fn implied_ne(a: &Affine, lower: &BTreeMap<BTreeMap<String, BigInt>, BigInt>) -> bool {
    // L + k != 0, i.e. L != -k: implied by L >= -k + 1 or L <= -k - 1.
    let (l, k) = split(a);
    let target = -k;
    lower.get(&l).is_some_and(|lo| *lo > target) || lower.get(&negated_lin(&l)).is_some_and(|lo| -lo < target)
}

fn negated_lin(l: &BTreeMap<String, BigInt>) -> BTreeMap<String, BigInt> {
    l.iter().map(|(v, c)| (v.clone(), -c)).collect()
}

/// Whether atom `a` implies atom `b` (same linear part, tighter bound, or
/// the same atom).
fn implies(a: &F, b: &F) -> bool {
    match (a, b) {
        (F::Ge(x), F::Ge(y)) | (F::Eq(x), F::Ge(y)) => x.coeffs == y.coeffs && x.constant <= y.constant || a == b,
        _ => a == b,
    }
}

fn simplify_or(cs: Vec<F>) -> F {
    let mut flat: Vec<F> = Vec::new();
    for c in cs {
        match c {
            F::False => {}
            F::True => return F::True,
            F::Or(inner) => flat.extend(inner),
            c => {
                if !flat.contains(&c) {
                    flat.push(c)
                }
            }
        }
    }
    // A disjunct and its negation: the disjunction is valid.
    if flat.iter().any(|c| negate(c).is_some_and(|n| flat.contains(&n))) {
        return F::True;
    }
    if flat.len() > 1 {
        // Factor out conjuncts of the first disjunct implied by every other
        // one: (c && A) || B with B implying c is c && (A || B). Exact
        // matches are the usual case; a stronger bound implies a weaker
        // one (`x >= 100` implies `x >= 1`), which bound merging creates.
        let parts: Vec<Vec<F>> = flat.iter().map(|c| conjuncts(c.clone())).collect();
        let common: Vec<F> =
            parts[0].iter().filter(|c| parts[1..].iter().all(|p| p.iter().any(|q| implies(q, c)))).cloned().collect();
        if !common.is_empty() {
            let rests: Vec<F> =
                parts.into_iter().map(|p| simplify_and(p.into_iter().filter(|c| !common.contains(c)).collect())).collect();
            let mut all = common;
            all.push(simplify_or(rests));
            return simplify_and(all);
        }
    }
    match flat.len() {
        0 => F::False,
        1 => flat.pop().unwrap_or(F::False),
        _ => F::Or(flat),
    }
}

impl Term {
    /// The number of nodes: how the encoders and the inliner measure a
    /// term before they copy it into others.
    pub fn size(&self) -> usize {
        match self {
            Term::App(_, args) => 1 + args.iter().map(Term::size).sum::<usize>(),
            _ => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_equality_makes_disequalities_with_other_constants_redundant() {
        let x = || Term::var("x");
        let conj = [
            Term::not(Term::eq(x(), Term::int(1))),
            Term::not(Term::eq(Term::int(2), x())),
            Term::not(Term::eq(x(), Term::int(3))),
            Term::eq(x(), Term::int(3)),
            Term::not(Term::eq(Term::var("y"), Term::int(1))),
        ];
        let refs: Vec<&Term> = conj.iter().collect();
        // `x != 3` contradicts `x == 3` rather than following from it: kept.
        assert_eq!(implied_disequalities(&refs), vec![true, true, false, false, false]);
        assert_eq!(implied_disequalities(&refs[..3]), vec![false; 3], "no equality, nothing implied");
    }
}
