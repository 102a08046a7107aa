//! Return summaries of recursive functions.
//!
//! A recursive call's return branch (`c/lower/calls/recursion.rs`) gives an
//! arbitrary result. Where the caller's termination depends on that result
//! (McCarthy's 91 function: `f(f(x + 11))` descends with the inner call's
//! result), a summary is needed: a formula over the arguments and the
//! result that holds of every call that returns. It is found here, before
//! slicing, from the model itself:
//!
//! * the *obligations* of `f`: the paths of the model from a descent header
//!   of `f` to the mark where that activation returns
//!   ([`RecursionMark::Exits`]), without descending (each call made on the
//!   way takes its return branch, whose mark [`RecursionMark::Returned`]
//!   names its arguments and result); a loop in the body is left by any
//!   of its exits with what it writes chosen anew; too many paths leave
//!   `f` without a summary;
//! * candidates: `result >= c`, `result <= c`, `result - a >= c`,
//!   `result - a <= c` for each integer parameter `a` and each constant
//!   `c` of the body (and its negation, 0 and ±1);
//! * Houdini: a candidate is dropped while some obligation, assuming the
//!   surviving candidates of the calls on its path, can end with it false.
//!
//! What survives holds of every call that returns, by induction on the
//! depth of calls (a call's inner calls return first): the obligations
//! follow every path of the C body (the model over-approximates it) and
//! assume of an inner call only what holds of it. A non-terminating call
//! never reaches its return branch's continuation, so nothing is claimed
//! of it. The summary is then assumed on every return branch of the
//! function (an `assume` after the `inexact` step: NO never rests on it).
//! The certificate checker proves every obligation again
//! (`termination::certificate::check_summaries`) before a YES that uses it.

use super::{Action, LocId, Program, RecursionMark};
use crate::smt::{self, Sat};
use crate::solve::Budget;
use crate::term::{Term, Value};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The proven summary of one recursive function: a conjunction over the
/// placeholders [`arg`] (the value of parameter `i` at the call) and
/// [`RESULT`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub function: String,
    pub conjuncts: Vec<Term>,
    /// The parameters' C names, for printing (`None`: not an integer).
    pub params: Vec<Option<String>>,
}

impl Summary {
    /// The summary over the parameters' C names, the result written as
    /// the call `f(a, b)`: what the report prints. A parameter that is not
    /// an integer (never in the conjuncts) shows as `...` in the call,
    /// not under a name the program does not have.
    pub fn as_c(&self) -> Term {
        let names: Vec<String> = self.params.iter().map(|p| p.clone().unwrap_or_else(|| "...".to_string())).collect();
        let mut map: BTreeMap<String, Term> = names.iter().enumerate().map(|(i, n)| (arg(i), Term::var(n.clone()))).collect();
        map.insert(RESULT.to_string(), Term::var(format!("{}({})", self.function, names.join(", "))));
        Term::and(self.conjuncts.iter().map(|c| c.subst(&map)).collect())
    }
}

/// The placeholder of the result in a summary (not a C identifier).
pub const RESULT: &str = "result#";

/// The placeholder of the value of parameter `i` in a summary.
pub fn arg(i: usize) -> String {
    format!("arg#{i}")
}

/// A call on an obligation's path that returned: its function, its
/// arguments and its result in the path's symbols.
#[derive(Clone, Debug)]
pub struct ReturnedCall {
    pub function: String,
    pub args: Vec<Option<Term>>,
    pub result: Option<Term>,
}

/// One path of an activation of `function` from its entry to its return.
#[derive(Clone, Debug)]
pub struct Obligation {
    pub function: String,
    /// What the path assumes (in the symbols of the entry state and of
    /// the values chosen on the way).
    pub condition: Vec<Term>,
    pub calls: Vec<ReturnedCall>,
    /// The parameters' values at the entry.
    pub params: Vec<Option<Term>>,
    /// The value returned (`None`: no integer value).
    pub value: Option<Term>,
}

/// Paths per descent header beyond which a function gets no summary.
const MAX_PATHS: usize = 256;

/// Every function's obligations, or `None` for a function with a path the
/// walk cannot enumerate (a loop in its body, too many paths).
pub fn obligations(p: &Program) -> BTreeMap<String, Option<Vec<Obligation>>> {
    let adj = p.adjacency();
    let regions = Regions::of(p);
    let mut out: BTreeMap<String, Option<Vec<Obligation>>> = BTreeMap::new();
    for (h, loc) in p.locations.iter().enumerate() {
        let Some(f) = &loc.recursion else { continue };
        let found = paths_from(p, &adj, &regions, h, f);
        let entry = out.entry(f.clone()).or_insert_with(|| Some(Vec::new()));
        match (entry.as_mut(), found) {
            (Some(all), Some(mut more)) => all.append(&mut more),
            _ => *entry = None,
        }
    }
    out
}

/// The loops inside activations: the strongly connected regions of the
/// model without its descent headers (every edge into one is a descent).
/// A path entering a region leaves it by any of its exits with every
/// variable the region writes chosen anew: an over-approximation of what
/// the loop does (its own tests and the calls it makes are not assumed).
struct Regions {
    of: Vec<Option<usize>>,
    writes: Vec<BTreeSet<String>>,
    exits: Vec<Vec<usize>>,
}

impl Regions {
    fn of(p: &Program) -> Regions {
        let inside: BTreeSet<LocId> =
            (0..p.locations.len()).filter(|&l| l != p.exit && p.locations[l].recursion.is_none()).collect();
        let mut r = Regions { of: vec![None; p.locations.len()], writes: Vec::new(), exits: Vec::new() };
        for c in super::split::components(p, &inside) {
            let cyclic = c.len() > 1 || p.edges.iter().any(|e| e.from == e.to && c.contains(&e.from));
            if !cyclic {
                continue;
            }
            let (mut writes, mut exits) = (BTreeSet::new(), Vec::new());
            for (i, e) in p.edges.iter().enumerate().filter(|(_, e)| c.contains(&e.from)) {
                if !c.contains(&e.to) {
                    exits.push(i);
                    continue;
                }
                for a in &e.actions {
                    if let Action::Assign(v, _) | Action::Havoc(v) | Action::Choose(v) = a {
                        writes.insert(v.clone());
                    }
                }
            }
            for &l in &c {
                r.of[l] = Some(r.writes.len());
            }
            r.writes.push(writes);
            r.exits.push(exits);
        }
        r
    }
}

/// The symbolic state of a path: the variables changed so far.
#[derive(Clone, Default)]
struct Walk {
    state: BTreeMap<String, Term>,
    condition: Vec<Term>,
    calls: Vec<ReturnedCall>,
    fresh: usize,
    on_path: BTreeSet<LocId>,
}

impl Walk {
    fn value(&self, t: &Term) -> Term {
        t.subst(&self.state)
    }
}

fn paths_from(p: &Program, adj: &super::Adjacency, regions: &Regions, header: LocId, f: &str) -> Option<Vec<Obligation>> {
    let mut done = Vec::new();
    let mut stack = vec![(header, Walk { on_path: [header].into(), ..Walk::default() })];
    let mut visits = 0usize;
    while let Some((at, mut walk)) = stack.pop() {
        // In a loop: leave it by any exit, what it writes chosen anew.
        let edges: Vec<usize> = match regions.of.get(at).copied().flatten() {
            Some(r) => {
                for v in &regions.writes[r] {
                    walk.fresh += 1;
                    walk.state.insert(v.clone(), Term::var(format!("{v}#{}", walk.fresh)));
                }
                regions.exits[r].clone()
            }
            None => adj.out.get(at).cloned().unwrap_or_default(),
        };
        for e in edges.iter().map(|&i| &p.edges[i]) {
            visits += 1;
            if visits > MAX_PATHS * 64 || done.len() > MAX_PATHS {
                return None;
            }
            // A descent (into any header) is not a step of this activation.
            if p.locations.get(e.to).is_some_and(|l| l.recursion.is_some()) {
                continue;
            }
            let mut w = walk.clone();
            let mut ended = false;
            for a in &e.actions {
                match a {
                    Action::Assume(t) => w.condition.push(w.value(t)),
                    Action::Assign(v, t) => {
                        let t = w.value(t);
                        w.state.insert(v.clone(), t);
                    }
                    Action::Havoc(v) | Action::Choose(v) => {
                        w.fresh += 1;
                        w.state.insert(v.clone(), Term::var(format!("{v}#{}", w.fresh)));
                    }
                    Action::Inexact => {}
                    Action::Mark(RecursionMark::Returned { function, args, result }) => {
                        let args = args.iter().map(|a| a.as_ref().map(|a| w.value(a))).collect();
                        let result = result.as_ref().map(|r| w.value(&Term::var(r.clone())));
                        w.calls.push(ReturnedCall { function: function.clone(), args, result });
                    }
                    Action::Mark(RecursionMark::Exits { function, params, value }) => {
                        if function == f {
                            done.push(Obligation {
                                function: f.to_string(),
                                condition: std::mem::take(&mut w.condition),
                                calls: std::mem::take(&mut w.calls),
                                params: params.iter().map(|v| v.as_ref().map(|v| Term::var(v.clone()))).collect(),
                                value: value.as_ref().map(|v| w.value(v)),
                            });
                        }
                        ended = true;
                        break;
                    }
                }
            }
            if ended || e.to == p.exit {
                continue;
            }
            if !w.on_path.insert(e.to) {
                // A loop inside the activation: not enumerated.
                return None;
            }
            stack.push((e.to, w));
        }
    }
    Some(done)
}

/// A summary's conjunct instantiated at a call (`None` where it names a
/// value the call does not give).
fn instantiate(c: &Term, args: &[Option<Term>], result: Option<&Term>) -> Option<Term> {
    let mut map = BTreeMap::new();
    for d in c.free_vars() {
        let t = if d.name == RESULT {
            result?.clone()
        } else {
            let i: usize = d.name.strip_prefix("arg#")?.parse().ok()?;
            args.get(i)?.clone()?
        };
        map.insert(d.name, t);
    }
    Some(c.subst(&map))
}

/// What an obligation may assume of the calls on its path.
pub fn assumed(o: &Obligation, summaries: &HashMap<String, Vec<Term>>) -> Vec<Term> {
    o.calls
        .iter()
        .flat_map(|c| {
            summaries.get(&c.function).into_iter().flatten().filter_map(|s| instantiate(s, &c.args, c.result.as_ref()))
        })
        .collect()
}

/// A conjunct of `f`'s summary at the end of an obligation.
pub fn claimed(o: &Obligation, conjunct: &Term) -> Option<Term> {
    instantiate(conjunct, &o.params, o.value.as_ref())
}

/// Candidate conjuncts of a function's summary, over the placeholders.
fn candidates(obligations: &[Obligation]) -> Vec<Term> {
    let Some(first) = obligations.first() else { return Vec::new() };
    if obligations.iter().any(|o| o.value.is_none()) {
        return Vec::new();
    }
    let mut constants: BTreeSet<BigInt> = [0, 1, -1].into_iter().map(BigInt::from).collect();
    for o in obligations {
        for t in o.condition.iter().chain(&o.value) {
            integers(t, &mut |i| {
                if constants.len() < 24 && i.bits() < 32 {
                    constants.insert(i.clone());
                    constants.insert(-i.clone());
                }
            });
        }
    }
    let r = Term::var(RESULT);
    let mut out = Vec::new();
    for c in &constants {
        out.push(Term::ge(r.clone(), Term::Int(c.clone())));
        out.push(Term::le(r.clone(), Term::Int(c.clone())));
    }
    for (i, p) in first.params.iter().enumerate() {
        if p.is_none() {
            continue;
        }
        let d = Term::sub(r.clone(), Term::var(arg(i)));
        for c in &constants {
            out.push(Term::ge(d.clone(), Term::Int(c.clone())));
            out.push(Term::le(d.clone(), Term::Int(c.clone())));
        }
    }
    out
}

/// Every integer constant of a term.
fn integers(t: &Term, f: &mut dyn FnMut(&BigInt)) {
    match t {
        Term::Int(i) => f(i),
        Term::App(_, args) => args.iter().for_each(|a| integers(a, f)),
        Term::Bool(_) | Term::Var(..) => {}
    }
}

/// Houdini over the candidates of every function (see the module comment).
/// Functions whose paths cannot be enumerated, or whose every candidate
/// fails, get no summary.
pub fn infer(p: &Program, budget: &Budget) -> Vec<Summary> {
    let all = obligations(p);
    let mut current: HashMap<String, Vec<Term>> = HashMap::new();
    for (f, obs) in &all {
        if let Some(obs) = obs {
            let c = candidates(obs);
            if !c.is_empty() {
                current.insert(f.clone(), c);
            }
        }
    }
    let mut changed = true;
    while changed && !current.is_empty() {
        changed = false;
        for (f, obs) in &all {
            let Some(obs) = obs else { continue };
            for o in obs {
                let Some(mine) = current.get(f).filter(|c| !c.is_empty()).cloned() else { break };
                let claims: Vec<Option<Term>> = mine.iter().map(|c| claimed(o, c)).collect();
                let s = smt::solver_for(budget);
                for t in o.condition.iter().chain(&assumed(o, &current)) {
                    s.assert(&smt::bool_of(t));
                }
                let all_claims = Term::and(claims.iter().map(|c| c.clone().unwrap_or_else(Term::ff)).collect());
                s.assert(&smt::bool_of(&Term::not(all_claims)));
                let keep: Vec<bool> = match smt::check(&s, budget) {
                    Sat::Unsat => continue,
                    Sat::Unknown => vec![false; mine.len()],
                    Sat::Sat => match s.get_model() {
                        Some(m) => claims
                            .iter()
                            .map(|c| c.as_ref().is_some_and(|c| smt::eval_in(&m, c) == Some(Value::Bool(true))))
                            .collect(),
                        None => vec![false; mine.len()],
                    },
                };
                let kept: Vec<Term> = mine.into_iter().zip(keep).filter(|(_, k)| *k).map(|(c, _)| c).collect();
                current.insert(f.clone(), kept);
                changed = true;
            }
        }
    }
    let mut out: Vec<Summary> = current
        .into_iter()
        .filter(|(_, c)| !c.is_empty())
        .map(|(function, conjuncts)| {
            let params = match all.get(&function).and_then(|o| o.as_ref()).and_then(|o| o.first()) {
                Some(o) => o
                    .params
                    .iter()
                    .map(|t| match t {
                        Some(Term::Var(n, _)) => Some(p.var(n).map_or(n.to_string(), |v| v.source_name.clone())),
                        _ => None,
                    })
                    .collect(),
                None => Vec::new(),
            };
            Summary { function, conjuncts: strongest(conjuncts), params }
        })
        .collect();
    out.sort_by(|a, b| a.function.cmp(&b.function));
    out
}

/// Of bounds on one quantity (`result`, `result - arg#i`) only the
/// strongest of each direction: the rest are implied.
fn strongest(conjuncts: Vec<Term>) -> Vec<Term> {
    let mut best: BTreeMap<(String, bool), (BigInt, Term)> = BTreeMap::new();
    let mut other = Vec::new();
    for c in conjuncts {
        let bound = match &c {
            Term::App(op @ (crate::term::Op::Ge | crate::term::Op::Le), a) if a.len() == 2 => match &a[1] {
                Term::Int(k) => Some(((a[0].to_string(), matches!(op, crate::term::Op::Ge)), k.clone())),
                _ => None,
            },
            _ => None,
        };
        match bound {
            Some((key, k)) => {
                let better = best.get(&key).is_none_or(|(old, _)| if key.1 { k > *old } else { k < *old });
                if better {
                    best.insert(key, (k, c));
                }
            }
            None => other.push(c),
        }
    }
    other.extend(best.into_values().map(|(_, c)| c));
    other
}

/// The program with each call's return branch assuming its callee's
/// summary and the marks gone.
pub fn apply(mut p: Program, summaries: &[Summary]) -> Program {
    let by_function: HashMap<&str, &Summary> = summaries.iter().map(|s| (s.function.as_str(), s)).collect();
    for e in &mut p.edges {
        if !e.actions.iter().any(|a| matches!(a, Action::Mark(_))) {
            continue;
        }
        let old = std::mem::take(&mut e.actions);
        for a in old {
            match a {
                Action::Mark(RecursionMark::Returned { function, args, result }) => {
                    let result = result.map(Term::var);
                    let facts: Vec<Term> = by_function
                        .get(function.as_str())
                        .into_iter()
                        .flat_map(|s| &s.conjuncts)
                        .filter_map(|c| instantiate(c, &args, result.as_ref()))
                        .collect();
                    if !facts.is_empty() {
                        e.actions.push(Action::Assume(Term::and(facts)));
                    }
                }
                Action::Mark(RecursionMark::Exits { .. }) => {}
                other => e.actions.push(other),
            }
        }
    }
    p
}

/// Summaries found within `budget` and the program that assumes them.
pub fn summarize(p: Program, budget: &Budget) -> (Program, Vec<Summary>) {
    let has_marks = p.edges.iter().flat_map(|e| &e.actions).any(|a| matches!(a, Action::Mark(_)));
    let summaries = if has_marks { infer(&p, budget) } else { Vec::new() };
    (apply(p, &summaries), summaries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_reads_in_the_programs_names() {
        // `length(p)` with a pointer `p`: the call shows `...` for it,
        // never a placeholder of the model.
        let s = Summary {
            function: "length".into(),
            conjuncts: vec![Term::ge(Term::var(RESULT), Term::int(0))],
            params: vec![None],
        };
        assert_eq!(s.as_c().to_string(), "(>= |length(...)| 0)");
        let s = Summary {
            function: "f".into(),
            conjuncts: vec![Term::le(Term::var(arg(0)), Term::var(RESULT))],
            params: vec![Some("x".into())],
        };
        assert!(s.as_c().to_string().contains("f(x)"), "{}", s.as_c());
    }
}
