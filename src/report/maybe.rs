//! What a MAYBE says: its reason in one line, what was tried and what the
//! user can do, and the engines' reasons with the program's places.

use crate::horn::encode::Encoding;
use crate::termination::Outcome;
use std::fmt::Write as _;

/// What a MAYBE tried, and what the user can do about it.
pub(super) fn maybe_help(o: &Outcome) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "tried: ranking functions on the program model (the loop guard's slack, constraint-based synthesis, piecewise, lexicographic and multiphase candidates from sampled runs), recurrent sets, a search for a run that comes back to a state{}",
        match &o.execution_gave_up {
            Some(why) => format!(", and executing every run (it gave up: {why})"),
            None => String::new(),
        }
    );
    let _ = writeln!(
        s,
        "you can: give more time (--timeout); choose the meaning the program is written for (--ints math for integers that never overflow, --allocation never-fails, --external-calls arguments); see every query with --verbose"
    );
    s
}

/// One line a person understands, from the prover's reasons (one line per
/// loop, `loop N (line L): detail`): `loop at line 12: no ranking function
/// found within 30 s`. The detail stays in JSON's `details` and, with
/// `--verbose`, on standard error.
pub fn short_reason(reason: &str, seconds: f64) -> String {
    let per_loop: Vec<String> = reason
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (place, detail) = match line.strip_prefix("loop ").and_then(|r| r.split_once("): ")) {
                Some((head, detail)) => {
                    let at = head.split_once(" (").map(|(_, at)| at).unwrap_or(head);
                    (format!("loop at {at}"), detail)
                }
                None => return first_sentence(line),
            };
            let what = if detail.contains("unsupported") {
                "unsupported construct".to_string()
            } else if detail.contains("time limit") || detail.contains("timeout") || detail.contains("canceled") {
                format!("no ranking function found within {:.0} s", seconds.max(1.0))
            } else if detail.contains("witness rejected") || detail.contains("no witness") {
                "no ranking function found, and no non-termination argument could be confirmed".to_string()
            } else {
                "no ranking function found".to_string()
            };
            format!("{place}: {what}")
        })
        .collect();
    if per_loop.is_empty() {
        "no answer".into()
    } else {
        per_loop.join("; ")
    }
}

/// `text` (a reason an engine gave) with the model's names of cut-points
/// (`loop_L3`) replaced by the places of the program they stand for
/// (`loop at line 28`).
pub(super) fn readable_places(enc: &Encoding, text: &str) -> String {
    const PREFIX: &str = "loop_L";
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(PREFIX) {
        let digits: String = rest[i + PREFIX.len()..].chars().take_while(|c| c.is_ascii_digit()).collect();
        out.push_str(&rest[..i]);
        match digits.parse::<usize>() {
            Ok(l) if l < enc_locations(enc) => out.push_str(&crate::horn::encode::place_name(enc, crate::horn::encode::Source::At(l))),
            _ => out.push_str(&rest[i..i + PREFIX.len() + digits.len()]),
        }
        rest = &rest[i + PREFIX.len() + digits.len()..];
    }
    out.push_str(rest);
    out
}

/// One more than the largest location the encoding names.
fn enc_locations(enc: &Encoding) -> usize {
    enc.cutpoints.iter().copied().chain(std::iter::once(enc.exit)).max().map_or(0, |m| m + 1)
}

fn first_sentence(s: &str) -> String {
    let s = s.trim();
    match s.find("; ") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn engine_reasons_name_places_of_the_program() {
        let p = crate::c::parse_source("t.c", "int main(void) {\n  int x = __VERIFIER_nondet_int();\n  while (x > 0)\n    x--;\n  return 0;\n}\n", crate::ir::IntSemantics::C, crate::ir::MachineModel::lp64()).expect("lowers");
        let enc = crate::horn::encode::encode(&p).expect("encodes");
        let header = enc.loops[0].header;
        let text = format!("loop 0 (line 3): spacer: unknown at loop_L{header}, loop_L{header}x and loop_L999999");
        let shown = super::readable_places(&enc, &text);
        assert_eq!(shown, "loop 0 (line 3): spacer: unknown at loop at line 3, loop at line 3x and loop_L999999");
    }
}
