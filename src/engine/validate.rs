//! (temporary stub until the validator lands)
use super::{Budget, Verdict};
use crate::horn::System;

pub fn validate(_system: &System, _verdict: &Verdict, _budget: &Budget) -> Result<(), String> {
    Err("validator not implemented yet".into())
}
