//! txhunt's targets: the DBMSs it tests.
//!
//! A [`Target`] is one DBMS endpoint with its [`Profile`]. For every execution it creates a fresh,
//! private [`Database`] (txhunt never touches data it did not create), which hands out
//! [`Connection`]s, one per client session, each owned by one thread, and reads the final state.
//!
//! Drivers report lock waits as they happen through a [`LockWaitHook`]: the executor learns that
//! a statement is blocked from the DBMS itself instead of guessing from a timeout.

pub mod affinity;
#[cfg(feature = "duckdb")]
pub mod duckdb;
mod embedded;
mod housekeeper;
pub mod mysql;
mod open;
pub mod postgres;
pub mod profile;
pub mod scratch;
mod settings;
pub mod sqlite;
mod target;
pub mod testbed;
#[cfg(any(feature = "turso-release", feature = "turso-next"))]
pub mod turso;

pub use open::{open_target, open_targets, redact, testbed_profile};
pub use profile::{ErrorEffect, Profile, ServerProfile};
pub use settings::{rotation, Settings};
pub use target::{
    fresh_database_name, Connection, Database, DeadlockCheck, Interrupt, LockProbe, LockWaitHook,
    SessionConfig, Target, TargetError,
};
