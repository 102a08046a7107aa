//! Memory: pointers, buffers from `alloca`/`malloc`, and the loads and
//! stores through them, kept in linear integer arithmetic. This file holds
//! the pointer values and expressions; blocks and their cells are in
//! [`super::cells`], what unknown pointers reach in [`super::exposure`].
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

use super::cells::Block;
use super::{LValue, Lowerer, Symbol};
use crate::ir::origin::{AllocationPart, Owner, PointerPart};
use crate::ir::Origin;
use crate::c::arith::{ArithOp, CmpOp, Val};
use crate::c::types::{size_of, CType};
use crate::error::Result;
use crate::ir::{Action, IntType, Span};
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::Zero;

pub(crate) use super::pointer::*;


pub(crate) const ALLOCATORS: &[&str] = &["alloca", "__builtin_alloca", "malloc", "calloc"];

impl<'a> Lowerer<'a> {
    /// Whether the expression has pointer type.
    pub fn is_pointer(&mut self, e: &'a Node<Expression>) -> Result<bool> {
        Ok(matches!(self.type_of(e)?, CType::Ptr(_)))
    }

    /// A cheap syntactic filter before asking [`Lowerer::is_pointer`].
    pub fn maybe_pointer(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Symbol::Ptr(_)) | Some(Symbol::Object { ty: CType::Array(..) | CType::Ptr(_), .. }) => true,
                None => self.functions.contains_key(&id.node.name),
                _ => false,
            },
            Expression::StringLiteral(_) | Expression::Call(_) | Expression::Cast(_) | Expression::Comma(_) => true,
            Expression::UnaryOperator(u) => matches!(
                u.node.operator.node,
                UnaryOperator::Address
                    | UnaryOperator::Indirection
                    | UnaryOperator::PostIncrement
                    | UnaryOperator::PostDecrement
                    | UnaryOperator::PreIncrement
                    | UnaryOperator::PreDecrement
            ),
            Expression::BinaryOperator(b) => matches!(
                b.node.operator.node,
                BinaryOperator::Assign
                    | BinaryOperator::AssignPlus
                    | BinaryOperator::AssignMinus
                    | BinaryOperator::Plus
                    | BinaryOperator::Minus
                    | BinaryOperator::Index
            ),
            Expression::Conditional(_) | Expression::Member(_) | Expression::VaArg(_) => true,
            _ => false,
        }
    }

    /// The allocation site being lowered runs at most once: no enclosing
    /// loop in any inlined frame, no `goto` label before it, no recursion.
    pub(super) fn site_runs_once(&self) -> bool {
        self.frames.iter().all(|f| {
            f.instance.is_none() && !f.past_goto_label && !f.jumps.iter().any(|j| matches!(j, super::JumpScope::Loop { .. }))
        })
    }

    /// A fresh program variable that lives beyond the current statement.
    pub(super) fn memory_var(&mut self, name: &str, origin: Origin) -> String {
        let f = self.function_name();
        self.cfg.declare_as(name, &f, IntType::LONG, origin)
    }

    /// Copy a term into a fresh persistent variable unless it is constant.
    fn pin(&mut self, name: &str, origin: Origin, t: Term) -> Term {
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
        let part = |part| Origin::PointerPart { of, part };
        match (init, fixed) {
            (Some(v), true) => {
                if !matches!(v.base, Term::Int(_)) {
                    self.expose(&v.base);
                }
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
            self.expose(&v.base);
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
        if !matches!(v.base, Term::Int(_)) {
            self.expose(&v.base);
        }
        let base = part(self, v.base);
        let off = part(self, v.off);
        let size = part(self, v.size);
        PtrVal { base, off, size, pointee: v.pointee }
    }

    /// Whether the current function may reassign `name` (or take its address).
    pub fn may_reassign(&self, name: &str) -> bool {
        self.frames.last().is_none_or(|f| f.reassigned.0.contains(name))
    }

    /// Whether the current function may move `name` (`++`, `+=`, ...).
    pub fn may_move(&self, name: &str) -> bool {
        self.frames.last().is_none_or(|f| f.reassigned.1.contains(name))
    }

    /// A pointer variable about to be changed.
    fn pointer_variable(&mut self, e: &'a Node<Expression>) -> Result<PtrVar> {
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

    // ---- pointer expressions

    /// The value of an expression of pointer type. `hint`: the pointee type
    /// the value is about to be given (decides the cells of a new block).
    pub fn pointer(&mut self, e: &'a Node<Expression>, hint: Option<CType>) -> Result<PtrVal> {
        self.enter(e.span)?;
        let r = self.pointer_inner(e, hint);
        self.leave();
        r
    }

    fn pointer_inner(&mut self, e: &'a Node<Expression>, hint: Option<CType>) -> Result<PtrVal> {
        if is_null_constant(&e.node) {
            return Ok(PtrVal::null(hint.unwrap_or(CType::Void)));
        }
        match &e.node {
            Expression::Identifier(id) if self.lookup(&id.node.name).is_none() && self.functions.contains_key(&id.node.name) => {
                Ok(self.function_address(&id.node.name))
            }
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Symbol::Ptr(p)) => Ok(p.value()),
                // An array decays to a pointer to its first element.
                Some(Symbol::Object { ptr, ty: CType::Array(elem, _) }) => Ok(PtrVal { pointee: (**elem).clone(), ..ptr.clone() }),
                // A pointer variable whose address is taken lives in memory.
                Some(Symbol::Object { ty: CType::Ptr(_), .. }) => self.pointer_in_memory(e),
                Some(Symbol::Opaque { ty: CType::Array(elem, _) }) => {
                    let elem = (**elem).clone();
                    Ok(self.opaque_address(elem, e.span))
                }
                Some(Symbol::Unmodelled { what }) => {
                    Err(self.unsupported(e.span, format!("variable `{}` of type {what}", id.node.name)))
                }
                Some(Symbol::Var { .. }) => {
                    // An integer where a pointer is expected (gcc converts it,
                    // with a warning): like a cast, any pointer.
                    let at = self.span(e.span);
                    self.note_approximation(at, crate::ir::Approximation::IntegerToPointer);
                    Ok(self.unknown_pointer(hint.unwrap_or(CType::Void)))
                }
                _ => Err(self.unsupported(e.span, format!("`{}` used as a pointer", id.node.name))),
            },
            Expression::VaArg(v) => {
                let at = self.span(v.span);
                self.note_approximation(at, crate::ir::Approximation::VaArg);
                let pointee = pointee_of(&self.type_name(&v.node.type_name)?).unwrap_or(CType::Void);
                Ok(self.unknown_pointer(pointee))
            }
            Expression::Cast(c) => {
                let ty = self.type_name(&c.node.type_name)?;
                let Some(pointee) = pointee_of(&ty) else {
                    return Err(self.unsupported(c.span, "a cast from a pointer to an integer"));
                };
                if !self.is_pointer(&c.node.expression)? {
                    // An integer as an address: addresses are not modelled,
                    // so any pointer (recorded).
                    self.effect(&c.node.expression)?;
                    let at = self.span(c.span);
                    self.note_approximation(at, crate::ir::Approximation::IntegerToPointer);
                    return Ok(self.unknown_pointer(pointee));
                }
                let mut v = self.pointer(&c.node.expression, Some(pointee.clone()))?;
                v.pointee = pointee;
                Ok(v)
            }
            Expression::StringLiteral(s) => {
                let (elem, count) = crate::c::types::string_literal(&s.node).map_err(|m| self.syntax(s.span, m))?;
                let bytes = (count as i64 + 1) * i64::from(size_of(elem));
                // Contents are not modelled: loads give any character.
                let size = Term::int(bytes);
                let base = self.new_block(None, &size, false, None, false)?;
                // Identical literals may or may not be one object (C11
                // 6.4.5p7; gcc merges them): either way.
                let key = s.node.concat();
                let base = match self.string_literal_blocks.get(&key).cloned() {
                    Some(first) => {
                        let b = self.memory_var("str.base", Origin::StringLiteral);
                        self.emit(Action::Choose(b.clone()));
                        self.emit_assume(Term::or(vec![Term::eq(Term::var(b.clone()), first), Term::eq(Term::var(b.clone()), base)]));
                        Term::var(b)
                    }
                    None => {
                        self.string_literal_blocks.insert(key, base.clone());
                        base
                    }
                };
                Ok(PtrVal { base, off: Term::int(0), size, pointee: CType::Int(elem) })
            }
            Expression::Call(c) => self.pointer_call(c, hint),
            Expression::Comma(es) => {
                let Some((last, rest)) = es.split_last() else {
                    return Err(self.syntax(e.span, "empty comma expression"));
                };
                for x in rest {
                    self.effect(x)?;
                }
                self.pointer(last, hint)
            }
            Expression::UnaryOperator(u) => {
                let op = u.node.operator.node.clone();
                match op {
                    UnaryOperator::Address => self.address_of(&u.node.operand),
                    UnaryOperator::PreIncrement | UnaryOperator::PreDecrement | UnaryOperator::PostIncrement | UnaryOperator::PostDecrement => {
                        let var = self.pointer_variable(&u.node.operand)?;
                        let old = var.value();
                        let post = matches!(op, UnaryOperator::PostIncrement | UnaryOperator::PostDecrement);
                        let old = if post { self.snapshot_pointer(old) } else { old };
                        let step = self.pointee_size(&var.pointee, u.span)?;
                        let step = if matches!(op, UnaryOperator::PreIncrement | UnaryOperator::PostIncrement) { step } else { -step };
                        let new_off = Term::add(vec![Term::var(var.off.clone()), Term::int(step)]);
                        self.emit(Action::Assign(var.off.clone(), new_off));
                        Ok(if post { old } else { var.value() })
                    }
                    UnaryOperator::Indirection => self.pointer_in_memory(e),
                    _ => Err(self.syntax(u.span, "this operator on a pointer")),
                }
            }
            Expression::BinaryOperator(b) => {
                let (l, r) = (&b.node.lhs, &b.node.rhs);
                match b.node.operator.node {
                    BinaryOperator::Assign if !matches!(&l.node, Expression::Identifier(id) if matches!(self.lookup(&id.node.name), Some(Symbol::Ptr(_)))) => {
                        let dst = self.address_of_object(l)?;
                        let dst = if self.has_effects(r) { self.snapshot_pointer(dst) } else { dst };
                        let pointee = match &dst.pointee {
                            CType::Ptr(p) => (**p).clone(),
                            _ => CType::Void,
                        };
                        let v = self.pointer(r, Some(pointee))?;
                        let v = self.snapshot_pointer(v);
                        let at = self.span(b.span);
                        self.store_pointer(&dst, v.clone(), &at);
                        Ok(v)
                    }
                    BinaryOperator::Assign => {
                        let var = self.pointer_variable(l)?;
                        let Some(_) = var.whole else {
                            return Err(self.unsupported(b.span, "assignment to a pointer with a fixed base"));
                        };
                        let v = self.pointer(r, Some(var.pointee.clone()))?;
                        self.assign_pointer_parts(&var, v);
                        Ok(var.value())
                    }
                    BinaryOperator::AssignPlus | BinaryOperator::AssignMinus => {
                        let var = self.pointer_variable(l)?;
                        let i = self.expr(r)?;
                        let minus = b.node.operator.node == BinaryOperator::AssignMinus;
                        let moved = self.offset_by(var.value(), i, minus, b.span)?;
                        self.emit(Action::Assign(var.off.clone(), moved.off));
                        Ok(var.value())
                    }
                    BinaryOperator::Plus | BinaryOperator::Minus => {
                        let minus = b.node.operator.node == BinaryOperator::Minus;
                        if self.is_pointer(l)? {
                            let p = self.pointer(l, hint)?;
                            let p = if self.has_effects(r) { self.snapshot_pointer(p) } else { p };
                            let i = self.expr(r)?;
                            self.offset_by(p, i, minus, b.span)
                        } else if !minus {
                            let i = self.expr(l)?;
                            let i = self.protect(i, std::slice::from_ref(r));
                            let p = self.pointer(r, hint)?;
                            self.offset_by(p, i, false, b.span)
                        } else {
                            Err(self.syntax(b.span, "an integer minus a pointer"))
                        }
                    }
                    BinaryOperator::Index => self.pointer_in_memory(e),
                    _ => Err(self.unsupported(b.span, "this operator on pointers")),
                }
            }
            Expression::Member(_) => self.pointer_in_memory(e),
            Expression::Conditional(c) => {
                // Real control flow: each branch writes the parts of the result.
                let result = self.declare_pointer("cond", Owner::Conditional, hint.clone().unwrap_or(CType::Void), None, false, false);
                let (ts, fs) = self.branch(&c.node.condition)?;
                let mut ends = Vec::new();
                for (cursors, x) in [(ts, &c.node.then_expression), (fs, &c.node.else_expression)] {
                    self.cur = self.join(cursors, c.span, "?:");
                    let v = self.pointer(x, hint.clone())?;
                    self.assign_pointer_parts(&result, v);
                    ends.extend(self.cur.take());
                }
                self.cur = self.join(ends, c.span, "after ?:");
                let mut v = result.value();
                v.pointee = match self.type_of(e)? {
                    CType::Ptr(p) => *p,
                    _ => v.pointee,
                };
                Ok(v)
            }
            // `(int[]){1, 2, 3}` decays to a pointer to its first element.
            Expression::CompoundLiteral(c) => {
                let p = self.compound_literal(c)?;
                Ok(match p.pointee.clone() {
                    CType::Array(elem, _) => PtrVal { pointee: *elem, ..p },
                    _ => p,
                })
            }
            Expression::Statement(s) => match self.statement_expression(s, true, |l, x| l.pointer(x, hint))? {
                Some(p) => Ok(p),
                None => Err(self.syntax(e.span, "a statement expression without a value used as a pointer")),
            },
            _ => Err(self.unsupported(e.span, "this pointer expression")),
        }
    }

    /// `&x`, `&*p`, `&p[i]`, `&s.f`, `&p->f`, `&a` (an array or struct).
    fn address_of(&mut self, operand: &'a Node<Expression>) -> Result<PtrVal> {
        match &operand.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => self.pointer(&u.node.operand, None),
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => self.address_of_object(operand),
            Expression::Member(_) | Expression::CompoundLiteral(_) => self.address_of_object(operand),
            Expression::Identifier(id) if matches!(self.lookup(&id.node.name), Some(Symbol::Object { .. })) => self.address_of_object(operand),
            Expression::Identifier(id) if self.lookup(&id.node.name).is_none() && self.functions.contains_key(&id.node.name) => {
                Ok(self.function_address(&id.node.name))
            }
            Expression::Identifier(id) => match self.lookup(&id.node.name).cloned() {
                Some(Symbol::Opaque { ty }) => Ok(self.opaque_address(ty, operand.span)),
                _ => Err(self.unsupported(
                    operand.span,
                    format!("a pointer to the scalar variable `{}` (address-taken variables are not modelled)", id.node.name),
                )),
            },
            _ => Err(self.unsupported(operand.span, "taking this address")),
        }
    }

    /// `&x` for a variable whose contents are not modelled (an `extern`
    /// object of incomplete type, a float): reads through it give any value
    /// and writes reach nothing tracked, so any pointer that is not null is
    /// a sound value for it.
    fn opaque_address(&mut self, ty: CType, s: lang_c::span::Span) -> PtrVal {
        let p = self.unknown_pointer(ty);
        self.emit_assume(Term::not(Term::eq(p.base.clone(), Term::int(0))));
        let at = self.span(s);
        self.note_approximation(at, crate::ir::Approximation::AddressOfUnmodelled);
        p
    }

    /// `sizeof` of what a pointer points to (1 for `void *`, as gcc does).
    fn pointee_size(&self, pointee: &CType, s: lang_c::span::Span) -> Result<i64> {
        match pointee {
            CType::Void | CType::Function => Ok(1),
            CType::Unsupported(w) => Err(self.unsupported(s, format!("pointer arithmetic on a pointer to {w}"))),
            t => match self.byte_size(t) {
                Some(n) => Ok(n as i64),
                None => Err(self.unsupported(s, "pointer arithmetic on a pointer to an incomplete type")),
            },
        }
    }

    /// `p + i` (or `p - i`): the offset moves by `i * sizeof(*p)` bytes.
    fn offset_by(&mut self, p: PtrVal, i: Val, minus: bool, s: lang_c::span::Span) -> Result<PtrVal> {
        let step = self.pointee_size(&p.pointee, s)?;
        let i = self.arith.convert(i, IntType::LONG);
        let delta = Term::scale(&BigInt::from(if minus { -step } else { step }), i.term);
        Ok(PtrVal { off: Term::add(vec![p.off, delta]), ..p })
    }

    /// The pointer and index of `a[i]` (either way round, as C allows).
    fn index_parts(&mut self, b: &'a Node<BinaryOperatorExpression>) -> Result<(PtrVal, Val)> {
        let (l, r) = (&b.node.lhs, &b.node.rhs);
        if self.is_pointer(l)? {
            let p = self.pointer(l, None)?;
            let p = if self.has_effects(r) { self.snapshot_pointer(p) } else { p };
            let i = self.expr(r)?;
            Ok((p, i))
        } else if self.is_pointer(r)? {
            let i = self.expr(l)?;
            let i = self.protect(i, std::slice::from_ref(r));
            let p = self.pointer(r, None)?;
            Ok((p, i))
        } else {
            Err(self.unsupported(b.span, "indexing something that is not a pointer or an array"))
        }
    }

    fn pointer_call(&mut self, c: &'a Node<CallExpression>, hint: Option<CType>) -> Result<PtrVal> {
        let direct = match &c.node.callee.node {
            Expression::Identifier(id) if self.lookup(&id.node.name).is_none() => Some(id.node.name.as_str()),
            _ => None,
        };
        let Some(name) = direct else {
            // Through a function pointer: only code outside the program may
            // give the pointer (no function of the program could).
            if !self.indirect_targets(c, true)?.is_empty() {
                return Err(self.unsupported(c.span, "the pointer result of a call through a function pointer"));
            }
            self.pointer(&c.node.callee, Some(CType::Function))?;
            let name = format!("(*{})", self.source_text(c.node.callee.span).trim_start_matches('*'));
            return self.external_pointer_call(&name, c, hint.unwrap_or(CType::Void));
        };
        let defined = self.functions.get(name).is_some_and(|f| f.def.is_some());
        if !defined && name == "__builtin_choose_expr" {
            let e = self.chosen_operand(c)?;
            return self.pointer(e, hint);
        }
        if defined {
            self.inline_call(c)?;
            return self.last_pointer_return.take().ok_or_else(|| self.unsupported(c.span, format!("the result of `{name}` as a pointer")));
        }
        if matches!(name, "memset" | "__builtin_memset") {
            let mut p = self.memset_call(c)?;
            p.pointee = hint.unwrap_or(CType::Void);
            return Ok(p);
        }
        if !ALLOCATORS.contains(&name) {
            let pointee = match self.functions.get(name).map(|f| &f.ret) {
                Some(CType::Ptr(p)) => (**p).clone(),
                _ => hint.unwrap_or(CType::Void),
            };
            if let Some(p) = self.input_pointer_call(name, c, pointee.clone())? {
                return Ok(p);
            }
            return self.external_pointer_call(name, c, pointee);
        }
        let args = &c.node.arguments;
        let size = match (name, args.as_slice()) {
            ("calloc", [n, m]) => {
                let n = self.expr(n)?;
                let n = self.protect(n, std::slice::from_ref(m));
                let m = self.expr(m)?;
                let n = self.arith.convert(n, IntType::ULONG);
                let m = self.arith.convert(m, IntType::ULONG);
                let out = self.arith.binary(ArithOp::Mul, n, m).map_err(|msg| self.unsupported(c.span, msg))?;
                self.defined(out, c.span)
            }
            ("calloc", _) => return Err(self.syntax(c.span, "`calloc` takes two arguments")),
            (_, [n]) => {
                let n = self.expr(n)?;
                self.arith.convert(n, IntType::ULONG)
            }
            _ => return Err(self.syntax(c.span, format!("`{name}` takes one argument"))),
        };
        let size = self.pin("alloc.size", Origin::Allocation(AllocationPart::Size), size.term);
        let zeroed = name == "calloc";
        let base = self.new_block(hint.clone(), &size, zeroed, None, false)?;
        let base = if matches!(name, "malloc" | "calloc") {
            // Allocation may fail: NULL or the new block.
            let b = self.memory_var(crate::ir::ALLOCATION_RESULT, Origin::Allocation(AllocationPart::Result));
            self.emit(Action::Havoc(b.clone()));
            self.emit_assume(Term::or(vec![Term::eq(Term::var(b.clone()), Term::int(0)), Term::eq(Term::var(b.clone()), base)]));
            Term::var(b)
        } else {
            base
        };
        Ok(PtrVal { base, off: Term::int(0), size, pointee: CType::Void })
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
            Expression::Identifier(id) if self.lookup(&id.node.name).is_none() && self.functions.contains_key(&id.node.name) => {
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
    fn pointer_in_memory(&mut self, e: &'a Node<Expression>) -> Result<PtrVal> {
        let addr = self.address_of_object(e)?;
        match addr.pointee.clone() {
            CType::Array(elem, _) => Ok(PtrVal { pointee: *elem, ..addr }),
            CType::Function => Ok(PtrVal { pointee: CType::Function, ..addr }),
            CType::Ptr(pointee) => {
                let width = i64::from(self.arith.model.pointer_bytes());
                self.assume_in_bounds(&addr, width, e.span);
                let at = self.span(e.span);
                self.note_approximation(at, crate::ir::Approximation::PointerInMemory);
                Ok(self.unknown_pointer(*pointee))
            }
            _ => Err(self.unsupported(e.span, "this expression as a pointer")),
        }
    }

    /// Store a pointer into memory: pointer values in memory are not
    /// tracked (loads give any pointer), but integer cells it overwrites
    /// change.
    pub(super) fn store_pointer(&mut self, dst: &PtrVal, v: PtrVal, at: &Option<Span>) {
        self.expose(&v.base);
        let width = i64::from(self.arith.model.pointer_bytes());
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
        let base = match self.function_blocks.get(name) {
            Some(b) => b.clone(),
            None => {
                let id = self.blocks.len() as i64 + 1;
                self.blocks.push(Block { id, cells: None, object: Some(CType::Function) });
                self.function_blocks.insert(name.to_string(), Term::int(id));
                Term::int(id)
            }
        };
        PtrVal { base, off: Term::int(0), size: Term::int(1), pointee: CType::Function }
    }

    // ---- comparisons and differences

    /// `p op q` for pointers (or a pointer and a null pointer constant).
    pub fn pointer_compare(&mut self, op: CmpOp, l: &'a Node<Expression>, r: &'a Node<Expression>, s: lang_c::span::Span) -> Result<Term> {
        let p = self.pointer(l, None)?;
        let p = if self.has_effects(r) { self.snapshot_pointer(p) } else { p };
        let q = self.pointer(r, None)?;
        let same = Term::eq(p.base.clone(), q.base.clone());
        Ok(match op {
            CmpOp::Eq => Term::and(vec![same, Term::eq(p.off, q.off)]),
            CmpOp::Ne => Term::not(Term::and(vec![same, Term::eq(p.off, q.off)])),
            _ => {
                // Relational comparison is defined only within one object.
                if same != Term::tt() {
                    let at = self.span(s);
                    self.note_approximation(at, crate::ir::Approximation::MemorySafety);
                    self.emit_assume(same);
                }
                match op {
                    CmpOp::Lt => Term::lt(p.off, q.off),
                    CmpOp::Le => Term::le(p.off, q.off),
                    CmpOp::Gt => Term::gt(p.off, q.off),
                    _ => Term::ge(p.off, q.off),
                }
            }
        })
    }

    /// `p - q`: the distance in elements (a `long`).
    pub fn pointer_difference(&mut self, l: &'a Node<Expression>, r: &'a Node<Expression>, s: lang_c::span::Span) -> Result<Val> {
        let p = self.pointer(l, None)?;
        let p = if self.has_effects(r) { self.snapshot_pointer(p) } else { p };
        let q = self.pointer(r, None)?;
        let same = Term::eq(p.base.clone(), q.base.clone());
        if same != Term::tt() {
            let at = self.span(s);
            self.note_approximation(at, crate::ir::Approximation::MemorySafety);
            self.emit_assume(same);
        }
        let w = self.pointee_size(&p.pointee, s)?;
        let bytes = Term::sub(p.off, q.off);
        let term = if w == 1 {
            bytes
        } else {
            // Within one array of such elements the distance is a multiple.
            self.emit_assume(Term::eq(Term::modulo(bytes.clone(), Term::int(w)), Term::int(0)));
            Term::div(bytes, Term::int(w))
        };
        let t = self.arith.model.long();
        Ok(Val { term, ty: t, range: self.arith.type_range(t) })
    }

    /// `p` as a condition: not NULL.
    pub fn pointer_truth(&mut self, e: &'a Node<Expression>) -> Result<Term> {
        let p = self.pointer(e, None)?;
        Ok(Term::not(Term::eq(p.base, Term::int(0))))
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
        let part = |part| Origin::PointerPart { of, part };
        let b = self.cfg.declare_as(&format!("{name}.base"), crate::c::cfg::GLOBAL, IntType::LONG, part(PointerPart::Base));
        let off = self.cfg.declare_as(&format!("{name}.off"), crate::c::cfg::GLOBAL, IntType::LONG, part(PointerPart::Offset));
        let s = self.cfg.declare_as(&format!("{name}.size"), crate::c::cfg::GLOBAL, IntType::LONG, part(PointerPart::Size));
        let value = if is_extern { None } else { Some(BigInt::zero()) };
        if initial {
            for v in [&b, &off, &s] {
                self.global_inits.push((v.clone(), IntType::LONG, value.clone()));
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
