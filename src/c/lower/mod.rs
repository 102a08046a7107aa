//! Lowering a parsed C translation unit to an [`ir::Program`]: one CFG from
//! `main`, with every call inlined.
//!
//! The work is split by C's syntax: this file holds the context (scopes,
//! symbols, function table, declarations and types), `stmt.rs` the
//! statements (control flow), `expr.rs` the expressions (values, side
//! effects, conditions, calls). Storage is reached only through
//! [`LValue`]; a memory model for pointers and arrays would add variants
//! there (and a heap in the program state) without touching control flow.

mod expr;
mod memory;
mod recursion;
mod stmt;

use super::arith::{Arith, Val};
use super::cfg::{CfgBuilder, Cursor};
use super::source::SourceMap;
use super::types::CType;
use crate::error::{Result, TesseraError};
use crate::ir::{self, Action, IntType, LocId, Program, Span};
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::collections::{HashMap, HashSet};

/// What a C identifier denotes in a scope.
#[derive(Clone, Debug)]
pub(crate) enum Symbol {
    /// An integer variable, by its unique program name.
    Var { name: String, ty: IntType },
    /// An enumeration constant.
    Const(Val),
    Typedef(CType),
    /// A variable of a type Tessera does not model; an error when used.
    Unmodelled { what: String },
    /// A pointer variable (see `memory.rs`).
    Ptr(memory::PtrVar),
}

/// Where an integer value is stored: a named variable, or memory reached
/// through a pointer (already checked to be in bounds, see `memory.rs`).
#[derive(Clone, Debug)]
pub(crate) enum LValue {
    Var { name: String, ty: IntType },
    Mem { ptr: memory::PtrVal, ty: IntType, at: Option<Span> },
}

impl LValue {
    pub fn ty(&self) -> IntType {
        match self {
            LValue::Var { ty, .. } | LValue::Mem { ty, .. } => *ty,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub name: Option<String>,
    pub ty: CType,
}

/// A function known by name: its definition (if the file has one) and
/// signature.
#[derive(Clone)]
pub(crate) struct FunctionInfo<'a> {
    pub def: Option<&'a Node<FunctionDefinition>>,
    pub ret: CType,
    pub params: Vec<Param>,
    /// `f()` without a prototype: any number of arguments.
    pub unprototyped: bool,
    pub variadic: bool,
}

/// Targets of `break` / `continue` / `case`, innermost last.
pub(crate) enum JumpScope {
    Loop { breaks: Vec<Cursor>, continues: Vec<Cursor> },
    Switch { breaks: Vec<Cursor>, cases: HashMap<usize, Cursor> },
}

/// One inlined function body being lowered.
pub(crate) struct Frame {
    pub function: String,
    pub scopes: Vec<HashMap<String, Symbol>>,
    /// Variable receiving the return value (`None`: void, main, or value unused).
    pub ret: Option<(String, IntType)>,
    pub is_main: bool,
    pub returns: Vec<Cursor>,
    pub labels: HashMap<String, LocId>,
    pub defined_labels: HashSet<String>,
    pub goto_targets: HashSet<String>,
    pub jumps: Vec<JumpScope>,
    /// The recursion instance this body belongs to (see `recursion.rs`).
    pub instance: Option<usize>,
    /// Names the body assigns with `=` or takes the address of, and names
    /// it moves with `++`, `+=`, ... (see `memory.rs`).
    pub reassigned: (HashSet<String>, HashSet<String>),
    /// A `goto` target label has been passed: what follows may run again.
    pub past_goto_label: bool,
    /// Where a function returning a pointer puts its result.
    pub ret_ptr: Option<memory::PtrVar>,
}

/// Bound on syntactic nesting during lowering (statements and expressions).
const MAX_DEPTH: usize = 3000;

pub(crate) struct Lowerer<'a> {
    text: &'a str,
    map: &'a SourceMap,
    file: String,
    pub arith: Arith,
    pub cfg: CfgBuilder,
    /// Where lowering currently is; `None` in unreachable code.
    pub cur: Option<Cursor>,
    pub globals: HashMap<String, Symbol>,
    /// Global variables in declaration order, with their initial values
    /// (`None`: declared `extern` only, so unknown).
    global_inits: Vec<(String, IntType, Option<BigInt>)>,
    enum_tags: HashMap<String, IntType>,
    pub functions: HashMap<String, FunctionInfo<'a>>,
    pub frames: Vec<Frame>,
    /// `static` locals, shared by all inlined copies: by declaration offset.
    pub statics: HashMap<usize, Symbol>,
    pub static_inits: Vec<Action>,
    pub entry: LocId,
    pub exit: LocId,
    depth: usize,
    body_facts: HashMap<String, recursion::BodyFacts>,
    /// Functions on call-graph cycles, with the id of their cycle.
    recursive: HashMap<String, usize>,
    instances: Vec<recursion::Instance>,
    approximations: Vec<(Option<Span>, String)>,
    /// Every memory block allocated so far (see `memory.rs`).
    blocks: Vec<memory::Block>,
    /// The pointer result of the call just inlined.
    last_pointer_return: Option<memory::PtrVal>,
    /// Conditions under which the expression being lowered is evaluated at
    /// all (the left side of `&&`/`||`, the condition of `?:`): the
    /// assumptions of an operand C may leave unevaluated (in bounds, divisor
    /// not zero, no overflow) hold only under them.
    guards: Vec<crate::term::Term>,
    /// The block of the first evaluation of each string literal, by text.
    string_literal_blocks: HashMap<String, crate::term::Term>,
    /// Allocation sites (by ordinal) known to run more than once.
    pub repeating_sites: HashSet<usize>,
    /// Sites tracked as running once that turned out to lie on a cycle.
    found_repeating: HashSet<usize>,
    /// The counter that numbers blocks of sites that run more than once.
    alloc_counter: Option<String>,
    /// Operations whose undefined behaviour is assumed away.
    pub undefined: Vec<ir::UndefinedSite>,
    /// Globals defined with an initializer (a second one is an error).
    initialized_globals: HashSet<String>,
}

pub fn lower(
    unit: &TranslationUnit,
    text: &str,
    map: &SourceMap,
    file: &str,
    arith: Arith,
) -> Result<Program> {
    // An allocation site tracked as running once must not lie on a cycle
    // of the graph after inlining (`malloc` in a `for` step, a called
    // function, reached again by `goto`): lower again with such sites
    // summarized until none is left (each round only adds sites).
    let mut repeating: HashSet<usize> = HashSet::new();
    for _ in 0..8 {
        let (program, found) = lower_once(unit, text, map, file, arith, &repeating)?;
        if found.is_subset(&repeating) {
            return Ok(program);
        }
        repeating.extend(found);
    }
    Err(TesseraError::unsupported(None, "allocation sites whose repetition could not be settled"))
}

fn lower_once(
    unit: &TranslationUnit,
    text: &str,
    map: &SourceMap,
    file: &str,
    arith: Arith,
    repeating: &HashSet<usize>,
) -> Result<(Program, HashSet<usize>)> {
    let mut cfg = CfgBuilder::default();
    let entry = cfg.new_location(None, "entry");
    let exit = cfg.new_location(None, "exit");
    cfg.protected.extend([entry, exit]);
    let mut l = Lowerer {
        text,
        map,
        file: file.to_string(),
        arith,
        cfg,
        cur: None,
        globals: HashMap::new(),
        global_inits: Vec::new(),
        enum_tags: HashMap::new(),
        functions: HashMap::new(),
        frames: Vec::new(),
        statics: HashMap::new(),
        static_inits: Vec::new(),
        entry,
        exit,
        depth: 0,
        body_facts: HashMap::new(),
        recursive: HashMap::new(),
        instances: Vec::new(),
        approximations: Vec::new(),
        blocks: Vec::new(),
        last_pointer_return: None,
        guards: Vec::new(),
        string_literal_blocks: HashMap::new(),
        repeating_sites: repeating.clone(),
        found_repeating: HashSet::new(),
        alloc_counter: None,
        initialized_globals: HashSet::new(),
        undefined: Vec::new(),
    };
    let program = l.program(unit)?;
    Ok((program, l.found_repeating))
}

impl<'a> Lowerer<'a> {
    // ---- positions and errors

    pub fn span(&self, s: lang_c::span::Span) -> Option<Span> {
        if s.is_none() {
            return None;
        }
        self.map.span(self.text, s.start)
    }
    /// The source text of a syntax node, on one line (for messages).
    pub fn source_text(&self, s: lang_c::span::Span) -> String {
        let text = self.text.get(s.start..s.end).unwrap_or("");
        let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if one_line.chars().count() > 60 {
            format!("{}...", one_line.chars().take(57).collect::<String>())
        } else {
            one_line
        }
    }
    pub fn unsupported(&self, s: lang_c::span::Span, what: impl Into<String>) -> TesseraError {
        TesseraError::unsupported(self.span(s), what)
    }
    pub fn syntax(&self, s: lang_c::span::Span, what: impl Into<String>) -> TesseraError {
        TesseraError::syntax(self.span(s), what)
    }

    /// Guard against stack exhaustion on absurdly nested input.
    pub fn enter(&mut self, s: lang_c::span::Span) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.unsupported(s, "statements or expressions nested too deeply"));
        }
        Ok(())
    }
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    // ---- emitting actions at the cursor

    pub fn emit(&mut self, a: Action) {
        if let Some(c) = &mut self.cur {
            c.push(a);
        }
    }
    /// `var := v` for a value already converted to the variable's type,
    /// remembering its range on the current path.
    pub fn assign_var(&mut self, var: &str, v: Val) {
        if v.term == crate::term::Term::var(var) {
            return;
        }
        self.emit(Action::Assign(var.to_string(), v.term));
        if let (Some(c), Some((lo, hi))) = (self.cur.as_mut(), v.range) {
            c.set_range(var, lo, hi);
        }
    }
    pub fn emit_assume(&mut self, t: crate::term::Term) {
        let t = if self.guards.is_empty() {
            t
        } else {
            use crate::term::Term;
            Term::or(vec![Term::not(Term::and(self.guards.clone())), t])
        };
        match t {
            crate::term::Term::Bool(true) => {}
            crate::term::Term::Bool(false) => self.cur = None,
            t => self.emit(Action::Assume(t)),
        }
    }
    /// `havoc v; assume range` for a variable of type `ty`.
    pub fn havoc(&mut self, name: &str, ty: IntType) {
        self.emit(Action::Havoc(name.to_string()));
        if let Some(r) = self.arith.range_assumption(name, ty) {
            self.emit_assume(r);
        }
    }
    /// Record that the model over-approximates the C program here (once
    /// per place and kind): a YES stays sound, a NO may not rest on it.
    pub fn note_approximation(&mut self, at: Option<Span>, text: impl Into<String>) {
        let text = text.into();
        if !self.approximations.iter().any(|(s, t)| *s == at && *t == text) {
            self.approximations.push((at, text));
        }
    }

    /// Lower `f` as an operand that runs only when `guard` holds; its
    /// assumptions become `guard -> assumption`. Only for operands without
    /// side effects (those are lowered as control flow instead).
    pub fn guarded<T>(&mut self, guard: crate::term::Term, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.guards.push(guard);
        let r = f(self);
        self.guards.pop();
        r
    }
    pub fn join(&mut self, cursors: Vec<Cursor>, s: lang_c::span::Span, note: &str) -> Option<Cursor> {
        let span = self.span(s);
        self.cfg.join(cursors, span, note)
    }

    // ---- scopes

    pub fn frame(&mut self) -> Option<&mut Frame> {
        self.frames.last_mut()
    }
    pub fn function_name(&self) -> String {
        self.frames.last().map(|f| f.function.clone()).unwrap_or_default()
    }
    pub fn push_scope(&mut self) {
        if let Some(f) = self.frame() {
            f.scopes.push(HashMap::new());
        }
    }
    pub fn pop_scope(&mut self) {
        if let Some(f) = self.frame() {
            f.scopes.pop();
        }
    }
    pub fn bind(&mut self, name: &str, sym: Symbol) {
        match self.frames.last_mut().and_then(|f| f.scopes.last_mut()) {
            Some(scope) => {
                scope.insert(name.to_string(), sym);
            }
            None => {
                self.globals.insert(name.to_string(), sym);
            }
        }
    }
    pub fn lookup(&self, name: &str) -> Option<&Symbol> {
        if let Some(f) = self.frames.last() {
            for scope in f.scopes.iter().rev() {
                if let Some(s) = scope.get(name) {
                    return Some(s);
                }
            }
        }
        self.globals.get(name)
    }

    // ---- the whole program

    fn program(&mut self, unit: &'a TranslationUnit) -> Result<Program> {
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::Declaration(d) => self.declaration(d, true)?,
                ExternalDeclaration::FunctionDefinition(f) => self.function_definition(f)?,
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        for (name, info) in &self.functions {
            if let Some(def) = info.def {
                self.body_facts.insert(name.clone(), recursion::body_facts(&def.node));
            }
        }
        self.recursive = recursion::recursive_components(&self.body_facts);
        let main = match self.functions.get("main").and_then(|f| f.def) {
            Some(m) => m,
            None => {
                let at = Span { file: self.file.clone(), line: 1, col: 1 };
                return Err(TesseraError::syntax(Some(at), "no definition of `main`"));
            }
        };
        self.cfg.locations[self.entry].span = self.span(main.span);
        let mut start = Cursor::at(self.entry);
        for (name, ty, init) in std::mem::take(&mut self.global_inits) {
            match init {
                Some(v) => start.push(Action::Assign(name, crate::term::Term::Int(v))),
                None => {
                    start.push(Action::Havoc(name.clone()));
                    if let Some(r) = self.arith.range_assumption(&name, ty) {
                        start.push(Action::Assume(r));
                    }
                }
            }
        }
        self.cur = Some(start);
        self.call_main(main)?;
        if let Some(c) = self.cur.take() {
            self.cfg.jump(c, self.exit);
        }
        // `static` locals are initialized before the program starts.
        let inits = std::mem::take(&mut self.static_inits);
        if !inits.is_empty() {
            for e in self.cfg.edges.iter_mut().filter(|e| e.from == self.entry) {
                let mut acts = inits.clone();
                acts.append(&mut e.actions);
                e.actions = acts;
            }
        }
        self.finish()
    }

    fn call_main(&mut self, main: &'a Node<FunctionDefinition>) -> Result<()> {
        let info = self.signature_of_definition(main)?;
        self.frames.push(Frame {
            function: "main".into(),
            scopes: vec![HashMap::new()],
            ret: None,
            is_main: true,
            returns: Vec::new(),
            labels: HashMap::new(),
            defined_labels: HashSet::new(),
            goto_targets: stmt::goto_targets(&main.node.statement),
            jumps: Vec::new(),
            instance: None,
            reassigned: memory::reassigned_names(&main.node.statement),
            past_goto_label: false,
            ret_ptr: None,
        });
        // `argc` and friends: unknown inputs; `argv` (a pointer) only errs if used.
        for p in &info.params {
            let Some(name) = &p.name else { continue };
            match &p.ty {
                CType::Int(t) => {
                    let v = self.cfg.declare(name, "main", *t);
                    self.havoc(&v, *t);
                    self.bind(name, Symbol::Var { name: v, ty: *t });
                }
                CType::Unsupported(what) => self.bind(name, Symbol::Unmodelled { what: what.clone() }),
                CType::Ptr(_) => self.bind(name, Symbol::Unmodelled { what: "pointer (arguments of main)".into() }),
                CType::Void => {}
            }
        }
        self.stmt(&main.node.statement)?;
        self.end_function_body(main.span)?;
        let frame = self.frames.pop();
        if let Some(f) = frame {
            for c in f.returns {
                self.cfg.jump(c, self.exit);
            }
        }
        Ok(())
    }

    /// Checks at the end of a function body: every `goto` has its label.
    pub fn end_function_body(&mut self, s: lang_c::span::Span) -> Result<()> {
        if let Some(f) = self.frames.last() {
            let mut missing: Vec<&String> = f.labels.keys().filter(|l| !f.defined_labels.contains(*l)).collect();
            missing.sort();
            if let Some(l) = missing.first() {
                return Err(self.syntax(s, format!("label `{l}` used but not defined")));
            }
        }
        Ok(())
    }

    /// Drop locations unreachable from the entry, renumber, check loops.
    fn finish(&mut self) -> Result<Program> {
        self.found_repeating = self.cfg.repeating_sites();
        let n = self.cfg.locations.len();
        let edges = std::mem::take(&mut self.cfg.edges);
        self.cfg.edges = super::cfg::simplify(n, edges, &self.cfg.protected);
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
        for e in &self.cfg.edges {
            if e.from < n && e.to < n {
                succ[e.from].push(e.to);
            }
        }
        let mut seen = vec![false; n];
        let mut stack = vec![self.entry];
        while let Some(l) = stack.pop() {
            if l < n && !seen[l] {
                seen[l] = true;
                stack.extend(succ[l].iter().copied());
            }
        }
        if self.exit < n {
            seen[self.exit] = true;
        }
        let mut new_id = vec![usize::MAX; n];
        let mut locations = Vec::new();
        for l in 0..n {
            if seen[l] {
                new_id[l] = locations.len();
                locations.push(self.cfg.locations[l].clone());
            }
        }
        let edges: Vec<ir::Edge> = std::mem::take(&mut self.cfg.edges)
            .into_iter()
            .filter(|e| e.from < n && e.to < n && seen[e.from] && seen[e.to])
            .map(|mut e| {
                e.from = new_id[e.from];
                e.to = new_id[e.to];
                e
            })
            .collect();
        let program = Program {
            file: self.file.clone(),
            vars: std::mem::take(&mut self.cfg.vars),
            locations,
            edges,
            entry: new_id[self.entry],
            exit: new_id[self.exit],
            semantics: self.arith.sem,
            approximations: std::mem::take(&mut self.approximations),
            undefined: std::mem::take(&mut self.undefined),
        };
        if let Err(e) = ir::find_loops(&program) {
            // Point at a location on the offending cycle (a label, if any).
            let at = irreducible_location(&program).unwrap_or(e.location);
            let loc = program.locations.get(at);
            let span = loc.and_then(|l| l.span.clone());
            let place = loc.map(|l| l.note.clone()).filter(|n| !n.is_empty());
            let what = format!(
                "irreducible control flow: a cycle entered other than through one loop header{} (e.g. a goto into a loop body)",
                place.map(|p| format!(", at `{p}`")).unwrap_or_default()
            );
            return Err(TesseraError::unsupported(span, what));
        }
        Ok(program)
    }

    // ---- declarations

    fn function_definition(&mut self, f: &'a Node<FunctionDefinition>) -> Result<()> {
        let Some(name) = declarator_name(&f.node.declarator.node) else {
            return Err(self.syntax(f.span, "function definition without a name"));
        };
        if self.functions.get(&name).is_some_and(|i| i.def.is_some()) {
            return Err(TesseraError::invalid(self.span(f.span), format!("redefinition of function `{name}`")));
        }
        let mut info = self.signature_of_definition(f)?;
        info.def = Some(f);
        self.functions.insert(name, info);
        Ok(())
    }

    fn signature_of_definition(&mut self, f: &'a Node<FunctionDefinition>) -> Result<FunctionInfo<'a>> {
        let (base, _) = self.specifiers(&f.node.specifiers)?;
        let d = &f.node.declarator.node;
        let ret = return_type(base, d);
        let mut info = FunctionInfo { def: None, ret, params: Vec::new(), unprototyped: false, variadic: false };
        for derived in &d.derived {
            match &derived.node {
                DerivedDeclarator::Function(fd) => {
                    info.params = self.parameters(&fd.node)?;
                    info.variadic = fd.node.ellipsis == Ellipsis::Some;
                    info.unprototyped = fd.node.parameters.is_empty();
                    break;
                }
                DerivedDeclarator::KRFunction(names) => {
                    // Old-style definition: types come from the declaration list.
                    let mut types: HashMap<String, CType> = HashMap::new();
                    for decl in &f.node.declarations {
                        let (base, _) = self.specifiers(&decl.node.specifiers)?;
                        for id in &decl.node.declarators {
                            if let Some(n) = declarator_name(&id.node.declarator.node) {
                                types.insert(n, parameter_type(base.clone(), &id.node.declarator.node));
                            }
                        }
                    }
                    info.params = names
                        .iter()
                        .map(|n| Param {
                            name: Some(n.node.name.clone()),
                            // Undeclared K&R parameters default to int.
                            ty: types.remove(&n.node.name).unwrap_or(CType::Int(IntType::INT)),
                        })
                        .collect();
                    info.unprototyped = names.is_empty();
                    break;
                }
                _ => {}
            }
        }
        Ok(info)
    }

    fn parameters(&mut self, fd: &'a FunctionDeclarator) -> Result<Vec<Param>> {
        let mut out = Vec::new();
        for p in &fd.parameters {
            let (base, _) = self.specifiers(&p.node.specifiers)?;
            let (name, ty) = match &p.node.declarator {
                Some(d) => (declarator_name(&d.node), parameter_type(base, &d.node)),
                None => (None, base),
            };
            out.push(Param { name, ty });
        }
        // `f(void)` has no parameters.
        if out.len() == 1 && out[0].ty == CType::Void && out[0].name.is_none() {
            out.clear();
        }
        Ok(out)
    }

    /// A declaration at file scope (`global`) or in a block.
    pub fn declaration(&mut self, decl: &'a Node<Declaration>, global: bool) -> Result<()> {
        let (base, storage) = self.specifiers(&decl.node.specifiers)?;
        for init in &decl.node.declarators {
            let d = &init.node.declarator.node;
            let Some(name) = declarator_name(d) else { continue };
            if storage.typedef {
                let ty = apply_declarator(base.clone(), d);
                self.bind(&name, Symbol::Typedef(ty));
                continue;
            }
            if is_function_declarator(d) {
                self.function_prototype(&name, base.clone(), d)?;
                continue;
            }
            let ty = apply_declarator(base.clone(), d);
            if global {
                self.global_variable(&name, ty, storage.is_extern, init)?;
            } else if storage.is_extern {
                // Refers to the global of that name.
                match self.globals.get(&name).cloned() {
                    Some(sym) => self.bind(&name, sym),
                    None => {
                        self.global_variable(&name, ty, true, init)?;
                        let sym = self.globals.get(&name).cloned();
                        if let Some(sym) = sym {
                            self.bind(&name, sym);
                        }
                    }
                }
            } else {
                // No linkage: one declaration per block (C11 6.7p3).
                let declared_here = self.frames.last().and_then(|f| f.scopes.last()).is_some_and(|s| {
                    matches!(s.get(&name), Some(Symbol::Var { .. } | Symbol::Ptr(_) | Symbol::Unmodelled { .. }))
                });
                if declared_here {
                    return Err(TesseraError::invalid(self.span(init.span), format!("redeclaration of `{name}` in the same block")));
                }
                if storage.is_static {
                    self.static_local(&name, ty, init)?;
                } else {
                    self.local_variable(&name, ty, init)?;
                }
            }
        }
        Ok(())
    }

    fn function_prototype(&mut self, name: &str, base: CType, d: &'a Declarator) -> Result<()> {
        if self.functions.get(name).is_some_and(|f| f.def.is_some()) {
            return Ok(());
        }
        let ret = return_type(base, d);
        let mut info = FunctionInfo { def: None, ret, params: Vec::new(), unprototyped: true, variadic: false };
        for derived in &d.derived {
            if let DerivedDeclarator::Function(fd) = &derived.node {
                info.params = self.parameters(&fd.node)?;
                info.variadic = fd.node.ellipsis == Ellipsis::Some;
                info.unprototyped = fd.node.parameters.is_empty();
                break;
            }
        }
        self.functions.insert(name.to_string(), info);
        Ok(())
    }

    fn global_variable(&mut self, name: &str, ty: CType, is_extern: bool, init: &'a Node<InitDeclarator>) -> Result<()> {
        let t = match ty {
            CType::Int(t) => t,
            CType::Unsupported(what) => {
                self.globals.insert(name.to_string(), Symbol::Unmodelled { what });
                return Ok(());
            }
            CType::Ptr(pointee) => {
                if matches!(self.globals.get(name), Some(Symbol::Ptr(_))) {
                    return Ok(());
                }
                if init.node.initializer.is_some() {
                    return Err(self.unsupported(init.span, format!("an initializer for the global pointer `{name}`")));
                }
                let var = self.global_pointer(name, *pointee, is_extern);
                self.globals.insert(name.to_string(), Symbol::Ptr(var));
                return Ok(());
            }
            CType::Void => return Err(self.syntax(init.span, format!("variable `{name}` declared void"))),
        };
        let value = match &init.node.initializer {
            Some(i) => Some(self.constant_initializer(i, t)?),
            None if is_extern => None,
            None => Some(BigInt::zero()),
        };
        if init.node.initializer.is_some() && !self.initialized_globals.insert(name.to_string()) {
            return Err(TesseraError::invalid(self.span(init.span), format!("redefinition of `{name}` (two initializers)")));
        }
        // Tentative definitions (`int x; int x = 1;`) are one variable.
        if let Some(Symbol::Var { name: existing, .. }) = self.globals.get(name) {
            let existing = existing.clone();
            if let Some(entry) = self.global_inits.iter_mut().find(|g| g.0 == existing) {
                if init.node.initializer.is_some() || (entry.2.is_none() && value.is_some()) {
                    entry.2 = value;
                }
            }
            return Ok(());
        }
        let v = self.cfg.declare(name, "global", t);
        self.global_inits.push((v.clone(), t, value));
        self.globals.insert(name.to_string(), Symbol::Var { name: v, ty: t });
        Ok(())
    }

    fn constant_initializer(&mut self, i: &'a Node<Initializer>, t: IntType) -> Result<BigInt> {
        let e = scalar_initializer(i).ok_or_else(|| self.unsupported(i.span, "an initializer list for a scalar"))?;
        let v = self.constant(e)?;
        let v = self.arith.convert(v, t);
        match v.constant() {
            Some(c) => Ok(c.clone()),
            None => Err(self.unsupported(i.span, "a non-constant initializer of a static variable")),
        }
    }

    fn static_local(&mut self, name: &str, ty: CType, init: &'a Node<InitDeclarator>) -> Result<()> {
        let key = init.span.start;
        if let Some(sym) = self.statics.get(&key).cloned() {
            self.bind(name, sym);
            return Ok(());
        }
        let t = match ty {
            CType::Int(t) => t,
            CType::Unsupported(what) => {
                return Err(self.unsupported(init.span, format!("variable `{name}` of type {what}")));
            }
            CType::Ptr(_) => return Err(self.unsupported(init.span, format!("the static pointer `{name}`"))),
            CType::Void => return Err(self.syntax(init.span, format!("variable `{name}` declared void"))),
        };
        let value = match &init.node.initializer {
            Some(i) => self.constant_initializer(i, t)?,
            None => BigInt::zero(),
        };
        let f = self.function_name();
        let v = self.cfg.declare(name, &f, t);
        self.static_inits.push(Action::Assign(v.clone(), crate::term::Term::Int(value)));
        let sym = Symbol::Var { name: v, ty: t };
        self.statics.insert(key, sym.clone());
        self.bind(name, sym);
        Ok(())
    }

    fn local_variable(&mut self, name: &str, ty: CType, init: &'a Node<InitDeclarator>) -> Result<()> {
        let t = match ty {
            CType::Int(t) => t,
            CType::Unsupported(what) => {
                return Err(self.unsupported(init.span, format!("variable `{name}` of type {what}")));
            }
            CType::Ptr(pointee) => return self.local_pointer(name, *pointee, init),
            CType::Void => return Err(self.syntax(init.span, format!("variable `{name}` declared void"))),
        };
        let f = self.function_name();
        match &init.node.initializer {
            Some(i) => {
                let e = scalar_initializer(i).ok_or_else(|| self.unsupported(i.span, "an initializer list for a scalar"))?;
                // The initializer is evaluated before the name comes into scope
                // (it cannot meaningfully refer to the new variable).
                if let Some(range) = self.nondet_assignment(e, t) {
                    let v = self.cfg.declare(name, &f, t);
                    self.havoc_in(&v, range);
                    self.bind(name, Symbol::Var { name: v, ty: t });
                    return Ok(());
                }
                let val = self.expr(e)?;
                let val = self.arith.convert(val, t);
                let v = self.cfg.declare(name, &f, t);
                self.assign_var(&v, val);
                self.bind(name, Symbol::Var { name: v, ty: t });
            }
            None => {
                // Uninitialized: any value of the type.
                let v = self.cfg.declare(name, &f, t);
                self.havoc(&v, t);
                self.bind(name, Symbol::Var { name: v, ty: t });
            }
        }
        Ok(())
    }

    fn local_pointer(&mut self, name: &str, pointee: CType, init: &'a Node<InitDeclarator>) -> Result<()> {
        let value = match &init.node.initializer {
            Some(i) => {
                let e = scalar_initializer(i).ok_or_else(|| self.unsupported(i.span, "an initializer list for a pointer"))?;
                if let Expression::UnaryOperator(u) = &e.node {
                    if let (UnaryOperator::Address, Expression::Identifier(id)) = (&u.node.operator.node, &u.node.operand.node) {
                        if matches!(self.lookup(&id.node.name), Some(Symbol::Var { .. })) {
                            return Err(self.unsupported(
                                init.span,
                                format!("variable `{name}` of type pointer to the scalar `{}` (address-taken variables are not modelled)", id.node.name),
                            ));
                        }
                    }
                }
                Some(self.pointer(e, Some(pointee.clone()))?)
            }
            None => None,
        };
        self.bind_pointer(name, pointee, value);
        Ok(())
    }

    /// `havoc v; assume lo <= v <= hi` (no assume for an unbounded range).
    pub fn havoc_in(&mut self, v: &str, range: Option<(BigInt, BigInt)>) {
        self.emit(Action::Havoc(v.to_string()));
        if let Some((lo, hi)) = range {
            let x = crate::term::Term::var(v);
            self.emit_assume(crate::term::Term::and(vec![
                crate::term::Term::le(crate::term::Term::Int(lo), x.clone()),
                crate::term::Term::le(x, crate::term::Term::Int(hi)),
            ]));
        }
    }

    // ---- types

    /// The type named by declaration specifiers, and the storage class.
    pub fn specifiers(&mut self, specs: &'a [Node<DeclarationSpecifier>]) -> Result<(CType, Storage)> {
        let mut storage = Storage::default();
        let mut types = Vec::new();
        for sp in specs {
            match &sp.node {
                DeclarationSpecifier::StorageClass(c) => match c.node {
                    StorageClassSpecifier::Typedef => storage.typedef = true,
                    StorageClassSpecifier::Extern => storage.is_extern = true,
                    StorageClassSpecifier::Static => storage.is_static = true,
                    StorageClassSpecifier::ThreadLocal => {
                        return Err(self.unsupported(c.span, "thread-local storage"));
                    }
                    StorageClassSpecifier::Auto | StorageClassSpecifier::Register => {}
                },
                DeclarationSpecifier::TypeSpecifier(t) => types.push(t),
                _ => {}
            }
        }
        let ty = self.base_type(&types)?;
        Ok((ty, storage))
    }

    pub fn type_name(&mut self, tn: &'a Node<TypeName>) -> Result<CType> {
        let types: Vec<&Node<TypeSpecifier>> = tn
            .node
            .specifiers
            .iter()
            .filter_map(|s| match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        let base = self.base_type(&types)?;
        Ok(match &tn.node.declarator {
            Some(d) => apply_declarator(base, &d.node),
            None => base,
        })
    }

    fn base_type(&mut self, types: &[&'a Node<TypeSpecifier>]) -> Result<CType> {
        let (mut void, mut chr, mut short, mut long, mut unsigned, mut boolean) = (0, 0, 0, 0, 0, 0);
        let mut other: Option<CType> = None;
        for t in types {
            match &t.node {
                TypeSpecifier::Void => void += 1,
                TypeSpecifier::Char => chr += 1,
                TypeSpecifier::Short => short += 1,
                TypeSpecifier::Int | TypeSpecifier::Signed => {}
                TypeSpecifier::Long => long += 1,
                TypeSpecifier::Unsigned => unsigned += 1,
                TypeSpecifier::Bool => boolean += 1,
                TypeSpecifier::Float | TypeSpecifier::Double | TypeSpecifier::TS18661Float(_) => {
                    other = Some(CType::Unsupported("floating point".into()))
                }
                TypeSpecifier::Complex => other = Some(CType::Unsupported("complex numbers".into())),
                TypeSpecifier::Atomic(_) => other = Some(CType::Unsupported("_Atomic".into())),
                TypeSpecifier::Struct(st) => {
                    let kind = match st.node.kind.node {
                        StructKind::Struct => "struct",
                        StructKind::Union => "union",
                    };
                    other = Some(CType::Unsupported(kind.into()))
                }
                TypeSpecifier::Enum(e) => other = Some(CType::Int(self.enum_type(e)?)),
                TypeSpecifier::TypedefName(id) => {
                    other = Some(match self.lookup(&id.node.name) {
                        Some(Symbol::Typedef(t)) => t.clone(),
                        _ => return Err(self.syntax(id.span, format!("unknown type name `{}`", id.node.name))),
                    })
                }
                TypeSpecifier::TypeOf(_) => other = Some(CType::Unsupported("typeof".into())),
            }
        }
        if let Some(o) = other {
            return Ok(o);
        }
        if void > 0 {
            return Ok(CType::Void);
        }
        if boolean > 0 {
            return Ok(CType::Int(IntType::Bool));
        }
        let is_signed = unsigned == 0;
        let bits = if chr > 0 {
            8
        } else if short > 0 {
            16
        } else if long > 1 {
            64
        } else if long > 0 {
            self.arith.model.long().bits()
        } else {
            // `int`, `signed`, `unsigned`, or no type specifier at all
            // (implicit int of old C).
            32
        };
        Ok(CType::Int(IntType::Int { bits, signed: is_signed }))
    }

    /// Registers the enumeration constants; the enum's own type is what gcc
    /// picks: `unsigned int` without negative values, else `int`.
    fn enum_type(&mut self, e: &'a Node<EnumType>) -> Result<IntType> {
        let tag = e.node.identifier.as_ref().map(|i| i.node.name.clone());
        if e.node.enumerators.is_empty() {
            return Ok(tag.and_then(|t| self.enum_tags.get(&t).copied()).unwrap_or(IntType::UINT));
        }
        // gcc: an enumerator whose value fits `int` is an `int`; the others
        // have the enumeration's own type, the narrowest of `unsigned int`,
        // `int`, `unsigned long`, `long` that holds every value.
        let mut next = BigInt::zero();
        let mut values: Vec<(String, BigInt)> = Vec::new();
        for en in &e.node.enumerators {
            let value = match &en.node.expression {
                Some(x) => {
                    let v = self.constant(x)?;
                    match v.constant() {
                        Some(c) => c.clone(),
                        None => return Err(self.unsupported(x.span, "a non-constant enumerator value")),
                    }
                }
                None => next.clone(),
            };
            next = &value + BigInt::one();
            let provisional = enumerator_type(&value, if value < BigInt::zero() { IntType::LONG } else { IntType::ULONG });
            let Some(provisional) = provisional else {
                return Err(self.unsupported(e.span, format!("enumerator value {value} does not fit in 64 bits")));
            };
            let val = self.arith.constant(value.clone(), provisional);
            self.bind(&en.node.identifier.node.name, Symbol::Const(val));
            values.push((en.node.identifier.node.name.clone(), value));
        }
        let lo = values.iter().map(|(_, v)| v.clone()).min().unwrap_or_default();
        let hi = values.iter().map(|(_, v)| v.clone()).max().unwrap_or_default();
        let fits = |t: IntType| lo >= t.min() && hi <= t.max();
        let ty = if lo >= BigInt::zero() && fits(IntType::UINT) {
            IntType::UINT
        } else if fits(IntType::INT) {
            IntType::INT
        } else if lo >= BigInt::zero() && fits(IntType::ULONG) {
            IntType::ULONG
        } else if fits(IntType::LONG) {
            IntType::LONG
        } else {
            return Err(self.unsupported(e.span, "an enumeration whose values do not fit in 64 bits"));
        };
        for (name, value) in values {
            let t = enumerator_type(&value, ty).unwrap_or(ty);
            let val = self.arith.constant(value, t);
            self.bind(&name, Symbol::Const(val));
        }
        if let Some(t) = tag {
            self.enum_tags.insert(t, ty);
        }
        Ok(ty)
    }
}

/// The type of an enumeration constant: `int` when its value fits, else
/// the enumeration's type (`None`: not even that holds it).
fn enumerator_type(value: &BigInt, enum_type: IntType) -> Option<IntType> {
    if value >= &IntType::INT.min() && value <= &IntType::INT.max() {
        Some(IntType::INT)
    } else if value >= &enum_type.min() && value <= &enum_type.max() {
        Some(enum_type)
    } else {
        None
    }
}

/// A location on a cycle that has no dominating header: strip back edges
/// (target dominates source), then peel off locations without forward
/// predecessors or successors; what remains lies on such cycles.
fn irreducible_location(p: &Program) -> Option<LocId> {
    let dom = ir::loops::dominators(p);
    let n = p.locations.len();
    let dominates = |a: LocId, b: LocId| dom.get(b).and_then(|d| d.as_ref()).is_some_and(|d| d.contains(&a));
    let forward: Vec<(LocId, LocId)> = p
        .edges
        .iter()
        .filter(|e| e.from < n && e.to < n && dom[e.from].is_some() && !dominates(e.to, e.from))
        .map(|e| (e.from, e.to))
        .collect();
    let mut alive = vec![true; n];
    loop {
        let mut indeg = vec![0usize; n];
        let mut outdeg = vec![0usize; n];
        for &(f, t) in &forward {
            if alive[f] && alive[t] {
                outdeg[f] += 1;
                indeg[t] += 1;
            }
        }
        let mut changed = false;
        for l in 0..n {
            if alive[l] && (indeg[l] == 0 || outdeg[l] == 0) {
                alive[l] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let on_cycle: Vec<LocId> = (0..n).filter(|&l| alive[l]).collect();
    let has = |l: &LocId, prefix: &str| p.locations[*l].note.starts_with(prefix) && p.locations[*l].span.is_some();
    on_cycle
        .iter()
        .find(|l| has(l, "label"))
        .or_else(|| on_cycle.iter().find(|l| has(l, "")))
        .or(on_cycle.first())
        .copied()
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Storage {
    pub typedef: bool,
    pub is_extern: bool,
    pub is_static: bool,
}

pub(crate) fn declarator_name(d: &Declarator) -> Option<String> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// A declarator that declares a function (not a pointer to one).
fn is_function_declarator(d: &Declarator) -> bool {
    let direct = matches!(d.kind.node, DeclaratorKind::Identifier(_));
    direct && d.derived.iter().any(|x| matches!(x.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)))
}

/// The type of a declared object: pointers, arrays and the like are not
/// modelled (yet).
pub(crate) fn apply_declarator(base: CType, d: &Declarator) -> CType {
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        if !inner.node.derived.is_empty() {
            return CType::Unsupported("pointer to function".into());
        }
        return apply_declarator(base, &inner.node).pipe_derived(&d.derived);
    }
    base.pipe_derived(&d.derived)
}

/// The type of a parameter: an array parameter is a pointer (C11 6.7.6.3).
fn parameter_type(base: CType, d: &Declarator) -> CType {
    if let DeclaratorKind::Identifier(_) | DeclaratorKind::Abstract = &d.kind.node {
        if let Some((last, rest)) = d.derived.split_last() {
            if matches!(last.node, DerivedDeclarator::Array(_)) {
                return CType::Ptr(Box::new(base.pipe_derived(rest)));
            }
        }
    }
    apply_declarator(base, d)
}

/// Return type of a function declarator: its derived parts other than the
/// function itself (a pointer among them makes it a pointer).
fn return_type(base: CType, d: &Declarator) -> CType {
    let others: Vec<&Node<DerivedDeclarator>> = d
        .derived
        .iter()
        .filter(|x| !matches!(x.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)))
        .collect();
    if others.iter().all(|x| matches!(x.node, DerivedDeclarator::Pointer(_))) {
        others.iter().fold(base, |t, _| CType::Ptr(Box::new(t)))
    } else {
        CType::Unsupported("a function returning an array or function".into())
    }
}

trait PipeDerived {
    fn pipe_derived(self, derived: &[Node<DerivedDeclarator>]) -> CType;
}

impl PipeDerived for CType {
    fn pipe_derived(self, derived: &[Node<DerivedDeclarator>]) -> CType {
        match derived.first().map(|x| &x.node) {
            None => self,
            // `T **p`: pointers only, each one more level.
            Some(DerivedDeclarator::Pointer(_)) if derived.iter().all(|x| matches!(x.node, DerivedDeclarator::Pointer(_))) => {
                derived.iter().fold(self, |t, _| CType::Ptr(Box::new(t)))
            }
            Some(DerivedDeclarator::Pointer(_)) => CType::Unsupported("array of pointers".into()),
            Some(DerivedDeclarator::Array(_)) => CType::Unsupported("array".into()),
            Some(DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)) => {
                CType::Unsupported("function".into())
            }
            Some(DerivedDeclarator::Block(_)) => CType::Unsupported("block".into()),
        }
    }
}

/// The expression of `= e` or `= { e }`.
fn scalar_initializer(i: &Node<Initializer>) -> Option<&Node<Expression>> {
    match &i.node {
        Initializer::Expression(e) => Some(e),
        Initializer::List(items) if items.len() == 1 && items[0].node.designation.is_empty() => {
            scalar_initializer(&items[0].node.initializer)
        }
        Initializer::List(_) => None,
    }
}
