//! The functions known by name ([`Signatures`]): each one's signature and
//! definition, and the defined functions the program uses as values (the
//! possible targets of a call through a pointer). Typing reads them to
//! decide the type of a call (its return type) and of a function's name;
//! lowering reads them to inline, summarize or refuse a call.
//!
//! They are filled as the file-scope declarations are read (`decl.rs`),
//! and the functions used as values once every declaration is (see
//! `Lowerer::file_scope`), before any body is read.

use crate::c::lower::FunctionInfo;
use std::collections::HashMap;

#[derive(Default)]
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
