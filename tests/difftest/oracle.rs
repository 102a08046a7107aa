//! Oracle: compiles the instrumented program with gcc and the sanitizers,
//! links `driver.c`, which enumerates every input vector (values from the
//! program's small `__VERIFIER_assume` ranges) in forked children and detects
//! non-termination by a repeated complete state within one run.
//!
//! Programs with a meaning shape of issue 55 (`generator/meaning.rs`) are
//! built as `OracleOpts` says:
//!
//! * `outside_main` (constructors, destructors, `.init_array`,
//!   `.fini_array`): the driver built with `-DDT_OUTSIDE_MAIN`, which
//!   enumerates in a constructor of priority 101 and lets each child run the
//!   program's constructors, `main`, then `exit` (destructors).
//! * `plain` (addresses of objects whose lifetimes do not overlap, adjacent
//!   objects, string literals sharing storage): what C leaves unspecified,
//!   and what AddressSanitizer changes (it quarantines freed blocks, puts
//!   redzones between objects and gives each literal its own). The
//!   sanitized build still runs first and sets programs with undefined
//!   behaviour aside; then the program is built without sanitizers at -O0
//!   and at -O2, and each build enumerates the inputs. Both terminating or
//!   both non-terminating: that verdict; one of each: `Unspecified` (the
//!   outcome is the compiler's choice, so only MAYBE is right); else
//!   undecided. The sanitized build's own verdict is not used then (its
//!   layout is ASan's).
//!
//! `MIN / -1` and `MIN % -1` end the run (`__dt_divtrap`, before UBSan sees
//! the division: x86 traps there, C leaves it undefined), counted as an
//! ended run (`trap=` in the summary).

use super::{tmpdir, Env, Program};
use std::path::Path;
use std::process::{Command, Stdio};

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Verdict {
    Terminating,
    Nonterminating,
    Undecided,
    /// gcc -O0 and -O2 builds without sanitizers disagree (`OracleOpts::plain`)
    Unspecified,
    Sanitizer,
    CompileError,
}

pub struct OracleResult {
    pub verdict: Verdict,
    pub summary: String,
}

/// How a program is built and run (see the module's documentation).
#[derive(Clone, Copy, Default, Debug)]
pub struct OracleOpts {
    pub outside_main: bool,
    pub plain: bool,
}

pub fn oracle(env: &Env, p: &Program) -> OracleResult {
    oracle_src_opts(env, &p.instrumented(), &p.domain, p.uses_argc, p.oracle_opts())
}

pub fn oracle_src(env: &Env, src: &str, domain: &[i64], uses_argc: bool) -> OracleResult {
    oracle_src_opts(env, src, domain, uses_argc, OracleOpts::default())
}

pub fn oracle_src_opts(env: &Env, src: &str, domain: &[i64], uses_argc: bool, opts: OracleOpts) -> OracleResult {
    let d = tmpdir(env);
    let c = d.join("prog.c");
    std::fs::write(&c, src).unwrap();
    let driver = if opts.outside_main { &env.driver_outside_o } else { &env.driver_o };
    let san = build_and_run(&d, "san", &["-O0", "-fsanitize=undefined,address", "-fno-sanitize-recover=all"], driver, domain, uses_argc);
    if !opts.plain || matches!(san.verdict, Verdict::CompileError | Verdict::Sanitizer) {
        let _ = std::fs::remove_dir_all(&d);
        return san;
    }
    let o0 = build_and_run(&d, "o0", &["-O0"], driver, domain, uses_argc);
    let o2 = build_and_run(&d, "o2", &["-O2"], driver, domain, uses_argc);
    let _ = std::fs::remove_dir_all(&d);
    use Verdict::*;
    let verdict = match (o0.verdict, o2.verdict) {
        (CompileError, _) | (_, CompileError) => CompileError,
        // a plain build crashed (undefined behaviour the sanitizers did not see)
        (Sanitizer, _) | (_, Sanitizer) => Sanitizer,
        (Terminating, Terminating) => Terminating,
        (Nonterminating, Nonterminating) => Nonterminating,
        (Terminating, Nonterminating) | (Nonterminating, Terminating) => Unspecified,
        _ => Undecided,
    };
    OracleResult { verdict, summary: format!("-O0: {} | -O2: {} | sanitized -O0: {}", o0.summary, o2.summary, san.summary) }
}

/// Builds `dir/prog.c` with `flags` into `dir/NAME` and enumerates its inputs.
fn build_and_run(dir: &Path, name: &str, flags: &[&str], driver: &Path, domain: &[i64], uses_argc: bool) -> OracleResult {
    let c = dir.join("prog.c");
    let exe = dir.join(name);
    let out = Command::new("gcc").args(flags).args(["-w", "-Dmain=__dt_user_main"]).arg(&c).arg(driver).arg("-o").arg(&exe).output().expect("gcc");
    if !out.status.success() {
        return OracleResult { verdict: Verdict::CompileError, summary: String::from_utf8_lossy(&out.stderr).chars().take(400).collect() };
    }
    let dom: Vec<String> = domain.iter().map(|v| v.to_string()).collect();
    let out = Command::new(&exe)
        .env("DT_DOMAIN", dom.join(","))
        .env("DT_ARGC", if uses_argc { "3" } else { "1" })
        .env("DT_MAXRUNS", "2000")
        .env("DT_RUNSECS", "2")
        .env("ASAN_OPTIONS", "detect_leaks=0:exitcode=90:handle_abort=1:allocator_may_return_null=0")
        .env("UBSAN_OPTIONS", "halt_on_error=1:exitcode=90:print_stacktrace=0")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("run oracle");
    let s = String::from_utf8_lossy(&out.stdout).to_string();
    let line = s.lines().last().unwrap_or("").to_string();
    let get = |k: &str| -> i64 {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{}=", k)).map(|v| v.parse().unwrap_or(-1)))
            .unwrap_or(-1)
    };
    let (runs, term, nonterm, undec, san, capped) = (get("runs"), get("term"), get("nonterm"), get("undec"), get("san"), get("capped"));
    let verdict = if runs < 0 {
        Verdict::Undecided
    } else if san > 0 {
        Verdict::Sanitizer
    } else if nonterm > 0 {
        Verdict::Nonterminating
    } else if undec > 0 || capped != 0 {
        Verdict::Undecided
    } else {
        // every run returned from main, ended in an error function or trapped
        let _ = term;
        Verdict::Terminating
    };
    OracleResult { verdict, summary: line }
}
