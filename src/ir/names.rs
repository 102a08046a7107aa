//! How the program's variables are shown to people and to witness
//! validators: internal names (`f.x.2`, `tmp%1`, `mem1[0]`) mapped to
//! source names, and the variables that have no name in the source hidden.
//! Used by the report's printers and by the termination witnesses (which
//! leave unnameable variables free), so it lives with the variables.

use super::Variable;
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
    /// `f.x`, `f.x.2`) as `x@f`, `x@f#2`; temporaries (`%` in the name) and
    /// instrumentation variables (not program variables) hidden.
    pub fn readable(vars: &[Variable]) -> Names {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for v in vars {
            *count.entry(v.source_name.as_str()).or_default() += 1;
        }
        let shown = vars
            .iter()
            .filter(|v| !is_temporary(v))
            .map(|v| {
                let shown = if v.name == v.source_name || count[v.source_name.as_str()] == 1 {
                    v.source_name.clone()
                } else {
                    qualified(&v.name, &v.source_name)
                };
                (v.name.clone(), shown)
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
        let nameable = |v: &&Variable| !is_temporary(v) && is_c_access_path(&v.source_name);
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
            .filter(|v| !is_temporary(v) && count[v.source_name.as_str()] == 1 && is_c_identifier(&v.source_name))
            .map(|v| (v.name.clone(), v.source_name.clone()))
            .collect();
        Names { shown }
    }

    /// Every name shown as it is (for outcomes without variable information),
    /// except the instrumentation's counters and snapshots (`#`) and the
    /// front end's temporaries (`%`).
    pub fn internal(names: impl IntoIterator<Item = String>) -> Names {
        Names { shown: names.into_iter().filter(|n| !is_internal_name(n)).map(|n| (n.clone(), n)).collect() }
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

/// The instrumentation's counters and snapshots (`#`) and the front end's
/// temporaries (`%`): names that are not the program's.
pub fn is_internal_name(name: &str) -> bool {
    name.contains('#') || name.contains('%')
}

fn is_temporary(v: &Variable) -> bool {
    v.name.contains('%') || v.source_name.contains('%')
}

/// A variable, or a cell of an array or struct variable as the front end
/// names it (`a[2]`, `s.next`, `m[1][0]`, `arr[1].b`): an lvalue the
/// source can write where the variable is in scope. Cells of heap blocks
/// (`mem1[0]`) and of compound literals have no such name.
fn is_c_access_path(s: &str) -> bool {
    let root_end = s.find(['[', '.']).unwrap_or(s.len());
    let (root, mut rest) = s.split_at(root_end);
    let heap = root.strip_prefix("mem").is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    if !is_c_identifier(root) || heap {
        return false;
    }
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let Some(close) = r.find(']') else { return false };
            if close == 0 || !r[..close].chars().all(|c| c.is_ascii_digit()) {
                return false;
            }
            rest = &r[close + 1..];
        } else if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['[', '.']).unwrap_or(r.len());
            if !is_c_identifier(&r[..end]) {
                return false;
            }
            rest = &r[end..];
        } else {
            return false;
        }
    }
    true
}

fn is_c_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `f.x` -> `x@f`, `f.x.2` -> `x@f#2` (the front end's scheme, `c::cfg`).
fn qualified(name: &str, source: &str) -> String {
    let dotted = format!(".{source}");
    if let Some(f) = name.strip_suffix(&dotted) {
        return format!("{source}@{f}");
    }
    if let Some(pos) = name.rfind(&format!("{dotted}.")) {
        let (f, k) = (&name[..pos], &name[pos + dotted.len() + 1..]);
        if !f.is_empty() && k.chars().all(|c| c.is_ascii_digit()) {
            return format!("{source}@{f}#{k}");
        }
    }
    format!("{source}@{name}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IntType;

    fn var(name: &str, source: &str) -> Variable {
        Variable { name: name.into(), source_name: source.into(), ty: IntType::INT, function: None }
    }

    #[test]
    fn copies_are_qualified_and_ambiguous_names_hidden() {
        assert_eq!(qualified("f.x.2", "x"), "x@f#2");
        let u = Names::unambiguous(&[var("x", "x"), var("f.x", "x"), var("y", "y")]);
        assert_eq!(u.get("y"), Some("y"));
        assert_eq!(u.get("x"), None);
    }
}
