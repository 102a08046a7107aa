//! Command-line subcommands, one file each; `main.rs` only dispatches.
//! Each file has a clap `Args` struct and `run(args) -> exit code`.

pub mod bench;
pub mod args;
pub mod emit;
pub mod prove;
pub mod solve;
pub mod supervise;
