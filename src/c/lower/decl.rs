//! Declarations and types: functions, globals, locals (static too),
//! enumerations, and the C types named by declaration specifiers.

use super::*;
use super::syntax::{attribute_names, declarator_name, is_function_declarator, return_type, type_specifiers};
use crate::ir::origin::Owner;

impl<'a> Lowerer<'a> {
    // ---- declarations

    pub(super) fn function_definition(&mut self, f: &'a Node<FunctionDefinition>) -> Result<()> {
        let Some(name) = declarator_name(&f.node.declarator.node) else {
            return Err(self.syntax(f.span, "function definition without a name"));
        };
        if self.calls.is_defined(&name) {
            return Err(TesseraError::invalid(self.span(f.span), format!("redefinition of function `{name}`")));
        }
        let attributes = attribute_names(&f.node.specifiers, &f.node.declarator.node);
        if attributes.iter().any(|a| a == "constructor" || a == "destructor") {
            return Err(self.unsupported(f.span, format!("function `{name}` runs before or after `main` (`constructor`/`destructor` attribute)")));
        }
        let mut info = self.signature_of_definition(f)?;
        info.noreturn = attributes.iter().any(|a| a == "noreturn");
        info.def = Some(f);
        self.calls.declare(name, info);
        Ok(())
    }

    pub(super) fn signature_of_definition(&mut self, f: &'a Node<FunctionDefinition>) -> Result<FunctionInfo<'a>> {
        let (base, _) = self.specifiers(&f.node.specifiers)?;
        let d = &f.node.declarator.node;
        let ret = return_type(base, d);
        let mut info = FunctionInfo { def: None, ret, params: Vec::new(), unprototyped: false, variadic: false, noreturn: false };
        for derived in &d.derived {
            match &derived.node {
                DerivedDeclarator::Function(fd) => {
                    info.params = self.parameters(&fd.node)?;
                    info.variadic = fd.node.ellipsis == Ellipsis::Some;
                    info.unprototyped = fd.node.parameters.is_empty();
                    break;
                }
                DerivedDeclarator::KRFunction(names) => {
                    // Old-style definition: types come from the declaration list.
                    let mut types: HashMap<String, CType> = HashMap::new();
                    for decl in &f.node.declarations {
                        let (base, _) = self.specifiers(&decl.node.specifiers)?;
                        for id in &decl.node.declarators {
                            if let Some(n) = declarator_name(&id.node.declarator.node) {
                                types.insert(n, self.parameter_type(base.clone(), &id.node.declarator.node)?);
                            }
                        }
                    }
                    info.params = names
                        .iter()
                        .map(|n| Param {
                            name: Some(n.node.name.clone()),
                            // Undeclared K&R parameters default to int.
                            ty: types.remove(&n.node.name).unwrap_or(CType::Int(self.arith.machine().int())),
                        })
                        .collect();
                    info.unprototyped = names.is_empty();
                    break;
                }
                _ => {}
            }
        }
        Ok(info)
    }

    pub(super) fn parameters(&mut self, fd: &'a FunctionDeclarator) -> Result<Vec<Param>> {
        let mut out = Vec::new();
        for p in &fd.parameters {
            let (base, _) = self.specifiers(&p.node.specifiers)?;
            let (name, ty) = match &p.node.declarator {
                Some(d) => (declarator_name(&d.node), self.parameter_type(base, &d.node)?),
                None => (None, base),
            };
            out.push(Param { name, ty });
        }
        // `f(void)` has no parameters.
        if out.len() == 1 && out[0].ty == CType::Void && out[0].name.is_none() {
            out.clear();
        }
        Ok(out)
    }

    /// The declarators of `decl`, in order. One that names a type or
    /// declares a function is bound, or declared, here (see
    /// [`Lowerer::type_or_function`]); one that declares an object is
    /// `object`'s, with its name, its declared type and the declaration's
    /// storage class. Lowering ([`Lowerer::declaration`]) and the
    /// elaboration pass (`typing/elaborate.rs`) both read declarations
    /// through this, so the two bind the same names to the same types.
    pub(super) fn declarators(
        &mut self,
        decl: &'a Node<Declaration>,
        mut object: impl FnMut(&mut Self, &'a Node<InitDeclarator>, String, CType, Storage) -> Result<()>,
    ) -> Result<()> {
        let (base, storage) = self.specifiers(&decl.node.specifiers)?;
        for init in &decl.node.declarators {
            let d = &init.node.declarator.node;
            let Some(name) = declarator_name(d) else { continue };
            if !self.type_or_function(decl, storage, &base, &name, d)? {
                let ty = self.declared_type(base.clone(), d)?;
                object(self, init, name, ty, storage)?;
            }
        }
        Ok(())
    }

    /// A declaration at file scope (`global`) or in a block.
    pub fn declaration(&mut self, decl: &'a Node<Declaration>, global: bool) -> Result<()> {
        self.declarators(decl, |l, init, name, ty, storage| l.object_declarator(decl, init, name, ty, storage, global))
    }

    /// A declarator of `decl` that declares an object named `name` of type
    /// `ty` (see [`Lowerer::declaration`]).
    fn object_declarator(&mut self, decl: &'a Node<Declaration>, init: &'a Node<InitDeclarator>, name: String, ty: CType, storage: Storage, global: bool) -> Result<()> {
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

    /// A declarator of `decl` that names a type or declares a function:
    /// bound, or declared, here (`true`). Any other declares an object,
    /// which is the caller's.
    fn type_or_function(&mut self, decl: &'a Node<Declaration>, storage: Storage, base: &CType, name: &str, d: &'a Declarator) -> Result<bool> {
        if storage.typedef {
            let sym = self.typedef_symbol(&decl.node.specifiers, base.clone(), d)?;
            self.bind(name, sym);
            return Ok(true);
        }
        if is_function_declarator(d) {
            let noreturn = attribute_names(&decl.node.specifiers, d).iter().any(|a| a == "noreturn");
            self.function_prototype(name, base.clone(), d, noreturn)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// What the name a `typedef` declarator declares denotes.
    fn typedef_symbol(&mut self, specifiers: &'a [Node<DeclarationSpecifier>], base: CType, d: &'a Declarator) -> Result<Symbol> {
        let ty = self.declared_type(base, d)?;
        let (attrs, inherited) = self.declaration_alignment(specifiers, d)?;
        let ty = match attrs.unmodelled {
            Some(what) => CType::Unsupported(format!("a type with the attribute `{what}`")),
            None => ty,
        };
        // `aligned` on a typedef gives the type exactly that
        // alignment (gcc lets it lower it too).
        Ok(Symbol::Typedef(ty, attrs.aligned.or(inherited)))
    }

    /// The layout attributes of a declaration (its specifiers' but those
    /// right after a struct body, which are the struct's, and its
    /// declarator's), and the alignment its type name carries from an
    /// aligned typedef.
    pub(super) fn declaration_alignment(&mut self, specifiers: &'a [Node<DeclarationSpecifier>], d: &'a Declarator) -> Result<(super::typing::LayoutAttributes, Option<u64>)> {
        let mut exts: Vec<&'a Node<Extension>> = Vec::new();
        let mut types = Vec::new();
        for s in specifiers {
            match &s.node {
                DeclarationSpecifier::Extension(e) if !self.types.is_type_attribute(s.span.start) => exts.extend(e.iter()),
                DeclarationSpecifier::TypeSpecifier(t) => types.push(t),
                _ => {}
            }
        }
        exts.extend(d.extensions.iter());
        let attrs = self.layout_attributes(exts)?;
        let inherited = self.specifier_alignment(&types).filter(|_| super::typing::keeps_alignment(d));
        Ok((attrs, inherited))
    }

    pub(super) fn function_prototype(&mut self, name: &str, base: CType, d: &'a Declarator, noreturn: bool) -> Result<()> {
        if self.calls.is_defined(name) {
            return Ok(());
        }
        // Once declared not to return, every later declaration agrees.
        let noreturn = noreturn || self.calls.function(name).is_some_and(|f| f.noreturn);
        let ret = return_type(base, d);
        let mut info = FunctionInfo { def: None, ret, params: Vec::new(), unprototyped: true, variadic: false, noreturn };
        for derived in &d.derived {
            if let DerivedDeclarator::Function(fd) = &derived.node {
                info.params = self.parameters(&fd.node)?;
                info.variadic = fd.node.ellipsis == Ellipsis::Some;
                info.unprototyped = fd.node.parameters.is_empty();
                break;
            }
        }
        self.calls.declare(name.to_string(), info);
        Ok(())
    }

    pub(super) fn global_variable(&mut self, name: &str, ty: CType, is_extern: bool, init: &'a Node<InitDeclarator>) -> Result<()> {
        let t = match ty {
            CType::Int(_) if self.mem.is_addressed_global(name) => {
                // Its address is taken somewhere: it lives in memory, one cell.
                return self.global_object(name, ty, is_extern, init);
            }
            CType::Int(t) => t,
            CType::Unsupported(what) => {
                self.globals.insert(name.to_string(), Symbol::Unmodelled { what });
                return Ok(());
            }
            CType::Ptr(_) if self.mem.is_addressed_global(name) => {
                // Its address is taken: it lives in memory (loads give any pointer).
                return self.global_object(name, ty, is_extern, init);
            }
            CType::Ptr(pointee) => {
                // A global pointer starts as NULL unless initialized otherwise.
                let value = init.node.initializer.as_ref().and_then(|i| scalar_initializer(i)).filter(|e| !super::memory::is_null_constant(&e.node));
                if init.node.initializer.is_some() && !self.globals.first_initializer(name) {
                    return Err(TesseraError::invalid(self.span(init.span), format!("redefinition of `{name}` (two initializers)")));
                }
                let var = match self.globals.get(name) {
                    Some(Symbol::Ptr(v)) => v.clone(),
                    _ => {
                        let var = self.global_pointer(name, Owner::Variable, (*pointee).clone(), is_extern && init.node.initializer.is_none(), value.is_none());
                        self.globals.insert(name.to_string(), Symbol::Ptr(var.clone()));
                        var
                    }
                };
                if let Some(e) = value {
                    // Declared earlier without a value: the initializer decides.
                    let mut parts = vec![var.off.clone()];
                    parts.extend(var.whole.iter().flat_map(|(b, s)| [b.clone(), s.clone()]));
                    self.globals.forget_inits(&parts);
                    self.at_program_start(|l| {
                        let v = l.pointer(e, Some(*pointee))?;
                        l.assign_pointer_parts(&var, v);
                        Ok(())
                    })?;
                }
                return Ok(());
            }
            CType::Float(_) => {
                if !matches!(self.globals.get(name), Some(Symbol::Opaque { .. })) {
                    self.globals.insert(name.to_string(), Symbol::Opaque { ty });
                }
                if let Some(i) = &init.node.initializer {
                    self.at_program_start(|l| l.effect_of_initializer(i))?;
                }
                return Ok(());
            }
            CType::Array(..) | CType::Record(_) => return self.global_object(name, ty, is_extern, init),
            CType::Function => return Ok(()),
            CType::Void => return Err(self.syntax(init.span, format!("variable `{name}` declared void"))),
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
            if matches!(self.globals.get(name), Some(Symbol::Var { .. })) {
                return Err(self.unsupported(init.span, format!("a second definition of `{name}` with a non-constant initializer")));
            }
            let v = self.cfg.declare(name, crate::c::cfg::GLOBAL, t);
            self.globals.push_init(v.clone(), t, None);
            self.globals.insert(name.to_string(), Symbol::Var { name: v.clone(), ty: t });
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
        if let Some(Symbol::Var { name: existing, .. }) = self.globals.get(name) {
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
        self.globals.insert(name.to_string(), Symbol::Var { name: v, ty: t });
        Ok(())
    }

    /// A global array, struct or address-taken scalar: a block of its own.
    fn global_object(&mut self, name: &str, ty: CType, is_extern: bool, init: &'a Node<InitDeclarator>) -> Result<()> {
        if init.node.initializer.is_some() && !self.globals.first_initializer(name) {
            return Err(TesseraError::invalid(self.span(init.span), format!("redefinition of `{name}` (two initializers)")));
        }
        // A tentative definition or `extern` declaration seen before.
        if let Some(Symbol::Object { ptr, ty: existing }) = self.globals.get(name).cloned() {
            if let Some(i) = &init.node.initializer {
                self.at_program_start(|l| l.initialize(&ptr, &existing, i))?;
            }
            return Ok(());
        }
        let storage = if is_extern && init.node.initializer.is_none() { super::memory::Storage::External } else { super::memory::Storage::Static };
        let init_expr = init.node.initializer.as_ref();
        let complete = self.types.byte_size(&ty).is_some() || init_expr.is_some();
        if !complete {
            // `extern int a[];`, `extern struct T x;` of a struct never
            // completed: defined outside the program, contents unknown.
            self.globals.insert(name.to_string(), Symbol::Opaque { ty });
            return Ok(());
        }
        let sym = self.at_program_start(|l| l.declare_object_as(name, Some(name), Owner::Variable, ty, init_expr, storage, init.span))?;
        self.globals.insert(name.to_string(), sym);
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

    // ---- types

    /// The type a declarator gives to `base`: prefix pointers apply first,
    /// then the array and function suffixes from the inside out; a
    /// parenthesized declarator (`(*fp)(int)`) applies to the result.
    pub(super) fn declared_type(&mut self, base: CType, d: &'a Declarator) -> Result<CType> {
        let mut t = base;
        let mut suffixes = Vec::new();
        for x in &d.derived {
            match &x.node {
                DerivedDeclarator::Pointer(_) => t = CType::Ptr(Box::new(t)),
                other => suffixes.push((other, x.span)),
            }
        }
        for (x, span) in suffixes.into_iter().rev() {
            t = match x {
                DerivedDeclarator::Array(a) => {
                    let len = match &a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => self.array_length(e)?,
                        ArraySize::Unknown | ArraySize::VariableUnknown => None,
                    };
                    CType::Array(Box::new(t), len)
                }
                DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) => CType::Function,
                DerivedDeclarator::Block(_) => return Err(self.unsupported(span, "a block (Apple extension)")),
                DerivedDeclarator::Pointer(_) => t,
            };
        }
        match &d.kind.node {
            DeclaratorKind::Declarator(inner) => self.declared_type(t, &inner.node),
            _ => Ok(t),
        }
    }

    /// The type of a parameter: an array parameter is a pointer, a function
    /// parameter a function pointer (C11 6.7.6.3).
    pub(super) fn parameter_type(&mut self, base: CType, d: &'a Declarator) -> Result<CType> {
        Ok(self.declared_type(base, d)?.decay())
    }

    /// The type named by declaration specifiers, and the storage class.
    pub fn specifiers(&mut self, specs: &'a [Node<DeclarationSpecifier>]) -> Result<(CType, Storage)> {
        let mut storage = Storage::default();
        let mut types = Vec::new();
        for sp in specs {
            match &sp.node {
                DeclarationSpecifier::StorageClass(c) => match c.node {
                    StorageClassSpecifier::Typedef => storage.typedef = true,
                    StorageClassSpecifier::Extern => storage.is_extern = true,
                    StorageClassSpecifier::Static => storage.is_static = true,
                    StorageClassSpecifier::ThreadLocal => {
                        return Err(self.unsupported(c.span, "thread-local storage"));
                    }
                    StorageClassSpecifier::Auto | StorageClassSpecifier::Register => {}
                },
                DeclarationSpecifier::TypeSpecifier(t) => types.push(t),
                _ => {}
            }
        }
        let ty = self.base_type(&types)?;
        Ok((ty, storage))
    }

    pub fn type_name(&mut self, tn: &'a Node<TypeName>) -> Result<CType> {
        let types = type_specifiers(&tn.node.specifiers);
        let base = self.base_type(&types)?;
        Ok(match &tn.node.declarator {
            Some(d) => self.declared_type(base, &d.node)?,
            None => base,
        })
    }

    pub(super) fn base_type(&mut self, types: &[&'a Node<TypeSpecifier>]) -> Result<CType> {
        let (mut void, mut chr, mut short, mut long, mut signed, mut unsigned, mut boolean, mut double) = (0, 0, 0, 0, 0, 0, 0, 0);
        let mut other: Option<CType> = None;
        for t in types {
            match &t.node {
                TypeSpecifier::Void => void += 1,
                TypeSpecifier::Char => chr += 1,
                TypeSpecifier::Short => short += 1,
                TypeSpecifier::Int => {}
                TypeSpecifier::Signed => signed += 1,
                TypeSpecifier::Long => long += 1,
                TypeSpecifier::Unsigned => unsigned += 1,
                TypeSpecifier::Bool => boolean += 1,
                TypeSpecifier::Float => other = Some(CType::Float(self.arith.machine().sizeof_float)),
                TypeSpecifier::Double => double += 1,
                TypeSpecifier::TS18661Float(f) => other = Some(CType::Float((f.width / 8).max(4) as u32)),
                TypeSpecifier::Complex => other = Some(CType::Unsupported("complex numbers".into())),
                TypeSpecifier::Atomic(_) => other = Some(CType::Unsupported("_Atomic".into())),
                TypeSpecifier::Struct(st) => other = Some(self.record_type(st)?),
                TypeSpecifier::Enum(e) => other = Some(CType::Int(self.enum_type(e)?)),
                TypeSpecifier::TypedefName(id) => {
                    other = Some(match self.lookup(&id.node.name) {
                        Some(Symbol::Typedef(t, _)) => t.clone(),
                        // gcc's own type behind `va_list`: values of it are not modelled.
                        // The variable arguments are not modelled (see `va_arg`).
                        _ if id.node.name == "__builtin_va_list" => CType::Ptr(Box::new(CType::Void)),
                        _ => return Err(self.syntax(id.span, format!("unknown type name `{}`", id.node.name))),
                    })
                }
                TypeSpecifier::TypeOf(t) => {
                    other = Some(match &t.node {
                        TypeOf::Expression(e) => self.object_type(e)?,
                        TypeOf::Type(tn) => self.type_name(tn)?,
                    })
                }
            }
        }
        if let Some(o) = other {
            if matches!(o, CType::Float(_)) {
                self.types.saw_floats();
            }
            return Ok(o);
        }
        if double > 0 {
            self.types.saw_floats();
            return Ok(CType::Float(if long > 0 { crate::c::types::LONG_DOUBLE } else { self.arith.machine().sizeof_double }));
        }
        if void > 0 {
            return Ok(CType::Void);
        }
        if boolean > 0 {
            return Ok(CType::Int(IntType::Bool));
        }
        // `int`, `signed`, `unsigned`, or no type specifier at all (implicit
        // int of old C) is an `int`; plain `char` is the machine's.
        let sign = if unsigned > 0 {
            Some(false)
        } else if signed > 0 {
            Some(true)
        } else {
            None
        };
        Ok(CType::Int(self.arith.machine().int_type(chr > 0, short > 0, long, sign)))
    }

    /// Registers the enumeration constants; the enum's own type is what gcc
    /// picks: `unsigned int` without negative values, else `int`.
    pub(super) fn enum_type(&mut self, e: &'a Node<EnumType>) -> Result<IntType> {
        let tag = e.node.identifier.as_ref().map(|i| i.node.name.clone());
        // `packed` makes an enumeration as narrow as its values allow, and
        // `mode` picks its size: neither is modelled.
        let attrs = self.layout_attributes(self.types.attributes_at(e.span.start))?;
        if attrs.packed || attrs.unmodelled.is_some() {
            return Err(self.unsupported(e.span, "an enumeration with a `packed` or `mode` attribute (it changes its size)"));
        }
        if e.node.enumerators.is_empty() {
            return Ok(tag.and_then(|t| self.types.enum_tag(&t)).unwrap_or(self.arith.machine().uint()));
        }
        // gcc: an enumerator whose value fits `int` is an `int`; the others
        // have the enumeration's own type, the narrowest of `unsigned int`,
        // `int`, `unsigned long`, `long` that holds every value.
        let m = *self.arith.machine();
        let mut next = BigInt::zero();
        let mut values: Vec<(String, BigInt)> = Vec::new();
        for en in &e.node.enumerators {
            let value = match &en.node.expression {
                Some(x) => {
                    let v = self.constant(x)?;
                    match v.constant() {
                        Some(c) => c.clone(),
                        None => return Err(self.unsupported(x.span, "a non-constant enumerator value")),
                    }
                }
                None => next.clone(),
            };
            next = &value + BigInt::one();
            let provisional = enumerator_type(&value, if value < BigInt::zero() { m.long_long() } else { m.ulong_long() }, &m);
            let Some(provisional) = provisional else {
                return Err(self.unsupported(e.span, format!("enumerator value {value} does not fit in 64 bits")));
            };
            let val = self.arith.constant(value.clone(), provisional);
            self.bind(&en.node.identifier.node.name, Symbol::Const(val));
            values.push((en.node.identifier.node.name.clone(), value));
        }
        let lo = values.iter().map(|(_, v)| v.clone()).min().unwrap_or_default();
        let hi = values.iter().map(|(_, v)| v.clone()).max().unwrap_or_default();
        let fits = |t: IntType| lo >= t.min() && hi <= t.max();
        let ty = if lo >= BigInt::zero() && fits(m.uint()) {
            m.uint()
        } else if fits(m.int()) {
            m.int()
        } else if lo >= BigInt::zero() && fits(m.ulong_long()) {
            m.ulong_long()
        } else if fits(m.long_long()) {
            m.long_long()
        } else {
            return Err(self.unsupported(e.span, "an enumeration whose values do not fit in 64 bits"));
        };
        for (name, value) in values {
            let t = enumerator_type(&value, ty, &m).unwrap_or(ty);
            let val = self.arith.constant(value, t);
            self.bind(&name, Symbol::Const(val));
        }
        if let Some(t) = tag {
            self.types.define_enum_tag(t, ty);
        }
        Ok(ty)
    }
}

/// The type of an enumeration constant: `int` when its value fits, else
/// the enumeration's type (`None`: not even that holds it).
pub(super) fn enumerator_type(value: &BigInt, enum_type: IntType, machine: &crate::ir::MachineModel) -> Option<IntType> {
    let int = machine.int();
    if value >= &int.min() && value <= &int.max() {
        Some(int)
    } else if value >= &enum_type.min() && value <= &enum_type.max() {
        Some(enum_type)
    } else {
        None
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

