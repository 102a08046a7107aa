//! `tessera prove` (stub: to be written).

#[derive(clap::Args, Debug)]
pub struct ProveArgs {}

pub fn run(_args: ProveArgs) -> i32 {
    eprintln!("tessera prove: not implemented yet");
    1
}
