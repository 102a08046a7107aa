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
