//! A campaign's link to the findings store ([`txhunt_store`]): which cases each worker runs
//! (leased ranges, so that processes on several machines share a campaign and an interrupted
//! one resumes), every finished case, and every finding with its reduction.

use crate::HuntError;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use txhunt_store::{CampaignInfo, CaseCounts, Lease, Leased, Store, StoreError};

/// Where and as what a campaign records: the store, the campaign there, and this process.
pub struct Recording {
    /// The store.
    pub store: Arc<Store>,
    /// The campaign (started, joined or resumed by the caller).
    pub campaign: CampaignInfo,
    /// This process's owner name ([`txhunt_store::owner_name`]).
    pub owner: String,
    /// Cases per leased range.
    pub lease_size: u64,
    /// A lease whose holder has not heartbeated for this long is taken over (this process
    /// heartbeats six times as often).
    pub lease_timeout: Duration,
}

/// What a worker does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// Runs this case.
    Case(u64),
    /// Asks again soon: other workers hold the cases left, and may die before finishing.
    Wait,
    /// Stops: no case is left.
    Done,
}

impl From<StoreError> for HuntError {
    fn from(e: StoreError) -> Self {
        HuntError::Store(e)
    }
}

/// Which case each worker runs next.
pub(crate) enum Cases<'a> {
    /// Counted in this process, up to an optional budget.
    Local {
        /// The next case.
        next: AtomicU64,
        /// The first case not to run.
        limit: Option<u64>,
    },
    /// From ranges leased in the store, one per worker at a time.
    Leased {
        /// The store and campaign.
        recording: &'a Recording,
        /// Each worker's current lease.
        held: Mutex<Vec<Option<Lease>>>,
    },
}

impl<'a> Cases<'a> {
    /// Cases for `workers` workers: leased when the campaign records into a store.
    pub(crate) fn new(
        recording: Option<&'a Recording>,
        limit: Option<u64>,
        workers: usize,
    ) -> Self {
        match recording {
            Some(recording) => Cases::Leased {
                recording,
                held: Mutex::new(vec![None; workers]),
            },
            None => Cases::Local {
                next: AtomicU64::new(0),
                limit,
            },
        }
    }

    /// What `worker` does next.
    pub(crate) fn next(&self, worker: usize) -> Result<Next, HuntError> {
        match self {
            Cases::Local { next, limit } => {
                let index = next.fetch_add(1, Ordering::SeqCst);
                Ok(match limit {
                    Some(n) if index >= *n => Next::Done,
                    _ => Next::Case(index),
                })
            }
            Cases::Leased { recording, held } => {
                let current = held.lock().unwrap_or_else(|p| p.into_inner())[worker];
                if let Some(lease) = current.filter(|l| l.next < l.end) {
                    return Ok(Next::Case(lease.next));
                }
                let leased = recording.store.lease(
                    recording.campaign.id,
                    &recording.owner,
                    recording.lease_size,
                    recording.lease_timeout,
                )?;
                let (lease, next) = match leased {
                    Leased::Range(lease) => (Some(lease), Next::Case(lease.next)),
                    Leased::Wait => (None, Next::Wait),
                    Leased::Done => (None, Next::Done),
                };
                held.lock().unwrap_or_else(|p| p.into_inner())[worker] = lease;
                Ok(next)
            }
        }
    }

    /// Records that `worker` finished case `index` (seed `seed`) with `counts`.
    pub(crate) fn finished(
        &self,
        worker: usize,
        (index, seed): (u64, u64),
        counts: CaseCounts,
    ) -> Result<(), HuntError> {
        let Cases::Leased { recording, held } = self else {
            return Ok(());
        };
        let mut held = held.lock().unwrap_or_else(|p| p.into_inner());
        let Some(lease) = held[worker] else {
            return Ok(());
        };
        let kept = recording.store.finish_case(
            recording.campaign.id,
            &lease,
            &recording.owner,
            (index, seed),
            counts,
        )?;
        // A lease taken over (this process was thought dead) is left to its new holder.
        held[worker] = kept.then_some(Lease {
            next: index + 1,
            ..lease
        });
        Ok(())
    }
}
