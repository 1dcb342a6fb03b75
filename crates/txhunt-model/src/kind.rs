//! What kind of statement a piece of SQL is, from its leading keywords.

use serde::{Deserialize, Serialize};

/// The kind of a statement, as far as the execution protocol and the oracles care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StmtKind {
    /// `BEGIN`, `START TRANSACTION` (with any modifiers).
    Begin,
    /// `COMMIT`, `END`.
    Commit,
    /// `ROLLBACK` (not `ROLLBACK TO`).
    Rollback,
    /// `SAVEPOINT name`.
    Savepoint,
    /// `ROLLBACK TO [SAVEPOINT] name`.
    RollbackTo,
    /// `RELEASE [SAVEPOINT] name`.
    Release,
    /// `SELECT`, `WITH … SELECT`, `VALUES`, `TABLE`.
    Select,
    /// `INSERT`, `REPLACE`, `UPSERT`.
    Insert,
    /// `UPDATE`.
    Update,
    /// `DELETE`.
    Delete,
    /// Anything else (DDL, SET, PRAGMA, …).
    Other,
}

impl StmtKind {
    /// Classifies `sql` by its first keywords, skipping leading comments and parentheses.
    pub fn of(sql: &str) -> StmtKind {
        let words = leading_words(sql, 3);
        let word = |i: usize| words.get(i).map(String::as_str).unwrap_or("");
        match word(0) {
            "begin" | "start" => StmtKind::Begin,
            "commit" | "end" => StmtKind::Commit,
            "rollback" if word(1) == "to" || (word(1) == "work" && word(2) == "to") => {
                StmtKind::RollbackTo
            }
            "rollback" => StmtKind::Rollback,
            "savepoint" => StmtKind::Savepoint,
            "release" => StmtKind::Release,
            "select" | "with" | "values" | "table" => StmtKind::Select,
            "insert" | "replace" | "upsert" => StmtKind::Insert,
            "update" => StmtKind::Update,
            "delete" => StmtKind::Delete,
            _ => StmtKind::Other,
        }
    }

    /// Whether this statement ends a transaction (COMMIT or ROLLBACK).
    pub fn ends_txn(self) -> bool {
        matches!(self, StmtKind::Commit | StmtKind::Rollback)
    }

    /// Whether this statement controls the transaction (BEGIN, COMMIT, ROLLBACK, SAVEPOINT,
    /// ROLLBACK TO, RELEASE) and touches no rows.
    pub fn is_transaction_control(self) -> bool {
        matches!(
            self,
            StmtKind::Begin
                | StmtKind::Commit
                | StmtKind::Rollback
                | StmtKind::Savepoint
                | StmtKind::RollbackTo
                | StmtKind::Release
        )
    }

    /// Whether this statement writes rows (and reports an affected-row count).
    pub fn is_write(self) -> bool {
        matches!(self, StmtKind::Insert | StmtKind::Update | StmtKind::Delete)
    }
}

/// Whether `sql` may change what sessions opened after it start with: a `SET` of any scope
/// (`SET GLOBAL` is one), a `PRAGMA`, server, database, role or user settings (`ALTER SYSTEM`,
/// `ALTER DATABASE|SCHEMA|ROLE|USER`), users, roles and grants. Sessions are opened ahead of a
/// setup only where no setup statement does any of this.
pub fn configures_sessions(sql: &str) -> bool {
    let words = leading_words(sql, 2);
    let word = |i: usize| words.get(i).map(String::as_str).unwrap_or("");
    match word(0) {
        "set" | "pragma" | "grant" | "revoke" => true,
        "alter" => matches!(word(1), "system" | "database" | "schema" | "role" | "user"),
        "create" | "drop" => matches!(word(1), "role" | "user"),
        _ => false,
    }
}

/// The first `n` words of `sql`, lower-cased, after comments and opening parentheses.
fn leading_words(sql: &str, n: usize) -> Vec<String> {
    let mut rest = sql.trim_start();
    loop {
        if let Some(r) = rest.strip_prefix("--") {
            rest = r
                .split_once('\n')
                .map_or("", |(_, after)| after)
                .trim_start();
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r
                .split_once("*/")
                .map_or("", |(_, after)| after)
                .trim_start();
        } else if let Some(r) = rest.strip_prefix('(') {
            rest = r.trim_start();
        } else {
            break;
        }
    }
    rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .take(n)
        .map(str::to_ascii_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_users_and_grants_configure_sessions_and_tables_and_rows_do_not() {
        for sql in [
            "SET GLOBAL innodb_lock_wait_timeout = 1",
            "/* c */ set @@global.tx_isolation = 'SERIALIZABLE'",
            "ALTER SYSTEM SET default_transaction_isolation = 'serializable'",
            "ALTER DATABASE d SET default_transaction_isolation = 'serializable'",
            "CREATE USER u",
            "GRANT SELECT ON t TO u",
            "PRAGMA foreign_keys = ON",
        ] {
            assert!(configures_sessions(sql), "{sql}");
        }
        for sql in [
            "CREATE TABLE t (k INT)",
            "ALTER TABLE t ADD COLUMN v INT",
            "INSERT INTO settings VALUES (1)",
            "CREATE INDEX i ON t (k)",
            "DROP TABLE t",
        ] {
            assert!(!configures_sessions(sql), "{sql}");
        }
    }

    #[test]
    fn classifies_control_and_dml() {
        assert_eq!(StmtKind::of("BEGIN"), StmtKind::Begin);
        assert_eq!(StmtKind::of("start transaction read only"), StmtKind::Begin);
        assert_eq!(
            StmtKind::of("ROLLBACK TO SAVEPOINT a"),
            StmtKind::RollbackTo
        );
        assert_eq!(StmtKind::of("ROLLBACK WORK TO a"), StmtKind::RollbackTo);
        assert_eq!(StmtKind::of("rollback"), StmtKind::Rollback);
        assert_eq!(StmtKind::of("/* x */ (SELECT 1)"), StmtKind::Select);
        assert_eq!(StmtKind::of("REPLACE INTO t VALUES (1)"), StmtKind::Insert);
        assert_eq!(StmtKind::of("CREATE TABLE t(a INT)"), StmtKind::Other);
    }
}
