//! (stub: to be written)
use super::{Budget, Engine, Verdict};
use crate::horn::System;

#[derive(Clone, Debug, Default)]
pub struct Bmc;

impl Engine for Bmc {
    fn name(&self) -> &'static str {
        "bmc"
    }
    fn solve(&self, _system: &System, _budget: &Budget) -> Verdict {
        Verdict::Unknown("bmc engine not implemented yet".into())
    }
}
