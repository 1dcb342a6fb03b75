//! Reports for people: the text of `txhunt run` ([`text`]) and of a campaign's progress and
//! summary ([`campaign`]). JSON reports are the serde form of the same data.

pub mod campaign;
pub mod text;
