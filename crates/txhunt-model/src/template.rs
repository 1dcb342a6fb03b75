//! A statement's literal template: its text with its integer literals and the content of its
//! plain string literals taken out, so that statements made from one form
//! (`UPDATE reg SET v = 1234 WHERE k = 3`) share it. Lexical only (no parsing): what a
//! statement's shape decides (an instrumentation plan, the types of its result columns) can be
//! worked out once per template.

/// A statement split into its template and its literals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template<'a> {
    /// The text with each literal replaced by `#` (a plain string's quotes stay: `'#'`).
    pub text: String,
    /// The literals, in order: an integer's digits, a plain string's content.
    pub literals: Vec<&'a str>,
}

impl Template<'_> {
    /// The template with the kind of each literal: integers by the type PostgreSQL gives an
    /// integer literal of their size (`int4`, `int8`, `numeric`), a string as one kind. Two
    /// statements with the same key differ only in literal values that no type depends on.
    pub fn typed_key(&self) -> String {
        let mut key = self.text.clone();
        key.push('|');
        for literal in &self.literals {
            key.push(match literal.parse::<i64>() {
                Ok(n) if i32::try_from(n).is_ok() => '4',
                Ok(_) => '8',
                Err(_) => 'n',
            });
        }
        key
    }
}

/// `sql` with every integer literal (a digit run not inside a name or a quoted string) and
/// the content of every plain string literal replaced by `#`: a single-quoted string with
/// no prefix glued to it, no escaped quote, and only letters, digits, spaces and `,.:_-`
/// inside, which reads and prints the same in every dialect.
pub fn literal_template(sql: &str) -> Template<'_> {
    let bytes = sql.as_bytes();
    let mut template = String::with_capacity(sql.len());
    let mut literals = Vec::new();
    let (mut i, mut quote) = (0, None);
    while i < bytes.len() {
        let c = bytes[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\'' => match plain_string(bytes, i) {
                Some(end) => {
                    literals.push(&sql[i + 1..end]);
                    template.push_str("'#'");
                    i = end + 1;
                    continue;
                }
                None => quote = Some(c),
            },
            None if c == b'"' || c == b'`' => quote = Some(c),
            None if c.is_ascii_digit()
                && (i == 0
                    || !(bytes[i - 1].is_ascii_alphanumeric()
                        || b"_.".contains(&bytes[i - 1]))) =>
            {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let glued = i < bytes.len()
                    && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_' || bytes[i] == b'.');
                if !glued {
                    literals.push(&sql[start..i]);
                    template.push('#');
                    continue;
                }
                template.push_str(&sql[start..i]);
                continue;
            }
            None => {}
        }
        template.push(c as char);
        i += 1;
    }
    Template {
        text: template,
        literals,
    }
}

/// Where the single-quoted string opening at `bytes[open]` closes, when it is a plain one:
/// no prefix glued to it (`E'…'`, `X'…'`, `N'…'`), no escaped quote before or in it, and only letters, digits,
/// spaces and `,.:_-` inside, so that it reads and prints the same in every dialect.
fn plain_string(bytes: &[u8], open: usize) -> Option<usize> {
    if open > 0 && (bytes[open - 1].is_ascii_alphanumeric() || b"_'".contains(&bytes[open - 1])) {
        return None;
    }
    let close = open + 1 + bytes[open + 1..].iter().position(|&b| b == b'\'')?;
    let content = &bytes[open + 1..close];
    let plain = |b: &u8| b.is_ascii_alphanumeric() || b" ,.:_-".contains(b);
    (bytes.get(close + 1) != Some(&b'\'') && content.iter().all(plain)).then_some(close)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_inside_names_and_other_strings_stay_in_the_template() {
        let parts =
            literal_template("SELECT c1, 'a2', E'b', 'c''d', '%' FROM t2 WHERE k = 42 AND v = 1.5");
        assert_eq!(
            parts.text,
            "SELECT c1, '#', E'b', 'c''d', '%' FROM t2 WHERE k = # AND v = 1.5"
        );
        assert_eq!(parts.literals, ["a2", "42"]);
    }

    #[test]
    fn the_typed_key_tells_integer_literals_apart_by_the_type_their_size_gets() {
        let key = |sql| literal_template(sql).typed_key();
        assert_eq!(key("SELECT 7, 'x'"), key("SELECT 2147483647, 'yz'"));
        assert_ne!(key("SELECT 7"), key("SELECT 2147483648"));
        assert_ne!(key("SELECT 3000000000"), key("SELECT 99999999999999999999"));
        assert_ne!(key("SELECT 7"), key("SELECT '7'"));
    }
}
