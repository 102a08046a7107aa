//! The static C type of an expression, without evaluating it.

use super::{Lowerer, Symbol};
use crate::c::types::{char_literal, integer_literal, string_literal, CType};
use crate::error::Result;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;
use super::operators::cmp_op;
use super::facts::is_compound_assign;

impl<'a> Lowerer<'a> {
    // ---- static types

    /// The C type of an expression's value, without evaluating it (arrays
    /// and functions decayed to pointers).
    pub fn type_of(&mut self, e: &'a Node<Expression>) -> Result<CType> {
        Ok(self.object_type(e)?.decay())
    }

    /// The C type of an expression as an object (before arrays decay):
    /// what `sizeof` and `&` see.
    pub fn object_type(&mut self, e: &'a Node<Expression>) -> Result<CType> {
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
                Some(Symbol::Object { ty, .. } | Symbol::Opaque { ty }) => ty.clone(),
                None if self.functions.contains_key(&id.node.name) => CType::Function,
                _ => return Err(self.syntax(e.span, format!("undeclared identifier `{}`", id.node.name))),
            },
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => CType::Int(integer_literal(i, &self.arith.machine).map_err(|m| self.unsupported(c.span, m))?.1),
                Constant::Character(s) => CType::Int(char_literal(s, &self.arith.machine).map_err(|m| self.unsupported(c.span, m))?.1),
                Constant::Float(f) => CType::Float(match f.suffix.format {
                    FloatFormat::Float => self.arith.machine.sizeof_float,
                    FloatFormat::LongDouble => crate::c::types::LONG_DOUBLE,
                    _ => self.arith.machine.sizeof_double,
                }),
            },
            Expression::Call(c) => match &c.node.callee.node {
                Expression::Identifier(id) if self.lookup(&id.node.name).is_none() => {
                    let n = id.node.name.as_str();
                    if let Some(f) = self.functions.get(n).filter(|f| f.def.is_some()) {
                        f.ret.clone()
                    } else if let Some(t) = self.nondet_type(n) {
                        CType::Int(t)
                    } else if matches!(n.strip_prefix(super::library::NONDET_PREFIX), Some("float" | "double" | "long_double")) {
                        CType::Float(self.arith.machine.sizeof_double)
                    } else if n == "__builtin_expect" {
                        CType::Int(self.arith.machine.long())
                    } else if let Some(how) = super::builtins::operand_evaluation(n) {
                        use super::builtins::{CompileTimeQuery, OperandEvaluation};
                        match how {
                            OperandEvaluation::Chosen => {
                                let e = self.chosen_operand(c)?;
                                self.type_of(e)?
                            }
                            OperandEvaluation::Unevaluated(CompileTimeQuery::ObjectSize) => CType::Int(self.arith.machine.size_t()),
                            OperandEvaluation::Unevaluated(_) => CType::Int(self.arith.machine.int()),
                        }
                    } else if super::memory::ALLOCATORS.contains(&n) {
                        CType::Ptr(Box::new(CType::Void))
                    } else if let Some(f) = self.functions.get(n) {
                        f.ret.clone()
                    } else {
                        // C89's implicit declaration `int f()`.
                        CType::Int(self.arith.machine.int())
                    }
                }
                // Through a function pointer: the targets' common return type.
                _ => self.pointer_call_type(c)?,
            },
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::PostIncrement
                | UnaryOperator::PostDecrement
                | UnaryOperator::PreIncrement
                | UnaryOperator::PreDecrement => self.type_of(&u.node.operand)?,
                UnaryOperator::Plus | UnaryOperator::Minus | UnaryOperator::Complement => {
                    match self.type_of(&u.node.operand)? {
                        CType::Int(t) => CType::Int(self.arith.machine.promote(t)),
                        other => other,
                    }
                }
                UnaryOperator::Negate => CType::Int(self.arith.machine.int()),
                UnaryOperator::Address => CType::Ptr(Box::new(self.object_type(&u.node.operand)?)),
                UnaryOperator::Indirection => match self.type_of(&u.node.operand)? {
                    CType::Ptr(p) => *p,
                    other => CType::Unsupported(format!("dereference of a non-pointer ({other:?})")),
                },
            },
            Expression::Cast(c) => self.type_name(&c.node.type_name)?,
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if cmp_op(op).is_some() || matches!(op, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr) {
                    CType::Int(self.arith.machine.int())
                } else if matches!(op, BinaryOperator::Assign) || is_compound_assign(op) {
                    self.type_of(&b.node.lhs)?
                } else if matches!(op, BinaryOperator::ShiftLeft | BinaryOperator::ShiftRight) {
                    match self.type_of(&b.node.lhs)? {
                        CType::Int(t) => CType::Int(self.arith.machine.promote(t)),
                        other => other,
                    }
                } else if matches!(op, BinaryOperator::Index) {
                    // The element, as an object (`a[i]` may be an array).
                    match (self.type_of(&b.node.lhs)?, self.type_of(&b.node.rhs)?) {
                        (CType::Ptr(p), _) | (_, CType::Ptr(p)) => *p,
                        _ => CType::Unsupported("indexing a non-pointer".into()),
                    }
                } else {
                    match (self.type_of(&b.node.lhs)?, self.type_of(&b.node.rhs)?) {
                        (CType::Int(x), CType::Int(y)) => CType::Int(self.arith.machine.usual(x, y)),
                        (CType::Float(x), CType::Float(y)) => CType::Float(x.max(y)),
                        (CType::Float(x), CType::Int(_)) | (CType::Int(_), CType::Float(x)) => CType::Float(x),
                        (CType::Ptr(_), CType::Ptr(_)) if matches!(op, BinaryOperator::Minus) => CType::Int(self.arith.machine.ptrdiff_t()),
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
                    (CType::Int(x), CType::Int(y)) => CType::Int(self.arith.machine.usual(x, y)),
                    (CType::Void, _) | (_, CType::Void) => CType::Void,
                    (CType::Unsupported(w), _) | (_, CType::Unsupported(w)) => CType::Unsupported(w),
                    (CType::Float(x), CType::Float(y)) => CType::Float(x.max(y)),
                    (CType::Float(x), _) | (_, CType::Float(x)) => CType::Float(x),
                    // `c ? p : 0` has the pointer's type.
                    (CType::Ptr(p), _) | (_, CType::Ptr(p)) => CType::Ptr(p),
                    (t, _) => t,
                }
            }
            Expression::Comma(es) => match es.last() {
                Some(x) => self.type_of(x)?,
                None => CType::Void,
            },
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => CType::Int(self.arith.machine.size_t()),
            Expression::StringLiteral(s) => {
                let elem = string_literal(&s.node).map(|(t, _)| t).unwrap_or(IntType::CHAR);
                CType::Ptr(Box::new(CType::Int(elem)))
            }
            // The value of `({ ...; (T *) x; })` (`container_of`) has the
            // cast's type; other last expressions may use the block's own
            // declarations, which are not in scope here.
            Expression::Statement(s) => match last_expression(s) {
                Some(x) if matches!(x.node, Expression::Cast(_)) => self.type_of(x)?,
                _ => CType::Unsupported("the type of a statement expression".into()),
            },
            Expression::Member(m) => self.member_of(m)?.ty,
            Expression::VaArg(v) => self.type_name(&v.node.type_name)?,
            Expression::CompoundLiteral(c) => self.type_name(&c.node.type_name)?,
            _ => CType::Unsupported("this expression".into()),
        })
    }
}

/// The expression whose value a statement expression `({ ...; x; })` has.
pub(super) fn last_expression<'a>(s: &'a Node<Statement>) -> Option<&'a Node<Expression>> {
    let Statement::Compound(items) = &s.node else { return None };
    match &items.last()?.node {
        BlockItem::Statement(st) => match &st.node {
            Statement::Expression(Some(x)) => Some(x),
            _ => None,
        },
        _ => None,
    }
}
