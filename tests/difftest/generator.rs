//! Program generator: a small random C program as lines of text.  Lines that
//! contain `__dt_` are oracle instrumentation (state snapshots at every loop
//! head, label and function entry); they are stripped for Tessera.

use super::Program;
use std::collections::BTreeSet;
use std::fmt::Write as _;

mod lists;
mod meaning;
mod returns;
mod shapes;
pub use meaning::{meaning_pct, Class};
pub use shapes::{shape_pct, Shape};
use shapes::{ExtKind, VaKind};

// ---------------------------------------------------------------- PRNG

pub struct Rng(std::cell::Cell<u64>);
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(std::cell::Cell::new(seed ^ 0x9E37_79B9_7F4A_7C15))
    }
    pub fn next(&self) -> u64 {
        self.0.set(self.0.get().wrapping_add(0x9E37_79B9_7F4A_7C15));
        let mut z = self.0.get();
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn range(&self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    pub fn pct(&self, p: u64) -> bool {
        self.next() % 100 < p
    }
    pub fn pick<'a, T>(&self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

// ---------------------------------------------------------------- generator

#[derive(Clone, Copy, PartialEq, Debug)]
enum Ty {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
}
impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Bool => "_Bool",
            Ty::Char => "char",
            Ty::UChar => "unsigned char",
            Ty::Short => "short",
            Ty::UShort => "unsigned short",
            Ty::Int => "int",
            Ty::UInt => "unsigned",
            Ty::Long => "long",
            Ty::ULong => "unsigned long",
        }
    }
    fn nondet(self) -> &'static str {
        match self {
            Ty::Bool => "__VERIFIER_nondet_bool",
            Ty::Char => "__VERIFIER_nondet_char",
            Ty::UChar => "__VERIFIER_nondet_uchar",
            Ty::Short => "__VERIFIER_nondet_short",
            Ty::UShort => "__VERIFIER_nondet_ushort",
            Ty::Int => "__VERIFIER_nondet_int",
            Ty::UInt => "__VERIFIER_nondet_uint",
            Ty::Long => "__VERIFIER_nondet_long",
            Ty::ULong => "__VERIFIER_nondet_ulong",
        }
    }
    fn min_max(self) -> (i64, i64) {
        match self {
            Ty::Bool => (0, 1),
            Ty::Char => (-128, 127),
            Ty::UChar => (0, 255),
            Ty::Short => (-32768, 32767),
            Ty::UShort => (0, 65535),
            Ty::Int => (i32::MIN as i64, i32::MAX as i64),
            Ty::UInt => (0, u32::MAX as i64),
            Ty::Long | Ty::ULong => (i64::MIN / 2, i64::MAX / 2),
        }
    }
    fn unsigned(self) -> bool {
        matches!(self, Ty::Bool | Ty::UChar | Ty::UShort | Ty::UInt | Ty::ULong)
    }
}

const ALL_TYS: [Ty; 9] = [
    Ty::Bool,
    Ty::Char,
    Ty::UChar,
    Ty::Short,
    Ty::UShort,
    Ty::Int,
    Ty::UInt,
    Ty::Long,
    Ty::ULong,
];

#[derive(Clone)]
enum Kind {
    Scalar(Ty),
    Array(Ty, usize),
    /// pointer to a block of `n` elements (or null)
    Ptr(Ty, usize),
    /// an object snapshot as bytes (`__dt_m(&x, sizeof x)`): structs
    Mem,
}
#[derive(Clone)]
struct Sym {
    name: String,
    kind: Kind,
}


const PRELUDE: &[&str] = &[
    "extern int __VERIFIER_nondet_int(void);",
    "extern unsigned __VERIFIER_nondet_uint(void);",
    "extern char __VERIFIER_nondet_char(void);",
    "extern unsigned char __VERIFIER_nondet_uchar(void);",
    "extern short __VERIFIER_nondet_short(void);",
    "extern unsigned short __VERIFIER_nondet_ushort(void);",
    "extern long __VERIFIER_nondet_long(void);",
    "extern unsigned long __VERIFIER_nondet_ulong(void);",
    "extern _Bool __VERIFIER_nondet_bool(void);",
    "extern void __VERIFIER_assume(int);",
    "extern void __VERIFIER_error(void);",
    "extern void *malloc(unsigned long);",
    "extern void *calloc(unsigned long, unsigned long);",
    "extern void *alloca(unsigned long);",
    "extern long __dt_enter(void); extern void __dt_v(long); extern void __dt_m(const void *, unsigned long); extern void __dt_end(int, long);",
];

struct Gen {
    rng: Rng,
    math: bool,
    out: Vec<String>,
    ind: usize,
    globals: Vec<Sym>,
    scopes: Vec<Vec<Sym>>,
    domain: BTreeSet<i64>,
    snap_id: usize,
    fresh: usize,
    nondets: usize,
    loop_depth: usize,
    /// helpers available to main: (name, kind)
    helpers: Vec<(String, HelperKind)>,
    budget: isize,
    // ---- shapes (see shapes.rs); none of this draws from `rng`, so a program
    // ---- without a shape is the one generated before shapes existed
    /// independent stream: which shapes a program gets, and their contents
    xrng: Rng,
    /// shapes enabled in this program
    features: Vec<Shape>,
    /// shapes emitted into main
    used: BTreeSet<Shape>,
    xfresh: usize,
    xsnap: usize,
    /// globals of the shapes: snapshotted, never picked by expressions
    xglobals: Vec<Sym>,
    includes: BTreeSet<&'static str>,
    in_shape: bool,
    va_fns: Vec<(String, VaKind)>,
    ext_fns: Vec<(String, ExtKind)>,
    /// struct types: (name, members)
    structs: Vec<(String, Vec<(String, &'static str)>)>,
    /// the node type of the list shape (lists.rs)
    lists: Option<lists::ListDecl>,
    /// the recursive functions of the returns shape (returns.rs)
    returns: Vec<String>,
    /// what the meaning shapes declared (meaning.rs)
    meaning: meaning::MState,
}

#[derive(Clone, Copy, PartialEq)]
enum HelperKind {
    /// int f(void): g += k, returns constant
    SideEffect,
    /// int *mk(int v): allocates a block of 2 ints
    Alloc,
    /// int rec(int n): recursion writing global memory through gp
    Rec,
    /// void down(int *c): loop counting *c down
    Down,
    /// int recp(int *c, int n): recursion writing through its pointer parameter
    RecPtr,
    /// int pure(int x)
    Pure,
}

impl Gen {
    fn fresh(&mut self, p: &str) -> String {
        self.fresh += 1;
        format!("{}{}", p, self.fresh)
    }
    fn emit(&mut self, s: impl AsRef<str>) {
        let line = format!("{}{}", "  ".repeat(self.ind), s.as_ref());
        self.out.push(line);
        self.budget -= 1;
    }
    fn open(&mut self, s: impl AsRef<str>) {
        self.emit(s);
        self.ind += 1;
        self.scopes.push(vec![]);
    }
    fn close(&mut self, s: &str) {
        self.ind -= 1;
        self.scopes.pop();
        self.emit(s);
        self.budget += 1; // closing braces are free
    }
    fn declare(&mut self, name: &str, kind: Kind) {
        self.scopes.last_mut().unwrap().push(Sym { name: name.to_string(), kind });
    }
    fn visible(&self) -> Vec<Sym> {
        let mut v: Vec<Sym> = self.globals.clone();
        for s in &self.scopes {
            v.extend(s.iter().cloned());
        }
        v
    }
    fn scalars(&self) -> Vec<(String, Ty)> {
        self.visible()
            .into_iter()
            .filter_map(|s| match s.kind {
                Kind::Scalar(t) => Some((s.name, t)),
                _ => None,
            })
            .collect()
    }
    fn int_scalars(&self) -> Vec<String> {
        self.scalars().into_iter().filter(|(_, t)| *t == Ty::Int).map(|(n, _)| n).collect()
    }
    /// Snapshot of every visible scalar and tracked memory object.
    fn snap(&mut self) {
        // shapes number their snapshots from 1000 so that the others keep theirs
        let id = if self.in_shape {
            self.xsnap += 1;
            1000 + self.xsnap
        } else {
            self.snap_id += 1;
            self.snap_id
        };
        let mut s = String::new();
        let mut syms = self.visible();
        syms.extend(self.xglobals.iter().cloned());
        for sym in syms {
            match sym.kind {
                Kind::Scalar(_) => write!(s, "__dt_v((long){}); ", sym.name).unwrap(),
                Kind::Array(..) => write!(s, "__dt_m({0}, sizeof {0}); ", sym.name).unwrap(),
                Kind::Ptr(t, n) => write!(s, "__dt_m({}, {} * sizeof({})); ", sym.name, n, t.name()).unwrap(),
                Kind::Mem => write!(s, "__dt_m(&{0}, sizeof {0}); ", sym.name).unwrap(),
            }
        }
        write!(s, "__dt_end({}, __dt_fr);", id).unwrap();
        let line = format!("{}{}", "  ".repeat(self.ind), s);
        self.out.push(line);
    }
    fn enter(&mut self) {
        let line = format!("{}long __dt_fr = __dt_enter();", "  ".repeat(self.ind));
        self.out.push(line);
    }

    fn pick_ty(&mut self) -> Ty {
        if self.math {
            return if self.rng.pct(85) { Ty::Int } else { Ty::Bool };
        }
        if self.rng.pct(40) {
            Ty::Int
        } else {
            *self.rng.pick(&ALL_TYS)
        }
    }

    fn small_lit(&mut self) -> String {
        format!("{}", self.rng.range(-3, 9))
    }

    /// A literal of any kind (non-math programs).
    fn literal(&mut self) -> String {
        if self.math {
            return self.small_lit();
        }
        let r = &mut self.rng;
        match r.below(14) {
            0..=3 => format!("{}", r.range(0, 12)),
            4 => format!("0{:o}", r.range(1, 20)),
            5 => format!("0x{:x}", r.range(1, 40)),
            6 => format!("{}{}", r.range(0, 9), r.pick(&["u", "U", "l", "L", "ul", "UL", "ll", "LL", "ull"])),
            7 => r.pick(&["'a'", "'\\0'", "'\\n'", "'\\xff'", "'\\377'", "'0'"]).to_string(),
            8 => r.pick(&["2147483647", "0x7fffffff", "0x80000000", "4294967295u", "0xffffffff", "5000000000", "-2147483647", "037777777777", "0x100000000", "-1u", "65535", "255"]).to_string(),
            9 => r.pick(&["sizeof(int)", "sizeof(long)", "sizeof(char)", "sizeof(short)", "sizeof(\"abc\")", "sizeof(L\"ab\")", "sizeof('a')", "sizeof(unsigned char)", "sizeof(_Bool)", "sizeof(long long)"]).to_string(),
            10 => format!("-{}", r.range(1, 5)),
            11 => format!("(unsigned char){}", r.pick(&["300", "-1", "255", "256"])),
            12 => format!("(char){}", r.pick(&["200", "-1", "127", "128"])),
            _ => format!("{}", r.range(-4, 4)),
        }
    }

    /// A scalar expression over visible variables.
    fn expr(&mut self, depth: usize) -> String {
        let vars = if self.math { self.int_scalars() } else { self.scalars().into_iter().map(|x| x.0).collect() };
        if depth == 0 || self.rng.pct(35) {
            if !vars.is_empty() && self.rng.pct(60) {
                return self.rng.pick(&vars).clone();
            }
            // array/pointer element read
            let mem: Vec<Sym> = self
                .visible()
                .into_iter()
                .filter(|s| match s.kind {
                    Kind::Array(t, _) => !self.math || t == Ty::Int,
                    _ => false,
                })
                .collect();
            if !mem.is_empty() && self.rng.pct(30) {
                let s = self.rng.pick(&mem).clone();
                if let Kind::Array(_, n) = s.kind {
                    return format!("{}[{}]", s.name, self.rng.below(n));
                }
            }
            return self.literal();
        }
        let a = self.expr(depth - 1);
        let b = self.expr(depth - 1);
        match self.rng.below(if self.math { 12 } else { 15 }) {
            0 | 1 => format!("({} + {})", a, b),
            2 => format!("({} - {})", a, b),
            3 => format!("({} * {})", a, self.rng.range(0, 3)),
            4 => format!("({} / {})", a, self.rng.pick(&["2", "3", "-2", "5"])),
            5 => format!("({} % {})", a, self.rng.pick(&["2", "3", "4", "7"])),
            6 => format!("({} {} {})", a, self.rng.pick(&["<", "<=", "==", "!=", ">", ">="]), b),
            7 => format!("({} {} {})", a, self.rng.pick(&["&&", "||"]), b),
            8 => {
                let c = self.expr(depth - 1);
                format!("({} ? {} : {})", c, a, b)
            }
            9 => format!("(!{})", a),
            10 => format!("(- {})", a),
            11 => {
                let h: Vec<String> = self.helpers.iter().filter(|h| h.1 == HelperKind::Pure).map(|h| h.0.clone()).collect();
                if h.is_empty() {
                    a
                } else {
                    format!("{}({})", self.rng.pick(&h), a)
                }
            }
            12 => format!("({}){}", self.rng.pick(&["char", "unsigned char", "short", "unsigned", "long", "_Bool", "unsigned short"]), a),
            13 => format!("__builtin_expect({}, {})", a, self.rng.below(2)),
            _ => format!("({} {} {})", a, self.rng.pick(&["&", "|", "^"]), b),
        }
    }

    fn cond(&mut self) -> String {
        let vars = self.scalars();
        if !vars.is_empty() && self.rng.pct(70) {
            let (v, _) = self.rng.pick(&vars).clone();
            let op = *self.rng.pick(&["<", "<=", "!=", ">", ">=", "=="]);
            let l = self.literal();
            return format!("{} {} {}", v, op, l);
        }
        self.expr(2)
    }

    /// Assignable scalar (locals preferred).
    fn lvalue(&mut self) -> Option<(String, Ty)> {
        let mut vars = self.scalars();
        if self.math {
            vars.retain(|v| v.1 == Ty::Int || v.1 == Ty::Bool);
        }
        if vars.is_empty() {
            None
        } else {
            Some(self.rng.pick(&vars).clone())
        }
    }

    fn nondet_decl(&mut self, t: Ty) -> String {
        let name = self.fresh("n");
        let (lo, hi) = self.nondet_range(t);
        self.emit(format!("{} {} = {}();", t.name(), name, t.nondet()));
        self.emit(format!("__VERIFIER_assume({} <= {} && {} <= {});", lo, name, name, hi));
        for v in lo..=hi {
            self.domain.insert(v);
        }
        self.nondets += 1;
        self.declare(&name, Kind::Scalar(t));
        name
    }
    fn nondet_range(&mut self, t: Ty) -> (i64, i64) {
        let (mn, mx) = t.min_max();
        let w = self.rng.range(0, 3);
        let lo = match self.rng.below(6) {
            0 if !self.math => mx - w, // near the top
            1 if !self.math => mn,     // at the bottom
            _ => self.rng.range(-2, 5),
        };
        let lo = lo.clamp(mn, mx);
        let hi = (lo + w).min(mx);
        (lo, hi)
    }

    // ---------------------------------------------------- statements

    fn simple_stmt(&mut self) {
        let Some((v, t)) = self.lvalue() else {
            let t = self.pick_ty();
            let n = self.fresh("v");
            let e = self.literal();
            self.emit(format!("{} {} = {};", t.name(), n, e));
            self.declare(&n, Kind::Scalar(t));
            return;
        };
        match self.rng.below(8) {
            0 => {
                let t = self.pick_ty();
                let n = self.fresh("v");
                let e = self.expr(2);
                self.emit(format!("{} {} = {};", t.name(), n, e));
                self.declare(&n, Kind::Scalar(t));
            }
            1 | 2 => {
                let e = self.expr(2);
                self.emit(format!("{} = {};", v, e));
            }
            3 => {
                let op = *self.rng.pick(&["+=", "-="]);
                let l = self.literal();
                self.emit(format!("{} {} {};", v, op, l));
            }
            4 => self.emit(format!("{}{};", v, self.rng.pick(&["++", "--"]))),
            5 => {
                let c = self.cond();
                let e = self.expr(1);
                self.emit(format!("if ({}) {} = {};", c, v, e));
            }
            6 if !self.math && t != Ty::Bool => {
                // narrow store into a wider cell
                let nt = *self.rng.pick(&["char", "unsigned char", "short"]);
                let l = self.literal();
                self.emit(format!("*({} *)&{} = {};", nt, v, l));
            }
            _ => {
                let sides: Vec<String> = self.helpers.iter().filter(|h| h.1 == HelperKind::SideEffect).map(|h| h.0.clone()).collect();
                if sides.is_empty() {
                    self.emit(format!("{} = !{};", v, v));
                } else {
                    let f = self.rng.pick(&sides).clone();
                    let g = self.rng.pick(&sides).clone();
                    let op = *self.rng.pick(&["+", "&&", "||", "-"]);
                    self.emit(format!("{} = {}() {} {}();", v, f, op, g));
                }
            }
        }
    }

    fn block(&mut self, n: usize) {
        for _ in 0..n {
            if self.budget <= 0 {
                break;
            }
            self.stmt();
        }
    }

    fn stmt(&mut self) {
        if !self.features.is_empty() && !self.in_shape && self.xrng.pct(12) {
            let s = *self.xrng.pick(&self.features);
            self.shape_stmt(s);
        }
        let deep = self.loop_depth >= 2 || self.budget < 4;
        let k = self.rng.below(if deep { 3 } else { 18 });
        match k {
            0..=2 => self.simple_stmt(),
            3 | 4 => self.counter_loop(),
            5 => {
                let c = self.cond();
                self.open(format!("if ({}) {{", c));
                let n = self.rng.range(1, 2) as usize;
                self.block(n);
                if self.rng.pct(40) {
                    self.ind -= 1;
                    self.scopes.pop();
                    self.emit("} else {");
                    self.ind += 1;
                    self.scopes.push(vec![]);
                    self.block(1);
                }
                self.close("}");
            }
            6 => self.array_search(),
            7 => self.flag_loop(),
            8 => self.wrap_loop(),
            9 => self.alloc_motif(),
            10 => self.shortcircuit_loop(),
            11 => self.goto_loop(),
            12 => self.rec_motif(),
            13 => self.down_motif(),
            14 => self.narrow_motif(),
            15 => self.random_loop(),
            _ => self.flag_loop(),
        }
    }

    /// `T i = a; while/for/do (i CMP b) { ...; i += s; }`
    fn counter_loop(&mut self) {
        let t = if self.math { Ty::Int } else { *self.rng.pick(&[Ty::Int, Ty::Int, Ty::UChar, Ty::Char, Ty::Short, Ty::UInt, Ty::Long, Ty::ULong]) };
        let i = self.fresh("i");
        let init = if self.rng.pct(40) {
            self.nondet_decl(t)
        } else {
            self.rng.range(-2, 6).to_string()
        };
        let bound = if self.rng.pct(30) && !self.scalars().is_empty() {
            self.expr(1)
        } else {
            self.rng.range(-1, 9).to_string()
        };
        let (cmp, step) = match self.rng.below(5) {
            0 => ("<", "+= 1"),
            1 => ("<=", "+= 2"),
            2 => (">", "-= 1"),
            3 => ("!=", "+= 1"),
            _ => ("<", "++"),
        };
        let step_s = format!("{} {}", i, step).replace(" ++", "++");
        self.emit(format!("{} {} = {};", t.name(), i, init));
        self.declare(&i, Kind::Scalar(t));
        self.loop_depth += 1;
        let n = self.rng.range(0, 2) as usize;
        match self.rng.below(3) {
            0 => {
                self.open(format!("while ({} {} {}) {{", i, cmp, bound));
                self.snap();
                self.block(n);
                self.maybe_break();
                self.emit(format!("{};", step_s));
                self.close("}");
            }
            1 => {
                self.open(format!("for (; {} {} {}; {}) {{", i, cmp, bound, step_s));
                self.snap();
                self.block(n);
                self.maybe_break();
                self.close("}");
            }
            _ => {
                self.open("do {");
                self.snap();
                self.block(n);
                self.emit(format!("{};", step_s));
                self.close(&format!("}} while ({} {} {});", i, cmp, bound));
            }
        }
        self.loop_depth -= 1;
    }

    fn maybe_break(&mut self) {
        if self.rng.pct(20) {
            let c = self.cond();
            self.emit(format!("if ({}) break;", c));
        }
    }

    /// `int a[N] = {...}; int i = 0; while (i < N && a[i] != v) i++;`
    fn array_search(&mut self) {
        let n = self.rng.range(1, 4) as usize;
        let t = if self.math { Ty::Int } else { *self.rng.pick(&[Ty::Int, Ty::Char, Ty::UChar, Ty::Long]) };
        let a = self.fresh("a");
        let elems: Vec<String> = (0..n).map(|_| self.rng.range(-1, 4).to_string()).collect();
        self.emit(format!("{} {}[{}] = {{{}}};", t.name(), a, n, elems.join(", ")));
        self.declare(&a, Kind::Array(t, n));
        let i = self.fresh("i");
        self.emit(format!("int {} = 0;", i));
        self.declare(&i, Kind::Scalar(Ty::Int));
        let v = if self.rng.pct(40) { self.nondet_decl(Ty::Int) } else { self.rng.range(-1, 4).to_string() };
        if self.rng.pct(30) {
            let k = self.rng.below(n);
            let e = self.rng.range(-1, 4);
            self.emit(format!("{}[{}] = {};", a, k, e));
        }
        self.loop_depth += 1;
        match self.rng.below(3) {
            0 => {
                self.open(format!("while ({} < {} && {}[{}] != {}) {{", i, n, a, i, v));
                self.snap();
                self.emit(format!("{}++;", i));
                self.close("}");
            }
            1 => {
                // the unevaluated side would be out of bounds; loop re-scans
                self.open(format!("while ({} >= {} || {}[{}] != {}) {{", i, n, a, i, v));
                self.snap();
                self.emit(format!("{} = ({} + 1) % {};", i, i, n));
                self.close("}");
            }
            _ => {
                self.open(format!("for ({} = 0; {} < {}; {}++) {{", i, i, n, i));
                self.snap();
                self.emit(format!("if ({}[{}] == {}) break;", a, i, v));
                self.close("}");
            }
        }
        self.loop_depth -= 1;
    }

    /// A flag computed from literal/enum/sizeof typing, then a loop that only
    /// ends if the flag has the right value.
    fn flag_loop(&mut self) {
        let c = if self.math {
            let a = self.expr(2);
            format!("{} {} {}", a, self.rng.pick(&["<", ">", "=="]), self.rng.range(-2, 4))
        } else if self.rng.pct(60) {
            // comparisons whose value depends on exact C typing (gcc decides)
            self.rng
                .pick(&[
                    "(char)200 < 0", "'\\xff' < 0", "sizeof('a') == 4", "HUGE > 0", "HUGE == 5000000000", "NEG < 0",
                    "BIG == 2147483648", "BIG > 0", "BIG < 0", "0xffffffff == -1", "(short)65535 == -1", "(_Bool)256 == 1",
                    "-1 < sizeof(int)", "0u - 1 > 0", "sizeof(\"abc\") == 4", "sizeof(\"abc\") == 3", "sizeof(L\"ab\") == 12",
                    "sizeof(L\"ab\") == 3", "2147483648 > 0", "-2147483647 - 1 < 0", "037777777777 > 0", "(unsigned char)-1 == 255",
                    "-1L < 1u", "-1 < 1u", "sizeof(-1L) == 8", "sizeof(BIG) == 4", "sizeof(HUGE) == 8", "sizeof(NEG) == 4",
                    "sizeof(__builtin_expect(1, 1)) == 8", "__builtin_expect(-1, 0) < 0u", "sizeof(1 ? 'a' : 2L) == 8",
                    "0x100000000 > 0", "'\\377' == -1", "sizeof(\"\") == 1", "sizeof(\"a\\0b\") == 4", "sizeof 'a' == 1",
                    "(unsigned short)-1 > 0", "(signed char)128 < 0", "5000000000 > 2147483647", "sizeof(5000000000) == 8",
                    "sizeof(2147483648) == 8", "sizeof(0x80000000) == 4", "sizeof(0u) == 4", "sizeof(1ll) == 8", "-0x80000000 > 0",
                ])
                .to_string()
        } else {
            let r = &mut self.rng;
            let lhs = *r.pick(&[
                "-1", "0xffffffff", "0x80000000", "BIG", "HUGE", "NEG", "sizeof(L\"ab\")", "sizeof(\"abc\")", "sizeof('a')",
                "(char)200", "'\\xff'", "(unsigned char)-1", "5000000000", "-1L", "2147483648", "__builtin_expect(-1, 0)",
                "(short)65535", "(_Bool)256", "-2147483647 - 1", "0u - 1", "sizeof(int) - 5",
            ]);
            let rhs = *r.pick(&["0", "0u", "-1", "1", "4", "12", "3", "6", "255", "0x7fffffff", "(int)sizeof(long)", "sizeof(char)", "0L"]);
            let op = *r.pick(&["<", ">", "==", "!=", "<=", ">="]);
            format!("{} {} {}", lhs, op, rhs)
        };
        let f = self.fresh("f");
        self.emit(format!("int {} = ({});", f, c));
        self.declare(&f, Kind::Scalar(Ty::Int));
        self.loop_depth += 1;
        if self.rng.pct(60) {
            let neg = if self.rng.pct(50) { "!" } else { "" };
            self.open(format!("while ({}{}) {{", neg, f));
            self.snap();
            if self.rng.pct(30) {
                self.simple_stmt();
            }
            self.close("}");
        } else {
            let k = self.fresh("k");
            self.emit(format!("int {} = 0;", k));
            self.declare(&k, Kind::Scalar(Ty::Int));
            self.open(format!("while ({} < 3) {{", k));
            self.snap();
            self.emit(format!("{} += {};", k, f));
            self.close("}");
        }
        self.loop_depth -= 1;
    }

    /// Unsigned/narrow wrap-around loops.
    fn wrap_loop(&mut self) {
        if self.math {
            return self.counter_loop();
        }
        let t = *self.rng.pick(&[Ty::UChar, Ty::UChar, Ty::Char, Ty::UShort, Ty::UInt]);
        let c = self.fresh("w");
        let init = if self.rng.pct(40) { self.nondet_decl(t) } else { self.rng.pick(&["250", "5", "0", "255", "-3", "1"]).to_string() };
        self.emit(format!("{} {} = {};", t.name(), c, init));
        self.declare(&c, Kind::Scalar(t));
        let target = *self.rng.pick(&["3", "0", "255", "4", "10", "-1"]);
        let step = *self.rng.pick(&["1", "2", "3", "-2", "4", "255"]);
        self.loop_depth += 1;
        match self.rng.below(3) {
            0 => {
                self.open(format!("while ({} != {}) {{", c, target));
                self.snap();
                self.emit(format!("{} += {};", c, step));
            }
            1 => {
                self.open(format!("while ({} > {}) {{", c, target));
                self.snap();
                self.emit(format!("{} += {};", c, step));
            }
            _ => {
                self.open(format!("for (; {} < {}; {} -= {}) {{", c, target, c, step));
                self.snap();
            }
        }
        self.close("}");
        self.loop_depth -= 1;
    }

    /// Allocation sites that run more than once, loops over the cells.
    fn alloc_motif(&mut self) {
        let p = self.fresh("p");
        let k = self.fresh("k");
        let alloc = |g: &mut Gen| -> String {
            match g.rng.below(5) {
                0 => "malloc(2 * sizeof(int))".into(),
                1 => "calloc(2, sizeof(int))".into(),
                2 => "__builtin_alloca(2 * sizeof(int))".into(),
                3 => "__builtin_malloc(8)".into(),
                _ => "malloc(8)".into(),
            }
        };
        let a1 = alloc(self);
        self.emit(format!("int *{} = {};", p, a1));
        self.declare(&p, Kind::Ptr(Ty::Int, 2));
        let v0 = self.rng.range(0, 3);
        self.emit(format!("{}[0] = {}; {}[1] = {};", p, v0, p, self.rng.range(0, 3)));
        self.emit(format!("int {} = 0;", k));
        self.declare(&k, Kind::Scalar(Ty::Int));
        let mk: Vec<String> = self.helpers.iter().filter(|h| h.1 == HelperKind::Alloc).map(|h| h.0.clone()).collect();
        self.loop_depth += 1;
        match self.rng.below(5) {
            0 if !mk.is_empty() => {
                // called twice: two blocks from one site
                let f = mk[0].clone();
                let q = self.fresh("q");
                let v1 = self.rng.range(0, 3);
                let v2 = self.rng.range(0, 3);
                self.emit(format!("int *{} = {}({});", q, f, v1));
                self.declare(&q, Kind::Ptr(Ty::Int, 2));
                self.emit(format!("{} = {}({});", p, f, v2));
                let lim = self.rng.range(0, 4);
                self.open(format!("while ({}[0] != {}) {{", q, lim));
                self.snap();
                self.emit(format!("{}[0] = {}[0] + {};", q, q, self.rng.pick(&["1", "0", "-1", &format!("{}[0]", p)])));
                self.close("}");
            }
            1 => {
                // allocation in the loop condition
                let lim = self.rng.range(0, 4);
                self.open(format!("while (({} = malloc(2 * sizeof(int))) != 0 && {} < {}) {{", p, k, lim));
                self.snap();
                self.emit(format!("*{} = {}; {} += *{};", p, k, k, p));
                self.emit(format!("{}++;", k));
                self.close("}");
            }
            2 => {
                // allocation in a for step
                let lim = self.rng.range(0, 4);
                self.open(format!("for ({} = 0; {} < {}; {} = {}, {}[0] = {}) {{", k, p, lim, p, a1, p, k).replace(&format!("{} < {}", p, lim), &format!("{}[0] < {}", p, lim)));
                self.snap();
                self.emit(format!("{}[1] = {}[0] + 1; {}++;", p, p, k));
                self.close("}");
            }
            3 => {
                // allocation under a backward goto
                let l = self.fresh("L");
                let q = self.fresh("q");
                self.emit(format!("int *{} = {};", q, p));
                self.declare(&q, Kind::Ptr(Ty::Int, 2));
                self.emit(format!("{}: ;", l));
                self.snap();
                self.emit(format!("{} = {};", p, a1));
                self.emit(format!("{}[0] = {}; {}[1] = 0;", p, k, p));
                let lim = self.rng.range(0, 3);
                self.emit(format!("if ({}++ < {}) goto {};", k, lim, l));
                let lim2 = self.rng.range(0, 3);
                self.open(format!("while ({}[0] < {}) {{", q, lim2));
                self.snap();
                self.emit(format!("{}[0] += {};", q, self.rng.pick(&["1", "0", &format!("{}[0]", p)])));
                self.close("}");
            }
            _ => {
                let lim = self.rng.range(0, 4);
                self.open(format!("while ({}[{}] < {}) {{", p, self.rng.below(2), lim));
                self.snap();
                let j = self.rng.below(2);
                self.emit(format!("{}[{}] += {};", p, j, self.rng.pick(&["1", "2", "0"])));
                self.close("}");
            }
        }
        self.loop_depth -= 1;
    }

    /// Loop whose condition calls a side-effecting function (short-circuit).
    fn shortcircuit_loop(&mut self) {
        let sides: Vec<String> = self.helpers.iter().filter(|h| h.1 == HelperKind::SideEffect).map(|h| h.0.clone()).collect();
        let k = self.fresh("k");
        self.emit(format!("int {} = {};", k, self.rng.range(0, 3)));
        self.declare(&k, Kind::Scalar(Ty::Int));
        let call = if sides.is_empty() { "1".to_string() } else { format!("{}()", self.rng.pick(&sides)) };
        let lim = self.rng.range(0, 5);
        let c = match self.rng.below(4) {
            0 => format!("{} < {} && {}", k, lim, call),
            1 => format!("{} || {} < {}", call, k, lim),
            2 => format!("({} ? {} : 0) && {} < {}", call, k, k, lim),
            _ => format!("{} < {} || {} > {}", k, lim, call, self.rng.range(0, 3)),
        };
        self.loop_depth += 1;
        self.open(format!("while ({}) {{", c));
        self.snap();
        self.emit(format!("{}++;", k));
        self.maybe_break();
        self.close("}");
        self.loop_depth -= 1;
    }

    fn goto_loop(&mut self) {
        let k = self.fresh("k");
        let l = self.fresh("L");
        let init = self.rng.range(0, 3);
        self.emit(format!("int {} = {};", k, init));
        self.declare(&k, Kind::Scalar(Ty::Int));
        self.emit(format!("{}: ;", l));
        self.snap();
        self.loop_depth += 1;
        self.simple_stmt();
        self.loop_depth -= 1;
        let lim = self.rng.range(0, 5);
        let op = *self.rng.pick(&["+= 1", "-= 1", "+= 2", "+= 0"]);
        self.emit(format!("{} {};", k, op));
        self.emit(format!("if ({} < {}) goto {};", k, lim, l));
    }

    /// Recursion writing memory through a global pointer, then a loop on it
    /// (or through a pointer parameter to a local, see `recp_motif`).
    fn rec_motif(&mut self) {
        let recp: Vec<String> = self.helpers.iter().filter(|h| h.1 == HelperKind::RecPtr).map(|h| h.0.clone()).collect();
        if !recp.is_empty() && self.rng.pct(50) {
            return self.recp_motif(&recp[0]);
        }
        let rec: Vec<String> = self.helpers.iter().filter(|h| h.1 == HelperKind::Rec).map(|h| h.0.clone()).collect();
        if rec.is_empty() {
            return self.counter_loop();
        }
        let depth = self.rng.range(0, 3);
        let r = self.fresh("r");
        self.emit(format!("int {} = {}({});", r, rec[0], depth));
        self.declare(&r, Kind::Scalar(Ty::Int));
        let lim = self.rng.range(0, 4);
        self.loop_depth += 1;
        if self.rng.pct(50) {
            self.open(format!("while (gp[0] != {}) {{", lim));
            self.snap();
            self.emit(format!("gp[0] {};", self.rng.pick(&["+= 1", "-= 1", "= gp[1]"])));
        } else {
            self.open(format!("while (g < {}) {{", lim));
            self.snap();
            self.emit(format!("g += {};", self.rng.pick(&["gp[1]", "1", "r0"]).replace("r0", &r)));
        }
        self.close("}");
        self.loop_depth -= 1;
    }

    /// `int x = k; recp(&x, d); while (x != l) { x = ...; }`
    fn recp_motif(&mut self, recp: &str) {
        let x = self.fresh("x");
        let init = self.rng.range(-1, 5);
        self.emit(format!("int {} = {};", x, init));
        self.declare(&x, Kind::Scalar(Ty::Int));
        let depth = self.rng.range(0, 3);
        self.emit(format!("{}(&{}, {});", recp, x, depth));
        let lim = self.rng.range(-1, 5);
        self.loop_depth += 1;
        self.open(format!("while ({} != {}) {{", x, lim));
        self.snap();
        let next = self.rng.pick(&[x.as_str(), "0", "1", "3"]).to_string();
        self.emit(format!("{} = {};", x, next));
        self.close("}");
        self.loop_depth -= 1;
    }

    fn down_motif(&mut self) {
        let d: Vec<String> = self.helpers.iter().filter(|h| h.1 == HelperKind::Down).map(|h| h.0.clone()).collect();
        if d.is_empty() || self.math {
            return self.random_loop();
        }
        let x = self.fresh("x");
        let init = if self.rng.pct(50) { self.nondet_decl(Ty::Int) } else { self.rng.range(-1, 5).to_string() };
        self.emit(format!("int {} = {};", x, init));
        self.declare(&x, Kind::Scalar(Ty::Int));
        self.emit(format!("{}(&{});", d[0], x));
        if self.rng.pct(50) {
            self.emit(format!("{}(&{});", d[0], x));
        }
        let lim = self.rng.range(-1, 2);
        self.loop_depth += 1;
        self.open(format!("while ({} != {}) {{", x, lim));
        self.snap();
        self.emit(format!("{} = {};", x, self.rng.pick(&[x.as_str(), "0", "1"])));
        self.close("}");
        self.loop_depth -= 1;
    }

    fn narrow_motif(&mut self) {
        if self.math {
            return self.counter_loop();
        }
        let x = self.fresh("x");
        let t = *self.rng.pick(&[Ty::Int, Ty::UInt, Ty::Short, Ty::Long]);
        let v = *self.rng.pick(&["256", "300", "511", "-1", "0x1ff", "65536", "257"]);
        self.emit(format!("{} {} = {};", t.name(), x, v));
        self.declare(&x, Kind::Scalar(t));
        let nt = *self.rng.pick(&["char", "unsigned char", "signed char"]);
        let sv = *self.rng.pick(&["0", "1", "-1", "255"]);
        self.emit(format!("*({} *)&{} = {};", nt, x, sv));
        let lim = *self.rng.pick(&["0", "1", "255", "256", "257"]);
        self.loop_depth += 1;
        if self.rng.pct(50) {
            self.open(format!("while ({} > {}) {{", x, lim));
            self.snap();
            self.emit(format!("{} -= {};", x, self.rng.pick(&["1", "0", "256"])));
        } else {
            self.open(format!("while ({} != {}) {{", x, lim));
            self.snap();
            self.emit(format!("*({} *)&{} += 1;", nt, x));
        }
        self.close("}");
        self.loop_depth -= 1;
    }

    fn random_loop(&mut self) {
        let c = self.cond();
        self.loop_depth += 1;
        if self.rng.pct(70) {
            self.open(format!("while ({}) {{", c));
            self.snap();
            let n = self.rng.range(1, 2) as usize;
            self.block(n);
            self.close("}");
        } else {
            self.open("do {");
            self.snap();
            let n = self.rng.range(1, 2) as usize;
            self.block(n);
            self.close(&format!("}} while ({});", c));
        }
        self.loop_depth -= 1;
    }

    // ---------------------------------------------------- helpers

    fn helper(&mut self, kind: HelperKind) {
        let name = self.fresh(match kind {
            HelperKind::SideEffect => "se",
            HelperKind::Alloc => "mk",
            HelperKind::Rec => "rec",
            HelperKind::Down => "down",
            HelperKind::RecPtr => "recp",
            HelperKind::Pure => "pure",
        });
        self.scopes.push(vec![]);
        match kind {
            HelperKind::SideEffect => {
                self.emit(format!("int {}(void) {{", name));
                self.ind += 1;
                self.enter();
                let k = self.rng.range(1, 2);
                self.emit(format!("g += {};", k));
                self.emit(format!("return {};", self.rng.range(0, 2)));
            }
            HelperKind::Alloc => {
                self.emit(format!("int *{}(int v) {{", name));
                self.ind += 1;
                self.enter();
                self.declare("v", Kind::Scalar(Ty::Int));
                let a = *self.rng.pick(&["malloc(2 * sizeof(int))", "calloc(2, sizeof(int))", "__builtin_malloc(8)"]);
                self.emit(format!("int *q = {};", a));
                self.declare("q", Kind::Ptr(Ty::Int, 2));
                self.emit("q[0] = v; q[1] = v + 1;");
                if self.rng.pct(30) {
                    self.emit("g++;");
                }
                self.emit("return q;");
            }
            HelperKind::Rec => {
                self.emit(format!("int {}(int n) {{", name));
                self.ind += 1;
                self.enter();
                self.declare("n", Kind::Scalar(Ty::Int));
                self.snap();
                self.emit("if (n <= 0) return 0;");
                self.emit(format!("gp[n % 2] {};", self.rng.pick(&["+= 1", "= n", "-= 1", "+= n"])));
                if self.rng.pct(50) {
                    self.emit("g += n;");
                }
                self.emit(format!("return {}(n - 1) + {};", name, self.rng.pick(&["1", "0", "n"])));
            }
            HelperKind::Down => {
                self.emit(format!("void {}(int *c) {{", name));
                self.ind += 1;
                self.enter();
                self.declare("c", Kind::Ptr(Ty::Int, 1));
                let op = *self.rng.pick(&["> 0", "> 1", ">= 2"]);
                self.emit(format!("while (*c {}) {{", op));
                self.ind += 1;
                self.snap();
                self.emit(format!("(*c){};", self.rng.pick(&["--", "-= 2"])));
                self.ind -= 1;
                self.emit("}");
            }
            HelperKind::RecPtr => {
                self.emit(format!("int {}(int *c, int n) {{", name));
                self.ind += 1;
                self.enter();
                self.declare("c", Kind::Ptr(Ty::Int, 1));
                self.declare("n", Kind::Scalar(Ty::Int));
                self.snap();
                self.emit(format!("if (n <= 0) {{ *c {}; return 0; }}", self.rng.pick(&["= 0", "= 5", "+= 1", "-= 1"])));
                self.emit(format!("*c {};", self.rng.pick(&["+= 1", "-= 1", "= n", "+= n"])));
                self.emit(format!("return {}(c, n - 1) + {};", name, self.rng.pick(&["1", "0", "n"])));
            }
            HelperKind::Pure => {
                self.emit(format!("int {}(int x) {{", name));
                self.ind += 1;
                self.declare("x", Kind::Scalar(Ty::Int));
                let e = *self.rng.pick(&["x + 1", "x - 1", "x % 3", "x > 2 ? 2 : x", "-x", "x / 2"]);
                self.emit(format!("return {};", e));
            }
        }
        self.ind -= 1;
        self.emit("}");
        self.scopes.pop();
        self.helpers.push((name, kind));
    }
}

/// Generate program number `idx` of the campaign with seed `seed`.
pub fn gen_program(seed: u64, idx: u64) -> Program {
    gen_program_with(seed, idx, shapes::shape_pct())
}

/// The same, each new shape (see shapes.rs) with probability `shape_pct` percent.
pub fn gen_program_with(seed: u64, idx: u64, shape_pct: u64) -> Program {
    let rng = Rng::new(seed.wrapping_mul(0x1000_0000_01B3).wrapping_add(idx));
    let xrng = Rng::new(seed.wrapping_mul(0x1000_0000_01B3).wrapping_add(idx) ^ 0x5ba9_e5ba_9e5b_a9e5);
    for _ in 0..3 {
        rng.next();
    }
    let math = rng.pct(35);
    let uses_argc = rng.pct(15);
    let mut g = Gen {
        rng,
        math,
        out: PRELUDE.iter().map(|s| s.to_string()).collect(),
        ind: 0,
        globals: vec![],
        scopes: vec![],
        domain: BTreeSet::new(),
        snap_id: 0,
        fresh: 0,
        nondets: 0,
        loop_depth: 0,
        helpers: vec![],
        budget: 30,
        features: shapes::pick_features(&xrng, shape_pct),
        xrng,
        used: BTreeSet::new(),
        xfresh: 0,
        xsnap: 0,
        xglobals: vec![],
        includes: BTreeSet::new(),
        in_shape: false,
        va_fns: vec![],
        ext_fns: vec![],
        structs: vec![],
        lists: None,
        returns: vec![],
        meaning: meaning::MState::default(),
    };
    // enum constants (typing of values that do not fit int)
    if !math {
        g.emit("enum { BIG = 0x80000000, HUGE = 5000000000, NEG = -1 };");
    }
    // globals
    g.emit("int g = 0;");
    g.globals.push(Sym { name: "g".into(), kind: Kind::Scalar(Ty::Int) });
    let extra = g.rng.below(2);
    for _ in 0..extra {
        let t = g.pick_ty();
        let n = g.fresh("G");
        let l = g.literal();
        g.emit(format!("{} {} = {};", t.name(), n, l));
        g.globals.push(Sym { name: n, kind: Kind::Scalar(t) });
    }
    let want_rec = g.rng.pct(35);
    if want_rec {
        g.emit("int *gp;");
        g.globals.push(Sym { name: "gp".into(), kind: Kind::Ptr(Ty::Int, 2) });
    }
    // helpers
    if g.rng.pct(55) {
        g.helper(HelperKind::SideEffect);
        if g.rng.pct(40) {
            g.helper(HelperKind::SideEffect);
        }
    }
    if g.rng.pct(30) {
        g.helper(HelperKind::Alloc);
    }
    if want_rec {
        g.helper(HelperKind::Rec);
        if g.rng.pct(50) {
            g.helper(HelperKind::RecPtr);
        }
    }
    if !math && g.rng.pct(20) {
        g.helper(HelperKind::Down);
    }
    if g.rng.pct(25) {
        g.helper(HelperKind::Pure);
    }
    // file-scope part of the shapes (variadic helpers, struct types, externals)
    g.shape_decls();
    g.budget = g.rng.range(5, 16) as isize;
    g.emit(if uses_argc { "int main(int argc, char **argv) {" } else { "int main(void) {" });
    g.ind += 1;
    g.scopes.push(vec![]);
    g.enter();
    if uses_argc {
        g.emit("__VERIFIER_assume(argc >= 1 && argc <= 3);");
        g.declare("argc", Kind::Scalar(Ty::Int));
    }
    if want_rec {
        let a = *g.rng.pick(&["malloc(2 * sizeof(int))", "calloc(2, sizeof(int))", "__builtin_alloca(8)"]);
        g.emit(format!("gp = {};", a));
        g.emit("gp[0] = 0; gp[1] = 1;");
    }
    if g.rng.pct(50) {
        let t = g.pick_ty();
        g.nondet_decl(t);
    }
    // DIFFTEST_BARE=1: main holds the shapes' blocks only (the draws are the same)
    let bare = std::env::var("DIFFTEST_BARE").map(|v| v == "1").unwrap_or(false);
    let n = g.rng.range(1, 3) as usize;
    if !bare {
        g.block(n);
    }
    // every enabled shape appears at least once
    for s in g.features.clone() {
        if !g.used.contains(&s) {
            g.shape_stmt(s);
        }
    }
    let n = g.rng.range(0, 1) as usize;
    if !bare {
        g.block(n);
    }
    g.emit("return 0;");
    g.ind -= 1;
    g.scopes.pop();
    g.emit("}");
    let mut domain: Vec<i64> = g.domain.into_iter().collect();
    if domain.is_empty() {
        domain.push(0);
    }
    let mut lines: Vec<String> = g.includes.iter().map(|s| s.to_string()).collect();
    lines.extend(g.out);
    let shapes: Vec<&'static str> = g.used.iter().map(|s| s.name()).collect();
    let external = g.used.contains(&Shape::External);
    let classes: Vec<Class> = g.features.iter().filter_map(|s| if let Shape::Meaning(c) = s { Some(*c) } else { None }).collect();
    let math_ok = math && classes.iter().all(|c| c.math_ok());
    let outside_main = classes.contains(&Class::Outside);
    let unspecified = classes.iter().any(|c| c.unspecified());
    Program { lines, math_ok, domain, uses_argc, shapes, external, outside_main, unspecified }
}
