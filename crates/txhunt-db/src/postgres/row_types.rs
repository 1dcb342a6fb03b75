//! Which statements return rows of the same column types, once the schema is fixed: the key
//! under which a database's sessions share what preparing one of them taught
//! ([`super::connection::RowTypes`]).
//!
//! Most statements share their types with those of the same shape: the same text but for
//! literal values no type depends on
//! ([`txhunt_model::template::Template::typed_key`]). A write whose rows come only
//! from a `RETURNING` list of bare column names and `*` shares them with every such write to
//! the same table with the same list, whatever it writes and however it chooses its rows:
//! those columns are the table's own. That is what an instrumented write is (`RETURNING
//! txh_rid, txh_prev, txh_ver, *`), so a stress run prepares its writes once per table and
//! list, not once per shape (measured on PostgreSQL 15, random workload, 6 seeds: about one
//! preparation per transaction recorded against half of one plain).
//!
//! A `RETURNING *` of an UPDATE with `FROM` or a DELETE with `USING` also holds the other
//! tables' columns: a statement that names `FROM` or `USING` past its head keeps its shape's
//! key, as does anything this reading is not sure of.
//!
//! Likewise a SELECT's column types are set by its select list and `FROM` items, never by its
//! `WHERE` condition or what follows it (grouping, order, limits, locking): SELECTs that
//! differ only from their top-level `WHERE` on share a key, unless a set operation (`UNION`,
//! `INTERSECT`, `EXCEPT`) follows, whose other branch takes part in setting the types. The
//! random workload's reads repeat their select lists far more often than their conditions.

use txhunt_model::template::literal_template;

/// The key of `sql`'s result column types.
pub(super) fn key(sql: &str) -> String {
    if let Some(key) = select_key(sql) {
        return key;
    }
    let template = literal_template(sql);
    returning_key(&template.text).unwrap_or_else(|| template.typed_key())
}

/// `select|<typed key of its head>` for a SELECT with a top-level `WHERE` and no set
/// operation, its head being all before that `WHERE`; `None` for anything else (a set
/// operator's word anywhere, comments, quoted names and escapes too: this reading does not
/// follow them).
fn select_key(sql: &str) -> Option<String> {
    let upper = sql.to_ascii_uppercase();
    if !upper.starts_with("SELECT ")
        || sql.contains(['"', '\\'])
        || sql.contains("--")
        || sql.contains("/*")
        || ["UNION", "INTERSECT", "EXCEPT"]
            .iter()
            .any(|op| upper.contains(op))
    {
        return None;
    }
    let bytes = sql.as_bytes();
    let (mut depth, mut i, mut cut) = (0usize, 0, None);
    while i < bytes.len() {
        match bytes[i] {
            // A string literal: '' inside it is a quote.
            b'\'' => {
                i += 1;
                while i < bytes.len() && !(bytes[i] == b'\'' && bytes.get(i + 1) != Some(&b'\'')) {
                    i += if bytes[i] == b'\'' { 2 } else { 1 };
                }
            }
            b'(' => depth += 1,
            b')' => depth = depth.checked_sub(1)?,
            b if b.is_ascii_whitespace() && depth == 0 => {
                let word: String = (upper[i + 1..].chars())
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if word == "WHERE" {
                    cut.get_or_insert(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    Some(format!(
        "select|{}",
        literal_template(&sql[..cut?]).typed_key()
    ))
}

/// `returning|<table>|<list>` for a write to one table whose rows are its `RETURNING` list
/// of bare names and `*`; `None` for anything else.
fn returning_key(text: &str) -> Option<String> {
    let upper = text.to_ascii_uppercase();
    let rest = ["INSERT INTO ", "UPDATE ", "DELETE FROM "]
        .iter()
        .find_map(|head| upper.strip_prefix(head))?;
    let head_len = text.len() - rest.len();
    if rest.contains(" FROM ") || rest.contains(" USING ") || text.contains('"') {
        return None;
    }
    let at = upper.rfind(" RETURNING ")?;
    let list = text[at + " RETURNING ".len()..].trim();
    let names = list.split(',').map(str::trim);
    if list.is_empty() || !names.clone().all(|n| n == "*" || is_name(n)) {
        return None;
    }
    let table = text[head_len..].split([' ', '(']).next()?;
    let parts: Vec<&str> = table.split('.').collect();
    if parts.len() > 2 || !parts.iter().all(|p| is_name(p)) {
        return None;
    }
    let list: Vec<&str> = names.collect();
    Some(format!("returning|{table}|{}", list.join(",")))
}

/// A bare identifier: a letter or `_`, then letters, digits and `_`.
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instrumented_writes_to_one_table_share_a_key_whatever_they_write() {
        let update = key("UPDATE t SET txh_prev = txh_ver, txh_ver = 5, v = v + 1 WHERE k = 1 RETURNING txh_rid, txh_prev, txh_ver, *");
        let other = key("UPDATE t SET txh_prev = txh_ver, txh_ver = 9, w = 'x' WHERE v > 3 AND k < 2 RETURNING txh_rid, txh_prev, txh_ver, *");
        let delete = key("DELETE FROM t WHERE v > 3 RETURNING txh_rid, txh_prev, txh_ver, *");
        assert_eq!(update, other);
        assert_eq!(update, delete);
        assert_eq!(update, "returning|t|txh_rid,txh_prev,txh_ver,*");
        let insert =
            key("INSERT INTO s.t (k, v, txh_rid) VALUES (1, 10, 3) RETURNING txh_rid, k, v");
        assert_eq!(insert, "returning|s.t|txh_rid,k,v");
        assert_ne!(
            update,
            key("UPDATE u SET v = 1 RETURNING txh_rid, txh_prev, txh_ver, *")
        );
    }

    #[test]
    fn selects_share_a_key_whatever_their_condition_and_order_but_not_their_head() {
        let a = key("SELECT t0.a, t0.txh_rid, t0.txh_ver FROM t0 WHERE t0.b > 3 AND t0.c = 'x'");
        let b = key("SELECT t0.a, t0.txh_rid, t0.txh_ver FROM t0 WHERE (t0.b IN (SELECT c FROM u WHERE d = ')')) ORDER BY 1 LIMIT 2");
        assert_eq!(a, b);
        assert_ne!(
            a,
            key("SELECT t0.b, t0.txh_rid, t0.txh_ver FROM t0 WHERE t0.b > 3")
        );
        // A literal in the head still counts by its type.
        assert_ne!(
            key("SELECT 7 FROM t WHERE k = 1"),
            key("SELECT 3000000000 FROM t WHERE k = 1")
        );
        assert_eq!(
            key("SELECT 7 FROM t WHERE k = 1"),
            key("SELECT 8 FROM t WHERE v < 1")
        );
        // A subquery's own WHERE is not the statement's.
        let sub = key("SELECT (SELECT max(v) FROM t WHERE k = 1) FROM u WHERE z = 2");
        assert_eq!(
            sub,
            key("SELECT (SELECT max(v) FROM t WHERE k = 1) FROM u WHERE z > 9")
        );
        assert_ne!(
            sub,
            key("SELECT (SELECT max(v) FROM t WHERE k = 5 OR v = 'a') FROM u WHERE z = 2")
        );
    }

    #[test]
    fn writes_whose_rows_may_hold_other_tables_or_expressions_keep_their_shape_key() {
        for sql in [
            "UPDATE t SET v = 1 FROM u WHERE t.k = u.k RETURNING *",
            "DELETE FROM t USING u WHERE t.k = u.k RETURNING *",
            "UPDATE t SET v = 1 RETURNING v + 1",
            "UPDATE \"T\" SET v = 1 RETURNING *",
            "UPDATE t SET v = 1",
            "SELECT k FROM t",
            "SELECT k FROM t WHERE k = 1 UNION SELECT v FROM u WHERE v = 2",
            "SELECT k FROM t WHERE k IN (1)UNION SELECT v FROM u",
            "SELECT where_x FROM t",
            "SELECT k, where_x FROM t ORDER BY where_x",
            "SELECT \"k\" FROM t WHERE k = 1",
            "SELECT k FROM t /* x */ WHERE k = 1",
        ] {
            assert_eq!(key(sql), literal_template(sql).typed_key(), "{sql}");
        }
    }
}
