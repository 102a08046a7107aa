//! Reading types without lowering ([`TypingReader`]): the typing state,
//! the file-scope declarations and the functions' signatures read into
//! it, and nothing else — no graph, no variables, no initial values. The
//! elaboration pass (`elaborate.rs`) decides every expression's type on it,
//! and the file scope it reads ([`FileScope`]) is where every round of
//! lowering starts (see `mod.rs`).
//!
//! It binds each file-scope name by the rule lowering binds it by
//! (`globals.rs`: the declared type, an array's length completed by its
//! initializer, a redeclaration keeping the object an earlier one made —
//! a tentative definition, `extern`), to the type that rule gives. The
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
use super::globals::{GlobalBinding, GlobalKind, GlobalTyping};
use super::{Named, Types};
use crate::c::arith::Val;
use crate::c::lower::{facts, Storage, Symbol};
use crate::c::types::CType;
use crate::error::Result;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// The typing state of a translation unit, read without lowering (see the
/// module's documentation).
pub(crate) struct TypingReader<'a> {
    pub(super) types: Types<'a>,
    /// The nesting depth, counted as lowering counts it.
    depth: usize,
    /// The kind of each file-scope object declared so far.
    globals: HashMap<String, GlobalKind>,
    /// The globals whose address the program takes (they live in memory).
    addressed: HashSet<String>,
    /// The file-scope objects declared so far, in the order of the file.
    file_globals: Vec<FileGlobal<'a>>,
}

/// A file-scope declarator of an object, as read: what lowering makes a
/// global of (see [`FileScope`]).
#[derive(Clone)]
pub(crate) struct FileGlobal<'a> {
    pub decl: &'a Node<Declaration>,
    pub init: &'a Node<InitDeclarator>,
    pub name: String,
    /// The declared type (before the rule for globals completes it).
    pub ty: CType,
    pub storage: Storage,
}

/// The file scope read once, for every round of lowering: the typing
/// state it leaves (typedefs, records, enumerations, signatures, the
/// types of the globals, the functions used as values) and its objects in
/// the order of the file. A round starts from a clone of the state and
/// makes only the globals and their initial values (`Lowerer::file_scope`).
pub(crate) struct FileScope<'a> {
    types: Types<'a>,
    globals: Vec<FileGlobal<'a>>,
}

impl<'a> FileScope<'a> {
    /// Lowering reads the expression types `elaborated` (the pass's
    /// decisions, file scope included); what it decides itself starts empty.
    pub(crate) fn reading(mut self, elaborated: std::rc::Rc<super::ExprTypes>) -> FileScope<'a> {
        self.types.elaborated = elaborated;
        self.types.decided = super::ExprTypes::default();
        self
    }
    /// The typing state for one round of lowering.
    pub(crate) fn types(&self) -> Types<'a> {
        self.types.clone()
    }
    /// The file-scope objects, in the order of the file.
    pub(crate) fn globals(&self) -> &[FileGlobal<'a>] {
        &self.globals
    }
    /// The enumeration constants and type names of the file scope, as
    /// lowering's symbols.
    pub(crate) fn constants_and_type_names(&self) -> Vec<(String, Symbol)> {
        self.types
            .names
            .file_scope_names()
            .filter_map(|(name, named)| match named {
                Named::Const(v) => Some((name.clone(), Symbol::Const(v.clone()))),
                Named::Typedef(t, a) => Some((name.clone(), Symbol::Typedef(t.clone(), *a))),
                Named::Object(_) => None,
            })
            .collect()
    }
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
        TypingReader { types, depth: 0, globals: HashMap::new(), addressed: facts::addressed_in_unit(unit), file_globals: Vec::new() }
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

    /// The file scope as read so far (see [`FileScope`]).
    pub(super) fn file_scope_read(&self) -> FileScope<'a> {
        FileScope { types: self.types.clone(), globals: self.file_globals.clone() }
    }

    /// A file-scope object `name` of type `ty`, bound by the rule lowering
    /// binds it by (`globals.rs`), its initializer read in the scope
    /// lowering evaluates it in.
    fn global(
        &mut self,
        decl: &'a Node<Declaration>,
        init: &'a Node<InitDeclarator>,
        name: String,
        ty: CType,
        storage: Storage,
        initializer: &mut dyn FnMut(&mut Self, &'a Node<Initializer>),
    ) -> Result<()> {
        self.file_globals.push(FileGlobal { decl, init, name: name.clone(), ty: ty.clone(), storage });
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
        self.types.decided.declared.insert(node, (complete, storage.is_static, storage.is_extern));
        let addressed = self.addressed.contains(&name);
        let existing = self.globals.get(&name).copied();
        let binding = self.bind_global(ty, addressed, existing, value);
        let kind = binding.kind();
        match binding {
            // Its constant initializer is evaluated before the name is
            // bound (a tentative definition keeps the variable).
            GlobalBinding::Var { ty, again } => {
                if let Some(i) = value {
                    initializer(self, i);
                }
                if !again {
                    self.bind_file_scope(&name, kind, CType::Int(ty));
                }
            }
            GlobalBinding::Ptr { pointee, again } => {
                if !again {
                    self.bind_file_scope(&name, kind, CType::Ptr(Box::new(pointee)));
                }
                if let Some(i) = value {
                    initializer(self, i);
                }
            }
            GlobalBinding::Float { ty, again } => {
                if !again {
                    self.bind_file_scope(&name, kind, ty);
                }
                if let Some(i) = value {
                    initializer(self, i);
                }
            }
            // An object is in scope in its own initializer.
            GlobalBinding::Object { ty, again } => {
                if !again {
                    self.bind_file_scope(&name, kind, ty);
                }
                if let Some(i) = value {
                    initializer(self, i);
                }
            }
            GlobalBinding::Outside { ty } => self.bind_file_scope(&name, kind, ty),
            GlobalBinding::Unmodelled { what } => self.bind_file_scope(&name, kind, CType::Unsupported(what)),
            GlobalBinding::Function | GlobalBinding::Void => {}
        }
        Ok(())
    }

    fn bind_file_scope(&mut self, name: &str, kind: Option<GlobalKind>, ty: CType) {
        match kind {
            Some(kind) => self.globals.insert(name.to_string(), kind),
            None => self.globals.remove(name),
        };
        self.types.names.bind_file_scope(name, Named::Object(ty));
    }
}
