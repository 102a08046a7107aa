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

/// Dominator sets by the classic iterative data-flow algorithm; fine for the
/// few hundred locations of a program after inlining.
pub fn dominators(p: &Program) -> Vec<Option<BTreeSet<LocId>>> {
    let n = p.locations.len();
    let reach = reachable(p);
    let all: BTreeSet<LocId> = (0..n).filter(|&l| reach[l]).collect();
    let mut dom: Vec<Option<BTreeSet<LocId>>> = (0..n)
        .map(|l| if !reach[l] { None } else if l == p.entry { Some([l].into()) } else { Some(all.clone()) })
        .collect();
    let order = reverse_postorder(p);
    let adj = p.adjacency();
    let mut changed = true;
    while changed {
        changed = false;
        for &l in &order {
            if l == p.entry {
                continue;
            }
            let mut new: Option<BTreeSet<LocId>> = None;
            for e in adj.predecessors(p, l) {
                if let Some(d) = &dom[e.from] {
                    new = Some(match new {
                        None => d.clone(),
                        Some(acc) => acc.intersection(d).copied().collect(),
                    });
                }
            }
            let mut new = new.unwrap_or_default();
            new.insert(l);
            if dom[l].as_ref() != Some(&new) {
                dom[l] = Some(new);
                changed = true;
            }
        }
    }
    dom
}

fn reachable(p: &Program) -> Vec<bool> {
    let mut seen = vec![false; p.locations.len()];
    let adj = p.adjacency();
    let mut stack = vec![p.entry];
    while let Some(l) = stack.pop() {
        if l >= seen.len() || seen[l] {
            continue;
        }
        seen[l] = true;
        stack.extend(adj.successors(p, l).map(|e| e.to));
    }
    seen
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
    let dominates = |a: LocId, b: LocId| dom[b].as_ref().is_some_and(|d| d.contains(&a));
    let mut loops: Vec<Loop> = Vec::new();
    for e in &p.edges {
        if dom[e.from].is_none() {
            continue; // unreachable code
        }
        if dominates(e.to, e.from) {
            let h = e.to;
            let mut body: BTreeSet<LocId> = [h].into();
            let mut stack = vec![e.from];
            while let Some(l) = stack.pop() {
                if body.insert(l) {
                    stack.extend(adj.predecessors(p, l).filter(|e| dom[e.from].is_some()).map(|e| e.from));
                }
            }
            if let Some(existing) = loops.iter_mut().find(|l| l.header == h) {
                existing.body.extend(body);
            } else {
                loops.push(Loop { header: h, body, parent: None });
            }
        }
    }
    // Irreducibility: every cycle must go through a back edge. Remove back
    // edges; what remains must be acyclic.
    let n = p.locations.len();
    let mut indeg = vec![0usize; n];
    let forward: Vec<(LocId, LocId)> = p
        .edges
        .iter()
        .filter(|e| dom[e.from].is_some() && !dominates(e.to, e.from))
        .map(|e| (e.from, e.to))
        .collect();
    for &(_, t) in &forward {
        indeg[t] += 1;
    }
    let mut queue: Vec<LocId> = (0..n).filter(|&l| indeg[l] == 0).collect();
    let mut done = 0;
    while let Some(l) = queue.pop() {
        done += 1;
        for &(f, t) in &forward {
            if f == l {
                indeg[t] -= 1;
                if indeg[t] == 0 {
                    queue.push(t);
                }
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
    use crate::ir::{Edge, IntSemantics, Location, Program};

    fn program(n: usize, edges: &[(usize, usize)]) -> Program {
        Program {
            file: "t.c".into(),
            vars: vec![],
            locations: vec![Location::default(); n],
            edges: edges.iter().map(|&(from, to)| Edge { from, to, actions: vec![] }).collect(),
            entry: 0,
            exit: n - 1,
            semantics: IntSemantics::Math,
            approximations: vec![],
            forbid_no: vec![],
            undefined: vec![],
        }
    }

    #[test]
    fn nested_loops_are_found_with_parents() {
        // 0 -> 1 (outer header) -> 2 (inner header) -> 2, 2 -> 1, 1 -> 3
        let p = program(4, &[(0, 1), (1, 2), (2, 2), (2, 1), (1, 3)]);
        let loops = find_loops(&p).expect("reducible");
        assert_eq!(loops.len(), 2);
        assert_eq!(loops[0].header, 1);
        assert_eq!(loops[0].body, [1, 2].into());
        assert_eq!(loops[1].header, 2);
        assert_eq!(loops[1].parent, Some(0));
    }

    #[test]
    fn irreducible_cycle_is_rejected() {
        // Two entries into the cycle 1 <-> 2.
        let p = program(4, &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)]);
        assert!(find_loops(&p).is_err());
    }
}
