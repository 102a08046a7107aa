//! Ranking functions (stub: to be written)
