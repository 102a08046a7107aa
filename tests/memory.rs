//! Pointers, arrays and stack buffers in the C front end (issue 6).

use std::collections::BTreeMap;
use std::path::Path;
use tessera::c::parse_file;
use tessera::ir::{Approximation, IntSemantics};

/// How many SV-COMP programs lower, and why the others do not.
/// `cargo test --release --test memory -- --ignored --nocapture`
#[test]
#[ignore]
fn measure_benchmarks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/c");
    let details = std::fs::read_to_string(root.join("details.tsv")).expect("the shared benchmarks beside the repository (../shared/bench/c)");
    let mut totals: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in details.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(path), Some(category)) = (cols.first(), cols.get(2)) else { continue };
        let memory = category.contains("memory-alloca");
        let result = parse_file(&root.join(path), IntSemantics::Math, tessera::ir::MachineModel::lp64());
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

fn path_of(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn lower(name: &str) -> tessera::ir::Program {
    parse_file(&path_of(name), IntSemantics::Math, tessera::ir::MachineModel::lp64()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn has_approximation(p: &tessera::ir::Program, kind: impl Fn(&Approximation) -> bool) -> bool {
    p.approximations.iter().any(|(_, k)| kind(k))
}

fn prove_yes(p: &tessera::ir::Program) {
    let opts = tessera::termination::ProveOptions { timeout: std::time::Duration::from_secs(30), ..Default::default() };
    let out = tessera::termination::prove_program(p, &opts);
    assert!(matches!(out.answer, tessera::termination::Answer::Yes { .. }), "{}: {:?}", p.file, out.answer.word());
}

#[test]
fn strlen_over_an_alloca_buffer_terminates_by_its_bounds() {
    let p = lower("mem_strlen.c");
    assert_eq!(tessera::ir::find_loops(&p).expect("reducible").len(), 1);
    // The loop ends only because every access is in bounds, and the bytes
    // read are unknown: both are recorded, so no NO is possible.
    assert!(has_approximation(&p, |k| *k == Approximation::MemorySafety), "{:?}", p.approximations);
    assert!(has_approximation(&p, |k| *k == Approximation::Load { ty: tessera::ir::IntType::CHAR }), "{:?}", p.approximations);
    assert!(p.vars.iter().any(|v| v.name == "p.off"), "the moving pointer has an offset variable");
    prove_yes(&p);
}

#[test]
fn a_pointer_loop_up_to_an_end_pointer_lowers() {
    let p = lower("mem_ptr_end.c");
    assert_eq!(tessera::ir::find_loops(&p).expect("reducible").len(), 1);
    assert!(has_approximation(&p, |k| *k == Approximation::MemorySafety), "{:?}", p.approximations);
    // `p < end` compares offsets within one block.
    let text = p.to_string();
    assert!(text.contains("(< p.off end.off)"), "{text}");
}

#[test]
fn an_array_loop_over_a_nondeterministic_size_lowers() {
    let p = lower("mem_array_loop.c");
    assert_eq!(tessera::ir::find_loops(&p).expect("reducible").len(), 1);
    assert!(has_approximation(&p, |k| *k == Approximation::MemorySafety), "{:?}", p.approximations);
    // Stores into a block of unknown size are dropped: no load, no cells.
    assert!(!has_approximation(&p, |k| matches!(k, Approximation::Load { .. })), "{:?}", p.approximations);
    assert!(!p.vars.iter().any(|v| v.name.starts_with("mem")), "{p}");
}

#[test]
fn a_cell_passed_to_an_inlined_function_is_tracked_exactly() {
    let p = lower("mem_inline.c");
    assert_eq!(tessera::ir::find_loops(&p).expect("reducible").len(), 1);
    // `alloca(sizeof(int))` is one exact cell: no approximation at all.
    assert!(p.approximations.is_empty(), "{:?}", p.approximations);
    assert!(p.vars.iter().any(|v| v.name == "mem1[0]"), "{p}");
    prove_yes(&p);
}

#[test]
fn structs_are_blocks_and_pointers_loaded_from_them_are_unknown() {
    let p = parse_file(&path_of("mem_struct.c"), IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect("structs are modelled");
    // `p->next` is a pointer stored in memory: any pointer, recorded.
    assert!(has_approximation(&p, |k| *k == Approximation::PointerInMemory), "{:?}", p.approximations);
}

#[test]
fn address_taken_scalars_arrays_and_struct_members_are_cells() {
    for (src, cell) in [
        ("int main() { int x = 1; int *p = &x; return *p; }", "x"),
        ("int main() { int a[3]; a[2] = 1; return a[2]; }", "a[2]"),
        ("struct s { char c; long v; }; int main() { struct s t = { 1, 2 }; return (int)t.v; }", "t.v"),
    ] {
        let p = tessera::c::parse_source("m.c", src, IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect(src);
        assert!(p.vars.iter().any(|v| v.name == cell), "{src}: no cell {cell}:\n{p}");
        assert!(p.approximations.iter().all(|(_, k)| !k.to_string().contains("any value")), "{src}: {:?}", p.approximations);
    }
}

#[test]
fn a_pointer_whose_address_is_taken_is_a_pointer_cell() {
    // `*pp = &x` writes `a` exactly, so reading `a` is no approximation.
    let src = "int main() { int x = 0; int *a = 0; int **pp = &a; *pp = &x; while (a != 0) { } return 0; }";
    let p = tessera::c::parse_source("m.c", src, IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect(src);
    assert!(p.vars.iter().any(|v| v.name == "a.base"), "{p}");
    assert!(!has_approximation(&p, |k| *k == Approximation::PointerInMemory), "{:?}", p.approximations);
    let opts = tessera::termination::ProveOptions { timeout: std::time::Duration::from_secs(30), ..Default::default() };
    let out = tessera::termination::prove_program(&p, &opts);
    assert_eq!(out.answer.word(), "NO", "{p}");
}

#[test]
fn a_call_through_a_function_pointer_goes_to_its_target() {
    // `step` holds `dec`: the call is inlined as `dec`, the loop counts down.
    let p = lower("fnptr_known.c");
    prove_yes(&p);
    // A pointer that may hold a function that never returns: NO, with the
    // choice of target made by the program's own input.
    let p = parse_file(&path_of("regress/fnptr_choice_spins.c"), IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect("lowers");
    let opts = tessera::termination::ProveOptions { timeout: std::time::Duration::from_secs(30), ..Default::default() };
    let out = tessera::termination::prove_program(&p, &opts);
    assert_eq!(out.answer.word(), "NO", "{:?}", p.approximations);
}

#[test]
fn a_pointer_returned_through_a_function_pointer_is_its_targets_result() {
    // Each target returns a pointer to a 0, so the loop never runs (from
    // any other value it would not end): the result is each target's own.
    let p = lower("fnptr_pointer_result.c");
    prove_yes(&p);
}

#[test]
fn recursion_through_a_function_pointer_is_not_refused_and_no_no_rests_on_it() {
    let opts = tessera::termination::ProveOptions { timeout: std::time::Duration::from_secs(10), ..Default::default() };
    let lower_regress = |name: &str| parse_file(&path_of(&format!("regress/{name}")), IntSemantics::C, tessera::ir::MachineModel::lp64()).unwrap_or_else(|e| panic!("{name}: {e}"));
    // The call may not return in the model: no NO from that (and no YES:
    // MAYBE, where the program terminates).
    let p = lower_regress("fnptr_recursion_terminates.c");
    assert!(has_approximation(&p, |k| matches!(k, Approximation::RecursionThroughPointer { function } if function == "count")), "{:?}", p.approximations);
    assert!(p.forbid_no.is_empty(), "{:?}", p.forbid_no);
    let out = tessera::termination::prove_program(&p, &opts);
    assert_ne!(out.answer.word(), "NO");
    // A function returning a pointer, called directly while it runs.
    let p = lower_regress("fnptr_recursion_pointer_result.c");
    assert!(has_approximation(&p, |k| matches!(k, Approximation::RecursionThroughPointer { function } if function == "walk")), "{:?}", p.approximations);
    assert_ne!(tessera::termination::prove_program(&p, &opts).answer.word(), "NO");
    // NO stays possible on runs that never make such a call.
    let p = lower_regress("fnptr_recursion_avoidable_loop.c");
    let out = tessera::termination::prove_program(&p, &opts);
    assert_eq!(out.answer.word(), "NO", "{:?}", p.approximations);
}

#[test]
fn an_integer_holding_an_address_converts_back_to_that_pointer() {
    // CIL's way of reading memory (every Linux driver task): the address
    // as an integer plus an offset, converted back. The load reads a[1],
    // 0, so the loop, which would never end from any other value, is not
    // entered.
    let src = "int main(void) { int a[2] = {5, 0}; unsigned long x; unsigned long off = 4UL; x = (unsigned long)a + off;
               int n = *((int *)x); while (n != 0) { n++; } return 0; }";
    let p = tessera::c::parse_source("m.c", src, IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect(src);
    prove_yes(&p);
    // The same through an initializer (`uintptr_t`-style code).
    let src = "int main(void) { int a[2] = {5, 0}; unsigned long x = (unsigned long)a + 4; int n = *((int *)x); while (n != 0) { n++; } return 0; }";
    let p = tessera::c::parse_source("m.c", src, IntSemantics::Math, tessera::ir::MachineModel::lp64()).expect(src);
    prove_yes(&p);
    // A store through such an integer sets the loop's bound exactly: NO
    // (the address is held on the edge that converts it back, so no
    // unknown pointer is left for the witness to depend on).
    let src = "int main(void) { int n = 0; unsigned long x; x = (unsigned long)(&n); *((int *)x) = 5; while (n > 0) { } return 0; }";
    let p = tessera::c::parse_source("m.c", src, IntSemantics::C, tessera::ir::MachineModel::ilp32()).expect(src);
    let opts = tessera::termination::ProveOptions { timeout: std::time::Duration::from_secs(30), ..Default::default() };
    assert_eq!(tessera::termination::prove_program(&p, &opts).answer.word(), "NO", "{p}");
}

#[test]
fn a_block_malloc_returns_keeps_its_cells_through_the_pointer_holding_it() {
    // The pointer's base is the allocation's result (NULL or the block), not
    // a constant: the block is reached through it all the same.
    for (src, cell) in [
        ("void *malloc(unsigned long); int main() { int *p = malloc(sizeof(int)); *p = __VERIFIER_nondet_int(); while (*p > 0) (*p)--; return 0; }", "mem1[0]"),
        (
            "void *malloc(unsigned long); struct s { int a; int b; }; int main() { struct s *q = malloc(sizeof(struct s)); q->a = __VERIFIER_nondet_int(); while (q->a > 0) q->a = q->a - 1; return 0; }",
            "mem1.a",
        ),
    ] {
        let p = tessera::c::parse_source("m.c", src, IntSemantics::C, tessera::ir::MachineModel::lp64()).expect(src);
        assert!(p.vars.iter().any(|v| v.name == cell), "{src}: no cell {cell}:\n{p}");
        let opts = tessera::termination::ProveOptions { timeout: std::time::Duration::from_secs(30), ..Default::default() };
        let out = tessera::termination::prove_program(&p, &opts);
        assert_eq!(out.answer.word(), "YES", "{src}");
    }
}

#[test]
fn a_pointer_as_an_integer_is_zero_exactly_when_null() {
    // CIL's way of testing a pointer (every SV-COMP Linux driver): both
    // sides converted to integers. A stub that always returns NULL makes
    // the loop unreachable; an allocation that may succeed does not.
    let prove = |src: &str| {
        let p = tessera::c::parse_source("m.c", src, IntSemantics::C, tessera::ir::MachineModel::lp64()).expect(src);
        let opts = tessera::termination::ProveOptions { timeout: std::time::Duration::from_secs(30), ..Default::default() };
        tessera::termination::prove_program(&p, &opts).answer.word()
    };
    let null_stub = "void *alloc(unsigned long n) { return (void *)0; }
        int main() { char *p = alloc(16); unsigned long null = (unsigned long)(char *)0;
          if ((unsigned long)p == null) return -12;
          while (__VERIFIER_nondet_int()) { } return 0; }";
    assert_eq!(prove(null_stub), "YES");
    let may_succeed = "void *malloc(unsigned long);
        int main() { char *p = malloc(16); if ((unsigned long)p == 0UL) return -12; while (1) { } return 0; }";
    assert_ne!(prove(may_succeed), "YES");
    // The null pointer moved by a member's offset converts to the offset.
    let offset = |cmp: &str| format!("struct s {{ int a; long b; }}; int main() {{ if ((unsigned long)&((struct s *)0)->b {cmp} 8) {{ while (1) {{ }} }} return 0; }}");
    assert_eq!(prove(&offset("!=")), "YES");
    assert_eq!(prove(&offset("==")), "NO");
}

#[test]
fn an_address_as_an_integer_is_known_only_where_flat_addresses_fix_it() {
    // Nonzero at the pointer's width is all the model knows of an object's
    // address: a truncated or signed view of it may be anything, so none of
    // these loops may get YES (each may run forever on some layout), and
    // none gets NO either (the address is a value the model chose).
    let answer = |src: &str, model: tessera::ir::MachineModel| {
        let p = tessera::c::parse_source("a.c", src, IntSemantics::C, model).expect(src);
        let opts = tessera::termination::ProveOptions { timeout: std::time::Duration::from_secs(5), ..Default::default() };
        tessera::termination::prove_program(&p, &opts).answer.word()
    };
    for (i, src) in [
        "int x; int main() { unsigned long a = (unsigned long)&x; while (a != 0) { } return 0; }",
        "int x; int main() { while ((unsigned char)(unsigned long)&x != 0) { } return 0; }",
        "int x; int main() { while ((long)&x > 0) { } return 0; }",
        "int x; int main() { while ((long)&x < 0) { } return 0; }",
        "int x[4]; int main() { unsigned long a = (unsigned long)&x[1], b = (unsigned long)&x[0]; while (a - b != 4) { } return 0; }",
    ]
    .into_iter()
    .enumerate()
    {
        // Both data models, taken in turn.
        let model = if i % 2 == 0 { tessera::ir::MachineModel::lp64() } else { tessera::ir::MachineModel::ilp32() };
        assert_eq!(answer(src, model), "MAYBE", "{src}");
    }
    // The null pointer's value is known: 0.
    assert_eq!(answer("int main() { int *p = 0; unsigned long a = (unsigned long)p; while (a != 0) { } return 0; }", tessera::ir::MachineModel::ilp32()), "YES");
}

/// The terms assigned to the variable `name` anywhere in `p`, printed.
fn assignments_to(p: &tessera::ir::Program, name: &str) -> Vec<String> {
    p.edges
        .iter()
        .flat_map(|e| &e.actions)
        .filter_map(|a| match a {
            tessera::ir::Action::Assign(v, t) if v == name => Some(t.to_string()),
            _ => None,
        })
        .collect()
}

fn lower_program(name: &str) -> tessera::ir::Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/programs").join(name);
    parse_file(&path, IntSemantics::C, tessera::ir::MachineModel::lp64()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn an_address_held_only_by_variables_is_reached_only_through_them() {
    // `&i` goes to a byte pointer that hashes it and to `memcmp`, which
    // only reads: the stores through the heap pointer `e` cannot change
    // `i`, whose only assignments are the loop's own.
    let p = lower_program("hashed_counter.c");
    let mut assigned = assignments_to(&p, "i");
    assigned.sort();
    assert_eq!(assigned, ["(+ i 1)", "0"], "{assigned:?}");
    // A store through a copy of a copy of `&i` still writes `i`, and so
    // does a store through the address loaded back from memory.
    for (name, pointer) in [("counter_reset_through_copy.c", "r.base"), ("counter_reset_through_memory.c", "c.base")] {
        let p = lower_program(name);
        let assigned = assignments_to(&p, "i");
        assert!(assigned.iter().any(|t| t.starts_with("(ite") && t.contains(pointer)), "{name}: {assigned:?}");
    }
    // An address in a global is let out: code outside the program reads
    // globals by name, so its call may change `i`.
    let src = "extern void keep(void); int *g; int main(void) { int i = 0; g = &i; while (i < 10) { i++; keep(); } return 0; }";
    let p = tessera::c::parse_source("g.c", src, IntSemantics::C, tessera::ir::MachineModel::lp64()).expect(src);
    let chosen = p.edges.iter().flat_map(|e| &e.actions).any(|a| matches!(a, tessera::ir::Action::Choose(v) if v == "i"));
    assert!(chosen, "{p}");
    // So is an address in a local struct copied into the heap.
    let src = "#include <stdlib.h>\nstruct box { int *p; int pad; };\nint main(void) { int i = 0; struct box local; local.p = &i; local.pad = 0; struct box *h = malloc(sizeof *h); if (!h) return 0; *h = local; while (i < 10) { i++; int *c = h->p; *c = 0; } return 0; }";
    let p = tessera::c::parse_source("s.c", src, IntSemantics::C, tessera::ir::MachineModel::lp64()).expect(src);
    assert!(assignments_to(&p, "i").iter().any(|t| t.starts_with("(ite") && t.contains("c.base")), "{p}");
}
