//! The Horn files kept in `horn/` stay honest: each is exactly what
//! `tessera emit` writes today for its source program, and the `z3` binary
//! (another solver than ours) gives the answer recorded in `horn/expected.tsv`.

use std::path::{Path, PathBuf};
use std::process::Command;
use tessera::horn::encode::encode;
use tessera::instrument::{instrument, Mode};
use tessera::ir::IntSemantics;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

struct Entry {
    file: String,
    program: String,
    what: String,
    rank: String,
    expected: String,
}

fn entries() -> Vec<Entry> {
    let text = std::fs::read_to_string(root().join("horn/expected.tsv")).expect("horn/expected.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Entry {
                file: f[0].into(),
                program: f[1].into(),
                what: f[2].into(),
                rank: f[3].into(),
                expected: f[4].into(),
            }
        })
        .collect()
}

/// What `tessera emit --ints math` prints for an entry.
fn emit(e: &Entry) -> String {
    // A path relative to the package root (the tests' working directory), so
    // the file names printed in the Horn files do not depend on the checkout.
    let p = tessera::c::parse_file(&Path::new("benchmarks/programs").join(&e.program), IntSemantics::Math, tessera::ir::MachineModel::lp64())
        .expect("front end");
    let enc = encode(&p).expect("encoding");
    match e.what.as_str() {
        "plain" => {
            // What the command writes (clause by clause) is the emitted
            // system's text.
            let system = enc.clone().into_emitted_system().to_string();
            let mut enc = enc;
            let mut written = Vec::new();
            enc.write_emitted(&mut written).expect("writing to memory");
            let written = String::from_utf8(written).expect("UTF-8");
            assert_eq!(written, system, "{}: the streamed clauses differ from the emitted system", e.program);
            written
        }
        w => {
            let (mode, l) = w.split_once(':').expect("mode:loop");
            let mode = if mode == "term" { Mode::Term } else { Mode::Rank };
            let cand = if e.rank == "0" {
                tessera::ranking::RankingCandidate::zero(tessera::ranking::Combination::Piecewise)
            } else {
                tessera::ranking::parse_candidate(&e.rank).expect("candidate")
            };
            let scheme = tessera::termination::scheme_of(&cand);
            instrument(&enc, l.parse().expect("loop"), &scheme, mode).system.to_string()
        }
    }
}

#[test]
fn horn_files_are_current() {
    for e in entries() {
        let path = root().join("horn").join(&e.file);
        let stored = std::fs::read_to_string(&path).unwrap_or_default();
        let now = emit(&e);
        if std::env::var_os("TESSERA_REGENERATE_HORN").is_some() {
            std::fs::write(&path, &now).expect("write");
            continue;
        }
        assert_eq!(stored, now, "{} is stale: run with TESSERA_REGENERATE_HORN=1", e.file);
    }
}

fn z3_answer(path: &Path) -> String {
    // Spacer's interpolating unsat cores off (`fp.spacer.iuc=0`): with the
    // default, z3 4.8.12 does not prove the T_term file of 3pieces in minutes;
    // with it, in a fraction of a second.
    let out = Command::new("z3")
        .arg("-T:60")
        .arg("fp.spacer.iuc=0")
        .arg(path)
        .output()
        .expect("the z3 binary is needed for this test (apt-get install z3)");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(!stdout.contains("error"), "z3 rejected {}: {stdout}", path.display());
    stdout.lines().next().unwrap_or("").trim().to_string()
}

#[test]
fn z3_binary_agrees_with_recorded_answers() {
    for e in entries() {
        let got = z3_answer(&root().join("horn").join(&e.file));
        assert_eq!(got, e.expected, "{}", e.file);
    }
}
