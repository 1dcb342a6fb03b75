//! Where a campaign's workers run: with two workers or more on a private server (the
//! testbed's), each worker gets a server of its own and is pinned with it to one CPU.
//!
//! A case hands its statements between the worker's threads and the server's many times per
//! millisecond; on different CPUs each hand-off is a cross-CPU wake-up, and workers sharing a
//! server also share its locks and its background `DROP DATABASE`s. Measured on the 2-core
//! machine (`fuzz --oracle explicit,dsg`, 30 s, transactions/hour): MariaDB, one worker
//! 0.88–0.91M, two workers on one server 1.24M (1.4×), two pinned workers with a server each
//! 1.78M (2.0×); PostgreSQL, one worker 0.57M, two on one server 0.83M (1.45×), two pinned
//! with a server each 1.42M (2.5×). One worker is not pinned: pinned, it and its server
//! share one CPU and leave the other idle.
//!
//! Workers past the CPUs this process may use share CPUs in turn (worker `w` on the `w mod
//! n`-th). Targets that are not private servers (an existing server, an embedded DBMS) are
//! shared by every worker, and no one is pinned for them.

use crate::campaign::HuntError;
use crate::retry::{Shared, Slot};
use std::sync::{Arc, RwLock};
use txhunt_db::affinity::{allowed_cpus, pin_current_thread};
use txhunt_db::{Target, TargetError};

/// The CPUs a campaign of `workers` on `targets` pins its workers to (worker `w` to the
/// `w mod n`-th), or none: one worker, or no target is a private server.
pub fn cpus_to_pin(workers: usize, targets: &Shared) -> Vec<usize> {
    let private = targets
        .iter()
        .any(|t| current(t).private_server().is_some());
    if workers < 2 || !private {
        return Vec::new();
    }
    allowed_cpus()
}

/// Prepares worker `w`'s thread and targets: pins the thread to its CPU of `cpus` (none: no
/// pinning, every target shared) and returns the worker's own targets, where each private
/// server is one it started (worker 0 keeps the campaign's and pins them to its CPU), or `None`
/// when the worker uses the campaign's.
pub fn own_targets(
    w: usize,
    cpus: &[usize],
    targets: &Shared,
    reopen: &(dyn Fn(usize) -> Result<Box<dyn Target>, TargetError> + Sync),
) -> Result<Option<Vec<Slot>>, HuntError> {
    if cpus.is_empty() {
        return Ok(None);
    }
    let cpu = cpus[w % cpus.len()];
    if let Err(e) = pin_current_thread(cpu) {
        tracing::warn!("worker {w}: not pinned to CPU {cpu}: {e}");
    }
    if w == 0 {
        for target in targets {
            pin_server(w, cpu, current(target).as_ref());
        }
        return Ok(None);
    }
    let mut own = Vec::with_capacity(targets.len());
    for (k, target) in targets.iter().enumerate() {
        let shared = current(target);
        // Started from this pinned thread, the server inherits the pin.
        let mine: Arc<dyn Target> = match shared.private_server() {
            Some(_) => Arc::from(reopen(k)?),
            None => shared,
        };
        own.push(RwLock::new(mine));
    }
    Ok(Some(own))
}

/// Pins `target`'s private server, if it has one, to `cpu` (a failure is only logged: the
/// campaign runs as well unpinned, a little slower).
fn pin_server(w: usize, cpu: usize, target: &dyn Target) {
    let Some(server) = target.private_server() else {
        return;
    };
    match server.pin_to_cpu(cpu) {
        Ok(threads) => tracing::debug!("worker {w}: {threads} server threads pinned to CPU {cpu}"),
        Err(e) => tracing::warn!("worker {w}: server not pinned to CPU {cpu}: {e}"),
    }
}

/// The target `slot` holds now.
fn current(slot: &Slot) -> Arc<dyn Target> {
    Arc::clone(&slot.read().unwrap_or_else(|p| p.into_inner()))
}
