//! Reads the error tree's internally tagged enums straight from the JSON object: an answer's
//! `{"error": code, ..fields}`, a refusal's `{"code": ..}`, a problem's `{"kind": ..}`.
//!
//! Why not serde's derive: for an internally tagged enum it buffers the object into serde's
//! private `Content` and instantiates every variant's visitor over that buffer. Any server
//! function may answer with any of the tree's ~130 variants, so the browser's main module
//! carried all of them: 290 KB of its 1.7 MB of code. Here a variant is one line naming its
//! fields (`tagged!`); the tag is parsed into the enum's strum discriminant (`…Code`), so the
//! match is exhaustive and a new variant does not compile without its line, and a field left
//! out does not compile either. The app's own errors (`app::error::decode`) are read with the
//! same macros; its tests round-trip every code of both.
//!
//! The lists' `SeatLabel` (every room of the home page's lists names its seats) is read the
//! same way. Serializing stays serde's derive: the wire form is unchanged.

use serde::{de::Error as _, Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::commands::*;
use crate::conduct::{
    AppealRefusal, AppealRefusalCode, ReportRefusal, ReportRefusalCode, SanctionProblem, SanctionProblemCode,
};
use crate::listing::{SeatLabel, SeatLabelCode};

/// A value read from one JSON field.
pub trait FromJson: Sized {
    fn from_json(v: &Value) -> Option<Self>;
}

/// An internally tagged enum of the error tree.
pub trait Tagged: Sized {
    /// The field that names the variant.
    const TAG: &'static str;
    /// The variants' names (strum's discriminant enum).
    type Code: std::str::FromStr + strum::IntoEnumIterator + Copy + Eq + std::fmt::Debug;
    /// The variant named `code` with its fields read from `f`; `None` when a field is missing
    /// or of the wrong type, or when `code` names a variant that is never sent.
    fn decode(code: Self::Code, f: &Fields<'_>) -> Option<Self>;

    fn from_map(map: &Map<String, Value>) -> Option<Self> {
        let code = map.get(Self::TAG)?.as_str()?.parse().ok()?;
        Self::decode(code, &Fields(map))
    }
}

/// The object a variant's fields are read from.
pub struct Fields<'a>(&'a Map<String, Value>);

impl Fields<'_> {
    /// A missing field reads as `null`: only an `Option` accepts it (as serde does).
    pub fn get<T: FromJson>(&self, name: &str) -> Option<T> {
        T::from_json(self.0.get(name).unwrap_or(&Value::Null))
    }
}

/// `Deserialize` for a [`Tagged`] enum: read the object, then the variant.
pub fn deserialize<'de, D: Deserializer<'de>, T: Tagged>(d: D, what: &str) -> Result<T, D::Error> {
    let map = Map::<String, Value>::deserialize(d)?;
    T::from_map(&map).ok_or_else(|| {
        let code = map.get(T::TAG).and_then(Value::as_str).unwrap_or("");
        D::Error::custom(format_args!("not a {what}: {:?} {code:?} with these fields", T::TAG))
    })
}

/// One match arm per variant: `Unit`, `Struct { field, .. }`, each field read under its own
/// name. The `skip` variants are never sent under this tag.
#[macro_export]
macro_rules! tagged {
    ($t:ident, $code:ident, $tag:literal;
     $($v:ident $({ $($field:ident),* })?),* $(,)?
     $(; skip $($skip:ident),*)?) => {
        impl $crate::decode::Tagged for $t {
            const TAG: &'static str = $tag;
            type Code = $code;
            fn decode(code: $code, f: &$crate::decode::Fields<'_>) -> Option<Self> {
                let _ = f;
                Some(match code {
                    $($code::$v => $t::$v $({ $($field: f.get(stringify!($field))?),* })?,)*
                    $($($code::$skip => return None,)*)?
                })
            }
        }
    };
}

/// `FromJson` and `Deserialize` through [`Tagged`] (for every tagged enum but the app's error,
/// whose `Deserialize` reads its body).
#[macro_export]
macro_rules! read_by_hand {
    ($($t:ident),* $(,)?) => {$(
        impl $crate::decode::FromJson for $t {
            fn from_json(v: &::serde_json::Value) -> Option<Self> {
                <$t as $crate::decode::Tagged>::from_map(v.as_object()?)
            }
        }
        impl<'de> ::serde::Deserialize<'de> for $t {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::decode::deserialize(d, stringify!($t))
            }
        }
    )*};
}

/// Field types that serde reads without buffering (plain enums, `Xyz`).
macro_rules! by_serde {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(v: &Value) -> Option<Self> {
                <$t>::deserialize(v).ok()
            }
        }
    )*};
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(v: &Value) -> Option<Self> {
                v.as_u64()?.try_into().ok()
            }
        }
    )*};
}

unsigned!(u32, u64, usize);

impl FromJson for i64 {
    fn from_json(v: &Value) -> Option<Self> {
        v.as_i64()
    }
}

impl FromJson for String {
    fn from_json(v: &Value) -> Option<Self> {
        v.as_str().map(str::to_string)
    }
}

impl FromJson for char {
    fn from_json(v: &Value) -> Option<Self> {
        let mut chars = v.as_str()?.chars();
        chars.next().filter(|_| chars.next().is_none())
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(v: &Value) -> Option<Self> {
        if v.is_null() {
            Some(None)
        } else {
            T::from_json(v).map(Some)
        }
    }
}

by_serde!(
    crate::events::Colour,
    crate::events::Xyz,
    crate::events::FaultCause,
    crate::events::MarkKind,
    crate::referee::QueueKind,
    RoomPhase,
    PhaseNeeded,
    PendingKind,
    engine::IllegalKind
);

tagged!(MatchError, MatchErrorCode, "error";
    RoomNotFound, BadInviteCode, SeatTaken, AlreadySeated, ByInvitationOnly, NotTheCreator,
    NotAPlayer, AdminOnly,
    WrongPhase { phase, needed },
    Suspended { colour, cause },
    AlreadyDone,
    NotYourTurn { to_move },
    AwaitingAcknowledgement { colour, move_number },
    NothingToAcknowledge { move_number },
    OffBoard { at, x_range, y_range, z_range },
    Illegal { at, reason },
    TimeExpired { colour },
    UndoNotAllowed { why },
    DrawOfferNotAllowed { why },
    NoPendingRequest { what },
    BadMark { at, why },
    NotYourMark { at },
    StaleStatement { given, latest },
    InvalidInput { field, min, max, got },
    UnknownUser { username },
    RecordNotAllowed,
    RecordDeleted { at_ms },
    BadRuling { at, why },
    ObjectionNotAllowed { why },
    RecordDamaged { seq },
    ViewingRestricted { sanction },
    NoSanction { number },
    NotYourSanction { number },
    AppealNotAllowed { why },
    BadSanction { why },
    ServedElsewhere { retry_after_s },
    DatabaseUnavailable { retry_after_s },
    Internal,
);

tagged!(RulingProblem, RulingProblemCode, "code";
    NoStone, NotEmpty, NeedsTwoSafeSpaces { cited, candidates }, NotALifeSpace { space }, Repeated,
);

tagged!(ObjectionRefusal, ObjectionRefusalCode, "code";
    NoRuling, AlreadyObjected, NotATimeLoss, TooLate { limit_days },
);

tagged!(UndoRefusal, UndoRefusalCode, "code";
    InScoring, OffInThisMatch, AllUsed { allowance }, AlreadyPending, NoMove, PassCannotBeUndone,
    AlreadyRefused,
);

tagged!(DrawRefusal, DrawRefusalCode, "code";
    OffInThisMatch, OfferPending { by }, TooSoon { needed, so_far },
);

tagged!(MarkProblem, MarkProblemCode, "code";
    NoStone, NotEmpty, MarkedOtherwise { kind, by }, NothingMarked,
);

tagged!(AppealRefusal, AppealRefusalCode, "code";
    AlreadyAppealed, TooLate { limit_days, until_ms }, UnderReview, NothingToDecide,
);

tagged!(SanctionProblem, SanctionProblemCode, "code";
    PenaltyNotForTarget, IsAPlayer, NoPerson, FindingsRequired, NotStarted, ResultRequired,
    AlreadyRestricted,
);

tagged!(ReportRefusal, ReportRefusalCode, "code";
    NotAViewer, Yourself, NotASpectator { username }, NoPerson, NoSuchEvent { max },
);

tagged!(SeatLabel, SeatLabelCode, "kind"; Person { username }, Guest { name }, Computer);

read_by_hand!(
    SeatLabel,
    MatchError,
    RulingProblem,
    ObjectionRefusal,
    UndoRefusal,
    DrawRefusal,
    MarkProblem,
    AppealRefusal,
    SanctionProblem,
    ReportRefusal
);
