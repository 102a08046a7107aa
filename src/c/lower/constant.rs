//! Constant expressions: array lengths, enumerators, bit-field widths,
//! `case` labels, `aligned(N)`, `_Alignas(N)`, the initializers of globals
//! and `static` locals, `__builtin_choose_expr` and `__builtin_constant_p`.
//!
//! A constant is decided by the typing layer's evaluator
//! (`typing/constants.rs`), which folds through the same integer
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

use super::decl::scalar_initializer;
use super::Lowerer;
use crate::c::arith::Val;
use crate::error::Result;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;

impl<'a> Lowerer<'a> {
    /// The value of a constant expression (case labels, enumerators,
    /// initializers of globals).
    pub fn constant(&mut self, e: &'a Node<Expression>) -> Result<Val> {
        if self.has_effects(e) {
            return Err(self.unsupported(e.span, "side effects in a constant expression"));
        }
        if let Some(v) = self.fold_constant(e) {
            return Ok(v);
        }
        // Not a constant the typing layer decides (see
        // `typing/constants.rs`): lowering the expression gives today's
        // answer, or the error saying why it is not a constant.
        let (v, clean) = self.evaluate_at_entry(e);
        let v = v?;
        if v.constant().is_none() || !clean {
            return Err(self.unsupported(e.span, "a non-constant expression where C requires a constant"));
        }
        Ok(v)
    }

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

    /// The number of elements of an array declarator: `None` for a
    /// variable-length array (its size is then only known at run time).
    pub(super) fn array_length(&mut self, e: &'a Node<Expression>) -> Result<Option<u64>> {
        if self.has_effects(e) {
            return Ok(None);
        }
        if let Some(v) = self.fold_constant(e) {
            return Ok(v.constant().and_then(|c| u64::try_from(c.clone()).ok()));
        }
        // As in `constant`: what the typing layer does not decide.
        let (v, clean) = self.evaluate_at_entry(e);
        Ok(match v {
            Ok(v) if clean => v.constant().and_then(|c| u64::try_from(c.clone()).ok()),
            _ => None,
        })
    }

    /// The value of `e` lowered at the program's entry, and whether
    /// lowering it emitted no action (what was emitted is dropped).
    fn evaluate_at_entry(&mut self, e: &'a Node<Expression>) -> (Result<Val>, bool) {
        let saved = self.flow.start_at_entry();
        let v = self.expr(e);
        let after = self.flow.restore(saved);
        (v, after.is_some_and(|c| c.actions.is_empty()))
    }
}
