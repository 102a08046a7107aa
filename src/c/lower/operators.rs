//! Operators: the unary and binary operators and plain assignment of
//! integers, and the definedness conditions their results carry (under `c`
//! a result must be in range). `++`/`--` and compound assignment go to
//! `update.rs`, pointer operands to `memory/`, conditions to `cond.rs`.

use crate::c::lower::typed::*;
use super::facts::is_compound_assign;
use super::update::Update;
use super::{LValue, Lowerer};
use crate::c::arith::{ArithOp, CmpOp, Val};
use crate::c::types::CType;
use crate::error::Result;
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;

pub(in crate::c) fn cmp_op(op: &BinaryOperator) -> Option<CmpOp> {
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

pub(in crate::c) fn arith_op(op: &BinaryOperator) -> Option<ArithOp> {
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

impl<'a> Lowerer<'a> {
    pub(super) fn unary(&mut self, u: &'a Node<UnaryOperatorExpression>, want: bool) -> Result<Option<Val>> {
        let operand = &u.node.operand;
        match u.node.operator.node {
            UnaryOperator::PreIncrement | UnaryOperator::PreDecrement | UnaryOperator::PostIncrement | UnaryOperator::PostDecrement => {
                match Update::step(u) {
                    Some(update) => self.update_as_integer(update, want),
                    None => Err(self.syntax(u.span, "this operator")),
                }
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
            if cond == Term::tt() || !self.flow.is_reachable() {
                continue;
            }
            let at = self.span(s);
            let text = self.source_text(s);
            let site = self.diag.undefined_site(at, kind, text);
            let cond = self.flow.under_guards(cond);
            if !matches!(cond, Term::Bool(_)) {
                // Marks the assumption as this site's, so that the
                // warnings can ask whether it can fail (see
                // `termination::warnings`); dropped with slicing.
                let cfg = &mut self.cfg;
                let marker = self.diag.undefined_marker(|| {
                    cfg.declare_as(crate::ir::UNDEFINED_SITE, crate::c::cfg::GLOBAL, crate::ir::IntType::INT, crate::ir::Origin::UndefinedSite)
                });
                self.emit(crate::ir::Action::Assign(marker, Term::int(site as i64)));
            }
            self.emit_assume_as_is(cond);
        }
        out.val
    }

    pub(super) fn binary(&mut self, b: &'a Node<BinaryOperatorExpression>, want: bool) -> Result<Option<Val>> {
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
        if is_compound_assign(op) {
            return self.update_as_integer(Update::compound(b, aop), want);
        }
        if self.types.uses_floats() && self.is_float_operation(l, r)? {
            // Floating-point arithmetic: operands run, the result is any value.
            self.effect_any(l)?;
            self.effect_any(r)?;
            return Ok(Some(self.opaque_value(b.span)));
        }
        let (x, y) = self.operands(l, r)?;
        self.arith_outcome(aop, x, y, b.span).map(Some)
    }

    pub(super) fn is_float_operation(&mut self, l: &'a Node<Expression>, r: &'a Node<Expression>) -> Result<bool> {
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
        let address = self.address_assigned(&lv, r)?;
        let v = self.expr(r)?;
        if let LValue::Mem { ty, .. } = &lv {
            // The value of the assignment is the value stored (no load).
            let v = self.snapshot(self.arith.convert(v, *ty));
            self.store(&lv, v.clone());
            return Ok(v);
        }
        match (address, &lv) {
            (Some(address), LValue::Var { name, .. }) => {
                let held = self.hold_address(&name.clone(), address);
                self.store(&lv, v);
                self.emit(held);
            }
            _ => self.store(&lv, v),
        }
        Ok(self.load(&lv))
    }
}
