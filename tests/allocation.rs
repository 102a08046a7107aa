//! Whether allocations may fail is a choice of meaning made on the command
//! line (`--allocation`, see `src/c/meaning.rs`), and an answer that rests on
//! runs ending at undefined behaviour says so. The programs are in
//! `tests/c/allocation/`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/allocation").join(name)
}

fn prove(file: &Path, extra: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["prove", "--format", "json", "--timeout", "20"])
        .args(extra)
        .arg(file)
        .output()
        .expect("tessera runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{}: {e}: {}", file.display(), String::from_utf8_lossy(&out.stderr)))
}

fn text(file: &Path, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera")).args(["prove", "--timeout", "20"]).args(extra).arg(file).output().expect("tessera runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The kinds of undefined behaviour an execution answer says its runs end at.
fn undefined_kinds(j: &serde_json::Value) -> Vec<(String, u64)> {
    j["executed"]["undefined_behaviour"]
        .as_array()
        .map(|a| a.iter().map(|u| (u["kind"].as_str().unwrap_or("?").to_string(), u["runs"].as_u64().unwrap_or(0))).collect())
        .unwrap_or_default()
}

#[test]
fn a_program_that_loops_when_malloc_fails_gets_an_answer_under_each_setting() {
    let f = program("loops_when_malloc_fails.c");
    // C's rule, the default for a C file: the run where malloc fails loops.
    let may_fail = prove(&f, &[]);
    assert_eq!(may_fail["answer"], "NO", "{may_fail}");
    let shown = text(&f, &["--allocation", "may-fail"]);
    assert!(shown.contains("NO") && shown.contains("allocation"), "the NO names the rule it used:\n{shown}");
    // Allocations that never fail: the loop is never entered.
    let never = prove(&f, &["--allocation", "never-fails"]);
    assert_eq!(never["answer"], "YES", "{never}");
}

#[test]
fn an_sv_comp_task_reads_allocations_as_never_failing_unless_told_otherwise() {
    let task = program("loops_when_malloc_fails.yml");
    assert_eq!(prove(&task, &[])["answer"], "YES");
    assert_eq!(prove(&task, &["--allocation", "may-fail"])["answer"], "NO");
}

#[test]
fn an_unchecked_malloc_in_a_list_is_answered_and_the_null_dereference_said() {
    let f = program("unchecked_list.c");
    let may_fail = prove(&f, &["--allocation", "may-fail"]);
    assert_eq!(may_fail["answer"], "YES", "{may_fail}");
    assert_eq!(may_fail["executed"]["allocations_fail"], true, "{may_fail}");
    // Ten runs fail at one of the ten allocations and dereference NULL.
    assert_eq!(undefined_kinds(&may_fail), vec![("null pointer dereference".to_string(), 10)], "{may_fail}");
    let shown = text(&f, &["--allocation", "may-fail"]);
    assert!(shown.contains("10 of 11 runs end only at undefined behaviour") && shown.contains("null pointer dereference at"), "{shown}");
    let never = prove(&f, &["--allocation", "never-fails"]);
    assert_eq!(never["answer"], "YES", "{never}");
    assert_eq!(never["executed"]["runs"], 1, "{never}");
    assert_eq!(never["executed"]["allocations_fail"], false, "{never}");
    assert!(undefined_kinds(&never).is_empty(), "{never}");
}

#[test]
fn a_yes_that_rests_on_signed_overflow_says_so() {
    let f = program("counts_past_int_max.c");
    let c = prove(&f, &["--ints", "c"]);
    assert_eq!(c["answer"], "YES", "{c}");
    assert_eq!(undefined_kinds(&c), vec![("signed overflow".to_string(), 1)], "{c}");
    assert_eq!(c["executed"]["read_input"], false, "{c}");
    let shown = text(&f, &["--ints", "c"]);
    assert!(shown.contains("1 of 1 run ends only at undefined behaviour") && shown.contains("the program reads no input"), "{shown}");
    assert!(!shown.contains("each allocation") && !shown.contains("--allocation"), "no word of allocations in a program that allocates nothing:\n{shown}");
    // Machine integers wrap: the loop never ends.
    assert_eq!(prove(&f, &["--ints", "machine"])["answer"], "NO");
}
