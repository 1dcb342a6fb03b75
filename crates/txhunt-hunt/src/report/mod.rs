//! Reports for people: the text of `txhunt run` ([`text`]), of a campaign's progress and
//! summary ([`campaign`]), of a stress run ([`stress`]), the picture of an Adya phenomenon
//! ([`svg`]) and of a schedule ([`schedule_svg`]), a finding's Markdown bug report
//! ([`markdown`]) and a campaign's HTML page ([`html`]). JSON reports are the serde form of
//! the same data. Their numbers are written as [`numbers`] says.

pub mod campaign;
pub mod html;
pub mod markdown;
pub mod numbers;
pub mod schedule_svg;
pub mod stress;
pub mod svg;
pub mod text;
