//! `txhunt findings`: what the findings store holds — findings listed (new since a campaign or
//! a date), one shown, reported as Markdown, exported to a DBMS's own test format, and
//! campaigns as HTML pages.

use crate::format::Format;
use anyhow::Context;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use txhunt_hunt::report::{html, markdown, schedule_svg, svg, text};
use txhunt_hunt::store::{SavedFinding, STORE_FILE};
use txhunt_hunt::upstream::UpstreamFormat;
use txhunt_model::History;
use txhunt_oracle::Detail;
use txhunt_store::{FindingInfo, FindingQuery, OccurrenceInfo, Store};

/// `txhunt findings` subcommands.
#[derive(Subcommand)]
pub enum FindingsCommand {
    /// List findings, newest first: bug candidates, or with `--all` permissible ones too.
    List(ListArgs),
    /// List the campaigns the store holds.
    Campaigns(StoreArgs),
    /// One finding: its explanation, its minimized scenario, the observed schedule, and where
    /// each occurrence was saved.
    Show(IdArgs),
    /// A finding as a Markdown bug report (with its pictures as SVG files beside it).
    Report(ReportArgs),
    /// A finding's scenario as a test of the DBMS's own test tools, expecting what was
    /// observed: `pg-isolation-spec` (PostgreSQL's isolationtester), `mysqltest` and
    /// `mysqltest-result` (MariaDB's mariadb-test / MySQL's mysqltest), `sqllogictest`,
    /// `scenario` (txhunt's own). The minimized scenario when there is one, else the
    /// original.
    Export(ExportArgs),
    /// Every campaign as a static HTML page (and an index), with its findings' pictures.
    Html(HtmlArgs),
}

/// Which store to read.
#[derive(Args)]
pub struct StoreArgs {
    /// The findings store: a SQLite file or a `postgres://` address (default: OUT/findings.db).
    #[arg(long, value_name = "FILE|URL")]
    store: Option<String>,
    /// The output folder of the campaigns whose store is meant (its findings.db).
    #[arg(long, default_value = "txhunt-out")]
    out: PathBuf,
}

/// Arguments of `txhunt findings list`.
#[derive(Args)]
pub struct ListArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Only findings first made after this campaign (its id).
    #[arg(long, value_name = "ID")]
    since_campaign: Option<i64>,
    /// Only findings first made at or after this UTC date or instant (`2026-11-26`,
    /// `2026-11-26 10:00`).
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Only this oracle's findings.
    #[arg(long)]
    oracle: Option<String>,
    /// Only findings on targets whose name contains this (`postgres`, `mariadb`, …).
    #[arg(long)]
    target: Option<String>,
    /// Permissible findings too.
    #[arg(long)]
    all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// A finding by id.
#[derive(Args)]
pub struct IdArgs {
    /// The finding's id (`txhunt findings list`).
    id: i64,
    #[command(flatten)]
    store: StoreArgs,
}

/// Arguments of `txhunt findings report`.
#[derive(Args)]
pub struct ReportArgs {
    #[command(flatten)]
    finding: IdArgs,
    /// The folder the report (`finding-ID.md`) and its pictures are written to; the report
    /// is printed too.
    #[arg(long, default_value = "txhunt-out/reports")]
    dir: PathBuf,
}

/// Arguments of `txhunt findings export`.
#[derive(Args)]
pub struct ExportArgs {
    #[command(flatten)]
    finding: IdArgs,
    /// The format.
    #[arg(long = "as", value_name = "FORMAT")]
    format: UpstreamFormat,
    /// Export the original case, not the minimized one.
    #[arg(long)]
    original: bool,
}

/// Arguments of `txhunt findings html`.
#[derive(Args)]
pub struct HtmlArgs {
    /// The folder the pages are written to (`index.html`, `campaign-ID.html`).
    dir: PathBuf,
    #[command(flatten)]
    store: StoreArgs,
    /// Permissible findings too.
    #[arg(long)]
    all: bool,
}

/// Runs a `findings` subcommand.
pub fn findings(command: &FindingsCommand) -> anyhow::Result<bool> {
    match command {
        FindingsCommand::List(args) => list(args),
        FindingsCommand::Campaigns(args) => campaigns(args),
        FindingsCommand::Show(args) => show(args),
        FindingsCommand::Report(args) => report(args),
        FindingsCommand::Export(args) => export(args),
        FindingsCommand::Html(args) => html_pages(args),
    }
}

/// Opens the store `args` name; it must exist (reading never creates one).
fn open(args: &StoreArgs) -> anyhow::Result<Store> {
    let spec = match &args.store {
        Some(spec) => spec.clone(),
        None => args.out.join(STORE_FILE).display().to_string(),
    };
    if !spec.contains("://") {
        anyhow::ensure!(
            Path::new(&spec).is_file(),
            "--store {spec}: no findings store there (txhunt fuzz makes OUT/findings.db)"
        );
    }
    Store::open(&spec).context("--store")
}

fn list(args: &ListArgs) -> anyhow::Result<bool> {
    let store = open(&args.store)?;
    let since = match &args.since {
        Some(text) => Some(txhunt_store::parse_instant(text).with_context(|| {
            format!("--since {text}: not a date (2026-11-26) or instant (2026-11-26 10:00)")
        })?),
        None => None,
    };
    let found = store.findings(&FindingQuery {
        since_campaign: args.since_campaign,
        since,
        oracle: args.oracle.clone(),
        target: args.target.clone(),
        in_campaign: None,
        permissible: args.all,
    })?;
    if args.format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&found)?);
        return Ok(true);
    }
    if found.is_empty() {
        println!("no findings in {}", store.location());
        return Ok(true);
    }
    println!(
        "{:>5}  {:<20}  {:<8}  {:<26}  {:>5}  {:>10}  {:<12}  title",
        "id", "target", "oracle", "signature", "seen", "statements", "verdict"
    );
    for f in &found {
        let verdict = if f.is_candidate() {
            "CANDIDATE"
        } else {
            "permissible"
        };
        println!(
            "{:>5}  {:<20}  {:<8}  {:<26}  {:>5}  {:>10}  {:<12}  {}",
            f.id,
            clip(&format!("{} {}", f.target, f.version), 20),
            f.oracle,
            clip(&f.signature, 26),
            f.occurrences,
            f.statements,
            verdict,
            clip(&f.title, 60)
        );
    }
    println!(
        "{} finding{} · `txhunt findings show ID` · store {}",
        found.len(),
        if found.len() == 1 { "" } else { "s" },
        store.location()
    );
    Ok(true)
}

fn campaigns(args: &StoreArgs) -> anyhow::Result<bool> {
    let store = open(args)?;
    for c in store.campaigns()? {
        println!(
            "{:>4}  {}  seed {}  {}  {} cases · {} bug candidates · {} permissible · {}",
            c.id,
            c.targets,
            c.seed,
            c.started_at,
            c.cases,
            c.candidates,
            c.permissible,
            c.ended_at
                .map_or("not ended (--resume continues it)".into(), |e| format!(
                    "ended {e}"
                ))
        );
    }
    Ok(true)
}

/// Finding `id`, its occurrences, and its first occurrence's saved finding.
fn load(
    store: &Store,
    id: i64,
) -> anyhow::Result<(FindingInfo, Vec<OccurrenceInfo>, SavedFinding)> {
    let (finding, occurrences) = store.finding(id)?;
    let first = occurrences
        .first()
        .with_context(|| format!("finding {id} has no occurrence"))?;
    let saved: SavedFinding = serde_json::from_str(&first.details)
        .with_context(|| format!("finding {id}: its occurrence's JSON twin does not read"))?;
    Ok((finding, occurrences, saved))
}

fn show(args: &IdArgs) -> anyhow::Result<bool> {
    let store = open(&args.store)?;
    let (finding, occurrences, saved) = load(&store, args.id)?;
    println!(
        "finding {} · {} {} · {} `{}` · {}",
        finding.id,
        finding.target,
        finding.version,
        finding.oracle,
        finding.signature,
        finding.verdict
    );
    print!(
        "{}",
        text::findings(
            &[saved.finding.oracle],
            std::slice::from_ref(&saved.finding)
        )
    );
    if let Some(reduced) = &finding.reduced {
        println!(
            "minimized scenario ({} statements):\n{reduced}",
            finding.statements
        );
    }
    print!(
        "{}",
        text::observed(
            &occurrences[0].path,
            &finding.version,
            Some(saved.history.isolation),
            &saved.case,
            &saved.history
        )
    );
    println!("occurrences:");
    for o in &occurrences {
        println!(
            "  campaign {} case {} (seed {}) at {} · {} · {}",
            o.campaign, o.case_index, o.case_seed, o.level, o.found_at, o.path
        );
    }
    Ok(true)
}

fn report(args: &ReportArgs) -> anyhow::Result<bool> {
    let store = open(&args.finding.store)?;
    let id = args.finding.id;
    let (finding, occurrences, saved) = load(&store, id)?;
    crate::paths::writable_dir("--dir", &args.dir)?;
    let write = |name: String, text: &str| -> anyhow::Result<String> {
        let path = args.dir.join(&name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        Ok(name)
    };
    let schedule = schedule_svg::schedule(&saved.case, &saved.history, &saved.finding.steps);
    let mut pictures = markdown::Pictures {
        schedule: Some(write(format!("finding-{id}-schedule.svg"), &schedule)?),
        cycle: None,
    };
    for detail in &saved.finding.details {
        if let Detail::Cycle(observed) = detail {
            pictures.cycle = Some(write(
                format!("finding-{id}-cycle.svg"),
                &svg::cycle(observed),
            )?);
        }
    }
    let md = markdown::report(&finding, &occurrences[0], &saved, &pictures);
    let name = write(format!("finding-{id}.md"), &md)?;
    print!("{md}");
    eprintln!("report written to {}", args.dir.join(name).display());
    Ok(true)
}

fn export(args: &ExportArgs) -> anyhow::Result<bool> {
    let store = open(&args.finding.store)?;
    let id = args.finding.id;
    let (finding, occurrences, saved) = load(&store, id)?;
    // Each case is exported with a run of it that gave the finding, whose outcomes the test
    // then expects: the original's as found, the minimized one's as the reducer's last replay
    // observed it (recorded with the reduction).
    let text = match (&finding.reduced, args.original) {
        (Some(reduced), false) => {
            let case = txhunt_model::scenario::parse(reduced, &format!("finding {id}"))
                .with_context(|| format!("finding {id}: its minimized scenario does not parse"))?;
            let observed = reduced_run(&occurrences, reduced);
            txhunt_hunt::upstream::export(&case, observed.as_ref(), args.format)
        }
        _ => txhunt_hunt::upstream::export(&saved.case, Some(&saved.history), args.format),
    };
    print!(
        "{}",
        text.with_context(|| format!("finding {id} as {}", args.format))?
    );
    Ok(true)
}

/// The run of the minimized case `reduced` that its reduction recorded, if any occurrence
/// reduced to it recorded one.
fn reduced_run(occurrences: &[OccurrenceInfo], reduced: &str) -> Option<History> {
    occurrences
        .iter()
        .filter(|o| o.reduced.as_deref() == Some(reduced))
        .filter_map(|o| o.reduction.as_deref())
        .filter_map(|log| serde_json::from_str::<serde_json::Value>(log).ok())
        .find_map(|log| serde_json::from_value(log.get("observed")?.clone()).ok())
}

fn html_pages(args: &HtmlArgs) -> anyhow::Result<bool> {
    let store = open(&args.store)?;
    crate::paths::writable_dir("findings html", &args.dir)?;
    let campaigns = store.campaigns()?;
    for campaign in &campaigns {
        let found = store.findings(&FindingQuery {
            in_campaign: Some(campaign.id),
            permissible: args.all,
            ..FindingQuery::default()
        })?;
        let mut loaded = Vec::new();
        for f in &found {
            let (finding, occurrences, _) = load(&store, f.id)?;
            let occurrence = (occurrences.iter())
                .find(|o| o.campaign == campaign.id)
                .unwrap_or(&occurrences[0])
                .clone();
            let saved: SavedFinding = serde_json::from_str(&occurrence.details)?;
            loaded.push((finding, occurrence, saved));
        }
        let page: Vec<html::PageFinding<'_>> = loaded
            .iter()
            .map(|(finding, occurrence, saved)| html::PageFinding {
                finding,
                occurrence,
                saved,
            })
            .collect();
        let path = args.dir.join(format!("campaign-{}.html", campaign.id));
        std::fs::write(&path, html::campaign_page(campaign, &page))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let index = args.dir.join("index.html");
    std::fs::write(&index, html::index_page(&campaigns))
        .with_context(|| format!("writing {}", index.display()))?;
    println!(
        "{} campaign page{} and {}",
        campaigns.len(),
        if campaigns.len() == 1 { "" } else { "s" },
        index.display()
    );
    Ok(true)
}

/// `text` cut to `width` characters (with `…`).
fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let cut: String = text.chars().take(width - 1).collect();
    format!("{cut}…")
}
