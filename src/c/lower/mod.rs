//! Lowering a parsed C translation unit to an [`ir::Program`]: one CFG from
//! `main`, with every call inlined.
//!
//! The work is split by concern. Each concern that keeps state owns it in
//! a struct whose fields are private to its module; the rest of the
//! lowering reaches that state only through the struct's methods and the
//! `Lowerer` methods the concern defines (`pub(in crate::c)`):
//!
//! - `flow.rs`: where lowering is — the cursor, the entry and exit, the
//!   guards of conditionally evaluated operands, the nesting depth — and
//!   emitting actions there ([`flow::Flow`]);
//! - `diag.rs`: the approximations, the reasons that forbid NO and the
//!   undefined-behaviour sites ([`diag::Diagnostics`]);
//! - `c/typing/` (beside `lower/` and `exec/`, which both read it): static C types (each expression's decided once, by the
//!   elaboration pass before lowering, on a typing-only reader:
//!   `c/typing/elaborate.rs`; the typing methods are traits over
//!   `c/typing/host.rs`, which lowering implements), the names in
//!   scope as typing sees them, the functions' signatures, structs and
//!   unions and their layout, `sizeof`/`_Alignof`/`offsetof`
//!   ([`typing::Types`]);
//! - `memory/`: pointers, blocks and cells, objects and initializers,
//!   exposure ([`memory::Memory`]);
//! - `calls/`: the stack of inlined bodies (each a
//!   [`Frame`]: its scopes, labels and jump targets, where its returns go,
//!   `calls/frame.rs`), calls (inlining, builtins, library functions,
//!   input, recursion, `main`) ([`calls::Calls`]);
//! - `globals.rs`: the file-scope names, the `static` locals and the
//!   values they start with ([`globals::Globals`]).
//!
//! Two parts of the context sit outside the folder, each behind its own
//! methods: the graph being built ([`CfgBuilder`], `c/cfg.rs`) and the
//! integer operations with the machine model ([`Arith`], `c/arith.rs`).
//!
//! This file holds the context (positions, scope lookup, the whole
//! program, the re-lowering when an allocation site turns out to repeat);
//! `decl.rs` declarations (the types they name: `c/typing/declarators.rs`), `stmt.rs` the statements (control flow),
//! `expr.rs` the values of expressions, `constant.rs` constant
//! expressions (evaluated by `expr.rs`), `operators.rs` arithmetic,
//! `update.rs` `++`/`--` and `op=` (integers and pointers),
//! `cond.rs` conditions and branching, `order.rs` C's unspecified order of
//! evaluation, `lvalue.rs` storage (reached only through [`LValue`]).

pub(in crate::c) mod calls;
mod cond;
mod constant;
mod decl;
mod diag;
mod expr;
pub(in crate::c) mod facts;
pub(in crate::c) mod flow;
mod globals;
mod lvalue;
pub(in crate::c) mod memory;
pub(in crate::c) mod operators;
mod order;
mod stmt;
pub(in crate::c) mod syntax;
use super::typing;
mod update;

use super::arith::{Arith, Val};
use super::cfg::{CfgBuilder, Cursor};
use super::source::SourceMap;
use super::types::CType;
use crate::error::{Result, TesseraError};
use crate::ir::{self, Action, Approximation, IntType, LocId, Program, Span};
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::Zero;

pub(crate) use typing::prelude::*;

/// The typing traits (see `c/typing/host.rs`), for the files of the lowering
/// that read types with them.
pub(crate) mod typed {
    pub(crate) use super::typing::prelude::*;
}
pub(crate) use calls::{Frame, JumpScope};
pub(crate) use calls::library::NONDET_PREFIX;
pub(crate) use typing::{ExprTypes, Types};

/// The types of a translation unit as the elaboration pass decides them,
/// with the typing state it read (records in the pass's numbering, the
/// signatures), for the interpreter (`c::exec`). `None` when the file
/// scope is rejected.
pub(crate) fn typed_unit<'a>(unit: &'a TranslationUnit, text: &'a str, map: &'a SourceMap, arith: Arith, marks: &Marks) -> Option<(typing::ExprTypes, typing::Types<'a>)> {
    let none = Rc::new(typing::ExprTypes::default());
    let types = typing::Types::new(unit, text, map, arith, marks.alignof_typeof.clone(), marks.pack.clone(), none);
    typing::elaborate_keeping(unit, types, &mut calls::Calls::new(unit, calls::ExternalCalls::default()))
}
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// What a C identifier denotes in a scope.
#[derive(Clone, Debug)]
pub(crate) enum Symbol {
    /// An integer variable, by its unique program name.
    Var { name: String, ty: IntType },
    /// An enumeration constant.
    Const(Val),
    /// A type name, with the alignment an `aligned` attribute gave it (which
    /// may differ from its type's own; see `c/typing/attributes.rs`).
    Typedef(CType, Option<u64>),
    /// A variable of a type Tessera does not model; an error when used.
    Unmodelled { what: String },
    /// A pointer variable (see `memory/`).
    Ptr(memory::PtrVar),
    /// An array or struct object: a block of memory of its own (see
    /// `memory/`), at offset 0 of `ptr`.
    Object { ptr: memory::PtrVal, ty: CType },
    /// A variable whose values are not modelled (floating point, a struct
    /// passed by value): each read is any value, writes are dropped.
    Opaque { ty: CType },
}

/// Where an integer value is stored: a named variable, or memory reached
/// through a pointer (already checked to be in bounds, see `memory/`).
#[derive(Clone, Debug)]
pub(crate) enum LValue {
    Var { name: String, ty: IntType },
    Mem { ptr: memory::PtrVal, ty: IntType, at: Option<Span> },
    /// Storage whose contents are not modelled (see [`Symbol::Opaque`]):
    /// loads give any value of what it `holds` (read as `ty`), stores are
    /// dropped.
    Opaque { ty: IntType, holds: Unmodelled, at: Option<Span> },
}

/// What an opaque lvalue holds, which bounds the values a load gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unmodelled {
    /// A floating-point value (read as a `long`): any number.
    Float,
    /// An integer of the lvalue's type (an indeterminate variable).
    Int,
    /// A bit-field of `width` bits declared `declared`, read as its
    /// promoted type (C11 6.3.1.1p2, see [`crate::c::meaning`]).
    BitField { declared: IntType, width: u32 },
}

impl LValue {
    pub fn ty(&self) -> IntType {
        match self {
            LValue::Var { ty, .. } | LValue::Mem { ty, .. } | LValue::Opaque { ty, .. } => *ty,
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
    /// Declared `_Noreturn` or `__attribute__((noreturn))`: a call without
    /// a definition ends the program (`err`, `pthread_exit` in glibc's
    /// headers).
    pub noreturn: bool,
}

/// What the rewrite before parsing (see `c::gnu`) left for the lowering.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// Offsets of the `__typeof__` inserted into `__alignof__(...)`.
    pub alignof_typeof: HashSet<usize>,
    /// The `#pragma pack` value of each struct or union definition laid
    /// out under one, by the offset of its keyword.
    pub pack: HashMap<usize, u64>,
}

pub(crate) struct Lowerer<'a> {
    /// Types and layout (see `c/typing/`).
    types: typing::Types<'a>,
    file: String,
    /// The integer operations (see `c::arith`), and the machine model.
    arith: Arith,
    /// Whether allocations may fail (see `c::meaning`).
    allocation: crate::c::meaning::Allocation,
    /// The graph being built (see `c::cfg`).
    cfg: CfgBuilder,
    /// Where lowering is: the cursor, entry and exit, guards (see `flow.rs`).
    flow: flow::Flow,
    /// File-scope names, `static` locals and their initial values (see
    /// `globals.rs`).
    globals: globals::Globals,
    /// Functions and the bodies being inlined (see `calls/`).
    calls: calls::Calls,
    /// Approximations and undefined-behaviour sites (see `diag.rs`).
    diag: diag::Diagnostics,
    /// The memory model's state (see `memory/`).
    mem: memory::Memory,
}

pub fn lower(
    unit: &TranslationUnit,
    text: &str,
    map: &SourceMap,
    file: &str,
    arith: Arith,
    marks: &Marks,
    choices: crate::c::meaning::Choices,
) -> Result<Program> {
    // An allocation site tracked as running once must not lie on a cycle
    // of the graph after inlining (`malloc` in a `for` step, a called
    // function, reached again by `goto`): lower again with such sites
    // summarized until none is left (each round only adds sites).
    //
    // Likewise the blocks an unknown pointer may address (those whose
    // address is stored somewhere, see `memory::Exposure`) are known only
    // once the whole program is lowered: the first round assumes none, and
    // a round that consulted the assumption is redone with what it found.
    //
    // And the links whose order the model follows (`memory/links.rs`) are
    // known once every access through them is lowered.
    let mut repeating: HashSet<usize> = HashSet::new();
    let mut exposed: HashSet<i64> = HashSet::new();
    let mut held = memory::Held::new();
    let mut links = std::collections::BTreeSet::new();
    // The types of the expressions, decided once for every round.
    let none = Rc::new(typing::ExprTypes::default());
    let types = typing::Types::new(unit, text, map, arith, marks.alignof_typeof.clone(), marks.pack.clone(), none);
    // The file scope is read once too: each round starts from the typing
    // state it leaves, and only makes the globals (see `c/typing/reader.rs`).
    let typing::Elaborated { exprs, file_scope } = typing::elaborate(unit, types, &mut calls::Calls::new(unit, calls::ExternalCalls::default()));
    let elaborated = Rc::new(exprs);
    let file_scope = file_scope.map(|f| f.reading(elaborated.clone()));
    for _ in 0..8 {
        let l = lowerer(unit, text, map, file, arith, marks, choices, &repeating, &exposed, &held, &links, elaborated.clone(), file_scope.as_ref());
        let (program, found, exposure, found_links, _) = lower_once(l, unit, file_scope.as_ref())?;
        // What the variables of this round's program may hold, and so what
        // it let out through the variables its sinks read.
        let found_held = memory::addresses_held(&program, &exposure.cell_blocks);
        // Code outside the model reads globals by name: an address a
        // global variable may hold is let out too.
        let mut found_exposed = exposure.found;
        let globals = program.vars.iter().filter(|v| v.function.is_none()).map(|v| &v.name);
        for v in exposure.found_through.iter().chain(globals) {
            found_exposed.extend(found_held.get(v).into_iter().flatten().copied());
        }
        let held_settled = found_held.iter().all(|(v, blocks)| {
            let assumed = held.get(v);
            blocks.iter().all(|b| exposed.contains(b) || assumed.is_some_and(|a| a.contains(b)))
        });
        let exposure_settled = !exposure.consulted || found_exposed.is_subset(&exposed) && held_settled;
        if found.is_subset(&repeating) && exposure_settled && found_links.is_subset(&links) {
            return Ok(program);
        }
        repeating.extend(found);
        exposed.extend(found_exposed);
        for (v, blocks) in found_held {
            held.entry(v).or_default().extend(blocks);
        }
        links.extend(found_links);
    }
    Err(TesseraError::unsupported(None, "allocation sites whose repetition, or blocks whose exposure, could not be settled"))
}

/// One round of [`lower`]: the program, and what the round found.
fn lower_once<'a>(
    mut l: Lowerer<'a>,
    unit: &'a TranslationUnit,
    read: Option<&typing::FileScope<'a>>,
) -> Result<(Program, HashSet<usize>, memory::Exposure, std::collections::BTreeSet<memory::LinkField>, Vec<crate::c::types::Record>)> {
    let program = l.program(unit, read)?;
    let (found, exposure, links) = l.mem.outcome();
    let links = memory::outside_unions(&links, l.types.records());
    Ok((program, found, exposure, links, l.types.into_records()))
}

/// A lowerer that has lowered nothing yet, reading the types `elaborated`
/// decided, from the typing state the file scope left (`read`; `None`:
/// it reads the file scope itself).
fn lowerer<'a>(
    unit: &'a TranslationUnit,
    text: &'a str,
    map: &'a SourceMap,
    file: &str,
    arith: Arith,
    marks: &Marks,
    choices: crate::c::meaning::Choices,
    repeating: &HashSet<usize>,
    exposed: &HashSet<i64>,
    held: &memory::Held,
    links: &std::collections::BTreeSet<memory::LinkField>,
    elaborated: Rc<typing::ExprTypes>,
    read: Option<&typing::FileScope<'a>>,
) -> Lowerer<'a> {
    let (cfg, entry, exit) = CfgBuilder::new();
    let types = match read {
        Some(read) => read.types(),
        None => typing::Types::new(unit, text, map, arith, marks.alignof_typeof.clone(), marks.pack.clone(), elaborated),
    };
    Lowerer {
        types,
        file: file.to_string(),
        arith,
        allocation: choices.allocation,
        cfg,
        globals: globals::Globals::default(),
        calls: calls::Calls::new(unit, choices.external_calls),
        flow: flow::Flow::new(entry, exit),
        diag: diag::Diagnostics::default(),
        mem: memory::Memory::new(repeating.clone(), exposed.clone(), held.clone(), facts::addressed_in_unit(unit), links.clone(), facts::literals_in_unit(unit)),
    }
}

/// The structs and unions of a C text as laid out (for the tests of
/// `c/typing/records.rs`).
#[cfg(test)]
pub(crate) fn record_layouts(text: &str, machine: ir::MachineModel) -> Result<Vec<crate::c::types::Record>> {
    let rewritten = crate::c::gnu::rewrite(text, true).map_err(|(_, what)| TesseraError::unsupported(None, what))?;
    let marks = Marks { alignof_typeof: rewritten.alignof_typeof.clone(), pack: rewritten.pack.clone() };
    let map = SourceMap::new(text).rewritten(text, rewritten.clone());
    let unit = crate::c::parse::parse(&rewritten.text, &map)?;
    let arith = Arith::new(ir::IntSemantics::C, machine);
    let l = lowerer(&unit, &rewritten.text, &map, "test.c", arith, &marks, Default::default(), &HashSet::new(), &HashSet::new(), &Default::default(), &Default::default(), Default::default(), None);
    let (_, _, _, _, records) = lower_once(l, &unit, None)?;
    Ok(records)
}

impl<'a> Lowerer<'a> {
    // ---- positions and errors

    pub fn span(&self, s: lang_c::span::Span) -> Option<Span> {
        self.types.span(s)
    }
    /// The source text of a syntax node, on one line (for messages).
    pub fn source_text(&self, s: lang_c::span::Span) -> String {
        self.types.source_text(s)
    }
    pub fn unsupported(&self, s: lang_c::span::Span, what: impl Into<String>) -> TesseraError {
        TesseraError::unsupported(self.span(s), what)
    }
    pub fn syntax(&self, s: lang_c::span::Span, what: impl Into<String>) -> TesseraError {
        TesseraError::syntax(self.span(s), what)
    }

    /// Record that the model over-approximates the C program here (once
    /// per place and kind; once per program for the memory-safety
    /// assumption). Unknown values are `choose`s (see [`Lowerer::havoc`]),
    /// which NO answers respect; a kind that is more than unknown values
    /// also forbids NO for the program (a YES stays sound).
    pub fn note_approximation(&mut self, at: Option<Span>, kind: Approximation) {
        self.diag.note(at, kind);
    }

    // ---- scopes

    pub fn frame(&mut self) -> Option<&mut Frame> {
        self.calls.frame_mut()
    }
    /// Start lowering a function's body (its locations record the function).
    pub(crate) fn enter_frame(&mut self, f: Frame) {
        self.cfg.set_function(f.function());
        let scopes = f.scopes().iter().map(|s| s.iter().map(|(n, sym)| (n.clone(), typing::Named::of_symbol(sym))).collect()).collect();
        self.types.names_mut().enter_frame(scopes);
        self.calls.push_frame(f);
    }
    pub(crate) fn leave_frame(&mut self) -> Option<Frame> {
        let f = self.calls.pop_frame();
        self.types.names_mut().leave_frame();
        self.close_automatic(self.calls.frames().len(), usize::MAX);
        self.cfg.set_function(&self.function_name());
        f
    }
    pub fn function_name(&self) -> String {
        self.calls.frame().map(|f| f.function().to_string()).unwrap_or_default()
    }
    pub fn push_scope(&mut self) {
        if let Some(f) = self.frame() {
            f.push_scope();
            self.types.names_mut().push_scope();
        }
    }
    pub fn pop_scope(&mut self) {
        let frames = self.calls.frames().len();
        if let Some(f) = self.frame() {
            let scopes = f.pop_scope();
            self.types.names_mut().pop_scope();
            self.close_automatic(frames, scopes);
        }
    }
    /// Bind `name` to `sym` in the innermost scope (the file scope outside
    /// a block), for lowering and for typing (see `c/typing/names.rs`).
    pub fn bind(&mut self, name: &str, sym: Symbol) {
        self.types.names_mut().bind(name, typing::Named::of_symbol(&sym));
        match self.calls.frame_mut() {
            Some(f) if f.scope_depth() > 0 => {
                f.bind(name, sym);
            }
            _ => {
                self.globals.insert(name.to_string(), sym);
            }
        }
    }
    /// Bind `name` to `sym` at file scope, wherever lowering is.
    pub fn bind_file_scope(&mut self, name: &str, sym: Symbol) {
        self.types.names_mut().bind_file_scope(name, typing::Named::of_symbol(&sym));
        self.globals.insert(name.to_string(), sym);
    }
    pub fn lookup(&self, name: &str) -> Option<&Symbol> {
        if let Some(s) = self.calls.frame().and_then(|f| f.lookup(name)) {
            return Some(s);
        }
        self.globals.get(name)
    }

    // ---- the whole program

    /// The file-scope declarations and the functions' signatures, then
    /// what is known once they are all read (see [`calls::Calls::index_bodies`]).
    /// When the elaboration pass read them (`read`), the round's typing
    /// state starts as they left it: only the globals are made here, with
    /// their initial values, in the order of the file.
    fn file_scope(&mut self, unit: &'a TranslationUnit, read: Option<&typing::FileScope<'a>>) -> Result<()> {
        match read {
            Some(read) => {
                for (name, sym) in read.constants_and_type_names() {
                    self.globals.insert(name, sym);
                }
                for g in read.globals() {
                    self.object_declarator(g.decl, g.init, g.name.clone(), g.ty.clone(), g.storage, true)?;
                }
            }
            None => {
                for ext in &unit.0 {
                    match &ext.node {
                        ExternalDeclaration::Declaration(d) => self.declaration(d, true)?,
                        ExternalDeclaration::FunctionDefinition(f) => self.function_definition(f)?,
                        ExternalDeclaration::StaticAssert(_) => {}
                    }
                }
            }
        }
        let values = self.calls.index_bodies(self.types.signatures());
        self.types.signatures_mut().set_values(values);
        Ok(())
    }

    fn program(&mut self, unit: &'a TranslationUnit, read: Option<&typing::FileScope<'a>>) -> Result<Program> {
        if let Some((at, what)) = crate::c::meaning::outside_main(unit) {
            return Err(self.unsupported(at, what));
        }
        self.file_scope(unit, read)?;
        let main = match self.types.signatures().function("main").and_then(|f| f.def) {
            Some(m) => m,
            None => {
                let at = Span { file: self.file.clone(), line: 1, col: 1 };
                return Err(TesseraError::syntax(Some(at), "no definition of `main`"));
            }
        };
        self.cfg.set_span(self.flow.entry(), self.span(main.span));
        let mut start = Cursor::at(self.flow.entry());
        for (name, ty, init) in self.globals.take_inits() {
            match init {
                Some(v) => start.push(Action::Assign(name, crate::term::Term::Int(v))),
                None => {
                    // An external global's initial value: an input.
                    start.push(Action::Havoc(name.clone()));
                    if let Some(r) = self.arith.range_assumption(&name, ty) {
                        start.push(Action::Assume(r));
                    }
                }
            }
        }
        self.flow.set(Some(start));
        self.call_main(main)?;
        if let Some(c) = self.flow.take() {
            self.cfg.jump(c, self.flow.exit());
        }
        // `static` locals are initialized before the program starts.
        let inits = self.globals.take_static_inits();
        if !inits.is_empty() {
            self.cfg.prepend_on_edges_from(self.flow.entry(), &inits);
        }
        self.finish()
    }

    /// Checks at the end of a function body: every `goto` has its label.
    pub fn end_function_body(&mut self, s: lang_c::span::Span) -> Result<()> {
        if let Some(f) = self.calls.frame() {
            if let Some(l) = f.undefined_labels().first() {
                return Err(self.syntax(s, format!("label `{l}` used but not defined")));
            }
        }
        Ok(())
    }

    /// Drop locations unreachable from the entry, renumber, check loops.
    fn finish(&mut self) -> Result<Program> {
        let held = self.mem.held_addresses();
        memory::forget_overwritten(self.cfg.edge_actions_mut(), held);
        let found = self.cfg.repeating_sites();
        self.mem.found_repeating(found);
        let graph = std::mem::take(&mut self.cfg).finish(self.flow.entry(), self.flow.exit());
        let recorded = self.diag.take();
        let program = Program {
            file: self.file.clone(),
            vars: graph.vars,
            locations: graph.locations,
            edges: graph.edges,
            entry: graph.entry,
            exit: graph.exit,
            semantics: self.arith.semantics(),
            machine: *self.arith.machine(),
            approximations: recorded.approximations,
            forbid_no: recorded.forbid_no,
            undefined: recorded.undefined,
            coalesced: vec![],
        };
        if let Err(e) = ir::find_loops(&program) {
            // A `goto` into a loop body: copy the part of the cycle entered
            // from outside (node splitting, which keeps every run), so that
            // each loop has one header.
            if let Some(split) = ir::split::make_reducible(program.clone()).filter(|p| ir::find_loops(p).is_ok()) {
                return Ok(split);
            }
            // Point at a location on the offending cycle (a label, if any).
            let at = irreducible_location(&program).unwrap_or(e.location);
            let loc = program.locations.get(at);
            let span = loc.and_then(|l| l.span.clone());
            let place = loc.map(|l| l.note.clone()).filter(|n| !n.is_empty());
            let what = format!(
                "irreducible control flow: a cycle entered other than through one loop header{} (e.g. a goto into a loop body), too large to split",
                place.map(|p| format!(", at `{p}`")).unwrap_or_default()
            );
            return Err(TesseraError::unsupported(span, what));
        }
        Ok(program)
    }

}

/// Lowering reads types with the typing layer's methods, over its own
/// typing state; a constant the evaluator does not decide is lowered at
/// the entry (see `constant.rs`).
impl<'a> TypingHost<'a> for Lowerer<'a> {
    fn types(&self) -> &typing::Types<'a> {
        &self.types
    }
    fn types_mut(&mut self) -> &mut typing::Types<'a> {
        &mut self.types
    }
    fn bind(&mut self, name: &str, sym: Symbol) {
        Lowerer::bind(self, name, sym)
    }
    fn enter(&mut self, s: lang_c::span::Span) -> Result<()> {
        Lowerer::enter(self, s)
    }
    fn leave(&mut self) {
        Lowerer::leave(self)
    }
    fn evaluate_constant(&mut self, e: &'a Node<Expression>) -> (Result<Val>, bool) {
        self.evaluate_at_entry(e)
    }
}

/// A location on a cycle that has no dominating header: strip back edges
/// (target dominates source), then peel off locations without forward
/// predecessors or successors; what remains lies on such cycles.
fn irreducible_location(p: &Program) -> Option<LocId> {
    let dom = ir::loops::dominators(p);
    let n = p.locations.len();
    let forward: Vec<(LocId, LocId)> = p
        .edges
        .iter()
        .filter(|e| e.from < n && e.to < n && dom.reachable(e.from) && !dom.dominates(e.to, e.from))
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
