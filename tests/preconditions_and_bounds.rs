//! Issue 60: with a NO, the condition on entering the loop (or on the
//! values read inside it) under which the program ends (proved, and checked here against compiled runs of the
//! program by tests/c/conditional/check.py, which needs gcc); with a YES, a
//! bound on each loop's iterations over the values on entry.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(path)
}

fn prove_json(path: &str, extra: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["prove", "--ints", "math", "--timeout", "30", "--format", "json"])
        .args(extra)
        .arg(file(path))
        .output()
        .expect("tessera runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

/// Whether compiled runs of the program over a box of inputs end exactly
/// where `condition` holds.
fn exactly_the_terminating_inputs(path: &str, condition: &str) -> Result<(), String> {
    let out = Command::new("python3")
        .arg(file("conditional/check.py"))
        .args(["--pre", condition])
        .arg(file(path))
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    }
}

#[test]
fn a_no_comes_with_the_weakest_precondition_where_the_loop_follows_the_inputs() {
    // In these the loop comes right after the inputs are read: the values
    // on entering it are the inputs, so compiled runs can check it.
    for name in ["modular_step3.c", "linear_threshold.c", "two_var_relation.c", "parity_step_minus2.c"] {
        let path = format!("conditional/{name}");
        let j = prove_json(&path, &[]);
        assert_eq!(j["answer"], "NO", "{name}: {j}");
        let condition = j["precondition"].as_str().unwrap_or_else(|| panic!("{name}: no precondition: {j}"));
        let details = &j["precondition_details"];
        assert_eq!(details["proved"], true, "{name}: {j}");
        assert_eq!(details["witness_outside"], true, "{name}: {j}");
        assert_eq!(details["weakest"], true, "{name}: {j}");
        if let Err(e) = exactly_the_terminating_inputs(&path, condition) {
            panic!("{name}: precondition `{condition}` disagrees with compiled runs:\n{e}");
        }
    }
}

#[test]
fn where_inputs_are_read_inside_the_loop_skipping_it_is_the_weakest() {
    let j = prove_json("preconditions/doubling_choice.c", &[]);
    assert_eq!(j["answer"], "NO", "{j}");
    assert_eq!(j["precondition"], "x <= 1", "{j}");
    assert_eq!(j["precondition_details"]["weakest"], true, "{j}");
}

#[test]
fn a_loop_reading_its_events_gets_a_condition_on_the_values_read() {
    let j = prove_json("preconditions/event_loop.c", &[]);
    assert_eq!(j["answer"], "NO", "{j}");
    assert_eq!(j["precondition"], "more == 0", "{j}");
    let details = &j["precondition_details"];
    assert_eq!(details["at"], "every value read into more inside the loop at line 12", "{j}");
    assert_eq!(details["how"], "the values read with which the loop is left", "{j}");
    assert_eq!(details["weakest"], false, "{j}");
}

#[test]
fn a_condition_on_the_values_read_is_not_claimed_where_a_run_still_loops() {
    // `c == 0` leaves the loop only while x > 0; from x <= 0 the run with
    // every value 0 never ends.
    let j = prove_json("preconditions/event_loop_drifting.c", &[]);
    assert_eq!(j["answer"], "NO", "{j}");
    assert!(j.get("precondition").is_none(), "{j}");
}

#[test]
fn a_precondition_is_not_searched_when_not_asked_for() {
    let j = prove_json("conditional/modular_step3.c", &["--no-precondition"]);
    assert_eq!(j["answer"], "NO", "{j}");
    assert!(j.get("precondition").is_none(), "{j}");
}

#[test]
fn nested_loops_get_bounds_over_their_entry_values() {
    let j = prove_json("bounds/nested_count.c", &[]);
    assert_eq!(j["answer"], "YES", "{j}");
    let loops = j["loops"].as_array().expect("loops");
    let at = |line: u64| loops.iter().find(|l| l["line"] == line).unwrap_or_else(|| panic!("no loop at line {line}: {j}"));
    // i = 0 and j = 0 on entry: n and i iterations, and the one the model
    // cannot tell from an exit (see termination::bounds).
    assert_eq!(at(8)["bound"], "(n > 0 ? n : 0) + 1", "{j}");
    assert_eq!(at(8)["bound_text"], "max(0, n) + 1", "{j}");
    assert_eq!(at(9)["bound"], "(i > 0 ? i : 0) + 1", "{j}");
    // With the inner loop: its entries are the outer loop's iterations, and
    // `i <= n - 1` there bounds each one's bound by `max(0, n) + 1`.
    assert_eq!(at(8)["nest_bound_text"], "(max(0, n) + 1) * (max(0, n) + 2)", "{j}");
    assert!(at(9)["nest_bound"].is_null(), "{j}");
}

#[test]
fn a_loop_nest_gets_a_polynomial_bound_that_compiled_runs_respect() {
    let j = prove_json("bounds/nest_triple.c", &[]);
    assert_eq!(j["answer"], "YES", "{j}");
    let loops = j["loops"].as_array().expect("loops");
    let outer = loops.iter().find(|l| l["line"] == 9).unwrap_or_else(|| panic!("no loop at line 9: {j}"));
    assert_eq!(outer["nest_bound_text"], "(max(0, n) + 1) * ((max(0, m) + 1) * (max(0, m) + 2) + 1)", "{j}");
    assert_eq!(outer["nest_bound"], "((n > 0 ? n : 0) + 1) * (((m > 0 ? m : 0) + 1) * ((m > 0 ? m : 0) + 2) + 1)", "{j}");
    // Every loop's iterations, counted over a box of inputs, stay within it.
    for n in -3i64..=12 {
        for m in -3i64..=12 {
            let mut count = 0i64;
            let mut i = 0;
            while i < n {
                count += 1;
                let mut j = i;
                while j < m {
                    count += 1;
                    let mut k = 0;
                    while k < j {
                        count += 1;
                        k += 1;
                    }
                    j += 1;
                }
                i += 1;
            }
            let (n0, m0) = (n.max(0), m.max(0));
            let bound = (n0 + 1) * ((m0 + 1) * (m0 + 2) + 1);
            assert!(count <= bound, "n = {n}, m = {m}: {count} iterations, bound {bound}");
        }
    }
}

#[test]
fn sequential_nests_get_one_bound_over_the_inputs() {
    let j = prove_json("bounds/sequential_nests.c", &[]);
    assert_eq!(j["answer"], "YES", "{j}");
    let p = &j["program_bound"];
    assert_eq!(p["bound_text"], "(max(0, n) + 1) * (max(0, n) + 2) + max(0, m) + 1", "{j}");
    assert_eq!(p["bound"], "((n > 0 ? n : 0) + 1) * ((n > 0 ? n : 0) + 2) + (m > 0 ? m : 0) + 1", "{j}");
    assert_eq!(p["complexity"], "O(n^2)", "{j}");
    assert_eq!(p["over"], serde_json::json!(["m", "n"]), "{j}");
    // Every run's iterations, counted over a box of inputs, stay within it.
    for n in -3i64..=12 {
        for m in -3i64..=12 {
            let mut count = 0i64;
            for i in 0..n.max(0) {
                count += 1 + i;
            }
            count += m.max(0);
            let (n0, m0) = (n.max(0), m.max(0));
            let bound = (n0 + 1) * (n0 + 2) + m0 + 1;
            assert!(count <= bound, "n = {n}, m = {m}: {count} iterations, bound {bound}");
        }
    }
}

#[test]
fn no_run_bound_reads_a_value_changed_before_its_loop() {
    // `n` halves before the second loop: its value there is not the one the
    // first loop started with, so no bound over `n` is given for the run.
    let j = prove_json("bounds/changed_between.c", &[]);
    assert_eq!(j["answer"], "YES", "{j}");
    assert!(j.get("program_bound").is_none(), "{j}");
}

#[test]
fn no_run_bound_where_a_nest_has_none() {
    // The for loop runs n times per iteration of the middle loop, which
    // runs up to n times in all: quadratic, while the outer loop alone
    // iterates at most n times.
    let j = prove_json("bounds/nest_without_bound.c", &[]);
    assert_eq!(j["answer"], "YES", "{j}");
    let outer = &j["loops"].as_array().expect("loops")[0];
    if outer["nest_bound"].is_null() {
        assert!(j.get("program_bound").is_none(), "{j}");
    } else {
        assert_ne!(j["program_bound"]["complexity"], "O(n)", "{j}");
    }
}

#[test]
fn a_break_out_of_the_body_is_counted() {
    // `while (1) { if (i > 10) break; ... }` enters its body 12 times: the
    // model is the one of `while (i <= 10)`, which enters it 11 times.
    let j = prove_json("bounds/break_out.c", &[]);
    assert_eq!(j["answer"], "YES", "{j}");
    let loops = j["loops"].as_array().expect("loops");
    assert_eq!(loops[0]["bound"], "12", "{j}");
}

#[test]
fn no_bound_where_the_loop_reads_a_new_value_inside() {
    let j = prove_json("bounds/reset_inside.c", &[]);
    assert_eq!(j["answer"], "YES", "{j}");
    let loops = j["loops"].as_array().expect("loops");
    assert_eq!(loops.len(), 1, "{j}");
    assert!(loops[0]["bound"].is_null(), "a bound over entry values cannot hold here: {j}");
}

#[test]
fn a_lexicographic_argument_gets_a_product_bound_where_its_resets_are_bounded() {
    let j = prove_json("bounds/lex_reset_to_entry.c", &[]);
    assert_eq!(j["answer"], "YES", "{j}");
    let loops = j["loops"].as_array().expect("loops");
    assert_eq!(loops.len(), 1, "{j}");
    assert_eq!(loops[0]["bound_text"], "(max(0, x) + 2) * (max(0, y, n) + 2)", "{j}");
    // The loop run for a box of entry values never exceeds that bound
    // (x = n on entry).
    for n in -3i64..=15 {
        for y0 in -3i64..=15 {
            let (mut x, mut y, mut count) = (n, y0, 0i64);
            while x > 0 {
                count += 1;
                if y > 0 {
                    y -= 1;
                } else {
                    x -= 1;
                    y = n;
                }
            }
            let bound = (n.max(0) + 2) * (y0.max(n).max(0) + 2);
            assert!(count <= bound, "n = {n}, y = {y0}: {count} iterations, bound {bound}");
        }
    }
}

#[test]
fn where_no_linear_condition_is_the_weakest_a_proved_one_still_suffices() {
    // `while (x < 0) { x = x + y; y--; }` ends exactly where some partial
    // sum reaches 0, which no linear condition states: the learned cases
    // that are proved are given (or the loop skipped), never the weakest.
    let j = prove_json("preconditions/drift_down.c", &[]);
    assert_eq!(j["answer"], "NO", "{j}");
    let pre = j["precondition"].as_str().unwrap_or_else(|| panic!("a precondition: {j}"));
    assert_eq!(j["precondition_details"]["weakest"], false, "{j}");
    let out = Command::new("python3")
        .arg(file("conditional/check.py"))
        .args(["--sufficient", "--pre", pre])
        .arg(file("preconditions/drift_down.c"))
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{pre}: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}
