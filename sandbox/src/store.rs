//! The database: SQLite (bundled, so nothing to install), one connection, every request one
//! transaction. Resources are JSON documents in the shape the API answers them, keyed by kind
//! and id, ordered within a list scope (the organization, collection, space… whose list they
//! belong to), so handlers read as the documents' rules and not as SQL.
//!
//! Why one connection: SQLite serializes writers anyway; one connection makes every
//! transaction see the previous one's writes, so concurrent requests never lose a write and
//! never meet `SQLITE_BUSY`. A file database uses WAL, so a crash loses nothing committed.
//!
//! Where SQLite runs: on a thread of its own, never on the async workers. Handlers call
//! [`Store::read_async`] and [`Store::write_async`], which send the transaction to the
//! database thread and await its answer, so a worker blocked on SQLite never stalls the
//! other connections it serves. A dedicated thread rather than `spawn_blocking`: with one
//! connection the transactions run one at a time anyway, and one thread taking them from a
//! queue in arrival order does that without a pool of blocked threads contending for a lock.
//! The connection sits behind a mutex only so that the blocking [`Store::read`] and
//! [`Store::write`] (startup, tests, tools; never a handler) can run a transaction on the
//! caller's thread; in service only the database thread takes it. A transaction that panics
//! is rolled back and answered as a 500; the thread goes on.

use crate::clock::Clock;
use apigen_runtime::server::ApiError;
use apigen_runtime::{FromJson, Mode, Page, PageNext};
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::Value;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS resources (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    org TEXT NOT NULL,
    scope TEXT NOT NULL,
    seq INTEGER NOT NULL,
    deleted_at TEXT,
    data TEXT NOT NULL,
    -- What counters count by, kept by SQLite on every write: a change request once merged,
    -- otherwise the document's `status`.
    state TEXT GENERATED ALWAYS AS (
        CASE WHEN json_extract(data, '$.revisionMerged') IS NOT NULL THEN 'merged' ELSE json_extract(data, '$.status') END
    ) STORED,
    PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS resources_by_scope ON resources (kind, scope, seq);
CREATE INDEX IF NOT EXISTS resources_by_state ON resources (kind, scope, state);
CREATE TABLE IF NOT EXISTS tokens (token TEXT PRIMARY KEY, user_id TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5 (org UNINDEXED, kind UNINDEXED, id UNINDEXED, title, body);
CREATE TABLE IF NOT EXISTS search_rows (kind TEXT NOT NULL, id TEXT NOT NULL, row INTEGER NOT NULL, PRIMARY KEY (kind, id));
";

/// How long a transaction waits for another process holding the database file's write lock
/// (a second sandbox on the same `--db`, loading its demo data) before it fails.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Switches a file database to WAL. Two processes opening one new file at once may both try:
/// SQLite answers the one that cannot take the lock with `SQLITE_BUSY` at once, without
/// waiting (its busy handler is skipped where waiting could deadlock), so this waits and
/// tries again, within [`BUSY_TIMEOUT`].
fn use_wal(conn: &Connection) -> Result<(), rusqlite::Error> {
    let started = std::time::Instant::now();
    loop {
        match conn.pragma_update(None, "journal_mode", "WAL") {
            Err(rusqlite::Error::SqliteFailure(error, _))
                if error.code == rusqlite::ErrorCode::DatabaseBusy && started.elapsed() < BUSY_TIMEOUT =>
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            other => return other,
        }
    }
}

/// Creates what a new database lacks and answers its instance id, in one transaction, so two
/// processes opening one new file at once make one schema and one instance id.
fn prepare(conn: &mut Connection) -> Result<String, rusqlite::Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch(SCHEMA)?;
    let stored: Option<String> =
        tx.query_row("SELECT value FROM meta WHERE key = 'instance'", [], |r| r.get(0)).optional()?;
    let instance = match stored {
        Some(instance) => instance,
        None => {
            let instance = crate::random_token(8);
            tx.execute("INSERT INTO meta (key, value) VALUES ('instance', ?1)", [&instance])?;
            instance
        }
    };
    tx.commit()?;
    Ok(instance)
}

/// The database and the clock every transaction reads its `now` from.
pub struct Store {
    shared: Arc<Shared>,
    /// The queue of the database thread, which ends when the store is dropped.
    jobs: mpsc::Sender<Job>,
}

/// What the database thread and the blocking entry points share.
struct Shared {
    conn: Mutex<Connection>,
    clock: Clock,
    /// A random id of this database, part of every page cursor: a cursor from another
    /// database (a restarted in-memory sandbox) is refused instead of read wrongly.
    instance: String,
}

/// A transaction sent to the database thread.
type Job = Box<dyn FnOnce(&Shared) + Send>;

/// Why a database could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// SQLite refused the file or the schema.
    Database(rusqlite::Error),
    /// The database thread could not start.
    Thread(std::io::Error),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Database(error) => write!(f, "{error}"),
            OpenError::Thread(error) => write!(f, "cannot start the database thread: {error}"),
        }
    }
}

impl std::error::Error for OpenError {}

impl From<rusqlite::Error> for OpenError {
    fn from(error: rusqlite::Error) -> OpenError {
        OpenError::Database(error)
    }
}

/// A stored resource.
#[derive(Debug, Clone)]
pub struct Row {
    /// The resource's id.
    pub id: String,
    /// The organization it belongs to.
    pub org: String,
    /// The list it belongs to.
    pub scope: String,
    /// When it was deleted, for kinds that are deleted softly.
    pub deleted_at: Option<String>,
    /// Its JSON, as the API answers it.
    pub data: Value,
}

/// A condition on a stored document, by SQLite JSON path (`$.status`).
#[derive(Debug, Clone, Copy)]
pub enum Where<'a> {
    /// The value at the path is this string.
    Is(&'a str, &'a str),
    /// The value at the path is not this string (or is absent).
    IsNot(&'a str, &'a str),
    /// The value at the path is one of these strings.
    OneOf(&'a str, &'a [String]),
}

/// Where to put a resource among its siblings.
#[derive(Debug, Clone)]
pub enum Place {
    /// Last.
    End,
    /// Just before the sibling with this id.
    Before(String),
    /// Just after the sibling with this id.
    After(String),
}

impl Store {
    /// Opens (creating) the database at `path`, or an in-memory one, and starts its thread.
    pub fn open(path: Option<&Path>, clock: Clock) -> Result<Store, OpenError> {
        let mut conn = match path {
            Some(path) => {
                let conn = Connection::open(path)?;
                conn.busy_timeout(BUSY_TIMEOUT)?;
                use_wal(&conn)?;
                conn.pragma_update(None, "synchronous", "NORMAL")?;
                conn
            }
            None => Connection::open_in_memory()?,
        };
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let instance = prepare(&mut conn)?;
        let shared = Arc::new(Shared { conn: Mutex::new(conn), clock, instance });
        let (jobs, queue) = mpsc::channel::<Job>();
        let worker = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("sandbox-database".to_owned())
            .spawn(move || {
                for job in queue {
                    job(&worker);
                }
            })
            .map_err(OpenError::Thread)?;
        Ok(Store { shared, jobs })
    }

    /// The clock (tests move it).
    pub fn clock(&self) -> &Clock {
        &self.shared.clock
    }

    /// Runs `work` in one write transaction on the database thread: committed when it
    /// returns `Ok`, rolled back otherwise, so a refused request changes nothing.
    pub async fn write_async<R: Send + 'static>(
        &self,
        work: impl FnOnce(&Tx) -> Result<R, ApiError> + Send + 'static,
    ) -> Result<R, ApiError> {
        self.on_thread(TransactionBehavior::Immediate, work).await
    }

    /// Runs `work` in one read transaction (a consistent view) on the database thread.
    pub async fn read_async<R: Send + 'static>(
        &self,
        work: impl FnOnce(&Tx) -> Result<R, ApiError> + Send + 'static,
    ) -> Result<R, ApiError> {
        self.on_thread(TransactionBehavior::Deferred, work).await
    }

    /// Like [`Store::write_async`], on the calling thread, which waits for the database: for
    /// startup, tests and tools, never for a handler.
    pub fn write<R>(&self, work: impl FnOnce(&Tx) -> Result<R, ApiError>) -> Result<R, ApiError> {
        self.shared.transaction(TransactionBehavior::Immediate, work)
    }

    /// Like [`Store::read_async`], on the calling thread (see [`Store::write`]).
    pub fn read<R>(&self, work: impl FnOnce(&Tx) -> Result<R, ApiError>) -> Result<R, ApiError> {
        self.shared.transaction(TransactionBehavior::Deferred, work)
    }

    /// Begins a batch: one transaction that every transaction of this store joins, as a
    /// savepoint, until [`Batch::commit`]. It begins with `BEGIN IMMEDIATE`, so another
    /// process on the same file waits until it ends (and then sees all of it or nothing);
    /// dropped without a commit, or the process killed, it leaves nothing. For a data set
    /// loaded through the router at startup, before the store serves anyone else: a request
    /// served meanwhile would join the batch.
    pub fn begin_batch(&self) -> Result<Batch<'_>, ApiError> {
        self.shared.lock().execute_batch("BEGIN IMMEDIATE").map_err(db_error)?;
        Ok(Batch { store: self, open: true })
    }

    async fn on_thread<R: Send + 'static>(
        &self,
        behavior: TransactionBehavior,
        work: impl FnOnce(&Tx) -> Result<R, ApiError> + Send + 'static,
    ) -> Result<R, ApiError> {
        let stopped = || ApiError::internal("database: its thread has stopped");
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |shared| {
            let result = catch_unwind(AssertUnwindSafe(|| shared.transaction(behavior, work)))
                .unwrap_or_else(|_| Err(ApiError::internal("database: the transaction panicked and was rolled back")));
            // The caller may have gone (its connection closed): the answer is then dropped.
            let _ = reply.send(result);
        });
        self.jobs.send(job).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

impl Shared {
    fn transaction<R>(
        &self,
        behavior: TransactionBehavior,
        work: impl FnOnce(&Tx) -> Result<R, ApiError>,
    ) -> Result<R, ApiError> {
        let mut conn = self.lock();
        if conn.is_autocommit() {
            let tx = conn.transaction_with_behavior(behavior).map_err(db_error)?;
            let result = work(&Tx { tx: &tx, now: self.clock.now(), instance: &self.instance })?;
            tx.commit().map_err(db_error)?;
            Ok(result)
        } else {
            // Inside a batch: a savepoint, released into the batch or rolled back alone.
            let savepoint = conn.savepoint().map_err(db_error)?;
            let result = work(&Tx { tx: &savepoint, now: self.clock.now(), instance: &self.instance })?;
            savepoint.commit().map_err(db_error)?;
            Ok(result)
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic in another transaction poisons the mutex, not the database: SQLite rolled
        // the unfinished transaction back when its guard dropped.
        self.conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A batch of transactions committed as one (see [`Store::begin_batch`]).
pub struct Batch<'s> {
    store: &'s Store,
    open: bool,
}

impl Batch<'_> {
    /// Commits everything the batch's transactions wrote.
    pub fn commit(mut self) -> Result<(), ApiError> {
        self.store.shared.lock().execute_batch("COMMIT").map_err(db_error)?;
        // Only now: a commit that failed leaves the batch to be rolled back when dropped.
        self.open = false;
        Ok(())
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        let conn = self.store.shared.lock();
        if self.open && !conn.is_autocommit() {
            // Nothing to report to: a failed rollback leaves the transaction to SQLite, which
            // discards it when the connection closes.
            let _ = conn.execute_batch("ROLLBACK");
        }
    }
}

/// One transaction and the time it runs at.
pub struct Tx<'a> {
    /// The connection, inside the transaction (or the savepoint of a batch).
    tx: &'a Connection,
    now: DateTime<Utc>,
    instance: &'a str,
}

/// An unexpected database failure: a 500 naming it.
pub fn db_error(error: rusqlite::Error) -> ApiError {
    ApiError::internal(format!("database: {error}"))
}

/// Decodes a stored document as the API type it was written from.
pub fn decode<T: FromJson>(kind: &str, data: Value) -> Result<T, ApiError> {
    apigen_runtime::json::decode(data, Mode::Lenient)
        .map_err(|error| ApiError::internal(format!("stored {kind} does not decode: {error}")))
}

/// The JSON of an API value.
pub fn encode<T: apigen_runtime::serde::Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A [`Row`] from the columns `id, org, scope, deleted_at, data` of a query.
fn row_of(r: &rusqlite::Row) -> rusqlite::Result<Row> {
    Ok(Row {
        id: r.get(0)?,
        org: r.get(1)?,
        scope: r.get(2)?,
        deleted_at: r.get(3)?,
        data: parse(&r.get::<_, String>(4)?),
    })
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

impl Tx<'_> {
    /// The time of this transaction.
    pub fn now(&self) -> DateTime<Utc> {
        self.now
    }

    /// A new id: `prefix` and a number never used before in this database.
    pub fn new_id(&self, prefix: &str) -> Result<String, ApiError> {
        let value: i64 = self
            .tx
            .query_row(
                "INSERT INTO counters (name, value) VALUES (?1, 1)
                 ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value",
                [prefix],
                |r| r.get(0),
            )
            .map_err(db_error)?;
        Ok(format!("{prefix}_{value}"))
    }

    /// Stores a new resource last in its list.
    pub fn insert(&self, kind: &str, id: &str, org: &str, scope: &str, data: &Value) -> Result<(), ApiError> {
        let seq = self.next_seq(kind, scope)?;
        self.tx
            .execute(
                "INSERT INTO resources (kind, id, org, scope, seq, data) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![kind, id, org, scope, seq, data.to_string()],
            )
            .map_err(|error| match error {
                rusqlite::Error::SqliteFailure(e, _) if e.code == rusqlite::ErrorCode::ConstraintViolation => {
                    ApiError::conflict(format!("{kind} {id} already exists"))
                }
                other => db_error(other),
            })?;
        Ok(())
    }

    fn next_seq(&self, kind: &str, scope: &str) -> Result<i64, ApiError> {
        self.tx
            .query_row(
                "SELECT COALESCE(MAX(seq), 0) + 1024 FROM resources WHERE kind = ?1 AND scope = ?2",
                params![kind, scope],
                |r| r.get(0),
            )
            .map_err(db_error)
    }

    /// A resource, deleted or not.
    pub fn row(&self, kind: &str, id: &str) -> Result<Option<Row>, ApiError> {
        self.tx
            .query_row(
                "SELECT id, org, scope, deleted_at, data FROM resources WHERE kind = ?1 AND id = ?2",
                params![kind, id],
                row_of,
            )
            .optional()
            .map_err(db_error)
    }

    /// A resource that is not deleted, or a 404 naming it.
    pub fn live(&self, kind: &str, id: &str) -> Result<Row, ApiError> {
        match self.row(kind, id)? {
            Some(row) if row.deleted_at.is_none() => Ok(row),
            _ => Err(ApiError::not_found(format!("no {kind} with id {id}"))),
        }
    }

    /// A live resource decoded as its API type, or a 404.
    pub fn get<T: FromJson>(&self, kind: &str, id: &str) -> Result<T, ApiError> {
        decode(kind, self.live(kind, id)?.data)
    }

    /// Replaces a resource's document.
    pub fn put(&self, kind: &str, id: &str, data: &Value) -> Result<(), ApiError> {
        self.tx
            .execute("UPDATE resources SET data = ?3 WHERE kind = ?1 AND id = ?2", params![kind, id, data.to_string()])
            .map_err(db_error)?;
        Ok(())
    }

    /// Changes a resource's document with `change` and answers the new document.
    pub fn modify(&self, kind: &str, id: &str, change: impl FnOnce(&mut Value)) -> Result<Value, ApiError> {
        let mut data = self.live(kind, id)?.data;
        change(&mut data);
        self.put(kind, id, &data)?;
        Ok(data)
    }

    /// Marks a resource deleted (it leaves its list, and [`Tx::live`] no longer finds it).
    pub fn soft_delete(&self, kind: &str, id: &str, at: Option<&str>) -> Result<(), ApiError> {
        self.tx
            .execute("UPDATE resources SET deleted_at = ?3 WHERE kind = ?1 AND id = ?2", params![kind, id, at])
            .map_err(db_error)?;
        Ok(())
    }

    /// Removes a resource for good; `false` when there was none.
    pub fn delete(&self, kind: &str, id: &str) -> Result<bool, ApiError> {
        let removed = self
            .tx
            .execute("DELETE FROM resources WHERE kind = ?1 AND id = ?2", params![kind, id])
            .map_err(db_error)?;
        self.unindex(kind, id)?;
        Ok(removed > 0)
    }

    /// Removes every resource of a kind in a scope (the children of a removed parent).
    pub fn delete_scope(&self, kind: &str, scope: &str) -> Result<usize, ApiError> {
        self.tx.execute("DELETE FROM resources WHERE kind = ?1 AND scope = ?2", params![kind, scope]).map_err(db_error)
    }

    /// Moves a resource to another list and organization, last in it.
    pub fn rehome(&self, kind: &str, id: &str, org: &str, scope: &str) -> Result<(), ApiError> {
        let seq = self.next_seq(kind, scope)?;
        self.tx
            .execute(
                "UPDATE resources SET org = ?3, scope = ?4, seq = ?5 WHERE kind = ?1 AND id = ?2",
                params![kind, id, org, scope, seq],
            )
            .map_err(db_error)?;
        Ok(())
    }

    /// Puts a resource at `place` among the others of its scope (a sibling named by `place`
    /// must be in that scope: otherwise a 400 naming it).
    pub fn place(&self, kind: &str, id: &str, place: &Place) -> Result<(), ApiError> {
        let row = self.row(kind, id)?.ok_or_else(|| ApiError::not_found(format!("no {kind} with id {id}")))?;
        let mut ids: Vec<String> = self.ids_in(kind, &row.scope)?.into_iter().filter(|other| other != id).collect();
        let index = match place {
            Place::End => ids.len(),
            Place::Before(sibling) | Place::After(sibling) => {
                let Some(at) = ids.iter().position(|other| other == sibling) else {
                    return Err(ApiError::bad_request(format!("{sibling} is not a sibling of {id}")));
                };
                if matches!(place, Place::After(_)) { at + 1 } else { at }
            }
        };
        ids.insert(index, id.to_owned());
        for (seq, each) in ids.iter().enumerate() {
            self.tx
                .execute(
                    "UPDATE resources SET seq = ?3 WHERE kind = ?1 AND id = ?2",
                    params![kind, each, (seq as i64 + 1) * 1024],
                )
                .map_err(db_error)?;
        }
        Ok(())
    }

    /// The ids of a scope's resources in order, deleted ones included.
    pub fn ids_in(&self, kind: &str, scope: &str) -> Result<Vec<String>, ApiError> {
        let mut statement = self
            .tx
            .prepare_cached("SELECT id FROM resources WHERE kind = ?1 AND scope = ?2 ORDER BY seq, id")
            .map_err(db_error)?;
        let rows = statement.query_map(params![kind, scope], |r| r.get(0)).map_err(db_error)?;
        rows.collect::<Result<_, _>>().map_err(db_error)
    }

    /// The live resources of a scope, in order.
    pub fn all(&self, kind: &str, scope: &str) -> Result<Vec<Row>, ApiError> {
        let mut statement = self
            .tx
            .prepare_cached(
                "SELECT id, org, scope, deleted_at, data, seq FROM resources
                 WHERE kind = ?1 AND scope = ?2 AND deleted_at IS NULL ORDER BY seq, id",
            )
            .map_err(db_error)?;
        let rows = statement.query_map(params![kind, scope], row_of).map_err(db_error)?;
        rows.collect::<Result<_, _>>().map_err(db_error)
    }

    /// The live resources of a kind in every scope of an organization, in order.
    pub fn all_in_org(&self, kind: &str, org: &str) -> Result<Vec<Row>, ApiError> {
        let mut statement = self
            .tx
            .prepare_cached(
                "SELECT id, org, scope, deleted_at, data FROM resources
                 WHERE kind = ?1 AND org = ?2 AND deleted_at IS NULL ORDER BY scope, seq, id",
            )
            .map_err(db_error)?;
        let rows = statement.query_map(params![kind, org], row_of).map_err(db_error)?;
        rows.collect::<Result<_, _>>().map_err(db_error)
    }

    /// The `WHERE` clause of the live resources of a scope meeting `conditions`, and its
    /// parameters.
    fn filter<'q>(kind: &'q str, scope: &'q str, conditions: &[Where<'q>]) -> (String, Vec<&'q str>) {
        let mut sql = String::from("kind = ?1 AND scope = ?2 AND deleted_at IS NULL");
        let mut values: Vec<&str> = vec![kind, scope];
        for condition in conditions {
            let (path, operator, operands): (&str, &str, Vec<&str>) = match *condition {
                Where::Is(path, value) => (path, "IS", vec![value]),
                Where::IsNot(path, value) => (path, "IS NOT", vec![value]),
                Where::OneOf(path, options) => (path, "IN", options.iter().map(String::as_str).collect()),
            };
            values.push(path);
            sql.push_str(&format!(" AND json_extract(data, ?{}) {operator} ", values.len()));
            let placeholders: Vec<String> = operands
                .into_iter()
                .map(|operand| {
                    values.push(operand);
                    format!("?{}", values.len())
                })
                .collect();
            sql.push_str(&format!("({})", placeholders.join(", ")));
        }
        (sql, values)
    }

    /// The number of live resources of a scope whose documents meet every condition,
    /// counted by SQLite without reading the documents.
    pub fn count_where(&self, kind: &str, scope: &str, conditions: &[Where]) -> Result<i64, ApiError> {
        let (filter, values) = Self::filter(kind, scope, conditions);
        let sql = format!("SELECT COUNT(*) FROM resources WHERE {filter}");
        self.tx.query_row(&sql, rusqlite::params_from_iter(values), |r| r.get(0)).map_err(db_error)
    }

    /// A page of the live resources of a scope meeting `conditions`, in list order (newest
    /// first when `newest_first`), read by SQLite: only the page's documents are parsed, so
    /// reading a page costs the same however long the list is. `list` names the list and its
    /// filters for the cursor, as in [`Tx::paginate`].
    pub fn page_where<T: FromJson>(
        &self,
        kind: &str,
        scope: &str,
        conditions: &[Where],
        newest_first: bool,
        (list, page, limit): (&str, Option<&str>, i64),
    ) -> Result<Page<T>, ApiError> {
        let count = self.count_where(kind, scope, conditions)?;
        let start = match page {
            None => 0,
            Some(cursor) => self.read_cursor(list, cursor)?,
        };
        let limit = limit.clamp(1, 1000) as usize;
        let (filter, values) = Self::filter(kind, scope, conditions);
        let order = if newest_first { "seq DESC, id DESC" } else { "seq, id" };
        let sql =
            format!("SELECT data FROM resources WHERE {filter} ORDER BY {order} LIMIT {} OFFSET {start}", limit + 1);
        let mut statement = self.tx.prepare_cached(&sql).map_err(db_error)?;
        let rows = statement
            .query_map(rusqlite::params_from_iter(values), |r| r.get::<_, String>(0))
            .map_err(db_error)?
            .collect::<Result<Vec<String>, _>>()
            .map_err(db_error)?;
        let next = (rows.len() > limit).then(|| PageNext { page: self.cursor(list, start + limit) });
        let items = rows.iter().take(limit).map(|text| decode(kind, parse(text))).collect::<Result<_, _>>()?;
        Ok(Page { next, count: Some(count), items })
    }

    /// The number of live resources of a scope in `state` (their `status`, or `merged` for
    /// a merged change request), read from an index: counters cost the same however many
    /// resources the scope holds.
    pub fn count_state(&self, kind: &str, scope: &str, state: &str) -> Result<i64, ApiError> {
        self.tx
            .query_row(
                "SELECT COUNT(*) FROM resources WHERE kind = ?1 AND scope = ?2 AND state = ?3 AND deleted_at IS NULL",
                params![kind, scope, state],
                |r| r.get(0),
            )
            .map_err(db_error)
    }

    /// The number of resources a scope has ever held that are still stored, deleted or not.
    pub fn count_all(&self, kind: &str, scope: &str) -> Result<i64, ApiError> {
        self.tx
            .query_row("SELECT COUNT(*) FROM resources WHERE kind = ?1 AND scope = ?2", params![kind, scope], |r| {
                r.get(0)
            })
            .map_err(db_error)
    }

    /// The number of live resources of a scope.
    pub fn count(&self, kind: &str, scope: &str) -> Result<i64, ApiError> {
        self.tx
            .query_row(
                "SELECT COUNT(*) FROM resources WHERE kind = ?1 AND scope = ?2 AND deleted_at IS NULL",
                params![kind, scope],
                |r| r.get(0),
            )
            .map_err(db_error)
    }

    /// A page of `items` (already filtered, in list order), read from the cursor `page` of
    /// a list named `list` (any string naming the list and its filters: a cursor from
    /// another list, or from another database, is a 400), each item of the page answered
    /// through `answer` (decoded as its API type, presented for the caller…): only the page's
    /// items are.
    pub fn paginate<T, U>(
        &self,
        list: &str,
        items: Vec<T>,
        page: Option<&str>,
        limit: i64,
        answer: impl FnMut(T) -> Result<U, ApiError>,
    ) -> Result<Page<U>, ApiError> {
        let count = items.len() as i64;
        let start = match page {
            None => 0,
            Some(cursor) => self.read_cursor(list, cursor)?,
        };
        let limit = limit.clamp(1, 1000) as usize;
        let mut items: Vec<T> = items.into_iter().skip(start).collect();
        let next = (items.len() > limit).then(|| PageNext { page: self.cursor(list, start + limit) });
        items.truncate(limit);
        let items = items.into_iter().map(answer).collect::<Result<_, _>>()?;
        Ok(Page { next, count: Some(count), items })
    }

    fn cursor(&self, list: &str, offset: usize) -> String {
        // FNV-1a of the list and the database: stable across restarts of the same file.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in list.bytes().chain([0]).chain(self.instance.bytes()) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        format!("{hash:016x}.{offset}")
    }

    fn read_cursor(&self, list: &str, cursor: &str) -> Result<usize, ApiError> {
        let refused = || {
            ApiError::bad_request(format!(
                "page cursor {cursor:?} does not belong to this list: start again without `page`"
            ))
        };
        let (_, offset) = cursor.split_once('.').ok_or_else(refused)?;
        // Bounded, so a forged offset never reaches SQLite as a number it cannot hold.
        let offset: usize = offset.parse().ok().filter(|offset| *offset <= 1 << 40).ok_or_else(refused)?;
        if self.cursor(list, offset) != cursor {
            return Err(refused());
        }
        Ok(offset)
    }

    /// Indexes a resource's text for the organization search (replacing what it had).
    pub fn index(&self, org: &str, kind: &str, id: &str, title: &str, body: &str) -> Result<(), ApiError> {
        self.unindex(kind, id)?;
        self.tx
            .execute(
                "INSERT INTO search (org, kind, id, title, body) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![org, kind, id, title, body],
            )
            .map_err(db_error)?;
        let row = self.tx.last_insert_rowid();
        self.tx
            .execute("INSERT INTO search_rows (kind, id, row) VALUES (?1, ?2, ?3)", params![kind, id, row])
            .map_err(db_error)?;
        Ok(())
    }

    /// Removes a resource's text from the search index. By the FTS row recorded for it: a
    /// full-text table finds rows by `rowid` at once, by an unindexed column only by reading
    /// them all.
    fn unindex(&self, kind: &str, id: &str) -> Result<(), ApiError> {
        let row: Option<i64> = self
            .tx
            .query_row("DELETE FROM search_rows WHERE kind = ?1 AND id = ?2 RETURNING row", params![kind, id], |r| {
                r.get(0)
            })
            .optional()
            .map_err(db_error)?;
        if let Some(row) = row {
            self.tx.execute("DELETE FROM search WHERE rowid = ?1", [row]).map_err(db_error)?;
        }
        Ok(())
    }

    /// Full-text search in an organization: `(kind, id, title)` of each match, best first.
    /// Each word of `query` is matched as a prefix; a query with no word matches nothing.
    pub fn search(&self, org: &str, query: &str) -> Result<Vec<(String, String, String)>, ApiError> {
        let words: Vec<String> = query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| format!("\"{w}\"*"))
            .collect();
        if words.is_empty() {
            return Ok(Vec::new());
        }
        let mut statement = self
            .tx
            .prepare_cached("SELECT kind, id, title FROM search WHERE search MATCH ?2 AND org = ?1 ORDER BY rank, id")
            .map_err(db_error)?;
        let rows = statement
            .query_map(params![org, words.join(" ")], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(db_error)?;
        rows.collect::<Result<_, _>>().map_err(db_error)
    }

    /// Records a token as belonging to a user.
    pub fn add_token(&self, token: &str, user: &str) -> Result<(), ApiError> {
        self.tx
            .execute("INSERT OR REPLACE INTO tokens (token, user_id) VALUES (?1, ?2)", params![token, user])
            .map_err(db_error)?;
        Ok(())
    }

    /// The user a token belongs to.
    pub fn token_user(&self, token: &str) -> Result<Option<String>, ApiError> {
        self.tx
            .query_row("SELECT user_id FROM tokens WHERE token = ?1", [token], |r| r.get(0))
            .optional()
            .map_err(db_error)
    }

    /// A value of the `meta` table.
    pub fn meta(&self, key: &str) -> Result<Option<String>, ApiError> {
        self.tx.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0)).optional().map_err(db_error)
    }

    /// Sets a value of the `meta` table.
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), ApiError> {
        self.tx
            .execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)", params![key, value])
            .map_err(db_error)?;
        Ok(())
    }
}
