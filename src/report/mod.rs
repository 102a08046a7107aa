//! Reports (stub)
