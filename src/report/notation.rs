//! What the heap quantities of a proof mean, in words: a ranking function
//! over a list walk speaks of block numbers (`curr.base`) and its
//! supporting invariant of the facts the model keeps per link
//! (`list.next:down == 1`). These are not C expressions; the text and JSON
//! outputs explain each one that a proof uses, from the variable's origin
//! (never from its name).

use crate::horn::encode::Encoding;
use crate::ir::origin::{AllocationPart, LinkVariable, PointerPart};
use crate::ir::Origin;
use crate::term::Term;
use crate::termination::LoopProof;
use super::cexpr::Names;
use std::collections::BTreeMap;

/// The meaning of a variable the proofs use, when it is a heap quantity
/// (`None` for the program's own variables and for quantities C already
/// names, such as a pointer's offset).
fn meaning(origin: &Origin) -> Option<&'static str> {
    use LinkVariable::*;
    Some(match origin {
        Origin::PointerPart { part: PointerPart::Base, .. } => {
            "the number of the block the pointer points to, blocks numbered in the order they are allocated (NULL is 0): a walk that always moves to an older block makes it smaller"
        }
        Origin::PointerPart { part: PointerPart::Offset, .. } => "the pointer's distance in bytes from the start of its block (`p - a` for a pointer p into array a)",
        Origin::PointerPart { part: PointerPart::Size, .. } => "the size in bytes of the block the pointer points to",
        Origin::Allocation(AllocationPart::Counter) => {
            "the number the next block allocated will get, in the order of `order(p)`: a walk that always moves to a newer block makes `allocations - order(p)` smaller"
        }
        Origin::LinkOrder(kind) => match kind {
            Down => "1 while every pointer stored in this link of a block points to an older block, or is NULL",
            Up => "1 while every pointer stored in this link of a block points to a newer block, or is NULL",
            DownBelow => "every block numbered below it has this link pointing to an older block, or NULL (the part of a list a reversal has not reached yet)",
            UpAbove => "every block numbered at or above it has this link pointing to a newer block, or NULL (a list appended to after others were built, or reversed in place)",
            Pending => "1 while the newest block's link may not be written yet",
            Newest => "the number of the newest block that may hold the link",
            Pending2 => "1 while the link of the block allocated before the newest may not be written yet",
            Second => "the number of the block allocated before the newest",
            Unlinked => "1 while no pointer to the newest block has been stored in memory",
            AtStart => "1 while every pointer stored in this link points to the start of a block, or is NULL",
            CacheBlock => "the number of the block whose link was read or written last (0: none known)",
            CacheOffset => "the offset of that link's struct in its block",
            CacheValue => "the number of the block that link points to",
        },
        _ => return None,
    })
}

/// The heap quantities the loops' ranking functions and invariants use, by
/// their printed name, with their meaning.
pub fn heap_quantities(loops: &[LoopProof], enc: Option<&Encoding>, names: &Names) -> BTreeMap<String, &'static str> {
    let mut out = BTreeMap::new();
    let Some(enc) = enc else { return out };
    for l in loops {
        let ranked = l.ranking.pieces.iter().flat_map(|p| p.coeffs.keys().cloned());
        let invariant = l.invariant.free_vars().into_iter().map(|d| d.name);
        // The invariant is printed over the variables live at the header.
        let here = names_at(Some(enc), l.header, names);
        for internal in ranked.chain(invariant) {
            let Some(shown) = here.get(&internal) else { continue };
            let origin = enc.program_vars.iter().find(|v| v.name == internal).map(|v| &v.origin);
            if let Some(m) = origin.and_then(meaning) {
                out.insert(shown.to_string(), m);
            }
        }
    }
    out
}

/// [`heap_quantities`] for the text: the names that share a meaning
/// (`order(p)`, `order(q)`) on one line.
pub fn grouped(quantities: BTreeMap<String, &'static str>) -> BTreeMap<String, &'static str> {
    let mut by_meaning: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for (shown, m) in quantities {
        by_meaning.entry(m).or_default().push(shown);
    }
    by_meaning.into_iter().map(|(m, shown)| (shown.join(", "), m)).collect()
}

/// `names` restricted to the variables live at `header`: those a loop's
/// invariant is printed over.
pub fn names_at(enc: Option<&Encoding>, header: crate::ir::LocId, names: &Names) -> Names {
    match enc.and_then(|e| e.live.get(header)) {
        Some(live) => names.restricted(live),
        None => names.clone(),
    }
}

/// Whether `t` compares a block number (`order(p)`, `allocations`) with
/// the number where the blocks of allocation sites that run more than once
/// start ([`crate::ir::SUMMARY_BASE`]): `order(p) <= 0 || order(p) >=
/// 1048576` says how the model numbers blocks, nothing about the program.
/// Dropping it from what is printed only weakens the invariant.
pub fn numbering_fact(t: &Term, enc: &Encoding) -> bool {
    use crate::ir::origin::{AllocationPart, PointerPart};
    fn constants(t: &Term, out: &mut Vec<num_bigint::BigInt>) {
        match t {
            Term::Int(k) => out.push(k.clone()),
            Term::App(_, args) => args.iter().for_each(|a| constants(a, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    constants(t, &mut found);
    let base = num_bigint::BigInt::from(crate::ir::SUMMARY_BASE);
    let near = found.iter().any(|k| *k == base || *k == &base - 1 || *k == -&base || *k == 1 - &base);
    near && t.free_vars().iter().all(|v| {
        enc.program_vars.iter().find(|p| p.name == v.name).is_some_and(|p| {
            matches!(p.origin, Origin::PointerPart { part: PointerPart::Base, .. } | Origin::Allocation(AllocationPart::Counter))
        })
    })
}
