//! Instrumentation plans ([`plan`]) of statements that differ only in their integer literals
//! and version, made once: a stress run's statements come from a few templates
//! (`UPDATE reg SET v = 1234 WHERE k = 3`), and planning one through `sqlparser` costs tens of
//! microseconds, which a free-running session pays for every statement.
//!
//! A statement's template is its text with every integer literal and the content of every plain
//! string literal taken out (a list-append's `',1234'` differs in every statement). The second
//! time a template is seen it is planned with *sentinel* literals and a sentinel version (numbers
//! no statement holds), and the plan is kept if putting the statement's own literals and version
//! back into it gives exactly the plan of the statement itself; otherwise the template is
//! planned statement by statement from then on. A hit puts the literals and version back into
//! the kept plan's SQL: every sentinel number in it is replaced by what it stands for. The first
//! time, the statement is only planned itself: most of the random workload's templates are
//! seen once, and a sentinel plan for them would double their cost.
//!
//! One cache serves every session of a run (it is shared by reference and locks inside, for
//! as long as a lookup or an insert takes; planning runs outside the lock): a template one
//! session planned is a hit for the others.

use crate::instrument::{plan, Plan, ROWS_PER_STATEMENT};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use txhunt_model::access::{TableMeta, Version};
use txhunt_model::template::literal_template;
use txhunt_model::SqlFamily;

/// The first sentinel literal; the `i`-th literal of a template stands as `LITERAL + i`.
const LITERAL: i64 = 9_137_000_000_000;
/// The sentinel version's column value.
const VERSION: i64 = 7_919_000_001;
/// The digits every sentinel literal starts with: a statement holding them is planned itself.
const LITERAL_PREFIX: &str = "913700";
/// [`VERSION`] as written: a statement holding it is planned itself.
const VERSION_TEXT: &str = "7919000001";

/// What the cache knows of a template.
#[derive(Debug)]
enum Known {
    /// Seen once; not planned with sentinels yet.
    Seen,
    /// Its plan, with sentinel literals and version.
    Follows(Arc<Plan>),
    /// Its plan does not follow its literals: every statement is planned itself.
    Planned,
}

/// Plans, by template, for every session of a run.
#[derive(Debug, Default)]
pub struct PlanCache {
    templates: Mutex<HashMap<String, Known>>,
}

/// `template` with its `#`s replaced by `literal(i)`.
fn fill(template: &str, literal: impl Fn(usize) -> String) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut i = 0;
    for c in template.chars() {
        match c {
            '#' => {
                out.push_str(&literal(i));
                i += 1;
            }
            c => out.push(c),
        }
    }
    out
}

/// `text` with each sentinel number replaced: literal `i` by `literals[i]`, the sentinel
/// version's column value by `version`'s, the sentinel version's row ids by `version`'s.
fn substitute(text: &str, literals: &[&str], version: i64) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            let next = (i + 1..bytes.len()).find(|&j| bytes[j].is_ascii_digit());
            let end = next.unwrap_or(bytes.len());
            out.push_str(&text[i..end]);
            i = end;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &text[start..i];
        let n: Option<i64> = digits.parse().ok();
        let rids = VERSION * ROWS_PER_STATEMENT..(VERSION + 1) * ROWS_PER_STATEMENT;
        match n {
            Some(n) if (LITERAL..LITERAL + literals.len() as i64).contains(&n) => {
                out.push_str(literals[(n - LITERAL) as usize]);
            }
            Some(n) if n == VERSION => out.push_str(&version.to_string()),
            Some(n) if rids.contains(&n) => {
                let rid = version * ROWS_PER_STATEMENT + (n - rids.start);
                out.push_str(&rid.to_string());
            }
            _ => out.push_str(digits),
        }
    }
    out
}

/// `p` with [`substitute`] applied to every SQL text it holds.
fn substituted(p: &Plan, literals: &[&str], version: i64) -> Plan {
    let sub = |s: &str| substitute(s, literals, version);
    let mut p = p.clone();
    match &mut p {
        Plan::Write {
            sql,
            condition,
            version_sets,
            ..
        }
        | Plan::Read {
            sql,
            condition,
            version_sets,
            ..
        } => {
            *sql = sub(sql);
            if let Some(condition) = condition {
                *condition = sub(condition);
            }
            for set in version_sets {
                set.sql = sub(&set.sql);
                if let Some(condition) = &mut set.condition {
                    *condition = sub(condition);
                }
            }
        }
        Plan::CreateTable { sql, then, .. } => {
            *sql = sub(sql);
            for s in then {
                *s = sub(s);
            }
        }
        Plan::Plain | Plan::Untracked(_) => {}
    }
    p
}

impl PlanCache {
    /// The plan of `sql` (as [`plan`] makes it), from the cache when its template's plan
    /// follows its literals.
    pub fn plan(
        &self,
        sql: &str,
        family: SqlFamily,
        version: Version,
        tables: &[TableMeta],
        extra_reads: bool,
    ) -> Plan {
        let own = || plan(sql, family, version, tables, extra_reads);
        let parts = literal_template(sql);
        let v = version.to_column();
        if v < 0 || sql.contains(LITERAL_PREFIX) || sql.contains(VERSION_TEXT) {
            return own();
        }
        let seen = {
            let mut templates = self.templates.lock().unwrap_or_else(|p| p.into_inner());
            match templates.get(&parts.text) {
                Some(Known::Follows(p)) => Err(Arc::clone(p)),
                Some(Known::Planned) => Ok(false),
                Some(Known::Seen) => Ok(true),
                None => {
                    templates.insert(parts.text.clone(), Known::Seen);
                    Ok(false)
                }
            }
        };
        match seen {
            Err(kept) => return substituted(&kept, &parts.literals, v),
            Ok(false) => return own(),
            Ok(true) => {}
        }
        let sentinel = fill(&parts.text, |i| (LITERAL + i as i64).to_string());
        let sentinel_version = Version::Step(VERSION as usize - 1);
        let general = plan(&sentinel, family, sentinel_version, tables, extra_reads);
        let own = own();
        let known = match substituted(&general, &parts.literals, v) == own {
            true => Known::Follows(Arc::new(general)),
            false => Known::Planned,
        };
        (self.templates.lock().unwrap_or_else(|p| p.into_inner())).insert(parts.text, known);
        own
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> Vec<TableMeta> {
        vec![TableMeta {
            name: "reg".into(),
            columns: vec!["k".into(), "v".into()],
            key: vec!["k".into()],
        }]
    }

    #[test]
    fn the_sentinels_as_written_are_the_sentinels() {
        assert!(LITERAL.to_string().starts_with(LITERAL_PREFIX));
        assert_eq!(VERSION.to_string(), VERSION_TEXT);
    }

    #[test]
    fn a_cached_plan_is_the_plan_of_the_statement_itself() {
        let statements = [
            "UPDATE reg SET v = 12 WHERE k = 3",
            "UPDATE reg SET v = 9 WHERE k = 1",
            "UPDATE reg SET v = v + (-8) WHERE k = 2",
            "UPDATE reg SET v = v + (-5) WHERE k = 4",
            "SELECT v FROM reg WHERE k = 3",
            "SELECT v FROM reg WHERE k = 7",
            "SELECT k, v FROM reg",
            "SELECT v, COUNT(*) FROM reg WHERE k > 3 GROUP BY v",
            "SELECT v, COUNT(*) FROM reg WHERE k > 5 GROUP BY v",
            "INSERT INTO reg VALUES (5, 1), (6, 2)",
            "INSERT INTO reg VALUES (7, 3), (8, 4)",
            "INSERT INTO reg VALUES (9, ',12') ON CONFLICT (k) DO UPDATE SET v = reg.v || ',12'",
            "INSERT INTO reg VALUES (10, ',13') ON CONFLICT (k) DO UPDATE SET v = reg.v || ',13'",
            "SELECT v FROM reg WHERE k = 'x1'",
            "SELECT v FROM reg WHERE k = 'x 2'",
            "SELECT v FROM reg WHERE k = E'x1'",
            "SELECT v FROM reg WHERE k = 'it''s'",
            "SELECT v FROM reg WHERE k = '%'",
            "BEGIN",
        ];
        for family in [SqlFamily::Sqlite, SqlFamily::Mysql, SqlFamily::Postgres] {
            let cache = PlanCache::default();
            for round in 0..3 {
                for (i, sql) in statements.iter().enumerate() {
                    let version = Version::Step(round * 100 + i);
                    assert_eq!(
                        cache.plan(sql, family, version, &tables(), true),
                        plan(sql, family, version, &tables(), true),
                        "{family:?} {sql}"
                    );
                }
            }
            // Templates: the two UPDATE forms, the SELECT by key (a number, a plain string, and
            // each string that is not plain), SELECT all, the aggregate (whose version set
            // applies its condition), the INSERT, the upsert, BEGIN. Every template's plan
            // follows its literals: none is planned again.
            let templates = cache.templates.lock().unwrap();
            assert_eq!(templates.len(), 12, "{:?}", templates.keys());
            assert!(
                (templates.values()).all(|k| matches!(k, Known::Follows(_))),
                "{templates:#?}"
            );
        }
    }
}
