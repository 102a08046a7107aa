//! Termination preconditions (issue 60): with a NO, a condition on the state
//! in which the non-terminating loop is entered under which every run of
//! the program ends, as weak as the samples allow, and proved.
//!
//! 1. Samples: runs of the program model from the start with small inputs
//!    ([`crate::ir::run::Runner::entry_sample`]), each giving the state on
//!    entering the loop and whether the run then ends or comes back to a
//!    state. Only where no input is read once the loop is entered (the
//!    entry state then decides the run).
//! 2. Generalization: a decision tree over atoms of the same shapes the
//!    fitter and the invariants use (affine comparisons `e <= c` over one
//!    variable or the sum or difference of two, and divisibility `m | e`),
//!    chosen by how well they separate the samples; the condition is the
//!    disjunction of the paths to the leaves where runs end.
//! 3. Proof: the program model with the condition assumed on every entry of
//!    the loop gets YES by the usual route (ranking functions, each checked
//!    by the certificate checker). Nothing else makes a precondition.
//! 4. What else is known: whether the NO's own run enters the loop outside
//!    the condition (it must: otherwise the two answers contradict each
//!    other, and no precondition is given), and whether the condition is
//!    the weakest: its complement (with the model's invariant facts) is a
//!    recurrent set of the loop, checked like a NO's, so every state there
//!    has a run that never ends.

mod reads;

use super::certificate::{self, NonTerminationWitness};
use super::{invariants, prove_loops, Answer, Loops, NoWitness, Outcome, ProveOptions};
use crate::horn::encode::Encoding;
use crate::instrument::{classify, TransitionKind};
use crate::ir::run::{Fate, Runner};
use crate::ir::{Action, LocId, Program};
use crate::solve::Budget;
use crate::term::{Affine, Term, Value};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// One condition on the entry state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// `e >= 0`.
    NonNegative(Affine),
    /// `modulus` divides `e` (`divides`), or does not.
    Divisible { modulus: BigInt, e: Affine, divides: bool },
}

impl Atom {
    pub fn to_term(&self) -> Term {
        match self {
            Atom::NonNegative(a) => Term::ge(a.to_term(), Term::int(0)),
            Atom::Divisible { modulus, e, divides } => {
                let zero = Term::eq(Term::modulo(e.to_term(), Term::Int(modulus.clone())), Term::int(0));
                if *divides {
                    zero
                } else {
                    Term::not(zero)
                }
            }
        }
    }

    fn negated(&self) -> Atom {
        match self {
            // not (e >= 0) is -e - 1 >= 0 over the integers.
            Atom::NonNegative(a) => Atom::NonNegative(a.times(&BigInt::from(-1)).plus(&Affine::constant(BigInt::from(-1)))),
            Atom::Divisible { modulus, e, divides } => Atom::Divisible { modulus: modulus.clone(), e: e.clone(), divides: !divides },
        }
    }

    fn holds(&self, state: &BTreeMap<String, i128>) -> Option<bool> {
        match self {
            Atom::NonNegative(a) => Some(value(a, state)? >= 0),
            Atom::Divisible { modulus, e, divides } => Some((value(e, state)?.rem_euclid(modulus.to_i128()?) == 0) == *divides),
        }
    }
}

fn value(a: &Affine, state: &BTreeMap<String, i128>) -> Option<i128> {
    let mut acc = a.constant.to_i128()?;
    for (v, c) in &a.coeffs {
        acc = acc.checked_add(c.to_i128()?.checked_mul(*state.get(v)?)?)?;
    }
    Some(acc)
}

/// Where a precondition's condition is stated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// On the state in which the loop is entered (the `cases`).
    LoopEntry,
    /// On every value one input inside the loop gives (a program that reads
    /// its inputs as it goes, `while (1) { x = read(); ... }`): the
    /// variable the value is stored in, the loop (its statement) inside
    /// which every read of it is restricted, and the condition over it.
    EveryRead { var: String, at: Option<crate::ir::Span>, condition: Term },
}

/// A proved termination precondition of the program.
#[derive(Clone, Debug)]
pub struct Precondition {
    /// The loop on whose entry (or inside which) the condition is stated.
    pub loop_index: usize,
    /// Where the condition holds: on entering the loop, or on every value
    /// an input inside it gives.
    pub place: Place,
    /// A disjunction of conjunctions of atoms over the loop's variables on
    /// entry; every run whose entries of the loop satisfy it ends. Empty
    /// for a condition on inputs read (see [`Place::EveryRead`]).
    pub cases: Vec<Vec<Atom>>,
    /// The NO's run enters the loop in a state outside the condition.
    pub witness_outside: bool,
    /// Every entry state outside the condition (that satisfies the model's
    /// invariant facts) has a run that never ends: no weaker condition is
    /// a precondition.
    pub weakest: bool,
    /// Where the condition comes from.
    pub source: PreconditionSource,
    /// How the condition's variables are printed (the model it was proved
    /// on need not be the answer's: a NO of execution has none).
    pub names: crate::ir::names::Names,
}

/// How a precondition was found (each is proved the same way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreconditionSource {
    /// Generalized from the fates of sampled runs.
    Learned,
    /// The negated guard of the loop: the loop not entered at all.
    LoopSkipped,
    /// The values of an input read inside the loop with which the loop is
    /// left right after the read.
    LeftAtRead,
}

impl Precondition {
    /// The condition as a term: over the state on entering the loop, or
    /// over the variable an input is read into.
    pub fn to_term(&self) -> Term {
        match &self.place {
            Place::EveryRead { condition, .. } => condition.clone(),
            Place::LoopEntry => Term::or(self.cases.iter().map(|c| Term::and(c.iter().map(Atom::to_term).collect())).collect()),
        }
    }
}

/// Time for the whole search (sampling, the proof, the checks).
pub const PRECONDITION_TIME: Duration = Duration::from_secs(6);
/// Runs sampled, at most.
const SAMPLES: u64 = 800;
/// Visits of cut-points a sampled run may take after the loop's entry.
const SAMPLE_VISITS: usize = 4000;
/// Variables a condition may speak of.
const MAX_VARIABLES: usize = 4;
/// Depth of the decision tree.
const MAX_DEPTH: usize = 4;

/// The precondition of a NO (`outcome`, an answer for `program`), if one
/// is found and proved within `budget`: after the answer, so that the
/// answer (and its confirmation by the second semantics) never waits for
/// it. For a NO of the model, on the model it was found on; for one of
/// execution, on the program model of the loop it names.
pub fn for_answer(program: &Program, outcome: &Outcome, opts: &ProveOptions, budget: &Budget) -> Option<Precondition> {
    let Answer::No { witness, .. } = &outcome.answer else { return None };
    // The model the proofs solve (no summaries: a program with recursion
    // gets no precondition).
    let model = super::solved_model(program.clone());
    if model.edges.iter().flat_map(|e| &e.actions).any(|a| matches!(a, Action::Mark(_))) {
        return not_searched(opts, "the program recurses");
    }
    let built;
    let (enc, li, witness) = match witness {
        NoWitness::Model(w) => (outcome.encoding.as_ref()?, w.loop_index, Some(w)),
        NoWitness::Executed(lasso) => {
            built = crate::horn::encode::encode(&model).ok()?;
            let at = |x: &LocId| model.locations.get(*x).and_then(|loc| loc.span.as_ref()).is_some_and(|s| (s.line, s.col) == (lasso.line, lasso.column));
            // The loop headed there; else (a loop made of gotos, whose
            // header the model puts at another of its labels) the
            // innermost loop through that place, or the loop headed
            // nearest to it. Which loop it is only decides where the
            // condition is stated and looked for: it is proved on the
            // whole program.
            let line_of = |x: &LocId| model.locations.get(*x).and_then(|loc| loc.span.as_ref()).map(|s| s.line);
            let li = built.loops.iter().position(|l| at(&l.header)).or_else(|| {
                built.loops.iter().enumerate().filter(|(_, l)| l.body.iter().any(at)).min_by_key(|(_, l)| l.body.len()).map(|(i, _)| i)
            });
            let li = li.or_else(|| {
                built
                    .loops
                    .iter()
                    .enumerate()
                    .filter_map(|(i, l)| Some((i, line_of(&l.header)?.abs_diff(lasso.line))))
                    .filter(|(_, d)| *d <= NEAREST_HEADER_LINES)
                    .min_by_key(|(_, d)| *d)
                    .map(|(i, _)| i)
            });
            let Some(li) = li else {
                return not_searched(opts, "the program model has no loop at the place of the run that repeats");
            };
            (&built, li, None)
        }
    };
    // The same model as the answer's: the same variables in the same order.
    if enc.vars.len() != model.vars.len() || enc.vars.iter().zip(&model.vars).any(|(a, b)| a.name != b.name) {
        return not_searched(opts, "the answer's model is not the one the proofs solve");
    }
    // NO may be answered on this model as it is: nothing over-approximated.
    let exact = program.forbid_no.is_empty()
        && !model.edges.iter().flat_map(|e| &e.actions).any(|a| matches!(a, Action::Choose(_) | Action::Inexact));
    search(&model, enc, li, witness, exact, opts, budget)
}

/// How far (in lines) from the place where a run of execution repeats a
/// loop of the model may be headed to be taken for it.
const NEAREST_HEADER_LINES: usize = 20;

/// No precondition, and why (with `--verbose`).
fn not_searched(opts: &ProveOptions, why: &str) -> Option<Precondition> {
    if opts.verbose {
        eprintln!("[precondition] not searched: {why}");
    }
    None
}

/// The precondition for loop `li` (of the NO's `witness`, where the NO has
/// one over this model), if one is found and proved within `budget`.
/// `program` is the program `enc` encodes; `exact`: `enc` is exact (so a
/// recurrent set on it is one of the program's runs).
fn search(program: &Program, enc: &Encoding, li: usize, witness: Option<&NonTerminationWitness>, exact: bool, opts: &ProveOptions, budget: &Budget) -> Option<Precondition> {
    let body = &enc.loops.get(li)?.body;
    if !enc.recursions.is_empty() {
        return not_searched(opts, "the program recurses");
    }
    let learned = if reads_inside(program, body) {
        if opts.verbose {
            eprintln!("[precondition] no samples: the loop reads inputs");
        }
        // The loop skipped first (a condition on entry, maybe the weakest),
        // then the values read restricted.
        let share = budget.remaining().unwrap_or(PRECONDITION_TIME) / 2;
        return not_entered(enc, li, witness, exact, opts, &budget.sub_budget(share)).or_else(|| reads::inputs_restricted(program, enc, li, opts, budget));
    } else {
        // Two thirds of the time: the loop skipped is still to be tried.
        let share = budget.remaining().unwrap_or(PRECONDITION_TIME).mul_f64(2.0 / 3.0);
        learned(program, enc, li, witness, exact, opts, &budget.sub_budget(share))
    };
    learned.or_else(|| not_entered(enc, li, witness, exact, opts, budget))
}

/// The condition under which the loop is not entered at all (the negated
/// conditions every step into its body needs): the last resort, said to be
/// the weakest only where the program ends exactly when the loop is
/// skipped.
fn not_entered(enc: &Encoding, li: usize, witness: Option<&NonTerminationWitness>, exact: bool, opts: &ProveOptions, budget: &Budget) -> Option<Precondition> {
    if !exact || budget.expired() {
        return None;
    }
    let l = enc.loops.get(li)?;
    let guards: Vec<BTreeSet<Term>> = enc
        .transitions
        .iter()
        .filter(|t| classify(t.from, t.to, &l.body, l.header) == TransitionKind::Decrement)
        .map(|t| t.pre_state_guard().conjuncts().into_iter().collect())
        .collect();
    let (first, rest) = guards.split_first()?;
    let common: Vec<&Term> = first.iter().filter(|c| rest.iter().all(|g| g.contains(c))).collect();
    // not (g_1 and ... and g_k): one case per negated comparison.
    let cases: Option<Vec<Vec<Atom>>> = common.iter().map(|c| negated_comparison(c)).collect::<Option<Vec<Vec<Vec<Atom>>>>>().map(|v| v.concat());
    let cases = cases.filter(|c| !c.is_empty())?;
    let mut found = Precondition {
        loop_index: li,
        place: Place::LoopEntry,
        cases,
        witness_outside: false,
        weakest: false,
        source: PreconditionSource::LoopSkipped,
        names: names(enc),
    };
    let condition = found.to_term();
    if !proved(enc, li, &condition, opts, budget) {
        return None;
    }
    found.weakest = complement_recurs(enc, li, &condition, budget);
    if opts.verbose {
        eprintln!("[precondition] the loop not entered: {condition}");
    }
    let outside = witness.and_then(|w| entry_state(enc, w)).and_then(|state| condition.eval(&state));
    match outside {
        Some(Value::Bool(true)) => None,
        Some(Value::Bool(false)) => Some(Precondition { witness_outside: true, ..found }),
        _ => Some(found),
    }
}

/// `not c` for a comparison of affine terms, as cases of atoms (`a != b`
/// is two cases).
fn negated_comparison(c: &Term) -> Option<Vec<Vec<Atom>>> {
    use crate::term::Op;
    let (op, a, b, negated) = super::guards::comparison(c)?;
    let (a, b) = (Affine::from_term(a)?, Affine::from_term(b)?);
    let minus_one = BigInt::from(-1);
    let b_minus_a = b.plus(&a.times(&minus_one));
    let a_minus_b = a.plus(&b.times(&minus_one));
    let less = |x: &Affine| Atom::NonNegative(x.plus(&Affine::constant(minus_one.clone())));
    // The condition c itself, then negated unless it already was.
    let holds: Vec<Vec<Atom>> = match op {
        Op::Le => vec![vec![Atom::NonNegative(b_minus_a)]],
        Op::Lt => vec![vec![less(&b_minus_a)]],
        Op::Ge => vec![vec![Atom::NonNegative(a_minus_b)]],
        Op::Gt => vec![vec![less(&a_minus_b)]],
        Op::Eq => vec![vec![Atom::NonNegative(b_minus_a.clone()), Atom::NonNegative(a_minus_b.clone())]],
        _ => return None,
    };
    if negated {
        return Some(holds);
    }
    // not (a op b): each conjunct of the one case negated is a case.
    Some(holds.into_iter().next()?.into_iter().map(|atom| vec![atom.negated()]).collect())
}

/// The precondition learned from samples of runs, if one is proved.
fn learned(program: &Program, enc: &Encoding, li: usize, witness: Option<&NonTerminationWitness>, exact: bool, opts: &ProveOptions, budget: &Budget) -> Option<Precondition> {
    let samples = sample(program, enc, enc.loops.get(li)?, budget)?;
    if samples.iter().all(|(_, f)| *f != Fate::Ends) {
        // No sampled run ends: `false`, said only where it is the weakest
        // (every state on entering the loop has a run that never ends).
        let never = Precondition {
            loop_index: li,
            place: Place::LoopEntry,
            cases: Vec::new(),
            witness_outside: witness.is_some(),
            weakest: true,
            source: PreconditionSource::Learned,
            names: names(enc),
        };
        return (exact && complement_recurs(enc, li, &never.to_term(), budget)).then_some(never);
    }
    let features = features(enc, enc.loops[li].header, &samples);
    if features.is_empty() {
        return None;
    }
    let atoms = candidate_atoms(&features, &samples);
    let labelled: Vec<(&BTreeMap<String, i128>, bool)> = samples.iter().map(|(s, f)| (s, *f == Fate::Ends)).collect();
    let cases = shortest(simplified(tree(&labelled, &atoms, MAX_DEPTH)), &budget.sub_budget(Duration::from_millis(500)));
    if cases.is_empty() {
        return None;
    }
    let mut found = Precondition { loop_index: li, place: Place::LoopEntry, cases, witness_outside: false, weakest: false, source: PreconditionSource::Learned, names: names(enc) };
    if opts.verbose {
        eprintln!("[precondition] candidate {} from {} samples", found.to_term(), samples.len());
    }
    found.cases = proved_cases(enc, li, found.cases, opts, budget)?;
    let condition = found.to_term();
    match witness.and_then(|w| entry_state(enc, w)).and_then(|state| condition.eval(&state)) {
        Some(Value::Bool(false)) => found.witness_outside = true,
        // The NO's run enters inside a proved precondition: the two
        // answers contradict each other; this one is not given.
        Some(Value::Bool(true)) => return None,
        _ => {}
    }
    found.weakest = exact && complement_recurs(enc, li, &condition, budget);
    Some(found)
}

/// The cases of a learned condition that are proved: all of them, or else
/// those proved one by one (a stronger condition, still a precondition:
/// samples generalize beyond what holds, `y >= 5` beside `x + y >= 0`), and
/// their disjunction where that is proved too.
fn proved_cases(enc: &Encoding, li: usize, cases: Vec<Vec<Atom>>, opts: &ProveOptions, budget: &Budget) -> Option<Vec<Vec<Atom>>> {
    let term = |cases: &[Vec<Atom>]| Term::or(cases.iter().map(|c| Term::and(c.iter().map(Atom::to_term).collect())).collect());
    if proved(enc, li, &term(&cases), opts, budget) {
        return Some(cases);
    }
    if cases.len() < 2 {
        return None;
    }
    let each = budget.remaining().unwrap_or(PRECONDITION_TIME).div_f64(cases.len() as f64 + 1.0).min(CASE_TIME);
    let alone: Vec<Vec<Atom>> = cases
        .into_iter()
        .filter(|c| !budget.expired() && proved(enc, li, &term(std::slice::from_ref(c)), opts, &budget.sub_budget(each)))
        .collect();
    match alone.len() {
        0 => None,
        1 => Some(alone),
        _ if proved(enc, li, &term(&alone), opts, budget) => Some(alone),
        // Proved apart but not together: the first.
        _ => alone.into_iter().next().map(|c| vec![c]),
    }
}

/// Time for proving one case of a learned condition on its own.
const CASE_TIME: Duration = Duration::from_millis(1500);

fn names(enc: &Encoding) -> crate::ir::names::Names {
    crate::ir::names::Names::readable(&enc.program_vars)
}

/// Whether a run can read an input (or meet a value the model does not
/// know) inside the loop whose locations are `body`: then the entry state
/// does not decide whether that entry of the loop ends. (What the run does
/// after it leaves the loop is the proof's business, not the samples'.)
fn reads_inside(program: &Program, body: &BTreeSet<LocId>) -> bool {
    program
        .edges
        .iter()
        .filter(|e| body.contains(&e.from) && body.contains(&e.to))
        .any(|e| e.actions.iter().any(|a| matches!(a, Action::Havoc(_) | Action::Choose(_) | Action::Inexact)))
}

/// Entry states of the loop and their fates, by variable name (dead
/// variables 0), each state once; `None` unless some run does not end.
fn sample(program: &Program, enc: &Encoding, l: &crate::ir::loops::Loop, budget: &Budget) -> Option<Vec<(BTreeMap<String, i128>, Fate)>> {
    let runner = Runner::new(program)?;
    let cuts = super::lasso::cuts_of(program, enc);
    let until = Instant::now() + budget.remaining().unwrap_or(PRECONDITION_TIME) / 3;
    let mut by_state: BTreeMap<Vec<i128>, Fate> = BTreeMap::new();
    for seed in 0..SAMPLES {
        if Instant::now() >= until || budget.expired() {
            break;
        }
        if let Some((state, fate)) = runner.entry_sample(&cuts, l.header, &l.body, seed, SAMPLE_VISITS) {
            // A run too long to tell counts as one that does not end: that
            // can only make the condition stronger, and it is proved.
            let fate = if fate == Fate::Undecided { Fate::Repeats } else { fate };
            by_state.insert(state, fate);
        }
    }
    let samples: Vec<(BTreeMap<String, i128>, Fate)> = by_state
        .into_iter()
        .map(|(state, fate)| (program.vars.iter().map(|v| v.name.clone()).zip(state).collect(), fate))
        .collect();
    let ends = samples.iter().filter(|(_, f)| *f == Fate::Ends).count();
    (ends < samples.len()).then_some(samples)
}

/// The variables a condition may use: the program's own (named in the
/// source), live at the header, and not the same in every sample.
fn features(enc: &Encoding, header: LocId, samples: &[(BTreeMap<String, i128>, Fate)]) -> Vec<String> {
    let names = names(enc);
    let live = enc.live.get(header);
    enc.vars
        .iter()
        .map(|v| v.name.clone())
        .filter(|v| names.get(v).is_some() && live.is_none_or(|l| l.contains(v)))
        .filter(|v| {
            let first = samples.first().and_then(|(s, _)| s.get(v));
            samples.iter().any(|(s, _)| s.get(v) != first)
        })
        .take(MAX_VARIABLES)
        .collect()
}

/// Comparisons at the sampled values where the fate changes, and
/// divisibility by 2..6, over each variable and each sum and difference
/// of two; simplest first.
fn candidate_atoms(features: &[String], samples: &[(BTreeMap<String, i128>, Fate)]) -> Vec<Atom> {
    let mut exprs: Vec<Affine> = features.iter().map(|v| affine(&[(v, 1)])).collect();
    for (i, a) in features.iter().enumerate() {
        for b in &features[i + 1..] {
            exprs.push(affine(&[(a, 1), (b, -1)]));
            exprs.push(affine(&[(a, 1), (b, 1)]));
        }
    }
    let mut atoms = Vec::new();
    for e in &exprs {
        let mut points: Vec<(i128, bool)> = samples.iter().filter_map(|(s, f)| Some((value(e, s)?, *f == Fate::Ends))).collect();
        points.sort();
        let mut values: BTreeMap<i128, BTreeSet<bool>> = BTreeMap::new();
        for (x, ends) in points {
            values.entry(x).or_default().insert(ends);
        }
        let values: Vec<(i128, BTreeSet<bool>)> = values.into_iter().collect();
        for w in values.windows(2) {
            if w[0].1 != w[1].1 || w[0].1.len() > 1 {
                // e <= w[0].0, that is w[0].0 - e >= 0.
                atoms.push(Atom::NonNegative(e.times(&BigInt::from(-1)).plus(&Affine::constant(BigInt::from(w[0].0)))));
            }
        }
    }
    for e in &exprs {
        for m in 2..=6i64 {
            for r in 0..m {
                atoms.push(Atom::Divisible { modulus: BigInt::from(m), e: e.plus(&Affine::constant(BigInt::from(-r))), divides: true });
            }
        }
    }
    atoms
}

fn affine(terms: &[(&String, i64)]) -> Affine {
    Affine { coeffs: terms.iter().map(|(v, c)| ((*v).clone(), BigInt::from(*c))).collect(), constant: BigInt::zero() }
}

/// The conjunctions of the paths to leaves where every sample ends. A leaf
/// with both fates (no atom separates them) counts as one that does not.
fn tree(samples: &[(&BTreeMap<String, i128>, bool)], atoms: &[Atom], depth: usize) -> Vec<Vec<Atom>> {
    let ends = samples.iter().filter(|(_, e)| *e).count();
    if ends == 0 {
        return Vec::new();
    }
    if ends == samples.len() {
        return vec![Vec::new()];
    }
    if depth == 0 {
        return Vec::new();
    }
    // The atom of least weighted entropy of the fates on its two sides;
    // the first among equals (the simplest).
    let mut best: Option<(f64, &Atom)> = None;
    for a in atoms {
        let (mut yes, mut no) = ([0usize; 2], [0usize; 2]);
        for (s, e) in samples {
            match a.holds(s) {
                Some(true) => yes[*e as usize] += 1,
                Some(false) => no[*e as usize] += 1,
                None => {}
            }
        }
        if yes[0] + yes[1] == 0 || no[0] + no[1] == 0 {
            continue;
        }
        let cost = weighted_entropy(yes) + weighted_entropy(no);
        if best.is_none_or(|(b, _)| cost < b - 1e-9) {
            best = Some((cost, a));
        }
    }
    let Some((_, atom)) = best else { return Vec::new() };
    let mut cases = Vec::new();
    for side in [atom.clone(), atom.negated()] {
        let part: Vec<(&BTreeMap<String, i128>, bool)> = samples.iter().filter(|(s, _)| side.holds(s) == Some(true)).copied().collect();
        for mut c in tree(&part, atoms, depth - 1) {
            c.insert(0, side.clone());
            cases.push(c);
        }
    }
    cases
}

/// `n · H(p)` for the counts of the two fates.
fn weighted_entropy(counts: [usize; 2]) -> f64 {
    let n = (counts[0] + counts[1]) as f64;
    counts.iter().filter(|&&c| c > 0).map(|&c| -(c as f64) * (c as f64 / n).log2()).sum()
}

/// Each conjunction with one lower and one upper bound per expression (the
/// tighter), in the order the atoms came.
fn simplified(cases: Vec<Vec<Atom>>) -> Vec<Vec<Atom>> {
    cases
        .into_iter()
        .map(|c| {
            let mut kept: Vec<Atom> = Vec::new();
            for a in c {
                let Atom::NonNegative(new) = &a else {
                    kept.push(a);
                    continue;
                };
                let same = kept.iter().position(|k| matches!(k, Atom::NonNegative(old) if old.coeffs == new.coeffs));
                match same {
                    Some(i) => {
                        if let Atom::NonNegative(old) = &kept[i] {
                            if new.constant < old.constant {
                                kept[i] = a.clone();
                            }
                        }
                    }
                    None => kept.push(a),
                }
            }
            kept
        })
        .collect()
}

/// The same condition with fewer atoms and cases: each dropped where the
/// disjunction stays equivalent (Z3), thresholds before divisibility.
fn shortest(mut cases: Vec<Vec<Atom>>, budget: &Budget) -> Vec<Vec<Atom>> {
    let of = |cases: &[Vec<Atom>]| Term::or(cases.iter().map(|c| Term::and(c.iter().map(Atom::to_term).collect())).collect());
    let implies = |a: &Term, b: &Term| {
        let s = crate::smt::solver_for(budget);
        s.assert(&crate::smt::bool_of(&Term::and(vec![a.clone(), Term::not(b.clone())])));
        crate::smt::check(&s, budget) == crate::smt::Sat::Unsat
    };
    let mut i = 0;
    while i < cases.len() {
        let whole = of(&cases);
        let mut rest = cases.clone();
        rest.remove(i);
        if !rest.is_empty() && implies(&whole, &of(&rest)) {
            cases = rest;
            continue;
        }
        let mut j = 0;
        while j < cases[i].len() {
            let mut fewer = cases.clone();
            fewer[i].remove(j);
            if implies(&of(&fewer), &of(&cases)) {
                cases = fewer;
            } else {
                j += 1;
            }
        }
        i += 1;
    }
    // A case whose atoms were shortened may now cover an earlier one.
    let mut i = 0;
    while i < cases.len() && cases.len() > 1 {
        let mut rest = cases.clone();
        rest.remove(i);
        if implies(&of(&cases), &of(&rest)) {
            cases = rest;
        } else {
            i += 1;
        }
    }
    for c in &mut cases {
        c.sort_by_key(|a| matches!(a, Atom::Divisible { .. }));
    }
    cases
}

/// The model with `condition` assumed on every entry of loop `li` (over
/// the header state the entry reaches).
pub fn restricted(enc: &Encoding, li: usize, condition: &Term) -> Encoding {
    let mut out = enc.clone();
    let (header, body) = (enc.loops[li].header, enc.loops[li].body.clone());
    for t in &mut out.transitions {
        if classify(t.from, t.to, &body, header) == TransitionKind::Entry {
            let post: BTreeMap<String, Term> = enc.vars.iter().map(|v| v.name.clone()).zip(t.post.iter().cloned()).collect();
            t.constraint = Term::and(vec![t.constraint.clone(), condition.subst(&post)]);
        }
    }
    out
}

/// Every loop of the restricted model gets a checked ranking function.
fn proved(enc: &Encoding, li: usize, condition: &Term, opts: &ProveOptions, budget: &Budget) -> bool {
    all_ranked(&restricted(enc, li, condition), opts, budget)
}

/// Every loop of `model` gets a checked ranking function.
fn all_ranked(model: &Encoding, opts: &ProveOptions, budget: &Budget) -> bool {
    let facts = invariants::cutpoint_facts(model, &budget.sub_budget(Duration::from_secs(1)));
    let opts = ProveOptions { hints: None, emit_horn: None, stop_at_unknown: true, ..opts.clone() };
    matches!(prove_loops(model, &facts, &opts, &|_| None, &|_| None, budget), Loops::Ranked(..))
}

/// The state in which the witness's stem enters the loop.
fn entry_state(enc: &Encoding, w: &NonTerminationWitness) -> Option<crate::term::Valuation> {
    let l = enc.loops.get(w.loop_index)?;
    w.stem.iter().find_map(|step| {
        let t = enc.transitions.get(step.transition)?;
        (classify(t.from, t.to, &l.body, l.header) == TransitionKind::Entry).then(|| step.state.clone())
    })
}

/// Whether every header state outside `condition` (and inside the model's
/// invariant facts) has a successor there: a recurrent set, so no state in
/// it terminates. Loops whose only cut-point is the header.
fn complement_recurs(enc: &Encoding, li: usize, condition: &Term, budget: &Budget) -> bool {
    let Some(region) = certificate::loop_region(enc, li) else { return false };
    if region.cutpoints.len() != 1 {
        return false;
    }
    let header = region.cutpoints[0];
    let facts = invariants::cutpoint_facts(enc, &budget.sub_budget(Duration::from_secs(1)));
    let mut set = vec![Term::not(condition.clone())];
    set.extend(facts.get(&header).cloned().unwrap_or_default());
    let sets: BTreeMap<LocId, Term> = [(header, Term::and(set))].into();
    certificate::region_recurrence_holds(enc, &region, &sets, budget) == crate::smt::Sat::Unsat
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_most(terms: &[(&str, i64)], k: i64) -> Atom {
        // sum c_i x_i <= k as k - sum >= 0
        Atom::NonNegative(Affine {
            coeffs: terms.iter().map(|(v, c)| (v.to_string(), BigInt::from(-c))).collect(),
            constant: BigInt::from(k),
        })
    }

    #[test]
    fn an_implied_case_is_dropped() {
        // c + x <= -1 implies x <= -1 || c <= -1.
        let cases = vec![vec![at_most(&[("c", 1), ("x", 1)], -1)], vec![at_most(&[("x", 1)], -1)], vec![at_most(&[("c", 1)], -1)]];
        let short = shortest(cases, &Budget::with_timeout(Duration::from_secs(5)));
        assert_eq!(short, vec![vec![at_most(&[("x", 1)], -1)], vec![at_most(&[("c", 1)], -1)]]);
    }

    #[test]
    fn the_tree_separates_by_threshold_and_divisibility() {
        // Ends exactly when x <= 10 and x = 1 (mod 3).
        let samples: Vec<BTreeMap<String, i128>> = (-20..=20).map(|x| [("x".to_string(), x)].into()).collect();
        let labelled: Vec<(&BTreeMap<String, i128>, bool)> = samples.iter().map(|s| (s, s["x"] <= 10 && s["x"].rem_euclid(3) == 1)).collect();
        let fates: Vec<(BTreeMap<String, i128>, Fate)> =
            labelled.iter().map(|(s, e)| ((*s).clone(), if *e { Fate::Ends } else { Fate::Repeats })).collect();
        let atoms = candidate_atoms(&["x".to_string()], &fates);
        let cases = tree(&labelled, &atoms, MAX_DEPTH);
        for (s, ends) in &labelled {
            let holds = cases.iter().any(|c| c.iter().all(|a| a.holds(s) == Some(true)));
            assert_eq!(holds, *ends, "x = {}: {cases:?}", s["x"]);
        }
    }
}
