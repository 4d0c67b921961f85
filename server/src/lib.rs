#![recursion_limit = "512"]
//! The Space Baduk server as a library, so integration tests can start the real thing on a
//! temporary SQLite file and an ephemeral port.
//!
//! `Server::prepare` refuses a site root without the browser bundle, or with an unsplit one
//! (no `SPLIT_MANIFEST`), unless `--no-browser-bundle` is given; it removes stale compressed
//! copies, opens the database (migrations run), loads the unfinished rooms
//! (`MatchService::boot`) and resumes program matches. `Server::run` serves, and runs beside
//! the routes the sweep that releases idle rooms, the lease renewals, the doorbell's listener
//! and record retention: at start, then looked at hourly on the server's clock (`Schedule`),
//! run daily.

pub mod api;
mod assets;
pub mod config;
mod csrf;
pub mod middleware;
mod routes;
mod session_cache;

use std::net::SocketAddr;

use std::sync::Arc;

use app::{
    clock::{Clock, SystemClock},
    data::{Db, SignInThrottle},
    matches::service::MatchService,
};
use leptos::config::LeptosOptions;
use tokio::net::TcpListener;

pub use config::Config;

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Database(#[from] app::data::OpenError),
    #[error("session store: {0}")]
    Sessions(String),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
    #[error("start-up: {0}")]
    Setup(app::AppError),
    #[error(
        "{site_root} lacks the browser bundle the pages load ({missing}). Build the site with \
         `cargo leptos build --release --split` (or `make build`) and point --site-root at its target/site; \
         a plain `cargo build -p server` builds no bundle. To serve the API and unhydrated pages \
         anyway, pass --no-browser-bundle."
    )]
    MissingBundle { site_root: String, missing: String },
}

/// The files under the site root that every page asks for: `pkg/<name>.js`, the wasm, and
/// `pkg/<name>.css`. Leptos names the wasm `<name>.wasm` when built by cargo-leptos (which
/// sets `LEPTOS_OUTPUT_NAME`) and `<name>_bg.wasm` otherwise; this build asks for the same.
pub fn bundle_files() -> [String; 3] {
    let name = app::OUTPUT_NAME;
    let wasm =
        if option_env!("LEPTOS_OUTPUT_NAME").is_some() { format!("{name}.wasm") } else { format!("{name}_bg.wasm") };
    [format!("pkg/{name}.js"), format!("pkg/{wasm}"), format!("pkg/{name}.css")]
}

/// Where the lazy chunks are listed. A bundle built without `--split` has none, and its
/// lazy routes import a module that does not exist: refused at start too.
pub const SPLIT_MANIFEST: &str = "pkg/__wasm_split_manifest.json";

/// Refuses a site root without the bundle this build's pages reference: they would never
/// hydrate.
pub fn check_bundle(site_root: &std::path::Path) -> Result<(), StartError> {
    let missing: Vec<String> = bundle_files()
        .into_iter()
        .chain([SPLIT_MANIFEST.to_string()])
        .filter(|f| !site_root.join(f).is_file())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(StartError::MissingBundle { site_root: site_root.display().to_string(), missing: missing.join(", ") })
}

/// A bound, ready server: `addr` is where it listens; `setup_url` is set when no
/// administrator exists yet.
pub struct Server {
    pub addr: SocketAddr,
    pub setup_url: Option<String>,
    listener: TcpListener,
    router: axum::Router,
    /// The daily retention schedule, run while the server serves.
    schedule: Schedule,
}

/// What runs beside the routes while the server serves (stopped with it, so a stopped
/// server in a test does not go on deleting behind its successor).
struct Schedule {
    matches: MatchService,
    clock: Arc<dyn app::clock::Clock>,
    /// The next look, an hour after the last (the first counted from `prepare`, so a clock
    /// moved before serving starts is not missed).
    next_ms: i64,
}

impl Schedule {
    const EVERY_MS: i64 = 3_600_000;

    /// 003 §9.7: retention daily, looked at hourly on the server's clock, so a test moves
    /// it a day on (the run itself checks that a day has passed since the last one).
    async fn run(mut self) {
        loop {
            self.clock.sleep_until(self.next_ms).await;
            self.matches.retention_tick(app::governance::RunTrigger::Daily).await;
            self.next_ms = self.clock.now_ms() + Self::EVERY_MS;
        }
    }
}

impl Server {
    /// Checks the browser bundle (unless `no_browser_bundle`), opens the database (running
    /// migrations), prepares the setup token if needed, and binds the port. Nothing is served
    /// until [`Server::run`].
    pub async fn prepare(config: &Config) -> Result<Server, StartError> {
        Self::prepare_with_clock(config, Arc::new(SystemClock)).await
    }

    /// As [`Server::prepare`], with the clock that time rules use (tests pass a manual one).
    pub async fn prepare_with_clock(config: &Config, clock: Arc<dyn Clock>) -> Result<Server, StartError> {
        if !config.no_browser_bundle {
            check_bundle(&config.site_root)?;
            let removed = assets::remove_stale_copies(&config.site_root.join("pkg"));
            if removed > 0 {
                tracing::warn!(removed, "compressed copies older than their bundle files removed (run scripts/bundle/precompress.sh after a build)");
            }
        }
        let db = Db::open_configured(config.database_url.as_deref(), &config.data_dir).await?;
        let addr = SocketAddr::new(config.bind, config.port);
        let listener = TcpListener::bind(addr).await.map_err(|source| StartError::Bind { addr, source })?;
        let addr = listener.local_addr().map_err(|source| StartError::Bind { addr, source })?;
        let instance = config.instance(addr);
        let setup_url = if db.admin_exists().await.map_err(StartError::Setup)? {
            None
        } else {
            let token = db.issue_setup_token(&instance.id).await.map_err(StartError::Setup)?;
            Some(format!("{}/setup?token={}", config.public_url(), token.secret))
        };
        let options = LeptosOptions::builder()
            .output_name(app::OUTPUT_NAME)
            .site_root(config.site_root.display().to_string())
            .site_pkg_dir("pkg")
            .site_addr(addr)
            .build();
        let matches = MatchService::for_instance(db.clone(), clock.clone(), instance);
        let loaded = matches.boot().await.map_err(StartError::Setup)?;
        tracing::info!(rooms = loaded, "unfinished rooms loaded from their event logs");
        let series = matches.resume_program_matches().await.map_err(StartError::Setup)?;
        tracing::info!(series, "unfinished program matches resumed");
        // Rooms closed before lists existed get their listing, in the background.
        let lister = matches.clone();
        tokio::spawn(async move {
            let n = lister.list_closed_rooms().await;
            if n > 0 {
                tracing::info!(rooms = n, "closed rooms listed");
            }
        });
        // 003 §9.7: record retention runs at start, then daily (looked at hourly).
        matches.retention_tick(app::governance::RunTrigger::Start).await;
        let next_ms = clock.now_ms() + Schedule::EVERY_MS;
        let schedule = Schedule { matches: matches.clone(), clock: clock.clone(), next_ms };
        let router =
            routes::router(options, db.clone(), Arc::new(SignInThrottle::new(db, clock)), matches, config).await?;
        Ok(Server { addr, setup_url, listener, router, schedule })
    }

    /// Serves until the future `shutdown` completes.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
        // Aborted when serving ends, or when this future is dropped (the guard): retention,
        // and the sweep that releases idle rooms' actors (giving their memory back).
        let releasing = self.schedule.matches.start_releasing().abort_handle();
        // Room leases renewed, and the other instances' doorbell heard.
        let leasing = self.schedule.matches.start_leasing().abort_handle();
        let listening = self.schedule.matches.start_listening().await.map(|t| t.abort_handle());
        let schedule = tokio::spawn(self.schedule.run()).abort_handle();
        struct Stop(Vec<tokio::task::AbortHandle>);
        impl Drop for Stop {
            fn drop(&mut self) {
                self.0.iter().for_each(tokio::task::AbortHandle::abort);
            }
        }
        let _stop = Stop([schedule, releasing, leasing].into_iter().chain(listening).collect());
        axum::serve(self.listener, self.router.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(shutdown)
            .await
    }
}
