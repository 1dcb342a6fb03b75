//! The anomaly patterns of APTrans (Liu et al., "Anomaly Pattern-guided Transaction Bug
//! Testing in Relational Databases", SIGMOD 2026; paper 004 in ../shared/reference/papers/) as
//! data: the six of Table 2 (§2.2) and the forty of Table 3 (§3.3), 46 in all.
//!
//! A pattern (Definition 2.1) is a sequence of operations such as `R1[x0]W2[x1]C2W1[x2]C1`:
//! `Ri[xk]` and `Wi[xk]` read and write version k of item x in transaction Ti, `Ci` and `Ai`
//! commit and abort Ti. Versions of an item are numbered in write order, 0 being the initial
//! state. APTrans turns a pattern into three constraints on a generated test: each operation's
//! statement type, the items shared, and the schedule ([`Pattern::schedule`][schedule]); every
//! transaction begins before the first operation.
//!
//! [`Pattern::deps`][deps] gives the direct dependencies (Adya's ww, wr, rw) the versions
//! imply, and [`Pattern::class`][class] the most severe Adya phenomenon they show. The paper's
//! own labels and levels do not always agree with those edges; each pattern's
//! [`Pattern::note`][note] says where.
//!
//! [schedule]: crate::pattern::Pattern::schedule
//! [deps]: crate::pattern::Pattern::deps
//! [class]: crate::pattern::Pattern::class
//! [note]: crate::pattern::Pattern::note

mod parse;
mod table;

pub use parse::{parse, PatternError};

use crate::adya::Phenomenon;
use crate::Isolation;
use std::fmt;

/// The type of one operation of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// `R`: read a version of an item.
    Read,
    /// `W`: write (install) a version of an item.
    Write,
    /// `C`: commit.
    Commit,
    /// `A`: abort (roll back).
    Abort,
}

impl OpKind {
    /// The letter the pattern text uses: `R`, `W`, `C` or `A`.
    pub fn letter(self) -> char {
        match self {
            OpKind::Read => 'R',
            OpKind::Write => 'W',
            OpKind::Commit => 'C',
            OpKind::Abort => 'A',
        }
    }
}

/// One operation of a pattern: `W2[x1]` is a write by T2 of version 1 of item x.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Op {
    /// Read, write, commit or abort.
    pub kind: OpKind,
    /// The transaction's number, from 1.
    pub txn: u8,
    /// The item read or written; `None` for a commit or abort.
    pub item: Option<char>,
    /// The version read or written (0 is the initial state); `None` for a commit or abort.
    pub version: Option<u8>,
}

impl fmt::Display for Op {
    /// The operation as the pattern text writes it: `R1[x0]`, `C2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.letter(), self.txn)?;
        if let (Some(item), Some(version)) = (self.item, self.version) {
            write!(f, "[{item}{version}]")?;
        }
        Ok(())
    }
}

/// The kind of a direct dependency between two transactions (Adya).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DepKind {
    /// Write dependency: the later transaction installs the next version of what the earlier
    /// one installed.
    Ww,
    /// Read dependency: the later transaction reads the version the earlier one installed.
    Wr,
    /// Anti-dependency: the later transaction installs the next version of what the earlier
    /// one read.
    Rw,
}

impl DepKind {
    /// `ww`, `wr` or `rw`.
    pub fn name(self) -> &'static str {
        match self {
            DepKind::Ww => "ww",
            DepKind::Wr => "wr",
            DepKind::Rw => "rw",
        }
    }
}

/// A direct dependency `T{from} -{kind}[{item}]-> T{to}` between two distinct transactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dep {
    /// The transaction depended on.
    pub from: u8,
    /// The dependent transaction.
    pub to: u8,
    /// ww, wr or rw.
    pub kind: DepKind,
    /// The item the dependency is on.
    pub item: char,
}

impl fmt::Display for Dep {
    /// Adya's arrow form: `T1 -rw[x]-> T2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "T{} -{}[{}]-> T{}",
            self.from,
            self.kind.name(),
            self.item,
            self.to
        )
    }
}

/// One anomaly pattern of APTrans, parsed, with its class and the paper's levels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// Table 2's anomaly in kebab case (`lost-update`) or `aptrans-N` for Table 3's pattern N.
    pub name: &'static str,
    /// The pattern text, e.g. `R1[x0]W2[x1]C2W1[x2]C1`.
    pub text: &'static str,
    /// The operations of `text`, in order.
    pub ops: Vec<Op>,
    /// The most severe Adya phenomenon the pattern's dependencies and reads show; `None` when it
    /// has no cycle and no aborted or intermediate read (an anomaly only under a start-order or
    /// snapshot condition, which `note` names).
    pub class: Option<Phenomenon>,
    /// The levels the paper says disallow the pattern (its "ALL" is RU, RC, RR and SER).
    pub paper_forbidden: Vec<Isolation>,
    /// One line: what the pattern is, and where the paper's label disagrees with the edges.
    pub note: &'static str,
}

impl Pattern {
    /// The direct dependencies between distinct transactions that the versions imply, sorted
    /// and without repeats. `Ti -ww[x]-> Tj` when Ti writes x_k and Tj writes x_{k+1};
    /// `Ti -wr[x]-> Tj` when Ti writes x_k and Tj reads it; `Ti -rw[x]-> Tj` when Ti reads x_k
    /// and Tj writes x_{k+1}. Version 0 has no writer. Edges touching an aborted transaction are
    /// kept: the pattern, not a committed history, is described.
    pub fn deps(&self) -> Vec<Dep> {
        let mut deps = Vec::new();
        for op in &self.ops {
            let (Some(item), Some(version)) = (op.item, op.version) else {
                continue;
            };
            let mut add = |from: Option<u8>, to: Option<u8>, kind| {
                if let (Some(from), Some(to)) = (from, to) {
                    if from != to {
                        deps.push(Dep {
                            from,
                            to,
                            kind,
                            item,
                        });
                    }
                }
            };
            match op.kind {
                OpKind::Write => {
                    let previous = version.checked_sub(1).and_then(|v| self.writer(item, v));
                    add(previous, Some(op.txn), DepKind::Ww);
                }
                OpKind::Read => {
                    add(self.writer(item, version), Some(op.txn), DepKind::Wr);
                    let next = version.checked_add(1).and_then(|v| self.writer(item, v));
                    add(Some(op.txn), next, DepKind::Rw);
                }
                OpKind::Commit | OpKind::Abort => {}
            }
        }
        deps.sort();
        deps.dedup();
        deps
    }

    /// The transactions' numbers, ascending.
    pub fn txns(&self) -> Vec<u8> {
        let mut txns: Vec<u8> = self.ops.iter().map(|op| op.txn).collect();
        txns.sort_unstable();
        txns.dedup();
        txns
    }

    /// The items read or written, ascending.
    pub fn items(&self) -> Vec<char> {
        let mut items: Vec<char> = self.ops.iter().filter_map(|op| op.item).collect();
        items.sort_unstable();
        items.dedup();
        items
    }

    /// The transaction of each operation, in order: APTrans's schedule constraint (§3.3.1),
    /// e.g. `[1, 2, 2, 1, 1]` for the lost update.
    pub fn schedule(&self) -> Vec<u8> {
        self.ops.iter().map(|op| op.txn).collect()
    }

    /// The transaction that writes version `version` of `item`, if one does (the first such,
    /// should a malformed pattern write it twice).
    fn writer(&self, item: char, version: u8) -> Option<u8> {
        self.ops
            .iter()
            .find(|op| {
                op.kind == OpKind::Write && op.item == Some(item) && op.version == Some(version)
            })
            .map(|op| op.txn)
    }
}

/// The 46 patterns: Table 2's six (dirty write, dirty read, lost update, non-repeatable read,
/// write skew, read skew), then Table 3's `aptrans-1` … `aptrans-40`.
pub fn all() -> Vec<Pattern> {
    table::ROWS
        .iter()
        .map(|row| Pattern {
            name: row.name,
            text: row.text,
            ops: parse(row.text).expect("the static pattern table holds only valid texts"),
            class: row.class,
            paper_forbidden: row.levels.to_vec(),
            note: row.note,
        })
        .collect()
}

/// The pattern named `name` (`lost-update`, `aptrans-36`, …), if there is one.
pub fn by_name(name: &str) -> Option<Pattern> {
    all().into_iter().find(|pattern| pattern.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adya::Phenomenon::{G1a, G1b, G1c, G2Item, GSingle, G0};
    use std::collections::BTreeSet;

    fn dep(from: u8, kind: DepKind, item: char, to: u8) -> Dep {
        Dep {
            from,
            to,
            kind,
            item,
        }
    }

    fn pattern(name: &str) -> Pattern {
        by_name(name).unwrap_or_else(|| panic!("no pattern {name}"))
    }

    /// Transactions that end with an abort.
    fn aborted(p: &Pattern) -> Vec<u8> {
        p.ops
            .iter()
            .filter(|op| op.kind == OpKind::Abort)
            .map(|op| op.txn)
            .collect()
    }

    /// Why `ops` is not a well-formed pattern, if it is not: every transaction ends once with a
    /// commit or abort; each item's written versions are 1, 2, … in write order, each written
    /// once; every read is of version 0 or of a version written earlier.
    fn malformation(ops: &[Op]) -> Option<String> {
        let mut last: Vec<(char, u8)> = Vec::new();
        for op in ops {
            let (Some(item), Some(version)) = (op.item, op.version) else {
                continue;
            };
            let latest = last.iter().find(|(i, _)| *i == item).map_or(0, |(_, v)| *v);
            match op.kind {
                OpKind::Write if version != latest + 1 => {
                    return Some(format!("{op} after {item}{latest}"))
                }
                OpKind::Write => {
                    last.retain(|(i, _)| *i != item);
                    last.push((item, version));
                }
                _ if version > latest => {
                    return Some(format!("{op} before {item}{version} exists"))
                }
                _ => {}
            }
        }
        let txns: BTreeSet<u8> = ops.iter().map(|op| op.txn).collect();
        txns.into_iter().find_map(|txn| {
            let ends = ops
                .iter()
                .filter(|op| op.txn == txn && matches!(op.kind, OpKind::Commit | OpKind::Abort))
                .count();
            (ends != 1).then(|| format!("T{txn} ends {ends} times"))
        })
    }

    /// Every simple cycle of transactions in `deps` (each once, from its smallest transaction),
    /// as the kinds of its edges, one list per choice of edge between consecutive transactions.
    fn cycles(txns: &[u8], deps: &[Dep]) -> Vec<Vec<DepKind>> {
        fn extend(path: &mut Vec<u8>, txns: &[u8], deps: &[Dep], out: &mut Vec<Vec<u8>>) {
            let (first, last) = (path[0], path[path.len() - 1]);
            for &next in txns {
                let linked = deps.iter().any(|d| d.from == last && d.to == next);
                if !linked {
                    continue;
                }
                if next == first {
                    out.push(path.clone());
                } else if next > first && !path.contains(&next) {
                    path.push(next);
                    extend(path, txns, deps, out);
                    path.pop();
                }
            }
        }
        let mut node_cycles = Vec::new();
        for &start in txns {
            extend(&mut vec![start], txns, deps, &mut node_cycles);
        }
        let mut kinds = Vec::new();
        for cycle in node_cycles {
            let mut choices: Vec<Vec<DepKind>> = vec![Vec::new()];
            for (i, &from) in cycle.iter().enumerate() {
                let to = cycle[(i + 1) % cycle.len()];
                let options: Vec<DepKind> = deps
                    .iter()
                    .filter(|d| d.from == from && d.to == to)
                    .map(|d| d.kind)
                    .collect();
                choices = choices
                    .iter()
                    .flat_map(|prefix| {
                        options.iter().map(move |&kind| {
                            let mut longer = prefix.clone();
                            longer.push(kind);
                            longer
                        })
                    })
                    .collect();
            }
            kinds.extend(choices);
        }
        kinds
    }

    /// The class of a cycle by its edge kinds (item dependencies only).
    fn cycle_class(kinds: &[DepKind]) -> Phenomenon {
        let rw = kinds.iter().filter(|k| **k == DepKind::Rw).count();
        match rw {
            0 if kinds.iter().all(|k| *k == DepKind::Ww) => G0,
            0 => G1c,
            1 => GSingle,
            _ => G2Item,
        }
    }

    /// Every phenomenon the pattern shows, most severe first: G1a and G1b by their read
    /// conditions (a committed transaction reads another's aborted or overwritten version),
    /// the cycle classes from the cycles among committed transactions.
    fn phenomena(p: &Pattern) -> Vec<Phenomenon> {
        let aborted = aborted(p);
        let mut found = BTreeSet::new();
        for op in p.ops.iter().filter(|op| op.kind == OpKind::Read) {
            let (Some(item), Some(version)) = (op.item, op.version) else {
                continue;
            };
            let Some(writer) = p.writer(item, version) else {
                continue;
            };
            if writer == op.txn || aborted.contains(&op.txn) {
                continue;
            }
            if aborted.contains(&writer) {
                found.insert(G1a);
            }
            if p.writer(item, version + 1) == Some(writer) {
                found.insert(G1b);
            }
        }
        let committed: Vec<u8> = p
            .txns()
            .into_iter()
            .filter(|t| !aborted.contains(t))
            .collect();
        let deps: Vec<Dep> = p
            .deps()
            .into_iter()
            .filter(|d| committed.contains(&d.from) && committed.contains(&d.to))
            .collect();
        for kinds in cycles(&committed, &deps) {
            found.insert(cycle_class(&kinds));
        }
        found.into_iter().collect()
    }

    /// The levels Adya's definitions forbid a class at: PL-1 (RU) forbids G0, PL-2 (RC) also
    /// G1, PL-2.99 (RR) also G2-item, PL-3 (SER) every cycle.
    fn adya_forbidden(class: Option<Phenomenon>) -> Vec<Isolation> {
        use Isolation::*;
        match class {
            None => vec![],
            Some(G0) => vec![ReadUncommitted, ReadCommitted, RepeatableRead, Serializable],
            Some(G1a | G1b | G1c) => vec![ReadCommitted, RepeatableRead, Serializable],
            Some(GSingle | G2Item) => vec![RepeatableRead, Serializable],
            Some(Phenomenon::G2) => vec![Serializable],
        }
    }

    #[test]
    fn forty_six_uniquely_named_patterns_that_parse() {
        let all = all();
        assert_eq!(all.len(), 46);
        let names: BTreeSet<&str> = all.iter().map(|p| p.name).collect();
        assert_eq!(names.len(), 46);
        let table2 = [
            "dirty-write",
            "dirty-read",
            "lost-update",
            "non-repeatable-read",
            "write-skew",
            "read-skew",
        ];
        for (i, p) in all.iter().enumerate() {
            let expected = match table2.get(i) {
                Some(name) => name.to_string(),
                None => format!("aptrans-{}", i - 5),
            };
            assert_eq!(p.name, expected);
            assert_eq!(parse(p.text).as_ref(), Ok(&p.ops), "{}", p.name);
            let printed: String = p.ops.iter().map(Op::to_string).collect();
            assert_eq!(printed, p.text, "{}", p.name);
            assert!(!p.note.is_empty() && !p.note.contains('\n'), "{}", p.name);
            assert!(!p.paper_forbidden.is_empty(), "{}", p.name);
        }
        assert_eq!(by_name("aptrans-40").map(|p| p.text), Some(all[45].text));
        assert_eq!(by_name("aptrans-41"), None);
    }

    #[test]
    fn patterns_are_well_formed() {
        for p in all() {
            assert_eq!(malformation(&p.ops), None, "{} {}", p.name, p.text);
            assert_eq!(p.txns(), vec![1, 2], "{}", p.name);
        }
    }

    #[test]
    fn the_papers_misprints_are_caught() {
        // As printed: Table 2's dirty read, Table 3's #6, #7, #30 and #31.
        let misread = parse("W1[x1]R2[x2]A1C2").unwrap();
        assert_eq!(
            malformation(&misread).as_deref(),
            Some("R2[x2] before x2 exists")
        );
        assert!(parse("W1[x1]W2[x2]C2W2[y2]W1[y2]C1").is_err());
        let seven = parse("W1[x1]W2[y1]W2[x2]C2W1[x2]C1").unwrap();
        assert_eq!(malformation(&seven).as_deref(), Some("W1[x2] after x2"));
        assert!(parse("R1[x0]W2[x1]C2W2[y1]W1[y2]C1").is_err());
        let thirty_one = parse("R1[x0]W2[y1]W2[x1]C2W1[x1]C1").unwrap();
        assert_eq!(
            malformation(&thirty_one).as_deref(),
            Some("W1[x1] after x1")
        );
    }

    #[test]
    fn only_table_2s_read_skew_repeats_a_table_3_text() {
        let all = all();
        let mut repeats = Vec::new();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                if a.text == b.text {
                    repeats.push((a.name, b.name));
                }
            }
        }
        assert_eq!(repeats, vec![("read-skew", "aptrans-38")]);
    }

    #[test]
    fn each_class_is_the_most_severe_phenomenon_its_edges_show() {
        for p in all() {
            let shown = phenomena(&p);
            assert_eq!(p.class, shown.first().copied(), "{}: {:?}", p.name, shown);
            match p.class {
                Some(G1a | G1b) | None => {}
                Some(_) => assert!(!cycles(&p.txns(), &p.deps()).is_empty(), "{}", p.name),
            }
        }
    }

    #[test]
    fn class_counts() {
        let count = |class| all().iter().filter(|p| p.class == class).count();
        assert_eq!(count(None), 4);
        assert_eq!(count(Some(G0)), 4);
        assert_eq!(count(Some(G1a)), 1);
        assert_eq!(count(Some(G1b)), 1);
        assert_eq!(count(Some(G1c)), 12);
        assert_eq!(count(Some(GSingle)), 19);
        assert_eq!(count(Some(G2Item)), 5);
    }

    #[test]
    fn lost_update_edges_and_schedule() {
        let p = pattern("lost-update");
        assert_eq!(
            p.deps(),
            vec![dep(1, DepKind::Rw, 'x', 2), dep(2, DepKind::Ww, 'x', 1)]
        );
        assert_eq!(p.schedule(), vec![1, 2, 2, 1, 1]);
        assert_eq!(p.items(), vec!['x']);
        assert_eq!(p.class, Some(GSingle));
    }

    #[test]
    fn aptrans_36_is_a_single_read_dependency_not_a_cycle() {
        let p = pattern("aptrans-36");
        assert_eq!(p.text, "W1[x1]W2[y1]C2R1[y1]C1");
        assert_eq!(p.deps(), vec![dep(2, DepKind::Wr, 'y', 1)]);
        assert_eq!(p.deps()[0].to_string(), "T2 -wr[y]-> T1");
        assert!(cycles(&p.txns(), &p.deps()).is_empty());
        assert_eq!(p.class, None);
        assert_eq!(p.items(), vec!['x', 'y']);
        assert_eq!(p.schedule(), vec![1, 2, 2, 1, 1]);
    }

    #[test]
    fn table_2s_skews_are_swapped() {
        // "Write skew" has one anti-dependency (read skew, A5A); "read skew" has two (A5B).
        let write_skew = pattern("write-skew");
        assert_eq!(
            write_skew.deps(),
            vec![dep(1, DepKind::Rw, 'x', 2), dep(2, DepKind::Wr, 'y', 1)]
        );
        let read_skew = pattern("read-skew");
        assert_eq!(
            read_skew.deps(),
            vec![dep(1, DepKind::Rw, 'x', 2), dep(2, DepKind::Rw, 'y', 1)]
        );
    }

    #[test]
    fn dirty_write_has_no_cycle() {
        let p = pattern("dirty-write");
        assert_eq!(p.deps(), vec![dep(1, DepKind::Ww, 'x', 2)]);
        assert!(phenomena(&p).is_empty());
    }

    #[test]
    fn an_intermediate_read_also_closes_a_cycle() {
        let p = pattern("aptrans-3");
        assert_eq!(
            p.deps(),
            vec![dep(1, DepKind::Wr, 'x', 2), dep(2, DepKind::Rw, 'x', 1)]
        );
        assert_eq!(phenomena(&p), vec![G1b, GSingle]);
    }

    #[test]
    fn the_papers_levels_differ_from_adyas_for_these() {
        let differing: Vec<&str> = all()
            .into_iter()
            .filter(|p| p.paper_forbidden != adya_forbidden(p.class))
            .map(|p| p.name)
            .collect();
        let mut expected = vec!["dirty-write", "write-skew", "read-skew"];
        let table3 = [
            1, 2, 8, 9, 10, 12, 13, 14, 16, 17, 19, 24, 25, 26, 28, 29, 31, 32, 33, 34, 35, 36, 37,
            38, 39, 40,
        ];
        let names: Vec<String> = table3.iter().map(|n| format!("aptrans-{n}")).collect();
        expected.extend(names.iter().map(String::as_str));
        assert_eq!(differing, expected);
    }
}
