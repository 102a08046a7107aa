//! The bridge between our [`Term`]s and Z3 (the `z3` crate, thread-local
//! context). Terms go in through the API (no text round-trip on the hot
//! path); values come back with `eval` on models, never by inspecting Z3's
//! declaration kinds (see docs/design.md, "Z3 from Rust: known traps").

use crate::solve::Budget;
use crate::term::{Op, Sort, Term, Value, VarDecl};
use num_bigint::BigInt;
use z3::ast::{Bool, Dynamic, Int};
use z3::{Model, Params, SatResult, Solver};

/// Translate a Boolean term.
/// Z3 prints warnings (`(smt.diff_logic: non-diff logic expression ...)`)
/// on the process's standard error, in the middle of a user's output and
/// a harness's log. Nothing in them concerns an answer: call once, before
/// any solver is made.
pub fn silence_z3_warnings() {
    // SAFETY: both are NUL-terminated static strings; Z3 copies them.
    unsafe { z3_sys::Z3_global_param_set(c"warning".as_ptr(), c"false".as_ptr()) }
}

pub fn bool_of(t: &Term) -> Bool {
    match t {
        Term::Bool(b) => Bool::from_bool(*b),
        Term::Var(n, _) => Bool::new_const(n.as_str()),
        Term::App(op, args) => match op {
            Op::And => Bool::and(&args.iter().map(bool_of).collect::<Vec<_>>()),
            Op::Or => Bool::or(&args.iter().map(bool_of).collect::<Vec<_>>()),
            Op::Not => bool_of(&args[0]).not(),
            Op::Implies => bool_of(&args[0]).implies(bool_of(&args[1])),
            Op::Ite => bool_of(&args[0]).ite(&bool_of(&args[1]), &bool_of(&args[2])),
            Op::Eq => {
                if args[0].sort() == Sort::Bool {
                    bool_of(&args[0]).eq(bool_of(&args[1]))
                } else {
                    int_of(&args[0]).eq(int_of(&args[1]))
                }
            }
            Op::Le => int_of(&args[0]).le(int_of(&args[1])),
            Op::Lt => int_of(&args[0]).lt(int_of(&args[1])),
            Op::Ge => int_of(&args[0]).ge(int_of(&args[1])),
            Op::Gt => int_of(&args[0]).gt(int_of(&args[1])),
            // Arithmetic operators never have Boolean sort; a malformed term
            // becomes `false` rather than a crash.
            _ => Bool::from_bool(false),
        },
        Term::Int(_) => Bool::from_bool(false),
    }
}

/// Translate an integer term.
pub fn int_of(t: &Term) -> Int {
    match t {
        Term::Int(i) => int_const(i),
        Term::Var(n, _) => Int::new_const(n.as_str()),
        Term::App(op, args) => match op {
            Op::Add => Int::add(&args.iter().map(int_of).collect::<Vec<_>>()),
            Op::Mul => Int::mul(&args.iter().map(int_of).collect::<Vec<_>>()),
            Op::Sub => Int::sub(&args.iter().map(int_of).collect::<Vec<_>>()),
            Op::Neg => int_of(&args[0]).unary_minus(),
            Op::Div => int_of(&args[0]).div(int_of(&args[1])),
            Op::Mod => int_of(&args[0]).modulo(int_of(&args[1])),
            Op::Ite => bool_of(&args[0]).ite(&int_of(&args[1]), &int_of(&args[2])),
            _ => Int::from_i64(0),
        },
        Term::Bool(_) => Int::from_i64(0),
    }
}

pub fn int_const(i: &BigInt) -> Int {
    match i64::try_from(i) {
        Ok(v) => Int::from_i64(v),
        Err(_) => i.to_string().parse::<Int>().unwrap_or_else(|_| Int::from_i64(0)),
    }
}

pub fn dynamic_of(t: &Term) -> Dynamic {
    match t.sort() {
        Sort::Bool => Dynamic::from_ast(&bool_of(t)),
        Sort::Int => Dynamic::from_ast(&int_of(t)),
    }
}

pub fn const_of(v: &VarDecl) -> Dynamic {
    match v.sort {
        Sort::Bool => Dynamic::from_ast(&Bool::new_const(v.name.as_str())),
        Sort::Int => Dynamic::from_ast(&Int::new_const(v.name.as_str())),
    }
}

/// Value of a variable in a model (model completion on: unconstrained
/// variables get a default value).
pub fn value_in(model: &Model, v: &VarDecl) -> Option<Value> {
    eval_in(model, &v.term())
}

/// Value of a term in a model.
pub fn eval_in(model: &Model, t: &Term) -> Option<Value> {
    match t.sort() {
        Sort::Bool => model.eval(&bool_of(t), true).and_then(|b| b.as_bool()).map(Value::Bool),
        Sort::Int => {
            let v = model.eval(&int_of(t), true)?;
            if let Some(i) = v.as_i64() {
                return Some(Value::Int(BigInt::from(i)));
            }
            parse_numeral(&v.to_string()).map(Value::Int)
        }
    }
}

/// Z3 prints negative numerals as `(- 5)`.
fn parse_numeral(s: &str) -> Option<BigInt> {
    let s = s.trim();
    if let Some(rest) = s.strip_prefix("(-").and_then(|r| r.strip_suffix(')')) {
        return rest.trim().parse::<BigInt>().ok().map(|v| -v);
    }
    s.parse().ok()
}

/// A solver for integer arithmetic with the budget's remaining time as its
/// timeout.
///
/// Declared for the logic `LIA`: Z3 builds its default solver (no logic)
/// with every tactic it might need, which costs about 10 ms per solver, and
/// the prover creates thousands (one per Houdini edge, per clause checked by
/// the certificate checker). The `LIA` solver takes under 1 ms, accepts
/// quantifiers, and still decides the non-linear terms the models contain
/// (`x * y`, `x % y`) as well as the default one does on ours (see the test
/// below); `QF_LIA` would refuse `x % y`.
pub fn solver_for(budget: &Budget) -> Solver {
    let s = Solver::new_for_logic("LIA").unwrap_or_else(Solver::new);
    set_timeout(&s, budget);
    s
}

/// Refresh the solver's timeout from the budget (call before each check on
/// long-lived solvers).
pub fn set_timeout(s: &Solver, budget: &Budget) {
    if let Some(ms) = budget.solver_timeout_ms() {
        let mut p = Params::new();
        p.set_u32("timeout", ms);
        s.set_params(&p);
    }
}

/// Three-valued answer of one satisfiability check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sat {
    Sat,
    Unsat,
    Unknown,
}

pub fn check(s: &Solver, budget: &Budget) -> Sat {
    if budget.expired() {
        return Sat::Unknown;
    }
    match s.check() {
        SatResult::Sat => Sat::Sat,
        SatResult::Unsat => Sat::Unsat,
        SatResult::Unknown => Sat::Unknown,
    }
}

pub fn check_assumptions(s: &Solver, assumptions: &[Bool], budget: &Budget) -> Sat {
    if budget.expired() {
        return Sat::Unknown;
    }
    match s.check_assumptions(assumptions) {
        SatResult::Sat => Sat::Sat,
        SatResult::Unsat => Sat::Unsat,
        SatResult::Unknown => Sat::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solver_decides_non_linear_and_quantified_formulas() {
        let budget = Budget::unlimited();
        let (x, y) = (Term::var("x"), Term::var("y"));
        let answer = |f: Term| {
            let s = solver_for(&budget);
            s.assert(bool_of(&f));
            check(&s, &budget)
        };
        // x * y = 12, 1 < x < y: x = 2, y = 6 (or 3, 4).
        let product = Term::and(vec![
            Term::eq(Term::mul(x.clone(), y.clone()), Term::int(12)),
            Term::gt(x.clone(), Term::int(1)),
            Term::gt(y.clone(), x.clone()),
        ]);
        assert_eq!(answer(product), Sat::Sat);
        // No integer squares to 2.
        assert_eq!(answer(Term::eq(Term::mul(x.clone(), x.clone()), Term::int(2))), Sat::Unsat);
        // 0 < y < 5 bounds x % y below 5.
        let remainder = Term::and(vec![
            Term::gt(Term::modulo(x.clone(), y.clone()), Term::int(7)),
            Term::lt(y.clone(), Term::int(5)),
            Term::gt(y.clone(), Term::int(0)),
        ]);
        assert_eq!(answer(remainder), Sat::Unsat);
    }

    #[test]
    fn translates_and_reads_back_values() {
        let budget = Budget::unlimited();
        let s = solver_for(&budget);
        let x = Term::var("x");
        s.assert(bool_of(&Term::and(vec![
            Term::eq(Term::modulo(x.clone(), Term::int(7)), Term::int(3)),
            Term::lt(x.clone(), Term::int(-100)),
            Term::gt(x.clone(), Term::int(-108)),
        ])));
        assert_eq!(check(&s, &budget), Sat::Sat);
        let m = s.get_model().expect("model");
        assert_eq!(value_in(&m, &VarDecl::int("x")), Some(Value::Int(BigInt::from(-102))));
    }

    #[test]
    fn huge_constants_survive() {
        let budget = Budget::unlimited();
        let s = solver_for(&budget);
        let big: BigInt = "123456789012345678901234567890".parse().expect("numeral");
        s.assert(bool_of(&Term::eq(Term::var("y"), Term::Int(-big.clone()))));
        assert_eq!(check(&s, &budget), Sat::Sat);
        let m = s.get_model().expect("model");
        assert_eq!(value_in(&m, &VarDecl::int("y")), Some(Value::Int(-big)));
    }
}
