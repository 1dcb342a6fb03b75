//! Leased case ranges: how the workers of one campaign (threads of one process, processes on
//! several machines) share its cases, run none twice and lose none.
//!
//! A worker leases a range of case indices, runs them in order, and records each finished
//! case ([`Store::finish_case`]: the range's next index moves on, the case is logged once,
//! the campaign's counters grow) in one transaction. Its process's heartbeat
//! ([`Store::heartbeat`], six times per lease timeout: [`heartbeat_every`]) keeps its
//! leases alive; a lease whose heartbeat is older than the timeout ([`DEFAULT_STALE_AFTER`]:
//! a killed, stopped or cut-off process), or whose owner is a dead process of this machine,
//! is taken over by the next worker that asks, from its next unfinished case. A worker that
//! finds no range to take and none to cut while others still hold some waits
//! ([`Leased::Wait`]) rather than ends: a holder that dies late still has its cases run.
//! On PostgreSQL a free range is taken with `SELECT … FOR UPDATE SKIP LOCKED`, and new
//! ranges are cut under the campaign row's lock; SQLite's `BEGIN IMMEDIATE` serializes
//! both.

use crate::campaigns::CaseCounts;
use crate::conn::{Conn, Value};
use crate::time::{now_ms, now_text};
use crate::{Store, StoreError};
use std::time::Duration;

/// A lease whose heartbeat is older than this is taken over, unless told otherwise
/// (`txhunt fuzz --lease-timeout`).
pub const DEFAULT_STALE_AFTER: Duration = Duration::from_secs(30);

/// How often a process whose leases go stale after `stale_after` calls [`Store::heartbeat`]:
/// six times per timeout (every 5 s by default).
pub fn heartbeat_every(stale_after: Duration) -> Duration {
    stale_after / 6
}

/// What [`Store::lease`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leased {
    /// A range to run.
    Range(Lease),
    /// Nothing to take now, but other workers hold ranges with cases left: ask again soon
    /// (their holder may die before finishing).
    Wait,
    /// Every case of the campaign is finished: nothing is left.
    Done,
}

/// A range of a campaign's cases leased to one worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease {
    /// The range's id.
    pub id: i64,
    /// The next case to run.
    pub next: u64,
    /// The first case after the range.
    pub end: u64,
}

/// This process's owner name: `host:pid:nonce` (the nonce tells apart two processes that
/// reuse a pid).
pub fn owner_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "localhost".into());
    format!("{host}:{}:{}", std::process::id(), now_ms())
}

impl Store {
    /// Leases `owner` a range of campaign `campaign`: a range nobody holds (released, or
    /// whose holder's heartbeat is older than `stale_after`, or whose holder is a dead
    /// process of this machine) with cases left, else a new range of `size` cases after the
    /// last one (up to the campaign's case budget).
    pub fn lease(
        &self,
        campaign: i64,
        owner: &str,
        size: u64,
        stale_after: Duration,
    ) -> Result<Leased, StoreError> {
        let stale = now_ms() - stale_after.as_millis() as i64;
        self.write(|c| {
            let skip_locked = if c.is_postgres() { " FOR UPDATE SKIP LOCKED" } else { "" };
            let open = c.rows(
                &format!(
                    "SELECT id, next_index, end_index, owner, heartbeat FROM ranges \
                     WHERE campaign = $1 AND next_index < end_index ORDER BY start_index{skip_locked}"
                ),
                &[campaign.into()],
            )?;
            let free = open.iter().find(|r| match r[3].opt_text() {
                None => true,
                Some(holder) => r[4].int() < stale || dead_here(&holder),
            });
            if let Some(r) = free {
                return take(c, r[0].int(), owner).map(|()| {
                    Leased::Range(Lease {
                        id: r[0].int(),
                        next: r[1].int() as u64,
                        end: r[2].int() as u64,
                    })
                });
            }
            let lock = if c.is_postgres() { " FOR UPDATE" } else { "" };
            let row = c.rows(
                &format!("SELECT next_range, case_limit FROM campaigns WHERE id = $1{lock}"),
                &[campaign.into()],
            )?;
            let Some(row) = row.first() else {
                return Err(StoreError::Refused(format!("no campaign {campaign} in the store")));
            };
            let start = row[0].int() as u64;
            let end = match row[1].opt_int() {
                Some(limit) if start >= limit as u64 => {
                    return Ok(if open.is_empty() {
                        Leased::Done
                    } else {
                        Leased::Wait
                    })
                }
                Some(limit) => (start + size).min(limit as u64),
                None => start + size,
            };
            c.exec(
                "UPDATE campaigns SET next_range = $1 WHERE id = $2",
                &[(end as i64).into(), campaign.into()],
            )?;
            let id = c.rows(
                "INSERT INTO ranges (campaign, start_index, end_index, next_index, owner, heartbeat) \
                 VALUES ($1, $2, $3, $2, $4, $5) RETURNING id",
                &[
                    campaign.into(),
                    (start as i64).into(),
                    (end as i64).into(),
                    owner.into(),
                    now_ms().into(),
                ],
            )?[0][0]
                .int();
            Ok(Leased::Range(Lease {
                id,
                next: start,
                end,
            }))
        })
    }

    /// Records that `owner` finished case `index` (seed `seed`) of `lease` with `counts`:
    /// the lease moves past it, the case is logged (once: a case run again after its lease
    /// was taken over is not counted twice) and the campaign's counters grow. `false`: the
    /// lease is no longer `owner`'s, or no longer at `index` (it was taken over): nothing is
    /// recorded, and the worker should lease again.
    pub fn finish_case(
        &self,
        campaign: i64,
        lease: &Lease,
        owner: &str,
        (index, seed): (u64, u64),
        counts: CaseCounts,
    ) -> Result<bool, StoreError> {
        self.write(|c| {
            let moved = c.exec(
                "UPDATE ranges SET next_index = $1, heartbeat = $2 \
                 WHERE id = $3 AND owner = $4 AND next_index = $5",
                &[
                    (index as i64 + 1).into(),
                    now_ms().into(),
                    lease.id.into(),
                    owner.into(),
                    (index as i64).into(),
                ],
            )?;
            if moved == 0 {
                return Ok(false);
            }
            let logged = c.exec(
                "INSERT INTO cases (campaign, case_index, case_seed, owner, finished_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                &[
                    campaign.into(),
                    (index as i64).into(),
                    (seed as i64).into(),
                    owner.into(),
                    now_text().into(),
                ],
            )?;
            if logged == 1 {
                c.exec(
                    "UPDATE campaigns SET cases = cases + 1, transactions = transactions + $1, \
                     statements = statements + $2, candidates = candidates + $3, \
                     permissible = permissible + $4 WHERE id = $5",
                    &[
                        (counts.transactions as i64).into(),
                        (counts.statements as i64).into(),
                        (counts.candidates as i64).into(),
                        (counts.permissible as i64).into(),
                        campaign.into(),
                    ],
                )?;
            }
            Ok(true)
        })
    }

    /// Says that `owner`'s leases are alive.
    pub fn heartbeat(&self, owner: &str) -> Result<(), StoreError> {
        self.write(|c| {
            c.exec(
                "UPDATE ranges SET heartbeat = $1 WHERE owner = $2 AND next_index < end_index",
                &[now_ms().into(), owner.into()],
            )
            .map(drop)
        })
    }

    /// The finished cases of campaign `id` as (index, owner), by index.
    pub fn finished_cases(&self, id: i64) -> Result<Vec<(u64, String)>, StoreError> {
        let rows = self.read(
            "SELECT case_index, owner FROM cases WHERE campaign = $1 ORDER BY case_index",
            &[id.into()],
        )?;
        Ok(rows
            .iter()
            .map(|r| (r[0].int() as u64, r[1].text()))
            .collect())
    }
}

/// Gives range `id` to `owner`.
fn take(c: &mut Conn, id: i64, owner: &str) -> Result<(), StoreError> {
    c.exec(
        "UPDATE ranges SET owner = $1, heartbeat = $2 WHERE id = $3",
        &[owner.into(), now_ms().into(), Value::Int(Some(id))],
    )
    .map(drop)
}

/// Whether `holder` (`host:pid:nonce`) is a process of this machine that no longer runs.
fn dead_here(holder: &str) -> bool {
    let mut parts = holder.rsplitn(3, ':');
    let (Some(_nonce), Some(pid), Some(host)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let here = owner_name();
    let this_host = here.rsplitn(3, ':').nth(2).unwrap_or_default();
    host == this_host && !std::path::Path::new(&format!("/proc/{pid}")).exists()
}
