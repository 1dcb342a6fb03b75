//! PostgreSQL-protocol servers (PostgreSQL, CockroachDB) through the sync `postgres` driver.
//!
//! A target creates its own database `txhunt_<pid>_<n>` and drops it when it is dropped; txhunt
//! never touches any other database. Each execution gets a fresh schema `txhunt_<pid>_<n>` in
//! it (created ahead of it, off its time), which every session puts first on its
//! `search_path`, dropped after the execution:
//! `CREATE DATABASE` costs ~130 ms here (it copies a template and checkpoints), a schema
//! under 1 ms, and executions stay just as separate.

mod connection;
mod pool;
mod row_types;
mod value;

use crate::housekeeper::{Housekeeper, Housework};
use crate::profile::{ProbeQuery, ServerProfile};
use crate::settings::Settings;
use crate::target::{
    fresh_database_name, left_behind, Connection, Database, DeadlockCheck, LockProbe, LockWaitHook,
    SessionConfig, Target, TargetError,
};
use crate::testbed::Server;
use connection::PgConnection;
use pool::Pool;
use postgres::{Client, Config, NoTls};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use txhunt_model::DbState;

/// A PostgreSQL-protocol server and the profile of the DBMS behind it.
pub struct PgTarget {
    profile: &'static dyn ServerProfile,
    /// The URL's database, where the target's own database is created and dropped.
    admin: Config,
    /// The target's own database.
    database: String,
    /// Sessions on it, reused across executions.
    pool: Arc<Pool>,
    /// The monitor session on it: schemas, lock-wait probe, final states.
    monitor: Arc<Mutex<Client>>,
    /// Drops the schemas of finished executions and creates the next ones ahead, on a session
    /// of its own.
    housekeeper: Arc<Housekeeper<DropJob>>,
    /// The server's `deadlock_timeout`.
    deadlock_timeout: Duration,
    /// The session settings that make the server report its deadlock checks, where it can.
    reporting: Option<&'static [&'static str]>,
    /// `SHOW server_version`, first word.
    version: String,
    /// The server settings the target was started with, shown in its label.
    settings: Settings,
    /// The testbed server it runs on, if txhunt started one for it: held as long as the
    /// target.
    server: Option<Arc<Server>>,
}

impl PgTarget {
    /// Connects to `url` (`postgres://user[:password]@host:port/db`); with no profile given, it
    /// is chosen from `version()` (CockroachDB, else PostgreSQL). `server`, the testbed
    /// server `url` names if txhunt started one for it, is held as long as the target.
    pub fn new(
        url: &str,
        profile: Option<&'static dyn ServerProfile>,
        server: Option<Arc<Server>>,
    ) -> Result<Self, TargetError> {
        let admin: Config = url.parse().map_err(|_| {
            TargetError::Spec(format!("bad PostgreSQL URL: {}", crate::redact(url)))
        })?;
        let mut client = admin
            .connect(NoTls)
            .map_err(failed("connecting to the server"))?;
        let (admin, mut client) = match over_local_socket(&admin, &mut client) {
            Some(local) => local,
            None => (admin, client),
        };
        let profile = match profile {
            Some(p) => p,
            None => {
                let version: String = client
                    .query_one("SELECT version()", &[])
                    .map_err(failed("asking the server's version"))?
                    .get(0);
                if version.contains("CockroachDB") {
                    &crate::profile::cockroach::CockroachProfile as &dyn ServerProfile
                } else {
                    &crate::profile::postgres::PostgresProfile
                }
            }
        };
        drop_left_behind(&mut client, profile);
        let database = fresh_database_name();
        client
            .batch_execute(&format!(
                "CREATE DATABASE {}",
                profile.quote_ident(&database)
            ))
            .map_err(failed(format!("creating database {database}")))?;
        let mut config = admin.clone();
        config.dbname(&database);
        let mut monitor = config
            .connect(NoTls)
            .map_err(failed(format!("connecting to database {database}")))?;
        let deadlock_timeout = monitor
            .query_one("SHOW deadlock_timeout", &[])
            .ok()
            .and_then(|row| parse_pg_duration(row.get(0)))
            .unwrap_or(Duration::from_secs(1));
        let reporting = deadlock_check_reporting(&mut monitor);
        let version: String = monitor
            .query_one("SHOW server_version", &[])
            .map_err(failed("asking the server's version"))?
            .get(0);
        let version = version.split_whitespace().next().unwrap_or("").to_string();
        let dropping = config
            .connect(NoTls)
            .map_err(failed(format!("connecting to database {database}")))?;
        let housekeeper = Housekeeper::new(PgHousework {
            profile,
            client: dropping,
        });
        Ok(PgTarget {
            profile,
            admin,
            database,
            pool: Arc::new(Pool::new(config)),
            monitor: Arc::new(Mutex::new(monitor)),
            housekeeper: Arc::new(housekeeper),
            deadlock_timeout,
            reporting,
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

/// `admin` through the server's Unix-domain socket, and a client connected so, when `admin`
/// reaches it over the loopback interface and the socket is on this machine: a round trip
/// costs a third of one over TCP (as MySQL clients prefer the socket for `localhost`). `None`
/// otherwise, or when the socket refuses the connection.
fn over_local_socket(admin: &Config, client: &mut Client) -> Option<(Config, Client)> {
    let loopback = (admin.get_hosts().iter()).all(|h| match h {
        postgres::config::Host::Tcp(name) => {
            name == "localhost"
                || name
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        }
        _ => false,
    });
    if !loopback || admin.get_hosts().is_empty() {
        return None;
    }
    let mut setting = |name: &str| -> Option<String> {
        client
            .query_one(&format!("SHOW {name}"), &[])
            .ok()
            .map(|row| row.get(0))
    };
    let port: u16 = setting("port")?.parse().ok()?;
    let dirs = setting("unix_socket_directories")?;
    let dir = (dirs.split(',').map(str::trim))
        .find(|d| Path::new(d).join(format!(".s.PGSQL.{port}")).exists())?;
    let mut local = Config::new();
    local.host_path(dir).port(port);
    if let Some(user) = admin.get_user() {
        local.user(user);
    }
    if let Some(password) = admin.get_password() {
        local.password(password);
    }
    if let Some(dbname) = admin.get_dbname() {
        local.dbname(dbname);
    }
    if let Some(options) = admin.get_options() {
        local.options(options);
    }
    if let Some(name) = admin.get_application_name() {
        local.application_name(name);
    }
    if let Some(timeout) = admin.get_connect_timeout() {
        local.connect_timeout(*timeout);
    }
    let connected = local.connect(NoTls).ok()?;
    Some((local, connected))
}

/// Settings for a superuser's sessions: the lock manager logs each deadlock check of a wait
/// (`log_lock_waits`), to the client (`client_min_messages`) and not to the server's log
/// (`log_min_messages`: these are txhunt's, not the administrator's).
const REPORTING_AS_SUPERUSER: &[&str] = &[
    "SET log_lock_waits = on",
    "SET log_min_messages = warning",
    "SET client_min_messages = log",
];

/// Settings for any user's sessions where the server logs lock waits already.
const REPORTING: &[&str] = &["SET client_min_messages = log"];

/// The session settings under which the server reports each deadlock check to the waiting
/// session (see [`DeadlockCheck::reported`]), asked on `monitor`: a superuser sets
/// `log_lock_waits` for its own sessions; another user's sessions can be told only when the
/// server logs lock waits already. `None` where neither holds (CockroachDB has no such
/// setting): the executor then sleeps past the check's delay.
fn deadlock_check_reporting(monitor: &mut Client) -> Option<&'static [&'static str]> {
    if monitor.batch_execute("SET log_lock_waits = on").is_ok() {
        return Some(REPORTING_AS_SUPERUSER);
    }
    let on = monitor
        .query_one("SHOW log_lock_waits", &[])
        .is_ok_and(|row| row.get::<_, String>(0) == "on");
    on.then_some(REPORTING)
}

/// Drops the databases runs that are gone left on the server ([`left_behind`]) and no session
/// uses; a failure is only logged.
fn drop_left_behind(client: &mut Client, profile: &dyn ServerProfile) {
    let names = client.query(
        "SELECT datname FROM pg_database WHERE datname LIKE 'txhunt\\_%' \
         AND datname NOT IN (SELECT datname FROM pg_stat_activity WHERE datname IS NOT NULL)",
        &[],
    );
    let names: Vec<String> = match names {
        Ok(rows) => rows.iter().map(|r| r.get(0)).collect(),
        Err(e) => return tracing::warn!("listing databases: {}", connection::describe(&e)),
    };
    for name in left_behind(names) {
        let drop = format!("DROP DATABASE IF EXISTS {}", profile.quote_ident(&name));
        match client.batch_execute(&drop) {
            Ok(()) => tracing::info!("dropped {name}, left behind by a run that is gone"),
            Err(e) => tracing::warn!("could not drop {name}: {}", connection::describe(&e)),
        }
    }
}

impl Target for PgTarget {
    fn name(&self) -> String {
        self.profile.name().to_string()
    }

    fn version(&self) -> String {
        self.version.clone()
    }

    fn profile(&self) -> &dyn crate::profile::Profile {
        self.profile
    }

    /// Name, version and settings.
    fn label(&self) -> String {
        format!("{} {}{}", self.name(), self.version, self.settings.suffix())
    }

    fn replay_spec(&self) -> String {
        format!("{}{}", self.name(), self.settings.suffix())
    }

    fn deadlock_check(&self) -> DeadlockCheck {
        DeadlockCheck {
            delay: self.deadlock_timeout,
            reported: self.reporting.is_some(),
        }
    }

    fn max_sessions(&self) -> usize {
        crate::target::SERVER_MAX_SESSIONS
    }

    fn private_server(&self) -> Option<&Server> {
        self.server.as_deref()
    }

    /// A schema created ahead (no round trip), else a new one.
    fn create_database(&self) -> Result<Box<dyn Database>, TargetError> {
        let name = match self.housekeeper.take_ready() {
            Some(name) => name,
            None => {
                let name = fresh_database_name();
                let create = format!("CREATE SCHEMA {}", self.profile.quote_ident(&name));
                (self.monitor.lock().unwrap_or_else(|p| p.into_inner()))
                    .batch_execute(&create)
                    .map_err(failed(format!("creating schema {name}")))?;
                name
            }
        };
        Ok(Box::new(PgDatabase {
            name,
            profile: self.profile,
            reporting: self.reporting.unwrap_or_default(),
            pool: Arc::clone(&self.pool),
            monitor: Arc::clone(&self.monitor),
            housekeeper: Arc::clone(&self.housekeeper),
            row_types: Arc::default(),
        }))
    }
}

impl Drop for PgTarget {
    /// Waits for the schemas being dropped, ends any session still on the target's database,
    /// then drops it (PostgreSQL 10–18).
    fn drop(&mut self) {
        self.housekeeper.finish();
        let Ok(mut admin) = self.admin.connect(NoTls) else {
            return; // the server is gone (a crash test): nothing left to drop
        };
        let name = self.profile.quote_ident(&self.database);
        end_and_drop(&mut admin, "datname", &self.database, "DATABASE", &name);
    }
}

/// For `map_err`: a driver error met while doing `context`, described for people.
fn failed(context: impl Into<String>) -> impl FnOnce(postgres::Error) -> TargetError {
    let context = context.into();
    move |e| TargetError::db(context, connection::describe(&e))
}

/// A duration as `SHOW` prints it: `5ms`, `1s`, `2min`.
fn parse_pg_duration(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = text.split_at(split);
    let n: u64 = number.parse().ok()?;
    Some(match unit {
        "us" => Duration::from_micros(n),
        "ms" => Duration::from_millis(n),
        "s" => Duration::from_secs(n),
        "min" => Duration::from_secs(n * 60),
        _ => return None,
    })
}

/// Terminates the sessions whose `pg_stat_activity.<column>` is `value`, then drops the
/// `kind` (`DATABASE` or `SCHEMA`) named `name`; failures are logged (the server may be gone).
fn end_and_drop(client: &mut Client, column: &str, value: &str, kind: &str, name: &str) {
    let terminate = format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE {column} = $1 AND pid <> pg_backend_pid()"
    );
    let _ = client.execute(terminate.as_str(), &[&value]);
    let cascade = if kind == "SCHEMA" { " CASCADE" } else { "" };
    if let Err(e) = client.batch_execute(&format!("DROP {kind} IF EXISTS {name}{cascade}")) {
        tracing::warn!("could not drop {kind} {name}: {}", connection::describe(&e));
    }
}

/// One schema txhunt created for an execution; dropped on drop (in the background,
/// [`Housekeeper`]).
struct PgDatabase {
    name: String,
    profile: &'static dyn ServerProfile,
    /// The settings that make sessions report deadlock checks (empty where none can).
    reporting: &'static [&'static str],
    pool: Arc<Pool>,
    monitor: Arc<Mutex<Client>>,
    housekeeper: Arc<Housekeeper<DropJob>>,
    /// The result column types its sessions learned, once its schema is fixed.
    row_types: Arc<connection::RowTypes>,
}

/// A schema to drop: its name, and its name as SQL spells it.
struct DropJob {
    name: String,
    quoted: String,
}

impl DropJob {
    /// Ends any session of the schema's execution still open (they carry its name as
    /// `application_name`), then drops it, on `client`.
    fn run(&self, client: &mut Client) {
        end_and_drop(
            client,
            "application_name",
            &self.name,
            "SCHEMA",
            &self.quoted,
        );
    }
}

/// The housekeeping of a target's schemas, on a session of its own.
struct PgHousework {
    profile: &'static dyn ServerProfile,
    client: Client,
}

impl Housework for PgHousework {
    type Used = DropJob;

    fn drop_used(&mut self, job: DropJob) {
        job.run(&mut self.client);
    }

    fn create(&mut self, name: &str) -> bool {
        let create = format!("CREATE SCHEMA {}", self.profile.quote_ident(name));
        match self.client.batch_execute(&create) {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!("{create}: {}", connection::describe(&e));
                false
            }
        }
    }

    fn drop_unused(&mut self, name: &str) {
        let quoted = self.profile.quote_ident(name);
        end_and_drop(
            &mut self.client,
            "application_name",
            name,
            "SCHEMA",
            &quoted,
        );
    }
}

impl Database for PgDatabase {
    fn connect(
        &self,
        config: SessionConfig,
        hook: Option<Arc<dyn LockWaitHook>>,
    ) -> Result<Box<dyn Connection>, TargetError> {
        let mut setup = self.profile.session_setup(config)?;
        setup.insert(0, self.search_path());
        setup.insert(0, format!("SET application_name = '{}'", self.name));
        if hook.is_some() {
            setup.extend(self.reporting.iter().map(|s| s.to_string()));
        }
        let pooled = self.pool.take().map_err(failed("opening a session"))?;
        let (pool, row_types) = (Arc::clone(&self.pool), Arc::clone(&self.row_types));
        let conn = PgConnection::new(pooled, hook, &setup, self.profile, pool, row_types)
            .map_err(|(context, e)| failed(context)(e))?;
        Ok(Box::new(conn))
    }

    fn final_state(&self) -> Result<DbState, TargetError> {
        let mut monitor = self.monitor.lock().unwrap_or_else(|p| p.into_inner());
        connection::dump(&mut monitor, self.profile, &self.name)
    }

    fn lock_probe(&self) -> Option<Arc<dyn LockProbe>> {
        Some(Arc::new(PgProbe {
            profile: self.profile,
            monitor: Arc::clone(&self.monitor),
        }))
    }
}

impl PgDatabase {
    fn search_path(&self) -> String {
        format!(
            "SET search_path TO {}",
            self.profile.quote_ident(&self.name)
        )
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        let job = DropJob {
            name: self.name.clone(),
            quoted: self.profile.quote_ident(&self.name),
        };
        if let Err(job) = self.housekeeper.hand(job) {
            job.run(&mut self.monitor.lock().unwrap_or_else(|p| p.into_inner()));
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
                ProbeQuery::InnodbStatus | ProbeQuery::ProcessList => false,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_durations_as_show_prints_them() {
        assert_eq!(parse_pg_duration("5ms"), Some(Duration::from_millis(5)));
        assert_eq!(parse_pg_duration("1s"), Some(Duration::from_secs(1)));
        assert_eq!(parse_pg_duration("2min"), Some(Duration::from_secs(120)));
        assert_eq!(parse_pg_duration("soon"), None);
    }
}
