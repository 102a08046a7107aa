//! Links in the order of allocation (issue 27, `src/c/lower/memory/links.rs`):
//! walks along lists the program built get YES, and every way of making a
//! list cyclic, or of reading a link never written, keeps YES away. Each
//! program states its verdict on its first line (checked by running the
//! gcc-compiled program).

use std::path::{Path, PathBuf};
use std::process::Command;

fn file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/links").join(rel)
}

fn prove(rel: &str) -> serde_json::Value {
    prove_within(rel, 20)
}

/// `prove` with a time limit of `seconds`: a proof that takes a few seconds
/// alone can take many times that when the suite's other provers share
/// the two cores.
fn prove_within(rel: &str, seconds: u32) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["prove", "--format", "json", "--ints", "math", "--timeout", &seconds.to_string()])
        .arg(file(rel))
        .output()
        .expect("tessera runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{rel}: {e}: {}", String::from_utf8_lossy(&out.stderr)))
}

fn answer(rel: &str) -> String {
    prove(rel)["answer"].as_str().unwrap_or("?").to_string()
}

#[test]
fn a_list_built_by_prepending_is_walked_to_its_end() {
    let json = prove("prepend_walk.c");
    assert_eq!(json["answer"], "YES", "{json}");
    // The walk is ranked by the order of allocation of the walking pointer.
    // It is printed as the documented word `order(p)`, not as the
    // model's `p.base` (issue 58).
    let text = json.to_string();
    assert!(text.contains("order(p)") && !text.contains("p.base"), "{text}");
    // ... and the proof says what that quantity is (from its origin).
    let meaning = json["notation"]["order(p)"].as_str().unwrap_or_default();
    assert!(meaning.contains("order they are allocated"), "{json}");
    // The program's own variables need no explanation.
    assert!(json["notation"].get("n").is_none(), "{json}");
}

#[test]
fn a_list_built_by_appending_is_walked_to_newer_blocks() {
    // Each link points to a newer block: `allocations - order(p)` drops at
    // every step but the last (to NULL, block 0), which leaves the loop.
    // The decrease check asks nothing of an iteration after which no
    // iteration can start, so it shows this (T_rank did, in seconds more).
    for f in ["append_walk_plain.c", "append_walk.c"] {
        let json = prove(f);
        assert_eq!(json["answer"], "YES", "{f}: {json}");
        let text = json.to_string();
        assert!(text.contains("allocations - order(p)") && !text.contains("alloc#next"), "{f}: {text}");
    }
}

#[test]
fn a_list_reversed_in_place_is_walked_while_it_is_reversed() {
    // Each step points the current node at the newer one before it, which
    // ends the order `down` at that block; the blocks below it keep it
    // (`down_below`), and the walk goes on through them.
    let json = prove("reverse_in_place.c");
    assert_eq!(json["answer"], "YES", "{json}");
    assert!(json.to_string().contains("order(cur)"), "{json}");
}

#[test]
fn a_reversal_that_goes_round_a_cycle_and_out_of_it_is_not_called_nonterminating() {
    assert_ne!(answer("reverse_panhandle.c"), "NO");
}

#[test]
fn a_walk_that_finds_the_place_of_a_node_made_before_it_terminates() {
    // The new node is the newest block, and no link holds it yet.
    let json = prove("insert_after_search.c");
    assert_eq!(json["answer"], "YES", "{json}");
    assert!(json.to_string().contains("order(at)"), "{json}");
}

#[test]
fn a_list_head_read_and_written_through_a_pointer_to_it_is_walked() {
    // `*head` lives in a pointer cell: loads from it are exact.
    let json = prove("skip_through_head_pointer.c");
    assert_eq!(json["answer"], "YES", "{json}");
    assert!(json.to_string().contains("order(h)"), "{json}");
}

#[test]
fn a_walk_that_unlinks_the_nodes_ahead_of_it_terminates() {
    // `at->succ = at->succ->succ` leaves `at` where it is; the link last
    // read or written (`entry.succ:cache`) moves down the list instead.
    let json = prove("unlink_ahead.c");
    assert_eq!(json["answer"], "YES", "{json}");
    assert!(json.to_string().contains("entry.succ:cache"), "{json}");
}

#[test]
fn a_list_walked_by_the_byte_offset_of_its_link_terminates() {
    // `*(struct rec **)(q + at)` with `at` the link's offset reads the link.
    assert_eq!(answer("walk_by_offset.c"), "YES");
}

#[test]
fn cyclic_lists_never_get_yes() {
    for f in ["walk_by_offset_cyclic.c", "unlink_ahead_cyclic.c", "cyclic_through_head_pointer.c", "cyclic_walk.c", "cyclic_after_walk.c", "cyclic_by_alias.c", "cyclic_through_pointer_to_member.c", "cyclic_by_memcpy.c", "external_list.c", "cyclic_after_reversal_step.c", "cyclic_below_broken_order.c", "cyclic_by_recursion.c", "cyclic_append_after_prepend.c"] {
        assert_ne!(answer(f), "YES", "{f}");
    }
}

#[test]
fn a_link_never_written_is_not_ordered() {
    for f in ["unwritten_link.c", "unwritten_link_plain.c"] {
        assert_ne!(answer(f), "YES", "{f}");
    }
}

#[test]
fn a_recursion_that_only_reads_the_list_keeps_its_order() {
    // `length` stores nothing and allocates nothing, so the list's order
    // outlives its return and ranks the freeing walk after it; a recursion
    // that stores a link (`cyclic_by_recursion.c`, above) ends the orders.
    let json = prove("recursive_read_then_walk.c");
    assert_eq!(json["answer"], "YES", "{json}");
    assert!(json.to_string().contains("order(head)"), "{json}");
}

#[test]
fn a_list_appended_after_another_was_prepended_is_walked_to_newer_blocks() {
    // Building the first list ends `up` at every node; the second list's
    // nodes lie above `up_above`, where every link still points to a newer
    // block. Linking its tail back (`cyclic_append_after_prepend.c`, above)
    // moves the bound past the tail. YES in 3 s alone; it once ran out of
    // 20 s beside the cyclic-list tests in CI.
    let json = prove_within("append_after_prepend.c", 60);
    assert_eq!(json["answer"], "YES", "{json}");
    assert!(json.to_string().contains("allocations - order(q)"), "{json}");
}
