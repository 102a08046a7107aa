//! Constant expressions: array lengths, enumerators, bit-field widths,
//! `case` labels, `aligned(N)`, `_Alignas(N)`, the initializers of globals
//! and `static` locals, `__builtin_choose_expr` and `__builtin_constant_p`.
//!
//! A constant is decided by the typing layer's evaluator
//! (`c/typing/constants.rs`), which folds through the same integer
//! operations as the expression code, so elaboration and lowering
//! evaluate each constant with the same code. What it does not decide —
//! an expression that is not a constant (a variable, an overflow under
//! `c` semantics, a division by zero), or one it does not take (a float
//! operand) — falls back to evaluating the expression by the expression
//! code itself (`expr.rs`), at the program's entry: the expression is a
//! constant when lowering it emitted no action and its value is a number.
//! The fall-back keeps today's error messages (their position and text)
//! for non-constant expressions; on the shared benchmarks and the repo's
//! programs it gives no constant the evaluator does not.

use crate::c::lower::typed::*;
use super::decl::scalar_initializer;
use super::Lowerer;
use crate::c::arith::Val;
use crate::error::Result;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;

impl<'a> Lowerer<'a> {
    /// The value of the initializer of a global or `static` local of type
    /// `t`: a constant.
    pub(super) fn constant_initializer(&mut self, i: &'a Node<Initializer>, t: IntType) -> Result<BigInt> {
        let e = scalar_initializer(i).ok_or_else(|| self.unsupported(i.span, "an initializer list for a scalar"))?;
        let v = self.constant(e)?;
        let v = self.arith.convert(v, t);
        match v.constant() {
            Some(c) => Ok(c.clone()),
            None => Err(self.unsupported(i.span, "a non-constant initializer of a static variable")),
        }
    }

    /// The value of `e` lowered at the program's entry, and whether
    /// lowering it emitted no action (what was emitted is dropped).
    pub(super) fn evaluate_at_entry(&mut self, e: &'a Node<Expression>) -> (Result<Val>, bool) {
        let saved = self.flow.start_at_entry();
        let v = self.expr(e);
        let after = self.flow.restore(saved);
        (v, after.is_some_and(|c| c.actions.is_empty()))
    }
}
