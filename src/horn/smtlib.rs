//! SMT-LIB2 `(set-logic HORN)`: the printer (one readable block per clause,
//! accepted by Z3 and other CHC solvers) and a parser for the CHC-COMP
//! dialect.
//!
//! Printing then parsing gives back the same [`System`] (predicates with their
//! sorts, clause variables, body, constraint, head); labels and comments are
//! not kept, and predicate parameters are renamed `P_0, P_1, ...` because
//! `declare-fun` carries sorts only.

use super::{Clause, PredApp, PredId, Predicate, System};
use crate::term::parse::{Pos, SExpr, TermReader, TopLevel};
use crate::term::{smt_symbol, write_symbol, Op, Sort, Term, VarDecl};
use std::collections::BTreeMap;
use std::fmt;

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_preamble(f, self)?;
        for c in &self.clauses {
            writeln!(f)?;
            write_clause(f, self, c)?;
        }
        write_postamble(f)
    }
}

/// Writes `system`'s text (as its `Display` does) with `clauses` after
/// its own, each written as it comes and then dropped: `emit` writes the
/// clauses of a large program (gigabytes of text) this way instead of
/// holding them all.
pub fn write_streamed(w: &mut dyn std::io::Write, system: &System, clauses: impl Iterator<Item = Clause>) -> std::io::Result<()> {
    struct Preamble<'a>(&'a System);
    impl fmt::Display for Preamble<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_preamble(f, self.0)
        }
    }
    struct Text<'a>(&'a System, &'a Clause);
    impl fmt::Display for Text<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            writeln!(f)?;
            write_clause(f, self.0, self.1)
        }
    }
    struct Postamble;
    impl fmt::Display for Postamble {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_postamble(f)
        }
    }
    // Each part is formatted into one reused string and written whole:
    // formatting straight into `w` took a call through the writer for
    // every parenthesis and name (slower than the strings of old on
    // clauses of many small conjuncts).
    let mut text = String::new();
    let mut put = |part: &dyn fmt::Display| {
        use std::fmt::Write as _;
        text.clear();
        // Formatting into a string cannot fail.
        let _ = write!(text, "{part}");
        w.write_all(text.as_bytes())
    };
    put(&Preamble(system))?;
    for c in system.clauses.iter() {
        put(&Text(system, c))?;
    }
    for c in clauses {
        put(&Text(system, &c))?;
    }
    put(&Postamble)
}

/// The logic, the comments and the predicate declarations.
fn write_preamble(f: &mut fmt::Formatter<'_>, system: &System) -> fmt::Result {
    writeln!(f, "(set-logic HORN)")?;
    for c in &system.comments {
        write_comment(f, "", c)?;
    }
    writeln!(f)?;
    for p in &system.preds {
        write!(f, "(declare-fun {} (", smt_symbol(&p.name))?;
        for (i, v) in p.params.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", v.sort)?;
        }
        writeln!(f, ") Bool)")?;
    }
    Ok(())
}

fn write_postamble(f: &mut fmt::Formatter<'_>) -> fmt::Result {
    writeln!(f)?;
    writeln!(f, "(check-sat)")?;
    writeln!(f, "(exit)")
}

fn write_comment(f: &mut fmt::Formatter<'_>, indent: &str, text: &str) -> fmt::Result {
    for line in text.lines() {
        writeln!(f, "{indent}; {line}")?;
    }
    Ok(())
}

/// A predicate application as SMT-LIB text; nullary predicates are written
/// without parentheses, as SMT-LIB requires for constants.
pub fn pred_app_text(system: &System, app: &PredApp) -> String {
    struct Text<'a>(&'a System, &'a PredApp);
    impl fmt::Display for Text<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_pred_app(f, self.0, self.1)
        }
    }
    Text(system, app).to_string()
}

/// Writes `app` as [`pred_app_text`] spells it, straight to `f`: printing
/// a large system made a string of every application first (on a driver
/// model of 1300 live variables, gigabytes of clauses went through such
/// strings twice).
fn write_pred_app(f: &mut fmt::Formatter<'_>, system: &System, app: &PredApp) -> fmt::Result {
    let bare = app.args.is_empty();
    if !bare {
        f.write_str("(")?;
    }
    match system.preds.get(app.pred) {
        Some(p) => write_symbol(f, &p.name)?,
        None => write!(f, "|?{}|", app.pred)?,
    }
    for a in &app.args {
        f.write_str(" ")?;
        fmt::Display::fmt(a, f)?;
    }
    if !bare {
        f.write_str(")")?;
    }
    Ok(())
}

fn write_clause(f: &mut fmt::Formatter<'_>, system: &System, c: &Clause) -> fmt::Result {
    if !c.label.is_empty() {
        write_comment(f, "", &c.label)?;
    }
    // Body items: predicate applications first, then the constraint; a
    // conjunction is spread one conjunct per line (the parser puts it back
    // together as the same `and`). Each is written as it comes, not
    // gathered into strings first.
    let conjuncts: &[Term] = match &c.constraint {
        Term::App(Op::And, cs) if cs.len() >= 2 => cs,
        Term::Bool(true) if !c.body.is_empty() => &[],
        t => std::slice::from_ref(t),
    };
    let ind = if c.vars.is_empty() {
        f.write_str("(assert\n")?;
        "  "
    } else {
        f.write_str("(assert\n  (forall (")?;
        for (i, v) in c.vars.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str("(")?;
            write_symbol(f, &v.name)?;
            write!(f, " {})", v.sort)?;
        }
        f.write_str(")\n")?;
        "    "
    };
    writeln!(f, "{ind}(=>")?;
    let one = c.body.len() + conjuncts.len() == 1;
    let item_ind = if one { "  " } else { "    " };
    if !one {
        writeln!(f, "{ind}  (and")?;
    }
    for a in &c.body {
        write!(f, "{ind}{item_ind}")?;
        write_pred_app(f, system, a)?;
        writeln!(f)?;
    }
    for t in conjuncts {
        writeln!(f, "{ind}{item_ind}{t}")?;
    }
    if !one {
        writeln!(f, "{ind}  )")?;
    }
    write!(f, "{ind}  ")?;
    match &c.head {
        Some(h) => write_pred_app(f, system, h)?,
        None => f.write_str("false")?,
    }
    writeln!(f, "{}", if c.vars.is_empty() { "))" } else { ")))" })
}

/// A syntax error with the position of the command it is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HornSyntaxError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl fmt::Display for HornSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Parse a `(set-logic HORN)` file. Errors read `line N: ...`.
pub fn parse_system(text: &str) -> Result<System, String> {
    parse_system_located(text).map_err(|e| e.to_string())
}

/// Parse a `(set-logic HORN)` file, errors with line and column.
pub fn parse_system_located(text: &str) -> Result<System, HornSyntaxError> {
    let lexical = |m: String| {
        // The lexer's messages start with `line N: `.
        let line = m.strip_prefix("line ").and_then(|r| r.split(':').next()).and_then(|n| n.parse().ok()).unwrap_or(1);
        let message = m.split_once(": ").map(|(_, r)| r.to_string()).unwrap_or(m.clone());
        HornSyntaxError { line, col: 1, message }
    };
    let mut system = System::default();
    // One command at a time: its expression tree is dropped once it is a
    // clause (the whole file's trees took 285 MB of a 22 MB file's 600).
    for command in TopLevel::new(text) {
        let (pos, cmd) = command.map_err(lexical)?;
        let (pos, cmd) = (&pos, &cmd);
        let err = |message: String| HornSyntaxError { line: pos.line, col: pos.col, message };
        let Some((head, args)) = cmd.app() else {
            return Err(err(format!("expected a command, got {}", short(cmd))));
        };
        match head {
            "set-logic" | "set-info" | "set-option" | "check-sat" | "exit" | "get-model" | "get-info" | "get-proof"
            | "push" | "pop" => {}
            "declare-fun" => declare_fun(&mut system, args).map_err(err)?,
            "assert" => {
                let [body] = args else {
                    return Err(err("assert takes one formula".into()));
                };
                let clause = clause_of_assertion(&system, body, *pos).map_err(err)?;
                system.clauses.push(clause);
            }
            _ => return Err(err(format!("unsupported command {head} in a HORN file"))),
        }
    }
    Ok(system)
}

/// The first characters of an expression, for messages.
fn short(e: &SExpr) -> String {
    let s = e.to_string();
    if s.chars().count() > 80 {
        format!("{}...", s.chars().take(77).collect::<String>())
    } else {
        s
    }
}

fn sort_of(e: &SExpr) -> Result<Sort, String> {
    match e.symbol() {
        Some("Int") => Ok(Sort::Int),
        Some("Bool") => Ok(Sort::Bool),
        _ => Err(format!("unsupported sort {e} (only Int and Bool)")),
    }
}

fn declare_fun(system: &mut System, args: &[SExpr]) -> Result<(), String> {
    let [name, params, ret] = args else {
        return Err("declare-fun takes a name, argument sorts and a result sort".into());
    };
    let name = name.symbol().ok_or_else(|| format!("bad predicate name {name}"))?;
    if sort_of(ret)? != Sort::Bool {
        return Err(format!("declare-fun {name}: only predicates (result sort Bool) can be declared in a HORN file"));
    }
    if system.pred_by_name(name).is_some() {
        return Err(format!("predicate {name} declared twice"));
    }
    let sorts = params.list().ok_or_else(|| format!("declare-fun {name}: argument sorts must be a list"))?;
    let params = sorts
        .iter()
        .enumerate()
        .map(|(i, s)| Ok(VarDecl::new(format!("{name}_{i}"), sort_of(s)?)))
        .collect::<Result<Vec<_>, String>>()?;
    system.add_pred(name, params);
    Ok(())
}

/// Builds one clause out of an assertion.
struct ClauseBuilder<'s> {
    system: &'s System,
    body: Vec<PredApp>,
    constraint: Vec<Term>,
    head: Option<PredApp>,
}

fn clause_of_assertion(system: &System, e: &SExpr, pos: Pos) -> Result<Clause, String> {
    // Nested quantifier prefixes merge into one list of clause variables.
    let mut vars: Vec<VarDecl> = Vec::new();
    let mut matrix = e;
    while let Some(("forall", [bindings, inner])) = matrix.app() {
        let list = bindings.list().ok_or_else(|| format!("forall: bad bindings {}", short(bindings)))?;
        for b in list {
            let Some([name, sort]) = b.list() else {
                return Err(format!("forall: bad binding {b}"));
            };
            let name = name.symbol().ok_or_else(|| format!("forall: bad variable name {name}"))?;
            if vars.iter().any(|v| v.name == name) {
                return Err(format!("variable {name} is bound twice in one clause"));
            }
            vars.push(VarDecl::new(name, sort_of(sort)?));
        }
        matrix = inner;
    }
    if matches!(matrix.app(), Some(("exists", _))) {
        return Err("exists in a clause is not supported".into());
    }
    let env: BTreeMap<String, Sort> = vars.iter().map(|v| (v.name.clone(), v.sort)).collect();
    let reader = TermReader::new(&env);
    let mut b = ClauseBuilder { system, body: Vec::new(), constraint: Vec::new(), head: None };
    b.head(matrix, &reader)?;
    let constraint = match b.constraint.len() {
        0 => Term::tt(),
        1 => b.constraint.pop().unwrap_or_else(Term::tt),
        _ => Term::app(Op::And, b.constraint),
    };
    Ok(Clause { vars, body: b.body, constraint, head: b.head, label: format!("assert at line {}", pos.line) })
}

impl ClauseBuilder<'_> {
    /// The predicate an expression applies, if it is an application of a
    /// declared predicate (a bare symbol for nullary ones).
    fn pred_of<'e>(&self, e: &'e SExpr, r: &TermReader) -> Option<(PredId, &'e [SExpr])> {
        match e {
            SExpr::Atom(s) | SExpr::Quoted(s) if !r.binds(s) => {
                self.system.pred_by_name(s).map(|p| (p, &[] as &[SExpr]))
            }
            SExpr::List(items) => {
                let (h, args) = items.split_first()?;
                let name = h.symbol()?;
                self.system.pred_by_name(name).map(|p| (p, args))
            }
            _ => None,
        }
    }

    /// Whether a predicate occurs anywhere in `e`.
    fn mentions_pred(&self, e: &SExpr, r: &TermReader) -> bool {
        match e {
            SExpr::Atom(s) | SExpr::Quoted(s) => !r.binds(s) && self.system.pred_by_name(s).is_some(),
            SExpr::List(items) => items.iter().any(|i| self.mentions_pred(i, r)),
            SExpr::Str(_) => false,
        }
    }

    fn pred_app(&self, p: PredId, args: &[SExpr], r: &TermReader) -> Result<PredApp, String> {
        let pred: &Predicate = &self.system.preds[p];
        if args.len() != pred.params.len() {
            return Err(format!(
                "predicate {} takes {} argument(s), applied to {}",
                pred.name,
                pred.params.len(),
                args.len()
            ));
        }
        let mut out = Vec::with_capacity(args.len());
        for (a, param) in args.iter().zip(&pred.params) {
            let t = r.term(a)?;
            if t.sort() != param.sort {
                return Err(format!("predicate {}: argument {} should have sort {}", pred.name, short(a), param.sort));
            }
            out.push(t);
        }
        Ok(PredApp { pred: p, args: out })
    }

    fn constraint_term(&self, e: &SExpr, r: &TermReader) -> Result<Term, String> {
        let t = r.term(e)?;
        if t.sort() != Sort::Bool {
            return Err(format!("constraint {} is not Boolean", short(e)));
        }
        Ok(t)
    }

    /// Read what is implied (the head side of a clause).
    fn head(&mut self, e: &SExpr, r: &TermReader) -> Result<(), String> {
        if let Some((p, args)) = self.pred_of(e, r) {
            let app = self.pred_app(p, args, r)?;
            return self.set_head(app);
        }
        match e.app() {
            Some(("=>", args)) if args.len() >= 2 => {
                let (last, premises) = args.split_last().ok_or("empty =>")?;
                for p in premises {
                    self.body_item(p, r)?;
                }
                self.head(last, r)
            }
            Some(("let", [bindings, inner])) => {
                let r2 = r.enter_let(bindings)?;
                self.head(inner, &r2)
            }
            Some(("not", [inner])) => self.body_item(inner, r),
            Some(("or", lits)) if self.mentions_pred(e, r) => {
                // A clause written as a disjunction of literals.
                for l in lits {
                    match l.app() {
                        Some(("not", [inner])) => self.body_item(inner, r)?,
                        _ => self.head(l, r)?,
                    }
                }
                Ok(())
            }
            Some(("forall", _)) | Some(("exists", _)) => {
                Err("quantifier in the head of a clause is not supported".into())
            }
            _ if self.mentions_pred(e, r) => {
                Err(format!("head {} is not a predicate application (not a Horn clause)", short(e)))
            }
            _ => {
                // `body => phi` is `body /\ not phi => false`.
                let t = self.constraint_term(e, r)?;
                if t != Term::ff() {
                    self.constraint.push(Term::app(Op::Not, vec![t]));
                }
                Ok(())
            }
        }
    }

    fn set_head(&mut self, app: PredApp) -> Result<(), String> {
        if self.head.is_some() {
            return Err("clause with two head predicates (not a Horn clause)".into());
        }
        self.head = Some(app);
        Ok(())
    }

    /// Read one conjunct of the body.
    fn body_item(&mut self, e: &SExpr, r: &TermReader) -> Result<(), String> {
        if let Some((p, args)) = self.pred_of(e, r) {
            let app = self.pred_app(p, args, r)?;
            self.body.push(app);
            return Ok(());
        }
        if !self.mentions_pred(e, r) {
            let t = self.constraint_term(e, r)?;
            self.constraint.push(t);
            return Ok(());
        }
        match e.app() {
            Some(("and", items)) => items.iter().try_for_each(|i| self.body_item(i, r)),
            Some(("let", [bindings, inner])) => {
                let r2 = r.enter_let(bindings)?;
                self.body_item(inner, &r2)
            }
            _ => Err(format!("predicate under {} in a clause body (not a Horn clause)", short(e))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Term;
    use std::path::{Path, PathBuf};

    /// Equality up to what the text format does not keep: labels, comments
    /// and predicate parameter names.
    pub(crate) fn same_system(a: &System, b: &System) -> Result<(), String> {
        if a.preds.len() != b.preds.len() {
            return Err(format!("{} vs {} predicates", a.preds.len(), b.preds.len()));
        }
        for (p, q) in a.preds.iter().zip(&b.preds) {
            let sa: Vec<Sort> = p.params.iter().map(|v| v.sort).collect();
            let sb: Vec<Sort> = q.params.iter().map(|v| v.sort).collect();
            if p.name != q.name || sa != sb {
                return Err(format!("predicate {} {:?} vs {} {:?}", p.name, sa, q.name, sb));
            }
        }
        if a.clauses.len() != b.clauses.len() {
            return Err(format!("{} vs {} clauses", a.clauses.len(), b.clauses.len()));
        }
        for (i, (c, d)) in a.clauses.iter().zip(&b.clauses).enumerate() {
            if c.vars != d.vars || c.body != d.body || c.constraint != d.constraint || c.head != d.head {
                return Err(format!("clause {i} differs:\n{c:?}\n{d:?}"));
            }
        }
        Ok(())
    }

    fn counter_system() -> System {
        let mut s = System::default();
        s.comments.push("a counter loop\nover two lines".into());
        let inv = s.add_pred("inv", vec![VarDecl::int("x"), VarDecl::int("n")]);
        let done = s.add_pred("done", vec![]);
        let flag = s.add_pred("odd name", vec![VarDecl::new("b", Sort::Bool)]);
        let (x, n, x1) = (Term::var("x"), Term::var("n"), Term::var("x'"));
        s.clauses.push(Clause {
            vars: vec![VarDecl::int("x"), VarDecl::int("n")],
            body: vec![],
            constraint: Term::and(vec![Term::eq(x.clone(), Term::int(0)), Term::ge(n.clone(), Term::int(0))]),
            head: Some(PredApp { pred: inv, args: vec![x.clone(), n.clone()] }),
            label: "entry".into(),
        });
        s.clauses.push(Clause {
            vars: vec![VarDecl::int("x"), VarDecl::int("n"), VarDecl::int("x'")],
            body: vec![PredApp { pred: inv, args: vec![x.clone(), n.clone()] }],
            constraint: Term::and(vec![
                Term::lt(x.clone(), n.clone()),
                Term::eq(x1.clone(), Term::add(vec![x.clone(), Term::int(1)])),
            ]),
            head: Some(PredApp { pred: inv, args: vec![x1, n.clone()] }),
            label: "loop".into(),
        });
        // A fact without variables, a nullary head and a query with no constraint.
        s.clauses.push(Clause {
            vars: vec![],
            body: vec![],
            constraint: Term::tt(),
            head: Some(PredApp { pred: flag, args: vec![Term::tt()] }),
            label: String::new(),
        });
        s.clauses.push(Clause {
            vars: vec![VarDecl::int("x"), VarDecl::int("n")],
            body: vec![PredApp { pred: inv, args: vec![x.clone(), n.clone()] }],
            constraint: Term::gt(x.clone(), n.clone()),
            head: Some(PredApp { pred: done, args: vec![] }),
            label: "exit".into(),
        });
        s.clauses.push(Clause {
            vars: vec![],
            body: vec![PredApp { pred: done, args: vec![] }, PredApp { pred: flag, args: vec![Term::ff()] }],
            constraint: Term::tt(),
            head: None,
            label: "error".into(),
        });
        s
    }

    #[test]
    fn prints_readable_horn_text() {
        let text = counter_system().to_string();
        let expected_loop = "; loop\n(assert\n  (forall ((x Int) (n Int) (|x'| Int))\n    (=>\n      (and\n        (inv x n)\n        (< x n)\n        (= |x'| (+ x 1))\n      )\n      (inv |x'| n))))\n";
        assert!(text.contains(expected_loop), "{text}");
        assert!(text.starts_with("(set-logic HORN)\n; a counter loop\n; over two lines\n"), "{text}");
        assert!(text.contains("(declare-fun done () Bool)"), "{text}");
        assert!(text.contains("(assert\n  (=>\n    true\n    (|odd name| true)))"), "{text}");
        assert!(text.contains("      done)))"), "{text}");
        assert!(text.ends_with("(check-sat)\n(exit)\n"), "{text}");
    }

    #[test]
    fn round_trips_a_built_system() {
        let s = counter_system();
        let back = parse_system(&s.to_string()).expect("parses");
        same_system(&s, &back).expect("same system");
        // And a second round is textually stable up to labels.
        let again = parse_system(&back.to_string()).expect("parses");
        same_system(&back, &again).expect("stable");
    }

    #[test]
    fn reads_chc_comp_shapes() {
        let text = r#"
            (set-logic HORN) (set-info :status sat) (set-option :produce-models true)
            (declare-fun |P| (Int Int) Bool)
            (declare-fun Q () Bool)
            (assert (forall ((A Int) (B Int)) (=> (and (= A 0) (= B 1)) (P A B))))
            (assert (forall ((A Int)) (forall ((B Int) (C Int))
               (=> (and (P A B) (let ((a!1 (+ A 1))) (and (P a!1 C) (= C (* 2 a!1))))) (P C A)))))
            (assert (forall ((A Int) (B Int)) (not (and (P A B) (< A 0)))))
            (assert (forall ((A Int) (B Int)) (=> (P A B) (=> (> B 3) Q))))
            (assert (=> Q false))
            (assert (forall ((A Int) (B Int)) (or (not (P A B)) (>= B 0))))
            (check-sat) (get-model) (exit)
        "#;
        let s = parse_system(text).expect("parses");
        assert_eq!(s.preds.len(), 2);
        assert_eq!(s.preds[0].params, vec![VarDecl::int("P_0"), VarDecl::int("P_1")]);
        assert_eq!(s.clauses.len(), 6);
        let c = &s.clauses[1];
        assert_eq!(c.vars.len(), 3);
        assert_eq!(c.body.len(), 2);
        assert_eq!(c.body[1].args[0].to_string(), "(+ A 1)");
        assert_eq!(c.constraint.to_string(), "(= C (* 2 (+ A 1)))");
        assert_eq!(c.head.as_ref().map(|h| h.pred), Some(0));
        assert!(s.clauses[2].is_query());
        assert_eq!(s.clauses[2].constraint.to_string(), "(< A 0)");
        assert_eq!(s.clauses[3].head.as_ref().map(|h| h.pred), Some(1));
        assert_eq!(s.clauses[3].constraint.to_string(), "(> B 3)");
        assert!(s.clauses[4].is_query() && s.clauses[4].body.len() == 1);
        // `P => B >= 0` becomes the query `P /\ not (B >= 0) => false`.
        assert!(s.clauses[5].is_query());
        assert_eq!(s.clauses[5].constraint.to_string(), "(not (>= B 0))");
        let back = parse_system(&s.to_string()).expect("reparses");
        same_system(&s, &back).expect("round trip");
    }

    #[test]
    fn rejects_non_horn_and_bad_input_with_lines() {
        let bad = [
            (
                "(declare-fun P (Int) Bool)\n(assert (forall ((x Int)) (=> (P x) (and (P x) (P x)))))",
                2,
                "not a predicate",
            ),
            (
                "(declare-fun P (Int) Bool)\n\n(assert (forall ((x Int)) (=> (or (P x) (> x 0)) false)))",
                3,
                "not a Horn",
            ),
            ("(declare-fun P (Int) Bool)\n(assert (forall ((x Int)) (=> (P x x) false)))", 2, "takes 1 argument"),
            ("(declare-fun P (Real) Bool)", 1, "unsupported sort"),
            ("(declare-fun P (Int) Bool)\n(assert (forall ((x Int)) (=> (P y) false)))", 2, "unknown symbol y"),
            ("(declare-fun P (Int) Bool)\n(assert (forall ((x Int)) (=> (P x) false))", 2, "never closed"),
            ("(declare-const x Int)", 1, "unsupported command"),
        ];
        for (text, line, what) in bad {
            let e = parse_system_located(text).expect_err(text);
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.message.contains(what), "{text}: {e}");
        }
    }

    pub(crate) fn bench_files() -> Vec<PathBuf> {
        fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
            let Ok(rd) = std::fs::read_dir(dir) else { return };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "smt2") {
                    out.push(p);
                }
            }
        }
        let mut out = Vec::new();
        // The shared benchmarks sit beside the repository (../shared).
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/chc");
        assert!(root.is_dir(), "{} is missing: the shared benchmarks belong beside the repository", root.display());
        walk(&root, &mut out);
        out.sort();
        out
    }

    #[test]
    fn round_trips_every_benchmark_file() {
        let files = bench_files();
        assert!(files.len() >= 50, "only {} CHC benchmark files found", files.len());
        let mut failures = Vec::new();
        for f in &files {
            let text = std::fs::read_to_string(f).expect("benchmark readable");
            let result = parse_system(&text).and_then(|s| {
                let back = parse_system(&s.to_string()).map_err(|e| format!("reparse: {e}"))?;
                same_system(&s, &back)?;
                if s.clauses.iter().all(|c| !c.is_query()) {
                    return Err("no query clause".into());
                }
                Ok(())
            });
            if let Err(e) = result {
                failures.push(format!("{}: {e}", f.display()));
            }
        }
        assert!(failures.is_empty(), "{} of {} files failed:\n{}", failures.len(), files.len(), failures.join("\n"));
        assert!(files.len() >= 100, "expected the 100 benchmark files, found {}", files.len());
    }

    /// Runs the `z3` binary on a printed system; an error message when z3
    /// rejects the text.
    fn z3_accepts(text: &str, name: &str) -> Result<(), String> {
        // One folder per call: tests run on parallel threads.
        let dir = std::env::temp_dir().join(format!("tessera-smtlib-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let path = dir.join(name);
        // Ask only for a parse: `(check-sat)` could take long on hard files.
        let text = text.replace("(check-sat)", "");
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
        let out = std::process::Command::new("z3")
            .arg("-T:5")
            .arg(&path)
            .output()
            .map_err(|e| format!("cannot run the z3 binary (install it: apt-get install -y z3): {e}"))?;
        let _ = std::fs::remove_dir_all(&dir);
        let stdout = String::from_utf8_lossy(&out.stdout);
        if stdout.contains("error") || !out.status.success() {
            return Err(format!("z3 rejects {name}: {stdout}{}", String::from_utf8_lossy(&out.stderr)));
        }
        Ok(())
    }

    #[test]
    fn z3_binary_accepts_printed_files() {
        let mut failures = Vec::new();
        if let Err(e) = z3_accepts(&counter_system().to_string(), "counter.smt2") {
            failures.push(e);
        }
        for (i, f) in bench_files().iter().enumerate() {
            let Ok(text) = std::fs::read_to_string(f) else { continue };
            let Ok(s) = parse_system(&text) else { continue };
            if let Err(e) = z3_accepts(&s.to_string(), &format!("bench{i}.smt2")) {
                failures.push(format!("{}: {e}", f.display()));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
