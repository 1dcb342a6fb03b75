//! The columns of the schema, and the setup without some of them.

use super::rows::values_mut;
use super::{created_tables, last_name, mentions, parse, parse_rewritable, words};
use sqlparser::ast::{Statement, TableObject};
use std::collections::{HashMap, HashSet};
use txhunt_model::SqlFamily;

/// A column of a table created by a `CREATE TABLE` among the setup statements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The table's name as written (unquoted value; the last part of a qualified name).
    pub table: String,
    /// The column's name as written (unquoted value).
    pub name: String,
}

/// The columns of every `CREATE TABLE` in `init`, in order (table and column names as
/// written, unquoted value). Statements that do not parse are skipped.
pub fn table_columns(init: &[String], family: SqlFamily) -> Vec<Column> {
    (created_tables(init, family).into_iter())
        .flat_map(|(table, columns)| {
            columns.into_iter().map(move |column| Column {
                table: table.clone(),
                name: column.name.value,
            })
        })
        .collect()
}

/// `init` without the columns `drop`: each column's definition and every constraint naming
/// it (a table's `PRIMARY KEY (a1, a4)`, `UNIQUE (…)`, `CHECK (…)`, another column's
/// `CHECK`, a foreign key of another table referring to it) removed from its `CREATE TABLE`;
/// in every INSERT into that table, the column removed from the column list and its value
/// from every row (by position in the `CREATE TABLE` when the INSERT has no column list); a
/// `CREATE INDEX` naming a dropped column is dropped as a whole statement (so the result may
/// be shorter). Names match case-insensitively. `None` when the result cannot be built: a
/// table or an INSERT would be left with no column, an INSERT into the table does not parse
/// (or round-trip), is an `INSERT … SELECT` or `INSERT … SET`, or still names a dropped
/// column (say in `ON DUPLICATE KEY UPDATE`).
pub fn drop_columns(init: &[String], family: SqlFamily, drop: &[Column]) -> Option<Vec<String>> {
    // Per table (lowercase): the dropped columns (lowercase).
    let mut dropped: HashMap<String, HashSet<String>> = HashMap::new();
    for column in drop {
        dropped
            .entry(column.table.to_lowercase())
            .or_default()
            .insert(column.name.to_lowercase());
    }
    let layouts = layouts(init, family);
    let mut reduced = Vec::with_capacity(init.len());
    for sql in init {
        let Some(parsed) = parse(sql, family) else {
            // A statement we cannot read must not touch a table that loses columns.
            let words = words(sql, family);
            if dropped.keys().any(|table| words.contains(table)) {
                return None;
            }
            reduced.push(sql.clone());
            continue;
        };
        let rewritten = match &parsed.statement {
            Statement::CreateTable(_) => create_table(sql, family, &dropped)?,
            Statement::CreateIndex(index) => {
                let gone = last_name(&index.table_name)
                    .and_then(|table| dropped.get(&table))
                    .is_some_and(|names| {
                        let mut text: Vec<String> =
                            index.columns.iter().map(ToString::to_string).collect();
                        text.extend(index.include.iter().map(ToString::to_string));
                        text.extend(index.predicate.iter().map(ToString::to_string));
                        mentions(&text.join(" "), family, names)
                    });
                if gone {
                    continue;
                }
                None
            }
            Statement::Insert(_) => insert(sql, family, &dropped, &layouts)?,
            _ => None,
        };
        reduced.push(rewritten.unwrap_or_else(|| sql.clone()));
    }
    Some(reduced)
}

/// The column names (lowercase) of each table (lowercase) created in `init`, in order.
fn layouts(init: &[String], family: SqlFamily) -> HashMap<String, Vec<String>> {
    let mut layouts: HashMap<String, Vec<String>> = HashMap::new();
    for column in table_columns(init, family) {
        layouts
            .entry(column.table.to_lowercase())
            .or_default()
            .push(column.name.to_lowercase());
    }
    layouts
}

/// The CREATE TABLE `sql` without the dropped columns and what names them: `Some(None)` when
/// nothing changes, `None` when the result cannot be built.
fn create_table(
    sql: &str,
    family: SqlFamily,
    dropped: &HashMap<String, HashSet<String>>,
) -> Option<Option<String>> {
    let mut parsed = parse(sql, family)?;
    let Statement::CreateTable(create) = &mut parsed.statement else {
        return None;
    };
    let table = last_name(&create.name)?;
    let original = create.clone();
    let own = dropped.get(&table).cloned().unwrap_or_default();
    // Whether the text of a column option or a table constraint names a dropped column: one
    // of this table, or one of another table together with that table (a foreign key).
    let names_dropped = |text: &str| {
        let words = words(text, family);
        !words.is_disjoint(&own)
            || dropped.iter().any(|(other, names)| {
                *other != table && words.contains(other) && !words.is_disjoint(names)
            })
    };
    create
        .columns
        .retain(|column| !own.contains(&column.name.value.to_lowercase()));
    if create.columns.is_empty() {
        return None;
    }
    for column in &mut create.columns {
        column
            .options
            .retain(|option| !names_dropped(&option.to_string()));
    }
    create
        .constraints
        .retain(|constraint| !names_dropped(&constraint.to_string()));
    if *create == original {
        return Some(None);
    }
    // Rendered by `sqlparser`: only a statement that round-trips.
    parse_rewritable(sql, family)?;
    Some(Some(parsed.render(&parsed.statement)))
}

/// The INSERT `sql` without the dropped columns' values: `Some(None)` when it needs no
/// change, `None` when the result cannot be built.
fn insert(
    sql: &str,
    family: SqlFamily,
    dropped: &HashMap<String, HashSet<String>>,
    layouts: &HashMap<String, Vec<String>>,
) -> Option<Option<String>> {
    let Statement::Insert(insert) = &parse(sql, family)?.statement else {
        return None;
    };
    let TableObject::TableName(name) = &insert.table else {
        return None;
    };
    let table = last_name(name)?;
    let Some(names) = dropped.get(&table) else {
        return Some(None);
    };
    let mut parsed = parse_rewritable(sql, family)?;
    let Statement::Insert(insert) = &mut parsed.statement else {
        return None;
    };
    let columns: Vec<String> = if insert.columns.is_empty() {
        layouts.get(&table)?.clone()
    } else {
        insert
            .columns
            .iter()
            .map(last_name)
            .collect::<Option<Vec<String>>>()?
    };
    // Per inserted column: whether it is dropped.
    let gone: Vec<bool> = columns.iter().map(|c| names.contains(c)).collect();
    if !gone.contains(&false) {
        return None;
    }
    if !insert.columns.is_empty() {
        let mut gone = gone.iter();
        insert.columns.retain(|_| gone.next() == Some(&false));
    }
    let values = values_mut(&mut parsed.statement)?;
    for row in &mut values.rows {
        if row.content.len() != gone.len() {
            return None;
        }
        let mut gone = gone.iter();
        row.content.retain(|_| gone.next() == Some(&false));
    }
    if !gone.contains(&true) {
        // Nothing to cut, but a dropped column named elsewhere (an upsert) would not exist.
        return (!mentions(sql, family, names)).then_some(None);
    }
    let rendered = parsed.render(&parsed.statement);
    (!mentions(&rendered, family, names)).then_some(Some(rendered))
}

#[cfg(test)]
mod tests {
    use super::{drop_columns, table_columns, Column};
    use crate::simplify::tests::{owned, TYPICAL_INIT};
    use txhunt_model::SqlFamily::{Mysql, Postgres, Sqlite};

    fn column(table: &str, name: &str) -> Column {
        Column {
            table: table.to_string(),
            name: name.to_string(),
        }
    }

    #[test]
    fn lists_the_columns_of_every_create_table() {
        let columns = table_columns(&owned(&TYPICAL_INIT), Mysql);
        let names: Vec<String> = columns
            .iter()
            .map(|c| format!("{}.{}", c.table, c.name))
            .collect();
        assert_eq!(
            names,
            ["t0.a0", "t0.a1", "t0.a2", "t0.a3", "t0.a4", "t0.a5", "t1.b0"]
        );
        assert_eq!(
            table_columns(
                &owned(&["CREATE TABLE \"T\" (\"K\" INT, v TEXT)", "BEGIN"]),
                Postgres
            ),
            [column("T", "K"), column("T", "v")]
        );
        assert_eq!(table_columns(&owned(&["CREATE TABLE"]), Sqlite), []);
    }

    #[test]
    fn drops_a_column_with_its_constraints_and_values() {
        let reduced = drop_columns(&owned(&TYPICAL_INIT), Mysql, &[column("t0", "a1")]).unwrap();
        assert_eq!(
            reduced,
            [
                "CREATE TABLE t0 (a0 TEXT, a2 DOUBLE, a3 DOUBLE UNIQUE CHECK ((a3 >= -6)), a4 BIGINT NOT NULL CHECK ((a4 >= -45)), a5 VARCHAR(10))",
                TYPICAL_INIT[1],
                TYPICAL_INIT[2],
                "INSERT INTO t0 (a0, a2, a3, a4, a5) VALUES ('e', 10.0, 12.25, 933, NULL), ('Yb', 20.0, 8.75, 99, 'YbXY'), (NULL, NULL, 15.75, 769, NULL)",
                TYPICAL_INIT[4],
            ]
        );
        let reduced = drop_columns(
            &owned(&TYPICAL_INIT),
            Mysql,
            &[column("t0", "a3"), column("t0", "a5")],
        )
        .unwrap();
        assert_eq!(
            reduced[0],
            "CREATE TABLE t0 (a0 TEXT, a1 BIGINT NOT NULL CHECK ((a1 >= -1)), a2 DOUBLE, a4 BIGINT NOT NULL CHECK ((a4 >= -45)), PRIMARY KEY (a1, a4))"
        );
        assert_eq!(
            reduced[3],
            "INSERT INTO t0 (a0, a1, a2, a4) VALUES ('e', 555, 10.0, 933), ('Yb', 309, 20.0, 99), (NULL, 892, NULL, 769)"
        );
        assert_eq!(&reduced[1..3], &TYPICAL_INIT[1..3]);
    }

    #[test]
    fn drops_an_index_on_a_dropped_column_and_positional_values() {
        let init = owned(&[
            "CREATE TABLE t(k INT PRIMARY KEY, v INT, w TEXT CHECK (w <> ''))",
            "CREATE INDEX iv ON t (v, k)",
            "CREATE INDEX iw ON t (w)",
            "INSERT INTO t VALUES (1, 1, 'a'), (2, 2, 'b')",
        ]);
        assert_eq!(
            drop_columns(&init, Sqlite, &[column("t", "v")]).unwrap(),
            [
                "CREATE TABLE t (k INT PRIMARY KEY, w TEXT CHECK (w <> ''))",
                "CREATE INDEX iw ON t (w)",
                "INSERT INTO t VALUES (1, 'a'), (2, 'b')",
            ]
        );
        assert_eq!(
            drop_columns(&init, Sqlite, &[column("T", "W")]).unwrap(),
            [
                "CREATE TABLE t (k INT PRIMARY KEY, v INT)",
                "CREATE INDEX iv ON t (v, k)",
                "INSERT INTO t VALUES (1, 1), (2, 2)",
            ]
        );
        assert_eq!(drop_columns(&init, Sqlite, &[]).unwrap(), init);
    }

    #[test]
    fn drops_foreign_keys_referring_to_a_dropped_column() {
        let init = owned(&[
            "CREATE TABLE p (k INT PRIMARY KEY, v INT UNIQUE)",
            "CREATE TABLE c (k INT, pv INT REFERENCES p (v), FOREIGN KEY (k) REFERENCES p (k))",
            "INSERT INTO p VALUES (1, 10)",
            "INSERT INTO c (k, pv) VALUES (1, 10)",
        ]);
        assert_eq!(
            drop_columns(&init, Postgres, &[column("p", "v")]).unwrap(),
            [
                "CREATE TABLE p (k INT PRIMARY KEY)",
                "CREATE TABLE c (k INT, pv INT, FOREIGN KEY (k) REFERENCES p(k))",
                "INSERT INTO p VALUES (1)",
                "INSERT INTO c (k, pv) VALUES (1, 10)",
            ]
        );
    }

    #[test]
    fn cannot_drop_what_would_leave_nothing_or_cannot_be_read() {
        let init = owned(&TYPICAL_INIT);
        // t1 would have no column left.
        assert_eq!(drop_columns(&init, Mysql, &[column("t1", "b0")]), None);
        let with = |extra: &str| {
            let mut init = owned(&["CREATE TABLE t (k INT, v INT)"]);
            init.push(extra.to_string());
            init
        };
        for (extra, family) in [
            ("INSERT INTO t SELECT 1, 2", Mysql),
            ("INSERT INTO t SET k = 1, v = 2", Mysql),
            ("INSERT INTO t (v) VALUES (1), (2)", Postgres),
            (
                "INSERT INTO t (k) VALUES (1) ON DUPLICATE KEY UPDATE v = 2",
                Mysql,
            ),
            ("INSERT INTO t VALUES (1, 2", Sqlite),
            ("INSERT INTO t VALUES (1), (2)", Sqlite),
        ] {
            assert_eq!(
                drop_columns(&with(extra), family, &[column("t", "v")]),
                None,
                "{extra}"
            );
        }
        // An INSERT into another table is not read.
        assert_eq!(
            drop_columns(&with("INSERT INTO u SELECT 1"), Mysql, &[column("t", "v")]).unwrap(),
            ["CREATE TABLE t (k INT)", "INSERT INTO u SELECT 1"]
        );
    }

    #[test]
    fn keeps_mysql_upserts_that_do_not_name_the_column() {
        let init = owned(&[
            "CREATE TABLE t (k INT PRIMARY KEY, v INT, w INT) ENGINE=InnoDB",
            "INSERT IGNORE INTO t (k, v, w) VALUES (1, 2, 3), (4, 5, 6)",
            "INSERT INTO t (k, v) VALUES (1, 2) ON DUPLICATE KEY UPDATE v = 7",
        ]);
        assert_eq!(
            drop_columns(&init, Mysql, &[column("t", "w")]).unwrap(),
            [
                "CREATE TABLE t (k INT PRIMARY KEY, v INT) ENGINE = InnoDB",
                "INSERT IGNORE INTO t (k, v) VALUES (1, 2), (4, 5)",
                "INSERT INTO t (k, v) VALUES (1, 2) ON DUPLICATE KEY UPDATE v = 7",
            ]
        );
    }
}
