//! Runs every task of an index as a limited child process on a pool of
//! worker threads, and collects the scored records.

use super::child::{run_limited, Limits};
use super::index::{Mode, Task, VerdictIndex};
use super::outcome::{not_started, score, RunRecord, ScoringContext, Tool};
use super::progress::Progress;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// How the prover is started for one task.
#[derive(Clone, Debug)]
pub enum ToolCommand {
    /// This executable's own `prove` / `solve` subcommands.
    Tessera(PathBuf),
    /// A stand-in command line (for tests): whitespace-separated words in
    /// which `{file}` and `{timeout}` are replaced; the file is appended
    /// when no word names it.
    Template(Vec<String>),
}

/// Everything that decides how the runs are made.
#[derive(Clone, Debug)]
pub struct RunSettings {
    /// The limit handed to the tool.
    pub time_limit: Duration,
    /// Extra time after the limit before the process group is killed, so a
    /// tool that stops at its limit still gets to print its answer.
    pub grace: Duration,
    pub memory_mb: u64,
    pub jobs: usize,
    pub ints: Option<String>,
    pub external_calls: Option<String>,
    pub allocation: Option<String>,
    pub strategy: Option<String>,
    pub engine: Option<String>,
    pub tool: ToolCommand,
    /// Z3's command line as a template (`{file}`, `{timeout}`, `{timeout_int}`),
    /// `None` unless comparing with Z3.
    pub z3: Option<Vec<String>>,
    /// Where each run's stdout/stderr is kept (`None`: not kept).
    pub log_dir: Option<PathBuf>,
}

/// The results for one task.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TaskResult {
    pub path: String,
    pub category: Option<String>,
    pub expected: &'static str,
    pub tessera: RunRecord,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z3: Option<RunRecord>,
}

/// Seconds as the tools take them: `30`, or `0.5` for fractions.
pub fn seconds_word(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s}")
    }
}

fn fill_template(words: &[String], file: &Path, limit: Duration) -> (PathBuf, Vec<String>) {
    let file_word = file.display().to_string();
    let whole = seconds_word(limit);
    let ceil = format!("{}", limit.as_secs_f64().ceil().max(1.0) as u64);
    let mut filled: Vec<String> = words
        .iter()
        .map(|w| {
            w.replace("{file}", &file_word)
                .replace("{timeout_int}", &ceil)
                .replace("{timeout}", &whole)
        })
        .collect();
    if !words.iter().any(|w| w.contains("{file}")) {
        filled.push(file_word);
    }
    let program = PathBuf::from(filled.first().cloned().unwrap_or_default());
    (program, filled.into_iter().skip(1).collect())
}

/// The command line of the prover on `task` in `mode`.
pub fn tessera_command(settings: &RunSettings, mode: Mode, task: &Task) -> (PathBuf, Vec<String>) {
    match &settings.tool {
        ToolCommand::Template(words) => fill_template(words, &task.file, settings.time_limit),
        ToolCommand::Tessera(exe) => {
            let file = task.file.display().to_string();
            let timeout = seconds_word(settings.time_limit);
            let mut args: Vec<String> = match mode {
                // The scoreboards count answers and their times: no
                // precondition search after a NO.
                Mode::Termination => vec!["prove".into(), file, "--format".into(), "json".into(), "--no-precondition".into()],
                Mode::Chc => vec!["solve".into(), file],
            };
            args.extend(["--timeout".to_string(), timeout]);
            let mut option = |name: &str, value: &Option<String>| {
                if let Some(v) = value {
                    args.extend([name.to_string(), v.clone()]);
                }
            };
            match mode {
                Mode::Termination => {
                    option("--ints", &settings.ints);
                    option("--external-calls", &settings.external_calls);
                    option("--allocation", &settings.allocation);
                    option("--strategy", &settings.strategy);
                    let model = task.data_model.map(|m| m.flag_value().to_string());
                    option("--data-model", &model);
                }
                Mode::Chc => option("--engine", &settings.engine),
            }
            (exe.clone(), args)
        }
    }
}

/// A file name below the log folder for a task path from the index; `..`
/// and absolute parts are neutralised so logs stay inside the folder.
fn log_path(dir: &Path, tool: Tool, relative: &str) -> PathBuf {
    let mut p = dir.join(match tool {
        Tool::Tessera => "tessera",
        Tool::Z3 => "z3",
    });
    for c in Path::new(relative).components() {
        match c {
            Component::Normal(part) => p.push(part),
            Component::ParentDir => p.push("up"),
            _ => {}
        }
    }
    p
}

fn keep_logs(dir: &Path, tool: Tool, relative: &str, stdout: &str, stderr: &str) {
    let base = log_path(dir, tool, relative);
    let Some(parent) = base.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    // Logs are a debugging aid: failing to write one must not stop the run.
    for (suffix, text) in [("stdout", stdout), ("stderr", stderr)] {
        if !text.is_empty() {
            let mut name = base.clone().into_os_string();
            name.push(format!(".{suffix}"));
            let _ = std::fs::write(PathBuf::from(name), text);
        }
    }
}

fn run_one(settings: &RunSettings, mode: Mode, task: &Task, tool: Tool) -> RunRecord {
    let (program, args) = match (tool, &settings.z3) {
        (Tool::Z3, Some(words)) => fill_template(words, &task.file, settings.time_limit),
        _ => tessera_command(settings, mode, task),
    };
    let limits = Limits {
        wall: settings.time_limit + settings.grace,
        memory_bytes: Some(settings.memory_mb.saturating_mul(1 << 20)),
    };
    let ctx = ScoringContext {
        mode,
        tool,
        expected: task.expected,
        time_limit: settings.time_limit,
        memory_bytes: limits.memory_bytes,
    };
    match run_limited(&program, &args, &limits) {
        Ok(run) => {
            if let Some(dir) = &settings.log_dir {
                keep_logs(dir, tool, &task.relative_path, &run.stdout, &run.stderr);
            }
            score(&run, &ctx)
        }
        Err(e) => not_started(
            mode,
            &std::io::Error::new(e.kind(), format!("{}: {e}", program.display())),
        ),
    }
}

/// Runs all tasks of `index` (and Z3 on each when configured) on
/// `settings.jobs` threads. Results come back in index order.
pub fn run_all(settings: &RunSettings, index: &VerdictIndex) -> Vec<TaskResult> {
    let mode = index.mode;
    let tools: Vec<Tool> = if settings.z3.is_some() {
        vec![Tool::Tessera, Tool::Z3]
    } else {
        vec![Tool::Tessera]
    };
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<(usize, Tool)>();
    for i in 0..index.tasks.len() {
        for &tool in &tools {
            let _ = job_tx.send((i, tool));
        }
    }
    drop(job_tx);
    let total = index.tasks.len() * tools.len();
    let mut progress = Progress::new(mode, total);
    let mut tessera: Vec<Option<RunRecord>> = vec![None; index.tasks.len()];
    let mut z3: Vec<Option<RunRecord>> = vec![None; index.tasks.len()];
    let (done_tx, done_rx) = crossbeam_channel::unbounded::<(usize, Tool, RunRecord)>();
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.max(1) {
            let job_rx = job_rx.clone();
            let done_tx = done_tx.clone();
            scope.spawn(move || {
                for (i, tool) in job_rx.iter() {
                    let record = run_one(settings, mode, &index.tasks[i], tool);
                    if done_tx.send((i, tool, record)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        for (i, tool, record) in done_rx.iter() {
            progress.finished(tool, &index.tasks[i].relative_path, &record);
            match tool {
                Tool::Tessera => tessera[i] = Some(record),
                Tool::Z3 => z3[i] = Some(record),
            }
        }
    });
    progress.close();
    index
        .tasks
        .iter()
        .zip(tessera.into_iter().zip(z3))
        .map(|(task, (t, z3))| TaskResult {
            path: task.relative_path.clone(),
            category: task.category.clone(),
            expected: task.expected.word(mode),
            // Every job was sent and every worker ran until the queue was
            // empty, so each task has its record.
            tessera: t.unwrap_or_else(|| {
                not_started(
                    mode,
                    &std::io::Error::other("no result (worker thread ended early)"),
                )
            }),
            z3,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::index::Verdict;
    use crate::svcomp::DataModel;

    fn settings(tool: ToolCommand) -> RunSettings {
        RunSettings {
            time_limit: Duration::from_secs(30),
            grace: Duration::from_secs(5),
            memory_mb: 4096,
            jobs: 1,
            ints: Some("math".into()),
            external_calls: None,
            allocation: None,
            strategy: None,
            engine: Some("pdr".into()),
            tool,
            z3: None,
            log_dir: None,
        }
    }

    fn task(file: &str, data_model: Option<DataModel>) -> Task {
        Task {
            relative_path: file.into(),
            file: PathBuf::from(file),
            expected: Verdict::Holds,
            category: None,
            data_model,
        }
    }

    #[test]
    fn prove_and_solve_command_lines() {
        let s = settings(ToolCommand::Tessera(PathBuf::from("/bin/tessera")));
        let (p, a) = tessera_command(&s, Mode::Termination, &task("d/x.c", None));
        assert_eq!(p, PathBuf::from("/bin/tessera"));
        assert_eq!(
            a.join(" "),
            "prove d/x.c --format json --no-precondition --timeout 30 --ints math"
        );
        let (_, a) = tessera_command(&s, Mode::Chc, &task("y.smt2", None));
        assert_eq!(a.join(" "), "solve y.smt2 --timeout 30 --engine pdr");
    }

    #[test]
    fn an_index_data_model_becomes_the_data_model_option() {
        let s = settings(ToolCommand::Tessera(PathBuf::from("/bin/tessera")));
        let (_, a) = tessera_command(&s, Mode::Termination, &task("x.i", Some(DataModel::Ilp32)));
        assert_eq!(
            a.join(" "),
            "prove x.i --format json --no-precondition --timeout 30 --ints math --data-model ilp32"
        );
        // A task definition carries its own data model: only the file is passed.
        let (_, a) = tessera_command(&s, Mode::Termination, &task("t/x.yml", None));
        assert_eq!(
            a.join(" "),
            "prove t/x.yml --format json --no-precondition --timeout 30 --ints math"
        );
    }

    #[test]
    fn templates_fill_file_and_timeouts() {
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let (p, a) = fill_template(
            &words("z3 -T:{timeout_int} {file}"),
            Path::new("f.smt2"),
            Duration::from_millis(2500),
        );
        assert_eq!(
            (p, a.join(" ")),
            (PathBuf::from("z3"), "-T:3 f.smt2".to_string())
        );
        let (p, a) = fill_template(
            &words("sh run.sh --t {timeout}"),
            Path::new("f.c"),
            Duration::from_millis(500),
        );
        assert_eq!(
            (p, a.join(" ")),
            (PathBuf::from("sh"), "run.sh --t 0.5 f.c".to_string())
        );
    }

    #[test]
    fn log_paths_stay_inside_the_log_folder() {
        let p = log_path(Path::new("/out/logs"), Tool::Z3, "../../etc/passwd");
        assert_eq!(p, PathBuf::from("/out/logs/z3/up/up/etc/passwd"));
        let p = log_path(Path::new("/out/logs"), Tool::Tessera, "/abs/x.c");
        assert_eq!(p, PathBuf::from("/out/logs/tessera/abs/x.c"));
    }
}
