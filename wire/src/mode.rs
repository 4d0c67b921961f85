//! Who sits at the table (003 §1.2, §11.1–11.4): a match between two accounts, two people on
//! one device, an administrator's solo practice, or a person against the basic computer. The
//! mode is part of the agreement stored with the room; it never changes after creation.
//!
//! A program match's game (`ProgramGame`) has the computer in both seats. Each computer seat
//! (`ComputerSeat`) has its level, time per move, and the model and seed pinned at creation
//! (`ModelPin`).

use serde::{Deserialize, Serialize};

use super::terms::Colour;

/// Computer levels (engine `computer::Level`): 1 the evaluator alone, 2 the search.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=2;
/// The computer's time per move, in milliseconds.
pub const MOVE_MS: std::ops::RangeInclusive<u32> = 100..=10_000;
/// The default: the strongest level at one second per move.
pub const DEFAULT_MOVE_MS: u32 = 1_000;
/// Longest name entered for the second player on one device (characters).
pub const GUEST_NAME_LEN: std::ops::RangeInclusive<usize> = 1..=40;

/// The model a computer seat plays with, pinned when the room is created (003 §12.5: a room
/// never switches model). Filled by the server from its model store; a client's value is
/// ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModelPin {
    pub id: i64,
    pub version: u32,
    /// The weights' fingerprint: the server checks the stored model against it before the
    /// computer plays.
    pub fingerprint: String,
}

/// A seat held by the basic computer (003 §11.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ComputerSeat {
    /// The colour the computer plays.
    pub colour: Colour,
    /// 1: the evaluator alone; 2: the search with the evaluator as prior.
    pub level: u8,
    /// Time per move (ms, 100..=10000).
    pub move_ms: u32,
    /// The model chosen by id; absent: the server's default model.
    #[serde(default)]
    pub model_id: Option<i64>,
    /// Set by the server at creation.
    #[serde(default)]
    pub model: Option<ModelPin>,
    /// The seed of the computer's random choices (rand_chacha), drawn and recorded at
    /// creation so that its moves can be replayed; set by the server.
    #[serde(default)]
    pub seed: u64,
}

/// Who takes the seat facing the computer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Opponent {
    /// The room's creator plays.
    #[default]
    Creator,
    /// Whoever the creator invites (by the second invitation code): another person or a
    /// program such as the exported participant script (003 §12.6).
    Invited,
}

/// The room's mode.
// Read by `tag_first::tag_first!` below, not serde's derive (it buffers internally tagged enums).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[strum_discriminants(
    name(RoomModeCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum RoomMode {
    /// Two accounts, each seated by invitation (the first wave's only mode).
    #[default]
    Match,
    /// Two people on one device: the creator's account holds both seats; the second seat
    /// carries the name entered for the other player. Readiness, undo answers and consents
    /// are given on that screen for each colour in turn.
    OneDevice { second_player: String },
    /// An administrator's solo practice (003 §11.1–11.3): both colours alternately, or
    /// against the computer. Never a result between two players.
    Practice {
        #[serde(default)]
        computer: Option<ComputerSeat>,
    },
    /// A player against the basic computer (003 §1.2, §11.4).
    VsComputer {
        computer: ComputerSeat,
        #[serde(default)]
        opponent: Opponent,
    },
    /// One game of an administrator's program match (003 §12.4): a computer in each seat,
    /// contestant A in the first, B in the second. The dead stones are proposed by Black's
    /// estimate and agreed automatically (flagged as such), then reviewed as usual. Created
    /// only by starting a program match, never by the new-room form or API.
    /// (The seats are boxed: they would double the size of every stored event otherwise.)
    ProgramGame { first: Box<ComputerSeat>, second: Box<ComputerSeat>, series: i64, game: u32 },
}

tag_first::tag_first!(deny_unknown_fields RoomMode, RoomModeCode, "kind"; Match, OneDevice { second_player }, Practice { computer = Default::default() }, VsComputer { computer, opponent = Default::default() }, ProgramGame { first, second, series, game });

impl RoomMode {
    /// Every computer seat of the room (none, one, or two in a program game).
    pub fn computers(&self) -> Vec<&ComputerSeat> {
        match self {
            RoomMode::Practice { computer } => computer.iter().collect(),
            RoomMode::VsComputer { computer, .. } => vec![computer],
            RoomMode::ProgramGame { first, second, .. } => vec![&**first, &**second],
            RoomMode::Match | RoomMode::OneDevice { .. } => Vec::new(),
        }
    }

    pub fn computers_mut(&mut self) -> Vec<&mut ComputerSeat> {
        match self {
            RoomMode::Practice { computer } => computer.iter_mut().collect(),
            RoomMode::VsComputer { computer, .. } => vec![computer],
            RoomMode::ProgramGame { first, second, .. } => vec![&mut **first, &mut **second],
            RoomMode::Match | RoomMode::OneDevice { .. } => Vec::new(),
        }
    }

    /// The computer seat that plays `colour`, if a computer does.
    pub fn computer_playing(&self, colour: Colour) -> Option<&ComputerSeat> {
        self.computers().into_iter().find(|c| c.colour == colour)
    }

    /// Only programs play: a program match's game.
    pub fn is_program_game(&self) -> bool {
        matches!(self, RoomMode::ProgramGame { .. })
    }

    pub fn is_practice(&self) -> bool {
        matches!(self, RoomMode::Practice { .. })
    }

    /// One account answers for both colours (one device, or practice without the computer).
    pub fn one_screen_both_colours(&self) -> bool {
        matches!(self, RoomMode::OneDevice { .. } | RoomMode::Practice { computer: None })
    }

    /// The seats are filled when the room is created (no invitations are used), except the
    /// invited seat facing a computer.
    pub fn seats_at_creation(&self) -> bool {
        !matches!(self, RoomMode::Match | RoomMode::VsComputer { opponent: Opponent::Invited, .. })
    }

    /// What lists and records mark the room as.
    pub fn tag(&self) -> ModeTag {
        match self {
            RoomMode::Match => ModeTag::Match,
            RoomMode::OneDevice { .. } => ModeTag::OneDevice,
            RoomMode::Practice { .. } => ModeTag::Practice,
            RoomMode::VsComputer { .. } => ModeTag::VsComputer,
            RoomMode::ProgramGame { .. } => ModeTag::ProgramMatch,
        }
    }
}

/// A mode's mark in lists, results and records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ModeTag {
    Match,
    OneDevice,
    Practice,
    VsComputer,
    ProgramMatch,
}
