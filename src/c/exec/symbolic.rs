//! Symbolic inputs: the exploration of every run with each input a
//! variable and each branch on the inputs decided by the path condition.
//!
//! The plain exploration (`runs.rs`) gives each `__VERIFIER_nondet_*` call
//! an unknown value and forks at every condition on it, forgetting which
//! way it went: a program that reads a few inputs once and then runs a
//! long loop comparing them (SV-COMP's sequentialized protocols: node ids
//! read at the start, compared in every round) forks at every test and
//! its runs never end. Here each call returns a fresh variable `in<k>`
//! (ranging over its type), integers computed from inputs are terms of
//! [`Arith`](crate::c::arith::Arith) (the model's own meaning of C's
//! operations), and a condition on them is a term: the run takes a branch
//! without forking when the path condition (the branches taken so far)
//! decides it, and forks only when both are satisfiable (Z3). Undefined
//! behaviour on a symbolic operation is a branch too: the run ends on its
//! side, as in the model.
//!
//! What stays exact: a symbolic integer stored in memory is its bytes,
//! each a fragment of the term ([`Byte::Symbolic`]); read back whole with
//! the same width it is the term again. Anything else (a part of it, an
//! index into an array, a pointer made from it, a term grown past
//! [`MOST_TERM_SIZE`]) becomes an unknown value, which the exploration
//! handles as before: the runs then cover more executions, never fewer,
//! so a YES stays sound. The YES rests on Z3's answers that a branch is
//! unsatisfiable; the re-check replays every run, asking them again.
//!
//! A run the exploration cannot finish still helps the search for a
//! repeated state (`lasso.rs`): the path condition of the run it stopped
//! in has a model, and the model's values of the inputs (the first call
//! at each site) become a valuation to try. That is how a protocol whose
//! `init()` accepts only distinct ids with matching fields gets inputs
//! no blind search finds.

use super::interp::Interp;
use super::path::MOST_PATH;
use super::value::{self, Value};
use super::Stop;
use crate::c::arith::{ArithOp, CmpOp, Val};
use crate::ir::IntType;
use crate::term::Term;

/// A term larger than this (nodes) becomes an unknown value: a loop that
/// accumulates inputs would otherwise grow its terms every iteration.
const MOST_TERM_SIZE: usize = 400;

/// How a branch on inputs stands ([`Interp::weigh`]).
pub(crate) enum Weighed {
    /// The path condition decides it.
    Decided(bool),
    /// Both ways are possible: the condition, as the path condition
    /// reads it.
    Open(Term),
}

/// Whether `t` has at most `n` nodes.
fn small(t: &Term, n: &mut usize) -> bool {
    if *n == 0 {
        return false;
    }
    *n -= 1;
    match t {
        Term::App(_, args) => args.iter().all(|a| small(a, n)),
        _ => true,
    }
}

/// `v` with a symbolic integer made unknown (what the plain exploration
/// would have).
pub(crate) fn forget(v: Value) -> Value {
    match v {
        Value::Symbolic(s) => Value::Int(s.ty, None),
        v => v,
    }
}

impl<'s, 'a> Interp<'s, 'a> {
    /// A fresh input of type `t` at call site `site`: its variable.
    pub(crate) fn symbolic_input(&mut self, site: usize, t: IntType) -> Option<Value> {
        let s = self.symbolic.as_mut()?;
        let name = format!("in{}", s.inputs.len());
        s.inputs.push((name.clone(), site, t));
        // A value of its type, whatever the integer semantics.
        let v = Term::var(&name);
        s.assume(Term::and(vec![Term::le(Term::Int(t.min()), v.clone()), Term::le(v, Term::Int(t.max()))]));
        Some(Value::Symbolic(Box::new(Val { term: Term::var(&name), ty: t, range: Some((t.min(), t.max())) })))
    }

    /// The value of `v`: a constant when the term has no variable, unknown
    /// when it grew too large, else symbolic.
    pub(crate) fn from_val(&self, mut v: Val) -> Value {
        if let Some(s) = self.symbolic.as_ref() {
            v.term = s.bound(&v.term);
        }
        if let Term::Int(c) = &v.term {
            return Value::Int(v.ty, Some(c.clone()));
        }
        if !small(&v.term, &mut { MOST_TERM_SIZE }) {
            return Value::Int(v.ty, None);
        }
        Value::Symbolic(Box::new(v))
    }

    /// `v` as a term, if it is a known or symbolic integer.
    pub(super) fn as_val(&self, v: &Value) -> Option<Val> {
        match v {
            Value::Int(t, Some(c)) => Some(self.ar.constant(c.clone(), *t)),
            Value::Symbolic(s) => Some((**s).clone()),
            _ => None,
        }
    }

    /// Whether the Boolean term `t` holds on this run: decided by the
    /// path condition, else a fork (both satisfiable); the branch taken
    /// joins the path condition.
    pub(crate) fn decide_term(&mut self, t: Term) -> Result<bool, Stop> {
        match self.weigh(t)? {
            Weighed::Decided(b) => Ok(b),
            Weighed::Open(t) => self.fork(t),
        }
    }

    /// Whether the path condition decides the Boolean term `t` (then the
    /// branch joins it), or both ways are possible.
    pub(crate) fn weigh(&mut self, t: Term) -> Result<Weighed, Stop> {
        let Some(s) = self.symbolic.as_ref() else { return Err(Stop::give_up("a symbolic condition outside symbolic exploration")) };
        let t = s.bound(&t);
        if let Term::Bool(b) = t {
            return Ok(Weighed::Decided(b));
        }
        if let Some(b) = s.decided.get(&t) {
            return Ok(Weighed::Decided(*b));
        }
        if s.path.len() >= MOST_PATH {
            return Err(Stop::give_up(format!("a path condition of more than {MOST_PATH} facts (a loop steered by a value computed from inputs)")));
        }
        let yes = s.possible(&t);
        let no = s.possible(&Term::not(t.clone()));
        let b = match (yes, no) {
            (Some(false), Some(false)) => return Err(Stop::give_up("a path condition Z3 found unsatisfiable")),
            (Some(false), _) => false,
            (_, Some(false)) => true,
            (Some(true), Some(true)) => return Ok(Weighed::Open(t)),
            _ => return Err(Stop::give_up("a branch on inputs Z3 could not decide in time")),
        };
        // Implied: remembered, not asserted (a loop that tests values
        // the path decides, under new names each round after a join,
        // would otherwise grow the path condition without forking).
        if let Some(s) = self.symbolic.as_mut() {
            s.pruned += 1;
            let fact = if b { t.clone() } else { Term::not(t.clone()) };
            s.bind(&fact);
            s.decided.insert(t, b);
        }
        Ok(Weighed::Decided(b))
    }

    /// The run takes the branch of `t` that is `b`.
    pub(crate) fn take_branch(&mut self, t: Term, b: bool) {
        if let Some(s) = self.symbolic.as_mut() {
            s.decided.insert(t.clone(), b);
            let fact = if b { t } else { Term::not(t) };
            s.assume(fact.clone());
            // (Not on a path through a joined branch: its facts join
            // the values' definitions whole.)
            if s.joined() && self.joining == 0 {
                s.fix_inputs(&fact);
            }
        }
    }

    /// The run goes on only where `defined` holds (undefined behaviour
    /// ends it, as in the model).
    fn require(&mut self, defined: Vec<(crate::ir::Undefined, Term)>) -> Result<(), Stop> {
        for (kind, d) in defined {
            if !self.decide_term(d)? {
                return Err(Stop::Undefined { kind, at: None });
            }
        }
        Ok(())
    }

    /// `l op r` where an operand is symbolic (an unknown operand: unknown).
    pub(crate) fn symbolic_binary(&mut self, op: ArithOp, l: Value, r: Value) -> Result<Value, Stop> {
        let (Some(a), Some(b)) = (self.as_val(&l), self.as_val(&r)) else { return self.forgotten_binary(op, l, r) };
        let Ok(out) = self.ar.binary(op, a, b) else { return self.forgotten_binary(op, l, r) };
        self.require(out.defined)?;
        Ok(self.from_val(out.val))
    }

    fn forgotten_binary(&self, op: ArithOp, l: Value, r: Value) -> Result<Value, Stop> {
        match (forget(l), forget(r)) {
            (Value::Int(ta, a), Value::Int(tb, b)) => value::binary(&self.ar, op, (ta, a.as_ref()), (tb, b.as_ref())),
            _ => Err(Stop::give_up(format!("`{}` on these operands", op.symbol()))),
        }
    }

    /// `l cmp r` where an operand is symbolic, as C's `int` 0 or 1.
    pub(crate) fn symbolic_compare(&mut self, op: CmpOp, l: Value, r: Value) -> Result<Value, Stop> {
        let (Some(a), Some(b)) = (self.as_val(&l), self.as_val(&r)) else {
            return Ok(Value::Int(self.ar.machine().int(), None));
        };
        let t = self.ar.compare(op, a, b);
        Ok(self.from_val(self.ar.from_bool(t)))
    }

    /// A symbolic integer converted to `to`.
    pub(crate) fn symbolic_convert(&self, v: Val, to: IntType) -> Value {
        self.from_val(self.ar.convert(v, to))
    }

    /// `-x`, `~x`, `!x`, `+x` of a symbolic `x`.
    pub(crate) fn symbolic_unary(&mut self, op: &lang_c::ast::UnaryOperator, v: Val) -> Result<Value, Stop> {
        use lang_c::ast::UnaryOperator::*;
        Ok(match op {
            Minus => {
                let out = self.ar.neg(v);
                self.require(out.defined)?;
                self.from_val(out.val)
            }
            Complement => self.from_val(self.ar.bitnot(v)),
            Negate => self.from_val(self.ar.not(&v)),
            Plus => self.from_val(self.ar.promote(v)),
            _ => return Err(Stop::give_up("an operator on a symbolic value")),
        })
    }

    /// A symbolic integer read back from memory as type `t`: the same
    /// term as the same type; as another type of its width, its conversion
    /// (two's complement reinterpretation); else unknown.
    pub(crate) fn symbolic_load(&self, v: Val, t: IntType) -> Value {
        if v.ty == t {
            return self.from_val(v);
        }
        // Reinterpretation is conversion only where both types wrap (under
        // `--ints math` a signed type does not: its bytes would say
        // otherwise).
        if v.ty == IntType::Bool || t == IntType::Bool || self.int_size(v.ty) != self.int_size(t) || !self.ar.bounded(v.ty) || !self.ar.bounded(t) {
            return Value::Int(t, None);
        }
        self.symbolic_convert(v, t)
    }
}
