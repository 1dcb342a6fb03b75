//! txhunt's hunts: the one judging pipeline ([`judge`]) and what drives it — replaying
//! scenario files ([`replay`]), the fuzz loop over seeded cases ([`campaign`]) with its
//! counters ([`stats`]) and saved findings ([`store`]), stress runs ([`stress`]), the known-bug corpus ([`corpus`]) and
//! benchmarks ([`bench`](mod@bench)) — the reports for people ([`report`]), and instrumented read/write
//! histories exported for external checkers ([`export`]), and findings exported as tests in DBMS
//! developers' own formats ([`upstream`]).

pub mod bench;
pub mod campaign;
pub mod corpus;
pub mod export;
pub mod judge;
pub mod recording;
pub mod reduce;
pub mod replay;
pub mod report;
pub mod retry;
pub mod scenarios;
pub mod seed;
pub mod stats;
pub mod store;
pub mod stress;
pub mod upstream;
pub mod workers;

pub use campaign::{run, AutoReduce, Campaign, HuntError, PERMISSIBLE_DIR};
pub use judge::{Judge, JudgeError, Judged};
pub use stats::{Stats, Summary};
