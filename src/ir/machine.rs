//! The machine model: what the target machine decides about C's types.
//!
//! One [`MachineModel`] is made per run from the data model named on the
//! command line or in the task definition ([`MachineModel::of`]), kept in
//! [`Program`](super::Program), and read by every stage: the front end
//! (sizes, alignments, the types of `long`, of literals, of
//! `__VERIFIER_nondet_*`, the integer promotions and usual arithmetic
//! conversions, gcc's `-m32`/`-m64`), witnesses and reports (the data
//! model's name). After CPAchecker's `MachineModel`: nothing else in
//! Tessera decides a width, size or alignment of a C type.
//!
//! Two gcc targets are modelled: x86-64 Linux (LP64) and i386 Linux
//! (ILP32). Integer types are [`IntType`]s, which carry their width in
//! bits; `long long` has the same 64 bits as `long` under LP64, so the two
//! are one `IntType` there.

use super::IntType;
use num_bigint::BigInt;

/// The sizes of `long` and pointers (and so of `size_t`, `ptrdiff_t`): the
/// name of a [`MachineModel`], as a user or a task definition chooses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DataModel {
    /// `int`, `long` and pointers 32 bits (most SV-COMP tasks).
    Ilp32,
    /// `long` and pointers 64 bits (x86-64 Linux).
    #[default]
    Lp64,
}

impl DataModel {
    /// `ILP32` / `LP64` (SV-COMP's spelling) in any case.
    pub fn parse(word: &str) -> Option<DataModel> {
        match word.trim().to_ascii_uppercase().as_str() {
            "ILP32" => Some(DataModel::Ilp32),
            "LP64" => Some(DataModel::Lp64),
            _ => None,
        }
    }
    /// The value of `tessera prove --data-model`.
    pub fn flag_value(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ilp32",
            DataModel::Lp64 => "lp64",
        }
    }
    /// SV-COMP's name (task definitions, YAML witnesses).
    pub fn yaml(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }
    /// GraphML witnesses' architecture.
    pub fn graphml(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "32bit",
            DataModel::Lp64 => "64bit",
        }
    }
}

/// Sizes (in bytes) and alignments of C's scalar types, the signedness of
/// plain `char`, and gcc's flag for the target. Everything else (integer
/// types, ranges, promotions, literal types) is derived from these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MachineModel {
    pub data_model: DataModel,
    pub sizeof_bool: u32,
    pub sizeof_short: u32,
    pub sizeof_int: u32,
    pub sizeof_long: u32,
    pub sizeof_long_long: u32,
    pub sizeof_pointer: u32,
    pub sizeof_float: u32,
    pub sizeof_double: u32,
    pub sizeof_long_double: u32,
    /// Whether plain `char` is signed (it is on x86 and i386).
    pub char_signed: bool,
    /// The largest alignment of a scalar inside a struct: i386 aligns 8-byte
    /// scalars (`double`, `long long`) to 4 there.
    pub member_align_cap: u32,
    pub align_long_double: u32,
    /// gcc's `__BIGGEST_ALIGNMENT__` (without AVX): what a bare `aligned`
    /// attribute asks for.
    pub biggest_alignment: u64,
    /// gcc's option that selects the target (for the compiler check).
    pub gcc_flag: &'static str,
}

impl Default for MachineModel {
    fn default() -> MachineModel {
        MachineModel::lp64()
    }
}

impl MachineModel {
    /// x86-64 Linux.
    pub const fn lp64() -> MachineModel {
        MachineModel {
            data_model: DataModel::Lp64,
            sizeof_bool: 1,
            sizeof_short: 2,
            sizeof_int: 4,
            sizeof_long: 8,
            sizeof_long_long: 8,
            sizeof_pointer: 8,
            sizeof_float: 4,
            sizeof_double: 8,
            sizeof_long_double: 16,
            char_signed: true,
            member_align_cap: 16,
            align_long_double: 16,
            biggest_alignment: 16,
            gcc_flag: "-m64",
        }
    }

    /// i386 Linux.
    pub const fn ilp32() -> MachineModel {
        MachineModel {
            data_model: DataModel::Ilp32,
            sizeof_bool: 1,
            sizeof_short: 2,
            sizeof_int: 4,
            sizeof_long: 4,
            sizeof_long_long: 8,
            sizeof_pointer: 4,
            sizeof_float: 4,
            sizeof_double: 8,
            sizeof_long_double: 12,
            char_signed: true,
            member_align_cap: 4,
            align_long_double: 4,
            biggest_alignment: 16,
            gcc_flag: "-m32",
        }
    }

    /// The machine of a data model.
    pub const fn of(data_model: DataModel) -> MachineModel {
        match data_model {
            DataModel::Ilp32 => MachineModel::ilp32(),
            DataModel::Lp64 => MachineModel::lp64(),
        }
    }

    fn int_of(bytes: u32, signed: bool) -> IntType {
        IntType::Int { bits: 8 * bytes, signed }
    }

    /// Plain `char`.
    pub fn char(&self) -> IntType {
        MachineModel::int_of(1, self.char_signed)
    }
    pub fn short(&self, signed: bool) -> IntType {
        MachineModel::int_of(self.sizeof_short, signed)
    }
    pub fn int(&self) -> IntType {
        MachineModel::int_of(self.sizeof_int, true)
    }
    pub fn uint(&self) -> IntType {
        MachineModel::int_of(self.sizeof_int, false)
    }
    pub fn long(&self) -> IntType {
        MachineModel::int_of(self.sizeof_long, true)
    }
    pub fn ulong(&self) -> IntType {
        MachineModel::int_of(self.sizeof_long, false)
    }
    pub fn long_long(&self) -> IntType {
        MachineModel::int_of(self.sizeof_long_long, true)
    }
    pub fn ulong_long(&self) -> IntType {
        MachineModel::int_of(self.sizeof_long_long, false)
    }
    /// `size_t` (the type of `sizeof`).
    pub fn size_t(&self) -> IntType {
        self.ulong()
    }
    /// `ptrdiff_t` (the type of a difference of pointers).
    pub fn ptrdiff_t(&self) -> IntType {
        self.long()
    }
    /// `wchar_t`: the type of `L'x'` and the element of `L"..."` (`int` on
    /// both gcc Linux targets).
    pub fn wchar_t(&self) -> IntType {
        self.int()
    }
    /// `char16_t` (`uint_least16_t`): `u'x'`, the element of `u"..."`.
    pub fn char16_t(&self) -> IntType {
        self.short(false)
    }
    /// `char32_t` (`uint_least32_t`): `U'x'`, the element of `U"..."`.
    pub fn char32_t(&self) -> IntType {
        self.uint()
    }
    pub fn pointer_bytes(&self) -> u32 {
        self.sizeof_pointer
    }
    /// Where objects and functions may lie, as unsigned addresses: never
    /// in the first page (it is unmapped, so that null pointers trap) nor
    /// in the last (Linux's `IS_ERR` codes `(void *)-4095 .. (void *)-1`
    /// live there). Execution decides a comparison of such an address with a
    /// constant outside this range; any other address value stays unknown.
    pub fn object_addresses(&self) -> (u64, u64) {
        const PAGE: u64 = 4096;
        let top = if self.sizeof_pointer >= 8 { u64::MAX } else { (1u64 << (8 * self.sizeof_pointer)) - 1 };
        (PAGE, top - PAGE)
    }

    /// The integer type a combination of specifiers names: `char`, `short`
    /// (`short` > 0), `long` / `long long` (`long` = 1 / 2), else `int`.
    pub fn int_type(&self, chr: bool, short: bool, long: usize, signed: Option<bool>) -> IntType {
        let bytes = if chr {
            1
        } else if short {
            self.sizeof_short
        } else if long > 1 {
            self.sizeof_long_long
        } else if long > 0 {
            self.sizeof_long
        } else {
            self.sizeof_int
        };
        let signed = signed.unwrap_or(!chr || self.char_signed);
        MachineModel::int_of(bytes, signed)
    }

    /// Size and alignment of a scalar of `size` bytes as a struct member
    /// (`long double`: see [`MachineModel::long_double_layout`]).
    pub fn scalar_layout(&self, size: u64) -> (u64, u64) {
        (size, size.min(u64::from(self.member_align_cap)))
    }
    pub fn long_double_layout(&self) -> (u64, u64) {
        (u64::from(self.sizeof_long_double), u64::from(self.align_long_double))
    }

    /// Integer promotion: everything narrower than `int` becomes `int` (all
    /// of `_Bool`, `char`, `short` and their unsigned variants fit in `int`).
    pub fn promote(&self, t: IntType) -> IntType {
        match t {
            IntType::Bool => self.int(),
            IntType::Int { bits, .. } if bits < self.int().bits() => self.int(),
            t => t,
        }
    }

    /// The usual arithmetic conversions (C11 6.3.1.8): the rank of a type
    /// is its width (`long` and `long long` of the same width are one type).
    pub fn usual(&self, a: IntType, b: IntType) -> IntType {
        let (a, b) = (self.promote(a), self.promote(b));
        if a == b {
            return a;
        }
        if a.is_signed() == b.is_signed() {
            return if a.bits() >= b.bits() { a } else { b };
        }
        let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
        if u.bits() >= s.bits() {
            u
        } else {
            // The signed type is wider, so it represents every value of the
            // unsigned one (`long` vs `unsigned int`).
            s
        }
    }

    /// The type of an integer literal of `value` (C11 6.4.4.1): the first
    /// type of the list that holds it, given its suffix (`unsigned`, and
    /// `longs` = 0, 1 or 2 `l`s) and whether it is decimal. `long` is
    /// `int`-sized under ILP32, so `long long` may follow it. `None`: it
    /// fits in no type.
    pub fn literal_type(&self, value: &BigInt, unsigned: bool, longs: u8, decimal: bool) -> Option<IntType> {
        let (long, long_long) = (longs >= 1, longs >= 2);
        let mut candidates: Vec<IntType> = Vec::new();
        if unsigned {
            if !long {
                candidates.push(self.uint());
            }
            if !long_long {
                candidates.push(self.ulong());
            }
            candidates.push(self.ulong_long());
        } else {
            if !long {
                candidates.push(self.int());
                if !decimal {
                    candidates.push(self.uint());
                }
            }
            if !long_long {
                candidates.push(self.long());
                if !decimal {
                    candidates.push(self.ulong());
                }
            }
            candidates.push(self.long_long());
            if !decimal {
                candidates.push(self.ulong_long());
            }
        }
        // gcc accepts a decimal literal up to 2^64-1 as `unsigned long`
        // (with a warning); beyond that it is an __int128 or an error.
        candidates.push(self.ulong_long());
        candidates.into_iter().find(|&t| *value <= IntType::max(t))
    }

    /// The integer type of `__VERIFIER_nondet_X` by SV-COMP's naming.
    pub fn nondet_type(&self, suffix: &str) -> Option<IntType> {
        Some(match suffix {
            "bool" | "_Bool" => IntType::Bool,
            "char" | "schar" => MachineModel::int_of(1, true),
            "uchar" | "unsigned_char" | "u8" => MachineModel::int_of(1, false),
            "short" | "sshort" => self.short(true),
            "ushort" | "unsigned_short" | "u16" => self.short(false),
            "int" | "s32" => self.int(),
            "uint" | "unsigned" | "unsigned_int" | "u32" => self.uint(),
            "long" | "ssize_t" => self.long(),
            "longlong" | "long_long" | "loff_t" | "s64" => self.long_long(),
            "ulong" | "unsigned_long" | "size_t" => self.ulong(),
            "ulonglong" | "unsigned_long_long" | "u64" | "sector_t" => self.ulong_long(),
            _ => return None,
        })
    }

    /// `sizeof` of an integer type: its width in bytes (`_Bool`: one byte).
    pub fn size_of(&self, t: IntType) -> u32 {
        size_of(t)
    }
}

/// `sizeof` of an integer type, for code that has no [`MachineModel`] at
/// hand: an [`IntType`] carries its width, and `_Bool` takes one byte on
/// every machine modelled ([`MachineModel::sizeof_bool`]).
pub fn size_of(t: IntType) -> u32 {
    match t {
        IntType::Bool => MachineModel::lp64().sizeof_bool,
        IntType::Int { bits, .. } => bits / 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_machines() {
        let (l, i) = (MachineModel::lp64(), MachineModel::ilp32());
        assert_eq!((l.long(), i.long()), (IntType::LONG, IntType::INT));
        assert_eq!((l.long_long(), i.long_long()), (IntType::LONG, IntType::LONG));
        assert_eq!((l.pointer_bytes(), i.pointer_bytes()), (8, 4));
        assert_eq!((l.scalar_layout(8), i.scalar_layout(8)), ((8, 8), (8, 4)));
        assert_eq!((l.long_double_layout(), i.long_double_layout()), ((16, 16), (12, 4)));
        assert_eq!(l.char(), IntType::CHAR);
        assert_eq!(l.usual(IntType::LONG, IntType::UINT), IntType::LONG);
        assert_eq!(i.usual(i.long(), IntType::UINT), IntType::UINT);
        assert_eq!(i.literal_type(&BigInt::from(2147483648u64), false, 0, true), Some(IntType::LONG));
        assert_eq!(i.nondet_type("ulong"), Some(IntType::UINT));
        assert_eq!(MachineModel::of(DataModel::Ilp32).gcc_flag, "-m32");
    }
}
