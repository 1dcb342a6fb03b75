//! Guarantees: what each isolation level of a DBMS promises, as Adya's levels (PL-1, PL-2,
//! PL-2.99, PL-SI, PL-3, paper 003 §5.4) and the phenomena the DBMS documents it lets through,
//! each with the manual section that says so.
//!
//! A phenomenon a level allows is *observed, allowed at this level*: counted, not a bug. Every
//! other phenomenon is one the level forbids; seen in a run, it is a bug candidate.

use txhunt_model::adya::Phenomenon;

/// What one isolation level of a DBMS promises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guarantee {
    /// The Adya level it corresponds to, e.g. `PL-SI`.
    pub level: &'static str,
    /// The phenomena it lets through, and where the DBMS documents that.
    pub allows: &'static [Allowance],
    /// Whether each plain read statement (a SELECT that locks nothing) reads one snapshot
    /// (or, serializable, as if it did): then it never mixes versions from before and after
    /// one commit, even where the level lets a *transaction*'s reads do so (a G-single read
    /// skew across two statements). True of every level here but the dirty-read ones (PL-1),
    /// whose reads take no snapshot; every MVCC READ COMMITTED here gives each statement its
    /// own. Writes and locking reads are not covered: at READ COMMITTED they may read the
    /// latest version of the rows they lock and the snapshot's of the others (PostgreSQL
    /// §13.2.1, InnoDB's semi-consistent reads).
    pub statement_snapshot: bool,
}

/// A phenomenon a level lets through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowance {
    /// The phenomenon.
    pub phenomenon: Phenomenon,
    /// Why, in the DBMS's terms.
    pub reason: &'static str,
    /// Where the DBMS documents it.
    pub source: &'static str,
}

impl Guarantee {
    /// What lets `phenomenon` through at this level, if anything does.
    pub fn allowance(&self, phenomenon: Phenomenon) -> Option<&'static Allowance> {
        self.allows.iter().find(|a| a.phenomenon == phenomenon)
    }
}

/// Serializability (Adya's PL-3): no G0, G1 or G2.
pub const PL_3: Guarantee = Guarantee {
    level: "PL-3",
    allows: &[],
    statement_snapshot: true,
};

/// One allowance.
const fn allow(phenomenon: Phenomenon, reason: &'static str, source: &'static str) -> Allowance {
    Allowance {
        phenomenon,
        reason,
        source,
    }
}

/// The allowances of every phenomenon from `G-single` on (a level that holds no read locks to
/// commit: PL-2 and below), for one reason.
const fn anti_dependencies(reason: &'static str, source: &'static str) -> [Allowance; 3] {
    [
        allow(Phenomenon::GSingle, reason, source),
        allow(Phenomenon::G2Item, reason, source),
        allow(Phenomenon::G2, reason, source),
    ]
}

/// The allowances of G2-item and G2 (write skew), snapshot isolation's.
const fn write_skew(reason: &'static str, source: &'static str) -> [Allowance; 2] {
    [
        allow(Phenomenon::G2Item, reason, source),
        allow(Phenomenon::G2, reason, source),
    ]
}

/// The allowances of a level with dirty reads (PL-1): every phenomenon but G0.
const fn dirty_reads(reason: &'static str, source: &'static str) -> [Allowance; 6] {
    let [single, item, g2] = anti_dependencies(reason, source);
    [
        allow(Phenomenon::G1a, reason, source),
        allow(Phenomenon::G1b, reason, source),
        allow(Phenomenon::G1c, reason, source),
        single,
        item,
        g2,
    ]
}

const PG_RC_ALLOWS: [Allowance; 3] = anti_dependencies(
    "each statement sees a snapshot taken when it starts, so a transaction may read skew and lose updates",
    "PostgreSQL 15 documentation §13.2.1 (Read Committed Isolation Level)"
);

/// PostgreSQL's READ UNCOMMITTED and READ COMMITTED (the same level: PL-2).
pub const POSTGRES_READ_COMMITTED: Guarantee = Guarantee {
    level: "PL-2",
    allows: &PG_RC_ALLOWS,
    statement_snapshot: true,
};

const PG_RR_ALLOWS: [Allowance; 2] = write_skew(
    "a transaction sees one snapshot and is refused only on concurrent writes to the rows it writes, so two transactions may each write from a snapshot that misses the other's write (a serialization anomaly)",
    "PostgreSQL 15 documentation §13.2.2 (Repeatable Read Isolation Level)"
);

/// PostgreSQL's REPEATABLE READ: snapshot isolation (PL-SI).
pub const POSTGRES_REPEATABLE_READ: Guarantee = Guarantee {
    level: "PL-SI",
    allows: &PG_RR_ALLOWS,
    statement_snapshot: true,
};

const INNODB_RU_ALLOWS: [Allowance; 6] = dirty_reads(
    "SELECT statements are performed in a nonlocking fashion and may read rows other transactions have not committed (dirty reads)",
    "MySQL 8.0 Reference Manual §17.7.2.1 (READ UNCOMMITTED); MariaDB KB, SET TRANSACTION"
);

/// InnoDB's READ UNCOMMITTED (PL-1).
pub const INNODB_READ_UNCOMMITTED: Guarantee = Guarantee {
    level: "PL-1",
    allows: &INNODB_RU_ALLOWS,
    statement_snapshot: false,
};

const INNODB_RC_ALLOWS: [Allowance; 3] = anti_dependencies(
    "each consistent read sets and reads its own fresh snapshot, and reads take no locks",
    "MySQL 8.0 Reference Manual §17.7.2.1 (READ COMMITTED); MariaDB KB, SET TRANSACTION",
);

/// InnoDB's READ COMMITTED (PL-2).
pub const INNODB_READ_COMMITTED: Guarantee = Guarantee {
    level: "PL-2",
    allows: &INNODB_RC_ALLOWS,
    statement_snapshot: true,
};

const INNODB_RR_ALLOWS: [Allowance; 3] = anti_dependencies(
    "plain SELECTs read the transaction's snapshot, while UPDATE, DELETE and locking reads read and lock the latest committed rows: a transaction may overwrite a change its snapshot does not show (lost update) and miss rows others committed",
    "MySQL 8.0 Reference Manual §17.7.2.1 (REPEATABLE READ) and §17.7.2.3 (Consistent Nonlocking Reads: DML statements see changes committed after the snapshot); MariaDB KB, InnoDB Lock Modes (innodb_snapshot_isolation off by default before 11.8)"
);

/// InnoDB's REPEATABLE READ: a snapshot for plain reads, the latest version for writes.
pub const INNODB_REPEATABLE_READ: Guarantee = Guarantee {
    level: "PL-2 (snapshot reads)",
    allows: &INNODB_RR_ALLOWS,
    statement_snapshot: true,
};

const INNODB_SI_ALLOWS: [Allowance; 2] = write_skew(
    "with innodb_snapshot_isolation=ON a transaction reads its read view and a write or locking read of a row changed since fails (error 1020), so only transactions that write different rows may each miss the other's write (write skew)",
    "MariaDB KB, InnoDB System Variables § innodb_snapshot_isolation; MariaDB KB, SET TRANSACTION (REPEATABLE READ)",
);

/// MariaDB's REPEATABLE READ with `innodb_snapshot_isolation=ON`: snapshot isolation (PL-SI).
pub const INNODB_SNAPSHOT_ISOLATION: Guarantee = Guarantee {
    level: "PL-SI",
    allows: &INNODB_SI_ALLOWS,
    statement_snapshot: true,
};

const SQLITE_RU_ALLOWS: [Allowance; 6] = dirty_reads(
    "with shared cache and read_uncommitted a connection reads tables without read locks, so it may see uncommitted changes",
    "SQLite documentation, Isolation In SQLite and PRAGMA read_uncommitted (shared-cache mode)"
);

/// SQLite's READ UNCOMMITTED (shared cache with `PRAGMA read_uncommitted`; PL-1).
pub const SQLITE_READ_UNCOMMITTED: Guarantee = Guarantee {
    level: "PL-1",
    allows: &SQLITE_RU_ALLOWS,
    statement_snapshot: false,
};

const TURSO_MVCC_ALLOWS: [Allowance; 2] = write_skew(
    "BEGIN CONCURRENT transactions read a snapshot and conflict only on rows both write (snapshot isolation), so write skew is possible",
    "Turso documentation, Concurrent Writes (docs.turso.tech/tursodb/concurrent-writes)"
);

/// Turso's MVCC mode: snapshot isolation (PL-SI).
pub const TURSO_SNAPSHOT: Guarantee = Guarantee {
    level: "PL-SI",
    allows: &TURSO_MVCC_ALLOWS,
    statement_snapshot: true,
};

const DUCKDB_ALLOWS: [Allowance; 2] = write_skew(
    "every transaction reads the snapshot taken when it began and only edits of the same row conflict (snapshot isolation), so write skew is possible",
    "DuckDB documentation, Concurrency § Concurrency Model within a Single Process (MVCC and optimistic concurrency control)"
);

/// DuckDB's one level: snapshot isolation (PL-SI).
pub const DUCKDB_SNAPSHOT: Guarantee = Guarantee {
    level: "PL-SI",
    allows: &DUCKDB_ALLOWS,
    statement_snapshot: true,
};

const TIDB_RC_ALLOWS: [Allowance; 3] = anti_dependencies(
    "each statement reads the latest committed data when it starts",
    "TiDB documentation, TiDB Transaction Isolation Levels § Read Committed",
);

/// TiDB's READ COMMITTED (PL-2).
pub const TIDB_READ_COMMITTED: Guarantee = Guarantee {
    level: "PL-2",
    allows: &TIDB_RC_ALLOWS,
    statement_snapshot: true,
};

const TIDB_RR_ALLOWS: [Allowance; 2] = write_skew(
    "TiDB's REPEATABLE READ is snapshot isolation: write skew is possible",
    "TiDB documentation, TiDB Transaction Isolation Levels § Repeatable Read",
);

/// TiDB's REPEATABLE READ: snapshot isolation (PL-SI).
pub const TIDB_REPEATABLE_READ: Guarantee = Guarantee {
    level: "PL-SI",
    allows: &TIDB_RR_ALLOWS,
    statement_snapshot: true,
};

const COCKROACH_RC_ALLOWS: [Allowance; 3] = anti_dependencies(
    "each statement reads a fresh snapshot",
    "CockroachDB documentation, Read Committed Transactions",
);

/// CockroachDB's READ COMMITTED (PL-2).
pub const COCKROACH_READ_COMMITTED: Guarantee = Guarantee {
    level: "PL-2",
    allows: &COCKROACH_RC_ALLOWS,
    statement_snapshot: true,
};

const COCKROACH_RR_ALLOWS: [Allowance; 2] = write_skew(
    "REPEATABLE READ is snapshot isolation: write skew is possible",
    "CockroachDB documentation, Transaction Isolation (REPEATABLE READ)",
);

/// CockroachDB's REPEATABLE READ: snapshot isolation (PL-SI).
pub const COCKROACH_REPEATABLE_READ: Guarantee = Guarantee {
    level: "PL-SI",
    allows: &COCKROACH_RR_ALLOWS,
    statement_snapshot: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_isolation_allows_write_skew_not_lost_updates() {
        for g in [
            POSTGRES_REPEATABLE_READ,
            TURSO_SNAPSHOT,
            DUCKDB_SNAPSHOT,
            TIDB_REPEATABLE_READ,
            INNODB_SNAPSHOT_ISOLATION,
        ] {
            assert!(g.allowance(Phenomenon::G2Item).is_some());
            assert!(g.allowance(Phenomenon::GSingle).is_none());
            assert!(g.allowance(Phenomenon::G1a).is_none());
        }
        assert!(INNODB_REPEATABLE_READ
            .allowance(Phenomenon::GSingle)
            .is_some());
        assert!(PL_3.allows.is_empty());
    }
}
