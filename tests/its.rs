//! Integer transition systems: the two forms of the termination
//! competition are read by content, proved with the C pipeline, and give
//! the same problem when one is printed in the other.

use std::path::PathBuf;
use std::process::Command;
use tessera::its::{self, ItsForm};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tessera(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera")).current_dir(root()).args(args).output().expect("runs tessera");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn answer(file: &str) -> String {
    let (code, out, err) = tessera(&["prove", file, "--format", "termcomp", "--timeout", "30"]);
    assert_eq!(code, Some(0), "{out}{err}");
    out.lines().next().unwrap_or("").to_string()
}

#[test]
fn small_problems_in_both_forms_get_their_answers() {
    assert_eq!(answer("tests/its/count_down.ari"), "YES");
    assert_eq!(answer("tests/its/two_phase.smt2"), "YES");
    assert_eq!(answer("tests/its/swap_forever.ari"), "NO");
    assert_eq!(answer("tests/its/up_forever.smt2"), "NO");
}

#[test]
fn malformed_problems_are_located_errors() {
    let (code, out, err) = tessera(&["prove", "tests/its/malformed.ari"]);
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(err.starts_with("tests/its/malformed.ari:5:1: syntax error:"), "{err}");
}

#[test]
fn emit_writes_the_horn_clauses_of_a_problem() {
    let (code, out, err) = tessera(&["emit", "tests/its/count_down.ari"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("(set-logic HORN)") && out.contains("(check-sat)"), "{out}");
}

/// Every problem of the shared ITS benchmarks, printed in the ARI form and
/// read back, is the same problem (the order of a rule's arbitrary values
/// aside): the two readers agree on real files.
#[test]
fn the_shared_problems_read_the_same_in_both_forms() {
    let index = root().join("../shared/bench/its/verdicts.tsv");
    let text = std::fs::read_to_string(&index).unwrap_or_else(|e| panic!("{}: {e} (../shared is needed)", index.display()));
    let mut checked = 0;
    for line in text.lines().skip(1) {
        let rel = line.split('\t').next().expect("path");
        let path = index.parent().expect("folder").join(rel);
        let source = std::fs::read_to_string(&path).expect("problem");
        assert_eq!(its::form_of(&source), Some(ItsForm::SmtLib), "{rel}");
        let Ok(p) = its::parse(rel, &source, ItsForm::SmtLib) else {
            continue;
        };
        let ari = its::ari::print(&p);
        assert_eq!(its::form_of(&ari), Some(ItsForm::Ari));
        let q = its::parse(rel, &ari, ItsForm::Ari).unwrap_or_else(|e| panic!("{rel}: {e}\n{ari}"));
        assert_eq!((&p.vars, &p.locations, p.start), (&q.vars, &q.locations, q.start), "{rel}");
        assert_eq!(p.rules.len(), q.rules.len(), "{rel}");
        for (a, b) in p.rules.iter().zip(&q.rules) {
            let sorted = |v: &[String]| {
                let mut v = v.to_vec();
                v.sort();
                v
            };
            assert_eq!((a.from, a.to, &a.guard, &a.updates), (b.from, b.to, &b.guard, &b.updates), "{rel}");
            assert_eq!(sorted(&a.locals), sorted(&b.locals), "{rel}");
        }
        checked += 1;
    }
    assert!(checked >= 290, "only {checked} problems read");
}
