//! Verdict indexes: the tab-separated lists of benchmark tasks with their
//! expected answers (`../shared/bench/{c,chc}/verdicts.tsv` style).
//!
//! An index has a header line naming its columns. `relative_path` and
//! `expected` are required; `category` is used for per-category figures when
//! present; `data_model` (ILP32/LP64) is handed to the prover when present;
//! every other column is ignored. Paths are relative to the folder that
//! holds the index.
//!
//! A folder of SV-COMP task definitions is an index too
//! ([`VerdictIndex::from_task_folder`]): every `.yml` below it with a
//! termination property and an expected verdict is a task.

use crate::error::{Result, TesseraError};
use crate::svcomp::{self, DataModel, TaskDefinition};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a task asks, which decides the child command and the scoring words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// C programs, expected `terminating` | `nonterminating`, run with `tessera prove`.
    Termination,
    /// SMT-LIB Horn files, expected `sat` | `unsat`, run with `tessera solve`.
    Chc,
}

/// A definitive verdict: the property holds (terminates / clauses are
/// satisfiable) or it does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Holds,
    Fails,
}

impl Verdict {
    /// The index's word for this verdict in `mode`.
    pub fn word(self, mode: Mode) -> &'static str {
        match (mode, self) {
            (Mode::Termination, Verdict::Holds) => "terminating",
            (Mode::Termination, Verdict::Fails) => "nonterminating",
            (Mode::Chc, Verdict::Holds) => "sat",
            (Mode::Chc, Verdict::Fails) => "unsat",
        }
    }

    fn parse(word: &str) -> Option<(Mode, Verdict)> {
        match word {
            "terminating" => Some((Mode::Termination, Verdict::Holds)),
            "nonterminating" => Some((Mode::Termination, Verdict::Fails)),
            "sat" => Some((Mode::Chc, Verdict::Holds)),
            "unsat" => Some((Mode::Chc, Verdict::Fails)),
            _ => None,
        }
    }
}

/// One benchmark task of an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The path as written in the index (relative to the index's folder).
    pub relative_path: String,
    /// The file to hand to the tool.
    pub file: PathBuf,
    pub expected: Verdict,
    /// `None` when the index has no `category` column.
    pub category: Option<String>,
    /// Handed to the prover as `--data-model` (from the index's `data_model`
    /// column); `None` for task definitions, which carry their own.
    pub data_model: Option<DataModel>,
}

/// A parsed verdict index.
#[derive(Clone, Debug)]
pub struct VerdictIndex {
    pub path: PathBuf,
    pub mode: Mode,
    pub tasks: Vec<Task>,
    /// Whether the index has a `category` column.
    pub has_categories: bool,
    /// What the user should know about files left out (task folders).
    pub notes: Vec<String>,
}

/// A header-addressed table of tab-separated values.
struct Table {
    columns: Vec<String>,
    /// (line number, cells)
    rows: Vec<(usize, Vec<String>)>,
}

impl Table {
    fn parse(text: &str, origin: &Path) -> Result<Table> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
        let (_, header) = lines.next().ok_or_else(|| {
            TesseraError::syntax(
                None,
                format!("{}: empty index (no header line)", origin.display()),
            )
        })?;
        let columns: Vec<String> = header.split('\t').map(|c| c.trim().to_string()).collect();
        let mut rows = Vec::new();
        for (number, line) in lines {
            let cells: Vec<String> = line.split('\t').map(|c| c.trim().to_string()).collect();
            rows.push((number, cells));
        }
        Ok(Table { columns, rows })
    }

    fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    fn require(&self, name: &str, origin: &Path) -> Result<usize> {
        self.column(name).ok_or_else(|| {
            TesseraError::syntax(
                None,
                format!("{}: the header has no `{name}` column", origin.display()),
            )
        })
    }

    fn cell<'a>(
        &self,
        cells: &'a [String],
        column: usize,
        line: usize,
        origin: &Path,
    ) -> Result<&'a str> {
        cells.get(column).map(|s| s.as_str()).ok_or_else(|| {
            TesseraError::syntax(
                None,
                format!(
                    "{}:{line}: expected {} tab-separated columns, found {}",
                    origin.display(),
                    self.columns.len(),
                    cells.len()
                ),
            )
        })
    }
}

fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| TesseraError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

impl VerdictIndex {
    /// Reads and checks an index: every listed file must exist and all
    /// expected answers must belong to one mode.
    pub fn load(path: &Path) -> Result<VerdictIndex> {
        let text = read_text(path)?;
        VerdictIndex::parse(&text, path)
    }

    /// Parses index text that was read from `path` (used to resolve the task files).
    pub fn parse(text: &str, path: &Path) -> Result<VerdictIndex> {
        let table = Table::parse(text, path)?;
        let path_col = table.require("relative_path", path)?;
        let expected_col = table.require("expected", path)?;
        let category_col = table.column("category");
        let data_model_col = table.column("data_model");
        let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut mode: Option<Mode> = None;
        let mut tasks = Vec::new();
        let mut unknown = 0;
        for (line, cells) in &table.rows {
            let relative_path = table.cell(cells, path_col, *line, path)?.to_string();
            let word = table.cell(cells, expected_col, *line, path)?;
            if word == "unknown" {
                // No tool knows the answer: nothing to score it against.
                unknown += 1;
                continue;
            }
            let (task_mode, expected) = Verdict::parse(word).ok_or_else(|| {
                TesseraError::syntax(
                    None,
                    format!(
                        "{}:{line}: expected answer `{word}` is none of terminating, nonterminating, sat, unsat, unknown",
                        path.display()
                    ),
                )
            })?;
            match mode {
                None => mode = Some(task_mode),
                Some(m) if m != task_mode => {
                    return Err(TesseraError::syntax(
                        None,
                        format!(
                            "{}:{line}: `{word}` mixes C termination and CHC verdicts in one index",
                            path.display()
                        ),
                    ))
                }
                Some(_) => {}
            }
            let category = match category_col {
                Some(c) => Some(table.cell(cells, c, *line, path)?.to_string()),
                None => None,
            };
            let data_model = match data_model_col {
                Some(c) => {
                    let word = table.cell(cells, c, *line, path)?;
                    Some(DataModel::parse(word).ok_or_else(|| {
                        TesseraError::syntax(
                            None,
                            format!(
                                "{}:{line}: data model `{word}` is neither ILP32 nor LP64",
                                path.display()
                            ),
                        )
                    })?)
                }
                None => None,
            };
            let file = folder.join(&relative_path);
            if !file.is_file() {
                return Err(TesseraError::Io {
                    path: file.display().to_string(),
                    message: format!(
                        "listed in {}:{line} but not a readable file",
                        path.display()
                    ),
                });
            }
            tasks.push(Task {
                relative_path,
                file,
                expected,
                category,
                data_model,
            });
        }
        let mode = mode.ok_or_else(|| {
            TesseraError::syntax(None, format!("{}: the index lists no task", path.display()))
        })?;
        Ok(VerdictIndex {
            path: path.to_path_buf(),
            mode,
            tasks,
            has_categories: category_col.is_some(),
            notes: if unknown > 0 {
                vec![format!("skipping {unknown} task(s) whose expected answer is `unknown`")]
            } else {
                Vec::new()
            },
        })
    }

    /// The task definitions below `dir` that have a termination property
    /// with an expected verdict, each run as `tessera prove TASK.yml` (so
    /// with its own data model); category = the task's folder relative to
    /// `dir`. `notes` tell which task definitions cannot be read and how
    /// many have no termination verdict.
    pub fn from_task_folder(dir: &Path) -> Result<VerdictIndex> {
        let files = svcomp::find_task_definitions(dir).map_err(|e| TesseraError::Io {
            path: dir.display().to_string(),
            message: e.to_string(),
        })?;
        let mut tasks = Vec::new();
        let mut warnings = Vec::new();
        let mut without_verdict = 0;
        let dir_name = std::fs::canonicalize(dir)
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| ".".to_string());
        for file in files {
            let definition = match TaskDefinition::load(&file) {
                Ok(d) => d,
                Err(e) => {
                    warnings.push(e.to_string());
                    continue;
                }
            };
            let verdict = definition.termination().and_then(|p| p.expected_verdict);
            let Some(holds) = verdict else {
                without_verdict += 1;
                continue;
            };
            let relative = file.strip_prefix(dir).unwrap_or(&file);
            // Tasks right in `dir` are named after it (`loops`, not `.`).
            let category = match relative.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.display().to_string(),
                _ => dir_name.clone(),
            };
            tasks.push(Task {
                relative_path: relative.display().to_string(),
                file,
                expected: if holds {
                    Verdict::Holds
                } else {
                    Verdict::Fails
                },
                category: Some(category),
                data_model: None,
            });
        }
        if tasks.is_empty() {
            return Err(TesseraError::Io {
                path: dir.display().to_string(),
                message: format!(
                    "no task definition (.yml) with a termination verdict below this folder ({} without one, {} unreadable)",
                    without_verdict,
                    warnings.len()
                ),
            });
        }
        let mut notes = warnings
            .into_iter()
            .map(|w| format!("skipping {w}"))
            .collect::<Vec<_>>();
        if without_verdict > 0 {
            notes.push(format!(
                "skipping {without_verdict} task definition(s) without a termination verdict"
            ));
        }
        Ok(VerdictIndex {
            path: dir.to_path_buf(),
            mode: Mode::Termination,
            tasks,
            has_categories: true,
            notes,
        })
    }

    /// Keeps the tasks whose path contains `needle`.
    pub fn retain_path_containing(&mut self, needle: &str) {
        self.tasks.retain(|t| t.relative_path.contains(needle));
    }

    /// Keeps the tasks that use integers only, as told by the `int_only`
    /// column of the index itself or of `details.tsv` next to it.
    /// Returns an error when neither has that column: silently running the
    /// whole index would give figures that look int-only but are not.
    pub fn retain_int_only(&mut self) -> Result<()> {
        if self.path.is_dir() {
            return Err(TesseraError::Io {
                path: self.path.display().to_string(),
                message: "--int-only needs a verdict index with an `int_only` column, not a folder"
                    .into(),
            });
        }
        let flags = self.int_only_flags()?;
        self.tasks
            .retain(|t| flags.get(&t.relative_path).copied().unwrap_or(false));
        Ok(())
    }

    fn int_only_flags(&self) -> Result<HashMap<String, bool>> {
        let own = read_text(&self.path)?;
        let own_table = Table::parse(&own, &self.path)?;
        let (table, origin) = if own_table.column("int_only").is_some() {
            (own_table, self.path.clone())
        } else {
            let details = self
                .path
                .parent()
                .map(|p| p.join("details.tsv"))
                .unwrap_or_else(|| PathBuf::from("details.tsv"));
            if !details.is_file() {
                return Err(TesseraError::Io {
                    path: details.display().to_string(),
                    message: "--int-only needs an `int_only` column in the index or in this file"
                        .into(),
                });
            }
            (Table::parse(&read_text(&details)?, &details)?, details)
        };
        let path_col = table.require("relative_path", &origin)?;
        let flag_col = table.require("int_only", &origin)?;
        let mut flags = HashMap::new();
        for (line, cells) in &table.rows {
            let p = table.cell(cells, path_col, *line, &origin)?;
            let f = table.cell(cells, flag_col, *line, &origin)?;
            flags.insert(p.to_string(), f == "1" || f.eq_ignore_ascii_case("true"));
        }
        Ok(flags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch folder with two empty programs, removed when dropped.
    struct Scratch(PathBuf);

    impl std::ops::Deref for Scratch {
        type Target = PathBuf;
        fn deref(&self) -> &PathBuf {
            &self.0
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn scratch(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("tessera-index-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/a.c"), "").unwrap();
        std::fs::write(dir.join("sub/b.c"), "").unwrap();
        Scratch(dir)
    }

    #[test]
    fn reads_columns_by_name_and_resolves_paths() {
        let dir = scratch("columns");
        let index = dir.join("verdicts.tsv");
        let text = "category\texpected\trelative_path\textra\nx\tterminating\tsub/a.c\tz\ny\tnonterminating\tsub/b.c\tz\n";
        let idx = VerdictIndex::parse(text, &index).unwrap();
        assert_eq!(idx.mode, Mode::Termination);
        assert_eq!(idx.tasks.len(), 2);
        assert_eq!(idx.tasks[1].expected, Verdict::Fails);
        assert_eq!(idx.tasks[1].category.as_deref(), Some("y"));
        assert_eq!(idx.tasks[0].file, dir.join("sub/a.c"));
    }

    #[test]
    fn reads_the_data_model_column() {
        let dir = scratch("datamodel");
        let index = dir.join("verdicts.tsv");
        let text = "relative_path\texpected\tdata_model\nsub/a.c\tterminating\tILP32\nsub/b.c\tterminating\tLP64\n";
        let idx = VerdictIndex::parse(text, &index).unwrap();
        let models: Vec<_> = idx.tasks.iter().map(|t| t.data_model).collect();
        assert_eq!(models, vec![Some(DataModel::Ilp32), Some(DataModel::Lp64)]);
        let bad = "relative_path\texpected\tdata_model\nsub/a.c\tterminating\tLP128\n";
        assert!(VerdictIndex::parse(bad, &index).is_err());
    }

    #[test]
    fn a_task_folder_is_an_index_of_its_termination_tasks() {
        let dir = scratch("folder");
        std::fs::create_dir_all(dir.join("properties")).unwrap();
        std::fs::write(
            dir.join("properties/termination.prp"),
            "CHECK( init(main()), LTL(F end) )\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("properties/other.prp"),
            "CHECK( init(main()), LTL(G valid-free) )\n",
        )
        .unwrap();
        let task = |name: &str, property: &str, verdict: &str| {
            let text = format!(
                "format_version: '2.0'\ninput_files: a.c\nproperties:\n  - property_file: ../properties/{property}\n{verdict}"
            );
            std::fs::write(dir.join("sub").join(name), text).unwrap();
        };
        task("t.yml", "termination.prp", "    expected_verdict: false\n");
        task("other.yml", "other.prp", "    expected_verdict: true\n");
        task("open.yml", "termination.prp", "");
        std::fs::write(dir.join("sub/broken.yml"), "input_files: [").unwrap();
        let idx = VerdictIndex::from_task_folder(&dir).unwrap();
        assert_eq!(idx.mode, Mode::Termination);
        assert_eq!(idx.tasks.len(), 1);
        assert_eq!(idx.tasks[0].relative_path, "sub/t.yml");
        assert_eq!(idx.tasks[0].category.as_deref(), Some("sub"));
        let sub = VerdictIndex::from_task_folder(&dir.join("sub")).unwrap();
        assert_eq!(sub.tasks[0].relative_path, "t.yml");
        assert_eq!(
            sub.tasks[0].category.as_deref(),
            Some("sub"),
            "named after the folder"
        );
        assert_eq!(idx.tasks[0].expected, Verdict::Fails);
        assert_eq!(idx.notes.len(), 2, "{:?}", idx.notes);
        assert!(
            idx.notes[0].contains("broken.yml: error:"),
            "{:?}",
            idx.notes
        );
        assert!(
            idx.clone().retain_int_only().is_err(),
            "--int-only needs an index"
        );
        let empty = scratch("empty");
        assert!(VerdictIndex::from_task_folder(&empty).is_err());
    }

    #[test]
    fn rejects_mixed_modes_unknown_verdicts_and_missing_files() {
        let dir = scratch("errors");
        let index = dir.join("verdicts.tsv");
        let mixed = "relative_path\texpected\nsub/a.c\tterminating\nsub/b.c\tsat\n";
        assert!(VerdictIndex::parse(mixed, &index).is_err());
        let unknown = "relative_path\texpected\nsub/a.c\tmaybe\n";
        assert!(VerdictIndex::parse(unknown, &index).is_err());
        let missing = "relative_path\texpected\nsub/nope.c\tterminating\n";
        assert!(matches!(
            VerdictIndex::parse(missing, &index),
            Err(TesseraError::Io { .. })
        ));
        let no_column = "path\texpected\nsub/a.c\tterminating\n";
        assert!(VerdictIndex::parse(no_column, &index).is_err());
        let short_row = "relative_path\texpected\nsub/a.c\n";
        assert!(VerdictIndex::parse(short_row, &index).is_err());
    }

    #[test]
    fn int_only_reads_the_adjacent_details_file() {
        let dir = scratch("intonly");
        let index = dir.join("verdicts.tsv");
        std::fs::write(
            &index,
            "relative_path\texpected\nsub/a.c\tterminating\nsub/b.c\tterminating\n",
        )
        .unwrap();
        let mut idx = VerdictIndex::load(&index).unwrap();
        assert!(
            idx.clone().retain_int_only().is_err(),
            "no int_only column anywhere"
        );
        std::fs::write(
            dir.join("details.tsv"),
            "relative_path\tint_only\nsub/a.c\t0\nsub/b.c\t1\n",
        )
        .unwrap();
        idx.retain_int_only().unwrap();
        assert_eq!(idx.tasks.len(), 1);
        assert_eq!(idx.tasks[0].relative_path, "sub/b.c");
    }
}
