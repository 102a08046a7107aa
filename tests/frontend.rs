//! C front end: lowering of small C programs (tests/c) to `ir::Program`,
//! checked by loop structure, error positions, and by running the lowered
//! program on concrete values.

use num_bigint::BigInt;
use std::path::Path;
use tessera::c::{parse_file, parse_source};
use tessera::error::TesseraError;
use tessera::ir::{find_loops, Action, IntSemantics, Program};
use tessera::term::{Valuation, Value};

fn path_of(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn lower(name: &str, sem: IntSemantics) -> Program {
    match parse_file(&path_of(name), sem, tessera::ir::MachineModel::lp64()) {
        Ok(p) => p,
        Err(e) => panic!("{name}: {e}"),
    }
}

fn lower_err(name: &str, sem: IntSemantics) -> TesseraError {
    match parse_file(&path_of(name), sem, tessera::ir::MachineModel::lp64()) {
        Ok(p) => panic!("{name}: lowered, expected an error:\n{p}"),
        Err(e) => e,
    }
}

/// Execute the lowered program: `havoc` takes the next of `inputs`; at each
/// location the first edge whose assumptions all hold is taken. Returns the
/// final state at `exit`, or `None` if execution got stuck or ran too long.
fn run(p: &Program, inputs: &[i64]) -> Option<Valuation> {
    let mut env: Valuation = p.vars.iter().map(|v| (v.name.clone(), Value::Int(BigInt::from(0)))).collect();
    let mut next_input = 0usize;
    let mut at = p.entry;
    for _ in 0..100_000 {
        if at == p.exit {
            return Some(env);
        }
        let mut moved = false;
        for e in p.successors(at) {
            let mut trial = env.clone();
            let mut k = next_input;
            let ok = e.actions.iter().all(|a| match a {
                Action::Assume(t) => t.eval(&trial) == Some(Value::Bool(true)),
                Action::Assign(v, t) => match t.eval(&trial) {
                    Some(val) => {
                        trial.insert(v.clone(), val);
                        true
                    }
                    None => false,
                },
                Action::Havoc(v) | Action::Choose(v) => {
                    let x = inputs.get(k).copied().unwrap_or(0);
                    k += 1;
                    trial.insert(v.clone(), Value::Int(BigInt::from(x)));
                    true
                }
                // Not a run of the program (a recursive call returning).
                Action::Inexact => false,
                // A recursion mark is no step.
                Action::Mark(_) => true,
            });
            if ok {
                env = trial;
                next_input = k;
                at = e.to;
                moved = true;
                break;
            }
        }
        if !moved {
            return None;
        }
    }
    None
}

fn int(env: &Valuation, name: &str) -> i64 {
    match env.get(name) {
        Some(Value::Int(i)) => i64::try_from(i.clone()).unwrap_or_else(|_| panic!("{name} = {i} out of i64")),
        other => panic!("no integer value for {name}: {other:?}"),
    }
}

fn span_of(e: &TesseraError) -> (usize, usize) {
    match e {
        TesseraError::Unsupported { span: Some(s), .. } | TesseraError::Syntax { span: Some(s), .. } => (s.line, s.col),
        other => panic!("no position in {other:?}"),
    }
}

#[test]
fn paper_nonterminating_loop_is_one_loop_with_one_body_edge() {
    let p = lower("nonterm_xy.c", IntSemantics::Math);
    let loops = find_loops(&p).expect("reducible");
    assert_eq!(loops.len(), 1);
    let h = loops[0].header;
    assert_eq!(p.locations[h].note, "while");
    let span = p.locations[h].span.clone().expect("header has a position");
    assert_eq!((span.line, span.col), (4, 5));
    assert!(span.file.ends_with("nonterm_xy.c"));
    // The whole body is one edge back to the header.
    let back: Vec<_> = p.successors(h).filter(|e| e.to == h).collect();
    assert_eq!(back.len(), 1);
    let text: Vec<String> = back[0].actions.iter().map(|a| a.to_string()).collect();
    assert_eq!(text, ["assume (not (= x y))", "x := (+ x 1)", "y := (+ y 1)"]);
    // It never reaches the exit.
    assert!(run(&p, &[]).is_none());
}

#[test]
fn nested_loops_and_their_parents() {
    let p = lower("nested.c", IntSemantics::Math);
    let loops = find_loops(&p).expect("reducible");
    assert_eq!(loops.len(), 3);
    let note = |i: usize| p.locations[loops[i].header].note.clone();
    let find = |n: &str| (0..loops.len()).find(|&i| note(i) == n).unwrap_or_else(|| panic!("no {n} loop"));
    let (outer, inner, dw) = (find("for"), find("while"), find("do-while"));
    assert_eq!(loops[inner].parent, Some(outer));
    assert_eq!(loops[outer].parent, None);
    assert_eq!(loops[dw].parent, None);
    let env = run(&p, &[5]).expect("terminates");
    assert_eq!(int(&env, "sum"), 16);
    assert_eq!(int(&env, "n"), 0);
}

#[test]
fn scalars_whose_address_is_taken_live_in_memory() {
    let p = lower("pointer.c", IntSemantics::Math);
    let env = run(&p, &[]).expect("terminates");
    // `x` is one cell of its own block, written through `p`.
    assert_eq!(int(&env, "x"), 0);
    assert!(p.approximations.iter().all(|(_, k)| !k.to_string().contains("any value")), "{:?}", p.approximations);
}

#[test]
fn machine_integers_wrap_around() {
    let p = lower("wrap.c", IntSemantics::Machine);
    let env = run(&p, &[]).expect("terminates");
    assert_eq!(int(&env, "over"), -2147483648);
    assert_eq!(int(&env, "c"), 4);
    assert_eq!(int(&env, "minus_one"), 4294967295);
    assert_eq!(int(&env, "narrow"), -56);
    assert_eq!(int(&env, "u"), 4294967295);
    assert_eq!(int(&env, "widened"), 2147483648);
    assert_eq!(int(&env, "b"), 1);
}

#[test]
fn math_integers_do_not_wrap_but_unsigned_still_does() {
    let p = lower("wrap.c", IntSemantics::Math);
    let env = run(&p, &[]).expect("terminates");
    assert_eq!(int(&env, "over"), 2147483648);
    assert_eq!(int(&env, "narrow"), 200);
    assert_eq!(int(&env, "c"), 4);
    assert_eq!(int(&env, "minus_one"), 4294967295);
    assert_eq!(int(&env, "u"), 4294967295);
    // No `mod` anywhere for the signed computation.
    let text = p.to_string();
    assert!(text.contains("over := (+ big 1)"), "{text}");
}

#[test]
fn division_truncates_and_bit_operations_are_exact() {
    let p = lower("division.c", IntSemantics::Machine);
    let env = run(&p, &[-7, 2]).expect("terminates");
    assert_eq!((int(&env, "q"), int(&env, "r")), (-3, -1));
    assert_eq!((int(&env, "h"), int(&env, "m")), (-3, -3));
    assert_eq!((int(&env, "shr"), int(&env, "low")), (-4, 1));
    assert_eq!((int(&env, "shl"), int(&env, "inv")), (-56, 6));
    let env = run(&p, &[7, -2]).expect("terminates");
    assert_eq!((int(&env, "q"), int(&env, "r")), (-3, 1));
    let env = run(&p, &[-7, -2]).expect("terminates");
    assert_eq!((int(&env, "q"), int(&env, "r")), (3, -1));
    // 2^28 * 8 = 2^31 wraps to INT_MIN.
    let env = run(&p, &[268435456, 1]).expect("terminates");
    assert_eq!(int(&env, "shl"), -2147483648);
    // Division by zero is undefined: that execution does not continue.
    assert!(run(&p, &[5, 0]).is_none());
    // Division by a constant stays linear.
    for e in &p.edges {
        for a in &e.actions {
            if let Action::Assign(v, t) = a {
                if v == "h" || v == "m" || v == "shr" || v == "low" {
                    assert!(t.is_linear(), "{v} := {t}");
                }
            }
        }
    }
}

#[test]
fn switch_falls_through_and_handles_default_and_ranges() {
    let p = lower("switch.c", IntSemantics::Math);
    let y = |x: i64| int(&run(&p, &[x]).expect("terminates"), "y");
    assert_eq!(y(1), 11);
    assert_eq!(y(2), 10);
    assert_eq!(y(4), 100);
    assert_eq!(y(7), 1000);
    assert_eq!(y(9), 999);
    assert!(find_loops(&p).expect("reducible").is_empty());
}

#[test]
fn goto_loop_has_its_label_as_header() {
    let p = lower("goto_loop.c", IntSemantics::Math);
    let loops = find_loops(&p).expect("reducible");
    assert_eq!(loops.len(), 1);
    let h = &p.locations[loops[0].header];
    assert_eq!(h.note, "label again");
    assert_eq!(h.span.as_ref().map(|s| s.line), Some(6));
    assert_eq!(int(&run(&p, &[4]).expect("terminates"), "s"), 10);
}

#[test]
fn calls_are_inlined_with_fresh_locals_and_short_circuit() {
    let p = lower("calls.c", IntSemantics::Math);
    assert!(p.approximations.is_empty());
    let x = p.var("twice.x").expect("callee's x renamed");
    assert_eq!(x.source_name, "x");
    assert!(p.var("x").is_some());
    let env = run(&p, &[3]).expect("terminates");
    assert_eq!((int(&env, "a"), int(&env, "b"), int(&env, "r")), (6, 14, 0));
    assert_eq!(int(&env, "calls"), 3);
    let env = run(&p, &[6]).expect("terminates");
    assert_eq!((int(&env, "r"), int(&env, "calls")), (1, 3));
    // `x > 0 && twice(x) > 10` with x <= 0 does not call twice.
    let env = run(&p, &[-1]).expect("terminates");
    assert_eq!((int(&env, "r"), int(&env, "calls")), (0, 2));
}

#[test]
fn recursion_becomes_a_descent_loop_and_is_recorded_as_approximation() {
    let p = lower("recursion.c", IntSemantics::Math);
    let loops = find_loops(&p).expect("reducible");
    assert_eq!(loops.len(), 1);
    assert_eq!(p.locations[loops[0].header].note, "recursive fact");
    assert!(!p.approximations.is_empty());
    assert_eq!(p.approximations[0].1, tessera::ir::Approximation::RecursiveCall { function: "fact".to_string() });
    // The descent edge: n > 0 and the parameter decremented.
    let h = loops[0].header;
    let back: Vec<String> = p
        .successors(h)
        .filter(|e| e.to == h)
        .map(|e| e.actions.iter().map(|a| a.to_string()).collect::<Vec<_>>().join("; "))
        .collect();
    assert_eq!(back, ["assume (not (<= n.2 0)); n.2 := (- n.2 1)".replace("n.2", "fact.n")]);
}

#[test]
fn goto_into_a_loop_is_split_into_single_entry_loops() {
    // The body entered at `inside` is copied: every loop of the model has
    // one header (find_loops succeeds), and the loop is still there.
    let p = parse_file(&path_of("irreducible.c"), IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect("lowers");
    let loops = find_loops(&p).expect("reducible after splitting");
    assert!(!loops.is_empty());
}

#[test]
fn assert_exit_and_assume_end_or_cut_executions() {
    let p = lower("assert_exit.c", IntSemantics::Machine);
    assert_eq!(find_loops(&p).expect("reducible").len(), 1);
    assert_eq!(int(&run(&p, &[13]).expect("failed assert exits"), "x"), 13);
    assert_eq!(int(&run(&p, &[50]).expect("exit(1) exits"), "x"), 42);
    assert_eq!(int(&run(&p, &[5]).expect("terminates"), "x"), 0);
    assert!(run(&p, &[-1]).is_none(), "a failed assume has no continuation");
}

#[test]
fn nondet_values_are_ranged_in_machine_semantics_only_for_signed() {
    let src = "extern int __VERIFIER_nondet_int(void);\nextern unsigned __VERIFIER_nondet_uint(void);\n\
               int main() { int x = __VERIFIER_nondet_int(); unsigned u = __VERIFIER_nondet_uint(); return x + u; }";
    let m = parse_source("n.c", src, IntSemantics::Machine, tessera::ir::MachineModel::lp64()).expect("lowers").to_string();
    assert!(m.contains("havoc x; assume (and (<= (- 2147483648) x) (<= x 2147483647))"), "{m}");
    let q = parse_source("n.c", src, IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect("lowers").to_string();
    assert!(q.contains("havoc x; havoc u; assume (and (<= 0 u) (<= u 4294967295))"), "{q}");
}

#[test]
fn for_with_continue_has_one_header() {
    let src = "int main() { int s = 0; for (int i = 0; i < 10; i++) { if (i % 2) continue; s += i; } return s; }";
    let p = parse_source("f.c", src, IntSemantics::Machine, tessera::ir::MachineModel::lp64()).expect("lowers");
    let loops = find_loops(&p).expect("reducible");
    assert_eq!(loops.len(), 1);
    assert_eq!(p.locations[loops[0].header].note, "for");
    assert_eq!(int(&run(&p, &[]).expect("terminates"), "s"), 20);
}

#[test]
fn side_effects_in_conditions_happen_once_and_in_order() {
    let src = "int main() { int i = 0, n = 0; while (i++ < 3) n += i; int k = 5; do k -= 2; while (k-- > 0); return 0; }";
    let p = parse_source("c.c", src, IntSemantics::Machine, tessera::ir::MachineModel::lp64()).expect("lowers");
    let env = run(&p, &[]).expect("terminates");
    assert_eq!((int(&env, "i"), int(&env, "n")), (4, 6));
    assert_eq!(int(&env, "k"), -1);
}

#[test]
fn bitwise_operators_without_exact_encoding_are_bounded_and_recorded() {
    for src in ["int main() { int x = 3, y = 5; return x & y; }", "int main() { int x = 0; x = x << x; return 0; }"] {
        let p = parse_source("bits.c", src, IntSemantics::Machine, tessera::ir::MachineModel::lp64()).expect("lowers");
        assert!(p.approximations.iter().any(|(_, k)| matches!(k, tessera::ir::Approximation::Bitwise { .. })), "{src}: {:?}", p.approximations);
    }
}

#[test]
fn errors_carry_positions_and_never_panic() {
    let cases: &[(&str, &str)] = &[
        ("", "main"),
        // Text gcc rejects reports gcc's first error.
        ("int main() { int x\n  return 0; }", "expected"),
        ("int main() { int y = 1 ?: 2; return y; }", "?:"),
        ("int main() { __int128 x = 0; return 0; }", "__int128"),
        ("int f(int); void reg(int (*)(int)); int main() { reg(f); return 0; }", "function pointer passed to a function without a definition"),
        ("int main() { int x = 999999999999999999999999999; return 0; }", "64 bits"),
        ("struct s { int a; }; int main() { struct s v; return v.b; }", "no member named 'b'"),
        ("int main() { _Complex double z; return 0; }", "complex"),
        ("int main() { int x = 0; switch (x) { case 0: x++; __attribute__((fallthrough)); case 1: x++; } return x; }", "attribute"),
        ("#include \"does_not_exist.h\"\nint main() {}", "does_not_exist.h"),
    ];
    for (src, expected) in cases {
        match parse_source("bad.c", src, IntSemantics::Machine, tessera::ir::MachineModel::lp64()) {
            Ok(p) => panic!("{src:?} lowered:\n{p}"),
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.contains(expected), "{src:?}: {msg}");
                assert!(msg.starts_with("bad.c:"), "{src:?} has no position: {msg}");
            }
        }
    }
    // Binary garbage.
    let garbage: String = (0..2000u32).map(|i| char::from_u32((i * 7919) % 0x2fff + 1).unwrap_or('x')).collect();
    assert!(parse_source("junk.c", &garbage, IntSemantics::Math, tessera::ir::MachineModel::lp64()).is_err());
    let bytes: Vec<u8> = (0..4000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    let dir = std::env::temp_dir().join(format!("tessera-fe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("junk.c");
    std::fs::write(&f, &bytes).expect("write");
    assert!(parse_file(&f, IntSemantics::Math, tessera::ir::MachineModel::lp64()).is_err());
    assert!(matches!(parse_file(&dir.join("missing.c"), IntSemantics::Math, tessera::ir::MachineModel::lp64()), Err(TesseraError::Io { .. })));
    // Absurd nesting is refused, not a stack overflow.
    let deep = format!("int main() {{ return {}1{}; }}", "(".repeat(5000), ")".repeat(5000));
    assert!(parse_source("deep.c", &deep, IntSemantics::Math, tessera::ir::MachineModel::lp64()).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spans_name_the_given_file_and_line() {
    let e = parse_source("mem.c", "int f(int);\nvoid reg(int (*)(int));\nint main() {\n  int (*fp)(int) = f;\n  reg(fp);\n}\n", IntSemantics::Math, tessera::ir::MachineModel::lp64())
        .expect_err("a function pointer given to code outside the program");
    match e {
        TesseraError::Unsupported { span: Some(s), .. } => {
            assert_eq!(s.file, "mem.c");
            assert_eq!((s.line, s.col), (5, 7));
        }
        other => panic!("{other:?}"),
    }
}


/// Print the lowering of the file named by `TESSERA_C` (a debugging aid).
#[test]
#[ignore]
fn dump() {
    let Ok(f) = std::env::var("TESSERA_C") else { return };
    let sem = if std::env::var("TESSERA_MACHINE").is_ok() { IntSemantics::Machine } else { IntSemantics::Math };
    match parse_file(Path::new(&f), sem, tessera::ir::MachineModel::lp64()) {
        Ok(p) => println!("{p}"),
        Err(e) => println!("error: {e}"),
    }
}

/// Coverage on the SV-COMP termination benchmarks (run with `--ignored
/// --nocapture`): how many lower, and the errors grouped by message.
#[test]
#[ignore]
fn benchmark_coverage() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/c");
    let details = std::fs::read_to_string(root.join("details.tsv")).expect("the shared benchmarks beside the repository (../shared/bench/c)");
    let sem = if std::env::var("TESSERA_MACHINE").is_ok() { IntSemantics::Machine } else { IntSemantics::Math };
    let mut header: Vec<&str> = Vec::new();
    let mut groups: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let (mut total, mut ok, mut int_total, mut int_ok, mut panics) = (0, 0, 0, 0, 0);
    let mut approximated = 0;
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
        let r = std::panic::catch_unwind(|| parse_file(&path, sem, tessera::ir::MachineModel::lp64()));
        match r {
            Ok(Ok(p)) => {
                ok += 1;
                if int_only {
                    int_ok += 1;
                }
                if !p.approximations.is_empty() {
                    approximated += 1;
                }
                let n = find_loops(&p).map(|l| l.len()).unwrap_or(usize::MAX);
                *loops_hist.entry(n).or_default() += 1;
            }
            Ok(Err(e)) => {
                let msg = e.to_string();
                // Group by the message without its position.
                let key = msg.split_once(": ").map_or(msg.as_str(), |x| x.1).to_string();
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
    println!("loops per program: {loops_hist:?}; with approximations (recursion): {approximated}");
    let mut sorted: Vec<_> = groups.into_iter().collect();
    sorted.sort_by_key(|g| std::cmp::Reverse(g.1.len()));
    for (k, files) in sorted {
        println!("{:4}  {k}", files.len());
        for f in files.iter().take(3) {
            println!("        {f}");
        }
    }
    assert_eq!(panics, 0);
}

/// Differential check against gcc (`-fwrapv`): every `*.c` in `$TESSERA_DIFF`
/// starts with `// inputs: a b c` and `// expect: v0=.. v1=.. v2=..` (values
/// printed by the gcc-compiled program on those inputs); the lowered
/// program, run in machine semantics, must end with the same values.
#[test]
#[ignore]
fn differential_against_gcc() {
    let Ok(dir) = std::env::var("TESSERA_DIFF") else { return };
    let mut entries: Vec<_> = std::fs::read_dir(&dir).expect("dir").flatten().map(|e| e.path()).collect();
    entries.sort();
    let (mut checked, mut failed) = (0, 0);
    for path in entries.iter().filter(|p| p.extension().is_some_and(|x| x == "c")) {
        let text = std::fs::read_to_string(path).expect("read");
        let mut lines = text.lines();
        let inputs: Vec<i64> = lines
            .next()
            .and_then(|l| l.strip_prefix("// inputs: "))
            .map(|l| l.split_whitespace().filter_map(|x| x.parse().ok()).collect())
            .unwrap_or_default();
        let expect: Vec<(String, i64)> = lines
            .next()
            .and_then(|l| l.strip_prefix("// expect: "))
            .map(|l| {
                l.split_whitespace()
                    .filter_map(|kv| kv.split_once('=').and_then(|(k, v)| Some((k.to_string(), v.parse().ok()?))))
                    .collect()
            })
            .unwrap_or_default();
        // The harness reads `long` inputs; the lowered program's havoc gets
        // the same value (in range of `long`).
        let p = match parse_file(path, IntSemantics::Machine, tessera::ir::MachineModel::lp64()) {
            Ok(p) => p,
            Err(e) => {
                println!("{}: {e}", path.display());
                continue;
            }
        };
        checked += 1;
        let Some(env) = run(&p, &inputs) else {
            failed += 1;
            println!("{}: stuck", path.display());
            continue;
        };
        for (k, v) in &expect {
            // Compare as the C program printed it: cast to long.
            let got = match env.get(k.as_str()) {
                Some(Value::Int(i)) => i.clone(),
                _ => BigInt::from(i64::MIN),
            };
            let ty = p.var(k).map(|x| x.ty);
            let printed = match ty {
                Some(t) if !t.is_signed() && t.bits() == 64 => {
                    // (long) of an unsigned long: two's complement.
                    if got > BigInt::from(i64::MAX) { got - (BigInt::from(1) << 64) } else { got }
                }
                _ => got,
            };
            if printed != BigInt::from(*v) {
                failed += 1;
                println!("{}: {k} = {printed}, gcc says {v}", path.display());
                break;
            }
        }
    }
    println!("differential: {checked} programs, {failed} mismatches");
    assert_eq!(failed, 0);
}

/// Mutated benchmark programs (characters deleted, duplicated, replaced)
/// must give a program or a Syntax/Unsupported error: never a panic or an
/// internal error. Set `TESSERA_MUTATIONS` to the number of mutants.
#[test]
#[ignore]
fn mutated_programs_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/c/svcomp15");
    let dirs = std::fs::read_dir(&root).expect("the shared benchmarks beside the repository (../shared/bench/c)");
    let mut files: Vec<std::path::PathBuf> = dirs
        .flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten().map(|f| f.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    let n: usize = std::env::var("TESSERA_MUTATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let mut seed: u64 = 0x9e3779b97f4a7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut ok, mut errors) = (0, 0);
    for i in 0..n {
        let f = &files[(next() as usize) % files.len()];
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        let mut chars: Vec<char> = text.chars().collect();
        for _ in 0..(1 + next() % 4) {
            if chars.is_empty() {
                break;
            }
            let at = (next() as usize) % chars.len();
            let len = 1 + (next() as usize) % 12;
            match next() % 3 {
                0 => {
                    let end = (at + len).min(chars.len());
                    chars.drain(at..end);
                }
                1 => {
                    let end = (at + len).min(chars.len());
                    let piece: Vec<char> = chars[at..end].to_vec();
                    chars.splice(at..at, piece);
                }
                _ => {
                    let pool = ['(', ')', '{', '}', ';', '*', '&', '?', ':', '-', '9', 'x', '"', '\'', '#', '\\'];
                    chars[at] = pool[(next() as usize) % pool.len()];
                }
            }
        }
        let src: String = chars.into_iter().collect();
        let r = std::panic::catch_unwind(|| parse_source(&format!("mutant{i}.c"), &src, IntSemantics::Machine, tessera::ir::MachineModel::lp64()));
        match r {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(TesseraError::Internal(m))) => panic!("internal error on mutant of {}: {m}\n{src}", f.display()),
            Ok(Err(_)) => errors += 1,
            Err(_) => panic!("panic on mutant of {}:\n{src}", f.display()),
        }
    }
    println!("mutants: {ok} lowered, {errors} rejected with errors");
}

#[test]
fn a_global_initialized_with_an_address_is_set_at_program_start() {
    // gcc accepts an address cast to an integer as a static initializer
    // (Linux drivers' symbol CRC tables); its value is known only after
    // linking, so it is computed at program start, never refused.
    let src = "extern void *sym;\n\
               static unsigned long const crc = (unsigned long)(&sym);\n\
               int counter = 10;\n\
               int main(void) { while (counter > 0) counter--; return crc == 0; }\n";
    let p = parse_source("crc.c", src, IntSemantics::C, tessera::ir::MachineModel::lp64()).expect("lowers");
    // The address is some nonzero value (the run picks 1; 0 is no address).
    assert!(run(&p, &[]).is_none(), "the address of `sym` taken as 0:\n{p}");
    let end = run(&p, &[1; 8]).expect("runs to the end");
    assert_eq!(int(&end, "counter"), 0, "{p}");
}

#[test]
fn increments_and_compound_assignments_of_integers_and_pointers() {
    let src = "int main() { int a[4] = {0, 0, 0, 0}; int *p = a; int i = 1; \
               int j = i++; int k = ++i; i += 5; i -= 1; \
               p++; p += 2; int *q = p--; int d = p - a; int e = q - a; \
               return j + k + d + e; }";
    let p = parse_source("u.c", src, IntSemantics::Machine, tessera::ir::MachineModel::lp64()).expect("lowers");
    let env = run(&p, &[]).expect("terminates");
    assert_eq!((int(&env, "i"), int(&env, "j"), int(&env, "k")), (7, 1, 3));
    assert_eq!((int(&env, "d"), int(&env, "e")), (2, 3));
}

#[test]
fn a_statement_expression_types_its_last_expression_with_its_own_declarations() {
    // Outside, `T` is `long`: the statement expression is typed as an
    // integer there. Inside, its own `T` makes `(T) p` a pointer, which a
    // condition may not use as an integer value; a type decided outside
    // and read inside would take it for an integer cast.
    let src = "typedef long T; int main() { int *p = 0; if (({ typedef int *T; (T) p; })) return 1; return 0; }";
    let e = parse_source("s.c", src, IntSemantics::Machine, tessera::ir::MachineModel::lp64()).expect_err("refused");
    assert!(e.to_string().contains("a pointer used as an integer value"), "{e}");
}

#[test]
fn constant_expressions_fold_as_the_operators_do() {
    let src = "enum { A = 3, B = A * 2 + (1 << 4), C = -A, D = ~0u > 5 ? 7 : 8, F = sizeof(long) + _Alignof(int) };
struct S { char c; int a[4]; };
int a[B - 20 + 6];
int main(void) {
  int x = 0, r = 0;
  int n = sizeof a / sizeof a[0];
  switch (x + B) { case 22: r = 1; break; default: r = 2; }
  int o = __builtin_offsetof(struct S, a[2]);
  int ch = __builtin_choose_expr(A > 2 && !(B < 0), 10, 20);
  int cp = __builtin_constant_p(A + 1);
  int e = __builtin_expect(C, 0);
  int d = D, f = F, g = __builtin_classify_type(B);
  return 0;
}";
    let p = parse_source("k.c", src, IntSemantics::C, tessera::ir::MachineModel::lp64()).expect("lowers");
    let env = run(&p, &[]).expect("terminates");
    let got: Vec<i64> = ["n", "r", "o", "ch", "cp", "e", "d", "f", "g"].iter().map(|v| int(&env, v)).collect();
    assert_eq!(got, vec![8, 1, 12, 10, 1, -3, 7, 12, 1]);
}

#[test]
fn undefined_or_variable_constants_are_refused_where_written() {
    let lower = |src: &str, sem| parse_source("u.c", src, sem, tessera::ir::MachineModel::lp64());
    let main = "int main(void) { return 0; }";
    // Overflow is undefined under `c` semantics, wraps under `machine`.
    let overflow = format!("enum {{ X = 2147483647 + 1 }};\n{main}");
    let e = lower(&overflow, IntSemantics::C).expect_err("signed overflow");
    assert!(e.to_string().contains("non-constant expression"), "{e}");
    assert_eq!(span_of(&e), (1, 12));
    assert!(lower(&overflow, IntSemantics::Machine).is_ok());
    // A shift past the width is undefined under every semantics.
    let e = lower("int main(void) { int x = 0;\n  switch (x) { case 1 << 40: break; }\n  return 0; }", IntSemantics::Machine).expect_err("shift out of range");
    assert!(e.to_string().contains("non-constant expression"), "{e}");
    assert_eq!(span_of(&e), (2, 21));
}
