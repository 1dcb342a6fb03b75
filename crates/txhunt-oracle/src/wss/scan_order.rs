//! InnoDB's locking scan below REPEATABLE READ, for a statement that waited: it reads each
//! row's newest version when its scan reaches it, releases the rows that do not match, and
//! takes no gap locks ("thus permits the free insertion of new records next to locked
//! records", MySQL and MariaDB manuals, READ COMMITTED). The rows its scan passed before the
//! row it waited for were read when it started; that row and the rest, when it completed. A
//! row inserted behind its cursor meanwhile is never read, and a row it passed may be changed
//! by another transaction before it completes.
//!
//! Modelled where the scan's order is known from the rows' values: a statement that decides
//! row by row ([`row_by_row`]) without ORDER BY, on a table whose only index is its primary key
//! (the clustered index InnoDB scans in key order), or an UPDATE or DELETE whose WHERE clause
//! names no other column (no other index gives it a range to scan), all of whose keys are
//! integers or strings whose order no collation changes (digits and lower-case letters,
//! [`KeyPart`]), in a case that never alters, drops or renames a table (its CREATE TABLE gives
//! its key). Each key of the table is a candidate for the row it waited for ([`scan_states`]).
//!
//! A row moved behind the cursor is not excused: where the row it waited for was gone when it
//! completed because an UPDATE moved its key elsewhere (MDEV-27992: a DELETE that waited for a
//! row whose primary key its holder changed, and then deleted nothing, is a MariaDB bug, still
//! present at READ COMMITTED in 10.11), the statement missed a row it had found. So the
//! candidates are the keys of the state at completion (the waited-for row was still there),
//! and the keys of the state at the start only when no statement that ran during the wait
//! updated rows (each only deleted rows or only inserted them, as its replay shows, an upsert
//! that inserted every row included: the waited-for row was deleted, not moved).

use std::cmp::Ordering;
use txhunt_model::access::Version;
use txhunt_model::{DbState, SqlFamily, StmtKind, TestCase, Value};
use txhunt_sql::analysis::{named_tables, row_by_row, secondary_index_columns, where_columns};
use txhunt_sql::instrument::{plan, Plan};

/// The states step `step` of `case` may have read, one per candidate for the row it waited
/// for: that row's key `w`, with every row of `start` (the state when it started) whose key is
/// below `w` and every row of `done` (the state when it completed) whose key is not; the other
/// tables as in `done`. `moved` says whether a statement that ran during the wait may have
/// moved a row (its replay both removed and added rows of a table: an UPDATE, an upsert that
/// updated, DDL). Empty where the scan's order is
/// not modelled (see the module documentation).
pub(super) fn scan_states(
    case: &TestCase,
    step: usize,
    family: SqlFamily,
    start: &DbState,
    done: &DbState,
    moved: bool,
) -> Vec<DbState> {
    let sql = &case.steps[step].stmt.sql;
    let named = named_tables(sql, family).all;
    let (Some(table), 1) = (named.first(), named.len()) else {
        return Vec::new();
    };
    let statements: Vec<&str> = (case.init.iter().map(|s| s.sql.as_str()))
        .chain(case.steps.iter().map(|s| s.stmt.sql.as_str()))
        .collect();
    let Some(meta) =
        (statements.iter()).find_map(
            |sql| match plan(sql, family, Version::Init(0), &[], false) {
                Plan::CreateTable { table: meta, .. } if &meta.name == table => Some(meta),
                _ => None,
            },
        )
    else {
        return Vec::new();
    };
    // Its CREATE TABLE gives its key, and its other indexes are known (nothing alters,
    // drops or renames it). It scans the primary key where it has no other index, or where
    // it is an UPDATE or DELETE whose WHERE clause names none of their columns: no other
    // index then gives it a range to scan, and it reads whole rows.
    let Some(indexed) = secondary_index_columns(&statements, table, family) else {
        return Vec::new();
    };
    let scans_key = indexed.is_empty()
        || (matches!(
            case.steps[step].stmt.kind(),
            StmtKind::Update | StmtKind::Delete
        ) && where_columns(sql, family).is_some_and(|used| used.is_disjoint(&indexed)));
    if meta.key.is_empty()
        || !scans_key
        || !row_by_row(sql, family)
        || sql.to_ascii_uppercase().contains("ORDER BY")
    {
        return Vec::new();
    }
    let Some(columns) = (meta.key.iter())
        .map(|k| meta.columns.iter().position(|c| c.eq_ignore_ascii_case(k)))
        .collect::<Option<Vec<usize>>>()
    else {
        return Vec::new();
    };
    let key = |row: &Vec<Value>| -> Option<Vec<KeyPart>> {
        (columns.iter())
            .map(|&c| row.get(c).and_then(KeyPart::of))
            .collect()
    };
    let (before, after) = (
        start.table(table).unwrap_or_default(),
        done.table(table).unwrap_or_default(),
    );
    let Some(mut waited_for) = (after.iter())
        .chain(if moved { &[][..] } else { before })
        .map(key)
        .collect::<Option<Vec<Vec<KeyPart>>>>()
    else {
        return Vec::new();
    };
    if before.iter().any(|row| key(row).is_none()) {
        return Vec::new();
    }
    waited_for.sort();
    waited_for.dedup();
    let mut states: Vec<DbState> = Vec::new();
    for w in &waited_for {
        let below = |row: &Vec<Value>| key(row).is_some_and(|k| k.cmp(w) == Ordering::Less);
        let rows = (before.iter().filter(|r| below(r)))
            .chain(after.iter().filter(|r| !below(r)))
            .cloned()
            .collect();
        let mut state = done.clone();
        state.insert(table, rows);
        if !states.contains(&state) {
            states.push(state);
        }
    }
    states
}

/// One value of a key column, where its place in InnoDB's clustered index is known: an
/// integer, or a string of ASCII digits and lower-case letters only, whose byte order is its
/// order in every collation a case is likely to have (case-insensitive or binary, latin1 or
/// utf8mb4, PAD SPACE or not: digits before letters, a prefix before its extensions). Any other
/// value (upper case, which a case-insensitive collation sorts among the lower-case letters;
/// spaces, punctuation, non-ASCII letters, whose places differ between collations) has none.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum KeyPart {
    Int(i64),
    Text(String),
}

impl KeyPart {
    fn of(value: &Value) -> Option<KeyPart> {
        match value {
            Value::Int(i) => Some(KeyPart::Int(*i)),
            Value::Text(t) if (t.bytes()).all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()) => {
                Some(KeyPart::Text(t.clone()))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(rows: &[i64]) -> DbState {
        let mut state = DbState::new();
        state.insert("t", rows.iter().map(|&k| vec![Value::Int(k)]).collect());
        state
    }

    fn keys(state: &DbState) -> Vec<i64> {
        let mut keys: Vec<i64> = (state.table("t").unwrap().iter())
            .map(|r| match r[0] {
                Value::Int(k) => k,
                _ => unreachable!(),
            })
            .collect();
        keys.sort();
        keys
    }

    fn case(create: &str, stmt: &str) -> TestCase {
        txhunt_model::scenario::parse(
            &format!("/* init */ {create};\n/* t1 */ {stmt};"),
            "case.sql",
        )
        .expect("parses")
    }

    #[test]
    fn rows_before_the_waited_for_row_come_from_the_start_and_the_rest_from_the_completion() {
        let case = case(
            "CREATE TABLE t (k INT PRIMARY KEY)",
            "DELETE FROM t WHERE k > 0",
        );
        let (start, done) = (state(&[1, 3, 5]), state(&[0, 2, 5, 7]));
        let split = |moved| {
            scan_states(&case, 0, SqlFamily::Mysql, &start, &done, moved)
                .iter()
                .map(keys)
                .collect::<Vec<_>>()
        };
        // Waited for 0, 2, 5 or 7 (there when it completed).
        assert_eq!(
            split(true),
            [vec![0, 2, 5, 7], vec![1, 2, 5, 7], vec![1, 3, 5, 7]]
        );
        // Or for 1 or 3, deleted meanwhile (5 and 7 give one state).
        assert_eq!(split(false).len(), 5);
        assert!(split(false).contains(&vec![1, 5, 7]));
    }

    #[test]
    fn a_write_naming_no_indexed_column_scans_the_primary_key_beside_other_indexes() {
        let (start, done) = (state(&[1]), state(&[2]));
        for stmt in [
            "DELETE FROM t",
            "UPDATE t SET v = 1 WHERE k > 0",
            "DELETE FROM t WHERE x IS NOT NULL",
        ] {
            let case = case(
                "CREATE TABLE t (k INT PRIMARY KEY, v INT UNIQUE, x INT)",
                stmt,
            );
            let states = scan_states(&case, 0, SqlFamily::Mysql, &start, &done, false);
            assert_eq!(states.len(), 2, "{stmt}");
        }
    }

    #[test]
    fn string_keys_of_digits_and_lower_case_letters_are_scanned_in_byte_order() {
        let case = case(
            "CREATE TABLE t (k INT, w VARCHAR(5), PRIMARY KEY (k, w))",
            "DELETE FROM t",
        );
        let row = |k: i64, w: &str| vec![Value::Int(k), Value::Text(w.into())];
        let mut start = DbState::new();
        start.insert("t", vec![row(2, "b")]);
        let mut done = DbState::new();
        done.insert(
            "t",
            vec![row(1, "c"), row(2, "b"), row(2, "b1"), row(2, "ba")],
        );
        let states = scan_states(&case, 0, SqlFamily::Mysql, &start, &done, true);
        let waited_for_2b = (states.iter())
            .find(|s| s.table("t").unwrap().len() == 3)
            .expect("a state where the scan waited for (2, 'b')");
        // (1, 'c') was inserted behind the cursor; (2, 'b1') and (2, 'ba') sort after 'b'.
        assert!(!waited_for_2b.table("t").unwrap().contains(&row(1, "c")));
        // Waiting for (2, 'b1') gives that state too: (2, 'b') below it, from the start.
        assert_eq!(states.len(), 3);
    }

    #[test]
    fn no_states_where_the_scan_order_is_not_known() {
        let (start, done) = (state(&[1]), state(&[2]));
        for (create, stmt) in [
            (
                "CREATE TABLE t (k INT PRIMARY KEY)",
                "DELETE FROM t ORDER BY k DESC",
            ),
            (
                "CREATE TABLE t (k INT PRIMARY KEY)",
                "DELETE FROM t LIMIT 1",
            ),
            (
                "CREATE TABLE t (k INT PRIMARY KEY, v INT UNIQUE)",
                "DELETE FROM t WHERE v > 1",
            ),
            (
                "CREATE TABLE t (k INT PRIMARY KEY, v INT UNIQUE)",
                "SELECT * FROM t FOR UPDATE",
            ),
            (
                "CREATE TABLE t (k INT PRIMARY KEY)",
                "DELETE FROM t WHERE k IN (SELECT k FROM t)",
            ),
            (
                "CREATE TABLE t (k INT PRIMARY KEY);\n/* init */ ALTER TABLE t DROP PRIMARY KEY",
                "DELETE FROM t",
            ),
        ] {
            let case = case(create, stmt);
            let states = scan_states(&case, 0, SqlFamily::Mysql, &start, &done, false);
            assert!(states.is_empty(), "{stmt}");
        }
        let all = case("CREATE TABLE t (k INT PRIMARY KEY)", "DELETE FROM t");
        for unordered in ["B", "a b", "é", "a_"] {
            let mut text = DbState::new();
            text.insert("t", vec![vec![Value::Text(unordered.into())]]);
            let states = scan_states(&all, 0, SqlFamily::Mysql, &start, &text, false);
            assert!(states.is_empty(), "{unordered}");
        }
        let unkeyed = case("CREATE TABLE t (k INT)", "DELETE FROM t");
        assert!(scan_states(&unkeyed, 0, SqlFamily::Mysql, &start, &done, false).is_empty());
    }
}
