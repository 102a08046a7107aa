//! `tessera prove FILE.c`: YES (with a ranking function per loop), NO (with
//! a checked non-termination witness) or MAYBE (with the reason).

use crate::engine::EngineKind;
use crate::ir::{DataModel, IntSemantics};
use crate::svcomp::{self, TaskDefinition, TaskError};
use crate::report::{self, Format};
use crate::termination::{prove_program, Outcome, ProveOptions, Strategy};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ints {
    /// C11: values in their type's range; signed overflow, division by zero
    /// and bad shifts are undefined behaviour (such executions stop, with a
    /// warning); unsigned arithmetic wraps.
    C,
    /// gcc `-fwrapv` machine integers: values in their type's range, signed
    /// arithmetic wraps around too.
    Machine,
    /// Signed integers are unbounded mathematical integers; unsigned still wrap.
    Math,
}

impl From<Ints> for IntSemantics {
    fn from(i: Ints) -> Self {
        match i {
            Ints::C => IntSemantics::C,
            Ints::Machine => IntSemantics::Machine,
            Ints::Math => IntSemantics::Math,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModelArg {
    /// `int`, `long` and pointers 32 bits.
    Ilp32,
    /// `long` and pointers 64 bits (x86-64 Linux).
    Lp64,
}

impl From<DataModelArg> for DataModel {
    fn from(d: DataModelArg) -> Self {
        match d {
            DataModelArg::Ilp32 => DataModel::Ilp32,
            DataModelArg::Lp64 => DataModel::Lp64,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExternalCallsArg {
    /// What C allows: a function the program declares but does not define
    /// (and that is not a C library function) may change any global with
    /// external linkage and every object whose address the program let
    /// out, besides what its pointer arguments reach.
    Any,
    /// Such a function changes only what its pointer arguments reach (the
    /// assumption under which SV-COMP's tasks call undefined helpers).
    Arguments,
}

impl From<ExternalCallsArg> for crate::c::ExternalCalls {
    fn from(e: ExternalCallsArg) -> Self {
        match e {
            ExternalCallsArg::Any => crate::c::ExternalCalls::AnyReachableState,
            ExternalCallsArg::Arguments => crate::c::ExternalCalls::PointerArguments,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineArg {
    /// Our PDR/IC3 engine.
    Pdr,
    /// Z3's Spacer through the fixedpoint API.
    Spacer,
    /// Race PDR, BMC and Spacer; the first validated answer wins.
    Portfolio,
}

impl From<EngineArg> for EngineKind {
    fn from(e: EngineArg) -> Self {
        match e {
            EngineArg::Pdr => EngineKind::Pdr,
            EngineArg::Spacer => EngineKind::Spacer,
            EngineArg::Portfolio => EngineKind::Portfolio,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// The C program (preprocessed with `gcc -E`; `main` is the entry point),
    /// or an SV-COMP task definition (`.yml`) whose termination property is
    /// proved for its C file with its data model.
    pub file: PathBuf,
    /// Integer semantics.
    #[arg(long, value_enum, default_value = "c")]
    pub ints: Ints,
    /// Sizes of `long`, `size_t` and pointers.
    #[arg(long, value_enum, default_value = "lp64")]
    pub data_model: DataModelArg,
    /// What a call of a function without a definition may change.
    #[arg(long, value_enum, default_value = "any")]
    pub external_calls: ExternalCallsArg,
    /// How ranking-function pieces are combined. `portfolio` first asks the
    /// constraint-based (Farkas) synthesis for a linear, multiphase or
    /// lexicographic candidate, then races the three sampling strategies;
    /// a named strategy runs the paper's sampling method alone.
    #[arg(long, value_enum, default_value = "portfolio")]
    pub strategy: Strategy,
    /// Wall-clock limit in seconds for the whole proof (MAYBE when reached).
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Safety engine for the proof queries.
    #[arg(long, value_enum, default_value = "portfolio")]
    pub engine: EngineArg,
    /// Write every Horn query the prover asks into this folder (one SMT-LIB
    /// file per loop, strategy, refinement and instrumentation).
    #[arg(long, value_name = "DIR")]
    pub emit_horn: Option<PathBuf>,
    /// Report every safety query, candidate and answer on standard error.
    #[arg(short, long)]
    pub verbose: bool,
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

/// Set in the environment of the worker process that does the proof.
const WORKER_ENV: &str = "TESSERA_PROVE_WORKER";

pub fn run(mut args: ProveArgs) -> i32 {
    if let Err(code) = prepare_task(&mut args) {
        return code;
    }
    if std::env::var_os(WORKER_ENV).is_none() {
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
        }
        if !svcomp::is_task_definition(&args.file) {
            return Ok(());
        }
        let task = TaskDefinition::load(&args.file)?;
        args.file = task.termination_input()?.to_path_buf();
        if let Some(model) = task.data_model {
            args.data_model = match model {
                DataModel::Ilp32 => DataModelArg::Ilp32,
                DataModel::Lp64 => DataModelArg::Lp64,
            };
        }
        Ok(())
    })();
    resolved.map_err(|e| {
        eprintln!("{e}");
        if args.format != Format::Text {
            print!("{}", report::render(&Outcome::maybe(args.file.display().to_string(), e.to_string(), 0.0), args.format));
        }
        e.exit_code
    })
}

/// Run the proof in a worker process (this executable, same arguments) and
/// relay its output. Z3 can abort the whole process (an uncaught C++
/// exception, a failed thread creation under a memory limit) and a solver
/// call can overrun the time limit; a supervisor turns both into a MAYBE on
/// time instead of a crash or a late answer. `None` when no worker can be
/// started (the proof then runs in this process).
fn supervise(args: &ProveArgs) -> Option<i32> {
    use std::io::Read;
    let start = Instant::now();
    let exe = std::env::current_exe().ok()?;
    let mut child = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(WORKER_ENV, "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    let limit = Duration::from_secs_f64(effective_timeout(args.timeout) + 1.0);
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break None,
        }
    };
    let out = reader.join().unwrap_or_default();
    let maybe = |reason: String| {
        let outcome = Outcome::maybe(args.file.display().to_string(), reason, start.elapsed().as_secs_f64());
        print!("{}", report::render(&outcome, args.format));
        0
    };
    Some(match status {
        Some(st) if st.code().is_some() && !out.is_empty() => {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&out);
            st.code().unwrap_or(1)
        }
        Some(st) if st.code().is_some() => st.code().unwrap_or(1),
        Some(st) => maybe(format!("the solver process died ({st}); no answer")),
        None => maybe(format!("time limit: no answer within {:.0} s", effective_timeout(args.timeout))),
    })
}

fn effective_timeout(t: f64) -> f64 {
    if t.is_finite() && t > 0.0 {
        t
    } else {
        60.0
    }
}

fn prove_here(args: ProveArgs) -> i32 {
    let start = Instant::now();
    let file = args.file.display().to_string();
    let program = match crate::c::parse_file_with(&args.file, args.ints.into(), crate::ir::MachineModel::of(args.data_model.into()), args.external_calls.into()) {
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
    let timeout = effective_timeout(args.timeout);
    let elapsed = start.elapsed().as_secs_f64();
    let opts = ProveOptions {
        strategy: args.strategy,
        timeout: Duration::from_secs_f64((timeout - elapsed - 0.2).max(0.1)),
        engine: args.engine.into(),
        emit_horn: args.emit_horn,
        verbose: args.verbose,
        ..ProveOptions::default()
    };
    let mut outcome = prove_program(&program, &opts);
    outcome.seconds = start.elapsed().as_secs_f64();
    if let Some(path) = &args.witness {
        if let Err(e) = report::witness::write(&program, &outcome, path) {
            eprintln!("{e}");
        }
    }
    print!("{}", report::render(&outcome, args.format));
    0
}
