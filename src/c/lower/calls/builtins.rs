//! Builtins whose operands are not all evaluated (GCC manual, "Other
//! Built-in Functions"): which operands run, and the values these
//! compile-time queries give. Every other call, builtin or not, evaluates
//! each argument once; lowering, typing and the effect analysis ask here.

use crate::c::lower::typed::*;
use crate::c::lower::Lowerer;
use crate::ir::Approximation;
use crate::c::arith::Val;
use crate::c::types::CType;
use crate::error::Result;
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;

/// How a builtin treats its operands, for the builtins that do not evaluate
/// them all (GCC manual, "Other Built-in Functions"). Every other call,
/// builtin or not, evaluates each argument once. This is the one place
/// that decides it: lowering, typing and the effect analysis ask here.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum OperandEvaluation {
    /// No operand is evaluated; the value is decided at compile time.
    Unevaluated(CompileTimeQuery),
    /// `__builtin_choose_expr(c, a, b)`: `c` is an integer constant
    /// expression, and only the operand it chooses is evaluated; the call
    /// has that operand's value and type.
    Chosen,
}

/// What a builtin with unevaluated operands asks the compiler.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CompileTimeQuery {
    /// `__builtin_constant_p(e)`: 1 for an integer constant expression;
    /// otherwise 0 or 1, as gcc's optimizer decides (0 at -O0, often 1
    /// at -O2 after constant propagation).
    ConstantP,
    /// `__builtin_object_size(p, type)`: a `size_t` that depends on what
    /// the optimizer knows about `p` (`(size_t)-1` or 0 when nothing).
    ObjectSize,
    /// `__builtin_classify_type(e)`: gcc's class of `e`'s type (1 for
    /// integers, enums, characters and booleans, 5 for pointers and
    /// arrays, 8 for floating types, 12 for structs, 13 for unions).
    ClassifyType,
}

pub(crate) fn operand_evaluation(name: &str) -> Option<OperandEvaluation> {
    match name {
        "__builtin_constant_p" => Some(OperandEvaluation::Unevaluated(CompileTimeQuery::ConstantP)),
        "__builtin_object_size" => Some(OperandEvaluation::Unevaluated(CompileTimeQuery::ObjectSize)),
        "__builtin_classify_type" => Some(OperandEvaluation::Unevaluated(CompileTimeQuery::ClassifyType)),
        "__builtin_choose_expr" => Some(OperandEvaluation::Chosen),
        _ => None,
    }
}

/// Builtins whose treatment of side effects in their operands is not
/// modelled: `__builtin_dynamic_object_size` may or may not evaluate its
/// pointer operand. Refused rather than guessed.
pub(super) const UNMODELLED_BUILTINS: &[&str] = &["__builtin_dynamic_object_size"];

impl<'a> Lowerer<'a> {
    /// A builtin whose operands are not all evaluated (see
    /// [`operand_evaluation`]); `want`: whether its value is used.
    pub(super) fn builtin_with_unevaluated_operands(&mut self, how: OperandEvaluation, c: &'a Node<CallExpression>, want: bool) -> Result<Option<Val>> {
        let query = match how {
            OperandEvaluation::Chosen => {
                let e = self.chosen_operand(c)?;
                return if want { self.expr(e).map(Some) } else { self.effect_any(e).map(|_| None) };
            }
            OperandEvaluation::Unevaluated(q) => q,
        };
        if !want {
            return Ok(None);
        }
        let Some(operand) = c.node.arguments.first() else {
            return Err(self.syntax(c.span, "a builtin without its operand"));
        };
        let at = self.span(c.span);
        let (known, ty, choices) = match query {
            CompileTimeQuery::ConstantP => {
                // An integer constant expression is a constant at every
                // optimization level; anything else is gcc's choice.
                let constant = !self.has_effects(operand) && matches!(self.type_of(operand)?, CType::Int(_)) && self.constant(operand).is_ok();
                (constant.then_some(1), self.arith.machine().int(), "0 or 1, as gcc's optimizer decides")
            }
            CompileTimeQuery::ClassifyType => {
                let class = match self.type_of(operand)? {
                    CType::Int(_) => Some(1),
                    CType::Ptr(_) | CType::Array(..) | CType::Function => Some(5),
                    CType::Float(_) => Some(8),
                    _ => None,
                };
                (class, self.arith.machine().int(), "the class of a type the model does not classify")
            }
            CompileTimeQuery::ObjectSize => (None, self.arith.machine().size_t(), "an object size, as gcc's optimizer decides"),
        };
        if let Some(k) = known {
            return Ok(Some(self.arith.int(k)));
        }
        self.note_approximation(at, Approximation::CompilerChoice { builtin: self.source_text(c.node.callee.span), gives: choices });
        let v = self.cfg.temp("builtin", ty);
        self.havoc(&v, ty);
        if query == CompileTimeQuery::ConstantP {
            let one = Term::le(Term::var(v.clone()), Term::int(1));
            let zero = Term::le(Term::int(0), Term::var(v.clone()));
            self.emit_assume(Term::and(vec![zero, one]));
        }
        Ok(Some(self.arith.var(&v, ty)))
    }
}
