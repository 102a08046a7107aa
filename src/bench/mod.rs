//! `tessera bench`: runs every task of a verdict index as a separate child
//! process under time and memory limits, scores the answers against the
//! expected verdicts (SV-COMP points for termination, solve counts for CHC),
//! optionally races Z3 on the same CHC files, and writes the scoreboard.
//!
//! Stages, one file each: `index` (read the verdict list) -> `runner`
//! (worker pool, command lines) -> `child` (one limited process) ->
//! `outcome` (answer and status of one run) -> `score` (counts, points,
//! times) -> `scoreboard` / `cactus` (what the user reads).
//!
//! Output folder contents: `results.json` (everything), `results.csv` (one
//! line per task), `scoreboard.md` (the Markdown section), `cactus.svg`,
//! `logs/{tessera,z3}/<task path>.{stdout,stderr}`.

pub mod cactus;
pub mod child;
pub mod index;
pub mod machine;
pub mod outcome;
pub mod progress;
pub mod runner;
pub mod score;
pub mod scoreboard;

use crate::error::{Result, TesseraError};
use cactus::{write_cactus, CactusSeries};
use index::{Mode, VerdictIndex};
use machine::{Machine, UtcTime};
use outcome::Status;
use runner::{RunSettings, ToolCommand};
use scoreboard::{ReportedSettings, Scoreboard};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Environment variable that replaces the prover's command line, like
/// `--tool-command` (used by tests and for trying other tools).
pub const TOOL_COMMAND_ENV: &str = "TESSERA_BENCH_TOOL_COMMAND";

/// The options of `tessera bench` once parsed.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub index: PathBuf,
    pub time_limit_seconds: f64,
    /// Seconds between the time limit and the hard kill; default 2 s + 10 %.
    pub grace_seconds: Option<f64>,
    pub jobs: Option<usize>,
    pub memory_mb: u64,
    pub ints: Option<String>,
    pub external_calls: Option<String>,
    pub allocation: Option<String>,
    pub strategy: Option<String>,
    pub engine: Option<String>,
    pub out: Option<PathBuf>,
    pub filter: Option<String>,
    pub int_only: bool,
    pub vs_z3: bool,
    /// A stand-in for the prover (see `runner::ToolCommand::Template`).
    pub tool_command: Option<String>,
    /// Z3's command line, default `z3 -T:{timeout_int} {file}`.
    pub z3_command: Option<String>,
}

/// A finished run: the scoreboard and where its files are.
pub struct BenchRun {
    pub scoreboard: Scoreboard,
    pub out_dir: PathBuf,
}

/// Why a benchmark run could not be made.
#[derive(Debug)]
pub enum BenchError {
    /// Options that contradict each other or the index (exit code 2, as
    /// for other command-line mistakes).
    Usage(String),
    /// An unreadable or malformed index, an unwritable output folder.
    Tessera(TesseraError),
}

impl BenchError {
    pub fn exit_code(&self) -> i32 {
        match self {
            BenchError::Usage(_) => 2,
            BenchError::Tessera(e) => e.exit_code(),
        }
    }
}

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BenchError::Usage(m) => write!(f, "{m}"),
            BenchError::Tessera(e) => write!(f, "{e}"),
        }
    }
}

impl From<TesseraError> for BenchError {
    fn from(e: TesseraError) -> Self {
        BenchError::Tessera(e)
    }
}

fn usage(message: impl Into<String>) -> BenchError {
    BenchError::Usage(message.into())
}

fn io_error(path: &Path, e: impl std::fmt::Display) -> TesseraError {
    TesseraError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// Reads the index (or the task definitions below a folder) and applies
/// `--filter` and `--int-only`.
pub fn select_tasks(options: &BenchOptions) -> Result<VerdictIndex> {
    let mut index = if options.index.is_dir() {
        VerdictIndex::from_task_folder(&options.index)?
    } else {
        VerdictIndex::load(&options.index)?
    };
    if let Some(needle) = &options.filter {
        index.retain_path_containing(needle);
    }
    if options.int_only {
        index.retain_int_only()?;
    }
    Ok(index)
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

fn words(command: &str) -> Vec<String> {
    command.split_whitespace().map(String::from).collect()
}

fn run_settings(
    options: &BenchOptions,
    mode: Mode,
    out_dir: &Path,
) -> std::result::Result<(RunSettings, Option<String>), BenchError> {
    let limit = options.time_limit_seconds;
    if !(limit.is_finite() && limit > 0.0) {
        return Err(usage(format!(
            "--timeout must be a positive number of seconds, not {limit}"
        )));
    }
    if options.memory_mb == 0 {
        return Err(usage("--memory must be at least 1 MB"));
    }
    let grace = options.grace_seconds.unwrap_or(2.0 + 0.1 * limit);
    if !(grace.is_finite() && grace >= 0.0) {
        return Err(usage(format!(
            "--grace must be a non-negative number of seconds, not {grace}"
        )));
    }
    let stand_in = options
        .tool_command
        .clone()
        .or_else(|| std::env::var(TOOL_COMMAND_ENV).ok());
    let tool = match &stand_in {
        Some(c) if !words(c).is_empty() => ToolCommand::Template(words(c)),
        Some(_) => return Err(usage("the tool command is empty")),
        None => ToolCommand::Tessera(
            std::env::current_exe()
                .map_err(|e| TesseraError::Internal(format!("cannot find this executable: {e}")))?,
        ),
    };
    let z3 = if options.vs_z3 {
        if mode != Mode::Chc {
            return Err(usage(
                "--vs-z3 compares CHC solving; this index lists C termination tasks",
            ));
        }
        let command = words(
            options
                .z3_command
                .as_deref()
                .unwrap_or("z3 -T:{timeout_int} {file}"),
        );
        let program = command.first().cloned().unwrap_or_default();
        if find_on_path(&program).is_none() {
            return Err(usage(format!(
                "--vs-z3 needs the `{program}` binary (e.g. `apt-get install -y z3`)"
            )));
        }
        Some(command)
    } else {
        None
    };
    let settings = RunSettings {
        time_limit: Duration::from_secs_f64(limit),
        grace: Duration::from_secs_f64(grace),
        memory_mb: options.memory_mb,
        jobs: options.jobs.unwrap_or_else(machine::cores).max(1),
        ints: options.ints.clone(),
        external_calls: options.external_calls.clone(),
        allocation: options.allocation.clone(),
        strategy: options.strategy.clone(),
        engine: options.engine.clone(),
        tool,
        z3,
        log_dir: Some(out_dir.join("logs")),
    };
    Ok((settings, stand_in))
}

/// Options that do not apply to the index's mode, to warn about.
pub fn ignored_options(options: &BenchOptions, mode: Mode) -> Vec<&'static str> {
    let mut ignored = Vec::new();
    match mode {
        Mode::Termination => {
            if options.engine.is_some() {
                ignored.push("--engine (CHC indexes only)");
            }
        }
        Mode::Chc => {
            if options.ints.is_some() {
                ignored.push("--ints (C indexes only)");
            }
            if options.strategy.is_some() {
                ignored.push("--strategy (C indexes only)");
            }
            if options.external_calls.is_some() {
                ignored.push("--external-calls (C indexes only)");
            }
            if options.allocation.is_some() {
                ignored.push("--allocation (C indexes only)");
            }
        }
    }
    ignored
}

/// Runs the selected tasks and writes the result files into the output folder.
pub fn run(
    options: &BenchOptions,
    index: &VerdictIndex,
) -> std::result::Result<BenchRun, BenchError> {
    let now = UtcTime::now();
    let out_dir = options
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("bench-out").join(now.compact()));
    let (settings, stand_in) = run_settings(options, index.mode, &out_dir)?;
    std::fs::create_dir_all(&out_dir).map_err(|e| BenchError::from(io_error(&out_dir, e)))?;
    let tasks = runner::run_all(&settings, index);
    let reported = ReportedSettings {
        time_limit_seconds: options.time_limit_seconds,
        memory_limit_mb: options.memory_mb,
        jobs: settings.jobs,
        ints: options.ints.clone(),
        strategy: options.strategy.clone(),
        engine: options.engine.clone(),
        filter: options.filter.clone(),
        int_only: options.int_only,
        vs_z3: options.vs_z3,
        tool_command: stand_in,
    };
    let scoreboard = Scoreboard::new(
        now.minute_stamp(),
        Machine::this(),
        options.index.display().to_string(),
        index.mode,
        index.has_categories,
        reported,
        tasks,
    );
    write_outputs(&scoreboard, &out_dir, settings.time_limit.as_secs_f64())?;
    Ok(BenchRun {
        scoreboard,
        out_dir,
    })
}

fn write_outputs(board: &Scoreboard, out_dir: &Path, time_limit: f64) -> Result<()> {
    let write = |name: &str, text: &str| {
        let p = out_dir.join(name);
        std::fs::write(&p, text).map_err(|e| io_error(&p, e))
    };
    write("results.json", &board.json())?;
    write("results.csv", &board.csv())?;
    write("scoreboard.md", &board.markdown())?;
    let correct_times =
        |pick: &dyn Fn(&runner::TaskResult) -> Option<&outcome::RunRecord>| -> Vec<f64> {
            board
                .tasks
                .iter()
                .filter_map(pick)
                .filter(|r| r.status == Status::Correct)
                .map(|r| r.wall_seconds)
                .collect()
        };
    let mut series = vec![CactusSeries {
        name: "tessera",
        times: correct_times(&|t| Some(&t.tessera)),
    }];
    if board.z3.is_some() {
        series.push(CactusSeries {
            name: "z3",
            times: correct_times(&|t| t.z3.as_ref()),
        });
    }
    let title = format!(
        "{} ({} tasks, {} s limit)",
        board.index,
        board.tasks.len(),
        time_limit
    );
    let svg = out_dir.join("cactus.svg");
    write_cactus(&svg, &title, &series, time_limit).map_err(|e| io_error(&svg, e))
}
