//! C leaves the order of evaluation of operands and arguments unspecified:
//! where the side effects of calls interfere, every order is lowered as a
//! path of its own, and recorded as an approximation (a compiler picks one
//! order, so no NO may rest on the choice).

use crate::c::lower::typed::*;
use super::calls::library::{keeps_memory, OUTPUT};
use super::Lowerer;
use super::memory::PtrVal;
use crate::ir::Approximation;
use crate::c::arith::{ArithOp, Val};
use crate::c::types::CType;
use crate::term::Term;
use crate::error::Result;
use crate::ir::{Action, IntType};
use lang_c::ast::*;
use lang_c::span::Node;

impl<'a> Lowerer<'a> {
    /// Whether the effects of one expression may change what another
    /// computes or does: then C's unspecified order of evaluation matters.
    pub(super) fn interfere(&self, x: &Node<Expression>, y: &Node<Expression>) -> bool {
        (self.calls_the_program(x) && self.has_effects(y)) || (self.calls_the_program(y) && self.has_effects(x))
    }

    /// Whether `e` calls a function of the program (whose effects may
    /// reach anything).
    pub(super) fn calls_the_program(&self, e: &Node<Expression>) -> bool {
        self.expression_facts(e).callees.iter().any(|c| self.types.signatures().is_defined(c))
    }

    /// Whether the functions `e` calls (and those they call) may change
    /// state that outlives them: a global, a static local, memory.
    pub(super) fn calls_may_write_state(&self, e: &Node<Expression>) -> bool {
        self.reachable_functions(self.expression_facts(e).callees).iter().any(|(f, facts)| match facts {
            Some(x) => x.writes_memory || x.has_static_locals || x.assigned.iter().any(|n| self.globals.contains(n)),
            // Code outside the program may write what its pointer
            // arguments reach, unless the lowerer knows it does not.
            None => !keeps_memory(f) && !OUTPUT.contains(&f.as_str()),
        })
    }

    /// `l = r` (`op` is `None`) or `l op= r` where the effects of the two
    /// sides interfere: the address of `l`, the value of `r` and (for
    /// `op=`) the read of `l` are evaluated in every order C allows, one
    /// path each, joined; the assignment's value is in a temporary.
    pub(super) fn assign_in_every_order(
        &mut self,
        l: &'a Node<Expression>,
        r: &'a Node<Expression>,
        op: Option<ArithOp>,
        s: lang_c::span::Span,
    ) -> Result<Val> {
        #[derive(Clone, Copy)]
        enum Step {
            Address,
            Read,
            Value,
        }
        use Step::*;
        let orders: &[&[Step]] = match op {
            None => &[&[Address, Value], &[Value, Address]],
            Some(_) => &[&[Address, Read, Value], &[Address, Value, Read], &[Value, Address, Read]],
        };
        let start = self.flow.cursor().cloned();
        let mut slot: Option<(String, IntType)> = None;
        let mut ends = Vec::new();
        for order in orders {
            self.flow.set(start.clone());
            let (mut lv, mut old, mut rhs) = (None, None, None);
            for step in order.iter() {
                match step {
                    Address => {
                        let x = self.lvalue(l)?;
                        lv = Some(self.protect_lvalue(x, r));
                    }
                    Read => {
                        let Some(x) = &lv else { unreachable!("the address is computed before the read") };
                        let v = self.load(x);
                        old = Some(self.snapshot(v));
                    }
                    Value => {
                        let v = self.expr(r)?;
                        rhs = Some(self.snapshot(v));
                    }
                }
            }
            let (Some(lv), Some(rhs)) = (lv, rhs) else { unreachable!("every order has both sides") };
            let new = match (op, old) {
                (Some(aop), Some(old)) => self.arith_outcome(aop, old, rhs, s)?,
                _ => rhs,
            };
            let new = self.arith.convert(new, lv.ty());
            let new = self.snapshot(new);
            self.store(&lv, new.clone());
            self.set_order_slot(&mut slot, new);
            ends.extend(self.flow.take());
        }
        self.join_orders(ends, s);
        let (name, ty) = slot.unwrap_or_else(|| unreachable!("at least one order"));
        Ok(self.arith.var(&name, ty))
    }

    /// Integer values of `es` under every order of evaluation (C leaves the
    /// order of operands and arguments unspecified): one path per order,
    /// joined, the values in temporaries.
    pub(super) fn values_in_every_order(&mut self, es: &[&'a Node<Expression>], s: lang_c::span::Span) -> Result<Vec<Val>> {
        let operands: Vec<(&'a Node<Expression>, Option<CType>)> = es.iter().map(|&e| (e, None)).collect();
        Ok(self
            .operands_in_every_order(&operands, s)?
            .into_iter()
            .map(|o| match o {
                Operand::Value(v) => v,
                Operand::Pointer(_) => unreachable!("no pointer operand was asked for"),
            })
            .collect())
    }

    /// [`Lowerer::values_in_every_order`] for operands that may be pointers
    /// (`Some(pointee)`: block, offset and size each go to a temporary).
    pub(super) fn operands_in_every_order(
        &mut self,
        es: &[(&'a Node<Expression>, Option<CType>)],
        s: lang_c::span::Span,
    ) -> Result<Vec<Operand>> {
        let orders = permutations(es.len());
        if orders.len() > 6 {
            return Err(self.unsupported(s, "more than three operands whose side effects interfere (every order of evaluation)"));
        }
        let start = self.flow.cursor().cloned();
        let parts = |pointee: &Option<CType>| if pointee.is_some() { 3 } else { 1 };
        let mut slots: Vec<Vec<Option<(String, IntType)>>> = es.iter().map(|(_, p)| vec![None; parts(p)]).collect();
        let mut ends = Vec::new();
        for order in orders {
            self.flow.set(start.clone());
            let mut vals: Vec<Vec<Val>> = vec![Vec::new(); es.len()];
            for &i in &order {
                let (e, pointee) = &es[i];
                vals[i] = match pointee {
                    None => {
                        let v = self.operand_value(e)?;
                        vec![self.snapshot(v)]
                    }
                    Some(pointee) => {
                        let p = self.pointer(e, Some(pointee.clone()))?;
                        let p = self.snapshot_pointer(p);
                        [p.base, p.off, p.size].into_iter().map(|t| Val { term: t, ty: IntType::LONG, range: None }).collect()
                    }
                };
            }
            for (operand_slots, vs) in slots.iter_mut().zip(vals) {
                for (slot, v) in operand_slots.iter_mut().zip(vs) {
                    self.set_order_slot(slot, v);
                }
            }
            ends.extend(self.flow.take());
        }
        self.join_orders(ends, s);
        let mut out = Vec::new();
        for ((_, pointee), operand_slots) in es.iter().zip(slots) {
            let mut terms: Vec<Val> = operand_slots
                .into_iter()
                .map(|slot| match slot {
                    Some((name, ty)) => self.arith.var(&name, ty),
                    None => self.arith.int(0),
                })
                .collect();
            out.push(match pointee {
                None => Operand::Value(terms.remove(0)),
                Some(pointee) => {
                    let mut t = terms.into_iter().map(|v| v.term);
                    let mut part = || t.next().unwrap_or_else(|| Term::int(0));
                    let (base, off, size) = (part(), part(), part());
                    Operand::Pointer(PtrVal { base, off, size, pointee: pointee.clone() })
                }
            });
        }
        Ok(out)
    }
}

/// An operand evaluated in every order: an integer or a pointer.
pub(super) enum Operand {
    Value(Val),
    Pointer(PtrVal),
}

impl Lowerer<'_> {
    /// `slot := v` on this order's path; the slot (a temporary of `v`'s
    /// type) is made by the first order that gets there.
    fn set_order_slot(&mut self, slot: &mut Option<(String, IntType)>, v: Val) {
        let (name, ty) = match slot {
            Some(s) => s.clone(),
            None => slot.insert((self.cfg.temp("order", v.ty), v.ty)).clone(),
        };
        let v = self.arith.convert(v, ty);
        self.emit(Action::Assign(name, v.term));
    }

    /// Join the paths of the orders, and record that a compiler picks one
    /// of them: a NO must not rest on the choice.
    fn join_orders(&mut self, ends: Vec<crate::c::cfg::Cursor>, s: lang_c::span::Span) {
        self.join_here(ends, s, "any order of evaluation");
        let at = self.span(s);
        self.note_approximation(at, Approximation::EvaluationOrder);
    }
}

/// Every order of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for k in 0..=p.len() {
            let mut q = p.clone();
            q.insert(k, n - 1);
            out.push(q);
        }
    }
    out
}
