//! How the program's variables are shown to people and to witness
//! validators: internal names (`f.x.2`, `tmp%1`, `mem1[0]`) mapped to
//! source names, and the variables that have no name in the source hidden.
//! Used by the report's printers and by the termination witnesses, so it
//! lives with the variables. What a variable is comes from its
//! [`super::Origin`], never from the characters of its name.

use super::{Renaming, Variable};
use crate::term::Term;
use std::collections::{BTreeMap, BTreeSet};

/// How internal variable names are shown.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// Internal name -> printed name; a variable absent here is hidden.
    shown: BTreeMap<String, String>,
}

impl Names {
    /// Names for people: a C variable by its source name; copies of the same
    /// source name (shadowed locals, inlined calls, which the front end names
    /// `f.x`, `f.x.2`) as `x@f`, `x@f#2`; temporaries (and the cells and
    /// parts of temporaries and compound literals) hidden.
    /// The model's bookkeeping is hidden (see [`Detail::Program`]).
    pub fn readable(vars: &[Variable]) -> Names {
        Names::readable_with(vars, Detail::Program)
    }

    /// [`Names::readable`], showing as much of the model as `detail` says.
    pub fn readable_with(vars: &[Variable], detail: Detail) -> Names {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for v in vars {
            *count.entry(v.source_name.as_str()).or_default() += 1;
        }
        let as_written = |v: &Variable| {
            if v.name == v.source_name || count[v.source_name.as_str()] == 1 {
                v.source_name.clone()
            } else {
                qualified(v)
            }
        };
        let shown = vars
            .iter()
            .filter(|v| !v.origin.is_temporary())
            .filter_map(|v| {
                let shown = match detail {
                    Detail::Model => as_written(v),
                    Detail::Program => program_word(v, &count)?,
                };
                Some((v.name.clone(), shown))
            })
            .collect();
        Names { shown }
    }

    /// Names for a witness at a loop of `function`, which a validator
    /// parses as C there: a local of that function under its source name
    /// when no other copy of it (another inlined call of the function) is
    /// among `live`; a global under its name when the function has no local
    /// of that name. Everything else (other functions' locals, which are out
    /// of scope at the loop; temporaries) is hidden. With no function known,
    /// only names unambiguous in the whole program.
    pub fn in_scope(vars: &[Variable], function: &str, live: Option<&BTreeSet<String>>) -> Names {
        if function.is_empty() {
            return Names::unambiguous(vars);
        }
        let nameable = |v: &&Variable| !v.origin.is_temporary() && v.origin.reads_as_lvalue();
        let is_live = |v: &Variable| live.is_none_or(|l| l.contains(&v.name));
        let local = |v: &Variable| v.function.as_deref() == Some(function);
        let mut copies: BTreeMap<&str, usize> = BTreeMap::new();
        let mut globals: BTreeMap<&str, usize> = BTreeMap::new();
        let mut locals: BTreeSet<&str> = BTreeSet::new();
        for v in vars.iter().filter(nameable) {
            if local(v) {
                locals.insert(&v.source_name);
                if is_live(v) {
                    *copies.entry(&v.source_name).or_default() += 1;
                }
            } else if v.function.is_none() {
                *globals.entry(&v.source_name).or_default() += 1;
            }
        }
        let shown = vars
            .iter()
            .filter(nameable)
            .filter(|v| match &v.function {
                Some(_) => local(v) && is_live(v) && copies.get(v.source_name.as_str()) == Some(&1),
                None => !locals.contains(v.source_name.as_str()) && globals.get(v.source_name.as_str()) == Some(&1),
            })
            .map(|v| (v.name.clone(), v.source_name.clone()))
            .collect();
        Names { shown }
    }

    /// Names for witnesses when the loop's function is not known: only
    /// variables whose source name is unambiguous in the whole program.
    pub fn unambiguous(vars: &[Variable]) -> Names {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for v in vars {
            *count.entry(v.source_name.as_str()).or_default() += 1;
        }
        let shown = vars
            .iter()
            .filter(|v| !v.origin.is_temporary() && count[v.source_name.as_str()] == 1 && v.origin.is_identifier())
            .map(|v| (v.name.clone(), v.source_name.clone()))
            .collect();
        Names { shown }
    }

    /// Only the variables in `live` (a variable dead at a loop header
    /// arrives there as 0; facts about it say nothing about the loop).
    pub fn restricted(&self, live: &BTreeSet<String>) -> Names {
        Names { shown: self.shown.iter().filter(|(k, _)| live.contains(*k)).map(|(k, v)| (k.clone(), v.clone())).collect() }
    }

    /// These names, and every other variable of `t` under its internal
    /// name (for sets that must be printed exactly, see [`exact_condition`]).
    pub fn showing_all_of(&self, t: &Term) -> Names {
        let mut shown = self.shown.clone();
        for v in t.free_vars() {
            shown.entry(v.name.clone()).or_insert_with(|| v.name.clone());
        }
        Names { shown }
    }

    pub fn get(&self, internal: &str) -> Option<&str> {
        self.shown.get(internal).map(|s| s.as_str())
    }

    /// Whether every variable of `t` is shown.
    pub fn shows_all(&self, t: &Term) -> bool {
        t.free_vars().iter().all(|v| self.shown.contains_key(&v.name))
    }
}

/// How much of the program model a printout names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// The program's own variables and C lvalues (`a[2]`, `s.next`), and
    /// three documented words for heap quantities: `order(p)`, the place of
    /// the block `p` points to in the order of allocation, `allocations`,
    /// the place the next block allocated will get (`allocations -
    /// order(p)` ranks a walk to newer blocks), and `offset(p)`, `p`'s
    /// distance in bytes from the start of its block (`p - a` for a
    /// pointer into array `a`). What the model keeps besides (a block's
    /// size, the facts it keeps per link) is not shown: a fact about it is
    /// dropped from a printed invariant, which only weakens it.
    #[default]
    Program,
    /// Every variable of the model, under its internal name where it has
    /// no other (`--verbose`).
    Model,
}

/// The word [`Detail::Program`] shows a variable by, `None` to hide it.
fn program_word(v: &Variable, count: &BTreeMap<&str, usize>) -> Option<String> {
    use super::origin::{Owner, PointerPart};
    use super::Origin;
    let written = |source: &str| {
        // As `readable` writes a variable: qualified only when renamed
        // apart from another of its source name.
        if v.renamed.is_none() || count.get(v.source_name.as_str()).copied().unwrap_or(0) <= 1 {
            source.to_string()
        } else {
            qualified(&Variable { source_name: source.to_string(), ..v.clone() })
        }
    };
    match &v.origin {
        Origin::Source => Some(written(&v.source_name)),
        Origin::Cell { of: Owner::Variable | Owner::StaticLocal, .. } => Some(written(&v.source_name)),
        Origin::PointerPart { of: Owner::Variable, part: PointerPart::Base, pointer } => Some(format!("order({})", written(pointer))),
        Origin::PointerPart { of: Owner::Variable, part: PointerPart::Offset, pointer } => Some(format!("offset({})", written(pointer))),
        Origin::Allocation(super::origin::AllocationPart::Counter) => Some("allocations".to_string()),
        Origin::UnsignedView => Some(written(&v.source_name)),
        _ => None,
    }
}

/// `f.x` -> `x@f`, `f.x.2` -> `x@f#2`, from how the front end renamed
/// the variable (see [`super::Renaming`]).
fn qualified(v: &Variable) -> String {
    let source = &v.source_name;
    match &v.renamed {
        Some(Renaming { scope, copy: None }) => format!("{source}@{scope}"),
        Some(Renaming { scope, copy: Some(k) }) if !scope.is_empty() => format!("{source}@{scope}#{k}"),
        _ => format!("{source}@{}", v.name),
    }
}

#[cfg(test)]
mod tests {
    use super::test_vars::*;
    use super::*;

    #[test]
    fn copies_are_qualified_and_ambiguous_names_hidden() {
        assert_eq!(qualified(&copy("f", "x", Some(2))), "x@f#2");
        let u = Names::unambiguous(&[source("x"), copy("f", "x", None), source("y")]);
        assert_eq!(u.get("y"), Some("y"));
        assert_eq!(u.get("x"), None);
    }
}

/// Variables for tests of the printers.
#[cfg(test)]
pub(crate) mod test_vars {
    use crate::ir::{IntType, Origin, Renaming, Variable};

    /// A C variable under its own name.
    pub fn source(name: &str) -> Variable {
        Variable { name: name.into(), source_name: name.into(), ty: IntType::INT, function: None, origin: Origin::Source, renamed: None }
    }

    /// A copy of C variable `x` declared in `scope`: `scope.x` or `scope.x.k`.
    pub fn copy(scope: &str, x: &str, k: Option<usize>) -> Variable {
        let name = match k {
            None => format!("{scope}.{x}"),
            Some(k) => format!("{scope}.{x}.{k}"),
        };
        Variable { name, renamed: Some(Renaming { scope: scope.into(), copy: k }), ..source(x) }
    }

    /// A front-end temporary.
    pub fn temporary(name: &str) -> Variable {
        Variable { origin: Origin::Temporary, ..source(name) }
    }
}
