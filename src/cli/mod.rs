//! Command-line subcommands, one file each; `main.rs` only dispatches.
