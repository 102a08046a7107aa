//! Elaboration: the C type of every expression of the translation unit,
//! decided in one pass before lowering (see [`elaborate`]).
//!
//! The pass reads the file-scope declarations as lowering does (with
//! lowering's own declaration methods, on a lowerer of its own whose model
//! is thrown away: array lengths and enumeration constants are evaluated
//! exactly as lowering evaluates them), then walks once every function
//! body a run from `main` may reach, with its own scopes — parameters,
//! blocks, `for` declarations, statement expressions, typedefs and
//! enumerations declared in a block — binding each name to its declared
//! type, and decides the type of every expression node and the member
//! every `.`/`->` names. Lowering reads
//! these ([`Lowerer::object_type`], [`Lowerer::member_of`]) and never
//! decides them again, however often it inlines a body.
//!
//! What the pass leaves to lowering: the types that mention a struct or
//! union first met inside a function body. Records are numbered in the
//! order lowering meets them (the number names an anonymous struct in the
//! model, see `memory/links.rs`), and lowering meets those in the order it
//! inlines bodies, which this pass does not follow; lowering decides such
//! types the first time it asks and keeps them (see `mod.rs`). A node
//! whose type is an error (an undeclared name) is left too: lowering meets
//! the same error, with its own position and context. So is any body the
//! call graph from `main` misses, should lowering inline one.
//!
//! Deciding a type may meet a floating-point type (a cast to `double`),
//! and lowering checks arithmetic for floating point only once it has met
//! one: such nodes are marked ([`ExprTypes`]'s `floating`), and lowering
//! reading one counts as meeting that type, as deciding it did.

use super::ExprTypes;
use crate::c::lower::syntax::declarator_name;
use crate::c::lower::{Frame, Lowerer, Symbol};
use crate::c::types::CType;
use crate::error::Result;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// The types of the expressions of `unit`, decided once (see the module's
/// documentation). `l` is a lowerer that has lowered nothing yet; it is
/// used up. A file-scope declaration lowering rejects leaves the table
/// empty: lowering stops at the same place.
pub(crate) fn elaborate<'a>(mut l: Lowerer<'a>, unit: &'a TranslationUnit) -> ExprTypes {
    if l.file_scope(unit).is_err() {
        return ExprTypes::default();
    }
    let file_scope_records = l.types.records.len();
    // Only the bodies a run from `main` may reach are ever lowered.
    let reachable: HashSet<String> = l.reachable_functions(["main".to_string()]).into_iter().map(|(f, _)| f).collect();
    for ext in &unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
            if declarator_name(&f.node.declarator.node).is_some_and(|n| reachable.contains(&n)) {
                // A body lowering rejects is rejected there: the types decided
                // before the error are right, the rest are left to lowering.
                let _ = l.elaborate_function(f);
            }
        }
    }
    let mut decided = std::mem::take(&mut l.types.decided);
    decided.types.retain(|_, t| !mentions_record_from(t, file_scope_records));
    decided.members.retain(|_, m| !mentions_record_from(&m.ty, file_scope_records));
    let ExprTypes { types, members, floating } = &mut decided;
    floating.retain(|n| types.contains_key(n) || members.contains_key(n));
    decided
}

/// Whether `t` mentions a record numbered `first` or later.
fn mentions_record_from(t: &CType, first: usize) -> bool {
    match t {
        CType::Record(id) => *id >= first,
        CType::Ptr(inner) | CType::Array(inner, _) => mentions_record_from(inner, first),
        _ => false,
    }
}

impl<'a> Lowerer<'a> {
    /// A function body, with its parameters bound as lowering binds them.
    fn elaborate_function(&mut self, f: &'a Node<FunctionDefinition>) -> Result<()> {
        let Some(name) = declarator_name(&f.node.declarator.node) else { return Ok(()) };
        let info = self.signature_of_definition(f)?;
        self.enter_frame(Frame::of_body(&name, f, HashMap::new()));
        for (position, p) in info.params.iter().enumerate() {
            let Some(pname) = &p.name else { continue };
            let ty = if name == "main" { crate::c::lower::calls::entry::main_parameter_type(position, &p.ty) } else { Some(p.ty.clone()) };
            if let Some(ty) = ty {
                self.bind(pname, Symbol::Opaque { ty });
            }
        }
        let r = self.elaborate_statement(&f.node.statement);
        self.leave_frame();
        r
    }

    fn elaborate_statement(&mut self, s: &'a Node<Statement>) -> Result<()> {
        self.enter(s.span)?;
        let r = self.elaborate_statement_inner(s);
        self.leave();
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
                self.push_scope();
                let r = self.elaborate_for(f);
                self.pop_scope();
                r
            }
            Statement::Goto(_) | Statement::Continue | Statement::Break | Statement::Asm(_) => Ok(()),
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
        self.push_scope();
        let r = items.iter().try_for_each(|item| match &item.node {
            BlockItem::Declaration(d) => self.elaborate_declaration(d),
            BlockItem::Statement(s) => self.elaborate_statement(s),
            BlockItem::StaticAssert(_) => Ok(()),
        });
        self.pop_scope();
        r
    }

    /// A declaration in a block: each name bound to its declared type (an
    /// array's length completed by its initializer), in scope in its own
    /// initializer as lowering has it (see `decl.rs`).
    fn elaborate_declaration(&mut self, decl: &'a Node<Declaration>) -> Result<()> {
        let (base, storage) = self.specifiers(&decl.node.specifiers)?;
        for init in &decl.node.declarators {
            let d = &init.node.declarator.node;
            let Some(name) = declarator_name(d) else { continue };
            if self.type_or_function(decl, storage, &base, &name, d)? {
                continue;
            }
            let ty = self.declared_type(base.clone(), d)?;
            if storage.is_extern {
                let sym = self.globals.get(&name).cloned().unwrap_or(Symbol::Opaque { ty });
                self.bind(&name, sym);
                continue;
            }
            if ty == CType::Function {
                continue;
            }
            let initializer = init.node.initializer.as_ref();
            if let Some(i) = initializer {
                self.bind(&name, Symbol::Opaque { ty: ty.clone() });
                self.elaborate_initializer(i)?;
            }
            let ty = self.complete_array_type(ty, initializer);
            self.bind(&name, Symbol::Opaque { ty });
        }
        Ok(())
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
        self.enter(e.span)?;
        let _ = self.object_type(e);
        let r = self.elaborate_operands(e);
        self.leave();
        r
    }

    fn elaborate_operands(&mut self, e: &'a Node<Expression>) -> Result<()> {
        match &e.node {
            Expression::Identifier(_) | Expression::Constant(_) | Expression::StringLiteral(_) => Ok(()),
            Expression::SizeOfTy(_) | Expression::AlignOf(_) => Ok(()),
            Expression::GenericSelection(g) => self.elaborate_expression(&g.node.expression),
            Expression::Member(m) => {
                let _ = self.member_of(m);
                self.elaborate_expression(&m.node.expression)
            }
            Expression::Call(c) => {
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
