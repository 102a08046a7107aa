//! Ranking functions printed with small integer coefficients where a
//! positive scaling keeps their meaning (see [`scaled_pieces`]), over the
//! source names of [`Names`].

use super::cexpr::{affine, Names};
use crate::ranking::{AffinePiece, Combination, RankingCandidate};
use crate::term::Affine;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};


/// How a ranking function was checked, which decides which rescalings keep
/// its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Every iteration decreases it (`instrument::decrease`).
    Decrease,
    /// Its value on loop entry bounds the iterations (T_rank).
    Bound,
}

/// The pieces of a ranking function with integer coefficients, rescaled for
/// printing.
///
/// Why each rescaling keeps the meaning (all variables are integers):
/// - Multiplying a piece by a positive constant keeps its sign and the
///   direction of every change, and can only enlarge a bound on iterations,
///   so it is always allowed; it turns rational pieces into integer ones.
/// - Dividing by the gcd `g` of the variable coefficients with the constant
///   rounded down (`L' = L/g + floor(k/g)` for `g·L + k`) keeps
///   `piece >= 0` equivalent, keeps `<=` between two states, and turns a
///   decrease by at least 1 into one by at least 1 (the values are integers
///   and shrink by at least `1/g`). So it is allowed for ranking functions
///   checked by decrease, for a single piece and for each component of a
///   lexicographic or multiphase one separately (their conditions speak of
///   each component on its own). It is not allowed for a T_rank bound (`2n`
///   iterations are not bounded by `n`), nor per piece of a `max` (the
///   maximum of differently scaled pieces is another function); a `max`
///   is divided only by a common factor of every coefficient and constant.
pub fn scaled_pieces(c: &RankingCandidate, check: Check) -> Vec<Affine> {
    let pieces = c.pieces_or_zero();
    let integer = |p: &AffinePiece, l: &BigInt| p.to_scaled_affine(l).unwrap_or_default();
    match c.combination {
        Combination::Piecewise if pieces.len() > 1 => {
            let l = c.denominator_lcm();
            let ints: Vec<Affine> = pieces.iter().map(|p| integer(p, &l)).collect();
            if check == Check::Bound {
                return ints;
            }
            let g = ints
                .iter()
                .flat_map(|a| a.coeffs.values().chain(std::iter::once(&a.constant)))
                .fold(BigInt::zero(), |g, c| g.gcd(c));
            if g.is_zero() || g.is_one() {
                ints
            } else {
                ints.iter().map(|a| exact_div(a, &g)).collect()
            }
        }
        _ => pieces
            .iter()
            .map(|p| {
                let a = integer(p, &p.denominator_lcm());
                if check == Check::Bound {
                    a
                } else {
                    floor_div_coeffs(&a)
                }
            })
            .collect(),
    }
}

fn exact_div(a: &Affine, g: &BigInt) -> Affine {
    Affine { coeffs: a.coeffs.iter().map(|(v, c)| (v.clone(), c / g)).collect(), constant: &a.constant / g }
}

fn floor_div_coeffs(a: &Affine) -> Affine {
    let g = a.coeffs.values().fold(BigInt::zero(), |g, c| g.gcd(c));
    if g.is_zero() || g.is_one() {
        return a.clone();
    }
    Affine { coeffs: a.coeffs.iter().map(|(v, c)| (v.clone(), c / &g)).collect(), constant: a.constant.div_floor(&g) }
}

/// The ranking function in C-like form over source names: `n - i`,
/// `max(21 - x, x + 1)`, `lex(x, y)`. `None` when a piece mentions a
/// variable that has no source name.
pub fn ranking(c: &RankingCandidate, check: Check, names: &Names) -> Option<String> {
    let pieces = scaled_pieces(c, check);
    if pieces.iter().any(|p| p.coeffs.keys().any(|v| names.get(v).is_none())) {
        return None;
    }
    let printed: Vec<String> = pieces.iter().map(|p| affine(p, names)).collect();
    Some(match printed.as_slice() {
        [one] => one.clone(),
        many => format!("{}({})", c.combination.function_name(), many.join(", ")),
    })
}

/// The largest coefficient or constant (in decimal digits) of the printed
/// ranking function; what the integer-only proofs check stays small.
pub fn max_digits(pieces: &[Affine]) -> usize {
    pieces
        .iter()
        .flat_map(|a| a.coeffs.values().chain(std::iter::once(&a.constant)))
        .map(|c| c.abs().to_string().len())
        .max()
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::names::test_vars::{copy, source, temporary};
    use num_rational::BigRational;

    fn rational(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    fn names() -> Names {
        Names::readable(&[source("x"), source("y"), source("n"), source("i"), copy("f", "x", None), temporary("tmp%1")])
    }

    fn piece(terms: &[(&str, i64, i64)], c: (i64, i64)) -> AffinePiece {
        AffinePiece {
            coeffs: terms.iter().map(|(v, n, d)| (v.to_string(), rational(*n, *d))).collect(),
            constant: rational(c.0, c.1),
        }
    }

    #[test]
    fn ranking_functions_get_small_integer_coefficients() {
        let n = names();
        let single = RankingCandidate::single(piece(&[("n", 2, 1), ("i", -2, 1)], (1, 1)));
        assert_eq!(ranking(&single, Check::Decrease, &n).as_deref(), Some("n - i"));
        // A bound on iterations may not shrink.
        assert_eq!(ranking(&single, Check::Bound, &n).as_deref(), Some("2*n - 2*i + 1"));
        let lex = RankingCandidate {
            combination: Combination::Lexicographic,
            pieces: vec![piece(&[("x", -1, 1)], (21, 1)), piece(&[("x", 1, 10)], (1, 1))],
        };
        assert_eq!(ranking(&lex, Check::Decrease, &n).as_deref(), Some("lex(21 - x, x + 10)"));
        let max = RankingCandidate {
            combination: Combination::Piecewise,
            pieces: vec![piece(&[("x", 2, 1)], (2, 1)), piece(&[("y", 4, 1)], (1, 1))],
        };
        // Not every constant is even: a max keeps its common scale.
        assert_eq!(ranking(&max, Check::Decrease, &n).as_deref(), Some("max(2*x + 2, 4*y + 1)"));
        let hidden = RankingCandidate::single(piece(&[("tmp%1", 1, 1)], (0, 1)));
        assert_eq!(ranking(&hidden, Check::Decrease, &n), None);
    }
}

