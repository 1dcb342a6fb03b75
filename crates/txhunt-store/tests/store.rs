//! The store on a real SQLite file: campaigns, leases, findings and their duplicates.

use std::time::Duration;
use txhunt_store::{CaseCounts, FindingQuery, Lease, Leased, NewCampaign, NewOccurrence, Store};

/// The lease timeout of these tests' workers.
const TIMEOUT: Duration = txhunt_store::DEFAULT_STALE_AFTER;

/// The range `leased` gives.
fn range(leased: Result<Leased, txhunt_store::StoreError>) -> Lease {
    match leased.unwrap() {
        Leased::Range(lease) => lease,
        other => panic!("no range: {other:?}"),
    }
}

fn campaign(limit: Option<u64>) -> NewCampaign {
    NewCampaign {
        name: None,
        seed: u64::MAX - 1,
        targets: "sqlite".into(),
        versions: "3.50".into(),
        config: r#"{"levels":"all"}"#.into(),
        command: "txhunt fuzz --cases 10".into(),
        case_limit: limit,
    }
}

fn occurrence(campaign: i64, index: u64, signature: &str) -> NewOccurrence<'static> {
    NewOccurrence {
        campaign,
        case_index: index,
        case_seed: index * 7,
        level: "serializable",
        family: "sqlite",
        target: "sqlite",
        version: "3.50",
        oracle: "wss",
        signature: Box::leak(signature.to_string().into_boxed_str()),
        verdict: "candidate",
        title: "final state differs",
        statements: 20,
        path: "txhunt-out/x.sql",
        scenario: "/* t1 */ BEGIN;",
        details: "{}",
    }
}

fn open() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("out/findings.db").to_str().unwrap()).unwrap();
    (dir, store)
}

#[test]
fn a_campaign_keeps_its_seed_and_is_named_by_its_id() {
    let (_dir, store) = open();
    let c = store.start_campaign(&campaign(Some(10))).unwrap();
    assert_eq!(c.seed, u64::MAX - 1);
    assert_eq!(c.name, c.id.to_string());
    assert_eq!(store.campaigns().unwrap(), vec![c]);
}

#[test]
fn occurrences_gather_by_signature_then_by_reduced_case() {
    let (_dir, store) = open();
    let c = store.start_campaign(&campaign(None)).unwrap().id;
    let a = store
        .record(&occurrence(c, 1, "tx-wss:final-state"))
        .unwrap();
    let b = store
        .record(&occurrence(c, 2, "tx-wss:final-state"))
        .unwrap();
    let other = store.record(&occurrence(c, 3, "tx-wss:write")).unwrap();
    assert!(a.new && !b.new && other.new);
    assert_eq!(a.finding, b.finding);
    assert_ne!(a.finding, other.finding);
    // The same case recorded again (a resumed campaign) is one occurrence.
    let again = store
        .record(&occurrence(c, 1, "tx-wss:final-state"))
        .unwrap();
    assert_eq!((again.occurrence, again.new), (None, false));

    // Both reduce to the same case (notes aside): one finding, the unreduced one gone.
    let reduced = "/* t1 */ UPDATE t SET v = 1; -- observed: affected 1\n";
    let ra = store
        .reduced(a.occurrence.unwrap(), Some((reduced, 5)), "{}")
        .unwrap();
    let rb = (store.reduced(
        b.occurrence.unwrap(),
        Some(("/* t1 */ UPDATE t SET v = 1;", 5)),
        "{}",
    ))
    .unwrap();
    assert!(ra.new && !rb.new);
    assert_eq!(ra.finding, rb.finding);
    let all = store.findings(&FindingQuery::default()).unwrap();
    assert_eq!(all.len(), 2, "{all:#?}");
    let (finding, occurrences) = store.finding(ra.finding).unwrap();
    assert_eq!((finding.occurrences, finding.statements), (2, 5));
    assert_eq!(occurrences.len(), 2);
    assert!(
        store.finding(a.finding).is_err(),
        "the signature's finding is gone"
    );

    // A different reduced case is another finding.
    let d = store
        .record(&occurrence(c, 4, "tx-wss:final-state"))
        .unwrap();
    let rd = (store.reduced(
        d.occurrence.unwrap(),
        Some(("/* t1 */ DELETE FROM t;", 4)),
        "{}",
    ))
    .unwrap();
    assert_ne!(rd.finding, ra.finding);
}

#[test]
fn findings_list_by_oracle_campaign_and_verdict() {
    let (_dir, store) = open();
    let first = store.start_campaign(&campaign(None)).unwrap().id;
    store
        .record(&occurrence(first, 1, "tx-wss:final-state"))
        .unwrap();
    let second = store.start_campaign(&campaign(None)).unwrap().id;
    store
        .record(&occurrence(second, 1, "tx-wss:write"))
        .unwrap();
    let mut permissible = occurrence(second, 2, "tx-wss:read");
    permissible.verdict = "permissible: semi-consistent read";
    store.record(&permissible).unwrap();

    let since = |campaign| FindingQuery {
        since_campaign: Some(campaign),
        ..FindingQuery::default()
    };
    let signatures = |q: &FindingQuery| -> Vec<String> {
        let found = store.findings(q).unwrap();
        found.into_iter().map(|f| f.signature).collect()
    };
    assert_eq!(signatures(&since(first)), vec!["tx-wss:write"]);
    assert_eq!(signatures(&since(second)), Vec::<String>::new());
    let with_permissible = FindingQuery {
        permissible: true,
        ..since(first)
    };
    assert_eq!(signatures(&with_permissible).len(), 2);
    let other_oracle = FindingQuery {
        oracle: Some("dsg".into()),
        ..FindingQuery::default()
    };
    assert!(signatures(&other_oracle).is_empty());
}

#[test]
fn leases_cover_every_case_once_and_a_dead_owners_range_is_taken_over() {
    let (_dir, store) = open();
    let c = store.start_campaign(&campaign(Some(10))).unwrap().id;
    let first = range(store.lease(c, "host:1:1", 4, TIMEOUT));
    let second = range(store.lease(c, "host:2:2", 4, TIMEOUT));
    assert_eq!(
        (first.next, first.end, second.next, second.end),
        (0, 4, 4, 8)
    );
    // The first owner finishes two cases, then dies (pid 1 is never ours: init's).
    for i in 0..2 {
        assert!(store
            .finish_case(c, &first, "host:1:1", (i, i), CaseCounts::default())
            .unwrap());
    }
    // A live owner's range is not taken: a third owner gets the last range, then must wait
    // (nothing new is left within the budget, but others hold ranges with cases left).
    let third = range(store.lease(c, "host:3:3", 4, TIMEOUT));
    assert_eq!((third.next, third.end), (8, 10));
    assert_eq!(
        store.lease(c, "host:3:3", 4, TIMEOUT).unwrap(),
        Leased::Wait
    );
    // The first owner's lease, released, is taken over: it is told so.
    store.end_run(c, "host:1:1", ("{}", true), TIMEOUT).unwrap();
    let resumed = range(store.lease(c, "host:4:4", 4, TIMEOUT));
    assert_eq!((resumed.id, resumed.next, resumed.end), (first.id, 2, 4));
    assert!(!store
        .finish_case(c, &first, "host:1:1", (2, 2), CaseCounts::default())
        .unwrap());
    // Counted once even when run twice.
    let counts = CaseCounts {
        transactions: 3,
        ..CaseCounts::default()
    };
    assert!(store
        .finish_case(c, &resumed, "host:4:4", (2, 2), counts)
        .unwrap());
    let moved = Lease { next: 3, ..resumed };
    assert!(!store
        .finish_case(c, &moved, "host:4:4", (2, 2), counts)
        .unwrap());
    let info = store.campaign(c).unwrap();
    assert_eq!((info.cases, info.transactions), (3, 3));
    let finished: Vec<u64> = store
        .finished_cases(c)
        .unwrap()
        .iter()
        .map(|(i, _)| *i)
        .collect();
    assert_eq!(finished, vec![0, 1, 2]);
    // A holder silent for longer than the timeout (stopped, cut off) loses its range.
    std::thread::sleep(Duration::from_millis(5));
    let taken = range(store.lease(c, "host:5:5", 4, Duration::ZERO));
    assert_eq!((taken.id, taken.next), (resumed.id, 3));
    assert!(!store
        .finish_case(c, &moved, "host:4:4", (3, 3), CaseCounts::default())
        .unwrap());
}

#[test]
fn a_campaign_ends_when_every_case_ran_and_stays_resumable_otherwise() {
    let (_dir, store) = open();
    let new = campaign(Some(2));
    let c = store.start_campaign(&new).unwrap().id;
    let lease = range(store.lease(c, "me:1:1", 8, TIMEOUT));
    store
        .finish_case(c, &lease, "me:1:1", (0, 0), CaseCounts::default())
        .unwrap();
    assert!(
        !store.end_run(c, "me:1:1", ("{}", false), TIMEOUT).unwrap(),
        "case 1 has not run"
    );
    let resumable = store.resumable(&new.config, &new.targets).unwrap().unwrap();
    assert_eq!(resumable.id, c);
    let lease = range(store.lease(c, "me:2:2", 8, TIMEOUT));
    assert_eq!(lease.next, 1);
    store
        .finish_case(c, &lease, "me:2:2", (1, 1), CaseCounts::default())
        .unwrap();
    assert_eq!(store.lease(c, "me:3:3", 8, TIMEOUT).unwrap(), Leased::Done);
    assert!(store
        .end_run(c, "me:2:2", ("{\"done\":1}", false), TIMEOUT)
        .unwrap());
    assert_eq!(store.resumable(&new.config, &new.targets).unwrap(), None);
    // Joining by name: the same settings join, others are refused with the difference.
    let named = store.join_campaign("nightly", &new).unwrap();
    assert_eq!(store.join_campaign("nightly", &new).unwrap().id, named.id);
    let other = NewCampaign {
        config: "{}".into(),
        ..new
    };
    let refused = store
        .join_campaign("nightly", &other)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("other settings"), "{refused}");
}
