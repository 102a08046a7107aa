//! One inlined function body being lowered ([`Frame`]): its scopes, its
//! labels and the targets of `break`, `continue` and `case`, where its
//! `return`s go, and what its body does to its names. The stack of frames
//! is the calls' state ([`super::Calls`]). A frame's fields are private to
//! this folder, which makes frames (`Frame { .., ..Frame::of_body(..) }`)
//! and sets where a call's result goes; the rest of the lowering reads and
//! changes a frame through the methods below (scopes in `mod.rs`, jumps
//! and labels in `stmt.rs`, what a body does in `memory/` and `decl.rs`).

use crate::c::cfg::Cursor;
use crate::c::lower::{facts, memory, Symbol};
use crate::c::types::CType;
use crate::ir::{IntType, LocId};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// Targets of `break` / `continue` / `case`, innermost last.
pub(crate) enum JumpScope {
    Loop { breaks: Vec<Cursor>, continues: Vec<Cursor> },
    Switch { breaks: Vec<Cursor>, cases: HashMap<usize, Cursor> },
}

/// One inlined function body being lowered.
pub(crate) struct Frame {
    pub(super) function: String,
    pub(super) scopes: Vec<HashMap<String, Symbol>>,
    /// Variable receiving the return value (`None`: void, main, or value unused).
    pub(super) ret: Option<(String, IntType)>,
    pub(super) is_main: bool,
    pub(super) returns: Vec<Cursor>,
    pub(super) labels: HashMap<String, LocId>,
    pub(super) defined_labels: HashSet<String>,
    pub(super) goto_targets: HashSet<String>,
    pub(super) jumps: Vec<JumpScope>,
    /// The recursion instance this body belongs to (see `recursion.rs`).
    pub(super) instance: Option<usize>,
    /// Names the body assigns with `=` or takes the address of, and names
    /// it moves with `++`, `+=`, ... (see `memory/`).
    pub(super) reassigned: (HashSet<String>, HashSet<String>),
    /// Names whose address the body takes (such scalars live in memory).
    pub(super) addressed: HashSet<String>,
    /// A `goto` target label has been passed: what follows may run again.
    pub(super) past_goto_label: bool,
    /// Where a function returning a pointer puts its result.
    pub(super) ret_ptr: Option<memory::PtrVar>,
    /// Where a function returning a struct copies its result: a block of
    /// the caller's (when the caller uses the value).
    pub(super) ret_object: Option<(memory::PtrVal, CType)>,
}

/// Where a `return` of the body being lowered puts its value, and whether
/// it ends the program (see [`Frame::return_target`]).
pub(crate) struct ReturnTarget {
    pub is_main: bool,
    pub ret: Option<(String, IntType)>,
    pub ret_ptr: Option<memory::PtrVar>,
    pub ret_object: Option<(memory::PtrVal, CType)>,
}

impl Frame {
    /// The frame of the body of `def`, called `name`, with `scope` as its
    /// outermost scope: not `main`, no return value, no recursion instance
    /// (the callers set those that differ).
    pub(in crate::c) fn of_body(name: &str, def: &Node<FunctionDefinition>, scope: HashMap<String, Symbol>) -> Frame {
        Frame {
            function: name.to_string(),
            scopes: vec![scope],
            ret: None,
            is_main: false,
            returns: Vec::new(),
            labels: HashMap::new(),
            defined_labels: HashSet::new(),
            goto_targets: facts::goto_targets(&def.node.statement),
            jumps: Vec::new(),
            instance: None,
            reassigned: facts::reassigned_names(&def.node.statement),
            addressed: facts::addressed_names(&def.node.statement),
            past_goto_label: false,
            ret_ptr: None,
            ret_object: None,
        }
    }

    /// The function whose body this is.
    pub fn function(&self) -> &str {
        &self.function
    }

    // ---- scopes

    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }
    /// Close the innermost scope; the number of scopes left.
    pub fn pop_scope(&mut self) -> usize {
        self.scopes.pop();
        self.scopes.len()
    }
    /// The scopes open, outermost first.
    pub fn scopes(&self) -> &[HashMap<String, Symbol>] {
        &self.scopes
    }
    /// The number of open scopes.
    pub fn scope_depth(&self) -> usize {
        self.scopes.len()
    }
    /// Bind `name` in the innermost scope; `false` when no scope is open.
    pub fn bind(&mut self, name: &str, sym: Symbol) -> bool {
        match self.scopes.last_mut() {
            Some(scope) => {
                scope.insert(name.to_string(), sym);
                true
            }
            None => false,
        }
    }
    /// What `name` denotes in the body's scopes, innermost first.
    pub fn lookup(&self, name: &str) -> Option<&Symbol> {
        self.scopes.iter().rev().find_map(|scope| scope.get(name))
    }
    /// What `name` denotes in the innermost scope itself.
    pub fn innermost(&self, name: &str) -> Option<&Symbol> {
        self.scopes.last().and_then(|s| s.get(name))
    }

    // ---- labels and jumps

    /// The location of label `name`, if it has one yet.
    pub fn label(&self, name: &str) -> Option<LocId> {
        self.labels.get(name).copied()
    }
    pub fn set_label(&mut self, name: &str, l: LocId) {
        self.labels.insert(name.to_string(), l);
    }
    /// Label `name` is defined here: `false` when it already was.
    pub fn define_label(&mut self, name: &str) -> bool {
        self.defined_labels.insert(name.to_string())
    }
    /// Some `goto` of the body names label `name`.
    pub fn is_goto_target(&self, name: &str) -> bool {
        self.goto_targets.contains(name)
    }
    /// The labels a `goto` used that are not defined, sorted.
    pub fn undefined_labels(&self) -> Vec<&String> {
        let mut missing: Vec<&String> = self.labels.keys().filter(|l| !self.defined_labels.contains(*l)).collect();
        missing.sort();
        missing
    }
    /// A `goto` target label has been passed: what follows may run again.
    pub fn pass_goto_label(&mut self) {
        self.past_goto_label = true;
    }
    pub fn push_jump(&mut self, j: JumpScope) {
        self.jumps.push(j);
    }
    pub fn pop_jump(&mut self) -> Option<JumpScope> {
        self.jumps.pop()
    }
    /// The innermost loop or switch (what `break` leaves).
    pub fn innermost_jump(&mut self) -> Option<&mut JumpScope> {
        self.jumps.last_mut()
    }
    /// The innermost loop (what `continue` goes on with).
    pub fn innermost_loop(&mut self) -> Option<&mut JumpScope> {
        self.jumps.iter_mut().rev().find(|j| matches!(j, JumpScope::Loop { .. }))
    }
    /// The innermost switch (what `case` belongs to).
    pub fn innermost_switch(&mut self) -> Option<&mut JumpScope> {
        self.jumps.iter_mut().rev().find(|j| matches!(j, JumpScope::Switch { .. }))
    }

    // ---- returns

    /// Where a `return` puts its value.
    pub fn return_target(&self) -> ReturnTarget {
        ReturnTarget { is_main: self.is_main, ret: self.ret.clone(), ret_ptr: self.ret_ptr.clone(), ret_object: self.ret_object.clone() }
    }
    /// A `return` leaves the body from `c`.
    pub fn push_return(&mut self, c: Cursor) {
        self.returns.push(c);
    }

    // ---- what the body does

    /// The body belongs to an instance of a recursive component.
    pub fn in_recursion(&self) -> bool {
        self.instance.is_some()
    }
    /// What is lowered here runs at most once as far as this body goes:
    /// not in a recursion instance, no `goto` label passed, in no loop.
    pub fn runs_once(&self) -> bool {
        self.instance.is_none() && !self.past_goto_label && !self.jumps.iter().any(|j| matches!(j, JumpScope::Loop { .. }))
    }
    /// The body may reassign `name` (or take its address).
    pub fn may_reassign(&self, name: &str) -> bool {
        self.reassigned.0.contains(name)
    }
    /// The body may move `name` (`++`, `+=`, ...).
    pub fn may_move(&self, name: &str) -> bool {
        self.reassigned.1.contains(name)
    }
    /// The body takes the address of `name`.
    pub fn takes_address_of(&self, name: &str) -> bool {
        self.addressed.contains(name)
    }
}
