//! The concrete search for a lasso (`termination::lasso`): runs of the
//! program model with random inputs that come back to a state, turned into
//! non-termination witnesses the certificate checker accepts.

use std::path::PathBuf;
use std::time::Duration;
use tessera::horn::encode::{encode, Encoding};
use tessera::ir::{IntSemantics, MachineModel};
use tessera::solve::Budget;
use tessera::termination::certificate::{check_witness, NonTerminationWitness};
use tessera::termination::{lasso, solved_model};

fn search(name: &str, seconds: u64) -> (Encoding, Result<NonTerminationWitness, String>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks/programs").join(name);
    let p = tessera::c::parse_file(&path, IntSemantics::Math, MachineModel::lp64()).expect("front end");
    assert!(p.forbid_no.is_empty(), "{name}: the model is exact");
    let sliced = solved_model(p);
    let enc = encode(&sliced).expect("encoding");
    let budget = Budget::with_timeout(Duration::from_secs(seconds));
    let found = lasso::concrete_lasso(&sliced, &enc, &|_| Some(&enc), &budget, false);
    (enc, found)
}

#[test]
fn an_event_loop_gets_a_witness_from_a_run_that_comes_back() {
    let (enc, found) = search("eca_machine.c", 20);
    let w = found.expect("a lasso of the event loop");
    assert!(!w.stem.is_empty());
    check_witness(&enc, &w, &Budget::with_timeout(Duration::from_secs(20))).expect("the checker accepts it");
    // The run that stays is the one where input 4 leaves s == 3, t == 1.
    let last = w.stem.last().expect("stem");
    assert_eq!(last.state.get("s").map(|v| v.to_string()), Some("3".into()), "stem ends in {:?}", last.state);
}

#[test]
fn a_start_random_inputs_miss_is_solved_first() {
    // id1 == 3 * id2 + 1234567: no random input meets it; the runs start
    // from a stem the engine solves, and the counter's cycle of 197 rounds
    // comes back.
    let (enc, found) = search("protocol_needs_solved_start.c", 20);
    let w = found.expect("a lasso after a solved start");
    check_witness(&enc, &w, &Budget::with_timeout(Duration::from_secs(20))).expect("the checker accepts it");
}

#[test]
fn a_terminating_program_gets_no_lasso() {
    let (_, found) = search("3pieces.c", 3);
    assert!(found.is_err());
}

#[test]
fn a_lasso_behind_ten_right_inputs_is_found_by_the_systematic_search() {
    // Every wrong input dooms the run to a thousand steps through new
    // states: random runs do not get through; the depth-first search over
    // the states, each input tried in turn, does.
    let (enc, found) = search("combination_lock.c", 10);
    let w = found.expect("a lasso after the ten right inputs");
    assert!(w.stem.len() > 10, "the stem passes the ten phases: {} steps", w.stem.len());
    check_witness(&enc, &w, &Budget::with_timeout(Duration::from_secs(20))).expect("the checker accepts it");
}
