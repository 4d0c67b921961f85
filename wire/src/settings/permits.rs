//! What a match may agree to vary under a version of the common rules (003 §1.4: special
//! rules only within the scope the common rules permit): the permits a version carries, with
//! the clause each one is stated in. The versions themselves are `crate::governance`.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::SpecialRuleKind;

/// One special-rule kind a version permits, with its bounds where it has a number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Permit {
    pub kind: SpecialRuleKind,
    pub min: Option<u32>,
    pub max: Option<u32>,
    /// The clause the kind varies (named when a choice is outside the bounds).
    pub clause: String,
}

impl Permit {
    /// The allowed values, for kinds that carry a number.
    pub fn range(&self) -> Option<RangeInclusive<u32>> {
        Some(self.min?..=self.max?)
    }
}

/// What a match may agree to vary under a version (003 §1.4: special rules only within the
/// scope the common rules permit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Permits {
    pub kinds: Vec<Permit>,
}

impl Permits {
    pub fn permit(&self, kind: SpecialRuleKind) -> Option<&Permit> {
        self.kinds.iter().find(|p| p.kind == kind)
    }

    /// What the first version permits: an undo limit of 0–10 per player (003 §5.1 leaves
    /// undo unlimited by consent; fewer may be agreed), and free notes for the record.
    pub fn first() -> Permits {
        Permits {
            kinds: vec![
                Permit { kind: SpecialRuleKind::UndoLimit, min: Some(0), max: Some(10), clause: "003 §5.1".into() },
                Permit { kind: SpecialRuleKind::Note, min: None, max: None, clause: "003 §1.4".into() },
            ],
        }
    }
}
