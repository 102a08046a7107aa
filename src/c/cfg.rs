//! Building the control-flow graph.
//!
//! Lowering walks the program with a [`Cursor`]: a location plus the actions
//! executed since leaving it. Straight-line code only appends actions; a
//! branch copies the cursor (each copy gets its own `assume`); a new location
//! is created only where control flow merges (`join`), at loop headers and at
//! `goto` targets. So a whole loop body without inner joins becomes one edge.

use crate::ir::{Action, Edge, IntType, LocId, Location, Origin, Renaming, Span, Variable};
use crate::term::{Op, Term};
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Bounds on a variable's value (either side may be unknown).
pub type Bounds = (Option<BigInt>, Option<BigInt>);

#[derive(Clone, Debug)]
pub struct Cursor {
    pub loc: LocId,
    /// Never push here directly: go through [`Cursor::push`], which keeps
    /// `facts` true.
    pub actions: Vec<Action>,
    /// What the actions since `loc` imply about variables' values (from
    /// `assume x < c` and assignments), used to avoid wrap-around terms
    /// that cannot fire, e.g. `x - 1` right after `assume x > 0`.
    facts: BTreeMap<String, Bounds>,
    /// Allocation sites (by ordinal) executed since `loc`: the edge this
    /// cursor becomes tells whether they can run more than once.
    pub sites: Vec<usize>,
    /// `(a, b, k)`: `a <= b - k` holds here (from `assume a < b`); with the
    /// type of `b` this bounds `a`, so `i++` after `i < n` needs no wrap.
    below: Vec<(String, String, i64)>,
}

impl Cursor {
    pub fn at(loc: LocId) -> Cursor {
        Cursor { loc, actions: Vec::new(), facts: BTreeMap::new(), sites: Vec::new(), below: Vec::new() }
    }

    pub fn push(&mut self, a: Action) {
        match &a {
            Action::Assign(v, _) | Action::Havoc(v) | Action::Choose(v) => {
                self.facts.remove(v);
                self.below.retain(|(a, b, _)| a != v && b != v);
            }
            Action::Assume(t) => self.learn(t, true),
            Action::Inexact | Action::Mark(_) => {}
        }
        self.actions.push(a);
    }

    /// Record that `v` (just assigned) lies in `[lo, hi]`.
    pub fn set_range(&mut self, v: &str, lo: BigInt, hi: BigInt) {
        self.facts.insert(v.to_string(), (Some(lo), Some(hi)));
    }

    pub fn bounds(&self, v: &str) -> Option<&Bounds> {
        self.facts.get(v)
    }

    /// The variables `b` (with `k`) such that `v <= b - k` holds here.
    pub fn below(&self, v: &str) -> impl Iterator<Item = (&str, i64)> + '_ {
        let v = v.to_string();
        self.below.iter().filter(move |(a, _, _)| *a == v).map(|(_, b, k)| (b.as_str(), *k))
    }

    /// Append an `assume`; `None` when it is trivially false (dead path).
    pub fn assume(mut self, cond: Term) -> Option<Cursor> {
        match cond {
            Term::Bool(true) => Some(self),
            Term::Bool(false) => None,
            c => {
                self.push(Action::Assume(c));
                Some(self)
            }
        }
    }

    fn learn(&mut self, t: &Term, positive: bool) {
        match t {
            Term::App(Op::And, args) if positive => args.iter().for_each(|a| self.learn(a, true)),
            Term::App(Op::Or, args) if !positive => args.iter().for_each(|a| self.learn(a, false)),
            Term::App(Op::Not, args) if args.len() == 1 => self.learn(&args[0], !positive),
            Term::App(op @ (Op::Lt | Op::Le | Op::Gt | Op::Ge), args)
                if args.len() == 2 && matches!((&args[0], &args[1]), (Term::Var(..), Term::Var(..))) =>
            {
                let (Term::Var(x, _), Term::Var(y, _)) = (&args[0], &args[1]) else { return };
                let fact = match (op, positive) {
                    (Op::Lt, true) | (Op::Ge, false) => (x, y, 1),
                    (Op::Le, true) | (Op::Gt, false) => (x, y, 0),
                    (Op::Gt, true) | (Op::Le, false) => (y, x, 1),
                    _ => (y, x, 0),
                };
                self.below.push((fact.0.to_string(), fact.1.to_string(), fact.2));
            }
            Term::App(op @ (Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq), args) if args.len() == 2 => {
                // Normalize to `x op c`.
                let (var, c, op) = match (&args[0], &args[1]) {
                    (Term::Var(v, _), Term::Int(c)) => (v, c, *op),
                    (Term::Int(c), Term::Var(v, _)) => (v, c, flip(*op)),
                    _ => return,
                };
                let one = BigInt::from(1);
                let (lo, hi): Bounds = match (op, positive) {
                    (Op::Lt, true) | (Op::Ge, false) => (None, Some(c - &one)),
                    (Op::Le, true) | (Op::Gt, false) => (None, Some(c.clone())),
                    (Op::Gt, true) | (Op::Le, false) => (Some(c + &one), None),
                    (Op::Ge, true) | (Op::Lt, false) => (Some(c.clone()), None),
                    (Op::Eq, true) => (Some(c.clone()), Some(c.clone())),
                    _ => return,
                };
                let entry = self.facts.entry(var.to_string()).or_insert((None, None));
                if let Some(l) = lo {
                    entry.0 = Some(entry.0.take().map_or(l.clone(), |old| old.max(l)));
                }
                if let Some(h) = hi {
                    entry.1 = Some(entry.1.take().map_or(h.clone(), |old| old.min(h)));
                }
            }
            _ => {}
        }
    }
}

fn flip(op: Op) -> Op {
    match op {
        Op::Lt => Op::Gt,
        Op::Le => Op::Ge,
        Op::Gt => Op::Lt,
        Op::Ge => Op::Le,
        o => o,
    }
}

/// Upper bound on the size of the graph after inlining: beyond this the
/// engines would not cope anyway, and it stops exponential inlining.
pub const MAX_EDGES: usize = 200_000;

#[derive(Default)]
pub struct CfgBuilder {
    locations: Vec<Location>,
    edges: Vec<Edge>,
    vars: Vec<Variable>,
    /// Locations that must survive simplification: entry, exit, loop
    /// headers and `goto` targets.
    protected: HashSet<LocId>,
    taken: HashSet<String>,
    /// Temporaries not in use, by name prefix and type, for reuse: a
    /// temporary lives only within one C statement.
    free_temps: HashMap<(String, IntType), Vec<String>>,
    temps_in_use: Vec<(String, String, IntType)>,
    temp_counter: HashMap<String, usize>,
    /// The next copy number to try for `function.name` (inlining the same
    /// function many times would otherwise probe every number before).
    next_copy: HashMap<String, usize>,
    /// The edges (`from`, `to`) on which each allocation site runs.
    site_edges: Vec<(usize, LocId, LocId)>,
    var_types: HashMap<String, IntType>,
    /// The function being lowered (see `Location::function`).
    function: String,
}

/// The graph a [`CfgBuilder`] built, once finished (see
/// [`CfgBuilder::finish`]): what a [`crate::ir::Program`] is made of.
pub struct Graph {
    pub locations: Vec<Location>,
    pub edges: Vec<Edge>,
    pub vars: Vec<Variable>,
    pub entry: LocId,
    pub exit: LocId,
}

/// The `function` argument of [`CfgBuilder::declare`] for globals and the
/// model's own variables (`.` cannot start a C identifier).
pub const GLOBAL: &str = ".global";

impl CfgBuilder {
    /// An empty graph with its entry and exit locations (kept by the
    /// simplification).
    pub fn new() -> (CfgBuilder, LocId, LocId) {
        let mut cfg = CfgBuilder::default();
        let entry = cfg.new_location(None, "entry");
        let exit = cfg.new_location(None, "exit");
        cfg.protected.extend([entry, exit]);
        (cfg, entry, exit)
    }

    /// The locations made from now on are in `function`'s body.
    pub fn set_function(&mut self, function: &str) {
        self.function = function.to_string();
    }

    /// Keep `l` through the simplification (a loop header, a `goto`
    /// target, a location that stops copying a long edge).
    pub fn protect(&mut self, l: LocId) {
        self.protected.insert(l);
    }

    /// Place `l` at `span` (whoever created it).
    pub fn set_span(&mut self, l: LocId, span: Option<Span>) {
        if let Some(x) = self.locations.get_mut(l) {
            x.span = span;
        }
    }

    /// `l` is the header of the recursive function `name` (see
    /// `Location::recursion`); it is kept by the simplification.
    pub fn recursion_header(&mut self, l: LocId, name: &str) {
        if let Some(x) = self.locations.get_mut(l) {
            x.recursion = Some(name.to_string());
        }
        self.protected.insert(l);
    }

    /// Put `actions` before those of every edge leaving `from`.
    pub fn prepend_on_edges_from(&mut self, from: LocId, actions: &[Action]) {
        for e in self.edges.iter_mut().filter(|e| e.from == from) {
            let mut acts = actions.to_vec();
            acts.append(&mut e.actions);
            e.actions = acts;
        }
    }

    /// The actions of each edge built so far, to rewrite (a pass over the
    /// whole graph before it is finished). Only the actions: where edges
    /// go, and which allocation sites they run, stay the builder's.
    pub fn edge_actions_mut(&mut self) -> impl Iterator<Item = &mut Vec<Action>> + '_ {
        self.edges.iter_mut().map(|e| &mut e.actions)
    }

    /// The finished graph: simplified (see [`simplify`]), without the
    /// locations `entry` does not reach (`exit` is kept), renumbered in
    /// the order they were made.
    pub fn finish(mut self, entry: LocId, exit: LocId) -> Graph {
        let n = self.locations.len();
        let edges = std::mem::take(&mut self.edges);
        let edges = simplify(n, edges, &self.protected);
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
        for e in &edges {
            if e.from < n && e.to < n {
                succ[e.from].push(e.to);
            }
        }
        let mut seen = vec![false; n];
        let mut stack = vec![entry];
        while let Some(l) = stack.pop() {
            if l < n && !seen[l] {
                seen[l] = true;
                stack.extend(succ[l].iter().copied());
            }
        }
        if exit < n {
            seen[exit] = true;
        }
        let mut new_id = vec![usize::MAX; n];
        let mut locations = Vec::new();
        for (l, location) in self.locations.into_iter().enumerate() {
            if seen[l] {
                new_id[l] = locations.len();
                locations.push(location);
            }
        }
        let edges: Vec<Edge> = edges
            .into_iter()
            .filter(|e| e.from < n && e.to < n && seen[e.from] && seen[e.to])
            .map(|mut e| {
                e.from = new_id[e.from];
                e.to = new_id[e.to];
                e
            })
            .collect();
        Graph { locations, edges, vars: self.vars, entry: new_id[entry], exit: new_id[exit] }
    }

    pub fn new_location(&mut self, span: Option<Span>, note: impl Into<String>) -> LocId {
        self.locations.push(Location { span, note: note.into(), function: self.function.clone(), recursion: None });
        self.locations.len() - 1
    }

    /// Close a cursor into an edge to `to`.
    pub fn jump(&mut self, c: Cursor, to: LocId) {
        self.site_edges.extend(c.sites.iter().map(|&s| (s, c.loc, to)));
        self.edges.push(Edge { from: c.loc, to, actions: c.actions });
    }

    /// Allocation sites on an edge that lies on a cycle of the graph (so
    /// they may run more than once per run, whatever the syntax says).
    pub fn repeating_sites(&self) -> HashSet<usize> {
        let n = self.locations.len();
        let mut succ: Vec<Vec<LocId>> = vec![Vec::new(); n];
        for e in &self.edges {
            if e.from < n && e.to < n {
                succ[e.from].push(e.to);
            }
        }
        let reaches = |from: LocId, target: LocId| -> bool {
            let mut seen = vec![false; n];
            let mut stack = vec![from];
            while let Some(l) = stack.pop() {
                if l == target {
                    return true;
                }
                if l < n && !seen[l] {
                    seen[l] = true;
                    stack.extend(succ[l].iter().copied());
                }
            }
            false
        };
        let mut memo: HashMap<(LocId, LocId), bool> = HashMap::new();
        let mut out = HashSet::new();
        for &(site, from, to) in &self.site_edges {
            let on_cycle = *memo.entry((from, to)).or_insert_with(|| reaches(to, from));
            if on_cycle {
                out.insert(site);
            }
        }
        out
    }

    pub fn too_large(&self) -> bool {
        self.edges.len() > MAX_EDGES || self.locations.len() > MAX_EDGES
    }

    /// Merge control flow: no location for zero or one incoming cursor.
    pub fn join(&mut self, cursors: Vec<Cursor>, span: Option<Span>, note: &str) -> Option<Cursor> {
        let mut cursors = cursors;
        match cursors.len() {
            0 => None,
            1 => cursors.pop(),
            _ => {
                let l = self.new_location(span, note);
                for c in cursors {
                    self.jump(c, l);
                }
                Some(Cursor::at(l))
            }
        }
    }

    /// The type of a program variable.
    pub fn type_of(&self, name: &str) -> Option<IntType> {
        self.var_types.get(name).copied()
    }

    /// A program variable for a C variable (see [`CfgBuilder::declare_as`]).
    pub fn declare(&mut self, source_name: &str, function: &str, ty: IntType) -> String {
        self.declare_as(source_name, function, ty, Origin::Source)
    }

    /// A program variable standing for `origin`: its source name when
    /// still free, else `function.name`, else `function.name.2`, ... (`.`
    /// cannot occur in C identifiers, so these never clash with C names).
    pub fn declare_as(&mut self, source_name: &str, function: &str, ty: IntType, origin: Origin) -> String {
        let mut name = source_name.to_string();
        let mut renamed = None;
        if self.taken.contains(&name) {
            let base = format!("{function}.{source_name}");
            name = base.clone();
            renamed = Some(Renaming { scope: function.to_string(), copy: None });
            let k = self.next_copy.entry(base.clone()).or_insert(2);
            while self.taken.contains(&name) {
                name = format!("{base}.{k}");
                renamed = Some(Renaming { scope: function.to_string(), copy: Some(*k) });
                *k += 1;
            }
        }
        self.taken.insert(name.clone());
        self.var_types.insert(name.clone(), ty);
        let function = (function != GLOBAL).then(|| function.to_string());
        self.vars.push(Variable { name: name.clone(), source_name: source_name.to_string(), ty, function, origin, renamed });
        name
    }

    /// A temporary (`nondet%1`, `f%ret`, ...): `%` keeps it apart from C names.
    pub fn temp(&mut self, prefix: &str, ty: IntType) -> String {
        let key = (prefix.to_string(), ty);
        let name = match self.free_temps.get_mut(&key).and_then(|v| v.pop()) {
            Some(n) => n,
            None => {
                let counter = self.temp_counter.entry(prefix.to_string()).or_insert(0);
                let mut name;
                loop {
                    *counter += 1;
                    name = if prefix.ends_with("%ret") && *counter == 1 {
                        prefix.to_string()
                    } else if prefix.ends_with("%ret") {
                        format!("{prefix}{counter}")
                    } else {
                        format!("{prefix}%{counter}")
                    };
                    if !self.taken.contains(&name) {
                        break;
                    }
                }
                self.taken.insert(name.clone());
                self.var_types.insert(name.clone(), ty);
                self.vars.push(Variable { name: name.clone(), source_name: name.clone(), ty, function: None, origin: Origin::Temporary, renamed: None });
                name
            }
        };
        self.temps_in_use.push((name.clone(), prefix.to_string(), ty));
        name
    }

    /// Marks the temporaries in use at the start of a statement.
    pub fn temp_mark(&self) -> usize {
        self.temps_in_use.len()
    }

    /// Release the temporaries taken since `mark` (end of a statement).
    pub fn release_temps(&mut self, mark: usize) {
        while self.temps_in_use.len() > mark {
            if let Some((name, prefix, ty)) = self.temps_in_use.pop() {
                self.free_temps.entry((prefix, ty)).or_default().push(name);
            }
        }
    }
}

/// Actions of an edge that `simplify` copies into each branch after it.
const MAX_COPIED_ACTIONS: usize = 8;

/// Contract locations that only glue straight-line code together: a
/// location with one incoming edge is merged into it, and a location whose
/// only way out is an empty edge is bypassed. Paths, and so the loop
/// structure among the remaining locations, are unchanged.
/// The actions that count for the size of an edge: the marks of undefined
/// operations (see [`crate::ir::UNDEFINED_SITE`]) are no part of the model
/// and must not change its shape.
pub(crate) fn model_actions(actions: &[Action]) -> usize {
    actions.iter().filter(|a| !matches!(a, Action::Assign(v, _) if v == crate::ir::UNDEFINED_SITE)).count()
}

pub fn simplify(n: usize, edges: Vec<Edge>, protected: &HashSet<LocId>) -> Vec<Edge> {
    let mut edges: Vec<Option<Edge>> = edges.into_iter().map(Some).collect();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut inn: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        if let Some(e) = e {
            if e.from < n && e.to < n {
                out[e.from].push(i);
                inn[e.to].push(i);
            }
        }
    }
    let mut work: Vec<LocId> = (0..n).rev().collect();
    let mut queued = vec![true; n];
    while let Some(l) = work.pop() {
        queued[l] = false;
        if protected.contains(&l) {
            continue;
        }
        out[l].retain(|&i| edges[i].as_ref().is_some_and(|e| e.from == l));
        inn[l].retain(|&i| edges[i].as_ref().is_some_and(|e| e.to == l));
        let outs = out[l].clone();
        let ins = inn[l].clone();
        if outs.iter().chain(ins.iter()).any(|&i| edges[i].as_ref().is_some_and(|e| e.from == e.to)) {
            continue;
        }
        let mut touched = Vec::new();
        // Merging copies the incoming actions into every outgoing edge: a
        // long straight-line block before a branch stays where it is.
        let copies_are_cheap = outs.len() <= 1
            || ins.len() == 1 && edges[ins[0]].as_ref().is_some_and(|e| model_actions(&e.actions) <= MAX_COPIED_ACTIONS);
        if ins.len() == 1 && copies_are_cheap {
            let Some(mut first) = edges[ins[0]].take() else { continue };
            for (k, &o) in outs.iter().enumerate() {
                if let Some(oe) = edges[o].take() {
                    // The last copy takes the actions: a straight line of
                    // merges then moves them instead of copying them again
                    // at every step.
                    let mut actions = if k + 1 == outs.len() { std::mem::take(&mut first.actions) } else { first.actions.clone() };
                    actions.extend(oe.actions);
                    let idx = edges.len();
                    edges.push(Some(Edge { from: first.from, to: oe.to, actions }));
                    out[first.from].push(idx);
                    inn[oe.to].push(idx);
                    touched.push(oe.to);
                }
            }
            touched.push(first.from);
        } else if outs.len() == 1 && edges[outs[0]].as_ref().is_some_and(|e| e.actions.is_empty()) {
            let Some(skip) = edges[outs[0]].take() else { continue };
            for &i in &ins {
                if let Some(e) = edges[i].as_mut() {
                    e.to = skip.to;
                    inn[skip.to].push(i);
                    touched.push(e.from);
                }
            }
            touched.push(skip.to);
        }
        for t in touched {
            if t < n && !queued[t] {
                queued[t] = true;
                work.push(t);
            }
        }
    }
    // Drop exact duplicates (e.g. both arms of an empty `if`).
    let mut seen: HashMap<(LocId, LocId), Vec<usize>> = HashMap::new();
    let mut result: Vec<Edge> = Vec::new();
    for e in edges.into_iter().flatten() {
        let same = seen.entry((e.from, e.to)).or_default();
        if !same.iter().any(|&i| result[i].actions == e.actions) {
            same.push(result.len());
            result.push(e);
        }
    }
    result
}
