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

pub use generator::{gen_program, gen_program_with, meaning_pct, Class, Rng, Shape};
pub use minimize::minimize;
pub use oracle::{oracle, oracle_src, oracle_src_opts, OracleOpts, OracleResult, Verdict};

use std::collections::BTreeMap;
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
    /// the new shapes this program contains (`Shape::name`)
    pub shapes: Vec<&'static str>,
    /// calls functions the program declares but does not define; the oracle
    /// links one definition per behaviour, so only a YES against a run that
    /// never ends is a wrong answer (another definition could loop)
    pub external: bool,
    /// has code outside main's control flow (constructors, destructors,
    /// loader sections; meaning.rs): the oracle links the driver that runs
    /// them in each child (`driver.c`, `DT_OUTSIDE_MAIN`)
    pub outside_main: bool,
    /// compares addresses C leaves unspecified (meaning.rs): the oracle
    /// also runs gcc -O0 and -O2 builds without sanitizers, and where they
    /// disagree the verdict is `Unspecified`
    pub unspecified: bool,
}

impl Program {
    /// The program Tessera sees: instrumentation stripped.
    pub fn clean(&self) -> String {
        strip(&self.lines)
    }
    /// How the oracle builds and runs this program.
    pub fn oracle_opts(&self) -> OracleOpts {
        OracleOpts { outside_main: self.outside_main, plain: self.unspecified }
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
    /// the driver built with -DDT_OUTSIDE_MAIN (programs with constructors, destructors)
    pub driver_outside_o: PathBuf,
    pub modes: Vec<&'static str>,
    pub timeout: f64,
}

pub fn setup(tessera: &str, work: &Path) -> Env {
    std::fs::create_dir_all(work).unwrap();
    let driver_c = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/difftest/driver.c");
    let driver_o = work.join("driver.o");
    let st = Command::new("gcc").args(["-O1", "-c"]).arg(&driver_c).arg("-o").arg(&driver_o).status().expect("gcc");
    assert!(st.success(), "cannot compile the oracle driver");
    let driver_outside_o = work.join("driver-outside.o");
    let st = Command::new("gcc").args(["-O1", "-DDT_OUTSIDE_MAIN", "-c"]).arg(&driver_c).arg("-o").arg(&driver_outside_o).status().expect("gcc");
    assert!(st.success(), "cannot compile the oracle driver (outside main)");
    let help = Command::new(tessera).args(["prove", "--help"]).output().expect("tessera prove --help");
    let help = String::from_utf8_lossy(&help.stdout).to_string();
    let mut modes = vec!["machine", "math"];
    if help.lines().any(|l| l.trim_start().starts_with("- c:") || l.trim_start().starts_with("- c ")) {
        modes.push("c");
    }
    Env { tessera: PathBuf::from(tessera), work: work.to_path_buf(), driver_o, driver_outside_o, modes, timeout: 2.0 }
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
    tessera_run(env, src, mode).0
}

/// The answer, and whether Tessera rejected the input (exit code 3, a syntax
/// error or an invalid program; 4, an unsupported construct).
pub fn tessera_run(env: &Env, src: &str, mode: &str) -> (Answer, bool) {
    let d = tmpdir(env);
    let c = d.join("prog.c");
    std::fs::write(&c, src).unwrap();
    let out = Command::new(&env.tessera)
        .args(["prove", "--format", "json", "--ints", mode, "--allocation", "never-fails", "--timeout", &env.timeout.to_string()])
        .arg(&c)
        .stderr(Stdio::null())
        .output()
        .expect("run tessera");
    let _ = std::fs::remove_dir_all(&d);
    let s = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(&s).unwrap_or(serde_json::Value::Null);
    let a = match v.get("answer").and_then(|a| a.as_str()) {
        Some("YES") => Answer::Yes,
        Some("NO") => Answer::No,
        _ => Answer::Maybe,
    };
    (a, matches!(out.status.code(), Some(3) | Some(4)))
}

/// A YES where some run never ends, or a NO where every run ends.  For a
/// program calling external functions the oracle ran one family of
/// definitions only; another definition could loop, so only the YES counts.
/// Where gcc's -O0 and -O2 builds disagree (`Unspecified`: C leaves the
/// outcome open), only MAYBE is right (a NO with external calls excepted, as
/// above).
pub fn is_wrong(v: Verdict, a: Answer, external: bool) -> bool {
    (v == Verdict::Nonterminating && a == Answer::Yes)
        || (!external && v == Verdict::Terminating && a == Answer::No)
        || (v == Verdict::Unspecified && (a == Answer::Yes || (!external && a == Answer::No)))
}

// ---------------------------------------------------------------- campaign

/// What a campaign found, over all programs and per shape.
#[derive(Default, Debug, Clone)]
pub struct Stats {
    pub total: Counts,
    /// per new shape (`Shape::name`): the same figures over the programs containing it
    pub shapes: BTreeMap<&'static str, Counts>,
}

/// The figures of a set of programs: the oracle's verdicts and Tessera's answers.
#[derive(Default, Debug, Clone)]
pub struct Counts {
    pub programs: usize,
    pub terminating: usize,
    pub nonterminating: usize,
    pub undecided: usize,
    /// gcc -O0 and -O2 builds disagree (meaning shapes; only MAYBE is right)
    pub unspecified: usize,
    pub sanitizer: usize,
    pub compile_errors: usize,
    pub yes: usize,
    pub no: usize,
    pub maybe: usize,
    /// Tessera rejected the input (exit code 3 or 4; counted in `maybe` too)
    pub rejected: usize,
    pub wrong_yes: usize,
    pub wrong_no: usize,
    /// NO on a program with external calls whose oracle runs all end (not wrong)
    pub no_external: usize,
}

impl Counts {
    fn count_verdict(&mut self, v: Verdict) {
        self.programs += 1;
        match v {
            Verdict::Terminating => self.terminating += 1,
            Verdict::Nonterminating => self.nonterminating += 1,
            Verdict::Undecided => self.undecided += 1,
            Verdict::Unspecified => self.unspecified += 1,
            Verdict::Sanitizer => self.sanitizer += 1,
            Verdict::CompileError => self.compile_errors += 1,
        }
    }

    fn count_answer(&mut self, a: Answer, rejected: bool, wrong: bool, excused: bool) {
        match a {
            Answer::Yes => self.yes += 1,
            Answer::No => self.no += 1,
            Answer::Maybe => self.maybe += 1,
        }
        self.rejected += rejected as usize;
        self.wrong_yes += (wrong && a == Answer::Yes) as usize;
        self.wrong_no += (wrong && a == Answer::No) as usize;
        self.no_external += excused as usize;
    }

    /// One line (progress reports).
    pub fn short(&self) -> String {
        format!(
            "programs {} (term {} / nonterm {} / undecided {} / unspecified {} / sanitizer {} / compile errors {}), YES/NO/MAYBE {}/{}/{}, wrong YES {}, wrong NO {}",
            self.programs, self.terminating, self.nonterminating, self.undecided, self.unspecified, self.sanitizer, self.compile_errors, self.yes, self.no, self.maybe, self.wrong_yes, self.wrong_no
        )
    }
}

impl Stats {
    /// Counts a program's oracle verdict, in the total and in its shapes.
    fn count_verdict(&mut self, shapes: &[&'static str], v: Verdict) {
        self.total.count_verdict(v);
        for sh in shapes {
            self.shapes.entry(sh).or_default().count_verdict(v);
        }
    }

    /// Counts one answer of Tessera, in the total and in the program's shapes.
    fn count_answer(&mut self, shapes: &[&'static str], a: Answer, rejected: bool, wrong: bool, excused: bool) {
        self.total.count_answer(a, rejected, wrong, excused);
        for sh in shapes {
            self.shapes.entry(sh).or_default().count_answer(a, rejected, wrong, excused);
        }
    }

    /// One line, shapes omitted (progress reports).
    pub fn short(&self) -> String {
        self.total.short()
    }
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
    run_campaign_with(env, seed, count, jobs, all_modes, verbose, generator::shape_pct())
}

/// `run_campaign` with each new shape in `shape_pct` percent of the programs.
pub fn run_campaign_with(env: &Env, seed: u64, count: u64, jobs: usize, all_modes: bool, verbose: bool, shape_pct: u64) -> (Stats, Vec<Failure>) {
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
                let p = gen_program_with(seed, i, shape_pct);
                let o = oracle(env, &p);
                if o.verdict == Verdict::CompileError {
                    eprintln!("difftest: program {} does not compile: {}", i, o.summary);
                }
                stats.lock().unwrap().count_verdict(&p.shapes, o.verdict);
                if !matches!(o.verdict, Verdict::Terminating | Verdict::Nonterminating | Verdict::Unspecified) {
                    continue;
                }
                let src = p.clean();
                for m in modes_for(env, &p, all_modes, i) {
                    let (a, rejected) = tessera_run(env, &src, m);
                    let wrong = is_wrong(o.verdict, a, p.external);
                    let excused = p.external && o.verdict == Verdict::Terminating && a == Answer::No;
                    stats.lock().unwrap().count_answer(&p.shapes, a, rejected, wrong, excused);
                    if wrong {
                        eprintln!("difftest: WRONG {:?} (--ints {}) on program {} [{}] (oracle: {:?}, {})\n{}", a, m, i, p.shapes.join(", "), o.verdict, o.summary, src);
                        fails.lock().unwrap().push(Failure { idx: i, mode: m, verdict: o.verdict, answer: a, program: p.clone() });
                    }
                }
                if verbose && i % 100 == 0 {
                    eprintln!("difftest: {} programs, {:.0}s, {}", i, t0.elapsed().as_secs_f64(), stats.lock().unwrap().short());
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
