//! The value of an integer constant expression, decided by the typing
//! layer (array lengths, enumerators, bit-field widths, `case` labels,
//! `aligned(N)`, `_Alignas(N)`, `offsetof` indices, initializers of
//! globals, `__builtin_choose_expr`, `__builtin_constant_p`): see
//! [`ConstantTyping::fold_constant`].
//!
//! Each operator has one meaning: the evaluator folds through `c::Arith`'s
//! own operations, the ones lowering's operators call (`operators.rs`,
//! `cond.rs`, `expr.rs`), on the same values in the same order, so a
//! constant's value and its `Val` (type, range) are what lowering the
//! expression would give. It reads only the typing state — the names
//! ([`super::Names`]), the types decided for each node, sizes and layouts
//! (`sizes.rs`) — and the integer semantics; it never emits an action,
//! declares a variable or records an approximation.
//!
//! It answers only what it can decide exactly as lowering would, and
//! says "not a constant I can decide" (`None`) otherwise: an operation
//! whose definedness condition is not trivially true (an overflow under
//! `c` semantics, a division by zero, a shift out of range: lowering
//! assumes such a condition, which makes the expression not a constant,
//! and reports it with its own message), a bitwise operation without an
//! exact encoding, a floating-point operand, a pointer, a name that is
//! not an enumeration constant, any construct not listed below. The
//! callers (`constant.rs`) then fall back to lowering the expression,
//! which gives today's answer or today's error message.
//!
//! It is written over [`super::TypingHost`] (see `host.rs`): the nesting
//! limit is the host's (`enter`/`leave`: lowering counts levels as it
//! always did, so an expression nested too deeply is refused by lowering
//! with its message), and so is the fall-back for a constant it does not
//! decide (lowering evaluates it; the typing-only reader has none).

use crate::c::lower::typed::*;
use crate::c::arith::{ArithOp, Outcome, Val};
use crate::c::lower::calls::builtins::{operand_evaluation, CompileTimeQuery, OperandEvaluation};
use crate::c::lower::operators::{arith_op, cmp_op};
use crate::error::Result;
use crate::c::types::{char_literal, integer_literal, size_of, string_literal, CType};
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;

use super::Named;

pub(crate) trait ConstantTyping<'a>: super::TypingHost<'a> + Sized {
    /// The value of a constant expression (case labels, enumerators,
    /// initializers of globals).
    fn constant(&mut self, e: &'a Node<Expression>) -> Result<Val> {
        if self.has_effects(e) {
            return Err(self.unsupported(e.span, "side effects in a constant expression"));
        }
        if let Some(v) = self.fold_constant(e) {
            return Ok(v);
        }
        // Not a constant the typing layer decides (see
        // `typing/constants.rs`): lowering the expression gives today's
        // answer, or the error saying why it is not a constant.
        let (v, clean) = self.evaluate_constant(e);
        let v = v?;
        if v.constant().is_none() || !clean {
            return Err(self.unsupported(e.span, "a non-constant expression where C requires a constant"));
        }
        Ok(v)
    }

    /// The number of elements of an array declarator: `None` for a
    /// variable-length array (its size is then only known at run time).
    fn array_length(&mut self, e: &'a Node<Expression>) -> Result<Option<u64>> {
        if self.has_effects(e) {
            return Ok(None);
        }
        if let Some(v) = self.fold_constant(e) {
            return Ok(v.constant().and_then(|c| u64::try_from(c.clone()).ok()));
        }
        // As in `constant`: what the typing layer does not decide.
        let (v, clean) = self.evaluate_constant(e);
        Ok(match v {
            Ok(v) if clean => v.constant().and_then(|c| u64::try_from(c.clone()).ok()),
            _ => None,
        })
    }

    /// The operand `__builtin_choose_expr(c, a, b)` chooses: `a` when the
    /// constant `c` is not zero, else `b`. Only that operand is evaluated.
    fn chosen_operand(&mut self, c: &'a Node<CallExpression>) -> Result<&'a Node<Expression>> {
        let [cond, a, b] = c.node.arguments.as_slice() else {
            return Err(self.syntax(c.span, "`__builtin_choose_expr` takes three arguments"));
        };
        let v = self.constant(cond).map_err(|_| self.syntax(cond.span, "the first argument of `__builtin_choose_expr` must be an integer constant"))?;
        Ok(if v.constant().is_some_and(|k| k.sign() != num_bigint::Sign::NoSign) { a } else { b })
    }

    /// The value of the side-effect-free expression `e` as a constant,
    /// when this evaluator can decide it (see the module's documentation);
    /// `None`: not a constant it can decide (the caller falls back to
    /// lowering `e`).
    fn fold_constant(&mut self, e: &'a Node<Expression>) -> Option<Val> {
        self.fold(e).filter(|v| v.constant().is_some())
    }

    /// As lowering's `eval` (one level of nesting per node).
    fn fold(&mut self, e: &'a Node<Expression>) -> Option<Val> {
        self.nested(e.span, |l| l.fold_inner(e))
    }

    /// `f` one level of nesting deeper, as lowering counts levels (too
    /// deep: not decided here, and lowering reports it).
    fn nested<T>(&mut self, s: lang_c::span::Span, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let entered = self.enter(s);
        let r = entered.ok().and_then(|_| f(self));
        self.leave();
        r
    }

    /// As lowering's `operand_value`: a name is read without a level.
    fn fold_operand(&mut self, e: &'a Node<Expression>) -> Option<Val> {
        match &e.node {
            Expression::Identifier(_) => self.fold_name(e),
            _ => self.fold(e),
        }
    }

    /// An enumeration constant (lowering reads it from its symbol, which
    /// the names keep in step with); the name's type is decided as
    /// lowering decides it before reading.
    fn fold_name(&mut self, e: &'a Node<Expression>) -> Option<Val> {
        let Expression::Identifier(id) = &e.node else { return None };
        match self.types().named(&id.node.name) {
            Some(Named::Const(v)) => Some(v.clone()),
            _ => None,
        }
    }

    /// An outcome whose every definedness condition is trivially true
    /// (lowering's `defined` then assumes nothing).
    fn fold_defined(out: Outcome) -> Option<Val> {
        out.defined.iter().all(|(_, c)| *c == Term::tt()).then_some(out.val)
    }

    fn size_t_constant(&self, n: u64) -> Val {
        self.arith().constant(BigInt::from(n), self.arith().machine().size_t())
    }

    fn fold_inner(&mut self, e: &'a Node<Expression>) -> Option<Val> {
        // Lowering asks first whether `e` is a pointer (deciding its type).
        if !matches!(self.type_of(e).ok()?, CType::Int(_)) {
            return None;
        }
        match &e.node {
            Expression::Identifier(_) => self.fold_name(e),
            Expression::Constant(c) => {
                let (v, t) = match &c.node {
                    Constant::Integer(i) => integer_literal(i, self.arith().machine()).ok()?,
                    Constant::Character(s) => char_literal(s, self.arith().machine()).ok()?,
                    Constant::Float(_) => return None,
                };
                Some(self.arith().constant(v, t))
            }
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Plus => {
                    let v = self.fold_operand(&u.node.operand)?;
                    Some(self.arith().promote(v))
                }
                UnaryOperator::Minus => {
                    let v = self.fold_operand(&u.node.operand)?;
                    Self::fold_defined(self.arith().neg(v))
                }
                UnaryOperator::Complement => {
                    let v = self.fold_operand(&u.node.operand)?;
                    Some(self.arith().bitnot(v))
                }
                UnaryOperator::Negate => {
                    let c = self.fold_condition(&u.node.operand)?;
                    Some(self.arith().from_bool(Term::not(c)))
                }
                _ => None,
            },
            Expression::Cast(c) => match self.object_type(e).ok()? {
                CType::Int(t) => {
                    let v = self.fold(&c.node.expression)?;
                    Some(self.arith().convert(v, t))
                }
                _ => None,
            },
            Expression::BinaryOperator(b) => self.fold_binary(b),
            Expression::Conditional(c) => {
                // As lowering's conditional without effects: both branches
                // are evaluated (each under its guard), the result chosen.
                let ct = self.fold_condition(&c.node.condition)?;
                let a = self.fold(&c.node.then_expression)?;
                let b = self.fold(&c.node.else_expression)?;
                let t = self.arith().machine().usual(a.ty, b.ty);
                let (a, b) = (self.arith().convert(a, t), self.arith().convert(b, t));
                let range = match (&a.range, &b.range) {
                    (Some((alo, ahi)), Some((blo, bhi))) => Some((alo.min(blo).clone(), ahi.max(bhi).clone())),
                    _ => None,
                };
                Some(Val { term: Term::ite(ct, a.term, b.term), ty: t, range })
            }
            Expression::SizeOfTy(s) => {
                if self.type_name_has_effects(&s.node.0.node) {
                    return None;
                }
                let ty = self.type_name(&s.node.0).ok()?;
                self.size_value(ty, s.span).ok()
            }
            Expression::SizeOfVal(s) => {
                if let Expression::StringLiteral(lit) = &s.node.0.node {
                    let (elem, count) = string_literal(&lit.node, self.arith().machine()).ok()?;
                    let bytes = BigInt::from(size_of(elem)) * BigInt::from(count + 1);
                    return Some(self.arith().constant(bytes, self.arith().machine().size_t()));
                }
                let ty = self.object_type(&s.node.0).ok()?;
                if self.has_effects(&s.node.0) && self.types().byte_size(&ty).is_none() {
                    return None;
                }
                self.size_value(ty, s.span).ok()
            }
            Expression::AlignOf(a) => {
                if self.type_name_has_effects(&a.node.0.node) {
                    return None;
                }
                let bytes = self.alignof(a).ok()?;
                Some(self.size_t_constant(bytes))
            }
            Expression::OffsetOf(o) => {
                let bytes = self.offsetof(o).ok()?;
                Some(self.size_t_constant(bytes))
            }
            Expression::Call(c) => self.fold_builtin(c),
            // gcc accepts a comma expression as a constant; lowering runs
            // each earlier operand for its effects, which a constant has none.
            Expression::Comma(es) => {
                let (last, earlier) = es.split_last()?;
                for x in earlier {
                    self.fold(x)?;
                }
                self.fold(last)
            }
            _ => None,
        }
    }

    fn fold_binary(&mut self, b: &'a Node<BinaryOperatorExpression>) -> Option<Val> {
        let op = &b.node.operator.node;
        let (l, r) = (&b.node.lhs, &b.node.rhs);
        if let Some(c) = cmp_op(op) {
            let (x, y) = (self.fold_operand(l)?, self.fold_operand(r)?);
            return Some(self.arith().from_bool(self.arith().compare(c, x, y)));
        }
        if matches!(op, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr) {
            let t = self.fold_condition_binary(b)?;
            return Some(self.arith().from_bool(t));
        }
        let aop: ArithOp = arith_op(op)?;
        if crate::c::lower::facts::is_compound_assign(op) {
            return None;
        }
        let (x, y) = (self.fold_operand(l)?, self.fold_operand(r)?);
        // An operation without an exact encoding is approximated by
        // lowering (a value within bounds): not a constant.
        Self::fold_defined(self.arith().binary(aop, x, y).ok()?)
    }

    /// As lowering's `cond_term`: the truth of `e` as a Boolean term.
    fn fold_condition(&mut self, e: &'a Node<Expression>) -> Option<Term> {
        self.nested(e.span, |l| l.fold_condition_inner(e))
    }

    fn fold_condition_inner(&mut self, e: &'a Node<Expression>) -> Option<Term> {
        match &e.node {
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if let Some(c) = cmp_op(op) {
                    let (x, y) = (self.fold_operand(&b.node.lhs)?, self.fold_operand(&b.node.rhs)?);
                    return Some(self.arith().compare(c, x, y));
                }
                if matches!(op, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr) {
                    return self.fold_condition_binary(b);
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                return Some(Term::not(self.fold_condition(&u.node.operand)?));
            }
            _ => {}
        }
        let v = self.fold(e)?;
        Some(self.arith().truth(&v))
    }

    /// `a && b`, `a || b` (both sides free of effects here). Lowering
    /// evaluates the right side under the guard that the left one does
    /// not decide; with every definedness condition trivially true the
    /// guard changes nothing.
    fn fold_condition_binary(&mut self, b: &'a Node<BinaryOperatorExpression>) -> Option<Term> {
        let x = self.fold_condition(&b.node.lhs)?;
        let y = self.fold_condition(&b.node.rhs)?;
        Some(if b.node.operator.node == BinaryOperator::LogicalAnd { Term::and(vec![x, y]) } else { Term::or(vec![x, y]) })
    }

    /// `__builtin_choose_expr`, `__builtin_constant_p` and
    /// `__builtin_classify_type` when they are gcc's (no definition of that
    /// name in the program, no variable of that name), as
    /// `calls/builtins.rs` gives them, and `__builtin_expect` as
    /// `calls/mod.rs` does.
    fn fold_builtin(&mut self, c: &'a Node<CallExpression>) -> Option<Val> {
        let Expression::Identifier(id) = &c.node.callee.node else { return None };
        let name = id.node.name.as_str();
        if self.types().named(name).is_some() || self.types().signatures().function(name).is_some_and(|f| f.def.is_some()) {
            return None;
        }
        if name == "__builtin_expect" && operand_evaluation(name).is_none() {
            // gcc's signature: `long __builtin_expect(long, long)`; the
            // other operands run for their effects (a constant has none).
            let (first, rest) = c.node.arguments.split_first()?;
            let v = self.fold(first)?;
            for a in rest {
                self.fold(a)?;
            }
            return Some(self.arith().convert(v, self.arith().machine().long()));
        }
        match operand_evaluation(name)? {
            OperandEvaluation::Chosen => {
                let chosen = self.chosen_operand(c).ok()?;
                self.fold(chosen)
            }
            OperandEvaluation::Unevaluated(query) => {
                let operand = c.node.arguments.first()?;
                let known = match query {
                    CompileTimeQuery::ConstantP => {
                        let constant = !self.has_effects(operand) && matches!(self.type_of(operand).ok()?, CType::Int(_)) && self.constant(operand).is_ok();
                        constant.then_some(1)
                    }
                    CompileTimeQuery::ClassifyType => match self.type_of(operand).ok()? {
                        CType::Int(_) => Some(1),
                        CType::Ptr(_) | CType::Array(..) | CType::Function => Some(5),
                        CType::Float(_) => Some(8),
                        _ => None,
                    },
                    CompileTimeQuery::ObjectSize => None,
                };
                Some(self.arith().int(known?))
            }
        }
    }
}

impl<'a, T: super::TypingHost<'a>> ConstantTyping<'a> for T {}
