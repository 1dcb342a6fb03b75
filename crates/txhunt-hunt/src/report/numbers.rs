//! Numbers as people read them: thousands grouped, nouns in the singular or plural.

/// `n` with its digits in groups of three: `1234567` as `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, digit) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `n` things called `noun` (a noun with a regular plural): `1 case`, `2 cases`,
/// `1,200 statements`.
pub fn counted(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{} {noun}s", grouped(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::{counted, grouped};

    #[test]
    fn groups_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(123456), "123,456");
        assert_eq!(grouped(1234567), "1,234,567");
    }

    #[test]
    fn counts_in_the_singular_only_one() {
        assert_eq!(counted(0, "case"), "0 cases");
        assert_eq!(counted(1, "case"), "1 case");
        assert_eq!(counted(2, "run"), "2 runs");
        assert_eq!(counted(1500, "statement"), "1,500 statements");
    }
}
