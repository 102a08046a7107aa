//! What a user reads on the command line: `--memory` stops a proof with a
//! MAYBE that says so, instead of the process being killed by the machine;
//! a NO's stem shows what each step changes.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn prove_json(args: &[&str]) -> (Value, i32) {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks/programs/3pieces.c");
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["prove", "--ints", "math", "--timeout", "30", "--format", "json"])
        .args(args)
        .arg(file)
        .output()
        .expect("tessera runs");
    let j = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    (j, out.status.code().unwrap_or(-1))
}

#[test]
fn a_proof_that_reaches_the_memory_limit_is_a_maybe_that_says_so() {
    // Any process holds more than 1 MB: the limit is reached at once.
    let (j, code) = prove_json(&["--memory", "1"]);
    assert_eq!(j["answer"], "MAYBE", "{j}");
    assert!(j["reason"].as_str().unwrap_or("").starts_with("memory limit"), "{j}");
    assert_eq!(code, 0, "{j}");
}

#[test]
fn a_memory_limit_not_reached_changes_nothing() {
    let (j, _) = prove_json(&["--memory", "100000"]);
    assert_eq!(j["answer"], "YES", "{j}");
}

#[test]
fn a_stem_shows_what_each_step_changes() {
    // id1 and id3 are set before the loop and never change in it: after the
    // first step of the stem they are not repeated; round and token are.
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks/programs/protocol_needs_solved_start.c");
    let out = Command::new(env!("CARGO_BIN_EXE_tessera")).args(["prove", "--timeout", "30", "--no-precondition"]).arg(file).output().expect("tessera runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let steps: Vec<&str> = text.lines().skip_while(|l| !l.trim_start().starts_with("stem (")).skip(1).take_while(|l| l.starts_with("    ")).collect();
    assert!(steps.len() >= 2, "{text}");
    assert!(steps[0].contains("id1 = ") && steps[0].contains("round = "), "{text}");
    for later in &steps[1..] {
        assert!(!later.contains("id1 = ") && !later.contains("id3 = "), "{text}");
        assert!(later.contains("round = "), "{text}");
    }
}

fn solve(args: &[&str]) -> (String, String, i32) {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("horn/count_up.rank.n-i.smt2");
    let out = Command::new(env!("CARGO_BIN_EXE_tessera")).arg("solve").args(args).arg(file).output().expect("tessera runs");
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code().unwrap_or(-1))
}

#[test]
fn a_solver_that_reaches_the_memory_limit_answers_unknown_and_says_why() {
    let (out, err, code) = solve(&["--memory", "1", "--evidence"]);
    assert_eq!(out.lines().next(), Some("unknown"), "{out}{err}");
    assert!(out.contains("; memory limit") && err.contains("memory limit"), "{out}{err}");
    assert_eq!(code, 0);
    // A limit not reached changes nothing.
    let (out, err, _) = solve(&["--memory", "100000", "--timeout", "30"]);
    assert_eq!(out.lines().next(), Some("sat"), "{out}{err}");
}
