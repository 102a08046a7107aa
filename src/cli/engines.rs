//! `--engine` values, read from the engine registry ([`ENGINES`]): `solve`
//! offers every engine, `prove` those that can prove safety.

use crate::engine::{EngineKind, ENGINES};
use clap::builder::PossibleValue;
use std::sync::OnceLock;

/// `solve --engine`: any engine of the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnyEngine(pub EngineKind);

/// `prove --engine`: an engine that can prove safety.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofEngine(pub EngineKind);

fn possible_value(kind: EngineKind) -> PossibleValue {
    let e = kind.entry();
    PossibleValue::new(e.name).help(e.help)
}

impl clap::ValueEnum for AnyEngine {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: OnceLock<Vec<AnyEngine>> = OnceLock::new();
        ALL.get_or_init(|| ENGINES.iter().map(|e| AnyEngine(e.kind)).collect())
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(possible_value(self.0))
    }
}

impl clap::ValueEnum for ProofEngine {
    fn value_variants<'a>() -> &'a [Self] {
        static PROVING: OnceLock<Vec<ProofEngine>> = OnceLock::new();
        PROVING.get_or_init(|| ENGINES.iter().filter(|e| e.proves).map(|e| ProofEngine(e.kind)).collect())
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(possible_value(self.0))
    }
}
