//! Scripted games: two signed-in clients per room playing a fixed sequence of moves, each
//! acknowledged, a new room when the sequence runs out.

use super::*;

/// The point of move `n` (1-based, odd = Black): Black fills rows y = 1, 5, 9, 13, 17 and
/// White rows 3, 7, 11, 15, 19, plane after plane; the even rows stay empty, so every chain
/// keeps a liberty and no move captures, is suicide or repeats. `None` past the walk's end.
pub(crate) fn point_of(board: Board, n: u32) -> Option<(i64, i64, i64)> {
    let k = i64::from(n) - 1;
    let i = k / 2;
    let first_row = if k % 2 == 0 { 1 } else { 3 };
    let planes = if board == Board::Space { 19 } else { 1 };
    let per_plane = 5 * 19;
    let z = 1 + i / per_plane;
    if z > planes {
        return None;
    }
    let r = i % per_plane;
    Some((1 + r % 19, first_row + 4 * (r / 19), z))
}

pub(crate) fn settings(board: Board) -> MatchSettings {
    let mut s = match board {
        Board::Space => MatchSettings::space_default(),
        Board::Classic => MatchSettings::classic_default(19),
    };
    s.colours = ColourAssignment::HostBlack;
    s
}

pub(crate) fn error_kind(what: &str, r: &Result<Answer, reqwest::Error>) -> String {
    match r {
        Ok((status, body)) => format!("{what} {status} {}", body["error"].as_str().unwrap_or("?")),
        Err(e) => format!("{what} transport: {}", testclient::error_kind(e)),
    }
}

/// A new room for the pair, both seated, confirmed and ready. Returns its id.
pub(crate) async fn new_room(black: &Client, white: &Client, board: Board, name: &str) -> Result<i64, String> {
    started_room(black, white, name, &settings(board)).await
}

pub(crate) struct Position {
    next: u32,
    /// (acknowledging colour is Black?, move number)
    pending_ack: Option<(bool, u32)>,
}

/// Reads the room's view and continues from what the server holds (after an error).
pub(crate) async fn resync(black: &Client, white: &Client, room: i64) -> Option<Position> {
    let view: Value =
        black.http.get(format!("{}/api/v1/rooms/{room}", black.base)).send().await.ok()?.json().await.ok()?;
    match view["phase"].as_str()? {
        "playing" => {}
        "waiting_ready" => {
            let _ = black.try_cmd(room, &Command::Ready).await;
            let _ = white.try_cmd(room, &Command::Ready).await;
            return None; // look again next time
        }
        _ => return None,
    }
    let next = view["move_number"].as_u64()? as u32 + 1;
    let pending_ack = match &view["awaiting_ack"] {
        Value::Null => None,
        v => Some((v[0] == "black", v[1].as_u64()? as u32)),
    };
    Some(Position { next, pending_ack })
}

/// One game: move, acknowledge, move, acknowledge … until told to stop. When the scripted
/// walk is used up, Black resigns and the pair starts a new room (its spectators follow).
pub(crate) async fn play(
    idx: usize,
    black: Client,
    white: Client,
    mut room: i64,
    board: Board,
    slot: watch::Sender<i64>,
    stats: Arc<Stats>,
) {
    let mut at = Position { next: 1, pending_ack: None };
    let mut move_rtt = Vec::new();
    let mut ack_rtt = Vec::new();
    let mut generation = 0;
    while !stats.stop.load(Relaxed) {
        if let Some((black_acks, n)) = at.pending_ack {
            let who = if black_acks { &black } else { &white };
            let t = Instant::now();
            let r = who.try_cmd(room, &Command::Acknowledge { move_number: n }).await;
            let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
            if stats.stop.load(Relaxed) {
                break;
            }
            match r {
                Ok((200, _)) => {
                    at.pending_ack = None;
                    if stats.measuring.load(Relaxed) {
                        stats.acks.fetch_add(1, Relaxed);
                        ack_rtt.push(us);
                    }
                }
                other => {
                    stats.error(error_kind("acknowledge", &other));
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    if let Some(p) = resync(&black, &white, room).await {
                        at = p;
                    }
                }
            }
            continue;
        }
        let n = at.next;
        let Some((x, y, z)) = point_of(board, n) else {
            // Walk used up: end this game and start another for the same pair.
            let _ = black.try_cmd(room, &Command::Resign).await;
            generation += 1;
            match new_room(&black, &white, board, &format!("load {idx}.{generation}")).await {
                Ok(r) => {
                    room = r;
                    slot.send_replace(r);
                    stats.rooms_rotated.fetch_add(1, Relaxed);
                    at = Position { next: 1, pending_ack: None };
                }
                Err(e) => {
                    stats.error(format!("new room: {e}"));
                    return;
                }
            }
            continue;
        };
        let (mover, black_moves) = if n % 2 == 1 { (&black, true) } else { (&white, false) };
        let t = Instant::now();
        let r = mover.try_cmd(room, &Command::Move { at: Xyz { x, y, z } }).await;
        let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
        if stats.stop.load(Relaxed) {
            break;
        }
        match r {
            Ok((200, _)) => {
                at = Position { next: n + 1, pending_ack: Some((!black_moves, n)) };
                if stats.measuring.load(Relaxed) {
                    stats.moves.fetch_add(1, Relaxed);
                    move_rtt.push(us);
                }
            }
            other => {
                stats.error(error_kind("move", &other));
                tokio::time::sleep(Duration::from_millis(10)).await;
                if let Some(p) = resync(&black, &white, room).await {
                    at = p;
                }
            }
        }
    }
    stats.move_rtt_us.lock().unwrap().extend(move_rtt);
    stats.ack_rtt_us.lock().unwrap().extend(ack_rtt);
}
