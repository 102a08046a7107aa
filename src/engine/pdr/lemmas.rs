//! PDR's lemmas: whether a cube is blocked at a level, inductive
//! generalisation of a blocked cube (dropping literals, weakening bounds,
//! combining pairs of bounds), and adding a lemma to the frames.

use super::lit::{simplify_cube, Lit};
use super::{post_name, rename_lit, Examined, Lemma, Res, Search, Stop};
use crate::term::{Affine, Term};
use num_bigint::BigInt;
use num_traits::{One, Zero};

impl Search<'_> {

    /// The cube is blocked at `level`: the needed literals, or None.
    pub(super) fn blocked(&mut self, p: usize, cube: &[Lit], level: usize) -> Res<Option<Vec<Lit>>> {
        match self.examine(p, cube, level, false)? {
            Examined::Blocked(core) => Ok(Some(core)),
            _ => Ok(None),
        }
    }

    /// Inductive generalisation: drop literals while the cube stays blocked,
    /// push the lemma as high as it holds (at most `top`), then weaken its
    /// bounds there.
    pub(super) fn generalize(&mut self, p: usize, mut cube: Vec<Lit>, level: usize, top: usize) -> Res<(Vec<Lit>, usize)> {
        let mut i = 0;
        while i < cube.len() {
            let mut cand = cube.clone();
            cand.remove(i);
            match self.blocked(p, &cand, level)? {
                Some(core) => cube = core,
                None => i += 1,
            }
        }
        cube = self.combine_pairs(p, cube, level)?;
        let mut lvl = level;
        while lvl < top {
            match self.blocked(p, &cube, lvl + 1)? {
                Some(core) => {
                    cube = core;
                    lvl += 1;
                }
                None => break,
            }
        }
        // Weaken only at the highest level the lemma reaches: weakening at a
        // low level fits the lemma to that level's few states and stops it
        // from ever being pushed.
        cube = self.weaken_bounds(p, cube, lvl)?;
        Ok((cube, lvl))
    }

    /// Weaken each bound `e <= u` of a blocked cube to `e <= u'` with `u'`
    /// as large as keeps the cube blocked: the lemma `e > u'` is then as
    /// strong as this frame allows, which lets counters converge in one
    /// step instead of one level per value. Candidates come from the
    /// counter-models (a failing candidate shows a state with `e = v`, so
    /// the bound must stay below `v`), then from bisection.
    pub(super) fn weaken_bounds(&mut self, p: usize, mut cube: Vec<Lit>, level: usize) -> Res<Vec<Lit>> {
        for i in 0..cube.len() {
            let Lit::Le(e) = &cube[i] else { continue };
            let e = e.clone();
            let mut linear = e.clone();
            linear.constant = BigInt::zero();
            let probe = rename_lit(&Lit::Le(linear.clone()), &|j| post_name(p, j));
            let Lit::Le(probe) = probe else { continue };
            let probe = probe.to_term();
            // e = linear + c <= 0  <=>  linear <= -c
            let with_bound = |u: &BigInt| Lit::Le(Affine { coeffs: linear.coeffs.clone(), constant: -u });
            let mut good = -e.constant.clone();
            let mut bad: Option<BigInt> = None;
            let mut cand = &good + (BigInt::one() << 40usize);
            for _ in 0..4 {
                let mut c = cube.clone();
                c[i] = with_bound(&cand);
                match self.examine_probe(p, &c, level, &probe)? {
                    None => {
                        good = cand.clone();
                        break;
                    }
                    Some(v) => {
                        bad = Some(v.clone());
                        cand = v - 1;
                        if cand <= good {
                            break;
                        }
                    }
                }
            }
            if let Some(mut bad_v) = bad {
                while &bad_v - &good > BigInt::one() {
                    let mid: BigInt = (&good + &bad_v) >> 1usize;
                    let mut c = cube.clone();
                    c[i] = with_bound(&mid);
                    match self.examine_probe(p, &c, level, &probe)? {
                        None => good = mid,
                        Some(v) => bad_v = v.min(mid),
                    }
                }
            }
            cube[i] = with_bound(&good);
        }
        Ok(simplify_cube(cube))
    }

    /// Replace two bounds `e1 <= 0`, `e2 <= 0` of the cube by their sum
    /// `e1 + e2 <= 0` (a weaker cube, so a stronger lemma) while the cube
    /// stays blocked. This finds relational lemmas such as `y <= x` from a
    /// cube `x <= 0 /\ y >= 1`, which no subset of the cube's literals
    /// expresses.
    pub(super) fn combine_pairs(&mut self, p: usize, mut cube: Vec<Lit>, level: usize) -> Res<Vec<Lit>> {
        const MAX_CUBE: usize = 6;
        'outer: loop {
            if cube.len() > MAX_CUBE {
                return Ok(cube);
            }
            for i in 0..cube.len() {
                for j in i + 1..cube.len() {
                    let (Lit::Le(a), Lit::Le(b)) = (&cube[i], &cube[j]) else { continue };
                    let sum = a.plus(b);
                    // No coefficient may grow: summing bounds that share a
                    // variable can otherwise grow its coefficient round
                    // after round (`155 x + y <= z`, `156 x + ...`) and
                    // diverge.
                    let largest = |e: &Affine| e.coeffs.values().map(|c| c.magnitude().clone()).max().unwrap_or_default();
                    if largest(&sum) > largest(a).max(largest(b)) {
                        continue;
                    }
                    // Opposite bounds on one expression sum to a constant.
                    if sum.coeffs.is_empty() {
                        continue;
                    }
                    let Ok(lit) = Lit::le(sum) else { continue };
                    let mut cand: Vec<Lit> =
                        cube.iter().enumerate().filter(|(k, _)| *k != i && *k != j).map(|(_, l)| l.clone()).collect();
                    cand.push(lit);
                    if let Some(core) = self.blocked(p, &cand, level)? {
                        cube = core;
                        continue 'outer;
                    }
                }
            }
            return Ok(cube);
        }
    }

    /// Whether the cube is blocked at `level` (None), or the value of
    /// `probe` (a term over the post-state) in a counter-model.
    pub(super) fn examine_probe(&mut self, p: usize, cube: &[Lit], level: usize, probe: &Term) -> Res<Option<BigInt>> {
        self.probe = Some(probe.clone());
        let r = self.examine(p, cube, level, false);
        self.probe = None;
        match r? {
            Examined::Blocked(_) => Ok(None),
            _ => match self.probed.take() {
                Some(v) => Ok(Some(v)),
                None => Err(Stop("no model value for a bound".into())),
            },
        }
    }

    pub(super) fn add_lemma(&mut self, p: usize, cube: Vec<Lit>, level: usize) {
        for l in self.lemmas[p].iter_mut() {
            if l.alive && l.level <= level && cube.iter().all(|x| l.cube.contains(x)) {
                l.alive = false;
            }
        }
        self.assert_lemma(p, &cube, level);
        self.lemmas[p].push(Lemma { cube, level, alive: true });
    }

    /// The highest level of a lemma that syntactically blocks the cube.
    pub(super) fn blocked_by_lemma(&self, p: usize, cube: &[Lit]) -> Option<usize> {
        self.lemmas[p]
            .iter()
            .filter(|l| l.alive && l.cube.iter().all(|x| cube.contains(x)))
            .map(|l| l.level)
            .max()
    }
}
