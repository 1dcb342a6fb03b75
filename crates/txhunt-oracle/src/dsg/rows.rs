//! Readable names for the rows of a history: `t(k=3)`, by the primary key's values in the
//! row's first recorded version (a row's id is instrumentation's, meaningless to a reader).

use std::collections::HashMap;
use txhunt_model::access::RowId;
use txhunt_model::History;

/// The readable name of every row `history` recorded a version of whose table has a primary
/// key; other rows keep their id (`t:17`).
pub fn names(history: &History) -> HashMap<RowId, String> {
    let mut names = HashMap::new();
    let writes = (history.init_writes.iter().flatten()).chain(
        history
            .steps
            .iter()
            .flat_map(|r| r.accesses.iter().flat_map(|a| &a.writes)),
    );
    for w in writes {
        if names.contains_key(&w.row) {
            continue;
        }
        let Some(meta) = history.tables.iter().find(|t| t.name == w.row.table) else {
            continue;
        };
        let key: Vec<String> = (meta.key.iter())
            .filter_map(|k| {
                let i = meta
                    .columns
                    .iter()
                    .position(|c| c.eq_ignore_ascii_case(k))?;
                Some(format!("{k}={}", w.image.get(i)?))
            })
            .collect();
        if !key.is_empty() && key.len() == meta.key.len() {
            names.insert(
                w.row.clone(),
                format!("{}({})", w.row.table, key.join(", ")),
            );
        }
    }
    names
}
