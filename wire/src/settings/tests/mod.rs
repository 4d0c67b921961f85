//! Tests of the match settings (003 §1.1–1.5, §4.3, §5.1, §6.1, §6.4, §10.1;
//! 000 §2, §4, §7, §8.5).

use super::*;
use engine::{Game, Phase};

fn space() -> MatchSettings {
    MatchSettings::space_default()
}
fn classic() -> MatchSettings {
    MatchSettings::classic_default(19)
}

/// The messages of a refused setting.
fn messages(s: &MatchSettings) -> Vec<String> {
    match s.validate() {
        Ok(_) => Vec::new(),
        Err(e) => e.problems.iter().map(ToString::to_string).collect(),
    }
}

/// Asserts that `s` is refused with exactly this one message.
#[track_caller]
fn refused_with(s: &MatchSettings, msg: &str) {
    assert_eq!(messages(s), vec![msg.to_string()]);
}

#[track_caller]
fn ok(s: &MatchSettings) {
    assert!(s.validate().is_ok(), "{:?}", messages(s));
}

fn note(t: &str) -> SpecialRule {
    SpecialRule::Note { text: t.to_string() }
}

fn helper(name: &str) -> Assistant {
    Assistant {
        name: name.into(),
        kind: AssistantKind::Program,
        helps: AssistedPlayer::Both,
        extent: AssistanceExtent::RulesAndControls,
    }
}

mod limits;
mod properties;
mod rules_and_assistance;
mod wire_form;
