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

use crate::c::lower::typed::*;
use crate::c::lower::memory::PtrVal;
use super::input::InputCall;
use crate::c::lower::Lowerer;
use crate::ir::Approximation;
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
pub(crate) const NONDET_PREFIX: &str = "__VERIFIER_nondet_";

/// Functions whose only effect is output to a stream (the model has no
/// streams) and whose result is an arbitrary `int`, unless their format
/// has a `%n` conversion, which writes through a pointer argument.
pub(crate) const OUTPUT: &[&str] = &[
    "printf",
    "fprintf",
    "dprintf",
    "vprintf",
    "vfprintf",
    "vdprintf",
    "puts",
    "fputs",
    "putchar",
    "putc",
    "fputc",
    "fflush",
    "perror",
    "putchar_unlocked",
    "putc_unlocked",
    "fputc_unlocked",
    "fputs_unlocked",
    "__printf_chk",
    "__fprintf_chk",
    "__dprintf_chk",
    "__vprintf_chk",
    "__vfprintf_chk",
    "__vdprintf_chk",
];

/// The position of the format argument of a printf-family function (the
/// `_chk` forms of glibc's fortified headers included).
fn printf_format_position(name: &str) -> Option<usize> {
    Some(match name {
        "printf" | "vprintf" => 0,
        "fprintf" | "vfprintf" | "dprintf" | "vdprintf" | "sprintf" | "vsprintf" | "asprintf" | "vasprintf" | "__printf_chk" | "__vprintf_chk" => 1,
        "snprintf" | "vsnprintf" | "__fprintf_chk" | "__vfprintf_chk" | "__dprintf_chk" | "__vdprintf_chk" | "__asprintf_chk" | "__vasprintf_chk" => 2,
        "__sprintf_chk" | "__vsprintf_chk" => 3,
        "__snprintf_chk" | "__vsnprintf_chk" => 4,
        _ => return None,
    })
}

/// Functions of the C library (ISO C and POSIX) that change program state
/// only through the pointers they are given: they never write the
/// program's global variables by name, nor memory whose address they were
/// not passed. A function the program declares without defining and that
/// is not listed here is external code, which C lets change any global
/// with external linkage and anything whose address has escaped (see
/// [`ExternalCalls`]).
const LIBRARY_THROUGH_ARGUMENTS: &[&str] = &[
    // <string.h>, <strings.h>
    "memcpy", "memmove", "memcmp", "memchr", "memrchr", "memmem", "mempcpy", "memccpy", "strcpy", "strncpy", "stpcpy", "stpncpy",
    "strcat", "strncat", "strlcpy", "strlcat", "strcmp", "strncmp", "strcasecmp", "strncasecmp", "strcoll", "strxfrm", "strlen",
    "strnlen", "strchr", "strrchr", "strchrnul", "strstr", "strcasestr", "strspn", "strcspn", "strpbrk", "strtok", "strtok_r",
    "strsep", "strdup", "strndup", "strerror", "strerror_r", "bzero", "bcmp", "bcopy", "explicit_bzero", "index", "rindex",
    "__builtin_memcpy", "__builtin_memmove", "__builtin_memcmp", "__builtin_strlen", "__builtin_strcmp", "__builtin_strcpy",
    "__builtin_strncpy", "__builtin_strchr", "__memcpy_chk", "__memmove_chk", "__strcpy_chk", "__strncpy_chk", "__strcat_chk",
    "__strncat_chk", "__stpcpy_chk",
    // <stdlib.h>
    "atoi", "atol", "atoll", "atof", "strtol", "strtoll", "strtoul", "strtoull", "strtod", "strtof", "strtold", "abs", "labs",
    "llabs", "div", "ldiv", "lldiv", "rand", "srand", "rand_r", "random", "srandom", "drand48", "lrand48", "mrand48", "srand48",
    "getenv", "secure_getenv", "mblen", "mbtowc", "wctomb", "mbstowcs", "wcstombs", "system", "realpath", "mkstemp", "mkdtemp",
    // <ctype.h>
    "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph", "islower", "isprint", "ispunct", "isspace", "isupper",
    "isxdigit", "isascii", "tolower", "toupper", "__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc",
    // <stdio.h>, formatted and stream input and output
    "sprintf", "snprintf", "vsprintf", "vsnprintf", "asprintf", "vasprintf", "__sprintf_chk", "__snprintf_chk", "__vsprintf_chk",
    "__vsnprintf_chk", "__asprintf_chk", "__vasprintf_chk", "scanf", "fscanf", "sscanf", "vscanf", "vfscanf", "vsscanf",
    "__isoc99_scanf", "__isoc99_fscanf", "__isoc99_sscanf", "__isoc99_vscanf", "__isoc99_vfscanf", "__isoc99_vsscanf", "fopen",
    "fdopen", "freopen", "fclose", "fread", "fwrite", "fgets", "fgetc", "getc", "getchar", "getc_unlocked", "getchar_unlocked",
    "ungetc", "gets", "getline", "getdelim", "fseek", "ftell", "rewind", "fgetpos", "fsetpos", "feof", "ferror", "clearerr",
    "fileno", "setvbuf", "setbuf", "remove", "rename", "tmpfile", "tmpnam",
    // <math.h>
    "sqrt", "sqrtf", "pow", "powf", "fabs", "fabsf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc", "truncf",
    "exp", "expf", "log", "logf", "log2", "log10", "sin", "cos", "tan", "atan", "atan2", "fmod", "fmodf", "fmin", "fmax",
    "frexp", "ldexp", "modf", "lround", "llround", "lrint", "isnan", "isinf", "__isnan", "__isinf", "__isnanf", "__isinff",
    "__fpclassify", "__signbit",
    // <time.h>, <unistd.h> and other POSIX
    "time", "clock", "difftime", "mktime", "localtime", "gmtime", "localtime_r", "gmtime_r", "strftime", "asctime", "ctime",
    "gettimeofday", "clock_gettime", "sleep", "usleep", "nanosleep", "read", "write", "open", "close", "lseek", "pipe", "dup",
    "dup2", "getpid", "getppid", "getuid", "geteuid", "getgid", "isatty", "access", "unlink", "stat", "fstat", "lstat",
    "__errno_location", "sysconf",
    // <wchar.h>
    "wcslen", "wcscpy", "wcsncpy", "wcscmp", "wcsncmp", "wcschr", "wcsrchr", "wcscat", "wmemcpy", "wmemset", "wmemcmp",
];

/// Functions of the C library that only read through the pointers they are
/// given, keep none of them and return no pointer: comparisons, lengths and
/// conversions of strings and bytes. A pointer given to them stays in the
/// program's hands (its block is not exposed) and the memory it reaches
/// keeps its contents: `memcmp(key, &i, sizeof i)` in a hash table's lookup
/// leaves `i` alone.
const LIBRARY_READS_ONLY: &[&str] = &[
    "memcmp", "__builtin_memcmp", "bcmp", "strcmp", "__builtin_strcmp", "strncmp", "strcasecmp", "strncasecmp", "strcoll",
    "strlen", "__builtin_strlen", "strnlen", "strspn", "strcspn", "wcslen", "wcscmp", "wcsncmp", "wmemcmp", "atoi", "atol",
    "atoll", "atof",
];

pub use crate::c::meaning::ExternalCalls;

/// Whether a function without a definition leaves the program's memory
/// as it is: the builtins the lowerer gives a meaning of their own.
pub(crate) fn keeps_memory(name: &str) -> bool {
    InputCall::of(name) == Some(InputCall::Character)
        || name.starts_with(NONDET_PREFIX)
        || PROGRAM_ENDS.contains(&name)
        || super::builtins::operand_evaluation(name).is_some()
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
        || crate::c::lower::memory::ALLOCATORS.contains(&name)
}

impl<'a> Lowerer<'a> {
    /// Evaluate a call's arguments for their effects; the pointers among
    /// them, with their values.
    pub(super) fn evaluate_arguments(&mut self, args: &'a [Node<Expression>]) -> Result<Vec<PtrVal>> {
        let mut pointers = Vec::new();
        for a in args {
            self.evaluate_argument(a, &mut pointers)?;
        }
        Ok(pointers)
    }

    /// A pointer argument given to code outside the model, which may keep
    /// the address: its value as of the call, its blocks exposed.
    pub(super) fn escaping_pointer(&mut self, a: &'a Node<Expression>) -> Result<PtrVal> {
        let p = self.pointer(a, None)?;
        let p = self.snapshot_pointer(p);
        self.expose(&p.base);
        Ok(p)
    }

    /// One argument of [`Lowerer::evaluate_arguments`].
    fn evaluate_argument(&mut self, a: &'a Node<Expression>, pointers: &mut Vec<PtrVal>) -> Result<()> {
        if matches!(self.type_of(a)?, CType::Ptr(p) if *p == CType::Function) {
            // Code outside the program could call it back: not modelled.
            return Err(self.unsupported(a.span, "a function pointer passed to a function without a definition"));
        }
        if self.is_pointer(a)? {
            pointers.push(self.escaping_pointer(a)?);
        } else {
            self.effect(a)?;
        }
        Ok(())
    }

    /// A call to a function without a definition (`name` is known to be no
    /// builtin the lowerer models specially). `ret`: its return type.
    pub(super) fn external_call(&mut self, name: &str, c: &'a Node<CallExpression>, ret: CType, want: bool) -> Result<Option<Val>> {
        if let (Some(kind), CType::Int(t)) = (InputCall::of(name), &ret) {
            if let Some(v) = self.input_call(kind, name, c, *t)? {
                return Ok(want.then_some(v));
            }
        }
        let output_only = OUTPUT.contains(&name) && !self.format_writes(name, c);
        let pointers = if output_only {
            // A string literal given to an output function (its format)
            // is read and forgotten: it needs no block. A block made in a
            // loop would number a new one per iteration, and that counter
            // would keep every run from returning to a state it had.
            let mut pointers = Vec::new();
            for a in c.node.arguments.iter().filter(|a| !matches!(a.node, Expression::StringLiteral(_))) {
                self.evaluate_argument(a, &mut pointers)?;
            }
            pointers
        } else if LIBRARY_READS_ONLY.contains(&name) {
            // Read and forgotten: evaluated for their effects, nothing
            // exposed, nothing written.
            for a in &c.node.arguments {
                if self.is_pointer(a)? {
                    let p = self.pointer(a, None)?;
                    self.snapshot_pointer(p);
                } else {
                    self.effect(a)?;
                }
            }
            self.note_approximation(self.span(c.span), Approximation::ExternalCall { function: name.to_string(), returns_pointer: false, escaped: false });
            return self.arbitrary_result(name, ret, want, c.span);
        } else {
            self.evaluate_arguments(&c.node.arguments)?
        };
        let at = self.span(c.span);
        if crate::c::meaning::may_never_return(name) {
            // The run may stay in the call for ever (a program `exec`
            // runs, a signal `pause` waits for), or come back.
            if let Some(cur) = self.flow.take() {
                self.note_approximation(at.clone(), Approximation::MayNeverReturn { function: name.to_string() });
                self.flow.set(Some(cur.clone()));
                self.stay_forever(at.clone(), format!("in a call of `{name}` that may never return"));
                self.flow.set(Some(cur));
            }
        }
        if output_only {
            self.note_approximation(at, Approximation::OutputCall { function: name.to_string() });
        } else if self.external_effects(name, &pointers) {
            self.note_approximation(at, Approximation::ExternalCall { function: name.to_string(), returns_pointer: false, escaped: true });
        } else {
            self.note_approximation(at, Approximation::ExternalCall { function: name.to_string(), returns_pointer: false, escaped: false });
        }
        self.arbitrary_result(name, ret, want, c.span)
    }

    /// Whether a call of `name` (no definition in the program) is code that
    /// may change state it was not given: not a C library function the
    /// model knows, under [`ExternalCalls::AnyReachableState`].
    pub(super) fn external_may_write_globals(&self, name: &str) -> bool {
        self.calls.external_calls == ExternalCalls::AnyReachableState
            && !LIBRARY_THROUGH_ARGUMENTS.contains(&name)
            && !OUTPUT.contains(&name)
            && printf_format_position(name).is_none()
            && !keeps_memory(name)
    }

    /// What a call of `name` without a definition changes, given the
    /// pointers among its arguments: what they reach, and, for code outside
    /// the C library, everything it may reach without them (see
    /// [`Lowerer::external_state`]). Whether it did the latter.
    fn external_effects(&mut self, name: &str, pointers: &[PtrVal]) -> bool {
        self.havoc_through(pointers);
        if !self.external_may_write_globals(name) {
            return false;
        }
        for (v, t) in self.external_state() {
            self.havoc(&v, t);
        }
        true
    }

    /// The state code outside the program can reach without being given a
    /// pointer (C11 6.2.2: it can name every object with external linkage):
    /// each global variable not declared `static`, the cells of such global
    /// arrays and structs, and the cells of every block whose address the
    /// program let out (which includes everything reachable from those
    /// globals, and objects whose address was turned into an integer).
    pub(super) fn external_state(&mut self) -> Vec<(String, IntType)> {
        let symbols = self.globals.outside_code_may_change();
        let mut out: Vec<(String, IntType)> = Vec::new();
        for sym in symbols {
            match sym {
                crate::c::lower::Symbol::Var { name, ty } => out.push((name, ty)),
                crate::c::lower::Symbol::Ptr(p) => {
                    out.push((p.off.clone(), IntType::LONG));
                    if let Some((b, size)) = &p.whole {
                        out.push((b.clone(), IntType::LONG));
                        out.push((size.clone(), IntType::LONG));
                    }
                }
                crate::c::lower::Symbol::Object { ptr, .. } => out.extend(self.cell_variables(&ptr.base)),
                _ => {}
            }
        }
        let mut seen: std::collections::HashSet<String> = out.iter().map(|(v, _)| v.clone()).collect();
        for cell in self.exposed_cells() {
            if seen.insert(cell.0.clone()) {
                out.push(cell);
            }
        }
        out
    }

    /// Memory that code outside the program may change given these pointers:
    /// their blocks, or every tracked cell when a block is unknown or may
    /// hold pointers to other memory.
    pub(super) fn havoc_through(&mut self, pointers: &[PtrVal]) {
        let everything = pointers.iter().any(|p| match self.block_object(&p.base) {
            Some(t) => self.types.holds_pointers(&t),
            None => crate::c::lower::memory::const_int(&p.base).is_none() || self.types.holds_pointers(&p.pointee),
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
    pub(in crate::c) fn memset_call(&mut self, c: &'a Node<CallExpression>) -> Result<PtrVal> {
        let [p, byte, n] = c.node.arguments.as_slice() else {
            return Err(self.syntax(c.span, "`memset` takes three arguments"));
        };
        let ptr = self.pointer(p, None)?;
        let ptr = self.snapshot_pointer(ptr);
        let byte = self.expr(byte)?;
        let byte = self.snapshot(byte);
        let n = self.expr(n)?;
        let at = self.span(c.span);
        let exact = (crate::c::lower::memory::const_int(&ptr.off), n.constant().and_then(|v| i64::try_from(v.clone()).ok()));
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
                for cell in self.pointer_cells(&ptr.base) {
                    let w = i64::from(self.arith.machine().pointer_bytes());
                    if zero && cell.off >= off && cell.off + w <= off + len {
                        // All bytes zero: NULL.
                        for part in cell.parts() {
                            self.emit(crate::ir::Action::Assign(part.clone(), Term::int(0)));
                        }
                    } else if cell.off < off + len && off < cell.off + w {
                        self.overwrite_pointer_cell(&cell, &Term::tt(), at.as_ref());
                    }
                }
                if !zero {
                    self.note_approximation(at, Approximation::MemsetNonZero);
                }
            }
            _ => {
                self.havoc_through(std::slice::from_ref(&ptr));
                if self.cell_slots(&ptr.base).is_some() || crate::c::lower::memory::const_int(&ptr.base).is_none() {
                    self.note_approximation(at, Approximation::MemsetUnknownRange);
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
    pub(in crate::c) fn inline_assembly(&mut self, a: &'a Node<AsmStatement>) -> Result<()> {
        let crate::c::asm::Reading { outputs, inputs, jumps, calls, mut memory } = crate::c::asm::read(&a.node);
        if jumps {
            return Err(self.unsupported(a.span, "inline assembly with jumps"));
        }
        let at = self.span(a.span);
        self.note_approximation(at, Approximation::InlineAssembly);
        for op in inputs {
            self.effect_any(&op.node.variable_name)?;
        }
        for op in outputs {
            let e = &op.node.variable_name;
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
                        if let Some(crate::c::lower::Symbol::Ptr(p)) = self.lookup(&id.node.name).cloned() {
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
            self.links_lost();
            for (cell, t) in self.tracked_cells() {
                self.havoc(&cell, t);
            }
        }
        if calls && self.calls.external_calls == ExternalCalls::AnyReachableState {
            // The helper it calls is code outside the program.
            for (v, t) in self.external_state() {
                self.havoc(&v, t);
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
            other => Err(self.unsupported(s, format!("`{name}` returns a {}", crate::c::lower::memory::describe(&other)))),
        }
    }

    /// A pointer returned by a function without a definition: NULL, or a
    /// pointer into some block (one the program knows, or one it does not),
    /// at any offset.
    pub(in crate::c) fn external_pointer_call(&mut self, name: &str, c: &'a Node<CallExpression>, pointee: CType) -> Result<PtrVal> {
        let pointers = self.evaluate_arguments(&c.node.arguments)?;
        let at = self.span(c.span);
        if self.external_effects(name, &pointers) {
            self.note_approximation(at, Approximation::ExternalCall { function: name.to_string(), returns_pointer: true, escaped: true });
        } else {
            self.note_approximation(at, Approximation::ExternalCall { function: name.to_string(), returns_pointer: true, escaped: false });
        }
        Ok(self.unknown_pointer(pointee))
    }

    /// Any pointer value (NULL or into any block, any offset).
    pub(in crate::c) fn unknown_pointer(&mut self, pointee: CType) -> PtrVal {
        let [base, off, size] = self.chosen_pointer_parts();
        // A block is never larger than the address space, nor negative.
        self.emit_assume(Term::and(vec![Term::le(Term::int(0), base.clone()), Term::le(Term::int(0), size.clone())]));
        self.links_existing_block(&base);
        PtrVal { base, off, size, pointee }
    }

    /// A base, offset and size, each chosen freely (no assumption on them).
    pub(in crate::c) fn chosen_pointer_parts(&mut self) -> [Term; 3] {
        ["ext.base", "ext.off", "ext.size"].map(|n| {
            let v = self.cfg.temp(n, IntType::LONG);
            self.emit(crate::ir::Action::Choose(v.clone()));
            Term::var(v)
        })
    }

    /// Whether a call to a printf-family function may write through a
    /// pointer argument: its format (after adjacent literals are joined and
    /// escapes decoded) has a `%n` conversion, or is not a string literal.
    fn format_writes(&self, name: &str, c: &'a Node<CallExpression>) -> bool {
        let Some(position) = printf_format_position(name) else { return false };
        match c.node.arguments.get(position).map(|a| &a.node) {
            Some(Expression::StringLiteral(s)) => match crate::c::types::string_literal_values(&s.node, self.arith.machine()) {
                Ok(units) => has_n_conversion(&units),
                Err(_) => true,
            },
            _ => true,
        }
    }
}

/// Whether a printf format (its code units, escapes decoded) has a `%n`
/// conversion, in any of glibc's forms: `%n`, with flags, width and
/// precision (`%-08.3n`, `%*n`), an argument position (`%1$n`, `%*2$n`)
/// or a length modifier (`%hhn`, `%hn`, `%ln`, `%lln`, `%jn`, `%zn`,
/// `%tn`, `%Ln`, `%qn`).
fn has_n_conversion(format: &[u32]) -> bool {
    let chars: Vec<char> = format.iter().map(|&u| char::from_u32(u).unwrap_or('\u{fffd}')).collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            i += 1;
            continue;
        }
        i += 1;
        if chars.get(i) == Some(&'%') {
            i += 1;
            continue;
        }
        // Argument position, flags, width and precision (each a number, `*`
        // or `*N$`), length modifier: all of it before the conversion letter.
        while i < chars.len() && (chars[i].is_ascii_digit() || "$-+ #0'I*.hlLqjzZt".contains(chars[i])) {
            i += 1;
        }
        if chars.get(i) == Some(&'n') {
            return true;
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    fn writes(pieces: &[&str]) -> bool {
        let pieces: Vec<String> = pieces.iter().map(|p| p.to_string()).collect();
        super::has_n_conversion(&crate::c::types::string_literal_values(&pieces, &crate::ir::MachineModel::lp64()).expect("a literal"))
    }

    #[test]
    fn n_conversions_are_found() {
        assert!(writes(&["\"%d%n\""]));
        assert!(writes(&["\"%-08lln\""]));
        assert!(writes(&["\"%1$n\""]));
        assert!(writes(&["\"%2$hhn\""]));
        assert!(writes(&["\"%*3$.*2$hn\""]));
        assert!(writes(&["\"%jn%zn%tn\""]));
        assert!(writes(&["\"ab%\"", "\"n\""]));
        assert!(writes(&["\"ab\\045n\""]), "an octal escape of '%'");
        assert!(!writes(&["\"%d\\n\""]));
        assert!(!writes(&["\"100%%n\""]));
        assert!(!writes(&["\"%%\"", "\"n\""]));
        assert!(!writes(&["\"%s %d %ld\""]));
    }

}
