//! The model file (003 §12.5–12.7): the eight weights, their fingerprint and
//! where they came from, as JSON that carries a model to another computer.
//!
//! # Format (`space-baduk-model`, version 1)
//!
//! ```json
//! {
//!   "format": "space-baduk-model",
//!   "format_version": 1,
//!   "weights": {
//!     "captures": 2.5, "saves_atari": 1.75, "self_atari": -3.0, "puts_in_atari": 0.5,
//!     "liberties": 0.25, "near_last_move": 0.125, "surface_distance": -0.0625, "fills_own_eye": -4.0
//!   },
//!   "fingerprint": "sha256:…64 lowercase hex digits…",
//!   "provenance": {
//!     "model_id": "m-7",
//!     "version": 3,
//!     "created_at": "2025-11-30T14:05:00Z",
//!     "source_games": [{"room": "12", "statement": 1, "held_out": false},
//!                      {"room": "15", "statement": 2, "held_out": true}],
//!     "metrics": {"epochs": 20, "train_games": 1, "holdout_games": 1,
//!                 "train_pairs_available": 4200, "train_pairs": 4200,
//!                 "holdout_pairs_available": 3900, "holdout_pairs": 3900,
//!                 "start_holdout_accuracy": 0.55, "start_holdout_log_loss": 0.69,
//!                 "holdout_accuracy": 0.71, "holdout_log_loss": 0.58,
//!                 "holdout_top1": 0.12, "holdout_mean_rank": 31.5},
//!     "trained_from": "sha256:…the parent model's fingerprint…",
//!     "note": "free text, at most 500 characters"
//!   }
//! }
//! ```
//!
//! [`ModelFile::from_json`] checks everything (003 §12.6 "validate its format,
//! numeric bounds and fingerprint") and names the offending field as a JSON
//! path (`weights.captures`, `provenance.source_games[3].room`) with the
//! allowed values. Unknown keys are refused everywhere, so a model file can
//! carry nothing but what is listed here: no passwords, invitation codes or
//! game records (003 §12.7). `metrics`, `trained_from` and `note` may be
//! absent or `null`.
//!
//! Limits: every weight finite with |w| ≤ [`WEIGHT_BOUND`]; identifiers
//! (`model_id`, `room`) 1–[`MAX_ID_CHARS`] characters of `A–Z a–z 0–9 . _ : -`;
//! `created_at` an RFC 3339 date-time (at most [`MAX_TIMESTAMP_CHARS`]
//! characters); `note` at most [`MAX_NOTE_CHARS`] characters without control
//! characters; at most [`MAX_SOURCE_GAMES`] source games, no game listed
//! twice; the whole text at most [`MAX_MODEL_JSON_BYTES`] bytes.

use super::{Feature, Weights, FEATURE_COUNT};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// The `format` string of a model file.
pub const MODEL_FORMAT: &str = "space-baduk-model";
/// The `format_version` this engine writes and reads.
pub const MODEL_FORMAT_VERSION: u32 = 1;
/// Largest allowed |weight| (003 §12.6 "numeric bounds"). Training keeps its
/// weights within it, so every trained model can be exported.
pub const WEIGHT_BOUND: f64 = 100.0;
/// Longest `model_id` or source-game `room`.
pub const MAX_ID_CHARS: usize = 64;
/// Longest `created_at`.
pub const MAX_TIMESTAMP_CHARS: usize = 40;
/// Longest `note`.
pub const MAX_NOTE_CHARS: usize = 500;
/// Most source games a model may list.
pub const MAX_SOURCE_GAMES: usize = 50_000;
/// Largest model file accepted by [`ModelFile::from_json`].
pub const MAX_MODEL_JSON_BYTES: usize = 4 << 20;
/// Largest held-out log loss a model may report (a bound, not a goal).
pub const MAX_LOG_LOSS: f64 = 1_000.0;
/// The prefix of the fingerprint's canonical text (see [`fingerprint`]).
pub const FINGERPRINT_DOMAIN: &str = "space-baduk-weights/1:";

/// The most training pairs one run may use (003 §12.3).
pub const MAX_TRAIN_PAIRS: u32 = 20_000;
/// The most held-out pairs one run may use (003 §12.3).
pub const MAX_HOLDOUT_PAIRS: u32 = 10_000;
/// The allowed number of epochs of one run (003 §12.3).
pub const MIN_EPOCHS: u32 = 1;
pub const MAX_EPOCHS: u32 = 50;

/// The canonical text whose SHA-256 is the fingerprint: the ASCII text
/// `space-baduk-weights/1:` followed by the eight weights in [`Feature`]
/// order, each written as the 16 lowercase hexadecimal digits of its
/// IEEE-754 binary64 bit pattern (`f64::to_bits`, most significant digit
/// first), joined by `,`, with no spaces and no trailing newline. Negative
/// zero is written as positive zero (`0000000000000000`), because JSON
/// writers disagree about `-0`.
///
/// Example: weights `[1, 0, 0, 0, 0, 0, 0, -2]` give
/// `space-baduk-weights/1:3ff0000000000000,0000000000000000,…,0000000000000000,c000000000000000`.
pub fn canonical_text(w: &Weights) -> String {
    let mut s = String::with_capacity(FINGERPRINT_DOMAIN.len() + FEATURE_COUNT * 17);
    s.push_str(FINGERPRINT_DOMAIN);
    for (i, &x) in w.0.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let x = if x == 0.0 { 0.0 } else { x };
        s.push_str(&format!("{:016x}", x.to_bits()));
    }
    s
}

/// The weights' fingerprint: `sha256:` and the 64 lowercase hex digits of
/// the SHA-256 of [`canonical_text`] (UTF-8, which here is ASCII).
///
/// It is a consistency check only (003 §12.6): it shows that the weights
/// were not changed since the fingerprint was written, by accident or in
/// transit. It is **not** a signature and proves nothing about who made the
/// model — anyone can compute it for any weights.
pub fn fingerprint(w: &Weights) -> String {
    let digest = Sha256::digest(canonical_text(w).as_bytes());
    let mut s = String::with_capacity(7 + 64);
    s.push_str("sha256:");
    for b in digest {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Whether `s` has the shape of a fingerprint: `sha256:` and 64 lowercase hex digits.
pub fn is_fingerprint(s: &str) -> bool {
    s.strip_prefix("sha256:")
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

/// One game a model was trained or checked on (003 §12.5 "source
/// game/scoring numbers"): the room and the number of the score statement
/// that settled its winner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceGame {
    pub room: String,
    pub statement: u32,
    /// `true` for a held-out (comparison) game, `false` for a training game
    /// (003 §12.3: a game is on one side only).
    pub held_out: bool,
}

/// The numbers a training run reports (003 §12.4: they describe the
/// held-out records only; better numbers do not prove a stronger player).
/// Rates are in `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TrainMetricsSummary {
    /// Epochs run, 1–50.
    pub epochs: u32,
    pub train_games: u32,
    pub holdout_games: u32,
    /// Training pairs the games offered and the (capped) number used.
    pub train_pairs_available: u64,
    pub train_pairs: u32,
    pub holdout_pairs_available: u64,
    pub holdout_pairs: u32,
    /// Held-out move-preference accuracy and log loss of the start weights.
    pub start_holdout_accuracy: f64,
    pub start_holdout_log_loss: f64,
    /// Held-out move-preference accuracy, log loss, top-1 share and mean
    /// rank (≥ 1) of the final weights.
    pub holdout_accuracy: f64,
    pub holdout_log_loss: f64,
    pub holdout_top1: f64,
    pub holdout_mean_rank: f64,
}

/// Where a model came from (003 §12.5).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Provenance {
    /// The model's identifier on the computer that made it.
    pub model_id: String,
    /// Its version, ≥ 1.
    pub version: u32,
    /// RFC 3339 date-time, written by the caller (the engine has no clock).
    pub created_at: String,
    pub source_games: Vec<SourceGame>,
    /// Absent for models not made by training (e.g. the default model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metrics: Option<TrainMetricsSummary>,
    /// Fingerprint of the start weights of the training run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trained_from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A validated model file. Build one with [`ModelFile::new`] (which writes
/// the fingerprint) or read one with [`ModelFile::from_json`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelFile {
    pub format: String,
    pub format_version: u32,
    #[serde(serialize_with = "weights_as_object")]
    pub weights: Weights,
    pub fingerprint: String,
    pub provenance: Provenance,
}

fn weights_as_object<S: Serializer>(w: &Weights, s: S) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(FEATURE_COUNT))?;
    for f in Feature::ALL {
        let name: &'static str = f.into();
        m.serialize_entry(name, &w.0[f.index()])?;
    }
    m.end()
}

/// Why a model file was refused. Every variant names the field as a JSON
/// path ([`ModelFileError::field`]) and the message says what is allowed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ModelFileError {
    #[error("the model file is {len} bytes; at most {max} are accepted")]
    TooLarge { len: usize, max: usize },
    #[error("the model file is not valid JSON (line {line}, column {column}): {message}")]
    Syntax { line: usize, column: usize, message: String },
    #[error("{field}: required field is missing")]
    Missing { field: String },
    #[error("{field}: unknown field; allowed here: {allowed}")]
    UnknownField { field: String, allowed: String },
    #[error("{field}: given more than once")]
    Duplicate { field: String },
    #[error("{field}: expected {expected}")]
    WrongType { field: String, expected: &'static str },
    #[error("{field}: must be \"{expected}\", got {found:?}")]
    WrongFormat { field: String, expected: &'static str, found: String },
    #[error("{field}: version {found} is not supported; this engine reads version {supported}")]
    UnsupportedVersion { field: String, found: u64, supported: u32 },
    #[error("{field}: {value} is outside the allowed range {min} to {max}")]
    OutOfRange { field: String, value: f64, min: f64, max: f64 },
    #[error("{field}: {len} characters; allowed {min} to {max}")]
    BadLength { field: String, len: usize, min: usize, max: usize },
    #[error("{field}: {found:?} is not allowed; {allowed}")]
    BadText { field: String, found: String, allowed: &'static str },
    #[error("{field}: {count} entries; at most {max}")]
    TooMany { field: String, count: usize, max: usize },
    #[error("{field}: {found:?} is not a fingerprint; expected \"sha256:\" and 64 lowercase hex digits")]
    FingerprintFormat { field: String, found: String },
    #[error("{field}: {found} does not match the weights, whose fingerprint is {expected}")]
    FingerprintMismatch { field: String, found: String, expected: String },
    #[error("{field}: {message}")]
    Inconsistent { field: String, message: String },
}

impl ModelFileError {
    /// The offending field as a JSON path (`""` for the whole file).
    pub fn field(&self) -> &str {
        use ModelFileError::*;
        match self {
            TooLarge { .. } | Syntax { .. } => "",
            Missing { field }
            | UnknownField { field, .. }
            | Duplicate { field }
            | WrongType { field, .. }
            | WrongFormat { field, .. }
            | UnsupportedVersion { field, .. }
            | OutOfRange { field, .. }
            | BadLength { field, .. }
            | BadText { field, .. }
            | TooMany { field, .. }
            | FingerprintFormat { field, .. }
            | FingerprintMismatch { field, .. }
            | Inconsistent { field, .. } => field,
        }
    }
}

type R<T> = Result<T, ModelFileError>;

impl ModelFile {
    /// A model file for these weights; the fingerprint is computed. Refused
    /// like [`ModelFile::from_json`] when a value is out of its range.
    pub fn new(weights: Weights, provenance: Provenance) -> R<ModelFile> {
        let m = ModelFile {
            format: MODEL_FORMAT.to_string(),
            format_version: MODEL_FORMAT_VERSION,
            fingerprint: fingerprint(&weights),
            weights,
            provenance,
        };
        m.validate()?;
        Ok(m)
    }

    /// Parse and check a model file (never panics). The first problem found
    /// is returned; fields are checked in the order of the format.
    pub fn from_json(s: &str) -> R<ModelFile> {
        if s.len() > MAX_MODEL_JSON_BYTES {
            return Err(ModelFileError::TooLarge { len: s.len(), max: MAX_MODEL_JSON_BYTES });
        }
        let j: J = serde_json::from_str(s).map_err(|e| ModelFileError::Syntax {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        let m = parse_model(&j)?;
        m.validate()?;
        Ok(m)
    }

    /// Check every value of an already built model file (ranges, texts, fingerprint).
    pub fn validate(&self) -> R<()> {
        if self.format != MODEL_FORMAT {
            return Err(ModelFileError::WrongFormat {
                field: "format".into(),
                expected: MODEL_FORMAT,
                found: self.format.clone(),
            });
        }
        if self.format_version != MODEL_FORMAT_VERSION {
            return Err(ModelFileError::UnsupportedVersion {
                field: "format_version".into(),
                found: self.format_version.into(),
                supported: MODEL_FORMAT_VERSION,
            });
        }
        check_weights(&self.weights, "weights")?;
        if !is_fingerprint(&self.fingerprint) {
            return Err(ModelFileError::FingerprintFormat {
                field: "fingerprint".into(),
                found: self.fingerprint.clone(),
            });
        }
        let expected = fingerprint(&self.weights);
        if self.fingerprint != expected {
            return Err(ModelFileError::FingerprintMismatch {
                field: "fingerprint".into(),
                found: self.fingerprint.clone(),
                expected,
            });
        }
        check_provenance(&self.provenance)
    }

    /// Compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
    /// Indented JSON (for downloads).
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// Each weight finite and within ±[`WEIGHT_BOUND`].
pub fn check_weights(w: &Weights, path: &str) -> R<()> {
    for f in Feature::ALL {
        let x = w.0[f.index()];
        if !x.is_finite() || x.abs() > WEIGHT_BOUND {
            let name: &'static str = f.into();
            return Err(ModelFileError::OutOfRange {
                field: format!("{path}.{name}"),
                value: x,
                min: -WEIGHT_BOUND,
                max: WEIGHT_BOUND,
            });
        }
    }
    Ok(())
}

fn check_id(s: &str, field: &str) -> R<()> {
    let len = s.chars().count();
    if !(1..=MAX_ID_CHARS).contains(&len) {
        return Err(ModelFileError::BadLength { field: field.into(), len, min: 1, max: MAX_ID_CHARS });
    }
    if !s.bytes().all(|b| b.is_ascii_alphanumeric() || b".:_-".contains(&b)) {
        return Err(ModelFileError::BadText {
            field: field.into(),
            found: s.into(),
            allowed: "only letters A-Z a-z, digits and . : _ - are allowed",
        });
    }
    Ok(())
}

fn range(x: f64, min: f64, max: f64, field: String) -> R<()> {
    if x.is_finite() && (min..=max).contains(&x) {
        Ok(())
    } else {
        Err(ModelFileError::OutOfRange { field, value: x, min, max })
    }
}

fn check_provenance(p: &Provenance) -> R<()> {
    check_id(&p.model_id, "provenance.model_id")?;
    if p.version < 1 {
        return Err(ModelFileError::OutOfRange {
            field: "provenance.version".into(),
            value: p.version.into(),
            min: 1.0,
            max: u32::MAX.into(),
        });
    }
    let len = p.created_at.chars().count();
    if !(1..=MAX_TIMESTAMP_CHARS).contains(&len) {
        return Err(ModelFileError::BadLength {
            field: "provenance.created_at".into(),
            len,
            min: 1,
            max: MAX_TIMESTAMP_CHARS,
        });
    }
    if !is_rfc3339(&p.created_at) {
        return Err(ModelFileError::BadText {
            field: "provenance.created_at".into(),
            found: p.created_at.clone(),
            allowed: "an RFC 3339 date-time such as 2025-11-30T14:05:00Z is required",
        });
    }
    if p.source_games.len() > MAX_SOURCE_GAMES {
        return Err(ModelFileError::TooMany {
            field: "provenance.source_games".into(),
            count: p.source_games.len(),
            max: MAX_SOURCE_GAMES,
        });
    }
    let mut seen = std::collections::HashSet::with_capacity(p.source_games.len());
    for (i, g) in p.source_games.iter().enumerate() {
        check_id(&g.room, &format!("provenance.source_games[{i}].room"))?;
        if !seen.insert((g.room.as_str(), g.statement)) {
            return Err(ModelFileError::Duplicate { field: format!("provenance.source_games[{i}]") });
        }
    }
    if let Some(m) = &p.metrics {
        let f = |n: &str| format!("provenance.metrics.{n}");
        range(m.epochs.into(), MIN_EPOCHS.into(), MAX_EPOCHS.into(), f("epochs"))?;
        let games = MAX_SOURCE_GAMES as f64;
        range(m.train_games.into(), 1.0, games, f("train_games"))?;
        range(m.holdout_games.into(), 1.0, games, f("holdout_games"))?;
        range(m.train_pairs.into(), 1.0, MAX_TRAIN_PAIRS.into(), f("train_pairs"))?;
        range(m.holdout_pairs.into(), 1.0, MAX_HOLDOUT_PAIRS.into(), f("holdout_pairs"))?;
        for (avail, used, name) in [
            (m.train_pairs_available, m.train_pairs, "train_pairs_available"),
            (m.holdout_pairs_available, m.holdout_pairs, "holdout_pairs_available"),
        ] {
            if avail < u64::from(used) {
                return Err(ModelFileError::Inconsistent {
                    field: f(name),
                    message: format!("{avail} available but {used} used; at least as many must be available"),
                });
            }
        }
        range(m.start_holdout_accuracy, 0.0, 1.0, f("start_holdout_accuracy"))?;
        range(m.start_holdout_log_loss, 0.0, MAX_LOG_LOSS, f("start_holdout_log_loss"))?;
        range(m.holdout_accuracy, 0.0, 1.0, f("holdout_accuracy"))?;
        range(m.holdout_log_loss, 0.0, MAX_LOG_LOSS, f("holdout_log_loss"))?;
        range(m.holdout_top1, 0.0, 1.0, f("holdout_top1"))?;
        range(m.holdout_mean_rank, 1.0, crate::geometry::MAX_POINTS as f64, f("holdout_mean_rank"))?;
    }
    if let Some(t) = &p.trained_from {
        if !is_fingerprint(t) {
            return Err(ModelFileError::FingerprintFormat {
                field: "provenance.trained_from".into(),
                found: t.clone(),
            });
        }
    }
    if let Some(n) = &p.note {
        let len = n.chars().count();
        if len > MAX_NOTE_CHARS {
            return Err(ModelFileError::BadLength {
                field: "provenance.note".into(),
                len,
                min: 0,
                max: MAX_NOTE_CHARS,
            });
        }
        if n.chars().any(char::is_control) {
            return Err(ModelFileError::BadText {
                field: "provenance.note".into(),
                found: n.clone(),
                allowed: "control characters (including line breaks) are not allowed",
            });
        }
    }
    Ok(())
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with real calendar values
/// (RFC 3339 §5.6; `t` and `z` may be lower case; leap second 60 allowed).
pub fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(r)?;
        if part.iter().all(u8::is_ascii_digit) {
            Some(part.iter().fold(0, |a, &d| a * 10 + u32::from(d - b'0')))
        } else {
            None
        }
    };
    let sep = |i: usize, c: &[u8]| b.get(i).is_some_and(|x| c.contains(x));
    let (Some(y), Some(mo), Some(d), Some(h), Some(mi), Some(sec)) =
        (num(0..4), num(5..7), num(8..10), num(11..13), num(14..16), num(17..19))
    else {
        return false;
    };
    if !(sep(4, b"-") && sep(7, b"-") && sep(10, b"Tt") && sep(13, b":") && sep(16, b":")) {
        return false;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match mo {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if d < 1 || d > days || h > 23 || mi > 59 || sec > 60 {
        return false;
    }
    let mut i = 19;
    if sep(i, b".") {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            let (Some(oh), Some(om)) = (num(i + 1..i + 3), num(i + 4..i + 6)) else {
                return false;
            };
            sep(i + 3, b":") && oh <= 23 && om <= 59 && i + 6 == b.len()
        }
        _ => false,
    }
}

// ----------------------------------------------------------------------
// Reading: a JSON tree that keeps duplicate keys, then a checked walk.

/// A JSON value that keeps object keys in order, duplicates included.
enum J {
    Null,
    Bool(bool),
    Num(Num),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

#[derive(Clone, Copy)]
enum Num {
    U(u64),
    I(i64),
    F(f64),
}

impl Num {
    fn as_f64(self) -> f64 {
        match self {
            Num::U(u) => u as f64,
            Num::I(i) => i as f64,
            Num::F(f) => f,
        }
    }
}

impl<'de> Deserialize<'de> for J {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<J, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = J;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<J, E> {
                Ok(J::Bool(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<J, E> {
                Ok(J::Num(Num::U(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<J, E> {
                Ok(J::Num(Num::I(v)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<J, E> {
                Ok(J::Num(Num::F(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<J, E> {
                Ok(J::Str(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<J, E> {
                Ok(J::Str(v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<J, E> {
                Ok(J::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<J, E> {
                Ok(J::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<J, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = a.next_element()? {
                    v.push(x);
                }
                Ok(J::Arr(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<J, A::Error> {
                let mut v = Vec::new();
                while let Some((k, x)) = a.next_entry::<String, J>()? {
                    v.push((k, x));
                }
                Ok(J::Obj(v))
            }
        }
        d.deserialize_any(V)
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// An object's fields after the key check: every key known, none twice,
/// every required one present.
struct Fields<'a> {
    path: &'a str,
    entries: &'a [(String, J)],
}

impl<'a> Fields<'a> {
    fn new(j: &'a J, path: &'a str, allowed: &[&str], required: &[&str]) -> R<Fields<'a>> {
        let J::Obj(entries) = j else {
            return Err(ModelFileError::WrongType { field: path.into(), expected: "an object" });
        };
        for (i, (k, _)) in entries.iter().enumerate() {
            if !allowed.contains(&k.as_str()) {
                return Err(ModelFileError::UnknownField { field: join(path, k), allowed: allowed.join(", ") });
            }
            if entries[..i].iter().any(|(q, _)| q == k) {
                return Err(ModelFileError::Duplicate { field: join(path, k) });
            }
        }
        for r in required {
            if !entries.iter().any(|(k, _)| k == r) {
                return Err(ModelFileError::Missing { field: join(path, r) });
            }
        }
        Ok(Fields { path, entries })
    }
    /// The value, treating `null` as absent.
    fn opt(&self, key: &str) -> Option<&'a J> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v).filter(|v| !matches!(v, J::Null))
    }
    fn req(&self, key: &str) -> R<&'a J> {
        self.opt(key).ok_or_else(|| ModelFileError::Missing { field: join(self.path, key) })
    }
    fn str(&self, key: &str) -> R<String> {
        match self.req(key)? {
            J::Str(s) => Ok(s.clone()),
            _ => Err(ModelFileError::WrongType { field: join(self.path, key), expected: "a string" }),
        }
    }
    fn opt_str(&self, key: &str) -> R<Option<String>> {
        match self.opt(key) {
            None => Ok(None),
            Some(J::Str(s)) => Ok(Some(s.clone())),
            Some(_) => Err(ModelFileError::WrongType { field: join(self.path, key), expected: "a string or null" }),
        }
    }
    fn number(&self, key: &str) -> R<Num> {
        match self.req(key)? {
            J::Num(n) => Ok(*n),
            _ => Err(ModelFileError::WrongType { field: join(self.path, key), expected: "a number" }),
        }
    }
    fn f64(&self, key: &str) -> R<f64> {
        self.number(key).map(Num::as_f64)
    }
    fn u64(&self, key: &str) -> R<u64> {
        match self.number(key)? {
            Num::U(u) => Ok(u),
            Num::I(i) => Err(ModelFileError::OutOfRange {
                field: join(self.path, key),
                value: i as f64,
                min: 0.0,
                max: u64::MAX as f64,
            }),
            Num::F(_) => Err(ModelFileError::WrongType { field: join(self.path, key), expected: "a whole number" }),
        }
    }
    fn u32(&self, key: &str) -> R<u32> {
        let u = self.u64(key)?;
        u32::try_from(u).map_err(|_| ModelFileError::OutOfRange {
            field: join(self.path, key),
            value: u as f64,
            min: 0.0,
            max: u32::MAX.into(),
        })
    }
    fn bool(&self, key: &str) -> R<bool> {
        match self.req(key)? {
            J::Bool(b) => Ok(*b),
            _ => Err(ModelFileError::WrongType { field: join(self.path, key), expected: "true or false" }),
        }
    }
}

fn parse_model(j: &J) -> R<ModelFile> {
    const TOP: [&str; 5] = ["format", "format_version", "weights", "fingerprint", "provenance"];
    let top = Fields::new(j, "", &TOP, &TOP)?;
    let format = top.str("format")?;
    if format != MODEL_FORMAT {
        return Err(ModelFileError::WrongFormat { field: "format".into(), expected: MODEL_FORMAT, found: format });
    }
    let version = top.u64("format_version")?;
    if version != u64::from(MODEL_FORMAT_VERSION) {
        return Err(ModelFileError::UnsupportedVersion {
            field: "format_version".into(),
            found: version,
            supported: MODEL_FORMAT_VERSION,
        });
    }
    let names: Vec<&'static str> = Feature::ALL.iter().map(|&f| f.into()).collect();
    let wf = Fields::new(top.req("weights")?, "weights", &names, &names)?;
    let mut w = [0.0; FEATURE_COUNT];
    for f in Feature::ALL {
        w[f.index()] = wf.f64(names[f.index()])?;
    }
    let weights = Weights(w);
    check_weights(&weights, "weights")?;
    let fp = top.str("fingerprint")?;
    let provenance = parse_provenance(top.req("provenance")?)?;
    Ok(ModelFile { format, format_version: MODEL_FORMAT_VERSION, weights, fingerprint: fp, provenance })
}

fn parse_provenance(j: &J) -> R<Provenance> {
    const P: [&str; 7] = ["model_id", "version", "created_at", "source_games", "metrics", "trained_from", "note"];
    let p = Fields::new(j, "provenance", &P, &P[..4])?;
    let model_id = p.str("model_id")?;
    let version = p.u32("version")?;
    let created_at = p.str("created_at")?;
    let J::Arr(games) = p.req("source_games")? else {
        return Err(ModelFileError::WrongType { field: "provenance.source_games".into(), expected: "an array" });
    };
    if games.len() > MAX_SOURCE_GAMES {
        return Err(ModelFileError::TooMany {
            field: "provenance.source_games".into(),
            count: games.len(),
            max: MAX_SOURCE_GAMES,
        });
    }
    const G: [&str; 3] = ["room", "statement", "held_out"];
    let mut source_games = Vec::with_capacity(games.len());
    for (i, g) in games.iter().enumerate() {
        let path = format!("provenance.source_games[{i}]");
        let gf = Fields::new(g, &path, &G, &G)?;
        source_games.push(SourceGame {
            room: gf.str("room")?,
            statement: gf.u32("statement")?,
            held_out: gf.bool("held_out")?,
        });
    }
    let metrics = match p.opt("metrics") {
        None => None,
        Some(m) => Some(parse_metrics(m)?),
    };
    Ok(Provenance {
        model_id,
        version,
        created_at,
        source_games,
        metrics,
        trained_from: p.opt_str("trained_from")?,
        note: p.opt_str("note")?,
    })
}

fn parse_metrics(j: &J) -> R<TrainMetricsSummary> {
    const M: [&str; 13] = [
        "epochs",
        "train_games",
        "holdout_games",
        "train_pairs_available",
        "train_pairs",
        "holdout_pairs_available",
        "holdout_pairs",
        "start_holdout_accuracy",
        "start_holdout_log_loss",
        "holdout_accuracy",
        "holdout_log_loss",
        "holdout_top1",
        "holdout_mean_rank",
    ];
    let m = Fields::new(j, "provenance.metrics", &M, &M)?;
    Ok(TrainMetricsSummary {
        epochs: m.u32("epochs")?,
        train_games: m.u32("train_games")?,
        holdout_games: m.u32("holdout_games")?,
        train_pairs_available: m.u64("train_pairs_available")?,
        train_pairs: m.u32("train_pairs")?,
        holdout_pairs_available: m.u64("holdout_pairs_available")?,
        holdout_pairs: m.u32("holdout_pairs")?,
        start_holdout_accuracy: m.f64("start_holdout_accuracy")?,
        start_holdout_log_loss: m.f64("start_holdout_log_loss")?,
        holdout_accuracy: m.f64("holdout_accuracy")?,
        holdout_log_loss: m.f64("holdout_log_loss")?,
        holdout_top1: m.f64("holdout_top1")?,
        holdout_mean_rank: m.f64("holdout_mean_rank")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn weights() -> Weights {
        Weights([2.5, 1.75, -3.0, 0.5, 0.25, 0.1, -0.0625, -4.0])
    }
    fn provenance() -> Provenance {
        Provenance {
            model_id: "m-7".into(),
            version: 3,
            created_at: "2025-11-30T14:05:00Z".into(),
            source_games: vec![
                SourceGame { room: "12".into(), statement: 1, held_out: false },
                SourceGame { room: "15".into(), statement: 2, held_out: true },
            ],
            metrics: Some(TrainMetricsSummary {
                epochs: 20,
                train_games: 1,
                holdout_games: 1,
                train_pairs_available: 4200,
                train_pairs: 4200,
                holdout_pairs_available: 3900,
                holdout_pairs: 3900,
                start_holdout_accuracy: 0.55,
                start_holdout_log_loss: 0.69,
                holdout_accuracy: 0.71,
                holdout_log_loss: 0.58,
                holdout_top1: 0.12,
                holdout_mean_rank: 31.5,
            }),
            trained_from: Some(fingerprint(&Weights([0.0; 8]))),
            note: Some("first try".into()),
        }
    }
    fn model() -> ModelFile {
        ModelFile::new(weights(), provenance()).unwrap()
    }
    fn value() -> Value {
        serde_json::from_str(&model().to_json()).unwrap()
    }
    /// The error for the model JSON after `edit`.
    fn refuse(edit: impl FnOnce(&mut Value)) -> ModelFileError {
        let mut v = value();
        edit(&mut v);
        ModelFile::from_json(&v.to_string()).unwrap_err()
    }

    #[test]
    fn fingerprint_is_sha256_of_the_documented_text() {
        let w = Weights([1.0, 0.0, -0.0, 0.0, 0.0, 0.0, 0.0, -2.0]);
        let z = "0000000000000000";
        assert_eq!(
            canonical_text(&w),
            format!("space-baduk-weights/1:3ff0000000000000,{z},{z},{z},{z},{z},{z},c000000000000000")
        );
        // SHA-256 of that text, computed independently (`printf %s … | sha256sum`).
        assert_eq!(fingerprint(&w), "sha256:3c89be70a29bdf39c5288a0448b0baa724ddc75aec9778258de074ac04a62c4f");
    }

    #[test]
    fn fingerprint_sees_every_bit_and_ignores_the_sign_of_zero() {
        let w = weights();
        let fp = fingerprint(&w);
        assert!(is_fingerprint(&fp), "{fp}");
        for i in 0..FEATURE_COUNT {
            let mut v = w;
            v.0[i] = f64::from_bits(v.0[i].to_bits() ^ 1);
            assert_ne!(fingerprint(&v), fp, "weight {i}");
        }
        let mut a = w;
        a.0[0] = 0.0;
        let mut b = w;
        b.0[0] = -0.0;
        assert_eq!(fingerprint(&a), fingerprint(&b));
        // Order matters: swapping two weights changes it.
        let mut s = w;
        s.0.swap(0, 1);
        assert_ne!(fingerprint(&s), fp);
    }

    #[test]
    fn json_has_the_documented_shape_and_round_trips() {
        let m = model();
        let v = value();
        assert_eq!(v["format"], "space-baduk-model");
        assert_eq!(v["format_version"], 1);
        let w = v["weights"].as_object().unwrap();
        // Written in Feature order (serde_json's map sorts its keys, so check the text).
        let text = m.to_json();
        let names = [
            "captures",
            "saves_atari",
            "self_atari",
            "puts_in_atari",
            "liberties",
            "near_last_move",
            "surface_distance",
            "fills_own_eye",
        ];
        let at: Vec<usize> = names.iter().map(|n| text.find(&format!("\"{n}\":")).unwrap()).collect();
        assert!(at.windows(2).all(|p| p[0] < p[1]), "{text}");
        assert_eq!(w.len(), 8);
        assert_eq!(w["self_atari"], -3.0);
        assert_eq!(v["provenance"]["source_games"][1], json!({"room": "15", "statement": 2, "held_out": true}));
        assert_eq!(ModelFile::from_json(&m.to_json()).unwrap(), m);
        assert_eq!(ModelFile::from_json(&m.to_json_pretty()).unwrap(), m);
        // Optional parts may be absent or null.
        let mut bare = m.clone();
        bare.provenance.metrics = None;
        bare.provenance.trained_from = None;
        bare.provenance.note = None;
        bare.provenance.source_games.clear();
        let j = bare.to_json();
        assert!(!j.contains("metrics") && !j.contains("note"), "{j}");
        assert_eq!(ModelFile::from_json(&j).unwrap(), bare);
        let mut v = value();
        v["provenance"]["metrics"] = Value::Null;
        v["provenance"]["note"] = Value::Null;
        let back = ModelFile::from_json(&v.to_string()).unwrap();
        assert_eq!(back.provenance.metrics, None);
        assert_eq!(back.provenance.note, None);
    }

    #[test]
    fn awkward_weights_round_trip_bit_for_bit() {
        // Values whose shortest decimal form needs 17 digits, subnormals, extremes.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200 {
            let mut w = [0.0; FEATURE_COUNT];
            for v in &mut w {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let f = f64::from_bits(x);
                *v = if f.is_finite() && f.abs() <= WEIGHT_BOUND { f } else { (x >> 11) as f64 / (1u64 << 53) as f64 };
            }
            w[0] = 5e-324;
            w[1] = -100.0;
            w[2] = 0.1 + 0.2;
            let m = ModelFile::new(Weights(w), provenance()).unwrap();
            let back = ModelFile::from_json(&m.to_json()).unwrap();
            assert_eq!(back.weights.0.map(f64::to_bits), w.map(f64::to_bits));
        }
    }

    #[test]
    fn integer_weights_are_numbers_too() {
        let mut v = value();
        let w = Weights([1.0, 2.0, -3.0, 0.0, 0.0, 0.0, 0.0, 100.0]);
        for f in Feature::ALL {
            let name: &'static str = f.into();
            v["weights"][name] = json!(w.0[f.index()] as i64);
        }
        v["fingerprint"] = json!(fingerprint(&w));
        assert_eq!(ModelFile::from_json(&v.to_string()).unwrap().weights, w);
    }

    #[test]
    fn each_refusal_names_its_field() {
        let cases: Vec<(ModelFileError, &str)> = vec![
            (ModelFile::from_json("{\"format\": ").unwrap_err(), ""),
            (ModelFile::from_json(&" ".repeat(MAX_MODEL_JSON_BYTES + 1)).unwrap_err(), ""),
            (ModelFile::from_json("[]").unwrap_err(), ""),
            (refuse(|v| v["format"] = json!("other-model")), "format"),
            (refuse(|v| v["format_version"] = json!(2)), "format_version"),
            (refuse(|v| v["format_version"] = json!("1")), "format_version"),
            (refuse(|v| v["password"] = json!("hunter2")), "password"),
            (refuse(|v| v["weights"]["captures"] = json!(100.5)), "weights.captures"),
            (refuse(|v| v["weights"]["fills_own_eye"] = json!(-1e300)), "weights.fills_own_eye"),
            (refuse(|v| v["weights"]["liberties"] = json!("1")), "weights.liberties"),
            (refuse(|v| v["weights"]["liberties"] = Value::Null), "weights.liberties"),
            (refuse(|v| v["weights"]["ninth"] = json!(1.0)), "weights.ninth"),
            (refuse(|v| _ = v["weights"].as_object_mut().unwrap().remove("self_atari")), "weights.self_atari"),
            (refuse(|v| v["weights"] = json!([1, 2, 3, 4, 5, 6, 7, 8])), "weights"),
            (refuse(|v| v["fingerprint"] = json!("md5:00")), "fingerprint"),
            (refuse(|v| v["fingerprint"] = json!(fingerprint(&Weights([0.0; 8])))), "fingerprint"),
            (refuse(|v| v["weights"]["near_last_move"] = json!(0.11)), "fingerprint"),
            (refuse(|v| _ = v.as_object_mut().unwrap().remove("provenance")), "provenance"),
            (refuse(|v| v["provenance"]["model_id"] = json!("")), "provenance.model_id"),
            (refuse(|v| v["provenance"]["model_id"] = json!("a b")), "provenance.model_id"),
            (refuse(|v| v["provenance"]["model_id"] = json!("x".repeat(65))), "provenance.model_id"),
            (refuse(|v| v["provenance"]["version"] = json!(0)), "provenance.version"),
            (refuse(|v| v["provenance"]["version"] = json!(-1)), "provenance.version"),
            (refuse(|v| v["provenance"]["version"] = json!(1.5)), "provenance.version"),
            (refuse(|v| v["provenance"]["version"] = json!(1u64 << 32)), "provenance.version"),
            (refuse(|v| v["provenance"]["created_at"] = json!("yesterday")), "provenance.created_at"),
            (refuse(|v| v["provenance"]["created_at"] = json!("2025-02-29T00:00:00Z")), "provenance.created_at"),
            (refuse(|v| v["provenance"]["invitation_code"] = json!("ABCD")), "provenance.invitation_code"),
            (refuse(|v| v["provenance"]["source_games"] = json!({})), "provenance.source_games"),
            (refuse(|v| v["provenance"]["source_games"][1]["room"] = json!("")), "provenance.source_games[1].room"),
            (
                refuse(|v| v["provenance"]["source_games"][0]["statement"] = json!(-2)),
                "provenance.source_games[0].statement",
            ),
            (
                refuse(|v| v["provenance"]["source_games"][0]["held_out"] = json!(1)),
                "provenance.source_games[0].held_out",
            ),
            (
                refuse(|v| v["provenance"]["source_games"][1]["record"] = json!({"actions": []})),
                "provenance.source_games[1].record",
            ),
            (
                refuse(|v| v["provenance"]["source_games"][1] = v["provenance"]["source_games"][0].clone()),
                "provenance.source_games[1]",
            ),
            (refuse(|v| v["provenance"]["metrics"]["epochs"] = json!(51)), "provenance.metrics.epochs"),
            (refuse(|v| v["provenance"]["metrics"]["epochs"] = json!(0)), "provenance.metrics.epochs"),
            (refuse(|v| v["provenance"]["metrics"]["train_pairs"] = json!(20_001)), "provenance.metrics.train_pairs"),
            (
                refuse(|v| v["provenance"]["metrics"]["holdout_pairs"] = json!(10_001)),
                "provenance.metrics.holdout_pairs",
            ),
            (
                refuse(|v| v["provenance"]["metrics"]["holdout_pairs_available"] = json!(10)),
                "provenance.metrics.holdout_pairs_available",
            ),
            (
                refuse(|v| v["provenance"]["metrics"]["holdout_accuracy"] = json!(1.01)),
                "provenance.metrics.holdout_accuracy",
            ),
            (refuse(|v| v["provenance"]["metrics"]["holdout_top1"] = json!(-0.1)), "provenance.metrics.holdout_top1"),
            (
                refuse(|v| v["provenance"]["metrics"]["holdout_log_loss"] = json!(-1)),
                "provenance.metrics.holdout_log_loss",
            ),
            (
                refuse(|v| v["provenance"]["metrics"]["holdout_mean_rank"] = json!(0.5)),
                "provenance.metrics.holdout_mean_rank",
            ),
            (
                refuse(|v| _ = v["provenance"]["metrics"].as_object_mut().unwrap().remove("holdout_top1")),
                "provenance.metrics.holdout_top1",
            ),
            (refuse(|v| v["provenance"]["trained_from"] = json!("sha256:XYZ")), "provenance.trained_from"),
            (refuse(|v| v["provenance"]["note"] = json!("a\nb")), "provenance.note"),
            (refuse(|v| v["provenance"]["note"] = json!("n".repeat(501))), "provenance.note"),
            (refuse(|v| v["provenance"]["note"] = json!(5)), "provenance.note"),
        ];
        for (e, field) in &cases {
            assert_eq!(e.field(), *field, "{e}");
            assert!(e.to_string().starts_with(field), "{e}");
        }
        assert!(matches!(cases[0].0, ModelFileError::Syntax { line: 1, .. }), "{:?}", cases[0].0);
        assert!(matches!(cases[1].0, ModelFileError::TooLarge { .. }));
        let e = refuse(|v| v["weights"]["captures"] = json!(100.5));
        assert_eq!(
            e,
            ModelFileError::OutOfRange { field: "weights.captures".into(), value: 100.5, min: -100.0, max: 100.0 }
        );
        assert_eq!(e.to_string(), "weights.captures: 100.5 is outside the allowed range -100 to 100");
    }

    #[test]
    fn duplicate_keys_are_refused() {
        let j = model().to_json();
        let dup = j.replacen("\"captures\":2.5", "\"captures\":2.5,\"captures\":2.5", 1);
        assert_ne!(dup, j);
        assert_eq!(
            ModelFile::from_json(&dup).unwrap_err(),
            ModelFileError::Duplicate { field: "weights.captures".into() }
        );
        let dup = j.replacen("{\"format\":", "{\"format\":\"x\",\"format\":", 1);
        assert_eq!(ModelFile::from_json(&dup).unwrap_err(), ModelFileError::Duplicate { field: "format".into() });
    }

    #[test]
    fn new_refuses_what_from_json_refuses() {
        let e = ModelFile::new(Weights([f64::NAN; 8]), provenance()).unwrap_err();
        assert_eq!(e.field(), "weights.captures");
        let mut p = provenance();
        p.version = 0;
        assert_eq!(ModelFile::new(weights(), p).unwrap_err().field(), "provenance.version");
        let mut m = model();
        m.weights.0[3] = 0.75;
        assert!(matches!(m.validate(), Err(ModelFileError::FingerprintMismatch { .. })));
    }

    #[test]
    fn rfc3339_shapes() {
        for ok in [
            "2025-11-30T14:05:00Z",
            "2024-02-29T23:59:60.123456+09:00",
            "2025-01-01t00:00:00z",
            "1999-12-31T23:59:59-05:30",
        ] {
            assert!(is_rfc3339(ok), "{ok}");
        }
        for bad in [
            "",
            "2025-11-30",
            "2025-11-30 14:05:00Z",
            "2025-13-01T00:00:00Z",
            "2025-04-31T00:00:00Z",
            "2100-02-29T00:00:00Z",
            "2025-11-30T24:00:00Z",
            "2025-11-30T14:05:00",
            "2025-11-30T14:05:00.Z",
            "2025-11-30T14:05:00+0900",
            "2025-11-30T14:05:00Zjunk",
            "２025-11-30T14:05:00Z",
        ] {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }

    /// The example in engine/README.md "Learning" is a valid model file.
    #[test]
    fn the_readme_example_is_valid() {
        let readme = include_str!("../../README.md");
        let start = readme.find("```json\n{\n  \"format\": \"space-baduk-model\"").unwrap() + "```json\n".len();
        let end = start + readme[start..].find("```").unwrap();
        let m = ModelFile::from_json(&readme[start..end]).unwrap();
        assert_eq!(m.weights, Weights([2.75, 1.5, -3.25, 0.625, 0.875, 1.0625, 1.125, -4.0]));
        assert_eq!(m.provenance.trained_from, Some(fingerprint(&crate::computer::DEFAULT_WEIGHTS)));
        assert_eq!(m.provenance.source_games.iter().filter(|g| g.held_out).count(), 1);
    }
}
