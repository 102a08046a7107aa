//! The path condition of a run with symbolic inputs (`symbolic.rs`): the
//! facts the branches taken on the inputs established, held by one
//! incremental Z3 solver, and the inputs a run made; and the valuations
//! of the inputs concrete runs take (`lasso.rs`), among them the models
//! of path conditions.

use crate::smt;
use crate::term::{Op, Term, Valuation, Value as TermValue};
use crate::ir::IntType;
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap, HashSet};
use z3::{Params, SatResult, Solver};

/// Most facts a path condition may hold: a loop that tests a value
/// computed from inputs anew in every iteration (a symbolic counter) adds
/// one each time, and every check costs their number.
pub(crate) const MOST_PATH: usize = 300;

/// Most work one satisfiability check may take, in Z3's resource units
/// (about 0.2 s on this kind of machine): the checks of a path are many
/// and small; one Z3 cannot decide quickly (nested wrap-arounds of a
/// counter) gives up the run. A resource limit, not a timeout: Z3 wakes a
/// timer thread for every check that has a timeout, which cost a third of
/// the exploration's time on a sequentialized protocol (futex waits and
/// `sched_yield` in the kernel), and a resource limit answers alike on
/// every replay of a run.
const CHECK_RLIMIT: u32 = 1_000_000;

/// Most definitions of joined values one run may make (`join.rs`): each
/// is a fact every later check carries.
const MOST_DEFINITIONS: usize = 2_000;

/// Most models asked for the inputs a branch fixes (each rules out at
/// least one; those left are checked one by one).
const FIX_ROUNDS: usize = 8;

/// The value each nondeterministic call site returns in a concrete run,
/// by call node; a site not listed returns candidate 0 (zero).
pub(crate) type Inputs = BTreeMap<usize, Input>;

/// The value of one input site in a concrete run.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Input {
    /// The index of a candidate (see `lasso::candidate`).
    Candidate(usize),
    /// A value a path condition's model gave (`symbolic.rs`).
    Exact(BigInt),
    /// The candidate of this index at the site's first read, one more at
    /// each later read (up to the type's maximum): increasing inputs, such
    /// as the sorted values that take an insertion down its other branch.
    Rising(usize),
}

/// The symbolic state of one run.
pub(crate) struct Symbolic {
    /// The branches taken on the inputs, in order.
    pub path: Vec<Term>,
    /// Terms the path condition decides, with their value.
    pub decided: HashMap<Term, bool>,
    /// The input variables of the run in the order made: name, call site
    /// (by node), type.
    pub inputs: Vec<(String, usize, IntType)>,
    /// Inputs the path condition fixes (`in<k> = c`, from a branch taken
    /// on an equality): substituted into every term read, so that a value
    /// the path fixed computes as a constant (a round counter that starts
    /// at an input required to be 0 would otherwise grow a term).
    bindings: BTreeMap<String, Term>,
    /// The alternatives the path condition ruled out in this run.
    pub pruned: usize,
    /// The values of joined branches (`join.rs`): each `join<k> = ite(c,
    /// a, b)` for a fresh `join<k>`. A definition constrains no input, so
    /// it holds outside the scope it was made in too and is never dropped.
    definitions: Vec<Term>,
    /// The variable of each definition, with its index.
    defined: HashMap<String, usize>,
    /// Holds the path condition (asserted as it grows).
    solver: Solver,
}

/// A path condition as a checkpoint keeps it (`checkpoint.rs`): its
/// facts, without a solver (one is made again from them when a run
/// resumes).
#[derive(Clone)]
pub(crate) struct PathCopy {
    path: Vec<Term>,
    decided: HashMap<Term, bool>,
    bindings: BTreeMap<String, Term>,
    inputs: Vec<(String, usize, IntType)>,
    definitions: Vec<Term>,
    defined: HashMap<String, usize>,
}

/// The state of a [`Symbolic`] a scope restores.
pub(crate) struct Mark {
    path: usize,
    decided: HashMap<Term, bool>,
    bindings: BTreeMap<String, Term>,
    inputs: usize,
    pruned: usize,
    definitions: usize,
}

impl Symbolic {
    pub(crate) fn new() -> Symbolic {
        let solver = Solver::new_for_logic("LIA").unwrap_or_else(Solver::new);
        let mut p = Params::new();
        p.set_u32("rlimit", CHECK_RLIMIT);
        solver.set_params(&p);
        Symbolic { path: Vec::new(), decided: HashMap::new(), inputs: Vec::new(), bindings: BTreeMap::new(), pruned: 0, definitions: Vec::new(), defined: HashMap::new(), solver }
    }

    pub(crate) fn assume(&mut self, t: Term) {
        self.solver.assert(&smt::bool_of(&t));
        self.bind(&t);
        self.path.push(t);
    }

    /// `t`, which the path condition implies: the value it fixes, if it
    /// is `in<k> = c`, is substituted from now on (it is not asserted
    /// again, nor counted among the facts).
    pub(crate) fn bind(&mut self, t: &Term) {
        if let Term::App(Op::Eq, args) = t {
            if let [Term::Var(x, _), c @ Term::Int(_)] | [c @ Term::Int(_), Term::Var(x, _)] = &args[..] {
                self.bindings.insert(x.to_string(), c.clone());
            }
        }
    }

    /// `t` with the inputs the path fixed replaced by their values.
    pub(crate) fn bound(&self, t: &Term) -> Term {
        if self.bindings.is_empty() {
            return t.clone();
        }
        let t = t.subst(&self.bindings);
        if !matches!(t, Term::Int(_) | Term::Bool(_)) && t.free_vars().is_empty() {
            match t.eval(&Valuation::new()) {
                Some(TermValue::Int(c)) => return Term::Int(c),
                Some(TermValue::Bool(b)) => return Term::Bool(b),
                None => {}
            }
        }
        t
    }

    pub(crate) fn copy(&self) -> PathCopy {
        PathCopy { path: self.path.clone(), decided: self.decided.clone(), bindings: self.bindings.clone(), inputs: self.inputs.clone(), definitions: self.definitions.clone(), defined: self.defined.clone() }
    }

    /// The path condition `c` again, with a solver of its own holding its
    /// facts; the alternatives ruled out are counted from here.
    pub(crate) fn from_copy(c: &PathCopy) -> Symbolic {
        let s = Symbolic::new();
        for t in c.path.iter().chain(&c.definitions) {
            s.solver.assert(&smt::bool_of(t));
        }
        Symbolic { path: c.path.clone(), decided: c.decided.clone(), bindings: c.bindings.clone(), inputs: c.inputs.clone(), definitions: c.definitions.clone(), defined: c.defined.clone(), ..s }
    }

    /// A scope for facts to be dropped again (an acceleration's try,
    /// `drift.rs`): what [`Symbolic::leave`] restores.
    pub(crate) fn enter(&mut self) -> Mark {
        self.solver.push();
        Mark { path: self.path.len(), decided: self.decided.clone(), bindings: self.bindings.clone(), inputs: self.inputs.len(), pruned: self.pruned, definitions: self.definitions.len() }
    }

    /// Back to the state of `m`'s [`Symbolic::enter`], but for the
    /// definitions made since (kept: values in the state may name them).
    pub(crate) fn leave(&mut self, m: Mark) {
        self.solver.pop(1);
        for d in &self.definitions[m.definitions..] {
            self.solver.assert(&smt::bool_of(d));
        }
        self.path.truncate(m.path);
        self.decided = m.decided;
        self.bindings = m.bindings;
        self.inputs.truncate(m.inputs);
        self.pruned = m.pruned;
    }

    /// Whether the run joined a branch (made a definition).
    pub(crate) fn joined(&self) -> bool {
        !self.definitions.is_empty()
    }

    /// After the branch `fact` was taken: the inputs it constrains through
    /// the definitions of the joins it names, where the path condition
    /// now fixes them, are bound to their values (a branch on a join, such
    /// as the result of a joined chain of tests that an input be 0, fixes
    /// inputs no equality of the path states; unbound, a round counter
    /// starting at one would grow its term every round). The fixed ones
    /// are found by models: those whose value no model changes.
    pub(crate) fn fix_inputs(&mut self, fact: &Term) {
        let inputs: HashSet<&str> = self.inputs.iter().map(|(n, _, _)| n.as_str()).collect();
        let mut open: Vec<String> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut todo = vec![fact.clone()];
        while let Some(t) = todo.pop() {
            for v in t.free_vars() {
                if !seen.insert(v.name.clone()) {
                    continue;
                }
                if let Some(k) = self.defined.get(&v.name) {
                    todo.push(self.definitions[*k].clone());
                } else if inputs.contains(v.name.as_str()) && !self.bindings.contains_key(&v.name) {
                    open.push(v.name);
                }
            }
        }
        if open.is_empty() || self.solver.check() != SatResult::Sat {
            return;
        }
        let value = |m: &z3::Model, x: &str| match smt::eval_in(m, &Term::var(x)) {
            Some(TermValue::Int(c)) => Some(c),
            _ => None,
        };
        let Some(model) = self.solver.get_model() else { return };
        let mut open: Vec<(String, BigInt)> = open.into_iter().filter_map(|x| value(&model, &x).map(|c| (x, c))).collect();
        for _ in 0..FIX_ROUNDS {
            if open.is_empty() {
                return;
            }
            let other = Term::or(open.iter().map(|(x, c)| Term::not(Term::eq(Term::var(x), Term::Int(c.clone())))).collect());
            match self.solver.check_assumptions(&[smt::bool_of(&other)]) {
                SatResult::Unsat => break,
                SatResult::Sat => {
                    let Some(m) = self.solver.get_model() else { return };
                    open.retain(|(x, c)| value(&m, x).as_ref() == Some(c));
                }
                SatResult::Unknown => return,
            }
        }
        // What the models left, one by one (a few dozen checks at a
        // branch on a join, which is rare: the joins take the others).
        for (x, c) in open {
            let other = Term::not(Term::eq(Term::var(&x), Term::Int(c.clone())));
            if self.solver.check_assumptions(&[smt::bool_of(&other)]) == SatResult::Unsat {
                self.bindings.insert(x, Term::Int(c));
            }
        }
    }

    /// A fresh variable defined as `t` (an integer term), if the run may
    /// make one more definition.
    pub(crate) fn define(&mut self, t: Term) -> Option<Term> {
        if self.definitions.len() >= MOST_DEFINITIONS {
            return None;
        }
        let name = format!("join{}", self.definitions.len());
        self.defined.insert(name.clone(), self.definitions.len());
        let name = Term::var(name);
        let d = Term::eq(name.clone(), t);
        self.solver.assert(&smt::bool_of(&d));
        self.definitions.push(d);
        Some(name)
    }

    /// Whether the path condition and `t` may hold together (`None`: Z3
    /// could not tell).
    pub(crate) fn possible(&self, t: &Term) -> Option<bool> {
        match self.solver.check_assumptions(&[smt::bool_of(t)]) {
            SatResult::Sat => Some(true),
            SatResult::Unsat => Some(false),
            SatResult::Unknown => None,
        }
    }

    /// A valuation for the search of a repeated state: the model's value
    /// of each site's first input.
    pub(crate) fn seed(&self) -> Option<Inputs> {
        if self.inputs.is_empty() || self.solver.check() != SatResult::Sat {
            return None;
        }
        let model = self.solver.get_model()?;
        let mut out = Inputs::new();
        for (name, site, _) in &self.inputs {
            if out.contains_key(site) {
                continue;
            }
            if let Some(TermValue::Int(c)) = smt::eval_in(&model, &Term::var(name)) {
                out.insert(*site, Input::Exact(c));
            }
        }
        Some(out)
    }
}
