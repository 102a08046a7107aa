//! Concrete runs of the program model: an interpreter over the IR, with the
//! program's inputs chosen at random (biased towards the constants its
//! conditions compare with), many runs per second.
//!
//! What it is for: finding a run that comes back to a state it was in at a
//! cut-point — a lasso. On a reactive program (an event loop reading inputs,
//! a state machine, a sequentialized thread scheduler) that is usually how
//! non-termination shows, and a concrete search finds it in milliseconds
//! where a symbolic one needs seconds. Nothing here is trusted: the caller
//! turns a lasso into a non-termination witness, which the certificate
//! checker re-checks on the exact model.
//!
//! The interpreter follows the model's semantics (the terms of
//! [`crate::term`], mathematical integers, Euclidean `div`/`mod`) with
//! `i128` values; a value outside `i128` ends the run. A value the model
//! does not know (`choose`) blocks the run: no witness may rest on one.

use super::{Action, LocId, Program};
use crate::term::{Op, Term};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

mod explore;
mod fate;
pub use fate::Fate;

/// An integer expression over the program's variables (by index into
/// `Program::vars`).
#[derive(Clone, Debug)]
enum Expr {
    Int(i128),
    Var(usize),
    Add(Vec<Expr>),
    Sub(Vec<Expr>),
    Mul(Vec<Expr>),
    Neg(Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
    Mod(Box<Expr>, Box<Expr>),
    Ite(Box<Cond>, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug)]
enum Cmp {
    Le,
    Lt,
    Ge,
    Gt,
    Eq,
}

/// A condition over the program's variables.
#[derive(Clone, Debug)]
enum Cond {
    Const(bool),
    Cmp(Cmp, Expr, Expr),
    /// Equality of two conditions.
    Iff(Box<Cond>, Box<Cond>),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
    Ite(Box<Cond>, Box<Cond>, Box<Cond>),
}

#[derive(Clone, Debug)]
enum Step {
    Assume(Cond),
    Assign(usize, Expr),
    /// An input: any value of the variable's type.
    Input(usize),
    /// A value the model does not know: the run is blocked.
    Unknown,
}

/// A term the interpreter does not take (a Boolean variable, a sort mix-up).
struct NotCompiled;

struct Compiler<'a> {
    index: HashMap<&'a str, usize>,
}

impl Compiler<'_> {
    fn expr(&self, t: &Term) -> Result<Expr, NotCompiled> {
        Ok(match t {
            Term::Int(i) => Expr::Int(i128::try_from(i).map_err(|_| NotCompiled)?),
            Term::Var(n, _) => Expr::Var(*self.index.get(n.as_str()).ok_or(NotCompiled)?),
            Term::Bool(_) => return Err(NotCompiled),
            Term::App(op, args) => {
                let all = |s: &Self| args.iter().map(|a| s.expr(a)).collect::<Result<Vec<_>, _>>();
                let two = |s: &Self| -> Result<(Box<Expr>, Box<Expr>), NotCompiled> {
                    match &args[..] {
                        [a, b] => Ok((Box::new(s.expr(a)?), Box::new(s.expr(b)?))),
                        _ => Err(NotCompiled),
                    }
                };
                match op {
                    Op::Add => Expr::Add(all(self)?),
                    Op::Sub if args.len() == 1 => Expr::Neg(Box::new(self.expr(&args[0])?)),
                    Op::Sub => Expr::Sub(all(self)?),
                    Op::Mul => Expr::Mul(all(self)?),
                    Op::Neg => Expr::Neg(Box::new(self.expr(args.first().ok_or(NotCompiled)?)?)),
                    Op::Div => {
                        let (a, b) = two(self)?;
                        Expr::Div(a, b)
                    }
                    Op::Mod => {
                        let (a, b) = two(self)?;
                        Expr::Mod(a, b)
                    }
                    Op::Ite => match &args[..] {
                        [c, a, b] => Expr::Ite(Box::new(self.cond(c)?), Box::new(self.expr(a)?), Box::new(self.expr(b)?)),
                        _ => return Err(NotCompiled),
                    },
                    _ => return Err(NotCompiled),
                }
            }
        })
    }

    fn cond(&self, t: &Term) -> Result<Cond, NotCompiled> {
        Ok(match t {
            Term::Bool(b) => Cond::Const(*b),
            Term::Int(_) | Term::Var(..) => return Err(NotCompiled),
            Term::App(op, args) => {
                let conds = |s: &Self| args.iter().map(|a| s.cond(a)).collect::<Result<Vec<_>, _>>();
                let cmp = |s: &Self, c: Cmp| match &args[..] {
                    [a, b] => Ok(Cond::Cmp(c, s.expr(a)?, s.expr(b)?)),
                    _ => Err(NotCompiled),
                };
                match op {
                    Op::Le => cmp(self, Cmp::Le)?,
                    Op::Lt => cmp(self, Cmp::Lt)?,
                    Op::Ge => cmp(self, Cmp::Ge)?,
                    Op::Gt => cmp(self, Cmp::Gt)?,
                    // An equation of integers, or else of conditions.
                    Op::Eq => match cmp(self, Cmp::Eq) {
                        Ok(c) => c,
                        Err(_) => match &args[..] {
                            [a, b] => Cond::Iff(Box::new(self.cond(a)?), Box::new(self.cond(b)?)),
                            _ => return Err(NotCompiled),
                        },
                    },
                    Op::And => Cond::And(conds(self)?),
                    Op::Or => Cond::Or(conds(self)?),
                    Op::Not => Cond::Not(Box::new(self.cond(args.first().ok_or(NotCompiled)?)?)),
                    Op::Implies => match &args[..] {
                        [a, b] => Cond::Or(vec![Cond::Not(Box::new(self.cond(a)?)), self.cond(b)?]),
                        _ => return Err(NotCompiled),
                    },
                    Op::Ite => match &args[..] {
                        [c, a, b] => Cond::Ite(Box::new(self.cond(c)?), Box::new(self.cond(a)?), Box::new(self.cond(b)?)),
                        _ => return Err(NotCompiled),
                    },
                    _ => return Err(NotCompiled),
                }
            }
        })
    }
}

fn eval(e: &Expr, s: &[i128]) -> Option<i128> {
    Some(match e {
        Expr::Int(i) => *i,
        Expr::Var(v) => s[*v],
        Expr::Add(a) => a.iter().try_fold(0i128, |acc, x| acc.checked_add(eval(x, s)?))?,
        Expr::Mul(a) => a.iter().try_fold(1i128, |acc, x| acc.checked_mul(eval(x, s)?))?,
        Expr::Sub(a) => {
            let (first, rest) = a.split_first()?;
            rest.iter().try_fold(eval(first, s)?, |acc, x| acc.checked_sub(eval(x, s)?))?
        }
        Expr::Neg(a) => eval(a, s)?.checked_neg()?,
        // SMT-LIB's Euclidean division: the remainder is never negative.
        Expr::Div(a, b) => eval(a, s)?.checked_div_euclid(eval(b, s)?)?,
        Expr::Mod(a, b) => eval(a, s)?.checked_rem_euclid(eval(b, s)?)?,
        Expr::Ite(c, a, b) => {
            if holds(c, s)? {
                eval(a, s)?
            } else {
                eval(b, s)?
            }
        }
    })
}

fn holds(c: &Cond, s: &[i128]) -> Option<bool> {
    Some(match c {
        Cond::Const(b) => *b,
        Cond::Cmp(op, a, b) => {
            let (a, b) = (eval(a, s)?, eval(b, s)?);
            match op {
                Cmp::Le => a <= b,
                Cmp::Lt => a < b,
                Cmp::Ge => a >= b,
                Cmp::Gt => a > b,
                Cmp::Eq => a == b,
            }
        }
        Cond::Iff(a, b) => holds(a, s)? == holds(b, s)?,
        Cond::And(a) => {
            for x in a {
                if !holds(x, s)? {
                    return Some(false);
                }
            }
            true
        }
        Cond::Or(a) => {
            for x in a {
                if holds(x, s)? {
                    return Some(true);
                }
            }
            false
        }
        Cond::Not(a) => !holds(a, s)?,
        Cond::Ite(c, a, b) => {
            if holds(c, s)? {
                holds(a, s)?
            } else {
                holds(b, s)?
            }
        }
    })
}

/// Where runs stop and what they remember: the cut-points (every cycle of
/// the program passes one) and the variables live at each of them. A
/// variable dead at a cut-point is set to 0 there, as the Horn encoding
/// does, so that two visits differing only in stale values are one state.
pub struct Cuts {
    pub cut: Vec<bool>,
    /// By location: which variables (by index into `Program::vars`) are
    /// live; used at cut-points only.
    pub live: Vec<Vec<bool>>,
}

/// One visit of a cut-point in a run: the state there, and the program's
/// edges (indices into `Program::edges`) taken since the previous visit (or
/// since the program start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visit {
    pub at: LocId,
    pub state: Vec<i128>,
    pub path: Vec<usize>,
}

/// A run that came back to a state it was in: `visits[first]` and the last
/// visit are the same location and state.
#[derive(Clone, Debug)]
pub struct Lasso {
    pub visits: Vec<Visit>,
    pub first: usize,
}

impl Lasso {
    /// The visits of the cycle, each followed by the next (the last by the
    /// first).
    pub fn cycle(&self) -> &[Visit] {
        &self.visits[self.first..self.visits.len() - 1]
    }
}

/// The program compiled for running.
pub struct Runner<'p> {
    program: &'p Program,
    steps: Vec<Vec<Step>>,
    out: Vec<Vec<usize>>,
    /// Each variable's range (its C type's; `Bool` 0..1).
    ranges: Vec<(i128, i128)>,
    /// Whether each variable is the outcome of an allocation (never 0 in
    /// the runs searched: the witness model lets every allocation succeed).
    allocation: Vec<bool>,
    /// The integer constants of the program's conditions and assignments
    /// (and their neighbours): inputs are drawn from them most of the time.
    constants: Vec<i128>,
    /// The values the first input of a segment takes in turn in
    /// [`Runner::successors`]: small numbers, then the constants by size.
    enumerated: Vec<i128>,
}

/// How a segment between two cut-points ended.
enum Segment {
    Reached(LocId),
    /// The program exit, or a location where no edge can be taken.
    Stopped,
}

/// Attempts at leaving a cut-point towards another one before the run is
/// given up (a reactive loop leaves on some inputs and stays on others).
const TRIES_PER_VISIT: usize = 32;
/// Visits of one run before it is given up and a new one starts.
const MAX_VISITS: usize = 20_000;
/// Locations one segment may pass (segments are acyclic: a safeguard).
const MAX_SEGMENT: usize = 1_000_000;

impl<'p> Runner<'p> {
    /// `None` when some action is not one the interpreter takes.
    pub fn new(program: &'p Program) -> Option<Runner<'p>> {
        let c = Compiler { index: program.vars.iter().enumerate().map(|(i, v)| (v.name.as_str(), i)).collect() };
        let mut constants = BTreeSet::new();
        let steps = program
            .edges
            .iter()
            .map(|e| {
                e.actions
                    .iter()
                    .map(|a| {
                        if let Action::Assume(t) | Action::Assign(_, t) = a {
                            collect_constants(t, &mut constants);
                        }
                        Ok(match a {
                            Action::Assume(t) => Step::Assume(c.cond(t)?),
                            Action::Assign(v, t) => Step::Assign(*c.index.get(v.as_str()).ok_or(NotCompiled)?, c.expr(t)?),
                            Action::Havoc(v) => Step::Input(*c.index.get(v.as_str()).ok_or(NotCompiled)?),
                            Action::Choose(_) | Action::Inexact => Step::Unknown,
                            Action::Mark(_) => Step::Assume(c.cond(&Term::tt())?),
                        })
                    })
                    .collect::<Result<Vec<_>, NotCompiled>>()
            })
            .collect::<Result<Vec<_>, NotCompiled>>()
            .ok()?;
        let mut out = vec![Vec::new(); program.locations.len()];
        for (i, e) in program.edges.iter().enumerate() {
            out.get_mut(e.from)?.push(i);
        }
        let ranges = program
            .vars
            .iter()
            .map(|v| (i128::try_from(v.ty.min()).unwrap_or(i128::MIN / 2), i128::try_from(v.ty.max()).unwrap_or(i128::MAX / 2)))
            .collect();
        let allocation = program.vars.iter().map(|v| v.is_allocation_result()).collect();
        let mut pool = BTreeSet::new();
        for k in constants {
            for d in [-1, 0, 1] {
                if let Some(x) = k.checked_add(d) {
                    pool.insert(x);
                }
            }
        }
        pool.extend([-1, 0, 1]);
        let mut enumerated: Vec<i128> = vec![0, 1, -1, 2, 3, 4, 5, 6, 7, 8, -2, -3, -4];
        let mut by_size: Vec<i128> = pool.iter().copied().filter(|x| !enumerated.contains(x)).collect();
        by_size.sort_by_key(|x| (x.unsigned_abs(), *x < 0));
        enumerated.extend(by_size);
        enumerated.truncate(ENUMERATED_INPUTS);
        Some(Runner { program, steps, out, ranges, allocation, constants: pool.into_iter().collect(), enumerated })
    }

    /// An input for variable `v`: a constant of the program most of the
    /// time, else a small number or any value of its range.
    fn input(&self, v: usize, rng: &mut SmallRng) -> i128 {
        let (lo, hi) = self.ranges[v];
        loop {
            let x = match rng.gen_range(0..10) {
                0..=5 => self.constants[rng.gen_range(0..self.constants.len())],
                6..=7 => rng.gen_range(-4..=4),
                _ => {
                    // Uniform over the range, or over 64 bits of it.
                    let (a, b) = (lo.max(i64::MIN as i128), hi.min(i64::MAX as i128));
                    rng.gen_range(a..=b)
                }
            };
            let x = x.clamp(lo, hi);
            if !(self.allocation[v] && x == 0) {
                return x;
            }
        }
    }

    /// Runs `edge`'s actions on `state`; false when an assumption fails or
    /// the edge needs a value the model does not know.
    fn take(&self, edge: usize, state: &mut [i128], inputs: &mut Inputs, rng: &mut SmallRng) -> bool {
        for s in &self.steps[edge] {
            match s {
                Step::Assume(c) => {
                    let h = holds(c, state);
                    inputs.overflowed |= h.is_none();
                    if h != Some(true) {
                        return false;
                    }
                }
                Step::Assign(v, e) => match eval(e, state) {
                    Some(x) => state[*v] = x,
                    None => {
                        inputs.overflowed = true;
                        return false;
                    }
                },
                Step::Input(v) => {
                    let x = match inputs.forced {
                        Some(x) if !(self.allocation[*v] && x == 0) => x.clamp(self.ranges[*v].0, self.ranges[*v].1),
                        _ => match inputs.sticky.then(|| inputs.last[*v]).flatten() {
                            Some(x) => x,
                            None if inputs.small => self.small_input(*v, rng),
                            None => self.input(*v, rng),
                        },
                    };
                    inputs.taken.push((*v, x));
                    state[*v] = x;
                }
                Step::Unknown => return false,
            }
        }
        true
    }

    /// From `at` on to the next cut-point: at each location an edge that can
    /// be taken, tried in random order.
    fn segment(&self, at: LocId, state: &mut Vec<i128>, cuts: &Cuts, path: &mut Vec<usize>, inputs: &mut Inputs, rng: &mut SmallRng) -> Segment {
        let mut l = at;
        let mut trial = state.clone();
        for _ in 0..MAX_SEGMENT {
            if l == self.program.exit {
                return Segment::Stopped;
            }
            let edges = &self.out[l];
            if edges.is_empty() {
                return Segment::Stopped;
            }
            let offset = rng.gen_range(0..edges.len());
            let mut moved = None;
            for k in 0..edges.len() {
                let e = edges[(offset + k) % edges.len()];
                trial.clone_from(state);
                if self.take(e, &mut trial, inputs, rng) {
                    moved = Some(e);
                    break;
                }
            }
            let Some(e) = moved else { return Segment::Stopped };
            std::mem::swap(state, &mut trial);
            path.push(e);
            l = self.program.edges[e].to;
            if cuts.cut.get(l).copied().unwrap_or(false) {
                if l == self.program.exit {
                    return Segment::Stopped;
                }
                if let Some(live) = cuts.live.get(l) {
                    for (x, &is_live) in state.iter_mut().zip(live) {
                        if !is_live {
                            *x = 0;
                        }
                    }
                }
                return Segment::Reached(l);
            }
        }
        Segment::Stopped
    }

    /// Runs from the program start until a run visits a cut-point in a
    /// state it was in before, or `deadline` passes. Deterministic for a
    /// given `seed`. Where no random input gets a run from a cut-point (or
    /// from the start) to the next one, `solve` is asked for a step (see
    /// [`StepSolver`]). Runs start with `prefix` when it is not empty: the
    /// visits of a run to a cut-point found otherwise (by a solver: some
    /// programs start only on inputs random choice does not hit).
    /// `stop` ends the search early (checked as often as the deadline).
    #[allow(clippy::too_many_arguments)]
    pub fn find_lasso(&self, cuts: &Cuts, prefix: &[Visit], seed: u64, deadline: Instant, stop: &dyn Fn() -> bool, solve: &mut StepSolver<'_>) -> Option<Lasso> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let p = self.program;
        let n = p.vars.len();
        let entry_live = cuts.live.get(p.entry);
        let mut run = 0usize;
        while Instant::now() < deadline && !stop() {
            run += 1;
            // Half the runs repeat each input's last value while that
            // lets the run go on: a deterministic system under constant
            // inputs comes back to a state soon where random inputs wander.
            let mut inputs = Inputs { sticky: run % 2 == 0, last: vec![None; n], taken: Vec::new(), forced: None, small: false, overflowed: false };
            // Variables read before written start with arbitrary values.
            let mut state: Vec<i128> = (0..n)
                .map(|v| if entry_live.is_some_and(|l| l.get(v).copied().unwrap_or(false)) { self.input(v, &mut rng) } else { 0 })
                .collect();
            let mut visits: Vec<Visit> = Vec::new();
            // By hash, each visit's index: a long run keeps one copy of its states.
            let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
            let mut at = p.entry;
            let mut from_start = true;
            if cuts.cut.get(p.entry).copied().unwrap_or(false) && prefix.is_empty() {
                seen.entry(key_of(at, &state)).or_default().push(0);
                visits.push(Visit { at, state: state.clone(), path: Vec::new() });
                from_start = false;
            }
            for v in prefix {
                seen.entry(key_of(v.at, &v.state)).or_default().push(visits.len());
                visits.push(v.clone());
                at = v.at;
                state.clone_from(&v.state);
                from_start = false;
            }
            let mut solved = 0usize;
            let mut backtracked = 0usize;
            while visits.len() < MAX_VISITS {
                if visits.len() % 64 == 0 && (Instant::now() >= deadline || stop()) {
                    return None;
                }
                let mut step = None;
                for k in 0..TRIES_PER_VISIT {
                    let mut next = state.clone();
                    let mut path = Vec::new();
                    inputs.taken.clear();
                    // A retry draws fresh inputs.
                    let sticky = inputs.sticky;
                    inputs.sticky = sticky && k == 0;
                    let reached = self.segment(at, &mut next, cuts, &mut path, &mut inputs, &mut rng);
                    inputs.sticky = sticky;
                    if let Segment::Reached(c) = reached {
                        for &(v, x) in &inputs.taken {
                            inputs.last[v] = Some(x);
                        }
                        step = Some((c, next, path));
                        break;
                    }
                }
                // Stuck: back to the visit before (a run into a state
                // from which every path leaves, such as a reactive
                // program's error state, goes another way there), else
                // ask the solver.
                if step.is_none() && backtracked < MAX_BACKTRACKS && visits.len() > prefix.len().max(1) {
                    backtracked += 1;
                    if let Some(dead) = visits.pop() {
                        if let Some(list) = seen.get_mut(&key_of(dead.at, &dead.state)) {
                            list.retain(|&i| i != visits.len());
                        }
                    }
                    if let Some(last) = visits.last() {
                        at = last.at;
                        state.clone_from(&last.state);
                    }
                    continue;
                }
                if step.is_none() && solved < MAX_SOLVED_STEPS {
                    solved += 1;
                    let from = if from_start { None } else { Some(at) };
                    step = solve(from, &state, run);
                }
                let Some((c, next, path)) = step else { break };
                from_start = false;
                let key = key_of(c, &next);
                let before = seen.get(&key).and_then(|earlier| earlier.iter().copied().find(|&i| visits[i].at == c && visits[i].state == next));
                visits.push(Visit { at: c, state: next.clone(), path });
                if let Some(first) = before {
                    return Some(Lasso { visits, first });
                }
                seen.entry(key).or_default().push(visits.len() - 1);
                state = next;
                at = c;
            }
        }
        None
    }
}

/// Random tries for a state's successors after the enumerated ones (see
/// [`Runner::successors`]).
const RANDOM_SUCCESSOR_TRIES: usize = 16;
/// Values the first input of a segment takes in turn (see
/// [`Runner::successors`]), at most.
const ENUMERATED_INPUTS: usize = 80;
/// The depths of the rounds of [`Runner::explore`].
const EXPLORE_DEPTHS: [usize; 4] = [16, 128, 1024, MAX_VISITS];

/// Asked for a step where random inputs get nowhere: from the program
/// start (`None`) or a cut-point, in a state, a step to another cut-point
/// (not the exit), as the cut-point reached, the state there (variables
/// dead there 0) and the edges taken; the third argument varies the
/// choice between calls. A solver picks the inputs by the path condition.
pub type StepSolver<'a> = dyn FnMut(Option<LocId>, &[i128], usize) -> Option<(LocId, Vec<i128>, Vec<usize>)> + 'a;

/// Returns to an earlier visit in one run, when a run is stuck.
const MAX_BACKTRACKS: usize = 64;
/// Steps [`StepSolver`] is asked for in one run.
const MAX_SOLVED_STEPS: usize = 4;

/// How a run chooses its inputs.
struct Inputs {
    /// Repeat each input variable's last value.
    sticky: bool,
    /// Each variable's last input value in the run.
    last: Vec<Option<i128>>,
    /// The inputs drawn in the current segment.
    taken: Vec<(usize, i128)>,
    /// The value of every input of the segment, where it is chosen (see
    /// [`Runner::successors`]).
    forced: Option<i128>,
    /// Draw inputs as [`Runner::small_input`] does.
    small: bool,
    /// A value left `i128` (the run stops there, though the model's does not).
    overflowed: bool,
}

fn key_of(at: LocId, state: &[i128]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    at.hash(&mut h);
    state.hash(&mut h);
    h.finish()
}

fn collect_constants(t: &Term, out: &mut BTreeSet<i128>) {
    match t {
        Term::Int(i) => {
            if let Ok(x) = i128::try_from(i) {
                out.insert(x);
            }
        }
        Term::App(_, args) => args.iter().for_each(|a| collect_constants(a, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{test_program, Edge, IntType, Variable};

    fn int_var(name: &str) -> Variable {
        Variable { name: name.into(), source_name: name.into(), ty: IntType::INT, function: None, origin: crate::ir::Origin::Source, renamed: None }
    }

    fn edge(from: LocId, to: LocId, actions: Vec<Action>) -> Edge {
        Edge { from, to, actions }
    }

    /// `while (1) { x = input; if (x > 3) break; }`: comes back to the
    /// header in the same state once an input at most 3 is drawn.
    #[test]
    fn a_reactive_loop_repeats() {
        let x = || Term::var("x");
        let edges = vec![
            edge(0, 1, vec![Action::Havoc("x".into())]),
            edge(1, 2, vec![Action::Assume(Term::gt(x(), Term::int(3)))]),
            edge(1, 0, vec![Action::Assume(Term::le(x(), Term::int(3)))]),
        ];
        let p = test_program(vec![int_var("x")], 3, edges);
        let r = Runner::new(&p).expect("compiles");
        let cuts = Cuts { cut: vec![true, false, true], live: vec![vec![false]; 3] };
        let lasso = r.find_lasso(&cuts, &[], 1, Instant::now() + std::time::Duration::from_secs(5), &|| false, &mut |_, _, _| None).expect("a lasso");
        assert_eq!(lasso.visits[lasso.first].at, 0);
        assert_eq!(lasso.visits.last().map(|v| v.at), Some(0));
    }

    /// `x = 0; while (x < 10) x++;` never repeats a state.
    #[test]
    fn a_counting_loop_does_not() {
        let x = || Term::var("x");
        let edges = vec![
            edge(0, 1, vec![Action::Assign("x".into(), Term::int(0))]),
            edge(1, 1, vec![Action::Assume(Term::lt(x(), Term::int(10))), Action::Assign("x".into(), Term::add(vec![x(), Term::int(1)]))]),
            edge(1, 2, vec![Action::Assume(Term::ge(x(), Term::int(10)))]),
        ];
        let p = test_program(vec![int_var("x")], 3, edges);
        let r = Runner::new(&p).expect("compiles");
        let cuts = Cuts { cut: vec![false, true, true], live: vec![vec![true]; 3] };
        assert!(r.find_lasso(&cuts, &[], 1, Instant::now() + std::time::Duration::from_millis(200), &|| false, &mut |_, _, _| None).is_none());
    }

    /// Euclidean division and remainder, as in SMT-LIB.
    #[test]
    fn division_is_euclidean() {
        let e = Expr::Div(Box::new(Expr::Int(-7)), Box::new(Expr::Int(2)));
        let m = Expr::Mod(Box::new(Expr::Int(-7)), Box::new(Expr::Int(2)));
        assert_eq!(eval(&e, &[]), Some(-4));
        assert_eq!(eval(&m, &[]), Some(1));
        assert_eq!(eval(&Expr::Div(Box::new(Expr::Int(1)), Box::new(Expr::Int(0))), &[]), None);
    }
}
