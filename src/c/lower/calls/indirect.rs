//! Calls through function pointers: to the program's functions the
//! pointer may hold (each inlined on its own branch), to code outside the
//! program otherwise, and recursion that goes through a pointer.

use crate::c::lower::typed::*;
use super::MAX_INDIRECT_TARGETS;
use crate::c::arith::Val;
use crate::c::cfg::Cursor;
use crate::c::lower::Lowerer;
use crate::c::types::CType;
use crate::error::Result;
use crate::ir::{Action, Approximation, IntType};
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;

impl<'a> Lowerer<'a> {
    // ---- calls through function pointers

    /// A call through a function pointer: to the target whose block the
    /// pointer holds, among [`CallTyping::indirect_targets`](crate::c::typing::CallTyping::indirect_targets) (exactly one
    /// when the pointer is known), or else to code outside the program (a
    /// library function, or a pointer the model lost), lowered like a call
    /// of a function without a definition.
    pub(super) fn indirect_call(&mut self, c: &'a Node<CallExpression>, want: bool) -> Result<Option<Val>> {
        let target = self.pointer(&c.node.callee, Some(CType::Function))?;
        let target = self.snapshot_pointer(target);
        let targets = self.indirect_targets(c, want)?;
        if targets.len() > MAX_INDIRECT_TARGETS {
            return Err(self.unsupported(c.span, format!("a call through a function pointer with {} possible targets", targets.len())));
        }
        let ret = self.indirect_return_type(&targets);
        let result = match (&ret, want) {
            (CType::Int(t), true) => Some((self.cfg.temp("call%ret", *t), *t)),
            (CType::Void, true) => return Err(self.syntax(c.span, "a call of a void function used as a value")),
            (_, true) => return Err(self.unsupported(c.span, "this result of a call through a function pointer")),
            _ => None,
        };
        let assign = |l: &mut Self, v: Option<Val>| {
            if let (Some((r, t)), Some(v)) = (&result, v) {
                let v = l.arith.convert(v, *t);
                l.emit(Action::Assign(r.clone(), v.term));
            }
        };
        self.indirect_branches(c, &target, &targets, |l, f| {
            let v = l.inline(f, c, want)?;
            assign(l, v);
            Ok(())
        }, |l, name| {
            let v = l.external_call(&name, c, ret.clone(), want)?;
            assign(l, v);
            Ok(())
        })?;
        Ok(result.map(|(r, t)| self.arith.var(&r, t)))
    }

    /// The branches of a call through the function pointer `target`: one
    /// into each of `targets` whose block it may hold (`to_target`), and
    /// one into code outside the program (`to_outside`, given the call as
    /// written) where it may hold none of them; joined after the call.
    pub(crate) fn indirect_branches(
        &mut self,
        c: &'a Node<CallExpression>,
        target: &crate::c::lower::memory::PtrVal,
        targets: &[String],
        mut to_target: impl FnMut(&mut Self, &str) -> Result<()>,
        mut to_outside: impl FnMut(&mut Self, String) -> Result<()>,
    ) -> Result<()> {
        let known = crate::c::lower::memory::const_int(&target.base);
        let blocks: Vec<(String, Term)> = targets.iter().map(|f| (f.clone(), self.function_address(f).base)).collect();
        let start = self.flow.take();
        let mut ends = Vec::new();
        for (f, block) in &blocks {
            if known.is_some() && known != crate::c::lower::memory::const_int(block) {
                continue;
            }
            self.flow.set(start.clone());
            self.emit_assume(Term::eq(target.base.clone(), block.clone()));
            to_target(self, f)?;
            ends.extend(self.flow.take());
        }
        if known.is_none() || !blocks.iter().any(|(_, b)| crate::c::lower::memory::const_int(b) == known) {
            self.flow.set(start);
            for (_, block) in &blocks {
                self.emit_assume(Term::not(Term::eq(target.base.clone(), block.clone())));
            }
            let name = format!("(*{})", self.source_text(c.node.callee.span).trim_start_matches('*'));
            to_outside(self, name)?;
            ends.extend(self.flow.take());
        }
        self.join_here(ends, c.span, "after a call through a pointer");
        Ok(())
    }

    /// The run at the cursor goes on forever here, behind an unknown value
    /// (`choose`) at each step, which no NO can rest on; a proof needs
    /// this place unreachable (the loop has no ranking function).
    pub(in crate::c::lower) fn stay_forever(&mut self, at: Option<crate::ir::Span>, note: String) {
        let marker = |l: &mut Self| {
            let k = l.cfg.temp("stay%unknown", IntType::INT);
            l.emit(Action::Choose(k.clone()));
            l.emit_assume(Term::not(Term::eq(Term::var(k), Term::int(0))));
        };
        marker(self);
        if let Some(cur) = self.flow.take() {
            let stay = self.cfg.new_location(at, note);
            self.cfg.protect(stay);
            self.cfg.jump(cur, stay);
            self.flow.set(Some(Cursor::at(stay)));
            marker(self);
            if let Some(cur) = self.flow.take() {
                self.cfg.jump(cur, stay);
            }
        }
    }

    /// A call of `name` while `name` is being inlined, on a cycle through
    /// a call through a pointer (cycles of direct calls are recursion, see
    /// `recursion.rs`): a run may stay in the call forever, so the model
    /// goes on forever here, behind an unknown value (`choose`) that no
    /// NO can rest on. Sound for YES: a proof needs this place unreachable
    /// (the loop here has no ranking function), and until a run gets here
    /// the model has every run of the program. The arguments are not
    /// evaluated (what they do cannot matter to a run that stays here).
    pub(super) fn recursion_through_pointer(&mut self, name: &str, c: &'a Node<CallExpression>, want: bool) -> Option<Val> {
        let at = self.span(c.span);
        if self.flow.is_reachable() {
            self.note_approximation(at.clone(), Approximation::RecursionThroughPointer { function: name.to_string() });
        }
        self.stay_forever(at, format!("in a recursive call of {name} through a pointer"));
        // No run continues after the call; any value will do (a pointer
        // result too, read through `last_pointer_return`).
        if let (true, Some(CType::Ptr(pointee))) = (want, self.types.signatures().function(name).map(|f| f.ret.clone())) {
            self.mem.set_pointer_result(crate::c::lower::memory::PtrVal::null(*pointee));
        }
        want.then(|| self.arith.int(0))
    }
}
