//! What a user reads on everyday programs (issue 58; the whole folder is
//! measured by benchmarks/everyday.py): no warning where the program has no
//! undefined behaviour, the warning with its inputs where a run reaches it,
//! and no name of the model's bookkeeping in the default output. Each
//! program states its verdict and its undefined behaviour in its header
//! (checked with gcc -fsanitize=undefined on random and boundary inputs).

use std::path::{Path, PathBuf};
use std::process::Command;

fn file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/everyday").join(name)
}

fn prove(name: &str, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera")).args(["prove", "--timeout", "30"]).args(extra).arg(file(name)).output().expect("tessera runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn warnings(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("warning:")).collect()
}

#[test]
fn programs_without_undefined_behaviour_get_no_warning() {
    // `d++` under `d <= n / d`, `i++` under `i < n`: the check shows them
    // safe (the types' ranges and the guards); what it cannot show would
    // be a note, not a warning.
    for name in ["ok_is_prime.c", "ok_linear_search.c", "ok_fast_power.c"] {
        let text = prove(name, &[]);
        assert!(text.contains(": YES"), "{name}: {text}");
        assert!(warnings(&text).is_empty(), "{name}: {text}");
    }
}

#[test]
fn a_reachable_overflow_is_a_warning_with_its_inputs() {
    // 13! does not fit an int: the check runs the loop to n = 13.
    let text = prove("ub_factorial.c", &[]);
    let w = warnings(&text);
    assert_eq!(w.len(), 1, "{text}");
    assert!(w[0].contains("ub_factorial.c:14:") && w[0].contains("a run gets there") && w[0].contains("n = 13"), "{text}");
}

#[test]
fn a_list_walk_is_proved_in_the_programs_words() {
    let text = prove("../links/prepend_walk.c", &[]);
    assert!(text.contains("order("), "{text}");
    for internal in [".base", ".off", "node.next", "alloc#", ":down", "loop_L"] {
        assert!(!text.contains(internal), "{internal}: {text}");
    }
    // --verbose shows the model's bookkeeping.
    let verbose = prove("../links/prepend_walk.c", &["--verbose"]);
    assert!(verbose.contains(".base") || verbose.contains("next:"), "{verbose}");
}

#[test]
fn a_non_terminating_stem_reads_with_small_values() {
    // The loop runs for ever from any state with `x + y != 0` and `y == 0`:
    // the stem shows values a person would pick, not a solver's.
    let text = prove("../nonterm_small_stem.c", &[]);
    assert!(text.contains(": NO"), "{text}");
    let stem: Vec<&str> = text.lines().filter(|l| l.contains("start -> loop")).collect();
    assert_eq!(stem.len(), 1, "{text}");
    let values: Vec<i64> = stem[0].split(|c: char| c == '=' || c == ',').skip(1).step_by(1).filter_map(|v| v.trim().parse().ok()).collect();
    assert!(!values.is_empty() && values.iter().all(|v| v.abs() <= 16), "{text}");
}

#[test]
fn a_counter_of_list_nodes_is_shown_not_to_overflow() {
    // `len++` once per node of a list of at most 1000 nodes: safe because
    // the walk is ranked by the order of the blocks, `len + order(p)` stays
    // at most `order(head)`, and the blocks are fewer than the allocations.
    // The facts about the links that the walk's proof found at its header
    // must also be shown to hold where the loop is entered from.
    let text = prove("ok_list_length.c", &["--verbose"]);
    assert!(text.contains(": YES"), "{text}");
    assert!(!text.contains("'len++'"), "{text}");
    // By default the facts about how the model numbers blocks are left
    // out of the printed invariant (they say nothing about the program).
    let plain = prove("ok_list_length.c", &[]);
    assert!(plain.contains("order(p)") && !plain.contains("1048576"), "{plain}");
}
