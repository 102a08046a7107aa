//! The `tessera` command: dispatches to the subcommands in `tessera::cli`.

use clap::{Parser, Subcommand};
use tessera::cli;

/// The models, clauses and terms are many small allocations made and freed
/// by several threads; glibc's allocator spent half of `emit`'s time on
/// eca-rers2012's Problem04 in malloc, free and their consolidation.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Tessera proves that C programs terminate (YES, with a ranking function per
/// loop), or that they do not (NO, with a checked witness), or says MAYBE and
/// why. It also writes and solves SMT-LIB Horn clause files.
#[derive(Parser, Debug)]
#[command(name = "tessera", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Prove termination or non-termination of a C program.
    Prove(cli::prove::ProveArgs),
    /// Write the SMT-LIB Horn clauses of a C program (plain or instrumented).
    Emit(cli::emit::EmitArgs),
    /// Solve an SMT-LIB Horn clause file (CHC-COMP dialect).
    Solve(cli::solve::SolveArgs),
    /// Run a verdict index of benchmarks and score the answers.
    Bench(cli::bench::BenchArgs),
}

fn main() {
    let cli = Cli::parse();
    tessera::smt::silence_z3_warnings();
    let code = match cli.command {
        Command::Prove(a) => cli::prove::run(a),
        Command::Emit(a) => cli::emit::run(a),
        Command::Solve(a) => cli::solve::run(a),
        Command::Bench(a) => cli::bench::run(a),
    };
    // Threads that lost a race (a proof after a witness, execution beside
    // the proof, a solver call that cannot be interrupted) may still be
    // inside Z3 now. `exit` would run Z3's C++ static destructors under
    // them, and the worker then dies of SIGSEGV after its answer (seen on
    // 2 of about 50 runs of a driver answered NO in 0.2 s under load):
    // flush what was written and end the process without them.
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process at once; nothing runs after it.
    unsafe { libc::_exit(code) }
}
