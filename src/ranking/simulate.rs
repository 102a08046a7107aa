//! Replaying the instrumentation's counters along a terminating trace (the
//! counter semantics are in the module documentation of `ranking`).
//!
//! Counters are kept scaled by the lcm `L` of the pieces' denominators and
//! decremented by `L`, exactly as the instrumentation does, so the replay is
//! integer arithmetic. Decrements are taken in bulk where the outcome is
//! forced, so a trace whose samples leave gaps (remaining dropping by more
//! than 1 between two samples) costs no more than a dense one.

use super::{Combination, RankingCandidate, TerminatingSample};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

/// Replay steps allowed for one start position before giving up; only
/// pathological inputs (huge remaining counts with lexicographic resets at
/// every step) come near it.
const STEP_BUDGET: u64 = 200_000;

/// Number of header-to-body transitions taken from each sample before the
/// next one: `remaining_m - remaining_{m+1}`, and `remaining` for the last.
pub(crate) fn decrements(samples: &[TerminatingSample]) -> Vec<BigInt> {
    let mut out = Vec::with_capacity(samples.len());
    for (m, s) in samples.iter().enumerate() {
        let d = match samples.get(m + 1) {
            Some(next) => &s.remaining - &next.remaining,
            None => s.remaining.clone(),
        };
        out.push(if d.is_negative() { BigInt::zero() } else { d });
    }
    out
}

/// `L · r_j(x_m)` for every sample `m` and piece `j`; None when a state lacks
/// a variable of some piece.
pub(crate) fn scaled_values(
    pieces: &[super::AffinePiece],
    samples: &[TerminatingSample],
    l: &BigInt,
) -> Option<Vec<Vec<BigInt>>> {
    let lr = BigRational::from_integer(l.clone());
    samples
        .iter()
        .map(|s| pieces.iter().map(|p| p.evaluate(&s.state).map(|v| (v * &lr).to_integer())).collect())
        .collect()
}

/// Outcome of replaying tuple counters from one start position.
pub(crate) struct TupleReplay {
    /// Decrements that found every counter negative: what a new, more
    /// significant component would have to absorb.
    pub falls: BigInt,
    /// The most significant counter at loop exit.
    pub first_at_exit: Option<BigInt>,
}

/// Replay lexicographic (`reset`) or multiphase counters entering the loop at
/// sample `start`. None when the step budget runs out.
pub(crate) fn replay_tuple(
    values: &[Vec<BigInt>],
    decs: &[BigInt],
    start: usize,
    l: &BigInt,
    reset: bool,
) -> Option<TupleReplay> {
    let n = values.get(start)?.len();
    let mut c = values[start].clone();
    let mut falls = BigInt::zero();
    let mut budget = STEP_BUDGET;
    for m in start..values.len() {
        let mut d = decs[m].clone();
        while d.is_positive() {
            budget = budget.checked_sub(1)?;
            match (0..n).rev().find(|&j| !c[j].is_negative()) {
                None if reset => {
                    // A more significant counter takes this decrement and
                    // every counter below it is reset on the current state.
                    falls += 1;
                    d -= 1;
                    c = values[m].clone();
                    if c.iter().all(|x| x.is_negative()) {
                        falls += &d;
                        d = BigInt::zero();
                    }
                }
                None => {
                    // Multiphase counters stay negative: every remaining
                    // decrement falls through.
                    falls += &d;
                    d = BigInt::zero();
                }
                Some(j) => {
                    let lower_revive = reset && values[m][j + 1..].iter().any(|x| !x.is_negative());
                    if lower_revive {
                        c[j] -= l;
                        c[j + 1..].clone_from_slice(&values[m][j + 1..]);
                        d -= 1;
                    } else {
                        // c_j takes decrements until it turns negative; the
                        // counters below it stay negative meanwhile.
                        let room = &c[j] / l + 1;
                        let s = if room < d { room } else { d.clone() };
                        c[j] -= &s * l;
                        d -= &s;
                        if reset {
                            c[j + 1..].clone_from_slice(&values[m][j + 1..]);
                        }
                    }
                }
            }
        }
    }
    Some(TupleReplay { falls, first_at_exit: c.first().cloned() })
}

/// For each start position, the decrements a new most significant component
/// would have to absorb on top of `pieces` (lexicographic when `reset`,
/// multiphase otherwise). A position whose replay exceeds the budget gets
/// its full remaining count, an upper bound on the falls.
pub(crate) fn falls_from(
    pieces: &[super::AffinePiece],
    samples: &[TerminatingSample],
    positions: &[usize],
    reset: bool,
) -> Option<Vec<BigInt>> {
    let l = pieces.iter().fold(BigInt::from(1), |acc, p| num_integer::Integer::lcm(&acc, &p.denominator_lcm()));
    let values = scaled_values(pieces, samples, &l)?;
    let decs = decrements(samples);
    Some(
        positions
            .iter()
            .map(|&i| match replay_tuple(&values, &decs, i, &l, reset) {
                Some(r) => r.falls,
                None => decs[i..].iter().sum(),
            })
            .collect(),
    )
}

pub(crate) fn covers(candidate: &RankingCandidate, samples: &[TerminatingSample]) -> bool {
    if samples.is_empty() {
        return true;
    }
    let pieces = candidate.pieces_or_zero();
    let l = candidate.denominator_lcm();
    let Some(values) = scaled_values(&pieces, samples, &l) else { return false };
    let decs = decrements(samples);
    match candidate.combination {
        Combination::Piecewise => {
            // Every counter drops by the same amount, so the max decides.
            let total: BigInt = decs.iter().sum();
            values[0].iter().max().is_some_and(|best| *best >= total * &l)
        }
        Combination::Lexicographic | Combination::Multiphase => {
            let reset = candidate.combination == Combination::Lexicographic;
            match replay_tuple(&values, &decs, 0, &l, reset) {
                Some(r) => r.falls.is_zero() && r.first_at_exit.is_some_and(|c| !c.is_negative()),
                None => false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::AffinePiece;
    use super::*;
    use std::collections::BTreeMap;

    fn trace(states: &[(i64, i64)]) -> Vec<TerminatingSample> {
        let k = states.len() as i64 - 1;
        states
            .iter()
            .enumerate()
            .map(|(i, (x, y))| {
                let state: BTreeMap<String, BigInt> =
                    [("x".to_string(), BigInt::from(*x)), ("y".to_string(), BigInt::from(*y))].into_iter().collect();
                TerminatingSample::new(state, k - i as i64)
            })
            .collect()
    }

    #[test]
    fn lexicographic_counters_reset_on_the_current_state() {
        // x-- resets y to 5, then y counts down: lex(x, y) covers it, y alone
        // does not.
        let t = trace(&[(2, 1), (1, 5), (1, 4), (1, 3), (1, 2), (1, 1), (1, 0)]);
        let lex = RankingCandidate {
            combination: Combination::Lexicographic,
            pieces: vec![AffinePiece::variable("x"), AffinePiece::variable("y")],
        };
        assert!(lex.covers_trace(&t));
        assert!(!RankingCandidate::single(AffinePiece::variable("y")).covers_trace(&t));
        // Multiphase never resets: from (2, 1) the counters allow
        // (y + 1) + x = 4 decrements before the first one turns negative.
        let phases = RankingCandidate { combination: Combination::Multiphase, ..lex };
        assert!(!phases.covers_trace(&t));
        assert!(phases.covers_trace(&trace(&[(2, 1), (2, 0), (1, 0), (1, 0), (0, 0)])));
        assert!(!phases.covers_trace(&trace(&[(2, 1), (2, 0), (1, 0), (1, 0), (0, 0), (0, 0)])));
    }

    #[test]
    fn zero_candidate_covers_only_immediate_exit() {
        let zero = RankingCandidate::zero(Combination::Lexicographic);
        assert!(zero.covers_trace(&trace(&[(0, 0)])));
        assert!(!zero.covers_trace(&trace(&[(1, 0), (0, 0)])));
        assert!(!RankingCandidate::zero(Combination::Piecewise).covers_trace(&trace(&[(1, 0), (0, 0)])));
    }
}
