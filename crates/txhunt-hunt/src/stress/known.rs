//! Timing bugs already found and reported: a stress candidate whose signature matches one is
//! listed as that known bug, not as a new candidate, so that a run that only meets bugs
//! already on file ends quiet (exit 0) and says which reports they are.
//!
//! A timing bug has no deterministic scenario, so the `.sql` corpus cannot hold it; its
//! signature is kept here: the DBMS, the workload, the levels it was seen at, what found it
//! (a broken invariant, or the DSG oracle's phenomenon) and that its derived case replays
//! `timing-only`. A candidate whose derived case reproduces deterministically is never taken
//! for a known timing bug: it is something else. The match is by signature only, so a report
//! says "matches", and the candidate keeps its excerpt and derived case for a look.

use super::Candidate;
use serde::Serialize;
use txhunt_model::Isolation;

/// A known timing bug and what its stress candidates look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct KnownBug {
    /// Its name in the corpus.
    pub id: &'static str,
    /// Its report, relative to the repository's root.
    pub report: &'static str,
    /// The DBMS (the target profile's name).
    #[serde(skip)]
    pub dbms: &'static str,
    /// The workload it shows in.
    #[serde(skip)]
    pub workload: &'static str,
    /// The levels it was seen at.
    #[serde(skip)]
    pub levels: &'static [Isolation],
    /// What finds it: `invariant <name>`, or a DSG signature (`dsg:G-single`).
    #[serde(skip)]
    pub found_as: &'static [&'static str],
}

/// Every known timing bug.
pub const KNOWN: &[KnownBug] = &[KnownBug {
    id: "MARIADB-read-view-not-atomic",
    report: "corpus/mariadb/MARIADB-read-view-not-atomic.md",
    dbms: "mariadb",
    workload: "bank",
    levels: &[Isolation::ReadCommitted, Isolation::RepeatableRead],
    // The read sees T2's transfer but not T1's, which T2 waited for: the reader missed T1's
    // write, T2 overwrote a row T1 wrote, the reader saw T2's write (G-single).
    found_as: &["invariant read-partial-transfer", "dsg:G-single"],
}];

/// How `candidate` is found: its DSG signature, or its source (`invariant <name>`).
fn found_as(candidate: &Candidate) -> String {
    match &candidate.finding {
        Some(finding) => finding.signature.to_string(),
        None => candidate.source.clone(),
    }
}

/// The known bug `candidate` of a `workload` run on `dbms` at `level` matches, if any.
pub fn recognise(
    dbms: &str,
    workload: &str,
    level: Isolation,
    candidate: &Candidate,
) -> Option<&'static KnownBug> {
    let timing_only = (candidate.replay.as_ref()).is_none_or(|r| r.verdict == "timing-only");
    let found = found_as(candidate);
    KNOWN.iter().find(|bug| {
        timing_only
            && bug.dbms == dbms
            && bug.workload == workload
            && bug.levels.contains(&level)
            && bug.found_as.contains(&found.as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stress::derive::Replayed;
    use txhunt_model::adya::Phenomenon;
    use txhunt_oracle::{Finding, Signature};

    fn candidate(source: &str, verdict: Option<&'static str>) -> Candidate {
        Candidate {
            source: source.into(),
            summary: String::new(),
            finding: None,
            excerpt: Vec::new(),
            round: 1,
            seed: 11,
            replay: verdict.map(|verdict| Replayed {
                verdict,
                order: "invoked",
                scenario: String::new(),
                reduced: None,
                statements: (8, 8),
            }),
            known: None,
        }
    }

    #[test]
    fn the_read_view_race_is_recognised_only_where_it_was_seen_and_only_as_timing() {
        let partial = "invariant read-partial-transfer";
        let rr = Isolation::RepeatableRead;
        let known = |dbms, workload, level, c: &Candidate| recognise(dbms, workload, level, c);
        let timing = candidate(partial, Some("timing-only"));
        assert_eq!(
            known("mariadb", "bank", rr, &timing).map(|b| b.id),
            Some("MARIADB-read-view-not-atomic")
        );
        let not_replayed = candidate(partial, None);
        assert!(known("mariadb", "bank", Isolation::ReadCommitted, &not_replayed).is_some());
        // A deterministic reproduction is another bug; so is the same invariant elsewhere.
        for verdict in ["reproduces", "flaky"] {
            assert!(known("mariadb", "bank", rr, &candidate(partial, Some(verdict))).is_none());
        }
        assert!(known("postgres", "bank", rr, &timing).is_none());
        assert!(known("mariadb", "bank", Isolation::Serializable, &timing).is_none());
        assert!(known("mariadb", "register", rr, &timing).is_none());
        let total = candidate("invariant total-changed", Some("timing-only"));
        assert!(known("mariadb", "bank", rr, &total).is_none());
        // The DSG's candidate of the same race, by its phenomenon.
        let dsg = |phenomenon| Candidate {
            source: "dsg".into(),
            finding: Some(Finding::new(
                Signature::Dsg(phenomenon),
                String::new(),
                Vec::new(),
            )),
            ..candidate("dsg", Some("timing-only"))
        };
        assert!(known("mariadb", "bank", rr, &dsg(Phenomenon::GSingle)).is_some());
        assert!(known("mariadb", "bank", rr, &dsg(Phenomenon::G1c)).is_none());
    }

    #[test]
    fn every_known_bug_has_its_report_in_the_corpus() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        for bug in KNOWN {
            let path = std::path::Path::new(root).join(bug.report);
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{bug:?}: {e}"));
            assert!(text.contains(bug.workload), "{}", bug.report);
        }
    }
}
