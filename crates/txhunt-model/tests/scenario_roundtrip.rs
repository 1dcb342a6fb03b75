//! Printing a case and parsing it back gives the same case; its JSON twin carries every field.

use proptest::prelude::*;
use txhunt_model::scenario::{parse, print};
use txhunt_model::{
    ErrorClass, Expect, Header, Isolation, Mode, Step, Stmt, TableExpect, TestCase, Value,
};

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        (any::<i32>(), 0u32..1000).prop_map(|(i, f)| Value::Decimal(format!("{i}.{f}"))),
        "[a-z ';,()\\[\\]-]{0,8}".prop_map(Value::Text),
        proptest::collection::vec(any::<u8>(), 0..4).prop_map(Value::Bytes),
    ]
}

fn rows() -> impl Strategy<Value = Vec<Vec<Value>>> {
    proptest::collection::vec(proptest::collection::vec(value(), 0..4), 0..4)
}

fn outcome_expect() -> impl Strategy<Value = Expect> {
    prop_oneof![
        Just(Expect::Ok),
        rows().prop_map(|rows| Expect::Rows { rows }),
        any::<u64>().prop_map(|count| Expect::Affected { count }),
        proptest::option::of(proptest::sample::select(ErrorClass::ALL.to_vec()))
            .prop_map(|class| Expect::Error { class }),
    ]
}

fn expect() -> impl Strategy<Value = Expect> {
    prop_oneof![
        outcome_expect(),
        proptest::option::of(outcome_expect()).prop_map(|then| Expect::Blocked {
            then: then.map(Box::new)
        }),
    ]
}

fn sql() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("BEGIN".to_string()),
        Just("COMMIT".to_string()),
        Just("SELECT 'a;b', \"c;\" FROM t -- x;\nWHERE 1 = 1".to_string()),
        "UPDATE t SET v = [0-9]{1,3} WHERE k = [0-9]".prop_map(String::from),
    ]
}

fn stmt() -> impl Strategy<Value = Stmt> {
    (
        sql(),
        proptest::option::of(expect()),
        proptest::option::of("[a-z][a-z ,.]{0,10}[a-z]"),
    )
        .prop_map(|(sql, expect, note)| Stmt {
            sql,
            expect,
            note,
            line: None,
        })
}

fn header() -> impl Strategy<Value = Header> {
    (
        proptest::option::of("[A-Z]{1,4}-[0-9]{1,5}"),
        proptest::option::of("[A-Za-z][A-Za-z ,]{0,20}[a-z]"),
        proptest::collection::vec(proptest::sample::select(Isolation::ALL.to_vec()), 0..3),
        proptest::option::of(prop_oneof![Just(Mode::Pessimistic), Just(Mode::Optimistic)]),
        proptest::collection::vec(("x[a-z]{1,5}", "[a-z0-9]{1,6}"), 0..3),
    )
        .prop_map(|(id, title, mut isolation, mode, extra)| {
            isolation.dedup();
            let mut seen = Vec::new();
            isolation.retain(|l| {
                let fresh = !seen.contains(l);
                seen.push(*l);
                fresh
            });
            Header {
                id,
                title,
                link: Some("https://example.org/x?a=1".into()),
                isolation,
                dbms: Some("SQLite 3.54".into()),
                mode,
                extra,
                skip_after_abort: false,
            }
        })
}

fn case() -> impl Strategy<Value = TestCase> {
    (
        header(),
        proptest::collection::vec(stmt(), 0..3),
        proptest::collection::vec(
            (
                prop_oneof![Just("t1"), Just("t2"), Just("t10"), Just("conn_0")],
                stmt(),
            ),
            1..6, // a scenario needs a statement
        ),
        proptest::collection::vec(("[a-z][a-z0-9_]{0,5}", rows()), 0..3),
    )
        .prop_map(|(header, init, steps, finals)| TestCase {
            header,
            init,
            steps: steps
                .into_iter()
                .map(|(session, stmt)| Step {
                    session: session.to_string(),
                    stmt,
                })
                .collect(),
            final_expect: finals
                .into_iter()
                .map(|(table, rows)| TableExpect {
                    table,
                    rows,
                    line: None,
                })
                .collect(),
        })
}

fn without_lines(mut case: TestCase) -> TestCase {
    for stmt in case.init.iter_mut() {
        stmt.line = None;
    }
    for step in case.steps.iter_mut() {
        step.stmt.line = None;
    }
    for table in case.final_expect.iter_mut() {
        table.line = None;
    }
    case
}

proptest! {
    #[test]
    fn print_then_parse_gives_the_same_case(case in case()) {
        let text = print(&case);
        let back = parse(&text, "printed.sql").map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(without_lines(back), case);
    }

    #[test]
    fn json_twin_carries_every_field(case in case()) {
        let json = serde_json::to_string(&case).unwrap();
        let back: TestCase = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, case);
    }
}
