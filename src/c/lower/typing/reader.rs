//! Reading types without lowering ([`TypingReader`]): the typing state,
//! the file-scope declarations and the functions' signatures read into
//! it, and nothing else — no graph, no variables, no initial values. The
//! elaboration pass (`elaborate.rs`) decides every expression's type on it.
//!
//! It binds each file-scope name to what lowering binds it to, as far as
//! typing sees it (`decl.rs`, `globals.rs`): the declared type, an array's
//! length completed by its initializer, a redeclaration keeping the
//! object an earlier one made (a tentative definition, `extern`). The
//! initializers are read for their types (in the scope lowering evaluates
//! them in), so every struct met at file scope is met, and numbered, as
//! lowering meets it.
//!
//! Where lowering would reject the file, the reader may accept it or not:
//! lowering stops at the same place either way (see `elaborate.rs`). Where
//! the evaluator does not decide a constant (`constants.rs`), the reader
//! has no lowering to fall back to: such a constant is not one here (an
//! array of that length is of variable length), which is what the
//! fall-back gives on every program measured (see `constant.rs`).

use super::prelude::*;
use super::{Named, Types};
use crate::c::arith::Val;
use crate::c::lower::{facts, Storage, Symbol};
use crate::c::types::CType;
use crate::error::Result;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// What a file-scope name is bound to, as far as a later declaration of
/// it goes (see `decl.rs`): which kind of symbol lowering made.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Global {
    /// An integer variable.
    Var,
    /// A pointer variable.
    Ptr,
    /// An object of its own (an array, a struct, an addressed scalar).
    Object,
    /// A value not modelled (floating point, an incomplete object).
    Opaque,
}

/// The typing state of a translation unit, read without lowering (see the
/// module's documentation).
pub(crate) struct TypingReader<'a> {
    pub(super) types: Types<'a>,
    /// The nesting depth, counted as lowering counts it.
    depth: usize,
    /// The kind of each file-scope object declared so far.
    globals: HashMap<String, Global>,
    /// The globals whose address the program takes (they live in memory).
    addressed: HashSet<String>,
}

/// What the elaboration pass asks of the calls (`calls/`, which know what
/// each body does): once the file scope is read, the defined functions
/// used as values; the functions a call of some may reach.
pub(crate) trait CallGraph {
    fn index_bodies(&mut self, functions: &super::Signatures<'_>) -> Vec<String>;
    fn reachable(&self, functions: &super::Signatures<'_>, roots: Vec<String>) -> HashSet<String>;
}

impl<'a> super::TypingHost<'a> for TypingReader<'a> {
    fn types(&self) -> &Types<'a> {
        &self.types
    }
    fn types_mut(&mut self) -> &mut Types<'a> {
        &mut self.types
    }
    fn bind(&mut self, name: &str, sym: Symbol) {
        self.types.names.bind(name, Named::of_symbol(&sym));
    }
    fn enter(&mut self, s: lang_c::span::Span) -> Result<()> {
        self.depth += 1;
        if self.depth > crate::c::lower::flow::MAX_DEPTH {
            return Err(self.unsupported(s, "statements or expressions nested too deeply"));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
    fn evaluate_constant(&mut self, e: &'a Node<Expression>) -> (Result<Val>, bool) {
        (Err(self.unsupported(e.span, "a non-constant expression where C requires a constant")), false)
    }
}

impl<'a> TypingReader<'a> {
    pub(crate) fn new(unit: &'a TranslationUnit, types: Types<'a>) -> TypingReader<'a> {
        TypingReader { types, depth: 0, globals: HashMap::new(), addressed: facts::addressed_in_unit(unit) }
    }

    /// The file-scope declarations and the functions' signatures, then
    /// the functions used as values (from `calls`); each initializer is
    /// read with `initializer` (see `elaborate.rs`).
    pub(super) fn file_scope(&mut self, unit: &'a TranslationUnit, calls: &mut dyn CallGraph, initializer: &mut dyn FnMut(&mut Self, &'a Node<Initializer>)) -> Result<()> {
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::Declaration(d) => {
                    self.declarators(d, |r, init, name, ty, storage| r.global(d, init, name, ty, storage, &mut *initializer))?;
                }
                ExternalDeclaration::FunctionDefinition(f) => self.function_definition(f)?,
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        let values = calls.index_bodies(self.types.signatures());
        self.types.signatures_mut().set_values(values);
        Ok(())
    }

    /// A file-scope object `name` of type `ty`, bound as lowering binds it
    /// (`Lowerer::object_declarator`, `global_variable`, `global_object`),
    /// its initializer read in the scope lowering evaluates it in.
    fn global(
        &mut self,
        decl: &'a Node<Declaration>,
        init: &'a Node<InitDeclarator>,
        name: String,
        ty: CType,
        _storage: Storage,
        initializer: &mut dyn FnMut(&mut Self, &'a Node<Initializer>),
    ) -> Result<()> {
        let d = &init.node.declarator.node;
        let (attrs, inherited) = self.declaration_alignment(&decl.node.specifiers, d)?;
        let user = match (attrs.aligned, inherited) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        self.types.declared_alignment(&name, user);
        let value = init.node.initializer.as_ref();
        let node = init as *const Node<InitDeclarator> as usize;
        let complete = self.complete_array_type(ty.clone(), value);
        self.types.decided.declared.insert(node, (complete, _storage.is_static, _storage.is_extern));
        let addressed = self.addressed.contains(&name);
        let existing = self.globals.get(&name).copied();
        match &ty {
            CType::Int(_) | CType::Ptr(_) if addressed => self.global_object(name, ty, value, initializer),
            CType::Int(_) => {
                // Its constant initializer is evaluated before the name is
                // bound (a tentative definition keeps the variable).
                if let Some(i) = value {
                    initializer(self, i);
                }
                if existing != Some(Global::Var) {
                    self.bind_global(&name, Global::Var, ty);
                }
            }
            CType::Unsupported(_) => self.types.names.bind_file_scope(&name, Named::Object(ty)),
            CType::Ptr(_) | CType::Float(_) => {
                let kind = if matches!(ty, CType::Ptr(_)) { Global::Ptr } else { Global::Opaque };
                if existing != Some(kind) {
                    self.bind_global(&name, kind, ty);
                }
                if let Some(i) = value {
                    initializer(self, i);
                }
            }
            CType::Array(..) | CType::Record(_) => self.global_object(name, ty, value, initializer),
            CType::Function | CType::Void => {}
        }
        Ok(())
    }

    /// An object of its own at file scope (see `Lowerer::global_object`):
    /// one declared before stays; one of incomplete type without an
    /// initializer is opaque; else its type is completed by its
    /// initializer, and it is in scope in that initializer.
    fn global_object(&mut self, name: String, ty: CType, value: Option<&'a Node<Initializer>>, initializer: &mut dyn FnMut(&mut Self, &'a Node<Initializer>)) {
        if self.globals.get(&name) == Some(&Global::Object) {
            if let Some(i) = value {
                initializer(self, i);
            }
            return;
        }
        if self.types.byte_size(&ty).is_none() && value.is_none() {
            self.bind_global(&name, Global::Opaque, ty);
            return;
        }
        let ty = self.complete_array_type(ty, value);
        self.bind_global(&name, Global::Object, ty);
        if let Some(i) = value {
            initializer(self, i);
        }
    }

    fn bind_global(&mut self, name: &str, kind: Global, ty: CType) {
        self.globals.insert(name.to_string(), kind);
        self.types.names.bind_file_scope(name, Named::Object(ty));
    }
}
