//! C front end: lowering of small C programs to `ir::Program`.

use std::path::Path;
use tessera::c::{parse_file, parse_source};
use tessera::ir::{find_loops, IntSemantics, Program};

fn lower(name: &str, sem: IntSemantics) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name);
    match parse_file(&path, sem) {
        Ok(p) => p,
        Err(e) => panic!("{name}: {e}"),
    }
}

/// Print the lowering of the file named by `TESSERA_C` (a debugging aid).
#[test]
#[ignore]
fn dump() {
    let Ok(f) = std::env::var("TESSERA_C") else { return };
    let sem = if std::env::var("TESSERA_MACHINE").is_ok() { IntSemantics::Machine } else { IntSemantics::Math };
    match parse_file(Path::new(&f), sem) {
        Ok(p) => println!("{p}"),
        Err(e) => println!("error: {e}"),
    }
}

/// Coverage on the SV-COMP termination benchmarks (run with `--ignored
/// --nocapture`): how many lower, and the errors grouped by message.
#[test]
#[ignore]
fn benchmark_coverage() {
    let root = Path::new("/work/shared/bench/c");
    let Ok(details) = std::fs::read_to_string(root.join("details.tsv")) else {
        eprintln!("benchmark folder absent, skipped");
        return;
    };
    let sem = if std::env::var("TESSERA_MACHINE").is_ok() { IntSemantics::Machine } else { IntSemantics::Math };
    let mut header: Vec<&str> = Vec::new();
    let mut groups: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let (mut total, mut ok, mut int_total, mut int_ok, mut panics) = (0, 0, 0, 0, 0);
    let mut loops_hist: std::collections::BTreeMap<usize, usize> = Default::default();
    for (i, line) in details.lines().enumerate() {
        let cols: Vec<&str> = line.split('\t').collect();
        if i == 0 {
            header = cols;
            continue;
        }
        let col = |name: &str| header.iter().position(|h| *h == name).and_then(|k| cols.get(k)).copied();
        let Some(rel) = col("relative_path") else { continue };
        let int_only = col("int_only") == Some("1");
        total += 1;
        if int_only {
            int_total += 1;
        }
        let path = root.join(rel);
        let r = std::panic::catch_unwind(|| parse_file(&path, sem));
        match r {
            Ok(Ok(p)) => {
                ok += 1;
                if int_only {
                    int_ok += 1;
                }
                let n = find_loops(&p).map(|l| l.len()).unwrap_or(usize::MAX);
                *loops_hist.entry(n).or_default() += 1;
            }
            Ok(Err(e)) => {
                let msg = e.to_string();
                // Group by the message without its position.
                let key = msg.splitn(2, ": ").nth(1).unwrap_or(&msg).to_string();
                let key = format!("{}{}", if int_only { "[int_only] " } else { "" }, key);
                groups.entry(key).or_default().push(rel.to_string());
            }
            Err(_) => {
                panics += 1;
                groups.entry("PANIC".into()).or_default().push(rel.to_string());
            }
        }
    }
    println!("semantics {sem:?}: {ok}/{total} lowered; int_only {int_ok}/{int_total}; panics {panics}");
    println!("loops per program: {loops_hist:?}");
    let mut sorted: Vec<_> = groups.into_iter().collect();
    sorted.sort_by(|a, b| b.1.len().cmp(&a.1.len()));
    for (k, files) in sorted {
        println!("{:4}  {k}", files.len());
        for f in files.iter().take(3) {
            println!("        {f}");
        }
    }
    assert_eq!(panics, 0);
}
