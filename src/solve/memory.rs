//! The memory governor: keeps a proof's resident memory under a target by
//! stopping solver work, not by being killed.
//!
//! Memory grows in the solver queries: a race of three engines, each in a
//! Z3 context of its own, on a large clause system can take hundreds of
//! megabytes a second (an array program's decrease check on its whole
//! model: 400 MB/s with PDR alone). Which thread holds what cannot be read
//! off the process, so the governor judges by what it can see: the
//! process's resident size (`/proc/self/statm`) and how much it grew while
//! a race ran.
//!
//! - Below [`SHED`] of the target a race runs all its engines.
//! - Above it, a race during which the memory grew by at least half of
//!   [`GROWTH`] of the target goes on with one engine (the first of the race
//!   still running) and starts none of the engines that wait; above
//!   [`STOP`], every race does. A race that did not grow the memory keeps
//!   its engines below [`STOP`]: shedding at 40 % of the default target
//!   without it cancelled the engine that would have answered
//!   (`ok_append_walk_to_end.c`, 480 MB at its peak: YES in 14 s -> MAYBE).
//! - Above [`STOP`] of the target, a race during which the memory grew by
//!   at least [`GROWTH`] of the target gives up: its query is unknown (a
//!   MAYBE for that part of the proof, with the reason). A race that did
//!   not see the growth goes on, so memory the allocator keeps after a
//!   query does not stop every later query. At the target itself, every
//!   race gives up.
//!
//! The target is set once per process, by the command that runs the proof
//! ([`govern`]): the same limit for every thread, read-only afterwards.
//! Without it (a library caller, the tests) nothing is governed.

use std::sync::OnceLock;

/// Share of the target above which a race that grew the memory sheds all
/// engines but one.
pub const SHED: f64 = 0.5;
/// Share of the target above which a race that saw the memory grow stops.
pub const STOP: f64 = 0.65;
/// Growth during a race (share of the target) that makes it a suspect.
pub const GROWTH: f64 = 0.1;

/// The target when the user sets none (MB).
pub const DEFAULT_TARGET_MB: u64 = 1024;

static TARGET_MB: OnceLock<u64> = OnceLock::new();

/// Govern this process's solver work to keep it under `target_mb` of
/// resident memory. The first call counts (one target per process).
pub fn govern(target_mb: u64) {
    let _ = TARGET_MB.set(target_mb.max(1));
}

/// The governed target in MB, if any.
pub fn target_mb() -> Option<u64> {
    TARGET_MB.get().copied()
}

/// What a race should do about memory now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pressure {
    /// Run as planned.
    Low,
    /// Go on with one engine, start no other.
    Shed,
    /// Give up: the memory is near the target and grew while this race ran.
    Stop { resident_mb: u64, target_mb: u64 },
}

/// One race's view of the memory: the resident size when it started.
pub struct RaceMemory {
    target_mb: Option<u64>,
    start_mb: u64,
}

impl RaceMemory {
    /// Start watching (nothing is read when the process is not governed).
    pub fn start() -> RaceMemory {
        let target_mb = target_mb();
        let start_mb = if target_mb.is_some() { resident_mb().unwrap_or(0) } else { 0 };
        RaceMemory { target_mb, start_mb }
    }

    /// The pressure now (one read of `/proc/self/statm`, a few microseconds).
    pub fn pressure(&self) -> Pressure {
        let Some(target_mb) = self.target_mb else { return Pressure::Low };
        let Some(now) = resident_mb() else { return Pressure::Low };
        judge(target_mb, self.start_mb, now)
    }
}

/// The rule of the module documentation, on numbers.
fn judge(target_mb: u64, start_mb: u64, now_mb: u64) -> Pressure {
    let share = |f: f64| (target_mb as f64 * f) as u64;
    let grew = now_mb.saturating_sub(start_mb) >= share(GROWTH);
    if now_mb >= target_mb || (now_mb >= share(STOP) && grew) {
        Pressure::Stop { resident_mb: now_mb, target_mb }
    } else if now_mb >= share(STOP) || (now_mb >= share(SHED) && now_mb.saturating_sub(start_mb) >= share(GROWTH / 2.0)) {
        Pressure::Shed
    } else {
        Pressure::Low
    }
}

/// The resident memory of this process in MB.
pub fn resident_mb() -> Option<u64> {
    resident_mb_at("/proc/self/statm")
}

/// The resident memory of process `pid` in MB.
pub fn resident_mb_of(pid: u32) -> Option<u64> {
    resident_mb_at(&format!("/proc/{pid}/statm"))
}

/// Linux: a `statm` file's second field, resident pages; `None` where it
/// cannot be read.
fn resident_mb_at(statm: &str) -> Option<u64> {
    let statm = std::fs::read_to_string(statm).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf only reads a configuration value.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let page = if page > 0 { page as u64 } else { 4096 };
    Some(pages * page / (1024 * 1024))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pressure_follows_the_shares_of_the_target() {
        assert_eq!(judge(1000, 100, 300), Pressure::Low);
        assert_eq!(judge(1000, 100, 500), Pressure::Shed);
        // Above the share for shedding, but this race did not grow the
        // memory: its engines go on.
        assert_eq!(judge(1000, 480, 520), Pressure::Low);
        // Near the target, but the race did not see the growth: it goes on
        // with one engine.
        assert_eq!(judge(1000, 720, 800), Pressure::Shed);
        assert_eq!(judge(1000, 600, 800), Pressure::Stop { resident_mb: 800, target_mb: 1000 });
        assert_eq!(judge(1000, 540, 650), Pressure::Stop { resident_mb: 650, target_mb: 1000 });
        // At the target, whatever the race saw.
        assert_eq!(judge(1000, 990, 1000), Pressure::Stop { resident_mb: 1000, target_mb: 1000 });
    }

    #[test]
    fn this_process_has_a_resident_size() {
        let mb = resident_mb().expect("/proc/self/statm is readable on Linux");
        assert!(mb >= 1, "{mb}");
        assert_eq!(resident_mb_of(std::process::id()).map(|m| m.abs_diff(mb) < 64), Some(true));
    }
}
