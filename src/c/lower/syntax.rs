//! Questions about lang-c's syntax tree that need no lowering state:
//! names and shapes of declarators, specifiers and attributes. Declarations
//! (`decl.rs`) and struct layouts (`c/typing/records.rs`) both ask them.

use crate::c::types::CType;
use lang_c::ast::*;
use lang_c::span::Node;

pub(crate) fn declarator_name(d: &Declarator) -> Option<String> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// A declarator that declares a function (not a pointer to one).
pub(crate) fn is_function_declarator(d: &Declarator) -> bool {
    let direct = matches!(d.kind.node, DeclaratorKind::Identifier(_));
    direct && d.derived.iter().any(|x| matches!(x.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)))
}

/// Return type of a function declarator: its derived parts other than the
/// function itself (a pointer among them makes it a pointer).
pub(crate) fn return_type(base: CType, d: &Declarator) -> CType {
    let others: Vec<&Node<DerivedDeclarator>> = d
        .derived
        .iter()
        .filter(|x| !matches!(x.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)))
        .collect();
    if others.iter().all(|x| matches!(x.node, DerivedDeclarator::Pointer(_))) {
        others.iter().fold(base, |t, _| CType::Ptr(Box::new(t)))
    } else {
        CType::Unsupported("a function returning an array or function".into())
    }
}

/// The type specifiers among a type name's or a member's qualifiers.
pub(crate) fn type_specifiers(specifiers: &[Node<SpecifierQualifier>]) -> Vec<&Node<TypeSpecifier>> {
    specifiers
        .iter()
        .filter_map(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// The GNU attributes of a declaration (names without their `__`
/// decoration), and `noreturn` for C11's `_Noreturn`.
pub(crate) fn attribute_names(specifiers: &[Node<DeclarationSpecifier>], d: &Declarator) -> Vec<String> {
    fn add(names: &mut Vec<String>, exts: &[Node<Extension>]) {
        for e in exts {
            if let Extension::Attribute(a) = &e.node {
                names.push(a.name.node.trim_matches('_').to_string());
            }
        }
    }
    let mut names = Vec::new();
    for s in specifiers {
        match &s.node {
            DeclarationSpecifier::Extension(exts) => add(&mut names, exts),
            DeclarationSpecifier::Function(f) if f.node == FunctionSpecifier::Noreturn => names.push("noreturn".to_string()),
            _ => {}
        }
    }
    add(&mut names, &d.extensions);
    names
}
