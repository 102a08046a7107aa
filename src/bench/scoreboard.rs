//! The scoreboard of a finished run: the per-category table (plain text or
//! Markdown), the wrong answers, and the files `results.json`,
//! `results.csv`, `scoreboard.md`.

use super::index::Mode;
use super::machine::Machine;
use super::outcome::Status;
use super::runner::TaskResult;
use super::score::{Comparison, Tally};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Run parameters as reported (not as used to start runs).
#[derive(Clone, Debug, serde::Serialize)]
pub struct ReportedSettings {
    pub time_limit_seconds: f64,
    pub memory_limit_mb: u64,
    pub jobs: usize,
    pub ints: Option<String>,
    pub strategy: Option<String>,
    pub engine: Option<String>,
    pub filter: Option<String>,
    pub int_only: bool,
    pub vs_z3: bool,
    /// The stand-in command, when the prover was replaced.
    pub tool_command: Option<String>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct CategoryTally {
    pub category: String,
    #[serde(flatten)]
    pub tally: Tally,
}

/// A task answered wrongly, named loudly at the end of the report.
#[derive(Clone, Debug, serde::Serialize)]
pub struct WrongAnswer {
    pub tool: &'static str,
    pub path: String,
    pub expected: &'static str,
    pub answer: &'static str,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Scoreboard {
    pub tessera_version: &'static str,
    pub date: String,
    pub machine: Machine,
    pub index: String,
    pub mode: Mode,
    pub settings: ReportedSettings,
    pub overall: Tally,
    /// Empty when the index has no `category` column.
    pub categories: Vec<CategoryTally>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z3: Option<Tally>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Comparison>,
    pub wrong: Vec<WrongAnswer>,
    pub tasks: Vec<TaskResult>,
}

impl Scoreboard {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        date: String,
        machine: Machine,
        index: String,
        mode: Mode,
        has_categories: bool,
        settings: ReportedSettings,
        tasks: Vec<TaskResult>,
    ) -> Scoreboard {
        let overall = Tally::from_runs(mode, tasks.iter().map(|t| &t.tessera));
        let mut by_category: BTreeMap<String, Tally> = BTreeMap::new();
        if has_categories {
            for t in &tasks {
                let name = t.category.clone().unwrap_or_default();
                by_category
                    .entry(name)
                    .or_insert_with(|| Tally::for_mode(mode))
                    .add(&t.tessera);
            }
        }
        let categories = by_category
            .into_iter()
            .map(|(category, tally)| CategoryTally { category, tally })
            .collect();
        let z3_runs: Vec<_> = tasks
            .iter()
            .filter_map(|t| t.z3.as_ref().map(|z| (&t.tessera, z)))
            .collect();
        let (z3, comparison) = if z3_runs.is_empty() {
            (None, None)
        } else {
            (
                Some(Tally::from_runs(mode, z3_runs.iter().map(|(_, z)| *z))),
                Some(Comparison::of(z3_runs.iter().copied())),
            )
        };
        let mut wrong = Vec::new();
        for t in &tasks {
            let runs = [("tessera", Some(&t.tessera)), ("z3", t.z3.as_ref())];
            for (tool, run) in runs {
                if let Some(r) = run.filter(|r| r.status == Status::Wrong) {
                    wrong.push(WrongAnswer {
                        tool,
                        path: t.path.clone(),
                        expected: t.expected,
                        answer: r.answer,
                    });
                }
            }
        }
        Scoreboard {
            tessera_version: env!("CARGO_PKG_VERSION"),
            date,
            machine,
            index,
            mode,
            settings,
            overall,
            categories,
            z3,
            comparison,
            wrong,
            tasks,
        }
    }

    /// Wrong answers of Tessera itself (Z3's are reported but not ours to fix).
    pub fn tessera_wrong(&self) -> usize {
        self.overall.wrong()
    }

    fn header(&self) -> Vec<String> {
        let words: [&str; 4] = match self.mode {
            Mode::Termination => ["YES", "NO", "MAYBE", "score"],
            Mode::Chc => ["sat", "unsat", "unknown", "solved"],
        };
        let [y, n, m, points] = words;
        vec![
            "category".into(),
            "tasks".into(),
            format!("correct {y}"),
            format!("correct {n}"),
            format!("wrong {y}"),
            format!("wrong {n}"),
            m.into(),
            "timeout".into(),
            "memout".into(),
            "error".into(),
            points.into(),
            "median s".into(),
        ]
    }

    fn row(&self, name: &str, t: &Tally) -> Vec<String> {
        let points = match t.svcomp_score {
            Some(score) => score.to_string(),
            None => t.correct().to_string(),
        };
        let mut r = vec![name.to_string()];
        r.extend(
            [
                t.tasks,
                t.correct_yes,
                t.correct_no,
                t.wrong_yes,
                t.wrong_no,
                t.maybe,
                t.timeout,
                t.memout,
                t.error,
            ]
            .iter()
            .map(|n| n.to_string()),
        );
        r.push(points);
        // The median wall time of the correct answers: the time a user
        // waits for an answer of this kind of task.
        r.push(t.correct_time_median_seconds.map(|m| format!("{m:.2}")).unwrap_or_else(|| "-".into()));
        r
    }

    fn rows(&self) -> Vec<Vec<String>> {
        let mut rows: Vec<Vec<String>> = self
            .categories
            .iter()
            .map(|c| self.row(&c.category, &c.tally))
            .collect();
        rows.push(self.row("total", &self.overall));
        if let Some(z3) = &self.z3 {
            rows.push(self.row("z3 (total)", z3));
        }
        rows
    }

    fn settings_line(&self) -> String {
        let s = &self.settings;
        let mut parts = vec![
            format!("time limit {} s", s.time_limit_seconds),
            format!("memory limit {} MB", s.memory_limit_mb),
            format!("{} jobs", s.jobs),
        ];
        let mut opt = |name: &str, v: &Option<String>| {
            if let Some(v) = v {
                parts.push(format!("{name} {v}"));
            }
        };
        match self.mode {
            Mode::Termination => {
                opt("ints", &s.ints);
                opt("strategy", &s.strategy);
            }
            Mode::Chc => opt("engine", &s.engine),
        }
        opt("filter", &s.filter);
        if s.int_only {
            parts.push("int-only tasks".into());
        }
        if let Some(c) = &s.tool_command {
            parts.push(format!("STAND-IN TOOL `{c}`"));
        }
        parts.join(", ")
    }

    fn time_line(&self, who: &str, t: &Tally) -> String {
        let median = t
            .correct_time_median_seconds
            .map(|m| format!("{m:.2} s"))
            .unwrap_or_else(|| "-".into());
        format!(
            "{who}: {} of {} correct; time of correct answers: total {:.2} s, median {median}",
            t.correct(),
            t.tasks,
            t.correct_time_total_seconds
        )
    }

    fn comparison_lines(&self) -> Vec<String> {
        let Some(c) = &self.comparison else {
            return vec![];
        };
        let ratio = c
            .time_ratio
            .map(|r| format!("{r:.2}"))
            .unwrap_or_else(|| "-".into());
        vec![
            format!(
                "tessera vs z3: tessera {} correct, z3 {} correct, both {}, only tessera {}, only z3 {}; wrong: tessera {}, z3 {}",
                c.tessera_correct, c.z3_correct, c.both_correct, c.only_tessera, c.only_z3, c.tessera_wrong, c.z3_wrong
            ),
            format!(
                "time on the {} problems both solve: tessera {:.1} s, z3 {:.1} s, ratio tessera/z3 {ratio}",
                c.both_correct, c.tessera_time_on_both_seconds, c.z3_time_on_both_seconds
            ),
        ]
    }

    fn wrong_line(&self, w: &WrongAnswer) -> String {
        format!(
            "{}: {} answered {}, expected {}",
            w.path, w.tool, w.answer, w.expected
        )
    }

    /// The plain-text scoreboard for the terminal.
    pub fn text(&self) -> String {
        let header = self.header();
        let rows = self.rows();
        let widths: Vec<usize> = (0..header.len())
            .map(|c| {
                rows.iter()
                    .map(|r| r[c].len())
                    .chain([header[c].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (c, cell) in cells.iter().enumerate() {
                if c == 0 {
                    let _ = write!(s, "{cell:<w$}", w = widths[c]);
                } else {
                    let _ = write!(s, "  {cell:>w$}", w = widths[c]);
                }
            }
            s.trim_end().to_string() + "\n"
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Scoreboard for {} ({}), {}",
            self.index,
            self.date,
            self.settings_line()
        );
        out.push_str(&line(&header));
        let rule: usize = widths.iter().sum::<usize>() + 2 * (widths.len() - 1);
        out.push_str(&"-".repeat(rule));
        out.push('\n');
        for r in &rows {
            out.push_str(&line(r));
        }
        out.push('\n');
        out.push_str(&self.time_line("tessera", &self.overall));
        out.push('\n');
        if let Some(z3) = &self.z3 {
            out.push_str(&self.time_line("z3", z3));
            out.push('\n');
        }
        for l in self.comparison_lines() {
            out.push_str(&l);
            out.push('\n');
        }
        if !self.wrong.is_empty() {
            let banner = "!".repeat(20);
            let _ = writeln!(
                out,
                "\n{banner} {} WRONG ANSWER(S) {banner}",
                self.wrong.len()
            );
            for w in &self.wrong {
                let _ = writeln!(out, "WRONG  {}", self.wrong_line(w));
            }
            let _ = writeln!(out, "{}", "!".repeat(banner.len() * 2 + 20));
        }
        out
    }

    /// The scoreboard as a Markdown section for benchmarks/results.md.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let what = match self.mode {
            Mode::Termination => "termination",
            Mode::Chc => "CHC",
        };
        let _ = writeln!(
            out,
            "### Benchmark: {} ({what}, {})\n",
            self.index, self.date
        );
        let m = &self.machine;
        let _ = writeln!(
            out,
            "Machine: `{}`, {} cores, {} MB memory. Tessera {}; {}.\n",
            m.uname,
            m.cores,
            m.memory_mb,
            self.tessera_version,
            self.settings_line()
        );
        let header = self.header();
        let _ = writeln!(out, "| {} |", header.join(" | "));
        let align: Vec<&str> = (0..header.len())
            .map(|c| if c == 0 { "---" } else { "---:" })
            .collect();
        let _ = writeln!(out, "| {} |", align.join(" | "));
        for r in self.rows() {
            let mut cells = r.clone();
            if cells[0] == "total" {
                cells = cells.iter().map(|c| format!("**{c}**")).collect();
            }
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out.push('\n');
        let _ = writeln!(out, "{}.", self.time_line("Tessera", &self.overall));
        if let Some(z3) = &self.z3 {
            let _ = writeln!(out, "\n{}.", self.time_line("Z3", z3));
        }
        for l in self.comparison_lines() {
            let _ = writeln!(out, "\n{l}.");
        }
        if self.wrong.is_empty() {
            let _ = writeln!(out, "\nNo wrong answers.");
        } else {
            let _ = writeln!(out, "\n**{} wrong answer(s):**\n", self.wrong.len());
            for w in &self.wrong {
                let _ = writeln!(
                    out,
                    "- `{}`: {} answered {}, expected {}",
                    w.path, w.tool, w.answer, w.expected
                );
            }
        }
        out
    }

    pub fn json(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// One line per task; Z3 columns only when Z3 ran.
    pub fn csv(&self) -> String {
        let with_z3 = self.z3.is_some();
        let mut out = String::from(
            "path,category,expected,answer,status,wall_seconds,cpu_seconds,peak_memory_mb,exit,detail",
        );
        if with_z3 {
            out.push_str(",z3_answer,z3_status,z3_wall_seconds,z3_peak_memory_mb");
        }
        out.push('\n');
        for t in &self.tasks {
            let r = &t.tessera;
            let mut cells = vec![
                t.path.clone(),
                t.category.clone().unwrap_or_default(),
                t.expected.to_string(),
                r.answer.to_string(),
                r.status.to_string(),
                format!("{:.3}", r.wall_seconds),
                format!("{:.3}", r.cpu_seconds),
                format!("{:.1}", r.peak_memory_mb),
                r.exit.clone(),
                r.detail.clone(),
            ];
            if let Some(z) = &t.z3 {
                cells.extend([
                    z.answer.to_string(),
                    z.status.to_string(),
                    format!("{:.3}", z.wall_seconds),
                    format!("{:.1}", z.peak_memory_mb),
                ]);
            } else if with_z3 {
                cells.extend(std::iter::repeat_n(String::new(), 4));
            }
            let quoted: Vec<String> = cells.iter().map(|c| csv_field(c)).collect();
            out.push_str(&quoted.join(","));
            out.push('\n');
        }
        out
    }
}

/// RFC 4180 quoting: fields with commas, quotes or line breaks are quoted,
/// inner quotes doubled.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::outcome::{Answer, RunRecord};

    fn rec(answer: Answer, word: &'static str, status: Status, wall: f64) -> RunRecord {
        RunRecord {
            answer: word,
            answer_kind: answer,
            status,
            wall_seconds: wall,
            cpu_seconds: wall,
            peak_memory_mb: 10.0,
            exit: "exit 0".into(),
            detail: "a, \"quoted\" reason".into(),
        }
    }

    fn board() -> Scoreboard {
        let task = |path: &str, cat: &str, expected, tessera| TaskResult {
            path: path.into(),
            category: Some(cat.into()),
            expected,
            tessera,
            z3: None,
        };
        let tasks = vec![
            task(
                "a/1.c",
                "a",
                "terminating",
                rec(Answer::Yes, "YES", Status::Correct, 1.0),
            ),
            task(
                "a/2.c",
                "a",
                "nonterminating",
                rec(Answer::Yes, "YES", Status::Wrong, 2.0),
            ),
            task(
                "b/3.c",
                "b",
                "nonterminating",
                rec(Answer::No, "NO", Status::Correct, 3.0),
            ),
            task(
                "b/4.c",
                "b",
                "terminating",
                rec(Answer::Maybe, "MAYBE", Status::Timeout, 9.0),
            ),
        ];
        let settings = ReportedSettings {
            time_limit_seconds: 5.0,
            memory_limit_mb: 100,
            jobs: 2,
            ints: Some("math".into()),
            strategy: None,
            engine: None,
            filter: None,
            int_only: false,
            vs_z3: false,
            tool_command: None,
        };
        let machine = Machine {
            uname: "Linux 6.1 x86_64".into(),
            cores: 2,
            memory_mb: 1000,
        };
        Scoreboard::new(
            "2025-01-01 00:00 UTC".into(),
            machine,
            "v.tsv".into(),
            Mode::Termination,
            true,
            settings,
            tasks,
        )
    }

    #[test]
    fn table_has_categories_total_and_wrong_answers() {
        let b = board();
        assert_eq!(b.categories.len(), 2);
        assert_eq!(b.categories[0].tally.svcomp_score, Some(2 - 32));
        assert_eq!(b.overall.svcomp_score, Some(2 - 32 + 1));
        let text = b.text();
        assert!(
            text.contains("WRONG  a/2.c: tessera answered YES, expected nonterminating"),
            "{text}"
        );
        let total = text.lines().find(|l| l.starts_with("total")).unwrap();
        let cells: Vec<&str> = total.split_whitespace().collect();
        assert_eq!(
            cells,
            ["total", "4", "1", "1", "1", "0", "0", "1", "0", "0", "-29", "2.00"]
        );
        assert!(text.contains(
            "tessera: 2 of 4 correct; time of correct answers: total 4.00 s, median 2.00 s"
        ));
    }

    #[test]
    fn markdown_names_machine_and_date() {
        let md = board().markdown();
        assert!(md.contains("2025-01-01 00:00 UTC"));
        assert!(md.contains("`Linux 6.1 x86_64`, 2 cores, 1000 MB memory"));
        assert!(md.contains("| category | tasks | correct YES |"));
        assert!(md.contains("| **total** | **4** |"));
        assert!(md.contains("- `a/2.c`: tessera answered YES, expected nonterminating"));
    }

    #[test]
    fn csv_quotes_and_json_round_trips() {
        let b = board();
        let csv = b.csv();
        assert_eq!(csv.lines().count(), 5);
        assert!(csv
            .lines()
            .nth(1)
            .unwrap()
            .ends_with(",exit 0,\"a, \"\"quoted\"\" reason\""));
        let v: serde_json::Value = serde_json::from_str(&b.json()).unwrap();
        assert_eq!(v["overall"]["svcomp_score"], -29);
        assert_eq!(v["tasks"][1]["tessera"]["status"], "wrong");
        assert_eq!(v["categories"][1]["category"], "b");
        assert_eq!(v["wrong"][0]["path"], "a/2.c");
    }
}
