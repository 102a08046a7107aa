//! (temporary stub until the front end lands)
use crate::ir::{IntSemantics, Program};

pub fn parse_file(path: &std::path::Path, semantics: IntSemantics) -> crate::Result<Program> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| crate::TesseraError::Io { path: path.display().to_string(), message: e.to_string() })?;
    parse_source(&path.display().to_string(), &text, semantics)
}

pub fn parse_source(_file: &str, _text: &str, _semantics: IntSemantics) -> crate::Result<Program> {
    Err(crate::TesseraError::unsupported(None, "front end not built yet"))
}
