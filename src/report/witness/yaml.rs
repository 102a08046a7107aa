//! YAML witnesses (sv-witnesses format 2.x): a `violation_sequence` for NO,
//! an `invariant_set` (format 2.1) for YES. Strings are written as JSON
//! strings, which are YAML double-quoted scalars (`\at` becomes `"\\at"`).

use super::{now_iso8601, producer_version, uuid, LoopWitness, NonTermination, Task, SPECIFICATION};
use crate::ir::Span;
use std::fmt::Write as _;

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn metadata(s: &mut String, task: &Task, version: &str) {
    let _ = write!(
        s,
        "  metadata:\n    format_version: {}\n    uuid: {}\n    creation_time: {}\n    producer:\n      name: Tessera\n      version: {}\n    task:\n      input_files:\n        - {}\n      input_file_hashes:\n        {}: {}\n      specification: {}\n      data_model: {}\n      language: C\n",
        q(version),
        q(&uuid(task)),
        q(&now_iso8601()),
        q(producer_version()),
        q(&task.file),
        q(&task.file),
        q(&task.sha256),
        q(SPECIFICATION),
        task.data_model.yaml()
    );
}

/// `location` at `indent` spaces: a loop of `function`.
fn location(s: &mut String, indent: &str, file: &str, at: &Span, function: &str) {
    let _ = write!(
        s,
        "{indent}location:\n{indent}  file_name: {}\n{indent}  line: {}\n{indent}  column: {}\n{indent}  function: {}\n",
        q(file),
        at.line,
        at.col.max(1),
        q(function)
    );
}

/// NO: the stem as one segment that reaches the loop head with the stem's
/// values, then the cycle: a `recurrence` waypoint at the loop head whose
/// constraint is the recurrent set (format 2.2's termination form).
pub(super) fn violation(task: &Task, nt: &NonTermination) -> String {
    let mut s = String::from("- entry_type: violation_sequence\n");
    metadata(&mut s, task, "2.2");
    s.push_str("  content:\n");
    if !nt.entry_state.is_empty() {
        s.push_str("    - segment:\n        - waypoint:\n            type: assumption\n            action: follow\n");
        location(&mut s, "            ", &task.file, &nt.head, &nt.function);
        let _ = write!(
            s,
            "            constraint:\n              value: {}\n              format: c_expression\n",
            q(&nt.entry_state.join(" && "))
        );
    }
    s.push_str("    - segment:\n        - waypoint:\n            type: recurrence\n            action: cycle\n");
    location(&mut s, "            ", &task.file, &nt.head, &nt.function);
    let _ = write!(s, "            constraint:\n              value: {}\n              format: c_expression\n", q(&nt.recurrent));
    s
}

/// YES: one `invariant_set` with, per loop, its supporting invariant and
/// its ranking function as a transition invariant.
pub(super) fn correctness(task: &Task, loops: &[LoopWitness]) -> String {
    let mut s = String::from("- entry_type: invariant_set\n");
    metadata(&mut s, task, "2.1");
    let mut items = String::new();
    for l in loops {
        let mut item = |kind: &str, value: &str, format: &str| {
            let _ = writeln!(items, "    - invariant:\n        type: {kind}");
            location(&mut items, "        ", &task.file, &l.head, &l.function);
            let _ = write!(items, "        value: {}\n        format: {format}\n", q(value));
        };
        if let Some(inv) = &l.invariant {
            item("loop_invariant", inv, "c_expression");
        }
        if let Some(t) = &l.transition {
            item("loop_transition_invariant", t, "ext_c_expression");
        }
    }
    if items.is_empty() {
        s.push_str("  content: []\n");
    } else {
        s.push_str("  content:\n");
        s.push_str(&items);
    }
    s
}
