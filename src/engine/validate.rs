//! Validation apart from solving: an answer counts only once its evidence
//! has been re-checked here, with solvers that share nothing with the engine
//! that produced it: [`validate`] in a fresh Z3 context, [`validate_here`]
//! in the calling thread's (the race checks an answer on the thread of the
//! engine that found it, once the engine is done, which spares a context).
//!
//! - `Safe(invariant)`: every clause holds when each predicate is replaced by
//!   its formula (`body /\ constraint /\ not head` is unsat; for a query the
//!   head is `false`).
//! - `Unsafe(derivation)`: the derivation replays: each node's clause, with
//!   its body arguments equal to the premises' head values and its head
//!   arguments equal to the node's values, has a satisfiable constraint; the
//!   root is a query; premises match the body predicates in order.

use crate::solve::{Budget, Derivation, Invariant, Verdict};
use crate::horn::{Clause, PredApp, System};
use crate::smt::{self, Sat};
use crate::term::{Op, Sort, Term, Value};
use std::collections::BTreeMap;

/// Re-check the evidence of a verdict. `Unknown` validates trivially; an
/// unknown answer from Z3 while checking is a failure ("could not validate").
pub fn validate(system: &System, verdict: &Verdict, budget: &Budget) -> Result<(), String> {
    if let Verdict::Unknown(_) = verdict {
        return Ok(());
    }
    validate_owned(system.clone(), verdict.clone(), budget.clone())
}

/// [`validate`] of a system the caller gives away (the certificate checker
/// builds each system it checks): the checking thread takes it without a
/// copy. A product line's instrumented system is 400 MB of terms, and the
/// copy doubled the proof's peak memory.
pub fn validate_owned(system: System, verdict: Verdict, budget: Budget) -> Result<(), String> {
    if let Verdict::Unknown(_) = verdict {
        return Ok(());
    }
    // A new thread has its own thread-local Z3 context: nothing the engine
    // left behind (assertions, parameters, cached terms) can influence us.
    // Deep derivations are walked iteratively, but dropping them recurses,
    // hence the roomy stack. The result comes back over a channel rather
    // than by joining: the thread's exit deletes its Z3 context, which the
    // caller need not wait for.
    let (tx, rx) = crossbeam_channel::bounded(1);
    std::thread::Builder::new()
        .name("validate".into())
        .stack_size(256 << 20)
        .spawn(move || {
            let registered = budget.cancel.register_thread_context();
            let result = match &verdict {
                Verdict::Safe(inv) => check_invariant(&system, inv, &budget),
                Verdict::Unsafe(d) => check_derivation(&system, d, &budget),
                Verdict::Unknown(_) => Ok(()),
            };
            drop(registered);
            let _ = tx.send(result);
        })
        .map_err(|e| format!("could not validate: cannot start a thread: {e}"))?;
    rx.recv().unwrap_or_else(|_| Err("could not validate: the validation thread panicked".into()))
}

/// [`validate`] on the calling thread, in its Z3 context (created if the
/// thread has none), with solvers of its own. For a thread whose engine has
/// finished: the context may hold the engine's declarations and terms, which
/// cannot change what a new solver decides, and a second context would cost
/// as much again as the engine's own on a small problem.
pub fn validate_here(system: &System, verdict: &Verdict, budget: &Budget) -> Result<(), String> {
    if let Verdict::Unknown(_) = verdict {
        return Ok(());
    }
    let registered = budget.cancel.register_thread_context();
    let result = match verdict {
        Verdict::Safe(inv) => check_invariant(system, inv, budget),
        Verdict::Unsafe(d) => check_derivation(system, d, budget),
        Verdict::Unknown(_) => Ok(()),
    };
    drop(registered);
    result
}

fn clause_name(system: &System, i: usize) -> String {
    match system.clauses.get(i).map(|c| c.label.as_str()) {
        Some(l) if !l.is_empty() => format!("clause {i} ({l})"),
        _ => format!("clause {i}"),
    }
}

/// The formula of a predicate application: the invariant with the
/// predicate's parameters replaced by the arguments.
fn instantiate(system: &System, inv: &Invariant, app: &PredApp) -> Term {
    let formula = crate::solve::interp_of(inv, app.pred);
    let map: BTreeMap<String, Term> =
        system.preds[app.pred].params.iter().zip(&app.args).map(|(p, a)| (p.name.clone(), a.clone())).collect();
    formula.subst(&map)
}

pub(crate) fn check_invariant(system: &System, inv: &Invariant, budget: &Budget) -> Result<(), String> {
    if inv.interp.len() != system.preds.len() {
        return Err(format!("invariant has {} formulas for {} predicates", inv.interp.len(), system.preds.len()));
    }
    for (p, f) in system.preds.iter().zip(&inv.interp) {
        if f.sort() != Sort::Bool {
            return Err(format!("invariant of {} is not a formula: {f}", p.name));
        }
        // A stray variable would silently be read as universally quantified
        // in one clause and existentially in another.
        for v in f.free_vars() {
            if !p.params.contains(&v) {
                return Err(format!("invariant of {} mentions {}, which is not one of its parameters", p.name, v.name));
            }
        }
    }
    // One solver, a scope per clause: making a solver per clause was most
    // of the time of checking an invariant of a product line's ten
    // thousand clauses (four seconds for a proof found in 30 ms).
    let solver = smt::solver_for(budget);
    for (i, c) in system.clauses.iter().enumerate() {
        solver.push();
        let checked = check_clause(&solver, system, inv, i, c, budget);
        solver.pop(1);
        checked?;
    }
    Ok(())
}

fn check_clause(solver: &z3::Solver, system: &System, inv: &Invariant, i: usize, c: &Clause, budget: &Budget) -> Result<(), String> {
    let mut hyps: Vec<Term> = c.body.iter().map(|app| instantiate(system, inv, app)).collect();
    hyps.push(c.constraint.clone());
    if let Some(h) = &c.head {
        hyps.push(Term::not(instantiate(system, inv, h)));
    }
    solver.assert(smt::bool_of(&Term::and(hyps)));
    match smt::check(solver, budget) {
        Sat::Unsat => Ok(()),
        Sat::Sat => {
            let witness = solver
                .get_model()
                .map(|m| {
                    c.vars
                        .iter()
                        .filter_map(|v| smt::value_in(&m, v).map(|x| format!("{}={x}", v.name)))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .unwrap_or_default();
            Err(format!("invariant is not inductive: {} fails at {witness}", clause_name(system, i)))
        }
        Sat::Unknown => Err(format!("could not validate {}: solver answered unknown", clause_name(system, i))),
    }
}

fn value_term(v: &Value) -> Term {
    v.term()
}

fn value_sort(v: &Value) -> Sort {
    match v {
        Value::Int(_) => Sort::Int,
        Value::Bool(_) => Sort::Bool,
    }
}

pub(crate) fn check_derivation(system: &System, root: &Derivation, budget: &Budget) -> Result<(), String> {
    match system.clauses.get(root.clause) {
        Some(c) if c.is_query() => {}
        Some(_) => return Err(format!("derivation root {} is not a query", clause_name(system, root.clause))),
        None => return Err(format!("derivation uses clause {}, which does not exist", root.clause)),
    }
    // Walk iteratively: linear derivations can be thousands of steps deep.
    let mut stack: Vec<(&Derivation, String)> = vec![(root, "root".to_string())];
    while let Some((node, path)) = stack.pop() {
        check_step(system, node, &path, budget)?;
        for (j, p) in node.premises.iter().enumerate() {
            stack.push((p, format!("{path}.{j}")));
        }
    }
    Ok(())
}

/// One step: shape (arities, sorts, predicates) and satisfiability of the
/// clause with its arguments fixed to the given values.
fn check_step(system: &System, node: &Derivation, path: &str, budget: &Budget) -> Result<(), String> {
    let c =
        system.clauses.get(node.clause).ok_or_else(|| format!("step {path}: clause {} does not exist", node.clause))?;
    let name = clause_name(system, node.clause);
    if node.premises.len() != c.body.len() {
        return Err(format!(
            "step {path}: {name} has {} body predicates but the step has {} premises",
            c.body.len(),
            node.premises.len()
        ));
    }
    let mut facts: Vec<Term> = vec![c.constraint.clone()];
    match &c.head {
        None if !node.head_values.is_empty() => {
            return Err(format!("step {path}: {name} is a query but the step has head values"));
        }
        None => {}
        Some(h) => {
            if h.args.len() != node.head_values.len() {
                return Err(format!(
                    "step {path}: {name} has {} head arguments, the step gives {} values",
                    h.args.len(),
                    node.head_values.len()
                ));
            }
            for (a, v) in h.args.iter().zip(&node.head_values) {
                if a.sort() != value_sort(v) {
                    return Err(format!("step {path}: value {v} has the wrong sort for {a}"));
                }
                facts.push(Term::app(Op::Eq, vec![a.clone(), value_term(v)]));
            }
        }
    }
    for (j, (app, premise)) in c.body.iter().zip(&node.premises).enumerate() {
        let pc = system
            .clauses
            .get(premise.clause)
            .ok_or_else(|| format!("step {path}.{j}: clause {} does not exist", premise.clause))?;
        let derived = pc.head.as_ref().map(|h| h.pred);
        if derived != Some(app.pred) {
            return Err(format!(
                "step {path}: premise {j} derives {} but {name} needs {}",
                derived.map(|p| system.preds[p].name.as_str()).unwrap_or("false"),
                system.preds[app.pred].name
            ));
        }
        if premise.head_values.len() != app.args.len() {
            return Err(format!("step {path}: premise {j} has the wrong number of values"));
        }
        for (a, v) in app.args.iter().zip(&premise.head_values) {
            if a.sort() != value_sort(v) {
                return Err(format!("step {path}: premise {j} value {v} has the wrong sort for {a}"));
            }
            facts.push(Term::app(Op::Eq, vec![a.clone(), value_term(v)]));
        }
    }
    // Fast path: with the body arguments' values substituted, a step whose
    // clause has no other free variables is decided by evaluation (deep
    // counterexamples have thousands of such steps).
    let mut known: std::collections::BTreeMap<String, Term> = std::collections::BTreeMap::new();
    for (app, premise) in c.body.iter().zip(&node.premises) {
        for (a, v) in app.args.iter().zip(&premise.head_values) {
            if let Term::Var(name, _) = a {
                known.insert(name.to_string(), value_term(v));
            }
        }
    }
    let goal = Term::and(facts);
    let ground = goal.subst(&known);
    if ground.free_vars().is_empty() {
        return match ground.eval(&Default::default()) {
            Some(crate::term::Value::Bool(true)) => Ok(()),
            Some(crate::term::Value::Bool(false)) => {
                Err(format!("derivation does not replay: step {path} ({name}) is impossible with these values"))
            }
            _ => Err(format!("could not validate step {path} ({name}): undefined value (division by zero?)")),
        };
    }
    let solver = smt::solver_for(budget);
    solver.assert(smt::bool_of(&goal));
    match smt::check(&solver, budget) {
        Sat::Sat => Ok(()),
        Sat::Unsat => Err(format!("derivation does not replay: step {path} ({name}) is impossible with these values")),
        Sat::Unknown => Err(format!("could not validate step {path} ({name}): solver answered unknown")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::horn::smtlib::parse_system;
    use num_bigint::BigInt;

    fn counter() -> System {
        parse_system(
            "(declare-fun inv (Int Int) Bool)
             (assert (forall ((x Int) (n Int)) (=> (and (= x 0) (>= n 0)) (inv x n))))
             (assert (forall ((x Int) (n Int) (y Int)) (=> (and (inv x n) (< x n) (= y (+ x 1))) (inv y n))))
             (assert (forall ((x Int) (n Int)) (=> (and (inv x n) (> x n)) false)))",
        )
        .expect("parses")
    }

    fn int(i: i64) -> Value {
        Value::Int(BigInt::from(i))
    }

    #[test]
    fn accepts_an_inductive_invariant_and_rejects_a_wrong_one() {
        let s = counter();
        let b = Budget::unlimited();
        let good = Term::le(Term::var("inv_0"), Term::var("inv_1"));
        assert_eq!(validate(&s, &Verdict::Safe(Invariant { interp: vec![good] }), &b), Ok(()));
        // True of the initial states but not inductive: 0 <= x <= 5.
        let bad =
            Term::and(vec![Term::le(Term::int(0), Term::var("inv_0")), Term::le(Term::var("inv_0"), Term::int(5))]);
        let e = validate(&s, &Verdict::Safe(Invariant { interp: vec![bad] }), &b).expect_err("not inductive");
        assert!(e.contains("not inductive") && e.contains("clause 1"), "{e}");
        // Inductive but too weak for the query.
        let e = validate(&s, &Verdict::Safe(Invariant { interp: vec![Term::tt()] }), &b).expect_err("weak");
        assert!(e.contains("clause 2"), "{e}");
        let stray = Term::le(Term::var("inv_0"), Term::var("z"));
        let e = validate(&s, &Verdict::Safe(Invariant { interp: vec![stray] }), &b).expect_err("stray");
        assert!(e.contains("not one of its parameters"), "{e}");
    }

    #[test]
    fn replays_a_derivation_and_rejects_wrong_ones() {
        let mut s = counter();
        // Make the system unsafe: the query now fires at x >= 2.
        s.clauses[2].constraint = Term::ge(Term::var("x"), Term::int(2));
        let b = Budget::unlimited();
        let step = |clause, vals: Vec<Value>, premises| Derivation { clause, head_values: vals, premises };
        let good = step(
            2,
            vec![],
            vec![step(
                1,
                vec![int(2), int(5)],
                vec![step(1, vec![int(1), int(5)], vec![step(0, vec![int(0), int(5)], vec![])])],
            )],
        );
        assert_eq!(validate(&s, &Verdict::Unsafe(good.clone()), &b), Ok(()));
        // A step that skips an increment.
        let skip = step(2, vec![], vec![step(1, vec![int(2), int(5)], vec![step(0, vec![int(0), int(5)], vec![])])]);
        let e = validate(&s, &Verdict::Unsafe(skip), &b).expect_err("skips");
        assert!(e.contains("does not replay") && e.contains("clause 1"), "{e}");
        // The root must be a query.
        let e = validate(&s, &Verdict::Unsafe(good.premises[0].clone()), &b).expect_err("root");
        assert!(e.contains("not a query"), "{e}");
        // Premises must match the body.
        let e = validate(&s, &Verdict::Unsafe(step(2, vec![], vec![])), &b).expect_err("arity");
        assert!(e.contains("premises"), "{e}");
        // Values of the wrong sort.
        let bad_sort = step(2, vec![], vec![step(0, vec![Value::Bool(true), int(5)], vec![])]);
        let e = validate(&s, &Verdict::Unsafe(bad_sort), &b).expect_err("sort");
        assert!(e.contains("wrong sort"), "{e}");
    }

    #[test]
    fn unknown_validates_and_cancellation_is_a_failure() {
        let s = counter();
        assert_eq!(validate(&s, &Verdict::Unknown("x".into()), &Budget::unlimited()), Ok(()));
        let b = Budget::unlimited();
        b.cancel.cancel();
        let good = Term::le(Term::var("inv_0"), Term::var("inv_1"));
        let e = validate(&s, &Verdict::Safe(Invariant { interp: vec![good] }), &b).expect_err("cancelled");
        assert!(e.contains("could not validate"), "{e}");
    }
}
