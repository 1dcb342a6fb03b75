//! What a statement touches, read from its tokens (so it works on any statement the
//! tokenizer accepts, even one the parser would not).

use sqlparser::dialect::{GenericDialect, MySqlDialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, Tokenizer};
use std::collections::BTreeSet;
use txhunt_model::SqlFamily;

/// The tables `sql` names (lowercase): after FROM (and each comma of its list), JOIN, INTO,
/// UPDATE and TABLE, subqueries included. Empty when `sql` does not tokenize.
pub fn tables(sql: &str, family: SqlFamily) -> BTreeSet<String> {
    let tokens = match family {
        SqlFamily::Sqlite => Tokenizer::new(&SQLiteDialect {}, sql).tokenize(),
        SqlFamily::Mysql => Tokenizer::new(&MySqlDialect {}, sql).tokenize(),
        SqlFamily::Postgres => Tokenizer::new(&PostgreSqlDialect {}, sql).tokenize(),
    }
    .or_else(|_| Tokenizer::new(&GenericDialect {}, sql).tokenize())
    .unwrap_or_default();
    let mut tables = BTreeSet::new();
    // Per parenthesis depth: whether a FROM list is open there.
    let mut in_from = vec![false];
    let mut expect_table = false;
    for token in tokens {
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
                        tables.insert(word.value.to_ascii_lowercase());
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

#[cfg(test)]
mod tests {
    use super::tables;
    use txhunt_model::SqlFamily::{Mysql, Postgres, Sqlite};

    fn names(sql: &str, family: txhunt_model::SqlFamily) -> Vec<String> {
        tables(sql, family).into_iter().collect()
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
        assert_eq!(names("UPDATE \"T\" SET v = 1", Postgres), ["t"]);
    }
}
