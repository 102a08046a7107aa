//! Calls of functions the program declares but does not define: the C
//! library and external code.
//!
//! The meaning given to such a call is an over-approximation of anything it
//! could do within C's rules for a function that only sees its arguments:
//! the arguments run (in the model's evaluation order), the memory their
//! pointers reach may change arbitrarily, and the result is any value of the
//! declared return type. Such a function is assumed to return (as the C
//! library's functions do) and not to call back into the program: passing
//! it a function pointer is refused. Functions whose effect is known more precisely
//! (output to a stream, which the model does not represent) keep memory as
//! it is. Every such call is recorded as an approximation, so no NO answer
//! rests on it; a YES stays sound.

use super::memory::PtrVal;
use super::Lowerer;
use crate::c::arith::Val;
use crate::c::types::CType;
use crate::error::Result;
use crate::ir::IntType;
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;

/// Functions that end the program (all lead to `Program.exit`).
pub(super) const PROGRAM_ENDS: &[&str] = &[
    "__VERIFIER_error",
    "reach_error",
    "abort",
    "exit",
    "_exit",
    "_Exit",
    "__assert_fail",
    "__assert_perror_fail",
    "__assert",
    "__builtin_trap",
    "__builtin_abort",
    "__builtin_exit",
    // glibc and POSIX functions that never return, for programs that
    // declare them without glibc's `noreturn` attribute.
    "err",
    "errx",
    "verr",
    "verrx",
    "quick_exit",
    "pthread_exit",
    "thrd_exit",
    "__stack_chk_fail",
    "__chk_fail",
    "__fortify_fail",
    // Reaching it is undefined behaviour: no C execution goes on.
    "__builtin_unreachable",
];

/// Non-local jumps: a `longjmp` returns into an earlier `setjmp`, which
/// then returns a second time. Not modelled (refused, not taken as calls
/// that return).
pub(super) const NON_LOCAL_JUMPS: &[&str] = &[
    "setjmp",
    "_setjmp",
    "__setjmp",
    "sigsetjmp",
    "__sigsetjmp",
    "longjmp",
    "_longjmp",
    "__longjmp_chk",
    "siglongjmp",
    "__builtin_setjmp",
    "__builtin_longjmp",
    "savectx",
    "makecontext",
    "swapcontext",
    "setcontext",
];

/// The functions SV-COMP's tasks read inputs from: `__VERIFIER_nondet_int`, ...
pub(super) const NONDET_PREFIX: &str = "__VERIFIER_nondet_";

/// Functions whose only effect is output to a stream (the model has no
/// streams) and whose result is an arbitrary `int`. `%n` conversions, which
/// would write through a pointer, are checked for in the format.
pub(super) const OUTPUT: &[&str] = &[
    "printf", "fprintf", "vprintf", "vfprintf", "puts", "fputs", "putchar", "putc", "fputc", "fflush", "perror", "putchar_unlocked",
];

/// Whether a function without a definition leaves the program's memory
/// as it is: the builtins the lowerer gives a meaning of their own.
pub(super) fn keeps_memory(name: &str) -> bool {
    name.starts_with(NONDET_PREFIX)
        || PROGRAM_ENDS.contains(&name)
        || matches!(
            name,
            "__VERIFIER_assume"
                | "assume_abort_if_not"
                | "assert"
                | "__VERIFIER_assert"
                | "__builtin_expect"
                | "free"
                | "__builtin_va_start"
                | "__builtin_va_end"
                | "__builtin_va_copy"
        )
        || super::memory::ALLOCATORS.contains(&name)
}

impl<'a> Lowerer<'a> {
    /// Evaluate a call's arguments for their effects; the pointers among
    /// them, with their values.
    pub(super) fn evaluate_arguments(&mut self, args: &'a [Node<Expression>]) -> Result<Vec<PtrVal>> {
        let mut pointers = Vec::new();
        for a in args {
            if matches!(self.type_of(a)?, CType::Ptr(p) if *p == CType::Function) {
                // Code outside the program could call it back: not modelled.
                return Err(self.unsupported(a.span, "a function pointer passed to a function without a definition"));
            }
            if self.is_pointer(a)? {
                let p = self.pointer(a, None)?;
                let p = self.snapshot_pointer(p);
                // Code outside the model may keep the address.
                self.expose(&p.base);
                pointers.push(p);
            } else {
                self.effect(a)?;
            }
        }
        Ok(pointers)
    }

    /// A call to a function without a definition (`name` is known to be no
    /// builtin the lowerer models specially). `ret`: its return type.
    pub(super) fn external_call(&mut self, name: &str, c: &'a Node<CallExpression>, ret: CType, want: bool) -> Result<Option<Val>> {
        let pointers = self.evaluate_arguments(&c.node.arguments)?;
        let output_only = OUTPUT.contains(&name) && !self.format_writes(name, c);
        let at = self.span(c.span);
        if output_only {
            self.note_unknown(at, format!("call to `{name}`: output is not modelled, its result is any int"));
        } else {
            self.havoc_through(&pointers);
            self.note_unknown(
                at,
                format!("call to `{name}` (no definition): its result and the memory its pointer arguments reach are arbitrary"),
            );
        }
        self.arbitrary_result(name, ret, want, c.span)
    }

    /// Memory that code outside the program may change given these pointers:
    /// their blocks, or every tracked cell when a block is unknown or may
    /// hold pointers to other memory.
    fn havoc_through(&mut self, pointers: &[PtrVal]) {
        let everything = pointers.iter().any(|p| match self.block_object(&p.base) {
            Some(t) => self.holds_pointers(&t),
            None => super::memory::const_int(&p.base).is_none() || self.holds_pointers(&p.pointee),
        });
        if everything {
            for (cell, t) in self.exposed_cells() {
                self.havoc(&cell, t);
            }
            return;
        }
        for p in pointers {
            self.havoc_reachable(p);
        }
    }

    /// `memset(p, c, n)`: with a known block, offset and length, the cells
    /// covered become `c` (when 0, the common case) or unknown; otherwise
    /// like any external call. Returns `p`.
    pub(super) fn memset_call(&mut self, c: &'a Node<CallExpression>) -> Result<PtrVal> {
        let [p, byte, n] = c.node.arguments.as_slice() else {
            return Err(self.syntax(c.span, "`memset` takes three arguments"));
        };
        let ptr = self.pointer(p, None)?;
        let ptr = self.snapshot_pointer(ptr);
        let byte = self.expr(byte)?;
        let byte = self.snapshot(byte);
        let n = self.expr(n)?;
        let at = self.span(c.span);
        let exact = (super::memory::const_int(&ptr.off), n.constant().and_then(|v| i64::try_from(v.clone()).ok()));
        match (self.cell_slots(&ptr.base), exact) {
            (Some(slots), (Some(off), Some(len))) => {
                let zero = byte.constant().is_some_and(|v| v == &num_bigint::BigInt::from(0));
                for s in slots {
                    let w = i64::from(crate::c::types::size_of(s.ty));
                    if s.off >= off && s.off + w <= off + len {
                        if zero {
                            self.emit(crate::ir::Action::Assign(s.var.clone(), Term::int(0)));
                        } else {
                            self.havoc(&s.var, s.ty);
                        }
                    } else if s.off < off + len && off < s.off + w {
                        self.havoc(&s.var, s.ty);
                    }
                }
                if !zero {
                    self.note_unknown(at, "`memset` with a non-zero byte makes the cells unknown");
                }
            }
            _ => {
                self.havoc_through(std::slice::from_ref(&ptr));
                if self.cell_slots(&ptr.base).is_some() || super::memory::const_int(&ptr.base).is_none() {
                    self.note_unknown(at, "`memset` of an unknown range makes the memory unknown");
                }
            }
        }
        Ok(ptr)
    }

    /// GNU inline assembly without control flow of its own (reads of
    /// special registers, barriers, per-CPU accesses in kernel code): its
    /// inputs run, its outputs become any value, and a `memory` clobber or
    /// memory operand makes every tracked cell unknown. A `call` (kernel
    /// helpers such as `call __get_user_4`) is code outside the program, as
    /// a function without a definition is: assumed to return, and it may
    /// write any memory. Assembly that may jump, loop or leave the function
    /// could run forever or go anywhere; it has no meaning here and stays
    /// refused.
    pub(super) fn inline_assembly(&mut self, a: &'a Node<AsmStatement>) -> Result<()> {
        let (template, outputs, inputs, clobbers) = match &a.node {
            AsmStatement::GnuBasic(t) => (t, &[][..], &[][..], &[][..]),
            AsmStatement::GnuExtended(x) => (&x.template, &x.outputs[..], &x.inputs[..], &x.clobbers[..]),
        };
        let text = template.node.concat().to_ascii_lowercase();
        let words = || text.split(|c: char| !c.is_ascii_alphanumeric());
        let jumps = words().any(|w| (w.starts_with('j') && w.len() <= 4) || w.starts_with("loop") || w == "ret" || w == "int" || w == "syscall");
        if jumps {
            return Err(self.unsupported(a.span, "inline assembly with jumps"));
        }
        let calls = words().any(|w| w.starts_with("call"));
        let at = self.span(a.span);
        self.note_unknown(at, "inline assembly: its outputs and the memory it may write are arbitrary");
        let mut memory = calls || clobbers.iter().any(|c| c.node.concat().contains("memory"));
        for op in inputs {
            memory |= op.node.constraints.node.concat().contains('m');
            self.effect_any(&op.node.variable_name)?;
        }
        for op in outputs {
            let e = &op.node.variable_name;
            memory |= op.node.constraints.node.concat().contains('m');
            match self.type_of(e)? {
                CType::Int(_) | CType::Float(_) => {
                    let lv = self.lvalue(e)?;
                    let ty = lv.ty();
                    let v = self.cfg.temp("asm", ty);
                    self.havoc(&v, ty);
                    let v = self.arith.var(&v, ty);
                    self.store(&lv, v);
                }
                CType::Ptr(_) => {
                    // Any pointer: through memory, whatever it pointed to is unknown too.
                    memory = true;
                    if let Expression::Identifier(id) = &e.node {
                        if let Some(super::Symbol::Ptr(p)) = self.lookup(&id.node.name).cloned() {
                            let any = self.unknown_pointer(p.pointee.clone());
                            if p.whole.is_some() {
                                self.assign_pointer_parts(&p, any);
                                continue;
                            }
                        }
                    }
                    return Err(self.unsupported(op.span, "this pointer output of inline assembly"));
                }
                _ => {
                    memory = true;
                    if let Some(p) = self.object_address(e)? {
                        self.havoc_through(std::slice::from_ref(&p));
                    }
                }
            }
        }
        if memory {
            for (cell, t) in self.tracked_cells() {
                self.havoc(&cell, t);
            }
        }
        Ok(())
    }

    /// A value of the declared return type, unknown.
    fn arbitrary_result(&mut self, name: &str, ret: CType, want: bool, s: lang_c::span::Span) -> Result<Option<Val>> {
        if !want {
            return Ok(None);
        }
        match ret {
            CType::Int(t) => {
                let r = self.cfg.temp(&format!("{name}%ret"), t);
                self.havoc(&r, t);
                Ok(Some(self.arith.var(&r, t)))
            }
            CType::Void => Err(self.syntax(s, format!("the void function `{name}` used as a value"))),
            CType::Ptr(_) => Err(self.unsupported(s, format!("the pointer result of `{name}` as an integer"))),
            CType::Float(_) => Ok(Some(self.opaque_value(s))),
            CType::Unsupported(w) => Err(self.unsupported(s, format!("`{name}` returns a {w}"))),
            other => Err(self.unsupported(s, format!("`{name}` returns a {}", super::memory::describe(&other)))),
        }
    }

    /// A pointer returned by a function without a definition: NULL, or a
    /// pointer into some block (one the program knows, or one it does not),
    /// at any offset.
    pub(super) fn external_pointer_call(&mut self, name: &str, c: &'a Node<CallExpression>, pointee: CType) -> Result<PtrVal> {
        let pointers = self.evaluate_arguments(&c.node.arguments)?;
        self.havoc_through(&pointers);
        let at = self.span(c.span);
        self.note_unknown(at, format!("call to `{name}` (no definition): the pointer it returns and the memory its pointer arguments reach are arbitrary"));
        Ok(self.unknown_pointer(pointee))
    }

    /// Any pointer value (NULL or into any block, any offset).
    pub(super) fn unknown_pointer(&mut self, pointee: CType) -> PtrVal {
        let parts: Vec<Term> = ["ext.base", "ext.off", "ext.size"]
            .iter()
            .map(|n| {
                let v = self.cfg.temp(n, IntType::LONG);
                self.emit(crate::ir::Action::Choose(v.clone()));
                Term::var(v)
            })
            .collect();
        let [base, off, size] = <[Term; 3]>::try_from(parts).unwrap_or_else(|_| unreachable!("three parts"));
        // A block is never larger than the address space, nor negative.
        self.emit_assume(Term::and(vec![Term::le(Term::int(0), base.clone()), Term::le(Term::int(0), size.clone())]));
        PtrVal { base, off, size, pointee }
    }

    /// Whether a call to an output function may write through a pointer:
    /// its format has a `%n` conversion, or is not a string literal.
    fn format_writes(&self, name: &str, c: &'a Node<CallExpression>) -> bool {
        let position = match name {
            "printf" | "vprintf" => 0,
            "fprintf" | "vfprintf" => 1,
            _ => return false,
        };
        match c.node.arguments.get(position).map(|a| &a.node) {
            Some(Expression::StringLiteral(s)) => s.node.iter().any(|part| has_n_conversion(part)),
            _ => true,
        }
    }
}

/// Whether a printf format (as written in the source) has a `%n` conversion.
fn has_n_conversion(format: &str) -> bool {
    let mut chars = format.chars();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            continue;
        }
        for d in chars.by_ref() {
            if "-+ #0123456789.*hlLqjzt'".contains(d) {
                continue;
            }
            if d == 'n' {
                return true;
            }
            break;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn n_conversions_are_found() {
        assert!(super::has_n_conversion("\"%d%n\""));
        assert!(super::has_n_conversion("\"%-08lln\""));
        assert!(!super::has_n_conversion("\"%d\\n\""));
        assert!(!super::has_n_conversion("\"100%%n\""));
    }
}
