//! C types as Tessera models them, and the values and types of integer,
//! character and string literals (sizes, promotions and conversions are
//! the [`MachineModel`]'s).

use crate::ir::{IntType, MachineModel};
use lang_c::ast::{Integer, IntegerBase, IntegerSize};
use num_bigint::BigInt;
use num_traits::{Num, One, Zero};

/// The type of a C object or expression, as far as Tessera models it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CType {
    Void,
    Int(IntType),
    /// `float`, `double`, `long double` (and `_FloatN`), by their size in
    /// bytes ([`LONG_DOUBLE`] for `long double`, whatever the machine's
    /// size). Their values are abstracted (see `lower/floats.rs`).
    Float(u32),
    /// A pointer to the given type (see `lower/memory/` for the model).
    Ptr(Box<CType>),
    /// An array of a known or unknown (`int a[]`, variable-length) number
    /// of elements.
    Array(Box<CType>, Option<u64>),
    /// A struct or union, by its index in the lowerer's record table (so
    /// that a record can point to itself).
    Record(usize),
    /// A function type (what a function pointer points to).
    Function,
    /// A type Tessera does not model yet (complex numbers, `_Atomic`, ...);
    /// the text says which, for the error message when a value of it is used.
    Unsupported(String),
}

/// A struct or union: its members at their byte offsets (gcc's layout for
/// the data model), or `None` while it is only declared.
#[derive(Clone, Debug, Default)]
pub struct Record {
    pub tag: Option<String>,
    pub union: bool,
    pub fields: Option<Vec<Field>>,
    pub size: u64,
    pub align: u64,
}

#[derive(Clone, Debug)]
pub struct Field {
    /// `None` for an unnamed bit-field or an anonymous struct/union member
    /// (whose own members are reachable by name through it).
    pub name: Option<String>,
    pub offset: u64,
    pub ty: CType,
    /// `(first bit within the unit at offset, width)` of a bit-field.
    pub bits: Option<(u32, u32)>,
    /// Its alignment as placed (gcc's `DECL_ALIGN`, what `__alignof__` of
    /// the member gives): 1 when packed, raised by `aligned`.
    pub align: u64,
}

impl CType {
    pub fn int(&self) -> Option<IntType> {
        match self {
            CType::Int(t) => Some(*t),
            _ => None,
        }
    }

    /// The type a value of this type has in an expression: arrays decay to
    /// pointers to their first element, functions to function pointers.
    pub fn decay(self) -> CType {
        match self {
            CType::Array(e, _) => CType::Ptr(e),
            CType::Function => CType::Ptr(Box::new(CType::Function)),
            t => t,
        }
    }
}

/// The tag of `long double` in [`CType::Float`]; its size and alignment
/// are the machine's ([`MachineModel::long_double_layout`]).
pub const LONG_DOUBLE: u32 = 16;

/// `sizeof` of an integer type (the machine model's, see [`MachineModel`]).
pub use crate::ir::machine::size_of;

/// Value and type of an integer literal (C11 6.4.4.1; the type is the
/// machine's, [`MachineModel::literal_type`]).
pub fn integer_literal(lit: &Integer, machine: &MachineModel) -> Result<(BigInt, IntType), String> {
    if lit.suffix.imaginary {
        return Err("imaginary integer literal".into());
    }
    let radix = match lit.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits: String = lit.number.chars().filter(|c| *c != '\'').collect();
    let value = if digits.is_empty() {
        BigInt::zero()
    } else {
        BigInt::from_str_radix(&digits, radix).map_err(|_| format!("malformed integer literal `{}`", lit.number))?
    };
    let decimal = matches!(lit.base, IntegerBase::Decimal);
    let longs = match lit.suffix.size {
        IntegerSize::Int => 0,
        IntegerSize::Long => 1,
        IntegerSize::LongLong => 2,
    };
    match machine.literal_type(&value, lit.suffix.unsigned, longs, decimal) {
        Some(t) => Ok((value, t)),
        None => Err(format!("integer literal `{}` does not fit in 64 bits", lit.number)),
    }
}

/// Value and type of a character constant such as `'a'`, `'\n'`, `L'x'`.
pub fn char_literal(text: &str, machine: &MachineModel) -> Result<(BigInt, IntType), String> {
    let (prefix, rest) = match text.chars().next() {
        Some(c @ ('L' | 'u' | 'U')) => (Some(c), &text[1..]),
        _ => (None, text),
    };
    let body = rest
        .strip_prefix('\'')
        .and_then(|r| r.strip_suffix('\''))
        .ok_or_else(|| format!("malformed character constant {text}"))?;
    let mut units: Vec<u32> = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            if prefix.is_none() {
                let mut buf = [0u8; 4];
                units.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            } else {
                units.push(c as u32);
            }
            continue;
        }
        let universal = matches!(chars.peek(), Some('u' | 'U'));
        let v = read_escape(&mut chars).map_err(|m| format!("{m} in character constant {text}"))?;
        match char::from_u32(v) {
            // gcc encodes a universal character name in a plain constant
            // as UTF-8, like the character itself.
            Some(c) if universal && prefix.is_none() => {
                let mut buf = [0u8; 4];
                units.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            }
            _ => units.push(v),
        }
    }
    if units.len() > 1 && prefix.is_none() && units.iter().all(|&u| u <= 255) {
        // gcc's value of a multi-character constant ('ab'): the bytes
        // shifted in one at a time, the last four kept, read as an `int`.
        let v = units.iter().fold(0u32, |acc, &u| acc.wrapping_shl(8) | u);
        return Ok((BigInt::from(v as i32), machine.int()));
    }
    if units.len() != 1 {
        return Err(format!("multi-character constant {text} (implementation-defined value)"));
    }
    let v = units[0];
    match prefix {
        None => {
            if v > 255 {
                return Err(format!("character constant {text} out of range"));
            }
            // Plain `char` is signed on x86 and i386: '\xff' is -1.
            let signed = if v >= 128 && machine.char_signed { i64::from(v) - 256 } else { i64::from(v) };
            Ok((BigInt::from(signed), machine.int()))
        }
        Some(p) => {
            let t = wide_character_type(p, machine);
            Ok((wrapped(v, t), t))
        }
    }
}

/// The type of a character of a literal with prefix `L`, `u` or `U`.
fn wide_character_type(prefix: char, machine: &MachineModel) -> IntType {
    match prefix {
        'u' => machine.char16_t(),
        'U' => machine.char32_t(),
        _ => machine.wchar_t(),
    }
}

/// The value of type `t` whose bits are the low bits of `v`.
fn wrapped(v: u32, t: IntType) -> BigInt {
    let modulus = pow2(t.bits());
    let x = BigInt::from(v) % &modulus;
    if x > t.max() {
        x - modulus
    } else {
        x
    }
}

/// `2^k`.
pub fn pow2(k: u32) -> BigInt {
    BigInt::one() << k
}

/// `Some(k)` when `c = 2^k - 1` with `k >= 1`.
pub fn low_mask_bits(c: &BigInt) -> Option<u32> {
    if c <= &BigInt::zero() {
        return None;
    }
    let next = c + 1u32;
    let bits = next.bits();
    if bits >= 1 && pow2((bits - 1) as u32) == next {
        Some((bits - 1) as u32)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn string_literals_are_arrays_of_their_units() {
        let sl = |parts: &[&str]| string_literal(&parts.iter().map(|p| p.to_string()).collect::<Vec<_>>(), &MachineModel::lp64());
        assert_eq!(sl(&["\"abc\""]), Ok((IntType::CHAR, 3)));
        assert_eq!(sl(&["\"a\\n\\x41\\101\""]), Ok((IntType::CHAR, 4)));
        assert_eq!(sl(&["\"\\u00e9\""]), Ok((IntType::CHAR, 2)));
        assert_eq!(sl(&["L\"ab\""]), Ok((IntType::INT, 2)));
        assert_eq!(sl(&["u\"\\U0001F600\""]), Ok((IntType::USHORT, 2)));
        assert_eq!(sl(&["\"ab\"", "\"c\""]), Ok((IntType::CHAR, 3)));
    }

    use super::*;
    use lang_c::ast::IntegerSuffix;

    fn lit(base: IntegerBase, n: &str, unsigned: bool, size: IntegerSize) -> Integer {
        Integer { base, number: n.into(), suffix: IntegerSuffix { size, unsigned, imaginary: false } }
    }

    #[test]
    fn literal_types_follow_c11() {
        let t = |l: Integer| integer_literal(&l, &MachineModel::lp64()).map(|(_, t)| t);
        assert_eq!(t(lit(IntegerBase::Decimal, "2147483647", false, IntegerSize::Int)), Ok(IntType::INT));
        assert_eq!(t(lit(IntegerBase::Decimal, "2147483648", false, IntegerSize::Int)), Ok(IntType::LONG));
        assert_eq!(t(lit(IntegerBase::Hexadecimal, "FFFFFFFF", false, IntegerSize::Int)), Ok(IntType::UINT));
        assert_eq!(t(lit(IntegerBase::Decimal, "1", true, IntegerSize::Long)), Ok(IntType::ULONG));
        assert!(t(lit(IntegerBase::Decimal, "99999999999999999999999", false, IntegerSize::Int)).is_err());
    }

    #[test]
    fn character_constants() {
        assert_eq!(char_literal("'a'", &MachineModel::lp64()), Ok((BigInt::from(97), IntType::INT)));
        assert_eq!(char_literal("'\\n'", &MachineModel::lp64()), Ok((BigInt::from(10), IntType::INT)));
        assert_eq!(char_literal("'\\xff'", &MachineModel::lp64()), Ok((BigInt::from(-1), IntType::INT)));
        assert_eq!(char_literal("'\\0'", &MachineModel::lp64()), Ok((BigInt::from(0), IntType::INT)));
        // Wide constants: the machine's wchar_t, char16_t and char32_t,
        // their values wrapped to the type.
        for m in [MachineModel::lp64(), MachineModel::ilp32()] {
            assert_eq!(char_literal("L'\\xffffffff'", &m), Ok((BigInt::from(-1), IntType::INT)));
            assert_eq!(char_literal("u'\\xffff'", &m), Ok((BigInt::from(0xffff), IntType::USHORT)));
            assert_eq!(char_literal("U'\\xffffffff'", &m), Ok((BigInt::from(0xffff_ffffu32), IntType::UINT)));
        }
        // gcc's values of multi-character constants and UCNs (UTF-8 bytes).
        assert_eq!(char_literal("'ab'", &MachineModel::lp64()), Ok((BigInt::from(0x6162), IntType::INT)));
        assert_eq!(char_literal("'abcde'", &MachineModel::lp64()), Ok((BigInt::from(0x62636465), IntType::INT)));
        assert_eq!(char_literal("'\\u00e9'", &MachineModel::lp64()), Ok((BigInt::from(0xc3a9), IntType::INT)));
        assert_eq!(char_literal("L'\\u00e9'", &MachineModel::lp64()), Ok((BigInt::from(0xe9), IntType::INT)));
        assert!(char_literal("L'ab'", &MachineModel::lp64()).is_err());
    }

    #[test]
    fn conversions() {
        assert_eq!(MachineModel::lp64().usual(IntType::INT, IntType::UINT), IntType::UINT);
        assert_eq!(MachineModel::lp64().usual(IntType::LONG, IntType::UINT), IntType::LONG);
        assert_eq!(MachineModel::lp64().usual(IntType::CHAR, IntType::USHORT), IntType::INT);
        assert_eq!(MachineModel::lp64().usual(IntType::ULONG, IntType::LONG), IntType::ULONG);
        assert_eq!(low_mask_bits(&BigInt::from(255)), Some(8));
        assert_eq!(low_mask_bits(&BigInt::from(1)), Some(1));
        assert_eq!(low_mask_bits(&BigInt::from(6)), None);
    }
}

/// The element type and character count (without the terminator) of a
/// string literal given as its adjacent pieces (`"ab" "c"`, `L"x"`):
/// `char` for plain and `u8` literals, `int` (wchar_t) for `L`, `unsigned
/// short` for `u`, `unsigned int` for `U`.
pub fn string_literal(pieces: &[String], machine: &MachineModel) -> Result<(IntType, usize), String> {
    let mut elem = machine.char();
    let mut count = 0usize;
    for piece in pieces {
        let quote = piece.find('"').ok_or_else(|| format!("malformed string literal {piece}"))?;
        let (prefix, quoted) = piece.split_at(quote);
        let body = quoted
            .strip_prefix('"')
            .and_then(|r| r.strip_suffix('"'))
            .ok_or_else(|| format!("malformed string literal {piece}"))?;
        let wide = match prefix {
            "" | "u8" => None,
            "L" => Some(machine.wchar_t()),
            "u" => Some(machine.char16_t()),
            "U" => Some(machine.char32_t()),
            other => return Err(format!("unknown string literal prefix `{other}`")),
        };
        if let Some(t) = wide {
            elem = t;
        }
        count += string_units(body, wide.map(size_of).unwrap_or(1))?;
    }
    Ok((elem, count))
}

/// How many code units of `unit` bytes the body of a literal encodes.
fn string_units(body: &str, unit: u32) -> Result<usize, String> {
    Ok(string_unit_values(body, unit)?.len())
}

/// The code units (bytes for `unit` 1) the body of a literal encodes.
fn string_unit_values(body: &str, unit: u32) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    let encode = |c: char, out: &mut Vec<u32>| match unit {
        1 => out.extend(c.to_string().bytes().map(u32::from)),
        2 => out.extend(c.encode_utf16(&mut [0u16; 2]).iter().map(|u| u32::from(*u))),
        _ => out.push(c as u32),
    };
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            encode(c, &mut out);
            continue;
        }
        let universal = chars.peek().is_some_and(|c| matches!(c, 'u' | 'U'));
        let v = read_escape(&mut chars)?;
        // A universal character name is a character, encoded in the
        // literal's units; every other escape is one unit.
        match char::from_u32(v).filter(|_| universal) {
            Some(c) => encode(c, &mut out),
            None => out.push(v),
        }
    }
    Ok(out)
}

/// The code units of a (possibly concatenated) string literal, without the
/// terminator, each the value of its unit read as unsigned.
pub fn string_literal_values(pieces: &[String], machine: &MachineModel) -> Result<Vec<u32>, String> {
    let (elem, _) = string_literal(pieces, machine)?;
    let unit = size_of(elem);
    let mut out = Vec::new();
    for piece in pieces {
        let quote = piece.find('"').ok_or_else(|| format!("malformed string literal {piece}"))?;
        let body = piece[quote..].strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or("");
        out.extend(string_unit_values(body, unit)?);
    }
    Ok(out)
}

/// The value of the escape sequence after a backslash (`n`, `x41`, `101`,
/// `u00e9`, ...), consuming it from `chars`.
fn read_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<u32, String> {
    let e = chars.next().ok_or("a backslash at the end")?;
    Ok(match e {
        'n' => 10,
        't' => 9,
        'r' => 13,
        'a' => 7,
        'b' => 8,
        'f' => 12,
        'v' => 11,
        'e' | 'E' => 27,
        '\\' | '\'' | '"' | '?' => e as u32,
        '0'..='7' => {
            let mut v = e.to_digit(8).unwrap_or(0);
            for _ in 0..2 {
                match chars.peek().and_then(|d| d.to_digit(8)) {
                    Some(d) => {
                        v = v * 8 + d;
                        chars.next();
                    }
                    None => break,
                }
            }
            v
        }
        'x' => {
            let mut v: u64 = 0;
            let mut any = false;
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(16)) {
                v = v.saturating_mul(16).saturating_add(u64::from(d));
                chars.next();
                any = true;
            }
            if !any {
                return Err("malformed escape".to_string());
            }
            u32::try_from(v).map_err(|_| "escape out of range".to_string())?
        }
        'u' | 'U' => {
            let n = if e == 'u' { 4 } else { 8 };
            let mut v: u32 = 0;
            for _ in 0..n {
                let d = chars
                    .next()
                    .and_then(|d| d.to_digit(16))
                    .ok_or_else(|| "malformed universal character name".to_string())?;
                v = v.wrapping_mul(16).wrapping_add(d);
            }
            v
        }
        other => other as u32,
    })
}
