"""Measuring one child process, for the benchmark scripts in this folder.

`run_child` runs a command in its own process group, kills the group when
it runs out of time, and reports the child's wall time, CPU time (user +
system of the child and all its threads) and peak resident memory
(`ru_maxrss`), both from the `rusage` that `wait4` returns for it, as a `Run`.
`machine()` and `load_average()` describe the machine for a report's
header. Used by scale.py and solve_vs_z3.py; standard library only, Linux
(`os.pidfd_open`, Python 3.9 or later).
"""
import os
import platform
import select
import signal
import subprocess
import tempfile
import time

# At most this much of a child's standard error is kept (its end).
STDERR_KEEP = 65536


class Run:
    """One child's outcome.

    wall, cpu: seconds; peak_mb: peak resident memory in MB; status: exit
    code (negative: the signal that ended it); killed: whether it ran out of
    time and its group was killed; stdout_bytes: size of its standard output;
    first_line: that output's first line, stripped; stdout: the whole output
    if asked for (keep_stdout), else ""; stderr: the end of its standard error
    (its last STDERR_KEEP bytes).
    """

    def __init__(self, wall, cpu, peak_mb, status, killed, stdout_bytes, first_line, stdout, stderr):
        self.wall, self.cpu, self.peak_mb, self.status, self.killed = wall, cpu, peak_mb, status, killed
        self.stdout_bytes, self.first_line, self.stdout, self.stderr = stdout_bytes, first_line, stdout, stderr


def run_child(argv, limit_s, stdout_path=None, keep_stdout=False):
    """Run argv in its own process group, reap it with wait4 (killing the
    group after limit_s seconds), measure it.

    Standard output goes to stdout_path if given (and stays there), else to a
    temporary file, so that a large output cannot block on a pipe. Its size
    and first line are always returned, the whole text only with
    keep_stdout=True.
    """
    with tempfile.TemporaryFile() as err:
        out = open(stdout_path, "w+b") if stdout_path else tempfile.TemporaryFile()
        try:
            start = time.monotonic()
            proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                    start_new_session=True)
            pidfd = os.pidfd_open(proc.pid)
            try:
                ready, _, _ = select.select([pidfd], [], [], limit_s)
                killed = not ready
                # Not reaped yet (at most a zombie), so the pid and the group it
                # leads are still ours: kill the group, which on time-out ends
                # the child and otherwise anything it left running.
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
                _, status, usage = os.wait4(proc.pid, 0)
            finally:
                os.close(pidfd)
            wall = time.monotonic() - start
            proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
            out.seek(0, os.SEEK_END)
            size = out.tell()
            out.seek(0)
            first = out.readline(4096).decode(errors="replace").strip()
            stdout = ""
            if keep_stdout:
                out.seek(0)
                stdout = out.read().decode(errors="replace")
        finally:
            out.close()
        err.seek(0, os.SEEK_END)
        err.seek(max(0, err.tell() - STDERR_KEEP))
        stderr = err.read().decode(errors="replace")
    # Linux reports ru_maxrss in kilobytes.
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, proc.returncode,
               killed, size, first, stdout, stderr)


def machine():
    """`system release architecture`, cores and total memory, for a report."""
    mem_mb = "?"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem_mb = str(int(line.split()[1]) // 1024)
    except OSError:
        pass
    return f"`{platform.system()} {platform.release()} {platform.machine()}`, {os.cpu_count()} cores, {mem_mb} MB memory"


def load_average():
    """The 1, 5 and 15 minute load averages as "a / b / c", or "?"."""
    try:
        return "{:.1f} / {:.1f} / {:.1f}".format(*os.getloadavg())
    except OSError:
        return "?"
