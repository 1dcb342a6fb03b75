//! Alternative orders of the serial schedule's transactions: the orders an observation
//! cannot tell apart (statements that resumed together) and the orders tried when looking
//! for some serial order that explains a schedule; and the histories an observation cannot
//! tell apart, for the replays that place each statement where it completed.

use super::schedule::Unit;
use std::collections::BTreeMap;
use txhunt_model::{Event, History, TestCase};

/// At most this many alternative orders are tried: for [`candidate_orders`] every order that
/// moves one transaction elsewhere first, then the other permutations (with up to four
/// committed transactions every order is tried).
pub const MAX_ORDERS: usize = 24;

/// The orders of `units` that the observation cannot tell from this one, other than it: the
/// units in each run of neighbours whose ending statements resumed together
/// ([`Unit::tie`]) permuted; at most [`MAX_ORDERS`].
pub fn tie_orders(units: &[Unit]) -> Vec<Vec<Unit>> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for i in 1..=units.len() {
        let same = i < units.len() && units[i].tie.is_some() && units[i].tie == units[start].tie;
        if !same {
            if i - start > 1 {
                runs.push((start, i - start));
            }
            start = i;
        }
    }
    let reorder = |order: &Vec<Unit>, &(start, _): &(usize, usize), permutation: &[usize]| {
        let mut reordered = order.clone();
        for (k, &p) in permutation.iter().enumerate() {
            reordered[start + k] = order[start + p].clone();
        }
        reordered
    };
    other_permutations(units.to_vec(), &runs, |&(_, len)| len, reorder)
}

/// Every variant of `first` with each of `groups` (of `len` items) permuted, in every
/// combination, `reorder` making the variant of a variant with one group permuted; other than
/// `first`, at most [`MAX_ORDERS`].
fn other_permutations<T, G>(
    first: T,
    groups: &[G],
    len: impl Fn(&G) -> usize,
    reorder: impl Fn(&T, &G, &[usize]) -> T,
) -> Vec<T> {
    let mut all = vec![first];
    for group in groups {
        let mut next = Vec::new();
        for variant in &all {
            let mut permutation: Vec<usize> = (0..len(group)).collect();
            loop {
                next.push(reorder(variant, group, &permutation));
                if next.len() > MAX_ORDERS || !next_permutation(&mut permutation) {
                    break;
                }
            }
        }
        all = next;
        all.truncate(MAX_ORDERS + 1);
    }
    all.remove(0);
    all
}

/// The histories the observation cannot tell from `history`, other than it: in each group of
/// statements that resumed together ([`txhunt_model::StepRecord::resumed_together`]) the
/// members completing in another order (each permutation of them over the group's places in
/// the schedule and its completion ranks; everything else as it was); at most [`MAX_ORDERS`].
/// Their results reached txhunt in the observed order, which need not be the order the DBMS
/// ran them in: a waiter that resumed first and committed at once (an autocommit statement)
/// may have been answered after a waiter it let go on.
pub fn tie_histories(history: &History) -> Vec<History> {
    let place: BTreeMap<usize, usize> = (history.schedule.iter().enumerate())
        .filter_map(|(at, e)| match e {
            Event::Completed { step } => Some((*step, at)),
            _ => None,
        })
        .collect();
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (s, record) in history.steps.iter().enumerate() {
        if let (Some(group), true) = (record.resumed_together, place.contains_key(&s)) {
            groups.entry(group).or_default().push(s);
        }
    }
    let groups: Vec<TieGroup> = (groups.into_values())
        .filter(|m| m.len() > 1)
        .map(|mut members| {
            members.sort_by_key(|s| place[s]);
            TieGroup {
                places: members.iter().map(|s| place[s]).collect(),
                ranks: (members.iter())
                    .map(|&s| history.steps[s].completed)
                    .collect(),
                members,
            }
        })
        .collect();
    let reorder = |h: &History, group: &TieGroup, permutation: &[usize]| {
        let mut reordered = h.clone();
        for (k, &p) in permutation.iter().enumerate() {
            let step = group.members[p];
            reordered.schedule[group.places[k]] = Event::Completed { step };
            reordered.steps[step].completed = group.ranks[k];
        }
        reordered
    };
    other_permutations(history.clone(), &groups, |g| g.members.len(), reorder)
}

/// A group of statements that resumed together, as observed.
struct TieGroup {
    /// Its statements, in the order they completed.
    members: Vec<usize>,
    /// Their places in the schedule (their completions), in that order.
    places: Vec<usize>,
    /// Their completion ranks, in that order.
    ranks: Vec<Option<usize>>,
}

/// The order in which `history`'s statements that resumed together completed, for evidence:
/// `t1 `UPDATE …` before t2 `UPDATE …``, groups joined by `; `.
pub fn tie_order(case: &TestCase, history: &History) -> String {
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for e in &history.schedule {
        if let Event::Completed { step } = e {
            if let Some(group) = history.steps[*step].resumed_together {
                groups.entry(group).or_default().push(*step);
            }
        }
    }
    (groups.into_values().filter(|m| m.len() > 1))
        .map(|members| {
            (members.iter())
                .map(|&s| format!("{} `{}`", case.steps[s].session, case.steps[s].stmt.sql))
                .collect::<Vec<_>>()
                .join(" before ")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Orders of `n` items other than `0, 1, …, n-1`, at most [`MAX_ORDERS`]: `first`, then each
/// order that moves one item earlier (nearest moves first: a transaction that read an older
/// snapshot belongs before transactions that committed before it), then one item later, then
/// the remaining permutations.
pub fn candidate_orders(n: usize, first: Vec<usize>) -> Vec<Vec<usize>> {
    let identity: Vec<usize> = (0..n).collect();
    let mut orders: Vec<Vec<usize>> = Vec::new();
    let add = |order: Vec<usize>, orders: &mut Vec<Vec<usize>>| {
        if order != identity && !orders.contains(&order) && orders.len() < MAX_ORDERS {
            orders.push(order);
        }
    };
    add(first, &mut orders);
    let mut moves: Vec<(usize, usize)> = (0..n)
        .flat_map(|from| (0..n).map(move |to| (from, to)))
        .filter(|(from, to)| from != to)
        .collect();
    moves.sort_by_key(|&(from, to)| (to > from, from.abs_diff(to), from));
    for (from, to) in moves {
        let mut order = identity.clone();
        let item = order.remove(from);
        order.insert(to, item);
        add(order, &mut orders);
    }
    let mut permutation = identity.clone();
    while orders.len() < MAX_ORDERS && next_permutation(&mut permutation) {
        add(permutation.clone(), &mut orders);
    }
    orders
}

/// Advances `items` to the next permutation in lexicographic order; false after the last.
fn next_permutation(items: &mut [usize]) -> bool {
    let Some(i) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
        return false;
    };
    let j = (i..items.len())
        .rev()
        .find(|&j| items[j] > items[i - 1])
        .expect("a larger item follows");
    items.swap(i - 1, j);
    items[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(label: &str, tie: Option<usize>) -> Unit {
        Unit {
            label: label.into(),
            steps: Vec::new(),
            explicit: true,
            committed: true,
            tie,
        }
    }

    fn labels(orders: &[Vec<Unit>]) -> Vec<String> {
        orders
            .iter()
            .map(|o| {
                o.iter()
                    .map(|u| u.label.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn units_that_resumed_together_may_come_in_any_order() {
        let units = [
            unit("a", None),
            unit("b", Some(0)),
            unit("c", Some(0)),
            unit("d", Some(1)),
            unit("e", Some(1)),
        ];
        assert_eq!(
            labels(&tie_orders(&units)),
            ["a b c e d", "a c b d e", "a c b e d"]
        );
        assert!(tie_orders(&units[..2]).is_empty());
        let apart = [unit("a", Some(0)), unit("b", None), unit("c", Some(0))];
        assert!(tie_orders(&apart).is_empty(), "only neighbours are tied");
    }

    #[test]
    fn candidate_orders_start_with_the_snapshot_order_and_near_moves_and_cover_small_cases() {
        assert!(candidate_orders(1, vec![0]).is_empty());
        assert_eq!(candidate_orders(2, vec![0, 1]), vec![vec![1, 0]]);
        let three = candidate_orders(3, vec![0, 1, 2]);
        assert_eq!(three.len(), 5, "every permutation but the identity");
        assert_eq!(
            three[..2],
            [vec![1, 0, 2], vec![0, 2, 1]],
            "nearest earlier moves first"
        );
        assert_eq!(candidate_orders(4, vec![2, 0, 1, 3]).len(), 23);
        let nine = candidate_orders(9, vec![4, 0, 1, 2, 3, 5, 6, 7, 8]);
        assert_eq!(nine.len(), MAX_ORDERS);
        assert_eq!(
            nine[0],
            vec![4, 0, 1, 2, 3, 5, 6, 7, 8],
            "the snapshot order first"
        );
    }

    #[test]
    fn statements_that_resumed_together_complete_in_every_other_order_and_nothing_else_moves() {
        let case = txhunt_model::scenario::parse(
            "/* t1 */ UPDATE t SET a = 1;\n/* t2 */ UPDATE t SET a = 2;\n/* t3 */ UPDATE t SET a = 3;\n/* t4 */ COMMIT;",
            "case.sql",
        )
        .expect("parses");
        let record = |completed: usize, together: Option<usize>| txhunt_model::StepRecord {
            submitted: Some(completed),
            completed: Some(completed),
            blocked: together.is_some(),
            outcome: txhunt_model::Outcome::Affected { count: 1 },
            resumed_together: together,
            accesses: None,
        };
        let done = |step: usize| Event::Completed { step };
        // Step 0 completes, steps 1 and 2 wait, then the three answers in this order.
        let schedule = |answers: [usize; 3]| {
            let waits = [
                done(0),
                Event::Blocked { step: 1 },
                Event::Blocked { step: 2 },
            ];
            waits
                .into_iter()
                .chain(answers.map(done))
                .collect::<Vec<_>>()
        };
        // Steps 1 and 2 waited and resumed together; step 3 completed between their answers.
        let history = History {
            target: "t".into(),
            isolation: txhunt_model::Isolation::ReadCommitted,
            init: Vec::new(),
            init_writes: Vec::new(),
            steps: vec![
                record(0, None),
                record(3, Some(0)),
                record(1, Some(0)),
                record(2, None),
            ],
            schedule: schedule([2, 3, 1]),
            txns: Vec::new(),
            final_state: None,
            final_state_error: None,
            tables: Vec::new(),
        };
        assert_eq!(
            tie_order(&case, &history),
            "t3 `UPDATE t SET a = 3` before t2 `UPDATE t SET a = 2`"
        );
        let others = tie_histories(&history);
        assert_eq!(others.len(), 1, "one other order of two statements");
        let other = &others[0];
        assert_eq!(other.schedule, schedule([1, 3, 2]));
        assert_eq!(other.steps[1].completed, Some(1));
        assert_eq!(other.steps[2].completed, Some(3));
        assert_eq!(other.steps[3], history.steps[3]);
        assert_eq!(
            tie_order(&case, other),
            "t2 `UPDATE t SET a = 2` before t3 `UPDATE t SET a = 3`"
        );
        let mut alone = history.clone();
        alone.steps[1].resumed_together = None;
        assert!(
            tie_histories(&alone).is_empty(),
            "a group of one has no other order"
        );
    }
}
