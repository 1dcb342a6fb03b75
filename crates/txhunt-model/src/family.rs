//! The SQL families: which dialect and catalog a DBMS speaks.

use serde::{Deserialize, Serialize};

/// A family of DBMSs that speak one SQL dialect: the generators render for it, statements are
/// parsed in it, and the differential oracle compares only targets of one family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SqlFamily {
    /// SQLite and Turso.
    Sqlite,
    /// MySQL, MariaDB, TiDB.
    Mysql,
    /// PostgreSQL, CockroachDB.
    Postgres,
}

impl SqlFamily {
    /// The family's name: `sqlite`, `mysql`, `postgres`.
    pub fn name(self) -> &'static str {
        match self {
            SqlFamily::Sqlite => "sqlite",
            SqlFamily::Mysql => "mysql",
            SqlFamily::Postgres => "postgres",
        }
    }
}

impl std::fmt::Display for SqlFamily {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
