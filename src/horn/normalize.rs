//! Preprocessing passes on Horn systems, each a function `System -> System`
//! with one job, plus a [`BackMap`] that translates evidence found on the
//! processed system back to the system the caller gave.
//!
//! - [`plain_args`]: every head and body argument becomes a distinct fresh
//!   variable, with an equality in the constraint. Engines can then name a
//!   predicate's state by renaming variables only.
//! - [`simplify`]: substitutes away local variables defined by equalities
//!   and folds constants.
//! - [`prune`]: drops clauses whose constraint is `false` and predicates
//!   that no derivation from a fact reaches or that reach no query.
//!
//! [`normalize`] composes the three. The passes keep predicates (names and
//! parameters) as they are, so an invariant over a predicate's parameters
//! means the same thing before and after.

use crate::solve::{Derivation, Invariant, Verdict};
use crate::horn::{Clause, PredApp, PredId, Predicate, System};
use crate::term::{Op, Term, VarDecl};
use std::collections::{BTreeMap, BTreeSet};

/// Translation of evidence from a processed system back to its source.
#[derive(Clone, Debug)]
pub struct BackMap {
    /// Predicates of the source system.
    pub source_preds: Vec<Predicate>,
    /// Processed predicate -> source predicate.
    pub pred_origin: Vec<PredId>,
    /// Processed clause -> source clause.
    pub clause_origin: Vec<usize>,
    /// For source predicates absent from the processed system, the
    /// interpretation that makes every clause mentioning them hold.
    pub removed_interp: Vec<Option<Term>>,
}

impl BackMap {
    pub fn identity(sys: &System) -> BackMap {
        BackMap {
            source_preds: sys.preds.clone(),
            pred_origin: (0..sys.preds.len()).collect(),
            clause_origin: (0..sys.clauses.len()).collect(),
            removed_interp: vec![None; sys.preds.len()],
        }
    }

    /// An invariant of the processed system as one of the source system.
    pub fn invariant(&self, inv: &Invariant) -> Invariant {
        let mut interp: Vec<Term> = self.removed_interp.iter().map(|t| t.clone().unwrap_or_else(Term::tt)).collect();
        for (new, &orig) in self.pred_origin.iter().enumerate() {
            if let Some(slot) = interp.get_mut(orig) {
                *slot = inv.interp.get(new).cloned().unwrap_or_else(Term::tt);
            }
        }
        Invariant { interp }
    }

    /// A derivation of the processed system as one of the source system
    /// (head values are unchanged: the passes keep argument values).
    pub fn derivation(&self, d: &Derivation) -> Derivation {
        Derivation {
            clause: self.clause_origin.get(d.clause).copied().unwrap_or(d.clause),
            head_values: d.head_values.clone(),
            premises: d.premises.iter().map(|p| self.derivation(p)).collect(),
        }
    }

    pub fn verdict(&self, v: Verdict) -> Verdict {
        match v {
            Verdict::Safe(inv) => Verdict::Safe(self.invariant(&inv)),
            Verdict::Unsafe(d) => Verdict::Unsafe(self.derivation(&d)),
            u => u,
        }
    }

    /// `self` maps B -> A and `later` maps C -> B: the composition C -> A.
    pub fn then(&self, later: &BackMap) -> BackMap {
        let mut removed_interp = self.removed_interp.clone();
        for (b_pred, t) in later.removed_interp.iter().enumerate() {
            if let Some(t) = t {
                if let Some(&a_pred) = self.pred_origin.get(b_pred) {
                    removed_interp[a_pred] = Some(t.clone());
                }
            }
        }
        BackMap {
            source_preds: self.source_preds.clone(),
            pred_origin: later.pred_origin.iter().map(|&b| self.pred_origin[b]).collect(),
            clause_origin: later.clause_origin.iter().map(|&b| self.clause_origin[b]).collect(),
            removed_interp,
        }
    }
}

/// A processed system with the way back to its source.
#[derive(Clone, Debug)]
pub struct Normalized {
    pub system: System,
    pub back: BackMap,
}

/// The standard pipeline: plain arguments, simplification, pruning.
pub fn normalize(sys: &System) -> Normalized {
    normalize_unless(sys, &|| false).expect("never stopped")
}

/// [`normalize`] that gives up (`None`) as soon as `stop` says so, checked
/// per clause: on large systems simplifying takes seconds, and a caller
/// with a time limit must not run past it.
pub fn normalize_unless(sys: &System, stop: &dyn Fn() -> bool) -> Option<Normalized> {
    let plain = simplify_unless(&plain_args(sys), stop)?;
    let (system, back) = prune(&plain);
    Some(Normalized { system, back })
}

/// [`normalize`] for an engine that reads a predicate's state by argument
/// position only (PDR, BMC): a system whose arguments are plain already
/// (every inlined system, every VMT-style system) keeps them. Fresh copies
/// would only be substituted back by `simplify`, one variable at a time over
/// the whole constraint, which made normalizing a third of PDR's time on
/// small problems. Not for Spacer's input: Z3 is sensitive to the names and
/// order of a clause's variables (one problem took 17 s instead of 0.7 s
/// with the arguments kept).
pub fn normalize_keeping_plain_args(sys: &System) -> Normalized {
    if !has_plain_args(sys) {
        return normalize(sys);
    }
    let (system, back) = prune(&simplify(sys));
    Normalized { system, back }
}

/// A name not in `taken`, built from `base`; the new name is added to `taken`.
pub(crate) fn fresh_name(base: &str, taken: &mut BTreeSet<String>) -> String {
    let mut i = 0usize;
    loop {
        let cand = format!("{base}!{i}");
        if !taken.contains(&cand) {
            taken.insert(cand.clone());
            return cand;
        }
        i += 1;
    }
}

pub(crate) fn clause_names(c: &Clause) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = c.vars.iter().map(|v| v.name.clone()).collect();
    names.extend(c.constraint.free_vars().into_iter().map(|v| v.name));
    for app in c.body.iter().chain(c.head.iter()) {
        for a in &app.args {
            names.extend(a.free_vars().into_iter().map(|v| v.name));
        }
    }
    names
}

/// Every argument of every application becomes a distinct fresh variable
/// (distinct across the head and all body applications) equal to the
/// original argument.
pub fn plain_args(sys: &System) -> System {
    let mut out = sys.clone();
    for c in out.clauses.iter_mut() {
        let mut taken = clause_names(c);
        if !rename_plain_args(sys, c, &mut taken) {
            plain_args_by_equations(sys, c, &mut taken);
        }
    }
    out
}

/// [`plain_args`] for one clause of `sys`: an equation per argument.
fn plain_args_by_equations(sys: &System, c: &mut Clause, taken: &mut BTreeSet<String>) {
    let mut eqs = Vec::new();
    let mut new_vars: Vec<VarDecl> = Vec::new();
    let mut rewrite = |app: &mut PredApp, base: &str, taken: &mut BTreeSet<String>| {
        for (i, a) in app.args.iter_mut().enumerate() {
            let sort = sys.preds.get(app.pred).and_then(|p| p.params.get(i)).map(|v| v.sort).unwrap_or_else(|| a.sort());
            let name = fresh_name(&format!("{base}{i}"), taken);
            let v = VarDecl::new(name, sort);
            eqs.push(Term::eq(v.term(), a.clone()));
            *a = v.term();
            new_vars.push(v);
        }
    };
    if let Some(h) = c.head.as_mut() {
        rewrite(h, "h", taken);
    }
    for (k, b) in c.body.iter_mut().enumerate() {
        rewrite(b, &format!("b{k}_"), taken);
    }
    eqs.push(c.constraint.clone());
    c.constraint = Term::and(eqs);
    c.vars.extend(new_vars);
}

/// [`plain_args`] for one clause: the clause [`simplify`] makes of the
/// equations [`plain_args_by_equations`] writes, without writing most of
/// them. Of `h0 = x'`, `b0_0 = x`, `b0_1 = x`, `h1 = x + y` simplify
/// substitutes `x'` by `h0` and `x` by `b0_0` (the first position of each
/// variable argument, head first) and keeps `b0_1 = b0_0` and
/// `h1 = b0_0 + y`; so here each variable argument is renamed to its first
/// position's fresh name, and only a later position of it, or an argument
/// that is not a variable, gets an equation. On a product line the
/// equations were one per argument, two and a half million terms for each
/// copy of the model. False (clause untouched) for a clause without
/// arguments.
fn rename_plain_args(sys: &System, c: &mut Clause, taken: &mut BTreeSet<String>) -> bool {
    if c.body.iter().chain(c.head.iter()).all(|a| a.args.is_empty()) {
        return false;
    }
    // The fresh names, position by position (head first), and the first
    // position of each variable argument.
    let mut renaming: BTreeMap<String, Term> = BTreeMap::new();
    let mut fresh: Vec<VarDecl> = Vec::new();
    let mut name = |app: &PredApp, base: &str, taken: &mut BTreeSet<String>| {
        for (i, a) in app.args.iter().enumerate() {
            let sort = sys.preds.get(app.pred).and_then(|p| p.params.get(i)).map(|v| v.sort).unwrap_or_else(|| a.sort());
            let v = VarDecl::new(fresh_name(&format!("{base}{i}"), taken), sort);
            if let Term::Var(old, _) = a {
                renaming.entry(old.to_string()).or_insert_with(|| v.term());
            }
            fresh.push(v);
        }
    };
    if let Some(h) = &c.head {
        name(h, "h", taken);
    }
    for (k, b) in c.body.iter().enumerate() {
        name(b, &format!("b{k}_"), taken);
    }
    let mut eqs: Vec<Term> = Vec::new();
    let mut vars = fresh.iter();
    for app in c.head.iter_mut().chain(c.body.iter_mut()) {
        for a in app.args.iter_mut() {
            let v = vars.next().expect("a fresh name per argument").term();
            let first = matches!(a, Term::Var(old, _) if renaming.get(old.as_str()) == Some(&v));
            if !first {
                eqs.push(Term::eq(v.clone(), a.subst(&renaming)));
            }
            *a = v;
        }
    }
    eqs.push(c.constraint.subst(&renaming));
    c.constraint = Term::and(eqs);
    c.vars.retain(|v| !renaming.contains_key(&v.name));
    c.vars.extend(fresh);
    true
}

/// Variables that are arguments of the clause's applications.
fn arg_vars(c: &Clause) -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    for app in c.body.iter().chain(c.head.iter()) {
        for a in &app.args {
            if let Term::Var(n, _) = a {
                s.insert(n.to_string());
            }
        }
    }
    s
}

/// Substitute away local variables defined by equalities, fold constants
/// and drop trivially true conjuncts. Clause indices are kept (a clause
/// whose constraint becomes `false` stays, for [`prune`] to remove).
/// Largest definition `v = t` that [`simplify`] substitutes into uses.
const MAX_SUBSTITUTED_SIZE: usize = 40;

pub fn simplify(sys: &System) -> System {
    simplify_unless(sys, &|| false).expect("never stopped")
}

/// [`simplify`] that gives up (`None`) as soon as `stop` says so, checked
/// before each clause.
pub fn simplify_unless(sys: &System, stop: &dyn Fn() -> bool) -> Option<System> {
    let mut out = sys.clone();
    for c in out.clauses.iter_mut() {
        if stop() {
            return None;
        }
        let protected = arg_vars(c);
        let (mut conj, defs) = eliminate_definitions(c.constraint.conjuncts(), &protected);
        // Head/body arguments are plain variables here (protected, never
        // substituted); if not (this pass run on its own), substitute into
        // them too.
        if !defs.is_empty() {
            for app in c.body.iter_mut().chain(c.head.iter_mut()) {
                for a in app.args.iter_mut() {
                    if !matches!(a, Term::Var(..)) {
                        *a = a.subst(&defs);
                    }
                }
            }
        }
        conj.dedup();
        c.constraint = Term::and(conj);
        // Keep the declared variables that still occur.
        let mut used: BTreeSet<VarDecl> = c.constraint.free_vars();
        for app in c.body.iter().chain(c.head.iter()) {
            for a in &app.args {
                used.extend(a.free_vars());
            }
        }
        let declared: BTreeSet<VarDecl> = c.vars.iter().cloned().collect();
        let mut vars: Vec<VarDecl> = c.vars.iter().filter(|v| used.contains(*v)).cloned().collect();
        for v in used {
            if !declared.contains(&v) {
                vars.push(v);
            }
        }
        c.vars = vars;
    }
    Some(out)
}

/// The conjuncts with every local variable `v` (not in `protected`) that a
/// conjunct `v = t` defines substituted away, where `t` (with the
/// definitions before it substituted) does not mention `v` and has at most
/// [`MAX_SUBSTITUTED_SIZE`] nodes. One pass: the definitions are kept
/// fully substituted (each new one is put into the earlier ones that
/// mention its variable, found through an index), and every other
/// conjunct is substituted once, at the end. Substituting each definition
/// into every conjunct as it was found (as before) cost a pass over the
/// whole clause per definition: on a sequentialized protocol (338
/// transitions of thousands of conjuncts) normalizing took 26 s.
/// Returns the conjuncts left and the definitions substituted.
fn eliminate_definitions(conjuncts: Vec<Term>, protected: &BTreeSet<String>) -> (Vec<Term>, BTreeMap<String, Term>) {
    let mut defs: BTreeMap<String, Term> = BTreeMap::new();
    // Variable -> the defined variables whose definition mentions it.
    let mut users: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut rest: Vec<Term> = Vec::new();
    let mut pending: Vec<Term> = conjuncts;
    pending.reverse();
    while let Some(t) = pending.pop() {
        let t = if defs.is_empty() { t } else { t.subst(&defs) };
        if t == Term::ff() {
            return (vec![Term::ff()], defs);
        }
        if let Term::App(Op::And, _) = &t {
            pending.extend(t.conjuncts().into_iter().rev());
            continue;
        }
        let mut found: Option<(String, Term)> = None;
        if let Term::App(Op::Eq, args) = &t {
            if args.len() == 2 {
                for (l, r) in [(&args[0], &args[1]), (&args[1], &args[0])] {
                    if let Term::Var(n, _) = l {
                        // A large definition stays a variable: substituting it
                        // into every use would multiply the clause's size
                        // (a chain of `x = c ? x - 1 : x + 1` grows exponentially).
                        if !protected.contains(n.as_str())
                            && !defs.contains_key(n.as_str())
                            && !r.free_vars().iter().any(|v| v.name == n.as_str())
                            && r.size() <= MAX_SUBSTITUTED_SIZE
                        {
                            found = Some((n.to_string(), r.clone()));
                            break;
                        }
                    }
                }
            }
        }
        let Some((v, r)) = found else {
            if t != Term::tt() {
                rest.push(t);
            }
            continue;
        };
        // The definitions that mention `v` get `r`; `r` mentions no
        // defined variable (it was substituted above).
        let one = BTreeMap::from([(v.clone(), r.clone())]);
        let read: Vec<String> = r.free_vars().into_iter().map(|x| x.name).collect();
        for u in users.remove(&v).unwrap_or_default() {
            if let Some(d) = defs.get_mut(&u) {
                *d = d.subst(&one);
                for x in &read {
                    users.entry(x.clone()).or_default().push(u.clone());
                }
            }
        }
        for x in &read {
            users.entry(x.clone()).or_default().push(v.clone());
        }
        defs.insert(v, r);
    }
    if defs.is_empty() {
        return (rest, defs);
    }
    let mut out = Vec::with_capacity(rest.len());
    for t in rest {
        let t = t.subst(&defs);
        if t == Term::ff() {
            return (vec![Term::ff()], defs);
        }
        out.extend(t.conjuncts().into_iter().filter(|c| *c != Term::tt()));
    }
    (out, defs)
}

/// Remove clauses with a `false` constraint and the predicates that are
/// unreachable from facts (interpreted as `false`) or reach no query
/// (interpreted as `true`).
pub fn prune(sys: &System) -> (System, BackMap) {
    let live: Vec<bool> = sys.clauses.iter().map(|c| c.constraint != Term::ff()).collect();
    // Forward: predicates with a derivation.
    let mut reach = vec![false; sys.preds.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (c, ok) in sys.clauses.iter().zip(&live) {
            if !ok {
                continue;
            }
            if let Some(h) = &c.head {
                if !reach[h.pred] && c.body.iter().all(|b| reach[b.pred]) {
                    reach[h.pred] = true;
                    changed = true;
                }
            }
        }
    }
    let usable = |c: &Clause| c.body.iter().all(|b| reach[b.pred]) && c.head.as_ref().is_none_or(|h| reach[h.pred]);
    // Backward: predicates from which a query is derivable.
    let mut coreach = vec![false; sys.preds.len()];
    changed = true;
    while changed {
        changed = false;
        for (c, ok) in sys.clauses.iter().zip(&live) {
            if !ok || !usable(c) {
                continue;
            }
            let head_ok = c.head.as_ref().is_none_or(|h| coreach[h.pred]);
            if head_ok {
                for b in &c.body {
                    if !coreach[b.pred] {
                        coreach[b.pred] = true;
                        changed = true;
                    }
                }
            }
        }
    }
    let kept_pred: Vec<bool> = (0..sys.preds.len()).map(|p| reach[p] && coreach[p]).collect();
    let mut new_id = vec![usize::MAX; sys.preds.len()];
    let mut out = System { preds: Vec::new(), clauses: Vec::new(), comments: sys.comments.clone() };
    let mut pred_origin = Vec::new();
    let mut removed_interp = vec![None; sys.preds.len()];
    for (p, pred) in sys.preds.iter().enumerate() {
        if kept_pred[p] {
            new_id[p] = out.preds.len();
            out.preds.push(pred.clone());
            pred_origin.push(p);
        } else {
            removed_interp[p] = Some(if reach[p] { Term::tt() } else { Term::ff() });
        }
    }
    let mut clause_origin = Vec::new();
    for (i, (c, ok)) in sys.clauses.iter().zip(&live).enumerate() {
        let keep = *ok
            && c.body.iter().all(|b| kept_pred[b.pred])
            && c.head.as_ref().is_none_or(|h| kept_pred[h.pred]);
        if !keep {
            continue;
        }
        let mut c2 = c.clone();
        for app in c2.body.iter_mut().chain(c2.head.iter_mut()) {
            app.pred = new_id[app.pred];
        }
        out.clauses.push(c2);
        clause_origin.push(i);
    }
    let back = BackMap { source_preds: sys.preds.clone(), pred_origin, clause_origin, removed_interp };
    (out, back)
}

/// Whether every argument of every application is a variable, distinct
/// within the clause (what [`plain_args`] establishes).
pub fn has_plain_args(sys: &System) -> bool {
    sys.clauses.iter().all(|c| {
        let mut seen = BTreeSet::new();
        c.body.iter().chain(c.head.iter()).all(|app| {
            app.args.iter().all(|a| matches!(a, Term::Var(n, _) if seen.insert(n.clone())))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter() -> System {
        // init: x = 0 -> inv(x); inv(x) /\ x < 10 -> inv(x + 1); inv(x) /\ x > 10 -> false
        let mut s = System::default();
        let inv = s.add_pred("inv", vec![VarDecl::int("x")]);
        let dead = s.add_pred("dead", vec![VarDecl::int("x")]);
        let x = Term::var("x");
        s.clauses.push(Clause {
            vars: vec![VarDecl::int("x")],
            body: vec![],
            constraint: Term::eq(x.clone(), Term::int(0)),
            head: Some(PredApp { pred: inv, args: vec![x.clone()] }),
            label: "init".into(),
        });
        s.clauses.push(Clause {
            vars: vec![VarDecl::int("x")],
            body: vec![PredApp { pred: inv, args: vec![x.clone()] }],
            constraint: Term::lt(x.clone(), Term::int(10)),
            head: Some(PredApp { pred: inv, args: vec![Term::add(vec![x.clone(), Term::int(1)])] }),
            label: "step".into(),
        });
        s.clauses.push(Clause {
            vars: vec![VarDecl::int("x")],
            body: vec![PredApp { pred: dead, args: vec![x.clone()] }],
            constraint: Term::tt(),
            head: Some(PredApp { pred: inv, args: vec![x.clone()] }),
            label: "from dead".into(),
        });
        s.clauses.push(Clause {
            vars: vec![VarDecl::int("x")],
            body: vec![PredApp { pred: inv, args: vec![x.clone()] }],
            constraint: Term::gt(x.clone(), Term::int(10)),
            head: None,
            label: "query".into(),
        });
        s
    }

    #[test]
    fn plain_args_introduce_equalities() {
        let s = plain_args(&counter());
        assert!(has_plain_args(&s));
        let step = &s.clauses[1];
        // `x` is renamed to its position's name; the head's `x + 1` is an equation.
        assert_eq!(step.constraint.to_string(), "(and (= h0!0 (+ b0_0!0 1)) (< b0_0!0 10))");
        let mut by_equations = counter().clauses[1].clone();
        plain_args_by_equations(&counter(), &mut by_equations, &mut clause_names(&counter().clauses[1]));
        assert_eq!(by_equations.constraint.to_string(), "(and (= h0!0 (+ x 1)) (= b0_0!0 x) (< x 10))");
        let simple = simplify(&s);
        // x is local after plain_args and is substituted away.
        assert_eq!(simple.clauses[1].constraint.to_string(), "(and (= h0!0 (+ b0_0!0 1)) (< b0_0!0 10))");
        assert!(has_plain_args(&simple));
    }

    /// Variable arguments are renamed, not given equations: the same clause
    /// as the equations substituted away.
    #[test]
    fn distinct_variable_arguments_are_renamed_as_simplify_would() {
        let s = plain_args(&counter());
        let query = &s.clauses[3];
        assert_eq!(query.constraint.to_string(), "(> b0_0!0 10)");
        assert_eq!(query.vars, vec![VarDecl::int("b0_0!0")]);
        assert_eq!(query.body[0].args, vec![Term::var("b0_0!0")]);
        assert_eq!(simplify(&s).clauses[3], query.clone());
        // `x` twice (head and body): renamed to the head's name, the body's
        // position equal to it, as simplify makes of the two equations.
        assert_eq!(s.clauses[2].constraint.to_string(), "(= b0_0!0 h0!0)");
        assert_eq!(simplify(&s).clauses[2], s.clauses[2]);
    }

    /// On every clause of the shared CHC-COMP problems, renaming and the
    /// equations give the same clause once simplified.
    #[test]
    fn renaming_agrees_with_the_equations_on_the_shared_problems() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/chc");
        let index = std::fs::read_to_string(dir.join("verdicts.tsv"))
            .unwrap_or_else(|e| panic!("{}: {e} (../shared is needed)", dir.display()));
        let (mut problems, mut renamed) = (0, 0);
        for line in index.lines().skip(1) {
            let path = dir.join(line.split('\t').next().expect("path"));
            let text = std::fs::read_to_string(&path).expect("problem");
            let Ok(sys) = crate::horn::smtlib::parse_system(&text) else { continue };
            problems += 1;
            for c in &sys.clauses {
                let (mut a, mut b) = (c.clone(), c.clone());
                let (mut ta, mut tb) = (clause_names(c), clause_names(c));
                if !rename_plain_args(&sys, &mut a, &mut ta) {
                    continue;
                }
                plain_args_by_equations(&sys, &mut b, &mut tb);
                let one = |c: Clause| simplify(&System { preds: sys.preds.clone(), clauses: vec![c], comments: vec![] }).clauses.remove(0);
                assert_eq!(one(a), one(b), "{}", path.display());
                renamed += 1;
            }
        }
        assert!(problems >= 90 && renamed >= 500, "{problems} problems, {renamed} clauses renamed");
    }

    #[test]
    fn plain_arguments_are_kept_only_where_they_are_plain() {
        // Not plain (the step's head is x + 1): the standard pipeline.
        let n = normalize_keeping_plain_args(&counter());
        assert_eq!(n.system.clauses[1].constraint, normalize(&counter()).system.clauses[1].constraint);
        // Plain: the arguments keep their names, nothing is renamed.
        let plain = plain_args(&counter());
        let kept = normalize_keeping_plain_args(&plain);
        assert_eq!(kept.system.clauses[1].head, simplify(&plain).clauses[1].head);
        assert_eq!(kept.system.clauses[1].constraint.to_string(), "(and (= h0!0 (+ b0_0!0 1)) (< b0_0!0 10))");
        assert_eq!(kept.back.clause_origin, vec![0, 1, 3]);
    }

    /// Definitions are substituted wherever they are used, before or after
    /// them, also into each other; a definition that would mention its own
    /// variable stays a conjunct; protected variables stay.
    #[test]
    fn definitions_are_eliminated_in_one_pass() {
        let v = |n: &str| Term::var(n);
        let conj = vec![
            Term::lt(v("y"), v("w")),
            Term::eq(v("w"), v("u")),
            Term::eq(v("u"), Term::add(vec![v("x"), Term::int(1)])),
            Term::eq(v("a"), Term::add(vec![v("b"), Term::int(1)])),
            Term::eq(v("b"), Term::add(vec![v("a"), Term::int(2)])),
            Term::eq(v("x"), Term::int(3)),
        ];
        let protected = BTreeSet::from(["x".to_string(), "y".to_string()]);
        let (left, defs) = eliminate_definitions(conj, &protected);
        let shown: Vec<String> = left.iter().map(|t| t.to_string()).collect();
        // w and u are gone, x and y stay; `b = (b + 1) + 2` is false.
        assert_eq!(defs.get("w").map(|t| t.to_string()), Some("(+ x 1)".to_string()), "{defs:?}");
        assert_eq!(defs.get("u").map(|t| t.to_string()), Some("(+ x 1)".to_string()), "{defs:?}");
        assert!(!defs.contains_key("x") && !defs.contains_key("y"));
        assert!(left.iter().all(|t| !t.mentions("w") && !t.mentions("u")), "{shown:?}");
        assert!(shown.contains(&"(< y (+ x 1))".to_string()), "{shown:?}");
        assert!(shown.contains(&"(= x 3)".to_string()), "{shown:?}");
        assert_eq!(left.iter().filter(|t| t.mentions("a") || t.mentions("b")).count(), 1, "{shown:?}");
    }

    #[test]
    fn prune_removes_dead_predicates_and_maps_back() {
        let n = normalize(&counter());
        assert_eq!(n.system.preds.len(), 1);
        assert_eq!(n.back.clause_origin, vec![0, 1, 3]);
        let inv = n.back.invariant(&Invariant { interp: vec![Term::le(Term::var("x"), Term::int(10))] });
        assert_eq!(inv.interp[1], Term::ff());
        let d = Derivation { clause: 2, head_values: vec![], premises: vec![] };
        assert_eq!(n.back.derivation(&d).clause, 3);
    }
}
