//! The picture of a run's schedule: one column per session, one row per statement in the
//! order they were submitted, each box saying what the statement did — waiting ones dashed
//! and yellow, refused ones red, the statements a finding is about outlined thick.

use super::svg::escape;
use std::fmt::Write;
use txhunt_model::check::one_line;
use txhunt_model::{History, TestCase};

/// A session column's width, in pixels.
const COLUMN: usize = 330;
/// A statement row's height.
const ROW: usize = 44;
/// The most characters of a statement shown in its box.
const SQL_CHARS: usize = 40;

/// The SVG picture of `history`, the run of `case`, with the steps `marked` outlined.
pub fn schedule(case: &TestCase, history: &History, marked: &[usize]) -> String {
    let mut sessions: Vec<&str> = Vec::new();
    for step in &case.steps {
        if !sessions.contains(&step.session.as_str()) {
            sessions.push(&step.session);
        }
    }
    let width = 20 + COLUMN * sessions.len();
    let height = 50 + ROW * case.steps.len();
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" font-size="12">"#
    );
    for (k, session) in sessions.iter().enumerate() {
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="24" font-weight="bold" font-family="sans-serif" font-size="14">{}</text>"#,
            14 + COLUMN * k,
            escape(session)
        );
    }
    for (i, (step, record)) in case.steps.iter().zip(&history.steps).enumerate() {
        let column = sessions
            .iter()
            .position(|s| *s == step.session)
            .unwrap_or(0);
        let (x, y) = (10 + COLUMN * column, 36 + ROW * i);
        let failed = !record.outcome.succeeded();
        let (fill, dash) = match (record.blocked, failed) {
            (_, true) => ("#f8d7da", ""),
            (true, false) => ("#fff3cd", r#" stroke-dasharray="5 3""#),
            (false, false) => ("#eef3f8", ""),
        };
        let stroke = if marked.contains(&i) { 3 } else { 1 };
        let _ = writeln!(
            svg,
            r##"<rect x="{x}" y="{y}" width="{}" height="{}" rx="4" fill="{fill}" stroke="#333" stroke-width="{stroke}"{dash}/>"##,
            COLUMN - 10,
            ROW - 6
        );
        let sql: String = one_line(&step.stmt.sql).chars().take(SQL_CHARS).collect();
        let what = if record.blocked {
            format!("blocked, then {}", record.outcome)
        } else {
            record.outcome.to_string()
        };
        let what: String = one_line(&what).chars().take(SQL_CHARS).collect();
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="{}">{}</text><text x="{}" y="{}" fill="#555">{}</text>"##,
            x + 6,
            y + 16,
            escape(&sql),
            x + 6,
            y + 32,
            escape(&what)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::schedule;
    use txhunt_model::{scenario, History, Isolation, Outcome, StepRecord};

    #[test]
    fn each_statement_is_a_box_in_its_sessions_column() {
        let case = scenario::parse(
            "/* t1 */ BEGIN;\n/* t2 */ UPDATE t SET v = 1 WHERE k < 2;\n/* t1 */ COMMIT;\n",
            "s",
        )
        .unwrap();
        let record = |blocked, outcome| StepRecord {
            submitted: Some(0),
            completed: Some(0),
            blocked,
            outcome,
            resumed_together: None,
            accesses: None,
        };
        let history = History {
            steps: vec![
                record(false, Outcome::Ok),
                record(true, Outcome::Affected { count: 1 }),
                record(false, Outcome::Ok),
            ],
            target: "sqlite".into(),
            isolation: Isolation::Serializable,
            init: Vec::new(),
            init_writes: Vec::new(),
            schedule: Vec::new(),
            txns: Vec::new(),
            final_state: None,
            final_state_error: None,
            tables: Vec::new(),
        };
        let svg = schedule(&case, &history, &[1]);
        assert_eq!(svg.matches("<rect").count(), 3);
        assert!(svg.contains(">t2</text>"), "{svg}");
        assert!(svg.contains("WHERE k &lt; 2"), "{svg}");
        assert!(svg.contains("blocked, then affected 1"), "{svg}");
        assert_eq!(svg.matches("stroke-width=\"3\"").count(), 1);
        assert_eq!(svg.matches("stroke-dasharray").count(), 1);
    }
}
