//! Lvalues: where a C object of integer type lives (a program variable,
//! memory cells, or nowhere modelled), and the loads from and stores to it.

use crate::c::lower::typed::*;
use super::{LValue, Lowerer, Symbol, Unmodelled};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use crate::c::arith::Val;
use crate::c::types::CType;
use crate::error::Result;
use crate::ir::{Action, IntType};
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;

impl<'a> Lowerer<'a> {
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
                Some(Symbol::Opaque { ty: CType::Float(_) }) => Ok(LValue::Opaque { ty: IntType::LONG, holds: Unmodelled::Float, at: self.span(e.span) }),
                // Read in its own initializer (`int x = x + 1;`): indeterminate.
                Some(Symbol::Opaque { ty: CType::Int(t) }) => Ok(LValue::Opaque { ty: *t, holds: Unmodelled::Int, at: self.span(e.span) }),
                // A scalar whose address is taken: its cell in memory.
                Some(Symbol::Object { ptr, ty: CType::Int(t) }) => Ok(LValue::Mem { ptr: ptr.clone(), ty: *t, at: self.span(e.span) }),
                Some(Symbol::Opaque { ty } | Symbol::Object { ty, .. }) => {
                    let what = super::memory::describe(ty);
                    Err(self.unsupported(e.span, format!("the {what} `{}` used as an integer value", id.node.name)))
                }
                None => {
                    if self.types.signatures().is_function(&id.node.name) {
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
                if let (Some(c), Some((lo, hi))) = (self.flow.cursor(), v.range.clone()) {
                    let cap = c
                        .below(name)
                        .filter_map(|(b, k)| self.cfg.type_of(b).and_then(|t| self.arith.type_range(t)).map(|(_, m)| m - k))
                        .min();
                    if let Some(cap) = cap.filter(|cap| cap < &hi && cap >= &lo) {
                        v.range = Some((lo, cap));
                    }
                }
                // Narrow by what the current path implies (`assume x > 0`).
                if let Some((lo, hi)) = self.flow.cursor().and_then(|c| c.bounds(name)) {
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
            LValue::Opaque { ty, holds, at } => {
                let v = self.cfg.temp("opaque", *ty);
                self.emit(Action::Choose(v.clone()));
                self.note_approximation(at.clone(), crate::ir::Approximation::FloatingPointOrBitField);
                match *holds {
                    Unmodelled::Float => Val { term: Term::var(v), ty: *ty, range: None },
                    Unmodelled::Int => {
                        self.havoc(&v, *ty);
                        self.arith.var(&v, *ty)
                    }
                    Unmodelled::BitField { declared, width } => {
                        // Any value the field's bits hold, in its promoted type.
                        let (lo, hi): (BigInt, BigInt) = if declared.is_signed() && declared != IntType::Bool {
                            (-(BigInt::one() << (width - 1)), (BigInt::one() << (width - 1)) - 1)
                        } else {
                            (BigInt::zero(), (BigInt::one() << width) - 1)
                        };
                        self.emit_assume(Term::and(vec![Term::le(Term::Int(lo.clone()), Term::var(v.clone())), Term::le(Term::var(v.clone()), Term::Int(hi.clone()))]));
                        Val { term: Term::var(v), ty: *ty, range: Some((lo, hi)) }
                    }
                }
            }
        }
    }

    /// An object in memory used as an integer lvalue (`*p`, `a[i]`, `s.f`,
    /// `p->f`); floating-point objects and bit-fields are opaque.
    pub(super) fn object_lvalue(&mut self, e: &'a Node<Expression>) -> Result<LValue> {
        let at = self.span(e.span);
        let bit_field = match &e.node {
            Expression::Member(m) => self.member_of(m)?.bits.map(|(_, width)| width),
            _ => None,
        };
        let addr = self.address_of_object(e)?;
        match addr.pointee.clone() {
            CType::Int(declared) if bit_field.is_some() => {
                let width = bit_field.unwrap_or_default();
                let Some(ty) = crate::c::meaning::bit_field_promotion(declared, width, self.arith.machine()) else {
                    return Err(self.unsupported(e.span, format!("a bit-field of {width} bits of type {declared} (gcc computes it in the field's width)")));
                };
                Ok(LValue::Opaque { ty, holds: Unmodelled::BitField { declared, width }, at })
            }
            CType::Int(_) => {
                let (ptr, ty) = self.access(addr, e.span)?;
                Ok(LValue::Mem { ptr, ty, at })
            }
            CType::Float(_) => Ok(LValue::Opaque { ty: IntType::LONG, holds: Unmodelled::Float, at }),
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
    pub(super) fn read_identifier(&mut self, e: &'a Node<Expression>) -> Result<Val> {
        if let Expression::Identifier(id) = &e.node {
            if let Some(Symbol::Const(v)) = self.lookup(&id.node.name) {
                return Ok(v.clone());
            }
        }
        let lv = self.lvalue(e)?;
        Ok(self.load(&lv))
    }
}
