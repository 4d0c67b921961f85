//! Shared by the server's integration tests: a real server on a temp SQLite file (optionally
//! with a manual clock), signed-in participants with their own cookie jars, and stream
//! readers.
#![allow(dead_code)]

use std::{path::Path, sync::Arc};

use app::{
    clock::{Clock, ManualClock},
    matches::settings::{ColourAssignment, MatchSettings},
};
use futures_util::StreamExt;
use reqwest::cookie::CookieStore;
use serde_json::{json, Value};
use server::{Config, Server};

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

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
        log: "warn".into(),
        log_format: server::config::LogFormat::Text,
        site_root: "target/site".into(),
        secure_cookies: false,
        public_url: None,
        no_browser_bundle: true,
    }
}

impl Running {
    pub async fn start(dir: &Path) -> Running {
        Self::start_with_clock(dir, Arc::new(app::clock::SystemClock)).await
    }
    pub async fn start_with_clock(dir: &Path, clock: Arc<dyn Clock>) -> Running {
        let server = Server::prepare_with_clock(&config(dir), clock).await.expect("server starts");
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

/// `mover` sends `command` (a move or pass numbered `n`); `other`'s device acknowledges it.
pub async fn played(mover: &Player, other: &Player, room: i64, command: Value, n: u32) {
    mover.ok(room, command).await;
    other.ok(room, json!({"type": "acknowledge", "move_number": n})).await;
}

/// A manual clock at a fixed start, shared with the server.
pub fn manual_clock() -> (ManualClock, Arc<dyn Clock>) {
    let c = ManualClock::new(1_800_000_000_000);
    (c.clone(), Arc::new(c))
}

pub struct Player {
    pub http: reqwest::Client,
    pub jar: Arc<reqwest::cookie::Jar>,
    pub base: String,
}

impl Player {
    fn client(base: &str) -> Player {
        let jar = Arc::new(reqwest::cookie::Jar::default());
        let http = reqwest::Client::builder().cookie_provider(jar.clone()).build().unwrap();
        Player { http, jar, base: base.to_string() }
    }

    /// Posts a form (the server functions' encoding) and returns the status.
    async fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> u16 {
        let r = self.http.post(format!("{}{path}", self.base)).form(fields).send().await.unwrap();
        r.status().as_u16()
    }

    pub async fn sign_up(base: &str, name: &str) -> Player {
        let p = Player::client(base);
        let pw = "correct horse battery";
        let status = p.post_form("/api/sign_up", &[("username", name), ("password", pw), ("password_again", pw)]).await;
        assert_eq!(status, 200, "sign up {name}");
        p
    }

    /// The first administrator, through the one-time setup link.
    pub async fn admin(srv: &Running, name: &str) -> Player {
        let token = srv.setup_url.as_ref().expect("setup link").split("token=").nth(1).unwrap().to_string();
        let p = Player::client(&srv.base);
        let pw = "correct horse battery";
        let fields = [("token", token.as_str()), ("username", name), ("password", pw), ("password_again", pw)];
        assert_eq!(p.post_form("/api/complete_setup", &fields).await, 200, "admin setup");
        p
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = self.http.post(format!("{}{path}", self.base)).json(&body).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }
    pub async fn get(&self, path: &str) -> (u16, String) {
        let r = self.http.get(format!("{}{path}", self.base)).send().await.unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    }
    pub async fn cmd(&self, room: i64, body: Value) -> (u16, Value) {
        self.post(&format!("/api/v1/rooms/{room}/commands"), body).await
    }
    pub async fn ok(&self, room: i64, body: Value) -> Value {
        let (status, r) = self.cmd(room, body.clone()).await;
        assert_eq!(status, 200, "{body} → {r}");
        r
    }
    pub async fn view(&self, room: i64) -> Value {
        self.http.get(format!("{}/api/v1/rooms/{room}", self.base)).send().await.unwrap().json().await.unwrap()
    }
    /// Opens the room's stream with this player's session (a player's connection).
    pub async fn stream(&self, room: i64, after: i64) -> Ws {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let url = format!("{}/api/v1/rooms/{room}/stream?after={after}", self.base.replace("http://", "ws://"));
        let mut req = url.as_str().into_client_request().unwrap();
        if let Some(c) = self.jar.cookies(&self.base.parse().unwrap()) {
            req.headers_mut().insert("cookie", c);
        }
        tokio_tungstenite::connect_async(req).await.expect("stream connects").0
    }
}

pub async fn view(base: &str, room: i64) -> Value {
    reqwest::get(format!("{base}/api/v1/rooms/{room}")).await.unwrap().json().await.unwrap()
}

pub fn classic_9(colours: ColourAssignment) -> Value {
    let mut s = MatchSettings::classic_default(9);
    s.colours = colours;
    serde_json::to_value(&s).unwrap()
}

/// A Space box `n`×`n`×`n`, host Black.
pub fn space_box(n: i64) -> Value {
    let mut s = MatchSettings::space_default();
    s.board = engine::BoxSpec { x: engine::Axis::one_to(n), y: engine::Axis::one_to(n), z: engine::Axis::one_to(n) };
    s.colours = ColourAssignment::HostBlack;
    serde_json::to_value(&s).unwrap()
}

/// A room with `host` (first seat) and `guest` seated, confirmed and both ready.
pub async fn started_room(host: &Player, guest: &Player, settings: Value) -> i64 {
    let (status, created) = host.post("/api/v1/rooms", json!({ "name": "match", "settings": settings })).await;
    assert_eq!(status, 201, "{created}");
    let room = created["room_id"].as_i64().unwrap();
    host.ok(room, json!({"type": "join", "code": created["invite_codes"][0]})).await;
    guest.ok(room, json!({"type": "join", "code": created["invite_codes"][1]})).await;
    host.ok(room, json!({"type": "confirm"})).await;
    guest.ok(room, json!({"type": "confirm"})).await;
    host.ok(room, json!({"type": "ready"})).await;
    guest.ok(room, json!({"type": "ready"})).await;
    room
}

/// Reads stream messages until one satisfies `pred`; returns all read.
pub async fn read_until<S>(ws: &mut S, pred: impl Fn(&Value) -> bool) -> Vec<Value>
where
    S: futures_util::Stream<
            Item = Result<tokio_tungstenite::tungstenite::Message, tokio_tungstenite::tungstenite::Error>,
        > + Unpin,
{
    let mut got = Vec::new();
    loop {
        let msg = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next())
            .await
            .expect("stream message within 10 s")
            .expect("stream open")
            .expect("valid frame");
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            let done = pred(&v);
            got.push(v);
            if done {
                return got;
            }
        }
    }
}

pub fn event_type(v: &Value) -> &str {
    v["event"]["event"]["type"].as_str().unwrap_or("")
}

/// Waits until the room's view satisfies `pred` (timers run in the room's task).
pub async fn until_view(p: &Player, room: i64, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..500 {
        let v = p.view(room).await;
        if pred(&v) {
            return v;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("room {room} never reached the expected state: {}", p.view(room).await);
}
