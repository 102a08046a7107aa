//! Types and layout, the typed C layer that lowering (`c/lower`) and the
//! interpreter (`c/exec`) both read, so the two semantics see one typing: the static C type of an expression (this file), the
//! types declarations name (`declarators.rs`), what each name in scope
//! denotes for typing (`names.rs`), the functions' signatures
//! (`signatures.rs`), the structs and unions with their layout
//! (`records.rs`), gcc's layout attributes (`attributes.rs`), `sizeof`,
//! `_Alignof` and `offsetof` (`sizes.rs`). The state they keep — the
//! records, enumeration tags, alignments and type attributes, the names in
//! scope, the signatures, and the type decided for each expression — is
//! [`Types`], private to this folder; the rest of the lowering reads it
//! through [`Types`]'s methods and the typing traits.
//!
//! # Typing needs no `Lowerer`
//!
//! The typing methods are written once, as the provided methods of traits
//! over [`TypingHost`] (`host.rs`): [`ExprTyping`] (this file),
//! [`DeclaratorTyping`], [`RecordTyping`]/[`MemberTyping`],
//! [`SizeTyping`], [`AttributeTyping`], [`ConstantTyping`],
//! [`CallTyping`]. A host gives the typing state, binding, the nesting
//! limit, and the value of a constant the evaluator does not decide.
//! Lowering is one host (its call sites read `self.type_of(e)`); the
//! typing-only reader (`reader.rs`), on which the elaboration pass runs,
//! is the other.
//!
//! # The file scope is read once
//!
//! The elaboration pass's reader reads the file scope (typedefs, records,
//! enumerations, signatures, the globals' types) and hands it on
//! ([`FileScope`]): each round of `lower()` (up to 8, until allocation
//! sites, exposure and links settle) starts from a clone of that typing
//! state ([`Types`] is plain data, the expression table shared through
//! an `Rc`) and only makes the globals, their initial values and the
//! bodies index (`Lowerer::file_scope`). How a file-scope name is bound
//! (variable, pointer, object of its own, opaque; its type and length;
//! kept by a redeclaration) is one rule (`globals.rs`), which the reader
//! binds typing's names by and lowering makes its globals by. Only when
//! the reader rejects a file-scope declaration does lowering read the
//! file scope itself (it then stops at its own error).
//!
//! What is still read twice (issue 26, item 2): records met in function
//! bodies are numbered twice. Records are numbered in the order they are
//! met, and the number shows in the printed name of an anonymous struct
//! (`memory/links.rs`); lowering meets body records in the order it
//! inlines bodies (a body inlined from two call sites, a body reached only
//! after another's call), the pass in the order of the file. One
//! numbering would be the pass's (lowering cannot know its order before
//! it inlines), which renumbers the anonymous structs of any program that
//! defines one in a body reached out of file order: an output change. So
//! the pass's numbers stay mapped to lowering's by the specifier that
//! made each record ([`Types::in_lowering_numbers`]), and a record whose
//! tag another record has too is left to lowering (which of the two a
//! `struct T` names depends on the order bodies are read in).
//!
//! # Each expression's type is decided once
//!
//! C types are static: what a name denotes at a node of the syntax tree
//! is fixed by the declarations before it, not by how lowering reached
//! the node. So the type of every expression node, and the member each
//! `.` or `->` names, is decided once for the translation unit, by the
//! elaboration pass before lowering (`elaborate.rs`), and kept in a plain
//! table ([`ExprTypes`]) that every round of lowering reads; a body
//! inlined twice, a block entered again, reads the same types. Even a
//! call through a function pointer has a static type here: its possible
//! targets are the functions the program uses as values (fixed once every
//! declaration is read, before any body is lowered). What the pass leaves
//! (see `elaborate.rs`) lowering decides the first time it asks, from the
//! types of the operands, and keeps in a table of its own. A struct or
//! union defined in a body is one type however often the body is inlined
//! (see `records.rs`), numbered as lowering meets it (see
//! [`Types::in_lowering_numbers`]).

mod attributes;
mod constants;
mod declarators;
mod effects;
pub(crate) use effects::Footprint;
mod elaborate;
mod globals;
mod host;
mod names;
mod reader;
mod records;
mod signatures;
mod sizes;

pub(crate) use elaborate::{elaborate, elaborate_keeping, Elaborated};
pub(crate) use reader::FileScope;
pub(crate) use reader::CallGraph;
pub(crate) use host::TypingHost;

/// The typing traits, for a file that reads types with them.
pub(crate) mod prelude {
    pub(crate) use super::{AttributeTyping, CallTyping, ConstantTyping, DeclaratorTyping, ExprTyping, RecordTyping, SizeTyping, TypingHost};
}
pub(crate) use constants::ConstantTyping;
pub(crate) use declarators::DeclaratorTyping;
pub(crate) use globals::{GlobalBinding, GlobalKind, GlobalTyping};
pub(crate) use records::{MemberTyping, RecordTyping};
pub(crate) use sizes::SizeTyping;
pub(crate) use attributes::AttributeTyping;
pub(crate) use names::{Named, Names};
pub(crate) use signatures::{CallTyping, Signatures};

pub(crate) use attributes::{keeps_alignment, type_attributes, LayoutAttributes};

use crate::c::arith::Arith;
use crate::c::source::SourceMap;
use crate::c::types::{char_literal, integer_literal, string_literal, CType};
use crate::error::Result;
use crate::ir::IntType;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use crate::c::lower::calls::builtins::{operand_evaluation, CompileTimeQuery, OperandEvaluation};
use crate::c::lower::calls::library::NONDET_PREFIX;
use crate::c::lower::operators::cmp_op;
use crate::c::lower::facts::is_compound_assign;

/// What the lowering knows of the program's types. A clone is the state
/// as read so far: each round of lowering starts from the one the file
/// scope leaves (see [`FileScope`]).
#[derive(Clone)]
pub(crate) struct Types<'a> {
    /// Offsets of the `__typeof__` inserted into `__alignof__(...)` (see
    /// [`crate::c::lower::Marks`]).
    alignof_typeof: HashSet<usize>,
    /// The `#pragma pack` value of struct and union definitions, by the
    /// offset of their keyword (see [`crate::c::lower::Marks`]).
    pack: HashMap<usize, u64>,
    /// The attributes written right after a struct, union or enum body (by
    /// the specifier's offset), which gcc applies to that type.
    type_attributes: HashMap<usize, Vec<&'a Node<Extension>>>,
    /// The offsets of those attributes, which are not the declaration's.
    type_attribute_offsets: HashSet<usize>,
    /// The alignment a variable was declared with, by source name, when an
    /// attribute, `_Alignas` or an aligned typedef gave it one (`None`:
    /// none did); more than one: names declared with different ones.
    declared_alignments: HashMap<String, Vec<Option<u64>>>,
    /// The integer type of each enumeration, by tag.
    enum_tags: HashMap<String, IntType>,
    /// Every struct and union seen (see `records.rs`).
    records: Vec<crate::c::types::Record>,
    /// Records by `(is union, tag)`.
    record_tags: HashMap<(bool, String), usize>,
    /// Records by the address of the specifier that defines them.
    defined_records: HashMap<usize, usize>,
    /// The address of the specifier that made each record (by number).
    made_by: Vec<usize>,
    /// The first record each specifier made, by the specifier's address.
    made_by_specifier: HashMap<usize, usize>,
    /// The data model the types are laid out for.
    machine: crate::ir::MachineModel,
    /// A floating-point type or constant has been seen (only then are
    /// arithmetic operands checked for floating point).
    uses_floats: bool,
    /// The types the elaboration pass decided (see `elaborate.rs`).
    elaborated: Rc<ExprTypes>,
    /// The types it left, as lowering decided them.
    decided: ExprTypes,
    /// What each name in scope denotes for typing (see `names.rs`).
    names: Names,
    /// The functions, by name (see `signatures.rs`).
    signatures: Signatures<'a>,
    /// The integer operations and the machine model (constants are folded
    /// through them, see `constants.rs`).
    arith: Arith,
    /// The text the syntax tree was parsed from, and where each offset of
    /// it stands in the user's files (for the messages of errors).
    text: &'a str,
    map: &'a SourceMap,
}

/// The C type decided for each expression node, and the member each
/// `.`/`->` names, by the address of the node (the syntax tree outlives
/// the lowering and is never changed, so an address is one node). See
/// the module's documentation.
#[derive(Clone, Default)]
pub(crate) struct ExprTypes {
    types: HashMap<usize, CType>,
    members: HashMap<usize, records::Member>,
    /// The nodes whose deciding met a floating-point type (a cast to
    /// `double`): reading one counts as seeing that type, as deciding it
    /// did (see [`Types::uses_floats`]).
    floating: HashSet<usize>,
    /// The records the pass met in function bodies, from number
    /// `first_body_record` on, each by the address of the specifier that
    /// made it (`None`: not to be found so, see `elaborate.rs`). Lowering
    /// numbers these in the order it inlines bodies, which the pass does
    /// not follow: it reads such a type with its own numbers, by the same
    /// specifiers (see [`Types::in_lowering_numbers`]).
    first_body_record: usize,
    body_records: Vec<Option<usize>>,
    /// For the interpreter (`c::exec`), which keeps no scopes of types:
    /// the type each declarator declares (by the address of its
    /// `InitDeclarator` node, an array's length completed by its
    /// initializer) and whether it is `static` or `extern` ...
    declared: HashMap<usize, (CType, bool, bool)>,
    /// ... and the value of each `sizeof`, `_Alignof`, `offsetof` and
    /// enumeration constant, by the address of its expression node.
    values: HashMap<usize, num_bigint::BigInt>,
}

impl ExprTypes {
    /// The type decided for the expression node at `node` (as an object,
    /// before arrays decay), in the pass's numbering of records.
    pub(crate) fn type_at(&self, node: usize) -> Option<&CType> {
        self.types.get(&node)
    }
    /// The member a `.`/`->` at `node` names: its offset and type; `None`
    /// for a bit-field (not read exactly by the interpreter).
    pub(crate) fn member_at(&self, node: usize) -> Option<(u64, &CType)> {
        self.members.get(&node).filter(|m| m.bits.is_none()).map(|m| (m.offset, &m.ty))
    }
    /// The type a declarator declares, and whether it is `static` and `extern`.
    pub(crate) fn declared_at(&self, node: usize) -> Option<&(CType, bool, bool)> {
        self.declared.get(&node)
    }
    /// The value of a constant expression node decided by typing.
    pub(crate) fn value_at(&self, node: usize) -> Option<&num_bigint::BigInt> {
        self.values.get(&node)
    }
}

impl<'a> Types<'a> {
    pub fn new(unit: &'a TranslationUnit, text: &'a str, map: &'a SourceMap, arith: Arith, alignof_typeof: HashSet<usize>, pack: HashMap<usize, u64>, elaborated: Rc<ExprTypes>) -> Types<'a> {
        let (type_attributes, type_attribute_offsets) = type_attributes(unit, text);
        Types {
            alignof_typeof,
            pack,
            type_attributes,
            type_attribute_offsets,
            declared_alignments: HashMap::new(),
            enum_tags: HashMap::new(),
            records: Vec::new(),
            record_tags: HashMap::new(),
            defined_records: HashMap::new(),
            made_by: Vec::new(),
            made_by_specifier: HashMap::new(),
            machine: *arith.machine(),
            uses_floats: false,
            elaborated,
            decided: ExprTypes::default(),
            names: Names::default(),
            signatures: Signatures::default(),
            arith,
            text,
            map,
        }
    }
    pub(crate) fn span(&self, s: lang_c::span::Span) -> Option<crate::ir::Span> {
        if s.is_none() {
            return None;
        }
        self.map.span(self.text, s.start)
    }
    /// The source text of a syntax node, on one line (for messages). A
    /// macro expanded across lines leaves the preprocessor's line markers
    /// (`# 3 "a.c" 3 4`) inside an expression: they are not the user's text.
    pub(crate) fn source_text(&self, s: lang_c::span::Span) -> String {
        let text = self.text.get(s.start..s.end).unwrap_or("");
        let one_line: String = text
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect::<Vec<_>>()
            .join(" ");
        if one_line.chars().count() > 60 {
            format!("{}...", one_line.chars().take(57).collect::<String>())
        } else {
            one_line
        }
    }
    /// The integer operations and the machine model.
    pub(crate) fn arith(&self) -> &Arith {
        &self.arith
    }
    /// The record numbered `id` (see [`CType::Record`]).
    pub fn record(&self, id: usize) -> &crate::c::types::Record {
        &self.records[id]
    }
    /// Every struct and union seen so far.
    pub fn records(&self) -> &[crate::c::types::Record] {
        &self.records
    }
    /// Every record, for the tests of the layout.
    pub fn into_records(self) -> Vec<crate::c::types::Record> {
        self.records
    }
    /// The attributes gcc applies to the struct, union or enum type whose
    /// specifier starts at `offset`.
    pub fn attributes_at(&self, offset: usize) -> Vec<&'a Node<Extension>> {
        self.type_attributes.get(&offset).cloned().unwrap_or_default()
    }
    /// The `#pragma pack` value a struct or union definition whose
    /// specifier starts at `offset` is laid out with.
    pub fn pack_at(&self, offset: usize) -> Option<u64> {
        self.pack.get(&offset).copied()
    }
    /// Whether the attributes at `offset` belong to a type (not to the
    /// declaration they are written in).
    pub fn is_type_attribute(&self, offset: usize) -> bool {
        self.type_attribute_offsets.contains(&offset)
    }
    /// Remember that a variable `name` was declared with alignment `a`.
    pub fn declared_alignment(&mut self, name: &str, a: Option<u64>) {
        let seen = self.declared_alignments.entry(name.to_string()).or_default();
        if !seen.contains(&a) {
            seen.push(a);
        }
    }
    pub fn enum_tag(&self, tag: &str) -> Option<IntType> {
        self.enum_tags.get(tag).copied()
    }
    pub fn define_enum_tag(&mut self, tag: String, ty: IntType) {
        self.enum_tags.insert(tag, ty);
    }
    /// A floating-point type or value has been met.
    pub fn saw_floats(&mut self) {
        self.uses_floats = true;
    }
    /// The type decided for the expression node at `node`, if it is.
    fn decided_type(&mut self, node: usize) -> Option<CType> {
        let elaborated = self.elaborated.types.get(&node).and_then(|t| self.in_lowering_numbers(t));
        self.read_decision(node, elaborated, |d| d.types.get(&node).cloned())
    }
    /// The member decided for the member expression at `node`, if it is.
    fn decided_member(&mut self, node: usize) -> Option<records::Member> {
        let elaborated = self.elaborated.members.get(&node).and_then(|m| Some(records::Member { ty: self.in_lowering_numbers(&m.ty)?, ..m.clone() }));
        self.read_decision(node, elaborated, |d| d.members.get(&node).cloned())
    }
    /// What the pass decided for `node` (`elaborated`), else what lowering
    /// decided itself (`lowered`), reading which counts as meeting the
    /// floating-point type deciding it met.
    fn read_decision<T>(&mut self, node: usize, elaborated: Option<T>, lowered: impl FnOnce(&ExprTypes) -> Option<T>) -> Option<T> {
        let (found, floating) = match elaborated {
            Some(x) => (x, self.elaborated.floating.contains(&node)),
            None => (lowered(&self.decided)?, self.decided.floating.contains(&node)),
        };
        self.uses_floats |= floating;
        Some(found)
    }
    /// A type the pass decided, with the records it met in bodies
    /// numbered as lowering numbers them. `None` when lowering has not yet
    /// met the specifier that made one (a cast to a struct defined in the
    /// cast), or when a `struct T` may name another record in lowering
    /// than in the pass (see `elaborate.rs`): lowering decides such a
    /// type itself, meeting the struct as it does.
    fn in_lowering_numbers(&self, t: &CType) -> Option<CType> {
        let first = self.elaborated.first_body_record;
        if self.elaborated.body_records.is_empty() || !elaborate::mentions_record_from(t, first) {
            return Some(t.clone());
        }
        Some(match t {
            CType::Record(id) => {
                let by = self.elaborated.body_records.get(id - first)?.as_ref()?;
                let lowered = *self.made_by_specifier.get(by)?;
                // Its tag names it here too (no record lowering made by a
                // specifier the pass did not read has taken the tag).
                let r = self.records.get(lowered)?;
                if let Some(tag) = &r.tag {
                    if self.record_tags.get(&(r.union, tag.clone())) != Some(&lowered) {
                        return None;
                    }
                }
                CType::Record(lowered)
            }
            CType::Ptr(inner) => CType::Ptr(Box::new(self.in_lowering_numbers(inner)?)),
            CType::Array(inner, n) => CType::Array(Box::new(self.in_lowering_numbers(inner)?), *n),
            other => other.clone(),
        })
    }
    pub fn uses_floats(&self) -> bool {
        self.uses_floats
    }
    /// What `name` denotes for typing, in the scope being read.
    pub fn named(&self, name: &str) -> Option<&Named> {
        self.names.lookup(name)
    }
    /// The functions known by name.
    pub fn signatures(&self) -> &Signatures<'a> {
        &self.signatures
    }
    pub fn signatures_mut(&mut self) -> &mut Signatures<'a> {
        &mut self.signatures
    }
    /// The names in scope, for lowering to keep in step with its symbols.
    pub fn names_mut(&mut self) -> &mut Names {
        &mut self.names
    }
}

pub(crate) trait ExprTyping<'a>: TypingHost<'a> + Sized {
    // ---- static types

    /// The C type of an expression's value, without evaluating it (arrays
    /// and functions decayed to pointers).
    fn type_of(&mut self, e: &'a Node<Expression>) -> Result<CType> {
        Ok(self.object_type(e)?.decay())
    }

    /// Whether the expression has pointer type.
    fn is_pointer(&mut self, e: &'a Node<Expression>) -> Result<bool> {
        Ok(matches!(self.type_of(e)?, CType::Ptr(_)))
    }

    /// The C type of an expression as an object (before arrays decay):
    /// what `sizeof` and `&` see. Decided once (see the module's
    /// documentation); an expression without a type (an undeclared name)
    /// is an error each time it is asked about.
    fn object_type(&mut self, e: &'a Node<Expression>) -> Result<CType> {
        let node = e as *const Node<Expression> as usize;
        if let Some(t) = self.types_mut().decided_type(node) {
            // Debug builds check the table against deciding again here,
            // in lowering's own scope.
            if cfg!(debug_assertions) {
                let again = self.type_of_inner(e);
                debug_assert!(again.as_ref().ok() == Some(&t), "{}: decided as {t:?}, lowering here decides {again:?}", self.source_text(e.span));
            }
            return Ok(t);
        }
        self.enter(e.span)?;
        let r = self.deciding(node, |l| l.type_of_inner(e));
        self.leave();
        if let Ok(t) = &r {
            self.types_mut().decided.types.insert(node, t.clone());
        }
        r
    }

    /// The member named by `s.f` or `p->f`, decided once like the types.
    fn member_of(&mut self, m: &'a Node<MemberExpression>) -> Result<records::Member> {
        let node = m as *const Node<MemberExpression> as usize;
        if let Some(found) = self.types_mut().decided_member(node) {
            return Ok(found);
        }
        let found = self.deciding(node, |l| l.find_member(m))?;
        self.types_mut().decided.members.insert(node, found.clone());
        Ok(found)
    }

    /// Decide what `node` needs with `decide`, noting whether that met a
    /// floating-point type (see [`ExprTypes::floating`]).
    fn deciding<T>(&mut self, node: usize, decide: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let before = std::mem::replace(&mut self.types_mut().uses_floats, false);
        let r = decide(self);
        if self.types().uses_floats {
            self.types_mut().decided.floating.insert(node);
        }
        self.types_mut().uses_floats |= before;
        r
    }

    fn type_of_inner(&mut self, e: &'a Node<Expression>) -> Result<CType> {
        Ok(match &e.node {
            Expression::Identifier(id) => match self.types().named(&id.node.name) {
                Some(Named::Object(ty)) => ty.clone(),
                Some(Named::Const(v)) => CType::Int(v.ty),
                None if self.types().signatures.is_function(&id.node.name) => CType::Function,
                _ => return Err(self.syntax(e.span, format!("undeclared identifier `{}`", id.node.name))),
            },
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => CType::Int(integer_literal(i, self.arith().machine()).map_err(|m| self.unsupported(c.span, m))?.1),
                Constant::Character(s) => CType::Int(char_literal(s, self.arith().machine()).map_err(|m| self.unsupported(c.span, m))?.1),
                Constant::Float(f) => CType::Float(match f.suffix.format {
                    FloatFormat::Float => self.arith().machine().sizeof_float,
                    FloatFormat::LongDouble => crate::c::types::LONG_DOUBLE,
                    _ => self.arith().machine().sizeof_double,
                }),
            },
            Expression::Call(c) => match &c.node.callee.node {
                Expression::Identifier(id) if self.types().named(&id.node.name).is_none() => {
                    let n = id.node.name.as_str();
                    if let Some(f) = self.types().signatures.function(n).filter(|f| f.def.is_some()) {
                        f.ret.clone()
                    } else if let Some(t) = self.types().nondet_type(n) {
                        CType::Int(t)
                    } else if matches!(n.strip_prefix(NONDET_PREFIX), Some("float" | "double" | "long_double")) {
                        CType::Float(self.arith().machine().sizeof_double)
                    } else if n == "__builtin_expect" {
                        CType::Int(self.arith().machine().long())
                    } else if let Some(how) = operand_evaluation(n) {
                        match how {
                            OperandEvaluation::Chosen => {
                                let e = self.chosen_operand(c)?;
                                self.type_of(e)?
                            }
                            OperandEvaluation::Unevaluated(CompileTimeQuery::ObjectSize) => CType::Int(self.arith().machine().size_t()),
                            OperandEvaluation::Unevaluated(_) => CType::Int(self.arith().machine().int()),
                        }
                    } else if crate::c::lower::memory::ALLOCATORS.contains(&n) {
                        CType::Ptr(Box::new(CType::Void))
                    } else if let Some(f) = self.types().signatures.function(n) {
                        f.ret.clone()
                    } else {
                        // C89's implicit declaration `int f()`.
                        CType::Int(self.arith().machine().int())
                    }
                }
                // Through a function pointer: the targets' common return type.
                _ => self.pointer_call_type(c)?,
            },
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::PostIncrement
                | UnaryOperator::PostDecrement
                | UnaryOperator::PreIncrement
                | UnaryOperator::PreDecrement => self.type_of(&u.node.operand)?,
                UnaryOperator::Plus | UnaryOperator::Minus | UnaryOperator::Complement => {
                    match self.type_of(&u.node.operand)? {
                        CType::Int(t) => CType::Int(self.arith().machine().promote(t)),
                        other => other,
                    }
                }
                UnaryOperator::Negate => CType::Int(self.arith().machine().int()),
                UnaryOperator::Address => CType::Ptr(Box::new(self.object_type(&u.node.operand)?)),
                UnaryOperator::Indirection => match self.type_of(&u.node.operand)? {
                    CType::Ptr(p) => *p,
                    other => CType::Unsupported(format!("dereference of a non-pointer ({other:?})")),
                },
            },
            Expression::Cast(c) => self.type_name(&c.node.type_name)?,
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if cmp_op(op).is_some() || matches!(op, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr) {
                    CType::Int(self.arith().machine().int())
                } else if matches!(op, BinaryOperator::Assign) || is_compound_assign(op) {
                    self.type_of(&b.node.lhs)?
                } else if matches!(op, BinaryOperator::ShiftLeft | BinaryOperator::ShiftRight) {
                    match self.type_of(&b.node.lhs)? {
                        CType::Int(t) => CType::Int(self.arith().machine().promote(t)),
                        other => other,
                    }
                } else if matches!(op, BinaryOperator::Index) {
                    // The element, as an object (`a[i]` may be an array).
                    match (self.type_of(&b.node.lhs)?, self.type_of(&b.node.rhs)?) {
                        (CType::Ptr(p), _) | (_, CType::Ptr(p)) => *p,
                        _ => CType::Unsupported("indexing a non-pointer".into()),
                    }
                } else {
                    match (self.type_of(&b.node.lhs)?, self.type_of(&b.node.rhs)?) {
                        (CType::Int(x), CType::Int(y)) => CType::Int(self.arith().machine().usual(x, y)),
                        (CType::Float(x), CType::Float(y)) => CType::Float(x.max(y)),
                        (CType::Float(x), CType::Int(_)) | (CType::Int(_), CType::Float(x)) => CType::Float(x),
                        (CType::Ptr(_), CType::Ptr(_)) if matches!(op, BinaryOperator::Minus) => CType::Int(self.arith().machine().ptrdiff_t()),
                        (CType::Ptr(p), CType::Int(_)) if matches!(op, BinaryOperator::Plus | BinaryOperator::Minus) => CType::Ptr(p),
                        (CType::Int(_), CType::Ptr(p)) if matches!(op, BinaryOperator::Plus) => CType::Ptr(p),
                        (CType::Ptr(_), _) | (_, CType::Ptr(_)) => CType::Unsupported("this operator on pointers".into()),
                        (CType::Unsupported(w), _) | (_, CType::Unsupported(w)) => CType::Unsupported(w),
                        _ => return Err(self.syntax(b.span, "arithmetic on a void value")),
                    }
                }
            }
            Expression::Conditional(c) => {
                match (self.type_of(&c.node.then_expression)?, self.type_of(&c.node.else_expression)?) {
                    (CType::Int(x), CType::Int(y)) => CType::Int(self.arith().machine().usual(x, y)),
                    (CType::Void, _) | (_, CType::Void) => CType::Void,
                    (CType::Unsupported(w), _) | (_, CType::Unsupported(w)) => CType::Unsupported(w),
                    (CType::Float(x), CType::Float(y)) => CType::Float(x.max(y)),
                    (CType::Float(x), _) | (_, CType::Float(x)) => CType::Float(x),
                    // `c ? p : 0` has the pointer's type.
                    (CType::Ptr(p), _) | (_, CType::Ptr(p)) => CType::Ptr(p),
                    (t, _) => t,
                }
            }
            Expression::Comma(es) => match es.last() {
                Some(x) => self.type_of(x)?,
                None => CType::Void,
            },
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => CType::Int(self.arith().machine().size_t()),
            Expression::StringLiteral(s) => {
                let elem = string_literal(&s.node, self.arith().machine()).map(|(t, _)| t).unwrap_or(self.arith().machine().char());
                CType::Ptr(Box::new(CType::Int(elem)))
            }
            // The value of `({ ...; (T *) x; })` (`container_of`) has the
            // cast's type; other last expressions may use the block's own
            // declarations, which are not in scope here. The cast itself
            // is decided where it stands, in the block (which may name `T`
            // anew): what is decided here is kept for the statement
            // expression only.
            Expression::Statement(s) => match last_expression(s) {
                Some(x) if matches!(x.node, Expression::Cast(_)) => self.type_of_inner(x)?.decay(),
                _ => CType::Unsupported("the type of a statement expression".into()),
            },
            Expression::Member(m) => {
                let member = self.member_of(m)?;
                match (member.bits, &member.ty) {
                    // A bit-field's value has its promoted type (C11 6.3.1.1p2).
                    (Some((_, width)), CType::Int(declared)) => match crate::c::meaning::bit_field_promotion(*declared, width, self.arith().machine()) {
                        Some(t) => CType::Int(t),
                        None => CType::Unsupported(format!("a bit-field of {width} bits of type {declared}")),
                    },
                    _ => member.ty,
                }
            }
            Expression::VaArg(v) => self.type_name(&v.node.type_name)?,
            Expression::CompoundLiteral(c) => self.type_name(&c.node.type_name)?,
            _ => CType::Unsupported("this expression".into()),
        })
    }
}

impl<'a, T: TypingHost<'a>> ExprTyping<'a> for T {}

/// The expression whose value a statement expression `({ ...; x; })` has.
pub(super) fn last_expression<'a>(s: &'a Node<Statement>) -> Option<&'a Node<Expression>> {
    let Statement::Compound(items) = &s.node else { return None };
    match &items.last()?.node {
        BlockItem::Statement(st) => match &st.node {
            Statement::Expression(Some(x)) => Some(x),
            _ => None,
        },
        _ => None,
    }
}
