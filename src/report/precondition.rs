//! Termination preconditions printed as C conditions over the program's
//! variables on entry of the loop (see [`crate::termination::precondition`]).

use super::cexpr::{affine, print_ge, Names};
use crate::termination::precondition::{Atom, Place, Precondition, PreconditionSource};
use crate::termination::{Answer, Outcome};
use num_traits::Signed;

/// The condition as a C expression, `None` when it mentions a variable
/// without a name.
pub fn condition(p: &Precondition, names: &Names) -> Option<String> {
    if let Place::EveryRead { condition, .. } = &p.place {
        return super::cexpr::exact_condition(condition, names);
    }
    let cases: Option<Vec<String>> = p
        .cases
        .iter()
        .map(|c| {
            let atoms: Option<Vec<String>> = c.iter().map(|a| atom(a, names)).collect();
            let atoms = atoms?;
            Some(match atoms.len() {
                0 => "1".to_string(),
                1 => atoms[0].clone(),
                _ if p.cases.len() > 1 => format!("({})", atoms.join(" && ")),
                _ => atoms.join(" && "),
            })
        })
        .collect();
    let cases = cases?;
    Some(if cases.is_empty() { "0".to_string() } else { cases.join(" || ") })
}

fn atom(a: &Atom, names: &Names) -> Option<String> {
    let e = match a {
        Atom::NonNegative(e) | Atom::Divisible { e, .. } => e,
    };
    if e.coeffs.iter().any(|(v, c)| !c.is_zero_coeff() && names.get(v).is_none()) {
        return None;
    }
    Some(match a {
        Atom::NonNegative(e) => print_ge(e, names),
        Atom::Divisible { modulus, e, divides } => {
            // m | e iff m | -e: the side with the positive variables.
            let e = if e.coeffs.values().all(|c| c.is_negative()) { e.times(&num_bigint::BigInt::from(-1)) } else { e.clone() };
            let shown = affine(&e, names);
            let shown = if e.coeffs.len() == 1 && e.constant == num_bigint::BigInt::from(0) && e.coeffs.values().all(|c| *c == num_bigint::BigInt::from(1)) {
                shown
            } else {
                format!("({shown})")
            };
            format!("{shown} % {modulus} {} 0", if *divides { "==" } else { "!=" })
        }
    })
}

trait ZeroCoeff {
    fn is_zero_coeff(&self) -> bool;
}

impl ZeroCoeff for num_bigint::BigInt {
    fn is_zero_coeff(&self) -> bool {
        num_traits::Zero::is_zero(self)
    }
}

/// The proved termination precondition of a NO, in words.
pub(super) fn text(o: &Outcome) -> Option<String> {
    let p = o.precondition.as_ref()?;
    let shown = condition(p, &p.names)?;
    if let Place::EveryRead { var, at, .. } = &p.place {
        let read = read_place(var, at.as_ref(), &p.names);
        return Some(format!(
            "terminates when: {shown}  (every value read into {read})\n  proved: every loop ends when each value read there satisfies it (ranking functions on the program with the condition assumed after each such read); not shown to be the weakest\n"
        ));
    }
    if p.cases.is_empty() {
        let line = match &o.answer {
            Answer::No { span: Some(s), .. } => format!("the loop at line {}", s.line),
            _ => format!("loop {}", p.loop_index),
        };
        return Some(format!("terminates when: never (0): from every state on entering {line} (within the loop's invariant) some run never ends\n"));
    }
    let line = o.encoding.as_ref().and_then(|e| e.loops.get(p.loop_index)).and(match &o.answer {
        Answer::No { span: Some(s), .. } => Some(s.line),
        _ => None,
    });
    let at = line.map(|l| format!("the loop at line {l}")).unwrap_or_else(|| format!("loop {}", p.loop_index));
    let mut s = format!("terminates when: {shown}  (values on entering {at})\n");
    let mut notes = vec![match p.source {
        PreconditionSource::Learned => "proved: every run entering the loop so ends (ranking functions on the program with the condition assumed)",
        PreconditionSource::LoopSkipped => "proved: the loop is not entered then, and every other loop ends (ranking functions)",
        PreconditionSource::LeftAtRead => "proved: every loop ends (ranking functions)",
    }
    .to_string()];
    if p.witness_outside {
        notes.push("the run above enters outside it".into());
    }
    notes.push(if p.weakest {
        "the weakest such condition: from every other state on entry (within the loop's invariant) some run never ends".into()
    } else {
        "not shown to be the weakest".into()
    });
    s.push_str(&format!("  {}\n", notes.join("; ")));
    Some(s)
}

/// How the precondition was found, in JSON's words.
pub(super) fn how(p: &Precondition) -> &'static str {
    match p.source {
        PreconditionSource::Learned => "learned from sampled runs",
        PreconditionSource::LoopSkipped => "the loop not entered",
        PreconditionSource::LeftAtRead => "the values read with which the loop is left",
    }
}

/// Where the condition of a precondition on inputs holds, in words: the
/// variable (as the program names it) and the loop it is read in.
pub(super) fn read_place(var: &str, at: Option<&crate::ir::Span>, names: &Names) -> String {
    let shown = names.get(var).map(|n| n.to_string()).unwrap_or_else(|| var.to_string());
    match at {
        Some(s) => format!("{shown} inside the loop at line {}", s.line),
        None => shown,
    }
}
