//! MySQL-protocol servers (MariaDB, MySQL, TiDB) through the pure-Rust `mysql` driver.
//!
//! Each execution has a database `txhunt_<pid>_<n>` of its own on the server (created ahead
//! of it, off its time), used by every session and dropped afterwards; txhunt never touches
//! any other database.

mod connection;
mod leftover;
mod pool;
mod value;

use crate::housekeeper::{Housekeeper, Housework};
use crate::profile::{ProbeQuery, ServerProfile};
use crate::settings::Settings;
use crate::target::{
    fresh_database_name, left_behind, Connection, Database, LockProbe, LockWaitHook, SessionConfig,
    Target, TargetError,
};
use crate::testbed::Server;
use connection::MysqlConnection;
use mysql::prelude::Queryable;
use mysql::{Conn, Opts, OptsBuilder};
use pool::Pool;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use txhunt_model::DbState;

/// A MySQL-protocol server and the profile of the DBMS behind it.
pub struct MysqlTarget {
    profile: &'static dyn ServerProfile,
    /// Idle sessions on the server, reused by every database's sessions and monitor.
    pool: Arc<Pool>,
    /// Drops the databases of finished executions and creates the next ones ahead.
    housekeeper: Arc<Housekeeper<DropJob>>,
    /// `SELECT VERSION()`.
    version: String,
    /// The server settings the target was started with, shown in its label.
    settings: Settings,
    /// The testbed server it runs on, if txhunt started one for it: held as long as the
    /// target.
    server: Option<Arc<Server>>,
}

impl MysqlTarget {
    /// Connects to `url` (`mysql://user[:password]@host:port`); with no profile given, it is
    /// chosen from `SELECT VERSION()` (MariaDB, TiDB, else MySQL). A MariaDB profile follows
    /// the server's `innodb_snapshot_isolation` ([`crate::profile::innodb::mariadb`]).
    /// `server`, the testbed server `url`
    /// names if txhunt started one for it, is held as long as the target.
    pub fn new(
        url: &str,
        profile: Option<&'static dyn ServerProfile>,
        server: Option<Arc<Server>>,
    ) -> Result<Self, TargetError> {
        let opts =
            Opts::from_url(url).map_err(|e| TargetError::Spec(format!("bad MySQL URL: {e}")))?;
        let opts: Opts = OptsBuilder::from_opts(opts).db_name(None::<String>).into();
        let mut conn = Conn::new(opts.clone()).map_err(failed("connecting to the server"))?;
        let version: String = conn
            .query_first("SELECT VERSION()")
            .map_err(failed("asking the server's version"))?
            .unwrap_or_default();
        let mut profile = profile.unwrap_or_else(|| profile_for_version(&version));
        if profile.name() == "mariadb" {
            // Unknown before 10.6.18 / 10.11.8: the error means OFF.
            let snapshot: Option<u8> = conn
                .query_first("SELECT @@innodb_snapshot_isolation")
                .unwrap_or(None);
            profile = crate::profile::innodb::mariadb(snapshot == Some(1));
        }
        drop_left_behind(&mut conn, profile);
        let pool = Arc::new(Pool::new(opts));
        pool.give(conn);
        Ok(MysqlTarget {
            profile,
            housekeeper: Arc::new(Housekeeper::new(MysqlHousework {
                profile,
                pool: Arc::clone(&pool),
                own: None,
            })),
            pool,
            version,
            settings: Settings::default(),
            server,
        })
    }

    /// The target with the server `settings` it was started with, which its label shows.
    pub fn with_settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }
}

/// Drops the databases runs that are gone left on the server ([`left_behind`]) and no session
/// uses; a failure is only logged.
fn drop_left_behind(conn: &mut Conn, profile: &dyn ServerProfile) {
    let names: Result<Vec<String>, _> = conn.query(
        "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'txhunt\\_%' \
         AND schema_name NOT IN \
         (SELECT db FROM information_schema.processlist WHERE db IS NOT NULL)",
    );
    let names = match names {
        Ok(names) => names,
        Err(e) => return tracing::warn!("listing databases: {}", connection::describe(&e)),
    };
    for name in left_behind(names) {
        let drop = format!("DROP DATABASE IF EXISTS {}", profile.quote_ident(&name));
        match conn.query_drop(drop) {
            Ok(()) => tracing::info!("dropped {name}, left behind by a run that is gone"),
            Err(e) => tracing::warn!("could not drop {name}: {}", connection::describe(&e)),
        }
    }
}

/// For `map_err`: a driver error met while doing `context`, described for people.
fn failed(context: impl Into<String>) -> impl FnOnce(mysql::Error) -> TargetError {
    let context = context.into();
    move |e| TargetError::db(context, connection::describe(&e))
}

/// The profile for a MySQL-protocol server's `VERSION()`.
fn profile_for_version(version: &str) -> &'static dyn ServerProfile {
    if version.contains("MariaDB") {
        &crate::profile::innodb::MARIADB
    } else if version.contains("TiDB") {
        &crate::profile::tidb::TidbProfile
    } else {
        &crate::profile::innodb::MYSQL
    }
}

impl MysqlTarget {
    /// The settings as a `--target` value spells them; a MariaDB server whose
    /// `innodb_snapshot_isolation` is ON says so even where no setting asked for it (an
    /// existing server's, a newer version's default).
    fn settings_suffix(&self) -> String {
        let mut settings = self.settings.suffix();
        let snapshot = crate::profile::semantics::MARIADB_SNAPSHOT.name;
        if self.profile.semantics().name == snapshot
            && self.settings.get("innodb_snapshot_isolation").is_none()
        {
            settings.push(if settings.is_empty() { '?' } else { '&' });
            settings.push_str("innodb_snapshot_isolation=ON");
        }
        settings
    }
}

impl Target for MysqlTarget {
    fn name(&self) -> String {
        self.profile.name().to_string()
    }

    fn version(&self) -> String {
        self.version.clone()
    }

    fn profile(&self) -> &dyn crate::profile::Profile {
        self.profile
    }

    /// Name, version and settings; a MariaDB server whose `innodb_snapshot_isolation` is ON
    /// says so even where no setting asked for it.
    fn label(&self) -> String {
        format!("{} {}{}", self.name(), self.version, self.settings_suffix())
    }

    fn replay_spec(&self) -> String {
        format!("{}{}", self.name(), self.settings_suffix())
    }

    fn max_sessions(&self) -> usize {
        crate::target::SERVER_MAX_SESSIONS
    }

    fn private_server(&self) -> Option<&Server> {
        self.server.as_deref()
    }

    /// A database created ahead, else a new one. Its monitor session is a pooled session
    /// that need not use it (its questions name the database): taking it asks nothing.
    fn create_database(&self) -> Result<Box<dyn Database>, TargetError> {
        let (admin, name) = match self.housekeeper.take_ready() {
            Some(name) => {
                let (admin, _) = (self.pool.take(None, &[]))
                    .map_err(failed(format!("opening a monitor session on {name}")))?;
                (admin, name)
            }
            None => {
                let name = fresh_database_name();
                let create = [format!(
                    "CREATE DATABASE {}",
                    self.profile.quote_ident(&name)
                )];
                let (admin, _) = (self.pool.take(None, &create))
                    .map_err(failed(format!("creating database {name}")))?;
                (admin, name)
            }
        };
        Ok(Box::new(MysqlDatabase {
            dir: (self.server.as_ref())
                .and_then(|server| server.data_dir())
                .map(|data| data.join(&name)),
            name,
            profile: self.profile,
            monitor: Arc::new(Mutex::new(admin)),
            pool: Arc::clone(&self.pool),
            housekeeper: Arc::clone(&self.housekeeper),
        }))
    }
}

impl Drop for MysqlTarget {
    /// Waits for the databases being dropped, and drops those created ahead and not used:
    /// the server (a testbed's, held by the target) must outlive their drops.
    fn drop(&mut self) {
        self.housekeeper.finish();
    }
}

/// One database txhunt created; dropped on drop (in the background, [`Housekeeper`]). Its
/// monitor session (lock-wait probes, `KILL QUERY`, the final state) names it where it must,
/// and need not use it.
struct MysqlDatabase {
    name: String,
    /// Its directory, where txhunt started the server (a private testbed's): files MariaDB
    /// leaves there may be removed ([`leftover`]).
    dir: Option<PathBuf>,
    profile: &'static dyn ServerProfile,
    monitor: Arc<Mutex<Conn>>,
    pool: Arc<Pool>,
    housekeeper: Arc<Housekeeper<DropJob>>,
}

impl Database for MysqlDatabase {
    fn connect(
        &self,
        config: SessionConfig,
        _hook: Option<Arc<dyn LockWaitHook>>,
    ) -> Result<Box<dyn Connection>, TargetError> {
        let mut prepare = self.profile.session_setup(config)?;
        prepare.push(self.profile.session_id_query().to_string());
        let (conn, id) = (self.pool.take(Some(&self.name), &prepare)).map_err(failed(format!(
            "opening a session ({})",
            prepare.join("; ")
        )))?;
        let conn = MysqlConnection::new(
            conn,
            id,
            self.profile,
            Arc::clone(&self.monitor),
            Arc::clone(&self.pool),
        );
        Ok(Box::new(conn))
    }

    fn final_state(&self) -> Result<DbState, TargetError> {
        let mut monitor = self.monitor.lock().unwrap_or_else(|p| p.into_inner());
        connection::dump(&mut monitor, self.profile, &self.name)
            .map_err(failed("reading the final state"))
    }

    fn lock_probe(&self) -> Option<Arc<dyn LockProbe>> {
        Some(Arc::new(MysqlProbe {
            profile: self.profile,
            monitor: Arc::clone(&self.monitor),
        }))
    }
}

impl Drop for MysqlDatabase {
    fn drop(&mut self) {
        let job = DropJob {
            session: Arc::clone(&self.monitor),
            database: self.profile.quote_ident(&self.name),
            dir: self.dir.take(),
        };
        if let Err(job) = self.housekeeper.hand(job) {
            job.run();
        }
    }
}

/// A database to drop: the session to drop it on (its monitor), its name as SQL spells it,
/// and its directory where txhunt owns the server.
struct DropJob {
    session: Arc<Mutex<Conn>>,
    database: String,
    dir: Option<PathBuf>,
}

impl DropJob {
    /// Drops the database; a failure is logged (the server may be gone: a crash test). Where
    /// the drop failed on the trigger backups MariaDB leaves behind ([`leftover`]) in a
    /// database of txhunt's own server, they are removed and the drop tried again.
    fn run(&self) {
        let mut session = self.session.lock().unwrap_or_else(|p| p.into_inner());
        let sql = format!("DROP DATABASE IF EXISTS {}", self.database);
        let mut dropped = session.query_drop(&sql);
        if let (Err(_), Some(dir)) = (&dropped, &self.dir) {
            match leftover::remove_trigger_backups(dir) {
                Ok(0) => {}
                Ok(n) => {
                    tracing::debug!("{n} trigger backups MariaDB left in {}", dir.display());
                    dropped = session.query_drop(&sql);
                }
                Err(e) => tracing::warn!("removing trigger backups in {}: {e}", dir.display()),
            }
        }
        if let Err(e) = dropped {
            let database = &self.database;
            tracing::warn!(
                "could not drop database {database}: {}",
                connection::describe(&e)
            );
        }
    }
}

/// The housekeeping of a target's databases: each used one is dropped on its monitor
/// session, which then goes back to `pool` (when nothing else holds it any more); those made
/// ahead are created, and dropped if unused, on a pooled session of its own.
struct MysqlHousework {
    profile: &'static dyn ServerProfile,
    pool: Arc<Pool>,
    /// Its own session, once it has one.
    own: Option<Conn>,
}

impl MysqlHousework {
    /// Runs `sql` on its own session: whether it succeeded (a failure is logged, and the
    /// session given up).
    fn run_own(&mut self, sql: &str) -> bool {
        let taken = match self.own.take() {
            Some(conn) => Ok(conn),
            None => self.pool.take(None, &[]).map(|(conn, _)| conn),
        };
        let done = taken.and_then(|mut conn| conn.query_drop(sql).map(|()| conn));
        match done {
            Ok(conn) => {
                self.own = Some(conn);
                true
            }
            Err(e) => {
                tracing::warn!("{sql}: {}", connection::describe(&e));
                false
            }
        }
    }
}

impl Housework for MysqlHousework {
    type Used = DropJob;

    fn drop_used(&mut self, job: DropJob) {
        job.run();
        if let Ok(session) = Arc::try_unwrap(job.session) {
            (self.pool).give(session.into_inner().unwrap_or_else(|p| p.into_inner()));
        }
    }

    fn create(&mut self, name: &str) -> bool {
        self.run_own(&format!(
            "CREATE DATABASE {}",
            self.profile.quote_ident(name)
        ))
    }

    fn drop_unused(&mut self, name: &str) {
        self.run_own(&format!(
            "DROP DATABASE IF EXISTS {}",
            self.profile.quote_ident(name)
        ));
    }
}

/// The lock-wait probe: the profile's questions, asked on the monitor session.
struct MysqlProbe {
    profile: &'static dyn ServerProfile,
    monitor: Arc<Mutex<Conn>>,
}

impl LockProbe for MysqlProbe {
    fn is_waiting(&self, session_id: &str) -> bool {
        let mut monitor = self.monitor.lock().unwrap_or_else(|p| p.into_inner());
        self.profile
            .lock_wait_probe(session_id)
            .iter()
            .any(|q| match q {
                ProbeQuery::Count(sql) => {
                    matches!(monitor.query_first::<u64, _>(sql), Ok(Some(n)) if n > 0)
                }
                ProbeQuery::InnodbStatus => {
                    match monitor
                        .query_first::<(String, String, String), _>("SHOW ENGINE INNODB STATUS")
                    {
                        Ok(Some((_, _, status))) => {
                            crate::profile::innodb::waiting_in_innodb_status(&status, session_id)
                        }
                        _ => false,
                    }
                }
                ProbeQuery::ProcessList => waiting_in_process_list(&mut monitor, session_id),
            })
    }
}

/// Whether `SHOW PROCESSLIST` on `monitor` shows connection `id` in a state that waits for a
/// lock ([`crate::profile::innodb::waiting_for_lock_state`]).
fn waiting_in_process_list(monitor: &mut Conn, id: &str) -> bool {
    let Ok(rows) = monitor.query::<mysql::Row, _>("SHOW PROCESSLIST") else {
        return false;
    };
    rows.iter().any(|row| {
        let of = |column: &str| {
            row.get_opt::<Option<String>, _>(column)
                .and_then(Result::ok)
        };
        of("Id").flatten().is_some_and(|row_id| row_id == id)
            && (of("State").flatten())
                .is_some_and(|state| crate::profile::innodb::waiting_for_lock_state(&state))
    })
}
