//! How often the loops of a nest iterate in all, in one entry of the outer
//! loop: a polynomial over the outer loop's values on entry (issue 60), from
//! the per-loop bounds of [`super::bounds`].
//!
//! For a loop `L` with bound `B_L` (its body entries in one entry of `L`)
//! and the loops `C` directly inside it: every entry of `C` is a transition
//! from `L`'s header into `L`'s body (required: a nest where `C` is entered
//! from elsewhere, after a sibling loop, gets no bound), so `C` is entered
//! at most `B_L` times, and each entry iterates at most `N_C` times, `C`'s
//! own nest bound over `C`'s values on entry. Those values are `L`'s header
//! state after the entry transition: substituting the transition's
//! assignments (`j = i + 1`) turns each factor's pieces into expressions
//! over `L`'s header state, and a *ceiling* of each (a checked bound over
//! `L`'s entry values on every header state the body is entered from,
//! [`super::bounds::ceiling`]) bounds the factor on every entry of `C`.
//! Every factor is `floor(max(0, pieces) / unit) + plus` with `plus >= 0`
//! and every coefficient is positive, so the polynomial grows with each
//! factor and the ceilings bound it:
//!
//! `N_L = B_L * (1 + sum over C of ceil(N_C))`
//!
//! (the `1` counts `L`'s own iterations). Nothing here is a new argument:
//! the bounds and the ceilings are each checked by the certificate checker.

use super::bounds::{self, BoundFactor, BoundTerm, IterationBound};
use super::invariants::Facts;
use super::outcome::LoopProof;
use crate::engine::EngineKind;
use crate::horn::encode::{Encoding, Source};
use crate::instrument::{classify, TransitionKind};
use crate::solve::Budget;
use crate::term::{Affine, Term};
use num_bigint::BigInt;
use num_traits::{One, Zero};

use std::collections::BTreeMap;

/// A bound built from factors `floor(max(0, pieces) / unit) + plus` and
/// positive constants by sums and products (so it grows with each
/// factor), over the values on entry of a nest's outer loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NestBound {
    Factor(BoundFactor),
    Constant(BigInt),
    Sum(Vec<NestBound>),
    Product(Vec<NestBound>),
}

/// Most factors a nest bound holds (a deeper nest gives none).
const MAX_FACTORS: usize = 24;

impl NestBound {
    /// One loop's bound.
    pub fn of_loop(b: &IterationBound) -> NestBound {
        let mut sum: Vec<NestBound> = b.terms.iter().map(|t| NestBound::Factor(BoundFactor { term: t.clone(), plus: BigInt::zero() })).collect();
        if !b.product.is_empty() {
            sum.push(NestBound::Product(b.product.iter().cloned().map(NestBound::Factor).collect()));
        }
        sum.push(NestBound::Constant(b.constant.clone()));
        NestBound::Sum(sum)
    }

    fn factors(&self) -> usize {
        match self {
            NestBound::Factor(_) => 1,
            NestBound::Constant(_) => 0,
            NestBound::Sum(xs) | NestBound::Product(xs) => xs.iter().map(NestBound::factors).sum(),
        }
    }

    /// The same shape with each factor replaced by `f(factor)` (`None` if
    /// one has no replacement).
    pub fn map_factors(&self, f: &mut dyn FnMut(&BoundFactor) -> Option<BoundFactor>) -> Option<NestBound> {
        Some(match self {
            NestBound::Factor(x) => NestBound::Factor(f(x)?),
            NestBound::Constant(c) => NestBound::Constant(c.clone()),
            NestBound::Sum(xs) => NestBound::Sum(xs.iter().map(|x| x.map_factors(f)).collect::<Option<_>>()?),
            NestBound::Product(xs) => NestBound::Product(xs.iter().map(|x| x.map_factors(f)).collect::<Option<_>>()?),
        })
    }

    /// The same bound with the variables every entry of the loop sets to
    /// one constant replaced by it (see [`IterationBound::on_entry`]).
    pub fn on_entry(&self, enc: &Encoding, loop_index: usize) -> NestBound {
        let Some(constants) = bounds::entry_constants(enc, loop_index) else { return self.clone() };
        self.map_factors(&mut |f| Some(BoundFactor { term: bounds::substituted(&f.term, &constants), plus: f.plus.clone() })).unwrap_or_else(|| self.clone())
    }
}

/// A bound on the loop iterations of a whole run: the sum, over the loops
/// inside no other loop, of each one's nest bound (its own bound where it
/// has no loop inside), over values the program fixes before its first
/// loop and does not change on the way to the loops whose bounds read them.
///
/// Such a loop is entered at most once per run: a second entry would close
/// a cycle around it, which in a program whose loops all have headers is a
/// loop containing it. Each nest bound is over its loop's values on entry;
/// every variable it still reads after the entry's constants are put in
/// (`i = 0`) is one that no step from a cut-point on the way to the loop
/// changes, so its value at the loop's entry is the one it had when the
/// first loop started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramBound {
    pub bound: NestBound,
    /// The variables the bound reads (their values when the first loop
    /// starts).
    pub over: Vec<String>,
    /// The degree of the polynomial: `O(n^degree)` in the size of the
    /// values it reads.
    pub degree: usize,
}

/// The bound of a whole run over `loops` (the proofs of every loop of
/// `enc`, each with its bound), or `None` where one is missing, the
/// program recurses, or a bound reads a variable that changes after the
/// first loop starts.
pub fn program_bound(enc: &Encoding, loops: &[LoopProof]) -> Option<ProgramBound> {
    if !enc.recursions.is_empty() || loops.len() != enc.loops.len() || loops.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    let mut over = std::collections::BTreeSet::new();
    for (li, l) in enc.loops.iter().enumerate() {
        if l.parent.is_some() {
            continue;
        }
        let proof = loops.iter().find(|p| p.loop_index == li)?;
        // A loop with loops inside needs its nest bound: its own counts
        // only its iterations.
        let has_inner = enc.loops.iter().any(|c| c.header != l.header && l.body.contains(&c.header));
        let own = match &proof.nest_bound {
            Some(n) => n.clone(),
            None if !has_inner => NestBound::of_loop(proof.bound.as_ref()?),
            None => return None,
        };
        let own = own.on_entry(enc, li);
        let mut reads = std::collections::BTreeSet::new();
        own.map_factors(&mut |f| {
            reads.extend(f.term.pieces.iter().flat_map(|p| p.coeffs.keys().cloned()));
            Some(f.clone())
        });
        // Every step from a cut-point on the way to the loop (outside it)
        // keeps what the bound reads.
        let before = crate::instrument::relevant_cutpoints(enc, l.header);
        let on_the_way = |t: &&crate::horn::encode::Transition| {
            matches!(t.from, Source::At(c) if !l.body.contains(&c)) && (t.to == l.header || before.contains(&t.to))
        };
        for x in &reads {
            let i = enc.vars.iter().position(|v| &v.name == x)?;
            if enc.transitions.iter().filter(on_the_way).any(|t| t.post.get(i) != Some(&enc.vars[i].term())) {
                return None;
            }
        }
        over.extend(reads);
        parts.push(own);
    }
    let bound = NestBound::Sum(parts);
    Some(ProgramBound { degree: bound.degree(), bound, over: over.into_iter().collect() })
}

impl NestBound {
    /// The degree of the polynomial: a factor that reads a variable counts
    /// one.
    pub fn degree(&self) -> usize {
        match self {
            NestBound::Factor(f) => usize::from(f.term.pieces.iter().any(|p| !p.coeffs.is_empty())),
            NestBound::Constant(_) => 0,
            NestBound::Sum(xs) => xs.iter().map(NestBound::degree).max().unwrap_or(0),
            NestBound::Product(xs) => xs.iter().map(NestBound::degree).sum(),
        }
    }
}

/// The nest bound of every loop of `proofs` that has loops inside it (all
/// loops proved, each with its bound), by loop index, within `budget`.
pub fn nest_bounds(enc: &Encoding, facts: &Facts, proofs: &[(usize, LoopProof)], engine: EngineKind, budget: &Budget) -> BTreeMap<usize, NestBound> {
    let by_loop: BTreeMap<usize, &LoopProof> = proofs.iter().map(|(li, p)| (*li, p)).collect();
    let mut cx = Nest { enc, facts, by_loop, engine, budget, ceilings: BTreeMap::new(), done: BTreeMap::new() };
    let mut out = BTreeMap::new();
    for li in 0..enc.loops.len() {
        if cx.children(li).is_empty() {
            continue;
        }
        if let Some(n) = cx.nest(li) {
            out.insert(li, n);
        }
    }
    out
}

struct Nest<'a> {
    enc: &'a Encoding,
    facts: &'a Facts,
    by_loop: BTreeMap<usize, &'a LoopProof>,
    engine: EngineKind,
    budget: &'a Budget,
    /// Ceilings found (or not) per loop and expression.
    ceilings: BTreeMap<(usize, Affine), Option<Vec<Affine>>>,
    done: BTreeMap<usize, Option<NestBound>>,
}

impl Nest<'_> {
    /// The loops directly inside loop `li`: by the bodies (every loop
    /// inside `li` is one of them or inside one of them, so the nest bound
    /// counts them all).
    fn children(&self, li: usize) -> Vec<usize> {
        let loops = &self.enc.loops;
        let inside = |outer: usize, c: usize| c != outer && loops[outer].body.contains(&loops[c].header) && loops[outer].header != loops[c].header;
        (0..loops.len()).filter(|&c| inside(li, c) && !(0..loops.len()).any(|m| m != li && inside(li, m) && inside(m, c))).collect()
    }

    fn nest(&mut self, li: usize) -> Option<NestBound> {
        if let Some(n) = self.done.get(&li) {
            return n.clone();
        }
        let found = self.compute(li);
        self.done.insert(li, found.clone());
        found
    }

    fn compute(&mut self, li: usize) -> Option<NestBound> {
        let own = NestBound::of_loop(self.by_loop.get(&li)?.bound.as_ref()?);
        let children = self.children(li);
        if children.is_empty() {
            return Some(own);
        }
        let mut inner = vec![NestBound::Constant(BigInt::one())];
        for c in children {
            let n = self.nest(c)?;
            inner.push(self.ceiled(li, c, &n)?);
        }
        let total = NestBound::Product(vec![own, NestBound::Sum(inner)]);
        (total.factors() <= MAX_FACTORS).then_some(total)
    }

    /// `n` (over loop `c`'s values on entry) bounded over the values on
    /// entry of `outer`, the loop `c` is directly inside.
    fn ceiled(&mut self, outer: usize, c: usize, n: &NestBound) -> Option<NestBound> {
        let (enc, header) = (self.enc, self.enc.loops[outer].header);
        let inner = &enc.loops[c];
        let entries: Vec<_> = enc
            .transitions
            .iter()
            .filter(|t| classify(t.from, t.to, &inner.body, inner.header) == TransitionKind::Entry && t.constraint != Term::ff())
            .collect();
        if entries.is_empty() || entries.iter().any(|t| t.from != Source::At(header)) {
            return None;
        }
        n.map_factors(&mut |f| {
            let mut pieces: Vec<Affine> = Vec::new();
            for t in &entries {
                let post: BTreeMap<String, Term> = enc.vars.iter().zip(&t.post).map(|(v, p)| (v.name.clone(), p.clone())).collect();
                for p in &f.term.pieces {
                    let q = Affine::from_term(&p.to_term().subst(&post))?;
                    if q.coeffs.keys().any(|v| t.locals.iter().any(|l| &l.name == v)) {
                        return None;
                    }
                    for g in self.ceiling(outer, q)? {
                        if !pieces.contains(&g) {
                            pieces.push(g);
                        }
                    }
                }
            }
            Some(BoundFactor { term: BoundTerm { pieces, unit: f.term.unit.clone() }, plus: f.plus.clone() })
        })
    }

    /// A checked ceiling of `q` over loop `li`'s entry values (a constant is
    /// its own).
    fn ceiling(&mut self, li: usize, q: Affine) -> Option<Vec<Affine>> {
        if q.coeffs.is_empty() {
            return Some(vec![q]);
        }
        if let Some(found) = self.ceilings.get(&(li, q.clone())) {
            return found.clone();
        }
        let candidates = bounds::ceiling_candidates(self.enc, self.facts, li, &q);
        let found = bounds::ceiling(self.enc, self.facts, li, &q, candidates, self.engine, self.budget);
        self.ceilings.insert((li, q), found.clone());
        found
    }
}

