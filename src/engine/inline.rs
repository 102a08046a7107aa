//! Predicate inlining before the engines run, and the way back.
//!
//! A CHC-COMP problem translated from a program often has one predicate per
//! program location, most of them on straight-line code: a location with a
//! single clause into it or a single clause out of it. Every engine pays for
//! each of them (a PDR frame, a Spacer relation, a copy of the state per BMC
//! step), and Z3's own answer to this (its `xform.inline_*` passes) cannot be
//! used, because it hides the predicates from Spacer's answer and renames
//! the clauses of its counterexamples. So the portfolio inlines here:
//! a predicate `P` without a clause from `P` to `P`, with one clause into it
//! or one clause out of it, is replaced by the compositions of its incoming
//! and outgoing clauses (the system never grows by more than it shrinks),
//! until no such predicate is left.
//!
//! Answers found on the reduced system are translated back to the caller's
//! system, where they are validated again:
//!
//! - a counterexample: each reduced clause stands for a chain of source
//!   clauses; the concatenated chain is replayed on the source system
//!   ([`replay`]), which gives the values at the removed predicates too;
//! - an invariant: a removed predicate gets the exact image of its incoming
//!   clauses under the invariant of their body predicates (removed
//!   predicates in reverse order of removal, so that those bodies are
//!   known), with the clause's other variables eliminated by enumerating
//!   model-based projections ([`mbp`]). The image satisfies the clauses into
//!   the predicate by construction, and the clauses out of it because every
//!   composition of an incoming with an outgoing clause holds in the reduced
//!   system.

use super::pdr::linear::{linear_clauses, replay};
use super::pdr::lit::cube_term;
use super::pdr::mbp;
use crate::horn::normalize::{clause_names, fresh_name, normalize_unless, simplify, simplify_unless, Normalized};
use crate::horn::{Clause, PredApp, System};
use crate::smt::{bool_of, check, eval_in, solver_for, Sat};
use crate::solve::{interp_of, Budget, Derivation, Invariant, Verdict};
use crate::term::{Term, Valuation};
use std::collections::{BTreeMap, BTreeSet};

/// Largest constraint (syntax nodes) a composition may have; a predicate
/// whose inlining would create a larger one stays.
const MAX_COMPOSED_SIZE: usize = 2_000;

/// Most disjuncts (projections) the interpretation of one removed predicate
/// may take; beyond it the answer is not translated back.
const MAX_DISJUNCTS: usize = 200;

/// A system with some predicates inlined, and the way back to the caller's.
pub struct Inlined {
    /// The caller's system normalized: the system inlining started from.
    norm: Normalized,
    /// The reduced system the engines solve.
    pub system: System,
    /// Per reduced clause, the chain of source clauses it composes (fact side first).
    chains: Vec<Vec<usize>>,
    /// Reduced predicate -> source predicate.
    pred_origin: Vec<usize>,
    /// Removed source predicates in the order of removal, each with the
    /// clauses into it at that moment (source predicate numbering).
    removed: Vec<(usize, Vec<Clause>)>,
}

/// Inline what can be inlined in a linear system; `None` when nothing can,
/// or when the budget runs out first (normalizing and composing a large
/// system take seconds; the caller then races on the system as it is).
pub fn inline(sys: &System, budget: &Budget) -> Option<Inlined> {
    if !sys.is_linear() || !has_candidate(sys) {
        return None;
    }
    let stop = || budget.expired();
    let norm = normalize_unless(sys, &stop)?;
    let src = &norm.system;
    let n = src.preds.len();
    let mut work: Vec<Option<(Clause, Vec<usize>)>> =
        src.clauses.iter().cloned().enumerate().map(|(i, c)| Some((c, vec![i]))).collect();
    let mut gone = vec![false; n];
    let mut removed: Vec<(usize, Vec<Clause>)> = Vec::new();
    loop {
        forget_repeated(&mut work);
        // Clauses into and out of every predicate, once per pass; a removal
        // changes only the lists of its neighbours, which are skipped for
        // the rest of the pass.
        let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut from: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, w) in work.iter().enumerate() {
            let Some((c, _)) = w else { continue };
            if let Some(h) = &c.head {
                into[h.pred].push(i);
            }
            if let Some(b) = c.body.first() {
                from[b.pred].push(i);
            }
        }
        let mut touched = vec![false; n];
        let mut progress = false;
        for p in 0..n {
            if gone[p] || touched[p] {
                continue;
            }
            let (ins, outs) = (&into[p], &from[p]);
            if ins.is_empty() || outs.is_empty() || (ins.len() > 1 && outs.len() > 1) {
                continue;
            }
            if ins.iter().any(|i| outs.contains(i)) {
                continue;
            }
            let mut composed = Vec::with_capacity(ins.len() * outs.len());
            for &a in ins {
                for &b in outs {
                    let (Some((ca, ha)), Some((cb, hb))) = (&work[a], &work[b]) else { unreachable!() };
                    let c = compose(ca, cb, &stop)?;
                    if c.constraint.size() > MAX_COMPOSED_SIZE {
                        composed.clear();
                        break;
                    }
                    composed.push((c, ha.iter().chain(hb).copied().collect::<Vec<_>>()));
                }
                if composed.is_empty() {
                    break;
                }
            }
            if composed.is_empty() {
                continue;
            }
            let neighbours: Vec<usize> = ins
                .iter()
                .filter_map(|&i| work[i].as_ref().and_then(|(c, _)| c.body.first().map(|b| b.pred)))
                .chain(outs.iter().filter_map(|&i| work[i].as_ref().and_then(|(c, _)| c.head.as_ref().map(|h| h.pred))))
                .collect();
            removed.push((p, ins.iter().filter_map(|&i| work[i].as_ref().map(|(c, _)| c.clone())).collect()));
            for &i in ins.iter().chain(outs) {
                work[i] = None;
            }
            work.extend(composed.into_iter().filter(|(c, _)| c.constraint != Term::ff()).map(Some));
            gone[p] = true;
            for q in neighbours {
                touched[q] = true;
            }
            progress = true;
        }
        if !progress {
            break;
        }
    }
    if removed.is_empty() {
        return None;
    }
    let mut new_id = vec![usize::MAX; n];
    let mut system = System { preds: Vec::new(), clauses: Vec::new(), comments: src.comments.clone() };
    let mut pred_origin = Vec::new();
    for p in (0..n).filter(|&p| !gone[p]) {
        new_id[p] = system.preds.len();
        system.preds.push(src.preds[p].clone());
        pred_origin.push(p);
    }
    let mut chains = Vec::new();
    for (mut c, chain) in work.into_iter().flatten() {
        for app in c.body.iter_mut().chain(c.head.iter_mut()) {
            app.pred = new_id[app.pred];
        }
        system.clauses.push(c);
        chains.push(chain);
    }
    Some(Inlined { norm, system, chains, pred_origin, removed })
}

/// Drops every clause that repeats an earlier one (the same variables,
/// applications and constraint; the label aside): a system is the same
/// with a clause once or twice. Projections make many: on a loop's
/// projection of a product line 3,600 of 10,000 paths read the same, and
/// each copy kept a predicate from being inlined (two clauses in, two
/// out). The earlier clause's chain stands for both on the way back.
fn forget_repeated(work: &mut [Option<(Clause, Vec<usize>)>]) {
    let mut seen = std::collections::HashSet::new();
    let repeated: Vec<usize> = work
        .iter()
        .enumerate()
        .filter_map(|(i, w)| {
            let (c, _) = w.as_ref()?;
            (!seen.insert((&c.vars, &c.body, &c.constraint, &c.head))).then_some(i)
        })
        .collect();
    for i in repeated {
        work[i] = None;
    }
}

/// Whether some predicate could be inlined, judged on the clauses before
/// normalizing (which costs more than this look on systems that have no
/// such predicate, as the prover's, whose predicates are loop headers).
fn has_candidate(sys: &System) -> bool {
    let n = sys.preds.len();
    let (mut ins, mut outs, mut looping) = (vec![0usize; n], vec![0usize; n], vec![false; n]);
    for c in &sys.clauses {
        let head = c.head.as_ref().map(|h| h.pred);
        let body = c.body.first().map(|b| b.pred);
        if let Some(h) = head {
            ins[h] += 1;
        }
        if let Some(b) = body {
            outs[b] += 1;
            looping[b] |= head == Some(b);
        }
    }
    (0..n).any(|p| !looping[p] && ins[p] > 0 && outs[p] > 0 && (ins[p] == 1 || outs[p] == 1))
}

/// `a` (into `P`) followed by `b` (out of `P`): one clause from `a`'s body
/// to `b`'s head, with `b`'s variables renamed apart and `P`'s arguments
/// equated, simplified.
fn compose(a: &Clause, b: &Clause, stop: &dyn Fn() -> bool) -> Option<Clause> {
    let mut taken = clause_names(a);
    taken.extend(clause_names(b));
    let mut ren: BTreeMap<String, String> = BTreeMap::new();
    for name in clause_names(b) {
        let base = name.split('!').next().filter(|s| !s.is_empty()).unwrap_or(&name).to_string();
        ren.insert(name, fresh_name(&base, &mut taken));
    }
    let rename = |t: &Term| t.rename(&|n| ren.get(n).cloned());
    let rename_app = |app: &PredApp| PredApp { pred: app.pred, args: app.args.iter().map(rename).collect() };
    let (Some(into), Some(out)) = (&a.head, b.body.first()) else { unreachable!("composing a query or a fact") };
    let mut parts = vec![a.constraint.clone()];
    parts.extend(into.args.iter().zip(&out.args).map(|(x, y)| Term::eq(x.clone(), rename(y))));
    parts.push(rename(&b.constraint));
    let mut vars = a.vars.clone();
    vars.extend(b.vars.iter().map(|v| crate::term::VarDecl::new(ren[&v.name].clone(), v.sort)));
    let clause = Clause {
        vars,
        body: a.body.clone(),
        constraint: Term::and(parts),
        head: b.head.as_ref().map(rename_app),
        label: format!("{}; {}", a.label, b.label),
    };
    let one = System { preds: Vec::new(), clauses: vec![clause], comments: Vec::new() };
    simplify_unless(&one, stop).map(|mut s| canonical_names(s.clauses.pop().expect("one clause in, one out")))
}

/// `c` with its variables named by where they stand: the arguments `h0`,
/// `h1`, ... of the head and `b0_0`, ... of the body, the other variables
/// `v0`, `v1`, ... in the order they are declared. Every name is replaced
/// at once, so no new name meets an old one. Two compositions along
/// different paths that say the same then read the same, and
/// [`forget_repeated`] drops one (renaming apart gave each its own `h0!7`).
fn canonical_names(mut c: Clause) -> Clause {
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let name_args = |app: &PredApp, base: &str, names: &mut BTreeMap<String, String>| {
        for (i, a) in app.args.iter().enumerate() {
            if let Term::Var(n, _) = a {
                let fresh = format!("{base}{i}");
                names.entry(n.to_string()).or_insert(fresh);
            }
        }
    };
    if let Some(h) = &c.head {
        name_args(h, "h", &mut names);
    }
    for (k, b) in c.body.iter().enumerate() {
        name_args(b, &format!("b{k}_"), &mut names);
    }
    let mut locals = 0usize;
    for v in &c.vars {
        names.entry(v.name.clone()).or_insert_with(|| {
            locals += 1;
            format!("v{}", locals - 1)
        });
    }
    // A variable neither a plain argument nor declared would keep its
    // name, which could meet a new one: then the clause stays as it is.
    let mut used = c.constraint.free_vars();
    for app in c.body.iter().chain(c.head.iter()) {
        used.extend(app.args.iter().flat_map(|a| a.free_vars()));
    }
    if used.iter().any(|v| !names.contains_key(&v.name)) {
        return c;
    }
    let rename = |t: &Term| t.rename(&|n| names.get(n).cloned());
    c.constraint = rename(&c.constraint);
    for app in c.body.iter_mut().chain(c.head.iter_mut()) {
        app.args = app.args.iter().map(rename).collect();
    }
    for v in c.vars.iter_mut() {
        v.name = names[&v.name].clone();
    }
    c
}

impl Inlined {
    /// An answer on the reduced system as one on the caller's system.
    pub fn verdict(&self, v: Verdict, budget: &Budget) -> Result<Verdict, String> {
        let on_source = match v {
            Verdict::Safe(inv) => Verdict::Safe(self.invariant(&inv, budget)?),
            Verdict::Unsafe(d) => Verdict::Unsafe(self.derivation(&d, budget)?),
            u => u,
        };
        Ok(self.norm.back.verdict(on_source))
    }

    fn derivation(&self, d: &Derivation, budget: &Budget) -> Result<Derivation, String> {
        let mut chain = Vec::new();
        for step in d.chain() {
            chain.extend(self.chains.get(step.clause).ok_or("counterexample uses an unknown clause")?);
        }
        let clauses = linear_clauses(&self.norm.system)?;
        replay(&clauses, &chain, budget)?.ok_or_else(|| "counterexample through inlined predicates does not replay".into())
    }

    fn invariant(&self, inv: &Invariant, budget: &Budget) -> Result<Invariant, String> {
        let src = &self.norm.system;
        let mut interp: Vec<Option<Term>> = vec![None; src.preds.len()];
        for (r, &p) in self.pred_origin.iter().enumerate() {
            interp[p] = Some(interp_of(inv, r));
        }
        for (p, into) in self.removed.iter().rev() {
            let mut disjuncts = Vec::new();
            for c in into {
                disjuncts.push(self.image(c, &interp, budget)?);
            }
            interp[*p] = Some(Term::or(disjuncts));
        }
        Ok(Invariant { interp: interp.into_iter().map(|t| t.unwrap_or_else(Term::tt)).collect() })
    }

    /// The states of `c`'s head predicate that `c` derives from states of
    /// its body predicate satisfying `interp`, over the head's parameters.
    fn image(&self, c: &Clause, interp: &[Option<Term>], budget: &Budget) -> Result<Term, String> {
        let src = &self.norm.system;
        let head = c.head.as_ref().ok_or("a query into a removed predicate")?;
        let params = &src.preds[head.pred].params;
        let mut ren: BTreeMap<String, String> = BTreeMap::new();
        for (a, p) in head.args.iter().zip(params) {
            if let Term::Var(n, _) = a {
                ren.insert(n.to_string(), p.name.clone());
            }
        }
        let rename = |t: &Term| t.rename(&|n| Some(ren.get(n).cloned().unwrap_or_else(|| format!("!qe!{n}"))));
        let mut parts = vec![rename(&c.constraint)];
        if let Some(b) = c.body.first() {
            let body_inv = interp[b.pred].clone().ok_or("the body of a removed predicate has no interpretation yet")?;
            let map: BTreeMap<String, Term> =
                src.preds[b.pred].params.iter().zip(&b.args).map(|(p, a)| (p.name.clone(), rename(a))).collect();
            parts.push(body_inv.subst(&map));
        }
        let keep: BTreeSet<String> = params.iter().map(|p| p.name.clone()).collect();
        eliminate_quantifiers(&Term::and(parts), &keep, budget)
    }
}

/// A formula over `keep` equivalent to `phi` with its other variables
/// existentially quantified: the disjunction of model-based projections,
/// each excluded in turn until no model is left.
fn eliminate_quantifiers(phi: &Term, keep: &BTreeSet<String>, budget: &Budget) -> Result<Term, String> {
    let free = phi.free_vars();
    if free.iter().all(|v| keep.contains(&v.name)) {
        return Ok(phi.clone());
    }
    // Most variables to eliminate are defined by an equality (a
    // straight-line clause computes its head's arguments from its body's):
    // substituted away, they need no solver (`∃v. v = t ∧ φ` is `φ[t/v]`).
    // The simplifier of the clauses does exactly that to a clause's local
    // variables: here, those that are not kept. A solver is asked only for
    // what is left (a 52-predicate system spent 60-120 ms here before).
    let phi = &defined_variables_substituted(phi, keep, &free);
    let free = phi.free_vars();
    if free.iter().all(|v| keep.contains(&v.name)) {
        return Ok(phi.clone());
    }
    let s = solver_for(budget);
    s.assert(bool_of(phi));
    let mut cubes = Vec::new();
    loop {
        match check(&s, budget) {
            Sat::Unsat => break,
            Sat::Unknown => return Err("quantifier elimination gave up".into()),
            Sat::Sat => {}
        }
        if cubes.len() >= MAX_DISJUNCTS {
            return Err(format!("quantifier elimination needs more than {MAX_DISJUNCTS} disjuncts"));
        }
        let model = s.get_model().ok_or("no model")?;
        let mut env = Valuation::new();
        for v in &free {
            env.insert(v.name.clone(), eval_in(&model, &v.term()).ok_or_else(|| format!("no model value for {}", v.name))?);
        }
        let cube = mbp::project(phi, &env, &|n| keep.contains(n)).map_err(|e| format!("projection failed: {}", e.0))?;
        let t = cube_term(&cube);
        s.assert(bool_of(&Term::not(t.clone())));
        cubes.push(t);
    }
    Ok(Term::or(cubes))
}

/// `phi` with the variables outside `keep` that an equality of `phi`
/// defines substituted by their definitions: equivalent to `phi` with those
/// variables existentially quantified. `vars` are the free variables of `phi`.
fn defined_variables_substituted(phi: &Term, keep: &BTreeSet<String>, vars: &BTreeSet<crate::term::VarDecl>) -> Term {
    // As a clause whose head arguments are the kept variables, which the
    // simplifier leaves alone.
    let kept: Vec<Term> = vars.iter().filter(|v| keep.contains(&v.name)).map(|v| v.term()).collect();
    let clause = Clause {
        vars: vars.iter().cloned().collect(),
        body: Vec::new(),
        constraint: phi.clone(),
        head: Some(PredApp { pred: 0, args: kept }),
        label: String::new(),
    };
    let one = System { preds: Vec::new(), clauses: vec![clause], comments: Vec::new() };
    simplify(&one).clauses.pop().map_or_else(|| phi.clone(), |c| c.constraint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::validate::validate;
    use crate::horn::smtlib::parse_system;
    use crate::term::Value;

    /// A counter through three locations, two of them straight-line.
    const CHAIN: &str = "(declare-fun a (Int) Bool) (declare-fun b (Int) Bool) (declare-fun c (Int) Bool)
         (assert (forall ((x Int)) (=> (= x 0) (a x))))
         (assert (forall ((x Int) (y Int)) (=> (and (a x) (< x 10) (= y (+ x 1))) (b y))))
         (assert (forall ((x Int) (y Int)) (=> (and (b x) (= y (* 2 x))) (c y))))
         (assert (forall ((x Int) (y Int)) (=> (and (c x) (= y (- x 1))) (a y))))";

    #[test]
    fn straight_line_predicates_are_inlined_and_answers_map_back() {
        let budget = Budget::with_timeout(std::time::Duration::from_secs(20));
        let safe = parse_system(&format!("{CHAIN} (assert (forall ((x Int)) (=> (and (a x) (< x 0)) false)))")).expect("parses");
        let inl = inline(&safe, &Budget::unlimited()).expect("b and c can go");
        assert_eq!(inl.system.preds.len(), 1);
        // An invariant of the reduced system: a >= 0.
        let reduced = Invariant { interp: vec![Term::ge(Term::var(inl.system.preds[0].params[0].name.clone()), Term::int(0))] };
        let back = inl.verdict(Verdict::Safe(reduced), &budget).expect("translates");
        assert!(validate(&safe, &back, &budget).is_ok(), "{back:?}");

        let unsafe_ = parse_system(&format!("{CHAIN} (assert (forall ((x Int)) (=> (and (a x) (= x 7)) false)))")).expect("parses");
        let inl = inline(&unsafe_, &Budget::unlimited()).expect("b and c can go");
        let v = crate::engine::portfolio::race(&inl.system, vec![Box::new(crate::engine::bmc::Bmc)], &budget);
        let Verdict::Unsafe(_) = &v else { panic!("{v:?}") };
        let back = inl.verdict(v, &budget).expect("translates");
        let Verdict::Unsafe(d) = &back else { panic!("{back:?}") };
        assert!(validate(&unsafe_, &back, &budget).is_ok());
        // a: 0, 1, 3, 7, through b and c each time.
        assert_eq!(d.chain().len(), 11);
        assert_eq!(d.chain()[9].head_values, vec![Value::Int(7.into())]);
    }

    /// Two paths that say the same (through `b1` and through `b2`, with a
    /// choice `w` or `q` of their own) compose to one clause: named by
    /// position, the second reads as the first and is dropped. The answer
    /// still maps back to both.
    #[test]
    fn paths_that_say_the_same_are_kept_once() {
        let s = parse_system(
            "(declare-fun a (Int) Bool) (declare-fun b1 (Int) Bool) (declare-fun b2 (Int) Bool) (declare-fun c (Int) Bool)
             (assert (forall ((x Int)) (=> (= x 0) (a x))))
             (assert (forall ((x Int) (y Int)) (=> (and (a x) (< x 10) (= y (+ x 1))) (b1 y))))
             (assert (forall ((u Int) (v Int)) (=> (and (a u) (< u 10) (= v (+ u 1))) (b2 v))))
             (assert (forall ((x Int) (w Int)) (=> (and (b1 x) (>= w 0)) (c x))))
             (assert (forall ((z Int) (q Int)) (=> (and (b2 z) (>= q 0)) (c z))))
             (assert (forall ((x Int)) (=> (c x) (a x))))
             (assert (forall ((x Int)) (=> (and (a x) (< x 0)) false)))",
        )
        .expect("parses");
        let inl = inline(&s, &Budget::unlimited()).expect("b1, b2 and c can go");
        assert_eq!((inl.system.preds.len(), inl.system.clauses.len()), (1, 3), "{}", inl.system);
        let budget = Budget::with_timeout(std::time::Duration::from_secs(20));
        let reduced = Invariant { interp: vec![Term::ge(Term::var(inl.system.preds[0].params[0].name.clone()), Term::int(0))] };
        let back = inl.verdict(Verdict::Safe(reduced), &budget).expect("translates");
        assert!(validate(&s, &back, &budget).is_ok(), "{back:?}");
    }

    #[test]
    fn a_cancelled_budget_stops_inlining() {
        let s = parse_system(&format!("{CHAIN} (assert (forall ((x Int)) (=> (and (a x) (< x 0)) false)))")).expect("parses");
        let budget = Budget::unlimited();
        assert!(inline(&s, &budget).is_some(), "b and c can go");
        budget.cancel.cancel();
        assert!(inline(&s, &budget).is_none());
    }

    #[test]
    fn loops_through_themselves_stay() {
        let s = parse_system(
            "(declare-fun inv (Int) Bool)
             (assert (forall ((x Int)) (=> (= x 0) (inv x))))
             (assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 1))) (inv y))))
             (assert (forall ((x Int)) (=> (and (inv x) (< x 0)) false)))",
        )
        .expect("parses");
        assert!(inline(&s, &Budget::unlimited()).is_none());
    }
}
