//! Stress workloads: transactions over a small hot key space whose data tells what happened,
//! after Jepsen's Elle (`register`, `list-append`) and the classic `bank`.
//!
//! Each workload is one table of `keys` rows and a seeded stream of explicit transactions per
//! session ([`Stream::txn`]); every statement it makes is one of a few fixed forms, so
//! [`Workload::op`] reads back what a statement did, for the workload's invariant:
//!
//! * **register**: `reg(k, v)`; a transaction reads (`SELECT v FROM reg WHERE k = K`) or
//!   writes (`UPDATE reg SET v = V WHERE k = K`) 1–4 keys; every value written is unique in the
//!   run (session × transaction × position), so a read names the write it saw;
//! * **list-append**: `lists(k, v)`, `v` a text list `,e1,e2,…`; a transaction reads a list or
//!   appends a unique element to it (an upsert: a key's row is made by its first append); every
//!   list read must be a prefix of the key's final list, which holds each committed append
//!   exactly once, in one order. As in Elle, keys rotate so lists stay short: transaction `n`
//!   of a session uses the keys of block `n / LIST_BLOCK`;
//! * **bank**: `bank(k, b)`, every account starting at [`BANK_START`]; a transaction moves an
//!   amount from one account to another (two relative UPDATEs, sometimes after reading both)
//!   or reads every account in one SELECT; the total never changes;
//! * **random**: the random case generator's tables, indexes and rows (at most `keys` rows a
//!   table) and its data statements, each transaction an explicit one of them, committed
//!   (`random.rs`); no invariant of its own: the DSG oracle judges it.
//!
//! A run's statements come from a [`Stream`]: the same seed, session and transaction number
//! give the same statements.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use txhunt_model::SqlFamily;

mod random;

/// What each bank account holds at the start.
pub const BANK_START: i64 = 100;

/// How many transactions of a session append to one block of list keys.
pub const LIST_BLOCK: u64 = 200;

/// A stress workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Workload {
    /// Reads and blind writes of unique values (Elle's rw-register).
    Register,
    /// Reads of lists and appends of unique elements (Elle's list-append).
    ListAppend,
    /// Transfers between accounts and reads of every account; the total is constant.
    Bank,
    /// The random case generator's transactions over its own schema and rows.
    Random,
}

/// What one statement of a workload does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// Reads key `k` (register, list-append).
    Read {
        /// The key.
        key: i64,
    },
    /// Writes the unique `value` to register `key`.
    Write {
        /// The key.
        key: i64,
        /// The value.
        value: i64,
    },
    /// Appends the unique `element` to list `key`.
    Append {
        /// The key.
        key: i64,
        /// The element.
        element: i64,
    },
    /// Adds `delta` (negative: takes) to account `key`.
    Add {
        /// The account.
        key: i64,
        /// The amount added.
        delta: i64,
    },
    /// Reads every account.
    ReadAll,
}

impl Workload {
    /// Every workload, in the order `--workload` lists them.
    pub const ALL: [Workload; 4] = [
        Workload::Register,
        Workload::ListAppend,
        Workload::Bank,
        Workload::Random,
    ];

    /// `register`, `list-append`, `bank` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Register => "register",
            Workload::ListAppend => "list-append",
            Workload::Bank => "bank",
            Workload::Random => "random",
        }
    }

    /// The workload named `name`, if there is one.
    pub fn parse(name: &str) -> Option<Workload> {
        Workload::ALL.into_iter().find(|w| w.name() == name)
    }

    /// The workload's table (the random workload has tables of its own: none here).
    pub fn table(self) -> Option<&'static str> {
        match self {
            Workload::Register => Some("reg"),
            Workload::ListAppend => Some("lists"),
            Workload::Bank => Some("bank"),
            Workload::Random => None,
        }
    }

    /// Its value column.
    fn column(self) -> &'static str {
        match self {
            Workload::Bank => "b",
            _ => "v",
        }
    }

    /// The setup statements of a keyed workload (not random): the table and its `keys` rows
    /// (keys `1..=keys`; none for list-append, whose appends make their rows).
    fn keyed_setup(self, keys: usize) -> Vec<String> {
        let (table, column) = (self.table().unwrap_or_default(), self.column());
        let (ty, initial) = match self {
            Workload::Register | Workload::Random => ("INT", 0),
            Workload::ListAppend => ("TEXT", 0),
            Workload::Bank => ("INT", BANK_START),
        };
        let create = format!("CREATE TABLE {table}(k INT PRIMARY KEY, {column} {ty} NOT NULL)");
        if self == Workload::ListAppend {
            return vec![create];
        }
        let rows: Vec<String> = (1..=keys).map(|k| format!("({k}, {initial})")).collect();
        vec![
            create,
            format!("INSERT INTO {table} VALUES {}", rows.join(", ")),
        ]
    }

    /// Transaction `n` of `session` of a keyed workload (not random) over keys `1..=keys`,
    /// its random choices drawn from `rng`: BEGIN, its statements, COMMIT.
    fn keyed_txn(
        self,
        family: SqlFamily,
        keys: usize,
        mut rng: ChaCha8Rng,
        (session, n): (usize, u64),
    ) -> Vec<String> {
        let keys = keys.max(1) as i64;
        let block = match self {
            Workload::ListAppend => (n / LIST_BLOCK) as i64 * keys,
            _ => 0,
        };
        let key = |rng: &mut ChaCha8Rng| block + rng.random_range(1..=keys);
        // Unique in the run: the session in the low bits, the transaction and position above.
        let unique = |position: usize| ((n as i64 * 8 + position as i64) << 7) + session as i64;
        let ops: Vec<Op> = match self {
            Workload::Register | Workload::ListAppend => {
                let count = rng.random_range(1..=4);
                (0..count)
                    .map(|i| {
                        let k = key(&mut rng);
                        match (rng.random_bool(0.5), self) {
                            (true, _) => Op::Read { key: k },
                            (false, Workload::Register) => Op::Write {
                                key: k,
                                value: unique(i),
                            },
                            (false, _) => Op::Append {
                                key: k,
                                element: unique(i),
                            },
                        }
                    })
                    .collect()
            }
            Workload::Random => Vec::new(),
            Workload::Bank if rng.random_bool(0.25) => vec![Op::ReadAll],
            Workload::Bank => {
                let from = key(&mut rng);
                // Another account (the same one only when there is one).
                let offset = if keys > 1 {
                    rng.random_range(1..keys)
                } else {
                    0
                };
                let to = (from - 1 + offset) % keys + 1;
                let amount = rng.random_range(1..=10);
                let mut ops = Vec::new();
                if rng.random_bool(0.5) {
                    ops.extend([Op::Read { key: from }, Op::Read { key: to }]);
                }
                ops.extend([
                    Op::Add {
                        key: from,
                        delta: -amount,
                    },
                    Op::Add {
                        key: to,
                        delta: amount,
                    },
                ]);
                ops
            }
        };
        let mut statements = vec!["BEGIN".to_string()];
        statements.extend(ops.iter().map(|op| self.sql(family, op)));
        statements.push("COMMIT".into());
        statements
    }

    /// The statement that does `op`.
    pub fn sql(self, family: SqlFamily, op: &Op) -> String {
        let (table, column) = (self.table().unwrap_or_default(), self.column());
        match *op {
            Op::Read { key } => format!("SELECT {column} FROM {table} WHERE k = {key}"),
            Op::ReadAll => format!("SELECT k, {column} FROM {table}"),
            Op::Write { key, value } => {
                format!("UPDATE {table} SET {column} = {value} WHERE k = {key}")
            }
            Op::Append { key, element } => {
                let insert = format!("INSERT INTO {table} VALUES ({key}, ',{element}')");
                match family {
                    SqlFamily::Mysql => format!(
                        "{insert} ON DUPLICATE KEY UPDATE {column} = CONCAT({column}, ',{element}')"
                    ),
                    _ => format!(
                        "{insert} ON CONFLICT (k) DO UPDATE SET {column} = {table}.{column} || ',{element}'"
                    ),
                }
            }
            Op::Add { key, delta } => {
                format!("UPDATE {table} SET {column} = {column} + ({delta}) WHERE k = {key}")
            }
        }
    }

    /// What `sql`, a statement this workload made, does (`None` for BEGIN, COMMIT, ROLLBACK
    /// and anything else).
    pub fn op(self, sql: &str) -> Option<Op> {
        let (table, column) = (self.table()?, self.column());
        if sql == format!("SELECT k, {column} FROM {table}") {
            return Some(Op::ReadAll);
        }
        if let Some(key) = sql.strip_prefix(&format!("SELECT {column} FROM {table} WHERE k = ")) {
            return Some(Op::Read {
                key: key.parse().ok()?,
            });
        }
        if let Some(rest) = sql.strip_prefix(&format!("INSERT INTO {table} VALUES (")) {
            let (key, rest) = rest.split_once(", ',")?;
            let (element, _) = rest.split_once("')")?;
            return Some(Op::Append {
                key: key.parse().ok()?,
                element: element.parse().ok()?,
            });
        }
        let rest = sql.strip_prefix(&format!("UPDATE {table} SET {column} = "))?;
        let (set, key) = rest.rsplit_once(" WHERE k = ")?;
        let key: i64 = key.parse().ok()?;
        let number = |s: &'_ str| -> Option<i64> {
            s.trim_matches(|c: char| !(c.is_ascii_digit() || c == '-'))
                .parse()
                .ok()
        };
        match self {
            Workload::Random => None,
            Workload::Register => Some(Op::Write {
                key,
                value: set.parse().ok()?,
            }),
            Workload::ListAppend => None,
            Workload::Bank => Some(Op::Add {
                key,
                delta: number(set.strip_prefix(&format!("{column} + "))?)?,
            }),
        }
    }
}

/// A workload's statements in one run: its setup and every session's transactions.
#[derive(Clone)]
pub struct Stream {
    workload: Workload,
    family: SqlFamily,
    keys: usize,
    seed: u64,
    random: Option<random::Random>,
}

impl Stream {
    /// The statements of `workload` for `family`, over `keys` keys (random: at most `keys` rows
    /// a table), in the run seeded `seed`.
    pub fn new(workload: Workload, family: SqlFamily, keys: usize, seed: u64) -> Stream {
        Stream {
            workload,
            family,
            keys,
            seed,
            random: (workload == Workload::Random).then(|| random::Random::new(family, keys, seed)),
        }
    }

    /// The setup statements: tables and rows.
    pub fn setup(&self) -> Vec<String> {
        match &self.random {
            Some(random) => random.setup(),
            None => self.workload.keyed_setup(self.keys),
        }
    }

    /// Transaction `n` of `session` (both from 0): BEGIN, its statements, COMMIT.
    pub fn txn(&self, session: usize, n: u64) -> Vec<String> {
        let seed =
            self.seed ^ (session as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ n.rotate_left(29);
        match &self.random {
            Some(random) => random.txn(seed),
            None => (self.workload).keyed_txn(
                self.family,
                self.keys,
                ChaCha8Rng::seed_from_u64(seed),
                (session, n),
            ),
        }
    }
}

impl std::fmt::Display for Workload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_statement_reads_back_as_the_op_that_made_it() {
        for workload in Workload::ALL {
            for family in [SqlFamily::Sqlite, SqlFamily::Mysql, SqlFamily::Postgres] {
                let stream = Stream::new(workload, family, 5, 7);
                for n in 0..200 {
                    let txn = stream.txn((n % 8) as usize, n);
                    assert_eq!(txn.first().map(String::as_str), Some("BEGIN"));
                    assert_eq!(txn.last().map(String::as_str), Some("COMMIT"));
                    for sql in &txn[1..txn.len() - 1] {
                        if workload == Workload::Random {
                            assert_eq!(workload.op(sql), None);
                            continue;
                        }
                        let op = workload.op(sql).unwrap_or_else(|| panic!("{sql}"));
                        assert_eq!(workload.sql(family, &op), *sql);
                    }
                }
            }
        }
    }

    #[test]
    fn the_same_seed_session_and_number_give_the_same_transaction() {
        for workload in Workload::ALL {
            let stream = Stream::new(workload, SqlFamily::Postgres, 5, 1);
            let again = Stream::new(workload, SqlFamily::Postgres, 5, 1);
            assert_eq!(stream.setup(), again.setup());
            let a = stream.txn(2, 3);
            assert_eq!(a, again.txn(2, 3));
            let others: Vec<_> = (0..20).map(|n| stream.txn(2, n)).collect();
            assert!(
                others.iter().filter(|t| **t != a).count() > 10,
                "{workload}"
            );
        }
    }

    #[test]
    fn a_random_run_has_its_generated_schema_and_a_small_hot_key_space() {
        let stream = Stream::new(Workload::Random, SqlFamily::Sqlite, 3, 11);
        let setup = stream.setup();
        assert!(setup[0].starts_with("CREATE TABLE"), "{setup:?}");
        // At most 3 rows a table: no INSERT lists a fourth.
        for insert in setup.iter().filter(|s| s.starts_with("INSERT")) {
            assert!(insert.matches("), (").count() <= 2, "{insert}");
        }
        let other = Stream::new(Workload::Random, SqlFamily::Sqlite, 3, 12);
        assert_ne!(setup, other.setup());
    }

    #[test]
    fn written_values_are_unique_across_sessions_and_transactions() {
        let mut seen = std::collections::HashSet::new();
        for session in 0..8 {
            for n in 0..300 {
                let stream = Stream::new(Workload::ListAppend, SqlFamily::Mysql, 3, 9);
                for sql in stream.txn(session, n) {
                    if let Some(Op::Append { element, .. }) = Workload::ListAppend.op(&sql) {
                        assert!(seen.insert(element), "{element} twice");
                    }
                }
            }
        }
        assert!(seen.len() > 1000);
    }

    #[test]
    fn a_transfer_moves_an_amount_between_two_accounts() {
        for n in 0..100 {
            let ops: Vec<Op> = Stream::new(Workload::Bank, SqlFamily::Sqlite, 4, 3)
                .txn(0, n)
                .iter()
                .filter_map(|s| Workload::Bank.op(s))
                .collect();
            let adds: Vec<(i64, i64)> = (ops.iter())
                .filter_map(|o| match o {
                    Op::Add { key, delta } => Some((*key, *delta)),
                    _ => None,
                })
                .collect();
            match adds.as_slice() {
                [] => assert_eq!(ops, vec![Op::ReadAll]),
                [(a, x), (b, y)] => {
                    assert_ne!(a, b);
                    assert_eq!(x + y, 0);
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(
            Stream::new(Workload::Bank, SqlFamily::Sqlite, 2, 0).setup(),
            vec![
                "CREATE TABLE bank(k INT PRIMARY KEY, b INT NOT NULL)",
                "INSERT INTO bank VALUES (1, 100), (2, 100)"
            ]
        );
    }
}
