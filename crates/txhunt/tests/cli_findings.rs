//! `txhunt findings` on a store a real campaign filled: listed, shown, reported as Markdown,
//! and the campaign's HTML page rendered by a real headless browser (Debian's Chromium).

use std::path::Path;
use std::process::{Command, Output};

fn txhunt(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(args)
        .output()
        .expect("txhunt runs");
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "txhunt {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A campaign on Turso's MVCC mode, whose snapshot-isolation runs give permissible WSS
/// findings, reduced; its output folder.
fn campaign(dir: &Path) -> String {
    let out = dir.join("out").display().to_string();
    txhunt(&[
        "fuzz",
        "--target",
        "turso-mvcc",
        "--seed",
        "1",
        "--cases",
        "60",
        "--reduce-permissible",
        "--reduce-budget",
        "10s",
        "--out",
        &out,
    ]);
    out
}

#[test]
fn findings_are_listed_shown_and_reported_with_their_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let out = campaign(dir.path());
    let list = txhunt(&[
        "findings", "list", "--out", &out, "--all", "--format", "json",
    ]);
    let found: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let found = found.as_array().unwrap();
    assert!(!found.is_empty());
    let first = &found[0];
    assert_eq!(first["oracle"], "wss");
    assert!(first["verdict"]
        .as_str()
        .unwrap()
        .starts_with("permissible: "));
    // Bug candidates only, by default: this campaign made none.
    let candidates = txhunt(&["findings", "list", "--out", &out]);
    assert!(String::from_utf8_lossy(&candidates.stdout).starts_with("no findings in "));
    // Nothing is new since the campaign itself.
    let since = txhunt(&[
        "findings",
        "list",
        "--out",
        &out,
        "--all",
        "--since-campaign",
        "1",
    ]);
    assert!(String::from_utf8_lossy(&since.stdout).starts_with("no findings in "));

    let id = first["id"].to_string();
    let show = String::from_utf8(txhunt(&["findings", "show", &id, "--out", &out]).stdout).unwrap();
    assert!(show.contains("PERMISSIBLE (wss "), "{show}");
    assert!(show.contains("occurrences:\n  campaign 1 case "), "{show}");

    let reports = dir.path().join("reports");
    let report = txhunt(&[
        "findings",
        "report",
        &id,
        "--out",
        &out,
        "--dir",
        reports.to_str().unwrap(),
    ]);
    let md = String::from_utf8(report.stdout).unwrap();
    assert!(md.starts_with("# turso-mvcc 0.8.3: "), "{md}");
    assert!(md.contains("| Isolation level | snapshot |"), "{md}");
    assert!(md.contains("```sql\n-- id: fuzz-1-"), "{md}");
    assert!(md.contains(&format!(
        "![The observed schedule](finding-{id}-schedule.svg)"
    )));
    let svg = std::fs::read_to_string(reports.join(format!("finding-{id}-schedule.svg"))).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<rect"), "{svg}");
    assert_eq!(
        std::fs::read_to_string(reports.join(format!("finding-{id}.md"))).unwrap(),
        md
    );

    // Exports: the DBMS's own test formats, expecting what was observed.
    let slt = txhunt(&[
        "findings",
        "export",
        &id,
        "--out",
        &out,
        "--as",
        "sqllogictest",
    ]);
    let slt = String::from_utf8(slt.stdout).unwrap();
    assert!(slt.contains("\nconnection t"), "{slt}");
    // The minimized case is exported with the outcomes its own replay observed.
    assert!(first["reduced"].is_string(), "{first}");
    assert!(
        slt.contains("\n# outcomes observed on turso-mvcc at snapshot\n"),
        "{slt}"
    );
    let spec = txhunt(&[
        "findings",
        "export",
        &id,
        "--out",
        &out,
        "--as",
        "pg-isolation-spec",
    ]);
    let spec = String::from_utf8(spec.stdout).unwrap();
    assert!(
        spec.contains("\npermutation ") && spec.contains("\nsession t"),
        "{spec}"
    );

    let missing = Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(["findings", "show", "999", "--out", &out])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no finding 999 in the store"));
}

#[test]
fn the_campaign_page_renders_in_a_headless_browser_without_console_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = campaign(dir.path());
    let pages = dir.path().join("html");
    txhunt(&[
        "findings",
        "html",
        pages.to_str().unwrap(),
        "--out",
        &out,
        "--all",
    ]);
    let page = pages.join("campaign-1.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<h2>Per isolation level</h2>"), "{html}");
    assert!(html.contains("<section id=\"finding-"), "{html}");
    assert!(std::fs::read_to_string(pages.join("index.html"))
        .unwrap()
        .contains("href=\"campaign-1.html\""));

    let shot = dir.path().join("page.png");
    let browser = |extra: &[&str]| -> Output {
        Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--enable-logging=stderr",
                "--v=0",
                "--window-size=1200,1600",
            ])
            .args(extra)
            .arg(format!("file://{}", page.display()))
            .output()
            .expect("Chromium runs (scripts/test installs Debian's chromium)")
    };
    let rendered = browser(&[&format!("--screenshot={}", shot.display())]);
    assert!(rendered.status.success(), "{rendered:?}");
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    let dom = browser(&["--dump-dom"]);
    let stderr = String::from_utf8_lossy(&dom.stderr);
    assert!(!stderr.contains("CONSOLE"), "console messages: {stderr}");
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.contains("Observed schedule") && dom.contains("<svg"),
        "{dom}"
    );
}
