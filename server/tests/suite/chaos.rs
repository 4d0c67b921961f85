//! The reduced chaos run (the test command's share of `testclient::chaos`): three server
//! processes on one PostgreSQL database, three games played through all three at random while
//! spectators watch, and in the middle the instance owning the most rooms killed with SIGKILL
//! (started again once its rooms were taken over). When `scripts/test-postgres.sh` runs it
//! (alone, with `SPACE_BADUK_TEST_PG_RESTART`), PostgreSQL itself is restarted later in the
//! games, and then the third instance — in a network namespace of its own — is cut off from
//! everything for longer than a lease, and joined again. Afterwards, from the database: no
//! acknowledged move lost, no gap in any log, no room written by two owners, and no spectator
//! missing an event (see `testclient::chaos`). The figures are printed.
//!
//! On SQLite the test does nothing: the embedded file has one instance (the data folder's lock).

use std::path::PathBuf;

use testclient::chaos::{self, Fault, Plan};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_lose_no_acknowledged_move_through_a_kill_a_restart_and_a_partition() {
    let root = tempfile::tempdir().unwrap();
    let Some(url) = testclient::test_database_url(root.path()) else {
        eprintln!("chaos: PostgreSQL only (the embedded database has one instance)");
        return;
    };
    let mut faults = vec![Fault::Kill { after: 12 }];
    // The test command's own PostgreSQL server: it may be restarted, and it listens where a
    // namespace reaches it.
    if let Ok(command) = std::env::var("SPACE_BADUK_TEST_PG_RESTART") {
        faults.push(Fault::RestartDatabase { after: 40, command });
        faults.push(Fault::Partition { after: 60, seconds: 22 });
    }
    let plan = Plan {
        server_bin: PathBuf::from(env!("CARGO_BIN_EXE_space-baduk")),
        database_url: url,
        data_root: root.path().to_path_buf(),
        games: 3,
        moves: 40,
        spectators: 3,
        faults,
    };
    let report = chaos::run(plan).await.unwrap_or_else(|e| panic!("chaos run: {e}"));
    eprintln!("chaos: {}", serde_json::to_string(&report).unwrap());
    assert!(report.failures.is_empty(), "{:#?}", report.failures);
    assert_eq!((report.acked_lost, report.log_gaps, report.double_owned_rooms, report.spectator_gaps), (0, 0, 0, 0));
    // A database that is restarting is "ask again" (503), not a fault (500).
    assert_eq!(report.answered_500, 0, "{report:?}");
    for f in &report.faults {
        assert!(f.rooms > 0, "{} took no room away: {report:?}", f.fault);
    }
}
