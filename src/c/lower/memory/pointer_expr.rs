//! Pointer expressions: the value ([`PtrVal`]) of every C expression of
//! pointer type (names, casts, string literals, `&`, pointer arithmetic,
//! assignments, calls returning pointers, `?:`), and the comparisons and
//! differences of pointers; `++`/`--` and `+=`/`-=` of a pointer variable
//! are lowered with those of integers (`update.rs`) and move it here
//! ([`Lowerer::move_pointer`]). The memory model they build on is
//! described in [`super`].

use crate::c::lower::typed::*;
use super::*;
use crate::c::lower::{Lowerer, Symbol};
use crate::c::arith::{ArithOp, CmpOp, Val};
use crate::c::types::{size_of, CType};
use crate::error::Result;
use crate::ir::origin::{AllocationPart, Owner};
use crate::ir::{Action, IntType, Origin};
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;

impl<'a> Lowerer<'a> {
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
            Expression::Identifier(id) if self.lookup(&id.node.name).is_none() && self.types.signatures().is_function(&id.node.name) => {
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
                    // with a warning): like a cast, the address it holds or
                    // any pointer.
                    if let Some(p) = self.pointer_from_held_address(e, hint.clone().unwrap_or(CType::Void))? {
                        return Ok(p);
                    }
                    let at = self.span(e.span);
                    self.note_approximation(at, crate::ir::Approximation::IntegerToPointer);
                    Ok(self.unknown_pointer(hint.unwrap_or(CType::Void)))
                }
                _ => Err(self.unsupported(e.span, format!("`{}` used as a pointer", id.node.name))),
            },
            Expression::VaArg(v) => {
                let at = self.span(v.span);
                self.note_approximation(at, crate::ir::Approximation::VaArg);
                let pointee = pointee_of(&self.object_type(e)?).unwrap_or(CType::Void);
                Ok(self.unknown_pointer(pointee))
            }
            Expression::Cast(c) => {
                let ty = self.object_type(e)?;
                let Some(pointee) = pointee_of(&ty) else {
                    return Err(self.unsupported(c.span, "a cast from a pointer to an integer"));
                };
                if !self.is_pointer(&c.node.expression)? {
                    // An integer as an address: the address it holds (see
                    // `addresses.rs`), else any pointer (recorded).
                    if let Some(p) = self.pointer_from_held_address(&c.node.expression, pointee.clone())? {
                        return Ok(p);
                    }
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
                let (elem, count) = crate::c::types::string_literal(&s.node, self.arith.machine()).map_err(|m| self.syntax(s.span, m))?;
                let bytes = (count as i64 + 1) * i64::from(size_of(elem));
                // Contents are not modelled: loads give any character.
                let size = Term::int(bytes);
                let own = self.new_block(None, &size, false, None, false, super::Contents::Fixed)?;
                // Literals that are identical, or this one the tail of
                // another, may or may not share storage (C11 6.4.5p7; gcc
                // merges them, and tails at -O2): either way (see
                // `c::meaning::literals_may_share`). Each place this one
                // may be is (block, offset, size).
                let key = s.node.concat();
                let mut places = vec![(own.clone(), Term::int(0), size.clone())];
                match self.mem.string_literal_blocks.get(&key).cloned() {
                    Some(first) => places.push((first, Term::int(0), size.clone())),
                    None => {
                        self.mem.string_literal_blocks.insert(key.clone(), own);
                    }
                }
                let machine = *self.arith.machine();
                let units = |pieces: &[String]| crate::c::types::string_literal(pieces, &machine).ok().zip(crate::c::types::string_literal_values(pieces, &machine).ok());
                if let Some(((_, _), mine)) = units(&s.node) {
                    let mine: Vec<u32> = mine.into_iter().chain([0]).collect();
                    for other in self.mem.unit_literals.clone() {
                        let Some(((other_elem, other_count), theirs)) = units(&other) else { continue };
                        let theirs: Vec<u32> = theirs.into_iter().chain([0]).collect();
                        if other_elem != elem || theirs.len() <= mine.len() || !crate::c::meaning::literals_may_share(&theirs, &mine) {
                            continue;
                        }
                        let other_key = other.concat();
                        let other_size = Term::int((other_count as i64 + 1) * i64::from(size_of(elem)));
                        let block = match self.mem.string_literal_blocks.get(&other_key).cloned() {
                            Some(b) => b,
                            None => {
                                let b = self.new_block(None, &other_size, false, None, false, super::Contents::Fixed)?;
                                self.mem.string_literal_blocks.insert(other_key, b.clone());
                                b
                            }
                        };
                        let at = Term::int(((theirs.len() - mine.len()) as i64) * i64::from(size_of(elem)));
                        places.push((block, at, other_size));
                    }
                }
                if places.len() == 1 {
                    return Ok(PtrVal { base: places[0].0.clone(), off: Term::int(0), size, pointee: CType::Int(elem) });
                }
                let b = self.memory_var("str.base", Origin::StringLiteral);
                self.emit(Action::Choose(b.clone()));
                let chosen = |k: usize| Term::eq(Term::var(b.clone()), Term::int(k as i64));
                self.emit_assume(Term::and(vec![Term::le(Term::int(0), Term::var(b.clone())), Term::lt(Term::var(b.clone()), Term::int(places.len() as i64))]));
                let pick = |part: fn(&(Term, Term, Term)) -> Term| {
                    places.iter().enumerate().rev().skip(1).fold(part(&places[places.len() - 1]), |rest, (k, p)| Term::ite(chosen(k), part(p), rest))
                };
                let (base, off, size) = (pick(|p| p.0.clone()), pick(|p| p.1.clone()), pick(|p| p.2.clone()));
                Ok(PtrVal { base, off, size, pointee: CType::Int(elem) })
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
                        self.update_as_pointer(e)
                    }
                    UnaryOperator::Indirection => self.pointer_in_memory(e),
                    _ => Err(self.syntax(u.span, "this operator on a pointer")),
                }
            }
            Expression::BinaryOperator(b) => {
                let (l, r) = (&b.node.lhs, &b.node.rhs);
                match b.node.operator.node {
                    BinaryOperator::Assign if !matches!(&l.node, Expression::Identifier(id) if matches!(self.lookup(&id.node.name), Some(Symbol::Ptr(_)))) => {
                        if let Some(mut access) = self.link_access(l)? {
                            if self.has_effects(r) {
                                access.object = self.snapshot_pointer(access.object);
                            }
                            let pointee = CType::Record(access.field.record);
                            let v = self.pointer(r, Some(pointee))?;
                            let v = self.snapshot_pointer(v);
                            let at = self.span(b.span);
                            self.store_through_link(&access, v.clone(), &at);
                            return Ok(v);
                        }
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
                    BinaryOperator::AssignPlus | BinaryOperator::AssignMinus => self.update_as_pointer(e),
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
                    self.join_here(cursors, c.span, "?:");
                    let v = self.pointer(x, hint.clone())?;
                    self.assign_pointer_parts(&result, v);
                    ends.extend(self.flow.take());
                }
                self.join_here(ends, c.span, "after ?:");
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

    /// A call through a function pointer whose result is a pointer: in
    /// each target the pointer may hold, that function's result; outside
    /// the program (a pointer the model lost, or a library function's
    /// address), any pointer. Each branch writes its result into one
    /// pointer read after the call.
    fn indirect_pointer_call(&mut self, c: &'a Node<CallExpression>, pointee: CType) -> Result<PtrVal> {
        let targets = self.indirect_targets(c, true)?;
        let target = self.pointer(&c.node.callee, Some(CType::Function))?;
        if targets.is_empty() {
            // Only code outside the program can give the pointer.
            let name = format!("(*{})", self.source_text(c.node.callee.span).trim_start_matches('*'));
            return self.external_pointer_call(&name, c, pointee);
        }
        if targets.len() > crate::c::lower::calls::MAX_INDIRECT_TARGETS {
            return Err(self.unsupported(c.span, format!("a call through a function pointer with {} possible targets", targets.len())));
        }
        let target = self.snapshot_pointer(target);
        let result = self.declare_pointer("call%ret", Owner::Temporary, pointee.clone(), None, false, false);
        self.indirect_branches(c, &target, &targets, |l, f| {
            l.inline(f, c, true)?;
            let p = l.mem.last_pointer_return.take().ok_or_else(|| l.unsupported(c.span, format!("the result of `{f}` as a pointer")))?;
            l.assign_pointer_parts(&result, p);
            Ok(())
        }, |l, name| {
            let p = l.external_pointer_call(&name, c, pointee.clone())?;
            l.assign_pointer_parts(&result, p);
            Ok(())
        })?;
        Ok(result.value())
    }

    /// `&x`, `&*p`, `&p[i]`, `&s.f`, `&p->f`, `&a` (an array or struct).
    fn address_of(&mut self, operand: &'a Node<Expression>) -> Result<PtrVal> {
        match &operand.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => self.pointer(&u.node.operand, None),
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => self.address_of_object(operand),
            Expression::Member(_) | Expression::CompoundLiteral(_) => self.address_of_object(operand),
            Expression::Identifier(id) if matches!(self.lookup(&id.node.name), Some(Symbol::Object { .. })) => self.address_of_object(operand),
            Expression::Identifier(id) if self.lookup(&id.node.name).is_none() && self.types.signatures().is_function(&id.node.name) => {
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
    pub(super) fn opaque_address(&mut self, ty: CType, s: lang_c::span::Span) -> PtrVal {
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
            t => match self.types.byte_size(t) {
                Some(n) => Ok(n as i64),
                None => Err(self.unsupported(s, "pointer arithmetic on a pointer to an incomplete type")),
            },
        }
    }

    /// `p += i` / `p -= i` (and `++`/`--`) on a pointer variable: its
    /// offset moves by `i` elements.
    pub(in crate::c) fn move_pointer(&mut self, var: &PtrVar, i: Val, minus: bool, s: lang_c::span::Span) -> Result<()> {
        let moved = self.offset_by(var.value(), i, minus, s)?;
        self.emit(Action::Assign(var.off.clone(), moved.off));
        Ok(())
    }

    /// `p + i` (or `p - i`): the offset moves by `i * sizeof(*p)` bytes.
    pub(super) fn offset_by(&mut self, p: PtrVal, i: Val, minus: bool, s: lang_c::span::Span) -> Result<PtrVal> {
        let step = self.pointee_size(&p.pointee, s)?;
        let i = self.arith.convert(i, IntType::LONG);
        let delta = Term::scale(&BigInt::from(if minus { -step } else { step }), i.term);
        Ok(PtrVal { off: Term::add(vec![p.off, delta]), ..p })
    }

    /// The pointer and index of `a[i]` (either way round, as C allows).
    pub(super) fn index_parts(&mut self, b: &'a Node<BinaryOperatorExpression>) -> Result<(PtrVal, Val)> {
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
            return self.indirect_pointer_call(c, hint.unwrap_or(CType::Void));
        };
        let defined = self.types.signatures().is_defined(name);
        if !defined && name == "__builtin_choose_expr" {
            let e = self.chosen_operand(c)?;
            return self.pointer(e, hint);
        }
        if defined {
            self.inline_call(c)?;
            return self.mem.last_pointer_return.take().ok_or_else(|| self.unsupported(c.span, format!("the result of `{name}` as a pointer")));
        }
        if matches!(name, "memset" | "__builtin_memset") {
            let mut p = self.memset_call(c)?;
            p.pointee = hint.unwrap_or(CType::Void);
            return Ok(p);
        }
        if !ALLOCATORS.contains(&name) {
            let pointee = match self.types.signatures().function(name).map(|f| &f.ret) {
                Some(CType::Ptr(p)) => (**p).clone(),
                _ => hint.unwrap_or(CType::Void),
            };
            if let Some(p) = self.input_pointer_call(name, c, pointee.clone())? {
                return Ok(p);
            }
            return self.external_pointer_call(name, c, pointee);
        }
        let args = &c.node.arguments;
        let size = match (name, &args[..]) {
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
        let base = self.new_block(hint.clone(), &size, zeroed, None, false, super::Contents::Allocated)?;
        // The new block's address goes into program state at once (the
        // allocation's result variable, below, or the pointer it is
        // assigned to): a sink. A pointer variable holding it has a base
        // that is no constant, so loads through it find the block's cells
        // only among the exposed blocks.
        self.expose(&base);
        let base = if matches!(name, "malloc" | "calloc") && self.allocation == crate::c::meaning::Allocation::MayFail {
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

    // ---- comparisons and differences

    /// `p op q` for pointers (or a pointer and a null pointer constant).
    pub fn pointer_compare(&mut self, op: CmpOp, l: &'a Node<Expression>, r: &'a Node<Expression>, s: lang_c::span::Span) -> Result<Term> {
        let p = self.pointer(l, None)?;
        let p = if self.has_effects(r) { self.snapshot_pointer(p) } else { p };
        let q = self.pointer(r, None)?;
        let same = Term::eq(p.base.clone(), q.base.clone());
        Ok(match op {
            CmpOp::Eq => self.same_address(&p, &q),
            CmpOp::Ne => Term::not(self.same_address(&p, &q)),
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

    /// `p == q`: one object and one offset, or, for two objects, what
    /// `c::meaning::distinct_objects` leaves open: one past the end of one
    /// against the start of the other, or any two once a lifetime may have
    /// ended (the storage of one may be the other's now), are equal exactly
    /// when the compiler placed them so: a choice (`choose`, on which no
    /// NO rests) made here.
    fn same_address(&mut self, p: &PtrVal, q: &PtrVal) -> Term {
        let same = Term::eq(p.base.clone(), q.base.clone());
        let exact = Term::and(vec![same.clone(), Term::eq(p.off.clone(), q.off.clone())]);
        let null = Term::int(0);
        if p.base == q.base || p.base == null || q.base == null {
            return exact;
        }
        let end_against_start = |a: &PtrVal, b: &PtrVal| Term::and(vec![Term::eq(a.off.clone(), a.size.clone()), Term::eq(b.off.clone(), Term::int(0))]);
        let adjacent = Term::or(vec![end_against_start(p, q), end_against_start(q, p), self.lifetime_ended()]);
        if adjacent == Term::ff() {
            return exact;
        }
        let placed = self.memory_var("adjacent%placed", Origin::Adjacency);
        self.emit(Action::Choose(placed.clone()));
        let placed = Term::var(placed);
        self.emit_assume(Term::and(vec![Term::le(Term::int(0), placed.clone()), Term::le(placed.clone(), Term::int(1))]));
        let not_null = Term::and(vec![Term::not(Term::eq(p.base.clone(), null.clone())), Term::not(Term::eq(q.base.clone(), null))]);
        Term::or(vec![exact, Term::and(vec![Term::not(same), not_null, adjacent, Term::eq(placed, Term::int(1))])])
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
        let t = self.arith.machine().ptrdiff_t();
        Ok(Val { term, ty: t, range: self.arith.type_range(t) })
    }

    /// `p` as a condition: not NULL.
    pub fn pointer_truth(&mut self, e: &'a Node<Expression>) -> Result<Term> {
        let p = self.pointer(e, None)?;
        Ok(Term::not(Term::eq(p.base, Term::int(0))))
    }
}
