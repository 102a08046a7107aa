//! Running one tool invocation as a child process under hard limits, so that
//! a task that loops, hangs or eats memory cannot take the benchmark run down.
//!
//! - The child gets its own process group; at the wall-clock deadline the
//!   whole group is killed (a shell stand-in's `sleep`, or any helper process
//!   the tool forks, goes with it).
//! - `RLIMIT_AS` is set between fork and exec, so allocations beyond the
//!   memory limit fail inside the child.
//! - Peak memory and CPU time come from `wait4`'s resource usage of the child.

use crossbeam_channel::RecvTimeoutError;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Captured output beyond this size is read and dropped: a runaway printer
/// must not fill our memory. The JSON answer is read whole, and a NO on a
/// large reactive program carries a stem of hundreds of steps over a
/// hundred variables each (SystemC's token_ring: over 1 MiB).
const OUTPUT_CAP: usize = 64 << 20;

/// How long to wait for the output pipes to close after the process group
/// was killed. A process that left the group on purpose can keep them open.
const PIPE_DRAIN: Duration = Duration::from_secs(2);

#[derive(Clone, Debug)]
pub struct Limits {
    /// Hard wall-clock limit; the process group is killed when it passes.
    pub wall: Duration,
    /// Address-space limit (`RLIMIT_AS`), in bytes.
    pub memory_bytes: Option<u64>,
}

/// How the child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    Exited(i32),
    Signaled(i32),
}

impl std::fmt::Display for ExitStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExitStatus::Exited(c) => write!(f, "exit {c}"),
            ExitStatus::Signaled(s) => write!(f, "signal {s}"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct ChildRun {
    pub stdout: String,
    pub stderr: String,
    pub status: ExitStatus,
    /// True when the run hit the wall-clock limit and was killed.
    pub killed_at_deadline: bool,
    pub wall: Duration,
    /// User + system CPU time of the child and the children it waited for.
    pub cpu: Duration,
    /// Peak resident set size in KiB (`ru_maxrss`).
    pub peak_memory_kib: u64,
}

/// Reads a pipe to its end, keeping at most `OUTPUT_CAP` bytes.
fn drain_capped(mut pipe: impl Read) -> String {
    let mut kept = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                let room = OUTPUT_CAP.saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// Starts a thread that drains `pipe`; its text arrives on the returned channel.
fn spawn_drain(pipe: Option<impl Read + Send + 'static>) -> crossbeam_channel::Receiver<String> {
    let (tx, rx) = crossbeam_channel::bounded(1);
    match pipe {
        Some(p) => {
            std::thread::spawn(move || {
                let _ = tx.send(drain_capped(p));
            });
        }
        None => {
            let _ = tx.send(String::new());
        }
    }
    rx
}

/// Blocks until process `pid` has exited, without reaping it: while the
/// zombie exists its pid (and so its process-group id) cannot be reused, so
/// killing the group afterwards cannot hit an unrelated process.
fn wait_exit_keep_zombie(pid: libc::pid_t) -> std::io::Result<()> {
    loop {
        // SAFETY: a zeroed siginfo_t is a valid out-parameter for waitid.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: plain system call on our own child.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Reaps `pid` and returns its status and resource usage.
fn reap(pid: libc::pid_t) -> std::io::Result<(ExitStatus, libc::rusage)> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: a zeroed rusage is a valid out-parameter for wait4.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: plain system call on our own child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            let exit = if libc::WIFSIGNALED(status) {
                ExitStatus::Signaled(libc::WTERMSIG(status))
            } else {
                ExitStatus::Exited(libc::WEXITSTATUS(status))
            };
            return Ok((exit, usage));
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// Runs `program args` under `limits` and collects what it did.
/// Errors only when the program cannot be started or waited for.
pub fn run_limited(program: &Path, args: &[String], limits: &Limits) -> std::io::Result<ChildRun> {
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command.process_group(0);
    // The address-space limit counts reserved, not used, memory: keep
    // glibc from reserving an arena per solver thread.
    command.env("MALLOC_ARENA_MAX", "2");
    if let Some(bytes) = limits.memory_bytes {
        let limit = libc::rlimit {
            rlim_cur: bytes as libc::rlim_t,
            rlim_max: bytes as libc::rlim_t,
        };
        // SAFETY: the closure runs between fork and exec and only calls
        // setrlimit, which is async-signal-safe, on a value copied in.
        unsafe {
            command.pre_exec(move || {
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let start = Instant::now();
    let mut child = command.spawn()?;
    let pid = child.id() as libc::pid_t;
    let stdout = spawn_drain(child.stdout.take());
    let stderr = spawn_drain(child.stderr.take());
    // `child` is never waited through std: `reap` below collects it with
    // wait4 to get its resource usage.

    let (exited_tx, exited_rx) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        let _ = exited_tx.send(wait_exit_keep_zombie(pid));
    });
    let killed_at_deadline = match exited_rx.recv_timeout(limits.wall) {
        Ok(r) => {
            r?;
            false
        }
        Err(RecvTimeoutError::Timeout) => {
            // SAFETY: signalling our own child's process group.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            match exited_rx.recv() {
                Ok(r) => r?,
                Err(_) => return Err(std::io::Error::other("child waiter vanished")),
            }
            true
        }
        Err(RecvTimeoutError::Disconnected) => {
            return Err(std::io::Error::other("child waiter vanished"))
        }
    };
    let wall = start.elapsed();
    // The tool has answered (or was killed): helper processes it left behind
    // in its group are not part of the answer and must not outlive it.
    // SAFETY: the leader is an unreaped zombie, so the group id is still ours.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
    let (status, usage) = reap(pid)?;
    let stdout = stdout.recv_timeout(PIPE_DRAIN).unwrap_or_default();
    let stderr = stderr.recv_timeout(PIPE_DRAIN).unwrap_or_default();
    Ok(ChildRun {
        stdout,
        stderr,
        status,
        killed_at_deadline,
        wall,
        cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
        peak_memory_kib: usage.ru_maxrss.max(0) as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, wall_ms: u64, memory_mb: Option<u64>) -> ChildRun {
        let limits = Limits {
            wall: Duration::from_millis(wall_ms),
            memory_bytes: memory_mb.map(|m| m << 20),
        };
        run_limited(
            Path::new("/bin/sh"),
            &["-c".to_string(), script.to_string()],
            &limits,
        )
        .unwrap()
    }

    #[test]
    fn captures_output_and_exit_code() {
        let r = sh("echo hello; echo oops >&2; exit 4", 10_000, None);
        assert_eq!(r.stdout, "hello\n");
        assert_eq!(r.stderr, "oops\n");
        assert_eq!(r.status, ExitStatus::Exited(4));
        assert!(!r.killed_at_deadline);
    }

    #[test]
    fn kills_the_whole_group_at_the_deadline() {
        // A helper in the background, with its output elsewhere: killing
        // only the shell would leave it running. It is killed with the
        // group (dead, or its SIGKILL still pending, when the run returns;
        // how soon is measured in benchmarks, not asserted here).
        let r = sh("sleep 60 >/dev/null 2>&1 & echo $!; sleep 60; echo never", 300, None);
        assert!(r.killed_at_deadline);
        assert_eq!(r.status, ExitStatus::Signaled(libc::SIGKILL));
        let helper: u32 = r.stdout.trim().parse().unwrap_or_else(|_| panic!("stdout {:?}", r.stdout));
        assert!(killed(helper), "the background helper {helper} is still running");
    }

    /// Whether process `pid` is gone, dead, or has a SIGKILL pending.
    fn killed(pid: u32) -> bool {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else { return true };
        let field = |name: &str| status.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or("");
        let kill_pending = |mask: &str| u64::from_str_radix(mask, 16).is_ok_and(|m| m & (1 << (libc::SIGKILL - 1)) != 0);
        field("State:").starts_with(['Z', 'X']) || kill_pending(field("SigPnd:")) || kill_pending(field("ShdPnd:"))
    }

    #[test]
    fn memory_limit_makes_allocation_fail() {
        let r = sh("s=x; while :; do s=\"$s$s\"; done", 20_000, Some(64));
        assert!(!r.killed_at_deadline);
        assert_ne!(r.status, ExitStatus::Exited(0));
        assert!(r.peak_memory_kib > 1024, "peak {} KiB", r.peak_memory_kib);
        assert!(
            r.peak_memory_kib < 64 * 1024,
            "peak {} KiB",
            r.peak_memory_kib
        );
    }

    #[test]
    fn missing_program_is_an_error_not_a_panic() {
        let limits = Limits {
            wall: Duration::from_secs(1),
            memory_bytes: None,
        };
        assert!(run_limited(Path::new("/nonexistent/tool"), &[], &limits).is_err());
    }
}
