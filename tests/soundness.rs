//! Programs on which Tessera once answered wrong (or would have): each
//! `tests/c/regress/*.c` states its verdict on its first line, checked by
//! running the gcc-compiled program (see tests/difftest), so under
//! `--allocation never-fails` (a compiled run's allocations succeed); a
//! line `// expected with --allocation may-fail: ...` states the verdict
//! where allocations may fail, checked too. Tessera may answer
//! MAYBE, never the opposite; `unspecified` programs (C leaves the order of
//! evaluation open, and the orders disagree) admit only MAYBE. Invalid C
//! (`tests/c/invalid`) is rejected with exit code 3; valid GNU C
//! (`tests/c/gnu`) never is, supported or not.

mod verdicts;

use std::path::{Path, PathBuf};
use std::process::Command;

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn c_files(folder: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir(folder))
        .expect("folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

fn answer(file: &Path, ints: &str, allocation: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["prove", "--format", "json", "--timeout", "3", "--ints", ints, "--allocation", allocation])
        .arg(file)
        .output()
        .expect("tessera runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    json["answer"].as_str().unwrap_or("?").to_string()
}

#[test]
fn no_wrong_answer_on_the_regression_programs() {
    let files = c_files("regress");
    assert!(files.len() >= 15, "regression programs missing");
    let failures = verdicts::two_at_a_time(&files, |f| {
        let text = std::fs::read_to_string(f).expect("readable");
        let expected = text.lines().next().and_then(|l| l.split("expected:").nth(1)).map(str::trim).unwrap_or("");
        let may_fail = text.lines().find_map(|l| l.split("expected with --allocation may-fail:").nth(1)).map(str::trim);
        let mut bad = Vec::new();
        for ints in ["c", "math"] {
            for (allocation, expected) in [("never-fails", Some(expected)), ("may-fail", may_fail)] {
                let Some(expected) = expected else { continue };
                let a = answer(f, ints, allocation);
                if verdicts::forbidden(expected).contains(&a.as_str()) {
                    bad.push(format!("{} (--ints {ints} --allocation {allocation}): {a}, expected {expected}", f.display()));
                }
            }
        }
        bad
    });
    assert!(failures.is_empty(), "wrong answers:\n{}", failures.join("\n"));
}

#[test]
fn invalid_programs_are_rejected_with_exit_code_3() {
    for f in c_files("invalid") {
        let out = Command::new(env!("CARGO_BIN_EXE_tessera")).args(["prove", "--timeout", "3"]).arg(&f).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{}: {err}", f.display());
        assert!(err.contains(": error: "), "{}: {err}", f.display());
        assert!(out.stdout.is_empty(), "{}: printed an answer", f.display());
    }
}

#[test]
fn valid_gnu_c_is_never_called_invalid() {
    let files = c_files("gnu");
    assert!(files.len() >= 5, "GNU C samples missing");
    for f in files {
        let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["prove", "--format", "json", "--timeout", "3"])
            .arg(&f)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(3), "{}: valid GNU C called invalid: {err}", f.display());
        let text = std::fs::read_to_string(&f).expect("readable");
        let expected = text.lines().next().and_then(|l| l.split("expected:").nth(1)).map(str::trim).unwrap_or("");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
        let answer = json["answer"].as_str().unwrap_or("");
        let wrong = match expected {
            "terminating" => answer == "NO",
            "nonterminating" => answer == "YES",
            _ => false,
        };
        assert!(!wrong, "{}: {answer}, expected {expected}", f.display());
        if out.status.code() == Some(4) {
            // A refusal says where.
            assert!(err.contains(".c:") && err.contains("unsupported"), "{}: {err}", f.display());
        }
    }
}
