//! GNU C that lang-c's grammar lacks, rewritten before parsing into text
//! it parses, with the same meaning once the lowering reads it back:
//!
//! - `struct __attribute__((...)) S { ... }` (and `union`, `enum`): lang-c reads an attribute
//!   between `struct` and the tag as the start of something else (a
//!   function definition). The attributes move behind the closing brace,
//!   where gcc gives them the same meaning and lang-c keeps them.
//! - `_Alignas(X)` in a struct member (lang-c knows it only in declaration
//!   specifiers): everywhere it becomes the attribute
//!   `__attribute__((__tessera_alignas__(sizeof(X))))`; `sizeof` parses
//!   whether `X` is a type or an expression, and the lowering reads the
//!   alignment back from it (`_Alignas(type)` is `_Alignas(_Alignof(type))`).
//! - `__alignof__(expr)` (lang-c takes only a type name): the argument is
//!   wrapped in `__typeof__(...)`, which parses either; the position of each
//!   inserted `__typeof__` is kept so that the lowering tells it from one
//!   the program wrote. lang-c reads `__typeof__(T *)` with a typedef `T`
//!   as a multiplication, so this is the second try, when the text without
//!   it does not parse (see `c::parse_preprocessed_in`).
//! - `#pragma pack(N)`, `#pragma pack(push[, id][, N])`, `#pragma
//!   pack(pop[, id])`, `#pragma pack()` are followed as gcc follows them
//!   (a stack of values; see [`PackState`]): the value in effect at the
//!   closing brace of a struct or union definition caps the alignment of
//!   its members; [`Rewritten::pack`] gives it by the offset of the
//!   definition's keyword. Forms gcc ignores with a warning or does not
//!   know are refused, and so is `#pragma scalar_storage_order`.
//!
//! Text moves, so the result carries a map from its offsets back to the
//! original ones (see [`Rewritten::original_offset`]); lines and columns of
//! every error stay those of the source.

use std::collections::{HashMap, HashSet};

/// The attribute `_Alignas` becomes.
pub const ALIGNAS_ATTRIBUTE: &str = "__tessera_alignas__";

#[derive(Clone, Debug, Default)]
pub struct Rewritten {
    pub text: String,
    /// `(new offset, old offset, inserted)`, sorted by new offset: text
    /// from `new` on was copied from `old` on, or (inserted) stands for the
    /// single position `old`.
    segments: Vec<(usize, usize, bool)>,
    /// Offsets in `text` of the `__typeof__` inserted into `__alignof__(...)`.
    pub alignof_typeof: HashSet<usize>,
    /// Whether the text has an `__alignof__(...)` (wrapped or not).
    pub has_alignof: bool,
    /// The `#pragma pack` value (bytes, never 0) in effect at the closing
    /// brace of each struct or union definition laid out under one, by
    /// the offset in `text` of its `struct`/`union` keyword.
    pub pack: HashMap<usize, u64>,
}

impl Rewritten {
    /// The offset in the original text a byte of the rewritten one comes from.
    pub fn original_offset(&self, offset: usize) -> usize {
        let i = self.segments.partition_point(|(n, _, _)| *n <= offset);
        match i.checked_sub(1).and_then(|k| self.segments.get(k)) {
            Some(&(n, o, false)) => o + (offset - n),
            Some(&(_, o, true)) => o,
            None => offset,
        }
    }

    /// Whether anything was rewritten.
    pub fn changed(&self) -> bool {
        !self.segments.is_empty()
    }

    /// The offset in `text` of a byte copied from offset `old` of the
    /// original text (`None`: that byte was replaced).
    fn new_offset(&self, old: usize) -> Option<usize> {
        if self.segments.is_empty() {
            return Some(old);
        }
        // Copied segments, in order of their old offsets (which grow with
        // the new ones).
        let copied: Vec<(usize, usize, usize)> = self
            .segments
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.2)
            .map(|(k, &(n, o, _))| (n, o, self.segments.get(k + 1).map_or(self.text.len(), |s| s.0) - n))
            .collect();
        let i = copied.partition_point(|&(_, o, _)| o <= old);
        let &(n, o, len) = copied.get(i.checked_sub(1)?)?;
        (old - o < len).then_some(n + (old - o))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Number,
    Literal,
    Punct,
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    start: usize,
    end: usize,
    kind: Kind,
}

/// A refusal: byte offset in the original text, and what is not supported.
pub type Refusal = (usize, String);

/// Rewrite preprocessed `text` (see the module documentation).
/// `wrap_alignof`: wrap the argument of `__alignof__(...)` in `__typeof__`.
pub fn rewrite(text: &str, wrap_alignof: bool) -> Result<Rewritten, Refusal> {
    if !needs_rewrite(text) {
        return Ok(Rewritten { text: text.to_string(), ..Rewritten::default() });
    }
    let mut packs = Vec::new();
    let toks = tokens(text, &mut packs)?;
    let mut edits: Vec<Edit> = Vec::new();
    let mut scanner = Scanner { text, toks: &toks, wrap_alignof, has_alignof: false };
    scanner.scan(0, toks.len(), &mut edits)?;
    let has_alignof = scanner.has_alignof;
    let mut out = if edits.is_empty() {
        Rewritten { text: text.to_string(), has_alignof, ..Rewritten::default() }
    } else {
        Rewritten { has_alignof, ..apply(text, edits) }
    };
    for (keyword, value) in packed_records(text, &toks, &packs) {
        let at = out.new_offset(keyword).ok_or_else(|| (keyword, "a struct under `#pragma pack` whose keyword was rewritten".to_string()))?;
        out.pack.insert(at, value);
    }
    Ok(out)
}

/// gcc's `#pragma pack` state (`c-family/c-pragma.cc`): the value in
/// effect (bytes, 0: none), the values pushed (with their identifiers)
/// and the value from before the first push.
#[derive(Clone, Debug, Default)]
struct PackState {
    current: u64,
    stack: Vec<(u64, Option<String>)>,
    before_push: u64,
}

impl PackState {
    /// Apply the text between the parentheses of `#pragma pack(...)`;
    /// `Err`: a form gcc ignores (with a warning) or does not know.
    fn apply(&mut self, args: &str) -> Result<(), String> {
        let value = |w: &str| -> Result<u64, String> {
            match w.parse::<u64>() {
                Ok(n @ (0 | 1 | 2 | 4 | 8 | 16)) => Ok(n),
                _ => Err(format!("`#pragma pack` with the value `{w}` (gcc ignores it: not 0, 1, 2, 4, 8 or 16)")),
            }
        };
        let parts: Vec<&str> = args.split(',').map(str::trim).collect();
        match parts.as_slice() {
            [""] => self.set(0),
            [n] if *n != "push" && *n != "pop" => self.set(value(n)?),
            ["push", rest @ ..] if rest.len() <= 2 => {
                let (mut id, mut n) = (None, None);
                for (k, w) in rest.iter().enumerate() {
                    if w.starts_with(|c: char| c.is_ascii_digit()) {
                        n = Some(value(w)?);
                    } else if k == 0 && is_identifier(w) {
                        id = Some(w.to_string());
                    } else {
                        return Err(format!("a malformed `#pragma pack(push{})`", rest.iter().map(|w| format!(", {w}")).collect::<String>()));
                    }
                }
                if n.is_none() && rest.len() == 2 {
                    return Err("a malformed `#pragma pack(push, ...)`".into());
                }
                let n = n.unwrap_or(self.current);
                if self.stack.is_empty() {
                    self.before_push = self.current;
                }
                self.stack.push((n, id));
                self.current = n;
            }
            ["pop"] => self.pop(None),
            ["pop", id] if is_identifier(id) => self.pop(Some(id)),
            _ => return Err(format!("the form `#pragma pack({args})`")),
        }
        Ok(())
    }

    fn set(&mut self, n: u64) {
        match self.stack.last_mut() {
            Some(top) => top.0 = n,
            None => self.before_push = n,
        }
        self.current = n;
    }

    fn pop(&mut self, id: Option<&str>) {
        if self.stack.is_empty() {
            // gcc warns and keeps the value.
            return;
        }
        if let Some(id) = id {
            // Everything above the entry pushed with `id` goes; none: one.
            if let Some(k) = self.stack.iter().rposition(|(_, i)| i.as_deref() == Some(id)) {
                self.stack.truncate(k + 1);
            }
        }
        self.stack.pop();
        self.current = self.stack.last().map_or(self.before_push, |t| t.0);
    }
}

fn is_identifier(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The struct and union definitions closed while a `#pragma pack` value
/// was in effect: `(offset of the keyword, value)`. `packs`: the value in
/// effect from each offset on, in order.
fn packed_records(text: &str, toks: &[Tok], packs: &[(usize, u64)]) -> Vec<(usize, u64)> {
    if packs.iter().all(|&(_, v)| v == 0) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Ident || !matches!(word(text, t), "struct" | "union") {
            continue;
        }
        // Attributes, then the tag, then the body.
        let mut k = i + 1;
        while k < toks.len() && is_attribute_keyword(word(text, &toks[k])) {
            let Some(close) = (k + 1 < toks.len()).then(|| matching(text, toks, k + 1, toks.len())).flatten() else { break };
            k = close + 1;
        }
        if k < toks.len() && toks[k].kind == Kind::Ident {
            k += 1;
        }
        if k >= toks.len() || word(text, &toks[k]) != "{" {
            continue;
        }
        let Some(close) = matching(text, toks, k, toks.len()) else { continue };
        let at = toks[close].start;
        let value = packs[..packs.partition_point(|&(o, _)| o < at)].last().map_or(0, |&(_, v)| v);
        if value != 0 {
            out.push((t.start, value));
        }
    }
    out
}

struct Scanner<'t> {
    text: &'t str,
    toks: &'t [Tok],
    wrap_alignof: bool,
    has_alignof: bool,
}

fn needs_rewrite(text: &str) -> bool {
    ["_Alignas", "alignof", "_Alignof", "#pragma", "# pragma", "struct", "union", "enum"].iter().any(|w| text.contains(w))
}

/// Replace `old_start..old_end` by `insert`; `mark`: the offset within
/// `insert` of a `__typeof__` to remember.
#[derive(Clone, Debug)]
struct Edit {
    start: usize,
    end: usize,
    insert: String,
    mark: Option<usize>,
}

fn apply(text: &str, mut edits: Vec<Edit>) -> Rewritten {
    edits.sort_by_key(|e| (e.start, e.end));
    let mut out = Rewritten::default();
    let mut at = 0usize;
    for e in edits {
        if e.start < at {
            // Overlapping edits cannot come from `scan`; keep the first.
            continue;
        }
        if e.start > at {
            out.segments.push((out.text.len(), at, false));
            out.text.push_str(&text[at..e.start]);
        }
        if !e.insert.is_empty() {
            if let Some(m) = e.mark {
                out.alignof_typeof.insert(out.text.len() + m);
            }
            out.segments.push((out.text.len(), e.start, true));
            out.text.push_str(&e.insert);
        }
        at = e.end;
    }
    out.segments.push((out.text.len(), at, false));
    out.text.push_str(&text[at..]);
    out
}

/// The tokens of `text`; `packs` gets the `#pragma pack` value in effect
/// from each such pragma on (see [`PackState`]).
fn tokens(text: &str, packs: &mut Vec<(usize, u64)>) -> Result<Vec<Tok>, Refusal> {
    let mut pack = PackState::default();
    let b = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0usize;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // A line marker or a pragma: the whole line.
            let end = text[i..].find('\n').map_or(b.len(), |k| i + k);
            let line = &text[i + 1..end];
            if let Some(rest) = line.trim_start().strip_prefix("pragma").filter(|r| r.starts_with(char::is_whitespace)) {
                let rest = rest.trim();
                let name_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                match &rest[..name_end] {
                    "pack" => {
                        let args = rest[name_end..].trim().strip_prefix('(').and_then(|a| a.trim_end().strip_suffix(')'));
                        let Some(args) = args else {
                            return Err((i, format!("the form `#pragma {rest}` (gcc ignores it)")));
                        };
                        pack.apply(args).map_err(|what| (i, what))?;
                        packs.push((i, pack.current));
                    }
                    "scalar_storage_order" => return Err((i, "`#pragma scalar_storage_order`".into())),
                    _ => {}
                }
            }
            i = end;
            continue;
        }
        line_start = false;
        let start = i;
        let kind = if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            Kind::Literal
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            // A preprocessing number (`1e+5`, `0x1p-3`, `10UL`).
            i += 1;
            while i < b.len() {
                let d = b[i];
                if (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P') {
                    i += 1;
                } else if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || d == b'\'' {
                    i += 1;
                } else {
                    break;
                }
            }
            Kind::Number
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            // A string or character literal with a prefix (`L"x"`, `u8'a'`).
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') && matches!(&text[start..i], "L" | "u" | "U" | "u8") {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                Kind::Literal
            } else {
                Kind::Ident
            }
        } else {
            const LONG: [&str; 22] = [
                "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=",
            ];
            let len = LONG.iter().find(|p| text[i..].starts_with(**p)).map_or(1, |p| p.len());
            i += len;
            Kind::Punct
        };
        toks.push(Tok { start, end: i.min(b.len()), kind });
    }
    Ok(toks)
}

fn word<'t>(text: &'t str, t: &Tok) -> &'t str {
    &text[t.start..t.end]
}

/// The index of the token closing the bracket opened at `open`.
fn matching(text: &str, toks: &[Tok], open: usize, end: usize) -> Option<usize> {
    let (o, c) = match word(text, &toks[open]) {
        "(" => ("(", ")"),
        "{" => ("{", "}"),
        "[" => ("[", "]"),
        _ => return None,
    };
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().take(end).skip(open) {
        if t.kind != Kind::Punct {
            continue;
        }
        let w = word(text, t);
        if w == o {
            depth += 1;
        } else if w == c {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

fn is_attribute_keyword(w: &str) -> bool {
    w == "__attribute__" || w == "__attribute"
}

/// The tokens `from..to` with their own rewrites applied, as text.
impl Scanner<'_> {
fn rewritten_slice(&mut self, from: usize, to: usize) -> Result<String, Refusal> {
    let (text, toks) = (self.text, self.toks);
    let (Some(first), Some(last)) = (toks.get(from), to.checked_sub(1).and_then(|k| toks.get(k))) else {
        return Ok(String::new());
    };
    let mut inner = Vec::new();
    self.scan(from, to, &mut inner)?;
    let (start, end) = (first.start, last.end);
    let mut local: Vec<Edit> = inner
        .into_iter()
        .map(|e| Edit { start: e.start - start, end: e.end - start, ..e })
        .collect();
    local.sort_by_key(|e| e.start);
    Ok(apply(&text[start..end], local).text)
}

fn scan(&mut self, from: usize, to: usize, edits: &mut Vec<Edit>) -> Result<(), Refusal> {
    let (text, toks) = (self.text, self.toks);
    let mut i = from;
    while i < to {
        let t = toks[i];
        if t.kind != Kind::Ident {
            i += 1;
            continue;
        }
        match word(text, &t) {
            "struct" | "union" | "enum" => {
                // Attributes between the keyword and the tag or body.
                let mut k = i + 1;
                while k < to && is_attribute_keyword(word(text, &toks[k])) {
                    let Some(close) = (k + 1 < to).then(|| matching(text, toks, k + 1, to)).flatten() else { break };
                    k = close + 1;
                }
                if k == i + 1 {
                    i += 1;
                    continue;
                }
                let attrs = self.rewritten_slice(i + 1, k)?;
                let mut body = k;
                if body < to && toks[body].kind == Kind::Ident {
                    body += 1;
                }
                let close = (body < to && word(text, &toks[body]) == "{").then(|| matching(text, toks, body, to)).flatten();
                let Some(close) = close else {
                    return Err((toks[i + 1].start, "an attribute on a struct, union or enum that is not being defined here".into()));
                };
                edits.push(Edit { start: toks[i + 1].start, end: toks[k - 1].end, insert: String::new(), mark: None });
                edits.push(Edit { start: toks[close].end, end: toks[close].end, insert: format!(" {attrs}"), mark: None });
                i = k;
            }
            "_Alignas" => {
                let close = (i + 1 < to && word(text, &toks[i + 1]) == "(").then(|| matching(text, toks, i + 1, to)).flatten();
                let Some(close) = close else {
                    i += 1;
                    continue;
                };
                edits.push(Edit {
                    start: t.start,
                    end: toks[i + 1].end,
                    insert: format!("__attribute__(({ALIGNAS_ATTRIBUTE}(sizeof("),
                    mark: None,
                });
                edits.push(Edit { start: toks[close].start, end: toks[close].end, insert: "))))".into(), mark: None });
                i += 2;
            }
            "_Alignof" | "__alignof__" | "__alignof" => {
                let close = (i + 1 < to && word(text, &toks[i + 1]) == "(").then(|| matching(text, toks, i + 1, to)).flatten();
                let Some(close) = close else {
                    // `__alignof__ x` without parentheses: lang-c's parse
                    // fails and gcc's verdict decides (see `c::parse_file_in`).
                    i += 1;
                    continue;
                };
                self.has_alignof = true;
                if !self.wrap_alignof {
                    i += 2;
                    continue;
                }
                let open_end = toks[i + 1].end;
                edits.push(Edit { start: open_end, end: open_end, insert: "__typeof__(".into(), mark: Some(0) });
                edits.push(Edit { start: toks[close].start, end: toks[close].start, insert: ")".into(), mark: None });
                i += 2;
            }
            _ => i += 1,
        }
    }
    Ok(())
}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn struct_attributes_move_behind_the_body() {
        let src = "struct __attribute__((aligned(16))) S { char c; } s;";
        let r = rewrite(src, true).expect("rewrites");
        assert_eq!(r.text, "struct  S { char c; } __attribute__((aligned(16))) s;");
        // `S` maps back to its own column; the moved attribute to the brace.
        let s = r.text.find("S {").unwrap_or(0);
        assert_eq!(r.original_offset(s), src.find("S {").unwrap_or(0));
    }

    #[test]
    fn alignas_and_alignof_become_parsable() {
        let r = rewrite("struct T { _Alignas(8) int x; }; long a = __alignof__(v.x);", true).expect("rewrites");
        assert!(r.text.contains("__attribute__((__tessera_alignas__(sizeof(8)))) int x;"), "{}", r.text);
        assert!(r.text.contains("__alignof__(__typeof__(v.x))"), "{}", r.text);
        let at = r.text.find("__typeof__").unwrap_or(0);
        assert!(r.alignof_typeof.contains(&at));
        // A string that mentions the words is left alone.
        let r = rewrite("char *s = \"_Alignas(8)\";", true).expect("rewrites");
        assert_eq!(r.text, "char *s = \"_Alignas(8)\";");
    }

    /// The pack values of the records of `src`, by tag (or `?`).
    fn packs(src: &str) -> Vec<(String, u64)> {
        let r = rewrite(src, true).unwrap_or_else(|e| panic!("{e:?}"));
        let mut out: Vec<(usize, String, u64)> = r
            .pack
            .iter()
            .map(|(&at, &v)| {
                let tag = r.text[at..].split_whitespace().nth(1).unwrap_or("?");
                (at, if tag == "{" { "?".to_string() } else { tag.to_string() }, v)
            })
            .collect();
        out.sort();
        out.into_iter().map(|(_, t, v)| (t, v)).collect()
    }

    #[test]
    fn pragma_pack_follows_gcc_stack() {
        let src = "# 1 \"a.c\"\n#pragma pack(1)\nstruct A { char c; };\n#pragma pack()\nstruct B { int x; };\n\
            #pragma pack(push, 2)\n#pragma pack(4)\n#pragma pack(push, 8)\n#pragma pack(pop)\nstruct C { int x; };\n\
            #pragma pack(pop)\nstruct D { int x; };\n#pragma pack(pop)\n\
            # pragma pack (push, lbl, 1)\n#pragma pack(push, 2)\n#pragma pack(pop, lbl)\nunion E { int x; };\n\
            #pragma pack(16)\nstruct __attribute__((aligned(4))) F { struct { int y; } in;\n#pragma pack(2)\n};\n\
            struct F *p; struct G { int z; };\n#pragma pack()\n";
        assert_eq!(
            packs(src),
            [("A", 1), ("C", 4), ("F", 2), ("?", 16), ("G", 2)].map(|(t, v)| (t.to_string(), v)).to_vec()
        );
        // The keyword's offset follows the text when attributes move.
        let r = rewrite("#pragma pack(2)\nint a; struct __attribute__((aligned(8))) S { char c; };\n", true).expect("rewrites");
        let at = r.pack.keys().next().copied().unwrap_or(0);
        assert!(r.text[at..].starts_with("struct  S {"), "{}", &r.text[at..]);
    }

    #[test]
    fn pragma_pack_forms_gcc_ignores_are_refused() {
        for bad in ["pack(3)", "pack(push, a, b)", "pack(pop, 2)", "pack", "pack(show)", "pack(x)", "scalar_storage_order default"] {
            assert!(rewrite(&format!("#pragma {bad}\nstruct S {{ char c; }};\n"), true).is_err(), "{bad}");
        }
        assert!(rewrite("#pragma once\nint x;\n", true).is_ok());
        assert!(rewrite("#pragma pack(pop)\nstruct S { char c; };\n", true).is_ok_and(|r| r.pack.is_empty()));
    }
}
