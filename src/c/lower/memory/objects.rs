//! Arrays, structs and unions declared as variables: each is a block of
//! memory of its own (see `mod.rs`), with its integer scalars as cells
//! when it is small enough, and its initializer stored into it.
//!
//! Floating-point variables (and struct parameters passed by value) are
//! *opaque*: their values are not modelled, every read is any value.

use crate::c::lower::typed::*;
use super::PtrVal;
use crate::c::lower::{LValue, Lowerer, Symbol};
use crate::ir::origin::Owner;
use crate::ir::Approximation;
use crate::c::types::CType;
use crate::error::Result;
use crate::ir::Action;
use crate::term::Term;
use lang_c::ast::*;
use lang_c::span::Node;

/// Where an object's initial contents come from.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Storage {
    /// Automatic: indeterminate unless initialized.
    Automatic,
    /// Static: zero unless initialized.
    Static,
    /// Declared `extern` here: unknown contents.
    External,
}

impl<'a> Lowerer<'a> {
    /// Declare an array or record variable `name` of type `ty`: a new block,
    /// initialized. Returns the symbol bound to the name.
    pub(in crate::c) fn declare_object(&mut self, name: &str, ty: CType, init: Option<&'a Node<Initializer>>, storage: Storage, s: lang_c::span::Span) -> Result<Symbol> {
        self.declare_object_as(name, None, Owner::Variable, ty, init, storage, s)
    }

    /// The automatic object of block `base` lives until its scope closes.
    pub(in crate::c) fn automatic_lifetime(&mut self, base: &Term) {
        self.open_automatic(base);
        // Only `main`'s outermost objects live until the program ends.
        let lasting = self.calls.frames().len() == 1 && self.calls.frame().is_some_and(|f| f.scope_depth() <= 1);
        if !lasting {
            self.lifetime_may_end();
        }
    }

    /// [`Lowerer::declare_object`], with `binding` in scope in its own
    /// initializer (C11 6.2.1p7: `static struct list l = { &l, &l };`).
    pub(in crate::c) fn declare_object_as(
        &mut self,
        name: &str,
        binding: Option<&str>,
        owner: Owner,
        ty: CType,
        init: Option<&'a Node<Initializer>>,
        storage: Storage,
        s: lang_c::span::Span,
    ) -> Result<Symbol> {
        let ty = self.complete_array_type(ty, init);
        let Some(bytes) = self.types.byte_size(&ty) else {
            return Err(self.unsupported(s, format!("variable `{name}` of incomplete or variable size")));
        };
        let size = Term::int(bytes as i64);
        let zeroed = storage == Storage::Static || (storage == Storage::Automatic && init.is_some());
        let base = self.new_block(Some(ty.clone()), &size, zeroed, Some((name, owner)), true, super::Contents::Declared)?;
        if storage == Storage::Automatic {
            self.automatic_lifetime(&base);
        }
        if storage == Storage::External {
            // Set by another translation unit: any contents.
            let p = PtrVal { base: base.clone(), off: Term::int(0), size: size.clone(), pointee: ty.clone() };
            self.havoc_reachable(&p);
        }
        let ptr = PtrVal { base, off: Term::int(0), size, pointee: ty.clone() };
        if let Some(b) = binding {
            self.bind(b, Symbol::Object { ptr: ptr.clone(), ty: ty.clone() });
        }
        if let Some(i) = init {
            self.initialize(&ptr, &ty, i)?;
        }
        Ok(Symbol::Object { ptr, ty })
    }

    /// Run `f` with its actions collected for the start of the program
    /// (globals and `static` locals are initialized before `main` runs).
    pub(in crate::c) fn at_program_start<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let saved = self.flow.start_at_entry();
        let saved_guards = self.flow.take_guards();
        let r = f(self);
        self.flow.restore_guards(saved_guards);
        let done = self.flow.restore(saved);
        if let Some(c) = done {
            self.globals.extend_static_inits(c.actions);
        }
        r
    }

    /// A compound literal `(T){ ... }`: a block of its own (one per
    /// literal, C11 6.5.2.5), members not named are zero.
    pub(in crate::c) fn compound_literal(&mut self, c: &'a Node<CompoundLiteral>) -> Result<PtrVal> {
        let ty = self.type_name(&c.node.type_name)?;
        let ty = match ty {
            CType::Array(elem, None) => CType::Array(elem, Some(self.list_length(&c.node.initializer_list))),
            ty => ty,
        };
        let Symbol::Object { ptr, ty } = self.declare_object_as("literal%", None, Owner::CompoundLiteral, ty, None, Storage::Static, c.span)? else {
            return Err(self.unsupported(c.span, "this compound literal"));
        };
        self.initialize_list(&ptr, &ty, &c.node.initializer_list, c.span)?;
        Ok(ptr)
    }

    /// Store an initializer into the object of type `ty` at `at`.
    pub(in crate::c) fn initialize(&mut self, at: &PtrVal, ty: &CType, init: &'a Node<Initializer>) -> Result<()> {
        match &init.node {
            Initializer::List(items) => self.initialize_list(at, ty, items, init.span),
            Initializer::Expression(_) => self.initialize_one(at, ty, init),
        }
    }

    /// Store an initializer list into the object of type `ty` at `at`.
    fn initialize_list(&mut self, at: &PtrVal, ty: &CType, items: &'a [Node<InitializerListItem>], span: lang_c::span::Span) -> Result<()> {
        match ty {
            CType::Array(elem, n) => {
                let step = self.types.byte_size(elem).unwrap_or(0) as i64;
                let mut k = 0u64;
                let mut next = 0usize;
                while let Some(item) = items.get(next) {
                    if let Some(d) = item.node.designation.first() {
                        match &d.node {
                            Designator::Index(e) => match self.constant_index(e) {
                                Some(i) => k = i,
                                None => return Err(self.unsupported(d.span, "a non-constant array designator")),
                            },
                            _ => return Err(self.unsupported(d.span, "this designator in an array initializer")),
                        }
                        if item.node.designation.len() > 1 {
                            return Err(self.unsupported(d.span, "nested designators"));
                        }
                    }
                    if n.is_some_and(|n| k >= n) {
                        // gcc: excess elements are ignored (with a warning).
                        break;
                    }
                    let p = self.moved(at, k as i64 * step, (**elem).clone());
                    self.initialize_member(&p, elem, items, &mut next)?;
                    k += 1;
                }
                Ok(())
            }
            CType::Record(id) => {
                let fields = self.types.record(*id).fields.clone().unwrap_or_default();
                let union = self.types.record(*id).union;
                let mut k = 0usize;
                let mut next = 0usize;
                while let Some(item) = items.get(next) {
                    if let Some(d) = item.node.designation.first() {
                        match &d.node {
                            Designator::Member(m) => {
                                let Some(i) = fields.iter().position(|f| f.name.as_deref() == Some(m.node.name.as_str())) else {
                                    return Err(self.unsupported(d.span, format!("designator `.{}` (not a direct member)", m.node.name)));
                                };
                                k = i;
                            }
                            _ => return Err(self.unsupported(d.span, "this designator in a struct initializer")),
                        }
                        if item.node.designation.len() > 1 {
                            return Err(self.unsupported(d.span, "nested designators"));
                        }
                    }
                    // Unnamed bit-fields take no initializer.
                    while fields.get(k).is_some_and(|f| f.name.is_none() && f.bits.is_some()) {
                        k += 1;
                    }
                    let Some(f) = fields.get(k) else { break };
                    if f.bits.is_some() {
                        // Bit-fields are not tracked: nothing to store.
                        self.effect_of_initializer(&item.node.initializer)?;
                        next += 1;
                    } else {
                        let p = self.moved(at, f.offset as i64, f.ty.clone());
                        self.initialize_member(&p, &f.ty, items, &mut next)?;
                    }
                    if union {
                        break;
                    }
                    k += 1;
                }
                Ok(())
            }
            _ if items.len() == 1 && items[0].node.designation.is_empty() => self.initialize(at, ty, &items[0].node.initializer),
            _ if items.is_empty() => Ok(()),
            _ => Err(self.unsupported(span, "an initializer list for a scalar")),
        }
    }

    /// Initialize the member or element of type `ty` at `at` from
    /// `items[*next]`, and move `next` past what it took: one item, or,
    /// where the braces of an aggregate member are left out (`int m[2][2] =
    /// {1, 2, 3}`, C11 6.7.9p20), as many items as it has scalars.
    fn initialize_member(&mut self, at: &PtrVal, ty: &CType, items: &'a [Node<InitializerListItem>], next: &mut usize) -> Result<()> {
        let Some(item) = items.get(*next) else { return Ok(()) };
        if !self.braces_left_out(ty, &item.node.initializer)? {
            *next += 1;
            return self.initialize(at, ty, &item.node.initializer);
        }
        match ty {
            CType::Array(elem, Some(n)) => {
                let step = self.types.byte_size(elem).unwrap_or(0) as i64;
                for k in 0..*n {
                    if items.get(*next).is_none_or(|i| !i.node.designation.is_empty()) {
                        break;
                    }
                    let p = self.moved(at, k as i64 * step, (**elem).clone());
                    self.initialize_member(&p, elem, items, next)?;
                }
                Ok(())
            }
            CType::Record(id) => {
                let fields = self.types.record(*id).fields.clone().unwrap_or_default();
                let union = self.types.record(*id).union;
                for f in fields.iter().filter(|f| f.name.is_some() || f.bits.is_none()) {
                    if items.get(*next).is_none_or(|i| !i.node.designation.is_empty()) {
                        break;
                    }
                    if f.bits.is_some() {
                        self.effect_of_initializer(&items[*next].node.initializer)?;
                        *next += 1;
                    } else {
                        let p = self.moved(at, f.offset as i64, f.ty.clone());
                        self.initialize_member(&p, &f.ty, items, next)?;
                    }
                    if union {
                        break;
                    }
                }
                Ok(())
            }
            _ => Err(self.unsupported(item.span, "this initializer")),
        }
    }

    /// Whether `init` initializes only the first scalar of the aggregate
    /// `ty` (its braces left out), rather than all of it.
    fn braces_left_out(&mut self, ty: &CType, init: &'a Node<Initializer>) -> Result<bool> {
        let Initializer::Expression(e) = &init.node else { return Ok(false) };
        Ok(match ty {
            CType::Array(elem, Some(_)) => !(matches!(e.node, Expression::StringLiteral(_)) && matches!(**elem, CType::Int(_))),
            CType::Record(_) => !matches!(self.type_of(e)?, CType::Record(_)),
            _ => false,
        })
    }

    /// Store an initializer that is an expression.
    fn initialize_one(&mut self, at: &PtrVal, ty: &CType, init: &'a Node<Initializer>) -> Result<()> {
        match (&init.node, ty) {
            (Initializer::List(items), _) => self.initialize_list(at, ty, items, init.span),
            (Initializer::Expression(e), CType::Array(elem, _)) => match (&e.node, &**elem) {
                (Expression::StringLiteral(lit), CType::Int(t)) => {
                    let (_, count) = crate::c::types::string_literal(&lit.node, self.arith.machine()).map_err(|m| self.syntax(lit.span, m))?;
                    let values = crate::c::types::string_literal_values(&lit.node, self.arith.machine()).map_err(|m| self.syntax(lit.span, m))?;
                    let w = i64::from(crate::c::types::size_of(*t));
                    for (k, v) in values.into_iter().take(count).enumerate() {
                        let p = self.moved(at, k as i64 * w, CType::Int(*t));
                        // Code units are read as the element type (`char` may be signed).
                        let val = self.arith.constant(num_bigint::BigInt::from(v), crate::ir::IntType::LONG);
                        let val = self.arith.convert(val, *t);
                        let loc = self.span(e.span);
                        self.store(&LValue::Mem { ptr: p, ty: *t, at: loc }, val);
                    }
                    Ok(())
                }
                _ => Err(self.unsupported(e.span, "this initializer of an array")),
            },
            (Initializer::Expression(e), CType::Record(_)) => self.copy_record_into(at, ty, e),
            (Initializer::Expression(e), _) => self.store_value(at, ty, e),
        }
    }

    pub(in crate::c) fn effect_of_initializer(&mut self, init: &'a Node<Initializer>) -> Result<()> {
        match &init.node {
            Initializer::Expression(e) => self.effect_any(e),
            Initializer::List(items) => items.iter().try_for_each(|i| self.effect_of_initializer(&i.node.initializer)),
        }
    }

    /// `p + bytes` with another pointee.
    pub(super) fn moved(&self, p: &PtrVal, bytes: i64, pointee: CType) -> PtrVal {
        PtrVal { off: Term::add(vec![p.off.clone(), Term::int(bytes)]), pointee, ..p.clone() }
    }

    /// Store the value of a scalar expression into memory of type `ty`.
    pub(super) fn store_value(&mut self, at: &PtrVal, ty: &CType, e: &'a Node<Expression>) -> Result<()> {
        let loc = self.span(e.span);
        match ty {
            CType::Int(t) => {
                let v = self.expr(e)?;
                self.store(&LValue::Mem { ptr: at.clone(), ty: *t, at: loc }, v);
                Ok(())
            }
            CType::Ptr(pointee) => {
                let v = self.pointer(e, Some((**pointee).clone()))?;
                self.store_pointer(at, v, &loc);
                Ok(())
            }
            _ => {
                // Floating point (not modelled): any bytes of that object.
                self.effect_any(e)?;
                self.havoc_object(at, ty);
                Ok(())
            }
        }
    }

    /// The cells of the object of type `ty` at `at` become unknown.
    pub(super) fn havoc_object(&mut self, at: &PtrVal, ty: &CType) {
        let width = self.types.byte_size(ty).unwrap_or(0) as i64;
        // Its pointers, if any, become any pointers.
        self.store_over_pointer_cells(at, width.max(1), None, &None);
        let Some(block) = self.cell_slots(&at.base) else {
            if super::const_int(&at.base).is_none() {
                self.havoc_reachable(at);
            }
            return;
        };
        let Some(k) = super::const_int(&at.off) else {
            self.havoc_reachable(at);
            return;
        };
        for s in block {
            if s.off < k + width && k < s.off + i64::from(crate::c::types::size_of(s.ty)) {
                self.havoc(&s.var, s.ty);
            }
        }
    }

    /// `dst = src` for a whole struct: cell by cell where both are known,
    /// else the destination's cells become unknown.
    pub(in crate::c) fn copy_record_into(&mut self, dst: &PtrVal, ty: &CType, src: &'a Node<Expression>) -> Result<()> {
        let from = self.object_address(src)?;
        let at = self.span(src.span);
        self.copy_record_from(dst, ty, from, &at);
        Ok(())
    }

    /// Copy the struct at `from` (`None`: a value without an address, any
    /// contents) into `dst`.
    pub(in crate::c) fn copy_record_from(&mut self, dst: &PtrVal, ty: &CType, from: Option<PtrVal>, loc: &Option<crate::ir::Span>) {
        // Pointer members are copied, not through their links.
        self.links_lost_through(dst);
        let Some(from) = from else {
            self.havoc_object(dst, ty);
            self.note_approximation(loc.clone(), Approximation::StructValue);
            return;
        };
        let mut slots = Vec::new();
        let size = self.types.byte_size(ty).unwrap_or(0);
        if !self.types.scalar_slots(ty, 0, "", &mut slots, super::MAX_CELLS * 4) || size == 0 {
            self.havoc_object(dst, ty);
            self.note_approximation(loc.clone(), Approximation::LargeStructCopy);
            return;
        }
        let from = self.snapshot_pointer(from);
        let loc = loc.clone();
        // Read every cell first: source and destination may overlap.
        let mut values = Vec::new();
        for (off, t, _) in &slots {
            let p = self.moved(&from, *off as i64, CType::Int(*t));
            let v = self.load_memory(&p, *t, &loc);
            values.push(self.snapshot(v));
        }
        for ((off, t, _), v) in slots.iter().zip(values) {
            let p = self.moved(dst, *off as i64, CType::Int(*t));
            self.store_memory(&p, *t, v, &loc);
        }
        // Pointers, floats and bit-fields inside are not copied exactly.
        self.store_over_pointer_cells(dst, size as i64, None, &loc);
        if self.has_untracked_parts(ty) {
            self.note_approximation(loc, Approximation::UntrackedMembers);
        }
    }

    fn has_untracked_parts(&self, ty: &CType) -> bool {
        match ty {
            CType::Int(_) => false,
            CType::Array(e, _) => self.has_untracked_parts(e),
            CType::Record(id) => self.types.record(*id)
                .fields
                .as_ref()
                .is_none_or(|fs| self.types.record(*id).union || fs.iter().any(|f| f.bits.is_some() || self.has_untracked_parts(&f.ty))),
            _ => true,
        }
    }

    /// The address of an object expression (`s`, `*p`, `a[i]`, `s.f`,
    /// `p->f`), or `None` for a value without one (a call's result).
    pub(in crate::c) fn object_address(&mut self, e: &'a Node<Expression>) -> Result<Option<PtrVal>> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name).cloned() {
                Some(Symbol::Object { ptr, .. }) => Ok(Some(ptr)),
                Some(Symbol::Opaque { .. }) => Ok(None),
                _ => Err(self.unsupported(e.span, format!("`{}` as an object", id.node.name))),
            },
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let p = self.pointer(&u.node.operand, None)?;
                Ok(Some(p))
            }
            Expression::BinaryOperator(_) | Expression::Member(_) => self.address_of_object(e).map(Some),
            Expression::Call(c) if matches!(&c.node.callee.node, Expression::Identifier(id) if self.lookup(&id.node.name).is_none()
                && self.types.signatures().function(&id.node.name).is_some_and(|f| f.def.is_some() && matches!(f.ret, CType::Record(_)))
                && !self.calls.is_recursive(&id.node.name)) =>
            {
                // An inlined function's struct result: the block it was
                // copied into.
                self.mem.last_record_return = None;
                self.call(c, true)?;
                Ok(self.mem.last_record_return.take())
            }
            Expression::CompoundLiteral(c) => self.compound_literal(c).map(Some),
            Expression::Call(_) | Expression::Conditional(_) | Expression::Comma(_) | Expression::Cast(_) | Expression::Statement(_) => {
                self.effect_any(e)?;
                Ok(None)
            }
            _ => Err(self.unsupported(e.span, "this struct expression")),
        }
    }

    /// Evaluate any expression for its effects only, whatever its type.
    pub(in crate::c) fn effect_any(&mut self, e: &'a Node<Expression>) -> Result<()> {
        match self.type_of(e)? {
            CType::Ptr(_) if !matches!(e.node, Expression::Call(_)) => self.pointer(e, None).map(|_| ()),
            CType::Record(_) => match &e.node {
                Expression::Call(c) => self.call(c, false).map(|_| ()),
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => self.assign_record(&b.node.lhs, &b.node.rhs),
                Expression::Comma(es) => es.iter().try_for_each(|x| self.effect_any(x)),
                _ if !self.has_effects(e) => Ok(()),
                _ => Err(self.unsupported(e.span, "this struct expression")),
            },
            _ => self.effect(e),
        }
    }

    /// `l = r` for structs.
    pub(in crate::c) fn assign_record(&mut self, l: &'a Node<Expression>, r: &'a Node<Expression>) -> Result<()> {
        let ty = self.object_type(l)?;
        match self.object_address(l)? {
            Some(dst) => {
                let dst = if self.has_effects(r) { self.snapshot_pointer(dst) } else { dst };
                self.copy_record_into(&dst, &ty, r)
            }
            None => self.effect_any(r),
        }
    }

    /// Initial value of a floating-point or other opaque variable: its
    /// initializer runs for its effects.
    pub(in crate::c) fn declare_opaque(&mut self, name: &str, ty: CType, init: Option<&'a Node<Initializer>>) -> Result<()> {
        if let Some(i) = init {
            self.effect_of_initializer(i)?;
        }
        self.bind(name, Symbol::Opaque { ty });
        Ok(())
    }

    /// A fresh value standing for an opaque (floating-point) value: any
    /// mathematical integer, recorded as an approximation.
    pub(in crate::c) fn opaque_value(&mut self, s: lang_c::span::Span) -> crate::c::arith::Val {
        self.types.saw_floats();
        let v = self.cfg.temp("float", crate::ir::IntType::LONG);
        self.emit(Action::Choose(v.clone()));
        let at = self.span(s);
        self.note_approximation(at, Approximation::FloatingPoint);
        crate::c::arith::Val { term: Term::var(v), ty: crate::ir::IntType::LONG, range: None }
    }
}
