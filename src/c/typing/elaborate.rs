//! Elaboration: the C type of every expression of the translation unit,
//! decided in one pass before lowering (see [`elaborate`]).
//!
//! The pass runs on the typing-only reader (`reader.rs`), which reads the
//! file-scope declarations with the typing methods lowering uses (no
//! graph, no variables, no initializer lowering; the state it leaves is
//! handed to lowering, [`Elaborated`]), then walks once every function
//! body lowering may inline — those a run from `main` may reach, and every
//! function used as a value once a call through a pointer is met — with
//! its own scopes: parameters, blocks, `for` declarations, statement
//! expressions, typedefs and enumerations declared in a block, each name
//! bound to its declared type. It decides the type of every expression
//! node (those in type names and in the operands of inline assembly too)
//! and the member every `.`/`->` names. Lowering reads these
//! ([`super::ExprTyping::object_type`], [`super::ExprTyping::member_of`]) and never decides
//! them again, however often it inlines a body.
//!
//! A struct or union first met inside a function body has a number of its
//! own in the pass and another in lowering: records are numbered in the
//! order they are met (the number names an anonymous struct in the model,
//! see `memory/links.rs`), and lowering meets those in the order it
//! inlines bodies, which this pass does not follow. The pass hands on the
//! specifier that made each such record, and lowering reads its types in
//! its own numbers (see `mod.rs`), unless another record has the same tag
//! (tags are not scoped: which one `struct T` names depends on the order
//! bodies are read in).
//!
//! What the pass still leaves to lowering, which decides it the first time
//! it asks and keeps it (see `mod.rs`): a node whose type is an error (an
//! undeclared name), which lowering meets with its own position and
//! context; a type naming a struct lowering has not met yet (a cast to a
//! struct defined in the cast), since meeting it there numbers it, or a
//! struct whose tag another struct has too (see above); the
//! types of a body the pass could not read to its end (lowering rejects
//! the same body when it inlines it).
//!
//! Deciding a type may meet a floating-point type (a cast to `double`),
//! and lowering checks arithmetic for floating point only once it has met
//! one: such nodes are marked ([`ExprTypes`]'s `floating`), and lowering
//! reading one counts as meeting that type, as deciding it did.

use crate::c::lower::typed::*;
use super::ExprTypes;
use crate::c::lower::syntax::declarator_name;
use super::reader::{CallGraph, FileScope, TypingReader};
use crate::c::lower::Symbol;
use crate::c::types::CType;
use crate::error::Result;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// What the pass hands lowering: every expression's type, and the file
/// scope as the reader read it (`None` when it rejected a declaration).
pub(crate) struct Elaborated<'a> {
    pub exprs: ExprTypes,
    pub file_scope: Option<FileScope<'a>>,
}

/// The types of the expressions of `unit`, decided once (see the module's
/// documentation), on the typing state `types` (which has read nothing
/// yet), and the file scope read on the way. A file-scope declaration the
/// reader rejects leaves the table empty and no file scope: lowering
/// reads the file scope and decides every type itself, and stops where it
/// rejects the file.
pub(crate) fn elaborate<'a>(unit: &'a TranslationUnit, types: super::Types<'a>, calls: &mut dyn CallGraph) -> Elaborated<'a> {
    let Some((mut reader, file_scope_records, file_scope)) = read_unit(unit, types, calls) else {
        return Elaborated { exprs: ExprTypes::default(), file_scope: None };
    };
    let mut decided = std::mem::take(&mut reader.types.decided);
    decided.first_body_record = file_scope_records;
    decided.body_records = body_records(&reader.types, file_scope_records);
    Elaborated { exprs: decided, file_scope: Some(file_scope) }
}

/// [`elaborate`], keeping the typing state it read (the records in the
/// pass's numbering, the signatures) for the interpreter (`c::exec`),
/// which reads the table in the pass's own numbers. `None` when a
/// file-scope declaration is rejected.
pub(crate) fn elaborate_keeping<'a>(unit: &'a TranslationUnit, types: super::Types<'a>, calls: &mut dyn CallGraph) -> Option<(ExprTypes, super::Types<'a>)> {
    let (mut reader, _, _) = read_unit(unit, types, calls)?;
    let decided = std::mem::take(&mut reader.types.decided);
    Some((decided, reader.types))
}

/// The pass over `unit`: the file scope, then the bodies; the reader, how
/// many records the file scope made, and the file scope as read. `None`
/// when a file-scope declaration is rejected.
fn read_unit<'a>(unit: &'a TranslationUnit, types: super::Types<'a>, calls: &mut dyn CallGraph) -> Option<(TypingReader<'a>, usize, FileScope<'a>)> {
    let mut reader = TypingReader::new(unit, types);
    // The initializers of globals are read for their types, as lowering
    // evaluates them (calls there are not the bodies' calls).
    let mut read_initializer = |r: &mut TypingReader<'a>, i: &'a Node<Initializer>| {
        let _ = Elaboration { l: r, calls: &NoCalls, through_pointer: &mut false }.elaborate_initializer(i);
    };
    reader.file_scope(unit, calls, &mut read_initializer).ok()?;
    let file_scope = reader.file_scope_read();
    let file_scope_records = reader.types.records.len();
    let mut through_pointer = false;
    let mut pass = Elaboration { l: &mut reader, calls: &*calls, through_pointer: &mut through_pointer };
    // Only the bodies a run from `main` may reach are ever lowered.
    let from_main = pass.reachable(vec!["main".to_string()]);
    pass.bodies(unit, &from_main, &HashSet::new());
    if *pass.through_pointer {
        // Lowering may call every function used as a value through a
        // pointer, also through one the call graph does not see as such
        // (`step()` for a local `void (*step)(void)`: only names used as
        // values count there, see `calls/mod.rs`).
        let values = pass.l.types.signatures().values().to_vec();
        let more = pass.reachable(values);
        pass.bodies(unit, &more, &from_main);
    }
    Some((reader, file_scope_records, file_scope))
}

/// The elaboration pass, on a typing-only reader whose scopes and
/// declarations it uses (see the module's documentation).
struct Elaboration<'p, 'a> {
    l: &'p mut TypingReader<'a>,
    /// What each body calls (see [`CallGraph`]).
    calls: &'p dyn CallGraph,
    /// A call through a pointer has been met (see [`elaborate`]).
    through_pointer: &'p mut bool,
}

/// No calls: initializers at file scope are not bodies.
struct NoCalls;

impl CallGraph for NoCalls {
    fn index_bodies(&mut self, _: &super::Signatures<'_>) -> Vec<String> {
        Vec::new()
    }
    fn reachable(&self, _: &super::Signatures<'_>, _: Vec<String>) -> HashSet<String> {
        HashSet::new()
    }
}

/// The specifier that made each record the pass met in a body (numbered
/// `first` on), for lowering to find it by (see [`ExprTypes`]). `None`
/// for a record whose tag some other record has too: which of them a
/// `struct T` names depends on the order bodies are read in (tags are
/// not scoped here), which differs between the pass and lowering.
fn body_records(types: &super::Types<'_>, first: usize) -> Vec<Option<usize>> {
    let mut makers: HashMap<(bool, &str), usize> = HashMap::new();
    for r in &types.records {
        if let Some(tag) = &r.tag {
            *makers.entry((r.union, tag.as_str())).or_default() += 1;
        }
    }
    let shared = |r: &crate::c::types::Record| r.tag.as_ref().is_some_and(|t| makers.get(&(r.union, t.as_str())).is_some_and(|n| *n > 1));
    types.records.iter().zip(&types.made_by).skip(first).map(|(r, by)| (!shared(r)).then_some(*by)).collect()
}

/// Whether `t` mentions a record numbered `first` or later.
pub(super) fn mentions_record_from(t: &CType, first: usize) -> bool {
    match t {
        CType::Record(id) => *id >= first,
        CType::Ptr(inner) | CType::Array(inner, _) => mentions_record_from(inner, first),
        _ => false,
    }
}

impl<'a> Elaboration<'_, 'a> {
    /// The functions a call of `roots` may reach (see `calls/`).
    fn reachable(&self, roots: Vec<String>) -> HashSet<String> {
        self.calls.reachable(self.l.types.signatures(), roots)
    }

    /// The bodies of the functions `these` not in `done`, in the order of
    /// the file.
    fn bodies(&mut self, unit: &'a TranslationUnit, these: &HashSet<String>, done: &HashSet<String>) {
        for ext in &unit.0 {
            if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
                if declarator_name(&f.node.declarator.node).is_some_and(|n| these.contains(&n) && !done.contains(&n)) {
                    // A body lowering rejects is rejected there: the types decided
                    // before the error are right, the rest are left to lowering.
                    let _ = self.elaborate_function(f);
                }
            }
        }
    }

    /// A function body, with its parameters bound as lowering binds them.
    fn elaborate_function(&mut self, f: &'a Node<FunctionDefinition>) -> Result<()> {
        let Some(name) = declarator_name(&f.node.declarator.node) else { return Ok(()) };
        let info = self.l.signature_of_definition(f)?;
        // A body's names are its own (lowering inlines it: see `names.rs`).
        self.l.types.names.enter_frame(vec![HashMap::new()]);
        for (position, p) in info.params.iter().enumerate() {
            let Some(pname) = &p.name else { continue };
            let ty = if name == "main" { crate::c::lower::calls::entry::main_parameter_type(position, &p.ty) } else { Some(p.ty.clone()) };
            if let Some(ty) = ty {
                self.l.bind(pname, Symbol::Opaque { ty });
            }
        }
        let r = self.elaborate_statement(&f.node.statement);
        self.l.types.names.leave_frame();
        r
    }

    fn elaborate_statement(&mut self, s: &'a Node<Statement>) -> Result<()> {
        self.l.enter(s.span)?;
        let r = self.elaborate_statement_inner(s);
        self.l.leave();
        r
    }

    fn elaborate_statement_inner(&mut self, s: &'a Node<Statement>) -> Result<()> {
        match &s.node {
            Statement::Labeled(l) => {
                match &l.node.label.node {
                    Label::Case(e) => self.elaborate_expression(e)?,
                    Label::CaseRange(r) => {
                        self.elaborate_expression(&r.node.low)?;
                        self.elaborate_expression(&r.node.high)?;
                    }
                    Label::Identifier(_) | Label::Default => {}
                }
                self.elaborate_statement(&l.node.statement)
            }
            Statement::Compound(items) => self.elaborate_block(items),
            Statement::Expression(e) | Statement::Return(e) => e.as_ref().map_or(Ok(()), |e| self.elaborate_expression(e)),
            Statement::If(i) => {
                self.elaborate_expression(&i.node.condition)?;
                self.elaborate_statement(&i.node.then_statement)?;
                i.node.else_statement.as_ref().map_or(Ok(()), |e| self.elaborate_statement(e))
            }
            Statement::Switch(w) => {
                self.elaborate_expression(&w.node.expression)?;
                self.elaborate_statement(&w.node.statement)
            }
            Statement::While(w) => {
                self.elaborate_expression(&w.node.expression)?;
                self.elaborate_statement(&w.node.statement)
            }
            Statement::DoWhile(d) => {
                self.elaborate_statement(&d.node.statement)?;
                self.elaborate_expression(&d.node.expression)
            }
            Statement::For(f) => {
                // Lowering gives a `for` its own scope (see `stmt.rs`).
                self.l.types.names.push_scope();
                let r = self.elaborate_for(f);
                self.l.types.names.pop_scope();
                r
            }
            // Lowering runs the operands of inline assembly (see
            // `calls/library.rs`).
            Statement::Asm(a) => match &a.node {
                AsmStatement::GnuBasic(_) => Ok(()),
                AsmStatement::GnuExtended(x) => x.inputs.iter().chain(&x.outputs).try_for_each(|op| self.elaborate_expression(&op.node.variable_name)),
            },
            Statement::Goto(_) | Statement::Continue | Statement::Break => Ok(()),
        }
    }

    fn elaborate_for(&mut self, f: &'a Node<ForStatement>) -> Result<()> {
        match &f.node.initializer.node {
            ForInitializer::Expression(e) => self.elaborate_expression(e)?,
            ForInitializer::Declaration(d) => self.elaborate_declaration(d)?,
            ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
        }
        for e in [&f.node.condition, &f.node.step].into_iter().flatten() {
            self.elaborate_expression(e)?;
        }
        self.elaborate_statement(&f.node.statement)
    }

    /// A block (or a statement expression's): a scope of its own.
    fn elaborate_block(&mut self, items: &'a [Node<BlockItem>]) -> Result<()> {
        self.l.types.names.push_scope();
        let r = items.iter().try_for_each(|item| match &item.node {
            BlockItem::Declaration(d) => self.elaborate_declaration(d),
            BlockItem::Statement(s) => self.elaborate_statement(s),
            BlockItem::StaticAssert(_) => Ok(()),
        });
        self.l.types.names.pop_scope();
        r
    }

    /// A declaration in a block: each name bound to its declared type (an
    /// array's length completed by its initializer), in scope in its own
    /// initializer as lowering has it (see `decl.rs`).
    fn elaborate_declaration(&mut self, decl: &'a Node<Declaration>) -> Result<()> {
        let through_pointer = &mut *self.through_pointer;
        let calls = self.calls;
        self.l.declarators(decl, |l, init, name, ty, storage| {
            // Lowering reads a variable's attributes (the constant of
            // `aligned(N)`, see `decl.rs`).
            let _ = l.declaration_alignment(&decl.node.specifiers, &init.node.declarator.node);
            let node = init as *const Node<InitDeclarator> as usize;
            if storage.is_extern {
                if let Some(super::Named::Object(t)) = l.types.names.file_scope(&name) {
                    l.types.decided.declared.insert(node, (t.clone(), false, true));
                }
                // The file-scope object of that name.
                let named = l.types.names.file_scope(&name).cloned().unwrap_or(super::Named::Object(ty));
                l.types.names.bind(&name, named);
                return Ok(());
            }
            if ty == CType::Function {
                return Ok(());
            }
            let initializer = init.node.initializer.as_ref();
            if let Some(i) = initializer {
                l.bind(&name, Symbol::Opaque { ty: ty.clone() });
                Elaboration { l: &mut *l, calls, through_pointer: &mut *through_pointer }.elaborate_initializer(i)?;
            }
            let ty = l.complete_array_type(ty, initializer);
            l.types.decided.declared.insert(node, (ty.clone(), storage.is_static, false));
            l.bind(&name, Symbol::Opaque { ty });
            Ok(())
        })
    }

    fn elaborate_initializer(&mut self, i: &'a Node<Initializer>) -> Result<()> {
        match &i.node {
            Initializer::Expression(e) => self.elaborate_expression(e),
            Initializer::List(items) => items.iter().try_for_each(|item| {
                for d in &item.node.designation {
                    match &d.node {
                        Designator::Index(e) => self.elaborate_expression(e)?,
                        Designator::Range(r) => {
                            self.elaborate_expression(&r.node.from)?;
                            self.elaborate_expression(&r.node.to)?;
                        }
                        Designator::Member(_) => {}
                    }
                }
                self.elaborate_initializer(&item.node.initializer)
            }),
        }
    }

    /// An expression and every expression in it. A node whose type is an
    /// error stays undecided (see the module's documentation); its operands
    /// are still decided.
    fn elaborate_expression(&mut self, e: &'a Node<Expression>) -> Result<()> {
        self.l.enter(e.span)?;
        let _ = self.l.object_type(e);
        self.constant_value(e);
        let r = self.elaborate_operands(e);
        self.l.leave();
        r
    }

    /// The expressions in a type name: those of `__typeof__(x)`, and
    /// those its type is decided from (array lengths). A type name that
    /// is an error is met by lowering too, with its own context.
    fn elaborate_type_name(&mut self, tn: &'a Node<TypeName>) -> Result<()> {
        let _ = self.l.type_name(tn);
        tn.node.specifiers.iter().try_for_each(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => match &t.node {
                TypeSpecifier::TypeOf(x) => match &x.node {
                    TypeOf::Expression(e) => self.elaborate_expression(e),
                    TypeOf::Type(inner) => self.elaborate_type_name(inner),
                },
                _ => Ok(()),
            },
            _ => Ok(()),
        })
    }

    /// The value of a `sizeof`, `_Alignof`, `offsetof` or enumeration
    /// constant, as lowering computes it, kept for the interpreter.
    fn constant_value(&mut self, e: &'a Node<Expression>) {
        let value = match &e.node {
            Expression::SizeOfTy(t) => self.l.type_name(&t.node.0).and_then(|ty| self.l.size_value(ty, e.span)).ok().and_then(|v| v.constant().cloned()),
            // Not of a string literal (typing sees it as a pointer;
            // lowering sizes the array).
            Expression::SizeOfVal(v) if matches!(v.node.0.node, Expression::StringLiteral(_)) => None,
            Expression::SizeOfVal(v) => self.l.object_type(&v.node.0).and_then(|ty| self.l.size_value(ty, e.span)).ok().and_then(|v| v.constant().cloned()),
            // Not `_Alignof`: lowering's value reads the alignments
            // declarations were given, which this pass does not keep.
            Expression::OffsetOf(o) => self.l.offsetof(o).ok().map(num_bigint::BigInt::from),
            Expression::Identifier(id) => match self.l.types.named(&id.node.name) {
                Some(super::Named::Const(v)) => v.constant().cloned(),
                _ => None,
            },
            _ => None,
        };
        if let Some(v) = value {
            self.l.types.decided.values.insert(e as *const Node<Expression> as usize, v);
        }
    }

    fn elaborate_operands(&mut self, e: &'a Node<Expression>) -> Result<()> {
        match &e.node {
            Expression::Identifier(_) | Expression::Constant(_) | Expression::StringLiteral(_) => Ok(()),
            // Lowering reads the type names of `sizeof` and `_Alignof`
            // (their array lengths, `__typeof__(x)`, the member of
            // `__alignof__(s.f)`), not only the size.
            Expression::SizeOfTy(t) => self.elaborate_type_name(&t.node.0),
            Expression::AlignOf(a) => self.elaborate_type_name(&a.node.0),
            Expression::GenericSelection(g) => self.elaborate_expression(&g.node.expression),
            Expression::Member(m) => {
                let _ = self.l.member_of(m);
                self.elaborate_expression(&m.node.expression)
            }
            Expression::Call(c) => {
                // As in deciding the call's type (see `mod.rs`).
                match &c.node.callee.node {
                    Expression::Identifier(id) if self.l.types.named(&id.node.name).is_none() => {}
                    _ => *self.through_pointer = true,
                }
                self.elaborate_expression(&c.node.callee)?;
                c.node.arguments.iter().try_for_each(|a| self.elaborate_expression(a))
            }
            Expression::CompoundLiteral(c) => c.node.initializer_list.iter().try_for_each(|item| self.elaborate_initializer(&item.node.initializer)),
            Expression::SizeOfVal(v) => self.elaborate_expression(&v.node.0),
            Expression::UnaryOperator(u) => self.elaborate_expression(&u.node.operand),
            Expression::Cast(c) => self.elaborate_expression(&c.node.expression),
            Expression::BinaryOperator(b) => {
                self.elaborate_expression(&b.node.lhs)?;
                self.elaborate_expression(&b.node.rhs)
            }
            Expression::Conditional(c) => {
                self.elaborate_expression(&c.node.condition)?;
                self.elaborate_expression(&c.node.then_expression)?;
                self.elaborate_expression(&c.node.else_expression)
            }
            Expression::Comma(es) => es.iter().try_for_each(|x| self.elaborate_expression(x)),
            Expression::OffsetOf(o) => o.node.designator.node.members.iter().try_for_each(|m| match &m.node {
                OffsetMember::Index(x) => self.elaborate_expression(x),
                OffsetMember::Member(_) | OffsetMember::IndirectMember(_) => Ok(()),
            }),
            Expression::VaArg(v) => self.elaborate_expression(&v.node.va_list),
            Expression::Statement(s) => match &s.node {
                Statement::Compound(items) => self.elaborate_block(items),
                _ => Ok(()),
            },
        }
    }
}
