//! txhunt's SQL: a small AST ([`ast`]), its rendering per dialect ([`render()`], [`dialect`]),
//! seeded generators of test cases ([`gen`]), statement rewrites for oracles ([`rewrite`]) and
//! what a statement touches ([`analysis`]).

pub mod analysis;
pub mod ast;
pub mod dialect;
pub mod gen;
pub mod instrument;
pub mod plan_cache;
pub mod render;
pub mod rewrite;
pub mod simplify;

pub use dialect::{Dialect, Feature};
pub use gen::{generate, generate_guided, GenConfig, GeneratedCase};
pub use render::render;
