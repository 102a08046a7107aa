//! Conditions: Boolean terms for `e != 0`, and branching of the cursor on
//! a condition (short-circuit operators with effects become control flow).

use crate::c::lower::typed::*;
use super::operators::cmp_op;
use super::Lowerer;
use crate::c::cfg::Cursor;
use crate::error::Result;
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;

impl<'a> Lowerer<'a> {
    // ---- conditions

    /// A Boolean term for `e != 0`, emitting `e`'s effects at the cursor.
    pub fn cond_term(&mut self, e: &'a Node<Expression>) -> Result<Term> {
        self.enter(e.span)?;
        let r = self.cond_term_inner(e);
        self.leave();
        r
    }

    fn cond_term_inner(&mut self, e: &'a Node<Expression>) -> Result<Term> {
        match &e.node {
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if let Some(c) = cmp_op(op) {
                    if self.is_pointer(&b.node.lhs)? || self.is_pointer(&b.node.rhs)? {
                        return self.pointer_compare(c, &b.node.lhs, &b.node.rhs, b.span);
                    }
                    let (x, y) = self.operands(&b.node.lhs, &b.node.rhs)?;
                    return Ok(self.arith.compare(c, x, y));
                }
                if matches!(op, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr) && !self.has_effects(&b.node.rhs) {
                    return self.cond_term_binary(b);
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                return Ok(Term::not(self.cond_term(&u.node.operand)?));
            }
            _ => {}
        }
        if self.is_pointer(e)? {
            return self.pointer_truth(e);
        }
        match self.eval(e, true)? {
            Some(v) => Ok(self.arith.truth(&v)),
            None => Err(self.syntax(e.span, "a void expression used as a condition")),
        }
    }

    /// `a && b`, `a || b` with a side-effect-free `b`.
    /// The right side is evaluated only when the left one does not decide:
    /// its assumptions are guarded by that.
    pub(super) fn cond_term_binary(&mut self, b: &'a Node<BinaryOperatorExpression>) -> Result<Term> {
        let x = self.cond_term(&b.node.lhs)?;
        let and = b.node.operator.node == BinaryOperator::LogicalAnd;
        let runs_right = if and { x.clone() } else { Term::not(x.clone()) };
        let y = self.guarded(runs_right, |l| l.cond_term(&b.node.rhs))?;
        Ok(if and { Term::and(vec![x, y]) } else { Term::or(vec![x, y]) })
    }

    /// Split the cursor on a condition: the cursors where `e` is true and
    /// those where it is false. Short-circuit operators with effects on the
    /// right become control flow.
    pub fn branch(&mut self, e: &'a Node<Expression>) -> Result<(Vec<Cursor>, Vec<Cursor>)> {
        self.enter(e.span)?;
        let r = self.branch_inner(e);
        self.leave();
        r
    }

    fn branch_inner(&mut self, e: &'a Node<Expression>) -> Result<(Vec<Cursor>, Vec<Cursor>)> {
        match &e.node {
            Expression::BinaryOperator(b)
                if matches!(b.node.operator.node, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr)
                    && self.has_effects(&b.node.rhs) =>
            {
                return self.branch_binary(b);
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                let (t, f) = self.branch(&u.node.operand)?;
                return Ok((f, t));
            }
            Expression::Comma(es) if !es.is_empty() => {
                let n = es.len();
                for x in &es[..n - 1] {
                    self.effect(x)?;
                }
                return self.branch(&es[n - 1]);
            }
            Expression::Conditional(c) if self.has_effects(&c.node.then_expression) || self.has_effects(&c.node.else_expression) => {
                let (ts, fs) = self.branch(&c.node.condition)?;
                self.join_here(ts, e.span, "?:");
                let (t1, f1) = self.branch(&c.node.then_expression)?;
                self.join_here(fs, e.span, "?:");
                let (t2, f2) = self.branch(&c.node.else_expression)?;
                return Ok(([t1, t2].concat(), [f1, f2].concat()));
            }
            Expression::Call(c) => {
                // `if (__VERIFIER_nondet_int())`: both ways, no temporary
                // (every nondet type has a zero and a non-zero value).
                if let Expression::Identifier(id) = &c.node.callee.node {
                    if c.node.arguments.is_empty() && self.nondet_type(&id.node.name).is_some() {
                        return Ok(match self.flow.take() {
                            Some(cur) => (vec![cur.clone()], vec![cur]),
                            None => (vec![], vec![]),
                        });
                    }
                }
            }
            _ => {}
        }
        let c = self.cond_term(e)?;
        let Some(cur) = self.flow.take() else {
            return Ok((vec![], vec![]));
        };
        let t = cur.clone().assume(c.clone());
        let f = cur.assume(Term::not(c));
        Ok((t.into_iter().collect(), f.into_iter().collect()))
    }

    pub(super) fn branch_binary(&mut self, b: &'a Node<BinaryOperatorExpression>) -> Result<(Vec<Cursor>, Vec<Cursor>)> {
        let (t1, f1) = self.branch(&b.node.lhs)?;
        if b.node.operator.node == BinaryOperator::LogicalAnd {
            self.join_here(t1, b.span, "&&");
            let (t2, f2) = self.branch(&b.node.rhs)?;
            Ok((t2, [f1, f2].concat()))
        } else {
            self.join_here(f1, b.span, "||");
            let (t2, f2) = self.branch(&b.node.rhs)?;
            Ok(([t1, t2].concat(), f2))
        }
    }
}
