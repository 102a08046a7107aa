//! End-to-end tests of the termination prover on the paper's examples and
//! our own programs (benchmarks/programs).

use std::path::PathBuf;
use std::time::Duration;
use tessera::ir::IntSemantics;
use tessera::termination::{prove_program, Answer, NoWitness, Outcome, ProveOptions, Strategy};

fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks/programs").join(name)
}

/// Proofs race several solver threads each; run on parallel test threads
/// they starve each other on a 2-core machine until the short sub-budgets
/// (synthesis, decrease checks) run out. One proof at a time keeps what the
/// tests pin independent of the load.
static ONE_PROOF_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn prove(name: &str, strategy: Strategy) -> Outcome {
    let _serial = ONE_PROOF_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let p = tessera::c::parse_file(&program(name), IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect("front end");
    let opts = ProveOptions { strategy, timeout: Duration::from_secs(60), ..ProveOptions::default() };
    prove_program(&p, &opts)
}

fn ranking_functions(o: &Outcome) -> Vec<String> {
    match &o.answer {
        Answer::Yes { loops, .. } => loops.iter().map(|l| l.ranking.to_string()).collect(),
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
    assert_eq!(r.len(), 1);
    // Typically lex(x, y); which samples the engines return decides the
    // exact pieces (e.g. lex(2*x + y - 2, x + y - 1) is also found), and the
    // certificate checker has accepted whatever is printed.
    assert!(r[0].starts_with("lex(") && r[0].matches(',').count() == 1, "{}", r[0]);
}

#[test]
fn phased_loop_gets_a_multiphase_ranking_function() {
    let o = prove("phases.c", Strategy::Multiphase);
    let r = ranking_functions(&o);
    assert_eq!(r.len(), 1);
    assert!(r[0].starts_with("phases("), "{}", r[0]);
}

#[test]
fn certificate_checker_rejects_a_wrong_candidate() {
    use tessera::solve::{Budget, Invariant};
    use tessera::horn::encode::encode;
    use tessera::term::Term;
    let p = tessera::c::parse_file(&program("3pieces.c"), IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect("front end");
    let enc = encode(&p).expect("encoding");
    // `21 - x` alone does not bound the runs from x >= 10; no invariant can
    // make its T_rank system safe, and the checker must say so.
    let cand = tessera::ranking::parse_candidate("21 - x").expect("candidate");
    let scheme = tessera::termination::scheme_of(&cand);
    let budget = Budget::with_timeout(Duration::from_secs(20));
    let inv = Invariant { interp: vec![Term::tt()] };
    assert!(tessera::termination::certificate::check_ranking(&enc, 0, &scheme, &inv, &budget).is_err());
    let strong = Invariant {
        interp: vec![Term::ge(Term::var("r#0"), Term::sub(Term::int(21), Term::var("x")))],
    };
    assert!(tessera::termination::certificate::check_ranking(&enc, 0, &scheme, &strong, &budget).is_err());
    // The same checker accepts a valid certificate (found by the prover).
    let o = prove("count_up.c", Strategy::Piecewise);
    assert_eq!(o.answer.word(), "YES");
}

#[test]
fn parallel_increment_is_non_terminating_with_a_checked_witness() {
    let o = prove("parallel_increment.c", Strategy::Portfolio);
    match &o.answer {
        Answer::No { witness: NoWitness::Model(witness), .. } => {
            let last = witness.stem.last().expect("stem");
            // The stem reaches the loop with x = 0, y = 9.
            assert_eq!(last.state.get("x").map(|v| v.to_string()), Some("0".into()));
            assert_eq!(last.state.get("y").map(|v| v.to_string()), Some("9".into()));
        }
        _ => panic!("expected NO, got {}", o.answer.word()),
    }
}

#[test]
fn reactive_loop_with_an_inner_loop_is_non_terminating_by_a_strategy() {
    // The body holds an inner loop (a second cut-point) and an input that
    // can lead to abort(): the recurrent sets cover both cut-points and
    // the witness keeps away from the abort.
    let o = prove("reactive_with_inner_loop.c", Strategy::Portfolio);
    match &o.answer {
        Answer::No { witness: NoWitness::Model(witness), .. } => assert_eq!(witness.inner_sets.len(), 1, "one set for the inner loop's header"),
        _ => panic!("expected NO, got {}", o.answer.word()),
    }
}

/// The recurrent set of a NO answer under C's integers, as printed.
fn recurrent_set_under_c(name: &str) -> String {
    let _serial = ONE_PROOF_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let p = tessera::c::parse_file(&program(name), IntSemantics::C, tessera::ir::MachineModel::lp64()).expect("front end");
    let opts = ProveOptions { timeout: Duration::from_secs(60), ..ProveOptions::default() };
    match prove_program(&p, &opts).answer {
        Answer::No { witness: NoWitness::Model(witness), .. } => witness.recurrent_set.to_string(),
        other => panic!("{name}: expected NO, got {}", other.word()),
    }
}

#[test]
fn a_loop_that_returns_to_a_state_is_non_terminating_with_a_general_set() {
    // Non-linear step (`x * x`, `y / x`): running the loop finds x == 1
    // fixed; the set is then widened to every y that keeps the loop going.
    let set = recurrent_set_under_c("square_stuck.c");
    assert!(set.contains("x == 1") || set.contains("x = 1") || set.contains("(= x 1)"), "{set}");
    assert!(!set.contains("y == "), "y's value generalized to a bound: {set}");
    // Wrap-around step with an input: with the input 0 the state repeats.
    let set = recurrent_set_under_c("odd_forever.c");
    assert!(!set.contains('%'), "no temporaries in {set}");
}

#[test]
fn unknown_values_after_the_loop_leave_no_possible() {
    // The large array's read comes after the loop that no run re-enters.
    let o = prove("unknown_after_loop.c", Strategy::Portfolio);
    assert_eq!(o.answer.word(), "NO");
}

#[test]
fn unknown_values_that_do_not_steer_the_loop_leave_no_possible() {
    let o = prove("print_forever.c", Strategy::Portfolio);
    assert_eq!(o.answer.word(), "NO");
}

#[test]
fn a_loop_that_can_avoid_unknown_values_forever_is_non_terminating() {
    // Serving a request goes through an undefined function (an unknown
    // value); skipping it every round is a run the C program really has.
    let o = prove("reactive_unknown_driver.c", Strategy::Portfolio);
    assert_eq!(o.answer.word(), "NO");
}

#[test]
fn a_loop_that_only_an_unknown_value_keeps_going_gets_no_no() {
    // Every round asks an undefined function: the program may stop or not.
    let o = prove("unknown_decides_loop.c", Strategy::Portfolio);
    assert_eq!(o.answer.word(), "MAYBE", "{:?}", o.answer);
}

#[test]
fn counting_loop_ranks_with_n_minus_i() {
    let o = prove("count_up.c", Strategy::Piecewise);
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

#[test]
fn long_runs_are_sampled_from_any_header_state() {
    // The paper's method alone (no synthesis): samples must come from short
    // runs that start at header states the program start does not reach.
    let o = prove("long_run.c", Strategy::Piecewise);
    assert_eq!(ranking_functions(&o).len(), 1);
}

#[test]
fn accelerating_loop_gets_a_two_phase_function_from_synthesis() {
    let o = prove("accelerate.c", Strategy::Portfolio);
    let Answer::Yes { loops, .. } = &o.answer else { panic!("expected YES, got {:?}", o.answer) };
    assert_eq!(loops.len(), 1);
    assert!(loops[0].strategy.contains("synthesis"), "{}", loops[0].strategy);
    assert!(loops[0].ranking.to_string().starts_with("phases("), "{}", loops[0].ranking);
}

#[test]
fn outer_loop_with_inner_loop_ranks_lexicographically() {
    let o = prove("outer_inner.c", Strategy::Portfolio);
    let r = ranking_functions(&o);
    assert_eq!(r.len(), 2);
    assert!(r.iter().any(|f| f.starts_with("lex(")), "{r:?}");
}

#[test]
fn bitwise_operators_on_variables_are_bounded_not_refused() {
    let _serial = ONE_PROOF_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let p = tessera::c::parse_file(&program("bitwise.c"), IntSemantics::C, tessera::ir::MachineModel::lp64()).expect("front end accepts x & y and z >> k");
    assert!(p.approximations.iter().any(|(_, k)| matches!(k, tessera::ir::Approximation::Bitwise { .. })), "{:?}", p.approximations);
    let opts = ProveOptions { timeout: Duration::from_secs(60), ..ProveOptions::default() };
    let o = prove_program(&p, &opts);
    assert_eq!(ranking_functions(&o).len(), 2);
}

#[test]
fn loop_free_functions_too_large_to_inline_are_summarized() {
    // 20 levels of functions that each call the next one twice: 2^20 bodies
    // if inlined.
    let mut src = String::from("int f0(int x) { return x + 1; }\n");
    for i in 1..=20 {
        src.push_str(&format!("int f{i}(int x) {{ return f{}(x) + f{}(x + 1); }}\n", i - 1, i - 1));
    }
    src.push_str("int main() { int n = __VERIFIER_nondet_int(); int s = f20(n); while (n > 0) n--; return s; }\n");
    let _serial = ONE_PROOF_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let p = tessera::c::parse_source("calls.c", &src, IntSemantics::C, tessera::ir::MachineModel::lp64()).expect("front end");
    assert!(p.approximations.iter().any(|(_, k)| matches!(k, tessera::ir::Approximation::SummarizedCall { .. })), "{:?}", p.approximations);
    assert!(p.edges.len() < 10_000, "{} edges", p.edges.len());
    let opts = ProveOptions { timeout: Duration::from_secs(30), ..ProveOptions::default() };
    assert_eq!(ranking_functions(&prove_program(&p, &opts)).len(), 1);
}

#[test]
fn what_a_recurrent_set_says_about_dead_variables_is_left_out() {
    use tessera::termination::certificate::NonTerminationWitness;
    use tessera::term::Term;
    let p = tessera::c::parse_file(&program("dead_temporary.c"), IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect("front end");
    let enc = tessera::horn::encode::encode(&p).expect("encoding");
    let name = |source: &str| enc.vars.iter().find(|v| v.name == source || v.name.ends_with(&format!(".{source}"))).expect(source).name.clone();
    let (x, t) = (name("x"), name("t"));
    let found = NonTerminationWitness {
        loop_index: 0,
        stem: Vec::new(),
        recurrent_set: Term::or(vec![
            Term::and(vec![Term::eq(Term::var(&x), Term::int(1)), Term::eq(Term::var(&t), Term::int(7))]),
            Term::and(vec![Term::ge(Term::var(&x), Term::int(5)), Term::ge(Term::var(&t), Term::var(&x))]),
        ]),
        inner_sets: Vec::new(),
    };
    let slim = tessera::termination::witness::without_dead_variables(&enc, &found).recurrent_set.to_string();
    assert!(!slim.contains(&t), "t is dead at the header: {slim}");
    assert!(slim.contains(&x), "x is live: {slim}");
    // End to end: the NO's witness does not mention t either.
    let o = prove("dead_temporary.c", Strategy::Portfolio);
    match &o.answer {
        Answer::No { witness: NoWitness::Model(witness), .. } => assert!(!witness.recurrent_set.to_string().contains(&t), "{}", witness.recurrent_set),
        other => panic!("expected NO, got {}", other.word()),
    }
}

#[test]
fn whole_struct_assignments_copy_every_member() {
    // y = {1, 8} through `x = tmpl; *p = x;`: i starts at 9 and runs
    // through the odd numbers forever. A run repeats after 51 steps; its
    // states are summarized by their hull.
    let o = prove("struct_copy_forever.c", Strategy::Portfolio);
    match &o.answer {
        Answer::No { witness: NoWitness::Model(witness), .. } => {
            let set = witness.recurrent_set.to_string();
            assert!(!set.contains("(or"), "the run's states are summarized, not listed: {set}");
        }
        other => panic!("expected NO, got {other:?}"),
    }
}

#[test]
fn extern_objects_and_assembly_calls_are_outside_code_not_refused() {
    let o = prove("extern_object_and_asm_call.c", Strategy::Portfolio);
    assert_eq!(o.answer.word(), "YES", "{:?}", o.answer);
}

#[test]
fn aggregate_initializers_compound_literals_and_struct_results_are_exact() {
    // Each value is pinned: the loop is never entered; changing one
    // expected value makes it spin.
    assert_eq!(prove("aggregate_values.c", Strategy::Portfolio).answer.word(), "YES");
    assert_eq!(prove("aggregate_values_spin.c", Strategy::Portfolio).answer.word(), "NO");
}

#[test]
fn character_constants_and_universal_names_have_gcc_values() {
    assert_eq!(prove("character_constants.c", Strategy::Portfolio).answer.word(), "YES");
    assert_eq!(prove("character_constants_spin.c", Strategy::Portfolio).answer.word(), "NO");
}

// ---- the first programs a user tries (issue 31)

fn regress(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/regress").join(name)
}

/// Prove C text under C's integers (what `tessera prove` does by default).
fn prove_source(name: &str, text: &str) -> Outcome {
    let _serial = ONE_PROOF_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let p = tessera::c::parse_source(name, text, IntSemantics::C, tessera::ir::MachineModel::lp64()).unwrap_or_else(|e| panic!("{name}: refused: {e}"));
    let opts = ProveOptions { timeout: Duration::from_secs(60), ..ProveOptions::default() };
    prove_program(&p, &opts)
}

fn prove_regress(name: &str) -> Outcome {
    let text = std::fs::read_to_string(regress(name)).expect("readable");
    prove_source(name, &text)
}

#[test]
fn programs_reading_their_arguments_are_proved_terminating() {
    for name in ["main_argv_walk.c", "main_envp_walk.c", "main_argc_at_least_one.c"] {
        let o = prove_regress(name);
        assert_eq!(o.answer.word(), "YES", "{name}: {:?}", o.answer);
    }
    let o = prove_source("argv_index.c", "int main(int argc, char *argv[]) { int i = 0; while (argv[i] != 0) i++; return i; }");
    assert_eq!(o.answer.word(), "YES", "{:?}", o.answer);
}

#[test]
fn a_loop_kept_going_by_the_argument_count_is_non_terminating() {
    let o = prove_source("argc_spin.c", "int main(int argc, char **argv) { while (argc > 1) { } return 0; }");
    assert_eq!(o.answer.word(), "NO", "{:?}", o.answer);
}

#[test]
fn loops_reading_standard_input_are_non_terminating() {
    for name in ["stdin_getchar_count.c", "stdin_fgets_echo.c", "stdin_scanf_sum.c", "stdin_fread_blocks.c"] {
        let o = prove_regress(name);
        // The input may go on forever: never YES; the witness is found
        // quickly (the reads are inputs, not unknown values).
        assert_eq!(o.answer.word(), "NO", "{name}: {:?}", o.answer);
    }
    let o = prove_source(
        "getline.c",
        "#include <stdio.h>\n#include <stdlib.h>\nint main(void) { char *line = NULL; size_t cap = 0; while (getline(&line, &cap, stdin) != -1) ; free(line); return 0; }",
    );
    assert!(matches!(o.answer.word(), "NO" | "MAYBE"), "{:?}", o.answer);
}

fn warning_expressions(o: &Outcome) -> Vec<String> {
    o.warnings.iter().map(|w| format!("{}: {} ({})", w.kind, w.expression, w.status.word())).collect()
}

#[test]
fn warnings_that_a_guard_rules_out_are_not_printed() {
    let gcd = prove_source(
        "gcd.c",
        "int main(void) { int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), t; while (b != 0) { t = a % b; a = b; b = t; } return a; }",
    );
    // Division by zero is ruled out by the guard; `INT_MIN % -1` is not
    // (both are inputs): that warning is true.
    assert!(gcd.warnings.iter().all(|w| w.expression != "a % b" || w.kind == tessera::ir::Undefined::DivisionOverflow), "{:?}", warning_expressions(&gcd));
    assert!(gcd.warnings.iter().any(|w| w.expression == "a % b" && w.kind == tessera::ir::Undefined::DivisionOverflow), "{:?}", warning_expressions(&gcd));
    let collatz = prove_source(
        "collatz.c",
        "int main(void) { int x = __VERIFIER_nondet_int(); int steps = 0; while (x > 1 && steps < 1000) { if (x % 2) x = 3*x+1; else x /= 2; steps++; } return steps; }",
    );
    let w = warning_expressions(&collatz);
    assert!(collatz.warnings.iter().all(|w| w.expression != "steps++"), "{w:?}");
    // `3*x` does overflow for a large odd x (a run is found within the
    // checks' time on an idle machine; under load it may stay "not ruled out").
    assert!(w.iter().any(|w| w.starts_with("signed overflow: 3*x")), "{w:?}");
}

#[test]
fn a_possible_division_by_zero_is_still_a_warning() {
    let o = prove_source("div.c", "int main(void) { int b = __VERIFIER_nondet_int(); return 10 / b; }");
    let w = warning_expressions(&o);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("division by zero: 10 / b"), "{w:?}");
}

/// The recursion a NO witness names: its loop is the recursive function's
/// descent header.
fn recursion_of_witness(o: &Outcome) -> (String, Option<String>) {
    match &o.answer {
        Answer::No { witness: NoWitness::Model(witness), .. } => {
            let enc = o.encoding.as_ref().expect("the model");
            let header = enc.loops[witness.loop_index].header;
            (witness.recurrent_set.to_string(), enc.recursions.get(&header).cloned())
        }
        other => panic!("expected NO, got {} ({other:?})", o.answer.word()),
    }
}

#[test]
fn infinite_recursion_is_non_terminating_with_a_set_over_the_arguments() {
    // rec(0, 1) calls rec(0, 1): a run that only descends is a run of the
    // C program; the witness is checked like any other.
    let o = prove("recursion_forever.c", Strategy::Portfolio);
    let (set, recursion) = recursion_of_witness(&o);
    assert_eq!(recursion.as_deref(), Some("rec"));
    assert!(set.contains('x') && set.contains('y'), "{set}");
    let text = tessera::report::render(&o, tessera::report::Format::Text);
    assert!(text.contains("recursion of `rec`"), "{text}");
    let json = tessera::report::to_json(&o);
    assert_eq!(json["witness"]["recursion"], "rec");
}

#[test]
fn mutual_recursion_forever_is_non_terminating() {
    let o = prove("mutual_recursion_forever.c", Strategy::Portfolio);
    let (_, recursion) = recursion_of_witness(&o);
    assert!(matches!(recursion.as_deref(), Some("f" | "g")), "{recursion:?}");
}

#[test]
fn a_loop_reached_through_calls_that_never_return_is_non_terminating() {
    let o = prove("recursion_then_loop_forever.c", Strategy::Portfolio);
    let (_, recursion) = recursion_of_witness(&o);
    assert_eq!(recursion, None, "the witness is the inner loop's");
}


/// The return summary a YES assumed for `function`, printed in C.
fn summary_of(o: &Outcome, function: &str) -> String {
    let s = o.summaries.iter().find(|s| s.function == function).unwrap_or_else(|| panic!("no summary of `{function}` in {:?}", o.summaries));
    tessera::report::cexpr::condition(&s.as_c(), &tessera::report::cexpr::Names::default().showing_all_of(&s.as_c()))
}

#[test]
fn mccarthy_91_is_proved_with_a_summary_of_the_inner_call() {
    // The outer call descends with the inner call's result: 101 - x
    // decreases only because every call that returns gives at least x - 10.
    let o = prove("recursion_summary_91.c", Strategy::Portfolio);
    assert_eq!(ranking_functions(&o), vec!["101 - x".to_string()]);
    let s = summary_of(&o, "f");
    assert!(s.contains("x <= f(x) + 10"), "{s}");
    let text = tessera::report::render(&o, tessera::report::Format::Text);
    assert!(text.contains("every call of `f` that returns satisfies"), "{text}");
}

#[test]
fn a_loop_moved_by_a_negative_result_is_proved_with_its_summary() {
    let o = prove("recursion_summary_negative.c", Strategy::Portfolio);
    assert_eq!(ranking_functions(&o).len(), 2);
    assert_eq!(summary_of(&o, "down"), "down(n) <= -1");
    let o = prove("recursion_summary_loop_ends.c", Strategy::Portfolio);
    assert_eq!(ranking_functions(&o).len(), 2);
    assert!(summary_of(&o, "count").contains("count(n) >= 0"), "{:?}", o.summaries);
}

#[test]
fn a_summary_that_holds_for_some_arguments_only_gives_no_yes() {
    // g(0) = 1, g(1) = -1: x goes 1, 2, 1, ... forever. A NO would rest on
    // a call's return branch, which it may not: MAYBE.
    for name in ["recursion_summary_some_args.c", "recursion_summary_loop_lowers.c"] {
        let o = prove_within(name, 15);
        assert!(!matches!(o.answer, Answer::Yes { .. }), "{name}: {:?}", o.answer);
    }
    // count(n) returns only for n >= 0 (a summary result >= 0 holds of
    // every call that returns); main calls it with any x.
    let o = prove("recursion_summary_diverges.c", Strategy::Portfolio);
    let (_, recursion) = recursion_of_witness(&o);
    assert_eq!(recursion.as_deref(), Some("count"));
}

#[test]
fn a_loop_in_the_recursive_body_is_left_with_what_it_writes_unknown() {
    let o = prove("recursion_summary_inner_loop.c", Strategy::Portfolio);
    assert_eq!(ranking_functions(&o).len(), 3);
    assert!(summary_of(&o, "count").contains("count(a) >= 0"), "{:?}", o.summaries);
}

fn prove_within(name: &str, seconds: u64) -> Outcome {
    let _serial = ONE_PROOF_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let p = tessera::c::parse_file(&program(name), IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect("front end");
    prove_program(&p, &ProveOptions { timeout: Duration::from_secs(seconds), ..ProveOptions::default() })
}

#[test]
fn the_checker_rejects_a_summary_that_a_return_violates() {
    let p = tessera::c::parse_file(&program("recursion_summary_negative.c"), IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect("front end");
    let budget = tessera::solve::Budget::with_timeout(Duration::from_secs(30));
    let summary = |bound: i64| tessera::ir::summary::Summary {
        function: "down".into(),
        conjuncts: vec![tessera::term::Term::le(tessera::term::Term::var(tessera::ir::summary::RESULT), tessera::term::Term::int(bound))],
        params: vec![Some("n".into())],
    };
    // down(0) = -1: "at most -2" is false of a return, "at most -1" holds.
    assert!(tessera::termination::certificate::check_summaries(&p, &[summary(-2)], &budget).is_err());
    assert!(tessera::termination::certificate::check_summaries(&p, &[summary(-1)], &budget).is_ok());
    // What the prover finds is what the checker accepts.
    let (_, found) = tessera::ir::summary::summarize(p.clone(), &budget);
    assert_eq!(found.len(), 1);
    assert!(tessera::termination::certificate::check_summaries(&p, &found, &budget).is_ok());
}

#[test]
fn a_program_without_a_cycle_is_yes_without_a_model_or_a_query() {
    let o = prove_source(
        "acyclic.c",
        "int __VERIFIER_nondet_int(void);
         int f(int a) { if (a > 3) return a - 1; return a + 1; }
         int main(void) { int x = __VERIFIER_nondet_int(); if (x > 0) x = f(x); else if (x < -5) x = f(-x); return x; }",
    );
    assert!(matches!(&o.answer, Answer::Yes { loops, executed: None } if loops.is_empty()), "{o:?}");
    assert_eq!(o.queries, 0);
    assert!(o.encoding.is_none(), "no Horn model is built for a program without a cycle");
}

#[test]
fn recursion_and_backward_gotos_are_cycles_the_shortcut_leaves_to_the_proof() {
    // Neither has a loop statement; both can run for ever.
    for text in [
        "int __VERIFIER_nondet_int(void);
         int f(int x) { if (x > 0) return f(x); return 0; }
         int main(void) { return f(__VERIFIER_nondet_int()); }",
        "int __VERIFIER_nondet_int(void);
         int main(void) { int x = __VERIFIER_nondet_int(); again: if (x > 0) goto again; return 0; }",
    ] {
        let o = prove_source("cycle.c", text);
        assert!(!matches!(o.answer, Answer::Yes { .. }), "{text}: {o:?}");
        assert!(o.encoding.is_some(), "{text}: the proof ran on a model");
    }
}

#[test]
fn a_recursion_whose_argument_moves_away_from_the_guard_is_non_terminating() {
    // `m != 0` is not recurrent (m = 1 steps to 0), its side `m < 0` is:
    // every call with a negative `m` and `n >= 0` makes another such call.
    let o = prove("ackermann_negative.c", Strategy::Portfolio);
    match &o.answer {
        Answer::No { witness: NoWitness::Model(w), .. } => {
            let set = w.recurrent_set.to_string();
            assert!(set.contains("(< m 0)") || set.contains("m <= -1"), "{set}");
        }
        other => panic!("expected NO, got {} ({other:?})", other.word()),
    }
    // Neither side of `x != 0` is recurrent when each side steps toward 0.
    let o = prove("toward_zero.c", Strategy::Portfolio);
    assert_eq!(o.answer.word(), "YES", "{:?}", o.answer);
}

/// `prove` under C's integers (values in their type's range), with a
/// shorter limit: what is checked is the answer's kind.
fn prove_under_c(name: &str, seconds: u64) -> Outcome {
    let _serial = ONE_PROOF_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let p = tessera::c::parse_file(&program(name), IntSemantics::C, tessera::ir::MachineModel::lp64()).expect("front end");
    let opts = ProveOptions { timeout: Duration::from_secs(seconds), ..ProveOptions::default() };
    prove_program(&p, &opts)
}

#[test]
fn a_countdown_that_wraps_through_unsigned_is_ranked_by_the_conversion() {
    // No affine function of n ranks it, and runs from a negative n are
    // billions of calls long: only the conversion the program itself
    // makes, `(unsigned int) n`, printed as the C expression.
    let o = prove_under_c("unsigned_countdown.c", 60);
    assert_eq!(ranking_functions(&o).len(), 1);
    let text = tessera::report::render(&o, tessera::report::Format::Text);
    assert!(text.contains("ranking function (unsigned int) n "), "{text}");
    // Counting down by two never reaches 0 from an odd n: the same
    // candidate fails its check, and no YES comes of it.
    let o = prove_under_c("unsigned_countdown_by_two.c", 10);
    assert!(!matches!(o.answer, Answer::Yes { .. }), "{}", o.answer.word());
}

#[test]
fn a_counter_whose_address_only_variables_hold_is_ranked_by_its_guard() {
    // Stores through a heap pointer cannot reach `i`, whose address only
    // a byte pointer and `memcmp` see: `n - i` ranks the loop.
    let o = prove_under_c("hashed_counter.c", 60);
    let r = ranking_functions(&o);
    assert!(r.iter().any(|f| f == "n - i"), "{r:?}");
}
