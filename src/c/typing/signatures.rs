//! The functions known by name ([`Signatures`]): each one's signature and
//! definition, and the defined functions the program uses as values (the
//! possible targets of a call through a pointer). Typing reads them to
//! decide the type of a call (its return type) and of a function's name;
//! lowering reads them to inline, summarize or refuse a call.
//!
//! They are filled as the file-scope declarations are read (`decl.rs`,
//! and `reader.rs` for the elaboration pass), and the functions used as
//! values once every declaration is (see `Lowerer::file_scope`), before
//! any body is read.

use crate::c::lower::FunctionInfo;
use crate::c::types::CType;
use crate::error::Result;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

#[derive(Clone, Default)]
pub(crate) struct Signatures<'a> {
    /// Every function declared or defined, by name.
    functions: HashMap<String, FunctionInfo<'a>>,
    /// The defined functions used as values, sorted.
    values: Vec<String>,
}

impl<'a> Signatures<'a> {
    /// The function `name`, if one is declared or defined.
    pub fn function(&self, name: &str) -> Option<&FunctionInfo<'a>> {
        self.functions.get(name)
    }
    pub fn is_function(&self, name: &str) -> bool {
        self.functions.contains_key(name)
    }
    /// The program defines function `name`.
    pub fn is_defined(&self, name: &str) -> bool {
        self.functions.get(name).is_some_and(|f| f.def.is_some())
    }
    /// Declare (or define) function `name`.
    pub fn declare(&mut self, name: String, info: FunctionInfo<'a>) {
        self.functions.insert(name, info);
    }
    /// Every function known, by name (in no particular order).
    pub fn all(&self) -> impl Iterator<Item = (&String, &FunctionInfo<'a>)> {
        self.functions.iter()
    }
    /// The defined functions used as values: the possible targets of a
    /// call through a pointer.
    pub fn values(&self) -> &[String] {
        &self.values
    }
    pub fn set_values(&mut self, values: Vec<String>) {
        self.values = values;
    }
}

/// Calls as typing sees them: the signature a direct call uses, the
/// functions a call through a pointer may reach, and the type of such a
/// call (the module's [`Signatures`] hold what they are decided from).
pub(crate) trait CallTyping<'a>: super::TypingHost<'a> + super::ExprTyping<'a> + Sized {
    /// The called function, if it has a body, is not variadic, and called with as
    /// many arguments as it takes (shared by inlined and recursive calls).
    fn callee(&self, name: &str, c: &'a Node<CallExpression>) -> Result<FunctionInfo<'a>> {
        let Some(info) = self.types().signatures().function(name).cloned().filter(|i| i.def.is_some()) else {
            return Err(self.unsupported(c.span, format!("call to unknown function {name}")));
        };
        let args = &c.node.arguments;
        if info.variadic && args.len() >= info.params.len() {
            // The extra arguments run; `va_arg` reads any value (see `expr.rs`).
            return Ok(info);
        }
        if args.len() != info.params.len() && !(info.unprototyped && info.params.is_empty()) {
            return Err(self.syntax(
                c.span,
                format!("`{name}` called with {} arguments but takes {}", args.len(), info.params.len()),
            ));
        }
        Ok(info)
    }

    /// The defined functions a call through a pointer may reach: those the
    /// program uses as values (only their addresses can be in a pointer)
    /// that take these arguments (and return a value, when it is used: the
    /// pointer's type would not allow a void function otherwise).
    /// Pointer arguments go to pointer parameters, integers to integers.
    fn indirect_targets(&mut self, c: &'a Node<CallExpression>, want: bool) -> Result<Vec<String>> {
        let mut pointers = Vec::new();
        for a in &c.node.arguments {
            // A null pointer constant fits either kind of parameter.
            pointers.push(if crate::c::lower::memory::is_null_constant(&a.node) { None } else { Some(self.is_pointer(a)?) });
        }
        let fits = |l: &Self, f: &String| {
            let Ok(info) = l.callee(f, c) else { return false };
            let kinds_agree = info.params.iter().zip(&pointers).all(|(p, a)| a.is_none_or(|a| a == matches!(p.ty, CType::Ptr(_))));
            kinds_agree && (!want || info.ret != CType::Void)
        };
        Ok(self.types().signatures().values().iter().filter(|f| fits(self, f)).cloned().collect())
    }

    /// The type of a call through a pointer: the targets' common return
    /// type, otherwise (targets that disagree, or none known) any integer.
    fn indirect_return_type(&self, targets: &[String]) -> CType {
        let rets: Vec<&CType> = targets.iter().filter_map(|f| self.types().signatures().function(f)).map(|f| &f.ret).collect();
        match rets.first() {
            Some(&r) if rets.iter().all(|x| *x == r) => r.clone(),
            _ => CType::Int(IntType::LONG),
        }
    }

    /// The type of a call through a function pointer (see `calls/`).
    fn pointer_call_type(&mut self, c: &'a Node<CallExpression>) -> Result<CType> {
        let targets = self.indirect_targets(c, true)?;
        Ok(self.indirect_return_type(&targets))
    }
}

impl<'a, T: super::TypingHost<'a>> CallTyping<'a> for T {}
