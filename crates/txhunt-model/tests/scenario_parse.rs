//! The scenario language: what it accepts, what it rejects and where; and a fuzz test of the
//! parser on mutated examples (`TXHUNT_PARSER_FUZZ_CASES` sets how many inputs it tries).

use proptest::prelude::*;
use proptest::sample::{select, Index};
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

#[test]
fn a_tag_inside_a_statement_means_a_missing_semicolon() {
    let hint = "a ';' is probably missing before it";
    assert_eq!(
        error_of("/* t1 */ SELECT 1\n/* t2 */ SELECT 2;\n"),
        format!("bad.sql:2:1: tag /* t2 */ inside a statement: {hint}")
    );
    assert_eq!(
        error_of("/* init */ CREATE TABLE t(k INT) /* init */ INSERT INTO t VALUES (1);\n"),
        format!("bad.sql:1:34: tag /* init */ inside a statement: {hint}")
    );
    assert_eq!(
        error_of("conn_1> SELECT 1\n  conn_2> SELECT 2;\n"),
        format!("bad.sql:2:3: tag conn_2> inside a statement: {hint}")
    );
    let fine = "/* t1 */ SELECT '/* t2 */', a /* a note */ -- /* t2 */\n  FROM t WHERE conn_2>0;\n";
    let case = parse(fine, "fine.sql").expect("tags in strings and line comments are text");
    assert_eq!(
        case.steps[0].stmt.sql,
        "SELECT '/* t2 */', a /* a note */ -- /* t2 */\n  FROM t WHERE conn_2>0"
    );
}

#[test]
fn a_scenario_without_statements_is_rejected() {
    let what =
        "no statement: expected at least one statement tagged /* init */, /* tN */ or conn_N>";
    assert_eq!(error_of(""), format!("bad.sql:1:1: {what}"));
    assert_eq!(error_of("\u{feff}"), format!("bad.sql:1:1: {what}"));
    assert_eq!(
        error_of("-- id: x\n-- isolation: serializable\n-- a comment\n\n"),
        format!("bad.sql:5:1: {what}")
    );
    assert_eq!(
        error_of("-- expect final: t = []"),
        format!("bad.sql:1:24: {what}")
    );
}

#[test]
fn sessions_are_numbered_from_one_without_leading_zeros() {
    let what = "sessions are numbered from 1, without leading zeros (t1, t2, …)";
    assert_eq!(
        error_of("/* t1 */ SELECT 1;\n  /* t0 */ SELECT 2;\n"),
        format!("bad.sql:2:3: bad session tag 't0': {what}")
    );
    assert_eq!(
        error_of("/* t01 */ SELECT 1;\n"),
        format!("bad.sql:1:1: bad session tag 't01': {what}")
    );
    let case = parse("/* t10 */ SELECT 1;\nconn_0> SELECT 2;\n", "ok.sql").expect("parses");
    let sessions: Vec<&str> = case.steps.iter().map(|s| s.session.as_str()).collect();
    assert_eq!(
        sessions,
        ["t10", "conn_0"],
        "ReplBug's conn_N counts from 0"
    );
}

#[test]
fn a_leading_byte_order_mark_is_skipped() {
    assert_eq!(
        parse(&format!("\u{feff}{LOST_UPDATE}"), "bom.sql"),
        parse(LOST_UPDATE, "bom.sql")
    );
    assert_eq!(
        error_of("\u{feff}SELECT 1;\n"),
        "bad.sql:1:1: expected a statement tagged /* init */, /* tN */ or conn_N>, found 'SELECT 1;'"
    );
}

#[test]
fn isolation_errors_count_unicode_spaces_as_one_column() {
    assert_eq!(
        error_of("-- isolation: serializable,\u{3000}chaos\n"),
        "bad.sql:1:29: unknown isolation level 'chaos'; accepted: read-uncommitted, \
         read-committed, repeatable-read, snapshot, serializable"
    );
}

/// One edit of a scenario text; positions are picked among the text's characters.
#[derive(Debug, Clone)]
enum Mutation {
    /// Inserts text at a position.
    Insert(Index, String),
    /// Deletes up to this many characters from a position.
    Delete(Index, usize),
    /// Repeats a line right after itself.
    DuplicateLine(Index),
    /// Removes a `;`.
    RemoveSemicolon(Index),
    /// Replaces the text of a `/* … */` comment, usually a statement tag.
    EditTag(Index, String),
    /// Cuts the text at a position.
    Truncate(Index),
}

/// Text that means something to the parser, and characters that are not ASCII.
const SNIPPETS: &[&str] = &[
    ";",
    "'",
    "\"",
    "`",
    "\\",
    "/*",
    "*/",
    "--",
    "\n",
    "\r\n",
    " ",
    "/* t2 */",
    "/* init */",
    "/* t0 */",
    "conn_1>",
    "\nconn_0> ",
    "-- expect: ",
    "-- expect: rows [(",
    "-- expect final: t = [",
    "-- isolation: ",
    "-- mode: ",
    "(",
    ")",
    "[",
    "]",
    ",",
    "X'",
    "NULL",
    "é",
    "\u{3000}",
    "\u{feff}",
    "𝄞",
    "\u{0}",
];

/// Words to put in a tag's comment: good, bad and odd.
const TAG_WORDS: &[&str] = &[
    "t1",
    "t2",
    "t10",
    "init",
    "INIT",
    "t0",
    "t01",
    "T1",
    "t",
    "",
    "x9",
    "t1 t2",
    "t99999999999",
    "té",
    "*",
];

/// A random [`Mutation`].
fn mutation() -> impl Strategy<Value = Mutation> {
    let text = prop_oneof![
        any::<char>().prop_map(String::from),
        select(SNIPPETS).prop_map(String::from),
        "\\PC{1,6}",
    ];
    prop_oneof![
        3 => (any::<Index>(), text).prop_map(|(at, text)| Mutation::Insert(at, text)),
        2 => (any::<Index>(), 1usize..20).prop_map(|(at, n)| Mutation::Delete(at, n)),
        1 => any::<Index>().prop_map(Mutation::DuplicateLine),
        2 => any::<Index>().prop_map(Mutation::RemoveSemicolon),
        2 => (any::<Index>(), select(TAG_WORDS)).prop_map(|(at, w)| Mutation::EditTag(at, w.into())),
        1 => any::<Index>().prop_map(Mutation::Truncate),
    ]
}

/// The positions in `text` where `pattern` starts.
fn positions(text: &[char], pattern: &str) -> Vec<usize> {
    let pattern: Vec<char> = pattern.chars().collect();
    (0..text.len())
        .filter(|&i| text[i..].starts_with(&pattern))
        .collect()
}

impl Mutation {
    /// Edits `text`; an edit that finds nothing to change (no `;`, no comment) leaves it as is.
    fn apply(&self, text: &mut Vec<char>) {
        let pick =
            |at: &Index, among: &[usize]| (!among.is_empty()).then(|| among[at.index(among.len())]);
        let at = |i: &Index, text: &Vec<char>| i.index(text.len() + 1);
        match self {
            Mutation::Insert(i, s) => {
                let at = at(i, text);
                text.splice(at..at, s.chars());
            }
            Mutation::Delete(i, n) => {
                let from = at(i, text);
                text.drain(from..(from + n).min(text.len()));
            }
            Mutation::DuplicateLine(i) => {
                let mut starts = vec![0];
                starts.extend(positions(text, "\n").into_iter().map(|p| p + 1));
                let start = starts[i.index(starts.len())];
                let end = text[start..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(text.len(), |p| start + p + 1);
                let line: Vec<char> = text[start..end].to_vec();
                text.splice(end..end, line);
            }
            Mutation::RemoveSemicolon(i) => {
                if let Some(p) = pick(i, &positions(text, ";")) {
                    text.remove(p);
                }
            }
            Mutation::EditTag(i, word) => {
                if let Some(open) = pick(i, &positions(text, "/*")) {
                    let close = positions(&text[open + 2..], "*/")
                        .first()
                        .map_or(text.len(), |c| open + 2 + c);
                    text.splice(open + 2..close, format!(" {word} ").chars());
                }
            }
            Mutation::Truncate(i) => text.truncate(at(i, text)),
        }
    }
}

/// A scenario from `examples/` with a few mutations applied.
fn mutated_example() -> impl Strategy<Value = String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let seeds: Vec<String> = sql_files(&root)
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("readable"))
        .collect();
    assert!(seeds.len() >= 20, "{} example scenarios", seeds.len());
    (select(seeds), proptest::collection::vec(mutation(), 1..8)).prop_map(|(seed, mutations)| {
        let mut text: Vec<char> = seed.chars().collect();
        for m in &mutations {
            m.apply(&mut text);
        }
        text.into_iter().collect()
    })
}

/// Inputs per fuzz run: `TXHUNT_PARSER_FUZZ_CASES` if set (e.g. 1000000, in a release build),
/// else few enough for a debug build in CI.
fn fuzz_cases() -> u32 {
    std::env::var("TXHUNT_PARSER_FUZZ_CASES").map_or(FUZZ_CASES, |n| {
        n.parse()
            .expect("TXHUNT_PARSER_FUZZ_CASES: a number of inputs")
    })
}

/// The default of [`fuzz_cases`].
const FUZZ_CASES: u32 = 15_000;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    /// Parsing never panics, and an error names the file and a line and column inside the
    /// input (or just past its end).
    #[test]
    fn mutated_scenarios_parse_or_fail_at_a_position_in_the_input(text in mutated_example()) {
        let Err(e) = parse(&text, "fuzz.sql") else { return Ok(()) };
        let lines: Vec<&str> = text.split('\n').collect();
        prop_assert_eq!(e.file.as_str(), "fuzz.sql");
        prop_assert!(!e.message.is_empty());
        prop_assert!((1..=lines.len()).contains(&(e.line as usize)), "{}", e);
        let width = lines[e.line as usize - 1].chars().count();
        prop_assert!((1..=width + 1).contains(&(e.col as usize)), "{}", e);
        let shown = e.to_string();
        prop_assert!(shown.starts_with(&format!("fuzz.sql:{}:{}: ", e.line, e.col)), "{}", shown);
    }
}
