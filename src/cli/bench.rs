//! `tessera bench INDEX.tsv|DIR`: run a verdict index (or every SV-COMP
//! task definition with a termination verdict below a folder) and print the
//! scoreboard.
//!
//! Exit codes: 0 the run finished without wrong answers; 2 the run finished
//! and Tessera gave at least one WRONG answer (or the options were
//! contradictory); 3/5 the index is malformed / unreadable.

use super::args::Ints;
use crate::bench::{self, BenchOptions};
use clap::ValueEnum;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Verdict index: tab-separated, header line, columns `relative_path`
    /// and `expected` (terminating|nonterminating or sat|unsat), optional
    /// `category` and `data_model` (ILP32|LP64); paths are relative to the
    /// index's folder. Or a folder: every SV-COMP task definition (`*.yml`)
    /// below it with a termination verdict, run with its own data model,
    /// category = its folder.
    pub index: PathBuf,
    /// Time limit per task in seconds (handed to the prover; the process is
    /// killed a little later).
    #[arg(long, default_value_t = 30.0)]
    pub timeout: f64,
    /// Tasks run in parallel (default: number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Integer semantics for C tasks (default: the prover's).
    #[arg(long, value_enum)]
    pub ints: Option<Ints>,
    /// What calls of functions without a definition may change, for C
    /// tasks (`any` or `arguments`, passed to `tessera prove --external-calls`).
    #[arg(long)]
    pub external_calls: Option<String>,
    /// Whether allocations may fail, for C tasks (`may-fail` or
    /// `never-fails`, passed to `tessera prove --allocation`; SV-COMP's
    /// labels assume `never-fails`, which a task definition implies).
    #[arg(long)]
    pub allocation: Option<String>,
    /// Ranking strategy for C tasks, passed to `tessera prove --strategy`.
    #[arg(long)]
    pub strategy: Option<String>,
    /// Engine for CHC tasks, passed to `tessera solve --engine`.
    #[arg(long)]
    pub engine: Option<String>,
    /// Output folder (default: bench-out/<UTC timestamp>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Address-space limit per task in MB (virtual memory: solver threads
    /// reserve much more than they use).
    #[arg(long, default_value_t = 8192)]
    pub memory: u64,
    /// Only tasks whose path contains this text.
    #[arg(long)]
    pub filter: Option<String>,
    /// Print the scoreboard as a Markdown section (date, machine) instead of
    /// the plain table.
    #[arg(long)]
    pub markdown: bool,
    /// CHC indexes: also run `z3` on every file and compare.
    #[arg(long)]
    pub vs_z3: bool,
    /// Only tasks marked `int_only` = 1 (in the index or an adjacent details.tsv).
    #[arg(long)]
    pub int_only: bool,
    /// Stand-in for the prover: words with `{file}` and `{timeout}` replaced
    /// (also from TESSERA_BENCH_TOOL_COMMAND). For tests.
    #[arg(long, hide = true)]
    pub tool_command: Option<String>,
    /// Z3's command line, default `z3 -T:{timeout_int} {file}`.
    #[arg(long, hide = true)]
    pub z3_command: Option<String>,
    /// Seconds between the time limit and the hard kill (default 2 + 10 %).
    #[arg(long, hide = true)]
    pub grace: Option<f64>,
}

pub fn run(args: BenchArgs) -> i32 {
    let options = BenchOptions {
        index: args.index,
        time_limit_seconds: args.timeout,
        grace_seconds: args.grace,
        jobs: args.jobs,
        memory_mb: args.memory,
        ints: args.ints.and_then(|i| i.to_possible_value()).map(|v| v.get_name().to_string()),
        external_calls: args.external_calls,
        allocation: args.allocation,
        strategy: args.strategy,
        engine: args.engine,
        out: args.out,
        filter: args.filter,
        int_only: args.int_only,
        vs_z3: args.vs_z3,
        tool_command: args.tool_command,
        z3_command: args.z3_command,
    };
    let index = match bench::select_tasks(&options) {
        Ok(index) => index,
        Err(e) => {
            eprintln!("tessera bench: {e}");
            return e.exit_code();
        }
    };
    for note in &index.notes {
        eprintln!("tessera bench: {note}");
    }
    if index.tasks.is_empty() {
        eprintln!(
            "tessera bench: no task of {} is selected (check --filter / --int-only)",
            options.index.display()
        );
        return 2;
    }
    for ignored in bench::ignored_options(&options, index.mode) {
        eprintln!("tessera bench: ignoring {ignored}");
    }
    let done = match bench::run(&options, &index) {
        Ok(done) => done,
        Err(e) => {
            eprintln!("tessera bench: {e}");
            return e.exit_code();
        }
    };
    let board = &done.scoreboard;
    if args.markdown {
        print!("{}", board.markdown());
    } else {
        print!("{}", board.text());
    }
    eprintln!(
        "tessera bench: results in {} (results.json, results.csv, scoreboard.md, cactus.svg, logs/)",
        done.out_dir.display()
    );
    if board.tessera_wrong() > 0 {
        eprintln!(
            "tessera bench: {} WRONG ANSWER(S) -- see the list above",
            board.tessera_wrong()
        );
        return 2;
    }
    0
}
