//! Tables, columns and indexes renamed to short canonical names.

use super::{parse, tokens, untokenize};
use sqlparser::ast::Statement;
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, Word};
use std::collections::{HashMap, HashSet};
use txhunt_model::SqlFamily;

/// The new names of columns, in order; the seventh and later are `c7`, `c8`, …
const COLUMN_NAMES: [&str; 6] = ["k", "v", "w", "x", "y", "z"];

/// `statements` with tables renamed `t`, `t2`, `t3`, … and columns `k`, `v`, `w`, `x`, `y`,
/// `z`, `c7`, `c8`, … in the order of their `CREATE TABLE`, indexes of a `CREATE INDEX`
/// `i`, `i2`, … Column names are mapped globally: each distinct column name (compared
/// case-insensitively) gets one new name, so unqualified references in joins stay
/// unambiguous. Done on tokens, all statements at once: every word token equal,
/// case-insensitively, to an old name becomes the new name, quoted as it was.
///
/// Some names are left as they are: a column name that is also called as a function
/// (`count` next to `COUNT(*)`), and a name that is a keyword of the dialect when renaming
/// it would break a statement (`key` next to `PRIMARY KEY`).
///
/// A name shared by a table and a column (or an index) is one word: it gets the table's new
/// name everywhere.
///
/// `None` when nothing would change, when a statement does not tokenize, when a new name
/// already occurs as another word in the statements (renaming could capture it), or when a
/// statement that parsed would no longer parse.
pub fn rename(statements: &[String], family: SqlFamily) -> Option<Vec<String>> {
    let mut all_tokens = Vec::with_capacity(statements.len());
    for sql in statements {
        all_tokens.push(tokens(sql, family)?);
    }
    let olds = OldNames::of(statements, family, &all_tokens);
    let parsing: Vec<bool> = statements
        .iter()
        .map(|sql| parse(sql, family).is_some())
        .collect();
    let breaks = |renames: &HashMap<String, String>| {
        let renamed = apply(statements, &all_tokens, renames);
        renamed
            .iter()
            .zip(&parsing)
            .any(|(sql, parsed)| *parsed && parse(sql, family).is_none())
    };
    // Keywords that cannot be renamed on their own.
    let mut skip = HashSet::new();
    for old in olds.all() {
        if is_keyword(old, family) {
            let alone = HashMap::from([(old.to_string(), "txhunt_probe".to_string())]);
            if breaks(&alone) {
                skip.insert(old.to_string());
            }
        }
    }
    let renames = olds.new_names(&skip);
    let taken = all_tokens
        .iter()
        .flatten()
        .filter_map(|token| match token {
            Token::Word(word) => Some(word.value.to_lowercase()),
            _ => None,
        })
        .any(|word| !renames.contains_key(&word) && renames.values().any(|new| *new == word));
    if taken || breaks(&renames) {
        return None;
    }
    let renamed = apply(statements, &all_tokens, &renames);
    (renamed != statements).then_some(renamed)
}

/// The old names (lowercase) of the tables, columns and indexes created by a set of
/// statements, in order, without repeats.
struct OldNames {
    tables: Vec<String>,
    columns: Vec<String>,
    indexes: Vec<String>,
}

impl OldNames {
    /// The old names of `statements` (with their tokens `all_tokens`), without the column
    /// names also used as function names and, among columns and indexes, without the names
    /// of tables.
    fn of(statements: &[String], family: SqlFamily, all_tokens: &[Vec<Token>]) -> Self {
        let mut names = OldNames {
            tables: Vec::new(),
            columns: Vec::new(),
            indexes: Vec::new(),
        };
        let add = |list: &mut Vec<String>, name: &str| {
            let name = name.to_lowercase();
            if !list.contains(&name) {
                list.push(name);
            }
        };
        for sql in statements {
            let Some(parsed) = parse(sql, family) else {
                continue;
            };
            match &parsed.statement {
                Statement::CreateTable(create) => {
                    if let Some(table) = create.name.0.last().and_then(|part| part.as_ident()) {
                        add(&mut names.tables, &table.value);
                    }
                    for column in &create.columns {
                        add(&mut names.columns, &column.name.value);
                    }
                }
                Statement::CreateIndex(index) => {
                    let name = index
                        .name
                        .as_ref()
                        .and_then(|name| name.0.last()?.as_ident());
                    if let Some(name) = name {
                        add(&mut names.indexes, &name.value);
                    }
                }
                _ => {}
            }
        }
        let called = called_words(all_tokens);
        let tables = names.tables.clone();
        names
            .columns
            .retain(|column| !called.contains(column) && !tables.contains(column));
        let columns = names.columns.clone();
        names
            .indexes
            .retain(|index| !tables.contains(index) && !columns.contains(index));
        names
    }

    /// Every old name.
    fn all(&self) -> impl Iterator<Item = &str> {
        self.tables
            .iter()
            .chain(&self.columns)
            .chain(&self.indexes)
            .map(String::as_str)
    }

    /// The new name of each old name but those of `skip`.
    fn new_names(&self, skip: &HashSet<String>) -> HashMap<String, String> {
        let kept = |list: &[String]| -> Vec<String> {
            list.iter()
                .filter(|n| !skip.contains(*n))
                .cloned()
                .collect()
        };
        let numbered = |base: &str, i: usize| {
            if i == 0 {
                base.to_string()
            } else {
                format!("{base}{}", i + 1)
            }
        };
        let tables = kept(&self.tables)
            .into_iter()
            .enumerate()
            .map(|(i, old)| (old, numbered("t", i)));
        let columns = kept(&self.columns).into_iter().enumerate().map(|(i, old)| {
            let new = COLUMN_NAMES
                .get(i)
                .map_or_else(|| format!("c{}", i + 1), |name| name.to_string());
            (old, new)
        });
        let indexes = kept(&self.indexes)
            .into_iter()
            .enumerate()
            .map(|(i, old)| (old, numbered("i", i)));
        tables.chain(columns).chain(indexes).collect()
    }
}

/// The words (lowercase) directly followed by `(` somewhere in `all_tokens`: function names,
/// and tables in `CREATE TABLE t(…)` or `INSERT INTO t(…)`.
fn called_words(all_tokens: &[Vec<Token>]) -> HashSet<String> {
    let mut called = HashSet::new();
    for tokens in all_tokens {
        let significant: Vec<&Token> = tokens
            .iter()
            .filter(|t| !matches!(t, Token::Whitespace(_)))
            .collect();
        for pair in significant.windows(2) {
            if let [Token::Word(word), Token::LParen] = pair {
                called.insert(word.value.to_lowercase());
            }
        }
    }
    called
}

/// `statements` (with their tokens `all_tokens`) with every word among the old names of
/// `renames` renamed; a statement without such a word stays as it is.
fn apply(
    statements: &[String],
    all_tokens: &[Vec<Token>],
    renames: &HashMap<String, String>,
) -> Vec<String> {
    statements
        .iter()
        .zip(all_tokens)
        .map(|(sql, tokens)| {
            let mut changed = false;
            let tokens: Vec<Token> = tokens
                .iter()
                .map(|token| match token {
                    Token::Word(word) => match renames.get(&word.value.to_lowercase()) {
                        Some(new) if *new != word.value => {
                            changed = true;
                            Token::Word(Word {
                                value: new.clone(),
                                quote_style: word.quote_style,
                                keyword: Keyword::NoKeyword,
                            })
                        }
                        _ => token.clone(),
                    },
                    _ => token.clone(),
                })
                .collect();
            if changed {
                untokenize(&tokens)
            } else {
                sql.clone()
            }
        })
        .collect()
}

/// Whether `name` is a keyword in `family`'s dialect.
fn is_keyword(name: &str, family: SqlFamily) -> bool {
    match tokens(name, family).as_deref() {
        Some([Token::Word(word)]) => word.keyword != Keyword::NoKeyword,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::rename;
    use crate::simplify::tests::{owned, TYPICAL_INIT, TYPICAL_STEPS};
    use txhunt_model::SqlFamily::{Mysql, Postgres, Sqlite};

    #[test]
    fn renames_tables_columns_and_indexes_of_the_typical_case() {
        let mut case = owned(&TYPICAL_INIT);
        case.extend(owned(&TYPICAL_STEPS));
        assert_eq!(
            rename(&case, Mysql).unwrap(),
            [
                "CREATE TABLE t (k TEXT, v BIGINT NOT NULL CHECK ((v >= -1)), w DOUBLE, x DOUBLE UNIQUE CHECK ((x >= -6)), y BIGINT NOT NULL CHECK ((y >= -45)), z VARCHAR(10), PRIMARY KEY (v, y))",
                "CREATE TABLE t2 (c7 BIGINT NOT NULL, PRIMARY KEY (c7))",
                "CREATE INDEX i ON t2 (c7)",
                "INSERT INTO t (k, v, w, x, y, z) VALUES ('e', 555, 10.0, 12.25, 933, NULL), ('Yb', 309, 20.0, 8.75, 99, 'YbXY'), (NULL, 892, NULL, 15.75, 769, NULL)",
                "INSERT INTO t2 (c7) VALUES (-650), (-991), (990)",
                "SELECT k, COUNT(*), MIN(z) FROM t WHERE ((y + 3) > -774) GROUP BY k",
                "INSERT IGNORE INTO t2 (c7) VALUES (657), (-991)",
                "UPDATE t2 SET c7 = 990 WHERE ((c7 BETWEEN -646 AND 990) AND ((c7 IS NULL) OR ((c7 + 2) >= -991)))",
                "SELECT * FROM t2 JOIN t ON (c7 = v) WHERE (c7 IS NULL)",
                "SELECT c7 FROM t2 WHERE (c7 IS NOT NULL) LOCK IN SHARE MODE",
                "UPDATE t SET x = (t.x + 2) WHERE (v >= -523)",
            ]
        );
    }

    #[test]
    fn maps_shared_column_names_once_and_keeps_quotes() {
        let case = owned(&[
            "CREATE TABLE \"Accounts\" (\"Id\" INT PRIMARY KEY, owner TEXT)",
            "CREATE TABLE audit (id INT, note TEXT)",
            "SELECT * FROM \"Accounts\" JOIN audit ON audit.id = \"Accounts\".\"Id\" WHERE owner = 'owner'",
        ]);
        assert_eq!(
            rename(&case, Postgres).unwrap(),
            [
                "CREATE TABLE \"t\" (\"k\" INT PRIMARY KEY, v TEXT)",
                "CREATE TABLE t2 (k INT, w TEXT)",
                "SELECT * FROM \"t\" JOIN t2 ON t2.k = \"t\".\"k\" WHERE v = 'owner'",
            ]
        );
    }

    #[test]
    fn leaves_keywords_and_function_names_it_cannot_rename() {
        let case = owned(&[
            "CREATE TABLE items (key INT, count INT, PRIMARY KEY (key))",
            "SELECT COUNT(*), MAX(count) FROM items",
        ]);
        assert_eq!(
            rename(&case, Sqlite).unwrap(),
            [
                "CREATE TABLE t (key INT, count INT, PRIMARY KEY (key))",
                "SELECT COUNT(*), MAX(count) FROM t",
            ]
        );
    }

    #[test]
    fn nothing_when_already_simple_or_a_new_name_is_taken() {
        let simple = owned(&[
            "CREATE TABLE t(k INT PRIMARY KEY, v INT)",
            "INSERT INTO t VALUES (1, 1), (2, 2)",
            "UPDATE t SET v = v + 1 WHERE k = 1",
        ]);
        assert_eq!(rename(&simple, Sqlite), None);
        let capture = owned(&["CREATE TABLE t0 (a INT, b INT)", "SELECT k.a FROM t0 AS k"]);
        assert_eq!(rename(&capture, Mysql), None);

        assert_eq!(rename(&owned(&["SELECT 'open"]), Mysql), None);
    }

    #[test]
    fn a_name_of_a_table_and_a_column_gets_the_table_s_new_name() {
        let case = owned(&[
            "CREATE TABLE u (t INT, a INT)",
            "CREATE TABLE t (a INT)",
            "SELECT t.a, u.t FROM t, u",
        ]);
        assert_eq!(
            rename(&case, Mysql).unwrap(),
            [
                "CREATE TABLE t (t2 INT, k INT)",
                "CREATE TABLE t2 (k INT)",
                "SELECT t2.k, t.t2 FROM t2, t",
            ]
        );
    }

    #[test]
    fn renames_columns_past_the_sixth() {
        let case =
            owned(&["CREATE TABLE wide (a INT, b INT, c INT, d INT, e INT, f INT, g INT, h INT)"]);
        assert_eq!(
            rename(&case, Mysql).unwrap(),
            ["CREATE TABLE t (k INT, v INT, w INT, x INT, y INT, z INT, c7 INT, c8 INT)"]
        );
    }
}
