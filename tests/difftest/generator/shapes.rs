//! Shapes of issue 31, each behind its own probability: variadic helpers,
//! format strings (`%n`), builtins with unevaluated operands, layout
//! attributes, external functions.
//!
//! Everything here draws from `Gen::xrng` (swapped in for `rng` while a
//! shape is generated), names its variables from its own counter, numbers
//! its snapshots from 1000 and restores the statement budget, and every
//! statement shape is a block of its own: the rest of the program is the
//! one generated without shapes (`DIFFTEST_SHAPE_PCT=0` reproduces it
//! byte for byte).  Shape code writes only its own variables and the
//! shapes' globals (`xglobals`, part of every snapshot), so a repeated
//! state at an older loop head still proves non-termination.

use super::{Gen, Kind, Rng, Sym, Ty};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Shape {
    Varargs,
    Format,
    Builtin,
    Layout,
    External,
    Lists,
    Returns,
    /// a class of issue 55 (meaning.rs)
    Meaning(super::meaning::Class),
}

pub const ALL_SHAPES: [Shape; 5] = [Shape::Varargs, Shape::Format, Shape::Builtin, Shape::Layout, Shape::External];

impl Shape {
    pub fn name(self) -> &'static str {
        match self {
            Shape::Varargs => "varargs",
            Shape::Format => "format",
            Shape::Builtin => "builtin",
            Shape::Layout => "layout",
            Shape::External => "external",
            Shape::Lists => "lists",
            Shape::Returns => "returns",
            Shape::Meaning(c) => c.name(),
        }
    }
}

/// Probability (percent) of each shape in a program of `gen_program`:
/// `DIFFTEST_SHAPE_PCT`, 11 by default; 0 gives the programs generated before
/// shapes existed.
pub fn shape_pct() -> u64 {
    std::env::var("DIFFTEST_SHAPE_PCT").ok().and_then(|s| s.parse().ok()).unwrap_or(11)
}

pub(super) fn pick_features(x: &Rng, p: u64) -> Vec<Shape> {
    // lists.rs adds its own shape; no shape drawn gives the program of before
    let v = super::lists::add_lists(x, p, ALL_SHAPES.iter().copied().filter(|_| x.pct(p)).collect());
    let v = super::returns::add_returns(x, p, v);
    super::meaning::add_meaning(x, p, v)
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum VaKind {
    /// int f(int n, ...): sum of n ints (a loop over va_arg)
    Sum,
    /// void f(int n, ...): *va_arg(ap, int *) OP
    Set,
    /// void f(int n, ...): p = va_arg(ap, int *); v = va_arg(ap, int); *p OP v
    SetVal,
    /// int f(int n, ...): va_copy, writes through the pointer read from the copy
    Copy,
    /// int f(int n, ...): v = va_arg(ap, int); p = va_arg(ap, int *); if (v > k) *p OP
    Skip,
    /// void f(int n, ...): passes its va_list to a function that writes through the pointer
    Fwd,
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum ExtKind {
    /// extern void f(void): may change eg, or *ep
    Void,
    /// extern int f(int *p): may write *p
    Ptr,
    /// extern int f(int x): returns anything
    Val,
}

impl Gen {
    pub(super) fn xname(&mut self, p: &str) -> String {
        self.xfresh += 1;
        format!("{}{}", p, self.xfresh)
    }

    /// Runs `f` with the shapes' random stream, keeping the budget.
    fn in_x<R>(&mut self, f: impl FnOnce(&mut Gen) -> R) -> R {
        std::mem::swap(&mut self.rng, &mut self.xrng);
        let (budget, in_shape, depth) = (self.budget, self.in_shape, self.loop_depth);
        self.in_shape = true;
        let r = f(self);
        self.in_shape = in_shape;
        self.budget = budget;
        self.loop_depth = depth;
        std::mem::swap(&mut self.rng, &mut self.xrng);
        r
    }

    /// An `int` nondet in `lo..=hi` (named from the shapes' counter).
    pub(super) fn x_nondet(&mut self, lo: i64, hi: i64) -> String {
        let n = self.xname("xn");
        self.emit(format!("int {} = __VERIFIER_nondet_int();", n));
        self.emit(format!("__VERIFIER_assume({} <= {} && {} <= {});", lo, n, n, hi));
        for v in lo..=hi {
            self.domain.insert(v);
        }
        self.declare(&n, Kind::Scalar(Ty::Int));
        n
    }

    /// An initial value: a small literal or (sometimes) a nondet.
    pub(super) fn x_init(&mut self, lo: i64, hi: i64) -> String {
        if self.rng.pct(25) {
            self.x_nondet(lo, hi)
        } else {
            self.rng.range(lo, hi).to_string()
        }
    }

    /// Loop head and step of a counting loop over `v`.
    fn x_head(&mut self, v: &str) -> (String, String) {
        let lim = self.rng.range(0, 5);
        match self.rng.below(4) {
            0 => (format!("{} < {}", v, lim), format!("{}++;", v)),
            1 => (format!("{} > {}", v, lim - 2), format!("{}--;", v)),
            2 => (format!("{} != {}", v, lim), format!("{}++;", v)),
            _ => (format!("{} < {}", v, lim), format!("{} += 2;", v)),
        }
    }

    /// `{ ... }` around a statement shape.
    fn x_open(&mut self) { self.open("{"); }

    // ------------------------------------------------------------ file scope

    pub(super) fn shape_decls(&mut self) {
        if self.features.is_empty() {
            return;
        }
        self.in_x(|g| {
            for s in g.features.clone() {
                match s {
                    Shape::Varargs => g.va_decls(),
                    Shape::Format => {
                        g.includes.insert("#include <stdio.h>");
                    }
                    Shape::Builtin => {}
                    Shape::Layout => g.layout_decls(),
                    Shape::External => g.ext_decls(),
                    Shape::Lists => g.list_decls(),
                    Shape::Returns => g.returns_decls(),
                    Shape::Meaning(c) => g.meaning_decls(c),
                }
            }
        });
    }

    pub(super) fn shape_stmt(&mut self, s: Shape) {
        // a meaning block stays out of loops: its outcome may depend on state
        // the snapshots do not hold (the allocator's, the stack's layout)
        if matches!(s, Shape::Meaning(_)) && self.loop_depth > 0 {
            return;
        }
        self.used.insert(s);
        self.in_x(|g| match s {
            Shape::Varargs => g.va_stmt(),
            Shape::Format => g.fmt_stmt(),
            Shape::Builtin => g.builtin_stmt(),
            Shape::Layout => g.layout_stmt(),
            Shape::External => g.ext_stmt(),
            Shape::Lists => g.list_stmt(),
            Shape::Returns => g.returns_stmt(),
            Shape::Meaning(c) => g.meaning_stmt(c),
        });
    }

    // ------------------------------------------------------------ varargs

    fn va_decls(&mut self) {
        self.includes.insert("#include <stdarg.h>");
        let vg = self.xname("vg");
        self.emit(format!("int {} = 0;", vg));
        self.xglobals.push(Sym { name: vg, kind: Kind::Scalar(Ty::Int) });
        let n = 1 + self.rng.below(2);
        for _ in 0..n {
            let k = *self.rng.pick(&[VaKind::Sum, VaKind::Set, VaKind::SetVal, VaKind::Copy, VaKind::Skip, VaKind::Fwd]);
            let name = self.xname("va");
            let op = *self.rng.pick(&["= 0", "+= 1", "-= 1", "= n", "+= n", "-= n", "+= 2"]);
            match k {
                VaKind::Sum => {
                    self.open(format!("int {}(int n, ...) {{", name));
                    self.declare("n", Kind::Scalar(Ty::Int));
                    self.enter();
                    self.emit("va_list ap;");
                    self.emit("va_start(ap, n);");
                    self.emit("int s = 0;");
                    self.declare("s", Kind::Scalar(Ty::Int));
                    self.open("for (int j = 0; j < n; j++) {");
                    self.declare("j", Kind::Scalar(Ty::Int));
                    self.snap();
                    self.emit("s += va_arg(ap, int);");
                    self.close("}");
                    self.emit("va_end(ap);");
                    self.emit("return s;");
                    self.close("}");
                }
                VaKind::Set => {
                    self.open(format!("void {}(int n, ...) {{", name));
                    self.emit("va_list ap;");
                    self.emit("va_start(ap, n);");
                    self.emit("int *p = va_arg(ap, int *);");
                    self.emit(format!("*p {};", op));
                    self.emit("va_end(ap);");
                    self.close("}");
                }
                VaKind::SetVal => {
                    let op = *self.rng.pick(&["=", "+=", "-="]);
                    self.open(format!("void {}(int n, ...) {{", name));
                    self.emit("va_list ap;");
                    self.emit("va_start(ap, n);");
                    self.emit("int *p = va_arg(ap, int *);");
                    self.emit("int v = va_arg(ap, int);");
                    self.emit(format!("*p {} v;", op));
                    self.emit("va_end(ap);");
                    self.close("}");
                }
                VaKind::Copy => {
                    self.open(format!("int {}(int n, ...) {{", name));
                    self.emit("va_list ap, aq;");
                    self.emit("va_start(ap, n);");
                    self.emit("va_copy(aq, ap);");
                    self.emit("int *p = va_arg(ap, int *);");
                    self.emit("int *q = va_arg(aq, int *);");
                    self.emit(format!("*q {};", op));
                    self.emit("va_end(aq);");
                    self.emit("va_end(ap);");
                    self.emit("return *p;");
                    self.close("}");
                }
                VaKind::Skip => {
                    let k = self.rng.range(-1, 3);
                    self.open(format!("int {}(int n, ...) {{", name));
                    self.emit("va_list ap;");
                    self.emit("va_start(ap, n);");
                    self.emit("int v = va_arg(ap, int);");
                    self.emit("int *p = va_arg(ap, int *);");
                    self.emit(format!("if (v > {}) *p {};", k, op));
                    self.emit("va_end(ap);");
                    self.emit("return v;");
                    self.close("}");
                }
                VaKind::Fwd => {
                    let inner = format!("{}_list", name);
                    self.open(format!("static void {}(int n, va_list ap) {{", inner));
                    self.emit("int *p = va_arg(ap, int *);");
                    self.emit(format!("*p {};", op));
                    self.close("}");
                    self.open(format!("void {}(int n, ...) {{", name));
                    self.emit("va_list ap;");
                    self.emit("va_start(ap, n);");
                    self.emit(format!("{}(n, ap);", inner));
                    self.emit("va_end(ap);");
                    self.close("}");
                }
            }
            self.va_fns.push((name, k));
        }
    }

    /// A call of variadic helper `f` whose pointer argument is `&x`.
    fn va_call(&mut self, f: &str, k: VaKind, x: &str) -> String {
        match k {
            VaKind::Sum => {
                let n = self.rng.range(0, 3);
                let args: Vec<String> = (0..n).map(|_| self.rng.range(-2, 4).to_string()).collect();
                let mut s = format!("{}({}", f, n);
                for a in args {
                    s.push_str(", ");
                    s.push_str(&a);
                }
                s.push(')');
                s
            }
            VaKind::Set | VaKind::Copy | VaKind::Fwd => format!("{}(1, &{})", f, x),
            VaKind::SetVal => format!("{}(2, &{}, {})", f, x, self.rng.range(-1, 4)),
            VaKind::Skip => format!("{}(2, {}, &{})", f, self.rng.range(-1, 4), x),
        }
    }

    fn va_stmt(&mut self) {
        if self.va_fns.is_empty() {
            return;
        }
        let (f, k) = self.rng.pick(&self.va_fns).clone();
        self.x_open();
        // the loop variable: a local, or the shapes' global
        let global = self.rng.pct(25);
        let x = if global { self.xglobals.iter().find(|s| s.name.starts_with("vg")).unwrap().name.clone() } else { self.xname("vx") };
        let init = self.x_init(-1, 4);
        if global {
            self.emit(format!("{} = {};", x, init));
        } else {
            self.emit(format!("int {} = {};", x, init));
            self.declare(&x, Kind::Scalar(Ty::Int));
        }
        self.loop_depth += 1;
        if k == VaKind::Sum {
            // the sum bounds a loop
            let c = self.va_call(&f, k, &x);
            self.emit(format!("{} = {};", x, c));
            let step = *self.rng.pick(&["1", "1", "2", "0"]);
            let lim = self.rng.range(-2, 2);
            self.open(format!("while ({} > {}) {{", x, lim));
            self.snap();
            self.emit(format!("{} -= {};", x, step));
            self.close("}");
        } else if self.rng.pct(60) {
            // called with the address of the loop variable, in the loop
            let (cond, step) = self.x_head(&x);
            let c = self.va_call(&f, k, &x);
            self.open(format!("while ({}) {{", cond));
            self.snap();
            if self.rng.pct(50) {
                self.emit(step);
                self.emit(format!("{};", c));
            } else {
                self.emit(format!("{};", c));
                self.emit(step);
            }
            self.close("}");
        } else {
            // called before the loop: the loop ends iff the call moved x to the limit
            let c = self.va_call(&f, k, &x);
            self.emit(format!("{};", c));
            let lim = self.rng.range(-1, 4);
            self.open(format!("while ({} != {}) {{", x, lim));
            self.snap();
            let next = self.rng.pick(&[x.clone(), format!("{} + 0", x), lim.to_string()]).clone();
            self.emit(format!("{} = {};", x, next));
            self.close("}");
        }
        self.loop_depth -= 1;
        self.close("}");
    }

    // ------------------------------------------------------------ format strings

    fn fmt_stmt(&mut self) {
        self.includes.insert("#include <stdio.h>");
        // the variable %n writes: int, or signed char / short for %hhn / %hn
        let narrow = if self.math { 0 } else { self.rng.below(5) };
        let (ty, tyname, nconv) = match narrow {
            1 => (Ty::Char, "signed char", "hhn"),
            2 => (Ty::Short, "short", "hn"),
            _ => (Ty::Int, "int", "n"),
        };
        self.x_open();
        let c = self.xname("fc");
        let init = self.x_init(-1, 4);
        self.emit(format!("{} {} = {};", tyname, c, init));
        self.declare(&c, Kind::Scalar(ty));
        let b = self.xname("fb");
        self.emit(format!("char {}[16] = {{0}};", b));
        self.declare(&b, Kind::Array(Ty::Char, 16));
        let call = self.fmt_call(&c, &b, nconv);
        self.loop_depth += 1;
        match self.rng.below(3) {
            0 => {
                // in the loop body, after or before the step
                let (cond, step) = self.x_head(&c);
                self.open(format!("while ({}) {{", cond));
                self.snap();
                if self.rng.pct(60) {
                    self.emit(step);
                    self.emit(format!("{};", call));
                } else {
                    self.emit(format!("{};", call));
                    self.emit(step);
                }
                self.close("}");
            }
            1 => {
                // in the loop condition (comma operator)
                let (cond, step) = self.x_head(&c);
                self.open(format!("while (({}, {})) {{", call, cond));
                self.snap();
                self.emit(step);
                self.close("}");
            }
            _ => {
                // before the loop: it ends iff the call set the variable right
                self.emit(format!("{};", call));
                let lim = self.rng.range(0, 5);
                let op = *self.rng.pick(&["!=", "<", ">"]);
                self.open(format!("while ({} {} {}) {{", c, op, lim));
                self.snap();
                if self.rng.pct(40) {
                    self.emit(format!("{};", call));
                }
                self.close("}");
            }
        }
        self.loop_depth -= 1;
        self.close("}");
    }

    /// A printf-family call; `c` is the variable, `b` a char[16] buffer.
    fn fmt_call(&mut self, c: &str, b: &str, n: &str) -> String {
        let writes: Vec<String> = vec![
            format!("printf(\"%{}\", &{})", n, c),
            format!("printf(\"ab%{}\", &{})", n, c),
            format!("printf(\"%1${}\", &{})", n, c),
            format!("printf(\"abc%1${}\", &{})", n, c),
            format!("printf(\"%\" \"{}\", &{})", n, c),
            format!("printf(\"a\" \"%\" \"{}\", &{})", n, c),
            format!("printf(\"xy\" \"z%{}\", &{})", n, c),
            format!("printf(\"%d%{}\", (int){}, &{})", n, c, c),
            format!("printf(\"%3d%{}\", 7, &{})", n, c),
            format!("printf(\"%2$d%1${}\", &{}, 5)", n, c),
            format!("printf(\"%*d%{}\", 2, 0, &{})", n, c),
            format!("printf(\"%%%{}\", &{})", n, c),
            format!("snprintf({0}, sizeof {0}, \"%d%{1}\", (int){2}, &{2})", b, n, c),
            format!("snprintf({}, sizeof {}, \"xyz%{}\", &{})", b, b, n, c),
            format!("snprintf({}, 2, \"abcd%{}\", &{})", b, n, c),
            format!("snprintf(0, 0, \"ab%{}\", &{})", n, c),
            format!("sprintf({}, \"%{}\", &{})", b, n, c),
        ];
        let harmless: Vec<String> = vec![
            format!("printf(\"%%{}\", &{})", n, c),
            format!("printf(\"%%{}\")", n),
            "printf(\"\\n\")".to_string(),
            format!("printf(\"%d\\n\", (int){})", c),
            format!("printf(\"%%%d\", (int){})", c),
            format!("snprintf({0}, sizeof {0}, \"%%{1}%d\", (int){2})", b, n, c),
            format!("printf(\"{}%%\")", n),
        ];
        let returns: Vec<String> = if n == "n" {
            vec![
                format!("{} = printf(\"ab\")", c),
                format!("{} = snprintf({}, sizeof {}, \"%d\", {})", c, b, b, c),
                format!("{} = printf(\"%%n\")", c),
                format!("{} += printf(\"\")", c),
            ]
        } else {
            vec![]
        };
        match self.rng.below(10) {
            0..=5 => self.rng.pick(&writes).clone(),
            6..=8 => self.rng.pick(&harmless).clone(),
            _ if !returns.is_empty() => self.rng.pick(&returns).clone(),
            _ => self.rng.pick(&writes).clone(),
        }
    }

    // ------------------------------------------------------------ builtins

    fn builtin_stmt(&mut self) {
        self.x_open();
        let i = self.xname("bi");
        let init = self.x_init(-1, 3);
        self.emit(format!("int {} = {};", i, init));
        self.declare(&i, Kind::Scalar(Ty::Int));
        let b = self.xname("bb");
        self.emit(format!("char {}[8] = {{0}};", b));
        self.declare(&b, Kind::Array(Ty::Char, 8));
        let lim = self.rng.range(0, 5);
        let stmts: Vec<String> = [
            "(void)__builtin_constant_p(I++);",
            "I += __builtin_constant_p(I++);",
            "I += __builtin_constant_p(I) + 1;",
            "I += __builtin_classify_type(I--);",
            "(void)__builtin_classify_type(I++);",
            "I += (int)sizeof(I++);",
            "(void)sizeof(I++);",
            "I += (int)sizeof(I--) - 3;",
            "(void)sizeof(char[I++ + 8]);",
            "__builtin_choose_expr(1, I++, I--);",
            "__builtin_choose_expr(0, I--, I++);",
            "__builtin_choose_expr(sizeof(int) == 4, I += 2, I = 0);",
            "__builtin_choose_expr(0, I++, (void)0);",
            "I += (int)__builtin_object_size((I++, B), 2) + 1;",
            "(void)__builtin_object_size(&B[I++ & 7], 0);",
            "I += (int)__builtin_object_size(B, 0) - 7;",
            "I += (int)__builtin_object_size(B + 4, 1) - 3;",
            "(void)__builtin_expect(I++, 0);",
            "if (__builtin_expect(I < 100, 1)) I++;",
            "{ __typeof__(I++) t = I + 1; I = t; }",
            "I += __builtin_types_compatible_p(__typeof__(I++), int);",
            "(void)_Alignof(char[I++ + 1]);",
            "I += (int)__alignof__(I++) - 3;",
        ]
        .iter()
        .map(|s| s.replace('I', &i).replace('B', &b))
        .collect();
        let conds: Vec<String> = [
            "I < L",
            "__builtin_expect(I < L, 0)",
            "__builtin_classify_type(I++) && I < L",
            "sizeof(I++) == 4 && I < L",
            "__builtin_constant_p(I--) == 0 && I < L",
            "__builtin_expect(I++ < L, 1)",
            "__builtin_choose_expr(1, I < L, I++)",
        ]
        .iter()
        .map(|s| s.replace('I', &i).replace('L', &lim.to_string()))
        .collect();
        let cond = if self.rng.pct(70) { conds[0].clone() } else { self.rng.pick(&conds[1..]).clone() };
        self.loop_depth += 1;
        self.open(format!("while ({}) {{", cond));
        self.snap();
        let n = 1 + self.rng.below(2);
        for _ in 0..n {
            let s = self.rng.pick(&stmts).clone();
            self.emit(s);
        }
        self.close("}");
        self.loop_depth -= 1;
        self.close("}");
    }

    // ------------------------------------------------------------ layout

    fn layout_decls(&mut self) {
        if self.rng.pct(50) {
            self.includes.insert("#include <stddef.h>");
        }
        let n = 1 + self.rng.below(2);
        for _ in 0..n {
            let name = self.xname("ly");
            let k = 2 + self.rng.below(3);
            let mut members = vec![];
            let mut body = String::new();
            // at most one `_Alignas` member, in a quarter of the structs
            let alignas = if self.rng.pct(25) { Some(self.rng.below(k)) } else { None };
            for m in 0..k {
                let (t, arr) = *self.rng.pick(&[("char", ""), ("short", ""), ("int", ""), ("long", ""), ("char", "[3]"), ("int", "[2]"), ("long long", "")]);
                let mname = format!("m{}", m);
                let attr = match self.rng.below(8) {
                    0 => format!(" __attribute__((aligned({})))", self.rng.pick(&[2, 4, 8, 16])),
                    1 => " __attribute__((packed))".to_string(),
                    _ => String::new(),
                };
                let pre = match alignas {
                    Some(j) if j == m && self.rng.pct(70) => format!("_Alignas({}) ", self.rng.pick(&[8, 16, 32])),
                    Some(j) if j == m => "_Alignas(long) ".to_string(),
                    _ => String::new(),
                };
                body.push_str(&format!("{}{} {}{}{}; ", pre, t, mname, arr, attr));
                members.push((mname, if arr.is_empty() { t } else { "" }));
            }
            let sattr = match self.rng.below(6) {
                0 | 1 => " __attribute__((packed))".to_string(),
                2 => format!(" __attribute__((aligned({})))", self.rng.pick(&[1, 2, 8, 16, 32])),
                3 => format!(" __attribute__((packed, aligned({})))", self.rng.pick(&[2, 4, 8])),
                _ => String::new(),
            };
            match self.rng.below(5) {
                0 => self.emit(format!("struct{} {} {{ {}}};", sattr, name, body)),
                1 if sattr.is_empty() => {
                    self.emit("#pragma pack(push, 1)");
                    self.emit(format!("struct {} {{ {}}};", name, body));
                    self.emit("#pragma pack(pop)");
                }
                _ => self.emit(format!("struct {} {{ {}}}{};", name, body, sattr)),
            }
            self.structs.push((name, members));
        }
    }

    /// An int-valued expression of the layout of a struct type; `inst` an instance.
    fn layout_expr(&mut self, s: &str, members: &[(String, &'static str)], inst: Option<&str>) -> String {
        let m = self.rng.pick(members).0.clone();
        let off = if self.includes.contains("#include <stddef.h>") && self.rng.pct(60) { "offsetof" } else { "__builtin_offsetof" };
        let mut opts = vec![
            format!("(int)sizeof(struct {})", s),
            format!("(int){}(struct {}, {})", off, s, m),
            format!("(int)_Alignof(struct {})", s),
            format!("(int)__alignof__(struct {})", s),
            format!("(int)sizeof(struct {}[2])", s),
            format!("(int)sizeof(struct {})", s),
            format!("(int){}(struct {}, {})", off, s, m),
        ];
        if let Some(v) = inst {
            opts.push(format!("(int)((char *)&{}.{} - (char *)&{})", v, m, v));
            opts.push(format!("(int)sizeof {}.{}", v, m));
        }
        self.rng.pick(&opts).clone()
    }

    fn layout_stmt(&mut self) {
        if self.structs.is_empty() {
            return;
        }
        let (s, members) = self.rng.pick(&self.structs).clone();
        self.x_open();
        let inst = if self.rng.pct(40) {
            let v = self.xname("ls");
            self.emit(format!("struct {} {} = {{0}};", s, v));
            self.declare(&v, Kind::Mem);
            Some(v)
        } else {
            None
        };
        let e = self.layout_expr(&s, &members, inst.as_deref());
        let k = self.xname("lk");
        self.loop_depth += 1;
        let scalar_members: Vec<(String, &'static str)> = members.iter().filter(|m| !m.1.is_empty()).cloned().collect();
        match self.rng.below(4) {
            0 | 1 => {
                // k walks a cycle modulo M; it reaches the layout value or not
                let step = *self.rng.pick(&[1, 2, 3, 4, 8]);
                let m = *self.rng.pick(&[16, 24, 32, 64]);
                let init = self.rng.range(0, 3);
                self.emit(format!("int {} = {};", k, init));
                self.declare(&k, Kind::Scalar(Ty::Int));
                self.open(format!("while ({} != {}) {{", k, e));
                self.snap();
                self.emit(format!("{} = ({} + {}) % {};", k, k, step, m));
                self.close("}");
            }
            2 => {
                // a flag from the layout: loops unless it has the right value
                let c = self.rng.range(0, 33);
                let op = *self.rng.pick(&["==", "!=", "<", ">="]);
                self.emit(format!("int {} = {} {} {};", k, e, op, c));
                self.declare(&k, Kind::Scalar(Ty::Int));
                let neg = if self.rng.pct(50) { "!" } else { "" };
                self.open(format!("while ({}{}) {{", neg, k));
                self.snap();
                self.close("}");
            }
            _ => {
                // a member of a (packed) struct as the counter, bounded by a layout value
                let v = match &inst {
                    Some(v) if !scalar_members.is_empty() => v.clone(),
                    _ => {
                        let v = self.xname("ls");
                        self.emit(format!("struct {} {} = {{0}};", s, v));
                        self.declare(&v, Kind::Mem);
                        v
                    }
                };
                if scalar_members.is_empty() {
                    self.emit(format!("int {} = 0;", k));
                    self.declare(&k, Kind::Scalar(Ty::Int));
                    self.open(format!("while ({} < {}) {{", k, e));
                    self.snap();
                    self.emit(format!("{} += 1;", k));
                    self.close("}");
                } else {
                    let (m, _) = self.rng.pick(&scalar_members).clone();
                    let step = *self.rng.pick(&["+= 1", "+= 2", "+= 4"]);
                    self.open(format!("while ({}.{} != {}) {{", v, m, e));
                    self.snap();
                    self.emit(format!("{}.{} {};", v, m, step));
                    self.emit(format!("if ({}.{} > 40) {}.{} = 0;", v, m, v, m));
                    self.close("}");
                }
            }
        }
        self.loop_depth -= 1;
        self.close("}");
    }

    // ------------------------------------------------------------ external functions

    fn ext_decls(&mut self) {
        self.emit("int eg = 0;");
        self.emit("int *ep = 0;");
        self.xglobals.push(Sym { name: "eg".into(), kind: Kind::Scalar(Ty::Int) });
        self.xglobals.push(Sym { name: "ep".into(), kind: Kind::Scalar(Ty::Long) });
        let n = 1 + self.rng.below(2);
        for _ in 0..n {
            let k = *self.rng.pick(&[ExtKind::Void, ExtKind::Ptr, ExtKind::Ptr, ExtKind::Val]);
            let name = self.xname("ext");
            // behaviours of the definition the oracle links (the first does nothing)
            let (decl, head, all, none): (String, String, &[&str], &str) = match k {
                ExtKind::Void => (
                    format!("extern void {}(void);", name),
                    format!("void {}(void)", name),
                    &["eg += 1;", "eg = 0;", "eg -= 1;", "if (ep) *ep += 1;", "if (ep) *ep = 0;", "if (ep) *ep -= 1;"],
                    "",
                ),
                ExtKind::Ptr => (
                    format!("extern int {}(int *p);", name),
                    format!("int {}(int *p)", name),
                    &["*p += 1; return 1;", "*p -= 1; return 0;", "*p = 0; return 0;", "eg += 1; return *p;", "return *p;", "*p = 3; return -1;"],
                    "return 0;",
                ),
                ExtKind::Val => (
                    format!("extern int {}(int x);", name),
                    format!("int {}(int x)", name),
                    &["return x + 1;", "return x - 1;", "return 0;", "return eg;", "return x > 0 ? x - 1 : 0;"],
                    "return x;",
                ),
            };
            let nb = 1 + self.rng.below(3);
            let mut behaviours = vec![none.to_string()];
            while behaviours.len() < nb + 1 {
                let b = self.rng.pick(all).to_string();
                if !behaviours.contains(&b) {
                    behaviours.push(b);
                }
            }
            let cases: String = behaviours.iter().enumerate().map(|(i, b)| format!("case {}: {} break; ", i, b)).collect();
            let tail = if k == ExtKind::Void { "" } else { " return 0;" };
            let kb = behaviours.len();
            for v in 0..kb as i64 {
                self.domain.insert(v);
            }
            self.emit(decl);
            // the definition is oracle instrumentation: Tessera sees the declaration only
            self.emit(format!(
                "{} {{ static int __dt_b = -1; if (__dt_b < 0) {{ __dt_b = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= __dt_b && __dt_b < {}); }} switch (__dt_b) {{ {}}}{} }}",
                head, kb, cases, tail
            ));
            self.ext_fns.push((name, k));
        }
    }

    fn ext_stmt(&mut self) {
        if self.ext_fns.is_empty() {
            return;
        }
        let (f, k) = self.rng.pick(&self.ext_fns).clone();
        self.x_open();
        self.loop_depth += 1;
        match k {
            ExtKind::Ptr => {
                let x = self.xname("ex");
                let init = self.x_init(-1, 4);
                self.emit(format!("int {} = {};", x, init));
                self.declare(&x, Kind::Scalar(Ty::Int));
                if self.rng.pct(50) {
                    let (cond, step) = self.x_head(&x);
                    self.open(format!("while ({}) {{", cond));
                    self.snap();
                    self.emit(step);
                    let r = if self.rng.pct(30) { format!("if ({}(&{}) > 0) break;", f, x) } else { format!("{}(&{});", f, x) };
                    self.emit(r);
                    self.close("}");
                } else {
                    self.emit(format!("{}(&{});", f, x));
                    let lim = self.rng.range(-1, 4);
                    self.open(format!("while ({} != {}) {{", x, lim));
                    self.snap();
                    let next = self.rng.pick(&[x.clone(), lim.to_string()]).clone();
                    self.emit(format!("{} = {};", x, next));
                    self.close("}");
                }
            }
            ExtKind::Void => match self.rng.below(3) {
                0 => {
                    // the global the external function may change steers the loop
                    let init = self.x_init(-1, 3);
                    self.emit(format!("eg = {};", init));
                    let (cond, step) = self.x_head("eg");
                    self.open(format!("while ({}) {{", cond));
                    self.snap();
                    self.emit(step);
                    self.emit(format!("{}();", f));
                    self.close("}");
                }
                1 => {
                    // a local whose address is in the global ep
                    let x = self.xname("ex");
                    let init = self.x_init(-1, 4);
                    self.emit(format!("int {} = {};", x, init));
                    self.declare(&x, Kind::Scalar(Ty::Int));
                    self.emit(format!("ep = &{};", x));
                    let (cond, step) = self.x_head(&x);
                    self.open(format!("while ({}) {{", cond));
                    self.snap();
                    self.emit(step);
                    self.emit(format!("{}();", f));
                    self.close("}");
                    self.emit("ep = 0;");
                }
                _ => {
                    // a local that does not escape: every definition that returns lets it end
                    let x = self.xname("ex");
                    let init = self.x_init(-1, 4);
                    self.emit(format!("int {} = {};", x, init));
                    self.declare(&x, Kind::Scalar(Ty::Int));
                    let (cond, step) = self.x_head(&x);
                    self.open(format!("while ({}) {{", cond));
                    self.snap();
                    self.emit(format!("{}();", f));
                    self.emit(step);
                    self.close("}");
                }
            },
            ExtKind::Val => {
                let x = self.xname("ex");
                let init = self.x_init(-1, 4);
                self.emit(format!("int {} = {};", x, init));
                self.declare(&x, Kind::Scalar(Ty::Int));
                let lim = self.rng.range(-1, 2);
                let op = *self.rng.pick(&["!=", ">"]);
                self.open(format!("while ({} {} {}) {{", x, op, lim));
                self.snap();
                self.emit(format!("{} = {}({});", x, f, x));
                self.close("}");
            }
        }
        self.loop_depth -= 1;
        self.close("}");
    }
}
