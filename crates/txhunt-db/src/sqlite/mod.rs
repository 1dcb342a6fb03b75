//! The embedded SQLite target (`rusqlite`, bundled SQLite).
//!
//! Every execution gets a fresh database file in a temp directory txhunt creates (prefix
//! `txhunt_`) and deletes when the execution ends. The file is in WAL mode; each session opens
//! its own connection to it. The connection that created the file stays open, idle, until the
//! database is dropped: the final state is read through it (no connection is opened for that),
//! and with it open the WAL index is never torn down and rebuilt between sessions.

mod connection;

use crate::profile::sqlite::SqliteProfile;
use crate::profile::Profile;
use crate::target::{
    Connection, Database, LockProbe, LockWaitHook, SessionConfig, Target, TargetError,
};
use connection::{open, SqliteConnection};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use txhunt_model::{DbState, Isolation};

/// Embedded SQLite.
pub struct SqliteTarget {
    dir: Option<PathBuf>,
}

impl SqliteTarget {
    /// A SQLite target creating its database files under `dir` (the system temp dir if `None`).
    pub fn new(dir: Option<PathBuf>) -> Result<Self, TargetError> {
        let dir = crate::embedded::check_dir("sqlite", dir)?;
        Ok(SqliteTarget { dir })
    }
}

impl Target for SqliteTarget {
    fn name(&self) -> String {
        "sqlite".into()
    }

    fn version(&self) -> String {
        rusqlite::version().to_string()
    }

    fn profile(&self) -> &dyn Profile {
        &SqliteProfile
    }

    fn max_sessions(&self) -> usize {
        crate::embedded::MAX_SESSIONS
    }

    fn create_database(&self) -> Result<Box<dyn Database>, TargetError> {
        let dir = crate::embedded::temp_dir(self.dir.as_deref())?;
        let path = dir.path().join("db.sqlite");
        let setup = open(&path, Isolation::Serializable)?;
        setup
            .pragma_update(None, "journal_mode", "wal")
            .map_err(|e| TargetError::db("switching the SQLite database to WAL", e))?;
        Ok(Box::new(SqliteDatabase {
            keeper: Mutex::new(setup),
            path,
            _dir: dir,
        }))
    }
}

/// One fresh SQLite database file; deleted with its directory on drop.
struct SqliteDatabase {
    /// The connection that created the file, idle but for reading the final state (dropped
    /// before the directory: fields drop in order).
    keeper: Mutex<rusqlite::Connection>,
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Database for SqliteDatabase {
    fn connect(
        &self,
        config: SessionConfig,
        hook: Option<Arc<dyn LockWaitHook>>,
    ) -> Result<Box<dyn Connection>, TargetError> {
        crate::profile::check_level(&SqliteProfile, config.isolation)?;
        let conn = open(&self.path, config.isolation)?;
        Ok(Box::new(SqliteConnection::new(conn, hook)?))
    }

    fn final_state(&self) -> Result<DbState, TargetError> {
        let conn = self.keeper.lock().unwrap_or_else(|p| p.into_inner());
        connection::dump(&conn).map_err(|e| TargetError::db("reading the final state", e))
    }

    /// SQLite needs no probe: its busy handler reports waits (see the profile).
    fn lock_probe(&self) -> Option<Arc<dyn LockProbe>> {
        None
    }

    fn runs_in_process(&self) -> bool {
        true
    }
}
