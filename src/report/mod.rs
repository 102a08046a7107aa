//! Answers for people and for harnesses: text, JSON, the termination
//! competition's format and SV-COMP's.

use crate::horn::encode::Encoding;
use crate::termination::certificate::NonTerminationWitness;
use crate::termination::{Answer, Outcome};
use serde_json::{json, Value as Json};
use std::fmt::Write as _;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable: answer, per-loop arguments, time, winning strategy.
    Text,
    /// One JSON object (schema in the README).
    Json,
    /// Termination competition: first line YES, NO or MAYBE, then the proof.
    Termcomp,
    /// SV-COMP: first line TRUE, FALSE(termination) or UNKNOWN.
    Svcomp,
}

pub fn render(o: &Outcome, format: Format) -> String {
    match format {
        Format::Text => text(o),
        Format::Json => serde_json::to_string_pretty(&to_json(o)).unwrap_or_else(|_| "{}".into()) + "\n",
        Format::Termcomp => {
            let mut s = format!("{}\n", o.answer.word());
            s.push_str(&details(o));
            s
        }
        Format::Svcomp => {
            let first = match o.answer {
                Answer::Yes { .. } => "TRUE",
                Answer::No { .. } => "FALSE(termination)",
                Answer::Maybe { .. } => "UNKNOWN",
            };
            format!("{first}\n{}", details(o))
        }
    }
}

fn line_of(span: &Option<crate::ir::Span>) -> String {
    match span {
        Some(s) => format!("{}:{}", s.file, s.line),
        None => "?".into(),
    }
}

fn details(o: &Outcome) -> String {
    let mut s = String::new();
    match &o.answer {
        Answer::Yes { loops } => {
            if loops.is_empty() {
                let _ = writeln!(s, "The program has no loops (and no recursion): every run is finite.");
            }
            for l in loops {
                let _ = writeln!(
                    s,
                    "loop {} at {}: ranking function {}  [{}]",
                    l.loop_index,
                    line_of(&l.span),
                    l.ranking,
                    l.strategy
                );
                let _ = writeln!(s, "  supporting invariant at the loop header: {}", l.invariant);
            }
        }
        Answer::No { witness, span, strategy } => {
            let _ = writeln!(s, "loop {} at {} does not terminate  [{}]", witness.loop_index, line_of(span), strategy);
            s.push_str(&witness_text(witness, o.encoding.as_ref()));
        }
        Answer::Maybe { reason } => {
            let _ = writeln!(s, "reason: {reason}");
        }
    }
    s
}

fn witness_text(w: &NonTerminationWitness, enc: Option<&Encoding>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "  stem (state after each step from the program start to the loop header):");
    for (k, step) in w.stem.iter().enumerate() {
        let label = enc
            .and_then(|e| e.transitions.get(step.transition).map(|t| (e, t)))
            .map(|(e, t)| format!("{} -> {}", crate::horn::encode::source_name(e, t.from), e.pred_name(t.to)))
            .unwrap_or_default();
        let vals: Vec<String> = step.state.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        let _ = writeln!(s, "    {k}: {label}: {}", vals.join(", "));
    }
    let _ = writeln!(s, "  recurrent set (every state in it has a successor in it): {}", w.recurrent_set);
    s
}

fn text(o: &Outcome) -> String {
    let mut s = format!("{}: {}\n", o.file, o.answer.word());
    s.push_str(&details(o));
    let _ = writeln!(s, "time: {:.2} s, {} safety queries", o.seconds, o.queries);
    s
}

pub fn to_json(o: &Outcome) -> Json {
    let mut j = json!({
        "file": o.file,
        "answer": o.answer.word(),
        "time_seconds": o.seconds,
        "queries": o.queries,
    });
    match &o.answer {
        Answer::Yes { loops } => {
            j["loops"] = Json::Array(
                loops
                    .iter()
                    .map(|l| {
                        json!({
                            "loop": l.loop_index,
                            "line": l.span.as_ref().map(|s| s.line),
                            "ranking_function": l.ranking.to_string(),
                            "strategy": l.strategy,
                            "invariant": l.invariant.to_string(),
                        })
                    })
                    .collect(),
            );
        }
        Answer::No { witness, span, strategy } => {
            j["witness"] = json!({
                "loop": witness.loop_index,
                "line": span.as_ref().map(|s| s.line),
                "strategy": strategy,
                "stem": witness.stem.iter().map(|st| {
                    let state: serde_json::Map<String, Json> =
                        st.state.iter().map(|(k, v)| (k.clone(), Json::String(v.to_string()))).collect();
                    json!({ "transition": st.transition, "state": state })
                }).collect::<Vec<_>>(),
                "recurrent_set": witness.recurrent_set.to_string(),
            });
        }
        Answer::Maybe { reason } => {
            j["reason"] = Json::String(reason.clone());
        }
    }
    j
}
