//! The settings' problems beside the fields they concern: `MatchSettings::validate` runs in
//! the browser as the form changes (the server runs the same check again when the room is
//! created), and each typed [`SettingProblem`] is shown where its `path` points.

use leptos::prelude::*;

use wire::settings::SettingProblem;

/// Whether `p` concerns the field at `path` (`time` covers `time.main_s`, `board` covers
/// `board.x`, `special_rules` covers `special_rules[2].text`).
pub fn concerns(p: &SettingProblem, path: &str) -> bool {
    p.path == path || p.path.strip_prefix(path).is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// The problems concerning `path`, each in the catalogue's words, beside the field.
#[component]
pub fn FieldProblems(problems: Memo<Vec<SettingProblem>>, path: &'static str) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    move || {
        problems.with(|all| {
            all.iter()
                .filter(|p| concerns(p, path))
                .map(|p| {
                    let text = crate::text::settings_problem(lang.get(), p);
                    view! { <span class="field-error" role="alert" data-testid=format!("problem-{path}")>{text}</span> }
                })
                .collect_view()
        })
    }
}

/// A number typed into a field, or the field's own "not a number" line.
#[component]
pub fn Unreadable(bad: Signal<bool>, testid: &'static str) -> impl IntoView {
    view! {
        <Show when=move || bad.get()>
            <span class="field-error" role="alert" data-testid=format!("unreadable-{testid}")>{move || crate::tr!("new.not_a_number")}</span>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::settings::{Field, ProblemKind};

    fn at(path: &str) -> SettingProblem {
        SettingProblem {
            field: Field::Time,
            path: path.into(),
            value: "0".into(),
            kind: ProblemKind::OutOfRange,
            allowed: "1".into(),
            clause: "000 §2".into(),
        }
    }

    #[test]
    fn a_problem_is_shown_beside_its_field_and_its_parents_only() {
        assert!(concerns(&at("time.main_s"), "time"));
        assert!(concerns(&at("time.main_s"), "time.main_s"));
        assert!(concerns(&at("special_rules[2].text"), "special_rules"));
        assert!(!concerns(&at("time.main_s"), "time.periods"));
        assert!(!concerns(&at("timer"), "time"));
        assert!(!concerns(&at("board.x"), "board.y"));
    }
}
