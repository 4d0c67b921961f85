//! `/rules/common` (003 §1.4–1.5): the common rules anyone can read — the version in force
//! for new rooms, every earlier version with the precedent that made it, and any version in
//! full (`?version=N`): each clause with its precedents and what a match may agree to vary.

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::header::fmt_time;
use crate::{
    api::governance::read_common_rules,
    governance::{CommonRules, Permit, Precedent},
    tr,
};
use wire::settings::SpecialRuleKind;

fn permit_text(p: &Permit) -> String {
    match (p.kind, p.min, p.max) {
        (SpecialRuleKind::UndoLimit, Some(min), Some(max)) => {
            tr!("rules.common.permit_undo", min = min, max = max, clause = p.clause.clone())
        }
        _ => tr!("rules.common.permit_note", clause = p.clause.clone()),
    }
}

#[component]
fn PrecedentView(p: Precedent) -> impl IntoView {
    view! {
        <div class="precedent" data-testid="precedent">
            <p><strong>{tr!("rules.common.precedent_head", version = p.version, clause = p.clause.clone())}</strong>
                " · "{fmt_time(p.at_ms)}" · "{p.by.clone()}</p>
            <p class="precedent-text">{p.text.clone()}</p>
            <p class="reasons">{tr!("conduct.reasons", text = p.reasons.clone())}</p>
            {p.ruling.map(|r| view! {
                <p class="hint">{tr!("rules.common.from_ruling", room = r.room_id, seq = r.seq)}</p>
            })}
        </div>
    }
}

#[component]
fn RulesView(rules: CommonRules) -> impl IntoView {
    let CommonRules { current, shown, versions } = rules;
    let is_current = shown.version == current;
    view! {
        <section class="card" data-testid="rules-shown" data-version=shown.version.to_string()>
            <h2>{tr!("rules.common.version_head", version = shown.version)}
                {is_current.then(|| view! { " "<span class="badge" data-testid="rules-current">{tr!("rules.common.in_force")}</span> })}
            </h2>
            <p class="hint">{match shown.created_by.clone() {
                Some(by) => tr!("rules.common.made_by", date = fmt_time(shown.created_ms), by = by),
                None => tr!("rules.common.shipped", date = fmt_time(shown.created_ms)),
            }}</p>
            <h3>{tr!("rules.common.permits")}</h3>
            <ul data-testid="permits">
                {shown.permits.kinds.iter().map(|p| view! { <li>{permit_text(p)}</li> }).collect_view()}
            </ul>
            <p class="hint">{tr!("rules.common.language_note")}</p>
            <div class="clauses">
                {shown.clauses.into_iter().map(|c| {
                    let has = !c.precedents.is_empty();
                    view! {
                        <details class="clause" data-testid="clause" data-clause=c.id.clone() open=has>
                            <summary><strong>{c.id.clone()}</strong>" — "{c.title.clone()}
                                {has.then(|| view! { " "<span class="badge">{tr!("rules.common.precedents", n = c.precedents.len())}</span> })}
                            </summary>
                            <div class="clause-text">
                                {paragraphs(&c.text).into_iter().map(|p| view! { <p>{p}</p> }).collect_view()}
                            </div>
                            {c.precedents.into_iter().map(|p| view! { <PrecedentView p/> }).collect_view()}
                        </details>
                    }
                }).collect_view()}
            </div>
        </section>
        <section class="card" data-testid="rules-versions">
            <h2>{tr!("rules.common.versions")}</h2>
            <ol reversed>
                {versions.into_iter().map(|v| view! {
                    <li data-testid="rules-version-entry">
                        <a href=format!("/rules/common?version={}", v.version)>{tr!("rules.common.version_head", version = v.version)}</a>
                        " · "{fmt_time(v.created_ms)}
                        {match v.precedent {
                            Some(p) => view! { <PrecedentView p/> }.into_any_sync(),
                            None => view! { <p class="hint">{tr!("rules.common.first")}</p> }.into_any_sync(),
                        }}
                    </li>
                }).collect_view()}
            </ol>
        </section>
    }
}

#[component]
pub fn CommonRulesPage() -> impl IntoView {
    let version = move || use_query_map().read().get("version").and_then(|v| v.parse::<u32>().ok());
    let data = crate::pages::resource(version, read_common_rules);
    view! {
        <crate::pages::TopBar/>
        <main class="page" data-testid="common-rules">
            <h1>{move || tr!("rules.common.title")}</h1>
            <p>{move || tr!("rules.common.intro")}</p>
            <Suspense fallback=|| view! { <p>"…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(rules) => view! { <RulesView rules/> }.into_any_sync(),
                        Err(e) => view! {
                            <p class="error" role="alert">{crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p>
                        }.into_any_sync(),
                    }
                })}
            </Suspense>
        </main>
    }
}

/// A clause's text as paragraphs to read: the reference is Markdown wrapped at 100 columns, so
/// its lines are joined within a paragraph (a blank line, a list item or a table row starts the
/// next; an item keeps its bullet or number, a row's cells stand in one line), and its
/// emphasis and code marks, not for reading, are dropped.
fn paragraphs(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            open = false;
            continue;
        }
        if line.starts_with('|') && line.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ')) {
            continue; // a table's rule line
        }
        let item = if let Some(rest) = line.strip_prefix("- ") {
            Some(format!("• {rest}"))
        } else if line.starts_with('|') {
            // A table row, its cells in a line.
            Some(line.trim_matches('|').split('|').map(str::trim).collect::<Vec<_>>().join(" · "))
        } else {
            let numbered =
                line.split_once(". ").is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            numbered.then(|| line.to_string())
        };
        match (open, item) {
            (true, None) => {
                if let Some(last) = out.last_mut() {
                    last.push(' ');
                    last.push_str(line);
                }
            }
            (_, item) => out.push(item.unwrap_or_else(|| line.to_string())),
        }
        open = true;
    }
    out.into_iter().map(|p| p.replace("**", "").replace(['`', '*'], "")).collect()
}

#[cfg(test)]
mod tests {
    use super::paragraphs;

    #[test]
    fn wrapped_lines_join_and_list_items_and_blank_lines_part_paragraphs() {
        let text = "If the players disagree, scoring is\nheld.\n\n- A *Dispute* holds\n  the room.\n- The `ruling`\n  has **reasons**.\n\n제품 결정: 판정만으로는\n  끝나지 않습니다.";
        assert_eq!(
            paragraphs(text),
            vec![
                "If the players disagree, scoring is held.",
                "• A Dispute holds the room.",
                "• The ruling has reasons.",
                "제품 결정: 판정만으로는 끝나지 않습니다.",
            ]
        );
        assert!(paragraphs("").is_empty());
        let listed =
            "Before:\n1. Colours are drawn.\n2. Play\n   starts.\n\n| Option | Default |\n|---|---|\n| Komi | 6.5 |";
        assert_eq!(
            paragraphs(listed),
            vec!["Before:", "1. Colours are drawn.", "2. Play starts.", "Option · Default", "Komi · 6.5"]
        );
    }
}
