//! The C types declarations name: declaration specifiers and type names
//! (typedef names, enumerations and their constants, `__typeof__`),
//! declarators (pointers, arrays, functions), function signatures and
//! prototypes, typedefs, and a declaration's layout attributes.
//! [`DeclaratorTyping::declarators`] reads a declaration's declarators for
//! both lowering (`decl.rs`, which makes the objects) and the elaboration
//! pass (`elaborate.rs`), so the two bind the same names to the same types.
//!
//! Array lengths and enumerators are constant expressions (see
//! `constants.rs`, and `constant.rs` for lowering's fall-back).

use crate::c::lower::*;
use crate::c::types::CType;
use crate::error::Result;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::collections::HashMap;
use crate::c::lower::syntax::{attribute_names, declarator_name, is_function_declarator, return_type, type_specifiers};

pub(crate) trait DeclaratorTyping<'a>: super::TypingHost<'a> + Sized {
    /// `int a[] = {1, 2, 3}` has 3 elements; `char s[] = "ab"` has 3.
    fn complete_array_type(&mut self, ty: CType, init: Option<&'a Node<Initializer>>) -> CType {
        let CType::Array(elem, None) = &ty else { return ty };
        let n = match init.map(|i| &i.node) {
            Some(Initializer::List(items)) => Some(self.list_length(items)),
            Some(Initializer::Expression(e)) => match &e.node {
                Expression::StringLiteral(lit) => crate::c::types::string_literal(&lit.node, self.arith().machine()).ok().map(|(_, n)| n as u64 + 1),
                _ => None,
            },
            None => None,
        };
        match n {
            Some(n) => CType::Array(elem.clone(), Some(n)),
            None => ty,
        }
    }

    fn constant_index(&mut self, e: &'a Node<Expression>) -> Option<u64> {
        let v = self.constant(e).ok()?;
        v.constant().and_then(|c| u64::try_from(c.clone()).ok())
    }

    /// The number of elements an initializer list gives an array of unknown
    /// length (designators `[k] =` included).
    fn list_length(&mut self, items: &'a [Node<InitializerListItem>]) -> u64 {
        let mut next = 0u64;
        let mut count = 0u64;
        for item in items {
            if let Some(d) = item.node.designation.first() {
                if let Designator::Index(e) = &d.node {
                    if let Some(k) = self.constant_index(e) {
                        next = k;
                    }
                }
            }
            next += 1;
            count = count.max(next);
        }
        count
    }

    /// A function definition's signature, declared (lowering and the
    /// typing-only reader read definitions alike): a second definition of
    /// a name is refused.
    fn function_definition(&mut self, f: &'a Node<FunctionDefinition>) -> Result<()> {
        let Some(name) = declarator_name(&f.node.declarator.node) else {
            return Err(self.syntax(f.span, "function definition without a name"));
        };
        if self.types().signatures().is_defined(&name) {
            return Err(crate::error::TesseraError::invalid(self.span(f.span), format!("redefinition of function `{name}`")));
        }
        // Functions that run before or after `main` are refused for the
        // whole unit by `c::meaning::outside_main`.
        let attributes = attribute_names(&f.node.specifiers, &f.node.declarator.node);
        let mut info = self.signature_of_definition(f)?;
        info.noreturn = attributes.iter().any(|a| a == "noreturn");
        info.def = Some(f);
        self.types_mut().signatures_mut().declare(name, info);
        Ok(())
    }

    fn signature_of_definition(&mut self, f: &'a Node<FunctionDefinition>) -> Result<FunctionInfo<'a>> {
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
                            ty: types.remove(&n.node.name).unwrap_or(CType::Int(self.arith().machine().int())),
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

    fn parameters(&mut self, fd: &'a FunctionDeclarator) -> Result<Vec<Param>> {
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
    /// [`DeclaratorTyping::type_or_function`]); one that declares an object is
    /// `object`'s, with its name, its declared type and the declaration's
    /// storage class. Lowering ([`Lowerer::declaration`]) and the
    /// elaboration pass (`typing/elaborate.rs`) both read declarations
    /// through this, so the two bind the same names to the same types.
    fn declarators(
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
    fn declaration_alignment(&mut self, specifiers: &'a [Node<DeclarationSpecifier>], d: &'a Declarator) -> Result<(super::LayoutAttributes, Option<u64>)> {
        let mut exts: Vec<&'a Node<Extension>> = Vec::new();
        let mut types = Vec::new();
        for s in specifiers {
            match &s.node {
                DeclarationSpecifier::Extension(e) if !self.types().is_type_attribute(s.span.start) => exts.extend(e.iter()),
                DeclarationSpecifier::TypeSpecifier(t) => types.push(t),
                _ => {}
            }
        }
        exts.extend(d.extensions.iter());
        let attrs = self.layout_attributes(exts)?;
        let inherited = self.specifier_alignment(&types).filter(|_| super::keeps_alignment(d));
        Ok((attrs, inherited))
    }

    fn function_prototype(&mut self, name: &str, base: CType, d: &'a Declarator, noreturn: bool) -> Result<()> {
        if self.types().signatures().is_defined(name) {
            return Ok(());
        }
        // Once declared not to return, every later declaration agrees.
        let noreturn = noreturn || self.types().signatures().function(name).is_some_and(|f| f.noreturn);
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
        self.types_mut().signatures_mut().declare(name.to_string(), info);
        Ok(())
    }

    // ---- types

    /// The type a declarator gives to `base`: prefix pointers apply first,
    /// then the array and function suffixes from the inside out; a
    /// parenthesized declarator (`(*fp)(int)`) applies to the result.
    fn declared_type(&mut self, base: CType, d: &'a Declarator) -> Result<CType> {
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
    fn parameter_type(&mut self, base: CType, d: &'a Declarator) -> Result<CType> {
        Ok(self.declared_type(base, d)?.decay())
    }

    /// The type named by declaration specifiers, and the storage class.
    fn specifiers(&mut self, specs: &'a [Node<DeclarationSpecifier>]) -> Result<(CType, Storage)> {
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

    fn type_name(&mut self, tn: &'a Node<TypeName>) -> Result<CType> {
        let types = type_specifiers(&tn.node.specifiers);
        let base = self.base_type(&types)?;
        Ok(match &tn.node.declarator {
            Some(d) => self.declared_type(base, &d.node)?,
            None => base,
        })
    }

    fn base_type(&mut self, types: &[&'a Node<TypeSpecifier>]) -> Result<CType> {
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
                TypeSpecifier::Float => other = Some(CType::Float(self.arith().machine().sizeof_float)),
                TypeSpecifier::Double => double += 1,
                TypeSpecifier::TS18661Float(f) => other = Some(CType::Float((f.width / 8).max(4) as u32)),
                TypeSpecifier::Complex => other = Some(CType::Unsupported("complex numbers".into())),
                TypeSpecifier::Atomic(_) => other = Some(CType::Unsupported("_Atomic".into())),
                TypeSpecifier::Struct(st) => other = Some(self.record_type(st)?),
                TypeSpecifier::Enum(e) => other = Some(CType::Int(self.enum_type(e)?)),
                TypeSpecifier::TypedefName(id) => {
                    other = Some(match self.types().named(&id.node.name) {
                        Some(super::Named::Typedef(t, _)) => t.clone(),
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
                self.types_mut().saw_floats();
            }
            return Ok(o);
        }
        if double > 0 {
            self.types_mut().saw_floats();
            return Ok(CType::Float(if long > 0 { crate::c::types::LONG_DOUBLE } else { self.arith().machine().sizeof_double }));
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
        Ok(CType::Int(self.arith().machine().int_type(chr > 0, short > 0, long, sign)))
    }

    /// Registers the enumeration constants; the enum's own type is what gcc
    /// picks: `unsigned int` without negative values, else `int`.
    fn enum_type(&mut self, e: &'a Node<EnumType>) -> Result<IntType> {
        let tag = e.node.identifier.as_ref().map(|i| i.node.name.clone());
        // `packed` makes an enumeration as narrow as its values allow, and
        // `mode` picks its size: neither is modelled.
        let attrs = self.layout_attributes(self.types().attributes_at(e.span.start))?;
        if attrs.packed || attrs.unmodelled.is_some() {
            return Err(self.unsupported(e.span, "an enumeration with a `packed` or `mode` attribute (it changes its size)"));
        }
        if e.node.enumerators.is_empty() {
            return Ok(tag.and_then(|t| self.types().enum_tag(&t)).unwrap_or(self.arith().machine().uint()));
        }
        // gcc: an enumerator whose value fits `int` is an `int`; the others
        // have the enumeration's own type, the narrowest of `unsigned int`,
        // `int`, `unsigned long`, `long` that holds every value.
        let m = *self.arith().machine();
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
            let val = self.arith().constant(value.clone(), provisional);
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
            let val = self.arith().constant(value, t);
            self.bind(&name, Symbol::Const(val));
        }
        if let Some(t) = tag {
            self.types_mut().define_enum_tag(t, ty);
        }
        Ok(ty)
    }
}

impl<'a, T: super::TypingHost<'a>> DeclaratorTyping<'a> for T {}

/// The type of an enumeration constant: `int` when its value fits, else
/// the enumeration's type (`None`: not even that holds it).
fn enumerator_type(value: &BigInt, enum_type: IntType, machine: &crate::ir::MachineModel) -> Option<IntType> {
    let int = machine.int();
    if value >= &int.min() && value <= &int.max() {
        Some(int)
    } else if value >= &enum_type.min() && value <= &enum_type.max() {
        Some(enum_type)
    } else {
        None
    }
}
