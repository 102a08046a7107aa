//! SMT-LIB2 s-expressions and terms: reads CHC-COMP files (through
//! `horn::smtlib`), formulas printed by Z3 (`to_string()` of ASTs, models,
//! Spacer invariants) and anything our own `Display` prints.
//!
//! Terms are built to mirror the text (`(+ a b c)` stays one n-ary sum), so
//! that printing a term and parsing it again gives the same term. Only the
//! shapes our `Term` cannot hold directly are rewritten: chains of
//! comparisons, `distinct`, `xor`, `abs`, n-ary `-`, `*` and `=>`, `let`
//! (expanded by substitution) and negative numerals `(- 5)`.

use super::{Op, Sort, Term};
use num_bigint::BigInt;
use std::collections::BTreeMap;
use std::fmt;

/// An s-expression. Symbols written `|like this|` are kept apart from plain
/// atoms so that `|5|` is never mistaken for a numeral.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SExpr {
    /// A plain symbol, keyword (`:named`) or numeral, as written.
    Atom(String),
    /// A `|quoted|` symbol, without the bars.
    Quoted(String),
    /// A string literal, without the quotes (`""` unescaped to `"`).
    Str(String),
    List(Vec<SExpr>),
}

impl SExpr {
    /// The symbol this expression names, quoted or not (numerals and
    /// keywords included: callers decide what a symbol may be).
    pub fn symbol(&self) -> Option<&str> {
        match self {
            SExpr::Atom(s) | SExpr::Quoted(s) => Some(s),
            _ => None,
        }
    }
    pub fn list(&self) -> Option<&[SExpr]> {
        match self {
            SExpr::List(v) => Some(v),
            _ => None,
        }
    }
    /// `(head args...)` with a plain-symbol head.
    pub fn app(&self) -> Option<(&str, &[SExpr])> {
        match self {
            SExpr::List(v) => match v.first() {
                Some(SExpr::Atom(h)) => Some((h.as_str(), &v[1..])),
                _ => None,
            },
            _ => None,
        }
    }
}

impl fmt::Display for SExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SExpr::Atom(s) => write!(f, "{s}"),
            SExpr::Quoted(s) => write!(f, "|{s}|"),
            SExpr::Str(s) => write!(f, "\"{}\"", s.replace('"', "\"\"")),
            SExpr::List(v) => {
                write!(f, "(")?;
                for (i, e) in v.iter().enumerate() {
                    if i > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "{e}")?;
                }
                write!(f, ")")
            }
        }
    }
}

/// Where a top-level expression starts (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

/// Parse a sequence of s-expressions.
pub fn parse_sexprs(text: &str) -> Result<Vec<SExpr>, String> {
    Ok(parse_sexprs_located(text)?.into_iter().map(|(_, e)| e).collect())
}

/// Parse a sequence of s-expressions, with the position of each top-level one
/// (for `file:line:` messages). Errors start with `line N:`.
pub fn parse_sexprs_located(text: &str) -> Result<Vec<(Pos, SExpr)>, String> {
    TopLevel::new(text).collect()
}

/// The top-level s-expressions of a text, read one at a time: a reader of a
/// large file (a 22 MB Horn file) holds one command's tree at a time, not
/// the whole file's.
pub struct TopLevel<'t> {
    lexer: Lexer<'t>,
    failed: bool,
}

impl<'t> TopLevel<'t> {
    pub fn new(text: &'t str) -> TopLevel<'t> {
        TopLevel { lexer: Lexer { text, i: 0, line: 1, col: 1 }, failed: false }
    }

    fn read(&mut self) -> Option<Result<(Pos, SExpr), String>> {
        let lexer = &mut self.lexer;
        // Open lists, innermost last, each with where it started.
        let mut stack: Vec<(Pos, Vec<SExpr>)> = Vec::new();
        loop {
            lexer.skip_blank();
            let pos = Pos { line: lexer.line, col: lexer.col };
            let Some(c) = lexer.peek() else {
                return stack.last().map(|(start, _)| Err(format!("line {}: '(' opened here is never closed", start.line)));
            };
            let item = match c {
                '(' => {
                    lexer.bump();
                    stack.push((pos, Vec::new()));
                    continue;
                }
                ')' => {
                    lexer.bump();
                    match stack.pop() {
                        Some((start, items)) => (start, SExpr::List(items)),
                        None => return Some(Err(format!("line {}: unbalanced ')'", pos.line))),
                    }
                }
                '|' => match lexer.quoted(pos) {
                    Ok(q) => (pos, SExpr::Quoted(q)),
                    Err(e) => return Some(Err(e)),
                },
                '"' => match lexer.string(pos) {
                    Ok(q) => (pos, SExpr::Str(q)),
                    Err(e) => return Some(Err(e)),
                },
                _ => match lexer.atom(pos) {
                    Ok(a) => (pos, SExpr::Atom(a)),
                    Err(e) => return Some(Err(e)),
                },
            };
            match stack.last_mut() {
                Some((_, items)) => items.push(item.1),
                None => return Some(Ok(item)),
            }
        }
    }
}

impl Iterator for TopLevel<'_> {
    type Item = Result<(Pos, SExpr), String>;

    /// The next top-level expression; after an error, nothing more.
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let r = self.read();
        self.failed = matches!(r, Some(Err(_)));
        r
    }
}

struct Lexer<'t> {
    text: &'t str,
    /// Byte offset of the next character.
    i: usize,
    line: usize,
    col: usize,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.text.get(self.i..).and_then(|r| r.chars().next())
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }
    fn skip_blank(&mut self) {
        while let Some(c) = self.peek() {
            if c == ';' {
                while let Some(c) = self.peek() {
                    if c == '\n' {
                        break;
                    }
                    self.bump();
                }
            } else if c.is_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }
    fn quoted(&mut self, pos: Pos) -> Result<String, String> {
        self.bump();
        let mut s = String::new();
        loop {
            match self.bump() {
                Some('|') => return Ok(s),
                Some('\\') => return Err(format!("line {}: '\\' is not allowed in a quoted symbol", self.line)),
                Some(c) => s.push(c),
                None => return Err(format!("line {}: quoted symbol '|' is never closed", pos.line)),
            }
        }
    }
    fn string(&mut self, pos: Pos) -> Result<String, String> {
        self.bump();
        let mut s = String::new();
        loop {
            match self.bump() {
                Some('"') => {
                    // `""` inside a string literal is an escaped quote.
                    if self.peek() == Some('"') {
                        self.bump();
                        s.push('"');
                    } else {
                        return Ok(s);
                    }
                }
                Some(c) => s.push(c),
                None => return Err(format!("line {}: string literal is never closed", pos.line)),
            }
        }
    }
    fn atom(&mut self, pos: Pos) -> Result<String, String> {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "()|\";".contains(c) {
                break;
            }
            s.push(c);
            self.bump();
        }
        if s.is_empty() {
            return Err(format!("line {}: unexpected character", pos.line));
        }
        Ok(s)
    }
}

/// Read a term over the variables of `env`.
pub fn term_of_sexpr(e: &SExpr, env: &BTreeMap<String, Sort>) -> Result<Term, String> {
    TermReader::new(env).term(e)
}

/// Parse one term from text.
pub fn parse_term(text: &str, env: &BTreeMap<String, Sort>) -> Result<Term, String> {
    let es = parse_sexprs(text)?;
    match es.as_slice() {
        [e] => term_of_sexpr(e, env),
        [] => Err("empty text where a term was expected".into()),
        _ => Err(format!("{} expressions where one term was expected", es.len())),
    }
}

/// Reads terms in a scope: the free variables with their sorts, the
/// `let`-bound names in force (already expanded), and optionally what Z3's
/// de Bruijn variables `(:var i)` stand for (Spacer prints invariants over
/// them).
#[derive(Clone, Debug)]
pub struct TermReader<'a> {
    env: &'a BTreeMap<String, Sort>,
    lets: BTreeMap<String, Term>,
    bound: Vec<Term>,
}

fn is_numeral(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit())
}

impl<'a> TermReader<'a> {
    pub fn new(env: &'a BTreeMap<String, Sort>) -> Self {
        TermReader { env, lets: BTreeMap::new(), bound: Vec::new() }
    }

    /// `(:var i)` will read as `bound[i]`.
    pub fn with_bound_vars(mut self, bound: Vec<Term>) -> Self {
        self.bound = bound;
        self
    }

    /// The reader inside `(let (bindings) ...)`: bindings are parallel, so
    /// every right-hand side is read in the outer scope.
    pub fn enter_let(&self, bindings: &SExpr) -> Result<TermReader<'a>, String> {
        let list = bindings.list().ok_or_else(|| format!("let: bindings must be a list, got {bindings}"))?;
        let mut inner = self.clone();
        for b in list {
            match b.list() {
                Some([name, value]) => {
                    let name = name.symbol().ok_or_else(|| format!("let: bad binding name in {b}"))?;
                    let value = self.term(value)?;
                    inner.lets.insert(name.to_string(), value);
                }
                _ => return Err(format!("let: bad binding {b}")),
            }
        }
        Ok(inner)
    }

    /// Whether `name` is a variable or let-bound name in this scope.
    pub fn binds(&self, name: &str) -> bool {
        self.lets.contains_key(name) || self.env.contains_key(name)
    }

    fn symbol_term(&self, s: &str, quoted: bool) -> Result<Term, String> {
        if let Some(t) = self.lets.get(s) {
            return Ok(t.clone());
        }
        if let Some(sort) = self.env.get(s) {
            return Ok(Term::Var(s.into(), *sort));
        }
        if !quoted {
            if is_numeral(s) {
                return s.parse::<BigInt>().map(Term::Int).map_err(|e| format!("bad numeral {s}: {e}"));
            }
            match s {
                "true" => return Ok(Term::tt()),
                "false" => return Ok(Term::ff()),
                _ => {}
            }
            if s.contains('.') && s.chars().all(|c| c.is_ascii_digit() || c == '.') {
                return Err(format!("decimal {s} is not supported (integer arithmetic only)"));
            }
            if s.starts_with("#x") || s.starts_with("#b") {
                return Err(format!("bit-vector literal {s} is not supported (integer arithmetic only)"));
            }
        }
        Err(format!("unknown symbol {}", super::smt_symbol(s)))
    }

    pub fn term(&self, e: &SExpr) -> Result<Term, String> {
        match e {
            SExpr::Atom(s) => self.symbol_term(s, false),
            SExpr::Quoted(s) => self.symbol_term(s, true),
            SExpr::Str(s) => Err(format!("string literal \"{s}\" where a term was expected")),
            SExpr::List(items) => {
                let Some((head, rest)) = items.split_first() else {
                    return Err("empty list () where a term was expected".into());
                };
                let head = match head {
                    SExpr::Atom(h) => h.as_str(),
                    SExpr::List(l) if matches!(l.first(), Some(SExpr::Atom(a)) if a == "!") => {
                        return Err(format!("annotated term {e} as operator"));
                    }
                    _ => return Err(format!("unsupported operator in {e}")),
                };
                self.app(head, rest, e)
            }
        }
    }

    fn ints(&self, args: &[SExpr], op: &str) -> Result<Vec<Term>, String> {
        args.iter()
            .map(|a| {
                let t = self.term(a)?;
                if t.sort() != Sort::Int {
                    return Err(format!("{op}: argument {a} is Boolean, expected Int"));
                }
                Ok(t)
            })
            .collect()
    }

    fn bools(&self, args: &[SExpr], op: &str) -> Result<Vec<Term>, String> {
        args.iter()
            .map(|a| {
                let t = self.term(a)?;
                if t.sort() != Sort::Bool {
                    return Err(format!("{op}: argument {a} is Int, expected Bool"));
                }
                Ok(t)
            })
            .collect()
    }

    fn app(&self, head: &str, args: &[SExpr], whole: &SExpr) -> Result<Term, String> {
        let at_least = |n: usize| -> Result<(), String> {
            if args.len() < n {
                Err(format!("{head} needs at least {n} argument(s): {whole}"))
            } else {
                Ok(())
            }
        };
        let exactly = |n: usize| -> Result<(), String> {
            if args.len() != n {
                Err(format!("{head} needs exactly {n} argument(s): {whole}"))
            } else {
                Ok(())
            }
        };
        // Left-nested binary applications, the shape our constructors build.
        let left_nested = |op: Op, ts: Vec<Term>| -> Term {
            let mut it = ts.into_iter();
            let first = it.next().unwrap_or_else(|| Term::int(0));
            it.fold(first, |acc, t| Term::app(op, vec![acc, t]))
        };
        // `(op a b c)` for chainable comparisons means `(and (op a b) (op b c))`.
        let chain = |op: Op, ts: Vec<Term>| -> Term {
            let pairs: Vec<Term> = ts.windows(2).map(|w| Term::app(op, vec![w[0].clone(), w[1].clone()])).collect();
            if pairs.len() == 1 {
                pairs.into_iter().next().unwrap_or_else(Term::tt)
            } else {
                Term::app(Op::And, pairs)
            }
        };
        match head {
            "let" => {
                exactly(2)?;
                self.enter_let(&args[0])?.term(&args[1])
            }
            ":var" => {
                exactly(1)?;
                let i: usize = args[0]
                    .symbol()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| format!("bad bound variable {whole}"))?;
                self.bound.get(i).cloned().ok_or_else(|| format!("unbound de Bruijn variable {whole}"))
            }
            "!" => {
                // Annotations (`:named`, `:weight`) do not change the meaning.
                at_least(1)?;
                self.term(&args[0])
            }
            "+" => {
                at_least(1)?;
                let ts = self.ints(args, head)?;
                Ok(if ts.len() == 1 {
                    ts.into_iter().next().unwrap_or_else(|| Term::int(0))
                } else {
                    Term::app(Op::Add, ts)
                })
            }
            "-" => {
                at_least(1)?;
                let ts = self.ints(args, head)?;
                if ts.len() == 1 {
                    let t = ts.into_iter().next().unwrap_or_else(|| Term::int(0));
                    // `(- 5)` is how SMT-LIB (and our printer) writes -5.
                    Ok(match t {
                        Term::Int(i) => Term::Int(-i),
                        t => Term::app(Op::Neg, vec![t]),
                    })
                } else {
                    Ok(left_nested(Op::Sub, ts))
                }
            }
            "*" => {
                at_least(1)?;
                Ok(left_nested(Op::Mul, self.ints(args, head)?))
            }
            "div" => {
                at_least(2)?;
                Ok(left_nested(Op::Div, self.ints(args, head)?))
            }
            "mod" => {
                exactly(2)?;
                Ok(Term::app(Op::Mod, self.ints(args, head)?))
            }
            "abs" => {
                exactly(1)?;
                let x = self.ints(args, head)?.remove(0);
                Ok(Term::app(
                    Op::Ite,
                    vec![Term::app(Op::Ge, vec![x.clone(), Term::int(0)]), x.clone(), Term::app(Op::Neg, vec![x])],
                ))
            }
            "<=" | "<" | ">=" | ">" => {
                at_least(2)?;
                let op = match head {
                    "<=" => Op::Le,
                    "<" => Op::Lt,
                    ">=" => Op::Ge,
                    _ => Op::Gt,
                };
                Ok(chain(op, self.ints(args, head)?))
            }
            "=" | "distinct" => {
                at_least(2)?;
                let ts: Vec<Term> = args.iter().map(|a| self.term(a)).collect::<Result<_, _>>()?;
                let sort = ts[0].sort();
                if ts.iter().any(|t| t.sort() != sort) {
                    return Err(format!("{head}: arguments of different sorts in {whole}"));
                }
                if head == "=" {
                    Ok(chain(Op::Eq, ts))
                } else {
                    let mut diffs = Vec::new();
                    for i in 0..ts.len() {
                        for j in i + 1..ts.len() {
                            diffs.push(Term::app(Op::Not, vec![Term::app(Op::Eq, vec![ts[i].clone(), ts[j].clone()])]));
                        }
                    }
                    Ok(if diffs.len() == 1 { diffs.remove(0) } else { Term::app(Op::And, diffs) })
                }
            }
            "and" => Ok(Term::app(Op::And, self.bools(args, head)?)),
            "or" => Ok(Term::app(Op::Or, self.bools(args, head)?)),
            "not" => {
                exactly(1)?;
                Ok(Term::app(Op::Not, self.bools(args, head)?))
            }
            "=>" => {
                at_least(2)?;
                // Right-associative: (=> a b c) is (=> a (=> b c)).
                let mut ts = self.bools(args, head)?;
                let mut acc = ts.pop().unwrap_or_else(Term::tt);
                while let Some(t) = ts.pop() {
                    acc = Term::app(Op::Implies, vec![t, acc]);
                }
                Ok(acc)
            }
            "xor" => {
                at_least(2)?;
                let ts = self.bools(args, head)?;
                let mut it = ts.into_iter();
                let first = it.next().unwrap_or_else(Term::ff);
                Ok(it.fold(first, |acc, t| Term::app(Op::Not, vec![Term::app(Op::Eq, vec![acc, t])])))
            }
            "ite" => {
                exactly(3)?;
                let c = self.term(&args[0])?;
                let t = self.term(&args[1])?;
                let f = self.term(&args[2])?;
                if c.sort() != Sort::Bool {
                    return Err(format!("ite: condition is not Boolean in {whole}"));
                }
                if t.sort() != f.sort() {
                    return Err(format!("ite: branches of different sorts in {whole}"));
                }
                Ok(Term::app(Op::Ite, vec![c, t, f]))
            }
            "forall" | "exists" => Err(format!("quantifier {head} inside a constraint is not supported")),
            "to_real" | "to_int" | "/" | "is_int" => {
                Err(format!("{head}: real arithmetic is not supported (integer arithmetic only)"))
            }
            _ => Err(format!("unknown function {} in {whole}", super::smt_symbol(head))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, Sort)]) -> BTreeMap<String, Sort> {
        vars.iter().map(|(n, s)| (n.to_string(), *s)).collect()
    }

    fn xy() -> BTreeMap<String, Sort> {
        env(&[("x", Sort::Int), ("y", Sort::Int), ("b", Sort::Bool), ("n y", Sort::Int)])
    }

    #[test]
    fn lexes_comments_quoted_symbols_strings_and_positions() {
        let es = parse_sexprs_located("; header\n(a |b c| \"s\"\"t\")\n  (d ; tail\n e)").expect("parses");
        assert_eq!(es.len(), 2);
        assert_eq!(es[0].0, Pos { line: 2, col: 1 });
        assert_eq!(es[1].0, Pos { line: 3, col: 3 });
        assert_eq!(
            es[0].1,
            SExpr::List(vec![SExpr::Atom("a".into()), SExpr::Quoted("b c".into()), SExpr::Str("s\"t".into())])
        );
        assert_eq!(es[1].1.to_string(), "(d e)");
    }

    #[test]
    fn reports_unbalanced_parentheses_with_lines() {
        let e = parse_sexprs("(a\n(b)").expect_err("unclosed");
        assert!(e.starts_with("line 1:"), "{e}");
        let e = parse_sexprs("(a)\n)").expect_err("extra");
        assert!(e.starts_with("line 2:"), "{e}");
        let e = parse_sexprs("(a |b").expect_err("quote");
        assert!(e.contains("never closed"), "{e}");
    }

    #[test]
    fn rejects_decimals_and_unknown_symbols_clearly() {
        let e = parse_term("(<= x 1.5)", &xy()).expect_err("decimal");
        assert!(e.contains("decimal 1.5"), "{e}");
        let e = parse_term("(<= x z)", &xy()).expect_err("unknown");
        assert!(e.contains("unknown symbol z"), "{e}");
        let e = parse_term("(+ x b)", &xy()).expect_err("sort");
        assert!(e.contains("expected Int"), "{e}");
    }

    #[test]
    fn reads_arithmetic_and_negative_numerals() {
        let t = parse_term("(+ (* (- 1) x) (- y) (- 3 x y) (div x 2) (mod x 3) 7)", &xy()).expect("parses");
        assert_eq!(t.to_string(), "(+ (* (- 1) x) (- y) (- (- 3 x) y) (div x 2) (mod x 3) 7)");
        let mut v = crate::term::Valuation::new();
        v.insert("x".into(), crate::term::Value::Int(BigInt::from(-7)));
        v.insert("y".into(), crate::term::Value::Int(BigInt::from(2)));
        // 7 - 2 + 8 - 4 (Euclidean div) + 2 + 7
        assert_eq!(t.eval(&v), Some(crate::term::Value::Int(BigInt::from(18))));
        assert_eq!(parse_term("(- 5)", &xy()).expect("numeral"), Term::int(-5));
        let a = parse_term("(abs x)", &xy()).expect("abs");
        assert_eq!(a.eval(&v), Some(crate::term::Value::Int(BigInt::from(7))));
    }

    #[test]
    fn reads_chains_distinct_xor_and_implications() {
        let t = parse_term("(<= 0 x y 10)", &xy()).expect("chain");
        assert_eq!(t.to_string(), "(and (<= 0 x) (<= x y) (<= y 10))");
        let t = parse_term("(distinct x y 3)", &xy()).expect("distinct");
        assert_eq!(t.to_string(), "(and (not (= x y)) (not (= x 3)) (not (= y 3)))");
        let t = parse_term("(=> b (> x 0) (< y 0))", &xy()).expect("implies");
        assert_eq!(t.to_string(), "(=> b (=> (> x 0) (< y 0)))");
        let t = parse_term("(xor b (= x y))", &xy()).expect("xor");
        assert_eq!(t.to_string(), "(not (= b (= x y)))");
        let t = parse_term("(= b (= x y) true)", &xy()).expect("bool eq");
        assert_eq!(t.to_string(), "(and (= b (= x y)) (= (= x y) true))");
    }

    #[test]
    fn reads_z3_style_lets_in_parallel() {
        let text =
            "(let ((a!1 (not (<= 1 (+ (* 2 x) (* (- 1) y))))) (x y)) (let ((a!2 (or a!1 (= x 0)))) (and a!2 b)))";
        let t = parse_term(text, &xy()).expect("let");
        // The inner `x` is the let-bound y; a!1 was read with the outer x.
        assert_eq!(t.to_string(), "(and (or (not (<= 1 (+ (* 2 x) (* (- 1) y)))) (= y 0)) b)");
    }

    #[test]
    fn reads_quoted_names_and_bound_variables() {
        let t = parse_term("(< |n y| |x|)", &xy()).expect("quoted");
        assert_eq!(t.to_string(), "(< |n y| x)");
        let env = xy();
        let r = TermReader::new(&env).with_bound_vars(vec![Term::var("x"), Term::var("y")]);
        let e = parse_sexprs("(>= (:var 1) (:var 0))").expect("sexpr");
        assert_eq!(r.term(&e[0]).expect("bound").to_string(), "(>= y x)");
    }

    #[test]
    fn printing_and_parsing_agree() {
        let x = Term::var("x");
        let t = Term::and(vec![
            Term::le(Term::int(-3), Term::add(vec![x.clone(), Term::scale(&BigInt::from(-2), Term::var("n y"))])),
            Term::or(vec![Term::bvar("b"), Term::neq(Term::modulo(x.clone(), Term::int(2)), Term::int(0))]),
            Term::implies(
                Term::bvar("b"),
                Term::eq(Term::ite(Term::bvar("b"), x.clone(), Term::int(1)), Term::neg(x.clone())),
            ),
            Term::gt(Term::div(x.clone(), Term::int(3)), Term::sub(x, Term::int(1))),
        ]);
        assert_eq!(parse_term(&t.to_string(), &xy()).expect("round trip"), t);
    }
}
