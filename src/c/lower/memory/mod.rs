//! Memory: pointers, buffers from `alloca`/`malloc`, and the loads and
//! stores through them, kept in linear integer arithmetic. This file holds
//! pointer variables and the accesses through pointers; the values of
//! pointer expressions are in [`pointer_expr`], blocks and their
//! cells in [`cells`], what unknown pointers reach in
//! [`exposure`].
//!
//! # Semantics (what a proof means for a program with pointers)
//!
//! * Every allocation is a *block* with an integer base id (`0` is NULL) and
//!   a size in bytes. A pointer is a triple of integers (base, byte offset,
//!   size of its block); pointer arithmetic moves the offset, scaled by the
//!   size of the pointee type.
//! * **Termination is proved under the assumption that the program is memory
//!   safe**: every access `*p` / `p[i]` is assumed to lie inside its block
//!   (`base != 0 && 0 <= off && off + sizeof <= size`), and relational
//!   comparisons of pointers are assumed to compare pointers into the same
//!   block. Runs that violate this have undefined behaviour in C, so any
//!   answer about them is vacuous; SV-COMP termination tasks are memory safe.
//!   Where such an assumption can drop runs, the program records the
//!   approximation "assumes memory safety: every access in bounds". It
//!   does not forbid NO: a run of the model never leaves its blocks, so an
//!   infinite run of the model is an infinite memory-safe run of the
//!   program.
//! * Contents are tracked exactly only for *cell blocks*: a block of constant
//!   size (at most [`MAX_CELLS`] elements of the type its pointer was given at
//!   allocation) allocated at a site that runs at most once. Each element is
//!   an integer program variable. Every other load yields a nondeterministic
//!   value of its type (a `choose`, recorded in `Program.approximations`:
//!   over-approximate, so YES stays sound and NO may not depend on such a
//!   load); stores into such blocks are
//!   dropped, which is sound because their loads ignore contents.

mod addresses;
mod cells;
mod exposure;
mod links;
mod objects;
mod pointer;
mod pointer_expr;

pub(crate) use addresses::{forget_overwritten, HeldAddresses};
use crate::c::lower::typed::*;
use cells::Block;
pub(crate) use exposure::{addresses_held, Exposure, Held};
pub(crate) use links::{outside_unions, Contents, LinkField};
use links::Links;
pub(crate) use objects::Storage;
use std::collections::{HashMap, HashSet};
use crate::c::lower::{LValue, Lowerer, Symbol};
use crate::c::types::{size_of, CType};
use crate::error::Result;
use crate::ir::origin::{Owner, PointerPart};
use crate::ir::Origin;
use crate::ir::{Action, IntType, Span};
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::Zero;

pub(crate) use pointer::*;


pub(crate) const ALLOCATORS: &[&str] = &["alloca", "__builtin_alloca", "malloc", "calloc"];

/// The state of the memory model, private to this folder: the rest of the
/// lowering reaches memory through the `Lowerer` methods defined here and
/// the few methods of [`Memory`].
pub(crate) struct Memory {
    /// Every memory block allocated so far.
    blocks: Vec<Block>,
    /// Blocks (by id) assumed exposed in this round (see [`Exposure`]).
    exposure: Exposure,
    /// Allocation sites (by ordinal) known to run more than once.
    repeating_sites: HashSet<usize>,
    /// Sites tracked as running once that turned out to lie on a cycle.
    found_repeating: HashSet<usize>,
    /// The counter that numbers blocks of sites that run more than once.
    alloc_counter: Option<String>,
    /// The block of the first evaluation of each string literal, by text.
    string_literal_blocks: HashMap<String, Term>,
    /// The pieces of every string literal of the unit.
    unit_literals: Vec<Vec<String>>,
    /// The variable that is 1 once an object's lifetime may have ended
    /// (see [`Lowerer::lifetime_may_end`]).
    lifetime_ended: Option<String>,
    /// The block standing for each function whose address is taken.
    function_blocks: HashMap<String, Term>,
    /// Names whose address is taken somewhere: such globals live in memory.
    addressed_globals: HashSet<String>,
    /// The pointer result of the call just inlined.
    last_pointer_return: Option<PtrVal>,
    /// The block holding the struct result of the last inlined call.
    last_record_return: Option<PtrVal>,
    /// Pointers in self-referential members, ordered by allocation.
    links: Links,
    /// Integer variables holding addresses (see [`addresses`]).
    held_addresses: HeldAddresses,
}

impl Memory {
    /// The memory of a round of lowering (see [`crate::c::lower::lower`]):
    /// the sites known to repeat and the blocks assumed exposed so far.
    pub fn new(repeating_sites: HashSet<usize>, exposed: HashSet<i64>, held: exposure::Held, addressed_globals: HashSet<String>, links: std::collections::BTreeSet<LinkField>, unit_literals: Vec<Vec<String>>) -> Memory {
        Memory {
            blocks: Vec::new(),
            exposure: Exposure { assumed: exposed, held, ..Default::default() },
            repeating_sites,
            found_repeating: HashSet::new(),
            alloc_counter: None,
            string_literal_blocks: HashMap::new(),
            unit_literals,
            lifetime_ended: None,
            function_blocks: HashMap::new(),
            addressed_globals,
            last_pointer_return: None,
            last_record_return: None,
            links: Links::new(links),
            held_addresses: HeldAddresses::new(),
        }
    }
    /// The results of the call just inlined: its pointer, or the block of
    /// its struct.
    pub fn set_call_results(&mut self, pointer: Option<PtrVal>, record: Option<PtrVal>) {
        self.last_pointer_return = pointer;
        self.last_record_return = record;
    }
    /// The pointer result of the recursive call just lowered.
    pub fn set_pointer_result(&mut self, pointer: PtrVal) {
        self.last_pointer_return = Some(pointer);
    }
    /// Some block has cells (contents tracked in variables).
    pub fn has_cell_blocks(&self) -> bool {
        self.blocks.iter().any(|b| b.cells.is_some())
    }
    /// The address of global `name` is taken somewhere (it lives in memory).
    pub fn is_addressed_global(&self, name: &str) -> bool {
        self.addressed_globals.contains(name)
    }
    /// The allocation sites tracked as running once that the finished
    /// graph puts on a cycle.
    pub fn found_repeating(&mut self, sites: HashSet<usize>) {
        self.found_repeating = sites;
    }
    /// What this round found: sites that repeat, the blocks' exposure and
    /// the links met.
    /// The integer variables holding addresses (see [`addresses`]).
    pub fn held_addresses(&self) -> &HeldAddresses {
        &self.held_addresses
    }
    pub fn outcome(self) -> (HashSet<usize>, Exposure, std::collections::BTreeSet<LinkField>) {
        let links = self.links.found().clone();
        let mut exposure = self.exposure;
        exposure.cell_blocks = self.blocks.iter().filter(|b| b.cells.is_some()).map(|b| b.id).collect();
        (self.found_repeating, exposure, links)
    }
}

impl<'a> Lowerer<'a> {
    /// The allocation site being lowered runs at most once: no enclosing
    /// loop in any inlined frame, no `goto` label before it, no recursion.
    pub(super) fn site_runs_once(&self) -> bool {
        self.calls.frames().iter().all(|f| f.runs_once())
    }

    /// A fresh program variable that lives beyond the current statement.
    pub(super) fn memory_var(&mut self, name: &str, origin: Origin) -> String {
        let f = self.function_name();
        self.cfg.declare_as(name, &f, IntType::LONG, origin)
    }

    /// Copy a term into a fresh persistent variable unless it is constant.
    pub(super) fn pin(&mut self, name: &str, origin: Origin, t: Term) -> Term {
        if matches!(t, Term::Int(_)) {
            return t;
        }
        let v = self.memory_var(name, origin);
        self.emit(Action::Assign(v.clone(), t));
        Term::var(v)
    }

    // ---- pointer variables

    /// Declare a pointer variable, initialized with `init` (`None`:
    /// uninitialized, any value).
    /// `fixed`: never reassigned (base and size stay); `still`: never moved
    /// either (the offset stays too).
    pub fn declare_pointer(&mut self, name: &str, of: Owner, pointee: CType, init: Option<PtrVal>, fixed: bool, still: bool) -> PtrVar {
        let part = |part| Origin::PointerPart { of, part, pointer: name.to_string() };
        match (init, fixed) {
            (Some(v), true) => {
                // (The blocks the variable may hold come from the finished
                // program: see `exposure::addresses_held`.)
                let base = self.pin(&format!("{name}.base"), part(PointerPart::Base), v.base);
                let size = self.pin(&format!("{name}.size"), part(PointerPart::Size), v.size);
                if still {
                    let off = self.pin(&format!("{name}.off"), part(PointerPart::Offset), v.off);
                    return PtrVar { base, off: String::new(), size, whole: None, fixed_off: Some(off), pointee };
                }
                let off = self.memory_var(&format!("{name}.off"), part(PointerPart::Offset));
                self.emit(Action::Assign(off.clone(), v.off));
                PtrVar { base, off, size, whole: None, fixed_off: None, pointee }
            }
            (init, _) => {
                let off = self.memory_var(&format!("{name}.off"), part(PointerPart::Offset));
                let b = self.memory_var(&format!("{name}.base"), part(PointerPart::Base));
                let s = self.memory_var(&format!("{name}.size"), part(PointerPart::Size));
                let var = PtrVar { base: Term::var(b.clone()), off, size: Term::var(s.clone()), whole: Some((b, s)), fixed_off: None, pointee };
                match init {
                    Some(v) => self.assign_pointer_parts(&var, v),
                    None => {
                        self.emit(Action::Havoc(var.off.clone()));
                        if let Some((b, s)) = &var.whole {
                            self.emit(Action::Havoc(b.clone()));
                            self.emit(Action::Havoc(s.clone()));
                        }
                    }
                }
                var
            }
        }
    }

    pub(super) fn assign_pointer_parts(&mut self, var: &PtrVar, v: PtrVal) {
        // Parallel assignment: `v` may read the variable's own parts.
        let v = if var.whole.is_some() && [&v.base, &v.size].iter().any(|t| !t.free_vars().is_empty()) {
            self.snapshot_pointer(v)
        } else {
            v
        };
        if let Some((b, s)) = &var.whole {
            self.emit(Action::Assign(b.clone(), v.base));
            self.emit(Action::Assign(s.clone(), v.size));
        }
        self.emit(Action::Assign(var.off.clone(), v.off));
    }

    /// Copy the non-constant parts of a pointer into statement temporaries.
    pub fn snapshot_pointer(&mut self, v: PtrVal) -> PtrVal {
        let part = |l: &mut Self, t: Term| {
            if matches!(t, Term::Int(_)) {
                return t;
            }
            let tmp = l.cfg.temp("ptr", IntType::LONG);
            l.emit(Action::Assign(tmp.clone(), t));
            Term::var(tmp)
        };
        let base = part(self, v.base);
        let off = part(self, v.off);
        let size = part(self, v.size);
        PtrVal { base, off, size, pointee: v.pointee }
    }

    /// Whether the current function may reassign `name` (or take its address).
    pub fn may_reassign(&self, name: &str) -> bool {
        self.calls.frame().is_none_or(|f| f.may_reassign(name))
    }

    /// Whether the current function may move `name` (`++`, `+=`, ...).
    pub fn may_move(&self, name: &str) -> bool {
        self.calls.frame().is_none_or(|f| f.may_move(name))
    }

    /// A pointer variable about to be changed.
    pub(super) fn pointer_variable(&mut self, e: &'a Node<Expression>) -> Result<PtrVar> {
        if let Expression::Identifier(id) = &e.node {
            if let Some(Symbol::Ptr(p)) = self.lookup(&id.node.name) {
                if p.fixed_off.is_some() {
                    return Err(crate::error::TesseraError::Internal(format!("the pointer `{}` was thought never to move", id.node.name)));
                }
                return Ok(p.clone());
            }
        }
        Err(self.unsupported(e.span, "this pointer expression as an assignment target"))
    }

    // ---- accesses

    /// `*p`: the pointer accessed, after assuming the access is in bounds.
    pub fn access_deref(&mut self, operand: &'a Node<Expression>, s: lang_c::span::Span) -> Result<(PtrVal, IntType)> {
        let p = self.pointer(operand, None)?;
        self.access(p, s)
    }

    /// `a[i]`: the pointer accessed, after assuming the access is in bounds.
    pub fn access_index(&mut self, b: &'a Node<BinaryOperatorExpression>) -> Result<(PtrVal, IntType)> {
        let (p, i) = self.index_parts(b)?;
        let p = self.offset_by(p, i, false, b.span)?;
        self.access(p, b.span)
    }

    /// An lvalue in memory whose address must not change while `later` runs.
    pub fn protect_lvalue(&mut self, lv: LValue, later: &'a Node<Expression>) -> LValue {
        match lv {
            LValue::Mem { ptr, ty, at } if self.has_effects(later) => LValue::Mem { ptr: self.snapshot_pointer(ptr), ty, at },
            lv => lv,
        }
    }

    pub(super) fn access(&mut self, p: PtrVal, s: lang_c::span::Span) -> Result<(PtrVal, IntType)> {
        let ty = match &p.pointee {
            CType::Int(t) => *t,
            CType::Void => return Err(self.syntax(s, "dereferencing a `void *`")),
            CType::Ptr(_) => return Err(self.unsupported(s, "a pointer used as an integer value")),
            CType::Unsupported(w) => return Err(self.unsupported(s, format!("access to a {w} in memory"))),
            other => return Err(self.unsupported(s, format!("a {} used as an integer value", describe(other)))),
        };
        self.assume_in_bounds(&p, i64::from(size_of(ty)), s);
        Ok((p, ty))
    }

    /// An access of `width` bytes at `p` lies inside its block (memory safety).
    fn assume_in_bounds(&mut self, p: &PtrVal, width: i64, s: lang_c::span::Span) {
        let e = lang_c::span::Node { node: (), span: s };
        let width = Term::int(width);
        let in_bounds = Term::and(vec![
            Term::not(Term::eq(p.base.clone(), Term::int(0))),
            Term::le(Term::int(0), p.off.clone()),
            Term::le(Term::add(vec![p.off.clone(), width]), p.size.clone()),
        ]);
        if in_bounds != Term::tt() {
            let at = self.span(e.span);
            self.note_approximation(at, crate::ir::Approximation::MemorySafety);
            self.emit_assume(in_bounds);
        }
    }

    /// The address of an object expression (`a`, `*p`, `a[i]`, `s.f`,
    /// `p->f`), with the object's type (undecayed) as pointee.
    pub(super) fn address_of_object(&mut self, e: &'a Node<Expression>) -> Result<PtrVal> {
        self.enter(e.span)?;
        let r = self.address_of_object_inner(e);
        self.leave();
        r
    }

    fn address_of_object_inner(&mut self, e: &'a Node<Expression>) -> Result<PtrVal> {
        match &e.node {
            Expression::Identifier(id) if self.lookup(&id.node.name).is_none() && self.types.signatures().is_function(&id.node.name) => {
                Ok(self.function_address(&id.node.name))
            }
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Symbol::Object { ptr, .. }) => Ok(ptr.clone()),
                Some(Symbol::Opaque { ty }) => {
                    let ty = ty.clone();
                    Ok(self.opaque_address(ty, e.span))
                }
                Some(Symbol::Var { .. } | Symbol::Ptr(_)) => Err(self.unsupported(
                    e.span,
                    format!("a pointer to the scalar variable `{}` (address-taken variables are not modelled)", id.node.name),
                )),
                _ => Err(self.unsupported(e.span, format!("the address of `{}`", id.node.name))),
            },
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => self.pointer(&u.node.operand, None),
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let (p, i) = self.index_parts(b)?;
                self.offset_by(p, i, false, b.span)
            }
            Expression::Member(m) => {
                let member = self.member_of(m)?;
                let base = match m.node.operator.node {
                    MemberOperator::Direct => self.address_of_object(&m.node.expression)?,
                    MemberOperator::Indirect => self.pointer(&m.node.expression, None)?,
                };
                Ok(PtrVal { off: Term::add(vec![base.off, Term::int(member.offset as i64)]), pointee: member.ty, ..base })
            }
            Expression::CompoundLiteral(c) => self.compound_literal(c),
            // A struct value with a block of its own (an inlined call's
            // result): `mk(7).a`.
            Expression::Call(_) => match self.object_address(e)? {
                Some(p) => Ok(p),
                None => Err(self.unsupported(e.span, "a member of this struct value")),
            },
            _ => Err(self.unsupported(e.span, "taking the address of this expression")),
        }
    }

    /// The value of an expression of pointer type that is an object in
    /// memory (`*pp`, `a[i]`, `s.next`, `p->next`); an array there decays.
    pub(super) fn pointer_in_memory(&mut self, e: &'a Node<Expression>) -> Result<PtrVal> {
        if let Some(access) = self.link_access(e)? {
            return Ok(self.load_link(access, e.span));
        }
        let addr = self.address_of_object(e)?;
        match addr.pointee.clone() {
            CType::Array(elem, _) => Ok(PtrVal { pointee: *elem, ..addr }),
            CType::Function => Ok(PtrVal { pointee: CType::Function, ..addr }),
            CType::Ptr(pointee) => {
                let width = i64::from(self.arith.machine().pointer_bytes());
                self.assume_in_bounds(&addr, width, e.span);
                if let Some(v) = self.load_pointer_cell(&addr, *pointee.clone()) {
                    return Ok(v);
                }
                let at = self.span(e.span);
                self.note_approximation(at, crate::ir::Approximation::PointerInMemory);
                let v = self.unknown_pointer(*pointee);
                self.load_maybe_link(&addr, &v);
                Ok(v)
            }
            _ => Err(self.unsupported(e.span, "this expression as a pointer")),
        }
    }

    /// Store a pointer into memory: pointer values in memory are tracked
    /// only in pointer cells (other loads give any pointer, or one in the
    /// order of a link: a store through another lvalue than a link ends
    /// the orders); integer cells it overwrites change.
    pub(super) fn store_pointer(&mut self, dst: &PtrVal, v: PtrVal, at: &Option<Span>) {
        self.links_lost_through(dst);
        self.store_pointer_over_cells(dst, v, at);
    }

    /// `E->f = v` through a link.
    pub(super) fn store_through_link(&mut self, access: &links::LinkAccess, v: PtrVal, at: &Option<Span>) {
        self.store_link(access, &v);
        self.store_pointer_over_cells(&access.member(), v, at);
    }

    fn store_pointer_over_cells(&mut self, dst: &PtrVal, v: PtrVal, at: &Option<Span>) {
        self.expose(&v.base);
        self.links_pointer_stored(&v);
        let width = i64::from(self.arith.machine().pointer_bytes());
        self.store_over_pointer_cells(dst, width, Some(v), at);
        if let (Some(cells), Some(k)) = (self.cell_slots(&dst.base), dst.off.as_int_const()) {
            for c in cells.iter().filter(|c| c.off < k + width && k < c.off + i64::from(size_of(c.ty))) {
                self.note_approximation(at.clone(), crate::ir::Approximation::PointerOverIntegers);
                self.havoc(&c.var, c.ty);
            }
        }
    }

    /// The address of a function: a block of its own (calls through
    /// pointers are not modelled, but such addresses may be stored).
    pub(super) fn function_address(&mut self, name: &str) -> PtrVal {
        let base = match self.mem.function_blocks.get(name) {
            Some(b) => b.clone(),
            None => {
                let id = self.mem.blocks.len() as i64 + 1;
                self.mem.blocks.push(Block { id, cells: None, object: Some(CType::Function) });
                self.mem.function_blocks.insert(name.to_string(), Term::int(id));
                Term::int(id)
            }
        };
        PtrVal { base, off: Term::int(0), size: Term::int(1), pointee: CType::Function }
    }

    /// A parameter or local of pointer type: bind `name` to a new variable.
    pub fn bind_pointer(&mut self, name: &str, pointee: CType, init: Option<PtrVal>) {
        let fixed = init.is_some() && !self.may_reassign(name);
        let still = fixed && !self.may_move(name);
        let var = self.declare_pointer(name, Owner::Variable, pointee, init, fixed, still);
        self.bind(name, Symbol::Ptr(var));
    }

    /// A global pointer (reassignable anywhere): NULL or unknown at start
    /// (`initial`: false when an initializer run before `main` sets it).
    pub fn global_pointer(&mut self, name: &str, of: Owner, pointee: CType, is_extern: bool, initial: bool) -> PtrVar {
        let part = |part| Origin::PointerPart { of, part, pointer: name.to_string() };
        let b = self.cfg.declare_as(&format!("{name}.base"), crate::c::cfg::GLOBAL, IntType::LONG, part(PointerPart::Base));
        let off = self.cfg.declare_as(&format!("{name}.off"), crate::c::cfg::GLOBAL, IntType::LONG, part(PointerPart::Offset));
        let s = self.cfg.declare_as(&format!("{name}.size"), crate::c::cfg::GLOBAL, IntType::LONG, part(PointerPart::Size));
        let value = if is_extern { None } else { Some(BigInt::zero()) };
        if initial {
            for v in [&b, &off, &s] {
                self.globals.push_init(v.clone(), IntType::LONG, value.clone());
            }
        }
        PtrVar { base: Term::var(b.clone()), off, size: Term::var(s.clone()), whole: Some((b, s)), fixed_off: None, pointee }
    }

    /// Write a pointer into the return variables of the current frame.
    pub fn return_pointer(&mut self, e: &'a Node<Expression>, ret: &PtrVar) -> Result<()> {
        let v = self.pointer(e, Some(ret.pointee.clone()))?;
        self.assign_pointer_parts(ret, v);
        Ok(())
    }
}
