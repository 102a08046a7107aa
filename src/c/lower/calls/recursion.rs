//! Recursive functions, by a sound over-approximation for termination.
//!
//! A recursive call cannot be inlined. An infinite run of a recursive
//! program either descends forever (an infinite chain of calls that never
//! return) or runs forever inside one activation whose calls all return.
//! Both kinds of runs are kept by this abstraction: each recursive call
//! chooses nondeterministically to
//!
//! * *descend*: assign the arguments to the callee's parameters and jump to
//!   the callee's *descent header* (one location per function and per entry
//!   into its call-graph cycle; a return from there ends the program, since
//!   the continuation of an infinite descent does not matter), or
//! * *return*: continue after the call with an arbitrary result and
//!   arbitrary values in every global the callee may modify.
//!
//! So every infinite run of the C program has an infinite counterpart here
//! (a YES stays sound), but not conversely. A run of the model that only
//! descends is a run of the C program (each descent is the call, with its
//! arguments; the caller's activation, whose locals the callee's copy
//! overwrites, is never resumed; locals in memory get a fresh block per
//! call), so NO stays possible on such runs. The return is not (the
//! callee may end the program instead of returning): it is marked
//! `inexact`, which keeps every NO off it, and its result and effects are
//! unknown values (`choose`). Each such call is recorded in
//! `Program.approximations` for messages; arguments whose effects interfere
//! are evaluated in every order, which forbids NO (a compiler picks one).

use crate::c::lower::typed::*;
use crate::c::lower::memory::{PtrVal, PtrVar};
use crate::c::lower::{Frame, Lowerer, Symbol};
use crate::ir::origin::{Owner, PointerPart};
use crate::ir::Origin;
use crate::ir::Approximation;
use crate::c::arith::Val;
use crate::c::cfg::Cursor;
use crate::c::types::CType;
use crate::error::Result;
use crate::ir::{Action, IntType, LocId, RecursionMark};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use crate::c::lower::facts::BodyFacts;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Call-graph cycles: for each function on a cycle, the id of its cycle
/// (strongly connected component).
pub(crate) fn recursive_components(facts: &HashMap<String, BodyFacts>) -> HashMap<String, usize> {
    let reach = |from: &str| -> HashSet<String> {
        let mut seen: HashSet<String> = HashSet::new();
        let mut stack: Vec<String> = facts.get(from).map(|f| f.callees.iter().cloned().collect()).unwrap_or_default();
        while let Some(g) = stack.pop() {
            if facts.contains_key(&g) && seen.insert(g.clone()) {
                if let Some(f) = facts.get(&g) {
                    stack.extend(f.callees.iter().cloned());
                }
            }
        }
        seen
    };
    let mut names: Vec<&String> = facts.keys().collect();
    names.sort();
    let reaches: HashMap<&String, HashSet<String>> = names.iter().map(|n| (*n, reach(n))).collect();
    let mut out: HashMap<String, usize> = HashMap::new();
    let mut next = 0;
    for n in &names {
        if out.contains_key(*n) || !reaches[n].contains(*n) {
            continue;
        }
        for m in &names {
            if reaches[n].contains(*m) && reaches[m].contains(*n) {
                out.insert((*m).clone(), next);
            }
        }
        next += 1;
    }
    out
}

/// A parameter of a descent header: the variables a descending call assigns.
#[derive(Clone)]
pub(crate) enum DescentParam {
    Unnamed,
    Int(String, IntType),
    /// A pointer parameter: its block, offset and size variables.
    Ptr(PtrVar),
}

impl DescentParam {
    /// The variables assigned when a call descends.
    fn vars(&self) -> Vec<String> {
        match self {
            DescentParam::Unnamed => Vec::new(),
            DescentParam::Int(v, _) => vec![v.clone()],
            DescentParam::Ptr(p) => std::iter::once(p.off.clone()).chain(p.whole.iter().flat_map(|(b, s)| [b.clone(), s.clone()])).collect(),
        }
    }
}

/// The parameters of a descent header, in order.
pub(crate) type DescentParams = Vec<DescentParam>;

/// An evaluated argument of a recursive call.
enum DescentArg {
    Int(Val),
    Ptr(PtrVal),
}

impl DescentArg {
    fn reads(&self) -> Vec<String> {
        let terms: Vec<&crate::term::Term> = match self {
            DescentArg::Int(v) => vec![&v.term],
            DescentArg::Ptr(p) => vec![&p.base, &p.off, &p.size],
        };
        terms.into_iter().flat_map(|t| t.free_vars()).map(|d| d.name).collect()
    }
}

/// One entry into a call-graph cycle: the descent header of each of its
/// functions lowered so far, with the parameter variables.
pub(crate) struct Instance {
    pub component: usize,
    pub headers: HashMap<String, (LocId, DescentParams)>,
}

impl<'a> Lowerer<'a> {
    /// A call to a function on a call-graph cycle (see the module comment).
    pub(crate) fn recursive_call(&mut self, name: &str, component: usize, c: &'a Node<CallExpression>, want: bool) -> Result<Option<Val>> {
        let info = self.callee(name, c)?;
        let args = &c.node.arguments;
        let ret_ty = match (&info.ret, want) {
            (CType::Int(t), true) => Some(*t),
            (CType::Void, true) => return Err(self.syntax(c.span, format!("the void function `{name}` used as a value"))),
            (CType::Unsupported(w), _) => return Err(self.unsupported(c.span, format!("`{name}` returns a {w}"))),
            (CType::Ptr(_), _) => None,
            _ => None,
        };
        let modified = self.globals_modified_by(name, c.span)?;
        let mut values = Vec::new();
        // Arguments whose effects interfere: evaluated in every order (a
        // compiler picks one; the approximation forbids NO).
        let mut ordered = self.arguments_in_every_order(&info, c)?;
        for (i, a) in args.iter().enumerate() {
            if let Some(v) = ordered.remove(&i) {
                values.push(match v {
                    crate::c::lower::order::Operand::Value(v) => DescentArg::Int(v),
                    crate::c::lower::order::Operand::Pointer(p) => DescentArg::Ptr(p),
                });
                continue;
            }
            if let Some(CType::Ptr(pointee)) = info.params.get(i).map(|p| &p.ty) {
                let v = self.pointer(a, Some((**pointee).clone()))?;
                let v = if args[i + 1..].iter().any(|x| self.has_effects(x)) { self.snapshot_pointer(v) } else { v };
                values.push(DescentArg::Ptr(v));
                continue;
            }
            let v = self.expr(a)?;
            let v = self.protect(v, &args[i + 1..]);
            values.push(DescentArg::Int(v));
        }
        let instance = self
            .calls
            .frames
            .iter()
            .rev()
            .find_map(|f| f.instance.filter(|&i| self.calls.instances.get(i).is_some_and(|x| x.component == component)));
        let instance = match instance {
            Some(i) => i,
            None => {
                self.calls.instances.push(Instance { component, headers: HashMap::new() });
                self.calls.instances.len() - 1
            }
        };
        let (header, params) = self.descent_header(instance, name)?;
        // The parameters are assigned one after the other: if an argument
        // reads a parameter assigned before it (`f(m, n)` inside `f(n, m)`),
        // copy the arguments first.
        let conflict = values.iter().enumerate().any(|(i, v)| {
            let reads = v.reads();
            params[..i.min(params.len())].iter().flat_map(|p| p.vars()).any(|p| reads.contains(&p))
        });
        if conflict {
            values = values
                .into_iter()
                .map(|v| match v {
                    DescentArg::Int(v) => DescentArg::Int(self.snapshot(v)),
                    DescentArg::Ptr(p) => DescentArg::Ptr(self.snapshot_pointer(p)),
                })
                .collect();
        }
        for v in &values {
            if let DescentArg::Ptr(p) = v {
                self.expose(&p.base);
            }
        }
        // The arguments as the callee's parameters receive them: what the
        // return branch's mark names (for return summaries).
        let mark_args: Vec<Option<crate::term::Term>> = params
            .iter()
            .zip(&values)
            .map(|(p, v)| match (p, v) {
                (DescentParam::Int(_, t), DescentArg::Int(v)) => Some(self.arith.convert(v.clone(), *t).term),
                _ => None,
            })
            .collect();
        if let Some(mut descend) = self.flow.cursor().cloned() {
            let mut assign = |var: &String, term: crate::term::Term| {
                if term != crate::term::Term::var(var.clone()) {
                    descend.push(Action::Assign(var.clone(), term));
                }
            };
            for (p, v) in params.iter().zip(values) {
                match (p, v) {
                    (DescentParam::Int(var, t), DescentArg::Int(v)) => {
                        let v = self.arith.convert(v, *t);
                        assign(var, v.term);
                    }
                    (DescentParam::Ptr(var), DescentArg::Ptr(v)) => {
                        assign(&var.off, v.off);
                        if let Some((b, s)) = &var.whole {
                            assign(b, v.base);
                            assign(s, v.size);
                        }
                    }
                    (DescentParam::Unnamed, _) => {}
                    _ => return Err(crate::error::TesseraError::Internal(format!("argument kinds of `{name}` disagree"))),
                }
            }
            self.cfg.jump(descend, header);
        }
        // Or the call returns, with what it computed unknown. The return
        // itself is not a step of the C program a NO may rest on (the call
        // may end the program instead, by `exit`, an `assume` or undefined
        // behaviour): `inexact` blocks this path in the model NO is
        // searched and checked on (`Encoding::without_unknown_values`).
        self.emit(Action::Inexact);
        let ret = ret_ty.map(|t| (self.cfg.temp(&format!("{name}%ret"), t), t));
        if let Some((r, t)) = &ret {
            self.havoc(r, *t);
        }
        // Before the callee's effects: the arguments are read as they were.
        let result = ret.as_ref().map(|(r, _)| r.clone());
        self.emit(Action::Mark(RecursionMark::Returned { function: name.to_string(), args: mark_args, result }));
        for (g, t) in &modified {
            self.havoc(g, *t);
        }
        // What it stored through links or allocated is not followed.
        self.call_changes_links(name);
        // A pointer result is any pointer (read through `last_pointer_return`).
        if let (CType::Ptr(pointee), true) = (&info.ret, want) {
            if self.flow.is_reachable() {
                let p = self.unknown_pointer((**pointee).clone());
                self.mem.set_pointer_result(p);
            }
        }
        if self.flow.is_reachable() {
            let at = self.span(c.span);
            self.note_approximation(at, Approximation::RecursiveCall { function: name.to_string() });
        }
        Ok(ret.map(|(r, t)| self.arith.var(&r, t)))
    }

    /// Program variables (and their types) possibly assigned by `name` or
    /// anything it calls: integer globals and the parts of global pointers
    /// it assigns, and, when it stores into memory, every tracked memory
    /// cell (a global pointer may reach any block).
    pub(super) fn globals_modified_by(&mut self, name: &str, s: Span) -> Result<Vec<(String, IntType)>> {
        let mut assigned: BTreeSet<String> = BTreeSet::new();
        let mut writes_memory = false;
        let mut external = false;
        for (f, facts) in self.reachable_functions([name.to_string()]) {
            if let Some(facts) = facts {
                if facts.has_static_locals {
                    return Err(self.unsupported(s, format!("static local variables in `{f}`, reached by recursion")));
                }
                assigned.extend(facts.assigned.iter().cloned());
                writes_memory |= facts.writes_memory;
            } else if !super::library::keeps_memory(&f) {
                // A function without a definition may write what its
                // pointer arguments reach, and external code any global
                // with external linkage.
                writes_memory = true;
                external |= self.external_may_write_globals(&f);
            }
        }
        let mut out = Vec::new();
        for a in assigned {
            match self.globals.get(&a) {
                Some(Symbol::Var { name, ty }) => out.push((name.clone(), *ty)),
                Some(Symbol::Ptr(p)) => {
                    out.push((p.off.clone(), IntType::LONG));
                    if let Some((b, size)) = &p.whole {
                        out.push((b.clone(), IntType::LONG));
                        out.push((size.clone(), IntType::LONG));
                    }
                }
                // A global object assigned by name (a struct copy, an
                // address-taken scalar): its cells are memory.
                Some(Symbol::Object { .. }) => writes_memory = true,
                _ => {}
            }
        }
        if writes_memory {
            out.extend(self.tracked_cells());
        }
        if external {
            let mut seen: std::collections::HashSet<String> = out.iter().map(|(v, _)| v.clone()).collect();
            for g in self.external_state() {
                if seen.insert(g.0.clone()) {
                    out.push(g);
                }
            }
        }
        Ok(out)
    }

    /// The descent header of `name` in an instance, lowering its body there
    /// the first time.
    fn descent_header(&mut self, instance: usize, name: &str) -> Result<(LocId, DescentParams)> {
        if let Some(h) = self.calls.instances.get(instance).and_then(|i| i.headers.get(name)) {
            return Ok(h.clone());
        }
        let info = self.types.signatures().function(name).cloned();
        let Some(def) = info.as_ref().and_then(|i| i.def) else {
            return Err(crate::error::TesseraError::Internal(format!("no body for recursive `{name}`")));
        };
        let info = info.ok_or_else(|| crate::error::TesseraError::Internal("missing function".into()))?;
        let mut params = Vec::new();
        let mut bindings = HashMap::new();
        for p in &info.params {
            let t = match &p.ty {
                CType::Int(t) => *t,
                CType::Unsupported(w) => {
                    return Err(self.unsupported(def.span, format!("parameter of `{name}` of type {w}")));
                }
                CType::Ptr(pointee) => {
                    // A pointer parameter: block, offset and size variables
                    // of this function, assigned by each descending call.
                    match &p.name {
                        Some(pn) => {
                            let mut var = |part: &str, is: PointerPart| {
                                self.cfg.declare_as(&format!("{pn}.{part}"), name, IntType::LONG, Origin::PointerPart { of: Owner::Variable, part: is, pointer: pn.clone() })
                            };
                            let (b, off, sz) = (var("base", PointerPart::Base), var("off", PointerPart::Offset), var("size", PointerPart::Size));
                            let ptr = PtrVar {
                                base: crate::term::Term::var(b.clone()),
                                off,
                                size: crate::term::Term::var(sz.clone()),
                                whole: Some((b, sz)),
                                fixed_off: None,
                                pointee: (**pointee).clone(),
                            };
                            bindings.insert(pn.clone(), Symbol::Ptr(ptr.clone()));
                            params.push(DescentParam::Ptr(ptr));
                        }
                        None => params.push(DescentParam::Unnamed),
                    }
                    continue;
                }
                CType::Void => return Err(self.syntax(def.span, format!("void parameter of `{name}`"))),
                other => {
                    let what = crate::c::lower::memory::describe(other);
                    return Err(self.unsupported(def.span, format!("{what} parameter of the recursive `{name}`")));
                }
            };
            match &p.name {
                Some(pn) => {
                    let var = self.cfg.declare(pn, name, t);
                    bindings.insert(pn.clone(), Symbol::Var { name: var.clone(), ty: t });
                    params.push(DescentParam::Int(var, t));
                }
                None => params.push(DescentParam::Unnamed),
            }
        }
        let at = self.span(def.span);
        // The header is in the callee (what witnesses name there).
        // Its integer result goes to a variable of its own, which the mark
        // of each return names (for return summaries).
        let ret = match &info.ret {
            CType::Int(t) => Some((self.cfg.declare_as(&format!("{name}%result"), name, *t, Origin::Temporary), *t)),
            _ => None,
        };
        self.enter_frame(Frame { instance: Some(instance), ret: ret.clone(), ..Frame::of_body(name, def, bindings) });
        let h = self.cfg.new_location(at, format!("recursive {name}"));
        self.cfg.recursion_header(h, name);
        if let Some(i) = self.calls.instances.get_mut(instance) {
            i.headers.insert(name.to_string(), (h, params.clone()));
        }
        let saved = self.flow.replace(Cursor::at(h));
        let r = self.stmt(&def.node.statement).and_then(|_| self.end_function_body(def.span));
        let frame = self.leave_frame();
        // A return from a descent ends the (abstract) run; its mark names
        // the value (none where the body's end is reached without `return`).
        let marked = |value: Option<crate::term::Term>| {
            let params = params.iter().map(|p| if let DescentParam::Int(v, _) = p { Some(v.clone()) } else { None }).collect();
            Action::Mark(RecursionMark::Exits { function: name.to_string(), params, value })
        };
        let result = ret.map(|(r, _)| crate::term::Term::var(r));
        let falls_off = self.flow.take().map(|mut c| {
            c.push(marked(None));
            c
        });
        let returns = frame.into_iter().flat_map(|f| f.returns).map(|mut c| {
            c.push(marked(result.clone()));
            c
        });
        let ends: Vec<Cursor> = falls_off.into_iter().chain(returns).collect();
        for c in ends {
            self.cfg.jump(c, self.flow.exit());
        }
        self.flow.set(saved);
        r?;
        Ok((h, params))
    }
}
