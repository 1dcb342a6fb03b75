//! Reports for people: the text of `txhunt run` ([`text`]), of a campaign's progress and
//! summary ([`campaign`]), and the picture of an Adya phenomenon ([`svg`]). JSON reports are
//! the serde form of the same data.

pub mod campaign;
pub mod svg;
pub mod text;
