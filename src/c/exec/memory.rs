//! The interpreter's memory: one block per object (each global, each local
//! variable each time its declaration runs, each allocation, each string
//! literal), each a vector of [`Byte`]s. Any access outside a live block
//! is a memory error, on which the interpreter gives up (never ends the
//! run: a bug here must not become a YES).
//!
//! Blocks are shared copy-on-write (`Rc`): a checkpoint of the run (see
//! `runs.rs`) clones the memory by reference counts, and a block written
//! afterwards is copied once.

use super::value::{bytes_int, int_bytes, Byte, Ptr, Value};
use super::Stop;
use crate::ir::IntType;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Global,
    Local,
    /// `malloc`, `calloc`, `realloc`: freed by `free`.
    Heap,
    /// `alloca`: lives until its function returns.
    Stack,
    /// A string literal: read-only.
    Literal,
}

#[derive(Clone, Debug)]
pub(crate) struct Block {
    pub bytes: Vec<Byte>,
    pub kind: Kind,
    pub alive: bool,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Memory {
    pub blocks: Vec<Rc<Block>>,
}

/// Most bytes one block may have (a larger allocation gives up).
const MAX_BLOCK: u64 = 1 << 24;

impl Memory {
    /// Block `b` to change (copied first when a checkpoint shares it).
    pub(crate) fn block_mut(&mut self, b: usize) -> &mut Block {
        Rc::make_mut(&mut self.blocks[b])
    }

    /// The lifetime of block `b` ends.
    pub(crate) fn kill(&mut self, b: usize) {
        if self.blocks[b].alive {
            self.block_mut(b).alive = false;
        }
    }

    /// A new block of `size` bytes, each `fill`.
    pub(crate) fn allocate(&mut self, size: u64, kind: Kind, fill: Byte) -> Result<usize, Stop> {
        if size > MAX_BLOCK {
            return Err(Stop::give_up(format!("a block of {size} bytes")));
        }
        self.blocks.push(Rc::new(Block { bytes: vec![fill; size as usize], kind, alive: true }));
        Ok(self.blocks.len() - 1)
    }

    /// The block and byte range `[offset, offset + size)` of an access
    /// through `p`, checked: a live block, within its bounds.
    fn range(&self, p: &Ptr, size: u64, write: bool) -> Result<(usize, usize, usize), Stop> {
        let Ptr::At { block, offset } = p else {
            return Err(Stop::give_up(if *p == Ptr::Null { "a null pointer dereferenced" } else { "a function pointer dereferenced" }));
        };
        let b = &self.blocks[*block];
        if !b.alive {
            return Err(Stop::give_up("a dead block accessed (use after free or after its scope)"));
        }
        if write && b.kind == Kind::Literal {
            return Err(Stop::give_up("a string literal written"));
        }
        let end = offset.checked_add(size as i64).ok_or_else(|| Stop::give_up("an offset overflow"))?;
        if *offset < 0 || end as usize > b.bytes.len() {
            return Err(Stop::give_up("an access out of bounds"));
        }
        Ok((*block, *offset as usize, end as usize))
    }

    pub(crate) fn read(&self, p: &Ptr, size: u64) -> Result<Vec<Byte>, Stop> {
        let (b, lo, hi) = self.range(p, size, false)?;
        Ok(self.blocks[b].bytes[lo..hi].to_vec())
    }

    pub(crate) fn write(&mut self, p: &Ptr, bytes: Vec<Byte>) -> Result<(), Stop> {
        let (b, lo, hi) = self.range(p, bytes.len() as u64, true)?;
        self.block_mut(b).bytes[lo..hi].clone_from_slice(&bytes);
        Ok(())
    }

    /// Whether `p` may be read or written for `size` bytes.
    pub(crate) fn check(&self, p: &Ptr, size: u64) -> Result<(), Stop> {
        self.range(p, size, false).map(|_| ())
    }

    /// An integer of type `ty` (`size` bytes) at `p`: unknown when a byte
    /// is. A pointer's bytes read as an integer have no meaning the model
    /// gives: give up.
    pub(crate) fn load_int(&self, p: &Ptr, ty: IntType, size: u64) -> Result<Value, Stop> {
        let bytes = self.read(p, size)?;
        let mut known = Vec::with_capacity(bytes.len());
        let mut unknown = false;
        for b in &bytes {
            match b {
                Byte::Known(x) => known.push(*x),
                Byte::Unknown => unknown = true,
                Byte::Fragment(..) => return Err(Stop::give_up("a stored pointer read as an integer")),
            }
        }
        Ok(if unknown { Value::Int(ty, None) } else { Value::Int(ty, Some(bytes_int(ty, &known))) })
    }

    pub(crate) fn store_value(&mut self, p: &Ptr, v: &Value, size: u64) -> Result<(), Stop> {
        let bytes = value_bytes(v, size)?;
        self.write(p, bytes)
    }

    /// A pointer at `p` (`size` bytes): the fragments of one stored
    /// pointer in order, or all zero bytes (null); unknown bytes: any pointer.
    pub(crate) fn load_ptr(&self, p: &Ptr, size: u64) -> Result<Value, Stop> {
        let bytes = self.read(p, size)?;
        if bytes.iter().all(|b| *b == Byte::Known(0)) {
            return Ok(Value::Ptr(Some(Ptr::Null)));
        }
        if bytes.iter().any(|b| *b == Byte::Unknown) {
            return Ok(Value::Ptr(None));
        }
        if let Byte::Fragment(q, 0) = &bytes[0] {
            if bytes.iter().enumerate().all(|(i, b)| *b == Byte::Fragment(q.clone(), i as u8)) {
                return Ok(Value::Ptr(Some(q.clone())));
            }
        }
        Err(Stop::give_up("bytes read as a pointer that are not one stored pointer"))
    }
}

/// The bytes that represent `v` in `size` bytes.
pub(crate) fn value_bytes(v: &Value, size: u64) -> Result<Vec<Byte>, Stop> {
    let size = size as usize;
    Ok(match v {
        Value::Int(_, None) => vec![Byte::Unknown; size],
        Value::Int(ty, Some(c)) => match int_bytes(*ty, c, size) {
            Some(bs) => bs.into_iter().map(Byte::Known).collect(),
            None => return Err(Stop::give_up("an integer out of its type's width stored in memory")),
        },
        Value::Ptr(None) => vec![Byte::Unknown; size],
        Value::Ptr(Some(Ptr::Null)) => vec![Byte::Known(0); size],
        Value::Ptr(Some(p)) => (0..size).map(|i| Byte::Fragment(p.clone(), i as u8)).collect(),
        Value::Bytes(bs) if bs.len() == size => bs.clone(),
        Value::Bytes(_) => return Err(Stop::give_up("a struct value of another size")),
        Value::Void => return Err(Stop::give_up("a void value stored")),
    })
}
