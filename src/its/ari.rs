//! The ARI form of integer transition systems (termination competition
//! since 2025): a logically constrained rewrite system over the integers.
//!
//! ```text
//! (format LCTRS)
//! (theory Ints)
//! (fun l0 (-> Int Int Int))      ; location l0 with two arguments
//! (entrypoint l0)
//! (rule (l0 x y) (l1 (- x y) y) :guard (and (> x 0) (> y 0)))
//! ```
//!
//! A location's arguments are the variables, by position (a location with
//! fewer arguments leaves the later positions as they are: no rule from it
//! reads them). A left-hand side names the values before the step; a
//! variable only on the right or in the guard is an arbitrary value, unless
//! a top-level equation of the guard fixes it (`(= x1 (- x 1))`, see
//! [`fix_values`](super::fix_values)): then it stands for that value, and
//! the rule reads as if its terms were written in place of it. A
//! left-hand side argument that is not a fresh variable becomes an equation
//! of the guard.

use super::{read_sexprs, syntax, ItsProblem, Rule};
use crate::error::{Result, TesseraError};
use crate::ir::Span;
use crate::term::parse::{Pos, SExpr, TermReader};
use crate::term::{smt_symbol, Sort, Term};
use std::collections::{BTreeMap, BTreeSet};

struct RawRule<'a> {
    pos: Pos,
    lhs: &'a SExpr,
    rhs: &'a SExpr,
    guard: Option<&'a SExpr>,
}

pub fn parse(file: &str, text: &str) -> Result<ItsProblem> {
    let exprs = read_sexprs(file, text)?;
    let at = |pos: Pos, m: String| syntax(file, pos.line, pos.col, m);
    let mut arity: BTreeMap<String, usize> = BTreeMap::new();
    let mut locations: Vec<String> = Vec::new();
    let mut declared: Vec<Span> = Vec::new();
    let mut entry: Option<(Pos, String)> = None;
    let mut raw = Vec::new();
    for (pos, e) in &exprs {
        let Some((head, args)) = e.app() else {
            return Err(at(*pos, format!("expected a command, found {e}")));
        };
        match (head, args) {
            ("format", [f]) if f.symbol() == Some("LCTRS") => {}
            ("format", _) => return Err(at(*pos, format!("format {e}: only LCTRS is an integer transition system"))),
            ("theory", [t]) if t.symbol() == Some("Ints") => {}
            ("theory", _) => {
                return Err(TesseraError::unsupported(Some(span(file, *pos)), format!("theory {e} (only Ints)")));
            }
            ("meta-info", _) => {}
            ("fun", [name, sort]) => {
                let name = name.symbol().ok_or_else(|| at(*pos, "a function name must be a symbol".into()))?;
                let n = match sort.app() {
                    Some(("->", sorts)) if !sorts.is_empty() => {
                        if let Some(s) = sorts[..sorts.len() - 1].iter().find(|s| s.symbol() != Some("Int")) {
                            return Err(TesseraError::unsupported(Some(span(file, *pos)), format!("argument sort {s} (only Int)")));
                        }
                        sorts.len() - 1
                    }
                    _ if sort.symbol().is_some() => 0,
                    _ => return Err(at(*pos, format!("bad sort {sort} of {name}"))),
                };
                if arity.insert(name.to_string(), n).is_some() {
                    return Err(at(*pos, format!("`{name}` declared twice")));
                }
                locations.push(name.to_string());
                declared.push(span(file, *pos));
            }
            ("entrypoint", [name]) => entry = Some((*pos, name.symbol().unwrap_or("").to_string())),
            ("rule", [lhs, rhs, rest @ ..]) => {
                let guard = match rest {
                    [] => None,
                    [k, g] if k.symbol() == Some(":guard") => Some(g),
                    _ => return Err(at(*pos, format!("a rule is (rule LHS RHS) or (rule LHS RHS :guard G), found {e}"))),
                };
                raw.push(RawRule { pos: *pos, lhs, rhs, guard });
            }
            _ => {
                return Err(TesseraError::unsupported(Some(span(file, *pos)), format!("command `{head}` in an integer transition system")));
            }
        }
    }
    let (entry_pos, entry) = entry.ok_or_else(|| syntax(file, 1, 1, "no (entrypoint ...)"))?;
    let start = locations.iter().position(|l| *l == entry).ok_or_else(|| at(entry_pos, format!("entry point `{entry}` is not declared")))?;
    let width = arity.values().copied().max().unwrap_or(0);

    // Positions of the left-hand sides: rule `r`'s location and its argument names.
    let mut sides = Vec::new();
    for r in &raw {
        let (loc, args) = application(r.lhs, &arity).map_err(|m| at(r.pos, m))?;
        let (to, _) = application(r.rhs, &arity).map_err(|m| at(r.pos, m))?;
        sides.push((loc, to, args));
    }
    let vars = variable_names(width, &sides);
    let mut rules = Vec::new();
    for (r, (from, to, lhs_args)) in raw.iter().zip(&sides) {
        rules.push(rule(file, r, from, to, lhs_args, &vars, &locations, &arity)?);
    }
    Ok(ItsProblem { file: file.to_string(), vars, locations, declared, start, rules })
}

fn span(file: &str, pos: Pos) -> Span {
    Span { file: file.to_string(), line: pos.line, col: pos.col }
}

/// A location applied to arguments: its index among the declarations (in
/// the order of `arity`'s keys is not the order: looked up by name by the
/// caller) and the arguments.
fn application<'a>(e: &'a SExpr, arity: &BTreeMap<String, usize>) -> std::result::Result<(String, &'a [SExpr]), String> {
    let (name, args): (&str, &[SExpr]) = match e {
        SExpr::List(items) => match items.split_first() {
            Some((h, rest)) => (h.symbol().ok_or_else(|| format!("bad term {e}"))?, rest),
            None => return Err("empty term ()".into()),
        },
        _ => (e.symbol().unwrap_or(""), &[]),
    };
    match arity.get(name) {
        Some(&n) if n == args.len() => Ok((name.to_string(), args)),
        Some(&n) => Err(format!("`{name}` takes {n} arguments, given {} in {e}", args.len())),
        None => Err(format!("`{name}` is not a declared location (in {e})")),
    }
}

/// The name of each position: the one all left-hand sides use there, when
/// they agree and it names no other position; otherwise `x1`, `x2`, ...
fn variable_names(width: usize, sides: &[(String, String, &[SExpr])]) -> Vec<String> {
    let mut used: Vec<BTreeSet<String>> = vec![BTreeSet::new(); width];
    for (_, _, args) in sides {
        for (i, a) in args.iter().enumerate() {
            used[i].insert(a.symbol().filter(|s| is_variable(s)).unwrap_or("").to_string());
        }
    }
    let mut names: Vec<String> = (0..width)
        .map(|i| match used[i].iter().collect::<Vec<_>>().as_slice() {
            [one] if !one.is_empty() && (0..width).all(|j| j == i || !used[j].contains(*one)) => (*one).clone(),
            _ => format!("x{}", i + 1),
        })
        .collect();
    // A generated name may clash with a chosen one.
    let chosen: BTreeSet<String> = names.iter().cloned().collect();
    for (i, n) in names.iter_mut().enumerate() {
        if *n == format!("x{}", i + 1) && chosen.iter().filter(|c| *c == n).count() > 1 {
            *n = format!("x{}_", i + 1);
        }
    }
    names
}

fn is_variable(s: &str) -> bool {
    !s.is_empty() && !s.starts_with(|c: char| c.is_ascii_digit() || c == '-') && s != "true" && s != "false"
}

#[allow(clippy::too_many_arguments)]
fn rule(
    file: &str,
    r: &RawRule,
    from: &str,
    to: &str,
    lhs_args: &[SExpr],
    vars: &[String],
    locations: &[String],
    arity: &BTreeMap<String, usize>,
) -> Result<Rule> {
    let at = |m: String| {
        if m.contains("not supported") {
            TesseraError::unsupported(Some(span(file, r.pos)), m)
        } else {
            syntax(file, r.pos.line, r.pos.col, m)
        }
    };
    // Left-hand side: each fresh variable names a position's value; any
    // other argument (a repeated variable, a number) is an equation.
    let mut renaming: BTreeMap<String, Term> = BTreeMap::new();
    let mut equations: Vec<(usize, &SExpr)> = Vec::new();
    for (i, a) in lhs_args.iter().enumerate() {
        match a.symbol().filter(|s| is_variable(s) && !renaming.contains_key(*s)) {
            Some(s) => {
                renaming.insert(s.to_string(), Term::var(vars[i].clone()));
            }
            None => equations.push((i, a)),
        }
    }
    // Every other symbol in the right-hand side or the guard that is not an
    // operator is an arbitrary value of the rule.
    let mut locals: Vec<String> = Vec::new();
    let rhs_args: &[SExpr] = r.rhs.list().map(|l| &l[1..]).unwrap_or(&[]);
    let mut symbols = BTreeSet::new();
    for e in rhs_args.iter().chain(r.guard).chain(equations.iter().map(|(_, e)| *e)) {
        collect_symbols(e, &mut symbols);
    }
    for s in symbols {
        if !renaming.contains_key(&s) && is_variable(&s) && !is_operator(&s) && !arity.contains_key(&s) {
            // Kept apart from the variables' names, which the terms use.
            if vars.contains(&s) {
                let apart = format!("{s}.local");
                renaming.insert(s, Term::var(apart.clone()));
                locals.push(apart);
            } else {
                locals.push(s);
            }
        }
    }
    let env: BTreeMap<String, Sort> = renaming.keys().chain(&locals).map(|n| (n.clone(), Sort::Int)).collect();
    let reader = TermReader::new(&env);
    let read = |e: &SExpr| -> Result<Term> {
        // Renamed and rebuilt through the simplifying constructors.
        let t = reader.term(e).map_err(at)?;
        Ok(t.subst(&renaming).rebuilt())
    };
    let mut guard = vec![match r.guard {
        Some(g) => read(g)?,
        None => Term::tt(),
    }];
    for (i, e) in &equations {
        guard.push(Term::eq(Term::var(vars[*i].clone()), read(e)?));
    }
    let mut updates: Vec<Term> = vars.iter().map(|v| Term::var(v.clone())).collect();
    for (i, e) in rhs_args.iter().enumerate() {
        updates[i] = read(e)?;
    }
    // Arbitrary values the guard's equations fix are replaced by their
    // values: `(f x1 y) :guard (= x1 (- x 1))` is `(f (- x 1) y)`.
    let free: BTreeSet<String> = locals.iter().cloned().collect();
    let (defined, guard) = super::fix_values(&Term::and(guard), &free);
    if !defined.is_empty() {
        for u in &mut updates {
            *u = u.subst(&defined);
        }
    }
    // Values nothing reads any more are no choice of the rule.
    let used: BTreeSet<String> = std::iter::once(&guard).chain(&updates).flat_map(|t| t.free_vars()).map(|d| d.name).collect();
    locals.retain(|l| used.contains(l));
    // `application` accepts declared functions only; a clear error all the same.
    let index = |name: &str| locations.iter().position(|l| l == name).ok_or_else(|| at(format!("`{name}` is not a declared location")));
    Ok(Rule { from: index(from)?, to: index(to)?, locals, guard, updates, span: span(file, r.pos) })
}

fn collect_symbols(e: &SExpr, out: &mut BTreeSet<String>) {
    match e {
        SExpr::Atom(s) | SExpr::Quoted(s) => {
            out.insert(s.clone());
        }
        SExpr::List(items) => items.iter().for_each(|i| collect_symbols(i, out)),
        SExpr::Str(_) => {}
    }
}

fn is_operator(s: &str) -> bool {
    matches!(
        s,
        "+" | "-" | "*" | "div" | "mod" | "abs" | "<" | "<=" | "=" | ">=" | ">" | "distinct" | "and" | "or" | "not" | "=>" | "xor" | "ite" | "let" | "true" | "false"
    )
}

/// `its` in the ARI form: every location takes all the variables; a
/// rule's arbitrary values are the symbols only its right-hand side and
/// guard use. Reading the text back gives the same problem (up to the
/// order of each rule's arbitrary values).
pub fn print(its: &ItsProblem) -> String {
    use std::fmt::Write;
    let mut out = String::from("(format LCTRS)\n(theory Ints)\n");
    let sorts = vec!["Int"; its.vars.len() + 1].join(" ");
    for l in &its.locations {
        if its.vars.is_empty() {
            let _ = writeln!(out, "(fun {} Int)", smt_symbol(l));
        } else {
            let _ = writeln!(out, "(fun {} (-> {sorts}))", smt_symbol(l));
        }
    }
    let _ = writeln!(out, "(entrypoint {})", smt_symbol(&its.locations[its.start]));
    let apply = |l: usize, args: &[String]| {
        if args.is_empty() {
            smt_symbol(&its.locations[l]).to_string()
        } else {
            format!("({} {})", smt_symbol(&its.locations[l]), args.join(" "))
        }
    };
    let lhs: Vec<String> = its.vars.iter().map(|v| smt_symbol(v).to_string()).collect();
    for r in &its.rules {
        let rhs: Vec<String> = r.updates.iter().map(|u| u.to_string()).collect();
        let _ = write!(out, "(rule {} {}", apply(r.from, &lhs), apply(r.to, &rhs));
        if r.guard != Term::tt() {
            let _ = write!(out, " :guard {}", r.guard);
        }
        out.push_str(")\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "(format LCTRS)
(theory Ints)
(fun l0 (-> Int Int Int))
(fun l1 (-> Int Int Int))
(entrypoint l0)
(rule (l0 x y) (l1 x y))
(rule (l1 x y) (l1 (- x y) y) :guard (and (> x 0) (> y 0)))
(rule (l1 x y) (l1 x z))
";

    #[test]
    fn rules_name_positions_and_arbitrary_values() {
        let its = parse("t.ari", SMALL).expect("parses");
        assert_eq!(its.vars, ["x", "y"]);
        assert_eq!(its.start, 0);
        assert_eq!(its.rules[1].guard.to_string(), "(and (> x 0) (> y 0))");
        assert_eq!(its.rules[1].updates[0].to_string(), "(- x y)");
        assert_eq!(its.rules[2].locals, ["z"]);
        assert_eq!(its.rules[2].updates[1].to_string(), "z");
    }

    #[test]
    fn fresh_variables_fixed_by_the_guard_read_as_their_terms() {
        let terms = SMALL.replace("(l1 x z))", "(l1 (+ x 1) (- 2)) :guard (> x 0))");
        let equations = SMALL.replace("(l1 (- x y) y)", "(l1 d y)").replace("(> y 0))", "(> y 0) (= d (- x y)))").replace(
            "(l1 x z))",
            "(l1 a b) :guard (and (= b (- 2)) (> x 0) (= (+ c 1) a) (= c x)))",
        );
        let (p, q) = (parse("t.ari", &terms).expect("parses"), parse("t.ari", &equations).expect("parses"));
        assert_eq!(p.rules, q.rules, "{equations}");
        assert!(q.rules.iter().all(|r| r.locals.is_empty()));
        // An arbitrary value no equation fixes stays one.
        let other = SMALL.replace("(l1 x z))", "(l1 x z) :guard (and (< z x) (= x (+ y 1))))");
        let r = &parse("t.ari", &other).expect("parses").rules[2];
        assert_eq!(r.locals, ["z"]);
        assert_eq!(r.updates[1].to_string(), "z");
    }

    #[test]
    fn a_wrong_arity_is_a_located_error() {
        let bad = SMALL.replace("(l1 x z)", "(l1 x)");
        let e = parse("t.ari", &bad).expect_err("rejected");
        assert_eq!(e.exit_code(), 3);
        assert!(e.to_string().starts_with("t.ari:8:1: syntax error: `l1` takes 2 arguments"), "{e}");
    }

    #[test]
    fn printing_and_reading_back_gives_the_same_problem() {
        let its = parse("t.ari", SMALL).expect("parses");
        let again = parse("t.ari", &print(&its)).expect("reads back");
        assert_eq!(its.rules.len(), again.rules.len());
        for (a, b) in its.rules.iter().zip(&again.rules) {
            assert_eq!((a.from, a.to, &a.guard, &a.updates, &a.locals), (b.from, b.to, &b.guard, &b.updates, &b.locals));
        }
    }
}
