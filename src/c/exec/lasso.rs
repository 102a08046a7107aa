//! Non-termination by execution: a run that comes back to a state it was
//! in runs forever.
//!
//! The search runs the program *concretely*: each call site of
//! `__VERIFIER_nondet_*` returns one value of its type, the same at every
//! call (an [`Inputs`] valuation picks it from a few candidates: 0, 1,
//! -1, 2, ...), every allocation succeeds, and a value the run does not
//! know (an uninitialized object, a function that fell off its end) read
//! or tested ends the search of that run. Such a run is one C execution
//! of the program: every choice it makes is one the program's inputs
//! allow.
//!
//! At each visit of a loop's head (before its test) the run hashes its
//! state: every live block of memory with its contents, and the frames
//! (the names and blocks of each scope). When a visit in one entry of the
//! loop hashes like an earlier visit of the same entry, the run is at the
//! same place (the Rust stack of the interpreter above the loop is the
//! same entry's) with the same state, and the interpreter is
//! deterministic given the valuation: it will come back again, forever.
//! Block numbers matter only for equality of pointers (pointers into
//! different blocks are never ordered, never turned into integers), so
//! the dead blocks each iteration leaves behind do not change what the
//! run does.
//!
//! The re-check ([`Program::confirm`]) replays the run from the start in
//! a fresh interpreter without any hashing: it copies the state at the
//! first visit and compares the whole state (block contents, frames,
//! globals) at the second. Only a confirmed repeat is an answer.

use super::interp::{Frame, Interp, Object};
use super::memory::{Block, Kind};
use super::runs::Program;
use super::value::{Byte, Ptr, Value};
use super::{Limits, Stop};
use crate::ir::IntType;
use num_bigint::BigInt;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::time::Instant;

/// The value each nondeterministic call site returns in a concrete run:
/// the index of a candidate (see [`candidate`]) by call node; a site not
/// listed returns candidate 0 (zero).
pub(crate) type Inputs = BTreeMap<usize, usize>;

/// Where a run comes back to a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// The head of a loop (by node), in its `entry`th entry in the run
    /// (from 0); visits counted from 0 in that entry.
    Loop { node: usize, entry: u64 },
    /// A call of `function`, nested in an earlier call of it that has
    /// not returned; calls of it counted from 0 in the run.
    Call { function: String },
}

/// Where a run came back, and the two visits (or calls) with the same
/// state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Repeat {
    pub place: Place,
    pub first: u64,
    pub again: u64,
}

/// The state a concrete run keeps besides the interpreter's.
#[derive(Default)]
pub(crate) struct Concrete {
    pub inputs: Inputs,
    /// The sites read in this run in the order of their first read: node,
    /// type, value, position in the parsed text.
    pub read: Vec<(usize, IntType, BigInt, usize)>,
    /// Per loop statement, its entries so far in this run.
    pub entries: HashMap<usize, u64>,
    /// Per function, its calls so far in this run; and the calls active
    /// now, innermost last, each with the hash of what it sees.
    pub calls: HashMap<String, u64>,
    pub active: Vec<(String, u64, u64)>,
    /// The re-check: the repeat to confirm, and the state at its first
    /// visit once reached.
    pub check: Option<(Repeat, Option<Snapshot>)>,
    /// The re-check confirmed the repeat: the variables in scope with
    /// their values, the live heap blocks, and the loop's function.
    pub found: Option<(Vec<(String, String)>, usize, String)>,
}

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

/// A copy of a run's state for the re-check: the live blocks, the frames,
/// the globals and the statics.
pub(crate) struct Snapshot {
    blocks: Vec<(usize, Rc<Block>)>,
    frames: Vec<Frame>,
    globals: HashMap<String, Object>,
    statics: HashMap<usize, Object>,
    /// A call's arguments (none at a loop's head).
    args: Vec<Value>,
}

impl PartialEq for Snapshot {
    fn eq(&self, o: &Snapshot) -> bool {
        self.blocks.len() == o.blocks.len()
            && self.blocks.iter().zip(&o.blocks).all(|((i, a), (j, b))| i == j && a.kind == b.kind && a.bytes == b.bytes)
            && self.frames == o.frames
            && self.args == o.args
            && self.globals == o.globals
            && self.statics == o.statics
    }
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
    /// Each input place the run read, with the value it returns there
    /// (at every call): line, column, type, value.
    pub inputs: Vec<(usize, usize, IntType, BigInt)>,
    /// The variables in scope at the loop's head with their values
    /// (integers; pointers as `null` or the object they point into).
    pub state: Vec<(String, String)>,
    /// Live heap blocks at the head (the cells the cycle keeps).
    pub heap_blocks: usize,
}

impl<'s, 'a> Interp<'s, 'a> {
    /// A visit of the head of loop `at` (its `entry`th entry, `visit`th
    /// visit): in a concrete run, hash the state and stop at a repeat; in
    /// the re-check, copy the state at the first visit and compare it at
    /// the second.
    pub(crate) fn loop_head(&mut self, at: usize, entry: u64, visit: u64, seen: &mut HashMap<u64, u64>) -> Result<(), Stop> {
        let Some(c) = self.concrete.as_ref() else { return Ok(()) };
        match &c.check {
            Some((rep, _)) if rep.place == (Place::Loop { node: at, entry }) => {
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
                let h = self.fingerprint();
                match seen.insert(h, visit) {
                    Some(first) => Err(Stop::Forever(Repeat { place: Place::Loop { node: at, entry }, first, again: visit })),
                    None => Ok(()),
                }
            }
        }
    }

    /// The `entry`th entry of loop `at` in this run (concrete runs only).
    pub(crate) fn loop_entry(&mut self, at: usize) -> u64 {
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
    /// a pointer to a local or `alloca` block (the call could then see a
    /// frame's objects, which the comparison leaves out).
    fn visible(&self, args: &[Value]) -> Option<Snapshot> {
        let private = |p: &Ptr| matches!(p, Ptr::At { block, .. } if matches!(self.mem.blocks[*block].kind, Kind::Local | Kind::Stack));
        let leaks = |bytes: &[Byte]| bytes.iter().any(|b| matches!(b, Byte::Fragment(p, _) if private(p)));
        let blocks: Vec<(usize, Rc<Block>)> = self.mem.blocks.iter().enumerate().filter(|(_, b)| b.alive && !matches!(b.kind, Kind::Local | Kind::Stack)).map(|(i, b)| (i, b.clone())).collect();
        if blocks.iter().any(|(_, b)| leaks(&b.bytes)) {
            return None;
        }
        for a in args {
            match a {
                Value::Ptr(Some(p)) if private(p) => return None,
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
        let k = c.inputs.get(&site).copied().unwrap_or(0);
        let v = candidate(t, k).unwrap_or_default();
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
                for (n, o) in scope {
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
            if let Some((n, _)) = scope.iter().find(|(_, o)| o.0 == b) {
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
    }
}

/// How a concrete run ended, with what it read.
pub(crate) struct ConcreteRun {
    pub stop: Stop,
    pub read: Vec<(usize, IntType, BigInt, usize)>,
    pub steps: u64,
    pub state: Option<(Vec<(String, String)>, usize, String)>,
    /// Per loop statement met (by node), its position in the parsed text.
    pub loop_starts: HashMap<usize, usize>,
}

impl<'s, 'a> Program<'s, 'a> {
    /// One concrete run under `inputs` (`check`: the repeat to confirm).
    fn concrete_run(&self, inputs: &Inputs, check: Option<Repeat>, limits: Limits) -> ConcreteRun {
        let mut it = self.interp(Vec::new(), 0);
        it.limits = limits;
        it.mem.digest = Some(0);
        it.concrete = Some(Box::new(Concrete { inputs: inputs.clone(), check: check.map(|r| (r, None)), ..Concrete::default() }));
        let stop = match it.start() {
            Ok(()) => Stop::Ended,
            Err(e) => e,
        };
        let (read, state) = it.concrete.take().map(|c| (c.read, c.found)).unwrap_or_default();
        let loop_starts = it.loops.iter().map(|(k, (at, _))| (*k, *at)).collect();
        ConcreteRun { stop, read, steps: it.steps, state, loop_starts }
    }

    /// Search valuations of the inputs for a run that repeats a state at
    /// a loop's head, breadth first by how many sites leave zero (each
    /// new valuation changes one more site a run read), within the
    /// deadline, `runs` runs and `total_steps` steps; a repeat found is confirmed by
    /// [`Program::confirm`].
    pub(crate) fn search_lasso(&self, runs: usize, total_steps: u64) -> Result<Lasso, Stop> {
        let limits = Limits { steps_per_run: 500_000, ..self.limits };
        // Cheapest first: fewer sites away from zero, smaller candidates
        // (a loop with an input bound at INT_MAX takes a whole run).
        let mut queue: BinaryHeap<Reverse<(usize, usize, Inputs)>> = BinaryHeap::from([Reverse((0, 0, Inputs::new()))]);
        let mut tried: HashSet<Inputs> = HashSet::new();
        let mut last_why = Stop::give_up("no run came back to a state it was in");
        let (mut n, mut steps) = (0, 0);
        while let Some(Reverse((_, _, inputs))) = queue.pop() {
            if Instant::now() > self.deadline {
                return Err(Stop::give_up("out of time for the search of a repeated state"));
            }
            if n >= runs || steps >= total_steps {
                break;
            }
            n += 1;
            let r = self.concrete_run(&inputs, None, limits);
            steps += r.steps;
            match &r.stop {
                Stop::Forever(rep) => {
                    if let Some(l) = self.confirm(&inputs, rep, limits) {
                        return Ok(l);
                    }
                }
                Stop::GiveUp { .. } => last_why = r.stop.clone(),
                Stop::Ended => {}
            }
            for (site, t, _, _) in &r.read {
                if inputs.contains_key(site) {
                    continue;
                }
                let mut k = 1;
                while candidate(*t, k).is_some() {
                    let mut next = inputs.clone();
                    next.insert(*site, k);
                    if tried.insert(next.clone()) {
                        let cost = next.values().sum::<usize>();
                        queue.push(Reverse((cost, next.len(), next)));
                    }
                    k += 1;
                }
            }
        }
        Err(last_why)
    }

    /// The repeat `rep` of the run under `inputs` replayed from the start
    /// in a fresh interpreter, the whole state compared: the lasso when
    /// it is there.
    fn confirm(&self, inputs: &Inputs, rep: &Repeat, limits: Limits) -> Option<Lasso> {
        let again = self.concrete_run(inputs, Some(rep.clone()), limits);
        let Stop::Forever(r) = &again.stop else { return None };
        if r != rep {
            return None;
        }
        let (state, heap_blocks, function) = again.state?;
        let (start, kind) = match &rep.place {
            Place::Loop { node, .. } => (again.loop_starts.get(node).copied()?, LassoKind::Loop),
            Place::Call { function } => (self.types.signatures().function(function)?.def?.span.start, LassoKind::Recursion),
        };
        let span = self.types.span(lang_c::span::Span::span(start, start + 1));
        let mut inputs: Vec<(usize, usize, IntType, BigInt)> = again
            .read
            .iter()
            .map(|(_, t, v, at)| {
                let s = self.types.span(lang_c::span::Span::span(*at, *at + 1));
                (s.as_ref().map_or(0, |s| s.line), s.as_ref().map_or(0, |s| s.col), *t, v.clone())
            })
            .collect();
        inputs.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        Some(Lasso {
            kind,
            line: span.as_ref().map_or(0, |s| s.line),
            column: span.as_ref().map_or(0, |s| s.col),
            function,
            stem_iterations: rep.first,
            period: rep.again - rep.first,
            steps: again.steps,
            inputs,
            state,
            heap_blocks,
        })
    }
}
