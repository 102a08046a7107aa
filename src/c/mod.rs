//! C front end (stub: to be written)
