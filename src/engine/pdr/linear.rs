//! The view of a linear Horn system that PDR and BMC work on: every clause
//! is a transition from at most one predicate (or from nothing: a fact) to
//! a predicate or to `false` (a query), over plain argument variables, so a
//! clause is placed between two states by renaming variables only.
//!
//! Also here: [`replay`], which re-derives concrete values along a chain of
//! clauses (the final, exact step of every counterexample).

use crate::solve::{Budget, Derivation};
use crate::horn::normalize::has_plain_args;
use crate::horn::{PredId, System};
use crate::smt::{bool_of, check, eval_in, solver_for, Sat};
use crate::term::{Term, VarDecl};
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub struct LinearClause {
    /// Index of the clause in the system.
    pub index: usize,
    /// Body predicate and the clause variables that are its arguments.
    pub body: Option<(PredId, Vec<VarDecl>)>,
    /// Head predicate and its argument variables; `None` for a query.
    pub head: Option<(PredId, Vec<VarDecl>)>,
    pub constraint: Term,
}

/// Where the variables of a clause go when it is placed in a formula.
pub struct Placement<'a> {
    pub pre: &'a dyn Fn(usize) -> String,
    pub post: &'a dyn Fn(usize) -> String,
    pub local: &'a dyn Fn(&str) -> String,
}

impl LinearClause {
    /// The constraint with body arguments named `pre(j)`, head arguments
    /// `post(j)` and every other variable `local(name)`.
    pub fn place(&self, at: &Placement) -> Term {
        let mut names: BTreeMap<String, String> = BTreeMap::new();
        if let Some((_, vs)) = &self.body {
            for (j, v) in vs.iter().enumerate() {
                names.insert(v.name.clone(), (at.pre)(j));
            }
        }
        if let Some((_, vs)) = &self.head {
            for (j, v) in vs.iter().enumerate() {
                names.insert(v.name.clone(), (at.post)(j));
            }
        }
        self.constraint.rename(&|n| Some(names.get(n).cloned().unwrap_or_else(|| (at.local)(n))))
    }
}

fn arg_decls(sys: &System, app: &crate::horn::PredApp) -> Result<Vec<VarDecl>, String> {
    app.args
        .iter()
        .enumerate()
        .map(|(j, a)| match a {
            Term::Var(n, s) => Ok(VarDecl::new(n.clone(), *s)),
            _ => Err(format!("argument {j} of {} is not a variable", sys.preds[app.pred].name)),
        })
        .collect()
}

/// The linear view of a system with plain arguments (see
/// `horn::normalize::plain_args`). Errors on non-linear clauses.
pub fn linear_clauses(sys: &System) -> Result<Vec<LinearClause>, String> {
    if !sys.is_linear() {
        return Err("non-linear clauses".into());
    }
    if !has_plain_args(sys) {
        return Err("arguments are not plain variables (normalize first)".into());
    }
    sys.clauses
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let body = match c.body.first() {
                Some(b) => Some((b.pred, arg_decls(sys, b)?)),
                None => None,
            };
            let head = match &c.head {
                Some(h) => Some((h.pred, arg_decls(sys, h)?)),
                None => None,
            };
            Ok(LinearClause { index: i, body, head, constraint: c.constraint.clone() })
        })
        .collect()
}

/// Concrete values along a chain of clauses (fact first, query last), as a
/// derivation. `Ok(None)` when the chain is infeasible; `Err` on solver
/// failure (timeout, cancellation).
pub fn replay(clauses: &[LinearClause], chain: &[usize], budget: &Budget) -> Result<Option<Derivation>, String> {
    let solver = solver_for(budget);
    let state = |step: usize, j: usize| format!("!r{step}!{j}");
    for (step, &ci) in chain.iter().enumerate() {
        let c = clauses.get(ci).ok_or_else(|| format!("replay: no clause {ci}"))?;
        // Clause `step` reads state `step - 1` and writes state `step`.
        let pre = |j: usize| state(step.wrapping_sub(1), j);
        let post = |j: usize| state(step, j);
        let local = |n: &str| format!("!r{step}!l!{n}");
        let t = c.place(&Placement { pre: &pre, post: &post, local: &local });
        solver.assert(bool_of(&t));
    }
    match check(&solver, budget) {
        Sat::Sat => {}
        Sat::Unsat => return Ok(None),
        Sat::Unknown => return Err("replay: solver gave up".into()),
    }
    let model = solver.get_model().ok_or("replay: no model")?;
    let mut node: Option<Derivation> = None;
    for (step, &ci) in chain.iter().enumerate() {
        let c = &clauses[ci];
        let mut head_values = Vec::new();
        if let Some((_, vs)) = &c.head {
            for (j, v) in vs.iter().enumerate() {
                let val = eval_in(&model, &VarDecl::new(state(step, j), v.sort).term())
                    .ok_or("replay: value missing from model")?;
                head_values.push(val);
            }
        }
        node = Some(Derivation { clause: c.index, head_values, premises: node.into_iter().collect() });
    }
    Ok(node)
}
