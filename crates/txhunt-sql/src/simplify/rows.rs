//! The rows of an `INSERT … VALUES`: how many there are, and the INSERT with fewer of them.

use super::parse_rewritable;
use sqlparser::ast::{SetExpr, Statement, Values};
use txhunt_model::SqlFamily;

/// Number of rows of `sql` when it is a single `INSERT [IGNORE] INTO t [(cols)] VALUES (…),
/// (…)` (or `REPLACE INTO`, SQLite's `INSERT OR …`; an `ON CONFLICT`, `ON DUPLICATE KEY
/// UPDATE` or `RETURNING` clause is allowed and stays on the reduced statement); `None`
/// otherwise, and when the statement does not round-trip through `sqlparser`.
pub fn insert_rows(sql: &str, family: SqlFamily) -> Option<usize> {
    let mut parsed = parse_rewritable(sql, family)?;
    values_mut(&mut parsed.statement).map(|values| values.rows.len())
}

/// The INSERT `sql` keeping only the rows whose `keep` entry is true (`keep` has one entry
/// per row, see [`insert_rows`]); `sql` itself (byte-identical) when every row is kept.
/// `None` when no row is kept (the caller drops the statement), when `keep` has the wrong
/// length, or when `sql` is not such an INSERT.
pub fn keep_insert_rows(sql: &str, family: SqlFamily, keep: &[bool]) -> Option<String> {
    let mut parsed = parse_rewritable(sql, family)?;
    let values = values_mut(&mut parsed.statement)?;
    if keep.len() != values.rows.len() || !keep.contains(&true) {
        return None;
    }
    if !keep.contains(&false) {
        return Some(sql.to_string());
    }
    let mut kept = keep.iter();
    values.rows.retain(|_| kept.next() == Some(&true));
    Some(parsed.render(&parsed.statement))
}

/// The VALUES rows of `statement` when it is a plain `INSERT … VALUES`.
pub(super) fn values_mut(statement: &mut Statement) -> Option<&mut Values> {
    let Statement::Insert(insert) = statement else {
        return None;
    };
    if !insert.assignments.is_empty() {
        return None;
    }
    let query = insert.source.as_mut()?;
    let plain = query.with.is_none()
        && query.order_by.is_none()
        && query.limit_clause.is_none()
        && query.fetch.is_none()
        && query.locks.is_empty();
    match query.body.as_mut() {
        SetExpr::Values(values) if plain && !values.explicit_row => Some(values),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{insert_rows, keep_insert_rows};
    use txhunt_model::SqlFamily::{Mysql, Postgres, Sqlite};

    const T0: &str = "INSERT INTO t0 (a0, a1, a2, a3, a4, a5) VALUES ('e', 555, 10.0, 12.25, 933, NULL), ('Yb', 309, 20.0, 8.75, 99, 'YbXY'), (NULL, 892, NULL, 15.75, 769, NULL)";

    #[test]
    fn counts_the_rows_of_plain_inserts() {
        assert_eq!(insert_rows(T0, Mysql), Some(3));
        assert_eq!(
            insert_rows("INSERT IGNORE INTO t1 (b0) VALUES (657), (-991)", Mysql),
            Some(2)
        );
        assert_eq!(
            insert_rows("INSERT INTO t VALUES (1, 1), (2, 2)", Sqlite),
            Some(2)
        );
        assert_eq!(
            insert_rows(
                "INSERT INTO t VALUES (1, 1) ON CONFLICT DO NOTHING",
                Postgres
            ),
            Some(1)
        );
    }

    #[test]
    fn other_statements_have_no_rows() {
        for (sql, family) in [
            ("INSERT INTO t SELECT * FROM u", Mysql),
            ("INSERT INTO t SET k = 1", Mysql),
            ("UPDATE t SET v = 1", Postgres),
            (
                "INSERT INTO t VALUES (1), (2); INSERT INTO t VALUES (3)",
                Sqlite,
            ),
            ("INSERT INTO t VALUES (1", Sqlite),
        ] {
            assert_eq!(insert_rows(sql, family), None, "{sql}");
            assert_eq!(keep_insert_rows(sql, family, &[true]), None, "{sql}");
        }
    }

    #[test]
    fn keeps_the_chosen_rows_and_every_clause() {
        assert_eq!(
            keep_insert_rows(T0, Mysql, &[false, true, false]).as_deref(),
            Some("INSERT INTO t0 (a0, a1, a2, a3, a4, a5) VALUES ('Yb', 309, 20.0, 8.75, 99, 'YbXY')")
        );
        assert_eq!(
            keep_insert_rows(
                "INSERT IGNORE INTO t1 (b0) VALUES (657), (-991)",
                Mysql,
                &[false, true]
            )
            .as_deref(),
            Some("INSERT IGNORE INTO t1 (b0) VALUES (-991)")
        );
        assert_eq!(
            keep_insert_rows(
                "INSERT INTO t0 (a0) VALUES (1), (2) ON DUPLICATE KEY UPDATE a2 = 15",
                Mysql,
                &[true, false]
            )
            .as_deref(),
            Some("INSERT INTO t0 (a0) VALUES (1) ON DUPLICATE KEY UPDATE a2 = 15")
        );
        assert_eq!(
            keep_insert_rows(
                "REPLACE INTO t VALUES (1, 2), (3, 4)",
                Mysql,
                &[false, true]
            )
            .as_deref(),
            Some("REPLACE INTO t VALUES (3, 4)")
        );
        assert_eq!(
            keep_insert_rows(
                "INSERT INTO t VALUES (1, 2), (3, 4) ON CONFLICT DO NOTHING RETURNING k",
                Postgres,
                &[true, false]
            )
            .as_deref(),
            Some("INSERT INTO t VALUES (1, 2) ON CONFLICT DO NOTHING RETURNING k")
        );
        assert_eq!(
            keep_insert_rows(
                "INSERT OR REPLACE INTO t VALUES (1, 1), (2, 2)",
                Sqlite,
                &[false, true]
            )
            .as_deref(),
            Some("INSERT OR REPLACE INTO t VALUES (2, 2)")
        );
    }

    #[test]
    fn keeping_all_is_identity_and_keeping_none_is_none() {
        let sql = "insert into t values (1,1),  (2,2)";
        assert_eq!(
            keep_insert_rows(sql, Sqlite, &[true, true]).as_deref(),
            Some(sql)
        );
        assert_eq!(keep_insert_rows(sql, Sqlite, &[false, false]), None);
        assert_eq!(keep_insert_rows(sql, Sqlite, &[true]), None);
        assert_eq!(
            keep_insert_rows(sql, Sqlite, &[true, false]).as_deref(),
            Some("INSERT INTO t VALUES (1, 1)")
        );
    }
}
