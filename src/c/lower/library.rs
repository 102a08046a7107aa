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
/// streams) and whose result is an arbitrary `int`, unless their format
/// has a `%n` conversion, which writes through a pointer argument.
pub(super) const OUTPUT: &[&str] = &[
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

/// What a call to a function without a definition (and not a C library
/// function the model knows, see [`LIBRARY_THROUGH_ARGUMENTS`]) may
/// change. A choice of meaning, made by the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ExternalCalls {
    /// What C allows such code: any global with external linkage, and
    /// every object whose address the program let out (stored in a
    /// variable or memory, passed to any external code, converted to an
    /// integer), so everything reachable from such globals too.
    #[default]
    AnyReachableState,
    /// Only the memory its pointer arguments reach: the assumption under
    /// which SV-COMP's tasks call undefined helper functions.
    PointerArguments,
}

/// How a builtin treats its operands, for the builtins that do not evaluate
/// them all (GCC manual, "Other Built-in Functions"). Every other call,
/// builtin or not, evaluates each argument once. This is the one place
/// that decides it: lowering, typing and the effect analysis ask here.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum OperandEvaluation {
    /// No operand is evaluated; the value is decided at compile time.
    Unevaluated(CompileTimeQuery),
    /// `__builtin_choose_expr(c, a, b)`: `c` is an integer constant
    /// expression, and only the operand it chooses is evaluated; the call
    /// has that operand's value and type.
    Chosen,
}

/// What a builtin with unevaluated operands asks the compiler.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum CompileTimeQuery {
    /// `__builtin_constant_p(e)`: 1 for an integer constant expression;
    /// otherwise 0 or 1, as gcc's optimizer decides (0 at -O0, often 1
    /// at -O2 after constant propagation).
    ConstantP,
    /// `__builtin_object_size(p, type)`: a `size_t` that depends on what
    /// the optimizer knows about `p` (`(size_t)-1` or 0 when nothing).
    ObjectSize,
    /// `__builtin_classify_type(e)`: gcc's class of `e`'s type (1 for
    /// integers, enums, characters and booleans, 5 for pointers and
    /// arrays, 8 for floating types, 12 for structs, 13 for unions).
    ClassifyType,
}

pub(super) fn operand_evaluation(name: &str) -> Option<OperandEvaluation> {
    match name {
        "__builtin_constant_p" => Some(OperandEvaluation::Unevaluated(CompileTimeQuery::ConstantP)),
        "__builtin_object_size" => Some(OperandEvaluation::Unevaluated(CompileTimeQuery::ObjectSize)),
        "__builtin_classify_type" => Some(OperandEvaluation::Unevaluated(CompileTimeQuery::ClassifyType)),
        "__builtin_choose_expr" => Some(OperandEvaluation::Chosen),
        _ => None,
    }
}

/// Builtins whose treatment of side effects in their operands is not
/// modelled: `__builtin_dynamic_object_size` may or may not evaluate its
/// pointer operand. Refused rather than guessed.
pub(super) const UNMODELLED_BUILTINS: &[&str] = &["__builtin_dynamic_object_size"];


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

/// Whether a function without a definition leaves the program's memory
/// as it is: the builtins the lowerer gives a meaning of their own.
pub(super) fn keeps_memory(name: &str) -> bool {
    InputCall::of(name) == Some(InputCall::Character)
        || name.starts_with(NONDET_PREFIX)
        || PROGRAM_ENDS.contains(&name)
        || operand_evaluation(name).is_some()
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
            self.evaluate_argument(a, &mut pointers)?;
        }
        Ok(pointers)
    }

    /// The operand `__builtin_choose_expr(c, a, b)` chooses: `a` when the
    /// constant `c` is not zero, else `b`. Only that operand is evaluated.
    pub(super) fn chosen_operand(&mut self, c: &'a Node<CallExpression>) -> Result<&'a Node<Expression>> {
        let [cond, a, b] = c.node.arguments.as_slice() else {
            return Err(self.syntax(c.span, "`__builtin_choose_expr` takes three arguments"));
        };
        let v = self.constant(cond).map_err(|_| self.syntax(cond.span, "the first argument of `__builtin_choose_expr` must be an integer constant"))?;
        Ok(if v.constant().is_some_and(|k| k.sign() != num_bigint::Sign::NoSign) { a } else { b })
    }

    /// A builtin whose operands are not all evaluated (see
    /// [`operand_evaluation`]); `want`: whether its value is used.
    pub(super) fn builtin_with_unevaluated_operands(&mut self, how: OperandEvaluation, c: &'a Node<CallExpression>, want: bool) -> Result<Option<Val>> {
        let query = match how {
            OperandEvaluation::Chosen => {
                let e = self.chosen_operand(c)?;
                return if want { self.expr(e).map(Some) } else { self.effect_any(e).map(|_| None) };
            }
            OperandEvaluation::Unevaluated(q) => q,
        };
        if !want {
            return Ok(None);
        }
        let Some(operand) = c.node.arguments.first() else {
            return Err(self.syntax(c.span, "a builtin without its operand"));
        };
        let at = self.span(c.span);
        let (known, ty, choices) = match query {
            CompileTimeQuery::ConstantP => {
                // An integer constant expression is a constant at every
                // optimization level; anything else is gcc's choice.
                let constant = !self.has_effects(operand) && matches!(self.type_of(operand)?, CType::Int(_)) && self.constant(operand).is_ok();
                (constant.then_some(1), IntType::INT, "0 or 1, as gcc's optimizer decides")
            }
            CompileTimeQuery::ClassifyType => {
                let class = match self.type_of(operand)? {
                    CType::Int(_) => Some(1),
                    CType::Ptr(_) | CType::Array(..) | CType::Function => Some(5),
                    CType::Float(_) => Some(8),
                    _ => None,
                };
                (class, IntType::INT, "the class of a type the model does not classify")
            }
            CompileTimeQuery::ObjectSize => (None, self.arith.model.ulong(), "an object size, as gcc's optimizer decides"),
        };
        if let Some(k) = known {
            return Ok(Some(self.arith.int(k)));
        }
        self.note_unknown(at, format!("`{}` gives {choices}", self.source_text(c.node.callee.span)));
        let v = self.cfg.temp("builtin", ty);
        self.havoc(&v, ty);
        if query == CompileTimeQuery::ConstantP {
            let one = Term::le(Term::var(v.clone()), Term::int(1));
            let zero = Term::le(Term::int(0), Term::var(v.clone()));
            self.emit_assume(Term::and(vec![zero, one]));
        }
        Ok(Some(self.arith.var(&v, ty)))
    }

    /// One argument of [`Lowerer::evaluate_arguments`].
    fn evaluate_argument(&mut self, a: &'a Node<Expression>, pointers: &mut Vec<PtrVal>) -> Result<()> {
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
        } else {
            self.evaluate_arguments(&c.node.arguments)?
        };
        let at = self.span(c.span);
        if output_only {
            self.note_unknown(at, format!("call to `{name}`: output is not modelled, its result is any int"));
        } else if self.external_effects(name, &pointers) {
            self.note_unknown(
                at,
                format!("call to `{name}` (no definition): its result, the globals with external linkage and the memory whose address the program let out are arbitrary"),
            );
        } else {
            self.note_unknown(
                at,
                format!("call to `{name}` (no definition): its result and the memory its pointer arguments reach are arbitrary"),
            );
        }
        self.arbitrary_result(name, ret, want, c.span)
    }

    /// Whether a call of `name` (no definition in the program) is code that
    /// may change state it was not given: not a C library function the
    /// model knows, under [`ExternalCalls::AnyReachableState`].
    pub(super) fn external_may_write_globals(&self, name: &str) -> bool {
        self.external_calls == ExternalCalls::AnyReachableState
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
        let mut names: Vec<&String> = self.globals.keys().filter(|n| !self.globals_outside_code_cannot_change.contains(*n)).collect();
        names.sort();
        let symbols: Vec<super::Symbol> = names.into_iter().filter_map(|n| self.globals.get(n).cloned()).collect();
        let mut out: Vec<(String, IntType)> = Vec::new();
        for sym in symbols {
            match sym {
                super::Symbol::Var { name, ty } => out.push((name, ty)),
                super::Symbol::Ptr(p) => {
                    out.push((p.off.clone(), IntType::LONG));
                    if let Some((b, size)) = &p.whole {
                        out.push((b.clone(), IntType::LONG));
                        out.push((size.clone(), IntType::LONG));
                    }
                }
                super::Symbol::Object { ptr, .. } => {
                    if let Some(slots) = self.cell_slots(&ptr.base) {
                        out.extend(slots.into_iter().map(|s| (s.var, s.ty)));
                    }
                }
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

    /// A read from a stream whose result is an integer (see [`InputCall`]);
    /// `None` when the call is not of a form modelled exactly (a format that
    /// is no literal, `%n`, arguments that do not match), which the caller
    /// then treats as any function without a definition.
    fn input_call(&mut self, kind: InputCall, name: &str, c: &'a Node<CallExpression>, ret: IntType) -> Result<Option<Val>> {
        let args = &c.node.arguments;
        let at = self.span(c.span);
        let (least, most) = match kind {
            InputCall::Character => {
                self.stream_arguments(args)?;
                (Term::int(-1), Term::int(255))
            }
            InputCall::Formatted { format } => {
                let Some(Expression::StringLiteral(lit)) = args.get(format).map(|a| &a.node) else { return Ok(None) };
                let Ok(units) = crate::c::types::string_literal_values(&lit.node) else { return Ok(None) };
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
                    let p = self.pointer(t, None)?;
                    let p = self.snapshot_pointer(p);
                    self.expose(&p.base);
                    pointers.push(p);
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
                            self.note_unknown(at.clone(), format!("`{name}`: what a conversion other than an integer one writes is unknown"));
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
                        let p = self.pointer(a, None)?;
                        let p = self.snapshot_pointer(p);
                        self.expose(&p.base);
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
                self.note_unknown(at, format!("`{name}`: the bytes it reads are unknown to the model"));
                (Term::int(least), n.term)
            }
            InputCall::Line => {
                let pointers = self.evaluate_arguments(args)?;
                // The line and its capacity (`realloc`ed by the call).
                let stream = pointers.len().saturating_sub(1);
                self.havoc_through(&pointers[..stream]);
                self.note_unknown(at, format!("`{name}`: the line it reads and the buffer it reallocates are unknown to the model"));
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
        let p = self.pointer(buf, None)?;
        let p = self.snapshot_pointer(p);
        self.expose(&p.base);
        let n = self.expr(n)?;
        let n = self.snapshot(n);
        self.stream_arguments(std::slice::from_ref(stream))?;
        self.havoc_reachable(&p);
        self.note_unknown(at, "`fgets`: the bytes it reads are unknown to the model");
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
        if calls && self.external_calls == ExternalCalls::AnyReachableState {
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
            other => Err(self.unsupported(s, format!("`{name}` returns a {}", super::memory::describe(&other)))),
        }
    }

    /// A pointer returned by a function without a definition: NULL, or a
    /// pointer into some block (one the program knows, or one it does not),
    /// at any offset.
    pub(super) fn external_pointer_call(&mut self, name: &str, c: &'a Node<CallExpression>, pointee: CType) -> Result<PtrVal> {
        let pointers = self.evaluate_arguments(&c.node.arguments)?;
        let at = self.span(c.span);
        if self.external_effects(name, &pointers) {
            self.note_unknown(at, format!("call to `{name}` (no definition): the pointer it returns, the globals with external linkage and the memory whose address the program let out are arbitrary"));
        } else {
            self.note_unknown(at, format!("call to `{name}` (no definition): the pointer it returns and the memory its pointer arguments reach are arbitrary"));
        }
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

    /// Whether a call to a printf-family function may write through a
    /// pointer argument: its format (after adjacent literals are joined and
    /// escapes decoded) has a `%n` conversion, or is not a string literal.
    fn format_writes(&self, name: &str, c: &'a Node<CallExpression>) -> bool {
        let Some(position) = printf_format_position(name) else { return false };
        match c.node.arguments.get(position).map(|a| &a.node) {
            Some(Expression::StringLiteral(s)) => match crate::c::types::string_literal_values(&s.node) {
                Ok(units) => has_n_conversion(&units),
                Err(_) => true,
            },
            _ => true,
        }
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
        super::has_n_conversion(&crate::c::types::string_literal_values(&pieces).expect("a literal"))
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

    #[test]
    fn scanf_conversions_are_counted() {
        use super::{scanf_conversions, Conversion::*};
        assert_eq!(scanf_conversions("\"%d %ld\""), Some(vec![Integer, Integer]));
        assert_eq!(scanf_conversions("\"%*d %s 100%% %[^]a] %3c\""), Some(vec![Other, Other, Other]));
        assert_eq!(scanf_conversions("\"%d%n\""), None);
        assert_eq!(scanf_conversions("\"%\""), None);
    }
}
