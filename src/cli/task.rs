//! `tessera prove TASK.yml` and `--property FILE.prp`: turns an SV-COMP task
//! definition into the C file to prove and its data model, and checks the
//! property, before the proof starts (kept apart from `prove.rs`, which only
//! calls [`prepare`]).

use super::prove::ProveArgs;
use crate::report::{self, Format};
use crate::svcomp::{self, DataModel, TaskDefinition, TaskError};
use crate::termination::{Answer, Outcome};

/// Checks `--property` and, when the file is a task definition, replaces it
/// by the task's C file. Returns the task's data model (`None` for a plain
/// C file or a task without one), or the exit code after printing the error
/// (and, for formats other than text, an UNKNOWN answer).
pub fn prepare(args: &mut ProveArgs) -> Result<Option<DataModel>, i32> {
    resolve(args).map_err(|e| {
        eprintln!("{e}");
        if args.format != Format::Text {
            let outcome = Outcome {
                answer: Answer::Maybe {
                    reason: e.to_string(),
                },
                file: args.file.display().to_string(),
                seconds: 0.0,
                encoding: None,
                queries: 0,
                warnings: Vec::new(),
            };
            print!("{}", report::render(&outcome, args.format));
        }
        e.exit_code
    })
}

fn resolve(args: &mut ProveArgs) -> Result<Option<DataModel>, TaskError> {
    if let Some(property) = &args.property {
        svcomp::check_property_file(property)?;
    }
    if !svcomp::is_task_definition(&args.file) {
        return Ok(None);
    }
    let task = TaskDefinition::load(&args.file)?;
    args.file = task.termination_input()?.to_path_buf();
    Ok(task.data_model)
}
