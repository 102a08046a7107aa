//! (temporary stub until the ranking module lands)
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::BTreeMap;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerminatingSample {
    pub state: BTreeMap<String, BigInt>,
    pub remaining: BigInt,
}
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffinePiece {
    pub coeffs: BTreeMap<String, BigRational>,
    pub constant: BigRational,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combination {
    Piecewise,
    Lexicographic,
    Multiphase,
}
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankingCandidate {
    pub combination: Combination,
    pub pieces: Vec<AffinePiece>,
}
impl fmt::Display for RankingCandidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "?")
    }
}
pub struct PieceBuilder {
    c: Combination,
}
impl PieceBuilder {
    pub fn new(c: Combination, _vars: &[String]) -> Self {
        PieceBuilder { c }
    }
    pub fn add_trace(&mut self, _s: &[TerminatingSample]) -> bool { false }
    pub fn candidate(&self) -> RankingCandidate {
        RankingCandidate { combination: self.c, pieces: vec![] }
    }
}

impl RankingCandidate {
    pub fn zero(c: Combination) -> Self {
        RankingCandidate { combination: c, pieces: vec![] }
    }
}
pub fn parse_candidate(_t: &str) -> Result<RankingCandidate, String> {
    Err("stub".into())
}
