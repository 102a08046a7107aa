//! `tessera bench` (stub: to be written).

#[derive(clap::Args, Debug)]
pub struct BenchArgs {}

pub fn run(_args: BenchArgs) -> i32 {
    eprintln!("tessera bench: not implemented yet");
    1
}
