//! `tessera bench` end to end, with stand-in provers: each task file is a
//! small shell script that behaves like a prover would (prints an answer,
//! fails, sleeps forever, allocates without bound), run through the hidden
//! `--tool-command "sh {file}"`. This exercises the runner, the limits, the
//! scoring and the output files without depending on `prove` / `solve`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tessera-bench-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the task scripts and an index listing them: (file, expected, category, script).
fn write_index(dir: &Path, tasks: &[(&str, &str, &str, &str)]) -> PathBuf {
    let mut index = String::from("relative_path\texpected\tcategory\tnotes\n");
    for (file, expected, category, script) in tasks {
        let path = dir.join("tasks").join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, script).unwrap();
        index.push_str(&format!(
            "tasks/{file}\t{expected}\t{category}\tignored column\n"
        ));
    }
    let index_path = dir.join("verdicts.tsv");
    std::fs::write(&index_path, index).unwrap();
    index_path
}

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .arg("bench")
        .args(args)
        .env_remove("TESSERA_BENCH_TOOL_COMMAND")
        .output()
        .unwrap()
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn task<'a>(results: &'a Value, file: &str) -> &'a Value {
    results["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["path"] == format!("tasks/{file}"))
        .unwrap_or_else(|| panic!("{file} missing from results.json"))
}

const YES: &str =
    "echo '{\"answer\": \"YES\", \"time_seconds\": 0.01, \"certificate\": {\"x\": 1}}'\n";
const NO: &str = "echo '{\"answer\": \"NO\"}'\n";

#[test]
fn scores_answers_kills_runaways_and_writes_every_output() {
    let dir = scratch("c");
    let index = write_index(
        &dir,
        &[
            ("good/yes.c", "terminating", "good", YES),
            ("good/no.c", "nonterminating", "good", NO),
            ("bad/yes.c", "nonterminating", "bad", YES),
            ("bad/no.c", "terminating", "bad", NO),
            (
                "other/maybe.c",
                "terminating",
                "other",
                "echo '{\"answer\":\"MAYBE\",\"reason\":\"engine gave up\"}'\n",
            ),
            (
                "other/unsupported.c",
                "terminating",
                "other",
                "echo 'x.c:3:1: unsupported: goto' >&2\nexit 4\n",
            ),
            // The background sleep holds stdout open: only killing the
            // whole process group lets the run go on.
            (
                "other/sleeper.c",
                "terminating",
                "other",
                "sleep 1000 &\nsleep 1000\n",
            ),
            (
                "other/hog.c",
                "terminating",
                "other",
                "exec bash -c 's=x; while :; do s=\"$s$s\"; done'\n",
            ),
            (
                "other/garbage.c",
                "terminating",
                "other",
                "echo 'this is not JSON'\n",
            ),
        ],
    );
    let out = dir.join("out");
    let o = bench(&[
        index.to_str().unwrap(),
        "--tool-command",
        "sh {file}",
        // Generous for the quick stand-ins on a loaded machine; the sleeper
        // is killed at 3.5 s.
        "--timeout",
        "3",
        "--grace",
        "0.5",
        "--memory",
        "128",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(2),
        "wrong answers must fail the run\n{stdout}\n{stderr}"
    );

    let r = json(&out.join("results.json"));
    let status = |f: &str| {
        task(&r, f)["tessera"]["status"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(status("good/yes.c"), "correct");
    assert_eq!(status("good/no.c"), "correct");
    assert_eq!(status("bad/yes.c"), "wrong");
    assert_eq!(status("bad/no.c"), "wrong");
    assert_eq!(status("other/maybe.c"), "unknown");
    assert_eq!(status("other/unsupported.c"), "error:unsupported");
    assert_eq!(status("other/sleeper.c"), "timeout");
    assert_eq!(status("other/hog.c"), "memout");
    assert_eq!(status("other/garbage.c"), "error:output");
    assert_eq!(
        task(&r, "other/unsupported.c")["tessera"]["answer"],
        "MAYBE"
    );
    assert_eq!(
        task(&r, "other/unsupported.c")["tessera"]["detail"],
        "x.c:3:1: unsupported: goto"
    );
    assert_eq!(
        task(&r, "other/maybe.c")["tessera"]["detail"],
        "engine gave up"
    );
    let sleeper_wall = task(&r, "other/sleeper.c")["tessera"]["wall_seconds"]
        .as_f64()
        .unwrap();
    assert!(
        (3.4..8.0).contains(&sleeper_wall),
        "killed at {sleeper_wall} s, deadline 3.5 s"
    );
    assert!(
        task(&r, "other/hog.c")["tessera"]["peak_memory_mb"]
            .as_f64()
            .unwrap()
            < 128.0
    );

    let overall = &r["overall"];
    assert_eq!(overall["tasks"], 9);
    assert_eq!(
        (
            overall["correct_yes"].as_u64(),
            overall["correct_no"].as_u64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(
        (overall["wrong_yes"].as_u64(), overall["wrong_no"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (overall["maybe"].as_u64(), overall["timeout"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (overall["memout"].as_u64(), overall["error"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(overall["svcomp_score"], 2 + 1 - 32 - 16);
    let categories: Vec<&str> = r["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["category"].as_str().unwrap())
        .collect();
    assert_eq!(categories, ["bad", "good", "other"]);
    assert_eq!(r["categories"][1]["svcomp_score"], 3);
    assert_eq!(r["wrong"].as_array().unwrap().len(), 2);

    // The table, with the wrong answers named at the end.
    assert!(
        stdout.contains("WRONG  tasks/bad/yes.c: tessera answered YES, expected nonterminating"),
        "{stdout}"
    );
    assert!(
        stdout.contains("WRONG  tasks/bad/no.c: tessera answered NO, expected terminating"),
        "{stdout}"
    );
    let total: Vec<&str> = stdout
        .lines()
        .find(|l| l.starts_with("total"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(
        total[..11],
        ["total", "9", "1", "1", "1", "1", "1", "1", "1", "2", "-45"]
    );
    // The last column: the median wall time of the two correct answers.
    assert!(total.len() == 12 && total[11].parse::<f64>().is_ok(), "{total:?}");

    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 10);
    assert!(
        csv.lines()
            .any(|l| l.starts_with("tasks/other/sleeper.c,other,terminating,MAYBE,timeout,")),
        "{csv}"
    );
    let svg = std::fs::read_to_string(out.join("cactus.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("tessera (2 solved)"));
    let md = std::fs::read_to_string(out.join("scoreboard.md")).unwrap();
    assert!(md.contains("**2 wrong answer(s):**"));
    // Each run's output is kept for debugging.
    let log =
        std::fs::read_to_string(out.join("logs/tessera/tasks/other/unsupported.c.stderr")).unwrap();
    assert!(log.contains("unsupported: goto"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn filter_and_markdown_without_wrong_answers_exit_zero() {
    let dir = scratch("md");
    let index = write_index(
        &dir,
        &[
            ("a/yes.c", "terminating", "a", YES),
            ("a/no.c", "nonterminating", "a", NO),
            ("b/wrong.c", "nonterminating", "b", YES),
        ],
    );
    let out = dir.join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args([
            "bench",
            index.to_str().unwrap(),
            "--filter",
            "a/",
            "--markdown",
            "--jobs",
            "1",
        ])
        .args(["--out", out.to_str().unwrap()])
        // The stand-in may also come from the environment.
        .env("TESSERA_BENCH_TOOL_COMMAND", "sh {file}")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.starts_with("### Benchmark: "), "{stdout}");
    assert!(
        stdout.contains("cores,") && stdout.contains("MB memory"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| **total** | **2** | **1** | **1** | **0** | **0** |"),
        "{stdout}"
    );
    assert!(stdout.contains("No wrong answers."));
    let r = json(&out.join("results.json"));
    assert_eq!(r["overall"]["svcomp_score"], 3);
    assert_eq!(r["settings"]["filter"], "a/");
    assert_eq!(r["tasks"].as_array().unwrap().len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chc_mode_compares_with_z3() {
    let dir = scratch("chc");
    // Each file answers as "tessera" or as "z3" depending on its argument.
    let both_sat = "if [ \"$1\" = z3 ]; then sleep 0.3; echo sat; else echo sat; fi\n";
    let only_z3 = "if [ \"$1\" = z3 ]; then echo unsat; else echo unknown; fi\n";
    let only_tessera = "if [ \"$1\" = z3 ]; then echo timeout; else echo sat; fi\n";
    let index = write_index(
        &dir,
        &[
            ("p1.smt2", "sat", "x", both_sat),
            ("p2.smt2", "unsat", "x", only_z3),
            ("p3.smt2", "sat", "y", only_tessera),
        ],
    );
    let out = dir.join("out");
    let o = bench(&[
        index.to_str().unwrap(),
        "--vs-z3",
        "--tool-command",
        "sh {file} tessera",
        "--z3-command",
        "sh {file} z3",
        "--timeout",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r = json(&out.join("results.json"));
    assert_eq!(r["mode"], "chc");
    assert!(
        r["overall"].get("svcomp_score").is_none(),
        "SV-COMP points are for termination only"
    );
    assert_eq!(task(&r, "p2.smt2")["z3"]["answer"], "unsat");
    assert_eq!(task(&r, "p3.smt2")["z3"]["status"], "timeout");
    let c = &r["comparison"];
    assert_eq!(
        (c["tessera_correct"].as_u64(), c["z3_correct"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(
        (
            c["both_correct"].as_u64(),
            c["only_tessera"].as_u64(),
            c["only_z3"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    let ratio = c["time_ratio"].as_f64().unwrap();
    assert!(
        ratio < 0.9,
        "tessera answers at once, z3 sleeps: ratio {ratio}"
    );
    assert!(
        stdout.contains("correct sat") && stdout.contains("z3 (total)"),
        "{stdout}"
    );
    assert!(stdout.contains("ratio tessera/z3"), "{stdout}");
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv
        .lines()
        .next()
        .unwrap()
        .ends_with(",z3_answer,z3_status,z3_wall_seconds,z3_peak_memory_mb"));
    assert!(std::fs::read_to_string(out.join("cactus.svg"))
        .unwrap()
        .contains("z3 (2 solved)"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn int_only_uses_the_adjacent_details_file() {
    let dir = scratch("intonly");
    let index = write_index(
        &dir,
        &[
            ("ints.c", "terminating", "c", YES),
            ("pointers.c", "terminating", "c", YES),
        ],
    );
    std::fs::write(
        dir.join("details.tsv"),
        "relative_path\tint_only\ntasks/ints.c\t1\ntasks/pointers.c\t0\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = bench(&[
        index.to_str().unwrap(),
        "--int-only",
        "--tool-command",
        "sh {file}",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r = json(&out.join("results.json"));
    let paths: Vec<&str> = r["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["tasks/ints.c"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_invocations_fail_with_clear_exit_codes() {
    let dir = scratch("bad");
    let index = write_index(&dir, &[("a.c", "terminating", "c", YES)]);
    let idx = index.to_str().unwrap();
    let missing = bench(&[dir.join("nope.tsv").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(5));
    let vs_z3_on_c = bench(&[idx, "--vs-z3", "--tool-command", "sh {file}"]);
    assert_eq!(vs_z3_on_c.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&vs_z3_on_c.stderr).contains("--vs-z3"));
    let nothing = bench(&[
        idx,
        "--filter",
        "no-such-task",
        "--tool-command",
        "sh {file}",
    ]);
    assert_eq!(nothing.status.code(), Some(2));
    std::fs::write(
        dir.join("broken.tsv"),
        "relative_path\texpected\ntasks/a.c\tperhaps\n",
    )
    .unwrap();
    let broken = bench(&[dir.join("broken.tsv").to_str().unwrap()]);
    assert_eq!(broken.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&broken.stderr).contains("broken.tsv:2"));
    let zero = bench(&[idx, "--timeout", "0", "--tool-command", "sh {file}"]);
    assert_eq!(zero.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
