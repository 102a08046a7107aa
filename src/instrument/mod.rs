//! The T_term and T_rank instrumentations (Urban, Gurfinkel, Kahsai 2016, §4.1)
//! of one loop for one candidate ranking function.
//!
//! Cut-points inside the loop carry extra counter arguments `r#0..r#n-1`:
//! - on a loop-entry transition (from outside into the header) the counters
//!   are set to the candidate's pieces evaluated on the new header state;
//! - on a transition leaving the header into the loop body they are
//!   decremented by the combination's `⊖`;
//! - T_term: a loop-exit transition goes to `false` when the counters are
//!   negative (`⊲ 0`): an error trace is a terminating run that iterated more
//!   often than the candidate allows;
//! - T_rank: a transition leaving the header into the body goes to `false`
//!   when the counters are negative: safe means the candidate bounds every run.
//!
//! Counters hold `unit * rank` so that rational pieces stay integral: pieces
//! are given already multiplied by `unit`, and `⊖` subtracts `unit`. Counters
//! start at `max(rank, 0)`: a candidate only has to bound the iterations of
//! runs that do iterate (the paper's T_term would otherwise demand
//! `rank >= 0` on every loop entry, including those that exit at once).

pub mod decrease;

use crate::horn::encode::source_name;
use crate::horn::encode::{Encoding, Source};
pub use decrease::instrument_decrease;
use crate::horn::{Clause, PredApp, PredId, System};
use crate::ir::LocId;
use crate::term::{Affine, Term, VarDecl};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// How pieces combine (docs/design.md, "How pieces combine": the table of
/// §4.2 of the paper).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CounterKind {
    /// `max{r_1..r_n}`: decrement every piece; negative when all are.
    Max,
    /// `(r_1..r_n)`: decrement the last non-negative piece, reset the later
    /// ones to their expressions on the current state; negative when `r_1` is.
    Lex,
    /// Like `Lex` but never reset.
    Phases,
}

/// The counters an instrumented loop carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterScheme {
    pub kind: CounterKind,
    /// Integer affine pieces (already scaled by `unit`); at least one.
    pub pieces: Vec<Affine>,
    /// The amount `⊖` subtracts (the common denominator of rational pieces).
    pub unit: BigInt,
}

impl CounterScheme {
    /// The initial candidate of Algorithm 2: the constant zero.
    pub fn zero() -> CounterScheme {
        CounterScheme { kind: CounterKind::Max, pieces: vec![Affine::constant(BigInt::zero())], unit: BigInt::one() }
    }
    /// Number of counters. `max{r_1..r_n} ⊖ 1 = max{r_1 - 1..r_n - 1}`, so a
    /// piecewise candidate needs a single counter holding the maximum: the
    /// engines then look for invariants over one counter, not n.
    fn n(&self) -> usize {
        match self.kind {
            CounterKind::Max => 1,
            _ => self.pieces.len().max(1),
        }
    }

    /// The initial counter values on a header state given by `state`.
    fn initial_counters(&self, state: &BTreeMap<String, Term>) -> Vec<Term> {
        match self.kind {
            CounterKind::Max => {
                let values: Vec<Term> = (0..self.pieces.len().max(1)).map(|i| self.piece(i).to_term().subst(state)).collect();
                vec![max_term(values)]
            }
            _ => (0..self.n()).map(|i| clamp(self.piece(i).to_term().subst(state))).collect(),
        }
    }
    fn piece(&self, i: usize) -> Affine {
        self.pieces.get(i).cloned().unwrap_or_else(|| Affine::constant(BigInt::zero()))
    }
}

impl fmt::Display for CounterScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.kind {
            CounterKind::Max => "max",
            CounterKind::Lex => "lex",
            CounterKind::Phases => "phases",
        };
        let ps: Vec<String> = self.pieces.iter().map(|p| p.to_string()).collect();
        write!(f, "{name}({})", ps.join(", "))?;
        if !self.unit.is_one() {
            write!(f, " / {}", self.unit)?;
        }
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Find terminating runs that exceed the candidate.
    Term,
    /// Validate the candidate on all runs.
    Rank,
    /// T_term started from any header state, reachable or not: the loop
    /// alone, so that bounded model checking finds short escaping runs even
    /// where every run from the program start iterates thousands of times.
    /// Only a source of samples: its traces need not be real runs, which is
    /// harmless because every candidate is validated on the real program.
    AnyStateTerm,
    /// A bound on iterations (`Max` counters only): like T_rank, but a
    /// transition into the body errs when the counter is below one `unit`
    /// (T_rank: below 0), so safe means every entry of the loop iterates at
    /// most `floor(max(p_1, ..., p_n, 0) / unit)` times, the pieces taken on
    /// the header state the loop is entered in (T_rank allows one more).
    Bound,
    /// A ceiling on an expression over the loop's run (`Max` counters
    /// only): the counter is set on entry to at least the maximum of the
    /// pieces (on the entry state) and never changes; a transition into
    /// the body errs when the watched expression (on the header state it
    /// leaves) is above it. Safe means: in every entry of the loop, the
    /// watched expression at every header state the body is entered from
    /// is at most `max(p_1, ..., p_n)` on entry (the later components of a
    /// lexicographic argument, see [`crate::termination::bounds`]).
    Ceiling(Affine),
}

/// What a transition is with respect to the instrumented loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransitionKind {
    /// Neither end in the loop.
    Outside,
    /// From outside into the header: counters set.
    Entry,
    /// From the header into the loop body: counters decremented.
    Decrement,
    /// Inside the loop, not from the header: counters kept.
    Inside,
    /// From inside the loop to outside: counters dropped.
    Exit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClauseRole {
    /// The instrumented copy of `Encoding::transitions[index]`.
    Step { transition: usize, kind: TransitionKind },
    /// `Mode::AnyStateTerm`: an arbitrary state at the header, counters set.
    AnyEntry,
    /// T_term error: transition `index` leaves the loop with negative counters.
    ExitError { transition: usize },
    /// T_rank error: transition `index` iterates with negative counters.
    IterationError { transition: usize },
    /// Decrease check error: transition `index` ends an iteration on which
    /// the candidate does not decrease.
    DecreaseError { transition: usize },
}

#[derive(Clone, Debug)]
pub struct Instrumented {
    pub system: System,
    /// One role per clause of `system`.
    pub roles: Vec<ClauseRole>,
    /// Location of each predicate.
    pub pred_loc: Vec<LocId>,
    /// The predicate of the loop header.
    pub header_pred: PredId,
    pub header: LocId,
    /// Number of program variables (the first arguments of every predicate).
    pub n_vars: usize,
    /// Number of counter arguments of predicates inside the loop.
    pub n_counters: usize,
}

pub fn counter_var(i: usize) -> VarDecl {
    VarDecl::int(format!("r#{i}"))
}

/// Classify a transition with respect to a loop body and header.
pub fn classify(from: Source, to: LocId, body: &BTreeSet<LocId>, header: LocId) -> TransitionKind {
    let src_in = matches!(from, Source::At(s) if body.contains(&s));
    let dst_in = body.contains(&to);
    match (src_in, dst_in) {
        (false, false) => TransitionKind::Outside,
        (false, true) => TransitionKind::Entry,
        (true, true) if from == Source::At(header) => TransitionKind::Decrement,
        (true, true) => TransitionKind::Inside,
        (true, false) => TransitionKind::Exit,
    }
}

/// Cut-points from which the header can be reached (the header's loop body
/// included): the only part of the program that matters for the loop.
pub(crate) fn relevant_cutpoints(enc: &Encoding, header: LocId) -> BTreeSet<LocId> {
    let mut keep: BTreeSet<LocId> = [header].into();
    let mut changed = true;
    while changed {
        changed = false;
        for t in &enc.transitions {
            if let Source::At(s) = t.from {
                if keep.contains(&t.to) && keep.insert(s) {
                    changed = true;
                }
            }
        }
    }
    keep
}

/// What both instrumentations (counters, snapshots) share: one predicate
/// per relevant cut-point, those inside the loop with `extra` parameters,
/// and for every relevant transition its kind, clause variables and body.
pub(crate) struct Frame<'a> {
    pub enc: &'a Encoding,
    pub body_locs: &'a BTreeSet<LocId>,
    pub header: LocId,
    pub keep: BTreeSet<LocId>,
    pub extra: Vec<VarDecl>,
    pub system: System,
    pub pred_of: BTreeMap<LocId, PredId>,
    pub pred_loc: Vec<LocId>,
}

/// One relevant transition, ready for its clauses.
pub(crate) struct Step<'a> {
    pub index: usize,
    pub transition: &'a crate::horn::encode::Transition,
    pub kind: TransitionKind,
    /// Program variables, the source's extra parameters, the locals.
    pub vars: Vec<VarDecl>,
    /// The source predicate applied to the pre-state and its extra parameters.
    pub body: Vec<PredApp>,
    pub label: String,
}

impl<'a> Frame<'a> {
    pub fn new(enc: &'a Encoding, loop_index: usize, extra: Vec<VarDecl>, comments: Vec<String>) -> Frame<'a> {
        let lp = &enc.loops[loop_index];
        let keep = relevant_cutpoints(enc, lp.header);
        let mut system = System { comments, ..System::default() };
        let mut pred_of = BTreeMap::new();
        let mut pred_loc = Vec::new();
        for &c in enc.cutpoints.iter().filter(|c| keep.contains(c)) {
            let mut params = enc.vars.clone();
            if lp.body.contains(&c) {
                params.extend(extra.iter().cloned());
            }
            pred_of.insert(c, system.add_pred(enc.pred_name(c), params));
            pred_loc.push(c);
        }
        Frame { enc, body_locs: &lp.body, header: lp.header, keep, extra, system, pred_of, pred_loc }
    }

    /// The predicate of `l` applied to a state and, inside the loop, to the
    /// extra arguments.
    pub fn app(&self, l: LocId, state: Vec<Term>, extra: &[Term]) -> PredApp {
        let mut args = state;
        if self.body_locs.contains(&l) {
            args.extend(extra.iter().cloned());
        }
        PredApp { pred: self.pred_of[&l], args }
    }

    /// The transitions that start at the program start or a relevant cut-point.
    pub fn steps(&self) -> Vec<Step<'a>> {
        let enc = self.enc;
        let xs: Vec<Term> = enc.vars.iter().map(|v| v.term()).collect();
        let extra_terms: Vec<Term> = self.extra.iter().map(|v| v.term()).collect();
        let mut out = Vec::new();
        for (index, t) in enc.transitions.iter().enumerate() {
            let from_kept = match t.from {
                Source::Start => true,
                Source::At(s) => self.keep.contains(&s),
            };
            if !from_kept {
                continue;
            }
            let kind = classify(t.from, t.to, self.body_locs, self.header);
            // From the start, the pre-state is the arbitrary initial state.
            let mut vars = enc.vars.clone();
            let mut body = Vec::new();
            if let Source::At(s) = t.from {
                if self.body_locs.contains(&s) {
                    vars.extend(self.extra.iter().cloned());
                }
                body.push(self.app(s, xs.clone(), &extra_terms));
            }
            vars.extend(t.locals.iter().cloned());
            let label = format!("{} -> {}", source_name(enc, t.from), enc.pred_name(t.to));
            out.push(Step { index, transition: t, kind, vars, body, label });
        }
        out
    }

    pub fn finish(self, roles: Vec<ClauseRole>) -> Instrumented {
        Instrumented {
            header_pred: self.pred_of[&self.header],
            header: self.header,
            n_vars: self.enc.vars.len(),
            n_counters: self.extra.len(),
            system: self.system,
            roles,
            pred_loc: self.pred_loc,
        }
    }
}

/// `max(v, 0)`. Counters start (and lexicographic components restart) at
/// no less than 0: a loop entered where the candidate is negative but that
/// does not iterate is no counterexample, and the termination argument of
/// T_rank does not depend on the starting values.
fn clamp(v: Term) -> Term {
    match &v {
        Term::Int(_) => max_term(vec![v, Term::int(0)]),
        _ => Term::ite(Term::ge(v.clone(), Term::int(0)), v, Term::int(0)),
    }
}

/// `max(v_1, ..., v_n)` as nested if-then-else.
fn max_term(mut values: Vec<Term>) -> Term {
    let mut acc = values.remove(0);
    for v in values {
        acc = Term::ite(Term::ge(acc.clone(), v.clone()), acc, v);
    }
    acc
}

/// `⊲ 0` on the counters.
pub fn negative(kind: CounterKind, r: &[Term]) -> Term {
    match kind {
        CounterKind::Max => Term::and(r.iter().map(|x| Term::lt(x.clone(), Term::int(0))).collect()),
        CounterKind::Lex | CounterKind::Phases => Term::lt(r[0].clone(), Term::int(0)),
    }
}

/// A counter with less than one `unit` left (every counter, for `Max`;
/// the first, for the others): what [`Mode::Bound`] calls exhausted.
fn below_unit(scheme: &CounterScheme, r: &[Term]) -> Term {
    let unit = Term::Int(scheme.unit.clone());
    match scheme.kind {
        CounterKind::Max => Term::and(r.iter().map(|x| Term::lt(x.clone(), unit.clone())).collect()),
        CounterKind::Lex | CounterKind::Phases => Term::lt(r[0].clone(), unit),
    }
}

/// `r ⊖ 1` (in units): new counter values from the old ones and the header
/// state (for lexicographic resets, expressions over the program variables).
pub fn decrement(scheme: &CounterScheme, r: &[Term]) -> Vec<Term> {
    let unit = Term::Int(scheme.unit.clone());
    let n = r.len();
    match scheme.kind {
        CounterKind::Max => r.iter().map(|x| Term::sub(x.clone(), unit.clone())).collect(),
        CounterKind::Lex | CounterKind::Phases => {
            let nonneg = |i: usize| Term::ge(r[i].clone(), Term::int(0));
            let neg = |i: usize| Term::lt(r[i].clone(), Term::int(0));
            (0..n)
                .map(|j| {
                    // Component j is decremented when it is the last non-negative one.
                    let dec = Term::and(std::iter::once(nonneg(j)).chain((j + 1..n).map(neg)).collect());
                    let dec_value = Term::sub(r[j].clone(), unit.clone());
                    if scheme.kind == CounterKind::Phases || j == 0 {
                        Term::ite(dec, dec_value, r[j].clone())
                    } else {
                        // Reset when an earlier component is the one decremented.
                        let later_all_neg = Term::and((j..n).map(neg).collect());
                        let earlier_some_nonneg = Term::or((0..j).map(nonneg).collect());
                        let reset = Term::and(vec![later_all_neg, earlier_some_nonneg]);
                        Term::ite(dec, dec_value, Term::ite(reset, clamp(scheme.piece(j).to_term()), r[j].clone()))
                    }
                })
                .collect()
        }
    }
}

/// The counters on entering the header in `state`, with the constraint
/// that defines them (fresh variables are added to `vars`).
fn entry_counters(scheme: &CounterScheme, state: &BTreeMap<String, Term>, vars: &mut Vec<VarDecl>) -> (Term, Vec<Term>) {
    if scheme.kind == CounterKind::Max {
        // Any counter value at or above the maximum: the error (`r < 0`
        // after uniform decrements) is monotone in `r`, so this is
        // equivalent to `r = max{...}` and keeps the clause free of case
        // splits.
        let init = VarDecl::int("r#init");
        let bounds: Vec<Term> = (0..scheme.pieces.len().max(1))
            .map(|i| Term::ge(init.term(), scheme.piece(i).to_term().subst(state)))
            .chain(std::iter::once(Term::ge(init.term(), Term::int(0))))
            .collect();
        vars.push(init.clone());
        (Term::and(bounds), vec![init.term()])
    } else {
        (Term::tt(), scheme.initial_counters(state))
    }
}

/// Build the T_term or T_rank system of loop `loop_index` for `scheme`.
pub fn instrument(enc: &Encoding, loop_index: usize, scheme: &CounterScheme, mode: Mode) -> Instrumented {
    let header = enc.loops[loop_index].header;
    let n = scheme.n();
    let counters: Vec<VarDecl> = (0..n).map(counter_var).collect();
    let r: Vec<Term> = counters.iter().map(|c| c.term()).collect();
    let mode_name = match mode {
        Mode::Term => "T_term",
        Mode::Rank => "T_rank",
        Mode::AnyStateTerm => "T_term (from any header state)",
        Mode::Bound => "iteration bound",
        Mode::Ceiling(_) => "ceiling",
    };
    let comments = vec![
        format!("{mode_name} instrumentation of loop {loop_index} (header L{header}) of {} with candidate {scheme}", enc.file),
        match &mode {
            Mode::Term | Mode::AnyStateTerm => {
                "unsat = a terminating run needs more iterations than the candidate allows; sat = none does".into()
            }
            Mode::Rank => "sat = the candidate bounds the iterations of every run (a ranking function); unsat = it does not".into(),
            Mode::Bound => "sat = no entry of the loop iterates more often than the candidate's value on entry; unsat = some does".into(),
            Mode::Ceiling(w) => format!("sat = {w} stays at or below the candidate's value on entry in every entry of the loop; unsat = it exceeds it"),
        },
    ];
    let mut frame = Frame::new(enc, loop_index, counters, comments);
    let mut roles = Vec::new();
    if mode == Mode::AnyStateTerm {
        // header(x, counters of x) for every x.
        let xs: Vec<Term> = enc.vars.iter().map(|v| v.term()).collect();
        let state: BTreeMap<String, Term> = enc.vars.iter().map(|v| (v.name.clone(), v.term())).collect();
        let mut vars = enc.vars.clone();
        let (constraint, counters) = entry_counters(scheme, &state, &mut vars);
        let head = frame.app(header, xs, &counters);
        frame.system.clauses.push(Clause { vars, body: vec![], constraint, head: Some(head), label: "any header state".into() });
        roles.push(ClauseRole::AnyEntry);
    }
    for step in frame.steps() {
        let t = step.transition;
        let (kind, base_vars) = (step.kind, step.vars);
        if mode == Mode::AnyStateTerm && matches!(kind, TransitionKind::Outside | TransitionKind::Entry) {
            continue;
        }
        let mut vars = base_vars.clone();
        let mut constraint = t.constraint.clone();
        if frame.keep.contains(&t.to) {
            let new_counters: Vec<Term> = match kind {
                TransitionKind::Entry => {
                    // rank evaluated on the new header state
                    let post: BTreeMap<String, Term> =
                        enc.vars.iter().map(|v| v.name.clone()).zip(t.post.iter().cloned()).collect();
                    let (bounds, counters) = entry_counters(scheme, &post, &mut vars);
                    constraint = Term::and(vec![constraint, bounds]);
                    counters
                }
                TransitionKind::Decrement if !matches!(mode, Mode::Ceiling(_)) => decrement(scheme, &r),
                TransitionKind::Decrement | TransitionKind::Inside => r.clone(),
                TransitionKind::Outside | TransitionKind::Exit => vec![],
            };
            let head = frame.app(t.to, t.post.clone(), &new_counters);
            frame.system.clauses.push(Clause {
                vars,
                body: step.body.clone(),
                constraint,
                head: Some(head),
                label: format!("{} ({kind:?})", step.label),
            });
            roles.push(ClauseRole::Step { transition: step.index, kind });
        }
        let error = match (&mode, kind) {
            (Mode::Term | Mode::AnyStateTerm, TransitionKind::Exit) => Some(ClauseRole::ExitError { transition: step.index }),
            (Mode::Rank | Mode::Bound | Mode::Ceiling(_), TransitionKind::Decrement) => {
                Some(ClauseRole::IterationError { transition: step.index })
            }
            _ => None,
        };
        let exhausted = match &mode {
            Mode::Bound => below_unit(scheme, &r),
            Mode::Ceiling(watched) => Term::gt(watched.to_term(), r[0].clone()),
            _ => negative(scheme.kind, &r),
        };
        if let Some(role) = error {
            frame.system.clauses.push(Clause {
                vars: base_vars,
                body: step.body,
                constraint: Term::and(vec![t.constraint.clone(), exhausted.clone()]),
                head: None,
                label: format!("{}: error, counters negative", step.label),
            });
            roles.push(role);
        }
    }
    frame.finish(roles)
}
