//! Terms printed as C expressions over the program's own variables.
//!
//! The prover works on `Term`s over internal names (`f.x`, temporaries
//! `tmp%1`, instrumentation counters `r#0`, snapshots `s#x`) and prints them
//! as SMT-LIB. People and witness validators need C: `n - i`,
//! `x >= 0 && y <= 10`. This module prints formulas simplified by
//! [`crate::term::simplify`] over the names that [`Names`] shows; ranking
//! functions are printed by [`super::ranking`].
//!
//! Dropping a conjunct that mentions a hidden variable weakens an invariant,
//! which keeps it an invariant: what is printed is always implied by what
//! was checked.

pub use crate::ir::names::Names;
use crate::term::simplify::{conjuncts, simplified, simplify, Formula as F};
use crate::term::{Affine, Op, Term};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeSet;

/// Prints a formula (invariant, recurrent set) as a simplified C condition.
/// Conjuncts that mention a hidden variable are dropped (a weaker formula
/// is still implied); `None` when nothing is left but `true` would be
/// printed only because of dropping (the caller prints `true` or omits it).
pub fn condition(t: &Term, names: &Names) -> String {
    let f = simplified(t);
    let kept: Vec<F> = conjuncts(f).into_iter().filter(|c| mentions_only_shown(c, names)).collect();
    print_formula(&simplify(F::And(kept)), names, 0)
}

/// Like [`condition`], but `None` when some conjunct had to be dropped
/// (a recurrent set must be printed exactly: a weaker set need not be
/// recurrent).
pub fn exact_condition(t: &Term, names: &Names) -> Option<String> {
    let f = simplified(t);
    let all = conjuncts(f.clone());
    if !all.iter().all(|c| mentions_only_shown(c, names)) {
        return None;
    }
    Some(print_formula(&f, names, 0))
}

fn mentions_only_shown(f: &F, names: &Names) -> bool {
    match f {
        F::True | F::False => true,
        F::Ge(a) | F::Eq(a) | F::Ne(a) => a.coeffs.keys().all(|v| names.get(v).is_some()),
        F::Other(t) => names.shows_all(t),
        F::And(cs) | F::Or(cs) => cs.iter().all(|c| mentions_only_shown(c, names)),
    }
}

// ---------------------------------------------------------------- printing

/// Precedence levels of C for parenthesising: 1 `||`, 2 `&&`, 3 comparison.
fn print_formula(f: &F, names: &Names, ctx: u8) -> String {
    let wrap = |s: String, level: u8| if level < ctx { format!("({s})") } else { s };
    match f {
        F::True => "1".into(),
        F::False => "0".into(),
        F::Ge(a) => print_ge(a, names),
        F::Eq(a) => print_rel(a, "==", names),
        F::Ne(a) => print_rel(a, "!=", names),
        F::Other(t) => wrap(bool_expr(t, names, 3), 3),
        F::And(cs) => {
            // Where a conjunct bounds `x >= k >= 0`, C's `x % d` is the
            // remainder the formula means: no sign correction to print.
            let non_negative: BTreeSet<&str> = cs
                .iter()
                .filter_map(|c| match c {
                    F::Ge(a) if a.coeffs.len() == 1 && !a.constant.is_positive() => {
                        a.coeffs.iter().next().filter(|(_, k)| k.is_one()).map(|(v, _)| v.as_str())
                    }
                    _ => None,
                })
                .collect();
            let shown: Vec<String> = cs
                .iter()
                .map(|c| remainder_of_non_negative(c, &non_negative, names).unwrap_or_else(|| print_formula(c, names, 3)))
                .collect();
            wrap(shown.join(" && "), 2)
        }
        F::Or(cs) => wrap(cs.iter().map(|c| print_formula(c, names, 2)).collect::<Vec<_>>().join(" || "), 1),
    }
}

/// `x % d == r` for `(x mod d) == r` when `x` is known non-negative and
/// `d` a positive constant (C's `%` then agrees with the Euclidean one).
fn remainder_of_non_negative(f: &F, non_negative: &BTreeSet<&str>, names: &Names) -> Option<String> {
    let F::Other(Term::App(Op::Eq, args)) = f else { return None };
    let [lhs, rhs] = &args[..] else { return None };
    let (Term::App(Op::Mod, m), Term::Int(r)) = (lhs, rhs) else { return None };
    let [Term::Var(x, _), Term::Int(d)] = &m[..] else { return None };
    if !d.is_positive() || !non_negative.contains(x.as_str()) {
        return None;
    }
    Some(format!("{} % {d} == {r}", names.get(x)?))
}

/// `P - N + k >= 0` with the variable terms on the side where they are
/// positive: `x >= 1`, `x <= 99`, `n > i`, `i <= n + 1`, `x + y >= 3`.
pub(super) fn print_ge(a: &Affine, names: &Names) -> String {
    let (p, n) = sides(a, names);
    let k = &a.constant;
    match (p.is_empty(), n.is_empty()) {
        (_, true) => format!("{} >= {}", p.join(" + "), -k),
        (true, false) => format!("{} <= {}", n.join(" + "), k),
        _ if k.is_zero() => format!("{} >= {}", p.join(" + "), n.join(" + ")),
        _ if *k == -BigInt::one() => format!("{} > {}", p.join(" + "), n.join(" + ")),
        _ if k.is_negative() => format!("{} >= {} + {}", p.join(" + "), n.join(" + "), -k),
        _ => format!("{} <= {} + {}", n.join(" + "), p.join(" + "), k),
    }
}

fn print_rel(a: &Affine, op: &str, names: &Names) -> String {
    let (p, n) = sides(a, names);
    let k = &a.constant;
    let lhs = p.join(" + ");
    match (n.is_empty(), k.sign()) {
        (true, _) => format!("{lhs} {op} {}", -k),
        (false, num_bigint::Sign::NoSign) => format!("{lhs} {op} {}", n.join(" + ")),
        (false, num_bigint::Sign::Minus) => format!("{lhs} {op} {} + {}", n.join(" + "), -k),
        (false, num_bigint::Sign::Plus) => format!("{lhs} + {k} {op} {}", n.join(" + ")),
    }
}

/// Positive and negative variable terms, each printed with its magnitude.
fn sides(a: &Affine, names: &Names) -> (Vec<String>, Vec<String>) {
    let mut p = Vec::new();
    let mut n = Vec::new();
    for (v, c) in &a.coeffs {
        let name = display(v, names);
        let t = if c.abs().is_one() { name } else { format!("{}*{name}", c.abs()) };
        if c.is_positive() {
            p.push(t)
        } else {
            n.push(t)
        }
    }
    (p, n)
}

fn display(v: &str, names: &Names) -> String {
    names.get(v).map(str::to_string).unwrap_or_else(|| v.to_string())
}

/// A Boolean term in C (for atoms the linear normal form does not cover).
fn bool_expr(t: &Term, names: &Names, ctx: u8) -> String {
    let wrap = |s: String, level: u8| if level < ctx { format!("({s})") } else { s };
    match t {
        Term::Bool(b) => (if *b { "1" } else { "0" }).into(),
        Term::Var(v, _) => display(v, names),
        Term::App(Op::Not, a) if a.len() == 1 => format!("!{}", bool_expr(&a[0], names, 9)),
        Term::App(Op::And, a) => wrap(a.iter().map(|x| bool_expr(x, names, 3)).collect::<Vec<_>>().join(" && "), 2),
        Term::App(Op::Or, a) => wrap(a.iter().map(|x| bool_expr(x, names, 2)).collect::<Vec<_>>().join(" || "), 1),
        Term::App(op @ (Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq), a) if a.len() == 2 => {
            let sym = if *op == Op::Eq { "==" } else { op.smtlib() };
            wrap(format!("{} {sym} {}", int_expr(&a[0], names, 5), int_expr(&a[1], names, 5)), 3)
        }
        t => int_expr(t, names, ctx),
    }
}

/// An integer term in C. Precedence: 4 ternary, 5 additive, 6
/// multiplicative, 7 unary. SMT-LIB's `div`/`mod` are Euclidean while C's
/// `/`, `%` truncate: they agree for a non-negative dividend, otherwise the
/// printed form corrects the remainder, so the C expression means the same.
pub fn int_expr(t: &Term, names: &Names, ctx: u8) -> String {
    let wrap = |s: String, level: u8| if level < ctx { format!("({s})") } else { s };
    if let Some(a) = Affine::from_term(t) {
        return wrap(affine(&a, names), if a.coeffs.len() + usize::from(!a.constant.is_zero()) > 1 { 5 } else { 7 });
    }
    match t {
        Term::App(Op::Add, a) => wrap(a.iter().map(|x| int_expr(x, names, 5)).collect::<Vec<_>>().join(" + "), 5),
        Term::App(Op::Sub, a) if a.len() == 1 => format!("-{}", int_expr(&a[0], names, 7)),
        Term::App(Op::Sub, a) => {
            let mut s = int_expr(&a[0], names, 5);
            for x in &a[1..] {
                s = format!("{s} - {}", int_expr(x, names, 6));
            }
            wrap(s, 5)
        }
        Term::App(Op::Neg, a) if a.len() == 1 => format!("-{}", int_expr(&a[0], names, 7)),
        Term::App(Op::Mul, a) => wrap(a.iter().map(|x| int_expr(x, names, 7)).collect::<Vec<_>>().join(" * "), 6),
        Term::App(op @ (Op::Div | Op::Mod), a) if a.len() == 2 => {
            let x = int_expr(&a[0], names, 7);
            let d = int_expr(&a[1], names, 7);
            let rem = format!("({x} % {d} + {d}) % {d}");
            match (op, &a[1]) {
                (Op::Mod, Term::Int(c)) if c.is_positive() => wrap(rem, 6),
                (Op::Div, Term::Int(c)) if c.is_positive() => wrap(format!("({x} - {rem}) / {d}"), 6),
                // A variable or negative divisor: print the definition
                // through the remainder's sign (rare; correct in C).
                (Op::Mod, _) => wrap(format!("({x} % {d} < 0 ? {x} % {d} + ({d} < 0 ? -{d} : {d}) : {x} % {d})"), 4),
                _ => {
                    let r = format!("({x} % {d} < 0 ? {x} % {d} + ({d} < 0 ? -{d} : {d}) : {x} % {d})");
                    wrap(format!("({x} - {r}) / {d}"), 6)
                }
            }
        }
        Term::App(Op::Ite, a) if a.len() == 3 => wrap(
            format!("{} ? {} : {}", bool_expr(&a[0], names, 3), int_expr(&a[1], names, 4), int_expr(&a[2], names, 4)),
            4,
        ),
        other => bool_expr(other, names, ctx),
    }
}

/// `n - i`, `2*x + y - 1`, `21 - x`: positive variable terms first.
pub fn affine(a: &Affine, names: &Names) -> String {
    let (p, n) = sides(a, names);
    let k = &a.constant;
    let mut s = String::new();
    if p.is_empty() && !n.is_empty() && k.is_positive() {
        s.push_str(&k.to_string());
        for t in &n {
            s.push_str(&format!(" - {t}"));
        }
        return s;
    }
    for (i, t) in p.iter().enumerate() {
        if i > 0 {
            s.push_str(" + ");
        }
        s.push_str(t);
    }
    for t in &n {
        if s.is_empty() {
            s.push('-');
            s.push_str(t);
        } else {
            s.push_str(&format!(" - {t}"));
        }
    }
    if s.is_empty() {
        return k.to_string();
    }
    if k.is_positive() {
        s.push_str(&format!(" + {k}"));
    } else if k.is_negative() {
        s.push_str(&format!(" - {}", -k));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::names::test_vars::{copy, source, temporary};
    use crate::term::euclid_div_mod;
    use crate::term::parse::parse_term;
    use crate::term::Sort;
    use num_bigint::BigInt;

    fn names() -> Names {
        Names::readable(&[source("x"), source("y"), source("n"), source("i"), copy("f", "x", None), temporary("tmp%1")])
    }

    fn term(s: &str) -> Term {
        let env = ["x", "y", "n", "i", "f.x", "tmp%1", "r#0"].iter().map(|v| (v.to_string(), Sort::Int)).collect();
        parse_term(s, &env).expect("term")
    }

    fn cond(s: &str) -> String {
        condition(&term(s), &names())
    }

    #[test]
    fn remainders_of_non_negative_values_print_as_c_remainders() {
        assert_eq!(cond("(and (>= i 1) (<= i 99) (= (mod i 2) 1))"), "i >= 1 && i <= 99 && i % 2 == 1");
        // Without a bound, C's `%` of a negative value differs: corrected.
        assert_eq!(cond("(= (mod i 2) 1)"), "(i % 2 + 2) % 2 == 1");
    }

    #[test]
    fn bounds_merge_and_duplicates_vanish() {
        assert_eq!(cond("(and (>= x 0) (<= x 0))"), "x == 0");
        assert_eq!(cond("(or (>= x 0) (>= x 0))"), "x >= 0");
        assert_eq!(cond("(and (>= x 0) (>= x 1) (>= x 0))"), "x >= 1");
        assert_eq!(cond("(and (not (> x 5)) (< 2 x))"), "x >= 3 && x <= 5");
        assert_eq!(cond("(and (>= x 0) (<= x (- 1)))"), "0");
    }

    #[test]
    fn disjunctions_factor_and_complements_cancel() {
        assert_eq!(cond("(or (and (> x 0) (< x 100)) (and (> x 0) (not (< x 100))))"), "x >= 1");
        assert_eq!(cond("(or (>= x 0) (< x 0))"), "1");
        assert_eq!(cond("(or (and (>= x 1) (>= y 1)) (and (>= x 1) (<= y 0) (>= n i)))"), "x >= 1 && (y >= 1 || n >= i && y <= 0)");
    }

    #[test]
    fn relations_print_like_c() {
        assert_eq!(cond("(< i n)"), "n > i");
        assert_eq!(cond("(<= i (+ n 1))"), "i <= n + 1");
        assert_eq!(cond("(not (= x y))"), "x != y");
        assert_eq!(cond("(= (* 2 x) 6)"), "x == 3");
        assert_eq!(cond("(>= (* 2 x) 1)"), "x >= 1");
    }

    #[test]
    fn hidden_and_shadowed_names() {
        assert_eq!(cond("(and (>= |r#0| 0) (>= x 0) (or (>= |tmp%1| 1) (>= y 2)))"), "x >= 0");
        assert_eq!(cond("(<= |f.x| x)"), "x >= x@f");
        assert!(exact_condition(&term("(and (>= |r#0| 0) (>= x 0))"), &names()).is_none());
    }

    #[test]
    fn euclidean_division_prints_as_equivalent_c() {
        let n = names();
        let t = term("(mod x 3)");
        assert_eq!(int_expr(&t, &n, 0), "(x % 3 + 3) % 3");
        // C truncates: for x = -7, (-7 % 3 + 3) % 3 = (-1 + 3) % 3 = 2 = -7 mod 3.
        assert_eq!(euclid_div_mod(&BigInt::from(-7), &BigInt::from(3)).1, BigInt::from(2));
    }

}
