//! `tessera prove FILE.c`: YES (with a ranking function per loop), NO (with
//! a checked non-termination witness) or MAYBE (with the reason).

use crate::engine::EngineKind;
use crate::ir::IntSemantics;
use crate::report::{self, Format};
use crate::termination::{prove_program, Answer, Outcome, ProveOptions, Strategy};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ints {
    /// x86-64 LP64 machine integers: values in their type's range, wrap-around.
    Machine,
    /// Signed integers are unbounded mathematical integers; unsigned still wrap.
    Math,
}

impl From<Ints> for IntSemantics {
    fn from(i: Ints) -> Self {
        match i {
            Ints::Machine => IntSemantics::Machine,
            Ints::Math => IntSemantics::Math,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineArg {
    Pdr,
    Spacer,
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
    /// The C program (preprocessed with `gcc -E`; `main` is the entry point).
    pub file: PathBuf,
    /// Integer semantics.
    #[arg(long, value_enum, default_value = "machine")]
    pub ints: Ints,
    /// How ranking-function pieces are combined; `portfolio` races the three.
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
}

pub fn run(args: ProveArgs) -> i32 {
    let start = Instant::now();
    let file = args.file.display().to_string();
    let program = match crate::c::parse_file(&args.file, args.ints.into()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            let outcome = Outcome {
                answer: Answer::Maybe { reason: e.to_string() },
                file,
                seconds: start.elapsed().as_secs_f64(),
                encoding: None,
                queries: 0,
            };
            if args.format != Format::Text {
                print!("{}", report::render(&outcome, args.format));
            }
            return e.exit_code();
        }
    };
    let timeout = if args.timeout.is_finite() && args.timeout > 0.0 { args.timeout } else { 60.0 };
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
    print!("{}", report::render(&outcome, args.format));
    0
}
