//! The program model: a control-flow graph over typed integer variables.
//!
//! Edges carry a short sequence of [`Action`]s (assume, assign, havoc) over
//! our own [`Term`]s; the Horn encoder composes them into transition formulas
//! between cut-points. Every C variable is an integer of some [`IntType`];
//! variables are referred to in terms by their unique `name` as `Term::Var(name, Int)`.

use crate::term::Term;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::fmt;

pub mod approximation;
pub mod coalesce;
pub mod liveness;
pub mod loops;
pub mod machine;
pub mod names;
pub mod origin;
pub mod run;
pub mod slice;
pub mod split;
pub mod summary;
pub mod unsigned_view;
pub use approximation::Approximation;
pub use origin::{Origin, Renaming};
pub use loops::{find_loops, Loop, LoopError};
pub use machine::{DataModel, MachineModel};

pub type LocId = usize;

/// A position in a source file (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub file: String,
    pub line: usize,
    pub col: usize,
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// C integer types, by width and signedness (which C type has which width
/// is the [`MachineModel`]'s decision). `Bool` is `_Bool` (values 0 and 1; conversion
/// to it is `!= 0`, not wrap-around).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntType {
    Bool,
    Int { bits: u32, signed: bool },
}

impl IntType {
    pub const CHAR: IntType = IntType::Int { bits: 8, signed: true };
    pub const UCHAR: IntType = IntType::Int { bits: 8, signed: false };
    pub const SHORT: IntType = IntType::Int { bits: 16, signed: true };
    pub const USHORT: IntType = IntType::Int { bits: 16, signed: false };
    pub const INT: IntType = IntType::Int { bits: 32, signed: true };
    pub const UINT: IntType = IntType::Int { bits: 32, signed: false };
    pub const LONG: IntType = IntType::Int { bits: 64, signed: true };
    pub const ULONG: IntType = IntType::Int { bits: 64, signed: false };

    pub fn bits(self) -> u32 {
        match self {
            IntType::Bool => 1,
            IntType::Int { bits, .. } => bits,
        }
    }
    pub fn is_signed(self) -> bool {
        matches!(self, IntType::Int { signed: true, .. })
    }
    pub fn min(self) -> BigInt {
        match self {
            IntType::Bool => BigInt::zero(),
            IntType::Int { bits, signed: true } => -(BigInt::one() << (bits - 1)),
            IntType::Int { signed: false, .. } => BigInt::zero(),
        }
    }
    pub fn max(self) -> BigInt {
        match self {
            IntType::Bool => BigInt::one(),
            IntType::Int { bits, signed: true } => (BigInt::one() << (bits - 1)) - 1,
            IntType::Int { bits, signed: false } => (BigInt::one() << bits) - 1,
        }
    }
}

impl fmt::Display for IntType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntType::Bool => write!(f, "_Bool"),
            IntType::Int { bits, signed } => {
                let base = match bits {
                    8 => "char",
                    16 => "short",
                    32 => "int",
                    64 => "long",
                    _ => "int?",
                };
                if *signed {
                    write!(f, "{base}")
                } else {
                    write!(f, "unsigned {base}")
                }
            }
        }
    }
}

/// How signed integer arithmetic is interpreted (docs/design.md, "Integer semantics").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum IntSemantics {
    /// C11: every value in its type's range; a signed operation whose
    /// result leaves the range (and division by zero, a bad shift) is
    /// undefined behaviour, and executions stop there; unsigned wraps.
    #[default]
    C,
    /// gcc `-fwrapv`: every value in its type's range, arithmetic wraps.
    Machine,
    /// Signed integers unbounded; unsigned still wrap.
    Math,
}

/// What makes an operation undefined in C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Undefined {
    SignedOverflow,
    DivisionByZero,
    /// The quotient of `MIN / -1` (and so `MIN % -1`) is not
    /// representable (C11 6.5.5p6).
    DivisionOverflow,
    ShiftOutOfRange,
    /// A null pointer dereferenced (or a member of one taken): C11
    /// 6.5.3.2p4. Only the interpreter names it; the model assumes every
    /// access valid (`Approximation::MemorySafety`), which ends such a
    /// run alike.
    NullDereference,
}

impl Undefined {
    pub fn describe(self) -> &'static str {
        match self {
            Undefined::SignedOverflow => "signed overflow",
            Undefined::DivisionByZero => "division by zero",
            Undefined::DivisionOverflow => "division overflow (MIN / -1 or MIN % -1)",
            Undefined::ShiftOutOfRange => "shift out of range",
            Undefined::NullDereference => "null pointer dereference",
        }
    }
}

impl std::fmt::Display for Undefined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.describe())
    }
}

/// An operation whose undefined behaviour (signed overflow, division by
/// zero, a bad shift) was not ruled out while lowering: executions that
/// reach it are dropped, and the answer warns about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndefinedSite {
    pub span: Option<Span>,
    pub kind: Undefined,
    /// The source text of the operation.
    pub expression: String,
    /// What is known of whether a run gets there with the operation undefined.
    pub status: WarningStatus,
}

/// What the prover knows of an operation whose undefined behaviour the
/// lowering could not rule out (sites it proves safe are not reported).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WarningStatus {
    /// No run reaching it was found (nor was it shown impossible).
    NotRuledOut,
    /// A run of the program (on the model's exact part: no unknown value,
    /// every allocation succeeding) reaches it with the operation
    /// undefined, after `steps` visits of cut-points (loop headers, and
    /// the join points that split large loop bodies). `inputs`: the
    /// nondeterministic values such a run reads, in order, each with the
    /// variable it is stored in (by internal name), the smallest found;
    /// empty when none were found (or the run reads none).
    Reachable { steps: usize, inputs: Vec<InputValue> },
}

/// One input a run reads: the variable it is stored in (internal name;
/// a temporary where the value is used at once, as in `x + f()`) and its
/// value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputValue {
    pub variable: String,
    pub value: String,
}

impl WarningStatus {
    /// JSON's `status`.
    pub fn word(&self) -> &'static str {
        match self {
            WarningStatus::NotRuledOut => "not ruled out",
            WarningStatus::Reachable { .. } => "reachable",
        }
    }
}

/// The source name of the variable that marks, right before each
/// `assume` of an operation's definedness, which [`UndefinedSite`] it is
/// (the site's index in `Program::undefined`). Not a C identifier; never
/// read, so slicing drops it from the model the engines solve.
pub const UNDEFINED_SITE: &str = "undefined#site";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Unique name in the program (inlined and shadowed locals are renamed).
    pub name: String,
    /// The name in the C source, for messages.
    pub source_name: String,
    pub ty: IntType,
    /// The function whose local (or parameter) this is; `None` for globals
    /// and the model's own variables, [`MIXED_FUNCTIONS`] after coalescing
    /// merged locals of several functions.
    pub function: Option<String>,
    /// What the variable stands for (decides how it is shown).
    pub origin: Origin,
    /// How `name` was made apart from `source_name`, if it was.
    pub renamed: Option<Renaming>,
}

/// The function of a variable that stands for locals of several functions.
pub const MIXED_FUNCTIONS: &str = "*";

impl Variable {
    pub fn term(&self) -> Term {
        Term::var(self.name.clone())
    }
    /// Whether a `havoc` of this variable is the outcome of an allocation
    /// that may fail (0: the allocation failed; see [`ALLOCATION_RESULT`]).
    pub fn is_allocation_result(&self) -> bool {
        self.origin == Origin::Allocation(origin::AllocationPart::Result)
    }
}

/// The source name of the variables holding a `malloc`'s outcome (not a C
/// identifier, so no program variable has it), made only where
/// allocations may fail (`c::meaning::Allocation::MayFail`): 0 in a run
/// where the allocation fails, a run of the program like any other.
pub const ALLOCATION_RESULT: &str = "alloc.result";

/// Base ids of blocks allocated at sites that may run more than once are
/// values of a counter from here on, in the order of allocation (distinct
/// from every block allocated once, whose ids are smaller).
pub const SUMMARY_BASE: i64 = 1 << 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Continue only if the condition holds.
    Assume(Term),
    /// `var := term`.
    Assign(String, Term),
    /// `var := any value` chosen by the program's environment (an input:
    /// `__VERIFIER_nondet_*`, an uninitialized variable, a failing `malloc`);
    /// a non-termination witness may pick it. Constrain it with a following
    /// `Assume`.
    Havoc(String),
    /// `var := any value` chosen by the model, which does not know it (an
    /// abstracted float, an unknown call's result, an untracked load). Any
    /// value is possible for YES; a NO may not rest on a particular one.
    Choose(String),
    /// The path through here is an over-approximation, not a run of the C
    /// program (a recursive call returning: the callee may end the program
    /// instead): YES considers it, NO never rests on it (the path is
    /// blocked in `Encoding::without_unknown_values`, as a `choose` is,
    /// and slicing keeps it).
    Inexact,
    /// Where a recursive call returns, for return summaries
    /// (`ir/summary.rs`): no effect on a run.
    Mark(RecursionMark),
}

/// The two ends of a recursive call, as return summaries see them
/// (`ir/summary.rs`): the prover replaces each `Returned` by the callee's
/// proven summary (or by nothing) and drops each `Exits` before slicing;
/// until then every pass reads a mark as no step at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecursionMark {
    /// On a call's return branch, after its result is chosen: `function`
    /// was called with these arguments, converted to the parameters' types
    /// (`None`: a pointer or unnamed parameter), and returned `result`
    /// (`None`: no integer result is used).
    Returned { function: String, args: Vec<Option<Term>>, result: Option<String> },
    /// Where an activation entered at a descent header of `function`
    /// returns (the model's run ends after it): the parameters' variables
    /// of that header (`None` as above) and the returned value (`None`:
    /// no integer value).
    Exits { function: String, params: Vec<Option<String>>, value: Option<Term> },
}

impl fmt::Display for RecursionMark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |t: &Option<Term>| t.as_ref().map_or("_".to_string(), |t| t.to_string());
        match self {
            RecursionMark::Returned { function, args, result } => {
                let args: Vec<String> = args.iter().map(show).collect();
                write!(f, "mark {} := {function}({}) returned", result.as_deref().unwrap_or("_"), args.join(", "))
            }
            RecursionMark::Exits { function, params, value } => {
                let params: Vec<&str> = params.iter().map(|p| p.as_deref().unwrap_or("_")).collect();
                write!(f, "mark {function}({}) returns {}", params.join(", "), show(value))
            }
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Assume(t) => write!(f, "assume {t}"),
            Action::Assign(v, t) => write!(f, "{v} := {t}"),
            Action::Havoc(v) => write!(f, "havoc {v}"),
            Action::Choose(v) => write!(f, "choose {v}"),
            Action::Inexact => write!(f, "inexact"),
            Action::Mark(m) => write!(f, "{m}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: LocId,
    pub to: LocId,
    pub actions: Vec<Action>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Location {
    /// Where in the source this point is (for loop headers: the loop statement).
    pub span: Option<Span>,
    /// A short description for printing (`while`, `for`, `label L`, ...).
    pub note: String,
    /// The recursive function entered here, when this is its descent
    /// header (every call of the function that does not return comes here,
    /// see `c/lower/calls/recursion.rs`): the report calls such a loop the
    /// function's recursion.
    pub recursion: Option<String>,
    /// The C function whose code this point is in (after inlining, the
    /// innermost call), empty where unknown: witnesses name it, and a
    /// formula printed here may only use names in its scope.
    pub function: String,
}

/// A whole program after inlining: one control-flow graph from `entry` to
/// `exit`. Program ends of every kind (return from `main`, `exit`, `abort`,
/// a failed `assert`, `__VERIFIER_error`) lead to `exit`; a failed
/// `__VERIFIER_assume` simply has no outgoing edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub file: String,
    pub vars: Vec<Variable>,
    pub locations: Vec<Location>,
    pub edges: Vec<Edge>,
    pub entry: LocId,
    pub exit: LocId,
    pub semantics: IntSemantics,
    /// The target's sizes and C types (see [`MachineModel`]).
    pub machine: MachineModel,
    /// Places where the model over-approximates the C semantics (a value
    /// made nondeterministic because it is not tracked), for messages. A
    /// YES stays sound. Unknown values are `Choose` actions: the prover
    /// answers NO only when none of them is left after slicing (none can
    /// influence control flow) and `forbid_no` is empty.
    pub approximations: Vec<(Option<Span>, Approximation)>,
    /// The approximations that are not only unknown values (`Choose`):
    /// they forbid NO for the whole program (operands evaluated in every
    /// order: a compiler picks one).
    pub forbid_no: Vec<(Option<Span>, Approximation)>,
    /// Operations that may be undefined (see [`UndefinedSite`]).
    pub undefined: Vec<UndefinedSite>,
    /// Variables merged into another by coalescing, as (merged, kept): what
    /// a witness needs to tell which local a kept variable stands for.
    pub coalesced: Vec<(String, String)>,
}

impl Program {
    pub fn var(&self, name: &str) -> Option<&Variable> {
        self.vars.iter().find(|v| v.name == name)
    }
    pub fn successors(&self, l: LocId) -> impl Iterator<Item = &Edge> {
        self.edges.iter().filter(move |e| e.from == l)
    }
    pub fn predecessors(&self, l: LocId) -> impl Iterator<Item = &Edge> {
        self.edges.iter().filter(move |e| e.to == l)
    }
    /// The locations from which `target` can be reached (itself included).
    pub fn reaching(&self, target: LocId) -> Vec<bool> {
        let adj = self.adjacency();
        let mut seen = vec![false; self.locations.len()];
        let mut stack = vec![target];
        while let Some(l) = stack.pop() {
            if l >= seen.len() || seen[l] {
                continue;
            }
            seen[l] = true;
            stack.extend(adj.into[l].iter().map(|&e| self.edges[e].from));
        }
        seen
    }
    /// Whether no run can come back to a location it was at: no cycle is
    /// reachable from the entry (independent of the dominators that
    /// [`loops::find_loops`] uses, so it can re-check a "no loops" answer).
    /// Whether the model assumes every memory access valid somewhere
    /// (`Approximation::MemorySafety`: a run that would dereference NULL or
    /// leave an object's bounds ends there).
    pub fn assumes_valid_accesses(&self) -> bool {
        self.approximations.iter().any(|(_, a)| *a == Approximation::MemorySafety)
    }

    /// Such a program has no loops and no recursion: every run is finite.
    pub fn is_acyclic(&self) -> bool {
        self.no_cycle_ahead().get(self.entry).copied().unwrap_or(true)
    }
    /// Per location, whether no cycle (loop or recursion) can be reached
    /// from it: exactly the locations removed by peeling locations without
    /// a way out, one after the other.
    pub fn no_cycle_ahead(&self) -> Vec<bool> {
        let adj = self.adjacency();
        let n = self.locations.len();
        let mut ways_out: Vec<usize> = adj.out.iter().map(|o| o.len()).collect();
        let mut settled = vec![false; n];
        let mut ready: Vec<LocId> = (0..n).filter(|&l| ways_out[l] == 0).collect();
        while let Some(l) = ready.pop() {
            settled[l] = true;
            for e in adj.predecessors(self, l).filter(|e| e.from < n) {
                ways_out[e.from] -= 1;
                if ways_out[e.from] == 0 {
                    ready.push(e.from);
                }
            }
        }
        settled
    }
    /// Outgoing and incoming edge indices of every location, for passes
    /// that walk the graph many times (`successors` scans all edges).
    pub fn adjacency(&self) -> Adjacency {
        let n = self.locations.len();
        let mut adj = Adjacency { out: vec![Vec::new(); n], into: vec![Vec::new(); n] };
        for (i, e) in self.edges.iter().enumerate() {
            if e.from < n {
                adj.out[e.from].push(i);
            }
            if e.to < n {
                adj.into[e.to].push(i);
            }
        }
        adj
    }
}

/// Edge indices by location (see [`Program::adjacency`]).
#[derive(Clone, Debug)]
pub struct Adjacency {
    pub out: Vec<Vec<usize>>,
    pub into: Vec<Vec<usize>>,
}

impl Adjacency {
    pub fn successors<'a>(&'a self, p: &'a Program, l: LocId) -> impl Iterator<Item = &'a Edge> + 'a {
        self.out.get(l).into_iter().flatten().map(move |&i| &p.edges[i])
    }
    pub fn predecessors<'a>(&'a self, p: &'a Program, l: LocId) -> impl Iterator<Item = &'a Edge> + 'a {
        self.into.get(l).into_iter().flatten().map(move |&i| &p.edges[i])
    }
}

/// A program of `locations` locations (the first the entry, the last the
/// exit) with these variables and edges, nothing approximated: the graphs
/// of the model's unit tests.
#[cfg(test)]
pub(crate) fn test_program(vars: Vec<Variable>, locations: usize, edges: Vec<Edge>) -> Program {
    Program {
        file: "t.c".into(),
        vars,
        locations: vec![Location::default(); locations],
        edges,
        entry: 0,
        exit: locations - 1,
        semantics: IntSemantics::Math,
        machine: MachineModel::lp64(),
        approximations: vec![],
        forbid_no: vec![],
        undefined: vec![],
        coalesced: vec![],
    }
}

/// [`test_program`] over a bare graph: no variables, edges without actions.
#[cfg(test)]
pub(crate) fn test_graph(locations: usize, edges: &[(LocId, LocId)]) -> Program {
    test_program(vec![], locations, edges.iter().map(|&(from, to)| Edge { from, to, actions: vec![] }).collect())
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "program {}  (ints: {:?})", self.file, self.semantics)?;
        for v in &self.vars {
            if v.name == v.source_name {
                writeln!(f, "  var {}: {}", v.name, v.ty)?;
            } else {
                writeln!(f, "  var {}: {}  (source: {})", v.name, v.ty, v.source_name)?;
            }
        }
        let loops = find_loops(self).ok();
        // Each location's edges by index: scanning every edge for every
        // location made printing a model of 11 000 locations quadratic.
        let adj = self.adjacency();
        for (id, loc) in self.locations.iter().enumerate() {
            let mut tags = Vec::new();
            if id == self.entry {
                tags.push("entry".to_string());
            }
            if id == self.exit {
                tags.push("exit".to_string());
            }
            if let Some(loops) = &loops {
                for (i, l) in loops.iter().enumerate() {
                    if l.header == id {
                        tags.push(format!("loop {i} header"));
                    }
                }
            }
            write!(f, "  L{id}")?;
            if !tags.is_empty() {
                write!(f, " [{}]", tags.join(", "))?;
            }
            if !loc.note.is_empty() {
                write!(f, " {}", loc.note)?;
            }
            if let Some(s) = &loc.span {
                write!(f, " @{}:{}", s.line, s.col)?;
            }
            writeln!(f)?;
            for e in adj.successors(self, id) {
                write!(f, "    -> L{}:", e.to)?;
                if e.actions.is_empty() {
                    write!(f, " skip")?;
                }
                for (i, a) in e.actions.iter().enumerate() {
                    write!(f, "{} {a}", if i == 0 { "" } else { ";" })?;
                }
                writeln!(f)?;
            }
        }
        if let Some(loops) = &loops {
            for (i, l) in loops.iter().enumerate() {
                write!(f, "  loop {i}: header L{}", l.header)?;
                if let Some(s) = &self.locations[l.header].span {
                    write!(f, " (line {})", s.line)?;
                }
                if let Some(p) = l.parent {
                    write!(f, ", inside loop {p}")?;
                }
                let body: Vec<String> = l.body.iter().map(|b| format!("L{b}")).collect();
                writeln!(f, ", body {{{}}}", body.join(", "))?;
            }
        }
        for (at, what) in &self.approximations {
            match at {
                Some(s) => writeln!(f, "  approximation @{}:{}: {what}", s.line, s.col)?,
                None => writeln!(f, "  approximation: {what}")?,
            }
        }
        Ok(())
    }
}
