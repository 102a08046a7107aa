//! Shape "returns" (issue 27): loops whose end depends on what a recursive
//! function returns, the case return summaries decide.
//!
//! A program declares one or two recursive functions over `int`: counting
//! down with a result built on the way back (`sr(n - c) + d`, a result
//! that stays negative or not), McCarthy-like nested calls
//! (`sr(sr(n + c))` under `n <= a`, which may recurse for ever for some
//! constants: the sanitizer's stack overflow sets such programs aside), or
//! two mutually recursive functions. A statement is then a loop over an
//! input in a small range moved by a call's result (`x = x + sr(x - e)`,
//! `x = sr(x)`, `x = x - 1 - sr(x)`), terminating or not depending on the
//! constants. Everything draws from the shapes' stream.

use super::{Gen, Kind, Shape, Ty};

/// The share of the shape: `DIFFTEST_RETURNS_PCT`, else that of the other
/// shapes (`DIFFTEST_SHAPE_PCT`; at 0 no program changes).
pub fn returns_pct(p: u64) -> u64 {
    std::env::var("DIFFTEST_RETURNS_PCT").ok().and_then(|s| s.parse().ok()).unwrap_or(p)
}

/// Adds the shape in `returns_pct` percent of the programs (drawn after
/// the others; not drawn at 0, so the programs of before come back).
pub(super) fn add_returns(x: &super::Rng, p: u64, mut v: Vec<Shape>) -> Vec<Shape> {
    let share = returns_pct(p);
    if share > 0 && x.pct(share) {
        v.push(Shape::Returns);
    }
    v
}

impl Gen {
    pub(super) fn returns_decls(&mut self) {
        let name = self.xname("sr");
        let a = self.rng.range(-1, 6);
        let c = self.rng.range(1, 3);
        let d = *self.rng.pick(&["1", "0", "-1", "-2", "n", "2"]);
        match self.rng.below(4) {
            0 => {
                // counting down, the result built on the way back
                let base = *self.rng.pick(&["n", "0", "-1", "1", "n - 1"]);
                self.emit(format!("int {name}(int n) {{ if (n <= {a}) return {base}; return {name}(n - {c}) + {d}; }}"));
            }
            1 => {
                // McCarthy-like: nested calls
                let b = self.rng.range(1, 4);
                self.emit(format!("int {name}(int n) {{ if (n > {a}) return n - {b}; return {name}({name}(n + {c})); }}"));
            }
            2 => {
                // a result that is negative (or not) for every argument
                let k = self.rng.range(-2, 2);
                self.emit(format!("int {name}(int n) {{ if (n <= {a}) return {k}; return {name}(n - {c}) - 1; }}"));
            }
            _ => {
                // mutual recursion
                let other = self.xname("so");
                let (k1, k2) = (self.rng.range(-2, 2), self.rng.range(-2, 2));
                self.emit(format!("int {other}(int n);"));
                self.emit(format!("int {name}(int n) {{ if (n <= {a}) return {k1}; return {other}(n - {c}) + {d}; }}"));
                self.emit(format!("int {other}(int n) {{ if (n <= {a}) return {k2}; return {name}(n - 1) - 1; }}"));
            }
        }
        self.returns.push(name);
    }

    pub(super) fn returns_stmt(&mut self) {
        let Some(f) = self.returns.first().cloned() else { return };
        self.open("{");
        let x = self.xname("x");
        let init = self.x_init(-2, 8);
        self.emit(format!("int {x} = {init};"));
        self.declare(&x, Kind::Scalar(Ty::Int));
        let lim = self.rng.range(-1, 4);
        let e = self.rng.range(0, 2);
        let step = match self.rng.below(4) {
            0 => format!("{x} = {x} + {f}({x} - {e});"),
            1 => format!("{x} = {f}({x});"),
            2 => format!("{x} = {x} - 1 - {f}({x});"),
            _ => format!("{x} = {f}({x} + {e}) - {e};"),
        };
        self.loop_depth += 1;
        let cmp = *self.rng.pick(&[">", "!=", ">="]);
        self.open(format!("while ({x} {cmp} {lim}) {{"));
        self.snap();
        self.emit(step);
        self.close("}");
        self.loop_depth -= 1;
        self.close("}");
    }
}
