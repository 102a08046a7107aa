//! What solving a Horn clause system answers: [`Verdict`], with its
//! evidence, an [`Invariant`] (a model of the clauses) for `Safe` or a
//! ground [`Derivation`] of `false` for `Unsafe`.

use crate::term::{Term, Value};

/// One formula per predicate, over that predicate's parameter names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    pub interp: Vec<Term>,
}

/// A ground derivation of `false`: the root uses a query clause; every node
/// gives the values of its clause's head arguments (empty at the root) and
/// one sub-derivation per body predicate application, in body order. For
/// linear systems this is a chain from a fact to the query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derivation {
    pub clause: usize,
    pub head_values: Vec<Value>,
    pub premises: Vec<Derivation>,
}

impl Derivation {
    /// The chain of a linear derivation, fact first, query last.
    pub fn chain(&self) -> Vec<&Derivation> {
        let mut out = vec![self];
        let mut cur = self;
        while let Some(p) = cur.premises.first() {
            out.push(p);
            cur = p;
        }
        out.reverse();
        out
    }
    pub fn depth(&self) -> usize {
        1 + self.premises.iter().map(|p| p.depth()).max().unwrap_or(0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Safe(Invariant),
    Unsafe(Derivation),
    Unknown(String),
}

impl Verdict {
    /// CHC-COMP answer word: `sat` means the clauses have a model (safe).
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Safe(_) => "sat",
            Verdict::Unsafe(_) => "unsat",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// The invariant of predicate `p`, or `true` when missing.
pub fn interp_of(inv: &Invariant, p: usize) -> Term {
    inv.interp.get(p).cloned().unwrap_or_else(Term::tt)
}
