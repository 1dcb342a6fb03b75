//! `txhunt fuzz`'s findings store: opened, and the campaign started, joined (`--campaign
//! NAME`, several processes or machines) or resumed (`--resume`) there.

use crate::fuzz::FuzzArgs;
use anyhow::Context;
use serde::Serialize;
use std::sync::Arc;
use txhunt_db::Target;
use txhunt_hunt::recording::Recording;
use txhunt_store::{NewCampaign, Store};

/// The settings that make a campaign's cases: a process joins or resumes a campaign only with
/// the same ones (its budget, workers and output folder may differ).
#[derive(Serialize)]
struct Config<'a> {
    isolation: &'a str,
    oracle: &'a str,
    generator: String,
    history: Option<String>,
    guide: String,
    pattern: &'a [String],
    statement_timeout_ms: u128,
}

/// Where `fuzz` keeps its findings store: `--store`, else `OUT/findings.db`.
pub fn store_spec(args: &FuzzArgs) -> String {
    args.store.clone().unwrap_or_else(|| {
        args.out
            .join(txhunt_hunt::store::STORE_FILE)
            .display()
            .to_string()
    })
}

/// Opens the store and starts, joins or resumes the campaign of `targets` (`specs` as given)
/// with `seed` and `case_limit`; `rotation` tells apart the campaigns of one command's rotated
/// settings (`NAME/2`).
pub fn open(
    args: &FuzzArgs,
    store: &Arc<Store>,
    (specs, targets): (&[String], &[Box<dyn Target>]),
    (seed, case_limit): (u64, Option<u64>),
    rotation: Option<u64>,
) -> anyhow::Result<Recording> {
    let config = Config {
        isolation: &args.isolation,
        oracle: &args.oracle,
        generator: format!("{:?}", crate::fuzz::generator(args)),
        history: args.history.map(|h| format!("{h:?}")),
        guide: format!("{:?}", crate::fuzz::guide(args)),
        pattern: &args.pattern,
        statement_timeout_ms: args.statement_timeout.as_millis(),
    };
    let versions: Vec<String> = targets.iter().map(|t| t.label()).collect();
    let new = NewCampaign {
        name: None,
        seed,
        targets: specs.join(", "),
        versions: versions.join(", "),
        config: serde_json::to_string(&config)?,
        command: std::env::args().collect::<Vec<_>>().join(" "),
        case_limit,
    };
    let campaign = if args.resume {
        store
            .resumable(&new.config, &new.targets)?
            .with_context(|| {
                format!(
                    "--resume: {} holds no unfinished campaign on {} with these settings",
                    store.location(),
                    new.targets
                )
            })?
    } else if let Some(name) = &args.campaign {
        let name = match rotation {
            Some(k) => format!("{name}/{}", k + 1),
            None => name.clone(),
        };
        store
            .join_campaign(&name, &new)
            .with_context(|| format!("--campaign {name}"))?
    } else {
        store.start_campaign(&new)?
    };
    Ok(Recording {
        store: store.clone(),
        campaign,
        owner: txhunt_store::owner_name(),
        lease_size: args.lease_size,
        lease_timeout: args.lease_timeout,
    })
}
