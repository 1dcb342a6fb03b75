//! txhunt's SQL: a small AST ([`ast`]), its rendering per dialect ([`render`], [`dialect`]),
//! and seeded generators of test cases (coming with the fuzz issue).

pub mod ast;
pub mod dialect;
pub mod render;

pub use dialect::{Dialect, Feature};
pub use render::render;
