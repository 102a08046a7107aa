//! Large-block encoding of an `ir::Program` into Horn clauses (stub).
