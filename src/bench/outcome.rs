//! From a finished child process to a scored outcome: what the tool answered
//! and whether that counts as correct, wrong, unknown, timeout, memout or error.
//!
//! Only the documented output contracts are relied on:
//! - `tessera prove --format json`: one JSON object on stdout with
//!   `"answer": "YES" | "NO" | "MAYBE"` (other fields optional, `reason` shown);
//!   exit 0 when an answer was printed; 3 syntax, 4 unsupported, 5 io,
//!   1 internal error.
//! - `tessera solve`: `sat` / `unsat` / `unknown` on the first line of stdout,
//!   same exit codes.
//! - `z3 -T:N FILE`: `sat` / `unsat` / `unknown` / `timeout` on the first line.

use super::child::{ChildRun, ExitStatus};
use super::index::{Mode, Verdict};
use std::time::Duration;

/// What a tool said about a task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Terminates / sat.
    Yes,
    /// Does not terminate / unsat.
    No,
    /// MAYBE / unknown (also what an error counts as).
    Maybe,
}

impl Answer {
    pub fn word(self, mode: Mode) -> &'static str {
        match (mode, self) {
            (Mode::Termination, Answer::Yes) => "YES",
            (Mode::Termination, Answer::No) => "NO",
            (Mode::Termination, Answer::Maybe) => "MAYBE",
            (Mode::Chc, Answer::Yes) => "sat",
            (Mode::Chc, Answer::No) => "unsat",
            (Mode::Chc, Answer::Maybe) => "unknown",
        }
    }

    fn verdict(self) -> Option<Verdict> {
        match self {
            Answer::Yes => Some(Verdict::Holds),
            Answer::No => Some(Verdict::Fails),
            Answer::Maybe => None,
        }
    }
}

/// The scoring class of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Correct,
    Wrong,
    /// MAYBE / unknown within the time limit.
    Unknown,
    /// Killed at the hard limit, or no definitive answer within the time limit.
    Timeout,
    Memout,
    /// The tool failed; the category is `unsupported`, `syntax`, `io`,
    /// `internal`, `usage`, `panic`, `output`, `signal-N`, `exit-N`, `z3`, `start`.
    Error(String),
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Correct => write!(f, "correct"),
            Status::Wrong => write!(f, "wrong"),
            Status::Unknown => write!(f, "unknown"),
            Status::Timeout => write!(f, "timeout"),
            Status::Memout => write!(f, "memout"),
            Status::Error(kind) => write!(f, "error:{kind}"),
        }
    }
}

impl serde::Serialize for Status {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

/// Which program produced a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Tessera,
    Z3,
}

/// The scored result of one tool run on one task.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RunRecord {
    /// In the mode's words: YES/NO/MAYBE or sat/unsat/unknown.
    pub answer: &'static str,
    #[serde(skip)]
    pub answer_kind: Answer,
    pub status: Status,
    pub wall_seconds: f64,
    pub cpu_seconds: f64,
    pub peak_memory_mb: f64,
    /// `exit N`, `signal N`, or `killed at deadline`.
    pub exit: String,
    /// The tool's reason for MAYBE, or the first line of its error output.
    pub detail: String,
}

/// What was read off the output before scoring.
struct Reading {
    answer: Answer,
    /// `Some(kind)` when the run failed.
    error: Option<String>,
    detail: String,
}

/// Phrases with which allocators and runtimes report exhausted memory
/// (Rust's alloc error handler, glibc/bash, C++, Z3, dash, Python).
const OUT_OF_MEMORY_PHRASES: [&str; 6] = [
    "memory allocation of",
    "out of memory",
    "cannot allocate",
    "bad_alloc",
    "out of space",
    "memoryerror",
];

fn first_line(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    line.chars().take(200).collect()
}

/// The category of a failing exit code of `tessera` (README, "Exit codes").
fn exit_code_kind(code: i32) -> String {
    match code {
        1 => "internal".into(),
        2 => "usage".into(),
        3 => "syntax".into(),
        4 => "unsupported".into(),
        5 => "io".into(),
        101 => "panic".into(),
        c => format!("exit-{c}"),
    }
}

/// Failing exit of a tessera child, or `None` when it exited 0.
fn tessera_failure(run: &ChildRun) -> Option<Reading> {
    let kind = match run.status {
        ExitStatus::Exited(0) => return None,
        ExitStatus::Exited(c) => exit_code_kind(c),
        ExitStatus::Signaled(s) => format!("signal-{s}"),
    };
    Some(Reading {
        answer: Answer::Maybe,
        error: Some(kind),
        detail: first_line(&run.stderr),
    })
}

fn read_prove_json(run: &ChildRun) -> Reading {
    if let Some(failure) = tessera_failure(run) {
        return failure;
    }
    let whole = serde_json::from_str::<serde_json::Value>(run.stdout.trim());
    // Tolerate log lines around the object: take the last line that parses.
    let value = whole.ok().or_else(|| {
        run.stdout
            .lines()
            .rev()
            .find_map(|l| serde_json::from_str::<serde_json::Value>(l.trim()).ok())
    });
    let Some(value) = value else {
        return Reading {
            answer: Answer::Maybe,
            error: Some("output".into()),
            detail: format!("no JSON object on stdout: {}", first_line(&run.stdout)),
        };
    };
    let reason = value
        .get("reason")
        .and_then(|r| r.as_str())
        .unwrap_or("")
        .to_string();
    let answer = match value.get("answer").and_then(|a| a.as_str()) {
        Some("YES") => Answer::Yes,
        Some("NO") => Answer::No,
        Some("MAYBE") => Answer::Maybe,
        other => {
            return Reading {
                answer: Answer::Maybe,
                error: Some("output".into()),
                detail: format!("`answer` is {other:?}, not YES/NO/MAYBE"),
            }
        }
    };
    Reading {
        answer,
        error: None,
        detail: reason,
    }
}

fn read_first_line_answer(run: &ChildRun) -> Option<Answer> {
    match first_line(&run.stdout).as_str() {
        "sat" => Some(Answer::Yes),
        "unsat" => Some(Answer::No),
        "unknown" | "timeout" => Some(Answer::Maybe),
        _ => None,
    }
}

fn read_solve(run: &ChildRun) -> Reading {
    if let Some(failure) = tessera_failure(run) {
        return failure;
    }
    match read_first_line_answer(run) {
        Some(answer) => Reading {
            answer,
            error: None,
            detail: first_line(&run.stderr),
        },
        None => Reading {
            answer: Answer::Maybe,
            error: Some("output".into()),
            detail: format!(
                "first line is not sat/unsat/unknown: {}",
                first_line(&run.stdout)
            ),
        },
    }
}

/// Z3's exit code is not part of its contract (it differs between
/// versions for `unknown`), so only the printed answer counts.
fn read_z3(run: &ChildRun) -> Reading {
    if let Some(answer) = read_first_line_answer(run) {
        return Reading {
            answer,
            error: None,
            detail: first_line(&run.stdout),
        };
    }
    let kind = match run.status {
        ExitStatus::Signaled(s) => format!("signal-{s}"),
        ExitStatus::Exited(_) => "z3".into(),
    };
    let detail = if run.stdout.trim().is_empty() {
        first_line(&run.stderr)
    } else {
        first_line(&run.stdout)
    };
    Reading {
        answer: Answer::Maybe,
        error: Some(kind),
        detail,
    }
}

/// True when the run failed because it ran out of memory: a known message,
/// or death by a signal after using at least half the limit (dash, for
/// one, segfaults when its allocation fails; RSS stays below the
/// address-space limit because of mapped but untouched memory).
fn ran_out_of_memory(run: &ChildRun, reading: &Reading, memory_bytes: Option<u64>) -> bool {
    let mut text = run.stderr.to_lowercase();
    if reading.error.is_some() {
        text.push_str(&run.stdout.to_lowercase());
    }
    if OUT_OF_MEMORY_PHRASES.iter().any(|p| text.contains(p)) {
        return true;
    }
    let large =
        memory_bytes.is_some_and(|limit| run.peak_memory_kib.saturating_mul(1024) >= limit / 2);
    matches!(run.status, ExitStatus::Signaled(_)) && large
}

/// Everything the scoring needs besides the run itself.
#[derive(Clone, Copy, Debug)]
pub struct ScoringContext {
    pub mode: Mode,
    pub tool: Tool,
    pub expected: Verdict,
    /// The time limit given to the tool (not the hard kill deadline).
    pub time_limit: Duration,
    pub memory_bytes: Option<u64>,
}

/// Scores a finished run.
///
/// A definitive answer that arrives after the time limit (inside the kill
/// grace period) counts as a timeout, as it would in a competition; the
/// answer itself is still recorded.
pub fn score(run: &ChildRun, ctx: &ScoringContext) -> RunRecord {
    let reading = match (ctx.tool, ctx.mode) {
        (Tool::Z3, _) => read_z3(run),
        (Tool::Tessera, Mode::Termination) => read_prove_json(run),
        (Tool::Tessera, Mode::Chc) => read_solve(run),
    };
    let late = run.wall > ctx.time_limit;
    let status = if run.killed_at_deadline {
        Status::Timeout
    } else if reading.answer == Answer::Maybe && ran_out_of_memory(run, &reading, ctx.memory_bytes)
    {
        Status::Memout
    } else if let Some(kind) = &reading.error {
        Status::Error(kind.clone())
    } else if late || (ctx.tool == Tool::Z3 && first_line(&run.stdout) == "timeout") {
        Status::Timeout
    } else {
        match reading.answer.verdict() {
            None => Status::Unknown,
            Some(v) if v == ctx.expected => Status::Correct,
            Some(_) => Status::Wrong,
        }
    };
    let exit = if run.killed_at_deadline {
        "killed at deadline".to_string()
    } else {
        run.status.to_string()
    };
    RunRecord {
        answer: reading.answer.word(ctx.mode),
        answer_kind: reading.answer,
        status,
        wall_seconds: run.wall.as_secs_f64(),
        cpu_seconds: run.cpu.as_secs_f64(),
        peak_memory_mb: run.peak_memory_kib as f64 / 1024.0,
        exit,
        detail: reading.detail,
    }
}

/// The record of a run that could not even be started.
pub fn not_started(mode: Mode, why: &std::io::Error) -> RunRecord {
    RunRecord {
        answer: Answer::Maybe.word(mode),
        answer_kind: Answer::Maybe,
        status: Status::Error("start".into()),
        wall_seconds: 0.0,
        cpu_seconds: 0.0,
        peak_memory_mb: 0.0,
        exit: "not started".into(),
        detail: why.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(stdout: &str, stderr: &str, status: ExitStatus, wall_ms: u64) -> ChildRun {
        ChildRun {
            stdout: stdout.into(),
            stderr: stderr.into(),
            status,
            killed_at_deadline: false,
            wall: Duration::from_millis(wall_ms),
            cpu: Duration::ZERO,
            peak_memory_kib: 1000,
        }
    }

    fn ctx(mode: Mode, tool: Tool, expected: Verdict) -> ScoringContext {
        ScoringContext {
            mode,
            tool,
            expected,
            time_limit: Duration::from_secs(10),
            memory_bytes: Some(64 << 20),
        }
    }

    const TERMINATING: ScoringContext = ScoringContext {
        mode: Mode::Termination,
        tool: Tool::Tessera,
        expected: Verdict::Holds,
        time_limit: Duration::from_secs(10),
        memory_bytes: Some(64 << 20),
    };

    #[test]
    fn prove_json_answers_are_scored_against_the_verdict() {
        let yes = run(
            r#"{"answer":"YES","time_seconds":0.1,"extra":[1]}"#,
            "",
            ExitStatus::Exited(0),
            100,
        );
        let r = score(&yes, &TERMINATING);
        assert_eq!((r.answer, r.status), ("YES", Status::Correct));
        let r = score(&yes, &ctx(Mode::Termination, Tool::Tessera, Verdict::Fails));
        assert_eq!(r.status, Status::Wrong);
        let maybe = run(
            r#"{"answer":"MAYBE","reason":"engine gave up"}"#,
            "",
            ExitStatus::Exited(0),
            100,
        );
        let r = score(&maybe, &TERMINATING);
        assert_eq!(
            (r.status, r.detail.as_str()),
            (Status::Unknown, "engine gave up")
        );
    }

    #[test]
    fn exit_codes_are_error_categories() {
        for (code, kind) in [
            (3, "syntax"),
            (4, "unsupported"),
            (5, "io"),
            (1, "internal"),
            (42, "exit-42"),
        ] {
            let r = score(
                &run("", "at x.c:1:2: nope", ExitStatus::Exited(code), 10),
                &TERMINATING,
            );
            assert_eq!(r.status, Status::Error(kind.into()));
            assert_eq!(r.answer, "MAYBE");
            assert_eq!(r.detail, "at x.c:1:2: nope");
        }
        let garbage = run("hello", "", ExitStatus::Exited(0), 10);
        assert_eq!(
            score(&garbage, &TERMINATING).status,
            Status::Error("output".into())
        );
        let bad_answer = run(r#"{"answer":"PERHAPS"}"#, "", ExitStatus::Exited(0), 10);
        assert_eq!(
            score(&bad_answer, &TERMINATING).status,
            Status::Error("output".into())
        );
    }

    #[test]
    fn late_and_killed_runs_are_timeouts() {
        let late_yes = run(r#"{"answer":"YES"}"#, "", ExitStatus::Exited(0), 10_500);
        let r = score(&late_yes, &TERMINATING);
        assert_eq!((r.answer, r.status), ("YES", Status::Timeout));
        let mut killed = run("", "", ExitStatus::Signaled(9), 12_000);
        killed.killed_at_deadline = true;
        assert_eq!(score(&killed, &TERMINATING).status, Status::Timeout);
    }

    #[test]
    fn out_of_memory_is_recognised() {
        let rust_oom = run(
            "",
            "memory allocation of 8 bytes failed\n",
            ExitStatus::Signaled(6),
            10,
        );
        assert_eq!(score(&rust_oom, &TERMINATING).status, Status::Memout);
        let mut big_segv = run("", "", ExitStatus::Signaled(11), 10);
        big_segv.peak_memory_kib = 40 * 1024;
        assert_eq!(score(&big_segv, &TERMINATING).status, Status::Memout);
        let small_segv = run("", "", ExitStatus::Signaled(11), 10);
        assert_eq!(
            score(&small_segv, &TERMINATING).status,
            Status::Error("signal-11".into())
        );
    }

    #[test]
    fn solve_and_z3_first_lines() {
        let chc = ctx(Mode::Chc, Tool::Tessera, Verdict::Fails);
        let r = score(
            &run("unsat\n(model)\n", "", ExitStatus::Exited(0), 10),
            &chc,
        );
        assert_eq!((r.answer, r.status), ("unsat", Status::Correct));
        let r = score(&run("sat\n", "", ExitStatus::Exited(0), 10), &chc);
        assert_eq!(r.status, Status::Wrong);
        let z3 = ctx(Mode::Chc, Tool::Z3, Verdict::Holds);
        assert_eq!(
            score(&run("sat\n", "", ExitStatus::Exited(0), 10), &z3).status,
            Status::Correct
        );
        assert_eq!(
            score(&run("timeout\n", "", ExitStatus::Exited(0), 10), &z3).status,
            Status::Timeout
        );
        let err = run(
            "(error \"line 3: unknown constant\")\n",
            "",
            ExitStatus::Exited(1),
            10,
        );
        assert_eq!(score(&err, &z3).status, Status::Error("z3".into()));
    }
}
