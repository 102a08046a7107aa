//! Verification witnesses (`tessera prove --witness FILE`), as SV-COMP's
//! validators read them:
//! - NO: a violation witness, GraphML 1.0 (`.graphml`: a stem to the loop
//!   head, the head marked `cyclehead` with the recurrent set as its
//!   invariant) or YAML (`.yml`/`.yaml`: a `violation_sequence` whose last
//!   segment is the cycle at the loop head, with the recurrent set);
//! - YES: a YAML correctness witness, format 2.1: per loop the supporting
//!   invariant (`loop_invariant`) and the ranking function as a
//!   `loop_transition_invariant` relating the state to any earlier one at
//!   the same loop head (`\at(x, AnyPrev)`).
//!
//! Everything is printed over the program's own variables (`cexpr`); a NO
//! witness is replayed against the program model before it is written.

mod graphml;
mod yaml;

use super::cexpr::{self, Names};
use super::ranking::{scaled_pieces, Check};
use crate::solve::Budget;
use crate::ir::{LocId, Program, Span, Variable};
use std::collections::BTreeSet;
use crate::termination::{Answer, LoopProof, NoWitness, Outcome};
use sha2::{Digest, Sha256};
use std::path::Path;

/// SV-COMP's specification of the termination property.
pub const SPECIFICATION: &str = "CHECK( init(main()), LTL(F end) )";

pub use crate::ir::DataModel;

/// What every witness states about the task and its producer.
struct Task {
    file: String,
    sha256: String,
    data_model: DataModel,
}

/// Writes the witness for `outcome` to `path` (format by extension) and
/// says on standard error when there is none to write. `Err` when the file
/// cannot be written or the answer's evidence does not replay within
/// `budget` (the run's: a witness is part of the answer).
pub fn write(program: &Program, outcome: &Outcome, path: &Path, budget: &Budget) -> Result<(), String> {
    let text = match render(program, outcome, path, budget)? {
        Some(t) => t,
        None => return Ok(()),
    };
    std::fs::write(path, text).map_err(|e| format!("cannot write witness {}: {e}", path.display()))
}

enum Kind {
    GraphMl,
    Yaml,
}

fn kind_of(path: &Path) -> Result<Kind, String> {
    match path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()).as_deref() {
        Some("graphml") => Ok(Kind::GraphMl),
        Some("yml" | "yaml") => Ok(Kind::Yaml),
        _ => Err(format!("witness file {}: the extension must be .graphml, .yml or .yaml", path.display())),
    }
}

/// The witness text, or `None` (with a note on standard error) when the
/// answer has none in the chosen format. A NO witness is replayed within
/// `budget`.
pub fn render(program: &Program, outcome: &Outcome, path: &Path, budget: &Budget) -> Result<Option<String>, String> {
    let kind = kind_of(path)?;
    let bytes = std::fs::read(&program.file).map_err(|e| format!("cannot read {} to hash it: {e}", program.file))?;
    let task = Task { file: program.file.clone(), sha256: hex(&Sha256::digest(&bytes)), data_model: program.machine.data_model };
    // The names a formula may use at a loop: what is in scope in the
    // loop's function and live at its header.
    let original_live = std::cell::OnceCell::new();
    let at_loop = |header: LocId| -> (String, Names) {
        let function = program.locations.get(header).map(|l| l.function.clone()).unwrap_or_default();
        let names = match &outcome.encoding {
            Some(enc) => {
                let live = original_live.get_or_init(|| crate::ir::liveness::Liveness::of(program).names(program));
                Names::in_scope(&variables_at(program, enc, live.get(header)), &function, enc.live.get(header))
            }
            None => Names::in_scope(&program.vars, &function, None),
        };
        (if function.is_empty() { "main".to_string() } else { function }, names)
    };
    match (&outcome.answer, kind) {
        (Answer::No { witness: NoWitness::Executed(l), span, .. }, kind) => {
            // A run that repeats a state: the integers and null pointers
            // at the head as the stem's end; they hold at every visit of
            // the cycle when it is one iteration long (else the cycle
            // waypoint claims nothing beyond the loop head).
            let known: Vec<String> = l
                .state
                .iter()
                .filter(|(_, v)| v == "null" || v.parse::<num_bigint::BigInt>().is_ok())
                .map(|(n, v)| if v == "null" { format!("{n} == 0") } else { format!("{n} == {v}") })
                .collect();
            let recurrent = if l.period == 1 && !known.is_empty() { known.join(" && ") } else { "1".to_string() };
            let head = span.clone().unwrap_or_else(|| Span { file: program.file.clone(), line: 1, col: 1 });
            let function = if l.function.is_empty() { "main".to_string() } else { l.function.clone() };
            let nt = NonTermination { head, function, recurrent, entry_state: known };
            Ok(Some(match kind {
                Kind::GraphMl => graphml::violation(&task, &nt),
                Kind::Yaml => yaml::violation(&task, &nt),
            }))
        }
        (Answer::No { witness: NoWitness::Model(witness), span, .. }, kind) => {
            let enc = outcome.encoding.as_ref().ok_or("no program model to replay the witness against")?;
            let header = enc.loops.get(witness.loop_index).ok_or("the witness names no loop of the model")?.header;
            let (function, names) = at_loop(header);
            // Replay the stem and re-check the recurrent set before anyone
            // else is asked to: a witness we cannot confirm is not written.
            crate::termination::certificate::check_witness(enc, witness, budget)
                .map_err(|e| format!("non-termination witness does not replay, not written: {e}"))?;
            let recurrent = cexpr::exact_condition(&witness.recurrent_set, &names)
                .ok_or("the recurrent set speaks of variables without an unambiguous C name; no witness written")?;
            let last = witness.stem.last().ok_or("empty stem")?;
            let entry_state: Vec<String> = super::shown_state(last, Some(enc), &names)
                .into_iter()
                .map(|(v, val)| format!("{v} == {val}"))
                .collect();
            let head = span.clone().unwrap_or_else(|| Span { file: program.file.clone(), line: 1, col: 1 });
            let nt = NonTermination { head, function, recurrent, entry_state };
            Ok(Some(match kind {
                Kind::GraphMl => graphml::violation(&task, &nt),
                Kind::Yaml => yaml::violation(&task, &nt),
            }))
        }
        (Answer::Yes { loops, .. }, Kind::Yaml) => {
            let entries: Vec<LoopWitness> = loops
                .iter()
                .filter_map(|l| {
                    let (function, names) = at_loop(l.header);
                    loop_witness(l, function, &names, &program.file)
                })
                .collect();
            // An empty invariant set claims nothing a validator can check:
            // none is written (a YES from execution that the model did not
            // confirm has no invariant; one without loops needs none).
            if entries.iter().all(|e| e.invariant.is_none() && e.transition.is_none()) {
                let why = match &outcome.answer {
                    Answer::Yes { executed: Some(_), .. } if !outcome.confirmed_on_model => {
                        "this YES rests on executing every run, and the program model did not confirm it: no invariant to write"
                    }
                    _ if loops.is_empty() => "the program has no loops: no invariant to write",
                    _ => "no loop has an invariant or ranking function a validator can read",
                };
                eprintln!("witness: {why}; no correctness witness written");
                return Ok(None);
            }
            Ok(Some(yaml::correctness(&task, &entries)))
        }
        (Answer::Yes { .. }, Kind::GraphMl) => {
            eprintln!("witness: correctness witnesses are written in YAML (format 2.1); use a .yml file");
            Ok(None)
        }
        (Answer::Maybe { .. }, _) => {
            eprintln!("witness: no answer, no witness written");
            Ok(None)
        }
    }
}

/// The model's variables as the witness at `header` sees them: a variable
/// that coalescing made stand for locals of several functions is, at the
/// header, the one of them live there in the original program (`live`), if
/// exactly one is.
fn variables_at(program: &Program, enc: &crate::horn::encode::Encoding, live: Option<&BTreeSet<String>>) -> Vec<Variable> {
    enc.program_vars
        .iter()
        .map(|v| {
            if v.function.as_deref() != Some(crate::ir::MIXED_FUNCTIONS) {
                return v.clone();
            }
            let members: Vec<&String> =
                enc.coalesced.iter().filter(|(_, kept)| *kept == v.name).map(|(merged, _)| merged).chain(std::iter::once(&v.name)).collect();
            let live_members: Vec<&&String> = members.iter().filter(|m| live.is_some_and(|l| l.contains(**m))).collect();
            match live_members.as_slice() {
                [m] => Variable { function: program.var(m).and_then(|o| o.function.clone()), ..v.clone() },
                _ => v.clone(),
            }
        })
        .collect()
}

/// What a violation witness states: the loop head, the recurrent set there
/// and the values on the stem's arrival.
struct NonTermination {
    head: Span,
    /// The function the loop is in.
    function: String,
    recurrent: String,
    entry_state: Vec<String>,
}

/// What a correctness witness states about one loop.
struct LoopWitness {
    head: Span,
    function: String,
    invariant: Option<String>,
    transition: Option<String>,
}

fn loop_witness(l: &LoopProof, function: String, names: &Names, file: &str) -> Option<LoopWitness> {
    let head = l.span.clone().unwrap_or_else(|| Span { file: file.to_string(), line: 0, col: 0 });
    if head.line == 0 {
        eprintln!("witness: loop {} has no source position; left out", l.loop_index);
        return None;
    }
    let inv = cexpr::condition(&l.invariant, names);
    let invariant = (inv != "1").then_some(inv);
    let transition = transition_invariant(l, names);
    if transition.is_none() {
        eprintln!(
            "witness: loop at line {}: {} ; only its invariant is written",
            head.line,
            if l.decreases {
                "the ranking function speaks of variables without an unambiguous C name"
            } else {
                "the ranking function bounds the iterations from the loop entry (T_rank) and need not decrease in every iteration"
            }
        );
    }
    Some(LoopWitness { head, function, invariant, transition })
}

/// The ranking function as a transition invariant between any earlier
/// state at the loop head (`\at(v, AnyPrev)`) and the current one; with
/// pieces `p_i` (integer, rescaled as `cexpr::scaled_pieces` allows for a
/// decreasing function):
/// - one piece `p`: `\at(p) >= 0 && p < \at(p)`;
/// - `max(p_1..p_n)`: `max(0, p(now)) < max(0, p(before))` spelled without
///   `max`: every new value (and 0) lies below some old value (or 0);
/// - `lex`/`phases`: some component `i` is non-negative before, smaller
///   now, and the earlier ones did not grow.
///
/// Each relation is transitive (a chain of decreases is a decrease), so it
/// holds for any earlier state, not only the last one, and each disjunct
/// is well-founded on the integers: together a disjunctively well-founded
/// transition invariant. Only ranking functions checked by decrease have
/// this form; a T_rank bound (iterations from the entry) does not.
fn transition_invariant(l: &LoopProof, names: &Names) -> Option<String> {
    if !l.decreases {
        return None;
    }
    let pieces = scaled_pieces(&l.ranking, Check::Decrease);
    if pieces.iter().any(|p| p.coeffs.keys().any(|v| names.get(v).is_none())) {
        return None;
    }
    let now: Vec<String> = pieces.iter().map(|p| paren(&cexpr::affine(p, names))).collect();
    let before: Vec<String> = pieces.iter().map(|p| paren(&before_affine(p, names))).collect();
    use crate::ranking::Combination;
    Some(match (l.ranking.combination, pieces.len()) {
        (_, 1) => format!("{} >= 0 && {} < {}", before[0], now[0], before[0]),
        (Combination::Piecewise, _) => {
            let olds: Vec<String> = before.iter().cloned().chain(std::iter::once("0".to_string())).collect();
            let news: Vec<String> = now.iter().cloned().chain(std::iter::once("0".to_string())).collect();
            news.iter()
                .map(|b| {
                    let options: Vec<String> = olds.iter().filter(|a| !(a == &"0" && b == "0")).map(|a| format!("{b} < {a}")).collect();
                    format!("({})", options.join(" || "))
                })
                .collect::<Vec<_>>()
                .join(" && ")
        }
        _ => (0..pieces.len())
            .map(|i| {
                let mut conj: Vec<String> = (0..i).map(|j| format!("{} <= {}", now[j], before[j])).collect();
                conj.push(format!("{} >= 0", before[i]));
                conj.push(format!("{} < {}", now[i], before[i]));
                format!("({})", conj.join(" && "))
            })
            .collect::<Vec<_>>()
            .join(" || "),
    })
}

fn paren(s: &str) -> String {
    if s.contains(' ') {
        format!("({s})")
    } else {
        s.to_string()
    }
}

/// The piece over the earlier state: every variable `v` as `\at(v, AnyPrev)`.
fn before_affine(p: &crate::term::Affine, names: &Names) -> String {
    let renamed = crate::term::Affine {
        coeffs: p.coeffs.iter().map(|(v, c)| (format!("\u{0}{v}"), c.clone())).collect(),
        constant: p.constant.clone(),
    };
    // Print with the plain printer, then substitute the marked names: the
    // printer orders terms by sign, which must not depend on the marking.
    let mut s = cexpr::affine(&renamed, &Names::default());
    let mut vars: Vec<&String> = p.coeffs.keys().collect();
    vars.sort_by_key(|v| std::cmp::Reverse(v.len()));
    for v in vars {
        let shown = names.get(v).unwrap_or(v);
        s = s.replace(&format!("\u{0}{v}"), &format!("\\at({shown}, AnyPrev)"));
    }
    s
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `YYYY-MM-DDTHH:MM:SSZ` of now (UTC), without a date library: days since
/// 1970 to a civil date (Howard Hinnant's algorithm).
fn now_iso8601() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// A version-4 UUID from the task's hash and the time (unique enough to
/// tell witnesses apart; no randomness source needed).
fn uuid(task: &Task) -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let mut h = Sha256::new();
    h.update(task.sha256.as_bytes());
    h.update(nanos.to_le_bytes());
    h.update(std::process::id().to_le_bytes());
    let mut b: Vec<u8> = h.finalize()[..16].to_vec();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let x = hex(&b);
    format!("{}-{}-{}-{}-{}", &x[..8], &x[8..12], &x[12..16], &x[16..20], &x[20..])
}

fn producer_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_uuids_have_their_formats() {
        let d = now_iso8601();
        assert_eq!(d.len(), 20, "{d}");
        assert!(d.starts_with("20") && d.ends_with('Z'), "{d}");
        let task = Task { file: "a.c".into(), sha256: "00".into(), data_model: DataModel::Lp64 };
        let u = uuid(&task);
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
    }
}
