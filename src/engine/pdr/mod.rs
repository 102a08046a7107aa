//! PDR/IC3 for linear Horn clauses over linear integer arithmetic, with Z3
//! as the satisfiability oracle.
//!
//! The usual ingredients, per predicate: frames as lemmas with levels (a
//! lemma at level `k` holds for every state derivable in at most `k + 1`
//! steps and is inductive relative to the frame below), a priority queue of
//! proof obligations (predicate, cube, level), predecessors generalised by
//! model-based projection ([`mbp`]), blocked cubes generalised by unsat cores
//! and by dropping literals, lemma pushing, and a fixpoint check that yields
//! the inductive invariant. Counterexamples are rebuilt from the chain of
//! obligations and made concrete by replaying the chain of clauses
//! ([`linear::replay`]).
//!
//! Queries are clauses into a virtual predicate `false` (no arguments), so
//! "is the query blocked at level N" is an ordinary obligation.
//!
//! Every answer is checked before it is returned: a Safe invariant is
//! re-validated clause by clause in a fresh solver, an Unsafe derivation is
//! the model of a concrete replay.

use super::Engine;
use crate::solve::{Budget, Invariant, Verdict};
use crate::horn::normalize::normalize_keeping_plain_args;
use crate::horn::System;
use crate::smt::{bool_of, check, check_assumptions, eval_in, set_timeout, Sat};
use crate::term::Term;
use crate::term::Affine;
use lit::{clause_term, split_equalities, Lit};
use num_bigint::BigInt;
use num_traits::One;
use linear::{linear_clauses, replay, LinearClause, Placement};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::Solver;

pub mod affine;
mod lemmas;
pub mod linear;
pub mod lit;
pub mod mbp;

/// The PDR engine.
#[derive(Clone, Debug, Default)]
pub struct Pdr;

impl Engine for Pdr {
    fn name(&self) -> &'static str {
        "pdr"
    }
    fn solve(&self, system: &System, budget: &Budget) -> Verdict {
        let _guard = budget.cancel.register_thread_context();
        let norm = normalize_keeping_plain_args(system);
        let clauses = match linear_clauses(&norm.system) {
            Ok(c) => c,
            Err(e) => return Verdict::Unknown(format!("pdr: {e}")),
        };
        // A bug must cost an answer, never the prover: a panic becomes Unknown.
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Search::new(&norm.system, clauses, budget).run()));
        match run {
            Ok(verdict) => norm.back.verdict(verdict),
            Err(_) => Verdict::Unknown("pdr: internal error (panic)".into()),
        }
    }
}

/// Level of lemmas that are inductive on their own.
const INF: usize = usize::MAX;

/// Why the search stopped without an answer.
struct Stop(String);

type Res<T> = Result<T, Stop>;

#[derive(Clone, Debug)]
struct Lemma {
    /// The blocked cube; the lemma is its negation.
    cube: Vec<Lit>,
    level: usize,
    /// False once subsumed by a stronger lemma at a level at least as high.
    alive: bool,
}

#[derive(Clone, Debug)]
struct Pob {
    pred: usize,
    cube: Vec<Lit>,
    level: usize,
    depth: usize,
    parent: Option<usize>,
    /// The clause from this obligation's predicate to the parent's.
    clause: Option<usize>,
}

/// One solver per predicate `p`, holding every clause into `p` (guarded by a
/// tag literal) and the lemmas of the body predicates of those clauses
/// (guarded by level literals).
struct PredSolver {
    solver: Solver,
    /// Per body predicate, the level up to which `g(q, j) => g(q, j + 1)` has
    /// been asserted.
    chained: HashMap<usize, usize>,
    /// When the solver's timeout was last refreshed from the budget.
    timeout_set: Option<Instant>,
}

enum Examined {
    /// A fact clause produces a state of the cube.
    Reached(usize),
    /// A predecessor cube of the body predicate through this clause
    /// (empty when not asked for).
    Predecessor { clause: usize, pred: usize, cube: Vec<Lit> },
    /// No clause produces the cube from the frame below; the literals of the
    /// cube that the proof needed.
    Blocked(Vec<Lit>),
}

fn slot(j: usize) -> String {
    format!("#{j}")
}
fn pre_name(q: usize, j: usize) -> String {
    format!("!{q}!{j}")
}
fn post_name(p: usize, j: usize) -> String {
    format!("!{p}'{j}")
}
fn slot_index(name: &str) -> Option<usize> {
    name.strip_prefix('#').and_then(|s| s.parse().ok())
}

struct Search<'a> {
    system: &'a System,
    clauses: Vec<LinearClause>,
    /// The virtual `false` predicate; real predicates are `0..bottom`.
    bottom: usize,
    /// Clauses into each predicate (queries into `bottom`).
    incoming: Vec<Vec<usize>>,
    /// Predicates whose solver holds this predicate's lemmas.
    successors: Vec<Vec<usize>>,
    lemmas: Vec<Vec<Lemma>>,
    solvers: Vec<PredSolver>,
    pobs: Vec<Pob>,
    queue: BinaryHeap<Reverse<(usize, usize, usize)>>,
    budget: &'a Budget,
    queries: usize,
    /// Progress on stderr (environment variable `TESSERA_PDR_TRACE`).
    trace: bool,
    /// Lowest level at which an obligation was examined in this round:
    /// frames below it did not change, so their lemmas need no new push.
    min_expanded: usize,
    started: Instant,
    /// A post-state term to evaluate in the model of a satisfiable check.
    probe: Option<Term>,
    probed: Option<BigInt>,
    /// The bounded unrolling run between rounds, and the time spent in it.
    unrolling: Option<super::bmc::Unrolling>,
    probe_time: Duration,
    /// The deep probe's unrolling reached its size limit: no more probes.
    probe_exhausted: bool,
    probe_slice: Duration,
}

impl<'a> Search<'a> {
    fn new(system: &'a System, clauses: Vec<LinearClause>, budget: &'a Budget) -> Search<'a> {
        let bottom = system.preds.len();
        let n = bottom + 1;
        let mut incoming = vec![Vec::new(); n];
        let mut successors: Vec<Vec<usize>> = vec![Vec::new(); n];
        for c in &clauses {
            let head = c.head.as_ref().map_or(bottom, |h| h.0);
            incoming[head].push(c.index);
            if let Some((q, _)) = &c.body {
                if !successors[*q].contains(&head) {
                    successors[*q].push(head);
                }
            }
        }
        let mut solvers = Vec::with_capacity(n);
        for (p, into) in incoming.iter().enumerate() {
            let solver = Solver::new_for_logic("QF_LIA").unwrap_or_else(Solver::new);
            for &ci in into {
                let c = &clauses[ci];
                let q = c.body.as_ref().map_or(usize::MAX, |b| b.0);
                let pre = |j: usize| pre_name(q, j);
                let post = |j: usize| post_name(p, j);
                let local = |name: &str| format!("!c{ci}!{name}");
                let t = c.place(&Placement { pre: &pre, post: &post, local: &local });
                solver.assert(tag(ci).implies(bool_of(&t)));
            }
            solvers.push(PredSolver { solver, chained: HashMap::new(), timeout_set: None });
        }
        Search {
            system,
            clauses,
            bottom,
            incoming,
            successors,
            lemmas: vec![Vec::new(); n],
            solvers,
            pobs: Vec::new(),
            queue: BinaryHeap::new(),
            budget,
            queries: 0,
            min_expanded: 0,
            started: Instant::now(),
            probe: None,
            probed: None,
            unrolling: None,
            probe_time: Duration::ZERO,
            probe_exhausted: false,
            probe_slice: Duration::from_millis(20),
            trace: std::env::var_os("TESSERA_PDR_TRACE").is_some(),
        }
    }

    fn run(&mut self) -> Verdict {
        match self.search() {
            Ok(v) => v,
            Err(Stop(why)) => Verdict::Unknown(format!("pdr: {why}")),
        }
    }

    fn search(&mut self) -> Res<Verdict> {
        self.seed_equalities()?;
        let mut n = 0usize;
        loop {
            if let Some(chain) = self.block_level(n)? {
                return self.counterexample(&chain);
            }
            if let Some(level) = self.propagate(self.min_expanded.min(n), n)? {
                return self.invariant_above(level);
            }
            if let Some(d) = self.deep_probe()? {
                return Ok(Verdict::Unsafe(d));
            }
            if self.trace {
                let live: Vec<usize> = self.lemmas.iter().map(|ls| ls.iter().filter(|l| l.alive).count()).collect();
                eprintln!("pdr: level {n} done, {} queries, {:?} elapsed, lemmas per predicate {live:?}", self.queries, self.started.elapsed());
                if n % 50 == 0 || n < 5 {
                    for (p, ls) in self.lemmas.iter().enumerate() {
                        for l in ls.iter().filter(|l| l.alive) {
                            let lv = if l.level == INF { -1 } else { l.level as i64 };
                            eprintln!("   p{p} @{lv}: {}", clause_term(&l.cube));
                        }
                    }
                }
            }
            n += 1;
        }
    }

    fn alive_budget(&self) -> Res<()> {
        if self.budget.expired() {
            Err(Stop(if self.budget.cancel.is_cancelled() { "cancelled".into() } else { "time limit".into() }))
        } else {
            Ok(())
        }
    }

    /// Add the affine equalities of Karr's analysis as lemmas that hold at
    /// every level, after re-checking that they are inductive (Houdini:
    /// drop any that some clause breaks, until none does).
    fn seed_equalities(&mut self) -> Res<()> {
        let arity: Vec<usize> = (0..self.bottom).map(|p| self.arity(p)).collect();
        let mut cands = affine::invariant_equalities(&self.clauses, &arity, self.bottom);
        loop {
            let mut dropped = false;
            for ci in 0..self.clauses.len() {
                let c = &self.clauses[ci];
                let Some((p, _)) = &c.head else { continue };
                let p = *p;
                if cands[p].is_empty() {
                    continue;
                }
                self.alive_budget()?;
                let q = c.body.as_ref().map_or(usize::MAX, |b| b.0);
                let pre = |j: usize| pre_name(q, j);
                let post = |j: usize| post_name(p, j);
                let local = |name: &str| format!("!c{ci}!{name}");
                let s = crate::smt::solver_for(self.budget);
                s.assert(bool_of(&c.place(&Placement { pre: &pre, post: &post, local: &local })));
                if q != usize::MAX {
                    for l in &cands[q] {
                        s.assert(bool_of(&rename_lit(l, &pre).to_term()));
                    }
                }
                let mut keep = Vec::new();
                for l in cands[p].clone() {
                    s.push();
                    s.assert(bool_of(&rename_lit(&l, &post).negated_term()));
                    let r = check(&s, self.budget);
                    s.pop(1);
                    match r {
                        Sat::Unsat => keep.push(l),
                        Sat::Sat => dropped = true,
                        Sat::Unknown => {
                            self.alive_budget()?;
                            dropped = true;
                        }
                    }
                }
                cands[p] = keep;
            }
            if !dropped {
                break;
            }
        }
        for (p, eqs) in cands.into_iter().enumerate() {
            for l in eqs {
                if let Lit::Eq(e) = l {
                    // e = 0 as two lemmas: not (e <= -1), not (e >= 1).
                    let below = e.plus(&Affine::constant(BigInt::one()));
                    let above = e.times(&-BigInt::one()).plus(&Affine::constant(BigInt::one()));
                    for side in [below, above] {
                        if let Ok(cube_lit) = Lit::le(side) {
                            if self.trace {
                                eprintln!("pdr: seed p{p}: {}", clause_term(std::slice::from_ref(&cube_lit)));
                            }
                            self.add_lemma(p, vec![cube_lit], INF);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// PDR needs one level per step of a counterexample, so a trace of
    /// thousands of steps costs thousands of rounds. Between rounds, give a
    /// bounded unrolling (exact, geometric depths) a third of the time: deep
    /// counterexamples then come from it, everything else from PDR.
    fn deep_probe(&mut self) -> Res<Option<crate::solve::Derivation>> {
        let total = self.started.elapsed();
        if self.probe_time * 2 >= total.saturating_sub(self.probe_time) {
            return Ok(None);
        }
        if self.unrolling.as_ref().is_some_and(|u| u.full()) {
            // The unrolling reached its size limit: its memory goes back,
            // and PDR alone goes on.
            self.unrolling = None;
            self.probe_exhausted = true;
        }
        if self.probe_exhausted {
            return Ok(None);
        }
        if self.unrolling.is_none() {
            self.unrolling = Some(super::bmc::Unrolling::new(self.system, self.clauses.clone()));
        }
        // A check that timed out is repeated from scratch, so each retry
        // gets twice the time of the last one.
        let slice = (total.saturating_sub(self.probe_time) / 2).saturating_sub(self.probe_time).max(self.probe_slice);
        let t0 = Instant::now();
        let sub = self.budget.sub_budget(slice);
        let mut found = None;
        if let Some(u) = self.unrolling.as_mut() {
            while t0.elapsed() < slice {
                match u.advance(&sub) {
                    Ok(Some(d)) => {
                        found = Some(d);
                        break;
                    }
                    Ok(None) => {}
                    // The slice ran out (or the solver gave up on this
                    // depth): back to PDR; the next slice is longer.
                    Err(_) => {
                        // Doubling is capped: a probe that keeps failing
                        // fast must not grow the slice past any deadline
                        // (it overflowed `Instant` after ~40 failures).
                        self.probe_slice = slice.saturating_mul(2).min(Duration::from_secs(3600));
                        break;
                    }
                }
            }
        }
        self.probe_time += t0.elapsed();
        self.alive_budget()?;
        if self.trace {
            eprintln!("pdr: deep probe {:?} of {:?}", self.probe_time, self.started.elapsed());
        }
        Ok(found)
    }

    // ---- solver plumbing

    fn ensure_chain(&mut self, p: usize, q: usize, level: usize) {
        let ps = &mut self.solvers[p];
        let from = ps.chained.get(&q).copied().unwrap_or(0);
        for j in from..level {
            ps.solver.assert(guard(q, j).implies(guard(q, j + 1)));
        }
        if level > from {
            ps.chained.insert(q, level);
        }
    }

    fn assert_lemma(&mut self, q: usize, cube: &[Lit], level: usize) {
        let lemma = clause_term(&rename_cube(cube, &|j| pre_name(q, j)));
        let formula = bool_of(&lemma);
        for p in self.successors[q].clone() {
            if level == INF {
                self.solvers[p].solver.assert(&formula);
            } else {
                self.ensure_chain(p, q, level);
                self.solvers[p].solver.assert(guard(q, level).implies(&formula));
            }
        }
    }

    fn check_with(&mut self, p: usize, assumptions: &[Bool]) -> Res<Sat> {
        self.alive_budget()?;
        self.queries += 1;
        // Setting parameters costs as much as a small query: refresh the
        // timeout only every 100 ms (a check may overrun the deadline by at
        // most that much).
        let budget = self.budget;
        let ps = &mut self.solvers[p];
        if ps.timeout_set.is_none_or(|t| t.elapsed() > Duration::from_millis(100)) {
            set_timeout(&ps.solver, budget);
            ps.timeout_set = Some(Instant::now());
        }
        let s = &ps.solver;
        match check_assumptions(s, assumptions, budget) {
            Sat::Unknown => {
                let why = s.get_reason_unknown().unwrap_or_default();
                self.alive_budget()?;
                Err(Stop(format!("solver returned unknown ({why})")))
            }
            r => Ok(r),
        }
    }

    /// Can a state of `cube` (predicate `p`) be derived in at most `level + 1`
    /// steps, using the frame `level - 1` for body predicates? With
    /// `want_predecessor`, a satisfiable rule yields a projected predecessor.
    fn examine(&mut self, p: usize, cube: &[Lit], level: usize, want_predecessor: bool) -> Res<Examined> {
        // The cube's literals live in a solver scope of their own, so that
        // the many candidate cubes of generalisation do not pile up atoms in
        // the solver.
        self.solvers[p].solver.push();
        let r = self.examine_in_scope(p, cube, level, want_predecessor);
        self.solvers[p].solver.pop(1);
        r
    }

    fn examine_in_scope(&mut self, p: usize, cube: &[Lit], level: usize, want_predecessor: bool) -> Res<Examined> {
        let post_lits: Vec<Term> = cube.iter().map(|l| rename_lit(l, &|j| post_name(p, j)).to_term()).collect();
        let mut lit_proxies: Vec<Bool> = Vec::with_capacity(cube.len());
        for (i, t) in post_lits.iter().enumerate() {
            let b = Bool::new_const(format!("!a{i}"));
            self.solvers[p].solver.assert(b.implies(bool_of(t)));
            lit_proxies.push(b);
        }
        let mut outside_proxy: Option<Bool> = None;
        let mut needed = vec![false; cube.len()];
        // Facts first: reaching a fact ends the search with a counterexample.
        let mut order: Vec<usize> = self.incoming[p].clone();
        order.sort_by_key(|&ci| self.clauses[ci].body.is_some());
        for ci in order {
            let body = self.clauses[ci].body.as_ref().map(|b| b.0);
            let mut assumptions = vec![tag(ci)];
            if let Some(q) = body {
                if level == 0 {
                    continue;
                }
                assumptions.push(guard(q, level - 1));
                if q == p && !cube.is_empty() {
                    // Relative induction: predecessors outside the cube.
                    let px = match &outside_proxy {
                        Some(px) => px.clone(),
                        None => {
                            let outside = clause_term(&rename_cube(cube, &|j| pre_name(q, j)));
                            let px = Bool::new_const("!outside");
                            self.solvers[p].solver.assert(px.implies(bool_of(&outside)));
                            outside_proxy = Some(px.clone());
                            px
                        }
                    };
                    assumptions.push(px);
                }
            }
            assumptions.extend(lit_proxies.iter().cloned());
            match self.check_with(p, &assumptions)? {
                Sat::Sat => {
                    if let Some(t) = self.probe.clone() {
                        self.probed = self.solvers[p]
                            .solver
                            .get_model()
                            .and_then(|m| eval_in(&m, &t))
                            .and_then(|v| v.as_int().cloned());
                    }
                    let Some(q) = body else { return Ok(Examined::Reached(ci)) };
                    let cube = if want_predecessor { self.predecessor(p, ci, q, &post_lits)? } else { Vec::new() };
                    return Ok(Examined::Predecessor { clause: ci, pred: q, cube });
                }
                _ => {
                    let core = self.solvers[p].solver.get_unsat_core();
                    for (i, px) in lit_proxies.iter().enumerate() {
                        if core.iter().any(|c| c == px) {
                            needed[i] = true;
                        }
                    }
                }
            }
        }
        Ok(Examined::Blocked(cube.iter().zip(&needed).filter(|(_, n)| **n).map(|(l, _)| l.clone()).collect()))
    }

    /// Project the last satisfiable query onto the body predicate's state.
    fn predecessor(&mut self, p: usize, ci: usize, q: usize, post_lits: &[Term]) -> Res<Vec<Lit>> {
        let model = self.solvers[p].solver.get_model().ok_or_else(|| Stop("no model".into()))?;
        let c = &self.clauses[ci];
        let pre = |j: usize| pre_name(q, j);
        let post = |j: usize| post_name(p, j);
        let local = |name: &str| format!("!c{ci}!{name}");
        let mut parts = vec![c.place(&Placement { pre: &pre, post: &post, local: &local })];
        parts.extend(post_lits.iter().cloned());
        let phi = Term::and(parts);
        let mut env = BTreeMap::new();
        for v in phi.free_vars() {
            let val = eval_in(&model, &v.term()).ok_or_else(|| Stop(format!("no model value for {}", v.name)))?;
            env.insert(v.name.clone(), val);
        }
        let prefix = format!("!{q}!");
        let keep = |name: &str| name.starts_with(&prefix);
        let projected = mbp::project(&phi, &env, &keep).map_err(|e| Stop(format!("projection failed: {}", e.0)))?;
        let back: HashMap<String, String> = (0..self.arity(q)).map(|j| (pre_name(q, j), slot(j))).collect();
        let cube: Vec<Lit> = projected.iter().map(|l| l.rename(&|n| back.get(n).cloned().unwrap_or_else(|| n.to_string()))).collect();
        Ok(split_equalities(cube))
    }

    fn arity(&self, p: usize) -> usize {
        self.system.preds.get(p).map_or(0, |pr| pr.params.len())
    }

    // ---- main phases

    fn push_pob(&mut self, pob: Pob) {
        let key = (pob.level, pob.depth, self.pobs.len());
        self.pobs.push(pob);
        self.queue.push(Reverse(key));
    }

    fn requeue(&mut self, id: usize, level: usize) {
        let pob = Pob { level, ..self.pobs[id].clone() };
        self.push_pob(pob);
    }

    /// Block the query at level `n`. Returns the clause chain of a
    /// counterexample (fact first) if one is found.
    fn block_level(&mut self, n: usize) -> Res<Option<Vec<usize>>> {
        self.queue.clear();
        self.pobs.clear();
        self.min_expanded = n;
        self.push_pob(Pob { pred: self.bottom, cube: Vec::new(), level: n, depth: 0, parent: None, clause: None });
        while let Some(Reverse((level, _, id))) = self.queue.pop() {
            self.alive_budget()?;
            let p = self.pobs[id].pred;
            let cube = self.pobs[id].cube.clone();
            if let Some(l) = self.blocked_by_lemma(p, &cube) {
                if l >= level {
                    if l < n {
                        self.requeue(id, l + 1);
                    }
                    continue;
                }
            }
            self.min_expanded = self.min_expanded.min(level);
            if self.trace {
                eprintln!("pdr:   pob p{p} @{level} {}", lit::cube_term(&cube));
            }
            match self.examine(p, &cube, level, true)? {
                Examined::Reached(ci) => {
                    let mut chain = vec![ci];
                    let mut cur = Some(id);
                    while let Some(i) = cur {
                        if let Some(c) = self.pobs[i].clause {
                            chain.push(c);
                        }
                        cur = self.pobs[i].parent;
                    }
                    return Ok(Some(chain));
                }
                Examined::Predecessor { clause, pred, cube: pc } => {
                    let depth = self.pobs[id].depth;
                    self.requeue(id, level);
                    self.push_pob(Pob { pred, cube: pc, level: level - 1, depth: depth + 1, parent: Some(id), clause: Some(clause) });
                }
                Examined::Blocked(core) => {
                    let (g, lvl) = self.generalize(p, core, level, n + 1)?;
                    if self.trace {
                        eprintln!("pdr:   lemma p{p} @{lvl}: {}", clause_term(&g));
                    }
                    self.add_lemma(p, g, lvl);
                    if lvl < n {
                        self.requeue(id, lvl + 1);
                    }
                }
            }
        }
        Ok(None)
    }

    /// Push lemmas up the frames `0..=n`. Returns `Some(k)` when frame `k`
    /// equals frame `k + 1` and blocks the query: the lemmas above `k` are an
    /// inductive invariant.
    fn propagate(&mut self, from: usize, n: usize) -> Res<Option<usize>> {
        for k in from..=n {
            for p in 0..self.lemmas.len() {
                let mut i = 0;
                while i < self.lemmas[p].len() {
                    let l = &self.lemmas[p][i];
                    if l.alive && l.level == k {
                        let cube = l.cube.clone();
                        if let Some(core) = self.blocked(p, &cube, k + 1)? {
                            if core.len() < cube.len() {
                                // A stronger lemma for free: add it, which
                                // retires this one.
                                self.add_lemma(p, core, k + 1);
                            } else {
                                self.lemmas[p][i].level = k + 1;
                                self.assert_lemma(p, &cube, k + 1);
                            }
                        }
                    }
                    i += 1;
                }
            }
        }
        // Subsumption may also have emptied levels below `from`.
        for k in 0..=n {
            let exact = self.lemmas.iter().flatten().any(|l| l.alive && l.level == k);
            let query_blocked = self.lemmas[self.bottom].iter().any(|l| l.alive && l.cube.is_empty() && l.level > k);
            if !exact && query_blocked {
                return Ok(Some(k));
            }
        }
        Ok(None)
    }

    fn invariant_above(&self, k: usize) -> Res<Verdict> {
        let mut interp = Vec::new();
        for p in 0..self.bottom {
            let params = &self.system.preds[p].params;
            let name = |j: usize| params.get(j).map_or_else(|| slot(j), |v| v.name.clone());
            let parts: Vec<Term> = self.lemmas[p]
                .iter()
                .filter(|l| l.alive && l.level > k)
                .map(|l| clause_term(&rename_cube(&l.cube, &name)))
                .collect();
            interp.push(Term::and(parts));
        }
        let inv = Invariant { interp };
        match check_invariant(self.system, &inv, self.budget) {
            Ok(true) => Ok(Verdict::Safe(inv)),
            Ok(false) => Err(Stop("internal error: invariant failed validation".into())),
            Err(e) => Err(Stop(e)),
        }
    }

    fn counterexample(&self, chain: &[usize]) -> Res<Verdict> {
        match replay(&self.clauses, chain, self.budget) {
            Ok(Some(d)) => Ok(Verdict::Unsafe(d)),
            Ok(None) => Err(Stop("internal error: counterexample chain does not replay".into())),
            Err(e) => Err(Stop(e)),
        }
    }
}

fn tag(ci: usize) -> Bool {
    Bool::new_const(format!("!tag{ci}"))
}

fn guard(q: usize, level: usize) -> Bool {
    Bool::new_const(format!("!g{q}!{level}"))
}

fn rename_lit(l: &Lit, name: &dyn Fn(usize) -> String) -> Lit {
    l.rename(&|n| slot_index(n).map_or_else(|| n.to_string(), name))
}

fn rename_cube(cube: &[Lit], name: &dyn Fn(usize) -> String) -> Vec<Lit> {
    cube.iter().map(|l| rename_lit(l, name)).collect()
}

/// Check an invariant clause by clause in a fresh solver: `Ok(true)` when
/// every clause holds.
pub fn check_invariant(system: &System, inv: &Invariant, budget: &Budget) -> Result<bool, String> {
    for (ci, c) in system.clauses.iter().enumerate() {
        let s = crate::smt::solver_for(budget);
        let instance = |p: usize, args: &[Term]| -> Term {
            let interp = crate::solve::interp_of(inv, p);
            let map: BTreeMap<String, Term> = system.preds[p]
                .params
                .iter()
                .zip(args)
                .map(|(v, a)| (v.name.clone(), a.clone()))
                .collect();
            interp.subst(&map)
        };
        // Clause variables may share names with parameters: rename them apart.
        let ren = |n: &str| Some(format!("!v!{n}"));
        let mut parts = vec![c.constraint.rename(&ren)];
        for b in &c.body {
            let args: Vec<Term> = b.args.iter().map(|a| a.rename(&ren)).collect();
            parts.push(instance(b.pred, &args));
        }
        if let Some(h) = &c.head {
            let args: Vec<Term> = h.args.iter().map(|a| a.rename(&ren)).collect();
            parts.push(Term::not(instance(h.pred, &args)));
        }
        s.assert(bool_of(&Term::and(parts)));
        match check(&s, budget) {
            Sat::Unsat => {}
            Sat::Sat => return Ok(false),
            Sat::Unknown => return Err(format!("invariant check of clause {ci} gave up")),
        }
    }
    Ok(true)
}
