//! Every statement of every scenario in `examples/`, `tests/` and `corpus/` either has an
//! instrumentation plan or is reported untracked with the reason: the share and the reasons
//! are what README's list of supported SQL says.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use txhunt_model::access::Version;
use txhunt_model::{scenario, SqlFamily};
use txhunt_sql::instrument::{plan, Plan};

fn scenario_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("directory") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            scenario_files(&path, into);
        } else if path.extension().is_some_and(|x| x == "sql") {
            into.push(path);
        }
    }
}

/// The family a scenario is written for: its `dbms:` header, else its directory.
fn family(dbms: Option<&str>, path: &Path) -> SqlFamily {
    let hint = format!("{} {}", dbms.unwrap_or(""), path.display()).to_ascii_lowercase();
    if hint.contains("postgres") || hint.contains("cockroach") {
        SqlFamily::Postgres
    } else if ["mariadb", "mysql", "tidb"]
        .iter()
        .any(|m| hint.contains(m))
    {
        SqlFamily::Mysql
    } else {
        SqlFamily::Sqlite
    }
}

#[test]
fn every_scenario_statement_is_instrumented_or_says_why_not() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["examples", "tests", "corpus"] {
        scenario_files(&root.join(dir), &mut files);
    }
    let (mut tracked, mut untracked) = (0usize, 0usize);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut parsed = 0;
    for path in &files {
        let Ok(case) = scenario::parse(&std::fs::read_to_string(path).unwrap(), "s.sql") else {
            continue; // not every .sql under corpus/ is a scenario (raw PoCs)
        };
        parsed += 1;
        let family = family(case.header.dbms.as_deref(), path);
        let mut tables = Vec::new();
        let statements = (case.init.iter().enumerate())
            .map(|(i, s)| (&s.sql, Version::Init(i)))
            .chain((case.steps.iter().enumerate()).map(|(i, s)| (&s.stmt.sql, Version::Step(i))));
        for (sql, version) in statements {
            match plan(sql, family, version, &tables, true) {
                Plan::Untracked(why) => {
                    assert!(!why.is_empty(), "{}: `{sql}`", path.display());
                    untracked += 1;
                    // The reason's kind, without the statement-specific tail.
                    let kind: String = why.split(':').next().unwrap_or(&why).to_string();
                    *reasons.entry(kind).or_default() += 1;
                }
                Plan::CreateTable { table, .. } => {
                    tables.push(table);
                    tracked += 1;
                }
                _ => tracked += 1,
            }
        }
    }
    println!("{parsed} scenarios: {tracked} statements tracked, {untracked} untracked");
    for (reason, n) in &reasons {
        println!("{n:>5}  {reason}");
    }
    assert!(parsed > 200, "{parsed}");
    assert!(
        tracked > 9 * untracked,
        "{tracked} tracked, {untracked} untracked"
    );
}
