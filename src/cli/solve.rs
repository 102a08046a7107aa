//! `tessera solve` (stub: to be written).

#[derive(clap::Args, Debug)]
pub struct SolveArgs {}

pub fn run(_args: SolveArgs) -> i32 {
    eprintln!("tessera solve: not implemented yet");
    1
}
