//! Claims: the behaviours a DBMS documents for an isolation level beyond what the level's
//! name says (InnoDB's semi-consistent read, PostgreSQL's statement snapshots at READ
//! COMMITTED, snapshot isolation's write skew, …), each with the manual section that states it
//! and the stronger levels where it is documented to be off.
//!
//! A claim is a fact about the DBMS, not a verdict: what a claim may excuse, and how to show
//! that the behaviour is at work in a run, is decided above this crate.

use txhunt_model::Isolation;

/// A documented behaviour that lets a level do less than serializability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Behaviour {
    /// An UPDATE skips a row another transaction locked when the row's newest committed version
    /// does not match its WHERE clause, without waiting (InnoDB below REPEATABLE READ; TiDB's
    /// pessimistic UPDATE at every level).
    SemiConsistentRead,
    /// A statement reads rows other transactions have not committed.
    DirtyRead,
    /// Index records are locked but not the gaps between them, so an insert into a range
    /// another transaction read, updated or deleted is not blocked.
    NoGapLocks,
    /// A write statement reads the rows of its subqueries (and an INSERT … SELECT its source
    /// rows) without locking them, so another transaction may change them before the writer
    /// commits.
    UnlockedSourceReads,
    /// A locking read's locking clause locks its own rows only: its subqueries are consistent
    /// reads, so one that waits for a lock reads its subqueries before the wait and its own
    /// rows after (InnoDB at every level; below REPEATABLE READ [`Behaviour::UnlockedSourceReads`]
    /// says it for writes too).
    LockingReadSubqueries,
    /// A write statement (and a locking read) reads the newest committed versions of the rows
    /// it matches and of its subqueries' rows, not its transaction's snapshot, so it may act on
    /// rows the transaction's plain SELECTs do not see (InnoDB at REPEATABLE READ).
    LatestCommittedWrites,
    /// Each statement reads a snapshot taken when it starts, and a waiting UPDATE or DELETE
    /// re-checks only the rows it had found (PostgreSQL's READ COMMITTED).
    StatementSnapshots,
    /// A transaction reads one snapshot, so its writes may follow a serial order in which it
    /// precedes transactions that committed before it.
    SnapshotOrder,
    /// Snapshot isolation's write skew: two transactions each write from a snapshot that
    /// misses the other's write.
    WriteSkew,
    /// The result equals some serial order of the transactions, not their commit order
    /// (serializable snapshot isolation).
    SomeSerialOrder,
    /// A statement may be refused with a serialization failure where no anomaly would have
    /// resulted: conflict tracking is conservative, and what it refuses depends on the
    /// implementation (PostgreSQL's SSI; SQLite's stale-snapshot check per database file).
    NeedlessRefusal,
}

impl Behaviour {
    /// The behaviour's stable name, e.g. `semi-consistent-read`.
    pub fn name(self) -> &'static str {
        match self {
            Behaviour::SemiConsistentRead => "semi-consistent-read",
            Behaviour::DirtyRead => "dirty-read",
            Behaviour::NoGapLocks => "no-gap-locks",
            Behaviour::UnlockedSourceReads => "unlocked-source-reads",
            Behaviour::LockingReadSubqueries => "locking-read-subqueries",
            Behaviour::LatestCommittedWrites => "latest-committed-writes",
            Behaviour::StatementSnapshots => "read-committed",
            Behaviour::SnapshotOrder => "snapshot-order",
            Behaviour::WriteSkew => "write-skew",
            Behaviour::SomeSerialOrder => "ssi-order",
            Behaviour::NeedlessRefusal => "needless-refusal",
        }
    }
}

/// One documented behaviour of a DBMS at one isolation level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    /// What the DBMS does.
    pub behaviour: Behaviour,
    /// One line saying it in the DBMS's terms.
    pub reason: &'static str,
    /// Where the DBMS documents it (manual section).
    pub source: &'static str,
    /// The stronger levels, most discriminating first, where the manual says the behaviour is
    /// off (empty: no level of this DBMS switches it off).
    pub off_at: &'static [Isolation],
}

/// InnoDB's semi-consistent read (MySQL, MariaDB at READ UNCOMMITTED / READ COMMITTED).
pub const INNODB_SEMI_CONSISTENT_READ: Claim = Claim {
    behaviour: Behaviour::SemiConsistentRead,
    reason: "below REPEATABLE READ an UPDATE that meets a row locked by another transaction reads its latest committed version and skips it without waiting when that version does not match the WHERE clause",
    source: "MySQL 8.0 Reference Manual §17.7.2.1 (READ COMMITTED: semi-consistent read); MariaDB KB, InnoDB Lock Modes",
    off_at: &[Isolation::RepeatableRead],
};

/// TiDB's pessimistic UPDATE skipping rows whose newest committed version does not match
/// (paper 001 §6.4.2: at READ COMMITTED and at REPEATABLE READ).
pub const TIDB_SEMI_CONSISTENT_READ: Claim = Claim {
    behaviour: Behaviour::SemiConsistentRead,
    reason: "an UPDATE evaluates its WHERE clause on the newest committed version of each row and locks only the rows that match, so rows that come to match while it waits are not updated",
    source: "TiDB documentation, Pessimistic Transaction Mode (§ Behaviors) and Read Committed Isolation Level; paper 001 §6.4.2",
    off_at: &[],
};

/// InnoDB's dirty reads at READ UNCOMMITTED.
pub const INNODB_DIRTY_READ: Claim = Claim {
    behaviour: Behaviour::DirtyRead,
    reason: "at READ UNCOMMITTED a statement may read rows other transactions have not committed, and write what it computed from them",
    source: "MySQL 8.0 Reference Manual §17.7.2.1 (READ UNCOMMITTED); MariaDB KB, SET TRANSACTION",
    off_at: &[Isolation::ReadCommitted],
};

/// InnoDB's missing gap locks below REPEATABLE READ.
pub const INNODB_NO_GAP_LOCKS: Claim = Claim {
    behaviour: Behaviour::NoGapLocks,
    reason: "below REPEATABLE READ InnoDB locks index records but not the gaps between them, so a concurrent insert into a range another transaction deleted, updated or read is not blocked",
    source: "MySQL 8.0 Reference Manual §17.7.1 (Gap Locks) and §17.7.2.1 (READ COMMITTED); MariaDB KB, InnoDB Lock Modes",
    off_at: &[Isolation::RepeatableRead],
};

/// InnoDB's consistent (unlocked) reads of a write's or locking read's subqueries and
/// INSERT … SELECT sources below REPEATABLE READ.
pub const INNODB_UNLOCKED_SOURCE_READS: Claim = Claim {
    behaviour: Behaviour::UnlockedSourceReads,
    reason: "below REPEATABLE READ InnoDB reads the rows of an UPDATE's, DELETE's or locking read's subqueries and an INSERT … SELECT's source rows as a consistent read, without locks, on a snapshot of its own, so another transaction may change them before the statement ends: one that waits for a lock reads its subqueries as they were before the wait and the rows it locks as they are after",
    source: "MySQL 8.0 Reference Manual §17.7.3 (Locks Set by Different SQL Statements in InnoDB: INSERT INTO T SELECT … FROM S, READ COMMITTED), §17.7.2.4 (Locking Reads: a locking read clause in an outer statement does not lock the rows of a table in a nested subquery) and §17.7.2.1; MariaDB KB, InnoDB Lock Modes",
    off_at: &[Isolation::RepeatableRead],
};

/// InnoDB's locking reads at REPEATABLE READ: their subqueries are consistent reads, on the
/// transaction's snapshot.
pub const INNODB_LOCKING_READ_SUBQUERIES: Claim = Claim {
    behaviour: Behaviour::LockingReadSubqueries,
    reason: "a locking read clause locks the rows of its own query block only: a locking read's subqueries are consistent reads, without locks, so one that waits for a lock reads its subqueries as they were before the wait and its own rows (the newest committed versions) after",
    source: "MySQL 8.0 Reference Manual §17.7.2.4 (Locking Reads: a locking read clause in an outer statement does not lock the rows of a table in a nested subquery unless a locking read clause is also specified in the subquery) and §17.7.2.3; MariaDB KB, InnoDB Lock Modes",
    off_at: &[],
};

/// InnoDB's writes and locking reads at REPEATABLE READ: the newest committed versions, not
/// the transaction's snapshot (MySQL bug #108528 and MariaDB's MDEV-29565, paper 002 Figure 1).
pub const INNODB_LATEST_COMMITTED_WRITES: Claim = Claim {
    behaviour: Behaviour::LatestCommittedWrites,
    reason: "at REPEATABLE READ the snapshot applies to plain SELECTs only: an UPDATE, DELETE or INSERT … SELECT, its subqueries, and a locking read read the newest committed versions of rows, with locks, so a write may match or compute from rows committed after its transaction's snapshot that the transaction's SELECTs do not see (MariaDB refuses such a write with error 1020 instead when innodb_snapshot_isolation is ON; it is OFF by default before 11.6)",
    source: "MySQL 8.0 Reference Manual §17.7.2.3 (Consistent Nonlocking Reads: the snapshot applies to SELECT statements, not necessarily to DML) and §17.7.3 (UPDATE t … WHERE col IN (SELECT … FROM s) sets shared next-key locks on rows from s); MariaDB KB, InnoDB System Variables § innodb_snapshot_isolation",
    off_at: &[Isolation::Serializable],
};

/// MariaDB's REPEATABLE READ with `innodb_snapshot_isolation=ON`: one read view, opened by the
/// transaction's first consistent read.
pub const INNODB_SNAPSHOT_ORDER: Claim = Claim {
    behaviour: Behaviour::SnapshotOrder,
    reason: "a REPEATABLE READ transaction reads the read view opened by its first consistent read (not at BEGIN), and with innodb_snapshot_isolation=ON its writes never act on rows changed after it, so its writes can follow a serial order in which it precedes transactions that committed before it",
    source: "MySQL 8.0 Reference Manual §17.7.2.3 (Consistent Nonlocking Reads: the snapshot is established by the first consistent read); MariaDB KB, InnoDB System Variables § innodb_snapshot_isolation",
    off_at: &[],
};

/// MariaDB's REPEATABLE READ write skew with `innodb_snapshot_isolation=ON`.
pub const INNODB_WRITE_SKEW: Claim = Claim {
    behaviour: Behaviour::WriteSkew,
    reason: "with innodb_snapshot_isolation=ON REPEATABLE READ is snapshot isolation: only writes to rows changed since the read view are refused, so two transactions may each write from a read view that misses the other's write (write skew); SERIALIZABLE prevents it",
    source: "MariaDB KB, InnoDB System Variables § innodb_snapshot_isolation; MariaDB KB, SET TRANSACTION (SERIALIZABLE)",
    off_at: &[Isolation::Serializable],
};

/// PostgreSQL's (and CockroachDB's) READ COMMITTED: statement snapshots and the re-check.
/// SERIALIZABLE switches them off; REPEATABLE READ too, for when a SERIALIZABLE run cannot be
/// judged (a statement there hung).
pub const PG_STATEMENT_SNAPSHOTS: Claim = Claim {
    behaviour: Behaviour::StatementSnapshots,
    reason: "at READ COMMITTED each statement, subqueries included, reads a snapshot taken when it starts, and an UPDATE or DELETE that waited for a concurrent writer re-checks its WHERE clause on the newest version of the rows it had found only, never on rows that came to match meanwhile",
    source: "PostgreSQL 15 documentation §13.2.1 (Read Committed Isolation Level)",
    off_at: &[Isolation::Serializable, Isolation::RepeatableRead],
};

/// PostgreSQL's snapshot isolation: reads from a snapshot taken at the first statement.
pub const PG_SNAPSHOT_ORDER: Claim = Claim {
    behaviour: Behaviour::SnapshotOrder,
    reason: "a transaction reads the snapshot taken at its first statement (not at BEGIN, and not at its commit), so its writes can follow a serial order in which it precedes transactions that committed before it",
    source: "PostgreSQL 15 documentation §13.2.2 (Repeatable Read Isolation Level)",
    off_at: &[],
};

/// TiDB's REPEATABLE READ is snapshot isolation: reads from a snapshot taken at the start.
pub const TIDB_SNAPSHOT_ORDER: Claim = Claim {
    behaviour: Behaviour::SnapshotOrder,
    reason: "REPEATABLE READ is snapshot isolation: a transaction reads the snapshot taken when it starts, so its writes can follow a serial order in which it precedes transactions that committed before it",
    source: "TiDB documentation, TiDB Transaction Isolation Levels § Repeatable Read isolation level",
    off_at: &[],
};

/// Turso's `BEGIN CONCURRENT`: reads from the snapshot taken at BEGIN.
pub const TURSO_SNAPSHOT_ORDER: Claim = Claim {
    behaviour: Behaviour::SnapshotOrder,
    reason: "BEGIN CONCURRENT reads the snapshot taken when the transaction began, so its writes can follow a serial order in which it precedes transactions that committed before it",
    source: "Turso documentation, Concurrent Writes (docs.turso.tech/tursodb/concurrent-writes) § BEGIN CONCURRENT; MVCC guide (snapshot at begin time)",
    off_at: &[],
};

/// PostgreSQL's REPEATABLE READ write skew.
pub const PG_WRITE_SKEW: Claim = Claim {
    behaviour: Behaviour::WriteSkew,
    reason: "REPEATABLE READ is snapshot isolation: two transactions may each write from a snapshot that misses the other's write (write skew); SERIALIZABLE prevents it",
    source: "PostgreSQL 15 documentation §13.2.2 (Repeatable Read Isolation Level) and §13.2.3",
    off_at: &[Isolation::Serializable],
};

/// Turso's `BEGIN CONCURRENT` write skew; no level of Turso's MVCC mode prevents it.
pub const TURSO_WRITE_SKEW: Claim = Claim {
    behaviour: Behaviour::WriteSkew,
    reason: "BEGIN CONCURRENT is snapshot isolation: each transaction reads the snapshot taken when it began and only writes to the same rows conflict, so two transactions may each write from a snapshot that misses the other's write (write skew)",
    source: "Turso documentation, Concurrent Writes (docs.turso.tech/tursodb/concurrent-writes) § BEGIN CONCURRENT; MVCC guide (snapshot at begin time)",
    off_at: &[],
};

/// DuckDB's transactions read the snapshot taken when they began.
pub const DUCKDB_SNAPSHOT_ORDER: Claim = Claim {
    behaviour: Behaviour::SnapshotOrder,
    reason: "a transaction reads the snapshot taken when it began (MVCC), so its writes can follow a serial order in which it precedes transactions that committed before it",
    source: "DuckDB documentation, Concurrency § Concurrency Model within a Single Process; Transaction Management",
    off_at: &[],
};

/// DuckDB's write skew; DuckDB has no stronger level that prevents it.
pub const DUCKDB_WRITE_SKEW: Claim = Claim {
    behaviour: Behaviour::WriteSkew,
    reason: "DuckDB is snapshot isolation with optimistic concurrency control: only two edits (updates or deletes) of the same row conflict, so two transactions may each write from a snapshot that misses the other's write (write skew)",
    source: "DuckDB documentation, Concurrency § Concurrency Model within a Single Process (optimistic concurrency control on edits of the same row)",
    off_at: &[],
};

/// Serializable snapshot isolation orders transactions by their dependencies, not commits.
pub const SSI_ORDER: Claim = Claim {
    behaviour: Behaviour::SomeSerialOrder,
    reason: "serializable snapshot isolation guarantees that the result equals some serial order of the transactions, not the order in which they committed",
    source: "PostgreSQL 15 documentation §13.2.3 (Serializable Isolation Level)",
    off_at: &[],
};

/// PostgreSQL's SSI refuses some transactions needlessly.
pub const PG_SSI_FALSE_POSITIVES: Claim = Claim {
    behaviour: Behaviour::NeedlessRefusal,
    reason: "SERIALIZABLE tracks read/write dependencies conservatively, so a transaction may fail with a serialization failure (40001) although no anomaly would have resulted, and which one fails depends on the implementation",
    source: "PostgreSQL 15 documentation §13.2.3 (Serializable Isolation Level: serialization failures, and the advice to retry them)",
    off_at: &[],
};

/// SQLite refuses a write from a snapshot older than any later commit, even one that changed
/// no row.
pub const SQLITE_STALE_SNAPSHOT: Claim = Claim {
    behaviour: Behaviour::NeedlessRefusal,
    reason: "a transaction that read an older snapshot is refused (SQLITE_BUSY_SNAPSHOT) when it writes after another connection committed, even when that commit changed no row: SQLite tracks commits per database file, and a statement that changes no row may still write pages (a DELETE without WHERE rewrites the table)",
    source: "SQLite documentation, Isolation In SQLite (WAL mode) and Result and Error Codes § SQLITE_BUSY_SNAPSHOT",
    off_at: &[],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_claim_names_its_reason_and_source() {
        for c in [
            INNODB_SEMI_CONSISTENT_READ,
            TIDB_SEMI_CONSISTENT_READ,
            INNODB_DIRTY_READ,
            INNODB_NO_GAP_LOCKS,
            INNODB_UNLOCKED_SOURCE_READS,
            INNODB_LATEST_COMMITTED_WRITES,
            INNODB_SNAPSHOT_ORDER,
            INNODB_WRITE_SKEW,
            PG_STATEMENT_SNAPSHOTS,
            PG_SNAPSHOT_ORDER,
            TIDB_SNAPSHOT_ORDER,
            TURSO_SNAPSHOT_ORDER,
            PG_WRITE_SKEW,
            TURSO_WRITE_SKEW,
            DUCKDB_SNAPSHOT_ORDER,
            DUCKDB_WRITE_SKEW,
            SSI_ORDER,
            PG_SSI_FALSE_POSITIVES,
            SQLITE_STALE_SNAPSHOT,
        ] {
            let name = c.behaviour.name();
            assert!(!c.reason.contains('\n') && c.reason.len() > 20, "{name}");
            assert!(c.source.contains('§'), "{name}");
        }
    }
}
