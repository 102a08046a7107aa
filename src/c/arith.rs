//! C integer arithmetic as terms of linear integer arithmetic.
//!
//! Every value carries its C type and, when known, an interval containing
//! it. The interval decides where a wrap-around term `min + (e - min) mod 2^N`
//! is needed: only where a value may leave its type's range (docs/design.md,
//! "Integer semantics"). Constants are folded exactly.

use super::types::{low_mask_bits, pow2};
use crate::ir::{IntSemantics, IntType, MachineModel};
use crate::term::{euclid_div_mod, Op, Term};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// A C rvalue: a term over the current program state, its C type, and an
/// interval known to contain it (`None`: unbounded or unknown).
#[derive(Clone, Debug, PartialEq)]
pub struct Val {
    pub term: Term,
    pub ty: IntType,
    pub range: Option<(BigInt, BigInt)>,
}

impl Val {
    pub fn constant(&self) -> Option<&BigInt> {
        match &self.term {
            Term::Int(c) => Some(c),
            _ => None,
        }
    }
    fn non_negative(&self) -> bool {
        self.range.as_ref().is_some_and(|(lo, _)| !lo.is_negative())
    }
}

/// Binary arithmetic operators of C that produce integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
}

impl ArithOp {
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Rem => "%",
            ArithOp::Shl => "<<",
            ArithOp::Shr => ">>",
            ArithOp::BitAnd => "&",
            ArithOp::BitOr => "|",
            ArithOp::BitXor => "^",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

pub use crate::ir::Undefined;

/// The result of an operation: the value plus the conditions under which
/// it is defined (a non-zero divisor; under `c`, a result in range). An
/// execution that violates one is not a C execution and stops there.
pub struct Outcome {
    pub val: Val,
    pub defined: Vec<(Undefined, Term)>,
}

/// Arithmetic under one integer semantics and data model: the one home of
/// what C's integers mean in Tessera.
#[derive(Clone, Copy, Debug)]
pub struct Arith {
    sem: IntSemantics,
    machine: MachineModel,
}

impl Arith {
    pub fn new(sem: IntSemantics, machine: MachineModel) -> Arith {
        Arith { sem, machine }
    }

    /// The integer semantics (`--ints`).
    pub fn semantics(&self) -> IntSemantics {
        self.sem
    }

    /// The machine model: every width, size and type of the target.
    pub fn machine(&self) -> &MachineModel {
        &self.machine
    }

    /// Whether values of `ty` are confined to its range.
    pub fn bounded(&self, ty: IntType) -> bool {
        match self.sem {
            IntSemantics::Machine | IntSemantics::C => true,
            IntSemantics::Math => !ty.is_signed(),
        }
    }

    /// The result of a signed arithmetic operation: under `c` exact, and
    /// defined only while in range; otherwise it wraps as [`Arith::fit`].
    pub fn checked(&self, v: Val) -> (Val, Option<(Undefined, Term)>) {
        if !crate::c::meaning::consequence(Undefined::SignedOverflow, self.sem).ends_run() || !v.ty.is_signed() {
            return (self.fit(v), None);
        }
        let (min, max) = (v.ty.min(), v.ty.max());
        if let Some((lo, hi)) = &v.range {
            if lo >= &min && hi <= &max {
                return (v, None);
            }
        }
        if let Term::Int(c) = &v.term {
            if c < &min || c > &max {
                return (Val { term: v.term.clone(), ty: v.ty, range: None }, Some((Undefined::SignedOverflow, Term::ff())));
            }
        }
        let in_range = Term::and(vec![Term::le(Term::Int(min.clone()), v.term.clone()), Term::le(v.term.clone(), Term::Int(max.clone()))]);
        let range = match &v.range {
            Some((lo, hi)) => Some((lo.clone().max(min), hi.clone().min(max))),
            None => Some((min, max)),
        };
        (Val { term: v.term, ty: v.ty, range }, Some((Undefined::SignedOverflow, in_range)))
    }

    pub fn type_range(&self, ty: IntType) -> Option<(BigInt, BigInt)> {
        if self.bounded(ty) {
            Some((ty.min(), ty.max()))
        } else {
            None
        }
    }

    /// The constraint `min <= v <= max` for a variable of a bounded type.
    pub fn range_assumption(&self, var: &str, ty: IntType) -> Option<Term> {
        let (lo, hi) = self.type_range(ty)?;
        let v = Term::var(var);
        Some(Term::and(vec![Term::le(Term::Int(lo), v.clone()), Term::le(v, Term::Int(hi))]))
    }

    pub fn var(&self, name: &str, ty: IntType) -> Val {
        Val { term: Term::var(name), ty, range: self.type_range(ty) }
    }

    /// A constant of a type; the value is reduced into the type if needed.
    pub fn constant(&self, c: BigInt, ty: IntType) -> Val {
        let v = Val { term: Term::Int(c.clone()), ty, range: Some((c.clone(), c)) };
        self.fit(v)
    }

    pub fn int(&self, c: i64) -> Val {
        self.constant(BigInt::from(c), self.machine.int())
    }

    /// 0/1 as an `int` from a Boolean term.
    pub fn from_bool(&self, b: Term) -> Val {
        let range = match &b {
            Term::Bool(true) => (BigInt::one(), BigInt::one()),
            Term::Bool(false) => (BigInt::zero(), BigInt::zero()),
            _ => (BigInt::zero(), BigInt::one()),
        };
        Val { term: Term::ite(b, Term::int(1), Term::int(0)), ty: self.machine.int(), range: Some(range) }
    }

    /// `v != 0` as a Boolean term (undoing `from_bool` where possible).
    pub fn truth(&self, v: &Val) -> Term {
        if let Term::App(Op::Ite, args) = &v.term {
            if let [c, Term::Int(a), Term::Int(b)] = &args[..] {
                if a.is_one() && b.is_zero() {
                    return c.clone();
                }
                if a.is_zero() && b.is_one() {
                    return Term::not(c.clone());
                }
            }
        }
        if let Some((lo, hi)) = &v.range {
            if lo.is_positive() || hi.is_negative() {
                return Term::tt();
            }
            if lo.is_zero() && hi.is_zero() {
                return Term::ff();
            }
        }
        Term::neq(v.term.clone(), Term::int(0))
    }

    /// Make a value fit its own type: wrap when the interval is not inside
    /// the type's range (the only place where `mod` enters the encoding).
    pub fn fit(&self, v: Val) -> Val {
        let Some((min, max)) = self.type_range(v.ty) else {
            return v;
        };
        if let IntType::Bool = v.ty {
            // Conversion to _Bool is `!= 0`, never wrap-around.
            if v.range.as_ref().is_some_and(|(lo, hi)| !lo.is_negative() && hi <= &BigInt::one()) {
                return v;
            }
            let t = self.truth(&v);
            return Val { range: bool_range(&t), term: Term::ite(t, Term::int(1), Term::int(0)), ty: v.ty };
        }
        if let Some((lo, hi)) = &v.range {
            if lo >= &min && hi <= &max {
                return v;
            }
        }
        let modulus = pow2(v.ty.bits());
        if let Term::Int(c) = &v.term {
            let (_, r) = euclid_div_mod(&(c - &min), &modulus);
            let w = r + &min;
            return Val { term: Term::Int(w.clone()), ty: v.ty, range: Some((w.clone(), w)) };
        }
        let shifted = Term::add(vec![v.term, Term::Int(-&min)]);
        let wrapped = Term::modulo(shifted, Term::Int(modulus));
        let term = if min.is_zero() { wrapped } else { Term::add(vec![wrapped, Term::Int(min.clone())]) };
        Val { term, ty: v.ty, range: Some((min, max)) }
    }

    /// Conversion to another integer type (C11 6.3.1.3, with gcc's
    /// wrap-around for signed targets in machine semantics).
    pub fn convert(&self, v: Val, to: IntType) -> Val {
        if v.ty == to {
            return v;
        }
        self.fit(Val { term: v.term, ty: to, range: v.range })
    }

    pub fn promote(&self, v: Val) -> Val {
        let to = self.machine.promote(v.ty);
        self.convert(v, to)
    }

    pub fn neg(&self, v: Val) -> Outcome {
        let v = self.promote(v);
        let range = v.range.as_ref().map(|(lo, hi)| (-hi, -lo));
        let term = Term::neg(v.term);
        let (val, check) = self.checked(Val { term, ty: v.ty, range });
        Outcome { val, defined: check.into_iter().collect() }
    }

    /// `~x = -x - 1` (two's complement).
    pub fn bitnot(&self, v: Val) -> Val {
        let v = self.promote(v);
        let range = v.range.as_ref().map(|(lo, hi)| (-hi - 1, -lo - 1));
        let ty = v.ty;
        if !ty.is_signed() && self.bounded(ty) && v.range.is_some() {
            // Stays in range as `max - x`, no wrap term needed.
            let max = ty.max();
            let term = Term::sub(Term::Int(max.clone()), v.term);
            let r = v.range.as_ref().map(|(lo, hi)| (&max - hi, &max - lo));
            return self.fold(Val { term, ty, range: r });
        }
        let term = Term::sub(Term::neg(v.term), Term::int(1));
        self.fit(self.fold(Val { term, ty, range }))
    }

    pub fn not(&self, v: &Val) -> Val {
        self.from_bool(Term::not(self.truth(v)))
    }

    pub fn compare(&self, op: CmpOp, a: Val, b: Val) -> Term {
        let t = self.machine.usual(a.ty, b.ty);
        let (a, b) = (self.convert(a, t), self.convert(b, t));
        // Decided by the ranges alone (e.g. `u >= 0` for an unsigned `u`)?
        if let (Some((alo, ahi)), Some((blo, bhi))) = (&a.range, &b.range) {
            let decided = match op {
                CmpOp::Lt if ahi < blo => Some(true),
                CmpOp::Lt if alo >= bhi => Some(false),
                CmpOp::Le if ahi <= blo => Some(true),
                CmpOp::Le if alo > bhi => Some(false),
                CmpOp::Gt if alo > bhi => Some(true),
                CmpOp::Gt if ahi <= blo => Some(false),
                CmpOp::Ge if alo >= bhi => Some(true),
                CmpOp::Ge if ahi < blo => Some(false),
                CmpOp::Eq | CmpOp::Ne if ahi < blo || bhi < alo => Some(op == CmpOp::Ne),
                _ => None,
            };
            if let Some(d) = decided {
                return Term::Bool(d);
            }
        }
        let (x, y) = (a.term, b.term);
        match op {
            CmpOp::Lt => Term::lt(x, y),
            CmpOp::Le => Term::le(x, y),
            CmpOp::Gt => Term::gt(x, y),
            CmpOp::Ge => Term::ge(x, y),
            CmpOp::Eq => Term::eq(x, y),
            CmpOp::Ne => Term::neq(x, y),
        }
    }

    /// Constant-fold a term built from constants (the term constructors fold
    /// `+ - *` but not `div`/`mod`/`ite`).
    fn fold(&self, v: Val) -> Val {
        let env = crate::term::Valuation::new();
        if v.term.free_vars().is_empty() {
            if let Some(crate::term::Value::Int(c)) = v.term.eval(&env) {
                return Val { term: Term::Int(c.clone()), ty: v.ty, range: Some((c.clone(), c)) };
            }
        }
        v
    }

    /// `a op b` with the usual arithmetic conversions. `Err` names an
    /// operation Tessera cannot express exactly.
    pub fn binary(&self, op: ArithOp, a: Val, b: Val) -> Result<Outcome, String> {
        if matches!(op, ArithOp::Shl | ArithOp::Shr) {
            return self.shift(op, a, b);
        }
        let t = self.machine.usual(a.ty, b.ty);
        let (a, b) = (self.convert(a, t), self.convert(b, t));
        let mut defined = Vec::new();
        let (term, range) = match op {
            ArithOp::Add => (Term::add(vec![a.term.clone(), b.term.clone()]), range2(&a, &b, |x, y| x + y)),
            ArithOp::Sub => (Term::sub(a.term.clone(), b.term.clone()), sub_range(&a, &b)),
            ArithOp::Mul => (Term::mul(a.term.clone(), b.term.clone()), mul_range(&a, &b)),
            ArithOp::Div | ArithOp::Rem => {
                if let Some(c) = b.constant() {
                    if c.is_zero() {
                        // Division by zero is undefined: no execution continues.
                        defined.push((Undefined::DivisionByZero, Term::ff()));
                        return Ok(Outcome { val: Val { term: Term::int(0), ty: t, range: None }, defined });
                    }
                } else {
                    defined.push((Undefined::DivisionByZero, Term::neq(b.term.clone(), Term::int(0))));
                }
                defined.extend(self.division_overflow(op, &a, &b));
                if op == ArithOp::Div {
                    (truncating_div(&a, &b), div_range(&a, &b))
                } else {
                    (truncating_rem(&a, &b), rem_range(&a, &b))
                }
            }
            ArithOp::BitAnd | ArithOp::BitOr | ArithOp::BitXor => {
                return self.bitwise(op, a, b, t).map(|val| Outcome { val, defined: vec![] });
            }
            // Dispatched to `shift` above (shifts do not use the usual conversions).
            ArithOp::Shl | ArithOp::Shr => return self.shift(op, a, b),
        };
        let v = self.fold(Val { term, ty: t, range });
        let (val, check) = self.checked(v);
        defined.extend(check);
        Ok(Outcome { val, defined })
    }

    /// `MIN / -1` and `MIN % -1` of a signed type: the quotient is not
    /// representable (C11 6.5.5p6), and what a run does there is the
    /// table's choice ([`crate::c::meaning::consequence`]): the condition
    /// that rules it out, when the run ends there and it is not ruled out
    /// by the operands' constants or ranges.
    fn division_overflow(&self, op: ArithOp, a: &Val, b: &Val) -> Option<(Undefined, Term)> {
        let t = a.ty;
        if !t.is_signed() || !crate::c::meaning::consequence(Undefined::DivisionOverflow, self.sem).ends_run() {
            return None;
        }
        if op == ArithOp::Div && crate::c::meaning::consequence(Undefined::SignedOverflow, self.sem).ends_run() {
            // The quotient's range check says it already (`INT_MIN / -1`
            // is out of range).
            return None;
        }
        let (min, minus_one) = (t.min(), BigInt::from(-1));
        let may_be = |v: &Val, k: &BigInt| match (v.constant(), &v.range) {
            (Some(c), _) => c == k,
            (None, Some((lo, hi))) => lo <= k && k <= hi,
            (None, None) => true,
        };
        if !may_be(a, &min) || !may_be(b, &minus_one) {
            return None;
        }
        let overflow = Term::and(vec![Term::eq(a.term.clone(), Term::Int(min)), Term::eq(b.term.clone(), Term::Int(minus_one))]);
        Some((Undefined::DivisionOverflow, Term::not(overflow)))
    }

    fn shift(&self, op: ArithOp, a: Val, b: Val) -> Result<Outcome, String> {
        let a = self.promote(a);
        let b = self.promote(b);
        let Some(k) = b.constant() else {
            return Err(format!("shift `{}` by a non-constant amount", op.symbol()));
        };
        let width = a.ty.bits();
        let k = match u32::try_from(k) {
            Ok(k) if k < width => k,
            _ => {
                // Undefined: no execution continues.
                let val = Val { term: Term::int(0), ty: a.ty, range: None };
                return Ok(Outcome { val, defined: vec![(Undefined::ShiftOutOfRange, Term::ff())] });
            }
        };
        let mut defined = Vec::new();
        if op == ArithOp::Shl && a.ty.is_signed() && self.sem == IntSemantics::C && !a.non_negative() {
            // Shifting a negative value left is undefined.
            defined.push((Undefined::ShiftOutOfRange, Term::le(Term::int(0), a.term.clone())));
        }
        let factor = pow2(k);
        let ty = a.ty;
        let v = if op == ArithOp::Shl {
            let range = a.range.as_ref().map(|(lo, hi)| (lo * &factor, hi * &factor));
            Val { term: Term::scale(&factor, a.term), ty, range }
        } else {
            // Arithmetic right shift is floor division: Euclidean `div` by a
            // positive constant.
            let range = a.range.as_ref().map(|(lo, hi)| {
                (euclid_div_mod(lo, &factor).0, euclid_div_mod(hi, &factor).0)
            });
            let term = if k == 0 { a.term } else { Term::div(a.term, Term::Int(factor)) };
            Val { term, ty, range }
        };
        let (val, check) = if op == ArithOp::Shl { self.checked(self.fold(v)) } else { (self.fit(self.fold(v)), None) };
        defined.extend(check);
        Ok(Outcome { val, defined })
    }

    /// Bounds on `a op b` where [`Arith::binary`] has no exact linear
    /// encoding (bitwise operators on two variables or with an arbitrary
    /// constant, shifts by a variable amount): the result type and
    /// constraints on the result `r` (in range of its type besides). Sound
    /// for every operand value (so YES stays sound); the caller records the
    /// approximation, so no NO rests on it.
    pub fn approximate(&self, op: ArithOp, a: Val, b: Val, r: &Term) -> (IntType, Vec<Term>, Vec<(Undefined, Term)>) {
        let mut facts = Vec::new();
        let mut defined = Vec::new();
        if matches!(op, ArithOp::Shl | ArithOp::Shr) {
            let (a, b) = (self.promote(a), self.promote(b));
            let t = a.ty;
            // A shift amount outside 0..width is undefined (all semantics).
            let width = Term::int(i64::from(t.bits()));
            let in_range = b.range.as_ref().is_some_and(|(lo, hi)| !lo.is_negative() && hi < &BigInt::from(t.bits()));
            if !in_range {
                defined.push((
                Undefined::ShiftOutOfRange,
                    Term::and(vec![Term::le(Term::int(0), b.term.clone()), Term::lt(b.term.clone(), width)]),
                ));
            }
            if op == ArithOp::Shr && a.non_negative() {
                // x >> k lies in [0, x], and at most x / 2 once k >= 1.
                facts.extend([
                    Term::le(Term::int(0), r.clone()),
                    Term::le(r.clone(), a.term.clone()),
                    Term::or(vec![
                        Term::lt(b.term.clone(), Term::int(1)),
                        Term::le(Term::scale(&BigInt::from(2), r.clone()), a.term.clone()),
                    ]),
                ]);
            }
            if op == ArithOp::Shl && t.is_signed() && self.sem == IntSemantics::C && !a.non_negative() {
                defined.push((Undefined::ShiftOutOfRange, Term::le(Term::int(0), a.term.clone())));
            }
            return (t, facts, defined);
        }
        let t = self.machine.usual(a.ty, b.ty);
        let (a, b) = (self.convert(a, t), self.convert(b, t));
        if a.non_negative() && b.non_negative() {
            let (x, y) = (a.term.clone(), b.term.clone());
            let zero = Term::le(Term::int(0), r.clone());
            match op {
                // 0 <= x & y <= min(x, y)
                ArithOp::BitAnd => facts.extend([zero, Term::le(r.clone(), x), Term::le(r.clone(), y)]),
                // max(x, y) <= x | y <= x + y
                ArithOp::BitOr => facts.extend([
                    Term::le(x.clone(), r.clone()),
                    Term::le(y.clone(), r.clone()),
                    Term::le(r.clone(), Term::add(vec![x, y])),
                ]),
                // 0 <= x ^ y <= x + y
                _ => facts.extend([zero, Term::le(r.clone(), Term::add(vec![x, y]))]),
            }
        } else if op == ArithOp::BitAnd && (a.non_negative() || b.non_negative()) {
            // `&` with a non-negative operand is non-negative and below it.
            let nn = if a.non_negative() { a.term.clone() } else { b.term.clone() };
            facts.extend([Term::le(Term::int(0), r.clone()), Term::le(r.clone(), nn)]);
        }
        (t, facts, defined)
    }

    /// `&`, `|`, `^` where exact in linear arithmetic: with a constant that is
    /// a low-bit mask `2^k - 1` (`x & m = x mod 2^k`), its complement
    /// `-2^k`, `0` or all ones; or two constants.
    fn bitwise(&self, op: ArithOp, a: Val, b: Val, t: IntType) -> Result<Val, String> {
        if let (Some(x), Some(y)) = (a.constant(), b.constant()) {
            let (x, y) = (self.as_signed(x, t), self.as_signed(y, t));
            let r = match op {
                ArithOp::BitAnd => x & y,
                ArithOp::BitOr => x | y,
                _ => x ^ y,
            };
            return Ok(self.constant(r, t));
        }
        let (c, other) = match (a.constant(), b.constant()) {
            (Some(c), _) => (self.as_signed(c, t), b),
            (_, Some(c)) => (self.as_signed(c, t), a),
            _ => return Err(format!("bitwise `{}` of two non-constant operands", op.symbol())),
        };
        let minus_one = -BigInt::one();
        match op {
            ArithOp::BitAnd => {
                if c.is_zero() {
                    return Ok(self.constant(BigInt::zero(), t));
                }
                if c == minus_one {
                    return Ok(other);
                }
                if let Some(k) = low_mask_bits(&c) {
                    if k >= t.bits() && !t.is_signed() {
                        return Ok(other);
                    }
                    let m = pow2(k);
                    let range = Some((BigInt::zero(), &m - 1));
                    let term = Term::modulo(other.term, Term::Int(m));
                    return Ok(self.fit(Val { term, ty: t, range }));
                }
                if let Some(k) = low_mask_bits(&(-&c - 1)) {
                    // c = -2^k: clear the low k bits.
                    let m = pow2(k);
                    let term = Term::sub(other.term.clone(), Term::modulo(other.term, Term::Int(m.clone())));
                    let range = other.range.as_ref().map(|(lo, hi)| (lo - (&m - 1), hi.clone()));
                    return Ok(self.fit(Val { term, ty: t, range }));
                }
                Err(format!("bitwise `&` with {c}, which is not a mask 2^k-1"))
            }
            ArithOp::BitOr => {
                if c.is_zero() {
                    return Ok(other);
                }
                if c == minus_one {
                    return Ok(self.constant(minus_one, t));
                }
                Err(format!("bitwise `|` with the constant {c}"))
            }
            _ => {
                if c.is_zero() {
                    return Ok(other);
                }
                if c == minus_one {
                    return Ok(self.bitnot(other));
                }
                Err(format!("bitwise `^` with the constant {c}"))
            }
        }
    }

    /// The two's complement reading of a constant of type `t` (an unsigned
    /// `0xFFFFFFF0` reads as `-16` for the bit-pattern tests).
    fn as_signed(&self, c: &BigInt, t: IntType) -> BigInt {
        if !t.is_signed() && self.bounded(t) && c >= &pow2(t.bits() - 1) {
            c - pow2(t.bits())
        } else {
            c.clone()
        }
    }
}

fn bool_range(t: &Term) -> Option<(BigInt, BigInt)> {
    match t {
        Term::Bool(true) => Some((BigInt::one(), BigInt::one())),
        Term::Bool(false) => Some((BigInt::zero(), BigInt::zero())),
        _ => Some((BigInt::zero(), BigInt::one())),
    }
}

fn range2(a: &Val, b: &Val, f: impl Fn(&BigInt, &BigInt) -> BigInt) -> Option<(BigInt, BigInt)> {
    let (alo, ahi) = a.range.as_ref()?;
    let (blo, bhi) = b.range.as_ref()?;
    Some((f(alo, blo), f(ahi, bhi)))
}

fn sub_range(a: &Val, b: &Val) -> Option<(BigInt, BigInt)> {
    let (alo, ahi) = a.range.as_ref()?;
    let (blo, bhi) = b.range.as_ref()?;
    Some((alo - bhi, ahi - blo))
}

fn mul_range(a: &Val, b: &Val) -> Option<(BigInt, BigInt)> {
    let (alo, ahi) = a.range.as_ref()?;
    let (blo, bhi) = b.range.as_ref()?;
    let ps = [alo * blo, alo * bhi, ahi * blo, ahi * bhi];
    let lo = ps.iter().min()?.clone();
    let hi = ps.iter().max()?.clone();
    Some((lo, hi))
}

/// `|a / b| <= |a|`, and for a constant divisor `|a / c| <= |a| / |c|`.
fn div_range(a: &Val, b: &Val) -> Option<(BigInt, BigInt)> {
    let (lo, hi) = a.range.as_ref()?;
    let m = lo.abs().max(hi.abs());
    let m = match b.constant() {
        Some(c) if !c.is_zero() => m / c.abs(),
        _ => m,
    };
    if !lo.is_negative() && b.non_negative() {
        return Some((BigInt::zero(), m));
    }
    Some((-&m, m))
}

/// `|a % b| < |b|` and `|a % b| <= |a|`, with the sign of `a`.
fn rem_range(a: &Val, b: &Val) -> Option<(BigInt, BigInt)> {
    let mut m: Option<BigInt> = a.range.as_ref().map(|(lo, hi)| lo.abs().max(hi.abs()));
    if let Some((lo, hi)) = &b.range {
        let mb = lo.abs().max(hi.abs()) - 1;
        m = Some(match m {
            Some(x) => x.min(mb),
            None => mb,
        });
    }
    let m = m?;
    if a.non_negative() {
        Some((BigInt::zero(), m))
    } else {
        Some((-&m, m))
    }
}

/// C division truncates toward zero: `ite(a >= 0, div(a, b), -div(-a, b))`
/// with Euclidean `div` (correct for either sign of `b`).
fn truncating_div(a: &Val, b: &Val) -> Term {
    if a.non_negative() {
        return Term::div(a.term.clone(), b.term.clone());
    }
    Term::ite(
        Term::ge(a.term.clone(), Term::int(0)),
        Term::div(a.term.clone(), b.term.clone()),
        Term::neg(Term::div(Term::neg(a.term.clone()), b.term.clone())),
    )
}

/// C remainder has the sign of the dividend: `ite(a >= 0, mod(a, b),
/// -mod(-a, b))` (Euclidean `mod` by `b` or `-b` is the same).
fn truncating_rem(a: &Val, b: &Val) -> Term {
    if a.non_negative() {
        return Term::modulo(a.term.clone(), b.term.clone());
    }
    Term::ite(
        Term::ge(a.term.clone(), Term::int(0)),
        Term::modulo(a.term.clone(), b.term.clone()),
        Term::neg(Term::modulo(Term::neg(a.term.clone()), b.term.clone())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{Valuation, Value};

    fn eval(t: &Term, x: i64) -> BigInt {
        let mut env = Valuation::new();
        env.insert("x".into(), Value::Int(BigInt::from(x)));
        match t.eval(&env) {
            Some(Value::Int(i)) => i,
            other => panic!("no value: {other:?}"),
        }
    }

    #[test]
    fn machine_addition_wraps() {
        let a = Arith::new(IntSemantics::Machine, MachineModel::lp64());
        let x = a.var("x", IntType::INT);
        let r = a.binary(ArithOp::Add, x, a.int(1)).map(|o| o.val).expect("exact");
        assert_eq!(eval(&r.term, 2147483647), BigInt::from(-2147483648i64));
        assert_eq!(eval(&r.term, 5), BigInt::from(6));
    }

    #[test]
    fn math_addition_does_not_wrap_signed() {
        let a = Arith::new(IntSemantics::Math, MachineModel::lp64());
        let x = a.var("x", IntType::INT);
        let r = a.binary(ArithOp::Add, x, a.int(1)).map(|o| o.val).expect("exact");
        assert_eq!(r.term.to_string(), "(+ x 1)");
    }

    #[test]
    fn truncating_division_and_remainder() {
        let a = Arith::new(IntSemantics::Math, MachineModel::lp64());
        let x = a.var("x", IntType::INT);
        let q = a.binary(ArithOp::Div, x.clone(), a.int(2)).map(|o| o.val).expect("exact");
        let r = a.binary(ArithOp::Rem, x, a.int(2)).map(|o| o.val).expect("exact");
        assert_eq!(eval(&q.term, -7), BigInt::from(-3));
        assert_eq!(eval(&r.term, -7), BigInt::from(-1));
        assert_eq!(eval(&q.term, 7), BigInt::from(3));
        assert_eq!(eval(&r.term, 7), BigInt::from(1));
    }

    #[test]
    fn masks_and_shifts() {
        let a = Arith::new(IntSemantics::Machine, MachineModel::lp64());
        let x = a.var("x", IntType::INT);
        let m = a.binary(ArithOp::BitAnd, x.clone(), a.int(255)).map(|o| o.val).expect("mask");
        assert_eq!(eval(&m.term, -1), BigInt::from(255));
        let s = a.binary(ArithOp::Shr, x.clone(), a.int(1)).map(|o| o.val).expect("shift");
        assert_eq!(eval(&s.term, -3), BigInt::from(-2));
        let l = a.binary(ArithOp::Shl, x.clone(), a.int(1)).map(|o| o.val).expect("shift");
        assert_eq!(eval(&l.term, 1 << 30), BigInt::from(-2147483648i64));
        let n = a.bitnot(x.clone());
        assert_eq!(eval(&n.term, 5), BigInt::from(-6));
        assert!(a.binary(ArithOp::BitAnd, x.clone(), a.int(6)).is_err());
        assert!(a.binary(ArithOp::BitXor, x.clone(), x).is_err());
    }

    #[test]
    fn constants_fold_and_wrap() {
        let a = Arith::new(IntSemantics::Machine, MachineModel::lp64());
        let c = a.convert(a.int(-1), IntType::UINT);
        assert_eq!(c.term, Term::Int(BigInt::from(4294967295u64)));
        let d = a.binary(ArithOp::Div, a.int(-7), a.int(2)).map(|o| o.val).expect("exact");
        assert_eq!(d.term, Term::int(-3));
        let b = a.convert(a.int(5), IntType::Bool);
        assert_eq!(b.term, Term::int(1));
    }
}
