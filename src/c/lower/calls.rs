//! Calls: builtins and library functions, and inlined calls of the
//! program's own functions (recursive ones are in `recursion.rs`).

use super::expr::{Argument, NONDET_PREFIX, PROGRAM_ENDS};
use super::{JumpScope, Lowerer, Symbol};
use crate::c::cfg::Cursor;
use crate::c::arith::Val;
use crate::c::types::CType;
use crate::error::Result;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

impl<'a> Lowerer<'a> {
    // ---- calls

    pub(super) fn call(&mut self, c: &'a Node<CallExpression>, want: bool) -> Result<Option<Val>> {
        let Expression::Identifier(id) = &c.node.callee.node else {
            return Err(self.unsupported(c.span, "a call through a function pointer"));
        };
        let name = id.node.name.as_str();
        let args = &c.node.arguments;
        if let Some(info) = self.functions.get(name) {
            if info.def.is_some() {
                return self.inline(name, c, want);
            }
        }
        if let Some(t) = self.nondet_type(name) {
            for a in args {
                self.effect(a)?;
            }
            let v = self.cfg.temp("nondet", t);
            self.havoc(&v, t);
            return Ok(Some(self.arith.var(&v, t)));
        }
        if name.starts_with(NONDET_PREFIX) {
            return Err(self.unsupported(c.span, format!("`{name}` (not an integer type)")));
        }
        match name {
            "__VERIFIER_assume" | "assume_abort_if_not" => {
                let [cond] = args.as_slice() else {
                    return Err(self.syntax(c.span, format!("`{name}` takes one argument")));
                };
                let (ts, _) = self.branch(cond)?;
                self.cur = self.join(ts, c.span, "assume");
                Ok(None)
            }
            "assert" | "__VERIFIER_assert" => {
                let [cond] = args.as_slice() else {
                    return Err(self.syntax(c.span, format!("`{name}` takes one argument")));
                };
                // A failing assertion ends the program.
                let (ts, fs) = self.branch(cond)?;
                for f in fs {
                    self.cfg.jump(f, self.exit);
                }
                self.cur = self.join(ts, c.span, "assert");
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
                Ok(Some(self.arith.convert(v, self.arith.model.long())))
            }
            n if PROGRAM_ENDS.contains(&n) => {
                // The arguments run first (and may themselves never return).
                let effectful: Vec<&'a Node<Expression>> = args.iter().filter(|a| self.has_effects(a)).collect();
                for a in effectful {
                    if self.is_pointer(a)? {
                        self.pointer(a, None)?;
                    } else {
                        self.effect(a)?;
                    }
                }
                if let Some(cur) = self.cur.take() {
                    self.cfg.jump(cur, self.exit);
                }
                // No execution continues; any value will do.
                Ok(if want { Some(self.arith.int(0)) } else { None })
            }
            "free" => {
                // Freed memory is never reused by the model: a no-op.
                for a in args {
                    if self.is_pointer(a)? {
                        self.pointer(a, None)?;
                    } else {
                        self.effect(a)?;
                    }
                }
                Ok(None)
            }
            "malloc" | "calloc" | "realloc" | "alloca" | "__builtin_alloca" => {
                Err(self.unsupported(c.span, format!("dynamic memory (`{name}`)")))
            }
            _ => Err(self.unsupported(c.span, format!("call to unknown function {name}"))),
        }
    }

    /// Inline a call: fresh copies of the callee's parameters and locals,
    /// its returns joined after the body.
    /// The called function, if it has a body, is not variadic, and called with as
    /// many arguments as it takes (shared by inlined and recursive calls).
    pub(crate) fn callee(&self, name: &str, c: &'a Node<CallExpression>) -> Result<super::FunctionInfo<'a>> {
        let Some(info) = self.functions.get(name).cloned().filter(|i| i.def.is_some()) else {
            return Err(self.unsupported(c.span, format!("call to unknown function {name}")));
        };
        if info.variadic {
            return Err(self.unsupported(c.span, format!("variadic function `{name}`")));
        }
        let args = &c.node.arguments;
        if args.len() != info.params.len() && !(info.unprototyped && info.params.is_empty()) {
            return Err(self.syntax(
                c.span,
                format!("`{name}` called with {} arguments but takes {}", args.len(), info.params.len()),
            ));
        }
        Ok(info)
    }

    fn inline(&mut self, name: &str, c: &'a Node<CallExpression>, want: bool) -> Result<Option<Val>> {
        if let Some(&component) = self.recursive.get(name) {
            return self.recursive_call(name, component, c, want);
        }
        if self.frames.iter().any(|f| f.function == name) {
            return Err(self.unsupported(c.span, format!("recursion (`{name}` calls itself, directly or indirectly)")));
        }
        if self.cfg.too_large() {
            return Err(self.unsupported(c.span, "the program is too large after inlining"));
        }
        let info = self.callee(name, c)?;
        let Some(def) = info.def else {
            return Err(self.unsupported(c.span, format!("call to unknown function {name}")));
        };
        let args = &c.node.arguments;
        let mut values = Vec::new();
        // Arguments whose effects interfere: evaluated in every order.
        let interfering: Vec<usize> =
            (0..args.len()).filter(|&i| (0..args.len()).any(|j| j != i && self.interfere(&args[i], &args[j]))).collect();
        let mut ordered: HashMap<usize, Val> = HashMap::new();
        if interfering.len() > 1 {
            if interfering.iter().any(|&i| matches!(info.params.get(i).map(|p| &p.ty), Some(CType::Ptr(_)))) {
                return Err(self.unsupported(c.span, "pointer arguments whose side effects interfere with other arguments"));
            }
            let es: Vec<&'a Node<Expression>> = interfering.iter().map(|&i| &args[i]).collect();
            let vs = self.values_in_every_order(&es, c.span)?;
            ordered = interfering.iter().copied().zip(vs).collect();
        }
        for (i, a) in args.iter().enumerate() {
            if let Some(v) = ordered.remove(&i) {
                values.push(Argument::Value(v));
                continue;
            }
            if let Some(CType::Ptr(pointee)) = info.params.get(i).map(|p| &p.ty) {
                let v = self.pointer(a, Some((**pointee).clone()))?;
                let later = &args[i + 1..];
                let v = if later.iter().any(|x| self.has_effects(x)) { self.snapshot_pointer(v) } else { v };
                values.push(Argument::Pointer(v));
                continue;
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
            (CType::Ptr(p), true) => Some(self.declare_pointer(&format!("{name}%ret"), (**p).clone(), None, false, false)),
            _ => None,
        };
        let ret = match (&info.ret, want) {
            (CType::Ptr(_), _) => None,
            (CType::Int(t), true) => Some((self.cfg.temp(&format!("{name}%ret"), *t), *t)),
            (CType::Void, true) => return Err(self.syntax(c.span, format!("the void function `{name}` used as a value"))),
            (CType::Unsupported(w), _) => return Err(self.unsupported(c.span, format!("`{name}` returns a {w}"))),
            _ => None,
        };
        self.frames.push(super::Frame {
            function: name.to_string(),
            scopes: vec![HashMap::new()],
            ret: ret.clone(),
            is_main: false,
            returns: Vec::new(),
            labels: HashMap::new(),
            defined_labels: HashSet::new(),
            goto_targets: super::stmt::goto_targets(&def.node.statement),
            jumps: Vec::<JumpScope>::new(),
            instance: None,
            reassigned: super::facts::reassigned_names(&def.node.statement),
            past_goto_label: false,
            ret_ptr: ret_ptr.clone(),
        });
        let result = self.inline_body(name, def, &info.params, values);
        let frame = self.frames.pop();
        result?;
        let mut ends: Vec<Cursor> = self.cur.take().into_iter().collect();
        if let Some(f) = frame {
            ends.extend(f.returns);
        }
        self.cur = self.join(ends, c.span, &format!("return from {name}"));
        self.last_pointer_return = ret_ptr.map(|p| p.value());
        Ok(ret.map(|(v, t)| self.arith.var(&v, t)))
    }

    /// Inline a call whose value is used (a pointer result is left in
    /// `last_pointer_return`).
    pub(crate) fn inline_call(&mut self, c: &'a Node<CallExpression>) -> Result<()> {
        let Expression::Identifier(id) = &c.node.callee.node else {
            return Err(self.unsupported(c.span, "a call through a function pointer"));
        };
        self.inline(&id.node.name, c, true).map(|_| ())
    }

    fn inline_body(
        &mut self,
        name: &str,
        def: &'a Node<FunctionDefinition>,
        params: &[super::Param],
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
                CType::Unsupported(w) => {
                    return Err(self.unsupported(def.span, format!("parameter of `{name}` of type {w}")));
                }
                CType::Void => return Err(self.syntax(def.span, format!("void parameter of `{name}`"))),
            };
            let Some(pname) = &p.name else { continue };
            let var = self.cfg.declare(pname, name, t);
            match v {
                Argument::Value(v) => {
                    let v = self.arith.convert(v, t);
                    self.assign_var(&var, v);
                }
                Argument::Nondet(range) => self.havoc_in(&var, range),
                Argument::Pointer(_) => {
                    return Err(self.unsupported(def.span, format!("a pointer passed as the integer parameter `{pname}` of `{name}`")));
                }
            }
            self.bind(pname, Symbol::Var { name: var, ty: t });
        }
        self.stmt(&def.node.statement)?;
        self.end_function_body(def.span)
    }
}
