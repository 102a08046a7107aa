//! Constrained Horn clauses: the common language between the program model,
//! the instrumentation and the safety engines.
//!
//! A [`System`] is a set of predicates (one per cut-point of a program, or
//! whatever a CHC-COMP file declares) and clauses
//! `forall vars. body_1 /\ ... /\ body_k /\ constraint => head`, where the head
//! is a predicate application or `false` (a query). The system is *safe*
//! (SMT-LIB: `sat`) when the clauses have a model, i.e. no query is derivable.

use crate::term::{Term, VarDecl};

mod cutpoints;
pub mod encode;
pub mod normalize;
pub mod project;
pub mod smtlib;

pub type PredId = usize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predicate {
    pub name: String,
    /// Parameter names and sorts. Names are for readability (invariants are
    /// written over them); the encoder uses the program variable names.
    pub params: Vec<VarDecl>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PredApp {
    pub pred: PredId,
    pub args: Vec<Term>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Universally quantified variables of the clause.
    pub vars: Vec<VarDecl>,
    pub body: Vec<PredApp>,
    pub constraint: Term,
    /// `None` is `false`: the clause is a query.
    pub head: Option<PredApp>,
    /// What the clause stands for (`L3 -> L7`, `T_term exit of loop 0`, ...);
    /// printed as a comment.
    pub label: String,
}

impl Clause {
    pub fn is_query(&self) -> bool {
        self.head.is_none()
    }
    pub fn is_fact(&self) -> bool {
        self.body.is_empty()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct System {
    pub preds: Vec<Predicate>,
    pub clauses: Vec<Clause>,
    /// Free-form comment lines printed at the top of the SMT-LIB file.
    pub comments: Vec<String>,
}

impl System {
    pub fn add_pred(&mut self, name: impl Into<String>, params: Vec<VarDecl>) -> PredId {
        self.preds.push(Predicate { name: name.into(), params });
        self.preds.len() - 1
    }
    pub fn pred_by_name(&self, name: &str) -> Option<PredId> {
        self.preds.iter().position(|p| p.name == name)
    }
    /// Every predicate application has as many arguments as the predicate
    /// has parameters, of the right sorts (engines build solver terms from
    /// applications and must not be handed a malformed one).
    pub fn check_well_formed(&self) -> Result<(), String> {
        for (ci, c) in self.clauses.iter().enumerate() {
            for app in c.body.iter().chain(c.head.iter()) {
                let p = self.preds.get(app.pred).ok_or_else(|| format!("clause {ci}: unknown predicate {}", app.pred))?;
                if p.params.len() != app.args.len() {
                    return Err(format!(
                        "clause {ci}: {} applied to {} arguments, declared with {}",
                        p.name,
                        app.args.len(),
                        p.params.len()
                    ));
                }
                if let Some((i, _)) = p.params.iter().zip(&app.args).enumerate().find(|(_, (d, a))| d.sort != a.sort()) {
                    return Err(format!("clause {ci}: argument {i} of {} has the wrong sort", p.name));
                }
            }
        }
        Ok(())
    }

    /// Linear systems have at most one predicate in every body; PDR and BMC
    /// handle only these.
    pub fn is_linear(&self) -> bool {
        self.clauses.iter().all(|c| c.body.len() <= 1)
    }
}
