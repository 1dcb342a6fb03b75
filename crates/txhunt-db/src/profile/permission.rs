//! Permissible behaviours: documented design choices that make write-specific serializability
//! fail at some isolation level (paper 001 §6.4), each with the evidence that shows it at
//! work in a finding.
//!
//! A profile lists, per isolation level, the behaviours its DBMS documents. The WSS oracle
//! tries them in that order when it finds a violation; the first whose evidence holds
//! explains the finding, which is then *permissible*: kept and counted, not reported as a bug.
//! The evidence is always a re-execution on the same target, never a match on the SQL text.

use txhunt_model::Isolation;

/// One piece of evidence, decided by re-executing on the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Evidence {
    /// The same case, submitted in the same order at this stronger level, where the behaviour
    /// is documented to be off, is write-serializable (no violation, or its final state and
    /// writes are those of some serial order).
    StrongerLevel(Isolation),
    /// The same case with every UPDATE preceded, in its transaction, by a locking read of the
    /// rows it chooses (`SELECT … FOR UPDATE` with its WHERE clause; an autocommit UPDATE is
    /// wrapped in BEGIN … COMMIT for it) is write-serializable at the same level. The locking
    /// read waits for rows other transactions locked and re-checks the WHERE clause on their
    /// newest version, so the UPDATE can no longer skip a row without waiting (InnoDB's
    /// semi-consistent read is used by UPDATE only); nothing else changes, the data written is
    /// the same. (Paper 001's Figure 5 turns the UPDATE into a DELETE instead; that also
    /// changes what is written, and on Listing 6 the DELETE variant hides a missing gap lock.)
    LockedUpdate,
    /// The concurrent final state and every committed write's success are those of a serial
    /// execution of the committed transactions in some order other than their commit order:
    /// the schedule is serializable, only not in commit order.
    SomeSerialOrder,
    /// The run is one of snapshot isolation, shown by replay: every committed transaction,
    /// run alone on the state the transactions committed before its snapshot left, answers
    /// as it did concurrently, and the changes each made, applied in commit order, give the
    /// final state without two of them changing one row (first committer wins). For engines
    /// with no stronger level to compare against.
    SnapshotReplay,
}

/// A documented behaviour that explains a WSS violation when all its evidence holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Permission {
    /// A short stable name, e.g. `semi-consistent-read`.
    pub id: &'static str,
    /// One line saying what the DBMS does.
    pub reason: &'static str,
    /// Where the DBMS documents it (manual section).
    pub source: &'static str,
    /// What must hold, all of it, for this behaviour to explain a violation.
    pub evidence: &'static [Evidence],
}

/// InnoDB's semi-consistent read (MySQL, MariaDB at READ UNCOMMITTED / READ COMMITTED).
pub const SEMI_CONSISTENT_READ: Permission = Permission {
    id: "semi-consistent-read",
    reason: "below REPEATABLE READ an UPDATE that meets a row locked by another transaction reads its latest committed version and skips it without waiting when that version does not match the WHERE clause",
    source: "MySQL 8.0 Reference Manual §17.7.2.1 (READ COMMITTED: semi-consistent read); MariaDB KB, InnoDB Lock Modes",
    evidence: &[
        Evidence::StrongerLevel(Isolation::RepeatableRead),
        Evidence::LockedUpdate,
    ],
};

/// TiDB's pessimistic UPDATE skipping rows whose newest committed version does not match
/// (paper 001 §6.4.2: at READ COMMITTED and at REPEATABLE READ).
pub const TIDB_SEMI_CONSISTENT_READ: Permission = Permission {
    id: "semi-consistent-read",
    reason: "an UPDATE evaluates its WHERE clause on the newest committed version of each row and locks only the rows that match, so rows that come to match while it waits are not updated",
    source: "TiDB documentation, Pessimistic Transaction Mode (§ Behaviors) and Read Committed Isolation Level; paper 001 §6.4.2",
    evidence: &[Evidence::LockedUpdate],
};

/// InnoDB's dirty reads at READ UNCOMMITTED.
pub const DIRTY_READ: Permission = Permission {
    id: "dirty-read",
    reason: "at READ UNCOMMITTED a statement may read rows other transactions have not committed, and write what it computed from them",
    source: "MySQL 8.0 Reference Manual §17.7.2.1 (READ UNCOMMITTED); MariaDB KB, SET TRANSACTION",
    evidence: &[Evidence::StrongerLevel(Isolation::ReadCommitted)],
};

/// InnoDB's missing gap locks below REPEATABLE READ.
pub const NO_GAP_LOCKS: Permission = Permission {
    id: "no-gap-locks",
    reason: "below REPEATABLE READ InnoDB locks index records but not the gaps between them (and reads the source rows of INSERT … SELECT and subqueries without locks), so a concurrent insert into a range another transaction deleted, updated or read is not blocked",
    source: "MySQL 8.0 Reference Manual §17.7.1 (Gap Locks) and §17.7.2.1 (READ COMMITTED); MariaDB KB, InnoDB Lock Modes",
    evidence: &[Evidence::StrongerLevel(Isolation::RepeatableRead)],
};

/// PostgreSQL's (and CockroachDB's) READ COMMITTED: statement snapshots and the re-check,
/// shown at SERIALIZABLE.
pub const READ_COMMITTED_SNAPSHOTS: Permission = Permission {
    id: "read-committed",
    reason: "at READ COMMITTED each statement, subqueries included, reads a snapshot taken when it starts, and an UPDATE or DELETE that waited for a concurrent writer re-checks its WHERE clause on the newest version of the rows it had found only, never on rows that came to match meanwhile",
    source: "PostgreSQL 15 documentation §13.2.1 (Read Committed Isolation Level)",
    evidence: &[Evidence::StrongerLevel(Isolation::Serializable)],
};

/// [`READ_COMMITTED_SNAPSHOTS`] shown at REPEATABLE READ, for when the SERIALIZABLE run
/// cannot be judged (a statement there hung).
pub const READ_COMMITTED_SNAPSHOTS_AT_RR: Permission = Permission {
    evidence: &[Evidence::StrongerLevel(Isolation::RepeatableRead)],
    ..READ_COMMITTED_SNAPSHOTS
};

/// Snapshot isolation: reads from a snapshot taken at the first statement.
pub const SNAPSHOT_ORDER: Permission = Permission {
    id: "snapshot-order",
    reason: "a transaction reads the snapshot taken at its first statement (not at BEGIN, and not at its commit), so its writes can follow a serial order in which it precedes transactions that committed before it",
    source: "PostgreSQL 15 documentation §13.2.2 (Repeatable Read Isolation Level)",
    evidence: &[Evidence::SomeSerialOrder],
};

/// Snapshot isolation's write skew.
pub const WRITE_SKEW: Permission = Permission {
    id: "write-skew",
    reason: "REPEATABLE READ is snapshot isolation: two transactions may each write from a snapshot that misses the other's write (write skew); SERIALIZABLE prevents it",
    source: "PostgreSQL 15 documentation §13.2.2 (Repeatable Read Isolation Level) and §13.2.3",
    evidence: &[Evidence::StrongerLevel(Isolation::Serializable)],
};

/// Snapshot isolation's write skew where no stronger level exists (Turso's MVCC mode):
/// shown by replaying each transaction on its snapshot.
pub const SNAPSHOT_WRITE_SKEW: Permission = Permission {
    id: "write-skew",
    reason: "BEGIN CONCURRENT is snapshot isolation: each transaction reads the snapshot taken when it began and only writes to the same rows conflict, so two transactions may each write from a snapshot that misses the other's write (write skew)",
    source: "Turso documentation, Concurrent Writes (docs.turso.tech/tursodb/concurrent-writes) § BEGIN CONCURRENT; MVCC guide (snapshot at begin time)",
    evidence: &[Evidence::SnapshotReplay],
};

/// Serializable snapshot isolation orders transactions by their dependencies, not commits.
pub const SSI_ORDER: Permission = Permission {
    id: "ssi-order",
    reason: "serializable snapshot isolation guarantees that the result equals some serial order of the transactions, not the order in which they committed",
    source: "PostgreSQL 15 documentation §13.2.3 (Serializable Isolation Level)",
    evidence: &[Evidence::SomeSerialOrder],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_permission_names_its_reason_source_and_evidence() {
        for p in [
            SEMI_CONSISTENT_READ,
            TIDB_SEMI_CONSISTENT_READ,
            DIRTY_READ,
            NO_GAP_LOCKS,
            READ_COMMITTED_SNAPSHOTS,
            READ_COMMITTED_SNAPSHOTS_AT_RR,
            SNAPSHOT_ORDER,
            WRITE_SKEW,
            SNAPSHOT_WRITE_SKEW,
            SSI_ORDER,
        ] {
            assert!(!p.reason.contains('\n') && p.reason.len() > 20, "{}", p.id);
            assert!(p.source.contains('§'), "{}", p.id);
            assert!(!p.evidence.is_empty(), "{}", p.id);
        }
    }
}
