//! Reports for people: the text of `txhunt run` ([`text`]), of a campaign's progress and
//! summary ([`campaign`]), of a stress run ([`stress`]), and the picture of an Adya phenomenon ([`svg`]). JSON reports are
//! the serde form of the same data. Their numbers are written as [`numbers`] says.

pub mod campaign;
pub mod numbers;
pub mod stress;
pub mod svg;
pub mod text;
