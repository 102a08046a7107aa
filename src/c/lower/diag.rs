//! What the lowering records about the model beside the graph: the
//! approximations (with the ones that forbid NO) and the operations whose
//! undefined behaviour is assumed away. Only this file changes them; the
//! rest of the lowering reports through [`Diagnostics::note`] and
//! [`Diagnostics::undefined_site`].

use crate::ir::{Approximation, Span, Undefined, UndefinedSite, WarningStatus};

#[derive(Default)]
pub(crate) struct Diagnostics {
    approximations: Vec<(Option<Span>, Approximation)>,
    /// The approximations that forbid NO (see `Program::forbid_no`).
    forbid_no: Vec<(Option<Span>, Approximation)>,
    /// Operations whose undefined behaviour is assumed away.
    undefined: Vec<UndefinedSite>,
    /// The variable that marks where each operation's definedness is
    /// assumed (see [`crate::ir::UNDEFINED_SITE`]), once declared.
    undefined_marker: Option<String>,
}

/// What [`Diagnostics`] hands to the program at the end.
pub(crate) struct Recorded {
    pub approximations: Vec<(Option<Span>, Approximation)>,
    pub forbid_no: Vec<(Option<Span>, Approximation)>,
    pub undefined: Vec<UndefinedSite>,
}

impl Diagnostics {
    /// Record that the model over-approximates the C program here (once
    /// per place and kind; once per program for the kinds that say so); a
    /// kind that is more than unknown values also forbids NO.
    pub fn note(&mut self, at: Option<Span>, kind: Approximation) {
        if kind.forbids_no() && !self.forbid_no.iter().any(|(s, k)| *s == at && *k == kind) {
            self.forbid_no.push((at.clone(), kind.clone()));
        }
        let known = if kind.once_per_program() {
            self.approximations.iter().any(|(_, k)| *k == kind)
        } else {
            self.approximations.iter().any(|(s, k)| *s == at && *k == kind)
        };
        if !known {
            self.approximations.push((at, kind));
        }
    }

    /// The number of the undefined-behaviour site of `kind` at `at`,
    /// recorded (with the operation's source text) when new.
    pub fn undefined_site(&mut self, at: Option<Span>, kind: Undefined, expression: String) -> usize {
        match self.undefined.iter().position(|u| u.span == at && u.kind == kind) {
            Some(i) => i,
            None => {
                self.undefined.push(UndefinedSite { span: at, kind, expression, status: WarningStatus::NotRuledOut });
                self.undefined.len() - 1
            }
        }
    }

    /// The marker variable of the undefined sites, declared by `declare`
    /// the first time.
    pub fn undefined_marker(&mut self, declare: impl FnOnce() -> String) -> String {
        self.undefined_marker.get_or_insert_with(declare).clone()
    }

    /// Everything recorded, for the program.
    pub fn take(&mut self) -> Recorded {
        Recorded {
            approximations: std::mem::take(&mut self.approximations),
            forbid_no: std::mem::take(&mut self.forbid_no),
            undefined: std::mem::take(&mut self.undefined),
        }
    }
}
