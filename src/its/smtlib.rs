//! The SMT-LIB form of integer transition systems (termination competition
//! until 2024): locations are constants of the sort `Loc`; `init_main`
//! says where runs start (`cfg_init pc START REL`); `next_main` relates a
//! state (its first parameter list) to the next (its second list) by a
//! disjunction of `cfg_trans2 pc SRC pc1 DST REL`.
//!
//! A transition's relation `REL` is turned into the [`Rule`] form: an
//! equation `v' = e` fixes the value of `v` after the step, and an equation
//! `z = e` the value of an `exists` variable `z` (see
//! [`fix_values`](super::fix_values): top-level equations, resolved through
//! each other); a post-state variable no equation fixes is an arbitrary
//! value of the rule, as is an `exists` variable no equation fixes; what is
//! left of `REL` (fixed values replaced by their definitions) is the guard.

use super::{read_sexprs, syntax, ItsProblem, Rule};
use crate::error::{Result, TesseraError};
use crate::ir::Span;
use crate::term::parse::{Pos, SExpr, TermReader};
use crate::term::{Sort, Term};
use std::collections::{BTreeMap, BTreeSet};

pub fn parse(file: &str, text: &str) -> Result<ItsProblem> {
    let exprs = read_sexprs(file, text)?;
    let mut locations: Vec<String> = Vec::new();
    let mut declared: Vec<Span> = Vec::new();
    let mut init: Option<(Pos, &SExpr)> = None;
    let mut next: Option<(Pos, &SExpr)> = None;
    for (pos, e) in &exprs {
        match e.app() {
            Some(("declare-const", [name, sort])) if sort.symbol() == Some("Loc") => {
                let name = name.symbol().ok_or_else(|| syntax(file, pos.line, pos.col, "a location must be a symbol"))?;
                locations.push(name.to_string());
                declared.push(Span { file: file.to_string(), line: pos.line, col: pos.col });
            }
            Some(("define-fun", [name, ..])) if name.symbol() == Some("init_main") => init = Some((*pos, e)),
            Some(("define-fun", [name, ..])) if name.symbol() == Some("next_main") => next = Some((*pos, e)),
            _ => {}
        }
    }
    let (init_pos, init) = init.ok_or_else(|| syntax(file, 1, 1, "no `init_main` definition"))?;
    let (next_pos, next) = next.ok_or_else(|| syntax(file, 1, 1, "no `next_main` definition"))?;
    let location = |s: &SExpr, pos: Pos| -> Result<usize> {
        let name = s.symbol().unwrap_or("");
        locations
            .iter()
            .position(|l| l == name)
            .ok_or_else(|| syntax(file, pos.line, pos.col, format!("`{s}` is not a declared location")))
    };

    // init_main ((pc Loc) (v Int) ...) Bool (cfg_init pc START REL)
    let Some(("define-fun", [_, params, _, body])) = init.app() else {
        return Err(syntax(file, init_pos.line, init_pos.col, "`init_main` must be (define-fun init_main (params) Bool body)"));
    };
    let pre = int_params(params).map_err(|m| syntax(file, init_pos.line, init_pos.col, m))?;
    let Some(("cfg_init", [_, start, start_rel])) = body.app() else {
        return Err(syntax(file, init_pos.line, init_pos.col, "the body of `init_main` must be (cfg_init pc START REL)"));
    };
    let start = location(start, init_pos)?;
    let vars: Vec<String> = display_names(&pre);

    // next_main ((pc Loc) (v Int) ... (pc1 Loc) (v' Int) ...) Bool (or (cfg_trans2 ...) ...)
    let Some(("define-fun", [_, params, _, body])) = next.app() else {
        return Err(syntax(file, next_pos.line, next_pos.col, "`next_main` must be (define-fun next_main (params) Bool body)"));
    };
    let both = int_params(params).map_err(|m| syntax(file, next_pos.line, next_pos.col, m))?;
    if both.len() != 2 * pre.len() {
        return Err(syntax(
            file,
            next_pos.line,
            next_pos.col,
            format!("`next_main` has {} integer parameters; expected twice the {} of `init_main`", both.len(), pre.len()),
        ));
    }
    let (before, after) = both.split_at(pre.len());
    let span = Span { file: file.to_string(), line: next_pos.line, col: next_pos.col };
    let transitions: Vec<&SExpr> = match body.app() {
        Some(("or", ts)) => ts.iter().collect(),
        _ => vec![body],
    };
    let mut rules = Vec::new();
    for t in transitions {
        let Some(("cfg_trans2", [_, src, _, dst, rel])) = t.app() else {
            return Err(TesseraError::unsupported(Some(span.clone()), format!("transition {} (only cfg_trans2 is supported)", short(t))));
        };
        let (from, to) = (location(src, next_pos)?, location(dst, next_pos)?);
        let (locals, guard, updates) = relation(rel, before, after, &vars).map_err(|m| located(&span, m))?;
        rules.push(Rule { from, to, locals, guard, updates, span: span.clone() });
    }
    // A constraint on the start values: a rule from a new start location.
    let init_rel = TermReader::new(&env(pre.iter())).term(start_rel).map_err(|m| located(&span, m))?;
    let mut its = ItsProblem { file: file.to_string(), vars, locations, declared, start, rules };
    if init_rel != Term::tt() {
        let renamed = init_rel.rename(&|n| pre.iter().position(|b| b == n).map(|i| its.vars[i].clone()));
        its.locations.push("init".into());
        its.declared.push(Span { file: file.to_string(), line: init_pos.line, col: init_pos.col });
        let init = its.locations.len() - 1;
        let identity = its.vars.iter().map(|v| Term::var(v.clone())).collect();
        its.rules.push(Rule { from: init, to: its.start, locals: vec![], guard: renamed, updates: identity, span: span.clone() });
        its.start = init;
    }
    Ok(its)
}

/// An error from reading a term: unsupported constructs are exit 4, the
/// rest syntax errors.
fn located(span: &Span, message: String) -> TesseraError {
    if message.contains("not supported") {
        TesseraError::unsupported(Some(span.clone()), message)
    } else {
        TesseraError::syntax(Some(span.clone()), message)
    }
}

fn short(e: &SExpr) -> String {
    let s = e.to_string();
    if s.len() > 80 {
        format!("{}...", &s[..s.char_indices().nth(80).map_or(s.len(), |(i, _)| i)])
    } else {
        s
    }
}

/// The names of the `Int` parameters of a parameter list (the `Loc` ones
/// are the program counter).
fn int_params(params: &SExpr) -> std::result::Result<Vec<String>, String> {
    let list = params.list().ok_or("parameters must be a list")?;
    let mut out = Vec::new();
    for p in list {
        match p.list() {
            Some([name, sort]) => match sort.symbol() {
                Some("Int") => out.push(name.symbol().ok_or("a parameter name must be a symbol")?.to_string()),
                Some("Loc") => {}
                _ => return Err(format!("parameter {p}: only Int and Loc are supported")),
            },
            _ => return Err(format!("bad parameter {p}")),
        }
    }
    Ok(out)
}

/// The names proofs print: the pre-state names without the `^0` suffix
/// some files put on all of them (when that keeps them apart).
fn display_names(pre: &[String]) -> Vec<String> {
    let stripped: Vec<String> = pre.iter().map(|n| n.strip_suffix("^0").unwrap_or(n).to_string()).collect();
    let distinct: BTreeSet<&String> = stripped.iter().collect();
    if distinct.len() == stripped.len() && !stripped.iter().any(|n| n.contains('%')) {
        stripped
    } else {
        pre.iter().map(|n| n.replace('%', "_")).collect()
    }
}

fn env<'a>(names: impl Iterator<Item = &'a String>) -> BTreeMap<String, Sort> {
    names.map(|n| (n.clone(), Sort::Int)).collect()
}

type RuleParts = (Vec<String>, Term, Vec<Term>);

/// A transition relation as (arbitrary values, guard, updates), over the
/// problem's variable names `vars` (position `i` of `before`/`after`).
fn relation(rel: &SExpr, before: &[String], after: &[String], vars: &[String]) -> std::result::Result<RuleParts, String> {
    let mut bound = Vec::new();
    let taken: BTreeSet<String> = before.iter().chain(after).chain(vars).cloned().collect();
    let rel = lift_exists(rel, &mut bound, &taken);
    let names: Vec<String> = before.iter().chain(after).chain(&bound).cloned().collect();
    let env = env(names.iter());
    // Rebuilt through the simplifying constructors (`(+ 0 x)` is `x`), so
    // that both forms of a problem read to the same terms.
    let term = TermReader::new(&env).term(&rel)?.rebuilt();
    if term.sort() != Sort::Int && term.sort() != Sort::Bool {
        return Err("a transition relation must be Boolean".into());
    }
    // Post-state variables and `exists` values an equation fixes are
    // replaced by their values (the same reading as the ARI form's fresh
    // variables); the others are arbitrary values of the rule.
    let free: BTreeSet<String> = after.iter().chain(&bound).cloned().collect();
    let (defined, rest) = super::fix_values(&term, &free);
    let mut locals: Vec<String> = bound;
    locals.extend(after.iter().cloned());
    locals.retain(|l| !defined.contains_key(l));
    let to_vars = |t: &Term| -> Term { t.rename(&|n| before.iter().position(|b| b == n).map(|i| vars[i].clone())) };
    let guard = to_vars(&rest);
    let updates: Vec<Term> = after.iter().map(|p| to_vars(defined.get(p).unwrap_or(&Term::var(p.clone())))).collect();
    // Values nothing reads any more (an `exists` variable only an equation
    // used) are no choice of the rule.
    let used: BTreeSet<String> = std::iter::once(&guard).chain(&updates).flat_map(|t| t.free_vars()).map(|d| d.name).collect();
    locals.retain(|l| used.contains(l));
    Ok((locals, guard, updates))
}

/// `rel` with the variables of every `exists` in a positive position
/// (under `and` and `or`) renamed apart and pushed to `bound`.
fn lift_exists(rel: &SExpr, bound: &mut Vec<String>, taken: &BTreeSet<String>) -> SExpr {
    match rel.app() {
        Some(("exists", [vars, body])) => {
            let mut renaming = BTreeMap::new();
            for v in vars.list().unwrap_or(&[]) {
                if let Some([name, _sort]) = v.list() {
                    let name = name.symbol().unwrap_or("").to_string();
                    let mut fresh = format!("{name}.exists");
                    let mut i = 1;
                    while taken.contains(&fresh) || bound.contains(&fresh) {
                        i += 1;
                        fresh = format!("{name}.exists{i}");
                    }
                    bound.push(fresh.clone());
                    renaming.insert(name, fresh);
                }
            }
            lift_exists(&rename_atoms(body, &renaming), bound, taken)
        }
        Some((op @ ("and" | "or"), args)) => {
            let mut items = vec![SExpr::Atom(op.to_string())];
            items.extend(args.iter().map(|a| lift_exists(a, bound, taken)));
            SExpr::List(items)
        }
        _ => rel.clone(),
    }
}

fn rename_atoms(e: &SExpr, renaming: &BTreeMap<String, String>) -> SExpr {
    match e {
        SExpr::Atom(s) | SExpr::Quoted(s) if renaming.contains_key(s) => SExpr::Atom(renaming[s].clone()),
        SExpr::List(items) => SExpr::List(items.iter().map(|i| rename_atoms(i, renaming)).collect()),
        _ => e.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "(declare-sort Loc 0)
(declare-const l0 Loc)
(declare-const l1 Loc)
(assert (distinct l0 l1))
(define-fun cfg_init ( (pc Loc) (src Loc) (rel Bool) ) Bool (and (= pc src) rel))
(define-fun cfg_trans2 ( (pc Loc) (src Loc) (pc1 Loc) (dst Loc) (rel Bool) ) Bool (and (= pc src) (= pc1 dst) rel))
(define-fun init_main ( (pc^0 Loc) (x^0 Int) (y^0 Int) ) Bool (cfg_init pc^0 l0 true))
(define-fun next_main ( (pc^0 Loc) (x^0 Int) (y^0 Int) (pc^post Loc) (x^post Int) (y^post Int) ) Bool
  (or
    (cfg_trans2 pc^0 l0 pc^post l1 (and (= x^post x^0) (= y^post y^0)))
    (cfg_trans2 pc^0 l1 pc^post l1 (exists ((z Int)) (and (> x^0 0) (< z y^0) (= x^post (- x^0 z)) (> y^post y^0))))
  )
)";

    #[test]
    fn relations_become_guards_updates_and_arbitrary_values() {
        let its = parse("t.smt2", SMALL).expect("parses");
        assert_eq!(its.vars, ["x", "y"]);
        assert_eq!(its.locations, ["l0", "l1"]);
        assert_eq!(its.start, 0);
        assert_eq!(its.rules.len(), 2);
        let r = &its.rules[1];
        assert_eq!(r.locals, ["z.exists", "y^post"]);
        assert_eq!(r.updates[0].to_string(), "(- x z.exists)");
        assert_eq!(r.updates[1].to_string(), "y^post");
        assert_eq!(r.guard.to_string(), "(and (> x 0) (< z.exists y) (> y^post y))");
    }

    #[test]
    fn exists_values_and_post_states_fixed_by_equations_are_substituted() {
        // z is fixed by an equation, y^post through it.
        let fixed = SMALL.replace("(< z y^0) (= x^post (- x^0 z)) (> y^post y^0)", "(= y^post (+ z 1)) (= z (- y^0 1)) (= x^post x^0)");
        let its = parse("t.smt2", &fixed).expect("parses");
        let r = &its.rules[1];
        assert!(r.locals.is_empty(), "{:?}", r.locals);
        assert_eq!(r.updates[1].to_string(), "(+ (- y 1) 1)");
        assert_eq!(r.guard.to_string(), "(> x 0)");
    }

    #[test]
    fn an_unknown_location_is_a_located_error() {
        let bad = SMALL.replace("pc^post l1 (and", "pc^post l7 (and");
        let e = parse("t.smt2", &bad).expect_err("rejected");
        assert_eq!(e.exit_code(), 3);
        assert!(e.to_string().starts_with("t.smt2:8:1: syntax error: `l7` is not a declared location"), "{e}");
    }
}
