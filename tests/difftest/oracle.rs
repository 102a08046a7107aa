//! Oracle: compiles the instrumented program with gcc and the sanitizers,
//! links `driver.c`, which enumerates every input vector (values from the
//! program's small `__VERIFIER_assume` ranges) in forked children and detects
//! non-termination by a repeated complete state within one run.

use super::{tmpdir, Env, Program};
use std::process::{Command, Stdio};

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Verdict {
    Terminating,
    Nonterminating,
    Undecided,
    Sanitizer,
    CompileError,
}

pub struct OracleResult {
    pub verdict: Verdict,
    pub summary: String,
}

pub fn oracle(env: &Env, p: &Program) -> OracleResult {
    oracle_src(env, &p.instrumented(), &p.domain, p.uses_argc)
}

pub fn oracle_src(env: &Env, src: &str, domain: &[i64], uses_argc: bool) -> OracleResult {
    let d = tmpdir(env);
    let c = d.join("prog.c");
    let exe = d.join("prog");
    std::fs::write(&c, src).unwrap();
    let out = Command::new("gcc")
        .args(["-O0", "-w", "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-Dmain=__dt_user_main"])
        .arg(&c)
        .arg(&env.driver_o)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("gcc");
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(&d);
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
        .stderr(Stdio::null())
        .output()
        .expect("run oracle");
    let _ = std::fs::remove_dir_all(&d);
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
        let _ = term;
        Verdict::Terminating
    };
    OracleResult { verdict, summary: line }
}
