//! Shapes of issue 55, "seven classes of wrong answers": what C leaves
//! undefined, unspecified or outside `main`'s control flow, each class a
//! shape of its own (`m-outside`, `m-asm`, `m-address`, `m-recursion`,
//! `m-bitfield`, `m-division`, `m-literal`), in a block of its own whose
//! outcome decides whether the program loops:
//!
//! 1. outside: a function run by the loader or the library, not called by
//!    `main`: `constructor`/`destructor` on a declaration (also on the
//!    second or the first declarator of a list, or in front of it), a
//!    pointer in `.init_array`/`.fini_array`, a handler installed by
//!    `sigaction` (or `signal`) and `raise`d, `error_print_progname` then
//!    `error(0, 0, ...)`. It loops or not depending on a global set from a
//!    constant (and, for those that run once `main` has begun, sometimes by
//!    `main`), and sets a flag `main` may loop on.
//! 2. asm: x86-64 `asm volatile` in a loop whose counter only the assembly
//!    moves: jump-free (`add`, `sub`, `lea`, `inc`, `xor`, `nop`, `""
//!    ::: "memory"`, a memory operand) or with jumps that end (`loop 1b`,
//!    `jrcxz`, `jz 1f`, `jmp 1f`, `.byte 0xeb, 0x00`); or before a loop,
//!    giving its bound; or assembly that jumps to itself (`1: jmp 1b`,
//!    `.byte 0xeb, 0xfe`, `1: jrcxz 1b` with %rcx 0) under a condition on
//!    the counter, which the driver recognizes (a child stopped on such an
//!    instruction never leaves it).
//! 3. address: addresses of objects whose lifetimes do not overlap, and
//!    adjacent objects, compared as integers: a freed block against the
//!    next allocation, a local of a function called twice, a local of two
//!    loop iterations, one past the end of an array against another
//!    object (locals or globals). Unspecified: the oracle compiles such
//!    programs without sanitizers at -O0 and -O2 (see oracle.rs).
//! 4. recursion: a recursive function given an address in an integer
//!    (`rec((uintptr_t)&c)`), reading and changing the caller's local (of
//!    `main` or of a helper) through it, or recursing with the address of
//!    its own local; it ends because of what it writes, or repeats a call.
//! 5. bit-field: fields narrower than `int` (`unsigned u:31`, `unsigned
//!    t:3`, `_Bool b:1`, `int s:5`, `unsigned char c:4`) promote to `int`
//!    (C11 6.3.1.1p2): `v.t - 1 < 0` is true at 0; `unsigned w:32` does
//!    not. Loops on such comparisons, fields that wrap.
//! 6. division: `MIN / -1`, `MIN % -1` (`int`, `long`, `long long`) with
//!    operands from volatile variables, and the defined neighbours
//!    (`-7 % -1 == 0`, `7 / -1 < 0`). The oracle ends the run where MIN
//!    meets -1 (`__dt_divtrap`, as x86 `idiv` traps) before UBSan sees it;
//!    only `--ints c` and `machine` are compared (never `math`).
//! 7. literal: identical string literals compared by address (`"ab" ==
//!    "ab"`), a literal against the tail of another (`"b" == "ab" + 1`),
//!    through variables or a function returning one. Unspecified like 3.
//!
//! Everything draws from the shapes' stream (`Gen::xrng`); the share is
//! `DIFFTEST_MEANING_PCT` (default that of the other shapes,
//! `DIFFTEST_SHAPE_PCT`); at 0 nothing is drawn and the programs of before
//! come back byte for byte.

use super::{Gen, Kind, Rng, Shape, Sym, Ty};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Class {
    Outside,
    Asm,
    Address,
    Recursion,
    Bitfield,
    Division,
    Literal,
}

pub const ALL_CLASSES: [Class; 7] = [Class::Outside, Class::Asm, Class::Address, Class::Recursion, Class::Bitfield, Class::Division, Class::Literal];

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Outside => "m-outside",
            Class::Asm => "m-asm",
            Class::Address => "m-address",
            Class::Recursion => "m-recursion",
            Class::Bitfield => "m-bitfield",
            Class::Division => "m-division",
            Class::Literal => "m-literal",
        }
    }
    /// C leaves the outcome unspecified: the oracle compares gcc -O0 and -O2
    /// builds without sanitizers.
    pub fn unspecified(self) -> bool {
        matches!(self, Class::Address | Class::Literal)
    }
    /// `--ints math` gives the program another meaning than gcc's runs
    /// (addresses as integers, bit-field widths, MIN / -1): never compared there.
    pub fn math_ok(self) -> bool {
        matches!(self, Class::Outside)
    }
}

/// The share of the meaning shapes: `DIFFTEST_MEANING_PCT`, else that of
/// the other shapes (`DIFFTEST_SHAPE_PCT`, 11 by default). At 0 no program
/// changes.
pub fn meaning_pct(p: u64) -> u64 {
    std::env::var("DIFFTEST_MEANING_PCT").ok().and_then(|s| s.parse().ok()).unwrap_or(p)
}

/// Adds one class in `meaning_pct` percent of the programs (a second one in
/// a fifth of those), drawn after the other shapes; nothing is drawn at 0.
pub(super) fn add_meaning(x: &Rng, p: u64, mut v: Vec<Shape>) -> Vec<Shape> {
    let share = meaning_pct(p);
    if share > 0 && x.pct(share) {
        let c = *x.pick(&ALL_CLASSES);
        v.push(Shape::Meaning(c));
        if x.pct(20) {
            let d = *x.pick(&ALL_CLASSES);
            if d != c {
                v.push(Shape::Meaning(d));
            }
        }
    }
    v
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum OutKind {
    /// `void f(void) __attribute__((constructor));` before the definition
    CtorDecl,
    /// `__attribute__((constructor)) void f(void);`
    CtorPrefix,
    /// `void f(void) __attribute__((constructor(N)));`
    CtorPrio,
    /// `void f(void) __attribute__((destructor));`
    DtorDecl,
    /// `void o(void), f(void) __attribute__((destructor));`
    DtorSecond,
    /// `void f(void) __attribute__((destructor)), o(void);`
    DtorFirst,
    /// `static void (*p)(void) __attribute__((section(".init_array"), used)) = f;`
    InitArray,
    /// the same in `.fini_array`
    FiniArray,
    /// `struct sigaction` with `sa_handler = f`, then `raise`
    Sigaction,
    /// `signal(SIG, f)`, then `raise`
    Signal,
    /// `error_print_progname = f; error(0, 0, ...)`
    ErrorHook,
}

impl OutKind {
    /// Runs once `main` has begun (at a statement, or at exit): `main` may set the global first.
    fn after_main_begins(self) -> bool {
        !matches!(self, OutKind::CtorDecl | OutKind::CtorPrefix | OutKind::CtorPrio | OutKind::InitArray)
    }
}

#[derive(Clone, Debug)]
struct Outside {
    kind: OutKind,
    f: String,
    /// the global the function's loop reads
    g: String,
    /// the flag it sets when it ends
    flag: String,
    /// the other function of a declarator list
    other: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum RecKind {
    /// changes the caller's local through the integer, recurses with the same integer
    Caller,
    /// recurses with the address of its own local
    Own,
}

#[derive(Clone, Debug)]
struct Rec {
    f: String,
    kind: RecKind,
    /// the integer type holding the address
    ty: &'static str,
    /// the oracle's call epoch (`__dt_` global, stripped)
    epoch: String,
    /// `void h(int v) { int c = v; f((T)&c); }`: a helper whose local is changed
    helper: String,
}

#[derive(Clone, Debug)]
struct BitField {
    name: String,
    ty: &'static str,
    width: u32,
    lo: i64,
    hi: i64,
}

/// What the file-scope part of the meaning shapes declared.
#[derive(Default, Clone, Debug)]
pub struct MState {
    outside: Option<Outside>,
    recs: Vec<Rec>,
    /// `uintptr_t f(int v)`: the address of its local
    local_fn: Option<String>,
    /// `void f(int v)`: stores the address of its local in the global
    keep_fn: Option<(String, String)>,
    /// global `int a[n]; int b;`
    globals_adj: Option<(String, usize, String)>,
    /// `struct s { bit-fields };`
    bits: Option<(String, Vec<BitField>)>,
    /// `const char *f(void) { return "lit"; }`
    lit_fn: Option<(String, &'static str)>,
}

const LITS: &[&str] = &["ab", "x", "hello", "", "ab\\n", "loop"];

impl Gen {
    /// A snapshot of the given values only (functions outside main, recursion):
    /// the loop or call it guards depends on nothing else.
    fn m_snap(&mut self, vals: &[String], frame: &str) {
        self.xsnap += 1;
        let id = 1000 + self.xsnap;
        let mut s = String::new();
        for v in vals {
            s.push_str(&format!("__dt_v((long)({})); ", v));
        }
        s.push_str(&format!("__dt_end({}, {});", id, frame));
        self.emit(s);
    }

    /// `while (c) { snapshot }`: loops iff `c` holds.
    fn m_spin(&mut self, c: &str) {
        self.loop_depth += 1;
        self.open(format!("while ({}) {{", c));
        self.snap();
        self.close("}");
        self.loop_depth -= 1;
    }

    pub(super) fn meaning_decls(&mut self, c: Class) {
        match c {
            Class::Outside => self.outside_decls(),
            Class::Asm => {}
            Class::Address => self.address_decls(),
            Class::Recursion => self.rec_decls(),
            Class::Bitfield => self.bits_decls(),
            Class::Division => {
                self.includes.insert("#include <limits.h>");
                self.emit("extern void __dt_divtrap(long, long, long);");
            }
            Class::Literal => self.lit_decls(),
        }
    }

    pub(super) fn meaning_stmt(&mut self, c: Class) {
        match c {
            Class::Outside => self.outside_stmt(),
            Class::Asm => self.asm_stmt(),
            Class::Address => self.address_stmt(),
            Class::Recursion => self.rec_stmt(),
            Class::Bitfield => self.bits_stmt(),
            Class::Division => self.div_stmt(),
            Class::Literal => self.lit_stmt(),
        }
    }

    // ------------------------------------------------------------ 1. outside main

    fn outside_decls(&mut self) {
        let g = self.xname("mg");
        let flag = self.xname("mf");
        let init = self.rng.range(-1, 4);
        self.emit(format!("int {} = {};", g, init));
        self.emit(format!("int {} = 0;", flag));
        self.xglobals.push(Sym { name: g.clone(), kind: Kind::Scalar(Ty::Int) });
        self.xglobals.push(Sym { name: flag.clone(), kind: Kind::Scalar(Ty::Int) });
        let kind = *self.rng.pick(&[
            OutKind::CtorDecl,
            OutKind::CtorPrefix,
            OutKind::CtorPrio,
            OutKind::DtorDecl,
            OutKind::DtorSecond,
            OutKind::DtorFirst,
            OutKind::InitArray,
            OutKind::FiniArray,
            OutKind::Sigaction,
            OutKind::Sigaction,
            OutKind::Signal,
            OutKind::ErrorHook,
            OutKind::ErrorHook,
        ]);
        let f = self.xname("mc");
        let mut other = None;
        match kind {
            OutKind::CtorDecl => self.emit(format!("void {}(void) __attribute__((constructor));", f)),
            OutKind::CtorPrefix => self.emit(format!("__attribute__((constructor)) void {}(void);", f)),
            OutKind::CtorPrio => {
                let p = self.rng.range(150, 400);
                self.emit(format!("void {}(void) __attribute__((constructor({})));", f, p))
            }
            OutKind::DtorDecl => self.emit(format!("void {}(void) __attribute__((destructor));", f)),
            OutKind::DtorSecond | OutKind::DtorFirst => {
                let o = self.xname("mo");
                if kind == OutKind::DtorSecond {
                    self.emit(format!("void {}(void), {}(void) __attribute__((destructor));", o, f));
                } else {
                    self.emit(format!("void {}(void) __attribute__((destructor)), {}(void);", f, o));
                }
                self.emit(format!("void {}(void) {{ {} += 0; }}", o, flag));
                other = Some(o);
            }
            OutKind::Sigaction | OutKind::Signal => {
                self.includes.insert("#include <signal.h>");
                self.includes.insert("#include <string.h>");
            }
            OutKind::ErrorHook => {
                self.includes.insert("#include <error.h>");
            }
            OutKind::InitArray | OutKind::FiniArray => {}
        }
        let stat = if matches!(kind, OutKind::InitArray | OutKind::FiniArray) && self.rng.pct(50) { "static " } else { "" };
        let param = if matches!(kind, OutKind::Sigaction | OutKind::Signal) { "int sig" } else { "void" };
        self.open(format!("{}void {}({}) {{", stat, f, param));
        self.enter();
        if param != "void" {
            self.emit("(void)sig;");
        }
        if self.rng.pct(50) {
            let lim = self.rng.range(-1, 2);
            let step = *self.rng.pick(&["1", "1", "2", "0"]);
            self.open(format!("while ({} > {}) {{", g, lim));
            self.m_snap(&[g.clone()], "__dt_fr");
            self.emit(format!("{} -= {};", g, step));
        } else {
            let m = *self.rng.pick(&[4, 6, 8]);
            let lim = self.rng.range(0, m + 1);
            let step = *self.rng.pick(&[1, 2, 3, 0]);
            self.open(format!("while ({} != {}) {{", g, lim));
            self.m_snap(&[g.clone()], "__dt_fr");
            self.emit(format!("{} = ({} + {}) % {};", g, g, step, m));
        }
        self.close("}");
        self.emit(format!("{} {};", flag, self.rng.pick(&["= 1", "+= 1", "= 2"])));
        self.close("}");
        match kind {
            OutKind::InitArray | OutKind::FiniArray => {
                let p = self.xname("mp");
                let sec = if kind == OutKind::InitArray { ".init_array" } else { ".fini_array" };
                let attr = if self.rng.pct(50) { format!("section(\"{}\"), used", sec) } else { format!("used, section(\"{}\")", sec) };
                self.emit(format!("static void (*{})(void) __attribute__(({})) = {};", p, attr, f));
            }
            _ => {}
        }
        self.meaning.outside = Some(Outside { kind, f, g, flag, other });
    }

    fn outside_stmt(&mut self) {
        let Some(o) = self.meaning.outside.clone() else { return };
        self.open("{");
        if o.kind.after_main_begins() && self.rng.pct(40) {
            let v = self.x_init(-1, 4);
            self.emit(format!("{} = {};", o.g, v));
        }
        match o.kind {
            OutKind::Sigaction => {
                let sa = self.xname("msa");
                let sig = *self.rng.pick(&["SIGUSR1", "SIGUSR2", "SIGINT", "SIGTERM"]);
                self.emit(format!("struct sigaction {};", sa));
                self.emit(format!("memset(&{0}, 0, sizeof {0});", sa));
                if self.rng.pct(30) {
                    self.emit(format!("sigemptyset(&{}.sa_mask);", sa));
                }
                self.emit(format!("{}.sa_handler = {};", sa, o.f));
                self.emit(format!("sigaction({}, &{}, 0);", sig, sa));
                self.emit(format!("raise({});", sig));
            }
            OutKind::Signal => {
                let sig = *self.rng.pick(&["SIGUSR1", "SIGUSR2"]);
                self.emit(format!("signal({}, {});", sig, o.f));
                self.emit(format!("raise({});", sig));
            }
            OutKind::ErrorHook => {
                self.emit(format!("error_print_progname = {};", o.f));
                if self.rng.pct(50) {
                    self.emit(format!("error(0, 0, \"%d\", {});", o.g));
                } else {
                    self.emit("error(0, 0, \"note\");");
                }
            }
            OutKind::DtorSecond | OutKind::DtorFirst => {
                let other = o.other.clone().unwrap();
                self.emit(format!("{}();", other));
            }
            _ => {}
        }
        if self.rng.pct(60) {
            let v = self.rng.below(2);
            let c = format!("{} == {}", o.flag, v);
            self.m_spin(&c);
        }
        self.close("}");
    }

    // ------------------------------------------------------------ 2. inline assembly

    fn asm_stmt(&mut self) {
        #[derive(Clone, Copy, PartialEq)]
        enum Eff {
            Up,
            Down,
            Other,
        }
        let k = self.rng.range(1, 4);
        // (text, clobbers, effect); `%0` is the counter (a `long`), in a register
        let reg: Vec<(String, &str, Eff)> = vec![
            ("add $1, %0".into(), "", Eff::Up),
            ("add $2, %0".into(), "", Eff::Up),
            ("sub $1, %0".into(), "", Eff::Down),
            ("inc %0".into(), "", Eff::Up),
            ("dec %0".into(), "", Eff::Down),
            ("lea 1(%0), %0".into(), "", Eff::Up),
            ("lea -1(%0), %0".into(), "", Eff::Down),
            ("xor %0, %0".into(), "", Eff::Other),
            ("nop".into(), "", Eff::Other),
            ("mov %0, %0".into(), "", Eff::Other),
            ("neg %0".into(), "", Eff::Other),
            ("shr $1, %0".into(), "", Eff::Down),
            ("add $0, %0".into(), "cc", Eff::Other),
            // with jumps (they end)
            ("mov $3, %%rcx\\n1: inc %0\\n\\tloop 1b".into(), "rcx", Eff::Up),
            ("mov $2, %%rcx\\n1: loop 1b".into(), "rcx", Eff::Other),
            ("test %0, %0\\n\\tjz 1f\\n\\tdec %0\\n1:".into(), "cc", Eff::Down),
            ("mov %0, %%rcx\\n\\tjrcxz 1f\\n\\tdec %0\\n1:".into(), "rcx", Eff::Down),
            ("xor %%ecx, %%ecx\\n\\tjrcxz 1f\\n\\tinc %0\\n1:".into(), "rcx", Eff::Other),
            (".byte 0xeb, 0x00\\n\\tadd $1, %0".into(), "", Eff::Up),
            ("jmp 1f\\n\\tadd $5, %0\\n1: add $1, %0".into(), "", Eff::Up),
            (format!("cmp ${}, %0\\n\\tjge 1f\\n\\tinc %0\\n1:", k), "cc", Eff::Up),
        ];
        let mem: Vec<(String, &str, Eff)> =
            vec![("addq $1, %0".into(), "", Eff::Up), ("subq $1, %0".into(), "", Eff::Down), ("incq %0".into(), "", Eff::Up), ("notq %0".into(), "", Eff::Other)];
        self.open("{");
        let x = self.xname("ax");
        let init = self.x_init(-1, 5);
        self.emit(format!("long {} = {};", x, init));
        self.declare(&x, Kind::Scalar(Ty::Long));
        if self.rng.pct(30) {
            // assembly that jumps to itself, where a condition on the counter holds
            // (the driver sees the child stopped on `jmp .` / `jrcxz .` with %rcx 0)
            if self.rng.pct(30) {
                let pre = *self.rng.pick(&["add $1, %0", "xor %0, %0", "sub $2, %0", "nop"]);
                self.emit(format!("__asm__ volatile(\"{}\" : \"+r\"({}));", pre, x));
            }
            let k = self.rng.range(-1, 5);
            let guard = format!("if ({} {} {}) ", x, self.rng.pick(&["==", "<", ">", "!="]), k);
            let spin = match self.rng.below(4) {
                0 => format!("{}__asm__ volatile(\"1: jmp 1b\");", guard),
                1 => format!("{}__asm__ volatile(\".byte 0xeb, 0xfe\");", guard),
                2 => format!("{}__asm__ volatile(\"xor %%ecx, %%ecx\\n1: jrcxz 1b\" ::: \"rcx\");", guard),
                // loops iff the counter is 0
                _ => format!("__asm__ volatile(\"mov %0, %%rcx\\n1: jrcxz 1b\" : : \"r\"({}) : \"rcx\");", x),
            };
            self.emit(spin);
            self.close("}");
            return;
        }
        let memory = self.rng.pct(15);
        let (text, clob, eff) = if memory { self.rng.pick(&mem).clone() } else { self.rng.pick(&reg).clone() };
        let cons = if memory { "+m" } else { "+r" };
        let vol = *self.rng.pick(&["__asm__ volatile", "__asm__ __volatile__", "asm volatile", "__asm__"]);
        let clobs = match (clob, self.rng.pct(30)) {
            ("", false) => String::new(),
            ("", true) => " : \"memory\"".to_string(),
            (c, false) => format!(" : \"{}\"", c),
            (c, true) => format!(" : \"{}\", \"memory\"", c),
        };
        let stmt = format!("{}(\"{}\" : \"{}\"({}) :{});", vol, text, cons, x, clobs);
        self.loop_depth += 1;
        if self.rng.pct(75) {
            // the assembly moves the counter
            let lim = self.rng.range(-1, 6);
            let cond = match eff {
                Eff::Up => format!("{} < {}", x, lim),
                Eff::Down => format!("{} > {}", x, lim),
                Eff::Other => format!("{} {} {}", x, self.rng.pick(&["<", ">", "!="]), lim),
            };
            self.open(format!("while ({}) {{", cond));
            self.snap();
            if self.rng.pct(20) {
                self.emit("__asm__ volatile(\"\" ::: \"memory\");");
            }
            self.emit(stmt);
            self.close("}");
        } else {
            // the assembly sets the bound of a loop in C
            self.emit(stmt);
            let i = self.xname("ai");
            self.emit(format!("long {} = 0;", i));
            self.declare(&i, Kind::Scalar(Ty::Long));
            let step = *self.rng.pick(&["1", "1", "0"]);
            self.open(format!("while ({} < {}) {{", i, x));
            self.snap();
            self.emit(format!("{} += {};", i, step));
            self.close("}");
        }
        self.loop_depth -= 1;
        self.close("}");
    }

    // ------------------------------------------------------------ 3. addresses

    fn address_decls(&mut self) {
        self.includes.insert("#include <stdint.h>");
        self.emit("extern void free(void *);");
        let f = self.xname("mlf");
        let vol = if self.rng.pct(50) { "volatile " } else { "" };
        self.emit(format!("uintptr_t {}(int v) {{ {}int x = v; return (uintptr_t)&x; }}", f, vol));
        self.meaning.local_fn = Some(f);
        let kf = self.xname("mkf");
        let kg = self.xname("mkg");
        self.emit(format!("uintptr_t {};", kg));
        self.emit(format!("void {}(int v) {{ int x = v; {} = (uintptr_t)&x; }}", kf, kg));
        self.meaning.keep_fn = Some((kf, kg));
        let n = 1 + self.rng.below(3);
        let a = self.xname("mga");
        let b = self.xname("mgb");
        if self.rng.pct(50) {
            self.emit(format!("int {}[{}]; int {};", a, n, b));
        } else {
            self.emit(format!("int {}; int {}[{}];", b, a, n));
        }
        self.meaning.globals_adj = Some((a, n, b));
    }

    fn address_stmt(&mut self) {
        self.open("{");
        let k = self.xname("mk");
        match self.rng.below(5) {
            0 => {
                // a freed block against the next allocation
                let p = self.xname("mp");
                let q = self.xname("mq");
                let a = self.xname("ma");
                let (s1, s2) = {
                    let s = *self.rng.pick(&["sizeof(int)", "16", "24", "2 * sizeof(long)", "100"]);
                    let t = if self.rng.pct(70) { s } else { *self.rng.pick(&["sizeof(int)", "16", "40", "200"]) };
                    (s, t)
                };
                let alloc2 = if self.rng.pct(25) { format!("calloc(1, {})", s2) } else { format!("malloc({})", s2) };
                self.emit(format!("int *{} = malloc({});", p, s1));
                self.emit(format!("uintptr_t {} = (uintptr_t){};", a, p));
                self.emit(format!("free({});", p));
                self.emit(format!("int *{} = {};", q, alloc2));
                self.emit(format!("int {} = (uintptr_t){} {} {};", k, q, self.rng.pick(&["==", "!="]), a));
                self.emit(format!("free({});", q));
            }
            1 => {
                // a local of a function called twice
                if self.rng.pct(60) {
                    let f = self.meaning.local_fn.clone().unwrap();
                    let (a, b) = (self.xname("ma"), self.xname("mb"));
                    self.emit(format!("uintptr_t {} = {}({});", a, f, self.rng.range(0, 3)));
                    self.emit(format!("uintptr_t {} = {}({});", b, f, self.rng.range(0, 3)));
                    self.emit(format!("int {} = {} {} {};", k, a, self.rng.pick(&["==", "!="]), b));
                } else {
                    let (f, g) = self.meaning.keep_fn.clone().unwrap();
                    let a = self.xname("ma");
                    self.emit(format!("{}(1);", f));
                    self.emit(format!("uintptr_t {} = {};", a, g));
                    self.emit(format!("{}(2);", f));
                    self.emit(format!("int {} = {} == {};", k, a, g));
                }
            }
            2 => {
                // a local of two loop iterations
                let (prev, n, i, x) = (self.xname("mv"), self.xname("mn"), self.xname("mi"), self.xname("mx"));
                let iters = self.rng.range(2, 3);
                self.emit(format!("uintptr_t {} = 0;", prev));
                self.emit(format!("int {} = 0;", n));
                self.open(format!("for (int {0} = 0; {0} < {1}; {0}++) {{", i, iters));
                self.emit(format!("int {} = {};", x, i));
                self.emit(format!("if ((uintptr_t)&{} == {}) {}++;", x, prev, n));
                self.emit(format!("{} = (uintptr_t)&{};", prev, x));
                self.close("}");
                let want = self.rng.range(0, iters - 1);
                self.emit(format!("int {} = {} == {};", k, n, want));
            }
            3 => {
                // one past the end of a local array against another local
                let (a, b) = (self.xname("mla"), self.xname("mlb"));
                let n = 1 + self.rng.below(3);
                if self.rng.pct(50) {
                    self.emit(format!("int {}[{}] = {{0}};", a, n));
                    self.emit(format!("int {} = 0;", b));
                } else {
                    self.emit(format!("int {} = 0;", b));
                    self.emit(format!("int {}[{}] = {{0}};", a, n));
                }
                let e = match self.rng.below(4) {
                    0 => format!("&{}[{}] == &{}", a, n, b),
                    1 => format!("&{} + 1 == &{}[0]", b, a),
                    2 => format!("(uintptr_t)({} + {}) == (uintptr_t)&{}", a, n, b),
                    _ => format!("&{}[{}] == &{} || &{} + 1 == {}", a, n, b, b, a),
                };
                self.emit(format!("int {} = {};", k, e));
            }
            _ => {
                // the same with globals
                let (a, n, b) = self.meaning.globals_adj.clone().unwrap();
                let e = match self.rng.below(3) {
                    0 => format!("&{}[{}] == &{}", a, n, b),
                    1 => format!("&{} + 1 == &{}[0]", b, a),
                    _ => format!("(uintptr_t)&{}[{}] == (uintptr_t)&{} || &{} + 1 == {}", a, n, b, b, a),
                };
                self.emit(format!("int {} = {};", k, e));
            }
        }
        self.declare(&k, Kind::Scalar(Ty::Int));
        let v = self.rng.below(2);
        let c = format!("{} == {}", k, v);
        self.m_spin(&c);
        self.close("}");
    }

    // ------------------------------------------------------------ 4. recursion through an integer

    fn rec_decls(&mut self) {
        self.includes.insert("#include <stdint.h>");
        let ty = *self.rng.pick(&["uintptr_t", "uintptr_t", "unsigned long", "long", "intptr_t"]);
        let f = self.xname("mr");
        let epoch = format!("__dt_mep{}", self.xfresh);
        self.emit(format!("long {};", epoch));
        let kind = if self.rng.pct(60) { RecKind::Caller } else { RecKind::Own };
        let lim = self.rng.range(-1, 5);
        self.open(format!("void {}({} a) {{", f, ty));
        // a call repeats when `*a` (all it reads) repeats within one call from main
        self.m_snap(&["*(int *)a".to_string()], &epoch);
        match kind {
            RecKind::Caller => {
                let (cmp, next) = match self.rng.below(3) {
                    0 => (">=", format!("*(int *)a + {}", self.rng.pick(&["1", "1", "2", "0"]))),
                    1 => ("<=", format!("*(int *)a - {}", self.rng.pick(&["1", "1", "2", "0"]))),
                    _ => ("==", format!("(*(int *)a + {}) % {}", self.rng.pick(&["1", "2", "0"]), self.rng.pick(&["3", "4", "6"]))),
                };
                self.emit(format!("if (*(int *)a {} {}) return;", cmp, lim));
                self.emit(format!("*(int *)a = {};", next));
                self.emit(format!("{}(a);", f));
            }
            RecKind::Own => {
                let (op, cmp) = match self.rng.below(3) {
                    0 => (" - 1", *self.rng.pick(&["<", "<="])),
                    1 => (" + 1", *self.rng.pick(&[">", ">="])),
                    _ => ("", *self.rng.pick(&["<", ">", "=="])),
                };
                self.emit(format!("int l = *(int *)a{};", op));
                self.emit(format!("if (l {} {}) return;", cmp, lim));
                self.emit(format!("{}(({})&l);", f, ty));
            }
        }
        self.close("}");
        let h = self.xname("mh");
        let hf = self.xname("mhf");
        self.emit(format!("int {};", hf));
        self.xglobals.push(Sym { name: hf.clone(), kind: Kind::Scalar(Ty::Int) });
        self.emit(format!("void {}(int v) {{ int c = v; {}(({})&c); {} = c; }}", h, f, ty, hf));
        self.meaning.recs.push(Rec { f, kind, ty, epoch, helper: h });
    }

    fn rec_stmt(&mut self) {
        let Some(r) = self.meaning.recs.first().cloned() else { return };
        self.open("{");
        let init = self.x_init(-2, 6);
        if self.rng.pct(25) {
            // the local of a helper
            self.emit(format!("{}++;", r.epoch));
            self.emit(format!("{}({});", r.helper, init));
        } else {
            let c = self.xname("mrc");
            self.emit(format!("int {} = {};", c, init));
            self.declare(&c, Kind::Scalar(Ty::Int));
            self.emit(format!("{}++;", r.epoch));
            self.emit(format!("{}(({})&{});", r.f, r.ty, c));
            if r.kind == RecKind::Caller && self.rng.pct(50) {
                let v = self.rng.range(-1, 5);
                let cnd = format!("{} == {}", c, v);
                self.m_spin(&cnd);
            }
        }
        self.close("}");
    }

    // ------------------------------------------------------------ 5. bit-fields

    fn bits_decls(&mut self) {
        let s = self.xname("mbs");
        // (type, name, width, lo, hi)
        let all: &[(&str, &str, u32, i64, i64)] = &[
            ("unsigned", "u", 31, 0, (1i64 << 31) - 1),
            ("unsigned", "t", 3, 0, 7),
            ("_Bool", "b", 1, 0, 1),
            ("int", "s", 5, -16, 15),
            ("unsigned", "w", 32, 0, u32::MAX as i64),
            ("unsigned char", "c", 4, 0, 15),
            ("unsigned short", "h", 12, 0, 4095),
            ("signed", "r", 3, -4, 3),
            ("unsigned", "v", 16, 0, 65535),
        ];
        let n = 1 + self.rng.below(3);
        let mut fields: Vec<BitField> = vec![];
        while fields.len() < n {
            let (ty, name, width, lo, hi) = *self.rng.pick(all);
            if fields.iter().any(|f| f.name == name) {
                continue;
            }
            fields.push(BitField { name: name.into(), ty, width, lo, hi });
        }
        let body: String = fields.iter().map(|f| format!("{} {} : {}; ", f.ty, f.name, f.width)).collect();
        self.emit(format!("struct {} {{ {}}};", s, body));
        self.meaning.bits = Some((s, fields));
    }

    fn bits_stmt(&mut self) {
        let Some((s, fields)) = self.meaning.bits.clone() else { return };
        let f = self.rng.pick(&fields).clone();
        self.open("{");
        let v = self.xname("mbv");
        self.emit(format!("struct {} {} = {{0}};", s, v));
        self.declare(&v, Kind::Mem);
        let small = f.hi - f.lo <= 31;
        let init = self.rng.range(f.lo.max(-2), f.hi.min(5));
        self.emit(format!("{}.{} = {};", v, f.name, init));
        let fld = format!("{}.{}", v, f.name);
        self.loop_depth += 1;
        match self.rng.below(if small { 4 } else { 2 }) {
            0 => {
                // a flag from a promoted comparison
                let d = self.rng.range(0, 2);
                let k = self.xname("mk");
                let e = match self.rng.below(4) {
                    0 => format!("{} - {} < 0", fld, d),
                    1 => format!("{} - {} >= 0", fld, d),
                    2 => format!("({} - 1) / 2 < 0", fld),
                    _ => format!("-{} < 0", fld),
                };
                self.emit(format!("int {} = {};", k, e));
                self.declare(&k, Kind::Scalar(Ty::Int));
                let val = self.rng.below(2);
                self.open(format!("while ({} == {}) {{", k, val));
                self.snap();
                self.close("}");
            }
            1 => {
                // the comparison itself as the loop condition, counting up by a bounded amount
                let d = self.rng.range(0, 3);
                self.open(format!("while ({} - {} < 0) {{", fld, d));
                self.snap();
                self.emit(format!("{} += {};", fld, self.rng.pick(&["1", "1", "0", "2"])));
                self.close("}");
            }
            2 => {
                // counting up past the field's top: wraps (unsigned) or turns negative (gcc, signed)
                let d = *self.rng.pick(&[f.hi, f.hi + 1, f.hi - 1, f.lo + 1, 9, 20]);
                self.open(format!("while ({} - {} < 0) {{", fld, d));
                self.snap();
                self.emit(format!("{} += {};", fld, self.rng.pick(&["1", "1", "2", "3"])));
                self.close("}");
            }
            _ => {
                // counting down: with D = 1 it ends at 0 (0 - 1 < 0 in int; in
                // unsigned it would wrap); with D = 0 an unsigned field wraps at 0
                let d = self.rng.range(0, 1);
                self.open(format!("while ({} - {} >= 0) {{", fld, d));
                self.snap();
                self.emit(format!("{} -= 1;", fld));
                self.close("}");
            }
        }
        self.loop_depth -= 1;
        self.close("}");
    }

    // ------------------------------------------------------------ 6. MIN / -1, MIN % -1

    fn div_stmt(&mut self) {
        let (ty, tyk, min) = *self.rng.pick(&[("int", Ty::Int, "INT_MIN"), ("int", Ty::Int, "INT_MIN"), ("long", Ty::Long, "LONG_MIN"), ("long long", Ty::Long, "LLONG_MIN")]);
        self.open("{");
        let m = self.xname("mm");
        let d = self.xname("md");
        let r = self.xname("mr");
        let mv = match self.rng.below(5) {
            0 | 1 => min.to_string(),
            2 => {
                let k = self.x_nondet(0, 1);
                format!("{} ? {} : {}", k, min, self.rng.pick(&["-7", "7", "0", "-1"]))
            }
            3 => format!("{} + 1", min),
            _ => self.rng.pick(&["-7", "7", "0", "-1", "6"]).to_string(),
        };
        let dv = match self.rng.below(4) {
            0 | 1 => "-1".to_string(),
            2 => {
                let k = self.x_nondet(0, 1);
                format!("{} ? -1 : {}", k, self.rng.pick(&["2", "3", "-2"]))
            }
            _ => self.rng.pick(&["2", "-2", "1"]).to_string(),
        };
        let minv = if ty == "int" { "INT_MIN" } else { "LONG_MIN" };
        self.emit(format!("volatile {} {} = {};", ty, m, mv));
        self.emit(format!("volatile {} {} = {};", ty, d, dv));
        self.emit(format!("__dt_divtrap({}, {}, {});", m, d, minv));
        let op = *self.rng.pick(&["/", "%", "%"]);
        if self.rng.pct(25) {
            self.emit(format!("{} {} = {};", ty, r, m));
            self.emit(format!("{} {}= {};", r, op, d));
        } else {
            self.emit(format!("{} {} = {} {} {};", ty, r, m, op, d));
        }
        self.declare(&r, Kind::Scalar(tyk));
        let cond = if op == "%" {
            format!("{} {} 0", r, self.rng.pick(&["==", "==", "!="]))
        } else {
            format!("{} {} 0", r, self.rng.pick(&["<", "<", ">", "=="]))
        };
        self.loop_depth += 1;
        self.open(format!("while ({}) {{", cond));
        self.snap();
        if op == "/" && self.rng.pct(40) {
            self.emit(format!("{} = {} / 2;", r, r));
        }
        self.close("}");
        self.loop_depth -= 1;
        self.close("}");
    }

    // ------------------------------------------------------------ 7. string literals

    fn lit_decls(&mut self) {
        self.includes.insert("#include <stdint.h>");
        let f = self.xname("mlit");
        let l = *self.rng.pick(LITS);
        self.emit(format!("const char *{}(void) {{ return \"{}\"; }}", f, l));
        self.meaning.lit_fn = Some((f, l));
    }

    fn lit_stmt(&mut self) {
        self.open("{");
        let l = *self.rng.pick(LITS);
        let other = *self.rng.pick(&["cd", "ab", "b", "xab", "hello"]);
        let k = self.xname("mk");
        let e = match self.rng.below(9) {
            0 => format!("\"{}\" == \"{}\"", l, l),
            1 => "\"b\" == \"ab\" + 1".to_string(),
            2 => "\"ab\" + 1 == \"b\"".to_string(),
            3 => format!("\"{}\" == \"{}\"", l, other),
            4 => {
                let (a, b) = (self.xname("mpa"), self.xname("mpb"));
                self.emit(format!("const char *{} = \"{}\";", a, l));
                self.emit(format!("const char *{} = \"{}\";", b, l));
                format!("{} == {}", a, b)
            }
            5 => {
                let (a, b) = (self.xname("mpa"), self.xname("mpb"));
                self.emit(format!("const char *{} = \"x{}\";", a, l));
                self.emit(format!("const char *{} = \"{}\";", b, l));
                format!("{} + 1 == {}", a, b)
            }
            6 => {
                let (f, fl) = self.meaning.lit_fn.clone().unwrap();
                let l = if self.rng.pct(70) { fl } else { l };
                format!("{}() == \"{}\"", f, l)
            }
            7 => format!("(uintptr_t)\"{}\" == (uintptr_t)\"{}\"", l, l),
            _ => {
                let a = self.xname("mca");
                self.emit(format!("char {}[] = \"{}\";", a, l));
                format!("{} == \"{}\"", a, l)
            }
        };
        self.emit(format!("int {} = {};", k, e));
        self.declare(&k, Kind::Scalar(Ty::Int));
        let v = self.rng.below(2);
        let c = format!("{} == {}", k, v);
        self.m_spin(&c);
        self.close("}");
    }
}
