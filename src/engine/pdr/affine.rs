//! Affine equalities that hold in every derivable state (Karr's analysis
//! over the clauses), used to seed PDR with lemmas such as `r = n - i` that
//! inductive generalisation of cubes rarely finds on its own.
//!
//! Each predicate gets an affine subspace of `Q^arity` (a point and a basis
//! of directions, or empty). A clause maps the space of its body predicate
//! through the linear equalities of its constraint (other conjuncts are
//! ignored: an over-approximation, so the result stays sound) and the head's
//! space grows to the affine hull of the old space and the image. Spaces
//! only grow in dimension, so the fixpoint is reached after at most
//! `arity + 1` changes per predicate.

use super::linear::LinearClause;
use super::lit::{affine_of, Lit};
use crate::term::{Affine, Op, Sort, Term};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

type Q = BigRational;

#[derive(Clone, Debug, PartialEq)]
struct Space {
    point: Vec<Q>,
    /// Linearly independent directions, in row echelon form.
    basis: Vec<Vec<Q>>,
}

/// Reduce vectors to an independent set spanning the same space (row
/// echelon form).
fn echelon(mut rows: Vec<Vec<Q>>, width: usize) -> Vec<Vec<Q>> {
    let mut out: Vec<Vec<Q>> = Vec::new();
    let mut col = 0;
    while col < width && !rows.is_empty() {
        if let Some(i) = rows.iter().position(|r| !r[col].is_zero()) {
            let pivot = rows.swap_remove(i);
            for r in rows.iter_mut() {
                if !r[col].is_zero() {
                    let f = &r[col] / &pivot[col];
                    for k in col..width {
                        let d = &f * &pivot[k];
                        r[k] -= d;
                    }
                }
            }
            out.push(pivot);
        }
        col += 1;
    }
    out
}

/// Solutions of `A x = b` as (particular solution, null space basis), or
/// None when inconsistent. Rows are `[a_1 .. a_n | b]`.
fn solve(rows: Vec<Vec<Q>>, n: usize) -> Option<(Vec<Q>, Vec<Vec<Q>>)> {
    let mut rows = rows;
    let mut pivots: Vec<(usize, usize)> = Vec::new(); // (row, col)
    let mut r = 0;
    for col in 0..n {
        let Some(i) = (r..rows.len()).find(|&i| !rows[i][col].is_zero()) else { continue };
        rows.swap(r, i);
        let p = rows[r][col].clone();
        for k in 0..=n {
            rows[r][k] = &rows[r][k] / &p;
        }
        for i2 in 0..rows.len() {
            if i2 != r && !rows[i2][col].is_zero() {
                let f = rows[i2][col].clone();
                for k in 0..=n {
                    let d = &f * &rows[r][k];
                    rows[i2][k] -= d;
                }
            }
        }
        pivots.push((r, col));
        r += 1;
        if r == rows.len() {
            break;
        }
    }
    // Inconsistent: a zero row with a non-zero right-hand side.
    for row in rows.iter().skip(r) {
        if row[..n].iter().all(|c| c.is_zero()) && !row[n].is_zero() {
            return None;
        }
    }
    let is_pivot: Vec<bool> = (0..n).map(|c| pivots.iter().any(|&(_, pc)| pc == c)).collect();
    let mut particular = vec![Q::zero(); n];
    for &(row, col) in &pivots {
        particular[col] = rows[row][n].clone();
    }
    let mut null = Vec::new();
    for f in (0..n).filter(|&c| !is_pivot[c]) {
        let mut v = vec![Q::zero(); n];
        v[f] = Q::one();
        for &(row, col) in &pivots {
            v[col] = -rows[row][f].clone();
        }
        null.push(v);
    }
    Some((particular, null))
}

/// Linear equalities among the top-level conjuncts of a constraint.
fn equalities(t: &Term) -> Vec<Affine> {
    let mut out = Vec::new();
    for c in t.conjuncts() {
        if let Term::App(Op::Eq, args) = &c {
            if args.len() == 2 && args[0].sort() == Sort::Int {
                if let (Some(a), Some(b)) = (affine_of(&args[0]), affine_of(&args[1])) {
                    out.push(a.plus(&b.times(&-BigInt::one())));
                }
            }
        }
    }
    out
}

/// Image of `body` (None for facts) through clause `c` onto the head's
/// arguments; None when empty.
fn image(c: &LinearClause, body: Option<&Space>, head_arity: usize) -> Option<Space> {
    // Columns: direction parameters t, head arguments, other variables.
    let mut col: BTreeMap<String, usize> = BTreeMap::new();
    let dims = body.map_or(0, |s| s.basis.len());
    let mut n = dims;
    if let Some((_, vs)) = &c.head {
        for v in vs {
            col.insert(v.name.clone(), n);
            n += 1;
        }
    }
    let head_cols: Vec<usize> = (dims..dims + head_arity).collect();
    let eqs = equalities(&c.constraint);
    let mut body_names: BTreeMap<String, usize> = BTreeMap::new();
    if let Some((_, vs)) = &c.body {
        for (j, v) in vs.iter().enumerate() {
            body_names.insert(v.name.clone(), j);
        }
    }
    for e in &eqs {
        for v in e.coeffs.keys() {
            if !col.contains_key(v) && !body_names.contains_key(v) {
                col.insert(v.clone(), n);
                n += 1;
            }
        }
    }
    let mut rows = Vec::new();
    for e in &eqs {
        let mut row = vec![Q::zero(); n + 1];
        let mut rhs = -Q::from_integer(e.constant.clone());
        for (v, k) in &e.coeffs {
            let k = Q::from_integer(k.clone());
            if let Some(&j) = body_names.get(v) {
                // body argument j = point[j] + sum_i t_i basis_i[j]
                let s = body?;
                rhs -= &k * &s.point[j];
                for (i, b) in s.basis.iter().enumerate() {
                    row[i] += &k * &b[j];
                }
            } else if let Some(&ci) = col.get(v) {
                row[ci] += k;
            }
        }
        row[n] = rhs;
        rows.push(row);
    }
    let (particular, null) = solve(rows, n)?;
    let point: Vec<Q> = head_cols.iter().map(|&c| particular[c].clone()).collect();
    let dirs: Vec<Vec<Q>> = null.iter().map(|v| head_cols.iter().map(|&c| v[c].clone()).collect()).collect();
    Some(Space { point, basis: echelon(dirs, head_arity) })
}

fn join(a: &Space, b: &Space) -> Space {
    let width = a.point.len();
    let mut rows = a.basis.clone();
    rows.extend(b.basis.iter().cloned());
    rows.push(b.point.iter().zip(&a.point).map(|(x, y)| x - y).collect());
    Space { point: a.point.clone(), basis: echelon(rows, width) }
}

/// Time after which Karr's analysis gives up (exact rational linear
/// algebra is cubic in the number of slots: programs with hundreds of
/// variables would spend seconds here). Giving up gives no equalities,
/// which is always sound.
const KARR_TIME: std::time::Duration = std::time::Duration::from_millis(500);

/// The affine equalities holding for each predicate, as literals over the
/// slots `#0, #1, ...` (empty for unreachable predicates, and for all when
/// the analysis runs out of time). Bool-sorted slots are left out.
pub fn invariant_equalities(clauses: &[LinearClause], arity: &[usize], bottom: usize) -> Vec<Vec<Lit>> {
    let n = arity.len();
    let started = std::time::Instant::now();
    let mut space: Vec<Option<Space>> = vec![None; n];
    let mut changed = true;
    let mut rounds = 0;
    while changed && rounds < 1000 {
        changed = false;
        rounds += 1;
        for c in clauses {
            if started.elapsed() > KARR_TIME {
                return vec![Vec::new(); n];
            }
            let Some((p, _)) = &c.head else { continue };
            if *p >= n || *p == bottom {
                continue;
            }
            let body = match &c.body {
                Some((q, _)) => match &space[*q] {
                    Some(s) => Some(s),
                    None => continue,
                },
                None => None,
            };
            let Some(img) = image(c, body, arity[*p]) else { continue };
            let next = match &space[*p] {
                None => img,
                Some(old) => join(old, &img),
            };
            let grew = match &space[*p] {
                None => true,
                Some(old) => next.basis.len() > old.basis.len(),
            };
            if grew {
                space[*p] = Some(next);
                changed = true;
            }
        }
    }
    space
        .iter()
        .enumerate()
        .map(|(p, s)| match s {
            Some(s) => equalities_of(s, arity[p]),
            None => Vec::new(),
        })
        .collect()
}

/// Equalities `a . x = a . point` for every `a` orthogonal to the basis,
/// scaled to integer coefficients.
fn equalities_of(s: &Space, width: usize) -> Vec<Lit> {
    let rows: Vec<Vec<Q>> = s.basis.iter().map(|b| {
        let mut r = b.clone();
        r.push(Q::zero());
        r
    }).collect();
    let Some((_, normals)) = solve(rows, width) else { return Vec::new() };
    let mut out = Vec::new();
    for a in normals {
        let denom = a.iter().fold(BigInt::one(), |acc, q| acc.lcm(q.denom()));
        let ints: Vec<BigInt> = a.iter().map(|q| (q * Q::from_integer(denom.clone())).to_integer()).collect();
        let c: Q = ints.iter().zip(&s.point).map(|(k, p)| Q::from_integer(k.clone()) * p).sum();
        if !c.is_integer() {
            continue;
        }
        let mut e = Affine::constant(-c.to_integer());
        for (j, k) in ints.iter().enumerate() {
            if !k.is_zero() {
                e.coeffs.insert(format!("#{j}"), k.clone());
            }
        }
        if let Ok(l) = Lit::eq(e) {
            out.push(l);
        }
    }
    out
}
