//! One run of the prover: what every stage of it needs (the meaning of the
//! program, the proof's strategy and engine, the user's time), filled once
//! by the command line (`prove` and `emit`), then handed to the front end,
//! the prover and the witness writer.
//!
//! The session's budget starts with the run and bounds everything an
//! answer needs: the proof, and the replay of a NO witness before it is
//! written.

use crate::c::Choices;
use crate::engine::EngineKind;
use crate::ir::{DataModel, IntSemantics, MachineModel, Program};
use crate::solve::Budget;
use crate::termination::{prove_program, Outcome, ProveOptions, Strategy};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Time the proof leaves of the run's budget for what follows it (the
/// witness and the answer).
const AFTER_PROOF: Duration = Duration::from_millis(200);

/// The least time a proof gets, however little is left.
const LEAST_PROOF_TIME: Duration = Duration::from_millis(100);

/// Most time for executing the runs of a program before the proof (when
/// not beside it: [`Session::execute`]).
const EXECUTION_TIME: Duration = Duration::from_secs(2);

/// Most share of the time left for executing the runs before the proof.
const EXECUTION_SHARE: f64 = 0.15;

/// The stack of the thread the proof runs on beside execution (as the
/// main thread's would be: deep terms are walked recursively).
/// How long a NO from execution waits for the proof's: a NO of the proof
/// carries a recurrent set over the model (more general than the one
/// state execution found), and on integer programs it often comes within
/// a tenth of a second.
const NO_CONFIRM_TIME: Duration = Duration::from_secs(1);

/// How long a YES from execution still waits once a loop's proof could not
/// confirm execution's bound.
const MISSED_GRACE: Duration = Duration::from_secs(1);

const PROOF_STACK: usize = 256 << 20;

/// Most time a YES from execution waits for the program model to confirm
/// it (the proof runs beside execution from the start; its loops try
/// execution's bounds first once they are known).
const CONFIRM_TIME: Duration = Duration::from_secs(3);

/// Most time for replaying a NO witness before it is written (it is
/// checked once already when found; this is a second look).
/// How long past its time the precondition search is waited for (its
/// last step finishing).
const PRECONDITION_GRACE: Duration = Duration::from_millis(500);
const WITNESS_CHECK_TIME: Duration = Duration::from_secs(20);

#[derive(Clone)]
pub struct Session {
    /// What integer arithmetic means.
    pub ints: IntSemantics,
    /// Sizes, alignments and types of C's scalars (from the data model
    /// given, or the task's).
    pub machine: MachineModel,
    /// What a call of a function without a definition may change, and
    /// whether allocations may fail.
    pub choices: Choices,
    /// How ranking-function pieces are combined.
    pub strategy: Strategy,
    /// Safety engine for the proof queries.
    pub engine: EngineKind,
    /// Write every Horn query asked into this folder.
    pub emit_horn: Option<PathBuf>,
    /// Report every query and candidate on standard error.
    pub verbose: bool,
    /// With a NO, search a termination precondition.
    pub preconditions: bool,
    /// The user's time limit, counted from the start of the run.
    pub budget: Budget,
}

impl Session {
    /// A session with this meaning of programs, the prover's default
    /// strategy and engine, and no time limit.
    pub fn new(ints: IntSemantics, data_model: DataModel, choices: Choices) -> Session {
        let defaults = ProveOptions::default();
        Session {
            ints,
            machine: MachineModel::of(data_model),
            choices,
            strategy: defaults.strategy,
            engine: defaults.engine,
            emit_horn: None,
            verbose: false,
            preconditions: true,
            budget: Budget::unlimited(),
        }
    }

    /// The program in `file`: an integer transition system (recognized by
    /// content, see [`crate::its`]) or C.
    pub fn parse(&self, file: &Path) -> crate::Result<Program> {
        crate::its::read_file(file).unwrap_or_else(|| crate::c::parse_file_with(file, self.ints, self.machine, self.choices))
    }

    /// Prove termination of `program` within what is left of the budget
    /// (less a little, for the witness and the answer).
    pub fn prove(&self, program: &Program) -> Outcome {
        self.prove_hinted(program, None)
    }

    /// [`Session::prove`], trying the bounds execution finds (once it has
    /// answered) as each loop's first candidate.
    fn prove_hinted(&self, program: &Program, hints: Option<crate::termination::Hints>) -> Outcome {
        let left = self.budget.remaining().unwrap_or(Duration::MAX);
        let opts = ProveOptions {
            strategy: self.strategy,
            timeout: left.saturating_sub(AFTER_PROOF).max(LEAST_PROOF_TIME),
            engine: self.engine,
            emit_horn: self.emit_horn.clone(),
            verbose: self.verbose,
            hints,
            ..ProveOptions::default()
        };
        prove_program(program, &opts)
    }

    /// With a NO: the inputs on which the program does end (see
    /// [`crate::termination::precondition`]), searched after the answer in
    /// what is left of the budget, at most
    /// [`crate::termination::precondition::PRECONDITION_TIME`].
    pub fn precondition(&self, program: &Program, outcome: &Outcome) -> Option<crate::termination::precondition::Precondition> {
        if !self.preconditions || self.budget.expired() {
            return None;
        }
        let time = crate::termination::precondition::PRECONDITION_TIME;
        let budget = self.budget.sub_budget(time);
        let opts = ProveOptions { strategy: self.strategy, engine: self.engine, verbose: self.verbose, ..ProveOptions::default() };
        let t0 = std::time::Instant::now();
        // On its own thread, waited for at most its time: steps of the
        // search that do not look at the clock (preparing a query on a
        // model of thousands of transitions) must not keep the answer.
        // The thread that is left behind ends with the process.
        let (tx, rx) = std::sync::mpsc::channel();
        let (p, o, b) = (program.clone(), outcome.clone(), budget.clone());
        let searching = std::thread::Builder::new().name("precondition".into()).stack_size(PROOF_STACK).spawn(move || {
            let _watchdog = b.watchdog();
            let _guard = b.cancel.register_thread_context();
            let _ = tx.send(crate::termination::precondition::for_answer(&p, &o, &opts, &b));
        });
        let found = match searching {
            Ok(_) => rx.recv_timeout(time + PRECONDITION_GRACE).ok().flatten(),
            Err(_) => None,
        };
        if self.verbose {
            eprintln!("[precondition] {} ({:.2} s)", if found.is_some() { "proved" } else { "none" }, t0.elapsed().as_secs_f64());
        }
        found
    }

    /// YES from executing every run of a C program (see
    /// [`crate::c::exec`]), tried before the proof with a small share of
    /// the budget (at most [`EXECUTION_TIME`] or [`EXECUTION_SHARE`] of
    /// what is left); `None` when it gives up (the proof then runs as if
    /// nothing happened). Integer transition systems are not executed.
    pub fn execute(&self, file: &Path) -> Option<Outcome> {
        if crate::its::read_file(file).is_some() {
            return None;
        }
        let left = self.budget.remaining().unwrap_or(Duration::MAX);
        self.execute_within(file, EXECUTION_TIME.min(left.mul_f64(EXECUTION_SHARE))).ok()
    }

    /// The answer for `program` (read from `file`): executing every run
    /// (C only) beside the proof, each on its own thread, for the whole
    /// budget. The first YES or NO is the answer; a MAYBE from the proof
    /// waits for execution, and execution that gives up leaves the answer
    /// to the proof. Execution that cannot apply (a program reading its
    /// input in a loop, a construct not modelled) gives up within
    /// milliseconds; one that needs seconds (a program making a thousand
    /// allocations, each of which may fail) gets them. The thread that
    /// loses goes on until its own time limit; the command ends the
    /// process after answering.
    pub fn answer(&self, file: &Path, program: &Program) -> Outcome {
        if crate::its::read_file(file).is_some() {
            return self.prove(program);
        }
        enum Side {
            /// Execution's answer, or why it gave up.
            Executed(Result<Outcome, String>),
            Proved(Outcome),
        }
        let (send, receive) = std::sync::mpsc::channel();
        let left = self.budget.remaining().unwrap_or(Duration::MAX).saturating_sub(AFTER_PROOF).max(LEAST_PROOF_TIME);
        let (session, path, tx) = (self.clone(), file.to_path_buf(), send.clone());
        let executing = std::thread::Builder::new().name("execution".into()).spawn(move || {
            let _ = tx.send(Side::Executed(session.execute_within(&path, left)));
        });
        if executing.is_err() {
            return self.execute(file).unwrap_or_else(|| self.prove(program));
        }
        let (session, p) = (self.clone(), program.clone());
        let hints: crate::termination::Hints = Default::default();
        let proof_hints = hints.clone();
        let proving = std::thread::Builder::new().name("proof".into()).stack_size(PROOF_STACK).spawn(move || {
            let _ = send.send(Side::Proved(session.prove_hinted(&p, Some(proof_hints))));
        });
        if proving.is_err() {
            return match receive.recv() {
                Ok(Side::Executed(Ok(o))) => o,
                _ => self.prove(program),
            };
        }
        let (mut proved, mut gave_up) = (None, None);
        while let Ok(side) = receive.recv() {
            match side {
                Side::Executed(Ok(o)) => return self.confirm(o, proved.take(), &receive, &hints, |side| match side {
                    Side::Proved(p) => Some(p),
                    Side::Executed(_) => None,
                }),
                Side::Executed(Err(why)) => gave_up = Some(why),
                Side::Proved(o) if !matches!(o.answer, crate::termination::Answer::Maybe { .. }) => return o,
                Side::Proved(o) => proved = Some(o),
            }
            if gave_up.is_some() {
                if let Some(o) = proved.take() {
                    // A MAYBE says why execution did not answer either.
                    return Outcome { execution_gave_up: gave_up, ..o };
                }
            }
        }
        proved.unwrap_or_else(|| Outcome::maybe(file.display().to_string(), "no answer", 0.0))
    }

    /// An answer from execution (`executed`), confirmed on the program
    /// model where the proof (already `proved`, or arriving on `receive`
    /// within [`CONFIRM_TIME`], for a NO [`NO_CONFIRM_TIME`]) gives the
    /// same answer: a YES then carries the model's ranking functions (its
    /// loops try execution's bounds first, see `hints`), a NO becomes the
    /// model's (a recurrent set over the model, more general than the one
    /// state execution found). Opposite answers are a disagreement between
    /// the two semantics: no answer. Otherwise the answer stands on
    /// execution alone, and says so.
    fn confirm<S>(
        &self,
        executed: Outcome,
        proved: Option<Outcome>,
        receive: &std::sync::mpsc::Receiver<S>,
        hints: &crate::termination::Hints,
        proof_of: impl Fn(S) -> Option<Outcome>,
    ) -> Outcome {
        use crate::termination::Answer;
        let yes = matches!(executed.answer, Answer::Yes { .. });
        if let Answer::Yes { executed: Some(e), .. } = &executed.answer {
            let _ = hints.bounds.set(crate::termination::ExecutionBounds::of(e));
        }
        let most = if yes { CONFIRM_TIME } else { NO_CONFIRM_TIME };
        let wait = self.budget.remaining().unwrap_or(Duration::MAX).saturating_sub(AFTER_PROOF).min(most);
        let mut deadline = std::time::Instant::now() + wait;
        let mut missed = false;
        let mut proof = proved;
        // Until the proof answers or the time is up; once a loop's proof
        // found execution's bound unconfirmable, a last [`MISSED_GRACE`]
        // (the loop may still be ranked otherwise, but seldom later).
        while proof.is_none() {
            if !missed && hints.missed.load(std::sync::atomic::Ordering::Relaxed) {
                missed = true;
                deadline = deadline.min(std::time::Instant::now() + MISSED_GRACE);
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            match receive.recv_timeout(left.min(Duration::from_millis(50))) {
                Ok(side) => proof = proof_of(side),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        let disagreement = |p: &Outcome| {
            Outcome::maybe(
                executed.file.clone(),
                format!(
                    "internal disagreement: execution says {}, the program model says {}; no answer is given",
                    executed.answer.word(),
                    p.answer.word()
                ),
                p.seconds.max(executed.seconds),
            )
        };
        match proof {
            Some(p) if matches!(p.answer, Answer::Maybe { .. }) => executed,
            Some(p) if yes == matches!(p.answer, Answer::Yes { .. }) => {
                if yes {
                    executed.confirmed_by(p)
                } else {
                    Outcome { confirmed_on_model: true, ..p }
                }
            }
            Some(p) => disagreement(&p),
            None => executed,
        }
    }

    /// [`Session::execute`] within `time`.
    fn execute_within(&self, file: &Path, time: Duration) -> Result<Outcome, String> {
        let start = std::time::Instant::now();
        let r = crate::c::execute_file(file, self.ints, self.machine, self.choices.allocation, time, crate::c::exec::Limits::default());
        match r {
            Ok(crate::c::exec::Verdict::Terminates(evidence)) => {
                if self.verbose {
                    eprintln!("execution: every run ends ({} runs, at most {} steps) in {:.3} s", evidence.runs, evidence.most_steps, start.elapsed().as_secs_f64());
                }
                Ok(Outcome::executed(file.display().to_string(), evidence, start.elapsed().as_secs_f64()))
            }
            Ok(crate::c::exec::Verdict::Forever(lasso)) => {
                if self.verbose {
                    eprintln!("execution: a run comes back to a state at line {} after {} steps, found in {:.3} s", lasso.line, lasso.steps, start.elapsed().as_secs_f64());
                }
                Ok(Outcome::runs_forever(file.display().to_string(), lasso, start.elapsed().as_secs_f64()))
            }
            Err(why) => {
                if self.verbose {
                    eprintln!("execution: gave up after {:.3} s: {why}", start.elapsed().as_secs_f64());
                }
                Err(why)
            }
        }
    }

    /// Write the witness of `outcome` to `path` (see
    /// [`crate::report::witness::write`]); a NO witness is replayed first,
    /// within what is left of the budget.
    pub fn write_witness(&self, program: &Program, outcome: &Outcome, path: &Path) -> Result<(), String> {
        let budget = self.budget.sub_budget(WITNESS_CHECK_TIME);
        crate::report::witness::write(program, outcome, path, &budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::termination::{Answer, ExecutionBounds, Hints};

    fn executed_yes() -> Outcome {
        let e = crate::c::exec::Evidence {
            runs: 1,
            most_steps: 10,
            loops: vec![crate::c::exec::LoopBound { line: 3, column: 3, iterations: 4 }],
            recursions: vec![],
            pruned: None,
            accelerated: 0,
            joined: 0,
            undefined: vec![],
            read_input: false,
            allocations_fail: false,
        };
        Outcome::executed("t.c", e, 0.01)
    }

    fn model(answer: Answer) -> Outcome {
        Outcome { answer, ..Outcome::maybe("t.c", "", 0.5) }
    }

    fn session() -> Session {
        Session { budget: Budget::with_timeout(Duration::from_secs(20)), ..Session::new(IntSemantics::C, DataModel::Lp64, Default::default()) }
    }

    #[test]
    fn an_execution_yes_is_confirmed_by_the_models_yes_and_shares_its_bounds() {
        let (tx, rx) = std::sync::mpsc::channel();
        tx.send(model(Answer::Yes { loops: vec![], executed: None })).unwrap();
        let hints: Hints = Default::default();
        let o = session().confirm(executed_yes(), None, &rx, &hints, Some);
        assert!(o.confirmed_on_model && matches!(o.answer, Answer::Yes { executed: Some(_), .. }));
        let bounds: &ExecutionBounds = hints.bounds.get().expect("the bounds went to the proof");
        assert_eq!(bounds.loops, vec![(3, 3, 4)]);
    }

    #[test]
    fn a_disagreement_between_the_two_semantics_is_no_answer() {
        let (tx, rx) = std::sync::mpsc::channel();
        let no = Answer::No {
            witness: crate::termination::NoWitness::Model(crate::termination::certificate::NonTerminationWitness {
                loop_index: 0,
                stem: vec![],
                recurrent_set: crate::term::Term::tt(),
                inner_sets: vec![],
            }),
            span: None,
            strategy: "test",
        };
        tx.send(model(no)).unwrap();
        let o = session().confirm(executed_yes(), None, &rx, &Default::default(), Some);
        assert!(matches!(&o.answer, Answer::Maybe { reason } if reason.contains("disagreement")), "{:?}", o.answer.word());
    }

    #[test]
    fn without_the_models_answer_an_execution_yes_stands_unconfirmed() {
        let (_tx, rx) = std::sync::mpsc::channel::<Outcome>();
        let hints: Hints = Default::default();
        // The model could not confirm a bound: the wait ends early.
        hints.missed.store(true, std::sync::atomic::Ordering::Relaxed);
        let t0 = std::time::Instant::now();
        let o = session().confirm(executed_yes(), None, &rx, &hints, Some);
        assert!(!o.confirmed_on_model && matches!(o.answer, Answer::Yes { executed: Some(_), .. }));
        assert!(t0.elapsed() < CONFIRM_TIME, "waited the whole confirmation time");
    }
}
