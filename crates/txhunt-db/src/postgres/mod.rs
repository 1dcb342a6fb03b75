//! PostgreSQL-protocol servers (PostgreSQL, CockroachDB) through the sync `postgres` driver.
//!
//! Each execution creates its own database `txhunt_<pid>_<n>`, used by every session and
//! dropped afterwards; txhunt never touches any other database. The monitor session (lock-wait
//! probe, DROP DATABASE) stays on the database the URL names.

mod connection;
mod value;

use crate::profile::{ProbeQuery, ServerProfile};
use crate::target::{
    fresh_database_name, Connection, Database, LockProbe, LockWaitHook, SessionConfig, Target,
    TargetError,
};
use connection::PgConnection;
use postgres::{Client, Config, NoTls};
use std::sync::{Arc, Mutex};
use txhunt_model::DbState;

/// A PostgreSQL-protocol server and the profile of the DBMS behind it.
pub struct PgTarget {
    profile: &'static dyn ServerProfile,
    config: Config,
    _keep_alive: Option<Arc<dyn Send + Sync>>,
}

impl PgTarget {
    /// Connects to `url` (`postgres://user[:password]@host:port/db`); with no profile given, it
    /// is chosen from `version()` (CockroachDB, else PostgreSQL). `keep_alive` is held as long
    /// as the target (e.g. the testbed server it runs on).
    pub fn new(
        url: &str,
        profile: Option<&'static dyn ServerProfile>,
        keep_alive: Option<Arc<dyn Send + Sync>>,
    ) -> Result<Self, TargetError> {
        let config: Config = url
            .parse()
            .map_err(|e| TargetError::Spec(format!("bad PostgreSQL URL: {e}")))?;
        let mut client = config
            .connect(NoTls)
            .map_err(|e| TargetError::db("connecting to the server", e))?;
        let profile = match profile {
            Some(p) => p,
            None => {
                let version: String = client
                    .query_one("SELECT version()", &[])
                    .map_err(|e| TargetError::db("asking the server's version", e))?
                    .get(0);
                if version.contains("CockroachDB") {
                    &crate::profile::cockroach::CockroachProfile as &dyn ServerProfile
                } else {
                    &crate::profile::postgres::PostgresProfile
                }
            }
        };
        Ok(PgTarget {
            profile,
            config,
            _keep_alive: keep_alive,
        })
    }
}

impl Target for PgTarget {
    fn name(&self) -> String {
        self.profile.name().to_string()
    }

    fn profile(&self) -> &dyn crate::profile::Profile {
        self.profile
    }

    fn create_database(&self) -> Result<Box<dyn Database>, TargetError> {
        let name = fresh_database_name();
        let mut monitor = self
            .config
            .connect(NoTls)
            .map_err(|e| TargetError::db("connecting to the server", e))?;
        monitor
            .batch_execute(&format!(
                "CREATE DATABASE {}",
                self.profile.quote_ident(&name)
            ))
            .map_err(|e| {
                TargetError::db(
                    format!("creating database {name}"),
                    connection::error(&e, self.profile),
                )
            })?;
        let mut config = self.config.clone();
        config.dbname(&name);
        Ok(Box::new(PgDatabase {
            name,
            config,
            profile: self.profile,
            monitor: Arc::new(Mutex::new(monitor)),
        }))
    }
}

/// One database txhunt created; dropped on drop.
struct PgDatabase {
    name: String,
    config: Config,
    profile: &'static dyn ServerProfile,
    monitor: Arc<Mutex<Client>>,
}

impl Database for PgDatabase {
    fn connect(
        &self,
        config: SessionConfig,
        _hook: Option<Arc<dyn LockWaitHook>>,
    ) -> Result<Box<dyn Connection>, TargetError> {
        let setup = self
            .profile
            .session_setup(config)
            .map_err(TargetError::Spec)?;
        let mut client = self
            .config
            .connect(NoTls)
            .map_err(|e| TargetError::db("opening a session", e))?;
        for sql in setup {
            client.batch_execute(&sql).map_err(|e| {
                TargetError::db(
                    format!("configuring a session ({sql})"),
                    connection::error(&e, self.profile),
                )
            })?;
        }
        let conn = PgConnection::new(client, self.profile).map_err(|e| {
            TargetError::db("opening a session", connection::error(&e, self.profile))
        })?;
        Ok(Box::new(conn))
    }

    fn final_state(&self) -> Result<DbState, TargetError> {
        let mut client = self
            .config
            .connect(NoTls)
            .map_err(|e| TargetError::db("opening a session for the final state", e))?;
        connection::dump(&mut client, self.profile).map_err(|e| {
            TargetError::db(
                "reading the final state",
                connection::error(&e, self.profile),
            )
        })
    }

    fn lock_probe(&self) -> Option<Arc<dyn LockProbe>> {
        Some(Arc::new(PgProbe {
            profile: self.profile,
            monitor: Arc::clone(&self.monitor),
        }))
    }
}

impl Drop for PgDatabase {
    /// Ends any session still on the database, then drops it (works on PostgreSQL 10–18).
    fn drop(&mut self) {
        let mut monitor = self.monitor.lock().unwrap_or_else(|p| p.into_inner());
        let terminate = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()";
        let _ = monitor.execute(terminate, &[&self.name]);
        let drop_sql = format!(
            "DROP DATABASE IF EXISTS {}",
            self.profile.quote_ident(&self.name)
        );
        if let Err(e) = monitor.batch_execute(&drop_sql) {
            tracing::warn!(
                "could not drop database {}: {}",
                self.name,
                connection::error(&e, self.profile)
            );
        }
    }
}

/// The lock-wait probe: the profile's questions, asked on the monitor session.
struct PgProbe {
    profile: &'static dyn ServerProfile,
    monitor: Arc<Mutex<Client>>,
}

impl LockProbe for PgProbe {
    fn is_waiting(&self, session_id: &str) -> bool {
        let mut monitor = self.monitor.lock().unwrap_or_else(|p| p.into_inner());
        self.profile
            .lock_wait_probe(session_id)
            .iter()
            .any(|q| match q {
                ProbeQuery::Count(sql) => match monitor.query_one(sql.as_str(), &[]) {
                    Ok(row) => row
                        .try_get::<_, i32>(0)
                        .map(i64::from)
                        .or_else(|_| row.try_get::<_, i64>(0))
                        .is_ok_and(|n| n > 0),
                    Err(_) => false,
                },
                ProbeQuery::InnodbStatus => false,
            })
    }
}
