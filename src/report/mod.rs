//! Answers for people and for harnesses: text, JSON, the termination
//! competition's format and SV-COMP's; verification witnesses (`witness`).
//!
//! Every formula and ranking function is printed in C over the program's
//! own variables ([`cexpr`]), never as SMT-LIB over internal names.

mod bound;
pub mod cexpr;
mod maybe;
mod precondition;
mod notation;
pub mod ranking;
pub mod witness;

use crate::horn::encode::Encoding;
use crate::term::Term;
use crate::termination::certificate::NonTerminationWitness;
use crate::termination::{Answer, LoopProof, NoWitness, Outcome};
use cexpr::Names;
use maybe::{maybe_help, readable_places};
pub use maybe::short_reason;
use ranking::Check;
use serde_json::{json, Value as Json};
use std::fmt::Write as _;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable: answer, per-loop arguments, time, winning strategy.
    Text,
    /// One JSON object (schema in the README).
    Json,
    /// Termination competition: first line YES, NO or MAYBE, then the proof.
    Termcomp,
    /// SV-COMP: first line TRUE, FALSE(termination) or UNKNOWN.
    Svcomp,
}

/// How much a printout shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// `--verbose`: the model's bookkeeping in proofs (see
    /// [`crate::ir::names::Detail`]) and every operation whose undefined
    /// behaviour was not ruled out, one per line.
    pub verbose: bool,
}

impl View {
    fn detail(self) -> crate::ir::names::Detail {
        if self.verbose {
            crate::ir::names::Detail::Model
        } else {
            crate::ir::names::Detail::Program
        }
    }
}

/// [`render_with`] the default view.
pub fn render(o: &Outcome, format: Format) -> String {
    render_with(o, format, View::default())
}

pub fn render_with(o: &Outcome, format: Format, view: View) -> String {
    match format {
        Format::Text => text(o, view),
        Format::Json => serde_json::to_string_pretty(&to_json_with(o, view)).unwrap_or_else(|_| "{}".into()) + "\n",
        Format::Termcomp => {
            let mut s = format!("{}\n", o.answer.word());
            s.push_str(&details(o, view));
            s
        }
        Format::Svcomp => {
            let first = match o.answer {
                Answer::Yes { .. } => "TRUE",
                Answer::No { .. } => "FALSE(termination)",
                Answer::Maybe { .. } => "UNKNOWN",
            };
            format!("{first}\n{}", details(o, view))
        }
    }
}

fn line_of(span: &Option<crate::ir::Span>) -> String {
    match span {
        Some(s) => format!("{}:{}", s.file, s.line),
        None => "?".into(),
    }
}

/// The recursive function whose calls loop `header` stands for (its
/// descent header: an iteration is a call that does not return).
fn recursion_at(o: &Outcome, header: crate::ir::LocId) -> Option<&str> {
    o.encoding.as_ref().and_then(|e| e.recursions.get(&header)).map(|f| f.as_str())
}

/// How the text names loop `index`: `loop 0 at f.c:3`, or for a
/// recursion `recursion of \`f\` (loop 0) at f.c:3`.
fn loop_text(o: &Outcome, index: usize, header: Option<crate::ir::LocId>, span: &Option<crate::ir::Span>) -> String {
    match header.and_then(|h| recursion_at(o, h)) {
        Some(f) => format!("recursion of `{f}` (loop {index}) at {}", line_of(span)),
        None => format!("loop {index} at {}", line_of(span)),
    }
}

/// The header of the loop a witness is about.
fn witness_header(o: &Outcome, w: &NonTerminationWitness) -> Option<crate::ir::LocId> {
    o.encoding.as_ref().and_then(|e| e.loops.get(w.loop_index)).map(|l| l.header)
}

/// A YES by ranking functions on the program model: per loop its ranking
/// function and supporting invariant, the return summaries, the heap
/// quantities used, and what the model assumed.
fn model_yes_text(o: &Outcome, loops: &[LoopProof], view: View) -> String {
    let mut s = String::new();
    if loops.is_empty() {
        let _ = writeln!(s, "The program has no loops (and no recursion): every run is finite.");
    }
    let names = names_of(o, view);
    for l in loops {
        // A bound execution found reads as one.
        let what = if l.strategy == crate::termination::BOUND_FROM_EXECUTION { "at most {} iterations in one entry" } else { "ranking function {}" };
        let _ = writeln!(
            s,
            "{}: {}  [{}]",
            loop_text(o, l.loop_index, Some(l.header), &l.span),
            what.replace("{}", &ranking_text(o, l, &names)),
            l.strategy
        );
        match invariant_text(o, l, &names, view) {
            // The invariant simplified to false: no run reaches the loop.
            f if f == "0" => {
                let _ = writeln!(s, "  the loop is unreachable (its invariant is false)");
            }
            // True: the ranking function needs no fact about the states.
            f if f == "1" => {
                let _ = writeln!(s, "  supporting invariant: none needed");
            }
            inv => {
                let _ = writeln!(s, "  supporting invariant at the loop header: {inv}");
            }
        }
        if let Some(b) = bound_text(o, l, &names, bound::Notation::Text) {
            let what = if recursion_at(o, l.header).is_some() { "nested calls" } else { "iterations each time the loop is entered" };
            let _ = writeln!(s, "  at most {b} {what} (values on entry)");
        }
        if let Some(b) = nest_bound_text(o, l, &names, bound::Notation::Text) {
            let _ = writeln!(s, "  with the loops inside it: at most {b} iterations in all each time it is entered (values on entry)");
        }
    }
    // Where there are several loops: the whole run's bound (JSON has it
    // always).
    if let Some(p) = o.encoding.as_ref().filter(|e| e.loops.len() > 1).and_then(|e| bound::program(e, loops, &names, bound::Notation::Text)) {
        let over = if p.over.is_empty() { String::new() } else { format!(", over {} (their values when the first loop starts)", p.over.join(", ")) };
        let _ = writeln!(s, "every run: at most {} loop iterations in all, {}{over}", p.bound, p.complexity);
    }
    for (function, shown) in summaries_text(o) {
        let _ = writeln!(s, "every call of `{function}` that returns satisfies: {shown}");
    }
    let heap = notation::grouped(notation::heap_quantities(loops, o.encoding.as_ref(), &names));
    if !heap.is_empty() {
        let _ = writeln!(s, "where");
        for (name, meaning) in heap {
            let _ = writeln!(s, "  {name}: {meaning}");
        }
    }
    if o.assumes_valid_accesses {
        let _ = writeln!(
            s,
            "this YES assumes every memory access valid: a run that dereferences NULL or leaves an object's bounds ends there (undefined behaviour; see --allocation for allocations that fail)"
        );
    }
    s
}

fn details(o: &Outcome, view: View) -> String {
    let mut s = String::new();
    match &o.answer {
        Answer::Yes { executed: Some(e), loops } => {
            s.push_str(&executed_text(&o.file, e));
            if o.confirmed_on_model {
                s.push_str(&model_yes_text(o, loops, view));
            }
            s.push_str(&executed_basis(e, o.confirmed_on_model));
        }
        Answer::Yes { loops, .. } => s.push_str(&model_yes_text(o, loops, view)),
        Answer::No { witness: NoWitness::Executed(l), .. } => s.push_str(&lasso_text(&o.file, l)),
        Answer::No { witness: NoWitness::Model(witness), span, strategy } => {
            let header = witness_header(o, witness);
            let _ = writeln!(s, "{} does not terminate  [{}]", loop_text(o, witness.loop_index, header, span), strategy);
            let recursion = header.and_then(|h| recursion_at(o, h));
            s.push_str(&witness_text(witness, o.encoding.as_ref(), &names_of(o, view), recursion));
            if o.confirmed_on_model {
                let _ = writeln!(s, "(execution found a run of the C program that comes back to a state as well: the interpreter and the program model agree)");
            }
        }
        Answer::Maybe { reason } => {
            let _ = writeln!(s, "reason: {}", short_reason(reason, o.seconds));
            if o.encoding.is_some() {
                s.push_str(&maybe_help(o));
            }
        }
    }
    if let Some(text) = precondition::text(o) {
        s.push_str(&text);
    }
    s
}

/// A YES from executing every run: how many runs, and per loop the most
/// iterations one entry took (a bound every run respects).
fn executed_text(file: &str, e: &crate::c::exec::Evidence) -> String {
    let mut s = String::new();
    let how = match e.pruned {
        None => {
            let mut forks = Vec::new();
            if e.allocations_fail {
                forks.push("each allocation both succeeding and failing");
            }
            if e.read_input {
                forks.push("an unknown input taking every branch");
            }
            if forks.is_empty() { "the program reads no input".to_string() } else { forks.join(", ") }
        }
        Some(n) => format!("each input a variable, a branch on inputs taken where the path condition allows it; {n} alternative{} ruled out by Z3", if n == 1 { "" } else { "s" }),
    };
    let how = match e.joined {
        0 => how,
        k => format!("{how}; {k} branch{} taken both ways at once, the values that differ defined by `ite` over the paths' conditions", if k == 1 { "" } else { "es" }),
    };
    let _ = writeln!(s, "every run of the program was executed and ends: {} run{} ({how}), at most {} steps in a run", e.runs, if e.runs == 1 { "" } else { "s" }, e.most_steps);
    if e.accelerated > 0 {
        let _ = writeln!(
            s,
            "up to {} loop iterations of a run taken in strides: stretches on which only counters move, each by the same amount per period, and whose path Z3 showed to be the same all along",
            e.accelerated
        );
    }
    for l in &e.loops {
        // Loops from one macro expansion share a line: their columns
        // tell them apart.
        let shared = e.loops.iter().filter(|o| o.line == l.line).count() > 1;
        let at = if shared { format!("{}:{}", l.line, l.column) } else { l.line.to_string() };
        let _ = writeln!(s, "loop at {file}:{at}: at most {} iteration{} in every run", l.iterations, if l.iterations == 1 { "" } else { "s" });
    }
    for (f, n) in &e.recursions {
        let _ = writeln!(s, "recursion of `{f}`: at most {n} nested calls in every run");
    }
    let ending: usize = e.undefined.iter().map(|u| u.runs).sum();
    if ending > 0 {
        let places: Vec<String> = e
            .undefined
            .iter()
            .map(|u| format!("{} at {} ({} run{})", u.kind, u.at.as_ref().map_or_else(|| file.to_string(), |a| a.to_string()), u.runs, if u.runs == 1 { "" } else { "s" }))
            .collect();
        let _ = writeln!(
            s,
            "{ending} of {} run{} end{} only at undefined behaviour, where C gives the run no meaning past it (Tessera's choice: such a run ends; see --ints{}): {}",
            e.runs,
            if e.runs == 1 { "" } else { "s" },
            if ending == 1 { "s" } else { "" },
            if e.undefined.iter().any(|u| u.kind == crate::ir::Undefined::NullDereference) { " and --allocation" } else { "" },
            places.join(", ")
        );
    }
    s
}

/// What a YES from execution rests on: the interpreter alone, or also the
/// program model that confirmed it.
fn executed_basis(e: &crate::c::exec::Evidence, confirmed: bool) -> String {
    if confirmed {
        "(this YES was found by executing every run and confirmed on the program model: the ranking functions above, checked by the certificate checker)\n".to_string()
    } else {
        format!(
            "(this YES rests on the interpreter's semantics of C{}, checked by replaying every run; the program model did not confirm it)\n",
            if e.pruned.is_some() { " and on Z3's answers that the alternatives ruled out are unsatisfiable" } else { "" }
        )
    }
}

/// A NO from a run that repeats a state: where, after which inputs, and
/// the state at the loop's head.
fn lasso_text(file: &str, l: &crate::c::exec::Lasso) -> String {
    let mut s = String::new();
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    match l.kind {
        crate::c::exec::LassoKind::Loop => {
            let function = if l.function.is_empty() { String::new() } else { format!(" (in `{}`)", l.function) };
            let _ = writeln!(s, "loop at {file}:{}:{}{function} does not terminate  [execution]", l.line, l.column);
            let _ = writeln!(
                s,
                "  a run comes back to the state it had at the loop's head {} iteration{} before (after {} iteration{} of this entry, {} steps from the start), so it repeats for ever",
                l.period,
                plural(l.period),
                l.stem_iterations,
                plural(l.stem_iterations),
                l.steps
            );
        }
        crate::c::exec::LassoKind::Recursion => {
            let _ = writeln!(s, "recursion of `{}` (defined at {file}:{}) does not terminate  [execution]", l.function, l.line);
            let _ = writeln!(
                s,
                "  call {} of `{}` is nested in call {} and sees the same arguments, globals and heap (no pointer to a local), so the calls nest for ever ({} steps from the start)",
                l.stem_iterations + l.period + 1,
                l.function,
                l.stem_iterations + 1,
                l.steps
            );
        }
    }
    for (line, col) in &l.failing_allocations {
        let _ = writeln!(s, "  the allocation at {file}:{line}:{col} fails (returns NULL) at every call (allocations may fail: --allocation may-fail)");
    }
    if l.inputs.is_empty() {
        let _ = writeln!(s, "  the run reads no input");
    } else {
        let _ = writeln!(s, "  inputs (each place returns this value at every call, or from it one more at each call):");
        for (line, col, t, v, rising) in &l.inputs {
            let then = if *rising { format!(", then {}, {}, ... (one more at each call)", v + 1, v + 2) } else { String::new() };
            let _ = writeln!(s, "    {file}:{line}:{col}: {t} {v}{then}");
        }
    }
    if !l.state.is_empty() {
        let _ = writeln!(s, "  state at the {}:", if l.kind == crate::c::exec::LassoKind::Loop { "loop's head" } else { "nested call" });
        for (n, v) in &l.state {
            let _ = writeln!(s, "    {n} = {v}");
        }
    }
    if l.heap_blocks > 0 {
        let _ = writeln!(s, "  live heap blocks: {}", l.heap_blocks);
    }
    let _ = writeln!(s, "(this NO rests on the interpreter's semantics of C, checked by replaying the run and comparing whole states; the program model did not confirm it)");
    s
}

/// Each return summary a YES assumed, in C: the result written as the
/// call (`f91(x) >= x - 10`).
fn summaries_text(o: &Outcome) -> Vec<(&str, String)> {
    o.summaries
        .iter()
        .map(|summary| {
            let t = summary.as_c();
            (summary.function.as_str(), cexpr::condition(&t, &Names::default().showing_all_of(&t)))
        })
        .collect()
}

/// Names for printing: the program's source names when the outcome carries
/// them.
fn names_of(o: &Outcome, view: View) -> Names {
    match &o.encoding {
        Some(e) => Names::readable_with(&e.program_vars, view.detail()),
        None => Names::default(),
    }
}


/// The loop's iteration bound over the values on entry, where it has one
/// that `names` can print.
fn bound_text(o: &Outcome, l: &LoopProof, names: &Names, notation: bound::Notation) -> Option<String> {
    let b = l.bound.as_ref()?;
    let b = match &o.encoding {
        Some(enc) => b.on_entry(enc, l.loop_index),
        None => b.clone(),
    };
    bound::bound(&b, names, notation)
}

/// The bound of the loop and the loops inside it over its values on entry.
fn nest_bound_text(o: &Outcome, l: &LoopProof, names: &Names, notation: bound::Notation) -> Option<String> {
    let b = l.nest_bound.as_ref()?;
    let b = match &o.encoding {
        Some(enc) => b.on_entry(enc, l.loop_index),
        None => b.clone(),
    };
    bound::nest(&b, names, notation)
}

/// The supporting invariant over the variables live at the loop header.
/// By default without the facts about how blocks are numbered (see
/// [`notation::numbering_fact`]).
fn invariant_text(o: &Outcome, l: &LoopProof, names: &Names, view: View) -> String {
    let names = notation::names_at(o.encoding.as_ref(), l.header, names);
    let invariant = match (&o.encoding, view.verbose) {
        (Some(enc), false) => Term::and(l.invariant.conjuncts().into_iter().filter(|c| !notation::numbering_fact(c, enc)).collect()),
        _ => l.invariant.clone(),
    };
    cexpr::condition(&invariant, &names)
}

fn check_of(l: &LoopProof) -> Check {
    if l.decreases {
        Check::Decrease
    } else {
        Check::Bound
    }
}

/// The ranking function in C over source names; over the model's names
/// when some piece speaks of its bookkeeping, and in the internal form
/// only when some piece speaks of a variable without any name.
fn ranking_text(o: &Outcome, l: &LoopProof, names: &Names) -> String {
    ranking::ranking(&l.ranking, check_of(l), names)
        .or_else(|| {
            let all = Names::readable_with(&o.encoding.as_ref()?.program_vars, crate::ir::names::Detail::Model);
            ranking::ranking(&l.ranking, check_of(l), &all)
        })
        .unwrap_or_else(|| l.ranking.to_string())
}

fn witness_text(w: &NonTerminationWitness, enc: Option<&Encoding>, names: &Names, recursion: Option<&str>) -> String {
    let mut s = String::new();
    if w.stem.is_empty() {
        let _ = writeln!(s, "  stem: none (the run is at the loop header from its start)");
    } else {
        let _ = writeln!(s, "  stem (from the program start to the loop header: the state after the first step, then what each step changes):");
    }
    // A program of fifty globals would repeat them all on every line; a
    // step shows what it changes (and values first shown there).
    let mut before: std::collections::BTreeMap<String, String> = Default::default();
    for (k, step) in w.stem.iter().enumerate() {
        let label = enc
            .and_then(|e| e.transitions.get(step.transition).map(|t| (e, t)))
            .map(|(e, t)| format!("{} -> {}", crate::horn::encode::place_name(e, t.from), crate::horn::encode::place_name(e, crate::horn::encode::Source::At(t.to))))
            .unwrap_or_default();
        let state = shown_state(step, enc, names);
        let vals: Vec<String> = state.iter().filter(|(k, v)| before.get(k) != Some(v)).map(|(k, v)| format!("{k} = {v}")).collect();
        let vals = if vals.is_empty() && k > 0 { "(no change)".to_string() } else { vals.join(", ") };
        let _ = writeln!(s, "    {k}: {label}: {vals}");
        before.extend(state);
    }
    if w.stem.iter().any(|step| enc.and_then(|e| e.transitions.get(step.transition)).is_some_and(|t| !t.allocations.is_empty())) {
        let _ = writeln!(s, "  the stem passes allocations that may fail (--allocation may-fail): its run may be one where an allocation returns NULL");
    }
    match recursion {
        Some(f) => {
            let _ = writeln!(
                s,
                "  recurrent set at each entry into `{f}` (every call of `{f}` in it makes a call of `{f}` in it again): {}",
                recurrent_text(w, names)
            );
        }
        None => {
            let _ = writeln!(s, "  recurrent set (every state in it has a successor in it): {}", recurrent_text(w, names));
        }
    }
    for (at, set) in inner_texts(w, enc, names) {
        let _ = writeln!(s, "    and inside the loop, at {at}: {set}");
    }
    s
}

/// The recurrent sets at the loop's other cut-points (inner loop headers,
/// join points), named as in the stem.
fn inner_texts(w: &NonTerminationWitness, enc: Option<&Encoding>, names: &Names) -> Vec<(String, String)> {
    w.inner_sets
        .iter()
        .map(|(c, set)| {
            let at = match enc.and_then(|e| e.loops.iter().position(|l| l.header == *c)) {
                Some(i) => format!("the header of loop {i}"),
                None => format!("the join point L{c}"),
            };
            (at, exact_text(set, names))
        })
        .collect()
}

/// The values of a stem state worth showing: variables with a source name
/// that are live where the step arrives (a dead variable arrives as 0 and
/// means nothing), under their source names.
pub fn shown_state(
    step: &crate::termination::certificate::StemStep,
    enc: Option<&Encoding>,
    names: &Names,
) -> Vec<(String, String)> {
    let live = enc.and_then(|e| e.transitions.get(step.transition).and_then(|t| e.live.get(t.to)));
    step.state
        .iter()
        .filter(|(k, _)| live.is_none_or(|l| l.contains(*k)))
        .filter_map(|(k, v)| names.get(k).map(|n| (n.to_string(), v.to_string())))
        .collect()
}

/// The recurrent set in C; exactly as checked (a weakened set need not be
/// recurrent), so with internal names if it speaks of a hidden variable.
fn recurrent_text(w: &NonTerminationWitness, names: &Names) -> String {
    exact_text(&w.recurrent_set, names)
}

/// A set in C over source names, or, when it speaks of a variable without
/// one (a temporary), still in C with that variable's internal name.
fn exact_text(set: &crate::term::Term, names: &Names) -> String {
    cexpr::exact_condition(set, names)
        .or_else(|| cexpr::exact_condition(set, &names.showing_all_of(set)))
        .unwrap_or_else(|| set.to_string())
}

/// The inputs a run that reaches an undefined operation reads, in C words:
/// `x = 2147483647, y = 1` (an input used at once, in no variable: its value).
fn inputs_text(inputs: &[crate::ir::InputValue], names: &Names) -> String {
    inputs
        .iter()
        .map(|i| match names.get(&i.variable) {
            Some(v) => format!("{v} = {}", i.value),
            None => i.value.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The operations whose undefined behaviour a run reaches, one warning
/// each with the inputs that get there; those neither reached nor ruled
/// out counted in one note (listed one per line with `--verbose`): such an
/// operation is not a bug found, and printing it as a warning would read
/// as one.
fn warning_lines(o: &Outcome, view: View) -> String {
    let mut s = String::new();
    let names = names_of(o, View::default());
    let at = |w: &crate::ir::UndefinedSite| w.span.as_ref().map(|sp| format!("{sp}: ")).unwrap_or_default();
    let mut unchecked = Vec::new();
    for w in &o.warnings {
        match &w.status {
            crate::ir::WarningStatus::NotRuledOut => unchecked.push(w),
            crate::ir::WarningStatus::Reachable { steps, inputs } => {
                let after = match steps {
                    0 => String::new(),
                    1 => " after 1 visit of a loop header".to_string(),
                    k => format!(" after {k} visits of loop headers"),
                };
                let with = if inputs.is_empty() { String::new() } else { format!(" with the inputs, in the order read: {}", inputs_text(inputs, &names)) };
                let _ = writeln!(s, "warning: {}{} in '{}': a run gets there{after}{with}", at(w), w.kind, w.expression);
            }
        }
    }
    if unchecked.is_empty() {
        return s;
    }
    if view.verbose {
        for w in &unchecked {
            let _ = writeln!(s, "note: {}{} possible in '{}' (not ruled out, no run found that gets there)", at(w), w.kind, w.expression);
        }
    }
    let n = unchecked.len();
    let (what, it) = if n == 1 { ("1 operation".to_string(), "it") } else { (format!("{n} operations"), "one") };
    let listed = match (view.verbose, n) {
        (true, _) => "listed above".to_string(),
        (false, 1) => "--verbose lists it".to_string(),
        (false, _) => "--verbose lists them".to_string(),
    };
    let covers = match o.answer {
        Answer::Yes { .. } => format!("; this YES counts a run that would reach {it} undefined as ending there"),
        _ => String::new(),
    };
    let _ = writeln!(s, "note: {what} not shown free of undefined behaviour, though no run was found that reaches {it} ({listed}){covers}");
    s
}

fn text(o: &Outcome, view: View) -> String {
    let mut s = format!("{}: {}\n", o.file, o.answer.word());
    s.push_str(&details(o, view));
    s.push_str(&warning_lines(o, view));
    // A MAYBE without queries is one the supervisor gave when it stopped
    // the proof at a limit (the worker's count is lost with it), or an
    // input the prover refused: no count to report, rather than a false 0.
    if o.queries == 0 && matches!(o.answer, Answer::Maybe { .. }) {
        let _ = writeln!(s, "time: {:.2} s", o.seconds);
    } else {
        let _ = writeln!(s, "time: {:.2} s, {} safety queries", o.seconds, o.queries);
    }
    s
}

/// [`to_json_with`] the default view.
pub fn to_json(o: &Outcome) -> Json {
    to_json_with(o, View::default())
}

pub fn to_json_with(o: &Outcome, view: View) -> Json {
    let mut j = json!({
        "file": o.file,
        "answer": o.answer.word(),
        "time_seconds": o.seconds,
        "queries": o.queries,
        "warnings": o.warnings.iter().map(|w| json!({
            "line": w.span.as_ref().map(|s| s.line),
            "column": w.span.as_ref().map(|s| s.col),
            "kind": w.kind.describe(),
            "expression": w.expression,
            "status": w.status.word(),
            "steps": match &w.status {
                crate::ir::WarningStatus::Reachable { steps, .. } => Some(*steps),
                crate::ir::WarningStatus::NotRuledOut => None,
            },
            "inputs": match &w.status {
                crate::ir::WarningStatus::Reachable { inputs, .. } => inputs
                    .iter()
                    .map(|i| json!({ "variable": names_of(o, View::default()).get(&i.variable), "value": i.value }))
                    .collect::<Vec<_>>(),
                crate::ir::WarningStatus::NotRuledOut => Vec::new(),
            },
        })).collect::<Vec<_>>(),
    });
    // Which semantics of C the answer rests on: the program model's (ranking
    // functions, recurrent sets: certificate-checked), the interpreter's
    // (executing every run, a run that repeats a state), or both.
    let rests_on = match &o.answer {
        Answer::Yes { executed: Some(_), .. } | Answer::No { witness: NoWitness::Executed(_), .. } if !o.confirmed_on_model => Some("interpreter"),
        Answer::Yes { .. } | Answer::No { .. } if o.confirmed_on_model => Some("interpreter and model"),
        Answer::Yes { .. } | Answer::No { .. } => Some("model"),
        Answer::Maybe { .. } => None,
    };
    if let Some(r) = rests_on {
        j["rests_on"] = Json::String(r.into());
    }
    if let Some(why) = &o.execution_gave_up {
        j["execution_gave_up"] = Json::String(why.clone());
    }
    if o.assumes_valid_accesses && matches!(o.answer, Answer::Yes { .. }) {
        j["assumes_valid_accesses"] = Json::Bool(true);
    }
    let names = names_of(o, view);
    match &o.answer {
        Answer::Yes { loops, executed } => {
            if let Some(e) = executed {
                j["executed"] = json!({
                    "runs": e.runs,
                    "most_steps": e.most_steps,
                    "symbolic_inputs": e.pruned.is_some(),
                    "pruned_alternatives": e.pruned,
                    "accelerated_iterations": e.accelerated,
                    "joined_branches": e.joined,
                    "read_input": e.read_input,
                    "allocations_fail": e.allocations_fail,
                    "confirmed_on_model": o.confirmed_on_model,
                    "loops": e.loops.iter().map(|l| json!({ "line": l.line, "column": l.column, "most_iterations": l.iterations })).collect::<Vec<_>>(),
                    "recursions": e.recursions.iter().map(|(f, n)| json!({ "function": f, "most_nested_calls": n })).collect::<Vec<_>>(),
                    "undefined_behaviour": e.undefined.iter().map(|u| json!({
                        "kind": u.kind.describe(),
                        "line": u.at.as_ref().map(|a| a.line),
                        "column": u.at.as_ref().map(|a| a.col),
                        "runs": u.runs,
                    })).collect::<Vec<_>>(),
                });
            }
            j["loops"] = Json::Array(
                loops
                    .iter()
                    .map(|l| {
                        json!({
                            "loop": l.loop_index,
                            "line": l.span.as_ref().map(|s| s.line),
                            "column": l.span.as_ref().map(|s| s.col),
                            "recursion": recursion_at(o, l.header),
                            "ranking_function": ranking_text(o, l, &names),
                            "bound": bound_text(o, l, &names, bound::Notation::C),
                            "bound_text": bound_text(o, l, &names, bound::Notation::Text),
                            "nest_bound": nest_bound_text(o, l, &names, bound::Notation::C),
                            "nest_bound_text": nest_bound_text(o, l, &names, bound::Notation::Text),
                            "check": if l.decreases { "decrease" } else { "bound" },
                            "strategy": l.strategy,
                            "invariant": invariant_text(o, l, &names, view),
                        })
                    })
                    .collect(),
            );
            if let Some(e) = &o.encoding {
                if let (Some(c), Some(t)) = (bound::program(e, loops, &names, bound::Notation::C), bound::program(e, loops, &names, bound::Notation::Text)) {
                    j["program_bound"] = json!({ "bound": c.bound, "bound_text": t.bound, "over": c.over, "complexity": c.complexity });
                }
            }
            if !o.summaries.is_empty() {
                j["summaries"] = summaries_text(o).into_iter().map(|(f, shown)| json!({ "function": f, "summary": shown })).collect();
            }
            let heap = notation::heap_quantities(loops, o.encoding.as_ref(), &names);
            if !heap.is_empty() {
                j["notation"] = heap.into_iter().map(|(name, meaning)| (name, Json::String(meaning.into()))).collect::<serde_json::Map<_, _>>().into();
            }
        }
        Answer::No { witness: NoWitness::Executed(l), span, strategy } => {
            j["witness"] = json!({
                "line": span.as_ref().map(|s| s.line),
                "column": l.column,
                "function": l.function,
                "strategy": strategy,
                "stem_iterations": l.stem_iterations,
                "period": l.period,
                "steps": l.steps,
                "inputs": l.inputs.iter().map(|(line, col, t, v, rising)| json!({ "line": line, "column": col, "type": t.to_string(), "value": v.to_string(), "each_call_adds": if *rising { 1 } else { 0 } })).collect::<Vec<_>>(),
                "failing_allocations": l.failing_allocations.iter().map(|(line, col)| json!({ "line": line, "column": col })).collect::<Vec<_>>(),
                "state": l.state.iter().map(|(k, v)| (k.clone(), Json::String(v.clone()))).collect::<serde_json::Map<_, _>>(),
                "heap_blocks": l.heap_blocks,
            });
        }
        Answer::No { witness: NoWitness::Model(witness), span, strategy } => {
            j["witness"] = json!({
                "loop": witness.loop_index,
                "line": span.as_ref().map(|s| s.line),
                "recursion": witness_header(o, witness).and_then(|h| recursion_at(o, h)),
                "strategy": strategy,
                "stem": witness.stem.iter().map(|st| {
                    let state: serde_json::Map<String, Json> = shown_state(st, o.encoding.as_ref(), &names)
                        .into_iter()
                        .map(|(k, v)| (k, Json::String(v)))
                        .collect();
                    json!({ "transition": st.transition, "state": state })
                }).collect::<Vec<_>>(),
                "recurrent_set": recurrent_text(witness, &names),
                "inner_recurrent_sets": inner_texts(witness, o.encoding.as_ref(), &names)
                    .into_iter()
                    .map(|(at, set)| json!({ "at": at, "set": set }))
                    .collect::<Vec<_>>(),
            });
        }
        Answer::Maybe { reason } => {
            j["reason"] = Json::String(short_reason(reason, o.seconds));
            j["details"] = Json::String(match &o.encoding {
                Some(enc) => readable_places(enc, reason),
                None => reason.clone(),
            });
        }
    }
    if let (Answer::No { span, .. }, Some(p)) = (&o.answer, &o.precondition) {
        if let Some(shown) = precondition::condition(p, &p.names) {
            j["precondition"] = Json::String(shown);
            let at = match &p.place {
                crate::termination::precondition::Place::LoopEntry => "the values on entering the loop".to_string(),
                crate::termination::precondition::Place::EveryRead { var, at, .. } => {
                    format!("every value read into {}", precondition::read_place(var, at.as_ref(), &p.names))
                }
            };
            j["precondition_details"] = json!({
                "loop": p.loop_index,
                "line": span.as_ref().map(|s| s.line),
                "at": at,
                "proved": true,
                "witness_outside": p.witness_outside,
                "weakest": p.weakest,
                "how": precondition::how(p),
            });
        }
    }
    j
}

#[cfg(test)]
mod tests {
    use crate::c::exec::{Evidence, LoopBound};

    #[test]
    fn loops_executed_on_one_line_are_told_apart_by_their_columns() {
        let bound = |line, column, iterations| LoopBound { line, column, iterations };
        let e = Evidence { runs: 2, most_steps: 90, loops: vec![bound(4, 3, 7), bound(9, 5, 1), bound(9, 40, 0)], recursions: vec![], pruned: None, accelerated: 0, joined: 0, undefined: vec![], read_input: true, allocations_fail: false };
        let s = super::executed_text("h.c", &e);
        assert!(s.contains("loop at h.c:4: at most 7 iterations in every run"), "{s}");
        assert!(s.contains("loop at h.c:9:5: at most 1 iteration in every run"), "{s}");
        assert!(s.contains("loop at h.c:9:40: at most 0 iterations in every run"), "{s}");
        assert!(s.contains("an unknown input taking every branch") && !s.contains("allocation") && !s.contains("Z3"), "{s}");
    }

    #[test]
    fn a_yes_with_symbolic_inputs_says_what_it_rests_on() {
        let e = Evidence { runs: 22, most_steps: 93858, loops: vec![], recursions: vec![], pruned: Some(1), accelerated: 0, joined: 0, undefined: vec![], read_input: true, allocations_fail: false };
        let s = super::executed_text("h.c", &e);
        assert!(s.contains("22 runs (each input a variable, a branch on inputs taken where the path condition allows it; 1 alternative ruled out by Z3)"), "{s}");
        let basis = super::executed_basis(&e, false);
        assert!(basis.contains("and on Z3's answers that the alternatives ruled out are unsatisfiable") && basis.contains("did not confirm"), "{basis}");
        assert!(super::executed_basis(&e, true).contains("confirmed on the program model"));
    }

    #[test]
    fn a_maybe_given_at_a_limit_claims_no_count_of_queries() {
        use crate::termination::Outcome;
        let stopped = Outcome::maybe("h.c", "time limit: no answer within 10 s", 11.0);
        let s = super::render(&stopped, super::Format::Text);
        assert!(s.contains("time: 11.00 s\n") && !s.contains("safety queries"), "{s}");
        let asked = Outcome { queries: 3, ..Outcome::maybe("h.c", "loop at line 2: no ranking function found", 5.0) };
        assert!(super::render(&asked, super::Format::Text).contains("time: 5.00 s, 3 safety queries"));
    }
}
