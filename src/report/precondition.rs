//! Termination preconditions printed as C conditions over the program's
//! variables on entry of the loop (see [`crate::termination::precondition`]).

use super::cexpr::{affine, print_ge, Names};
use crate::termination::precondition::{Atom, Precondition};
use num_traits::Signed;

/// The condition as a C expression, `None` when it mentions a variable
/// without a name.
pub fn condition(p: &Precondition, names: &Names) -> Option<String> {
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
