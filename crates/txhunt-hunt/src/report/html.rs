//! A campaign as one static HTML page (`txhunt findings html`): its counters, the per-level
//! table, and each finding it made with its explanation, minimized scenario and pictures
//! (inline SVG). No script and nothing fetched: the page opens from a file, anywhere.

use super::svg::escape;
use super::{schedule_svg, svg, text};
use crate::store::SavedFinding;
use std::fmt::Write;
use txhunt_oracle::Detail;
use txhunt_store::{CampaignInfo, FindingInfo, OccurrenceInfo};

/// The page's style.
const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:75em;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.3em .6em;\
text-align:right}th{background:#eef3f8}td:first-child,th:first-child{text-align:left}\
pre{background:#f6f6f6;padding:.8em;overflow-x:auto}.candidate{color:#a00}\
section{border-top:2px solid #ccc;margin-top:2em}";

/// One finding of the page: the finding, an occurrence of it in the campaign, and that
/// occurrence's saved finding read back.
pub struct PageFinding<'a> {
    /// The finding.
    pub finding: &'a FindingInfo,
    /// Its occurrence in this campaign.
    pub occurrence: &'a OccurrenceInfo,
    /// The occurrence's JSON twin.
    pub saved: &'a SavedFinding,
}

/// The page of `campaign` with its `findings`.
pub fn campaign_page(campaign: &CampaignInfo, findings: &[PageFinding<'_>]) -> String {
    let mut html = String::new();
    let title = format!("txhunt campaign {} on {}", campaign.name, campaign.targets);
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\
         <style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    let _ = writeln!(
        html,
        "<p>{} · seed {} · started {} · {}</p>",
        escape(&campaign.versions),
        campaign.seed,
        escape(&campaign.started_at),
        campaign.ended_at.as_ref().map_or(
            "not ended (resumable with --resume)".to_string(),
            |e| format!("ended {}", escape(e))
        )
    );
    let _ = writeln!(html, "<p><code>{}</code></p>", escape(&campaign.command));
    html.push_str(
        "<h2>Counters</h2>\n<table><tr><th>cases</th><th>transactions</th>\
        <th>statements</th><th>bug candidates</th><th>permissible findings</th></tr>\n",
    );
    let _ = writeln!(
        html,
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr></table>",
        campaign.cases,
        campaign.transactions,
        campaign.statements,
        campaign.candidates,
        campaign.permissible
    );
    levels(&mut html, campaign.summary.as_deref());
    let _ = writeln!(html, "<h2>Findings ({})</h2>", findings.len());
    if findings.is_empty() {
        html.push_str("<p>None.</p>\n");
    }
    for f in findings {
        finding(&mut html, f);
    }
    html.push_str("</body></html>\n");
    html
}

/// The index page listing `campaigns`, each linking to `campaign-ID.html`.
pub fn index_page(campaigns: &[CampaignInfo]) -> String {
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>txhunt campaigns</title><style>{STYLE}</style></head><body>\n\
         <h1>txhunt campaigns</h1>\n<table><tr><th>campaign</th><th>targets</th><th>started</th>\
         <th>cases</th><th>bug candidates</th><th>permissible findings</th></tr>\n"
    );
    for c in campaigns {
        let _ = writeln!(
            html,
            "<tr><td><a href=\"campaign-{}.html\">{}</a></td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td></tr>",
            c.id,
            escape(&c.name),
            escape(&c.targets),
            escape(&c.started_at),
            c.cases,
            c.candidates,
            c.permissible
        );
    }
    html.push_str("</table></body></html>\n");
    html
}

/// The per-level table of a campaign's summary (JSON), when it has one.
fn levels(html: &mut String, summary: Option<&str>) {
    let Some(summary) = summary.and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok())
    else {
        html.push_str("<p>No summary yet: the campaign has not ended.</p>\n");
        return;
    };
    let Some(levels) = summary.get("levels").and_then(|l| l.as_object()) else {
        return;
    };
    html.push_str("<h2>Per isolation level</h2>\n<table><tr><th>level</th><th>cases</th>\
        <th>bug candidates</th><th>permissible findings</th><th>phenomena the level allows</th></tr>\n");
    for (level, l) in levels {
        let count = |key: &str| l.get(key).and_then(|v| v.as_u64()).unwrap_or(0);
        let sum = |key: &str| -> u64 {
            (l.get(key).and_then(|v| v.as_object()))
                .map_or(0, |m| m.values().filter_map(|v| v.as_u64()).sum())
        };
        let allowed: Vec<String> = (l.get("anomalies").and_then(|v| v.as_object()))
            .map(|m| {
                m.iter()
                    .map(|(name, v)| format!("{name} {}", v["allowed"].as_u64().unwrap_or(0)))
                    .collect()
            })
            .unwrap_or_default();
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(level),
            count("cases"),
            count("candidates"),
            sum("permissible"),
            escape(&allowed.join(", "))
        );
    }
    html.push_str("</table>\n");
}

/// One finding's section.
fn finding(html: &mut String, f: &PageFinding<'_>) {
    let class = if f.finding.is_candidate() {
        "candidate"
    } else {
        "permissible"
    };
    let _ = writeln!(
        html,
        "<section id=\"finding-{}\"><h3 class=\"{class}\">#{} {} <code>{}</code>: {}</h3>",
        f.finding.id,
        f.finding.id,
        escape(&f.finding.oracle),
        escape(&f.finding.signature),
        escape(&f.finding.title)
    );
    let _ = writeln!(
        html,
        "<p>{} {} · {} · {} · {} occurrence{} · case {} (seed {})</p>",
        escape(&f.finding.family),
        escape(&f.finding.version),
        escape(&f.occurrence.level),
        escape(&f.finding.verdict),
        f.finding.occurrences,
        if f.finding.occurrences == 1 { "" } else { "s" },
        f.occurrence.case_index,
        f.occurrence.case_seed
    );
    let explanation = text::findings(
        &[f.saved.finding.oracle],
        std::slice::from_ref(&f.saved.finding),
    );
    let _ = writeln!(html, "<pre>{}</pre>", escape(&explanation));
    let scenario = f
        .finding
        .reduced
        .as_deref()
        .unwrap_or(&f.occurrence.scenario);
    let what = if f.finding.reduced.is_some() {
        "Minimized scenario"
    } else {
        "Scenario"
    };
    let _ = writeln!(html, "<h4>{what}</h4><pre>{}</pre>", escape(scenario));
    html.push_str("<h4>Observed schedule</h4>\n");
    html.push_str(&schedule_svg::schedule(
        &f.saved.case,
        &f.saved.history,
        &f.saved.finding.steps,
    ));
    for detail in &f.saved.finding.details {
        if let Detail::Cycle(observed) = detail {
            html.push_str("<h4>Dependency cycle</h4>\n");
            html.push_str(&svg::cycle(observed));
        }
    }
    html.push_str("</section>\n");
}
