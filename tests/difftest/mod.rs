//! Differential testing of Tessera against gcc-compiled runs.
//!
//! * `gen_program` builds a small random C program (lines of text).  Lines that
//!   contain `__dt_` are oracle instrumentation (state snapshots at every loop
//!   head, label and function entry); they are stripped for Tessera.
//! * `oracle` compiles the instrumented program with gcc and the sanitizers and
//!   links `driver.c`, which enumerates every input vector (values from the
//!   program's small `__VERIFIER_assume` ranges) in forked children and detects
//!   non-termination by a repeated complete state within one run.
//! * `run_campaign` compares the oracle's verdict with `tessera prove`.
//!
//! Layout: `generator.rs` (random programs), `oracle.rs` (gcc runs of every
//! input vector), `minimize.rs` (shrinking a failure); this file holds the
//! shared types, the Tessera runner and the campaign.
#![allow(dead_code, unused_imports)]

mod generator;
mod minimize;
mod oracle;

pub use generator::{gen_program, Rng};
pub use minimize::minimize;
pub use oracle::{oracle, oracle_src, OracleResult, Verdict};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

// ---------------------------------------------------------------- programs

/// A generated program.
#[derive(Clone, Debug)]
pub struct Program {
    /// every line, instrumentation included (lines with `__dt_`)
    pub lines: Vec<String>,
    /// safe to compare under `--ints math` (only `int`/`_Bool` signed data, small literals)
    pub math_ok: bool,
    /// every value a nondet call may need (union of the assume ranges)
    pub domain: Vec<i64>,
    /// main takes argc: the oracle enumerates argc in 1..=3
    pub uses_argc: bool,
}

impl Program {
    /// The program Tessera sees: instrumentation stripped.
    pub fn clean(&self) -> String {
        strip(&self.lines)
    }
    pub fn instrumented(&self) -> String {
        let mut s = String::new();
        for l in &self.lines {
            s.push_str(l);
            s.push('\n');
        }
        s
    }
}

pub fn strip(lines: &[String]) -> String {
    let mut s = String::new();
    for l in lines {
        if !l.contains("__dt_") {
            s.push_str(l);
            s.push('\n');
        }
    }
    s
}

// ---------------------------------------------------------------- environment

pub struct Env {
    pub tessera: PathBuf,
    pub work: PathBuf,
    pub driver_o: PathBuf,
    pub modes: Vec<&'static str>,
    pub timeout: f64,
}

pub fn setup(tessera: &str, work: &Path) -> Env {
    std::fs::create_dir_all(work).unwrap();
    let driver_c = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/difftest/driver.c");
    let driver_o = work.join("driver.o");
    let st = Command::new("gcc").args(["-O1", "-c"]).arg(&driver_c).arg("-o").arg(&driver_o).status().expect("gcc");
    assert!(st.success(), "cannot compile the oracle driver");
    let help = Command::new(tessera).args(["prove", "--help"]).output().expect("tessera prove --help");
    let help = String::from_utf8_lossy(&help.stdout).to_string();
    let mut modes = vec!["machine", "math"];
    if help.lines().any(|l| l.trim_start().starts_with("- c:") || l.trim_start().starts_with("- c ")) {
        modes.push("c");
    }
    Env { tessera: PathBuf::from(tessera), work: work.to_path_buf(), driver_o, modes, timeout: 2.0 }
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

pub(crate) fn tmpdir(env: &Env) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let d = env.work.join(format!("p{}-{}", std::process::id(), n));
    std::fs::create_dir_all(&d).unwrap();
    d
}

// ---------------------------------------------------------------- tessera

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Answer {
    Yes,
    No,
    Maybe,
}

pub fn tessera(env: &Env, src: &str, mode: &str) -> Answer {
    let d = tmpdir(env);
    let c = d.join("prog.c");
    std::fs::write(&c, src).unwrap();
    let out = Command::new(&env.tessera)
        .args(["prove", "--format", "json", "--ints", mode, "--timeout", &env.timeout.to_string()])
        .arg(&c)
        .stderr(Stdio::null())
        .output()
        .expect("run tessera");
    let _ = std::fs::remove_dir_all(&d);
    let s = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(&s).unwrap_or(serde_json::Value::Null);
    match v.get("answer").and_then(|a| a.as_str()) {
        Some("YES") => Answer::Yes,
        Some("NO") => Answer::No,
        _ => Answer::Maybe,
    }
}

fn is_wrong(v: Verdict, a: Answer) -> bool {
    (v == Verdict::Nonterminating && a == Answer::Yes) || (v == Verdict::Terminating && a == Answer::No)
}

// ---------------------------------------------------------------- campaign

#[derive(Default, Debug, Clone)]
pub struct Stats {
    pub programs: usize,
    pub terminating: usize,
    pub nonterminating: usize,
    pub undecided: usize,
    pub sanitizer: usize,
    pub compile_errors: usize,
    pub yes: usize,
    pub no: usize,
    pub maybe: usize,
    pub wrong_yes: usize,
    pub wrong_no: usize,
}

#[derive(Clone, Debug)]
pub struct Failure {
    pub idx: u64,
    pub mode: &'static str,
    pub verdict: Verdict,
    pub answer: Answer,
    pub program: Program,
}

/// Which modes apply to a program.
pub fn modes_for(env: &Env, p: &Program, all: bool, idx: u64) -> Vec<&'static str> {
    let mut ms: Vec<&'static str> = env.modes.iter().copied().filter(|m| *m != "math" || p.math_ok).collect();
    if !all && ms.len() > 1 {
        // the quick test proves each program under one semantics, rotating
        let m = ms[(idx as usize) % ms.len()];
        ms = vec![m];
    }
    ms
}

pub fn run_campaign(env: &Env, seed: u64, count: u64, jobs: usize, all_modes: bool, verbose: bool) -> (Stats, Vec<Failure>) {
    let next = AtomicUsize::new(0);
    let stats = Mutex::new(Stats::default());
    let fails = Mutex::new(Vec::new());
    let t0 = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst) as u64;
                if i >= count {
                    break;
                }
                let p = gen_program(seed, i);
                let o = oracle(env, &p);
                {
                    let mut st = stats.lock().unwrap();
                    st.programs += 1;
                    match o.verdict {
                        Verdict::Terminating => st.terminating += 1,
                        Verdict::Nonterminating => st.nonterminating += 1,
                        Verdict::Undecided => st.undecided += 1,
                        Verdict::Sanitizer => st.sanitizer += 1,
                        Verdict::CompileError => {
                            st.compile_errors += 1;
                            eprintln!("difftest: program {} does not compile: {}", i, o.summary);
                        }
                    }
                }
                if !matches!(o.verdict, Verdict::Terminating | Verdict::Nonterminating) {
                    continue;
                }
                let src = p.clean();
                for m in modes_for(env, &p, all_modes, i) {
                    let a = tessera(env, &src, m);
                    let wrong = is_wrong(o.verdict, a);
                    {
                        let mut st = stats.lock().unwrap();
                        match a {
                            Answer::Yes => st.yes += 1,
                            Answer::No => st.no += 1,
                            Answer::Maybe => st.maybe += 1,
                        }
                        if wrong && a == Answer::Yes {
                            st.wrong_yes += 1;
                        }
                        if wrong && a == Answer::No {
                            st.wrong_no += 1;
                        }
                    }
                    if wrong {
                        eprintln!("difftest: WRONG {:?} (--ints {}) on program {} (oracle: {:?}, {})\n{}", a, m, i, o.verdict, o.summary, src);
                        fails.lock().unwrap().push(Failure { idx: i, mode: m, verdict: o.verdict, answer: a, program: p.clone() });
                    }
                }
                if verbose && i % 100 == 0 {
                    eprintln!("difftest: {} programs, {:.0}s, {:?}", i, t0.elapsed().as_secs_f64(), stats.lock().unwrap());
                }
            });
        }
    });
    (stats.into_inner().unwrap(), fails.into_inner().unwrap())
}

// ---------------------------------------------------------------- minimizer

pub fn tessera_bin() -> &'static str {
    static B: OnceLock<String> = OnceLock::new();
    // TESSERA_BIN lets a long run use a fixed copy of the binary while the
    // tree is rebuilt.
    B.get_or_init(|| std::env::var("TESSERA_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_tessera").to_string()))
}
