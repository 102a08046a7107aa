//! The C library functions the interpreter runs exactly: allocation
//! (which may fail: both outcomes are runs), the memory and string
//! functions, output (no effect but its result, which is any value),
//! the ends of a run (`exit`, `abort`, failed assertions) and SV-COMP's
//! `__VERIFIER_nondet_*` (any value of the type) and `__VERIFIER_assume`,
//! and GCC's bit-counting builtins (`ctz`, `clz`, `popcount`, `parity`,
//! `ffs`, with their `l`/`ll` forms). Any other function without a body
//! gives up.

use super::interp::Interp;
use super::memory::Kind;
use super::value::{Byte, Ptr, Value};
use super::Stop;
use crate::c::lower::NONDET_PREFIX;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// The functions that end the run.
const ENDS: &[&str] = &["exit", "_exit", "_Exit", "abort", "__assert_fail", "__assert_rtn", "__assert", "reach_error", "__VERIFIER_error", "__builtin_trap", "__builtin_unreachable"];

fn size_arg(v: &Value) -> Result<u64, Stop> {
    match v {
        Value::Int(_, Some(c)) => c.to_u64().ok_or_else(|| Stop::give_up("a size out of range")),
        Value::Int(_, None) => Err(Stop::give_up("an allocation or copy of unknown size")),
        _ => Err(Stop::give_up("a size that is not an integer")),
    }
}

fn ptr_arg(v: &Value) -> Result<Ptr, Stop> {
    match v {
        Value::Ptr(Some(p)) => Ok(p.clone()),
        Value::Int(_, Some(c)) if c == &BigInt::from(0) => Ok(Ptr::Null),
        _ => Err(Stop::give_up("an unknown pointer passed to the library")),
    }
}

fn shift(p: &Ptr, by: u64) -> Ptr {
    match p {
        Ptr::At { block, offset } => Ptr::At { block: *block, offset: offset + by as i64 },
        other => other.clone(),
    }
}

impl<'s, 'a> Interp<'s, 'a> {
    pub(crate) fn library(&mut self, name: &str, call: &'a Node<CallExpression>, args: Vec<Value>) -> Result<Value, Stop> {
        let m = *self.ar.machine();
        let int = m.int();
        let base = name.strip_prefix("__builtin_").unwrap_or(name);
        let arg = |k: usize| args.get(k).ok_or_else(|| Stop::give_up(format!("`{name}` with too few arguments")));
        if ENDS.contains(&name) || ENDS.contains(&base) {
            return Err(Stop::Ended);
        }
        if let Some(t) = self.types.nondet_type(name) {
            let site = call as *const Node<CallExpression> as usize;
            self.read_input = true;
            if let Some(v) = self.input(site, call.span.start, t) {
                return Ok(v);
            }
            if let Some(v) = self.symbolic_input(site, t) {
                return Ok(v);
            }
            return Ok(Value::Int(t, None));
        }
        if name.starts_with(NONDET_PREFIX) {
            return Err(Stop::give_up(format!("`{name}`: a nondeterministic value of a type not modelled")));
        }
        let ptr_result = |p: Ptr| Value::Ptr(Some(p));
        Ok(match base {
            "__VERIFIER_assume" => {
                let v = arg(0)?.clone();
                if let Value::Symbolic(_) = v {
                    if !self.decide(&v)? {
                        return Err(Stop::Ended);
                    }
                } else if super::value::truth(&v)? == Some(false) {
                    return Err(Stop::Ended);
                }
                Value::Void
            }
            "malloc" | "calloc" => {
                let size = if base == "malloc" { size_arg(arg(0)?)? } else { size_arg(arg(0)?)?.checked_mul(size_arg(arg(1)?)?).ok_or_else(|| Stop::give_up("a huge calloc"))? };
                // The allocation may fail (see docs/design.md).
                if self.allocation_fails(call)? {
                    return Ok(ptr_result(Ptr::Null));
                }
                let fill = if base == "calloc" { Byte::Known(0) } else { Byte::Unknown };
                let b = self.mem.allocate(size, Kind::Heap, fill)?;
                ptr_result(Ptr::At { block: b, offset: 0 })
            }
            "alloca" | "alloca_with_align" => {
                let size = size_arg(arg(0)?)?;
                let b = self.mem.allocate(size, Kind::Stack, Byte::Unknown)?;
                if let Some(f) = self.frames.last_mut() {
                    f.allocas.push(b);
                }
                ptr_result(Ptr::At { block: b, offset: 0 })
            }
            "realloc" => {
                let p = ptr_arg(arg(0)?)?;
                let size = size_arg(arg(1)?)?;
                if size == 0 {
                    return Err(Stop::give_up("`realloc` to size 0"));
                }
                if p != Ptr::Null {
                    self.heap_start(&p)?;
                }
                if self.allocation_fails(call)? {
                    return Ok(ptr_result(Ptr::Null));
                }
                let b = self.mem.allocate(size, Kind::Heap, Byte::Unknown)?;
                if let Ptr::At { block, .. } = p {
                    let old = self.mem.blocks[block].bytes.clone();
                    let n = old.len().min(size as usize);
                    self.mem.write(&Ptr::At { block: b, offset: 0 }, old[..n].to_vec())?;
                    self.mem.kill(block);
                }
                ptr_result(Ptr::At { block: b, offset: 0 })
            }
            "free" => {
                let p = ptr_arg(arg(0)?)?;
                if let Ptr::At { block, .. } = p {
                    self.heap_start(&p)?;
                    self.mem.kill(block);
                }
                Value::Void
            }
            "memset" => {
                let p = ptr_arg(arg(0)?)?;
                let n = size_arg(arg(2)?)?;
                let byte = match arg(1)? {
                    Value::Int(_, Some(c)) => Byte::Known((c & BigInt::from(0xff)).to_u8().unwrap_or(0)),
                    Value::Int(_, None) | Value::Symbolic(_) => Byte::Unknown,
                    _ => return Err(Stop::give_up("`memset` of a non-integer")),
                };
                self.mem.write(&p, vec![byte; n as usize])?;
                arg(0)?.clone()
            }
            "memcpy" | "memmove" => {
                let (d, s) = (ptr_arg(arg(0)?)?, ptr_arg(arg(1)?)?);
                let n = size_arg(arg(2)?)?;
                if n > 0 {
                    let bytes = self.mem.read(&s, n)?;
                    self.mem.write(&d, bytes)?;
                }
                arg(0)?.clone()
            }
            "memcmp" => {
                let (a, b) = (ptr_arg(arg(0)?)?, ptr_arg(arg(1)?)?);
                let n = size_arg(arg(2)?)?;
                let (x, y) = if n > 0 { (self.mem.read(&a, n)?, self.mem.read(&b, n)?) } else { (vec![], vec![]) };
                compare_bytes(int, x.iter().zip(&y))?
            }
            "strlen" => {
                let p = ptr_arg(arg(0)?)?;
                Value::int(m.size_t(), self.string(&p)?.len())
            }
            "strcmp" | "strncmp" => {
                let (a, b) = (ptr_arg(arg(0)?)?, ptr_arg(arg(1)?)?);
                let limit = if base == "strncmp" { size_arg(arg(2)?)? as usize } else { usize::MAX };
                let (mut x, mut y) = (self.string(&a)?, self.string(&b)?);
                x.push(0);
                y.push(0);
                let n = limit.min(x.len()).min(y.len());
                let (x, y): (Vec<Byte>, Vec<Byte>) = (x[..n].iter().map(|b| Byte::Known(*b)).collect(), y[..n].iter().map(|b| Byte::Known(*b)).collect());
                compare_bytes(int, x.iter().zip(&y))?
            }
            "strcpy" => {
                let (d, s) = (ptr_arg(arg(0)?)?, ptr_arg(arg(1)?)?);
                let mut bytes = self.string(&s)?;
                bytes.push(0);
                self.mem.write(&d, bytes.into_iter().map(Byte::Known).collect())?;
                arg(0)?.clone()
            }
            "printf" | "puts" | "putchar" => {
                if base == "printf" {
                    // The format: a string literal (also through a
                    // variable), read as `printf` reads it.
                    let format = ptr_arg(arg(0)?)?;
                    let literal = matches!(&format, Ptr::At { block, .. } if self.mem.blocks[*block].kind == Kind::Literal);
                    if !literal {
                        return Err(Stop::give_up("`printf` with a format that is not a string literal"));
                    }
                    let f = self.string(&format)?;
                    if contains_n(&f) {
                        return Err(Stop::give_up("`printf` with `%n` (it writes memory)"));
                    }
                }
                // Its output is no concern; its result is any value.
                Value::Int(int, None)
            }
            _ => match bit_builtin(name, &m) {
                Some((op, width)) => bit_count(op, width, arg(0)?, int)?,
                None => return Err(Stop::give_up(format!("a call of `{name}`, which has no body here"))),
            },
        })
    }

    /// `p` must be the start of a live heap block (else a memory error).
    fn heap_start(&self, p: &Ptr) -> Result<(), Stop> {
        match p {
            Ptr::At { block, offset: 0 } if self.mem.blocks[*block].kind == Kind::Heap && self.mem.blocks[*block].alive => Ok(()),
            _ => Err(Stop::give_up("`free`/`realloc` of a pointer that is not a live allocation")),
        }
    }

    /// The bytes of the string at `p`, up to its NUL.
    fn string(&self, p: &Ptr) -> Result<Vec<u8>, Stop> {
        let mut out = Vec::new();
        loop {
            match self.mem.read(&shift(p, out.len() as u64), 1)?[0] {
                Byte::Known(0) => return Ok(out),
                Byte::Known(b) => out.push(b),
                _ => return Err(Stop::give_up("a string with an unknown byte")),
            }
            if out.len() > 1 << 20 {
                return Err(Stop::give_up("a string too long"));
            }
        }
    }
}

/// What GCC's bit-counting builtins count (and `ffs`, also a C library
/// function).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BitCount {
    TrailingZeros,
    LeadingZeros,
    Ones,
    Parity,
    FirstSet,
}

/// The bit-counting builtin `name` stands for, with the width of its
/// argument (`int` for the plain ones, `long` for `l`, `long long` for
/// `ll`): none for any other name (a program's own `popcount` without a
/// body is no builtin).
fn bit_builtin(name: &str, m: &crate::ir::MachineModel) -> Option<(BitCount, u32)> {
    let base = name.strip_prefix("__builtin_").or(if name.starts_with("ffs") { Some(name) } else { None })?;
    let (stem, width) = if let Some(s) = base.strip_suffix("ll") {
        (s, m.ulong_long().bits())
    } else if let Some(s) = base.strip_suffix('l') {
        (s, m.ulong().bits())
    } else {
        (base, m.uint().bits())
    };
    let op = match stem {
        "ctz" => BitCount::TrailingZeros,
        "clz" => BitCount::LeadingZeros,
        "popcount" => BitCount::Ones,
        "parity" => BitCount::Parity,
        "ffs" => BitCount::FirstSet,
        _ => return None,
    };
    Some((op, width))
}

/// The builtin's `int` result on `v` taken as a `width`-bit word (the
/// argument converted to the parameter's type). `ctz` and `clz` of 0 are
/// undefined and an unknown value may be 0: the run gives up; the others
/// of an unknown value are an unknown value.
fn bit_count(op: BitCount, width: u32, v: &Value, int: IntType) -> Result<Value, Stop> {
    let c = match v {
        Value::Int(_, Some(c)) => c,
        Value::Int(_, None) if !matches!(op, BitCount::TrailingZeros | BitCount::LeadingZeros) => return Ok(Value::Int(int, None)),
        _ => return Err(Stop::give_up("a bit-counting builtin of a value not known here")),
    };
    let modulus = BigInt::from(1) << width;
    let word = ((c % &modulus) + &modulus) % &modulus;
    let bits: Vec<bool> = (0..width).map(|i| word.bit(u64::from(i))).collect();
    let ones = bits.iter().filter(|&&b| b).count();
    let lowest = bits.iter().position(|&b| b);
    let highest = bits.iter().rposition(|&b| b);
    let n = match (op, lowest, highest) {
        (BitCount::TrailingZeros | BitCount::LeadingZeros, None, _) => return Err(Stop::give_up("`ctz` or `clz` of 0 (undefined)")),
        (BitCount::TrailingZeros, Some(l), _) => l,
        (BitCount::LeadingZeros, _, Some(h)) => width as usize - 1 - h,
        (BitCount::Ones, _, _) => ones,
        (BitCount::Parity, _, _) => ones % 2,
        (BitCount::FirstSet, l, _) => l.map_or(0, |l| l + 1),
        (BitCount::LeadingZeros, _, None) => return Err(Stop::give_up("`clz` of 0 (undefined)")),
    };
    Ok(Value::int(int, n))
}

/// Whether a format has a `%n` conversion (after flags, width, length).
fn contains_n(f: &[u8]) -> bool {
    let mut i = 0;
    while i < f.len() {
        if f[i] == b'%' {
            i += 1;
            while i < f.len() && !f[i].is_ascii_alphabetic() && f[i] != b'%' {
                i += 1;
            }
            while i < f.len() && b"hlLqjzt".contains(&f[i]) {
                i += 1;
            }
            if i < f.len() && f[i] == b'n' {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// `memcmp`'s result: the sign of the first differing byte (as unsigned
/// char); an unknown byte before any difference: any value.
fn compare_bytes<'b>(int: IntType, pairs: impl Iterator<Item = (&'b Byte, &'b Byte)>) -> Result<Value, Stop> {
    for (x, y) in pairs {
        match (x, y) {
            (Byte::Known(a), Byte::Known(b)) if a == b => {}
            (Byte::Known(a), Byte::Known(b)) => return Ok(Value::int(int, if a < b { -1 } else { 1 })),
            (Byte::Fragment(p, i), Byte::Fragment(q, j)) if p == q && i == j => {}
            (Byte::Fragment(..), _) | (_, Byte::Fragment(..)) => return Err(Stop::give_up("`memcmp` of stored pointers")),
            _ => return Ok(Value::Int(int, None)),
        }
    }
    Ok(Value::int(int, 0))
}
