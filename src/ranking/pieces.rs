//! From terminating traces to ranking-function pieces (the paper's §4.2:
//! "When the system is unsatisfiable, we discard all collected states and we
//! start over by building a new ranking function piece").
//!
//! One [`PieceBuilder`] per loop and combination. Each piece keeps the samples
//! it was fitted on, as an incremental echelon system, so asking "does this
//! sample still fit this piece" is cheap and the refit is exact.
//!
//! Exact interpolation has one weakness that shapes every rule below: a piece
//! fitted on fewer samples than it has unknowns fits almost anything (any two
//! points lie on a line), so letting such a piece absorb a sample from another
//! region of the state space silently produces a useless piece. The rules
//! therefore prefer explanations that need no change (a piece that already
//! predicts the sample), and when a guess is unavoidable they compare the
//! alternatives and keep the simplest.

use super::fit::{piece_complexity, SampleSystem};
use super::simulate::falls_from;
use super::{AffinePiece, Combination, RankingCandidate, TerminatingSample};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::{BTreeSet, HashSet};

/// Largest number of start positions of one trace used as lexicographic or
/// multiphase samples: computing a position's target replays the rest of the
/// trace, so positions cost O(length) each. Longer traces are sampled evenly
/// (the entry and the exit are always kept).
const MAX_TUPLE_POSITIONS: usize = 256;

/// A piece and the samples it was fitted on. `fitted_on[i].remaining` is the
/// value the piece must take on that state: the remaining iterations for a
/// piecewise piece, the decrements left to this component (see
/// `simulate::falls_from`) for a lexicographic or multiphase one.
#[derive(Clone, Debug)]
struct FittedPiece {
    piece: AffinePiece,
    fitted_on: Vec<TerminatingSample>,
    known: HashSet<TerminatingSample>,
    system: SampleSystem,
}

impl FittedPiece {
    fn new(var_count: usize) -> Self {
        FittedPiece {
            piece: AffinePiece::zero(),
            fitted_on: Vec::new(),
            known: HashSet::new(),
            system: SampleSystem::new(var_count),
        }
    }

    /// Add a sample if it fits together with the piece's samples; the
    /// piece is unchanged otherwise. (The function is refitted by `refit`.)
    fn try_add(&mut self, sample: &TerminatingSample, row: &[BigInt]) -> bool {
        if self.known.contains(sample) {
            return true;
        }
        if !self.system.try_insert(row) {
            return false;
        }
        self.known.insert(sample.clone());
        self.fitted_on.push(sample.clone());
        true
    }

    fn refit(&mut self, vars: &[String]) {
        if let Some(p) = self.system.simplest_solution(vars) {
            self.piece = p;
        }
    }
}

/// Collects the pieces of one loop's candidate for one combination, trace by
/// trace (header visits of one terminating trace, entry first).
#[derive(Clone, Debug)]
pub struct PieceBuilder {
    combination: Combination,
    vars: Vec<String>,
    /// Piecewise: creation order. Lexicographic and multiphase: most
    /// significant first (the most recently created piece leads).
    pieces: Vec<FittedPiece>,
}

/// How a piecewise sample relates to the current pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SampleStatus {
    /// The piece already takes exactly this value here.
    Predicted(usize),
    /// Some piece is larger here: `max` already allows enough iterations.
    Dominated,
    /// Not explained: needs a refit or a new piece.
    Open,
}

/// Preference among ways of assigning a trace's open samples: fewer new
/// pieces, fewer fractional pieces, fewer variables, smaller coefficients.
type AssignmentScore = (usize, usize, usize, BigRational, BigRational);

impl PieceBuilder {
    /// `vars`: the loop's variables in order of preference (earlier variables
    /// win ties between equally simple pieces). Duplicates are ignored.
    pub fn new(combination: Combination, vars: &[String]) -> Self {
        let mut unique: Vec<String> = Vec::new();
        for v in vars {
            if !unique.contains(v) {
                unique.push(v.clone());
            }
        }
        PieceBuilder { combination, vars: unique, pieces: Vec::new() }
    }

    pub fn combination(&self) -> Combination {
        self.combination
    }

    pub fn variables(&self) -> &[String] {
        &self.vars
    }

    /// The pieces (in candidate order) with the samples each was fitted on;
    /// for lexicographic and multiphase pieces a sample's `remaining` is the
    /// value that component must take there.
    pub fn pieces(&self) -> impl Iterator<Item = (&AffinePiece, &[TerminatingSample])> {
        self.pieces.iter().map(|p| (&p.piece, p.fitted_on.as_slice()))
    }

    /// The current candidate; the constant 0 before any trace.
    pub fn candidate(&self) -> RankingCandidate {
        if self.pieces.is_empty() {
            return RankingCandidate::zero(self.combination);
        }
        RankingCandidate {
            combination: self.combination,
            pieces: self.pieces.iter().map(|p| p.piece.clone()).collect(),
        }
    }

    /// Learn from one terminating trace: `samples` are its header visits,
    /// entry first, with `remaining` = k, k-1, ..., 0. Samples whose state
    /// lacks one of the builder's variables are ignored. Returns whether the
    /// candidate changed. After a trace that the candidate did not cover, the
    /// new candidate covers it (`RankingCandidate::covers_trace`), so the
    /// prover's loop always makes progress.
    pub fn add_trace(&mut self, samples: &[TerminatingSample]) -> bool {
        let trace: Vec<TerminatingSample> =
            samples.iter().filter(|s| self.vars.iter().all(|v| s.state.contains_key(v))).cloned().collect();
        if trace.is_empty() {
            return false;
        }
        let before = self.candidate();
        match self.combination {
            Combination::Piecewise => self.add_piecewise(&trace),
            Combination::Lexicographic => self.add_tuple(&trace, true),
            Combination::Multiphase => self.add_tuple(&trace, false),
        }
        self.candidate() != before
    }

    fn rows(&self, samples: &[TerminatingSample]) -> Option<Vec<Vec<BigInt>>> {
        samples.iter().map(|s| SampleSystem::sample_row(s, &self.vars)).collect()
    }

    // ---- piecewise (max)

    /// Piecewise rule. A sample some piece already predicts joins that piece
    /// (preferring the piece of the previous sample): it pins the piece down
    /// without changing it. A sample the `max` already dominates is left out:
    /// it asks for nothing, and forcing it into a piece could only bend that
    /// piece or add a useless one. The remaining ("open") samples are assigned
    /// greedily along the trace: to the piece that took the previous sample
    /// if it still fits, else to the first piece that fits, else to a new
    /// piece.
    ///
    /// The greedy walk is done in both directions and the simpler outcome is
    /// kept, because where a trace crosses from one region into another the
    /// first sample of the new region always fits the previous piece (two
    /// points make a line): in `3pieces` from x = 15 (samples (15,16),
    /// (-15,15), (-14,14), ...) the forward walk makes x/30 + 31/2 out of the
    /// first two, while the backward walk keeps -x for the tail and a
    /// constant 16 for x = 15, which the next trace turns into x + 1. For a
    /// loop whose short region comes last the forward walk wins instead.
    fn add_piecewise(&mut self, trace: &[TerminatingSample]) {
        let Some(rows) = self.rows(trace) else { return };
        // First the paper's rule at the level of whole traces: the trace
        // refines the most recent piece that fits it together with its
        // samples, or starts a new piece when it fits one affine function on
        // its own. Per-sample assignment (below) is only for traces that
        // cross regions; doing it always lets under-determined pieces absorb
        // samples from other regions and grow one useless piece per round.
        for p in (0..self.pieces.len()).rev() {
            let mut piece = self.pieces[p].clone();
            if trace.iter().zip(&rows).all(|(s, r)| piece.try_add(s, r)) {
                piece.refit(&self.vars);
                self.pieces[p] = piece;
                return;
            }
        }
        let mut fresh = FittedPiece::new(self.vars.len());
        if trace.iter().zip(&rows).all(|(s, r)| fresh.try_add(s, r)) {
            fresh.refit(&self.vars);
            self.pieces.push(fresh);
            return;
        }
        let status = self.classify(trace);
        let mut base = self.pieces.clone();
        for (i, st) in status.iter().enumerate() {
            if let SampleStatus::Predicted(p) = st {
                // Always fits: the piece's function satisfies the sample.
                base[*p].try_add(&trace[i], &rows[i]);
            }
        }
        let forward: Vec<usize> = (0..trace.len()).collect();
        let backward: Vec<usize> = (0..trace.len()).rev().collect();
        let (f_pieces, f_score) = self.assign_open(base.clone(), trace, &rows, &status, &forward);
        let (b_pieces, b_score) = self.assign_open(base, trace, &rows, &status, &backward);
        self.pieces = if b_score < f_score { b_pieces } else { f_pieces };
    }

    fn classify(&self, trace: &[TerminatingSample]) -> Vec<SampleStatus> {
        let mut out = Vec::with_capacity(trace.len());
        let mut previous: Option<usize> = None;
        for s in trace {
            let target = BigRational::from_integer(s.remaining.clone());
            let values: Vec<Option<BigRational>> = self.pieces.iter().map(|p| p.piece.evaluate(&s.state)).collect();
            let predicts = |j: usize| values[j].as_ref() == Some(&target);
            let st = if let Some(p) = previous.filter(|&p| predicts(p)) {
                SampleStatus::Predicted(p)
            } else if let Some(j) = (0..values.len()).find(|&j| predicts(j)) {
                SampleStatus::Predicted(j)
            } else if values.iter().flatten().any(|v| *v > target) {
                SampleStatus::Dominated
            } else {
                SampleStatus::Open
            };
            if let SampleStatus::Predicted(p) = st {
                previous = Some(p);
            }
            out.push(st);
        }
        out
    }

    fn assign_open(
        &self,
        mut pieces: Vec<FittedPiece>,
        trace: &[TerminatingSample],
        rows: &[Vec<BigInt>],
        status: &[SampleStatus],
        order: &[usize],
    ) -> (Vec<FittedPiece>, AssignmentScore) {
        let existing = pieces.len();
        let mut changed = BTreeSet::new();
        let mut previous: Option<usize> = None;
        for &i in order {
            match status[i] {
                SampleStatus::Predicted(p) => previous = Some(p),
                SampleStatus::Dominated => {}
                SampleStatus::Open => {
                    let row = &rows[i];
                    let mut target = previous.filter(|&p| pieces[p].try_add(&trace[i], row));
                    if target.is_none() {
                        target = (0..pieces.len()).find(|&p| Some(p) != previous && pieces[p].try_add(&trace[i], row));
                    }
                    let target = target.unwrap_or_else(|| {
                        let mut fresh = FittedPiece::new(self.vars.len());
                        // A single equation [1, x, r] is always consistent.
                        fresh.try_add(&trace[i], row);
                        pieces.push(fresh);
                        pieces.len() - 1
                    });
                    changed.insert(target);
                    previous = Some(target);
                }
            }
        }
        let mut fractional = 0;
        let mut support = 0;
        let mut coefficients = BigRational::from_integer(BigInt::from(0));
        let mut constants = coefficients.clone();
        for &p in &changed {
            pieces[p].refit(&self.vars);
            let (size, lcm, sum, _, constant) = piece_complexity(&pieces[p].piece);
            fractional += usize::from(lcm != BigInt::from(1));
            support += size;
            coefficients += sum;
            constants += constant;
        }
        let created = pieces.len() - existing;
        (pieces, (created, fractional, support, coefficients, constants))
    }

    // ---- lexicographic and multiphase

    /// Tuple rule (lexicographic when `reset`, multiphase otherwise). Each
    /// component only counts the decrements that fall through every less
    /// significant counter (see the module documentation of `ranking`), so
    /// the samples for a component are not "iterations remaining" but the
    /// decrements left to it when the loop is entered at that state, obtained
    /// by replaying the counters of the less significant pieces along the
    /// trace. For the first piece this is the remaining count.
    ///
    /// A trace the candidate does not cover either refines the most
    /// significant piece (its samples plus the new ones still fit one affine
    /// function: the paper's "collect states while the system is
    /// satisfiable") or starts a new most significant piece fitted on the new
    /// trace alone. Refining wins when it is possible, unless the new piece
    /// fits the whole trace and is a strictly simpler non-constant function:
    /// in the paper's Fig. 7 loop (`x--; y = nondet` or `y--`) the piece `y`
    /// and the trace (2,1), (1,5), (1,4), ..., (1,0) can be refined to
    /// 5x + y - 5, but the new component x - 1 explains the trace with one
    /// variable, giving lex(x - 1, y), which is the real argument. If the new
    /// trace's samples do not fit one piece (non-determinism can revisit a
    /// state with a different count), the new piece is fitted on the longest
    /// prefix that does; the entry sample is always in it, which is what makes
    /// the new candidate cover the trace. When refining is impossible and the
    /// new piece would be a constant, it is fitted on the remaining counts
    /// instead (an upper bound on what it must absorb), see below.
    fn add_tuple(&mut self, trace: &[TerminatingSample], reset: bool) {
        if self.candidate().covers_trace(trace) {
            return;
        }
        let positions = tuple_positions(trace.len());
        let Some(rows_all) = self.rows(trace) else { return };
        let current: Vec<AffinePiece> = self.pieces.iter().map(|p| p.piece.clone()).collect();
        let Some(targets_new) = falls_from(&current, trace, &positions, reset) else { return };
        let (fresh, fresh_fits_all) = self.fit_fresh(trace, &rows_all, &positions, &targets_new);
        let refined = match current.split_first() {
            Some((_, lower)) => falls_from(lower, trace, &positions, reset)
                .and_then(|targets| self.refine_top(trace, &rows_all, &positions, &targets)),
            None => None,
        };
        match refined {
            Some(top)
                if !(fresh_fits_all
                    && !fresh.piece.is_constant()
                    && piece_complexity(&fresh.piece) < piece_complexity(&top.piece)) =>
            {
                self.pieces[0] = top;
            }
            Some(_) => self.pieces.insert(0, fresh),
            None if fresh.piece.is_constant() => {
                // A constant component says "allow a few more decrements"
                // and buys one round per iteration when the current pieces
                // are just slightly too small (the old most significant
                // counter may end at -1 once a component sits above it).
                // The remaining counts bound the decrements the component
                // has to absorb and usually say which variables matter.
                let remaining: Vec<BigInt> = positions.iter().map(|&i| trace[i].remaining.clone()).collect();
                let (by_remaining, _) = self.fit_fresh(trace, &rows_all, &positions, &remaining);
                let chosen = if by_remaining.piece.is_constant() { fresh } else { by_remaining };
                self.pieces.insert(0, chosen);
            }
            None => self.pieces.insert(0, fresh),
        }
    }

    /// The sample of position `i` with its target value, and its row.
    fn target_sample(
        trace: &[TerminatingSample],
        rows: &[Vec<BigInt>],
        i: usize,
        target: &BigInt,
    ) -> (TerminatingSample, Vec<BigInt>) {
        let mut row = rows[i].clone();
        if let Some(last) = row.last_mut() {
            *last = target.clone();
        }
        (TerminatingSample { state: trace[i].state.clone(), remaining: target.clone() }, row)
    }

    fn refine_top(
        &self,
        trace: &[TerminatingSample],
        rows: &[Vec<BigInt>],
        positions: &[usize],
        targets: &[BigInt],
    ) -> Option<FittedPiece> {
        let mut top = self.pieces.first()?.clone();
        for (&i, t) in positions.iter().zip(targets) {
            let (sample, row) = Self::target_sample(trace, rows, i, t);
            if !top.try_add(&sample, &row) {
                return None;
            }
        }
        top.refit(&self.vars);
        Some(top)
    }

    /// A new piece on this trace alone; the flag says whether every position
    /// fits (otherwise the longest fitting prefix, at least the entry, is
    /// used).
    fn fit_fresh(
        &self,
        trace: &[TerminatingSample],
        rows: &[Vec<BigInt>],
        positions: &[usize],
        targets: &[BigInt],
    ) -> (FittedPiece, bool) {
        let mut piece = FittedPiece::new(self.vars.len());
        let mut fits_all = true;
        for (&i, t) in positions.iter().zip(targets) {
            let (sample, row) = Self::target_sample(trace, rows, i, t);
            if !piece.try_add(&sample, &row) {
                fits_all = false;
                break;
            }
        }
        piece.refit(&self.vars);
        (piece, fits_all)
    }
}

/// Start positions used as samples for tuple pieces: all of them for short
/// traces, else evenly spread ones including the entry and the exit.
fn tuple_positions(len: usize) -> Vec<usize> {
    if len <= MAX_TUPLE_POSITIONS {
        return (0..len).collect();
    }
    let mut out: Vec<usize> = (0..MAX_TUPLE_POSITIONS).map(|i| i * (len - 1) / (MAX_TUPLE_POSITIONS - 1)).collect();
    out.dedup();
    out
}

/// Samples of one terminating trace from its header visits, entry first: with
/// k + 1 visits the i-th had k - i iterations remaining (the last visit is
/// the one where the loop exited).
pub fn samples_from_header_states(states: &[std::collections::BTreeMap<String, BigInt>]) -> Vec<TerminatingSample> {
    let k = states.len().saturating_sub(1);
    states
        .iter()
        .enumerate()
        .map(|(i, s)| TerminatingSample { state: s.clone(), remaining: BigInt::from(k - i) })
        .collect()
}

/// As [`samples_from_header_states`], for a trace that left the loop from
/// inside the body (`break`, `return`, `goto`) after entering the body from
/// its last header visit: that visit still had one header-to-body transition
/// (one `⊖ 1`) to go, so every count is one higher. Using the plain version
/// on such a trace would fit a piece one short, which the same trace refutes
/// again.
pub fn samples_from_header_states_exiting_in_body(
    states: &[std::collections::BTreeMap<String, BigInt>],
) -> Vec<TerminatingSample> {
    let mut out = samples_from_header_states(states);
    for s in &mut out {
        s.remaining += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn remaining_counts_depend_on_where_the_loop_exits() {
        let states: Vec<BTreeMap<String, BigInt>> =
            (0..3).map(|x| [("x".to_string(), BigInt::from(x))].into_iter().collect()).collect();
        let at_header: Vec<BigInt> = samples_from_header_states(&states).into_iter().map(|s| s.remaining).collect();
        assert_eq!(at_header, [2, 1, 0].map(BigInt::from));
        let in_body: Vec<BigInt> =
            samples_from_header_states_exiting_in_body(&states).into_iter().map(|s| s.remaining).collect();
        assert_eq!(in_body, [3, 2, 1].map(BigInt::from));
        assert!(samples_from_header_states(&[]).is_empty());
    }

    #[test]
    fn tuple_positions_keep_entry_and_exit() {
        assert_eq!(tuple_positions(3), vec![0, 1, 2]);
        let p = tuple_positions(10_000);
        assert_eq!(p.len(), MAX_TUPLE_POSITIONS);
        assert_eq!((p[0], p[p.len() - 1]), (0, 9_999));
    }
}
