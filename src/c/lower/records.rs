//! Structs and unions: their members, and the size and alignment of every
//! type as gcc lays it out for the data model (x86-64 for LP64, i386 for
//! ILP32), so that `sizeof`, member offsets and pointer arithmetic agree
//! with the compiled program.

use super::Lowerer;
use crate::c::types::{size_of, CType, Field, Record};
use crate::error::Result;
use crate::ir::{DataModel, IntType};
use lang_c::ast::*;
use lang_c::span::Node;

/// A member found by name: its offset from the start of the record, type
/// and bit-field position.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub offset: u64,
    pub ty: CType,
    pub bits: Option<(u32, u32)>,
}

fn round_up(n: u64, align: u64) -> u64 {
    if align <= 1 {
        n
    } else {
        n.div_ceil(align) * align
    }
}

impl<'a> Lowerer<'a> {
    /// Size and alignment in bytes, as a member of a struct (`None`: an
    /// incomplete type, a function, or `void`).
    pub fn layout(&self, t: &CType) -> Option<(u64, u64)> {
        let model = self.arith.model;
        // i386 aligns 8-byte scalars (and long double) to 4 inside structs.
        let scalar = |size: u64| -> (u64, u64) {
            match model {
                DataModel::Ilp32 => (size, size.min(4)),
                DataModel::Lp64 => (size, size),
            }
        };
        match t {
            CType::Int(i) => Some(scalar(u64::from(size_of(*i)))),
            CType::Float(16) => Some(match model {
                DataModel::Ilp32 => (12, 4),
                DataModel::Lp64 => (16, 16),
            }),
            CType::Float(n) => Some(scalar(u64::from(*n))),
            CType::Ptr(_) => Some(scalar(u64::from(model.pointer_bytes()))),
            CType::Array(e, n) => {
                let (size, align) = self.layout(e)?;
                Some((size * n.unwrap_or(0), align))
            }
            CType::Record(id) => {
                let r = self.records.get(*id)?;
                r.fields.as_ref().map(|_| (r.size, r.align))
            }
            CType::Void | CType::Function | CType::Unsupported(_) => None,
        }
    }

    /// `sizeof` of a type, if it has one.
    pub fn byte_size(&self, t: &CType) -> Option<u64> {
        self.layout(t).map(|(s, _)| s)
    }

    /// The record named by a struct or union specifier: declared (or
    /// completed) here when it has a member list.
    pub(super) fn record_type(&mut self, st: &'a Node<StructType>) -> Result<CType> {
        let union = st.node.kind.node == StructKind::Union;
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let existing = tag.as_ref().and_then(|t| self.record_tags.get(&(union, t.clone())).copied());
        let Some(decls) = &st.node.declarations else {
            // `struct T` alone: the record of that tag, or a new incomplete one.
            return Ok(CType::Record(match existing {
                Some(id) => id,
                None => self.new_record(tag, union),
            }));
        };
        // A definition: complete a declared-only record, else a new one (a
        // struct defined again in an inner scope shadows the outer one).
        let id = match existing {
            Some(id) if self.records[id].fields.is_none() => id,
            _ => self.new_record(tag, union),
        };
        let mut members: Vec<(Option<String>, CType, Option<u32>, lang_c::span::Span)> = Vec::new();
        for d in decls {
            let StructDeclaration::Field(f) = &d.node else { continue };
            let types = super::decl::type_specifiers(&f.node.specifiers);
            let base = self.base_type(&types)?;
            if f.node.declarators.is_empty() {
                // An anonymous struct or union member.
                members.push((None, base, None, f.span));
                continue;
            }
            for sd in &f.node.declarators {
                let (name, ty) = match &sd.node.declarator {
                    Some(decl) => (super::decl::declarator_name(&decl.node), self.declared_type(base.clone(), &decl.node)?),
                    None => (None, base.clone()),
                };
                let width = match &sd.node.bit_width {
                    Some(w) => {
                        let v = self.constant(w)?;
                        let w = v.constant().and_then(|c| u32::try_from(c.clone()).ok());
                        Some(w.ok_or_else(|| self.unsupported(sd.span, "a bit-field width that is not a small constant"))?)
                    }
                    None => None,
                };
                members.push((name, ty, width, sd.span));
            }
        }
        let mut fields = Vec::new();
        let (mut bit, mut size, mut align) = (0u64, 0u64, 1u64);
        for (name, ty, width, span) in members {
            // A flexible array member (`int a[];`) has size 0 here.
            let Some((fsize, falign)) = self.layout(&ty) else {
                return Err(self.unsupported(span, "a struct member of incomplete type"));
            };
            let start = match width {
                Some(w) => {
                    let unit = fsize * 8;
                    if w == 0 {
                        bit = round_up(bit, falign * 8);
                        continue;
                    }
                    if unit == 0 || u64::from(w) > unit {
                        return Err(self.syntax(span, "a bit-field wider than its type"));
                    }
                    if union {
                        bit = 0;
                    }
                    // gcc: a bit-field never straddles a unit of its type's size.
                    if (bit % unit) + u64::from(w) > unit {
                        bit = round_up(bit, unit);
                    }
                    let unit_start = (bit / unit) * unit;
                    let b = bit;
                    bit += u64::from(w);
                    if name.is_some() {
                        align = align.max(falign);
                    }
                    size = size.max(bit.div_ceil(8));
                    fields.push(Field {
                        name,
                        offset: unit_start / 8,
                        ty,
                        bits: Some(((b - unit_start) as u32, w)),
                    });
                    continue;
                }
                None if union => 0,
                None => round_up(bit.div_ceil(8), falign),
            };
            align = align.max(falign);
            let end = start + fsize;
            size = size.max(end);
            if !union {
                bit = end * 8;
            }
            fields.push(Field { name, offset: start, ty, bits: None });
        }
        let r = &mut self.records[id];
        r.size = round_up(size, align);
        r.align = align;
        r.fields = Some(fields);
        Ok(CType::Record(id))
    }

    fn new_record(&mut self, tag: Option<String>, union: bool) -> usize {
        let id = self.records.len();
        self.records.push(Record { tag: tag.clone(), union, fields: None, size: 0, align: 1 });
        if let Some(t) = tag {
            self.record_tags.insert((union, t), id);
        }
        id
    }

    /// The member `name` of a record (looking into anonymous members).
    pub(crate) fn member(&self, record: usize, name: &str) -> Option<Member> {
        let fields = self.records.get(record)?.fields.as_ref()?;
        for f in fields {
            match (&f.name, &f.ty) {
                (Some(n), _) if n == name => return Some(Member { offset: f.offset, ty: f.ty.clone(), bits: f.bits }),
                (None, CType::Record(inner)) => {
                    if let Some(m) = self.member(*inner, name) {
                        return Some(Member { offset: f.offset + m.offset, ..m });
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The integer scalars of an object of type `t` at `base` bytes: where
    /// an exactly tracked block keeps its cells (bit-fields and the members
    /// of unions excluded), with their paths (`[3]`, `.next`). `false`: more
    /// than `limit`, or a part of unknown size.
    pub(crate) fn scalar_slots(&self, t: &CType, base: u64, path: &str, out: &mut Vec<(u64, IntType, String)>, limit: usize) -> bool {
        if out.len() > limit {
            return false;
        }
        match t {
            CType::Int(i) => {
                out.push((base, *i, path.to_string()));
                out.len() <= limit
            }
            CType::Array(e, Some(n)) => {
                let Some(step) = self.byte_size(e) else { return false };
                (0..*n).all(|k| self.scalar_slots(e, base + k * step, &format!("{path}[{k}]"), out, limit))
            }
            CType::Array(_, None) => false,
            CType::Record(id) => {
                let Some(record) = self.records.get(*id) else { return false };
                let Some(fields) = record.fields.clone() else { return false };
                if record.union {
                    // Members overlap: none is tracked on its own.
                    return true;
                }
                fields.iter().filter(|f| f.bits.is_none()).all(|f| {
                    let name = f.name.as_ref().map_or(String::new(), |n| format!(".{n}"));
                    self.scalar_slots(&f.ty, base + f.offset, &format!("{path}{name}"), out, limit)
                })
            }
            _ => true,
        }
    }
}

impl<'a> Lowerer<'a> {
    /// The member named by `s.f` or `p->f`.
    pub(crate) fn member_of(&mut self, m: &'a Node<MemberExpression>) -> Result<Member> {
        let base = match m.node.operator.node {
            MemberOperator::Direct => self.object_type(&m.node.expression)?,
            MemberOperator::Indirect => match self.type_of(&m.node.expression)? {
                CType::Ptr(p) => *p,
                _ => return Err(self.syntax(m.span, "`->` on something that is not a pointer")),
            },
        };
        let name = &m.node.identifier.node.name;
        let CType::Record(id) = base else {
            return Err(self.syntax(m.span, format!("member `{name}` of something that is not a struct or union")));
        };
        if self.records[id].fields.is_none() {
            return Err(self.syntax(m.span, format!("member `{name}` of an incomplete struct")));
        }
        self.member(id, name).ok_or_else(|| self.syntax(m.span, format!("no member named `{name}`")))
    }

    /// Whether an object of this type may hold a pointer (through which
    /// code outside the model could reach other memory).
    pub(crate) fn holds_pointers(&self, t: &CType) -> bool {
        match t {
            CType::Int(_) | CType::Float(_) | CType::Function => false,
            CType::Array(e, _) => self.holds_pointers(e),
            CType::Record(id) => self.records.get(*id).and_then(|r| r.fields.as_ref()).is_none_or(|fs| fs.iter().any(|f| self.holds_pointers(&f.ty))),
            CType::Ptr(_) | CType::Void | CType::Unsupported(_) => true,
        }
    }

    /// The type of a call through a function pointer (see `calls.rs`).
    pub(crate) fn pointer_call_type(&mut self, c: &'a Node<CallExpression>) -> Result<CType> {
        let targets = self.indirect_targets(c, true)?;
        Ok(self.indirect_return_type(&targets))
    }
}
