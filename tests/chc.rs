//! Horn clause files end to end: parse, solve through the portfolio entry
//! point with Spacer, validate the evidence; the validator rejects wrong
//! evidence; the `tessera solve` command prints CHC-COMP answers.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tessera::engine::portfolio::solve;
use tessera::engine::validate::validate;
use tessera::engine::EngineKind;
use tessera::solve::{Budget, Derivation, Invariant, Verdict};
use tessera::horn::smtlib::parse_system;
use tessera::horn::System;
use tessera::term::{Term, Value};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/chc").join(name)
}

fn load(name: &str) -> System {
    let path = example(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_system(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn budget() -> Budget {
    Budget::with_timeout(Duration::from_secs(30))
}

fn solve_with_spacer(name: &str) -> (System, Verdict) {
    let s = load(name);
    let v = solve(&s, EngineKind::Spacer, &budget());
    // `solve` validates already; check again independently.
    assert_eq!(validate(&s, &v, &Budget::unlimited()), Ok(()), "{name}");
    (s, v)
}

#[test]
fn safe_counter_loop() {
    let (s, v) = solve_with_spacer("counter_safe.smt2");
    let Verdict::Safe(inv) = v else { panic!("expected sat, got {v:?}") };
    assert_eq!(inv.interp.len(), s.preds.len());
}

#[test]
fn unsafe_small_loop_has_the_expected_trace() {
    let (_, v) = solve_with_spacer("loop_unsafe.smt2");
    let Verdict::Unsafe(d) = v else { panic!("expected unsat, got {v:?}") };
    // x = 0, 2, 4, 6, then the query.
    let values: Vec<Value> = d.chain().iter().filter_map(|n| n.head_values.first().cloned()).collect();
    let expected: Vec<Value> = [0, 2, 4, 6].iter().map(|&i| Value::Int(i.into())).collect();
    assert_eq!(values, expected);
}

#[test]
fn nested_loops() {
    let (_, v) = solve_with_spacer("nested_safe.smt2");
    assert!(matches!(v, Verdict::Safe(_)), "{v:?}");
}

#[test]
fn nonlinear_clauses() {
    let (_, v) = solve_with_spacer("nonlinear_safe.smt2");
    assert!(matches!(v, Verdict::Safe(_)), "{v:?}");
    let (_, v) = solve_with_spacer("nonlinear_unsafe.smt2");
    let Verdict::Unsafe(d) = v else { panic!("expected unsat, got {v:?}") };
    // A tree: the step deriving fib(5) uses two premises.
    assert_eq!(d.premises.len(), 1);
    assert_eq!(d.premises[0].premises.len(), 2);
}

#[test]
fn validator_rejects_a_wrong_invariant() {
    let s = load("counter_safe.smt2");
    let b = Budget::unlimited();
    // `n >= 0` holds initially and is inductive, but too weak for the query.
    let weak = Invariant { interp: vec![Term::ge(Term::var("loop_1"), Term::int(0))] };
    let e = validate(&s, &Verdict::Safe(weak), &b).expect_err("too weak for the query");
    assert!(e.contains("not inductive") && e.contains("clause 2"), "{e}");
    // `x = 0` holds initially but is not preserved by the loop.
    let not_inductive = Invariant { interp: vec![Term::eq(Term::var("loop_0"), Term::int(0))] };
    let e = validate(&s, &Verdict::Safe(not_inductive), &b).expect_err("not inductive");
    assert!(e.contains("clause 1"), "{e}");
    let good = Invariant {
        interp: vec![Term::and(vec![
            Term::le(Term::var("loop_0"), Term::var("loop_1")),
            Term::ge(Term::var("loop_0"), Term::int(0)),
        ])],
    };
    assert_eq!(validate(&s, &Verdict::Safe(good), &b), Ok(()));
}

#[test]
fn validator_rejects_a_wrong_derivation() {
    let s = load("loop_unsafe.smt2");
    let b = Budget::unlimited();
    let node = |clause, x: Option<i64>, premises| Derivation {
        clause,
        head_values: x.map(|v| vec![Value::Int(v.into())]).unwrap_or_default(),
        premises,
    };
    let chain = |xs: &[i64]| {
        let mut d = node(0, Some(xs[0]), vec![]);
        for &x in &xs[1..] {
            d = node(1, Some(x), vec![d]);
        }
        node(2, None, vec![d])
    };
    assert_eq!(validate(&s, &Verdict::Unsafe(chain(&[0, 2, 4, 6])), &b), Ok(()));
    // Wrong step size.
    let e = validate(&s, &Verdict::Unsafe(chain(&[0, 3, 6])), &b).expect_err("x += 3");
    assert!(e.contains("does not replay"), "{e}");
    // Wrong start.
    let e = validate(&s, &Verdict::Unsafe(chain(&[2, 4, 6])), &b).expect_err("starts at 2");
    assert!(e.contains("does not replay"), "{e}");
    // Stops before the violation.
    let e = validate(&s, &Verdict::Unsafe(chain(&[0, 2, 4])), &b).expect_err("x = 4 at the query");
    assert!(e.contains("does not replay"), "{e}");
}

fn tessera(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera")).args(args).output().expect("runs tessera");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_prints_answers_and_evidence() {
    let safe = example("counter_safe.smt2");
    let (code, out, _) = tessera(&["solve", "--engine", "spacer", "--evidence", safe.to_str().unwrap_or_default()]);
    assert_eq!(code, 0);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("sat"));
    assert!(out.contains("(define-fun loop ((loop_0 Int) (loop_1 Int)) Bool"), "{out}");

    let unsafe_ = example("loop_unsafe.smt2");
    let (code, out, _) = tessera(&["solve", "--engine", "spacer", "--evidence", unsafe_.to_str().unwrap_or_default()]);
    assert_eq!(code, 0);
    assert!(out.starts_with("unsat\n"), "{out}");
    assert!(out.contains("(step 0 clause 0 \"assert at line 4\" (loop 0))"), "{out}");
    assert!(out.contains("false :from (3))"), "{out}");

    // Default engine (portfolio) and no evidence: just the word.
    let (code, out, _) = tessera(&["solve", "--timeout", "30", safe.to_str().unwrap_or_default()]);
    assert_eq!((code, out.as_str()), (0, "sat\n"));
}

#[test]
fn cli_reports_errors_with_exit_codes() {
    let dir = std::env::temp_dir().join(format!("tessera-chc-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.smt2");
    std::fs::write(
        &bad,
        "(set-logic HORN)\n(declare-fun P (Int) Bool)\n(assert (forall ((x Int)) (=> (P y) false)))\n",
    )
    .expect("write");
    let (code, out, err) = tessera(&["solve", bad.to_str().unwrap_or_default()]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("bad.smt2:3:") && err.contains("unknown symbol y"), "{err}");
    let (code, _, err) = tessera(&["solve", dir.join("missing.smt2").to_str().unwrap_or_default()]);
    assert_eq!(code, 5, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_timeout_holds() {
    // A system Spacer cannot finish quickly: two counters whose relation
    // needs a non-linear invariant (y = x * x).
    let dir = std::env::temp_dir().join(format!("tessera-chc-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let hard = dir.join("squares.smt2");
    std::fs::write(
        &hard,
        "(set-logic HORN)
         (declare-fun inv (Int Int Int) Bool)
         (assert (forall ((x Int) (y Int) (z Int)) (=> (and (= x 0) (= y 0) (= z 1)) (inv x y z))))
         (assert (forall ((x Int) (y Int) (z Int) (x1 Int) (y1 Int) (z1 Int))
           (=> (and (inv x y z) (= x1 (+ x 1)) (= y1 (+ y z)) (= z1 (+ z 2))) (inv x1 y1 z1))))
         (assert (forall ((x Int) (y Int) (z Int)) (=> (and (inv x y z) (= y 2)) false)))",
    )
    .expect("write");
    let (code, out, _) = tessera(&["solve", "--engine", "spacer", "--timeout", "1", hard.to_str().unwrap_or_default()]);
    assert_eq!(code, 0);
    assert!(["sat\n", "unknown\n"].contains(&out.as_str()), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
