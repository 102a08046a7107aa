//! Checkpoints of a run, so that the exploration (`runs.rs`) need not
//! replay every run from the start.
//!
//! Runs are explored depth first: the next run repeats the last one's
//! choices up to its last choice with an alternative left. Replaying that
//! prefix from the start makes the exploration quadratic (a program that
//! allocates 1,000 times in a loop has 1,001 runs, each replaying up to
//! the whole loop). Instead, a run leaves a checkpoint every so many
//! steps: a copy of its state (memory shared copy-on-write) taken before
//! a block item of `main` (the interpreter's control is then on the Rust
//! stack only as the nesting of blocks, `if` branches and loops down to
//! that item, which a `goto`-like descent rebuilds: `Interp::seek`). A
//! checkpoint taken after `t` choices is valid for every run whose first
//! `t` choices are the same; the next run resumes from the last valid one.
//!
//! No checkpoint is taken inside a called function, a `switch` body or a
//! statement expression (the descent does not enter them), and a resumed
//! run that does not fit its checkpoint (a scope or loop left over or
//! missing on the way down) gives up: never a wrong run.

use super::interp::{Checkpoint, Interp, Resume, Scope, Target};
use super::stmt::Flow;
use super::Stop;
use std::collections::VecDeque;

/// Most bytes of memory one run's checkpoints keep in old versions of
/// blocks (each byte is a `Byte`, 32 bytes of the prover's memory).
const MOST_KEPT_BYTES: u64 = 4 << 20;

impl<'s, 'a> Interp<'s, 'a> {
    /// Before block item `item`: a checkpoint, when this is `main`'s
    /// frame outside what a descent cannot enter, and enough steps ran
    /// since the last one (at least as many as there are blocks, so that
    /// copying the block table stays a small share of the work).
    pub(crate) fn maybe_checkpoint(&mut self, item: usize) {
        if self.checkpoint_every == 0 || self.resume.is_some() || self.frames.len() != 1 || self.no_checkpoint > 0 {
            return;
        }
        let every = self.checkpoint_every.max(self.mem.blocks.len() as u64);
        if self.steps < self.last_checkpoint + every {
            return;
        }
        self.last_checkpoint = self.steps;
        // A checkpoint keeps the memory as it is: each block written
        // afterwards is copied whole, and the checkpoint keeps the old
        // version. What the last one keeps is what was copied since it was
        // taken. When this run's checkpoints keep more than
        // `MOST_KEPT_BYTES`, every other one is dropped (a loop filling a
        // 100,000-element array left a copy of it every thousand steps:
        // 1.5 GB); a resumed run starts from the last valid one that is
        // left, so dropping costs replayed steps, never a wrong run.
        if let Some(last) = self.checkpoints.last_mut() {
            last.kept = self.mem.copied.saturating_sub(last.copied_at);
        }
        if self.checkpoints.iter().map(|c| c.kept).sum::<u64>() > MOST_KEPT_BYTES {
            let n = self.checkpoints.len();
            let mut i = 0;
            self.checkpoints.retain(|_| {
                i += 1;
                i % 2 == 0 || i == n
            });
        }
        self.checkpoints.push(Checkpoint {
            copied_at: self.mem.copied,
            kept: 0,
            item,
            trace: self.trace.clone(),
            steps: self.steps,
            mem: self.mem.clone(),
            globals: self.globals.clone(),
            frame: self.frames[0].clone(),
            statics: self.statics.clone(),
            literals: self.literals.clone(),
            loops: self.loops.clone(),
            nesting: self.nesting.clone(),
            loop_stack: self.loop_stack.clone(),
            accelerated: self.accelerated,
            strides: self.strides,
            join_waste: self.join_waste,
            symbolic: self.symbolic.as_ref().map(|s| s.copy()),
        });
    }

    /// This fresh interpreter set to `cp` (its script already given).
    pub(crate) fn restore(&mut self, cp: &Checkpoint) {
        let mut frame = cp.frame.clone();
        let scopes: VecDeque<Scope> = frame.scopes.drain(1..).collect();
        self.mem = cp.mem.clone();
        self.globals = cp.globals.clone();
        self.frames = vec![frame];
        self.statics = cp.statics.clone();
        self.literals = cp.literals.clone();
        self.trace = cp.trace.clone();
        self.steps = cp.steps;
        self.last_checkpoint = cp.steps;
        self.loops = cp.loops.clone();
        self.nesting = cp.nesting.clone();
        self.loop_stack = Vec::new();
        self.accelerated = cp.accelerated;
        self.strides = cp.strides;
        self.join_waste = cp.join_waste;
        if let Some(c) = &cp.symbolic {
            self.symbolic = Some(Box::new(super::path::Symbolic::from_copy(c)));
        }
        self.resume = Some(Resume { item: cp.item, scopes, loops: cp.loop_stack.iter().cloned().collect(), broken: false });
    }

    /// The run from the restored checkpoint on: `main`'s body entered
    /// down to the checkpoint's item, and on from there; the end of `main`
    /// ends the run (as [`Interp::start`]).
    pub(crate) fn resume_main(&mut self) -> Result<(), Stop> {
        let item = self.resume.as_ref().map(|r| r.item).ok_or_else(|| Stop::give_up("no checkpoint to resume"))?;
        let info = self.types.signatures().function("main").cloned().ok_or_else(|| Stop::give_up("no `main`"))?;
        let def = info.def.ok_or_else(|| Stop::give_up("no `main` with a body"))?;
        if let Flow::Goto(l) = self.seek(&def.node.statement, &Target::Item(item))? {
            return Err(Stop::give_up(format!("`goto {l}`: a label not found")));
        }
        if self.resume.is_some() {
            return Err(Stop::give_up("a checkpoint's statement not reached when resumed"));
        }
        Err(Stop::Ended)
    }

    /// The checkpoint's item is reached: the descent must have restored
    /// every scope and loop it had, no more and no fewer.
    pub(crate) fn end_resume(&mut self) -> Result<(), Stop> {
        match self.resume.take() {
            Some(r) if r.broken || !r.scopes.is_empty() || !r.loops.is_empty() => Err(Stop::give_up("a run resumed from a checkpoint that does not fit it")),
            _ => Ok(()),
        }
    }

    /// Entering a loop: when resumed, what the checkpoint had for it (its
    /// iterations, that under way counted, and its watch for a stretch to
    /// accelerate); else `None`.
    pub(crate) fn resumed_loop(&mut self) -> Option<super::interp::ActiveLoop> {
        let r = self.resume.as_mut()?;
        Some(r.loops.pop_front().unwrap_or_else(|| {
            r.broken = true;
            Default::default()
        }))
    }
}
