//! SMT-LIB2 s-expressions and terms (stub: to be written).
