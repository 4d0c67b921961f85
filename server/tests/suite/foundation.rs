//! The real server on a real SQLite file: health, SSR, the first-administrator setup token,
//! sign-in and sessions, and a restart on the same data directory.

use std::path::Path;

use server::Server;
use wire::settings::ColourAssignment;

use crate::support::config;

use testclient::reqwest;

/// Starts a server in the background; returns its base URL, the setup link (if any) and a
/// handle that stops it when dropped.
async fn start(
    data_dir: &Path,
) -> (String, Option<String>, tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    start_with_clock(data_dir, std::sync::Arc::new(app::clock::SystemClock)).await
}

async fn start_with_clock(
    data_dir: &Path,
    clock: std::sync::Arc<dyn app::clock::Clock>,
) -> (String, Option<String>, tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let server = Server::prepare_with_clock(&config(data_dir), clock).await.expect("server starts");
    let base = format!("http://{}", server.addr);
    let setup = server.setup_url.clone();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        server
            .run(async {
                let _ = rx.await;
            })
            .await
            .expect("serve");
    });
    (base, setup, tx, task)
}

/// Waits for a server to stop (its graceful shutdown), at most 30 s.
async fn stopped(task: tokio::task::JoinHandle<()>) {
    let done = tokio::time::timeout(std::time::Duration::from_secs(30), task).await;
    done.expect("the server stops within 30 s of the signal").unwrap();
}

/// Every request of these tests gives up after 30 s, so a server that stops answering fails
/// the test with the request named (a hang was seen once in `health_ssr_setup_signin_and_restart`).
fn client() -> reqwest::Client {
    reqwest::Client::builder().cookie_store(true).timeout(std::time::Duration::from_secs(30)).build().unwrap()
}

async fn call(c: &reqwest::Client, base: &str, name: &str, form: &[(&str, &str)]) -> (u16, String) {
    let r = c.post(format!("{base}/api/{name}")).form(form).send().await.unwrap_or_else(|e| panic!("{name}: {e}"));
    (r.status().as_u16(), r.text().await.unwrap())
}

/// The status and the error code of a refused call, after checking the body has the API's
/// error shape: `error`, `message` and an object `detail`.
fn refusal(status: u16, body: &str) -> (u16, String) {
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("JSON error body: {body}"));
    assert!(v["message"].is_string() && v["detail"].is_object(), "{body}");
    (status, v["error"].as_str().unwrap_or_default().to_string())
}

#[tokio::test]
async fn health_ssr_setup_signin_and_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (base, setup, stop, task) = start(dir.path()).await;
    if testclient::test_database_url(dir.path()).is_none() {
        assert!(dir.path().join(app::data::DB_FILE).exists(), "SQLite file created in the data dir");
    }

    // Health check answers with the database's state.
    let r = client().get(format!("{base}/healthz")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["database"], true);

    // The home page is complete in the server-rendered HTML.
    let html = client().get(format!("{base}/")).send().await.unwrap().text().await.unwrap();
    assert!(html.contains("Space Baduk"));
    assert!(html.contains("No rooms yet"), "room list rendered on the server");
    assert!(html.contains("board-canvas"));
    assert!(html.contains("/manifest.webmanifest"));
    // The bundle the start-up check requires is exactly what the pages load.
    for file in server::bundle_files() {
        assert!(html.contains(&format!("\"/{file}")), "the page loads /{file}");
    }
    catalogue_files_are_named_preloaded_and_served(&base, &html).await;

    // No administrator yet: a one-time setup link was issued.
    let setup = setup.expect("setup link on first start");
    let token = setup.split("token=").nth(1).unwrap().to_string();
    assert!(token.len() >= 32, "token has enough entropy");

    let c = client();
    let (status, body) = call(
        &c,
        &base,
        "complete_setup",
        &[
            ("token", "not-the-token"),
            ("username", "admin"),
            ("password", "correct horse battery"),
            ("password_again", "correct horse battery"),
        ],
    )
    .await;
    assert_eq!(refusal(status, &body), (403, "bad_setup_token".into()));

    let (status, body) = call(
        &c,
        &base,
        "complete_setup",
        &[
            ("token", &token),
            ("username", "ab"),
            ("password", "correct horse battery"),
            ("password_again", "correct horse battery"),
        ],
    )
    .await;
    assert_eq!(refusal(status, &body), (400, "invalid_input".into()));
    assert!(body.contains("3–32 characters"), "error names the allowed range: {body}");

    let (status, body) = call(
        &c,
        &base,
        "complete_setup",
        &[
            ("token", &token),
            ("username", "admin"),
            ("password", "correct horse battery"),
            ("password_again", "correct horse battery"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"role\":\"admin\""), "{body}");

    // The same token cannot be used twice.
    let (status, body) = call(
        &client(),
        &base,
        "complete_setup",
        &[
            ("token", &token),
            ("username", "intruder"),
            ("password", "correct horse battery"),
            ("password_again", "correct horse battery"),
        ],
    )
    .await;
    assert_eq!(refusal(status, &body), (403, "bad_setup_token".into()));

    // The session made by setup is signed in; sign out ends it.
    let (_, me) = call(&c, &base, "current_user", &[]).await;
    assert!(me.contains("\"username\":\"admin\""), "{me}");
    let (status, _) = call(&c, &base, "sign_out", &[]).await;
    assert_eq!(status, 200);
    let (_, me) = call(&c, &base, "current_user", &[]).await;
    assert_eq!(me, "null");

    // Sign-in: wrong password refused, right one accepted; the cookie is HttpOnly.
    let (status, body) = call(&c, &base, "sign_in", &[("username", "admin"), ("password", "wrong password!")]).await;
    assert_eq!(refusal(status, &body), (401, "bad_credentials".into()));
    let r = c
        .post(format!("{base}/api/sign_in"))
        .form(&[("username", "admin"), ("password", "correct horse battery")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let cookie = r.headers().get("set-cookie").expect("session cookie").to_str().unwrap().to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
    let (_, me) = call(&c, &base, "current_user", &[]).await;
    assert!(me.contains("admin"), "{me}");

    let (_, lobby) = call(&c, &base, "lobby", &[]).await;
    assert_eq!(lobby, r#"{"open":[],"live":[]}"#);

    let _ = stop.send(());
    stopped(task).await;

    // Restart on the same data directory: the administrator and the session survive, and
    // no new setup link is printed.
    let (base, setup, stop, task) = start(dir.path()).await;
    assert!(setup.is_none(), "no setup link once an administrator exists");
    let r = reqwest::Client::new()
        .post(format!("{base}/api/sign_in"))
        .form(&[("username", "admin"), ("password", "correct horse battery")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let _ = stop.send(());
    stopped(task).await;
}

#[tokio::test]
async fn restart_without_admin_revokes_the_old_link() {
    let dir = tempfile::tempdir().unwrap();
    let (_, first, stop, task) = start(dir.path()).await;
    let _ = stop.send(());
    stopped(task).await;
    let (base, second, stop, task) = start(dir.path()).await;
    let (first, second) = (first.unwrap(), second.unwrap());
    assert_ne!(first, second);
    let old = first.split("token=").nth(1).unwrap();
    let (status, body) = call(
        &client(),
        &base,
        "complete_setup",
        &[
            ("token", old),
            ("username", "admin"),
            ("password", "correct horse battery"),
            ("password_again", "correct horse battery"),
        ],
    )
    .await;
    assert_eq!(refusal(status, &body), (403, "bad_setup_token".into()), "only the newest link works");
    let _ = stop.send(());
    stopped(task).await;
}

#[tokio::test]
async fn cross_site_posts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (base, _, stop, task) = start(dir.path()).await;
    let c = client();
    const VICTIM: [(&str, &str); 3] =
        [("username", "victim"), ("password", "correct horse battery"), ("password_again", "correct horse battery")];
    // Another site named by either header is refused.
    for (header, value) in [("origin", "http://evil.example"), ("sec-fetch-site", "cross-site")] {
        let forged = c.post(format!("{base}/api/sign_up")).header(header, value).form(&VICTIM).send().await.unwrap();
        assert_eq!(forged.status(), 403, "{header}: {value}");
        assert!(forged.text().await.unwrap().contains("cross_site_request"), "{header}: {value}");
    }
    // Same origin (what the app's own pages send) is accepted.
    let ok = c
        .post(format!("{base}/api/sign_up"))
        .header("origin", base.clone())
        .header("sec-fetch-site", "same-origin")
        .form(&VICTIM)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    // Reading stays open: GET pages and health are never blocked.
    assert_eq!(client().get(format!("{base}/healthz")).send().await.unwrap().status(), 200);
    let _ = stop.send(());
    stopped(task).await;
}

#[tokio::test]
async fn sign_up_makes_players_with_case_insensitive_unique_names() {
    let dir = tempfile::tempdir().unwrap();
    let (base, _, stop, task) = start(dir.path()).await;
    let c = client();
    let (status, body) = call(
        &c,
        &base,
        "sign_up",
        &[("username", "Kim"), ("password", "correct horse battery"), ("password_again", "correct horse battery")],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"role\":\"player\""), "sign-up never makes administrators: {body}");
    let (_, me) = call(&c, &base, "current_user", &[]).await;
    assert!(me.contains("Kim"));
    let (status, body) = call(
        &client(),
        &base,
        "sign_up",
        &[("username", "kim"), ("password", "another long password"), ("password_again", "another long password")],
    )
    .await;
    assert_eq!(refusal(status, &body), (400, "invalid_input".into()));
    assert!(body.contains("this name is taken"), "{body}");
    let (status, body) =
        call(&client(), &base, "sign_up", &[("username", "lee"), ("password", "short"), ("password_again", "short")])
            .await;
    assert_eq!(refusal(status, &body), (400, "invalid_input".into()));
    assert!(body.contains("10–128 characters"), "{body}");
    let _ = stop.send(());
    stopped(task).await;
}

#[tokio::test]
async fn sign_in_is_throttled_after_repeated_failures() {
    let dir = tempfile::tempdir().unwrap();
    let clock = app::clock::ManualClock::new(1_700_000_000_000);
    let (base, _, stop, task) = start_with_clock(dir.path(), std::sync::Arc::new(clock.clone())).await;
    let c = client();
    call(
        &c,
        &base,
        "sign_up",
        &[("username", "park"), ("password", "correct horse battery"), ("password_again", "correct horse battery")],
    )
    .await;
    for _ in 0..app::data::throttle::FREE_FAILURES {
        let (status, body) =
            call(&client(), &base, "sign_in", &[("username", "park"), ("password", "wrong password!")]).await;
        assert_eq!(refusal(status, &body), (401, "bad_credentials".into()));
    }
    // Now even the right password waits: the check comes before the password is tried.
    let r = client()
        .post(format!("{base}/api/sign_in"))
        .form(&[("username", "park"), ("password", "correct horse battery")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers().get("retry-after").map(|v| v.to_str().unwrap()), Some("1"), "429 names the wait");
    let (status, body) = (r.status().as_u16(), r.text().await.unwrap());
    assert_eq!(refusal(status, &body), (429, "throttled".into()));
    assert!(body.contains("\"retry_after_s\":1"), "{body}");
    // The participant API's sign-in shares the throttle, and its answer.
    let r = client()
        .post(format!("{base}/api/v1/session"))
        .json(&serde_json::json!({"username": "park", "password": "correct horse battery"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers().get("retry-after").map(|v| v.to_str().unwrap()), Some("1"));
    assert_eq!(refusal(r.status().as_u16(), &r.text().await.unwrap()), (429, "throttled".into()));
    clock.advance_ms(1_000);
    let (status, body) =
        call(&client(), &base, "sign_in", &[("username", "park"), ("password", "correct horse battery")]).await;
    assert_eq!(status, 200, "{body}");
    let _ = stop.send(());
    stopped(task).await;
}

/// Server functions answer the caller's mistakes with 4xx and the participant API's error
/// body, not 500: unreadable forms, oversized bodies, no session, no room, not your turn.
#[tokio::test]
async fn server_function_refusals_have_their_own_status() {
    use serde_json::json;
    let crate::support::Table { _dir, srv, alice, bob, .. } = crate::support::Table::new().await;
    let base = srv.base.clone();

    // A form without the password field.
    let (status, body) = call(&client(), &base, "sign_in", &[("username", "alice")]).await;
    assert_eq!(refusal(status, &body), (400, "bad_request".into()), "{body}");
    assert!(body.contains("password"), "names the missing field: {body}");

    // 10 MB of form: refused before anything reads it.
    let huge = "x".repeat(10 * 1024 * 1024);
    let r = client().post(format!("{base}/api/sign_in")).form(&[("username", "a"), ("password", &huge)]).send().await;
    let r = r.expect("the refusal arrives");
    let status = r.status().as_u16();
    let body = r.text().await.unwrap();
    assert_eq!(refusal(status, &body), (413, "body_too_large".into()), "{body}");
    assert!(body.contains(&server::api::MAX_BODY_BYTES.to_string()), "names the limit: {body}");

    // Match commands through the server function: no session, no room, not your turn.
    let command = |room: i64| json!({"room_id": room, "command": {"type": "move", "at": {"x": 5, "y": 5, "z": 1}}});
    let r = client().post(format!("{base}/api/match_command")).json(&command(1)).send().await.unwrap();
    let status = r.status().as_u16();
    assert_eq!(refusal(status, &r.text().await.unwrap()), (401, "not_signed_in".into()));
    let r = alice.http.post(format!("{base}/api/match_command")).json(&command(999)).send().await.unwrap();
    let status = r.status().as_u16();
    assert_eq!(refusal(status, &r.text().await.unwrap()), (404, "room_not_found".into()));
    let room = crate::support::started_room(&alice, &bob, crate::support::classic_9(ColourAssignment::HostBlack)).await;
    let r = bob.http.post(format!("{base}/api/match_command")).json(&command(room)).send().await.unwrap();
    let status = r.status().as_u16();
    let body = r.text().await.unwrap();
    assert_eq!(refusal(status, &body), (409, "not_your_turn".into()));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap()["detail"]["to_move"], "black");
    // The browser reads the same body back into the same typed error.
    assert_eq!(
        serde_json::from_str::<app::AppError>(&body).unwrap(),
        app::AppError::Match(wire::commands::MatchError::NotYourTurn { to_move: wire::events::Colour::Black })
    );
    let r = alice.http.post(format!("{base}/api/match_command")).json(&command(room)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    // Every answer names its request, for matching a 500 with the server log.
    assert_eq!(r.headers().get("x-request-id").map(|v| v.len()), Some(16));
    srv.stop().await;
}

/// A server whose site root lacks the browser bundle its pages load refuses to start, naming
/// the command that builds it; with the bundle in place it starts.
#[tokio::test]
async fn a_site_root_without_the_browser_bundle_is_refused_at_start() {
    let (data, site) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut config = config(data.path());
    config.site_root = site.path().to_path_buf();
    config.no_browser_bundle = false;
    let refusal = Server::prepare(&config).await.err().expect("refused without a bundle").to_string();
    assert!(refusal.contains("cargo leptos build --release") && refusal.contains("make build"), "{refusal}");
    assert!(refusal.contains(&server::bundle_files()[1]), "names the missing wasm: {refusal}");

    // The binary says so on stderr and exits with a failure.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_space-baduk"))
        .args(["--port", "0", "--log", "off"])
        .arg("--data-dir")
        .arg(data.path())
        .arg("--site-root")
        .arg(site.path())
        .env_remove("SPACE_BADUK_NO_BROWSER_BUNDLE")
        .output()
        .expect("the binary runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cargo leptos build --release"), "{stderr}");

    for file in server::bundle_files() {
        let path = site.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"").unwrap();
    }
    // An unsplit bundle (no chunk manifest) is refused as well.
    let refusal = Server::prepare(&config).await.err().expect("refused without the split manifest").to_string();
    assert!(refusal.contains(server::SPLIT_MANIFEST) && refusal.contains("--split"), "{refusal}");
    std::fs::write(site.path().join(server::SPLIT_MANIFEST), b"{}").unwrap();
    Server::prepare(&config).await.expect("starts once the bundle is there");
}

/// The browser's texts: the page lists every language's file and preloads its own; the file
/// is the catalogue of that language, kept for a year by its hashed name; an older name
/// gets today's texts, not to be kept; anything else is a 404.
async fn catalogue_files_are_named_preloaded_and_served(base: &str, english_page: &str) {
    let attr = |tag: &str, name: &str| -> String {
        let at = tag.find(&format!("{name}=\"")).unwrap_or_else(|| panic!("{name} in {tag}")) + name.len() + 2;
        tag[at..].split('"').next().unwrap().to_string()
    };
    let tags = |html: &str, start: &str| -> Vec<String> {
        html.split('<').filter(|t| t.starts_with(start)).map(|t| t.split('>').next().unwrap().to_string()).collect()
    };
    let listed = tags(english_page, "meta name=\"sb-catalogue\"");
    let codes: Vec<String> = listed.iter().map(|t| attr(t, "data-code")).collect();
    assert!(codes.contains(&"ko".to_string()) && codes.contains(&"en".to_string()), "{listed:?}");
    let href_of =
        |code: &str| listed.iter().find(|t| attr(t, "data-code") == code).map(|t| attr(t, "data-href")).unwrap();
    let names: Vec<String> = listed.iter().map(|t| attr(t, "data-name")).collect();
    assert!(names.contains(&"한국어".to_string()) && names.contains(&"English".to_string()), "{names:?}");
    let preloaded = |html: &str| -> Vec<String> {
        tags(html, "link rel=\"preload\" as=\"fetch\"").iter().map(|t| attr(t, "href")).collect()
    };
    assert_eq!(preloaded(english_page), vec![href_of("en")], "an English page preloads its own texts only");
    let modules: Vec<String> =
        tags(english_page, "link rel=\"modulepreload\"").iter().map(|t| attr(t, "href")).collect();
    assert!(
        modules.contains(&app::SPLIT_LOADER.to_string()),
        "the splitter's loader is fetched beside the main module: {modules:?}"
    );
    let korean = client()
        .get(format!("{base}/"))
        .header("Accept-Language", "ko-KR,ko;q=0.9")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(preloaded(&korean), vec![href_of("ko")]);
    // Another page (a lazy route's) preloads its language's later texts too.
    let later_of =
        |code: &str| listed.iter().find(|t| attr(t, "data-code") == code).map(|t| attr(t, "data-later")).unwrap();
    let rules = client().get(format!("{base}/rules")).send().await.unwrap().text().await.unwrap();
    assert_eq!(preloaded(&rules), vec![href_of("en"), later_of("en")]);
    let later: std::collections::BTreeMap<String, String> =
        client().get(format!("{base}{}", later_of("en"))).send().await.unwrap().json().await.unwrap();
    assert_eq!(later.get("rules.title"), Some(&app::i18n::text(app::i18n::Lang::EN, "rules.title")));
    assert!(!later.contains_key("lobby.join") && !later.contains_key("lang.name"), "the first file's texts stay there");

    let r = client().get(format!("{base}{}", href_of("ko"))).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(r.headers()["content-type"], "application/json");
    let texts: std::collections::BTreeMap<String, String> = r.json().await.unwrap();
    assert_eq!(texts["lang.name"], "한국어");
    assert_eq!(texts.get("room.pass"), Some(&app::i18n::text(app::i18n::Lang::KO, "room.pass")));
    assert!(!texts.contains_key("rules.title"), "a later text is in the later file only");
    assert!(!texts.contains_key("pseudo.room.pass"), "only the catalogue's own files");

    let stale = client().get(format!("{base}/i18n/en-0123456789abcdef.json")).send().await.unwrap();
    assert_eq!(stale.status(), 200);
    assert_eq!(stale.headers()["cache-control"], "no-cache");
    let texts: std::collections::BTreeMap<String, String> = stale.json().await.unwrap();
    assert_eq!(texts["lang.name"], "English");
    assert!(
        texts.contains_key("rules.title"),
        "a first file's old name gets every text (a page from before the split)"
    );
    for missing in ["/i18n/xx-0123456789abcdef.json", "/i18n/en", "/i18n/"] {
        assert_eq!(client().get(format!("{base}{missing}")).send().await.unwrap().status(), 404, "{missing}");
    }
}
