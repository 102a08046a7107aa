//! GraphML 1.0 violation witnesses for termination (sv-witnesses,
//! README-GraphML.md and termination/): entry node, a stem edge into the
//! loop head carrying the stem's values as an assumption, the loop head
//! marked `cyclehead` with the recurrent set as its invariant, and the
//! cycle as an edge from the head back to itself.

use super::{now_iso8601, producer_version, NonTermination, Task, SPECIFICATION};
use std::fmt::Write as _;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Keys: (id, for, default).
const KEYS: &[(&str, &str, Option<&str>)] = &[
    ("witness-type", "graph", None),
    ("sourcecodelang", "graph", None),
    ("producer", "graph", None),
    ("specification", "graph", None),
    ("programfile", "graph", None),
    ("programhash", "graph", None),
    ("architecture", "graph", None),
    ("creationtime", "graph", None),
    ("entry", "node", Some("false")),
    ("cyclehead", "node", Some("false")),
    ("invariant", "node", None),
    ("enterFunction", "edge", None),
    ("startline", "edge", None),
    ("endline", "edge", None),
    ("enterLoopHead", "edge", Some("false")),
    ("assumption", "edge", None),
    ("assumption.scope", "edge", None),
];

pub(super) fn violation(task: &Task, nt: &NonTermination) -> String {
    let mut s = String::new();
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    s.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    for (id, target, default) in KEYS {
        let _ = write!(s, " <key attr.name=\"{id}\" attr.type=\"string\" for=\"{target}\" id=\"{id}\"");
        match default {
            Some(d) => {
                let _ = writeln!(s, ">\n  <default>{d}</default>\n </key>");
            }
            None => s.push_str("/>\n"),
        }
    }
    s.push_str(" <graph edgedefault=\"directed\">\n");
    let graph_data = [
        ("witness-type", "violation_witness".to_string()),
        ("sourcecodelang", "C".to_string()),
        ("producer", format!("Tessera {}", producer_version())),
        ("specification", SPECIFICATION.to_string()),
        ("programfile", task.file.clone()),
        ("programhash", task.sha256.clone()),
        ("architecture", task.data_model.graphml().to_string()),
        ("creationtime", now_iso8601()),
    ];
    for (k, v) in graph_data {
        let _ = writeln!(s, "  <data key=\"{k}\">{}</data>", esc(&v));
    }
    let line = nt.head.line;
    s.push_str("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n");
    s.push_str("  <node id=\"N1\"/>\n");
    let _ = writeln!(
        s,
        "  <node id=\"N2\">\n   <data key=\"cyclehead\">true</data>\n   <data key=\"invariant\">{}</data>\n  </node>",
        esc(&nt.recurrent)
    );
    s.push_str("  <edge source=\"N0\" target=\"N1\">\n   <data key=\"enterFunction\">main</data>\n  </edge>\n");
    // The stem: some path from the start of main to the loop head that
    // arrives with these values (the prover replayed one).
    let _ = write!(s, "  <edge source=\"N1\" target=\"N2\">\n   <data key=\"enterLoopHead\">true</data>\n   <data key=\"startline\">{line}</data>\n   <data key=\"endline\">{line}</data>\n");
    if !nt.entry_state.is_empty() {
        let assumption: String = nt.entry_state.iter().map(|c| format!("{c}; ")).collect();
        let _ = write!(
            s,
            "   <data key=\"assumption\">{}</data>\n   <data key=\"assumption.scope\">{}</data>\n",
            esc(assumption.trim_end()),
            esc(&nt.function)
        );
    }
    s.push_str("  </edge>\n");
    // The cycle: every further iteration goes through the loop body (N3)
    // and returns to the head inside the recurrent set (the linter rejects
    // a self-loop on the head).
    s.push_str("  <node id=\"N3\"/>\n");
    let _ = write!(s, "  <edge source=\"N2\" target=\"N3\">\n   <data key=\"startline\">{line}</data>\n   <data key=\"endline\">{line}</data>\n  </edge>\n");
    let _ = write!(s, "  <edge source=\"N3\" target=\"N2\">\n   <data key=\"enterLoopHead\">true</data>\n   <data key=\"startline\">{line}</data>\n   <data key=\"endline\">{line}</data>\n  </edge>\n");
    s.push_str(" </graph>\n</graphml>\n");
    s
}
