//! Runs that say whether a loop ends from the state it is entered in: the
//! samples a termination precondition is generalized from (see
//! [`crate::termination::precondition`]). Nothing here is trusted: the
//! precondition they suggest is proved on the program model.

use super::{Cuts, Inputs, Runner, Segment};
use crate::ir::LocId;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// How a run went on from a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// It ended (at the program's exit, or where no step can be taken).
    Ends,
    /// It came back to a cut-point in a state it was in: it never ends
    /// (where no input is read after the state).
    Repeats,
    /// Neither, within the visits allowed.
    Undecided,
}

/// The largest program constant an input is drawn from.
const LARGEST_CONSTANT: i128 = 10_000;

impl Runner<'_> {
    /// An input for variable `v` from a small range: a number in -24..=24
    /// half of the time, else one of the program's constants (and their
    /// neighbours) of at most [`LARGEST_CONSTANT`]; runs from such states
    /// end or repeat soon, which makes them samples.
    pub(super) fn small_input(&self, v: usize, rng: &mut SmallRng) -> i128 {
        let (lo, hi) = self.ranges[v];
        // The constants are sorted: those of at most LARGEST_CONSTANT form
        // one run of them.
        let from = self.constants.partition_point(|&k| k < -LARGEST_CONSTANT);
        let to = self.constants.partition_point(|&k| k <= LARGEST_CONSTANT);
        let small = &self.constants[from..to];
        loop {
            let x = if small.is_empty() || rng.gen_bool(0.5) { rng.gen_range(-24..=24) } else { small[rng.gen_range(0..small.len())] };
            let x = x.clamp(lo, hi);
            if !(self.allocation[v] && x == 0) {
                return x;
            }
        }
    }

    /// A run from the program start with small inputs up to its first
    /// visit of `header`, and how it goes on from there within
    /// `max_visits` visits of cut-points: the state on entry and the fate
    /// of that entry of the loop whose locations are `body` (it ends when
    /// the run leaves the loop, or ends inside it). `None` when the run
    /// does not get to `header`.
    pub fn entry_sample(&self, cuts: &Cuts, header: LocId, body: &std::collections::BTreeSet<LocId>, seed: u64, max_visits: usize) -> Option<(Vec<i128>, Fate)> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let p = self.program;
        let n = p.vars.len();
        let mut inputs = Inputs { sticky: false, last: vec![None; n], taken: Vec::new(), forced: None, small: true, overflowed: false };
        let entry_live = cuts.live.get(p.entry);
        let mut state: Vec<i128> = (0..n)
            .map(|v| if entry_live.is_some_and(|l| l.get(v).copied().unwrap_or(false)) { self.small_input(v, &mut rng) } else { 0 })
            .collect();
        let mut at = p.entry;
        let mut visits = 0;
        while at != header {
            visits += 1;
            if visits > max_visits {
                return None;
            }
            match self.segment(at, &mut state, cuts, &mut Vec::new(), &mut inputs, &mut rng) {
                Segment::Reached(c) => at = c,
                Segment::Stopped => return None,
            }
        }
        let entry = state.clone();
        let mut seen: HashSet<(LocId, Vec<i128>)> = HashSet::new();
        seen.insert((at, state.clone()));
        for _ in 0..max_visits {
            match self.segment(at, &mut state, cuts, &mut Vec::new(), &mut inputs, &mut rng) {
                Segment::Reached(c) if !body.contains(&c) => return Some((entry, Fate::Ends)),
                Segment::Reached(c) => {
                    at = c;
                    if !seen.insert((c, state.clone())) {
                        return Some((entry, Fate::Repeats));
                    }
                }
                // Values beyond `i128` stop the interpreter, not the run.
                Segment::Stopped if inputs.overflowed => return Some((entry, Fate::Undecided)),
                Segment::Stopped => return Some((entry, Fate::Ends)),
            }
        }
        Some((entry, Fate::Undecided))
    }
}
