//! Flags and values more than one subcommand reads: the meaning of a
//! program ([`ModelArgs`], shared by `prove` and `emit`), integer semantics
//! (also `bench`'s), and the `--engine` values, read from the engine
//! registry ([`ENGINES`]): `solve` offers every engine, `prove` those that
//! can prove safety.

use crate::engine::{EngineKind, ENGINES};
use crate::ir::{DataModel, IntSemantics};
use crate::session::Session;
use crate::svcomp::{self, TaskDefinition, TaskError};
use clap::builder::PossibleValue;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The meaning of the program: the flags `prove` and `emit` share.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct ModelArgs {
    /// Integer semantics.
    #[arg(long, value_enum, default_value = "c")]
    pub ints: Ints,
    /// Sizes of `long`, `size_t` and pointers.
    #[arg(long, value_enum, default_value = "lp64")]
    pub data_model: DataModelArg,
    /// What a call of a function without a definition may change.
    #[arg(long, value_enum, default_value = "any")]
    pub external_calls: ExternalCallsArg,
    /// Whether `malloc`, `calloc` and `realloc` may return NULL [default:
    /// may-fail for a C file, never-fails for an SV-COMP task (`.yml`),
    /// whose labels follow SV-COMP's rule that allocation never fails].
    #[arg(long, value_enum)]
    pub allocation: Option<AllocationArg>,
}

impl ModelArgs {
    /// A session with this meaning of programs (no time limit, the
    /// prover's default strategy and engine).
    pub fn session(&self) -> Session {
        let allocation = match self.allocation {
            Some(AllocationArg::MayFail) | None => crate::c::Allocation::MayFail,
            Some(AllocationArg::NeverFails) => crate::c::Allocation::NeverFails,
        };
        Session::new(self.ints.into(), self.data_model.into(), crate::c::Choices { external_calls: self.external_calls.into(), allocation })
    }

    /// When `file` is an SV-COMP task definition (`.yml`), replace it by the
    /// task's C file and take the task's data model (over `--data-model`);
    /// any other file is left as it is.
    pub fn resolve_task(&mut self, file: &mut PathBuf) -> Result<(), TaskError> {
        if !svcomp::is_task_definition(file) {
            return Ok(());
        }
        let task = TaskDefinition::load(file)?;
        // SV-COMP's rules (up to SV-COMP 2026, "Definition of the
        // programs") assume that memory allocation never fails; the labels
        // of its tasks follow that (see the README).
        self.allocation.get_or_insert(AllocationArg::NeverFails);
        *file = task.termination_input()?.to_path_buf();
        if let Some(model) = task.data_model {
            self.data_model = match model {
                DataModel::Ilp32 => DataModelArg::Ilp32,
                DataModel::Lp64 => DataModelArg::Lp64,
            };
        }
        Ok(())
    }
}

/// Whether allocations may fail (see `c::meaning::Allocation`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocationArg {
    /// As C says (7.22.3): any `malloc`, `calloc` or `realloc` may return
    /// NULL; a YES covers the runs where one fails, a NO may rest on one.
    MayFail,
    /// Every allocation succeeds (SV-COMP's convention; what a compiled
    /// run of a small program does).
    NeverFails,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ints {
    /// C11: values in their type's range; signed overflow, division by zero
    /// and bad shifts are undefined behaviour (such executions stop, with a
    /// warning); unsigned arithmetic wraps.
    C,
    /// gcc `-fwrapv` machine integers: values in their type's range, signed
    /// arithmetic wraps around too.
    Machine,
    /// Signed integers are unbounded mathematical integers; unsigned still wrap.
    Math,
}

impl From<Ints> for IntSemantics {
    fn from(i: Ints) -> Self {
        match i {
            Ints::C => IntSemantics::C,
            Ints::Machine => IntSemantics::Machine,
            Ints::Math => IntSemantics::Math,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModelArg {
    /// `int`, `long` and pointers 32 bits.
    Ilp32,
    /// `long` and pointers 64 bits (x86-64 Linux).
    Lp64,
}

impl From<DataModelArg> for DataModel {
    fn from(d: DataModelArg) -> Self {
        match d {
            DataModelArg::Ilp32 => DataModel::Ilp32,
            DataModelArg::Lp64 => DataModel::Lp64,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExternalCallsArg {
    /// What C allows: a function the program declares but does not define
    /// (and that is not a C library function) may change any global with
    /// external linkage and every object whose address the program let
    /// out, besides what its pointer arguments reach.
    Any,
    /// Such a function changes only what its pointer arguments reach (the
    /// assumption under which SV-COMP's tasks call undefined helpers).
    Arguments,
}

impl From<ExternalCallsArg> for crate::c::ExternalCalls {
    fn from(e: ExternalCallsArg) -> Self {
        match e {
            ExternalCallsArg::Any => crate::c::ExternalCalls::AnyReachableState,
            ExternalCallsArg::Arguments => crate::c::ExternalCalls::PointerArguments,
        }
    }
}


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
