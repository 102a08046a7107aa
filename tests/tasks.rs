//! SV-COMP task definitions end to end: `tessera prove TASK.yml`,
//! `--property FILE.prp`, their errors, and `tessera bench DIR` on the small
//! task folder `tests/tasks/` (own programs, own copy of termination.prp).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tasks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/tasks")
}

fn tessera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .env_remove("TESSERA_BENCH_TOOL_COMMAND")
        .output()
        .unwrap()
}

fn prove_svcomp(file: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["prove", "--format", "svcomp", "--timeout", "30"];
    args.extend_from_slice(extra);
    let file = file.to_str().unwrap();
    args.push(file);
    let o = tessera(&args);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

#[test]
fn prove_reads_a_task_definition_and_prints_the_verdict_line() {
    let termination = tasks().join("properties/termination.prp");
    let (code, out, err) = prove_svcomp(
        &tasks().join("loops/countdown.yml"),
        &["--property", termination.to_str().unwrap()],
    );
    assert_eq!((code, first_line(&out)), (Some(0), "TRUE"), "{out}{err}");
    assert!(
        out.contains("countdown.c:4"),
        "the proof names the C file: {out}"
    );
    let (code, out, err) = prove_svcomp(&tasks().join("loops/cycle.yml"), &[]);
    assert_eq!(
        (code, first_line(&out)),
        (Some(0), "FALSE(termination)"),
        "{out}{err}"
    );
    // Input files given as a list; a preprocessed `.i` file.
    let (code, out, err) = prove_svcomp(&tasks().join("preprocessed/sum.yml"), &[]);
    assert_eq!((code, first_line(&out)), (Some(0), "TRUE"), "{out}{err}");
}

#[test]
fn tasks_and_properties_that_cannot_be_proved_fail_with_clear_errors() {
    let unreach = tasks().join("properties/unreach-call.prp");
    let cases: Vec<(PathBuf, Vec<&str>, i32, &str)> = vec![
        (
            tasks().join("loops/reach_only.yml"),
            vec![],
            2,
            "reach_only.yml: error: the task has no termination property",
        ),
        (
            tasks().join("loops/countdown.c"),
            vec!["--property", unreach.to_str().unwrap()],
            2,
            "unreach-call.prp: error: unsupported property `CHECK( init(main()), LTL(G ! call(reach_error())) )`",
        ),
        (
            tasks().join("broken/malformed.yml"),
            vec![],
            3,
            "malformed.yml: error: malformed YAML at line 3",
        ),
        (
            tasks().join("broken/missing_input.yml"),
            vec![],
            5,
            "missing_input.yml: error: input file",
        ),
        (
            tasks().join("loops/no_such_task.yml"),
            vec![],
            5,
            "no_such_task.yml: error: cannot read the task definition",
        ),
        (
            tasks().join("loops/countdown.c"),
            vec!["--property", "/nonexistent/termination.prp"],
            5,
            "termination.prp: error: cannot read the property file",
        ),
    ];
    for (file, extra, expected_code, message) in cases {
        let (code, out, err) = prove_svcomp(&file, &extra);
        assert_eq!(code, Some(expected_code), "{}: {out}{err}", file.display());
        assert!(
            err.contains(message),
            "{}: stderr {err:?} lacks {message:?}",
            file.display()
        );
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(
            first_line(&out),
            "UNKNOWN",
            "harnesses still read an answer"
        );
    }
}

#[test]
fn bench_runs_every_termination_task_below_a_folder_and_scores_it() {
    let out = std::env::temp_dir().join(format!("tessera-tasks-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = tessera(&[
        "bench",
        tasks().to_str().unwrap(),
        "--timeout",
        "30",
        "--jobs",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stdout}{stderr}");
    // The malformed definition is reported and skipped; the run goes on.
    assert!(
        stderr.contains("skipping") && stderr.contains("malformed.yml: error:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skipping 2 task definition(s) without a termination verdict"),
        "{stderr}"
    );
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let mut seen: Vec<(String, String, String, String)> = results["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["path"].as_str().unwrap().to_string(),
                t["category"].as_str().unwrap().to_string(),
                t["expected"].as_str().unwrap().to_string(),
                t["tessera"]["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    seen.sort();
    let row = |p: &str, c: &str, e: &str| {
        (
            p.to_string(),
            c.to_string(),
            e.to_string(),
            "correct".to_string(),
        )
    };
    assert_eq!(
        seen,
        vec![
            row("loops/countdown.yml", "loops", "terminating"),
            row("loops/cycle.yml", "loops", "nonterminating"),
            row("preprocessed/sum.yml", "preprocessed", "terminating"),
        ]
    );
    // SV-COMP score: +2 per correct TRUE, +1 per correct FALSE.
    assert_eq!(
        results["overall"]["svcomp_score"], 5,
        "{}",
        results["overall"]
    );
    let total = stdout
        .lines()
        .find(|l| l.starts_with("total"))
        .unwrap_or("");
    // The score beside the counts, then the median time of the correct
    // answers.
    let cells: Vec<&str> = total.split_whitespace().collect();
    assert!(
        cells.len() == 12 && cells[10] == "5" && cells[11].parse::<f64>().is_ok(),
        "score beside the counts: {stdout}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn prove_honours_the_data_model_of_the_task() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data-model-tasks/wrap");
    let (code, out, err) = prove_svcomp(&dir.join("long_wrap-ilp32.yml"), &[]);
    assert_eq!(
        (code, first_line(&out)),
        (Some(0), "FALSE(termination)"),
        "{out}{err}"
    );
    let (code, out, err) = prove_svcomp(&dir.join("long_wrap-lp64.yml"), &[]);
    assert_eq!((code, first_line(&out)), (Some(0), "TRUE"), "{out}{err}");
}

#[test]
fn emit_reads_a_task_definition_with_its_data_model() {
    let task = tasks().join("loops/countdown.yml");
    let from_task = tessera(&["emit", "--ir", task.to_str().unwrap()]);
    assert!(from_task.status.success(), "{}", String::from_utf8_lossy(&from_task.stderr));
    let c = tasks().join("loops/countdown.c");
    let from_c = tessera(&["emit", "--ir", "--data-model", "ilp32", c.to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&from_task.stdout), String::from_utf8_lossy(&from_c.stdout));
    assert!(String::from_utf8_lossy(&from_task.stdout).contains("while"));

    let broken = tessera(&["emit", tasks().join("broken/missing_input.yml").to_str().unwrap()]);
    assert!(!broken.status.success());
    assert!(String::from_utf8_lossy(&broken.stderr).contains("missing_input.yml: error: input file"));
}
