//! Literals replaced by the simplest values that keep their order: numbers by small integers,
//! strings by short letters, NULLs inserted into typed columns by a zero value.

use super::rows::values_mut;
use super::{created_tables, last_name, parse, tokens, untokenize};
use sqlparser::ast::{Statement, TableObject};
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::Token;
use std::collections::HashMap;
use txhunt_model::SqlFamily;

/// Where a literal site is and what it holds.
#[derive(Debug, Clone, PartialEq)]
enum Site {
    /// A number token, with its value (negated when a unary minus precedes it).
    Number(usize, f64),
    /// A string token, with its text as written between the quotes.
    String(usize, String),
    /// A NULL token of a VALUES row and what replaces it (`0` or `''`).
    Null(usize, &'static str),
}

impl Site {
    /// The index of the site's token.
    fn token(&self) -> usize {
        match self {
            Site::Number(i, _) | Site::String(i, _) | Site::Null(i, _) => *i,
        }
    }
}

/// The literal sites of `statements` (all statements of a case, setup and steps, in order):
/// every numeric literal token (a leading unary minus belongs to its number; a type's
/// `VARCHAR(10)` counts too), every string literal token, and every NULL that is a value of an `INSERT … VALUES` row into a column
/// whose type is known to be numeric or a string. Counted in token order, statement by
/// statement; a statement that does not tokenize has none.
pub fn literal_sites(statements: &[String], family: SqlFamily) -> usize {
    let columns = column_kinds(statements, family);
    statements
        .iter()
        .map(|sql| sites(sql, family, &columns).map_or(0, |(_, sites)| sites.len()))
        .sum()
}

/// `statements` with the literal sites (see [`literal_sites`]) whose `replace` entry is true
/// replaced by their simple value (a missing entry counts as false); statements with no
/// replaced site stay byte-identical.
///
/// Simple values are computed over all sites of `statements`, replaced or not, so they do not
/// depend on the mask: numbers map to integers preserving order and equality (0 stays 0,
/// positive values become 1, 2, 3… in ascending order, negative ones -1, -2… in descending
/// order, so -991 < -650 < 0 < 8.75 < 12.25 becomes -2 < -1 < 0 < 1 < 2); strings map to
/// `'a'`, `'b'`, … `'z'`, `'aa'`, … in ascending order, `''` staying `''`; a NULL inserted
/// into a numeric column becomes `0`, into a string column `''`. The minus of a negative
/// number is kept and only its digits replaced, so the text around stays as written.
pub fn simplify_literals(
    statements: &[String],
    family: SqlFamily,
    replace: &[bool],
) -> Vec<String> {
    let columns = column_kinds(statements, family);
    let all: Vec<Option<(Vec<Token>, Vec<Site>)>> = statements
        .iter()
        .map(|sql| sites(sql, family, &columns))
        .collect();
    let simple = SimpleValues::new(all.iter().flatten().flat_map(|(_, sites)| sites));
    let mut next = 0;
    statements
        .iter()
        .zip(all)
        .map(|(sql, found)| {
            let Some((mut tokens, sites)) = found else {
                return sql.clone();
            };
            let mut changed = false;
            for site in &sites {
                let chosen = replace.get(next) == Some(&true);
                next += 1;
                if !chosen {
                    continue;
                }
                changed = true;
                tokens[site.token()] = match site {
                    Site::Number(_, value) => {
                        Token::Number(simple.number(*value).unsigned_abs().to_string(), false)
                    }
                    Site::String(i, text) => with_text(&tokens[*i], simple.string(text)),
                    Site::Null(_, fill) => literal_token(fill),
                };
            }
            if changed {
                untokenize(&tokens)
            } else {
                sql.clone()
            }
        })
        .collect()
}

/// The distinct values of all sites, which give every site its simple value.
struct SimpleValues {
    /// The distinct positive numbers, ascending.
    positives: Vec<f64>,
    /// The distinct magnitudes of the negative numbers, ascending.
    negatives: Vec<f64>,
    /// The distinct non-empty strings, ascending.
    texts: Vec<String>,
}

impl SimpleValues {
    /// The distinct values of `sites`.
    fn new<'a>(sites: impl Iterator<Item = &'a Site>) -> Self {
        let mut values = SimpleValues {
            positives: Vec::new(),
            negatives: Vec::new(),
            texts: Vec::new(),
        };
        for site in sites {
            match site {
                Site::Number(_, v) if *v > 0.0 => values.positives.push(*v),
                Site::Number(_, v) if *v < 0.0 => values.negatives.push(-*v),
                Site::String(_, text) if !text.is_empty() => values.texts.push(text.clone()),
                _ => {}
            }
        }
        for numbers in [&mut values.positives, &mut values.negatives] {
            numbers.sort_by(f64::total_cmp);
            numbers.dedup();
        }
        values.texts.sort();
        values.texts.dedup();
        values
    }

    /// The simple value of the number `v`.
    fn number(&self, v: f64) -> i64 {
        let rank = |numbers: &[f64], v: f64| {
            let i = numbers.partition_point(|n| *n < v);
            i64::try_from(i + 1).unwrap_or(i64::MAX)
        };
        if v > 0.0 {
            rank(&self.positives, v)
        } else if v < 0.0 {
            -rank(&self.negatives, -v)
        } else {
            0
        }
    }

    /// The simple value of the string `text` (as written between its quotes).
    fn string(&self, text: &str) -> String {
        match self.texts.binary_search_by(|t| t.as_str().cmp(text)) {
            Ok(i) => letters(i),
            Err(_) => String::new(),
        }
    }
}

/// The `i`-th name of `a`, `b`, … `z`, `aa`, `ab`, …
fn letters(mut i: usize) -> String {
    let mut name = Vec::new();
    loop {
        name.push(b'a' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    name.iter().rev().map(|&b| char::from(b)).collect()
}

/// The string token `token` (single- or double-quoted as it was) holding `text`.
fn with_text(token: &Token, text: String) -> Token {
    match token {
        Token::DoubleQuotedString(_) => Token::DoubleQuotedString(text),
        _ => Token::SingleQuotedString(text),
    }
}

/// The token of the literal `text` (`0` or `''`).
fn literal_token(text: &str) -> Token {
    if text == "''" {
        Token::SingleQuotedString(String::new())
    } else {
        Token::Number(text.to_string(), false)
    }
}

/// Whether a column holds numbers or strings.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Number,
    String,
}

/// The kind of column of each table (lowercase) created by `statements`, in column order
/// (`None` for a type that is neither clearly numeric nor a string), with the names
/// (lowercase).
fn column_kinds(
    statements: &[String],
    family: SqlFamily,
) -> HashMap<String, Vec<(String, Option<Kind>)>> {
    (created_tables(statements, family).into_iter())
        .map(|(table, columns)| {
            let kinds = (columns.iter())
                .map(|c| (c.name.value.to_lowercase(), kind(&c.data_type.to_string())))
                .collect();
            (table.to_lowercase(), kinds)
        })
        .collect()
}

/// The kind of a column of type `data_type`, by SQLite's affinity rules (which also fit the
/// type names of MySQL and PostgreSQL).
fn kind(data_type: &str) -> Option<Kind> {
    let name = data_type.to_uppercase();
    let has = |part: &str| name.contains(part);
    if name.starts_with("INTERVAL") || has("POINT") {
        None
    } else if has("INT") {
        Some(Kind::Number)
    } else if has("CHAR") || has("CLOB") || has("TEXT") {
        Some(Kind::String)
    } else if ["REAL", "FLOA", "DOUB", "DEC", "NUMERIC"]
        .iter()
        .any(|p| has(p))
    {
        Some(Kind::Number)
    } else {
        None
    }
}

/// The tokens of `sql` and its sites in token order; `None` when it does not tokenize.
fn sites(
    sql: &str,
    family: SqlFamily,
    columns: &HashMap<String, Vec<(String, Option<Kind>)>>,
) -> Option<(Vec<Token>, Vec<Site>)> {
    let tokens = tokens(sql, family)?;
    let nulls = null_sites(sql, family, &tokens, columns);
    let mut sites = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Whitespace(_) => {}
            Token::Number(text, false) => {
                if let Ok(value) = text.parse::<f64>() {
                    if value.is_finite() {
                        let negated = i > 0 && is_unary_minus(&tokens[..i]);
                        let value = if negated { -value } else { value };
                        // -0.0 and 0.0 are the same number.
                        sites.push(Site::Number(i, value + 0.0));
                    }
                }
            }
            Token::SingleQuotedString(text) | Token::DoubleQuotedString(text) => {
                sites.push(Site::String(i, text.clone()));
            }
            Token::Word(_) => {
                if let Some(fill) = nulls.get(&i) {
                    sites.push(Site::Null(i, fill));
                }
            }
            _ => {}
        }
    }
    Some((tokens, sites))
}

/// Whether the last significant token of `before` is a minus that is unary: one following
/// an operator, a parenthesis, a comma or a keyword that starts an expression.
fn is_unary_minus(before: &[Token]) -> bool {
    let mut significant = before
        .iter()
        .rev()
        .filter(|t| !matches!(t, Token::Whitespace(_)));
    if significant.next() != Some(&Token::Minus) {
        return false;
    }
    match significant.next() {
        None => true,
        Some(Token::Word(word)) => {
            word.quote_style.is_none()
                && matches!(
                    word.keyword,
                    Keyword::AND
                        | Keyword::OR
                        | Keyword::NOT
                        | Keyword::WHERE
                        | Keyword::SELECT
                        | Keyword::BETWEEN
                        | Keyword::WHEN
                        | Keyword::THEN
                        | Keyword::ELSE
                        | Keyword::CASE
                        | Keyword::LIMIT
                        | Keyword::OFFSET
                        | Keyword::DEFAULT
                        | Keyword::HAVING
                        | Keyword::LIKE
                )
        }
        Some(
            Token::Number(..)
            | Token::SingleQuotedString(_)
            | Token::DoubleQuotedString(_)
            | Token::RParen
            | Token::RBracket
            | Token::Placeholder(_),
        ) => false,
        Some(_) => true,
    }
}

/// The NULL tokens of `sql` that are whole values of its VALUES rows, when it is an INSERT
/// into a table of `columns`, with what replaces each (by the kind of its column).
fn null_sites(
    sql: &str,
    family: SqlFamily,
    tokens: &[Token],
    columns: &HashMap<String, Vec<(String, Option<Kind>)>>,
) -> HashMap<usize, &'static str> {
    let mut nulls = HashMap::new();
    let Some(mut parsed) = parse(sql, family) else {
        return nulls;
    };
    let Statement::Insert(insert) = &parsed.statement else {
        return nulls;
    };
    let TableObject::TableName(name) = &insert.table else {
        return nulls;
    };
    let Some(layout) = last_name(name).and_then(|table| columns.get(&table)) else {
        return nulls;
    };
    // The kind of each inserted column.
    let kinds: Vec<Option<Kind>> = if insert.columns.is_empty() {
        layout.iter().map(|(_, kind)| *kind).collect()
    } else {
        insert
            .columns
            .iter()
            .map(|column| {
                let name = last_name(column)?;
                layout.iter().find(|(c, _)| *c == name)?.1
            })
            .collect()
    };
    let Some(values) = values_mut(&mut parsed.statement) else {
        return nulls;
    };
    let shape: Vec<usize> = values.rows.iter().map(|row| row.content.len()).collect();
    let Some(rows) = value_tokens(tokens) else {
        return nulls;
    };
    if rows.iter().map(Vec::len).collect::<Vec<_>>() != shape {
        return nulls;
    }
    for row in rows {
        for (column, value) in row.into_iter().enumerate() {
            let [i] = value.as_slice() else {
                continue;
            };
            let null = matches!(&tokens[*i], Token::Word(w) if w.keyword == Keyword::NULL && w.quote_style.is_none());
            match kinds.get(column).copied().flatten() {
                Some(Kind::Number) if null => nulls.insert(*i, "0"),
                Some(Kind::String) if null => nulls.insert(*i, "''"),
                _ => None,
            };
        }
    }
    nulls
}

/// The rows of the first top-level VALUES list of `tokens`: per row, per value, the indexes
/// of its significant tokens. `None` when there is no such list or it is not well formed.
fn value_tokens(tokens: &[Token]) -> Option<Vec<Vec<Vec<usize>>>> {
    let mut depth = 0usize;
    let mut start = None;
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.checked_sub(1)?,
            Token::Word(w) if depth == 0 && w.keyword == Keyword::VALUES => {
                start = Some(i + 1);
                break;
            }
            _ => {}
        }
    }
    let significant: Vec<usize> = (start?..tokens.len())
        .filter(|&i| !matches!(tokens[i], Token::Whitespace(_)))
        .collect();
    let mut rows = Vec::new();
    let mut at = 0;
    loop {
        if tokens[*significant.get(at)?] != Token::LParen {
            return None;
        }
        at += 1;
        let mut row = vec![Vec::new()];
        let mut depth = 1usize;
        loop {
            let i = *significant.get(at)?;
            at += 1;
            match &tokens[i] {
                Token::LParen => depth += 1,
                Token::RParen => depth -= 1,
                Token::Comma if depth == 1 => {
                    row.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            if depth == 0 {
                break;
            }
            row.last_mut()?.push(i);
        }
        rows.push(row);
        match significant.get(at).map(|&i| &tokens[i]) {
            Some(Token::Comma) => at += 1,
            _ => return Some(rows),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{letters, literal_sites, simplify_literals};
    use crate::simplify::tests::{owned, TYPICAL_INIT, TYPICAL_STEPS};
    use txhunt_model::SqlFamily::{Mysql, Postgres, Sqlite};

    fn typical() -> Vec<String> {
        let mut case = owned(&TYPICAL_INIT);
        case.extend(owned(&TYPICAL_STEPS));
        case
    }

    #[test]
    fn names_strings_by_letters() {
        let names: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702].map(letters).to_vec();
        assert_eq!(names, ["a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"]);
    }

    #[test]
    fn simplifies_every_literal_of_the_typical_case() {
        let case = typical();
        let sites = literal_sites(&case, Mysql);
        // CREATE TABLE t0: 4; INSERT INTO t0: 18 (4 NULLs); t1: 3; steps: 2, 2, 5, 0, 0, 2.
        assert_eq!(sites, 36);
        assert_eq!(
            simplify_literals(&case, Mysql, &vec![true; sites]),
            [
                "CREATE TABLE t0 (a0 TEXT, a1 BIGINT NOT NULL CHECK ((a1 >= -1)), a2 DOUBLE, a3 DOUBLE UNIQUE CHECK ((a3 >= -2)), a4 BIGINT NOT NULL CHECK ((a4 >= -3)), a5 VARCHAR(4), PRIMARY KEY (a1, a4))",
                TYPICAL_INIT[1],
                TYPICAL_INIT[2],
                "INSERT INTO t0 (a0, a1, a2, a3, a4, a5) VALUES ('c', 10, 4, 5, 14, ''), ('a', 9, 7, 3, 8, 'b'), ('', 13, 0, 6, 12, '')",
                "INSERT INTO t1 (b0) VALUES (-6), (-8), (15)",
                "SELECT a0, COUNT(*), MIN(a5) FROM t0 WHERE ((a4 + 2) > -7) GROUP BY a0",
                "INSERT IGNORE INTO t1 (b0) VALUES (11), (-8)",
                "UPDATE t1 SET b0 = 15 WHERE ((b0 BETWEEN -5 AND 15) AND ((b0 IS NULL) OR ((b0 + 1) >= -8)))",
                TYPICAL_STEPS[3],
                TYPICAL_STEPS[4],
                "UPDATE t0 SET a3 = (t0.a3 + 1) WHERE (a1 >= -4)",
            ]
        );
    }

    #[test]
    fn replaces_only_the_chosen_sites_with_mask_independent_values() {
        let case = typical();
        let sites = literal_sites(&case, Mysql);
        let mut mask = vec![false; sites];
        // The last site: -523 in the last step.
        mask[sites - 1] = true;
        let reduced = simplify_literals(&case, Mysql, &mask);
        assert_eq!(
            reduced[10],
            "UPDATE t0 SET a3 = (t0.a3 + 2) WHERE (a1 >= -4)"
        );
        assert_eq!(&reduced[..10], &case[..10]);
        // No site chosen (or a short mask): nothing changes.
        assert_eq!(simplify_literals(&case, Mysql, &[]), case);
    }

    #[test]
    fn keeps_text_around_literals_and_maps_equal_values_alike() {
        let case = owned(&[
            "CREATE TABLE t(k INT PRIMARY KEY, v REAL, w)",
            "insert into t values (-0.0, 1e3, 'x'),( 7 , NULL, NULL)",
            "SELECT * FROM t WHERE v = 1000 AND k - 7 < - 2.5 -- 'comment'",
        ]);
        // w has no type: its NULL is no site; the comment holds none.
        assert_eq!(literal_sites(&case, Sqlite), 8);
        assert_eq!(
            simplify_literals(&case, Sqlite, &[true; 8]),
            [
                "CREATE TABLE t(k INT PRIMARY KEY, v REAL, w)",
                "insert into t values (-0, 2, 'a'),( 1 , 0, NULL)",
                "SELECT * FROM t WHERE v = 2 AND k - 1 < - 1 -- 'comment'",
            ]
        );
    }

    #[test]
    fn postgres_strings_and_positional_nulls() {
        let case = owned(&[
            "CREATE TABLE t (k BIGINT PRIMARY KEY, v TEXT, w DOUBLE PRECISION)",
            "INSERT INTO t VALUES (5, 'it''s', NULL), (6, NULL, 2.5), (7, '', -1)",
            "SELECT * FROM t WHERE v > 'b' OR v IS NULL",
        ]);
        assert_eq!(literal_sites(&case, Postgres), 10);
        assert_eq!(
            simplify_literals(&case, Postgres, &[true; 10]),
            [
                "CREATE TABLE t (k BIGINT PRIMARY KEY, v TEXT, w DOUBLE PRECISION)",
                "INSERT INTO t VALUES (2, 'b', 0), (3, '', 1), (4, '', -1)",
                "SELECT * FROM t WHERE v > 'a' OR v IS NULL",
            ]
        );
    }

    #[test]
    fn statements_that_do_not_tokenize_have_no_sites() {
        let case = owned(&["SELECT 'unterminated", "SELECT 5"]);
        assert_eq!(literal_sites(&case, Mysql), 1);
        assert_eq!(
            simplify_literals(&case, Mysql, &[true]),
            ["SELECT 'unterminated", "SELECT 1"]
        );
    }
}
