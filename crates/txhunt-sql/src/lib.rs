//! txhunt's SQL: a small AST ([`ast`]), its rendering per dialect ([`render`], [`dialect`]),
//! and seeded generators of test cases ([`gen`]).

pub mod ast;
pub mod dialect;
pub mod gen;
pub mod render;

pub use dialect::{Dialect, Feature};
pub use gen::{generate, GenConfig, GeneratedCase};
pub use render::render;
