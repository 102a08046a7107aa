//! Ranking functions from bits and pieces (Urban, Gurfinkel, Kahsai, TACAS
//! 2016, §4.2): terminating samples read off counterexample traces, affine
//! pieces fitted through them by exact rational interpolation, and the three
//! ways of combining pieces into a candidate (piecewise `max`, lexicographic,
//! multiphase).
//!
//! - [`fit_affine`] solves `m·x + q = remaining` exactly and, when the samples
//!   do not determine the piece, picks the simplest solution.
//! - [`PieceBuilder`] turns the traces found by T_term into pieces, one
//!   builder per loop and combination.
//! - [`parse_candidate`] reads back what `Display` prints (`max(21 - x, -x)`,
//!   `lex(x - 1, y)`, `phases(y, x)`, `(2*x + 1)/3`).
//!
//! Counter semantics assumed everywhere in this module (the instrumentation
//! must implement the same, see docs/design.md, "How pieces combine"): a
//! candidate with pieces
//! `r_1..r_n` (most significant first) keeps counters `c_1..c_n`, set to
//! `r_j(x)` on loop entry. Every transition from the header into the body
//! applies `⊖ 1`: piecewise decrements every counter; lexicographic
//! decrements the last non-negative counter `c_i` and resets `c_{i+1}..c_n`
//! to `r_{i+1}..r_n` evaluated on the header state the transition leaves;
//! multiphase decrements the last non-negative counter and never resets. At
//! loop exit the candidate is violated when every counter is negative
//! (piecewise) or when `c_1 < 0` (lexicographic, multiphase). With rational
//! pieces the instrumentation keeps `L·c_j` with `L` =
//! [`RankingCandidate::denominator_lcm`] and decrements by `L`, which makes
//! the same comparisons.

mod fit;
mod parse;
mod pieces;
mod simulate;

pub use fit::fit_affine;
pub use parse::parse_candidate;
pub use pieces::{samples_from_header_states, samples_from_header_states_exiting_in_body, PieceBuilder};

use crate::term::Affine;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// A state at the loop header and the number of loop iterations that remained
/// until the loop exited (the number of header-to-body transitions taken from
/// this visit on).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TerminatingSample {
    pub state: BTreeMap<String, BigInt>,
    pub remaining: BigInt,
}

impl TerminatingSample {
    pub fn new(state: BTreeMap<String, BigInt>, remaining: impl Into<BigInt>) -> Self {
        TerminatingSample { state, remaining: remaining.into() }
    }
}

/// An affine ranking-function piece `m·x + q` with rational coefficients.
///
/// Zero coefficients carry no meaning: equality, hashing, printing and
/// evaluation ignore them, so `{x: 0}` and `{}` are the same piece.
#[derive(Clone, Debug, Default)]
pub struct AffinePiece {
    pub coeffs: BTreeMap<String, BigRational>,
    pub constant: BigRational,
}

impl AffinePiece {
    /// The constant piece 0: the paper's starting candidate.
    pub fn zero() -> Self {
        AffinePiece::default()
    }

    pub fn constant(c: BigRational) -> Self {
        AffinePiece { coeffs: BTreeMap::new(), constant: c }
    }

    pub fn variable(name: impl Into<String>) -> Self {
        let mut coeffs = BTreeMap::new();
        coeffs.insert(name.into(), BigRational::one());
        AffinePiece { coeffs, constant: BigRational::zero() }
    }

    /// Integer-coefficient affine expression, read as a piece.
    pub fn from_affine(a: &Affine) -> Self {
        AffinePiece {
            coeffs: a
                .coeffs
                .iter()
                .filter(|(_, c)| !c.is_zero())
                .map(|(v, c)| (v.clone(), BigRational::from_integer(c.clone())))
                .collect(),
            constant: BigRational::from_integer(a.constant.clone()),
        }
    }

    /// The variables with a non-zero coefficient, with their coefficients.
    pub fn terms(&self) -> impl Iterator<Item = (&String, &BigRational)> {
        self.coeffs.iter().filter(|(_, c)| !c.is_zero())
    }

    /// Number of variables with a non-zero coefficient.
    pub fn support_size(&self) -> usize {
        self.terms().count()
    }

    pub fn is_constant(&self) -> bool {
        self.terms().next().is_none()
    }

    pub fn is_zero(&self) -> bool {
        self.is_constant() && self.constant.is_zero()
    }

    /// Same piece without zero coefficients stored.
    pub fn normalized(&self) -> Self {
        AffinePiece {
            coeffs: self.terms().map(|(v, c)| (v.clone(), c.clone())).collect(),
            constant: self.constant.clone(),
        }
    }

    /// Exact value on a state; None when the state lacks a variable the piece
    /// uses.
    pub fn evaluate(&self, state: &BTreeMap<String, BigInt>) -> Option<BigRational> {
        let mut acc = self.constant.clone();
        for (v, c) in self.terms() {
            let x = state.get(v)?;
            acc += c * BigRational::from_integer(x.clone());
        }
        Some(acc)
    }

    /// Least common multiple of the denominators of all coefficients and the
    /// constant (1 for an integer piece).
    pub fn denominator_lcm(&self) -> BigInt {
        self.terms().map(|(_, c)| c).chain(std::iter::once(&self.constant)).fold(BigInt::one(), |l, c| l.lcm(c.denom()))
    }

    /// `factor · self` as an integer affine expression, for the
    /// instrumentation's scaled counters. None when `factor` is not a multiple
    /// of every denominator.
    pub fn to_scaled_affine(&self, factor: &BigInt) -> Option<Affine> {
        let scale = |c: &BigRational| -> Option<BigInt> {
            let s = c * BigRational::from_integer(factor.clone());
            s.is_integer().then(|| s.to_integer())
        };
        let mut coeffs = BTreeMap::new();
        for (v, c) in self.terms() {
            coeffs.insert(v.clone(), scale(c)?);
        }
        Some(Affine { coeffs, constant: scale(&self.constant)? })
    }

    pub(crate) fn plus(&self, other: &AffinePiece) -> AffinePiece {
        let mut r = self.normalized();
        for (v, c) in other.terms() {
            *r.coeffs.entry(v.clone()).or_insert_with(BigRational::zero) += c;
        }
        r.coeffs.retain(|_, c| !c.is_zero());
        r.constant += &other.constant;
        r
    }

    pub(crate) fn times(&self, k: &BigRational) -> AffinePiece {
        let mut r = self.normalized();
        for c in r.coeffs.values_mut() {
            *c *= k;
        }
        r.coeffs.retain(|_, c| !c.is_zero());
        r.constant *= k;
        r
    }
}

impl PartialEq for AffinePiece {
    fn eq(&self, other: &Self) -> bool {
        self.constant == other.constant && self.terms().eq(other.terms())
    }
}

impl Eq for AffinePiece {}

impl Hash for AffinePiece {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for (v, c) in self.terms() {
            v.hash(state);
            c.hash(state);
        }
        self.constant.hash(state);
    }
}

/// Prints `coeff*var` terms and a constant in C infix form. Positive variable
/// terms come first, so `n - i` rather than `-i + n`; a positive constant
/// leads when every variable term is negative (`21 - x`).
fn write_integer_affine(f: &mut fmt::Formatter<'_>, terms: &[(&String, BigInt)], constant: &BigInt) -> fmt::Result {
    let positive: Vec<_> = terms.iter().filter(|(_, c)| c.is_positive()).collect();
    let negative: Vec<_> = terms.iter().filter(|(_, c)| c.is_negative()).collect();
    let constant_first = !terms.is_empty() && positive.is_empty() && constant.is_positive();
    let mut first = true;
    let mut write_term = |f: &mut fmt::Formatter<'_>, coeff: &BigInt, var: Option<&str>| -> fmt::Result {
        let mag = coeff.abs();
        if first {
            if coeff.is_negative() {
                write!(f, "-")?;
            }
        } else if coeff.is_negative() {
            write!(f, " - ")?;
        } else {
            write!(f, " + ")?;
        }
        first = false;
        match var {
            None => write!(f, "{mag}"),
            Some(v) if mag.is_one() => write!(f, "{v}"),
            Some(v) => write!(f, "{mag}*{v}"),
        }
    };
    if constant_first {
        write_term(f, constant, None)?;
    }
    for (v, c) in positive.iter().chain(negative.iter()) {
        write_term(f, c, Some(v))?;
    }
    if terms.is_empty() || (!constant_first && !constant.is_zero()) {
        write_term(f, constant, None)?;
    }
    Ok(())
}

/// C infix form: `21 - x`, `x + 1`, `-x`, `n - i`; a rational piece prints
/// over its common denominator: `(2*x + 1)/3`, `x/3`.
impl fmt::Display for AffinePiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = self.denominator_lcm();
        let lr = BigRational::from_integer(l.clone());
        let terms: Vec<(&String, BigInt)> = self.terms().map(|(v, c)| (v, (c * &lr).to_integer())).collect();
        let constant = (&self.constant * &lr).to_integer();
        if l.is_one() {
            return write_integer_affine(f, &terms, &constant);
        }
        let single_term = terms.len() + usize::from(!constant.is_zero()) <= 1;
        if single_term {
            write_integer_affine(f, &terms, &constant)?;
            write!(f, "/{l}")
        } else {
            write!(f, "(")?;
            write_integer_affine(f, &terms, &constant)?;
            write!(f, ")/{l}")
        }
    }
}

/// How pieces combine into one candidate (the paper's §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Combination {
    /// `max(r_1, ..., r_n)`: suited to loops with several paths.
    Piecewise,
    /// `lex(r_1, ..., r_n)`: suited to unbounded non-determinism.
    Lexicographic,
    /// `phases(r_1, ..., r_n)`: suited to loops that go through phases.
    Multiphase,
}

impl Combination {
    pub const ALL: [Combination; 3] = [Combination::Piecewise, Combination::Lexicographic, Combination::Multiphase];

    /// The function name used in the printed form of a candidate.
    pub fn function_name(self) -> &'static str {
        match self {
            Combination::Piecewise => "max",
            Combination::Lexicographic => "lex",
            Combination::Multiphase => "phases",
        }
    }

    pub fn from_function_name(name: &str) -> Option<Combination> {
        Combination::ALL.into_iter().find(|c| c.function_name() == name)
    }
}

impl fmt::Display for Combination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Combination::Piecewise => "piecewise",
            Combination::Lexicographic => "lexicographic",
            Combination::Multiphase => "multiphase",
        };
        write!(f, "{name}")
    }
}

/// Accepts `piecewise`/`max`, `lexicographic`/`lex`, `multiphase`/`phases`.
impl FromStr for Combination {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "piecewise" | "max" => Ok(Combination::Piecewise),
            "lexicographic" | "lex" => Ok(Combination::Lexicographic),
            "multiphase" | "phases" => Ok(Combination::Multiphase),
            _ => Err(format!("unknown combination `{s}` (expected piecewise, lexicographic or multiphase)")),
        }
    }
}

/// A candidate ranking function for one loop: affine pieces and the way they
/// combine. For lexicographic and multiphase candidates `pieces[0]` is the
/// most significant component.
///
/// No pieces and a single zero piece both mean the constant 0; with at most
/// one piece the three combinations coincide, so equality ignores the
/// combination then.
#[derive(Clone, Debug)]
pub struct RankingCandidate {
    pub combination: Combination,
    pub pieces: Vec<AffinePiece>,
}

impl RankingCandidate {
    /// The starting candidate: the constant 0 (one zero piece, so the
    /// instrumentation always has a counter to work with).
    pub fn zero(combination: Combination) -> Self {
        RankingCandidate { combination, pieces: vec![AffinePiece::zero()] }
    }

    pub fn single(piece: AffinePiece) -> Self {
        RankingCandidate { combination: Combination::Piecewise, pieces: vec![piece] }
    }

    pub fn is_zero(&self) -> bool {
        match self.pieces.as_slice() {
            [] => true,
            [p] => p.is_zero(),
            _ => false,
        }
    }

    /// The pieces, with the constant 0 spelled as one zero piece.
    pub fn pieces_or_zero(&self) -> Vec<AffinePiece> {
        if self.pieces.is_empty() {
            vec![AffinePiece::zero()]
        } else {
            self.pieces.clone()
        }
    }

    /// The factor `L` of the instrumentation's scaled counters: the lcm of
    /// every denominator of every piece.
    pub fn denominator_lcm(&self) -> BigInt {
        self.pieces.iter().fold(BigInt::one(), |l, p| l.lcm(&p.denominator_lcm()))
    }

    /// Whether T_term would accept this terminating trace (header visits,
    /// entry first) under the counter semantics in the module documentation:
    /// false means the trace is a counterexample to the candidate. A state
    /// lacking a variable some piece uses counts as not covered.
    pub fn covers_trace(&self, samples: &[TerminatingSample]) -> bool {
        simulate::covers(self, samples)
    }
}

impl PartialEq for RankingCandidate {
    fn eq(&self, other: &Self) -> bool {
        let a = self.pieces_or_zero();
        let b = other.pieces_or_zero();
        a == b && (a.len() <= 1 || self.combination == other.combination)
    }
}

impl Eq for RankingCandidate {}

/// `21 - x`, `max(21 - x, x + 1, -x)`, `lex(x, y)`, `phases(y, x)`; `0` for
/// the constant candidate.
impl fmt::Display for RankingCandidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pieces.as_slice() {
            [] => write!(f, "0"),
            [p] => write!(f, "{p}"),
            pieces => {
                write!(f, "{}(", self.combination.function_name())?;
                for (i, p) in pieces.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{p}")?;
                }
                write!(f, ")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    fn piece(terms: &[(&str, BigRational)], c: BigRational) -> AffinePiece {
        AffinePiece { coeffs: terms.iter().map(|(v, k)| (v.to_string(), k.clone())).collect(), constant: c }
    }

    #[test]
    fn prints_pieces_in_c_infix_form() {
        assert_eq!(piece(&[("x", q(-1, 1))], q(21, 1)).to_string(), "21 - x");
        assert_eq!(piece(&[("x", q(1, 1))], q(1, 1)).to_string(), "x + 1");
        assert_eq!(piece(&[("x", q(-1, 1))], q(0, 1)).to_string(), "-x");
        assert_eq!(piece(&[("i", q(-1, 1)), ("n", q(1, 1))], q(0, 1)).to_string(), "n - i");
        assert_eq!(piece(&[("x", q(2, 3))], q(1, 3)).to_string(), "(2*x + 1)/3");
        assert_eq!(piece(&[("x", q(1, 3))], q(0, 1)).to_string(), "x/3");
        assert_eq!(piece(&[], q(-5, 2)).to_string(), "-5/2");
        assert_eq!(piece(&[("x", q(-1, 1)), ("y", q(-2, 1))], q(-1, 1)).to_string(), "-x - 2*y - 1");
        assert_eq!(piece(&[("x", q(0, 1))], q(0, 1)).to_string(), "0");
    }

    #[test]
    fn scaled_affine_and_lcm() {
        let p = piece(&[("x", q(2, 3)), ("y", q(1, 2))], q(1, 3));
        assert_eq!(p.denominator_lcm(), BigInt::from(6));
        let a = p.to_scaled_affine(&BigInt::from(6)).expect("integral");
        assert_eq!(a.to_string(), "4*x + 3*y + 2");
        assert!(p.to_scaled_affine(&BigInt::from(3)).is_none());
    }

    #[test]
    fn evaluates_exactly() {
        let p = piece(&[("x", q(2, 3))], q(1, 3));
        let state: BTreeMap<String, BigInt> = [("x".to_string(), BigInt::from(4))].into_iter().collect();
        assert_eq!(p.evaluate(&state), Some(q(3, 1)));
        assert_eq!(p.evaluate(&BTreeMap::new()), None);
    }

    #[test]
    fn zero_candidates_are_equal() {
        let a = RankingCandidate { combination: Combination::Lexicographic, pieces: vec![] };
        assert_eq!(a, RankingCandidate::zero(Combination::Piecewise));
        assert_eq!(a.to_string(), "0");
        assert!(a.is_zero());
    }
}
