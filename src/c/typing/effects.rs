//! Whether evaluating an expression may do more than read variables, and
//! the types of the nondeterministic-value functions: questions about the
//! program's text and its functions' signatures, answered by the typing
//! state alone (constants are refused when they have effects, see
//! `constants.rs`; lowering orders evaluation by them, see `expr.rs`).

use super::Types;
use crate::c::lower::calls::builtins::{operand_evaluation, OperandEvaluation};
use crate::c::lower::calls::library::NONDET_PREFIX;
use crate::c::lower::facts::is_compound_assign;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;

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

/// The variables an expression reads and writes (see
/// [`Types::footprint`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Footprint {
    pub reads: std::collections::HashSet<String>,
    pub writes: std::collections::HashSet<String>,
}

impl Footprint {
    /// Whether neither writes what the other reads or writes: then the
    /// two evaluate alike in either order.
    pub(crate) fn apart_from(&self, other: &Footprint) -> bool {
        self.writes.is_disjoint(&other.reads) && other.writes.is_disjoint(&self.reads)
    }
}

impl Types<'_> {
    /// Whether evaluating `e` may do more than read variables: assign, call
    /// a function (other than `__VERIFIER_nondet_*`, whose fresh value
    /// changes nothing), or divide by a value that might be zero (its
    /// `assume divisor != 0` must not be hoisted out of a condition).
    pub(crate) fn has_effects(&self, e: &Node<Expression>) -> bool {
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
                        let defined = self.signatures().is_defined(n);
                        if !defined && matches!(operand_evaluation(n), Some(OperandEvaluation::Unevaluated(_))) {
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

    /// What evaluating `e` reads and writes, by variable name, where that
    /// is all it does: `None` when it calls a function, writes through a
    /// pointer, an element or a member, or writes a variable whose address
    /// the program takes (`addressed`: memory read elsewhere may be it).
    /// Reads through pointers are allowed: with these writes they cannot
    /// meet another operand's.
    pub(crate) fn footprint(&self, e: &Node<Expression>, addressed: &std::collections::HashSet<String>) -> Option<Footprint> {
        let mut f = Footprint::default();
        self.footprint_into(e, addressed, &mut f).then_some(f)
    }

    fn footprint_into(&self, e: &Node<Expression>, addressed: &std::collections::HashSet<String>, f: &mut Footprint) -> bool {
        let written = |x: &Node<Expression>, f: &mut Footprint| match &x.node {
            Expression::Identifier(id) if !addressed.contains(&id.node.name) => {
                f.writes.insert(id.node.name.clone());
                f.reads.insert(id.node.name.clone());
                true
            }
            _ => false,
        };
        match &e.node {
            Expression::Identifier(id) => {
                f.reads.insert(id.node.name.clone());
                true
            }
            Expression::Constant(_) | Expression::StringLiteral(_) | Expression::SizeOfTy(_) | Expression::AlignOf(_) | Expression::OffsetOf(_) => true,
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::PostIncrement | UnaryOperator::PostDecrement | UnaryOperator::PreIncrement | UnaryOperator::PreDecrement => written(&u.node.operand, f),
                _ => self.footprint_into(&u.node.operand, addressed, f),
            },
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if matches!(op, BinaryOperator::Assign) || is_compound_assign(op) {
                    return written(&b.node.lhs, f) && self.footprint_into(&b.node.rhs, addressed, f);
                }
                self.footprint_into(&b.node.lhs, addressed, f) && self.footprint_into(&b.node.rhs, addressed, f)
            }
            Expression::Cast(c) => self.footprint_into(&c.node.expression, addressed, f),
            Expression::Member(m) => self.footprint_into(&m.node.expression, addressed, f),
            Expression::Conditional(c) => {
                self.footprint_into(&c.node.condition, addressed, f)
                    && self.footprint_into(&c.node.then_expression, addressed, f)
                    && self.footprint_into(&c.node.else_expression, addressed, f)
            }
            Expression::Comma(es) => es.iter().all(|x| self.footprint_into(x, addressed, f)),
            _ => false,
        }
    }

    /// The type of a nondeterministic-value function not defined in the file.
    pub(crate) fn nondet_type(&self, name: &str) -> Option<IntType> {
        let suffix = name.strip_prefix(NONDET_PREFIX)?;
        let info = self.signatures().function(name);
        if info.is_some_and(|f| f.def.is_some()) {
            return None;
        }
        self.machine.nondet_type(suffix).or_else(|| info.and_then(|f| f.ret.int()))
    }
}
