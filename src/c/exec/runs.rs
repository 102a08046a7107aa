//! All runs of the program, depth first ([`explore`]), and the
//! independent re-check of the run tree before a YES is given ([`check`]);
//! and concrete runs under valuations of the inputs, searched for one that
//! comes back to a state ([`search_lasso`], `lasso.rs`), each found
//! repeat confirmed by a replay ([`confirm`]) before a NO is given.
//!
//! A run is its sequence of choices (an allocation succeeds or fails, an
//! unknown condition is true or false, an unknown `switch` value takes a
//! label): the next run replays the last one's choices up to its last
//! choice with an alternative left, and takes that alternative. The
//! exploration ends when every choice of every run has had each of its
//! alternatives: the runs cover every execution of the program.
//!
//! A run does not replay its prefix from the start: it resumes from the
//! last checkpoint (`checkpoint.rs`) taken before the choice it changes,
//! so the work is about the runs' new parts, not the number of runs times
//! their length.

use crate::c::meaning::Allocation;
use super::interp::{Checkpoint, Concrete, Input, Inputs, Interp, Place, Repeat};
use super::lasso::{candidate, Lasso, LassoKind};
use super::memory::{Kind, Memory};
use super::stmt::declarator_name;
use super::value::{Byte, Ptr, Value};
use super::{Limits, Stop};
use crate::c::arith::Arith;
use crate::c::lower::{ExprTypes, Types};
use crate::c::types::CType;
use lang_c::ast::*;
use lang_c::span::Node;
use crate::ir::IntType;
use num_bigint::BigInt;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::time::Instant;

/// A loop's bound: at most `iterations` iterations in one entry, in
/// every run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopBound {
    pub line: usize,
    pub column: usize,
    pub iterations: u64,
}

/// Runs that end at undefined behaviour of one kind at one place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndefinedEnding {
    pub kind: crate::ir::Undefined,
    pub at: Option<crate::ir::Span>,
    pub runs: usize,
}

/// What a YES from execution carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The number of runs (executions up to the choices the model makes).
    pub runs: usize,
    /// The most steps (statements and expressions) of one run.
    pub most_steps: u64,
    /// Per loop statement met, in the order of the source.
    pub loops: Vec<LoopBound>,
    /// Per recursive function (one called while a call of it is active),
    /// the most calls of it active at once in any run.
    pub recursions: Vec<(String, usize)>,
    /// With symbolic inputs (`symbolic.rs`): how many branch alternatives
    /// the path conditions ruled out (Z3: unsatisfiable) over all runs;
    /// `None`: inputs were unknown values and every branch on them forked.
    pub pruned: Option<usize>,
    /// The most loop iterations one run took by acceleration (stretches
    /// on which only counters move, each proved to take one path:
    /// `drift.rs`); 0: none.
    pub accelerated: u64,
    /// Branches on inputs taken both ways at once (`join.rs`), over all
    /// runs; 0: none.
    pub joined: usize,
    /// The runs that end only because C leaves what follows undefined
    /// (`while (1) k++;` under `--ints c`), by kind and place.
    pub undefined: Vec<UndefinedEnding>,
    /// Some run read an input (a value from outside).
    pub read_input: bool,
    /// Some run forked at an allocation that may fail (both outcomes
    /// executed).
    pub allocations_fail: bool,
}

/// The re-check replays every run from the start when that is at most
/// twice this many steps (or twice the exploration's work).
const REPLAY_STEPS: u64 = 1_000_000;

/// One run as the exploration recorded it.
struct Run {
    choices: Vec<usize>,
    steps: u64,
}

/// The result of one run: how it stopped (`Stop::Ended` or a give-up),
/// its choices with their numbers of alternatives, its steps (`from`:
/// those its checkpoint had; the rest ran), loops, and the checkpoints
/// it took.
struct RunResult {
    stop: Stop,
    trace: Vec<(usize, usize)>,
    steps: u64,
    from: u64,
    loops: HashMap<usize, (usize, u64)>,
    nesting: HashMap<String, usize>,
    checkpoints: Vec<Checkpoint>,
    /// Alternatives the path condition ruled out (symbolic inputs).
    pruned: usize,
    /// Loop iterations the run took by acceleration.
    accelerated: u64,
    /// Branches the run joined (since its checkpoint).
    joined: usize,
    /// The undefined behaviour the run ended at, if it did.
    undefined: Option<(crate::ir::Undefined, Option<crate::ir::Span>)>,
}

/// The checkpoints of the runs so far that later runs may resume from:
/// taken in order along the last run, each valid while the runs keep its
/// choices.
#[derive(Default)]
struct Checkpoints(Vec<Checkpoint>);

impl Checkpoints {
    /// The last one valid for a run that keeps the first `k` choices of
    /// the last run (taken after at most `k` choices); the later ones are
    /// dropped.
    fn before(&mut self, k: usize) -> Option<&Checkpoint> {
        while self.0.last().is_some_and(|c| c.trace.len() > k) {
            self.0.pop();
        }
        self.0.last()
    }
}

pub(crate) struct Program<'s, 'a> {
    pub unit: &'a TranslationUnit,
    /// The names whose address the program takes somewhere (see
    /// `Types::footprint`).
    pub addressed: std::rc::Rc<HashSet<String>>,
    pub table: &'s ExprTypes,
    pub types: &'s Types<'a>,
    pub ar: Arith,
    /// Whether allocations may fail (see `c::meaning`).
    pub allocation: Allocation,
    pub limits: Limits,
    pub deadline: Instant,
    /// Inputs are variables and branches on them follow the path
    /// condition (`symbolic.rs`).
    pub symbolic: bool,
    /// Valuations the symbolic exploration found for runs it could not
    /// finish (for the search of a repeated state).
    pub seeds: std::cell::RefCell<Vec<Inputs>>,
    /// Some run of the exploration read an input.
    pub read_input: std::cell::Cell<bool>,
    /// Some run of the exploration forked at an allocation that may fail.
    pub forked_on_allocation: std::cell::Cell<bool>,
}

impl<'s, 'a> Program<'s, 'a> {
    /// A fresh interpreter for one run replaying `script`, with a
    /// checkpoint every `every` steps (0: none).
    pub(super) fn interp(&self, script: Vec<usize>, every: u64) -> Interp<'s, 'a> {
        Interp {
            unit: self.unit,
            addressed: self.addressed.clone(),
            table: self.table,
            types: self.types,
            ar: self.ar,
            allocation: self.allocation,
            mem: Memory::default(),
            globals: HashMap::new(),
            frames: Vec::new(),
            statics: HashMap::new(),
            literals: HashMap::new(),
            script,
            trace: Vec::new(),
            steps: 0,
            limits: self.limits,
            deadline: self.deadline,
            loops: HashMap::new(),
            labels: HashMap::new(),
            nesting: HashMap::new(),
            loop_stack: Vec::new(),
            checkpoint_every: every,
            checkpoints: Vec::new(),
            last_checkpoint: 0,
            no_checkpoint: 0,
            resume: None,
            concrete: None,
            symbolic: self.symbolic.then(|| Box::new(super::path::Symbolic::new())),
            read_input: false,
            forked_on_allocation: false,
            accelerating: false,
            joining: 0,
            joined: 0,
            join_script: Vec::new(),
            join_trace: Vec::new(),
            join_waste: 0,
            accelerated: 0,
            strides: 0,
        }
    }

    /// One run, replaying `script`, from the start or from `from` (a
    /// checkpoint taken before a choice `script` keeps), with a checkpoint
    /// every `every` steps (0: none).
    fn run(&self, script: &[usize], from: Option<&Checkpoint>, every: u64) -> RunResult {
        let mut it = self.interp(script.to_vec(), every);
        let stop = match from {
            None => it.start(),
            Some(cp) => {
                it.restore(cp);
                it.resume_main()
            }
        };
        let (stop, undefined) = match stop {
            Ok(()) | Err(Stop::Ended) => (Stop::Ended, None),
            Err(Stop::Undefined { kind, at }) => (Stop::Ended, Some((kind, at))),
            Err(e) => (e, None),
        };
        if !matches!(stop, Stop::Ended) {
            if let Some(seed) = it.symbolic.as_ref().and_then(|s| s.seed()) {
                self.seeds.borrow_mut().push(seed);
            }
        }
        let pruned = it.symbolic.as_ref().map_or(0, |s| s.pruned);
        if it.read_input {
            self.read_input.set(true);
        }
        if it.forked_on_allocation {
            self.forked_on_allocation.set(true);
        }
        RunResult { stop, trace: it.trace, steps: it.steps, from: from.map_or(0, |c| c.steps), loops: it.loops, nesting: it.nesting, checkpoints: it.checkpoints, pruned, accelerated: it.accelerated, joined: it.joined, undefined }
    }

    /// Every run, depth first: the evidence when every run ends, else why not.
    pub(crate) fn explore(&self) -> Result<Evidence, Stop> {
        let mut script: Vec<usize> = Vec::new();
        let mut runs: Vec<Run> = Vec::new();
        let mut loops: HashMap<usize, (usize, u64)> = HashMap::new();
        let mut total = 0u64;
        let mut pruned = 0usize;
        let mut nesting: HashMap<String, usize> = HashMap::new();
        let mut accelerated = 0u64;
        let mut joined = 0usize;
        let mut undefined: Vec<UndefinedEnding> = Vec::new();
        let mut checkpoints = Checkpoints::default();
        loop {
            // A run looks at the clock every few thousand steps; thousands
            // of shorter runs (an event loop forking on its input) would
            // never get there.
            if Instant::now() > self.deadline {
                return Err(Stop::give_up("out of time for executing the runs"));
            }
            // The script changes the last run's choice `k` (its last).
            let from = checkpoints.before(script.len().saturating_sub(1));
            let mut r = self.run(&script, from, self.limits.checkpoint_steps);
            if !matches!(r.stop, Stop::Ended) {
                return Err(r.stop);
            }
            checkpoints.0.append(&mut r.checkpoints);
            total += r.steps - r.from;
            pruned += r.pruned;
            accelerated = accelerated.max(r.accelerated);
            joined += r.joined;
            if let Some((kind, at)) = r.undefined.take() {
                match undefined.iter_mut().find(|u| u.kind == kind && u.at == at) {
                    Some(u) => u.runs += 1,
                    None => undefined.push(UndefinedEnding { kind, at, runs: 1 }),
                }
            }
            if total > self.limits.total_steps {
                return Err(Stop::give_up(format!("runs of more than {} steps in all", self.limits.total_steps)));
            }
            for (f, n) in r.nesting {
                let e = nesting.entry(f).or_insert(0);
                *e = (*e).max(n);
            }
            for (k, (at, n)) in r.loops {
                let e = loops.entry(k).or_insert((at, 0));
                e.1 = e.1.max(n);
            }
            runs.push(Run { choices: r.trace.iter().map(|c| c.0).collect(), steps: r.steps });
            if runs.len() > self.limits.runs {
                return Err(Stop::give_up(format!("more than {} runs", self.limits.runs)));
            }
            let mut trace = r.trace;
            let next = loop {
                match trace.pop() {
                    Some((c, n)) if c + 1 < n => {
                        let mut s: Vec<usize> = trace.iter().map(|c| c.0).collect();
                        s.push(c + 1);
                        break Some(s);
                    }
                    Some(_) => {}
                    None => break None,
                }
            };
            match next {
                Some(s) => script = s,
                None => break,
            }
        }
        self.check(&runs, total)?;
        let mut bounds: Vec<(usize, u64)> = loops.into_values().collect();
        bounds.sort();
        let loops = bounds
            .into_iter()
            .map(|(at, n)| {
                let span = self.types.span(lang_c::span::Span::span(at, at + 1));
                LoopBound { line: span.as_ref().map_or(0, |s| s.line), column: span.as_ref().map_or(0, |s| s.col), iterations: n }
            })
            .collect();
        let mut recursions: Vec<(String, usize)> = nesting.into_iter().filter(|(_, n)| *n > 1).collect();
        recursions.sort();
        let pruned = self.symbolic.then_some(pruned);
        Ok(Evidence {
            runs: runs.len(),
            most_steps: runs.iter().map(|r| r.steps).max().unwrap_or(0),
            loops,
            recursions,
            pruned,
            accelerated,
            joined,
            undefined,
            read_input: self.read_input.get(),
            allocations_fail: self.forked_on_allocation.get(),
        })
    }

    /// The re-check of the run tree: each recorded run replayed in a fresh
    /// state must end, with the same choices and steps; and at every choice
    /// of every run, each alternative the replay offers must begin some
    /// recorded run (so the runs cover every execution).
    ///
    /// Each run is replayed from the start when all of them together are
    /// within twice the exploration's work (`work` steps, or at least
    /// [`REPLAY_STEPS`]); else from checkpoints the re-check takes
    /// itself, at other places than the exploration's (another spacing),
    /// so that a resumed run that differed from one run from the start
    /// would show as a differing run.
    fn check(&self, runs: &[Run], work: u64) -> Result<(), Stop> {
        let fail = |why: &str| Stop::give_up(format!("the re-check of the runs failed: {why}"));
        let mut prefixes: HashSet<&[usize]> = HashSet::new();
        for r in runs {
            for i in 0..=r.choices.len() {
                prefixes.insert(&r.choices[..i]);
            }
        }
        let mut seen: HashSet<&[usize]> = HashSet::new();
        let whole: u64 = runs.iter().map(|r| r.steps).sum();
        let every = if whole <= 2 * work.max(REPLAY_STEPS) || self.limits.checkpoint_steps == 0 { 0 } else { self.limits.checkpoint_steps * 3 / 2 + 7 };
        let mut checkpoints = Checkpoints::default();
        let mut last: &[usize] = &[];
        for r in runs {
            if !seen.insert(&r.choices) {
                return Err(fail("a run recorded twice"));
            }
            if Instant::now() > self.deadline {
                return Err(fail("out of time"));
            }
            let kept = last.iter().zip(&r.choices).take_while(|(a, b)| a == b).count();
            last = &r.choices;
            let mut again = self.run(&r.choices, checkpoints.before(kept), every);
            checkpoints.0.append(&mut again.checkpoints);
            match again.stop {
                Stop::Ended | Stop::Undefined { .. } => {}
                // Out of time or another budget: say so, not a failure.
                Stop::GiveUp { why, .. } => return Err(fail(&format!("a run does not end when replayed ({why})"))),
                Stop::Forever(_) => return Err(fail("a run does not end when replayed")),
            }
            if again.steps != r.steps || again.trace.iter().map(|c| c.0).collect::<Vec<_>>() != r.choices {
                return Err(fail("a replayed run differs"));
            }
            let mut prefix = Vec::with_capacity(r.choices.len());
            for (c, n) in &again.trace {
                for k in 0..*n {
                    prefix.push(k);
                    let covered = prefixes.contains(prefix.as_slice());
                    prefix.pop();
                    if !covered {
                        return Err(fail("an alternative of a choice no run takes"));
                    }
                }
                prefix.push(*c);
            }
        }
        Ok(())
    }
}

// Concrete runs: the search for a run that repeats a state (`lasso.rs`).

/// How a concrete run ended, with what it read.
pub(crate) struct ConcreteRun {
    pub stop: Stop,
    pub read: Vec<(usize, IntType, BigInt, usize)>,
    /// The sites of `read` read more than once.
    pub repeated: HashSet<usize>,
    /// The sites of `read` that are allocations.
    pub allocations: HashSet<usize>,
    pub steps: u64,
    pub state: Option<(Vec<(String, String)>, usize, String)>,
    /// Per loop statement met (by node), its position in the parsed text.
    pub loop_starts: HashMap<usize, usize>,
    /// Per block and label jumped to, the label's position.
    pub label_starts: HashMap<(usize, String), usize>,
}

/// How many first candidates a site read again and again starts its
/// increasing values from (0, 1, -1).
const RISING_STARTS: usize = 3;

/// Valuations the search for a repeated state keeps queued after a cut.
const QUEUE_KEPT: usize = 4096;

/// A valuation's hash, to remember it was queued.
fn inputs_hash(inputs: &Inputs) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    inputs.hash(&mut h);
    h.finish()
}

/// The cost of an input in the search of a repeated state: how far down
/// the list of candidates it is (increasing values after the constant
/// ones of the same start).
fn input_cost(input: &Input) -> usize {
    match input {
        Input::Candidate(k) => *k,
        Input::Rising(k) => *k + 2,
        Input::Exact(_) => 0,
    }
}

impl<'s, 'a> Program<'s, 'a> {
    /// One concrete run under `inputs` (`check`: the repeat to confirm).
    fn concrete_run(&self, inputs: &Inputs, check: Option<Repeat>, limits: Limits) -> ConcreteRun {
        let mut it = self.interp(Vec::new(), 0);
        it.limits = limits;
        it.mem.digest = Some(0);
        it.concrete = Some(Box::new(Concrete { inputs: inputs.clone(), check: check.map(|r| (r, None)), ..Concrete::default() }));
        let stop = match it.start() {
            Ok(()) | Err(Stop::Undefined { .. }) => Stop::Ended,
            Err(e) => e,
        };
        let (read, reads, allocations, state, label_starts) =
            it.concrete.take().map(|c| (c.read, c.reads, c.allocations, c.found, c.labels)).unwrap_or_default();
        let loop_starts = it.loops.iter().map(|(k, (at, _))| (*k, *at)).collect();
        let repeated = reads.into_iter().filter(|(_, n)| *n > 1).map(|(site, _)| site).collect();
        ConcreteRun { stop, read, repeated, allocations, steps: it.steps, state, loop_starts, label_starts }
    }

    /// Search valuations of the inputs for a run that repeats a state at
    /// a loop's head, breadth first by how many sites leave zero (each
    /// new valuation changes one more site a run read), within the
    /// deadline, `runs` runs and `total_steps` steps; a repeat found is confirmed by
    /// [`Program::confirm`].
    pub(crate) fn search_lasso(&self, runs: usize, total_steps: u64, seeds: &[Inputs]) -> Result<Lasso, Stop> {
        let limits = Limits { steps_per_run: 500_000, ..self.limits };
        // Cheapest first: fewer sites away from zero, smaller candidates
        // (a loop with an input bound at INT_MAX takes a whole run); the
        // seeds (from path conditions) before all.
        let mut queue: BinaryHeap<Reverse<(usize, usize, Inputs)>> = BinaryHeap::from([Reverse((0, 0, Inputs::new()))]);
        for s in seeds {
            queue.push(Reverse((0, 0, s.clone())));
        }
        // What was queued is remembered by a 64-bit hash, and the queue is
        // cut back to its cheapest entries when it grows: a run of a
        // protocol reads hundreds of sites, each giving a dozen new
        // valuations, and the copies took a gigabyte in 20 s. A hash that
        // collides, or an entry cut, only skips a valuation (the search
        // finds a NO, never a YES; every lasso found is confirmed).
        let mut tried: HashSet<u64> = HashSet::new();
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
                Stop::Ended | Stop::Undefined { .. } => {}
            }
            for (site, t, _, _) in &r.read {
                if inputs.contains_key(site) {
                    continue;
                }
                // A site read again and again (inside a loop) also gets
                // increasing values, from the first few candidates; an
                // allocation is not an input of that kind.
                let rising = if r.repeated.contains(site) && !r.allocations.contains(site) { RISING_STARTS } else { 0 };
                let mut k = 1;
                let alternatives = std::iter::from_fn(|| {
                    let c = candidate(*t, k).map(|_| Input::Candidate(k));
                    k += 1;
                    c
                })
                .chain((0..rising).map(Input::Rising));
                for input in alternatives {
                    let mut next = inputs.clone();
                    next.insert(*site, input);
                    if tried.insert(inputs_hash(&next)) {
                        let cost = next.values().map(input_cost).sum::<usize>();
                        queue.push(Reverse((cost, next.len(), next)));
                    }
                }
            }
            if queue.len() > 2 * QUEUE_KEPT {
                // Ascending `Reverse` order: the cheapest entries last.
                let mut entries = std::mem::take(&mut queue).into_sorted_vec();
                entries.drain(..entries.len() - QUEUE_KEPT);
                queue = BinaryHeap::from(entries);
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
            Place::Jump { block, label, .. } => (again.label_starts.get(&(*block, label.clone())).copied()?, LassoKind::Loop),
            Place::Call { function } => (self.types.signatures().function(function)?.def?.span.start, LassoKind::Recursion),
        };
        let span = self.types.span(lang_c::span::Span::span(start, start + 1));
        let place = |at: usize| {
            let s = self.types.span(lang_c::span::Span::span(at, at + 1));
            (s.as_ref().map_or(0, |s| s.line), s.as_ref().map_or(0, |s| s.col))
        };
        let (allocations, read): (Vec<_>, Vec<_>) = again.read.iter().partition(|(site, ..)| again.allocations.contains(site));
        let mut inputs: Vec<(usize, usize, IntType, BigInt, bool)> = read
            .into_iter()
            .map(|(site, t, v, at)| {
                let (line, col) = place(*at);
                (line, col, *t, v.clone(), matches!(inputs.get(site), Some(Input::Rising(_))) && again.repeated.contains(site))
            })
            .collect();
        inputs.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        let mut failing_allocations: Vec<(usize, usize)> =
            allocations.into_iter().filter(|(_, _, v, _)| *v == BigInt::from(1)).map(|(_, _, _, at)| place(*at)).collect();
        failing_allocations.sort();
        Some(Lasso {
            kind,
            line: span.as_ref().map_or(0, |s| s.line),
            column: span.as_ref().map_or(0, |s| s.col),
            function,
            stem_iterations: rep.first,
            period: rep.again - rep.first,
            steps: again.steps,
            inputs,
            failing_allocations,
            state,
            heap_blocks,
        })
    }
}

impl<'s, 'a> Interp<'s, 'a> {
    /// The globals (zero, then their initializers in the order of the
    /// file), then `main`; its return ends the run.
    pub(crate) fn start(&mut self) -> Result<(), Stop> {
        let unit = self.unit;
        // One object per name: the type of its definition (an initializer
        // completes an array's), declared by some declaration not `extern`.
        let mut objects: HashMap<String, (CType, bool)> = HashMap::new();
        let mut order = Vec::new();
        for ext in &unit.0 {
            let ExternalDeclaration::Declaration(d) = &ext.node else { continue };
            for init in &d.node.declarators {
                let Some((ty, _, is_extern)) = self.table.declared_at(init as *const Node<InitDeclarator> as usize).cloned() else { continue };
                let Some(name) = declarator_name(&init.node.declarator.node) else { continue };
                if matches!(ty, CType::Function) || typedef(d) {
                    continue;
                }
                let e = objects.entry(name.clone()).or_insert_with(|| {
                    order.push(name.clone());
                    (ty.clone(), false)
                });
                if init.node.initializer.is_some() || self.types.byte_size(&e.0).is_none() {
                    e.0 = ty;
                }
                e.1 |= !is_extern;
                if let Some(i) = &init.node.initializer {
                    let _ = i;
                }
            }
        }
        for name in &order {
            let (ty, defined) = &objects[name];
            if self.types.byte_size(ty).is_none() {
                continue;
            }
            // An object only declared `extern` is defined elsewhere, with
            // contents this program does not know: every byte unknown, so
            // a branch on it takes both ways (a driver's `acpi_disabled`,
            // a module's `__this_module` whose address is passed around).
            let fill = if *defined { Byte::Known(0) } else { Byte::Unknown };
            let b = self.new_object(ty, Kind::Global, fill)?;
            self.globals.insert(name.clone(), (b, ty.clone()));
        }
        for ext in &unit.0 {
            let ExternalDeclaration::Declaration(d) = &ext.node else { continue };
            for init in &d.node.declarators {
                let (Some(i), Some(name)) = (&init.node.initializer, declarator_name(&init.node.declarator.node)) else { continue };
                let (b, ty) = self.globals.get(&name).cloned().ok_or_else(|| Stop::give_up(format!("the global `{name}`")))?;
                self.initialize(&Ptr::At { block: b, offset: 0 }, &ty, i).map_err(|e| e.at(self.span(init.span)))?;
            }
        }
        let info = self.types.signatures().function("main").cloned().ok_or_else(|| Stop::give_up("no `main`"))?;
        if info.def.is_none() {
            return Err(Stop::give_up("no `main` with a body"));
        }
        // `main(argc, argv)`: argc any value, argv any pointer (never
        // dereferenced).
        let args = info
            .params
            .iter()
            .map(|p| match &p.ty {
                CType::Int(t) => Value::Int(*t, None),
                _ => Value::Ptr(None),
            })
            .collect();
        self.call_function("main", args)?;
        Err(Stop::Ended)
    }
}

fn typedef(d: &Node<Declaration>) -> bool {
    d.node.specifiers.iter().any(|s| matches!(&s.node, DeclarationSpecifier::StorageClass(c) if matches!(c.node, StorageClassSpecifier::Typedef)))
}

/// What execution decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every run ends (YES).
    Terminates(Evidence),
    /// A run comes back to a state it was in (NO).
    Forever(super::Lasso),
}

/// Runs and steps of the first search for a repeated state, before the
/// exploration of every run (most lassos a concrete run finds need a few
/// short runs).
const QUICK_LASSO: (usize, u64) = (64, 2_000_000);
/// Runs and steps of the search after the exploration gave up (about as
/// many seconds as millions of steps: the search runs beside the proof
/// and shares the machine with it).
const LASSO: (usize, u64) = (5_000, 10_000_000);
/// Steps of one run of the symbolic exploration (a run that does not
/// end gives its path condition's model to the search sooner).
const SYMBOLIC_STEPS: u64 = 2_000_000;
/// The nice value of that search's thread.
const LASSO_NICE: i32 = 10;

/// Execute a parsed program: a short search for a run that repeats a
/// state (NO), every run (YES), then a longer search; the verdict, or why
/// not.
pub(crate) fn explore_unit<'a>(unit: &'a TranslationUnit, table: &ExprTypes, types: &Types<'a>, ar: Arith, allocation: Allocation, limits: Limits, deadline: Instant) -> Result<Verdict, String> {
    let start = Instant::now();
    let quick = start + deadline.saturating_duration_since(start).mul_f64(0.1).min(std::time::Duration::from_millis(500));
    let addressed = std::rc::Rc::new(crate::c::lower::facts::addressed_in_unit(unit));
    let program = |deadline: Instant, symbolic: bool| Program { unit, addressed: addressed.clone(), table, types, ar, allocation, limits, deadline, symbolic, seeds: Default::default(), read_input: Default::default(), forked_on_allocation: Default::default() };
    let first = program(quick.min(deadline), false);
    if let Ok(l) = first.search_lasso(QUICK_LASSO.0, QUICK_LASSO.1, &[]) {
        return Ok(Verdict::Forever(l));
    }
    let p = program(deadline, false);
    let why = match p.explore() {
        Ok(e) => return Ok(Verdict::Terminates(e)),
        Err(e) => e,
    };
    // Every run again with symbolic inputs, if a run read one (the plain
    // exploration forks at every test of an input and forgets the branch;
    // where it gave up for another reason, this one gives up there too):
    // half the time left (a checkpoint keeps the path condition's facts:
    // a resumed run does not ask Z3 again about its prefix's branches).
    let now = Instant::now();
    let symbolic = Program { limits: Limits { steps_per_run: SYMBOLIC_STEPS, ..limits }, ..program(now + deadline.saturating_duration_since(now) / 2, true) };
    let mut symbolic_why = None;
    if p.read_input.get() {
        match symbolic.explore() {
            Ok(e) => return Ok(Verdict::Terminates(e)),
            Err(e) => symbolic_why = Some(e),
        }
    }
    let seeds = symbolic.seeds.take();
    // The long search runs beside the proof for seconds: at a lower
    // priority, so that the proof's threads keep the processors while
    // they work (the README's 3pieces took 13 % longer without). The
    // symbolic exploration before it keeps the normal priority: at nice
    // 10 it got 5 % of the processors beside the proof's four engine
    // threads (pals_lcr.4_overflow: YES after 10.9 s, at nice 0 8.4 s;
    // 3pieces unchanged, median wall ratio 1.02 over 7 paired runs).
    crate::solve::budget::lower_thread_priority(LASSO_NICE);
    if let Ok(l) = p.search_lasso(LASSO.0, LASSO.1, &seeds) {
        return Ok(Verdict::Forever(l));
    }
    Err(match symbolic_why {
        Some(s) => format!("{}; with symbolic inputs: {}", stop_text(why), stop_text(s)),
        None => stop_text(why),
    })
}

/// Why an exploration stopped, with its place.
fn stop_text(s: Stop) -> String {
    match s {
        Stop::GiveUp { why, at: Some(at) } => format!("{at}: {why}"),
        Stop::GiveUp { why, at: None } => why,
        Stop::Ended | Stop::Undefined { .. } | Stop::Forever(_) => "no runs".into(),
    }
}
