//! Blocks and their tracked cells: allocation, and the loads and stores
//! that read and write cells (see the semantics in [`super`]).
//! Which blocks a pointer of unknown value may reach is decided in
//! [`super::exposure`].

use super::links::Contents;
use super::pointer::{ConstTerm, PtrVal, MAX_CELLS, SUMMARY_BASE};
use crate::c::lower::Lowerer;
use crate::ir::origin::{AllocationPart, Owner, PointerPart};
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
    /// The pointers the block holds, tracked exactly.
    pub pointers: Vec<PointerCell>,
}

#[derive(Clone, Debug)]
pub(crate) struct Slot {
    pub off: i64,
    pub ty: IntType,
    pub var: String,
}

/// A pointer stored in a cell block (a pointer variable whose address is
/// taken, `struct list *head; delete(&head)`): its three parts, each a
/// program variable. Every write that may reach its bytes updates it or
/// makes it unknown, so a load from it is exact.
#[derive(Clone, Debug)]
pub(crate) struct PointerCell {
    pub off: i64,
    pub base: String,
    pub offset: String,
    pub size: String,
}

impl PointerCell {
    pub fn value(&self, pointee: CType) -> PtrVal {
        PtrVal { base: Term::var(self.base.clone()), off: Term::var(self.offset.clone()), size: Term::var(self.size.clone()), pointee }
    }
    pub fn parts(&self) -> [&String; 3] {
        [&self.base, &self.offset, &self.size]
    }
}

impl Cells {
    /// Every variable of the block with its type: the integer cells and
    /// the parts of the pointer cells (what code outside the model that
    /// writes the block changes).
    pub fn variables(&self) -> impl Iterator<Item = (String, IntType)> + '_ {
        let pointer_parts = self.pointers.iter().flat_map(|p| p.parts().map(|v| (v.clone(), IntType::LONG)));
        self.slots.iter().map(|s| (s.var.clone(), s.ty)).chain(pointer_parts)
    }
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
    pub(in crate::c) fn new_block(&mut self, object: Option<CType>, size: &Term, zeroed: bool, name: Option<(&str, Owner)>, scoped: bool, contents: Contents) -> Result<Term> {
        let site = self.mem.blocks.len();
        let once = if scoped {
            self.calls.frames().iter().all(|f| !f.in_recursion())
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
                let whole = match self.types.byte_size(t) {
                    Some(w) if w > 0 && bytes % w == 0 && bytes / w > 1 => CType::Array(Box::new(t.clone()), Some(bytes / w)),
                    _ => t.clone(),
                };
                bytes > 0 && self.types.byte_size(&whole) == Some(bytes) && self.types.scalar_slots(&whole, 0, "", &mut slots, MAX_CELLS)
            }
            _ => false,
        };
        let pointer_bytes = i64::from(self.arith.machine().pointer_bytes());
        // A pointer object of its own (a pointer variable whose address is
        // taken) keeps its value in a pointer cell.
        let pointer_object = once && matches!(object, Some(CType::Ptr(_))) && size.as_int_const() == Some(pointer_bytes);
        let cells = if pointer_object {
            let prefix = name.map_or_else(|| format!("mem{id}"), |(n, _)| n.to_string());
            let of = name.map_or(Owner::Anonymous, |(_, o)| o);
            let f = self.function_name();
            let part = |l: &mut Self, suffix: &str, part| l.cfg.declare_as(&format!("{prefix}.{suffix}"), &f, IntType::LONG, Origin::PointerPart { of, part, pointer: prefix.clone() });
            let cell = PointerCell {
                off: 0,
                base: part(self, "base", PointerPart::Base),
                offset: part(self, "off", PointerPart::Offset),
                size: part(self, "size", PointerPart::Size),
            };
            for v in cell.parts() {
                if zeroed {
                    self.emit(Action::Assign(v.clone(), Term::int(0)));
                } else {
                    // Like an uninitialized pointer variable: any value.
                    self.emit(Action::Havoc(v.clone()));
                }
            }
            Some(Cells { slots: Vec::new(), pointers: vec![cell] })
        } else if tracked && !slots.is_empty() {
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
            Some(Cells { slots: cells, pointers: Vec::new() })
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

    /// From here on an object's lifetime may have ended (a `free`, an
    /// automatic object that a scope's end or a return ends): its storage
    /// may be another object's, so two addresses into different blocks
    /// may be equal (see `c::meaning::distinct_objects`). The model keeps
    /// one flag, set here, rather than each block's lifetime.
    pub(in crate::c) fn lifetime_may_end(&mut self) {
        let v = match &self.mem.lifetime_ended {
            Some(v) => v.clone(),
            None => {
                let v = self.cfg.declare_as("lifetime#ended", crate::c::cfg::GLOBAL, IntType::INT, Origin::Adjacency);
                self.globals.push_static_init(Action::Assign(v.clone(), Term::int(0)));
                self.mem.lifetime_ended = Some(v.clone());
                v
            }
        };
        self.emit(Action::Assign(v, Term::int(1)));
    }

    /// Whether an object's lifetime may have ended (a term; false when no
    /// lifetime can end in the program).
    pub(in crate::c) fn lifetime_ended(&self) -> Term {
        match &self.mem.lifetime_ended {
            Some(v) => Term::eq(Term::var(v.clone()), Term::int(1)),
            None => Term::ff(),
        }
    }

    /// The counter whose value is the id of the next summarized block.
    pub(super) fn alloc_counter(&mut self) -> String {
        if let Some(v) = &self.mem.alloc_counter {
            return v.clone();
        }
        let v = self.cfg.declare_as("alloc#next", crate::c::cfg::GLOBAL, IntType::LONG, Origin::Allocation(AllocationPart::Counter));
        self.globals.push_static_init(Action::Assign(v.clone(), Term::int(SUMMARY_BASE)));
        self.mem.alloc_counter = Some(v.clone());
        v
    }

    /// What the block at constant base `base` holds, if known.
    pub(in crate::c) fn block_object(&self, base: &Term) -> Option<CType> {
        self.cell_block(base).and_then(|b| b.object.clone())
    }

    /// The cells of the block with constant base `base`, if it has cells.
    pub(in crate::c) fn cell_slots(&self, base: &Term) -> Option<Vec<Slot>> {
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
        // A pointer written there is still a pointer to memory that exists.
        for cell in blocks.iter().filter_map(|b| b.cells.as_ref()).flat_map(|c| c.pointers.clone()) {
            self.overwrite_pointer_cell(&cell, &Term::tt(), None);
        }
    }

    /// Every exactly tracked memory cell, with its type: what code that
    /// names objects (a callee writing globals, assembly) may change. (Code
    /// that only has pointers reaches [`Lowerer::exposed_cells`].)
    pub(crate) fn tracked_cells(&self) -> Vec<(String, IntType)> {
        self.mem.blocks.iter().filter_map(|b| b.cells.as_ref()).flat_map(|c| c.variables()).collect()
    }

    /// Every variable of the block with constant base `base`: its integer
    /// cells and the parts of its pointer cells.
    pub(in crate::c) fn cell_variables(&self, base: &Term) -> Vec<(String, IntType)> {
        self.cell_block(base).and_then(|b| b.cells.as_ref()).map_or_else(Vec::new, |c| c.variables().collect())
    }

    /// The pointer cells of the block with constant base `base`.
    pub(in crate::c) fn pointer_cells(&self, base: &Term) -> Vec<PointerCell> {
        self.cell_block(base).and_then(|b| b.cells.as_ref()).map_or_else(Vec::new, |c| c.pointers.clone())
    }

    /// The pointer stored at `addr` when a pointer cell holds it exactly
    /// (known block, constant offset).
    pub(in crate::c) fn load_pointer_cell(&self, addr: &PtrVal, pointee: CType) -> Option<PtrVal> {
        let k = addr.off.as_int_const()?;
        self.pointer_cells(&addr.base).into_iter().find(|c| c.off == k).map(|c| c.value(pointee))
    }

    /// A store of `width` bytes at `dst`: the pointer cells it may reach
    /// take `value` where a pointer store writes exactly their bytes (a
    /// pointer store that overlaps only part of one is misaligned, so
    /// undefined: assumed away), and become unknown where a store of bytes
    /// (`value` is `None`) overlaps them.
    pub(in crate::c) fn store_over_pointer_cells(&mut self, dst: &PtrVal, width: i64, value: Option<PtrVal>, at: &Option<Span>) {
        if !self.mem.blocks.iter().any(|b| b.cells.as_ref().is_some_and(|c| !c.pointers.is_empty())) {
            return;
        }
        let known = dst.base.as_int_const().is_some();
        let targets: Vec<Block> = match self.cell_block(&dst.base) {
            Some(b) => vec![b.clone()],
            None if !known => self.addressable_blocks(&dst.base),
            None => Vec::new(),
        };
        let cells: Vec<(i64, PointerCell)> = targets.iter().filter_map(|b| b.cells.as_ref().map(|c| (b.id, c))).flat_map(|(id, c)| c.pointers.iter().map(move |p| (id, p.clone()))).collect();
        if cells.is_empty() {
            return;
        }
        let pointer_bytes = i64::from(self.arith.machine().pointer_bytes());
        // The value is read before any cell changes (it may read them).
        let value = value.filter(|_| width == pointer_bytes).map(|v| self.snapshot_pointer(v));
        for (id, cell) in cells {
            let same_block = if known { Term::tt() } else { Term::eq(dst.base.clone(), Term::int(id)) };
            let at_cell = Term::eq(dst.off.clone(), Term::int(cell.off));
            let overlapping = Term::and(vec![
                Term::lt(dst.off.clone(), Term::int(cell.off + pointer_bytes)),
                Term::lt(Term::int(cell.off), Term::add(vec![dst.off.clone(), Term::int(width)])),
            ]);
            let exact = Term::and(vec![same_block.clone(), at_cell.clone()]);
            // Part of the pointer, or all of it with a store of another kind.
            let partly = if value.is_some() { Term::and(vec![overlapping.clone(), Term::not(at_cell)]) } else { overlapping.clone() };
            let overlaps = Term::and(vec![same_block.clone(), overlapping]);
            let partly = Term::and(vec![same_block, partly]);
            match &value {
                Some(v) if exact == Term::tt() => {
                    for (part, t) in cell.parts().into_iter().zip([&v.base, &v.off, &v.size]) {
                        self.emit(Action::Assign(part.clone(), t.clone()));
                    }
                }
                _ if overlaps == Term::ff() => {}
                Some(v) => {
                    // The store hits this pointer exactly or not at all.
                    if partly != Term::ff() {
                        self.note_approximation(at.clone(), Approximation::MemorySafety);
                        self.emit_assume(Term::not(partly));
                    }
                    for (part, t) in cell.parts().into_iter().zip([&v.base, &v.off, &v.size]) {
                        self.emit(Action::Assign(part.clone(), Term::ite(exact.clone(), t.clone(), Term::var(part.clone()))));
                    }
                }
                None => self.overwrite_pointer_cell(&cell, &partly, at.as_ref()),
            }
        }
    }

    /// Where `when` holds, the pointer cell becomes any pointer to memory
    /// that exists (a write the model does not follow). `at`: where the
    /// program does it, when that is an approximation to record.
    pub(in crate::c) fn overwrite_pointer_cell(&mut self, cell: &PointerCell, when: &Term, at: Option<&Span>) {
        if *when == Term::ff() {
            return;
        }
        if let Some(at) = at {
            self.note_approximation(Some(at.clone()), Approximation::StoreOverPointer);
        }
        // Any value (not `unknown_pointer`, whose assumptions on chosen
        // values would keep a NO from runs that never read the cell).
        let any = self.chosen_pointer_parts();
        self.links_existing_block(&any[0]);
        for (part, t) in cell.parts().into_iter().zip(any) {
            let new = if *when == Term::tt() { t } else { Term::ite(when.clone(), t, Term::var(part.clone())) };
            self.emit(Action::Assign(part.clone(), new));
        }
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
                if let Some(s) = (Cells { slots: slots.clone(), pointers: Vec::new() }).at(k, ty) {
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
            // A character store may write part of a pointer. (A wider
            // integer store may not: reading the pointer afterwards would
            // be undefined, by C's effective types.)
            self.links_lost_through(p);
            self.store_over_pointer_cells(p, w, None, at);
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
