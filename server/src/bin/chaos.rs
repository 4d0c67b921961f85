//! The chaos benchmark: `testclient::chaos` at full length. It starts its own PostgreSQL
//! server (Debian's, as the `postgres` user, in a temporary folder), three `space-baduk`
//! instances on it — the third in a network namespace of its own — and plays N games × M
//! spectators through all three while, in turn, the busiest instance is killed with SIGKILL
//! (and started again once its rooms are taken over), PostgreSQL is restarted, and the
//! namespaced instance is cut off from everything for longer than a lease. Then it checks
//! every acknowledged move against the database and every log for gaps and for writes by two
//! owners, and reports moves/s, the move round trip (p50/p99), each fault's recovery time,
//! and the losses (which must be 0). A benchmark: it exits non-zero only when a check fails,
//! never for a time.
//!
//! Needs root (network namespaces; PostgreSQL runs as `postgres`).
//!
//! ```sh
//! cargo build --release -p server --features load --bins
//! target/release/chaos                        # 24 games × 48 spectators, 180 moves each
//! target/release/chaos --games 6 --moves 60 --json
//! ```

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use clap::Parser;
use testclient::chaos::{self, Fault, Plan, MAX_MOVES};

#[derive(Debug, Parser)]
#[command(about = "Space Baduk chaos run: three instances, one PostgreSQL, a kill, a restart and a partition")]
struct Args {
    /// Games played at once (19×19, every move acknowledged).
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(3..=500))]
    games: u64,
    /// Moves in each game.
    #[arg(long, default_value_t = 180, value_parser = clap::value_parser!(u32).range(30..=MAX_MOVES as i64))]
    moves: u32,
    /// Spectator streams, spread over the games and the instances.
    #[arg(long, default_value_t = 48)]
    spectators: usize,
    /// How long the namespaced instance is cut off (longer than a lease, 15 s, to be taken over).
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u64).range(1..=600))]
    partition_s: u64,
    /// The server binary (default: `space-baduk` next to this one).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// PostgreSQL's programs.
    #[arg(long, default_value = "/usr/lib/postgresql/15/bin")]
    pg_bin: PathBuf,
    /// Print the report as one JSON line as well.
    #[arg(long)]
    json: bool,
}

/// A throwaway PostgreSQL server, stopped and removed on drop.
struct Postgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
}

fn as_postgres(program: &Path) -> Command {
    let mut c = Command::new("runuser");
    c.args(["-u", "postgres", "--"]).arg(program);
    c
}

fn succeeded(c: &mut Command, what: &str) -> Result<(), String> {
    match c.output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!("{what}: {}", String::from_utf8_lossy(&o.stderr).trim())),
        Err(e) => Err(format!("{what}: {e}")),
    }
}

impl Postgres {
    /// Listening on every address (the namespace reaches it at its side of the pair), trusting
    /// this machine and the namespaces' addresses only.
    fn start(bin: &Path) -> Result<Postgres, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        succeeded(Command::new("chown").arg("postgres").arg(dir.path()), "chown")?;
        let data = dir.path().join("data");
        succeeded(
            as_postgres(&bin.join("initdb")).arg("-D").arg(&data).args(["-U", "postgres", "-A", "trust", "-E", "UTF8"]),
            "initdb",
        )?;
        let hba = data.join("pg_hba.conf");
        let mut rules = std::fs::read_to_string(&hba).map_err(|e| e.to_string())?;
        rules.push_str("host all all 10.231.0.0/16 trust\n");
        std::fs::write(&hba, rules).map_err(|e| e.to_string())?;
        let port = testclient::free_port();
        let pg = Postgres { dir, bin: bin.to_path_buf(), port };
        succeeded(&mut pg.ctl("start"), "pg_ctl start")?;
        Ok(pg)
    }

    fn ctl(&self, action: &str) -> Command {
        let mut c = as_postgres(&self.bin.join("pg_ctl"));
        let options =
            format!("-p {} -k {} -c listen_addresses='*' -c max_connections=400", self.port, self.dir.path().display());
        c.arg("-D").arg(self.dir.path().join("data")).arg("-l").arg(self.dir.path().join("server.log"));
        c.args(["-w", "-m", "fast", "-o", &options, action]);
        c
    }

    /// The shell command that restarts it.
    fn restart_command(&self) -> String {
        let c = self.ctl("restart");
        let quote = |s: &std::ffi::OsStr| format!("'{}'", s.to_string_lossy().replace('\'', r"'\''"));
        std::iter::once(quote(c.get_program())).chain(c.get_args().map(quote)).collect::<Vec<_>>().join(" ")
            + " >/dev/null"
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self.ctl("stop").output();
    }
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    match run(args).await {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("chaos: {e}");
            std::process::exit(2);
        }
    }
}

async fn run(args: Args) -> Result<bool, String> {
    let server_bin = match args.server_bin {
        Some(b) => b,
        None => std::env::current_exe().map_err(|e| e.to_string())?.with_file_name("space-baduk"),
    };
    let pg = Postgres::start(&args.pg_bin)?;
    let mut admin = <sqlx::postgres::PgConnection as sqlx::Connection>::connect(&format!("{}/postgres", pg.url()))
        .await
        .map_err(|e| format!("PostgreSQL: {e}"))?;
    sqlx::Executor::execute(&mut admin, "CREATE DATABASE chaos").await.map_err(|e| e.to_string())?;
    let root = tempfile::tempdir().map_err(|e| e.to_string())?;
    let total = args.games as usize * args.moves as usize;
    let plan = Plan {
        server_bin,
        database_url: format!("{}/chaos", pg.url()),
        data_root: root.path().to_path_buf(),
        games: args.games as usize,
        moves: args.moves,
        spectators: args.spectators,
        faults: vec![
            Fault::Kill { after: total / 5 },
            Fault::RestartDatabase { after: total * 2 / 5, command: pg.restart_command() },
            Fault::Partition { after: total * 3 / 5, seconds: args.partition_s },
        ],
    };
    let r = chaos::run(plan).await?;
    println!(
        "chaos: {} games × {} spectators on 3 instances and one PostgreSQL, {:.1} s",
        r.games, r.spectators, r.seconds
    );
    println!(
        "  {} moves acknowledged, {:.0} moves/s; move round trip p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        r.moves_acked, r.moves_per_s, r.p50_ms, r.p99_ms, r.max_ms
    );
    println!(
        "  requests answered 500: {}; unanswered (timed out or refused connection): {}",
        r.answered_500, r.unanswered
    );
    println!("  spectators: {} messages, {} reconnections", r.spectator_msgs, r.spectator_reconnects);
    for f in &r.faults {
        println!(
            "  {} after {} moves: {} rooms, every one playing again after {:.1} s",
            f.fault, f.at_moves, f.rooms, f.recovered_s
        );
    }
    println!(
        "  acknowledged moves lost: {}; logs with a gap: {}; rooms written by two owners: {}; events spectators missed: {}",
        r.acked_lost, r.log_gaps, r.double_owned_rooms, r.spectator_gaps
    );
    for f in &r.failures {
        println!("  FAILED: {f}");
    }
    if args.json {
        println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
    }
    for a in &r.answers_500 {
        println!("  answered 500: {a}");
    }
    let ok = r.failures.is_empty();
    if !ok || r.answered_500 > 0 {
        println!("  the instances' logs are kept in {}", root.keep().display());
    }
    Ok(ok)
}
