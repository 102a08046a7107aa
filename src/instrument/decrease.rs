//! Direct validation of a candidate as a classical ranking function: every
//! iteration of the loop (from the header back to the header) decreases it.
//!
//! This asks for less than T_rank: the invariant it needs speaks of the
//! program variables only (no counters), and for loops whose only cut-point
//! is the header none is needed at all when the guard bounds the candidate.
//! It is tried before the counter-based queries; when it fails the prover
//! goes on with T_term / T_rank as in the paper.
//!
//! Conditions (with `p_i` the candidate's integer pieces, scaled by `unit`):
//! - piecewise: `f = max(p_1, ..., p_n, 0)` and `f(x') <= f(x) - unit`;
//! - lexicographic and multiphase: some `i` with `p_i(x) >= 0`,
//!   `p_i(x') <= p_i(x) - unit` and `p_j(x') <= p_j(x)` for all `j < i`
//!   (a lexicographic ranking function; well-founded because each component
//!   can drop only finitely often while it is non-negative once the earlier
//!   ones have stopped dropping).
//!
//! For loops with inner cut-points the header state at the start of the
//! current iteration is carried along as a snapshot (`s#x` for each `x`).

use super::{ClauseRole, CounterKind, CounterScheme, Frame, Instrumented, TransitionKind};
use crate::horn::encode::Encoding;
use crate::horn::Clause;
use crate::term::{Term, VarDecl};
use std::collections::BTreeMap;

fn piece_values(scheme: &CounterScheme, state: &BTreeMap<String, Term>) -> Vec<Term> {
    scheme.pieces.iter().map(|p| p.to_term().subst(state)).collect()
}

/// The decrease condition between an old and a new header state.
pub fn decrease(scheme: &CounterScheme, old: &BTreeMap<String, Term>, new: &BTreeMap<String, Term>) -> Term {
    let unit = Term::Int(scheme.unit.clone());
    let a = piece_values(scheme, old);
    let b = piece_values(scheme, new);
    match scheme.kind {
        CounterKind::Max => {
            // max(0, b..) <= max(0, a..) - unit, written without nested
            // `ite`s (whose size doubles with every piece): every new value
            // lies at least `unit` below some old one.
            let old: Vec<Term> = std::iter::once(Term::int(0)).chain(a).collect();
            Term::and(
                std::iter::once(Term::int(0))
                    .chain(b)
                    .map(|bj| Term::or(old.iter().map(|ai| Term::le(bj.clone(), Term::sub(ai.clone(), unit.clone()))).collect()))
                    .collect(),
            )
        }
        CounterKind::Lex | CounterKind::Phases => Term::or(
            (0..a.len())
                .map(|i| {
                    let mut conj = vec![
                        Term::ge(a[i].clone(), Term::int(0)),
                        Term::le(b[i].clone(), Term::sub(a[i].clone(), unit.clone())),
                    ];
                    conj.extend((0..i).map(|j| Term::le(b[j].clone(), a[j].clone())));
                    Term::and(conj)
                })
                .collect(),
        ),
    }
}

/// Most iteration starts whose guards the decrease condition reads.
const MAX_ITERATION_GUARDS: usize = 16;

/// The pre-state guards of the transitions from the loop's header into its
/// body (each a necessary condition for starting an iteration), when there
/// are few and each constrains the state.
///
/// The decrease condition is asked only of iterations that end in a header
/// state satisfying one of them: from any other header state no iteration
/// can start, so the loop is left at once. Still a ranking argument: an
/// infinite run visits the header infinitely often, each visit followed by
/// another iteration, and every iteration between two such visits lowers
/// `max(0, p_i)` by `unit` from at least `unit` (or, lexicographic, some
/// component). The walk to newer blocks (`alloc#next - p.base`) needs
/// this: its last step, to NULL (block 0), raises the candidate, and
/// leaves the loop. So do lexicographic arguments whose first component
/// turns negative on the iteration that leaves (`lex(z, x - y + 1)` of
/// aaron3 in ../shared/bench/c: YES in 1.2 s, MAYBE at 30 s without).
/// The iterations of one entry
/// of the loop stay at most `floor(f / unit) + 1` (all but the last one
/// lower `f`), the bound [`crate::termination::bounds`] reads off the
/// decrease check.
fn iteration_guards(enc: &Encoding, loop_index: usize) -> Option<Vec<Term>> {
    let lp = enc.loops.get(loop_index)?;
    let guards: Vec<Term> = enc.iteration_starts(lp).map(|t| t.pre_state_guard()).collect();
    (guards.len() <= MAX_ITERATION_GUARDS && guards.iter().all(|g| *g != Term::tt())).then_some(guards)
}

/// The decrease system of loop `loop_index`: safe iff every iteration from
/// a reachable header state decreases the candidate.
pub fn instrument_decrease(enc: &Encoding, loop_index: usize, scheme: &CounterScheme) -> Instrumented {
    let lp = &enc.loops[loop_index];
    let header = lp.header;
    // The header state at the start of the current iteration is needed at
    // the cut-points inside the loop only for the candidate's variables
    // that a step inside an iteration may change: a variable no step into
    // such a cut-point writes still has, there, the value it had at the
    // header (a natural loop is entered through its header only), so the
    // step that closes the iteration reads it from its own pre-state. An
    // outer loop whose counter only its last step moves (`i++` after the
    // inner loops) then needs no snapshot, and no invariant relating one.
    let inner = |l: crate::ir::LocId| l != header && lp.body.contains(&l);
    let read: std::collections::BTreeSet<&str> = scheme.pieces.iter().flat_map(|p| p.coeffs.keys().map(|k| k.as_str())).collect();
    let snapped: Vec<usize> = (0..enc.vars.len())
        .filter(|&i| read.contains(enc.vars[i].name.as_str()))
        .filter(|&i| enc.transitions.iter().any(|t| inner(t.to) && t.post.get(i) != Some(&enc.vars[i].term())))
        .collect();
    let snapshot_needed = enc.cutpoints.iter().any(|&c| inner(c)) && !snapped.is_empty();
    let snap: Vec<VarDecl> = if snapshot_needed { snapped.iter().map(|&i| VarDecl::int(format!("s#{}", enc.vars[i].name))).collect() } else { vec![] };
    let xs: Vec<Term> = enc.vars.iter().map(|v| v.term()).collect();
    let snap_terms: Vec<Term> = snap.iter().map(|v| v.term()).collect();
    let comments = vec![
        format!("decrease check of loop {loop_index} (header L{header}) of {} for candidate {scheme}", enc.file),
        "sat = every iteration decreases the candidate (a ranking function); unsat = some does not".into(),
    ];
    let goes_on = iteration_guards(enc, loop_index);
    let mut frame = Frame::new(enc, loop_index, snap, comments);
    let as_map = |vals: &[Term]| -> BTreeMap<String, Term> {
        enc.vars.iter().map(|v| v.name.clone()).zip(vals.iter().cloned()).collect()
    };
    let mut roles = Vec::new();
    for step in frame.steps() {
        let t = step.transition;
        // The header state at the start of the current iteration, and
        // what of it the cut-points inside carry (`snapped`).
        let iteration_start: Vec<Term> = match step.kind {
            TransitionKind::Decrement => xs.clone(),
            TransitionKind::Inside => {
                let mut start = xs.clone();
                for (k, &i) in snapped.iter().enumerate() {
                    if let Some(s) = snap_terms.get(k) {
                        start[i] = s.clone();
                    }
                }
                start
            }
            _ => t.post.clone(),
        };
        if frame.keep.contains(&t.to) {
            let snapshot: Vec<Term> = if snapshot_needed { snapped.iter().map(|&i| iteration_start[i].clone()).collect() } else { vec![] };
            let head = frame.app(t.to, t.post.clone(), &snapshot);
            frame.system.clauses.push(Clause {
                vars: step.vars.clone(),
                body: step.body.clone(),
                constraint: t.constraint.clone(),
                head: Some(head),
                label: format!("{} ({:?})", step.label, step.kind),
            });
            roles.push(ClauseRole::Step { transition: step.index, kind: step.kind });
        }
        let closes_iteration =
            t.to == header && matches!(step.kind, TransitionKind::Decrement | TransitionKind::Inside);
        if closes_iteration {
            let new = as_map(&t.post);
            let dec = decrease(scheme, &as_map(&iteration_start), &new);
            // An iteration after which the loop is left at once need not
            // decrease (see `iteration_guards`).
            let goes_on = match &goes_on {
                Some(guards) => Term::or(guards.iter().map(|g| g.subst(&new)).collect()),
                None => Term::tt(),
            };
            frame.system.clauses.push(Clause {
                vars: step.vars,
                body: step.body,
                constraint: Term::and(vec![t.constraint.clone(), Term::not(dec), goes_on]),
                head: None,
                label: format!("{}: error, the candidate does not decrease", step.label),
            });
            roles.push(ClauseRole::DecreaseError { transition: step.index });
        }
    }
    frame.finish(roles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranking::{AffinePiece, RankingCandidate};

    fn snapshot_vars(src: &str, candidate: &str) -> Vec<String> {
        let p = crate::c::parse_source("t.c", src, crate::ir::IntSemantics::Math, crate::ir::MachineModel::lp64()).expect("lowers");
        let enc = crate::horn::encode::encode(&crate::termination::solved_model(p)).expect("encodes");
        let outer = (0..enc.loops.len()).find(|&li| enc.loops[li].parent.is_none()).expect("an outer loop");
        let scheme = crate::termination::scheme_of(&RankingCandidate::single(AffinePiece::variable(candidate)));
        let inst = instrument_decrease(&enc, outer, &scheme);
        let mut found: Vec<String> = inst
            .system
            .clauses
            .iter()
            .flat_map(|c| c.vars.iter().map(|v| v.name.clone()))
            .filter(|n| n.starts_with("s#"))
            .collect();
        found.sort();
        found.dedup();
        found
    }

    #[test]
    fn only_the_candidates_variables_changed_inside_an_iteration_are_carried() {
        // `k` moves only on the step that closes the iteration: the inner
        // loop's cut-point need not remember it.
        let closing = "int main(void) { int n = __VERIFIER_nondet_int(); int k = n; int s = 0; \
                       while (k > 0) { for (int j = 0; j < 10; j++) s += j; k--; } return s; }";
        assert_eq!(snapshot_vars(closing, "k"), Vec::<String>::new());
        // Moved before the inner loop: its value at the header must be carried.
        let early = "int main(void) { int n = __VERIFIER_nondet_int(); int k = n; int s = 0; \
                     while (k > 0) { k--; for (int j = 0; j < 10; j++) s += j; } return s; }";
        assert_eq!(snapshot_vars(early, "k"), vec!["s#k".to_string()]);
    }
}
