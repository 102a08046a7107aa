//! Errors that reach the user, with the exit codes documented in the README.

use crate::ir::Span;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TesseraError {
    /// The input file cannot be read.
    Io { path: String, message: String },
    /// The input is not valid C (or SMT-LIB), or preprocessing failed.
    Syntax { span: Option<Span>, message: String },
    /// Text that parses but is not a valid C program (a function defined
    /// twice, a variable declared twice in one block, a NUL byte, ...).
    Invalid { span: Option<Span>, message: String },
    /// Valid input that Tessera does not handle (yet).
    Unsupported { span: Option<Span>, what: String },
    /// A bug in Tessera. Reported, never a panic.
    Internal(String),
}

impl TesseraError {
    /// Process exit code (README, "Exit codes").
    pub fn exit_code(&self) -> i32 {
        match self {
            TesseraError::Internal(_) => 1,
            TesseraError::Syntax { .. } | TesseraError::Invalid { .. } => 3,
            TesseraError::Unsupported { .. } => 4,
            TesseraError::Io { .. } => 5,
        }
    }
    pub fn unsupported(span: Option<Span>, what: impl Into<String>) -> Self {
        TesseraError::Unsupported { span, what: what.into() }
    }
    pub fn invalid(span: Option<Span>, message: impl Into<String>) -> Self {
        TesseraError::Invalid { span, message: message.into() }
    }
    pub fn syntax(span: Option<Span>, message: impl Into<String>) -> Self {
        TesseraError::Syntax { span, message: message.into() }
    }
}

impl fmt::Display for TesseraError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |f: &mut fmt::Formatter<'_>, s: &Option<Span>| match s {
            Some(s) => write!(f, "{s}: "),
            None => Ok(()),
        };
        match self {
            TesseraError::Io { path, message } => write!(f, "{path}: cannot read: {message}"),
            TesseraError::Syntax { span, message } => {
                at(f, span)?;
                write!(f, "syntax error: {message}")
            }
            TesseraError::Invalid { span, message } => {
                at(f, span)?;
                write!(f, "error: {message}")
            }
            TesseraError::Unsupported { span, what } => {
                at(f, span)?;
                write!(f, "unsupported: {what}")
            }
            TesseraError::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for TesseraError {}

pub type Result<T> = std::result::Result<T, TesseraError>;
