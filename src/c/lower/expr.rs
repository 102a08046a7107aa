//! Expressions: values, side effects, conditions and (inlined) calls.
//!
//! A [`Val`]'s term describes the value in the state at the cursor right
//! after the actions emitted while computing it. Where a later operand has
//! side effects, an earlier operand's value is first copied into a
//! temporary, so that the term still means what it meant.
//!
//! The operators are lowered in [`super::operators`], the reads and writes
//! of objects in [`super::lvalue`].

use crate::c::lower::typed::*;
use super::{Lowerer, Symbol};
use crate::c::arith::Val;
use crate::c::types::{char_literal, integer_literal, size_of, string_literal, CType};
use crate::error::Result;
use crate::ir::{Action, IntType};
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use std::collections::HashSet;
use super::calls::library::keeps_memory;

/// An evaluated call argument.
pub(super) enum Argument {
    Value(Val),
    Pointer(super::memory::PtrVal),
    /// A nondeterministic value in this range (`None`: any integer).
    Nondet(Option<(BigInt, BigInt)>),
    /// A struct passed by value: the address of the argument, if it has one.
    Object(Option<super::memory::PtrVal>),
}

impl<'a> Lowerer<'a> {
    /// The value of an expression (an error if it has none).
    pub fn expr(&mut self, e: &'a Node<Expression>) -> Result<Val> {
        match self.eval(e, true)? {
            Some(v) => Ok(v),
            None => Err(self.syntax(e.span, "a void expression used as a value")),
        }
    }

    /// Evaluate an expression for its side effects only.
    pub fn effect(&mut self, e: &'a Node<Expression>) -> Result<()> {
        // A whole-struct assignment (`s = t;`, `*p = (struct S) t;`) copies
        // cells; it has no integer value.
        if let Expression::BinaryOperator(b) = &e.node {
            if b.node.operator.node == BinaryOperator::Assign && matches!(self.object_type(&b.node.lhs), Ok(CType::Record(_))) {
                return self.assign_record(&b.node.lhs, &b.node.rhs);
            }
        }
        self.eval(e, false).map(|_| ())
    }

    /// A value that must survive the evaluation of `later` expressions:
    /// copied into a temporary if they may assign a variable it reads.
    pub(crate) fn protect(&mut self, v: Val, later: &[Node<Expression>]) -> Val {
        let reads = v.term.free_vars();
        if reads.is_empty() || !later.iter().any(|x| self.has_effects(x)) {
            return v;
        }
        let mut clobbered: HashSet<String> = HashSet::new();
        let mut calls_functions = false;
        for x in later {
            let facts = self.expression_facts(x);
            if facts.writes_memory {
                // A store may reach any memory cell `v` reads.
                return self.snapshot(v);
            }
            for name in &facts.assigned {
                match self.lookup(name) {
                    Some(Symbol::Var { name, .. }) => {
                        clobbered.insert(name.clone());
                    }
                    _ => return self.snapshot(v),
                }
            }
            if facts.callees.iter().any(|c| !self.types.signatures().is_defined(c) && !keeps_memory(c)) {
                // A function without a definition may store through its arguments.
                return self.snapshot(v);
            }
            calls_functions |= facts.callees.iter().any(|c| self.types.signatures().is_defined(c));
        }
        if calls_functions && self.mem.has_cell_blocks() {
            // A called function may store into any block a pointer reaches.
            return self.snapshot(v);
        }
        if calls_functions {
            // A called function can assign any global (never the caller's locals).
            for sym in self.globals.all_symbols() {
                if let Symbol::Var { name, .. } = sym {
                    clobbered.insert(name.clone());
                }
            }
        }
        if reads.iter().any(|d| clobbered.contains(&d.name)) {
            self.snapshot(v)
        } else {
            v
        }
    }

    /// Copy a value into a temporary if it depends on variables.
    pub(crate) fn snapshot(&mut self, v: Val) -> Val {
        if v.term.free_vars().is_empty() {
            return v;
        }
        let t = self.cfg.temp("tmp", v.ty);
        let (ty, range) = (v.ty, v.range.clone());
        self.assign_var(&t, v);
        Val { term: Term::var(t), ty, range }
    }

    pub(super) fn eval(&mut self, e: &'a Node<Expression>, want: bool) -> Result<Option<Val>> {
        self.enter(e.span)?;
        let r = self.eval_inner(e, want);
        self.leave();
        r
    }

    fn eval_inner(&mut self, e: &'a Node<Expression>, want: bool) -> Result<Option<Val>> {
        if self.is_pointer(e)? {
            if want {
                return Err(self.unsupported(e.span, "a pointer used as an integer value"));
            }
            self.pointer(e, None)?;
            return Ok(None);
        }
        match &e.node {
            Expression::Identifier(_) => self.read_identifier(e).map(Some),
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => {
                    let (v, t) = integer_literal(i, self.arith.machine()).map_err(|m| self.unsupported(c.span, m))?;
                    Ok(Some(self.arith.constant(v, t)))
                }
                Constant::Character(s) => {
                    let (v, t) = char_literal(s, self.arith.machine()).map_err(|m| self.unsupported(c.span, m))?;
                    Ok(Some(self.arith.constant(v, t)))
                }
                Constant::Float(_) => Ok(Some(self.opaque_value(c.span))),
            },
            Expression::StringLiteral(s) => Err(self.unsupported(s.span, "string literals (pointers)")),
            Expression::Call(c) => self.call(c, want),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let lv = self.object_lvalue(e)?;
                Ok(Some(self.load(&lv)))
            }
            Expression::UnaryOperator(u) => self.unary(u, want),
            Expression::Cast(c) => {
                let ty = self.object_type(e)?;
                match ty {
                    CType::Void => {
                        self.effect_any(&c.node.expression)?;
                        Ok(None)
                    }
                    CType::Int(t) if self.is_pointer(&c.node.expression)? => {
                        // A pointer as an integer (which may become a pointer
                        // again): see `memory/addresses.rs`.
                        let p = self.pointer(&c.node.expression, None)?;
                        self.expose(&p.base);
                        Ok(Some(self.pointer_as_integer(&p, t, c.span)))
                    }
                    CType::Int(t) => {
                        let v = self.expr(&c.node.expression)?;
                        Ok(Some(self.arith.convert(v, t)))
                    }
                    CType::Float(_) => {
                        self.effect_any(&c.node.expression)?;
                        Ok(Some(self.opaque_value(c.span)))
                    }
                    CType::Ptr(_) => Err(self.unsupported(c.span, "a cast from an integer to a pointer")),
                    other => Err(self.unsupported(c.span, format!("a cast to a {}", super::memory::describe(&other)))),
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let lv = self.object_lvalue(e)?;
                Ok(Some(self.load(&lv)))
            }
            Expression::BinaryOperator(b) => self.binary(b, want),
            Expression::Conditional(c) => self.conditional(c, e.span, want),
            Expression::Comma(es) => {
                let n = es.len();
                for (i, x) in es.iter().enumerate() {
                    if i + 1 == n {
                        return self.eval(x, want);
                    }
                    self.effect(x)?;
                }
                Ok(None)
            }
            Expression::SizeOfTy(s) => {
                // The size of a variable-length array type is computed when
                // `sizeof` runs (C11 6.5.3.4p2): its effects would happen.
                if self.type_name_has_effects(&s.node.0.node) {
                    return Err(self.unsupported(s.span, "`sizeof` of a variable-length array type whose length has side effects"));
                }
                let ty = self.type_name(&s.node.0)?;
                self.size_value(ty, s.span).map(Some)
            }
            Expression::SizeOfVal(s) => {
                if let Expression::StringLiteral(lit) = &s.node.0.node {
                    // An array: its characters and the terminator.
                    let (elem, count) = string_literal(&lit.node, self.arith.machine()).map_err(|m| self.syntax(lit.span, m))?;
                    let bytes = BigInt::from(size_of(elem)) * BigInt::from(count + 1);
                    return Ok(Some(self.arith.constant(bytes, self.arith.machine().size_t())));
                }
                let ty = self.object_type(&s.node.0)?;
                // A variable-length array by name: the size its declaration
                // computed (C11 6.5.3.4p2).
                if let (CType::Array(_, None), Expression::Identifier(id)) = (&ty, &s.node.0.node) {
                    if let Some(Symbol::Object { ptr, .. }) = self.lookup(&id.node.name) {
                        if !matches!(ptr.size, crate::term::Term::Int(_)) {
                            let size_t = self.arith.machine().size_t();
                            return Ok(Some(Val { term: ptr.size.clone(), ty: size_t, range: None }));
                        }
                    }
                }
                if self.has_effects(&s.node.0) && self.types.byte_size(&ty).is_none() {
                    // An operand of variable-length array type is evaluated.
                    return Err(self.unsupported(s.span, "`sizeof` of a variable-length array operand with side effects"));
                }
                self.size_value(ty, s.span).map(Some)
            }
            Expression::AlignOf(a) => {
                if self.type_name_has_effects(&a.node.0.node) {
                    return Err(self.unsupported(a.span, "`_Alignof` of a variable-length array type whose length has side effects"));
                }
                let bytes = self.alignof(a)?;
                Ok(Some(self.arith.constant(BigInt::from(bytes), self.arith.machine().size_t())))
            }
            Expression::Statement(s) => Ok(self.statement_expression(s, want, |l, x| l.eval(x, true))?.flatten()),
            Expression::Member(_) => {
                let lv = self.object_lvalue(e)?;
                Ok(Some(self.load(&lv)))
            }
            // `(int){5}`: the value stored in the literal's block.
            Expression::CompoundLiteral(c) => match self.compound_literal(c)? {
                p if matches!(p.pointee, CType::Int(_)) => {
                    let (ptr, ty) = self.access(p, c.span)?;
                    let at = self.span(c.span);
                    Ok(Some(self.load_memory(&ptr, ty, &at)))
                }
                _ => Err(self.unsupported(c.span, "this compound literal used as a value")),
            },
            Expression::GenericSelection(g) => Err(self.unsupported(g.span, "_Generic")),
            Expression::OffsetOf(o) => {
                let bytes = self.offsetof(o)?;
                Ok(Some(self.arith.constant(BigInt::from(bytes), self.arith.machine().size_t())))
            }
            Expression::VaArg(v) => {
                // Variable arguments are not modelled: any value of the type.
                let ty = self.object_type(e)?;
                let at = self.span(v.span);
                self.note_approximation(at, crate::ir::Approximation::VaArg);
                match ty {
                    CType::Int(t) => {
                        let x = self.cfg.temp("va_arg", t);
                        self.havoc(&x, t);
                        Ok(Some(self.arith.var(&x, t)))
                    }
                    CType::Float(_) => Ok(Some(self.opaque_value(v.span))),
                    other => Err(self.unsupported(v.span, format!("`va_arg` of a {}", super::memory::describe(&other)))),
                }
            }
        }
    }

    /// GNU `({ ...; e; })`: the value of the last expression statement.
    /// `({ items; x; })`: the items run in a scope of their own, then
    /// `value` gives the last expression's value (when `want`).
    pub(super) fn statement_expression<T>(
        &mut self,
        s: &'a Node<Statement>,
        want: bool,
        value: impl FnOnce(&mut Self, &'a Node<Expression>) -> Result<T>,
    ) -> Result<Option<T>> {
        let Statement::Compound(items) = &s.node else {
            return Err(self.unsupported(s.span, "this statement expression"));
        };
        self.push_scope();
        let mut result = Ok(None);
        let mut value = Some(value);
        for (i, item) in items.iter().enumerate() {
            let last = i + 1 == items.len();
            let r = match &item.node {
                BlockItem::Statement(st) if last && want => match (&st.node, value.take()) {
                    (Statement::Expression(Some(x)), Some(f)) => f(self, x).map(Some),
                    _ => self.stmt(st).map(|_| None),
                },
                BlockItem::Statement(st) => self.stmt(st).map(|_| None),
                BlockItem::Declaration(d) => self.declaration(d, false).map(|_| None),
                BlockItem::StaticAssert(_) => Ok(None),
            };
            match r {
                Ok(v) => result = Ok(v),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.pop_scope();
        result
    }

    /// For `x = __VERIFIER_nondet_T()`: the set of values x can get, when it
    /// is an interval (then `havoc x; assume range`, no temporary).
    /// `Some(None)`: any value (x unbounded).
    pub fn nondet_assignment(&self, e: &Node<Expression>, target: IntType) -> Option<Option<(BigInt, BigInt)>> {
        let Expression::Call(c) = &e.node else { return None };
        let Expression::Identifier(id) = &c.node.callee.node else { return None };
        if !c.node.arguments.is_empty() {
            return None;
        }
        let src = self.nondet_type(&id.node.name)?;
        let target_range = self.arith.type_range(target);
        let src_range = self.arith.type_range(src);
        if target == IntType::Bool {
            return Some(target_range);
        }
        match (&src_range, &target_range) {
            (_, None) => Some(src_range),
            // Wrap-around of at least 2^N consecutive values covers the target.
            (None, Some(_)) => Some(target_range),
            (Some((slo, shi)), Some((tlo, thi))) => {
                if slo >= tlo && shi <= thi {
                    Some(src_range)
                } else if src.bits() >= target.bits() {
                    Some(target_range)
                } else {
                    None
                }
            }
        }
    }

    /// The type of a nondeterministic-value function not defined in the file.
    pub fn nondet_type(&self, name: &str) -> Option<IntType> {
        self.types.nondet_type(name)
    }

    fn conditional(&mut self, c: &'a Node<ConditionalExpression>, s: lang_c::span::Span, want: bool) -> Result<Option<Val>> {
        let (cond, then_e, else_e) = (&c.node.condition, &c.node.then_expression, &c.node.else_expression);
        let pure = !self.has_effects(then_e) && !self.has_effects(else_e);
        if pure && !want {
            return self.effect(cond).map(|_| None);
        }
        if pure {
            let ct = self.cond_term(cond)?;
            let a = self.guarded(ct.clone(), |l| l.expr(then_e))?;
            let b = self.guarded(Term::not(ct.clone()), |l| l.expr(else_e))?;
            let t = self.arith.machine().usual(a.ty, b.ty);
            let (a, b) = (self.arith.convert(a, t), self.arith.convert(b, t));
            let range = match (&a.range, &b.range) {
                (Some((alo, ahi)), Some((blo, bhi))) => Some((alo.min(blo).clone(), ahi.max(bhi).clone())),
                _ => None,
            };
            return Ok(Some(Val { term: Term::ite(ct, a.term, b.term), ty: t, range }));
        }
        // Branches with effects: real control flow.
        let result_ty = if want {
            match (self.type_of(then_e)?, self.type_of(else_e)?) {
                (CType::Int(a), CType::Int(b)) => Some(self.arith.machine().usual(a, b)),
                (CType::Void, CType::Void) => None,
                (CType::Unsupported(w), _) | (_, CType::Unsupported(w)) => return Err(self.unsupported(s, w)),
                (CType::Ptr(_), _) | (_, CType::Ptr(_)) => return Err(self.unsupported(s, "`?:` choosing between pointers")),
                _ => return Err(self.syntax(s, "`?:` with a void and a non-void branch")),
            }
        } else {
            None
        };
        let tmp = result_ty.map(|t| (self.cfg.temp("tmp", t), t));
        let (ts, fs) = self.branch(cond)?;
        let mut ends = Vec::new();
        for (cursors, e) in [(ts, then_e), (fs, else_e)] {
            self.join_here(cursors, s, "?:");
            match &tmp {
                Some((name, t)) => {
                    let v = self.expr(e)?;
                    let v = self.arith.convert(v, *t);
                    self.emit(Action::Assign(name.clone(), v.term));
                }
                None => self.effect(e)?,
            }
            ends.extend(self.flow.take());
        }
        self.join_here(ends, s, "after ?:");
        Ok(tmp.map(|(name, t)| self.arith.var(&name, t)))
    }

    /// `a && b` / `a || b` whose right side has effects, as a value: branch,
    /// then store 1 or 0.
    pub(super) fn branch_to_value(&mut self, b: &'a Node<BinaryOperatorExpression>, want: bool) -> Result<Option<Val>> {
        let tmp = if want { Some(self.cfg.temp("tmp", self.arith.machine().int())) } else { None };
        let (ts, fs) = self.branch_binary(b)?;
        let mut ends = Vec::new();
        for (cursors, value) in [(ts, 1), (fs, 0)] {
            let joined = self.join(cursors, b.span, "&&/||");
            if let Some(mut c) = joined {
                if let Some(t) = &tmp {
                    c.push(Action::Assign(t.clone(), Term::int(value)));
                }
                ends.push(c);
            }
        }
        self.join_here(ends, b.span, "after &&/||");
        Ok(tmp.map(|t| self.arith.var(&t, self.arith.machine().int())))
    }

}
