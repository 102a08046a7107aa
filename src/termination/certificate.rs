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
use crate::term::{Op, Term, Valuation, Value, VarDecl};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};
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
    check_invariant(inst.system, invariant, budget, "T_rank")
}

/// A bound on the iterations of one loop in one entry: the `Max` scheme's
/// [`Mode::Bound`] system, rebuilt here, is safe with the given invariant.
pub fn check_bound(enc: &Encoding, loop_index: usize, scheme: &CounterScheme, invariant: &Invariant, budget: &Budget) -> Result<(), String> {
    if scheme.kind != crate::instrument::CounterKind::Max {
        return Err("an iteration bound is checked on a maximum of pieces only".into());
    }
    let inst = instrument(enc, loop_index, scheme, Mode::Bound);
    check_invariant(inst.system, invariant, budget, "iteration bound")
}

/// A ceiling on an expression over one loop's run: the `Max` scheme's
/// [`Mode::Ceiling`] system, rebuilt here, is safe with the given invariant.
pub fn check_ceiling(
    enc: &Encoding,
    loop_index: usize,
    scheme: &CounterScheme,
    watched: &crate::term::Affine,
    invariant: &Invariant,
    budget: &Budget,
) -> Result<(), String> {
    if scheme.kind != crate::instrument::CounterKind::Max {
        return Err("a ceiling is checked on a maximum of pieces only".into());
    }
    let inst = instrument(enc, loop_index, scheme, Mode::Ceiling(watched.clone()));
    check_invariant(inst.system, invariant, budget, "ceiling")
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
    check_invariant(inst.system, invariant, budget, "decrease")
}

fn check_invariant(system: crate::horn::System, invariant: &Invariant, budget: &Budget, what: &str) -> Result<(), String> {
    validate::validate_owned(system, Verdict::Safe(invariant.clone()), budget.clone())
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

/// The return summaries a YES assumed: every obligation of each summarized
/// function (re-derived from the program, `ir::summary::obligations`) ends
/// with its summary true whenever the calls on its path satisfy theirs,
/// checked in a fresh Z3 context.
pub fn check_summaries(p: &crate::ir::Program, summaries: &[crate::ir::summary::Summary], budget: &Budget) -> Result<(), String> {
    if summaries.is_empty() {
        return Ok(());
    }
    in_fresh_context(budget, "summary", || check_summaries_here(p, summaries, budget))
}

/// `check` on a thread of its own: a Z3 context of its own (the `z3`
/// crate's context is thread-local).
fn in_fresh_context(budget: &Budget, what: &str, check: impl FnOnce() -> Result<(), String> + Send) -> Result<(), String> {
    std::thread::scope(|s| {
        s.spawn(|| {
            let _guard = budget.cancel.register_thread_context();
            check()
        })
        .join()
        .unwrap_or_else(|_| Err(format!("{what} check crashed")))
    })
}

fn check_summaries_here(p: &crate::ir::Program, summaries: &[crate::ir::summary::Summary], budget: &Budget) -> Result<(), String> {
    use crate::ir::summary::{assumed, claimed, obligations};
    let by_function: std::collections::HashMap<String, Vec<Term>> =
        summaries.iter().map(|s| (s.function.clone(), s.conjuncts.clone())).collect();
    let all = obligations(p);
    for s in summaries {
        let Some(Some(obs)) = all.get(&s.function) else {
            return Err(format!("summary of `{}`: its activations cannot be followed", s.function));
        };
        for o in obs {
            let claims: Option<Vec<Term>> = s.conjuncts.iter().map(|c| claimed(o, c)).collect();
            let Some(claims) = claims else {
                return Err(format!("summary of `{}` names a value a return does not give", s.function));
            };
            let solver = smt::solver_for(budget);
            for t in o.condition.iter().chain(&assumed(o, &by_function)) {
                solver.assert(&smt::bool_of(t));
            }
            solver.assert(&smt::bool_of(&Term::not(Term::and(claims))));
            if smt::check(&solver, budget) != Sat::Unsat {
                return Err(format!("summary of `{}` rejected: a return may violate it", s.function));
            }
        }
    }
    Ok(())
}

pub fn check_witness(enc: &Encoding, w: &NonTerminationWitness, budget: &Budget) -> Result<(), String> {
    in_fresh_context(budget, "witness", || check_witness_here(enc, w, budget))
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
    let steps: Vec<(usize, &Term)> = steps.collect();
    // A set of single states (a run's states): each has a successor iff
    // the step of some transition from it is satisfiable: per state and
    // transition a query over that transition's inputs only, most decided
    // by substituting the state, instead of one with a quantifier over
    // every path's inputs (which costs Z3 seconds on a loop of hundreds of
    // paths). Only where each state fixes every variable the steps read:
    // then the two checks say the same.
    if let Some(points) = points_of(set) {
        let mut reads: BTreeSet<String> = BTreeSet::new();
        for &(ti, target) in &steps {
            let t = &enc.transitions[ti];
            let locals: BTreeSet<&str> = t.locals.iter().map(|l| l.name.as_str()).collect();
            let mut free = t.constraint.free_vars();
            for (v, post) in enc.vars.iter().zip(&t.post) {
                if target.mentions(&v.name) {
                    free.extend(post.free_vars());
                }
            }
            reads.extend(free.into_iter().map(|v| v.name).filter(|n| !locals.contains(n.as_str())));
        }
        if points.iter().all(|p| reads.iter().all(|v| p.contains_key(v))) {
            // Each target that is itself a list of states, indexed once:
            // a run's cycle of thousands of states would otherwise cost
            // a pass over every target state per state and transition.
            let mut indexes: BTreeMap<*const Term, Option<PointIndex>> = BTreeMap::new();
            for &(_, target) in &steps {
                indexes.entry(target as *const Term).or_insert_with(|| PointIndex::of(enc, target));
            }
            let steps: Vec<(usize, &Term, Option<&PointIndex>)> =
                steps.iter().map(|&(t, target)| (t, target, indexes[&(target as *const Term)].as_ref())).collect();
            for point in &points {
                match has_successor(enc, point, &steps, budget) {
                    Sat::Sat => {}
                    // No successor: the state is a counterexample.
                    Sat::Unsat => return Sat::Sat,
                    Sat::Unknown => return Sat::Unknown,
                }
            }
            return Sat::Unsat;
        }
    }
    let mut disjuncts = Vec::new();
    let mut locals: Vec<VarDecl> = Vec::new();
    for &(ti, target) in &steps {
        let t = &enc.transitions[ti];
        let post: BTreeMap<String, Term> =
            enc.vars.iter().map(|v| v.name.clone()).zip(t.post.iter().cloned()).collect();
        disjuncts.push(Term::and(vec![t.constraint.clone(), target.subst(&post)]));
        locals.extend(t.locals.iter().cloned());
    }
    let step = Term::or(disjuncts);
    let s = smt::solver_for(budget);
    s.assert(smt::bool_of(set));
    let step = smt::bool_of(&step);
    if locals.is_empty() {
        s.assert(step.not());
    } else {
        let consts: Vec<z3::ast::Dynamic> = locals.iter().map(smt::const_of).collect();
        let bounds: Vec<&dyn Ast> = consts.iter().map(|c| c as &dyn Ast).collect();
        s.assert(z3::ast::forall_const(&bounds, &[], &step.not()));
    }
    smt::check(&s, budget)
}

/// `Sat` iff some step from the state `point` (its variables' values)
/// reaches its target set.
fn has_successor(enc: &Encoding, point: &BTreeMap<String, Term>, steps: &[(usize, &Term, Option<&PointIndex>)], budget: &Budget) -> Sat {
    let mut unknown = false;
    let values: Valuation = point.iter().filter_map(|(k, t)| t.eval(&Valuation::new()).map(|v| (k.clone(), v))).collect();
    for &(ti, target, index) in steps {
        let t = &enc.transitions[ti];
        let guard = t.constraint.subst(point);
        if guard == Term::ff() {
            continue;
        }
        // Where the step's new values of the variables the target fixes
        // do not depend on the step's inputs, they are computed here and
        // looked up among the target's states: the target holds of them
        // or not, whatever the inputs, and only the guard is left.
        if let Some(index) = index {
            match index.holds_after(t, &values) {
                Some(false) => continue,
                Some(true) => {
                    if guard == Term::tt() {
                        return Sat::Sat;
                    }
                    match satisfiable(&guard, budget) {
                        Sat::Sat => return Sat::Sat,
                        Sat::Unsat => {}
                        Sat::Unknown => unknown = true,
                    }
                    continue;
                }
                None => {}
            }
        }
        let post: BTreeMap<String, Term> = enc
            .vars
            .iter()
            .zip(&t.post)
            .filter(|(v, _)| target.mentions(&v.name))
            .map(|(v, e)| (v.name.clone(), e.subst(point)))
            .collect();
        let f = Term::and(vec![guard, target.subst(&post)]);
        if f == Term::ff() {
            continue;
        }
        let s = smt::solver_for(budget);
        s.assert(smt::bool_of(&f));
        match smt::check(&s, budget) {
            Sat::Sat => return Sat::Sat,
            Sat::Unsat => {}
            Sat::Unknown => unknown = true,
        }
    }
    if unknown {
        Sat::Unknown
    } else {
        Sat::Unsat
    }
}

/// A set of single states that all fix the same variables, as a hash set
/// of their values (see [`has_successor`]).
struct PointIndex {
    /// The variables every state fixes, by index into `Encoding::vars`.
    vars: Vec<usize>,
    states: std::collections::HashSet<Vec<BigInt>>,
}

impl PointIndex {
    fn of(enc: &Encoding, set: &Term) -> Option<PointIndex> {
        let points = points_of(set)?;
        let names: Vec<&String> = points.first()?.keys().collect();
        let vars: Vec<usize> = names.iter().map(|n| enc.vars.iter().position(|v| &v.name == *n)).collect::<Option<_>>()?;
        let mut states = std::collections::HashSet::with_capacity(points.len());
        for p in &points {
            if p.len() != names.len() {
                return None;
            }
            let values: Option<Vec<BigInt>> = names
                .iter()
                .map(|n| match p.get(*n)? {
                    Term::Int(i) => Some(i.clone()),
                    _ => None,
                })
                .collect();
            states.insert(values?);
        }
        Some(PointIndex { vars, states })
    }

    /// Whether the state `t` leads to from the state `values` lies in the
    /// set; `None` where a new value the set fixes depends on the step's
    /// inputs (or divides by zero).
    fn holds_after(&self, t: &crate::horn::encode::Transition, values: &Valuation) -> Option<bool> {
        let post: Option<Vec<BigInt>> = self
            .vars
            .iter()
            .map(|&i| match t.post.get(i)?.eval(values)? {
                Value::Int(x) => Some(x),
                Value::Bool(_) => None,
            })
            .collect();
        Some(self.states.contains(&post?))
    }
}

/// The states of a set that is a disjunction of conjunctions of
/// `variable == constant` (a set of single states, each given by the
/// variables it fixes); `None` for any other shape.
fn points_of(set: &Term) -> Option<Vec<BTreeMap<String, Term>>> {
    fn point(t: &Term) -> Option<BTreeMap<String, Term>> {
        let mut fixed = BTreeMap::new();
        for c in t.conjuncts() {
            match &c {
                Term::App(Op::Eq, a) if a.len() == 2 => match (&a[0], &a[1]) {
                    (Term::Var(v, _), k @ Term::Int(_)) | (k @ Term::Int(_), Term::Var(v, _)) => {
                        if fixed.insert(v.to_string(), k.clone()).is_some_and(|old| old != *k) {
                            // `x == 1 && x == 2`: an empty state; the
                            // general check decides it.
                            return None;
                        }
                    }
                    _ => return None,
                },
                _ => return None,
            }
        }
        Some(fixed)
    }
    match set {
        Term::App(Op::Or, states) => states.iter().map(point).collect(),
        Term::Bool(true) => None,
        t => Some(vec![point(t)?]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::horn::encode::encode;

    /// The recurrence check of a set of single states (a run's cycle):
    /// each state's successor is looked up among the target's states
    /// (including wrapped arithmetic, `mod`), and a missing one is found.
    #[test]
    fn a_cycle_of_single_states_is_checked_by_lookup() {
        let p = crate::c::parse_source(
            "t.c",
            "int main() { unsigned char x = 0; int y = 0; while (1) { x = x + 3; y = 1 - y; } return 0; }",
            crate::ir::IntSemantics::C,
            crate::ir::MachineModel::lp64(),
        )
        .expect("lowers");
        let enc = encode(&p).expect("encodes");
        let region = loop_region(&enc, 0).expect("a loop");
        assert_eq!(region.cutpoints.len(), 1);
        let header = region.cutpoints[0];
        let x = enc.vars.iter().find(|v| v.name == "x").expect("x").term();
        let y = enc.vars.iter().find(|v| v.name == "y").expect("y").term();
        // Every other variable the steps read is fixed too (there are none
        // but x and y after slicing, or they are pinned to 0 here).
        let others: Vec<Term> =
            enc.vars.iter().filter(|v| v.name != "x" && v.name != "y").map(|v| Term::eq(v.term(), Term::int(0))).collect();
        let state = |k: u32, j: u32| {
            let mut c = vec![Term::eq(x.clone(), Term::int(k)), Term::eq(y.clone(), Term::int(j))];
            c.extend(others.iter().cloned());
            Term::and(c)
        };
        // x runs through all 256 values (3 is odd), y alternates: 512 states.
        let all: Vec<Term> = (0..256u32).flat_map(|k| [state(k, 0), state(k, 1)]).collect();
        let budget = Budget::with_timeout(std::time::Duration::from_secs(60));
        let sets = BTreeMap::from([(header, Term::or(all.clone()))]);
        let index = PointIndex::of(&enc, &sets[&header]).expect("an index");
        assert_eq!(index.states.len(), 512);
        // The step's new values are computed, not left to the solver.
        let from: Valuation = points_of(&state(255, 0)).expect("a state")[0].iter().filter_map(|(k, t)| Some((k.clone(), t.eval(&Valuation::new())?))).collect();
        let looked_up: Vec<Option<bool>> = region.transitions.iter().map(|&t| index.holds_after(&enc.transitions[t], &from)).collect();
        assert!(looked_up.contains(&Some(true)), "{looked_up:?}");
        assert_eq!(region_recurrence_holds(&enc, &region, &sets, &budget), Sat::Unsat);
        // Without the state x == 3, y == 1, its predecessor x == 0, y == 0 has
        // no successor in the set.
        let fewer: Vec<Term> = all.into_iter().filter(|s| *s != state(3, 1)).collect();
        let sets = BTreeMap::from([(header, Term::or(fewer))]);
        assert_eq!(region_recurrence_holds(&enc, &region, &sets, &budget), Sat::Sat);
    }
}
