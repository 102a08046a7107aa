//! What C leaves undefined, unspecified or implementation-defined, and the
//! one choice Tessera makes for each: the table that lowering (the program
//! model, `c/lower`) and the interpreter (`c/exec`) both consult, so the two
//! semantics cannot disagree on these by construction.
//!
//! | question | C says | Tessera's choice | consulted by |
//! |---|---|---|---|
//! | signed `+ - * <<` leaves the range | undefined (6.5p5) | `--ints c`: the run ends; `machine`: wraps (gcc `-fwrapv`); `math`: exact | [`consequence`] from `Arith` |
//! | `x / 0`, `x % 0` | undefined (6.5.5p5) | the run ends (x86 traps) | [`consequence`] |
//! | `MIN / -1`, `MIN % -1` | undefined (6.5.5p6) | `c`: the run ends; `machine`: the run ends (x86's `idiv` traps, `-fwrapv` does not change it); `math`: exact | [`consequence`] |
//! | shift by a negative amount or by the width or more; negative `<<` | undefined (6.5.7) | the run ends (`-fwrapv` leaves it undefined) | [`consequence`] |
//! | a bit-field narrower than `int` in arithmetic | promoted to `int` (6.3.1.1p2) | as C says; a field wider than `int` but narrower than its type is refused (gcc computes in the field's width) | [`bit_field_promotion`], typing and lowering |
//! | addresses of two objects compared | unequal while both live, except one past the end of one against the start of another (6.5.9p6) | unequal only where C says so; one object's end against another's start, or an object against one whose lifetime ended (its storage may be reused), is unspecified: no answer rests on it | [`distinct_objects`]: interpreter (gives up), model (a choice that forbids NO) |
//! | identical string literals, or one the tail of another | may share storage (6.4.5p7; gcc merges them) | unspecified: either | [`literals_may_share`]: interpreter (gives up), model (a choice) |
//! | order of unsequenced operands | unspecified (6.5p3) | every order (model); the interpreter gives up where orders may differ | `lower/order.rs`, `exec` |
//! | a null pointer dereferenced | undefined (6.5.3.2p4) | the run ends (Linux traps: SIGSEGV); the interpreter counts such runs, the model assumes every access valid (`Approximation::MemorySafety`) | [`consequence`], `exec/memory.rs` |
//! | `malloc`/`calloc`/`realloc` fail | may return NULL (7.22.3) | [`Allocation`] (`--allocation`): may fail (default for C files), never fails (default for SV-COMP `.yml` tasks, SV-COMP's convention) | `lower/memory`, `exec/library.rs` |
//! | a function without a definition | anything | [`ExternalCalls`] (`--external-calls`): may change what C lets it reach (default), or only what its pointer arguments reach | `lower/calls` |
//! | inline assembly | not C | read as jump-free only when every instruction is on a known jump-free list; anything else may jump or loop: refused (model), given up (interpreter) | `c/asm.rs` |
//! | code run outside `main`'s control flow | constructors, destructors, loader sections, signal handlers, library hooks | refused (exit 4): its termination is part of the program's | [`outside_main`] from typing |
//! | library calls that may never return | `exec*`, `system`, `pause`, `sigsuspend`, ... | never assumed to return: the run may stay there for ever (the model forbids YES past it and never claims NO through it; the interpreter gives up) | [`may_never_return`] |

use crate::ir::{IntSemantics, Undefined};

// ------------------------------------------------------------ options

/// What a call to a function without a definition (and not a C library
/// function the model knows) may
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

/// Whether `malloc`, `calloc` and `realloc` may fail (return NULL): a
/// choice of meaning, made by the command line (`--allocation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum Allocation {
    /// As C says (7.22.3): any call may return NULL. A run in which one
    /// fails is a run of the program: a YES covers it, a NO may rest on
    /// it (and says which allocation fails).
    #[default]
    MayFail,
    /// Every allocation succeeds: the convention of SV-COMP's rules up to
    /// SV-COMP 2026 ("Definition of the programs": memory allocation never
    /// fails), which the labels of its tasks follow; what a compiled run
    /// of a small program does.
    NeverFails,
}

/// The choices of meaning besides the integers and the data model (which
/// [`crate::c::arith::Arith`] carries): what lowering and the interpreter
/// read the program under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Choices {
    pub external_calls: ExternalCalls,
    pub allocation: Allocation,
}

// ------------------------------------------------------------ integers

/// What happens to a run at an operation that C leaves undefined, under
/// one integer semantics (`--ints`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consequence {
    /// Undefined behaviour: no C execution goes on, the run ends there.
    RunEnds,
    /// The machine the mode describes traps (SIGFPE): the run ends.
    Traps,
    /// The result wraps to its type's range.
    Wraps,
    /// Computed exactly (mathematical integers).
    Exact,
}

impl Consequence {
    /// Whether a run that reaches the operation with these operands ends.
    pub fn ends_run(self) -> bool {
        matches!(self, Consequence::RunEnds | Consequence::Traps)
    }
}

/// The consequence of the undefined operation `kind` under `ints`.
pub fn consequence(kind: Undefined, ints: IntSemantics) -> Consequence {
    match (kind, ints) {
        (Undefined::SignedOverflow, IntSemantics::C) => Consequence::RunEnds,
        (Undefined::SignedOverflow, IntSemantics::Machine) => Consequence::Wraps,
        (Undefined::SignedOverflow, IntSemantics::Math) => Consequence::Exact,
        (Undefined::DivisionByZero, IntSemantics::Machine) => Consequence::Traps,
        (Undefined::DivisionByZero, _) => Consequence::RunEnds,
        (Undefined::DivisionOverflow, IntSemantics::C) => Consequence::RunEnds,
        (Undefined::DivisionOverflow, IntSemantics::Machine) => Consequence::Traps,
        (Undefined::DivisionOverflow, IntSemantics::Math) => Consequence::Exact,
        (Undefined::ShiftOutOfRange, _) => Consequence::RunEnds,
        (Undefined::NullDereference, IntSemantics::Machine) => Consequence::Traps,
        (Undefined::NullDereference, _) => Consequence::RunEnds,
    }
}

// ------------------------------------------------------------ bit-fields

/// The type a bit-field of `width` bits declared with `declared` has in
/// arithmetic (C11 6.3.1.1p2): `int` when `int` holds every value of the
/// field, else `unsigned int` when that does, else the declared type
/// when the field is as wide as it. `None`: a field wider than `int` and
/// narrower than its type, which gcc computes in the field's own width
/// (`unsigned long x : 40` wraps at 2^40), not modelled.
pub fn bit_field_promotion(declared: crate::ir::IntType, width: u32, machine: &crate::ir::MachineModel) -> Option<crate::ir::IntType> {
    let int = machine.int();
    let fits_int = if declared.is_signed() { width <= int.bits() } else { width < int.bits() };
    if fits_int {
        return Some(int);
    }
    if !declared.is_signed() && width <= int.bits() {
        return Some(machine.uint());
    }
    (width == declared.bits()).then_some(declared)
}

// ------------------------------------------------------------ addresses

/// What the comparison of two addresses needs to know of the object
/// each points into.
#[derive(Clone, Copy, Debug)]
pub struct ObjectAddress {
    /// The byte offset into the object.
    pub offset: i64,
    /// The object's size in bytes.
    pub size: i64,
    /// Whether the object's lifetime goes on (a freed block, a local of a
    /// scope or call that ended: not).
    pub alive: bool,
}

/// Whether two addresses compare equal (`==`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressEquality {
    Decided(bool),
    /// C leaves it open (or gcc's layout decides it): no answer may rest
    /// on one outcome.
    Unspecified(Unspecified),
}

/// Why the equality of two addresses is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unspecified {
    /// One object's lifetime ended: its storage may hold the other now
    /// (a freed block and the next allocation, a local in two calls).
    LifetimeEnded,
    /// One past the end of one object against the start of another
    /// (C11 6.5.9p6): equal exactly when the compiler placed them so.
    Adjacent,
    /// An address outside its object (`p + k` past one past the end):
    /// anywhere.
    OutOfBounds,
    /// Two string literals whose storage may be shared (C11 6.4.5p7).
    MergedLiterals,
}

impl Unspecified {
    pub fn describe(self) -> &'static str {
        match self {
            Unspecified::LifetimeEnded => "the address of an object whose lifetime ended compared with another's (its storage may be reused)",
            Unspecified::Adjacent => "one past the end of an object compared with the start of another (equal when they are adjacent)",
            Unspecified::OutOfBounds => "an address outside its object compared with another object's",
            Unspecified::MergedLiterals => "identical string literals compared by address (they may share storage)",
        }
    }
}

/// `p == q` for addresses into two *different* objects `p` and `q`.
pub fn distinct_objects(p: ObjectAddress, q: ObjectAddress) -> AddressEquality {
    if !p.alive || !q.alive {
        return AddressEquality::Unspecified(Unspecified::LifetimeEnded);
    }
    let inside = |a: ObjectAddress| 0 <= a.offset && a.offset <= a.size;
    if !inside(p) || !inside(q) {
        return AddressEquality::Unspecified(Unspecified::OutOfBounds);
    }
    let end_against_start = |a: ObjectAddress, b: ObjectAddress| a.offset == a.size && b.offset == 0;
    if end_against_start(p, q) || end_against_start(q, p) {
        return AddressEquality::Unspecified(Unspecified::Adjacent);
    }
    AddressEquality::Decided(false)
}

/// Whether two string literals (their code units, the terminating zero
/// included) may share storage: one is the other or its tail, which is
/// what a linker merging strings can make them (gcc merges identical
/// literals, and ld's string merging shares tails).
pub fn literals_may_share<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    a.ends_with(b) || b.ends_with(a)
}

// ------------------------------------------------------------ outside main

/// The sections whose function pointers the loader or the C runtime call
/// before or after `main` (the prefix of the section's name).
pub const LOADER_SECTIONS: &[&str] = &[".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors"];

/// Attributes that make a function run before or after `main`.
pub const RUNS_OUTSIDE_MAIN: &[&str] = &["constructor", "destructor", "__constructor__", "__destructor__"];

/// C library functions that may call a function of the program given to
/// them directly or inside what a pointer argument reaches (`struct
/// sigaction`'s handler), now or later (at exit, on a signal, in another
/// thread).
pub const CALLS_BACK: &[&str] = &[
    "signal", "sigaction", "sigvec", "bsd_signal", "sysv_signal", "sigset", "atexit", "on_exit", "at_quick_exit", "__cxa_atexit",
    "pthread_create", "pthread_once", "pthread_atfork", "pthread_key_create", "pthread_cleanup_push", "qsort", "qsort_r", "bsearch",
    "lfind", "lsearch", "tsearch", "tfind", "tdelete", "twalk", "twalk_r", "tdestroy", "ftw", "nftw", "scandir", "scandirat", "glob",
    "dl_iterate_phdr", "makecontext", "clone", "fopencookie", "register_printf_function", "register_printf_specifier",
    "thrd_create", "call_once", "tss_create", "timer_create", "aio_read", "aio_write", "lio_listio", "mtrace", "setjmp",
];

/// The C library's hooks: objects it defines whose function pointer it
/// calls (`error` calls `error_print_progname`).
pub const LIBRARY_HOOKS: &[&str] = &[
    "error_print_progname", "__malloc_hook", "__free_hook", "__realloc_hook", "__memalign_hook", "__after_morecore_hook",
    "__malloc_initialize_hook", "obstack_alloc_failed_handler", "rl_startup_hook", "rl_event_hook",
];

/// Library calls that may never return to the program: the `exec` family
/// replaces the program by another whose end is unknown, `system` runs a
/// command, `pause` and `sigsuspend` wait for a signal that may never
/// come. A run that makes one may stay there for ever.
pub const MAY_NEVER_RETURN: &[&str] = &[
    "execl", "execlp", "execle", "execv", "execvp", "execvpe", "execve", "fexecve", "execveat", "system", "pause", "sigsuspend",
    "sigwait", "sigwaitinfo", "pclose", "pthread_join", "thrd_join",
];

/// Whether a call of the library function `name` may never return.
pub fn may_never_return(name: &str) -> bool {
    MAY_NEVER_RETURN.contains(&name)
}

/// Whether the library function `name` may call program code it is given.
pub fn calls_back(name: &str) -> bool {
    CALLS_BACK.contains(&name)
}

/// Whether `section` (an attribute's argument, quotes removed) is one the
/// loader runs.
pub fn loader_section(section: &str) -> bool {
    LOADER_SECTIONS.iter().any(|s| section == *s || section.strip_prefix(s).is_some_and(|rest| rest.starts_with('.')))
}

/// The first construct of `unit` that makes code of the program run
/// outside `main`'s control flow, with what it is: a `constructor` or
/// `destructor` attribute on any declaration or definition, a function
/// pointer placed in a section the loader runs, a library hook set, or a
/// call of a library function that calls back (see [`CALLS_BACK`]) in a
/// program that takes a function's address. Such code's termination is
/// part of the program's, and neither semantics runs it: the program is
/// refused (exit 4) rather than answered for `main` alone.
pub fn outside_main(unit: &lang_c::ast::TranslationUnit) -> Option<(lang_c::span::Span, String)> {
    use lang_c::ast::*;
    use lang_c::span::Span;
    use lang_c::visit::{self, Visit};
    #[derive(Default)]
    struct Scan {
        found: Option<(Span, String)>,
        defined: std::collections::HashSet<String>,
        used_as_values: std::collections::HashSet<String>,
        callback_calls: Vec<(Span, String)>,
    }
    fn literal_text(e: &Expression) -> Option<String> {
        match e {
            Expression::StringLiteral(s) => Some(s.node.iter().map(|p| p.trim_matches('"').to_string()).collect()),
            _ => None,
        }
    }
    fn callee_name(c: &CallExpression) -> Option<&str> {
        match &c.callee.node {
            Expression::Identifier(id) => Some(&id.node.name),
            _ => None,
        }
    }
    impl<'ast> Visit<'ast> for Scan {
        fn visit_attribute(&mut self, a: &'ast Attribute, span: &'ast Span) {
            let name = a.name.node.trim_matches('_');
            if self.found.is_none() && RUNS_OUTSIDE_MAIN.iter().any(|r| r.trim_matches('_') == name) {
                self.found = Some((*span, format!("a function that runs before or after `main` (`{name}` attribute)")));
            }
            if self.found.is_none() && name == "section" {
                if let Some(section) = a.arguments.first().and_then(|e| literal_text(&e.node)) {
                    if loader_section(&section) {
                        self.found = Some((*span, format!("a function pointer in `{section}`, which the loader runs before or after `main`")));
                    }
                }
            }
            visit::visit_attribute(self, a, span);
        }
        fn visit_function_definition(&mut self, f: &'ast FunctionDefinition, span: &'ast Span) {
            if let DeclaratorKind::Identifier(id) = &f.declarator.node.kind.node {
                self.defined.insert(id.node.name.clone());
            }
            visit::visit_function_definition(self, f, span);
        }
        fn visit_binary_operator_expression(&mut self, b: &'ast BinaryOperatorExpression, span: &'ast Span) {
            if let (BinaryOperator::Assign, Expression::Identifier(id)) = (&b.operator.node, &b.lhs.node) {
                if self.found.is_none() && LIBRARY_HOOKS.contains(&id.node.name.as_str()) {
                    self.found = Some((*span, format!("`{}` set: the C library calls it", id.node.name)));
                }
            }
            visit::visit_binary_operator_expression(self, b, span);
        }
        fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
            if let Some(name) = callee_name(c).filter(|n| calls_back(n)) {
                self.callback_calls.push((*span, name.to_string()));
            }
            // The callee of a direct call is not a use of its address.
            match &c.callee.node {
                Expression::Identifier(_) => {}
                _ => self.visit_expression(&c.callee.node, &c.callee.span),
            }
            for a in &c.arguments {
                self.visit_expression(&a.node, &a.span);
            }
        }
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
            if let Expression::Identifier(id) = e {
                self.used_as_values.insert(id.node.name.clone());
            }
            visit::visit_expression(self, e, span);
        }
    }
    let mut scan = Scan::default();
    scan.visit_translation_unit(unit);
    if scan.found.is_some() {
        return scan.found;
    }
    let addressed: Vec<&String> = scan.defined.iter().filter(|f| scan.used_as_values.contains(*f)).collect();
    if !addressed.is_empty() {
        if let Some((span, name)) = scan.callback_calls.first() {
            return Some((*span, format!("`{name}` may call back a function of the program (the program takes a function's address)")));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IntType;

    #[test]
    fn division_overflow_ends_runs_unless_integers_are_mathematical() {
        assert!(consequence(Undefined::DivisionOverflow, IntSemantics::C).ends_run());
        assert!(consequence(Undefined::DivisionOverflow, IntSemantics::Machine).ends_run());
        assert!(!consequence(Undefined::DivisionOverflow, IntSemantics::Math).ends_run());
        assert!(!consequence(Undefined::SignedOverflow, IntSemantics::Machine).ends_run());
    }

    #[test]
    fn narrow_bit_fields_promote_to_int() {
        let m = crate::ir::MachineModel::of(crate::ir::DataModel::Lp64);
        assert_eq!(bit_field_promotion(IntType::UINT, 31, &m), Some(IntType::INT));
        assert_eq!(bit_field_promotion(IntType::UINT, 32, &m), Some(IntType::UINT));
        assert_eq!(bit_field_promotion(IntType::Bool, 1, &m), Some(IntType::INT));
        assert_eq!(bit_field_promotion(IntType::ULONG, 40, &m), None);
        assert_eq!(bit_field_promotion(IntType::LONG, 64, &m), Some(IntType::LONG));
    }

    #[test]
    fn only_what_c_decides_is_decided() {
        let at = |offset, alive| ObjectAddress { offset, size: 8, alive };
        assert_eq!(distinct_objects(at(0, true), at(4, true)), AddressEquality::Decided(false));
        assert_eq!(distinct_objects(at(8, true), at(0, true)), AddressEquality::Unspecified(Unspecified::Adjacent));
        assert_eq!(distinct_objects(at(0, false), at(0, true)), AddressEquality::Unspecified(Unspecified::LifetimeEnded));
        assert!(literals_may_share(b"ab\0", b"b\0"));
        assert!(!literals_may_share(b"ab\0", b"a\0"));
        assert!(loader_section(".init_array") && loader_section(".fini_array.00100") && !loader_section(".init_arrayx") && !loader_section(".init.text"));
    }
}
