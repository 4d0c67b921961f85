//! Probe: what one durable commit costs on this disk (fsync, SQLite commit).

use super::*;

pub(crate) fn summary(mut v: Vec<u32>) -> String {
    v.sort_unstable();
    let mean = v.iter().map(|x| f64::from(*x)).sum::<f64>() / v.len().max(1) as f64 / 1000.0;
    format!("mean {mean:.3} ms  p50 {:.3}  p99 {:.3}  max {:.3}", pct(&v, 50.0), pct(&v, 99.0), pct(&v, 100.0))
}

pub(crate) async fn probe(dir: &Path) {
    use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
    use std::io::Write;
    std::fs::create_dir_all(dir).unwrap();
    println!("== probe in {} ==", dir.display());

    // 1. The raw cost of making 100 bytes durable: write + fdatasync.
    let path = dir.join("probe.bin");
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&path).unwrap();
    let mut lat = Vec::new();
    let t = Instant::now();
    for _ in 0..500 {
        let s = Instant::now();
        f.write_all(&[7u8; 100]).unwrap();
        f.sync_data().unwrap();
        lat.push(s.elapsed().as_micros() as u32);
    }
    println!("append+fdatasync           {:>8.0}/s  {}", 500.0 / t.elapsed().as_secs_f64(), summary(lat));
    drop(f);
    // Overwriting blocks already allocated (as SQLite's WAL does once it has grown): no
    // file-size metadata to journal.
    use std::io::{Seek, SeekFrom};
    let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    let mut lat = Vec::new();
    let t = Instant::now();
    for i in 0..500u64 {
        let s = Instant::now();
        f.seek(SeekFrom::Start((i % 400) * 100)).unwrap();
        f.write_all(&[9u8; 100]).unwrap();
        f.sync_data().unwrap();
        lat.push(s.elapsed().as_micros() as u32);
    }
    println!("overwrite+fdatasync        {:>8.0}/s  {}", 500.0 / t.elapsed().as_secs_f64(), summary(lat));
    drop(f);
    let _ = std::fs::remove_file(&path);

    // 2. SQLite as the server opens it (WAL, synchronous=FULL), one event per transaction.
    for (label, sync) in [("FULL", SqliteSynchronous::Full), ("NORMAL", SqliteSynchronous::Normal)] {
        let db = dir.join(format!("probe-{label}.sqlite3"));
        let opts = SqliteConnectOptions::new()
            .filename(&db)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(sync)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new().max_connections(8).connect_with(opts).await.unwrap();
        sqlx::query("CREATE TABLE IF NOT EXISTS ev (room INTEGER, seq INTEGER, body TEXT, PRIMARY KEY (room, seq))")
            .execute(&pool)
            .await
            .unwrap();
        let body = r#"{"type":"move_played","colour":"black","at":{"x":3,"y":3,"z":1},"move_number":1,"captured":[]}"#;
        let n = 1000;
        let mut lat = Vec::new();
        let t = Instant::now();
        for i in 0..n {
            let s = Instant::now();
            let mut tx = pool.begin().await.unwrap();
            sqlx::query("INSERT INTO ev VALUES (?, ?, ?)").bind(0).bind(i).bind(body).execute(&mut *tx).await.unwrap();
            tx.commit().await.unwrap();
            lat.push(s.elapsed().as_micros() as u32);
        }
        println!(
            "sqlite {label:<6} 1 writer    {:>8.0} commits/s  {}",
            f64::from(n) / t.elapsed().as_secs_f64(),
            summary(lat)
        );

        // Eight rooms committing at once: SQLite has one writer; commits queue, each its own fsync.
        let t = Instant::now();
        let mut tasks = Vec::new();
        for room in 1..=8i64 {
            let pool = pool.clone();
            tasks.push(tokio::spawn(async move {
                let mut lat = Vec::new();
                for i in 0..250 {
                    let s = Instant::now();
                    let mut tx = pool.begin().await.unwrap();
                    sqlx::query("INSERT INTO ev VALUES (?, ?, ?)")
                        .bind(room)
                        .bind(i)
                        .bind(body)
                        .execute(&mut *tx)
                        .await
                        .unwrap();
                    tx.commit().await.unwrap();
                    lat.push(s.elapsed().as_micros() as u32);
                }
                lat
            }));
        }
        let mut lat = Vec::new();
        for t in tasks {
            lat.extend(t.await.unwrap());
        }
        println!(
            "sqlite {label:<6} 8 writers   {:>8.0} commits/s  {}",
            2000.0 / t.elapsed().as_secs_f64(),
            summary(lat)
        );

        // Group commit: events of many rooms in one transaction (one fsync for the batch).
        for size in [10i64, 25, 100] {
            let t = Instant::now();
            let batches = 4000 / size;
            for b in 0..batches {
                let mut tx = pool.begin().await.unwrap();
                for j in 0..size {
                    sqlx::query("INSERT INTO ev VALUES (?, ?, ?)")
                        .bind(1000 * size + j)
                        .bind(b)
                        .bind(body)
                        .execute(&mut *tx)
                        .await
                        .unwrap();
                }
                tx.commit().await.unwrap();
            }
            let secs = t.elapsed().as_secs_f64();
            println!(
                "sqlite {label:<6} batches of {size:<3} {:>8.0} events/s  ({:.2} ms a batch)",
                (batches * size) as f64 / secs,
                secs * 1000.0 / batches as f64
            );
        }
        pool.close().await;
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
        }
    }
}
