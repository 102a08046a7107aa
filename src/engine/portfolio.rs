//! (temporary stub until the portfolio lands)
use super::{Budget, Engine, EngineKind, Verdict};
use crate::horn::System;

pub fn solve(system: &System, kind: EngineKind, budget: &Budget) -> Verdict {
    match kind {
        EngineKind::Bmc => super::bmc::Bmc.solve(system, budget),
        EngineKind::Pdr => super::pdr::Pdr.solve(system, budget),
        _ => super::spacer::Spacer.solve(system, budget),
    }
}
