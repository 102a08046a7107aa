//! Pointer values as data: a pointer is three integers (block id, byte
//! offset, block size; NULL is block 0), held in terms or, for a pointer
//! variable, in program variables. The lowering of pointer expressions
//! (`mod.rs`) and of loads and stores (`cells.rs`) both build on these.

use crate::c::types::CType;
use crate::term::Term;
use lang_c::ast::*;
use num_traits::ToPrimitive;

/// Largest block whose elements become separate program variables.
pub const MAX_CELLS: usize = 64;

pub(super) use crate::ir::SUMMARY_BASE;

/// A pointer value: terms over the state at the cursor.
#[derive(Clone, Debug)]
pub(crate) struct PtrVal {
    pub base: Term,
    /// Byte offset from the start of the block.
    pub off: Term,
    /// Size of the block in bytes.
    pub size: Term,
    pub pointee: CType,
}

impl PtrVal {
    pub fn null(pointee: CType) -> PtrVal {
        PtrVal { base: Term::int(0), off: Term::int(0), size: Term::int(0), pointee }
    }
}

/// Where a pointer variable keeps its parts. A pointer that the function
/// never reassigns with `=` keeps the base and size it got at its
/// declaration (often constants), so loads through it resolve statically;
/// only its offset is a variable.
#[derive(Clone, Debug)]
pub(crate) struct PtrVar {
    pub base: Term,
    pub off: String,
    pub size: Term,
    /// The base and size variables, when the pointer may be reassigned.
    pub whole: Option<(String, String)>,
    /// The offset of a pointer that never moves (then `off` is unused).
    pub fixed_off: Option<Term>,
    pub pointee: CType,
}

impl PtrVar {
    pub fn value(&self) -> PtrVal {
        let off = self.fixed_off.clone().unwrap_or_else(|| Term::var(self.off.clone()));
        PtrVal { base: self.base.clone(), off, size: self.size.clone(), pointee: self.pointee.clone() }
    }
}

pub(crate) fn is_null_constant(e: &Expression) -> bool {
    match e {
        Expression::Constant(c) => matches!(&c.node, Constant::Integer(i) if i.number.chars().all(|d| d == '0')),
        Expression::Cast(c) => is_null_constant(&c.node.expression.node),
        _ => false,
    }
}

/// `(T*)` with the pointee of a cast, if the type is a pointer.
pub(super) fn pointee_of(t: &CType) -> Option<CType> {
    match t {
        CType::Ptr(p) => Some((**p).clone()),
        _ => None,
    }
}

/// How a type is named in messages.
pub(crate) fn describe(t: &CType) -> &'static str {
    match t {
        CType::Float(_) => "floating-point value",
        CType::Array(..) => "array",
        CType::Record(_) => "struct or union",
        CType::Function => "function",
        CType::Ptr(_) => "pointer",
        CType::Void => "void value",
        CType::Int(_) => "integer",
        CType::Unsupported(_) => "value of an unmodelled type",
    }
}

/// A constant term as a machine integer.
pub(crate) fn const_int(t: &Term) -> Option<i64> {
    t.as_int_const()
}

/// Constant terms as machine integers.
pub(super) trait ConstTerm {
    fn as_int_const(&self) -> Option<i64>;
}

impl ConstTerm for Term {
    fn as_int_const(&self) -> Option<i64> {
        match self {
            Term::Int(c) => c.to_i64(),
            _ => None,
        }
    }
}

