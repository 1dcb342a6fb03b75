//! One PostgreSQL-protocol session.

use super::pool::{Pool, Pooled};
use super::value::value;
use crate::profile::ServerProfile;
use crate::target::{
    one_by_one_until_failure, with_causes, Connection, Interrupt, LockWaitHook, TargetError,
};
use postgres::types::Type;
use postgres::{CancelToken, Client, NoTls, SimpleQueryMessage};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use txhunt_model::{DbError, DbState, ErrorClass, Outcome, Row, StmtKind};

/// A session's connection; given back to the target's pool when dropped, unless a cancel
/// request was sent to it (one could still arrive while the next user runs a statement).
pub(super) struct PgConnection {
    pooled: Option<Pooled>,
    cancelled: Arc<AtomicBool>,
    id: String,
    profile: &'static dyn ServerProfile,
    pool: Arc<Pool>,
    /// The result column types learned per statement shape by the database's sessions.
    row_types: Arc<RowTypes>,
    /// Whether the schema is fixed ([`Connection::schema_fixed`]): `row_types` serve then.
    schema_fixed: bool,
}

/// Result column types by statement shape (`row_types::key`: a write's `RETURNING` list of
/// its table's columns by table and list), shared by a database's sessions: with the schema
/// fixed, statements of one shape return columns of the same types, so only the first of them
/// any session runs is prepared to learn them (a second round trip, and a parse and analysis
/// on the server). Locked only to look up and to add, never across a round trip.
pub(super) type RowTypes = Mutex<HashMap<String, Vec<Type>>>;

impl PgConnection {
    /// Runs the session `setup` statements on `pooled` and wraps it, its notices going to
    /// `hook`: the statements, and the question for its backend id the first time the session
    /// is used, go in one round trip; where that fails, one by one, so that the error names its
    /// statement.
    pub(super) fn new(
        mut pooled: Pooled,
        hook: Option<Arc<dyn LockWaitHook>>,
        setup: &[String],
        profile: &'static dyn ServerProfile,
        pool: Arc<Pool>,
        row_types: Arc<RowTypes>,
    ) -> Result<Self, (String, postgres::Error)> {
        let known = pooled.id.clone();
        let batch: Vec<&str> = (setup.iter().map(String::as_str))
            .chain(known.is_none().then(|| profile.session_id_query()))
            .collect();
        let client = &mut pooled.client;
        let asked = client
            .simple_query(&batch.join("; "))
            .ok()
            .and_then(|messages| {
                known.or_else(|| {
                    messages.iter().rev().find_map(|m| match m {
                        SimpleQueryMessage::Row(row) => row.get(0).map(str::to_string),
                        _ => None,
                    })
                })
            });
        let id = match asked {
            Some(id) => id,
            None => {
                for sql in setup {
                    (client.batch_execute(sql))
                        .map_err(|e| (format!("configuring a session ({sql})"), e))?;
                }
                (client.query_one(profile.session_id_query(), &[]))
                    .map_err(|e| ("asking the session's id".to_string(), e))?
                    .get(0)
            }
        };
        pooled.id = Some(id.clone());
        pooled.notices.route_to(hook);
        Ok(PgConnection {
            pooled: Some(pooled),
            cancelled: Arc::new(AtomicBool::new(false)),
            id,
            profile,
            pool,
            row_types,
            schema_fixed: false,
        })
    }

    fn client(&mut self) -> &mut Client {
        &mut (self.pooled.as_mut())
            .expect("the client is only taken when the connection is dropped")
            .client
    }
}

impl Drop for PgConnection {
    fn drop(&mut self) {
        if let Some(pooled) = self.pooled.take() {
            if !self.cancelled.load(Ordering::SeqCst) {
                self.pool.give(pooled);
            }
        }
    }
}

/// Runs `sql` with the simple-query protocol: its rows (as text) and row count. When it
/// returns rows, their column types come from preparing it afterwards, so every column type
/// reads back the same way; a statement without rows (transaction control, DDL, a write
/// without `RETURNING`) costs one round trip, not two. A string that returned rows but cannot
/// be prepared (several commands) fails with the preparation's error, as it did when it was
/// prepared first.
/// With `known`, the types of statements of a shape seen before come from there, and those
/// learned are kept there.
pub(super) fn run(
    client: &mut Client,
    sql: &str,
    known: Option<&RowTypes>,
) -> Result<Outcome, postgres::Error> {
    let mut answer = Answer::default();
    for message in client.simple_query(sql)? {
        answer.take(message);
    }
    let Some(known) = known else {
        return answer.outcome(client, sql);
    };
    let known = || known.lock().unwrap_or_else(|p| p.into_inner());
    if StmtKind::of(sql) == StmtKind::Other {
        // Perhaps DDL: what was learned may no longer hold.
        known().clear();
    }
    if answer.columns.is_none() {
        return answer.outcome(client, sql);
    }
    let key = super::row_types::key(sql);
    let types = known().get(&key).cloned();
    match (types, &answer.columns) {
        (Some(types), Some(columns)) if types.len() == columns.len() => {
            let rows = answer.rows(&types);
            let columns = answer.columns.take().unwrap_or_default();
            Ok(Outcome::Rows { columns, rows })
        }
        _ => {
            let (outcome, types) = answer.outcome_typed(client, sql)?;
            known().extend(types.map(|t| (key, t)));
            Ok(outcome)
        }
    }
}

/// What the server sent back for a simple query, or for one statement of it.
#[derive(Default)]
struct Answer {
    /// The columns, if it returned rows.
    columns: Option<Vec<String>>,
    /// The rows, as text.
    texts: Vec<Vec<Option<String>>>,
    /// The row count its command tag gave.
    count: u64,
}

impl Answer {
    /// Adds `message` to the answer.
    fn take(&mut self, message: SimpleQueryMessage) {
        match message {
            SimpleQueryMessage::RowDescription(described) => {
                self.columns = Some(described.iter().map(|c| c.name().to_string()).collect());
            }
            SimpleQueryMessage::Row(row) => self.texts.push(
                (0..row.len())
                    .map(|i| row.get(i).map(str::to_string))
                    .collect(),
            ),
            SimpleQueryMessage::CommandComplete(n) => self.count = n,
            _ => {}
        }
    }

    /// The outcome of `sql`, which gave this answer; rows are typed by preparing `sql`.
    fn outcome(self, client: &mut Client, sql: &str) -> Result<Outcome, postgres::Error> {
        Ok(self.outcome_typed(client, sql)?.0)
    }

    /// [`Answer::outcome`], and the column types the preparation gave, if it ran and matched
    /// the answer's columns.
    fn outcome_typed(
        mut self,
        client: &mut Client,
        sql: &str,
    ) -> Result<(Outcome, Option<Vec<Type>>), postgres::Error> {
        let Some(columns) = self.columns.take() else {
            let outcome = if StmtKind::of(sql).is_write() {
                Outcome::Affected { count: self.count }
            } else {
                Outcome::Ok
            };
            return Ok((outcome, None));
        };
        let statement = client.prepare(sql)?;
        let prepared = (statement.columns().len() == columns.len()).then(|| {
            (statement.columns().iter())
                .map(|c| c.type_().clone())
                .collect::<Vec<Type>>()
        });
        let types = (prepared.clone()).unwrap_or_else(|| vec![Type::TEXT; columns.len()]);
        let rows = self.rows(&types);
        Ok((Outcome::Rows { columns, rows }, prepared))
    }

    /// The rows, their columns of types `types`.
    fn rows(&self, types: &[Type]) -> Vec<Row> {
        (self.texts.iter())
            .map(|row| {
                (row.iter().zip(types))
                    .map(|(text, ty)| value(text.as_deref(), ty))
                    .collect()
            })
            .collect()
    }
}

/// The answers of a simple query of several statements, one per statement (each ends with
/// its command tag).
fn answers(messages: Vec<SimpleQueryMessage>) -> Vec<Answer> {
    let mut answers = vec![Answer::default()];
    for message in messages {
        let complete = matches!(message, SimpleQueryMessage::CommandComplete(_));
        if let Some(answer) = answers.last_mut() {
            answer.take(message);
        }
        if complete {
            answers.push(Answer::default());
        }
    }
    answers.pop();
    answers
}

/// The commands a setup batch ([`run_batch`]) may hold: a `SET` of a transaction that
/// commits lasts the session.
const SETUP_COMMANDS: &[&str] = &["CREATE", "INSERT", "SET"];

/// The commands a batch of questions ([`Connection::execute_all`]) may hold: reads and writes
/// of the session's own tables, which see in one transaction what they see one by one, as
/// no other session writes them.
const QUESTION_COMMANDS: &[&str] = &["SELECT", "INSERT", "UPDATE", "DELETE"];

/// Runs statements `sqls` as one simple query, one round trip, if each is a single command
/// (no `;` in it) of `commands` (by its first word): the query runs as one implicit
/// transaction, so where every statement succeeds each did what it does alone in autocommit
/// mode. `None` when they are not such commands, or one failed (the server then rolled all of
/// them back, and they are to run one by one).
fn run_batch(
    client: &mut Client,
    sqls: &[&str],
    commands: &[&str],
    profile: &dyn ServerProfile,
) -> Option<Vec<Outcome>> {
    let single_command = |sql: &&str| {
        let first = sql.split_whitespace().next().unwrap_or("");
        !sql.contains(';') && commands.iter().any(|word| first.eq_ignore_ascii_case(word))
    };
    if sqls.len() < 2 || !sqls.iter().all(single_command) {
        return None;
    }
    let answers = answers(client.simple_query(&sqls.join("\n;\n")).ok()?);
    if answers.len() != sqls.len() {
        tracing::error!(
            "a batch of {} statements answered {}: its outcomes are not known one by one",
            sqls.len(),
            answers.len()
        );
    }
    let mut answers = answers.into_iter();
    let outcomes = (sqls.iter())
        .map(|sql| match answers.next() {
            Some(answer) => {
                (answer.outcome(client, sql)).unwrap_or_else(|e| Outcome::Error(error(&e, profile)))
            }
            None => Outcome::Error(DbError {
                class: ErrorClass::Other,
                code: None,
                message: "the batch sent no answer for this statement".into(),
            }),
        })
        .collect();
    Some(outcomes)
}

/// A driver error as a [`DbError`].
pub(super) fn error(e: &postgres::Error, profile: &dyn ServerProfile) -> DbError {
    match e.as_db_error() {
        Some(db) => DbError {
            class: profile.classify(db.code().code(), db.message()),
            code: Some(db.code().code().to_string()),
            message: db.message().to_string(),
        },
        None => DbError {
            class: ErrorClass::Connection,
            code: None,
            message: with_causes(e),
        },
    }
}

/// A driver error as a sentence: the server's message with its SQLSTATE, detail and hint
/// (e.g. `database "x" does not exist (SQLSTATE 3D000)`), or the error and its causes (e.g.
/// `error connecting to server: Connection refused (os error 111)`).
pub(super) fn describe(e: &postgres::Error) -> String {
    let Some(db) = e.as_db_error() else {
        return with_causes(e);
    };
    let mut text = format!("{} (SQLSTATE {})", db.message(), db.code().code());
    if let Some(detail) = db.detail() {
        text.push_str(&format!("; detail: {detail}"));
    }
    if let Some(hint) = db.hint() {
        text.push_str(&format!("; hint: {hint}"));
    }
    text
}

impl Connection for PgConnection {
    fn execute(&mut self, sql: &str) -> Outcome {
        let profile = self.profile;
        let pooled = (self.pooled.as_mut())
            .expect("the client is only taken when the connection is dropped");
        let known = self.schema_fixed.then_some(&*self.row_types);
        run(&mut pooled.client, sql, known).unwrap_or_else(|e| Outcome::Error(error(&e, profile)))
    }

    /// In one round trip where [`run_batch`] can (each a single read or write, all of which
    /// succeed), else one by one: after a failure the batch left nothing behind, and its
    /// statements run again alone, up to the one that fails.
    fn execute_all(&mut self, sqls: &[&str]) -> Vec<Outcome> {
        let profile = self.profile;
        match run_batch(self.client(), sqls, QUESTION_COMMANDS, profile) {
            Some(outcomes) => outcomes,
            None => one_by_one_until_failure(self, sqls),
        }
    }

    /// In one round trip where [`run_batch`] can, else one by one.
    fn execute_setup(&mut self, sqls: &[&str]) -> Vec<Outcome> {
        let profile = self.profile;
        run_batch(self.client(), sqls, SETUP_COMMANDS, profile)
            .unwrap_or_else(|| sqls.iter().map(|sql| self.execute(sql)).collect())
    }

    fn in_transaction(&mut self) -> Option<bool> {
        let query = self.profile.in_transaction_query()?;
        let row = self.client().query_one(query, &[]).ok()?;
        row.try_get::<_, bool>(0).ok()
    }

    fn interrupter(&self) -> Arc<dyn Interrupt> {
        Arc::new(Cancel {
            token: self.pooled.as_ref().map(|p| p.client.cancel_token()),
            cancelled: Arc::clone(&self.cancelled),
        })
    }

    fn session_id(&self) -> Option<String> {
        Some(self.id.clone())
    }

    fn schema_fixed(&mut self) {
        self.schema_fixed = true;
    }
}

/// Cancels a session's statement with the protocol's cancel request.
struct Cancel {
    token: Option<CancelToken>,
    cancelled: Arc<AtomicBool>,
}

impl Interrupt for Cancel {
    fn interrupt(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        if let Some(Err(e)) = self.token.as_ref().map(|t| t.cancel_query(NoTls)) {
            tracing::debug!("cancel request failed: {}", describe(&e));
        }
    }
}

/// The question [`dump`] asks first: every user table of schema `schema` (as named, unquoted)
/// and its columns' types. Ordered by relation, each relation of the schema (a table, a view,
/// a sequence) has a row of its own first (its name if it is a table, else none; no type; its
/// oid; 0), then a row per column (no name; the type's oid; the relation's oid; the column's
/// number), in order. A table with no columns is thus listed too.
///
/// The catalog changes with every execution's schema, and creating or dropping a schema has
/// PostgreSQL plan every query again, so what costs is planning: this form plans in about
/// 0.17 ms, a join of `pg_class`, `pg_namespace` and `pg_attribute` in 0.6 (measured). The
/// schema's relations come from `pg_depend` by its index, and each table by its oid: a scan
/// of `pg_class` meets the dead rows of every dropped schema (the planner picks one for
/// `oid = ANY (…)`).
fn columns_query(schema: &str) -> String {
    let objects = format!(
        "FROM pg_catalog.pg_depend WHERE refclassid = 'pg_catalog.pg_namespace'::regclass \
         AND refobjid = quote_ident('{}')::regnamespace::oid AND refobjsubid = 0 \
         AND classid = 'pg_catalog.pg_class'::regclass",
        schema.replace('\'', "''")
    );
    format!(
        "SELECT (SELECT relname FROM pg_catalog.pg_class WHERE oid = objid \
         AND relkind IN ('r', 'p')), NULL, objid, 0 {objects} \
         UNION ALL SELECT NULL, atttypid, attrelid, attnum FROM pg_catalog.pg_attribute \
         WHERE attrelid = ANY (ARRAY(SELECT objid {objects})) AND attnum > 0 \
         AND NOT attisdropped ORDER BY 3, 4"
    )
}

/// The tables of [`columns_query`]'s answer `messages`, in its order, each with its columns'
/// types (a type the driver does not know reads as text).
fn tables_of(messages: Vec<SimpleQueryMessage>) -> Vec<(String, Vec<Type>)> {
    // A column belongs to the table whose row came last, if it is its table's: the columns
    // of a view or a sequence follow their relation's row, which names no table.
    let mut tables: Vec<(String, String, Vec<Type>)> = Vec::new();
    for message in messages {
        let SimpleQueryMessage::Row(row) = message else {
            continue;
        };
        let (name, oid, Some(relation)) = (row.get(0), row.get(1), row.get(2)) else {
            continue;
        };
        match (name, oid) {
            (Some(name), _) => tables.push((name.to_string(), relation.to_string(), Vec::new())),
            (None, Some(oid)) => {
                if let Some((_, _, types)) = tables.last_mut().filter(|(_, of, _)| of == relation) {
                    let ty = oid.parse().ok().and_then(Type::from_oid);
                    types.push(ty.unwrap_or(Type::TEXT));
                }
            }
            (None, None) => {}
        }
    }
    tables
        .into_iter()
        .map(|(name, _, types)| (name, types))
        .collect()
}

/// Every user table's rows in schema `schema`, read on `client` in two round trips: the
/// tables with their column types, then all their rows (one simple query, a statement per
/// table). The types read their text values as [`run`]'s preparation would.
pub(super) fn dump(
    client: &mut Client,
    profile: &dyn ServerProfile,
    schema: &str,
) -> Result<DbState, TargetError> {
    let failed = |e: postgres::Error| TargetError::db("reading the final state", describe(&e));
    let tables = tables_of(
        client
            .simple_query(&columns_query(schema))
            .map_err(failed)?,
    );
    let mut state = DbState::new();
    if tables.is_empty() {
        return Ok(state);
    }
    let schema = profile.quote_ident(schema);
    let reads: Vec<String> = (tables.iter())
        .map(|(table, _)| format!("SELECT * FROM {schema}.{}", profile.quote_ident(table)))
        .collect();
    let read = client.simple_query(&reads.join("; ")).map_err(failed)?;
    let mut answers = answers(read).into_iter();
    for (table, types) in tables {
        // The server answers every statement of a simple query that succeeded: a table
        // missing from the state would pass for one the run dropped.
        let mut answer = answers.next().ok_or_else(|| {
            TargetError::db(
                "reading the final state",
                format!("the server sent no answer for table {table}"),
            )
        })?;
        let columns = answer.columns.take().unwrap_or_default();
        state.insert_visible(&table, &columns, answer.rows(&types));
    }
    Ok(state)
}
