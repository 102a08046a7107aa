//! Integers that hold addresses. Code produced by CIL (every Linux driver
//! of SV-COMP) computes addresses as integers and converts them back:
//!
//! ```c
//! __cil_tmp5 = (unsigned long)(chip_addr) + __cil_tmp4;
//! __cil_tmp6 = *((unsigned short *)__cil_tmp5);
//! ```
//!
//! The model gives an address no integer value beyond what flat addresses
//! fix (see [`Lowerer::pointer_as_integer`]: null is 0, a pointer into a
//! block is not), so without more such a load reads through any pointer. Here the model keeps, beside an integer variable of a
//! pointer's width that was assigned such an expression, the pointer it
//! holds (its *held address*: base, offset, size, and whether it is still
//! held). Converting the variable back to a pointer gives that pointer.
//!
//! # What it assumes
//!
//! gcc's flat addresses: converting a pointer to an integer of the
//! pointer's width, adding or subtracting an integer `k` and converting
//! back gives the pointer moved by `k` bytes (`k` read as a signed value
//! of the pointer's width, so `x + (unsigned long)-8` moves back). A run
//! that then accesses outside the block the pointer came from is dropped,
//! as every out-of-bounds access is (see the memory-safety assumption in
//! [`super`]).
//!
//! # Why it is sound
//!
//! The integer's own value stays any value, as before; only the pointer
//! it converts back to is known, and only while the variable keeps the
//! value it was given: every other write of the variable — whatever
//! writes it, an assignment, an input, a call of code outside the
//! program, a summary — ends the held address, by an IR pass over the
//! finished program ([`forget_overwritten`]) rather than by each place
//! in the lowering that may write a variable. A held address that may
//! have ended converts to any pointer, as every other integer does.

use crate::c::lower::typed::*;
use super::pointer::ConstTerm;
use super::PtrVal;
use crate::c::lower::{LValue, Lowerer, Symbol};
use crate::c::arith::Val;
use crate::c::types::CType;
use crate::error::Result;
use crate::ir::origin::HeldAddressPart;
use crate::ir::{Action, IntType, Origin};
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// The variables holding the address an integer variable holds.
#[derive(Clone, Debug)]
pub(crate) struct HeldAddressVars {
    base: String,
    off: String,
    size: String,
    /// 1 while the integer variable keeps the value it was given with
    /// the address; 0 once anything else wrote it.
    held: String,
}

/// The pointer an integer expression converts back to: `held` is 1 (or
/// a 0/1 term) where the expression still holds it.
pub(crate) struct HeldAddress {
    base: Term,
    off: Term,
    size: Term,
    held: Term,
}

/// The held addresses of integer variables, by variable.
pub(crate) type HeldAddresses = HashMap<String, HeldAddressVars>;

impl<'a> Lowerer<'a> {
    /// Whether `t` is an integer type as wide as a pointer.
    fn pointer_wide(&self, t: IntType) -> bool {
        !matches!(t, IntType::Bool) && t.bits() == 8 * self.arith.machine().pointer_bytes()
    }

    /// Whether an integer expression evidently holds an address (read
    /// without evaluating anything): a pointer named by a variable (or
    /// `&x`) converted to an integer as wide as a pointer, a variable
    /// holding one, and such an expression plus or minus an integer
    /// named by a variable or a constant.
    fn holds_address(&mut self, e: &'a Node<Expression>) -> Result<bool> {
        Ok(match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Symbol::Var { name, .. }) => self.mem.held_addresses.contains_key(name),
                _ => false,
            },
            Expression::Cast(c) => {
                let CType::Int(t) = self.type_of(e)? else { return Ok(false) };
                if !self.pointer_wide(t) {
                    false
                } else if self.is_pointer(&c.node.expression)? {
                    self.named_pointer(&c.node.expression)
                } else {
                    self.holds_address(&c.node.expression)?
                }
            }
            Expression::BinaryOperator(b) => {
                let CType::Int(t) = self.type_of(e)? else { return Ok(false) };
                if !self.pointer_wide(t) {
                    return Ok(false);
                }
                let (l, r) = (&b.node.lhs, &b.node.rhs);
                match b.node.operator.node {
                    BinaryOperator::Plus => {
                        (self.holds_address(l)? && self.named_integer(r)? && !self.holds_address(r)?)
                            || (self.holds_address(r)? && self.named_integer(l)? && !self.holds_address(l)?)
                    }
                    BinaryOperator::Minus => self.holds_address(l)? && self.named_integer(r)? && !self.holds_address(r)?,
                    _ => false,
                }
            }
            _ => false,
        })
    }

    /// A pointer whose value is read without effects or loads: a pointer
    /// variable, an array, `&x`, or a cast of one.
    fn named_pointer(&mut self, e: &'a Node<Expression>) -> bool {
        match &e.node {
            Expression::Identifier(id) => {
                matches!(self.lookup(&id.node.name), Some(Symbol::Ptr(_) | Symbol::Object { ty: CType::Array(..), .. }))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => match &u.node.operand.node {
                Expression::Identifier(id) => matches!(self.lookup(&id.node.name), Some(Symbol::Object { .. })),
                _ => false,
            },
            Expression::Cast(c) => matches!(self.type_of(e), Ok(CType::Ptr(_))) && self.named_pointer(&c.node.expression),
            _ => false,
        }
    }

    /// An integer read without effects: a constant, an integer variable,
    /// `sizeof`, or a conversion of one.
    fn named_integer(&mut self, e: &'a Node<Expression>) -> Result<bool> {
        Ok(match &e.node {
            Expression::Constant(c) => matches!(c.node, Constant::Integer(_) | Constant::Character(_)),
            Expression::Identifier(id) => matches!(self.lookup(&id.node.name), Some(Symbol::Var { .. } | Symbol::Const(_))),
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) => !self.has_effects(e),
            Expression::Cast(c) => matches!(self.type_of(e)?, CType::Int(_)) && self.named_integer(&c.node.expression)?,
            _ => false,
        })
    }

    /// The address an integer expression holds (see [`Self::holds_address`]).
    /// Evaluates only variables, constants and `sizeof`, which emit nothing
    /// the program's value of the expression does not also emit.
    fn held_address(&mut self, e: &'a Node<Expression>) -> Result<Option<HeldAddress>> {
        if !self.holds_address(e)? {
            return Ok(None);
        }
        self.held_address_of(e).map(Some)
    }

    fn held_address_of(&mut self, e: &'a Node<Expression>) -> Result<HeldAddress> {
        match &e.node {
            Expression::Identifier(id) => {
                let Some(Symbol::Var { name, .. }) = self.lookup(&id.node.name) else {
                    return Err(self.syntax(e.span, "an integer variable holding an address"));
                };
                let vars = self.mem.held_addresses[name].clone();
                Ok(HeldAddress {
                    base: Term::var(vars.base),
                    off: Term::var(vars.off),
                    size: Term::var(vars.size),
                    held: Term::var(vars.held),
                })
            }
            Expression::Cast(c) if self.is_pointer(&c.node.expression)? => {
                let p = self.pointer(&c.node.expression, None)?;
                Ok(HeldAddress { base: p.base, off: p.off, size: p.size, held: Term::int(1) })
            }
            Expression::Cast(c) => self.held_address_of(&c.node.expression),
            Expression::BinaryOperator(b) => {
                let (l, r) = (&b.node.lhs, &b.node.rhs);
                let minus = b.node.operator.node == BinaryOperator::Minus;
                let (address, by) = if self.holds_address(l)? { (l, r) } else { (r, l) };
                let mut held = self.held_address_of(address)?;
                // The integer added, as a signed value of the pointer's
                // width (gcc wraps the sum, so adding 2^64 - 8 moves back).
                let by = self.expr(by)?;
                let by = self.arith.convert(by, self.arith.machine().ptrdiff_t()).term;
                held.off = if minus { Term::sub(held.off, by) } else { Term::add(vec![held.off, by]) };
                Ok(held)
            }
            _ => Err(self.syntax(e.span, "an expression holding an address")),
        }
    }

    /// The address the right side of `lv = r` holds, when `lv` is an
    /// integer variable as wide as a pointer; computed before `r` is
    /// evaluated (it reads the state `r` reads).
    pub(in crate::c) fn address_assigned(&mut self, lv: &LValue, r: &'a Node<Expression>) -> Result<Option<HeldAddress>> {
        match lv {
            LValue::Var { ty, .. } => self.address_given(*ty, r),
            _ => Ok(None),
        }
    }

    /// The address `e` holds when it is given to an integer variable of
    /// type `ty` (an assignment or an initializer).
    pub(in crate::c) fn address_given(&mut self, ty: IntType, e: &'a Node<Expression>) -> Result<Option<HeldAddress>> {
        if self.pointer_wide(ty) {
            self.held_address(e)
        } else {
            Ok(None)
        }
    }

    /// The integer variable `var` is about to be given a value holding
    /// `address` (terms over the state before the assignment, which may
    /// change what they read: `x = x + 8`). Sets the address's parts; the
    /// action returned, which marks it held, follows the assignment.
    pub(in crate::c) fn hold_address(&mut self, var: &str, address: HeldAddress) -> Action {
        let vars = match self.mem.held_addresses.get(var) {
            Some(v) => v.clone(),
            None => {
                let [base, off, size, held] = [
                    ("addr.base", HeldAddressPart::Base),
                    ("addr.off", HeldAddressPart::Offset),
                    ("addr.size", HeldAddressPart::Size),
                    ("addr.held", HeldAddressPart::Held),
                ]
                .map(|(suffix, part)| self.cfg.declare_as(&format!("{var}.{suffix}"), "", IntType::LONG, Origin::HeldAddress(part)));
                // Nothing is held before the first such assignment.
                self.globals.push_static_init(Action::Assign(held.clone(), Term::int(0)));
                let vars = HeldAddressVars { base, off, size, held };
                self.mem.held_addresses.insert(var.to_string(), vars.clone());
                vars
            }
        };
        // `held` after the assignment: [`forget_overwritten`] reads a
        // write of the variable followed by one of `held` as the address
        // given here.
        self.emit(Action::Assign(vars.base, address.base));
        self.emit(Action::Assign(vars.off, address.off));
        self.emit(Action::Assign(vars.size, address.size));
        Action::Assign(vars.held, address.held)
    }

    /// The pointer an integer expression converts to, when it holds an
    /// address: that address where it is still held, any pointer
    /// elsewhere (`None`: it holds none; the caller converts it as any
    /// other integer).
    /// The value of pointer `p` converted to the integer type `t`. An
    /// address has no integer value in the model, with two exceptions
    /// that gcc's flat addresses fix: the null pointer moved by `off`
    /// bytes (block 0, as `&((struct s *)0)->f` is) converts to `off`, and
    /// a pointer into a block (an object, a function) converts, at the
    /// pointer's width, to a value other than 0 — so `(unsigned long)p ==
    /// (unsigned long)q` with `q` null is decided as `p == q` is. Any
    /// other value stays unknown (recorded as an approximation).
    pub(in crate::c) fn pointer_as_integer(&mut self, p: &PtrVal, t: IntType, s: lang_c::span::Span) -> Val {
        let ptrdiff = self.arith.machine().ptrdiff_t();
        let at_null = self.arith.convert(Val { term: p.off.clone(), ty: ptrdiff, range: None }, t);
        if p.base == Term::int(0) {
            return at_null;
        }
        let at = self.span(s);
        self.note_approximation(at, crate::ir::Approximation::PointerToInteger);
        let in_block = if self.pointer_wide(t) {
            // Chosen among the nonzero values of the pointer's width: a
            // domain with constant bounds, which the slicer drops with the
            // value when nothing reads it.
            let width = self.arith.machine().size_t();
            let v = self.cfg.temp("addr", width);
            let hi = self.arith.type_range(width).map(|(_, hi)| hi).unwrap_or_default();
            self.emit(Action::Choose(v.clone()));
            self.emit_assume(Term::and(vec![Term::le(Term::int(1), Term::var(v.clone())), Term::le(Term::var(v.clone()), Term::Int(hi))]));
            self.arith.convert(self.arith.var(&v, width), t)
        } else {
            let v = self.cfg.temp("addr", t);
            self.havoc(&v, t);
            self.arith.var(&v, t)
        };
        if p.base.as_int_const().is_some() {
            return in_block;
        }
        let term = Term::ite(Term::eq(p.base.clone(), Term::int(0)), at_null.term, in_block.term);
        Val { term, ty: t, range: None }
    }

    pub(in crate::c) fn pointer_from_held_address(&mut self, e: &'a Node<Expression>, pointee: CType) -> Result<Option<PtrVal>> {
        let Some(address) = self.held_address(e)? else { return Ok(None) };
        if address.held == Term::int(1) {
            return Ok(Some(PtrVal { base: address.base, off: address.off, size: address.size, pointee }));
        }
        // Where it may no longer be held: any pointer (as
        // `unknown_pointer` makes one), assumed only off the held runs, so
        // that where the held flag is known (see [`propagate_within_edge`]) the
        // choice and its assumption fall away.
        let at = self.span(e.span);
        self.note_approximation(at, crate::ir::Approximation::IntegerToPointer);
        let [base, off, size] = self.chosen_pointer_parts();
        let held = Term::eq(address.held, Term::int(1));
        let mut any = vec![Term::le(Term::int(0), base.clone()), Term::le(Term::int(0), size.clone())];
        any.extend(self.existing_block(&base));
        self.emit_assume(Term::or(vec![held.clone(), Term::and(any)]));
        Ok(Some(PtrVal {
            base: Term::ite(held.clone(), address.base, base),
            off: Term::ite(held.clone(), address.off, off),
            size: Term::ite(held, address.size, size),
            pointee,
        }))
    }
}

/// With every write of an integer variable holding an address, the
/// address is no longer held — except the writes [`Lowerer::hold_address`]
/// follows with the address (a write of `held` comes before the next
/// write of the variable on the same edge).
pub(crate) fn forget_overwritten<'e>(edges: impl Iterator<Item = &'e mut Vec<Action>>, held: &HeldAddresses) {
    if held.is_empty() {
        return;
    }
    let flags: HashMap<&str, &str> = held.iter().map(|(v, vars)| (v.as_str(), vars.held.as_str())).collect();
    let parts: std::collections::HashSet<&str> =
        held.values().flat_map(|vars| [vars.base.as_str(), vars.off.as_str(), vars.size.as_str(), vars.held.as_str()]).collect();
    fn written(a: &Action) -> Option<&str> {
        match a {
            Action::Assign(v, _) | Action::Havoc(v) | Action::Choose(v) => Some(v.as_str()),
            Action::Assume(_) | Action::Inexact | Action::Mark(_) => None,
        }
    }
    for actions_of_edge in edges {
        if !actions_of_edge.iter().any(|a| written(a).is_some_and(|v| flags.contains_key(v) || parts.contains(v))) {
            continue;
        }
        let old = std::mem::take(actions_of_edge);
        let mut actions = Vec::with_capacity(old.len() + 1);
        for (i, a) in old.iter().enumerate() {
            // Before the write, not after: a havoc stays next to the
            // assumption of its type's range that follows it (which the
            // slicer reads as the value's domain).
            if let Some((var, flag)) = written(a).and_then(|v| flags.get(v).map(|f| (v, *f))) {
                let given = old[i + 1..].iter().filter_map(|b| written(b)).find(|w| *w == var || *w == flag) == Some(flag);
                if !given {
                    actions.push(Action::Assign(flag.to_string(), Term::int(0)));
                }
            }
            actions.push(a.clone());
        }
        *actions_of_edge = propagate_within_edge(actions, &parts);
    }
}

/// Within one edge, the parts of a held address are read as the terms
/// they were just given, until anything they read is written again: a
/// conversion right after the assignment (the common case:
/// `x = (unsigned long)p + 8; *(T *)x`) reads the pointer itself, not
/// variables kept for it nor a choice between it and any pointer (which
/// a NO could not rest on), and the variables, read nowhere else, are
/// sliced away.
fn propagate_within_edge(actions: Vec<Action>, parts: &std::collections::HashSet<&str>) -> Vec<Action> {
    let mut known: HashMap<String, Term> = HashMap::new();
    let mut out = Vec::with_capacity(actions.len());
    for a in actions {
        let fold = |t: &Term| if known.is_empty() { t.clone() } else { t.subst_with(&|n| known.get(n).cloned()) };
        let a = match a {
            Action::Assign(v, t) => Action::Assign(v, fold(&t)),
            Action::Assume(t) => Action::Assume(fold(&t)),
            other => other,
        };
        if let Action::Assign(v, _) | Action::Havoc(v) | Action::Choose(v) = &a {
            known.remove(v);
            known.retain(|_, t| !t.mentions(v));
            if let Action::Assign(v, t) = &a {
                if parts.contains(v.as_str()) && !t.mentions(v) {
                    known.insert(v.clone(), t.clone());
                }
            }
        }
        out.push(a);
    }
    out
}
