//! Bounded model checking for linear Horn systems: the clauses are unrolled
//! step by step in one incremental Z3 solver (one copy of every predicate's
//! arguments per step) and the query is checked at increasing depths.
//!
//! Facts start derivations at step 0 and a query may end one at any step,
//! so the check at depth `k` covers every derivation of at most `k + 2`
//! clauses; depths are therefore checked geometrically (1, 2, 3, 5, 8, ...) and deep counterexamples
//! (thousands of steps) cost a few dozen solver calls. The answer is a
//! concrete derivation read off the model. BMC never answers Safe (no
//! invariant to show); it runs until the budget ends.

use super::pdr::linear::{linear_clauses, LinearClause, Placement};
use super::Engine;
use crate::solve::{Budget, Derivation, Verdict};
use crate::horn::normalize::normalize_keeping_plain_args;
use crate::horn::System;
use crate::smt::{bool_of, check_assumptions, eval_in, set_timeout, Sat};
use crate::term::{Sort, VarDecl};
use z3::ast::Bool;
use z3::Solver;

#[derive(Clone, Debug, Default)]
pub struct Bmc;

impl Engine for Bmc {
    fn name(&self) -> &'static str {
        "bmc"
    }
    fn solve(&self, system: &System, budget: &Budget) -> Verdict {
        let _guard = budget.cancel.register_thread_context();
        let norm = normalize_keeping_plain_args(system);
        let clauses = match linear_clauses(&norm.system) {
            Ok(c) => c,
            Err(e) => return Verdict::Unknown(format!("bmc: {e}")),
        };
        // A bug must cost an answer, never the prover: a panic becomes Unknown.
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut unrolling = Unrolling::new(&norm.system, clauses);
            loop {
                match unrolling.advance(budget) {
                    Ok(Some(d)) => break Verdict::Unsafe(d),
                    Ok(None) => {}
                    Err(why) => break Verdict::Unknown(format!("bmc: {why}")),
                }
            }
        }));
        match run {
            Ok(verdict) => norm.back.verdict(verdict),
            Err(_) => Verdict::Unknown("bmc: internal error (panic)".into()),
        }
    }
}

/// An unrolling of a linear system that can be deepened step by step; also
/// used by PDR to look for deep counterexamples between its rounds.
pub struct Unrolling {
    clauses: Vec<LinearClause>,
    sorts: Vec<Vec<Sort>>,
    /// Clauses into each predicate.
    into: Vec<Vec<usize>>,
    queries: Vec<usize>,
    solver: Solver,
    /// Steps encoded so far (0 = none).
    encoded: usize,
    /// Next depth to check, and the last depth shown to have no derivation.
    target: usize,
    /// Depth up to which no counterexample exists (all depths < this).
    pub cleared: usize,
    /// Term nodes one step adds to the solver (its clauses placed once).
    step_nodes: usize,
    /// Most term nodes the unrolling may reach ([`MOST_UNROLLED_NODES`]).
    node_limit: usize,
}

/// Most term nodes an unrolling may give its solver (about 100 bytes each
/// in Z3, with what the solver keeps of them). A query that no derivation
/// reaches is refuted in microseconds at every depth, so the geometric
/// deepening, and the memory, would otherwise only grow until the time
/// limit: a driver harness reached depth 200,000 and 3.7 GB in 30 s.
const MOST_UNROLLED_NODES: usize = 3_000_000;

fn at(p: usize, k: usize) -> Bool {
    Bool::new_const(format!("!b{k}!at{p}"))
}
fn sel(ci: usize, k: usize) -> Bool {
    Bool::new_const(format!("!b{k}!sel{ci}"))
}
fn reach(k: usize) -> Bool {
    Bool::new_const(format!("!b{k}!reach"))
}
fn state(k: usize, p: usize, j: usize) -> String {
    format!("!b{k}!s{p}!{j}")
}

impl Unrolling {
    /// `system` must be normalized (plain arguments) and `clauses` its
    /// linear view.
    pub fn new(system: &System, clauses: Vec<LinearClause>) -> Unrolling {
        let n = system.preds.len();
        let mut into = vec![Vec::new(); n];
        let mut queries = Vec::new();
        for c in &clauses {
            match &c.head {
                Some((p, _)) => into[*p].push(c.index),
                None => queries.push(c.index),
            }
        }
        // Each clause also adds its selector and implications, each
        // predicate its reach flag: a step is never free.
        let step_nodes = clauses.iter().map(|c| c.constraint.size() + 8).sum::<usize>() + 4 * n + 4;
        if std::env::var_os("TESSERA_BMC_TRACE").is_some() {
            eprintln!("bmc: {} clauses, {} predicates, {step_nodes} nodes per step", clauses.len(), n);
        }
        Unrolling {
            step_nodes,
            node_limit: MOST_UNROLLED_NODES,
            sorts: system.preds.iter().map(|p| p.params.iter().map(|v| v.sort).collect()).collect(),
            clauses,
            into,
            queries,
            solver: Solver::new_for_logic("QF_LIA").unwrap_or_else(Solver::new),
            encoded: 0,
            target: 0,
            cleared: 0,
        }
    }

    /// Encode step `k`: every predicate's state at step `k` is produced by
    /// one of its clauses from step `k - 1` (or by a fact); `reach(k)` means
    /// some query holds at step `k`.
    fn encode_step(&mut self, k: usize) {
        for (p, into) in self.into.iter().enumerate() {
            let mut options = Vec::new();
            for &ci in into {
                let c = &self.clauses[ci];
                let s = sel(ci, k);
                let body = c.body.as_ref().map(|b| b.0);
                // Facts start derivations at step 0 only: states then
                // follow deterministically along simple loops, which keeps
                // the unsatisfiable checks easy for the solver.
                if (body.is_some() && k == 0) || (body.is_none() && k > 0) {
                    continue;
                }
                let q = body.unwrap_or(usize::MAX);
                let pre = |j: usize| state(k.wrapping_sub(1), q, j);
                let post = |j: usize| state(k, p, j);
                let local = |n: &str| format!("!b{k}!c{ci}!{n}");
                let mut parts = vec![bool_of(&c.place(&Placement { pre: &pre, post: &post, local: &local }))];
                if let Some(q) = body {
                    parts.push(at(q, k - 1));
                }
                self.solver.assert(s.implies(Bool::and(&parts)));
                options.push(s);
            }
            self.solver.assert(at(p, k).implies(Bool::or(&options)));
        }
        let mut options = Vec::new();
        for &ci in &self.queries {
            let c = &self.clauses[ci];
            let s = sel(ci, k);
            let q = c.body.as_ref().map(|b| b.0);
            let qq = q.unwrap_or(usize::MAX);
            let pre = |j: usize| state(k, qq, j);
            let post = |j: usize| format!("!b{k}!c{ci}!head{j}");
            let local = |n: &str| format!("!b{k}!c{ci}!{n}");
            let mut parts = vec![bool_of(&c.place(&Placement { pre: &pre, post: &post, local: &local }))];
            if let Some(q) = q {
                parts.push(at(q, k));
            }
            self.solver.assert(s.implies(Bool::and(&parts)));
            options.push(s);
        }
        // reach(k): some query holds at a step <= k.
        if k > 0 {
            options.push(reach(k - 1));
        }
        self.solver.assert(reach(k).implies(Bool::or(&options)));
    }

    /// Whether the next step would pass the size limit: every further
    /// [`Unrolling::advance`] fails.
    pub fn full(&self) -> bool {
        (self.encoded + 1).saturating_mul(self.step_nodes) > self.node_limit
    }

    /// Term nodes one step adds.
    pub fn step_nodes(&self) -> usize {
        self.step_nodes
    }

    /// The same unrolling with another size limit.
    pub fn with_node_limit(self, node_limit: usize) -> Unrolling {
        Unrolling { node_limit, ..self }
    }

    /// Check the next depth. `Ok(Some)` is a counterexample, `Ok(None)`
    /// means none exists up to that depth, `Err` a stop (budget, solver).
    pub fn advance(&mut self, budget: &Budget) -> Result<Option<Derivation>, String> {
        if self.queries.is_empty() {
            return Err("no query clause: there is no derivation to look for".into());
        }
        while self.encoded <= self.target {
            if budget.expired() {
                return Err(stop_reason(budget));
            }
            if self.full() {
                return Err(format!("the unrolling reached its size limit at depth {} (no derivation of fewer steps)", self.cleared));
            }
            self.encode_step(self.encoded);
            self.encoded += 1;
        }
        if budget.expired() {
            return Err(stop_reason(budget));
        }
        set_timeout(&self.solver, budget);
        let k = self.target;
        let started = std::time::Instant::now();
        let r = check_assumptions(&self.solver, &[reach(k)], budget);
        if std::env::var_os("TESSERA_BMC_TRACE").is_some() {
            eprintln!("bmc: depth {k}: {r:?} in {:?}", started.elapsed());
        }
        match r {
            Sat::Sat => self.derivation(k).map(Some),
            Sat::Unsat => {
                self.cleared = k + 1;
                // Geometric deepening: each check covers all shorter
                // derivations, so skipping depths loses nothing.
                self.target = k + 1 + k / 2;
                Ok(None)
            }
            Sat::Unknown => {
                if budget.expired() {
                    Err(stop_reason(budget))
                } else {
                    Err(format!("solver returned unknown ({})", self.solver.get_reason_unknown().unwrap_or_default()))
                }
            }
        }
    }

    /// Read the derivation ending at step `k` off the model.
    fn derivation(&self, k: usize) -> Result<Derivation, String> {
        let model = self.solver.get_model().ok_or("no model")?;
        let is_true = |b: &Bool| model.eval(b, true).and_then(|v| v.as_bool()).unwrap_or(false);
        // The earliest step whose query holds.
        let mut k = k;
        let query = loop {
            if let Some(q) = self.queries.iter().copied().find(|&ci| is_true(&sel(ci, k))) {
                break q;
            }
            k = k.checked_sub(1).ok_or("model selects no query")?;
        };
        // Walk back from the query: at each step the selected clause into
        // the current predicate, until a fact.
        let mut chain: Vec<(usize, usize)> = Vec::new(); // (clause, step)
        let mut cur = self.clauses[query].body.as_ref().map(|b| b.0);
        let mut step = k;
        while let Some(p) = cur {
            let ci = self.into[p]
                .iter()
                .copied()
                .find(|&ci| is_true(&sel(ci, step)) && (step > 0 || self.clauses[ci].body.is_none()))
                .ok_or("model selects no clause")?;
            chain.push((ci, step));
            cur = self.clauses[ci].body.as_ref().map(|b| b.0);
            if cur.is_some() {
                step = step.checked_sub(1).ok_or("derivation runs below step 0")?;
            }
        }
        let mut node: Option<Derivation> = None;
        for &(ci, step) in chain.iter().rev() {
            let p = self.clauses[ci].head.as_ref().map(|h| h.0).ok_or("fact without head")?;
            let mut head_values = Vec::new();
            for (j, sort) in self.sorts[p].iter().enumerate() {
                let v = eval_in(&model, &VarDecl::new(state(step, p, j), *sort).term()).ok_or("value missing")?;
                head_values.push(v);
            }
            node = Some(Derivation { clause: ci, head_values, premises: node.into_iter().collect() });
        }
        Ok(Derivation { clause: query, head_values: Vec::new(), premises: node.into_iter().collect() })
    }
}

fn stop_reason(budget: &Budget) -> String {
    if budget.cancel.is_cancelled() {
        "cancelled".into()
    } else {
        "time limit".into()
    }
}
