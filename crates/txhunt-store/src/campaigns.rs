//! Campaigns: started, joined by other processes (the same name), resumed after a kill, and
//! ended; their counters.
//!
//! A campaign's `config` is the JSON of the settings that make its cases (targets, levels,
//! generator sizes, oracles, guidance): a process joins or resumes a campaign only with the
//! same config, so every case of a campaign is the case its seed and index say. A campaign
//! ends when a process finishes its budget and no other process holds a live lease on it; a
//! campaign whose processes were killed or interrupted stays open, and `--resume` continues
//! it.

use crate::conn::{Conn, Value};
use crate::time::{now_ms, now_text};
use crate::{Store, StoreError};

/// A campaign about to start.
#[derive(Debug, Clone)]
pub struct NewCampaign {
    /// Its name, to join it from other processes; `None`: named by its id.
    pub name: Option<String>,
    /// The campaign's seed.
    pub seed: u64,
    /// Its targets as `--target` names them, comma-separated.
    pub targets: String,
    /// Their DBMS versions, comma-separated.
    pub versions: String,
    /// The settings that make its cases, as JSON.
    pub config: String,
    /// The command line that started it.
    pub command: String,
    /// How many cases it runs, when it has a case budget (`--cases`).
    pub case_limit: Option<u64>,
}

/// A campaign as the store has it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CampaignInfo {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Its seed.
    pub seed: u64,
    /// Its targets.
    pub targets: String,
    /// Their versions.
    pub versions: String,
    /// The settings that make its cases (JSON).
    pub config: String,
    /// The command line that started it.
    pub command: String,
    /// When it started (RFC 3339, UTC).
    pub started_at: String,
    /// When it ended, if it did.
    pub ended_at: Option<String>,
    /// Its case budget, if it has one.
    pub case_limit: Option<u64>,
    /// Cases finished.
    pub cases: u64,
    /// Transactions run.
    pub transactions: u64,
    /// Statements run.
    pub statements: u64,
    /// Bug candidates found.
    pub candidates: u64,
    /// Permissible findings made.
    pub permissible: u64,
    /// The summary (JSON) of the process that ended it.
    pub summary: Option<String>,
}

/// The columns [`CampaignInfo::from_row`] reads, in order.
const COLUMNS: &str = "id, name, seed, targets, versions, config, command, started_at, ended_at, \
     case_limit, cases, transactions, statements, candidates, permissible, summary";

impl CampaignInfo {
    fn from_row(row: &[Value]) -> CampaignInfo {
        CampaignInfo {
            id: row[0].int(),
            name: row[1].text(),
            seed: row[2].int() as u64,
            targets: row[3].text(),
            versions: row[4].text(),
            config: row[5].text(),
            command: row[6].text(),
            started_at: row[7].text(),
            ended_at: row[8].opt_text(),
            case_limit: row[9].opt_int().map(|n| n as u64),
            cases: row[10].int() as u64,
            transactions: row[11].int() as u64,
            statements: row[12].int() as u64,
            candidates: row[13].int() as u64,
            permissible: row[14].int() as u64,
            summary: row[15].opt_text(),
        }
    }
}

/// Counters one finished case adds to its campaign.
#[derive(Debug, Clone, Copy, Default)]
pub struct CaseCounts {
    /// Transactions run.
    pub transactions: u64,
    /// Statements run.
    pub statements: u64,
    /// Bug candidates found.
    pub candidates: u64,
    /// Permissible findings made.
    pub permissible: u64,
}

impl Store {
    /// Starts `new` (seeds are stored as their 64 bits in a signed `BIGINT`).
    pub fn start_campaign(&self, new: &NewCampaign) -> Result<CampaignInfo, StoreError> {
        self.write(|c| {
            insert(c, new)?.ok_or_else(|| StoreError::Refused("campaign name taken".into()))
        })
    }

    /// The campaign named `name`, joined with `new`'s settings, or started as `new` when the
    /// store has none of that name. A campaign of that name with other settings (`config`)
    /// or targets is refused, saying what differs; its seed is the campaign's, not `new`'s.
    pub fn join_campaign(&self, name: &str, new: &NewCampaign) -> Result<CampaignInfo, StoreError> {
        let named = NewCampaign {
            name: Some(name.to_string()),
            ..new.clone()
        };
        self.write(|c| {
            // Two processes starting together both try to insert: the second's insert waits
            // for the first's commit and does nothing, then it reads the first's campaign.
            let existing = match by_name(c, name)? {
                Some(existing) => existing,
                None => match insert(c, &named)? {
                    Some(started) => return Ok(started),
                    None => by_name(c, name)?.ok_or_else(|| {
                        StoreError::Refused(format!("campaign {name} vanished while joined"))
                    })?,
                },
            };
            same_settings(&existing, new)?;
            Ok(existing)
        })
    }

    /// The newest campaign that has not ended and was made with `config` and `targets`, to
    /// resume.
    pub fn resumable(
        &self,
        config: &str,
        targets: &str,
    ) -> Result<Option<CampaignInfo>, StoreError> {
        let rows = self.read(
            &format!(
                "SELECT {COLUMNS} FROM campaigns WHERE ended_at IS NULL AND config = $1 \
                 AND targets = $2 ORDER BY id DESC LIMIT 1"
            ),
            &[config.into(), targets.into()],
        )?;
        Ok(rows.first().map(|r| CampaignInfo::from_row(r)))
    }

    /// Every campaign, oldest first.
    pub fn campaigns(&self) -> Result<Vec<CampaignInfo>, StoreError> {
        let rows = self.read(&format!("SELECT {COLUMNS} FROM campaigns ORDER BY id"), &[])?;
        Ok(rows.iter().map(|r| CampaignInfo::from_row(r)).collect())
    }

    /// The campaign `id`.
    pub fn campaign(&self, id: i64) -> Result<CampaignInfo, StoreError> {
        let rows = self.read(
            &format!("SELECT {COLUMNS} FROM campaigns WHERE id = $1"),
            &[id.into()],
        )?;
        rows.first()
            .map(|r| CampaignInfo::from_row(r))
            .ok_or_else(|| StoreError::Refused(format!("no campaign {id} in the store")))
    }

    /// Ends `owner`'s part of campaign `id`: its leases are released, and unless it was
    /// `interrupted`, the campaign ends (with `summary`) when nothing of it is left to run:
    /// no other process holds a live lease (one heartbeating within `stale_after`) and, with
    /// a case budget, every case has run. Returns whether the campaign ended.
    pub fn end_run(
        &self,
        id: i64,
        owner: &str,
        (summary, interrupted): (&str, bool),
        stale_after: std::time::Duration,
    ) -> Result<bool, StoreError> {
        self.write(|c| {
            c.exec(
                "UPDATE ranges SET owner = NULL WHERE campaign = $1 AND owner = $2",
                &[id.into(), owner.into()],
            )?;
            if interrupted {
                return Ok(false);
            }
            let live = c.rows(
                "SELECT COUNT(*) FROM ranges WHERE campaign = $1 AND owner IS NOT NULL \
                 AND heartbeat >= $2 AND next_index < end_index",
                &[
                    id.into(),
                    (now_ms() - stale_after.as_millis() as i64).into(),
                ],
            )?;
            let unfinished = c.rows(
                "SELECT COUNT(*) FROM ranges WHERE campaign = $1 AND next_index < end_index",
                &[id.into()],
            )?;
            let limits = c.rows(
                "SELECT case_limit, next_range FROM campaigns WHERE id = $1",
                &[id.into()],
            )?;
            let all_leased = limits
                .first()
                .is_none_or(|r| r[0].opt_int().is_none_or(|limit| r[1].int() >= limit));
            let with_limit = limits.first().is_some_and(|r| r[0].opt_int().is_some());
            let done = live[0][0].int() == 0
                && (!with_limit || (all_leased && unfinished[0][0].int() == 0));
            if done {
                c.exec(
                    "UPDATE campaigns SET ended_at = $1, summary = $2 WHERE id = $3",
                    &[now_text().into(), summary.into(), id.into()],
                )?;
            }
            Ok(done)
        })
    }
}

/// The campaign named `name`, if any.
fn by_name(c: &mut Conn, name: &str) -> Result<Option<CampaignInfo>, StoreError> {
    let found = c.rows(
        &format!("SELECT {COLUMNS} FROM campaigns WHERE name = $1"),
        &[name.into()],
    )?;
    Ok(found.first().map(|r| CampaignInfo::from_row(r)))
}

/// Inserts `new` (named by its id when it has no name); `None` when a campaign of its name
/// is there already.
fn insert(c: &mut Conn, new: &NewCampaign) -> Result<Option<CampaignInfo>, StoreError> {
    let placeholder = format!("new-{}-{}", std::process::id(), now_ms());
    let rows = c.rows(
        "INSERT INTO campaigns (name, seed, targets, versions, config, command, started_at, \
         case_limit) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (name) DO NOTHING \
         RETURNING id",
        &[
            new.name.clone().unwrap_or(placeholder).into(),
            (new.seed as i64).into(),
            new.targets.as_str().into(),
            new.versions.as_str().into(),
            new.config.as_str().into(),
            new.command.as_str().into(),
            now_text().into(),
            Value::Int(new.case_limit.map(|n| n as i64)),
        ],
    )?;
    let Some(row) = rows.first() else {
        return Ok(None);
    };
    let id = row[0].int();
    if new.name.is_none() {
        c.exec(
            "UPDATE campaigns SET name = $1 WHERE id = $2",
            &[id.to_string().into(), id.into()],
        )?;
    }
    let rows = c.rows(
        &format!("SELECT {COLUMNS} FROM campaigns WHERE id = $1"),
        &[id.into()],
    )?;
    Ok(rows.first().map(|r| CampaignInfo::from_row(r)))
}

/// Refuses to join `existing` with `new`'s settings when they differ.
fn same_settings(existing: &CampaignInfo, new: &NewCampaign) -> Result<(), StoreError> {
    let differs = |what: &str, theirs: &str, ours: &str| {
        StoreError::Refused(format!(
            "campaign `{}` was started with other {what}: {theirs} (this run: {ours})",
            existing.name
        ))
    };
    if existing.targets != new.targets {
        return Err(differs("targets", &existing.targets, &new.targets));
    }
    if existing.config != new.config {
        return Err(differs("settings", &existing.config, &new.config));
    }
    if existing.case_limit != new.case_limit {
        let show = |l: Option<u64>| l.map_or("no case budget".into(), |n| format!("--cases {n}"));
        return Err(differs(
            "case budget",
            &show(existing.case_limit),
            &show(new.case_limit),
        ));
    }
    Ok(())
}
