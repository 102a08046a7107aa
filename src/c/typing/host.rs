//! What the typing layer needs from whoever reads types with it
//! ([`TypingHost`]): the typing state ([`Types`]), binding a name, the
//! nesting limit, and the one question typing cannot answer alone: the
//! value of a constant expression its evaluator does not decide
//! (`constants.rs`).
//!
//! The typing methods (the traits of this folder: [`super::ExprTyping`],
//! [`super::DeclaratorTyping`], [`super::RecordTyping`], ...) are written
//! once over this trait, so they need no `Lowerer`: lowering implements it
//! (`lower/mod.rs`), and so does a reader that only types (see
//! `elaborate.rs`).

use super::Types;
use crate::c::arith::{Arith, Val};
use crate::c::lower::Symbol;
use crate::error::{Result, TesseraError};
use lang_c::ast::*;
use lang_c::span::Node;

pub(crate) trait TypingHost<'a> {
    /// The typing state.
    fn types(&self) -> &Types<'a>;
    fn types_mut(&mut self) -> &mut Types<'a>;
    /// Bind `name` to `sym` in the innermost scope open (see `names.rs`).
    fn bind(&mut self, name: &str, sym: Symbol);
    /// One level of nesting deeper (too deep: an error), as lowering
    /// counts levels.
    fn enter(&mut self, s: lang_c::span::Span) -> Result<()>;
    fn leave(&mut self);
    /// A constant expression the evaluator does not decide: its value, and
    /// whether computing it did nothing else (see `constant.rs`).
    fn evaluate_constant(&mut self, e: &'a Node<Expression>) -> (Result<Val>, bool);

    /// The integer operations and the machine model.
    fn arith<'s>(&'s self) -> &'s Arith
    where
        'a: 's,
    {
        self.types().arith()
    }
    /// Whether evaluating `e` may do more than read variables (see `effects.rs`).
    fn has_effects(&self, e: &Node<Expression>) -> bool {
        self.types().has_effects(e)
    }
    /// Where an offset of the parsed text stands in the user's files.
    fn span(&self, s: lang_c::span::Span) -> Option<crate::ir::Span> {
        self.types().span(s)
    }
    /// The source text of a syntax node, on one line (for messages).
    fn source_text(&self, s: lang_c::span::Span) -> String {
        self.types().source_text(s)
    }
    fn unsupported(&self, s: lang_c::span::Span, what: impl Into<String>) -> TesseraError {
        TesseraError::unsupported(self.span(s), what)
    }
    fn syntax(&self, s: lang_c::span::Span, what: impl Into<String>) -> TesseraError {
        TesseraError::syntax(self.span(s), what)
    }
}
