//! Where the Horn encoding puts its cut-points (one predicate each): the
//! loop headers, the exit, and the locations that keep the clauses between
//! them small. Every loop-free path between two cut-points becomes one
//! clause (`encode.rs`), so a region where paths multiply (a sequence of
//! `if`s) or repeat the same long conditions (a chain of `if`s each of
//! which leaves) is split at the locations most paths go through.

use crate::ir::{Action, LocId, Loop, Program};
use crate::term::{Op, Term};
use std::collections::BTreeSet;

/// Paths between two cut-points beyond which a join point becomes a cut-point.
const MAX_PATHS_PER_CUTPOINT: usize = 64;
/// Total weight of the paths from one cut-point (see [`edge_weight`])
/// beyond which a location on them becomes a cut-point. A cut-point inside
/// a loop body costs the ranking proofs (an iteration is then read
/// through the cut-point's summary), so only clauses far too large to
/// build, write or solve are split: 11 million in the event loop of the
/// eca-rers2012 Problem04 tasks (45 MB of Horn clauses), against 1.8
/// million in `benchmarks/programs/blowup_else_if_chain.c` (1,000 arms,
/// whose ranking proof fails once the chain is cut) and 0.3 million in
/// Problem14's.
pub(super) const MAX_PATH_WEIGHT_PER_CUTPOINT: usize = 4_000_000;
/// The cut-points of `p`: the loop headers, the exit, and the locations
/// that split path explosions (see [`Region::worst_locations`]). Each round
/// adds the worst locations; later rounds more at once, so that large
/// programs (thousands of locations after inlining) need few rounds while
/// small ones get exactly the cut-points they need.
pub(super) fn cutpoints(p: &Program, adj: &crate::ir::Adjacency, loops: &[Loop], max_weight: usize) -> BTreeSet<LocId> {
    let mut cut: BTreeSet<LocId> = loops.iter().map(|l| l.header).collect();
    cut.insert(p.exit);
    let weights: Vec<usize> = p.edges.iter().map(edge_weight).collect();
    let mut round = 0usize;
    loop {
        let worst = Region::of(p, adj, &weights, &cut).worst_locations(1 + round / 4, max_weight);
        if worst.is_empty() {
            return cut;
        }
        cut.extend(worst);
        round += 1;
    }
}

/// The paths of the acyclic regions between cut-points, counted per
/// location: how many paths, and their total weight (the size of their
/// actions, which is what their clauses repeat), reach each location from
/// the cut-points before it, and leave it for the cut-points after it.
struct Region {
    cut: Vec<bool>,
    /// The cut-points, and the entry when it is not one: where paths start.
    starts: Vec<LocId>,
    /// The non-cut locations in topological order of the region.
    order: Vec<LocId>,
    paths_in: Vec<usize>,
    weight_in: Vec<usize>,
    paths_out: Vec<usize>,
    weight_out: Vec<usize>,
}

/// The weight of an edge: the size of its actions (at least 1). A failed
/// test `x != c` weighs nothing: on the path of a later arm `x == d` it is
/// dropped (see [`crate::term::simplify::implied_disequalities`]), so an `else if (x ==
/// k)` chain is linear already.
fn edge_weight(e: &crate::ir::Edge) -> usize {
    fn implied_away(c: &Term) -> bool {
        matches!(c, Term::App(Op::Not, a) if a.len() == 1 && matches!(&a[0], Term::App(Op::Eq, b) if b.len() == 2 && (matches!(b[0], Term::Int(_)) || matches!(b[1], Term::Int(_)))))
    }
    1 + e
        .actions
        .iter()
        .map(|a| match a {
            Action::Assume(c) if implied_away(c) => 0,
            Action::Assume(c) => c.size(),
            Action::Assign(_, t) => 1 + t.size(),
            _ => 1,
        })
        .sum::<usize>()
}

impl Region {
    /// `weights`: each edge's [`edge_weight`], by index.
    fn of(p: &Program, adj: &crate::ir::Adjacency, weights: &[usize], cut_set: &BTreeSet<LocId>) -> Region {
        let n = p.locations.len();
        // Membership by index: this runs once per round of cut-point choice.
        let mut cut = vec![false; n];
        for &c in cut_set {
            if c < n {
                cut[c] = true;
            }
        }
        // Paths from each location to the next cut-points, and their
        // weight (memoised DFS over the acyclic region between cut-points).
        fn count(p: &Program, adj: &crate::ir::Adjacency, weights: &[usize], cut: &[bool], l: LocId, memo: &mut Vec<Option<(usize, usize)>>, depth: usize) -> (usize, usize) {
            if let Some(c) = memo[l] {
                return c;
            }
            if depth > 10_000 {
                return (1, 0);
            }
            memo[l] = Some((0, 0)); // guards against cycles not through cut-points
            let (mut paths, mut weight) = (0usize, 0usize);
            for &i in adj.out.get(l).into_iter().flatten() {
                let to = p.edges[i].to;
                let (c, w) = if cut[to] { (1, 0) } else { count(p, adj, weights, cut, to, memo, depth + 1) };
                paths = paths.saturating_add(c);
                weight = weight.saturating_add(w).saturating_add(weights[i].saturating_mul(c));
            }
            memo[l] = Some((paths, weight));
            (paths, weight)
        }
        let mut out: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut starts: Vec<LocId> = cut_set.iter().copied().collect();
        if !cut[p.entry] {
            starts.push(p.entry);
        }
        let mut start_out = Vec::with_capacity(starts.len());
        for &s in &starts {
            let (mut paths, mut weight) = (0usize, 0usize);
            for &i in adj.out.get(s).into_iter().flatten() {
                let to = p.edges[i].to;
                let (c, w) = if cut[to] { (1, 0) } else { count(p, adj, weights, &cut, to, &mut out, 0) };
                paths = paths.saturating_add(c);
                weight = weight.saturating_add(w).saturating_add(weights[i].saturating_mul(c));
            }
            start_out.push((paths, weight));
        }
        // Paths into each non-cut location from cut-points, in topological
        // order of the region.
        let mut paths_in: Vec<usize> = vec![0; n];
        let mut weight_in: Vec<usize> = vec![0; n];
        let mut indeg = vec![0usize; n];
        for e in &p.edges {
            if !cut[e.to] && e.to != p.entry {
                indeg[e.to] += 1;
            }
        }
        let mut queue: Vec<LocId> = starts.clone();
        for &s in &starts {
            paths_in[s] = 1;
        }
        let mut order = Vec::new();
        while let Some(l) = queue.pop() {
            order.push(l);
            for &i in adj.out.get(l).into_iter().flatten() {
                let to = p.edges[i].to;
                if cut[to] || to == p.entry {
                    continue;
                }
                paths_in[to] = paths_in[to].saturating_add(paths_in[l]);
                weight_in[to] = weight_in[to].saturating_add(weight_in[l]).saturating_add(weights[i].saturating_mul(paths_in[l]));
                indeg[to] -= 1;
                if indeg[to] == 0 {
                    queue.push(to);
                }
            }
        }
        let mut paths_out: Vec<usize> = out.iter().map(|c| c.map_or(0, |c| c.0)).collect();
        let mut weight_out: Vec<usize> = out.iter().map(|c| c.map_or(0, |c| c.1)).collect();
        for (&s, &(c, w)) in starts.iter().zip(&start_out) {
            paths_out[s] = c;
            weight_out[s] = w;
        }
        let order = order.into_iter().filter(|&l| !cut[l] && l != p.entry).collect();
        Region { cut, starts, order, paths_in, weight_in, paths_out, weight_out }
    }

    /// The locations (at most `how_many`, worst first) that become
    /// cut-points, or none when every cut-point is within budget:
    /// - while some cut-point has too many paths, the join points through
    ///   which most paths go (the most paths in times out);
    /// - where no join point is left to choose, or once the paths are few
    ///   enough, while some cut-point's paths weigh too much (a chain of
    ///   `if`s each of which leaves for one place: every path repeats the
    ///   failed tests before it, quadratic in the chain), the locations
    ///   whose paths repeat the most weight (the middle of the chain).
    fn worst_locations(&self, how_many: usize, max_weight: usize) -> Vec<LocId> {
        let too_many = self.starts.iter().any(|&s| self.paths_out[s] > MAX_PATHS_PER_CUTPOINT);
        let mut ranked: Vec<(usize, LocId)> = Vec::new();
        if too_many {
            ranked = self.order.iter().filter(|&&l| self.paths_in[l] > 1).map(|&l| (self.paths_in[l].saturating_mul(self.paths_out[l]), l)).collect();
        }
        // Where no join point is left to split the paths (a chain of `if`s
        // that each leave for one place), or once the paths are few enough.
        if ranked.is_empty() && self.starts.iter().any(|&s| self.weight_out[s] > max_weight) {
            // What the clauses through `l` repeat: each path in is written
            // once per path out, and each path out once per path in.
            ranked = self
                .order
                .iter()
                .map(|&l| {
                    let through = self.weight_in[l].saturating_mul(self.paths_out[l]).saturating_add(self.paths_in[l].saturating_mul(self.weight_out[l]));
                    (through.saturating_sub(self.weight_in[l].saturating_add(self.weight_out[l])), l)
                })
                .filter(|&(saved, _)| saved > 0)
                .collect();
        }
        debug_assert!(self.order.iter().all(|&l| !self.cut[l]));
        ranked.sort_by_key(|&(score, l)| (std::cmp::Reverse(score), l));
        ranked.into_iter().take(how_many).map(|(_, l)| l).collect()
    }
}

