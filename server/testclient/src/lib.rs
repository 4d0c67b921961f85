//! A client of the participant API for the server's integration tests and the load
//! benchmark: signed-in players with their own cookie jars, typed commands, the room stream,
//! and the server binary as a child process. Kept out of the server crate so its normal
//! build carries no HTTP or WebSocket client.

use std::{
    path::Path,
    process::{Child, Command as Process, Stdio},
    sync::Arc,
    time::Duration,
};

use futures_util::StreamExt;
use reqwest::cookie::CookieStore;
use serde::Serialize;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest, protocol::WebSocketConfig, Message};
use wire::{commands::Command, settings::MatchSettings};

// For tests' raw requests (malformed bodies, foreign origins) beside the typed ones.
pub use futures_util;
pub use reqwest;
pub use tokio_tungstenite;

pub mod chaos;
pub mod netns;

/// The password every player made here signs up with.
pub const PASSWORD: &str = "correct horse battery";

/// A room's live stream.
pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Status and JSON body (`Null` when the body is not JSON).
pub type Answer = (u16, Value);

/// One participant: an HTTP client with its own cookie jar (its session) on one server.
#[derive(Clone)]
pub struct Client {
    pub http: reqwest::Client,
    pub jar: Arc<reqwest::cookie::Jar>,
    pub base: String,
}

impl Client {
    /// A client without a session.
    pub fn new(base: &str) -> Client {
        let jar = Arc::new(reqwest::cookie::Jar::default());
        let http = reqwest::Client::builder().cookie_provider(jar.clone()).pool_max_idle_per_host(4).build();
        // Building fails only without a TLS backend or resolver, which this client never asks for.
        let http = http.expect("an HTTP client without TLS");
        Client { http, jar, base: base.trim_end_matches('/').to_string() }
    }

    /// Signs `name` up through the sign-up server function; the client is then signed in.
    pub async fn sign_up(base: &str, name: &str) -> Client {
        let c = Client::new(base);
        let (status, body) =
            c.form("/api/sign_up", &[("username", name), ("password", PASSWORD), ("password_again", PASSWORD)]).await;
        assert_eq!(status, 200, "sign up {name}: {body}");
        c
    }

    /// The first administrator, from the one-time setup link's token.
    pub async fn complete_setup(base: &str, token: &str, name: &str) -> Client {
        let c = Client::new(base);
        let fields = [("token", token), ("username", name), ("password", PASSWORD), ("password_again", PASSWORD)];
        let (status, body) = c.form("/api/complete_setup", &fields).await;
        assert_eq!(status, 200, "administrator setup: {body}");
        c
    }

    /// The same session (cookie jar) on another base URL, e.g. the same host after a
    /// restart on another port (cookies are kept per host, not per port).
    pub fn at(&self, base: &str) -> Client {
        Client { http: self.http.clone(), jar: self.jar.clone(), base: base.trim_end_matches('/').to_string() }
    }

    /// Lets this client's session cookies go to `base` too (cookies are kept per host: an
    /// instance on another address would not get them).
    pub fn share_session_with(&self, base: &str) {
        let (Ok(from), Ok(to)) = (self.base.parse::<reqwest::Url>(), base.parse::<reqwest::Url>()) else { return };
        let Some(cookies) = self.jar.cookies(&from) else { return };
        for pair in cookies.to_str().unwrap_or_default().split("; ").filter(|p| !p.is_empty()) {
            self.jar.add_cookie_str(&format!("{pair}; Path=/"), &to);
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Posts a form (the server functions' encoding).
    pub async fn form(&self, path: &str, fields: &[(&str, &str)]) -> (u16, String) {
        let r = self.http.post(self.url(path)).form(fields).send().await.expect("server answers");
        (r.status().as_u16(), r.text().await.unwrap_or_default())
    }

    /// Posts `body` as JSON; `Err` when the request or its answer did not complete.
    pub async fn try_post(&self, path: &str, body: &impl Serialize) -> Result<Answer, reqwest::Error> {
        let r = self.http.post(self.url(path)).json(body).send().await?;
        let status = r.status().as_u16();
        let bytes = r.bytes().await?;
        Ok((status, serde_json::from_slice(&bytes).unwrap_or(Value::Null)))
    }

    pub async fn post(&self, path: &str, body: impl Serialize) -> Answer {
        self.try_post(path, &body).await.expect("server answers")
    }

    pub async fn get(&self, path: &str) -> (u16, String) {
        let r = self.http.get(self.url(path)).send().await.expect("server answers");
        (r.status().as_u16(), r.text().await.unwrap_or_default())
    }

    /// GETs JSON that must be there (200).
    pub async fn get_json(&self, path: &str) -> Value {
        let (status, body) = self.get(path).await;
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
    }

    /// Creates a room (201) and returns `{room_id, invite_codes}`.
    pub async fn create_room(&self, name: &str, settings: &MatchSettings) -> Result<Value, String> {
        match self.try_post("/api/v1/rooms", &json!({ "name": name, "settings": settings })).await {
            Ok((201, created)) => Ok(created),
            Ok((status, body)) => Err(format!("create room: {status} {body}")),
            Err(e) => Err(format!("create room: {}", error_kind(&e))),
        }
    }

    /// Sends one command — a [`Command`] or any JSON, to test refusals.
    pub async fn try_cmd(&self, room: i64, command: &impl Serialize) -> Result<Answer, reqwest::Error> {
        self.try_post(&format!("/api/v1/rooms/{room}/commands"), command).await
    }

    pub async fn cmd(&self, room: i64, command: impl Serialize) -> Answer {
        self.try_cmd(room, &command).await.expect("server answers")
    }

    /// Sends a command that must be accepted; returns the reply.
    pub async fn ok(&self, room: i64, command: impl Serialize) -> Value {
        let (status, reply) = self.cmd(room, &command).await;
        assert_eq!(status, 200, "{} → {reply}", serde_json::to_string(&command).unwrap_or_default());
        reply
    }

    /// The room as this client may see it.
    pub async fn view(&self, room: i64) -> Value {
        self.get_json(&format!("/api/v1/rooms/{room}")).await
    }

    /// Opens the room's stream with this client's session (a player's connection).
    pub async fn stream(&self, room: i64, after: i64) -> Ws {
        tokio_tungstenite::connect_async(self.stream_request(stream_url(&self.base, room, after)))
            .await
            .expect("stream connects")
            .0
    }

    /// Opens the room's stream with this client's session, reading packed messages as the
    /// browser does (`&batch=packed`).
    pub async fn stream_packed(&self, room: i64, after: i64) -> Ws {
        tokio_tungstenite::connect_async(self.stream_request(stream_url(&self.base, room, after) + "&batch=packed"))
            .await
            .expect("stream connects")
            .0
    }

    /// A stream request to `url` with this client's session cookies.
    fn stream_request(&self, url: String) -> tungstenite::handshake::client::Request {
        let mut req = url.as_str().into_client_request().expect("a valid stream URL");
        if let Some(cookies) = self.base.parse().ok().and_then(|u| self.jar.cookies(&u)) {
            req.headers_mut().insert("cookie", cookies);
        }
        req
    }

    /// Opens the room's stream, or the HTTP status of its refusal.
    pub async fn try_stream(&self, room: i64, after: i64) -> Result<Ws, u16> {
        match tokio_tungstenite::connect_async(self.stream_request(stream_url(&self.base, room, after))).await {
            Ok((ws, _)) => Ok(ws),
            Err(tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
            Err(e) => panic!("stream: {e}"),
        }
    }
}

/// A room with `host` (first seat) and `guest` seated, confirmed and both ready; its id.
pub async fn started_room(host: &Client, guest: &Client, name: &str, settings: &MatchSettings) -> Result<i64, String> {
    let created = host.create_room(name, settings).await?;
    let room = created["room_id"].as_i64().ok_or("no room id")?;
    let code = |i: usize| created["invite_codes"][i].as_str().unwrap_or_default().to_string();
    for (c, command) in [
        (host, Command::Join { code: code(0) }),
        (guest, Command::Join { code: code(1) }),
        (host, Command::Confirm),
        (guest, Command::Confirm),
        (host, Command::Ready),
        (guest, Command::Ready),
    ] {
        match c.try_cmd(room, &command).await {
            Ok((200, _)) => {}
            Ok((status, body)) => return Err(format!("setting up room {room}: {command:?} → {status} {body}")),
            Err(e) => return Err(format!("setting up room {room}: {command:?} → {}", error_kind(&e))),
        }
    }
    Ok(room)
}

/// `ws://…/api/v1/rooms/{room}/stream?after={after}`.
pub fn stream_url(base: &str, room: i64, after: i64) -> String {
    format!("{}/api/v1/rooms/{room}/stream?after={after}", base.replacen("http://", "ws://", 1))
}

/// An anonymous viewer's stream (a spectator) reading packed messages, as the browser does
/// (`&batch=packed`: a write of several events is one message; `unbatch` opens it), with a
/// small read buffer: tungstenite zero-fills its 128 KiB default on every read
/// (snapview/tungstenite-rs#547), costly for thousands of sockets.
pub async fn spectate(base: &str, room: i64, after: i64) -> Result<Ws, tungstenite::Error> {
    let config = WebSocketConfig::default().read_buffer_size(8 * 1024);
    let url = stream_url(base, room, after) + "&batch=packed";
    Ok(tokio_tungstenite::connect_async_with_config(url, Some(config), false).await?.0)
}

/// A stream message as the messages it holds: a batch's, in order; a packed message's events
/// each as the event message `{"type":"event","event":…,"live"?:…}` it stands for (what
/// cannot be read panics: the server sent it); or itself.
pub fn unbatch(mut v: Value) -> Vec<Value> {
    match v["type"].as_str() {
        Some("batch") => match v["messages"].take() {
            Value::Array(messages) => messages,
            _ => vec![v],
        },
        Some(wire::packed::TYPE) => wire::packed::unpack(&v.to_string())
            .unwrap_or_else(|e| panic!("{e}"))
            .into_iter()
            .map(|(event, live)| {
                let mut m = serde_json::json!({ "type": "event", "event": event });
                if let Some(live) = live {
                    m["live"] = serde_json::to_value(live).expect("the view's fields as JSON");
                }
                m
            })
            .collect(),
        _ => vec![v],
    }
}

/// Reads stream messages until one satisfies `pred` (10 s each at most); returns all read,
/// a batch's messages each on its own.
pub async fn read_until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Vec<Value> {
    read_writes_until(ws, pred).await.into_iter().flatten().collect()
}

/// Reads stream messages until one satisfies `pred` (10 s each at most); returns all read,
/// each WebSocket message as the messages it holds (several for a batch).
pub async fn read_writes_until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Vec<Vec<Value>> {
    let mut got = Vec::new();
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("stream message within 10 s")
            .expect("stream open")
            .expect("valid frame");
        if let Message::Text(t) = msg {
            let held = unbatch(serde_json::from_str(&t).expect("JSON message"));
            let done = held.iter().any(&pred);
            got.push(held);
            if done {
                return got;
            }
        }
    }
}

/// The event type of a stream message (`""` for other messages).
pub fn event_type(v: &Value) -> &str {
    v["event"]["event"]["type"].as_str().unwrap_or("")
}

/// A short name for a failed request, for counting errors by kind.
pub fn error_kind(e: &reqwest::Error) -> &'static str {
    if e.is_connect() {
        "connect"
    } else if e.is_timeout() {
        "timeout"
    } else if e.is_body() || e.is_decode() {
        "body"
    } else {
        "request"
    }
}

/// The real server binary as a child process on a port of its own, without the browser
/// bundle, and with nothing from the caller's `SPACE_BADUK_*` environment.
pub struct ServerProcess {
    pub child: Child,
    pub base: String,
}

impl ServerProcess {
    /// Starts `bin` on `data_dir` and waits (bounded) until it is healthy.
    pub async fn start(bin: &Path, data_dir: &Path) -> ServerProcess {
        Self::start_instance(bin, data_dir, "test-server", test_database_url(data_dir)).await
    }

    /// Starts `bin` as the instance named `id`, on `database_url` if given (several
    /// instances share one PostgreSQL database, each with a data folder of its own).
    pub async fn start_instance(bin: &Path, data_dir: &Path, id: &str, database_url: Option<String>) -> ServerProcess {
        Self::start_in(bin, data_dir, id, database_url, netns::Place::Loopback).await
    }

    /// [`ServerProcess::start_instance`] at `place` (beside a network namespace, or in it).
    /// Beside or in one, its log is kept in `data_dir/server.log`.
    pub async fn start_in(
        bin: &Path,
        data_dir: &Path,
        id: &str,
        database_url: Option<String>,
        place: netns::Place<'_>,
    ) -> ServerProcess {
        Self::launch(bin, data_dir, id, database_url, place, &[]).await
    }

    /// [`ServerProcess::start`] with more command-line options.
    pub async fn start_with(bin: &Path, data_dir: &Path, options: &[&str]) -> ServerProcess {
        Self::launch(bin, data_dir, "test-server", test_database_url(data_dir), netns::Place::Loopback, options).await
    }

    async fn launch(
        bin: &Path,
        data_dir: &Path,
        id: &str,
        database_url: Option<String>,
        place: netns::Place<'_>,
        options: &[&str],
    ) -> ServerProcess {
        let probe = reqwest::Client::new();
        let (bind, advertised, base_host) = place.addresses();
        // The port is picked by binding and releasing it, so another process could take it
        // before the server binds: then the server exits and we try another port.
        for _attempt in 0..5 {
            let port = free_port();
            let mut cmd = match place {
                netns::Place::Inside(n) => n.command(bin),
                _ => Process::new(bin),
            };
            for (k, _) in std::env::vars() {
                if k.starts_with("SPACE_BADUK_") {
                    cmd.env_remove(k);
                }
            }
            // The suite's run on PostgreSQL: this folder's database.
            if let Some(url) = &database_url {
                cmd.env("DATABASE_URL", url);
            }
            let mut child = cmd
                .args(["--bind", &bind, "--port", &port.to_string(), "--log", "warn", "--no-browser-bundle"])
                .args(["--advertise-url", &format!("http://{advertised}:{port}")])
                // Restarted on the same folder, it is the same instance (whatever its port):
                // it takes its room leases back at once.
                .args(["--instance-id", id])
                .args(options)
                .arg("--data-dir")
                .arg(data_dir)
                .arg("--site-root")
                .arg(data_dir.join("site"))
                .stdin(Stdio::null())
                // The log, and the one-time setup link.
                .stdout(match place {
                    netns::Place::Loopback => Stdio::null(),
                    _ => std::fs::File::options()
                        .create(true)
                        .append(true)
                        .open(data_dir.join("server.log"))
                        .map_or_else(|_| Stdio::null(), Stdio::from),
                })
                .stderr(Stdio::inherit())
                .spawn()
                .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
            let base = format!("http://{base_host}:{port}");
            // Migrations and the boot of unfinished rooms come first.
            for _ in 0..600 {
                if child.try_wait().ok().flatten().is_some() {
                    break; // exited (port taken?): next attempt
                }
                if let Ok(r) = probe.get(format!("{base}/healthz")).send().await {
                    if r.status() == 200 {
                        return ServerProcess { child, base };
                    }
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("{} did not come up", bin.display());
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL (`Child::kill` on Unix): no shutdown code runs, nothing is flushed.
    pub fn kill(mut self) -> std::process::ExitStatus {
        let _ = self.child.kill();
        self.child.wait().expect("the killed server is reaped")
    }
}

impl Drop for ServerProcess {
    /// Nothing is left running, whatever happened (`Child::kill` is SIGKILL on Unix).
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("bound").port()
}

/// Waits (bounded) until the server at `base` answers its health check.
pub async fn wait_healthy(base: &str) {
    let c = reqwest::Client::new();
    for _ in 0..600 {
        if let Ok(r) = c.get(format!("{base}/healthz")).send().await {
            if r.status() == 200 {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("server at {base} did not become healthy");
}

/// The PostgreSQL database a test on `data_dir` uses when the suite runs against PostgreSQL
/// (`SPACE_BADUK_TEST_POSTGRES`: a server URL, e.g. `postgres://postgres@127.0.0.1:5433`,
/// whose user may create databases); `None` on SQLite. One database per data folder, made
/// on first use, so that a test's restarts find their data and tests in parallel do not
/// share any.
pub fn test_database_url(data_dir: &std::path::Path) -> Option<String> {
    use std::hash::{Hash, Hasher};
    let server = std::env::var("SPACE_BADUK_TEST_POSTGRES").ok()?;
    let server = server.trim_end_matches('/').to_string();
    // SipHash with fixed keys: the same folder gives the same name in every process.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    data_dir.hash(&mut hasher);
    let name = format!("sb_{:016x}", hasher.finish());
    let admin = format!("{server}/postgres");
    let create = format!("CREATE DATABASE {name}");
    // Its own thread and runtime: callers may be sync code inside a runtime.
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        rt.block_on(async {
            use sqlx::{Connection, Executor};
            let mut conn = sqlx::PgConnection::connect(&admin).await.expect("the test PostgreSQL server answers");
            match conn.execute(create.as_str()).await {
                Ok(_) => {}
                // 42P04: it exists (a restart of the same test).
                Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("42P04") => {}
                Err(e) => panic!("cannot create the test database: {e}"),
            }
            let _ = conn.close().await;
        })
    })
    .join()
    .expect("creating the test database");
    Some(format!("{server}/{name}"))
}
