//! Differential testing against gcc-compiled runs (see tests/difftest/mod.rs).
//!
//! Quick:  cargo test --release --test differential
//! Long:   DIFFTEST_COUNT=20000 DIFFTEST_SEED=7 cargo test --release --test differential differential_long -- --ignored --nocapture
//!         (DIFFTEST_TIMEOUT seconds per run, DIFFTEST_JOBS, TESSERA_BIN a fixed binary)

mod difftest;

use difftest::*;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn work_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join(name)
}

/// Each shape of issue 31 (varargs, format strings, builtins with unevaluated
/// operands, layout attributes, external calls) and the list shape of issue
/// 27 are each in 6% of the programs.
/// A wrong answer on any program fails the test.
#[test]
fn differential_fixed_seed() {
    let t0 = Instant::now();
    let mut env = setup(tessera_bin(), &work_dir("difftest-work-quick"));
    env.timeout = 1.0;
    let count: u64 = 120;
    let (st, fails) = run_campaign_with(&env, 0x7e55e7a, count, 2, false, false, 6);
    eprintln!("differential (fixed seed): {} in {:.1}s", st.short(), t0.elapsed().as_secs_f64());
    for (name, s) in &st.shapes {
        eprintln!("  shape {}: {:?}", name, s);
    }
    assert_eq!(st.total.compile_errors, 0, "the generator produced programs gcc rejects");
    let show = |f: &Failure| format!("#{} {:?} under --ints {} (oracle {:?}; shapes: {})", f.idx, f.answer, f.mode, f.verdict, f.program.shapes.join(", "));
    let list: Vec<String> = fails.iter().map(show).collect();
    assert!(fails.is_empty(), "wrong answers: {}", list.join("; "));
}

#[test]
#[ignore]
fn differential_long() {
    let count: u64 = std::env::var("DIFFTEST_COUNT").ok().and_then(|s| s.parse().ok()).unwrap_or(20000);
    let seed: u64 = std::env::var("DIFFTEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let timeout: f64 = std::env::var("DIFFTEST_TIMEOUT").ok().and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let t0 = Instant::now();
    let mut env = setup(tessera_bin(), &work_dir("difftest-work"));
    env.timeout = timeout;
    let jobs: usize = std::env::var("DIFFTEST_JOBS").ok().and_then(|s| s.parse().ok()).unwrap_or(2);
    let (st, fails) = run_campaign(&env, seed, count, jobs, true, true);
    let out = std::env::var("DIFFTEST_OUT").map(PathBuf::from).unwrap_or_else(|_| work_dir("difftest-failures"));
    std::fs::create_dir_all(&out).unwrap();
    let max_min: usize = std::env::var("DIFFTEST_MINIMIZE").ok().and_then(|s| s.parse().ok()).unwrap_or(12);
    for (k, f) in fails.iter().enumerate() {
        let base = format!("seed{}-{}-{}-{:?}", seed, f.idx, f.mode, f.answer).to_lowercase();
        let expected = match (f.verdict, f.program.external) {
            (Verdict::Terminating, _) => "terminating",
            (_, false) => "nonterminating",
            (_, true) => "nonterminating (some run never ends with one of the definitions of the external functions the oracle linked)",
        };
        let shapes = if f.program.shapes.is_empty() { String::new() } else { format!("// shapes: {}\n", f.program.shapes.join(", ")) };
        let head = format!("// expected: {} (Tessera --ints {} answered {:?})\n{}", expected, f.mode, f.answer, shapes);
        std::fs::write(out.join(format!("{}.c", base)), format!("{}{}", head, f.program.clean())).unwrap();
        std::fs::write(out.join(format!("{}.instrumented.c", base)), f.program.instrumented()).unwrap();
        if k >= max_min {
            continue;
        }
        let min = minimize(&env, f, Duration::from_secs(120));
        std::fs::write(out.join(format!("{}.min.c", base)), format!("{}{}", head, strip(&min))).unwrap();
        let inst: String = min.iter().map(|l| format!("{}\n", l)).collect();
        std::fs::write(out.join(format!("{}.min.instrumented.c", base)), inst).unwrap();
    }
    println!("differential (seed {}, {} programs, {:.0}s):", seed, count, t0.elapsed().as_secs_f64());
    let t = &st.total;
    println!("  programs:               {}", t.programs);
    println!("  oracle terminating:     {}", t.terminating);
    println!("  oracle nonterminating:  {}", t.nonterminating);
    println!("  undecided:              {}", t.undecided);
    println!("  sanitizer (set aside):  {}", t.sanitizer);
    println!("  compile errors:         {}", t.compile_errors);
    println!("  Tessera YES/NO/MAYBE:   {}/{}/{}", t.yes, t.no, t.maybe);
    println!("  wrong YES:              {}", t.wrong_yes);
    println!("  wrong NO:               {}", t.wrong_no);
    println!("  NO, external calls:     {} (every oracle run ends; not wrong)", t.no_external);
    for (name, s) in &st.shapes {
        println!(
            "  shape {:<9} {} programs: oracle term {} / nonterm {} / undecided {} / sanitizer {} / compile errors {}; Tessera YES {} / NO {} / MAYBE {} (rejected {}); wrong YES {}, wrong NO {}, NO external {}",
            name, s.programs, s.terminating, s.nonterminating, s.undecided, s.sanitizer, s.compile_errors, s.yes, s.no, s.maybe, s.rejected, s.wrong_yes, s.wrong_no, s.no_external
        );
    }
    println!("  failures written to     {}", out.display());
}

/// Prints a few generated programs (debugging the generator).
#[test]
#[ignore]
fn differential_show() {
    let seed: u64 = std::env::var("DIFFTEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let env = setup(tessera_bin(), &work_dir("difftest-work"));
    for i in 0..std::env::var("DIFFTEST_COUNT").ok().and_then(|s| s.parse().ok()).unwrap_or(5u64) {
        let p = gen_program(seed, i);
        let o = oracle(&env, &p);
        println!("==== {} {:?} {} math_ok={} shapes={:?}\n{}", i, o.verdict, o.summary, p.math_ok, p.shapes, p.instrumented());
    }
}

/// The oracle's snapshots hold the heap (the registry of `driver.c`): a loop
/// whose only changing state is a node's bytes is not called
/// non-terminating, a walk around a cycle is, and a block freed and
/// allocated again leaves the registry.
#[test]
fn the_oracle_sees_the_nodes() {
    let env = setup(tessera_bin(), &work_dir("difftest-work-heap"));
    let head = "extern int __VERIFIER_nondet_int(void); extern void __VERIFIER_assume(int); extern void *malloc(unsigned long); extern void free(void *);\n\
        extern long __dt_enter(void); extern void __dt_v(long); extern void __dt_m(const void *, unsigned long); extern void __dt_end(int, long);\n\
        extern void __dt_reg(const void *, unsigned long); extern void __dt_unreg(const void *); extern long __dt_heap_mark(void); extern void __dt_heap_drop(long);\n\
        struct node { int v; struct node *next; };\n\
        int main(void) {\n\
        long __dt_fr = __dt_enter();\n\
        int k = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= k && k <= 1);\n\
        struct node *h = malloc(sizeof *h);\n\
        __dt_reg(h, sizeof *h);\n\
        h->v = 0; h->next = 0;\n";
    // the pointer never changes, the node does: every run ends
    let counts = format!("{}while (h->v < 3) {{\n__dt_v(k); __dt_m(&h, sizeof h); __dt_end(1, __dt_fr);\nh->v++;\n}}\nreturn 0; }}\n", head);
    assert_eq!(oracle_src(&env, &counts, &[0, 1], false).verdict, Verdict::Terminating);
    // a self-loop made by the input: the walk repeats its state
    let cycle = format!("{}if (k) h->next = h;\nstruct node *p = h;\nwhile (p) {{\n__dt_v(k); __dt_m(&h, sizeof h); __dt_m(&p, sizeof p); __dt_end(1, __dt_fr);\np = p->next;\n}}\nreturn 0; }}\n", head);
    assert_eq!(oracle_src(&env, &cycle, &[0, 1], false).verdict, Verdict::Nonterminating);
    // nodes freed and allocated again in a loop bounded by a node's value
    let again = format!(
        "{}while (h->v < 3) {{\n__dt_v(k); __dt_m(&h, sizeof h); __dt_end(1, __dt_fr);\nstruct node *c = malloc(sizeof *c);\n__dt_reg(c, sizeof *c);\nc->v = h->v + 1; c->next = 0;\n__dt_unreg(h);\nfree(h);\nh = c;\n}}\nreturn 0; }}\n",
        head
    );
    assert_eq!(oracle_src(&env, &again, &[0, 1], false).verdict, Verdict::Terminating);
}
