//! The user's limits on a proof: `--memory` stops it with a MAYBE that
//! says so, instead of the process being killed by the machine.

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
