//! Minimizer: greedy deletion of blocks and lines while the same wrong answer
//! persists.

use super::{oracle_src_opts, strip, tessera, Env, Failure};
use std::time::{Duration, Instant};

fn still_fails(env: &Env, f: &Failure, lines: &[String]) -> bool {
    let src: String = lines.iter().map(|l| format!("{}\n", l)).collect();
    let o = oracle_src_opts(env, &src, &f.program.domain, f.program.uses_argc, f.program.oracle_opts());
    if o.verdict != f.verdict {
        return false;
    }
    tessera(env, &strip(lines), f.mode) == f.answer
}

/// Greedy minimization: delete blocks (`{` ... matching `}`), then single
/// lines, while the same wrong answer persists.  Lines with nondet calls and
/// assumptions are kept (dropping them would change the input space).
pub fn minimize(env: &Env, f: &Failure, deadline: Duration) -> Vec<String> {
    let t0 = Instant::now();
    let mut lines = f.program.lines.clone();
    let protected = |l: &str| l.contains("__VERIFIER_assume") || l.contains("__dt_") || l.starts_with("extern");
    let mut changed = true;
    while changed && t0.elapsed() < deadline {
        changed = false;
        // blocks
        let mut i = lines.len();
        while i > 0 && t0.elapsed() < deadline {
            i -= 1;
            if i >= lines.len() || !lines[i].trim_end().ends_with('{') || lines[i].starts_with("int main") {
                continue;
            }
            let mut depth = 0i32;
            let mut end = None;
            for (j, l) in lines.iter().enumerate().skip(i) {
                depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
                if depth <= 0 {
                    end = Some(j);
                    break;
                }
            }
            if let Some(e) = end {
                let mut cand = lines.clone();
                cand.drain(i..=e);
                if still_fails(env, f, &cand) {
                    lines = cand;
                    changed = true;
                }
            }
        }
        // lines
        let mut i = lines.len();
        while i > 0 && t0.elapsed() < deadline {
            i -= 1;
            if i >= lines.len() || protected(&lines[i]) || lines[i].trim() == "}" || lines[i].contains("main(") {
                continue;
            }
            let mut cand = lines.clone();
            cand.remove(i);
            if still_fails(env, f, &cand) {
                lines = cand;
                changed = true;
            }
        }
    }
    // drop unused prelude declarations when possible
    let mut i = lines.len();
    while i > 0 {
        i -= 1;
        if lines[i].starts_with("extern") && !lines[i].contains("__dt_") {
            let mut cand = lines.clone();
            cand.remove(i);
            if still_fails(env, f, &cand) {
                lines = cand;
            }
        }
    }
    lines
}
