//! What `sizeof`, `_Alignof` (`__alignof__`) and `offsetof` give: sizes and
//! alignments of the types as gcc lays them out for the data model
//! (`records.rs`), and the variable-length array lengths C evaluates.

use crate::c::lower::typed::*;
use crate::c::arith::Val;
use crate::c::types::CType;
use crate::error::Result;
use lang_c::ast::*;
use lang_c::span::Node;
use num_bigint::BigInt;

pub(crate) trait SizeTyping<'a>: super::TypingHost<'a> + Sized {
    /// Whether a type name holds an array length with side effects
    /// (`int[x--]`): C evaluates the length of a variable-length array type
    /// where the type name appears.
    fn type_name_has_effects(&self, t: &TypeName) -> bool {
        fn declarator_lengths<'b>(d: &'b Declarator, out: &mut Vec<&'b Node<Expression>>) {
            if let DeclaratorKind::Declarator(inner) = &d.kind.node {
                declarator_lengths(&inner.node, out);
            }
            for x in &d.derived {
                if let DerivedDeclarator::Array(a) = &x.node {
                    if let ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) = &a.node.size {
                        out.push(e);
                    }
                }
            }
        }
        let mut lengths = Vec::new();
        if let Some(d) = &t.declarator {
            declarator_lengths(&d.node, &mut lengths);
        }
        lengths.into_iter().any(|e| self.has_effects(e))
    }

    /// `_Alignof(type)`, `__alignof__(type)` and `__alignof__(expr)` as gcc
    /// computes them (the expression form arrives wrapped in a `__typeof__`
    /// the rewrite inserted, see `c::gnu`).
    fn alignof(&mut self, a: &'a Node<AlignOf>) -> Result<u64> {
        let tn: &'a Node<TypeName> = &a.node.0;
        // gcc: C11's `_Alignof(type)` is the alignment the type is sure to
        // have (on i386 4 for `long long` and `double`), `__alignof__` the
        // one it prefers (8 there).
        let preferred = !self.types().text.get(a.span.start..).is_some_and(|t| t.starts_with("_Alignof"));
        let inserted = match (tn.node.specifiers.as_slice(), &tn.node.declarator) {
            ([s], None) => match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => match &t.node {
                    TypeSpecifier::TypeOf(x) if [s.span.start, t.span.start, x.span.start].iter().any(|o| self.types().alignof_typeof.contains(o)) => Some(x),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        match inserted.map(|x| &x.node) {
            Some(TypeOf::Expression(e)) => {
                // lang-c reads `__typeof__(name)` as an expression even
                // when `name` is a typedef.
                if let Expression::Identifier(id) = &e.node {
                    if let Some(super::Named::Typedef(ty, own)) = self.types().named(&id.node.name).cloned() {
                        return self.alignof_ctype(&ty, own, preferred, e.span);
                    }
                }
                self.alignof_expression(e)
            }
            Some(TypeOf::Type(t)) => self.alignof_type(t, preferred),
            None => self.alignof_type(tn, preferred),
        }
    }

    fn alignof_type(&mut self, tn: &'a Node<TypeName>, preferred: bool) -> Result<u64> {
        let ty = self.type_name(tn)?;
        let own = self.type_name_alignment(tn);
        self.alignof_ctype(&ty, own, preferred, tn.span)
    }

    /// The alignment of a type, or `own`, the one its typedef gave it.
    fn alignof_ctype(&mut self, ty: &CType, own: Option<u64>, preferred: bool, span: lang_c::span::Span) -> Result<u64> {
        if let Some(own) = own {
            return Ok(own);
        }
        let align = match ty {
            // gcc: `__alignof__(void)` and of a function are 1.
            CType::Void | CType::Function => Some(1),
            CType::Unsupported(what) => return Err(self.unsupported(span, format!("the alignment of {what}"))),
            t if preferred => self.types().preferred_alignment(t),
            t => self.types().layout(t).map(|(_, al)| al),
        };
        align.ok_or_else(|| self.unsupported(span, "the alignment of an incomplete type"))
    }

    /// gcc's `__alignof__(expr)`: a variable's declared alignment, a
    /// member's alignment as placed, else its type's preferred alignment.
    fn alignof_expression(&mut self, e: &'a Node<Expression>) -> Result<u64> {
        let declared = match &e.node {
            Expression::Identifier(id) => match self.types().declared_alignments.get(&id.node.name).map(Vec::as_slice) {
                Some([one]) => *one,
                Some([]) | None => None,
                Some(_) => return Err(self.unsupported(e.span, format!("`__alignof__` of `{}`, declared with different alignments", id.node.name))),
            },
            Expression::Member(m) => {
                let member = self.member_of(m)?;
                if member.bits.is_some() {
                    return Err(self.syntax(e.span, "`__alignof__` of a bit-field"));
                }
                return Ok(member.align);
            }
            _ => None,
        };
        let ty = self.object_type(e)?;
        let own = match &ty {
            CType::Void | CType::Function => Some(1),
            CType::Unsupported(what) => return Err(self.unsupported(e.span, format!("the alignment of {what}"))),
            t => self.types().preferred_alignment(t),
        };
        let own = own.ok_or_else(|| self.unsupported(e.span, "the alignment of an incomplete type"))?;
        Ok(declared.map_or(own, |d| d.max(own)))
    }

    /// `offsetof(type, member.designator[3])`, with constant indices.
    fn offsetof(&mut self, o: &'a Node<OffsetOfExpression>) -> Result<u64> {
        let mut ty = self.type_name(&o.node.type_name)?;
        let d = &o.node.designator.node;
        let mut offset = 0u64;
        let step = |l: &mut Self, ty: &mut CType, name: &str, span: lang_c::span::Span| -> Result<u64> {
            let CType::Record(id) = ty.clone() else {
                return Err(l.syntax(span, format!("`offsetof` member `{name}` of something that is not a struct or union")));
            };
            let m = l.types().member(id, name).ok_or_else(|| l.syntax(span, format!("no member named `{name}`")))?;
            if m.bits.is_some() {
                return Err(l.syntax(span, "`offsetof` of a bit-field"));
            }
            *ty = m.ty;
            Ok(m.offset)
        };
        offset += step(self, &mut ty, &d.base.node.name, d.base.span)?;
        for m in &d.members {
            match &m.node {
                OffsetMember::Member(id) => offset += step(self, &mut ty, &id.node.name, id.span)?,
                OffsetMember::Index(i) => {
                    let CType::Array(elem, _) = ty.clone() else {
                        return Err(self.syntax(m.span, "`offsetof` index into something that is not an array"));
                    };
                    let k = self.constant(i)?;
                    let k = k.constant().and_then(|c| u64::try_from(c.clone()).ok());
                    let size = self.types().byte_size(&elem);
                    let (Some(k), Some(size)) = (k, size) else {
                        return Err(self.unsupported(m.span, "`offsetof` with this index"));
                    };
                    offset += k * size;
                    ty = *elem;
                }
                OffsetMember::IndirectMember(_) => return Err(self.unsupported(m.span, "`->` in `offsetof`")),
            }
        }
        Ok(offset)
    }

    fn size_value(&mut self, ty: CType, s: lang_c::span::Span) -> Result<Val> {
        let bytes = match &ty {
            // gcc: `sizeof(void)` and `sizeof` of a function are 1.
            CType::Void | CType::Function => Some(1),
            CType::Unsupported(what) => return Err(self.unsupported(s, format!("sizeof of {what}"))),
            t => self.types().byte_size(t),
        };
        match bytes {
            Some(n) => Ok(self.arith().constant(BigInt::from(n), self.arith().machine().size_t())),
            None => Err(self.unsupported(s, "sizeof of an incomplete or variable-length type")),
        }
    }
}

impl<'a, T: super::TypingHost<'a>> SizeTyping<'a> for T {}
