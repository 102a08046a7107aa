//! Iteration bounds printed for people (`max(0, n - i)`) and as C
//! expressions (`(n - i > 0 ? n - i : 0)`), over the values on entry of
//! the loop (see [`crate::termination::bounds`]).

use super::cexpr::{affine, Names};
use crate::termination::bounds::{BoundFactor, BoundTerm, IterationBound};
use crate::termination::nest_bound::NestBound;
use crate::termination::LoopProof;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};

/// How a bound is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// `max(0, n - i) + 1`.
    Text,
    /// A C expression over plain identifiers (integer division of a
    /// non-negative value rounds down, as the bound does).
    C,
}

/// The bound over `names`; `None` when a piece mentions a variable without
/// a name (or, in C, one whose name is not a plain identifier).
pub fn bound(b: &IterationBound, names: &Names, notation: Notation) -> Option<String> {
    let mut constant = b.constant.clone();
    let mut parts: Vec<String> = Vec::new();
    for t in &b.terms {
        match constant_value(t) {
            Some(v) => constant += v,
            None => parts.push(term(t, names, notation)?),
        }
    }
    if !b.product.is_empty() {
        let mut coefficient = BigInt::one();
        let mut factors: Vec<String> = Vec::new();
        for f in &b.product {
            match constant_value(&f.term) {
                Some(v) => coefficient *= v + &f.plus,
                None => factors.push(format!("({} + {})", term(&f.term, names, notation)?, f.plus)),
            }
        }
        if factors.is_empty() {
            constant += coefficient;
        } else if !coefficient.is_zero() {
            if !coefficient.is_one() {
                factors.insert(0, coefficient.to_string());
            }
            parts.push(factors.join(" * "));
        }
    }
    if parts.is_empty() || !constant.is_zero() {
        parts.push(constant.to_string());
    }
    Some(parts.join(" + "))
}

/// A loop nest's bound over `names` (see [`bound`]), constants folded.
pub fn nest(b: &NestBound, names: &Names, notation: Notation) -> Option<String> {
    Some(nest_shown(&folded(b), names, notation)?.0)
}

/// A whole run's bound as printed: the bound, the names of the values it
/// reads, and its class (`O(n^2)`).
pub struct ProgramBoundShown {
    pub bound: String,
    pub over: Vec<String>,
    pub complexity: String,
}

/// The bound of a whole run of the program whose loops `loops` proves
/// (see [`crate::termination::nest_bound::program_bound`]), where `names`
/// can print it.
pub fn program(enc: &crate::horn::encode::Encoding, loops: &[LoopProof], names: &Names, notation: Notation) -> Option<ProgramBoundShown> {
    let b = crate::termination::nest_bound::program_bound(enc, loops)?;
    let over = b.over.iter().map(|v| names.get(v).map(str::to_string)).collect::<Option<Vec<_>>>()?;
    let complexity = match b.degree {
        0 => "O(1)".to_string(),
        1 => "O(n)".to_string(),
        k => format!("O(n^{k})"),
    };
    Some(ProgramBoundShown { bound: nest(&b.bound, names, notation)?, over, complexity })
}

/// `b` with its constant parts computed: a constant factor is its value,
/// sums and products of constants are numbers, `0` and `1` drop out.
fn folded(b: &NestBound) -> NestBound {
    match b {
        NestBound::Factor(f) => match constant_value(&f.term) {
            Some(v) => NestBound::Constant(v + &f.plus),
            None => b.clone(),
        },
        NestBound::Constant(_) => b.clone(),
        NestBound::Sum(xs) => {
            let mut constant = BigInt::zero();
            let mut rest = Vec::new();
            // A factor's `+ plus` joins the sum's constant.
            for x in xs.iter().map(folded).flat_map(|x| match x {
                NestBound::Sum(ys) => ys,
                other => vec![other],
            }) {
                match x {
                    NestBound::Constant(c) => constant += c,
                    NestBound::Factor(f) => {
                        constant += &f.plus;
                        rest.push(NestBound::Factor(BoundFactor { term: f.term, plus: BigInt::zero() }));
                    }
                    other => rest.push(other),
                }
            }
            if !constant.is_zero() || rest.is_empty() {
                rest.push(NestBound::Constant(constant));
            }
            if rest.len() == 1 { rest.remove(0) } else { NestBound::Sum(rest) }
        }
        NestBound::Product(xs) => {
            let mut constant = BigInt::one();
            let mut rest = Vec::new();
            for x in xs.iter().map(folded).flat_map(|x| match x {
                NestBound::Product(ys) => ys,
                other => vec![other],
            }) {
                match x {
                    NestBound::Constant(c) => constant *= c,
                    other => rest.push(other),
                }
            }
            if constant.is_zero() || rest.is_empty() {
                return NestBound::Constant(constant);
            }
            if !constant.is_one() {
                rest.insert(0, NestBound::Constant(constant));
            }
            if rest.len() == 1 { rest.remove(0) } else { NestBound::Product(rest) }
        }
    }
}

/// The text of a folded bound, and whether it is a single operand of a
/// product (needs no parentheses there).
fn nest_shown(b: &NestBound, names: &Names, notation: Notation) -> Option<(String, bool)> {
    Some(match b {
        NestBound::Constant(c) => (c.to_string(), true),
        NestBound::Factor(f) if f.plus.is_zero() => (term(&f.term, names, notation)?, f.term.unit.is_one()),
        NestBound::Factor(f) => (format!("{} + {}", term(&f.term, names, notation)?, f.plus), false),
        NestBound::Sum(xs) => (xs.iter().map(|x| Some(nest_shown(x, names, notation)?.0)).collect::<Option<Vec<_>>>()?.join(" + "), false),
        NestBound::Product(xs) => {
            let shown: Option<Vec<String>> =
                xs.iter().map(|x| nest_shown(x, names, notation).map(|(t, single)| if single { t } else { format!("({t})") })).collect();
            (shown?.join(" * "), false)
        }
    })
}

/// `floor(max(0, c_1, ..., c_n) / unit)` when every piece is a constant.
fn constant_value(t: &BoundTerm) -> Option<BigInt> {
    let mut m = BigInt::zero();
    for p in &t.pieces {
        if !p.coeffs.values().all(|c| c.is_zero()) {
            return None;
        }
        m = m.max(p.constant.clone());
    }
    Some(m.div_floor(&t.unit))
}

fn term(t: &BoundTerm, names: &Names, notation: Notation) -> Option<String> {
    let mut pieces = Vec::new();
    for p in &t.pieces {
        let shown: Option<Vec<&str>> = p.coeffs.iter().filter(|(_, c)| !c.is_zero()).map(|(v, _)| names.get(v)).collect();
        let shown = shown?;
        if notation == Notation::C && !shown.iter().all(|n| is_identifier(n)) {
            return None;
        }
        pieces.push(affine(p, names));
    }
    let max = match notation {
        Notation::Text => format!("max(0, {})", pieces.join(", ")),
        Notation::C => pieces.iter().fold("0".to_string(), |m, p| format!("({p} > {m} ? {p} : {m})")),
    };
    Some(if t.unit.is_one() { max } else { format!("{max} / {}", t.unit) })
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::names::test_vars::source;
    use crate::termination::bounds::BoundBasis;
    use crate::term::Affine;

    fn piece(coeffs: &[(&str, i64)], k: i64) -> Affine {
        Affine { coeffs: coeffs.iter().map(|(v, c)| (v.to_string(), BigInt::from(*c))).collect(), constant: BigInt::from(k) }
    }

    #[test]
    fn bounds_read_as_text_and_as_c() {
        let names = Names::readable(&[source("n"), source("i")]);
        let b = IterationBound {
            terms: vec![BoundTerm { pieces: vec![piece(&[("n", 1), ("i", -1)], 0)], unit: BigInt::one() }],
            product: Vec::new(),
            constant: BigInt::zero(),
            basis: BoundBasis::OwnCertificate,
        };
        assert_eq!(bound(&b, &names, Notation::Text).as_deref(), Some("max(0, n - i)"));
        assert_eq!(bound(&b, &names, Notation::C).as_deref(), Some("(n - i > 0 ? n - i : 0)"));
        let phases = IterationBound {
            terms: vec![
                BoundTerm { pieces: vec![piece(&[("n", 2)], 1)], unit: BigInt::from(3) },
                BoundTerm { pieces: vec![piece(&[], 7)], unit: BigInt::from(3) },
            ],
            product: Vec::new(),
            constant: BigInt::from(2),
            basis: BoundBasis::RankingCertificate,
        };
        assert_eq!(bound(&phases, &names, Notation::Text).as_deref(), Some("max(0, 2*n + 1) / 3 + 4"));
        let hidden = IterationBound { terms: vec![BoundTerm { pieces: vec![piece(&[("tmp", 1)], 0)], unit: BigInt::one() }], ..phases };
        assert_eq!(bound(&hidden, &names, Notation::Text), None);
        let factor = |coeffs: &[(&str, i64)], k: i64| BoundFactor {
            term: BoundTerm { pieces: vec![piece(coeffs, k)], unit: BigInt::one() },
            plus: BigInt::from(2),
        };
        let lex = IterationBound {
            terms: vec![],
            product: vec![factor(&[("n", 1)], 0), factor(&[], 3), factor(&[("i", 1)], 0)],
            constant: BigInt::zero(),
            basis: BoundBasis::RankingAndCeilings,
        };
        assert_eq!(bound(&lex, &names, Notation::Text).as_deref(), Some("5 * (max(0, n) + 2) * (max(0, i) + 2)"));
        assert_eq!(bound(&lex, &names, Notation::C).as_deref(), Some("5 * ((n > 0 ? n : 0) + 2) * ((i > 0 ? i : 0) + 2)"));
        let constant = IterationBound { product: vec![factor(&[], 3), factor(&[], -1)], constant: BigInt::one(), ..lex };
        assert_eq!(bound(&constant, &names, Notation::Text).as_deref(), Some("11"));
    }

    #[test]
    fn nest_bounds_fold_their_constants() {
        use crate::termination::nest_bound::NestBound;
        let names = Names::readable(&[source("n"), source("i")]);
        let factor = |coeffs: &[(&str, i64)], k: i64, plus: i64| {
            NestBound::Factor(BoundFactor { term: BoundTerm { pieces: vec![piece(coeffs, k)], unit: BigInt::one() }, plus: BigInt::from(plus) })
        };
        let c = |k: i64| NestBound::Constant(BigInt::from(k));
        // (max(0, n) + 0 + 1) * (1 + (max(0, 3) + 1) * 2 + (max(0, n) + 1 + 0))
        let b = NestBound::Product(vec![
            NestBound::Sum(vec![factor(&[("n", 1)], 0, 0), c(1)]),
            NestBound::Sum(vec![c(1), NestBound::Product(vec![factor(&[], 3, 1), c(2)]), NestBound::Sum(vec![factor(&[("n", 1)], 0, 1), c(0)])]),
        ]);
        assert_eq!(nest(&b, &names, Notation::Text).as_deref(), Some("(max(0, n) + 1) * (max(0, n) + 10)"));
        assert_eq!(nest(&NestBound::Product(vec![c(2), factor(&[("i", 1)], 0, 0)]), &names, Notation::C).as_deref(), Some("2 * (i > 0 ? i : 0)"));
        assert_eq!(nest(&NestBound::Product(vec![c(0), factor(&[("i", 1)], 0, 0)]), &names, Notation::Text).as_deref(), Some("0"));
    }
}
