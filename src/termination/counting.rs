//! Counting facts: what a ranked loop says about the counters stepped in
//! it.
//!
//! A loop ranked by `ρ` (integral, at least one smaller after every
//! iteration) runs at most `ρ` more times; a variable `v` stepped by at most
//! one per iteration (`len++`, `count += (c == x)`) therefore keeps
//! `v + ρ` at most its value on entering the loop, and one stepped down by
//! at most one keeps `v - ρ` at least that. When the entry value reads only
//! variables the loop does not change (`len = 0; p = head` gives
//! `len + order(p) <= order(head)`), the fact is a comparison over the
//! header's state, a candidate invariant like any other. After the loop
//! (where `ρ >= 0` held last), `v` itself stays within the entry value:
//! `allocations <= 1048576 + n` after a loop that allocates once per
//! iteration up to `n`.
//!
//! These are candidates only: the engine that takes them (Houdini, in the
//! warnings' checks) keeps those every clause preserves, and its invariant
//! is validated like any other. A wrong guess costs time, never soundness;
//! so the loop is matched by its header alone, and a ranking function
//! proved by T_rank (which bounds the iterations from the entry without
//! decreasing at each one) is tried the same way.
//!
//! Why the warnings need them: `len++` while walking a list built with at
//! most 1000 nodes is safe only because the walk is as long as the list,
//! which no comparison of the program states.

use crate::horn::encode::{Encoding, Source, Transition};
use crate::ir::LocId;
use crate::term::{Affine, Term};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};

/// A proved loop, for the counting facts: its header and its ranking
/// function scaled to integers (the first piece of a single-piece
/// candidate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedHeader {
    pub header: LocId,
    pub ranking: Affine,
    /// The conjuncts of the proof's invariant at the header over program
    /// variables: what the counting facts rest on at the header (the
    /// order of a list's links, found by the proof's engine).
    pub invariant: Vec<Term>,
}

/// The proved loops of `proofs` whose ranking function is one affine
/// piece, for [`counting_candidates`].
pub fn ranked_headers(proofs: &[(usize, super::LoopProof)]) -> Vec<RankedHeader> {
    proofs
        .iter()
        .filter_map(|(_, p)| match p.scheme.pieces.as_slice() {
            [one] if p.ranking.pieces.len() == 1 && !one.coeffs.is_empty() => Some(RankedHeader {
                header: p.header,
                ranking: one.clone(),
                invariant: p.invariant.conjuncts().into_iter().filter(|c| c.free_vars().iter().all(|v| !v.name.starts_with("r#"))).collect(),
            }),
            _ => None,
        })
        .collect()
}

/// Most distinct entry values tried per counter (one per way into the
/// loop that sets it differently).
const MAX_ENTRY_VALUES: usize = 2;

/// Most variables of a cut-point's counting facts ordered pairwise.
const MAX_ORDERED: usize = 8;

/// Candidate facts per cut-point of `enc`: for each ranked loop and each
/// variable its body changes, `v + ρ <= e` and `v - ρ >= e` at the header
/// and `v <= e`, `v >= e` where the loop's exits lead, `e` the value on
/// entry (see the module's comment). Every variable named must be one of
/// `enc`'s.
pub fn counting_candidates(enc: &Encoding, ranked: &[RankedHeader]) -> BTreeMap<LocId, Vec<Term>> {
    let mut out: BTreeMap<LocId, Vec<Term>> = BTreeMap::new();
    let known: BTreeSet<&str> = enc.vars.iter().map(|v| v.name.as_str()).collect();
    let cutpoints: BTreeSet<LocId> = enc.cutpoints.iter().copied().collect();
    let constants = comparison_constants(enc);
    let mut supporting: BTreeMap<LocId, Vec<Term>> = BTreeMap::new();
    for r in ranked {
        let Some(l) = enc.loops.iter().find(|l| l.header == r.header) else { continue };
        if r.ranking.coeffs.keys().any(|v| !known.contains(v.as_str())) {
            continue;
        }
        let from_body = |t: &Transition| matches!(t.from, Source::At(s) if l.body.contains(&s));
        let live = |t: &&Transition| t.constraint != Term::ff();
        let inside: Vec<&Transition> = enc.transitions.iter().filter(live).filter(|t| from_body(t) && l.body.contains(&t.to)).collect();
        let entries: Vec<&Transition> = enc.transitions.iter().filter(live).filter(|t| !from_body(t) && t.to == l.header).collect();
        let exits: Vec<&Transition> =
            enc.transitions.iter().filter(live).filter(|t| from_body(t) && !l.body.contains(&t.to) && cutpoints.contains(&t.to)).collect();
        // The counters: variables each step inside the loop leaves alone
        // or moves by one, up (`step` 1) or down (-1).
        let step_of = |i: usize, v: &crate::term::VarDecl| -> BTreeSet<i64> {
            inside
                .iter()
                .map(|t| {
                    let d = t.post.get(i).and_then(Affine::from_term).map(|p| p.plus(&Affine::from_term(&v.term()).unwrap_or_default().times(&BigInt::from(-1))));
                    match d {
                        Some(d) if d.coeffs.values().all(|c| c == &BigInt::from(0)) && d.constant.magnitude() <= &1u32.into() => {
                            i64::try_from(&d.constant).unwrap_or(2)
                        }
                        _ => 2,
                    }
                })
                .collect()
        };
        let counters: Vec<(&str, i64)> = enc
            .vars
            .iter()
            .enumerate()
            .filter(|(_, v)| !r.ranking.coeffs.contains_key(&v.name))
            .filter_map(|(i, v)| {
                let steps = step_of(i, v);
                let up = steps.iter().all(|s| *s == 0 || *s == 1) && steps.contains(&1);
                let down = steps.iter().all(|s| *s == 0 || *s == -1) && steps.contains(&-1);
                (up || down).then(|| (v.name.as_str(), if up { 1 } else { -1 }))
            })
            .collect();
        let changed: BTreeSet<&str> = enc
            .vars
            .iter()
            .enumerate()
            .filter(|(i, v)| inside.iter().any(|t| t.post.get(*i).is_some_and(|p| *p != v.term())))
            .map(|(_, v)| v.name.as_str())
            .collect();
        // The ranking function is bounded below in the loop, which the
        // counting facts need after it (`i <= n` when `i` stops at `n`).
        if !counters.is_empty() {
            for floor in [0, -1] {
                out.entry(l.header).or_default().push(Term::ge(r.ranking.to_term(), Term::int(floor)));
            }
            let known_here = |t: &Term| t.free_vars().iter().all(|v| known.contains(v.name.as_str()));
            supporting.entry(l.header).or_default().extend(r.invariant.iter().filter(|t| known_here(t)).cloned());
        }
        // The ranking function never exceeds its value on entry (`j + 1 <=
        // i` for `j = i - 1` counting down): a bound on what it reads.
        let entry: Option<BTreeSet<Affine>> = entries.iter().map(|t| entry_value(enc, t, &r.ranking, &changed)).collect();
        for e in entry.into_iter().flatten().take(MAX_ENTRY_VALUES) {
            out.entry(l.header).or_default().push(bounded(&r.ranking, &e, 1));
        }
        for &(v, sign) in &counters {
            // `v + ρ` (sign 1) or `v - ρ` (sign -1).
            let mut f = r.ranking.times(&BigInt::from(sign));
            *f.coeffs.entry(v.to_string()).or_default() += 1;
            let steady: Option<BTreeSet<Affine>> = entries.iter().map(|t| entry_value(enc, t, &f, &changed)).collect();
            // Where the entry value reads what the loop changes (`m =
            // n` where `n` is not kept), the bounds of the program's
            // comparisons stand in for it (`c + m <= 1000`).
            let values = match steady {
                Some(v) if !v.is_empty() && v.len() <= MAX_ENTRY_VALUES => v,
                _ => constants.iter().map(|k| Affine::constant(if sign > 0 { k.clone() } else { -k.clone() })).collect(),
            };
            let Some(var) = Affine::from_term(&Term::var(v)) else { continue };
            for e in &values {
                out.entry(l.header).or_default().push(bounded(&f, e, sign));
                // After the loop, the entry value may read a variable
                // no longer live there (the model then sets it to 0):
                // its bounds from the program's comparisons stand in.
                let mut after = vec![e.clone()];
                if let [(x, _)] = e.coeffs.iter().collect::<Vec<_>>().as_slice() {
                    after.extend(constants.iter().map(|c| Affine::from_term(&e.to_term().subst(&[((*x).clone(), Term::Int(c.clone()))].into())).unwrap_or_else(|| e.clone())));
                }
                for t in &exits {
                    for a in &after {
                        out.entry(t.to).or_default().push(bounded(&var, a, sign));
                    }
                }
            }
        }
    }
    // The facts bound a counter by the entry value (`len <= order(head)`),
    // which the other facts must bound in turn (`order(head) <
    // allocations`): the order between the variables they read.
    // At every cut-point: the fact at a loop's exit needs it at the loop's
    // header already.
    let vars: BTreeSet<crate::term::VarDecl> = out.values().flatten().flat_map(|t| t.free_vars()).collect();
    if !out.is_empty() {
        for c in &enc.cutpoints {
            out.entry(*c).or_default();
        }
    }
    // A pointer's block number is 0 (NULL) or at least where the numbers
    // of blocks allocated in a loop start: the disjunction that keeps a
    // list's order through `p->next = head` (`order(head) < order(p)`
    // holds only where `head` is not NULL).
    let starts = large_lower_bounds(enc);
    for facts in out.values_mut() {
        for x in &vars {
            for c in &starts {
                facts.push(Term::or(vec![Term::le(x.term(), Term::int(0)), Term::ge(x.term(), Term::Int(c.clone()))]));
            }
        }
        if vars.len() <= MAX_ORDERED {
            let vars: Vec<Term> = vars.iter().map(|v| v.term()).collect();
            for (k, x) in vars.iter().enumerate() {
                for y in &vars[k + 1..] {
                    facts.extend([Term::le(x.clone(), y.clone()), Term::lt(x.clone(), y.clone()), Term::ge(x.clone(), y.clone()), Term::gt(x.clone(), y.clone())]);
                }
            }
        }
    }
    // The proofs' facts at their headers, at every cut-point: a fact
    // about the heap's bookkeeping that the walk's proof needs
    // (`order(p) <= cache_block`) holds at the header only if it held
    // where the loop is entered from, the header of the loop before it,
    // whose own proof had no need of it. Houdini keeps those that hold.
    let spread: Vec<Term> = supporting.into_values().flatten().collect();
    if !spread.is_empty() {
        for c in &enc.cutpoints {
            out.entry(*c).or_default().extend(spread.iter().cloned());
        }
    }
    for facts in out.values_mut() {
        let mut seen = BTreeSet::new();
        facts.retain(|t| seen.insert(t.clone()));
    }
    out
}

/// Most constants of the program's comparisons tried as a variable's
/// bound after a loop.
const MAX_CONSTANTS: usize = 8;

/// The constants the transitions compare variables with (`n > 1000`), and
/// their neighbours (a strict comparison's bound), at most a few.
fn comparison_constants(enc: &Encoding) -> BTreeSet<BigInt> {
    let mut found = BTreeSet::new();
    for t in &enc.transitions {
        crate::engine::houdini::comparisons(&t.constraint, &mut |c| {
            if let Term::App(_, args) = c {
                for a in args.iter() {
                    if let Term::Int(k) = a {
                        if found.len() < MAX_CONSTANTS && k.bits() <= 16 {
                            found.insert(k.clone());
                        }
                    }
                }
            }
        });
    }
    found.iter().flat_map(|k| [k - 1, k.clone(), k + 1]).collect()
}

/// The large positive constants the transitions bound a variable below
/// with (`1048576 <= order(p)`), at most a few.
fn large_lower_bounds(enc: &Encoding) -> BTreeSet<BigInt> {
    let mut found = BTreeSet::new();
    for t in &enc.transitions {
        crate::engine::houdini::comparisons(&t.constraint, &mut |c| {
            if let Term::App(crate::term::Op::Le, args) = c {
                if let [Term::Int(k), Term::Var(..)] = &args[..] {
                    if k.bits() > 16 && k.bits() < 31 && found.len() < MAX_LARGE {
                        found.insert(k.clone());
                    }
                }
            }
        });
    }
    found
}

/// Most large lower bounds tried (see [`large_lower_bounds`]).
const MAX_LARGE: usize = 2;

/// `f <= e` (sign 1) or `f >= e` (sign -1), as a comparison with 0.
fn bounded(f: &Affine, e: &Affine, sign: i64) -> Term {
    let d = f.plus(&e.times(&BigInt::from(-1))).to_term();
    if sign > 0 {
        Term::le(d, Term::int(0))
    } else {
        Term::ge(d, Term::int(0))
    }
}

/// The value of `f` just after entry transition `t`, over variables the
/// loop does not change (so that it is the same at every visit of the
/// header); `None` where it reads anything else.
fn entry_value(enc: &Encoding, t: &Transition, f: &Affine, changed: &BTreeSet<&str>) -> Option<Affine> {
    let post: BTreeMap<String, Term> = enc.vars.iter().zip(&t.post).map(|(v, p)| (v.name.clone(), p.clone())).collect();
    // A value the entry stores in a variable the loop keeps (`n` read
    // from the input) is named by that variable after the entry.
    let mut named: BTreeMap<String, Term> = BTreeMap::new();
    for (v, p) in enc.vars.iter().zip(&t.post) {
        if let Term::Var(y, _) = p {
            if !changed.contains(v.name.as_str()) {
                named.entry(y.to_string()).or_insert_with(|| v.term());
            }
        }
    }
    let e = Affine::from_term(&f.to_term().subst(&post).subst(&named))?;
    let steady = e.coeffs.keys().all(|x| enc.vars.iter().any(|v| &v.name == x) && !changed.contains(x.as_str()));
    steady.then_some(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IntSemantics;

    /// The counting facts of a program's loops, ranked by the given affine
    /// functions (loop index, coefficients, constant), as text.
    fn candidates(src: &str, rankings: &[(usize, &[(&str, i64)], i64)]) -> Vec<String> {
        let p = crate::c::parse_source("t.c", src, IntSemantics::Math, crate::ir::MachineModel::lp64()).expect("lowers");
        let enc = crate::horn::encode::encode(&p).expect("encodes");
        let ranked: Vec<RankedHeader> = rankings
            .iter()
            .map(|(li, coeffs, c)| RankedHeader {
                header: enc.loops[*li].header,
                ranking: Affine { coeffs: coeffs.iter().map(|(v, k)| (v.to_string(), BigInt::from(*k))).collect(), constant: BigInt::from(*c) },
                invariant: Vec::new(),
            })
            .collect();
        counting_candidates(&enc, &ranked).values().flatten().map(|t| t.to_string()).collect()
    }

    #[test]
    fn a_counter_stepped_once_per_iteration_is_bounded_by_the_ranking_function() {
        let src = "int main(void) { int n = __VERIFIER_nondet_int(); int c = 0; \
                   for (int i = 0; i < n; i++) { if (__VERIFIER_nondet_int()) c++; } return c; }";
        let facts = candidates(src, &[(0, &[("n", 1), ("i", -1)], 0)]);
        // `c + n - i <= n` at the header: `c - i <= 0`.
        assert!(facts.iter().any(|f| f.contains('c') && f.contains('i') && !f.contains('n')), "{facts:?}");
    }

    #[test]
    fn an_entry_value_the_loop_changes_gives_way_to_the_programs_constants() {
        // `c` starts at `k`, which the loop changes: `c + 10 - i <= k` would
        // read `k` as it is at the header, not on entry; the comparison
        // constants (`10`) stand in.
        let src = "int main(void) { int k = __VERIFIER_nondet_int(); int c = k; \
                   for (int i = 0; i < 10; i++) { c++; k--; } return c + k; }";
        let facts = candidates(src, &[(0, &[("i", -1)], 10)]);
        // The sums (the orders between two variables are plain candidates).
        let with_c: Vec<&String> = facts.iter().filter(|f| f.contains("(+ c")).collect();
        assert!(!with_c.is_empty(), "{facts:?}");
        assert!(with_c.iter().all(|f| !f.contains('k')), "{with_c:?}");
    }
}
