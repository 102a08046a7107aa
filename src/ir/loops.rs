//! Natural loops from dominators.
//!
//! A back edge `u -> h` is one whose target dominates its source; its natural
//! loop is `h` plus every location that reaches `u` without passing `h`.
//! Loops with the same header are merged. A cycle entered other than through
//! a dominating header (irreducible control flow, e.g. from `goto` into a
//! loop body) is rejected: the termination argument is per loop header.

use super::{LocId, Program};
use std::collections::BTreeSet;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub header: LocId,
    /// All locations of the loop, header included.
    pub body: BTreeSet<LocId>,
    /// Index of the innermost enclosing loop in the returned list.
    pub parent: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopError {
    pub location: LocId,
}

impl fmt::Display for LoopError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "irreducible control flow (a cycle entered at L{} not through its loop header)", self.location)
    }
}

/// The dominator tree of a program's reachable locations (Cooper, Harvey
/// and Kennedy's iterative algorithm over the reverse postorder), numbered
/// so that a dominance query is two comparisons: after inlining, programs
/// have tens of thousands of locations, where dominator *sets* cost
/// seconds.
#[derive(Clone, Debug)]
pub struct Dominators {
    /// Immediate dominator (the entry is its own); `None`: unreachable.
    idom: Vec<Option<LocId>>,
    /// Entry and exit times of a depth-first walk of the dominator tree.
    enter: Vec<usize>,
    leave: Vec<usize>,
}

impl Dominators {
    pub fn reachable(&self, l: LocId) -> bool {
        self.idom.get(l).is_some_and(|d| d.is_some())
    }

    /// Whether `a` dominates `b` (every location dominates itself); false
    /// when either is unreachable.
    pub fn dominates(&self, a: LocId, b: LocId) -> bool {
        self.reachable(a) && self.reachable(b) && self.enter[a] <= self.enter[b] && self.leave[b] <= self.leave[a]
    }

    pub fn immediate(&self, l: LocId) -> Option<LocId> {
        self.idom.get(l).copied().flatten()
    }
}

pub fn dominators(p: &Program) -> Dominators {
    let n = p.locations.len();
    let order = reverse_postorder(p);
    let mut rank = vec![usize::MAX; n];
    for (i, &l) in order.iter().enumerate() {
        rank[l] = i;
    }
    let adj = p.adjacency();
    let mut idom: Vec<Option<LocId>> = vec![None; n];
    if p.entry < n {
        idom[p.entry] = Some(p.entry);
    }
    let intersect = |idom: &[Option<LocId>], mut a: LocId, mut b: LocId| {
        while a != b {
            while rank[a] > rank[b] {
                a = idom[a].unwrap_or(p.entry);
            }
            while rank[b] > rank[a] {
                b = idom[b].unwrap_or(p.entry);
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &l in order.iter().skip(1) {
            let mut new: Option<LocId> = None;
            for e in adj.predecessors(p, l) {
                if e.from >= n || idom[e.from].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => e.from,
                    Some(d) => intersect(&idom, e.from, d),
                });
            }
            if new.is_some() && idom[l] != new {
                idom[l] = new;
                changed = true;
            }
        }
    }
    // Number the dominator tree.
    let mut children: Vec<Vec<LocId>> = vec![Vec::new(); n];
    for &l in order.iter().skip(1) {
        if let Some(d) = idom[l] {
            children[d].push(l);
        }
    }
    let (mut enter, mut leave) = (vec![0; n], vec![0; n]);
    let mut clock = 0;
    let mut stack: Vec<(LocId, usize)> = order.first().map(|&e| vec![(e, 0)]).unwrap_or_default();
    while let Some((l, i)) = stack.pop() {
        if i == 0 {
            enter[l] = clock;
            clock += 1;
        }
        if i < children[l].len() {
            stack.push((l, i + 1));
            stack.push((children[l][i], 0));
        } else {
            leave[l] = clock;
            clock += 1;
        }
    }
    Dominators { idom, enter, leave }
}

fn reverse_postorder(p: &Program) -> Vec<LocId> {
    let n = p.locations.len();
    let mut seen = vec![false; n];
    let mut post = Vec::new();
    // Iterative DFS: (node, next-successor index).
    let adj = p.adjacency();
    let succs: Vec<Vec<LocId>> = (0..n).map(|l| adj.successors(p, l).map(|e| e.to).collect()).collect();
    let mut stack = vec![(p.entry, 0usize)];
    if p.entry < n {
        seen[p.entry] = true;
    }
    while let Some((l, i)) = stack.pop() {
        if i < succs[l].len() {
            stack.push((l, i + 1));
            let s = succs[l][i];
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(l);
        }
    }
    post.reverse();
    post
}

/// Loops of the program, outer loops before the loops they contain.
pub fn find_loops(p: &Program) -> Result<Vec<Loop>, LoopError> {
    let dom = dominators(p);
    let adj = p.adjacency();
    let mut loops: Vec<Loop> = Vec::new();
    let mut loop_of_header: std::collections::HashMap<LocId, usize> = std::collections::HashMap::new();
    for e in &p.edges {
        if !dom.reachable(e.from) {
            continue; // unreachable code
        }
        if dom.dominates(e.to, e.from) {
            let h = e.to;
            let mut body: BTreeSet<LocId> = [h].into();
            let mut stack = vec![e.from];
            while let Some(l) = stack.pop() {
                if body.insert(l) {
                    stack.extend(adj.predecessors(p, l).filter(|e| dom.reachable(e.from)).map(|e| e.from));
                }
            }
            match loop_of_header.get(&h) {
                Some(&i) => loops[i].body.extend(body),
                None => {
                    loop_of_header.insert(h, loops.len());
                    loops.push(Loop { header: h, body, parent: None });
                }
            }
        }
    }
    // Irreducibility: every cycle must go through a back edge. Remove back
    // edges; what remains must be acyclic (Kahn's algorithm).
    let n = p.locations.len();
    let mut indeg = vec![0usize; n];
    let mut forward: Vec<Vec<LocId>> = vec![Vec::new(); n];
    for e in &p.edges {
        if e.from < n && e.to < n && dom.reachable(e.from) && !dom.dominates(e.to, e.from) {
            forward[e.from].push(e.to);
            indeg[e.to] += 1;
        }
    }
    let mut queue: Vec<LocId> = (0..n).filter(|&l| indeg[l] == 0).collect();
    let mut done = 0;
    while let Some(l) = queue.pop() {
        done += 1;
        for &t in &forward[l] {
            indeg[t] -= 1;
            if indeg[t] == 0 {
                queue.push(t);
            }
        }
    }
    if done < n {
        let bad = (0..n).find(|&l| indeg[l] > 0).unwrap_or(0);
        return Err(LoopError { location: bad });
    }
    // Outer loops first: larger bodies first, then by header for determinism.
    loops.sort_by(|a, b| b.body.len().cmp(&a.body.len()).then(a.header.cmp(&b.header)));
    for i in 0..loops.len() {
        let parent = (0..i)
            .filter(|&j| loops[j].body.contains(&loops[i].header) && loops[j].body.is_superset(&loops[i].body))
            .max_by_key(|&j| std::cmp::Reverse(loops[j].body.len()));
        loops[i].parent = parent;
    }
    // Renumber by source position where known, keeping parents before children.
    Ok(loops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Program;


    #[test]
    fn nested_loops_are_found_with_parents() {
        // 0 -> 1 (outer header) -> 2 (inner header) -> 2, 2 -> 1, 1 -> 3
        let p = crate::ir::test_graph(4, &[(0, 1), (1, 2), (2, 2), (2, 1), (1, 3)]);
        let loops = find_loops(&p).expect("reducible");
        assert_eq!(loops.len(), 2);
        assert_eq!(loops[0].header, 1);
        assert_eq!(loops[0].body, [1, 2].into());
        assert_eq!(loops[1].header, 2);
        assert_eq!(loops[1].parent, Some(0));
    }

    #[test]
    fn a_graph_is_acyclic_exactly_when_no_reachable_location_is_on_a_cycle() {
        let diamond = crate::ir::test_graph(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        assert!(diamond.is_acyclic());
        // A cycle that no run reaches does not count.
        let dead_cycle = crate::ir::test_graph(4, &[(0, 3), (1, 2), (2, 1)]);
        assert!(dead_cycle.is_acyclic());
        for cyclic in [
            crate::ir::test_graph(3, &[(0, 1), (1, 1), (1, 2)]),         // self loop
            crate::ir::test_graph(3, &[(0, 0), (0, 2)]),                 // at the entry
            crate::ir::test_graph(4, &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)]), // irreducible
        ] {
            assert!(!cyclic.is_acyclic(), "{cyclic}");
        }
        // And it agrees with the loop finder on random reducible graphs.
        let mut seed = 7u64;
        for _ in 0..300 {
            let n = 6;
            let mut edges = vec![];
            for from in 0..n - 1 {
                for to in 1..n {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    if (seed >> 33) % 4 == 0 {
                        edges.push((from, to));
                    }
                }
            }
            let g = crate::ir::test_graph(n, &edges);
            if let Ok(loops) = find_loops(&g) {
                assert_eq!(g.is_acyclic(), loops.is_empty(), "{g}");
            }
        }
    }

    /// Locations reachable from the entry without passing `removed`.
    fn reachable_without(p: &Program, removed: Option<LocId>) -> Vec<bool> {
        let mut seen = vec![false; p.locations.len()];
        let mut stack = vec![p.entry];
        while let Some(l) = stack.pop() {
            if seen[l] || Some(l) == removed {
                continue;
            }
            seen[l] = true;
            stack.extend(p.edges.iter().filter(|e| e.from == l).map(|e| e.to));
        }
        seen
    }

    #[test]
    fn dominance_agrees_with_its_definition_on_random_graphs() {
        // `a` dominates `b` iff `b` is reachable and every path from the
        // entry to `b` passes `a`.
        let mut state: u64 = 12345;
        let mut next = |m: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) as usize) % m
        };
        for _ in 0..200 {
            let n = 2 + next(9);
            let edges: Vec<(usize, usize)> = (0..next(3 * n) + 1).map(|_| (next(n), next(n))).collect();
            let p = crate::ir::test_graph(n, &edges);
            let dom = dominators(&p);
            let reach = reachable_without(&p, None);
            for a in 0..n {
                let without = reachable_without(&p, Some(a));
                for b in 0..n {
                    let expected = reach[a] && reach[b] && (a == b || !without[b]);
                    assert_eq!(dom.dominates(a, b), expected, "{a} dom {b} in {edges:?}");
                }
            }
        }
    }

    #[test]
    fn irreducible_cycle_is_rejected() {
        // Two entries into the cycle 1 <-> 2.
        let p = crate::ir::test_graph(4, &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)]);
        assert!(find_loops(&p).is_err());
    }
}
