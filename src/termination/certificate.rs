//! The independent certificate checker. It re-derives what it needs from the
//! program's encoding (never from an engine's internal state) and checks in
//! a fresh Z3 context (a new thread: the `z3` crate's context is
//! thread-local), so a bug or a stale state in an engine cannot make a wrong
//! YES or NO reach the user.

use crate::engine::validate;
use crate::solve::{Budget, Invariant, Verdict};
use crate::horn::encode::{Encoding, Source};
use crate::instrument::{instrument, CounterScheme, Mode};
use crate::smt::{self, Sat};
use crate::ir::LocId;
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
    /// For a loop whose body holds other cut-points (inner loops, join
    /// points of large bodies): the recurrent set at each of them. A run in
    /// the sets always has a next step into the sets, so it never leaves
    /// the loop (it may stay in an inner loop for ever: still a run that
    /// does not terminate).
    pub inner_sets: Vec<(LocId, Term)>,
}

/// A loop's body as cut-points: the header first, then the other
/// cut-points inside it, and the transitions that stay among them.
#[derive(Clone, Debug)]
pub struct LoopRegion {
    pub cutpoints: Vec<LocId>,
    pub transitions: Vec<usize>,
}

pub fn loop_region(enc: &Encoding, loop_index: usize) -> Option<LoopRegion> {
    let lp = enc.loops.get(loop_index)?;
    let mut cutpoints = vec![lp.header];
    cutpoints.extend(enc.cutpoints.iter().copied().filter(|&c| c != lp.header && c != enc.exit && lp.body.contains(&c)));
    let transitions = enc
        .transitions
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(t.from, Source::At(c) if cutpoints.contains(&c)) && cutpoints.contains(&t.to))
        .map(|(i, _)| i)
        .collect();
    Some(LoopRegion { cutpoints, transitions })
}

impl NonTerminationWitness {
    /// The recurrent set at each cut-point of the loop's region.
    pub fn sets(&self, region: &LoopRegion) -> Option<BTreeMap<LocId, Term>> {
        let mut sets = BTreeMap::new();
        sets.insert(*region.cutpoints.first()?, self.recurrent_set.clone());
        for (c, t) in &self.inner_sets {
            sets.insert(*c, t.clone());
        }
        region.cutpoints.iter().all(|c| sets.contains_key(c)).then_some(sets)
    }
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
    // 3. Every state of every set has a successor in the sets (one step
    // between the loop's cut-points).
    let region = loop_region(enc, w.loop_index).ok_or("no such loop")?;
    let sets = w.sets(&region).ok_or("the witness misses the recurrent set of a cut-point inside the loop")?;
    if region_recurrence_holds(enc, &region, &sets, budget) != Sat::Unsat {
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
/// `trans` (all from and to one cut-point).
pub fn recurrence_holds(enc: &Encoding, trans: &[usize], set: &Term, budget: &Budget) -> Sat {
    step_closed(enc, set, trans.iter().map(|&t| (t, set)), budget)
}

/// `Unsat` iff at every cut-point `c` of the region, every state of `sets[c]`
/// has a successor in the set of the cut-point it reaches.
pub fn region_recurrence_holds(enc: &Encoding, region: &LoopRegion, sets: &BTreeMap<LocId, Term>, budget: &Budget) -> Sat {
    for &c in &region.cutpoints {
        let Some(set) = sets.get(&c) else { return Sat::Unknown };
        let steps = region
            .transitions
            .iter()
            .filter(|&&t| enc.transitions[t].from == Source::At(c))
            .filter_map(|&t| sets.get(&enc.transitions[t].to).map(|target| (t, target)));
        match step_closed(enc, set, steps, budget) {
            Sat::Unsat => {}
            other => return other,
        }
    }
    Sat::Unsat
}

/// `Unsat` iff every state in `set` has a successor through one of the
/// `steps` (a transition and the set its post-state must lie in): checks
/// `set(x) /\ forall locals. not (some t: c_t /\ target_t(post_t))`.
fn step_closed<'a>(enc: &Encoding, set: &Term, steps: impl Iterator<Item = (usize, &'a Term)>, budget: &Budget) -> Sat {
    let s = smt::solver_for(budget);
    s.assert(smt::bool_of(set));
    let mut disjuncts = Vec::new();
    let mut locals: Vec<VarDecl> = Vec::new();
    for (ti, target) in steps {
        let t = &enc.transitions[ti];
        let post: BTreeMap<String, Term> =
            enc.vars.iter().map(|v| v.name.clone()).zip(t.post.iter().cloned()).collect();
        disjuncts.push(Term::and(vec![t.constraint.clone(), target.subst(&post)]));
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
