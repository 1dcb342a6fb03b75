//! Saving findings: each as a scenario file (replayable with `txhunt run`, the observed
//! outcomes as notes, the statements the finding is about marked) and its JSON twin (case,
//! history, finding, seeds); an Adya phenomenon's cycle also as a picture (SVG).
//!
//! A saved scenario names the targets and oracles that produced its finding in its header
//! (`-- targets: sqlite, turso`, `-- oracles: explicit,wss`): `txhunt run FILE` uses them
//! when no `--target` / `--oracle` is given, so a finding replays as itself. Targets are named
//! by their DBMS and settings (`mariadb?innodb_snapshot_isolation=ON`,
//! [`txhunt_db::Target::replay_spec`]): a finding made on an existing server replays on a
//! private one txhunt starts, and never carries the server's address or password.

use crate::report::svg;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use txhunt_model::{scenario, History, TestCase};
use txhunt_oracle::{Detail, Finding, OracleId};

/// Everything known about one finding, as its JSON twin carries it.
#[derive(Debug, Serialize)]
pub struct Saved<'a> {
    /// The campaign's seed.
    pub campaign_seed: u64,
    /// The case's index in the campaign.
    pub index: u64,
    /// The case's own seed.
    pub case_seed: u64,
    /// The finding.
    pub finding: &'a Finding,
    /// The case as generated.
    pub case: &'a TestCase,
    /// What the target did.
    pub history: &'a History,
    /// For a differential finding: what the first target did, `history` being the other's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<&'a History>,
    /// The targets the finding is about, by DBMS name (the first is the baseline).
    pub targets: &'a [String],
    /// The oracles that judged the case.
    pub oracles: &'a [OracleId],
    /// The format to write the read/write history in beside the finding, if any.
    #[serde(skip)]
    pub history_format: Option<crate::export::HistoryFormat>,
}

/// A saved finding's JSON twin read back ([`Saved`] as it was written).
#[derive(Debug, Clone, Deserialize)]
pub struct SavedFinding {
    /// The campaign's seed.
    pub campaign_seed: u64,
    /// The case's index in the campaign.
    pub index: u64,
    /// The case's own seed.
    pub case_seed: u64,
    /// The finding.
    pub finding: Finding,
    /// The case as generated.
    pub case: TestCase,
    /// What the target did.
    pub history: History,
    /// For a differential finding: what the first target did.
    #[serde(default)]
    pub baseline: Option<History>,
    /// The targets the finding is about.
    pub targets: Vec<String>,
    /// The oracles that judged the case.
    pub oracles: Vec<OracleId>,
}

/// The findings store's file in a campaign's output folder (`txhunt-out/findings.db`), when
/// no other store is named.
pub const STORE_FILE: &str = "findings.db";

/// The header key naming the targets a scenario replays on by default.
pub const TARGETS_KEY: &str = "targets";
/// The header key naming the finding a saved scenario gives (`wss tx-wss:final-state`).
pub const FINDING_KEY: &str = "finding";
/// The header key naming the oracles a scenario is judged by by default.
pub const ORACLES_KEY: &str = "oracles";

/// The comma list a scenario's header gives under `key` (see [`TARGETS_KEY`],
/// [`ORACLES_KEY`]), if it has one.
pub fn header_list(case: &TestCase, key: &str) -> Option<Vec<String>> {
    let (_, value) = case.header.extra.iter().find(|(k, _)| k == key)?;
    Some(
        value
            .split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(String::from)
            .collect(),
    )
}

/// Writes `saved` under `dir` as `<index>-<case seed>-<oracle>-<signature>.sql` and `.json`
/// (and, for an Adya phenomenon, `.svg`: its cycle); returns what was written.
///
/// Nothing is overwritten: when a finding of that name is already there (a campaign run again
/// with the same seed into the same folder), the new one is `…-2`, `…-3`, and so on. Every
/// file is written whole or not at all (a temp file renamed), the scenario last, so a killed
/// run never leaves half a finding.
pub fn save(dir: &Path, saved: &Saved<'_>) -> std::io::Result<Written> {
    std::fs::create_dir_all(dir)?;
    let signature: String = saved
        .finding
        .signature
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let base = format!(
        "{:06}-{}-{}-{signature}",
        saved.index, saved.case_seed, saved.finding.oracle
    );
    let stem = free_stem(dir, &base)?;
    let json = serde_json::to_string_pretty(saved).map_err(std::io::Error::other)?;
    write_whole(&dir.join(format!("{stem}.json")), json.as_bytes())?;
    if let Some(format) = saved.history_format {
        crate::export::write(&dir.join(&stem), format, saved.case, saved.history)?;
    }
    for detail in &saved.finding.details {
        if let Detail::Cycle(observed) = detail {
            write_whole(
                &dir.join(format!("{stem}.svg")),
                svg::cycle(observed).as_bytes(),
            )?;
        }
    }
    let path = dir.join(format!("{stem}.sql"));
    let scenario = scenario::print(&annotated(saved));
    write_whole(&path, scenario.as_bytes())?;
    Ok(Written {
        path,
        scenario,
        json,
    })
}

/// A saved finding's files, as [`save`] wrote them.
#[derive(Debug, Clone)]
pub struct Written {
    /// The scenario's path.
    pub path: PathBuf,
    /// The scenario's text.
    pub scenario: String,
    /// The JSON twin's text.
    pub json: String,
}

/// `base`, or `base-2`, `base-3`, …: the first stem no file of `dir` has yet, claimed by
/// creating its scenario file (empty until [`save`] renames the whole one over it).
fn free_stem(dir: &Path, base: &str) -> std::io::Result<String> {
    for n in 1.. {
        let stem = match n {
            1 => base.to_string(),
            n => format!("{base}-{n}"),
        };
        let claim = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(dir.join(format!("{stem}.sql")));
        match claim {
            Ok(_) => return Ok(stem),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    unreachable!("some stem is free")
}

/// Writes `bytes` to `path` through a temp file beside it renamed over it: readers see the
/// old file or the whole new one.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("finding");
    let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&temp, bytes)?;
    std::fs::rename(&temp, path)
}

/// The case with a header naming the finding and each statement's observed outcome as a note.
fn annotated(saved: &Saved<'_>) -> TestCase {
    let mut case = saved.case.clone();
    case.header.id = Some(format!("fuzz-{}-{}", saved.campaign_seed, saved.index));
    case.header.title = Some(saved.finding.summary.replace('\n', " "));
    case.header.dbms = Some(saved.history.target.clone());
    case.header.extra.push((
        FINDING_KEY.into(),
        format!("{} {}", saved.finding.oracle, saved.finding.signature),
    ));
    case.header
        .extra
        .push((TARGETS_KEY.into(), saved.targets.join(", ")));
    let oracles: Vec<&str> = saved.oracles.iter().map(|o| o.name()).collect();
    case.header
        .extra
        .push((ORACLES_KEY.into(), oracles.join(",")));
    observe(&mut case, saved.history, &saved.finding.steps);
    case
}

/// Notes each step of `case` with what `history` (its run) observed, the steps `marked` as in
/// the finding.
pub(crate) fn observe(case: &mut TestCase, history: &History, marked: &[usize]) {
    for (i, (step, record)) in case.steps.iter_mut().zip(&history.steps).enumerate() {
        let blocked = if record.blocked { "blocked, then " } else { "" };
        let mark = if marked.contains(&i) {
            " ← in the finding"
        } else {
            ""
        };
        let observed = format!("observed: {blocked}{}{mark}", record.outcome).replace('\n', " ");
        step.stmt.note = Some(observed);
    }
}
