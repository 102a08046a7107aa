//! Running engines: one by name, or the portfolio race of PDR, BMC and
//! Spacer. Whatever `solve` returns as `Safe` or `Unsafe` has passed
//! [`validate_here`] (on the winning engine's thread); an answer whose evidence fails the check becomes `Unknown`
//! with the reason.

use super::inline::inline;
use super::validate::validate_here;
use super::{Engine, EngineEntry, EngineKind, ENGINES};
use crate::solve::memory::{Pressure, RaceMemory};
use crate::solve::{Budget, Cancel, Verdict};
use crate::horn::System;
use crossbeam_channel::RecvTimeoutError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Engine threads get a large stack: engines may recurse over derivations.
const ENGINE_STACK: usize = 256 << 20;

/// How often the race looks at the caller's cancellation token.
const POLL: Duration = Duration::from_millis(20);

/// Decide `system` with the named engine, or race all engines for
/// `Portfolio`. Definitive answers are validated before they are returned.
pub fn solve(system: &System, kind: EngineKind, budget: &Budget) -> Verdict {
    solve_among(system, kind, false, budget)
}

/// [`solve`] for a caller that uses only a `Safe` answer (a decrease check,
/// a quick T_rank): the portfolio races only the engines that prove safety.
/// BMC would look for a counterexample nobody reads, with processor time
/// the provers need.
pub fn prove_safe(system: &System, kind: EngineKind, budget: &Budget) -> Verdict {
    solve_among(system, kind, true, budget)
}

fn solve_among(system: &System, kind: EngineKind, provers_only: bool, budget: &Budget) -> Verdict {
    if let Err(e) = system.check_well_formed() {
        return Verdict::Unknown(format!("malformed clause system: {e}"));
    }
    let chosen = |e: &&EngineEntry| (kind == EngineKind::Portfolio && (e.proves || !provers_only)) || e.kind == kind;
    let engines = || ENGINES.iter().filter(chosen).filter_map(|e| e.make).map(|make| make()).collect();
    // First on the system with its straight-line predicates inlined. The
    // first answer there ends that race: it counts once translated back and
    // validated on `system` (a check on the reduced system as well would
    // cost a Z3 context and repeat what the check on `system` decides).
    // Without an answer, or when the way back or the check fails, the
    // system as it is, in the time left.
    let t0 = std::time::Instant::now();
    if let Some(inlined) = inline(system, budget) {
        if trace() {
            eprintln!(
                "portfolio: {} of {} predicates left after inlining ({} clauses of {} nodes, {:.2} s)",
                inlined.system.preds.len(),
                system.preds.len(),
                system.clauses.len(),
                system_size(system),
                t0.elapsed().as_secs_f64()
            );
        }
        let reduced = inlined.system.clone();
        let (inlined, original) = (Arc::new(inlined), Arc::new(system.clone()));
        let back: Finish = Arc::new(move |v: Verdict, check: &Budget| -> Result<Verdict, String> {
            let t0 = std::time::Instant::now();
            let back = inlined.verdict(v, check)?;
            let t1 = std::time::Instant::now();
            validate_here(&original, &back, check)?;
            if trace() {
                eprintln!(
                    "portfolio: answer translated back in {:.2} s, checked in {:.2} s",
                    (t1 - t0).as_secs_f64(),
                    t1.elapsed().as_secs_f64()
                );
            }
            Ok(back)
        });
        match race_with(&reduced, engines(), budget, Judge::FirstAnswer(back)) {
            Verdict::Unknown(why) if budget.expired() => return Verdict::Unknown(why),
            Verdict::Unknown(why) => {
                if trace() {
                    eprintln!("portfolio: no answer through inlining ({why})");
                }
            }
            verdict => return verdict,
        }
    }
    race(system, engines(), budget)
}

/// What makes of an engine's definitive answer the race's answer: the
/// answer translated back if need be, and validated (`Err` with the reason
/// when it fails). Runs on the thread of the engine that found the answer,
/// in its Z3 context (see [`race`]).
type Finish = Arc<dyn Fn(Verdict, &Budget) -> Result<Verdict, String> + Send + Sync>;

/// What a race does with a definitive answer.
enum Judge {
    /// Validate it on the raced system; an answer that fails is dropped and
    /// the others race on.
    Validate,
    /// The first definitive answer ends the race (the others are stopped at
    /// once): the race's answer is what the function makes of it, `Unknown`
    /// with the reason when it fails. The function must validate.
    FirstAnswer(Finish),
}

/// Sleep for `delay` unless the budget expires first or `early` is set
/// (checked every few milliseconds); whether to start (the budget has not
/// expired).
fn wait_unless_expired(budget: &Budget, delay: Duration, early: &AtomicBool) -> bool {
    let start = std::time::Instant::now();
    while !budget.expired() {
        if early.load(Ordering::SeqCst) {
            return true;
        }
        let Some(left) = delay.checked_sub(start.elapsed()).filter(|d| !d.is_zero()) else { return true };
        std::thread::sleep(left.min(Duration::from_millis(5)));
    }
    false
}

/// Progress on stderr (environment variable `TESSERA_PORTFOLIO_TRACE`).
/// The syntax nodes of a system's constraints and arguments.
fn system_size(system: &System) -> usize {
    system.clauses.iter().map(|c| c.constraint.size() + c.body.iter().chain(c.head.iter()).map(|a| a.args.len()).sum::<usize>()).sum()
}

fn trace() -> bool {
    std::env::var_os("TESSERA_PORTFOLIO_TRACE").is_some()
}

/// Tag an engine's unknown reason with the engine name (once).
fn tagged(name: &str, reason: &str) -> String {
    if reason.starts_with(&format!("{name}:")) {
        reason.to_string()
    } else {
        format!("{name}: {reason}")
    }
}

/// What an engine's thread tells the race.
enum Report {
    /// A definitive answer was found and is being checked (on the engine's
    /// thread): under [`Judge::FirstAnswer`] the others stop now, and in any
    /// case the race waits for the check even past the deadline (the check
    /// has a few seconds of its own, see [`validation_budget`]).
    Answered,
    /// The engine's last word: `Unknown`, or its answer as checked (`Err`
    /// with the answer word and the reason when the check failed).
    Done(Result<Verdict, (&'static str, String)>),
}

/// Run the engines on their own threads (each with a fresh Z3 context) and
/// return the first validated definitive answer; the others are cancelled.
///
/// An answer is validated on the thread of the engine that found it, in
/// that thread's Z3 context, with solvers of its own: a fresh context for
/// the check would cost as much again as the engine's own on a small
/// problem (7-14 ms, two fresh 8.5 MB allocations). The engine's solvers
/// are gone by then; what the context still holds (declarations, terms)
/// cannot change what a new solver decides.
pub fn race(system: &System, engines: Vec<Box<dyn Engine + Send>>, budget: &Budget) -> Verdict {
    race_with(system, engines, budget, Judge::Validate)
}

fn race_with(system: &System, engines: Vec<Box<dyn Engine + Send>>, budget: &Budget, judge: Judge) -> Verdict {
    if budget.expired() {
        return Verdict::Unknown("out of time before solving".into());
    }
    // The racers share their own token, so that stopping the losers does not
    // cancel the caller's budget (which validation still uses).
    let racers = Budget { deadline: budget.deadline, cancel: Cancel::new() };
    let system_shared = Arc::new(system.clone());
    let first_answer = matches!(judge, Judge::FirstAnswer(_));
    let finish: Finish = match judge {
        Judge::FirstAnswer(f) => f,
        Judge::Validate => {
            let sys = Arc::clone(&system_shared);
            Arc::new(move |v: Verdict, check: &Budget| validate_here(&sys, &v, check).map(|()| v))
        }
    };
    let (tx, rx) = crossbeam_channel::unbounded::<(&'static str, Report)>();
    let mut running = 0usize;
    let mut reasons: Vec<String> = Vec::new();
    let racing = engines.len() > 1;
    // Engines that wait before they start (see `EngineEntry::start_delay`)
    // start at once when every engine that did not wait has given up.
    let entry = |kind: &str| ENGINES.iter().find(|e| e.name == kind);
    let delay_of = |kind: &str| if racing { entry(kind).map_or(Duration::ZERO, |e| e.start_delay) } else { Duration::ZERO };
    let mut eager_running = engines.iter().filter(|e| delay_of(e.name()).is_zero()).count();
    let start_waiting = Arc::new(AtomicBool::new(eager_running == 0));
    // Each engine has a token of its own under the racers' one, so that
    // the memory governor can stop some of them (see `solve::memory`).
    let memory = RaceMemory::start();
    // (engine, its token, whether it still runs)
    let mut own: Vec<(&'static str, Cancel, bool)> = Vec::new();
    let mut shed = false;
    for engine in engines {
        let kind = engine.name();
        let background = racing && entry(kind).is_some_and(|e| e.background);
        let delay = delay_of(kind);
        let b = Budget { deadline: racers.deadline, cancel: racers.cancel.child() };
        own.push((kind, b.cancel.clone(), true));
        let (tx, sys, caller, finish, early) =
            (tx.clone(), Arc::clone(&system_shared), budget.clone(), Arc::clone(&finish), Arc::clone(&start_waiting));
        let spawned =
            std::thread::Builder::new().name(format!("engine-{kind}")).stack_size(ENGINE_STACK).spawn(move || {
                if !delay.is_zero() && !wait_unless_expired(&b, delay, &early) {
                    let _ = tx.send((kind, Report::Done(Ok(Verdict::Unknown("not started: the race ended first".into())))));
                    return;
                }
                if background {
                    crate::solve::budget::lower_thread_priority(super::BACKGROUND_NICE);
                }
                super::mark_fresh_thread();
                let t0 = std::time::Instant::now();
                let verdict = engine.solve(&sys, &b);
                if trace() {
                    eprintln!("portfolio: {kind} finished in {:?}: {}", t0.elapsed(), verdict.word());
                }
                super::take_fresh_thread();
                if let Verdict::Unknown(_) = verdict {
                    let _ = tx.send((kind, Report::Done(Ok(verdict))));
                    return;
                }
                let _ = tx.send((kind, Report::Answered));
                let word = verdict.word();
                let t0 = std::time::Instant::now();
                let checked = finish(verdict, &validation_budget(&caller)).map_err(|e| (word, e));
                if trace() {
                    eprintln!("portfolio: {kind} answer checked in {:?}", t0.elapsed());
                }
                let _ = tx.send((kind, Report::Done(checked)));
            });
        match spawned {
            Ok(_) => running += 1,
            Err(e) => reasons.push(format!("{kind}: cannot start a thread: {e}")),
        }
    }
    drop(tx);
    // Engines whose answer is being checked; under FirstAnswer, the one
    // whose answer ends the race.
    let mut checking = 0usize;
    let mut winner: Option<&'static str> = None;
    while running > 0 {
        let (kind, report) = match rx.recv_timeout(POLL) {
            Ok(msg) => msg,
            Err(RecvTimeoutError::Timeout) => {
                if budget.expired() && checking == 0 {
                    racers.cancel.cancel();
                    reasons.push("time limit".into());
                    return Verdict::Unknown(reasons.join("; "));
                }
                if checking == 0 {
                    match memory.pressure() {
                        Pressure::Low => {}
                        Pressure::Shed if !shed => {
                            // The first engine still running goes on alone.
                            shed = true;
                            let mut kept = false;
                            for (kind, cancel, running) in &own {
                                if !running {
                                    continue;
                                }
                                if kept {
                                    cancel.cancel();
                                    if trace() {
                                        eprintln!("portfolio: {kind} stopped to save memory");
                                    }
                                } else {
                                    kept = true;
                                }
                            }
                        }
                        Pressure::Shed => {}
                        Pressure::Stop { resident_mb, target_mb } => {
                            racers.cancel.cancel();
                            reasons.push(format!(
                                "memory: the proof's resident memory reached {resident_mb} MB of the {target_mb} MB it keeps to (--memory), and grew during this query"
                            ));
                            return Verdict::Unknown(reasons.join("; "));
                        }
                    }
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let checked = match report {
            Report::Answered => {
                if first_answer && winner.is_none() {
                    winner = Some(kind);
                    racers.cancel.cancel();
                }
                checking += 1;
                continue;
            }
            Report::Done(checked) => checked,
        };
        running -= 1;
        // The governor keeps an engine that still runs.
        if let Some((_, _, running)) = own.iter_mut().find(|(k, _, _)| *k == kind) {
            *running = false;
        }
        if delay_of(kind).is_zero() {
            eager_running = eager_running.saturating_sub(1);
            if eager_running == 0 {
                start_waiting.store(true, Ordering::SeqCst);
            }
        }
        if !matches!(checked, Ok(Verdict::Unknown(_))) {
            checking = checking.saturating_sub(1);
        }
        // Under FirstAnswer only the first answer counts.
        if first_answer && winner.is_some_and(|w| w != kind) {
            continue;
        }
        match checked {
            Ok(Verdict::Unknown(r)) => reasons.push(tagged(kind, &r)),
            Ok(verdict) => {
                if trace() {
                    eprintln!("portfolio: {kind} won, {} predicates, {} clauses", system.preds.len(), system.clauses.len());
                }
                racers.cancel.cancel();
                return verdict;
            }
            Err((word, e)) if first_answer => {
                racers.cancel.cancel();
                return Verdict::Unknown(format!("{kind}: {word} answer not accepted: {e}"));
            }
            Err((word, e)) => reasons.push(format!("{kind}: {word} answer failed validation: {e}")),
        }
    }
    racers.cancel.cancel();
    if reasons.is_empty() {
        reasons.push("no engine ran".into());
    }
    Verdict::Unknown(reasons.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::horn::smtlib::parse_system;
    use crate::term::Term;
    use crate::engine::spacer::Spacer;

    #[test]
    fn spacer_answer_goes_through_validation() {
        let s = parse_system(
            "(declare-fun inv (Int) Bool)
             (assert (forall ((x Int)) (=> (= x 0) (inv x))))
             (assert (forall ((x Int) (y Int)) (=> (and (inv x) (< x 10) (= y (+ x 2))) (inv y))))
             (assert (forall ((x Int)) (=> (and (inv x) (= x 7)) false)))",
        )
        .expect("parses");
        let v = solve(&s, EngineKind::Spacer, &Budget::with_timeout(Duration::from_secs(20)));
        assert!(matches!(v, Verdict::Safe(_)), "{v:?}");
        let v = solve(&s, EngineKind::Portfolio, &Budget::with_timeout(Duration::from_secs(20)));
        assert!(matches!(v, Verdict::Safe(_)), "{v:?}");
    }

    /// An engine that lies: its answers must not get through.
    struct Liar;
    impl Engine for Liar {
        fn name(&self) -> &'static str {
            "liar"
        }
        fn solve(&self, system: &System, _b: &Budget) -> Verdict {
            Verdict::Safe(crate::solve::Invariant { interp: vec![Term::tt(); system.preds.len()] })
        }
    }

    #[test]
    fn invalid_answers_become_unknown() {
        let s = parse_system(
            "(declare-fun inv (Int) Bool)
             (assert (forall ((x Int)) (=> (= x 0) (inv x))))
             (assert (forall ((x Int)) (=> (and (inv x) (= x 0)) false)))",
        )
        .expect("parses");
        let v = race(&s, vec![Box::new(Liar)], &Budget::with_timeout(Duration::from_secs(20)));
        let Verdict::Unknown(why) = &v else { panic!("a lie got through: {v:?}") };
        assert!(why.contains("liar: sat answer failed validation"), "{why}");
        // The honest engine still wins the race against the liar.
        let v = race(&s, vec![Box::new(Liar), Box::new(Spacer)], &Budget::with_timeout(Duration::from_secs(20)));
        assert!(matches!(v, Verdict::Unsafe(_)), "{v:?}");
    }

    #[test]
    fn the_first_answer_counts_only_as_the_judge_accepts_it() {
        let s = parse_system(
            "(declare-fun inv (Int) Bool)
             (assert (forall ((x Int)) (=> (= x 0) (inv x))))
             (assert (forall ((x Int)) (=> (and (inv x) (= x 0)) false)))",
        )
        .expect("parses");
        let b = Budget::with_timeout(Duration::from_secs(20));
        let sys = Arc::new(s.clone());
        let check: Finish = Arc::new(move |v: Verdict, b: &Budget| validate_here(&sys, &v, b).map(|()| v));
        let v = race_with(&s, vec![Box::new(Liar)], &b, Judge::FirstAnswer(Arc::clone(&check)));
        let Verdict::Unknown(why) = &v else { panic!("a lie got through: {v:?}") };
        assert!(why.contains("liar: sat answer not accepted"), "{why}");
        let v = race_with(&s, vec![Box::new(Spacer)], &b, Judge::FirstAnswer(check));
        assert!(matches!(v, Verdict::Unsafe(_)), "{v:?}");
    }

    /// An engine that answers `Safe` with `true` for every predicate and
    /// records whether its thread was marked fresh for it.
    struct Recorder(Arc<std::sync::Mutex<Vec<bool>>>);
    impl Engine for Recorder {
        fn name(&self) -> &'static str {
            "recorder"
        }
        fn solve(&self, system: &System, _b: &Budget) -> Verdict {
            self.0.lock().unwrap().push(crate::engine::take_fresh_thread());
            Verdict::Safe(crate::solve::Invariant { interp: vec![Term::tt(); system.preds.len()] })
        }
    }

    /// An engine that gives up at once.
    struct Quitter;
    impl Engine for Quitter {
        fn name(&self) -> &'static str {
            "quitter"
        }
        fn solve(&self, _system: &System, _b: &Budget) -> Verdict {
            Verdict::Unknown("gave up".into())
        }
    }

    #[test]
    fn answers_are_checked_on_the_engine_thread_and_the_race_waits_for_the_check() {
        let s = parse_system(
            "(declare-fun inv (Int) Bool)
             (assert (forall ((x Int)) (=> (= x 0) (inv x))))
             (assert (forall ((x Int)) (=> (and (inv x) (= x 7)) false)))",
        )
        .expect("parses");
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let threads = Arc::new(std::sync::Mutex::new(Vec::new()));
        let t = Arc::clone(&threads);
        // The check outlives the race's deadline: its answer still counts.
        let finish: Finish = Arc::new(move |v: Verdict, _b: &Budget| {
            t.lock().unwrap().push(std::thread::current().name().map(str::to_string));
            std::thread::sleep(Duration::from_millis(300));
            Ok(v)
        });
        let b = Budget::with_timeout(Duration::from_millis(150));
        let v = race_with(&s, vec![Box::new(Recorder(Arc::clone(&seen))), Box::new(Quitter)], &b, Judge::FirstAnswer(finish));
        assert!(matches!(v, Verdict::Safe(_)), "{v:?}");
        assert_eq!(*threads.lock().unwrap(), vec![Some("engine-recorder".to_string())]);
        // The race marks its threads fresh; a direct call is not.
        assert_eq!(*seen.lock().unwrap(), vec![true]);
        let _ = Recorder(Arc::clone(&seen)).solve(&s, &b);
        assert_eq!(*seen.lock().unwrap(), vec![true, false]);
        // And the validating judge rejects the wrong `Safe` on that thread.
        let v = race(&s, vec![Box::new(Recorder(seen)), Box::new(Quitter)], &Budget::with_timeout(Duration::from_secs(20)));
        let Verdict::Unknown(why) = &v else { panic!("a wrong answer got through: {v:?}") };
        assert!(why.contains("recorder: sat answer failed validation"), "{why}");
    }

    #[test]
    fn expired_budget_gives_unknown() {
        let s = parse_system("(declare-fun P () Bool) (assert P) (assert (=> P false))").expect("parses");
        let b = Budget::unlimited();
        b.cancel.cancel();
        assert!(matches!(solve(&s, EngineKind::Portfolio, &b), Verdict::Unknown(_)));
    }
}

/// Checking evidence is cheap next to finding it, and an answer found just
/// before the deadline should not be lost because its check ran out of time:
/// the check gets a few seconds of its own (it still stops on cancellation).
fn validation_budget(budget: &Budget) -> Budget {
    let floor = std::time::Instant::now() + std::time::Duration::from_secs(3);
    Budget { deadline: budget.deadline.map(|d| d.max(floor)), cancel: budget.cancel.clone() }
}
