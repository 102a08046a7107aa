//! Running a command's work in a worker process (this executable, same
//! arguments) under a time and a memory limit. Z3 can abort the whole
//! process (an uncaught C++ exception, a failed thread creation under a
//! memory limit), a solver call can overrun the time limit, and a query can
//! grow past the memory the user allows: the supervisor turns each into an
//! answer of "don't know" on time instead of a crash, a late answer or a
//! process the system kills. `prove` and `solve` use it.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Set in the environment of the worker process.
const WORKER_ENV: &str = "TESSERA_PROVE_WORKER";

/// Whether this process is the worker (or was asked to work in-process).
pub fn is_worker() -> bool {
    std::env::var_os(WORKER_ENV).is_some()
}

/// How the worker process ended.
pub enum Ended {
    /// On its own, with what it printed on standard output.
    Exited(ExitStatus, Vec<u8>),
    /// Stopped at the time limit.
    OutOfTime,
    /// Stopped when its resident memory reached the limit (MB), at this peak.
    OutOfMemory { peak_mb: u64 },
}

/// Runs the worker with the same arguments, stopping it `grace` after
/// `timeout` or when its resident memory (all its threads, Z3 included)
/// reaches `memory_mb`. `None` when no worker can be started (the caller
/// then works in this process).
pub fn run_worker(timeout: Option<Duration>, grace: Duration, memory_mb: Option<u64>) -> Option<Ended> {
    let start = Instant::now();
    let exe = std::env::current_exe().ok()?;
    let mut child = Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(WORKER_ENV, "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    let limit = timeout.map(|t| t + grace);
    let mut peak_mb = 0;
    let ended = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Ended::Exited(st, Vec::new()),
            Ok(None) if limit.is_some_and(|l| start.elapsed() > l) => break stop(&mut child, Ended::OutOfTime),
            Ok(None) => {
                if let Some(mb) = memory_mb {
                    peak_mb = peak_mb.max(crate::solve::memory::resident_mb_of(child.id()).unwrap_or(0));
                    if peak_mb >= mb {
                        break stop(&mut child, Ended::OutOfMemory { peak_mb });
                    }
                }
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(_) => break stop(&mut child, Ended::OutOfTime),
        }
    };
    let out = reader.join().unwrap_or_default();
    Some(match ended {
        Ended::Exited(st, _) => Ended::Exited(st, out),
        other => other,
    })
}

fn stop(child: &mut std::process::Child, why: Ended) -> Ended {
    let _ = child.kill();
    let _ = child.wait();
    why
}

