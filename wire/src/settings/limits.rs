//! The limits settings must keep, each with the clause that sets it.

use engine::Komi;

/// The seed release that common-rules version 1 restates (003 header: integrated review
/// release 1.9.1-rc1); rooms stored before versions were data name it instead of 1.
pub const SEED_RULES_RELEASE: &str = "1.9.1-rc1";
/// Record retention: 0–36,500 days, 0 = kept for ever (003 §10.1).
pub const RETENTION_DAYS_MAX: u32 = 36_500;

/// Space komi: 0 ..= the engine's maximum (1000 points), in half points (003 §4.3; the seed
/// sets no upper bound, the engine's [`Komi::MAX_POINTS`] is used).
pub const SPACE_KOMI_MAX_HALF: i32 = 2 * Komi::MAX_POINTS as i32;
/// Classic komi −10 ..= 10 in steps of 0.5 (000 §2), in half points.
pub const CLASSIC_KOMI_MIN_HALF: i32 = -20;
pub const CLASSIC_KOMI_MAX_HALF: i32 = 20;
/// Classic board sizes (000 §2 `boardSize`).
pub const CLASSIC_SIZES: [u16; 3] = [9, 13, 19];
/// Space time limit per side: 1..=5 whole hours (003 §1.2).
pub const SPACE_HOURS_MIN: u32 = 1;
pub const SPACE_HOURS_MAX: u32 = 5;
/// Classic time options (000 §2).
pub const CLASSIC_MAIN_MAX_S: u32 = 3600;
pub const CLASSIC_PERIOD_S: [u32; 4] = [10, 20, 30, 60];
pub const CLASSIC_PERIODS_MIN: u32 = 1;
pub const CLASSIC_PERIODS_MAX: u32 = 5;
pub const CLASSIC_INCREMENT_MAX_S: u32 = 30;
pub const CLASSIC_IDLE_LIMIT_S: [u32; 2] = [300, 600];
/// Classic undo allowance counts (000 §2 `undo`: off / 1 / 3 / unlimited).
pub const CLASSIC_UNDO_COUNTS: [u32; 2] = [1, 3];
/// Classic dead-stone review limit (000 §2 `scoringDeadlineSec`, §8.5).
pub const CLASSIC_SCORING_DEADLINE_S: [u32; 3] = [120, 180, 300];
/// Classic disconnection grace (000 §2 `disconnectGraceSec`, §8.5).
pub const CLASSIC_DISCONNECT_GRACE_S: [u32; 3] = [60, 120, 300];
/// Space disconnection wait: five minutes, then the match is held (003 §6.1).
pub const SPACE_DISCONNECT_WAIT_S: u32 = 300;
/// Space scoring-wait alert: 0–10,080 minutes (003 §10.1), whole minutes; on expiry the
/// administrator decides, never automatic consent (003 §10.2).
pub const SPACE_SCORING_WAIT_MAX_S: u32 = 10_080 * 60;
/// Space scoring-wait default (the seed leaves the number blank for the administrator,
/// 003 §10.1; 30 minutes is this program's choice).
pub const SPACE_SCORING_WAIT_DEFAULT_S: u32 = 30 * 60;
/// Special rules (003 §1.4): at most this many entries, each at most this many characters.
pub const MAX_SPECIAL_RULES: usize = 10;
pub const MAX_SPECIAL_RULE_CHARS: usize = 200;
/// Agreed assistants (003 §6.4): at most this many, names at most this many characters.
pub const MAX_ASSISTANTS: usize = 4;
pub const MAX_ASSISTANT_NAME_CHARS: usize = 80;
