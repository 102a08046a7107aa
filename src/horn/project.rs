//! Projection of the cut-point graph onto the variables a question depends
//! on (a cone of influence over the large-block transitions).
//!
//! A decrease check of a candidate `4 - n` over a loop whose body is a whole
//! inlined program (product lines: hundreds of cut-points, a hundred
//! variables) asks the engine for invariants at every inner cut-point over
//! every variable, although only `n` and what flows into it matter. The
//! projection keeps the variables the seeds depend on through assignments
//! (the post-state terms) and through the path constraints that define the
//! intermediate values those assignments read; every other variable is
//! dropped with the conditions that mention it.
//!
//! Dropping a condition only adds runs: every transition of the original
//! graph, restricted to the kept variables, is a transition of the
//! projection. So a safety proof of the projection (an invariant over the
//! kept variables) is also one of the original system, and the certificate
//! checker re-checks it there; what is lost is precision (a branch on a
//! dropped variable becomes a free choice), never soundness.

use super::encode::{Encoding, Transition};
use crate::term::{Term, VarDecl};
use std::collections::BTreeSet;

/// The projection onto what `seeds` depend on, where it keeps at most half
/// of the variables (a smaller saving is not worth a second query).
pub fn smaller_projection(enc: &Encoding, seeds: &BTreeSet<String>) -> Option<Encoding> {
    let kept = relevant_variables(enc, seeds);
    (!kept.is_empty() && kept.len() * 2 <= enc.vars.len()).then(|| project(enc, &kept))
}

/// The program variables that `seeds` depend on: the least set holding the
/// seeds and closed under "a kept variable's new value reads `v`", where
/// reading a local of the transition (an intermediate value, an input) also
/// reads what every path condition mentioning that local mentions.
pub fn relevant_variables(enc: &Encoding, seeds: &BTreeSet<String>) -> BTreeSet<String> {
    let mut kept: BTreeSet<String> = seeds.iter().filter(|s| enc.vars.iter().any(|v| &v.name == *s)).cloned().collect();
    loop {
        let before = kept.len();
        for t in &enc.transitions {
            let (pre, _) = dependencies(enc, t, &kept);
            kept.extend(pre);
        }
        if kept.len() == before {
            return kept;
        }
    }
}

/// For transition `t` and the kept variables: the pre-state variables and
/// the locals that the kept variables' new values depend on.
fn dependencies(enc: &Encoding, t: &Transition, kept: &BTreeSet<String>) -> (BTreeSet<String>, BTreeSet<String>) {
    let locals: BTreeSet<&str> = t.locals.iter().map(|l| l.name.as_str()).collect();
    let mut pre: BTreeSet<String> = BTreeSet::new();
    let mut used_locals: BTreeSet<String> = BTreeSet::new();
    let mut pending: Vec<String> = Vec::new();
    let read = |names: BTreeSet<VarDecl>, pre: &mut BTreeSet<String>, used: &mut BTreeSet<String>, pending: &mut Vec<String>| {
        for v in names {
            if locals.contains(v.name.as_str()) {
                if used.insert(v.name.clone()) {
                    pending.push(v.name);
                }
            } else {
                pre.insert(v.name);
            }
        }
    };
    for (v, post) in enc.vars.iter().zip(&t.post) {
        if kept.contains(&v.name) {
            read(post.free_vars(), &mut pre, &mut used_locals, &mut pending);
        }
    }
    if pending.is_empty() {
        return (pre, used_locals);
    }
    let conjuncts: Vec<(Term, BTreeSet<VarDecl>)> = t.constraint.conjuncts().into_iter().map(|c| {
        let fv = c.free_vars();
        (c, fv)
    }).collect();
    let mut taken = vec![false; conjuncts.len()];
    while let Some(local) = pending.pop() {
        for (i, (_, fv)) in conjuncts.iter().enumerate() {
            if !taken[i] && fv.iter().any(|v| v.name == local) {
                taken[i] = true;
                read(fv.clone(), &mut pre, &mut used_locals, &mut pending);
            }
        }
    }
    (pre, used_locals)
}

/// The encoding restricted to `kept` (see the module comment): same
/// cut-points, loops and transitions, each transition with the new values
/// of the kept variables and the path conditions over kept variables and the
/// locals they read.
pub fn project(enc: &Encoding, kept: &BTreeSet<String>) -> Encoding {
    let keep_var: Vec<bool> = enc.vars.iter().map(|v| kept.contains(&v.name)).collect();
    let transitions = enc
        .transitions
        .iter()
        .map(|t| {
            let (_, locals) = dependencies(enc, t, kept);
            let inside = |fv: &BTreeSet<VarDecl>| fv.iter().all(|v| kept.contains(&v.name) || locals.contains(&v.name));
            let constraint = Term::and(t.constraint.conjuncts().into_iter().filter(|c| inside(&c.free_vars())).collect());
            Transition {
                from: t.from,
                to: t.to,
                locals: t.locals.iter().filter(|l| locals.contains(&l.name)).cloned().collect(),
                havocs: t.havocs.iter().filter(|h| locals.contains(&h.local)).cloned().collect(),
                choices: t.choices.iter().filter(|l| locals.contains(*l)).cloned().collect(),
                inexact: t.inexact,
                allocations: t.allocations.iter().filter(|l| locals.contains(*l)).cloned().collect(),
                constraint,
                post: t.post.iter().zip(&keep_var).filter(|(_, k)| **k).map(|(p, _)| p.clone()).collect(),
                path: t.path.clone(),
            }
        })
        .collect();
    Encoding {
        vars: enc.vars.iter().zip(&keep_var).filter(|(_, k)| **k).map(|(v, _)| v.clone()).collect(),
        cutpoints: enc.cutpoints.clone(),
        transitions,
        loops: enc.loops.clone(),
        exit: enc.exit,
        file: enc.file.clone(),
        program_vars: enc.program_vars.clone(),
        coalesced: enc.coalesced.clone(),
        live: enc.live.clone(),
        recursions: enc.recursions.clone(),
        places: enc.places.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::horn::encode::encode_c_for_test as encoding;

    #[test]
    fn a_counter_does_not_depend_on_what_the_body_computes() {
        let enc = encoding(
            "int main() { int n = 0, x = __VERIFIER_nondet_int(), y = 0;
               while (n < 4) { n = n + 1; while (x > 0) { x = x - 1; y = y + x; } }
               return 0; }",
        );
        let n = enc.vars.iter().find(|v| v.name.ends_with('n') || v.name == "n").expect("n").name.clone();
        let kept = relevant_variables(&enc, &BTreeSet::from([n.clone()]));
        assert_eq!(kept, BTreeSet::from([n.clone()]), "{kept:?}");
        let small = project(&enc, &kept);
        assert_eq!(small.vars.len(), 1);
        assert_eq!(small.transitions.len(), enc.transitions.len());
        // The loop guard on `n` stays; the inner guard on `x` is dropped.
        let text: String = small.transitions.iter().map(|t| t.constraint.to_string()).collect();
        assert!(!text.contains('x'), "{text}");
    }

    #[test]
    fn values_flowing_into_a_kept_variable_are_kept() {
        let enc = encoding(
            "int main() { int i = 0, k = __VERIFIER_nondet_int(), z = 5;
               if (k < 1) return 0;
               while (i < 100) { i = i + k; z = z * 2; }
               return 0; }",
        );
        let name = |s: &str| enc.vars.iter().find(|v| v.name == s).expect(s).name.clone();
        let kept = relevant_variables(&enc, &BTreeSet::from([name("i")]));
        assert!(kept.contains(&name("k")), "{kept:?}");
        assert!(!kept.contains(&name("z")), "{kept:?}");
    }
}
