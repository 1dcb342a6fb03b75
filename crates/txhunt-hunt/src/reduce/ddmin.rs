//! Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing Input",
//! TSE 2002): the `ddmin` algorithm over a list of parts.

/// A 1-minimal subset of `0..n` (as a keep-mask) for which `holds` is true, given that it
/// holds for all of them: removing any single part kept makes it fail. `holds` is asked about
/// candidate masks; `give_up` is asked before each test and stops the search (keeping the
/// smallest subset found so far) when it says so.
pub fn ddmin(
    n: usize,
    holds: &mut dyn FnMut(&[bool]) -> bool,
    give_up: &dyn Fn() -> bool,
) -> Vec<bool> {
    let mut kept: Vec<usize> = (0..n).collect();
    let mut chunks = 2;
    let mask = |parts: &[usize]| {
        let mut m = vec![false; n];
        for &p in parts {
            m[p] = true;
        }
        m
    };
    while kept.len() >= 2 {
        let size = kept.len().div_ceil(chunks);
        let subsets: Vec<Vec<usize>> = kept.chunks(size).map(<[usize]>::to_vec).collect();
        let mut reduced = false;
        // A subset alone, then the complement of one.
        for subset in &subsets {
            if give_up() {
                return mask(&kept);
            }
            if subset.len() < kept.len() && holds(&mask(subset)) {
                kept = subset.clone();
                chunks = 2;
                reduced = true;
                break;
            }
        }
        if !reduced && subsets.len() > 2 {
            for subset in &subsets {
                if give_up() {
                    return mask(&kept);
                }
                let complement: Vec<usize> = kept
                    .iter()
                    .copied()
                    .filter(|p| !subset.contains(p))
                    .collect();
                if holds(&mask(&complement)) {
                    kept = complement;
                    chunks = (chunks - 1).max(2);
                    reduced = true;
                    break;
                }
            }
        }
        if !reduced {
            if chunks >= kept.len() {
                break;
            }
            chunks = (chunks * 2).min(kept.len());
        }
    }
    if kept.len() == 1 && !give_up() && holds(&mask(&[])) {
        kept.clear();
    }
    mask(&kept)
}

#[cfg(test)]
mod tests {
    use super::ddmin;

    #[test]
    fn finds_the_parts_a_failure_needs() {
        // Fails when parts 3 and 11 are both kept.
        let mut asked = 0;
        let kept = ddmin(
            20,
            &mut |m: &[bool]| {
                asked += 1;
                m[3] && m[11]
            },
            &|| false,
        );
        let parts: Vec<usize> = (0..20).filter(|&i| kept[i]).collect();
        assert_eq!(parts, [3, 11]);
        assert!(asked < 60, "{asked} tests");
    }

    #[test]
    fn removes_everything_when_nothing_is_needed() {
        let kept = ddmin(5, &mut |_: &[bool]| true, &|| false);
        assert!(kept.iter().all(|k| !k));
    }

    #[test]
    fn stops_when_told_and_keeps_all_it_could_not_test() {
        let kept = ddmin(8, &mut |m: &[bool]| m[0], &|| true);
        assert!(kept.iter().all(|&k| k));
    }
}
