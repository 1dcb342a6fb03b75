//! What a statement touches, read from its tokens (so it works on any statement the
//! tokenizer accepts, even one the parser would not).

use crate::instrument::table_key;
use sqlparser::ast::{ColumnOption, Expr, SetExpr, Statement, TableConstraint};
use sqlparser::dialect::{GenericDialect, MySqlDialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::keywords::Keyword;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, Tokenizer};
use std::collections::BTreeSet;
use txhunt_model::SqlFamily;

/// The tables `sql` names (lowercase): after FROM (and each comma of its list), JOIN, INTO,
/// UPDATE and TABLE, subqueries included. Empty when `sql` does not tokenize.
pub fn tables(sql: &str, family: SqlFamily) -> BTreeSet<String> {
    named_tables(sql, family).all
}

/// The tables `sql` names inside parentheses: those its subqueries read (a write's own table
/// among them when a subquery reads it too).
pub fn subquery_tables(sql: &str, family: SqlFamily) -> BTreeSet<String> {
    named_tables(sql, family).nested
}

/// The tables a statement names ([`tables`] and [`subquery_tables`] of one reading of it).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct NamedTables {
    /// Every table it names.
    pub all: BTreeSet<String>,
    /// Those it names inside parentheses.
    pub nested: BTreeSet<String>,
}

/// The tables `sql` names, all and inside parentheses, from one pass over its tokens.
pub fn named_tables(sql: &str, family: SqlFamily) -> NamedTables {
    let mut named = NamedTables::default();
    for (depth, table) in references(sql, family) {
        if depth > 0 {
            named.nested.insert(table.clone());
        }
        named.all.insert(table);
    }
    named
}

/// Whether `sql` decides on each row it reads by that row alone: it names one table once, at
/// the top level, without a subquery, a set operation, or a clause that weighs rows against
/// each other (LIMIT, OFFSET, FETCH, HAVING, DISTINCT, a window's OVER). Whether such a
/// statement observes a row depends only on the row's version; a join's or a subquery's
/// depends on other rows too. False when `sql` does not tokenize.
pub fn row_by_row(sql: &str, family: SqlFamily) -> bool {
    let references = references(sql, family);
    let words = keywords(sql, family);
    references.len() == 1
        && references[0].0 == 0
        && words.iter().filter(|&&k| k == Keyword::SELECT).count() <= 1
        && !words.iter().any(|k| {
            matches!(
                k,
                Keyword::JOIN
                    | Keyword::LIMIT
                    | Keyword::OFFSET
                    | Keyword::FETCH
                    | Keyword::HAVING
                    | Keyword::DISTINCT
                    | Keyword::OVER
                    | Keyword::UNION
                    | Keyword::EXCEPT
                    | Keyword::INTERSECT
            )
        })
}

/// Every table reference of `sql` with its parenthesis depth, in order (a table named twice,
/// as in a self-join, twice).
fn references(sql: &str, family: SqlFamily) -> Vec<(usize, String)> {
    let tokens = tokens(sql, family);
    let mut tables = Vec::new();
    // Per parenthesis depth: whether a FROM list is open there.
    let mut in_from = vec![false];
    let mut expect_table = false;
    // The previous keyword: an UPDATE after DO, KEY or FOR (`ON CONFLICT … DO UPDATE SET`,
    // `ON DUPLICATE KEY UPDATE`, `FOR UPDATE`) names no table.
    let mut previous = Keyword::NoKeyword;
    for token in tokens {
        if let Token::Word(word) = &token {
            let before = std::mem::replace(&mut previous, word.keyword);
            if word.keyword == Keyword::UPDATE
                && matches!(before, Keyword::DO | Keyword::KEY | Keyword::FOR)
            {
                expect_table = false;
                continue;
            }
        }
        match token {
            Token::Whitespace(_) => {}
            Token::LParen => {
                in_from.push(false);
                expect_table = false;
            }
            Token::RParen => {
                if in_from.len() > 1 {
                    in_from.pop();
                }
                expect_table = false;
            }
            Token::Comma => expect_table = *in_from.last().unwrap_or(&false),
            Token::Word(word) => {
                let depth = in_from.len() - 1;
                match word.keyword {
                    Keyword::FROM => {
                        in_from[depth] = true;
                        expect_table = true;
                    }
                    Keyword::JOIN | Keyword::INTO | Keyword::UPDATE | Keyword::TABLE => {
                        expect_table = true;
                    }
                    Keyword::SELECT | Keyword::LATERAL if expect_table => expect_table = false,
                    Keyword::WHERE
                    | Keyword::GROUP
                    | Keyword::ORDER
                    | Keyword::LIMIT
                    | Keyword::HAVING
                    | Keyword::ON
                    | Keyword::USING
                    | Keyword::SET
                    | Keyword::VALUES
                    | Keyword::FOR
                    | Keyword::LOCK
                    | Keyword::UNION
                    | Keyword::EXCEPT
                    | Keyword::INTERSECT
                    | Keyword::RETURNING
                        if !expect_table =>
                    {
                        in_from[depth] = false;
                    }
                    _ if expect_table => {
                        tables.push((depth, word.value.to_ascii_lowercase()));
                        expect_table = false;
                    }
                    _ => {}
                }
            }
            _ => expect_table = false,
        }
    }
    tables
}

/// The columns of `table`'s indexes other than its primary key (lowercase), from `statements`
/// (a case's, in order): the UNIQUE, KEY, INDEX, FOREIGN KEY, FULLTEXT and SPATIAL definitions
/// of the CREATE TABLE that creates it, and every CREATE INDEX on it. `None` where that cannot
/// be told: another statement creates, alters, drops or renames it, an index is on an
/// expression, or a definition naming it does not parse.
pub fn secondary_index_columns(
    statements: &[&str],
    table: &str,
    family: SqlFamily,
) -> Option<BTreeSet<String>> {
    let mut columns = BTreeSet::new();
    let mut created = false;
    for sql in statements {
        let tokens = tokens(sql, family);
        let names_it = (tokens.iter())
            .any(|t| matches!(t, Token::Word(w) if w.value.eq_ignore_ascii_case(table)));
        let first = (tokens.iter()).find_map(|t| match t {
            Token::Word(w) if w.keyword != Keyword::NoKeyword => Some(w.keyword),
            _ => None,
        });
        if tokens.is_empty() {
            return None;
        }
        if !names_it
            || !matches!(
                first,
                Some(Keyword::CREATE | Keyword::ALTER | Keyword::DROP | Keyword::RENAME)
            )
        {
            continue;
        }
        let [statement] = &parse(sql, family)?[..] else {
            return None;
        };
        let named = |expr: &Expr| match expr {
            Expr::Identifier(ident) => Some(ident.value.to_ascii_lowercase()),
            _ => None,
        };
        match statement {
            Statement::CreateTable(create) if table_key(&create.name.to_string()) == table => {
                if std::mem::replace(&mut created, true) {
                    return None;
                }
                for column in &create.columns {
                    if (column.options.iter()).any(|o| {
                        matches!(
                            o.option,
                            ColumnOption::Unique(_) | ColumnOption::ForeignKey(_)
                        )
                    }) {
                        columns.insert(column.name.value.to_ascii_lowercase());
                    }
                }
                for constraint in &create.constraints {
                    let indexed: Vec<&Expr> = match constraint {
                        TableConstraint::PrimaryKey(_) | TableConstraint::Check(_) => continue,
                        TableConstraint::Unique(c) => {
                            c.columns.iter().map(|c| &c.column.expr).collect()
                        }
                        TableConstraint::Index(c) => {
                            c.columns.iter().map(|c| &c.column.expr).collect()
                        }
                        TableConstraint::FulltextOrSpatial(c) => {
                            c.columns.iter().map(|c| &c.column.expr).collect()
                        }
                        TableConstraint::ForeignKey(c) => {
                            columns.extend(c.columns.iter().map(|i| i.value.to_ascii_lowercase()));
                            continue;
                        }
                        _ => return None,
                    };
                    for expr in indexed {
                        columns.insert(named(expr)?);
                    }
                }
            }
            // Another table's definition may name it (a foreign key to it): its own indexes
            // are not this table's.
            Statement::CreateTable(_) => {}
            Statement::CreateIndex(index) if table_key(&index.table_name.to_string()) == table => {
                for column in &index.columns {
                    columns.insert(named(&column.column.expr)?);
                }
            }
            _ => return None,
        }
    }
    Some(columns)
}

/// The names `sql`'s WHERE clause uses as columns, lowercase (empty without a WHERE clause):
/// every word after the first WHERE but the qualifiers before a `.` and the words AND, OR,
/// NOT, IN, IS, NULL, BETWEEN, LIKE, TRUE and FALSE. `None` when the clause holds anything else
/// a word could be (a function, a subquery) or `sql` does not tokenize.
pub fn where_columns(sql: &str, family: SqlFamily) -> Option<BTreeSet<String>> {
    let tokens: Vec<Token> = (tokens(sql, family).into_iter())
        .filter(|t| !matches!(t, Token::Whitespace(_)))
        .collect();
    if tokens.is_empty() {
        return None;
    }
    let clause = (tokens.iter())
        .position(|t| matches!(t, Token::Word(w) if w.keyword == Keyword::WHERE))
        .map_or(&[][..], |at| &tokens[at + 1..]);
    let mut columns = BTreeSet::new();
    for (i, token) in clause.iter().enumerate() {
        let Token::Word(word) = token else {
            continue;
        };
        let operator = matches!(
            word.keyword,
            Keyword::AND
                | Keyword::OR
                | Keyword::NOT
                | Keyword::IN
                | Keyword::IS
                | Keyword::NULL
                | Keyword::BETWEEN
                | Keyword::LIKE
                | Keyword::TRUE
                | Keyword::FALSE
        ) && word.quote_style.is_none();
        if operator || clause.get(i + 1) == Some(&Token::Period) {
            continue;
        }
        if clause.get(i + 1) == Some(&Token::LParen) || word.keyword == Keyword::SELECT {
            return None;
        }
        columns.insert(word.value.to_ascii_lowercase());
    }
    Some(columns)
}

/// `sql` parsed in `family`'s dialect, if it parses.
fn parse(sql: &str, family: SqlFamily) -> Option<Vec<Statement>> {
    match family {
        SqlFamily::Sqlite => Parser::parse_sql(&SQLiteDialect {}, sql),
        SqlFamily::Mysql => Parser::parse_sql(&MySqlDialect {}, sql),
        SqlFamily::Postgres => Parser::parse_sql(&PostgreSqlDialect {}, sql),
    }
    .ok()
}

/// How many rows the VALUES list of `sql` holds, where it is an INSERT or REPLACE of a VALUES
/// list (not of a SELECT); `None` otherwise, or where it does not parse.
pub fn values_rows(sql: &str, family: SqlFamily) -> Option<usize> {
    let [Statement::Insert(insert)] = &parse(sql, family)?[..] else {
        return None;
    };
    match insert.source.as_deref()?.body.as_ref() {
        SetExpr::Values(values) => Some(values.rows.len()),
        _ => None,
    }
}

/// Whether `sql`, an INSERT, updates the rows it conflicts with: `ON DUPLICATE KEY UPDATE`,
/// `ON CONFLICT … DO UPDATE` (by its keywords, not its literals; true where it does not
/// tokenize). A `REPLACE` deletes such a row and inserts its own in its place.
pub fn updates_on_conflict(sql: &str, family: SqlFamily) -> bool {
    let words = keywords(sql, family);
    words.is_empty()
        || words.contains(&Keyword::DUPLICATE)
        || (words.windows(2)).any(|w| w == [Keyword::DO, Keyword::UPDATE])
}

/// Whether `sql` contains a SELECT (a query, a subquery, an INSERT … SELECT).
pub fn selects(sql: &str, family: SqlFamily) -> bool {
    keywords(sql, family).contains(&Keyword::SELECT)
}

/// Whether `sql` is a locking read: `FOR UPDATE`, `FOR SHARE`, `FOR NO KEY UPDATE`,
/// `FOR KEY SHARE` or `LOCK IN SHARE MODE`.
pub fn locks_rows(sql: &str, family: SqlFamily) -> bool {
    let words = keywords(sql, family);
    words.windows(2).any(|w| {
        w[0] == Keyword::FOR
            && matches!(
                w[1],
                Keyword::UPDATE | Keyword::SHARE | Keyword::NO | Keyword::KEY
            )
    }) || words
        .windows(3)
        .any(|w| w == [Keyword::IN, Keyword::SHARE, Keyword::MODE])
}

/// The keywords of `sql`, in order.
fn keywords(sql: &str, family: SqlFamily) -> Vec<Keyword> {
    tokens(sql, family)
        .into_iter()
        .filter_map(|t| match t {
            Token::Word(w) if w.keyword != Keyword::NoKeyword => Some(w.keyword),
            _ => None,
        })
        .collect()
}

/// The tokens of `sql` in `family`'s dialect (the generic one where that fails); none when
/// it does not tokenize.
fn tokens(sql: &str, family: SqlFamily) -> Vec<Token> {
    match family {
        SqlFamily::Sqlite => Tokenizer::new(&SQLiteDialect {}, sql).tokenize(),
        SqlFamily::Mysql => Tokenizer::new(&MySqlDialect {}, sql).tokenize(),
        SqlFamily::Postgres => Tokenizer::new(&PostgreSqlDialect {}, sql).tokenize(),
    }
    .or_else(|_| Tokenizer::new(&GenericDialect {}, sql).tokenize())
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{
        locks_rows, named_tables, row_by_row, secondary_index_columns, selects, tables,
        updates_on_conflict, values_rows, where_columns,
    };
    use txhunt_model::SqlFamily::{Mysql, Postgres, Sqlite};

    fn names(sql: &str, family: txhunt_model::SqlFamily) -> Vec<String> {
        tables(sql, family).into_iter().collect()
    }

    #[test]
    fn tells_the_tables_subqueries_name_from_the_rest() {
        let named = named_tables(
            "UPDATE t SET v = (SELECT MAX(v) FROM u) WHERE k IN (SELECT k FROM t)",
            Mysql,
        );
        let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
        assert_eq!(named.all, set(&["t", "u"]));
        assert_eq!(named.nested, set(&["t", "u"]));
        let named = named_tables("SELECT * FROM t JOIN u ON t.k = u.k", Postgres);
        assert_eq!(named.all, set(&["t", "u"]));
        assert!(named.nested.is_empty());
    }

    #[test]
    fn finds_the_tables_of_every_statement_kind() {
        assert_eq!(names("INSERT INTO t0 VALUES (1)", Sqlite), ["t0"]);
        assert_eq!(
            names("INSERT OR REPLACE INTO t1 (a) VALUES (1)", Sqlite),
            ["t1"]
        );
        assert_eq!(
            names("REPLACE INTO t2 SELECT * FROM t0", Mysql),
            ["t0", "t2"]
        );
        assert_eq!(
            names("UPDATE t SET v = 1 WHERE k IN (SELECT k FROM u)", Mysql),
            ["t", "u"]
        );
        assert_eq!(
            names("DELETE FROM t WHERE c1 BETWEEN 1 AND 10", Postgres),
            ["t"]
        );
        assert_eq!(
            names(
                "SELECT a, b FROM t0 AS x, t1 y JOIN t2 ON x.a = t2.a WHERE a > 0",
                Mysql
            ),
            ["t0", "t1", "t2"]
        );
        assert_eq!(
            names(
                "SELECT a, (SELECT MAX(b) FROM u) FROM (SELECT a FROM t) AS s",
                Postgres
            ),
            ["t", "u"]
        );
        assert_eq!(names("SELECT 1", Sqlite), Vec::<String>::new());
        // Upserts and locking reads: the UPDATE keyword there names no table.
        assert_eq!(
            names(
                "INSERT INTO t0 (a0) VALUES (1) ON DUPLICATE KEY UPDATE a2 = 15",
                Mysql
            ),
            ["t0"]
        );
        assert_eq!(
            names(
                "INSERT INTO t0 (a0) VALUES (1) ON CONFLICT (a0) DO UPDATE SET a1 = 2",
                Postgres
            ),
            ["t0"]
        );
        assert_eq!(
            names("SELECT * FROM t WHERE k = 1 FOR UPDATE NOWAIT", Postgres),
            ["t"]
        );
        assert_eq!(names("UPDATE \"T\" SET v = 1", Postgres), ["t"]);
    }

    #[test]
    fn tells_locking_reads_and_statements_that_select() {
        assert!(locks_rows("SELECT * FROM t FOR UPDATE", Postgres));
        assert!(locks_rows(
            "SELECT * FROM t WHERE k = 1 FOR NO KEY UPDATE",
            Postgres
        ));
        assert!(locks_rows("SELECT * FROM t LOCK IN SHARE MODE", Mysql));
        assert!(!locks_rows("SELECT 'for update' FROM t", Postgres));
        assert!(selects(
            "UPDATE t SET v = 1 WHERE k IN (SELECT k FROM u)",
            Mysql
        ));
        assert!(!selects("UPDATE t SET v = 'select'", Sqlite));
    }

    #[test]
    fn tells_statements_that_observe_each_row_by_itself() {
        assert!(row_by_row(
            "SELECT * FROM t WHERE v > 2 FOR UPDATE",
            Postgres
        ));
        assert!(row_by_row("UPDATE t SET v = v + 1 WHERE k < 3", Mysql));
        assert!(row_by_row("SELECT COUNT(*) FROM t0 WHERE a > 1", Sqlite));
        assert!(!row_by_row(
            "SELECT * FROM t0 JOIN t1 ON t0.a = t1.a",
            Mysql
        ));
        assert!(!row_by_row(
            "SELECT * FROM t0 a, t0 b WHERE a.k = b.v",
            Postgres
        ));
        assert!(!row_by_row(
            "DELETE FROM t WHERE k IN (SELECT k FROM t WHERE v = 1)",
            Mysql
        ));
        assert!(!row_by_row("SELECT * FROM t ORDER BY v LIMIT 1", Sqlite));
        assert!(!row_by_row("SELECT DISTINCT v FROM t", Postgres));
        assert!(!row_by_row("INSERT INTO t SELECT * FROM u", Mysql));
    }
    #[test]
    fn the_columns_of_a_table_s_other_indexes_are_read_from_its_definitions() {
        let indexed = |statements: &[&str]| {
            secondary_index_columns(statements, "t", Mysql)
                .map(|c| c.into_iter().collect::<Vec<_>>())
        };
        let none: Vec<String> = Vec::new();
        assert_eq!(
            indexed(&[
                "CREATE TABLE t (k INT NOT NULL, v INT CHECK (v > 0), PRIMARY KEY (k))",
                "INSERT INTO t VALUES (1, 2)",
                "CREATE TABLE u (a INT UNIQUE, b INT REFERENCES t (k))",
                "DELETE FROM t WHERE v > 1",
            ]),
            Some(none.clone())
        );
        let v = Some(vec!["v".to_string()]);
        for definition in [
            "CREATE TABLE t (k INT PRIMARY KEY, v INT UNIQUE)",
            "CREATE TABLE t (k INT PRIMARY KEY, v INT, KEY (v))",
            "CREATE TABLE t (k INT PRIMARY KEY, v INT, INDEX iv (v))",
            "CREATE TABLE t (k INT PRIMARY KEY, v INT, UNIQUE KEY (v))",
            "CREATE TABLE t (k INT PRIMARY KEY, v INT REFERENCES u (a))",
        ] {
            assert_eq!(indexed(&[definition]), v, "{definition}");
        }
        let created = "CREATE TABLE t (k INT PRIMARY KEY, v INT)";
        assert_eq!(indexed(&[created, "CREATE INDEX iv ON t (v)"]), v);
        assert_eq!(indexed(&[created, "CREATE UNIQUE INDEX iv ON T (v)"]), v);
        for later in [
            "ALTER TABLE t ADD KEY (v)",
            "DROP TABLE t",
            "RENAME TABLE u TO t",
            "CREATE INDEX iv ON t ((v + 1))",
            "CREATE TABLE t (k INT)",
        ] {
            assert_eq!(indexed(&[created, later]), None, "{later}");
        }
    }

    #[test]
    fn the_where_clause_columns_are_its_words_but_operators_and_qualifiers() {
        let columns =
            |sql: &str| where_columns(sql, Mysql).map(|c| c.into_iter().collect::<Vec<_>>());
        assert_eq!(columns("DELETE FROM t"), Some(vec![]));
        assert_eq!(
            columns("UPDATE t AS x SET v = 1 WHERE x.k IN (1, 2) AND NOT k2 IS NULL"),
            Some(vec!["k".to_string(), "k2".to_string()])
        );
        assert_eq!(
            columns("DELETE FROM t WHERE k BETWEEN -1 AND 3 OR `v` LIKE 'a%'"),
            Some(vec!["k".to_string(), "v".to_string()])
        );
        assert_eq!(columns("DELETE FROM t WHERE ABS(k) > 1"), None);
        assert_eq!(columns("DELETE FROM t WHERE k IN (SELECT k FROM u)"), None);
    }

    #[test]
    fn updates_on_conflict_and_values_rows_are_read_from_the_statement_not_its_literals() {
        use txhunt_model::SqlFamily::*;
        for (sql, family) in [
            (
                "INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE v = 2",
                Mysql,
            ),
            (
                "INSERT INTO t VALUES (1) ON CONFLICT (k) DO UPDATE SET v = 2",
                Postgres,
            ),
            (
                "INSERT INTO t VALUES (1) ON CONFLICT DO UPDATE SET v = 2",
                Sqlite,
            ),
        ] {
            assert!(updates_on_conflict(sql, family), "{sql}");
        }
        for (sql, family) in [
            ("INSERT INTO t VALUES ('ON DUPLICATE KEY UPDATE')", Mysql),
            ("REPLACE INTO t VALUES (1)", Mysql),
            ("INSERT OR REPLACE INTO t VALUES (1)", Sqlite),
            ("INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", Postgres),
            ("INSERT IGNORE INTO t VALUES (1)", Mysql),
        ] {
            assert!(!updates_on_conflict(sql, family), "{sql}");
        }
        assert_eq!(values_rows("INSERT INTO t VALUES (1), (2)", Mysql), Some(2));
        assert_eq!(
            values_rows(
                "INSERT INTO t (k) VALUES ('e') ON DUPLICATE KEY UPDATE k = 'b'",
                Mysql
            ),
            Some(1)
        );
        assert_eq!(values_rows("INSERT INTO t SELECT * FROM u", Mysql), None);
        assert_eq!(values_rows("UPDATE t SET v = 1", Mysql), None);
    }
}
