//! Alternative orders of the serial schedule's transactions: the orders an observation
//! cannot tell apart (statements that resumed together) and the orders tried when looking
//! for some serial order that explains a schedule.

use super::schedule::Unit;

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
    let mut orders: Vec<Vec<Unit>> = vec![units.to_vec()];
    for (start, len) in runs {
        let mut next = Vec::new();
        for order in &orders {
            let mut permutation: Vec<usize> = (0..len).collect();
            loop {
                let mut reordered = order.clone();
                for (k, &p) in permutation.iter().enumerate() {
                    reordered[start + k] = order[start + p].clone();
                }
                next.push(reordered);
                if next.len() > MAX_ORDERS || !next_permutation(&mut permutation) {
                    break;
                }
            }
        }
        orders = next;
        orders.truncate(MAX_ORDERS + 1);
    }
    orders.remove(0);
    orders
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
}
