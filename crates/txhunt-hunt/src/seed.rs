//! Per-case seeds: case `i` of a campaign with seed `s` always gets the same seed, whichever
//! worker runs it and however many there are.

/// SplitMix64's output function: a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of case `index` of a campaign seeded with `seed`.
pub fn case_seed(seed: u64, index: u64) -> u64 {
    mix(seed ^ mix(index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_stable_and_distinct() {
        assert_eq!(case_seed(1, 0), case_seed(1, 0));
        let seeds: std::collections::BTreeSet<u64> = (0..1000).map(|i| case_seed(1, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(case_seed(1, 5), case_seed(2, 5));
    }
}
