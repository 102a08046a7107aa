//! Links: pointers stored in a struct's members that point to the same
//! struct type (`struct list *next` in `struct list`, `left` and `right`
//! in a tree node), ordered by allocation.
//!
//! Blocks of allocation sites that run more than once (*summarized*
//! blocks) have no tracked contents, and each run of such a site takes the
//! next id of the counter `alloc#next`, so their ids grow with the order
//! of allocation. A list built by prepending (`n->next = head; head = n`)
//! links every node to an older one; a list built by appending links
//! every node to a newer one. The model keeps, per link `F` (a record and
//! the member's offset), these program variables:
//!
//! * `down` (0/1): every pointer stored through `F` into a summarized block
//!   `b` was NULL or pointed to a summarized block allocated before `b`;
//! * `up` (0/1): ... or pointed to a block allocated after `b` (and so,
//!   before `alloc#next`);
//! * `down_below`: where `down` has ended, the blocks numbered below it
//!   still have it: a store that breaks the order into block `d` lowers
//!   the bound to `d` (an in-place reversal breaks it block by block from
//!   the newest, and walks on through the blocks below, still ordered);
//! * `pending` (0/1) and `newest`: the newest block that may hold the
//!   struct (its size is not known to be smaller) may not have had `F`
//!   written yet; its id is `newest`. Likewise `pending2` and `second` for
//!   the block allocated before it (a list built by appending writes the
//!   old tail's link after allocating the new one). Every older block has:
//!   reading an unwritten member gives the block's indeterminate contents,
//!   which no order constrains, so an allocation while both are pending
//!   ends both orders.
//!
//! A load of `F` from a summarized block that is not the pending one gives
//! any pointer (`PointerInMemory`, as before) that is NULL or respects
//! each order still holding; a store through `F` keeps an order only if
//! its value respects it. Every other write that may change a pointer in
//! a summarized block ends both orders of every link ([`Lowerer::links_lost`]):
//! a pointer stored through another lvalue (`*pp = q`), a character
//! store, code outside the program, a struct copy, a recursive call's
//! effects. An integer store of another type cannot change a pointer
//! member (C's effective types: reading the member afterwards would be
//! undefined), and neither can a store into a block of constant id (never
//! summarized).
//!
//! Then `p = p->next` walks a list in decreasing (`down`) or increasing
//! (`up`, bounded by `alloc#next`) block ids: the ranking function is the
//! allocation order of `p` (`p.base`). Only `E->f` is recognized as an
//! access through a link (the member of the struct `E` points to, which
//! is assumed to lie wholly in its block, as C requires of `*E`), and no
//! struct that is a member of a union has links. Which links a program
//! has is known after a first round of lowering, like the exposed blocks
//! (see [`crate::c::lower::lower`]).

use crate::c::lower::typed::*;
use super::pointer::{ConstTerm, PtrVal, SUMMARY_BASE};
use crate::c::lower::Lowerer;
use crate::c::types::CType;
use crate::error::Result;
use crate::ir::origin::LinkVariable;
use crate::ir::{Action, Approximation, IntType, Origin};
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::BTreeSet;

/// A member that points to its own struct type: the struct (by its index
/// in the record table) and the member's byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct LinkField {
    pub record: usize,
    pub offset: u64,
}

/// The order variables of one link (see the module's documentation).
#[derive(Clone, Debug)]
struct LinkOrder {
    field: LinkField,
    /// `sizeof` the struct.
    record_size: u64,
    down: String,
    /// Where `down` is 0, the blocks numbered below this still keep it.
    down_below: String,
    up: String,
    /// Where `up` is 0, the blocks numbered at or above this still keep it.
    up_above: String,
    pending: String,
    newest: String,
    /// The block allocated before the newest, whose link may be unwritten
    /// too (`pending2`, its id `second`): a list built by appending writes
    /// the old tail's link after allocating the new tail.
    pending2: String,
    second: String,
    /// (0/1) No pointer to `newest` has been stored in memory since it was
    /// made, so no link holds it (a search that allocates its new node
    /// before walking the list to the place of insertion).
    unlinked: String,
    /// (0/1) Every pointer stored through the link was NULL or pointed to
    /// the start of a block that can hold the struct: a walk that reads
    /// the link by its offset (`*(T **)((char *)p + skip)`) reads a link.
    at_start: String,
    /// The link last read or written: its block (`cache_block`, 0 when
    /// none is known; only covered blocks), the offset of its struct in
    /// the block, and the base of the pointer it holds. Reading it again
    /// gives that pointer; the walk that unlinks the nodes ahead of it
    /// (`p->next = p->next->next`) decreases `cache_value`.
    cache_block: String,
    cache_offset: String,
    cache_value: String,
}

/// The links of a round of lowering.
#[derive(Default)]
pub(crate) struct Links {
    /// The links this round lowers with (met by the rounds before).
    assumed: BTreeSet<LinkField>,
    /// The links this round met.
    found: BTreeSet<LinkField>,
    /// Their variables, declared on first need.
    orders: Option<Vec<LinkOrder>>,
    /// The blocks of constant id the orders cover (allocated, or declared
    /// holding a struct with links), in the order they were lowered.
    covered: Vec<i64>,
}

/// What a new block may hold, as far as links go (C's effective types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Contents {
    /// Allocated storage (`malloc`, `calloc`, `alloca`): any type.
    Allocated,
    /// A declared object: its declared type only.
    Declared,
    /// An object of the environment or a literal that holds no struct
    /// (a string literal, `argv`'s vector).
    Fixed,
}

impl Links {
    pub fn new(assumed: BTreeSet<LinkField>) -> Links {
        Links { assumed, ..Default::default() }
    }
    pub fn found(&self) -> &BTreeSet<LinkField> {
        &self.found
    }
}

/// The links of `found` that no union holds (through a union, a link
/// could be written as another member), given every record of the program.
pub(crate) fn outside_unions(found: &BTreeSet<LinkField>, records: &[crate::c::types::Record]) -> BTreeSet<LinkField> {
    let in_union = |record: usize| records.iter().any(|u| u.union && u.fields.iter().flatten().any(|f| type_holds(records, &f.ty, record)));
    found.iter().copied().filter(|l| !in_union(l.record)).collect()
}

/// Whether an object of type `t` holds a struct `record` (as itself, a
/// member or an element), given the record table.
fn type_holds(records: &[crate::c::types::Record], t: &CType, record: usize) -> bool {
    fn holds(records: &[crate::c::types::Record], t: &CType, record: usize, depth: usize) -> bool {
        match t {
            CType::Record(r) if *r == record => true,
            CType::Record(r) if depth < 16 => {
                records.get(*r).and_then(|x| x.fields.as_ref()).is_some_and(|fs| fs.iter().any(|f| holds(records, &f.ty, record, depth + 1)))
            }
            CType::Array(e, _) => holds(records, e, record, depth),
            _ => false,
        }
    }
    holds(records, t, record, 0)
}

/// `E->f` through a link: the pointer `E` (evaluated once) and the member's
/// address.
pub(crate) struct LinkAccess {
    pub field: LinkField,
    pub object: PtrVal,
}

impl LinkAccess {
    /// The address of the member.
    pub fn member(&self) -> PtrVal {
        let pointee = CType::Ptr(Box::new(CType::Record(self.field.record)));
        PtrVal { off: Term::add(vec![self.object.off.clone(), Term::int(self.field.offset as i64)]), pointee, ..self.object.clone() }
    }
}

fn flag(v: &str) -> Term {
    Term::eq(Term::var(v), Term::int(1))
}

impl<'a> Lowerer<'a> {
    /// `e` as an access through a link (`E->f` with `f` a member of type
    /// `T *` in `T`), evaluating `E`; `None` (nothing evaluated) otherwise.
    pub(super) fn link_access(&mut self, e: &'a Node<Expression>) -> Result<Option<LinkAccess>> {
        let Expression::Member(m) = &e.node else { return Ok(None) };
        if m.node.operator.node != MemberOperator::Indirect {
            return Ok(None);
        }
        let CType::Ptr(object) = self.type_of(&m.node.expression)? else { return Ok(None) };
        let CType::Record(record) = *object else { return Ok(None) };
        let Some(member) = self.types.member(record, &m.node.identifier.node.name) else { return Ok(None) };
        if member.bits.is_some() || member.ty != CType::Ptr(Box::new(CType::Record(record))) {
            return Ok(None);
        }
        let Some(record_size) = self.types.byte_size(&CType::Record(record)).filter(|s| *s > 0) else { return Ok(None) };
        let field = LinkField { record, offset: member.offset };
        self.mem.links.found.insert(field);
        let object = self.pointer(&m.node.expression, None)?;
        // `*E` is a whole struct inside its block (memory safety).
        let whole = Term::and(vec![
            Term::not(Term::eq(object.base.clone(), Term::int(0))),
            Term::le(Term::int(0), object.off.clone()),
            Term::le(Term::add(vec![object.off.clone(), Term::int(record_size as i64)]), object.size.clone()),
        ]);
        let at = self.span(e.span);
        self.note_approximation(at, Approximation::MemorySafety);
        self.emit_assume(whole);
        Ok(Some(LinkAccess { field, object }))
    }

    /// The access's ordering variables, when this round assumed its link.
    fn link_order(&mut self, field: LinkField) -> Option<LinkOrder> {
        if !self.mem.links.assumed.contains(&field) {
            return None;
        }
        self.link_orders().into_iter().find(|o| o.field == field)
    }

    /// The variables of every assumed link, declared the first time.
    fn link_orders(&mut self) -> Vec<LinkOrder> {
        if let Some(o) = &self.mem.links.orders {
            return o.clone();
        }
        let assumed: Vec<LinkField> = self.mem.links.assumed.iter().copied().collect();
        let mut orders = Vec::new();
        for field in assumed {
            let Some(record_size) = self.types.byte_size(&CType::Record(field.record)) else { continue };
            // `node.next:down`: the struct's tag (or its index) and the member.
            let record = self.types.record(field.record);
            let tag = record.tag.clone().unwrap_or_else(|| format!("struct#{}", field.record));
            let member = record.fields.iter().flatten().find(|f| f.offset == field.offset).and_then(|f| f.name.clone()).unwrap_or_else(|| format!("@{}", field.offset));
            let name = |what: &str| format!("{tag}.{member}:{what}");
            let mut declare = |what: &str, kind: LinkVariable, init: i64| {
                let v = self.cfg.declare_as(&name(what), crate::c::cfg::GLOBAL, IntType::LONG, Origin::LinkOrder(kind));
                self.globals.push_static_init(Action::Assign(v.clone(), Term::int(init)));
                v
            };
            use LinkVariable::*;
            let (down, up) = (declare("down", Down, 1), declare("up", Up, 1));
            let down_below = declare("down_below", DownBelow, 0);
            let up_above = declare("up_above", UpAbove, SUMMARY_BASE);
            let (pending, newest) = (declare("pending", Pending, 0), declare("newest", Newest, 0));
            let (pending2, second) = (declare("pending2", Pending2, 0), declare("second", Second, 0));
            let (unlinked, at_start) = (declare("unlinked", Unlinked, 0), declare("at_start", AtStart, 1));
            let (cache_block, cache_offset, cache_value) = (declare("cache_block", CacheBlock, 0), declare("cache_offset", CacheOffset, 0), declare("cache", CacheValue, 0));
            orders.push(LinkOrder { field, record_size, down, down_below, up, up_above, pending, newest, pending2, second, unlinked, at_start, cache_block, cache_offset, cache_value });
        }
        self.mem.links.orders = Some(orders.clone());
        orders
    }

    /// A block the orders cover: a summarized block allocated so far, or a
    /// block of constant id lowered so far that may hold a link.
    fn covered(&mut self, base: &Term) -> Term {
        let next = Term::var(self.alloc_counter());
        let mut cases = vec![Term::and(vec![Term::le(Term::int(SUMMARY_BASE), base.clone()), Term::lt(base.clone(), next)])];
        cases.extend(self.mem.links.covered.iter().map(|id| Term::eq(base.clone(), Term::int(*id))));
        Term::or(cases)
    }

    /// Any block of the program (a store into one of them may be into a
    /// covered one, whatever the lowering has seen so far).
    fn any_block(&mut self, base: &Term) -> Term {
        let next = Term::var(self.alloc_counter());
        Term::and(vec![Term::lt(Term::int(0), base.clone()), Term::lt(base.clone(), next)])
    }

    /// `v = E->f`: any pointer, in the orders that hold.
    pub(super) fn load_link(&mut self, access: LinkAccess, s: lang_c::span::Span) -> PtrVal {
        let width = i64::from(self.arith.machine().pointer_bytes());
        self.assume_in_bounds(&access.member(), width, s);
        let at = self.span(s);
        self.note_approximation(at, Approximation::PointerInMemory);
        let v = self.unknown_pointer(CType::Record(access.field.record));
        self.link_value(&access, &v, &Term::tt());
        v
    }

    /// A load of a `T *` at `addr` that is not written `E->f`
    /// (`*(T **)(p + skip)`): where `addr` is the offset of a link of `T`
    /// in a block that can hold a `T`, it reads the link of the `T` at the
    /// block's start. (If the block holds something else there, a pointer
    /// was stored into it by another lvalue than the link, which ended
    /// the orders.)
    pub(super) fn load_maybe_link(&mut self, addr: &PtrVal, v: &PtrVal) {
        let CType::Ptr(target) = &addr.pointee else { return };
        let CType::Record(record) = **target else { return };
        let Some(record_size) = self.types.byte_size(&CType::Record(record)).filter(|s| *s > 0) else { return };
        let Some(fields) = self.types.record(record).fields.clone() else { return };
        for f in fields.iter().filter(|f| f.bits.is_none() && f.ty == CType::Ptr(Box::new(CType::Record(record)))) {
            // Only links the program also accesses as `E->f` (a struct
            // that merely holds such a pointer gets no orders from this).
            let field = LinkField { record, offset: f.offset };
            let object = PtrVal { off: Term::sub(addr.off.clone(), Term::int(f.offset as i64)), pointee: CType::Record(record), ..addr.clone() };
            let is_link = Term::and(vec![Term::eq(addr.off.clone(), Term::int(f.offset as i64)), Term::le(Term::int(record_size as i64), addr.size.clone())]);
            self.link_value(&LinkAccess { field, object }, v, &is_link);
        }
    }

    /// Where `is_link` holds, `v` is the value of the link `access` reads:
    /// in the orders that hold, and the cached pointer when it is the link
    /// last read or written (which it becomes).
    fn link_value(&mut self, access: &LinkAccess, v: &PtrVal, is_link: &Term) {
        let Some(o) = self.link_order(access.field) else { return };
        let src = access.object.base.clone();
        let next = Term::var(self.alloc_counter());
        let fresh = Term::or(vec![
            Term::and(vec![flag(&o.pending), Term::eq(src.clone(), Term::var(&o.newest))]),
            Term::and(vec![flag(&o.pending2), Term::eq(src.clone(), Term::var(&o.second))]),
        ]);
        let known = Term::and(vec![is_link.clone(), self.covered(&src), Term::not(fresh)]);
        let target = self.covered(&v.base);
        let at_start = Term::and(vec![Term::eq(v.off.clone(), Term::int(0)), Term::le(Term::int(o.record_size as i64), v.size.clone())]);
        let ordered = Term::or(vec![
            Term::and(vec![Term::eq(v.base.clone(), Term::int(0)), Term::implies(flag(&o.at_start), Term::eq(v.off.clone(), Term::int(0)))]),
            Term::and(vec![
                target,
                Term::implies(flag(&o.at_start), at_start),
                Term::implies(flag(&o.unlinked), Term::not(Term::eq(v.base.clone(), Term::var(&o.newest)))),
                Term::implies(Term::or(vec![flag(&o.down), Term::lt(src.clone(), Term::var(&o.down_below))]), Term::lt(v.base.clone(), src.clone())),
                Term::implies(
                    Term::or(vec![flag(&o.up), Term::le(Term::var(&o.up_above), src.clone())]),
                    Term::and(vec![Term::lt(src.clone(), v.base.clone()), Term::lt(v.base.clone(), next)]),
                ),
            ]),
        ]);
        self.emit_assume(Term::implies(known, ordered));
        // The link last read or written, read again: the same pointer.
        let again = Term::and(vec![
            is_link.clone(),
            Term::not(Term::eq(src.clone(), Term::int(0))),
            Term::eq(Term::var(&o.cache_block), src.clone()),
            Term::eq(Term::var(&o.cache_offset), access.object.off.clone()),
        ]);
        self.emit_assume(Term::implies(again, Term::eq(v.base.clone(), Term::var(&o.cache_value))));
        self.links_cache(&o, &access.object, v, is_link);
    }

    /// Where `is_link` holds, the link of the struct at `object` holds `v`
    /// now: it is the cached one if its block is covered (a write into any
    /// other block cannot change a covered block's link, so the cache stays
    /// right until [`Lowerer::links_lost`]).
    fn links_cache(&mut self, o: &LinkOrder, object: &PtrVal, v: &PtrVal, is_link: &Term) {
        let covered = self.covered(&object.base);
        let v = self.snapshot_pointer(v.clone());
        let when = |now: Term, before: &str| if *is_link == Term::tt() { now } else { Term::ite(is_link.clone(), now, Term::var(before)) };
        let block = when(Term::ite(covered, object.base.clone(), Term::int(0)), &o.cache_block);
        let offset = when(object.off.clone(), &o.cache_offset);
        let value = when(v.base, &o.cache_value);
        self.emit(Action::Assign(o.cache_block.clone(), block));
        self.emit(Action::Assign(o.cache_offset.clone(), offset));
        self.emit(Action::Assign(o.cache_value.clone(), value));
    }

    /// `E->f = v`: the orders `v` breaks end; `E`'s block, if the pending
    /// one and holding just the struct, has `f` written.
    pub(super) fn store_link(&mut self, access: &LinkAccess, v: &PtrVal) {
        let Some(o) = self.link_order(access.field) else { return };
        let dst = access.object.base.clone();
        let next = Term::var(self.alloc_counter());
        let inside = self.any_block(&dst);
        let null = Term::eq(v.base.clone(), Term::int(0));
        let target = self.covered(&v.base);
        let older = Term::or(vec![null.clone(), Term::and(vec![target.clone(), Term::lt(v.base.clone(), dst.clone())])]);
        let newer = Term::or(vec![null, Term::and(vec![target, Term::lt(dst.clone(), v.base.clone()), Term::lt(v.base.clone(), next)])]);
        let starts = Term::or(vec![
            Term::and(vec![Term::eq(v.base.clone(), Term::int(0)), Term::eq(v.off.clone(), Term::int(0))]),
            Term::and(vec![Term::eq(v.off.clone(), Term::int(0)), Term::le(Term::int(o.record_size as i64), v.size.clone())]),
        ]);
        // A store into the one struct of the block just outside a bound
        // that keeps its order moves the bound over it (a reversal in place
        // rewrites a list of consecutive blocks one by one). Before the
        // bounds and the orders are updated for the store itself.
        let whole_block = Term::and(vec![
            inside.clone(),
            Term::eq(access.object.off.clone(), Term::int(0)),
            Term::eq(access.object.size.clone(), Term::int(o.record_size as i64)),
            Term::le(Term::int(SUMMARY_BASE), dst.clone()),
        ]);
        let below = Term::var(&o.down_below);
        let extends_down = Term::and(vec![whole_block.clone(), Term::not(flag(&o.down)), Term::eq(dst.clone(), below.clone()), older.clone()]);
        let above = Term::var(&o.up_above);
        let extends_up = Term::and(vec![whole_block, Term::not(flag(&o.up)), Term::eq(Term::add(vec![dst.clone(), Term::int(1)]), above.clone()), newer.clone()]);
        self.emit(Action::Assign(o.down_below.clone(), Term::ite(extends_down, Term::add(vec![below.clone(), Term::int(1)]), below)));
        self.emit(Action::Assign(o.up_above.clone(), Term::ite(extends_up, dst.clone(), above)));
        self.break_down_order(&o, Term::and(vec![inside.clone(), Term::not(older.clone())]), &dst);
        self.break_up_order(&o, Term::and(vec![inside.clone(), Term::not(newer.clone())]), &dst);
        for (var, keeps) in [(&o.down, older), (&o.up, newer), (&o.at_start, starts)] {
            let broken = Term::and(vec![inside.clone(), Term::not(keeps)]);
            self.emit(Action::Assign(var.clone(), Term::ite(broken, Term::int(0), Term::var(var))));
        }
        self.links_cache(&o, &access.object, v, &Term::tt());
        let just_the_struct = Term::eq(access.object.size.clone(), Term::int(o.record_size as i64));
        for (flag, id) in [(&o.pending, &o.newest), (&o.pending2, &o.second)] {
            let written = Term::and(vec![Term::eq(dst.clone(), Term::var(id)), just_the_struct.clone()]);
            self.emit(Action::Assign(flag.clone(), Term::ite(written, Term::int(0), Term::var(flag))));
        }
    }

    /// Where `broken` holds, the order `down` ends at block `d`: the blocks
    /// numbered below `d` (below `down_below` too, if it had ended before)
    /// keep it. Emitted before `down` itself is updated.
    fn break_down_order(&mut self, o: &LinkOrder, broken: Term, d: &Term) {
        let below = Term::var(&o.down_below);
        let lowest = Term::ite(Term::lt(d.clone(), below.clone()), d.clone(), below.clone());
        let bound = Term::ite(flag(&o.down), d.clone(), lowest);
        self.emit(Action::Assign(o.down_below.clone(), Term::ite(broken, bound, below)));
    }

    /// Where `broken` holds, the order `up` ends at block `d`: the blocks
    /// numbered above `d` (and at or above `up_above`, if it had ended
    /// before) keep it. Emitted before `up` itself is updated.
    fn break_up_order(&mut self, o: &LinkOrder, broken: Term, d: &Term) {
        let above = Term::var(&o.up_above);
        let past = Term::add(vec![d.clone(), Term::int(1)]);
        let highest = Term::ite(Term::lt(above.clone(), past.clone()), past.clone(), above.clone());
        let bound = Term::ite(flag(&o.up), past, highest);
        self.emit(Action::Assign(o.up_above.clone(), Term::ite(broken, bound, above)));
    }

    /// A block `base` of `size` bytes was made (`id`: its constant id when
    /// it is allocated once; `declared`: its declared type; `zeroed`: its
    /// links are NULL). A block that may hold the struct of a link is
    /// covered, and is the newest whose link may be unwritten.
    pub(super) fn links_on_allocation(&mut self, base: &Term, id: Option<i64>, declared: Option<&CType>, size: &Term, zeroed: bool, contents: Contents) {
        let orders = self.link_orders();
        let holds = |l: &Lowerer, o: &LinkOrder| match contents {
            Contents::Fixed => false,
            Contents::Allocated => !size.as_int_const().is_some_and(|n| n < o.record_size as i64),
            Contents::Declared => declared.is_some_and(|t| type_holds(l.types.records(), t, o.field.record)),
        };
        let holding: Vec<LinkOrder> = orders.into_iter().filter(|o| holds(self, o)).collect();
        if holding.is_empty() {
            return;
        }
        if let Some(id) = id {
            self.mem.links.covered.push(id);
        }
        for o in holding {
            // Three blocks whose link may be unwritten: no order is known
            // (but below the one given up, `second`, `down` still holds).
            let second = Term::var(&o.second);
            self.break_down_order(&o, flag(&o.pending2), &second);
            self.break_up_order(&o, flag(&o.pending2), &second);
            for var in [&o.down, &o.up] {
                self.emit(Action::Assign(var.clone(), Term::ite(flag(&o.pending2), Term::int(0), Term::var(var))));
            }
            self.emit(Action::Assign(o.pending2.clone(), Term::var(&o.pending)));
            self.emit(Action::Assign(o.second.clone(), Term::var(&o.newest)));
            self.emit(Action::Assign(o.pending.clone(), Term::int(if zeroed { 0 } else { 1 })));
            self.emit(Action::Assign(o.newest.clone(), base.clone()));
            self.emit(Action::Assign(o.unlinked.clone(), Term::int(1)));
            // A block made again at the cached id (a declared struct whose
            // scope is entered again) has its link unwritten.
            let again = Term::eq(Term::var(&o.cache_block), base.clone());
            self.emit(Action::Assign(o.cache_block.clone(), Term::ite(again, Term::int(0), Term::var(&o.cache_block))));
        }
    }

    /// A pointer `v` is stored in memory: it may now be a link's value.
    pub(super) fn links_pointer_stored(&mut self, v: &PtrVal) {
        if !self.mem.links.assumed.is_empty() {
            for o in self.link_orders() {
                let stored = Term::eq(v.base.clone(), Term::var(&o.newest));
                self.emit(Action::Assign(o.unlinked.clone(), Term::ite(stored, Term::int(0), Term::var(&o.unlinked))));
            }
        }
    }

    /// A pointer of unknown value points to a block that exists (a
    /// summarized one allocated so far) or to one of the small ids, which
    /// stand for blocks of constant id and for memory outside the program.
    /// Without this, a pointer to memory outside the program, given an id
    /// above `alloc#next`, would become a covered block once the program
    /// allocates that far, and its links would be taken as ordered.
    pub(crate) fn links_existing_block(&mut self, base: &Term) {
        if let Some(t) = self.existing_block(base) {
            self.emit_assume(t);
        }
    }

    /// What [`Lowerer::links_existing_block`] assumes of `base`, if anything.
    pub(crate) fn existing_block(&mut self, base: &Term) -> Option<Term> {
        if self.link_orders().is_empty() {
            return None;
        }
        let next = Term::var(self.alloc_counter());
        Some(Term::or(vec![Term::lt(base.clone(), Term::int(SUMMARY_BASE)), Term::lt(base.clone(), next)]))
    }

    /// A write that may change links of summarized blocks by other means
    /// than a store through them: every order ends.
    pub(crate) fn links_lost(&mut self) {
        for o in self.link_orders() {
            self.emit(Action::Assign(o.down.clone(), Term::int(0)));
            self.emit(Action::Assign(o.down_below.clone(), Term::int(0)));
            self.emit(Action::Assign(o.up.clone(), Term::int(0)));
            // Blocks not allocated yet get their links from stores the
            // orders follow (or from writes that end them again).
            let next = Term::var(self.alloc_counter());
            self.emit(Action::Assign(o.up_above.clone(), next));
            self.emit(Action::Assign(o.at_start.clone(), Term::int(0)));
            self.emit(Action::Assign(o.cache_block.clone(), Term::int(0)));
        }
    }

    /// The effects of a call of `name` that the model does not follow
    /// (a recursive call's return, a summarized call): the orders end
    /// unless no link can change. That is so when `name` and everything it
    /// may call are defined, store nothing into memory (no assignment to
    /// anything but a name, no assignment of a global object by name), take no
    /// parameter but numbers and pointers, declare no
    /// object that may hold a struct (an initializer writes its members) and
    /// call only functions outside the program that keep memory, none
    /// that allocates (a block the model did not number would break
    /// `alloc#next`, `pending` and `unlinked`). `free` keeps every link of
    /// the blocks that stay live. A read-only recursion over a list
    /// (`1 + length(p->next)`) then leaves the list's order to the loops
    /// after it.
    pub(crate) fn call_changes_links(&mut self, name: &str) {
        if !self.call_keeps_links(name) {
            // The blocks it may have allocated take the ids before any the
            // caller makes next (so that every block has an id of its own),
            // and only then do the orders end: `up_above` must lie above
            // them, whose links the call wrote unseen.
            if self.mem.alloc_counter.is_some() {
                let next = self.alloc_counter();
                let before = self.cfg.temp("alloc.before", IntType::LONG);
                self.emit(Action::Assign(before.clone(), Term::var(next.clone())));
                self.emit(Action::Choose(next.clone()));
                self.emit_assume(Term::le(Term::var(before), Term::var(next)));
            }
            self.links_lost();
        }
    }

    fn call_keeps_links(&self, name: &str) -> bool {
        use crate::c::lower::calls::library::keeps_memory;
        use crate::c::lower::Symbol;
        self.reachable_functions([name.to_string()]).iter().all(|(f, facts)| match facts {
            Some(x) => {
                // A parameter passed by value may be a struct: a covered
                // block the call writes.
                let scalar_params = self.types.signatures().function(f).is_some_and(|i| {
                    i.params.iter().all(|p| matches!(p.ty, CType::Int(_) | CType::Ptr(_) | CType::Float(_)))
                });
                scalar_params
                    && !x.writes_memory
                    && !x.declares_aggregate
                    && !x.assigned.iter().any(|n| matches!(self.globals.get(n), Some(Symbol::Object { .. })))
            }
            None => keeps_memory(f) && !super::ALLOCATORS.contains(&f.as_str()),
        })
    }

    /// [`Lowerer::links_lost`] for a write through `p` when `p` may point
    /// into a covered block (its block is not a constant, or a covered one).
    pub(crate) fn links_lost_through(&mut self, p: &PtrVal) {
        match p.base.as_int_const() {
            Some(id) if !self.mem.links.covered.contains(&id) => {}
            _ => self.links_lost(),
        }
    }
}
