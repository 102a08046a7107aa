//! The independent certificate checker. It re-derives what it needs from the
//! program's encoding (never from an engine's internal state) and checks in
//! a fresh Z3 context (a new thread: the `z3` crate's context is
//! thread-local), so a bug or a stale state in an engine cannot make a wrong
//! YES or NO reach the user.

use crate::engine::{validate, Budget, Invariant, Verdict};
use crate::horn::encode::{Encoding, Source};
use crate::instrument::{instrument, CounterScheme, Mode};
use crate::smt::{self, Sat};
use crate::term::{Term, Valuation, Value, VarDecl};
use std::collections::BTreeMap;
use z3::ast::Ast;

/// YES for one loop: the candidate's T_rank system, rebuilt here, is safe
/// with the given invariant.
pub fn check_ranking(
    enc: &Encoding,
    loop_index: usize,
    scheme: &CounterScheme,
    invariant: &Invariant,
    budget: &Budget,
) -> Result<(), String> {
    let inst = instrument(enc, loop_index, scheme, Mode::Rank);
    check_invariant(&inst.system, invariant, budget, "T_rank")
}

/// YES for one loop by the direct check: the candidate's decrease system,
/// rebuilt here, is safe with the given invariant.
pub fn check_decrease(
    enc: &Encoding,
    loop_index: usize,
    scheme: &CounterScheme,
    invariant: &Invariant,
    budget: &Budget,
) -> Result<(), String> {
    let inst = crate::instrument::instrument_decrease(enc, loop_index, scheme);
    check_invariant(&inst.system, invariant, budget, "decrease")
}

fn check_invariant(system: &crate::horn::System, invariant: &Invariant, budget: &Budget, what: &str) -> Result<(), String> {
    validate::validate(system, &Verdict::Safe(invariant.clone()), budget)
        .map_err(|e| format!("ranking certificate ({what}) rejected: {e}"))
}

/// One step of a stem: the transition taken and the state reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StemStep {
    pub transition: usize,
    pub state: Valuation,
}

/// A non-termination witness: a stem from the program start to a state at
/// the header of `loop_index`, and a recurrent set over the program
/// variables at that header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonTerminationWitness {
    pub loop_index: usize,
    pub stem: Vec<StemStep>,
    pub recurrent_set: Term,
}

/// Transitions of one iteration of a loop whose only cut-point is its header.
pub fn self_transitions(enc: &Encoding, loop_index: usize) -> Option<Vec<usize>> {
    let lp = enc.loops.get(loop_index)?;
    let h = lp.header;
    if enc.cutpoints.iter().any(|&c| c != h && lp.body.contains(&c)) {
        return None;
    }
    Some(
        enc.transitions
            .iter()
            .enumerate()
            .filter(|(_, t)| t.from == Source::At(h) && t.to == h)
            .map(|(i, _)| i)
            .collect(),
    )
}

pub fn check_witness(enc: &Encoding, w: &NonTerminationWitness, budget: &Budget) -> Result<(), String> {
    let enc = enc.clone();
    let w = w.clone();
    let budget = budget.clone();
    std::thread::scope(|s| {
        s.spawn(move || {
            let _guard = budget.cancel.register_thread_context();
            check_witness_here(&enc, &w, &budget)
        })
        .join()
        .unwrap_or_else(|_| Err("witness check crashed".into()))
    })
}

fn check_witness_here(enc: &Encoding, w: &NonTerminationWitness, budget: &Budget) -> Result<(), String> {
    let lp = enc.loops.get(w.loop_index).ok_or("no such loop")?;
    let last = w.stem.last().ok_or("empty stem")?;
    // 1. The stem replays transition by transition from the program start.
    let mut at = Source::Start;
    let mut prev: Option<&Valuation> = None;
    for (k, step) in w.stem.iter().enumerate() {
        let t = enc.transitions.get(step.transition).ok_or("stem names an unknown transition")?;
        if t.from != at {
            return Err(format!("stem step {k} does not continue from the previous cut-point"));
        }
        let mut conj = vec![t.constraint.clone()];
        for (v, post) in enc.vars.iter().zip(&t.post) {
            let val = step.state.get(&v.name).ok_or("stem state misses a variable")?;
            conj.push(Term::eq(post.clone(), val.term()));
        }
        let mut f = Term::and(conj);
        if let Some(p) = prev {
            let map: BTreeMap<String, Term> = p.iter().map(|(k, v)| (k.clone(), v.term())).collect();
            f = f.subst(&map);
        }
        if satisfiable(&f, budget) != Sat::Sat {
            return Err(format!("stem step {k} does not replay"));
        }
        at = Source::At(t.to);
        prev = Some(&step.state);
    }
    if at != Source::At(lp.header) {
        return Err("stem does not end at the loop header".into());
    }
    // 2. The stem's last state is in the recurrent set.
    match w.recurrent_set.eval(&last.state) {
        Some(Value::Bool(true)) => {}
        _ => return Err("the stem's last state is not in the recurrent set".into()),
    }
    // 3. Every state of the set has a successor in the set (one iteration).
    let trans = self_transitions(enc, w.loop_index).ok_or("loop has inner cut-points; not supported for NO")?;
    if recurrence_holds(enc, &trans, &w.recurrent_set, budget) != Sat::Unsat {
        return Err("the recurrent set is not closed: some state has no successor in it".into());
    }
    Ok(())
}

fn satisfiable(f: &Term, budget: &Budget) -> Sat {
    let s = smt::solver_for(budget);
    s.assert(smt::bool_of(f));
    smt::check(&s, budget)
}

/// `Unsat` iff every state in `set` has a successor in `set` through one of
/// `trans`: checks `set(x) /\ forall locals. not (some t: c_t /\ set(post_t))`.
pub fn recurrence_holds(enc: &Encoding, trans: &[usize], set: &Term, budget: &Budget) -> Sat {
    let s = smt::solver_for(budget);
    s.assert(smt::bool_of(set));
    let mut disjuncts = Vec::new();
    let mut locals: Vec<VarDecl> = Vec::new();
    for &ti in trans {
        let t = &enc.transitions[ti];
        let post: BTreeMap<String, Term> =
            enc.vars.iter().map(|v| v.name.clone()).zip(t.post.iter().cloned()).collect();
        disjuncts.push(Term::and(vec![t.constraint.clone(), set.subst(&post)]));
        locals.extend(t.locals.iter().cloned());
    }
    let step = smt::bool_of(&Term::or(disjuncts));
    if locals.is_empty() {
        s.assert(step.not());
    } else {
        let consts: Vec<z3::ast::Dynamic> = locals.iter().map(smt::const_of).collect();
        let bounds: Vec<&dyn Ast> = consts.iter().map(|c| c as &dyn Ast).collect();
        s.assert(z3::ast::forall_const(&bounds, &[], &step.not()));
    }
    smt::check(&s, budget)
}
