//! The values of the interpreter ([`Value`]): integers of a C type, known
//! or unknown (any value of the type), pointers, and the bytes of a struct
//! or union. Integer operations go through [`Arith`] on constants, so that
//! widths, promotions, wraps and undefined behaviour mean what they mean
//! in lowering (docs/design.md, "Integer semantics").

use super::Stop;
use crate::c::arith::{Arith, ArithOp, CmpOp, Val};
use crate::ir::IntType;
use crate::term::{Term, Valuation, Value as TermValue};
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// Where a pointer points.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Ptr {
    Null,
    /// A byte offset into a block (see `memory.rs`).
    At { block: usize, offset: i64 },
    /// A function, by name.
    Function(String),
    /// A pointer made from an integer other than 0 (`(void *)-1`, a
    /// spinlock's owner in Linux's initializers), as an unsigned address:
    /// no object lies there in the model, so it is never dereferenced;
    /// it compares by its value with its kind and with null, and with an
    /// object's address only where the value lies outside
    /// `MachineModel::object_addresses`.
    Integer(u64),
}

/// A byte of memory: known, unknown (any value), or the `index`th byte of
/// a stored pointer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Byte {
    Known(u8),
    Unknown,
    Fragment(Ptr, u8),
    /// The `index`th byte of a stored symbolic integer (symbolic
    /// exploration, `symbolic.rs`).
    Symbolic(SymbolicInt, u8),
}

/// A symbolic integer as memory holds it: its value, shared by its
/// bytes, and how many bytes it was stored in.
#[derive(Clone, Debug)]
pub(crate) struct SymbolicInt(pub std::rc::Rc<Val>, pub u8);

impl PartialEq for SymbolicInt {
    fn eq(&self, o: &SymbolicInt) -> bool {
        self.1 == o.1 && (std::rc::Rc::ptr_eq(&self.0, &o.0) || *self.0 == *o.0)
    }
}

impl Eq for SymbolicInt {}

impl std::hash::Hash for SymbolicInt {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.term.hash(h);
        self.0.ty.hash(h);
        self.1.hash(h);
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    /// An integer of type `ty`: `Some` known, `None` any value of `ty`.
    Int(IntType, Option<BigInt>),
    /// A pointer; `None`: any pointer (never dereferenced).
    Ptr(Option<Ptr>),
    /// An integer known only as a term over the inputs (symbolic
    /// exploration, `symbolic.rs`): its term, type and range.
    Symbolic(Box<Val>),
    /// An integer of type `ty` (as wide as a pointer) whose value is the
    /// address of an object (`Ptr::At`) or a function: what CIL's
    /// `(unsigned long)p + 40` computes (a function's address is only
    /// compared). The address itself is unknown (the allocator chooses
    /// it), so only what holds for every address is computed: adding a
    /// constant, the difference of two in one object, equality, a
    /// conversion back to a pointer; anything else gives up.
    Address(IntType, Ptr),
    /// The bytes of a struct or union.
    Bytes(Vec<Byte>),
    /// The value of an expression of type `void`.
    Void,
}

impl Value {
    pub(crate) fn int(ty: IntType, v: impl Into<BigInt>) -> Value {
        Value::Int(ty, Some(v.into()))
    }
}

/// Whether an integer value is true (non-zero): `None` when unknown.
pub(crate) fn truth(v: &Value) -> Result<Option<bool>, Stop> {
    Ok(match v {
        Value::Int(_, Some(c)) => Some(!c.is_zero()),
        Value::Int(_, None) | Value::Ptr(None) => None,
        Value::Ptr(Some(p)) => Some(*p != Ptr::Null),
        // The address of an object is never 0.
        Value::Address(..) => Some(true),
        _ => return Err(Stop::give_up("a condition that is not a scalar")),
    })
}

fn val(a: &Arith, ty: IntType, c: &BigInt) -> Val {
    a.constant(c.clone(), ty)
}

/// A constant term's value (the arithmetic folds terms over constants).
fn term_int(t: &Term) -> Option<BigInt> {
    match t {
        Term::Int(c) => Some(c.clone()),
        _ => match t.eval(&Valuation::new()) {
            Some(TermValue::Int(c)) => Some(c),
            _ => None,
        },
    }
}

fn term_bool(t: &Term) -> Option<bool> {
    match t {
        Term::Bool(b) => Some(*b),
        _ => match t.eval(&Valuation::new()) {
            Some(TermValue::Bool(b)) => Some(b),
            _ => None,
        },
    }
}

/// The largest magnitude kept: under `--ints math` a value past it gives up.
const MAX_BITS: u64 = 256;

/// `a op b` on integers with the usual arithmetic conversions (shifts:
/// the promoted left operand's type). A result that is undefined ends the
/// run ([`Stop::Ended`]); an unknown operand gives an unknown result.
pub(crate) fn binary(ar: &Arith, op: ArithOp, (ta, a): (IntType, Option<&BigInt>), (tb, b): (IntType, Option<&BigInt>)) -> Result<Value, Stop> {
    let m = ar.machine();
    let ty = if matches!(op, ArithOp::Shl | ArithOp::Shr) { m.promote(ta) } else { m.usual(ta, tb) };
    let (Some(a), Some(b)) = (a, b) else { return Ok(Value::Int(ty, None)) };
    if matches!(op, ArithOp::Shl | ArithOp::Shr) {
        // A shift amount outside `0..width` is undefined (Arith decides it
        // for a constant amount; a huge one is out of range here too).
        if b < &BigInt::zero() || b >= &BigInt::from(ty.bits()) {
            return Err(Stop::Undefined { kind: crate::ir::Undefined::ShiftOutOfRange, at: None });
        }
    }
    let out = ar.binary(op, val(ar, ta, a), val(ar, tb, b)).map_err(Stop::give_up)?;
    for (kind, d) in &out.defined {
        match term_bool(d) {
            Some(true) => {}
            Some(false) => return Err(Stop::Undefined { kind: *kind, at: None }),
            None => return Err(Stop::give_up("an operation's definedness not decided on constants")),
        }
    }
    let r = term_int(&out.val.term).ok_or_else(|| Stop::give_up(format!("`{}` not folded on constants", op.symbol())))?;
    if r.bits() > MAX_BITS {
        return Err(Stop::give_up("an integer beyond 256 bits"));
    }
    Ok(Value::Int(out.val.ty, Some(r)))
}

/// `a cmp b` as C's `int` 0 or 1.
pub(crate) fn compare(ar: &Arith, op: CmpOp, (ta, a): (IntType, Option<&BigInt>), (tb, b): (IntType, Option<&BigInt>)) -> Result<Value, Stop> {
    let int = ar.machine().int();
    let (Some(a), Some(b)) = (a, b) else { return Ok(Value::Int(int, None)) };
    let t = ar.compare(op, val(ar, ta, a), val(ar, tb, b));
    let r = term_bool(&t).ok_or_else(|| Stop::give_up("a comparison not decided on constants"))?;
    Ok(Value::int(int, u8::from(r)))
}

/// Conversion of an integer to another integer type (wraps as gcc does;
/// to `_Bool` is `!= 0`).
pub(crate) fn convert(ar: &Arith, (t, v): (IntType, Option<&BigInt>), to: IntType) -> Result<Value, Stop> {
    let Some(v) = v else { return Ok(Value::Int(to, None)) };
    let r = ar.convert(val(ar, t, v), to);
    let c = term_int(&r.term).ok_or_else(|| Stop::give_up("a conversion not folded on constants"))?;
    Ok(Value::Int(to, Some(c)))
}

/// Unary `-x`, `~x` (after promotion).
pub(crate) fn negate(ar: &Arith, (t, v): (IntType, Option<&BigInt>)) -> Result<Value, Stop> {
    let ty = ar.machine().promote(t);
    let Some(v) = v else { return Ok(Value::Int(ty, None)) };
    let out = ar.neg(val(ar, t, v));
    for (kind, d) in &out.defined {
        if term_bool(d) != Some(true) {
            return Err(Stop::Undefined { kind: *kind, at: None });
        }
    }
    let r = term_int(&out.val.term).ok_or_else(|| Stop::give_up("a negation not folded"))?;
    Ok(Value::Int(out.val.ty, Some(r)))
}

pub(crate) fn bitnot(ar: &Arith, (t, v): (IntType, Option<&BigInt>)) -> Result<Value, Stop> {
    let ty = ar.machine().promote(t);
    let Some(v) = v else { return Ok(Value::Int(ty, None)) };
    let r = ar.bitnot(val(ar, t, v));
    let c = term_int(&r.term).ok_or_else(|| Stop::give_up("`~` not folded"))?;
    Ok(Value::Int(r.ty, Some(c)))
}

/// The bytes of an integer in little-endian order (two's complement);
/// `None`: the value does not fit in its type's width (a signed value out
/// of range under `--ints math`).
pub(crate) fn int_bytes(ty: IntType, v: &BigInt, size: usize) -> Option<Vec<u8>> {
    let bits = (size * 8) as u32;
    let (lo, hi) = if ty.is_signed() { (-(BigInt::one() << (bits - 1)), (BigInt::one() << (bits - 1)) - 1) } else { (BigInt::zero(), (BigInt::one() << bits) - 1) };
    if v < &lo || v > &hi {
        return None;
    }
    let mut bytes = v.to_signed_bytes_le();
    let fill = if v < &BigInt::zero() { 0xff } else { 0 };
    bytes.resize(size, fill);
    bytes.truncate(size);
    Some(bytes)
}

/// The integer of type `ty` that little-endian `bytes` hold.
pub(crate) fn bytes_int(ty: IntType, bytes: &[u8]) -> BigInt {
    if ty == IntType::Bool {
        return BigInt::from(u8::from(bytes.iter().any(|b| *b != 0)));
    }
    if ty.is_signed() {
        BigInt::from_signed_bytes_le(bytes)
    } else {
        BigInt::from_bytes_le(num_bigint::Sign::Plus, bytes)
    }
}
