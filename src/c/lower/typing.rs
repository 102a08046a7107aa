//! The static C type of an expression, without evaluating it.

use super::{Lowerer, Symbol};
use crate::c::types::{char_literal, integer_literal, promote, string_literal, usual, CType};
use crate::error::Result;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;
use super::expr::cmp_op;
use super::facts::is_compound_assign;

impl<'a> Lowerer<'a> {
    // ---- static types

    /// The C type of an expression, without evaluating it.
    pub fn type_of(&mut self, e: &'a Node<Expression>) -> Result<CType> {
        self.enter(e.span)?;
        let r = self.type_of_inner(e);
        self.leave();
        r
    }

    fn type_of_inner(&mut self, e: &'a Node<Expression>) -> Result<CType> {
        Ok(match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Symbol::Var { ty, .. }) => CType::Int(*ty),
                Some(Symbol::Const(v)) => CType::Int(v.ty),
                Some(Symbol::Unmodelled { what }) => CType::Unsupported(what.clone()),
                Some(Symbol::Ptr(p)) => CType::Ptr(Box::new(p.pointee.clone())),
                _ => return Err(self.syntax(e.span, format!("undeclared identifier `{}`", id.node.name))),
            },
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => CType::Int(integer_literal(i, self.arith.model).map_err(|m| self.unsupported(c.span, m))?.1),
                Constant::Character(s) => CType::Int(char_literal(s).map_err(|m| self.unsupported(c.span, m))?.1),
                Constant::Float(_) => CType::Unsupported("floating point".into()),
            },
            Expression::Call(c) => match &c.node.callee.node {
                Expression::Identifier(id) => {
                    let n = id.node.name.as_str();
                    if let Some(f) = self.functions.get(n).filter(|f| f.def.is_some()) {
                        f.ret.clone()
                    } else if let Some(t) = self.nondet_type(n) {
                        CType::Int(t)
                    } else if n == "__builtin_expect" {
                        CType::Int(self.arith.model.long())
                    } else if super::memory::ALLOCATORS.contains(&n) {
                        CType::Ptr(Box::new(CType::Void))
                    } else if let Some(f) = self.functions.get(n) {
                        f.ret.clone()
                    } else {
                        // C89's implicit declaration `int f()`.
                        CType::Int(IntType::INT)
                    }
                }
                _ => CType::Unsupported("function pointer".into()),
            },
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::PostIncrement
                | UnaryOperator::PostDecrement
                | UnaryOperator::PreIncrement
                | UnaryOperator::PreDecrement => self.type_of(&u.node.operand)?,
                UnaryOperator::Plus | UnaryOperator::Minus | UnaryOperator::Complement => {
                    match self.type_of(&u.node.operand)? {
                        CType::Int(t) => CType::Int(promote(t)),
                        other => other,
                    }
                }
                UnaryOperator::Negate => CType::Int(IntType::INT),
                UnaryOperator::Address => CType::Ptr(Box::new(self.type_of(&u.node.operand)?)),
                UnaryOperator::Indirection => match self.type_of(&u.node.operand)? {
                    CType::Ptr(p) => *p,
                    other => CType::Unsupported(format!("dereference of a non-pointer ({other:?})")),
                },
            },
            Expression::Cast(c) => self.type_name(&c.node.type_name)?,
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if cmp_op(op).is_some() || matches!(op, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr) {
                    CType::Int(IntType::INT)
                } else if matches!(op, BinaryOperator::Assign) || is_compound_assign(op) {
                    self.type_of(&b.node.lhs)?
                } else if matches!(op, BinaryOperator::ShiftLeft | BinaryOperator::ShiftRight) {
                    match self.type_of(&b.node.lhs)? {
                        CType::Int(t) => CType::Int(promote(t)),
                        other => other,
                    }
                } else if matches!(op, BinaryOperator::Index) {
                    match (self.type_of(&b.node.lhs)?, self.type_of(&b.node.rhs)?) {
                        (CType::Ptr(p), _) | (_, CType::Ptr(p)) => *p,
                        _ => CType::Unsupported("indexing a non-pointer".into()),
                    }
                } else {
                    match (self.type_of(&b.node.lhs)?, self.type_of(&b.node.rhs)?) {
                        (CType::Int(x), CType::Int(y)) => CType::Int(usual(x, y)),
                        (CType::Ptr(_), CType::Ptr(_)) if matches!(op, BinaryOperator::Minus) => CType::Int(self.arith.model.long()),
                        (CType::Ptr(p), CType::Int(_)) if matches!(op, BinaryOperator::Plus | BinaryOperator::Minus) => CType::Ptr(p),
                        (CType::Int(_), CType::Ptr(p)) if matches!(op, BinaryOperator::Plus) => CType::Ptr(p),
                        (CType::Ptr(_), _) | (_, CType::Ptr(_)) => CType::Unsupported("this operator on pointers".into()),
                        (CType::Unsupported(w), _) | (_, CType::Unsupported(w)) => CType::Unsupported(w),
                        _ => return Err(self.syntax(b.span, "arithmetic on a void value")),
                    }
                }
            }
            Expression::Conditional(c) => {
                match (self.type_of(&c.node.then_expression)?, self.type_of(&c.node.else_expression)?) {
                    (CType::Int(x), CType::Int(y)) => CType::Int(usual(x, y)),
                    (CType::Void, _) | (_, CType::Void) => CType::Void,
                    (CType::Unsupported(w), _) | (_, CType::Unsupported(w)) => CType::Unsupported(w),
                    (CType::Ptr(p), CType::Ptr(_)) => CType::Ptr(p),
                    (CType::Ptr(_), _) | (_, CType::Ptr(_)) => CType::Unsupported("`?:` mixing pointers and integers".into()),
                }
            }
            Expression::Comma(es) => match es.last() {
                Some(x) => self.type_of(x)?,
                None => CType::Void,
            },
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => CType::Int(self.arith.model.ulong()),
            Expression::StringLiteral(s) => {
                let elem = string_literal(&s.node).map(|(t, _)| t).unwrap_or(IntType::CHAR);
                CType::Ptr(Box::new(CType::Int(elem)))
            }
            Expression::Statement(_) => CType::Unsupported("the type of a statement expression".into()),
            Expression::Member(_) => CType::Unsupported("struct".into()),
            _ => CType::Unsupported("this expression".into()),
        })
    }
}
