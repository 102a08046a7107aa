//! `tessera prove FILE.c`: YES (with a ranking function per loop), NO (with
//! a checked non-termination witness) or MAYBE (with the reason).

use super::args::{ModelArgs, ProofEngine};
use super::supervise::{self, Ended};
use crate::report::{self, Format};
use crate::session::Session;
use crate::solve::Budget;
use crate::svcomp::{self, TaskError};
use crate::termination::{Outcome, Strategy};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// The C program (preprocessed with `gcc -E`; `main` is the entry point),
    /// or an SV-COMP task definition (`.yml`) whose termination property is
    /// proved for its C file with its data model.
    pub file: PathBuf,
    #[command(flatten)]
    pub model: ModelArgs,
    /// How ranking-function pieces are combined. `portfolio` first asks the
    /// constraint-based (Farkas) synthesis for a linear, multiphase or
    /// lexicographic candidate, then races the three sampling strategies;
    /// a named strategy runs the paper's sampling method alone.
    #[arg(long, value_enum, default_value = "portfolio")]
    pub strategy: Strategy,
    /// Wall-clock limit in seconds for the whole proof (MAYBE when reached).
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Memory limit in MB for the proof's resident memory (all its threads,
    /// Z3 included). The prover keeps under it by stopping solver work:
    /// above half of it a solver race that grew the memory goes on with one
    /// engine (above 65 % every race does), above 65 % a query during which
    /// the memory grew gives up (that
    /// part of the proof is MAYBE, with the reason). Should the memory still
    /// reach the limit, the proof is stopped and the answer is MAYBE (memory
    /// limit). Without it the prover keeps to 1024 MB the same way, but is
    /// never stopped for memory.
    #[arg(long, value_name = "MB")]
    pub memory: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Safety engine for the proof queries.
    #[arg(long, value_enum, default_value = "portfolio")]
    pub engine: ProofEngine,
    /// Write every Horn query the prover asks into this folder (one SMT-LIB
    /// file per loop, strategy, refinement and instrumentation).
    #[arg(long, value_name = "DIR")]
    pub emit_horn: Option<PathBuf>,
    /// Report every safety query, candidate and answer on standard error.
    #[arg(short, long)]
    pub verbose: bool,
    /// With a NO, do not search the inputs on which the program does end (a
    /// termination precondition, up to 6 s after the answer; never searched
    /// in the `svcomp` and `termcomp` formats).
    #[arg(long)]
    pub no_precondition: bool,
    /// Write a verification witness: for NO a violation witness (`.graphml`:
    /// GraphML 1.0; `.yml`/`.yaml`: YAML), for YES a YAML correctness
    /// witness (format 2.1). The format follows the file's extension.
    #[arg(long, value_name = "FILE")]
    pub witness: Option<PathBuf>,
    /// SV-COMP property file; only termination (`CHECK( init(main()),
    /// LTL(F end) )`) is accepted.
    #[arg(long, value_name = "FILE.prp")]
    pub property: Option<PathBuf>,
}

pub fn run(mut args: ProveArgs) -> i32 {
    if let Err(code) = prepare_task(&mut args) {
        return code;
    }
    if !supervise::is_worker() {
        if let Some(code) = supervise(&args) {
            return code;
        }
    }
    prove_here(args)
}

/// `prove TASK.yml` and `--property FILE.prp`: checks the property and,
/// when the file is an SV-COMP task definition, replaces it by the task's C
/// file and takes the task's data model (over `--data-model`). On error, the
/// exit code after printing the message (and, for formats other than text,
/// an UNKNOWN answer).
fn prepare_task(args: &mut ProveArgs) -> Result<(), i32> {
    let resolved = (|| -> Result<(), TaskError> {
        if let Some(property) = &args.property {
            svcomp::check_property_file(property)?;
            // SV-COMP's calling convention: its rules' allocations.
            args.model.allocation.get_or_insert(crate::cli::args::AllocationArg::NeverFails);
        }
        args.model.resolve_task(&mut args.file)
    })();
    resolved.map_err(|e| {
        eprintln!("{e}");
        if args.format != Format::Text {
            print!("{}", report::render(&Outcome::maybe(args.file.display().to_string(), e.to_string(), 0.0), args.format));
        }
        e.exit_code
    })
}

/// Run the proof in a worker process and relay its output (see
/// [`supervise`]); a stop at the time or memory limit, or a worker that
/// died, is a MAYBE. `None` when no worker can be started (the proof then
/// runs in this process).
fn supervise(args: &ProveArgs) -> Option<i32> {
    let start = Instant::now();
    let timeout = Duration::from_secs_f64(effective_timeout(args.timeout));
    let ended = supervise::run_worker(Some(timeout), Duration::from_secs(1), args.memory)?;
    let maybe = |reason: String| {
        let outcome = Outcome::maybe(args.file.display().to_string(), reason, start.elapsed().as_secs_f64());
        print!("{}", report::render(&outcome, args.format));
        0
    };
    Some(match ended {
        Ended::Exited(st, out) if st.code().is_some() && !out.is_empty() => {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&out);
            st.code().unwrap_or(1)
        }
        Ended::Exited(st, _) if st.code().is_some() => st.code().unwrap_or(1),
        Ended::Exited(st, _) => maybe(format!("the solver process died ({st}); no answer")),
        Ended::OutOfTime => maybe(format!("time limit: no answer within {:.0} s", effective_timeout(args.timeout))),
        Ended::OutOfMemory { peak_mb } => maybe(format!(
            "memory limit: the proof's resident memory reached {peak_mb} MB of the {} MB allowed (--memory) after {:.1} s; no answer",
            args.memory.unwrap_or(peak_mb),
            start.elapsed().as_secs_f64()
        )),
    })
}

fn effective_timeout(t: f64) -> f64 {
    if t.is_finite() && t > 0.0 {
        t
    } else {
        60.0
    }
}

impl ProveArgs {
    /// The session of this run; its budget (`--timeout`) starts now.
    pub fn session(&self) -> Session {
        Session {
            strategy: self.strategy,
            engine: self.engine.0,
            emit_horn: self.emit_horn.clone(),
            verbose: self.verbose,
            preconditions: !self.no_precondition && matches!(self.format, Format::Text | Format::Json),
            budget: Budget::with_timeout(Duration::from_secs_f64(effective_timeout(self.timeout))),
            ..self.model.session()
        }
    }
}

fn prove_here(args: ProveArgs) -> i32 {
    crate::solve::memory::govern(args.memory.unwrap_or(crate::solve::memory::DEFAULT_TARGET_MB));
    let session = args.session();
    let start = Instant::now();
    let file = args.file.display().to_string();
    let program = match session.parse(&args.file) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            let outcome = Outcome::maybe(file, e.to_string(), start.elapsed().as_secs_f64());
            if args.format != Format::Text {
                print!("{}", report::render(&outcome, args.format));
            }
            return e.exit_code();
        }
    };
    // Executing every run settles programs whose control does not depend
    // on their inputs; it only ever answers YES. It runs beside the proof.
    let mut outcome = session.answer(&args.file, &program);
    outcome.seconds = start.elapsed().as_secs_f64();
    // The answer's time is the answer's: the search for the inputs on
    // which a non-terminating program ends comes after it.
    outcome.precondition = session.precondition(&program, &outcome);
    if let Some(path) = &args.witness {
        if let Err(e) = session.write_witness(&program, &outcome, path) {
            eprintln!("{e}");
        }
    }
    print!("{}", report::render_with(&outcome, args.format, report::View { verbose: args.verbose }));
    // A witness is answered while the proofs may still run on their
    // thread (see `prove_program`): their progress lines must not be cut
    // off by the exit in the middle of a line. Standard error stays
    // locked by this thread until the process ends.
    std::mem::forget(std::io::stderr().lock());
    0
}
