//! Integer transition systems (the termination competition's ITS
//! category): locations, integer variables and guarded transitions, read
//! from the competition's two forms and turned into the same
//! [`Program`](crate::ir::Program) the C front end builds, so that the
//! whole pipeline (encoding, sampling, ranking synthesis, certificates,
//! NO with a stem and a recurrent set) runs on them unchanged.
//!
//! * [`smtlib`]: the SMT-LIB form used until 2024 (`cfg_init`, `next_main`,
//!   `cfg_trans2`, post-state variables, `exists` in transitions);
//! * [`ari`]: the ARI form used since 2025 (`(format LCTRS)`, `fun`,
//!   `entrypoint`, `rule ... :guard`).
//!
//! Both are read into an [`ItsProblem`]: every rule gives the value of each
//! variable after it as a term over the values before it and the rule's own
//! arbitrary values, and a guard over the same; an arbitrary value that a
//! top-level equation of the guard fixes is replaced by its value, in both
//! forms alike ([`fix_values`]). The question is whether
//! every run from the start location, for all integer values of the
//! variables, terminates. Integers are mathematical.
//!
//! Products of two variables (and division or remainder by a variable) are
//! beyond the linear engines: each becomes an unknown value of the model
//! (`choose`), which keeps YES sound and rules out NO wherever it matters.

pub mod ari;
pub mod smtlib;

use crate::error::{Result, TesseraError};
use crate::ir::{Action, Edge, IntSemantics, IntType, Location, MachineModel, Origin, Program, Span, Variable};
use crate::term::parse::{parse_sexprs_located, Pos, SExpr};
use crate::term::{Op, Sort, Term};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Which of the competition's forms a text is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItsForm {
    SmtLib,
    Ari,
}

/// The form of `text` when it is an integer transition system, decided by
/// content: the SMT-LIB form declares the sort `Loc` and defines
/// `next_main`; the ARI form starts with `(format LCTRS)`.
pub fn form_of(text: &str) -> Option<ItsForm> {
    let head: String = text.lines().map(strip_comment).filter(|l| !l.trim().is_empty()).take(3).collect::<Vec<_>>().join(" ");
    let squeezed: String = head.split_whitespace().collect::<Vec<_>>().join(" ");
    if squeezed.starts_with("(format LCTRS)") {
        return Some(ItsForm::Ari);
    }
    if squeezed.contains("(declare-sort Loc 0)") && text.contains("next_main") && text.contains("cfg_trans2") {
        return Some(ItsForm::SmtLib);
    }
    None
}

fn strip_comment(line: &str) -> &str {
    line.split(';').next().unwrap_or("")
}

/// One transition: from `from` to `to` when `guard` holds; afterwards
/// variable `i` holds `updates[i]`. Both are terms over the variables'
/// values before the step and over `locals`, values the rule may pick
/// freely (an `exists`, a post-state value no equation fixes, a variable
/// only on a rule's right-hand side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub from: usize,
    pub to: usize,
    pub locals: Vec<String>,
    pub guard: Term,
    pub updates: Vec<Term>,
    /// Where the rule is written.
    pub span: Span,
}

/// A whole problem: its variables (by their names in the problem, the
/// names proofs print), its locations, the start and the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItsProblem {
    pub file: String,
    pub vars: Vec<String>,
    pub locations: Vec<String>,
    /// Where each location is declared (what a proof points to).
    pub declared: Vec<Span>,
    pub start: usize,
    pub rules: Vec<Rule>,
}

/// Reads an integer transition system from `path`; `None` when the file is
/// not one (by content), so the caller can read it as C.
pub fn read_file(path: &Path) -> Option<Result<Program>> {
    read_problem(path).map(|p| p.map(|p| lower(&p)))
}

/// The problem in `path`, before it is lowered; `None` when the file is not
/// an integer transition system.
pub fn read_problem(path: &Path) -> Option<Result<ItsProblem>> {
    let text = std::fs::read_to_string(path).ok()?;
    let form = form_of(&text)?;
    Some(parse(&path.display().to_string(), &text, form))
}

/// Parses `text` (in `form`) into a problem.
pub fn parse(file: &str, text: &str, form: ItsForm) -> Result<ItsProblem> {
    match form {
        ItsForm::SmtLib => smtlib::parse(file, text),
        ItsForm::Ari => ari::parse(file, text),
    }
}

/// A syntax error at `line:col` of `file` (exit code 3).
pub(crate) fn syntax(file: &str, line: usize, col: usize, message: impl Into<String>) -> TesseraError {
    TesseraError::syntax(Some(Span { file: file.to_string(), line, col }), message)
}

/// `e` with negative numerals written as one atom (`-1`, as the files
/// made by T2 have them) spelled the SMT-LIB way, `(- 1)`.
fn standard_numerals(e: &SExpr) -> SExpr {
    match e {
        SExpr::Atom(a) if a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit()) => {
            SExpr::List(vec![SExpr::Atom("-".into()), SExpr::Atom(a[1..].to_string())])
        }
        SExpr::List(items) => SExpr::List(items.iter().map(standard_numerals).collect()),
        _ => e.clone(),
    }
}

/// The top-level s-expressions of `text` with where each starts, negative
/// numerals spelled the SMT-LIB way.
pub(crate) fn read_sexprs(file: &str, text: &str) -> Result<Vec<(Pos, SExpr)>> {
    Ok(parse_sexprs_located(text)
        .map_err(|e| sexpr_error(file, e))?
        .into_iter()
        .map(|(p, e)| (p, standard_numerals(&e)))
        .collect())
}

/// Turns an s-expression reader's error (`line N: ...`) into a located one.
fn sexpr_error(file: &str, message: String) -> TesseraError {
    let line = message
        .strip_prefix("line ")
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let text = message.split_once(": ").map(|(_, m)| m.to_string()).unwrap_or(message);
    syntax(file, line, 1, text)
}

/// The values a rule's equations fix. `guard` is read as a conjunction;
/// each top-level conjunct `(= v e)` or `(= e v)` where `v` is one of the
/// rule's `free` values (an arbitrary value: a post-state variable, an
/// `exists`, a variable only on a right-hand side) and `e` does not
/// mention `v` defines `v` as `e`: `v` is replaced by `e` everywhere, and
/// the equation leaves the guard. This is exact (`exists v. v = e and
/// G(v)` is `G(e)`), so a rule with its values written as terms and the
/// same rule with them written as equations of fresh values read the same.
///
/// Definitions resolve through each other (`x2 = x1 + 1`, `x1 = x - 1`
/// give `x2 = x`, `x1 = x - 1`): equations whose `e` mentions no free
/// value are taken first, until none is left, then the others; each
/// conjunct is read with the definitions found so far substituted, and one
/// that would define a value through itself (a cycle) stays in the guard.
/// A value fixed twice keeps the definition found first; the other
/// equation stays in the guard as a condition. Nothing but top-level equations is
/// solved: `(= (+ v 1) e)`, or an equation under `or` or `not`, stays as
/// it is, and so does every free value no equation fixes.
///
/// Returns the definitions (each over the values no equation fixes and
/// the variables, none over another defined value) and the rest of the
/// guard with them substituted. Terms are rebuilt through the simplifying
/// constructors; products and divisions in `e` are left for the lowering
/// to treat as it treats them anywhere else.
pub fn fix_values(guard: &Term, free: &BTreeSet<String>) -> (BTreeMap<String, Term>, Term) {
    let mut defined: BTreeMap<String, Term> = BTreeMap::new();
    let mut rest: Vec<Term> = guard.conjuncts();
    for ground_only in [true, false] {
        loop {
            let mut progress = false;
            let mut kept = Vec::with_capacity(rest.len());
            for c in std::mem::take(&mut rest) {
                let c = if reads(&c, &|n| defined.contains_key(n)) { c.subst(&defined) } else { c };
                match definition(&c, free, ground_only) {
                    Some((v, e)) => {
                        // Definitions taken so far may read `v` (only
                        // those of the second round: the first ones
                        // mention no free value).
                        if !ground_only {
                            let one = BTreeMap::from([(v.clone(), e.clone())]);
                            for d in defined.values_mut().filter(|d| reads(d, &|n| n == v)) {
                                *d = d.subst(&one);
                            }
                        }
                        defined.insert(v, e);
                        progress = true;
                    }
                    None => kept.push(c),
                }
            }
            rest = kept;
            if !progress {
                break;
            }
        }
    }
    let rest: Vec<Term> =
        rest.into_iter().map(|c| if reads(&c, &|n| defined.contains_key(n)) { c.subst(&defined) } else { c }).collect();
    (defined, Term::and(rest))
}

/// Whether `t` has a variable `name` holds of.
fn reads(t: &Term, name: &dyn Fn(&str) -> bool) -> bool {
    match t {
        Term::Var(n, _) => name(n),
        Term::App(_, args) => args.iter().any(|a| reads(a, name)),
        _ => false,
    }
}

/// `c` as a definition `v = e` of a free value `v` not in `e`; with
/// `ground_only`, only when `e` mentions no free value.
fn definition(c: &Term, free: &BTreeSet<String>, ground_only: bool) -> Option<(String, Term)> {
    let Term::App(Op::Eq, args) = c else {
        return None;
    };
    let [a, b] = &args[..] else {
        return None;
    };
    for (x, e) in [(a, b), (b, a)] {
        let Term::Var(v, Sort::Int) = x else {
            continue;
        };
        if !free.contains(v.as_str()) {
            continue;
        }
        if reads(e, &|n| n == v.as_str()) || (ground_only && reads(e, &|n| free.contains(n))) {
            continue;
        }
        return Some((v.to_string(), e.clone()));
    }
    None
}

/// The program of a problem: an entry that gives every variable any value
/// and goes to the start, one location per problem location, one edge per
/// rule (locations copied where the rule graph is irreducible, see
/// [`crate::ir::split`]). The exit is never reached: runs end where no rule
/// applies.
pub fn lower(its: &ItsProblem) -> Program {
    let mut vars: Vec<Variable> = its.vars.iter().map(|v| variable(v, v, Origin::Source)).collect();
    let mut locations = vec![
        Location { span: None, note: "start".into(), function: String::new(), recursion: None },
        Location { span: None, note: "no rule applies".into(), function: String::new(), recursion: None },
    ];
    locations.extend(
        its.locations.iter().zip(&its.declared).map(|(l, at)| Location { span: Some(at.clone()), note: l.clone(), function: String::new(), recursion: None }),
    );
    let at = |l: usize| l + 2;
    let mut edges = vec![Edge { from: 0, to: at(its.start), actions: its.vars.iter().map(|v| Action::Havoc(v.clone())).collect() }];
    let mut taken: BTreeSet<String> = its.vars.iter().cloned().collect();
    for (k, rule) in its.rules.iter().enumerate() {
        edges.push(Edge { from: at(rule.from), to: at(rule.to), actions: rule_actions(its, k, rule, &mut vars, &mut taken) });
    }
    let program = Program {
        file: its.file.clone(),
        vars,
        locations,
        edges,
        entry: 0,
        exit: 1,
        semantics: IntSemantics::Math,
        // No C type occurs in a transition system; the model only names
        // the variables' widest type (their values are unbounded).
        machine: MachineModel::lp64(),
        approximations: Vec::new(),
        forbid_no: Vec::new(),
        undefined: Vec::new(),
        coalesced: Vec::new(),
    };
    // Rule graphs are often irreducible (a location entered both from
    // before a cycle and inside it): split, or keep the program and let
    // the loop finder report it.
    crate::ir::split::make_reducible(program.clone()).unwrap_or(program)
}

/// A variable of the model: integers of an ITS are mathematical, which the
/// widest signed type stands for under [`IntSemantics::Math`]. The
/// problem's variables are its source variables; a rule's arbitrary values
/// and saved old values are the model's temporaries.
fn variable(name: &str, source: &str, origin: Origin) -> Variable {
    Variable { name: name.to_string(), source_name: source.to_string(), ty: IntType::LONG, function: None, origin, renamed: None }
}

/// A name of the model not used yet, made from `base` (the model's own
/// names carry `%`, which no problem name does).
fn fresh(base: &str, taken: &mut BTreeSet<String>) -> String {
    let mut name = format!("{base}%");
    let mut i = 1;
    while taken.contains(&name) {
        i += 1;
        name = format!("{base}%{i}");
    }
    taken.insert(name.clone());
    name
}

/// The actions of rule `k`: its arbitrary values picked, its guard assumed,
/// then the updates as one parallel assignment (an old value that a later
/// update reads is saved first).
fn rule_actions(its: &ItsProblem, k: usize, rule: &Rule, vars: &mut Vec<Variable>, taken: &mut BTreeSet<String>) -> Vec<Action> {
    let mut actions = Vec::new();
    let mut renaming: BTreeMap<String, Term> = BTreeMap::new();
    for l in &rule.locals {
        let name = fresh(&format!("{l}.r{k}"), taken);
        vars.push(variable(&name, l, Origin::Temporary));
        actions.push(Action::Havoc(name.clone()));
        renaming.insert(l.clone(), Term::var(name));
    }
    let mut unknown = Vec::new();
    let guard = abstract_nonlinear(&rule.guard.subst(&renaming), k, vars, taken, &mut unknown);
    let updates: Vec<Term> =
        rule.updates.iter().map(|u| abstract_nonlinear(&u.subst(&renaming), k, vars, taken, &mut unknown)).collect();
    actions.extend(unknown.into_iter().map(Action::Choose));
    if guard != Term::tt() {
        actions.push(Action::Assume(guard));
    }
    let changed: Vec<usize> = (0..its.vars.len()).filter(|&i| updates[i] != Term::var(its.vars[i].clone())).collect();
    // Old values read by an update of another variable.
    let mut saved: BTreeMap<String, Term> = BTreeMap::new();
    for &i in &changed {
        let v = &its.vars[i];
        let read_by_other = changed.iter().any(|&j| j != i && updates[j].free_vars().iter().any(|d| &d.name == v));
        if read_by_other {
            let old = fresh(&format!("{v}.old"), taken);
            vars.push(variable(&old, v, Origin::Temporary));
            actions.push(Action::Assign(old.clone(), Term::var(v.clone())));
            saved.insert(v.clone(), Term::var(old));
        }
    }
    for &i in &changed {
        actions.push(Action::Assign(its.vars[i].clone(), updates[i].subst(&saved)));
    }
    actions
}

/// `t` with every product of two non-constant terms, and every division or
/// remainder by a non-constant, replaced by a fresh unknown value (pushed
/// to `unknown`): the engines are linear.
fn abstract_nonlinear(t: &Term, k: usize, vars: &mut Vec<Variable>, taken: &mut BTreeSet<String>, unknown: &mut Vec<String>) -> Term {
    match t {
        Term::App(op, args) => {
            let args: Vec<Term> = args.iter().map(|a| abstract_nonlinear(a, k, vars, taken, unknown)).collect();
            let constant = |a: &Term| matches!(a, Term::Int(_));
            let nonlinear = match op {
                Op::Mul => args.iter().filter(|a| !constant(a)).count() > 1,
                Op::Div | Op::Mod => args.iter().skip(1).any(|a| !constant(a)),
                _ => false,
            };
            if nonlinear {
                let name = fresh(&format!("nonlinear.r{k}"), taken);
                vars.push(variable(&name, "nonlinear", Origin::Temporary));
                unknown.push(name.clone());
                return Term::Var(name.into(), Sort::Int);
            }
            Term::rebuild(*op, args)
        }
        _ => t.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A problem over `x` and `y` with one location and one rule.
    fn one_rule(guard: Term, updates: Vec<Term>) -> ItsProblem {
        ItsProblem {
            file: "t".into(),
            vars: vec!["x".into(), "y".into()],
            locations: vec!["l".into()],
            declared: vec![Span::default()],
            start: 0,
            rules: vec![Rule { from: 0, to: 0, locals: vec![], guard, updates, span: Span::default() }],
        }
    }

    /// `fix_values` on a guard written in SMT-LIB over `x`, `y` (the
    /// variables) and `free` (the rule's arbitrary values): the definitions
    /// and the rest of the guard, as text.
    fn fixed(guard: &str, free: &[&str]) -> (Vec<String>, String) {
        let env: BTreeMap<String, Sort> = ["x", "y"].iter().chain(free).map(|n| (n.to_string(), Sort::Int)).collect();
        let g = crate::term::parse::parse_term(guard, &env).expect("a term").rebuilt();
        let free: BTreeSet<String> = free.iter().map(|s| s.to_string()).collect();
        let (defined, rest) = fix_values(&g, &free);
        (defined.iter().map(|(v, e)| format!("{v} = {e}")).collect(), rest.to_string())
    }

    /// A term over `x` and `y` as the simplifying constructors build it.
    fn simplified(t: &str) -> String {
        fixed(t, &[]).1
    }

    #[test]
    fn equations_of_free_values_are_substituted() {
        // Both orientations; the rest of the guard keeps the other conjuncts.
        let (d, rest) = fixed("(and (> x 0) (= x1 (- x 1)) (= (+ y 2) y1))", &["x1", "y1"]);
        assert_eq!(d, ["x1 = (- x 1)", "y1 = (+ y 2)"]);
        assert_eq!(rest, "(> x 0)");
        // A free value in the rest of the guard is replaced there too.
        let (d, rest) = fixed("(and (= x1 (- x 1)) (> x1 y))", &["x1"]);
        assert_eq!(d, ["x1 = (- x 1)"]);
        assert_eq!(rest, simplified("(> (- x 1) y)"));
    }

    #[test]
    fn chains_of_equations_resolve() {
        // x2 is defined through x1, written before x1's equation.
        let (d, rest) = fixed("(and (> x 0) (= x2 (+ x1 1)) (= x1 (- x 2)))", &["x1", "x2"]);
        assert_eq!(d, ["x1 = (- x 2)".to_string(), format!("x2 = {}", simplified("(+ (- x 2) 1)"))]);
        assert_eq!(rest, "(> x 0)");
        // Through free values only: both end over the variables.
        let (d, _) = fixed("(and (= a b) (= b (+ x y)))", &["a", "b"]);
        assert_eq!(d, ["a = (+ x y)", "b = (+ x y)"]);
    }

    #[test]
    fn only_top_level_equations_of_free_values_define_them() {
        // x is a variable of the problem, not a free value.
        assert_eq!(fixed("(= x (+ y 1))", &[]), (vec![], "(= x (+ y 1))".to_string()));
        // An equation under `or` or `not`, or with the value inside a term.
        assert_eq!(fixed("(or (= z x) (= z y))", &["z"]).0, Vec::<String>::new());
        assert_eq!(fixed("(not (= z x))", &["z"]).0, Vec::<String>::new());
        assert_eq!(fixed("(= (+ z 1) x)", &["z"]).0, Vec::<String>::new());
        // A value defined through itself stays a condition on it.
        assert_eq!(fixed("(= z (+ (* 2 z) x))", &["z"]).0, Vec::<String>::new());
        // A cycle: one equation defines, the other stays in the guard.
        let (d, rest) = fixed("(and (= a (+ b 1)) (= b (- a 2)))", &["a", "b"]);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_ne!(rest, "true");
        // A value fixed twice: the second equation is a condition.
        let (d, rest) = fixed("(and (= z (+ x 1)) (= z y))", &["z"]);
        assert_eq!(d, ["z = (+ x 1)"]);
        assert_eq!(rest, simplified("(= (+ x 1) y)"));
    }

    #[test]
    fn forms_are_recognized_by_content() {
        assert_eq!(form_of("; a comment\n(format LCTRS)\n(theory Ints)\n"), Some(ItsForm::Ari));
        assert_eq!(form_of("(declare-sort Loc 0)\n(define-fun next_main () Bool (cfg_trans2 a b c d true))"), Some(ItsForm::SmtLib));
        assert_eq!(form_of("int main(void) { return 0; }"), None);
        assert_eq!(form_of("(set-logic HORN)\n(declare-fun inv (Int) Bool)"), None);
    }

    #[test]
    fn a_parallel_update_saves_the_old_value_it_reads() {
        let its = one_rule(Term::gt(Term::var("x"), Term::int(0)), vec![Term::var("y"), Term::var("x")]);
        let p = lower(&its);
        let swap = &p.edges[1].actions;
        let text: Vec<String> = swap.iter().map(|a| a.to_string()).collect();
        assert_eq!(text, ["assume (> x 0)", "x.old% := x", "y.old% := y", "x := y.old%", "y := x.old%"], "{text:?}");
    }

    #[test]
    fn products_of_variables_become_unknown_values() {
        let guard = Term::gt(Term::mul(Term::var("x"), Term::var("y")), Term::int(0));
        let its = one_rule(guard, vec![Term::sub(Term::var("x"), Term::int(1)), Term::var("y")]);
        let p = lower(&its);
        assert!(p.edges[1].actions.iter().any(|a| matches!(a, Action::Choose(_))), "{:?}", p.edges[1].actions);
    }
}
