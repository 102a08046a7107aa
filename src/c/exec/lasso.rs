//! Non-termination by execution: a run that comes back to a state it was
//! in runs forever.
//!
//! The search runs the program *concretely*: each call site of
//! `__VERIFIER_nondet_*` returns one value of its type, the same at every
//! call (an `Inputs` valuation, searched by `runs.rs`, picks it from a few candidates: 0, 1,
//! -1, 2, ...), each allocation site fails at every call or at none (where
//! allocations may fail, chosen like an input), and a value the run does not
//! know (an uninitialized object, a function that fell off its end) read
//! or tested ends the search of that run. Such a run is one C execution
//! of the program: every choice it makes is one the program's inputs
//! allow.
//!
//! At each visit of a loop's head that tests the condition the run hashes
//! its state: a digest of every live block's contents (kept up to date by
//! `memory.rs`), and the frames' blocks. At each call it hashes what the
//! callee sees without a pointer (heap, globals, arguments) against the
//! active calls of the same function. When a visit in one entry of the
//! loop hashes like an earlier visit of the same entry, the run is at the
//! same place (the Rust stack of the interpreter above the loop is the
//! same entry's) with the same state, and the interpreter is
//! deterministic given the valuation: it will come back again, forever.
//! Block numbers matter only for equality of pointers (pointers into
//! different blocks are never ordered, never turned into integers), so
//! the dead blocks each iteration leaves behind do not change what the
//! run does.
//!
//! The re-check (`Program::confirm` in `runs.rs`) replays the run from the
//! start in a fresh interpreter without any hashing: it copies the state
//! at the first visit and compares the whole state (block contents,
//! frames, globals) at the second. Only a confirmed repeat is an answer.

use super::interp::{Input, Interp, Object, Place, Repeat, Snapshot};
use super::memory::{Block, Kind};
use super::value::{Byte, Ptr, Value};
use super::Stop;
use crate::ir::IntType;
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// Most head visits of one loop entry whose hashes a run keeps.
const MOST_VISITS: usize = 200_000;

/// The `k`th candidate value of an input of type `t`, if there is one:
/// small values first (a lasso usually needs a flag set or a count that
/// stays), then the ends of the type.
pub(crate) fn candidate(t: IntType, k: usize) -> Option<BigInt> {
    const SMALL: [i64; 8] = [0, 1, -1, 2, 3, -2, 10, 100];
    let mut all: Vec<BigInt> = SMALL.iter().map(|&c| BigInt::from(c)).filter(|c| *c >= t.min() && *c <= t.max()).collect();
    for end in [t.max(), t.min()] {
        if !all.contains(&end) {
            all.push(end);
        }
    }
    all.get(k).cloned()
}

/// What comes back to a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LassoKind {
    /// The head of a loop.
    Loop,
    /// A call of a function nested in an earlier call of it.
    Recursion,
}

/// A lasso found and confirmed: where, after which inputs, and the state
/// at the loop's head in the language of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasso {
    pub kind: LassoKind,
    /// The loop's position (a recursion: the function's) and function.
    pub line: usize,
    pub column: usize,
    pub function: String,
    /// Iterations of the loop's entry before the cycle, and the cycle's.
    pub stem_iterations: u64,
    pub period: u64,
    /// The steps of the run up to the cycle's first visit.
    pub steps: u64,
    /// Each input place the run read, with the value it returns there:
    /// line, column, type, value at the first call, and whether each later
    /// call returns one more ([`Input::Rising`]; otherwise the same value
    /// at every call).
    pub inputs: Vec<(usize, usize, IntType, BigInt, bool)>,
    /// The allocations (line, column) that fail in the run, at every call
    /// (only where allocations may fail, `--allocation may-fail`).
    pub failing_allocations: Vec<(usize, usize)>,
    /// The variables in scope at the loop's head with their values
    /// (integers; pointers as `null` or the object they point into).
    pub state: Vec<(String, String)>,
    /// Live heap blocks at the head (the cells the cycle keeps).
    pub heap_blocks: usize,
}

impl<'s, 'a> Interp<'s, 'a> {
    /// A visit of the head of loop `at` (its `entry`th entry, `visit`th
    /// visit): see [`Interp::revisit`].
    pub(crate) fn loop_head(&mut self, at: usize, entry: u64, visit: u64, seen: &mut HashMap<u64, u64>) -> Result<(), Stop> {
        if self.concrete.is_none() {
            return Ok(());
        }
        self.revisit(Place::Loop { node: at, entry }, visit, seen, 0)
    }

    /// A `goto` to `label` (a statement at `at` in the parsed text) in the
    /// block `block` (its `entry`th entry, the `visit`th jump to that label
    /// in it): the jump resumes the block at
    /// the label, its scope kept, so the same state there goes on alike.
    pub(crate) fn jump_head(&mut self, block: usize, entry: u64, label: &str, at: usize, visit: u64, seen: &mut HashMap<u64, u64>) -> Result<(), Stop> {
        let Some(c) = self.concrete.as_mut() else { return Ok(()) };
        c.labels.entry((block, label.to_string())).or_insert(at);
        let mut h = std::collections::hash_map::DefaultHasher::new();
        label.hash(&mut h);
        self.revisit(Place::Jump { block, entry, label: label.to_string() }, visit, seen, h.finish())
    }

    /// The `visit`th visit of `place` in a concrete run: in the search,
    /// hash the state (with `salt`, for places sharing `seen`) and stop at
    /// a repeat; in the re-check, copy the state at the first visit and
    /// compare it at the second.
    fn revisit(&mut self, place: Place, visit: u64, seen: &mut HashMap<u64, u64>, salt: u64) -> Result<(), Stop> {
        let Some(c) = self.concrete.as_ref() else { return Ok(()) };
        match &c.check {
            Some((rep, _)) if rep.place == place => {
                let rep = rep.clone();
                if visit == rep.first {
                    let snap = self.snapshot();
                    if let Some((_, s)) = self.concrete.as_mut().and_then(|c| c.check.as_mut()) {
                        *s = Some(snap);
                    }
                } else if visit == rep.again {
                    let now = self.snapshot();
                    let same = matches!(&self.concrete.as_ref().and_then(|c| c.check.as_ref()), Some((_, Some(s))) if *s == now);
                    if !same {
                        return Err(Stop::give_up("the re-check of a repeated state found another state"));
                    }
                    self.found();
                    return Err(Stop::Forever(rep));
                }
                Ok(())
            }
            Some(_) => Ok(()),
            None => {
                if seen.len() >= MOST_VISITS {
                    return Ok(());
                }
                let h = self.fingerprint() ^ salt;
                match seen.insert(h, visit) {
                    Some(first) => Err(Stop::Forever(Repeat { place, first, again: visit })),
                    None => Ok(()),
                }
            }
        }
    }

    /// The `entry`th entry of the loop or block `at` in this run
    /// (concrete runs only).
    pub(crate) fn entry_of(&mut self, at: usize) -> u64 {
        match self.concrete.as_mut() {
            Some(c) => {
                let e = c.entries.entry(at).or_insert(0);
                *e += 1;
                *e - 1
            }
            None => 0,
        }
    }

    /// A hash of what decides the rest of the run at a loop's head: the
    /// memory's digest (kept by every change) and the frames' blocks.
    fn fingerprint(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.mem.digest.hash(&mut h);
        for f in &self.frames {
            for (_, blocks) in &f.scopes {
                blocks.hash(&mut h);
            }
            f.allocas.hash(&mut h);
        }
        h.finish()
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            blocks: self.mem.blocks.iter().enumerate().filter(|(_, b)| b.alive).map(|(i, b)| (i, b.clone())).collect(),
            frames: self.frames.clone(),
            globals: self.globals.clone(),
            statics: self.statics.clone(),
            args: Vec::new(),
        }
    }

    /// The confirmed repeat's state for the report.
    fn found(&mut self) {
        let heap = self.mem.blocks.iter().filter(|b| b.alive && b.kind == Kind::Heap).count();
        let found = (self.shown_state(), heap, self.frames.last().map(|f| f.name.clone()).unwrap_or_default());
        if let Some(c) = self.concrete.as_mut() {
            c.found = Some(found);
        }
    }

    /// What a call of a function sees: the blocks other than locals and
    /// `alloca` blocks, and its arguments; `None` when one of them holds
    /// a pointer to a local or `alloca` block, or its address in an
    /// integer (the call could then see a frame's objects, which the
    /// comparison leaves out).
    fn visible(&self, args: &[Value]) -> Option<Snapshot> {
        let private = |p: &Ptr| matches!(p, Ptr::At { block, .. } if matches!(self.mem.blocks[*block].kind, Kind::Local | Kind::Stack));
        let leaks = |bytes: &[Byte]| bytes.iter().any(|b| matches!(b, Byte::Fragment(p, _) if private(p)));
        let blocks: Vec<(usize, Rc<Block>)> = self.mem.blocks.iter().enumerate().filter(|(_, b)| b.alive && !matches!(b.kind, Kind::Local | Kind::Stack)).map(|(i, b)| (i, b.clone())).collect();
        if blocks.iter().any(|(_, b)| leaks(&b.bytes)) {
            return None;
        }
        for a in args {
            match a {
                // An address held in an integer (`rec((uintptr_t)&c)`) reaches
                // the local as a pointer does.
                Value::Ptr(Some(p)) | Value::Address(_, p) if private(p) => return None,
                Value::Bytes(bs) if leaks(bs) => return None,
                _ => {}
            }
        }
        Some(Snapshot { blocks, frames: Vec::new(), globals: self.globals.clone(), statics: self.statics.clone(), args: args.to_vec() })
    }

    /// A call of `function` with `args` (concrete runs only): in the
    /// search, stop when an active call of it saw the same (hashed); in
    /// the re-check, copy what the first call sees and compare it at the
    /// second, which must be nested in the first.
    pub(crate) fn call_head(&mut self, function: &str, args: &[Value]) -> Result<(), Stop> {
        let Some(c) = self.concrete.as_mut() else { return Ok(()) };
        let n = c.calls.entry(function.to_string()).or_insert(0);
        let ordinal = *n;
        *n += 1;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.mem.visible_digest.hash(&mut h);
        for a in args {
            hash_value(a, &mut h);
        }
        let h = h.finish();
        let c = self.concrete.as_mut().expect("a concrete run");
        let repeat = match &c.check {
            Some((rep, _)) if rep.place == (Place::Call { function: function.to_string() }) => {
                let rep = rep.clone();
                if ordinal == rep.first {
                    let snap = self.visible(args).ok_or_else(|| Stop::give_up("the re-check of a repeated call found a pointer to a local"))?;
                    if let Some((_, s)) = self.concrete.as_mut().and_then(|c| c.check.as_mut()) {
                        *s = Some(snap);
                    }
                } else if ordinal == rep.again {
                    let nested = self.concrete.as_ref().is_some_and(|c| c.active.iter().any(|(f, k, _)| f == function && *k == rep.first));
                    let now = self.visible(args);
                    let same = matches!((&self.concrete.as_ref().and_then(|c| c.check.as_ref()), &now), (Some((_, Some(s))), Some(now)) if s == now);
                    if !nested || !same {
                        return Err(Stop::give_up("the re-check of a repeated call found another state"));
                    }
                    self.found();
                    return Err(Stop::Forever(rep));
                }
                None
            }
            Some(_) => None,
            None => c.active.iter().find(|(f, _, x)| f == function && *x == h).map(|(_, k, _)| *k),
        };
        if let Some(first) = repeat {
            return Err(Stop::Forever(Repeat { place: Place::Call { function: function.to_string() }, first, again: ordinal }));
        }
        if let Some(c) = self.concrete.as_mut() {
            c.active.push((function.to_string(), ordinal, h));
        }
        Ok(())
    }

    /// A call of a function returned (concrete runs only).
    pub(crate) fn call_exit(&mut self) {
        if let Some(c) = self.concrete.as_mut() {
            c.active.pop();
        }
    }

    /// The value of input site `site` of type `t` in a concrete run.
    pub(crate) fn input(&mut self, site: usize, at: usize, t: IntType) -> Option<Value> {
        let c = self.concrete.as_mut()?;
        let count = c.reads.entry(site).or_insert(0);
        let earlier = *count;
        *count += 1;
        let v = match c.inputs.get(&site) {
            Some(Input::Exact(v)) if *v >= t.min() && *v <= t.max() => v.clone(),
            Some(Input::Candidate(k)) => candidate(t, *k).unwrap_or_default(),
            Some(Input::Rising(k)) => (candidate(t, *k).unwrap_or_default() + earlier).min(t.max()),
            _ => BigInt::default(),
        };
        if !c.read.iter().any(|r| r.0 == site) {
            c.read.push((site, t, v.clone(), at));
        }
        Some(Value::Int(t, Some(v)))
    }

    /// The variables in scope (innermost first wins) with their values,
    /// for the report.
    fn shown_state(&self) -> Vec<(String, String)> {
        let mut names: BTreeMap<String, Object> = BTreeMap::new();
        if let Some(f) = self.frames.last() {
            for (scope, _) in &f.scopes {
                for (n, o) in scope.iter().filter(|(n, _)| !super::eval::is_compound_literal_key(n)) {
                    names.insert(n.clone(), o.clone());
                }
            }
        }
        let mut out = Vec::new();
        for (n, (b, ty)) in names {
            let p = Ptr::At { block: b, offset: 0 };
            let shown = match self.load(&p, &ty) {
                Ok(Value::Int(_, Some(c))) => c.to_string(),
                Ok(Value::Ptr(Some(Ptr::Null))) => "null".into(),
                Ok(Value::Ptr(Some(Ptr::At { block, offset }))) => {
                    let kind = match self.mem.blocks.get(block).map(|b| b.kind) {
                        Some(Kind::Heap) => "a heap block",
                        Some(Kind::Stack) => "an alloca block",
                        Some(Kind::Global) => "a global",
                        Some(Kind::Literal) => "a string literal",
                        _ => "a local",
                    };
                    let name = self.name_of_block(block).map(|n| format!("&{n}")).unwrap_or_else(|| format!("{kind} #{block}"));
                    if offset == 0 { name } else { format!("{name} + {offset} bytes") }
                }
                Ok(Value::Ptr(Some(Ptr::Function(f)))) => format!("&{f}"),
                Ok(Value::Ptr(Some(Ptr::Integer(v)))) => format!("(void *){v:#x}"),
                _ => continue,
            };
            out.push((n, shown));
        }
        out
    }

    /// The variable whose object is block `b`, if one is in scope or global.
    fn name_of_block(&self, b: usize) -> Option<String> {
        let f = self.frames.last()?;
        for (scope, _) in f.scopes.iter().rev() {
            if let Some((n, _)) = scope.iter().find(|(n, o)| o.0 == b && !super::eval::is_compound_literal_key(n)) {
                return Some(n.clone());
            }
        }
        self.globals.iter().find(|(_, o)| o.0 == b).map(|(n, _)| n.clone())
    }
}

fn hash_value(v: &Value, h: &mut impl Hasher) {
    match v {
        Value::Int(t, c) => (0u8, t, c).hash(h),
        Value::Ptr(p) => (1u8, p).hash(h),
        Value::Bytes(bs) => (2u8, bs).hash(h),
        Value::Void => 3u8.hash(h),
        Value::Symbolic(v) => (4u8, &v.term, v.ty).hash(h),
        Value::Address(t, p) => (5u8, t, p).hash(h),
    }
}

