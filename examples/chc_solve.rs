//! Solve one CHC-COMP file with one engine and validate the answer:
//! `chc_solve <pdr|bmc|spacer> <timeout-seconds> <file.smt2>` prints
//! `<sat|unsat|unknown> <seconds> <valid|INVALID|-> <reason>` on one line.
//! Used by `benchmarks/chc_vs_z3.sh`.

use std::time::{Duration, Instant};
use tessera::engine::bmc::Bmc;
use tessera::engine::pdr::Pdr;
use tessera::engine::spacer::Spacer;
use tessera::engine::validate::validate;
use tessera::engine::Engine;
use tessera::solve::{Budget, Verdict};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: chc_solve <pdr|bmc|spacer> <timeout-seconds> <file.smt2>");
        std::process::exit(2);
    }
    let engine: Box<dyn Engine> = match args[1].as_str() {
        "pdr" => Box::new(Pdr),
        "bmc" => Box::new(Bmc),
        "spacer" => Box::new(Spacer),
        other => {
            eprintln!("unknown engine {other}");
            std::process::exit(2);
        }
    };
    let secs: f64 = args[2].parse().unwrap_or(20.0);
    let text = match std::fs::read_to_string(&args[3]) {
        Ok(t) => t,
        Err(e) => {
            println!("unknown 0.000 - read error: {e}");
            return;
        }
    };
    let system = match tessera::horn::smtlib::parse_system(&text) {
        Ok(s) => s,
        Err(e) => {
            println!("unknown 0.000 - parse error: {}", e.replace('\n', " "));
            return;
        }
    };
    let start = Instant::now();
    let budget = Budget::with_timeout(Duration::from_secs_f64(secs));
    let verdict = engine.solve(&system, &budget);
    let took = start.elapsed().as_secs_f64();
    let check = match &verdict {
        Verdict::Unknown(_) => "-".to_string(),
        v => match validate(&system, v, &Budget::with_timeout(Duration::from_secs(60))) {
            Ok(()) => "valid".into(),
            Err(e) => format!("INVALID({})", e.replace(' ', "_")),
        },
    };
    let reason = match &verdict {
        Verdict::Unknown(r) => r.replace('\n', " "),
        _ => String::new(),
    };
    println!("{} {took:.3} {check} {reason}", verdict.word());
}
