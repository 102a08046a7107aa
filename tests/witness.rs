//! Witnesses written by `tessera prove --witness`: every GraphML violation
//! witness for the NO examples passes SV-COMP's witness linter (from
//! ../shared/formats, run with a Python that has lxml: $WITNESSLINT_PYTHON,
//! target/witnesslint-venv, or python3), and YAML witnesses parse and have
//! the published structure.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The NO examples of benchmarks/programs (from its verdict index).
fn nonterminating_examples() -> Vec<PathBuf> {
    let dir = root().join("benchmarks/programs");
    let index = std::fs::read_to_string(dir.join("verdicts.tsv")).expect("verdicts.tsv");
    index
        .lines()
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols.get(1) == Some(&"nonterminating")).then(|| dir.join(cols[0]))
        })
        .collect()
}

fn prove_with_witness(program: &Path, witness: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["prove", "--ints", "math", "--timeout", "30", "--witness"])
        .arg(witness)
        .arg(program)
        .output()
        .expect("run tessera");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(witness.exists(), "no witness written for {}: {}", program.display(), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn out_dir(name: &str) -> PathBuf {
    let d = root().join("target/witness-tests").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("output folder");
    d
}

/// A Python with lxml for the linter: $WITNESSLINT_PYTHON,
/// target/witnesslint-venv, or python3; when none has lxml, the venv is
/// made and lxml installed from PyPI (the package registry is reachable in
/// CI). No such Python fails the test: a witness that was never linted
/// must not pass as linted.
fn linter_python() -> PathBuf {
    let venv = root().join("target/witnesslint-venv");
    let has_lxml = |py: &PathBuf| Command::new(py).args(["-c", "import lxml"]).output().is_ok_and(|o| o.status.success());
    let candidates = || {
        [
            std::env::var_os("WITNESSLINT_PYTHON").map(PathBuf::from),
            Some(venv.join("bin/python")),
            Some(PathBuf::from("python3")),
        ]
        .into_iter()
        .flatten()
        .find(has_lxml)
    };
    if let Some(py) = candidates() {
        return py;
    }
    let made = Command::new("python3").arg("-m").arg("venv").arg(&venv).status().is_ok_and(|s| s.success())
        && Command::new(venv.join("bin/python"))
            .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "lxml"])
            .status()
            .is_ok_and(|s| s.success());
    candidates().unwrap_or_else(|| {
        panic!(
            "no Python with lxml for SV-COMP's witness linter (made venv: {made}); \
             install python3-venv (apt-get install -y python3-venv) or set WITNESSLINT_PYTHON"
        )
    })
}

#[test]
fn graphml_violation_witnesses_pass_the_linter() {
    let linter = root().join("../shared/formats/sv-witnesses/lint/witnesslinter.py");
    assert!(linter.exists(), "no witness linter at {} (../shared is needed)", linter.display());
    let python = linter_python();
    let dir = out_dir("graphml");
    let examples = nonterminating_examples();
    assert!(!examples.is_empty());
    for program in examples {
        let w = dir.join(program.file_stem().expect("name")).with_extension("graphml");
        let stdout = prove_with_witness(&program, &w);
        assert!(stdout.contains(": NO"), "{stdout}");
        let text = std::fs::read_to_string(&w).expect("witness");
        assert!(text.contains("<data key=\"cyclehead\">true</data>"), "{text}");
        assert!(text.contains("CHECK( init(main()), LTL(F end) )"), "{text}");
        assert!(!text.contains("(and ") && !has_smt_quote(&text), "S-expression in {text}");
        let out = Command::new(&python).arg(&linter).arg("--witness").arg(&w).arg(&program).output().expect("linter");
        assert!(
            out.status.success(),
            "linter rejects {}:\n{}{}",
            w.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

type Yaml = serde_yaml_ng::Value;

fn get<'a>(v: &'a Yaml, path: &[&str]) -> &'a Yaml {
    path.iter().fold(v, |v, k| v.get(*k).unwrap_or_else(|| panic!("missing key {k} in {v:?}")))
}

fn check_metadata(entry: &Yaml, version: &str, program: &Path) {
    assert_eq!(get(entry, &["metadata", "format_version"]).as_str(), Some(version));
    for key in ["uuid", "creation_time"] {
        assert!(get(entry, &["metadata", key]).as_str().is_some_and(|s| !s.is_empty()), "{key}");
    }
    assert_eq!(get(entry, &["metadata", "producer", "name"]).as_str(), Some("Tessera"));
    let task = get(entry, &["metadata", "task"]);
    assert_eq!(get(task, &["specification"]).as_str(), Some("CHECK( init(main()), LTL(F end) )"));
    assert_eq!(get(task, &["data_model"]).as_str(), Some("LP64"));
    assert_eq!(get(task, &["language"]).as_str(), Some("C"));
    let file = get(task, &["input_files"])[0].as_str().expect("input file").to_string();
    let hash = get(task, &["input_file_hashes", file.as_str()]).as_str().expect("hash");
    assert_eq!(hash.len(), 64);
    assert!(file.ends_with(program.file_name().and_then(|n| n.to_str()).expect("name")));
}

#[test]
fn yaml_violation_witnesses_have_the_published_structure() {
    let dir = out_dir("yaml-violation");
    for program in nonterminating_examples() {
        let w = dir.join(program.file_stem().expect("name")).with_extension("yml");
        prove_with_witness(&program, &w);
        let doc: Yaml = serde_yaml_ng::from_str(&std::fs::read_to_string(&w).expect("witness")).expect("YAML");
        let entry = &doc[0];
        assert_eq!(get(entry, &["entry_type"]).as_str(), Some("violation_sequence"));
        check_metadata(entry, "2.2", &program);
        let segments = get(entry, &["content"]).as_sequence().expect("segments");
        let last = get(segments.last().expect("a segment"), &["segment"]).as_sequence().expect("waypoints");
        let cycle = get(&last[0], &["waypoint"]);
        assert_eq!(get(cycle, &["type"]).as_str(), Some("recurrence"));
        assert_eq!(get(cycle, &["action"]).as_str(), Some("cycle"));
        assert!(get(cycle, &["location", "line"]).as_u64().is_some_and(|l| l > 0));
        let set = get(cycle, &["constraint", "value"]).as_str().expect("recurrent set");
        assert!(!set.starts_with("(and") && !set.contains(" (>= "), "S-expression: {set}");
        assert_eq!(get(cycle, &["constraint", "format"]).as_str(), Some("c_expression"));
    }
}

#[test]
fn yaml_correctness_witness_has_ranking_function_as_transition_invariant() {
    let dir = out_dir("yaml-correctness");
    let program = root().join("benchmarks/programs/gcd.c");
    let w = dir.join("gcd.yml");
    prove_with_witness(&program, &w);
    let doc: Yaml = serde_yaml_ng::from_str(&std::fs::read_to_string(&w).expect("witness")).expect("YAML");
    let entry = &doc[0];
    assert_eq!(get(entry, &["entry_type"]).as_str(), Some("invariant_set"));
    check_metadata(entry, "2.1", &program);
    let items = get(entry, &["content"]).as_sequence().expect("invariants");
    let kinds: Vec<(&str, &str, &str)> = items
        .iter()
        .map(|i| {
            let inv = get(i, &["invariant"]);
            (
                get(inv, &["type"]).as_str().expect("type"),
                get(inv, &["value"]).as_str().expect("value"),
                get(inv, &["format"]).as_str().expect("format"),
            )
        })
        .collect();
    let transition = kinds.iter().find(|k| k.0 == "loop_transition_invariant").expect("a transition invariant");
    assert_eq!(transition.2, "ext_c_expression");
    assert!(transition.1.contains("\\at(a, AnyPrev)") && transition.1.contains(" < "), "{}", transition.1);
    assert!(kinds.iter().any(|k| k.0 == "loop_invariant" && k.2 == "c_expression" && k.1 == "a >= 1 && b >= 1"), "{kinds:?}");
}

#[test]
fn yaml_locations_name_the_function_of_the_loop() {
    // `count`'s loop: its `i` is `count`'s own; `main`'s `i` (live across
    // the call) is out of scope there and must not be confused with it.
    let dir = out_dir("yaml-functions");
    let program = root().join("benchmarks/programs/loop_in_callee.c");
    let w = dir.join("loop_in_callee.yml");
    prove_with_witness(&program, &w);
    let doc: Yaml = serde_yaml_ng::from_str(&std::fs::read_to_string(&w).expect("witness")).expect("YAML");
    let items = get(&doc[0], &["content"]).as_sequence().expect("invariants");
    let at: Vec<(i64, &str, &str, &str)> = items
        .iter()
        .map(|i| {
            let inv = get(i, &["invariant"]);
            (
                get(inv, &["location", "line"]).as_i64().expect("line"),
                get(inv, &["location", "function"]).as_str().expect("function"),
                get(inv, &["type"]).as_str().expect("type"),
                get(inv, &["value"]).as_str().expect("value"),
            )
        })
        .collect();
    assert!(at.iter().filter(|a| a.0 == 8).all(|a| a.1 == "count"), "{at:?}");
    assert!(at.iter().filter(|a| a.0 == 18).all(|a| a.1 == "main"), "{at:?}");
    assert!(at.iter().any(|a| a.0 == 8 && a.2 == "loop_invariant" && a.3 == "i >= 0"), "{at:?}");
    // `count`'s `n` was merged with `main`'s (never live together): at the
    // loop it is `count`'s.
    assert!(at.iter().any(|a| a.0 == 8 && a.2 == "loop_transition_invariant" && a.3.contains("\\at(n, AnyPrev)")), "{at:?}");
    assert!(at.iter().any(|a| a.0 == 18 && a.2 == "loop_transition_invariant" && a.3.contains("\\at(i, AnyPrev)")), "{at:?}");
}

#[test]
fn printed_proofs_use_c_over_source_names() {
    let program = root().join("benchmarks/programs/up_forever.c");
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["prove", "--ints", "math", "--timeout", "30", "--format", "json"])
        .arg(&program)
        .output()
        .expect("run tessera");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(j["answer"], "NO");
    // The guard's split `(or (and (> x 0) (< x 100)) (and (> x 0) (not (< x 100))))` simplified
    // to `x >= 1`; or, when the concrete search wins the race, the hull of the run it found made
    // general (`x >= 101`): a bound on `x` either way, in C.
    let set = j["witness"]["recurrent_set"].as_str().expect("a recurrent set");
    let bound: i64 = set.strip_prefix("x >= ").and_then(|b| b.parse().ok()).unwrap_or_else(|| panic!("not a bound on x: {set}"));
    assert!(bound >= 1, "{set}");
    // Any state of the recurrent set is a valid start of the infinite run (x = 1 climbs to 100 and
    // stays; x = 100 stays at once); the engine is free to pick either.
    let x: i64 = j["witness"]["stem"][0]["state"]["x"].as_str().expect("x in the witness state").parse().expect("an integer");
    assert!(x >= bound, "witness state x = {x} is outside the recurrent set {set}");
}

/// An SMT-LIB quoted symbol (`|x|`): a `|` that is not part of C's `||`.
fn has_smt_quote(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len()).any(|i| b[i] == b'|' && !(i > 0 && b[i - 1] == b'|') && b.get(i + 1) != Some(&b'|'))
}

/// A YES from execution: where the program model confirmed it, its
/// correctness witness carries the model's invariants; where it did not,
/// no witness is written (an empty invariant set claims nothing). No YES
/// witness is ever an empty set.
#[test]
fn execution_yes_witnesses_carry_the_models_invariants_or_are_not_written() {
    let dir = out_dir("execution-yes");
    for name in ["nested_counts.c", "list_walk.c"] {
        let program = root().join("tests/c/execution").join(name);
        let w = dir.join(name.replace(".c", ".yml"));
        let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["prove", "--format", "json", "--timeout", "30", "--witness"])
            .arg(&w)
            .arg(&program)
            .output()
            .expect("run tessera");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(json["answer"], "YES", "{name}: {json}");
        let confirmed = json["executed"]["confirmed_on_model"].as_bool().unwrap_or(true);
        if name == "nested_counts.c" {
            assert!(json["executed"].is_object() && confirmed, "{name}: an execution YES the model confirms: {json}");
            assert_eq!(json["rests_on"], "interpreter and model", "{name}");
        }
        assert_eq!(json["rests_on"], if confirmed { "interpreter and model" } else { "interpreter" }, "{name}");
        if !confirmed {
            assert!(!w.exists(), "{name}: a witness for a YES the model did not confirm");
            assert!(String::from_utf8_lossy(&out.stderr).contains("no correctness witness written"), "{name}");
            continue;
        }
        let doc: Yaml = serde_yaml_ng::from_str(&std::fs::read_to_string(&w).expect("witness")).expect("YAML");
        check_metadata(&doc[0], "2.1", &program);
        let items = get(&doc[0], &["content"]).as_sequence().expect("invariants");
        assert!(!items.is_empty(), "{name}: an empty invariant set");
        for i in items {
            let value = get(i, &["invariant", "value"]).as_str().expect("value");
            assert!(!value.contains(".base") && !value.contains('#'), "{name}: not C: {value}");
        }
    }
}
