//! Command-line flags, each also settable by an environment variable (`--help` lists both).

use std::{net::IpAddr, path::PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

/// The command line: serve (no subcommand), or one of the data-folder tasks.
#[derive(Debug, Clone, Parser)]
#[command(name = "space-baduk", version, about = "Space Baduk server: baduk on 3D boards and the classic board")]
pub struct Cli {
    #[command(flatten)]
    pub config: Config,
    #[command(subcommand)]
    pub task: Option<Task>,
}

#[derive(Debug, Clone, Subcommand)]
pub enum Task {
    /// A consistent copy of the data folder's database into DIR (new or empty), taken while
    /// the server runs (SQLite's VACUUM INTO), with backup.json saying what it holds. The
    /// copy holds password digests and sessions: keep it as private as the data folder.
    Backup { dir: PathBuf },
    /// Puts the backup in DIR back as the data folder's database, after checking it. The
    /// server on that folder must be stopped; a database already there is moved aside into
    /// replaced-<time>/ with --replace (never deleted).
    Restore {
        dir: PathBuf,
        #[arg(long)]
        replace: bool,
    },
}

#[derive(Debug, Clone, Args)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "SPACE_BADUK_BIND", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// TCP port to listen on.
    #[arg(long, env = "SPACE_BADUK_PORT", default_value_t = 3000)]
    pub port: u16,
    /// Directory holding the SQLite database (created if missing).
    #[arg(long, env = "SPACE_BADUK_DATA_DIR", default_value = "./data", global = true)]
    pub data_dir: PathBuf,
    /// A PostgreSQL database to use instead of the SQLite file (`postgres://user:password@host/db`;
    /// its migrations run at start).
    #[arg(long, env = "DATABASE_URL", global = true)]
    pub database_url: Option<String>,
    /// Log filter, e.g. `info`, `debug`, `server=debug,sqlx=warn`.
    #[arg(long, env = "SPACE_BADUK_LOG", default_value = "info")]
    pub log: String,
    /// Log line format.
    #[arg(long, env = "SPACE_BADUK_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Directory with the built site (wasm, JS, CSS and public assets).
    #[arg(long, env = "SPACE_BADUK_SITE_ROOT", default_value = "target/site")]
    pub site_root: PathBuf,
    /// Mark session cookies `Secure` (set this when served over HTTPS).
    #[arg(long, env = "SPACE_BADUK_SECURE_COOKIES", default_value_t = false)]
    pub secure_cookies: bool,
    /// Public base URL used in the printed setup link (defaults to http://BIND:PORT).
    #[arg(long, env = "SPACE_BADUK_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// This instance's name among several sharing one PostgreSQL database (it holds room
    /// leases under it; a restart under the same name takes them back at once). Defaults to
    /// HOST:PORT (the configured port). The embedded SQLite database has one instance, always named `embedded`.
    #[arg(long, env = "SPACE_BADUK_INSTANCE_ID")]
    pub instance_id: Option<String>,
    /// Where the other instances reach this one (`http://10.0.0.5:3000`); defaults to the
    /// public URL.
    #[arg(long, env = "SPACE_BADUK_ADVERTISE_URL")]
    pub advertise_url: Option<String>,
    /// Start even when the site root lacks the browser bundle: the API and server-rendered
    /// pages work, the pages never become interactive. For tests and benchmarks.
    #[arg(long, env = "SPACE_BADUK_NO_BROWSER_BUNDLE", default_value_t = false)]
    pub no_browser_bundle: bool,
    /// Milliseconds: during a burst of a room's events, a viewer who holds no seat gets them
    /// at most this often, together in one write (every event, in order; the first after a
    /// quiet spell at once). Players' streams are never held. 0 writes every event at once.
    #[arg(long, env = "SPACE_BADUK_SPECTATOR_PACE_MS", default_value_t = 250,
        value_parser = clap::value_parser!(u64).range(0..=1000))]
    pub spectator_pace_ms: u64,
    /// Paced writes a second that the server aims at for all viewers without a seat together:
    /// with more of their streams writing (a stream that found nothing new during its
    /// interval stops counting) than
    /// `spectator_pace_ms` allows at this many, each one's interval widens, up to one second.
    /// A write of more than about 4 KiB of events is several socket writes. No effect with
    /// `spectator_pace_ms` 0.
    #[arg(long, env = "SPACE_BADUK_SPECTATOR_WRITES_PER_S", default_value_t = 10_000,
        value_parser = clap::value_parser!(u32).range(100..=10_000_000))]
    pub spectator_writes_per_s: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

impl Config {
    /// This instance among those sharing the database, listening on `bound`.
    pub fn instance(&self, bound: std::net::SocketAddr) -> app::matches::service::Instance {
        // One process has the embedded file (the data folder's lock); several names there
        // are for tests only.
        if self.database_url.is_none() && self.instance_id.is_none() {
            return app::matches::service::Instance::embedded();
        }
        let id = self.instance_id.clone().unwrap_or_else(|| {
            let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
                .or_else(|_| std::fs::read_to_string("/etc/hostname"))
                .map(|h| h.trim().to_string())
                .unwrap_or_else(|_| "localhost".into());
            // The configured port, not the bound one: a restart is the same instance (it
            // takes its leases back at once) even when the system picked the port (`--port 0`).
            format!("{host}:{}", self.port)
        });
        let address = self
            .advertise_url
            .clone()
            .or_else(|| self.public_url.clone())
            .unwrap_or_else(|| Config { port: bound.port(), ..self.clone() }.public_url());
        app::matches::service::Instance::new(id, Some(address))
    }

    pub fn public_url(&self) -> String {
        self.public_url.clone().unwrap_or_else(|| match self.bind {
            IpAddr::V6(a) => format!("http://[{a}]:{}", self.port),
            IpAddr::V4(a) if a.is_unspecified() => format!("http://127.0.0.1:{}", self.port),
            a => format!("http://{a}:{}", self.port),
        })
    }
}
