//! (stub: to be written)
use super::{Budget, Engine, Verdict};
use crate::horn::System;

#[derive(Clone, Debug, Default)]
pub struct Spacer;

impl Engine for Spacer {
    fn name(&self) -> &'static str {
        "spacer"
    }
    fn solve(&self, _system: &System, _budget: &Budget) -> Verdict {
        Verdict::Unknown("spacer engine not implemented yet".into())
    }
}
