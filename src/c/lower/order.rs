//! C leaves the order of evaluation of operands and arguments unspecified:
//! where the side effects of calls interfere, every order is lowered as a
//! path of its own, and recorded as an approximation (a compiler picks one
//! order, so no NO may rest on the choice).

use super::Lowerer;
use crate::c::arith::Val;
use crate::error::Result;
use crate::ir::{Action, IntType};
use lang_c::ast::*;
use lang_c::span::Node;

impl<'a> Lowerer<'a> {
    /// Whether the effects of one expression may change what another
    /// computes or does: then C's unspecified order of evaluation matters.
    pub(super) fn interfere(&self, x: &Node<Expression>, y: &Node<Expression>) -> bool {
        let calls = |e: &Node<Expression>| {
            self.expression_facts(e).callees.iter().any(|c| self.functions.get(c).is_some_and(|f| f.def.is_some()))
        };
        (calls(x) && self.has_effects(y)) || (calls(y) && self.has_effects(x))
    }

    /// Integer values of `es` under every order of evaluation (C leaves the
    /// order of operands and arguments unspecified): one path per order,
    /// joined, the values in temporaries.
    pub(super) fn values_in_every_order(&mut self, es: &[&'a Node<Expression>], s: lang_c::span::Span) -> Result<Vec<Val>> {
        let orders = permutations(es.len());
        if orders.len() > 6 {
            return Err(self.unsupported(s, "more than three operands whose side effects interfere (every order of evaluation)"));
        }
        let start = self.cur.clone();
        let mut slots: Vec<Option<(String, IntType)>> = vec![None; es.len()];
        let mut ends = Vec::new();
        for order in orders {
            self.cur = start.clone();
            let mut vals: Vec<Option<Val>> = vec![None; es.len()];
            for &i in &order {
                let v = self.operand_value(es[i])?;
                vals[i] = Some(self.snapshot(v));
            }
            for (i, v) in vals.into_iter().enumerate() {
                let Some(v) = v else { continue };
                let (name, ty) = match &slots[i] {
                    Some(slot) => slot.clone(),
                    None => {
                        let slot = (self.cfg.temp("order", v.ty), v.ty);
                        slots[i] = Some(slot.clone());
                        slot
                    }
                };
                let v = self.arith.convert(v, ty);
                self.emit(Action::Assign(name, v.term));
            }
            ends.extend(self.cur.take());
        }
        self.cur = self.join(ends, s, "any order of evaluation");
        // A compiler picks one order: a NO must not rest on the choice.
        let at = self.span(s);
        self.note_approximation(at, "operands evaluated in every order (C leaves the order unspecified)");
        Ok(slots
            .into_iter()
            .map(|slot| match slot {
                Some((name, ty)) => self.arith.var(&name, ty),
                None => self.arith.int(0),
            })
            .collect())
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
