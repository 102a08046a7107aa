//! Expressions: rvalues ([`Interp::eval`]) and lvalues ([`Interp::place`]).
//! Operands are evaluated left to right (one order of evaluation, as
//! lowering takes one).

use super::interp::Interp;
use super::join::Taken;
use super::memory::Kind;
use super::symbolic::forget;
use super::value::{self, Byte, Ptr, Value};
use super::Stop;
use crate::c::arith::{ArithOp, CmpOp};
use crate::ir::IntType;
use crate::c::types::{char_literal, integer_literal, string_literal_values, CType};
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

pub(crate) fn arith_op(op: &BinaryOperator) -> Option<ArithOp> {
    use BinaryOperator::*;
    Some(match op {
        Plus | AssignPlus => ArithOp::Add,
        Minus | AssignMinus => ArithOp::Sub,
        Multiply | AssignMultiply => ArithOp::Mul,
        Divide | AssignDivide => ArithOp::Div,
        Modulo | AssignModulo => ArithOp::Rem,
        ShiftLeft | AssignShiftLeft => ArithOp::Shl,
        ShiftRight | AssignShiftRight => ArithOp::Shr,
        BitwiseAnd | AssignBitwiseAnd => ArithOp::BitAnd,
        BitwiseOr | AssignBitwiseOr => ArithOp::BitOr,
        BitwiseXor | AssignBitwiseXor => ArithOp::BitXor,
        _ => return None,
    })
}

fn cmp_op(op: &BinaryOperator) -> Option<CmpOp> {
    use BinaryOperator::*;
    Some(match op {
        Less => CmpOp::Lt,
        LessOrEqual => CmpOp::Le,
        Greater => CmpOp::Gt,
        GreaterOrEqual => CmpOp::Ge,
        Equals => CmpOp::Eq,
        NotEquals => CmpOp::Ne,
        _ => return None,
    })
}

fn node<T>(n: &Node<T>) -> usize {
    n as *const Node<T> as usize
}

impl<'s, 'a> Interp<'s, 'a> {
    /// The value of `e` (arrays and functions decayed).
    pub(crate) fn eval(&mut self, e: &'a Node<Expression>) -> Result<Value, Stop> {
        let v = self.eval_any(e)?;
        // A concrete run knows every value it computes: an unknown one
        // (a library function's result, a function that fell off its
        // end) could hide undefined behaviour or a value that matters.
        if self.concrete.is_some() && matches!(v, Value::Int(_, None) | Value::Ptr(None)) {
            return Err(Stop::give_up("a concrete run computed an unknown value"));
        }
        Ok(v)
    }

    fn eval_any(&mut self, e: &'a Node<Expression>) -> Result<Value, Stop> {
        self.step()?;
        if let Some(v) = self.table.value_at(node(e)) {
            let ty = self.object_type(e)?.int().ok_or_else(|| Stop::give_up("a constant of no integer type"))?;
            return Ok(Value::Int(ty, Some(v.clone())));
        }
        match &e.node {
            Expression::Identifier(id) => {
                if let Some((b, ty)) = self.lookup(&id.node.name) {
                    return self.load(&Ptr::At { block: b, offset: 0 }, &ty);
                }
                if self.types.signatures().is_function(&id.node.name) {
                    return Ok(Value::Ptr(Some(Ptr::Function(id.node.name.clone()))));
                }
                if matches!(id.node.name.as_str(), "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__") {
                    // The name of the function, as a string literal.
                    let name = self.frames.last().map(|f| f.name.clone()).unwrap_or_default();
                    let mut bytes: Vec<Byte> = name.bytes().map(Byte::Known).collect();
                    bytes.push(Byte::Known(0));
                    let b = match self.literals.get(&node(e)) {
                        Some(b) if self.mem.blocks[*b].bytes == bytes => *b,
                        _ => {
                            let b = self.mem.allocate_with(bytes, Kind::Literal);
                            self.literals.insert(node(e), b);
                            b
                        }
                    };
                    return Ok(Value::Ptr(Some(Ptr::At { block: b, offset: 0 })));
                }
                Err(Stop::give_up(format!("`{}`: a name the interpreter does not know", id.node.name)))
            }
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => {
                    let (v, t) = integer_literal(i, self.ar.machine()).map_err(Stop::give_up)?;
                    Ok(Value::Int(t, Some(v)))
                }
                Constant::Character(s) => {
                    let (v, t) = char_literal(s, self.ar.machine()).map_err(Stop::give_up)?;
                    Ok(Value::Int(t, Some(v)))
                }
                Constant::Float(_) => Err(Stop::give_up("a floating-point constant")),
            },
            Expression::StringLiteral(s) => Ok(Value::Ptr(Some(Ptr::At { block: self.literal(e, &s.node)?, offset: 0 }))),
            Expression::Member(_) | Expression::CompoundLiteral(_) => {
                let ty = self.object_type(e)?;
                let p = self.place(e)?;
                self.load(&p, &ty)
            }
            Expression::Call(c) => {
                self.unsequenced(std::iter::once(&*c.node.callee).chain(c.node.arguments.iter()))?;
                let v = self.call(c)?;
                // The call's value has the type typing decided
                // (`__builtin_expect` is `long`).
                match self.object_type(e) {
                    Ok(t @ CType::Int(_)) => self.convert(v, &t),
                    _ => Ok(v),
                }
            }
            Expression::Cast(c) => {
                let v = self.eval(&c.node.expression)?;
                let ty = self.object_type(e)?;
                self.convert(v, &ty)
            }
            Expression::UnaryOperator(u) => self.unary(e, u),
            Expression::BinaryOperator(b) => self.binary(e, b),
            Expression::Conditional(c) => {
                let cond = self.eval(&c.node.condition)?;
                let mut side = |it: &mut Self, way: bool| {
                    let v = it.eval(if way { &c.node.then_expression } else { &c.node.else_expression })?;
                    match it.object_type(e)? {
                        t @ (CType::Int(_) | CType::Ptr(_)) => it.convert(v, &t),
                        _ => Ok(v),
                    }
                };
                match self.branch(&cond, &mut side)? {
                    Taken::Joined(v) => Ok(v),
                    Taken::Way(b) => side(self, b),
                }
            }
            Expression::Comma(es) => {
                let mut last = Value::Void;
                for x in es.iter() {
                    last = self.eval(x)?;
                }
                Ok(last)
            }
            Expression::Statement(s) => self.statement_expression(s),
            _ => Err(Stop::give_up("an expression the interpreter does not run")),
        }
    }

    /// The block of string literal `e` (made once, read-only).
    fn literal(&mut self, e: &'a Node<Expression>, pieces: &[String]) -> Result<usize, Stop> {
        if let Some(b) = self.literals.get(&node(e)) {
            return Ok(*b);
        }
        let units = string_literal_values(pieces, self.ar.machine()).map_err(Stop::give_up)?;
        let CType::Ptr(elem) = self.object_type(e)?.decay() else { return Err(Stop::give_up("a string literal's type")) };
        let size = self.size(&elem)?;
        let mut bytes = Vec::new();
        for u in units.iter().copied().chain([0]) {
            bytes.extend(u.to_le_bytes().into_iter().take(size as usize).map(Byte::Known));
        }
        let b = self.mem.allocate_with(bytes, Kind::Literal);
        self.literals.insert(node(e), b);
        Ok(b)
    }

    /// Where the lvalue `e` is.
    pub(crate) fn place(&mut self, e: &'a Node<Expression>) -> Result<Ptr, Stop> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some((b, _)) => Ok(Ptr::At { block: b, offset: 0 }),
                None => Err(Stop::give_up(format!("`{}`: not an object the interpreter knows", id.node.name))),
            },
            Expression::UnaryOperator(u) if matches!(u.node.operator.node, UnaryOperator::Indirection) => match self.eval(&u.node.operand)? {
                Value::Ptr(Some(p)) => Ok(p),
                Value::Ptr(None) => Err(Stop::give_up("an unknown pointer dereferenced")),
                _ => Err(Stop::give_up("`*` of a non-pointer")),
            },
            Expression::BinaryOperator(b) if matches!(b.node.operator.node, BinaryOperator::Index) => {
                let (l, r) = (self.eval(&b.node.lhs)?, self.eval(&b.node.rhs)?);
                // A symbolic index is not followed: any index (which gives up).
                let (l, r) = (forget(l), forget(r));
                let (p, i, pe) = match (l, r) {
                    (Value::Ptr(p), Value::Int(_, i)) => (p, i, &b.node.lhs),
                    (Value::Int(_, i), Value::Ptr(p)) => (p, i, &b.node.rhs),
                    _ => return Err(Stop::give_up("an index that is not pointer and integer")),
                };
                let elem = self.pointee(pe)?;
                self.offset(p, i, &elem, false)
            }
            Expression::Member(m) => {
                let (offset, _) = self.table.member_at(node(m)).ok_or_else(|| Stop::give_up("a member typing did not decide (or a bit-field)"))?;
                let base = match m.node.operator.node {
                    MemberOperator::Direct => self.place(&m.node.expression)?,
                    MemberOperator::Indirect => match self.eval(&m.node.expression)? {
                        Value::Ptr(Some(p)) => p,
                        Value::Ptr(None) => return Err(Stop::give_up("an unknown pointer dereferenced")),
                        _ => return Err(Stop::give_up("`->` of a non-pointer")),
                    },
                };
                match base {
                    Ptr::At { block, offset: o } => Ok(Ptr::At { block, offset: o + offset as i64 }),
                    Ptr::Null => Err(Stop::Undefined { kind: crate::ir::Undefined::NullDereference, at: None }),
                    Ptr::Function(_) => Err(Stop::give_up("a member of a function")),
                    Ptr::Integer(_) => Err(Stop::give_up("a member through a pointer made from an integer")),
                }
            }
            Expression::CompoundLiteral(c) => {
                let ty = self.object_type(e)?;
                // One object per literal and activation of its block
                // (C11 6.5.2.5p16: evaluated again after a `goto` back, it
                // is the same object, initialized again). Kept in the
                // scope under a name no identifier has.
                let key = compound_literal_key(c);
                let b = match self.object_of_this_scope(&key, &ty) {
                    Some(b) => {
                        let size = self.size(&ty)?;
                        self.mem.write(&Ptr::At { block: b, offset: 0 }, vec![Byte::Known(0); size as usize])?;
                        b
                    }
                    None => {
                        let b = self.new_object(&ty, Kind::Local, Byte::Known(0))?;
                        if self.frames.last().is_some_and(|f| !f.scopes.is_empty()) {
                            self.bind(key, (b, ty.clone()), true);
                        }
                        b
                    }
                };
                let p = Ptr::At { block: b, offset: 0 };
                self.init_list(&p, &ty, &c.node.initializer_list)?;
                Ok(p)
            }
            Expression::StringLiteral(s) => Ok(Ptr::At { block: self.literal(e, &s.node)?, offset: 0 }),
            _ => Err(Stop::give_up("an lvalue the interpreter does not run")),
        }
    }

    /// The type a pointer expression points to.
    pub(crate) fn pointee(&self, e: &'a Node<Expression>) -> Result<CType, Stop> {
        match self.object_type(e)?.decay() {
            CType::Ptr(t) => Ok(*t),
            _ => Err(Stop::give_up("a pointer of no pointer type")),
        }
    }

    /// `p + i` elements of type `elem` (`minus`: `p - i`).
    pub(crate) fn offset(&self, p: Option<Ptr>, i: Option<BigInt>, elem: &CType, minus: bool) -> Result<Ptr, Stop> {
        let (Some(p), Some(i)) = (p, i) else { return Err(Stop::give_up("an unknown pointer or offset")) };
        let size = self.size(elem)?;
        let i = i.to_i64().ok_or_else(|| Stop::give_up("a huge offset"))?;
        let by = i.checked_mul(size as i64).ok_or_else(|| Stop::give_up("a huge offset"))?;
        let by = if minus { -by } else { by };
        match p {
            Ptr::At { block, offset } => Ok(Ptr::At { block, offset: offset + by }),
            Ptr::Null if by == 0 => Ok(Ptr::Null),
            _ => Err(Stop::give_up("arithmetic on a pointer to no object")),
        }
    }

    fn unary(&mut self, e: &'a Node<Expression>, u: &'a Node<UnaryOperatorExpression>) -> Result<Value, Stop> {
        use UnaryOperator::*;
        let x = &u.node.operand;
        match &u.node.operator.node {
            Address => Ok(match &x.node {
                // `&f` of a function is its pointer.
                Expression::Identifier(id) if self.lookup(&id.node.name).is_none() && self.types.signatures().is_function(&id.node.name) => Value::Ptr(Some(Ptr::Function(id.node.name.clone()))),
                _ => Value::Ptr(Some(self.place(x)?)),
            }),
            Indirection => {
                let ty = self.object_type(e)?;
                if ty == CType::Function {
                    return self.eval(x);
                }
                let p = self.place(e)?;
                self.load(&p, &ty)
            }
            Plus | Minus | Complement | Negate => match self.eval(x)? {
                Value::Symbolic(s) => self.symbolic_unary(&u.node.operator.node, *s),
                v => self.plain_unary(&u.node.operator.node, v),
            },
            PreIncrement | PreDecrement | PostIncrement | PostDecrement => {
                let ty = self.object_type(x)?;
                let p = self.place(x)?;
                let old = self.load(&p, &ty)?;
                let up = matches!(u.node.operator.node, PreIncrement | PostIncrement);
                let new = match (&old, &ty) {
                    (Value::Int(..) | Value::Symbolic(_), CType::Int(_)) => {
                        let op = if up { ArithOp::Add } else { ArithOp::Sub };
                        let int = self.ar.machine().int();
                        let r = self.operate(op, old.clone(), &ty, Value::int(int, 1), &CType::Int(int))?;
                        self.convert(r, &ty)?
                    }
                    (Value::Ptr(q), CType::Ptr(elem)) => Value::Ptr(Some(self.offset(q.clone(), Some(BigInt::from(1)), elem, !up)?)),
                    _ => return Err(Stop::give_up("`++`/`--` of this type")),
                };
                self.store(&p, &ty, &new)?;
                Ok(if matches!(u.node.operator.node, PreIncrement | PreDecrement) { new } else { old })
            }
        }
    }

    /// `+x`, `-x`, `~x`, `!x` of a value that is not symbolic.
    fn plain_unary(&mut self, op: &UnaryOperator, v: Value) -> Result<Value, Stop> {
        use UnaryOperator::*;
        match op {
            Plus => match v {
                Value::Int(t, v) => value::convert(&self.ar, (t, v.as_ref()), self.ar.machine().promote(t)),
                _ => Err(Stop::give_up("unary `+` of a non-integer")),
            },
            Minus => match v {
                Value::Int(t, v) => value::negate(&self.ar, (t, v.as_ref())),
                _ => Err(Stop::give_up("unary `-` of a non-integer")),
            },
            Complement => match v {
                Value::Int(t, v) => value::bitnot(&self.ar, (t, v.as_ref())),
                _ => Err(Stop::give_up("`~` of a non-integer")),
            },
            Negate => {
                let int = self.ar.machine().int();
                Ok(Value::Int(int, value::truth(&v)?.map(|b| BigInt::from(u8::from(!b)))))
            }
            _ => Err(Stop::give_up("a unary operator")),
        }
    }

    /// Operands whose order of evaluation C leaves open, of which two or
    /// more have side effects: the interpreter runs them left to right,
    /// which is every order's result only when no operand's effects touch
    /// an object another operand reads or writes (C11 6.5p2: otherwise the
    /// order matters, or the behaviour is undefined). Decided on the
    /// operands' footprints (`Types::footprint`: variables written by name,
    /// whose address is never taken, and no calls); anything else gives up.
    fn unsequenced(&self, operands: impl Iterator<Item = &'a Node<Expression>>) -> Result<(), Stop> {
        let effects: Vec<&Node<Expression>> = operands.filter(|x| self.types.has_effects(x)).collect();
        if effects.len() < 2 {
            return Ok(());
        }
        let prints: Option<Vec<crate::c::typing::Footprint>> = effects.iter().map(|x| self.types.footprint(x, &self.addressed)).collect();
        let apart = prints.is_some_and(|p| p.iter().enumerate().all(|(i, a)| p[i + 1..].iter().all(|b| a.apart_from(b))));
        if !apart {
            return Err(Stop::give_up("operands whose side effects may touch one object, in an order C leaves unspecified"));
        }
        Ok(())
    }

    fn binary(&mut self, e: &'a Node<Expression>, b: &'a Node<BinaryOperatorExpression>) -> Result<Value, Stop> {
        use BinaryOperator::*;
        let op = &b.node.operator.node;
        if !matches!(op, LogicalAnd | LogicalOr) {
            self.unsequenced([&*b.node.lhs, &*b.node.rhs].into_iter())?;
        }
        let int = self.ar.machine().int();
        match op {
            Index => {
                let ty = self.object_type(e)?;
                let p = self.place(e)?;
                self.load(&p, &ty)
            }
            LogicalAnd | LogicalOr => {
                let l = self.eval(&b.node.lhs)?;
                let or = matches!(op, LogicalOr);
                // The value of the whole when `l` is `first`; on a path
                // through a joined branch a symbolic right operand is its
                // truth as a value (one path, not two).
                let mut side = |it: &mut Self, first: bool| {
                    if first == or {
                        return Ok(Value::int(int, u8::from(first)));
                    }
                    let r = it.eval(&b.node.rhs)?;
                    match &r {
                        Value::Symbolic(s) if it.joining > 0 => Ok(it.from_val(it.ar.from_bool(it.ar.truth(s)))),
                        _ => Ok(Value::int(int, u8::from(it.decide(&r)?))),
                    }
                };
                match self.branch(&l, &mut side)? {
                    Taken::Joined(v) => Ok(v),
                    Taken::Way(first) => side(self, first),
                }
            }
            Assign => {
                let ty = self.object_type(&b.node.lhs)?;
                let p = self.place(&b.node.lhs)?;
                let v = self.eval(&b.node.rhs)?;
                let v = self.convert(v, &ty)?;
                self.store(&p, &ty, &v)?;
                Ok(v)
            }
            AssignMultiply | AssignDivide | AssignModulo | AssignPlus | AssignMinus | AssignShiftLeft | AssignShiftRight | AssignBitwiseAnd | AssignBitwiseXor | AssignBitwiseOr => {
                let ty = self.object_type(&b.node.lhs)?;
                let p = self.place(&b.node.lhs)?;
                let old = self.load(&p, &ty)?;
                let r = self.eval(&b.node.rhs)?;
                let rty = self.object_type(&b.node.rhs)?.decay();
                let new = self.operate(arith_op(op).expect("compound"), old, &ty, r, &rty)?;
                let new = self.convert(new, &ty)?;
                self.store(&p, &ty, &new)?;
                Ok(new)
            }
            _ => {
                let l = self.eval(&b.node.lhs)?;
                let r = self.eval(&b.node.rhs)?;
                let lt = self.object_type(&b.node.lhs)?.decay();
                let rt = self.object_type(&b.node.rhs)?.decay();
                if let Some(c) = cmp_op(op) {
                    return self.compare(c, l, r);
                }
                let a = arith_op(op).ok_or_else(|| Stop::give_up("an operator the interpreter does not run"))?;
                self.operate(a, l, &lt, r, &rt)
            }
        }
    }

    /// `l op r` on integers or pointers (`+`, `-` with pointers).
    fn operate(&mut self, op: ArithOp, l: Value, lt: &CType, r: Value, rt: &CType) -> Result<Value, Stop> {
        let (l, r) = match (l, r) {
            (l @ Value::Symbolic(_), r @ (Value::Symbolic(_) | Value::Int(..))) | (l @ Value::Int(..), r @ Value::Symbolic(_)) => return self.symbolic_binary(op, l, r),
            (l, r) => (forget(l), forget(r)),
        };
        match (l, r) {
            (Value::Int(ta, a), Value::Int(tb, b)) => value::binary(&self.ar, op, (ta, a.as_ref()), (tb, b.as_ref())),
            (Value::Ptr(p), Value::Int(_, i)) if matches!(op, ArithOp::Add | ArithOp::Sub) => {
                let CType::Ptr(elem) = lt else { return Err(Stop::give_up("pointer arithmetic on a non-pointer type")) };
                Ok(Value::Ptr(Some(self.offset(p, i, elem, op == ArithOp::Sub)?)))
            }
            (Value::Int(_, i), Value::Ptr(p)) if op == ArithOp::Add => {
                let CType::Ptr(elem) = rt else { return Err(Stop::give_up("pointer arithmetic on a non-pointer type")) };
                Ok(Value::Ptr(Some(self.offset(p, i, elem, false)?)))
            }
            (Value::Ptr(Some(Ptr::At { block: x, offset: a })), Value::Ptr(Some(Ptr::At { block: y, offset: b }))) if op == ArithOp::Sub && x == y => {
                let CType::Ptr(elem) = lt else { return Err(Stop::give_up("a pointer difference of no pointer type")) };
                let size = self.size(elem)? as i64;
                if size == 0 || (a - b) % size != 0 {
                    return Err(Stop::give_up("a pointer difference that is not a whole number of elements"));
                }
                Ok(Value::int(self.ar.machine().ptrdiff_t(), (a - b) / size))
            }
            (Value::Ptr(Some(Ptr::Null)), Value::Ptr(Some(Ptr::Null))) if op == ArithOp::Sub => Ok(Value::int(self.ar.machine().ptrdiff_t(), 0)),
            (Value::Address(ta, p), Value::Int(tb, c)) if matches!(op, ArithOp::Add | ArithOp::Sub) => self.address_plus((ta, p), (tb, c), op == ArithOp::Sub),
            (Value::Int(ta, c), Value::Address(tb, p)) if op == ArithOp::Add => self.address_plus((tb, p), (ta, c), false),
            (Value::Address(ta, Ptr::At { block: x, offset: a }), Value::Address(tb, Ptr::At { block: y, offset: b })) if op == ArithOp::Sub && x == y => {
                let ty = self.ar.machine().usual(ta, tb);
                value::convert(&self.ar, (self.ar.machine().ptrdiff_t(), Some(&BigInt::from(a - b))), ty)
            }
            _ => Err(Stop::give_up(format!("`{}` on these operands", op.symbol()))),
        }
    }

    /// The address `p` plus (or minus) the integer `c`, in the type of the
    /// usual conversions of `ta` and `tb`: the same object's address
    /// moved by `c` bytes (an unsigned `c` wraps: `+ (unsigned long)-8`
    /// moves back 8).
    fn address_plus(&self, (ta, p): (IntType, Ptr), (tc, c): (IntType, Option<BigInt>), minus: bool) -> Result<Value, Stop> {
        let ty = self.ar.machine().usual(ta, tc);
        if self.int_size(ty) != self.pointer_size() {
            return Err(Stop::give_up("an address in an integer narrower than a pointer"));
        }
        let Some(c) = c else { return Ok(Value::Int(ty, None)) };
        let Value::Int(_, Some(c)) = value::convert(&self.ar, (tc, Some(&c)), ty)? else { return Err(Stop::give_up("an address offset not folded")) };
        let bits = ty.bits();
        let c = if c >= BigInt::from(1) << (bits - 1) { c - (BigInt::from(1) << bits) } else { c };
        let c = if minus { -c } else { c };
        match p {
            Ptr::At { block, offset } => {
                let moved = i64::try_from(BigInt::from(offset) + c).map_err(|_| Stop::give_up("an address moved out of range"))?;
                Ok(Value::Address(ty, Ptr::At { block, offset: moved }))
            }
            _ => Err(Stop::give_up("arithmetic on a function's address")),
        }
    }

    /// `address c k` (`k c address` when `flipped`) for an object's or a
    /// function's address of type `ta` and the constant `k` of type `tk`, compared as
    /// unsigned integers: decided where `k` lies outside the range objects
    /// may lie in (`MachineModel::object_addresses`:
    /// `(unsigned long)p > (unsigned long)-4095` is Linux's `IS_ERR`).
    fn address_against(&self, c: CmpOp, ta: IntType, (tk, k): (IntType, BigInt), flipped: bool) -> Result<Value, Stop> {
        let m = *self.ar.machine();
        let ty = m.usual(ta, tk);
        if ty.is_signed() {
            return Err(Stop::give_up("an address compared as a signed integer"));
        }
        let Value::Int(_, Some(k)) = value::convert(&self.ar, (tk, Some(&k)), ty)? else { return Err(Stop::give_up("a constant not folded")) };
        let (lo, hi) = m.object_addresses();
        // Whether the address is above `k` (every object's is, or none's).
        let above = if k < BigInt::from(lo) {
            true
        } else if k > BigInt::from(hi) {
            false
        } else {
            return Err(Stop::give_up("an address compared with a constant objects may lie at"));
        };
        let left_above = above != flipped;
        let r = match c {
            CmpOp::Eq => false,
            CmpOp::Ne => true,
            CmpOp::Lt | CmpOp::Le => !left_above,
            CmpOp::Gt | CmpOp::Ge => left_above,
        };
        Ok(Value::int(m.int(), u8::from(r)))
    }

    /// Whether `p` and `q` hold the same address. A pointer made from an
    /// integer is another object's address only if that integer lies where
    /// objects may lie (`MachineModel::object_addresses`): undecided there.
    /// Addresses into two objects are unequal only where C says so (see
    /// [`crate::c::meaning::distinct_objects`]): one object's end against
    /// another's start, an object whose lifetime ended, literals that may
    /// share storage are undecided.
    fn same_address(&self, p: &Ptr, q: &Ptr) -> Result<bool, Stop> {
        match (p, q) {
            (Ptr::Integer(a), Ptr::Integer(b)) => Ok(a == b),
            (Ptr::Integer(_), Ptr::Null) | (Ptr::Null, Ptr::Integer(_)) => Ok(false),
            (Ptr::Integer(a), _) | (_, Ptr::Integer(a)) => {
                let (lo, hi) = self.ar.machine().object_addresses();
                if (lo..=hi).contains(a) {
                    Err(Stop::give_up("an address compared with a pointer made from an integer objects may lie at"))
                } else {
                    Ok(false)
                }
            }
            (Ptr::At { block: x, offset: a }, Ptr::At { block: y, offset: b }) if x != y => {
                use crate::c::meaning::{distinct_objects, literals_may_share, AddressEquality, ObjectAddress, Unspecified};
                let (bx, by) = (&self.mem.blocks[*x], &self.mem.blocks[*y]);
                let object = |b: &super::memory::Block, offset: i64| ObjectAddress { offset, size: b.bytes.len() as i64, alive: b.alive };
                let merged = bx.kind == Kind::Literal && by.kind == Kind::Literal && literals_may_share(&bx.bytes, &by.bytes);
                match distinct_objects(object(bx, *a), object(by, *b)) {
                    AddressEquality::Decided(false) if merged => Err(Stop::give_up(Unspecified::MergedLiterals.describe())),
                    AddressEquality::Decided(equal) => Ok(equal),
                    AddressEquality::Unspecified(why) => Err(Stop::give_up(why.describe())),
                }
            }
            _ => Ok(p == q),
        }
    }

    pub(crate) fn compare(&mut self, c: CmpOp, l: Value, r: Value) -> Result<Value, Stop> {
        let int = self.ar.machine().int();
        let as_ptr = |v: Value| -> Result<Option<Ptr>, Stop> {
            match v {
                Value::Ptr(p) => Ok(p),
                Value::Address(_, p) => Ok(Some(p)),
                Value::Int(_, Some(z)) if z.is_zero() => Ok(Some(Ptr::Null)),
                Value::Int(_, None) => Ok(None),
                _ => Err(Stop::give_up("a pointer compared with a non-zero integer")),
            }
        };
        let (l, r) = match (l, r) {
            (l @ Value::Symbolic(_), r @ (Value::Symbolic(_) | Value::Int(..))) | (l @ Value::Int(..), r @ Value::Symbolic(_)) => return self.symbolic_compare(c, l, r),
            (l, r) => (forget(l), forget(r)),
        };
        match (l, r) {
            (Value::Int(ta, a), Value::Int(tb, b)) => value::compare(&self.ar, c, (ta, a.as_ref()), (tb, b.as_ref())),
            (Value::Address(ta, _), Value::Int(tk, Some(k))) if !k.is_zero() => self.address_against(c, ta, (tk, k), false),
            (Value::Int(tk, Some(k)), Value::Address(ta, _)) if !k.is_zero() => self.address_against(c, ta, (tk, k), true),
            (l, r) => {
                let (Some(p), Some(q)) = (as_ptr(l)?, as_ptr(r)?) else { return Ok(Value::Int(int, None)) };
                // The order of two addresses: in one object, or two
                // pointers made from integers.
                let order = match (&p, &q) {
                    (Ptr::At { block: x, offset: a }, Ptr::At { block: y, offset: b }) if x == y => Some(a.cmp(b)),
                    (Ptr::Integer(a), Ptr::Integer(b)) => Some(a.cmp(b)),
                    _ => None,
                };
                let r = match (c, order) {
                    (CmpOp::Eq, _) => self.same_address(&p, &q)?,
                    (CmpOp::Ne, _) => !self.same_address(&p, &q)?,
                    (CmpOp::Lt, Some(o)) => o.is_lt(),
                    (CmpOp::Le, Some(o)) => o.is_le(),
                    (CmpOp::Gt, Some(o)) => o.is_gt(),
                    (_, Some(o)) => o.is_ge(),
                    (_, None) => return Err(Stop::give_up("pointers into different objects compared by order")),
                };
                Ok(Value::int(int, u8::from(r)))
            }
        }
    }

    /// `({ ...; x; })`: the block run in a scope of its own; its value is
    /// its last expression's.
    fn statement_expression(&mut self, s: &'a Node<Statement>) -> Result<Value, Stop> {
        let Statement::Compound(items) = &s.node else { return Err(Stop::give_up("a statement expression")) };
        self.push_scope();
        // A descent does not enter an expression: no checkpoint in it.
        self.no_checkpoint += 1;
        let r = self.block_value(items);
        self.no_checkpoint -= 1;
        self.pop_scope();
        r
    }

    fn block_value(&mut self, items: &'a [Node<BlockItem>]) -> Result<Value, Stop> {
        let Some((last, rest)) = items.split_last() else { return Ok(Value::Void) };
        for item in rest {
            if !matches!(self.item(item)?, super::stmt::Flow::Normal) {
                return Err(Stop::give_up("a jump out of a statement expression"));
            }
        }
        match &last.node {
            BlockItem::Statement(st) => match &st.node {
                Statement::Expression(Some(x)) => self.eval(x),
                _ => match self.item(last)? {
                    super::stmt::Flow::Normal => Ok(Value::Void),
                    _ => Err(Stop::give_up("a jump out of a statement expression")),
                },
            },
            _ => {
                self.item(last)?;
                Ok(Value::Void)
            }
        }
    }
}


/// The scope entry of a compound literal: a name that is no identifier
/// (see `lasso.rs`, which shows identifiers only).
pub(crate) fn compound_literal_key(c: &Node<CompoundLiteral>) -> String {
    format!("(compound literal)@{:x}", c as *const Node<CompoundLiteral> as usize)
}

/// Whether a scope entry is a compound literal's rather than a variable's.
pub(crate) fn is_compound_literal_key(name: &str) -> bool {
    name.starts_with("(compound literal)")
}
