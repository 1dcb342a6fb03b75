//! Candidate simpler variants of a failing test case, for txhunt's reducer: fewer rows in an
//! INSERT ([`keep_insert_rows`]), fewer columns in the schema ([`drop_columns`]), smaller
//! expressions in a step ([`expression_variants`]), simpler literals ([`simplify_literals`])
//! and shorter names ([`rename`]).
//!
//! Every function is a pure text transform in the dialect of a [`SqlFamily`]. A variant is
//! not guaranteed to still run (the reducer checks that on a real DBMS) but is syntactically
//! valid whenever the input was. Statements a function does not change stay byte-identical;
//! the ones it changes are rendered back by `sqlparser`, and only when they round-trip (the
//! rendering re-parses to the same statement), or re-rendered from their tokens.

mod columns;
mod exprs;
mod literals;
mod rename;
mod rows;

pub use columns::{drop_columns, table_columns, Column};
pub use exprs::expression_variants;
pub use literals::{literal_sites, simplify_literals};
pub use rename::rename;
pub use rows::{insert_rows, keep_insert_rows};

use sqlparser::ast::{ObjectName, Statement};
use sqlparser::dialect::{Dialect, MySqlDialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::keywords::Keyword;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, Tokenizer, Whitespace};
use std::collections::HashSet;
use txhunt_model::SqlFamily;

/// The `sqlparser` dialect of `family`.
fn dialect(family: SqlFamily) -> &'static dyn Dialect {
    match family {
        SqlFamily::Mysql => &MySqlDialect {},
        SqlFamily::Postgres => &PostgreSqlDialect {},
        SqlFamily::Sqlite => &SQLiteDialect {},
    }
}

/// One statement parsed in its family's dialect, with the trailing text the parser cannot
/// read that was cut off before parsing (MySQL's `LOCK IN SHARE MODE`, which `sqlparser`
/// 0.63 rejects), to be put back after the rendering of any variant.
struct Parsed {
    statement: Statement,
    suffix: String,
}

impl Parsed {
    /// The text of `statement` (a variant of the parsed one) with the cut-off suffix.
    fn render(&self, statement: &Statement) -> String {
        format!("{statement}{}", self.suffix)
    }
}

/// `sql` parsed as exactly one statement in `family`'s dialect; `None` when it does not parse.
fn parse(sql: &str, family: SqlFamily) -> Option<Parsed> {
    let (body, suffix) = split_lock_suffix(sql, family);
    let mut statements = Parser::parse_sql(dialect(family), &body).ok()?;
    if statements.len() != 1 {
        return None;
    }
    Some(Parsed {
        statement: statements.pop()?,
        suffix,
    })
}

/// Like [`parse`], but only when the statement round-trips: its rendering parses back to the
/// same statement, so variants rendered by `sqlparser` say what their AST says.
fn parse_rewritable(sql: &str, family: SqlFamily) -> Option<Parsed> {
    let parsed = parse(sql, family)?;
    let again = parse(&parsed.render(&parsed.statement), family)?;
    (again.statement == parsed.statement && again.suffix == parsed.suffix).then_some(parsed)
}

/// `sql` split before a trailing MySQL `LOCK IN SHARE MODE` (the suffix keeps the whitespace
/// before it); the whole of `sql` and an empty suffix otherwise.
fn split_lock_suffix(sql: &str, family: SqlFamily) -> (String, String) {
    let whole = (sql.to_string(), String::new());
    if family != SqlFamily::Mysql {
        return whole;
    }
    let Some(tokens) = tokens(sql, family) else {
        return whole;
    };
    let significant: Vec<usize> = (0..tokens.len())
        .filter(|&i| !matches!(tokens[i], Token::Whitespace(_) | Token::SemiColon))
        .collect();
    let tail = [Keyword::LOCK, Keyword::IN, Keyword::SHARE, Keyword::MODE];
    let Some(start) = significant.len().checked_sub(tail.len()) else {
        return whole;
    };
    let is_tail = significant[start..]
        .iter()
        .zip(tail)
        .all(|(&i, keyword)| matches!(&tokens[i], Token::Word(w) if w.keyword == keyword && w.quote_style.is_none()));
    if !is_tail {
        return whole;
    }
    // Cut before the whitespace that precedes LOCK.
    let mut cut = significant[start];
    while cut > 0 && matches!(tokens[cut - 1], Token::Whitespace(_)) {
        cut -= 1;
    }
    (untokenize(&tokens[..cut]), untokenize(&tokens[cut..]))
}

/// The tokens of `sql` in `family`'s dialect, string literals kept as written (not
/// unescaped); `None` when it does not tokenize or the tokens do not render back to `sql`.
fn tokens(sql: &str, family: SqlFamily) -> Option<Vec<Token>> {
    let tokens = Tokenizer::new(dialect(family), sql)
        .with_unescape(false)
        .tokenize()
        .ok()?;
    (untokenize(&tokens) == sql).then_some(tokens)
}

/// The text of `tokens`: their `Display`, but for a single-line comment, which `sqlparser`
/// renders with a newline of its own although the newline that ends it is a token too.
fn untokenize(tokens: &[Token]) -> String {
    tokens
        .iter()
        .map(|token| match token {
            Token::Whitespace(Whitespace::SingleLineComment { comment, prefix }) => {
                format!("{prefix}{comment}")
            }
            _ => token.to_string(),
        })
        .collect()
}

/// The words of `text` (identifiers and keywords, quoted or not), lowercase; empty when it
/// does not tokenize.
fn words(text: &str, family: SqlFamily) -> HashSet<String> {
    Tokenizer::new(dialect(family), text)
        .tokenize()
        .unwrap_or_default()
        .into_iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w.value.to_lowercase()),
            _ => None,
        })
        .collect()
}

/// Whether `text` has a word among `names` (lowercase).
fn mentions(text: &str, family: SqlFamily, names: &HashSet<String>) -> bool {
    !words(text, family).is_disjoint(names)
}

/// Each `CREATE TABLE` among `statements` that parses: the table's name as written (its
/// last part) and its columns' definitions.
fn created_tables(
    statements: &[String],
    family: SqlFamily,
) -> Vec<(String, Vec<sqlparser::ast::ColumnDef>)> {
    (statements.iter())
        .filter_map(|sql| {
            let parsed = parse(sql, family)?;
            let Statement::CreateTable(create) = parsed.statement else {
                return None;
            };
            let table = create.name.0.last()?.as_ident()?.value.clone();
            Some((table, create.columns))
        })
        .collect()
}

/// The last part of a (possibly qualified) name, lowercase: how tables are matched.
fn last_name(name: &ObjectName) -> Option<String> {
    Some(name.0.last()?.as_ident()?.value.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::{parse_rewritable, split_lock_suffix};
    use txhunt_model::SqlFamily::{Mysql, Postgres, Sqlite};

    /// The typical generated case of the tests (MariaDB): setup, then steps.
    pub(super) const TYPICAL_INIT: [&str; 5] = [
        "CREATE TABLE t0 (a0 TEXT, a1 BIGINT NOT NULL CHECK ((a1 >= -1)), a2 DOUBLE, a3 DOUBLE UNIQUE CHECK ((a3 >= -6)), a4 BIGINT NOT NULL CHECK ((a4 >= -45)), a5 VARCHAR(10), PRIMARY KEY (a1, a4))",
        "CREATE TABLE t1 (b0 BIGINT NOT NULL, PRIMARY KEY (b0))",
        "CREATE INDEX i1 ON t1 (b0)",
        "INSERT INTO t0 (a0, a1, a2, a3, a4, a5) VALUES ('e', 555, 10.0, 12.25, 933, NULL), ('Yb', 309, 20.0, 8.75, 99, 'YbXY'), (NULL, 892, NULL, 15.75, 769, NULL)",
        "INSERT INTO t1 (b0) VALUES (-650), (-991), (990)",
    ];

    /// The steps of the typical case.
    pub(super) const TYPICAL_STEPS: [&str; 6] = [
        "SELECT a0, COUNT(*), MIN(a5) FROM t0 WHERE ((a4 + 3) > -774) GROUP BY a0",
        "INSERT IGNORE INTO t1 (b0) VALUES (657), (-991)",
        "UPDATE t1 SET b0 = 990 WHERE ((b0 BETWEEN -646 AND 990) AND ((b0 IS NULL) OR ((b0 + 2) >= -991)))",
        "SELECT * FROM t1 JOIN t0 ON (b0 = a1) WHERE (b0 IS NULL)",
        "SELECT b0 FROM t1 WHERE (b0 IS NOT NULL) LOCK IN SHARE MODE",
        "UPDATE t0 SET a3 = (t0.a3 + 2) WHERE (a1 >= -523)",
    ];

    /// `texts` as owned strings.
    pub(super) fn owned(texts: &[&str]) -> Vec<String> {
        texts.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn mysql_lock_in_share_mode_is_cut_off_and_put_back() {
        let sql = "SELECT b0 FROM t1 WHERE (b0 IS NOT NULL) LOCK IN SHARE MODE";
        assert_eq!(
            split_lock_suffix(sql, Mysql),
            (
                "SELECT b0 FROM t1 WHERE (b0 IS NOT NULL)".to_string(),
                " LOCK IN SHARE MODE".to_string()
            )
        );
        let parsed = parse_rewritable(sql, Mysql).unwrap();
        assert_eq!(parsed.render(&parsed.statement), sql);
        assert_eq!(split_lock_suffix(sql, Postgres).1, "");
    }

    #[test]
    fn dialect_specific_statements_round_trip() {
        for (sql, family) in [
            ("INSERT IGNORE INTO t1 (b0) VALUES (657), (-991)", Mysql),
            ("REPLACE INTO t VALUES (1, 2), (3, 4)", Mysql),
            (
                "INSERT INTO t0 (a0) VALUES (1) ON DUPLICATE KEY UPDATE a2 = 15",
                Mysql,
            ),
            ("SELECT * FROM t WHERE k = 1 FOR UPDATE", Mysql),
            ("SELECT * FROM t WHERE k = 1 FOR SHARE", Postgres),
            (
                "INSERT INTO t VALUES (1, 2) ON CONFLICT DO NOTHING",
                Postgres,
            ),
            ("INSERT OR REPLACE INTO t VALUES (1, 1), (2, 2)", Sqlite),
        ] {
            let parsed = parse_rewritable(sql, family).expect(sql);
            assert_eq!(parsed.render(&parsed.statement), sql);
        }
        assert!(parse_rewritable("SELECT 1; SELECT 2", Sqlite).is_none());
        assert!(parse_rewritable("SELEC 1", Sqlite).is_none());
    }

    #[test]
    fn odd_input_gives_nothing_and_never_panics() {
        let deep = format!(
            "SELECT * FROM t WHERE {}1{}",
            "(".repeat(200),
            ")".repeat(200)
        );
        let odd = [
            "",
            ";",
            "SELECT",
            "SELECT 'é' || \"ü\" FROM \"tä\" -- ß",
            "INSERT INTO t VALUES ((1, 2)), (3)",
            "INSERT INTO t VALUES (1,",
            "CREATE TABLE t ()",
            "/* only a comment */",
            deep.as_str(),
        ];
        for family in [Mysql, Postgres, Sqlite] {
            let statements: Vec<String> = odd.iter().map(ToString::to_string).collect();
            for sql in &statements {
                super::expression_variants(sql, family);
                super::insert_rows(sql, family);
                super::keep_insert_rows(sql, family, &[false, true]);
            }
            super::table_columns(&statements, family);
            super::drop_columns(&statements, family, &[]);
            let sites = super::literal_sites(&statements, family);
            super::simplify_literals(&statements, family, &vec![true; sites]);
            super::rename(&statements, family);
        }
        assert!(super::expression_variants(&deep, Mysql).is_empty());
    }
}
