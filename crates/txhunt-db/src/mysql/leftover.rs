//! Files MariaDB leaves in a database's directory that make `DROP DATABASE` fail, removed
//! where txhunt owns the server.
//!
//! A `CREATE TRIGGER` on a table that already has a trigger copies its `<table>.TRG` to
//! `<table>.TRG-` and is meant to delete the copy once done; when DDL of other sessions runs
//! at that moment, MariaDB 10.11 skips the delete (its DDL-log entry was reused; the report
//! is `corpus/mariadb/MARIADB-trigger-backup-left.md`). The trigger works, but `DROP DATABASE`
//! then fails with error 1010 (errno 39, "Directory not empty"). Instrumented runs create
//! three triggers per table while the housekeeper creates and drops databases, so a campaign
//! meets it now and then, with one worker too.

use std::path::Path;

/// The suffix of the backup copy of a table's trigger file.
const TRIGGER_BACKUP: &str = ".TRG-";

/// Removes the trigger backups left in database directory `dir` (nothing else); how many
/// there were. A directory that does not exist holds none.
pub(super) fn remove_trigger_backups(dir: &Path) -> std::io::Result<usize> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let mut removed = 0;
    for entry in entries {
        let entry = entry?;
        let backup = (entry.file_name().to_str()).is_some_and(|n| n.ends_with(TRIGGER_BACKUP));
        if backup && entry.file_type()?.is_file() {
            std::fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_trigger_backups_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["t0.TRG-", "t1.TRG-", "t0.TRG", "t0.frm", "db.opt"] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        assert_eq!(remove_trigger_backups(dir.path()).unwrap(), 2);
        let mut left: Vec<String> = (std::fs::read_dir(dir.path()).unwrap())
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["db.opt", "t0.TRG", "t0.frm"]);
        assert_eq!(remove_trigger_backups(&dir.path().join("gone")).unwrap(), 0);
    }
}
