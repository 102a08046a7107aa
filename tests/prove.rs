//! End-to-end tests of the termination prover on the paper's examples and
//! our own programs (benchmarks/programs).

use std::path::PathBuf;
use std::time::Duration;
use tessera::ir::IntSemantics;
use tessera::termination::{prove_program, Answer, Outcome, ProveOptions, Strategy};

fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks/programs").join(name)
}

fn prove(name: &str, strategy: Strategy) -> Outcome {
    let p = tessera::c::parse_file(&program(name), IntSemantics::Math).expect("front end");
    let opts = ProveOptions { strategy, timeout: Duration::from_secs(60), ..ProveOptions::default() };
    prove_program(&p, &opts)
}

fn ranking_functions(o: &Outcome) -> Vec<String> {
    match &o.answer {
        Answer::Yes { loops } => loops.iter().map(|l| l.ranking.to_string()).collect(),
        other => panic!("expected YES, got {} ({other:?})", o.answer.word()),
    }
}

#[test]
fn three_pieces_gets_a_piecewise_ranking_function() {
    let o = prove("3pieces.c", Strategy::Piecewise);
    let r = ranking_functions(&o);
    assert_eq!(r.len(), 1);
    assert!(r[0].starts_with("max("), "{}", r[0]);
    for piece in ["-x", "21 - x", "x + 1"] {
        assert!(r[0].contains(piece), "{} lacks {piece}", r[0]);
    }
}

#[test]
fn lexicographic_example_gets_a_lexicographic_ranking_function() {
    let o = prove("lexicographic.c", Strategy::Lexicographic);
    let r = ranking_functions(&o);
    assert_eq!(r, vec!["lex(x, y)".to_string()]);
}

#[test]
fn parallel_increment_is_non_terminating_with_a_checked_witness() {
    let o = prove("parallel_increment.c", Strategy::Portfolio);
    match &o.answer {
        Answer::No { witness, .. } => {
            let last = witness.stem.last().expect("stem");
            // The stem reaches the loop with x = 0, y = 9.
            assert_eq!(last.state.get("x").map(|v| v.to_string()), Some("0".into()));
            assert_eq!(last.state.get("y").map(|v| v.to_string()), Some("9".into()));
        }
        _ => panic!("expected NO, got {}", o.answer.word()),
    }
}

#[test]
fn counting_loop_ranks_with_n_minus_i() {
    let o = prove("count_up.c", Strategy::Portfolio);
    assert_eq!(ranking_functions(&o), vec!["n - i".to_string()]);
}

#[test]
fn nested_loops_get_one_ranking_function_each() {
    let o = prove("nested.c", Strategy::Portfolio);
    assert_eq!(ranking_functions(&o).len(), 2);
}

#[test]
fn climbing_then_stuck_loop_is_non_terminating() {
    let o = prove("up_forever.c", Strategy::Portfolio);
    assert_eq!(o.answer.word(), "NO");
}
