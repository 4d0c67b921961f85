#![recursion_limit = "512"]
use clap::Parser;
use server::{config::LogFormat, Config, Server};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|e| {
        eprintln!("invalid --log filter {:?} ({e}); using \"info\"", config.log);
        EnvFilter::new("info")
    });
    let fmt = tracing_subscriber::fmt().with_env_filter(filter);
    match config.log_format {
        LogFormat::Json => fmt.json().init(),
        LogFormat::Text => fmt.init(),
    }

    let server = match Server::prepare(&config).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "cannot start");
            eprintln!("space-baduk cannot start: {e}");
            return std::process::ExitCode::FAILURE;
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
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "server stopped with an error");
            std::process::ExitCode::FAILURE
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
