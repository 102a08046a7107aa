//! Large-block encoding of an [`ir::Program`](crate::ir::Program) into Horn clauses.
//!
//! Cut-points are the loop headers and the program exit (plus, when the
//! number of paths between cut-points would explode, some join points). Every
//! path between two cut-points becomes one [`Transition`]: a constraint over
//! the pre-state (the program variable names) and fresh local variables, and
//! one post-state term per program variable. Paths from the program start
//! have no pre-state predicate (they are facts). The plain system asks
//! whether the program exit is reachable; `instrument` builds the T_term /
//! T_rank systems from the same transitions.

use super::{Clause, PredApp, PredId, System};
use crate::error::{Result, TesseraError};
use crate::ir::{find_loops, Action, LocId, Loop, Program};
use crate::term::{Term, VarDecl};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

/// Where a transition starts: the program start or a cut-point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    Start,
    At(LocId),
}

/// One loop-free path between cut-points, composed into a single step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    pub from: Source,
    pub to: LocId,
    /// Fresh variables (nondeterministic values, intermediate results).
    pub locals: Vec<VarDecl>,
    /// The locals that are nondeterministic values (`havoc`), not names of
    /// intermediate results: what a non-termination witness may choose.
    pub havocs: Vec<Havoc>,
    /// The locals that are values the model does not know (`choose`): a
    /// non-termination witness must survive every one of them.
    pub choices: Vec<String>,
    /// The path is an over-approximation, not a run of the program (see
    /// [`crate::ir::Action::Inexact`]): blocked for NO as choices are.
    pub inexact: bool,
    /// The havocked locals that are the outcome of an allocation, 0 when it
    /// fails (see [`crate::ir::ALLOCATION_RESULT`]).
    pub allocations: Vec<String>,
    /// Path condition over the pre-state variables and `locals`.
    pub constraint: Term,
    /// Post-state value of each program variable, in `Encoding::vars` order.
    pub post: Vec<Term>,
    /// The program's edges (indices into `Program::edges`) this transition
    /// composes, in order: what maps a concrete run of the program (see
    /// [`crate::ir::run`]) onto transitions.
    pub path: Vec<usize>,
}

impl Encoding {
    /// The transitions that start an iteration of `lp`: from its header
    /// into its body.
    pub fn iteration_starts<'e>(&'e self, lp: &'e crate::ir::loops::Loop) -> impl Iterator<Item = &'e Transition> + 'e {
        self.transitions.iter().filter(move |t| t.from == Source::At(lp.header) && lp.body.contains(&t.to))
    }
}

impl Transition {
    /// The part of the path condition that mentions only the pre-state: a
    /// necessary condition for taking the transition.
    pub fn pre_state_guard(&self) -> Term {
        let locals: std::collections::BTreeSet<&str> = self.locals.iter().map(|l| l.name.as_str()).collect();
        Term::and(self.constraint.conjuncts().into_iter().filter(|c| c.free_vars().iter().all(|v| !locals.contains(v.name.as_str()))).collect())
    }
}

/// A nondeterministic value a transition reads: the program's input, or a
/// value the program leaves unspecified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Havoc {
    /// The transition's local that holds the value.
    pub local: String,
    /// The program variable it is stored in (by name, which stays valid
    /// where the variables are projected).
    pub into: String,
}

/// The cut-point graph of a program.
#[derive(Clone, Debug)]
pub struct Encoding {
    /// Program variables, all of sort Int; the state at every cut-point.
    pub vars: Vec<VarDecl>,
    /// Cut-point locations, in predicate order for the plain system.
    pub cutpoints: Vec<LocId>,
    pub transitions: Vec<Transition>,
    pub loops: Vec<Loop>,
    pub exit: LocId,
    pub file: String,
    /// The program's variables with their source names, and the variables
    /// live at each location: what the report needs to print states and
    /// formulas in the program's terms.
    pub program_vars: Vec<crate::ir::Variable>,
    /// See [`Program::coalesced`].
    pub coalesced: Vec<(String, String)>,
    pub live: Vec<BTreeSet<String>>,
    /// The loop headers that are descent headers of recursive functions
    /// (see [`crate::ir::Location::recursion`]), with the function: the
    /// report calls such a loop a recursion.
    pub recursions: BTreeMap<LocId, String>,
    /// Where each cut-point is in the source (line, column), where it has
    /// a place: how the report names the steps of a stem.
    pub places: BTreeMap<LocId, (usize, usize)>,
}

/// Terms larger than this get their own local variable instead of being
/// substituted into later terms (keeps clauses linear in the program size).
const MAX_INLINE_TERM_SIZE: usize = 40;

pub fn encode(p: &Program) -> Result<Encoding> {
    encode_with(p, super::cutpoints::MAX_PATH_WEIGHT_PER_CUTPOINT)
}

/// [`encode`] with this limit on the weight of the paths from a cut-point.
pub(super) fn encode_with(p: &Program, max_weight: usize) -> Result<Encoding> {
    let loops = find_loops(p).map_err(|e| {
        TesseraError::unsupported(p.locations.get(e.location).and_then(|l| l.span.clone()), e.to_string())
    })?;
    let vars: Vec<VarDecl> = p.vars.iter().map(|v| VarDecl::int(v.name.clone())).collect();
    let adj = p.adjacency();
    let cut = super::cutpoints::cutpoints(p, &adj, &loops, max_weight);
    let liveness = crate::ir::liveness::Liveness::of(p);
    let live = liveness.names(p);
    let index: HashMap<&str, usize> = vars.iter().enumerate().map(|(i, v)| (v.name.as_str(), i)).collect();
    // `vars` are the program's variables in order, as the liveness bits
    // are (looking each name up in the sets of names took a second on a
    // model of 7 000 cut-points and 1 400 variables).
    let live_at_cut: HashMap<LocId, Vec<bool>> = cut.iter().map(|&c| (c, (0..vars.len()).map(|i| liveness.live[c].contains(i)).collect())).collect();
    let mut transitions = Vec::new();
    let mut fresh = 0usize;
    let mut sources = vec![Source::Start];
    sources.extend(cut.iter().filter(|&&c| c != p.exit).map(|&c| Source::At(c)));
    for src in sources {
        let start = match src {
            Source::Start => p.entry,
            Source::At(l) => l,
        };
        if src == Source::Start && cut.contains(&p.entry) {
            // The entry itself is a cut-point (a loop at the very start):
            // the start transition is the empty path.
            transitions.push(Transition {
                from: Source::Start,
                to: p.entry,
                locals: vec![],
                havocs: vec![],
                choices: vec![],
                inexact: false,
                allocations: vec![],
                constraint: Term::tt(),
                post: vars.iter().map(|v| if live[p.entry].contains(&v.name) { v.term() } else { Term::int(0) }).collect(),
                path: vec![],
            });
            continue;
        }
        let state = PathState::new(vars.len());
        let cx = Paths { p, adj: &adj, cut: &cut, vars: &vars, live_at_cut: &live_at_cut, index: &index };
        enumerate_paths(&cx, src, start, state, &mut fresh, &mut transitions, 0)?;
    }
    let mut cutpoints: Vec<LocId> = cut.into_iter().collect();
    // Exit last, so predicate numbers of loop headers follow source order.
    cutpoints.retain(|&c| c != p.exit);
    cutpoints.push(p.exit);
    Ok(Encoding {
        vars,
        cutpoints,
        transitions,
        loops,
        exit: p.exit,
        file: p.file.clone(),
        program_vars: p.vars.clone(),
        coalesced: p.coalesced.clone(),
        live,
        recursions: p.locations.iter().enumerate().filter_map(|(l, at)| at.recursion.clone().map(|f| (l, f))).collect(),
        places: cutpoints_places(p),
    })
}

/// A path from a cut-point, as far as it got. Cloned at every branch, so
/// every part is shared rather than copied: the values are a vector of
/// shared terms indexed like `Encoding::vars` (copied on the first write
/// after a branch), and the path condition and the fresh locals are lists
/// whose tails the branches share (drivers have hundreds of assigned
/// variables, conditions and locals per path).
#[derive(Clone)]
struct PathState {
    /// Current value of each program variable the path has assigned, as a
    /// term over the pre-state; `None`: it keeps its pre-state value.
    values: Rc<Vec<Option<Rc<Term>>>>,
    /// The path condition, last conjunct first.
    conds: Chain<Term>,
    locals: Chain<VarDecl>,
    havocs: Chain<Havoc>,
    choices: Chain<String>,
    inexact: bool,
    allocations: Chain<String>,
    /// The edges taken, by index.
    edges: Chain<usize>,
}

/// A persistent list, last element first.
struct Chain<T>(Option<Rc<Link<T>>>);

struct Link<T> {
    item: T,
    rest: Chain<T>,
}

impl<T> Clone for Chain<T> {
    fn clone(&self) -> Self {
        Chain(self.0.clone())
    }
}

impl<T: Clone> Chain<T> {
    fn push(&mut self, item: T) {
        let rest = Chain(self.0.take());
        self.0 = Some(Rc::new(Link { item, rest }));
    }

    /// The elements, first pushed first.
    fn to_vec(&self) -> Vec<T> {
        self.refs().into_iter().cloned().collect()
    }

    /// The elements, first pushed first, not copied.
    fn refs(&self) -> Vec<&T> {
        let mut out = Vec::new();
        let mut at = self.0.as_deref();
        while let Some(l) = at {
            out.push(&l.item);
            at = l.rest.0.as_deref();
        }
        out.reverse();
        out
    }
}

impl<T> Drop for Chain<T> {
    /// Iteratively: a long path condition would otherwise be dropped by one
    /// recursive call per conjunct.
    fn drop(&mut self) {
        let mut next = self.0.take();
        while let Some(rc) = next {
            next = match Rc::try_unwrap(rc) {
                Ok(mut l) => l.rest.0.take(),
                Err(_) => None,
            };
        }
    }
}

impl PathState {
    fn new(vars: usize) -> PathState {
        PathState {
            values: Rc::new(vec![None; vars]),
            conds: Chain(None),
            locals: Chain(None),
            havocs: Chain(None),
            choices: Chain(None),
            inexact: false,
            allocations: Chain(None),
            edges: Chain(None),
        }
    }

    fn assume(&mut self, term: Term) {
        self.conds.push(term);
    }

    /// The path condition, in path order. The conjuncts dropped are not
    /// copied first: on the event loop of eca-rers2012's Problem04 the
    /// failed tests of an `else if` chain were a fifth of `emit`'s time.
    fn condition(&self) -> Term {
        let conj = self.conds.refs();
        let implied = crate::term::simplify::implied_disequalities(&conj);
        Term::and(conj.into_iter().zip(implied).filter(|(_, i)| !i).map(|(t, _)| t.clone()).collect())
    }

    /// `t` over the pre-state: the path's values substituted.
    fn over_pre_state(&self, t: &Term, index: &HashMap<&str, usize>) -> Term {
        t.subst_with(&|n| index.get(n).and_then(|&i| self.values[i].as_deref()).cloned())
    }

    fn set(&mut self, i: usize, t: Term) {
        Rc::make_mut(&mut self.values)[i] = Some(Rc::new(t));
    }
}

/// What the path enumeration reads and does not change.
struct Paths<'a> {
    p: &'a Program,
    adj: &'a crate::ir::Adjacency,
    cut: &'a BTreeSet<LocId>,
    vars: &'a [VarDecl],
    /// Whether each variable (by position) is live, at each cut-point.
    live_at_cut: &'a HashMap<LocId, Vec<bool>>,
    /// Position of each program variable in `vars`.
    index: &'a HashMap<&'a str, usize>,
}

fn enumerate_paths(cx: &Paths, src: Source, at: LocId, state: PathState, fresh: &mut usize, out: &mut Vec<Transition>, depth: usize) -> Result<()> {
    let Paths { p, adj, cut, vars, live_at_cut, index } = *cx;
    let position = |v: &str| index.get(v).copied().ok_or_else(|| TesseraError::Internal(format!("`{v}` is assigned but no program variable")));
    if depth > 100_000 {
        return Err(TesseraError::Internal("path enumeration too deep".into()));
    }
    let successors: Vec<usize> = adj.out.get(at).cloned().unwrap_or_default();
    let mut state = Some(state);
    for (k, &edge) in successors.iter().enumerate() {
        let e = &p.edges[edge];
        // The last successor takes the state; the others copy it (most
        // locations have one successor, and the state can be large).
        let mut st = if k + 1 == successors.len() { state.take().expect("taken once") } else { state.clone().expect("not yet taken") };
        st.edges.push(edge);
        let mut dead = false;
        for a in &e.actions {
            match a {
                Action::Assume(c) => {
                    let c = st.over_pre_state(c, index);
                    if c == Term::ff() {
                        dead = true;
                        break;
                    }
                    st.assume(c);
                }
                Action::Assign(v, t) => {
                    let t = st.over_pre_state(t, index);
                    let t = if t.size() > MAX_INLINE_TERM_SIZE {
                        *fresh += 1;
                        let d = VarDecl::int(format!("{v}!{fresh}"));
                        st.assume(Term::eq(d.term(), t));
                        st.locals.push(d.clone());
                        d.term()
                    } else {
                        t
                    };
                    st.set(position(v)?, t);
                }
                Action::Havoc(v) => {
                    *fresh += 1;
                    let d = VarDecl::int(format!("{v}!{fresh}"));
                    let i = position(v)?;
                    st.set(i, d.term());
                    // `vars` are the program's variables in order: found by
                    // position, not by a search of them all (Program::var)
                    // at every havoc.
                    if p.vars.get(i).is_some_and(|x| x.is_allocation_result()) {
                        st.allocations.push(d.name.clone());
                    }
                    st.havocs.push(Havoc { local: d.name.clone(), into: v.clone() });
                    st.locals.push(d);
                }
                Action::Choose(v) => {
                    *fresh += 1;
                    let d = VarDecl::int(format!("{v}!{fresh}"));
                    st.set(position(v)?, d.term());
                    st.choices.push(d.name.clone());
                    st.locals.push(d);
                }
                Action::Inexact => st.inexact = true,
                Action::Mark(_) => {}
            }
        }
        if dead {
            continue;
        }
        if cut.contains(&e.to) {
            let constraint = st.condition();
            if constraint == Term::ff() {
                continue;
            }
            out.push(Transition {
                from: src,
                to: e.to,
                locals: st.locals.to_vec(),
                havocs: st.havocs.to_vec(),
                choices: st.choices.to_vec(),
                inexact: st.inexact,
                allocations: st.allocations.to_vec(),
                constraint,
                // A variable dead at the target (written before it is read
                // on every path from there) arrives as 0: the behaviour is
                // unchanged, and the engines and the fitter need not track
                // stale values (such as the front end's temporaries).
                post: vars
                    .iter()
                    .zip(st.values.iter())
                    .zip(&live_at_cut[&e.to])
                    .map(|((v, value), &live)| match value {
                        _ if !live => Term::int(0),
                        Some(t) => Term::clone(t),
                        None => v.term(),
                    })
                    .collect(),
                path: st.edges.to_vec(),
            });
        } else {
            enumerate_paths(cx, src, e.to, st, fresh, out, depth + 1)?;
        }
    }
    Ok(())
}

/// Largest model a query is asked on whole, in transitions times
/// variables (a transition's constraint states every variable's next
/// value, and engines and normalization hold each once or more). A
/// product line's simulator (10,000 transitions of 128 variables) took
/// gigabytes per query and never got an answer in thirty seconds, nor did
/// the elevator products of 4,000 to 8,000 transitions (a gigabyte and
/// more each); their loops are checked on projections only, and their
/// stems found by execution.
pub const MAX_WHOLE_MODEL: usize = 300_000;

impl Encoding {
    /// Whether the model is too large to be asked about whole (see
    /// [`MAX_WHOLE_MODEL`]).
    pub fn too_large_whole(&self) -> bool {
        self.transitions.len().saturating_mul(self.vars.len()) > MAX_WHOLE_MODEL
    }

    pub fn loop_header_name(&self, h: LocId) -> String {
        format!("loop_L{h}")
    }
    pub fn pred_name(&self, l: LocId) -> String {
        if l == self.exit {
            "exit".to_string()
        } else if self.loops.iter().any(|lp| lp.header == l) {
            self.loop_header_name(l)
        } else {
            format!("cut_L{l}")
        }
    }

    /// The exact part of the model: every path that goes through a value
    /// the model does not know (`choose`: an abstracted float, a havocked
    /// cell, an unknown function's result) is blocked. What remains are
    /// runs the C program really has (given the inputs on the path), so a
    /// non-termination witness on it holds for the program whatever the
    /// abstraction would have chosen elsewhere. Same transitions, same
    /// indices.
    pub fn without_unknown_values(&self) -> Encoding {
        let mut enc = self.clone();
        for t in &mut enc.transitions {
            if !t.choices.is_empty() || t.inexact {
                t.constraint = Term::ff();
            }
        }
        enc
    }

    /// The plain program: is the program exit reachable? (safe = `sat` means
    /// the exit is unreachable: the program never terminates normally.)
    /// Every predicate ranges over all program variables, in `vars` order
    /// (what the witness and synthesis code index into).
    pub fn plain_system(&self) -> System {
        self.system_of(self.transitions.clone(), false)
    }

    /// The plain system as `tessera emit` writes it: each predicate ranges
    /// over the variables live at its cut-point only, and the transitions
    /// are taken, not copied. A variable dead at a cut-point always
    /// arrives there as 0 (see `enumerate_paths`), so it is replaced by 0
    /// where a clause still mentions it: the same system, without the
    /// dead columns (on product lines, four in ten arguments).
    pub fn into_emitted_system(mut self) -> System {
        let transitions = std::mem::take(&mut self.transitions);
        self.system_of(transitions, true)
    }

    /// Writes the system [`Encoding::into_emitted_system`] gives, the same
    /// text, making each clause only when it is written: on a driver
    /// model with thousands of cut-points and a thousand live variables
    /// the clauses held together took gigabytes.
    /// The transitions are taken (written, then dropped one by one).
    pub fn write_emitted(&mut self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let transitions = std::mem::take(&mut self.transitions);
        let (head, plain) = PlainClauses::new(self, true);
        let clauses = transitions.into_iter().map(|t| plain.clause(t)).chain(std::iter::once(plain.query()));
        super::smtlib::write_streamed(w, &head, clauses)
    }

    /// The plain system over `transitions` (this encoding's, owned so that
    /// emit can move them instead of copying).
    fn system_of(&self, transitions: Vec<Transition>, live_only: bool) -> System {
        let (mut sys, plain) = PlainClauses::new(self, live_only);
        for t in transitions {
            let c = plain.clause(t);
            sys.clauses.push(c);
        }
        sys.clauses.push(plain.query());
        sys
    }
}

/// What makes the plain system's clauses out of transitions, one at a time.
struct PlainClauses<'e> {
    enc: &'e Encoding,
    live_only: bool,
    /// Each cut-point's predicate and the positions in `vars` it keeps.
    pred_of: BTreeMap<LocId, (PredId, Vec<usize>)>,
    /// Whether each of `vars` is live at each cut-point (all of them
    /// unless `live_only`).
    live: HashMap<LocId, Vec<bool>>,
    /// Position of each program variable in `vars`.
    index: HashMap<&'e str, usize>,
}

impl<'e> PlainClauses<'e> {
    /// The system's comments and predicates, no clause yet, and the maker
    /// of its clauses.
    fn new(enc: &'e Encoding, live_only: bool) -> (System, PlainClauses<'e>) {
        let mut sys = System::default();
        sys.comments.push(format!("Horn encoding of {} (large-block, one predicate per cut-point)", enc.file));
        // In the model the prover solves, runs end as soon as no loop is left
        // ahead of them (`ir::slice::end_where_no_cycle_is_left`).
        sys.comments.push("query: is the exit reachable (a run ended, or has no loop left ahead of it)? sat = no, unsat = yes".into());
        let index: HashMap<&str, usize> = enc.vars.iter().enumerate().map(|(i, v)| (v.name.as_str(), i)).collect();
        // Whether each of `vars` is live at a location: its live names
        // looked up in `vars`, not each of `vars` in its set of names (a
        // search of 1 400 names in 7 000 sets took seconds).
        let live_at = |l: LocId| -> Vec<bool> {
            let mut live = vec![!live_only; enc.vars.len()];
            if live_only {
                for name in &enc.live[l] {
                    if let Some(&i) = index.get(name.as_str()) {
                        live[i] = true;
                    }
                }
            }
            live
        };
        let mut pred_of: BTreeMap<LocId, (PredId, Vec<usize>)> = BTreeMap::new();
        let mut live = HashMap::new();
        for &c in &enc.cutpoints {
            let live_here = live_at(c);
            // The positions in `vars` the predicate keeps.
            let positions: Vec<usize> = (0..enc.vars.len()).filter(|&i| live_here[i]).collect();
            let params = positions.iter().map(|&i| enc.vars[i].clone()).collect();
            pred_of.insert(c, (sys.add_pred(enc.pred_name(c), params), positions));
            live.insert(c, live_here);
        }
        (sys, PlainClauses { enc, live_only, pred_of, live, index })
    }

    /// Whether `name` is one of the program variables, dead at cut-point `c`.
    fn dead(&self, c: LocId, name: &str) -> bool {
        self.index.get(name).is_some_and(|&i| !self.live[&c][i])
    }

    fn clause(&self, t: Transition) -> Clause {
        let enc = self.enc;
        let label = format!("{} -> {}", source_name(enc, t.from), enc.pred_name(t.to));
        let (head_pred, head_positions) = &self.pred_of[&t.to];
        let mut post = t.post;
        let mut head_args: Vec<Term> = head_positions.iter().map(|&i| std::mem::replace(&mut post[i], Term::int(0))).collect();
        let mut constraint = t.constraint;
        let mut body = Vec::new();
        // From the start, the pre-state is the arbitrary initial state.
        let mut vars: Vec<VarDecl> = match t.from {
            Source::At(s) => {
                let (pred, positions) = &self.pred_of[&s];
                body.push(PredApp { pred: *pred, args: positions.iter().map(|&i| enc.vars[i].term()).collect() });
                if self.live_only {
                    let dead = |n: &str| self.dead(s, n);
                    let zero = |n: &str| dead(n).then(|| Term::int(0));
                    if constraint.mentions_any(&dead) {
                        constraint = constraint.subst_with(&zero);
                    }
                    let live_here = &self.live[&s];
                    for (a, &i) in head_args.iter_mut().zip(head_positions) {
                        // Most arguments are the variable's own pre-state
                        // value: told by its position, without a look-up.
                        let own = matches!(&*a, Term::Var(n, _) if *n == enc.vars[i].name);
                        let mentions_dead = if own { !live_here[i] } else { a.mentions_any(&dead) };
                        if mentions_dead {
                            *a = a.subst_with(&zero);
                        }
                    }
                }
                positions.iter().map(|&i| enc.vars[i].clone()).collect()
            }
            Source::Start => enc.vars.clone(),
        };
        vars.extend(t.locals);
        Clause { vars, body, constraint, head: Some(PredApp { pred: *head_pred, args: head_args }), label }
    }

    /// The query: the program exit is reached.
    fn query(&self) -> Clause {
        let (exit, positions) = &self.pred_of[&self.enc.exit];
        Clause {
            vars: positions.iter().map(|&i| self.enc.vars[i].clone()).collect(),
            body: vec![PredApp { pred: *exit, args: positions.iter().map(|&i| self.enc.vars[i].term()).collect() }],
            constraint: Term::tt(),
            head: None,
            label: "query: program exit reached".into(),
        }
    }
}

fn cutpoints_places(p: &Program) -> BTreeMap<LocId, (usize, usize)> {
    p.locations.iter().enumerate().filter_map(|(l, at)| at.span.as_ref().map(|s| (l, (s.line, s.col)))).collect()
}

/// A cut-point in the program's words: the program's start, the loop (or
/// recursion) at its line, the place in the source, or its exit.
pub(crate) fn place_name(enc: &Encoding, s: Source) -> String {
    let l = match s {
        Source::Start => return "start".into(),
        Source::At(l) => l,
    };
    if l == enc.exit {
        return "exit".into();
    }
    let at = enc.places.get(&l);
    match (enc.loops.iter().position(|lp| lp.header == l), enc.recursions.get(&l), at) {
        (_, Some(f), _) => format!("entry of `{f}`"),
        (Some(_), None, Some((line, _))) => format!("loop at line {line}"),
        (None, None, Some((line, col))) => format!("line {line}:{col}"),
        _ => enc.pred_name(l),
    }
}

pub(crate) fn source_name(enc: &Encoding, s: Source) -> String {
    match s {
        Source::Start => "start".into(),
        Source::At(l) => enc.pred_name(l),
    }
}

/// The encoding of a small C program under `--ints math` and LP64: the
/// fixture of unit tests that start from C.
#[cfg(test)]
pub(crate) fn encode_c_for_test(src: &str) -> Encoding {
    let p = crate::c::parse_source("t.c", src, crate::ir::IntSemantics::Math, crate::ir::MachineModel::lp64()).expect("lowers");
    encode(&p).expect("encodes")
}

#[cfg(test)]
mod cutpoint_tests {
    use super::*;
    use crate::horn::cutpoints::cutpoints;
    use crate::ir::find_loops;

    /// An event loop whose body is a chain of `if`s that each leave with
    /// their own output, as in eca-rers2012: every path repeats the tests
    /// that failed before it.
    fn chain(arms: usize) -> Program {
        let mut src = String::from("extern int __VERIFIER_nondet_int(void);\nint a, b, c;\nint step(int in) {\n");
        for k in 0..arms {
            src += &format!("  if (a == {k} && b != {k} && (c == {k} || in == {k})) {{ a = {}; return {k}; }}\n", k + 1);
        }
        src += "  return -1;\n}\nint main() { while (1) { int in = __VERIFIER_nondet_int(); if (step(in) == -1) break; } return 0; }\n";
        crate::c::parse_source("t.c", &src, crate::ir::IntSemantics::Math, crate::ir::MachineModel::lp64()).expect("lowers")
    }

    fn cut_count(p: &Program, max_weight: usize) -> usize {
        let loops = find_loops(p).expect("reducible");
        cutpoints(p, &p.adjacency(), &loops, max_weight).len()
    }

    #[test]
    fn a_heavy_chain_of_leaving_ifs_is_cut_and_a_light_one_is_not() {
        let p = chain(60);
        let largest = |enc: &Encoding| enc.transitions.iter().map(|t| t.constraint.size()).max().unwrap_or(0);
        let (whole, cut) = (encode_with(&p, usize::MAX).expect("encodes"), encode_with(&p, 5_000).expect("encodes"));
        assert!(cut.cutpoints.len() > whole.cutpoints.len(), "a chain over the weight limit gets cut-points");
        // No path condition repeats the whole chain any more.
        assert!(largest(&cut) * 3 < largest(&whole), "largest clause {} cut, {} whole", largest(&cut), largest(&whole));
        let short = chain(5);
        assert_eq!(cut_count(&short, 5_000), cut_count(&short, usize::MAX), "a short chain stays whole");
    }

    #[test]
    fn cutting_a_chain_only_adds_cut_points() {
        let p = chain(12);
        let loops = find_loops(&p).expect("reducible");
        let whole = cutpoints(&p, &p.adjacency(), &loops, usize::MAX);
        let cut = cutpoints(&p, &p.adjacency(), &loops, 200);
        assert!(cut.is_superset(&whole), "the loop headers and the exit stay cut-points");
        assert!(cut.len() > whole.len());
    }
}
