//! txhunt's plain data.
//!
//! A [`TestCase`] (setup SQL, sessions' statements in submitted order, expectations) is executed
//! on a target and yields a [`History`] (what every statement did, the actual schedule, which
//! transactions committed, the final [`DbState`]). Both are plain data with a JSON form (serde);
//! test cases also have a human text form, the scenario language of [`scenario`].

pub mod access;
pub mod adya;
pub mod case;
pub mod check;
pub mod error;
pub mod expect;
pub mod family;
pub mod history;
pub mod isolation;
pub mod kind;
pub mod outcome;
/// APTrans's 46 anomaly patterns (paper 004) as data, with their dependency edges.
pub mod pattern;
pub mod scenario;
pub mod state;
pub mod template;
pub mod value;

pub use case::{Header, Step, Stmt, TestCase, Txn};
pub use check::{check, Check};
pub use error::{DbError, ErrorClass};
pub use expect::{Expect, TableExpect};
pub use family::SqlFamily;
pub use history::{Event, History, StepRecord, TxnRecord, TxnStatus};
pub use isolation::{Isolation, Mode};
pub use kind::StmtKind;
pub use outcome::Outcome;
pub use state::DbState;
pub use value::{Row, Value};
