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

/// Functions whose only effect is output to a stream (the model has no
/// streams) and whose result is an arbitrary `int`. `%n` conversions, which
/// would write through a pointer, are checked for in the format.
const OUTPUT: &[&str] = &[
    "printf", "fprintf", "vprintf", "vfprintf", "puts", "fputs", "putchar", "putc", "fputc", "fflush", "perror", "putchar_unlocked",
];

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
                pointers.push(self.snapshot_pointer(p));
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
            self.note_approximation(at, format!("call to `{name}`: output is not modelled, its result is any int"));
        } else {
            for p in &pointers {
                self.havoc_reachable(p);
            }
            self.note_approximation(
                at,
                format!("call to `{name}` (no definition): its result and the memory its pointer arguments reach are arbitrary"),
            );
        }
        self.arbitrary_result(name, ret, want, c.span)
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
        for p in &pointers {
            self.havoc_reachable(p);
        }
        let at = self.span(c.span);
        self.note_approximation(at, format!("call to `{name}` (no definition): the pointer it returns and the memory its pointer arguments reach are arbitrary"));
        Ok(self.unknown_pointer(pointee))
    }

    /// Any pointer value (NULL or into any block, any offset).
    pub(super) fn unknown_pointer(&mut self, pointee: CType) -> PtrVal {
        let parts: Vec<Term> = ["ext.base", "ext.off", "ext.size"]
            .iter()
            .map(|n| {
                let v = self.cfg.temp(n, IntType::LONG);
                self.emit(crate::ir::Action::Havoc(v.clone()));
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
