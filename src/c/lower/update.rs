//! Updating a scalar in place: `x++`, `x--`, `++x`, `--x` and `x op= e`.
//! One C construct, lowered here once for both kinds of scalar the model
//! has, chosen by the target's C type: an integer is read, operated on
//! (with the definedness conditions of the operation) and stored; a
//! pointer variable's offset moves by whole elements (`++p` is `p += 1`,
//! see `memory/`). The value is the one stored, or the old one for a
//! postfix form.

use crate::c::lower::typed::*;
use super::{LValue, Lowerer};
use crate::c::arith::{ArithOp, Val};
use crate::c::lower::memory::PtrVal;
use crate::error::Result;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// An update of `target` in place, as written.
pub(super) struct Update<'a> {
    target: &'a Node<Expression>,
    op: ArithOp,
    /// The right operand of `op=`; `None` for `++` and `--` (by one).
    by: Option<&'a Node<Expression>>,
    /// A postfix `++`/`--`: the value is the old one.
    post: bool,
    span: Span,
}

/// The value of an update: the target's kind of scalar.
pub(super) enum Updated {
    Int(Val),
    Pointer(PtrVal),
}

impl<'a> Update<'a> {
    /// `x++`, `x--`, `++x`, `--x`.
    pub fn step(u: &'a Node<UnaryOperatorExpression>) -> Option<Update<'a>> {
        let (op, post) = match u.node.operator.node {
            UnaryOperator::PreIncrement => (ArithOp::Add, false),
            UnaryOperator::PreDecrement => (ArithOp::Sub, false),
            UnaryOperator::PostIncrement => (ArithOp::Add, true),
            UnaryOperator::PostDecrement => (ArithOp::Sub, true),
            _ => return None,
        };
        Some(Update { target: &u.node.operand, op, by: None, post, span: u.span })
    }

    /// `x op= e` (`op`: the operation of the compound assignment).
    pub fn compound(b: &'a Node<BinaryOperatorExpression>, op: ArithOp) -> Update<'a> {
        Update { target: &b.node.lhs, op, by: Some(&b.node.rhs), post: false, span: b.span }
    }

    /// The updates C has for pointers: `++`, `--`, `+=` and `-=`.
    fn of_pointer(e: &'a Node<Expression>) -> Option<Update<'a>> {
        match &e.node {
            Expression::UnaryOperator(u) => Update::step(u),
            Expression::BinaryOperator(b) => match b.node.operator.node {
                BinaryOperator::AssignPlus => Some(Update::compound(b, ArithOp::Add)),
                BinaryOperator::AssignMinus => Some(Update::compound(b, ArithOp::Sub)),
                _ => None,
            },
            _ => None,
        }
    }
}

impl<'a> Lowerer<'a> {
    /// Lower an update; `want`: whether its value is used.
    pub(super) fn update(&mut self, u: Update<'a>, want: bool) -> Result<Updated> {
        if self.is_pointer(u.target)? {
            return self.update_pointer(u).map(Updated::Pointer);
        }
        self.update_integer(u, want).map(Updated::Int)
    }

    /// `p += i`, `p -= i`, `++p`, ...: the variable's offset moves by `i`
    /// elements (its base and size stay).
    fn update_pointer(&mut self, u: Update<'a>) -> Result<PtrVal> {
        let minus = match u.op {
            ArithOp::Add => false,
            ArithOp::Sub => true,
            _ => return Err(self.unsupported(u.span, "this operator on pointers")),
        };
        let var = self.pointer_variable(u.target)?;
        let old = var.value();
        let old = if u.post { self.snapshot_pointer(old) } else { old };
        let by = match u.by {
            Some(r) => self.expr(r)?,
            None => self.arith.int(1),
        };
        self.move_pointer(&var, by, minus, u.span)?;
        Ok(if u.post { old } else { var.value() })
    }

    fn update_integer(&mut self, u: Update<'a>, want: bool) -> Result<Val> {
        let (l, s) = (u.target, u.span);
        let Some(r) = u.by else {
            let lv = self.lvalue(l)?;
            let one = self.arith.int(1);
            return self.store_updated(&lv, u.op, one, u.post && want, s);
        };
        if self.types.uses_floats() && self.is_float_operation(l, r)? {
            // Floating-point arithmetic: the operand runs, the result is any value.
            let lv = self.lvalue(l)?;
            self.effect_any(r)?;
            let v = self.opaque_value(s);
            self.store(&lv, v);
            return Ok(self.load(&lv));
        }
        if self.interfere(l, r) || self.calls_may_write_state(r) {
            // A call on the right may write `l` or what its address
            // depends on: the read of `l` before or after it.
            return self.assign_in_every_order(l, r, Some(u.op), s);
        }
        // `x op= e`: e first, then the read of x (one valid order for
        // effects on x in e, which C leaves unsequenced).
        let lv = self.lvalue(l)?;
        let lv = self.protect_lvalue(lv, r);
        let rhs = self.expr(r)?;
        self.store_updated(&lv, u.op, rhs, false, s)
    }

    /// The read of the old value, the operation with its definedness
    /// conditions, the store. The value is the one stored, or, with
    /// `keep_old` (a postfix `++` whose value is used), the old one copied
    /// before the store.
    fn store_updated(&mut self, lv: &LValue, op: ArithOp, rhs: Val, keep_old: bool, s: Span) -> Result<Val> {
        let old = self.load(lv);
        let kept = if keep_old { Some(self.snapshot(old.clone())) } else { None };
        let new = self.arith_outcome(op, old, rhs, s)?;
        self.store(lv, new);
        Ok(match kept {
            Some(v) => v,
            None => self.load(lv),
        })
    }
}

impl<'a> Lowerer<'a> {
    /// An update whose value is used as an integer (when `want`).
    pub(super) fn update_as_integer(&mut self, u: Update<'a>, want: bool) -> Result<Option<Val>> {
        let s = u.span;
        match self.update(u, want)? {
            Updated::Int(v) => Ok(Some(v)),
            Updated::Pointer(_) if want => Err(self.unsupported(s, "a pointer used as an integer value")),
            Updated::Pointer(_) => Ok(None),
        }
    }

    /// The value of `e`, a pointer's update (`++p`, `p += i`, ...).
    pub(super) fn update_as_pointer(&mut self, e: &'a Node<Expression>) -> Result<PtrVal> {
        let Some(u) = Update::of_pointer(e) else {
            return Err(self.unsupported(e.span, "this operator on pointers"));
        };
        let target = u.target.span;
        match self.update(u, true)? {
            Updated::Pointer(p) => Ok(p),
            Updated::Int(_) => Err(self.unsupported(target, "this pointer expression as an assignment target")),
        }
    }
}
