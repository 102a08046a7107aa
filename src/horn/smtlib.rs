//! SMT-LIB2 `(set-logic HORN)` printer and parser (stub: to be written).
