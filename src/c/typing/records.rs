//! Structs and unions: their members, and the size and alignment of every
//! type as gcc lays it out for the data model (x86-64 for LP64, i386 for
//! ILP32), so that `sizeof`, member offsets and pointer arithmetic agree
//! with the compiled program.

use crate::c::lower::typed::*;
use super::attributes::{keeps_alignment, LayoutAttributes};
use super::Types;
use crate::c::types::{size_of, CType, Field, Record, LONG_DOUBLE};
use crate::error::Result;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;

/// A member found by name: its offset from the start of the record, type
/// and bit-field position.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub offset: u64,
    pub ty: CType,
    pub bits: Option<(u32, u32)>,
    /// See [`Field::align`].
    pub align: u64,
}

fn round_up(n: u64, align: u64) -> u64 {
    if align <= 1 {
        n
    } else {
        n.div_ceil(align) * align
    }
}

impl Types<'_> {
    /// Size and alignment in bytes, as a member of a struct (`None`: an
    /// incomplete type, a function, or `void`).
    pub fn layout(&self, t: &CType) -> Option<(u64, u64)> {
        let machine = self.machine;
        let scalar = |size: u64| machine.scalar_layout(size);
        match t {
            CType::Int(i) => Some(scalar(u64::from(size_of(*i)))),
            // `long double` (whatever its size on the machine).
            CType::Float(LONG_DOUBLE) => Some(machine.long_double_layout()),
            CType::Float(n) => Some(scalar(u64::from(*n))),
            CType::Ptr(_) => Some(scalar(u64::from(machine.pointer_bytes()))),
            // An array of unknown length (`extern int a[];`, a
            // variable-length array) has no size known here: a size of 0
            // made every access to a VLA out of bounds, so that its runs
            // were dropped (only a flexible array member counts 0, see
            // `place_members`).
            CType::Array(e, n) => {
                let (size, align) = self.layout(e)?;
                Some((size * (*n)?, align))
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

    /// Where the members of a struct or union go, as gcc places them for
    /// the data model: the fields, and the record's size and alignment.
    /// `record` are the attributes of the record itself, `pack` the
    /// `#pragma pack` value in force at its definition.
    fn place_members(&self, members: Vec<MemberDecl>, union: bool, record: LayoutAttributes, pack: Option<u64>) -> std::result::Result<(Vec<Field>, u64, u64), Refused> {
        let mut fields = Vec::new();
        let (mut bit, mut size, mut align) = (0u64, 0u64, 1u64);
        for m in members {
            let MemberDecl { name, ty, type_align, width, attrs, span } = m;
            if let Some(what) = attrs.unmodelled {
                return Err(Refused::Unsupported(span, format!("the attribute `{what}` on a member (it changes the layout)")));
            }
            // A flexible array member (`int a[];`) has size 0 here.
            let flexible = match &ty {
                CType::Array(e, None) => self.layout(e).map(|(_, align)| (0, align)),
                _ => None,
            };
            let Some((fsize, field_align)) = flexible.or_else(|| self.layout(&ty)) else {
                return Err(Refused::Unsupported(span, "a struct member of incomplete type".into()));
            };
            // gcc: the alignment of the member's type as a member (i386
            // lowers 8-byte scalars to 4), unless an attribute set it.
            let type_align = type_align.unwrap_or(field_align);
            let packed = record.packed || attrs.packed;
            let placed_align;
            let start = match width {
                Some(w) => {
                    if attrs.aligned.is_some() {
                        return Err(Refused::Unsupported(span, "an alignment attribute on a bit-field".into()));
                    }
                    let unit = fsize * 8;
                    if w == 0 {
                        // Aligns what follows to its type, packed or not,
                        // whatever `#pragma pack` says; no effect on the
                        // record's own alignment.
                        bit = round_up(bit, type_align * 8);
                        continue;
                    }
                    if unit == 0 || u64::from(w) > unit {
                        return Err(Refused::Syntax(span, "a bit-field wider than its type".into()));
                    }
                    if union {
                        bit = 0;
                    }
                    // gcc (PCC_BITFIELD_TYPE_MATTERS): a bit-field may not span
                    // more units of its type's alignment than its type has;
                    // else it starts at the next such unit. Packed ones, and
                    // all under `#pragma pack`, go at the next bit.
                    let ta = type_align * 8;
                    if !packed && pack.is_none() && ((bit % ta) + u64::from(w)).div_ceil(ta) > unit / ta {
                        bit = round_up(bit, ta);
                    }
                    let b = bit;
                    bit += u64::from(w);
                    // A named one aligns the record to its type, to at most
                    // the pragma's value (packed or not); packed: not at all.
                    match (name.is_some(), pack) {
                        (true, Some(p)) => align = align.max(type_align.min(p)),
                        (true, None) if !packed => align = align.max(type_align),
                        _ => {}
                    }
                    size = size.max(bit.div_ceil(8));
                    // Bit-fields are not tracked (their values are opaque):
                    // the position is kept within the unit of the type's size
                    // holding it, or from its first byte when it spans two.
                    let unit_start = (b / unit) * unit;
                    let (offset, first) = if b - unit_start + u64::from(w) <= unit { (unit_start / 8, b - unit_start) } else { (b / 8, b % 8) };
                    fields.push(Field { name, offset, ty, bits: Some((first as u32, w)), align: 1 });
                    continue;
                }
                None => {
                    // gcc: `aligned` on a member only raises its alignment,
                    // except in a packed record, where it is the alignment.
                    let falign = if packed {
                        attrs.aligned.unwrap_or(1)
                    } else {
                        type_align.max(attrs.aligned.unwrap_or(1))
                    };
                    let falign = pack.map_or(falign, |p| falign.min(p));
                    align = align.max(falign);
                    placed_align = falign;
                    if union {
                        0
                    } else {
                        round_up(bit.div_ceil(8), falign)
                    }
                }
            };
            let end = start + fsize;
            size = size.max(end);
            if !union {
                bit = end * 8;
            }
            fields.push(Field { name, offset: start, ty, bits: None, align: placed_align });
        }
        // `aligned` on the record raises its alignment (it never lowers it).
        if let Some(a) = record.aligned {
            align = align.max(a);
        }
        Ok((fields, round_up(size, align), align))
    }

    /// The member `name` of a record (looking into anonymous members).
    pub(crate) fn member(&self, record: usize, name: &str) -> Option<Member> {
        let fields = self.records.get(record)?.fields.as_ref()?;
        for f in fields {
            match (&f.name, &f.ty) {
                (Some(n), _) if n == name => return Some(Member { offset: f.offset, ty: f.ty.clone(), bits: f.bits, align: f.align }),
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

    /// gcc's `TYPE_ALIGN`, what `__alignof__(type)` and `__alignof__` of an
    /// object give: on i386 8-byte scalars keep their 8 here (only members
    /// and `_Alignof` get 4).
    pub(crate) fn preferred_alignment(&self, t: &CType) -> Option<u64> {
        match t {
            CType::Int(_) | CType::Float(8) => self.byte_size(t).map(|s| s.max(1)),
            CType::Array(e, _) => self.preferred_alignment(e),
            _ => self.layout(t).map(|(_, a)| a),
        }
    }

}

pub(crate) trait RecordTyping<'a>: super::TypingHost<'a> + Sized {
    /// The record named by a struct or union specifier: declared (or
    /// completed) here when it has a member list.
    fn record_type(&mut self, st: &'a Node<StructType>) -> Result<CType> {
        let union = st.node.kind.node == StructKind::Union;
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let existing = tag.as_ref().and_then(|t| self.types().record_tags.get(&(union, t.clone())).copied());
        let Some(decls) = &st.node.declarations else {
            // `struct T` alone: the record of that tag, or a new incomplete one.
            return Ok(CType::Record(match existing {
                Some(id) => id,
                None => self.new_record(tag, union, st),
            }));
        };
        // A definition read before (a body inlined again, a block entered
        // again) is the same type: its record again, its tag in force again.
        let definition = st as *const Node<StructType> as usize;
        if let Some(&id) = self.types().defined_records.get(&definition) {
            if let Some(t) = tag {
                self.types_mut().record_tags.insert((union, t), id);
            }
            return Ok(CType::Record(id));
        }
        // A definition: complete a declared-only record, else a new one (a
        // struct defined again in an inner scope shadows the outer one).
        let id = match existing {
            Some(id) if self.types().records[id].fields.is_none() => id,
            _ => self.new_record(tag, union, st),
        };
        let record = self.layout_attributes(self.types().type_attributes.get(&st.span.start).cloned().unwrap_or_default())?;
        // `#pragma pack(N)` (gcc's `maximum_field_alignment`): no member is
        // placed at more than N, bit-fields go at the next bit.
        let pack = self.types().pack_at(st.span.start);
        if let Some(what) = record.unmodelled {
            return Err(self.unsupported(st.span, format!("the attribute `{what}` on a struct or union (it changes the layout)")));
        }
        let mut members: Vec<MemberDecl> = Vec::new();
        for d in decls {
            let StructDeclaration::Field(f) = &d.node else { continue };
            let types = crate::c::lower::syntax::type_specifiers(&f.node.specifiers);
            let base = self.base_type(&types)?;
            let base_align = self.specifier_alignment(&types);
            // Attributes among the member's specifiers apply to each of its
            // declarators (those right after a nested body to that type).
            let shared: Vec<&'a Node<Extension>> = f
                .node
                .specifiers
                .iter()
                .filter_map(|s| match &s.node {
                    SpecifierQualifier::Extension(exts) => Some(exts),
                    _ => None,
                })
                .flatten()
                .filter(|e| !self.types().type_attribute_offsets.contains(&e.span.start))
                .collect();
            if f.node.declarators.is_empty() {
                // An anonymous struct or union member.
                let attrs = self.layout_attributes(shared.clone())?;
                members.push(MemberDecl { name: None, ty: base, type_align: base_align, width: None, attrs, span: f.span });
                continue;
            }
            for sd in &f.node.declarators {
                let mut exts = shared.clone();
                let (name, ty, type_align) = match &sd.node.declarator {
                    Some(decl) => {
                        exts.extend(decl.node.extensions.iter());
                        let keeps = keeps_alignment(&decl.node);
                        (crate::c::lower::syntax::declarator_name(&decl.node), self.declared_type(base.clone(), &decl.node)?, base_align.filter(|_| keeps))
                    }
                    None => (None, base.clone(), base_align),
                };
                let width = match &sd.node.bit_width {
                    Some(w) => {
                        let v = self.constant(w)?;
                        let w = v.constant().and_then(|c| u32::try_from(c.clone()).ok());
                        Some(w.ok_or_else(|| self.unsupported(sd.span, "a bit-field width that is not a small constant"))?)
                    }
                    None => None,
                };
                let attrs = self.layout_attributes(exts)?;
                members.push(MemberDecl { name, ty, type_align, width, attrs, span: sd.span });
            }
        }
        let (fields, size, align) = self.types().place_members(members, union, record, pack).map_err(|refused| match refused {
            Refused::Unsupported(at, what) => self.unsupported(at, what),
            Refused::Syntax(at, what) => self.syntax(at, what),
        })?;
        let r = &mut self.types_mut().records[id];
        r.size = size;
        r.align = align;
        r.fields = Some(fields);
        self.types_mut().defined_records.insert(definition, id);
        Ok(CType::Record(id))
    }

    /// A new record, made by the specifier `by`.
    fn new_record(&mut self, tag: Option<String>, union: bool, by: &'a Node<StructType>) -> usize {
        let id = self.types().records.len();
        self.types_mut().records.push(Record { tag: tag.clone(), union, fields: None, size: 0, align: 1 });
        let by = by as *const Node<StructType> as usize;
        self.types_mut().made_by.push(by);
        self.types_mut().made_by_specifier.entry(by).or_insert(id);
        if let Some(t) = tag {
            self.types_mut().record_tags.insert((union, t), id);
        }
        id
    }
}

impl<'a, T: super::TypingHost<'a>> RecordTyping<'a> for T {}

pub(crate) trait MemberTyping<'a>: super::TypingHost<'a> + Sized {
    /// The member named by `s.f` or `p->f` (see [`super::ExprTyping::member_of`]).
    fn find_member(&mut self, m: &'a Node<MemberExpression>) -> Result<Member> {
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
        if self.types().records[id].fields.is_none() {
            return Err(self.syntax(m.span, format!("member `{name}` of an incomplete struct")));
        }
        self.types().member(id, name).ok_or_else(|| self.syntax(m.span, format!("no member named `{name}`")))
    }
}

impl<'a, T: super::TypingHost<'a>> MemberTyping<'a> for T {}

/// A member as declared, before it is placed.
struct MemberDecl {
    name: Option<String>,
    ty: CType,
    /// The alignment its type got from an `aligned` attribute on a typedef.
    type_align: Option<u64>,
    width: Option<u32>,
    attrs: LayoutAttributes,
    span: lang_c::span::Span,
}

/// Why a record cannot be laid out: where, and what (see
/// [`Types::place_members`]).
enum Refused {
    Unsupported(lang_c::span::Span, String),
    Syntax(lang_c::span::Span, String),
}

#[cfg(test)]
mod tests {
    use crate::ir::DataModel;

    /// `(tag, sizeof, _Alignof, [(member, offsetof)])` of every tagged
    /// record of `text`.
    fn layouts(text: &str, model: DataModel) -> Vec<(String, u64, u64, Vec<(String, u64)>)> {
        let text = format!("{text}\nint main(void) {{ return 0; }}\n");
        let records = crate::c::lower::record_layouts(&text, crate::ir::MachineModel::of(model)).unwrap_or_else(|e| panic!("{e}"));
        records
            .into_iter()
            .filter_map(|r| {
                let fields = r.fields?.into_iter().filter_map(|f| Some((f.name?, f.offset))).collect();
                Some((r.tag?, r.size, r.align, fields))
            })
            .collect()
    }

    /// Checks `(tag, size, align, offsets of the named members)` against
    /// the numbers gcc 12 printed for the same declarations (`gcc -m64`,
    /// `gcc -m32`).
    fn check(text: &str, model: DataModel, expected: &[(&str, u64, u64, &[(&str, u64)])]) {
        let got = layouts(text, model);
        for (tag, size, align, offsets) in expected {
            let Some((_, s, a, fields)) = got.iter().find(|(t, ..)| t == tag) else { panic!("no struct {tag}") };
            assert_eq!((*s, *a), (*size, *align), "{model:?} struct {tag}: (sizeof, _Alignof)");
            for (m, off) in *offsets {
                let o = fields.iter().find(|(n, _)| n == m).map(|(_, o)| *o);
                assert_eq!(o, Some(*off), "{model:?} offsetof(struct {tag}, {m})");
            }
        }
    }

    const ATTRIBUTES: &str = r#"
typedef int aint __attribute__((aligned(8)));
typedef int a1 __attribute__((aligned(1)));
typedef struct { char c[40]; } T32 __attribute__((aligned(32)));
struct S1 { char c; aint x; };
struct S2 { char c; a1 x; };
struct S3 { char c; int x __attribute__((aligned(8))); char d; };
struct __attribute__((aligned(16))) S4 { char c; };
struct S5 { char c; } __attribute__((aligned(16)));
struct S6 { char c; int x; } __attribute__((packed));
struct S7 { char c; int x __attribute__((packed)); char d; };
struct S8 { char c; _Alignas(8) int x; };
struct S9 { char a; int b:3; int c:30; } __attribute__((packed));
struct S11 { char c; int x __attribute__((aligned(8))); } __attribute__((packed));
struct S13 { char c; T32 t; };
struct S14 { char c; int x; } __attribute__((packed, aligned(4)));
struct L { char c; int x; } __attribute__((aligned(2)));
struct N { char c; int x __attribute__((aligned(2))); } __attribute__((packed));
struct O { char c; int x __attribute__((aligned)); };
struct Q { char a; int b:4; char c; } __attribute__((packed));
struct R { char a; struct { char c; int x; } __attribute__((packed)) in; };
struct A16 { char c; } __attribute__((aligned(16)));
struct K { char c; struct A16 s; } __attribute__((packed));
struct T1 { char c; __attribute__((aligned(8))) int x; };
union U { char c; int x; } __attribute__((packed));
union V { char c[5]; int x __attribute__((aligned(8))); };
struct H { char a; int :0; char b; } __attribute__((packed));
"#;

    #[test]
    fn attributes_lay_out_as_gcc_does_on_both_targets() {
        // The same numbers under -m64 and -m32: no 8-byte scalar in these.
        for model in [DataModel::Lp64, DataModel::Ilp32] {
            check(
                ATTRIBUTES,
                model,
                &[
                    ("S1", 16, 8, &[("x", 8)]),
                    ("S2", 5, 1, &[("x", 1)]),
                    ("S3", 16, 8, &[("x", 8), ("d", 12)]),
                    ("S4", 16, 16, &[]),
                    ("S5", 16, 16, &[]),
                    ("S6", 5, 1, &[("x", 1)]),
                    ("S7", 6, 1, &[("x", 1), ("d", 5)]),
                    ("S8", 16, 8, &[("x", 8)]),
                    ("S9", 6, 1, &[]),
                    ("S11", 16, 8, &[("x", 8)]),
                    ("S13", 96, 32, &[("t", 32)]),
                    ("S14", 8, 4, &[("x", 1)]),
                    ("L", 8, 4, &[]),
                    ("N", 6, 2, &[("x", 2)]),
                    ("O", 32, 16, &[("x", 16)]),
                    ("Q", 3, 1, &[("c", 2)]),
                    ("R", 6, 1, &[("in", 1)]),
                    ("K", 17, 1, &[("s", 1)]),
                    ("T1", 16, 8, &[("x", 8)]),
                    ("U", 4, 1, &[]),
                    ("V", 8, 8, &[]),
                    ("H", 5, 1, &[("b", 4)]),
                ],
            );
        }
    }

    const EIGHT_BYTE: &str = r#"
typedef long long ll8 __attribute__((aligned(8)));
struct D { char c; long long x __attribute__((aligned(4))); };
struct D2 { char c; long long x __attribute__((aligned(2))); };
struct F { char c; ll8 x; };
struct G { char a; long long b:60; };
struct J { char a; long long :0; char b; };
struct P { char a; long long b:40; };
struct Z2 { char c; long long b:33; } __attribute__((packed));
struct Z4 { char c; int x; long long l; double d; long double ld; void *p; };
"#;

    #[test]
    fn eight_byte_scalars_differ_between_x86_64_and_i386() {
        check(
            EIGHT_BYTE,
            DataModel::Lp64,
            &[
                ("D", 16, 8, &[("x", 8)]),
                ("D2", 16, 8, &[("x", 8)]),
                ("F", 16, 8, &[("x", 8)]),
                ("G", 16, 8, &[]),
                ("J", 9, 1, &[("b", 8)]),
                ("P", 8, 8, &[]),
                ("Z2", 6, 1, &[]),
                ("Z4", 64, 16, &[("l", 8), ("d", 16), ("ld", 32), ("p", 48)]),
            ],
        );
        check(
            EIGHT_BYTE,
            DataModel::Ilp32,
            &[
                ("D", 12, 4, &[("x", 4)]),
                ("D2", 12, 4, &[("x", 4)]),
                // An aligned typedef is not lowered to 4 in a struct.
                ("F", 16, 8, &[("x", 8)]),
                // i386 places `long long` bit-fields in 4-byte units.
                ("G", 12, 4, &[]),
                ("J", 5, 1, &[("b", 4)]),
                ("P", 8, 4, &[]),
                ("Z2", 6, 1, &[]),
                ("Z4", 40, 4, &[("l", 8), ("d", 16), ("ld", 24), ("p", 36)]),
            ],
        );
    }

    const PRAGMA_PACK: &str = r#"
#pragma pack(2)
struct A { char c; int x; long long l; double d; };
struct C { char a; int b:30; int c:30; };
struct D { char a; long long b:40; char c; };
struct E { char c; int x __attribute__((aligned(8))); };
struct F { char c; int x; } __attribute__((aligned(16)));
struct G { char c; struct F f; };
struct H { char a; int :0; char b; };
struct B4 { char a; int b:4 __attribute__((packed)); };
struct B5 { char c; int x:4; } __attribute__((packed));
struct B7 { char c; long long :0; char d; };
union U { char c; int x; long long l; };
#pragma pack(push, 1)
struct J { char c; int x; };
#pragma pack(push, 4)
struct K { char c; long long x; short s; };
#pragma pack(pop)
struct S { char c; struct { char d; int y; } in; int z; };
#pragma pack(pop)
struct M { char c; int x; };
#pragma pack()
struct N { char c; int x; };
#pragma pack(1)
struct O { char c;
#pragma pack(4)
  int x; };
#pragma pack(8)
struct P { char c; long long x; long double ld; };
struct B13 { char c; double d; };
#pragma pack(16)
struct C1 { char a; int x:30; char b; };
struct Q { char c; long double ld; };
#pragma pack()
struct C7 { char a; int x:30; char b; };
#pragma pack(1)
struct T { char c; int b:3; int d:30; char e; } __attribute__((aligned(4)));
#pragma pack()
"#;

    #[test]
    fn pragma_pack_lays_out_as_gcc_does() {
        // The same under -m64 and -m32.
        let same: &[(&str, u64, u64, &[(&str, u64)])] = &[
            ("A", 22, 2, &[("x", 2), ("l", 6), ("d", 14)]),
            // Bit-fields go at the next bit, whatever the pack value.
            ("C", 10, 2, &[]),
            ("D", 8, 2, &[("c", 6)]),
            ("E", 6, 2, &[("x", 2)]),
            ("F", 16, 16, &[]),
            ("G", 18, 2, &[("f", 2)]),
            ("H", 5, 1, &[("b", 4)]),
            ("B4", 2, 2, &[]),
            ("B5", 2, 2, &[]),
            ("U", 8, 2, &[]),
            ("J", 5, 1, &[]),
            ("K", 16, 4, &[("x", 4), ("s", 12)]),
            ("S", 10, 1, &[("in", 1), ("z", 6)]),
            ("M", 6, 2, &[]),
            ("N", 8, 4, &[]),
            // The value at the closing brace counts.
            ("O", 8, 4, &[("x", 4)]),
            ("C1", 8, 4, &[("b", 5)]),
            ("C7", 12, 4, &[("b", 8)]),
            ("T", 8, 4, &[("e", 6)]),
        ];
        check(PRAGMA_PACK, DataModel::Lp64, same);
        check(PRAGMA_PACK, DataModel::Ilp32, same);
        check(
            PRAGMA_PACK,
            DataModel::Lp64,
            &[("B7", 9, 1, &[("d", 8)]), ("P", 32, 8, &[("x", 8), ("ld", 16)]), ("B13", 16, 8, &[("d", 8)]), ("Q", 32, 16, &[("ld", 16)])],
        );
        check(
            PRAGMA_PACK,
            DataModel::Ilp32,
            &[("B7", 5, 1, &[("d", 4)]), ("P", 24, 4, &[("x", 4), ("ld", 12)]), ("B13", 12, 4, &[("d", 4)]), ("Q", 16, 4, &[("ld", 4)])],
        );
    }
}
