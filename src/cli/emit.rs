//! `tessera emit` (stub: to be written).

#[derive(clap::Args, Debug)]
pub struct EmitArgs {}

pub fn run(_args: EmitArgs) -> i32 {
    eprintln!("tessera emit: not implemented yet");
    1
}
