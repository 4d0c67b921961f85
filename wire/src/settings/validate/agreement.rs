//! Validation of what the players agree beyond the board and the clock: special rules within
//! the pinned version's permits, assistance, labels, the rules version, and the room's mode
//! with its computer seats.

use super::*;

impl MatchSettings {
    pub(super) fn check_special_rules(&self, p: &mut Problems) {
        let rules = &self.special_rules;
        if self.preset == Preset::Classic {
            // 000 §7: Classic's house rules are the options themselves.
            if !rules.is_empty() {
                p.not_allowed(
                    Field::SpecialRules,
                    "special_rules",
                    format!("{} entries", rules.len()),
                    "none for the Classic preset (house rules are options)",
                    "000 §7",
                );
            }
            return;
        }
        // 003 §1.4: special rules only within what the common rules permit (the version's
        // kinds and bounds: `check_permits`); here what holds under every version.
        if rules.len() > MAX_SPECIAL_RULES {
            p.range(
                Field::SpecialRules,
                "special_rules",
                format!("{} entries", rules.len()),
                format!("0 to {MAX_SPECIAL_RULES} entries"),
                "003 §1.4",
            );
        }
        for (i, r) in rules.iter().enumerate().take(MAX_SPECIAL_RULES + 1) {
            let earlier = &rules[..i];
            match r {
                SpecialRule::Note { text } => {
                    let path = format!("special_rules[{i}].text");
                    check_text(p, Field::SpecialRules, path.clone(), text, MAX_SPECIAL_RULE_CHARS, "003 §1.4");
                    let same = |e: &SpecialRule| matches!(e, SpecialRule::Note { text: t } if t.trim() == text.trim());
                    if !text.trim().is_empty() && earlier.iter().any(same) {
                        p.not_allowed(Field::SpecialRules, path, show_text(text), "each note once", "003 §1.4");
                    }
                }
                SpecialRule::UndoLimit { per_player } => {
                    if earlier.iter().any(|e| e.kind() == r.kind()) {
                        let path = format!("special_rules[{i}]");
                        p.not_allowed(Field::SpecialRules, path, per_player, "one undo limit", "003 §1.4");
                    }
                }
            }
        }
    }

    /// 003 §1.4: each special rule of a kind `permits` allows, within its bounds; a rule
    /// outside them conflicts with the common rules and is refused before play. The clause
    /// named is the permit's own (e.g. 003 §5.1 for an undo limit).
    pub fn check_permits(&self, version: u32, permits: &Permits) -> Result<(), SettingsError> {
        let mut p = Problems(Vec::new());
        for (i, r) in self.special_rules.iter().enumerate() {
            let path = format!("special_rules[{i}]");
            let Some(permit) = permits.permit(r.kind()) else {
                let allowed = format!(
                    "the kinds common rules version {version} permits: {}",
                    permits.kinds.iter().map(|k| k.kind.as_str()).collect::<Vec<_>>().join(", ")
                );
                p.not_allowed(Field::SpecialRules, path, r.kind().as_str(), allowed, "003 §1.4");
                continue;
            };
            if let (SpecialRule::UndoLimit { per_player }, Some(range)) = (r, permit.range()) {
                if !range.contains(per_player) {
                    let allowed = format!(
                        "{} to {} per player under common rules version {version} (003 §1.4)",
                        range.start(),
                        range.end()
                    );
                    p.range(Field::SpecialRules, format!("{path}.per_player"), per_player, allowed, &permit.clause);
                }
            }
        }
        if p.0.is_empty() {
            Ok(())
        } else {
            Err(SettingsError { problems: p.0 })
        }
    }

    pub(super) fn check_assistance(&self, p: &mut Problems) {
        let AssistanceScope::Agreed { assistants } = &self.assistance else {
            return;
        };
        // 003 §6.4: agreed help records who may assist and within what scope.
        if assistants.is_empty() {
            p.not_allowed(
                Field::Assistance,
                "assistance.assistants",
                "an empty list",
                "1 to 4 named assistants (or kind none)",
                "003 §6.4",
            );
        }
        if assistants.len() > MAX_ASSISTANTS {
            p.range(
                Field::Assistance,
                "assistance.assistants",
                format!("{} entries", assistants.len()),
                format!("1 to {MAX_ASSISTANTS} assistants"),
                "003 §6.4",
            );
        }
        for (i, a) in assistants.iter().enumerate().take(MAX_ASSISTANTS + 1) {
            let path = format!("assistance.assistants[{i}].name");
            check_text(p, Field::Assistance, path.clone(), &a.name, MAX_ASSISTANT_NAME_CHARS, "003 §6.4");
            if !a.name.trim().is_empty() && assistants[..i].iter().any(|b| b.name.trim() == a.name.trim()) {
                p.not_allowed(Field::Assistance, path, show_text(&a.name), "each assistant once", "003 §6.4");
            }
        }
    }

    pub(super) fn check_labels(&self, p: &mut Problems) {
        if self.preset == Preset::Classic {
            // 000 §3: columns A–T without I and rows from the bottom.
            if !self.labels.is_numeric() {
                p.not_allowed(
                    Field::Labels,
                    "labels",
                    "non-numeric labels",
                    "numeric (Classic boards use vertices)",
                    "000 §3",
                );
            }
            return;
        }
        let CoordLabels::Custom { x, y, z } = &self.labels else { return };
        for (name, list) in [("x", x), ("y", y), ("z", z)] {
            for (i, l) in list.iter().enumerate() {
                let n = l.chars().count();
                if n > MAX_LABEL_CHARS || l.chars().any(char::is_control) {
                    p.range(
                        Field::Labels,
                        format!("labels.{name}[{i}]"),
                        show_text(l),
                        format!("1 to {MAX_LABEL_CHARS} characters without control characters"),
                        "003 §7.1",
                    );
                }
            }
        }
        // The engine checks count, uniqueness and form; a bad box is reported by check_board.
        if let Ok(g) = Geometry::from_spec(self.board) {
            if let Err(e) = self.labels.label_set(&g) {
                let (axis, value) = match &e {
                    LabelError::WrongCount { axis, given, .. } => (*axis, format!("{given} labels")),
                    LabelError::Duplicate { axis, label } | LabelError::Malformed { axis, label } => {
                        (*axis, show_text(label))
                    }
                };
                let path = format!("labels.{}", axis.to_string().to_lowercase());
                p.not_allowed(Field::Labels, path, value, e.to_string(), "003 §7.1, §9.4");
            }
        }
    }

    pub(super) fn check_version(&self, p: &mut Problems) {
        // 003 §1.5: versions are numbered from 1; which ones exist is the server's to check
        // (a new room pins the version in force).
        if self.common_rules_version == Some(0) {
            p.range(Field::CommonRulesVersion, "common_rules_version", 0, "1 or more", "003 §1.5");
        }
        // 003 §10.1: record retention 0–36,500 days (0 = kept for ever).
        if let Some(days) = self.record_retention_days.filter(|d| *d > RETENTION_DAYS_MAX) {
            let allowed = format!("0 to {RETENTION_DAYS_MAX} days (0 = kept for ever)");
            p.range(Field::RecordRetentionDays, "record_retention_days", days, allowed, "003 §10.1");
        }
    }

    pub(super) fn check_mode(&self, p: &mut Problems) {
        use crate::mode::{RoomMode, GUEST_NAME_LEN};
        if self.access == RoomAccess::Open && self.mode != RoomMode::Match {
            let allowed = "open only for a match between two people; by invitation otherwise";
            p.not_allowed(Field::Mode, "access", "open", allowed, "003 §1.2");
        }
        match &self.mode {
            RoomMode::Match => {}
            RoomMode::OneDevice { second_player } => {
                let n = second_player.trim().chars().count();
                if !GUEST_NAME_LEN.contains(&n) {
                    let allowed = format!("{}..={} characters", GUEST_NAME_LEN.start(), GUEST_NAME_LEN.end());
                    p.range(Field::Mode, "mode.second_player", n, allowed, "003 §1.2");
                }
            }
            RoomMode::Practice { computer: None } => {}
            RoomMode::Practice { computer: Some(c) } | RoomMode::VsComputer { computer: c, .. } => {
                check_computer(p, c, "mode.computer");
            }
            RoomMode::ProgramGame { first, second, .. } => {
                check_computer(p, first, "mode.first");
                check_computer(p, second, "mode.second");
                if first.colour == second.colour {
                    let (colour, allowed) = (format!("{:?}", second.colour).to_lowercase(), "the other colour");
                    p.not_allowed(Field::Mode, "mode.second.colour", colour, allowed, "003 §12.4");
                }
            }
        }
    }
}

/// 003 §11.4: the basic computer; its levels and time per move.
fn check_computer(p: &mut Problems, c: &crate::mode::ComputerSeat, at: &str) {
    use crate::mode::{LEVELS, MOVE_MS};
    if !LEVELS.contains(&c.level) {
        let allowed = format!("{}..={}", LEVELS.start(), LEVELS.end());
        p.range(Field::Mode, format!("{at}.level"), c.level, allowed, "003 §11.4");
    }
    if !MOVE_MS.contains(&c.move_ms) {
        let allowed = format!("{}..={} ms", MOVE_MS.start(), MOVE_MS.end());
        p.range(Field::Mode, format!("{at}.move_ms"), c.move_ms, allowed, "003 §11.4");
    }
    if c.model_id.is_some_and(|id| id < 1) {
        p.range(Field::Mode, format!("{at}.model_id"), c.model_id.unwrap_or(0), "≥ 1", "003 §12.5");
    }
}
