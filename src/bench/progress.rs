//! Live progress of a benchmark run on stderr: a bar with the answers so far
//! on a terminal, one plain line per finished run otherwise (CI logs).

use super::index::Mode;
use super::outcome::{Answer, RunRecord, Status, Tool};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

pub struct Progress {
    bar: Option<ProgressBar>,
    mode: Mode,
    total: usize,
    done: usize,
    started: Instant,
    yes: usize,
    no: usize,
    maybe: usize,
    timeout: usize,
    wrong: usize,
    z3_correct: usize,
    z3_runs: usize,
}

impl Progress {
    /// `total` counts runs (tasks, twice with `--vs-z3`).
    pub fn new(mode: Mode, total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total as u64);
            let style =
                ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> ");
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        });
        let p = Progress {
            bar,
            mode,
            total,
            done: 0,
            started: Instant::now(),
            yes: 0,
            no: 0,
            maybe: 0,
            timeout: 0,
            wrong: 0,
            z3_correct: 0,
            z3_runs: 0,
        };
        if let Some(bar) = &p.bar {
            bar.set_message(p.message());
        }
        p
    }

    fn message(&self) -> String {
        let (y, n, m) = (
            Answer::Yes.word(self.mode),
            Answer::No.word(self.mode),
            Answer::Maybe.word(self.mode),
        );
        let mut msg = format!(
            "{y} {}  {n} {}  {m} {}  timeout {}  wrong {}",
            self.yes, self.no, self.maybe, self.timeout, self.wrong
        );
        if self.z3_runs > 0 {
            msg.push_str(&format!(
                "  z3 correct {}/{}",
                self.z3_correct, self.z3_runs
            ));
        }
        msg
    }

    pub fn finished(&mut self, tool: Tool, path: &str, run: &RunRecord) {
        self.done += 1;
        match tool {
            Tool::Z3 => {
                self.z3_runs += 1;
                self.z3_correct += (run.status == Status::Correct) as usize;
            }
            Tool::Tessera => {
                match run.status {
                    Status::Timeout => self.timeout += 1,
                    _ => match run.answer_kind {
                        Answer::Yes => self.yes += 1,
                        Answer::No => self.no += 1,
                        Answer::Maybe => self.maybe += 1,
                    },
                }
                self.wrong += (run.status == Status::Wrong) as usize;
            }
        }
        let who = match tool {
            Tool::Tessera => "tessera",
            Tool::Z3 => "z3",
        };
        match &self.bar {
            Some(bar) => {
                if run.status == Status::Wrong {
                    bar.println(format!("WRONG {who} answer {} on {path}", run.answer));
                }
                bar.set_message(self.message());
                bar.inc(1);
            }
            None => {
                let width = self.total.to_string().len();
                eprintln!(
                    "[{:>width$}/{}] {:>6.1}s {who:<7} {:<17} {:<7} {:>7.2}s  {path}",
                    self.done,
                    self.total,
                    self.started.elapsed().as_secs_f64(),
                    run.status.to_string(),
                    run.answer,
                    run.wall_seconds,
                );
            }
        }
    }

    pub fn close(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        eprintln!(
            "{} runs in {:.1} s: {}",
            self.done,
            self.started.elapsed().as_secs_f64(),
            self.message()
        );
    }
}
