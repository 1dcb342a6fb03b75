//! txhunt's findings store: what campaigns ran and what they found, in one database.
//!
//! By default an embedded SQLite file (`txhunt-out/findings.db`); with a `postgres://…`
//! address a shared PostgreSQL database, so that `txhunt fuzz` processes on several machines
//! run one campaign together ([`leases`]). The saved scenario files stay the human-readable
//! twin of each occurrence; the store is what recognises duplicates ([`findings`]), says what
//! is new, and lets an interrupted campaign resume ([`campaigns`]).
//!
//! Every write is one transaction: a finding is in the store whole or not at all, and a
//! killed process loses nothing the store had committed. SQLite runs in WAL mode with
//! `synchronous=NORMAL`: a killed process loses no commit (a power cut may lose the last
//! ones).

pub mod campaigns;
mod conn;
pub mod findings;
pub mod leases;
mod schema;
mod time;

pub use campaigns::{CampaignInfo, CaseCounts, NewCampaign};
pub use conn::Value;
pub use findings::{FindingInfo, FindingQuery, NewOccurrence, OccurrenceInfo, Recorded};
pub use leases::{heartbeat_every, owner_name, Lease, Leased, DEFAULT_STALE_AFTER};
pub use time::parse_instant;

use conn::Conn;
use std::path::Path;
use std::sync::Mutex;

/// Why the store could not do something.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The SQLite file failed.
    #[error("findings store (SQLite): {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The PostgreSQL server failed.
    #[error("findings store (PostgreSQL): {0}")]
    Postgres(#[from] postgres::Error),
    /// The store's folder could not be made.
    #[error("findings store: {0}")]
    Io(#[from] std::io::Error),
    /// A request that cannot be met (a campaign or finding that is not there, a campaign
    /// joined with other settings).
    #[error("{0}")]
    Refused(String),
}

/// An open store.
pub struct Store {
    conn: Mutex<Conn>,
    location: String,
}

impl Store {
    /// Opens the store at `spec`: a `postgres://` or `postgresql://` connection string (the
    /// database must exist; the tables are created when missing), or the path of a SQLite
    /// file (created with its folder when missing).
    pub fn open(spec: &str) -> Result<Store, StoreError> {
        let conn = if spec.starts_with("postgres://") || spec.starts_with("postgresql://") {
            Conn::Postgres(Box::new(postgres::Client::connect(spec, postgres::NoTls)?))
        } else {
            let path = Path::new(spec);
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            let c = rusqlite::Connection::open(path)?;
            c.busy_timeout(std::time::Duration::from_secs(60))?;
            c.pragma_update(None, "journal_mode", "WAL")?;
            c.pragma_update(None, "synchronous", "NORMAL")?;
            c.pragma_update(None, "foreign_keys", "ON")?;
            Conn::Sqlite(c)
        };
        let mut conn = conn;
        let ddl = schema::ddl(conn.is_postgres());
        // Two processes starting at once on a new PostgreSQL store may both create the
        // tables: the loser retries and finds them there.
        if conn.transaction(|c| c.batch(&ddl)).is_err() {
            conn.transaction(|c| c.batch(&ddl))?;
        }
        Ok(Store {
            conn: Mutex::new(conn),
            location: redacted(spec),
        })
    }

    /// Where the store is, for people: the file, or the connection string without its
    /// password.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// Runs `work` on the connection in one transaction.
    fn write<T>(
        &self,
        work: impl FnOnce(&mut Conn) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        conn.transaction(work)
    }

    /// The rows `sql` answers with `params` (no transaction of its own).
    fn read(&self, sql: &str, params: &[Value]) -> Result<Vec<Vec<Value>>, StoreError> {
        let mut conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        conn.rows(sql, params)
    }
}

/// `spec` without a password: `postgres://user:secret@host/db` → `postgres://user:***@host/db`,
/// and `password=…` key-value pairs likewise.
pub fn redacted(spec: &str) -> String {
    let mut out = spec.to_string();
    if let Some(scheme_end) = out.find("://") {
        let rest = &out[scheme_end + 3..];
        if let Some(at) = rest.find('@') {
            if let Some(colon) = rest[..at].find(':') {
                let start = scheme_end + 3 + colon + 1;
                out.replace_range(start..scheme_end + 3 + at, "***");
            }
        }
    }
    if let Some(at) = out.find("password=") {
        let start = at + "password=".len();
        let end = out[start..]
            .find(['&', ' '])
            .map_or(out.len(), |e| start + e);
        out.replace_range(start..end, "***");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn passwords_are_never_shown() {
        assert_eq!(
            redacted("postgres://u:secret@localhost:5432/db"),
            "postgres://u:***@localhost:5432/db"
        );
        assert_eq!(
            redacted("postgresql://localhost/db?user=u&password=secret&x=1"),
            "postgresql://localhost/db?user=u&password=***&x=1"
        );
        assert_eq!(redacted("txhunt-out/findings.db"), "txhunt-out/findings.db");
    }
}
