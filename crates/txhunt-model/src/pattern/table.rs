//! The 46 anomaly patterns of APTrans (paper 004 in ../shared/reference/papers/) as static
//! data: Table 2's six named anomalies (§2.2), then Table 3's patterns 1–40 (§3.3).
//!
//! Each row keeps the paper's "disallowed in" levels as printed. The class is this crate's
//! reading of the pattern's own dependency edges by Adya's definitions; the note says where the
//! paper's name, text or levels disagree with those edges. Five texts are not the paper's
//! printing, which is malformed for them (the note gives the printed text): Table 2's dirty
//! read and Table 3's #6, #7, #30 and #31.

use crate::adya::Phenomenon::{self, G1a, G1b, G1c, G2Item, GSingle, G0};
use crate::Isolation::{self, ReadCommitted, ReadUncommitted, RepeatableRead, Serializable};

/// One pattern as the paper gives it, with its class and a note.
pub(super) struct Row {
    /// `lost-update`, `aptrans-36`, ….
    pub name: &'static str,
    /// The pattern text, parsed by [`super::parse`].
    pub text: &'static str,
    /// The most severe Adya phenomenon the pattern's edges and reads show, if any.
    pub class: Option<Phenomenon>,
    /// The paper's "disallowed in" column.
    pub levels: &'static [Isolation],
    /// One line: what the pattern is and where the paper disagrees with its edges.
    pub note: &'static str,
}

/// The paper's "ALL": every level it names.
const ALL: &[Isolation] = &[ReadUncommitted, ReadCommitted, RepeatableRead, Serializable];
/// "RC, RR, SER".
const RC_UP: &[Isolation] = &[ReadCommitted, RepeatableRead, Serializable];
/// "RR, SER".
const RR_UP: &[Isolation] = &[RepeatableRead, Serializable];
/// "RR" alone (Table 3 #2).
const RR: &[Isolation] = &[RepeatableRead];
/// "SER".
const SER: &[Isolation] = &[Serializable];

/// Shorthand for a row.
const fn row(
    name: &'static str,
    text: &'static str,
    class: Option<Phenomenon>,
    levels: &'static [Isolation],
    note: &'static str,
) -> Row {
    Row {
        name,
        text,
        class,
        levels,
        note,
    }
}

/// The 46 rows, Table 2's first.
pub(super) const ROWS: [Row; 46] = [
    // Table 2 (§2.2).
    row(
        "dirty-write",
        "W1[x1]W2[x2]C1C2",
        None,
        ALL,
        "dirty write (P0): T2 overwrites T1's uncommitted x1; the only edge is T1 -ww[x]-> T2, \
         so there is no cycle and no G0 despite the paper's ALL; it is an anomaly only because \
         W2 runs before C1 (lock-based levels forbid that at every level)",
    ),
    row(
        "dirty-read",
        "W1[x1]R2[x1]A1C2",
        Some(G1a),
        RC_UP,
        "dirty read (P1) of an aborted write, G1a: T2 reads x1, T1 aborts, T2 commits; Table 2 \
         prints R2[x2], a version nobody installs, so the text is §4.5 Case Study 1's R2[x1]",
    ),
    row(
        "lost-update",
        "R1[x0]W2[x1]C2W1[x2]C1",
        Some(GSingle),
        RR_UP,
        "lost update (P4): T1 reads x0, T2 installs and commits x1, T1 overwrites it with x2; \
         cycle T1 -rw[x]-> T2 -ww[x]-> T1 with one anti-dependency",
    ),
    row(
        "non-repeatable-read",
        "R1[x0]W2[x1]C2R1[x1]C1",
        Some(GSingle),
        RR_UP,
        "non-repeatable read (P2): T1 reads x0, T2 commits x1, T1 rereads and sees x1; cycle \
         T1 -rw[x]-> T2 -wr[x]-> T1 with one anti-dependency",
    ),
    row(
        "write-skew",
        "R1[x0]W2[x1]W2[y1]C2R1[y1]C1",
        Some(GSingle),
        SER,
        "named write skew, but the edges T1 -rw[x]-> T2 -wr[y]-> T1 make it Berenson's read \
         skew (A5A), a G-single cycle, which Adya forbids from RR (PL-2.99) on, not only at SER",
    ),
    row(
        "read-skew",
        "R1[x0]R2[y0]W1[y1]W2[x1]C1C2",
        Some(G2Item),
        SER,
        "named read skew, but the edges T1 -rw[x]-> T2 -rw[y]-> T1 make it Berenson's write \
         skew (A5B), a G2-item cycle; SER alone fits snapshot RR, Adya's PL-2.99 (RR) forbids it",
    ),
    // Table 3 (§3.3).
    row(
        "aptrans-1",
        "W1[x1]R2[x1]C1C2",
        None,
        RC_UP,
        "dirty read of a write that commits: only T1 -wr[x]-> T2, no cycle (serializable as T1, \
         T2); an anomaly only because R2 reads x1 before C1, which the paper forbids from RC on",
    ),
    row(
        "aptrans-2",
        "W1[x1]C1R2[x1]C2",
        None,
        RR,
        "only T1 -wr[x]-> T2, no cycle (serializable as T1, T2); an anomaly only because T2 began \
         before C1, so a snapshot RR must show it x0; §4.5 Case Study 2 is this pattern (it says \
         'pattern 3')",
    ),
    row(
        "aptrans-3",
        "W1[x1]R2[x1]C2W1[x2]C1",
        Some(G1b),
        RC_UP,
        "intermediate read, G1b: T2 reads x1, which T1 later overwrites with x2; the version rule \
         also gives T2 -rw[x]-> T1, closing a G-single cycle with T1 -wr[x]-> T2, but G1b is the \
         more severe class",
    ),
    row(
        "aptrans-4",
        "W1[x1]W2[y1]W2[x2]W1[y2]C1C2",
        Some(G0),
        ALL,
        "each overwrites the other's uncommitted write: T1 -ww[x]-> T2 -ww[y]-> T1, a G0 cycle",
    ),
    row(
        "aptrans-5",
        "W1[x1]W2[y1]W1[y2]W2[x2]C1C2",
        Some(G0),
        ALL,
        "each overwrites the other's uncommitted write: T1 -ww[x]-> T2 -ww[y]-> T1, a G0 cycle",
    ),
    row(
        "aptrans-6",
        "W1[x1]W2[y1]W2[x2]C2W1[y2]C1",
        Some(G0),
        ALL,
        "G0 cycle T1 -ww[x]-> T2 -ww[y]-> T1; the paper prints W1[x1]W2[x2]C2W2[y2]W1[y2]C1 (T2 \
         writes after C2, y2 written twice), restored as the C2-first order of #4, as #14 is of \
         #12",
    ),
    row(
        "aptrans-7",
        "W1[x1]W2[y1]W1[y2]C1W2[x2]C2",
        Some(G0),
        ALL,
        "G0 cycle T1 -ww[x]-> T2 -ww[y]-> T1; the paper prints W1[x1]W2[y1]W2[x2]C2W1[x2]C1 (x2 \
         written twice, no y2), restored as the C1-first order of #5, as #15 is of #13",
    ),
    row(
        "aptrans-8",
        "W1[x1]W2[y1]W2[x2]R1[y1]C1C2",
        Some(G1c),
        ALL,
        "G1c cycle T1 -ww[x]-> T2 -wr[y]-> T1; the paper's ALL adds RU because W2[x2] overwrites \
         uncommitted x1 (P0), but Adya's PL-1 (RU) forbids only G0",
    ),
    row(
        "aptrans-9",
        "W1[x1]W2[y1]R1[y1]W2[x2]C1C2",
        Some(G1c),
        ALL,
        "G1c cycle T1 -ww[x]-> T2 -wr[y]-> T1; the paper's ALL adds RU because W2[x2] overwrites \
         uncommitted x1 (P0), but Adya's PL-1 (RU) forbids only G0",
    ),
    row(
        "aptrans-10",
        "W1[x1]W2[y1]W2[x2]C2R1[y1]C1",
        Some(G1c),
        ALL,
        "G1c cycle T1 -ww[x]-> T2 -wr[y]-> T1; the paper's ALL adds RU because W2[x2] overwrites \
         uncommitted x1 (P0), but Adya's PL-1 (RU) forbids only G0",
    ),
    row(
        "aptrans-11",
        "W1[x1]W2[y1]R1[y1]C1W2[x2]C2",
        Some(G1c),
        RC_UP,
        "G1c cycle T1 -ww[x]-> T2 -wr[y]-> T1: T1 reads T2's uncommitted y1 and commits, then T2 \
         overwrites x1",
    ),
    row(
        "aptrans-12",
        "W1[x1]R2[y0]W2[x2]W1[y1]C1C2",
        Some(GSingle),
        ALL,
        "G-single cycle T1 -ww[x]-> T2 -rw[y]-> T1; the paper's ALL comes from W2[x2] \
         overwriting uncommitted x1 (P0), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-13",
        "W1[x1]R2[y0]W1[y1]W2[x2]C1C2",
        Some(GSingle),
        ALL,
        "G-single cycle T1 -ww[x]-> T2 -rw[y]-> T1; the paper's ALL comes from W2[x2] \
         overwriting uncommitted x1 (P0), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-14",
        "W1[x1]R2[y0]W2[x2]C2W1[y1]C1",
        Some(GSingle),
        ALL,
        "G-single cycle T1 -ww[x]-> T2 -rw[y]-> T1; the paper's ALL comes from W2[x2] \
         overwriting uncommitted x1 (P0), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-15",
        "W1[x1]R2[y0]W1[y1]C1W2[x2]C2",
        Some(GSingle),
        RR_UP,
        "G-single cycle T1 -ww[x]-> T2 -rw[y]-> T1: T2 read y0, T1 commits y1, T2 then \
         overwrites x1",
    ),
    row(
        "aptrans-16",
        "W1[x1]W2[y1]R2[x1]W1[y2]C1C2",
        Some(G1c),
        ALL,
        "G1c cycle T1 -wr[x]-> T2 -ww[y]-> T1; the paper's ALL adds RU because W1[y2] overwrites \
         uncommitted y1 (P0), but Adya's PL-1 (RU) forbids only G0",
    ),
    row(
        "aptrans-17",
        "W1[x1]W2[y1]W1[y2]R2[x1]C1C2",
        Some(G1c),
        ALL,
        "G1c cycle T1 -wr[x]-> T2 -ww[y]-> T1; the paper's ALL adds RU because W1[y2] overwrites \
         uncommitted y1 (P0), but Adya's PL-1 (RU) forbids only G0",
    ),
    row(
        "aptrans-18",
        "W1[x1]W2[y1]R2[x1]C2W1[y2]C1",
        Some(G1c),
        RC_UP,
        "G1c cycle T1 -wr[x]-> T2 -ww[y]-> T1: T2 reads T1's uncommitted x1 and commits, then T1 \
         overwrites y1",
    ),
    row(
        "aptrans-19",
        "W1[x1]W2[y1]W1[y2]C1R2[x1]C2",
        Some(G1c),
        ALL,
        "G1c cycle T1 -wr[x]-> T2 -ww[y]-> T1; the paper's ALL adds RU because W1[y2] overwrites \
         uncommitted y1 (P0), but Adya's PL-1 (RU) forbids only G0",
    ),
    row(
        "aptrans-20",
        "W1[x1]W2[y1]R2[x1]R1[y1]C1C2",
        Some(G1c),
        RC_UP,
        "circular information flow, G1c: T1 -wr[x]-> T2 -wr[y]-> T1, each reads the other's \
         uncommitted write",
    ),
    row(
        "aptrans-21",
        "W1[x1]W2[y1]R1[y1]R2[x1]C1C2",
        Some(G1c),
        RC_UP,
        "circular information flow, G1c: T1 -wr[x]-> T2 -wr[y]-> T1, each reads the other's \
         uncommitted write",
    ),
    row(
        "aptrans-22",
        "W1[x1]W2[y1]R2[x1]C2R1[y1]C1",
        Some(G1c),
        RC_UP,
        "circular information flow, G1c: T1 -wr[x]-> T2 -wr[y]-> T1; T2 reads uncommitted x1",
    ),
    row(
        "aptrans-23",
        "W1[x1]W2[y1]R1[y1]C1R2[x1]C2",
        Some(G1c),
        RC_UP,
        "circular information flow, G1c: T1 -wr[x]-> T2 -wr[y]-> T1; T1 reads uncommitted y1",
    ),
    row(
        "aptrans-24",
        "W1[x1]R2[y0]R2[x1]W1[y1]C1C2",
        Some(GSingle),
        RC_UP,
        "G-single cycle T1 -wr[x]-> T2 -rw[y]-> T1; the paper adds RC because R2[x1] reads \
         uncommitted x1 (P1), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-25",
        "W1[x1]R2[y0]W1[y1]R2[x1]C1C2",
        Some(GSingle),
        RC_UP,
        "G-single cycle T1 -wr[x]-> T2 -rw[y]-> T1; the paper adds RC because R2[x1] reads \
         uncommitted x1 (P1), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-26",
        "W1[x1]R2[y0]R2[x1]C2W1[y1]C1",
        Some(GSingle),
        RC_UP,
        "G-single cycle T1 -wr[x]-> T2 -rw[y]-> T1; the paper adds RC because R2[x1] reads \
         uncommitted x1 (P1), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-27",
        "W1[x1]R2[y0]W1[y1]C1R2[x1]C2",
        Some(GSingle),
        RR_UP,
        "read skew, G-single cycle T1 -wr[x]-> T2 -rw[y]-> T1: T2 reads y0, then after C1 reads \
         x1",
    ),
    row(
        "aptrans-28",
        "R1[x0]W2[y1]W2[x1]W1[y2]C1C2",
        Some(GSingle),
        RC_UP,
        "G-single cycle T1 -rw[x]-> T2 -ww[y]-> T1; the paper adds RC (W1[y2] overwrites \
         uncommitted y1, a P0 it rates ALL elsewhere), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-29",
        "R1[x0]W2[y1]W1[y2]W2[x1]C1C2",
        Some(GSingle),
        RC_UP,
        "G-single cycle T1 -rw[x]-> T2 -ww[y]-> T1; the paper adds RC (W1[y2] overwrites \
         uncommitted y1, a P0 it rates ALL elsewhere), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-30",
        "R1[x0]W2[y1]W2[x1]C2W1[y2]C1",
        Some(GSingle),
        RR_UP,
        "G-single cycle T1 -rw[x]-> T2 -ww[y]-> T1; the paper prints R1[x0]W2[x1]C2W2[y1]W1[y2]C1 \
         (T2 writes after C2), restored as the C2-first order of #28",
    ),
    row(
        "aptrans-31",
        "R1[x0]W2[y1]W1[y2]C1W2[x1]C2",
        Some(GSingle),
        ALL,
        "G-single cycle T1 -rw[x]-> T2 -ww[y]-> T1; the paper prints R1[x0]W2[y1]W2[x1]C2W1[x1]C1 \
         (x1 written twice, no y2), restored as the C1-first order of #29; ALL (P0 on y) exceeds \
         Adya's RR",
    ),
    row(
        "aptrans-32",
        "R1[x0]W2[y1]W2[x1]R1[y1]C1C2",
        Some(GSingle),
        RC_UP,
        "G-single cycle T1 -rw[x]-> T2 -wr[y]-> T1; the paper adds RC because R1[y1] reads \
         uncommitted y1 (P1), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-33",
        "R1[x0]W2[y1]R1[y1]W2[x1]C1C2",
        Some(GSingle),
        RC_UP,
        "G-single cycle T1 -rw[x]-> T2 -wr[y]-> T1; the paper adds RC because R1[y1] reads \
         uncommitted y1 (P1), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-34",
        "R1[x0]W2[y1]W2[x1]C2R1[y1]C1",
        Some(GSingle),
        SER,
        "read skew (A5A), the same edges as Table 2's write-skew: G-single cycle T1 -rw[x]-> T2 \
         -wr[y]-> T1, which Adya forbids from RR on, not only at SER",
    ),
    row(
        "aptrans-35",
        "R1[x0]W2[y1]R1[y1]C1W2[x1]C2",
        Some(GSingle),
        RC_UP,
        "G-single cycle T1 -rw[x]-> T2 -wr[y]-> T1; the paper adds RC because R1[y1] reads \
         uncommitted y1 (P1), but Adya forbids G-single only from RR on",
    ),
    row(
        "aptrans-36",
        "W1[x1]W2[y1]C2R1[y1]C1",
        None,
        SER,
        "only T2 -wr[y]-> T1 (T2 never touches x), no cycle, serializable as T2, T1; §1 and §4.5 \
         call it a ww+wr cycle; an anomaly only because T1 began before C2 yet sees y1",
    ),
    row(
        "aptrans-37",
        "R1[x0]R2[y0]W2[x1]W1[y1]C1C2",
        Some(G2Item),
        SER,
        "write skew (A5B), G2-item cycle T1 -rw[x]-> T2 -rw[y]-> T1; SER alone fits snapshot \
         RR, Adya's PL-2.99 (RR) forbids it",
    ),
    row(
        "aptrans-38",
        "R1[x0]R2[y0]W1[y1]W2[x1]C1C2",
        Some(G2Item),
        SER,
        "write skew (A5B), G2-item cycle T1 -rw[x]-> T2 -rw[y]-> T1 (Table 2's read-skew text); \
         SER alone fits snapshot RR, Adya's PL-2.99 (RR) forbids it",
    ),
    row(
        "aptrans-39",
        "R1[x0]R2[y0]W2[x1]C2W1[y1]C1",
        Some(G2Item),
        SER,
        "write skew (A5B), G2-item cycle T1 -rw[x]-> T2 -rw[y]-> T1; SER alone fits snapshot \
         RR, Adya's PL-2.99 (RR) forbids it",
    ),
    row(
        "aptrans-40",
        "R1[x0]R2[y0]W1[y1]C1W2[x1]C2",
        Some(G2Item),
        SER,
        "write skew (A5B), G2-item cycle T1 -rw[x]-> T2 -rw[y]-> T1; SER alone fits snapshot \
         RR, Adya's PL-2.99 (RR) forbids it",
    ),
];
