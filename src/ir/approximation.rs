//! What the front end abstracts: each place where the model
//! over-approximates the C program is an [`Approximation`] with its span
//! (see `Program::approximations`). The kind decides whether NO stays
//! possible ([`Approximation::forbids_no`]); `Display` gives the message.

use super::IntType;
use std::fmt;

/// One kind of approximation, with the data that differs between places
/// (the function called, the type loaded). Equal values at the same span
/// are recorded once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Approximation {
    // ------------------------------------------------ forbid NO
    /// Operands evaluated in every order: a compiler picks one.
    EvaluationOrder,
    /// A call summarized instead of inlined (no loops, too large).
    SummarizedCall { function: String },

    // ------------------------------------------------ unknown values only
    /// A recursive call that returns with an arbitrary result and effects
    /// (the path where it descends into the callee is exact; the return is
    /// blocked for NO, see `c/lower/calls/recursion.rs`).
    RecursiveCall { function: String },
    /// A call of a function already running, through a pointer: the model
    /// stays in the call forever (behind an unknown value).
    RecursionThroughPointer { function: String },
    /// A library call that may never return (`exec*`, `system`, `pause`,
    /// see `c::meaning::may_never_return`): the model may stay in it for
    /// ever (behind an unknown value).
    MayNeverReturn { function: String },
    /// In-bounds accesses assumed: recorded once per program.
    MemorySafety,
    /// A load the memory model cannot answer.
    Load { ty: IntType },
    /// A store of `ty` over memory of another type.
    StoreOverOtherType { ty: IntType },
    /// A store of `ty` into memory holding several types.
    StoreIntoMixedTypes { ty: IntType },
    /// A struct value from a call or an unmodelled object.
    StructValue,
    /// A struct copy too large to track.
    LargeStructCopy,
    /// Pointer, floating-point and bit-field members of a copied struct.
    UntrackedMembers,
    /// A floating-point value.
    FloatingPoint,
    /// A floating-point value or a bit-field.
    FloatingPointOrBitField,
    /// An integer converted to a pointer.
    IntegerToPointer,
    /// A pointer converted to an integer.
    PointerToInteger,
    /// `va_arg`.
    VaArg,
    /// The address of an object whose contents are not modelled.
    AddressOfUnmodelled,
    /// A load of a pointer stored in memory.
    PointerInMemory,
    /// A pointer stored over integer memory.
    PointerOverIntegers,
    /// A store over part of a tracked pointer, or over it with another type.
    StoreOverPointer,
    /// `memset` with a byte other than zero.
    MemsetNonZero,
    /// `memset` of a range the model does not know.
    MemsetUnknownRange,
    /// Inline assembly.
    InlineAssembly,
    /// A bitwise operation without an exact linear encoding (`why`: the
    /// arithmetic's reason), bounded instead.
    Bitwise { why: String },
    /// A builtin the compiler answers (`__builtin_constant_p`, ...):
    /// `gives` says what it may give.
    CompilerChoice { builtin: String, gives: &'static str },
    /// An input function's conversion other than an integer one.
    InputConversion { function: String },
    /// The bytes an input function reads.
    InputBytes { function: String },
    /// The line an input function reads (and the buffer it reallocates).
    InputLine { function: String },
    /// A call to a function that only writes output.
    OutputCall { function: String },
    /// A call to a function without a definition: its result (a pointer
    /// when `returns_pointer`) and the memory it may reach (everything
    /// the program let out when `escaped`, else what its pointer
    /// arguments reach) are arbitrary.
    ExternalCall { function: String, returns_pointer: bool, escaped: bool },
}

impl Approximation {
    /// Whether the approximation is more than unknown values (`Choose`):
    /// then no NO is given for the program (see `Program::forbid_no`).
    pub fn forbids_no(&self) -> bool {
        matches!(self, Approximation::EvaluationOrder | Approximation::SummarizedCall { .. })
    }

    /// Whether one entry stands for the whole program, wherever it is
    /// noted (the memory-safety assumption).
    pub fn once_per_program(&self) -> bool {
        matches!(self, Approximation::MemorySafety)
    }
}

impl fmt::Display for Approximation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Approximation::*;
        match self {
            EvaluationOrder => write!(f, "operands evaluated in every order (C leaves the order unspecified)"),
            SummarizedCall { function } => write!(
                f,
                "call to `{function}` summarized (no loops, too large to inline): its result and what it may modify are arbitrary"
            ),
            RecursiveCall { function } => {
                write!(f, "recursive call to `{function}`: when it returns, its result and what it may modify are arbitrary values (no NO rests on a return)")
            }
            RecursionThroughPointer { function } => write!(
                f,
                "call to `{function}` while it runs (recursion through a function pointer): the call may not return, and no NO rests on it"
            ),
            MayNeverReturn { function } => write!(f, "call to `{function}` may never return (it runs other code or waits for a signal): no YES past it, no NO rests on it"),
            MemorySafety => write!(f, "assumes memory safety: every access in bounds"),
            Load { ty } => write!(f, "a load from memory gives any value of type {ty}"),
            StoreOverOtherType { ty } => write!(f, "a store of type {ty} over memory of another type makes it unknown"),
            StoreIntoMixedTypes { ty } => write!(f, "a store of type {ty} into memory holding other types may make it unknown"),
            StructValue => write!(f, "a struct value from a call or an unmodelled object is any value"),
            LargeStructCopy => write!(f, "a copy of a large struct makes the copy unknown"),
            UntrackedMembers => write!(f, "pointer, floating-point and bit-field members of a copied struct are not tracked"),
            FloatingPoint => write!(f, "floating-point values are not modelled: any value"),
            FloatingPointOrBitField => write!(f, "floating-point values and bit-fields are not modelled: any value"),
            IntegerToPointer => write!(f, "an integer converted to a pointer is any pointer"),
            PointerToInteger => write!(f, "a pointer converted to an integer is any value"),
            VaArg => write!(f, "`va_arg` gives any value"),
            AddressOfUnmodelled => write!(f, "the address of an object whose contents are not modelled is any pointer"),
            PointerInMemory => write!(f, "pointers stored in memory are not tracked: a load gives any pointer"),
            PointerOverIntegers => write!(f, "a pointer stored over integer memory makes it unknown"),
            StoreOverPointer => write!(f, "a store over part of a stored pointer, or of another type, makes the pointer unknown"),
            MemsetNonZero => write!(f, "`memset` with a non-zero byte makes the cells unknown"),
            MemsetUnknownRange => write!(f, "`memset` of an unknown range makes the memory unknown"),
            InlineAssembly => write!(f, "inline assembly: its outputs and the memory it may write are arbitrary"),
            Bitwise { why } => write!(f, "{why}: bounded, not computed"),
            CompilerChoice { builtin, gives } => write!(f, "`{builtin}` gives {gives}"),
            InputConversion { function } => write!(f, "`{function}`: what a conversion other than an integer one writes is unknown"),
            InputBytes { function } => write!(f, "`{function}`: the bytes it reads are unknown to the model"),
            InputLine { function } => {
                write!(f, "`{function}`: the line it reads and the buffer it reallocates are unknown to the model")
            }
            OutputCall { function } => write!(f, "call to `{function}`: output is not modelled, its result is any int"),
            ExternalCall { function, returns_pointer, escaped } => {
                let result = if *returns_pointer { "the pointer it returns" } else { "its result" };
                if *escaped {
                    write!(
                        f,
                        "call to `{function}` (no definition): {result}, the globals with external linkage and the memory whose address the program let out are arbitrary"
                    )
                } else {
                    write!(f, "call to `{function}` (no definition): {result} and the memory its pointer arguments reach are arbitrary")
                }
            }
        }
    }
}
