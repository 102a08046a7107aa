//! `tessera solve FILE.smt2`: decide a Horn clause file (CHC-COMP dialect)
//! and print `sat`, `unsat` or `unknown` on the first line, optionally
//! followed by the validated evidence.

use crate::engine::portfolio;
use super::args::AnyEngine;
use crate::solve::{Budget, Derivation, Invariant, Verdict};
use crate::horn::smtlib::{parse_system_located, pred_app_text};
use crate::horn::{PredApp, System};
use crate::ir::Span;
use crate::term::smt_symbol;
use crate::TesseraError;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// SMT-LIB2 file of Horn clauses, `(set-logic HORN)` as in CHC-COMP.
    pub file: PathBuf,
    /// Engine to run.
    #[arg(long, value_enum, default_value = "portfolio")]
    pub engine: AnyEngine,
    /// Wall-clock time limit in seconds; `unknown` is printed when it runs out.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Memory limit in MB for the solver's resident memory (all its
    /// threads, Z3 included). Above half of it the portfolio goes on with
    /// one engine if it grew the memory (above 65 % whatever it did), above
    /// 65 % it gives up if the memory grew
    /// while it ran; at the limit the solver is stopped. Either way the
    /// answer is `unknown` (the reason on standard error). Without it there
    /// is no limit but the machine's.
    #[arg(long, value_name = "MB")]
    pub memory: Option<u64>,
    /// After the answer, print its evidence: the invariant (one define-fun per
    /// predicate) for sat, the counterexample (one line per step) for unsat.
    #[arg(long)]
    pub evidence: bool,
}

pub fn run(args: SolveArgs) -> i32 {
    // In a worker process under the limits (see `supervise`); the file is
    // read here first, so that a missing or malformed file is reported
    // once, by the worker.
    if !super::supervise::is_worker() && (args.memory.is_some() || args.timeout.is_some()) {
        if let Some(code) = supervise(&args) {
            return code;
        }
    }
    match solve_file(&args) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => {
            eprintln!("tessera: {e}");
            e.exit_code()
        }
    }
}

/// Solve in a worker process and relay its output; a stop at the time or
/// memory limit, or a worker that died, is `unknown` with the reason on
/// standard error (and after the answer with `--evidence`).
fn supervise(args: &SolveArgs) -> Option<i32> {
    use super::supervise::Ended;
    let start = std::time::Instant::now();
    let timeout = args.timeout.filter(|t| t.is_finite() && *t > 0.0).map(Duration::from_secs_f64);
    let ended = super::supervise::run_worker(timeout, Duration::from_secs(1), args.memory)?;
    let unknown = |why: String| {
        eprintln!("tessera: {why}");
        print!("unknown\n{}", if args.evidence { format!("; {why}\n") } else { String::new() });
        0
    };
    Some(match ended {
        Ended::Exited(st, out) if st.code().is_some() => {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&out);
            st.code().unwrap_or(1)
        }
        Ended::Exited(st, _) => unknown(format!("the solver process died ({st})")),
        Ended::OutOfTime => unknown(format!("time limit: no answer within {:.1} s", start.elapsed().as_secs_f64())),
        Ended::OutOfMemory { peak_mb } => unknown(format!(
            "memory limit: the solver's resident memory reached {peak_mb} MB of the {} MB allowed (--memory) after {:.1} s",
            args.memory.unwrap_or(peak_mb),
            start.elapsed().as_secs_f64()
        )),
    })
}

/// Read, solve and render; the answer text or the error to report.
pub fn solve_file(args: &SolveArgs) -> Result<String, TesseraError> {
    if let Some(mb) = args.memory {
        crate::solve::memory::govern(mb);
    }
    let path = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| TesseraError::Io { path: path.clone(), message: e.to_string() })?;
    let system = parse_system_located(&text)
        .map_err(|e| TesseraError::syntax(Some(Span { file: path.clone(), line: e.line, col: e.col }), e.message))?;
    let budget = match args.timeout {
        Some(s) if s.is_finite() && s > 0.0 => Budget::with_timeout(Duration::from_secs_f64(s)),
        Some(s) => {
            return Err(TesseraError::syntax(None, format!("--timeout must be a positive number of seconds, got {s}")))
        }
        None => Budget::unlimited(),
    };
    // Every engine and Z3 call stops within moments of the time limit, even
    // one that overlooks its own timeout.
    let _watchdog = budget.watchdog();
    let verdict = portfolio::solve(&system, args.engine.0, &budget);
    let mut out = format!("{}\n", verdict.word());
    if args.evidence {
        match &verdict {
            Verdict::Safe(inv) => out.push_str(&invariant_text(&system, inv)),
            Verdict::Unsafe(d) => out.push_str(&derivation_text(&system, d)),
            Verdict::Unknown(why) => out.push_str(&format!("; {why}\n")),
        }
    }
    Ok(out)
}

/// The invariant as SMT-LIB definitions, one per predicate.
pub fn invariant_text(system: &System, inv: &Invariant) -> String {
    let mut out = String::new();
    for (i, p) in system.preds.iter().enumerate() {
        let params: Vec<String> = p.params.iter().map(|v| format!("({} {})", smt_symbol(&v.name), v.sort)).collect();
        out.push_str(&format!(
            "(define-fun {} ({}) Bool\n  {})\n",
            smt_symbol(&p.name),
            params.join(" "),
            crate::solve::interp_of(inv, i)
        ));
    }
    out
}

/// The counterexample, one line per step, premises before the steps that use
/// them: `(step N clause C "label" fact :from (premise steps))`.
pub fn derivation_text(system: &System, root: &Derivation) -> String {
    // Post-order without recursion (linear derivations can be long).
    let mut order: Vec<&Derivation> = Vec::new();
    let mut stack: Vec<(&Derivation, bool)> = vec![(root, false)];
    while let Some((d, expanded)) = stack.pop() {
        if expanded {
            order.push(d);
        } else {
            stack.push((d, true));
            for p in d.premises.iter().rev() {
                stack.push((p, false));
            }
        }
    }
    let index: std::collections::HashMap<*const Derivation, usize> =
        order.iter().enumerate().map(|(i, d)| (*d as *const Derivation, i)).collect();
    let mut out = format!("; counterexample: {} steps, facts first\n", order.len());
    for (i, d) in order.iter().enumerate() {
        let clause = system.clauses.get(d.clause);
        let label = clause.map(|c| c.label.replace('"', "'")).unwrap_or_default();
        let fact = match clause.and_then(|c| c.head.as_ref()) {
            Some(h) => {
                pred_app_text(system, &PredApp { pred: h.pred, args: d.head_values.iter().map(|v| v.term()).collect() })
            }
            None => "false".into(),
        };
        let from: Vec<String> =
            d.premises.iter().filter_map(|p| index.get(&(p as *const Derivation)).map(|k| k.to_string())).collect();
        out.push_str(&format!("(step {i} clause {} \"{label}\" {fact}", d.clause));
        if !from.is_empty() {
            out.push_str(&format!(" :from ({})", from.join(" ")));
        }
        out.push_str(")\n");
    }
    out
}
