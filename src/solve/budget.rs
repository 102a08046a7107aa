//! The limits of a run: a wall-clock deadline and a cancellation token
//! ([`Budget`]), shared by the SMT layer, the engines, the prover and the
//! report, so that everything an answer needs stays inside the user's time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A cancellation token shared between threads: a flag checked between
/// solver calls plus `Z3_interrupt` on every registered context (an
/// interrupt that arrives while no call runs is lost, hence the flag too).
#[derive(Clone, Default)]
pub struct Cancel {
    inner: Arc<CancelInner>,
}

#[derive(Default)]
struct CancelInner {
    flag: AtomicBool,
    contexts: Mutex<Vec<usize>>,
    /// Tokens cancelled together with this one (e.g. a race inside a proof).
    children: Mutex<Vec<Cancel>>,
}

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }
    pub fn is_cancelled(&self) -> bool {
        self.inner.flag.load(Ordering::SeqCst)
    }
    /// A token cancelled when this one is, and cancellable on its own.
    pub fn child(&self) -> Cancel {
        let c = Cancel::new();
        if let Ok(mut ch) = self.inner.children.lock() {
            ch.push(c.clone());
        }
        if self.is_cancelled() {
            c.cancel();
        }
        c
    }
    pub fn cancel(&self) {
        self.inner.flag.store(true, Ordering::SeqCst);
        let children: Vec<Cancel> = self.inner.children.lock().map(|c| c.clone()).unwrap_or_default();
        for c in children {
            c.cancel();
        }
        if let Ok(ctxs) = self.inner.contexts.lock() {
            for &c in ctxs.iter() {
                // SAFETY: contexts are registered only while their owning
                // thread keeps them alive (see `ContextGuard`), and
                // Z3_interrupt is documented as callable from other threads.
                if let Some(ctx) = std::ptr::NonNull::new(c as *mut z3_sys::_Z3_context) {
                    unsafe { z3_sys::Z3_interrupt(ctx) };
                }
            }
        }
    }
    /// Register the calling thread's Z3 context for interruption until the
    /// guard is dropped.
    pub fn register_thread_context(&self) -> ContextGuard {
        let ctx = z3::Context::thread_local();
        let raw = ctx.get_z3_context().as_ptr() as usize;
        if let Ok(mut ctxs) = self.inner.contexts.lock() {
            ctxs.push(raw);
        }
        // A cancellation that happened before registration must still stop us.
        if self.is_cancelled() {
            if let Some(c) = std::ptr::NonNull::new(raw as *mut z3_sys::_Z3_context) {
                unsafe { z3_sys::Z3_interrupt(c) };
            }
        }
        ContextGuard { cancel: self.clone(), raw, _ctx: ctx }
    }
}

pub struct ContextGuard {
    cancel: Cancel,
    raw: usize,
    // Keeps the context alive while it is registered.
    _ctx: z3::Context,
}

impl Drop for ContextGuard {
    fn drop(&mut self) {
        if let Ok(mut ctxs) = self.cancel.inner.contexts.lock() {
            if let Some(i) = ctxs.iter().position(|&c| c == self.raw) {
                ctxs.swap_remove(i);
            }
        }
    }
}

/// Limits for one engine run: a wall-clock deadline and a cancellation token.
#[derive(Clone)]
pub struct Budget {
    pub deadline: Option<Instant>,
    pub cancel: Cancel,
}

impl Budget {
    pub fn unlimited() -> Budget {
        Budget { deadline: None, cancel: Cancel::new() }
    }
    pub fn with_timeout(d: Duration) -> Budget {
        Budget { deadline: Instant::now().checked_add(d), cancel: Cancel::new() }
    }
    /// A budget ending at the earlier of this one's deadline and `d` from now,
    /// sharing the cancellation token.
    pub fn sub_budget(&self, d: Duration) -> Budget {
        // A slice too long to be a point in time (a doubled retry slice)
        // leaves the deadline as it is.
        let deadline = match Instant::now().checked_add(d) {
            Some(dl) => Some(self.deadline.map_or(dl, |x| x.min(dl))),
            None => self.deadline,
        };
        Budget { deadline, cancel: self.cancel.clone() }
    }
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }
    pub fn expired(&self) -> bool {
        self.cancel.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
    /// Milliseconds to give one solver call (Z3's `timeout` parameter).
    pub fn solver_timeout_ms(&self) -> Option<u32> {
        self.remaining().map(|r| r.as_millis().clamp(1, u32::MAX as u128) as u32)
    }
}


impl Budget {
    /// Cancels this budget at its deadline, so that engines stuck inside one
    /// Z3 call are interrupted; stops when dropped. Without a deadline (or
    /// when no thread can be started) it does nothing.
    pub fn watchdog(&self) -> Watchdog {
        let (tx, rx) = crossbeam_channel::bounded::<()>(1);
        if let Some(wait) = self.remaining() {
            let b = self.clone();
            let _ = std::thread::Builder::new().name("watchdog".into()).spawn(move || {
                if rx.recv_timeout(wait).is_err() {
                    b.cancel.cancel();
                }
            });
        }
        Watchdog { stop: tx }
    }
}

/// A running [`Budget::watchdog`]; dropping it stops the watch.
pub struct Watchdog {
    stop: crossbeam_channel::Sender<()>,
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let _ = self.stop.send(());
    }
}

/// Lower the calling thread's priority to the nice value `nice`, or keep
/// it where it is already lower (on Linux a thread has a nice value of its
/// own, and the threads it starts afterwards inherit it; elsewhere, or when
/// the call fails, the thread keeps its priority, which costs only speed).
/// Work that races in the background gets a smaller share of the processor
/// while other work runs, and all of it once that work is done.
pub fn lower_thread_priority(nice: i32) {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid, getpriority and setpriority only read and set the
    // calling thread's scheduling attributes.
    unsafe {
        let tid = libc::gettid() as libc::id_t;
        let current = libc::getpriority(libc::PRIO_PROCESS as _, tid);
        libc::setpriority(libc::PRIO_PROCESS as _, tid, nice.max(current));
    }
    #[cfg(not(target_os = "linux"))]
    let _ = nice;
}
