//! Parsing preprocessed C with lang-c, with its failures turned into errors
//! that point at the original source.

use super::source::SourceMap;
use crate::error::{Result, TesseraError};
use lang_c::ast::TranslationUnit;
use lang_c::driver::{parse_preprocessed, Config};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// lang-c is a recursive-descent parser: very deep nesting would overflow the
/// stack (an abort, not a catchable panic). Real programs nest far less.
const MAX_NESTING: usize = 400;

pub fn parse(text: &str, map: &SourceMap) -> Result<TranslationUnit> {
    check_nesting(text, map)?;
    let config = Config::with_gcc();
    let owned = gnu_type_names(text);
    let result = catch_unwind(AssertUnwindSafe(|| parse_preprocessed(&config, owned)));
    match result {
        Ok(Ok(parse)) => Ok(parse.unit),
        Ok(Err(e)) => Err(syntax_error(text, map, e.offset, &e.expected)),
        Err(_) => Err(TesseraError::syntax(
            map.span(text, 0).map(|mut s| {
                s.line = 1;
                s.col = 1;
                s
            }),
            "the C parser (lang-c) failed on this input",
        )),
    }
}

/// Universal character names (`\u00e9`, `\U0001F600`), which lang-c's
/// lexer does not know: inside character and string literals they become
/// the character itself (a plain literal then holds its UTF-8 bytes, as gcc
/// encodes it; a wide one its code point); in identifiers `\u` becomes `_u`
/// (same length, a name of its own). Columns after a literal's UCN on the
/// same line move by a few bytes; lines stay where they are.
pub fn universal_character_names(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("\\u") && !text.contains("\\U") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), _) if c == q => quote = None,
                (Some(_), '\n') => quote = None,
                _ => {}
            }
            out.push(c);
            continue;
        }
        let digits = match chars.peek() {
            Some('u') => 4,
            Some('U') => 8,
            Some(&e) if quote.is_some() => {
                // Any other escape: copied, with the character it escapes.
                out.push(c);
                out.push(e);
                chars.next();
                continue;
            }
            _ => 0,
        };
        let hex: String = chars.clone().skip(1).take(digits).collect();
        let code = (digits > 0 && hex.len() == digits && hex.chars().all(|h| h.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32))
            .flatten();
        match (code, quote) {
            (Some(ch), Some(_)) => {
                out.push(ch);
                for _ in 0..=digits {
                    chars.next();
                }
            }
            (Some(_), None) => out.push('_'),
            (None, _) => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// gcc's builtin type `__float128` (used by glibc headers, e.g. in
/// `max_align_t`) is unknown to lang-c. It is rewritten in place to `double`
/// padded to the same length, so every byte offset (and so every reported
/// position) stays where it was; floating-point values are abstracted
/// anyway, so the exact format does not matter.
fn gnu_type_names(text: &str) -> String {
    const NAME: &str = "__float128";
    const PADDED: &str = "double    ";
    if !text.contains(NAME) {
        return text.to_string();
    }
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(NAME) {
        let before = rest[..i].chars().next_back().or_else(|| out.chars().next_back());
        let after = rest[i + NAME.len()..].chars().next();
        out.push_str(&rest[..i]);
        out.push_str(if ident(before) || ident(after) { NAME } else { PADDED });
        rest = &rest[i + NAME.len()..];
    }
    out.push_str(rest);
    out
}

fn syntax_error(text: &str, map: &SourceMap, offset: usize, expected: &std::collections::HashSet<&str>) -> TesseraError {
    let span = map.span(text, offset);
    let rest = text.get(offset..).unwrap_or("");
    let before = text.get(..offset).unwrap_or("");
    let token: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace())
        .take(24)
        .collect();
    let prev_word: String = {
        let trimmed = before.trim_end();
        let rev: String = trimmed
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        rev.chars().rev().collect()
    };
    // GNU constructs lang-c does not know: valid C for gcc, so "unsupported".
    if token.starts_with("__int128") || prev_word.starts_with("__int128") {
        return TesseraError::unsupported(span, "the type __int128");
    }
    if before.trim_end().ends_with('?') && rest.trim_start().starts_with(':') {
        return TesseraError::unsupported(span, "the GNU conditional `a ?: b` without a middle operand");
    }
    let statement_so_far = before.rsplit([';', '{', '}']).next().unwrap_or("");
    if token.starts_with("__attribute__") || prev_word == "__attribute__" || statement_so_far.contains("__attribute__") {
        return TesseraError::unsupported(span, "an attribute in this position (e.g. a statement attribute)");
    }
    let mut exp: Vec<&str> = expected.iter().copied().collect();
    exp.sort_unstable();
    exp.truncate(12);
    let found = if token.is_empty() { "end of input".to_string() } else { format!("`{token}`") };
    TesseraError::syntax(span, format!("unexpected {found}, expected one of {}", exp.join(" ")))
}

fn check_nesting(text: &str, map: &SourceMap) -> Result<()> {
    let mut depth = 0usize;
    let mut in_str: Option<char> = None;
    let mut escaped = false;
    let mut line_start = true;
    let mut in_directive = false;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            line_start = true;
            in_directive = false;
            in_str = None;
            continue;
        }
        if in_directive {
            continue;
        }
        if line_start && c == '#' {
            in_directive = true;
            continue;
        }
        if !c.is_whitespace() {
            line_start = false;
        }
        if let Some(q) = in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                in_str = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => in_str = Some(c),
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(TesseraError::unsupported(
                        map.span(text, i),
                        format!("brackets nested more than {MAX_NESTING} deep"),
                    ));
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}
