//! Shape "lists" (issue 27): linked structures built from inputs in small
//! ranges, walked, searched, changed, and made cyclic (or not) by inputs.
//!
//! A program declares one node type (`struct node`): `{ int v; struct node
//! *next; }`, the link first, a wider node with the link third (walked
//! sometimes through `offsetof`), a doubly linked node (`prev`), a `void *`
//! link, or a tree (`left`/`right`). Each statement is a block of its own:
//! nondets (length, a value, a flag), a build loop (prepend, append, or a
//! helper `lpush`; a tree by insertion through a pointer to a pointer), an
//! optional first traversal, changes (delete with `free`, a node freed and
//! one allocated again, reversal, a link written with a value loaded
//! through another link, `memcpy` of a node or of a pointer), cycles made
//! by inputs (`if (k) t->next = h`, the tail to a middle node, through a
//! pointer to a pointer, after a first traversal, in the middle of a walk),
//! and a final loop (walk to NULL, search guarded or not, two steps at a
//! time, through an alias, bounded by a count, Floyd's cycle test, deletion
//! ahead of the walk, backwards along `prev`, a length helper).
//!
//! The oracle sees the heap: every allocation is followed by `__dt_reg`
//! (a registry in driver.c, part of every snapshot: addresses and bytes of
//! the live blocks), every `free` preceded by `__dt_unreg`; the pointers
//! of a block are snapshotted as memory (`Kind::Mem`, their values), and
//! the block drops its nodes from the registry when it ends (no pointer to
//! them outlives it). Everything here draws from the shapes' stream.

use super::{Gen, Kind, Rng, Shape, Ty};

/// The share of the list shape: `DIFFTEST_LISTS_PCT`, else that of the
/// other shapes (`DIFFTEST_SHAPE_PCT`; with both 0, no program changes).
pub fn lists_pct(p: u64) -> u64 {
    std::env::var("DIFFTEST_LISTS_PCT").ok().and_then(|s| s.parse().ok()).unwrap_or(p)
}

/// The shapes of a program, and lists in `lists_pct` percent of them
/// (drawn after the others, from the shapes' stream; not drawn at 0, so
/// that `DIFFTEST_LISTS_PCT=0` gives the programs of before at any
/// `DIFFTEST_SHAPE_PCT`).
pub(super) fn add_lists(x: &Rng, p: u64, mut v: Vec<Shape>) -> Vec<Shape> {
    let lists = lists_pct(p);
    if lists > 0 && x.pct(lists) {
        v.push(Shape::Lists);
    }
    v
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum NodeKind {
    /// `struct node { int v; struct node *next; }`
    Plain,
    /// `struct node { struct node *next; int v; }`
    LinkFirst,
    /// `struct node { int v; int w; struct node *next; }` (sometimes walked by offsetof)
    Wide,
    /// `struct node { int v; struct node *prev; struct node *next; }`
    Doubly,
    /// `struct node { int v; void *next; }`
    Void,
    /// `struct node { int v; struct node *left; struct node *right; }`
    Tree,
}

#[derive(Clone, Debug)]
pub struct ListDecl {
    pub kind: NodeKind,
    /// `struct node *lpush(struct node *h, int v)`: prepends
    pub push: Option<String>,
    /// `int llen(struct node *p)`: walks to NULL counting modulo 4 (a loop in the helper)
    pub len: Option<String>,
}

const NODE: &str = "struct node";
const SZ: &str = "sizeof(struct node)";

impl Gen {
    fn lname(&mut self, p: &str) -> String {
        self.xfresh += 1;
        format!("{}{}", p, self.xfresh)
    }

    fn l_nondet(&mut self, lo: i64, hi: i64) -> String {
        let n = self.lname("ln");
        self.emit(format!("int {} = __VERIFIER_nondet_int();", n));
        self.emit(format!("__VERIFIER_assume({} <= {} && {} <= {});", lo, n, n, hi));
        for v in lo..=hi {
            self.domain.insert(v);
        }
        self.declare(&n, Kind::Scalar(Ty::Int));
        n
    }

    /// An input the block may use (in scope and snapshotted from the
    /// start): declared by `l_inputs_done` only if some line uses it.
    fn l_lazy(&mut self, lo: i64, hi: i64) -> (String, i64, i64) {
        let n = self.lname("ln");
        self.declare(&n, Kind::Scalar(Ty::Int));
        (n, lo, hi)
    }

    /// Declares the lazy inputs that lines `from..` use (at `from`), and
    /// drops the others from the snapshots.
    fn l_inputs_done(&mut self, from: usize, lazy: &[(String, i64, i64)]) {
        let mut decls = vec![];
        let ind = "  ".repeat(self.ind);
        for (n, lo, hi) in lazy {
            let used = self.out[from..].iter().any(|l| !l.contains("__dt_") && uses(l, n));
            if used {
                decls.push(format!("{}int {} = __VERIFIER_nondet_int();", ind, n));
                decls.push(format!("{}__VERIFIER_assume({} <= {} && {} <= {});", ind, lo, n, n, hi));
                for v in *lo..=*hi {
                    self.domain.insert(v);
                }
            } else {
                let snap = format!("__dt_v((long){}); ", n);
                for l in self.out[from..].iter_mut() {
                    if l.contains("__dt_end(") {
                        *l = l.replace(&snap, "");
                    }
                }
            }
        }
        let at = from;
        for (j, d) in decls.into_iter().enumerate() {
            self.out.insert(at + j, d);
        }
    }

    /// A pointer variable of the block (snapshotted by value).
    fn l_ptr(&mut self, p: &str, ty: &str, init: &str) -> String {
        let n = self.lname(p);
        self.emit(format!("{} {} = {};", ty, n, init));
        self.declare(&n, Kind::Mem);
        n
    }

    fn l_kind(&self) -> NodeKind {
        self.lists.as_ref().map(|l| l.kind).unwrap_or(NodeKind::Plain)
    }

    /// `e->next` as a `struct node *` (an rvalue).
    fn nx(&self, e: &str) -> String {
        match self.l_kind() {
            NodeKind::Void => format!("(({} *){}->next)", NODE, e),
            _ => format!("{}->next", e),
        }
    }

    /// A step `p = p->next`, in one of its spellings.
    fn l_step(&mut self, p: &str) -> String {
        match self.l_kind() {
            NodeKind::Wide if self.rng.pct(40) => {
                format!("{0} = *({1} **)((char *){0} + __builtin_offsetof({1}, next));", p, NODE)
            }
            NodeKind::Void if self.rng.pct(50) => format!("{0} = ({1} *){0}->next;", p, NODE),
            _ => format!("{0} = {0}->next;", p),
        }
    }

    /// Allocates node `c` (declared here) with value `val` and link `link`.
    fn l_alloc(&mut self, c: &str, val: &str, link: &str) {
        let a = *self.rng.pick(&["malloc(SZ)", "malloc(sizeof *C)", "calloc(1, SZ)"]);
        self.emit(format!("{} *{} = {};", NODE, c, a.replace("SZ", SZ).replace('C', c)));
        self.emit(format!("__dt_reg({}, {});", c, SZ));
        match self.l_kind() {
            NodeKind::Tree => self.emit(format!("{0}->v = {1}; {0}->left = {2}; {0}->right = 0;", c, val, link)),
            NodeKind::Doubly => self.emit(format!("{0}->v = {1}; {0}->next = {2}; {0}->prev = 0;", c, val, link)),
            NodeKind::Wide => self.emit(format!("{0}->v = {1}; {0}->w = 0; {0}->next = {2};", c, val, link)),
            _ => self.emit(format!("{0}->v = {1}; {0}->next = {2};", c, val, link)),
        }
    }

    /// What a walk does with its counter: counting, or (so that a walk
    /// around a cycle repeats its state) a bounded update.
    fn l_count(&mut self, c: &str, p: &str) -> String {
        match self.rng.below(4) {
            0 => format!("{}++;", c),
            1 => format!("{0} = ({0} + 1) % 3;", c),
            2 => format!("{} ^= {}->v;", c, p),
            _ => format!("{} = {}->v;", c, p),
        }
    }

    fn l_free(&mut self, d: &str) {
        self.emit(format!("__dt_unreg({});", d));
        self.emit(format!("free({});", d));
    }

    // ------------------------------------------------------------ file scope

    pub(super) fn list_decls(&mut self) {
        self.includes.insert("#include <string.h>");
        self.emit("extern void free(void *);");
        self.emit("extern void __dt_reg(const void *, unsigned long); extern void __dt_unreg(const void *); extern long __dt_heap_mark(void); extern void __dt_heap_drop(long);");
        let kind = *self.rng.pick(&[
            NodeKind::Plain,
            NodeKind::Plain,
            NodeKind::Plain,
            NodeKind::LinkFirst,
            NodeKind::Wide,
            NodeKind::Doubly,
            NodeKind::Void,
            NodeKind::Tree,
        ]);
        let body = match kind {
            NodeKind::Plain => "int v; struct node *next;",
            NodeKind::LinkFirst => "struct node *next; int v;",
            NodeKind::Wide => "int v; int w; struct node *next;",
            NodeKind::Doubly => "int v; struct node *prev; struct node *next;",
            NodeKind::Void => "int v; void *next;",
            NodeKind::Tree => "int v; struct node *left; struct node *right;",
        };
        self.emit(format!("struct node {{ {} }};", body));
        self.lists = Some(ListDecl { kind, push: None, len: None });
        if kind == NodeKind::Tree {
            return;
        }
        if self.rng.pct(40) {
            let f = self.lname("lpush");
            self.open(format!("{} *{}({} *h, int v) {{", NODE, f, NODE));
            self.l_alloc("c", "v", "h");
            if kind == NodeKind::Doubly {
                self.emit("if (h) h->prev = c;");
            }
            self.emit("return c;");
            self.close("}");
            self.lists.as_mut().unwrap().push = Some(f);
        }
        if self.rng.pct(30) {
            let f = self.lname("llen");
            self.open(format!("int {}({} *p) {{", f, NODE));
            self.enter();
            self.declare("p", Kind::Mem);
            self.emit("int n = 0;");
            self.declare("n", Kind::Scalar(Ty::Int));
            self.open("while (p) {");
            self.snap();
            self.emit("n = (n + 1) % 4;");
            let s = self.l_step("p");
            self.emit(s);
            self.close("}");
            self.emit("return n;");
            self.close("}");
            self.lists.as_mut().unwrap().len = Some(f);
        }
    }

    // ------------------------------------------------------------ statements

    pub(super) fn list_stmt(&mut self) {
        if self.lists.is_none() {
            return;
        }
        self.open("{");
        self.emit("long __dt_hm = __dt_heap_mark();");
        self.loop_depth += 1;
        if self.l_kind() == NodeKind::Tree {
            self.tree_block();
        } else {
            self.list_block();
        }
        self.loop_depth -= 1;
        self.emit("__dt_heap_drop(__dt_hm);");
        self.close("}");
    }

    fn list_block(&mut self) {
        let kind = self.l_kind();
        let lo = self.rng.range(0, 1);
        let hi = lo + self.rng.range(1, 3);
        let n = self.l_nondet(lo, hi);
        let from = self.out.len();
        let mut lazy = vec![];
        let k = if self.rng.pct(70) {
            lazy.push(self.l_lazy(0, 1));
            lazy.last().unwrap().0.clone()
        } else {
            self.rng.range(0, 1).to_string()
        };
        let x = if self.rng.pct(60) {
            lazy.push(self.l_lazy(0, 3));
            lazy.last().unwrap().0.clone()
        } else {
            self.rng.range(-1, 3).to_string()
        };
        let h = self.l_ptr("lh", "struct node *", "0");
        let t = self.l_ptr("lt", "struct node *", "0");
        let p = self.l_ptr("lp", "struct node *", "0");
        let q = self.l_ptr("lq", "struct node *", "0");
        let c = self.lname("lc");
        self.emit(format!("int {} = 0;", c));
        self.declare(&c, Kind::Scalar(Ty::Int));
        let ll = L { h, t, p, q, c, n, k, x };
        // build
        let i = self.lname("li");
        let val = self.rng.pick(&["I", "N - I", "I % 2", "2 * I + 1", "1", "I + X"]).replace('I', &i).replace('N', &ll.n).replace('X', &ll.x);
        let push = self.lists.as_ref().unwrap().push.clone();
        self.open(format!("for (int {0} = 0; {0} < {1}; {0}++) {{", i, ll.n));
        self.declare(&i, Kind::Scalar(Ty::Int));
        self.snap();
        let nd = self.lname("ld");
        match (self.rng.below(3), push) {
            (0, Some(f)) => {
                self.emit(format!("{0} = {1}({0}, {2});", ll.h, f, val));
                self.emit(format!("if (!{0}) {0} = {1};", ll.t, ll.h));
            }
            (0 | 1, _) => {
                // prepend
                self.l_alloc(&nd, &val, &ll.h);
                if kind == NodeKind::Doubly {
                    self.emit(format!("if ({0}) {0}->prev = {1};", ll.h, nd));
                }
                self.emit(format!("{} = {};", ll.h, nd));
                self.emit(format!("if (!{0}) {0} = {1};", ll.t, nd));
            }
            _ => {
                // append
                self.l_alloc(&nd, &val, "0");
                if kind == NodeKind::Doubly {
                    self.emit(format!("{}->prev = {};", nd, ll.t));
                }
                self.emit(format!("if ({0}) {0}->next = {1}; else {2} = {1};", ll.t, nd, ll.h));
                self.emit(format!("{} = {};", ll.t, nd));
            }
        }
        self.close("}");
        // structural changes (acyclic stays acyclic)
        if self.rng.pct(45) {
            let m = self.rng.below(4);
            self.l_change(&ll, m);
        }
        // a first traversal
        if self.rng.pct(40) {
            self.l_walk(&ll, self.rng.below(3));
        }
        // cycles (or not), by inputs
        if self.rng.pct(65) {
            let m = self.rng.below(7);
            self.l_cycle(&ll, m);
        }
        if self.rng.pct(15) {
            let m = self.rng.below(4);
            self.l_change(&ll, m);
        }
        // the final loop
        let f = self.rng.below(12);
        self.l_final(&ll, f);
        self.l_inputs_done(from, &lazy);
    }

    /// Changes that keep an acyclic list acyclic.
    fn l_change(&mut self, ll: &L, m: usize) {
        let kind = self.l_kind();
        let (h, t, p, q) = (&ll.h, &ll.t, &ll.p, &ll.q);
        match m {
            0 if kind != NodeKind::Void => {
                // delete the first node holding x, through a pointer to a pointer
                let pp = self.l_ptr("lpp", "struct node **", &format!("&{}", h));
                self.open(format!("while (*{0} && (*{0})->v != {1}) {{", pp, ll.x));
                self.snap();
                self.emit(format!("{0} = &(*{0})->next;", pp));
                self.close("}");
                self.open(format!("if (*{}) {{", pp));
                self.emit(format!("{} = *{};", q, pp));
                self.emit(format!("*{} = {}->next;", pp, q));
                if kind == NodeKind::Doubly {
                    self.emit(format!("if ({0}->next) {0}->next->prev = {0}->prev;", q));
                }
                self.emit(format!("if ({0} == {1}) {0} = 0;", t, q));
                self.l_free(q);
                self.emit(format!("{} = 0;", q));
                self.close("}");
            }
            1 => {
                // the head freed, a node allocated again in its place
                self.open(format!("if ({}) {{", h));
                self.emit(format!("{} = {};", q, self.nx(h)));
                self.emit(format!("if ({0} == {1}) {0} = 0;", t, h));
                self.l_free(h);
                let nd = self.lname("ld");
                let v = self.rng.range(0, 3).to_string();
                self.l_alloc(&nd, &v, q);
                if kind == NodeKind::Doubly {
                    self.emit(format!("if ({0}) {0}->prev = {1};", q, nd));
                }
                self.emit(format!("{} = {};", h, nd));
                self.emit(format!("if (!{0}) {0} = {1};", t, nd));
                self.emit(format!("{} = 0;", q));
                self.close("}");
            }
            2 => {
                // in-place reversal
                self.emit(format!("{} = 0;", q));
                self.emit(format!("{} = {};", p, h));
                self.open(format!("while ({}) {{", p));
                self.snap();
                self.emit(format!("{} *lnx = {};", NODE, self.nx(p)));
                self.emit(format!("{}->next = {};", p, q));
                if kind == NodeKind::Doubly {
                    self.emit(format!("{}->prev = lnx;", p));
                }
                self.emit(format!("{} = {};", q, p));
                self.emit(format!("{} = lnx;", p));
                self.close("}");
                self.emit(format!("{} = {};", t, h));
                self.emit(format!("{} = {};", h, q));
            }
            _ => {
                // a link written with a value loaded through another link: unlink the second node
                let hn = self.nx(h);
                let hnn = self.nx(&hn);
                self.open(format!("if ({} && {}) {{", h, hn));
                self.emit(format!("if ({} == {}) {} = {};", t, hn, t, h));
                self.emit(format!("{}->next = {};", h, hnn));
                if kind == NodeKind::Doubly {
                    self.emit(format!("if ({0}->next) {0}->next->prev = {0};", h));
                }
                self.close("}");
            }
        }
    }

    /// A traversal that ends on an acyclic list: length, tail, search.
    fn l_walk(&mut self, ll: &L, m: usize) {
        let (h, t, p, c) = (&ll.h, &ll.t, &ll.p, &ll.c);
        match m {
            0 => {
                self.emit(format!("{} = {}; {} = 0;", p, h, c));
                self.open(format!("while ({}) {{", p));
                self.snap();
                let u = self.l_count(c, p);
                self.emit(u);
                let s = self.l_step(p);
                self.emit(s);
                self.close("}");
            }
            1 => {
                self.open(format!("if ({}) {{", h));
                self.emit(format!("{} = {};", t, h));
                self.open(format!("while ({}->next) {{", t));
                self.snap();
                let s = self.l_step(t);
                self.emit(s);
                self.close("}");
                self.close("}");
            }
            _ => {
                self.emit(format!("{} = {};", p, h));
                self.open(format!("while ({} && {}->v != {}) {{", p, p, ll.x));
                self.snap();
                let s = self.l_step(p);
                self.emit(s);
                self.close("}");
                self.emit(format!("{} = {} != 0;", c, p));
            }
        }
    }

    /// Makes the list cyclic, or not, depending on inputs.
    fn l_cycle(&mut self, ll: &L, m: usize) {
        let kind = self.l_kind();
        let (h, t, q, k) = (&ll.h, &ll.t, &ll.q, &ll.k);
        match m {
            0 => {
                self.emit(format!("if ({} && {}) {}->next = {};", k, t, t, h));
                if kind == NodeKind::Doubly && self.rng.pct(50) {
                    self.emit(format!("if ({} && {}) {}->prev = {};", k, h, h, t));
                }
            }
            1 => {
                // the tail to a middle node
                let j = self.lname("lj");
                let lim = if self.rng.pct(50) { ll.x.clone() } else { self.rng.range(0, 2).to_string() };
                self.open(format!("if ({}) {{", t));
                self.emit(format!("{} = {};", q, h));
                self.open(format!("for (int {0} = 0; {0} < {1} && {2}; {0}++) {{", j, lim, self.nx(q)));
                self.declare(&j, Kind::Scalar(Ty::Int));
                self.snap();
                let s = self.l_step(q);
                self.emit(s);
                self.close("}");
                self.emit(format!("if ({}) {}->next = {};", k, t, q));
                self.close("}");
            }
            2 if kind != NodeKind::Void => {
                // walk to the last link through a pointer to a pointer, close it there
                let pp = self.l_ptr("lpp", "struct node **", &format!("&{}", h));
                self.open(format!("while (*{}) {{", pp));
                self.snap();
                self.emit(format!("{0} = &(*{0})->next;", pp));
                self.close("}");
                self.emit(format!("if ({}) *{} = {};", k, pp, h));
            }
            3 => {
                // memcpy: of the head into the tail, of a pointer into a link, or through a copy
                match self.rng.below(3) {
                    0 => self.emit(format!("if ({0} && {1} && {0} != {1} && {2}) memcpy({1}, {0}, {3});", h, t, k, SZ)),
                    1 => self.emit(format!("if ({} && {}) memcpy(&{}->next, &{}, sizeof {});", t, k, t, h, h)),
                    _ => {
                        self.open(format!("if ({} && {}) {{", t, k));
                        self.emit(format!("{} lcp;", NODE));
                        self.emit(format!("memcpy(&lcp, {}, {});", t, SZ));
                        self.emit(format!("lcp.next = {};", h));
                        self.emit(format!("memcpy({}, &lcp, {});", t, SZ));
                        self.close("}");
                    }
                }
            }
            4 => {
                // a link written with a value loaded through another link
                let hn = self.nx(h);
                match self.rng.below(3) {
                    0 => self.emit(format!("if ({} && {} && {}) {}->next = {};", k, t, h, t, hn)),
                    1 => self.emit(format!("if ({} && {} && {}) {}->next = {};", k, h, hn, hn, h)),
                    _ => self.emit(format!("if ({0} && {1} && {2}) {1}->next = {2}->next ? {2}->next : {2};", k, t, h)),
                }
            }
            5 => {
                // cyclic after a first traversal that counted the nodes
                self.l_walk(ll, 0);
                self.emit(format!("if ({} && {} {} {}) {}->next = {};", t, ll.c, self.rng.pick(&["==", ">", "<="]), ll.x, t, h));
            }
            _ => {
                // the link written through an alias of the tail
                self.emit(format!("{} = {};", q, t));
                self.emit(format!("if ({} && {}) {}->next = {};", k, q, q, if self.rng.pct(50) { h.clone() } else { q.clone() }));
            }
        }
    }

    fn l_final(&mut self, ll: &L, f: usize) {
        let kind = self.l_kind();
        let (h, t, p, q, c, x) = (&ll.h, &ll.t, &ll.p, &ll.q, &ll.c, &ll.x);
        self.emit(format!("{} = {};", p, h));
        match f {
            0 => {
                self.open(format!("while ({} != 0) {{", p));
                self.snap();
                let u = self.l_count(c, p);
                self.emit(u);
                let s = self.l_step(p);
                self.emit(s);
                self.close("}");
            }
            1 => {
                // search, guarded
                self.open(format!("while ({0} && {0}->v != {1}) {{", p, x));
                self.snap();
                let s = self.l_step(p);
                self.emit(s);
                self.close("}");
            }
            2 => {
                // search, unguarded (NULL when x is absent from an acyclic list: set aside)
                self.open(format!("if ({}) while ({}->v != {}) {{", p, p, x));
                self.snap();
                let s = self.l_step(p);
                self.emit(s);
                self.close("}");
            }
            3 => {
                // two steps at a time
                let pn = self.nx(p);
                self.open(format!("while ({} && {}) {{", p, pn));
                self.snap();
                self.emit(format!("{} = {};", p, self.nx(&pn)));
                self.close("}");
            }
            4 => {
                // a second alias walks
                self.emit(format!("{} = {};", q, p));
                self.open(format!("while ({}) {{", q));
                self.snap();
                self.emit(format!("{} = {};", q, self.nx(q)));
                self.emit(format!("{} = {};", p, q));
                self.close("}");
            }
            5 if kind != NodeKind::Void => {
                // through a pointer to the walking pointer
                let a = self.l_ptr("la", "struct node **", &format!("&{}", p));
                self.open(format!("while (*{}) {{", a));
                self.snap();
                self.emit(format!("*{0} = (*{0})->next;", a));
                self.close("}");
            }
            6 => {
                // made cyclic during the walk, at the tail
                self.open(format!("while ({}) {{", p));
                self.snap();
                self.emit(format!("if ({} == {} && {}) {}->next = {};", p, t, ll.k, t, h));
                let s = self.l_step(p);
                self.emit(s);
                self.close("}");
            }
            7 => {
                // bounded by a count: ends on a cycle too
                let b = self.rng.pick(&["5", "N + 2", "N", "X + 1"]).replace('N', &ll.n).replace('X', x);
                self.emit(format!("{} = 0;", c));
                self.open(format!("while ({} && {} < {}) {{", p, c, b));
                self.snap();
                let s = self.l_step(p);
                self.emit(s);
                self.emit(format!("{}++;", c));
                self.close("}");
            }
            8 => {
                // Floyd: ends on a cycle too
                self.emit(format!("{} = {};", q, h));
                let qn = self.nx(q);
                self.open(format!("while ({} && {}) {{", q, qn));
                self.snap();
                self.emit(format!("{} = {};", p, self.nx(p)));
                self.emit(format!("{} = {};", q, self.nx(&qn)));
                self.emit(format!("if ({} == {}) break;", p, q));
                self.close("}");
            }
            9 => {
                // deletes the nodes ahead holding x (without freeing them)
                let pn = self.nx(p);
                self.open(format!("while ({} && {}) {{", p, pn));
                self.snap();
                let (pnn, s) = (self.nx(&pn), self.l_step(p));
                self.emit(format!("if ({}->v == {}) {}->next = {}; else {}", pn, x, p, pnn, s));
                self.close("}");
            }
            10 if kind == NodeKind::Doubly => {
                self.emit(format!("{} = {};", p, t));
                self.open(format!("while ({}) {{", p));
                self.snap();
                let u = self.l_count(c, p);
                self.emit(u);
                self.emit(format!("{0} = {0}->prev;", p));
                self.close("}");
            }
            _ => {
                let len = self.lists.as_ref().unwrap().len.clone();
                match len {
                    Some(f) => self.emit(format!("{} = {}({});", c, f, p)),
                    None => return self.l_final(ll, 0),
                }
            }
        }
    }

    fn tree_block(&mut self) {
        let lo = self.rng.range(0, 1);
        let hi = lo + self.rng.range(1, 3);
        let n = self.l_nondet(lo, hi);
        let from = self.out.len();
        let mut lazy = vec![];
        let k = if self.rng.pct(70) {
            lazy.push(self.l_lazy(0, 1));
            lazy.last().unwrap().0.clone()
        } else {
            self.rng.range(0, 1).to_string()
        };
        let x = if self.rng.pct(60) {
            lazy.push(self.l_lazy(0, 4));
            lazy.last().unwrap().0.clone()
        } else {
            self.rng.range(-1, 4).to_string()
        };
        let r = self.l_ptr("lr", "struct node *", "0");
        let p = self.l_ptr("lp", "struct node *", "0");
        let i = self.lname("li");
        let val = self.rng.pick(&["I", "N - I", "(I * 3) % 5", "(I + X) % 4", "2"]).replace('I', &i).replace('N', &n).replace('X', &x);
        self.open(format!("for (int {0} = 0; {0} < {1}; {0}++) {{", i, n));
        self.declare(&i, Kind::Scalar(Ty::Int));
        self.snap();
        let nd = self.lname("ld");
        self.l_alloc(&nd, &val, "0");
        self.declare(&nd, Kind::Mem);
        let pp = self.lname("lpp");
        self.emit(format!("{} **{} = &{};", NODE, pp, r));
        self.declare(&pp, Kind::Mem);
        self.open(format!("while (*{}) {{", pp));
        self.snap();
        self.emit(format!("{0} = {1}->v < (*{0})->v ? &(*{0})->left : &(*{0})->right;", pp, nd));
        self.close("}");
        self.emit(format!("*{} = {};", pp, nd));
        self.close("}");
        // a cycle, by an input: the rightmost or leftmost node back to the root
        if self.rng.pct(65) {
            let side = *self.rng.pick(&["left", "right"]);
            let back = *self.rng.pick(&["left", "right"]);
            self.open(format!("if ({} && {}) {{", k, r));
            self.emit(format!("{} = {};", p, r));
            self.open(format!("while ({}->{}) {{", p, side));
            self.snap();
            self.emit(format!("{0} = {0}->{1};", p, side));
            self.close("}");
            self.emit(format!("{}->{} = {};", p, back, r));
            self.close("}");
        }
        self.emit(format!("{} = {};", p, r));
        match self.rng.below(3) {
            0 => {
                self.open(format!("while ({0} && {0}->v != {1}) {{", p, x));
                self.snap();
                self.emit(format!("{0} = {1} < {0}->v ? {0}->left : {0}->right;", p, x));
                self.close("}");
            }
            1 => {
                let side = *self.rng.pick(&["left", "right"]);
                self.open(format!("while ({}) {{", p));
                self.snap();
                self.emit(format!("{0} = {0}->{1};", p, side));
                self.close("}");
            }
            _ => {
                self.open(format!("while ({}) {{", p));
                self.snap();
                self.emit(format!("{0} = ({0}->v & 1) ? {0}->left : {0}->right;", p));
                self.close("}");
            }
        }
        self.l_inputs_done(from, &lazy);
    }
}

/// The variables of a list block.
struct L {
    h: String,
    t: String,
    p: String,
    q: String,
    c: String,
    n: String,
    k: String,
    x: String,
}


/// Whether line `l` names variable `n` (not as a prefix of a longer name).
fn uses(l: &str, n: &str) -> bool {
    l.match_indices(n).any(|(i, _)| !l[i + n.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}
