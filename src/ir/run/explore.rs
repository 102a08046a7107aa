//! The systematic search for lassos: a depth-first search over the states
//! at cut-points, each state's successors found with the inputs set to
//! small numbers and the program's constants in turn (see
//! [`Runner::explore`]).

use super::*;

impl Runner<'_> {
    /// The distinct cut-points and states a segment from `state` at `at`
    /// reaches: every input of the `k`-th try is the `k`-th value of
    /// [`Runner::enumerated`] (small numbers, then the program's constants;
    /// a variable declared without a value is an input too, overwritten
    /// by the one read after), later tries are random. A segment without inputs
    /// is tried a few times only.
    fn successors(&self, at: LocId, state: &[i128], cuts: &Cuts, rng: &mut SmallRng) -> Vec<Visit> {
        let mut inputs = Inputs { sticky: false, last: vec![None; state.len()], taken: Vec::new(), forced: None, small: false, overflowed: false };
        let mut out: Vec<Visit> = Vec::new();
        let mut without_input = 0;
        let mut stale = 0;
        for k in 0..self.enumerated.len() + RANDOM_SUCCESSOR_TRIES {
            inputs.forced = self.enumerated.get(k).copied();
            inputs.taken.clear();
            let mut next = state.to_vec();
            let mut path = Vec::new();
            let reached = self.segment(at, &mut next, cuts, &mut path, &mut inputs, rng);
            if inputs.taken.is_empty() {
                without_input += 1;
            }
            let new = match reached {
                Segment::Reached(c) if !out.iter().any(|v| v.at == c && v.state == next) => {
                    out.push(Visit { at: c, state: next, path });
                    true
                }
                _ => false,
            };
            stale = if new { 0 } else { stale + 1 };
            if without_input >= 4 || (k >= self.enumerated.len() && stale >= RANDOM_SUCCESSOR_TRIES / 2) {
                break;
            }
        }
        out
    }

    /// A systematic search for a lasso: depth first over the states at
    /// cut-points, each state's successors as [`Runner::successors`]
    /// finds them, a state met again on the current path a lasso, a state
    /// whose successors were all searched not searched again. The depth
    /// grows round by round. Where random runs die (a reactive program
    /// whose every input but one leads to an exit a few steps later), this
    /// finds the one way that goes on; deterministic for a given `seed`.
    /// Runs start at the end of `prefix` when it is not empty.
    pub fn explore(&self, cuts: &Cuts, prefix: &[Visit], seed: u64, deadline: Instant, stop: &dyn Fn() -> bool) -> Option<Lasso> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let p = self.program;
        let entry_live = cuts.live.get(p.entry);
        for &limit in &EXPLORE_DEPTHS {
            // The root: the end of the prefix, the entry where it is a
            // cut-point, else the program start (no visit).
            let mut visits: Vec<Visit> = prefix.to_vec();
            let (at, state) = match prefix.last() {
                Some(v) => (v.at, v.state.clone()),
                None => {
                    let state: Vec<i128> = (0..p.vars.len())
                        .map(|v| if entry_live.is_some_and(|l| l.get(v).copied().unwrap_or(false)) { self.input(v, &mut rng) } else { 0 })
                        .collect();
                    if cuts.cut.get(p.entry).copied().unwrap_or(false) {
                        visits.push(Visit { at: p.entry, state: state.clone(), path: Vec::new() });
                    }
                    (p.entry, state)
                }
            };
            let mut on_path: HashMap<(LocId, Vec<i128>), usize> = visits.iter().enumerate().map(|(i, v)| ((v.at, v.state.clone()), i)).collect();
            let mut done: std::collections::HashSet<u64> = std::collections::HashSet::new();
            // Per level of the search: the successors not yet searched.
            let mut first_level = self.successors(at, &state, cuts, &mut rng);
            if let Some(back) = first_level.iter().position(|s| on_path.contains_key(&(s.at, s.state.clone()))) {
                let s = first_level.swap_remove(back);
                let first = on_path[&(s.at, s.state.clone())];
                visits.push(s);
                return Some(Lasso { visits, first });
            }
            let mut pending: Vec<Vec<Visit>> = vec![first_level];
            let mut cut_off = false;
            let mut searched = 0usize;
            while let Some(level) = pending.last_mut() {
                searched += 1;
                if searched % 16 == 0 && (Instant::now() >= deadline || stop()) {
                    return None;
                }
                let Some(next) = level.pop() else {
                    pending.pop();
                    // Every successor of the path's last visit searched.
                    if pending.is_empty() {
                        break;
                    }
                    if let Some(v) = visits.pop() {
                        on_path.remove(&(v.at, v.state.clone()));
                        done.insert(key_of(v.at, &v.state));
                    }
                    continue;
                };
                if done.contains(&key_of(next.at, &next.state)) {
                    continue;
                }
                if visits.len() >= limit {
                    cut_off = true;
                    continue;
                }
                let mut succ = self.successors(next.at, &next.state, cuts, &mut rng);
                on_path.insert((next.at, next.state.clone()), visits.len());
                visits.push(next);
                // A successor on the path closes a lasso.
                if let Some(back) = succ.iter().position(|s| on_path.contains_key(&(s.at, s.state.clone()))) {
                    let s = succ.swap_remove(back);
                    let first = on_path[&(s.at, s.state.clone())];
                    visits.push(s);
                    return Some(Lasso { visits, first });
                }
                // Searched in random order.
                for i in (1..succ.len()).rev() {
                    succ.swap(i, rng.gen_range(0..=i));
                }
                pending.push(succ);
            }
            if !cut_off {
                return None;
            }
        }
        None
    }
}
