//! What lives for the whole run ([`Globals`]): the names declared at file
//! scope, the `static` locals shared by every inlined copy of their body,
//! and the values both start with. Its fields are private to this file;
//! declarations (`decl.rs`), memory (`memory/`) and calls read and change
//! it through the methods below, and `mod.rs` puts the initial values at
//! the program's entry.

use super::Symbol;
use crate::ir::{Action, IntType};
use num_bigint::BigInt;
use std::collections::{HashMap, HashSet};

#[derive(Default)]
pub(crate) struct Globals {
    /// What each file-scope name denotes.
    symbols: HashMap<String, Symbol>,
    /// Global variables in declaration order, with their initial values
    /// (`None`: declared `extern` only, so unknown).
    inits: Vec<(String, IntType, Option<BigInt>)>,
    /// Globals defined with an initializer (a second one is an error).
    initialized: HashSet<String>,
    /// File-scope names declared `static` (internal linkage: code outside
    /// the program cannot name them) or objects declared `const` (it may
    /// not change them).
    outside_code_cannot_change: HashSet<String>,
    /// `static` locals, shared by all inlined copies: by declaration offset.
    statics: HashMap<usize, Symbol>,
    /// What sets the `static` locals (and memory's own globals) before the
    /// program starts.
    static_inits: Vec<Action>,
}

impl Globals {
    // ---- file-scope names

    /// What the file-scope name `name` denotes.
    pub fn get(&self, name: &str) -> Option<&Symbol> {
        self.symbols.get(name)
    }
    pub fn insert(&mut self, name: String, sym: Symbol) {
        self.symbols.insert(name, sym);
    }
    pub fn contains(&self, name: &str) -> bool {
        self.symbols.contains_key(name)
    }
    /// What every file-scope name and every `static` local denotes.
    pub fn all_symbols(&self) -> impl Iterator<Item = &Symbol> {
        self.symbols.values().chain(self.statics.values())
    }
    /// Code outside the program cannot name or change `name` (see
    /// [`Globals::outside_code_may_change`]).
    pub fn hide_from_outside_code(&mut self, name: String) {
        self.outside_code_cannot_change.insert(name);
    }
    /// The file-scope names code outside the program may change, by name.
    pub fn outside_code_may_change(&self) -> Vec<Symbol> {
        let mut names: Vec<&String> = self.symbols.keys().filter(|n| !self.outside_code_cannot_change.contains(*n)).collect();
        names.sort();
        names.into_iter().filter_map(|n| self.symbols.get(n).cloned()).collect()
    }
    /// `name` is defined with an initializer: `false` when it already was.
    pub fn first_initializer(&mut self, name: &str) -> bool {
        self.initialized.insert(name.to_string())
    }

    // ---- initial values

    /// The program variable `var` of type `ty` starts as `value` (`None`:
    /// unknown).
    pub fn push_init(&mut self, var: String, ty: IntType, value: Option<BigInt>) {
        self.inits.push((var, ty, value));
    }
    /// Forget the initial values of `vars` (an initializer sets them).
    pub fn forget_inits(&mut self, vars: &[String]) {
        self.inits.retain(|g| !vars.contains(&g.0));
    }
    /// The initial value of program variable `var`, to change.
    pub fn init_of(&mut self, var: &str) -> Option<&mut Option<BigInt>> {
        self.inits.iter_mut().find(|g| g.0 == var).map(|g| &mut g.2)
    }
    /// The global variables with their initial values, in declaration
    /// order (taken once, at the program's entry).
    pub fn take_inits(&mut self) -> Vec<(String, IntType, Option<BigInt>)> {
        std::mem::take(&mut self.inits)
    }

    // ---- `static` locals

    /// The `static` local declared at offset `key`, if met before.
    pub fn static_local(&self, key: usize) -> Option<&Symbol> {
        self.statics.get(&key)
    }
    pub fn set_static_local(&mut self, key: usize, sym: Symbol) {
        self.statics.insert(key, sym);
    }
    /// `a` runs before the program starts.
    pub fn push_static_init(&mut self, a: Action) {
        self.static_inits.push(a);
    }
    pub fn extend_static_inits(&mut self, actions: impl IntoIterator<Item = Action>) {
        self.static_inits.extend(actions);
    }
    /// What runs before the program starts (taken once, at the end).
    pub fn take_static_inits(&mut self) -> Vec<Action> {
        std::mem::take(&mut self.static_inits)
    }
}
