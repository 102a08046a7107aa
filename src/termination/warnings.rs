//! Which of the operations whose undefined behaviour the lowering could not
//! rule out (signed overflow, division by zero, a bad shift) a run can
//! really reach with the operation undefined.
//!
//! The lowering marks each `assume` of an operation's definedness with the
//! index of its site (see [`crate::ir::UNDEFINED_SITE`]). For one site, the
//! *violation model* is the program with one more edge beside each such
//! `assume`: the same actions up to it, then the negated condition, into a
//! new location that becomes the program's exit. Its plain system asks
//! whether that exit is reachable, that is whether some run gets to the
//! operation with it undefined:
//!
//! * safe (the engine's inductive invariant, which takes the path condition
//!   at the operation and the loop invariants into account, is checked by
//!   the engines' validator): the site is dropped, no run reaches it;
//! * a run is found on the model's exact part (no unknown value on it, every
//!   allocation succeeding, no approximation that forbids NO): `reachable`;
//! * otherwise (a run only through unknown values, or no answer within the
//!   time given): `not ruled out`.
//!
//! The model over-approximates the program's runs (what makes YES sound),
//! so "unreachable in the model" holds for the program: a site is never
//! dropped wrongly. Each query gets a slice of the time left, so the checks
//! stay inside the user's `--timeout`.

use crate::engine::houdini::{self, Ranges};
use crate::engine::validate::validate;
use crate::engine::{portfolio, EngineKind};
use crate::solve::{Budget, Invariant, Verdict};
use crate::horn::encode::{encode, Encoding};
use crate::ir::{Action, Edge, Location, Program, UndefinedSite, WarningStatus};
use crate::term::Term;
use super::counting::{counting_candidates, RankedHeader};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Time for all the checks of one program, at most.
const TOTAL: Duration = Duration::from_secs(3);
/// Time for the check of one site, at most.
const PER_SITE: Duration = Duration::from_secs(1);

/// Time for Houdini's try on one site, at most (of the site's time).
const HOUDINI_TIME: Duration = Duration::from_millis(400);

/// Time for the bounded search for a run to one site, at most.
const BMC_TIME: Duration = Duration::from_millis(300);

/// Programs with more edges than this keep their warnings unchecked.
const MAX_CHECKED_EDGES: usize = 200;

/// The warnings of `p` that are not ruled out, each with its status.
///
/// The checks run in two phases on a thread of their own. The first, for
/// every site, builds its violation model and asks whether the path
/// condition at the operation can hold (a dominating guard such as
/// `b != 0` before `a % b`); it is cheap on the programs checked at all and
/// is bounded only by the user's budget, so its outcome does not depend on
/// how loaded the machine is. The second runs a safety engine on the sites
/// left, within a wall-clock share: building a model is not interruptible,
/// and on a large program one engine run can take longer than the whole
/// proof did. What is not decided by then is kept, unchecked ("not ruled
/// out").
pub fn checked_warnings(p: &Program, budget: &Budget) -> Vec<UndefinedSite> {
    start_checks(p, budget, Vec::new()).wait()
}

/// The checks of [`checked_warnings`] under way on their thread, so that
/// the caller can do other work (the loops' bounds) meanwhile.
pub struct PendingWarnings {
    /// The warnings as the lowering left them: the answer when the checks
    /// do not report in time.
    unchecked: Vec<UndefinedSite>,
    /// `None` when there is nothing to check (or no thread for it).
    phases: Option<crossbeam_channel::Receiver<Vec<UndefinedSite>>>,
    budget: Budget,
}

/// Starts the checks of [`checked_warnings`] on their own thread, with
/// the ranked loops' counting facts as candidates (see
/// [`super::counting`]).
pub fn start_checks(p: &Program, budget: &Budget, ranked: Vec<RankedHeader>) -> PendingWarnings {
    let unchecked = p.undefined.clone();
    // Each site's violation model is as large as the program: on a large
    // one the checks would spend their whole share and rule out little
    // (the answer itself took a second on such product lines).
    if p.undefined.is_empty() || p.edges.len() > MAX_CHECKED_EDGES {
        return PendingWarnings { unchecked, phases: None, budget: budget.clone() };
    }
    let owned = p.clone();
    let outer = budget.clone();
    let (tx, rx) = crossbeam_channel::bounded(2);
    let spawned = std::thread::Builder::new()
        .name("warnings".into())
        .stack_size(64 * 1024 * 1024)
        .spawn(move || check_all(&owned, &outer, &ranked, |phase| tx.send(phase).is_ok()));
    PendingWarnings { unchecked, phases: spawned.ok().map(|_| rx), budget: budget.clone() }
}

impl PendingWarnings {
    /// The warnings kept: those of the second phase if it reports within
    /// its share of the time (counted from now), else the first phase's.
    pub fn wait(self) -> Vec<UndefinedSite> {
        let Some(rx) = self.phases else { return self.unchecked };
        // The first phase, as long as the user's budget allows.
        let first = match self.budget.remaining() {
            Some(left) => rx.recv_timeout(left + Duration::from_millis(200)).ok(),
            None => rx.recv().ok(),
        };
        let Some(first) = first else {
            return self.unchecked;
        };
        // The second, within its share (a little past it, for the answer
        // of a check that just ended).
        let wait = self.budget.sub_budget(TOTAL).remaining().unwrap_or(TOTAL);
        rx.recv_timeout(wait + Duration::from_millis(200)).unwrap_or(first)
    }
}

/// Runs both phases, handing each phase's outcome (the warnings kept so
/// far) to `report`; stops when `report` says nobody listens any more.
fn check_all(p: &Program, outer: &Budget, ranked: &[RankedHeader], mut report: impl FnMut(Vec<UndefinedSite>) -> bool) {
    let Some(marker) = p.vars.iter().find(|v| v.origin == crate::ir::Origin::UndefinedSite).map(|v| v.name.clone()) else {
        report(p.undefined.clone());
        return;
    };
    // Phase one: the path condition at each site.
    let mut pending = Vec::new();
    for (i, site) in p.undefined.iter().enumerate() {
        match path_condition_check(p, &marker, i, outer) {
            PathCheck::RuledOut => {}
            PathCheck::Undecided => pending.push((site.clone(), None)),
            PathCheck::Possible(enc, read) => pending.push((site.clone(), Some((enc, read)))),
        }
    }
    if !report(pending.iter().map(|(s, _)| s.clone()).collect()) {
        return;
    }
    // Phase two: a safety engine on the sites left, within the share.
    let total = outer.sub_budget(TOTAL);
    let mut out = Vec::new();
    for (site, enc) in pending {
        let decided = match enc {
            Some((enc, read)) if !total.expired() => engine_check(p, &enc, &read, ranked, &total.sub_budget(PER_SITE)),
            _ => None,
        };
        match decided {
            Some(Check::RuledOut) => {}
            Some(Check::Reachable(steps, inputs)) => out.push(UndefinedSite { status: WarningStatus::Reachable { steps, inputs }, ..site }),
            None => out.push(site),
        }
    }
    report(out);
}

enum Check {
    RuledOut,
    /// Reached after this many cut-point visits, with these inputs.
    Reachable(usize, Vec<crate::ir::InputValue>),
}

enum PathCheck {
    /// No path into the operation lets it be undefined.
    RuledOut,
    /// Some path may: the violation model's encoding, for the engine, and
    /// the variables the operation's condition reads.
    Possible(Encoding, BTreeSet<String>),
    /// The model could not be built or encoded in time, or the site has no
    /// marked `assume` left.
    Undecided,
}

/// Phase one for site `site`: the path condition from the last cut-point
/// alone, one solver call per path, far cheaper than a safety engine.
fn path_condition_check(p: &Program, marker: &str, site: usize, budget: &Budget) -> PathCheck {
    let Some((violation, read)) = violation_model(p, marker, site) else {
        return PathCheck::Undecided;
    };
    let model = crate::termination::reachability_model(violation);
    if budget.expired() {
        return PathCheck::Undecided;
    }
    let Ok(enc) = encode(&model) else {
        return PathCheck::Undecided;
    };
    if budget.expired() {
        return PathCheck::Undecided;
    }
    if enc.transitions.iter().filter(|t| t.to == enc.exit).any(|t| satisfiable(&t.constraint, budget)) {
        PathCheck::Possible(enc, read)
    } else {
        PathCheck::RuledOut
    }
}

/// Phase two for one site whose path condition may hold: whether the
/// violation model's exit is reachable, and on the exact part of the model.
fn engine_check(p: &Program, enc: &Encoding, read: &BTreeSet<String>, ranked: &[RankedHeader], budget: &Budget) -> Option<Check> {
    // The question depends on few variables (`i` for `i++`): on the
    // projection onto what the operation's condition reads (see
    // `horn::project`: it only adds runs, so safe there is safe here),
    // Houdini needs milliseconds where it takes a second on an inlined
    // program with its arrays' cells.
    // Coalescing renamed the program's variables (`main.i` is `i`).
    let seeds: BTreeSet<String> =
        read.iter().map(|v| enc.coalesced.iter().find(|(merged, _)| merged == v).map_or_else(|| v.clone(), |(_, kept)| kept.clone())).collect();
    // The counting facts of the ranked loops, by cut-point: a counter
    // stepped once per iteration (`len++` in a list walk) is bounded only
    // through the loop's ranking function.
    let counting = counting_candidates(enc, ranked);
    // Houdini's facts on `e` (candidates: the program's comparisons, the
    // types' ranges, the counting facts), and whether they rule the site
    // out (checked by the engines' validator).
    let houdini_on = |e: &Encoding| -> (bool, Option<Invariant>) {
        let system = e.plain_system();
        let hints: BTreeMap<usize, Vec<Term>> =
            e.cutpoints.iter().enumerate().filter_map(|(k, c)| counting.get(c).map(|f| (k, f.clone()))).collect();
        let quick = budget.sub_budget(HOUDINI_TIME);
        let Some(facts) = houdini::inductive_facts(&system, Ranges::Tried, &hints, &quick) else { return (false, None) };
        let safe = houdini::blocks_queries(&system, &facts, &quick) && validate(&system, &Verdict::Safe(facts.clone()), budget).is_ok();
        (safe, Some(facts))
    };
    if let Some(small) = crate::horn::project::smaller_projection(enc, &seeds) {
        if houdini_on(&small).0 {
            return Some(Check::RuledOut);
        }
    }
    // With what the conditions compare those variables with (`n` of `i <
    // n` for `i++`): the projection onto the seeds alone drops the guard.
    let compared = compared_with(enc, &seeds);
    if compared.len() > seeds.len() {
        if let Some(small) = crate::horn::project::smaller_projection(enc, &compared) {
            if houdini_on(&small).0 {
                return Some(Check::RuledOut);
            }
        }
    }
    // With the counting facts, on the projection onto what they read too.
    if !counting.is_empty() {
        let mut wider = seeds.clone();
        wider.extend(counting.values().flatten().flat_map(|t| t.free_vars()).map(|v| v.name));
        if let Some(small) = crate::horn::project::smaller_projection(enc, &wider) {
            if houdini_on(&small).0 {
                return Some(Check::RuledOut);
            }
        }
    }
    // Houdini first: the facts an overflow check needs are most often a
    // type's range and the program's own comparisons (`i < n`, `n < 1000`,
    // `s == i`), which Houdini finds at once where PDR, blocking `s + 1 >
    // 2147483647` one value after another, runs out of time. Its model is
    // validated like any engine's.
    let (safe, facts) = houdini_on(enc);
    if safe {
        return Some(Check::RuledOut);
    }
    let system = enc.plain_system();
    // A run the C program really has: none through a value the model does
    // not know (an allocation fails only where the program is read with
    // allocations that may fail: then such a run is the program's).
    let exact = (p.forbid_no.is_empty()).then(|| enc.without_unknown_values());
    let reached = |d: crate::solve::Derivation, exact: &Encoding| {
        let inputs = reaching_inputs(exact, &d, budget).unwrap_or_default();
        // The chain holds the fact, one node per step, and the query.
        Some(Check::Reachable(d.chain().len().saturating_sub(2), inputs))
    };
    // Then a short bounded search on the exact part: a factorial that
    // overflows after thirteen iterations is found in milliseconds by
    // unrolling, where the provers look for an invariant first.
    if let Some(exact) = &exact {
        if let Verdict::Unsafe(d) = portfolio::solve(&exact.plain_system(), EngineKind::Bmc, &budget.sub_budget(BMC_TIME)) {
            return reached(d, exact);
        }
    }
    // The engines, given Houdini's facts (they hold on every reachable
    // state): what is left to find is then only what no candidate shape
    // has (a disjunction, a relation with a loop's bookkeeping).
    let strengthened = facts.as_ref().map(|f| houdini::assuming(&system, f));
    match portfolio::solve(strengthened.as_ref().unwrap_or(&system), EngineKind::Portfolio, budget) {
        Verdict::Safe(inv) => {
            let whole = facts.as_ref().map_or(inv.clone(), |f| houdini::conjoined(&inv, f));
            if validate(&system, &Verdict::Safe(whole), budget).is_ok() {
                return Some(Check::RuledOut);
            }
        }
        Verdict::Unsafe(_) => {}
        Verdict::Unknown(_) => return None,
    }
    let exact = exact?;
    match portfolio::solve(&exact.plain_system(), EngineKind::Portfolio, budget) {
        Verdict::Unsafe(d) => reached(d, &exact),
        _ => None,
    }
}

/// `seeds` and the variables of `enc` that a transition's condition
/// compares with one of them (`n` in `i < n`), twice over (`n <= 200`
/// reads no other).
fn compared_with(enc: &Encoding, seeds: &BTreeSet<String>) -> BTreeSet<String> {
    let state: BTreeSet<&str> = enc.vars.iter().map(|v| v.name.as_str()).collect();
    let mut out = seeds.clone();
    for _ in 0..2 {
        let mut found = BTreeSet::new();
        for t in &enc.transitions {
            houdini::comparisons(&t.constraint, &mut |c| {
                let vars = c.free_vars();
                if vars.iter().any(|v| out.contains(&v.name)) {
                    found.extend(vars.into_iter().map(|v| v.name).filter(|n| state.contains(n.as_str())));
                }
            });
        }
        out.extend(found);
    }
    out
}

/// The inputs of a run along the transitions of derivation `d` (a path of
/// `enc` from the start to the undefined operation), the smallest found
/// (see [`super::smallest`]). `None` when none were found.
fn reaching_inputs(enc: &Encoding, d: &crate::solve::Derivation, budget: &Budget) -> Option<Vec<crate::ir::InputValue>> {
    let chain = d.chain();
    let path: Vec<usize> = chain.iter().take(chain.len().saturating_sub(1)).map(|n| n.clause).collect();
    let run = super::smallest::smallest_run(enc, &path, super::smallest::End::In(&Term::tt()), budget)?;
    Some(run.inputs.into_iter().map(|(variable, value)| crate::ir::InputValue { variable, value }).collect())
}

/// Whether `t` may hold (`true` when the solver does not know).
fn satisfiable(t: &Term, budget: &Budget) -> bool {
    if *t == Term::ff() {
        return false;
    }
    let _guard = budget.cancel.register_thread_context();
    let s = crate::smt::solver_for(budget);
    s.assert(crate::smt::bool_of(t));
    !matches!(crate::smt::check(&s, budget), crate::smt::Sat::Unsat)
}

/// `p` with an edge into a new exit beside every `assume` marked as site
/// `site`'s: the actions before it, then its negation. `None` when the site
/// has no such `assume` left (it was decided while lowering). With it, the
/// variables the conditions read.
fn violation_model(p: &Program, marker: &str, site: usize) -> Option<(Program, BTreeSet<String>)> {
    let mark = Action::Assign(marker.to_string(), Term::int(site as i64));
    let violated = p.locations.len();
    let mut extra = Vec::new();
    let mut read = BTreeSet::new();
    for e in &p.edges {
        for (k, a) in e.actions.iter().enumerate() {
            if *a != mark {
                continue;
            }
            if let Some(Action::Assume(cond)) = e.actions.get(k + 1) {
                let mut actions = e.actions[..k].to_vec();
                read.extend(cond.free_vars().into_iter().map(|v| v.name));
                actions.push(Action::Assume(Term::not(cond.clone())));
                extra.push(Edge { from: e.from, to: violated, actions });
            }
        }
    }
    if extra.is_empty() {
        return None;
    }
    let mut v = p.clone();
    v.locations.push(Location { span: None, note: "undefined operation".into(), function: String::new(), recursion: None });
    v.edges.extend(extra);
    // Runs that end normally no longer matter: the old exit keeps no
    // transition (it is no cut-point any more).
    v.exit = violated;
    Some((v, read))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IntSemantics;

    fn warnings(src: &str) -> Vec<UndefinedSite> {
        let p = crate::c::parse_source("t.c", src, IntSemantics::C, crate::ir::MachineModel::lp64()).expect("lowers");
        checked_warnings(&p, &Budget::with_timeout(Duration::from_secs(10)))
    }

    #[test]
    fn a_guard_rules_out_division_by_zero() {
        let w = warnings("int main(void) { int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), t; while (b != 0) { t = a % b; a = b; b = t; } return a; }");
        assert!(w.iter().all(|w| w.kind != crate::ir::Undefined::DivisionByZero), "{w:?}");
    }

    /// A counter stepped once per iteration of a loop ranked by `m`, with
    /// `m` starting at `n <= 1000`: `c` stays below `n` only because
    /// `c + m` never grows, a fact no comparison of the program states.
    const COUNTED: &str = "int main(void) { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 1000) return 0; \
                           int m = n, c = 0; while (m > 0) { m = m - 1 - (__VERIFIER_nondet_int() ? 1 : 0); c++; } return c; }";

    #[test]
    fn a_counter_of_a_ranked_loop_is_shown_not_to_overflow() {
        let p = crate::c::parse_source("t.c", COUNTED, IntSemantics::C, crate::ir::MachineModel::lp64()).expect("lowers");
        let enc = encode(&p).expect("encodes");
        let m = enc.vars.iter().find(|v| v.name.ends_with('m')).expect("m").name.clone();
        let ranked = vec![RankedHeader {
            header: enc.loops[0].header,
            ranking: crate::term::Affine::from_term(&Term::var(&m)).expect("affine"),
            invariant: Vec::new(),
        }];
        let budget = Budget::with_timeout(Duration::from_secs(20));
        let with = start_checks(&p, &budget, ranked).wait();
        assert!(with.iter().all(|w| !w.expression.contains("c++")), "{with:?}");
        // Without the ranking function the same check keeps the warning:
        // the fact above is what rules it out.
        let without = checked_warnings(&p, &budget);
        assert!(without.iter().any(|w| w.expression.contains("c++")), "{without:?}");
    }

    #[test]
    fn an_unguarded_division_is_reachable() {
        let w = warnings("int main(void) { int b = __VERIFIER_nondet_int(); return 10 / b; }");
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].kind, crate::ir::Undefined::DivisionByZero);
        assert!(matches!(w[0].status, WarningStatus::Reachable { .. }), "{w:?}");
    }
}
