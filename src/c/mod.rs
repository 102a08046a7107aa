//! C front end: C text -> [`ir::Program`](crate::ir::Program).
//!
//! Pipeline: `gcc -E` ([`source`]) -> lang-c parse ([`parse`]) -> lowering
//! with every call inlined ([`lower`]) using the integer arithmetic of
//! [`arith`] and the graph builder of [`cfg`]. Errors carry the position in
//! the original source file; no input makes this module panic.

pub mod arith;
mod asm;
pub mod cfg;
pub mod exec;
pub mod gnu;
mod lower;
pub mod meaning;
pub mod parse;
pub mod source;
pub mod types;
mod typing;

use crate::error::{Result, TesseraError};
use crate::ir::{IntSemantics, MachineModel, Program};
use std::path::Path;

pub use meaning::{Allocation, Choices, ExternalCalls};

/// Stack for parsing and lowering: both recurse over the syntax tree.
const STACK_BYTES: usize = 256 * 1024 * 1024;

/// Preprocess, parse and lower a C file for the target `machine`.
pub fn parse_file(path: &Path, semantics: IntSemantics, machine: MachineModel) -> Result<Program> {
    parse_file_with(path, semantics, machine, Choices::default())
}

/// [`parse_file`] under the choices of meaning `choices` (what calls of
/// functions without a definition may change, whether allocations fail).
pub fn parse_file_with(path: &Path, semantics: IntSemantics, machine: MachineModel, choices: Choices) -> Result<Program> {
    let file = path.display().to_string();
    let text = source::preprocess_file(path)?;
    let check = source::CompilerCheck::start(&text, &machine);
    let shown = file.clone();
    let program = on_big_stack(move || parse_preprocessed_with(&file, &text, semantics, machine, choices));
    // What gcc rejects is no program, whatever the front end made of it.
    let accepted = match check {
        Some(check) => check.finish(&shown)?,
        None => false,
    };
    unsupported_if_accepted(program, accepted)
}

/// What gcc accepts is C: when the front end (lang-c's grammar, or one of
/// its own checks) calls it invalid, the fault is the front end's, and the
/// answer is "unsupported" (exit 4), never "invalid" (exit 3).
fn unsupported_if_accepted(program: Result<Program>, accepted: bool) -> Result<Program> {
    match program {
        Err(TesseraError::Syntax { span, message } | TesseraError::Invalid { span, message }) if accepted => Err(TesseraError::unsupported(
            span,
            format!("C that gcc accepts but Tessera cannot read here ({message})"),
        )),
        other => other,
    }
}

/// Same as [`parse_file`] for C text in memory; `file_name` is used in spans.
pub fn parse_source(file_name: &str, text: &str, semantics: IntSemantics, machine: MachineModel) -> Result<Program> {
    let pre = source::preprocess_text(file_name, text)?;
    let check = source::CompilerCheck::start(&pre, &machine);
    let file = file_name.to_string();
    let program = on_big_stack(move || parse_preprocessed(&file, &pre, semantics, machine));
    let accepted = match check {
        Some(check) => check.finish(file_name)?,
        None => false,
    };
    unsupported_if_accepted(program, accepted)
}

/// Parse and lower text that is already preprocessed (with line markers).
pub fn parse_preprocessed(file: &str, text: &str, semantics: IntSemantics, machine: MachineModel) -> Result<Program> {
    parse_preprocessed_with(file, text, semantics, machine, Choices::default())
}

fn parse_preprocessed_with(file: &str, text: &str, semantics: IntSemantics, machine: MachineModel, choices: Choices) -> Result<Program> {
    let p = parse_text(text)?;
    lower::lower(&p.unit, &p.parsed, &p.map, file, arith::Arith::new(semantics, machine), &p.marks, choices)
}

/// Preprocessed text parsed: the syntax tree, the text it was parsed from
/// (after the GNU rewrites), where its offsets stand in the user's files,
/// and what the rewrite left for the typing.
struct Parsed {
    unit: lang_c::ast::TranslationUnit,
    parsed: String,
    map: source::SourceMap,
    marks: lower::Marks,
}

fn parse_text(text: &str) -> Result<Parsed> {
    let text = parse::universal_character_names(text);
    let map = source::SourceMap::new(&text);
    let refused = |(at, what): gnu::Refusal| TesseraError::unsupported(map.span(&text, at), what);
    let rewritten = gnu::rewrite(&text, false).map_err(refused)?;
    let retry = rewritten.has_alignof;
    let mut parsed = rewritten.text.clone();
    let mut marks = lower::Marks { pack: rewritten.pack.clone(), ..lower::Marks::default() };
    let mut rewritten_map = map.clone().rewritten(&text, rewritten);
    let unit = match parse::parse(&parsed, &rewritten_map) {
        Ok(unit) => unit,
        // `__alignof__(expr)` parses only with its argument wrapped in
        // `__typeof__` (see `gnu`); the first error stands if it still fails.
        Err(first) if retry => {
            let wrapped = gnu::rewrite(&text, true).map_err(refused)?;
            parsed = wrapped.text.clone();
            marks.alignof_typeof = wrapped.alignof_typeof.clone();
            marks.pack = wrapped.pack.clone();
            rewritten_map = map.clone().rewritten(&text, wrapped);
            parse::parse(&parsed, &rewritten_map).map_err(|_| first)?
        }
        Err(e) => return Err(e),
    };
    Ok(Parsed { unit, parsed, map: rewritten_map, marks })
}

/// Execute every run of the C program in `path` (see [`exec`]): the
/// evidence when every run ends, else why not (within `time`).
pub fn execute_file(path: &Path, semantics: IntSemantics, machine: MachineModel, allocation: Allocation, time: std::time::Duration, limits: exec::Limits) -> std::result::Result<exec::Verdict, String> {
    let text = source::preprocess_file(path).map_err(|e| e.to_string())?;
    execute_preprocessed(text, semantics, machine, allocation, time, limits)
}

/// [`execute_file`] for C text in memory (`file_name` names it in
/// messages), allocations that may fail.
pub fn execute_source(file_name: &str, text: &str, semantics: IntSemantics, machine: MachineModel, time: std::time::Duration, limits: exec::Limits) -> std::result::Result<exec::Verdict, String> {
    execute_source_with(file_name, text, semantics, machine, Allocation::MayFail, time, limits)
}

/// [`execute_source`] with a choice of whether allocations may fail.
pub fn execute_source_with(file_name: &str, text: &str, semantics: IntSemantics, machine: MachineModel, allocation: Allocation, time: std::time::Duration, limits: exec::Limits) -> std::result::Result<exec::Verdict, String> {
    let text = source::preprocess_text(file_name, text).map_err(|e| e.to_string())?;
    execute_preprocessed(text, semantics, machine, allocation, time, limits)
}

fn execute_preprocessed(text: String, semantics: IntSemantics, machine: MachineModel, allocation: Allocation, time: std::time::Duration, limits: exec::Limits) -> std::result::Result<exec::Verdict, String> {
    let deadline = std::time::Instant::now() + time;
    let work = move || -> std::result::Result<exec::Verdict, String> {
        let p = parse_text(&text).map_err(|e| e.to_string())?;
        if let Some((_, what)) = meaning::outside_main(&p.unit) {
            return Err(what);
        }
        let ar = arith::Arith::new(semantics, machine);
        let (table, types) = lower::typed_unit(&p.unit, &p.parsed, &p.map, ar, &p.marks).ok_or("the file scope is not read by typing")?;
        // Floating-point values are not modelled: a run that meets one
        // (a constant, a conversion, a load) gives up there.
        exec::explore_unit(&p.unit, &table, &types, ar, allocation, limits, deadline)
    };
    let handle = std::thread::Builder::new()
        .name("c-exec".into())
        .stack_size(2 * STACK_BYTES)
        .spawn(work)
        .map_err(|e| format!("cannot start the interpreter's thread: {e}"))?;
    handle.join().unwrap_or_else(|_| Err("the interpreter panicked".into()))
}

fn on_big_stack<F>(f: F) -> Result<Program>
where
    F: FnOnce() -> Result<Program> + Send + 'static,
{
    let handle = std::thread::Builder::new()
        .name("c-front-end".into())
        .stack_size(STACK_BYTES)
        .spawn(f)
        .map_err(|e| TesseraError::Internal(format!("cannot start the front-end thread: {e}")))?;
    match handle.join() {
        Ok(r) => r,
        Err(_) => Err(TesseraError::Internal("the C front end panicked".into())),
    }
}
