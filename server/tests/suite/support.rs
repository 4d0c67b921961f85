//! Shared by the server's integration tests: a real server on a temp SQLite file (optionally
//! with a manual clock) and the participant API's client (`testclient`): signed-in players
//! with their own cookie jars, typed commands, stream readers.
#![allow(dead_code, unused_imports)] // each test file uses part of it

use std::{path::Path, sync::Arc};

use app::clock::{Clock, ManualClock};
use server::{Config, Server};
pub use testclient::{event_type, read_until, Client as Player};
use wire::{
    commands::Command,
    settings::{ColourAssignment, MatchSettings},
};

pub struct Running {
    pub base: String,
    pub setup_url: Option<String>,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

pub fn config(dir: &Path) -> Config {
    Config {
        bind: "127.0.0.1".parse().unwrap(),
        port: 0,
        data_dir: dir.to_path_buf(),
        database_url: testclient::test_database_url(dir),
        log: "warn".into(),
        log_format: server::config::LogFormat::Text,
        site_root: "target/site".into(),
        secure_cookies: false,
        public_url: None,
        instance_id: None,
        advertise_url: None,
        no_browser_bundle: true,
        spectator_pace_ms: 100,
        spectator_writes_per_s: 10_000,
    }
}

impl Running {
    pub async fn start(dir: &Path) -> Running {
        Self::start_with_clock(dir, Arc::new(app::clock::SystemClock)).await
    }
    pub async fn start_with_clock(dir: &Path, clock: Arc<dyn Clock>) -> Running {
        Self::start_config(&config(dir), clock).await
    }
    /// One of several instances on the database in `dir`, named `id`.
    pub async fn start_instance(dir: &Path, clock: Arc<dyn Clock>, id: &str) -> Running {
        Self::start_config(&Config { instance_id: Some(id.into()), ..config(dir) }, clock).await
    }
    async fn start_config(config: &Config, clock: Arc<dyn Clock>) -> Running {
        let server = Server::prepare_with_clock(config, clock).await.expect("server starts");
        let base = format!("http://{}", server.addr);
        let setup_url = server.setup_url.clone();
        let (stop, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server
                .run(async {
                    let _ = rx.await;
                })
                .await
                .unwrap();
        });
        Running { base, setup_url, stop, task }
    }
    pub async fn stop(self) {
        let _ = self.stop.send(());
        self.task.await.unwrap();
    }
}

/// A real server on a temporary SQLite file with a manual clock, and two signed-up
/// players: alice (she creates rooms, so she sits first) and bob.
pub struct Table {
    /// Bind it (`let Table { _dir, .. }`): the database file lives as long as this does.
    pub _dir: tempfile::TempDir,
    pub clock: ManualClock,
    pub srv: Running,
    pub base: String,
    pub alice: Player,
    pub bob: Player,
}

impl Table {
    pub async fn new() -> Table {
        let dir = tempfile::tempdir().unwrap();
        let (clock, shared) = manual_clock();
        let srv = Running::start_with_clock(dir.path(), shared).await;
        let base = srv.base.clone();
        let alice = Player::sign_up(&base, "alice").await;
        let bob = Player::sign_up(&base, "bob").await;
        Table { _dir: dir, clock, srv, base, alice, bob }
    }
}

/// The first administrator, through the one-time setup link.
pub async fn admin(srv: &Running, name: &str) -> Player {
    let token = srv.setup_url.as_ref().expect("setup link").split("token=").nth(1).unwrap().to_string();
    Player::complete_setup(&srv.base, &token, name).await
}

/// The administrators' live queue (`/api/v1/admin/stream`) at `base`, with `who`'s session.
pub async fn admin_stream(who: &Player, base: &str) -> testclient::Ws {
    use testclient::tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = base.replace("http", "ws") + "/api/v1/admin/stream";
    let mut req = url.as_str().into_client_request().unwrap();
    let cookies = testclient::reqwest::cookie::CookieStore::cookies(&*who.jar, &base.parse().unwrap()).unwrap();
    req.headers_mut().insert("cookie", cookies);
    testclient::tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// A stream's next text message as JSON (10 s at most).
pub async fn next_json(ws: &mut testclient::Ws) -> Result<serde_json::Value, tokio::time::error::Elapsed> {
    use testclient::futures_util::StreamExt;
    use testclient::tokio_tungstenite::tungstenite::Message;
    let fut = async move {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => return serde_json::from_str(&t).unwrap(),
                Some(Ok(_)) => continue,
                other => panic!("stream ended: {other:?}"),
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(10), fut).await
}

/// `mover` sends `command` (a move or pass numbered `n`); `other`'s device acknowledges it.
pub async fn played(mover: &Player, other: &Player, room: i64, command: impl serde::Serialize, n: u32) {
    mover.ok(room, command).await;
    other.ok(room, Command::Acknowledge { move_number: n }).await;
}

/// A manual clock at a fixed start, shared with the server.
pub fn manual_clock() -> (ManualClock, Arc<dyn Clock>) {
    let c = ManualClock::new(1_800_000_000_000);
    (c.clone(), Arc::new(c))
}

/// The room as an anonymous visitor sees it; checked against the OpenAPI document's `RoomView`.
pub async fn view(base: &str, room: i64) -> serde_json::Value {
    let v = Player::new(base).view(room).await;
    assert_documented("RoomView", &v);
    v
}

/// Fails unless `value` is valid under the OpenAPI document's component schema `schema`: what
/// the server answers is what the document promises (the fuzzer checks only what it happens
/// to reach; the views the tests wait for are checked here).
pub fn assert_documented(schema: &str, value: &serde_json::Value) {
    // One compiled validator per schema name for the whole test binary.
    static VALIDATORS: std::sync::Mutex<Vec<(String, Arc<jsonschema::Validator>)>> = std::sync::Mutex::new(Vec::new());
    let validator = {
        let mut cache = VALIDATORS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match cache.iter().find(|(name, _)| name == schema) {
            Some((_, v)) => v.clone(),
            None => {
                let mut doc = serde_json::to_value(server::api::openapi()).unwrap();
                assert!(doc["components"]["schemas"].get(schema).is_some(), "{schema} is not in the document");
                doc["$ref"] = serde_json::json!(format!("#/components/schemas/{schema}"));
                let v = jsonschema::options()
                    .with_draft(jsonschema::Draft::Draft202012)
                    .build(&doc)
                    .unwrap_or_else(|e| panic!("the document's {schema} does not compile: {e}"));
                let v = Arc::new(v);
                cache.push((schema.to_string(), v.clone()));
                v
            }
        }
    };
    let errors: Vec<String> = validator.iter_errors(value).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{schema} is not as documented:\n{}\nvalue: {value}", errors.join("\n"));
}

pub fn classic_9(colours: ColourAssignment) -> MatchSettings {
    let mut s = MatchSettings::classic_default(9);
    s.colours = colours;
    s
}

/// A Space box `n`×`n`×`n`, host Black.
pub fn space_box(n: i64) -> MatchSettings {
    let mut s = MatchSettings::space_default();
    s.board = engine::BoxSpec { x: engine::Axis::one_to(n), y: engine::Axis::one_to(n), z: engine::Axis::one_to(n) };
    s.colours = ColourAssignment::HostBlack;
    s
}

/// A room with `host` (first seat) and `guest` seated, confirmed and both ready.
pub async fn started_room(host: &Player, guest: &Player, settings: MatchSettings) -> i64 {
    testclient::started_room(host, guest, "match", &settings).await.expect("room set up")
}

/// Waits until the room's view satisfies `pred` (timers run in the room's task).
pub async fn until_view(p: &Player, room: i64, pred: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    for _ in 0..500 {
        let v = p.view(room).await;
        if pred(&v) {
            assert_documented("RoomView", &v);
            return v;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("room {room} never reached the expected state: {}", p.view(room).await);
}

/// The test's database opened directly (SQLite file or the test's PostgreSQL database), for
/// tests that damage or rewind stored data while the server is stopped.
pub enum RawDb {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

impl RawDb {
    pub async fn open(dir: &Path) -> RawDb {
        match testclient::test_database_url(dir) {
            Some(url) => RawDb::Postgres(sqlx::PgPool::connect(&url).await.unwrap()),
            None => RawDb::Sqlite(
                sqlx::SqlitePool::connect(&format!("sqlite://{}", dir.join(app::data::DB_FILE).display()))
                    .await
                    .unwrap(),
            ),
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, RawDb::Postgres(_))
    }

    /// Runs `sqlite` or `postgres` (each dialect's spelling) with `ints` bound as $1, $2, ….
    pub async fn exec(&self, sqlite: &str, postgres: &str, ints: &[i64]) -> u64 {
        match self {
            RawDb::Sqlite(p) => {
                let mut q = sqlx::query(sqlite);
                for i in ints {
                    q = q.bind(*i);
                }
                q.execute(p).await.unwrap().rows_affected()
            }
            RawDb::Postgres(p) => {
                let mut q = sqlx::query(postgres);
                for i in ints {
                    q = q.bind(*i);
                }
                q.execute(p).await.unwrap().rows_affected()
            }
        }
    }

    /// One value of a query both dialects spell the same (its first row's first column).
    pub async fn scalar<T>(&self, sql: &str, ints: &[i64]) -> T
    where
        T: Send + Unpin,
        T: for<'r> sqlx::Decode<'r, sqlx::Sqlite> + sqlx::Type<sqlx::Sqlite>,
        T: for<'r> sqlx::Decode<'r, sqlx::Postgres> + sqlx::Type<sqlx::Postgres>,
    {
        self.column(sql, ints).await.into_iter().next().unwrap_or_else(|| panic!("no row: {sql}"))
    }

    /// The first column of every row of a query both dialects spell the same.
    pub async fn column<T>(&self, sql: &str, ints: &[i64]) -> Vec<T>
    where
        T: Send + Unpin,
        T: for<'r> sqlx::Decode<'r, sqlx::Sqlite> + sqlx::Type<sqlx::Sqlite>,
        T: for<'r> sqlx::Decode<'r, sqlx::Postgres> + sqlx::Type<sqlx::Postgres>,
    {
        match self {
            RawDb::Sqlite(p) => {
                let mut q = sqlx::query_scalar(sql);
                for i in ints {
                    q = q.bind(*i);
                }
                q.fetch_all(p).await.unwrap()
            }
            RawDb::Postgres(p) => {
                let mut q = sqlx::query_scalar(sql);
                for i in ints {
                    q = q.bind(*i);
                }
                q.fetch_all(p).await.unwrap()
            }
        }
    }

    pub async fn close(&self) {
        match self {
            RawDb::Sqlite(p) => p.close().await,
            RawDb::Postgres(p) => p.close().await,
        }
    }
}
