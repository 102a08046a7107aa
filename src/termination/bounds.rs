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
//!   `unit` from the header back to the header and stays at or above 0, so
//!   the header is revisited at most `floor(f / unit)` times;
//! - T_rank with `phases(p_1, ..., p_n)` (counters never reset, the last
//!   non-negative one decremented, an error when the first is negative):
//!   counter `j` takes at most `floor(max(p_j, 0) / unit) + 1` decrements,
//!   so the sum of these;
//! - lexicographic arguments reset their later components on states the
//!   loop reaches, which the entry values need not bound (`y = input()`
//!   inside the loop): no bound.
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
use crate::instrument::{instrument, CounterKind, CounterScheme, Mode};
use crate::solve::{Budget, Verdict};
use crate::term::Affine;
use num_bigint::BigInt;
use num_traits::One;
use std::time::Duration;

/// `floor(max(0, p_1, ..., p_n) / unit)`, the pieces over the header state
/// on entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundTerm {
    pub pieces: Vec<Affine>,
    pub unit: BigInt,
}

/// What a bound rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundBasis {
    /// The loop's ranking certificate (T_rank or the decrease check).
    RankingCertificate,
    /// Its own safety query, checked by the certificate checker.
    OwnCertificate,
}

/// An upper bound on the iterations (transitions from the header into the
/// body) of one entry of a loop: the sum of its terms plus a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationBound {
    pub terms: Vec<BoundTerm>,
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
    Some(IterationBound { terms, constant, basis: BoundBasis::RankingCertificate })
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
        (Some(_), CounterKind::Max) => s.pieces.clone(),
        (Some(_), _) => return plain,
        (None, _) => component_sums(s),
    };
    let scheme = CounterScheme { kind: CounterKind::Max, pieces: candidate, unit: s.unit.clone() };
    match holds(enc, facts, proof.loop_index, &scheme, engine, budget) {
        true => Some(IterationBound {
            terms: vec![BoundTerm { pieces: scheme.pieces, unit: scheme.unit }],
            constant: last_entry(),
            basis: BoundBasis::OwnCertificate,
        }),
        false => plain,
    }
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
    let quick = budget.sub_budget(TIGHTER_TIME);
    let inst = instrument(enc, loop_index, scheme, Mode::Bound);
    let system = strengthen(&inst, facts);
    let invariant = match crate::engine::houdini::solve(&system, &quick) {
        Some(inv) => Some(inv),
        None => match crate::engine::portfolio::prove_safe(&system, engine, &quick) {
            Verdict::Safe(inv) => Some(inv),
            _ => None,
        },
    };
    invariant
        .map(|inv| with_facts(&inv, &inst, facts))
        .is_some_and(|inv| certificate::check_bound(enc, loop_index, scheme, &inv, budget).is_ok())
}

impl IterationBound {
    /// The same bound with the variables that every entry of the loop sets
    /// to one constant replaced by it (`n - i` is `n` where `i = 0` on
    /// entry): it is evaluated on the entry state, so nothing changes.
    pub fn on_entry(&self, enc: &Encoding, loop_index: usize) -> IterationBound {
        let Some(l) = enc.loops.get(loop_index) else { return self.clone() };
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
        let Some(constants) = constants.filter(|c| !c.is_empty()) else { return self.clone() };
        let on = |p: &Affine| Affine::from_term(&p.to_term().subst(&constants)).unwrap_or_else(|| p.clone());
        IterationBound {
            terms: self.terms.iter().map(|t| BoundTerm { pieces: t.pieces.iter().map(on).collect(), unit: t.unit.clone() }).collect(),
            ..self.clone()
        }
    }
}
