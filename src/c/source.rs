//! Preprocessing with `gcc -E` and the map from offsets in the preprocessed
//! text back to `file:line:col` of the original sources.
//!
//! lang-c reports byte offsets into the text it parsed; gcc keeps the
//! original positions recoverable through its `# <line> "<file>"` markers
//! (and preserves columns by re-emitting leading whitespace).

use crate::error::{Result, TesseraError};
use crate::ir::Span;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Preprocess a file on disk (its own directory resolves `#include "..."`).
pub fn preprocess_file(path: &Path) -> Result<String> {
    let display = path.display().to_string();
    // Read first so that a missing file is an Io error, not a gcc message.
    let bytes = std::fs::read(path).map_err(|e| TesseraError::Io { path: display.clone(), message: e.to_string() })?;
    reject_nul(&display, &bytes)?;
    let output = match Command::new("gcc").args(["-E", "-x", "c"]).arg(path).stdin(Stdio::null()).output() {
        Ok(output) => output,
        // Without gcc, an already preprocessed `.i` file is read as it is.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && path.extension() == Some("i".as_ref()) => {
            return String::from_utf8(bytes).map_err(|e| TesseraError::Io { path: display, message: e.to_string() });
        }
        Err(e) => return Err(TesseraError::Io { path: "gcc".into(), message: format!("cannot run the preprocessor: {e}") }),
    };
    finish(output, &display)
}

/// Preprocess C text given in memory. A leading `#line` directive makes gcc
/// (and therefore our spans) name `file_name` instead of `<stdin>`.
pub fn preprocess_text(file_name: &str, text: &str) -> Result<String> {
    reject_nul(file_name, text.as_bytes())?;
    let quoted: String = file_name
        .chars()
        .flat_map(|c| match c {
            '\\' | '"' => vec!['\\', c],
            '\n' | '\r' => vec![' '],
            c => vec![c],
        })
        .collect();
    let mut input = format!("#line 1 \"{quoted}\"\n").into_bytes();
    input.extend_from_slice(text.as_bytes());
    let mut child = Command::new("gcc")
        .args(["-E", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| TesseraError::Io { path: "gcc".into(), message: format!("cannot run the preprocessor: {e}") })?;
    // Write on a separate thread: gcc may fill its stdout pipe before it has
    // read all of its input.
    let stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(mut s) = stdin {
            let _ = s.write_all(&input);
        }
    });
    let output = child
        .wait_with_output()
        .map_err(|e| TesseraError::Io { path: "gcc".into(), message: e.to_string() })?;
    let _ = writer.join();
    finish(output, file_name)
}

fn finish(output: std::process::Output, file: &str) -> Result<String> {
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(gcc_error(&stderr, file));
    }
    String::from_utf8(output.stdout).map_err(|e| {
        TesseraError::syntax(
            Some(Span { file: file.to_string(), line: 1, col: 1 }),
            format!("the preprocessed source is not UTF-8 ({e})"),
        )
    })
}

/// gcc's own check of a translation unit (`gcc -fsyntax-only`), running
/// beside the front end: the C a compiler rejects (two definitions of a
/// function, duplicate case labels, assignment to a `const`, a
/// non-constant initializer of a global, ...) is not a program, and gets
/// no answer. Without gcc the front end's own checks remain.
pub struct CompilerCheck {
    child: std::process::Child,
    writer: std::thread::JoinHandle<()>,
}

impl CompilerCheck {
    /// Start checking preprocessed `text` for the target `machine`.
    /// `-fpermissive` keeps what newer gcc turned from warnings into errors
    /// (implicit declarations, int/pointer conversions) accepted, as C90
    /// and the verification tasks have them.
    pub fn start(text: &str, machine: &crate::ir::MachineModel) -> Option<CompilerCheck> {
        let bits = machine.gcc_flag;
        let mut child = Command::new("gcc")
            .args(["-fsyntax-only", "-fpermissive", "-w", bits, "-x", "cpp-output", "-"])
            .env("LC_ALL", "C")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .ok()?;
        let stdin = child.stdin.take();
        let input = text.as_bytes().to_vec();
        let writer = std::thread::spawn(move || {
            if let Some(mut s) = stdin {
                let _ = s.write_all(&input);
            }
        });
        Some(CompilerCheck { child, writer })
    }

    /// The first error gcc reported at a position in the program as an
    /// error; else whether gcc accepted the program (`false`: gcc could not
    /// run, or failed without saying where, as a missing 32-bit target
    /// does: no fault of the program, and no verdict either).
    pub fn finish(self, file: &str) -> Result<bool> {
        let output = self.child.wait_with_output();
        let _ = self.writer.join();
        let Ok(output) = output else { return Ok(false) };
        if output.status.success() {
            return Ok(true);
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        for line in stderr.lines() {
            let Some(pos) = line.find(": error: ") else { continue };
            let Some(span) = gcc_position(&line[..pos], file) else { continue };
            return Err(TesseraError::invalid(Some(span), line[pos + ": error: ".len()..].to_string()));
        }
        Ok(false)
    }
}

/// `file:line:col` of a gcc diagnostic (`<stdin>` is `file`).
fn gcc_position(place: &str, file: &str) -> Option<Span> {
    let mut parts = place.rsplitn(3, ':');
    let col = parts.next()?.parse::<usize>().ok()?;
    let line = parts.next()?.parse::<usize>().ok()?;
    let f = parts.next()?;
    let f = if f == "<stdin>" { file } else { f };
    Some(Span { file: f.to_string(), line, col })
}

/// Turn gcc's first `file:line:col: error: message` line into a Syntax error.
fn gcc_error(stderr: &str, file: &str) -> TesseraError {
    for line in stderr.lines() {
        for marker in [": fatal error: ", ": error: "] {
            if let Some(pos) = line.find(marker) {
                let (place, message) = (&line[..pos], &line[pos + marker.len()..]);
                let mut parts = place.rsplitn(3, ':');
                let col = parts.next().and_then(|c| c.parse::<usize>().ok());
                let row = parts.next().and_then(|l| l.parse::<usize>().ok());
                let span = match (parts.next(), row, col) {
                    (Some(f), Some(line), Some(col)) => Some(Span { file: f.to_string(), line, col }),
                    _ => None,
                };
                return TesseraError::syntax(span, format!("preprocessor: {message}"));
            }
        }
    }
    let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("gcc -E failed");
    TesseraError::syntax(Some(Span { file: file.to_string(), line: 1, col: 1 }), format!("preprocessor: {first}"))
}

/// Where each line of the preprocessed text comes from.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// One entry per line: byte offset of its start, index into `files`,
    /// line number in that file.
    lines: Vec<(usize, usize, usize)>,
    files: Vec<String>,
    /// When the parsed text was rewritten (see `c::gnu`): the text the
    /// lines were read from, and the map from rewritten offsets to it.
    rewrite: Option<(String, crate::c::gnu::Rewritten)>,
}

impl SourceMap {
    pub fn new(text: &str) -> SourceMap {
        let mut map = SourceMap::default();
        let mut file = map.intern("<unknown>");
        let mut line = 1usize;
        let mut start = 0usize;
        for raw in text.split_inclusive('\n') {
            let content = raw.trim_end_matches(['\n', '\r']);
            map.lines.push((start, file, line));
            if let Some((l, f)) = parse_line_marker(content) {
                file = map.intern(&f);
                line = l;
            } else {
                line += 1;
            }
            start += raw.len();
        }
        map
    }

    fn intern(&mut self, f: &str) -> usize {
        if let Some(i) = self.files.iter().position(|x| x == f) {
            return i;
        }
        self.files.push(f.to_string());
        self.files.len() - 1
    }

    /// The same map for the rewritten text `r` of `original` (the text this
    /// map was made from): offsets into `r.text` are mapped back first.
    pub fn rewritten(mut self, original: &str, r: crate::c::gnu::Rewritten) -> SourceMap {
        if r.changed() {
            self.rewrite = Some((original.to_string(), r));
        }
        self
    }

    /// Source position of a byte offset into the preprocessed text (the
    /// rewritten one, when there is one).
    pub fn span(&self, text: &str, offset: usize) -> Option<Span> {
        if self.lines.is_empty() || offset == usize::MAX {
            return None;
        }
        let (text, offset) = match &self.rewrite {
            Some((original, r)) => (original.as_str(), r.original_offset(offset)),
            None => (text, offset),
        };
        let idx = match self.lines.binary_search_by(|(s, _, _)| s.cmp(&offset)) {
            Ok(i) => i,
            Err(0) => 0,
            Err(i) => i - 1,
        };
        let (start, file, line) = *self.lines.get(idx)?;
        let end = offset.min(text.len());
        let col = text.get(start..end).map(|s| s.chars().count()).unwrap_or(end.saturating_sub(start)) + 1;
        Some(Span { file: self.files.get(file)?.clone(), line, col })
    }
}

/// `# 12 "file.c" 1 3` -> (12, "file.c"). Also accepts `#line 12 "file.c"`.
pub fn parse_line_marker(line: &str) -> Option<(usize, String)> {
    let rest = line.trim_start().strip_prefix('#')?;
    let rest = rest.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: usize = digits.parse().ok()?;
    let after = rest[digits.len()..].trim_start();
    let quoted = after.strip_prefix('"')?;
    let mut name = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some((n, name)),
            '\\' => name.push(chars.next()?),
            c => name.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_map_offsets_back() {
        let text = "# 1 \"a.c\"\nint x;\n# 7 \"a.c\"\n  int y;\n";
        let map = SourceMap::new(text);
        let off = text.find("int y").unwrap_or(0);
        assert_eq!(map.span(text, off), Some(Span { file: "a.c".into(), line: 7, col: 3 }));
        let off = text.find("x;").unwrap_or(0);
        assert_eq!(map.span(text, off), Some(Span { file: "a.c".into(), line: 1, col: 5 }));
    }
}

/// gcc only warns about a NUL byte and drops it; it is not C text.
fn reject_nul(file: &str, bytes: &[u8]) -> Result<()> {
    let Some(at) = bytes.iter().position(|&b| b == 0) else { return Ok(()) };
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let col = at - bytes[..at].iter().rposition(|&b| b == b'\n').map(|p| p + 1).unwrap_or(0) + 1;
    let span = crate::ir::Span { file: file.to_string(), line, col };
    Err(TesseraError::invalid(Some(span), "a NUL character in the source text"))
}
