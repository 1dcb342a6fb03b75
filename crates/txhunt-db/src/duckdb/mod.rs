//! The embedded DuckDB target (the `duckdb` crate, linked against the `libduckdb.so` that
//! `scripts/fetch-duckdb` fetches; cargo feature `duckdb`); see [`crate::profile::duckdb`].
//!
//! Every execution gets a fresh in-memory database instance; its sessions are connections of
//! that instance, and it is gone when the execution ends (no file is written).

mod connection;

use crate::profile::duckdb::DuckdbProfile;
use crate::profile::Profile;
use crate::target::{
    Connection, Database, LockProbe, LockWaitHook, SessionConfig, Target, TargetError,
};
use connection::{dump, DuckdbConnection};
use std::sync::{Arc, Mutex};
use txhunt_model::DbState;

/// Embedded DuckDB.
pub struct DuckdbTarget {
    version: String,
}

impl DuckdbTarget {
    /// A DuckDB target; asks the library for its version (which also checks that it loads).
    pub fn new() -> Result<Self, TargetError> {
        let conn = duckdb::Connection::open_in_memory()
            .map_err(|e| TargetError::db("opening DuckDB", e))?;
        let version: String = conn
            .query_row("SELECT version()", [], |r| r.get(0))
            .map_err(|e| TargetError::db("asking DuckDB its version", e))?;
        Ok(DuckdbTarget {
            version: version.trim_start_matches('v').to_string(),
        })
    }
}

impl Target for DuckdbTarget {
    fn name(&self) -> String {
        "duckdb".into()
    }

    fn version(&self) -> String {
        self.version.clone()
    }

    fn profile(&self) -> &dyn Profile {
        &DuckdbProfile
    }

    fn max_sessions(&self) -> usize {
        crate::embedded::MAX_SESSIONS
    }

    fn create_database(&self) -> Result<Box<dyn Database>, TargetError> {
        let root = duckdb::Connection::open_in_memory()
            .map_err(|e| TargetError::db("opening a DuckDB database", e))?;
        Ok(Box::new(DuckdbDatabase {
            root: Mutex::new(root),
        }))
    }
}

/// One execution's in-memory database instance, held by a connection its sessions clone.
struct DuckdbDatabase {
    root: Mutex<duckdb::Connection>,
}

impl DuckdbDatabase {
    /// A new connection to the instance.
    fn session(&self, context: &str) -> Result<duckdb::Connection, TargetError> {
        self.root
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .try_clone()
            .map_err(|e| TargetError::db(context, e))
    }
}

impl Database for DuckdbDatabase {
    fn connect(
        &self,
        config: SessionConfig,
        _hook: Option<Arc<dyn LockWaitHook>>,
    ) -> Result<Box<dyn Connection>, TargetError> {
        crate::profile::check_level(&DuckdbProfile, config.isolation)?;
        Ok(Box::new(DuckdbConnection::new(self.session("connecting")?)))
    }

    fn final_state(&self) -> Result<DbState, TargetError> {
        let conn = self.session("connecting for the final state")?;
        dump(&conn).map_err(|e| TargetError::db("reading the final state", e))
    }

    /// DuckDB needs no probe: nothing in it waits for a lock.
    fn lock_probe(&self) -> Option<Arc<dyn LockProbe>> {
        None
    }

    fn runs_in_process(&self) -> bool {
        true
    }
}
