//! Blocks and their tracked cells: allocation, and the loads and stores
//! that read and write cells (see the semantics in [`super`]).
//! Which blocks a pointer of unknown value may reach is decided in
//! [`super::exposure`].

use super::links::Contents;
use super::pointer::{ConstTerm, PtrVal, MAX_CELLS, SUMMARY_BASE};
use crate::c::lower::Lowerer;
use crate::ir::origin::{AllocationPart, Owner};
use crate::ir::Origin;
use crate::ir::Approximation;
use crate::c::arith::Val;
use crate::c::types::{size_of, CType};
use crate::error::Result;
use crate::ir::{Action, IntType, Span};
use crate::term::Term;
use num_traits::ToPrimitive;

/// The exactly tracked contents of a cell block: its integer scalars, each
/// a program variable, by byte offset (an array of `int`, the integer
/// members of a struct).
#[derive(Clone, Debug)]
pub(crate) struct Cells {
    pub slots: Vec<Slot>,
}

#[derive(Clone, Debug)]
pub(crate) struct Slot {
    pub off: i64,
    pub ty: IntType,
    pub var: String,
}

impl Cells {
    fn at(&self, off: i64, ty: IntType) -> Option<&Slot> {
        self.slots.iter().find(|s| s.off == off && s.ty == ty)
    }
    /// Slots whose bytes overlap `[off, off + width)`.
    fn overlapping(&self, off: i64, width: i64) -> impl Iterator<Item = &Slot> {
        self.slots.iter().filter(move |s| s.off < off + width && off < s.off + i64::from(size_of(s.ty)))
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Block {
    pub id: i64,
    pub cells: Option<Cells>,
    /// What the block holds, when known (a declared object, `malloc` given
    /// a pointer of known type).
    pub object: Option<CType>,
}

impl<'a> Lowerer<'a> {
    /// A new block; its base id (a constant for a cell block or a site that
    /// runs once, else a fresh nondeterministic id). `object`: the type of
    /// what the block holds, if known (decides its cells); `name`: what to
    /// call its cells (`a` gives `a[0]`, `s.next`); `scoped`: a declared
    /// object, whose storage is reused each time its declaration runs in
    /// the same frame (an earlier instance is dead by then), so only
    /// recursion makes it more than one block.
    pub(in crate::c::lower) fn new_block(&mut self, object: Option<CType>, size: &Term, zeroed: bool, name: Option<(&str, Owner)>, scoped: bool, contents: Contents) -> Result<Term> {
        let site = self.mem.blocks.len();
        let once = if scoped {
            self.calls.frames().iter().all(|f| f.instance.is_none())
        } else {
            self.site_runs_once() && !self.mem.repeating_sites.contains(&site)
        };
        if once && !scoped {
            if let Some(c) = self.flow.cursor_mut() {
                c.sites.push(site);
            }
        }
        let id = self.mem.blocks.len() as i64 + 1;
        let mut slots = Vec::new();
        let tracked = match (&object, size) {
            (Some(t), Term::Int(n)) if once => {
                let bytes = n.to_u64().unwrap_or(0);
                // A block from `malloc(n * sizeof(T))` holds an array of T.
                let whole = match self.byte_size(t) {
                    Some(w) if w > 0 && bytes % w == 0 && bytes / w > 1 => CType::Array(Box::new(t.clone()), Some(bytes / w)),
                    _ => t.clone(),
                };
                bytes > 0 && self.byte_size(&whole) == Some(bytes) && self.scalar_slots(&whole, 0, "", &mut slots, MAX_CELLS)
            }
            _ => false,
        };
        let cells = if tracked && !slots.is_empty() {
            let prefix = name.map_or_else(|| format!("mem{id}"), |(n, _)| n.to_string());
            let of = name.map_or(Owner::Anonymous, |(_, o)| o);
            let f = self.function_name();
            let mut cells = Vec::new();
            for (off, t, path) in slots {
                let path = if path.is_empty() && name.is_none() { "[0]".to_string() } else { path };
                let v = self.cfg.declare_as(&format!("{prefix}{path}"), &f, t, Origin::Cell { of, path: path.clone() });
                if zeroed {
                    self.emit(Action::Assign(v.clone(), Term::int(0)));
                } else {
                    // Fresh memory holds any value of its type.
                    self.input(&v, t);
                }
                cells.push(Slot { off: off as i64, ty: t, var: v });
            }
            Some(Cells { slots: cells })
        } else {
            None
        };
        let declared = object.clone();
        self.mem.blocks.push(Block { id, cells, object });
        if once {
            self.links_on_allocation(&Term::int(id), Some(id), declared.as_ref(), size, zeroed, contents);
            Ok(Term::int(id))
        } else {
            // Two live blocks are never one: each run of the site takes the
            // next id of a counter that starts above every cell block's id.
            let next = self.alloc_counter();
            let b = self.memory_var("alloc.base", Origin::Allocation(AllocationPart::Base));
            self.emit(Action::Assign(b.clone(), Term::var(next.clone())));
            self.emit(Action::Assign(next.clone(), Term::add(vec![Term::var(next), Term::int(1)])));
            self.links_on_allocation(&Term::var(b.clone()), None, declared.as_ref(), size, zeroed, contents);
            Ok(Term::var(b))
        }
    }

    /// The counter whose value is the id of the next summarized block.
    pub(super) fn alloc_counter(&mut self) -> String {
        if let Some(v) = &self.mem.alloc_counter {
            return v.clone();
        }
        let v = self.cfg.declare_as("alloc#next", crate::c::cfg::GLOBAL, IntType::LONG, Origin::Allocation(AllocationPart::Counter));
        self.static_inits.push(Action::Assign(v.clone(), Term::int(SUMMARY_BASE)));
        self.mem.alloc_counter = Some(v.clone());
        v
    }

    /// What the block at constant base `base` holds, if known.
    pub(in crate::c::lower) fn block_object(&self, base: &Term) -> Option<CType> {
        self.cell_block(base).and_then(|b| b.object.clone())
    }

    /// The cells of the block with constant base `base`, if it has cells.
    pub(in crate::c::lower) fn cell_slots(&self, base: &Term) -> Option<Vec<Slot>> {
        self.cell_block(base).and_then(|b| b.cells.as_ref()).map(|c| c.slots.clone())
    }

    /// Memory that code outside the model may write through `p`: the cells
    /// of its block, or of every block it may address when the block is
    /// not known.
    pub(crate) fn havoc_reachable(&mut self, p: &PtrVal) {
        self.links_lost_through(p);
        let blocks: Vec<Block> = match self.cell_block(&p.base) {
            Some(b) => vec![b.clone()],
            None if p.base.as_int_const().is_some() => Vec::new(),
            None => self.addressable_blocks(&p.base),
        };
        let cells: Vec<(String, IntType)> = blocks.iter().filter_map(|b| b.cells.as_ref()).flat_map(|c| c.slots.iter().map(|s| (s.var.clone(), s.ty))).collect();
        for (cell, t) in cells {
            self.havoc(&cell, t);
        }
    }

    /// Every exactly tracked memory cell, with its type: what code that
    /// names objects (a callee writing globals, assembly) may change. (Code
    /// that only has pointers reaches [`Lowerer::exposed_cells`].)
    pub(crate) fn tracked_cells(&self) -> Vec<(String, IntType)> {
        self.mem.blocks.iter().filter_map(|b| b.cells.as_ref()).flat_map(|c| c.slots.iter().map(|s| (s.var.clone(), s.ty))).collect()
    }

    fn cell_block(&self, base: &Term) -> Option<&Block> {
        let id = base.as_int_const()?;
        self.mem.blocks.iter().find(|b| b.id == id)
    }

    /// Load from memory.
    pub fn load_memory(&mut self, p: &PtrVal, ty: IntType, at: &Option<Span>) -> Val {
        let known = p.base.as_int_const().is_some();
        let candidates: Vec<(i64, Vec<Slot>)> = match self.cell_block(&p.base) {
            Some(b) => b.cells.iter().map(|c| (b.id, c.slots.clone())).collect(),
            None if !known => self.addressable_blocks(&p.base).into_iter().filter_map(|b| b.cells.map(|c| (b.id, c.slots))).collect(),
            None => Vec::new(),
        };
        if known {
            if let (Some((_, slots)), Some(k)) = (candidates.first(), p.off.as_int_const()) {
                if let Some(s) = (Cells { slots: slots.clone() }).at(k, ty) {
                    return self.arith.var(&s.var, ty);
                }
            }
        }
        // Effective types: an access of type T reads a slot of type T. In a
        // known cell block it must be one of them (memory safety); through
        // an unknown pointer it may also be memory that is not tracked.
        let mut hits: Vec<(Term, String)> = Vec::new();
        for (id, slots) in &candidates {
            for s in slots.iter().filter(|s| s.ty == ty) {
                let here = if known {
                    Term::eq(p.off.clone(), Term::int(s.off))
                } else {
                    Term::and(vec![Term::eq(p.base.clone(), Term::int(*id)), Term::eq(p.off.clone(), Term::int(s.off))])
                };
                hits.push((here, s.var.clone()));
            }
        }
        let mut term = if known && !hits.is_empty() && candidates.iter().all(|(_, s)| s.iter().all(|s| s.ty == ty)) {
            // A block of T only: the access is one of its cells.
            self.note_approximation(at.clone(), Approximation::MemorySafety);
            self.emit_assume(Term::or(hits.iter().map(|(h, _)| h.clone()).collect()));
            match hits.pop() {
                Some((_, v)) => Term::var(v),
                None => return self.any_value(ty, at),
            }
        } else {
            self.any_value(ty, at).term
        };
        for (here, v) in hits.into_iter().rev() {
            term = Term::ite(here, Term::var(v), term);
        }
        Val { term, ty, range: self.arith.type_range(ty) }
    }

    /// A nondeterministic load, recorded as an approximation.
    fn any_value(&mut self, ty: IntType, at: &Option<Span>) -> Val {
        let v = self.cfg.temp("load", ty);
        self.havoc(&v, ty);
        self.note_approximation(at.clone(), Approximation::Load { ty });
        self.arith.var(&v, ty)
    }

    /// Store into memory (`v` already converted to `ty`).
    pub fn store_memory(&mut self, p: &PtrVal, ty: IntType, v: Val, at: &Option<Span>) {
        let w = i64::from(size_of(ty));
        if w == 1 {
            // A character store may write part of a pointer.
            self.links_lost_through(p);
        }
        let known = p.base.as_int_const().is_some();
        let targets: Vec<Block> = match self.cell_block(&p.base) {
            Some(b) => vec![b.clone()],
            None if !known => self.addressable_blocks(&p.base),
            None => Vec::new(),
        };
        if targets.iter().all(|b| b.cells.is_none()) {
            return;
        }
        if let (true, Some(k)) = (known, p.off.as_int_const()) {
            let cells = targets[0].cells.clone();
            if let Some(cells) = cells {
                if let Some(s) = cells.at(k, ty) {
                    self.assign_var(&s.var, v);
                    return;
                }
                // A constant offset that hits no slot of this type exactly.
                let hit: Vec<Slot> = cells.overlapping(k, w).cloned().collect();
                if !hit.is_empty() {
                    self.note_approximation(at.clone(), Approximation::StoreOverOtherType { ty });
                }
                for s in hit {
                    self.havoc(&s.var, s.ty);
                }
                return;
            }
        }
        // Several cells may be hit: each keeps its value unless it is the
        // one addressed. The stored value is read before any cell changes.
        let v = self.snapshot(v);
        let mut mixed = false;
        for b in targets {
            let Some(cells) = b.cells else { continue };
            let same_block = if known { Term::tt() } else { Term::eq(p.base.clone(), Term::int(b.id)) };
            for s in &cells.slots {
                let new = if s.ty == ty {
                    let here = Term::and(vec![same_block.clone(), Term::eq(p.off.clone(), Term::int(s.off))]);
                    Term::ite(here, v.term.clone(), Term::var(s.var.clone()))
                } else {
                    // A store of another type may overlap this cell (bytes
                    // are not modelled): it may change to anything.
                    mixed = true;
                    let end = s.off + i64::from(size_of(s.ty));
                    let overlaps = Term::and(vec![
                        same_block.clone(),
                        Term::lt(p.off.clone(), Term::int(end)),
                        Term::lt(Term::int(s.off), Term::add(vec![p.off.clone(), Term::int(w)])),
                    ]);
                    let any = self.cfg.temp("store", s.ty);
                    self.havoc(&any, s.ty);
                    Term::ite(overlaps, Term::var(any), Term::var(s.var.clone()))
                };
                self.emit(Action::Assign(s.var.clone(), new));
            }
        }
        if mixed {
            self.note_approximation(at.clone(), Approximation::StoreIntoMixedTypes { ty });
        }
    }
}
