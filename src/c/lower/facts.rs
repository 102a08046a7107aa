//! What a piece of C syntax does, read off the syntax tree alone (before
//! lowering): the functions it calls, the names it assigns, whether it
//! stores into memory. Used for recursion, for protecting values from later
//! side effects, and for pointers that keep a fixed base.

use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};
use std::collections::{BTreeSet, HashSet};

/// Whether a binary operator stores into its left operand (`=`, `+=`, ...).
pub(crate) fn is_assignment(op: &BinaryOperator) -> bool {
    matches!(op, BinaryOperator::Assign) || is_compound_assign(op)
}

pub(crate) fn is_compound_assign(op: &BinaryOperator) -> bool {
    matches!(
        op,
        BinaryOperator::AssignPlus
            | BinaryOperator::AssignMinus
            | BinaryOperator::AssignMultiply
            | BinaryOperator::AssignDivide
            | BinaryOperator::AssignModulo
            | BinaryOperator::AssignShiftLeft
            | BinaryOperator::AssignShiftRight
            | BinaryOperator::AssignBitwiseAnd
            | BinaryOperator::AssignBitwiseOr
            | BinaryOperator::AssignBitwiseXor
    )
}

/// What a function body does, syntactically.
#[derive(Default, Clone, Debug)]
pub(crate) struct BodyFacts {
    pub callees: BTreeSet<String>,
    /// Identifiers assigned to (`x = `, `x += `, `x++`, ...).
    pub assigned: BTreeSet<String>,
    pub has_static_locals: bool,
    /// Some assignment, `++` or `--` stores into memory (`*p = `, `a[i]++`).
    pub writes_memory: bool,
    /// A loop or a `goto`: the body may run a statement more than once.
    pub repeats: bool,
    /// Declares an object that may be (or hold) a struct: a struct, union,
    /// `typeof` or typedef-named object that is not a pointer. Its
    /// initializer may write links (see `Lowerer::call_keeps_links`).
    pub declares_aggregate: bool,
    /// Syntax nodes (expressions and statements): the cost of one copy.
    pub size: usize,
    /// Call sites by callee, with multiplicity.
    pub calls: Vec<String>,
}

/// The callee of a call through a function pointer expression (`(*fp)(x)`,
/// `s->op(x)`); the lowerer reads it as "any function used as a value".
pub(crate) const INDIRECT: &str = "(*)";

struct FactsVisitor {
    facts: BodyFacts,
}

fn target_name(e: &Expression) -> Option<String> {
    match e {
        Expression::Identifier(id) => Some(id.node.name.clone()),
        _ => None,
    }
}

impl<'ast> Visit<'ast> for FactsVisitor {
    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        self.facts.size += 1;
        visit::visit_expression(self, e, span);
    }
    fn visit_statement(&mut self, s: &'ast Statement, span: &'ast Span) {
        self.facts.size += 1;
        if matches!(s, Statement::While(_) | Statement::DoWhile(_) | Statement::For(_) | Statement::Goto(_)) {
            self.facts.repeats = true;
        }
        visit::visit_statement(self, s, span);
    }
    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
        let callee = match &c.callee.node {
            Expression::Identifier(id) => id.node.name.clone(),
            _ => INDIRECT.to_string(),
        };
        self.facts.callees.insert(callee.clone());
        self.facts.calls.push(callee);
        visit::visit_call_expression(self, c, span);
    }
    fn visit_binary_operator_expression(&mut self, b: &'ast BinaryOperatorExpression, span: &'ast Span) {
        let assigns = is_assignment(&b.operator.node);
        if assigns {
            match target_name(&b.lhs.node) {
                Some(n) => {
                    self.facts.assigned.insert(n);
                }
                None => self.facts.writes_memory = true,
            }
        }
        visit::visit_binary_operator_expression(self, b, span);
    }
    fn visit_unary_operator_expression(&mut self, u: &'ast UnaryOperatorExpression, span: &'ast Span) {
        if matches!(
            u.operator.node,
            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement | UnaryOperator::PreIncrement | UnaryOperator::PreDecrement
        ) {
            match target_name(&u.operand.node) {
                Some(n) => {
                    self.facts.assigned.insert(n);
                }
                None => self.facts.writes_memory = true,
            }
        }
        visit::visit_unary_operator_expression(self, u, span);
    }
    fn visit_declaration(&mut self, d: &'ast Declaration, span: &'ast Span) {
        if d.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Static)
        }) {
            self.facts.has_static_locals = true;
        }
        let may_be_struct = d.specifiers.iter().any(|s| {
            matches!(
                &s.node,
                DeclarationSpecifier::TypeSpecifier(t)
                    if matches!(t.node, TypeSpecifier::Struct(_) | TypeSpecifier::TypedefName(_) | TypeSpecifier::TypeOf(_))
            )
        });
        let is_pointer = |x: &Node<InitDeclarator>| {
            x.node.declarator.node.derived.iter().any(|d| matches!(d.node, DerivedDeclarator::Pointer(_)))
        };
        if may_be_struct && d.declarators.iter().any(|x| !is_pointer(x)) {
            self.facts.declares_aggregate = true;
        }
        visit::visit_declaration(self, d, span);
    }
}

pub(crate) fn expression_facts(e: &Node<Expression>) -> BodyFacts {
    let mut v = FactsVisitor { facts: BodyFacts::default() };
    v.visit_expression(&e.node, &e.span);
    v.facts
}

pub(crate) fn body_facts(def: &FunctionDefinition) -> BodyFacts {
    let mut v = FactsVisitor { facts: BodyFacts::default() };
    v.visit_statement(&def.statement.node, &def.statement.span);
    v.facts
}

/// Names a function body assigns with plain `=` or whose address it takes:
/// pointers among them cannot keep a fixed base.
#[derive(Default)]
struct Reassigned {
    names: HashSet<String>,
    /// Names whose address is taken (`&x`).
    addressed: HashSet<String>,
    /// Names changed by `++`, `--`, `+=`, `-=`.
    moved: HashSet<String>,
}

impl<'ast> Visit<'ast> for Reassigned {
    fn visit_binary_operator_expression(&mut self, b: &'ast BinaryOperatorExpression, span: &'ast Span) {
        if let Expression::Identifier(id) = &b.lhs.node {
            match b.operator.node {
                BinaryOperator::Assign => {
                    self.names.insert(id.node.name.clone());
                }
                ref op if is_assignment(op) => {
                    self.moved.insert(id.node.name.clone());
                }
                _ => {}
            }
        }
        visit::visit_binary_operator_expression(self, b, span);
    }
    fn visit_unary_operator_expression(&mut self, u: &'ast UnaryOperatorExpression, span: &'ast Span) {
        if let Expression::Identifier(id) = &u.operand.node {
            match u.operator.node {
                UnaryOperator::Address => {
                    self.names.insert(id.node.name.clone());
                    self.addressed.insert(id.node.name.clone());
                }
                UnaryOperator::PostIncrement | UnaryOperator::PostDecrement | UnaryOperator::PreIncrement | UnaryOperator::PreDecrement => {
                    self.moved.insert(id.node.name.clone());
                }
                _ => {}
            }
        }
        visit::visit_unary_operator_expression(self, u, span);
    }
}

/// The names whose address is taken anywhere in a translation unit (in
/// function bodies and in initializers of globals).
pub(crate) fn addressed_in_unit(unit: &TranslationUnit) -> HashSet<String> {
    let mut v = Reassigned::default();
    v.visit_translation_unit(unit);
    v.addressed
}

/// The names whose address a body takes: such scalars live in memory.
pub(crate) fn addressed_names(body: &Node<Statement>) -> HashSet<String> {
    let mut v = Reassigned::default();
    v.visit_statement(&body.node, &body.span);
    v.addressed
}

/// The names a body reassigns (or takes the address of), and those it moves.
pub(crate) fn reassigned_names(body: &Node<Statement>) -> (HashSet<String>, HashSet<String>) {
    let mut v = Reassigned::default();
    v.visit_statement(&body.node, &body.span);
    (v.names, v.moved)
}


/// The pieces of every string literal of the unit (see
/// [`crate::c::meaning::literals_may_share`]: a literal may share storage
/// with another that ends with it).
pub(crate) fn literals_in_unit(unit: &TranslationUnit) -> Vec<Vec<String>> {
    #[derive(Default)]
    struct Literals(Vec<Vec<String>>);
    impl<'ast> Visit<'ast> for Literals {
        fn visit_string_literal(&mut self, s: &'ast StringLiteral, _: &'ast Span) {
            if !self.0.contains(s) {
                self.0.push(s.clone());
            }
        }
    }
    let mut v = Literals::default();
    v.visit_translation_unit(unit);
    v.0
}

/// Identifiers used other than as the callee of a direct call: among them,
/// the functions whose address the program takes (the possible targets of
/// a call through a function pointer).
pub(crate) fn used_as_values(unit: &TranslationUnit) -> HashSet<String> {
    #[derive(Default)]
    struct Values(HashSet<String>);
    impl<'ast> Visit<'ast> for Values {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
            if let Expression::Identifier(id) = e {
                self.0.insert(id.node.name.clone());
            }
            visit::visit_expression(self, e, span);
        }
        fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
            if matches!(c.callee.node, Expression::Identifier(_)) {
                for a in &c.arguments {
                    self.visit_expression(&a.node, &a.span);
                }
            } else {
                visit::visit_call_expression(self, c, span);
            }
        }
    }
    let mut v = Values::default();
    v.visit_translation_unit(unit);
    v.0
}

/// Labels that some `goto` in the function body jumps to (other labels need
/// no location of their own).
pub(crate) fn goto_targets(s: &Node<Statement>) -> HashSet<String> {
    let mut out = HashSet::new();
    collect_gotos(s, &mut out);
    out
}

fn collect_gotos(s: &Node<Statement>, out: &mut HashSet<String>) {
    match &s.node {
        Statement::Goto(id) => {
            out.insert(id.node.name.clone());
        }
        Statement::Labeled(l) => collect_gotos(&l.node.statement, out),
        Statement::Compound(items) => {
            for i in items {
                if let BlockItem::Statement(st) = &i.node {
                    collect_gotos(st, out);
                }
            }
        }
        Statement::If(i) => {
            collect_gotos(&i.node.then_statement, out);
            if let Some(e) = &i.node.else_statement {
                collect_gotos(e, out);
            }
        }
        Statement::Switch(sw) => collect_gotos(&sw.node.statement, out),
        Statement::While(w) => collect_gotos(&w.node.statement, out),
        Statement::DoWhile(d) => collect_gotos(&d.node.statement, out),
        Statement::For(f) => collect_gotos(&f.node.statement, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The facts of the one function defined in `text`.
    fn facts(text: &str) -> BodyFacts {
        let unit = crate::c::parse::parse(text, &crate::c::source::SourceMap::new(text)).expect("parses");
        let def = unit
            .0
            .iter()
            .find_map(|d| match &d.node {
                ExternalDeclaration::FunctionDefinition(f) => Some(f),
                _ => None,
            })
            .expect("a function");
        body_facts(&def.node)
    }

    #[test]
    fn an_object_that_may_be_a_struct_is_an_aggregate_declaration_and_a_pointer_is_not() {
        let structs = "struct node { int v; struct node *next; }; typedef struct node node_t;\n";
        for (body, aggregate) in [
            ("int f(struct node *p) { struct node *q = p; int a[3]; return q != 0; }", false),
            ("int f(struct node *p) { struct node n = *p; return n.v; }", true),
            ("int f(node_t *p) { node_t n; n = *p; return n.v; }", true),
            ("int f(struct node *p) { struct node *arr[2] = { p, p }; return arr[0] != 0; }", false),
        ] {
            let f = facts(&format!("{structs}{body}"));
            assert_eq!(f.declares_aggregate, aggregate, "{body}");
        }
    }

    #[test]
    fn a_store_through_a_link_writes_memory_and_a_read_does_not() {
        let structs = "struct node { int v; struct node *next; };\n";
        let read = facts(&format!("{structs}int f(struct node *p) {{ if (!p) return 0; return 1 + f(p->next); }}"));
        assert!(!read.writes_memory);
        let store = facts(&format!("{structs}void f(struct node *p, struct node *q) {{ if (p->next) f(p->next, q); else p->next = q; }}"));
        assert!(store.writes_memory);
    }
}
