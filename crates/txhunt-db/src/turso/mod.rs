//! The embedded Turso target (the `turso` crate), normal or MVCC mode; see
//! [`crate::profile::turso`].
//!
//! One Turso version is compiled in ([`VERSION`]): the newest release (0.8.3, cargo feature
//! `turso-release`, on by default) or the newest pre-release (0.9.0-pre.2, feature
//! `turso-next`: `cargo build -p txhunt --no-default-features --features turso-next`). Two
//! cannot live in one binary: their C-ABI extension functions (`Median_init`, …) clash at link
//! time.
//!
//! Every execution gets a fresh database file in a temp directory txhunt creates (prefix
//! `txhunt_`) and deletes when the execution ends; its sessions are connections of one
//! `turso::Database`. Turso's API is async: each call is driven to its end on the calling
//! session's thread (`futures::executor::block_on`; Turso needs no runtime).
//!
//! Settings (`turso-mvcc?mvcc_checkpoint_threshold=0&mvcc_gc_threshold=1`) are PRAGMAs run on
//! every fresh database before its sessions open, and on every session (a connection's own
//! PRAGMAs, such as `cache_size`, then hold for each); Turso's MVCC knobs are database-wide:
//! `mvcc_checkpoint_threshold` (bytes of logical log before an automatic checkpoint; 0 after
//! every commit, -1 never), `mvcc_gc_threshold` (new row versions before an inline garbage
//! collection; -1 never) and `mvcc_group_commit` (batch concurrent commits' log appends).

mod connection;

#[cfg(all(feature = "turso-release", feature = "turso-next"))]
compile_error!(
    "txhunt-db: turso-release and turso-next would link two Turso versions, whose C-ABI symbols clash; build with --no-default-features --features turso-next"
);

#[cfg(not(feature = "turso-next"))]
use ::turso as engine;
#[cfg(feature = "turso-next")]
use ::turso_next as engine;

/// The Turso version compiled in.
#[cfg(not(feature = "turso-next"))]
pub const VERSION: &str = "0.8.3";
/// The Turso version compiled in.
#[cfg(feature = "turso-next")]
pub const VERSION: &str = "0.9.0-pre.2";

use crate::profile::turso::{TURSO, TURSO_MVCC};
use crate::profile::Profile;
use crate::settings::Settings;
use crate::target::{
    Connection, Database, LockProbe, LockWaitHook, SessionConfig, Target, TargetError,
};
use connection::{dump, TursoConnection};
use futures::executor::block_on;
use std::path::PathBuf;
use std::sync::Arc;
use txhunt_model::DbState;

/// Embedded Turso.
pub struct TursoTarget {
    dir: Option<PathBuf>,
    mvcc: bool,
    settings: Settings,
}

impl TursoTarget {
    /// A Turso target (MVCC mode if `mvcc`) creating its database files under `dir` (the
    /// system temp dir if `None`).
    pub fn new(dir: Option<PathBuf>, mvcc: bool) -> Result<Self, TargetError> {
        let name = if mvcc { "turso-mvcc" } else { "turso" };
        let dir = crate::embedded::check_dir(name, dir)?;
        Ok(TursoTarget {
            dir,
            mvcc,
            settings: Settings::default(),
        })
    }

    /// The target with `settings` run as PRAGMAs on every fresh database; checked at once on a
    /// throwaway database, so that a name or value Turso refuses is an error now, naming it.
    pub fn with_settings(mut self, settings: Settings) -> Result<Self, TargetError> {
        self.settings = settings;
        if !self.settings.is_empty() {
            self.create_database()?;
        }
        Ok(self)
    }
}

impl Target for TursoTarget {
    fn name(&self) -> String {
        self.profile().name().into()
    }

    fn version(&self) -> String {
        VERSION.into()
    }

    fn label(&self) -> String {
        format!(
            "{} {}{}",
            self.name(),
            self.version(),
            self.settings.suffix()
        )
    }

    fn replay_spec(&self) -> String {
        format!("{}{}", self.name(), self.settings.suffix())
    }

    fn profile(&self) -> &dyn Profile {
        if self.mvcc {
            &TURSO_MVCC
        } else {
            &TURSO
        }
    }

    fn max_sessions(&self) -> usize {
        crate::embedded::MAX_SESSIONS
    }

    fn create_database(&self) -> Result<Box<dyn Database>, TargetError> {
        let dir = crate::embedded::temp_dir(self.dir.as_deref())?;
        let path = dir.path().join("db.turso");
        let path_text = path.to_string_lossy().into_owned();
        let db = block_on(engine::Builder::new_local(&path_text).build())
            .map_err(|e| TargetError::db(format!("opening {}", path.display()), e))?;
        if self.mvcc {
            let conn = db.connect().map_err(|e| TargetError::db("connecting", e))?;
            block_on(conn.pragma_update("journal_mode", "'mvcc'"))
                .map_err(|e| TargetError::db("switching Turso to MVCC", e))?;
        }
        if !self.settings.is_empty() {
            let conn = db.connect().map_err(|e| TargetError::db("connecting", e))?;
            for (name, value) in self.settings.iter() {
                block_on(set_pragma(&conn, name, value))?;
            }
        }
        Ok(Box::new(TursoDatabase {
            _dir: dir,
            db,
            mvcc: self.mvcc,
            settings: self.settings.clone(),
        }))
    }
}

/// Runs `PRAGMA name = value` and checks that Turso knows the name: it answers an unknown
/// PRAGMA, set or read, with nothing (as SQLite does), so one that reads back no row is refused.
async fn set_pragma(conn: &engine::Connection, name: &str, value: &str) -> Result<(), TargetError> {
    let setting = |e: engine::Error| TargetError::db(format!("setting {name}={value}"), e);
    conn.pragma_update(name, value).await.map_err(setting)?;
    let mut rows = conn
        .query(&format!("PRAGMA {name}"), ())
        .await
        .map_err(setting)?;
    if rows.next().await.map_err(setting)?.is_none() {
        return Err(TargetError::Spec(format!(
            "setting {name}={value}: Turso has no setting '{name}' (PRAGMA {name} answers nothing)"
        )));
    }
    Ok(())
}

/// One execution's database file and its `turso::Database`.
struct TursoDatabase {
    _dir: tempfile::TempDir,
    db: engine::Database,
    mvcc: bool,
    settings: Settings,
}

impl Database for TursoDatabase {
    fn connect(
        &self,
        _config: SessionConfig,
        hook: Option<Arc<dyn LockWaitHook>>,
    ) -> Result<Box<dyn Connection>, TargetError> {
        let conn = self
            .db
            .connect()
            .map_err(|e| TargetError::db("connecting", e))?;
        // Foreign keys are enforced, as in the `sqlite` target (rusqlite's bundled SQLite is
        // built with them on by default; Turso, like stock SQLite, starts with them off).
        block_on(conn.pragma_update("foreign_keys", "ON"))
            .map_err(|e| TargetError::db("enabling foreign keys", e))?;
        for (name, value) in self.settings.iter() {
            block_on(conn.pragma_update(name, value))
                .map_err(|e| TargetError::db(format!("setting {name}={value}"), e))?;
        }
        Ok(Box::new(TursoConnection::new(conn, hook, self.mvcc)))
    }

    fn final_state(&self) -> Result<DbState, TargetError> {
        let conn = self
            .db
            .connect()
            .map_err(|e| TargetError::db("connecting for the final state", e))?;
        block_on(dump(&conn)).map_err(|e| TargetError::db("reading the final state", e))
    }

    /// Turso needs no probe: the driver reports every `Busy` as a lock wait.
    fn lock_probe(&self) -> Option<Arc<dyn LockProbe>> {
        None
    }

    fn runs_in_process(&self) -> bool {
        true
    }
}
