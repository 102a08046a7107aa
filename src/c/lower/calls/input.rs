//! Reads from the program's input streams (standard input, files): what
//! they read is an input of the program, as `__VERIFIER_nondet_int()` is.

use crate::c::lower::typed::*;
use crate::c::lower::memory::PtrVal;
use crate::c::lower::Lowerer;
use crate::ir::Approximation;
use crate::c::arith::Val;
use crate::c::types::CType;
use crate::error::Result;
use crate::ir::IntType;
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;

/// Reads from a stream (standard input, a file). What they read is an
/// input of the program, as `__VERIFIER_nondet_int()` is: a `havoc` that
/// a non-termination witness may choose (the input can always go on). A
/// read that fails (EOF) is the end of the input or an error (`EINTR`,
/// `EAGAIN` on a non-blocking descriptor) after which a later read may
/// succeed, so each read is free whatever the earlier ones returned. The
/// stream itself is the C library's object: reading it changes no memory
/// of the program's other than the buffers it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum InputCall {
    /// `getchar()`, `fgetc(f)`, `getc(f)`: a byte in `0..=255`, or EOF (-1).
    Character,
    /// `scanf(fmt, ...)` (`stream`: 0) and `fscanf(f, fmt, ...)` (1): the
    /// number of conversions made, or EOF; those made write their targets.
    Formatted { format: usize },
    /// `fread(buf, size, n, f)`: `0..=n` items; `read(fd, buf, n)`: `-1..=n` bytes.
    Block { count: usize, buffer: usize, least: i64 },
    /// `getline(&line, &cap, f)`, `getdelim(&line, &cap, delim, f)`: -1 or
    /// the length read (at least one byte).
    Line,
    /// `fgets(buf, n, f)`: NULL or `buf`.
    LineInto,
}

impl InputCall {
    pub(super) fn of(name: &str) -> Option<InputCall> {
        Some(match name {
            "getchar" | "getc" | "fgetc" | "getchar_unlocked" | "getc_unlocked" | "fgetc_unlocked" | "_IO_getc" => InputCall::Character,
            "scanf" | "__isoc99_scanf" => InputCall::Formatted { format: 0 },
            "fscanf" | "__isoc99_fscanf" => InputCall::Formatted { format: 1 },
            "fread" | "fread_unlocked" => InputCall::Block { count: 2, buffer: 0, least: 0 },
            "read" => InputCall::Block { count: 2, buffer: 1, least: -1 },
            "getline" | "getdelim" | "__getdelim" => InputCall::Line,
            "fgets" | "fgets_unlocked" => InputCall::LineInto,
            _ => return None,
        })
    }
}

impl<'a> Lowerer<'a> {
    /// A read from a stream whose result is an integer (see [`InputCall`]);
    /// `None` when the call is not of a form modelled exactly (a format that
    /// is no literal, `%n`, arguments that do not match), which the caller
    /// then treats as any function without a definition.
    pub(super) fn input_call(&mut self, kind: InputCall, name: &str, c: &'a Node<CallExpression>, ret: IntType) -> Result<Option<Val>> {
        let args = &c.node.arguments;
        let at = self.span(c.span);
        let (least, most) = match kind {
            InputCall::Character => {
                self.stream_arguments(args)?;
                (Term::int(-1), Term::int(255))
            }
            InputCall::Formatted { format } => {
                let Some(Expression::StringLiteral(lit)) = args.get(format).map(|a| &a.node) else { return Ok(None) };
                let Ok(units) = crate::c::types::string_literal_values(&lit.node, self.arith.machine()) else { return Ok(None) };
                let text: String = units.iter().map(|&u| char::from_u32(u).unwrap_or('\u{fffd}')).collect();
                let Some(conversions) = scanf_conversions(&text) else { return Ok(None) };
                let targets = &args[format + 1..];
                if conversions.len() != targets.len() {
                    return Ok(None);
                }
                for t in targets {
                    if !self.is_pointer(t)? {
                        return Ok(None);
                    }
                }
                // The format is a literal the library only reads (no block:
                // see `external_call`).
                self.stream_arguments(&args[..format])?;
                let mut pointers = Vec::new();
                for t in targets {
                    pointers.push(self.escaping_pointer(t)?);
                }
                let made = self.read_count(ret, Term::int(-1), Term::int(conversions.len() as i64));
                // The first `made` conversions write their targets.
                for (j, (conv, p)) in conversions.iter().zip(&pointers).enumerate() {
                    let done = Term::lt(Term::int(j as i64), made.term.clone());
                    match (conv, &p.pointee) {
                        (Conversion::Integer, CType::Int(ty)) => {
                            let ty = *ty;
                            let old = self.guarded(done.clone(), |l| {
                                let (p, _) = l.access(p.clone(), c.span)?;
                                Ok(l.load_memory(&p, ty, &at))
                            })?;
                            let read = self.cfg.temp("scanned", ty);
                            self.input(&read, ty);
                            let new = Val { term: Term::ite(done, Term::var(read), old.term), ty, range: self.arith.type_range(ty) };
                            self.store_memory(&p, ty, new, &at);
                        }
                        _ => {
                            self.havoc_reachable(p);
                            self.note_approximation(at.clone(), Approximation::InputConversion { function: name.to_string() });
                        }
                    }
                }
                return Ok(Some(made));
            }
            InputCall::Block { count, buffer, least } => {
                if args.len() <= count.max(buffer) || !self.is_pointer(&args[buffer])? || self.is_pointer(&args[count])? {
                    return Ok(None);
                }
                let mut n = None;
                let mut buf = None;
                for (i, a) in args.iter().enumerate() {
                    if self.is_pointer(a)? {
                        let p = self.escaping_pointer(a)?;
                        if i == buffer {
                            buf = Some(p);
                        }
                    } else {
                        let v = self.expr(a)?;
                        let v = self.snapshot(v);
                        if i == count {
                            n = Some(v);
                        }
                    }
                }
                let (Some(n), Some(buf)) = (n, buf) else { return Ok(None) };
                self.havoc_reachable(&buf);
                self.note_approximation(at, Approximation::InputBytes { function: name.to_string() });
                (Term::int(least), n.term)
            }
            InputCall::Line => {
                let pointers = self.evaluate_arguments(args)?;
                // The line and its capacity (`realloc`ed by the call).
                let stream = pointers.len().saturating_sub(1);
                self.havoc_through(&pointers[..stream]);
                self.note_approximation(at, Approximation::InputLine { function: name.to_string() });
                let v = self.read_count(ret, Term::int(-1), Term::int(i64::MAX));
                self.emit_assume(Term::not(Term::eq(v.term.clone(), Term::int(0))));
                return Ok(Some(v));
            }
            InputCall::LineInto => return Ok(None),
        };
        Ok(Some(self.read_count(ret, least, most)))
    }

    /// A value read from the program's input: any value of type `ret`
    /// between `least` and `most`.
    fn read_count(&mut self, ret: IntType, least: Term, most: Term) -> Val {
        let v = self.cfg.temp("input", ret);
        self.input(&v, ret);
        self.emit_assume(Term::and(vec![Term::le(least, Term::var(v.clone())), Term::le(Term::var(v.clone()), most)]));
        self.arith.var(&v, ret)
    }

    /// The stream (and format) arguments of a read: they run, and their
    /// addresses go out; a stream is the library's object, so the read
    /// writes none of the program's memory through them, unless the
    /// program passes an object of its own that the model tracks.
    fn stream_arguments(&mut self, args: &'a [Node<Expression>]) -> Result<()> {
        let pointers = self.evaluate_arguments(args)?;
        for p in &pointers {
            if self.cell_slots(&p.base).is_some() {
                self.havoc_reachable(p);
            }
        }
        Ok(())
    }

    /// `fgets(buf, n, f)`: NULL (end of input or an error) or `buf`, with
    /// what it read in `buf` (unknown to the model).
    pub(super) fn fgets_call(&mut self, c: &'a Node<CallExpression>, pointee: CType) -> Result<PtrVal> {
        let [buf, n, stream] = c.node.arguments.as_slice() else {
            return Err(self.syntax(c.span, "`fgets` takes three arguments"));
        };
        let at = self.span(c.span);
        let p = self.escaping_pointer(buf)?;
        let n = self.expr(n)?;
        let n = self.snapshot(n);
        self.stream_arguments(std::slice::from_ref(stream))?;
        self.havoc_reachable(&p);
        self.note_approximation(at, Approximation::InputBytes { function: "fgets".to_string() });
        let got = self.read_count(IntType::Bool, Term::int(0), Term::int(1));
        let got = Term::eq(got.term, Term::int(1));
        // glibc: `n <= 0` reads nothing and fails, `n == 1` stores only the
        // terminating NUL and succeeds.
        self.emit_assume(Term::and(vec![
            Term::or(vec![Term::lt(Term::int(0), n.term.clone()), Term::not(got.clone())]),
            Term::or(vec![Term::not(Term::eq(n.term.clone(), Term::int(1))), got.clone()]),
        ]));
        let part = |t: Term| Term::ite(got.clone(), t, Term::int(0));
        Ok(PtrVal { base: part(p.base), off: part(p.off), size: part(p.size), pointee })
    }

    /// A read whose result is a pointer (`fgets`), `None` for any other
    /// function.
    pub(in crate::c) fn input_pointer_call(&mut self, name: &str, c: &'a Node<CallExpression>, pointee: CType) -> Result<Option<PtrVal>> {
        if InputCall::of(name) == Some(InputCall::LineInto) {
            return self.fgets_call(c, pointee).map(Some);
        }
        Ok(None)
    }
}

/// What a `scanf` conversion writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Conversion {
    /// `%d`, `%u`, `%x`, ...: one integer of its target's type, any value.
    Integer,
    /// `%s`, `%c`, `%[...]`, `%f`, `%p`: bytes or values the model does not follow.
    Other,
}

/// The assigning conversions of a `scanf` format (as written in the source,
/// quotes included), in order; `None` when it has `%n` (which writes a
/// count, not an input, and counts for no conversion) or is malformed.
fn scanf_conversions(format: &str) -> Option<Vec<Conversion>> {
    let mut out = Vec::new();
    let mut chars = format.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            continue;
        }
        let mut assigning = true;
        let mut width = false;
        let spec = loop {
            match chars.next()? {
                '*' => assigning = false,
                d if d.is_ascii_digit() => width = true,
                'h' | 'l' | 'j' | 'z' | 't' | 'L' | 'q' | 'm' => {}
                other => break other,
            }
        };
        let conv = match spec {
            '%' => continue,
            'n' => return None,
            'd' | 'i' | 'u' | 'o' | 'x' | 'X' => Conversion::Integer,
            'c' if !width => Conversion::Other,
            '[' => {
                // A scan set; `]` right after `[` or `[^` belongs to it.
                if chars.peek() == Some(&'^') {
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    chars.next();
                }
                chars.by_ref().find(|&c| c == ']')?;
                Conversion::Other
            }
            's' | 'c' | 'p' | 'a' | 'A' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G' => Conversion::Other,
            _ => return None,
        };
        if assigning {
            out.push(conv);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn scanf_conversions_are_counted() {
        use super::{scanf_conversions, Conversion::*};
        assert_eq!(scanf_conversions("\"%d %ld\""), Some(vec![Integer, Integer]));
        assert_eq!(scanf_conversions("\"%*d %s 100%% %[^]a] %3c\""), Some(vec![Other, Other, Other]));
        assert_eq!(scanf_conversions("\"%d%n\""), None);
        assert_eq!(scanf_conversions("\"%\""), None);
    }
}
