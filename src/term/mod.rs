//! Terms of linear (and, kept rather than dropped, non-linear) integer
//! arithmetic with Booleans: the one formula language shared by the program
//! model (`ir`), the Horn clauses (`horn`), the engines and the certificates.
//!
//! Terms are trees whose nodes are shared: the arguments of an application
//! sit behind a reference count (`Arc<[Term]>`), so a clone of a term, of a
//! clause or of a whole system copies no subterm, and a substitution that
//! changes nothing below a node gives back that node itself. Large systems
//! (an inlined product line: millions of nodes) are copied by every query
//! that solves them; shared nodes make those copies cost a pointer each.
//! Variables are named; the name is the identity. The `Display` impl prints
//! SMT-LIB2, so any term can be pasted into a solver.

use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

mod affine;
pub mod parse;
pub mod simplify;

pub use affine::Affine;

/// The two sorts the engines work in. Machine integers are `Int` plus range
/// constraints and wrap terms added by the front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Int,
    Bool,
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Int => write!(f, "Int"),
            Sort::Bool => write!(f, "Bool"),
        }
    }
}

/// Operators. Arithmetic follows SMT-LIB: `Div`/`Mod` are Euclidean (the C
/// front end builds C's truncating division out of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    Add,
    Sub,
    Neg,
    Mul,
    Div,
    Mod,
    Le,
    Lt,
    Ge,
    Gt,
    Eq,
    And,
    Or,
    Not,
    Implies,
    Ite,
}

impl Op {
    pub fn smtlib(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub | Op::Neg => "-",
            Op::Mul => "*",
            Op::Div => "div",
            Op::Mod => "mod",
            Op::Le => "<=",
            Op::Lt => "<",
            Op::Ge => ">=",
            Op::Gt => ">",
            Op::Eq => "=",
            Op::And => "and",
            Op::Or => "or",
            Op::Not => "not",
            Op::Implies => "=>",
            Op::Ite => "ite",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    Int(BigInt),
    Bool(bool),
    Var(Name, Sort),
    App(Op, Args),
}

/// A variable's name in a term, shared: cloning a term (every substitution,
/// every copy of a clause system) counts a reference instead of copying
/// the text. A product line's instrumented system has millions of variable
/// occurrences (a predicate application per clause side, a hundred
/// arguments each), and their copied names were most of its memory.
/// Compared, ordered and hashed by the text, like the `String` it replaces.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(Arc<str>);

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(Arc::from(s))
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(Arc::from(s))
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name(Arc::from(s.as_str()))
    }
}

impl From<Name> for String {
    fn from(n: Name) -> String {
        n.0.to_string()
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, o: &str) -> bool {
        &*self.0 == o
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, o: &&str) -> bool {
        &*self.0 == *o
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, o: &String) -> bool {
        *self.0 == **o
    }
}

/// The arguments of an application, shared between the terms that contain
/// them (see the module's comment).
pub type Args = Arc<[Term]>;

/// A variable with its sort, as bound by a clause or a predicate signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarDecl {
    pub name: String,
    pub sort: Sort,
}

impl VarDecl {
    pub fn new(name: impl Into<String>, sort: Sort) -> Self {
        VarDecl { name: name.into(), sort }
    }
    pub fn int(name: impl Into<String>) -> Self {
        VarDecl::new(name, Sort::Int)
    }
    pub fn term(&self) -> Term {
        Term::Var(self.name.as_str().into(), self.sort)
    }
}

/// Values of variables, for evaluating terms on concrete states.
pub type Valuation = BTreeMap<String, Value>;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Int(BigInt),
    Bool(bool),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl Value {
    pub fn term(&self) -> Term {
        match self {
            Value::Int(i) => Term::Int(i.clone()),
            Value::Bool(b) => Term::Bool(*b),
        }
    }
    pub fn as_int(&self) -> Option<&BigInt> {
        match self {
            Value::Int(i) => Some(i),
            Value::Bool(_) => None,
        }
    }
}

impl Term {
    // ---- constructors (with light simplification, so printed clauses stay readable)

    pub fn int(i: impl Into<BigInt>) -> Term {
        Term::Int(i.into())
    }
    pub fn var(name: impl Into<Name>) -> Term {
        Term::Var(name.into(), Sort::Int)
    }
    pub fn bvar(name: impl Into<Name>) -> Term {
        Term::Var(name.into(), Sort::Bool)
    }
    pub fn tt() -> Term {
        Term::Bool(true)
    }
    pub fn ff() -> Term {
        Term::Bool(false)
    }

    pub fn add(args: Vec<Term>) -> Term {
        let mut out = Vec::new();
        let mut constant = BigInt::zero();
        for a in args {
            match a {
                Term::Int(i) => constant += i,
                Term::App(Op::Add, inner) => {
                    for b in inner.iter() {
                        match b {
                            Term::Int(i) => constant += i,
                            b => out.push(b.clone()),
                        }
                    }
                }
                a => out.push(a),
            }
        }
        if !constant.is_zero() || out.is_empty() {
            out.push(Term::Int(constant));
        }
        if out.len() == 1 {
            return out.pop().unwrap_or_else(|| Term::int(0));
        }
        Term::app(Op::Add, out)
    }
    /// An application as it is, without simplification.
    pub fn app(op: Op, args: Vec<Term>) -> Term {
        Term::App(op, args.into())
    }
    pub fn sub(a: Term, b: Term) -> Term {
        match (&a, &b) {
            (Term::Int(x), Term::Int(y)) => Term::Int(x - y),
            (_, Term::Int(y)) if y.is_zero() => a,
            _ => Term::app(Op::Sub, vec![a, b]),
        }
    }
    pub fn neg(a: Term) -> Term {
        match a {
            Term::Int(x) => Term::Int(-x),
            Term::App(Op::Neg, v) if v.len() == 1 => v[0].clone(),
            a => Term::app(Op::Neg, vec![a]),
        }
    }
    pub fn mul(a: Term, b: Term) -> Term {
        match (&a, &b) {
            (Term::Int(x), Term::Int(y)) => Term::Int(x * y),
            (Term::Int(x), _) if x.is_zero() => Term::int(0),
            (_, Term::Int(y)) if y.is_zero() => Term::int(0),
            (Term::Int(x), _) if x.is_one() => b,
            (_, Term::Int(y)) if y.is_one() => a,
            _ => Term::app(Op::Mul, vec![a, b]),
        }
    }
    /// Scale by a constant (keeps terms linear when the factor is a number).
    pub fn scale(c: &BigInt, a: Term) -> Term {
        Term::mul(Term::Int(c.clone()), a)
    }
    pub fn div(a: Term, b: Term) -> Term {
        Term::app(Op::Div, vec![a, b])
    }
    pub fn modulo(a: Term, b: Term) -> Term {
        Term::app(Op::Mod, vec![a, b])
    }
    fn cmp(op: Op, a: Term, b: Term) -> Term {
        if let (Term::Int(x), Term::Int(y)) = (&a, &b) {
            return Term::Bool(match op {
                Op::Le => x <= y,
                Op::Lt => x < y,
                Op::Ge => x >= y,
                Op::Gt => x > y,
                _ => x == y,
            });
        }
        Term::app(op, vec![a, b])
    }
    pub fn le(a: Term, b: Term) -> Term {
        Term::cmp(Op::Le, a, b)
    }
    pub fn lt(a: Term, b: Term) -> Term {
        Term::cmp(Op::Lt, a, b)
    }
    pub fn ge(a: Term, b: Term) -> Term {
        Term::cmp(Op::Ge, a, b)
    }
    pub fn gt(a: Term, b: Term) -> Term {
        Term::cmp(Op::Gt, a, b)
    }
    pub fn eq(a: Term, b: Term) -> Term {
        if a == b {
            return Term::tt();
        }
        match (&a, &b) {
            (Term::Bool(x), Term::Bool(y)) => Term::Bool(x == y),
            _ => Term::cmp(Op::Eq, a, b),
        }
    }
    pub fn neq(a: Term, b: Term) -> Term {
        Term::not(Term::eq(a, b))
    }
    pub fn and(args: Vec<Term>) -> Term {
        let mut out = Vec::new();
        for a in args {
            match a {
                Term::Bool(true) => {}
                Term::Bool(false) => return Term::ff(),
                Term::App(Op::And, inner) => out.extend(inner.iter().cloned()),
                a => out.push(a),
            }
        }
        match out.len() {
            0 => Term::tt(),
            1 => out.pop().unwrap_or_else(Term::tt),
            _ => Term::app(Op::And, out),
        }
    }
    pub fn or(args: Vec<Term>) -> Term {
        let mut out = Vec::new();
        for a in args {
            match a {
                Term::Bool(false) => {}
                Term::Bool(true) => return Term::tt(),
                Term::App(Op::Or, inner) => out.extend(inner.iter().cloned()),
                a => out.push(a),
            }
        }
        match out.len() {
            0 => Term::ff(),
            1 => out.pop().unwrap_or_else(Term::ff),
            _ => Term::app(Op::Or, out),
        }
    }
    pub fn not(a: Term) -> Term {
        match a {
            Term::Bool(b) => Term::Bool(!b),
            Term::App(Op::Not, v) if v.len() == 1 => v[0].clone(),
            a => Term::app(Op::Not, vec![a]),
        }
    }
    pub fn implies(a: Term, b: Term) -> Term {
        match (&a, &b) {
            (Term::Bool(true), _) => b,
            (Term::Bool(false), _) | (_, Term::Bool(true)) => Term::tt(),
            _ => Term::app(Op::Implies, vec![a, b]),
        }
    }
    pub fn ite(c: Term, t: Term, e: Term) -> Term {
        match c {
            Term::Bool(true) => t,
            Term::Bool(false) => e,
            c => {
                if t == e {
                    t
                } else {
                    Term::app(Op::Ite, vec![c, t, e])
                }
            }
        }
    }

    // ---- queries

    pub fn sort(&self) -> Sort {
        match self {
            Term::Int(_) => Sort::Int,
            Term::Bool(_) => Sort::Bool,
            Term::Var(_, s) => *s,
            Term::App(op, args) => match op {
                Op::Add | Op::Sub | Op::Neg | Op::Mul | Op::Div | Op::Mod => Sort::Int,
                Op::Ite => args.get(1).map(|a| a.sort()).unwrap_or(Sort::Int),
                _ => Sort::Bool,
            },
        }
    }

    /// Whether variable `name` occurs in the term.
    pub fn mentions(&self, name: &str) -> bool {
        self.mentions_any(&|n| n == name)
    }

    /// Whether a variable `pick` selects occurs in the term.
    pub fn mentions_any(&self, pick: &dyn Fn(&str) -> bool) -> bool {
        match self {
            Term::Var(n, _) => pick(n),
            Term::App(_, args) => args.iter().any(|a| a.mentions_any(pick)),
            _ => false,
        }
    }

    pub fn free_vars(&self) -> BTreeSet<VarDecl> {
        let mut out = BTreeSet::new();
        self.collect_vars(&mut out);
        out
    }
    fn collect_vars(&self, out: &mut BTreeSet<VarDecl>) {
        match self {
            Term::Var(n, s) => {
                out.insert(VarDecl::new(n.clone(), *s));
            }
            Term::App(_, args) => args.iter().for_each(|a| a.collect_vars(out)),
            _ => {}
        }
    }

    /// Replace variables by terms (simultaneously). Unmapped variables stay.
    pub fn subst(&self, map: &BTreeMap<String, Term>) -> Term {
        self.subst_with(&|n| map.get(n).cloned())
    }

    /// Substitute (simultaneously) the variables `value` gives a term for,
    /// simplifying on the way. A subterm in which nothing is replaced is
    /// given back shared, not rebuilt.
    pub fn subst_with(&self, value: &dyn Fn(&str) -> Option<Term>) -> Term {
        self.subst_changed(value).unwrap_or_else(|| self.clone())
    }

    /// The term with `value`'s replacements, or `None` when no variable of
    /// it is replaced.
    fn subst_changed(&self, value: &dyn Fn(&str) -> Option<Term>) -> Option<Term> {
        match self {
            Term::Var(n, _) => value(n),
            Term::App(op, args) => {
                let new = Term::map_args(args, |a| a.subst_changed(value))?;
                Some(Term::rebuild(*op, new))
            }
            _ => None,
        }
    }

    /// `args` with `f` applied to each, or `None` when `f` changes none of
    /// them (`f` gives `None` for an argument it leaves as it is).
    fn map_args(args: &[Term], f: impl Fn(&Term) -> Option<Term>) -> Option<Vec<Term>> {
        let mut out: Option<Vec<Term>> = None;
        for (i, a) in args.iter().enumerate() {
            if let Some(b) = f(a) {
                out.get_or_insert_with(|| args[..i].to_vec()).push(b);
            } else if let Some(o) = out.as_mut() {
                o.push(a.clone());
            }
        }
        out
    }

    /// The term with every node rebuilt through the simplifying
    /// constructors (sums and conjunctions flattened, constants folded).
    /// A substitution simplifies only the nodes it changes; a reader that
    /// wants one form for one meaning asks for this.
    pub fn rebuilt(&self) -> Term {
        match self {
            Term::App(op, args) => Term::rebuild(*op, args.iter().map(Term::rebuilt).collect()),
            _ => self.clone(),
        }
    }

    /// Rename variables (simultaneously).
    pub fn rename(&self, f: &dyn Fn(&str) -> Option<String>) -> Term {
        self.rename_changed(f).unwrap_or_else(|| self.clone())
    }

    fn rename_changed(&self, f: &dyn Fn(&str) -> Option<String>) -> Option<Term> {
        match self {
            Term::Var(n, s) => f(n).map(|m| Term::Var(m.into(), *s)),
            Term::App(op, args) => Some(Term::app(*op, Term::map_args(args, |a| a.rename_changed(f))?)),
            _ => None,
        }
    }

    /// Rebuild an application through the simplifying constructors.
    pub fn rebuild(op: Op, mut args: Vec<Term>) -> Term {
        let arity_ok = match op {
            Op::Neg | Op::Not => args.len() == 1,
            Op::Ite => args.len() == 3,
            Op::Sub => args.len() == 2,
            Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq | Op::Implies | Op::Mul | Op::Div | Op::Mod => {
                args.len() == 2
            }
            Op::Add | Op::And | Op::Or => true,
        };
        if !arity_ok {
            return Term::app(op, args);
        }
        match op {
            Op::Add => Term::add(args),
            Op::And => Term::and(args),
            Op::Or => Term::or(args),
            Op::Neg => Term::neg(args.remove(0)),
            Op::Not => Term::not(args.remove(0)),
            Op::Ite => {
                let e = args.remove(2);
                let t = args.remove(1);
                Term::ite(args.remove(0), t, e)
            }
            _ => {
                let b = args.remove(1);
                let a = args.remove(0);
                match op {
                    Op::Sub => Term::sub(a, b),
                    Op::Mul => Term::mul(a, b),
                    Op::Le => Term::le(a, b),
                    Op::Lt => Term::lt(a, b),
                    Op::Ge => Term::ge(a, b),
                    Op::Gt => Term::gt(a, b),
                    Op::Eq => Term::eq(a, b),
                    Op::Implies => Term::implies(a, b),
                    _ => Term::app(op, vec![a, b]),
                }
            }
        }
    }

    /// Evaluate on a concrete valuation. `None` when a variable is unassigned
    /// or a division by zero occurs (SMT-LIB leaves it unspecified).
    pub fn eval(&self, env: &Valuation) -> Option<Value> {
        Some(match self {
            Term::Int(i) => Value::Int(i.clone()),
            Term::Bool(b) => Value::Bool(*b),
            Term::Var(n, _) => env.get(n.as_str())?.clone(),
            Term::App(op, args) => {
                let ints = |args: &[Term]| -> Option<Vec<BigInt>> {
                    args.iter()
                        .map(|a| match a.eval(env)? {
                            Value::Int(i) => Some(i),
                            Value::Bool(_) => None,
                        })
                        .collect()
                };
                let bools = |args: &[Term]| -> Option<Vec<bool>> {
                    args.iter()
                        .map(|a| match a.eval(env)? {
                            Value::Bool(b) => Some(b),
                            Value::Int(_) => None,
                        })
                        .collect()
                };
                match op {
                    Op::Add => Value::Int(ints(args)?.into_iter().sum()),
                    Op::Mul => Value::Int(ints(args)?.into_iter().product()),
                    Op::Sub => {
                        let v = ints(args)?;
                        let mut it = v.into_iter();
                        let first = it.next()?;
                        // SMT-LIB's `(- x)` with one argument is the negation.
                        if args.len() == 1 {
                            return Some(Value::Int(-first));
                        }
                        Value::Int(it.fold(first, |a, b| a - b))
                    }
                    Op::Neg => Value::Int(-ints(args)?.pop()?),
                    Op::Div | Op::Mod => {
                        let v = ints(args)?;
                        let (a, b) = (v.first()?.clone(), v.get(1)?.clone());
                        if b.is_zero() {
                            return None;
                        }
                        let (q, r) = euclid_div_mod(&a, &b);
                        Value::Int(if *op == Op::Div { q } else { r })
                    }
                    Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                        let v = ints(args)?;
                        let (a, b) = (v.first()?, v.get(1)?);
                        Value::Bool(match op {
                            Op::Le => a <= b,
                            Op::Lt => a < b,
                            Op::Ge => a >= b,
                            _ => a > b,
                        })
                    }
                    Op::Eq => {
                        let a = args.first()?.eval(env)?;
                        let b = args.get(1)?.eval(env)?;
                        Value::Bool(a == b)
                    }
                    Op::And => Value::Bool(bools(args)?.into_iter().all(|b| b)),
                    Op::Or => Value::Bool(bools(args)?.into_iter().any(|b| b)),
                    Op::Not => Value::Bool(!bools(args)?.pop()?),
                    Op::Implies => {
                        let v = bools(args)?;
                        Value::Bool(!*v.first()? || *v.get(1)?)
                    }
                    Op::Ite => match args.first()?.eval(env)? {
                        Value::Bool(true) => args.get(1)?.eval(env)?,
                        Value::Bool(false) => args.get(2)?.eval(env)?,
                        _ => return None,
                    },
                }
            }
        })
    }

    /// Whether the term is linear (multiplication only by constants, div/mod
    /// only by non-zero constants).
    pub fn is_linear(&self) -> bool {
        match self {
            Term::App(Op::Mul, args) => {
                args.iter().filter(|a| !matches!(a, Term::Int(_))).count() <= 1
                    && args.iter().all(|a| a.is_linear())
            }
            Term::App(Op::Div | Op::Mod, args) => {
                matches!(args.get(1), Some(Term::Int(c)) if !c.is_zero())
                    && args.iter().all(|a| a.is_linear())
            }
            Term::App(_, args) => args.iter().all(|a| a.is_linear()),
            _ => true,
        }
    }

    /// Conjuncts of a top-level conjunction.
    pub fn conjuncts(&self) -> Vec<Term> {
        match self {
            Term::App(Op::And, args) => args.iter().flat_map(|a| a.conjuncts()).collect(),
            Term::Bool(true) => vec![],
            t => vec![t.clone()],
        }
    }
}

/// Euclidean division as in SMT-LIB: remainder always in `[0, |b|)`.
pub fn euclid_div_mod(a: &BigInt, b: &BigInt) -> (BigInt, BigInt) {
    let mut r = a % b;
    if r.is_negative() {
        r += b.abs();
    }
    let q = (a - &r) / b;
    (q, r)
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Printing large systems comes here for every node: the common
            // cases write their text directly, without a string of their
            // own (a machine-size constant is printed as an i64, not
            // through the big-integer digit conversion).
            Term::Int(i) => match i64::try_from(i) {
                Ok(v) if v < 0 => write!(f, "(- {})", v.unsigned_abs()),
                Ok(v) => write!(f, "{v}"),
                Err(_) if i.is_negative() => write!(f, "(- {})", -i),
                Err(_) => write!(f, "{i}"),
            },
            Term::Bool(b) => write!(f, "{b}"),
            Term::Var(n, _) => write_symbol(f, n),
            Term::App(op, args) => {
                f.write_str("(")?;
                f.write_str(op.smtlib())?;
                for a in args.iter() {
                    f.write_str(" ")?;
                    fmt::Display::fmt(a, f)?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Quote a symbol with `|...|` when it is not a simple SMT-LIB symbol.
pub fn smt_symbol(name: &str) -> std::borrow::Cow<'_, str> {
    // Printing large systems calls this for every variable occurrence: a
    // simple symbol is borrowed, not copied.
    if is_simple_symbol(name) {
        std::borrow::Cow::Borrowed(name)
    } else {
        std::borrow::Cow::Owned(format!("|{name}|"))
    }
}

/// Whether `name` is an SMT-LIB simple symbol (written without `|...|`).
fn is_simple_symbol(name: &str) -> bool {
    // A table, not a search of the list of punctuation: this runs for
    // every character of every variable occurrence printed.
    const SIMPLE: [bool; 256] = {
        let mut t = [false; 256];
        let mut c = 0;
        while c < 256 {
            let b = c as u8;
            t[c] = b.is_ascii_alphanumeric() || matches!(b, b'~' | b'!' | b'@' | b'$' | b'%' | b'^' | b'&' | b'*' | b'_' | b'-' | b'+' | b'=' | b'<' | b'>' | b'.' | b'?' | b'/');
            c += 1;
        }
        t
    };
    !name.is_empty() && !name.as_bytes()[0].is_ascii_digit() && name.bytes().all(|c| SIMPLE[c as usize])
}

/// Writes `name` as [`smt_symbol`] spells it, without making a string of
/// it: printers of large systems write a symbol per variable occurrence.
pub fn write_symbol(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
    if is_simple_symbol(name) {
        f.write_str(name)
    } else {
        f.write_str("|")?;
        f.write_str(name)?;
        f.write_str("|")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_smtlib() {
        let t = Term::and(vec![
            Term::le(Term::int(0), Term::var("x")),
            Term::lt(Term::add(vec![Term::var("x"), Term::int(-1)]), Term::var("n y")),
        ]);
        assert_eq!(t.to_string(), "(and (<= 0 x) (< (+ x (- 1)) |n y|))");
    }

    #[test]
    fn a_minus_of_one_argument_evaluates_to_the_negation() {
        let env: Valuation = [("x".to_string(), Value::Int(BigInt::from(5)))].into_iter().collect();
        let t = Term::app(Op::Sub, vec![Term::var("x")]);
        assert_eq!(t.eval(&env), Some(Value::Int(BigInt::from(-5))));
        let t = Term::app(Op::Sub, vec![Term::var("x"), Term::int(2), Term::int(1)]);
        assert_eq!(t.eval(&env), Some(Value::Int(BigInt::from(2))));
    }

    #[test]
    fn euclidean_division_matches_smtlib() {
        let (q, r) = euclid_div_mod(&BigInt::from(-7), &BigInt::from(2));
        assert_eq!((q, r), (BigInt::from(-4), BigInt::from(1)));
        let (q, r) = euclid_div_mod(&BigInt::from(-7), &BigInt::from(-2));
        assert_eq!((q, r), (BigInt::from(4), BigInt::from(1)));
    }
}
