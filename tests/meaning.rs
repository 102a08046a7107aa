//! The seven classes of issue 55 (what C leaves undefined or unspecified,
//! decided in `src/c/meaning.rs`), each in both directions: the programs of
//! `tests/c/meaning/` state on their first line what compiled runs do
//! (`terminating`, `nonterminating`, or `unspecified` where gcc's -O0 and
//! -O2 builds may differ), optionally another verdict for `--ints math`
//! (mathematical integers are not gcc's), and `// oracle: -O2` when only the
//! -O2 build runs the program as the model means it (infinite recursion
//! overflows the stack at -O0). Each statement is first checked against the
//! gcc-compiled program; then Tessera, under `--ints c`, `machine` and
//! `math` (with `--allocation never-fails`: a compiled run's allocations
//! succeed), may answer MAYBE or refuse (exit 4), never the opposite of the
//! verdict, and neither YES nor NO where the behaviour is unspecified.

mod verdicts;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/meaning");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/c/meaning exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

/// The value of `// KEY: value` among the first lines of `text`.
fn header<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    text.lines().take(4).find_map(|l| l.strip_prefix("// ")?.strip_prefix(key)?.strip_prefix(':').map(str::trim))
}

/// Whether the gcc-compiled program at `level` runs for more than a
/// second (true) or ends (false); a build that fails fails the test.
fn compiled_runs_forever(file: &Path, level: &str, work: &Path) -> bool {
    let exe = work.join(format!("{}{level}", file.file_stem().unwrap().to_string_lossy()));
    let built = Command::new("gcc").args(["-w", level, "-o"]).arg(&exe).arg(file).status().expect("gcc runs");
    assert!(built.success(), "{}: gcc {level} failed", file.display());
    let mut child = Command::new(&exe).stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().expect("runs");
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().expect("waits").is_some() {
            return false;
        }
        if start.elapsed() > Duration::from_secs(1) {
            let _ = child.kill();
            let _ = child.wait();
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn answer(file: &Path, ints: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["prove", "--format", "json", "--timeout", "5", "--ints", ints, "--allocation", "never-fails"])
        .arg(file)
        .output()
        .expect("tessera runs");
    if out.status.code() == Some(4) {
        return "refused".into();
    }
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{}: {e}: {}", file.display(), String::from_utf8_lossy(&out.stderr)));
    json["answer"].as_str().unwrap_or("?").to_string()
}

#[test]
fn the_statements_hold_for_gcc_compiled_runs() {
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/meaning-gcc");
    std::fs::create_dir_all(&work).expect("work folder");
    let files = programs();
    assert!(files.len() >= 20, "the programs of the seven classes are missing");
    let mut wrong = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        let verdict = header(&text, "expected").unwrap_or_else(|| panic!("{}: no verdict", f.display()));
        let levels: &[&str] = match header(&text, "oracle") {
            Some(level) => &[if level == "-O2" { "-O2" } else { "-O0" }],
            None => &["-O0", "-O2"],
        };
        let runs: Vec<bool> = levels.iter().map(|l| compiled_runs_forever(f, l, &work)).collect();
        let holds = match verdict {
            "terminating" => runs.iter().all(|r| !r),
            "nonterminating" => runs.iter().all(|r| *r),
            // Open in C: gcc's builds may differ, and one of them loops.
            _ => runs.iter().any(|r| *r),
        };
        if !holds {
            wrong.push(format!("{}: stated {verdict}, gcc {levels:?} runs forever: {runs:?}", f.display()));
        }
    }
    assert!(wrong.is_empty(), "statements that gcc contradicts:\n{}", wrong.join("\n"));
}

#[test]
fn no_answer_contradicts_what_c_leaves_open() {
    let files = programs();
    assert!(files.len() >= 20, "the programs of the seven classes are missing");
    let wrong = verdicts::two_at_a_time(&files, |f| {
        let text = std::fs::read_to_string(f).expect("readable");
        let verdict = header(&text, "expected").expect("a verdict");
        let mut bad = Vec::new();
        for ints in ["c", "machine", "math"] {
            let expected = if ints == "math" { header(&text, "expected with --ints math").unwrap_or(verdict) } else { verdict };
            let a = answer(f, ints);
            if verdicts::forbidden(expected).contains(&a.as_str()) {
                bad.push(format!("{} (--ints {ints}): {a}, expected {expected}", f.display()));
            }
        }
        bad
    });
    assert!(wrong.is_empty(), "wrong answers:\n{}", wrong.join("\n"));
}

/// The fixes must not cost the answers they are about where C decides:
/// the ending variants that Tessera can decide are still decided.
#[test]
fn what_c_decides_is_still_answered() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/meaning");
    for (file, ints, expected) in [
        ("recursion_local_through_integer_ends.c", "c", "YES"),
        ("int_min_rem_minus_one.c", "c", "YES"),
        ("int_min_rem_minus_one.c", "machine", "YES"),
        ("int_min_rem_minus_one.c", "math", "NO"),
        ("int_min_div_minus_one.c", "machine", "YES"),
        ("different_literals_ends.c", "c", "YES"),
        ("distinct_objects_ends.c", "c", "YES"),
        ("distinct_locals_ends.c", "c", "YES"),
        ("pause_unreachable_ends.c", "c", "YES"),
        ("asm_jump_free_ends.c", "c", "YES"),
        ("null_dereference_ends.c", "c", "YES"),
        ("null_dereference_avoided_loops.c", "c", "NO"),
    ] {
        assert_eq!(answer(&dir.join(file), ints), expected, "{file} under --ints {ints}");
    }
}
