//! Which blocks a pointer of unknown value may address.
//!
//! A load or store through a pointer whose base is not a constant (a
//! pointer variable that was reassigned, a pointer from a function without
//! definition, an integer turned into a pointer) may hit any block whose
//! address the program has let out of its hands: stored in a variable or
//! in memory, passed to code outside the model, converted to an integer.
//! A block whose address never leaves the expression that computes it
//! (`a[i]`, `s.f`, `memset(a, 0, n)` on a local array, the `__mod_*`
//! strings of a driver) is reached by name only, and a store through an
//! unknown pointer leaves it alone. Before this, every such store was
//! expanded over every tracked cell of the program: drivers got a hundred
//! thousand conditional assignments and lost what they knew about their
//! own local structs.
//!
//! An address held only by variables is not exposed: `_hj_key = &i` (a
//! hash function reading the bytes of a local) lets pointers loaded from
//! memory, pointers from outside and pointers held by other variables go on
//! missing `i`. Which blocks each variable may hold comes from the finished
//! program, by [`addresses_held`]: a pass over every assignment and every
//! defining equality of the IR rather than over the places in the lowering
//! that copy a base into a variable, so no such place can be missed. A
//! pointer of unknown value then addresses the exposed blocks and those its
//! base's variables may hold.
//!
//! Both are only known when the whole program has been lowered, so the
//! lowering runs again when a round consulted smaller sets than it found
//! (see [`crate::c::lower::lower`]). Where an address leaves the
//! variables (stored in memory, passed to code outside the model, turned
//! into an integer) is decided at the few places that do it (the sinks):
//! [`Lowerer::expose`] is called there, with the addresses a variable in
//! the stored term may hold.

use super::cells::Block;
use crate::c::lower::Lowerer;
use crate::ir::{Action, IntType, Program};
use crate::term::{Op, Term};
use std::collections::{HashMap, HashSet};

/// The blocks (with cells) each variable may hold the address of, beyond
/// the exposed ones.
pub(crate) type Held = HashMap<String, HashSet<i64>>;

#[derive(Clone, Debug, Default)]
pub(crate) struct Exposure {
    /// Blocks this round assumes exposed.
    pub assumed: HashSet<i64>,
    /// The blocks this round assumes each variable may hold (the previous
    /// round's [`addresses_held`]).
    pub held: Held,
    /// Blocks whose address this round let out.
    pub found: HashSet<i64>,
    /// Variables whose value this round let out: the blocks they hold are
    /// exposed too (known once the round's program is).
    pub found_through: HashSet<String>,
    /// The blocks with cells (the only ones an unknown pointer's access
    /// expands over), filled in when the round ends.
    pub cell_blocks: HashSet<i64>,
    /// Whether some access through an unknown pointer consulted `assumed`
    /// (if none did, the round is valid whatever it found).
    pub consulted: bool,
    /// Automatic objects whose scope is still open while lowering: (frame
    /// depth, scope depth, block id).
    pub open: Vec<(usize, usize, i64)>,
    /// Blocks of automatic objects whose scope has closed. Code lowered
    /// after the closing brace runs only when the object is dead (each
    /// inlined call and each scope has its own lowering), so a pointer
    /// that still holds its address dangles: accessing it is undefined
    /// behaviour, and unknown pointers no longer reach the block.
    pub ended: HashSet<i64>,
}

/// The block ids a base term may evaluate to, where they are constants:
/// the constants in value position (both arms of an `ite`, not its
/// condition). Variables contribute nothing: what a variable can hold was
/// exposed when it was assigned.
pub(crate) fn constant_bases(t: &Term, out: &mut HashSet<i64>) {
    match t {
        Term::Int(i) => {
            if let Ok(k) = i64::try_from(i) {
                if k != 0 {
                    out.insert(k);
                }
            }
        }
        Term::Bool(_) | Term::Var(..) => {}
        Term::App(Op::Ite, a) if a.len() == 3 => {
            constant_bases(&a[1], out);
            constant_bases(&a[2], out);
        }
        Term::App(_, args) => args.iter().for_each(|a| constant_bases(a, out)),
    }
}

/// The parts of `t` its value may come from: the constants and the
/// variables in value position (both arms of an `ite`; every operand of
/// arithmetic; nothing of a comparison or a connective, whose value is a
/// truth value and no address).
fn value_parts(t: &Term, consts: &mut HashSet<i64>, vars: &mut Vec<String>) {
    match t {
        Term::Int(i) => {
            if let Ok(k) = i64::try_from(i) {
                if k != 0 {
                    consts.insert(k);
                }
            }
        }
        Term::Bool(_) => {}
        Term::Var(v, _) => vars.push(v.to_string()),
        Term::App(Op::Ite, a) if a.len() == 3 => {
            value_parts(&a[1], consts, vars);
            value_parts(&a[2], consts, vars);
        }
        Term::App(Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq | Op::And | Op::Or | Op::Not | Op::Implies, _) => {}
        Term::App(_, args) => args.iter().for_each(|a| value_parts(a, consts, vars)),
    }
}

/// The equalities `a = b` anywhere in `t` (in any position: an equality
/// under a negation or a disjunction may still define a value on some path).
fn equalities<'t>(t: &'t Term, out: &mut Vec<(&'t Term, &'t Term)>) {
    if let Term::App(op, args) = t {
        if *op == Op::Eq && args.len() == 2 {
            out.push((&args[0], &args[1]));
        }
        args.iter().for_each(|a| equalities(a, out));
    }
}

/// Which of the blocks `cell_blocks` each variable of `program` may hold the
/// address of, apart from the exposed blocks: the least sets closed under
/// every `v := t` (the constants and variables `t`'s value may come from)
/// and every equality `v = t` an `assume` states (a value defined by a
/// constraint: a load's `choose` pinned to a cell). A `havoc` or `choose`
/// otherwise gives a value from outside the variables (an input, memory,
/// code outside the model), which holds only exposed addresses: memory and
/// outside code get addresses only through the sinks that expose them.
/// Flow-insensitive, and by name (variables of one name in different
/// scopes are one), so an over-approximation.
pub(crate) fn addresses_held(program: &Program, cell_blocks: &HashSet<i64>) -> Held {
    if cell_blocks.is_empty() {
        return Held::new();
    }
    let mut consts: HashMap<String, HashSet<i64>> = HashMap::new();
    // Value flows: from a variable to the variables assigned from it.
    let mut flows: HashMap<String, Vec<String>> = HashMap::new();
    let mut flow = |into: &str, from: &Term| {
        let (mut cs, mut vs) = (HashSet::new(), Vec::new());
        value_parts(from, &mut cs, &mut vs);
        cs.retain(|k| cell_blocks.contains(k));
        if !cs.is_empty() {
            consts.entry(into.to_string()).or_default().extend(cs);
        }
        for v in vs {
            if v != into {
                flows.entry(v).or_default().push(into.to_string());
            }
        }
    };
    for e in &program.edges {
        for a in &e.actions {
            match a {
                Action::Assign(v, t) => flow(v, t),
                Action::Assume(c) => {
                    let mut eqs = Vec::new();
                    equalities(c, &mut eqs);
                    for (l, r) in eqs {
                        if let Term::Var(v, _) = l {
                            flow(v, r);
                        }
                        if let Term::Var(v, _) = r {
                            flow(v, l);
                        }
                    }
                }
                Action::Havoc(_) | Action::Choose(_) | Action::Inexact | Action::Mark(_) => {}
            }
        }
    }
    // Propagate along the flows until nothing changes.
    let mut held = consts;
    let mut work: Vec<String> = held.keys().cloned().collect();
    while let Some(v) = work.pop() {
        let Some(from) = held.get(&v).cloned() else { continue };
        for w in flows.get(&v).into_iter().flatten() {
            let into = held.entry(w.clone()).or_default();
            let before = into.len();
            into.extend(from.iter().copied());
            if into.len() > before {
                work.push(w.clone());
            }
        }
    }
    held.retain(|_, s| !s.is_empty());
    held
}

impl<'a> Lowerer<'a> {
    /// The address in `base` leaves the variables (a sink: stored in
    /// memory, passed to code outside the model, turned into an integer):
    /// its blocks, and those the variables it reads may hold, become
    /// reachable by unknown pointers.
    pub(crate) fn expose(&mut self, base: &Term) {
        constant_bases(base, &mut self.mem.exposure.found);
        for v in base.free_vars() {
            self.mem.exposure.found_through.insert(v.name.to_string());
        }
    }

    /// The cell blocks a pointer with this (non-constant) base may address:
    /// the exposed ones, those the base term names itself and those the
    /// variables it reads may hold.
    pub(crate) fn addressable_blocks(&mut self, base: &Term) -> Vec<Block> {
        let mut named = HashSet::new();
        constant_bases(base, &mut named);
        let mut held = HashSet::new();
        for v in base.free_vars() {
            if let Some(h) = self.mem.exposure.held.get(v.name.as_str()) {
                held.extend(h.iter().copied());
            }
        }
        let e = &self.mem.exposure;
        let blocks: Vec<Block> = self
            .mem
            .blocks
            .iter()
            .filter(|b| b.cells.is_some())
            .filter(|b| named.contains(&b.id) || (e.assumed.contains(&b.id) || held.contains(&b.id)) && !e.ended.contains(&b.id))
            .cloned()
            .collect();
        if self.mem.blocks.iter().any(|b| b.cells.is_some() && !named.contains(&b.id)) {
            self.mem.exposure.consulted = true;
        }
        blocks
    }

    /// An automatic object's block, open until its scope closes.
    pub(crate) fn open_automatic(&mut self, base: &Term) {
        if let (Some(id), Some(f)) = (super::const_int(base), self.calls.frame()) {
            let depth = (self.calls.frames().len(), f.scope_depth());
            self.mem.exposure.open.push((depth.0, depth.1, id));
        }
    }

    /// The scopes deeper than `scopes` in frame `frames` (and every scope
    /// of deeper frames) have closed: their automatic objects are dead.
    pub(crate) fn close_automatic(&mut self, frames: usize, scopes: usize) {
        let (closed, open): (Vec<_>, Vec<_>) = self.mem.exposure.open.drain(..).partition(|&(f, s, _)| f > frames || f == frames && s > scopes);
        self.mem.exposure.open = open;
        self.mem.exposure.ended.extend(closed.into_iter().map(|(_, _, id)| id));
    }

    /// The cells code outside the model may reach through pointers the
    /// program gave it: those of every exposed block.
    pub(crate) fn exposed_cells(&mut self) -> Vec<(String, IntType)> {
        // Code outside the model may write every exposed block.
        self.links_lost();
        self.addressable_blocks(&Term::var("unknown"))
            .into_iter()
            .filter_map(|b| b.cells)
            .flat_map(|c| c.variables().collect::<Vec<_>>())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_in_value_position_only() {
        let mut out = HashSet::new();
        let t = Term::ite(Term::eq(Term::var("b"), Term::int(38)), Term::int(5), Term::ite(Term::var("c"), Term::int(7), Term::var("p")));
        constant_bases(&t, &mut out);
        assert_eq!(out, HashSet::from([5, 7]));
    }
}
