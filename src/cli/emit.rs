//! `tessera emit FILE.c`: the SMT-LIB Horn clauses of a program, plain
//! (is the exit reachable?) or instrumented for one loop and one candidate.

use super::args::ModelArgs;
use crate::horn::encode::encode;
use crate::instrument::{instrument, Mode};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instrumentation {
    /// T_term: unsafe iff a terminating run needs more iterations than the candidate.
    Term,
    /// T_rank: safe iff the candidate bounds the iterations of every run.
    Rank,
}

#[derive(clap::Args, Debug)]
pub struct EmitArgs {
    /// The C program or integer transition system, or an SV-COMP task
    /// definition (`.yml`): its C file with its data model.
    pub file: PathBuf,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Print the program model (control-flow graph, loops) instead of Horn clauses.
    #[arg(long)]
    pub ir: bool,
    /// Print an integer transition system in the ARI form (the termination
    /// competition's format since 2025) instead of Horn clauses.
    #[arg(long, conflicts_with_all = ["ir", "loop", "unsliced"])]
    pub ari: bool,
    /// The loop to instrument, numbered as `--ir` shows them.
    #[arg(long)]
    pub r#loop: Option<usize>,
    /// Which instrumentation to apply to `--loop`.
    #[arg(long, value_enum, requires = "loop")]
    pub instrument: Option<Instrumentation>,
    /// Candidate ranking function, e.g. `21 - x`, `max(21 - x, x + 1, -x)`,
    /// `lex(x, y)`, `phases(y, x)` (default: the constant 0).
    #[arg(long, requires = "instrument")]
    pub rank: Option<String>,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Encode the whole program model: by default the clauses are those the
    /// prover solves, over the model sliced to the variables that can
    /// influence control flow, where a run ends as soon as no loop is left
    /// ahead of it (on large programs the whole model's clauses can take
    /// gigabytes).
    #[arg(long)]
    pub unsliced: bool,
}

pub fn run(mut args: EmitArgs) -> i32 {
    if let Err(e) = args.model.resolve_task(&mut args.file) {
        eprintln!("{e}");
        return e.exit_code;
    }
    if args.ari {
        return match crate::its::read_problem(&args.file) {
            Some(Ok(p)) => {
                let text = crate::its::ari::print(&p);
                write_out(|w: &mut dyn Write| write!(w, "{text}"), &args.output)
            }
            Some(Err(e)) => {
                eprintln!("{e}");
                e.exit_code()
            }
            None => {
                eprintln!("{}: --ari: not an integer transition system (SMT-LIB or ARI form)", args.file.display());
                2
            }
        };
    }
    let program = match args.model.session().parse(&args.file) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return e.exit_code();
        }
    };
    let program = if args.unsliced { program } else { crate::termination::solved_model(program) };
    // What is written is large on real programs (tens of megabytes of
    // clauses): it is streamed to the output, and neither it nor the model
    // is taken apart afterwards (the process ends; freeing took a tenth of
    // the time).
    let text: Box<dyn std::fmt::Display> = if args.ir {
        Box::new(program)
    } else {
        let mut enc = match encode(&program) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("{e}");
                return e.exit_code();
            }
        };
        match (args.r#loop, args.instrument) {
            (Some(l), Some(which)) => {
                if l >= enc.loops.len() {
                    eprintln!("{}: no loop {l} (the program has {} loops; see --ir)", args.file.display(), enc.loops.len());
                    return 2;
                }
                let candidate = match &args.rank {
                    Some(r) => match crate::ranking::parse_candidate(r) {
                        Ok(c) => c,
                        Err(e) => {
                            eprintln!("--rank: {e}");
                            return 2;
                        }
                    },
                    None => crate::ranking::RankingCandidate::zero(crate::ranking::Combination::Piecewise),
                };
                let scheme = crate::termination::scheme_of(&candidate);
                let mode = match which {
                    Instrumentation::Term => Mode::Term,
                    Instrumentation::Rank => Mode::Rank,
                };
                let system = instrument(&enc, l, &scheme, mode).system;
                std::mem::forget(enc);
                std::mem::forget(program);
                Box::new(system)
            }
            (Some(_), None) => {
                eprintln!("--loop needs --instrument term|rank");
                return 2;
            }
            _ => {
                std::mem::forget(program);
                // Each clause is made as it is written (see
                // `write_emitted`).
                let code = write_out(|w: &mut dyn Write| enc.write_emitted(w), &args.output);
                std::mem::forget(enc);
                return code;
            }
        }
    };
    let code = write_out(|w: &mut dyn Write| write!(w, "{text}"), &args.output);
    std::mem::forget(text);
    code
}

/// Writes what `write` writes to `output` (standard output when `None`);
/// the exit code.
fn write_out(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>, output: &Option<PathBuf>) -> i32 {
    let written = match output {
        Some(path) => std::fs::File::create(path).and_then(|f| {
            let mut w = std::io::BufWriter::new(f);
            write(&mut w)?;
            w.flush()
        }),
        None => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            write(&mut w).and_then(|_| w.flush())
        }
    };
    match (written, output) {
        (Err(e), Some(path)) => {
            eprintln!("{}: cannot write: {e}", path.display());
            5
        }
        // A closed pipe (`tessera emit ... | head`) is not an error.
        (Err(e), None) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        (Err(e), None) => {
            eprintln!("cannot write to standard output: {e}");
            5
        }
        (Ok(()), _) => 0,
    }
}
