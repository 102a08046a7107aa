//! What each name in scope denotes as far as types go ([`Names`]): the
//! type of an object, an enumeration constant, or a type name. Deciding
//! a type reads names here only, never lowering's symbols (which say
//! where a value is kept: a program variable, a pointer, a block), so
//! what a name's type is does not depend on how lowering stores it.
//!
//! The scopes are C's: the file scope, and for each function body being
//! read (a frame: lowering inlines bodies, so a body's names are not its
//! caller's) its blocks, innermost last. Lowering binds and opens scopes
//! through its own methods (`Lowerer::bind`, `push_scope`, `enter_frame`
//! in `lower/mod.rs`), which keep this table in step with its symbols;
//! the typing-only reader (`reader.rs`, for the elaboration pass) binds
//! and opens scopes here directly.

use crate::c::arith::Val;
use crate::c::lower::Symbol;
use crate::c::types::CType;
use std::collections::HashMap;

/// What a name denotes for typing.
#[derive(Clone, Debug)]
pub(crate) enum Named {
    /// An object (a variable, a parameter) of this type, as an object
    /// (before an array decays); `CType::Unsupported` for one of a type
    /// Tessera does not model.
    Object(CType),
    /// An enumeration constant.
    Const(Val),
    /// A type name, with the alignment an `aligned` attribute gave it (see
    /// [`Symbol::Typedef`]).
    Typedef(CType, Option<u64>),
}

impl Named {
    /// What lowering's symbol `s` denotes for typing.
    pub(crate) fn of_symbol(s: &Symbol) -> Named {
        match s {
            Symbol::Var { ty, .. } => Named::Object(CType::Int(*ty)),
            Symbol::Const(v) => Named::Const(v.clone()),
            Symbol::Typedef(t, a) => Named::Typedef(t.clone(), *a),
            Symbol::Unmodelled { what } => Named::Object(CType::Unsupported(what.clone())),
            Symbol::Ptr(p) => Named::Object(CType::Ptr(Box::new(p.pointee.clone()))),
            Symbol::Object { ty, .. } | Symbol::Opaque { ty } => Named::Object(ty.clone()),
        }
    }
}

/// The names in scope, for typing (see the module's documentation).
#[derive(Clone, Default)]
pub(crate) struct Names {
    file: HashMap<String, Named>,
    /// The scopes of each body being read, outermost body first; each
    /// body's scopes outermost first.
    frames: Vec<Vec<HashMap<String, Named>>>,
}

impl Names {
    /// Start reading a function body whose scopes start as `scopes`.
    pub fn enter_frame(&mut self, scopes: Vec<HashMap<String, Named>>) {
        self.frames.push(scopes);
    }
    pub fn leave_frame(&mut self) {
        self.frames.pop();
    }
    /// Open a block scope in the body being read (none outside a body).
    pub fn push_scope(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.push(HashMap::new());
        }
    }
    pub fn pop_scope(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.pop();
        }
    }
    /// Bind `name` in the innermost scope open (the file scope when no
    /// block scope is).
    pub fn bind(&mut self, name: &str, n: Named) {
        match self.frames.last_mut().and_then(|f| f.last_mut()) {
            Some(scope) => {
                scope.insert(name.to_string(), n);
            }
            None => self.bind_file_scope(name, n),
        }
    }
    /// What `name` denotes at file scope.
    pub fn file_scope(&self, name: &str) -> Option<&Named> {
        self.file.get(name)
    }
    /// Every name at file scope, with what it denotes.
    pub fn file_scope_names(&self) -> impl Iterator<Item = (&String, &Named)> {
        self.file.iter()
    }
    /// Bind `name` at file scope.
    pub fn bind_file_scope(&mut self, name: &str, n: Named) {
        self.file.insert(name.to_string(), n);
    }
    /// What `name` denotes: innermost scope of the body being read first,
    /// then the file scope.
    pub fn lookup(&self, name: &str) -> Option<&Named> {
        if let Some(n) = self.frames.last().and_then(|f| f.iter().rev().find_map(|s| s.get(name))) {
            return Some(n);
        }
        self.file.get(name)
    }
}
