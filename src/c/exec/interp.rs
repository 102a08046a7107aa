//! The interpreter's state ([`Interp`]): memory, the objects each name
//! denotes (globals, each frame's scopes), the choices of the run, and
//! the counts the evidence reports; and what every part of it uses:
//! reading the types typing decided, loading and converting values.

pub(crate) use super::path::{Input, Inputs};
use super::memory::{Block, Kind, Memory};
use super::value::{self, Byte, Ptr, Value};
use super::{Limits, Stop};
use crate::c::arith::Arith;
use crate::c::lower::{ExprTypes, Types};
use crate::c::types::CType;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::time::Instant;

/// An object a name denotes: its block and type.
pub(crate) type Object = (usize, CType);

#[derive(Clone, PartialEq)]
pub(crate) struct Frame {
    /// Innermost last; each scope's names and the blocks it made.
    pub scopes: Vec<(HashMap<String, Object>, Vec<usize>)>,
    /// `alloca` blocks (dead when the function returns).
    pub allocas: Vec<usize>,
    /// The function's return type.
    pub ret: CType,
    /// Its name (`__func__`).
    pub name: String,
}

pub(crate) struct Interp<'s, 'a> {
    pub unit: &'a TranslationUnit,
    /// The names whose address the program takes somewhere.
    pub addressed: std::rc::Rc<std::collections::HashSet<String>>,
    pub table: &'s ExprTypes,
    pub types: &'s Types<'a>,
    pub ar: Arith,
    /// Whether allocations may fail (see `c::meaning`).
    pub allocation: crate::c::meaning::Allocation,
    pub mem: Memory,
    pub globals: HashMap<String, Object>,
    pub frames: Vec<Frame>,
    /// `static` locals, by their declarator node.
    pub statics: HashMap<usize, Object>,
    /// String literals, by their node.
    pub literals: HashMap<usize, usize>,
    /// The choices to make (a replayed prefix), and those made: `(choice,
    /// number of alternatives)`.
    pub script: Vec<usize>,
    pub trace: Vec<(usize, usize)>,
    pub steps: u64,
    pub limits: Limits,
    pub deadline: Instant,
    /// Per loop statement (by node): its position in the parsed text and
    /// the most iterations met in one entry.
    pub loops: HashMap<usize, (usize, u64)>,
    /// Whether a statement (by node) holds a label (see `stmt.rs`).
    pub labels: HashMap<(usize, Target), bool>,
    /// Per function, the most calls of it active at once (its recursion).
    pub nesting: HashMap<String, usize>,
    /// Each active loop's iterations in its current entry and the watch
    /// for a stretch to accelerate (`drift.rs`), outermost first (kept
    /// here, not on the Rust stack, so a checkpoint has them and a resumed
    /// run goes on exactly as the run it resumes).
    pub loop_stack: Vec<ActiveLoop>,
    /// Checkpoints (see `checkpoint.rs`): the steps between two (0: none),
    /// those taken in this run, the steps at the last, and how many
    /// constructs a checkpoint cannot be resumed into are active.
    pub checkpoint_every: u64,
    pub checkpoints: Vec<Checkpoint>,
    pub last_checkpoint: u64,
    pub no_checkpoint: u32,
    /// While a run is resumed from a checkpoint: what the way down to its
    /// statement restores.
    pub resume: Option<Resume>,
    /// A concrete run (the search for a repeated state, `lasso.rs`): each
    /// input one value, no choices, nothing unknown read.
    pub concrete: Option<Box<Concrete>>,
    /// Symbolic exploration (`symbolic.rs`): inputs are variables, the
    /// branches on them decided by the path condition.
    pub symbolic: Option<Box<super::path::Symbolic>>,
    /// The run called a `__VERIFIER_nondet_*` function.
    pub read_input: bool,
    /// The run forked at an allocation that may fail.
    pub forked_on_allocation: bool,
    /// A stretch of a loop is being tried for acceleration (`drift.rs`):
    /// a choice ends the try, and no loop inside it is accelerated.
    pub accelerating: bool,
    /// A joined branch is executing (`join.rs`): a choice of the run ends
    /// its path, a branch on inputs is a choice of the path (`join_script`
    /// to replay, `join_trace` made), and no loop inside it is
    /// accelerated.
    pub joining: u32,
    /// Branches this run joined (since its start or checkpoint).
    pub joined: usize,
    pub join_script: Vec<usize>,
    pub join_trace: Vec<(usize, usize)>,
    /// Paths executed for joins that failed, in this run (a checkpoint
    /// keeps the count: a resumed run joins where the run did).
    pub join_waste: usize,
    /// Loop iterations this run took by acceleration, and in how many
    /// strides.
    pub accelerated: u64,
    pub strides: u64,
}

impl<'s, 'a> Interp<'s, 'a> {
    /// One step of the run: the budgets.
    pub(crate) fn step(&mut self) -> Result<(), Stop> {
        // The way down to a checkpoint's statement is not a step: the
        // checkpoint counted the run's steps up to it.
        if self.resume.is_some() {
            return Ok(());
        }
        self.steps += 1;
        if self.steps > self.limits.steps_per_run {
            return Err(Stop::give_up(format!("a run longer than {} steps", self.limits.steps_per_run)));
        }
        if self.steps % 4096 == 0 && Instant::now() > self.deadline {
            return Err(Stop::give_up("out of time for executing the runs"));
        }
        Ok(())
    }

    /// A choice among `n` alternatives: the script's while it lasts, then
    /// the first (the exploration comes back for the others).
    pub(crate) fn choose(&mut self, n: usize) -> Result<usize, Stop> {
        if self.concrete.is_some() {
            return Err(Stop::give_up("a concrete run met an unknown value"));
        }
        if self.accelerating {
            return Err(Stop::give_up("a choice in a stretch tried for acceleration"));
        }
        if self.joining > 0 {
            return Err(Stop::give_up("a choice in a joined branch"));
        }
        let k = self.trace.len();
        if k >= self.limits.choices_per_run {
            return Err(Stop::give_up(format!("a run with more than {} choices (a loop steered by unknown values)", self.limits.choices_per_run)));
        }
        let c = self.script.get(k).copied().unwrap_or(0);
        self.trace.push((c, n));
        Ok(c)
    }

    /// Whether an allocation fails (see `c::meaning::Allocation`): never
    /// under `never-fails`; else a choice, which a concrete run makes per
    /// allocation site like an input.
    pub(crate) fn allocation_fails(&mut self, call: &'a Node<CallExpression>) -> Result<bool, Stop> {
        if self.allocation == crate::c::meaning::Allocation::NeverFails {
            return Ok(false);
        }
        if self.concrete.is_some() {
            // A concrete run: each allocation site fails at every call or
            // at none, a choice of the valuation searched like an input's
            // (candidate 0: it succeeds).
            let site = call as *const Node<CallExpression> as usize;
            if let Some(c) = self.concrete.as_mut() {
                c.allocations.insert(site);
            }
            let fails = self.input(site, call.span.start, IntType::Bool);
            return Ok(matches!(fails, Some(Value::Int(_, Some(v))) if v == BigInt::from(1)));
        }
        self.forked_on_allocation = true;
        Ok(self.choose(2)? == 1)
    }

    /// Whether an integer or pointer is true; an unknown one forks.
    pub(crate) fn decide(&mut self, v: &Value) -> Result<bool, Stop> {
        if let Value::Symbolic(s) = v {
            return self.decide_term(self.ar.truth(s));
        }
        Ok(match value::truth(v)? {
            Some(b) => b,
            None => self.choose(2)? == 0,
        })
    }

    pub(crate) fn span(&self, s: lang_c::span::Span) -> Option<crate::ir::Span> {
        self.types.span(s)
    }

    /// The type typing decided for `e`, as an object (arrays not decayed).
    pub(crate) fn object_type(&self, e: &'a Node<Expression>) -> Result<CType, Stop> {
        match self.table.type_at(e as *const Node<Expression> as usize) {
            Some(CType::Unsupported(w)) => Err(Stop::give_up(format!("a value of a type not modelled ({w})"))),
            Some(t) => Ok(t.clone()),
            None => Err(Stop::give_up("an expression typing did not decide")),
        }
    }

    pub(crate) fn size(&self, t: &CType) -> Result<u64, Stop> {
        match t {
            CType::Void | CType::Function => Ok(1),
            t => self.types.byte_size(t).ok_or_else(|| Stop::give_up("an object of incomplete or variable size")),
        }
    }

    pub(crate) fn int_size(&self, t: IntType) -> u64 {
        u64::from(self.ar.machine().size_of(t))
    }

    pub(crate) fn pointer_size(&self) -> u64 {
        u64::from(self.ar.machine().pointer_bytes())
    }

    /// The object `name` denotes in the current scope.
    pub(crate) fn lookup(&self, name: &str) -> Option<Object> {
        if let Some(f) = self.frames.last() {
            for (names, _) in f.scopes.iter().rev() {
                if let Some(o) = names.get(name) {
                    return Some(o.clone());
                }
            }
        }
        self.globals.get(name).cloned()
    }

    pub(crate) fn bind(&mut self, name: String, o: Object, owned: bool) {
        let f = self.frames.last_mut().expect("a frame");
        let scope = f.scopes.last_mut().expect("a scope");
        if owned {
            scope.1.push(o.0);
        }
        scope.0.insert(name, o);
    }

    /// The object of type `ty` that the innermost scope made for `name`
    /// earlier in this activation, if any.
    pub(crate) fn object_of_this_scope(&self, name: &str, ty: &CType) -> Option<usize> {
        let (names, owned) = self.frames.last()?.scopes.last()?;
        let (b, t) = names.get(name)?;
        (t == ty && owned.contains(b)).then_some(*b)
    }

    pub(crate) fn push_scope(&mut self) {
        // Resumed: the scope the checkpoint had at this depth.
        let scope = match self.resume.as_mut() {
            Some(r) => r.scopes.pop_front().unwrap_or_else(|| {
                r.broken = true;
                Default::default()
            }),
            None => Default::default(),
        };
        if let Some(f) = self.frames.last_mut() {
            f.scopes.push(scope);
        }
    }

    /// Leave a scope: its objects' lifetimes end.
    pub(crate) fn pop_scope(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            if let Some((_, blocks)) = f.scopes.pop() {
                for b in blocks {
                    self.mem.kill(b);
                }
            }
        }
    }

    /// A new object of type `ty` in the current scope (or a global's).
    pub(crate) fn new_object(&mut self, ty: &CType, kind: Kind, fill: Byte) -> Result<usize, Stop> {
        let size = self.size(ty)?;
        self.mem.allocate(size, kind, fill)
    }

    /// The value of the object of type `ty` at `p` (arrays decay to a
    /// pointer to their first element).
    pub(crate) fn load(&self, p: &Ptr, ty: &CType) -> Result<Value, Stop> {
        let v = self.load_any(p, ty)?;
        // A concrete run knows every value it computes with.
        if self.concrete.is_some() && matches!(v, Value::Int(_, None) | Value::Ptr(None)) {
            return Err(Stop::give_up("a concrete run read an unknown value"));
        }
        Ok(v)
    }

    fn load_any(&self, p: &Ptr, ty: &CType) -> Result<Value, Stop> {
        match ty {
            CType::Int(t) => match self.mem.load_int(p, *t, self.int_size(*t), self.pointer_size())? {
                Value::Symbolic(v) => Ok(self.symbolic_load(*v, *t)),
                v => Ok(v),
            },
            CType::Ptr(_) => self.mem.load_ptr(p, self.pointer_size()),
            CType::Array(..) => {
                self.mem.check(p, 0)?;
                Ok(Value::Ptr(Some(p.clone())))
            }
            CType::Record(_) => Ok(Value::Bytes(self.mem.read(p, self.size(ty)?)?)),
            CType::Float(_) => Err(Stop::give_up("a floating-point value")),
            _ => Err(Stop::give_up("a value of this type read")),
        }
    }

    pub(crate) fn store(&mut self, p: &Ptr, ty: &CType, v: &Value) -> Result<(), Stop> {
        let size = self.size(ty)?;
        self.mem.store_value(p, v, size)
    }

    /// `v` converted to `ty` (assignment, cast, argument, return).
    pub(crate) fn convert(&self, v: Value, ty: &CType) -> Result<Value, Stop> {
        match (ty, v) {
            (CType::Int(t), Value::Int(from, c)) => value::convert(&self.ar, (from, c.as_ref()), *t),
            (CType::Int(t), Value::Symbolic(v)) => Ok(self.symbolic_convert(*v, *t)),
            (CType::Ptr(_), Value::Symbolic(_)) => Err(Stop::give_up("an integer converted to a pointer")),
            (CType::Int(IntType::Bool), Value::Ptr(p)) => Ok(Value::Int(IntType::Bool, p.map(|p| u8::from(p != Ptr::Null).into()))),
            (CType::Int(_), Value::Ptr(Some(Ptr::Null))) => Ok(Value::Int(ty.int().unwrap_or(IntType::INT), Some(0.into()))),
            (CType::Int(t), Value::Ptr(Some(Ptr::Integer(v)))) => value::convert(&self.ar, (self.ar.machine().size_t(), Some(&BigInt::from(v))), *t),
            // An object's or a function's address, in an integer as wide as a pointer.
            (CType::Int(t), Value::Ptr(Some(p @ (Ptr::At { .. } | Ptr::Function(_)))) | Value::Address(_, p)) if self.int_size(*t) == self.pointer_size() => Ok(Value::Address(*t, p)),
            (CType::Int(IntType::Bool), Value::Address(..)) => Ok(Value::Int(IntType::Bool, Some(1.into()))),
            // Any pointer: any integer (a concrete run gives up on it).
            (CType::Int(t), Value::Ptr(None)) => Ok(Value::Int(*t, None)),
            (CType::Int(_), Value::Ptr(_) | Value::Address(..)) => Err(Stop::give_up("a pointer converted to an integer narrower than a pointer")),
            (CType::Ptr(_), v @ Value::Ptr(_)) => Ok(v),
            (CType::Ptr(_), Value::Address(_, p)) => Ok(Value::Ptr(Some(p))),
            (CType::Ptr(_), Value::Int(_, Some(c))) if c == num_bigint::BigInt::from(0) => Ok(Value::Ptr(Some(Ptr::Null))),
            // Another integer: a pointer made from it, the integer taken
            // modulo the pointer's width (`(void *)-1` is all ones; one
            // that wraps to 0 is null).
            (CType::Ptr(_), Value::Int(from, Some(c))) => match value::convert(&self.ar, (from, Some(&c)), self.ar.machine().size_t())? {
                Value::Int(_, Some(v)) => match u64::try_from(v) {
                    Ok(0) => Ok(Value::Ptr(Some(Ptr::Null))),
                    Ok(v) => Ok(Value::Ptr(Some(Ptr::Integer(v)))),
                    Err(_) => Err(Stop::give_up("an integer converted to a pointer")),
                },
                _ => Err(Stop::give_up("an integer converted to a pointer")),
            },
            (CType::Ptr(_), Value::Int(_, None)) => Ok(Value::Ptr(None)),
            (CType::Record(_), v @ Value::Bytes(_)) => Ok(v),
            (CType::Void, _) => Ok(Value::Void),
            (CType::Float(_), _) => Err(Stop::give_up("a floating-point value")),
            (t, v) => Err(Stop::give_up(format!("a conversion of {v:?} to {t:?}"))),
        }
    }
}

/// Where a descent into a statement goes (see `Interp::seek` in `stmt.rs`): the
/// label of a `goto`, or the block item of a checkpoint (by node).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Target {
    Label(String),
    Item(usize),
}

// The state a checkpoint keeps (`checkpoint.rs` takes and restores it).

/// A scope's names and the blocks it made.
pub(crate) type Scope = (HashMap<String, Object>, Vec<usize>);

/// The state of a run before a block item of `main`.
pub(crate) struct Checkpoint {
    /// The block item about to run (by node).
    pub(super) item: usize,
    /// The choices made so far, with their numbers of alternatives.
    pub(super) trace: Vec<(usize, usize)>,
    pub(super) steps: u64,
    pub(super) mem: Memory,
    pub(super) globals: HashMap<String, Object>,
    pub(super) frame: Frame,
    pub(super) statics: HashMap<usize, Object>,
    pub(super) literals: HashMap<usize, usize>,
    pub(super) loops: HashMap<usize, (usize, u64)>,
    pub(super) nesting: HashMap<String, usize>,
    pub(super) loop_stack: Vec<ActiveLoop>,
    pub(super) accelerated: u64,
    pub(super) strides: u64,
    pub(super) join_waste: usize,
    /// The path condition (symbolic exploration).
    pub(super) symbolic: Option<super::path::PathCopy>,
    /// The memory's count of copied bytes when it was taken, and the bytes
    /// copied while it was the last one: the old versions it keeps.
    pub(super) copied_at: u64,
    pub(super) kept: u64,
}

/// The state a tentative execution restores: an acceleration's try
/// (`drift.rs`), each side of a joined branch (`join.rs`). Unlike a
/// [`Checkpoint`] it keeps every frame (it is taken anywhere, not only in
/// `main`) and leaves the counts the evidence reports alone (the most
/// iterations and nested calls met, which the run meets again).
#[derive(Clone)]
pub(crate) struct Saved {
    pub(super) mem: Memory,
    pub(super) frames: Vec<Frame>,
    pub(super) statics: HashMap<usize, Object>,
    pub(super) literals: HashMap<usize, usize>,
    /// Globals are made before `main` and never after: their number
    /// tells that nothing changed them.
    pub(super) globals: usize,
    pub(super) trace: Vec<(usize, usize)>,
    pub(super) steps: u64,
    pub(super) last_checkpoint: u64,
    pub(super) checkpoints: usize,
    pub(super) loop_stack: Vec<ActiveLoop>,
    pub(super) read_input: bool,
    /// Inputs made before (any made after would show as more).
    pub(super) inputs: usize,
}

impl<'s, 'a> Interp<'s, 'a> {
    pub(crate) fn save(&self) -> Saved {
        Saved {
            mem: self.mem.clone(),
            frames: self.frames.clone(),
            statics: self.statics.clone(),
            literals: self.literals.clone(),
            globals: self.globals.len(),
            trace: self.trace.clone(),
            steps: self.steps,
            last_checkpoint: self.last_checkpoint,
            checkpoints: self.checkpoints.len(),
            loop_stack: self.loop_stack.clone(),
            read_input: self.read_input,
            inputs: self.symbolic.as_ref().map_or(0, |s| s.inputs.len()),
        }
    }

    /// Back to the state `saved` (the path condition is restored by its
    /// own scope, `Symbolic::leave`).
    pub(crate) fn restore_saved(&mut self, saved: Saved) {
        self.mem = saved.mem;
        self.frames = saved.frames;
        self.statics = saved.statics;
        self.literals = saved.literals;
        self.trace = saved.trace;
        self.steps = saved.steps;
        self.last_checkpoint = saved.last_checkpoint;
        self.checkpoints.truncate(saved.checkpoints);
        self.loop_stack = saved.loop_stack;
        self.read_input = saved.read_input;
    }

    /// Whether, besides memory, the state is the one `saved` holds as far
    /// as a tentative execution may change it: no choice made, no input
    /// read, the same frames, the same objects live (others may have been
    /// made and ended: a block's locals), no static or literal made.
    pub(crate) fn same_but_memory(&self, saved: &Saved) -> bool {
        let inputs = self.symbolic.as_ref().map_or(0, |s| s.inputs.len());
        self.trace.len() == saved.trace.len()
            && inputs == saved.inputs
            && self.globals.len() == saved.globals
            && self.statics.len() == saved.statics.len()
            && self.literals.len() == saved.literals.len()
            && self.frames == saved.frames
            && self.mem.live().eq(saved.mem.live())
    }
}

/// What the descent to a checkpoint's item restores on its way: the
/// scopes below `main`'s outermost and the iterations of the active loops.
pub(crate) struct Resume {
    pub(super) item: usize,
    pub(super) scopes: VecDeque<Scope>,
    pub(super) loops: VecDeque<ActiveLoop>,
    /// The descent asked for a scope or loop the checkpoint did not have.
    pub(super) broken: bool,
}

// The state of the watch for a stretch to accelerate (`drift.rs`).

/// Visits of a loop's head before the first look for a drift.
pub(super) const FIRST_WAIT: u64 = 16;

/// An active loop: its iterations in this entry and its watch for a
/// stretch to accelerate (`drift.rs` looks and strides).
#[derive(Clone, Debug, Default)]
pub(crate) struct ActiveLoop {
    pub iterations: u64,
    pub drift: Drift,
}

/// The watch of one loop entry: visits of its head, the visit of the next
/// look and the wait after it, and the head states recorded for it.
#[derive(Clone, Debug)]
pub(crate) struct Drift {
    pub(super) visits: u64,
    pub(super) next: u64,
    pub(super) wait: u64,
    pub(super) heads: VecDeque<Head>,
}

impl Default for Drift {
    fn default() -> Drift {
        Drift { visits: 0, next: FIRST_WAIT, wait: FIRST_WAIT, heads: VecDeque::new() }
    }
}

/// The state at one visit of a loop's head: the live blocks, and how many
/// choices and inputs the run had made.
#[derive(Clone, Debug)]
pub(crate) struct Head {
    pub(super) live: Vec<(usize, Rc<Block>)>,
    pub(super) choices: usize,
    pub(super) inputs: usize,
}

// The state of a concrete run (`lasso.rs` looks at it at loop heads and
// calls, `runs.rs` searches the inputs).


/// Where a run comes back to a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// The head of a loop (by node), in its `entry`th entry in the run
    /// (from 0); visits counted from 0 in that entry.
    Loop { node: usize, entry: u64 },
    /// A call of `function`, nested in an earlier call of it that has
    /// not returned; calls of it counted from 0 in the run.
    Call { function: String },
    /// A `goto` to `label` in a block (by its items), in the block's
    /// `entry`th entry; jumps to the label counted from 0 in that entry.
    Jump { block: usize, entry: u64, label: String },
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
    /// How often each site was read in this run.
    pub reads: HashMap<usize, u64>,
    /// The sites among them that are allocations (their value: whether
    /// the allocation fails, 1, or succeeds, 0).
    pub allocations: std::collections::HashSet<usize>,
    /// Per loop statement (and block, for `goto`), its entries so far in
    /// this run.
    pub entries: HashMap<usize, u64>,
    /// Per function, its calls so far in this run; and the calls active
    /// now, innermost last, each with the hash of what it sees.
    pub calls: HashMap<String, u64>,
    /// Per block (by its items) and label jumped to, the label's
    /// statement's position in the parsed text.
    pub labels: HashMap<(usize, String), usize>,
    pub active: Vec<(String, u64, u64)>,
    /// The re-check: the repeat to confirm, and the state at its first
    /// visit once reached.
    pub check: Option<(Repeat, Option<Snapshot>)>,
    /// The re-check confirmed the repeat: the variables in scope with
    /// their values, the live heap blocks, and the loop's function.
    pub found: Option<(Vec<(String, String)>, usize, String)>,
}

/// A copy of a run's state for the re-check: the live blocks, the frames,
/// the globals and the statics.
pub(crate) struct Snapshot {
    pub(super) blocks: Vec<(usize, Rc<Block>)>,
    pub(super) frames: Vec<Frame>,
    pub(super) globals: HashMap<String, Object>,
    pub(super) statics: HashMap<usize, Object>,
    /// A call's arguments (none at a loop's head).
    pub(super) args: Vec<Value>,
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
