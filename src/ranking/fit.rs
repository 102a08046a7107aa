//! Exact fitting of an affine piece `m·x + q = remaining` through terminating
//! samples, over `BigRational` (no floating point: a piece that is off by
//! 1e-9 is not a ranking function).
//!
//! Samples usually under-determine the piece (one trace of a loop with twenty
//! variables gives a handful of independent equations), and the choice among
//! the solutions decides how fast the prover converges: a piece built on the
//! wrong variables keeps producing counterexamples. So the fitter returns the
//! SIMPLEST solution: fewest variables first (supports of size 0, 1, 2, 3
//! tried over the variables in their given order), then the smallest common
//! denominator (integer pieces before fractional ones), then the smallest sum
//! of absolute coefficients, then a zero constant, then a small constant.
//! Beyond the enumeration budget it falls back to plain elimination with the
//! free unknowns set to 0.

use super::{AffinePiece, TerminatingSample};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::BTreeSet;

/// Largest number of variables tried together before falling back.
const MAX_SUPPORT: usize = 3;
/// Largest number of small systems solved by the support enumeration: keeps
/// a fit in the prover's inner loop to milliseconds with ~20 variables
/// (1 + 20 + 190 + 1140 supports).
const MAX_SYSTEMS: u128 = 4000;

/// The equations `q + Σ m_j·x_j = remaining` of a set of samples, kept in
/// echelon form so that adding a sample and asking whether a sample still
/// fits cost `O(rank · width)`, independent of the number of samples.
///
/// Unknown columns: 0 is the constant `q`, `1 + j` the coefficient of
/// variable `j`; the last column of every row is the right-hand side. Rows
/// are integer and primitive (fraction-free elimination): on real traces
/// rationals would spend their time in gcds of every single operation.
#[derive(Clone, Debug)]
pub(crate) struct SampleSystem {
    width: usize,
    /// Each row's first non-zero entry (its pivot) is positive, and the row
    /// is zero at the pivots of the rows before it.
    rows: Vec<Vec<BigInt>>,
    pivots: Vec<usize>,
    inconsistent: bool,
}

impl SampleSystem {
    pub(crate) fn new(var_count: usize) -> Self {
        SampleSystem { width: var_count + 1, rows: Vec::new(), pivots: Vec::new(), inconsistent: false }
    }

    /// `[1, x_1, ..., x_n, remaining]`, None when the state lacks a variable.
    pub(crate) fn sample_row(sample: &TerminatingSample, vars: &[String]) -> Option<Vec<BigInt>> {
        let mut row = Vec::with_capacity(vars.len() + 2);
        row.push(BigInt::one());
        for v in vars {
            row.push(sample.state.get(v)?.clone());
        }
        row.push(sample.remaining.clone());
        Some(row)
    }

    /// Reduce `row` by the pivots; return the index of its first non-zero
    /// entry (`width` means `0 = c ≠ 0`: the row contradicts the system).
    fn reduce(&self, row: &mut [BigInt]) -> Option<usize> {
        for (b, &p) in self.rows.iter().zip(&self.pivots) {
            if row[p].is_zero() {
                continue;
            }
            // row := b[p]·row - row[p]·b, which zeroes row[p].
            let a = &b[p];
            let c = row[p].clone();
            for (x, y) in row.iter_mut().zip(b) {
                if !a.is_one() {
                    *x *= a;
                }
                if !y.is_zero() {
                    *x -= &c * y;
                }
            }
            make_primitive(row);
        }
        row.iter().position(|c| !c.is_zero())
    }

    /// Add an equation; returns whether the system is still consistent.
    pub(crate) fn insert(&mut self, row: &[BigInt]) -> bool {
        if !self.try_insert(row) {
            self.inconsistent = true;
        }
        !self.inconsistent
    }

    /// Add an equation if the system stays consistent with it; otherwise
    /// leave the system unchanged and return false. One reduction instead
    /// of `admits` followed by `insert`.
    pub(crate) fn try_insert(&mut self, row: &[BigInt]) -> bool {
        if self.inconsistent || row.len() != self.width + 1 {
            return false;
        }
        let mut r = row.to_vec();
        match self.reduce(&mut r) {
            None => true,
            Some(p) if p == self.width => false,
            Some(p) => {
                if r[p].is_negative() {
                    for x in r.iter_mut() {
                        *x = -std::mem::take(x);
                    }
                }
                self.rows.push(r);
                self.pivots.push(p);
                true
            }
        }
    }

    /// The simplest solution (see the module documentation), as a piece over
    /// `vars` (the variables of columns 1..). None when inconsistent.
    pub(crate) fn simplest_solution(&self, vars: &[String]) -> Option<AffinePiece> {
        if self.inconsistent || vars.len() + 1 != self.width {
            return None;
        }
        if self.rows.is_empty() {
            return Some(AffinePiece::zero());
        }
        let rhs = self.width;
        let all: Vec<usize> = (0..self.width).collect();
        if self.rows.len() == self.width {
            // Full rank: the solution is unique, nothing to choose.
            return solve(&self.rows, &all, rhs).map(|sol| piece_of(&sol, &all, vars));
        }
        let candidates = self.informative_columns();
        let residues: Vec<Vec<u64>> = self.rows.iter().map(|r| r.iter().map(residue).collect()).collect();
        let mut examined: u128 = 0;
        for size in 0..=MAX_SUPPORT.min(candidates.len()) {
            let count = binomial(candidates.len(), size);
            if examined.saturating_add(count) > MAX_SYSTEMS {
                break;
            }
            examined += count;
            let mut best: Option<(Simplicity, Vec<BigRational>, Vec<usize>)> = None;
            for support in Combinations::new(candidates.len(), size) {
                let mut cols = Vec::with_capacity(size + 1);
                cols.push(0);
                cols.extend(support.iter().map(|&i| candidates[i]));
                // Most supports are inconsistent: reject them modulo a prime
                // first. A spurious rejection (a prime dividing a minor,
                // astronomically rare) could only cost simplicity, never
                // exactness: every answer comes from the exact solve.
                if !consistent_modulo_prime(&residues, &cols, rhs) {
                    continue;
                }
                let Some(sol) = solve(&self.rows, &cols, rhs) else { continue };
                let key = Simplicity::of_solution(&sol);
                // Strictly better only: ties keep the earlier support, i.e.
                // the variables that come first in the caller's order.
                if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                    best = Some((key, sol, cols));
                }
            }
            if let Some((_, sol, cols)) = best {
                return Some(piece_of(&sol, &cols, vars));
            }
        }
        solve(&self.rows, &all, rhs).map(|sol| piece_of(&sol, &all, vars))
    }

    /// Variable columns worth trying in a support: a variable that is
    /// constant over all samples does nothing the constant term cannot do,
    /// and a column identical to an earlier one gives the same pieces with a
    /// later name. Linear relations between columns are the same in the
    /// echelon rows as in the samples (same row space), so the test runs on
    /// the few echelon rows.
    fn informative_columns(&self) -> Vec<usize> {
        let column = |j: usize| -> Vec<&BigInt> { self.rows.iter().map(|r| &r[j]).collect() };
        let ones = column(0);
        let mut seen: BTreeSet<Vec<&BigInt>> = BTreeSet::new();
        let mut out = Vec::new();
        for j in 1..self.width {
            let col = column(j);
            // col = k·ones for a rational k  <=>  all 2x2 minors vanish.
            let constant_like = match ones.iter().position(|c| !c.is_zero()) {
                Some(a) => col.iter().zip(&ones).all(|(c, o)| *c * ones[a] == col[a] * *o),
                None => col.iter().all(|c| c.is_zero()),
            };
            if constant_like {
                continue;
            }
            if seen.insert(col) {
                out.push(j);
            }
        }
        out
    }
}

/// Divide a row by the gcd of its entries, keeping the numbers small.
fn make_primitive(row: &mut [BigInt]) {
    let mut g = BigInt::zero();
    for x in row.iter() {
        if !x.is_zero() {
            g = g.gcd(x);
            if g.is_one() {
                return;
            }
        }
    }
    if g.is_zero() {
        return;
    }
    for x in row.iter_mut() {
        if !x.is_zero() {
            *x /= &g;
        }
    }
}

/// 2^61 - 1, a Mersenne prime: residues multiply in u128 without overflow.
const PRIME: u64 = (1 << 61) - 1;

fn residue(x: &BigInt) -> u64 {
    let r = x.mod_floor(&BigInt::from(PRIME));
    r.to_u64().unwrap_or(0)
}

fn mul_mod(a: u64, b: u64) -> u64 {
    ((a as u128 * b as u128) % PRIME as u128) as u64
}

/// Whether `rows` restricted to `cols` is consistent modulo `PRIME`
/// (forward fraction-free elimination, no inverses needed).
fn consistent_modulo_prime(rows: &[Vec<u64>], cols: &[usize], rhs: usize) -> bool {
    let m = cols.len();
    let mut a: Vec<Vec<u64>> =
        rows.iter().map(|r| cols.iter().map(|&c| r[c]).chain(std::iter::once(r[rhs])).collect()).collect();
    let mut next = 0;
    for c in 0..m {
        let Some(p) = (next..a.len()).find(|&r| a[r][c] != 0) else { continue };
        a.swap(next, p);
        let (top, below) = a.split_at_mut(next + 1);
        let pivot_row = &top[next];
        let piv = pivot_row[c];
        for row in below.iter_mut() {
            let f = row[c];
            if f == 0 {
                continue;
            }
            for k in c..=m {
                let x = mul_mod(piv, row[k]);
                let y = mul_mod(f, pivot_row[k]);
                row[k] = (x + PRIME - y) % PRIME;
            }
        }
        next += 1;
    }
    a[next..].iter().all(|row| row[m] == 0)
}

fn piece_of(sol: &[BigRational], cols: &[usize], vars: &[String]) -> AffinePiece {
    let mut piece = AffinePiece::zero();
    for (value, &c) in sol.iter().zip(cols) {
        if value.is_zero() {
            continue;
        }
        if c == 0 {
            piece.constant = value.clone();
        } else {
            piece.coeffs.insert(vars[c - 1].clone(), value.clone());
        }
    }
    piece
}

/// Solve the equations `rows` restricted to the unknowns `cols` (all other
/// unknowns fixed to 0) by fraction-free Gauss-Jordan elimination; free
/// unknowns get 0. Returns the values of `cols` in order, None when
/// inconsistent.
fn solve(rows: &[Vec<BigInt>], cols: &[usize], rhs: usize) -> Option<Vec<BigRational>> {
    let m = cols.len();
    let mut a: Vec<Vec<BigInt>> = rows
        .iter()
        .map(|r| cols.iter().map(|&c| r[c].clone()).chain(std::iter::once(r[rhs].clone())).collect())
        .collect();
    let mut pivot_cols = Vec::with_capacity(m);
    let mut next = 0;
    for c in 0..m {
        let Some(p) = (next..a.len()).find(|&r| !a[r][c].is_zero()) else { continue };
        a.swap(next, p);
        let pivot_row = a[next].clone();
        let piv = &pivot_row[c];
        for (r, row) in a.iter_mut().enumerate() {
            if r == next || row[c].is_zero() {
                continue;
            }
            let f = row[c].clone();
            for (x, y) in row.iter_mut().zip(&pivot_row) {
                *x *= piv;
                if !y.is_zero() {
                    *x -= &f * y;
                }
            }
            make_primitive(row);
        }
        pivot_cols.push(c);
        next += 1;
    }
    if a[next..].iter().any(|row| !row[m].is_zero()) {
        return None;
    }
    let mut sol = vec![BigRational::zero(); m];
    for (r, &c) in pivot_cols.iter().enumerate() {
        sol[c] = BigRational::new(a[r][m].clone(), a[r][c].clone());
    }
    Some(sol)
}

/// Order of preference among pieces of the same support size.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Simplicity {
    denominator_lcm: BigInt,
    coefficient_sum: BigRational,
    constant_nonzero: bool,
    constant_abs: BigRational,
}

impl Simplicity {
    /// `sol[0]` is the constant, the rest variable coefficients.
    fn of_solution(sol: &[BigRational]) -> Self {
        let denominator_lcm = sol.iter().fold(BigInt::one(), |l, c| l.lcm(c.denom()));
        let coefficient_sum = sol.iter().skip(1).fold(BigRational::zero(), |s, c| s + c.abs());
        Simplicity { denominator_lcm, coefficient_sum, constant_nonzero: !sol[0].is_zero(), constant_abs: sol[0].abs() }
    }
}

/// A total "how complicated is this piece" order, used by the piece builder to
/// choose between explanations: support size first, then as for the fitter.
pub(crate) fn piece_complexity(p: &AffinePiece) -> (usize, BigInt, BigRational, bool, BigRational) {
    let sum = p.terms().fold(BigRational::zero(), |s, (_, c)| s + c.abs());
    (p.support_size(), p.denominator_lcm(), sum, !p.constant.is_zero(), p.constant.abs())
}

fn binomial(n: usize, k: usize) -> u128 {
    let mut r: u128 = 1;
    for i in 0..k {
        r = r.saturating_mul((n - i) as u128) / (i as u128 + 1);
    }
    r
}

/// k-subsets of 0..n in lexicographic order.
struct Combinations {
    n: usize,
    current: Option<Vec<usize>>,
}

impl Combinations {
    fn new(n: usize, k: usize) -> Self {
        Combinations { n, current: (k <= n).then(|| (0..k).collect()) }
    }
}

impl Iterator for Combinations {
    type Item = Vec<usize>;
    fn next(&mut self) -> Option<Vec<usize>> {
        let out = self.current.clone()?;
        let k = out.len();
        let mut next = out.clone();
        let mut i = k;
        loop {
            if i == 0 {
                self.current = None;
                break;
            }
            i -= 1;
            if next[i] < self.n - k + i {
                next[i] += 1;
                for j in i + 1..k {
                    next[j] = next[j - 1] + 1;
                }
                self.current = Some(next);
                break;
            }
        }
        Some(out)
    }
}

/// Fit `m·x + q = remaining` exactly through all samples; the simplest
/// solution when several exist (fewest variables, then integer, then small
/// coefficients, then constant 0, preferring variables earlier in `vars`).
/// Variables missing from some sample's state are not used. None when no
/// affine function over `vars` fits.
pub fn fit_affine(samples: &[TerminatingSample], vars: &[String]) -> Option<AffinePiece> {
    let mut usable: Vec<String> = Vec::new();
    for v in vars {
        if !usable.contains(v) && samples.iter().all(|s| s.state.contains_key(v)) {
            usable.push(v.clone());
        }
    }
    let mut system = SampleSystem::new(usable.len());
    for s in samples {
        let row = SampleSystem::sample_row(s, &usable)?;
        if !system.insert(&row) {
            return None;
        }
    }
    system.simplest_solution(&usable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn sample(pairs: &[(&str, i64)], remaining: i64) -> TerminatingSample {
        let state: BTreeMap<String, BigInt> = pairs.iter().map(|(v, x)| (v.to_string(), BigInt::from(*x))).collect();
        TerminatingSample::new(state, remaining)
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn combinations_enumerate_in_order() {
        let all: Vec<Vec<usize>> = Combinations::new(4, 2).collect();
        assert_eq!(all, vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]);
        assert_eq!(Combinations::new(3, 0).count(), 1);
        assert_eq!(Combinations::new(2, 3).count(), 0);
        assert_eq!(binomial(20, 3), 1140);
    }

    #[test]
    fn paper_example_5() {
        let s = [sample(&[("x", 9)], 12), sample(&[("x", 4)], 17)];
        assert_eq!(fit_affine(&s, &names(&["x"])).map(|p| p.to_string()).as_deref(), Some("21 - x"));
    }

    #[test]
    fn no_samples_fit_the_zero_piece() {
        assert_eq!(fit_affine(&[], &names(&["x"])), Some(AffinePiece::zero()));
    }

    #[test]
    fn constant_variables_are_not_used() {
        // n is constant along the trace: the constant term explains it.
        let s = [sample(&[("i", 0), ("n", 3)], 3), sample(&[("i", 1), ("n", 3)], 2)];
        assert_eq!(fit_affine(&s, &names(&["n", "i"])).map(|p| p.to_string()).as_deref(), Some("3 - i"));
    }

    #[test]
    fn falls_back_beyond_the_support_budget() {
        // r = a + b + c + d needs four variables: found by the fallback.
        let vars = names(&["a", "b", "c", "d"]);
        let points = [[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [1, 1, 1, 1]];
        let s: Vec<_> = points
            .iter()
            .map(|p| {
                let pairs: Vec<(&str, i64)> = vars.iter().map(|v| v.as_str()).zip(p.iter().copied()).collect();
                sample(&pairs, p.iter().sum())
            })
            .collect();
        assert_eq!(fit_affine(&s, &vars).map(|p| p.to_string()).as_deref(), Some("a + b + c + d"));
    }
}
