//! How an `ALTER TABLE` of a case changes the columns instrumentation knows of a table.
//!
//! Instrumentation names a table's columns where the case leaves them implicit (an `INSERT`
//! without a column list gets the table's user-visible columns, then the hidden ones). When a
//! statement adds, drops or renames a column, the statements after it must name the columns
//! the table has then. A schema change is DDL that instrumentation does not track (its plan is
//! [`super::Plan::Untracked`], so the graph oracles draw no dependency on the table); this only
//! keeps the statements after it running as they would uninstrumented.
//!
//! Known limit: on MySQL/MariaDB the logging triggers, created with the table, list the columns
//! it had then. A row logged after an added column lacks it (the graph oracles leave the table
//! out anyway), and an UPDATE would count a row whose only change is to that column as
//! unchanged, so the executor leaves such UPDATEs untracked. A write after a dropped or renamed
//! column fails where the trigger names the old column.

use super::{table_key, Sql};
use sqlparser::ast::{AlterTableOperation, MySQLColumnPosition, Statement};
use sqlparser::parser::Parser;
use txhunt_model::access::TableMeta;
use txhunt_model::SqlFamily;

/// Updates `tables` for `sql` when it is an `ALTER TABLE` of one of them that adds, drops or
/// renames columns, and names the table whose columns changed; any other statement leaves
/// them as they are. Planned before the case runs, so the change is assumed to succeed.
pub fn follow_column_changes(
    sql: &str,
    family: SqlFamily,
    tables: &mut [TableMeta],
) -> Option<String> {
    let first = sql.trim_start().get(..5)?;
    if !first.eq_ignore_ascii_case("alter") {
        return None;
    }
    let mut statements = Parser::parse_sql(Sql::of(family).dialect.as_ref(), sql).ok()?;
    let (Some(Statement::AlterTable(alter)), true) = (statements.pop(), statements.is_empty())
    else {
        return None;
    };
    let name = table_key(&alter.name.to_string());
    let table = tables.iter_mut().find(|t| t.name == name)?;
    let before = table.columns.clone();
    for operation in &alter.operations {
        apply(operation, &mut table.columns);
    }
    (table.columns != before).then_some(name)
}

/// `columns` after `operation`.
fn apply(operation: &AlterTableOperation, columns: &mut Vec<String>) {
    let position =
        |columns: &[String], name: &str| columns.iter().position(|c| c.eq_ignore_ascii_case(name));
    match operation {
        AlterTableOperation::AddColumn {
            if_not_exists,
            column_def,
            column_position,
            ..
        } => {
            let column = column_def.name.value.clone();
            if *if_not_exists && position(columns, &column).is_some() {
                return;
            }
            let at = match column_position {
                None => columns.len(),
                Some(MySQLColumnPosition::First) => 0,
                Some(MySQLColumnPosition::After(after)) => {
                    position(columns, &after.value).map_or(columns.len(), |i| i + 1)
                }
            };
            columns.insert(at, column);
        }
        AlterTableOperation::DropColumn { column_names, .. } => {
            columns.retain(|c| !column_names.iter().any(|d| d.value.eq_ignore_ascii_case(c)));
        }
        AlterTableOperation::RenameColumn {
            old_column_name,
            new_column_name,
        } => {
            if let Some(i) = position(columns, &old_column_name.value) {
                columns[i] = new_column_name.value.clone();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<TableMeta> {
        vec![TableMeta {
            name: "t".into(),
            columns: vec!["k".into(), "v".into()],
            key: vec!["k".into()],
        }]
    }

    fn after(sql: &str, family: SqlFamily) -> Vec<String> {
        let mut tables = table();
        let changed = follow_column_changes(sql, family, &mut tables);
        let columns = tables.remove(0).columns;
        assert_eq!(changed.is_some(), columns != ["k", "v"], "{sql}");
        columns
    }

    #[test]
    fn an_added_column_comes_last_unless_placed() {
        let pg = SqlFamily::Postgres;
        assert_eq!(after("ALTER TABLE t ADD COLUMN w INT", pg), ["k", "v", "w"]);
        assert_eq!(
            after("alter table T add w int", SqlFamily::Sqlite),
            ["k", "v", "w"]
        );
        let my = SqlFamily::Mysql;
        assert_eq!(
            after("ALTER TABLE t ADD COLUMN w INT FIRST", my),
            ["w", "k", "v"]
        );
        assert_eq!(
            after("ALTER TABLE t ADD w INT AFTER k", my),
            ["k", "w", "v"]
        );
    }

    #[test]
    fn dropped_and_renamed_columns_follow() {
        let pg = SqlFamily::Postgres;
        assert_eq!(after("ALTER TABLE t DROP COLUMN v", pg), ["k"]);
        assert_eq!(after("ALTER TABLE t RENAME COLUMN v TO w", pg), ["k", "w"]);
    }

    #[test]
    fn other_statements_and_tables_change_nothing() {
        let pg = SqlFamily::Postgres;
        assert_eq!(after("ALTER TABLE u ADD COLUMN w INT", pg), ["k", "v"]);
        assert_eq!(
            after("ALTER TABLE t ADD CONSTRAINT c CHECK (v > 0)", pg),
            ["k", "v"]
        );
        assert_eq!(after("INSERT INTO t VALUES (1, 2)", pg), ["k", "v"]);
    }
}
