//! Findings and their occurrences, and what makes two occurrences one finding.
//!
//! A finding is keyed by its target (as `--target` names it, settings included) and the
//! target's version, the oracle, the typed signature, the verdict (bug candidate, or the
//! documented behaviour that makes it permissible) and its *shape*: the digest of its reduced
//! case once it has one. So duplicates are recognised by signature and by reduced-case
//! equality: occurrences not (yet) reduced gather under their signature; a reduction moves
//! its occurrence to the finding of its reduced case, shared by every occurrence that reduced
//! to the same case. (A signature alone is too coarse to be a bug: every WSS final-state
//! violation has the same one; two random cases that reduce to one scenario are one bug.)

use crate::conn::{Conn, Value};
use crate::time::now_text;
use crate::{Store, StoreError};
use sha2::{Digest, Sha256};

/// One finding just made, to record.
#[derive(Debug, Clone)]
pub struct NewOccurrence<'a> {
    /// The campaign.
    pub campaign: i64,
    /// The case's index in it.
    pub case_index: u64,
    /// The case's seed.
    pub case_seed: u64,
    /// The isolation level it ran at.
    pub level: &'a str,
    /// The DBMS family (`postgres`, `mariadb`, `sqlite`, …).
    pub family: &'a str,
    /// The target(s) as `--target` names them (`a, b` for a differential finding).
    pub target: &'a str,
    /// Their version(s).
    pub version: &'a str,
    /// The oracle.
    pub oracle: &'a str,
    /// The typed signature.
    pub signature: &'a str,
    /// `candidate`, or `permissible: BEHAVIOUR`.
    pub verdict: &'a str,
    /// The finding's one line for people.
    pub title: &'a str,
    /// The case's statements (setup and steps).
    pub statements: usize,
    /// The saved scenario's path.
    pub path: &'a str,
    /// The saved scenario's text.
    pub scenario: &'a str,
    /// The saved JSON twin's text (case, history, finding and its evidence).
    pub details: &'a str,
}

/// Where an occurrence went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recorded {
    /// The occurrence's id (`None`: it was recorded before, by a run of the same case).
    pub occurrence: Option<i64>,
    /// The finding it belongs to.
    pub finding: i64,
    /// Whether that finding is new: no occurrence had it before.
    pub new: bool,
}

/// A finding as `txhunt findings list` shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FindingInfo {
    /// Its id.
    pub id: i64,
    /// DBMS family.
    pub family: String,
    /// Target(s).
    pub target: String,
    /// Version(s).
    pub version: String,
    /// Oracle.
    pub oracle: String,
    /// Typed signature.
    pub signature: String,
    /// `candidate` or `permissible: BEHAVIOUR`.
    pub verdict: String,
    /// The first occurrence's one line.
    pub title: String,
    /// The reduced case, once one of its occurrences was reduced.
    pub reduced: Option<String>,
    /// Statements of the smallest case known: the reduced one, else the first occurrence's.
    pub statements: u64,
    /// The campaign that first made it.
    pub first_campaign: i64,
    /// When it was first made.
    pub first_seen: String,
    /// When it was last made.
    pub last_seen: String,
    /// How often it was made.
    pub occurrences: u64,
}

/// One occurrence, whole.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OccurrenceInfo {
    /// Its id.
    pub id: i64,
    /// The campaign.
    pub campaign: i64,
    /// The case's index.
    pub case_index: u64,
    /// The case's seed.
    pub case_seed: u64,
    /// Its isolation level.
    pub level: String,
    /// The saved scenario's path.
    pub path: String,
    /// The saved scenario.
    pub scenario: String,
    /// The JSON twin.
    pub details: String,
    /// Its case's statements.
    pub statements: u64,
    /// Its reduced scenario, if reduced.
    pub reduced: Option<String>,
    /// The reduction's log (JSON), if it was reduced or found flaky.
    pub reduction: Option<String>,
    /// When it was made.
    pub found_at: String,
}

/// Which findings to list.
#[derive(Debug, Clone, Default)]
pub struct FindingQuery {
    /// First made after this campaign (id).
    pub since_campaign: Option<i64>,
    /// First made at or after this instant (RFC 3339).
    pub since: Option<String>,
    /// Of this oracle.
    pub oracle: Option<String>,
    /// Whose target contains this (a family name, `postgres`, or a setting).
    pub target: Option<String>,
    /// With an occurrence in this campaign (id).
    pub in_campaign: Option<i64>,
    /// Permissible findings too.
    pub permissible: bool,
}

/// The columns [`FindingInfo::from_row`] reads.
const FINDING_COLUMNS: &str = "f.id, f.family, f.target, f.version, f.oracle, f.signature, \
     f.verdict, f.title, f.reduced, f.statements, f.first_campaign, f.first_seen, f.last_seen, \
     (SELECT COUNT(*) FROM occurrences o WHERE o.finding = f.id)";

impl FindingInfo {
    fn from_row(r: &[Value]) -> FindingInfo {
        FindingInfo {
            id: r[0].int(),
            family: r[1].text(),
            target: r[2].text(),
            version: r[3].text(),
            oracle: r[4].text(),
            signature: r[5].text(),
            verdict: r[6].text(),
            title: r[7].text(),
            reduced: r[8].opt_text(),
            statements: r[9].int() as u64,
            first_campaign: r[10].int(),
            first_seen: r[11].text(),
            last_seen: r[12].text(),
            occurrences: r[13].int() as u64,
        }
    }

    /// Whether it is a bug candidate.
    pub fn is_candidate(&self) -> bool {
        self.verdict == "candidate"
    }
}

/// The digest that tells reduced cases apart (their scenario text, lines trimmed, comments
/// and notes dropped).
pub fn shape(reduced: &str) -> String {
    let mut hasher = Sha256::new();
    for line in reduced.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("--") {
            continue;
        }
        // A statement's trailing note (`-- observed: …`) is not part of the case.
        let statement = line.split(" -- ").next().unwrap_or(line);
        hasher.update(statement.as_bytes());
        hasher.update(b"\n");
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Store {
    /// Records `new`: under the finding of its signature (not yet reduced), made now when
    /// there is none. A case run again (a resumed campaign, a lease taken over) records its
    /// finding once.
    pub fn record(&self, new: &NewOccurrence<'_>) -> Result<Recorded, StoreError> {
        self.write(|c| {
            let before = c.rows(
                "SELECT finding FROM occurrences WHERE campaign = $1 AND case_index = $2 \
                 AND target = $3 AND oracle = $4 AND signature = $5",
                &[
                    new.campaign.into(),
                    (new.case_index as i64).into(),
                    new.target.into(),
                    new.oracle.into(),
                    new.signature.into(),
                ],
            )?;
            if let Some(row) = before.first() {
                return Ok(Recorded {
                    occurrence: None,
                    finding: row[0].int(),
                    new: false,
                });
            }
            let (finding, fresh) = finding_for(c, new, "", None)?;
            let now = now_text();
            let id = c.rows(
                "INSERT INTO occurrences (finding, campaign, case_index, case_seed, level, \
                 target, oracle, signature, path, scenario, details, statements, found_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
                &[
                    finding.into(),
                    new.campaign.into(),
                    (new.case_index as i64).into(),
                    (new.case_seed as i64).into(),
                    new.level.into(),
                    new.target.into(),
                    new.oracle.into(),
                    new.signature.into(),
                    new.path.into(),
                    new.scenario.into(),
                    new.details.into(),
                    (new.statements as i64).into(),
                    now.as_str().into(),
                ],
            )?[0][0]
                .int();
            Ok(Recorded {
                occurrence: Some(id),
                finding,
                new: fresh,
            })
        })
    }

    /// Records occurrence `id`'s reduction: its log (JSON) and, unless the finding was flaky,
    /// the reduced scenario with its statement count. The occurrence moves to the finding of
    /// its reduced case (made now when no occurrence reduced to it before); a finding left
    /// without occurrences goes.
    pub fn reduced(
        &self,
        id: i64,
        reduced: Option<(&str, usize)>,
        log: &str,
    ) -> Result<Recorded, StoreError> {
        self.write(|c| {
            c.exec(
                "UPDATE occurrences SET reduced = $1, reduction = $2 WHERE id = $3",
                &[
                    Value::Text(reduced.map(|(sql, _)| sql.to_string())),
                    log.into(),
                    id.into(),
                ],
            )?;
            let rows = c.rows(
                &format!(
                    "SELECT {FINDING_COLUMNS}, o.campaign FROM occurrences o \
                     JOIN findings f ON f.id = o.finding WHERE o.id = $1"
                ),
                &[id.into()],
            )?;
            let Some(row) = rows.first() else {
                return Err(StoreError::Refused(format!(
                    "no occurrence {id} in the store"
                )));
            };
            let old = FindingInfo::from_row(row);
            let Some((sql, statements)) = reduced else {
                return Ok(Recorded {
                    occurrence: Some(id),
                    finding: old.id,
                    new: false,
                });
            };
            let key = NewOccurrence {
                campaign: row[14].int(),
                case_index: 0,
                case_seed: 0,
                level: "",
                family: &old.family,
                target: &old.target,
                version: &old.version,
                oracle: &old.oracle,
                signature: &old.signature,
                verdict: &old.verdict,
                title: &old.title,
                statements,
                path: "",
                scenario: "",
                details: "",
            };
            let (finding, fresh) = finding_for(c, &key, &shape(sql), Some(sql))?;
            c.exec(
                "UPDATE occurrences SET finding = $1 WHERE id = $2",
                &[finding.into(), id.into()],
            )?;
            c.exec(
                "DELETE FROM findings WHERE id = $1 AND NOT EXISTS \
                 (SELECT 1 FROM occurrences WHERE finding = $1)",
                &[old.id.into()],
            )?;
            Ok(Recorded {
                occurrence: Some(id),
                finding,
                new: fresh,
            })
        })
    }

    /// The findings `query` asks for, newest first.
    pub fn findings(&self, query: &FindingQuery) -> Result<Vec<FindingInfo>, StoreError> {
        let mut sql = format!("SELECT {FINDING_COLUMNS} FROM findings f WHERE 1 = 1");
        let mut params: Vec<Value> = Vec::new();
        let mut add = |sql: &mut String, clause: &str, value: Value| {
            params.push(value);
            sql.push_str(&clause.replace('?', &format!("${}", params.len())));
        };
        if let Some(campaign) = query.since_campaign {
            add(&mut sql, " AND f.first_campaign > ?", campaign.into());
        }
        if let Some(since) = &query.since {
            add(&mut sql, " AND f.first_seen >= ?", since.as_str().into());
        }
        if let Some(oracle) = &query.oracle {
            add(&mut sql, " AND f.oracle = ?", oracle.as_str().into());
        }
        if let Some(target) = &query.target {
            add(
                &mut sql,
                " AND f.target LIKE ?",
                format!("%{target}%").into(),
            );
        }
        if let Some(campaign) = query.in_campaign {
            add(
                &mut sql,
                " AND EXISTS (SELECT 1 FROM occurrences o WHERE o.finding = f.id AND o.campaign = ?)",
                campaign.into(),
            );
        }
        if !query.permissible {
            sql.push_str(" AND f.verdict = 'candidate'");
        }
        sql.push_str(" ORDER BY f.first_seen DESC, f.id DESC");
        let rows = self.read(&sql, &params)?;
        Ok(rows.iter().map(|r| FindingInfo::from_row(r)).collect())
    }

    /// Finding `id` and its occurrences, oldest first.
    pub fn finding(&self, id: i64) -> Result<(FindingInfo, Vec<OccurrenceInfo>), StoreError> {
        let rows = self.read(
            &format!("SELECT {FINDING_COLUMNS} FROM findings f WHERE f.id = $1"),
            &[id.into()],
        )?;
        let finding = rows
            .first()
            .map(|r| FindingInfo::from_row(r))
            .ok_or_else(|| StoreError::Refused(format!("no finding {id} in the store")))?;
        let rows = self.read(
            "SELECT id, campaign, case_index, case_seed, level, path, scenario, details, \
             statements, reduced, reduction, found_at FROM occurrences WHERE finding = $1 \
             ORDER BY id",
            &[id.into()],
        )?;
        let occurrences = rows
            .iter()
            .map(|r| OccurrenceInfo {
                id: r[0].int(),
                campaign: r[1].int(),
                case_index: r[2].int() as u64,
                case_seed: r[3].int() as u64,
                level: r[4].text(),
                path: r[5].text(),
                scenario: r[6].text(),
                details: r[7].text(),
                statements: r[8].int() as u64,
                reduced: r[9].opt_text(),
                reduction: r[10].opt_text(),
                found_at: r[11].text(),
            })
            .collect();
        Ok((finding, occurrences))
    }
}

/// The finding `new` belongs to with `shape` (and `reduced` case), made when there is none;
/// and whether it was made now. Its last sighting moves to now.
fn finding_for(
    c: &mut Conn,
    new: &NewOccurrence<'_>,
    shape: &str,
    reduced: Option<&str>,
) -> Result<(i64, bool), StoreError> {
    let key: [Value; 6] = [
        new.target.into(),
        new.version.into(),
        new.oracle.into(),
        new.signature.into(),
        new.verdict.into(),
        shape.into(),
    ];
    let found = c.rows(
        "SELECT id FROM findings WHERE target = $1 AND version = $2 AND oracle = $3 \
         AND signature = $4 AND verdict = $5 AND shape = $6",
        &key,
    )?;
    let now = now_text();
    if let Some(row) = found.first() {
        let id = row[0].int();
        c.exec(
            "UPDATE findings SET last_seen = $1 WHERE id = $2",
            &[now.as_str().into(), id.into()],
        )?;
        return Ok((id, false));
    }
    let mut params = key.to_vec();
    params.extend([
        new.family.into(),
        new.title.into(),
        Value::Text(reduced.map(String::from)),
        (new.statements as i64).into(),
        new.campaign.into(),
        now.as_str().into(),
    ]);
    let id = c.rows(
        "INSERT INTO findings (target, version, oracle, signature, verdict, shape, family, \
         title, reduced, statements, first_campaign, first_seen, last_seen) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING id",
        &params,
    )?[0][0]
        .int();
    Ok((id, true))
}
