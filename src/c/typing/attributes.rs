//! gcc's layout attributes: `packed`, `aligned(N)` and the `_Alignas`
//! rewritten into one (see `c::gnu`), on a record, a member, a typedef or
//! a variable; which attributes written after a struct, union or enum body
//! belong to that type; the alignment an aligned typedef carries into the
//! declarations that use it. `records.rs` places members by what these
//! say.

use crate::c::lower::typed::*;
use crate::error::{Result, TesseraError};
use lang_c::ast::*;
use lang_c::span::Node;
use lang_c::visit::Visit;
use std::collections::{HashMap, HashSet};

/// What gcc's attributes (and `_Alignas`) say about a layout.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LayoutAttributes {
    pub packed: bool,
    /// The largest alignment asked for, in bytes.
    pub aligned: Option<u64>,
    /// An attribute that changes the layout or the type in a way Tessera
    /// does not model (`vector_size`, `mode`, ...).
    pub unmodelled: Option<&'static str>,
}

/// Whether a declarator keeps the alignment of its base type: arrays do,
/// pointers and functions have their own.
pub(crate) fn keeps_alignment(d: &Declarator) -> bool {
    let own = d.derived.iter().all(|x| matches!(x.node, DerivedDeclarator::Array(_)));
    own && match &d.kind.node {
        DeclaratorKind::Declarator(inner) => keeps_alignment(&inner.node),
        _ => true,
    }
}

/// The attributes written right after a struct, union or enum body in a
/// list of specifiers (`struct S {...} __attribute__((packed)) s;`),
/// which gcc gives to that type, by the offset of the type's specifier;
/// and the offsets of those attributes.
pub(crate) fn type_attributes<'a>(unit: &'a TranslationUnit, text: &str) -> (HashMap<usize, Vec<&'a Node<Extension>>>, HashSet<usize>) {
    struct Collect<'a, 't> {
        text: &'t str,
        found: HashMap<usize, Vec<&'a Node<Extension>>>,
        offsets: HashSet<usize>,
    }
    impl<'a> Collect<'a, '_> {
        /// `items`: each specifier's span, the type it names (struct, union
        /// or enum) and the attributes it is.
        fn list(&mut self, items: Vec<(lang_c::span::Span, Option<lang_c::span::Span>, Option<&'a Vec<Node<Extension>>>)>) {
            let mut open: Option<(usize, usize)> = None; // (type offset, end of the last part)
            for (span, ty, exts) in items {
                match (ty, exts, open) {
                    (Some(t), _, _) => open = Some((t.start, t.end)),
                    (None, Some(exts), Some((key, end))) if self.text.get(end..span.start).is_some_and(|g| g.trim().is_empty()) => {
                        self.found.entry(key).or_default().extend(exts.iter());
                        self.offsets.extend(exts.iter().map(|e| e.span.start));
                        self.offsets.insert(span.start);
                        open = Some((key, span.end));
                    }
                    _ => open = None,
                }
            }
        }
    }
    fn type_span(t: &Node<TypeSpecifier>) -> Option<lang_c::span::Span> {
        match &t.node {
            TypeSpecifier::Struct(s) => Some(s.span),
            TypeSpecifier::Enum(e) => Some(e.span),
            _ => None,
        }
    }
    fn declaration<'a>(specs: &'a [Node<DeclarationSpecifier>]) -> Vec<(lang_c::span::Span, Option<lang_c::span::Span>, Option<&'a Vec<Node<Extension>>>)> {
        specs
            .iter()
            .map(|s| match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => (s.span, type_span(t), None),
                DeclarationSpecifier::Extension(e) => (s.span, None, Some(e)),
                _ => (s.span, None, None),
            })
            .collect()
    }
    fn qualifiers<'a>(specs: &'a [Node<SpecifierQualifier>]) -> Vec<(lang_c::span::Span, Option<lang_c::span::Span>, Option<&'a Vec<Node<Extension>>>)> {
        specs
            .iter()
            .map(|s| match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => (s.span, type_span(t), None),
                SpecifierQualifier::Extension(e) => (s.span, None, Some(e)),
                _ => (s.span, None, None),
            })
            .collect()
    }
    impl<'a> Visit<'a> for Collect<'a, '_> {
        fn visit_declaration(&mut self, d: &'a Declaration, span: &'a lang_c::span::Span) {
            self.list(declaration(&d.specifiers));
            lang_c::visit::visit_declaration(self, d, span);
        }
        fn visit_function_definition(&mut self, f: &'a FunctionDefinition, span: &'a lang_c::span::Span) {
            self.list(declaration(&f.specifiers));
            lang_c::visit::visit_function_definition(self, f, span);
        }
        fn visit_parameter_declaration(&mut self, p: &'a ParameterDeclaration, span: &'a lang_c::span::Span) {
            self.list(declaration(&p.specifiers));
            lang_c::visit::visit_parameter_declaration(self, p, span);
        }
        fn visit_struct_field(&mut self, f: &'a StructField, span: &'a lang_c::span::Span) {
            self.list(qualifiers(&f.specifiers));
            lang_c::visit::visit_struct_field(self, f, span);
        }
        fn visit_type_name(&mut self, t: &'a TypeName, span: &'a lang_c::span::Span) {
            self.list(qualifiers(&t.specifiers));
            lang_c::visit::visit_type_name(self, t, span);
        }
    }
    let mut c = Collect { text, found: HashMap::new(), offsets: HashSet::new() };
    c.visit_translation_unit(unit);
    (c.found, c.offsets)
}

pub(crate) trait AttributeTyping<'a>: super::TypingHost<'a> + Sized {
    /// Read gcc's layout attributes (`packed`, `aligned`, and the
    /// `_Alignas` rewritten into one, see `c::gnu`).
    fn layout_attributes(&mut self, exts: Vec<&'a Node<Extension>>) -> Result<LayoutAttributes> {
        let mut out = LayoutAttributes::default();
        for e in exts {
            let Extension::Attribute(a) = &e.node else { continue };
            let name = a.name.node.trim_matches('_');
            let asked = match name {
                "packed" => {
                    out.packed = true;
                    continue;
                }
                "aligned" => match a.arguments.first() {
                    None => self.arith().machine().biggest_alignment,
                    Some(arg) => self.alignment_value(arg)?,
                },
                n if n == crate::c::gnu::ALIGNAS_ATTRIBUTE.trim_matches('_') => {
                    let Some(arg) = a.arguments.first() else { continue };
                    match &arg.node {
                        // `_Alignas(type)` is `_Alignas(_Alignof(type))`.
                        Expression::SizeOfTy(t) => {
                            let ty = self.type_name(&t.node.0)?;
                            let own = self.type_name_alignment(&t.node.0);
                            match own.or_else(|| self.types().layout(&ty).map(|(_, al)| al)) {
                                Some(al) => al,
                                None => return Err(self.unsupported(arg.span, "`_Alignas` of an incomplete type")),
                            }
                        }
                        Expression::SizeOfVal(v) => {
                            let v = self.constant(&v.node.0)?;
                            let n = v.constant().and_then(|c| u64::try_from(c.clone()).ok());
                            match n {
                                // `_Alignas(0)` has no effect.
                                Some(0) => continue,
                                Some(n) if n.is_power_of_two() => n,
                                _ => return Err(self.unsupported(arg.span, "an alignment that is not a power of two")),
                            }
                        }
                        _ => return Err(TesseraError::Internal("`_Alignas` rewritten into an unexpected form".into())),
                    }
                }
                "vector_size" | "mode" | "ms_struct" | "scalar_storage_order" => {
                    out.unmodelled = Some(match name {
                        "vector_size" => "vector_size",
                        "mode" => "mode",
                        "ms_struct" => "ms_struct",
                        _ => "scalar_storage_order",
                    });
                    continue;
                }
                _ => continue,
            };
            out.aligned = Some(out.aligned.map_or(asked, |x| x.max(asked)));
        }
        Ok(out)
    }

    /// The value of `aligned(N)`: a power of two.
    fn alignment_value(&mut self, arg: &'a Node<Expression>) -> Result<u64> {
        let v = self.constant(arg)?;
        match v.constant().and_then(|c| u64::try_from(c.clone()).ok()) {
            Some(n) if n.is_power_of_two() => Ok(n),
            _ => Err(self.unsupported(arg.span, "an alignment that is not a power of two")),
        }
    }

    /// The alignment a typedef name among the specifiers carries (see
    /// [`Symbol::Typedef`](crate::c::lower::Symbol::Typedef)).
    fn specifier_alignment(&self, types: &[&'a Node<TypeSpecifier>]) -> Option<u64> {
        types.iter().find_map(|t| match &t.node {
            TypeSpecifier::TypedefName(id) => match self.types().named(&id.node.name) {
                Some(super::Named::Typedef(_, a)) => *a,
                _ => None,
            },
            TypeSpecifier::TypeOf(t) => match &t.node {
                TypeOf::Type(tn) => self.type_name_alignment(tn),
                TypeOf::Expression(_) => None,
            },
            _ => None,
        })
    }

    /// The alignment a type name carries from an aligned typedef.
    fn type_name_alignment(&self, tn: &'a Node<TypeName>) -> Option<u64> {
        let types = crate::c::lower::syntax::type_specifiers(&tn.node.specifiers);
        let own = self.specifier_alignment(&types)?;
        match &tn.node.declarator {
            Some(d) if !keeps_alignment(&d.node) => None,
            _ => Some(own),
        }
    }

}

impl<'a, T: super::TypingHost<'a>> AttributeTyping<'a> for T {}
