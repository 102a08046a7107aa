//! Acceleration: a stretch of a loop taken at once.
//!
//! A protocol whose round counter is an `unsigned char` runs 256 rounds
//! before the counter wraps and its check fails (SV-COMP's
//! `pals_*_overflow` tasks): every run is a few rounds of work, then
//! hundreds of rounds in which only counters move, each by the same amount
//! per round. Executing those rounds one by one, over every order of the
//! nodes' ids, is where the exploration spent its budget.
//!
//! Now and then, at a loop's head, the exploration looks at the state of
//! the last visits: when over the last two periods of `p` iterations
//! (`p` up to [`MOST_PERIOD`]) live memory changed only in integer
//! variables, each by the same amount `d` in both (the *drift*), the loop
//! may be in such a stretch. A *try* then executes one period with each
//! drifting variable set to `a + d·k` (`a` its value now) for a fresh
//! variable `k`, `0 <= k < J`. When no branch in it forks (the path
//! condition and the bound on `k` decide each one: the path is the same
//! for every `k`), no choice is made, no input read, the run does not end
//! or give up in it, and at its end every live object is as it was but
//! each drifting variable, which is `a + d·(k+1)`, then by induction on
//! `k` the next `J` periods take that path and end with each variable at
//! `a + d·J`: the run goes on from there. `J` is as many periods as keep
//! every variable within its type's range, and a quarter of that, and
//! so on, while a try fails. A try runs on a copy of the state and leaves
//! nothing behind (but the most iterations of inner loops and nested
//! calls it met, which the next period meets too); a failed one waits
//! twice as long before the next.
//!
//! The run takes no other iterations than it would have, and ends in the
//! state it would have: its choices, and so the run tree, are the same
//! with and without acceleration. The watch is kept with the loop's
//! iterations ([`ActiveLoop`]), which a checkpoint keeps, so a resumed run
//! (and the re-check's replay) accelerates exactly where the run did.

use super::interp::{Head, Interp, Saved, FIRST_WAIT};
use super::stmt::Flow;
use super::value::{bytes_int, Byte, Ptr, Value};
use super::Stop;
use crate::c::arith::Val;
use crate::c::types::CType;
use crate::ir::IntType;
use crate::term::{Affine, Term};
use lang_c::ast::{Expression, Statement};
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::Signed;
use std::collections::VecDeque;
use std::rc::Rc;

/// The longest period (in iterations) looked for.
const MOST_PERIOD: u64 = 4;
/// The wait after a look that found nothing or a try that failed
/// doubles each time up to this many visits (the first is
/// [`FIRST_WAIT`]).
const MOST_WAIT: u64 = 1024;
/// The fewest periods worth a try.
const LEAST_JUMP: u64 = 4;
/// A state with more blocks than this (live or dead) is not looked at:
/// a look copies the list of live blocks.
const MOST_BLOCKS: usize = 100_000;
/// The most strides one run may take: a loop that does not end (a
/// counter that wraps and goes on) would otherwise stride on until the
/// exploration's time is up, where its steps alone would have stopped it.
const MOST_STRIDES: u64 = 1_000;
/// The variable `k` of a try.
const STRIDE_VAR: &str = "stride@k";

/// A drifting variable: its block, type, value now and change per period.
#[derive(Clone, Debug)]
struct Drifting {
    block: usize,
    ty: IntType,
    now: BigInt,
    per_period: BigInt,
}

impl<'s, 'a> Interp<'s, 'a> {
    /// At a visit of the innermost active loop's head while exploring:
    /// record the state when a look is near, and at the look, accelerate
    /// when a drift is found and a try proves it.
    pub(crate) fn watch_drift(&mut self, cond: Option<&'a Node<Expression>>, body: &'a Node<Statement>, step: Option<&'a Node<Expression>>) -> Result<(), Stop> {
        if self.mem.blocks.len() > MOST_BLOCKS {
            return Ok(());
        }
        let Some(l) = self.loop_stack.last_mut() else { return Ok(()) };
        l.drift.visits += 1;
        if l.drift.visits + 2 * MOST_PERIOD < l.drift.next {
            return Ok(());
        }
        let head = self.head();
        let Some(l) = self.loop_stack.last_mut() else { return Ok(()) };
        let d = &mut l.drift;
        d.heads.push_back(head);
        if d.visits < d.next {
            return Ok(());
        }
        let heads = std::mem::take(&mut d.heads);
        let found = self.drift_in(&heads);
        let jumped = match found {
            Some((period, vars)) => self.accelerate(period, &vars, cond, body, step)?,
            None => None,
        };
        let Some(l) = self.loop_stack.last_mut() else { return Ok(()) };
        let d = &mut l.drift;
        match jumped {
            Some(iterations) => {
                l.iterations += iterations;
                d.wait = FIRST_WAIT;
                self.accelerated += iterations;
                self.strides += 1;
            }
            None => d.wait = (d.wait * 2).min(MOST_WAIT),
        }
        d.next = d.visits + d.wait;
        if self.strides > MOST_STRIDES {
            return Err(Stop::give_up(format!("a run of more than {MOST_STRIDES} strides (a loop that may not end)")));
        }
        Ok(())
    }

    fn head(&self) -> Head {
        Head {
            live: self.mem.blocks.iter().enumerate().filter(|(_, b)| b.alive).map(|(i, b)| (i, b.clone())).collect(),
            choices: self.trace.len(),
            inputs: self.symbolic.as_ref().map_or(0, |s| s.inputs.len()),
        }
    }

    /// The integer type of the variable whose object is block `b`, if it
    /// is one (a global, a local in scope, a `static`).
    pub(super) fn variable_type(&self, b: usize) -> Option<IntType> {
        let scopes = self.frames.iter().flat_map(|f| f.scopes.iter().map(|s| &s.0));
        let mut objects = scopes.flat_map(|s| s.values()).chain(self.globals.values()).chain(self.statics.values());
        match objects.find(|o| o.0 == b)?.1 {
            CType::Int(t) => Some(t),
            _ => None,
        }
    }

    /// The variables that changed from `a` to `b`, with their values in
    /// `b` and the change; `None` when anything else changed.
    fn changes(&self, a: &Head, b: &Head) -> Option<Vec<Drifting>> {
        if a.choices != b.choices || a.inputs != b.inputs || a.live.len() != b.live.len() {
            return None;
        }
        let mut out = Vec::new();
        for ((i, x), (j, y)) in a.live.iter().zip(&b.live) {
            if i != j {
                return None;
            }
            if Rc::ptr_eq(x, y) || x.bytes == y.bytes {
                continue;
            }
            let ty = self.variable_type(*i)?;
            let (before, now) = (known(ty, &x.bytes)?, known(ty, &y.bytes)?);
            let per_period = &now - before;
            out.push(Drifting { block: *i, ty, now, per_period });
        }
        Some(out)
    }

    /// The shortest period over whose last two repetitions the same
    /// variables changed by the same amounts, and those variables.
    fn drift_in(&self, heads: &VecDeque<Head>) -> Option<(u64, Vec<Drifting>)> {
        let n = heads.len();
        for p in 1..=MOST_PERIOD as usize {
            if n < 2 * p + 1 {
                break;
            }
            let (Some(first), Some(second)) = (self.changes(&heads[n - 1 - 2 * p], &heads[n - 1 - p]), self.changes(&heads[n - 1 - p], &heads[n - 1])) else { continue };
            let same = first.len() == second.len() && first.iter().zip(&second).all(|(x, y)| x.block == y.block && x.per_period == y.per_period);
            if same && !second.is_empty() {
                return Some((p as u64, second));
            }
        }
        None
    }

    /// Tries to take `J` periods of `period` iterations at once (see the
    /// module's comment), with `J` as large as the variables' types allow,
    /// then smaller; the iterations taken, if a try succeeded. (A store
    /// that fails after a try succeeded gives up the run: part of the
    /// variables would have moved.)
    fn accelerate(&mut self, period: u64, vars: &[Drifting], cond: Option<&'a Node<Expression>>, body: &'a Node<Statement>, step: Option<&'a Node<Expression>>) -> Result<Option<u64>, Stop> {
        // Periods that keep every variable within its type.
        let room = vars
            .iter()
            .map(|v| {
                let (lo, hi) = (v.ty.min(), v.ty.max());
                let r = if v.per_period.is_positive() { (hi - &v.now) / &v.per_period } else { (&v.now - lo) / (-&v.per_period) };
                u64::try_from(r).unwrap_or(u64::MAX)
            })
            .min();
        let Some(room) = room else { return Ok(None) };
        // Each try after a failed one with a quarter of its `J`: a
        // stretch that ends (the loop's bound, a branch on the counter)
        // is taken in strides of at least a quarter of what is left.
        let mut jump = room.min(1 << 40);
        while jump >= LEAST_JUMP {
            if self.try_stretch(period, vars, jump, cond, body, step) {
                for v in vars {
                    let to = &v.now + &v.per_period * BigInt::from(jump);
                    let size = self.int_size(v.ty);
                    self.mem.store_value(&Ptr::At { block: v.block, offset: 0 }, &Value::Int(v.ty, Some(to)), size)?;
                }
                return Ok(Some(jump * period));
            }
            jump /= 4;
        }
        Ok(None)
    }

    /// One try: whether one period from the state with each variable at
    /// `now + per_period·k`, for every `0 <= k < jump`, takes one path and
    /// ends in that state with `k + 1`. The state is restored after.
    fn try_stretch(&mut self, period: u64, vars: &[Drifting], jump: u64, cond: Option<&'a Node<Expression>>, body: &'a Node<Statement>, step: Option<&'a Node<Expression>>) -> bool {
        let saved = self.save();
        let borrowed = self.symbolic.is_none();
        if borrowed {
            self.symbolic = Some(Box::new(super::path::Symbolic::new()));
        }
        let mark = self.symbolic.as_mut().map(|s| s.enter());
        self.accelerating = true;
        self.no_checkpoint += 1;
        let proved = self.stretch(period, vars, jump, cond, body, step, &saved).unwrap_or(false);
        self.no_checkpoint -= 1;
        self.accelerating = false;
        if let (Some(s), Some(m)) = (self.symbolic.as_mut(), mark) {
            s.leave(m);
        }
        if borrowed {
            self.symbolic = None;
        }
        self.restore_saved(saved);
        proved
    }

    #[allow(clippy::too_many_arguments)]
    fn stretch(&mut self, period: u64, vars: &[Drifting], jump: u64, cond: Option<&'a Node<Expression>>, body: &'a Node<Statement>, step: Option<&'a Node<Expression>>, saved: &Saved) -> Result<bool, Stop> {
        let k = Term::var(STRIDE_VAR);
        let last = BigInt::from(jump - 1);
        let s = self.symbolic.as_mut().ok_or_else(|| Stop::give_up("no path condition"))?;
        s.assume(Term::and(vec![Term::le(Term::int(0), k.clone()), Term::le(k.clone(), Term::Int(last.clone()))]));
        let line = |v: &Drifting, plus: u64| Term::add(vec![Term::Int(v.now.clone() + &v.per_period * BigInt::from(plus)), Term::scale(&v.per_period, k.clone())]);
        for v in vars {
            let end = &v.now + &v.per_period * &last;
            let range = if v.per_period.is_positive() { (v.now.clone(), end) } else { (end, v.now.clone()) };
            let val = Val { term: line(v, 0), ty: v.ty, range: Some(range) };
            let size = self.int_size(v.ty);
            self.mem.store_value(&Ptr::At { block: v.block, offset: 0 }, &Value::Symbolic(Box::new(val)), size)?;
        }
        for _ in 0..period {
            self.step()?;
            if let Some(c) = cond {
                let v = self.eval(c)?;
                if !self.decide(&v)? {
                    return Ok(false);
                }
            }
            match self.exec(body)? {
                Flow::Normal | Flow::Continue => {}
                _ => return Ok(false),
            }
            if let Some(e) = step {
                self.eval(e)?;
            }
        }
        // Back in the state it started in, each variable one period on.
        if !self.same_but_memory(saved) {
            return Ok(false);
        }
        for i in saved.mem.live() {
            let Some(v) = vars.iter().find(|v| v.block == i) else {
                if self.mem.blocks[i].bytes != saved.mem.blocks[i].bytes {
                    return Ok(false);
                }
                continue;
            };
            let size = self.int_size(v.ty);
            let Value::Symbolic(now) = self.mem.load_int(&Ptr::At { block: i, offset: 0 }, v.ty, size, self.pointer_size())? else { return Ok(false) };
            if now.ty != v.ty || Affine::from_term(&now.term) != Affine::from_term(&line(v, 1)) || Affine::from_term(&now.term).is_none() {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The value of an integer of type `ty` held in `bytes`, if all known.
fn known(ty: IntType, bytes: &[Byte]) -> Option<BigInt> {
    let known: Option<Vec<u8>> = bytes.iter().map(|b| if let Byte::Known(x) = b { Some(*x) } else { None }).collect();
    Some(bytes_int(ty, &known?))
}
