//! Expressions: values, side effects, conditions and (inlined) calls.
//!
//! A [`Val`]'s term describes the value in the state at the cursor right
//! after the actions emitted while computing it. Where a later operand has
//! side effects, an earlier operand's value is first copied into a
//! temporary, so that the term still means what it meant.

use super::facts::is_compound_assign;
use super::{LValue, Lowerer, Symbol};
use crate::c::arith::{ArithOp, CmpOp, Val};
use crate::c::cfg::Cursor;
use crate::c::types::{char_literal, integer_literal, size_of, string_literal, usual, CType};
use crate::error::Result;
use crate::ir::{Action, IntType};
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use std::collections::HashSet;
use super::library::NONDET_PREFIX;

/// An evaluated call argument.
pub(super) enum Argument {
    Value(Val),
    Pointer(super::memory::PtrVal),
    /// A nondeterministic value in this range (`None`: any integer).
    Nondet(Option<(BigInt, BigInt)>),
    /// A struct passed by value: the address of the argument, if it has one.
    Object(Option<super::memory::PtrVal>),
}

/// The integer type of `__VERIFIER_nondet_X` by SV-COMP's naming.
fn nondet_type_by_name(suffix: &str, model: crate::ir::DataModel) -> Option<IntType> {
    Some(match suffix {
        "bool" | "_Bool" => IntType::Bool,
        "char" | "schar" => IntType::CHAR,
        "uchar" | "unsigned_char" | "u8" => IntType::UCHAR,
        "short" | "sshort" => IntType::SHORT,
        "ushort" | "unsigned_short" | "u16" => IntType::USHORT,
        "int" | "s32" => IntType::INT,
        "uint" | "unsigned" | "unsigned_int" | "u32" => IntType::UINT,
        "long" | "ssize_t" => model.long(),
        "longlong" | "long_long" | "loff_t" | "s64" => IntType::LONG,
        "ulong" | "unsigned_long" | "size_t" => model.ulong(),
        "ulonglong" | "unsigned_long_long" | "u64" | "sector_t" => IntType::ULONG,
        _ => return None,
    })
}

pub(super) fn cmp_op(op: &BinaryOperator) -> Option<CmpOp> {
    Some(match op {
        BinaryOperator::Less => CmpOp::Lt,
        BinaryOperator::LessOrEqual => CmpOp::Le,
        BinaryOperator::Greater => CmpOp::Gt,
        BinaryOperator::GreaterOrEqual => CmpOp::Ge,
        BinaryOperator::Equals => CmpOp::Eq,
        BinaryOperator::NotEquals => CmpOp::Ne,
        _ => return None,
    })
}

fn arith_op(op: &BinaryOperator) -> Option<ArithOp> {
    Some(match op {
        BinaryOperator::Plus | BinaryOperator::AssignPlus => ArithOp::Add,
        BinaryOperator::Minus | BinaryOperator::AssignMinus => ArithOp::Sub,
        BinaryOperator::Multiply | BinaryOperator::AssignMultiply => ArithOp::Mul,
        BinaryOperator::Divide | BinaryOperator::AssignDivide => ArithOp::Div,
        BinaryOperator::Modulo | BinaryOperator::AssignModulo => ArithOp::Rem,
        BinaryOperator::ShiftLeft | BinaryOperator::AssignShiftLeft => ArithOp::Shl,
        BinaryOperator::ShiftRight | BinaryOperator::AssignShiftRight => ArithOp::Shr,
        BinaryOperator::BitwiseAnd | BinaryOperator::AssignBitwiseAnd => ArithOp::BitAnd,
        BinaryOperator::BitwiseOr | BinaryOperator::AssignBitwiseOr => ArithOp::BitOr,
        BinaryOperator::BitwiseXor | BinaryOperator::AssignBitwiseXor => ArithOp::BitXor,
        _ => return None,
    })
}

/// An expression that is a literal up to signs and casts (a divisor that
/// cannot be zero by surprise).
fn literal_like(e: &Expression) -> bool {
    match e {
        Expression::Constant(_) | Expression::SizeOfTy(_) | Expression::SizeOfVal(_) => true,
        Expression::UnaryOperator(u) => {
            matches!(u.node.operator.node, UnaryOperator::Minus | UnaryOperator::Plus) && literal_like(&u.node.operand.node)
        }
        Expression::Cast(c) => literal_like(&c.node.expression.node),
        _ => false,
    }
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

    /// The value of a constant expression (case labels, enumerators,
    /// initializers of globals).
    pub fn constant(&mut self, e: &'a Node<Expression>) -> Result<Val> {
        if self.has_effects(e) {
            return Err(self.unsupported(e.span, "side effects in a constant expression"));
        }
        let saved = self.cur.replace(Cursor::at(self.entry));
        let r = self.expr(e);
        let after = std::mem::replace(&mut self.cur, saved);
        let v = r?;
        let clean = after.is_some_and(|c| c.actions.is_empty());
        if v.constant().is_none() || !clean {
            return Err(self.unsupported(e.span, "a non-constant expression where C requires a constant"));
        }
        Ok(v)
    }

    /// Whether evaluating `e` may do more than read variables: assign, call
    /// a function (other than `__VERIFIER_nondet_*`, whose fresh value
    /// changes nothing), or divide by a value that might be zero (its
    /// `assume divisor != 0` must not be hoisted out of a condition).
    pub fn has_effects(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::Identifier(_)
            | Expression::Constant(_)
            | Expression::StringLiteral(_)
            | Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_)
            | Expression::OffsetOf(_) => false,
            Expression::Call(c) => {
                let pure_builtin = match &c.node.callee.node {
                    Expression::Identifier(id) => {
                        let n = id.node.name.as_str();
                        let defined = self.functions.get(n).is_some_and(|f| f.def.is_some());
                        if !defined && matches!(super::builtins::operand_evaluation(n), Some(super::builtins::OperandEvaluation::Unevaluated(_))) {
                            // Its operands are never evaluated.
                            return false;
                        }
                        !defined && (n.starts_with(NONDET_PREFIX) || n == "__builtin_expect" || n == "__builtin_choose_expr")
                    }
                    _ => false,
                };
                !pure_builtin || c.node.arguments.iter().any(|a| self.has_effects(a))
            }
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::PostIncrement
                | UnaryOperator::PostDecrement
                | UnaryOperator::PreIncrement
                | UnaryOperator::PreDecrement => true,
                _ => self.has_effects(&u.node.operand),
            },
            Expression::Cast(c) => self.has_effects(&c.node.expression),
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if matches!(op, BinaryOperator::Assign) || is_compound_assign(op) {
                    return true;
                }
                if matches!(op, BinaryOperator::Divide | BinaryOperator::Modulo) && !literal_like(&b.node.rhs.node) {
                    return true;
                }
                self.has_effects(&b.node.lhs) || self.has_effects(&b.node.rhs)
            }
            Expression::Conditional(c) => {
                self.has_effects(&c.node.condition)
                    || self.has_effects(&c.node.then_expression)
                    || self.has_effects(&c.node.else_expression)
            }
            Expression::Comma(es) => es.iter().any(|x| self.has_effects(x)),
            Expression::Member(m) => self.has_effects(&m.node.expression),
            _ => true,
        }
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
            if facts.callees.iter().any(|c| !self.functions.get(c).is_some_and(|f| f.def.is_some()) && !super::library::keeps_memory(c)) {
                // A function without a definition may store through its arguments.
                return self.snapshot(v);
            }
            calls_functions |= facts.callees.iter().any(|c| self.functions.get(c).is_some_and(|f| f.def.is_some()));
        }
        if calls_functions && self.blocks.iter().any(|b| b.cells.is_some()) {
            // A called function may store into any block a pointer reaches.
            return self.snapshot(v);
        }
        if calls_functions {
            // A called function can assign any global (never the caller's locals).
            for sym in self.globals.values() {
                if let Symbol::Var { name, .. } = sym {
                    clobbered.insert(name.clone());
                }
            }
            for sym in self.statics.values() {
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
        if self.maybe_pointer(e) && self.is_pointer(e)? {
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
                    let (v, t) = integer_literal(i, self.arith.model).map_err(|m| self.unsupported(c.span, m))?;
                    Ok(Some(self.arith.constant(v, t)))
                }
                Constant::Character(s) => {
                    let (v, t) = char_literal(s).map_err(|m| self.unsupported(c.span, m))?;
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
                let ty = self.type_name(&c.node.type_name)?;
                match ty {
                    CType::Void => {
                        self.effect_any(&c.node.expression)?;
                        Ok(None)
                    }
                    CType::Int(t) if self.maybe_pointer(&c.node.expression) && self.is_pointer(&c.node.expression)? => {
                        // A pointer as an integer: addresses are not modelled
                        // (and the integer may become a pointer again).
                        let p = self.pointer(&c.node.expression, None)?;
                        self.expose(&p.base);
                        let at = self.span(c.span);
                        self.note_approximation(at, crate::ir::Approximation::PointerToInteger);
                        let v = self.cfg.temp("addr", t);
                        self.havoc(&v, t);
                        Ok(Some(self.arith.var(&v, t)))
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
                    let (elem, count) = string_literal(&lit.node).map_err(|m| self.syntax(lit.span, m))?;
                    let bytes = BigInt::from(size_of(elem)) * BigInt::from(count + 1);
                    return Ok(Some(self.arith.constant(bytes, self.arith.model.ulong())));
                }
                let ty = self.object_type(&s.node.0)?;
                if self.has_effects(&s.node.0) && self.byte_size(&ty).is_none() {
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
                Ok(Some(self.arith.constant(BigInt::from(bytes), self.arith.model.ulong())))
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
                Ok(Some(self.arith.constant(BigInt::from(bytes), self.arith.model.ulong())))
            }
            Expression::VaArg(v) => {
                // Variable arguments are not modelled: any value of the type.
                let ty = self.type_name(&v.node.type_name)?;
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

    // ---- storage

    pub fn lvalue(&mut self, e: &'a Node<Expression>) -> Result<LValue> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Symbol::Var { name, ty }) => Ok(LValue::Var { name: name.clone(), ty: *ty }),
                Some(Symbol::Ptr(_)) => Err(self.unsupported(e.span, format!("the pointer `{}` used as an integer", id.node.name))),
                Some(Symbol::Const(_)) => Err(self.syntax(e.span, format!("`{}` is a constant", id.node.name))),
                Some(Symbol::Typedef(..)) => Err(self.syntax(e.span, format!("`{}` is a type", id.node.name))),
                Some(Symbol::Unmodelled { what }) => {
                    Err(self.unsupported(e.span, format!("variable `{}` of type {what}", id.node.name)))
                }
                Some(Symbol::Opaque { ty: CType::Float(_) }) => Ok(LValue::Opaque { ty: IntType::LONG, at: self.span(e.span) }),
                // Read in its own initializer (`int x = x + 1;`): indeterminate.
                Some(Symbol::Opaque { ty: CType::Int(t) }) => Ok(LValue::Opaque { ty: *t, at: self.span(e.span) }),
                // A scalar whose address is taken: its cell in memory.
                Some(Symbol::Object { ptr, ty: CType::Int(t) }) => Ok(LValue::Mem { ptr: ptr.clone(), ty: *t, at: self.span(e.span) }),
                Some(Symbol::Opaque { ty } | Symbol::Object { ty, .. }) => {
                    let what = super::memory::describe(ty);
                    Err(self.unsupported(e.span, format!("the {what} `{}` used as an integer value", id.node.name)))
                }
                None => {
                    if self.functions.contains_key(&id.node.name) {
                        Err(self.unsupported(e.span, format!("function `{}` used as a value (function pointers)", id.node.name)))
                    } else if id.node.name == "__func__" || id.node.name == "__PRETTY_FUNCTION__" || id.node.name == "__FUNCTION__" {
                        Err(self.unsupported(e.span, "string literals (pointers)"))
                    } else {
                        Err(self.syntax(e.span, format!("undeclared identifier `{}`", id.node.name)))
                    }
                }
            },
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => self.object_lvalue(e),
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => self.object_lvalue(e),
            Expression::Member(_) => self.object_lvalue(e),
            _ => Err(self.syntax(e.span, "not an assignable expression")),
        }
    }

    pub fn load(&mut self, lv: &LValue) -> Val {
        match lv {
            LValue::Var { name, ty } => {
                let mut v = self.arith.var(name, *ty);
                // Below a variable of a bounded type (`assume i < n`): at
                // most its type's maximum minus the gap.
                if let (Some(c), Some((lo, hi))) = (self.cur.as_ref(), v.range.clone()) {
                    let cap = c
                        .below(name)
                        .filter_map(|(b, k)| self.cfg.type_of(b).and_then(|t| self.arith.type_range(t)).map(|(_, m)| m - k))
                        .min();
                    if let Some(cap) = cap.filter(|cap| cap < &hi && cap >= &lo) {
                        v.range = Some((lo, cap));
                    }
                }
                // Narrow by what the current path implies (`assume x > 0`).
                if let Some((lo, hi)) = self.cur.as_ref().and_then(|c| c.bounds(name)) {
                    let (tlo, thi) = match v.range.take() {
                        Some((a, b)) => (Some(a), Some(b)),
                        None => (None, None),
                    };
                    let lo = match (tlo, lo) {
                        (Some(a), Some(b)) => Some(a.max(b.clone())),
                        (a, b) => a.or_else(|| b.clone()),
                    };
                    let hi = match (thi, hi) {
                        (Some(a), Some(b)) => Some(a.min(b.clone())),
                        (a, b) => a.or_else(|| b.clone()),
                    };
                    if let (Some(lo), Some(hi)) = (lo, hi) {
                        if lo <= hi {
                            v.range = Some((lo, hi));
                        }
                    }
                }
                v
            }
            LValue::Mem { ptr, ty, at } => self.load_memory(ptr, *ty, at),
            LValue::Opaque { ty, at } => {
                let v = self.cfg.temp("opaque", *ty);
                self.emit(Action::Choose(v.clone()));
                self.note_approximation(at.clone(), crate::ir::Approximation::FloatingPointOrBitField);
                if *ty == IntType::LONG {
                    // Stands for a floating-point value: any number.
                    return Val { term: Term::var(v), ty: *ty, range: None };
                }
                self.havoc(&v, *ty);
                self.arith.var(&v, *ty)
            }
        }
    }

    /// An object in memory used as an integer lvalue (`*p`, `a[i]`, `s.f`,
    /// `p->f`); floating-point objects and bit-fields are opaque.
    fn object_lvalue(&mut self, e: &'a Node<Expression>) -> Result<LValue> {
        let at = self.span(e.span);
        let bit_field = match &e.node {
            Expression::Member(m) => self.member_of(m)?.bits.is_some(),
            _ => false,
        };
        let addr = self.address_of_object(e)?;
        match addr.pointee.clone() {
            CType::Int(t) if bit_field => Ok(LValue::Opaque { ty: t, at }),
            CType::Int(_) => {
                let (ptr, ty) = self.access(addr, e.span)?;
                Ok(LValue::Mem { ptr, ty, at })
            }
            CType::Float(_) => Ok(LValue::Opaque { ty: IntType::LONG, at }),
            other => Err(self.unsupported(e.span, format!("a {} used as an integer value", super::memory::describe(&other)))),
        }
    }

    pub fn store(&mut self, lv: &LValue, v: Val) {
        match lv {
            LValue::Var { name, ty } => {
                let v = self.arith.convert(v, *ty);
                self.assign_var(name, v);
            }
            LValue::Mem { ptr, ty, at } => {
                let v = self.arith.convert(v, *ty);
                self.store_memory(ptr, *ty, v, at);
            }
            LValue::Opaque { .. } => {}
        }
    }

    /// Identifier values read via `lvalue`, except enumeration constants.
    fn read_identifier(&mut self, e: &'a Node<Expression>) -> Result<Val> {
        if let Expression::Identifier(id) = &e.node {
            if let Some(Symbol::Const(v)) = self.lookup(&id.node.name) {
                return Ok(v.clone());
            }
        }
        let lv = self.lvalue(e)?;
        Ok(self.load(&lv))
    }

    // ---- operators

    fn unary(&mut self, u: &'a Node<UnaryOperatorExpression>, want: bool) -> Result<Option<Val>> {
        let operand = &u.node.operand;
        match u.node.operator.node {
            UnaryOperator::PreIncrement | UnaryOperator::PreDecrement | UnaryOperator::PostIncrement | UnaryOperator::PostDecrement => {
                let op = u.node.operator.node.clone();
                let lv = self.lvalue(operand)?;
                let old = self.load(&lv);
                let post = matches!(op, UnaryOperator::PostIncrement | UnaryOperator::PostDecrement);
                let result_old = if post && want { Some(self.snapshot(old.clone())) } else { None };
                let aop = if matches!(op, UnaryOperator::PreIncrement | UnaryOperator::PostIncrement) {
                    ArithOp::Add
                } else {
                    ArithOp::Sub
                };
                let one = self.arith.int(1);
                let new = self.arith.binary(aop, old, one).map_err(|m| self.unsupported(u.span, m))?;
                let new = self.defined(new, u.span);
                self.store(&lv, new);
                Ok(Some(match result_old {
                    Some(v) => v,
                    None => self.load(&lv),
                }))
            }
            UnaryOperator::Address => Err(self.unsupported(u.span, "the address-of operator (pointers)")),
            UnaryOperator::Indirection => {
                let (ptr, ty) = self.access_deref(operand, u.span)?;
                let at = self.span(u.span);
                Ok(Some(self.load_memory(&ptr, ty, &at)))
            }
            UnaryOperator::Plus => {
                let v = self.operand_value(operand)?;
                Ok(Some(self.arith.promote(v)))
            }
            UnaryOperator::Minus => {
                let v = self.operand_value(operand)?;
                let out = self.arith.neg(v);
                Ok(Some(self.defined(out, u.span)))
            }
            UnaryOperator::Complement => {
                let v = self.operand_value(operand)?;
                Ok(Some(self.arith.bitnot(v)))
            }
            UnaryOperator::Negate => {
                let c = self.cond_term(operand)?;
                Ok(Some(self.arith.from_bool(Term::not(c))))
            }
        }
    }

    pub(super) fn operand_value(&mut self, e: &'a Node<Expression>) -> Result<Val> {
        if let Expression::Identifier(_) = &e.node {
            return self.read_identifier(e);
        }
        self.expr(e)
    }

    /// Both operands, the left one protected from the right one's effects.
    pub(super) fn operands(&mut self, l: &'a Node<Expression>, r: &'a Node<Expression>) -> Result<(Val, Val)> {
        if self.interfere(l, r) {
            let span = lang_c::span::Span::span(l.span.start, r.span.end);
            let vs = self.values_in_every_order(&[l, r], span)?;
            if let [a, b] = vs.as_slice() {
                return Ok((a.clone(), b.clone()));
            }
        }
        let a = self.operand_value(l)?;
        let a = self.protect(a, std::slice::from_ref(r));
        let b = self.operand_value(r)?;
        Ok((a, b))
    }

    pub(super) fn arith_outcome(&mut self, op: ArithOp, a: Val, b: Val, s: lang_c::span::Span) -> Result<Val> {
        match self.arith.binary(op, a.clone(), b.clone()) {
            Ok(out) => Ok(self.defined(out, s)),
            Err(why) if matches!(op, ArithOp::BitAnd | ArithOp::BitOr | ArithOp::BitXor | ArithOp::Shl | ArithOp::Shr) => {
                // No exact linear encoding: a value within sound bounds.
                let at = self.span(s);
                self.note_approximation(at, crate::ir::Approximation::Bitwise { why });
                let probe = Term::var("bitwise%result");
                let (ty, _, _) = self.arith.approximate(op, a.clone(), b.clone(), &probe);
                let r = self.cfg.temp("bits", ty);
                let (_, facts, defined) = self.arith.approximate(op, a, b, &Term::var(r.clone()));
                let val = self.defined(crate::c::arith::Outcome { val: self.arith.var(&r, ty), defined }, s);
                // The operands are read before the result is chosen.
                self.havoc(&r, ty);
                for f in facts {
                    self.emit_assume(f);
                }
                Ok(val)
            }
            Err(why) => Err(self.unsupported(s, why)),
        }
    }

    /// The value of an operation whose definedness conditions are assumed
    /// from here on (an execution that violates one is not a C execution);
    /// each one that is not trivially true is recorded for the warnings.
    pub(crate) fn defined(&mut self, out: crate::c::arith::Outcome, s: lang_c::span::Span) -> Val {
        for (kind, cond) in out.defined {
            if cond == Term::tt() || self.cur.is_none() {
                continue;
            }
            let at = self.span(s);
            let text = self.source_text(s);
            let site = match self.undefined.iter().position(|u| u.span == at && u.kind == kind) {
                Some(i) => i,
                None => {
                    self.undefined.push(crate::ir::UndefinedSite {
                        span: at,
                        kind,
                        expression: text,
                        status: crate::ir::WarningStatus::NotRuledOut,
                    });
                    self.undefined.len() - 1
                }
            };
            let cond = self.under_guards(cond);
            if !matches!(cond, Term::Bool(_)) {
                // Marks the assumption as this site's, so that the
                // warnings can ask whether it can fail (see
                // `termination::warnings`); dropped with slicing.
                let marker = match &self.undefined_marker {
                    Some(m) => m.clone(),
                    None => {
                        let m = self.cfg.declare_as(crate::ir::UNDEFINED_SITE, crate::c::cfg::GLOBAL, crate::ir::IntType::INT, crate::ir::Origin::UndefinedSite);
                        self.undefined_marker = Some(m.clone());
                        m
                    }
                };
                self.emit(crate::ir::Action::Assign(marker, Term::int(site as i64)));
            }
            self.emit_assume_as_is(cond);
        }
        out.val
    }

    fn binary(&mut self, b: &'a Node<BinaryOperatorExpression>, want: bool) -> Result<Option<Val>> {
        let op = &b.node.operator.node;
        let (l, r) = (&b.node.lhs, &b.node.rhs);
        if let Some(c) = cmp_op(op) {
            if self.is_pointer(l)? || self.is_pointer(r)? {
                let t = self.pointer_compare(c, l, r, b.span)?;
                return Ok(Some(self.arith.from_bool(t)));
            }
            let (x, y) = self.operands(l, r)?;
            return Ok(Some(self.arith.from_bool(self.arith.compare(c, x, y))));
        }
        if *op == BinaryOperator::Minus && self.is_pointer(l)? && self.is_pointer(r)? {
            return self.pointer_difference(l, r, b.span).map(Some);
        }
        match op {
            BinaryOperator::Index => {
                let (ptr, ty) = self.access_index(b)?;
                let at = self.span(b.span);
                return Ok(Some(self.load_memory(&ptr, ty, &at)));
            }
            BinaryOperator::Assign => return self.assign(l, r, want).map(Some),
            BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr => {
                if !self.has_effects(r) {
                    let t = self.cond_term_binary(b)?;
                    return Ok(Some(self.arith.from_bool(t)));
                }
                return self.branch_to_value(b, want);
            }
            _ => {}
        }
        let Some(aop) = arith_op(op) else {
            return Err(self.unsupported(b.span, "this operator"));
        };
        if self.uses_floats && self.is_float_operation(l, r)? {
            // Floating-point arithmetic: operands run, the result is any value.
            if is_compound_assign(op) {
                let lv = self.lvalue(l)?;
                self.effect_any(r)?;
                let v = self.opaque_value(b.span);
                self.store(&lv, v);
                return Ok(Some(self.load(&lv)));
            }
            self.effect_any(l)?;
            self.effect_any(r)?;
            return Ok(Some(self.opaque_value(b.span)));
        }
        if is_compound_assign(op) {
            if self.interfere(l, r) || self.calls_may_write_state(r) {
                // A call on the right may write `l` or what its address
                // depends on: the read of `l` before or after it.
                return self.assign_in_every_order(l, r, Some(aop), b.span).map(Some);
            }
            // `x op= e`: e first, then the read of x (one valid order for
            // effects on x in e, which C leaves unsequenced).
            let lv = self.lvalue(l)?;
            let lv = self.protect_lvalue(lv, r);
            let rhs = self.expr(r)?;
            let old = self.load(&lv);
            let new = self.arith_outcome(aop, old, rhs, b.span)?;
            self.store(&lv, new);
            return Ok(Some(self.load(&lv)));
        }
        let (x, y) = self.operands(l, r)?;
        self.arith_outcome(aop, x, y, b.span).map(Some)
    }

    fn is_float_operation(&mut self, l: &'a Node<Expression>, r: &'a Node<Expression>) -> Result<bool> {
        Ok(matches!(self.type_of(l)?, CType::Float(_)) || matches!(self.type_of(r)?, CType::Float(_)))
    }

    fn assign(&mut self, l: &'a Node<Expression>, r: &'a Node<Expression>, _want: bool) -> Result<Val> {
        if self.interfere(l, r) {
            return self.assign_in_every_order(l, r, None, l.span);
        }
        let lv = self.lvalue(l)?;
        if let (Some(range), LValue::Var { name, .. }) = (self.nondet_assignment(r, lv.ty()), &lv) {
            let name = name.clone();
            self.havoc_in(&name, range);
            return Ok(self.load(&lv));
        }
        let lv = self.protect_lvalue(lv, r);
        let v = self.expr(r)?;
        if let LValue::Mem { ty, .. } = &lv {
            // The value of the assignment is the value stored (no load).
            let v = self.snapshot(self.arith.convert(v, *ty));
            self.store(&lv, v.clone());
            return Ok(v);
        }
        self.store(&lv, v);
        Ok(self.load(&lv))
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
        let suffix = name.strip_prefix(NONDET_PREFIX)?;
        let info = self.functions.get(name);
        if info.is_some_and(|f| f.def.is_some()) {
            return None;
        }
        nondet_type_by_name(suffix, self.arith.model).or_else(|| info.and_then(|f| f.ret.int()))
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
            let t = usual(a.ty, b.ty);
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
                (CType::Int(a), CType::Int(b)) => Some(usual(a, b)),
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
            self.cur = self.join(cursors, s, "?:");
            match &tmp {
                Some((name, t)) => {
                    let v = self.expr(e)?;
                    let v = self.arith.convert(v, *t);
                    self.emit(Action::Assign(name.clone(), v.term));
                }
                None => self.effect(e)?,
            }
            ends.extend(self.cur.take());
        }
        self.cur = self.join(ends, s, "after ?:");
        Ok(tmp.map(|(name, t)| self.arith.var(&name, t)))
    }

    /// `a && b` / `a || b` whose right side has effects, as a value: branch,
    /// then store 1 or 0.
    fn branch_to_value(&mut self, b: &'a Node<BinaryOperatorExpression>, want: bool) -> Result<Option<Val>> {
        let tmp = if want { Some(self.cfg.temp("tmp", IntType::INT)) } else { None };
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
        self.cur = self.join(ends, b.span, "after &&/||");
        Ok(tmp.map(|t| self.arith.var(&t, IntType::INT)))
    }

}
