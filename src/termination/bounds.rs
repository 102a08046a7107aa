//! How often a loop of a YES can iterate: an upper bound on the iterations
//! of one entry of the loop, over the values its variables have when the
//! loop is entered (issue 60).
//!
//! A bound is read off the checked ranking argument, whose certificate
//! already proves it (see [`of_proof`]); the counters count transitions
//! from the header into the loop (see below for the one entry of the body
//! they miss):
//! - T_rank with `max(p_1, ..., p_n)` (counters `unit·rank`, set to
//!   `max(p_1, ..., p_n, 0)` on entry, an error when a transition into the
//!   loop finds them negative): at most `floor(max(0, p_1, ..., p_n) / unit)
//!   + 1` such transitions;
//! - the decrease check with `max(p_1, ..., p_n)`: `f = max(0, p_i)` drops by
//!   `unit` from the header back to the header and stays at or above 0, on
//!   every iteration but one after which no iteration can start, so at most
//!   `floor(f / unit)` iterations come back to a header state from which
//!   the loop goes on;
//! - T_rank with `phases(p_1, ..., p_n)` (counters never reset, the last
//!   non-negative one decremented, an error when the first is negative):
//!   counter `j` takes at most `floor(max(p_j, 0) / unit) + 1` decrements,
//!   so the sum of these;
//! - lexicographic arguments reset their later components on states the
//!   loop reaches, which the entry values need not bound (`y = input()`
//!   inside the loop): no bound by themselves. Where each later component
//!   `p_k` has a *ceiling* `G_k` over the values on entry (shown by its own
//!   safety query, [`crate::instrument::Mode::Ceiling`], and the
//!   certificate checker: `p_k <= max(G_k)` on every header state the body
//!   is entered from), the product `(F_1 + 2) * ... * (F_n + 2)` bounds the
//!   body entries, with `F_1 = floor(max(0, p_1) / unit)` on entry and
//!   `F_k = floor(max(0, G_k) / unit)` (see [`lexicographic_product`]).
//!
//! Where a T_rank `max` bound holds, the one without its `+ 1` is tried as
//! well, by its own safety query ([`crate::instrument::Mode::Bound`]) and
//! certificate check (`check_bound`).
//!
//! What is counted is how often the body is entered. The counters see the
//! transitions from the header into the loop; one that enters the body and
//! leaves the loop (a `break`, the body of a `do`-`while` whose condition
//! fails, a `return`) is an exit to them, and a run that stops inside the
//! body (an `assume` that fails, undefined behaviour) has no transition at
//! all. The model's edges are composed, so a `break` cannot be told from a
//! failing guard (`while (1) { if (i > 10) break; i++; }` is the same model
//! as `while (i <= 10) i++;`, with one body entry more). Each entry of the
//! loop ends at most once, so every bound gets one more than the counters
//! allow: T_rank `+ 2`, the own query `+ 1`; the decrease check's `+ 1`
//! already counts the last entry of the body (every other one comes back
//! to the header).

use super::certificate;
use super::invariants::{strengthen, with_facts, Facts};
use super::outcome::LoopProof;
use crate::engine::EngineKind;
use crate::horn::encode::Encoding;
use crate::instrument::{instrument, CounterKind, CounterScheme, Mode, TransitionKind};
use crate::solve::{Budget, Verdict};
use crate::term::Affine;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::time::Duration;

/// `floor(max(0, p_1, ..., p_n) / unit)`, the pieces over the header state
/// on entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundTerm {
    pub pieces: Vec<Affine>,
    pub unit: BigInt,
}

/// One factor `term + plus` of a product bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundFactor {
    pub term: BoundTerm,
    pub plus: BigInt,
}

/// What a bound rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundBasis {
    /// The loop's ranking certificate (T_rank or the decrease check).
    RankingCertificate,
    /// Its own safety query, checked by the certificate checker.
    OwnCertificate,
    /// The loop's lexicographic (or multiphase) certificate and a checked
    /// ceiling of each later component.
    RankingAndCeilings,
}

/// An upper bound on the iterations (transitions from the header into the
/// body) of one entry of a loop: the sum of its terms, the product of its
/// factors (nothing when there are none) and a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationBound {
    pub terms: Vec<BoundTerm>,
    pub product: Vec<BoundFactor>,
    pub constant: BigInt,
    pub basis: BoundBasis,
}

/// The body entry the counters do not see (see the module's comment).
fn last_entry() -> BigInt {
    BigInt::one()
}

/// The bound a checked proof gives by itself (see the module's comment).
pub fn of_proof(proof: &LoopProof) -> Option<IterationBound> {
    let s = &proof.scheme;
    let whole = BoundTerm { pieces: s.pieces.clone(), unit: s.unit.clone() };
    let exit = last_entry();
    let (terms, constant) = match (s.kind, proof.decreases) {
        // Every iteration but the last comes back to the header.
        (CounterKind::Max, true) => (vec![whole], BigInt::one()),
        (CounterKind::Max, false) => (vec![whole], BigInt::one() + exit),
        (CounterKind::Phases, false) => (
            s.pieces.iter().map(|p| BoundTerm { pieces: vec![p.clone()], unit: s.unit.clone() }).collect(),
            BigInt::from(s.pieces.len().max(1)) + exit,
        ),
        _ => return None,
    };
    Some(IterationBound { terms, product: Vec::new(), constant, basis: BoundBasis::RankingCertificate })
}

/// Per-loop time for the query of a tighter bound.
const TIGHTER_TIME: Duration = Duration::from_millis(400);

/// The bound of a proof, tightened where its own query shows the `+ 1`
/// unneeded; for arguments that give none by themselves (lexicographic,
/// multiphase by decrease), the sums of their components tried as a
/// bound (each query within [`TIGHTER_TIME`]).
pub fn bound_of(enc: &Encoding, facts: &Facts, proof: &LoopProof, engine: EngineKind, budget: &Budget) -> Option<IterationBound> {
    let s = &proof.scheme;
    let plain = of_proof(proof);
    if budget.expired() {
        return plain;
    }
    let candidate = match (&plain, s.kind) {
        // T_rank's bound has the `+ 2`, its own query the `+ 1`; the
        // decrease check's already has the `+ 1` (the same query would
        // give nothing tighter).
        (Some(_), CounterKind::Max) if !proof.decreases => s.pieces.clone(),
        (Some(_), _) => return plain,
        (None, _) => component_sums(s),
    };
    let scheme = CounterScheme { kind: CounterKind::Max, pieces: candidate, unit: s.unit.clone() };
    match holds(enc, facts, proof.loop_index, &scheme, engine, budget) {
        true => Some(IterationBound {
            terms: vec![BoundTerm { pieces: scheme.pieces, unit: scheme.unit }],
            product: Vec::new(),
            constant: last_entry(),
            basis: BoundBasis::OwnCertificate,
        }),
        false if plain.is_none() => lexicographic_product(enc, facts, proof, engine, budget),
        false => plain,
    }
}

/// The product bound of a lexicographic or multiphase argument
/// `(p_1, ..., p_n)` whose later components have ceilings over the values
/// on entry.
///
/// Why `(F_1 + 2) * ... * (F_n + 2)` bounds the body entries, where `F_k`
/// bounds `floor(max(0, p_k) / unit)` on every header state the body is
/// entered from (for `p_1`, its value on entry: neither argument lets it
/// grow). Let `T_k` be how many iterations can choose a component `>= k`
/// between two that choose an earlier one. The decrease check chooses `k`
/// only where `p_k >= 0` and then lowers it by `unit`, and only an earlier
/// choice may raise it (to at most its ceiling): at most `F_k + 1` choices
/// of `k` in a row, each preceded and the last followed by at most
/// `T_{k+1}` later choices: `T_k = (F_k + 1) + (F_k + 2) T_{k+1}`, so
/// `T_k + 1 = (F_k + 2)(T_{k+1} + 1)` and `T_1 + 1` is the product, which
/// counts the header revisits and the last body entry. T_rank's counters
/// (the last non-negative one decremented, the later ones restarted from
/// their pieces on the state left, transitions stopped when the first is
/// negative) allow `T_k = (F_k + 1)(T_{k+1} + 1)`, no more; its last entry
/// of the body (see the module's comment) makes `T_1 + 1`, again at most the
/// product.
fn lexicographic_product(enc: &Encoding, facts: &Facts, proof: &LoopProof, engine: EngineKind, budget: &Budget) -> Option<IterationBound> {
    let s = &proof.scheme;
    if s.kind == CounterKind::Max || s.pieces.len() < 2 {
        return None;
    }
    let factor = |pieces: Vec<Affine>| BoundFactor { term: BoundTerm { pieces, unit: s.unit.clone() }, plus: BigInt::from(2) };
    let mut product = vec![factor(vec![s.pieces[0].clone()])];
    for p in &s.pieces[1..] {
        let candidates = ceiling_candidates(enc, facts, proof.loop_index, p);
        product.push(factor(ceiling(enc, facts, proof.loop_index, p, candidates, engine, budget)?));
    }
    Some(IterationBound { terms: Vec::new(), product, constant: BigInt::zero(), basis: BoundBasis::RankingAndCeilings })
}

/// Expressions over the entry values that may bound `p` in the loop: `p`
/// itself (a component that never grows) and what the loop's steps set
/// it to where that depends only on variables the loop leaves alone
/// (`j = N` in the body: `N`), or the invariant facts at the loop's
/// cut-points bound it by (`y <= m + 1`: `m + 1`). Only guesses: each is
/// checked.
pub(super) fn ceiling_candidates(enc: &Encoding, facts: &Facts, loop_index: usize, p: &Affine) -> Vec<Affine> {
    let Some(l) = enc.loops.get(loop_index) else { return Vec::new() };
    let inside: Vec<&crate::horn::encode::Transition> = enc
        .transitions
        .iter()
        .filter(|t| {
            matches!(crate::instrument::classify(t.from, t.to, &l.body, l.header), TransitionKind::Decrement | TransitionKind::Inside)
        })
        .collect();
    let kept: std::collections::BTreeSet<&str> = enc
        .vars
        .iter()
        .enumerate()
        .filter(|(i, v)| inside.iter().all(|t| t.post.get(*i) == Some(&v.term())))
        .map(|(_, v)| v.name.as_str())
        .collect();
    let mut out = vec![p.clone()];
    let minus_one = -BigInt::one();
    // Facts hold where they are; a guard of a step (`y <= m` before
    // `y++`) bounds `p` one step later.
    let held = l.body.iter().filter_map(|c| facts.get(c)).flatten().flat_map(|f| f.conjuncts()).map(|f| (f, 0));
    let guards = inside.iter().flat_map(|t| t.constraint.conjuncts()).map(|f| (f, 1));
    for (atom, slack) in held.chain(guards) {
        // `e >= 0` with `e = q - p`: `p <= q`.
        if let Some(mut q) = nonnegative(&atom).map(|e| e.plus(p)) {
            q.constant += slack;
            if q.coeffs.keys().all(|v| kept.contains(v.as_str())) && !out.contains(&q) && q != p.times(&minus_one) {
                out.push(q);
            }
        }
    }
    for t in &inside {
        // Each variable of `p` by the branches of its new value.
        let mut values: Vec<Affine> = vec![Affine::constant(p.constant.clone())];
        for (v, c) in &p.coeffs {
            let Some(i) = enc.vars.iter().position(|d| &d.name == v) else { values.clear(); break };
            let leaves: Vec<Affine> = branches(&t.post[i]).into_iter().filter_map(|b| Affine::from_term(&b)).collect();
            values = values.iter().flat_map(|a| leaves.iter().map(move |b| a.plus(&b.times(c)))).take(16).collect();
        }
        for a in values {
            if a.coeffs.keys().all(|v| kept.contains(v.as_str())) && !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out.truncate(6);
    out
}

/// A linear comparison as `e >= 0`.
fn nonnegative(c: &crate::term::Term) -> Option<Affine> {
    use crate::term::{Op, Term};
    let Term::App(op, xs) = c else { return None };
    let [a, b] = &xs[..] else { return None };
    let (a, b) = (Affine::from_term(a)?, Affine::from_term(b)?);
    let minus_one = -BigInt::one();
    let (lo, hi, strict) = match op {
        Op::Le => (a, b, false),
        Op::Lt => (a, b, true),
        Op::Ge => (b, a, false),
        Op::Gt => (b, a, true),
        _ => return None,
    };
    let mut e = hi.plus(&lo.times(&minus_one));
    if strict {
        e.constant -= 1;
    }
    Some(e)
}

/// The values an `ite` tree can take.
fn branches(t: &crate::term::Term) -> Vec<crate::term::Term> {
    match t {
        crate::term::Term::App(crate::term::Op::Ite, args) if args.len() == 3 => {
            let mut out = branches(&args[1]);
            out.extend(branches(&args[2]));
            out
        }
        _ => vec![t.clone()],
    }
}

/// A checked ceiling of `p` among `candidates`: the maximum of all, then
/// (for a shorter bound) each alone.
pub(super) fn ceiling(
    enc: &Encoding,
    facts: &Facts,
    loop_index: usize,
    p: &Affine,
    candidates: Vec<Affine>,
    engine: EngineKind,
    budget: &Budget,
) -> Option<Vec<Affine>> {
    let shows = |pieces: &[Affine]| {
        let scheme = CounterScheme { kind: CounterKind::Max, pieces: pieces.to_vec(), unit: BigInt::one() };
        let query = Query { enc, facts, loop_index, scheme: &scheme, mode: Mode::Ceiling(p.clone()) };
        query.shown(engine, budget, |inv| certificate::check_ceiling(enc, loop_index, &scheme, p, inv, budget).is_ok())
    };
    if candidates.is_empty() || budget.expired() || !shows(&candidates) {
        return None;
    }
    if candidates.len() > 1 {
        for c in &candidates {
            if budget.expired() {
                break;
            }
            if shows(std::slice::from_ref(c)) {
                return Some(vec![c.clone()]);
            }
        }
    }
    Some(candidates)
}

/// For `n` components `p_j`: every non-empty sum of them plus `n` units (a
/// multiphase argument's iterations are at most the sum of its phases').
fn component_sums(s: &CounterScheme) -> Vec<Affine> {
    let n = s.pieces.len().min(3);
    let extra = Affine::constant(&s.unit * BigInt::from(n));
    (1u32..(1 << n))
        .map(|set| {
            (0..n).filter(|j| set & (1 << j) != 0).fold(extra.clone(), |acc, j| acc.plus(&s.pieces[j]))
        })
        .collect()
}

/// Whether `scheme` bounds the loop's iterations ([`Mode::Bound`]), shown by
/// a safety query and the certificate checker.
fn holds(enc: &Encoding, facts: &Facts, loop_index: usize, scheme: &CounterScheme, engine: EngineKind, budget: &Budget) -> bool {
    let query = Query { enc, facts, loop_index, scheme, mode: Mode::Bound };
    query.shown(engine, budget, |inv| certificate::check_bound(enc, loop_index, scheme, inv, budget).is_ok())
}

/// One safety query of a bound or a ceiling on one loop.
struct Query<'a> {
    enc: &'a Encoding,
    facts: &'a Facts,
    loop_index: usize,
    scheme: &'a CounterScheme,
    mode: Mode,
}

impl Query<'_> {
    /// Whether an invariant that `checked` accepts (the certificate check
    /// on the program) shows the query safe within [`TIGHTER_TIME`]: first
    /// on the projection onto what the counters depend on (see
    /// `horn::project`; a loop inside a large body is settled there in
    /// milliseconds), without the facts (inductive only all together),
    /// then on the program with them.
    fn shown(&self, engine: EngineKind, budget: &Budget, checked: impl Fn(&crate::solve::Invariant) -> bool) -> bool {
        let quick = budget.sub_budget(TIGHTER_TIME);
        let mut seeds: std::collections::BTreeSet<String> = self.scheme.pieces.iter().flat_map(|p| p.coeffs.keys().cloned()).collect();
        if let Mode::Ceiling(p) = &self.mode {
            seeds.extend(p.coeffs.keys().cloned());
        }
        if let Some(small) = crate::horn::project::smaller_projection(self.enc, &seeds) {
            let inst = instrument(&small, self.loop_index, self.scheme, self.mode.clone());
            if safe_invariant(&inst, &Facts::new(), engine, &quick.sub_budget(TIGHTER_TIME / 2)).is_some_and(|inv| checked(&inv)) {
                return true;
            }
        }
        let inst = instrument(self.enc, self.loop_index, self.scheme, self.mode.clone());
        safe_invariant(&inst, self.facts, engine, &quick).is_some_and(|inv| checked(&inv))
    }
}

/// An invariant showing an instrumented system safe (with the facts
/// assumed, and conjoined so that the certificate check sees them).
fn safe_invariant(inst: &crate::instrument::Instrumented, facts: &Facts, engine: EngineKind, budget: &Budget) -> Option<crate::solve::Invariant> {
    let system = strengthen(inst, facts);
    let invariant = match crate::engine::houdini::solve(&system, budget) {
        Some(inv) => Some(inv),
        None => match crate::engine::portfolio::prove_safe(&system, engine, budget) {
            Verdict::Safe(inv) => Some(inv),
            _ => None,
        },
    };
    invariant.map(|inv| with_facts(&inv, inst, facts))
}

impl IterationBound {
    /// The same bound with the variables that every entry of the loop sets
    /// to one constant replaced by it (`n - i` is `n` where `i = 0` on
    /// entry): it is evaluated on the entry state, so nothing changes.
    pub fn on_entry(&self, enc: &Encoding, loop_index: usize) -> IterationBound {
        let Some(constants) = entry_constants(enc, loop_index) else { return self.clone() };
        IterationBound {
            terms: self.terms.iter().map(|t| substituted(t, &constants)).collect(),
            product: self.product.iter().map(|f| BoundFactor { term: substituted(&f.term, &constants), plus: f.plus.clone() }).collect(),
            ..self.clone()
        }
    }
}

/// The variables that every entry of loop `loop_index` sets to one
/// constant, with it (`i = 0`); `None` when there are none.
pub(super) fn entry_constants(enc: &Encoding, loop_index: usize) -> Option<std::collections::BTreeMap<String, crate::term::Term>> {
    let l = enc.loops.get(loop_index)?;
    let mut constants: Option<std::collections::BTreeMap<String, crate::term::Term>> = None;
    for t in &enc.transitions {
        let kind = crate::instrument::classify(t.from, t.to, &l.body, l.header);
        if kind != crate::instrument::TransitionKind::Entry || t.constraint == crate::term::Term::ff() {
            continue;
        }
        let here: std::collections::BTreeMap<String, crate::term::Term> = enc
            .vars
            .iter()
            .zip(&t.post)
            .filter(|(_, v)| matches!(v, crate::term::Term::Int(_)))
            .map(|(x, v)| (x.name.clone(), v.clone()))
            .collect();
        constants = Some(match constants {
            None => here,
            Some(c) => c.into_iter().filter(|(x, v)| here.get(x) == Some(v)).collect(),
        });
    }
    constants.filter(|c| !c.is_empty())
}

/// `t` with the variables of `constants` replaced by their values.
pub(super) fn substituted(t: &BoundTerm, constants: &std::collections::BTreeMap<String, crate::term::Term>) -> BoundTerm {
    let on = |p: &Affine| Affine::from_term(&p.to_term().subst(constants)).unwrap_or_else(|| p.clone());
    BoundTerm { pieces: t.pieces.iter().map(on).collect(), unit: t.unit.clone() }
}
