//! The program's entry: `main` is lowered with its parameters bound to
//! the program's arguments (C11 5.1.2.2.1), which come from whoever runs
//! the program and so are inputs.

use crate::c::lower::typed::*;
use crate::c::lower::{memory, Frame, Lowerer, Symbol};
use crate::c::types::CType;
use crate::error::Result;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use std::collections::HashMap;

impl<'a> Lowerer<'a> {
    pub(in crate::c) fn call_main(&mut self, main: &'a Node<FunctionDefinition>) -> Result<()> {
        let info = self.signature_of_definition(main)?;
        self.enter_frame(Frame { is_main: true, ..Frame::of_body("main", main, HashMap::new()) });
        // The program's arguments (C11 5.1.2.2.1): `argc` and the strings
        // of `argv` come from whoever runs the program, so they are inputs.
        let mut argc: Option<crate::term::Term> = None;
        for (position, p) in info.params.iter().enumerate() {
            let Some(name) = &p.name else { continue };
            match (&p.ty, MainParameter::at(position)) {
                (CType::Int(t), MainParameter::ArgumentCount) => {
                    let v = self.cfg.declare(name, "main", *t);
                    self.input(&v, *t);
                    // C allows 0, but a program started from a shell or by
                    // `execve` on Linux (since 5.18, which supplies an
                    // empty `argv[0]`) always has its own name first.
                    self.emit_assume(crate::term::Term::le(crate::term::Term::int(1), crate::term::Term::var(v.clone())));
                    argc = Some(crate::term::Term::var(v.clone()));
                    self.bind(name, Symbol::Var { name: v, ty: *t });
                }
                (CType::Int(t), _) => {
                    let v = self.cfg.declare(name, "main", *t);
                    self.input(&v, *t);
                    self.bind(name, Symbol::Var { name: v, ty: *t });
                }
                (CType::Ptr(pointee), which @ (MainParameter::Arguments | MainParameter::Environment)) if matches!(**pointee, CType::Ptr(_)) => {
                    let count = match (which, &argc) {
                        (MainParameter::Arguments, Some(n)) => n.clone(),
                        (MainParameter::Arguments, None) => self.hidden_count("argc", 1),
                        _ => self.hidden_count("envc", 0),
                    };
                    let array = self.string_vector(count)?;
                    let pointee = (**pointee).clone();
                    self.bind_pointer(name, pointee.clone(), Some(memory::PtrVal { pointee, ..array }));
                }
                (CType::Unsupported(what), _) => self.bind(name, Symbol::Unmodelled { what: what.clone() }),
                (CType::Ptr(_), _) => self.bind(name, Symbol::Unmodelled { what: "pointer (arguments of main)".into() }),
                (CType::Void, _) => {}
                (other, _) => self.bind(name, Symbol::Opaque { ty: other.clone() }),
            }
        }
        self.stmt(&main.node.statement)?;
        self.end_function_body(main.span)?;
        let frame = self.leave_frame();
        if let Some(f) = frame {
            for c in f.returns {
                self.cfg.jump(c, self.flow.exit());
            }
        }
        Ok(())
    }

    /// The number of strings of an `argv` or `envp` whose count the
    /// program does not name: an input of at least `least`.
    fn hidden_count(&mut self, what: &str, least: i64) -> crate::term::Term {
        use crate::term::Term;
        let v = self.cfg.declare_as(&format!("{what}#hidden"), "main", self.arith.machine().int(), crate::ir::Origin::HiddenCount);
        self.input(&v, self.arith.machine().int());
        self.emit_assume(Term::le(Term::int(least), Term::var(v.clone())));
        Term::var(v)
    }

    /// `argv` or `envp`: a block of `count + 1` pointers, the last one NULL
    /// and the others strings of any contents and length. The block's size
    /// is symbolic, so it has no tracked cells: a load of `argv[i]` is any
    /// pointer (the NULL at `argv[argc]` is not known to the model, which
    /// stays sound), but every access is inside the block, which bounds
    /// loops like `while (*argv) argv++`.
    fn string_vector(&mut self, count: crate::term::Term) -> Result<memory::PtrVal> {
        use crate::term::Term;
        let width = i64::from(self.arith.machine().pointer_bytes());
        let size = Term::add(vec![Term::scale(&BigInt::from(width), count), Term::int(width)]);
        let base = self.new_block(None, &size, false, None, false, memory::Contents::Fixed)?;
        Ok(memory::PtrVal { base, off: Term::int(0), size, pointee: CType::Void })
    }
}

/// The type `main`'s parameter at `position` is seen with, as
/// [`Lowerer::call_main`] binds it (`None`: it names nothing).
pub(in crate::c) fn main_parameter_type(position: usize, ty: &CType) -> Option<CType> {
    match (ty, MainParameter::at(position)) {
        (CType::Void, _) => None,
        (CType::Ptr(pointee), MainParameter::Arguments | MainParameter::Environment) if matches!(**pointee, CType::Ptr(_)) => Some(ty.clone()),
        (CType::Ptr(_), _) => Some(CType::Unsupported("pointer (arguments of main)".into())),
        _ => Some(ty.clone()),
    }
}

/// What a parameter of `main` is, by its position (C11 5.1.2.2.1, and the
/// common extension `char *envp[]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MainParameter {
    ArgumentCount,
    Arguments,
    Environment,
    Other,
}

impl MainParameter {
    fn at(position: usize) -> MainParameter {
        match position {
            0 => MainParameter::ArgumentCount,
            1 => MainParameter::Arguments,
            2 => MainParameter::Environment,
            _ => MainParameter::Other,
        }
    }
}
