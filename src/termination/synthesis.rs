//! Candidates from the loop's paths themselves: linear, multiphase and
//! lexicographic ranking functions synthesised with Farkas' lemma.
//!
//! The sampling method of the paper extrapolates from iteration counts,
//! which are not affine on many loops that still have simple linear
//! arguments (a counter that speeds up, `x = x + y; y--`, nested phases):
//! the fitted pieces then multiply without converging. Such loops are the
//! home ground of the classical constraint-based methods, so the portfolio
//! also asks them, once per loop, before sampling:
//!
//! - multiphase ranking functions of depth 1 to 3 (Ben-Amram and Genaim,
//!   CAV 2017): `f_1(x) - f_1(x') >= 1`, `f_{i-1}(x) + f_i(x) - f_i(x') >= 1`
//!   and `f_d(x) >= 0` on every path; depth 1 is a linear ranking function;
//! - lexicographic ones by the greedy algorithm of Alias, Darte, Feautrier
//!   and Gonnord (SAS 2010): each component is non-increasing on the paths
//!   left and decreases, bounded, on as many of them as possible.
//!
//! A path is a conjunction of linear constraints over the header state `x`,
//! the next header state `x'` and the iteration's local values; paths are
//! enumerated from the transition relation by model-based implicants and
//! strengthened with the affine equalities that hold at the header (Karr)
//! and with sign and order facts (Houdini).
//! Constraints that are not linear are dropped (the path only grows).
//! Nothing here needs to be exact: every candidate goes through the same
//! decrease check and certificate checker as the sampled ones, so a wrong
//! candidate costs time, never an answer.
//!
//! An iteration that passes inner cut-points (inner loops) is over-
//! approximated by an iteration summary (see `invariants`).

use crate::engine::pdr::affine::invariant_equalities;
use crate::engine::pdr::linear::linear_clauses;
use crate::engine::pdr::lit::{cube_term, Lit};
use crate::engine::pdr::mbp::project;
use super::invariants;
use crate::solve::Budget;
use crate::horn::encode::{Encoding, Source};
use crate::horn::normalize::{plain_args, simplify};
use crate::ranking::{AffinePiece, Combination, RankingCandidate};
use crate::smt::{bool_of, check, solver_for, value_in, Sat};
use crate::term::{Term, Valuation};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
#[cfg(test)]
use num_traits::Signed;
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::{Bool, Real};
use z3::Solver;

/// Paths enumerated per transition, and in all, before giving up on
/// covering the relation exactly.
const MAX_CUBES_PER_TRANSITION: usize = 16;
const MAX_PATHS: usize = 32;
/// Deepest multiphase template tried.
const MAX_PHASES: usize = 3;

/// `sum a_v v <= b`.
#[derive(Clone, Debug)]
struct Row {
    coeffs: BTreeMap<String, BigInt>,
    bound: BigInt,
}

/// One path of an iteration: rows over `x`, `x'` (named by `post_name`) and
/// locals.
#[derive(Clone, Debug)]
struct Path {
    rows: Vec<Row>,
}

fn post_name(v: &str) -> String {
    format!("{v}#next")
}

/// The candidates for loop `li`, most specific first: linear, multiphase,
/// lexicographic. Empty when the loop has inner cut-points or no path could
/// be read.
pub fn candidates(enc: &Encoding, li: usize, facts: &invariants::Facts, budget: &Budget) -> Vec<RankingCandidate> {
    let _guard = budget.cancel.register_thread_context();
    let Some(paths) = iteration_paths(enc, li, facts, budget) else { return vec![] };
    if paths.is_empty() {
        return vec![];
    }
    let vars: Vec<String> = enc.vars.iter().map(|v| v.name.clone()).collect();
    let mut out: Vec<RankingCandidate> = Vec::new();
    for depth in 1..=MAX_PHASES {
        if budget.expired() {
            return out;
        }
        if let Some(mut pieces) = multiphase(&paths, &vars, depth, budget) {
            let combination = if depth == 1 { Combination::Piecewise } else { Combination::Multiphase };
            if depth == 1 {
                // A piecewise candidate is read as `max(f, 0)`, which must
                // drop on every iteration: `f >= 1` where the loop iterates.
                pieces[0].constant += BigRational::from_integer(BigInt::from(1));
            }
            out.push(RankingCandidate { combination, pieces });
            break;
        }
    }
    // A multiphase candidate can fail the decrease check where a
    // lexicographic one passes (their conditions differ), so both are
    // offered; a linear one needs no second opinion.
    let linear = out.first().is_some_and(|c| c.pieces.len() == 1);
    if !linear && !budget.expired() {
        if let Some(pieces) = lexicographic(&paths, &vars, budget) {
            if pieces.len() > 1 {
                out.push(RankingCandidate { combination: Combination::Lexicographic, pieces });
            }
        }
    }
    out
}

/// The paths of one iteration of loop `li` (from the header back to it).
/// An iteration through inner cut-points (inner loops, split joins) is
/// read as: the iteration summary at the last inner cut-point, then its
/// transition back to the header.
fn iteration_paths(enc: &Encoding, li: usize, facts: &invariants::Facts, budget: &Budget) -> Option<Vec<Path>> {
    let lp = &enc.loops[li];
    let nested = enc.cutpoints.iter().any(|&c| c != lp.header && lp.body.contains(&c));
    let summaries = if nested { invariants::iteration_summaries(enc, li, facts, budget) } else { BTreeMap::new() };
    let mut header_facts = header_equalities(enc, lp.header);
    header_facts.extend(facts.get(&lp.header).cloned().unwrap_or_default());
    let first_steps = Term::or(
        enc.transitions
            .iter()
            .filter(|t| t.from == Source::At(lp.header) && t.to != lp.header && lp.body.contains(&t.to))
            .map(|t| {
                let locals: BTreeMap<String, Term> =
                    t.locals.iter().map(|l| (l.name.clone(), Term::var(format!("{}#first", l.name)))).collect();
                t.constraint.subst(&locals)
            })
            .collect(),
    );
    let mut paths = Vec::new();
    for t in &enc.transitions {
        let Source::At(from) = t.from else { continue };
        if t.to != lp.header || !lp.body.contains(&from) {
            continue;
        }
        let mut conj = header_facts.clone();
        // Names of the state the transition leaves: the header state itself,
        // or a middle state related to it by the summary.
        let mid: BTreeMap<String, Term> = if from == lp.header {
            BTreeMap::new()
        } else {
            let mid: BTreeMap<String, Term> =
                enc.vars.iter().map(|v| (v.name.clone(), Term::var(mid_name(&v.name)))).collect();
            let mut to_mid = mid.clone();
            for v in &enc.vars {
                to_mid.insert(invariants::start_name(&v.name), v.term());
            }
            for f in summaries.get(&from).into_iter().flatten().chain(facts.get(&from).into_iter().flatten()) {
                conj.push(f.subst(&to_mid));
            }
            // The iteration began with a step from the header into the body:
            // its condition holds on the header state (the loop guard).
            conj.push(first_steps.clone());
            mid
        };
        conj.push(t.constraint.subst(&mid));
        for (v, post) in enc.vars.iter().zip(&t.post) {
            conj.push(Term::eq(Term::var(post_name(&v.name)), post.subst(&mid)));
        }
        let phi = Term::and(conj);
        let free: Vec<_> = phi.free_vars().into_iter().collect();
        let solver: Solver = solver_for(budget);
        solver.assert(bool_of(&phi));
        for _ in 0..MAX_CUBES_PER_TRANSITION {
            if paths.len() >= MAX_PATHS {
                break;
            }
            match check(&solver, budget) {
                Sat::Sat => {}
                Sat::Unsat => break,
                Sat::Unknown => return None,
            }
            let model = solver.get_model()?;
            let mut env = Valuation::new();
            for v in &free {
                env.insert(v.name.clone(), value_in(&model, v)?);
            }
            let lits = project(&phi, &env, &|_| true).ok()?;
            let original: BTreeSet<String> = free.iter().map(|v| v.name.clone()).collect();
            // Block what this path covers (literals over the formula's own
            // variables; purification may have added others).
            let own: Vec<Lit> = lits.iter().filter(|l| l.vars().iter().all(|v| original.contains(v))).cloned().collect();
            paths.push(Path { rows: rows_of(&lits) });
            if own.is_empty() {
                break;
            }
            solver.assert(bool_of(&Term::not(cube_term(&own))));
        }
    }
    Some(paths)
}

fn mid_name(v: &str) -> String {
    format!("{v}#mid")
}

/// Linear rows of a cube; other literals are dropped (the path grows).
fn rows_of(lits: &[Lit]) -> Vec<Row> {
    let mut rows = Vec::new();
    for l in lits {
        match l {
            // e <= 0  <=>  sum a v <= -c
            Lit::Le(e) => rows.push(Row { coeffs: e.coeffs.clone(), bound: -&e.constant }),
            Lit::Eq(e) => {
                rows.push(Row { coeffs: e.coeffs.clone(), bound: -&e.constant });
                rows.push(Row { coeffs: e.coeffs.iter().map(|(v, c)| (v.clone(), -c)).collect(), bound: e.constant.clone() });
            }
            Lit::Div(..) | Lit::Atom(..) => {}
        }
    }
    rows
}

/// The affine equalities at the loop header (Karr's analysis of the plain
/// program), as terms over the program variables.
/// Programs with more variables get no header equalities in synthesis.
const MAX_VARS_FOR_EQUALITIES: usize = 64;
/// The same for programs of many paths (a reactive program's step function
/// of hundreds of rules: 20 s for its equalities).
const MAX_TRANSITIONS_FOR_EQUALITIES: usize = 400;

fn header_equalities(enc: &Encoding, header: crate::ir::LocId) -> Vec<Term> {
    // Simplifying the whole program's clauses and Karr's analysis take
    // seconds on programs with hundreds of variables (drivers, product
    // lines), far beyond synthesis' share of time: they go without.
    if enc.vars.len() > MAX_VARS_FOR_EQUALITIES || enc.transitions.len() > MAX_TRANSITIONS_FOR_EQUALITIES {
        return vec![];
    }
    let sys = simplify(&plain_args(&enc.plain_system()));
    let Ok(clauses) = linear_clauses(&sys) else { return vec![] };
    let arity: Vec<usize> = sys.preds.iter().map(|p| p.params.len()).collect();
    let name = enc.pred_name(header);
    let Some(p) = sys.preds.iter().position(|p| p.name == name) else { return vec![] };
    let eqs = invariant_equalities(&clauses, &arity, sys.preds.len());
    let slot_names: BTreeMap<String, String> =
        sys.preds[p].params.iter().enumerate().map(|(i, v)| (format!("#{i}"), v.name.clone())).collect();
    eqs.get(p)
        .map(|lits| {
            lits.iter()
                .map(|l| l.rename(&|s: &str| slot_names.get(s).cloned().unwrap_or_else(|| s.to_string())).to_term())
                .collect()
        })
        .unwrap_or_default()
}

/// An affine template `c . x + c0` with unknown rational coefficients.
struct Template {
    coeffs: Vec<(String, Real)>,
    constant: Real,
}

impl Template {
    fn new(tag: &str, vars: &[String]) -> Template {
        Template {
            coeffs: vars.iter().map(|v| (v.clone(), Real::fresh_const(&format!("c{tag}")))).collect(),
            constant: Real::fresh_const(&format!("k{tag}")),
        }
    }
    fn read(&self, model: &z3::Model) -> Option<AffinePiece> {
        let value = |r: &Real| -> Option<BigRational> {
            let v = model.eval(r, true)?;
            let (n, d) = v.as_rational()?;
            (d != 0).then(|| BigRational::new(BigInt::from(n), BigInt::from(d)))
        };
        let mut coeffs = BTreeMap::new();
        for (v, c) in &self.coeffs {
            let q = value(c)?;
            if !q.is_zero() {
                coeffs.insert(v.clone(), q);
            }
        }
        Some(AffinePiece { coeffs, constant: value(&self.constant)? })
    }
}

/// A linear form over named variables with unknown (z3) coefficients, and
/// a constant: the conclusion `g . v <= h` of a Farkas certificate.
#[derive(Default)]
struct Conclusion {
    g: BTreeMap<String, Vec<Real>>,
    h: Vec<Real>,
}

impl Conclusion {
    fn add(&mut self, var: &str, c: Real) {
        self.g.entry(var.to_string()).or_default().push(c);
    }
    /// Add `sign * f(x)` (over the pre-state) or `sign * f(x')` to the left.
    fn add_template(&mut self, t: &Template, sign: i64, next: bool, with_constant: bool) {
        let s = int_real(sign);
        for (v, c) in &t.coeffs {
            let name = if next { post_name(v) } else { v.clone() };
            self.add(&name, Real::mul(&[s.clone(), c.clone()]));
        }
        if with_constant {
            // Constants move to the right-hand side.
            self.h.push(Real::mul(&[int_real(-sign), t.constant.clone()]));
        }
    }
    fn rhs(&mut self, k: i64) {
        self.h.push(int_real(k));
    }
}

fn sum(xs: &[Real]) -> Real {
    if xs.is_empty() {
        int_real(0)
    } else {
        Real::add(xs)
    }
}

fn real_of(i: &BigInt) -> Real {
    int_real(i.clone())
}

/// An integer as a real (Z3 4.8 has no 64-bit real constructor).
fn int_real(i: impl Into<BigInt>) -> Real {
    Real::from_int(&crate::smt::int_const(&i.into()))
}

/// `forall v in path: g . v <= h`, by Farkas' lemma: some `l >= 0` with
/// `l A = g` and `l b <= h` (sufficient; also necessary on non-empty paths).
fn farkas(path: &Path, c: &Conclusion) -> Bool {
    let lambdas: Vec<Real> = path.rows.iter().map(|_| Real::fresh_const("l")).collect();
    let zero = int_real(0);
    let mut conj: Vec<Bool> = lambdas.iter().map(|l| l.ge(&zero)).collect();
    let mut vars: BTreeSet<&str> = c.g.keys().map(|s| s.as_str()).collect();
    for r in &path.rows {
        vars.extend(r.coeffs.keys().map(|s| s.as_str()));
    }
    for v in vars {
        let lhs: Vec<Real> = path
            .rows
            .iter()
            .zip(&lambdas)
            .filter_map(|(r, l)| r.coeffs.get(v).filter(|a| !a.is_zero()).map(|a| Real::mul(&[l.clone(), real_of(a)])))
            .collect();
        let rhs = c.g.get(v).map(|xs| sum(xs)).unwrap_or_else(|| int_real(0));
        conj.push(sum(&lhs).eq(&rhs));
    }
    let lb: Vec<Real> = path
        .rows
        .iter()
        .zip(&lambdas)
        .filter(|(r, _)| !r.bound.is_zero())
        .map(|(r, l)| Real::mul(&[l.clone(), real_of(&r.bound)]))
        .collect();
    conj.push(sum(&lb).le(sum(&c.h)));
    Bool::and(&conj)
}

/// `f(x) - f(x') >= k` as a conclusion: `-f(x) + f(x') <= -k`.
fn decreases_by(f: &Template, k: i64) -> Conclusion {
    let mut c = Conclusion::default();
    c.add_template(f, -1, false, false);
    c.add_template(f, 1, true, false);
    c.rhs(-k);
    c
}

/// `f(x) >= 0`: `-f(x) <= 0`.
fn bounded(f: &Template) -> Conclusion {
    let mut c = Conclusion::default();
    c.add_template(f, -1, false, true);
    c
}

/// A multiphase ranking function of the given depth, if one exists for the
/// paths (over the rationals).
fn multiphase(paths: &[Path], vars: &[String], depth: usize, budget: &Budget) -> Option<Vec<AffinePiece>> {
    let fs: Vec<Template> = (0..depth).map(|i| Template::new(&format!("m{i}"), vars)).collect();
    let solver = solver_for(budget);
    for p in paths {
        solver.assert(farkas(p, &decreases_by(&fs[0], 1)));
        for i in 1..depth {
            // f_{i-1}(x) + f_i(x) - f_i(x') >= 1
            let mut c = decreases_by(&fs[i], 1);
            c.add_template(&fs[i - 1], -1, false, true);
            solver.assert(farkas(p, &c));
        }
        solver.assert(farkas(p, &bounded(&fs[depth - 1])));
    }
    if check(&solver, budget) != Sat::Sat {
        return None;
    }
    let model = solver.get_model()?;
    fs.iter().map(|f| f.read(&model)).collect()
}

/// A lexicographic ranking function (greedy: each component ranks as many
/// of the remaining paths as it can).
fn lexicographic(paths: &[Path], vars: &[String], budget: &Budget) -> Option<Vec<AffinePiece>> {
    let mut left: Vec<usize> = (0..paths.len()).collect();
    let mut pieces = Vec::new();
    while !left.is_empty() {
        if pieces.len() > vars.len() + 1 || budget.expired() {
            return None;
        }
        let f = Template::new(&format!("x{}", pieces.len()), vars);
        let solver = solver_for(budget);
        let ranks: Vec<Bool> = left.iter().map(|i| Bool::fresh_const(&format!("s{i}"))).collect();
        for (&i, s) in left.iter().zip(&ranks) {
            solver.assert(farkas(&paths[i], &decreases_by(&f, 0)));
            let strict = Bool::and(&[farkas(&paths[i], &decreases_by(&f, 1)), farkas(&paths[i], &bounded(&f))]);
            solver.assert(s.implies(&strict));
        }
        // Grow the set of ranked paths while some other one can join.
        let mut chosen: Vec<bool> = vec![false; left.len()];
        let mut model = None;
        loop {
            let others: Vec<Bool> = ranks.iter().zip(&chosen).filter(|(_, &c)| !c).map(|(s, _)| s.clone()).collect();
            if others.is_empty() {
                break;
            }
            solver.push();
            solver.assert(Bool::or(&others));
            let sat = check(&solver, budget);
            if sat != Sat::Sat {
                solver.pop(1);
                break;
            }
            let m = solver.get_model()?;
            for (k, s) in ranks.iter().enumerate() {
                if m.eval(s, true).and_then(|b| b.as_bool()) == Some(true) {
                    chosen[k] = true;
                }
            }
            solver.pop(1);
            for (k, s) in ranks.iter().enumerate() {
                if chosen[k] {
                    solver.assert(s);
                }
            }
            model = Some(m);
        }
        let m = model?;
        pieces.push(f.read(&m)?);
        left = left.into_iter().zip(&chosen).filter(|(_, &c)| !c).map(|(i, _)| i).collect();
    }
    Some(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::horn::encode::encode;
    use std::time::Duration;

    fn loop_candidates(src: &str) -> Vec<RankingCandidate> {
        let p = crate::c::parse_source("t.c", src, crate::ir::IntSemantics::Math, crate::ir::MachineModel::lp64()).expect("lowers");
        let enc = encode(&p).expect("encodes");
        let b = Budget::with_timeout(Duration::from_secs(20));
        let facts = invariants::cutpoint_facts(&enc, &b);
        candidates(&enc, 0, &facts, &b)
    }

    #[test]
    fn linear_function_for_a_counter() {
        let c = loop_candidates("int main() { int i = 0, n = __VERIFIER_nondet_int(); while (i < n) { i = i + 2; } return 0; }");
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].pieces.len(), 1);
        // Every iteration lowers the piece by at least 1 and it is >= 0 inside.
        let piece = &c[0].pieces[0];
        assert!(piece.coeffs.get("n").is_some_and(|q| q.is_positive()), "{piece}");
        assert!(piece.coeffs.get("i").is_some_and(|q| q.is_negative()), "{piece}");
    }

    #[test]
    fn two_phases_for_an_accelerating_loop() {
        // x = x + y; y--: y must go negative before x falls.
        let c = loop_candidates(
            "int main() { int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int(); while (x > 0) { x = x + y; y--; } return 0; }",
        );
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].combination, Combination::Multiphase);
        assert_eq!(c[0].pieces.len(), 2);
    }

    #[test]
    fn lexicographic_for_a_reset_loop() {
        let c = loop_candidates(
            "int main() { int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
               while (x > 0 && y > 0) { if (__VERIFIER_nondet_int()) { x--; y = __VERIFIER_nondet_int(); } else { y--; } }
               return 0; }",
        );
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].combination, Combination::Lexicographic);
    }

    #[test]
    fn nothing_for_a_loop_that_may_run_forever() {
        let c = loop_candidates("int main() { int x = __VERIFIER_nondet_int(); while (x > 0) { x = x + 1; } return 0; }");
        assert!(c.is_empty(), "{c:?}");
    }
}
