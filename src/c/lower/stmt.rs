//! Statements: control flow.
//!
//! Each C loop gets exactly one header location (created here, with the
//! loop statement's position); every back edge of the loop goes to it.

use crate::c::lower::typed::*;
use super::calls::ReturnTarget;
use super::{JumpScope, Lowerer};
use crate::c::cfg::Cursor;
use crate::error::{Result, TesseraError};
use crate::ir::LocId;
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// The `case`/`default` labels belonging to one switch (not to switches
/// nested in it).
fn collect_cases<'b>(s: &'b Node<Statement>, out: &mut Vec<&'b Node<LabeledStatement>>) {
    match &s.node {
        Statement::Labeled(l) => {
            if !matches!(l.node.label.node, Label::Identifier(_)) {
                out.push(l);
            }
            collect_cases(&l.node.statement, out);
        }
        Statement::Compound(items) => {
            for i in items {
                if let BlockItem::Statement(st) = &i.node {
                    collect_cases(st, out);
                }
            }
        }
        Statement::If(i) => {
            collect_cases(&i.node.then_statement, out);
            if let Some(e) = &i.node.else_statement {
                collect_cases(e, out);
            }
        }
        Statement::While(w) => collect_cases(&w.node.statement, out),
        Statement::DoWhile(d) => collect_cases(&d.node.statement, out),
        Statement::For(f) => collect_cases(&f.node.statement, out),
        _ => {}
    }
}

impl<'a> Lowerer<'a> {
    pub fn stmt(&mut self, s: &'a Node<Statement>) -> Result<()> {
        self.enter(s.span)?;
        let mark = self.cfg.temp_mark();
        let r = self.stmt_inner(s);
        self.cfg.release_temps(mark);
        self.leave();
        r?;
        if self.cfg.too_large() {
            return Err(self.unsupported(s.span, "the program is too large after inlining"));
        }
        Ok(())
    }

    fn stmt_inner(&mut self, s: &'a Node<Statement>) -> Result<()> {
        match &s.node {
            Statement::Compound(items) => {
                self.push_scope();
                let r = self.block_items(items);
                self.pop_scope();
                r
            }
            Statement::Expression(e) => match e {
                Some(e) => self.effect(e),
                None => Ok(()),
            },
            Statement::If(i) => self.if_statement(i, s.span),
            Statement::While(w) => self.while_loop(w, s.span),
            Statement::DoWhile(d) => self.do_while_loop(d, s.span),
            Statement::For(f) => {
                self.push_scope();
                let r = self.for_loop(f, s.span);
                self.pop_scope();
                r
            }
            Statement::Switch(sw) => self.switch(sw, s.span),
            Statement::Labeled(l) => self.labeled(l),
            Statement::Goto(id) => {
                let l = self.label_location(&id.node.name, s.span);
                if let Some(c) = self.flow.take() {
                    self.cfg.jump(c, l);
                }
                Ok(())
            }
            Statement::Continue => {
                let c = self.flow.take();
                let scope = self.frame().and_then(|f| f.innermost_loop());
                match scope {
                    Some(JumpScope::Loop { continues, .. }) => {
                        continues.extend(c);
                        Ok(())
                    }
                    _ => Err(self.syntax(s.span, "`continue` outside a loop")),
                }
            }
            Statement::Break => {
                let c = self.flow.take();
                match self.frame().and_then(|f| f.innermost_jump()) {
                    Some(JumpScope::Loop { breaks, .. }) | Some(JumpScope::Switch { breaks, .. }) => {
                        breaks.extend(c);
                        Ok(())
                    }
                    None => Err(self.syntax(s.span, "`break` outside a loop or switch")),
                }
            }
            Statement::Return(e) => self.return_statement(e.as_deref()),
            Statement::Asm(a) => self.inline_assembly(a),
        }
    }

    fn block_items(&mut self, items: &'a [Node<BlockItem>]) -> Result<()> {
        for item in items {
            match &item.node {
                BlockItem::Statement(st) => self.stmt(st)?,
                BlockItem::Declaration(d) => {
                    let mark = self.cfg.temp_mark();
                    let r = self.declaration(d, false);
                    self.cfg.release_temps(mark);
                    r?;
                }
                BlockItem::StaticAssert(_) => {}
            }
        }
        Ok(())
    }

    fn if_statement(&mut self, i: &'a Node<IfStatement>, span: lang_c::span::Span) -> Result<()> {
        self.settle_long_cursor(span);
        let (ts, fs) = self.branch(&i.node.condition)?;
        self.join_here(ts, span, "then");
        self.stmt(&i.node.then_statement)?;
        let after_then = self.flow.take();
        self.join_here(fs, span, "else");
        if let Some(e) = &i.node.else_statement {
            self.stmt(e)?;
        }
        let mut ends: Vec<Cursor> = after_then.into_iter().collect();
        ends.extend(self.flow.take());
        self.join_here(ends, span, "after if");
        Ok(())
    }

    /// Before a branch, a cursor with many actions becomes an edge into a
    /// location of its own: each arm would copy them, and along an `else
    /// if` chain of n arms the copies add up to n^2 conditions.
    fn settle_long_cursor(&mut self, span: lang_c::span::Span) {
        const LONG: usize = 16;
        if self.flow.cursor().is_some_and(|c| crate::c::cfg::model_actions(&c.actions) > LONG) {
            let at = self.span(span);
            let l = self.cfg.new_location(at, "branch");
            // Kept by the simplification, which would copy the edge again.
            self.cfg.protect(l);
            if let Some(c) = self.flow.take() {
                self.cfg.jump(c, l);
            }
            self.flow.go_to(l);
        }
    }

    /// A new loop header; the cursor moves there.
    fn loop_header(&mut self, span: lang_c::span::Span, note: &str) -> LocId {
        let at = self.span(span);
        let h = self.cfg.new_location(at, note);
        self.cfg.protect(h);
        if let Some(c) = self.flow.take() {
            self.cfg.jump(c, h);
        }
        self.flow.go_to(h);
        h
    }

    /// Lower a loop body; returns its `break` and `continue` cursors.
    fn loop_body(&mut self, body: &'a Node<Statement>) -> Result<(Vec<Cursor>, Vec<Cursor>)> {
        if let Some(f) = self.frame() {
            f.push_jump(JumpScope::Loop { breaks: Vec::new(), continues: Vec::new() });
        }
        let r = self.stmt(body);
        let scope = self.frame().and_then(|f| f.pop_jump());
        r?;
        match scope {
            Some(JumpScope::Loop { breaks, continues }) => Ok((breaks, continues)),
            _ => Err(TesseraError::Internal("loop scope stack out of order".into())),
        }
    }

    fn while_loop(&mut self, w: &'a Node<WhileStatement>, span: lang_c::span::Span) -> Result<()> {
        let h = self.loop_header(span, "while");
        let (ts, fs) = self.branch(&w.node.expression)?;
        self.join_here(ts, span, "while body");
        let (breaks, continues) = self.loop_body(&w.node.statement)?;
        for c in self.flow.take().into_iter().chain(continues) {
            self.cfg.jump(c, h);
        }
        self.join_here([fs, breaks].concat(), span, "after while");
        Ok(())
    }

    fn do_while_loop(&mut self, d: &'a Node<DoWhileStatement>, span: lang_c::span::Span) -> Result<()> {
        let h = self.loop_header(span, "do-while");
        let (breaks, continues) = self.loop_body(&d.node.statement)?;
        let ends: Vec<Cursor> = self.flow.take().into_iter().chain(continues).collect();
        self.join_here(ends, span, "do-while condition");
        let (ts, fs) = self.branch(&d.node.expression)?;
        for c in ts {
            self.cfg.jump(c, h);
        }
        self.join_here([fs, breaks].concat(), span, "after do-while");
        Ok(())
    }

    fn for_loop(&mut self, f: &'a Node<ForStatement>, span: lang_c::span::Span) -> Result<()> {
        match &f.node.initializer.node {
            ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
            ForInitializer::Expression(e) => self.effect(e)?,
            ForInitializer::Declaration(d) => self.declaration(d, false)?,
        }
        let h = self.loop_header(span, "for");
        let (ts, fs) = match &f.node.condition {
            Some(c) => self.branch(c)?,
            None => (self.flow.take().into_iter().collect(), Vec::new()),
        };
        self.join_here(ts, span, "for body");
        let (breaks, continues) = self.loop_body(&f.node.statement)?;
        let ends: Vec<Cursor> = self.flow.take().into_iter().chain(continues).collect();
        self.join_here(ends, span, "for step");
        if let Some(step) = &f.node.step {
            let mark = self.cfg.temp_mark();
            let r = self.effect(step);
            self.cfg.release_temps(mark);
            r?;
        }
        if let Some(c) = self.flow.take() {
            self.cfg.jump(c, h);
        }
        self.join_here([fs, breaks].concat(), span, "after for");
        Ok(())
    }

    fn switch(&mut self, sw: &'a Node<SwitchStatement>, span: lang_c::span::Span) -> Result<()> {
        let v = self.expr(&sw.node.expression)?;
        let v = self.arith.promote(v);
        let mut labels = Vec::new();
        collect_cases(&sw.node.statement, &mut labels);
        // Each case: its key (label offset) and the condition selecting it.
        let mut conditions: Vec<(usize, Term)> = Vec::new();
        let mut default_key = None;
        for l in &labels {
            match &l.node.label.node {
                Label::Case(e) => {
                    let c = self.constant(e)?;
                    let c = self.arith.convert(c, v.ty);
                    conditions.push((l.span.start, Term::eq(v.term.clone(), c.term)));
                }
                Label::CaseRange(r) => {
                    let lo = self.constant(&r.node.low)?;
                    let hi = self.constant(&r.node.high)?;
                    let (lo, hi) = (self.arith.convert(lo, v.ty), self.arith.convert(hi, v.ty));
                    conditions.push((
                        l.span.start,
                        Term::and(vec![Term::le(lo.term, v.term.clone()), Term::le(v.term.clone(), hi.term)]),
                    ));
                }
                Label::Default => default_key = Some(l.span.start),
                Label::Identifier(_) => {}
            }
        }
        let mut cases = HashMap::new();
        let mut breaks = Vec::new();
        if let Some(mut cur) = self.flow.take() {
            // Many copies of a long prefix would bloat the graph: cut it first.
            if conditions.len() > 1 && !cur.actions.is_empty() {
                let at = self.span(span);
                let l = self.cfg.new_location(at, "switch");
                self.cfg.jump(cur, l);
                cur = Cursor::at(l);
            }
            for (key, cond) in &conditions {
                if let Some(c) = cur.clone().assume(cond.clone()) {
                    cases.insert(*key, c);
                }
            }
            let none = Term::and(conditions.iter().map(|(_, c)| Term::not(c.clone())).collect());
            let otherwise = cur.assume(none);
            match default_key {
                Some(k) => {
                    if let Some(c) = otherwise {
                        cases.insert(k, c);
                    }
                }
                None => breaks.extend(otherwise),
            }
        }
        if let Some(f) = self.frame() {
            f.push_jump(JumpScope::Switch { breaks, cases });
        }
        let r = self.stmt(&sw.node.statement);
        let scope = self.frame().and_then(|f| f.pop_jump());
        r?;
        let Some(JumpScope::Switch { breaks, .. }) = scope else {
            return Err(TesseraError::Internal("switch scope stack out of order".into()));
        };
        let ends: Vec<Cursor> = self.flow.take().into_iter().chain(breaks).collect();
        self.join_here(ends, span, "after switch");
        Ok(())
    }

    fn labeled(&mut self, l: &'a Node<LabeledStatement>) -> Result<()> {
        match &l.node.label.node {
            Label::Identifier(id) => {
                let name = id.node.name.clone();
                let (duplicate, target) = match self.frame() {
                    Some(f) => (!f.define_label(&name), f.is_goto_target(&name)),
                    None => (false, false),
                };
                if duplicate {
                    return Err(self.syntax(l.span, format!("duplicate label `{name}`")));
                }
                if target {
                    if let Some(f) = self.frame() {
                        f.pass_goto_label();
                    }
                    let loc = self.label_location(&name, l.span);
                    // The location's position is the label's, whoever created it.
                    let at = self.span(l.span);
                    self.cfg.set_span(loc, at);
                    if let Some(c) = self.flow.take() {
                        self.cfg.jump(c, loc);
                    }
                    self.flow.go_to(loc);
                }
            }
            _ => {
                let key = l.span.start;
                let dispatched = match self.frame().and_then(|f| f.innermost_switch()) {
                    Some(JumpScope::Switch { cases, .. }) => cases.remove(&key),
                    _ => return Err(self.syntax(l.span, "`case` or `default` outside a switch")),
                };
                let ends: Vec<Cursor> = self.flow.take().into_iter().chain(dispatched).collect();
                self.join_here(ends, l.span, "case");
            }
        }
        self.stmt(&l.node.statement)
    }

    fn label_location(&mut self, name: &str, span: lang_c::span::Span) -> LocId {
        if let Some(l) = self.calls.frame().and_then(|f| f.label(name)) {
            return l;
        }
        let at = self.span(span);
        let l = self.cfg.new_location(at, format!("label {name}"));
        self.cfg.protect(l);
        if let Some(f) = self.frame() {
            f.set_label(name, l);
        }
        l
    }

    fn return_statement(&mut self, e: Option<&'a Node<Expression>>) -> Result<()> {
        let ReturnTarget { is_main, ret, ret_ptr, ret_object } = match self.calls.frame() {
            Some(f) => f.return_target(),
            None => ReturnTarget { is_main: true, ret: None, ret_ptr: None, ret_object: None },
        };
        if let (Some(e), Some(p)) = (e, &ret_ptr) {
            self.return_pointer(e, p)?;
        } else if let (Some(e), Some((p, ty))) = (e, &ret_object) {
            self.copy_record_into(p, ty, e)?;
        } else if let Some(e) = e.filter(|_| ret.is_none()) {
            // A value nobody reads (a struct result the caller drops).
            self.effect_any(e)?;
        } else if let Some(e) = e {
            match &ret {
                Some((r, t)) => {
                    let v = self.expr(e)?;
                    let v = self.arith.convert(v, *t);
                    self.emit(crate::ir::Action::Assign(r.clone(), v.term));
                }
                None => self.effect(e)?,
            }
        }
        if let Some(c) = self.flow.take() {
            if is_main {
                self.cfg.jump(c, self.flow.exit());
            } else if let Some(f) = self.frame() {
                f.push_return(c);
            }
        }
        Ok(())
    }
}
