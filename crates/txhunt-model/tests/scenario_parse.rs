//! The scenario language: what it accepts, what it rejects and where.

use txhunt_model::scenario::parse;
use txhunt_model::{ErrorClass, Expect, Isolation, Mode, Value};

const LOST_UPDATE: &str = "\
-- id: lost-update
-- title: Two increments, one wins
-- link: https://example.org/bug/1
-- isolation: repeatable-read, SERIALIZABLE
-- dbms: MariaDB 10.11
-- mode: pessimistic
-- seed: 42
-- A free comment: not a header because it has spaces before the colon.
/* init */ CREATE TABLE t(k INT PRIMARY KEY, v VARCHAR(10));
/* init */ INSERT INTO t VALUES (1, 'a;b'), (2, NULL);
/* t1 */ BEGIN;
/* t1 */ UPDATE t
           SET v = 'x' -- a comment inside; not the end
           WHERE k = 1;  -- expect: affected 1
/* t2 */ SELECT * FROM t;  -- expect: rows [(1, 'a;b'), (2, NULL)] -- before t1 commits
/* t2 */ DELETE FROM t WHERE k = 1;  -- expect: blocked then deadlock
/* t1 */ COMMIT;  -- why not
conn_3> SELECT 1.50, -2, X'AB';  -- expect: rows [(1.5, -2, X'ab')]
-- expect final: t = [(1, 'x'), (2, NULL)]
";

#[test]
fn parses_every_part_of_a_scenario() {
    let case = parse(LOST_UPDATE, "lost.sql").expect("parses");
    let h = &case.header;
    assert_eq!(h.id.as_deref(), Some("lost-update"));
    assert_eq!(h.title.as_deref(), Some("Two increments, one wins"));
    assert_eq!(h.link.as_deref(), Some("https://example.org/bug/1"));
    assert_eq!(
        h.isolation,
        vec![Isolation::RepeatableRead, Isolation::Serializable]
    );
    assert_eq!(h.dbms.as_deref(), Some("MariaDB 10.11"));
    assert_eq!(h.mode, Some(Mode::Pessimistic));
    assert_eq!(h.extra, vec![("seed".to_string(), "42".to_string())]);

    assert_eq!(case.init.len(), 2);
    assert_eq!(
        case.init[1].sql,
        "INSERT INTO t VALUES (1, 'a;b'), (2, NULL)"
    );
    let sessions: Vec<&str> = case.steps.iter().map(|s| s.session.as_str()).collect();
    assert_eq!(sessions, ["t1", "t1", "t2", "t2", "t1", "conn_3"]);
    let update = &case.steps[1].stmt;
    assert!(update.sql.starts_with("UPDATE t\n") && update.sql.ends_with("WHERE k = 1"));
    assert_eq!(update.line, Some(12));
    assert_eq!(update.expect, Some(Expect::Affected { count: 1 }));
    let select = &case.steps[2].stmt;
    assert_eq!(
        select.expect,
        Some(Expect::Rows {
            rows: vec![
                vec![Value::Int(1), Value::Text("a;b".into())],
                vec![Value::Int(2), Value::Null]
            ]
        })
    );
    assert_eq!(select.note.as_deref(), Some("before t1 commits"));
    assert_eq!(
        case.steps[3].stmt.expect,
        Some(Expect::Blocked {
            then: Some(Box::new(Expect::Error {
                class: Some(ErrorClass::Deadlock)
            }))
        })
    );
    assert_eq!(case.steps[4].stmt.expect, None);
    assert_eq!(case.steps[4].stmt.note.as_deref(), Some("why not"));
    assert_eq!(case.final_expect.len(), 1);
    assert_eq!(case.final_expect[0].table, "t");
    assert_eq!(case.final_expect[0].line, Some(19));
}

#[test]
fn every_expectation_form_parses() {
    let forms = [
        ("ok", Expect::Ok),
        ("affected 0", Expect::Affected { count: 0 }),
        ("error", Expect::Error { class: None }),
        (
            "error lock-timeout",
            Expect::Error {
                class: Some(ErrorClass::LockTimeout),
            },
        ),
        ("blocked", Expect::Blocked { then: None }),
        (
            "blocked then ok",
            Expect::Blocked {
                then: Some(Box::new(Expect::Ok)),
            },
        ),
        ("rows []", Expect::Rows { rows: vec![] }),
        (
            "rows [1, (2)]",
            Expect::Rows {
                rows: vec![vec![Value::Int(1)], vec![Value::Int(2)]],
            },
        ),
    ];
    for (text, want) in forms {
        let case = parse(&format!("/* t1 */ SELECT 1;  -- expect: {text}\n"), "f")
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(case.steps[0].stmt.expect.as_ref(), Some(&want), "{text}");
    }
}

fn error_of(text: &str) -> String {
    parse(text, "bad.sql").unwrap_err().to_string()
}

#[test]
fn errors_name_file_line_and_column() {
    assert_eq!(
        error_of("-- id: x\n/* t1 */ SELECT 1;  -- expect: rows [(1, ]\n"),
        "bad.sql:2:42: expected a value (NULL, TRUE, FALSE, a number, 'text' or X'hex'), found ''"
    );
    assert_eq!(
        error_of("/* t1 */ SELECT 1;\n/* x9 */ SELECT 2;\n"),
        "bad.sql:2:1: unknown tag 'x9': expected /* init */ or /* tN */ (t1, t2, …)"
    );
    assert_eq!(
        error_of("/* t1 */ SELECT 1;\n\n/* t2 */ SELECT 'abc\n"),
        "bad.sql:3:17: unterminated 'quoted text"
    );
    assert_eq!(
        error_of("/* t1 */ SELECT 1\n"),
        "bad.sql:1:10: statement never ends: missing ';'"
    );
    assert_eq!(
        error_of("-- isolation: serializable, chaos\n"),
        "bad.sql:1:29: unknown isolation level 'chaos'; accepted: read-uncommitted, \
         read-committed, repeatable-read, snapshot, serializable"
    );
    assert_eq!(
        error_of("/* t1 */ SELECT 1;  -- expect: error nope\n"),
        "bad.sql:1:38: unknown error class 'nope'; accepted: deadlock, lock-timeout, \
         serialization, constraint, syntax, aborted, internal, connection, other"
    );
    assert_eq!(
        error_of("SELECT 1;\n"),
        "bad.sql:1:1: expected a statement tagged /* init */, /* tN */ or conn_N>, found 'SELECT 1;'"
    );
    assert_eq!(
        error_of("/* t1 */ SELECT 1; garbage\n"),
        "bad.sql:1:20: unexpected text after ';': expected '-- expect: E', a '-- comment' or the end of the line"
    );
    assert_eq!(
        error_of("/* t1 */ SELECT 1;\n-- expect: ok\n"),
        "bad.sql:2:4: an expectation must follow its statement on the same line: /* t1 */ SQL;  -- expect: E"
    );
    assert_eq!(
        error_of("/* t1 */ SELECT 1;  -- expect: blocked then blocked\n"),
        "bad.sql:1:45: expected ok, rows [...], affected N, error [CLASS] or deadlock, found 'blocked'"
    );
    assert_eq!(
        error_of("-- expect final: t [(1)]\n"),
        "bad.sql:1:18: expected 'table = [rows]' after 'expect final:'"
    );
}

/// Every `.sql` file below `dir`, sorted.
fn sql_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files.extend(sql_files(&path));
        } else if path.extension().is_some_and(|x| x == "sql") {
            files.push(path);
        }
    }
    files.sort();
    files
}

#[test]
fn every_corpus_scenario_parses_and_names_its_bug() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let files = sql_files(&root);
    assert!(files.len() >= 120, "{} corpus scenarios", files.len());
    let mut ids = std::collections::BTreeSet::new();
    for file in &files {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(file).expect("readable");
        let case = parse(&text, &name).unwrap_or_else(|e| panic!("{e}"));
        let id = case
            .header
            .id
            .clone()
            .unwrap_or_else(|| panic!("{name}: no id"));
        assert!(case.header.dbms.is_some(), "{name}: no dbms");
        assert!(!case.steps.is_empty(), "{name}: no statements");
        assert!(ids.insert(id), "{name}: id used twice");
    }
}
