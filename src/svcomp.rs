//! SV-COMP task definitions (format 2.0 `.yml` files) and property files.
//!
//! A task definition names its input files (relative to the `.yml`), its
//! properties (a property file each, optionally the expected verdict and a
//! subproperty) and options (`language`, `data_model`). Tessera checks only
//! the termination property, `CHECK( init(main()), LTL(F end) )`.
//!
//! The expected verdict is read for `tessera bench` (scoring) and is never
//! used to decide an answer.

use std::fmt;
use std::path::{Path, PathBuf};
use yaml_rust2::{Yaml, YamlLoader};

/// The termination property of SV-COMP with all whitespace removed.
const TERMINATION_PROPERTY: &str = "CHECK(init(main()),LTL(Fend))";

pub use crate::ir::DataModel;

/// A task definition or property file that cannot be used, with the exit
/// code of `tessera prove` for it (README, "Exit codes"). Printed as
/// `file: error: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskError {
    pub file: String,
    pub message: String,
    pub exit_code: i32,
}

impl TaskError {
    fn new(file: &Path, exit_code: i32, message: impl Into<String>) -> Self {
        TaskError {
            file: file.display().to_string(),
            message: message.into(),
            exit_code,
        }
    }
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: error: {}", self.file, self.message)
    }
}

impl std::error::Error for TaskError {}

/// Exit code for a wrong property or a task without termination (bad use).
const USAGE: i32 = 2;
/// Exit code for a malformed task definition.
const SYNTAX: i32 = 3;
/// Exit code for a task Tessera cannot handle (several files, not C).
const UNSUPPORTED: i32 = 4;
/// Exit code for a file that cannot be read.
const IO: i32 = 5;

/// One entry of `properties`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyEntry {
    /// The property file, resolved relative to the task definition.
    pub property_file: PathBuf,
    pub expected_verdict: Option<bool>,
    pub subproperty: Option<String>,
}

impl PropertyEntry {
    /// Whether this entry asks for termination: the property file holds
    /// SV-COMP's termination property, or (when it cannot be read) is named
    /// `termination.prp`.
    pub fn is_termination(&self) -> bool {
        match std::fs::read_to_string(&self.property_file) {
            Ok(text) => is_termination_property(&text),
            Err(_) => self.property_file.file_name() == Some("termination.prp".as_ref()),
        }
    }
}

/// A parsed task definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskDefinition {
    pub path: PathBuf,
    /// Resolved relative to the task definition's folder.
    pub input_files: Vec<PathBuf>,
    pub properties: Vec<PropertyEntry>,
    pub language: Option<String>,
    pub data_model: Option<DataModel>,
}

/// Whether `path` names a task definition (`.yml` / `.yaml`).
pub fn is_task_definition(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yml") | Some("yaml")
    )
}

/// Whether property-file text is SV-COMP's termination property
/// (whitespace-insensitive; `//` comment lines are ignored).
pub fn is_termination_property(text: &str) -> bool {
    let squeezed: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .flat_map(|l| l.chars())
        .filter(|c| !c.is_whitespace())
        .collect();
    squeezed == TERMINATION_PROPERTY
}

/// Checks that `path` is a readable termination property file.
pub fn check_property_file(path: &Path) -> Result<(), TaskError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| TaskError::new(path, IO, format!("cannot read the property file: {e}")))?;
    if is_termination_property(&text) {
        Ok(())
    } else {
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        Err(TaskError::new(
            path,
            USAGE,
            format!(
                "unsupported property `{}`: Tessera checks only termination, CHECK( init(main()), LTL(F end) )",
                first.trim()
            ),
        ))
    }
}

fn string_list(value: &Yaml) -> Option<Vec<String>> {
    match value {
        Yaml::String(s) => Some(vec![s.clone()]),
        Yaml::Array(items) => items.iter().map(|i| i.as_str().map(String::from)).collect(),
        _ => None,
    }
}

/// A scalar as text (YAML may read `2.0` as a number).
fn scalar_text(value: &Yaml) -> Option<String> {
    match value {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        _ => None,
    }
}

impl TaskDefinition {
    /// Reads and parses a task definition.
    pub fn load(path: &Path) -> Result<TaskDefinition, TaskError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            TaskError::new(path, IO, format!("cannot read the task definition: {e}"))
        })?;
        TaskDefinition::parse(&text, path)
    }

    /// Parses task-definition text read from `path` (which resolves the
    /// relative file names).
    pub fn parse(text: &str, path: &Path) -> Result<TaskDefinition, TaskError> {
        let syntax = |message: String| TaskError::new(path, SYNTAX, message);
        let docs = YamlLoader::load_from_str(text).map_err(|e| {
            syntax(format!(
                "malformed YAML at line {} column {}: {}",
                e.marker().line(),
                e.marker().col() + 1,
                e.info()
            ))
        })?;
        let doc = match docs.as_slice() {
            [doc @ Yaml::Hash(_)] => doc,
            _ => {
                return Err(syntax(
                    "not a task definition (expected one YAML mapping)".into(),
                ))
            }
        };
        let version = &doc["format_version"];
        if !version.is_badvalue() {
            match scalar_text(version) {
                Some(v) if v == "2" || v.starts_with("2.") => {}
                _ => {
                    return Err(syntax(format!(
                        "format_version {version:?} is not supported (2.0 expected)"
                    )))
                }
            }
        }
        let folder = path.parent().unwrap_or(Path::new(""));
        let input_files = string_list(&doc["input_files"])
            .filter(|files| !files.is_empty())
            .ok_or_else(|| syntax("`input_files` must be a file name or a list of them".into()))?
            .iter()
            .map(|f| folder.join(f))
            .collect();
        let entries = doc["properties"]
            .as_vec()
            .ok_or_else(|| syntax("`properties` must be a list".into()))?;
        let mut properties = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            let at = |what: &str| syntax(format!("properties[{i}]: {what}"));
            let file = entry["property_file"]
                .as_str()
                .ok_or_else(|| at("`property_file` is missing"))?;
            let expected_verdict = match &entry["expected_verdict"] {
                Yaml::BadValue | Yaml::Null => None,
                Yaml::Boolean(b) => Some(*b),
                _ => return Err(at("`expected_verdict` must be true or false")),
            };
            properties.push(PropertyEntry {
                property_file: folder.join(file),
                expected_verdict,
                subproperty: scalar_text(&entry["subproperty"]),
            });
        }
        let options = &doc["options"];
        let language = scalar_text(&options["language"]);
        let data_model =
            match scalar_text(&options["data_model"]) {
                None => None,
                Some(word) => Some(DataModel::parse(&word).ok_or_else(|| {
                    syntax(format!("data_model `{word}` is neither ILP32 nor LP64"))
                })?),
            };
        Ok(TaskDefinition {
            path: path.to_path_buf(),
            input_files,
            properties,
            language,
            data_model,
        })
    }

    /// The termination entry of the task, if it has one.
    pub fn termination(&self) -> Option<&PropertyEntry> {
        self.properties.iter().find(|p| p.is_termination())
    }

    /// The C file to prove: the task must ask for termination, be in C and
    /// have exactly one input file, which must exist.
    pub fn termination_input(&self) -> Result<&Path, TaskError> {
        if self.termination().is_none() {
            return Err(TaskError::new(
                &self.path,
                USAGE,
                "the task has no termination property (termination.prp); Tessera checks only termination",
            ));
        }
        if let Some(language) = &self.language {
            if !language.eq_ignore_ascii_case("C") {
                return Err(TaskError::new(
                    &self.path,
                    UNSUPPORTED,
                    format!("language {language} (Tessera reads C)"),
                ));
            }
        }
        let [file] = self.input_files.as_slice() else {
            return Err(TaskError::new(
                &self.path,
                UNSUPPORTED,
                format!(
                    "{} input files (Tessera proves one C file)",
                    self.input_files.len()
                ),
            ));
        };
        if !file.is_file() {
            return Err(TaskError::new(
                &self.path,
                IO,
                format!("input file {} is not a readable file", file.display()),
            ));
        }
        Ok(file)
    }
}

/// Every task definition below `dir` (sorted by path; hidden folders skipped).
pub fn find_task_definitions(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            let hidden = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.'));
            if hidden {
                continue;
            }
            if path.is_dir() {
                pending.push(path);
            } else if is_task_definition(&path) {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASK: &str = "format_version: '2.0'\n\
        # a comment\n\
        input_files: 'loop.i'\n\
        properties:\n\
        \x20 - property_file: ../properties/unreach-call.prp\n\
        \x20   expected_verdict: true\n\
        \x20 - property_file: ../properties/termination.prp\n\
        \x20   expected_verdict: false\n\
        \x20 - property_file: ../properties/coverage-branches.prp\n\
        options:\n\
        \x20 language: C\n\
        \x20 data_model: ILP32\n";

    #[test]
    fn parses_an_sv_comp_task_definition() {
        let t = TaskDefinition::parse(TASK, Path::new("/b/loops/loop.yml")).unwrap();
        assert_eq!(t.input_files, vec![PathBuf::from("/b/loops/loop.i")]);
        assert_eq!(t.properties.len(), 3);
        assert_eq!(
            t.properties[1].property_file,
            PathBuf::from("/b/loops/../properties/termination.prp")
        );
        assert_eq!(t.properties[1].expected_verdict, Some(false));
        assert_eq!(t.properties[2].expected_verdict, None);
        assert_eq!(t.language.as_deref(), Some("C"));
        assert_eq!(t.data_model, Some(DataModel::Ilp32));
        // The property files do not exist here: the name decides.
        assert_eq!(t.termination(), Some(&t.properties[1]));
    }

    #[test]
    fn input_files_may_be_a_list_and_options_may_be_missing() {
        let text = "format_version: 2.0\ninput_files: [a.c, b.c]\nproperties: []\n";
        let t = TaskDefinition::parse(text, Path::new("t.yml")).unwrap();
        assert_eq!(t.input_files.len(), 2);
        assert_eq!(t.data_model, None);
        assert!(t.termination().is_none());
        let e = t.termination_input().unwrap_err();
        assert_eq!(e.exit_code, 2);
        assert!(e.to_string().starts_with("t.yml: error: "), "{e}");
    }

    #[test]
    fn malformed_definitions_are_syntax_errors_not_panics() {
        for text in [
            "",
            "input_files: [unclosed",
            "- a list\n- not a mapping\n",
            "input_files: 3\nproperties: []\n",
            "input_files: a.c\n",
            "input_files: a.c\nproperties:\n  - expected_verdict: true\n",
            "input_files: a.c\nproperties:\n  - property_file: p.prp\n    expected_verdict: maybe\n",
            "input_files: a.c\nproperties: []\noptions:\n  data_model: LP128\n",
            "format_version: '1.0'\ninput_files: a.c\nproperties: []\n",
        ] {
            let e = TaskDefinition::parse(text, Path::new("bad.yml")).unwrap_err();
            assert_eq!(e.exit_code, 3, "{text:?}: {e}");
            assert!(e.to_string().starts_with("bad.yml: error: "), "{e}");
        }
    }

    #[test]
    fn recognises_the_termination_property_only() {
        assert!(is_termination_property(
            "CHECK( init(main()), LTL(F end) )\n"
        ));
        assert!(is_termination_property("CHECK(init(main()),LTL(F  end))"));
        assert!(is_termination_property(
            "// termination\nCHECK( init(main()),\n  LTL(F end) )"
        ));
        assert!(!is_termination_property(
            "CHECK( init(main()), LTL(G ! call(reach_error())) )"
        ));
        assert!(!is_termination_property(
            "CHECK( init(main()), LTL(F end) )\nCHECK( init(main()), LTL(G valid-free) )"
        ));
        assert!(!is_termination_property(""));
    }

    #[test]
    fn data_model_words() {
        assert_eq!(DataModel::parse("lp64"), Some(DataModel::Lp64));
        assert_eq!(DataModel::parse("ILP32"), Some(DataModel::Ilp32));
        assert_eq!(DataModel::parse("LLP64"), None);
        assert_eq!(DataModel::Ilp32.flag_value(), "ilp32");
    }
}
