//! Same workload, same process, same thread-CPU clock: this engine's
//! playouts vs. `board-game`'s `GoBoard` (0.8.2).
//!
//! Workload: uniformly random legal moves that do not fill a single-point own
//! eye, pass when none, stop at two consecutive passes or 3×points moves.
//! This engine uses the immediate-repetition rule (003 §2.3); `board-game`
//! only implements positional superko (its history set), which is the closest
//! it offers — the one deliberate difference.
//!
//! Usage: engine-compare [SIZE] [PLAYOUTS] [ROUNDS]   (defaults 19 1000 5)
//! Prints one JSON line per engine and round, then the median ratio.

use std::sync::Arc;

use board_game::board::{Board as _, Player};
use board_game::games::go::{FlatTile, GoBoard, Komi, Move as BgMove, Rules as BgRules, State};
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn thread_cpu_seconds() -> f64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: valid writable timespec (64-bit Linux layout); CLOCK_THREAD_CPUTIME_ID = 3.
    let rc = unsafe { clock_gettime(3, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime failed");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

struct Run {
    playouts: u64,
    moves: u64,
    secs: f64,
}

fn ours(size: i64, n: u64, seed: u64) -> Run {
    let geom = engine::Geometry::flat(size, size).expect("odd size 1..=25");
    let mut board = engine::Board::new(Arc::new(geom));
    let t0 = thread_cpu_seconds();
    let st = engine::playout::run_playouts(&mut board, n, seed);
    let t1 = thread_cpu_seconds();
    Run {
        playouts: st.playouts,
        moves: st.moves,
        secs: t1 - t0,
    }
}

fn is_own_eye(b: &GoBoard, tile: FlatTile, me: Player) -> bool {
    let size = b.size();
    let chains = b.chains();
    tile.all_adjacent(size)
        .all(|n| chains.stone_at(n) == Some(me))
}

fn theirs(size: u8, n: u64, seed: u64) -> Run {
    let mut rng = SmallRng::seed_from_u64(seed);
    let max_moves = 3 * size as u64 * size as u64;
    let mut moves = 0u64;
    let t0 = thread_cpu_seconds();
    for _ in 0..n {
        let mut b = GoBoard::new(size, Komi::zero(), BgRules::cgos());
        let mut m = 0u64;
        while m < max_moves && !matches!(b.state(), State::Done(_)) {
            let me = b.next_player();
            let tile = b.chains().random_empty_tile_where(&mut rng, |t| {
                !is_own_eye(&b, t, me)
                    && b.is_available_move(BgMove::Place(t.to_tile(size)))
                        .unwrap_or(false)
            });
            let mv = match tile {
                Some(t) => BgMove::Place(t.to_tile(size)),
                None => BgMove::Pass,
            };
            b.play(mv).expect("chosen move is available");
            m += 1;
        }
        moves += m;
    }
    let t1 = thread_cpu_seconds();
    Run {
        playouts: n,
        moves,
        secs: t1 - t0,
    }
}

fn print(name: &str, size: u8, r: &Run) {
    println!(
        "{{\"engine\":\"{name}\",\"board\":\"{size}x{size}x1\",\"playouts\":{},\"moves\":{},\"cpu_seconds\":{:.6},\"playouts_per_cpu_s\":{:.1},\"moves_per_cpu_s\":{:.1},\"moves_per_playout\":{:.1}}}",
        r.playouts,
        r.moves,
        r.secs,
        r.playouts as f64 / r.secs,
        r.moves as f64 / r.secs,
        r.moves as f64 / r.playouts as f64
    );
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size: u8 = args.first().and_then(|s| s.parse().ok()).unwrap_or(19);
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let mut pr = Vec::new();
    let mut mr = Vec::new();
    for round in 0..rounds {
        let seed = 1000 + round as u64;
        let a = ours(size as i64, n, seed);
        let b = theirs(size, n, seed);
        print("space-baduk", size, &a);
        print("board-game 0.8.2", size, &b);
        pr.push((a.playouts as f64 / a.secs) / (b.playouts as f64 / b.secs));
        mr.push((a.moves as f64 / a.secs) / (b.moves as f64 / b.secs));
    }
    println!(
        "{{\"board\":\"{size}x{size}x1\",\"rounds\":{rounds},\"median_playouts_ratio\":{:.2},\"median_moves_ratio\":{:.2}}}",
        median(pr),
        median(mr)
    );
}
