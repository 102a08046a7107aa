//! The interpreter's memory: one block per object (each global, each local
//! variable each time its declaration runs, each allocation, each string
//! literal), each a vector of [`Byte`]s. Any access outside a live block
//! is a memory error, on which the interpreter gives up (never ends the
//! run: a bug here must not become a YES).
//!
//! Blocks are shared copy-on-write (`Rc`): a checkpoint of the run (see
//! `runs.rs`) clones the memory by reference counts, and a block written
//! afterwards is copied once.

use super::value::{bytes_int, int_bytes, Byte, Ptr, SymbolicInt, Value};
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
    /// In a concrete run (`lasso.rs`): a digest of the live blocks'
    /// contents, kept up to date by every change (the XOR of a hash of
    /// each byte with its block and offset), so that hashing the state at
    /// a loop's head does not cost the size of memory.
    pub digest: Option<u64>,
    /// The same over the blocks a called function sees without being
    /// given a pointer: all but locals and `alloca` blocks.
    pub visible_digest: u64,
    /// Bytes copied because a checkpoint shared their block (see
    /// `checkpoint.rs`).
    pub copied: u64,
}

/// The digest's term for byte `b` at `offset` of block `block`.
fn byte_digest(block: usize, offset: usize, b: &Byte) -> u64 {
    let v = match b {
        Byte::Known(x) => u64::from(*x),
        Byte::Unknown => 1 << 16,
        Byte::Fragment(p, i) => {
            let p = match p {
                Ptr::Null => 0,
                Ptr::At { block, offset } => mix((*block as u64) << 20 ^ (*offset as u64)),
                Ptr::Function(f) => f.bytes().fold(0x51u64, |h, c| mix(h ^ u64::from(c))),
                Ptr::Integer(v) => mix(0x1e ^ v),
            };
            mix(p ^ (u64::from(*i) << 8) ^ (2 << 16))
        }
        Byte::Symbolic(v, i) => {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            std::hash::Hash::hash(v, &mut h);
            mix(std::hash::Hasher::finish(&h) ^ (u64::from(*i) << 8) ^ (3 << 16))
        }
    };
    mix(mix(block as u64 ^ 0x9e37_79b9_7f4a_7c15) ^ ((offset as u64) << 24) ^ v)
}

/// SplitMix64's finalizer.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Most bytes one block may have (a larger allocation gives up).
const MAX_BLOCK: u64 = 1 << 24;

impl Memory {
    /// Block `b` to change (copied first when a checkpoint shares it).
    fn block_mut(&mut self, b: usize) -> &mut Block {
        if Rc::strong_count(&self.blocks[b]) > 1 {
            self.copied += self.blocks[b].bytes.len() as u64;
        }
        Rc::make_mut(&mut self.blocks[b])
    }

    /// The digest's change when bytes `lo..` of block `b` are `bytes`.
    fn digest_of(&self, b: usize, lo: usize, bytes: &[Byte]) -> u64 {
        bytes.iter().enumerate().fold(0, |d, (i, x)| d ^ byte_digest(b, lo + i, x))
    }

    /// A change of the digests by `change` in block `b`.
    fn account(&mut self, b: usize, change: u64) {
        if let Some(d) = self.digest {
            self.digest = Some(d ^ change);
            if !matches!(self.blocks[b].kind, Kind::Local | Kind::Stack) {
                self.visible_digest ^= change;
            }
        }
    }

    /// The lifetime of block `b` ends.
    pub(crate) fn kill(&mut self, b: usize) {
        if self.blocks[b].alive {
            if self.digest.is_some() {
                self.account(b, self.digest_of(b, 0, &self.blocks[b].bytes));
            }
            self.block_mut(b).alive = false;
        }
    }

    /// A new block of `size` bytes, each `fill`.
    pub(crate) fn allocate(&mut self, size: u64, kind: Kind, fill: Byte) -> Result<usize, Stop> {
        if size > MAX_BLOCK {
            return Err(Stop::give_up(format!("a block of {size} bytes")));
        }
        Ok(self.allocate_with(vec![fill; size as usize], kind))
    }

    /// A new block holding `bytes`.
    pub(crate) fn allocate_with(&mut self, bytes: Vec<Byte>, kind: Kind) -> usize {
        let b = self.blocks.len();
        let change = if self.digest.is_some() { self.digest_of(b, 0, &bytes) } else { 0 };
        self.blocks.push(Rc::new(Block { bytes, kind, alive: true }));
        self.account(b, change);
        b
    }

    /// The block and byte range `[offset, offset + size)` of an access
    /// through `p`, checked: a live block, within its bounds.
    fn range(&self, p: &Ptr, size: u64, write: bool) -> Result<(usize, usize, usize), Stop> {
        let Ptr::At { block, offset } = p else {
            return Err(match p {
                Ptr::Null => Stop::Undefined { kind: crate::ir::Undefined::NullDereference, at: None },
                Ptr::Function(_) => Stop::give_up("a function pointer dereferenced"),
                _ => Stop::give_up("a pointer made from an integer dereferenced"),
            });
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
        if self.digest.is_some() {
            let change = self.digest_of(b, lo, &self.blocks[b].bytes[lo..hi]) ^ self.digest_of(b, lo, &bytes);
            self.account(b, change);
        }
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
    /// The live blocks, by index.
    pub(crate) fn live(&self) -> impl Iterator<Item = usize> + '_ {
        self.blocks.iter().enumerate().filter(|(_, b)| b.alive).map(|(i, _)| i)
    }

    pub(crate) fn load_int(&self, p: &Ptr, ty: IntType, size: u64, pointer_size: u64) -> Result<Value, Stop> {
        let bytes = self.read(p, size)?;
        // The bytes of one stored pointer, in order and all of it, read as
        // an integer as wide: its address (CIL stores `(unsigned long)p`).
        if size == pointer_size {
            if let Some(q) = whole_pointer(&bytes) {
                return Ok(Value::Address(ty, q.clone()));
            }
        }
        // The bytes of one stored symbolic integer, in order and all of it:
        // that integer (the caller converts it to `ty`).
        if let Some(Byte::Symbolic(v, 0)) = bytes.first() {
            if v.1 as usize == bytes.len() && bytes.iter().enumerate().all(|(i, b)| matches!(b, Byte::Symbolic(w, j) if w == v && *j as usize == i)) {
                return Ok(Value::Symbolic(Box::new((*v.0).clone())));
            }
        }
        let mut known = Vec::with_capacity(bytes.len());
        let mut unknown = false;
        for b in &bytes {
            match b {
                Byte::Known(x) => known.push(*x),
                Byte::Unknown | Byte::Symbolic(..) => unknown = true,
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
    /// pointer in order, all zero bytes (null), or other known bytes (a
    /// pointer made from that integer); unknown bytes: any pointer.
    pub(crate) fn load_ptr(&self, p: &Ptr, size: u64) -> Result<Value, Stop> {
        let bytes = self.read(p, size)?;
        if bytes.iter().all(|b| *b == Byte::Known(0)) {
            return Ok(Value::Ptr(Some(Ptr::Null)));
        }
        let known: Option<Vec<u8>> = bytes.iter().map(|b| if let Byte::Known(x) = b { Some(*x) } else { None }).collect();
        if let Some(known) = known.filter(|k| k.len() <= 8) {
            // Little-endian, as `int_bytes` stores integers.
            let v = known.iter().rev().fold(0u64, |v, x| v << 8 | u64::from(*x));
            return Ok(Value::Ptr(Some(Ptr::Integer(v))));
        }
        if bytes.iter().any(|b| *b == Byte::Unknown) {
            return Ok(Value::Ptr(None));
        }
        if let Some(q) = whole_pointer(&bytes) {
            return Ok(Value::Ptr(Some(q.clone())));
        }
        Err(Stop::give_up("bytes read as a pointer that are not one stored pointer"))
    }
}

/// The pointer `bytes` hold whole: the fragments of one stored pointer,
/// in order.
fn whole_pointer(bytes: &[Byte]) -> Option<&Ptr> {
    let Some(Byte::Fragment(q, 0)) = bytes.first() else { return None };
    bytes.iter().enumerate().all(|(i, b)| matches!(b, Byte::Fragment(r, j) if r == q && *j as usize == i)).then_some(q)
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
        Value::Symbolic(v) => {
            let cell = SymbolicInt(std::rc::Rc::new((**v).clone()), size as u8);
            (0..size).map(|i| Byte::Symbolic(cell.clone(), i as u8)).collect()
        }
        Value::Ptr(Some(Ptr::Null)) => vec![Byte::Known(0); size],
        Value::Ptr(Some(Ptr::Integer(v))) if size <= 8 => (0..size).map(|i| Byte::Known((v >> (8 * i)) as u8)).collect(),
        Value::Ptr(Some(p)) | Value::Address(_, p) => (0..size).map(|i| Byte::Fragment(p.clone(), i as u8)).collect(),
        Value::Bytes(bs) if bs.len() == size => bs.clone(),
        Value::Bytes(_) => return Err(Stop::give_up("a struct value of another size")),
        Value::Void => return Err(Stop::give_up("a void value stored")),
    })
}
