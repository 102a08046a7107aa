//! Statements, declarations with their initializers, and calls of the
//! program's own functions.

use super::interp::{Frame, Interp, Target};
use super::join::Taken;
use super::memory::Kind;
use super::value::{Byte, Ptr, Value};
use super::Stop;
use crate::c::types::CType;
use lang_c::ast::*;
use lang_c::span::Node;
use num_traits::ToPrimitive;
use std::collections::HashMap;

/// How a statement ends.
pub(crate) enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
    /// `goto L`: up to the innermost block that holds `L`, which runs on
    /// from it (see [`Interp::seek`]).
    Goto(String),
}

fn node<T>(n: &Node<T>) -> usize {
    n as *const Node<T> as usize
}

impl<'s, 'a> Interp<'s, 'a> {
    pub(crate) fn exec(&mut self, s: &'a Node<Statement>) -> Result<Flow, Stop> {
        self.step()?;
        self.exec_inner(s).map_err(|e| e.at(self.span(s.span)))
    }

    pub(crate) fn item(&mut self, item: &'a Node<BlockItem>) -> Result<Flow, Stop> {
        match &item.node {
            BlockItem::Declaration(d) => {
                self.declaration(d).map_err(|e| e.at(self.span(d.span)))?;
                Ok(Flow::Normal)
            }
            BlockItem::Statement(s) => self.exec(s),
            BlockItem::StaticAssert(_) => Ok(Flow::Normal),
        }
    }

    /// A block, from its start or (`seek`) from the label `L` in it (or a
    /// checkpoint's item). A `goto` to a label of this block (at any
    /// depth) runs on from there, its scope kept; one to a label
    /// elsewhere leaves the block. Before each item of `main`'s, a
    /// checkpoint may be taken (`checkpoint.rs`).
    fn block(&mut self, items: &'a [Node<BlockItem>], seek: Option<Target>) -> Result<Flow, Stop> {
        self.push_scope();
        // A concrete run (`lasso.rs`) looks at its state at each `goto`
        // that lands in this block: which entry of it, the jumps to each
        // label so far.
        let entry = self.entry_of(items.as_ptr() as usize);
        let (mut jumps, mut seen): (HashMap<String, u64>, HashMap<u64, u64>) = (HashMap::new(), HashMap::new());
        let r = (|| {
            let mut seek = seek;
            let mut i = match &seek {
                Some(t) => items.iter().position(|it| self.item_has_label(it, t)).ok_or_else(|| Stop::give_up("a label not found"))?,
                None => 0,
            };
            while i < items.len() {
                let f = match seek.take() {
                    Some(Target::Item(n)) if node(&items[i]) == n => {
                        self.end_resume()?;
                        self.item(&items[i])?
                    }
                    Some(t) => match &items[i].node {
                        BlockItem::Statement(s) => self.seek(s, &t)?,
                        _ => return Err(Stop::give_up("a label not found")),
                    },
                    None => {
                        self.maybe_checkpoint(node(&items[i]));
                        self.item(&items[i])?
                    }
                };
                match f {
                    Flow::Normal => i += 1,
                    Flow::Goto(l) => {
                        let t = Target::Label(l);
                        match items.iter().position(|it| self.item_has_label(it, &t)) {
                            Some(j) => {
                                if self.concrete.is_some() {
                                    let Target::Label(l) = &t else { unreachable!() };
                                    let visit: &mut u64 = jumps.entry(l.clone()).or_insert(0);
                                    let v = *visit;
                                    *visit += 1;
                                    self.jump_head(items.as_ptr() as usize, entry, l, items[j].span.start, v, &mut seen)?;
                                }
                                i = j;
                                seek = Some(t);
                            }
                            None => {
                                let Target::Label(l) = t else { unreachable!() };
                                return Ok(Flow::Goto(l));
                            }
                        }
                    }
                    f => return Ok(f),
                }
            }
            Ok(Flow::Normal)
        })();
        self.pop_scope();
        r
    }

    /// Run `s` from the label `l` inside it (the target of a `goto`, or
    /// a checkpoint's item): into blocks, `if` branches and loop bodies
    /// (the loop then goes on as usual); into a `switch` body it gives up.
    pub(crate) fn seek(&mut self, s: &'a Node<Statement>, l: &Target) -> Result<Flow, Stop> {
        self.step()?;
        let r = match &s.node {
            Statement::Labeled(x) => match (&x.node.label.node, l) {
                (Label::Identifier(id), Target::Label(l)) if id.node.name == *l => self.exec(&x.node.statement),
                _ => self.seek(&x.node.statement, l),
            },
            Statement::Compound(items) => self.block(items, Some(l.clone())),
            Statement::If(i) => {
                if self.has_label(&i.node.then_statement, l) {
                    self.seek(&i.node.then_statement, l)
                } else {
                    match &i.node.else_statement {
                        Some(e) => self.seek(e, l),
                        None => Err(Stop::give_up("a label not found")),
                    }
                }
            }
            Statement::While(w) => self.looping(s, None, Some(&w.node.expression), None, &w.node.statement, false, Some(l)),
            Statement::DoWhile(d) => self.looping(s, None, Some(&d.node.expression), None, &d.node.statement, true, Some(l)),
            Statement::For(f) => {
                self.push_scope();
                let r = self.looping(s, None, f.node.condition.as_deref(), f.node.step.as_deref(), &f.node.statement, false, Some(l));
                self.pop_scope();
                r
            }
            _ => Err(Stop::give_up("a `goto` into this statement")),
        };
        r.map_err(|e| e.at(self.span(s.span)))
    }

    fn item_has_label(&mut self, item: &'a Node<BlockItem>, l: &Target) -> bool {
        if *l == Target::Item(node(item)) {
            return true;
        }
        match &item.node {
            BlockItem::Statement(s) => self.has_label(s, l),
            _ => false,
        }
    }

    /// Whether the label `l` stands in `s` (cached: the syntax tree does
    /// not change).
    fn has_label(&mut self, s: &'a Node<Statement>, l: &Target) -> bool {
        let key = (node(s), l.clone());
        if let Some(b) = self.labels.get(&key) {
            return *b;
        }
        let b = match &s.node {
            Statement::Labeled(x) => matches!((&x.node.label.node, l), (Label::Identifier(id), Target::Label(l)) if id.node.name == *l) || self.has_label(&x.node.statement, l),
            Statement::Compound(items) => items.iter().any(|it| self.item_has_label(it, l)),
            Statement::If(i) => self.has_label(&i.node.then_statement, l) || i.node.else_statement.as_ref().is_some_and(|e| self.has_label(e, l)),
            Statement::While(w) => self.has_label(&w.node.statement, l),
            Statement::DoWhile(d) => self.has_label(&d.node.statement, l),
            Statement::For(f) => self.has_label(&f.node.statement, l),
            Statement::Switch(w) => self.has_label(&w.node.statement, l),
            _ => false,
        };
        self.labels.insert(key, b);
        b
    }

    fn exec_inner(&mut self, s: &'a Node<Statement>) -> Result<Flow, Stop> {
        match &s.node {
            Statement::Compound(items) => self.block(items, None),
            Statement::Expression(e) => {
                if let Some(e) = e {
                    self.eval(e)?;
                }
                Ok(Flow::Normal)
            }
            Statement::Labeled(l) => match &l.node.label.node {
                Label::Identifier(_) | Label::Case(_) | Label::Default => self.exec(&l.node.statement),
                Label::CaseRange(_) => Err(Stop::give_up("a case range")),
            },
            Statement::If(i) => {
                let c = self.eval(&i.node.condition)?;
                let (then, otherwise) = (&i.node.then_statement, i.node.else_statement.as_deref());
                let side = |it: &mut Self, way: bool| -> Result<Flow, Stop> {
                    match (way, otherwise) {
                        (true, _) => it.exec(then),
                        (false, Some(e)) => it.exec(e),
                        (false, None) => Ok(Flow::Normal),
                    }
                };
                // Joined, a path may jump into the other side (CIL's
                // `else goto L` to a label `L` in the `else` of an
                // enclosing test): it goes on there, as the block holding
                // this statement would have it.
                let mut joinable = |it: &mut Self, way: bool| {
                    let mut flow = side(it, way)?;
                    while let Flow::Goto(l) = &flow {
                        let target = Target::Label(l.clone());
                        if !it.has_label(s, &target) {
                            break;
                        }
                        flow = it.seek(s, &target)?;
                    }
                    match flow {
                        Flow::Normal => Ok(Value::Void),
                        _ => Err(Stop::give_up("a jump out of a joined branch")),
                    }
                };
                match self.branch(&c, &mut joinable)? {
                    Taken::Joined(_) => Ok(Flow::Normal),
                    Taken::Way(b) => side(self, b),
                }
            }
            Statement::While(w) => self.looping(s, None, Some(&w.node.expression), None, &w.node.statement, false, None),
            Statement::DoWhile(d) => self.looping(s, None, Some(&d.node.expression), None, &d.node.statement, true, None),
            Statement::For(f) => {
                self.push_scope();
                let r = self.looping(s, Some(&f.node.initializer), f.node.condition.as_deref(), f.node.step.as_deref(), &f.node.statement, false, None);
                self.pop_scope();
                r
            }
            Statement::Switch(w) => self.switch(w),
            Statement::Return(e) => {
                let v = match e {
                    Some(e) => {
                        let v = self.eval(e)?;
                        let ret = self.frames.last().map(|f| f.ret.clone()).unwrap_or(CType::Void);
                        self.convert(v, &ret)?
                    }
                    None => Value::Void,
                };
                Ok(Flow::Return(v))
            }
            Statement::Break => Ok(Flow::Break),
            Statement::Continue => Ok(Flow::Continue),
            Statement::Goto(l) => Ok(Flow::Goto(l.node.name.clone())),
            Statement::Asm(a) => self.inline_assembly(a),
        }
    }

    /// GNU inline assembly that neither jumps nor writes memory beyond
    /// its outputs (the reading lowering makes, `c::asm`): its inputs are
    /// evaluated, and each integer output is any value (every run where
    /// a branch on it goes either way: what it computes, from the inputs
    /// or from machine state such as a port `inb` reads, is not modelled).
    /// A concrete run gives up there: an output value it chose could be
    /// one the assembly never gives (`bsr` of 8 is 3), and a NO must not
    /// rest on it.
    fn inline_assembly(&mut self, a: &'a Node<AsmStatement>) -> Result<Flow, Stop> {
        if self.concrete.is_some() {
            return Err(Stop::give_up("a concrete run through inline assembly"));
        }
        let r = crate::c::asm::read(&a.node);
        if r.jumps {
            return Err(Stop::give_up("inline assembly with jumps"));
        }
        if r.memory {
            return Err(Stop::give_up("inline assembly that may write memory"));
        }
        for op in r.inputs {
            self.eval(&op.node.variable_name)?;
        }
        for op in r.outputs {
            let e = &op.node.variable_name;
            let ty = self.object_type(e)?;
            let CType::Int(t) = ty else { return Err(Stop::give_up("an output of inline assembly that is not an integer")) };
            let p = self.place(e)?;
            let site = op as *const Node<GnuAsmOperand> as usize;
            let v = self.symbolic_input(site, t).unwrap_or(Value::Int(t, None));
            self.store(&p, &ty, &v)?;
        }
        Ok(Flow::Normal)
    }

    /// A loop: counts its iterations in this entry and keeps the most
    /// met for the evidence.
    fn looping(
        &mut self,
        s: &'a Node<Statement>,
        init: Option<&'a Node<ForInitializer>>,
        cond: Option<&'a Node<Expression>>,
        step: Option<&'a Node<Expression>>,
        body: &'a Node<Statement>,
        do_while: bool,
        seek: Option<&Target>,
    ) -> Result<Flow, Stop> {
        match init.map(|i| &i.node) {
            Some(ForInitializer::Expression(e)) => {
                self.eval(e)?;
            }
            Some(ForInitializer::Declaration(d)) => self.declaration(d)?,
            Some(ForInitializer::StaticAssert(_)) | Some(ForInitializer::Empty) | None => {}
        }
        // Resumed from a checkpoint in the body: the iterations it had,
        // the one under way counted already.
        let resumed = if seek.is_some() { self.resumed_loop() } else { None };
        let was_resumed = resumed.is_some();
        self.loop_stack.push(resumed.unwrap_or_default());
        // A concrete run (`lasso.rs`) looks at its state at each visit of
        // the head: which entry of the loop this is, and the visits so far.
        let entry = self.entry_of(node(s));
        let mut seen: HashMap<u64, u64> = HashMap::new();
        let mut visit = 0u64;
        let r = (|| {
            // Entered by a `goto` into the body: no test before it.
            let mut first = do_while || seek.is_some();
            let mut counted = was_resumed;
            let mut seek = seek;
            loop {
                self.step()?;
                // Only a visit that tests the condition: a `do` loop's
                // first visit (and a `goto`'s into the body) goes on to
                // the body untested, so its state does not decide alike.
                if self.concrete.is_some() && !first {
                    self.loop_head(node(s), entry, visit, &mut seen)?;
                    visit += 1;
                }
                // Exploring: a stretch of iterations whose state moves
                // along a line may be taken at once (`drift.rs`).
                if !first && self.concrete.is_none() && !self.accelerating && self.joining == 0 && self.resume.is_none() {
                    self.watch_drift(cond, body, step)?;
                }
                if !first {
                    if let Some(c) = cond {
                        let v = self.eval(c)?;
                        if !self.decide(&v)? {
                            return Ok(Flow::Normal);
                        }
                    }
                }
                first = false;
                if !std::mem::take(&mut counted) {
                    if let Some(l) = self.loop_stack.last_mut() {
                        l.iterations += 1;
                    }
                }
                let f = match seek.take() {
                    Some(l) => self.seek(body, l)?,
                    None => self.exec(body)?,
                };
                match f {
                    Flow::Break => return Ok(Flow::Normal),
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    Flow::Goto(l) => return Ok(Flow::Goto(l)),
                    Flow::Normal | Flow::Continue => {}
                }
                if let Some(e) = step {
                    self.eval(e)?;
                }
            }
        })();
        let iterations = self.loop_stack.pop().map_or(0, |l| l.iterations);
        let entry = self.loops.entry(node(s)).or_insert((s.span.start, 0));
        entry.1 = entry.1.max(iterations);
        r
    }

    /// `switch`: into the body at the matching label. Labels must stand
    /// at the top of the body's block (else: give up); an unknown value
    /// forks over every label and no label.
    fn switch(&mut self, w: &'a Node<SwitchStatement>) -> Result<Flow, Stop> {
        let v = self.eval(&w.node.expression)?;
        let t = match &v {
            Value::Int(t, _) => self.ar.machine().promote(*t),
            Value::Symbolic(s) => self.ar.machine().promote(s.ty),
            _ => return Err(Stop::give_up("a switch on a non-integer")),
        };
        // The controlling value, promoted (`None`: unknown).
        let x = match self.convert(v, &CType::Int(t))? {
            Value::Int(_, None) => None,
            x => Some(x),
        };
        let Statement::Compound(items) = &w.node.statement.node else { return Err(Stop::give_up("a switch body that is not a block")) };
        let mut labels = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let BlockItem::Statement(st) = &item.node else { continue };
            let mut st: &Node<Statement> = st;
            while let Statement::Labeled(l) = &st.node {
                labels.push((i, &l.node.label.node));
                st = &l.node.statement;
            }
        }
        if count_cases(&w.node.statement) != labels.iter().filter(|(_, l)| !matches!(l, Label::Identifier(_))).count() {
            return Err(Stop::give_up("a case label inside a statement of the switch body"));
        }
        let mut target = None;
        let mut default = None;
        let cases: Vec<(usize, &Label)> = labels.into_iter().filter(|(_, l)| !matches!(l, Label::Identifier(_))).collect();
        if let Some(x) = x {
            // Each label in order, converted to the promoted type; whether
            // it matches is decided (by the path condition, for a symbolic
            // value).
            for (i, l) in &cases {
                match l {
                    Label::Case(e) => {
                        let c = self.eval(e)?;
                        let Value::Int(ct, c) = c else { return Err(Stop::give_up("a case label")) };
                        let c = super::value::convert(&self.ar, (ct, c.as_ref()), t)?;
                        if target.is_none() {
                            let eq = self.compare(crate::c::arith::CmpOp::Eq, x.clone(), c)?;
                            if self.decide(&eq)? {
                                target = Some(*i);
                            }
                        }
                    }
                    Label::Default => default = Some(*i),
                    _ => return Err(Stop::give_up("a case range")),
                }
            }
            target = target.or(default);
        } else {
            // Any label, or none (when there is no `default`).
            let k = self.choose(cases.len() + 1)?;
            target = cases.get(k).map(|(i, _)| *i);
            if target.is_none() && cases.iter().any(|(_, l)| matches!(l, Label::Default)) {
                // No label matched: `default` is taken (already an alternative).
                target = cases.iter().find(|(_, l)| matches!(l, Label::Default)).map(|(i, _)| *i);
            }
        }
        let Some(start) = target else { return Ok(Flow::Normal) };
        self.push_scope();
        // A descent does not enter a switch body: no checkpoint in it.
        self.no_checkpoint += 1;
        let r = (|| {
            for item in &items[start..] {
                match self.item(item)? {
                    Flow::Normal => {}
                    Flow::Break => return Ok(Flow::Normal),
                    // A `goto` into the switch body itself is not followed.
                    Flow::Goto(l) if self.has_label(&w.node.statement, &Target::Label(l.clone())) => return Err(Stop::give_up("a `goto` inside a switch body")),
                    f => return Ok(f),
                }
            }
            Ok(Flow::Normal)
        })();
        self.no_checkpoint -= 1;
        self.pop_scope();
        r
    }

    /// A declaration in a block: each object made (its lifetime the
    /// scope's), initialized or of unknown value.
    pub(crate) fn declaration(&mut self, d: &'a Node<Declaration>) -> Result<(), Stop> {
        let typedef = d.node.specifiers.iter().any(|s| matches!(&s.node, DeclarationSpecifier::StorageClass(c) if matches!(c.node, StorageClassSpecifier::Typedef)));
        for init in &d.node.declarators {
            let name = declarator_name(&init.node.declarator.node);
            let Some((ty, is_static, is_extern)) = self.table.declared_at(node(init)).cloned() else {
                let function = init.node.declarator.node.derived.iter().any(|x| matches!(x.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)));
                if typedef || function {
                    continue;
                }
                return Err(Stop::give_up("a declaration typing did not decide"));
            };
            let Some(name) = name else { continue };
            if is_extern {
                let g = self.globals.get(&name).cloned().ok_or_else(|| Stop::give_up("an `extern` object without a definition"))?;
                self.bind(name, g, false);
                continue;
            }
            if is_static {
                let o = match self.statics.get(&node(init)) {
                    Some(o) => o.clone(),
                    None => {
                        let b = self.new_object(&ty, Kind::Global, Byte::Known(0))?;
                        let p = Ptr::At { block: b, offset: 0 };
                        self.bind(name.clone(), (b, ty.clone()), false);
                        if let Some(i) = &init.node.initializer {
                            self.initialize(&p, &ty, i)?;
                        }
                        self.statics.insert(node(init), (b, ty.clone()));
                        (b, ty)
                    }
                };
                self.bind(name, o, false);
                continue;
            }
            // Reached again in the same activation of its block (a `goto`
            // back over it): the same object, whose lifetime is the whole
            // block (C11 6.2.4p6); its value is indeterminate again unless
            // initialized. (No two declarations of one name without linkage
            // share a scope, so the name tells the declaration.)
            if let Some(b) = self.object_of_this_scope(&name, &ty) {
                let size = self.size(&ty)?;
                let p = Ptr::At { block: b, offset: 0 };
                self.mem.write(&p, vec![Byte::Unknown; size as usize])?;
                if let Some(i) = &init.node.initializer {
                    self.initialize(&p, &ty, i)?;
                }
                continue;
            }
            let b = self.new_object(&ty, Kind::Local, Byte::Unknown)?;
            // In scope in its own initializer.
            self.bind(name, (b, ty.clone()), true);
            if let Some(i) = &init.node.initializer {
                self.initialize(&Ptr::At { block: b, offset: 0 }, &ty, i)?;
            }
        }
        Ok(())
    }

    /// The object of type `ty` at `p` initialized by `i`.
    pub(crate) fn initialize(&mut self, p: &Ptr, ty: &CType, i: &'a Node<Initializer>) -> Result<(), Stop> {
        match &i.node {
            Initializer::Expression(e) => {
                if let (CType::Array(elem, n), Expression::StringLiteral(_)) = (ty, &e.node) {
                    // A character array from a string literal: its units,
                    // the rest zero.
                    let Value::Ptr(Some(src)) = self.eval(e)? else { return Err(Stop::give_up("a string literal")) };
                    let total = self.size(ty)?;
                    let len = self.size(&self.object_type(e)?)?.min(total);
                    let _ = (elem, n);
                    let mut bytes = self.mem.read(&src, len)?;
                    bytes.resize(total as usize, Byte::Known(0));
                    return self.mem.write(p, bytes);
                }
                if matches!(ty, CType::Array(..)) {
                    return Err(Stop::give_up("an array initialized by an expression"));
                }
                let v = self.eval(e)?;
                let v = self.convert(v, ty)?;
                self.store(p, ty, &v)
            }
            Initializer::List(items) => {
                let size = self.size(ty)?;
                self.mem.write(p, vec![Byte::Known(0); size as usize])?;
                self.init_list(p, ty, items)
            }
        }
    }

    /// The members or elements of the object at `p` from a brace list
    /// (the object already zero). Braces left out (`int a[2][2] = {1, 2,
    /// 3, 4}`) and designators of more than one step give up.
    pub(crate) fn init_list(&mut self, p: &Ptr, ty: &CType, items: &'a [Node<InitializerListItem>]) -> Result<(), Stop> {
        let Ptr::At { block, offset } = p else { return Err(Stop::give_up("an initializer of no object")) };
        let at = |o: u64| Ptr::At { block: *block, offset: offset + o as i64 };
        match ty {
            CType::Array(elem, n) => {
                let step = self.size(elem)?;
                let mut k = 0u64;
                for item in items {
                    match item.node.designation.as_slice() {
                        [] => {}
                        [d] => match &d.node {
                            Designator::Index(e) => {
                                let Value::Int(_, Some(c)) = self.eval(e)? else { return Err(Stop::give_up("a designator")) };
                                k = c.to_u64().ok_or_else(|| Stop::give_up("a designator"))?;
                            }
                            _ => return Err(Stop::give_up("a designator")),
                        },
                        _ => return Err(Stop::give_up("a designator of more than one step")),
                    }
                    if n.is_some_and(|n| k >= n) {
                        return Err(Stop::give_up("an initializer beyond the array"));
                    }
                    self.init_member(&at(k * step), elem, &item.node.initializer)?;
                    k += 1;
                }
                Ok(())
            }
            CType::Record(id) => {
                let r = self.types.record(*id);
                let fields = r.fields.clone().ok_or_else(|| Stop::give_up("an incomplete struct initialized"))?;
                let union = r.union;
                let mut k = 0usize;
                for item in items {
                    match item.node.designation.as_slice() {
                        [] => {}
                        [d] => match &d.node {
                            Designator::Member(m) => {
                                k = fields.iter().position(|f| f.name.as_deref() == Some(m.node.name.as_str())).ok_or_else(|| Stop::give_up("a designator of a member of an anonymous member"))?;
                            }
                            _ => return Err(Stop::give_up("a designator")),
                        },
                        _ => return Err(Stop::give_up("a designator of more than one step")),
                    }
                    if union && k > 0 && item.node.designation.is_empty() {
                        return Err(Stop::give_up("a union initialized past its first member"));
                    }
                    // An unnamed bit-field takes no initializer.
                    while item.node.designation.is_empty() && fields.get(k).is_some_and(|f| f.bits.is_some() && f.name.is_none()) {
                        k += 1;
                    }
                    let f = fields.get(k).ok_or_else(|| Stop::give_up("more initializers than members"))?;
                    match f.bits {
                        None => self.init_member(&at(f.offset), &f.ty, &item.node.initializer)?,
                        Some((first, width)) => self.init_bit_field(&at(f.offset), &f.ty, (first, width), &item.node.initializer)?,
                    }
                    k += 1;
                }
                Ok(())
            }
            CType::Int(_) | CType::Ptr(_) => match items {
                [item] if item.node.designation.is_empty() => self.init_member(p, ty, &item.node.initializer),
                _ => Err(Stop::give_up("a scalar initialized by a list")),
            },
            _ => Err(Stop::give_up("an initializer list of this type")),
        }
    }

    /// The bit-field of `width` bits from bit `first` of the bytes at `p`
    /// initialized by `i`: the bits set in the bytes holding them, when
    /// those and the value are known; else those bytes become unknown
    /// (any value, a neighbouring bit-field's too).
    fn init_bit_field(&mut self, p: &Ptr, ty: &CType, (first, width): (u32, u32), i: &'a Node<Initializer>) -> Result<(), Stop> {
        use num_bigint::BigInt;
        let Initializer::Expression(e) = &i.node else { return Err(Stop::give_up("a bit-field initialized by a list")) };
        let v = self.eval(e)?;
        let v = self.convert(v, ty)?;
        let n = u64::from(first + width).div_ceil(8);
        let bytes = self.mem.read(p, n)?;
        let known: Option<Vec<u8>> = bytes.iter().map(|b| if let Byte::Known(x) = b { Some(*x) } else { None }).collect();
        let new = match (known, v) {
            (Some(known), Value::Int(_, Some(c))) => {
                let mut word = BigInt::from_bytes_le(num_bigint::Sign::Plus, &known);
                let ones: BigInt = (BigInt::from(1) << width) - 1;
                let mask: BigInt = ones.clone() << first;
                let bits: BigInt = (c & ones) << first;
                word = (word & !mask.clone()) | (bits & mask);
                let (_, mut le) = word.to_bytes_le();
                le.resize(n as usize, 0);
                le.into_iter().map(Byte::Known).collect()
            }
            _ => vec![Byte::Unknown; n as usize],
        };
        self.mem.write(p, new)
    }

    fn init_member(&mut self, p: &Ptr, ty: &CType, i: &'a Node<Initializer>) -> Result<(), Stop> {
        match (&i.node, ty) {
            (Initializer::List(items), _) => self.init_list(p, ty, items),
            (Initializer::Expression(e), CType::Array(..)) if matches!(e.node, Expression::StringLiteral(_)) => self.initialize(p, ty, i),
            (Initializer::Expression(e), CType::Array(..) | CType::Record(_)) => {
                // A struct from a struct value is whole; else braces were left out.
                if matches!(ty, CType::Record(_)) && self.object_type(e)? == *ty {
                    self.initialize(p, ty, i)
                } else {
                    Err(Stop::give_up("an initializer with braces left out"))
                }
            }
            _ => self.initialize(p, ty, i),
        }
    }

    /// A call of the program's function `name` with `args` (evaluated).
    pub(crate) fn call_function(&mut self, name: &str, args: Vec<Value>) -> Result<Value, Stop> {
        let info = self.types.signatures().function(name).cloned().ok_or_else(|| Stop::give_up(format!("a call of `{name}`")))?;
        let def = info.def.ok_or_else(|| Stop::give_up(format!("a call of `{name}`, which has no body")))?;
        if self.frames.len() >= self.limits.depth {
            return Err(Stop::give_up(format!("calls nested deeper than {}", self.limits.depth)));
        }
        // A variadic function's further arguments are evaluated and left
        // unread: a body that reads them (`va_arg`) gives up there.
        if args.len() != info.params.len() && !(info.variadic && args.len() > info.params.len()) {
            return Err(Stop::give_up(format!("`{name}` called with {} arguments for {} parameters", args.len(), info.params.len())));
        }
        self.call_head(name, &args)?;
        let active = 1 + self.frames.iter().filter(|f| f.name == name).count();
        let most = self.nesting.entry(name.to_string()).or_insert(0);
        *most = (*most).max(active);
        self.frames.push(Frame { scopes: vec![(HashMap::new(), Vec::new())], allocas: Vec::new(), ret: info.ret.clone(), name: name.to_string() });
        let r = (|| {
            for (p, a) in info.params.iter().zip(args) {
                let ty = p.ty.clone().decay();
                let v = self.convert(a, &ty)?;
                let b = self.new_object(&ty, Kind::Local, Byte::Unknown)?;
                self.store(&Ptr::At { block: b, offset: 0 }, &ty, &v)?;
                if let Some(n) = &p.name {
                    self.bind(n.clone(), (b, ty), true);
                }
            }
            self.exec(&def.node.statement)
        })();
        let frame = self.frames.pop().expect("the frame");
        self.call_exit();
        for (_, blocks) in frame.scopes {
            for b in blocks {
                self.mem.kill(b);
            }
        }
        for b in frame.allocas {
            self.mem.kill(b);
        }
        match r? {
            Flow::Return(v) => Ok(v),
            Flow::Goto(l) => Err(Stop::give_up(format!("`goto {l}`: a label not found"))),
            // Falling off the end: the value (if used) is any value.
            _ => Ok(match &info.ret {
                CType::Int(t) => Value::Int(*t, None),
                CType::Ptr(_) => Value::Ptr(None),
                _ => Value::Void,
            }),
        }
    }

    /// A call expression: the program's function, or the library's.
    pub(crate) fn call(&mut self, c: &'a Node<CallExpression>) -> Result<Value, Stop> {
        let callee = match &c.node.callee.node {
            Expression::Identifier(id) if self.lookup(&id.node.name).is_none() => id.node.name.clone(),
            _ => match self.eval(&c.node.callee)? {
                Value::Ptr(Some(Ptr::Function(f))) => f,
                _ => return Err(Stop::give_up("a call through a pointer that is not a function")),
            },
        };
        if callee == "__builtin_expect" && c.node.arguments.len() == 2 {
            let v = self.eval(&c.node.arguments[0])?;
            self.eval(&c.node.arguments[1])?;
            return Ok(v);
        }
        let mut args = Vec::with_capacity(c.node.arguments.len());
        for a in &c.node.arguments {
            args.push(self.eval(a)?);
        }
        if self.types.signatures().is_defined(&callee) {
            return self.call_function(&callee, args);
        }
        self.library(&callee, c, args)
    }
}

/// The number of `case`/`default` labels of a switch body, outside
/// switches nested in it.
fn count_cases(s: &Node<Statement>) -> usize {
    match &s.node {
        Statement::Labeled(l) => usize::from(!matches!(l.node.label.node, Label::Identifier(_))) + count_cases(&l.node.statement),
        Statement::Compound(items) => items
            .iter()
            .map(|i| match &i.node {
                BlockItem::Statement(s) => count_cases(s),
                _ => 0,
            })
            .sum(),
        Statement::If(i) => count_cases(&i.node.then_statement) + i.node.else_statement.as_ref().map_or(0, |e| count_cases(e)),
        Statement::While(w) => count_cases(&w.node.statement),
        Statement::DoWhile(d) => count_cases(&d.node.statement),
        Statement::For(f) => count_cases(&f.node.statement),
        _ => 0,
    }
}

pub(crate) fn declarator_name(d: &Declarator) -> Option<String> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}
