#![recursion_limit = "512"]
//! The `space-baduk` binary: serving (the default), which holds the data folder's lock
//! (`DataDirLock`) so that neither a restore nor a second server replaces the database under
//! it, and the `backup` and `restore` tasks. Its allocator is jemalloc: under load, glibc's
//! malloc took a fifth of the server's CPU.

use std::process::ExitCode;

use app::data::backup::{self, DataDirLock};
use clap::Parser;
use server::{
    config::{Cli, LogFormat, Task},
    Config, Server,
};
use tracing_subscriber::EnvFilter;

/// jemalloc rather than glibc's malloc: under 100 games and 10,000 receiving spectators
/// glibc's malloc and free took a fifth of the server's CPU (`perf`); with jemalloc the
/// `load` benchmark's moves/s rose and its p99 fell by about 30% each, for a few MiB more
/// (docs/performance.md, "Server load on SQLite" and "Server memory"). mimalloc was faster
/// still but held ~700 KiB per room, past the memory aim: the lever if memory matters less
/// than throughput.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read at its start: a background thread gives freed pages back to the
/// system after its decay time even while the server is idle (a burst of sign-ins frees
/// argon2's 19 MiB per hash at once), instead of only on later allocations.
#[export_name = "_rjem_malloc_conf"]
static MALLOC_CONF: &[u8; 23] = b"background_thread:true\0";

#[tokio::main]
async fn main() -> ExitCode {
    let Cli { config, task } = Cli::parse();
    match task {
        None => serve(config).await,
        Some(task) => run_task(&config, task).await,
    }
}

/// `backup` and `restore`: one line saying what was done, or why not.
async fn run_task(config: &Config, task: Task) -> ExitCode {
    let data = &config.data_dir;
    if config.database_url.is_some() {
        // The backup is SQLite's own copy of its file; PostgreSQL has its own tools.
        eprintln!(
            "error: backup and restore work on the SQLite file in --data-dir; with --database-url \
             (PostgreSQL) use pg_dump and pg_restore"
        );
        return ExitCode::from(2);
    }
    let done = match task {
        Task::Backup { dir } => backup::backup(data, &dir).await.map(|m| {
            format!(
                "backed up {} into {}: {} users, {} rooms, {} events, schema {}, {} bytes",
                data.display(),
                dir.display(),
                m.users,
                m.rooms,
                m.events,
                m.schema_version,
                m.bytes
            )
        }),
        Task::Restore { dir, replace } => backup::restore(&dir, data, replace).await.map(|r| {
            let m = &r.manifest;
            let aside = r.kept_aside.map(|p| format!("; the database that was there is in {}", p.display()));
            format!(
                "restored {} into {}: {} users, {} rooms, {} events (backed up {}){}",
                dir.display(),
                data.display(),
                m.users,
                m.rooms,
                m.events,
                app::data::rfc3339(m.made_at_ms),
                aside.unwrap_or_default()
            )
        }),
    };
    match done {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("space-baduk: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(config: Config) -> ExitCode {
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|e| {
        eprintln!("invalid --log filter {:?} ({e}); using \"info\"", config.log);
        EnvFilter::new("info")
    });
    let fmt = tracing_subscriber::fmt().with_env_filter(filter);
    match config.log_format {
        LogFormat::Json => fmt.json().init(),
        LogFormat::Text => fmt.init(),
    }

    // Held until the process ends: a restore (or a second server) must not replace the
    // database under this one.
    let _lock = match DataDirLock::acquire(&config.data_dir) {
        Ok(lock) => lock,
        Err(e) => {
            eprintln!("space-baduk cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let server = match Server::prepare(&config).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "cannot start");
            eprintln!("space-baduk cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    tracing::info!(addr = %server.addr, data_dir = %config.data_dir.display(), "Space Baduk listening");
    println!("Space Baduk is running at {}", config.public_url());
    if let Some(url) = &server.setup_url {
        // Printed, never stored in clear: the only way to create the first administrator.
        println!();
        println!("No administrator exists yet. Open this one-time link to create one:");
        println!("  {url}");
        println!("(A new link is printed at every start until an administrator exists.)");
        println!();
    }
    match server.run(shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "server stopped with an error");
            ExitCode::FAILURE
        }
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
    tracing::info!("shutting down");
}
