//! The human output of `txhunt run` (a schedule, a bug candidate, a permissible finding, a
//! compatibility verdict) and of a `txhunt fuzz` summary, as snapshots: any change to what
//! people read is reviewed (`cargo insta review`, or `INSTA_UPDATE=always` then `git diff`).
//! Times, throughput and the embedded engines' versions are masked.

use std::process::Command;

/// Runs txhunt from the repository root (so file names in the output are relative) and
/// returns its exit code and its output (standard output, then standard error).
fn txhunt(args: &[&str]) -> (Option<i32>, String) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .current_dir(root)
        .args(args)
        .output()
        .expect("txhunt runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    (out.status.code(), format!("{stdout}{stderr}"))
}

/// `txhunt run ARGS…` must exit with `code`; its output, versions masked.
fn replayed(args: &[&str], code: i32) -> String {
    let (exit, stdout) = txhunt(&[&["run"], args].concat());
    assert_eq!(exit, Some(code), "{stdout}");
    mask_versions(&stdout)
}

#[test]
fn a_replayed_schedule() {
    insta::assert_snapshot!(replayed(
        &[
            "examples/01-writer-blocks-writer.sql",
            "examples/06-dirty-read.sql"
        ],
        0
    ));
}

#[test]
fn a_differential_bug_candidate() {
    let file = "tests/differential/turso-fk-checked-per-row-upsert.sql";
    let args = ["--target", "sqlite", "--target", "turso", file];
    insta::assert_snapshot!(replayed(&args, 1));
}

#[test]
fn a_permissible_write_skew() {
    let file = "tests/turso-mvcc/write-skew.sql";
    let args = ["--target", "turso-mvcc", "--oracle", "explicit,wss", file];
    insta::assert_snapshot!(replayed(&args, 0));
}

#[test]
fn a_compatibility_verdict() {
    // PostgreSQL 15 and 18 claim one semantics: only a difference their documentation names
    // (SSI's needless serialization failures) is compatibility.
    let other = std::env::var("TXHUNT_OTHER_POSTGRES_BIN").expect(
        "TXHUNT_OTHER_POSTGRES_BIN: run scripts/test, which fetches another PostgreSQL major version (scripts/fetch-postgres)",
    );
    let other = format!("postgres@{other}");
    let file = "tests/differential/postgres-ssi-needless-abort.sql";
    let pair = ["--target", "postgres", "--target", &other];
    let args = [&pair[..], &["--oracle", "explicit,wss", file]].concat();
    insta::assert_snapshot!(replayed(&args, 0));
}

#[test]
fn a_fuzz_summary() {
    let out = tempfile::tempdir().unwrap();
    let (code, stdout) = txhunt(&[
        "fuzz",
        "--cases",
        "40",
        "--seed",
        "7",
        "--out",
        &out.path().display().to_string(),
    ]);
    assert_eq!(code, Some(0), "{stdout}");
    let masked = mask_versions(&stdout)
        .replace(&out.path().display().to_string(), "OUT")
        .lines()
        .map(|line| {
            if line.starts_with("fuzz on ") {
                line.rsplit_once(" in ")
                    .map_or(line.to_string(), |(head, _)| format!("{head} in [time]"))
            } else if line.starts_with("throughput: ") {
                "throughput: [masked]".to_string()
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!(masked);
}

/// `stdout` with the embedded engines' versions replaced, so a version bump is no change.
fn mask_versions(stdout: &str) -> String {
    ["sqlite ", "turso ", "postgres "]
        .iter()
        .fold(stdout.to_string(), |text, engine| mask_after(&text, engine))
}

/// `text` with the version number that follows each `word` replaced by `[version]`.
fn mask_after(text: &str, word: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let (head, tail) = rest.split_at(at + word.len());
        out.push_str(head);
        let len = tail
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(tail.len());
        if len > 0 {
            out.push_str("[version]");
        }
        rest = &tail[len..];
    }
    out.push_str(rest);
    out
}
