//! Z3's Spacer (the Fixedpoint engine) as an [`Engine`].
//!
//! The clauses go in through the API: every predicate becomes a Z3 relation,
//! every clause a universally quantified rule, and every query a rule into a
//! fresh error relation that is then queried. Evidence comes back as text:
//! the invariant is Spacer's answer to the unsat query (one definition per
//! predicate), printed by Z3 and read with our own parser (never by
//! inspecting Z3's declaration kinds, see docs/design.md, "Z3 from Rust:
//! known traps"); a counterexample is
//! rebuilt from the names of the rules along Spacer's trace by solving the
//! unrolled clauses ourselves, so the values we report come from a model we
//! asked for, not from Z3's proof format.
//!
//! The z3 crate keeps its fixedpoint handle private and lacks the trace
//! functions, so this file drives the fixedpoint through `z3_sys` on the
//! thread's context, with ASTs built by the z3 crate.

use super::Engine;
use crate::solve::{Budget, Derivation, Invariant, Verdict};
use crate::horn::{Clause, System};
use crate::smt;
use crate::term::parse::{parse_sexprs, SExpr, TermReader};
use crate::term::{Sort, Term, Value, VarDecl};
use std::collections::BTreeMap;
use std::ffi::{CStr, CString};
use std::sync::mpsc;
use std::time::Duration;
use z3::ast::{Ast, Bool, Dynamic};
use z3::{Context, FuncDecl};
use z3_sys::*;

#[derive(Clone, Debug, Default)]
pub struct Spacer;

impl Engine for Spacer {
    fn name(&self) -> &'static str {
        "spacer"
    }
    fn solve(&self, system: &System, budget: &Budget) -> Verdict {
        if budget.expired() {
            return Verdict::Unknown("spacer: out of time before starting".into());
        }
        // Spacer needs a fresh Z3 context: nothing from earlier runs on the
        // caller's thread (declarations, an interrupt that arrived late) may
        // leak into this one. A thread the race started for this run is
        // fresh; otherwise a thread of its own gives Spacer one.
        // The verdict comes back over a channel rather than by joining: the
        // thread's exit deletes its Z3 context, which the race need not wait
        // for.
        if super::take_fresh_thread() {
            return solve_here(system, budget);
        }
        let (system, budget) = (system.clone(), budget.clone());
        let (tx, rx) = mpsc::sync_channel(1);
        let worker = std::thread::Builder::new()
            .name("spacer".into())
            .stack_size(256 << 20)
            .spawn(move || {
                let _ = tx.send(solve_here(&system, &budget));
            });
        match worker {
            Ok(_) => rx.recv().unwrap_or_else(|_| Verdict::Unknown("spacer: worker thread panicked".into())),
            Err(e) => Verdict::Unknown(format!("spacer: cannot start a thread: {e}")),
        }
    }
}

/// Run Spacer on the calling thread's Z3 context, which must be fresh.
fn solve_here(system: &System, budget: &Budget) -> Verdict {
    let registered = budget.cancel.register_thread_context();
    let alarm = budget.deadline.map(|_| Alarm::start(budget));
    let quiet = move || {
        drop(alarm);
        drop(registered);
    };
    match run(system, budget, quiet) {
        Ok(v) => v,
        Err(e) => Verdict::Unknown(format!("spacer: {e}")),
    }
}

/// Interrupts this thread's Z3 context at the budget's deadline, in case
/// Spacer overlooks its own `timeout` parameter somewhere. Stops when dropped.
struct Alarm {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Alarm {
    fn start(budget: &Budget) -> Alarm {
        let (tx, rx) = mpsc::channel::<()>();
        let raw = Context::thread_local().get_z3_context().as_ptr() as usize;
        let wait = budget.remaining().unwrap_or(Duration::ZERO) + Duration::from_millis(50);
        let thread = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(wait) {
                if let Some(ctx) = std::ptr::NonNull::new(raw as *mut _Z3_context) {
                    // SAFETY: the owning thread keeps the context alive until
                    // it drops the Alarm, which joins this thread first.
                    unsafe { Z3_interrupt(ctx) };
                }
            }
        });
        Alarm { stop: Some(tx), thread: Some(thread) }
    }
}

impl Drop for Alarm {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

enum Param {
    Bool(bool),
    Uint(u32),
    Symbol(&'static str),
}

/// A Z3 fixedpoint object on the calling thread's context.
struct RawFixedpoint {
    ctx: Context,
    fp: Z3_fixedpoint,
    /// Whether Drop may release the object. Z3 4.8.12 rewrites while it
    /// destroys a Spacer context, and after `Z3_interrupt` the rewriter
    /// throws `rewriter_exception` out of the destructor, which aborts the
    /// process. So an object is released only after a run that nothing
    /// interrupted; otherwise it is left to the context's teardown.
    release: bool,
}

impl RawFixedpoint {
    fn new() -> Result<RawFixedpoint, String> {
        let ctx = Context::thread_local();
        let c = ctx.get_z3_context();
        // SAFETY: c is the live thread-local context; the fixedpoint is
        // reference-counted and released in Drop.
        let fp = unsafe { Z3_mk_fixedpoint(c) }.ok_or("cannot create a fixedpoint object")?;
        unsafe { Z3_fixedpoint_inc_ref(c, fp) };
        Ok(RawFixedpoint { ctx, fp, release: false })
    }
    fn c(&self) -> Z3_context {
        self.ctx.get_z3_context()
    }
    fn check_error(&self, what: &str) -> Result<(), String> {
        // SAFETY: reading the error state of a live context.
        let code = unsafe { Z3_get_error_code(self.c()) };
        if code == ErrorCode::Ok {
            return Ok(());
        }
        let msg = unsafe { cstr(Z3_get_error_msg(self.c(), code)) };
        Err(format!("{what}: {msg}"))
    }
    fn symbol(&self, s: &str) -> Result<Z3_symbol, String> {
        let cs = CString::new(s).map_err(|e| e.to_string())?;
        // SAFETY: Z3 copies the string into its symbol table.
        unsafe { Z3_mk_string_symbol(self.c(), cs.as_ptr()) }.ok_or_else(|| format!("bad symbol {s}"))
    }
    /// The crate's `Params` hides its handle, hence raw parameters here.
    fn set_params(&self, entries: &[(&str, Param)]) -> Result<(), String> {
        let c = self.c();
        // SAFETY: the parameter set is reference-counted and released below.
        let p = unsafe { Z3_mk_params(c) }.ok_or("cannot create parameters")?;
        unsafe { Z3_params_inc_ref(c, p) };
        let mut result = Ok(());
        for (k, v) in entries {
            let key = match self.symbol(k) {
                Ok(k) => k,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            match v {
                Param::Bool(b) => unsafe { Z3_params_set_bool(c, p, key, *b) },
                Param::Uint(u) => unsafe { Z3_params_set_uint(c, p, key, *u) },
                Param::Symbol(s) => match self.symbol(s) {
                    Ok(sym) => unsafe { Z3_params_set_symbol(c, p, key, sym) },
                    Err(e) => result = Err(e),
                },
            }
        }
        if result.is_ok() {
            unsafe { Z3_fixedpoint_set_params(c, self.fp, p) };
        }
        unsafe { Z3_params_dec_ref(c, p) };
        result.and_then(|_| self.check_error("setting parameters"))
    }
    fn register(&self, decl: Z3_func_decl) {
        unsafe { Z3_fixedpoint_register_relation(self.c(), self.fp, decl) };
    }
    fn add_rule(&self, rule: &Bool, name: &str) -> Result<(), String> {
        let sym = self.symbol(name)?;
        // SAFETY: the rule AST is alive (borrowed).
        unsafe { Z3_fixedpoint_add_rule(self.c(), self.fp, rule.get_z3_ast(), Some(sym)) };
        self.check_error("adding a rule")
    }
    fn query(&self, decl: Z3_func_decl) -> Z3_lbool {
        let decls = [decl];
        unsafe { Z3_fixedpoint_query_relations(self.c(), self.fp, 1, decls.as_ptr()) }
    }
    fn reason_unknown(&self) -> String {
        unsafe { cstr(Z3_fixedpoint_get_reason_unknown(self.c(), self.fp)) }
    }
    /// The text of an AST the fixedpoint returned (None when it returned none).
    fn ast_text(&self, ast: Option<Z3_ast>) -> Option<String> {
        let a = ast?;
        // SAFETY: keep the AST alive while printing it.
        unsafe {
            Z3_inc_ref(self.c(), a);
            let s = cstr(Z3_ast_to_string(self.c(), a));
            Z3_dec_ref(self.c(), a);
            Some(s)
        }
    }
    fn answer(&self) -> Option<String> {
        let a = unsafe { Z3_fixedpoint_get_answer(self.c(), self.fp) };
        self.ast_text(a)
    }
    /// Names of the rules along the counterexample, as Z3 reports them.
    fn rule_names_along_trace(&self) -> Option<String> {
        let sym = unsafe { Z3_fixedpoint_get_rule_names_along_trace(self.c(), self.fp) }?;
        Some(unsafe { cstr(Z3_get_symbol_string(self.c(), sym)) })
    }
}

impl Drop for RawFixedpoint {
    fn drop(&mut self) {
        if self.release {
            // SAFETY: matches the inc_ref in new(); the context outlives us.
            unsafe { Z3_fixedpoint_dec_ref(self.c(), self.fp) };
        }
    }
}

/// SAFETY: `s` must be a NUL-terminated string owned by Z3 (valid until the
/// next call); it is copied at once.
unsafe fn cstr(s: Z3_string) -> String {
    if s.is_null() {
        return String::new();
    }
    CStr::from_ptr(s).to_string_lossy().into_owned()
}

/// A predicate as a Z3 relation: the crate's declaration (keeps it alive) and
/// its raw handle for the fixedpoint calls.
struct Relation {
    decl: FuncDecl,
    raw: Z3_func_decl,
}

impl Relation {
    fn new(name: &str, params: &[VarDecl]) -> Result<Relation, String> {
        let sorts: Vec<z3::Sort> = params
            .iter()
            .map(|p| match p.sort {
                Sort::Int => z3::Sort::int(),
                Sort::Bool => z3::Sort::bool(),
            })
            .collect();
        let sort_refs: Vec<&z3::Sort> = sorts.iter().collect();
        let decl = FuncDecl::new(name, &sort_refs, &z3::Sort::bool());
        // The crate hides the raw declaration; recover it from an application.
        let probe_args: Vec<Dynamic> = params.iter().map(smt::const_of).collect();
        let probe = decl.apply(&probe_args.iter().map(|a| a as &dyn Ast).collect::<Vec<_>>());
        let c = Context::thread_local().get_z3_context();
        // SAFETY: the probe AST is alive; the declaration stays alive through
        // `decl`, which the Relation owns.
        let raw = unsafe { Z3_to_app(c, probe.get_z3_ast()).and_then(|app| Z3_get_app_decl(c, app)) }
            .ok_or_else(|| format!("cannot declare relation {name}"))?;
        Ok(Relation { decl, raw })
    }
    fn apply(&self, args: &[Term]) -> Bool {
        let args: Vec<Dynamic> = args.iter().map(smt::dynamic_of).collect();
        let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        self.decl.apply(&refs).as_bool().unwrap_or_else(|| Bool::from_bool(false))
    }
}

/// Name of the rule for clause `i` (how we find clauses in Spacer's trace).
fn rule_name(i: usize) -> String {
    format!("clause!{i}")
}

/// `quiet` stops every source of interrupts for this thread's context.
fn run(system: &System, budget: &Budget, quiet: impl FnOnce()) -> Result<Verdict, String> {
    let mut fp = RawFixedpoint::new()?;
    // Z3's clause transformations are off: slicing and inlining drop
    // predicates (Spacer's answer then lacks them, and covers of removed
    // predicates crash 4.8.12), and merged or simplified rules no longer
    // match our clauses in the counterexample trace. On the 100 CHC
    // benchmarks at 20 s, 74 validated answers with them off, 55 with them on.
    let mut params = vec![
        ("engine", Param::Symbol("spacer")),
        ("xform.slice", Param::Bool(false)),
        ("xform.inline_linear", Param::Bool(false)),
        ("xform.inline_eager", Param::Bool(false)),
        ("xform.coi", Param::Bool(false)),
        ("xform.subsumption_checker", Param::Bool(false)),
        ("xform.compress_unbound", Param::Bool(false)),
        ("xform.tail_simplifier_pve", Param::Bool(false)),
        ("datalog.subsumption", Param::Bool(false)),
    ];
    if let Some(ms) = budget.solver_timeout_ms() {
        params.push(("timeout", Param::Uint(ms)));
    }
    fp.set_params(&params)?;

    // Z3 identifies relations by name and signature; prefixing the index
    // keeps them apart from clause variables and from the error relation.
    let relations: Vec<Relation> = system
        .preds
        .iter()
        .enumerate()
        .map(|(i, p)| Relation::new(&format!("p{i}!{}", p.name), &p.params))
        .collect::<Result<_, _>>()?;
    let error = Relation::new("error!", &[])?;
    for r in relations.iter().chain(std::iter::once(&error)) {
        fp.register(r.raw);
    }
    for (i, c) in system.clauses.iter().enumerate() {
        let rule = rule_of(c, &relations, &error)?;
        fp.add_rule(&rule, &rule_name(i))?;
    }
    if let Some(path) = std::env::var_os("TESSERA_SPACER_DUMP") {
        // For comparing with the z3 binary: the rules exactly as Spacer gets them.
        // SAFETY: no queries passed; the text is copied at once.
        let text = unsafe { cstr(Z3_fixedpoint_to_string(fp.c(), fp.fp, 0, std::ptr::null_mut())) };
        let _ = std::fs::write(path, text);
    }
    if budget.expired() {
        return Ok(Verdict::Unknown("spacer: out of time".into()));
    }
    let answer = fp.query(error.raw);
    let verdict = if budget.cancel.is_cancelled() {
        Verdict::Unknown("spacer: cancelled".into())
    } else {
        match answer {
            Z3_L_FALSE => Verdict::Safe(invariant(&fp, system)?),
            Z3_L_TRUE => match counterexample(&fp, system, budget) {
                Ok(d) => Verdict::Unsafe(d),
                Err(e) => Verdict::Unknown(format!("spacer: unsafe but no derivation ({e})")),
            },
            _ => {
                let why = fp.reason_unknown();
                Verdict::Unknown(if budget.expired() || why.contains("cancel") || why.contains("timeout") {
                    format!("spacer: time limit ({why})")
                } else {
                    format!("spacer: {why}")
                })
            }
        }
    };
    // No interrupt can reach the context from here on; release the object
    // only when none did before.
    quiet();
    fp.release = !budget.cancel.is_cancelled() && !budget.expired() && !matches!(verdict, Verdict::Unknown(_));
    Ok(verdict)
}

/// `forall vars. body /\ constraint => head` as a Z3 rule.
fn rule_of(c: &Clause, relations: &[Relation], error: &Relation) -> Result<Bool, String> {
    let mut conj: Vec<Bool> = Vec::new();
    for app in &c.body {
        let r = relations.get(app.pred).ok_or("body predicate out of range")?;
        conj.push(r.apply(&app.args));
    }
    conj.push(smt::bool_of(&c.constraint));
    let head = match &c.head {
        Some(app) => relations.get(app.pred).ok_or("head predicate out of range")?.apply(&app.args),
        None => error.apply(&[]),
    };
    let body = Bool::and(&conj);
    let rule = body.implies(&head);
    let vars: Vec<Dynamic> = c.vars.iter().map(smt::const_of).collect();
    let refs: Vec<&dyn Ast> = vars.iter().map(|v| v as &dyn Ast).collect();
    Ok(z3::ast::forall_const(&refs, &[], &rule))
}

/// The invariant from Spacer's answer to an unsat query: a conjunction of
/// `(forall (vars) (= (P vars) formula))`, one per predicate, after Z3's
/// model converters have put back the predicates its preprocessing removed.
/// A predicate the answer does not mention has an empty least model: `false`.
fn invariant(fp: &RawFixedpoint, system: &System) -> Result<Invariant, String> {
    let text = fp.answer().ok_or("no answer")?;
    let es = parse_sexprs(&text)?;
    let [answer] = es.as_slice() else {
        return Err("answer is not one formula".into());
    };
    let mut interp: Vec<Option<Term>> = vec![None; system.preds.len()];
    let conjuncts: Vec<&SExpr> = match answer.app() {
        Some(("and", items)) => items.iter().collect(),
        _ => vec![answer],
    };
    for c in conjuncts {
        if c.symbol() == Some("true") {
            continue;
        }
        if let Some((p, t)) = definition(c, system)? {
            if interp[p].replace(t).is_some() {
                return Err(format!("answer defines {} twice", system.preds[p].name));
            }
        }
    }
    Ok(Invariant { interp: interp.into_iter().map(|t| t.unwrap_or_else(Term::ff)).collect() })
}

/// The predicate a Z3 relation name stands for (`p{index}!{name}`).
fn pred_of_relation(name: &str, system: &System) -> Option<usize> {
    let (idx, rest) = name.strip_prefix('p')?.split_once('!')?;
    let i: usize = idx.parse().ok()?;
    (system.preds.get(i)?.name == rest).then_some(i)
}

/// One conjunct of the answer: `None` for the error relation.
fn definition(e: &SExpr, system: &System) -> Result<Option<(usize, Term)>, String> {
    let mut env: BTreeMap<String, Sort> = BTreeMap::new();
    let mut body = e;
    if let Some(("forall", [bindings, inner])) = e.app() {
        for b in bindings.list().ok_or("bad forall in the answer")? {
            match b.list() {
                Some([n, s]) => {
                    let sort = match s.symbol() {
                        Some("Int") => Sort::Int,
                        Some("Bool") => Sort::Bool,
                        _ => return Err(format!("unexpected sort {s} in the answer")),
                    };
                    env.insert(n.symbol().ok_or("bad bound name")?.to_string(), sort);
                }
                _ => return Err("bad binding in the answer".into()),
            }
        }
        body = inner;
    }
    if let Some(("!", [inner, ..])) = body.app() {
        body = inner;
    }
    // `(= (P args) phi)`, or for nullary relations `P`, `(not P)`, `(= P phi)`.
    let (lhs, rhs) = match body.app() {
        Some(("=", [l, r])) => (l, Some(r)),
        Some(("not", [l])) => (l, None),
        _ => (body, None),
    };
    let (name, args): (&str, &[SExpr]) = match lhs {
        SExpr::List(items) => match items.split_first() {
            Some((h, args)) => (h.symbol().ok_or("bad relation in the answer")?, args),
            None => return Err("empty application in the answer".into()),
        },
        other => (other.symbol().ok_or("bad relation in the answer")?, &[]),
    };
    if name == "error!" {
        return Ok(None);
    }
    let p = pred_of_relation(name, system).ok_or_else(|| format!("unknown relation {name} in the answer"))?;
    let reader = TermReader::new(&env);
    let formula = match (rhs, body.app()) {
        (Some(r), _) => reader.term(r)?,
        (None, Some(("not", _))) => Term::ff(),
        (None, _) => Term::tt(),
    };
    // The arguments must be distinct bound variables: then the formula
    // over them, renamed to the parameters, is the interpretation.
    let params = &system.preds[p].params;
    if args.len() != params.len() {
        return Err(format!("relation {name} applied to {} arguments in the answer", args.len()));
    }
    let mut map: BTreeMap<String, Term> = BTreeMap::new();
    for (a, param) in args.iter().zip(params) {
        let v = a
            .symbol()
            .filter(|v| env.contains_key(*v))
            .ok_or_else(|| format!("argument {a} of {name} is not a variable"))?;
        if map.insert(v.to_string(), param.term()).is_some() {
            return Err(format!("repeated argument {v} of {name} in the answer"));
        }
    }
    Ok(Some((p, formula.subst(&map))))
}

/// The clause indices along Spacer's counterexample, from the rule names.
/// Z3 lists them breadth-first from the query, children of a node in the
/// order of its (possibly reordered) body; the rule from the error relation
/// to Z3's own query symbol has no name.
fn trace_clauses(fp: &RawFixedpoint, n_clauses: usize) -> Result<Vec<usize>, String> {
    let names = fp.rule_names_along_trace().ok_or("no rule trace")?;
    let mut out = Vec::new();
    for part in names.split(';') {
        let part = part.trim();
        if part.is_empty() || part == "<null>" {
            continue;
        }
        let i = part
            .strip_prefix("clause!")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&i| i < n_clauses)
            .ok_or_else(|| format!("unexpected rule name {part} in the trace"))?;
        out.push(i);
    }
    Ok(out)
}

/// A derivation tree's shape: clause per node and, per node, the child
/// node for each body application (in body order).
struct Shape {
    clause: Vec<usize>,
    children: Vec<Vec<usize>>,
}

/// Rebuild the tree from the breadth-first list of clauses, matching each
/// node's children to its body applications by predicate.
fn shape_of_trace(system: &System, trace: &[usize]) -> Result<Shape, String> {
    let root = *trace.first().ok_or("empty trace")?;
    if !system.clauses[root].is_query() {
        return Err("trace does not start at a query".into());
    }
    let mut shape = Shape { clause: vec![root], children: vec![Vec::new()] };
    let mut next = 1;
    let mut node = 0;
    while node < shape.clause.len() {
        let c = &system.clauses[shape.clause[node]];
        let k = c.body.len();
        let listed: Vec<usize> = trace.get(next..next + k).ok_or("trace too short for the clause bodies")?.to_vec();
        next += k;
        let mut used = vec![false; k];
        let mut kids = Vec::with_capacity(k);
        for app in &c.body {
            let pick = (0..k)
                .find(|&j| !used[j] && system.clauses[listed[j]].head.as_ref().is_some_and(|h| h.pred == app.pred))
                .ok_or("trace does not match the clause bodies")?;
            used[pick] = true;
            kids.push(pick);
        }
        // Children get node ids in the order they were listed (breadth-first).
        let base = shape.clause.len();
        for &cl in &listed {
            shape.clause.push(cl);
            shape.children.push(Vec::new());
        }
        shape.children[node] = kids.into_iter().map(|j| base + j).collect();
        node += 1;
    }
    if next != trace.len() {
        return Err("trace longer than the derivation it describes".into());
    }
    Ok(shape)
}

/// Concrete values for a derivation of the given shape, from our own solver
/// call over a copy of each node's clause.
fn derivation_of_shape(system: &System, shape: &Shape, budget: &Budget) -> Result<Derivation, String> {
    let rename = |node: usize, t: &Term| t.rename(&|v: &str| Some(format!("n{node}!{v}")));
    let solver = smt::solver_for(budget);
    for (node, &ci) in shape.clause.iter().enumerate() {
        let c = &system.clauses[ci];
        solver.assert(smt::bool_of(&rename(node, &c.constraint)));
        for (app, &child) in c.body.iter().zip(&shape.children[node]) {
            let head = system.clauses[shape.clause[child]].head.as_ref().ok_or("query used as a premise")?;
            for (a, h) in app.args.iter().zip(&head.args) {
                solver.assert(smt::bool_of(&Term::app(crate::term::Op::Eq, vec![rename(node, a), rename(child, h)])));
            }
        }
    }
    match smt::check(&solver, budget) {
        smt::Sat::Sat => {}
        smt::Sat::Unsat => return Err("the unrolled trace is unsatisfiable".into()),
        smt::Sat::Unknown => return Err("could not solve the unrolled trace".into()),
    }
    let model = solver.get_model().ok_or("no model for the unrolled trace")?;
    // Build bottom-up: children always have larger ids than their parent.
    let mut built: Vec<Option<Derivation>> = vec![None; shape.clause.len()];
    for node in (0..shape.clause.len()).rev() {
        let ci = shape.clause[node];
        let c = &system.clauses[ci];
        let head_values = match &c.head {
            Some(h) => h
                .args
                .iter()
                .map(|a| smt::eval_in(&model, &rename(node, a)).ok_or("no value in the model"))
                .collect::<Result<Vec<Value>, _>>()?,
            None => Vec::new(),
        };
        let premises = shape.children[node]
            .iter()
            .map(|&k| built[k].take().ok_or("derivation node used twice"))
            .collect::<Result<Vec<_>, _>>()?;
        built[node] = Some(Derivation { clause: ci, head_values, premises });
    }
    built[0].take().ok_or_else(|| "empty derivation".into())
}

fn counterexample(fp: &RawFixedpoint, system: &System, budget: &Budget) -> Result<Derivation, String> {
    let trace = trace_clauses(fp, system.clauses.len())?;
    let shape = shape_of_trace(system, &trace)?;
    derivation_of_shape(system, &shape, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::validate::validate;
    use crate::horn::smtlib::parse_system;

    fn solve_text(text: &str) -> (System, Verdict) {
        let s = parse_system(text).expect("parses");
        let v = Spacer.solve(&s, &Budget::with_timeout(Duration::from_secs(20)));
        (s, v)
    }

    const COUNTER: &str = "(declare-fun inv (Int Int) Bool)
         (assert (forall ((x Int) (n Int)) (=> (and (= x 0) (>= n 0)) (inv x n))))
         (assert (forall ((x Int) (n Int) (y Int)) (=> (and (inv x n) (< x n) (= y (+ x 1))) (inv y n))))";

    #[test]
    fn safe_counter_has_a_valid_invariant() {
        let (s, v) =
            solve_text(&format!("{COUNTER} (assert (forall ((x Int) (n Int)) (=> (and (inv x n) (> x n)) false)))"));
        assert!(matches!(v, Verdict::Safe(_)), "{v:?}");
        assert_eq!(validate(&s, &v, &Budget::unlimited()), Ok(()));
    }

    #[test]
    fn unsafe_counter_has_a_valid_derivation() {
        let (s, v) =
            solve_text(&format!("{COUNTER} (assert (forall ((x Int) (n Int)) (=> (and (inv x n) (>= x 3)) false)))"));
        let Verdict::Unsafe(d) = &v else { panic!("expected unsafe, got {v:?}") };
        // fact, three increments, query
        assert_eq!(d.depth(), 5);
        assert_eq!(d.chain().first().map(|n| n.head_values[0].clone()), Some(Value::Int(0.into())));
        assert_eq!(validate(&s, &v, &Budget::unlimited()), Ok(()));
    }

    const TWO_COUNTERS: &str = "(declare-fun P (Int) Bool)
         (declare-fun Q (Int) Bool)
         (declare-fun R (Int Int) Bool)
         (assert (forall ((x Int)) (=> (= x 0) (P x))))
         (assert (forall ((x Int) (y Int)) (=> (and (P x) (< x 2) (= y (+ x 1))) (P y))))
         (assert (forall ((x Int)) (=> (= x 10) (Q x))))
         (assert (forall ((x Int) (y Int)) (=> (and (Q x) (< x 12) (= y (+ x 1))) (Q y))))
         (assert (forall ((x Int) (y Int)) (=> (and (Q y) (P x)) (R x y))))";

    #[test]
    fn nonlinear_unsafe_tree_is_rebuilt_with_body_order() {
        // Z3 reorders the body of the R clause (P before Q); the derivation
        // must follow our order.
        let (s, v) = solve_text(&format!(
            "{TWO_COUNTERS} (assert (forall ((x Int) (y Int) (z Int)) (=> (and (R x y) (P z) (= x 2) (= y 12) (= z 1)) false)))"
        ));
        let Verdict::Unsafe(d) = &v else { panic!("expected unsafe, got {v:?}") };
        assert_eq!(d.premises.len(), 2);
        assert_eq!(d.premises[0].head_values, vec![Value::Int(2.into()), Value::Int(12.into())]);
        assert_eq!(validate(&s, &v, &Budget::unlimited()), Ok(()));
    }

    #[test]
    fn nonlinear_safe_has_a_valid_invariant() {
        let (s, v) = solve_text(&format!(
            "{TWO_COUNTERS} (assert (forall ((x Int) (y Int)) (=> (and (R x y) (>= x y)) false)))"
        ));
        assert!(matches!(v, Verdict::Safe(_)), "{v:?}");
        assert_eq!(validate(&s, &v, &Budget::unlimited()), Ok(()));
    }

    #[test]
    fn honours_cancellation() {
        let s =
            parse_system(&format!("{COUNTER} (assert (forall ((x Int) (n Int)) (=> (and (inv x n) (> x n)) false)))"))
                .expect("parses");
        let b = Budget::unlimited();
        b.cancel.cancel();
        assert!(matches!(Spacer.solve(&s, &b), Verdict::Unknown(_)));
    }
}
