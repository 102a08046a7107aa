//! What the tests of stated verdicts share (`tests/soundness.rs`,
//! `tests/meaning.rs`): the answers a verdict forbids, and running a check
//! over programs two at a time (each proof races solver threads).

use std::path::{Path, PathBuf};

/// The answers that contradict a program's stated verdict.
pub fn forbidden(verdict: &str) -> &'static [&'static str] {
    match verdict {
        "terminating" => &["NO"],
        "nonterminating" => &["YES"],
        // C leaves the behaviour open (the order of evaluation, a layout):
        // only MAYBE.
        "unspecified" => &["YES", "NO"],
        other => panic!("unknown verdict `{other}`"),
    }
}

/// `check` on every file, two files at a time; what each found wrong.
pub fn two_at_a_time(files: &[PathBuf], check: impl Fn(&Path) -> Vec<String> + Sync) -> Vec<String> {
    let check = &check;
    std::thread::scope(|s| {
        let handles: Vec<_> = files.chunks(files.len().div_ceil(2).max(1)).map(|chunk| s.spawn(move || chunk.iter().flat_map(|f| check(f)).collect::<Vec<String>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("no panic")).collect()
    })
}
