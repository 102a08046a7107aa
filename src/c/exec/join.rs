//! Joined branches: both ways of a branch on inputs taken at once.
//!
//! The symbolic exploration (`symbolic.rs`) forks where the path condition
//! leaves a branch open, and the forks multiply: a protocol whose nodes
//! each keep the largest id heard (`if (m > max) max = m;`, SeaHorn's
//! `pals_floodmax` tasks) forks at every comparison of ids in every round,
//! over every graph of links, into tens of thousands of runs that differ
//! only in which id a variable holds.
//!
//! Where the paths through such a branch only compute (no choice of the
//! run, no input, no jump out, the run neither ends nor gives up in them,
//! no object made or freed), the run takes them all: each path executes
//! from the same state with its conditions (the branch's `c` or its
//! negation, then every further branch on inputs it takes, each a choice
//! of the join's own, enumerated like the runs) in a scope of the path
//! condition, and the run goes on in their join: memory as the paths left
//! it where they agree, and each integer variable on which they differ a
//! fresh variable `join<k>` defined as `ite(c1, v1, ite(c2, v2, ... vn))`
//! over the paths' facts (a definition, never dropped: `path.rs`), or its
//! value before the branch where the path condition proves the join equal
//! to it. For every valuation of the inputs the path condition allows,
//! exactly one path's facts hold, that path is the execution the program
//! takes, and the join holds that path's values: the run stands for all
//! of them, and the exploration still covers every execution. Paths whose
//! states differ in anything but integer variables (an array element, a
//! pointer, a field) are not joined: the branch forks as before, in the
//! same state (a path leaves nothing behind but definitions, which
//! constrain no input).
//!
//! A join costs an execution per path and the definitions every later
//! check carries; it takes at most [`MOST_PATHS`] paths, and a run spends
//! at most [`MOST_WASTE`] paths on joins that fail.

use super::interp::Interp;
use super::symbolic::Weighed;
use super::value::{Ptr, Value};
use super::Stop;
use crate::c::arith::Val;
use crate::term::Term;

/// The most paths through a joined branch: a chain of nested tests
/// (CIL's conjunction, each failing one setting a flag) has one more than
/// its tests, while branches in sequence multiply theirs.
const MOST_PATHS: usize = 256;
/// The most paths one run may execute for joins that then failed: a
/// failed join is tried again at each branch nested in it, and the branch
/// forks as before after all.
const MOST_WASTE: usize = 1_024;
/// A state with more blocks than this is not joined: each side copies
/// the list of blocks.
const MOST_BLOCKS: usize = 100_000;

/// How the run takes a branch ([`Interp::branch`]).
pub(crate) enum Taken {
    /// One way.
    Way(bool),
    /// Both ways, joined: the value the sides computed (`Value::Void` for
    /// statements).
    Joined(Value),
}

/// What one path through a joined branch left: the facts it took (its
/// branches on inputs, the joined branch's own first), its memory, its
/// value, its steps.
struct End {
    facts: Vec<Term>,
    mem: super::memory::Memory,
    value: Value,
    steps: u64,
}

/// One side of a branch: executes the side taken when the condition is
/// the `bool`, to its value (statements: `Value::Void`); anything but
/// normal completion is an error.
pub(crate) type SideFn<'f, 's, 'a> = dyn FnMut(&mut Interp<'s, 'a>, bool) -> Result<Value, Stop> + 'f;

impl<'s, 'a> Interp<'s, 'a> {
    /// The branch on `c`, with `side` executing either way: decided by the
    /// path condition, joined when both ways are possible and the paths
    /// through it join, else a fork. `Way(b)`: the caller executes side
    /// `b`.
    pub(crate) fn branch(&mut self, c: &Value, side: &mut SideFn<'_, 's, 'a>) -> Result<Taken, Stop> {
        let Value::Symbolic(s) = c else { return Ok(Taken::Way(self.decide(c)?)) };
        let t = self.ar.truth(s);
        match self.weigh(t)? {
            Weighed::Decided(b) => Ok(Taken::Way(b)),
            Weighed::Open(t) => {
                if let Some(v) = self.join_paths(&t, side)? {
                    return Ok(Taken::Joined(v));
                }
                Ok(Taken::Way(self.fork(t)?))
            }
        }
    }

    /// A branch on inputs both ways possible, not joined: a choice of the
    /// run, or inside a joined branch one of its paths'.
    pub(crate) fn fork(&mut self, t: Term) -> Result<bool, Stop> {
        let b = if self.joining > 0 { self.join_choice() == 0 } else { self.choose(2)? == 0 };
        self.take_branch(t, b);
        Ok(b)
    }

    /// The next choice of the path through a joined branch being
    /// executed: its script's, then the first.
    fn join_choice(&mut self) -> usize {
        let c = self.join_script.get(self.join_trace.len()).copied().unwrap_or(0);
        self.join_trace.push((c, 2));
        c
    }

    /// Every path through the open branch `t` (both sides, and in them
    /// every branch on inputs), joined (see the module's comment); `None`:
    /// they do not join, and the state is as before.
    fn join_paths(&mut self, t: &Term, side: &mut SideFn<'_, 's, 'a>) -> Result<Option<Value>, Stop> {
        if self.symbolic.is_none() || self.concrete.is_some() || self.resume.is_some() || self.joining > 0 || self.join_waste > MOST_WASTE || self.mem.blocks.len() > MOST_BLOCKS {
            return Ok(None);
        }
        match self.try_join(t, side)? {
            Ok(v) => {
                self.joined += 1;
                Ok(Some(v))
            }
            Err(tried) => {
                self.join_waste += tried;
                Ok(None)
            }
        }
    }

    /// [`Interp::join_paths`]'s work: the joined value, or how many paths
    /// were executed before the join failed.
    fn try_join(&mut self, t: &Term, side: &mut SideFn<'_, 's, 'a>) -> Result<Result<Value, usize>, Stop> {
        let saved = self.save();
        let mut ends: Vec<End> = Vec::new();
        let mut script: Vec<usize> = Vec::new();
        loop {
            let fail = Ok(Err(ends.len() + 1));
            if ends.len() >= MOST_PATHS {
                return fail;
            }
            // Paths short of a step budget's check (every few thousand
            // steps) still ask Z3 at their branches.
            if std::time::Instant::now() > self.deadline {
                return Err(Stop::give_up("out of time for executing the runs"));
            }
            let Some(s) = self.symbolic.as_mut() else { return fail };
            let mark = s.enter();
            let from = s.path.len();
            self.join_script = std::mem::take(&mut script);
            self.join_trace.clear();
            self.joining += 1;
            self.no_checkpoint += 1;
            let way = self.join_choice() == 0;
            self.take_branch(t.clone(), way);
            let r = side(self, way);
            self.joining -= 1;
            self.no_checkpoint -= 1;
            let end = match r {
                Ok(value) if self.same_but_memory(&saved) => {
                    let facts = self.symbolic.as_ref().map(|s| s.path[from..].to_vec()).unwrap_or_default();
                    Some(End { facts, mem: self.mem.clone(), value, steps: self.steps })
                }
                _ => None,
            };
            if let Some(s) = self.symbolic.as_mut() {
                s.leave(mark);
            }
            self.restore_saved(saved.clone());
            let mut trace = std::mem::take(&mut self.join_trace);
            match end {
                Some(e) => ends.push(e),
                None => return fail,
            }
            // The next path: the last choice with an alternative left.
            loop {
                match trace.pop() {
                    Some((c, n)) if c + 1 < n => {
                        script = trace.iter().map(|c| c.0).collect();
                        script.push(c + 1);
                        break;
                    }
                    Some(_) => {}
                    None => break,
                }
            }
            if script.is_empty() {
                break;
            }
        }
        // Every difference first, then the stores: a join that fails
        // half-way leaves the state as before.
        let mut stores = Vec::new();
        for i in saved.mem.live() {
            let first = &ends[0].mem.blocks[i];
            if ends.iter().all(|e| std::rc::Rc::ptr_eq(&e.mem.blocks[i], first) || e.mem.blocks[i].bytes == first.bytes) {
                stores.push((i, None, first.clone()));
                continue;
            }
            let Some(ty) = self.variable_type(i) else { return Ok(Err(ends.len())) };
            let (size, at) = (self.int_size(ty), Ptr::At { block: i, offset: 0 });
            let mut values = Vec::with_capacity(ends.len());
            for e in &ends {
                let Ok(v) = e.mem.load_int(&at, ty, size, self.pointer_size()) else { return Ok(Err(ends.len())) };
                values.push(v);
            }
            let before = saved.mem.load_int(&at, ty, size, self.pointer_size()).ok();
            let Some(v) = self.join_values(&ends, values, before) else { return Ok(Err(ends.len())) };
            stores.push((i, Some((v, size)), first.clone()));
        }
        let values = ends.iter().map(|e| e.value.clone()).collect();
        let Some(value) = self.join_values(&ends, values, None) else { return Ok(Err(ends.len())) };
        for (i, joined, block) in stores {
            match joined {
                None => self.mem.blocks[i] = block,
                Some((v, size)) => self.mem.store_value(&Ptr::At { block: i, offset: 0 }, &v, size)?,
            }
        }
        self.steps = ends.iter().map(|e| e.steps).max().unwrap_or(self.steps);
        Ok(Ok(value))
    }

    /// The value that is `values[i]` where the facts of path `ends[i]`
    /// hold, if all are integers of one type (or all equal): `before` (the
    /// variable's value before the branch) where the path condition proves
    /// them equal — a loop whose joined branches leave a variable as it
    /// was keeps its state, and a stretch of it can be accelerated
    /// (`drift.rs`) —, else a fresh variable defined as their `ite`.
    fn join_values(&mut self, ends: &[End], values: Vec<Value>, before: Option<Value>) -> Option<Value> {
        let first = values.first()?.clone();
        if values.iter().all(|v| *v == first) {
            return Some(first);
        }
        let int_type = |v: &Value| match v {
            Value::Int(t, _) => Some(*t),
            Value::Symbolic(s) => Some(s.ty),
            _ => None,
        };
        let ty = int_type(&first)?;
        let mut vals = Vec::with_capacity(values.len());
        for v in &values {
            if int_type(v)? != ty {
                return None;
            }
            // An unknown path's value: the join is unknown too (it covers
            // more values, never fewer).
            let Some(x) = self.as_val(v) else { return Some(Value::Int(ty, None)) };
            vals.push(x);
        }
        let range = vals.iter().try_fold(None::<(num_bigint::BigInt, num_bigint::BigInt)>, |acc, v| {
            let (lo, hi) = v.range.clone()?;
            Some(Some(match acc {
                None => (lo, hi),
                Some((a, b)) => (a.min(lo), b.max(hi)),
            }))
        }).flatten();
        let mut paths = ends.iter().zip(vals).rev();
        let (_, last) = paths.next()?;
        let term = paths.fold(last.term, |els, (e, v)| Term::ite(Term::and(e.facts.clone()), v.term, els));
        if let Some(b) = before.as_ref().and_then(|b| self.as_val(b)) {
            if b.ty == ty && self.symbolic.as_ref()?.possible(&Term::not(Term::eq(term.clone(), b.term.clone()))) == Some(false) {
                return before;
            }
        }
        let name = self.symbolic.as_mut()?.define(term)?;
        Some(Value::Symbolic(Box::new(Val { term: name, ty, range })))
    }
}
