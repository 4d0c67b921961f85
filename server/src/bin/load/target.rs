//! The server under test: spawned as a child process, run in this process, or already
//! running; and what it costs (CPU seconds, resident memory) read from /proc.

use super::*;

pub(crate) enum Target {
    /// Stopped when dropped.
    Spawned {
        server: ServerProcess,
        _dir: Option<tempfile::TempDir>,
    },
    InProcess {
        _stop: tokio::sync::oneshot::Sender<()>,
        _dir: Option<tempfile::TempDir>,
    },
    External,
}

impl Target {
    pub(crate) fn pid(&self) -> Option<u32> {
        match self {
            Target::Spawned { server, .. } => Some(server.pid()),
            _ => None,
        }
    }
}

pub(crate) fn data_dir(args: &Args) -> (PathBuf, Option<tempfile::TempDir>) {
    match &args.data_dir {
        Some(d) => (d.clone(), None),
        None => {
            // Mind where this is: on a tmpfs, fsync costs nothing and the figures mean little.
            let t = tempfile::Builder::new().prefix("sb-load-").tempdir().expect("temp dir");
            eprintln!("data directory {}", t.path().display());
            (t.path().to_path_buf(), Some(t))
        }
    }
}

pub(crate) async fn start_target(args: &Args) -> (String, Target) {
    match args.server.as_str() {
        "spawn" => {
            let (dir, tmp) = data_dir(args);
            let bin = args
                .server_bin
                .clone()
                .unwrap_or_else(|| std::env::current_exe().expect("own path").with_file_name("space-baduk"));
            let server = ServerProcess::start(&bin, &dir).await;
            (server.base.clone(), Target::Spawned { server, _dir: tmp })
        }
        "in-process" => {
            let (dir, tmp) = data_dir(args);
            let config = server::Config {
                bind: "127.0.0.1".parse().unwrap(),
                port: 0,
                data_dir: dir.clone(),
                database_url: args.database_url.clone(),
                log: "warn".into(),
                log_format: server::config::LogFormat::Text,
                site_root: dir.join("site"),
                secure_cookies: false,
                public_url: None,
                instance_id: None,
                advertise_url: None,
                no_browser_bundle: true,
                spectator_pace_ms: 250,
                spectator_writes_per_s: 10_000,
            };
            let srv = server::Server::prepare(&config).await.expect("server starts");
            let base = format!("http://{}", srv.addr);
            let (stop, rx) = tokio::sync::oneshot::channel::<()>();
            tokio::spawn(async move {
                let _ = srv
                    .run(async {
                        let _ = rx.await;
                    })
                    .await;
            });
            (base, Target::InProcess { _stop: stop, _dir: tmp })
        }
        url => (url.trim_end_matches('/').to_string(), Target::External),
    }
}

/// User + system CPU seconds of a process so far (Linux /proc).
pub(crate) fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / clock_ticks())
}

/// Busy CPU seconds of the whole machine so far (Linux /proc/stat: all but idle and iowait).
pub(crate) fn machine_busy_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu: Vec<f64> = stat.lines().next()?.split_whitespace().skip(1).filter_map(|v| v.parse().ok()).collect();
    let total: f64 = cpu.iter().take(8).sum();
    let idle = cpu.get(3)? + cpu.get(4)?;
    Some((total - idle) / clock_ticks())
}

/// Resident memory of a process (Linux /proc).
pub(crate) fn rss_mib(pid: &str) -> Option<u64> {
    rss_kib(pid).map(|k| k / 1024)
}

pub(crate) fn rss_kib(pid: &str) -> Option<u64> {
    status_kib(pid, "VmRSS:")
}

/// The most a process has held resident since it started (Linux's high-water mark).
pub(crate) fn peak_rss_mib(pid: &str) -> Option<u64> {
    status_kib(pid, "VmHWM:").map(|k| k / 1024)
}

pub(crate) fn status_kib(pid: &str, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub(crate) fn clock_ticks() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}
