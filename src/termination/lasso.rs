//! NO from concrete runs: the program model is run with random inputs (see
//! [`crate::ir::run`]) until a run visits a cut-point in a state it was in
//! before. The run up to the cycle is the stem; the states of the cycle are
//! the candidate recurrent sets of the innermost loop that holds the cycle.
//! They are made general where they stay recurrent, and the witness goes
//! through the certificate checker on the model NO is allowed on, like
//! every other.
//!
//! This is the cheap search that runs first, for a fraction of a second:
//! a reactive program (an event loop reading inputs, a state machine, a
//! sequentialized scheduler) usually has a short lasso, and finding it
//! concretely costs milliseconds where the symbolic searches need seconds.

use super::certificate::{NonTerminationWitness, StemStep};
use super::witness;
use crate::horn::encode::{Encoding, Source, Transition};
use crate::smt::{self, Sat};
use crate::term::Term;
use crate::ir::run::{Cuts, Lasso, Runner, Visit};
use crate::ir::{LocId, Program};
use crate::solve::Budget;
use crate::term::{Value, Valuation};
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// The cut-points of `enc` as the interpreter of `p` (the program `enc`
/// encodes, whose variables it has in the same order) stops at them.
pub(crate) fn cuts_of(p: &Program, enc: &Encoding) -> Cuts {
    let mut cut = vec![false; p.locations.len()];
    let mut live = vec![Vec::new(); p.locations.len()];
    for &c in &enc.cutpoints {
        if c < cut.len() {
            cut[c] = true;
            live[c] = enc.vars.iter().map(|v| enc.live.get(c).is_some_and(|l| l.contains(&v.name))).collect();
        }
    }
    Cuts { cut, live }
}

/// Searches a lasso of `p` (the program `enc` encodes) within `budget`.
/// `no_model(li)`: the encoding a witness of loop `li` is built and checked
/// on, `None` where NO may not be answered for that loop.
pub fn concrete_lasso<'e>(
    p: &Program,
    enc: &Encoding,
    no_model: &(dyn Fn(usize) -> Option<&'e Encoding> + Sync),
    budget: &Budget,
    verbose: bool,
) -> Result<NonTerminationWitness, String> {
    let runner = Runner::new(p).ok_or("the model has a term the interpreter does not take")?;
    let cuts = cuts_of(p, enc);
    let transition_of: HashMap<(Source, &[usize]), usize> =
        enc.transitions.iter().enumerate().map(|(i, t)| ((t.from, t.path.as_slice()), i)).collect();
    let started = Instant::now();
    let deadline = started + budget.remaining().unwrap_or(Duration::from_secs(10));
    let mut solve = |from: Option<LocId>, state: &[i128], choice: usize| solved_step(enc, from, state, choice, &budget.sub_budget(SOLVED_STEP_TIME));
    let mut failures = Vec::new();
    // Runs from the program start for a share of the time; then from a
    // state at a loop header the engine finds (a stem solved for its
    // inputs).
    let walk_until = started + ((deadline - started) / 5).min(WALK_TIME);
    let explore_until = started + ((deadline - started) * 3 / 5);
    let mut explored = false;
    let mut explored_prefix = false;
    let mut prefix: Option<Vec<Visit>> = None;
    for seed in 0.. {
        if Instant::now() >= deadline || budget.expired() {
            break;
        }
        let t0 = Instant::now();
        let stop = || budget.expired();
        // Random runs first (most lassos of reactive programs show in
        // milliseconds), then the systematic search, then random runs
        // from a solved stem.
        let found = if prefix.is_none() && t0 < walk_until {
            runner.find_lasso(&cuts, &[], seed, walk_until, &stop, &mut solve)
        } else if prefix.is_none() && !explored && t0 < explore_until {
            let found = runner.explore(&cuts, &[], seed, explore_until, &stop);
            explored = found.is_none();
            if verbose && explored {
                eprintln!("[program concrete lasso] the systematic search found no lasso ({:.2} s)", t0.elapsed().as_secs_f64());
            }
            found
        } else {
            if prefix.is_none() {
                // Solved on the model NO is answered on for the loop (no
                // unknown value on the way: the runs do not take one, and a
                // witness may not rest on one).
                let top = enc.loops.iter().position(|l| l.parent.is_none());
                let model = top.and_then(no_model).unwrap_or(enc);
                prefix = Some(solved_prefix(model, budget, deadline).ok_or("no run came back to a state it was in, and no stem into a loop was found")?);
                if verbose {
                    eprintln!("[program concrete lasso] runs from a solved stem of {} steps", prefix.as_ref().map_or(0, |p| p.len()));
                }
            }
            let prefix = prefix.as_deref().unwrap_or(&[]);
            if !explored_prefix {
                // The systematic search from the stem's end, for half the
                // time left; then random runs from there.
                explored_prefix = true;
                let until = t0 + (deadline - t0) / 2;
                match runner.explore(&cuts, prefix, seed, until, &stop) {
                    Some(found) => Some(found),
                    None => runner.find_lasso(&cuts, prefix, seed, deadline, &stop, &mut solve),
                }
            } else {
                runner.find_lasso(&cuts, prefix, seed, deadline, &stop, &mut solve)
            }
        };
        let Some(lasso) = found else {
            continue;
        };
        let t1 = Instant::now();
        let found = witness_of(enc, &lasso, &transition_of, no_model, budget);
        if verbose {
            eprintln!(
                "[program concrete lasso] a run of {} visits comes back after {} ({:.2} s); its witness: {} ({:.2} s)",
                lasso.visits.len(),
                lasso.cycle().len(),
                (t1 - t0).as_secs_f64(),
                found.as_ref().map(|_| "checked").unwrap_or_else(|e| e.as_str()),
                t1.elapsed().as_secs_f64()
            );
        }
        match found {
            Ok(w) => return Ok(w),
            Err(e) => failures.push(e),
        }
        if failures.len() >= MAX_FAILED_LASSOS {
            break;
        }
    }
    Err(if failures.is_empty() {
        format!("no run came back to a state it was in within {:.2} s", started.elapsed().as_secs_f64())
    } else {
        failures.join("; ")
    })
}

/// Time for random runs from the program start before the systematic
/// search (at most a fifth of the search's time).
const WALK_TIME: Duration = Duration::from_millis(500);
/// Lassos found whose witness did not check, before the search gives up.
const MAX_FAILED_LASSOS: usize = 4;
/// Transitions [`solved_step`] asks Z3 about in one call.
const MAX_SOLVED_CANDIDATES: usize = 12;
/// Time for each query of [`solved_step`].
const SOLVED_STEP_TIME: Duration = Duration::from_millis(300);

/// The visits of a run from the program start to the header of the first
/// loop, its inputs chosen by the engine.
fn solved_prefix(enc: &Encoding, budget: &Budget, deadline: Instant) -> Option<Vec<Visit>> {
    let header = enc.loops.iter().find(|l| l.parent.is_none())?.header;
    let time = deadline.saturating_duration_since(Instant::now());
    // The stem through straight-line code first (one query), else
    // bounded model checking.
    // Neither on a model too large to ask about whole (one equation per
    // variable and transition: half a gigabyte in Z3 on a product line's
    // simulator, and no answer in its time).
    if enc.too_large_whole() {
        return None;
    }
    let stem = match acyclic_stem(enc, header, &budget.sub_budget(time / 2)) {
        Some(stem) => stem,
        None => {
            let time = deadline.saturating_duration_since(Instant::now());
            witness::stem_into(enc, header, &Term::tt(), crate::engine::EngineKind::Bmc, &budget.sub_budget(time)).ok()?
        }
    };
    stem.iter()
        .map(|step| {
            let t = &enc.transitions[step.transition];
            let state = enc
                .vars
                .iter()
                .map(|v| match step.state.get(&v.name)? {
                    Value::Int(i) => i128::try_from(i).ok(),
                    Value::Bool(_) => None,
                })
                .collect::<Option<Vec<i128>>>()?;
            Some(Visit { at: t.to, state, path: t.path.clone() })
        })
        .collect()
}

/// A run from the program start to `header` that passes no loop header
/// on the way (a stem through the code before the first loop), found by
/// one satisfiability query: the cut-points it may pass form an acyclic
/// graph, so each gets one copy of the state and each transition a Boolean
/// saying the run takes it. Linear in the size of that code, where bounded
/// model checking unrolls every transition of the program once per step
/// (seconds to minutes on a sequentialized protocol whose initialization
/// passes fifty cut-points). Transitions through unknown values are not
/// taken, and allocations succeed, as in the model NO is answered on; the
/// stem is replayed by the certificate checker like any other. `None` when
/// there is no such run or the query is not decided in time.
pub(super) fn acyclic_stem(enc: &Encoding, header: LocId, budget: &Budget) -> Option<Vec<StemStep>> {
    let headers: std::collections::BTreeSet<LocId> = enc.loops.iter().map(|l| l.header).collect();
    let usable = |t: &Transition| {
        t.to != enc.exit
            && t.choices.is_empty()
            && t.constraint != Term::ff()
            && (t.to == header || !headers.contains(&t.to))
            && match t.from {
                Source::Start => true,
                Source::At(c) => !headers.contains(&c),
            }
    };
    let mut taken: Vec<usize> = (0..enc.transitions.len()).filter(|&i| usable(&enc.transitions[i])).collect();
    // Only transitions from which the header is reachable.
    let mut reaches: std::collections::BTreeSet<LocId> = std::collections::BTreeSet::from([header]);
    loop {
        let before = reaches.len();
        for &i in &taken {
            if let (Source::At(a), true) = (enc.transitions[i].from, reaches.contains(&enc.transitions[i].to)) {
                reaches.insert(a);
            }
        }
        if reaches.len() == before {
            break;
        }
    }
    taken.retain(|&i| reaches.contains(&enc.transitions[i].to));
    // Acyclic (Kahn's algorithm over the cut-points); else no such query.
    let mut indegree: BTreeMap<LocId, usize> = BTreeMap::new();
    for &i in &taken {
        let to = indegree.entry(enc.transitions[i].to).or_insert(0);
        if let Source::At(a) = enc.transitions[i].from {
            *to += 1;
            indegree.entry(a).or_insert(0);
        }
    }
    if taken.iter().any(|&i| enc.transitions[i].from == Source::At(enc.transitions[i].to)) {
        return None;
    }
    let mut ready: Vec<LocId> = indegree.iter().filter(|(_, d)| **d == 0).map(|(c, _)| *c).collect();
    let mut sorted = 0;
    while let Some(c) = ready.pop() {
        sorted += 1;
        for &i in &taken {
            if enc.transitions[i].from == Source::At(c) {
                let d = indegree.get_mut(&enc.transitions[i].to)?;
                *d -= 1;
                if *d == 0 {
                    ready.push(enc.transitions[i].to);
                }
            }
        }
    }
    if sorted != indegree.len() {
        return None;
    }

    let state_var = |v: &str, at: Source| match at {
        Source::Start => format!("{v}@start"),
        Source::At(c) => format!("{v}@{c}"),
    };
    let took = |i: usize| Term::Var(format!("took#{i}").into(), crate::term::Sort::Bool);
    let mut conj = Vec::new();
    for &i in &taken {
        let t = &enc.transitions[i];
        let locals: std::collections::BTreeSet<&str> = t.locals.iter().map(|l| l.name.as_str()).collect();
        let rename = |n: &str| {
            Some(if locals.contains(n) { format!("{n}#t{i}") } else { state_var(n, t.from) })
        };
        let mut step = vec![t.constraint.rename(&rename)];
        for (v, post) in enc.vars.iter().zip(&t.post) {
            step.push(Term::eq(Term::var(state_var(&v.name, Source::At(t.to))), post.rename(&rename)));
        }
        // Taken: its step holds, and the run got to where it starts.
        let came = match t.from {
            Source::Start => Term::tt(),
            Source::At(a) => Term::or(taken.iter().filter(|&&j| enc.transitions[j].to == a).map(|&j| took(j)).collect()),
        };
        conj.push(Term::implies(took(i), Term::and(vec![came, Term::and(step)])));
    }
    conj.push(Term::or(taken.iter().filter(|&&i| enc.transitions[i].to == header).map(|&i| took(i)).collect()));
    let s = smt::solver_for(budget);
    s.assert(smt::bool_of(&Term::and(conj)));
    if smt::check(&s, budget) != Sat::Sat {
        return None;
    }
    let model = s.get_model()?;
    let is_taken = |i: usize| matches!(smt::eval_in(&model, &took(i)), Some(Value::Bool(true)));
    // Back from the header along taken transitions.
    let mut steps = Vec::new();
    let mut at = header;
    loop {
        let i = *taken.iter().find(|&&i| enc.transitions[i].to == at && is_taken(i))?;
        let state = enc
            .vars
            .iter()
            .map(|v| Some((v.name.clone(), smt::eval_in(&model, &Term::var(state_var(&v.name, Source::At(at))))?)))
            .collect::<Option<Valuation>>()?;
        steps.push(StemStep { transition: i, state });
        match enc.transitions[i].from {
            Source::Start => break,
            Source::At(a) => at = a,
        }
        if steps.len() > taken.len() {
            return None;
        }
    }
    steps.reverse();
    Some(steps)
}

/// A step of the model from `state` at `from` (the start: `None`) to a
/// cut-point other than the exit, its inputs chosen by Z3 from the path
/// condition: for the reactive programs whose start needs inputs that
/// random choice does not hit (twenty values pairwise distinct, one equal
/// to another). Transitions through unknown values are not taken, and
/// allocations succeed, as in the model NO is answered on. `choice`
/// rotates which transition is tried first.
fn solved_step(enc: &Encoding, from: Option<LocId>, state: &[i128], choice: usize, budget: &Budget) -> Option<(LocId, Vec<i128>, Vec<usize>)> {
    let src = from.map_or(Source::Start, Source::At);
    // From the start the pre-state is free (variables not yet written).
    let pre: BTreeMap<String, Term> = match from {
        Some(_) => enc.vars.iter().zip(state).map(|(v, &x)| (v.name.clone(), Term::int(BigInt::from(x)))).collect(),
        None => BTreeMap::new(),
    };
    let candidates: Vec<&Transition> =
        enc.transitions.iter().filter(|t| t.from == src && t.to != enc.exit && t.choices.is_empty() && !t.inexact && t.constraint != Term::ff()).collect();
    if candidates.is_empty() {
        return None;
    }
    // A few transitions per call: where every one is infeasible, asking
    // all of a large program's costs seconds.
    for k in 0..candidates.len().min(MAX_SOLVED_CANDIDATES) {
        if budget.expired() {
            return None;
        }
        let t = candidates[(k + choice) % candidates.len()];
        let s = smt::solver_for(budget);
        s.assert(smt::bool_of(&t.constraint.subst(&pre)));
        if smt::check(&s, budget) != Sat::Sat {
            continue;
        }
        let model = s.get_model()?;
        let post: Option<Vec<i128>> = t
            .post
            .iter()
            .map(|e| match smt::eval_in(&model, &e.subst(&pre))? {
                Value::Int(i) => i128::try_from(&i).ok(),
                Value::Bool(_) => None,
            })
            .collect();
        return Some((t.to, post?, t.path.clone()));
    }
    None
}

fn witness_of<'e>(
    enc: &Encoding,
    lasso: &Lasso,
    transition_of: &HashMap<(Source, &[usize]), usize>,
    no_model: &dyn Fn(usize) -> Option<&'e Encoding>,
    budget: &Budget,
) -> Result<NonTerminationWitness, String> {
    let cycle = lasso.cycle();
    // The innermost loop holding every cut-point of the cycle: every cycle
    // of a reducible graph passes its header.
    let li = enc
        .loops
        .iter()
        .enumerate()
        .filter(|(_, l)| cycle.iter().all(|v| l.body.contains(&v.at)))
        .min_by_key(|(_, l)| l.body.len())
        .map(|(i, _)| i)
        .ok_or("the cycle lies in no loop")?;
    let header = enc.loops[li].header;
    let no_enc = no_model(li).ok_or("NO may not be answered for the loop of the cycle")?;
    let at_header = lasso.first + cycle.iter().position(|v| v.at == header).ok_or("the cycle misses its loop's header")?;
    let valuation = |state: &[i128]| -> Valuation {
        enc.vars.iter().zip(state).map(|(v, &x)| (v.name.clone(), Value::Int(BigInt::from(x)))).collect()
    };
    let mut stem = Vec::with_capacity(at_header + 1);
    let mut from = Source::Start;
    for visit in &lasso.visits[..=at_header] {
        let transition = *transition_of.get(&(from, visit.path.as_slice())).ok_or("a step of the run is no transition of the model")?;
        stem.push(StemStep { transition, state: valuation(&visit.state) });
        from = Source::At(visit.at);
    }
    // The cycle from its header visit on (a set: the order only matters
    // for which state the stem ends in).
    let mut met: Vec<(LocId, Vec<Value>)> = Vec::with_capacity(cycle.len());
    let k = at_header - lasso.first;
    for v in cycle[k..].iter().chain(&cycle[..k]) {
        met.push((v.at, v.state.iter().map(|&x| Value::Int(BigInt::from(x))).collect()));
    }
    // The same lasso with the smallest values that take its paths, where
    // one is found and makes a witness: `x = 1` reads better than the
    // random run's `x = 1218906265`.
    let mut path: Vec<usize> = stem.iter().map(|s| s.transition).collect();
    let around: Option<Vec<usize>> = (at_header + 1..lasso.visits.len())
        .chain(lasso.first + 1..=at_header)
        .map(|i| transition_of.get(&(Source::At(lasso.visits[i - 1].at), lasso.visits[i].path.as_slice())).copied())
        .collect();
    if let Some(around) = around {
        let stem_len = path.len();
        path.extend(&around);
        let short = budget.sub_budget(SMALLER_LASSO_TIME);
        if let Some(run) = crate::termination::smallest::smallest_run(enc, &path, crate::termination::smallest::End::BackTo(stem_len), &short) {
            let state = |k: usize| -> Vec<Value> { enc.vars.iter().map(|v| run.states[k][&v.name].clone()).collect() };
            let small_stem: Vec<StemStep> = (0..stem_len).map(|k| StemStep { transition: path[k], state: run.states[k].clone() }).collect();
            let small_met: Vec<(LocId, Vec<Value>)> = (stem_len - 1..path.len() - 1).map(|k| (enc.transitions[path[k]].to, state(k))).collect();
            if small_stem != stem {
                if let Ok(w) = witness::witness_from_run(no_enc, li, small_stem, &small_met, &short).and_then(|w| witness::checked(no_enc, w, &short)) {
                    return Ok(w);
                }
            }
        }
    }
    let w = witness::witness_from_run(no_enc, li, stem, &met, budget)?;
    witness::checked(no_enc, w, budget)
}

/// Time for looking for the same lasso with smaller values.
const SMALLER_LASSO_TIME: std::time::Duration = std::time::Duration::from_millis(500);


#[cfg(test)]
mod tests {
    use super::*;

    use crate::horn::encode::encode_c_for_test as encoding;

    /// The stem through the code before the first loop is one query: its
    /// inputs satisfy conditions checked at several cut-points on the way,
    /// its steps follow each other from the start to the header, and the
    /// certificate checker replays it. None where no run gets there.
    #[test]
    fn a_stem_through_straight_line_code() {
        let src = |cond: &str| {
            format!(
                "int main() {{ int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), c = __VERIFIER_nondet_int(), x = 0;
                   if (a > 7) x = x + 1; else x = x + 2;
                   if (b == a + 3) x = x + 10; else return 0;
                   if ({cond}) x = x + 100; else return 0;
                   while (x > 0) {{ x = x + 1; }}
                   return 0; }}"
            )
        };
        let enc = encoding(&src("c == 2 * b && a != 9"));
        let header = enc.loops[0].header;
        let budget = Budget::with_timeout(Duration::from_secs(30));
        let stem = acyclic_stem(&enc, header, &budget).expect("a stem");
        assert_eq!(stem.first().map(|s| enc.transitions[s.transition].from), Some(Source::Start));
        assert_eq!(stem.last().map(|s| enc.transitions[s.transition].to), Some(header));
        for w in stem.windows(2) {
            assert_eq!(enc.transitions[w[1].transition].from, Source::At(enc.transitions[w[0].transition].to));
        }
        // The checker replays it (with the header state itself as the set).
        let last = &stem.last().expect("a step").state;
        let x = enc.vars.iter().find(|v| v.name == "x").expect("x");
        let set = Term::eq(x.term(), last[&x.name].term());
        let w = NonTerminationWitness { loop_index: 0, stem: stem.clone(), recurrent_set: set, inner_sets: Vec::new() };
        let replayed = super::super::certificate::check_witness(&enc, &w, &budget);
        // The stem replays; only the set (a single state) is not closed.
        assert!(replayed.as_ref().err().is_none_or(|e| e.contains("not closed")), "{replayed:?}");
        let unreachable = encoding(&src("c == 2 * b && c != 2 * b"));
        assert!(acyclic_stem(&unreachable, unreachable.loops[0].header, &budget).is_none());
    }
}
