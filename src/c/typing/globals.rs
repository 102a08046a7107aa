//! How a file-scope name is bound: the one rule ([`GlobalTyping::bind_global`])
//! that decides, for each declarator at file scope, what the name denotes —
//! an integer variable, a pointer variable, an object of its own, a value
//! not modelled — with its type (an array's length completed by its
//! initializer), and whether an earlier declaration of the name already
//! made it (a tentative definition, `extern`).
//!
//! Lowering (`decl.rs`) makes the variables, objects and initial values
//! this decision names; the typing-only reader (`reader.rs`) binds the
//! name to its type. Neither decides it again, so the two bind every
//! global alike (a change to how globals are bound is made here).

use crate::c::lower::Symbol;
use crate::c::types::CType;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;

/// What a file-scope name is bound to, as far as a later declaration of
/// it goes: which kind of symbol its declarations made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GlobalKind {
    /// An integer variable.
    Var,
    /// A pointer variable.
    Ptr,
    /// An object of its own (an array, a struct, an addressed scalar).
    Object,
    /// A value not modelled (floating point, an incomplete object).
    Opaque,
}

impl GlobalKind {
    /// The kind of a symbol lowering made (`None`: no object, or one not
    /// modelled at all).
    pub(crate) fn of_symbol(s: &Symbol) -> Option<GlobalKind> {
        match s {
            Symbol::Var { .. } => Some(GlobalKind::Var),
            Symbol::Ptr(_) => Some(GlobalKind::Ptr),
            Symbol::Object { .. } => Some(GlobalKind::Object),
            Symbol::Opaque { .. } => Some(GlobalKind::Opaque),
            Symbol::Const(_) | Symbol::Typedef(..) | Symbol::Unmodelled { .. } => None,
        }
    }
}

/// What a file-scope declarator of an object makes (see the module's
/// documentation). `again`: an earlier declaration of the name made it
/// already, and this one keeps what it made.
#[derive(Clone, Debug)]
pub(crate) enum GlobalBinding {
    /// An integer variable of type `ty`.
    Var { ty: IntType, again: bool },
    /// A pointer variable to `pointee`.
    Ptr { pointee: CType, again: bool },
    /// An object of its own — an array, a struct, a scalar whose address
    /// is taken — of type `ty`, an array's length completed by its
    /// initializer (when `again`, as declared here: the name keeps the
    /// object, and the type, its first declaration made).
    Object { ty: CType, again: bool },
    /// A floating-point variable: its values are not modelled.
    Float { ty: CType, again: bool },
    /// An object of incomplete type without an initializer (`extern int
    /// a[];`): defined outside the program, its contents unknown.
    Outside { ty: CType },
    /// A variable of a type not modelled (an error when used).
    Unmodelled { what: String },
    /// A function declaration: no object.
    Function,
    /// A variable declared `void` (an error for lowering).
    Void,
}

impl GlobalBinding {
    /// The kind of symbol the binding leaves the name bound to (`None`:
    /// not an object).
    pub(crate) fn kind(&self) -> Option<GlobalKind> {
        match self {
            GlobalBinding::Var { .. } => Some(GlobalKind::Var),
            GlobalBinding::Ptr { .. } => Some(GlobalKind::Ptr),
            GlobalBinding::Object { .. } => Some(GlobalKind::Object),
            GlobalBinding::Float { .. } | GlobalBinding::Outside { .. } => Some(GlobalKind::Opaque),
            GlobalBinding::Unmodelled { .. } | GlobalBinding::Function | GlobalBinding::Void => None,
        }
    }
}

pub(crate) trait GlobalTyping<'a>: super::TypingHost<'a> + super::DeclaratorTyping<'a> + Sized {
    /// What the file-scope declarator of `name`, of declared type `ty`
    /// with initializer `init`, binds the name to, given whether the
    /// program takes its address (`addressed`: it lives in memory) and
    /// what earlier declarations bound it to (`existing`).
    ///
    /// A scalar whose address is taken is an object of its own; an
    /// integer or pointer declared again (a tentative definition,
    /// `extern`) stays the variable it is; an array or struct declared
    /// before keeps its block and type; one of incomplete type without an
    /// initializer is defined outside; else an array's length is completed
    /// by its initializer (reading whose constants is the only thing this
    /// does besides deciding).
    fn bind_global(&mut self, ty: CType, addressed: bool, existing: Option<GlobalKind>, init: Option<&'a Node<Initializer>>) -> GlobalBinding {
        let again = |kind| existing == Some(kind);
        match ty {
            CType::Int(_) | CType::Ptr(_) if addressed => self.own_object(ty, existing, init),
            CType::Int(t) => GlobalBinding::Var { ty: t, again: again(GlobalKind::Var) },
            CType::Ptr(pointee) => GlobalBinding::Ptr { pointee: *pointee, again: again(GlobalKind::Ptr) },
            CType::Float(_) => GlobalBinding::Float { ty, again: again(GlobalKind::Opaque) },
            CType::Array(..) | CType::Record(_) => self.own_object(ty, existing, init),
            CType::Unsupported(what) => GlobalBinding::Unmodelled { what },
            CType::Function => GlobalBinding::Function,
            CType::Void => GlobalBinding::Void,
        }
    }

    /// An object of its own at file scope (see [`GlobalTyping::bind_global`]).
    fn own_object(&mut self, ty: CType, existing: Option<GlobalKind>, init: Option<&'a Node<Initializer>>) -> GlobalBinding {
        if existing == Some(GlobalKind::Object) {
            return GlobalBinding::Object { ty, again: true };
        }
        if self.types().byte_size(&ty).is_none() && init.is_none() {
            return GlobalBinding::Outside { ty };
        }
        GlobalBinding::Object { ty: self.complete_array_type(ty, init), again: false }
    }
}

impl<'a, T: super::TypingHost<'a>> GlobalTyping<'a> for T {}
