//! Candidates read off a loop's guard, tried before anything costlier.
//!
//! Most loops of real code are bounded by their guard: `i < n` with `i`
//! moving towards `n` on every path, a product line's
//! `while (1) { if (counter < 4) ... else break; counter++; ... }`. On
//! large programs the sampling and the constraint-based synthesis spend
//! their budget on everything else the iteration does; the slack of the
//! guard (`n - i`) is the ranking function, and one decrease check settles
//! it. Like every other candidate, these go through the decrease check and
//! the certificate checker, so a wrong guess costs time, never an answer.

use crate::horn::encode::{Encoding, Source};
use crate::ranking::{AffinePiece, RankingCandidate};
use crate::term::{Affine, Op, Term};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::BTreeSet;

/// Most candidates tried per loop.
const MAX_GUARD_CANDIDATES: usize = 3;

/// The slacks of the comparisons that every iteration assumes of the header
/// state on its first step: `b - a` for `a < b` or `a <= b`.
pub fn guard_candidates(enc: &Encoding, li: usize) -> Vec<RankingCandidate> {
    let Some(lp) = enc.loops.get(li) else { return Vec::new() };
    let starts: Vec<_> = enc.iteration_starts(lp).collect();
    if starts.is_empty() {
        return Vec::new();
    }
    // The program's own comparisons first: range facts of the types
    // (`x >= -2147483648`) have huge constants and read badly as proofs.
    let mut slacks: Vec<Affine> = iteration_guard(enc, lp)
        .iter()
        .filter_map(slack)
        .filter(|s| !s.coeffs.is_empty())
        .collect();
    // A slack that one whole iteration (a path from the header straight
    // back to it) moves up by a constant, or leaves alone, cannot be the
    // ranking function: `4*j + 1` from the memory-safety fact `0 <= 4*j`
    // of `a[j]` in `for (j = ...; j < 20; j++)`. Such slacks go last, so
    // that the guard's own `20 - j` is checked first (each wrong candidate
    // costs a decrease query of seconds on a large body).
    // In a loop with cut-points inside (an inner loop, a call), no
    // iteration goes straight back to the header: there the slack cannot
    // decrease when no step inside the loop lowers it.
    let iterations: Vec<&crate::horn::encode::Transition> = starts.iter().copied().filter(|t| t.to == lp.header).collect();
    let inside: Vec<&crate::horn::encode::Transition> = super::certificate::loop_region(enc, li)
        .map(|r| r.transitions.iter().filter_map(|&i| enc.transitions.get(i)).collect())
        .unwrap_or_default();
    let cannot_rank = |s: &Affine| {
        iterations.iter().any(|t| keeps_or_raises(enc, t, s)) || (!inside.is_empty() && inside.iter().all(|t| keeps_or_raises(enc, t, s)))
    };
    slacks.sort_by_key(|s| (cannot_rank(s), s.constant.magnitude().clone(), s.coeffs.len()));
    let mut out: Vec<RankingCandidate> = Vec::new();
    for slack in slacks {
        let piece = AffinePiece {
            coeffs: slack.coeffs.iter().map(|(v, k)| (v.clone(), BigRational::from_integer(k.clone()))).collect(),
            constant: BigRational::from_integer(slack.constant.clone()),
        };
        let candidate = RankingCandidate::single(piece);
        if !out.contains(&candidate) {
            out.push(candidate);
        }
        if out.len() == MAX_GUARD_CANDIDATES {
            break;
        }
    }
    out
}

/// The unsigned views of signed variables (`(unsigned int) x`, see
/// `ir/unsigned_view.rs`) live at the loop's header: a countdown through
/// the conversion that wraps from the most negative value to the most
/// positive one is ranked by the conversion.
pub fn unsigned_view_candidates(enc: &Encoding, li: usize) -> Vec<RankingCandidate> {
    let Some(live) = enc.loops.get(li).and_then(|lp| enc.live.get(lp.header)) else { return Vec::new() };
    enc.program_vars
        .iter()
        .filter(|v| v.origin == crate::ir::Origin::UnsignedView && live.contains(&v.name))
        .map(|v| RankingCandidate::single(AffinePiece::variable(v.name.clone())))
        .collect()
}

/// The conjuncts of the pre-state guard that every transition from the
/// loop's header into its body has: the loop's own condition.
fn iteration_guard(enc: &Encoding, lp: &crate::ir::loops::Loop) -> BTreeSet<Term> {
    let mut guards = enc
        .iteration_starts(lp)
        .map(|t| t.pre_state_guard().conjuncts().into_iter().collect::<BTreeSet<Term>>());
    let first = guards.next().unwrap_or_default();
    guards.fold(first, |common, g| common.intersection(&g).cloned().collect())
}

/// Whether every variable of the candidate is the offset or the size of a
/// pointer (a slack the memory-safety assumption `0 <= p.off`,
/// `p.off + 4 <= p.size` gives, not one of the program's comparisons).
/// In a loop that moves pointers from block to block (`p = p->next`) such
/// a slack compares positions in different blocks, and is tried after the
/// allocation order.
pub fn over_pointer_extents_only(enc: &Encoding, candidate: &RankingCandidate) -> bool {
    use crate::ir::origin::PointerPart;
    use crate::ir::Origin;
    let extent = |name: &str| {
        enc.program_vars
            .iter()
            .any(|v| v.name == name && matches!(v.origin, Origin::PointerPart { part: PointerPart::Offset | PointerPart::Size, .. }))
    };
    candidate.pieces.iter().all(|p| !p.coeffs.is_empty() && p.coeffs.keys().all(|v| extent(v)))
}

/// Whether an allocation-order candidate is one of a walk to newer blocks
/// (`alloc#next - p.base`).
pub fn climbs_allocation_order(enc: &Encoding, candidate: &RankingCandidate) -> bool {
    use crate::ir::origin::AllocationPart;
    use crate::ir::Origin;
    candidate.pieces.iter().any(|p| {
        p.coeffs.keys().any(|v| enc.program_vars.iter().any(|d| &d.name == v && d.origin == Origin::Allocation(AllocationPart::Counter)))
    })
}

/// Most allocation-order candidates tried per loop.
const MAX_ORDER_CANDIDATES: usize = 2;

/// When the program follows links in the order of allocation (see
/// `c/lower/memory/links.rs`), the allocation order of each pointer the
/// loop moves: `p.base - SUMMARY_BASE` for a walk to older blocks,
/// `alloc#next - p.base` for a walk to newer ones. A walk along a list
/// (`p = p->next`) is ranked by one of them.
///
/// `header_facts` (invariant facts at the header) order them: where they
/// say every link's `down` order has ended (`node.next:down == 0`), the
/// walk to newer blocks goes first. Only the order of the guesses: each
/// is checked.
pub fn allocation_order_candidates(enc: &Encoding, li: usize, header_facts: &[Term]) -> Vec<RankingCandidate> {
    use crate::ir::origin::{LinkVariable, PointerPart};
    use crate::ir::Origin;
    let Some(lp) = enc.loops.get(li) else { return Vec::new() };
    if !enc.program_vars.iter().any(|v| matches!(v.origin, Origin::LinkOrder(_))) {
        return Vec::new();
    }
    let index = |name: &str| enc.vars.iter().position(|d| d.name == name);
    // The bases live at the header that some iteration changes.
    let live = enc.live.get(lp.header);
    let moved = |name: &str| {
        let Some(k) = index(name) else { return false };
        if !live.is_some_and(|l| l.contains(name)) {
            return false;
        }
        enc.transitions.iter().filter(|t| t.from == Source::At(lp.header) || lp.body.iter().any(|b| t.from == Source::At(*b))).any(|t| t.post.get(k).is_some_and(|p| *p != Term::var(name)))
    };
    // Pointer bases, and the variables they were coalesced into.
    let is_base = |name: &str| enc.program_vars.iter().any(|v| v.name == name && matches!(v.origin, Origin::PointerPart { part: PointerPart::Base, .. }));
    let mut bases: Vec<&str> = enc.program_vars.iter().map(|v| v.name.as_str()).filter(|n| is_base(n)).collect();
    bases.extend(enc.coalesced.iter().filter(|(merged, _)| is_base(merged)).map(|(_, kept)| kept.as_str()));
    // The pointer the link last read or written holds, when a walk reads
    // it at its header (`p->next = p->next->next` shortens the list ahead
    // of `p` without moving `p`).
    let cached: Vec<&str> = enc
        .program_vars
        .iter()
        .filter(|v| v.origin == Origin::LinkOrder(LinkVariable::CacheValue) && index(&v.name).is_some() && live.is_some_and(|l| l.contains(v.name.as_str())))
        .map(|v| v.name.as_str())
        .collect();
    let mut seen = BTreeSet::new();
    let one = || BigRational::from_integer(BigInt::from(1));
    let zero = || BigRational::from_integer(BigInt::from(0));
    let mut out = Vec::new();
    // The pointers the loop's guard reads first (`cur` of `while (cur !=
    // NULL)`, where the iteration also moves `prev` and `head`): those of
    // the conditions every iteration starts with.
    let in_guard: BTreeSet<String> = iteration_guard(enc, lp).iter().flat_map(|c| c.free_vars()).map(|v| v.name).collect();
    let mut moving: Vec<&str> = bases.into_iter().filter(|n| seen.insert(*n) && moved(n)).collect();
    moving.sort_by_key(|n| !in_guard.contains(*n));
    moving.truncate(MAX_ORDER_CANDIDATES);
    // The allocation counter, for walks to newer blocks (a list built by
    // appending).
    let counter = enc
        .program_vars
        .iter()
        .find(|v| v.origin == Origin::Allocation(crate::ir::origin::AllocationPart::Counter) && index(&v.name).is_some())
        .map(|v| v.name.as_str());
    let ended = |kind: LinkVariable| {
        let mut vars = enc.program_vars.iter().filter(|v| v.origin == Origin::LinkOrder(kind)).peekable();
        vars.peek().is_some() && vars.all(|v| header_facts.iter().any(|f| states_zero(f, &v.name)))
    };
    let down_ended = ended(LinkVariable::Down);
    for name in &moving {
        let older = RankingCandidate::single(AffinePiece { coeffs: [(name.to_string(), one())].into_iter().collect(), constant: zero() });
        // (Where `up` has ended, the blocks above `up_above` may still
        // keep it: a list appended to after another was built.)
        let newer = counter.map(|next| {
            RankingCandidate::single(AffinePiece { coeffs: [(next.to_string(), one()), (name.to_string(), -one())].into_iter().collect(), constant: zero() })
        });
        match (down_ended, newer) {
            (true, Some(newer)) => out.extend([newer, older]),
            (_, newer) => out.extend(std::iter::once(older).chain(newer)),
        }
    }
    for name in &moving {
        for c in &cached {
            out.push(RankingCandidate::single(AffinePiece { coeffs: [(name.to_string(), one()), (c.to_string(), one())].into_iter().collect(), constant: zero() }));
        }
    }
    // The same along links to newer blocks (a list built by appending):
    // `2 alloc#next - p.base - cache`.
    if let Some(next) = counter {
        let two = || BigRational::from_integer(BigInt::from(2));
        for name in &moving {
            for c in &cached {
                out.push(RankingCandidate::single(AffinePiece {
                    coeffs: [(next.to_string(), two()), (name.to_string(), -one()), (c.to_string(), -one())].into_iter().collect(),
                    constant: zero(),
                }));
            }
        }
    }
    out
}

/// Whether the fact `f` says that the 0/1 variable `name` is 0 (`v == 0`,
/// `v <= 0`).
fn states_zero(f: &Term, name: &str) -> bool {
    let var = |t: &Term| matches!(t, Term::Var(v, _) if v == name);
    let zero = |t: &Term| matches!(t, Term::Int(k) if k.sign() == num_bigint::Sign::NoSign);
    match f {
        Term::App(Op::Eq, xs) if xs.len() == 2 => (var(&xs[0]) && zero(&xs[1])) || (zero(&xs[0]) && var(&xs[1])),
        Term::App(Op::Le, xs) if xs.len() == 2 => var(&xs[0]) && zero(&xs[1]),
        Term::App(Op::Ge, xs) if xs.len() == 2 => zero(&xs[0]) && var(&xs[1]),
        _ => false,
    }
}

/// Whether `t` changes `slack` by a constant that is not negative: after
/// the transition's assignments (`post`), `slack` minus its value before is
/// a number `>= 0`. Only a guess at the order of the candidates, never a
/// reason to answer.
fn keeps_or_raises(enc: &Encoding, t: &crate::horn::encode::Transition, slack: &Affine) -> bool {
    let before = slack.to_term();
    let post: std::collections::BTreeMap<String, Term> =
        enc.vars.iter().zip(&t.post).filter(|(v, _)| slack.coeffs.contains_key(&v.name)).map(|(v, p)| (v.name.clone(), p.clone())).collect();
    let after = before.subst(&post);
    Affine::from_term(&Term::sub(after, before.clone())).is_some_and(|d| d.coeffs.is_empty() && d.constant >= BigInt::from(0))
}

/// A binary application, maybe under a negation: its operator, its two
/// sides, and whether it is negated (`not (a < b)`: `(Lt, a, b, true)`).
pub(super) fn comparison(c: &Term) -> Option<(Op, &Term, &Term, bool)> {
    Some(match c {
        Term::App(Op::Not, args) if args.len() == 1 => match &args[0] {
            Term::App(op, xs) if xs.len() == 2 => (*op, &xs[0], &xs[1], true),
            _ => return None,
        },
        Term::App(op, xs) if xs.len() == 2 => (*op, &xs[0], &xs[1], false),
        _ => return None,
    })
}

/// For a linear comparison that holds at the header when an iteration
/// starts, an affine term that it keeps positive: `b - a + 1` for `a <= b`,
/// `b - a` for `a < b`. One more than the slack, so that the candidate is
/// still non-negative at the header visit after the last iteration, where
/// the guard no longer holds but the step of 1 has just been taken.
fn slack(c: &Term) -> Option<Affine> {
    let (op, a, b, negated) = comparison(c)?;
    // A quotient stands for its dividend (`d <= n / d`: `n - d + 1`, the
    // slack a person gives; for a positive divisor the quotient is at most
    // the dividend where that is non-negative). Only a guess: the decrease
    // check decides.
    let (a, b) = (affine_or_dividend(a)?, affine_or_dividend(b)?);
    let minus_one = BigInt::from(-1);
    let diff = |x: &Affine, y: &Affine| y.plus(&x.times(&minus_one));
    // Normalize to `lo <= hi` (strict: `lo < hi`).
    let (lo, hi, strict) = match (op, negated) {
        (Op::Le, false) | (Op::Gt, true) => (a, b, false),
        (Op::Lt, false) | (Op::Ge, true) => (a, b, true),
        (Op::Ge, false) | (Op::Lt, true) => (b, a, false),
        (Op::Gt, false) | (Op::Le, true) => (b, a, true),
        _ => return None,
    };
    let mut s = diff(&lo, &hi);
    if !strict {
        s.constant += 1;
    }
    Some(s)
}

/// `t` as an affine expression, a quotient as its dividend (C's `n / d`
/// is `ite(n >= 0, n div d, -((-n) div d))`: its first branch), and a value
/// reduced modulo a constant as itself: a signed counter compared with an
/// unsigned bound (`i < bound`, `(i mod 2^32) < bound`) counts up to it
/// while it is not negative.
fn affine_or_dividend(t: &Term) -> Option<Affine> {
    Affine::from_term(t).or_else(|| match t {
        Term::App(Op::Div, xs) if xs.len() == 2 => Affine::from_term(&xs[0]),
        Term::App(Op::Mod, xs) if xs.len() == 2 && matches!(&xs[1], Term::Int(m) if *m > BigInt::from(0)) => Affine::from_term(&xs[0]),
        Term::App(Op::Ite, xs) if xs.len() == 3 && matches!(&xs[1], Term::App(Op::Div, _)) => affine_or_dividend(&xs[1]),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slacks_of_comparisons() {
        let (i, n) = (Term::var("i"), Term::var("n"));
        let s = slack(&Term::lt(i.clone(), n.clone())).expect("linear");
        assert_eq!(s.to_term(), Affine::from_term(&Term::add(vec![n.clone(), Term::scale(&BigInt::from(-1), i.clone())])).expect("affine").to_term());
        let s = slack(&Term::not(Term::ge(i.clone(), Term::int(4)))).expect("linear");
        assert_eq!(s.constant, BigInt::from(4));
        let s = slack(&Term::le(i.clone(), Term::int(4))).expect("linear");
        assert_eq!(s.constant, BigInt::from(5));
        assert_eq!(s.coeffs.get("i"), Some(&BigInt::from(-1)));
        // A signed counter converted for an unsigned comparison.
        let wrapped = Term::app(Op::Mod, vec![i.clone(), Term::int(4294967296i64)]);
        let s = slack(&Term::lt(wrapped, n.clone())).expect("the counter itself");
        assert_eq!(s.coeffs.get("i"), Some(&BigInt::from(-1)));
        assert_eq!(s.coeffs.get("n"), Some(&BigInt::from(1)));
        assert!(slack(&Term::eq(i, n)).is_none());
    }

    #[test]
    fn slacks_that_an_iteration_raises_come_last() {
        // `a[j]` assumes `0 <= 4*j`, whose slack `4*j + 1` has the smaller
        // constant but grows with `j++`: the guard's `20 - j` goes first.
        let src = "int main(void) { int a[20]; int s = 0; for (int j = 0; j < 20; j++) s += a[j] & 1; return s; }";
        let p = crate::c::parse_source("t.c", src, crate::ir::IntSemantics::C, crate::ir::MachineModel::lp64()).expect("lowers");
        let enc = crate::horn::encode::encode(&p).expect("encodes");
        let candidates = guard_candidates(&enc, 0);
        let first = candidates.first().expect("a candidate").pieces[0].clone();
        assert_eq!(first.coeffs.get("j"), Some(&BigRational::from_integer(BigInt::from(-1))), "{candidates:?}");
        assert_eq!(first.constant, BigRational::from_integer(BigInt::from(20)), "{candidates:?}");
    }

    #[test]
    fn slacks_no_step_inside_the_loop_lowers_come_last() {
        // An inner loop puts a cut-point inside: no iteration goes straight
        // back to the header, yet no step inside lowers `4*v + 1` either.
        let src = "int main(void) { int a[20]; int s = 0;
            for (int v = 0; v < 20; v++) { s += a[v] & 1; for (int k = 0; k < s; k++) s--; }
            return s; }";
        let p = crate::c::parse_source("t.c", src, crate::ir::IntSemantics::C, crate::ir::MachineModel::lp64()).expect("lowers");
        let enc = crate::horn::encode::encode(&p).expect("encodes");
        let outer = (0..enc.loops.len())
            .find(|&li| guard_candidates(&enc, li).iter().any(|c| c.pieces[0].coeffs.contains_key("v")))
            .expect("the outer loop has candidates over v");
        let candidates = guard_candidates(&enc, outer);
        let first = candidates.first().expect("a candidate").pieces[0].clone();
        assert_eq!(first.coeffs.get("v"), Some(&BigRational::from_integer(BigInt::from(-1))), "{candidates:?}");
        assert_eq!(first.constant, BigRational::from_integer(BigInt::from(20)), "{candidates:?}");
    }
}
