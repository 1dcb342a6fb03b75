//! Semantics: the concurrency-control model a DBMS claims, and where its documentation states
//! the parts of it in which two DBMSs may legitimately differ (how it controls concurrency,
//! which transaction a deadlock aborts, which SQL it accepts).
//!
//! Targets that claim the same semantics (SQLite and Turso's normal mode; every PostgreSQL
//! major) must wait, refuse and answer alike. Between targets that claim different semantics
//! a difference in those parts is a design difference, and it is explained by citing both
//! DBMSs' documentation, never by a catch-all reason.

/// A concurrency-control model and its documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Semantics {
    /// Its name, e.g. `sqlite`.
    pub name: &'static str,
    /// Where the DBMS documents how it controls concurrency (locks, snapshots, conflict
    /// checks): which statement waits and which one is refused follow from it.
    pub concurrency_control: &'static str,
    /// Where it documents what it does on a deadlock, and so which transaction it aborts.
    pub deadlocks: &'static str,
    /// Whether that documentation leaves the choice of the aborted transaction to the engine
    /// (a heuristic, a race, chance), so that two versions may abort different transactions;
    /// false where it states a rule (SQLite: the connection whose wait could deadlock).
    pub victim_unpredictable: bool,
    /// Where it documents the SQL it accepts.
    pub dialect: &'static str,
    /// Where it documents what an error does to the transaction it happens in: fails only the
    /// statement, or aborts the transaction.
    pub errors: &'static str,
}

/// SQLite's locking model (and Turso's normal mode, which claims it).
pub const SQLITE: Semantics = Semantics {
    name: "sqlite",
    concurrency_control: "SQLite documentation, File Locking And Concurrency In SQLite Version 3; Isolation In SQLite; Write-Ahead Logging",
    deadlocks: "SQLite documentation, sqlite3_busy_handler (SQLITE_BUSY is returned at once instead of waiting where waiting could deadlock)",
    victim_unpredictable: false,
    dialect: "SQLite documentation, SQL As Understood By SQLite",
    errors: "SQLite documentation, Response To Errors Within A Transaction (most errors fail only the statement)",
};

/// Turso's MVCC mode (`BEGIN CONCURRENT`).
pub const TURSO_MVCC: Semantics = Semantics {
    name: "turso-mvcc",
    concurrency_control: "Turso documentation, Concurrent Writes (docs.turso.tech/tursodb/concurrent-writes) § BEGIN CONCURRENT",
    deadlocks: "Turso documentation, Concurrent Writes (a write-write conflict fails the later writer at once: nothing waits, so nothing deadlocks)",
    victim_unpredictable: false,
    dialect: "Turso documentation, SQLite compatibility (COMPAT.md of tursodatabase/turso)",
    errors: "Turso documentation, SQLite compatibility (errors as in SQLite; a write-write conflict rolls the transaction back)",
};

/// DuckDB: MVCC with optimistic concurrency control.
pub const DUCKDB: Semantics = Semantics {
    name: "duckdb",
    concurrency_control: "DuckDB documentation, Concurrency § Concurrency Model within a Single Process (MVCC and optimistic concurrency control: the second edit of a row fails with a conflict)",
    deadlocks: "DuckDB documentation, Concurrency (nothing waits: a conflicting edit fails at once, so nothing deadlocks)",
    victim_unpredictable: false,
    dialect: "DuckDB documentation, SQL Introduction and SQL Dialect § Friendly SQL",
    errors: "DuckDB documentation, Transaction Management (an error raised while a statement runs aborts the transaction: later statements fail with \"Current transaction is aborted\" until ROLLBACK)",
};

/// PostgreSQL, every major version.
pub const POSTGRES: Semantics = Semantics {
    name: "postgres",
    concurrency_control: "PostgreSQL 15 documentation, Chapter 13 Concurrency Control (§13.2 Transaction Isolation, §13.3 Explicit Locking)",
    deadlocks: "PostgreSQL 15 documentation §13.3.4 (Deadlocks: which transaction is aborted is difficult to predict and should not be relied upon)",
    victim_unpredictable: true,
    dialect: "PostgreSQL 15 documentation, Part VI Reference, SQL Commands",
    errors: "PostgreSQL 15 documentation §3.4 Transactions and Appendix A (25P02: after any error the transaction is aborted until ROLLBACK)",
};

/// MariaDB's InnoDB.
pub const MARIADB: Semantics = Semantics {
    name: "mariadb",
    concurrency_control: "MariaDB KB, InnoDB Lock Modes and SET TRANSACTION (isolation levels)",
    deadlocks: "MariaDB KB, InnoDB Lock Modes (deadlocks); MySQL 8.0 Reference Manual §17.7.5.2 (InnoDB rolls back the smallest transaction, by rows inserted, updated or deleted)",
    victim_unpredictable: true,
    dialect: "MariaDB KB, SQL Statements",
    errors: "MariaDB KB, InnoDB Error Handling (most errors roll back only the statement; a deadlock rolls back the transaction)",
};

/// MariaDB's InnoDB with `innodb_snapshot_isolation=ON`: a REPEATABLE READ write to a row its
/// read view does not show is refused (error 1020) where plain MariaDB locks and writes it.
pub const MARIADB_SNAPSHOT: Semantics = Semantics {
    name: "mariadb-snapshot-isolation",
    concurrency_control: "MariaDB KB, InnoDB Lock Modes and InnoDB System Variables § innodb_snapshot_isolation (a lock on a record not in the read view fails with ER_CHECKREAD)",
    ..MARIADB
};

/// MySQL's InnoDB.
pub const MYSQL: Semantics = Semantics {
    name: "mysql",
    concurrency_control: "MySQL 8.0 Reference Manual §17.7 (InnoDB Locking and Transaction Model)",
    deadlocks: "MySQL 8.0 Reference Manual §17.7.5.2 (Deadlock Detection: InnoDB rolls back the smallest transaction, by rows inserted, updated or deleted)",
    victim_unpredictable: true,
    dialect: "MySQL 8.0 Reference Manual, Chapter 15 SQL Statements",
    errors: "MySQL 8.0 Reference Manual §17.21.5 (InnoDB Error Handling: most errors roll back only the statement)",
};

/// TiDB's pessimistic transactions.
pub const TIDB: Semantics = Semantics {
    name: "tidb",
    concurrency_control: "TiDB documentation, Pessimistic Transaction Mode and TiDB Transaction Isolation Levels",
    deadlocks: "TiDB documentation, Pessimistic Transaction Mode (deadlock detection: the transaction that closes the cycle fails with error 1213)",
    victim_unpredictable: true,
    dialect: "TiDB documentation, MySQL Compatibility and SQL Statement Overview",
    errors: "TiDB documentation, Transactions § Statement rollback (a failed statement is rolled back, the transaction goes on)",
};

/// CockroachDB.
pub const COCKROACH: Semantics = Semantics {
    name: "cockroach",
    concurrency_control: "CockroachDB documentation, Transactions (§ Isolation levels, § Transaction contention) and Architecture, Transaction Layer",
    deadlocks: "CockroachDB documentation, Architecture, Transaction Layer § TxnWaitQueue (a deadlock aborts one of its transactions at random)",
    victim_unpredictable: true,
    dialect: "CockroachDB documentation, SQL Statements and PostgreSQL Compatibility",
    errors: "CockroachDB documentation, Transactions § Error handling (after an error the transaction must be rolled back)",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_semantics_names_its_documentation() {
        let all = [
            SQLITE,
            TURSO_MVCC,
            DUCKDB,
            POSTGRES,
            MARIADB,
            MARIADB_SNAPSHOT,
            MYSQL,
            TIDB,
            COCKROACH,
        ];
        let mut names: Vec<&str> = all.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len(), "names are unique");
        for s in all {
            for doc in [s.concurrency_control, s.deadlocks, s.dialect, s.errors] {
                assert!(
                    doc.contains("documentation") || doc.contains("Manual") || doc.contains("KB"),
                    "{}: {doc}",
                    s.name
                );
            }
        }
    }
}
