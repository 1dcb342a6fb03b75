//! `txhunt fuzz` as a person sees it in a terminal: run under a real pseudo-terminal
//! (util-linux's `script`), it draws its live progress line on stderr and ends with a summary
//! that reads right: plurals, thousands grouped, `rejected` explained, the output folder named.

use std::process::Command;

/// The nouns the progress line and the summary count.
const NOUNS: [&str; 7] = [
    "case",
    "run",
    "worker",
    "transaction",
    "statement",
    "finding",
    "failure",
];

/// What the terminal showed while `txhunt ARGS…` ran on it, 250 columns wide: its output as
/// lines, a line redrawn in place (`\r`) counting as a new line, colour and cursor codes
/// removed.
fn on_a_terminal(args: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_txhunt"))
        .chain(args.iter().copied())
        .map(|arg| format!("'{arg}'"))
        .collect();
    let command = format!("stty cols 250 rows 50 && exec {}", quoted.join(" "));
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("TERM", "xterm")
        .output()
        .expect("util-linux's `script` runs (Debian: bsdutils; scripts/test installs it)");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{shown}");
    without_escapes(&shown)
        .split(['\r', '\n'])
        .map(|line| line.trim_end().to_string())
        .filter(|line| !line.is_empty())
        .collect()
}

/// `text` without ANSI escape sequences (`ESC [ … letter`).
fn without_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            chars.by_ref().find(|c| c.is_ascii_alphabetic());
        } else {
            out.push(c);
        }
    }
    out
}

/// `line`'s counts of one thing written in the plural (`1 cases`, `(in 1 cases)`).
fn wrong_plurals(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    (words.windows(2))
        .filter(|pair| pair[0].trim_start_matches('(') == "1")
        .map(|pair| pair[1].trim_end_matches([',', ')', ';', ':']))
        .filter(|noun| NOUNS.iter().any(|n| *noun == format!("{n}s")))
        .map(|noun| format!("1 {noun}"))
        .collect()
}

/// Whether `line` writes a number of four digits or more without grouping them.
fn ungrouped_number(line: &str) -> bool {
    line.split(|c: char| !c.is_ascii_digit())
        .any(|digits| digits.len() >= 4)
}

/// Whether `line` holds a number with its thousands grouped (`1,240`).
fn grouped_number(line: &str) -> bool {
    let bytes = line.as_bytes();
    (1..bytes.len()).any(|k| {
        bytes[k] == b','
            && bytes[k - 1].is_ascii_digit()
            && bytes.len() > k + 3
            && bytes[k + 1..k + 4].iter().all(u8::is_ascii_digit)
    })
}

#[test]
fn fuzz_on_a_terminal_draws_its_progress_and_a_summary_that_reads_right() {
    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().display().to_string();
    let args = ["fuzz", "--target", "sqlite", "--cases", "80", "--seed", "7"];
    let lines = on_a_terminal(&[&args[..], &["--out", &out_dir]].concat());
    let all = lines.join("\n");

    // The progress line: drawn after each case, its rates held back until 5 cases have run.
    let progress: Vec<&String> = (lines.iter())
        .filter(|line| line.contains(" · bug candidates "))
        .collect();
    let first = progress
        .first()
        .unwrap_or_else(|| panic!("no progress line: {all}"));
    assert!(
        first.contains(" 1 case (rates after 5 cases or 2 s) · blocked "),
        "{first}"
    );
    assert!(
        first.ends_with(" · bug candidates 0 · permissible findings 0"),
        "{first}"
    );
    let with_rates = (progress.iter())
        .find(|line| line.contains(" txn/h) · "))
        .unwrap_or_else(|| panic!("no progress line with rates: {all}"));
    assert!(grouped_number(with_rates), "{with_rates}");
    assert!(
        with_rates.contains("% of txn statements · "),
        "{with_rates}"
    );

    // The summary, after the progress line.
    let start = (lines.iter())
        .position(|line| line.starts_with("fuzz on sqlite "))
        .unwrap_or_else(|| panic!("no summary: {all}"));
    // The folder's name is the test's, not txhunt's: its digits are not a count.
    let summary: Vec<String> = (lines[start..].iter())
        .map(|line| line.replace(&out_dir, "OUT"))
        .collect();
    let text = summary.join("\n");
    assert!(
        summary[0].starts_with("fuzz on sqlite (seed 7, 1 worker): 80 cases, "),
        "{text}"
    );
    assert!(grouped_number(&summary[0]), "{text}");
    for line in summary.iter().chain(progress.iter().copied()) {
        assert!(!ungrouped_number(line), "digits not grouped: {line}");
        assert!(
            wrong_plurals(line).is_empty(),
            "{:?}: {line}",
            wrong_plurals(line)
        );
    }
    assert!(
        text.contains("\nblocked ") && text.contains("% of the transactions' statements, "),
        "{text}"
    );
    let explained = (summary.iter())
        .filter(|line| line.starts_with("rejected: statements the DBMS refused to run ("))
        .count();
    assert_eq!(explained, 1, "{text}");
    // Setup statements in a table of their own, before the transactions' statements.
    let row = |name: &str| {
        (summary.iter())
            .position(|line| line.starts_with(name))
            .unwrap_or_else(|| panic!("no line `{name}…`: {text}"))
    };
    let (setup, transactions) = (row("setup statements "), row("transaction statements "));
    assert!(
        setup < row("create-table ") && row("create-table ") < transactions,
        "{text}"
    );
    assert!(transactions < row("begin "), "{text}");
    // Where findings go, though there are none.
    assert!(
        summary.contains(&"bug candidates: none (would be saved under OUT)".to_string()),
        "{text}"
    );
    assert!(
        summary.contains(
            &"permissible findings: none (would be saved under OUT/permissible)".to_string()
        ),
        "{text}"
    );
}

#[test]
fn the_checks_catch_what_they_look_for() {
    assert_eq!(
        wrong_plurals("fuzz (1 workers): 1 cases"),
        ["1 workers", "1 cases"]
    );
    assert_eq!(
        wrong_plurals("12 (in 1 cases), 1 run, 11 runs"),
        ["1 cases"]
    );
    assert!(ungrouped_number("1234567 transactions/hour"));
    assert!(!ungrouped_number(
        "1,234,567 transactions/hour, 12.5 cases/s"
    ));
    assert!(grouped_number("1,240 statements"));
    assert!(!grouped_number("1240 statements, 12.5"));
}
