//! Executing every run of a C program (`c::exec`): YES where every run
//! ends, never where some run may not, and giving up on what is not
//! modelled exactly.

use std::process::Command;
use std::time::Duration;
use tessera::c::exec::{Evidence, Limits, Verdict};
use tessera::c::execute_source;
use tessera::ir::{IntSemantics, MachineModel};

/// YES from execution (the evidence), or why not (a NO from a repeated
/// state reads `runs forever`).
fn run_with(text: &str, ints: IntSemantics, limits: Limits) -> Result<Evidence, String> {
    yes(execute_source("t.c", text, ints, MachineModel::lp64(), Duration::from_secs(20), limits))
}

fn yes(v: Result<Verdict, String>) -> Result<Evidence, String> {
    match v? {
        Verdict::Terminates(e) => Ok(e),
        Verdict::Forever(l) => Err(format!("runs forever: {l:?}")),
    }
}

fn run(text: &str) -> Result<Evidence, String> {
    run_with(text, IntSemantics::C, Limits::default())
}

/// Small budgets, so that a run that does not end gives up quickly.
fn small() -> Limits {
    Limits { steps_per_run: 200_000, total_steps: 1_000_000, runs: 200, depth: 200, choices_per_run: 1_000, ..Limits::default() }
}

fn iterations(e: &Evidence, line: usize) -> u64 {
    e.loops.iter().find(|l| l.line == line).unwrap_or_else(|| panic!("no loop at line {line}: {e:?}")).iterations
}

const LIST: &str = "#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 7; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) return 1;
    n->v = i; n->next = head; head = n;
  }
  int s = 0;
  for (struct node *p = head; p; p = p->next) s += p->v;
  while (head) { struct node *t = head->next; free(head); head = t; }
  return s == 21 ? 0 : 1;
}
";

#[test]
fn a_list_built_walked_and_freed_terminates_with_bounds_per_loop() {
    let e = run(LIST).expect("every run ends");
    // 7 allocations, each may fail: 7 failing runs and one where all succeed.
    assert_eq!(e.runs, 8);
    assert_eq!(iterations(&e, 5), 7);
    assert_eq!(iterations(&e, 11), 7);
    assert_eq!(iterations(&e, 12), 7);
}

#[test]
fn recursion_terminates() {
    // Two calls as operands of one `+`: C leaves their order open, so the
    // interpreter gives up (it runs one order only).
    assert!(run("int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\nint main(void) { return fib(5); }").unwrap_err().contains("order"));
    let e = run("int fib(int n) { if (n < 2) return n; int a = fib(n - 1); return a + fib(n - 2); }
int main(void) { return fib(12) == 144 ? 0 : 1; }")
    .expect("every run ends");
    assert_eq!(e.runs, 1);
    assert!(e.most_steps > 100);
    // fib(12) calls down to fib(1): 12 calls of it active at once.
    assert_eq!(e.recursions, vec![("fib".to_string(), 12)]);
}

/// Each allocation may fail; where a failure does not end the run, the
/// runs multiply (20 independent failures: 2^20 runs), beyond the budget.
#[test]
fn allocations_whose_failure_goes_on_multiply_the_runs() {
    let text = "#include <stdlib.h>
int main(void) { for (int i = 0; i < 20; i++) { int *p = malloc(4); free(p); } return 0; }";
    assert!(run_with(text, IntSemantics::C, small()).unwrap_err().contains("runs"));
    let three = "#include <stdlib.h>
int main(void) { for (int i = 0; i < 3; i++) { int *p = malloc(4); free(p); } return 0; }";
    assert_eq!(run(three).expect("every run ends").runs, 8);
}

#[test]
fn a_hash_table_with_chains_terminates() {
    let text = "#include <stdlib.h>
#include <string.h>
struct entry { int key; struct entry *next; };
struct entry *table[8];
unsigned hash(int k) { return (unsigned)k * 2654435761u % 8; }
int insert(int k) {
  struct entry *e = malloc(sizeof *e);
  if (!e) return 0;
  e->key = k; e->next = table[hash(k)]; table[hash(k)] = e;
  return 1;
}
int find(int k) {
  for (struct entry *e = table[hash(k)]; e; e = e->next)
    if (e->key == k) return 1;
  return 0;
}
int main(void) {
  memset(table, 0, sizeof table);
  for (int i = 0; i < 20; i++) if (!insert(i * 3)) return 1;
  int found = 0;
  for (int i = 0; i < 60; i++) found += find(i);
  return found;
}
";
    let e = run(text).expect("every run ends");
    assert_eq!(e.runs, 21);
    assert_eq!(iterations(&e, 19), 20);
    assert_eq!(iterations(&e, 21), 60);
}

#[test]
fn nondet_data_that_does_not_steer_control_terminates() {
    let text = "extern short __VERIFIER_nondet_short(void);
struct user { int id; short cookie; };
int main(void) {
  struct user u[5];
  for (int i = 0; i < 5; i++) { u[i].id = i; u[i].cookie = __VERIFIER_nondet_short(); }
  int s = 0;
  for (int i = 0; i < 5; i++) s += u[i].id;
  return s;
}";
    let e = run(text).expect("every run ends");
    assert_eq!(e.runs, 1);
}

#[test]
fn nondet_in_a_condition_takes_both_branches() {
    let text = "extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = 3;
  if (__VERIFIER_nondet_int()) n = 5;
  while (n > 0) n--;
  return 0;
}";
    let e = run(text).expect("every run ends");
    assert_eq!(e.runs, 2);
    assert_eq!(iterations(&e, 5), 5);
}

#[test]
fn nondet_steering_a_loop_is_no_yes() {
    let text = "extern int __VERIFIER_nondet_int(void);
int main(void) { int x = __VERIFIER_nondet_int(); while (x > 0) x--; return 0; }";
    assert!(run_with(text, IntSemantics::C, small()).is_err());
}

/// A list of three cells walked, then made cyclic and walked again,
/// the second walk's body `body` (line 9).
fn made_cyclic_after_a_walk(body: &str) -> String {
    format!(
        "#include <stdlib.h>
struct node {{ struct node *next; }};
int main(void) {{
  struct node *h = 0, *last = 0;
  for (int i = 0; i < 3; i++) {{ struct node *n = malloc(sizeof *n); if (!n) return 0; n->next = h; h = n; if (!last) last = n; }}
  int k = 0;
  for (struct node *p = h; p; p = p->next) k++;
  last->next = h;
  for (struct node *p = h; p; p = p->next) {body};
  return k;
}}"
    )
}

#[test]
fn a_closed_program_that_loops_forever_is_never_yes() {
    assert!(run_with("int main(void) { while (1); }", IntSemantics::C, small()).is_err());
    let cycle = "#include <stdlib.h>
struct node { struct node *next; };
int main(void) {
  struct node *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  if (!a || !b) return 0;
  a->next = b; b->next = a;
  for (struct node *p = a; p; p = p->next) ;
  return 0;
}";
    assert!(run_with(cycle, IntSemantics::C, small()).is_err());
    // A list made cyclic after a first walk. (With `k++` as the body the
    // runs end: `k` overflows, undefined behaviour, after 2^31 iterations
    // taken in strides; the ranking proof says the same.)
    assert!(run_with(&made_cyclic_after_a_walk("k = 1 - k"), IntSemantics::C, small()).is_err());
}

#[test]
fn undefined_behaviour_ends_a_run_under_c_only() {
    // Under `c`, `x++` past INT_MAX is undefined: the run ends there.
    let text = "int main(void) { int x = 2147483600; while (x > 0) x++; return 0; }";
    let e = run(text).expect("the run ends at the overflow");
    assert_eq!(iterations(&e, 1), 48);
    // Under `math` the loop never ends (the budget gives up).
    assert!(run_with(text, IntSemantics::Math, small()).is_err());
    // Division by zero ends the run under every semantics.
    let div = "int main(void) { int z = 0; while (1) { int y = 1 / z; } }";
    assert!(run_with(div, IntSemantics::Math, small()).is_ok());
}

#[test]
fn unsigned_arithmetic_wraps() {
    let text = "int main(void) { unsigned char c = 250; int n = 0; while (c != 4) { c++; n++; } return n; }";
    let e = run(text).expect("every run ends");
    assert_eq!(iterations(&e, 1), 10);
}

#[test]
fn memory_errors_other_than_null_give_up() {
    // A null pointer dereferenced is undefined behaviour that ends the run
    // (Linux traps), as in the model (which assumes every access valid);
    // the evidence counts the run.
    let null = "int main(void) { int *p = 0; while (*p) ; return 0; }";
    let e = run(null).expect("the run ends at the dereference");
    assert_eq!(e.undefined.len(), 1);
    assert_eq!(e.undefined[0].kind, tessera::ir::Undefined::NullDereference);
    let freed = "#include <stdlib.h>
int main(void) { int *p = malloc(4); if (!p) return 0; *p = 0; free(p); while (*p) ; return 0; }";
    assert!(run(freed).unwrap_err().contains("dead block"));
    let out = "int main(void) { int a[3] = {1, 2, 3}; int s = 0; for (int i = 0; i <= 3; i++) s += a[i]; return s; }";
    assert!(run(out).unwrap_err().contains("out of bounds"));
    let twice = "#include <stdlib.h>
int main(void) { int *p = malloc(4); free(p); free(p); return 0; }";
    assert!(run(twice).is_err());
}

#[test]
fn printf_with_percent_n_gives_up_and_without_is_run() {
    let n = "#include <stdio.h>
int main(void) { int k; printf(\"ab%n\", &k); while (k != 2) ; return 0; }";
    assert!(run(n).unwrap_err().contains("%n"));
    let plain = "#include <stdio.h>
int main(void) { for (int i = 0; i < 3; i++) printf(\"%d\\n\", i); return 0; }";
    assert_eq!(iterations(&run(plain).expect("every run ends"), 2), 3);
}

#[test]
fn floats_and_unknown_functions_give_up() {
    assert!(run("int main(void) { double d = 0.5; while (d < 3) d += 1; return 0; }").is_err());
    assert!(run("int ext(void); int main(void) { while (ext()) ; return 0; }").unwrap_err().contains("ext"));
}

#[test]
fn strings_structs_and_switch() {
    let text = "#include <string.h>
struct pair { int a; int b; };
int main(void) {
  char buf[16];
  strcpy(buf, \"hello\");
  struct pair p = { .b = 2, .a = 1 }, q = p;
  int n = 0;
  for (int i = 0; i < (int) strlen(buf); i++) {
    switch (buf[i]) { case 'l': n += q.a; break; case 'o': n += q.b; break; default: break; }
  }
  return n == 4 ? 0 : 1;
}";
    let e = run(text).expect("every run ends");
    assert_eq!(iterations(&e, 8), 5);
}

/// The command line: a YES from execution says so, and `--format json`
/// carries the evidence.
#[test]
fn prove_reports_a_yes_from_execution() {
    let dir = std::env::temp_dir().join(format!("tessera-exec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("list.c");
    std::fs::write(&file, LIST).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tessera")).args(["prove", "--timeout", "20", "--format", "json"]).arg(&file).output().unwrap();
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["answer"], "YES");
    assert_eq!(j["executed"]["runs"], 8);
    assert_eq!(j["executed"]["loops"][0]["most_iterations"], 7);
    let text = Command::new(env!("CARGO_BIN_EXE_tessera")).args(["prove", "--timeout", "20"]).arg(&file).output().unwrap();
    let s = String::from_utf8_lossy(&text.stdout);
    assert!(s.lines().next().is_some_and(|l| l.ends_with(": YES")), "{s}");
    assert!(s.contains("every run of the program was executed and ends"), "{s}");
    assert!(s.contains("list.c:11: at most 7 iterations in every run"), "{s}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn goto_out_of_loops_into_branches_and_backwards() {
    // CIL's loops: `while (1)` left by `goto`; a jump into a nested branch.
    let text = "extern int __VERIFIER_nondet_int(void);
int main(void) {
  int i = 0, k = 0;
  while (1) {
    if (!(i < 4)) goto while_break;
    i++;
  }
  while_break: ;
  if (__VERIFIER_nondet_int()) goto inner;
  k = 1;
  if (k) {
    inner: k += 2;
  }
  back: k++;
  if (k < 10) goto back;
  return k;
}";
    let e = run(text).expect("every run ends");
    assert_eq!(e.runs, 2);
    assert_eq!(iterations(&e, 4), 5);
    // A backward `goto` that never stops is never YES.
    assert!(run_with("int main(void) { int k = 0; again: k = 1 - k; goto again; }", IntSemantics::C, small()).is_err());
}

/// Many runs, each shorter than the interval at which a run looks at the
/// clock: the exploration itself must stop at its time budget (an event
/// loop forking on its input ran for 30 s on a 2 s budget).
#[test]
fn thousands_of_short_runs_stop_at_the_time_budget() {
    let text = "int __VERIFIER_nondet_int(void);
int main(void) {
  int a = 0;
  if (__VERIFIER_nondet_int()) a++; if (__VERIFIER_nondet_int()) a++; if (__VERIFIER_nondet_int()) a++;
  if (__VERIFIER_nondet_int()) a++; if (__VERIFIER_nondet_int()) a++; if (__VERIFIER_nondet_int()) a++;
  if (__VERIFIER_nondet_int()) a++; if (__VERIFIER_nondet_int()) a++; if (__VERIFIER_nondet_int()) a++;
  if (__VERIFIER_nondet_int()) a++; if (__VERIFIER_nondet_int()) a++; if (__VERIFIER_nondet_int()) a++;
  for (int i = 0; i < 300; i++) a += i;
  return a;
}
";
    let limits = Limits { runs: 100_000, total_steps: u64::MAX, ..Limits::default() };
    // With time enough, every one of the 4,096 runs ends...
    let e = yes(execute_source("t.c", text, IntSemantics::C, MachineModel::lp64(), Duration::from_secs(600), limits)).expect("every run ends");
    assert_eq!(e.runs, 4096);
    assert!(e.most_steps < 4096, "each run is shorter than the clock interval: {e:?}");
    // ... and with none, the exploration gives up on its clock.
    let r = yes(execute_source("t.c", text, IntSemantics::C, MachineModel::lp64(), Duration::from_millis(1), limits));
    let why = r.expect_err("no time to explore");
    assert!(why.contains("out of time"), "{why}");
}

/// Limits with a checkpoint every `every` steps (0: every run replayed
/// from the start).
fn checkpoints(every: u64) -> Limits {
    Limits { checkpoint_steps: every, ..Limits::default() }
}

/// Runs resumed from checkpoints are the runs replayed from the start:
/// the same runs, steps and per-loop bounds, through the constructs a
/// checkpoint's descent rebuilds (nested blocks, `for` declarations,
/// `if` branches, `do`/`while` loops, labels and `goto`) and those it
/// does not enter (a `switch` body, a called function).
#[test]
fn resuming_from_checkpoints_gives_the_runs_of_replay_from_the_start() {
    let text = "#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int v; struct node *next; };
struct node *push(struct node *h, int v) {
  struct node *n = malloc(sizeof *n);
  if (!n) exit(1);
  n->v = v; n->next = h;
  return n;
}
int main(void) {
  struct node *head = 0;
  int total = 0;
  for (int i = 0; i < 6; i++) {
    int twice = 2 * i;
    do {
      struct node *n = malloc(sizeof *n);
      if (!n) { total = -1; goto done; }
      n->v = twice; n->next = head; head = n;
    } while (0);
    if (i % 2) {
      head = push(head, i);
    } else {
      switch (i) { case 2: { int *p = malloc(sizeof *p); if (p) free(p); } break; default: break; }
    }
    for (struct node *p = head; p; p = p->next) total += p->v;
  }
  if (__VERIFIER_nondet_int()) {
    int k = 0;
    while (k < 3) { int *q = malloc(4); if (q) free(q); k++; }
  }
done:
  while (head) { struct node *t = head->next; free(head); head = t; }
  return total;
}
";
    let replayed = run_with(text, IntSemantics::C, checkpoints(0)).expect("every run ends");
    assert!(replayed.runs > 20, "{replayed:?}");
    for every in [1, 3, 17] {
        let resumed = run_with(text, IntSemantics::C, checkpoints(every)).expect("every run ends");
        assert_eq!(resumed, replayed, "checkpoints every {every} steps");
    }
}

/// A program making many allocations: replaying each run from the start
/// needs the number of runs times their length (beyond this budget of
/// steps), resuming from checkpoints only the runs' new parts.
#[test]
fn checkpoints_make_many_allocations_affordable() {
    let text = "#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 200; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) return 1;
    n->v = i; n->next = head; head = n;
  }
  while (head) { struct node *t = head->next; free(head); head = t; }
  return 0;
}
";
    let budget = Limits { total_steps: 100_000, ..checkpoints(0) };
    assert!(run_with(text, IntSemantics::C, budget).unwrap_err().contains("steps in all"));
    let e = run_with(text, IntSemantics::C, Limits { checkpoint_steps: 50, ..budget }).expect("every run ends");
    assert_eq!(e.runs, 201);
    assert_eq!(iterations(&e, 5), 200);
}

/// A run that goes on forever after a late allocation fails is found
/// when resumed from a checkpoint as when replayed: never YES.
#[test]
fn a_resumed_run_that_loops_forever_is_never_yes() {
    let text = "#include <stdlib.h>
int main(void) {
  int *keep[100];
  for (int i = 0; i < 100; i++) {
    keep[i] = malloc(sizeof(int));
    if (!keep[i] && i == 77) { while (1) { } }
    if (!keep[i]) return 1;
  }
  return 0;
}
";
    for every in [0, 10] {
        let limits = Limits { checkpoint_steps: every, steps_per_run: 100_000, ..Limits::default() };
        assert!(run_with(text, IntSemantics::C, limits).is_err(), "checkpoints every {every} steps");
    }
}

/// The verdict of execution with small budgets.
fn verdict(text: &str) -> Result<Verdict, String> {
    execute_source("t.c", text, IntSemantics::C, MachineModel::lp64(), Duration::from_secs(20), small())
}

fn forever(text: &str) -> tessera::c::exec::Lasso {
    match verdict(text) {
        Ok(Verdict::Forever(l)) => l,
        other => panic!("expected a run that repeats a state, got {other:?}"),
    }
}

/// A walk around a cyclic list comes back to the state it had: NO, at the
/// walk's loop, with the walk's state.
#[test]
fn a_walk_around_a_cyclic_list_repeats_its_state() {
    let text = "#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
  struct node *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  if (!a || !b) return 0;
  a->v = 1; b->v = 2; a->next = b; b->next = a;
  int k = 0;
  for (struct node *p = a; p; p = p->next) k = p->v;
  return k;
}";
    let l = forever(text);
    assert_eq!((l.kind, l.line, l.function.as_str()), (tessera::c::exec::LassoKind::Loop, 8, "main"));
    assert_eq!(l.period, 2, "two cells: the state comes back every second iteration");
    assert_eq!(l.heap_blocks, 2);
    assert!(l.inputs.is_empty());
    // The list made cyclic after a first walk: the second walk is the one
    // that repeats (a walk that counts, as in the test above, never
    // repeats a state: its count grows until it overflows).
    let l = forever(&made_cyclic_after_a_walk("k = 1"));
    assert_eq!(l.line, 9, "{l:?}");
    assert_eq!(l.period, 3);
}

/// Inputs are searched: a search that stops only at a value the cyclic
/// list does not hold, and a list made cyclic only on some input.
#[test]
fn inputs_that_make_a_walk_repeat_are_found() {
    let text = "#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int v; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  struct node *head = malloc(sizeof *head), *cur = head;
  head->v = 0;
  for (int i = 1; i < n; i++) { struct node *x = malloc(sizeof *x); x->v = i; cur->next = x; cur = x; }
  if (__VERIFIER_nondet_int()) cur->next = head; else cur->next = 0;
  int key = __VERIFIER_nondet_int();
  struct node *p = head;
  while (p && p->v != key) p = p->next;
  return 0;
}";
    let l = forever(text);
    assert_eq!(l.line, 12);
    let values: Vec<String> = l.inputs.iter().map(|i| i.3.to_string()).collect();
    assert_eq!(values.len(), 3, "{l:?}");
    assert_ne!(values[1], "0", "the list is made cyclic");
    assert!(l.state.iter().any(|(n, v)| n == "key" && v != "0"), "the key is not in the list: {l:?}");
}

/// An input read again and again also gets increasing values: a list
/// where a value above the head's is appended at the tail, and the append
/// links the new tail back to the head, is cyclic only when a later value
/// is larger; the walk that follows repeats its state.
#[test]
fn increasing_inputs_that_make_a_walk_repeat_are_found() {
    let text = "#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int v; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *head = 0, *tail = 0;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    if (!p) break;
    p->v = __VERIFIER_nondet_int();
    if (!head) { p->next = 0; head = tail = p; }
    else if (p->v <= head->v) { p->next = head; head = p; }
    else { p->next = head; tail->next = p; tail = p; }
  }
  int m = 0;
  for (struct node *p = head; p; p = p->next) if (p->v > m) m = p->v;
  return m;
}";
    let l = forever(text);
    assert_eq!(l.line, 17, "{l:?}");
    let value = l.inputs.iter().find(|i| i.0 == 11).unwrap_or_else(|| panic!("the value read at line 11: {l:?}"));
    assert!(value.4, "the values read at line 11 increase: {l:?}");
}

/// Loops whose state changes, or that only look alike, are not NO: the
/// first visit of a `do` loop skips its test; locals made in the body
/// die each iteration; a static counter and a field moving on change the
/// state.
#[test]
fn loops_that_end_never_repeat_a_state() {
    for text in [
        "int main(void) { int x = 3; do { } while (0); do { x--; } while (x > 0); return x; }",
        "int main(void) { int i = 0; while (i < 5) { int t = i; i = t + 1; } return i; }",
        "int main(void) { while (1) { static int k; k++; if (k > 5) break; } return 0; }",
        "#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
  struct node *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  if (!a || !b) return 0;
  a->v = 0; b->v = 0; a->next = b; b->next = a;
  struct node *p = a;
  while (p->v < 10) { p->v++; p = p->next; }
  return 0;
}",
    ] {
        match verdict(text) {
            Ok(Verdict::Terminates(_)) => {}
            other => panic!("{text}: expected YES from execution, got {other:?}"),
        }
    }
}

/// A call nested in a call of the same function that sees the same
/// arguments and memory recurses forever; one given a pointer to a local
/// is not compared (the frames' objects are left out), and recursion
/// that moves on is not NO.
#[test]
fn recursion_that_repeats_its_call() {
    let text = "#include <stdlib.h>
struct node { struct node *next; };
int length(struct node *p) { if (!p) return 0; return 1 + length(p->next); }
int main(void) {
  struct node *a = malloc(sizeof *a);
  if (!a) return 0;
  a->next = a;
  return length(a);
}";
    let l = forever(text);
    assert_eq!((l.kind, l.function.as_str(), l.line), (tessera::c::exec::LassoKind::Recursion, "length", 3));
    let through_local = "void h(int *p) { if (*p > 0) h(p); }
int main(void) { int x = 1; h(&x); return 0; }";
    assert!(!matches!(verdict(through_local), Ok(Verdict::Forever(_))), "a pointer to a local: never compared");
    let moving = "int f(int x) { if (x <= 0) return 0; return f(x - 1); }
int main(void) { return f(50); }";
    assert!(matches!(verdict(moving), Ok(Verdict::Terminates(_))));
}

/// `prove` prints a NO from execution with its loop, inputs and state,
/// in text and JSON.
#[test]
fn prove_reports_a_no_from_execution() {
    let program = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/programs/cyclic_list_search.c");
    let text = Command::new(env!("CARGO_BIN_EXE_tessera")).args(["prove", "--timeout", "20"]).arg(&program).output().unwrap();
    let s = String::from_utf8_lossy(&text.stdout);
    assert!(s.lines().next().is_some_and(|l| l.ends_with(": NO")), "{s}");
    assert!(s.contains("cyclic_list_search.c:29:5 (in `main`) does not terminate  [execution]"), "{s}");
    assert!(s.contains("cyclic_list_search.c:27:15: int 1"), "the key the ring does not hold: {s}");
    let out = Command::new(env!("CARGO_BIN_EXE_tessera")).args(["prove", "--timeout", "20", "--format", "json"]).arg(&program).output().unwrap();
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["answer"], "NO");
    assert_eq!(j["witness"]["strategy"], "execution");
    assert_eq!(j["witness"]["line"], 29);
    assert_eq!(j["witness"]["period"], 1);
    assert_eq!(j["witness"]["state"]["key"], "1");
}

/// CIL's loops of `goto`s (an LDV driver's main: read an input, jump back
/// while it is non-zero): a `goto` that lands in its block in the same
/// state as before repeats; one whose counter moves on does not.
#[test]
fn a_goto_loop_that_repeats_its_state() {
    let text = "extern int __VERIFIER_nondet_int(void);
int main(void) {
  int t = 0;
  goto check;
  body:
  t = __VERIFIER_nondet_int();
  check:
  if (__VERIFIER_nondet_int() != 0) goto body;
  return t;
}";
    let l = forever(text);
    assert_eq!((l.kind, l.line), (tessera::c::exec::LassoKind::Loop, 5), "{l:?}");
    let counts = "int main(void) {
  int i = 0;
  again:
  i++;
  if (i < 50) goto again;
  return i;
}";
    assert!(matches!(verdict(counts), Ok(Verdict::Terminates(_))));
}

/// Inputs read once and compared in every round of a long loop (the
/// shape of SV-COMP's sequentialized protocols): the plain exploration
/// forks at every comparison and never finishes; with symbolic inputs
/// each comparison follows the path condition, and the runs are the few
/// orders of the inputs.
#[test]
fn symbolic_inputs_follow_the_path_condition() {
    let text = "extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char r = __VERIFIER_nondet_uchar();
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
  if (r != 0 || a == b) return 0;
  int m = a;
  while (1) {
    if (b > m) m = b;
    if (m != a && m != b) return 1;
    r++;
    if (r == 0) break;
  }
  return 0;
}";
    let e = run_with(text, IntSemantics::C, small()).expect("every run ends");
    let pruned = e.pruned.expect("the YES came from symbolic inputs");
    assert!(pruned > 0, "{e:?}");
    // `r != 0 || a == b` is one value (its branches joined), the `if`
    // on it forks (a side returns); `if (b > m) m = b;` joins: 2 runs (4
    // without joins).
    assert_eq!(e.runs, 2, "{e:?}");
    assert_eq!(iterations(&e, 8), 256);
}

/// Branches on inputs whose sides only compute are joined (`join.rs`):
/// a flooding protocol over a graph of links read as inputs, each node
/// keeping the largest id it heard, would fork at every link and every
/// comparison (over a thousand runs); joined, the runs are the two ways of
/// the final check.
#[test]
fn joined_branches_take_every_graph_at_once() {
    let text = "extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
int main(void) {
  int id1 = __VERIFIER_nondet_int(), id2 = __VERIFIER_nondet_int(), id3 = __VERIFIER_nondet_int();
  _Bool e12 = __VERIFIER_nondet_bool(), e23 = __VERIFIER_nondet_bool(), e31 = __VERIFIER_nondet_bool();
  _Bool e21 = __VERIFIER_nondet_bool(), e32 = __VERIFIER_nondet_bool(), e13 = __VERIFIER_nondet_bool();
  int m1 = id1, m2 = id2, m3 = id3;
  for (int round = 0; round < 3; round++) {
    int n1 = m1, n2 = m2, n3 = m3;
    if (e21 && m2 > n1) n1 = m2;
    if (e31 && m3 > n1) n1 = m3;
    if (e12 && m1 > n2) n2 = m1;
    if (e32 && m3 > n2) n2 = m3;
    if (e13 && m1 > n3) n3 = m1;
    if (e23 && m2 > n3) n3 = m2;
    m1 = n1; m2 = n2; m3 = n3;
  }
  if (m1 == m2 && m2 == m3) return 0;
  return 1;
}";
    let e = run_with(text, IntSemantics::C, small()).expect("every run ends");
    assert!(e.pruned.is_some(), "symbolic inputs: {e:?}");
    assert!(e.runs <= 4, "{e:?}");
}

/// A joined value that keeps a loop going for some inputs: never YES
/// (the branch on it forks, and the run where it loops does not end).
#[test]
fn joined_values_never_yes_when_some_input_loops() {
    for join in ["if (a > 0) y = 1; else y = 0;", "y = a > 0 ? 1 : 0;", "y = a > 0 && b > 0;", "if (a > 0) { y = 1; if (b > 3) y = 2; }"] {
        let text = format!(
            "extern int __VERIFIER_nondet_int(void);
int main(void) {{
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
  int y = 0;
  unsigned k = 0;
  {join}
  while (y == 0) k++;
  return 0;
}}"
        );
        assert!(run_with(&text, IntSemantics::C, small()).is_err(), "{join}");
    }
}

/// An input that makes the loop run forever (never coming back to a
/// state: `k` counts): never YES, however the branches on it are decided.
#[test]
fn symbolic_inputs_never_yes_when_some_input_loops() {
    for body in ["if (a < b) n++;", "if (a * 3 < b + 7) n++;", "switch (a - b) { case 0: break; case 5: n += 200; break; default: n++; }"] {
        let text = format!(
            "extern int __VERIFIER_nondet_int(void);
int main(void) {{
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
  if (a > 1000 || a < -1000 || b > 1000 || b < -1000) return 0;
  int n = 0;
  unsigned k = 0;
  while (n < 100) {{ {body} k++; }}
  return 0;
}}"
        );
        assert!(run_with(&text, IntSemantics::C, small()).is_err(), "{body}");
    }
}

/// A run the symbolic exploration cannot finish gives its path
/// condition's model to the search for a repeated state: inputs that no
/// blind choice among small values and the type's ends satisfies.
#[test]
fn a_path_condition_gives_inputs_no_blind_search_finds() {
    let text = "extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
  if (a < 1000 || a > 5000 || b != 3 * a + 37) return 0;
  int x = 0;
  while (x < 10) { x = 1 - x; }
  return 0;
}";
    let l = forever(text);
    assert_eq!(l.line, 6);
    let values: Vec<i64> = l.inputs.iter().map(|i| i64::try_from(&i.3).expect("small")).collect();
    assert_eq!(values.len(), 2, "{l:?}");
    assert!((1000..=5000).contains(&values[0]) && values[1] == 3 * values[0] + 37, "{l:?}");
}

/// The symbolic exploration runs only where a run read an input: a
/// closed program that runs too long gives up once, with the plain
/// exploration's reason.
#[test]
fn symbolic_inputs_only_where_a_run_read_one() {
    let closed = run_with("int main(void) { unsigned i = 1; while (i) { i++; if (i == 0) i = 1; } return 0; }", IntSemantics::C, small()).unwrap_err();
    assert!((closed.contains("steps") || closed.contains("strides")) && !closed.contains("symbolic"), "{closed}");
    let open = run_with(
        "extern unsigned __VERIFIER_nondet_uint(void);\nint main(void) { unsigned i = __VERIFIER_nondet_uint(); while (i) i++; return 0; }",
        IntSemantics::C,
        small(),
    )
    .unwrap_err();
    assert!(open.contains("with symbolic inputs"), "{open}");
}

/// A case label is converted to the promoted type of the controlling
/// value before it is compared (C11 6.8.4.2): `case 4294967296LL` of an
/// `int` switch is `case 0`, so input 0 loops (never YES).
#[test]
fn a_symbolic_switch_converts_its_labels() {
    let text = "extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned k = 0;
  switch (x) { case 4294967296LL: while (1) k++; default: return 0; }
}";
    assert!(run_with(text, IntSemantics::C, small()).is_err());
}

/// CIL's pointer arithmetic through integers: `(unsigned long)p + 8`
/// back to a pointer is the same object 8 bytes on; the loop bound read
/// through it steers the loop.
#[test]
fn an_address_computed_as_an_integer_points_into_its_object() {
    let text = "
struct s { long a; long n; };
struct s g = { 1, 5 };
int main(void) {
  unsigned long base = (unsigned long)&g;
  unsigned long at = base + 8;
  long *n = (long *)at;
  long k = 0;
  while (k < *n) k++;
  return (int)(at - base) == 8 && k == 5 && base != 0 ? 0 : 1;
}
";
    let e = run(text).expect("every run ends");
    assert_eq!(iterations(&e, 9), 5, "the bound was read through the computed address: {e:?}");
    // What depends on the address itself (which the allocator picks) is
    // never decided: a loop bounded by it gives up.
    let e = run("int g; int main(void) { unsigned long a = (unsigned long)&g; while (a % 4096) a++; return 0; }");
    assert!(e.is_err(), "an address's value decided a branch: {e:?}");
    // A narrower integer than a pointer cannot hold the address.
    let e = run("int g; int main(void) { int a = (int)(long)&g; unsigned int b = (unsigned int)&g; while (b) b--; return a; }");
    assert!(e.is_err(), "an address in 32 bits: {e:?}");
}

/// An object declared `extern` and defined nowhere has contents the
/// program does not know: both ways of a branch on it are run.
#[test]
fn an_extern_object_without_definition_is_any_value() {
    let ok = "extern int flag; int main(void) { int i = 0; if (flag) { while (i < 3) i++; } return i; }";
    let e = run(ok).expect("both branches end");
    assert_eq!(e.runs, 2, "one run per value of the branch on `flag`: {e:?}");
    let loops = "extern int flag; int main(void) { while (flag) { } return 0; }";
    assert!(yes(execute_source("t.c", loops, IntSemantics::C, MachineModel::lp64(), Duration::from_secs(5), small())).is_err(), "`flag` may be non-zero: no YES");
}

/// Inline assembly without jumps or memory effects: its integer outputs
/// are any value (a port read), so a branch on one takes both ways;
/// never a NO on a value chosen for one (the assembly may compute it);
/// assembly that may write memory gives up.
#[test]
fn inline_assembly_outputs_are_any_value() {
    let reads = "
static unsigned char inb(int port) { unsigned char v; __asm__ volatile (\"inb %w1, %b0\" : \"=a\" (v) : \"Nd\" (port)); return v; }
int main(void) { int n = 0; while (inb(0x60) & 1) { n++; if (n > 10) break; } return n; }
";
    let e = run(reads).expect("every run ends (the loop is bounded by n)");
    assert!(e.runs >= 2, "the port's value steers the loop: {e:?}");
    let forever = "
static unsigned char inb(int port) { unsigned char v; __asm__ volatile (\"inb %w1, %b0\" : \"=a\" (v) : \"Nd\" (port)); return v; }
int main(void) { while (inb(0x60) & 1) { } return 0; }
";
    assert!(yes(execute_source("t.c", forever, IntSemantics::C, MachineModel::lp64(), Duration::from_secs(5), small())).is_err(), "the port may stay odd: no YES");
    let computed = "int main(void) { unsigned r, x = 8; __asm__ (\"bsrl %1, %0\" : \"=r\" (r) : \"r\" (x)); while (r != 3) { } return 0; }";
    let e = yes(execute_source("t.c", computed, IntSemantics::C, MachineModel::lp64(), Duration::from_secs(5), small()));
    assert!(e.as_ref().is_err_and(|w| !w.contains("runs forever")), "no YES, and no NO on an output value chosen: {e:?}");
    let memory = "int g; int main(void) { __asm__ volatile (\"\" : : : \"memory\"); return g; }";
    let e = run(memory);
    assert!(e.as_ref().is_err_and(|w| w.contains("may write memory")), "{e:?}");
}

/// A variadic function with a body (LDV's `printk` model): its further
/// arguments are evaluated and unread.
#[test]
fn a_variadic_function_with_a_body_runs() {
    let text = "
int printk(const char *fmt, ...) { return 0; }
int main(void) { int i = 0; while (i < 4) { printk(\"%d %d\", i, i * 2); i++; } return 0; }
";
    let e = run(text).expect("every run ends");
    assert_eq!(iterations(&e, 3), 4);
}

/// Linux's `IS_ERR`: an object's address is never in the last page (nor
/// the first), so comparing it with such a constant is decided; one
/// within the range objects may lie in is not.
#[test]
fn an_address_against_a_constant_outside_where_objects_lie() {
    let text = "
int g;
long is_err(const void *p) { return (unsigned long)p > (unsigned long)-4095; }
int main(void) { int n = 0; while (!is_err(&g) && n < 3) n++; return n; }
";
    let e = run(text).expect("every run ends");
    assert_eq!(iterations(&e, 4), 3, "`&g` is no error code: {e:?}");
    let e = run("int g; int main(void) { int n = 0; while ((unsigned long)&g > 100000 && n < 3) n++; return n; }");
    assert!(e.is_err(), "an address compared with a constant objects may lie at: {e:?}");
}

/// A struct with bit-fields initialized: each bit-field's bits set in
/// the bytes holding it, an unnamed one skipped; a loop bounded by a
/// bit-field's value runs that often once bit-fields are read (here: the
/// word beside them, initialized after them).
#[test]
fn a_struct_with_bit_fields_is_initialized() {
    let text = "
struct s { unsigned a : 3; unsigned : 2; unsigned b : 4; int n; };
struct s g = { 5, 9, 6 };
int main(void) { int k = 0; while (k < g.n) k++; unsigned char *b = (unsigned char *)&g; int j = 0; while (j < b[0] + 256 * b[1]) j++; return 0; }
";
    let e = run(text).expect("every run ends");
    assert_eq!(iterations(&e, 4), 6, "the unnamed bit-field took no initializer: {e:?}");
    // a = 5 in bits 0-2, the unnamed 2 bits, b = 9 in bits 5-8 (gcc's layout).
    assert_eq!(e.loops.iter().map(|l| l.iterations).max(), Some(5 + (9 << 5)), "{e:?}");
}

/// A pointer made from an integer (`(void *)-1`, the owner field of
/// Linux's spinlock initializers) is stored, read back and compared by
/// its value; compared with an object's address it is decided only
/// outside where objects lie; dereferenced, execution gives up.
#[test]
fn a_pointer_made_from_an_integer_compares_by_its_value() {
    let text = "
struct lock { unsigned magic; void *owner; };
struct lock l = { 3735899821U, (void *)0xffffffffffffffffUL };
int g;
int main(void) { int n = 0; while (l.owner == (void *)-1 && l.owner != &g && (unsigned long)l.owner > 5 && n < 4) n++; return n; }
";
    let e = run(text).expect("every run ends");
    assert_eq!(iterations(&e, 5), 4, "{e:?}");
    // 0x100000 may be an object's address: not decided.
    let e = run("int g; int main(void) { int n = 0; while ((void *)0x100000 != &g && n < 3) n++; return n; }");
    assert!(e.is_err(), "an address compared with a pointer made from an integer objects may lie at: {e:?}");
    let e = run("int main(void) { int *p = (int *)-1; int n = 0; while (*p && n < 3) n++; return n; }");
    assert!(e.unwrap_err().contains("made from an integer"));
}

/// A function's address in an integer as wide as a pointer (a kernel
/// module's symbol table): compared like an object's; arithmetic on it
/// gives up.
#[test]
fn a_functions_address_in_an_integer() {
    let text = "
void f(void) {}
unsigned long tab[2] = { (unsigned long)&f, 0 };
int main(void) { int n = 0; while (tab[0] != 0 && tab[0] == (unsigned long)f && n < 3) n++; return n; }
";
    let e = run(text).expect("every run ends");
    assert_eq!(iterations(&e, 4), 3, "{e:?}");
    let e = run("void f(void) {} int main(void) { unsigned long a = (unsigned long)f + 1; int n = 0; while (a > 0 && n < 3) n++; return n; }");
    assert!(e.is_err(), "arithmetic on a function's address: {e:?}");
}

/// A run that comes back to its state with a pointer made from an
/// integer in it is a NO; the pointer is part of the state.
#[test]
fn a_lasso_through_a_pointer_made_from_an_integer() {
    let text = "
extern int __VERIFIER_nondet_int(void);
struct lock { void *owner; };
struct lock l = { (void *)-1 };
int main(void) { while (__VERIFIER_nondet_int()) { if (l.owner == (void *)-1) l.owner = (void *)-1; } return 0; }
";
    let e = run(text).expect_err("a run repeats");
    assert!(e.contains("runs forever"), "{e}");
}

/// Any pointer (an uninitialized one, as LDV's harnesses pass to a
/// driver) converted to an integer is any integer: both ways of a branch
/// on it are run.
#[test]
fn any_pointer_converted_to_an_integer_is_any_integer() {
    let e = run("int main(void) { int *p; unsigned long a = (unsigned long)p + 16; int n = 0; if (a > 5) n = 1; return n; }").expect("every run ends");
    assert_eq!(e.runs, 2, "{e:?}");
}

// Acceleration (`drift.rs`): a stretch of a loop on which only counters
// move is taken at once, with exactly the iterations and the state the
// run would have had.

#[test]
fn a_counter_loop_of_three_billion_iterations_is_taken_in_strides() {
    let e = run("int main(void) {
  unsigned int i = 0;
  while (i < 3000000000u) i++;
  return 0;
}")
    .expect("every run ends");
    assert_eq!(iterations(&e, 3), 3_000_000_000);
    assert!(e.accelerated > 2_900_000_000, "{e:?}");
    assert!(e.most_steps < 10_000_000, "{e:?}");
}

#[test]
fn a_stride_stops_exactly_at_an_exit_inside_the_body() {
    // The exit is a test on the counter in the body: no stride may cross
    // it, and the count says where the run left.
    let e = run("int main(void) {
  unsigned int i = 0, j = 5;
  while (1) {
    i++;
    j += 3;
    if (i == 1234567891u) break;
  }
  return j == 5 + 3 * 1234567891u ? 0 : 1;
}")
    .expect("every run ends");
    assert_eq!(iterations(&e, 3), 1_234_567_891);
    assert!(e.accelerated > 0);
}

#[test]
fn a_protocol_whose_round_counter_wraps_ends_in_every_run() {
    // Two ids read as inputs and compared in every iteration (symbolic:
    // the plain exploration forks at each comparison, the path condition
    // decides all but the first), a round counter advanced every other
    // iteration, and a check that fails once the counter wraps after the
    // leader is chosen: every run ends after about 2^33 iterations.
    let e = run("extern int __VERIFIER_nondet_int(void);
int main(void) {
  int id1 = __VERIFIER_nondet_int(), id2 = __VERIFIER_nondet_int();
  if (id1 == id2) return 0;
  unsigned int r = 0;
  _Bool mode = 0;
  int leader = 0;
  while (1) {
    if (mode) {
      r++;
      int first;
      if (id1 > id2) first = 1; else first = 2;
      if (r == 2) leader = first;
      mode = 0;
    } else {
      mode = 1;
    }
    if (leader != 0 && r < 2) break;
  }
  return leader;
}")
    .expect("every run ends");
    assert!(e.pruned.is_some(), "symbolic inputs: {e:?}");
    assert!(e.loops.iter().any(|l| l.iterations >= 1 << 33), "{e:?}");
    assert!(e.accelerated > 1 << 32, "{e:?}");
}

#[test]
fn a_counter_that_never_reaches_its_exit_is_never_yes() {
    // The counter wraps and is set back before it can reach 0: the loop
    // runs forever; strides take it around, never out.
    let err = run_with("int main(void) {
  unsigned char i = 1;
  unsigned int n = 0;
  while (1) {
    i++;
    n += 2;
    if (i == 0) i = 1;
    if (n == 1) break;
  }
  return 0;
}", IntSemantics::C, small())
    .unwrap_err();
    assert!(!err.is_empty());
}

#[test]
fn gcc_bit_counting_builtins_are_computed_exactly() {
    // Each loop runs exactly as long as the builtin's value says (gcc
    // gives these values on x86-64: ctz 7, clz 24, popcount 8, parity 1,
    // ffs(-8) 4, ctzl(2^40) 40, popcountll(~0) 64, ffs(0) 0).
    let e = run("int main(void) {
  unsigned x = 0x80u; unsigned long y = 1UL << 40;
  int n = __builtin_ctz(x); n += __builtin_clz(x); n += __builtin_popcount(0xF0F0u); n += __builtin_parity(7u);
  n += __builtin_ffs(-8); n += __builtin_ctzl(y); n += __builtin_popcountll(~0ULL); n += __builtin_ffs(0);
  for (int i = 0; i < n; i++) { }
  return 0;
}
")
    .expect("every run ends");
    assert_eq!(iterations(&e, 5), 7 + 24 + 8 + 1 + 4 + 40 + 64);
    // A loop whose test a builtin keeps true runs forever.
    let l = forever("int main(void) { unsigned x = 0x80u; unsigned k = 0; while (__builtin_clz(x) == 24) { k = 1 - k; } return 0; }");
    assert_eq!(l.line, 1);
    // ctz of 0 is undefined: no answer from execution.
    let zero = run("int main(void) { unsigned x = 0; for (int i = 0; i < __builtin_ctz(x); i++) { } return 0; }");
    assert!(zero.is_err_and(|why| why.contains("ctz")), "ctz(0) must give up");
}

/// A YES that holds only because runs stop at undefined behaviour says so:
/// which kind, where and in how many runs (issue 56); one that does not
/// rest on it says nothing.
#[test]
fn runs_ending_at_undefined_behaviour_are_counted() {
    let e = run("int main(void) {\n  int k = 0;\n  while (1) k++;\n  return 0;\n}\n").expect("YES under --ints c");
    assert_eq!(e.undefined.len(), 1, "{e:?}");
    let u = &e.undefined[0];
    assert_eq!((u.kind, u.runs), (tessera::ir::Undefined::SignedOverflow, 1));
    assert_eq!(u.at.as_ref().map(|a| a.line), Some(3));
    // INT_MIN % -1 is undefined too (C11 6.5.5p6).
    let e = run("#include <limits.h>\nint main(void) {\n  volatile int m = INT_MIN, d = -1;\n  int r = m % d;\n  while (r == 0) {}\n  return 0;\n}\n").expect("YES under --ints c");
    assert_eq!(e.undefined.iter().map(|u| u.kind).collect::<Vec<_>>(), vec![tessera::ir::Undefined::DivisionOverflow]);
    let e = run("int main(void) {\n  for (int i = 0; i < 10; i++) {}\n  return 0;\n}\n").expect("YES");
    assert!(e.undefined.is_empty(), "{e:?}");
}

/// Unsequenced operands with side effects on different objects run in
/// either order alike (`stack[sp++] = program[pc++]`); where they touch one
/// object (`k++ + k++`, a call that may write what the other operand
/// reads, a write through a pointer) the interpreter gives up.
#[test]
fn evaluation_order_matters_only_where_effects_meet() {
    let vm = "int program[] = {1, 5, 1, 7, 2, 0};\nint stack[16];\nint main(void) {\n  int pc = 0, sp = 0;\n  while (program[pc] != 0) {\n    int op = program[pc++];\n    if (op == 1) stack[sp++] = program[pc++];\n    else if (op == 2) { sp--; stack[sp - 1] = stack[sp - 1] + stack[sp]; }\n    else pc++;\n  }\n  return stack[0];\n}\n";
    let e = run(vm).expect("YES: the two increments touch different variables");
    assert_eq!(iterations(&e, 5), 3);
    for meeting in [
        "int main(void) { int k = 0; k = k++ + k++; while (k > 0 && k < 5) k++; return 0; }",
        "int g;\nint f(void) { g++; return g; }\nint main(void) { int x = f() + f(); while (x > 0 && x < 9) x++; return 0; }",
        "int main(void) { int a = 0, *p = &a; int y = (*p = 1) + a++; while (y > 0 && y < 9) y++; return 0; }",
    ] {
        let r = run(meeting);
        assert!(matches!(&r, Err(why) if why.contains("order C leaves unspecified")), "{meeting}: {r:?}");
    }
}
