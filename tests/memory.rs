//! Pointers, arrays and stack buffers in the C front end (issue 6).

use std::collections::BTreeMap;
use std::path::Path;
use tessera::c::parse_file;
use tessera::ir::IntSemantics;

/// How many SV-COMP programs lower, and why the others do not.
/// `cargo test --release --test memory -- --ignored --nocapture`
#[test]
#[ignore]
fn measure_benchmarks() {
    let root = Path::new("/work/shared/bench/c");
    let Ok(details) = std::fs::read_to_string(root.join("details.tsv")) else {
        eprintln!("no benchmarks at {}", root.display());
        return;
    };
    let mut totals: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in details.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(path), Some(category)) = (cols.first(), cols.get(2)) else { continue };
        let memory = category.contains("memory-alloca");
        let result = parse_file(&root.join(path), IntSemantics::Math);
        let key = if memory { "termination-memory-alloca" } else { "other" };
        let entry = totals.entry(key.to_string()).or_default();
        entry.1 += 1;
        match result {
            Ok(_) => entry.0 += 1,
            Err(e) => {
                if memory {
                    let msg = e.to_string();
                    let what = msg.split_once(": ").map(|x| x.1.to_string()).unwrap_or(msg);
                    errors.entry(what).or_default().push(path.rsplit('/').next().unwrap_or(path).to_string());
                }
            }
        }
    }
    for (k, (ok, all)) in &totals {
        eprintln!("{k}: {ok}/{all} lower");
    }
    for (what, files) in &errors {
        eprintln!("{:3}  {what}  (e.g. {})", files.len(), files[0]);
    }
}
