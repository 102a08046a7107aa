//! (being written)
use super::{Budget, Engine, Verdict};
use crate::horn::System;

pub mod lit;
pub mod mbp;

#[derive(Clone, Debug, Default)]
pub struct Pdr;

impl Engine for Pdr {
    fn name(&self) -> &'static str {
        "pdr"
    }
    fn solve(&self, _system: &System, _budget: &Budget) -> Verdict {
        Verdict::Unknown("pdr engine not implemented yet".into())
    }
}
