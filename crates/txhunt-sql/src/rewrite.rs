//! Rewrites of single statements, parsed with `sqlparser` in the target's dialect, that
//! oracles use to build discriminating variants of a case.

use sqlparser::ast::{Statement, TableFactor};
use sqlparser::dialect::{Dialect, MySqlDialect, PostgreSqlDialect};
use sqlparser::parser::Parser;
use txhunt_model::SqlFamily;

/// For `UPDATE t SET … [WHERE p] [ORDER BY …] [LIMIT n]`, the locking read of the rows it
/// chooses: `SELECT * FROM t [WHERE p] [ORDER BY …] [LIMIT n] FOR UPDATE`. `None` when `sql`
/// does not parse in the dialect of `family` (SQLite has no locking reads) or is not a
/// single-table UPDATE without alias, FROM, RETURNING or conflict clause.
pub fn locking_read_of_update(sql: &str, family: SqlFamily) -> Option<String> {
    let dialect: Box<dyn Dialect> = match family {
        SqlFamily::Mysql => Box::new(MySqlDialect {}),
        SqlFamily::Postgres => Box::new(PostgreSqlDialect {}),
        SqlFamily::Sqlite => return None,
    };
    let statements = Parser::parse_sql(dialect.as_ref(), sql).ok()?;
    let [Statement::Update(update)] = statements.as_slice() else {
        return None;
    };
    let plain = update.from.is_none()
        && update.returning.is_none()
        && update.or.is_none()
        && update.output.is_none()
        && update.optimizer_hints.is_empty()
        && update.table.joins.is_empty();
    let TableFactor::Table {
        name, alias: None, ..
    } = &update.table.relation
    else {
        return None;
    };
    if !plain {
        return None;
    }
    let mut read = format!("SELECT * FROM {name}");
    if let Some(filter) = &update.selection {
        read.push_str(&format!(" WHERE {filter}"));
    }
    if !update.order_by.is_empty() {
        let keys: Vec<String> = update.order_by.iter().map(ToString::to_string).collect();
        read.push_str(&format!(" ORDER BY {}", keys.join(", ")));
    }
    if let Some(limit) = &update.limit {
        read.push_str(&format!(" LIMIT {limit}"));
    }
    read.push_str(" FOR UPDATE");
    Some(read)
}

#[cfg(test)]
mod tests {
    use super::locking_read_of_update;
    use txhunt_model::SqlFamily::{Mysql, Postgres, Sqlite};

    #[test]
    fn an_update_gets_a_locking_read_of_the_same_rows() {
        assert_eq!(
            locking_read_of_update(
                "UPDATE t0 SET a0 = (t0.a0 + 1), a1 = 'x' WHERE (a0 IN (SELECT a0 FROM t1)) ORDER BY a0 LIMIT 2",
                Mysql
            )
            .as_deref(),
            Some("SELECT * FROM t0 WHERE (a0 IN (SELECT a0 FROM t1)) ORDER BY a0 LIMIT 2 FOR UPDATE")
        );
        assert_eq!(
            locking_read_of_update("update \"T\" set v = 1", Postgres).as_deref(),
            Some("SELECT * FROM \"T\" FOR UPDATE")
        );
    }

    #[test]
    fn other_statements_shapes_and_dialects_have_no_locking_read() {
        for (sql, family) in [
            ("DELETE FROM t", Mysql),
            ("UPDATE t SET v = 1", Sqlite),
            ("UPDATE t SET v = 1 RETURNING v", Postgres),
            ("UPDATE t AS x SET v = 1", Postgres),
            ("UPDATE t, u SET t.v = u.v", Mysql),
            ("UPDATE t SET v = 1 FROM u WHERE u.k = t.k", Postgres),
            ("UPDATE t SET", Mysql),
        ] {
            assert_eq!(locking_read_of_update(sql, family), None, "{sql}");
        }
    }
}
