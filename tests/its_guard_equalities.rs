//! One problem, one answer: an ARI rule whose right-hand side uses fresh
//! variables fixed by equations of its guard is the same rule as the one
//! with the terms written in place (`(f x1 y) :guard (= x1 (- x 1))` is
//! `(f (- x 1) y)`). Both presentations of each small problem below read to
//! the same rules and get the same answer; fresh variables no top-level
//! equation fixes stay arbitrary values.

use std::path::PathBuf;
use std::process::Command;
use tessera::its::{self, ItsForm};

const HEAD: &str = "(format LCTRS)\n(theory Ints)\n";

/// (name, rules written with terms, the same rules with guard equations,
/// the answer).
const PAIRS: &[(&str, &str, &str, &str)] = &[
    (
        "count_down",
        "(fun f (-> Int Int Int))
(entrypoint f)
(rule (f x y) (f (- x 1) y) :guard (> x 0))",
        "(fun f (-> Int Int Int))
(entrypoint f)
(rule (f x y) (f x1 y) :guard (and (> x 0) (= x1 (- x 1))))",
        "YES",
    ),
    (
        // y counts down, and x when y is done (y arbitrary again then).
        "lexicographic",
        "(fun s (-> Int Int Int))
(fun f (-> Int Int Int))
(entrypoint s)
(rule (s x y) (f x y))
(rule (f x y) (f x (- y 1)) :guard (> y 0))
(rule (f x y) (f (- x 1) z) :guard (and (> x 0) (<= y 0)))",
        "(fun s (-> Int Int Int))
(fun f (-> Int Int Int))
(entrypoint s)
(rule (s x y) (f a b) :guard (and (= b y) (= x a)))
(rule (f x y) (f c d) :guard (and (= c x) (> y 0) (= (- y 1) d)))
(rule (f x y) (f e z) :guard (and (> x 0) (<= y 0) (= e (- x 1))))",
        "YES",
    ),
    (
        // A chain: x2 is fixed through x1, written before x1's equation.
        "chain",
        "(fun f (-> Int Int))
(entrypoint f)
(rule (f x) (f (+ (- x 2) 1)) :guard (> x 0))",
        "(fun f (-> Int Int))
(entrypoint f)
(rule (f x) (f x2) :guard (and (> x 0) (= x2 (+ x1 1)) (= x1 (- x 2))))",
        "YES",
    ),
    (
        "up_forever",
        "(fun f (-> Int Int Int))
(entrypoint f)
(rule (f x y) (f (+ x 1) y) :guard (> x 0))",
        "(fun f (-> Int Int Int))
(entrypoint f)
(rule (f x y) (f x1 y) :guard (and (> x 0) (= (+ x 1) x1)))",
        "NO",
    ),
    (
        "swap",
        "(fun l0 (-> Int Int Int))
(fun l1 (-> Int Int Int))
(entrypoint l0)
(rule (l0 x y) (l1 x y))
(rule (l1 x y) (l1 y x) :guard (and (> x 0) (> y 0)))",
        "(fun l0 (-> Int Int Int))
(fun l1 (-> Int Int Int))
(entrypoint l0)
(rule (l0 x y) (l1 x y))
(rule (l1 x y) (l1 a b) :guard (and (> x 0) (> y 0) (= a y) (= b x)))",
        "NO",
    ),
    (
        // Two steps a round, x and y both up by one, a flag set and
        // tested. Before fresh variables were fixed by their equations, the
        // second presentation was MAYBE (the shape of T2's n-7).
        "flag_cycle",
        "(fun l0 (-> Int Int Int Int))
(fun l1 (-> Int Int Int Int))
(fun l6 (-> Int Int Int Int))
(entrypoint l6)
(rule (l6 b x y) (l1 0 x y))
(rule (l0 b x y) (l1 0 x (+ y 1)) :guard (< x y))
(rule (l1 b x y) (l0 1 (+ x 1) y) :guard (and (< x y) (<= b 0) (<= 0 b)))",
        "(fun l0 (-> Int Int Int Int))
(fun l1 (-> Int Int Int Int))
(fun l6 (-> Int Int Int Int))
(entrypoint l6)
(rule (l6 b x y) (l1 e3 x y) :guard (= e3 0))
(rule (l0 b x y) (l1 e1 x e2) :guard (and (< x y) (= e1 0) (= (+ y 1) e2)))
(rule (l1 b x y) (l0 e4 e5 y) :guard (and (< x y) (<= b 0) (<= 0 b) (= 1 e4) (= e5 (+ x 1))))",
        "NO",
    ),
    (
        // x in 0..5 goes back and forth between x and 5 - x.
        "mirror",
        "(fun f (-> Int Int))
(entrypoint f)
(rule (f x) (f (- 5 x)) :guard (and (>= x 0) (<= x 5)))",
        "(fun f (-> Int Int))
(entrypoint f)
(rule (f x) (f m) :guard (and (>= x 0) (= m (- 5 x)) (<= x 5)))",
        "NO",
    ),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn write(name: &str, body: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("its_guard_equalities_{name}.ari"));
    std::fs::write(&path, format!("{HEAD}{body}\n")).expect("writes the problem");
    path
}

fn answer(path: &PathBuf) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .current_dir(root())
        .args(["prove", "--format", "termcomp", "--timeout", "20"])
        .arg(path)
        .output()
        .expect("runs tessera");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}: {text}{}", path.display(), String::from_utf8_lossy(&out.stderr));
    text.lines().next().unwrap_or("").to_string()
}

#[test]
fn both_presentations_read_to_the_same_rules() {
    for (name, terms, equations, _) in PAIRS {
        let p = its::parse(name, &format!("{HEAD}{terms}"), ItsForm::Ari).expect("terms parse");
        let q = its::parse(name, &format!("{HEAD}{equations}"), ItsForm::Ari).expect("equations parse");
        assert_eq!(p.vars, q.vars, "{name}");
        assert_eq!(p.rules.len(), q.rules.len(), "{name}");
        for (a, b) in p.rules.iter().zip(&q.rules) {
            assert_eq!((&a.guard, &a.updates, &a.locals), (&b.guard, &b.updates, &b.locals), "{name}");
        }
    }
}

#[test]
fn both_presentations_get_the_same_answer() {
    for (name, terms, equations, expected) in PAIRS {
        let a = answer(&write(&format!("{name}_terms"), terms));
        let b = answer(&write(&format!("{name}_equations"), equations));
        assert_eq!((a.as_str(), b.as_str()), (*expected, *expected), "{name}");
    }
}

/// Fresh variables no top-level equation fixes are arbitrary values: none
/// of these runs terminates for every choice, so none may be YES.
#[test]
fn other_fresh_variables_stay_arbitrary() {
    let problems = [
        // No equation at all.
        "(rule (f x) (f z) :guard (> x 0))",
        // The equation is under `or`: x may go up.
        "(rule (f x) (f z) :guard (and (> x 0) (or (= z (- x 1)) (= z (+ x 1)))))",
        // z only inside a term of the equation.
        "(rule (f x) (f z) :guard (and (> x 0) (= (- z 1) x)))",
    ];
    for (k, rule) in problems.iter().enumerate() {
        let path = write(&format!("arbitrary_{k}"), &format!("(fun f (-> Int Int))\n(entrypoint f)\n{rule}"));
        assert_ne!(answer(&path), "YES", "{rule}");
    }
}
