//! Terms printed as C expressions over the program's own variables.
//!
//! The prover works on `Term`s over internal names (`f.x`, temporaries
//! `tmp%1`, instrumentation counters `r#0`, snapshots `s#x`) and prints them
//! as SMT-LIB. People and witness validators need C: `n - i`,
//! `x >= 0 && y <= 10`. This module
//! - maps internal names to source names ([`Names`]), hiding the ones that
//!   have no meaning in the source;
//! - simplifies formulas before printing (negations pushed to the atoms,
//!   duplicated conjuncts dropped, bounds on the same linear expression
//!   merged: `x >= 0 && x <= 0` becomes `x == 0`, common conjuncts of a
//!   disjunction factored out);
//! - prints ranking functions with small integer coefficients where a
//!   positive scaling keeps their meaning (see [`ranking`]).
//!
//! Dropping a conjunct that mentions a hidden variable weakens an invariant,
//! which keeps it an invariant: what is printed is always implied by what
//! was checked.

use crate::ir::Variable;
use crate::ranking::{AffinePiece, Combination, RankingCandidate};
use crate::term::{Affine, Op, Sort, Term};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, BTreeSet};

/// How internal variable names are shown.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// Internal name -> printed name; a variable absent here is hidden.
    shown: BTreeMap<String, String>,
}

impl Names {
    /// Names for people: a C variable by its source name; copies of the same
    /// source name (shadowed locals, inlined calls, which the front end names
    /// `f.x`, `f.x.2`) as `x@f`, `x@f#2`; temporaries (`%` in the name) and
    /// instrumentation variables (not program variables) hidden.
    pub fn readable(vars: &[Variable]) -> Names {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for v in vars {
            *count.entry(v.source_name.as_str()).or_default() += 1;
        }
        let shown = vars
            .iter()
            .filter(|v| !is_temporary(v))
            .map(|v| {
                let shown = if v.name == v.source_name || count[v.source_name.as_str()] == 1 {
                    v.source_name.clone()
                } else {
                    qualified(&v.name, &v.source_name)
                };
                (v.name.clone(), shown)
            })
            .collect();
        Names { shown }
    }

    /// Names for a witness at a loop of `function`, which a validator
    /// parses as C there: a local of that function under its source name
    /// when no other copy of it (another inlined call of the function) is
    /// among `live`; a global under its name when the function has no local
    /// of that name. Everything else (other functions' locals, which are out
    /// of scope at the loop; temporaries) is hidden. With no function known,
    /// only names unambiguous in the whole program.
    pub fn in_scope(vars: &[Variable], function: &str, live: Option<&BTreeSet<String>>) -> Names {
        if function.is_empty() {
            return Names::unambiguous(vars);
        }
        let nameable = |v: &&Variable| !is_temporary(v) && is_c_access_path(&v.source_name);
        let is_live = |v: &Variable| live.is_none_or(|l| l.contains(&v.name));
        let local = |v: &Variable| v.function.as_deref() == Some(function);
        let mut copies: BTreeMap<&str, usize> = BTreeMap::new();
        let mut globals: BTreeMap<&str, usize> = BTreeMap::new();
        let mut locals: BTreeSet<&str> = BTreeSet::new();
        for v in vars.iter().filter(nameable) {
            if local(v) {
                locals.insert(&v.source_name);
                if is_live(v) {
                    *copies.entry(&v.source_name).or_default() += 1;
                }
            } else if v.function.is_none() {
                *globals.entry(&v.source_name).or_default() += 1;
            }
        }
        let shown = vars
            .iter()
            .filter(nameable)
            .filter(|v| match &v.function {
                Some(_) => local(v) && is_live(v) && copies.get(v.source_name.as_str()) == Some(&1),
                None => !locals.contains(v.source_name.as_str()) && globals.get(v.source_name.as_str()) == Some(&1),
            })
            .map(|v| (v.name.clone(), v.source_name.clone()))
            .collect();
        Names { shown }
    }

    /// Names for witnesses when the loop's function is not known: only
    /// variables whose source name is unambiguous in the whole program.
    pub fn unambiguous(vars: &[Variable]) -> Names {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for v in vars {
            *count.entry(v.source_name.as_str()).or_default() += 1;
        }
        let shown = vars
            .iter()
            .filter(|v| !is_temporary(v) && count[v.source_name.as_str()] == 1 && is_c_identifier(&v.source_name))
            .map(|v| (v.name.clone(), v.source_name.clone()))
            .collect();
        Names { shown }
    }

    /// Every name shown as it is (for outcomes without variable information),
    /// except the instrumentation's counters and snapshots (`#`) and the
    /// front end's temporaries (`%`).
    pub fn internal(names: impl IntoIterator<Item = String>) -> Names {
        Names { shown: names.into_iter().filter(|n| !is_internal_name(n)).map(|n| (n.clone(), n)).collect() }
    }

    /// Only the variables in `live` (a variable dead at a loop header
    /// arrives there as 0; facts about it say nothing about the loop).
    pub fn restricted(&self, live: &BTreeSet<String>) -> Names {
        Names { shown: self.shown.iter().filter(|(k, _)| live.contains(*k)).map(|(k, v)| (k.clone(), v.clone())).collect() }
    }

    /// These names, and every other variable of `t` under its internal
    /// name (for sets that must be printed exactly, see [`exact_condition`]).
    pub fn showing_all_of(&self, t: &Term) -> Names {
        let mut shown = self.shown.clone();
        for v in t.free_vars() {
            shown.entry(v.name.clone()).or_insert_with(|| v.name.clone());
        }
        Names { shown }
    }

    pub fn get(&self, internal: &str) -> Option<&str> {
        self.shown.get(internal).map(|s| s.as_str())
    }

    fn shows_all(&self, t: &Term) -> bool {
        t.free_vars().iter().all(|v| self.shown.contains_key(&v.name))
    }
}

/// The instrumentation's counters and snapshots (`#`) and the front end's
/// temporaries (`%`): names that are not the program's.
pub fn is_internal_name(name: &str) -> bool {
    name.contains('#') || name.contains('%')
}

fn is_temporary(v: &Variable) -> bool {
    v.name.contains('%') || v.source_name.contains('%')
}

/// A variable, or a cell of an array or struct variable as the front end
/// names it (`a[2]`, `s.next`, `m[1][0]`, `arr[1].b`): an lvalue the
/// source can write where the variable is in scope. Cells of heap blocks
/// (`mem1[0]`) and of compound literals have no such name.
fn is_c_access_path(s: &str) -> bool {
    let root_end = s.find(['[', '.']).unwrap_or(s.len());
    let (root, mut rest) = s.split_at(root_end);
    let heap = root.strip_prefix("mem").is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    if !is_c_identifier(root) || heap {
        return false;
    }
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let Some(close) = r.find(']') else { return false };
            if close == 0 || !r[..close].chars().all(|c| c.is_ascii_digit()) {
                return false;
            }
            rest = &r[close + 1..];
        } else if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['[', '.']).unwrap_or(r.len());
            if !is_c_identifier(&r[..end]) {
                return false;
            }
            rest = &r[end..];
        } else {
            return false;
        }
    }
    true
}

fn is_c_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `f.x` -> `x@f`, `f.x.2` -> `x@f#2` (the front end's scheme, `c::cfg`).
fn qualified(name: &str, source: &str) -> String {
    let dotted = format!(".{source}");
    if let Some(f) = name.strip_suffix(&dotted) {
        return format!("{source}@{f}");
    }
    if let Some(pos) = name.rfind(&format!("{dotted}.")) {
        let (f, k) = (&name[..pos], &name[pos + dotted.len() + 1..]);
        if !f.is_empty() && k.chars().all(|c| c.is_ascii_digit()) {
            return format!("{source}@{f}#{k}");
        }
    }
    format!("{source}@{name}")
}

// ---------------------------------------------------------------- formulas

/// A formula in negation normal form over normalised linear atoms.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum F {
    True,
    False,
    /// `e >= 0`, `e == 0` or `e != 0` with `e` integer affine, coefficients
    /// coprime (see [`atom`]).
    Ge(Affine),
    Eq(Affine),
    Ne(Affine),
    /// Anything else (non-linear atoms, Boolean variables), kept as is.
    Other(Term),
    And(Vec<F>),
    Or(Vec<F>),
}

/// Prints a formula (invariant, recurrent set) as a simplified C condition.
/// Conjuncts that mention a hidden variable are dropped (a weaker formula
/// is still implied); `None` when nothing is left but `true` would be
/// printed only because of dropping (the caller prints `true` or omits it).
pub fn condition(t: &Term, names: &Names) -> String {
    let f = simplify(nnf(t, false));
    let kept: Vec<F> = conjuncts(f).into_iter().filter(|c| mentions_only_shown(c, names)).collect();
    print_formula(&simplify(F::And(kept)), names, 0)
}

/// Like [`condition`], but `None` when some conjunct had to be dropped
/// (a recurrent set must be printed exactly: a weaker set need not be
/// recurrent).
pub fn exact_condition(t: &Term, names: &Names) -> Option<String> {
    let f = simplify(nnf(t, false));
    let all = conjuncts(f.clone());
    if !all.iter().all(|c| mentions_only_shown(c, names)) {
        return None;
    }
    Some(print_formula(&f, names, 0))
}

fn conjuncts(f: F) -> Vec<F> {
    match f {
        F::And(cs) => cs,
        F::True => vec![],
        f => vec![f],
    }
}

fn mentions_only_shown(f: &F, names: &Names) -> bool {
    match f {
        F::True | F::False => true,
        F::Ge(a) | F::Eq(a) | F::Ne(a) => a.coeffs.keys().all(|v| names.get(v).is_some()),
        F::Other(t) => names.shows_all(t),
        F::And(cs) | F::Or(cs) => cs.iter().all(|c| mentions_only_shown(c, names)),
    }
}

/// Negation normal form; `neg` says whether `t` is under a negation.
fn nnf(t: &Term, neg: bool) -> F {
    match t {
        Term::Bool(b) => {
            if *b != neg {
                F::True
            } else {
                F::False
            }
        }
        Term::App(Op::Not, a) if a.len() == 1 => nnf(&a[0], !neg),
        Term::App(Op::And, a) => {
            let parts = a.iter().map(|x| nnf(x, neg)).collect();
            if neg {
                F::Or(parts)
            } else {
                F::And(parts)
            }
        }
        Term::App(Op::Or, a) => {
            let parts = a.iter().map(|x| nnf(x, neg)).collect();
            if neg {
                F::And(parts)
            } else {
                F::Or(parts)
            }
        }
        Term::App(Op::Implies, a) if a.len() == 2 => {
            let or = Term::or(vec![Term::not(a[0].clone()), a[1].clone()]);
            nnf(&or, neg)
        }
        Term::App(Op::Ite, a) if a.len() == 3 && a[1].sort() == Sort::Bool => {
            let or = Term::or(vec![
                Term::and(vec![a[0].clone(), a[1].clone()]),
                Term::and(vec![Term::not(a[0].clone()), a[2].clone()]),
            ]);
            nnf(&or, neg)
        }
        Term::App(op @ (Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq), a) if a.len() == 2 && a[0].sort() == Sort::Int => {
            match (Affine::from_term(&a[0]), Affine::from_term(&a[1])) {
                (Some(l), Some(r)) => atom(*op, l.plus(&r.times(&-BigInt::one())), neg),
                _ => other(t, neg),
            }
        }
        _ => other(t, neg),
    }
}

fn other(t: &Term, neg: bool) -> F {
    F::Other(if neg { Term::not(t.clone()) } else { t.clone() })
}

/// `e op 0` (negated when `neg`) as a normalised atom over the integers:
/// `e <= 0` is `-e >= 0`, `e < 0` is `-e - 1 >= 0`, `e > 0` is `e - 1 >= 0`;
/// an inequality is divided by the gcd of its coefficients with the
/// constant rounded down (`2x - 1 >= 0` is `x - 1 >= 0` on integers); an
/// equality with a first coefficient made positive.
fn atom(op: Op, e: Affine, neg: bool) -> F {
    let one = BigInt::one();
    let minus = |a: &Affine| a.times(&-BigInt::one());
    let ge = |a: Affine| normalise_ge(a);
    let eq = |a: Affine, negated: bool| normalise_eq(a, negated);
    match (op, neg) {
        (Op::Ge, false) | (Op::Lt, true) => ge(e),
        (Op::Gt, false) | (Op::Le, true) => ge(e.plus(&Affine::constant(-&one))),
        (Op::Le, false) | (Op::Gt, true) => ge(minus(&e)),
        (Op::Lt, false) | (Op::Ge, true) => ge(minus(&e).plus(&Affine::constant(-&one))),
        (_, negated) => eq(e, negated),
    }
}

fn normalise_ge(mut a: Affine) -> F {
    a.coeffs.retain(|_, c| !c.is_zero());
    if a.coeffs.is_empty() {
        return if a.constant.is_negative() { F::False } else { F::True };
    }
    let g = a.coeffs.values().fold(BigInt::zero(), |g, c| g.gcd(c));
    if !g.is_one() {
        for c in a.coeffs.values_mut() {
            *c /= &g;
        }
        a.constant = a.constant.div_floor(&g);
    }
    F::Ge(a)
}

fn normalise_eq(mut a: Affine, negated: bool) -> F {
    a.coeffs.retain(|_, c| !c.is_zero());
    if a.coeffs.is_empty() {
        return if a.constant.is_zero() != negated { F::True } else { F::False };
    }
    let g = a.coeffs.values().fold(BigInt::zero(), |g, c| g.gcd(c));
    if !(&a.constant % &g).is_zero() {
        // No integer solution: `e == 0` is false, `e != 0` true.
        return if negated { F::True } else { F::False };
    }
    let first_negative = a.coeffs.values().next().is_some_and(|c| c.is_negative());
    let g = if first_negative { -g } else { g };
    for c in a.coeffs.values_mut() {
        *c /= &g;
    }
    a.constant /= &g;
    if negated {
        F::Ne(a)
    } else {
        F::Eq(a)
    }
}

fn negate(f: &F) -> Option<F> {
    match f {
        F::Ge(a) => Some(normalise_ge(a.times(&-BigInt::one()).plus(&Affine::constant(-BigInt::one())))),
        F::Eq(a) => Some(F::Ne(a.clone())),
        F::Ne(a) => Some(F::Eq(a.clone())),
        F::True => Some(F::False),
        F::False => Some(F::True),
        _ => None,
    }
}

/// Linear part and constant of an inequality, for merging bounds.
fn split(a: &Affine) -> (BTreeMap<String, BigInt>, BigInt) {
    (a.coeffs.clone(), a.constant.clone())
}

fn simplify(f: F) -> F {
    match f {
        F::And(cs) => simplify_and(cs.into_iter().map(simplify).collect()),
        F::Or(cs) => simplify_or(cs.into_iter().map(simplify).collect()),
        f => f,
    }
}

fn simplify_and(cs: Vec<F>) -> F {
    let mut flat = Vec::new();
    for c in cs {
        match c {
            F::True => {}
            F::False => return F::False,
            F::And(inner) => flat.extend(inner),
            c => flat.push(c),
        }
    }
    // Bounds on the same linear expression L: `L + k >= 0` is `L >= -k`;
    // `-L + k >= 0` is `L <= k`; `L + k == 0` pins it.
    let mut lower: BTreeMap<BTreeMap<String, BigInt>, BigInt> = BTreeMap::new();
    let mut rest = Vec::new();
    for c in flat {
        match c {
            F::Ge(a) => {
                let (l, k) = split(&a);
                let bound = -k;
                let e = lower.entry(l).or_insert_with(|| bound.clone());
                if bound > *e {
                    *e = bound;
                }
            }
            F::Eq(a) => {
                // L + k == 0 as L >= -k and -L >= k.
                let (l, k) = split(&a);
                for (lin, bound) in [(l.clone(), -k.clone()), (negated_lin(&l), k)] {
                    let e = lower.entry(lin).or_insert_with(|| bound.clone());
                    if bound > *e {
                        *e = bound;
                    }
                }
            }
            c => rest.push(c),
        }
    }
    let mut out: Vec<F> = Vec::new();
    let mut done: BTreeSet<BTreeMap<String, BigInt>> = BTreeSet::new();
    for (l, lo) in &lower {
        if done.contains(l) {
            continue;
        }
        let neg = negated_lin(l);
        done.insert(l.clone());
        done.insert(neg.clone());
        // Orient the pair so that the first coefficient is positive: `x >= 3
        // && x <= 5`, not `-x >= -5 && ...`.
        let (l, lo, upper) = if l.values().next().is_some_and(|c| c.is_negative()) {
            match lower.get(&neg) {
                Some(nlo) => (&neg, nlo, Some(-lo)),
                None => (l, lo, None),
            }
        } else {
            (l, lo, lower.get(&neg).map(|b| -b))
        };
        let lin = Affine { coeffs: l.clone(), constant: BigInt::zero() };
        match upper {
            Some(hi) if hi < *lo => return F::False,
            Some(hi) if hi == *lo => out.push(normalise_eq(lin.plus(&Affine::constant(-lo)), false)),
            Some(hi) => {
                out.push(F::Ge(lin.plus(&Affine::constant(-lo))));
                out.push(F::Ge(lin.times(&-BigInt::one()).plus(&Affine::constant(hi))));
            }
            None => out.push(F::Ge(lin.plus(&Affine::constant(-lo)))),
        }
    }
    for c in rest {
        // `e != 0` is implied when a bound excludes 0.
        if let F::Ne(a) = &c {
            let implied = out.iter().any(|o| matches!(o, F::Ge(_)) && negate(o).is_some_and(|n| n == F::Ge(a.clone())))
                || implied_ne(a, &lower);
            if implied {
                continue;
            }
        }
        if !out.contains(&c) {
            out.push(c);
        }
    }
    match out.len() {
        0 => F::True,
        1 => out.pop().unwrap_or(F::True),
        _ => F::And(out),
    }
}

fn implied_ne(a: &Affine, lower: &BTreeMap<BTreeMap<String, BigInt>, BigInt>) -> bool {
    // L + k != 0, i.e. L != -k: implied by L >= -k + 1 or L <= -k - 1.
    let (l, k) = split(a);
    let target = -k;
    lower.get(&l).is_some_and(|lo| *lo > target) || lower.get(&negated_lin(&l)).is_some_and(|lo| -lo < target)
}

fn negated_lin(l: &BTreeMap<String, BigInt>) -> BTreeMap<String, BigInt> {
    l.iter().map(|(v, c)| (v.clone(), -c)).collect()
}

/// Whether atom `a` implies atom `b` (same linear part, tighter bound, or
/// the same atom).
fn implies(a: &F, b: &F) -> bool {
    match (a, b) {
        (F::Ge(x), F::Ge(y)) | (F::Eq(x), F::Ge(y)) => x.coeffs == y.coeffs && x.constant <= y.constant || a == b,
        _ => a == b,
    }
}

fn simplify_or(cs: Vec<F>) -> F {
    let mut flat: Vec<F> = Vec::new();
    for c in cs {
        match c {
            F::False => {}
            F::True => return F::True,
            F::Or(inner) => flat.extend(inner),
            c => {
                if !flat.contains(&c) {
                    flat.push(c)
                }
            }
        }
    }
    // A disjunct and its negation: the disjunction is valid.
    if flat.iter().any(|c| negate(c).is_some_and(|n| flat.contains(&n))) {
        return F::True;
    }
    if flat.len() > 1 {
        // Factor out conjuncts of the first disjunct implied by every other
        // one: (c && A) || B with B implying c is c && (A || B). Exact
        // matches are the usual case; a stronger bound implies a weaker
        // one (`x >= 100` implies `x >= 1`), which bound merging creates.
        let parts: Vec<Vec<F>> = flat.iter().map(|c| conjuncts(c.clone())).collect();
        let common: Vec<F> =
            parts[0].iter().filter(|c| parts[1..].iter().all(|p| p.iter().any(|q| implies(q, c)))).cloned().collect();
        if !common.is_empty() {
            let rests: Vec<F> =
                parts.into_iter().map(|p| simplify_and(p.into_iter().filter(|c| !common.contains(c)).collect())).collect();
            let mut all = common;
            all.push(simplify_or(rests));
            return simplify_and(all);
        }
    }
    match flat.len() {
        0 => F::False,
        1 => flat.pop().unwrap_or(F::False),
        _ => F::Or(flat),
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
    let [lhs, rhs] = args.as_slice() else { return None };
    let (Term::App(Op::Mod, m), Term::Int(r)) = (lhs, rhs) else { return None };
    let [Term::Var(x, _), Term::Int(d)] = m.as_slice() else { return None };
    if !d.is_positive() || !non_negative.contains(x.as_str()) {
        return None;
    }
    Some(format!("{} % {d} == {r}", names.get(x)?))
}

/// `P - N + k >= 0` with the variable terms on the side where they are
/// positive: `x >= 1`, `x <= 99`, `n > i`, `i <= n + 1`, `x + y >= 3`.
fn print_ge(a: &Affine, names: &Names) -> String {
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

// ---------------------------------------------------------------- ranking functions

/// How a ranking function was checked, which decides which rescalings keep
/// its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Every iteration decreases it (`instrument::decrease`).
    Decrease,
    /// Its value on loop entry bounds the iterations (T_rank).
    Bound,
}

/// The pieces of a ranking function with integer coefficients, rescaled for
/// printing.
///
/// Why each rescaling keeps the meaning (all variables are integers):
/// - Multiplying a piece by a positive constant keeps its sign and the
///   direction of every change, and can only enlarge a bound on iterations,
///   so it is always allowed; it turns rational pieces into integer ones.
/// - Dividing by the gcd `g` of the variable coefficients with the constant
///   rounded down (`L' = L/g + floor(k/g)` for `g·L + k`) keeps
///   `piece >= 0` equivalent, keeps `<=` between two states, and turns a
///   decrease by at least 1 into one by at least 1 (the values are integers
///   and shrink by at least `1/g`). So it is allowed for ranking functions
///   checked by decrease, for a single piece and for each component of a
///   lexicographic or multiphase one separately (their conditions speak of
///   each component on its own). It is not allowed for a T_rank bound (`2n`
///   iterations are not bounded by `n`), nor per piece of a `max` (the
///   maximum of differently scaled pieces is another function); a `max`
///   is divided only by a common factor of every coefficient and constant.
pub fn scaled_pieces(c: &RankingCandidate, check: Check) -> Vec<Affine> {
    let pieces = c.pieces_or_zero();
    let integer = |p: &AffinePiece, l: &BigInt| p.to_scaled_affine(l).unwrap_or_default();
    match c.combination {
        Combination::Piecewise if pieces.len() > 1 => {
            let l = c.denominator_lcm();
            let ints: Vec<Affine> = pieces.iter().map(|p| integer(p, &l)).collect();
            if check == Check::Bound {
                return ints;
            }
            let g = ints
                .iter()
                .flat_map(|a| a.coeffs.values().chain(std::iter::once(&a.constant)))
                .fold(BigInt::zero(), |g, c| g.gcd(c));
            if g.is_zero() || g.is_one() {
                ints
            } else {
                ints.iter().map(|a| exact_div(a, &g)).collect()
            }
        }
        _ => pieces
            .iter()
            .map(|p| {
                let a = integer(p, &p.denominator_lcm());
                if check == Check::Bound {
                    a
                } else {
                    floor_div_coeffs(&a)
                }
            })
            .collect(),
    }
}

fn exact_div(a: &Affine, g: &BigInt) -> Affine {
    Affine { coeffs: a.coeffs.iter().map(|(v, c)| (v.clone(), c / g)).collect(), constant: &a.constant / g }
}

fn floor_div_coeffs(a: &Affine) -> Affine {
    let g = a.coeffs.values().fold(BigInt::zero(), |g, c| g.gcd(c));
    if g.is_zero() || g.is_one() {
        return a.clone();
    }
    Affine { coeffs: a.coeffs.iter().map(|(v, c)| (v.clone(), c / &g)).collect(), constant: a.constant.div_floor(&g) }
}

/// The ranking function in C-like form over source names: `n - i`,
/// `max(21 - x, x + 1)`, `lex(x, y)`. `None` when a piece mentions a
/// variable that has no source name.
pub fn ranking(c: &RankingCandidate, check: Check, names: &Names) -> Option<String> {
    let pieces = scaled_pieces(c, check);
    if pieces.iter().any(|p| p.coeffs.keys().any(|v| names.get(v).is_none())) {
        return None;
    }
    let printed: Vec<String> = pieces.iter().map(|p| affine(p, names)).collect();
    Some(match printed.as_slice() {
        [one] => one.clone(),
        many => format!("{}({})", c.combination.function_name(), many.join(", ")),
    })
}

/// The largest coefficient or constant (in decimal digits) of the printed
/// ranking function; what the integer-only proofs check stays small.
pub fn max_digits(pieces: &[Affine]) -> usize {
    pieces
        .iter()
        .flat_map(|a| a.coeffs.values().chain(std::iter::once(&a.constant)))
        .map(|c| c.abs().to_string().len())
        .max()
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IntType;
    use crate::term::euclid_div_mod;
    use crate::term::parse::parse_term;
    use num_rational::BigRational;

    fn rational(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    fn var(name: &str, source: &str) -> Variable {
        Variable { name: name.into(), source_name: source.into(), ty: IntType::INT, function: None }
    }

    fn names() -> Names {
        Names::readable(&[var("x", "x"), var("y", "y"), var("n", "n"), var("i", "i"), var("f.x", "x"), var("tmp%1", "tmp%1")])
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
        assert_eq!(qualified("f.x.2", "x"), "x@f#2");
        assert!(exact_condition(&term("(and (>= |r#0| 0) (>= x 0))"), &names()).is_none());
        let u = Names::unambiguous(&[var("x", "x"), var("f.x", "x"), var("y", "y")]);
        assert_eq!(u.get("y"), Some("y"));
        assert_eq!(u.get("x"), None);
    }

    #[test]
    fn euclidean_division_prints_as_equivalent_c() {
        let n = names();
        let t = term("(mod x 3)");
        assert_eq!(int_expr(&t, &n, 0), "(x % 3 + 3) % 3");
        // C truncates: for x = -7, (-7 % 3 + 3) % 3 = (-1 + 3) % 3 = 2 = -7 mod 3.
        assert_eq!(euclid_div_mod(&BigInt::from(-7), &BigInt::from(3)).1, BigInt::from(2));
    }

    fn piece(terms: &[(&str, i64, i64)], c: (i64, i64)) -> AffinePiece {
        AffinePiece {
            coeffs: terms.iter().map(|(v, n, d)| (v.to_string(), rational(*n, *d))).collect(),
            constant: rational(c.0, c.1),
        }
    }

    #[test]
    fn ranking_functions_get_small_integer_coefficients() {
        let n = names();
        let single = RankingCandidate::single(piece(&[("n", 2, 1), ("i", -2, 1)], (1, 1)));
        assert_eq!(ranking(&single, Check::Decrease, &n).as_deref(), Some("n - i"));
        // A bound on iterations may not shrink.
        assert_eq!(ranking(&single, Check::Bound, &n).as_deref(), Some("2*n - 2*i + 1"));
        let lex = RankingCandidate {
            combination: Combination::Lexicographic,
            pieces: vec![piece(&[("x", -1, 1)], (21, 1)), piece(&[("x", 1, 10)], (1, 1))],
        };
        assert_eq!(ranking(&lex, Check::Decrease, &n).as_deref(), Some("lex(21 - x, x + 10)"));
        let max = RankingCandidate {
            combination: Combination::Piecewise,
            pieces: vec![piece(&[("x", 2, 1)], (2, 1)), piece(&[("y", 4, 1)], (1, 1))],
        };
        // Not every constant is even: a max keeps its common scale.
        assert_eq!(ranking(&max, Check::Decrease, &n).as_deref(), Some("max(2*x + 2, 4*y + 1)"));
        let hidden = RankingCandidate::single(piece(&[("tmp%1", 1, 1)], (0, 1)));
        assert_eq!(ranking(&hidden, Check::Decrease, &n), None);
    }
}
