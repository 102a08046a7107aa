//! Where the lowering is in the graph being built: the cursor (the open
//! path actions are appended to; `None` in unreachable code), the entry
//! and exit locations, the guards under which the expression being lowered
//! is evaluated, and the nesting depth. Only this file changes them; the
//! rest of the lowering moves the cursor through [`Flow`]'s methods and
//! emits through the `Lowerer` methods defined here.

use super::Lowerer;
use crate::c::arith::Val;
use crate::c::cfg::Cursor;
use crate::error::Result;
use crate::ir::{Action, IntType, LocId};
use crate::term::Term;

/// Bound on syntactic nesting during lowering (statements and expressions).
pub(in crate::c) const MAX_DEPTH: usize = 3000;

pub(crate) struct Flow {
    /// Where lowering currently is; `None` in unreachable code.
    cur: Option<Cursor>,
    entry: LocId,
    exit: LocId,
    /// Conditions under which the expression being lowered is evaluated at
    /// all (the left side of `&&`/`||`, the condition of `?:`): the
    /// assumptions of an operand C may leave unevaluated (in bounds, divisor
    /// not zero, no overflow) hold only under them.
    guards: Vec<Term>,
    depth: usize,
}

impl Flow {
    /// Lowering between `entry` and `exit`, not yet started.
    pub fn new(entry: LocId, exit: LocId) -> Flow {
        Flow { cur: None, entry, exit, guards: Vec::new(), depth: 0 }
    }
    pub fn entry(&self) -> LocId {
        self.entry
    }
    pub fn exit(&self) -> LocId {
        self.exit
    }
    /// The open path, if the code being lowered is reachable.
    pub fn cursor(&self) -> Option<&Cursor> {
        self.cur.as_ref()
    }
    pub fn cursor_mut(&mut self) -> Option<&mut Cursor> {
        self.cur.as_mut()
    }
    pub fn is_reachable(&self) -> bool {
        self.cur.is_some()
    }
    /// End the open path here, handing it to the caller (to jump or join).
    pub fn take(&mut self) -> Option<Cursor> {
        self.cur.take()
    }
    /// Continue lowering on `c` (`None`: unreachable).
    pub fn set(&mut self, c: Option<Cursor>) {
        self.cur = c;
    }
    /// Continue at location `l`.
    pub fn go_to(&mut self, l: LocId) {
        self.cur = Some(Cursor::at(l));
    }
    /// Continue on `c`, returning the path left (to [`Flow::restore`]).
    pub fn replace(&mut self, c: Cursor) -> Option<Cursor> {
        self.cur.replace(c)
    }
    /// Continue on a fresh path from the entry, returning the path left.
    pub fn start_at_entry(&mut self) -> Option<Cursor> {
        self.cur.replace(Cursor::at(self.entry))
    }
    /// Go back to `saved`, returning the path that was open.
    pub fn restore(&mut self, saved: Option<Cursor>) -> Option<Cursor> {
        std::mem::replace(&mut self.cur, saved)
    }
    /// Set the guards aside (for code that runs at the program's start).
    pub fn take_guards(&mut self) -> Vec<Term> {
        std::mem::take(&mut self.guards)
    }
    pub fn restore_guards(&mut self, guards: Vec<Term>) {
        self.guards = guards;
    }
    /// `t` as it holds where the expression being lowered is evaluated:
    /// implied by the conditions that evaluate it (see `guards`).
    pub fn under_guards(&self, t: Term) -> Term {
        if self.guards.is_empty() {
            t
        } else {
            Term::or(vec![Term::not(Term::and(self.guards.clone())), t])
        }
    }
}

impl<'a> Lowerer<'a> {
    /// Guard against stack exhaustion on absurdly nested input.
    pub fn enter(&mut self, s: lang_c::span::Span) -> Result<()> {
        self.flow.depth += 1;
        if self.flow.depth > MAX_DEPTH {
            return Err(self.unsupported(s, "statements or expressions nested too deeply"));
        }
        Ok(())
    }
    pub fn leave(&mut self) {
        self.flow.depth = self.flow.depth.saturating_sub(1);
    }

    // ---- emitting actions at the cursor

    pub fn emit(&mut self, a: Action) {
        if let Some(c) = &mut self.flow.cur {
            c.push(a);
        }
    }
    /// `var := v` for a value already converted to the variable's type,
    /// remembering its range on the current path.
    pub fn assign_var(&mut self, var: &str, v: Val) {
        if v.term == Term::var(var) {
            return;
        }
        self.emit(Action::Assign(var.to_string(), v.term));
        if let (Some(c), Some((lo, hi))) = (self.flow.cur.as_mut(), v.range) {
            c.set_range(var, lo, hi);
        }
    }
    pub fn emit_assume(&mut self, t: Term) {
        let t = self.flow.under_guards(t);
        self.emit_assume_as_is(t);
    }
    /// `assume t` for a condition already under the guards.
    pub fn emit_assume_as_is(&mut self, t: Term) {
        match t {
            Term::Bool(true) => {}
            Term::Bool(false) => self.flow.cur = None,
            t => self.emit(Action::Assume(t)),
        }
    }
    /// `choose v; assume range`: a value of type `ty` the model does not
    /// know (the default: a NO witness must survive every such value).
    pub fn havoc(&mut self, name: &str, ty: IntType) {
        self.emit(Action::Choose(name.to_string()));
        if let Some(r) = self.arith.range_assumption(name, ty) {
            self.emit_assume(r);
        }
    }
    /// `havoc v; assume range`: an input of type `ty` from the program's
    /// environment (a NO witness may pick it).
    pub fn input(&mut self, name: &str, ty: IntType) {
        self.emit(Action::Havoc(name.to_string()));
        if let Some(r) = self.arith.range_assumption(name, ty) {
            self.emit_assume(r);
        }
    }
    /// Lower `f` as an operand that runs only when `guard` holds; its
    /// assumptions become `guard -> assumption`. Only for operands without
    /// side effects (those are lowered as control flow instead).
    pub fn guarded<T>(&mut self, guard: Term, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.flow.guards.push(guard);
        let r = f(self);
        self.flow.guards.pop();
        r
    }
    /// The paths `cursors` joined at a new location.
    pub fn join(&mut self, cursors: Vec<Cursor>, s: lang_c::span::Span, note: &str) -> Option<Cursor> {
        let span = self.span(s);
        self.cfg.join(cursors, span, note)
    }
    /// Continue lowering where the paths `cursors` join.
    pub fn join_here(&mut self, cursors: Vec<Cursor>, s: lang_c::span::Span, note: &str) {
        let joined = self.join(cursors, s, note);
        self.flow.cur = joined;
    }
}
