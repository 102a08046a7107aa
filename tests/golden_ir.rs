//! The printed program model (`tessera emit --ir --unsliced`: what the
//! front end builds, before slicing) of the example programs is pinned,
//! under both data models: a change to the front end that changes a model
//! shows up here as a diff of readable text, and a refactoring that claims
//! to change nothing can be checked to do so.
//!
//! The files live in `tests/ir/`, named `<folder>.<program>.<data model>.ir`.
//! After a deliberate change, regenerate them with
//! `TESSERA_REGENERATE_IR=1 cargo test --release --test golden_ir` and read
//! the diff before committing it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Programs longer than this are speed benchmarks (hundreds of kilobytes
/// of model); their models are not pinned.
const MAX_SOURCE_LINES: usize = 200;

/// The folders whose programs are pinned, with the prefix of their files.
const FOLDERS: [(&str, &str); 2] = [("benchmarks/programs", "programs"), ("tests/c", "c")];

fn programs() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for (folder, prefix) in FOLDERS {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(folder))
            .expect("folder of examples")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        files.sort();
        for f in files {
            let lines = std::fs::read_to_string(&f).expect("source").lines().count();
            if lines > MAX_SOURCE_LINES {
                continue;
            }
            let stem = f.file_stem().and_then(|s| s.to_str()).expect("name").to_string();
            // Relative to the package root, so the printed file names do
            // not depend on where the checkout is.
            let relative = Path::new(folder).join(f.file_name().expect("name"));
            out.push((relative, format!("{prefix}.{stem}")));
        }
    }
    out
}

/// The printed model, or for a program the front end refuses, its exit
/// code and message (pinned as well: a refusal is an answer too).
fn emit_ir(program: &Path, data_model: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .current_dir(root())
        .args(["emit", "--ir", "--unsliced", "--data-model", data_model])
        .arg(program)
        .output()
        .expect("runs tessera");
    if out.status.success() {
        String::from_utf8(out.stdout).expect("UTF-8")
    } else {
        format!("exit {:?}\n{}", out.status.code(), String::from_utf8_lossy(&out.stderr))
    }
}

#[test]
fn printed_models_are_current() {
    let regenerate = std::env::var_os("TESSERA_REGENERATE_IR").is_some();
    let programs = programs();
    assert!(programs.len() >= 40, "only {} example programs found", programs.len());
    let mut stale = Vec::new();
    for (program, name) in &programs {
        for data_model in ["lp64", "ilp32"] {
            let path = root().join("tests/ir").join(format!("{name}.{data_model}.ir"));
            let now = emit_ir(program, data_model);
            if regenerate {
                std::fs::write(&path, &now).expect("write");
                continue;
            }
            let stored = std::fs::read_to_string(&path).unwrap_or_default();
            if stored != now {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(stale.is_empty(), "stale (run with TESSERA_REGENERATE_IR=1 and read the diff):\n{}", stale.join("\n"));
}

#[test]
fn the_data_models_differ_where_c_says_they_do() {
    // `long` and pointers are 32 bits under ILP32 and 64 under LP64: a
    // program with a `long` must not print the same model under both, or
    // the pinned files would not pin the data model at all.
    let program = Path::new("tests/c/data_model_loop.c");
    let (a, b) = (emit_ir(program, "lp64"), emit_ir(program, "ilp32"));
    assert!(a.starts_with("program ") && b.starts_with("program "), "{a}{b}");
    assert!(a.contains("9223372036854775807") && !b.contains("9223372036854775807"), "{a}\n{b}");
}
