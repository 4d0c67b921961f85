//! The readers of the error tree's internally tagged enums: a refusal's `{"error": code, ..}`,
//! `{"code": ..}` or `{"kind": ..}`, and the lists' `SeatLabel` (every room of the home page's
//! lists names its seats). Read by value through the `tag_first` crate (which says why not
//! serde's derive): any server function may answer with any of the tree's variants, so each
//! is compiled once into the browser's first download, whatever reader reached it. The app's
//! own errors (`app::error::decode`) are read the same way; its tests round-trip every code of
//! both. Serializing stays serde's derive: the wire form is unchanged.

use tag_first::tag_first;

use crate::commands::*;
use crate::conduct::{
    AppealRefusal, AppealRefusalCode, ReportRefusal, ReportRefusalCode, SanctionProblem, SanctionProblemCode,
};
use crate::learning::{TrainingRefusal, TrainingRefusalCode};
use crate::listing::{SeatLabel, SeatLabelCode};

tag_first!(by_value MatchError, MatchErrorCode, "error";
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

tag_first!(by_value RulingProblem, RulingProblemCode, "code";
    NoStone, NotEmpty, NeedsTwoSafeSpaces { cited, candidates }, NotALifeSpace { space }, Repeated,
);

tag_first!(by_value ObjectionRefusal, ObjectionRefusalCode, "code";
    NoRuling, AlreadyObjected, NotATimeLoss, TooLate { limit_days },
);

tag_first!(by_value UndoRefusal, UndoRefusalCode, "code";
    InScoring, OffInThisMatch, AllUsed { allowance }, AlreadyPending, NoMove, PassCannotBeUndone,
    AlreadyRefused,
);

tag_first!(by_value DrawRefusal, DrawRefusalCode, "code";
    OffInThisMatch, OfferPending { by }, TooSoon { needed, so_far },
);

tag_first!(by_value MarkProblem, MarkProblemCode, "code";
    NoStone, NotEmpty, MarkedOtherwise { kind, by }, NothingMarked,
);

tag_first!(by_value AppealRefusal, AppealRefusalCode, "code";
    AlreadyAppealed, TooLate { limit_days, until_ms }, UnderReview, NothingToDecide,
);

tag_first!(by_value SanctionProblem, SanctionProblemCode, "code";
    PenaltyNotForTarget, IsAPlayer, NoPerson, FindingsRequired, NotStarted, ResultRequired,
    AlreadyRestricted,
);

tag_first!(by_value ReportRefusal, ReportRefusalCode, "code";
    NotAViewer, Yourself, NotASpectator { username }, NoPerson, NoSuchEvent { max },
);

tag_first!(by_value SeatLabel, SeatLabelCode, "kind"; Person { username }, Guest { name }, Computer);

tag_first!(by_value TrainingRefusal, TrainingRefusalCode, "kind";
    TooFewGames { have, need },
    EpochsOutOfRange { got, min, max },
    AlreadyRunning,
    PauseNotConfirmed { games_in_play },
    NoPairs,
);
