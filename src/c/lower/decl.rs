//! Declarations: function definitions, globals, locals (static too),
//! each made into what lowering keeps (variables, pointers, objects). The
//! types they declare are read by `c/typing/declarators.rs`; what a
//! file-scope name is bound to (variable, pointer, object, opaque) is
//! decided by `c/typing/globals.rs`, which the typing-only reader binds by
//! too.

use super::*;
use super::syntax::attribute_names;
use crate::term::Term;
use crate::ir::origin::Owner;
use super::typing::{GlobalBinding, GlobalKind, GlobalTyping};

impl<'a> Lowerer<'a> {
    // ---- declarations

    /// A declaration at file scope (`global`) or in a block.
    pub fn declaration(&mut self, decl: &'a Node<Declaration>, global: bool) -> Result<()> {
        self.declarators(decl, |l, init, name, ty, storage| l.object_declarator(decl, init, name, ty, storage, global))
    }

    /// A declarator of `decl` that declares an object named `name` of type
    /// `ty` (see [`Lowerer::declaration`]).
    pub(super) fn object_declarator(&mut self, decl: &'a Node<Declaration>, init: &'a Node<InitDeclarator>, name: String, ty: CType, storage: Storage, global: bool) -> Result<()> {
        let d = &init.node.declarator.node;
        let attributes = attribute_names(&decl.node.specifiers, d);
        if attributes.iter().any(|a| a == "cleanup") {
            // A function that runs when the variable goes out of scope.
            return Err(self.unsupported(init.span, format!("variable `{name}` with a `cleanup` attribute")));
        }
        let (attrs, inherited) = self.declaration_alignment(&decl.node.specifiers, d)?;
        if let Some(what) = attrs.unmodelled {
            return Err(self.unsupported(init.span, format!("variable `{name}` with the attribute `{what}`")));
        }
        // For `__alignof__(name)`: an attribute only raises a variable's alignment.
        let user = match (attrs.aligned, inherited) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        self.types.declared_alignment(&name, user);
        if global {
            // Code outside the program can neither name a `static` global
            // nor change a `const` object (C11 6.7.3p6: undefined).
            let const_object = !d.derived.iter().any(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
                && decl.node.specifiers.iter().any(|s| matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Const));
            if storage.is_static || const_object {
                self.globals.hide_from_outside_code(name.clone());
            }
            self.global_variable(&name, ty, storage.is_extern, init)?;
        } else if storage.is_extern {
            // Refers to the global of that name.
            match self.globals.get(&name).cloned() {
                Some(sym) => self.bind(&name, sym),
                None => {
                    self.global_variable(&name, ty, true, init)?;
                    let sym = self.globals.get(&name).cloned();
                    if let Some(sym) = sym {
                        self.bind(&name, sym);
                    }
                }
            }
        } else {
            // No linkage: one declaration per block (C11 6.7p3).
            let declared_here = self
                .calls
                .frame()
                .is_some_and(|f| matches!(f.innermost(&name), Some(Symbol::Var { .. } | Symbol::Ptr(_) | Symbol::Unmodelled { .. })));
            if declared_here {
                return Err(TesseraError::invalid(self.span(init.span), format!("redeclaration of `{name}` in the same block")));
            }
            if init.node.initializer.is_some() {
                // C puts the name in scope in its own initializer (C11
                // 6.2.1p7): `struct T *p = malloc(sizeof *p)` reads only its
                // type; a read of its value there is indeterminate.
                self.bind(&name, Symbol::Opaque { ty: ty.clone() });
            }
            if storage.is_static {
                self.static_local(&name, ty, init)?;
            } else {
                self.local_variable(&name, ty, init)?;
            }
        }
        Ok(())
    }

    /// A file-scope object `name`: the variable, pointer or object the
    /// rule for globals decides (`c/typing/globals.rs`), with its initial
    /// value.
    pub(super) fn global_variable(&mut self, name: &str, ty: CType, is_extern: bool, init: &'a Node<InitDeclarator>) -> Result<()> {
        let addressed = self.mem.is_addressed_global(name);
        let existing = self.globals.get(name).and_then(GlobalKind::of_symbol);
        let (t, again) = match self.bind_global(ty, addressed, existing, init.node.initializer.as_ref()) {
            GlobalBinding::Var { ty, again } => (ty, again),
            GlobalBinding::Object { ty, again } => return self.global_object(name, ty, again, is_extern, init),
            GlobalBinding::Outside { ty } => {
                // `extern int a[];`, `extern struct T x;` of a struct never
                // completed: defined outside the program, contents unknown.
                self.bind_file_scope(name, Symbol::Opaque { ty });
                return Ok(());
            }
            GlobalBinding::Unmodelled { what } => {
                self.bind_file_scope(name, Symbol::Unmodelled { what });
                return Ok(());
            }
            GlobalBinding::Ptr { pointee, again } => {
                // A global pointer starts as NULL unless initialized otherwise.
                let value = init.node.initializer.as_ref().and_then(|i| scalar_initializer(i)).filter(|e| !super::memory::is_null_constant(&e.node));
                if init.node.initializer.is_some() && !self.globals.first_initializer(name) {
                    return Err(TesseraError::invalid(self.span(init.span), format!("redefinition of `{name}` (two initializers)")));
                }
                let var = match (again, self.globals.get(name)) {
                    (true, Some(Symbol::Ptr(v))) => v.clone(),
                    _ => {
                        let var = self.global_pointer(name, Owner::Variable, pointee.clone(), is_extern && init.node.initializer.is_none(), value.is_none());
                        self.bind_file_scope(name, Symbol::Ptr(var.clone()));
                        var
                    }
                };
                if let Some(e) = value {
                    // Declared earlier without a value: the initializer decides.
                    let mut parts = vec![var.off.clone()];
                    parts.extend(var.whole.iter().flat_map(|(b, s)| [b.clone(), s.clone()]));
                    self.globals.forget_inits(&parts);
                    self.at_program_start(|l| {
                        let v = l.pointer(e, Some(pointee))?;
                        l.assign_pointer_parts(&var, v);
                        Ok(())
                    })?;
                }
                return Ok(());
            }
            GlobalBinding::Float { ty, again } => {
                if !again {
                    self.bind_file_scope(name, Symbol::Opaque { ty });
                }
                if let Some(i) = &init.node.initializer {
                    self.at_program_start(|l| l.effect_of_initializer(i))?;
                }
                return Ok(());
            }
            GlobalBinding::Function => return Ok(()),
            GlobalBinding::Void => return Err(self.syntax(init.span, format!("variable `{name}` declared void"))),
        };
        // An initializer gcc accepts but that has no value before linking
        // (an address cast to an integer, `(unsigned long)&sym`) is run
        // at program start like any other expression.
        let mut at_start = None;
        let value = match &init.node.initializer {
            Some(i) => match self.constant_initializer(i, t) {
                Ok(v) => Some(v),
                Err(e) => match scalar_initializer(i) {
                    Some(x) if !self.has_effects(x) => {
                        at_start = Some(x);
                        None
                    }
                    _ => return Err(e),
                },
            },
            None if is_extern => None,
            None => Some(BigInt::zero()),
        };
        if let Some(x) = at_start {
            if again {
                return Err(self.unsupported(init.span, format!("a second definition of `{name}` with a non-constant initializer")));
            }
            let v = self.cfg.declare(name, crate::c::cfg::GLOBAL, t);
            self.globals.push_init(v.clone(), t, None);
            self.bind_file_scope(name, Symbol::Var { name: v.clone(), ty: t });
            self.globals.first_initializer(name);
            return self.at_program_start(|l| {
                let value = l.expr(x)?;
                let value = l.arith.convert(value, t);
                l.emit(Action::Assign(v, value.term));
                Ok(())
            });
        }
        if init.node.initializer.is_some() && !self.globals.first_initializer(name) {
            return Err(TesseraError::invalid(self.span(init.span), format!("redefinition of `{name}` (two initializers)")));
        }
        // Tentative definitions (`int x; int x = 1;`) are one variable.
        if let (true, Some(Symbol::Var { name: existing, .. })) = (again, self.globals.get(name)) {
            let existing = existing.clone();
            if let Some(entry) = self.globals.init_of(&existing) {
                if init.node.initializer.is_some() || (entry.is_none() && value.is_some()) {
                    *entry = value;
                }
            }
            return Ok(());
        }
        let v = self.cfg.declare(name, crate::c::cfg::GLOBAL, t);
        self.globals.push_init(v.clone(), t, value);
        self.bind_file_scope(name, Symbol::Var { name: v, ty: t });
        Ok(())
    }

    /// A global array, struct or address-taken scalar: a block of its own,
    /// of type `ty` (completed by its initializer); `again`: declared before
    /// (a tentative definition or `extern`), the block made then stays.
    fn global_object(&mut self, name: &str, ty: CType, again: bool, is_extern: bool, init: &'a Node<InitDeclarator>) -> Result<()> {
        if init.node.initializer.is_some() && !self.globals.first_initializer(name) {
            return Err(TesseraError::invalid(self.span(init.span), format!("redefinition of `{name}` (two initializers)")));
        }
        if let (true, Some(Symbol::Object { ptr, ty: existing })) = (again, self.globals.get(name).cloned()) {
            if let Some(i) = &init.node.initializer {
                self.at_program_start(|l| l.initialize(&ptr, &existing, i))?;
            }
            return Ok(());
        }
        let storage = if is_extern && init.node.initializer.is_none() { super::memory::Storage::External } else { super::memory::Storage::Static };
        let init_expr = init.node.initializer.as_ref();
        let sym = self.at_program_start(|l| l.declare_object_as(name, Some(name), Owner::Variable, ty, init_expr, storage, init.span))?;
        self.bind_file_scope(name, sym);
        Ok(())
    }

    pub(super) fn static_local(&mut self, name: &str, ty: CType, init: &'a Node<InitDeclarator>) -> Result<()> {
        let key = init.span.start;
        if let Some(sym) = self.globals.static_local(key).cloned() {
            self.bind(name, sym);
            return Ok(());
        }
        let t = match ty {
            CType::Int(t) => t,
            CType::Unsupported(what) => {
                return Err(self.unsupported(init.span, format!("variable `{name}` of type {what}")));
            }
            CType::Ptr(pointee) => {
                // Like a global pointer, visible only here.
                let value = init.node.initializer.as_ref().and_then(|i| scalar_initializer(i)).filter(|e| !super::memory::is_null_constant(&e.node));
                let f = self.function_name();
                let var = self.global_pointer(&format!("{f}::{name}"), Owner::StaticLocal, (*pointee).clone(), false, value.is_none());
                if let Some(e) = value {
                    self.at_program_start(|l| {
                        let v = l.pointer(e, Some(*pointee))?;
                        l.assign_pointer_parts(&var, v);
                        Ok(())
                    })?;
                }
                let sym = Symbol::Ptr(var);
                self.globals.set_static_local(key, sym.clone());
                self.bind(name, sym);
                return Ok(());
            }
            CType::Float(_) | CType::Array(..) | CType::Record(_) => {
                let sym = match ty {
                    CType::Float(_) => Symbol::Opaque { ty },
                    _ => {
                        let i = init.node.initializer.as_ref();
                        let f = self.function_name();
                        let label = format!("{f}::{name}");
                        self.at_program_start(|l| l.declare_object_as(&label, None, Owner::StaticLocal, ty, i, super::memory::Storage::Static, init.span))?
                    }
                };
                self.globals.set_static_local(key, sym.clone());
                self.bind(name, sym);
                return Ok(());
            }
            CType::Function => return Ok(()),
            CType::Void => return Err(self.syntax(init.span, format!("variable `{name}` declared void"))),
        };
        let value = match &init.node.initializer {
            Some(i) => self.constant_initializer(i, t)?,
            None => BigInt::zero(),
        };
        let f = self.function_name();
        let v = self.cfg.declare(name, &f, t);
        self.globals.push_static_init(Action::Assign(v.clone(), crate::term::Term::Int(value)));
        let sym = Symbol::Var { name: v, ty: t };
        self.globals.set_static_local(key, sym.clone());
        self.bind(name, sym);
        Ok(())
    }

    /// A variable-length array `T name[length]` (C11 6.7.6.2): one block of
    /// `length * sizeof(T)` bytes, the length evaluated once, here. A
    /// length that is not positive is undefined behaviour: such a run ends
    /// (as one that accesses memory out of bounds does). Only arrays of
    /// elements of known size: the strides of `int m[n][k]` are not known.
    fn local_vla(&mut self, name: &str, elem: CType, length: &'a Node<Expression>, init: &'a Node<InitDeclarator>) -> Result<()> {
        let Some(elem_size) = self.types.byte_size(&elem).filter(|s| *s > 0) else {
            return Err(self.unsupported(init.span, format!("the variable-length array `{name}` of elements of variable or unknown size")));
        };
        if self.has_effects(length) {
            return Err(self.unsupported(length.span, "the length of a variable-length array with side effects"));
        }
        let n = self.expr(length)?;
        let at = self.span(init.span);
        self.note_approximation(at, crate::ir::Approximation::MemorySafety);
        self.emit_assume(Term::lt(Term::int(0), n.term.clone()));
        let bytes = Term::mul(n.term, Term::int(elem_size as i64));
        let of = Owner::Variable;
        let size = self.pin(&format!("{name}.size"), crate::ir::Origin::PointerPart { of, part: crate::ir::origin::PointerPart::Size, pointer: name.to_string() }, bytes);
        let ty = CType::Array(Box::new(elem), None);
        let base = self.new_block(Some(ty.clone()), &size, false, Some((name, of)), true, super::memory::Contents::Declared)?;
        self.automatic_lifetime(&base);
        let ptr = super::memory::PtrVal { base, off: Term::int(0), size, pointee: ty.clone() };
        self.bind(name, Symbol::Object { ptr, ty });
        Ok(())
    }

    pub(super) fn local_variable(&mut self, name: &str, ty: CType, init: &'a Node<InitDeclarator>) -> Result<()> {
        let t = match ty {
            CType::Int(_) if self.calls.frame().is_some_and(|f| f.takes_address_of(name)) => {
                // Its address is taken: it lives in memory, one cell.
                let sym = self.declare_object(name, ty, init.node.initializer.as_ref(), super::memory::Storage::Automatic, init.span)?;
                self.bind(name, sym);
                return Ok(());
            }
            CType::Int(t) => t,
            CType::Unsupported(what) => {
                return Err(self.unsupported(init.span, format!("variable `{name}` of type {what}")));
            }
            CType::Ptr(_) if self.calls.frame().is_some_and(|f| f.takes_address_of(name)) => {
                // Its address is taken: it lives in memory (loads give any pointer).
                let sym = self.declare_object(name, ty, init.node.initializer.as_ref(), super::memory::Storage::Automatic, init.span)?;
                self.bind(name, sym);
                return Ok(());
            }
            CType::Ptr(pointee) => return self.local_pointer(name, *pointee, init),
            CType::Float(_) => return self.declare_opaque(name, ty, init.node.initializer.as_ref()),
            CType::Array(ref elem, None) if init.node.initializer.is_none() && vla_length(init).is_some() => {
                let elem = (**elem).clone();
                let length = vla_length(init).expect("checked");
                return self.local_vla(name, elem, length, init);
            }
            CType::Array(..) | CType::Record(_) => {
                let sym = self.declare_object(name, ty, init.node.initializer.as_ref(), super::memory::Storage::Automatic, init.span)?;
                self.bind(name, sym);
                return Ok(());
            }
            CType::Function => return Ok(()),
            CType::Void => return Err(self.syntax(init.span, format!("variable `{name}` declared void"))),
        };
        let f = self.function_name();
        match &init.node.initializer {
            Some(i) => {
                let e = scalar_initializer(i).ok_or_else(|| self.unsupported(i.span, "an initializer list for a scalar"))?;
                if let Some(range) = self.nondet_assignment(e, t) {
                    let v = self.cfg.declare(name, &f, t);
                    self.havoc_in(&v, range);
                    self.bind(name, Symbol::Var { name: v, ty: t });
                    return Ok(());
                }
                let address = self.address_given(t, e)?;
                let val = self.expr(e)?;
                let val = self.arith.convert(val, t);
                let v = self.cfg.declare(name, &f, t);
                match address {
                    // `unsigned long x = (unsigned long)p;` (see `memory/addresses.rs`).
                    Some(address) => {
                        let held = self.hold_address(&v, address);
                        self.assign_var(&v, val);
                        self.emit(held);
                    }
                    None => self.assign_var(&v, val),
                }
                self.bind(name, Symbol::Var { name: v, ty: t });
            }
            None => {
                // Uninitialized: any value of the type.
                let v = self.cfg.declare(name, &f, t);
                self.input(&v, t);
                self.bind(name, Symbol::Var { name: v, ty: t });
            }
        }
        Ok(())
    }

    pub(super) fn local_pointer(&mut self, name: &str, pointee: CType, init: &'a Node<InitDeclarator>) -> Result<()> {
        let value = match &init.node.initializer {
            Some(i) => {
                let e = scalar_initializer(i).ok_or_else(|| self.unsupported(i.span, "an initializer list for a pointer"))?;
                Some(self.pointer(e, Some(pointee.clone()))?)
            }
            None => None,
        };
        self.bind_pointer(name, pointee, value);
        Ok(())
    }

    /// `havoc v; assume lo <= v <= hi` (no assume for an unbounded range).
    pub fn havoc_in(&mut self, v: &str, range: Option<(BigInt, BigInt)>) {
        self.emit(Action::Havoc(v.to_string()));
        if let Some((lo, hi)) = range {
            let x = crate::term::Term::var(v);
            self.emit_assume(crate::term::Term::and(vec![
                crate::term::Term::le(crate::term::Term::Int(lo), x.clone()),
                crate::term::Term::le(x, crate::term::Term::Int(hi)),
            ]));
        }
    }
}

/// The expression of `= e` or `= { e }`.
pub(super) fn scalar_initializer(i: &Node<Initializer>) -> Option<&Node<Expression>> {
    match &i.node {
        Initializer::Expression(e) => Some(e),
        Initializer::List(items) if items.len() == 1 && items[0].node.designation.is_empty() => {
            scalar_initializer(&items[0].node.initializer)
        }
        Initializer::List(_) => None,
    }
}


/// The length expression of a declarator `name[length]` whose length is not
/// a constant (the one array derivation of a variable-length array).
fn vla_length(init: &Node<InitDeclarator>) -> Option<&Node<Expression>> {
    let derived = &init.node.declarator.node.derived;
    let [only] = derived.as_slice() else { return None };
    match &only.node {
        DerivedDeclarator::Array(a) => match &a.node.size {
            ArraySize::VariableExpression(e) => Some(e),
            _ => None,
        },
        _ => None,
    }
}
