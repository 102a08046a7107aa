//! C as people write it (issue 31): what calls of external code may change,
//! builtins that do not evaluate their operands, printf formats. Each
//! program states its verdict on its first line (checked by running the
//! gcc-compiled program); these tests pin the answers that must be given,
//! not only the ones that must not (tests/soundness.rs).

use std::path::{Path, PathBuf};
use std::process::Command;

fn file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(rel)
}

fn answer(rel: &str, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["prove", "--format", "json", "--timeout", "10"])
        .args(extra)
        .arg(file(rel))
        .output()
        .expect("tessera runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{rel}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    json["answer"].as_str().unwrap_or("?").to_string()
}

#[test]
fn external_code_may_change_globals_unless_told_otherwise() {
    // touch() could be `g = 5;`: no YES by default.
    assert_ne!(answer("regress/external_writes_global.c", &[]), "YES");
    // Under SV-COMP's convention it changes only what its pointer arguments reach.
    assert_eq!(answer("regress/external_writes_global.c", &["--external-calls", "arguments"]), "YES");
}

#[test]
fn external_code_cannot_name_a_static_global() {
    assert_eq!(answer("regress/external_static_unreachable.c", &[]), "YES");
}

#[test]
fn escaped_addresses_reach_external_code() {
    for f in ["regress/external_gets_address_as_integer.c", "regress/external_reaches_global_pointer.c", "regress/external_reaches_static_through_exported.c"] {
        assert_ne!(answer(f, &[]), "YES", "{f}");
    }
}

#[test]
fn builtins_evaluate_only_the_operands_gcc_evaluates() {
    assert_eq!(answer("regress/builtin_choose_expr_unchosen.c", &[]), "YES");
    assert_eq!(answer("regress/builtin_constant_p_unevaluated.c", &[]), "NO");
    assert_eq!(answer("regress/builtin_classify_type_unevaluated.c", &[]), "NO");
}

#[test]
fn printf_formats_without_n_write_nothing() {
    assert_eq!(answer("user/printf_harmless_formats.c", &[]), "YES");
    assert_ne!(answer("regress/printf_n_split_literal.c", &[]), "YES");
}

#[test]
fn variadic_arguments_let_addresses_out() {
    assert_ne!(answer("regress/variadic_pointer_written.c", &[]), "YES");
}

#[test]
fn warnings_quote_the_expression_without_line_markers() {
    // `va_arg` is a macro of a system header: expanded, it spans lines with
    // the preprocessor's markers (`# 8 "file.c" 3 4`) between its tokens.
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["prove", "--format", "json", "--timeout", "10"])
        .arg(file("user/varargs_sum_warning.c"))
        .output()
        .expect("tessera runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
    assert_eq!(json["answer"], "YES");
    let quoted: Vec<&str> = json["warnings"].as_array().expect("warnings").iter().filter_map(|w| w["expression"].as_str()).collect();
    assert!(quoted.iter().any(|e| e.starts_with("s += __builtin_va_arg(")), "{quoted:?}");
    assert!(quoted.iter().all(|e| !e.contains('#')), "{quoted:?}");
}
