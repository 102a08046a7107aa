//! What a GNU inline assembly statement may do besides reading its inputs
//! and writing its outputs, read off its text, its operands' constraints
//! and its clobbers: the one reading that lowering
//! (`lower/calls/library.rs`) and execution (`exec/stmt.rs`) share.

use lang_c::ast::{AsmStatement, GnuAsmOperand, StringLiteral};
use lang_c::span::Node;

/// An assembly statement's operands and what its text may do.
pub(crate) struct Reading<'a> {
    pub outputs: &'a [Node<GnuAsmOperand>],
    pub inputs: &'a [Node<GnuAsmOperand>],
    /// It may jump, loop or leave the function (`jne`, `loop`, `ret`,
    /// `int`, `syscall`): it could run forever or go anywhere.
    pub jumps: bool,
    /// It calls code outside the program (`call __get_user_4`).
    pub calls: bool,
    /// It may write memory its outputs do not name: a call, a `memory`
    /// clobber, or a memory operand (`m` constraint).
    pub memory: bool,
}

pub(crate) fn read(a: &AsmStatement) -> Reading<'_> {
    let (template, outputs, inputs, clobbers): (&Node<StringLiteral>, &[Node<GnuAsmOperand>], &[Node<GnuAsmOperand>], &[Node<StringLiteral>]) = match a {
        AsmStatement::GnuBasic(t) => (t, &[], &[], &[]),
        AsmStatement::GnuExtended(x) => (&x.template, &x.outputs, &x.inputs, &x.clobbers),
    };
    let text = template.node.concat().to_ascii_lowercase();
    let words = || text.split(|c: char| !c.is_ascii_alphanumeric());
    let jumps = words().any(|w| (w.starts_with('j') && w.len() <= 4) || w.starts_with("loop") || w == "ret" || w == "int" || w == "syscall");
    let calls = words().any(|w| w.starts_with("call"));
    let memory = calls || clobbers.iter().any(|c| c.node.concat().contains("memory")) || inputs.iter().chain(outputs).any(|op| op.node.constraints.node.concat().contains('m'));
    Reading { outputs, inputs, jumps, calls, memory }
}
