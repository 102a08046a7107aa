//! Node splitting: a program whose control flow is irreducible (a cycle
//! with more than one entry, as a `goto` into a loop body or an integer
//! transition system's rule graph makes) turned into an equivalent one whose
//! every cycle has a single entry, so that loops are natural loops with a
//! header (the termination argument is per loop header, see
//! [`super::loops`]).
//!
//! For a strongly connected region `C` with several entries, one entry `h`
//! stays the header; for each other entry `e`, the part of `C` reachable
//! from `e` without passing through `h` is copied, and the edges that enter
//! `e` from outside `C` go to the copy instead. The copy leaves only
//! towards `h` or out of `C`, so `C` has one entry fewer and the runs are
//! the same (each copied location does what its original does). Regions
//! inside a single-entry region (without its header) are treated the same
//! way, which makes the nesting of loops single-entry at every level.

use super::{Edge, LocId, Program};
use std::collections::BTreeSet;

/// At most this many times the original number of locations (plus a
/// constant) after splitting: node splitting can blow up exponentially.
const GROWTH: usize = 8;

/// `p` with every cycle single-entry; `None` when that takes more locations
/// than [`GROWTH`] allows (the caller keeps its "irreducible" error).
pub fn make_reducible(mut p: Program) -> Option<Program> {
    let limit = p.locations.len() * GROWTH + 1000;
    while let Some((region, header, entry)) = multi_entry_region(&p) {
        split(&mut p, &region, header, entry);
        if p.locations.len() > limit {
            return None;
        }
    }
    Some(p)
}

/// A region (strongly connected, at some nesting level) with an entry other
/// than its header: (region, header kept, entry to split off).
fn multi_entry_region(p: &Program) -> Option<(BTreeSet<LocId>, LocId, LocId)> {
    let reachable = reachable_from_entry(p);
    let all: BTreeSet<LocId> = (0..p.locations.len()).filter(|&l| reachable[l]).collect();
    let preds = predecessors(p);
    let mut work = vec![all];
    while let Some(set) = work.pop() {
        for scc in components(p, &set) {
            let cyclic = scc.len() > 1 || p.edges.iter().any(|e| e.from == e.to && scc.contains(&e.from));
            if !cyclic {
                continue;
            }
            let entries: Vec<LocId> = scc
                .iter()
                .copied()
                .filter(|&n| n == p.entry || preds[n].iter().any(|u| reachable[*u] && !scc.contains(u)))
                .collect();
            match entries.as_slice() {
                [] => continue,
                [h] => {
                    let mut inner = scc.clone();
                    inner.remove(h);
                    work.push(inner);
                }
                [h, e, ..] => return Some((scc, *h, *e)),
            }
        }
    }
    None
}

fn reachable_from_entry(p: &Program) -> Vec<bool> {
    let mut seen = vec![false; p.locations.len()];
    let mut stack = vec![p.entry];
    seen[p.entry] = true;
    let adj = p.adjacency();
    while let Some(n) = stack.pop() {
        for e in adj.successors(p, n) {
            if !seen[e.to] {
                seen[e.to] = true;
                stack.push(e.to);
            }
        }
    }
    seen
}

fn predecessors(p: &Program) -> Vec<Vec<LocId>> {
    let mut preds = vec![Vec::new(); p.locations.len()];
    for e in &p.edges {
        preds[e.to].push(e.from);
    }
    preds
}

/// Copies the part of `region` that `entry` reaches without passing
/// `header`, and sends the edges entering `entry` from outside the region
/// to the copy.
fn split(p: &mut Program, region: &BTreeSet<LocId>, header: LocId, entry: LocId) {
    // The part to copy: closed under successors inside the region, except
    // through the header.
    let mut part = BTreeSet::from([entry]);
    let mut stack = vec![entry];
    while let Some(n) = stack.pop() {
        for e in p.edges.iter().filter(|e| e.from == n) {
            if e.to != header && region.contains(&e.to) && part.insert(e.to) {
                stack.push(e.to);
            }
        }
    }
    let copy_of: std::collections::BTreeMap<LocId, LocId> = part
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, p.locations.len() + i))
        .collect();
    for &n in &part {
        p.locations.push(p.locations[n].clone());
    }
    let mut new_edges = Vec::new();
    for e in &p.edges {
        if let Some(&from) = copy_of.get(&e.from) {
            let to = copy_of.get(&e.to).copied().unwrap_or(e.to);
            new_edges.push(Edge { from, to, actions: e.actions.clone() });
        }
    }
    for e in p.edges.iter_mut() {
        if e.to == entry && !region.contains(&e.from) {
            e.to = copy_of[&entry];
        }
    }
    p.edges.extend(new_edges);
    if p.entry == entry {
        // Runs start in the copy; the original stays for the region's
        // own edges.
        p.entry = copy_of[&entry];
    }
}

/// The strongly connected components of the subgraph induced by `set`
/// (Tarjan's algorithm, iterative: programs have thousands of locations).
pub(crate) fn components(p: &Program, set: &BTreeSet<LocId>) -> Vec<BTreeSet<LocId>> {
    let n = p.locations.len();
    let mut succ = vec![Vec::new(); n];
    for e in &p.edges {
        if set.contains(&e.from) && set.contains(&e.to) {
            succ[e.from].push(e.to);
        }
    }
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for &root in set {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next successor to look at)
        let mut call = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if let Some(&w) = succ[v].get(*i) {
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(u, _)) = call.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = BTreeSet::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    scc.insert(w);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::find_loops;


    #[test]
    fn a_cycle_with_two_entries_gets_one() {
        // 0 -> 1, 0 -> 2, 1 <-> 2, 2 -> 3
        let p = crate::ir::test_graph(4, &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)]);
        assert!(find_loops(&p).is_err());
        let q = make_reducible(p).expect("small");
        let loops = find_loops(&q).expect("reducible");
        assert_eq!(loops.len(), 1);
    }

    #[test]
    fn nested_irreducible_regions_are_split_too() {
        // Outer loop 1 -> 2 -> 3 -> 1; inside it (without 1) the cycle
        // 2 <-> 3 is entered at 2 (from 1) and at 3 (from 4, itself
        // entered from 1).
        let p = crate::ir::test_graph(6, &[(0, 1), (1, 2), (1, 4), (4, 3), (2, 3), (3, 2), (3, 1), (1, 5)]);
        assert!(find_loops(&p).is_err());
        let q = make_reducible(p).expect("small");
        assert!(find_loops(&q).is_ok());
    }

    #[test]
    fn random_graphs_become_reducible_with_the_same_paths() {
        // Pseudo-random graphs; the language of paths (as sequences of
        // original locations) up to a length is the same before and after.
        let mut seed = 12345u64;
        let mut rnd = |m: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % m
        };
        for _ in 0..200 {
            let n = 3 + rnd(6);
            let edges: Vec<(usize, usize)> = (0..n + rnd(2 * n)).map(|_| (rnd(n), rnd(n))).collect();
            let p = crate::ir::test_graph(n, &edges);
            let q = make_reducible(p.clone()).expect("small");
            assert!(find_loops(&q).is_ok(), "{edges:?}");
            // Map copies to their originals by the order they were made:
            // compare the number of paths of each length from the entry.
            assert_eq!(paths(&p, 6), paths(&q, 6), "{edges:?}");
        }
    }

    /// The number of paths of each length from the entry.
    fn paths(p: &Program, len: usize) -> Vec<usize> {
        let mut count = vec![0usize; p.locations.len()];
        count[p.entry] = 1;
        let mut out = Vec::new();
        for _ in 0..len {
            let mut next = vec![0usize; p.locations.len()];
            for e in &p.edges {
                next[e.to] += count[e.from];
            }
            count = next;
            out.push(count.iter().sum());
        }
        out
    }
}
