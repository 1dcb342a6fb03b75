//! txhunt's campaigns: the fuzz loop over seeded cases ([`campaign`]), its counters
//! ([`stats`]), and the findings it saves ([`store`]).

pub mod campaign;
pub mod seed;
pub mod stats;
pub mod store;

pub use campaign::{run, Campaign, HuntError, PERMISSIBLE_DIR};
pub use stats::{Stats, Summary};
