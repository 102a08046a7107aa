//! Which blocks a pointer of unknown value may address.
//!
//! A load or store through a pointer whose base is not a constant (a
//! pointer variable that was reassigned, a pointer from a function without
//! definition, an integer turned into a pointer) may hit any block whose
//! address the program has let out of its hands: stored in a variable or
//! in memory, passed to code outside the model, converted to an integer.
//! A block whose address never leaves the expression that computes it
//! (`a[i]`, `s.f`, `memset(a, 0, n)` on a local array, the `__mod_*`
//! strings of a driver) is reached by name only, and a store through an
//! unknown pointer leaves it alone. Before this, every such store was
//! expanded over every tracked cell of the program: drivers got a hundred
//! thousand conditional assignments and lost what they knew about their
//! own local structs.
//!
//! The set is only known when the whole program has been lowered, so the
//! lowering runs again when a round consulted a smaller set than it found
//! (see [`crate::c::lower::lower`]). Where the address goes is decided at the few
//! places a pointer's base is copied into program state (the sinks):
//! [`Lowerer::expose`] is called there.

use super::cells::Block;
use crate::c::lower::Lowerer;
use crate::ir::IntType;
use crate::term::{Op, Term};
use std::collections::HashSet;

#[derive(Clone, Debug, Default)]
pub(crate) struct Exposure {
    /// Blocks this round assumes exposed.
    pub assumed: HashSet<i64>,
    /// Blocks whose address this round let out.
    pub found: HashSet<i64>,
    /// Whether some access through an unknown pointer consulted `assumed`
    /// (if none did, the round is valid whatever it found).
    pub consulted: bool,
    /// Automatic objects whose scope is still open while lowering: (frame
    /// depth, scope depth, block id).
    pub open: Vec<(usize, usize, i64)>,
    /// Blocks of automatic objects whose scope has closed. Code lowered
    /// after the closing brace runs only when the object is dead (each
    /// inlined call and each scope has its own lowering), so a pointer
    /// that still holds its address dangles: accessing it is undefined
    /// behaviour, and unknown pointers no longer reach the block.
    pub ended: HashSet<i64>,
}

/// The block ids a base term may evaluate to, where they are constants:
/// the constants in value position (both arms of an `ite`, not its
/// condition). Variables contribute nothing: what a variable can hold was
/// exposed when it was assigned.
pub(crate) fn constant_bases(t: &Term, out: &mut HashSet<i64>) {
    match t {
        Term::Int(i) => {
            if let Ok(k) = i64::try_from(i) {
                if k != 0 {
                    out.insert(k);
                }
            }
        }
        Term::Bool(_) | Term::Var(..) => {}
        Term::App(Op::Ite, a) if a.len() == 3 => {
            constant_bases(&a[1], out);
            constant_bases(&a[2], out);
        }
        Term::App(_, args) => args.iter().for_each(|a| constant_bases(a, out)),
    }
}

impl<'a> Lowerer<'a> {
    /// The address in `base` leaves the expression (a sink): its blocks
    /// become reachable by unknown pointers.
    pub(crate) fn expose(&mut self, base: &Term) {
        constant_bases(base, &mut self.mem.exposure.found);
    }

    /// The cell blocks a pointer with this (non-constant) base may address:
    /// the exposed ones and those the base term names itself.
    pub(crate) fn addressable_blocks(&mut self, base: &Term) -> Vec<Block> {
        let mut named = HashSet::new();
        constant_bases(base, &mut named);
        let blocks: Vec<Block> = self
            .mem
            .blocks
            .iter()
            .filter(|b| b.cells.is_some())
            .filter(|b| named.contains(&b.id) || self.mem.exposure.assumed.contains(&b.id) && !self.mem.exposure.ended.contains(&b.id))
            .cloned()
            .collect();
        if self.mem.blocks.iter().any(|b| b.cells.is_some() && !named.contains(&b.id)) {
            self.mem.exposure.consulted = true;
        }
        blocks
    }

    /// An automatic object's block, open until its scope closes.
    pub(crate) fn open_automatic(&mut self, base: &Term) {
        if let (Some(id), Some(f)) = (super::const_int(base), self.calls.frame()) {
            let depth = (self.calls.frames().len(), f.scope_depth());
            self.mem.exposure.open.push((depth.0, depth.1, id));
        }
    }

    /// The scopes deeper than `scopes` in frame `frames` (and every scope
    /// of deeper frames) have closed: their automatic objects are dead.
    pub(crate) fn close_automatic(&mut self, frames: usize, scopes: usize) {
        let (closed, open): (Vec<_>, Vec<_>) = self.mem.exposure.open.drain(..).partition(|&(f, s, _)| f > frames || f == frames && s > scopes);
        self.mem.exposure.open = open;
        self.mem.exposure.ended.extend(closed.into_iter().map(|(_, _, id)| id));
    }

    /// The cells code outside the model may reach through pointers the
    /// program gave it: those of every exposed block.
    pub(crate) fn exposed_cells(&mut self) -> Vec<(String, IntType)> {
        // Code outside the model may write every exposed block.
        self.links_lost();
        self.addressable_blocks(&Term::var("unknown"))
            .into_iter()
            .filter_map(|b| b.cells)
            .flat_map(|c| c.variables().collect::<Vec<_>>())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_in_value_position_only() {
        let mut out = HashSet::new();
        let t = Term::ite(Term::eq(Term::var("b"), Term::int(38)), Term::int(5), Term::ite(Term::var("c"), Term::int(7), Term::var("p")));
        constant_bases(&t, &mut out);
        assert_eq!(out, HashSet::from([5, 7]));
    }
}
