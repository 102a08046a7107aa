//! Calls: builtins and library functions, and inlined calls of the
//! program's own functions (recursive ones are in `recursion.rs`).

pub(in crate::c) mod builtins;
pub(in crate::c) mod entry;
mod frame;
mod indirect;
mod input;
pub(in crate::c) mod library;
mod recursion;

pub use library::ExternalCalls;
pub(crate) use frame::{Frame, JumpScope, ReturnTarget};
use crate::c::lower::typed::*;
use library::NONDET_PREFIX;

use crate::c::lower::{facts, FunctionInfo};
use crate::c::lower::expr::Argument;
use library::{NON_LOCAL_JUMPS, PROGRAM_ENDS};
use crate::c::lower::{Lowerer, Symbol};
use crate::ir::origin::Owner;
use crate::ir::Approximation;
use crate::c::cfg::Cursor;
use crate::c::arith::Val;
use crate::c::types::CType;
use crate::error::Result;
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// Size (syntax nodes after inlining every call) beyond which a call to a
/// function without loops is summarized instead of inlined: 20 levels of
/// functions that call the next one twice would inline 2^20 bodies.
const MAX_INLINED_SIZE: usize = 20_000;

/// Calls through a pointer with more possible targets than this are refused
/// (each target is inlined at the call).
pub(crate) const MAX_INDIRECT_TARGETS: usize = 16;

/// What the lowering knows of the calls being inlined, private to this
/// folder: the rest of the lowering asks through the methods below. The
/// functions' signatures are typing's (`c/typing/signatures.rs`).
pub(crate) struct Calls {
    /// The bodies being inlined, innermost last.
    frames: Vec<Frame>,
    /// What each defined function's body does (see [`facts::body_facts`]).
    body_facts: HashMap<String, facts::BodyFacts>,
    /// Functions on call-graph cycles, with the id of their cycle.
    recursive: HashMap<String, usize>,
    instances: Vec<recursion::Instance>,
    /// Memo of [`Lowerer::inlined_size`].
    inlined_sizes: HashMap<String, usize>,
    /// Identifiers used other than as a direct callee (see
    /// [`facts::used_as_values`]); the defined functions among them are
    /// the possible targets of calls through pointers.
    used_as_values: HashSet<String>,
    /// What calls of functions without a definition may change.
    external_calls: ExternalCalls,
}

impl Calls {
    pub fn new(unit: &TranslationUnit, external_calls: ExternalCalls) -> Calls {
        Calls {
            frames: Vec::new(),
            body_facts: HashMap::new(),
            recursive: HashMap::new(),
            instances: Vec::new(),
            inlined_sizes: HashMap::new(),
            used_as_values: facts::used_as_values(unit),
            external_calls,
        }
    }
    /// `name` lies on a cycle of the call graph.
    pub fn is_recursive(&self, name: &str) -> bool {
        self.recursive.contains_key(name)
    }
    /// Once every declaration is read (`functions`): the facts of every
    /// body and the recursive functions; the defined functions used as
    /// values, sorted (the possible targets of a call through a pointer).
    pub fn index_bodies(&mut self, functions: &super::typing::Signatures<'_>) -> Vec<String> {
        for (name, info) in functions.all() {
            if let Some(def) = info.def {
                self.body_facts.insert(name.clone(), facts::body_facts(&def.node));
            }
        }
        let mut values: Vec<String> =
            self.body_facts.keys().filter(|f| self.used_as_values.contains(*f)).cloned().collect();
        values.sort();
        self.recursive = recursion::recursive_components(&self.body_facts);
        values
    }
    /// The facts of function `name`'s body, its calls through pointers
    /// counted as calls of every possible target. (Recursion is found on
    /// direct calls only: a cycle through a pointer is met while inlining.)
    pub(crate) fn function_facts(&self, functions: &super::typing::Signatures<'_>, name: &str) -> Option<facts::BodyFacts> {
        self.body_facts.get(name).map(|f| self.with_indirect_targets(functions, f.clone()))
    }

    /// Every function a call of `roots` may reach (the roots included),
    /// each once, with its facts (`None`: no definition in the program).
    pub(crate) fn reachable_functions(&self, functions: &super::typing::Signatures<'_>, roots: impl IntoIterator<Item = String>) -> Vec<(String, Option<facts::BodyFacts>)> {
        let mut seen: HashSet<String> = HashSet::new();
        let mut stack: Vec<String> = roots.into_iter().collect();
        let mut out = Vec::new();
        while let Some(f) = stack.pop() {
            if !seen.insert(f.clone()) {
                continue;
            }
            let facts = self.function_facts(functions, &f);
            if let Some(x) = &facts {
                stack.extend(x.callees.iter().cloned());
            }
            out.push((f, facts));
        }
        out
    }

    /// Calls through pointers (and of names that are no function: pointer
    /// variables) become calls of every defined function used as a value.
    fn with_indirect_targets(&self, functions: &super::typing::Signatures<'_>, mut f: facts::BodyFacts) -> facts::BodyFacts {
        let indirect = |c: &String| c == facts::INDIRECT || (!functions.is_function(c) && self.used_as_values.contains(c));
        let n = f.calls.iter().filter(|c| indirect(c)).count();
        if n > 0 {
            f.callees.extend(functions.values().iter().cloned());
            for _ in 0..n {
                f.calls.extend(functions.values().iter().cloned());
            }
        }
        f
    }
    /// The inlined bodies being lowered, outermost first.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }
    /// The body being lowered.
    pub fn frame(&self) -> Option<&Frame> {
        self.frames.last()
    }
    pub fn frame_mut(&mut self) -> Option<&mut Frame> {
        self.frames.last_mut()
    }
    pub fn push_frame(&mut self, f: Frame) {
        self.frames.push(f);
    }
    pub fn pop_frame(&mut self) -> Option<Frame> {
        self.frames.pop()
    }
}

/// The elaboration pass reads what bodies call from here (see
/// `c/typing/elaborate.rs`).
impl super::typing::CallGraph for Calls {
    fn index_bodies(&mut self, functions: &super::typing::Signatures<'_>) -> Vec<String> {
        Calls::index_bodies(self, functions)
    }
    fn reachable(&self, functions: &super::typing::Signatures<'_>, roots: Vec<String>) -> HashSet<String> {
        self.reachable_functions(functions, roots).into_iter().map(|(f, _)| f).collect()
    }
}

impl<'a> Lowerer<'a> {
    // ---- what functions do

    /// What `e` does (see [`facts::expression_facts`]), a call through a
    /// pointer counted as a call of every possible target.
    pub(crate) fn expression_facts(&self, e: &Node<Expression>) -> facts::BodyFacts {
        self.with_indirect_targets(facts::expression_facts(e))
    }

    /// The facts of function `name`'s body, its calls through pointers
    /// counted as calls of every possible target (see [`Calls::function_facts`]).
    pub(crate) fn function_facts(&self, name: &str) -> Option<facts::BodyFacts> {
        self.calls.function_facts(self.types.signatures(), name)
    }

    /// Every function a call of `roots` may reach (see [`Calls::reachable_functions`]).
    pub(crate) fn reachable_functions(&self, roots: impl IntoIterator<Item = String>) -> Vec<(String, Option<facts::BodyFacts>)> {
        self.calls.reachable_functions(self.types.signatures(), roots)
    }

    fn with_indirect_targets(&self, f: facts::BodyFacts) -> facts::BodyFacts {
        self.calls.with_indirect_targets(self.types.signatures(), f)
    }

    /// The size of `name`'s body with every call inlined (saturating).
    fn inlined_size(&mut self, name: &str) -> usize {
        if let Some(&n) = self.calls.inlined_sizes.get(name) {
            return n;
        }
        // Cycles are recursion, never inlined: count such calls once.
        self.calls.inlined_sizes.insert(name.to_string(), 1);
        let Some(facts) = self.function_facts(name) else { return 1 };
        let mut n = facts.size;
        for callee in &facts.calls {
            if self.calls.body_facts.contains_key(callee) {
                n = n.saturating_add(self.inlined_size(callee));
            }
        }
        self.calls.inlined_sizes.insert(name.to_string(), n);
        n
    }

    /// How many copies of `name`'s body inlining makes: the calls to it in
    /// the functions reachable from `main`, each times the copies of its
    /// caller (`main` itself: one; a function on a call cycle: many). A
    /// function inlined once costs its size once, however large it is.
    fn inlined_copies(&self, name: &str) -> usize {
        fn copies(f: &str, callers: &HashMap<String, Vec<String>>, memo: &mut HashMap<String, usize>) -> usize {
            if let Some(&n) = memo.get(f) {
                return n;
            }
            memo.insert(f.to_string(), usize::MAX);
            let n = if f == "main" {
                1
            } else {
                callers.get(f).into_iter().flatten().fold(0usize, |n, g| n.saturating_add(copies(g, callers, memo)))
            };
            memo.insert(f.to_string(), n);
            n
        }
        let mut callers: HashMap<String, Vec<String>> = HashMap::new();
        for (f, facts) in self.reachable_functions(["main".to_string()]) {
            for callee in facts.iter().flat_map(|x| x.calls.iter()) {
                callers.entry(callee.clone()).or_default().push(f.clone());
            }
        }
        copies(name, &callers, &mut HashMap::new())
    }

    /// `name` and everything it calls have no loop, no `goto` and no
    /// recursion: every call of it returns (or ends the program).
    fn runs_straight(&self, name: &str) -> bool {
        // Static locals would outlive a summary: inline those.
        self.reachable_functions([name.to_string()])
            .iter()
            .all(|(f, facts)| !self.calls.recursive.contains_key(f) && facts.as_ref().is_none_or(|x| !x.repeats && !x.has_static_locals))
    }

    /// A call to a function that always returns, too large to inline: its
    /// arguments run, then its result and everything it may modify are
    /// arbitrary (recorded; a YES stays sound, no NO rests on it).
    fn summarized_call(&mut self, name: &str, info: &FunctionInfo<'a>, c: &'a Node<CallExpression>, want: bool) -> Result<Option<Val>> {
        self.evaluate_arguments(&c.node.arguments)?;
        let modified = self.globals_modified_by(name, c.span)?;
        let writes_through_pointers = info.params.iter().any(|p| matches!(p.ty, CType::Ptr(_)));
        for (g, t) in &modified {
            self.havoc(g, *t);
        }
        // It may store through links (reached from a global) or allocate.
        self.call_changes_links(name);
        if writes_through_pointers {
            for (cell, t) in self.exposed_cells() {
                self.havoc(&cell, t);
            }
        }
        let at = self.span(c.span);
        self.note_approximation(at, Approximation::SummarizedCall { function: name.to_string() });
        match (&info.ret, want) {
            (CType::Int(t), true) => {
                let r = self.cfg.temp(&format!("{name}%ret"), *t);
                self.havoc(&r, *t);
                Ok(Some(self.arith.var(&r, *t)))
            }
            (CType::Void, true) => Err(self.syntax(c.span, format!("the void function `{name}` used as a value"))),
            (CType::Unsupported(w), _) => Err(self.unsupported(c.span, format!("`{name}` returns a {w}"))),
            _ => Ok(None),
        }
    }

    // ---- calls

    pub(super) fn call(&mut self, c: &'a Node<CallExpression>, want: bool) -> Result<Option<Val>> {
        let Expression::Identifier(id) = &c.node.callee.node else {
            return self.indirect_call(c, want);
        };
        let name = id.node.name.as_str();
        let args = &c.node.arguments;
        if self.lookup(name).is_some() {
            // A variable (a function pointer), not a function.
            return self.indirect_call(c, want);
        }
        if let Some(info) = self.types.signatures().function(name) {
            if info.def.is_some() {
                return self.inline(name, c, want);
            }
        }
        if let Some(how) = builtins::operand_evaluation(name) {
            return self.builtin_with_unevaluated_operands(how, c, want);
        }
        if builtins::UNMODELLED_BUILTINS.contains(&name) {
            return Err(self.unsupported(c.span, format!("`{name}` (whether it evaluates its operands is not modelled)")));
        }
        if let Some(t) = self.nondet_type(name) {
            for a in args {
                self.effect(a)?;
            }
            let v = self.cfg.temp("nondet", t);
            self.input(&v, t);
            return Ok(Some(self.arith.var(&v, t)));
        }
        if matches!(name.strip_prefix(NONDET_PREFIX), Some("float" | "double" | "long_double")) {
            self.evaluate_arguments(args)?;
            return Ok(Some(self.opaque_value(c.span)));
        }
        if name.starts_with(NONDET_PREFIX) && !self.types.signatures().is_function(name) {
            return Err(self.unsupported(c.span, format!("`{name}` (not an integer type)")));
        }
        match name {
            "__VERIFIER_assume" | "assume_abort_if_not" => {
                let [cond] = &args[..] else {
                    return Err(self.syntax(c.span, format!("`{name}` takes one argument")));
                };
                let (ts, _) = self.branch(cond)?;
                self.join_here(ts, c.span, "assume");
                Ok(None)
            }
            "assert" | "__VERIFIER_assert" => {
                let [cond] = &args[..] else {
                    return Err(self.syntax(c.span, format!("`{name}` takes one argument")));
                };
                // A failing assertion ends the program.
                let (ts, fs) = self.branch(cond)?;
                for f in fs {
                    self.cfg.jump(f, self.flow.exit());
                }
                self.join_here(ts, c.span, "assert");
                Ok(None)
            }
            "__builtin_expect" => {
                let Some((first, rest)) = args.split_first() else {
                    return Err(self.syntax(c.span, "`__builtin_expect` takes two arguments"));
                };
                // gcc's signature: `long __builtin_expect(long, long)`.
                let v = self.expr(first)?;
                let v = self.protect(v, rest);
                for a in rest {
                    self.effect(a)?;
                }
                Ok(Some(self.arith.convert(v, self.arith.machine().long())))
            }
            n if NON_LOCAL_JUMPS.contains(&n) => Err(self.unsupported(c.span, format!("the non-local jump `{n}` (setjmp/longjmp)"))),
            "error" | "error_at_line" if !args.is_empty() => {
                // glibc: ends the program when its status is not 0.
                let status = self.expr(&args[0])?;
                for a in &args[1..] {
                    self.effect_any(a)?;
                }
                let ends = self.arith.compare(crate::c::arith::CmpOp::Ne, status, self.arith.int(0));
                if let Some(cur) = self.flow.take() {
                    if let Some(t) = cur.clone().assume(ends.clone()) {
                        self.cfg.jump(t, self.flow.exit());
                    }
                    self.flow.set(cur.assume(Term::not(ends)));
                }
                Ok(if want { Some(self.arith.int(0)) } else { None })
            }
            n if PROGRAM_ENDS.contains(&n) || self.types.signatures().function(n).is_some_and(|f| f.noreturn) => {
                // The arguments run first (and may themselves never return).
                let effectful: Vec<&'a Node<Expression>> = args.iter().filter(|a| self.has_effects(a)).collect();
                for a in effectful {
                    if self.is_pointer(a)? {
                        self.pointer(a, None)?;
                    } else {
                        self.effect(a)?;
                    }
                }
                if let Some(cur) = self.flow.take() {
                    self.cfg.jump(cur, self.flow.exit());
                }
                // No execution continues; any value will do.
                Ok(if want { Some(self.arith.int(0)) } else { None })
            }
            "__builtin_va_start" | "__builtin_va_end" | "__builtin_va_copy" | "va_start" | "va_end" | "va_copy" => {
                // The variable arguments are not modelled: `va_arg` gives any value.
                Ok(None)
            }
            "memset" | "__builtin_memset" => {
                self.memset_call(c)?;
                if want {
                    return Err(self.unsupported(c.span, "the pointer result of `memset` as an integer"));
                }
                Ok(None)
            }
            "free" => {
                // Freed memory is never reused by the model: only its
                // address may now be another block's.
                self.evaluate_arguments(args)?;
                self.lifetime_may_end();
                Ok(None)
            }
            "malloc" | "calloc" | "realloc" | "alloca" | "__builtin_alloca" => {
                Err(self.unsupported(c.span, format!("dynamic memory (`{name}`)")))
            }
            _ => {
                // Without a declaration, C89's implicit `int f()`.
                let ret = self.types.signatures().function(name).map_or(CType::Int(self.arith.machine().int()), |f| f.ret.clone());
                self.external_call(name, c, ret, want)
            }
        }
    }

    /// The arguments of call `c` whose effects interfere, evaluated in
    /// every order (one path per order, recorded as an approximation), by
    /// position; the others are left to the caller, in order.
    pub(in crate::c::lower) fn arguments_in_every_order(
        &mut self,
        info: &FunctionInfo<'a>,
        c: &'a Node<CallExpression>,
    ) -> Result<HashMap<usize, crate::c::lower::order::Operand>> {
        let args = &c.node.arguments;
        let interfering: Vec<usize> =
            (0..args.len()).filter(|&i| (0..args.len()).any(|j| j != i && self.interfere(&args[i], &args[j]))).collect();
        if interfering.len() < 2 {
            return Ok(HashMap::new());
        }
        let es: Vec<(&'a Node<Expression>, Option<CType>)> = interfering
            .iter()
            .map(|&i| {
                let pointee = match info.params.get(i).map(|p| &p.ty) {
                    Some(CType::Ptr(p)) => Some((**p).clone()),
                    _ => None,
                };
                (&args[i], pointee)
            })
            .collect();
        let vs = self.operands_in_every_order(&es, c.span)?;
        Ok(interfering.into_iter().zip(vs).collect())
    }

    pub(crate) fn inline(&mut self, name: &str, c: &'a Node<CallExpression>, want: bool) -> Result<Option<Val>> {
        if let Some(&component) = self.calls.recursive.get(name) {
            return self.recursive_call(name, component, c, want);
        }
        if self.calls.frames.iter().any(|f| f.function == name) {
            // A cycle the call graph does not show: through a pointer.
            return Ok(self.recursion_through_pointer(name, c, want));
        }
        if self.cfg.too_large() {
            return Err(self.unsupported(c.span, "the program is too large after inlining"));
        }
        let info = self.callee(name, c)?;
        let Some(def) = info.def else {
            return Err(self.unsupported(c.span, format!("call to unknown function {name}")));
        };
        if self.inlined_size(name) > MAX_INLINED_SIZE
            && self.runs_straight(name)
            && !matches!(info.ret, CType::Ptr(_))
            && self.inlined_copies(name) > 1
        {
            return self.summarized_call(name, &info, c, want);
        }
        let args = &c.node.arguments;
        let mut values = Vec::new();
        let mut ordered = self.arguments_in_every_order(&info, c)?;
        for (i, a) in args.iter().enumerate() {
            if let Some(v) = ordered.remove(&i) {
                values.push(match v {
                    crate::c::lower::order::Operand::Value(v) => Argument::Value(v),
                    crate::c::lower::order::Operand::Pointer(p) => Argument::Pointer(p),
                });
                continue;
            }
            if i >= info.params.len() && info.variadic {
                // An extra argument of a variadic function: `va_arg` reads
                // any value (see `expr.rs`), so a pointer among them is an
                // address let out of the caller's hands: the callee may
                // write through it.
                if self.is_pointer(a)? {
                    let p = self.pointer(a, None)?;
                    self.expose(&p.base);
                } else {
                    self.effect_any(a)?;
                }
                values.push(Argument::Nondet(None));
                continue;
            }
            if let Some(CType::Ptr(pointee)) = info.params.get(i).map(|p| &p.ty) {
                let v = self.pointer(a, Some((**pointee).clone()))?;
                let later = &args[i + 1..];
                let v = if later.iter().any(|x| self.has_effects(x)) { self.snapshot_pointer(v) } else { v };
                values.push(Argument::Pointer(v));
                continue;
            }
            match info.params.get(i).map(|p| &p.ty) {
                Some(CType::Float(_)) => {
                    self.effect_any(a)?;
                    values.push(Argument::Nondet(None));
                    continue;
                }
                Some(CType::Record(_)) => {
                    let from = self.object_address(a)?;
                    let from = from.map(|p| self.snapshot_pointer(p));
                    values.push(Argument::Object(from));
                    continue;
                }
                _ => {}
            }
            // `f(__VERIFIER_nondet_int())`: havoc the parameter itself.
            if let Some(CType::Int(t)) = info.params.get(i).map(|p| &p.ty) {
                if let Some(range) = self.nondet_assignment(a, *t) {
                    values.push(Argument::Nondet(range));
                    continue;
                }
            }
            let v = self.expr(a)?;
            let v = self.protect(v, &args[i + 1..]);
            values.push(Argument::Value(v));
        }
        // A pointer result lives in variables of its own, read by the caller
        // through `last_pointer_return`.
        let ret_ptr = match (&info.ret, want) {
            (CType::Ptr(p), true) => Some(self.declare_pointer(&format!("{name}%ret"), Owner::Temporary, (**p).clone(), None, false, false)),
            _ => None,
        };
        let ret = match (&info.ret, want) {
            (CType::Ptr(_), _) => None,
            (CType::Int(t), true) => Some((self.cfg.temp(&format!("{name}%ret"), *t), *t)),
            // A floating-point result: any value (see `memory/objects.rs`).
            (CType::Float(_), true) => Some((self.cfg.temp(&format!("{name}%ret"), crate::ir::IntType::LONG), crate::ir::IntType::LONG)),
            (CType::Void, true) => return Err(self.syntax(c.span, format!("the void function `{name}` used as a value"))),
            (CType::Record(_), true) => None,
            (CType::Unsupported(w), _) => return Err(self.unsupported(c.span, format!("`{name}` returns a {w}"))),
            _ => None,
        };
        // A struct result is copied into a block of the caller's, read by
        // the caller through `last_record_return`.
        let ret_object = match (&info.ret, want) {
            (CType::Record(_), true) => match self.declare_object_as(&format!("{name}%ret"), None, Owner::Temporary, info.ret.clone(), None, crate::c::lower::memory::Storage::Automatic, c.span)? {
                Symbol::Object { ptr, ty } => Some((ptr, ty)),
                _ => None,
            },
            _ => None,
        };
        self.enter_frame(Frame {
            ret: ret.clone(),
            ret_ptr: ret_ptr.clone(),
            ret_object: ret_object.clone(),
            ..Frame::of_body(name, def, HashMap::new())
        });
        let result = self.inline_body(name, def, &info.params, values);
        let frame = self.leave_frame();
        result?;
        let mut ends: Vec<Cursor> = self.flow.take().into_iter().collect();
        if let Some(f) = frame {
            ends.extend(f.returns);
        }
        self.join_here(ends, c.span, &format!("return from {name}"));
        self.mem.set_call_results(ret_ptr.map(|p| p.value()), ret_object.map(|(p, _)| p));
        Ok(ret.map(|(v, t)| self.arith.var(&v, t)))
    }

    /// Inline a call whose value is used (a pointer result is left in
    /// `last_pointer_return`).
    pub(crate) fn inline_call(&mut self, c: &'a Node<CallExpression>) -> Result<()> {
        let Expression::Identifier(id) = &c.node.callee.node else {
            return Err(self.unsupported(c.span, "the pointer result of a call through a function pointer"));
        };
        self.inline(&id.node.name, c, true).map(|_| ())
    }


    fn inline_body(
        &mut self,
        name: &str,
        def: &'a Node<FunctionDefinition>,
        params: &[crate::c::lower::Param],
        values: Vec<Argument>,
    ) -> Result<()> {
        for (p, v) in params.iter().zip(values) {
            if let (CType::Ptr(pointee), Argument::Pointer(v)) = (&p.ty, &v) {
                if let Some(pname) = &p.name {
                    let mut v = v.clone();
                    v.pointee = (**pointee).clone();
                    self.bind_pointer(pname, (**pointee).clone(), Some(v));
                }
                continue;
            }
            let t = match &p.ty {
                CType::Int(t) => *t,
                CType::Ptr(_) => {
                    return Err(self.unsupported(def.span, format!("an integer passed as the pointer parameter of `{name}`")));
                }
                CType::Float(_) => {
                    if let Some(pname) = &p.name {
                        self.bind(pname, Symbol::Opaque { ty: p.ty.clone() });
                    }
                    continue;
                }
                CType::Record(_) => {
                    let Some(pname) = &p.name else { continue };
                    let sym = self.declare_object(pname, p.ty.clone(), None, crate::c::lower::memory::Storage::Automatic, def.span)?;
                    if let (Symbol::Object { ptr, ty }, Argument::Object(from)) = (&sym, &v) {
                        let at = self.span(def.span);
                        self.copy_record_from(ptr, ty, from.clone(), &at);
                    }
                    self.bind(pname, sym);
                    continue;
                }
                CType::Unsupported(w) => {
                    return Err(self.unsupported(def.span, format!("parameter of `{name}` of type {w}")));
                }
                CType::Array(..) | CType::Function => {
                    return Err(self.syntax(def.span, format!("parameter of `{name}` of array or function type")));
                }
                CType::Void => return Err(self.syntax(def.span, format!("void parameter of `{name}`"))),
            };
            let Some(pname) = &p.name else { continue };
            if self.calls.frames.last().is_some_and(|f| f.takes_address_of(pname)) {
                // Its address is taken: the parameter lives in memory.
                let sym = self.declare_object(pname, p.ty.clone(), None, crate::c::lower::memory::Storage::Automatic, def.span)?;
                if let Symbol::Object { ptr, .. } = &sym {
                    let at = self.span(def.span);
                    let lv = crate::c::lower::LValue::Mem { ptr: ptr.clone(), ty: t, at };
                    match v {
                        Argument::Value(v) => self.store(&lv, v),
                        Argument::Nondet(_) => {}
                        Argument::Pointer(_) | Argument::Object(_) => {
                            return Err(self.unsupported(def.span, format!("a pointer or struct passed as the integer parameter `{pname}` of `{name}`")));
                        }
                    }
                }
                self.bind(pname, sym);
                continue;
            }
            let var = self.cfg.declare(pname, name, t);
            match v {
                Argument::Value(v) => {
                    let v = self.arith.convert(v, t);
                    self.assign_var(&var, v);
                }
                Argument::Nondet(range) => self.havoc_in(&var, range),
                Argument::Pointer(_) | Argument::Object(_) => {
                    return Err(self.unsupported(def.span, format!("a pointer or struct passed as the integer parameter `{pname}` of `{name}`")));
                }
            }
            self.bind(pname, Symbol::Var { name: var, ty: t });
        }
        self.stmt(&def.node.statement)?;
        self.end_function_body(def.span)
    }
}
