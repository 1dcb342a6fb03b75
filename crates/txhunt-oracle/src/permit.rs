//! From claims to excuses: what the behaviours a profile documents for a level
//! ([`txhunt_db::profile::claim`]) let the WSS oracle excuse, and the re-executions that must
//! show each behaviour at work in a finding (paper 001 §6.4).
//!
//! The evidence is always a re-execution on the same target, never a match on the SQL text.
//! Per behaviour:
//!
//! * semi-consistent read: the case with a locking read before each UPDATE (nothing else
//!   changed: the UPDATE can no longer skip a locked row) is write-serializable, and every
//!   write that did not wait replays on the newest committed versions
//!   ([`Evidence::WritesOnCommittedVersions`]: it skipped only rows whose committed version
//!   does not match);
//! * dirty reads, missing gap locks, unlocked source reads: the same case at a level where the manual says the
//!   behaviour is off is write-serializable (each such level is one alternative, tried in the
//!   claim's order);
//! * dirty reads, last: every statement replays alone on the newest versions, committed or
//!   not, where it completed ([`Evidence::UncommittedReplay`]): a read of an intermediate state
//!   no commit left, which no stronger level reproduces. Either way the writes that did not
//!   wait must replay on the newest committed versions too: only reads are dirty;
//! * statement snapshots: likewise, where the stronger level may refuse the statements that
//!   read a newer snapshot than their transaction's first ([`Evidence::FirstUpdaterWinsAt`]);
//! * missing gap locks, when the stronger level takes another path (a deadlock between gap
//!   locks): the case without its inserts into open ranges is write-serializable
//!   ([`Evidence::WithoutGapInserts`]);
//! * semi-consistent read and missing gap locks together, where each variant alone still
//!   violates WSS: the case with both mechanisms switched off is write-serializable
//!   ([`Evidence::LockedUpdateWithoutGapInserts`]);
//! * statement snapshots, first: the run replays as one of snapshot isolation
//!   ([`Evidence::SnapshotReplay`]), which READ COMMITTED allows as well (every transaction
//!   reading one snapshot is a special case of each statement reading its own). PostgreSQL's
//!   stronger levels abort one transaction of a write skew, so they cannot show it;
//! * statement snapshots and missing gap locks, last: the run's statements agree with a
//!   sequential order of them that their dependencies allow, each reading one committed state
//!   ([`Evidence::StatementOrder`], the SDG oracle), and the DSG oracle finds no phenomenon the
//!   level forbids: what READ COMMITTED promises per statement, a row written into a range
//!   another transaction had scanned (an UPDATE too, not only an INSERT) included;
//! * InnoDB's writes reading the newest committed versions at REPEATABLE READ: no WSS evidence
//!   (WSS runs every write on the newest committed state already); the SDG oracle shows it;
//! * write skew: each transaction replayed on its snapshot ([`Evidence::SnapshotReplay`]). A
//!   stronger level prevents write skew by aborting a transaction, so its run takes another
//!   path and shows nothing;
//! * snapshot order, serializable snapshot isolation's order: some serial order other than
//!   commit order reproduces the run.
//!
//! Every re-executed variant must take the run's path (the same transactions commit, none is
//! newly aborted), and each behaviour needs its occasion in the run first (see the WSS oracle's
//! preconditions): excusing a real bug is worse than reporting a false one.

use txhunt_db::profile::claim::{Behaviour, Claim};
use txhunt_db::Profile;
use txhunt_model::Isolation;

/// One piece of evidence, decided by re-executing on the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Evidence {
    /// The same case, submitted in the same order at this stronger level, where the behaviour
    /// is documented to be off, is write-serializable (no violation, or its final state and
    /// writes are those of some serial order).
    StrongerLevel(Isolation),
    /// As [`Evidence::StrongerLevel`] for READ COMMITTED's statement snapshots: at this level a
    /// write or locking read that at READ COMMITTED read a newer snapshot than its transaction's first
    /// statement (another transaction committed in between, or it waited and re-checked) is
    /// refused with a serialization failure instead (first updater wins, PostgreSQL 15
    /// documentation §13.2.2); such a refusal is the mechanism switched off, not another path.
    /// Everything else must run as in the run, and the result be write-serializable.
    FirstUpdaterWinsAt(Isolation),
    /// The same case with every UPDATE preceded, in its transaction, by a locking read of the
    /// rows it chooses (`SELECT … FOR UPDATE` with its WHERE clause; an autocommit UPDATE is
    /// wrapped in BEGIN … COMMIT for it) is write-serializable at the same level. The locking
    /// read waits for rows other transactions locked and re-checks the WHERE clause on their
    /// newest version, so the UPDATE can no longer skip a row without waiting (InnoDB's
    /// semi-consistent read is used by UPDATE only); nothing else changes, the data written is
    /// the same. (Paper 001's Figure 5 turns the UPDATE into a DELETE instead; that also
    /// changes what is written, and on Listing 6 the DELETE variant hides a missing gap lock.)
    LockedUpdate,
    /// The same case at the same level, with each INSERT that went into a range another open
    /// transaction had read, updated or deleted replaced by a statement that does nothing
    /// (`SELECT 1`: every transaction keeps its statements' places), is write-serializable:
    /// the violation needs the insert into the unlocked gap.
    WithoutGapInserts,
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
    /// The run is one of READ COMMITTED at the statement level: its statements, re-run one at
    /// a time without transactions in an order their recorded dependencies allow, give the
    /// results and final state they gave (the SDG oracle finds no bug candidate in it).
    StatementOrder,
    /// The run is one of READ COMMITTED with the newest committed versions, shown by replay:
    /// every statement of a committed transaction, run alone on the state committed when it
    /// started (on InnoDB: when it completed, if it waited) plus its transaction's earlier
    /// changes, answers as it did, and the changes, applied in commit order, give the final
    /// state (InnoDB's statements and semi-consistent UPDATEs below REPEATABLE READ;
    /// PostgreSQL's statement snapshots at READ COMMITTED, where a statement whose re-check
    /// after a wait changed what it did does not replay, and shows nothing).
    CommittedReplay,
    /// Every UPDATE and DELETE of a committed transaction that did not wait answers as it does
    /// alone on the newest committed versions when it ran, with its transaction's earlier
    /// changes: InnoDB's writes below REPEATABLE READ read the newest committed version of a
    /// row, skip a row another transaction locked only when that version does not match, and
    /// wait otherwise (semi-consistent read; READ UNCOMMITTED's writes work as READ
    /// COMMITTED's). With a variant that shows the behaviour mattered, it shows the behaviour
    /// kept to what the manual says: a write that skipped a locked row whose committed version
    /// matches, or acted on an uncommitted change, does not replay.
    WritesOnCommittedVersions,
    /// The run is one of READ UNCOMMITTED at the statement level, shown by replay: every
    /// statement, run alone where it completed on the newest versions of rows, committed or
    /// not, answers as it did, and those changes, each rolled-back transaction's taken back
    /// where it ended, give the final state (InnoDB's READ UNCOMMITTED: what the stronger
    /// level cannot show when the run read an uncommitted state no commit ever left).
    UncommittedReplay,
    /// [`Evidence::LockedUpdate`] and [`Evidence::WithoutGapInserts`] in one variant: with a
    /// locking read before each UPDATE and without the inserts into open ranges the case is
    /// write-serializable, where each alone still violates it. Semi-consistent read and the
    /// missing gap locks, both documented below REPEATABLE READ, at work in one run.
    LockedUpdateWithoutGapInserts,
}

/// A documented behaviour that explains a WSS violation when all its evidence holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Permission {
    /// The behaviour as the DBMS documents it.
    pub claim: Claim,
    /// A second documented behaviour the evidence shows at work together with `claim`'s.
    pub also: Option<Claim>,
    /// What must hold, all of it, for this behaviour to explain a violation.
    pub evidence: Vec<Evidence>,
}

/// The permissions of `profile` at `isolation`, in the order the WSS oracle tries them.
pub fn permissions(profile: &dyn Profile, isolation: Isolation) -> Vec<Permission> {
    let mut all: Vec<Permission> = profile
        .claims(isolation)
        .iter()
        .flat_map(|claim| {
            alternatives(claim).into_iter().map(|evidence| Permission {
                claim: *claim,
                also: None,
                evidence,
            })
        })
        .collect();
    // Semi-consistent read and missing gap locks together, after each alone.
    let claims = profile.claims(isolation);
    let claimed = |b: Behaviour| claims.iter().find(|c| c.behaviour == b).copied();
    if let (Some(semi), Some(gaps)) = (
        claimed(Behaviour::SemiConsistentRead),
        claimed(Behaviour::NoGapLocks),
    ) {
        all.push(Permission {
            claim: semi,
            also: Some(gaps),
            evidence: vec![
                Evidence::LockedUpdateWithoutGapInserts,
                Evidence::WritesOnCommittedVersions,
            ],
        });
    }
    // The statement order and the committed and uncommitted replays show READ COMMITTED's
    // (READ UNCOMMITTED's) promise as a whole, not one behaviour: they are tried after every
    // behaviour's own evidence, so that evidence names the behaviour where it can.
    all.sort_by_key(|p| {
        (p.evidence.iter()).any(|e| {
            matches!(
                e,
                Evidence::StatementOrder | Evidence::CommittedReplay | Evidence::UncommittedReplay
            )
        })
    });
    all
}

/// Whether the DBMS promises only *some* serial order at `isolation` (snapshot isolation,
/// SSI), not the commit order.
pub fn promises_some_serial_order(profile: &dyn Profile, isolation: Isolation) -> bool {
    profile.claims(isolation).iter().any(|c| {
        matches!(
            c.behaviour,
            Behaviour::SnapshotOrder | Behaviour::SomeSerialOrder
        )
    })
}

/// The ways `claim` can be shown, each a list of evidence that must all hold. A behaviour of
/// InnoDB below REPEATABLE READ (semi-consistent read, dirty reads, missing gap locks,
/// unlocked source reads) changes what reads see and which rows are locked, never that a
/// write reads the newest committed versions and waits for a locked row whose committed
/// version matches: a variant that shows the behaviour mattered needs
/// [`Evidence::WritesOnCommittedVersions`] beside it (the whole-run replays check it already).
fn alternatives(claim: &Claim) -> Vec<Vec<Evidence>> {
    let mut all = behaviour_alternatives(claim);
    if matches!(
        claim.behaviour,
        Behaviour::SemiConsistentRead
            | Behaviour::DirtyRead
            | Behaviour::NoGapLocks
            | Behaviour::UnlockedSourceReads
    ) {
        for evidence in all.iter_mut().filter(|e| {
            !e.iter()
                .any(|e| matches!(e, Evidence::StatementOrder | Evidence::CommittedReplay))
        }) {
            evidence.push(Evidence::WritesOnCommittedVersions);
        }
    }
    all
}

/// The ways `claim`'s behaviour itself can be shown ([`alternatives`]).
fn behaviour_alternatives(claim: &Claim) -> Vec<Vec<Evidence>> {
    let stronger = || {
        claim
            .off_at
            .iter()
            .map(|&level| vec![Evidence::StrongerLevel(level)])
            .collect::<Vec<_>>()
    };
    match claim.behaviour {
        Behaviour::SemiConsistentRead => {
            vec![
                vec![Evidence::LockedUpdate],
                vec![Evidence::CommittedReplay],
                vec![Evidence::StatementOrder],
            ]
        }
        Behaviour::NoGapLocks => {
            let mut all = stronger();
            all.push(vec![Evidence::WithoutGapInserts]);
            all.push(vec![Evidence::StatementOrder]);
            // A waiting scan replayed as it read: rows inserted behind it never read.
            all.push(vec![Evidence::CommittedReplay]);
            all
        }
        Behaviour::WriteSkew => vec![vec![Evidence::SnapshotReplay]],
        Behaviour::StatementSnapshots => {
            let mut all = vec![vec![Evidence::SnapshotReplay]];
            all.extend(
                claim
                    .off_at
                    .iter()
                    .map(|&level| vec![Evidence::FirstUpdaterWinsAt(level)]),
            );
            all.push(vec![Evidence::StatementOrder]);
            all.push(vec![Evidence::CommittedReplay]);
            all
        }
        Behaviour::DirtyRead => {
            let mut all = stronger();
            all.push(vec![Evidence::UncommittedReplay]);
            all
        }
        Behaviour::UnlockedSourceReads => stronger(),
        Behaviour::SnapshotOrder | Behaviour::SomeSerialOrder => {
            vec![vec![Evidence::SomeSerialOrder]]
        }
        // WSS runs every write serially on the newest committed state already; the claim
        // serves the SDG oracle, whose sequential order otherwise follows the snapshot.
        Behaviour::LatestCommittedWrites => Vec::new(),
        // About reads, which WSS does not judge: the claim serves the SDG oracle.
        Behaviour::LockingReadSubqueries => Vec::new(),
        // A refusal is no WSS violation: the refused statement is left out of the serial
        // schedules. The claim serves the differential oracle.
        Behaviour::NeedlessRefusal => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_db::open_target;

    #[test]
    fn claims_become_the_permissions_the_wss_oracle_tried_before() {
        let sqlite = open_target("sqlite", None).unwrap();
        assert!(permissions(sqlite.profile(), Isolation::Serializable).is_empty());
        let mvcc = open_target("turso-mvcc", None).unwrap();
        let shown: Vec<(&str, Vec<Evidence>)> = permissions(mvcc.profile(), Isolation::Snapshot)
            .into_iter()
            .map(|p| (p.claim.behaviour.name(), p.evidence))
            .collect();
        assert_eq!(
            shown,
            [
                ("snapshot-order", vec![Evidence::SomeSerialOrder]),
                ("write-skew", vec![Evidence::SnapshotReplay]),
            ]
        );
        assert!(promises_some_serial_order(
            mvcc.profile(),
            Isolation::Snapshot
        ));
        let innodb: Vec<(&str, Vec<Evidence>)> = permissions(
            &txhunt_db::profile::innodb::MARIADB,
            Isolation::ReadCommitted,
        )
        .into_iter()
        .map(|p| (p.claim.behaviour.name(), p.evidence))
        .collect();
        let rr = Evidence::StrongerLevel(Isolation::RepeatableRead);
        let committed = Evidence::WritesOnCommittedVersions;
        assert_eq!(
            innodb,
            [
                (
                    "semi-consistent-read",
                    vec![Evidence::LockedUpdate, committed]
                ),
                ("no-gap-locks", vec![rr, committed]),
                ("no-gap-locks", vec![Evidence::WithoutGapInserts, committed]),
                ("unlocked-source-reads", vec![rr, committed]),
                (
                    "semi-consistent-read",
                    vec![Evidence::LockedUpdateWithoutGapInserts, committed]
                ),
                ("semi-consistent-read", vec![Evidence::CommittedReplay]),
                ("semi-consistent-read", vec![Evidence::StatementOrder]),
                ("no-gap-locks", vec![Evidence::StatementOrder]),
                ("no-gap-locks", vec![Evidence::CommittedReplay]),
            ]
        );
    }
}
